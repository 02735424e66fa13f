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
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <stdio.h>
#include <sys/sysmacros.h>
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

/* Records the mappings of [A, B) as they are now, contents included. */
static int describe(struct rec *r, u64 a, u64 b) {
  RW_FORWARD(rec__maps_read(r->proc->pid, r->proc->maps));
  for (const struct rec__map *m = rec__maps_from(r->proc->maps, a);
       m && m->start < b; m = rec__maps_next(r->proc->maps, m))
    RW_FORWARD(rec__space_describe(r, m, RW_MAX(a, m->start),
                                   RW_MIN(b, m->end), REC_DESCRIBE_AS_IS));
  return 0;
}

/* Whether syscall NR is one the library takes (sb_dispatch in
 * recorder/sblib.c: it logs NR, or makes it the traced way when its
 * arguments ask for that): a glibc site of NR enters the library once
 * patched. */
static int buffered(u64 nr) {
  switch (nr) {
    case 39: case 102: case 104: case 107: case 108: case 110: case 186:
    case 5: case 262: case 14: case 202:
    case 0: case 17: case 1: case 18: case 3: case 8: case 257: case 326:
    case 16: case 217: case 89: case 194: case 195: case 196: case 267:
    case 191: case 192: case 193: case 79: case 318: case 332: case 137:
    case 138: case 21: case 269: case 439: case 74: case 75: case 221:
    case 83: case 258: case 84: case 87: case 263: case 82: case 264:
    case 316: case 88: case 266: case 86: case 265: case 90: case 91:
    case 268: case 92: case 93: case 94: case 260: case 280: case 95:
    case 188: case 189: case 190: case 197: case 198: case 199: case 72:
    case 7: case 20: case 44: case 45: case 232: case 281: case 13:
    case 302: case 99:
      return 1;
    default:
      return 0;
  }
}

/* Whether the library may log syscall NR: those above, and the preadv2
 * and pwritev2 it makes for read and write of pipes and sockets. */
static int loggable(u64 nr) { return buffered(nr) || nr == 327 || nr == 328; }

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

/* The device number of /proc as stat reports it (0: unknown), looked up
 * once: a file there is never one the library may read or write. */
static u64 proc_dev(void) {
  static u64 dev = ~0ull;
  struct stat st;
  if (dev == ~0ull) dev = stat("/proc", &st) == 0 ? (u64)st.st_dev : 0;
  return dev;
}

/* The header's fields the recorder sets (recorder/sbuf.h), before the
 * library runs: what the library may do. */
static int hdr_init(struct rec *r) {
  u8 h[RW_SB_H_FDCLASS];
  memset(h, 0, sizeof h);
  wr_le64(h + RW_SB_H_PROCDEV, proc_dev());
  if (__builtin_cpu_supports("sse4.2"))
    wr_le64(h + RW_SB_H_CAPS, RW_SB_CAP_CRC32);
  for (u64 nr = 0; nr < 512; nr++)
    if (buffered(nr)) h[RW_SB_H_SYSMASK + nr / 8] |= (u8)(1u << (nr % 8));
  return rec__mem_write(r, RW_SB_HDR, h, sizeof h);
}

