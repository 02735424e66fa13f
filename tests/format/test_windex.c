/* SPDX-License-Identifier: MIT */
/* Tests of format/windex.c: the index and trailer close a trace, and the
 * tables a reader loads from them equal those a scan rebuilds. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

void test_windex_matches_scan(void) {
  const char *p = tf_path("windex.rwd");
  struct tf_sample s = {4, 2000, 4096, 0, 7, 3, 1};
  trace_reader *a, *b;
  u8 *f;
  size_t n;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  f = tf_read_file(p, &n);
  unlink(p);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  /* The trailer locates an INDEX chunk that ends where the trailer starts. */
  CU_ASSERT_EQUAL(memcmp(f + n - 32, "RWDINDEX", 8), 0);
  CU_ASSERT_EQUAL(rd_le64(f + n - 24) + rd_le64(f + n - 16), n - 32);
  CU_ASSERT_EQUAL(rd_le16(f + rd_le64(f + n - 24) + 4), TRACE_CHUNK_INDEX);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&a, f, n, NULL), 0);
  CU_ASSERT_EQUAL_FATAL(
      trace_reader_open_mem(&b, f, (size_t)rd_le64(f + n - 24), NULL), 0);
  CU_ASSERT_EQUAL(a->complete, 1);
  CU_ASSERT_EQUAL(b->rebuilt, 1);
  CU_ASSERT_EQUAL_FATAL(a->nchunks, b->nchunks);
  for (size_t i = 0; i < a->nchunks; i++) {
    const struct trace__chunk *x = &a->chunks[i], *y = &b->chunks[i];
    CU_ASSERT(x->offset == y->offset && x->type == y->type &&
              x->kind == y->kind && x->tid == y->tid && x->count == y->count &&
              x->seq_first == y->seq_first && x->seq_last == y->seq_last &&
              x->comp_len == y->comp_len && x->raw_len == y->raw_len);
  }
  CU_ASSERT_EQUAL_FATAL(a->nblobs, b->nblobs);
  for (size_t i = 0; i < a->nblobs; i++) {
    CU_ASSERT_EQUAL(memcmp(a->blobs[i].hash, b->blobs[i].hash, 32), 0);
    CU_ASSERT_STRING_EQUAL(a->blobs[i].name, b->blobs[i].name);
    CU_ASSERT_EQUAL(a->blobs[i].first, b->blobs[i].first);
    CU_ASSERT_EQUAL(a->blobs[i].npieces, b->blobs[i].npieces);
  }
  CU_ASSERT_EQUAL_FATAL(a->nmeta, b->nmeta);
  for (size_t i = 0; i < a->nmeta; i++) {
    CU_ASSERT_STRING_EQUAL(a->meta[i].key, b->meta[i].key);
    CU_ASSERT_EQUAL(a->meta[i].len, b->meta[i].len);
    CU_ASSERT_EQUAL(memcmp(a->meta[i].val, b->meta[i].val, a->meta[i].len),
                    0);
  }
  CU_ASSERT_EQUAL(a->nkeyframes, b->nkeyframes);
  CU_ASSERT_EQUAL(a->nstreams, b->nstreams);
  trace_reader_close(a);
  trace_reader_close(b);
  free(f);
}

void test_windex_empty(void) {
  const char *p = tf_path("empty-trace.rwd");
  trace_writer *w;
  trace_reader *r;
  struct trace_info info;
  trace_cursor *c;
  struct trace_record rec;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT(info.complete);
  CU_ASSERT_EQUAL(info.nchunks, 0);
  CU_ASSERT_EQUAL(info.nthreads, 0);
  CU_ASSERT_EQUAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, NULL), 0);
  trace_cursor_close(c);
  trace_reader_close(r);
  unlink(p);
}
