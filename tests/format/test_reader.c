/* SPDX-License-Identifier: MIT */
/* Tests of format/reader.c: opening (header checks and their messages, the
 * version refusal, the trailer), info, metadata and thread queries, and
 * chunk lookup by sequence number. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

/* A closed sample trace in memory; caller frees. */
static u8 *sample_mem(size_t *n, int close) {
  const char *p = tf_path("reader.rwd");
  struct tf_sample s = {3, 500, 2048, 0, 2, 2, close};
  u8 *f;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  f = tf_read_file(p, n);
  unlink(p);
  return f;
}

/* Opens N bytes at F and expects CODE with a message containing WHAT. */
static void expect_open_error(const u8 *f, size_t n, int code,
                              const char *what) {
  trace_reader *r = (trace_reader *)1;
  struct rw_diag d = {0};
  CU_ASSERT_EQUAL(trace_reader_open_mem(&r, f, n, &d), code);
  CU_ASSERT_PTR_NULL(r);
  CU_ASSERT_EQUAL(d.code, code);
  if (!strstr(d.msg, what)) fprintf(stderr, "message: %s\n", d.msg);
  CU_ASSERT(strstr(d.msg, what) != NULL);
}

void test_reader_open_errors(void) {
  trace_reader *r;
  struct rw_diag d = {0};
  const char *p = tf_path("empty.rwd");
  CU_ASSERT_EQUAL(trace_reader_open(&r, "/nonexistent/x.rwd", &d), -ENOENT);
  CU_ASSERT(strstr(d.msg, "No such file") != NULL);
  CU_ASSERT_EQUAL_FATAL(tf_write_file(p, "", 0), 0);
  CU_ASSERT_EQUAL(trace_reader_open(&r, p, &d), RW_ETRUNC);
  CU_ASSERT(strstr(d.msg, "empty") != NULL);
  unlink(p);
  CU_ASSERT_EQUAL(trace_reader_open(&r, "/tmp", &d), RW_EINVAL);
  expect_open_error((const u8 *)"hello world, no trace", 21, RW_EINVAL,
                    "not a rewind trace");
  expect_open_error((const u8 *)TRACE__MAGIC, 8, RW_ETRUNC, "truncated");
  expect_open_error((const u8 *)"\x89RW", 3, RW_ETRUNC, "truncated");
}

void test_reader_header_checks(void) {
  size_t n;
  u8 *f = sample_mem(&n, 1);
  u8 *g = malloc(n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  /* Version 2.5: refused with both versions named. */
  memcpy(g, f, n);
  wr_le16(g + 8, 2);
  wr_le16(g + 10, 5);
  wr_le32(g + 60, rw_crc32c(0, g, 60));
  expect_open_error(g, n, RW_EVERSION,
                    "trace format version 2.5 is not supported (this build "
                    "reads version 1.x)");
  /* A newer minor version is read. */
  memcpy(g, f, n);
  wr_le16(g + 10, TRACE_VERSION_MINOR + 1);
  wr_le32(g + 60, rw_crc32c(0, g, 60));
  {
    trace_reader *r;
    struct trace_info info;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, g, n, NULL), 0);
    trace_reader_get_info(r, &info);
    CU_ASSERT_EQUAL(info.version_minor, TRACE_VERSION_MINOR + 1);
    trace_reader_close(r);
  }
  memcpy(g, f, n);
  g[30] ^= 1;
  expect_open_error(g, n, RW_ECORRUPT, "header checksum");
  memcpy(g, f, n);
  wr_le16(g + 14, 3); /* EM_386 */
  wr_le32(g + 60, rw_crc32c(0, g, 60));
  expect_open_error(g, n, RW_EUNSUPPORTED, "not x86-64");
  memcpy(g, f, n);
  wr_le16(g + 12, 10);
  expect_open_error(g, n, RW_ECORRUPT, "header length");
  memcpy(g, f, n);
  wr_le32(g + 16, 1000);
  wr_le32(g + 60, rw_crc32c(0, g, 60));
  expect_open_error(g, n, RW_ECORRUPT, "page size");
  expect_open_error(f, 40, RW_ETRUNC, "truncated");
  free(g);
  free(f);
}