int rec__sb_exec(struct rec *r, const struct rw_regs *at) {
  struct rec__proc *p = r->proc;
  struct rec__sb *sb = &p->sb_own;
  memset(sb, 0, sizeof *sb);
  p->sb = sb;
  rec__wp_reset(&p->wp); /* it was the old address space's */
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
  int rc = rec__remote_syscall(tid, at, insn, 9 /* mmap */, code, &res);
  if (rc == 0 && (u64)res == RW_SB_BASE) {
    u64 code_at = (u64)res;
    rc = rec__remote_syscall(tid, at, insn, 9, data, &res);
    if (rc == 0 && (u64)res != RW_SB_HDR) {
      u64 un[6] = {code_at, RW_SB_CODE, 0, 0, 0, 0};
      if (res > 0) {
        u64 un2[6] = {(u64)res, RW_SB_SIZE - RW_SB_CODE, 0, 0, 0, 0};
        rc = rec__remote_syscall(tid, at, insn, 11 /* munmap */, un2, &res);
      }
      if (rc == 0) rc = rec__remote_syscall(tid, at, insn, 11, un, &res);
      res = -EEXIST;
    }
  } else if (rc == 0 && res > 0) { /* an old kernel put it elsewhere */
    u64 un[6] = {(u64)res, RW_SB_CODE, 0, 0, 0, 0};
    rc = rec__remote_syscall(tid, at, insn, 11, un, &res);
    res = -EEXIST;
  }
  /* The digest's written pages (recorder/wp.c), through the same
   * instruction. */
  if (rc == 0) rc = rec__wp_start(r, tid, at, insn);
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
  RW_FORWARD(hdr_init(r));
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
  if (sb->want_nofds) RW_FORWARD(rec__sb_no_fds(r));
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
    RW_FORWARD(rec__mem_write(r, x->addr, x->orig, x->n));
    RW_FORWARD(rec__mem_import(r, x->addr, x->n));
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
    if (meets(sb->stub[i], RW_SB_STUBPAGE, lo, lo + n) ||
        (n2 && meets(sb->stub[i], RW_SB_STUBPAGE, lo2, lo2 + n2)))
      return unpatch_all(r);
  if (nr == 10 || nr == 329 || nr == 28) return 0; /* the bytes stay */
  for (u32 i = 0; i < sb->nsites;) {
    u64 x = sb->sites[i].addr, k = sb->sites[i].n;
    if (meets(x, k, lo, lo + n) || (n2 && meets(x, k, lo2, lo2 + n2)))
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
 * with room for NOUT (a record of kind RW_SB_K_RING). */
static u32 written(u32 nr, i64 ret, u32 nout) {
  (void)nr; /* all of it when they succeed: time, stat, the old mask */
  return ret == 0 ? nout : 0;
}

/* The MEM records of the pieces of REC (NOUT bytes of out area), whose
 * syscall returned RET: their bytes from the record, or when LIVE (the
 * record is not filled yet: the thread stopped right after the syscall)
 * from the program's memory, which nothing changed since. */
static int emit_pieces(struct rec *r, const u8 *rec, u32 nout, i64 ret,
                       int live) {
  const u8 *o = rec + RW_SB_R_OUT;
  for (u64 off = 0; off + RW_SB_PIECE_HDR <= nout;) {
    u64 at = rd_le64(o + off), max = rd_le32(o + off + 8);
    u64 len = rw_sb_piece_len(rd_le32(o + off + 12), max, ret);
    u64 lo = at & ~(u64)(REC_LINE - 1);
    u64 hi = (at + len + REC_LINE - 1) & ~(u64)(REC_LINE - 1);
    if (hi < at || (!live && len && off + RW_SB_PIECE_HDR + (hi - lo) > nout))
      return 1;
    if (len && live) RW_FORWARD(rec__mem_import(r, at, len));
    if (len && !live)
      RW_FORWARD(rec__mem_emit(r, lo, o + off + RW_SB_PIECE_HDR, hi - lo));
    off += rw_sb_piece_room(max);
  }
  return 0;
}

/* The OUTPUT record of a buffered write-like call of REC, which returned
 * RET, made with registers IN. A call that sent less than it was given
 * has none (the replay sums what it was given). */
static int emit_output(struct rec *r, const u8 *rec, i64 ret,
                       const struct rw_regs *in, int live) {
  const u8 *o = rec + RW_SB_R_OUT;
  u64 count = rd_le64(o + 8);
  if (ret < 0 || (u64)ret != count) return 0;
  if (live) { /* the library has not summed them yet: the recorder does */
    struct rec__task *t = r->cur;
    u64 nr = t->nr, args[6];
    memcpy(args, t->args, sizeof args);
    static const int arg[6] = {RW_REG_rdi, RW_REG_rsi, RW_REG_rdx,
                               RW_REG_r10, RW_REG_r8,  RW_REG_r9};
    t->nr = rd_le32(rec + RW_SB_R_NR);
    for (int i = 0; i < 6; i++) t->args[i] = in->gpr[arg[i]];
    int rc = rec__output(r);
    t->nr = nr;
    memcpy(t->args, args, sizeof args);
    return rc;
  }
  if (!rd_le32(o + 20)) return 0;
  r->n.outputs++;
  r->n.output_bytes += count;
  struct trace_rec_output out = {(u32)in->gpr[RW_REG_rdi], count,
                                 rd_le32(o + 16),
                                 {o + 24, (size_t)RW_MIN(count, 64)}};
  return trace_rec_output_append(r->w, (u32)r->cur->tid, &out);
}

/* Writes the records of the syscall logged at ring offset POS in REC (its
 * bytes as read), which returned RET, with the registers of IN (segments,
 * FS and GS bases: the thread's now, FP/SSE/AVX state zero, as it is not
 * read) where the record has none; IN's others are overwritten. LIVE: the
 * thread stopped
 * between the syscall and the record's commit. 1 when the record does not
 * hold together. */
static int emit(struct rec *r, u64 pos, const u8 *rec, i64 ret,
                struct rw_regs *in, int live) {
  u32 nr = rd_le32(rec + RW_SB_R_NR), kind = rd_le32(rec + RW_SB_R_KIND);
  u32 nout = rd_le32(rec + RW_SB_R_NOUT);
  if (kind > RW_SB_K_OUTPUT ||
      (kind == RW_SB_K_OUTPUT && nout < RW_SB_OUTPUT_SIZE))
    return 1;
  for (int g = 0; g < RW_NGPR; g++)
    in->gpr[g] = rd_le64(rec + RW_SB_R_GPR + 8 * (u64)g);
  in->rflags = rd_le64(rec + RW_SB_R_FLAGS);
  in->rip = SB_IP;
  in->orig_rax = nr;
  in->gpr[RW_REG_rax] = nr;
  /* The syscall instruction itself left these, as a stop shows. */
  in->gpr[RW_REG_rcx] = SB_IP;
  in->gpr[RW_REG_r11] = in->rflags;
  r->n.syscalls++;
  r->n.buffered++;
  RW_FORWARD(rec__emit_regs(r, TRACE_REC_SYSCALL_ENTER, nr, 0, 0, in, 0));
  if (kind == RW_SB_K_OUTPUT) RW_FORWARD(emit_output(r, rec, ret, in, live));
  if (kind == RW_SB_K_PIECES) {
    int bad = emit_pieces(r, rec, nout, ret, live);
    if (bad) return bad;
  }
  u32 n = kind == RW_SB_K_RING ? written(nr, ret, nout) : 0;
  if (n) { /* the lines of the out area, as memory is imported */
    u64 lo = (RW_SB_R_OUT) & ~(u64)(REC_LINE - 1);
    u64 hi = (RW_SB_R_OUT + n + REC_LINE - 1) & ~(u64)(REC_LINE - 1);
    RW_FORWARD(rec__mem_emit(r, RW_SB_RING + pos + lo, rec + lo, hi - lo));
  }
  in->gpr[RW_REG_rax] = (u64)ret;
  return rec__emit_regs(r, TRACE_REC_SYSCALL_EXIT, nr, 1, ret, in, 0);
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
         (entry_of((int)nr) || loggable(nr));
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
  struct rw_regs now, in;
  RW_FORWARD(rec__regs_get(r, t->tid, &now, 0));
  in = now;
  memset(in.fxsave, 0, sizeof in.fxsave);
  memset(in.ymmh, 0, sizeof in.ymmh);
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
      rec__forced_mask_lost(r, nr);
      if (nr != RW_SB_PAD && !seen) {
        int bad = emit(r, pos + k, buf + k,
                       (i64)rd_le64(buf + k + RW_SB_R_RET), &in, 0);
        if (bad < 0) return bad;
        if (bad) return garbled(r, "a record that does not hold together");
      }
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
  /* The buffered calls never wait, so a signal cannot interrupt one to
   * be restarted (-ERESTARTSYS and kin): should one, the log is off. */
  if (ret <= -512 && ret >= -516)
    return garbled(r, "a buffered syscall was interrupted");
  int bad = emit(r, pos, buf, ret, &in, 1);
  if (bad < 0) return bad;
  if (bad) return garbled(r, "a record that does not hold together");
  sb->early = 1;
  sb->early_at = head;
  return 0;
}

/* Distance that a rel32 jump reaches, with room to spare. */
#define REACH ((1ull << 31) - 2 * RW_SB_STUBPAGE)

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
    if (m->start >= prev_end + RW_SB_STUBPAGE && !grows) {
      u64 top = m->start - RW_SB_STUBPAGE;
      if (top < site && near(top, site)) below = top;
      if (prev_end > site && !above && near(prev_end, site)) above = prev_end;
    }
    if (m->end > prev_end) prev_end = m->end;
  }
  if (!above && prev_end > site && near(prev_end, site) &&
      prev_end < (1ull << 47) - RW_SB_STUBPAGE)
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
    if (near(sb->stub[i], site) && sb->stub_used[i] + n <= RW_SB_STUBPAGE) {
      *at = sb->stub[i] + sb->stub_used[i];
      sb->stub_used[i] += n;
      return 0;
    }
  if (sb->nstub == REC_SB_STUBPAGES) return 0;
  u64 page = free_page_near(r->proc->maps, site);
  if (!page) return 0;
  u64 a[6] = {page, RW_SB_STUBPAGE, PROT_READ | PROT_EXEC,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, (u64)-1, 0};
  i64 res = 0;
  int rc = rec__remote_syscall(r->cur->tid, regs, insn, 9 /* mmap */, a, &res);
  int rc2 = rec__regs_set_gprs(r->cur->tid, regs);
  RW_FORWARD(rc);
  RW_FORWARD(rc2);
  if ((u64)res != page) {
    if (res > 0) { /* an old kernel put it elsewhere */
      u64 un[6] = {(u64)res, RW_SB_STUBPAGE, 0, 0, 0, 0};
      RW_FORWARD(rec__remote_syscall(r->cur->tid, regs, insn, 11, un, &res));
      RW_FORWARD(rec__regs_set_gprs(r->cur->tid, regs));
    }
    sb->nopatch = 1; /* the model and the kernel disagree: stop trying */
    return 0;
  }
  RW_FORWARD(describe(r, page, page + RW_SB_STUBPAGE));
  sb->stub[sb->nstub] = page;
  sb->stub_used[sb->nstub] = n;
  sb->nstub++;
  *at = page;
  return 0;
}

