/* SPDX-License-Identifier: MIT */
/* Tests of format/wblob.c: blobs are named by their SHA-256, stored once
 * however often they are added, and split into bounded pieces. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

void test_wblob_dedup(void) {
  const char *p = tf_path("dedup.rwd");
  struct trace_writer_opts o = {0};
  trace_writer *w;
  trace_reader *r;
  u8 data[50000], h1[32], h2[32], h3[32], want[32];
  u64 size;
  struct trace_blob_info bi;
  for (size_t i = 0; i < sizeof data; i++) data[i] = (u8)(i * i >> 3);
  o.overwrite = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, "first", data, sizeof data, h1), 0);
  size = trace_writer_size(w);
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, "second", data, sizeof data, h2),
                  0);
  CU_ASSERT_EQUAL(trace_writer_size(w), size); /* nothing written */
  CU_ASSERT_EQUAL(memcmp(h1, h2, 32), 0);
  CU_ASSERT_EQUAL_FATAL(rw_sha256(data, sizeof data, want), 0);
  CU_ASSERT_EQUAL(memcmp(h1, want, 32), 0);
  data[100] ^= 1;
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, NULL, data, sizeof data, h3), 0);
  CU_ASSERT(trace_writer_size(w) > size);
  CU_ASSERT_NOT_EQUAL(memcmp(h1, h3, 32), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_reader_nblobs(r), 2);
  CU_ASSERT_EQUAL(trace_reader_find_blob(r, h1, &bi), 0);
  CU_ASSERT_STRING_EQUAL(bi.name, "first"); /* the first name sticks */
  CU_ASSERT_EQUAL(trace_reader_find_blob(r, h3, &bi), 0);
  CU_ASSERT_STRING_EQUAL(bi.name, "");
  trace_reader_close(r);
  unlink(p);
}

void test_wblob_many(void) {
  /* Enough blobs to grow the writer's hash table several times. */
  const char *p = tf_path("many.rwd");
  struct trace_writer_opts o = {0};
  trace_writer *w;
  trace_reader *r;
  u8 h[32];
  o.overwrite = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  for (u32 i = 0; i < 300; i++) {
    u32 v = i % 200; /* a third are duplicates */
    CU_ASSERT_EQUAL(trace_writer_add_blob(w, "b", &v, sizeof v, h), 0);
  }
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_reader_nblobs(r), 200);
  for (u32 v = 0; v < 200; v++) {
    u32 got = 0;
    CU_ASSERT_EQUAL_FATAL(rw_sha256(&v, sizeof v, h), 0);
    CU_ASSERT_EQUAL(trace_reader_blob_read(r, h, 0, &got, 4, NULL), 4);
    CU_ASSERT_EQUAL(got, v);
  }
  trace_reader_close(r);
  unlink(p);
}

/* A blob taken from one trace as stored (trace_reader_blob_image) goes
 * into another without being compressed again, and reads back whole; an
 * image with a damaged byte is refused and writes nothing. */
void test_wblob_image(void) {
  const char *a = tf_path("img-a.rwd"), *b = tf_path("img-b.rwd");
  size_t n = TRACE__BLOB_PIECE + 12345; /* two pieces */
  u8 *data = malloc(n), h[32], h2[32], *img, *back = malloc(n);
  size_t len;
  u64 size = 0;
  trace_writer *w;
  trace_reader *r;
  struct trace_writer_opts o = {0};
  CU_ASSERT_FATAL(data && back);
  for (size_t i = 0; i < n; i++) data[i] = (u8)(i * 7 + i / 4096);
  o.overwrite = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, a, &o), 0);
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, "/usr/lib/x.so", data, n, h), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, a, NULL), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_blob_image(r, h, &img, &len), 0);
  u8 other[32] = {1};
  u8 *none;
  size_t nlen;
  CU_ASSERT_EQUAL(trace_reader_blob_image(r, other, &none, &nlen),
                  RW_ENOTFOUND);
  trace_reader_close(r);
  o.background = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, b, &o), 0);
  img[len / 2] ^= 1; /* a damaged payload: refused */
  CU_ASSERT_EQUAL(trace_writer_add_blob_image(w, img, len, h2, &size),
                  RW_ECORRUPT);
  CU_ASSERT_EQUAL(trace_writer_add_blob_image(w, img, len / 2, h2, &size),
                  RW_ECORRUPT); /* cut short */
  img[len / 2] ^= 1;
  CU_ASSERT_EQUAL(trace_writer_add_blob_image(w, img, len, h2, &size), 0);
  CU_ASSERT_EQUAL(memcmp(h, h2, 32), 0);
  CU_ASSERT_EQUAL(size, n);
  /* Stored once, however it comes. */
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, "/usr/lib/x.so", data, n, h2), 0);
  CU_ASSERT_EQUAL(trace_writer_add_blob_image(w, img, len, h2, &size), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, b, NULL), 0);
  struct trace_blob_info bi;
  CU_ASSERT_EQUAL(trace_reader_nblobs(r), 1);
  CU_ASSERT_EQUAL_FATAL(trace_reader_find_blob(r, h, &bi), 0);
  CU_ASSERT_STRING_EQUAL(bi.name, "/usr/lib/x.so");
  CU_ASSERT_EQUAL(bi.size, n);
  CU_ASSERT_EQUAL(trace_reader_blob_check(r, 0, NULL), 0);
  CU_ASSERT_EQUAL(trace_reader_blob_read(r, h, 0, back, n, NULL), (i64)n);
  CU_ASSERT_EQUAL(memcmp(back, data, n), 0);
  trace_reader_close(r);
  free(img);
  free(data);
  free(back);
  unlink(a);
  unlink(b);
}
