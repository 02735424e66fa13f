/* SPDX-License-Identifier: MIT */
/* In-process syscall buffering (DESIGN.md sections 2 and 3). A ptrace stop
 * costs about 20 us here, two per syscall; a program that reads the clock a
 * million times would record hundreds of times slower than it runs. So:
 *
 * - The recorder's child installs, before its exec, a seccomp filter that
 *   asks for a stop (SECCOMP_RET_TRACE) at every syscall but those made by
 *   one instruction, RW_SB_BASE + RW_SB_SYSCALL (recorder/sbuf.h), and the
 *   recorder resumes threads with PTRACE_CONT: a syscall stops at its entry
 *   through the filter, and at its exit because the recorder then resumes
 *   with PTRACE_SYSCALL, as before.
 * - At the end of every execve, the recorder maps a small library at
 *   RW_SB_BASE (recorder/sblib.c) by making the process run two mmaps, and
 *   points the vDSO's time functions at it. The library makes their
 *   syscalls through that instruction and logs, in a ring in the process,
 *   each result, its output bytes and the registers at the call.
 * - At every stop of the thread that ran, the recorder drains the ring:
 *   each logged call becomes the SYSCALL_ENTER, MEM and SYSCALL_EXIT that a
 *   stop would have written. One thread runs at a time, so what the ring
 *   holds at a stop of the running thread is that thread's.
 *
 * The mappings, the library's bytes and the patched vDSO are recorded like
 * any memory: the replay runs the library and finds its syscalls as it
 * finds any other. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "common/endian.h"
#include "recorder/rec_int.h"
#include "recorder/sbuf.h"

/* The library's image (recorder/sblib_bin.c, generated). */
extern const unsigned char rec__sblib_start[];
extern const unsigned char *const rec__sblib_end;

#define VSYS_BASE REC_VSYS_BASE
#define SB_IP (RW_SB_BASE + RW_SB_SYSCALL + 2) /* as seccomp sees it */

void rec__sb_filter(void) {
  enum { IP_LO = offsetof(struct seccomp_data, instruction_pointer) };
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO + 4),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (u32)(VSYS_BASE >> 32), 0, 4),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (u32)VSYS_BASE, 0, 6),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (u32)VSYS_BASE + 4096, 5, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | REC_VSYS_DATA),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (u32)SB_IP, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | REC_SB_DATA),
  };
  struct sock_fprog prog = {sizeof f / sizeof *f, f};
  rec__seccomp_install(&prog);
}

int rec__sb_cont(const struct rec *r, const struct rec__task *t) {
  return r->sbuf && t->proc && !t->proc->sb_fullstop;
}

/* Makes thread TID, stopped at a syscall exit with registers AT, run
 * syscall NR(A, B, C, D, E, F) through the instruction at INSN. Returns its
 * result, or a negative code when the thread went away (RW_ENOTFOUND). */
static int remote(pid_t tid, const struct rw_regs *at, u64 insn, u64 nr,
                  const u64 args[6], i64 *res) {
  struct rw_regs regs = *at;
  static const int arg[6] = {RW_REG_rdi, RW_REG_rsi, RW_REG_rdx,
                             RW_REG_r10, RW_REG_r8,  RW_REG_r9};
  regs.rip = insn;
  regs.gpr[RW_REG_rax] = nr;
  for (int i = 0; i < 6; i++) regs.gpr[arg[i]] = args[i];
  regs.orig_rax = ~0ull;
  RW_FORWARD(rec__regs_set_gprs(tid, &regs));
  if (rec__next_syscall_stop(tid, 1) < 0 || rec__next_syscall_stop(tid, 2) < 0)
    return RW_ENOTFOUND;
  errno = 0;
  long v = ptrace(PTRACE_PEEKUSER, tid,
                  (void *)offsetof(struct user_regs_struct, rax), 0);
  RW_RETURN_IF(errno, RW_ERR(errno), "reading a syscall's result");
  *res = v;
  return 0;
}

/* Records the mappings of [A, B) as they are now, contents included. */
static int describe(struct rec *r, u64 a, u64 b) {
  RW_FORWARD(rec__maps_read(r->proc->pid, r->proc->maps));
  for (const struct rec__map *m = rec__maps_from(r->proc->maps, a);
       m && m->start < b; m = rec__maps_next(r->proc->maps, m))
    RW_FORWARD(rec__space_describe(r, m, RW_MAX(a, m->start),
                                   RW_MIN(b, m->end), 1));
  return 0;
}

