/* SPDX-License-Identifier: MIT */
/* Tests of format/cursor.c: one thread's records in order, all records in
 * global order through the merge, seeking in both, and that a bad chunk is
 * reported and passed over. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

#define NTHREADS 7
#define NREC 5000

static trace_reader *open_sample(u8 **f, size_t *n) {
  const char *p = tf_path("cursor.rwd");
  struct tf_sample s = {NTHREADS, NREC, 1500, 0, 0, 0, 1};
  trace_reader *r;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  *f = tf_read_file(p, n);
  unlink(p);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, *f, *n, NULL), 0);
  return r;
}

void test_cursor_all(void) {
  u8 *f;
  size_t n;
  trace_reader *r = open_sample(&f, &n);
  tf_check_all(r, NTHREADS, NREC);
  trace_reader_close(r);
  free(f);
}

void test_cursor_thread(void) {
  u8 *f;
  size_t n;
  trace_reader *r = open_sample(&f, &n);
  u8 buf[4096];
  for (u32 tid = 100; tid < 100 + NTHREADS; tid++) {
    trace_cursor *c;
    struct trace_record rec;
    u64 seq = 0, got = 0, want = 0;
    int rc;
    CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, tid), 0);
    while ((rc = trace_cursor_next(c, &rec, NULL)) == 1) {
      u32 t;
      u16 type;
      size_t len;
      /* The next seq of this thread. */
      do {
        seq++;
        len = tf_record(seq, NTHREADS, &t, &type, buf);
      } while (t != tid && seq < NREC);
      CU_ASSERT_EQUAL(rec.seq, seq);
      CU_ASSERT_EQUAL(rec.tid, tid);
      CU_ASSERT_EQUAL(rec.len, len);
      CU_ASSERT_EQUAL(memcmp(rec.data, buf, len), 0);
      got++;
    }
    CU_ASSERT_EQUAL(rc, 0);
    for (u64 s = 1; s <= NREC; s++) {
      u32 t;
      u16 type;
      tf_record(s, NTHREADS, &t, &type, buf);
      want += t == tid;
    }
    CU_ASSERT_EQUAL(got, want);
    trace_cursor_close(c);
  }
  {
    trace_cursor *c;
    CU_ASSERT_EQUAL(trace_cursor_open(&c, r, 99), RW_ENOTFOUND);
  }
  trace_reader_close(r);
  free(f);
}

void test_cursor_seek(void) {
  u8 *f;
  size_t n;
  trace_reader *r = open_sample(&f, &n);
  trace_cursor *all, *one;
  struct trace_record rec;
  static const u64 targets[] = {1, 2, 777, 2500, 4999, 5000, 17, 3333};
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&all, r, TRACE_ALL_THREADS), 0);
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&one, r, 103), 0);
  for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
    u64 t = targets[i];
    CU_ASSERT_EQUAL(trace_cursor_seek(all, t), 0);
    CU_ASSERT_EQUAL_FATAL(trace_cursor_next(all, &rec, NULL), 1);
    CU_ASSERT_EQUAL(rec.seq, t);
    CU_ASSERT_EQUAL(trace_cursor_next(all, &rec, NULL), t < NREC ? 1 : 0);
    if (t < NREC) CU_ASSERT_EQUAL(rec.seq, t + 1);
    CU_ASSERT_EQUAL(trace_cursor_seek(one, t), 0);
    if (trace_cursor_next(one, &rec, NULL) == 1) {
      CU_ASSERT(rec.seq >= t);
      CU_ASSERT_EQUAL(rec.tid, 103);
      /* No record of thread 103 lies in [t, rec.seq). */
      for (u64 s = t; s < rec.seq; s++) {
        u8 buf[4096];
        u32 tid;
        u16 type;
        tf_record(s, NTHREADS, &tid, &type, buf);
        CU_ASSERT_NOT_EQUAL(tid, 103);
      }
    }
  }
  CU_ASSERT_EQUAL(trace_cursor_seek(all, NREC + 1), 0);
  CU_ASSERT_EQUAL(trace_cursor_next(all, &rec, NULL), 0);
  CU_ASSERT_EQUAL(trace_cursor_seek(all, 0), 0);
  CU_ASSERT_EQUAL(trace_cursor_next(all, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.seq, 1);
  trace_cursor_close(all);
  trace_cursor_close(one);
  trace_cursor_close(NULL);
  trace_reader_close(r);
  free(f);
}

void test_cursor_bad_chunk(void) {
  u8 *f;
  size_t n;
  trace_reader *r = open_sample(&f, &n);
  struct trace_chunk_info ci;
  trace_cursor *c;
  struct trace_record rec;
  struct rw_diag d = {0};
  u64 good = 0, errors = 0, lost;
  int rc;
  /* Corrupt a RECORDS chunk's payload behind the (intact) index. */
  CU_ASSERT_EQUAL_FATAL(trace_reader_find_chunk(r, 101, 2500, &ci), 0);
  lost = rd_le32(f + ci.offset + 12);
  f[ci.offset + TRACE__CHUNK_HDR + 7] ^= 0x80;
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  while ((rc = trace_cursor_next(c, &rec, &d)) != 0) {
    if (rc < 0) {
      errors++;
      CU_ASSERT_EQUAL(d.offset, ci.offset);
      CU_ASSERT(strstr(d.msg, "payload checksum") != NULL);
    } else {
      good++;
    }
  }
  CU_ASSERT_EQUAL(errors, 1);
  CU_ASSERT_EQUAL(good, NREC - lost);
  trace_cursor_close(c);
  trace_reader_close(r);
  free(f);
}