void test_reader_info(void) {
  size_t n;
  u8 *f = sample_mem(&n, 1);
  trace_reader *r;
  struct trace_info info;
  u32 tids[8];
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT_EQUAL(info.version_major, TRACE_VERSION_MAJOR);
  CU_ASSERT_EQUAL(info.file_size, n);
  CU_ASSERT(info.complete);
  CU_ASSERT(!info.rebuilt);
  CU_ASSERT(!info.damaged);
  CU_ASSERT_EQUAL(info.nthreads, 3);
  CU_ASSERT_EQUAL(info.seq_first, 1);
  CU_ASSERT_EQUAL(info.seq_last, 500);
  CU_ASSERT_EQUAL(info.nblobs, 2);
  CU_ASSERT_EQUAL(info.nkeyframes, 2);
  CU_ASSERT(info.nrecords_chunks >= 3);
  CU_ASSERT(info.nchunks > info.nrecords_chunks);
  CU_ASSERT(info.comp_bytes > 0 && info.comp_bytes < n);
  CU_ASSERT(info.raw_bytes > 500 * 14);
  CU_ASSERT_EQUAL(trace_reader_nrecords(r), 500);
  CU_ASSERT_EQUAL(trace_reader_threads(r, tids, 8), 3);
  CU_ASSERT_EQUAL(tids[0], 100);
  CU_ASSERT_EQUAL(tids[1], 101);
  CU_ASSERT_EQUAL(tids[2], 102);
  CU_ASSERT_EQUAL(trace_reader_threads(r, tids, 1), 3);
  trace_reader_close(r);
  trace_reader_close(NULL);
  free(f);
}

void test_reader_meta(void) {
  size_t n, len;
  u8 *f = sample_mem(&n, 1);
  trace_reader *r;
  const void *v;
  const char *k, *prev = "";
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  CU_ASSERT_EQUAL(trace_reader_meta(r, TRACE_META_CMDLINE, &v, &len), 0);
  CU_ASSERT_EQUAL(len, 11);
  CU_ASSERT_EQUAL(memcmp(v, "prog\0--flag", 11), 0);
  /* The later value wins. */
  CU_ASSERT_EQUAL(trace_reader_meta(r, TRACE_META_START, &v, &len), 0);
  CU_ASSERT_EQUAL(len, 4);
  CU_ASSERT_EQUAL(memcmp(v, "2000", 4), 0);
  CU_ASSERT_EQUAL(trace_reader_meta(r, "no-such-key", &v, &len),
                  RW_ENOTFOUND);
  /* Closing wrote how many records the trace holds. */
  CU_ASSERT_EQUAL(trace_reader_meta(r, TRACE_META_RECORDS, &v, &len), 0);
  CU_ASSERT(len > 0 && len < 20);
  for (size_t i = 0; trace_reader_meta_at(r, i, &k, &v, &len) == 0; i++) {
    CU_ASSERT(strcmp(prev, k) < 0);
    prev = k;
    CU_ASSERT(i < 5);
  }
  CU_ASSERT_EQUAL(trace_reader_meta_at(r, 5, &k, &v, &len), RW_ENOTFOUND);
  trace_reader_close(r);
  free(f);
}

void test_reader_find_chunk(void) {
  size_t n;
  u8 *f = sample_mem(&n, 1);
  trace_reader *r;
  struct trace_chunk_info ci;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  /* For every seq, the chunk found for its thread holds it, and matches a
   * linear search of the chunk table. */
  for (u64 seq = 1; seq <= 500; seq++) {
    u8 buf[4096];
    u32 tid;
    u16 type;
    tf_record(seq, 3, &tid, &type, buf);
    CU_ASSERT_EQUAL_FATAL(trace_reader_find_chunk(r, tid, seq, &ci), 0);
    CU_ASSERT(ci.seq_first <= seq && seq <= ci.seq_last);
    CU_ASSERT_EQUAL(ci.tid, tid);
    CU_ASSERT_EQUAL(ci.type, TRACE_CHUNK_RECORDS);
    /* Over all threads, some chunk's range holds it (ranges of different
     * threads overlap). */
    CU_ASSERT_EQUAL(trace_reader_find_chunk(r, TRACE_ALL_THREADS, seq, &ci),
                    0);
    CU_ASSERT(ci.seq_first <= seq && seq <= ci.seq_last);
  }
  CU_ASSERT_EQUAL(trace_reader_find_chunk(r, 100, 501, &ci), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(trace_reader_find_chunk(r, 7, 1, &ci), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(trace_reader_chunk(r, trace_reader_nchunks(r), &ci),
                  RW_ENOTFOUND);
  trace_reader_close(r);
  free(f);
}

void test_reader_file(void) {
  const char *p = tf_path("file.rwd");
  struct tf_sample s = {2, 100, 0, 0, 1, 0, 1};
  trace_reader *r;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  tf_check_all(r, 2, 100);
  trace_reader_close(r);
  unlink(p);
}
