/* SPDX-License-Identifier: MIT */
/* Tests of format/join.c and the writer's first_seq: segments whose
 * records go on from each other (a ring recording's) join into one trace
 * with the same records, keyframes and blobs; a segment read alone sees
 * no records missing; segments that do not follow each other are refused;
 * metadata is the first's, the end the last's. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/format/helpers.h"

/* Writes PATH with records FIRST..LAST (payload: the seq as text) of
 * threads 7 and 8 in turn, metadata "exit" = EXIT, a keyframe at FIRST
 * and a blob named after FIRST. */
static void segment(const char *path, u64 first, u64 last, const char *exit) {
  struct trace_writer_opts o = {0};
  trace_writer *w;
  char buf[32];
  u8 hash[32];
  o.overwrite = 1;
  o.first_seq = first;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, path, &o), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, "cmdline", "prog", 4), 0);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, TRACE_META_EXIT, exit,
                                        strlen(exit)), 0);
  for (u64 s = first; s <= last; s++) {
    u64 got;
    int n = snprintf(buf, sizeof buf, "%llu", (unsigned long long)s);
    CU_ASSERT_EQUAL(trace_writer_append(w, 7 + (u32)(s % 2), 1, buf,
                                        (size_t)n, &got), 0);
    CU_ASSERT_EQUAL(got, s);
  }
  snprintf(buf, sizeof buf, "blob %llu", (unsigned long long)first);
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, buf, buf, strlen(buf), hash), 0);
  CU_ASSERT_EQUAL(trace_writer_add_keyframe(w, 3, first, buf, strlen(buf)),
                  0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
}

void test_join_segments(void) {
  const char *a = tf_path("seg1.rwd"), *b = tf_path("seg2.rwd"),
             *out = tf_path("joined.rwd");
  segment(a, 40, 99, "unknown");
  segment(b, 100, 150, "exit 3");
  /* Alone, the second reads whole: no records missing before 100. */
  trace_reader *r;
  struct trace_info in;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, b, NULL), 0);
  trace_reader_get_info(r, &in);
  CU_ASSERT_EQUAL(in.seq_first, 100);
  CU_ASSERT(!in.damaged);
  trace_cursor *c;
  struct trace_record rec;
  struct rw_diag d = {0};
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, &d), 1);
  CU_ASSERT_EQUAL(rec.seq, 100);
  trace_cursor_close(c);
  trace_reader_close(r);

  const char *both[2] = {a, b};
  CU_ASSERT_EQUAL_FATAL(trace_join(both, 2, out, 1, &d), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, out, NULL), 0);
  trace_reader_get_info(r, &in);
  CU_ASSERT(in.complete && !in.damaged);
  CU_ASSERT_EQUAL(in.seq_first, 40);
  CU_ASSERT_EQUAL(in.seq_last, 150);
  CU_ASSERT_EQUAL(trace_reader_nkeyframes(r), 2);
  CU_ASSERT_EQUAL(trace_reader_nblobs(r), 2);
  const void *v;
  size_t len;
  CU_ASSERT_EQUAL(trace_reader_meta(r, TRACE_META_EXIT, &v, &len), 0);
  CU_ASSERT(len == 6 && !memcmp(v, "exit 3", 6));
  CU_ASSERT_EQUAL(trace_reader_meta(r, "cmdline", &v, &len), 0);
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  u64 want = 40;
  while (trace_cursor_next(c, &rec, &d) == 1) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%llu", (unsigned long long)want);
    CU_ASSERT_EQUAL(rec.seq, want);
    CU_ASSERT_EQUAL(rec.tid, 7 + (u32)(want % 2));
    CU_ASSERT(rec.len == (u32)n && !memcmp(rec.data, buf, (size_t)n));
    want++;
  }
  CU_ASSERT_EQUAL(want, 151);
  trace_cursor_close(c);
  trace_reader_close(r);

  /* Out of order: refused, and nothing is left. */
  const char *wrong[2] = {b, a};
  memset(&d, 0, sizeof d);
  CU_ASSERT_EQUAL(trace_join(wrong, 2, out, 1, &d), RW_ECORRUPT);
  CU_ASSERT(strstr(d.msg, "goes on at record 40, not 151") != NULL);
  CU_ASSERT(access(out, F_OK) != 0);
  unlink(a);
  unlink(b);
}