/* Whether [SITE, SITE + N) is code of a file, which nothing rewrites. */
static int file_code(struct rec *r, u64 site, u64 n) {
  const struct rec__map *m = rec__maps_find(r->proc->maps, site);
  return m && m->end >= site + n && (m->prot & PROT_EXEC) &&
         !(m->prot & PROT_WRITE) && m->path[0] == '/';
}

/* Adds patched site ADDR (N bytes replaced, ORIG) and writes JMP there. */
static int put_site(struct rec *r, u64 addr, u64 post, const u8 *orig,
                    const u8 *jmp, u8 n) {
  struct rec__sb *sb = r->proc->sb;
  struct rec__sbsite *x = &sb->sites[sb->nsites++];
  x->addr = addr;
  x->post = post;
  x->n = n;
  memcpy(x->orig, orig, n);
  RW_FORWARD(rec__mem_write(r, addr, jmp, n));
  return rec__mem_import(r, addr, n);
}

/* Appends to Q (at address AT in the process) the stub's way into the
 * library's ENTRY (recorder/sblib.c): past the red zone, where to go on
 * (BACK) pushed, a jump. */
static u8 *to_library(u8 *q, u64 at, u64 back, u64 entry) {
  static const u8 down[5] = {0x48, 0x8d, 0x64, 0x24, 0x80}; /* lea rsp, [rsp-128] */
  memcpy(q, down, 5), q += 5;
  *q++ = 0x4c, *q++ = 0x8d, *q++ = 0x1d; /* lea r11, [rip + BACK] */
  wr_le32(q, (u32)(i32)(i64)(back - (at + 12))), q += 4;
  *q++ = 0x41, *q++ = 0x53;              /* push r11 */
  *q++ = 0x41, *q++ = 0xbb;              /* mov r11d, ENTRY */
  wr_le32(q, (u32)(RW_SB_BASE + entry)), q += 4;
  *q++ = 0x41, *q++ = 0xff, *q++ = 0xe3; /* jmp r11 */
  return q;
}

