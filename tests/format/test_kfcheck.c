/* SPDX-License-Identifier: MIT */
/* Tests of `rewind info --check` on recorder keyframes (format/check.c):
 * a state whose MEM_FROM records take bytes its trace holds is whole; one
 * that takes more bytes than a blob has, or names a blob the trace does
 * not hold, is a problem at the keyframe. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "tests/format/helpers.h"

/* Writes PATH: one record, a blob of 8192 bytes, and a recorder keyframe
 * whose state takes LEN bytes of the blob HOW names (0: that one, 1: one
 * the trace does not hold). Returns what trace_check counts as damaged. */
static u64 damaged(const char *path, u64 len, int how) {
  struct trace_writer_opts o = {0};
  trace_writer *w, *kw;
  o.overwrite = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, path, &o), 0);
  u64 seq;
  CU_ASSERT_EQUAL(trace_writer_append(w, 7, TRACE_REC_NOTE, "", 0, &seq), 0);
  static u8 pages[8192];
  memset(pages, 0x5a, sizeof pages);
  u8 ph[32], sh[32];
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, "pages", pages, sizeof pages, ph),
                  0);
  if (how) ph[0] ^= 1;
  const char *img = tf_path("kfstate.rwd");
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&kw, img, &o), 0);
  struct trace_rec_mem_from m = {0x10000, len, {{0}}, 0};
  memcpy(m.blob.b, ph, 32);
  CU_ASSERT_EQUAL(trace_rec_mem_from_append(kw, 7, &m), 0);
  CU_ASSERT_EQUAL(trace_writer_close(kw), 0);
  size_t n;
  u8 *b = tf_read_file(img, &n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT_EQUAL(trace_writer_add_blob(w, "keyframe 1", b, n, sh), 0);
  u8 p[TRACE_KF_RECORDER_SIZE];
  memset(p, 0, sizeof p);
  wr_le32(p, 1);
  wr_le32(p + 4, 1);
  wr_le64(p + 8, seq + 1);
  wr_le64(p + 16, n);
  memcpy(p + 24, sh, 32);
  CU_ASSERT_EQUAL(trace_writer_add_keyframe(w, TRACE_KF_RECORDER, seq + 1, p,
                                            sizeof p), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  free(b);
  unlink(img);
  trace_reader *r;
  struct trace_check_stats st;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, path, NULL), 0);
  CU_ASSERT_EQUAL(trace_check(r, NULL, &st), 0);
  trace_reader_close(r);
  return st.damaged;
}

void test_kfcheck_state_blobs(void) {
  const char *t = tf_path("kfcheck.rwd");
  CU_ASSERT_EQUAL(damaged(t, 8192, 0), 0);
  CU_ASSERT_EQUAL(damaged(t, 4096, 0), 0);
  CU_ASSERT_EQUAL(damaged(t, 12288, 0), 1); /* past the blob's end */
  CU_ASSERT_EQUAL(damaged(t, 4096, 1), 1);  /* a blob it does not hold */
  unlink(t);
}
