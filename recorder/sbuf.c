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
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "common/digest.h"
#include "common/endian.h"
#include "recorder/rec_int.h"
#include "recorder/sbuf.h"

/* The library's image (recorder/sblib_bin.c, generated). */
extern const unsigned char rec__sblib_start[];
extern const unsigned char *const rec__sblib_end;

#define SB_IP RW_SB_IP

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

/* Whether a glibc site of syscall NR enters the library once patched
 * (sb_dispatch in recorder/sblib.c: it logs NR, or for futex the wakes,
 * and makes the others the traced way). */
static int patchable(u64 nr) {
  switch (nr) {
    case 39: case 102: case 104: case 107: case 108: case 110: case 186:
    case 5: case 262: case 14: case 202:
      return 1;
    default:
      return 0;
  }
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

/* Tells the library to make every syscall the traced way from now on. */
static int set_busy(struct rec *r) {
  u64 one = 1;
  RW_FORWARD(rec__mem_write(r, RW_SB_HDR + RW_SB_H_BUSY, &one, 8));
  return rec__mem_import(r, RW_SB_HDR + RW_SB_H_BUSY, 8);
}

int rec__sb_settle(struct rec *r) {
  struct rec__sb *sb = r->proc->sb;
  if (!sb->want_busy) return 0;
  sb->want_busy = 0;
  return set_busy(r);
}

int rec__sb_off(struct rec *r) {
  struct rec__sb *sb = r->proc->sb;
  if (!sb->on) return 0;
  RW_FORWARD(rec__sb_drain(r));
  sb->on = 0;
  return set_busy(r);
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

/* Puts every patched site back as it was, for good. */
static int unpatch_all(struct rec *r) {
  struct rec__sb *sb = r->proc->sb;
  for (u32 i = 0; i < sb->nsites; i++) {
    struct rec__sbsite *x = &sb->sites[i];
    RW_FORWARD(rec__mem_write(r, x->addr, x->orig, sizeof x->orig));
    RW_FORWARD(rec__mem_import(r, x->addr, sizeof x->orig));
  }
  sb->nsites = 0;
  sb->nopatch = 1;
  return 0;
}

/* Whether [X, X + N) meets [LO, HI). */
static int meets(u64 x, u64 n, u64 lo, u64 hi) { return x < hi && x + n > lo; }

/* Syscall NR with ARGS is about to change mappings: patched sites it
 * unmaps are forgotten; if it changes a page of stubs, every site goes
 * back to its syscall. */
static int sites_entry(struct rec *r, u64 nr, const u64 a[6]) {
  struct rec__sb *sb = r->proc->sb;
  u64 lo, n, lo2 = 0, n2 = 0;
  switch (nr) {
    case 9: /* mmap over a fixed place */
      if (!(a[3] & (0x10 | 0x100000))) return 0;
      lo = a[0], n = a[1];
      break;
    case 11: /* munmap */
    case 10: case 329: case 28: /* mprotect, pkey_mprotect, madvise */
      lo = a[0], n = a[1];
      break;
    case 25: /* mremap */
      lo = a[0], n = a[1];
      if (a[3] & 2) lo2 = a[4], n2 = a[2];
      break;
    default:
      return 0;
  }
  for (u32 i = 0; i < sb->nstub; i++)
    if (meets(sb->stub[i], RW_SB_CODE, lo, lo + n) ||
        (n2 && meets(sb->stub[i], RW_SB_CODE, lo2, lo2 + n2)))
      return unpatch_all(r);
  if (nr == 10 || nr == 329 || nr == 28) return 0; /* the bytes stay */
  for (u32 i = 0; i < sb->nsites;) {
    u64 x = sb->sites[i].addr;
    if (meets(x, 5, lo, lo + n) || (n2 && meets(x, 5, lo2, lo2 + n2)))
      sb->sites[i] = sb->sites[--sb->nsites];
    else
      i++;
  }
  return 0;
}

int rec__sb_entry(struct rec *r, u64 nr, const u64 args[6]) {
  struct rec__proc *p = r->proc;
  struct rec__sb *sb = p->sb;
  if (!sb->mapped) return 0;
  RW_FORWARD(sites_entry(r, nr, args));
  if (!touches(nr, args)) return 0;
  RW_FORWARD(unpatch_all(r));
  /* The program remaps the library's memory: it goes back to making
   * every syscall itself, through the vDSO's plain stubs. */
  RW_FORWARD(rec__sb_off(r));
  sb->mapped = 0;
  for (u32 i = 0; i < p->nvfn; i++) {
    u8 stub[8] = {0xb8, 0, 0, 0, 0, 0x0f, 0x05, 0xc3};
    wr_le32(stub + 1, (u32)p->vfn[i].nr);
    RW_FORWARD(rec__mem_write(r, p->vfn[i].addr, stub, sizeof stub));
    RW_FORWARD(rec__mem_import(r, p->vfn[i].addr, sizeof stub));
  }
  return 0;
}

/* The ring held something the library cannot have written: the program
 * wrote over it. What it logged since the last stop is lost. */
static int garbled(struct rec *r, const char *what) {
  struct rec__sb *sb = r->proc->sb;
  sb->on = 0;
  /* The library is told to stop logging once this stop's records are
   * written: a MEM before them would reach the replay before the program
   * wrote over the ring. */
  sb->want_busy = 1;
  return rec__warn(r, 0,
                   "the syscall buffer of process %d at %#lx was overwritten "
                   "(%s); the replay will stop where its records are missing",
                   (int)r->proc->pid, (unsigned long)RW_SB_HDR, what);
}

/* How many bytes of its out area syscall NR wrote, having returned RET
 * with room for NOUT. */
static u32 written(u32 nr, i64 ret, u32 nout) {
  (void)nr; /* all of it when they succeed: time, stat, the old mask */
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
  if (nout) { /* the lines of the out area, as memory is imported */
    u64 lo = (RW_SB_R_OUT) & ~(u64)(REC_LINE - 1);
    u64 hi = (RW_SB_R_OUT + nout + REC_LINE - 1) & ~(u64)(REC_LINE - 1);
    RW_FORWARD(rec__mem_emit(r, RW_SB_RING + pos + lo, rec + lo, hi - lo));
  }
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
  return size >= RW_SB_R_OUT && nout <= size - RW_SB_R_OUT &&
         size % REC_LINE == 0 && pos % REC_LINE == 0 &&
         (entry_of((int)nr) || patchable(nr));
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

/* Distance that a rel32 jump reaches, with room to spare. */
#define REACH ((1ull << 31) - 2 * RW_SB_CODE)

static int near(u64 a, u64 b) { return (a > b ? a - b : b - a) < REACH; }

/* A free page near SITE for stubs, from the recorder's model of the
 * address space: the highest gap below SITE's mapping, else the lowest
 * above it. 0 when there is none in reach. */
static u64 free_page_near(const struct rec__maps *maps, u64 site) {
  u64 below = 0, above = 0, prev_end = 0x10000; /* above mmap_min_addr */
  for (const struct rec__map *m = rec__maps_first(maps); m;
       m = rec__maps_next(maps, m)) {
    /* Not right under a mapping that grows down: it would stop growing. */
    int grows = (m->flags & (REC_MAPF_GROWSDOWN | REC_MAPF_STACK)) != 0;
    if (m->start >= prev_end + RW_SB_CODE && !grows) {
      u64 top = m->start - RW_SB_CODE;
      if (top < site && near(top, site)) below = top;
      if (prev_end > site && !above && near(prev_end, site)) above = prev_end;
    }
    if (m->end > prev_end) prev_end = m->end;
  }
  if (!above && prev_end > site && near(prev_end, site) &&
      prev_end < (1ull << 47) - RW_SB_CODE)
    above = prev_end;
  return below ? below : above;
}

/* Room for N bytes of stub near SITE: *AT, or 0 when there is none. The
 * thread stands at a syscall exit with registers REGS, after the syscall
 * instruction at INSN, through which a new page is mapped. */
static int stub_room(struct rec *r, const struct rw_regs *regs, u64 insn,
                     u64 site, u32 n, u64 *at) {
  struct rec__sb *sb = r->proc->sb;
  *at = 0;
  for (u32 i = 0; i < sb->nstub; i++)
    if (near(sb->stub[i], site) && sb->stub_used[i] + n <= RW_SB_CODE) {
      *at = sb->stub[i] + sb->stub_used[i];
      sb->stub_used[i] += n;
      return 0;
    }
  if (sb->nstub == REC_SB_STUBPAGES) return 0;
  u64 page = free_page_near(r->proc->maps, site);
  if (!page) return 0;
  u64 a[6] = {page, RW_SB_CODE, PROT_READ | PROT_EXEC,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, (u64)-1, 0};
  i64 res = 0;
  int rc = remote(r->cur->tid, regs, insn, 9 /* mmap */, a, &res);
  int rc2 = rec__regs_set_gprs(r->cur->tid, regs);
  RW_FORWARD(rc);
  RW_FORWARD(rc2);
  if ((u64)res != page) {
    if (res > 0) { /* an old kernel put it elsewhere */
      u64 un[6] = {(u64)res, RW_SB_CODE, 0, 0, 0, 0};
      RW_FORWARD(remote(r->cur->tid, regs, insn, 11, un, &res));
      RW_FORWARD(rec__regs_set_gprs(r->cur->tid, regs));
    }
    sb->nopatch = 1; /* the model and the kernel disagree: stop trying */
    return 0;
  }
  RW_FORWARD(describe(r, page, page + RW_SB_CODE));
  sb->stub[sb->nstub] = page;
  sb->stub_used[sb->nstub] = n;
  sb->nstub++;
  *at = page;
  return 0;
}

int rec__sb_patch(struct rec *r, const struct rw_regs *regs) {
  struct rec__task *t = r->cur;
  struct rec__proc *p = r->proc;
  struct rec__sb *sb = p->sb;
  if (!sb->on || !sb->mapped || sb->nopatch || p->sb_fullstop || t->fake ||
      !patchable(t->nr) || sb->nsites == REC_SB_SITES)
    return 0;
  /* glibc's wrapper: mov eax, NR (b8 imm32) ; syscall (0f 05). Only the
   * mov becomes a jump: a thread stopped between the two (a signal came)
   * still finds its syscall there. */
  u64 site = regs->rip - 7, *unfit = &sb->unfit[rw_fmix64(regs->rip) % 64];
  if (*unfit == regs->rip) return 0; /* seen before: no read again */
  u8 b[7];
  const struct rec__map *m = rec__maps_find(p->maps, site);
  if (rec__mem_read(r, site, b, sizeof b) != (i64)sizeof b || b[0] != 0xb8 ||
      rd_le32(b + 1) != t->nr || b[5] != 0x0f || b[6] != 0x05 || !m ||
      m->end < regs->rip || !(m->prot & PROT_EXEC) ||
      (m->prot & PROT_WRITE) || m->path[0] != '/') {
    *unfit = regs->rip; /* code of a file only, which nothing rewrites */
    return 0;
  }
  u8 stub[32], *q = stub;
  u64 at;
  RW_FORWARD(stub_room(r, regs, site + 5, site, sizeof stub, &at));
  if (!at) return 0;
  *q++ = 0xb8; /* mov eax, NR: as the site had it */
  wr_le32(q, (u32)t->nr), q += 4;
  static const u8 down[5] = {0x48, 0x8d, 0x64, 0x24, 0x80}; /* lea rsp, [rsp-128] */
  memcpy(q, down, 5), q += 5; /* past the red zone of the caller */
  *q++ = 0x41, *q++ = 0xbb; /* mov r11d, entry */
  wr_le32(q, (u32)(RW_SB_BASE + RW_SB_ENT_SYSCALL)), q += 4;
  *q++ = 0x41, *q++ = 0xff, *q++ = 0xd3; /* call r11 */
  static const u8 up[8] = {0x48, 0x8d, 0xa4, 0x24, 0x80, 0, 0, 0}; /* +128 */
  memcpy(q, up, 8), q += 8;
  *q++ = 0xe9; /* jmp back, after the syscall */
  wr_le32(q, (u32)(i32)(i64)(site + 7 - (at + (u64)(q - stub) + 4))), q += 4;
  RW_FORWARD(rec__mem_write(r, at, stub, (size_t)(q - stub)));
  RW_FORWARD(rec__mem_import(r, at, (size_t)(q - stub)));
  u8 jmp[5] = {0xe9};
  wr_le32(jmp + 1, (u32)(i32)(i64)(at - (site + 5)));
  struct rec__sbsite *x = &sb->sites[sb->nsites++];
  x->addr = site;
  memcpy(x->orig, b, 5);
  RW_FORWARD(rec__mem_write(r, site, jmp, sizeof jmp));
  return rec__mem_import(r, site, sizeof jmp);
}