/* glibc's usual wrapper: mov eax, NR (b8 imm32) ; syscall (0f 05), the
 * thread back from the syscall with registers REGS. Only the mov becomes a
 * jump: a thread stopped between the two (a signal came) still finds its
 * syscall there. */
static int patch_mov(struct rec *r, const struct rw_regs *regs) {
  struct rec__task *t = r->cur;
  struct rec__sb *sb = r->proc->sb;
  u64 site = regs->rip - 7, *unfit = &sb->unfit[rw_fmix64(regs->rip) % 64];
  if (*unfit == regs->rip) return 0; /* seen before: no read again */
  u8 b[7];
  if (rec__mem_read(r, site, b, sizeof b) != (i64)sizeof b || b[0] != 0xb8 ||
      rd_le32(b + 1) != t->nr || b[5] != 0x0f || b[6] != 0x05 ||
      !file_code(r, site, 7)) {
    *unfit = regs->rip;
    return 0;
  }
  u8 stub[32], *q = stub;
  u64 at;
  RW_FORWARD(stub_room(r, regs, site + 5, site, sizeof stub, &at));
  if (!at) return 0;
  *q++ = 0xb8; /* mov eax, NR: as the site had it */
  wr_le32(q, (u32)t->nr), q += 4;
  q = to_library(q, at + (u64)(q - stub), site + 7, RW_SB_ENT_SYSCALL);
  RW_FORWARD(rec__mem_write(r, at, stub, (size_t)(q - stub)));
  RW_FORWARD(rec__mem_import(r, at, (size_t)(q - stub)));
  u8 jmp[5] = {0xe9};
  wr_le32(jmp + 1, (u32)(i32)(i64)(at - (site + 5)));
  return put_site(r, site, 0, b, jmp, 5);
}

