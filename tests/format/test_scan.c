/* SPDX-License-Identifier: MIT */
/* Tests of format/scan.c: rebuilding the index of a trace without its
 * trailer, cut at any point, or damaged in the middle, where the scan must
 * resynchronise and keep the chunks after the damage. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

static u8 *sample_mem(size_t *n, int close, int nblobs) {
  const char *p = tf_path("scan.rwd");
  struct tf_sample s = {3, 600, 1024, 0, nblobs, 2, close};
  u8 *f;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  f = tf_read_file(p, n);
  unlink(p);
  return f;
}

/* Counts records through a cursor; all must read. A gap in the sequence
 * numbers is reported once and the cursor goes on: a cut (RW_ETRUNC, a
 * thread's last records were never written) or, with LOST, one lost chunk
 * (RW_ECORRUPT). */
static u64 count_records_lost(trace_reader *r, int lost) {
  trace_cursor *c;
  struct trace_record rec;
  u64 n = 0;
  int rc, gaps = 0;
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  while ((rc = trace_cursor_next(c, &rec, NULL)) == 1 || rc == RW_ETRUNC ||
         (rc == RW_ECORRUPT && lost))
    if (rc == 1)
      n++;
    else if (rc == RW_ECORRUPT)
      gaps++;
  CU_ASSERT_EQUAL(rc, 0);
  CU_ASSERT_EQUAL(gaps, lost);
  trace_cursor_close(c);
  return n;
}

static u64 count_records(trace_reader *r) { return count_records_lost(r, 0); }

void test_scan_no_trailer(void) {
  size_t n;
  u8 *f = sample_mem(&n, 0, 3);
  trace_reader *r;
  struct trace_info info;
  const void *v;
  size_t len;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT(!info.complete);
  CU_ASSERT(info.rebuilt);
  CU_ASSERT(!info.damaged); /* it ends exactly after a chunk */
  CU_ASSERT_EQUAL(info.nblobs, 3);
  CU_ASSERT_EQUAL(info.nkeyframes, 2);
  tf_check_all(r, 3, 600);
  /* Metadata recovered from the META chunks, the later value winning. */
  CU_ASSERT_EQUAL(trace_reader_meta(r, TRACE_META_START, &v, &len), 0);
  CU_ASSERT_EQUAL(memcmp(v, "2000", 4), 0);
  CU_ASSERT_EQUAL(trace_reader_meta(r, TRACE_META_CWD, &v, &len), 0);
  {
    struct trace_blob_info bi;
    CU_ASSERT_EQUAL(trace_reader_blob_info(r, 0, &bi), 0);
    CU_ASSERT(strncmp(bi.name, "/lib/blob", 9) == 0);
  }
  trace_reader_close(r);
  free(f);
}

void test_scan_every_cut(void) {
  size_t n;
  u8 *f = sample_mem(&n, 0, 0);
  trace_reader *full;
  size_t nchunks;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&full, f, n, NULL), 0);
  nchunks = trace_reader_nchunks(full);
  /* Cut just after each chunk, and in the middle of each: every complete
   * chunk before the cut stays, and only a mid-chunk cut is damage. */
  for (size_t i = 0; i < nchunks; i++) {
    struct trace_chunk_info ci;
    u64 end;
    CU_ASSERT_EQUAL_FATAL(trace_reader_chunk(full, i, &ci), 0);
    end = ci.offset + TRACE__CHUNK_HDR + ci.comp_len;
    for (int mid = 0; mid < 2; mid++) {
      u64 cut = mid ? ci.offset + (end - ci.offset) / 2 : end;
      trace_reader *r;
      struct trace_info info;
      CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, cut, NULL), 0);
      trace_reader_get_info(r, &info);
      CU_ASSERT_EQUAL(trace_reader_nchunks(r), mid ? i : i + 1);
      CU_ASSERT_EQUAL(info.damaged, mid);
      if (mid) CU_ASSERT_EQUAL(info.damage_offset, ci.offset);
      {
        u64 want = 0;
        for (size_t k = 0; k < (mid ? i : i + 1); k++) {
          struct trace_chunk_info cj;
          CU_ASSERT_EQUAL(trace_reader_chunk(full, k, &cj), 0);
          if (cj.type == TRACE_CHUNK_RECORDS) {
            /* The count is in the chunk header, not in the public info:
             * read it from the file. */
            want += rd_le32(f + cj.offset + 12);
          }
        }
        CU_ASSERT_EQUAL(count_records(r), want);
      }
      trace_reader_close(r);
    }
  }
  trace_reader_close(full);
  free(f);
}

