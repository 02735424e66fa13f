/* SPDX-License-Identifier: MIT */
/* Record encoders: each turns one recorder event into the payload described
 * in format/records.def, field by field through the little-endian codecs
 * (STYLE R4), and appends it to the recorded thread's stream. Also the
 * warnings and notes that go both to stderr and into the trace. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

int rec__emit(struct rec *r, u16 type, const void *p, size_t len) {
  return trace_writer_append(r->w, (u32)r->cur->tid, type, p, len, NULL);
}

int rec__emit_to(struct rec *r, u32 tid, u16 type, const void *p,
                 size_t len) {
  return trace_writer_append(r->w, tid, type, p, len, NULL);
}

/* Writes a "str" field (u16 length, bytes) at P; returns its size. */
static size_t put_str(u8 *p, const char *s, size_t cap) {
  size_t n = strlen(s);
  if (n > cap - 2) n = cap - 2;
  if (n > 0xffff) n = 0xffff;
  wr_le16(p, (u16)n);
  memcpy(p + 2, s, n);
  return n + 2;
}

int rec__emit_exec(struct rec *r, u32 pid, const char *path) {
  u8 b[4 + 2 + 4096];
  wr_le32(b, pid);
  size_t n = 4 + put_str(b + 4, path, sizeof b - 4);
  return rec__emit(r, TRACE_REC_EXEC, b, n);
}

int rec__emit_map(struct rec *r, u64 addr, u64 len, u32 prot, u32 flags,
                  u64 offset, const u8 hash[32], const char *path,
                  u64 object) {
  u8 b[8 + 8 + 4 + 4 + 8 + 32 + 2 + 4096 + 8];
  wr_le64(b, addr);
  wr_le64(b + 8, len);
  wr_le32(b + 16, prot);
  wr_le32(b + 20, flags);
  wr_le64(b + 24, offset);
  if (hash)
    memcpy(b + 32, hash, 32);
  else
    memset(b + 32, 0, 32);
  size_t n = 64 + put_str(b + 64, path ? path : "", sizeof b - 64 - 8);
  wr_le64(b + n, object);
  return rec__emit(r, TRACE_REC_MAP, b, n + 8);
}

int rec__emit_unmap(struct rec *r, u64 addr, u64 len) {
  u8 b[16];
  wr_le64(b, addr);
  wr_le64(b + 8, len);
  return rec__emit(r, TRACE_REC_UNMAP, b, sizeof b);
}

int rec__emit_protect(struct rec *r, u64 addr, u64 len, u32 prot) {
  u8 b[20];
  wr_le64(b, addr);
  wr_le64(b + 8, len);
  wr_le32(b + 16, prot);
  return rec__emit(r, TRACE_REC_PROTECT, b, sizeof b);
}

int rec__emit_remap(struct rec *r, u64 oa, u64 ol, u64 na, u64 nl, u32 fl) {
  u8 b[36];
  wr_le64(b, oa);
  wr_le64(b + 8, ol);
  wr_le64(b + 16, na);
  wr_le64(b + 24, nl);
  wr_le32(b + 32, fl);
  return rec__emit(r, TRACE_REC_REMAP, b, sizeof b);
}

int rec__emit_regs(struct rec *r, u16 type, u64 nr, int with_result,
                   i64 result, const struct rw_regs *regs, int fp_valid) {
  u8 b[16 + RW_REGS_DISK_SIZE + 4];
  size_t n = 0;
  wr_le64(b, nr), n = 8;
  if (with_result) wr_le64(b + n, (u64)result), n += 8;
  rw_regs_encode(regs, b + n);
  n += RW_REGS_DISK_SIZE;
  wr_le32(b + n, fp_valid ? 1 : 0);
  return rec__emit(r, type, b, n + 4);
}

int rec__emit_thread_start(struct rec *r, u32 tid, u32 parent,
                           const struct rw_regs *regs) {
  u8 b[8 + RW_REGS_DISK_SIZE];
  wr_le32(b, tid);
  wr_le32(b + 4, parent);
  rw_regs_encode(regs, b + 8);
  return rec__emit_to(r, tid, TRACE_REC_THREAD_START, b, sizeof b);
}

int rec__emit_thread_name(struct rec *r, u32 tid, const char *name) {
  u8 b[4 + 2 + 16];
  wr_le32(b, tid);
  size_t n = 4 + put_str(b + 4, name, sizeof b - 4);
  return rec__emit_to(r, tid, TRACE_REC_THREAD_NAME, b, n);
}

int rec__emit_rdtsc(struct rec *r, u64 rip, u64 tsc, u32 aux, u32 kind) {
  u8 b[24];
  wr_le64(b, rip);
  wr_le64(b + 8, tsc);
  wr_le32(b + 16, aux);
  wr_le32(b + 20, kind);
  return rec__emit(r, TRACE_REC_RDTSC, b, sizeof b);
}