/* Whether no other thread of the current address space may stand inside
 * the 8 bytes at SITE: one in a syscall is moved at its exit
 * (rec__sb_exit); one stopped elsewhere is looked at. */
static int others_clear(struct rec *r, u64 site) {
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *u = r->th[i];
    if (u == r->cur || u->state == REC_T_GONE) continue;
    if (u->state == REC_T_NEW) return 0; /* where it starts is not known */
    if (!u->proc || u->proc->sb != r->proc->sb || u->in_syscall) continue;
    if (u->state != REC_T_READY) return 0;
    struct user_regs_struct ur;
    if (ptrace(PTRACE_GETREGS, u->tid, 0, &ur) < 0) return 0;
    if (ur.rip > site && ur.rip < site + 8) return 0;
  }
  return 1;
}

/* RFLAGS after `cmp rax, IMM` (IMM sign-extended) with RAX: CF, PF, AF,
 * ZF, SF and OF as the instruction sets them, the rest kept. */
static u64 cmp_flags(u64 rflags, u64 rax, u32 imm) {
  u64 b = (u64)(i64)(i32)imm, d = rax - b;
  rflags &= ~(u64)0x8d5; /* CF PF AF ZF SF OF */
  if (rax < b) rflags |= 0x1;
  if (!(__builtin_popcount((unsigned)(d & 0xff)) & 1)) rflags |= 0x4;
  if ((rax ^ b ^ d) & 0x10) rflags |= 0x10;
  if (d == 0) rflags |= 0x40;
  if (d >> 63) rflags |= 0x80;
  if (((rax ^ b) & (rax ^ d)) >> 63) rflags |= 0x800;
  return rflags;
}

/* A thread right after the syscall instruction of `syscall; cmp rax, imm`
 * at SITE (whose bytes X holds) goes on after the cmp, as if it had run
 * it: its own code, where a debugger shows it in its function. */
