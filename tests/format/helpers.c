/* SPDX-License-Identifier: MIT */
/* Helpers shared by the format tests (see helpers.h). The sample trace is a
 * pure function of its parameters, so any test can recompute what a reader
 * must return. */
#include "tests/format/helpers.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"

const char *tf_path(const char *name) {
  static char bufs[8][256];
  static int next;
  char *b = bufs[next++ % 8];
  snprintf(b, sizeof bufs[0], "/tmp/rwfmt-%d-%s", (int)getpid(), name);
  return b;
}

unsigned char *tf_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
      fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    *len = (size_t)n;
  }
  fclose(f);
  return buf;
}

int tf_write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  int ok;
  if (!f) return -1;
  ok = fwrite(p, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

size_t tf_record(u64 seq, int nthreads, u32 *tid, u16 *type, u8 *buf) {
  /* A cheap mix so that threads interleave irregularly. */
  u64 h = seq * 0x9e3779b97f4a7c15ull;
  size_t len = (size_t)((h >> 20) % 300);
  *tid = 100 + (u32)((h >> 40) % (u64)nthreads);
  *type = (u16)(1 + seq % (TRACE_REC_MAX_KNOWN - 1));
  /* The two a cursor expands into the records they stand for are no
   * opaque payloads (test_records_general_regs covers them). */
  if (*type == TRACE_REC_SYSCALL_ENTER_GP || *type == TRACE_REC_SYSCALL_EXIT_GP)
    *type = TRACE_REC_NOTE;
  for (size_t k = 0; k < len; k++) buf[k] = (u8)(seq * 13 + k * 7);
  if (len >= 8) wr_le64(buf, seq);
  return len;
}

size_t tf_blob_size(int i) {
  static const size_t sizes[] = {0, 1, 100, 5000, 70000, 9u << 20};
  return sizes[i % 6] + (size_t)(i / 6);
}

void tf_blob(int i, u8 *buf) {
  size_t n = tf_blob_size(i);
  u32 x = 0x12345u + (u32)i;
  for (size_t k = 0; k < n; k++) {
    x = x * 1103515245u + 12345u;
    /* Half text-like, half noise: compressible but not trivially. */
    buf[k] = (k / 4096) % 2 ? (u8)(x >> 16) : (u8)('a' + (x >> 16) % 26);
  }
}

int tf_make_sample(const char *path, const struct tf_sample *s) {
  struct trace_writer_opts o = {0};
  trace_writer *w;
  u8 buf[4096];
  int rc, kf = 0;
  o.chunk_bytes = s->chunk_bytes;
  o.level = s->level;
  o.overwrite = 1;
  rc = trace_writer_open(&w, path, &o);
  if (rc < 0) return rc;
  rc = trace_writer_set_meta(w, TRACE_META_CMDLINE, "prog\0--flag", 11);
  if (rc == 0) rc = trace_writer_set_meta(w, TRACE_META_CWD, "/tmp", 4);
  if (rc == 0) rc = trace_writer_set_meta(w, TRACE_META_START, "1000", 4);
  for (int i = 0; rc == 0 && i < s->nblobs; i++) {
    u8 *b = malloc(tf_blob_size(i) + 1);
    u8 hash[32];
    char name[64];
    if (!b) return RW_ENOMEM;
    tf_blob(i, b);
    snprintf(name, sizeof name, "/lib/blob%d.so", i);
    rc = trace_writer_add_blob(w, name, b, tf_blob_size(i), hash);
    free(b);
  }
  for (int seq = 1; rc == 0 && seq <= s->nrec; seq++) {
    u32 tid;
    u16 type;
    u64 got;
    size_t len = tf_record((u64)seq, s->nthreads, &tid, &type, buf);
    rc = trace_writer_append(w, tid, type, buf, len, &got);
    if (rc == 0 && got != (u64)seq) rc = RW_ESTATE;
    if (rc == 0 && kf < s->nkeyframes &&
        seq == (kf + 1) * s->nrec / (s->nkeyframes + 1)) {
      wr_le64(buf, (u64)seq);
      rc = trace_writer_add_keyframe(w, (u16)(kf % 2), (u64)seq, buf, 64);
      kf++;
    }
  }
  /* A later value of a key replaces the earlier one. */
  if (rc == 0) rc = trace_writer_set_meta(w, TRACE_META_START, "2000", 4);
  if (rc == 0) rc = trace_writer_set_meta(w, TRACE_META_END, "3000", 4);
  {
    int rc2 = trace_writer_close(w);
    if (rc == 0) rc = rc2;
  }
  if (rc == 0 && !s->close) {
    /* Cut off the index and trailer, as if the writer had been killed right
     * after its last chunk. */
    size_t n;
    u8 *f = tf_read_file(path, &n);
    if (!f || n < 32) return RW_EINVAL;
    rc = truncate(path, (off_t)rd_le64(f + n - 24)) ? RW_EINVAL : 0;
    free(f);
  }
  return rc;
}

u64 tf_check_all(trace_reader *r, int nthreads, int nrec) {
  trace_cursor *c;
  struct trace_record rec;
  struct rw_diag d = {0};
  u8 buf[4096];
  u64 seq = 0, ok = 0;
  int rc;
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  while ((rc = trace_cursor_next(c, &rec, &d)) == 1) {
    u32 tid;
    u16 type;
    size_t len;
    seq++;
    len = tf_record(seq, nthreads, &tid, &type, buf);
    if (rec.seq == seq && rec.tid == tid && rec.type == type &&
        rec.len == len && memcmp(rec.data, buf, len) == 0)
      ok++;
  }
  CU_ASSERT_EQUAL(rc, 0);
  if (rc < 0) fprintf(stderr, "cursor: %s\n", d.msg);
  CU_ASSERT_EQUAL(seq, (u64)nrec);
  CU_ASSERT_EQUAL(ok, (u64)nrec);
  trace_cursor_close(c);
  return ok;
}