int rec__emit_signal(struct rec *r, int signo, int code, u64 addr,
                     const struct rw_regs *regs, const u8 siginfo[128]) {
  u8 b[16 + RW_REGS_DISK_SIZE + 128];
  wr_le32(b, (u32)signo);
  wr_le32(b + 4, (u32)code);
  wr_le64(b + 8, addr);
  rw_regs_encode(regs, b + 16);
  memcpy(b + 16 + RW_REGS_DISK_SIZE, siginfo, 128);
  return rec__emit(r, TRACE_REC_SIGNAL, b, sizeof b);
}

int rec__emit_exit(struct rec *r, u32 tid, i32 status, u32 signo) {
  u8 b[12];
  wr_le32(b, tid);
  wr_le32(b + 4, (u32)status);
  wr_le32(b + 8, signo);
  return rec__emit_to(r, tid, TRACE_REC_EXIT, b, sizeof b);
}

/* The fields format 1.3 and 1.5 append to a digest: the dead range, then
 * the left-out ranges. Returns their size. */
static size_t put_spec(u8 *b, const struct rw_digest_spec *s) {
  wr_le64(b, s->dead_lo);
  wr_le64(b + 8, s->dead_hi);
  wr_le32(b + 16, s->nskip);
  for (u32 i = 0; i < s->nskip; i++) {
    wr_le64(b + 20 + 16 * i, s->skip[i][0]);
    wr_le64(b + 28 + 16 * i, s->skip[i][1]);
  }
  return 20 + 16 * (size_t)s->nskip;
}

int rec__emit_preempt(struct rec *r, const struct rw_regs *regs, u64 digest,
                      const struct rw_digest_spec *spec) {
  u8 b[RW_REGS_DISK_SIZE + 8 + 20 + 16 * RW_DIGEST_SKIP_MAX];
  rw_regs_encode(regs, b);
  wr_le64(b + RW_REGS_DISK_SIZE, digest);
  size_t n = RW_REGS_DISK_SIZE + 8 + put_spec(b + RW_REGS_DISK_SIZE + 8, spec);
  return rec__emit(r, TRACE_REC_PREEMPT, b, n);
}

int rec__emit_fork(struct rec *r, u32 child, u32 kind, u64 flags) {
  u8 b[16];
  wr_le32(b, child);
  wr_le32(b + 4, kind);
  wr_le64(b + 8, flags);
  return rec__emit(r, TRACE_REC_FORK, b, sizeof b);
}

int rec__emit_diff(struct rec *r, u64 nr, u64 lines, const char *name) {
  u8 b[16 + 2 + 64];
  wr_le64(b, nr);
  wr_le64(b + 8, lines);
  size_t n = 16 + put_str(b + 16, name ? name : "?", sizeof b - 16);
  return rec__emit(r, TRACE_REC_SYSCALL_DIFF, b, n);
}

int rec__emit_end(struct rec *r, i32 status, u32 signo) {
  static const struct rw_digest_spec none;
  u8 b[20 + 20 + 16 * RW_DIGEST_SKIP_MAX];
  wr_le32(b, (u32)status);
  wr_le32(b + 4, signo);
  wr_le32(b + 8, r->end_have ? 1 : 0);
  wr_le64(b + 12, r->end_have ? r->end_digest : 0);
  size_t n = 20 + put_spec(b + 20, r->end_have ? &r->end_spec : &none);
  return rec__emit_to(r, TRACE_TID_GLOBAL, TRACE_REC_END, b, n);
}

static int vnote(struct rec *r, u32 level, int print, const char *fmt,
                 va_list ap) {
  char text[512];
  u8 b[4 + 2 + sizeof text];
  vsnprintf(text, sizeof text, fmt, ap);
  if (print) rw_log(RW_LOG_INFO, "warning: %s", text);
  wr_le32(b, level);
  size_t n = 4 + put_str(b + 4, text, sizeof b - 4);
  return rec__emit(r, TRACE_REC_NOTE, b, n);
}

int rec__note(struct rec *r, u32 level, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vnote(r, level, 0, fmt, ap);
  va_end(ap);
  return rc;
}

int rec__warn(struct rec *r, u64 nr, const char *fmt, ...) {
  if (nr < REC_NSYSCALLS) {
    if (r->warned[nr / 8] & (1u << (nr % 8))) return 0;
    r->warned[nr / 8] |= (u8)(1u << (nr % 8));
  }
  va_list ap;
  va_start(ap, fmt);
  int rc = vnote(r, 1, 1, fmt, ap);
  va_end(ap);
  return rc;
}