static int past_cmp(struct rec *r, struct rw_regs *regs, u64 site,
                    const u8 *x) {
  regs->rflags = cmp_flags(regs->rflags, regs->gpr[RW_REG_rax],
                           rd_le32(x + 4));
  regs->rip = site + 8;
  return rec__regs_set_gprs(r->cur->tid, regs);
}

/* The other form: the syscall's number in a register (glibc's read has
 * `xor eax, eax`, its syscall() takes it as an argument), then `syscall
 * (0f 05) ; cmp rax, imm32 (48 3d imm32)`. Those 8 bytes become a jump to
 * a stub that hands the syscalls the library takes to it (the header's
 * SYSMASK) and makes the others itself, then compares as the site did.
 * The thread stands right after the site's syscall instruction, inside
 * the new jump: it goes on past the compare instead, its flags set as the
 * compare sets them (REGS), and so does any thread that comes back there
 * later (rec__sb_exit). The stub is written now; the site, after the
 * SYSCALL_EXIT record (rec__sb_patch), so that the replay leaves the old
 * code by the syscall's return. */
static int prep_cmp(struct rec *r, struct rw_regs *regs) {
  struct rec__task *t = r->cur;
  struct rec__sb *sb = r->proc->sb;
  u64 x = regs->rip, site = x - 2;
  if (sb->unfit[rw_fmix64(x) % 64] == x) return 0;
  u8 b[13]; /* from x - 7: a mov form, or the syscall and the cmp */
  if (rec__mem_read(r, x - 7, b, sizeof b) != (i64)sizeof b) return 0;
  if (b[0] == 0xb8 && rd_le32(b + 1) == t->nr) return 0; /* patch_mov's */
  for (u32 i = 0; i < sb->nsites; i++) /* one whose syscall is left */
    if (meets(sb->sites[i].addr, sb->sites[i].n, site - 5, site + 8)) return 0;
  u32 imm = rd_le32(b + 9); /* -4096 and -4095: the library compares */
  if (b[5] != 0x0f || b[6] != 0x05 || b[7] != 0x48 || b[8] != 0x3d ||
      (imm != 0xfffff000u && imm != 0xfffff001u) || !file_code(r, site, 8) ||
      !others_clear(r, site))
    return 0;
  u8 stub[64], *q = stub;
  u64 at;
  RW_FORWARD(stub_room(r, regs, site, site, sizeof stub, &at));
  if (!at) return 0;
  static const u8 head[] = {
      0x48, 0x3d, 0xff, 0x01, 0x00, 0x00, /* cmp rax, 511 */
      0x77, 0x00,                         /* ja direct (below) */
      0x48, 0x0f, 0xa3, 0x04, 0x25,       /* bt [SYSMASK], rax */
  };
  memcpy(q, head, sizeof head), q += sizeof head;
  u8 *ja = q - 7;
  wr_le32(q, (u32)(RW_SB_HDR + RW_SB_H_SYSMASK)), q += 4;
  *q++ = 0x73, *q++ = 0; /* jnc direct */
  u8 *jnc = q - 1;
  u64 entry = rd_le32(b + 9) == 0xfffff000u ? RW_SB_ENT_SYSCALL_CMP0
                                             : RW_SB_ENT_SYSCALL_CMP1;
  q = to_library(q, at + (u64)(q - stub), site + 8, entry);
  u8 *direct = q;
  *q++ = 0x0f, *q++ = 0x05; /* syscall: the traced way, as the site had */
  u64 post = at + (u64)(q - stub);
  memcpy(q, b + 7, 6), q += 6; /* cmp rax, imm32: as the site had it */
  *q++ = 0xe9; /* jmp back, after the cmp */
  wr_le32(q, (u32)(i32)(i64)(site + 8 - (at + (u64)(q - stub) + 4))), q += 4;
  ja[1] = (u8)(direct - (ja + 2));
  *jnc = (u8)(direct - (jnc + 1));
  RW_FORWARD(rec__mem_write(r, at, stub, (size_t)(q - stub)));
  RW_FORWARD(rec__mem_import(r, at, (size_t)(q - stub)));
  sb->pend_site = site;
  sb->pend_stub = at;
  sb->pend_post = post;
  memcpy(sb->pend_orig, b + 5, 8);
  return past_cmp(r, regs, site, b + 5);
}

