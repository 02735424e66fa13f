/* SPDX-License-Identifier: MIT */
/* Record emitters: each turns one recorder event into the typed record of
 * format/records.h (generated from format/records.def, which alone knows
 * the layout) and appends it to the recorded thread's stream. Also the
 * warnings and notes that go both to stderr and into the trace. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

/* The stream of the thread being recorded. */
static u32 cur(const struct rec *r) { return (u32)r->cur->tid; }

int rec__emit_exec(struct rec *r, u32 pid, const char *path) {
  struct trace_rec_exec e = {pid, trace_str_of(path)};
  return trace_rec_exec_append(r->w, cur(r), &e);
}

int rec__emit_map(struct rec *r, u64 addr, u64 len, u32 prot, u32 flags,
                  u64 offset, const u8 hash[32], const char *path,
                  u64 object) {
  struct trace_rec_map m = {addr, len, prot, flags, offset, {{0}},
                            trace_str_of(path), object};
  if (hash) memcpy(m.blob.b, hash, 32);
  return trace_rec_map_append(r->w, cur(r), &m);
}

int rec__emit_unmap(struct rec *r, u64 addr, u64 len) {
  struct trace_rec_unmap u = {addr, len};
  return trace_rec_unmap_append(r->w, cur(r), &u);
}

int rec__emit_protect(struct rec *r, u64 addr, u64 len, u32 prot) {
  struct trace_rec_protect p = {addr, len, prot};
  return trace_rec_protect_append(r->w, cur(r), &p);
}

int rec__emit_remap(struct rec *r, u64 oa, u64 ol, u64 na, u64 nl, u32 fl) {
  struct trace_rec_remap m = {oa, ol, na, nl, fl};
  return trace_rec_remap_append(r->w, cur(r), &m);
}

int rec__emit_regs(struct rec *r, u16 type, u64 nr, int with_result,
                   i64 result, const struct rw_regs *regs, int fp_valid) {
  /* Without the FP/SSE/AVX state (not read at this stop), the general
   * registers alone: a fifth of the bytes to write and compress. Encoded
   * here, as records.def lays them out, without copying REGS into a
   * record struct first (buffered syscalls come by the million). */
  if (!fp_valid) {
    u8 *d;
    size_t n = 8 + (with_result ? 8 : 0) + RW_GREGS_DISK_SIZE;
    RW_RETURN_IF(!with_result && type != TRACE_REC_SYSCALL_ENTER, RW_EINVAL,
                 "type %u", type);
    RW_FORWARD(trace_writer_reserve(r->w, cur(r),
                                    with_result ? TRACE_REC_SYSCALL_EXIT_GP
                                                : TRACE_REC_SYSCALL_ENTER_GP,
                                    n, &d));
    wr_le64(d, nr), d += 8;
    if (with_result) wr_le64(d, (u64)result), d += 8;
    rw_gregs_encode(regs, d);
    return trace_writer_commit(r->w, NULL);
  }
  if (with_result) {
    struct trace_rec_syscall_exit x = {nr, result, *regs, 1};
    return trace_rec_syscall_exit_append(r->w, cur(r), &x);
  }
  RW_RETURN_IF(type != TRACE_REC_SYSCALL_ENTER, RW_EINVAL, "type %u", type);
  struct trace_rec_syscall_enter e = {nr, *regs, 1};
  return trace_rec_syscall_enter_append(r->w, cur(r), &e);
}

int rec__emit_thread_start(struct rec *r, u32 tid, u32 parent,
                           const struct rw_regs *regs) {
  struct trace_rec_thread_start t = {tid, parent, *regs, 0, 0};
  return trace_rec_thread_start_append(r->w, tid, &t);
}

int rec__emit_pkru(struct rec *r, pid_t tid, int fresh) {
  struct trace_rec_pkru k;
  int inuse;
  int rc = rec__pkru_get(r, tid, &k.pkru, &inuse);
  if (rc == RW_ENOTFOUND) return 0;
  RW_FORWARD(rc);
  if (fresh && !inuse) return 0;
  return trace_rec_pkru_append(r->w, (u32)tid, &k);
}

int rec__emit_thread_name(struct rec *r, u32 tid, const char *name) {
  struct trace_rec_thread_name t = {tid, trace_str_of(name)};
  if (t.name.len > 15) t.name.len = 15; /* the kernel's comm */
  return trace_rec_thread_name_append(r->w, tid, &t);
}

int rec__emit_rdtsc(struct rec *r, u64 rip, u64 tsc, u32 aux, u32 kind) {
  struct trace_rec_rdtsc t = {rip, tsc, aux, kind};
  return trace_rec_rdtsc_append(r->w, cur(r), &t);
}