void test_scan_resync(void) {
  size_t n;
  u8 *f = sample_mem(&n, 0, 0);
  trace_reader *full, *r;
  struct trace_chunk_info bad;
  struct trace_info info;
  u64 lost;
  size_t k;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&full, f, n, NULL), 0);
  /* Damage the magic of a RECORDS chunk in the middle. */
  for (k = trace_reader_nchunks(full) / 2;; k++) {
    CU_ASSERT_EQUAL_FATAL(trace_reader_chunk(full, k, &bad), 0);
    if (bad.type == TRACE_CHUNK_RECORDS) break;
  }
  lost = rd_le32(f + bad.offset + 12);
  f[bad.offset] ^= 0x40;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT(info.damaged);
  CU_ASSERT_EQUAL(info.damage_offset, bad.offset);
  CU_ASSERT(strstr(info.damage, "bad magic") != NULL);
  CU_ASSERT_EQUAL(trace_reader_nchunks(r), trace_reader_nchunks(full) - 1);
  CU_ASSERT_EQUAL(count_records_lost(r, 1), 600 - lost);
  CU_ASSERT_EQUAL(trace_reader_ndamaged(r), 1);
  trace_reader_close(r);
  f[bad.offset] ^= 0x40;
  /* A bad payload checksum: the header is intact, so the scan skips the
   * chunk by its length. */
  f[bad.offset + TRACE__CHUNK_HDR + 3] ^= 1;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT(info.damaged);
  CU_ASSERT_EQUAL(info.damage_offset, bad.offset);
  CU_ASSERT(strstr(info.damage, "payload checksum") != NULL);
  CU_ASSERT_EQUAL(count_records_lost(r, 1), 600 - lost);
  trace_reader_close(r);
  trace_reader_close(full);
  free(f);
}

void test_scan_bad_trailer(void) {
  size_t n;
  u8 *f = sample_mem(&n, 1, 2);
  trace_reader *r;
  struct trace_info info;
  f[n - 10] ^= 1; /* the trailer's index length */
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT(!info.complete);
  CU_ASSERT(info.rebuilt);
  CU_ASSERT(info.damaged);
  CU_ASSERT_EQUAL(info.damage_offset, n - 32);
  CU_ASSERT(strstr(info.damage, "trailer") != NULL);
  CU_ASSERT_EQUAL(info.nblobs, 2);
  tf_check_all(r, 3, 600);
  trace_reader_close(r);
  free(f);
}

void test_scan_bad_index(void) {
  size_t n;
  u8 *f = sample_mem(&n, 1, 2);
  trace_reader *r;
  struct trace_info info;
  u64 ioff = rd_le64(f + n - 24);
  f[ioff + TRACE__CHUNK_HDR + 5] ^= 0x10;
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, f, n, NULL), 0);
  trace_reader_get_info(r, &info);
  CU_ASSERT(info.rebuilt);
  CU_ASSERT(info.damaged);
  CU_ASSERT_EQUAL(info.damage_offset, ioff);
  CU_ASSERT_EQUAL(trace_reader_ndamaged(r), 1);
  tf_check_all(r, 3, 600);
  trace_reader_close(r);
  free(f);
}