int rec__sb_exit(struct rec *r, struct rw_regs *regs) {
  struct rec__task *t = r->cur;
  struct rec__proc *p = r->proc;
  struct rec__sb *sb = p->sb;
  sb->moved = 0;
  if (!sb->mapped) return 0;
  /* A syscall the kernel may restart (-ERESTARTSYS and kin) leaves the
   * thread where it is: the kernel moves it back 2 bytes, to the site's
   * start, which must be the site's jump then, not the middle of it (an
   * int3 there killed the program with SIGTRAP). A signal that comes
   * instead returns to site + 2 at its sigreturn's exit, moved then. */
  i64 res = (i64)regs->gpr[RW_REG_rax];
  if (res >= -516 && res <= -512) return 0;
  for (u32 i = 0; i < sb->nsites; i++)
    if (sb->sites[i].post && regs->rip == sb->sites[i].addr + 2) {
      sb->moved = 1;
      return past_cmp(r, regs, sb->sites[i].addr, sb->sites[i].orig);
    }
  if (!sb->on || sb->nopatch || p->sb_fullstop || t->fake ||
      !buffered(t->nr) || sb->nsites == REC_SB_SITES || sb->pend_site)
    return 0;
  return prep_cmp(r, regs);
}

/* The class the library is to give descriptor FD of thread TID, or -1
 * when it cannot be looked at (closed). */
static int class_of(struct rec *r, pid_t tid, u64 fd) {
  struct stat st;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/fd/%llu", (int)tid,
           (unsigned long long)fd);
  if (stat(path, &st) < 0) return -1;
  switch (st.st_mode & S_IFMT) {
    case S_IFREG:
      if ((u64)st.st_dev == proc_dev()) return RW_SB_FD_NEVER;
      return rec__files_is_object(r, &st) ? RW_SB_FD_REGRO : RW_SB_FD_REG;
    case S_IFCHR: /* null, zero, full, random, urandom */
      if (major(st.st_rdev) == 1 &&
          (minor(st.st_rdev) == 3 || minor(st.st_rdev) == 5 ||
           minor(st.st_rdev) == 7 || minor(st.st_rdev) == 8 ||
           minor(st.st_rdev) == 9))
        return RW_SB_FD_DEV;
      return RW_SB_FD_NEVER;
    case S_IFIFO:
    case S_IFSOCK:
      return RW_SB_FD_NOWAIT;
    default:
      return RW_SB_FD_NEVER;
  }
}

/* Sets the classes of descriptors [LO, HI) to C (recorded). */
static int set_classes(struct rec *r, u64 lo, u64 hi, u8 c) {
  hi = RW_MIN(hi, (u64)RW_SB_NFD);
  if (lo >= hi) return 0;
  u8 v[RW_SB_NFD];
  memset(v, c, hi - lo);
  u64 at = RW_SB_HDR + RW_SB_H_FDCLASS + lo;
  RW_FORWARD(rec__mem_write(r, at, v, hi - lo));
  return rec__mem_import(r, at, hi - lo);
}

/* After the current thread's traced syscall, which returned RESULT: the
 * classes of the descriptors it closed, replaced or used. */