/* The entry of the library for vDSO function NR, or 0. */
static u64 entry_of(int nr) {
  switch (nr) {
    case 228: return RW_SB_BASE + RW_SB_ENT_CLOCK_GETTIME;
    case 96: return RW_SB_BASE + RW_SB_ENT_GETTIMEOFDAY;
    case 201: return RW_SB_BASE + RW_SB_ENT_TIME;
    case 309: return RW_SB_BASE + RW_SB_ENT_GETCPU;
    case 229: return RW_SB_BASE + RW_SB_ENT_CLOCK_GETRES;
    default: return 0;
  }
}

int rec__sb_exec(struct rec *r, const struct rw_regs *at) {
  struct rec__proc *p = r->proc;
  struct rec__sb *sb = &p->sb_own;
  memset(sb, 0, sizeof *sb);
  p->sb = sb;
  if (!r->sbuf || p->sb_fullstop || !p->nvfn) return 0;
  size_t n = (size_t)(rec__sblib_end - rec__sblib_start);
  if (n > RW_SB_CODE) return RW_EINVAL;
  /* The vDSO's first stub has a syscall instruction 5 bytes in. */
  u64 insn = p->vfn[0].addr + 5;
  pid_t tid = r->cur->tid;
  i64 res = 0;
  u64 code[6] = {RW_SB_BASE, RW_SB_CODE, PROT_READ | PROT_EXEC,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                 (u64)-1, 0};
  u64 data[6] = {RW_SB_HDR, RW_SB_SIZE - RW_SB_CODE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                 (u64)-1, 0};
  int rc = remote(tid, at, insn, 9 /* mmap */, code, &res);
  if (rc == 0 && (u64)res == RW_SB_BASE) {
    u64 code_at = (u64)res;
    rc = remote(tid, at, insn, 9, data, &res);
    if (rc == 0 && (u64)res != RW_SB_HDR) {
      u64 un[6] = {code_at, RW_SB_CODE, 0, 0, 0, 0};
      if (res > 0) {
        u64 un2[6] = {(u64)res, RW_SB_SIZE - RW_SB_CODE, 0, 0, 0, 0};
        rc = remote(tid, at, insn, 11 /* munmap */, un2, &res);
      }
      if (rc == 0) rc = remote(tid, at, insn, 11, un, &res);
      res = -EEXIST;
    }
  } else if (rc == 0 && res > 0) { /* an old kernel put it elsewhere */
    u64 un[6] = {(u64)res, RW_SB_CODE, 0, 0, 0, 0};
    rc = remote(tid, at, insn, 11, un, &res);
    res = -EEXIST;
  }
  /* Back to where execve returned. */
  int rc2 = rec__regs_set_gprs(tid, at);
  RW_FORWARD(rc);
  RW_FORWARD(rc2);
  if (res < 0) {
    rw_log(RW_LOG_INFO,
           "note: %#lx is taken in process %d; its syscalls are not "
           "buffered (each stops the recorder)",
           (unsigned long)RW_SB_BASE, (int)p->pid);
    return 0;
  }
  RW_FORWARD(rec__mem_write(r, RW_SB_BASE, rec__sblib_start, n));
  /* The vDSO's functions jump there: mov eax, ENTRY ; jmp rax. */
  for (u32 i = 0; i < p->nvfn; i++) {
    u64 to = entry_of(p->vfn[i].nr);
    if (!to) continue;
    u8 j[7] = {0xb8, 0, 0, 0, 0, 0xff, 0xe0};
    wr_le32(j + 1, (u32)to);
    RW_FORWARD(rec__mem_write(r, p->vfn[i].addr, j, sizeof j));
  }
  sb->on = sb->mapped = 1;
  RW_FORWARD(describe(r, RW_SB_BASE, RW_SB_BASE + RW_SB_SIZE));
  for (u32 i = 0; i < p->nvfn; i++)
    if (entry_of(p->vfn[i].nr))
      RW_FORWARD(rec__mem_import(r, p->vfn[i].addr, 7));
  return 0;
}

void rec__sb_fork(struct rec__proc *child, const struct rec__proc *parent,
                  int shared) {
  child->sb_fullstop = parent->sb_fullstop;
  child->sb_own = *parent->sb;
  child->sb = shared ? parent->sb : &child->sb_own;
}

