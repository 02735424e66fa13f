/* SPDX-License-Identifier: MIT */
/* Tests of format/chunk.c: the chunk header codec and its checks, payload
 * checksums and zstd frame checks, and record framing checks. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

static struct trace__chunk sample_chunk(void) {
  struct trace__chunk c = {0};
  c.type = TRACE_CHUNK_RECORDS;
  c.tid = 42;
  c.count = 3;
  c.seq_first = 10;
  c.seq_last = 20;
  c.comp_len = 100;
  c.raw_len = 200;
  c.payload_crc = 0xdeadbeef;
  return c;
}

void test_chunk_roundtrip(void) {
  struct trace__chunk c = sample_chunk(), d;
  u8 h[TRACE__CHUNK_HDR];
  trace__chunk_encode(&c, h);
  CU_ASSERT_EQUAL(rd_le32(h), TRACE__CHUNK_MAGIC);
  CU_ASSERT_EQUAL(memcmp(h, "RWCK", 4), 0);
  CU_ASSERT_EQUAL_FATAL(trace__chunk_decode(&d, h, 1234, NULL), 0);
  CU_ASSERT_EQUAL(d.offset, 1234);
  CU_ASSERT_EQUAL(d.type, c.type);
  CU_ASSERT_EQUAL(d.tid, 42);
  CU_ASSERT_EQUAL(d.count, 3);
  CU_ASSERT_EQUAL(d.seq_first, 10);
  CU_ASSERT_EQUAL(d.seq_last, 20);
  CU_ASSERT_EQUAL(d.comp_len, 100);
  CU_ASSERT_EQUAL(d.raw_len, 200);
  CU_ASSERT_EQUAL(d.payload_crc, 0xdeadbeef);
  /* Fields at their documented offsets, little-endian. */
  CU_ASSERT_EQUAL(rd_le16(h + 4), TRACE_CHUNK_RECORDS);
  CU_ASSERT_EQUAL(rd_le32(h + 8), 42);
  CU_ASSERT_EQUAL(rd_le64(h + 16), 10);
  CU_ASSERT_EQUAL(rd_le32(h + 36), 200);
}

void test_chunk_every_flip_detected(void) {
  struct trace__chunk c = sample_chunk(), d;
  u8 h[TRACE__CHUNK_HDR];
  trace__chunk_encode(&c, h);
  for (int bit = 0; bit < TRACE__CHUNK_HDR * 8; bit++) {
    struct rw_diag diag = {0};
    h[bit / 8] ^= (u8)(1 << bit % 8);
    CU_ASSERT_EQUAL(trace__chunk_decode(&d, h, 64, &diag), RW_ECORRUPT);
    CU_ASSERT_EQUAL(diag.offset, 64);
    CU_ASSERT(strstr(diag.msg, "offset 64") != NULL);
    h[bit / 8] ^= (u8)(1 << bit % 8);
  }
}

/* Encodes C with a valid checksum and expects decode to reject it. */
static void expect_insane(struct trace__chunk c, const char *what) {
  u8 h[TRACE__CHUNK_HDR];
  struct trace__chunk d;
  struct rw_diag diag = {0};
  trace__chunk_encode(&c, h);
  CU_ASSERT_EQUAL(trace__chunk_decode(&d, h, 0, &diag), RW_ECORRUPT);
  CU_ASSERT(strstr(diag.msg, what) != NULL);
}

void test_chunk_sanity(void) {
  struct trace__chunk c = sample_chunk();
  c.raw_len = TRACE__MAX_CHUNK_RAW + 1;
  expect_insane(c, "exceeds the limit");
  c = sample_chunk();
  c.comp_len = 0;
  expect_insane(c, "compressed length");
  c = sample_chunk();
  c.comp_len = 100000; /* more than zstd could ever need for 200 bytes */
  expect_insane(c, "compressed length");
  c = sample_chunk();
  c.seq_first = 30;
  expect_insane(c, "record range");
  c = sample_chunk();
  c.count = 12; /* 12 records cannot have 11 distinct seqs */
  expect_insane(c, "record range");
  c = sample_chunk();
  c.count = 0;
  expect_insane(c, "record range");
  c = sample_chunk();
  c.type = 0;
  expect_insane(c, "type 0");
  c = sample_chunk();
  c.type = TRACE_CHUNK_KEYFRAME;
  expect_insane(c, "keyframe");
  c = sample_chunk();
  c.type = TRACE_CHUNK_BLOB;
  c.count = 0;
  c.seq_first = 0;
  c.seq_last = 100; /* 166 data bytes cannot fit in a blob of 100 */
  expect_insane(c, "blob piece");
  c = sample_chunk();
  c.type = TRACE_CHUNK_META;
  c.count = 1000;
  expect_insane(c, "metadata");
  /* A type from a newer writer is accepted (and later skipped). */
  {
    u8 h[TRACE__CHUNK_HDR];
    struct trace__chunk d;
    c = sample_chunk();
    c.type = 77;
    trace__chunk_encode(&c, h);
    CU_ASSERT_EQUAL(trace__chunk_decode(&d, h, 0, NULL), 0);
  }
}

