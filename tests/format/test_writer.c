/* SPDX-License-Identifier: MIT */
/* Tests of format/writer.c: sequence numbers, stream buffering and chunk
 * flushing, the on_chunk callback, argument checks, and that a written
 * trace reads back record for record. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format.h"
#include "tests/format/helpers.h"

struct seen {
  int n, records;
  u64 last_off;
  int ordered;
};

static void on_chunk(void *arg, u64 off, u16 type, u32 tid, u64 a, u64 b) {
  struct seen *s = arg;
  (void)tid, (void)a, (void)b;
  if (s->n && off <= s->last_off) s->ordered = 0;
  s->last_off = off;
  s->n++;
  s->records += type == TRACE_CHUNK_RECORDS;
}

void test_writer_seq_from_one(void) {
  const char *p = tf_path("seq.rwd");
  trace_writer *w;
  u64 seq = 0, prev = 0;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_next_seq(w), 1);
  for (int i = 0; i < 1000; i++) {
    CU_ASSERT_EQUAL(trace_writer_append(w, (u32)(i % 3), 1, "x", 1, &seq), 0);
    CU_ASSERT_EQUAL(seq, prev + 1);
    prev = seq;
  }
  CU_ASSERT_EQUAL(trace_writer_next_seq(w), 1001);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  unlink(p);
}

void test_writer_exists(void) {
  const char *p = tf_path("exists.rwd");
  trace_writer *w;
  struct trace_writer_opts o = {0};
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL(trace_writer_open(&w, p, NULL), -EEXIST);
  CU_ASSERT_PTR_NULL(w);
  o.overwrite = 1;
  CU_ASSERT_EQUAL(trace_writer_open(&w, p, &o), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL(trace_writer_close(NULL), 0);
  unlink(p);
}

void test_writer_bad_args(void) {
  const char *p = tf_path("args.rwd");
  trace_writer *w;
  struct trace_writer_opts o = {0};
  o.level = 1000;
  CU_ASSERT_EQUAL(trace_writer_open(&w, p, &o), RW_EINVAL);
  o.level = 0;
  o.chunk_bytes = (size_t)1 << 40;
  CU_ASSERT_EQUAL(trace_writer_open(&w, p, &o), RW_EINVAL);
  CU_ASSERT_EQUAL(trace_writer_open(&w, "/nonexistent/dir/x.rwd", NULL),
                  -ENOENT);
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_append(w, 1, 0, "x", 1, NULL), RW_EINVAL);
  CU_ASSERT_EQUAL(
      trace_writer_append(w, 1, 1, "x", TRACE_MAX_RECORD + 1, NULL),
      RW_EINVAL);
  CU_ASSERT_EQUAL(trace_writer_set_meta(w, "", "v", 1), RW_EINVAL);
  /* A failed call assigns no sequence number. */
  CU_ASSERT_EQUAL(trace_writer_next_seq(w), 1);
  CU_ASSERT_EQUAL(trace_writer_append(w, 1, 1, NULL, 0, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  unlink(p);
}

void test_writer_chunking(void) {
  const char *p = tf_path("chunks.rwd");
  struct seen s = {0, 0, 0, 1};
  struct trace_writer_opts o = {0};
  trace_writer *w;
  u8 rec[1000];
  u64 size_before;
  memset(rec, 'r', sizeof rec);
  o.chunk_bytes = 10000;
  o.on_chunk = on_chunk;
  o.arg = &s;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  /* Nine records of 1014 encoded bytes fit in 10000; the tenth does not. */
  for (int i = 0; i < 9; i++)
    CU_ASSERT_EQUAL(trace_writer_append(w, 7, 6, rec, sizeof rec, NULL), 0);
  CU_ASSERT_EQUAL(s.n, 0);
  size_before = trace_writer_size(w);
  CU_ASSERT_EQUAL(trace_writer_append(w, 7, 6, rec, sizeof rec, NULL), 0);
  CU_ASSERT_EQUAL(s.records, 1);
  CU_ASSERT(trace_writer_size(w) > size_before);
  /* Another thread has its own buffer. */
  CU_ASSERT_EQUAL(trace_writer_append(w, 8, 6, rec, sizeof rec, NULL), 0);
  CU_ASSERT_EQUAL(s.records, 1);
  CU_ASSERT_EQUAL(trace_writer_flush(w), 0);
  CU_ASSERT_EQUAL(s.records, 3);
  CU_ASSERT_EQUAL(trace_writer_flush(w), 0); /* nothing buffered */
  CU_ASSERT_EQUAL(s.records, 3);
  /* A record larger than chunk_bytes still goes out, alone. */
  {
    u8 *big = calloc(1, 50000);
    CU_ASSERT_EQUAL(trace_writer_append(w, 7, 6, big, 50000, NULL), 0);
    free(big);
  }
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  CU_ASSERT_EQUAL(s.records, 4);
  CU_ASSERT(s.ordered);
  {
    trace_reader *r;
    struct trace_info info;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
    trace_reader_get_info(r, &info);
    CU_ASSERT_EQUAL(info.nrecords_chunks, 4);
    CU_ASSERT_EQUAL(info.nthreads, 2);
    CU_ASSERT_EQUAL(info.seq_first, 1);
    CU_ASSERT_EQUAL(info.seq_last, 12);
    CU_ASSERT_EQUAL(trace_reader_nrecords(r), 12);
    CU_ASSERT(info.complete);
    CU_ASSERT(!info.rebuilt);
    trace_reader_close(r);
  }
  unlink(p);
}

void test_writer_roundtrip(void) {
  const char *p = tf_path("roundtrip.rwd");
  struct tf_sample s = {5, 20000, 8192, 0, 2, 3, 1};
  trace_reader *r;
  struct rw_diag d = {0};
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, &d), 0);
  tf_check_all(r, 5, 20000);
  trace_reader_close(r);
  unlink(p);
}