int rec__sb_off(struct rec *r) {
  struct rec__sb *sb = r->proc->sb;
  if (!sb->on) return 0;
  RW_FORWARD(rec__sb_drain(r));
  sb->on = 0;
  u64 one = 1;
  RW_FORWARD(rec__mem_write(r, RW_SB_HDR + RW_SB_H_BUSY, &one, 8));
  return rec__mem_emit(r, RW_SB_HDR + RW_SB_H_BUSY, (const u8 *)&one, 8);
}

/* Whether syscall NR with ARGS changes the mappings of the library. */
static int touches(u64 nr, const u64 a[6]) {
  u64 lo = RW_SB_BASE, hi = RW_SB_BASE + RW_SB_SIZE;
#define OVER(x, n) ((x) < hi && (x) + (n) > lo)
  switch (nr) {
    case 9: /* mmap: MAP_FIXED or MAP_FIXED_NOREPLACE */
      return (a[3] & (0x10 | 0x100000)) && OVER(a[0], a[1]);
    case 10: /* mprotect */
    case 11: /* munmap */
    case 28: /* madvise */
    case 329: /* pkey_mprotect */
      return OVER(a[0], a[1]);
    case 25: /* mremap: from, or to a fixed place */
      return OVER(a[0], a[1]) || ((a[3] & 2) && OVER(a[4], a[2]));
    case 30: /* shmat */
      return a[1] && OVER(a[1], 1);
    default:
      return 0;
  }
#undef OVER
}

int rec__sb_entry(struct rec *r, u64 nr, const u64 args[6]) {
  struct rec__proc *p = r->proc;
  struct rec__sb *sb = p->sb;
  if (!sb->mapped || !touches(nr, args)) return 0;
  /* The program remaps the library's memory: it goes back to making
   * every syscall itself, through the vDSO's plain stubs. */
  RW_FORWARD(rec__sb_off(r));
  sb->mapped = 0;
  for (u32 i = 0; i < p->nvfn; i++) {
    u8 stub[8] = {0xb8, 0, 0, 0, 0, 0x0f, 0x05, 0xc3};
    wr_le32(stub + 1, (u32)p->vfn[i].nr);
    RW_FORWARD(rec__mem_write(r, p->vfn[i].addr, stub, sizeof stub));
    RW_FORWARD(rec__mem_emit(r, p->vfn[i].addr, stub, sizeof stub));
  }
  return 0;
}

/* The ring held something the library cannot have written: the program
 * wrote over it. What it logged since the last stop is lost. */
static int garbled(struct rec *r, const char *what) {
  struct rec__sb *sb = r->proc->sb;
  sb->on = 0;
  return rec__warn(r, 0,
                   "the syscall buffer of process %d at %#lx was overwritten "
                   "(%s); the replay will stop where its records are missing",
                   (int)r->proc->pid, (unsigned long)RW_SB_HDR, what);
}

/* How many bytes of its out area syscall NR wrote, having returned RET
 * with room for NOUT. */
static u32 written(u32 nr, i64 ret, u32 nout) {
  (void)nr; /* the time functions write all of it, when they succeed */
  return ret == 0 ? nout : 0;
}

/* Writes the records of the syscall logged at ring offset POS in REC (its
 * bytes as read), which returned RET, with the registers of NOW (segments,
 * FS and GS bases) where the record has none. */
static int emit(struct rec *r, u64 pos, const u8 *rec, i64 ret,
                const struct rw_regs *now) {
  struct rec__task *t = r->cur;
  u32 nr = rd_le32(rec + RW_SB_R_NR);
  u32 nout = written(nr, ret, rd_le32(rec + RW_SB_R_NOUT));
  struct rw_regs in = *now;
  memcpy(in.fxsave, t->entry.fxsave, sizeof in.fxsave);
  memcpy(in.ymmh, t->entry.ymmh, sizeof in.ymmh);
  for (int g = 0; g < RW_NGPR; g++)
    in.gpr[g] = rd_le64(rec + RW_SB_R_GPR + 8 * (u64)g);
  in.rflags = rd_le64(rec + RW_SB_R_FLAGS);
  in.rip = SB_IP;
  in.orig_rax = nr;
  in.gpr[RW_REG_rax] = nr;
  /* The syscall instruction itself left these, as a stop shows. */
  in.gpr[RW_REG_rcx] = SB_IP;
  in.gpr[RW_REG_r11] = in.rflags;
  r->n.syscalls++;
  r->n.buffered++;
  RW_FORWARD(rec__emit_regs(r, TRACE_REC_SYSCALL_ENTER, nr, 0, 0, &in, 0));
  if (nout)
    RW_FORWARD(rec__mem_emit(r, RW_SB_RING + pos + RW_SB_R_OUT,
                             rec + RW_SB_R_OUT, nout));
  in.gpr[RW_REG_rax] = (u64)ret;
  return rec__emit_regs(r, TRACE_REC_SYSCALL_EXIT, nr, 1, ret, &in, 0);
}

