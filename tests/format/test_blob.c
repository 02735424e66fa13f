/* SPDX-License-Identifier: MIT */
/* Tests of format/blob.c: finding blobs by hash, reading any range of a
 * blob across its pieces, and keyframe lookup and reads. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

void test_blob_read(void) {
  const char *p = tf_path("blob.rwd");
  struct tf_sample s = {1, 10, 0, 0, 6, 0, 1};
  trace_reader *r;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_reader_nblobs(r), 6);
  for (int i = 0; i < 6; i++) {
    size_t size = tf_blob_size(i);
    u8 *want = malloc(size + 1), *got = malloc(size + 1), hash[32];
    struct trace_blob_info bi;
    char name[64];
    tf_blob(i, want);
    CU_ASSERT_EQUAL_FATAL(rw_sha256(want, size, hash), 0);
    CU_ASSERT_EQUAL_FATAL(trace_reader_find_blob(r, hash, &bi), 0);
    CU_ASSERT_EQUAL(bi.size, size);
    snprintf(name, sizeof name, "/lib/blob%d.so", i);
    CU_ASSERT_STRING_EQUAL(bi.name, name);
    /* All at once, then in odd-sized steps that straddle the pieces. */
    CU_ASSERT_EQUAL(trace_reader_blob_read(r, hash, 0, got, size + 1, NULL),
                    (i64)size);
    CU_ASSERT_EQUAL(memcmp(got, want, size), 0);
    memset(got, 0, size);
    for (u64 off = 0; off < size;) {
      size_t step = 1 + (off * 7919) % 1500007;
      i64 k = trace_reader_blob_read(r, hash, off, got + off,
                                     RW_MIN(step, size - off), NULL);
      CU_ASSERT_FATAL(k > 0);
      off += (u64)k;
    }
    CU_ASSERT_EQUAL(memcmp(got, want, size), 0);
    CU_ASSERT_EQUAL(trace_reader_blob_read(r, hash, size, got, 10, NULL), 0);
    free(want);
    free(got);
  }
  {
    u8 zero[32] = {0}, buf[4];
    struct trace_blob_info bi;
    struct rw_diag d = {0};
    CU_ASSERT_EQUAL(trace_reader_find_blob(r, zero, &bi), RW_ENOTFOUND);
    CU_ASSERT_EQUAL(trace_reader_blob_read(r, zero, 0, buf, 4, &d),
                    RW_ENOTFOUND);
    CU_ASSERT_EQUAL(trace_reader_blob_info(r, 6, &bi), RW_ENOTFOUND);
  }
  trace_reader_close(r);
  unlink(p);
}

void test_blob_pieces(void) {
  /* Blob 5 is 9 MiB: three pieces of at most TRACE__BLOB_PIECE bytes. */
  const char *p = tf_path("pieces.rwd");
  struct tf_sample s = {1, 1, 0, 0, 6, 0, 1};
  trace_reader *r;
  size_t nblob = 0;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  for (size_t i = 0; i < trace_reader_nchunks(r); i++) {
    struct trace_chunk_info ci;
    CU_ASSERT_EQUAL(trace_reader_chunk(r, i, &ci), 0);
    if (ci.type != TRACE_CHUNK_BLOB) continue;
    nblob++;
    CU_ASSERT(ci.raw_len <= TRACE__BLOB_PIECE + TRACE__BLOB_PREFIX +
                               TRACE__MAX_NAME);
  }
  CU_ASSERT_EQUAL(nblob, 5 + 3);
  trace_reader_close(r);
  unlink(p);
}

/* trace_reader_defer_hash: reads leave hashing to blob_check, which still
 * hashes; a blob known not to match is refused either way. */
void test_blob_defer(void) {
  const char *p = tf_path("defer.rwd");
  struct tf_sample s = {1, 1, 0, 0, 3, 0, 1};
  trace_reader *r;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  u8 hash[32], buf[64];
  size_t size = tf_blob_size(1);
  u8 *want = malloc(size);
  CU_ASSERT_FATAL(want != NULL && size > 0);
  tf_blob(1, want);
  size_t n = RW_MIN(size, sizeof buf);
  CU_ASSERT_EQUAL_FATAL(rw_sha256(want, size, hash), 0);
  struct trace__blob *b = NULL;
  for (size_t i = 0; i < r->nblobs; i++)
    if (!memcmp(r->blobs[i].hash, hash, 32)) b = &r->blobs[i];
  CU_ASSERT_FATAL(b != NULL);
  /* Deferred: the read gives the bytes and hashes nothing. */
  trace_reader_defer_hash(r, 1);
  CU_ASSERT_EQUAL(trace_reader_blob_read(r, hash, 0, buf, n, NULL),
                  (i64)n);
  CU_ASSERT_EQUAL(memcmp(buf, want, n), 0);
  CU_ASSERT_EQUAL(b->checked, 0);
  /* The check hashes all the same. */
  CU_ASSERT_EQUAL(trace_reader_blob_check(r, (size_t)(b - r->blobs), NULL),
                  0);
  CU_ASSERT_EQUAL(b->checked, 1);
  /* One found not to match is refused, deferred or not. */
  struct rw_diag d = {0};
  b->checked = RW_ECORRUPT;
  CU_ASSERT_EQUAL(trace_reader_blob_read(r, hash, 0, buf, n, &d),
                  RW_ECORRUPT);
  CU_ASSERT(strstr(d.msg, "does not match its SHA-256") != NULL);
  trace_reader_defer_hash(r, 0);
  CU_ASSERT_EQUAL(trace_reader_blob_read(r, hash, 0, buf, n, NULL),
                  RW_ECORRUPT);
  /* Not deferred: the first read hashes. */
  b->checked = 0;
  CU_ASSERT_EQUAL(trace_reader_blob_read(r, hash, 0, buf, n, NULL),
                  (i64)n);
  CU_ASSERT_EQUAL(b->checked, 1);
  free(want);
  trace_reader_close(r);
  unlink(p);
}

void test_blob_keyframes(void) {
  const char *p = tf_path("kf.rwd");
  struct tf_sample s = {2, 1000, 0, 0, 0, 5, 1};
  trace_reader *r;
  u64 prev = 0;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_reader_nkeyframes(r), 5);
  for (size_t i = 0; i < 5; i++) {
    struct trace_keyframe_info ki;
    u8 buf[100];
    CU_ASSERT_EQUAL_FATAL(trace_reader_keyframe_info(r, i, &ki), 0);
    CU_ASSERT(ki.seq > prev);
    prev = ki.seq;
    CU_ASSERT_EQUAL(ki.kind, i % 2);
    CU_ASSERT_EQUAL(ki.raw_len, 64);
    CU_ASSERT_EQUAL(trace_reader_keyframe_read(r, i, buf, sizeof buf, NULL),
                    64);
    CU_ASSERT_EQUAL(rd_le64(buf), ki.seq);
    CU_ASSERT_EQUAL(trace_reader_keyframe_read(r, i, buf, 3, NULL), 3);
  }
  {
    struct trace_keyframe_info ki;
    u8 buf[8];
    CU_ASSERT_EQUAL(trace_reader_keyframe_info(r, 5, &ki), RW_ENOTFOUND);
    CU_ASSERT_EQUAL(trace_reader_keyframe_read(r, 5, buf, 8, NULL),
                    RW_ENOTFOUND);
  }
  trace_reader_close(r);
  unlink(p);
}