void test_writer_levels(void) {
  /* Every level writes a trace that reads back the same. */
  static const int levels[] = {-5, 1, 3, 9};
  for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
    const char *p = tf_path("level.rwd");
    struct tf_sample s = {3, 3000, 0, levels[i], 0, 0, 1};
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
    tf_check_all(r, 3, 3000);
    trace_reader_close(r);
    unlink(p);
  }
}

void test_writer_size(void) {
  const char *p = tf_path("size.rwd");
  trace_writer *w;
  size_t n;
  u8 *f;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_size(w), 64);
  CU_ASSERT_EQUAL(trace_writer_append(w, 1, 1, "abc", 3, NULL), 0);
  CU_ASSERT_EQUAL(trace_writer_flush(w), 0);
  n = (size_t)trace_writer_size(w);
  f = tf_read_file(p, &n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(n, trace_writer_size(w));
  free(f);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  unlink(p);
}

/* Writes a trace of several threads' records, metadata, blobs and
 * keyframes in small chunks to P, with or without the background thread;
 * S counts the chunks on_chunk reported. */
/* BACKGROUND: 0 inline, 1 on the writer's thread, 2 with the caller
 * compressing every chunk. Returns how many chunks the caller compressed
 * with a thread running. */
static u64 write_mixed(const char *p, int background, struct seen *s) {
  struct trace_writer_opts o = {0};
  trace_writer *w;
  u8 rec[600], hash[32];
  memset(rec, 0, sizeof rec);
  o.overwrite = 1;
  o.chunk_bytes = 2048;
  o.background = background != 0;
  o.caller_compresses = background == 2;
  o.on_chunk = on_chunk;
  o.arg = s;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  for (u64 i = 0; i < 5000; i++) {
    size_t len = (size_t)(i * 131 % sizeof rec);
    for (size_t k = 0; k < len; k++) rec[k] = (u8)(i + k);
    CU_ASSERT_EQUAL_FATAL(
        trace_writer_append(w, (u32)(i % 5), (u16)(1 + i % 14), rec, len, NULL),
        0);
    if (i % 97 == 0) {
      char v[32];
      snprintf(v, sizeof v, "%llu", (unsigned long long)i);
      CU_ASSERT_EQUAL(trace_writer_set_meta(w, "progress", v, strlen(v)), 0);
    }
    if (i % 389 == 0)
      CU_ASSERT_EQUAL(
          trace_writer_add_blob(w, "blob", rec, sizeof rec - i % 7, hash), 0);
    if (i % 1000 == 999)
      CU_ASSERT_EQUAL(trace_writer_add_keyframe(w, 1, trace_writer_next_seq(w),
                                                rec, 100),
                      0);
    if (i % 1500 == 0) CU_ASSERT_EQUAL(trace_writer_flush(w), 0);
  }
  u64 caller = trace_writer_caller_chunks(w);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);
  return caller;
}

/* The background thread (the recorder's way) writes the very file the
 * caller's thread would, with every chunk reported, in file order, and so
 * it does when the caller compresses chunks itself (as it does whenever
 * the thread falls behind). */
void test_writer_background_same_bytes(void) {
  const char *a = tf_path("inline.rwd");
  char b[4096], c[4096];
  struct seen sa = {0, 0, 0, 1}, sb = {0, 0, 0, 1}, sc = {0, 0, 0, 1};
  size_t la, lb, lc;
  snprintf(b, sizeof b, "%s", tf_path("background.rwd"));
  snprintf(c, sizeof c, "%s", tf_path("caller.rwd"));
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  CU_ASSERT_EQUAL(write_mixed(a, 0, &sa), 0);
  write_mixed(b, 1, &sb);
  u64 by_caller = write_mixed(c, 2, &sc);
  unsetenv("SOURCE_DATE_EPOCH");
  u8 *da = tf_read_file(a, &la), *db = tf_read_file(b, &lb),
     *dc = tf_read_file(c, &lc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(da);
  CU_ASSERT_PTR_NOT_NULL_FATAL(db);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dc);
  CU_ASSERT(la > 100000); /* many chunks */
  CU_ASSERT_EQUAL(la, lb);
  CU_ASSERT(la == lb && memcmp(da, db, la) == 0);
  CU_ASSERT_EQUAL(la, lc);
  CU_ASSERT(la == lc && memcmp(da, dc, la) == 0);
  CU_ASSERT(sa.n > 100);
  CU_ASSERT_EQUAL(sa.n, sb.n);
  CU_ASSERT_EQUAL(sa.n, sc.n);
  CU_ASSERT(by_caller > 100); /* every raw chunk but the index */
  CU_ASSERT_EQUAL(sa.records, sb.records);
  CU_ASSERT_EQUAL(sa.records, sc.records);
  CU_ASSERT(sb.ordered);
  CU_ASSERT(sc.ordered);
  for (int k = 0; k < 2; k++) {
    trace_reader *r;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, k ? c : b, NULL), 0);
    trace_reader_close(r);
  }
  free(da);
  free(db);
  free(dc);
  unlink(a);
  unlink(b);
  unlink(c);
}