static int fd_classes(struct rec *r, i64 result) {
  struct rec__task *t = r->cur;
  struct rec__sb *sb = r->proc->sb;
  const u64 *a = t->args;
  if (!sb->on || !sb->mapped) return 0;
  switch (t->eff_nr) {
    case REC_NR_close:
      return set_classes(r, a[0], a[0] + 1, 0);
    case REC_NR_dup2:
    case REC_NR_dup3:
      return result >= 0 ? set_classes(r, a[1], a[1] + 1, 0) : 0;
    case 436: /* close_range, unless it only sets close-on-exec */
      if ((a[2] & 4) || result < 0) return 0;
      return set_classes(r, a[0], a[1] == ~0u ? RW_SB_NFD : a[1] + 1, 0);
    case REC_NR_mmap:
      return result >= 0 && !(a[3] & MAP_ANONYMOUS) ? rec__sb_file_mapped(r)
                                                    : 0;
    case 272: /* unshare: a descriptor table of its own */
      return result == 0 && (a[0] & 0x400) ? rec__sb_no_fds(r) : 0;
    case REC_NR_read: case REC_NR_write: case REC_NR_pread64:
    case REC_NR_pwrite64: case REC_NR_lseek: case REC_NR_readv:
    case REC_NR_writev: case 326: case 221:
    case 44: case 45: /* sendto, recvfrom */
      break;
    default:
      return 0;
  }
  if (sb->nofds || result == -EBADF || a[0] >= RW_SB_NFD) return 0;
  int writes = t->eff_nr == REC_NR_write || t->eff_nr == REC_NR_pwrite64 ||
               t->eff_nr == REC_NR_writev || t->eff_nr == 44;
  u64 fd = t->eff_nr == 326 ? a[2] : a[0]; /* copy_file_range: its target */
  if (fd >= RW_SB_NFD) return 0;
  u8 c;
  if (rec__mem_read(r, RW_SB_HDR + RW_SB_H_FDCLASS + fd, &c, 1) != 1) return 0;
  if (c != RW_SB_FD_UNKNOWN && !(c == RW_SB_FD_REGRO && (writes || t->eff_nr == 326)))
    return 0;
  int k = class_of(r, t->tid, fd);
  if (k < 0 || k == c) return 0;
  return set_classes(r, fd, fd + 1, (u8)k);
}

int rec__sb_file_mapped(struct rec *r) {
  struct rec__sb *sb = r->proc->sb;
  u8 v[RW_SB_NFD];
  if (!sb->mapped || sb->nofds ||
      rec__mem_read(r, RW_SB_HDR + RW_SB_H_FDCLASS, v, sizeof v) != sizeof v)
    return 0;
  for (u64 i = 0; i < RW_SB_NFD; i++)
    if (v[i] == RW_SB_FD_REG) {
      u64 j = i;
      while (j < RW_SB_NFD && v[j] == RW_SB_FD_REG) j++;
      RW_FORWARD(set_classes(r, i, j, RW_SB_FD_REGRO));
      i = j;
    }
  return 0;
}

int rec__sb_no_fds(struct rec *r) {
  struct rec__sb *sb = r->proc->sb;
  sb->want_nofds = 0;
  if (!sb->mapped || sb->nofds) return 0;
  sb->nofds = 1;
  u64 zero = 0;
  RW_FORWARD(rec__mem_write(r, RW_SB_HDR + RW_SB_H_PROCDEV, &zero, 8));
  RW_FORWARD(rec__mem_import(r, RW_SB_HDR + RW_SB_H_PROCDEV, 8));
  return set_classes(r, 0, RW_SB_NFD, 0);
}

int rec__sb_patch(struct rec *r, const struct rw_regs *regs) {
  struct rec__task *t = r->cur;
  struct rec__proc *p = r->proc;
  struct rec__sb *sb = p->sb;
  if (sb->pend_site) { /* prepared by rec__sb_exit */
    u64 site = sb->pend_site;
    sb->pend_site = 0;
    u8 jmp[8] = {0xe9, 0, 0, 0, 0, 0xcc, 0xcc, 0xcc};
    wr_le32(jmp + 1, (u32)(i32)(i64)(sb->pend_stub - (site + 5)));
    RW_FORWARD(put_site(r, site, sb->pend_post, sb->pend_orig, jmp, 8));
  } else if (sb->on && sb->mapped && !sb->nopatch && !p->sb_fullstop &&
             !t->fake && !sb->moved && buffered(t->nr) &&
             sb->nsites < REC_SB_SITES) {
    RW_FORWARD(patch_mov(r, regs));
  }
  if (t->fake) return 0;
  return fd_classes(r, (i64)regs->gpr[RW_REG_rax]);
}
