/* SPDX-License-Identifier: MIT */
/* Tests of format/index.c: an index whose checksums hold but whose content
 * is impossible (counts beyond the payload, chunks out of place, blobs over
 * foreign chunks, streams out of order) is refused, and the reader falls
 * back to a scan. The indexes are built by hand with the chunk codec. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

/* Replaces the index of the closed trace F (N bytes) by one whose payload
 * is RAW (LEN bytes), rewriting the trailer. Returns the new file (caller
 * frees) and its size in *OUT_N. */
static u8 *with_index(const u8 *f, size_t n, const u8 *raw, size_t len,
                      size_t *out_n) {
  u64 ioff = rd_le64(f + n - 24);
  size_t bound = ZSTD_compressBound(len);
  u8 *g = malloc(ioff + TRACE__CHUNK_HDR + bound + TRACE__TRAILER_SIZE);
  struct trace__chunk c = {0};
  size_t comp;
  memcpy(g, f, ioff);
  comp = ZSTD_compress(g + ioff + TRACE__CHUNK_HDR, bound, raw, len, 1);
  c.type = TRACE_CHUNK_INDEX;
  c.comp_len = (u32)comp;
  c.raw_len = (u32)len;
  c.payload_crc = rw_crc32c(0, g + ioff + TRACE__CHUNK_HDR, comp);
  trace__chunk_encode(&c, g + ioff);
  trace__trailer_encode(g + ioff + TRACE__CHUNK_HDR + comp, ioff,
                        TRACE__CHUNK_HDR + comp);
  *out_n = ioff + TRACE__CHUNK_HDR + comp + TRACE__TRAILER_SIZE;
  return g;
}

/* The decompressed index of closed trace F; caller frees. */
static u8 *index_raw(const u8 *f, size_t n, size_t *len) {
  u64 ioff = rd_le64(f + n - 24);
  u8 *raw;
  *len = rd_le32(f + ioff + 36);
  raw = malloc(*len);
  ZSTD_decompress(raw, *len, f + ioff + TRACE__CHUNK_HDR,
                  rd_le32(f + ioff + 32));
  return raw;
}

/* Opens G and expects a rebuilt trace with damage at the index saying
 * WHAT, still holding every record. */
static void expect_fallback(const u8 *g, size_t n, const char *what) {
  trace_reader *r;
  struct trace_info info;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, g, n, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT(info.rebuilt);
  CU_ASSERT(info.damaged);
  if (!strstr(info.damage, what)) fprintf(stderr, "damage: %s\n", info.damage);
  CU_ASSERT(strstr(info.damage, what) != NULL);
  tf_check_all(r, 3, 400);
  trace_reader_close(r);
}

void test_index_impossible(void) {
  const char *p = tf_path("index.rwd");
  struct tf_sample s = {3, 400, 1024, 0, 3, 2, 1};
  u8 *f, *raw, *g, *mod;
  size_t n, len, gn;
  u32 nchunks;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  f = tf_read_file(p, &n);
  unlink(p);
  raw = index_raw(f, n, &len);
  nchunks = rd_le32(raw);
  mod = malloc(len);

  /* Unchanged, it loads. */
  g = with_index(f, n, raw, len, &gn);
  {
    trace_reader *r;
    struct trace_info info;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, g, gn, NULL), 0);
    trace_reader_get_info(r, &info);
    CU_ASSERT(info.complete && !info.damaged);
    trace_reader_close(r);
  }
  free(g);

#define VARIANT(what, edit)                        \
  do {                                             \
    memcpy(mod, raw, len);                         \
    edit;                                          \
    g = with_index(f, n, mod, len, &gn);           \
    expect_fallback(g, gn, what);                  \
    free(g);                                       \
  } while (0)
  VARIANT("cannot fit", wr_le32(mod, 0x7fffffff));
  VARIANT("cannot fit", wr_le32(mod + 4, nchunks + 1));
  VARIANT("cannot fit", wr_le32(mod + 8, 0x10000000));
  /* Chunk 1 moved before chunk 0's end. */
  VARIANT("out of place", wr_le64(mod + 16 + 44, rd_le64(mod + 16) + 1));
  /* Chunk 0 claimed past the index. */
  VARIANT("out of place", wr_le32(mod + 16 + 36, 0x100000));
  /* A chunk entry saying it is the index. */
  VARIANT("out of place", wr_le16(mod + 16 + 8, TRACE_CHUNK_INDEX));
  /* An impossible record range in an entry. */
  {
    size_t k;
    for (k = 0; k < nchunks; k++)
      if (rd_le16(raw + 16 + 44 * k + 8) == TRACE_CHUNK_RECORDS) break;
    VARIANT("record range", wr_le32(mod + 16 + 44 * k + 16, 0));
  }
  /* The first blob's pieces pointed at chunk 0 (a META chunk). */
  VARIANT("blob", wr_le32(mod + 16 + 44 * nchunks + 40, 0));
  VARIANT("blob", wr_le32(mod + 16 + 44 * nchunks + 44, 0xffffffff));
  /* A payload with bytes after the tables. */
  {
    u8 *longer = calloc(1, len + 3);
    memcpy(longer, raw, len);
    g = with_index(f, n, longer, len + 3, &gn);
    expect_fallback(g, gn, "bytes after");
    free(g);
    free(longer);
  }
#undef VARIANT
  free(mod);
  free(raw);
  free(f);
}
