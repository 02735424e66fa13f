/* SPDX-License-Identifier: MIT */
/* Fuzz target for the trace reader: opens the input as a trace in memory and
 * exercises every read path (info, metadata, chunk lookups, cursors over
 * each thread and over all threads, seeks, blob and keyframe reads, record
 * printing). Whatever the bytes, each call must return cleanly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "tests/fuzz/fuzz.h"

/* Consumes a result the fuzz target only needs to survive. */
static void survive(i64 rc) { (void)rc; }

/* Reads up to LIMIT records from C, printing each (to a null stream). */
static void drain(trace_cursor *c, FILE *null, int limit) {
  struct trace_record rec;
  struct rw_diag d;
  int rc, errors = 0;
  while (limit-- > 0 && (rc = trace_cursor_next(c, &rec, &d)) != 0) {
    if (rc < 0) {
      /* A cursor passes over a bad chunk; bound the errors anyway. */
      if (++errors > 64) break;
      continue;
    }
    if (null) {
      if (trace_record_print(null, &rec, 0) < 0) break;
      if (trace_record_print(null, &rec, 1) < 0) break;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  trace_reader *r;
  trace_cursor *c;
  struct rw_diag d;
  struct trace_info info;
  static FILE *null;
  u32 tids[4];
  size_t nt;
  u8 buf[512];
  if (!null) null = fopen("/dev/null", "w"); /* kept for every input */
  if (trace_reader_open_mem(&r, data, size, &d) < 0) return 0;
  trace_reader_get_info(r, &info);
  {
    const char *k;
    const void *v;
    size_t n;
    for (size_t i = 0; trace_reader_meta_at(r, i, &k, &v, &n) == 0; i++)
      if (trace_reader_meta(r, k, &v, &n) != 0) abort();
  }
  for (size_t i = 0; i < trace_reader_nchunks(r) && i < 64; i++) {
    struct trace_chunk_info ci;
    if (trace_reader_chunk(r, i, &ci) != 0) abort();
  }
  if (trace_cursor_open(&c, r, TRACE_ALL_THREADS) == 0) {
    drain(c, null, 100000);
    u64 mid = info.seq_first + (info.seq_last - info.seq_first) / 2;
    if (trace_cursor_seek(c, mid) == 0) drain(c, NULL, 100);
    trace_cursor_close(c);
  }
  nt = trace_reader_threads(r, tids, 4);
  for (size_t i = 0; i < nt && i < 4; i++) {
    struct trace_chunk_info ci;
    survive(trace_reader_find_chunk(r, tids[i], info.seq_last, &ci));
    if (trace_cursor_open(&c, r, tids[i]) == 0) {
      drain(c, NULL, 1000);
      if (trace_cursor_seek(c, info.seq_last) == 0) drain(c, NULL, 10);
      trace_cursor_close(c);
    }
  }
  for (size_t i = 0; i < trace_reader_nblobs(r) && i < 8; i++) {
    struct trace_blob_info bi;
    if (trace_reader_blob_info(r, i, &bi) != 0) abort();
    survive(trace_reader_blob_read(r, bi.hash, 0, buf, sizeof buf, &d));
    survive(
        trace_reader_blob_read(r, bi.hash, bi.size / 2, buf, sizeof buf, &d));
  }
  for (size_t i = 0; i < trace_reader_nkeyframes(r) && i < 8; i++) {
    struct trace_keyframe_info ki;
    if (trace_reader_keyframe_info(r, i, &ki) != 0) abort();
    survive(trace_reader_keyframe_read(r, i, buf, sizeof buf, &d));
  }
  if (null) survive(trace_report_info(null, r, &d));
  trace_reader_close(r);
  return 0;
}