void test_chunk_payload(void) {
  u8 raw[1000], file[2048], out[1000];
  struct trace__chunk c = {0};
  struct rw_diag d = {0};
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  size_t comp;
  for (int i = 0; i < 1000; i++) raw[i] = (u8)(i / 10);
  comp = ZSTD_compress(file + TRACE__CHUNK_HDR, sizeof file - TRACE__CHUNK_HDR,
                       raw, sizeof raw, 1);
  CU_ASSERT_FATAL(!ZSTD_isError(comp));
  c.type = TRACE_CHUNK_KEYFRAME;
  c.comp_len = (u32)comp;
  c.raw_len = 1000;
  c.payload_crc = rw_crc32c(0, file + TRACE__CHUNK_HDR, comp);
  CU_ASSERT_EQUAL(trace__payload_check(&c, file, &d), 0);
  CU_ASSERT_EQUAL(trace__payload_decompress(dctx, &c, file, out, &d), 0);
  CU_ASSERT_EQUAL(memcmp(out, raw, 1000), 0);
  /* A raw length the frame does not declare is refused before any
   * decompression. */
  c.raw_len = 999;
  CU_ASSERT_EQUAL(trace__payload_decompress(dctx, &c, file, out, &d),
                  RW_ECORRUPT);
  CU_ASSERT(strstr(d.msg, "raw length") != NULL);
  c.raw_len = 1000;
  /* Trailing bytes after the frame. */
  c.comp_len = (u32)comp + 1;
  CU_ASSERT_EQUAL(trace__payload_decompress(dctx, &c, file, out, &d),
                  RW_ECORRUPT);
  c.comp_len = (u32)comp;
  file[TRACE__CHUNK_HDR + comp / 2] ^= 4;
  CU_ASSERT_EQUAL(trace__payload_check(&c, file, &d), RW_ECORRUPT);
  CU_ASSERT(strstr(d.msg, "payload checksum") != NULL);
  ZSTD_freeDCtx(dctx);
}

/* Appends a record header to P at *N. */
static void rec(u8 *p, size_t *n, u16 type, u32 len, u64 seq) {
  wr_le16(p + *n, type);
  wr_le32(p + *n + 2, len);
  wr_le64(p + *n + 6, seq);
  memset(p + *n + TRACE__REC_HDR, 0xab, len);
  *n += TRACE__REC_HDR + len;
}

void test_chunk_records(void) {
  u8 p[256];
  size_t n = 0;
  struct trace__chunk c = {0};
  struct rw_diag d = {0};
  rec(p, &n, 1, 5, 10);
  rec(p, &n, 2, 0, 12);
  rec(p, &n, 3, 7, 20);
  c.type = TRACE_CHUNK_RECORDS;
  c.count = 3;
  c.seq_first = 10;
  c.seq_last = 20;
  c.raw_len = (u32)n;
  CU_ASSERT_EQUAL(trace__records_check(&c, p, &d), 0);
  c.count = 4;
  CU_ASSERT_EQUAL(trace__records_check(&c, p, &d), RW_ECORRUPT);
  c.count = 3;
  c.seq_last = 21;
  CU_ASSERT_EQUAL(trace__records_check(&c, p, &d), RW_ECORRUPT);
  c.seq_last = 20;
  /* A length running past the payload. */
  wr_le32(p + 2, 1000);
  CU_ASSERT_EQUAL(trace__records_check(&c, p, &d), RW_ECORRUPT);
  CU_ASSERT(strstr(d.msg, "length 1000") != NULL);
  wr_le32(p + 2, 5);
  /* Sequence numbers must increase. */
  wr_le64(p + 19 + 6, 9);
  CU_ASSERT_EQUAL(trace__records_check(&c, p, &d), RW_ECORRUPT);
  wr_le64(p + 19 + 6, 12);
  /* A header cut by the end of the payload. */
  c.raw_len = (u32)n - 10;
  CU_ASSERT_EQUAL(trace__records_check(&c, p, &d), RW_ECORRUPT);
}

void test_chunk_header_trailer(void) {
  u8 h[TRACE__HDR_SIZE], t[TRACE__TRAILER_SIZE];
  trace__header_encode(h, 123456789, 4096);
  CU_ASSERT_EQUAL(memcmp(h, TRACE__MAGIC, 8), 0);
  CU_ASSERT_EQUAL(rd_le16(h + 8), TRACE_VERSION_MAJOR);
  CU_ASSERT_EQUAL(rd_le16(h + 12), TRACE__HDR_SIZE);
  CU_ASSERT_EQUAL(rd_le16(h + 14), 62);
  CU_ASSERT_EQUAL(rd_le32(h + 16), 4096);
  CU_ASSERT_EQUAL(rd_le64(h + 24), 123456789);
  CU_ASSERT_EQUAL(rd_le32(h + 60), rw_crc32c(0, h, 60));
  trace__trailer_encode(t, 1000, 90);
  CU_ASSERT_EQUAL(memcmp(t, "RWDINDEX", 8), 0);
  CU_ASSERT_EQUAL(rd_le64(t + 8), 1000);
  CU_ASSERT_EQUAL(rd_le64(t + 16), 90);
  CU_ASSERT_EQUAL(rd_le32(t + 28), rw_crc32c(0, t, 28));
}