int rec__emit_signal(struct rec *r, int signo, int code, u64 addr,
                     const struct rw_regs *regs, const u8 siginfo[128]) {
  struct trace_rec_signal s = {(u32)signo, code, addr, *regs,
                               {siginfo, 128}};
  return trace_rec_signal_append(r->w, cur(r), &s);
}

int rec__emit_exit(struct rec *r, u32 tid, i32 status, u32 signo,
                   u64 digest, const struct rw_digest_spec *spec) {
  static const struct rw_digest_spec none;
  u8 skips[TRACE_SPEC_BUF];
  struct trace_rec_exit e = {.tid = tid,
                             .status = status,
                             .signo = signo,
                             .has_digest = spec != NULL,
                             .digest = spec ? digest : 0};
  trace_spec_set(spec ? spec : &none, &e.dead_lo, &e.dead_hi, &e.nskip,
                 &e.skips, skips);
  return trace_rec_exit_append(r->w, tid, &e);
}

int rec__emit_preempt(struct rec *r, const struct rw_regs *regs, u64 digest,
                      const struct rw_digest_spec *spec) {
  u8 skips[TRACE_SPEC_BUF];
  struct trace_rec_preempt p = {.regs = *regs, .digest = digest};
  trace_spec_set(spec, &p.dead_lo, &p.dead_hi, &p.nskip, &p.skips, skips);
  return trace_rec_preempt_append(r->w, cur(r), &p);
}

int rec__emit_fork(struct rec *r, u32 child, u32 kind, u64 flags,
                   u32 recorded) {
  struct trace_rec_fork f = {child, kind, flags, recorded};
  return trace_rec_fork_append(r->w, cur(r), &f);
}

int rec__emit_diff(struct rec *r, u64 nr, u64 lines, const char *name) {
  struct trace_rec_syscall_diff d = {nr, lines,
                                     trace_str_of(name ? name : "?")};
  return trace_rec_syscall_diff_append(r->w, cur(r), &d);
}

int rec__emit_end(struct rec *r, i32 status, u32 signo) {
  static const struct rw_digest_spec none;
  u8 skips[TRACE_SPEC_BUF];
  struct trace_rec_end e = {.status = status,
                            .signo = signo,
                            .has_digest = r->end_have ? 1 : 0,
                            .digest = r->end_have ? r->end_digest : 0};
  trace_spec_set(r->end_have ? &r->end_spec : &none, &e.dead_lo, &e.dead_hi,
                 &e.nskip, &e.skips, skips);
  return trace_rec_end_append(r->w, TRACE_TID_GLOBAL, &e);
}

int rec__emit_digest(struct rec *r, u64 digest,
                     const struct rw_digest_spec *spec) {
  u8 skips[TRACE_SPEC_BUF];
  struct trace_rec_digest d = {.digest = digest};
  trace_spec_set(spec, &d.dead_lo, &d.dead_hi, &d.nskip, &d.skips, skips);
  return trace_rec_digest_append(r->w, cur(r), &d);
}

int rec__emit_detach(struct rec *r, u64 digest,
                     const struct rw_digest_spec *spec) {
  u8 skips[TRACE_SPEC_BUF];
  struct trace_rec_detach d = {.has_digest = spec != NULL, .digest = digest};
  if (spec)
    trace_spec_set(spec, &d.dead_lo, &d.dead_hi, &d.nskip, &d.skips, skips);
  return trace_rec_detach_append(r->w, TRACE_TID_GLOBAL, &d);
}

int rec__emit_resize(struct rec *r, u64 object, u64 size) {
  struct trace_rec_resize z = {object, size};
  return trace_rec_resize_append(r->w, cur(r), &z);
}

int rec__emit_grow(struct rec *r, u64 addr, u64 len) {
  struct trace_rec_grow g = {addr, len};
  return trace_rec_grow_append(r->w, cur(r), &g);
}

int rec__emit_mem(struct rec *r, u64 addr, const u8 *data, size_t len) {
  struct trace_rec_mem m = {addr, {data, len}};
  return trace_rec_mem_append(r->w, cur(r), &m);
}

static int vnote(struct rec *r, u32 level, int print, const char *fmt,
                 va_list ap) {
  char text[512];
  vsnprintf(text, sizeof text, fmt, ap);
  if (print) rw_log(RW_LOG_INFO, "warning: %s", text);
  struct trace_rec_note n = {level, trace_str_of(text)};
  return trace_rec_note_append(r->w, cur(r), &n);
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
