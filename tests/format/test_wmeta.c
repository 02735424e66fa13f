/* SPDX-License-Identifier: MIT */
/* Tests of format/wmeta.c: metadata is written before the next chunk (so a
 * killed writer keeps it), later values win, and binary values survive. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

void test_wmeta_before_chunks(void) {
  const char *p = tf_path("meta.rwd");
  struct trace_writer_opts o = {0};
  trace_writer *w;
  trace_reader *r;
  const void *v;
  size_t len, n;
  u8 bin[5] = {0, 1, 0, 255, 7}, *f;
  struct trace_chunk_info ci;
  o.overwrite = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, "k", "one", 3), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, "k", "two", 3), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, TRACE_META_CPUID, bin, 5), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, "empty", NULL, 0), 0);
  CU_ASSERT_EQUAL(trace_writer_size(w), 64); /* nothing written yet */
  CU_ASSERT_EQUAL(trace_writer_append(w, 1, 1, "r", 1, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_flush(w), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, "k", "three", 5), 0);
  CU_ASSERT_EQUAL(trace_writer_append(w, 1, 1, "r", 1, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_flush(w), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  f = tf_read_file(p, &n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  /* Without the index: the META chunks alone give the same answers. */
  for (int cut = 0; cut < 2; cut++) {
    size_t size = cut ? (size_t)rd_le64(f + n - 24) : n;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, size, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(trace_reader_chunk(r, 0, &ci), 0);
    CU_ASSERT_EQUAL(ci.type, TRACE_CHUNK_META);
    CU_ASSERT_EQUAL(trace_reader_meta(r, "k", &v, &len), 0);
    CU_ASSERT_EQUAL(len, 5);
    CU_ASSERT_EQUAL(memcmp(v, "three", 5), 0);
    CU_ASSERT_EQUAL(trace_reader_meta(r, TRACE_META_CPUID, &v, &len), 0);
    CU_ASSERT_EQUAL(len, 5);
    CU_ASSERT_EQUAL(memcmp(v, bin, 5), 0);
    CU_ASSERT_EQUAL(trace_reader_meta(r, "empty", &v, &len), 0);
    CU_ASSERT_EQUAL(len, 0);
    trace_reader_close(r);
  }
  free(f);
  unlink(p);
}

void test_wmeta_limits(void) {
  const char *p = tf_path("metalim.rwd");
  struct trace_writer_opts o = {0};
  trace_writer *w;
  char key[300];
  memset(key, 'k', sizeof key);
  key[256] = 0;
  o.overwrite = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, key, "v", 1), RW_EINVAL);
  key[255] = 0;
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, key, "v", 1), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, "x", "v", TRACE_MAX_RECORD + 1),
                  RW_EINVAL);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  unlink(p);
}