/* Whether the record of SIZE bytes at ring offset POS (its first bytes in
 * REC) is whole and of a kind the library writes. */
static int sane(u64 pos, u32 size, const u8 *rec) {
  u32 nr = rd_le32(rec + RW_SB_R_NR);
  if (size < 8 || size % 8 || size > RW_SB_CAP - pos) return 0;
  if (nr == RW_SB_PAD) return 1;
  u32 nout = rd_le32(rec + RW_SB_R_NOUT);
  return size >= RW_SB_R_OUT && nout <= size - RW_SB_R_OUT && entry_of((int)nr);
}

int rec__sb_drain(struct rec *r) {
  struct rec__sb *sb = r->proc->sb;
  struct rec__task *t = r->cur;
  if (!sb->on) return 0;
  u64 hdr[4];
  if (rec__mem_read(r, RW_SB_HDR, hdr, sizeof hdr) != sizeof hdr) return 0;
  u64 head = hdr[RW_SB_H_HEAD / 8], busy = hdr[RW_SB_H_BUSY / 8];
  u64 done = hdr[RW_SB_H_DONE / 8];
  if (head == sb->tail && !busy) return 0;
  if (head < sb->tail || head - sb->tail > RW_SB_CAP)
    return garbled(r, "its head moved back or too far");
  /* The registers the records do not have: segments, FS and GS bases. */
  struct rw_regs now;
  RW_FORWARD(rec__regs_get(r, t->tid, &now, 0));
  u8 *buf = r->buf;
  while (sb->tail < head) {
    u64 pos = sb->tail & (RW_SB_CAP - 1);
    u64 len = RW_MIN(head - sb->tail, RW_SB_CAP - pos);
    if (rec__mem_read(r, RW_SB_RING + pos, buf, (size_t)len) != (i64)len)
      return garbled(r, "unreadable");
    for (u64 k = 0; k < len;) {
      u32 size = rd_le32(buf + k + RW_SB_R_SIZE);
      if (size > len - k || !sane(pos + k, size, buf + k))
        return garbled(r, "a record of a bad size or kind");
      u32 nr = rd_le32(buf + k + RW_SB_R_NR);
      int seen = sb->early && sb->early_at == sb->tail + k;
      if (nr != RW_SB_PAD && !seen)
        RW_FORWARD(emit(r, pos + k, buf + k,
                        (i64)rd_le64(buf + k + RW_SB_R_RET), &now));
      if (seen) sb->early = 0;
      k += size;
    }
    sb->tail += len;
  }
  /* A stop inside the library after its syscall returned and before it
   * committed the record (a signal, the end of a timeslice): the replay
   * gets there only through that syscall, so its records come now. */
  u64 pos = head & (RW_SB_CAP - 1), at = RW_SB_RING + pos;
  u64 rip = now.rip, base = RW_SB_BASE + RW_SB_SYSCALL;
  int in_rax = rip == base + 2, in_rec = rip == base + RW_SB_AFTER_RET;
  if (in_rax || in_rec) done = now.gpr[RW_REG_r12];
  if (!busy || done != at || (sb->early && sb->early_at == head)) return 0;
  if (rec__mem_read(r, at, buf, RW_SB_R_OUT) != RW_SB_R_OUT)
    return garbled(r, "unreadable");
  u32 size = rd_le32(buf + RW_SB_R_SIZE);
  if (!sane(pos, size, buf) || rd_le32(buf + RW_SB_R_NR) == RW_SB_PAD ||
      rec__mem_read(r, at, buf, size) != (i64)size)
    return garbled(r, "a record of a bad size or kind");
  i64 ret = in_rax ? (i64)now.gpr[RW_REG_rax] : (i64)rd_le64(buf + RW_SB_R_RET);
  RW_FORWARD(emit(r, pos, buf, ret, &now));
  sb->early = 1;
  sb->early_at = head;
  return 0;
}
