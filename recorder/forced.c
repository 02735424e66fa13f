/* SPDX-License-Identifier: MIT */
/* The dispositions a trap of rewind's changes behind the program's back.
 * An rdtsc trapped by PR_TSC_SIGSEGV raises SIGSEGV, and an int3 that
 * replaced an rdtsc, rdrand, rdseed or xbegin (recorder/tscpatch.c)
 * raises SIGTRAP; the kernel forces both. When the thread blocks the
 * signal, or the process ignores it, forcing it first resets the handler
 * to SIG_DFL for the whole process and unblocks it in the thread; the
 * recorder then answers the trap and the signal is never delivered, but
 * the reset stays: a program whose SIGSEGV handler is there for real
 * faults (a JIT's null checks, a wasm engine's bounds) would die at its
 * next one, and one that ignored SIGTRAP would no longer.
 *
 * So the recorder keeps, per process, what the program last asked for
 * these two signals (traced rt_sigaction; exec and SA_RESETHAND undo a
 * handler), and after each trap it answers, where the program asked for
 * a handler or for SIG_IGN, looks whether the kernel reset it; if so it
 * makes the thread call rt_sigaction again with the program's own action
 * (through a syscall instruction written for the moment over the trapping
 * one, with the action on the stack below the red zone, both put back),
 * and blocks the signal in the thread again when the reset of a handler
 * shows it was blocked. Neither is in the trace: the replay does not
 * model dispositions or masks, whose syscalls' results are recorded.
 *
 * A signal left at SIG_DFL and blocked shows nothing of the reset but the
 * mask: the recorder reads the mask at exec (ld.so's rdtsc come right
 * after it) and keeps it as long as no syscall that sets a mask ran and
 * no handler was entered; a trap that left exactly that mask less the
 * signal blocks it again.
 *
 * Not covered: a signal left at SIG_DFL and blocked later than exec is
 * unblocked (nothing to compare); a signal both ignored and blocked gets
 * its SIG_IGN back but stays unblocked. */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

enum { SA_RESETHAND_ = 0x80000000u };

static struct rec__sigdisp *slot(struct rec__proc *p, int sig) {
  if (sig == SIGSEGV) return &p->forced[0];
  if (sig == SIGTRAP) return &p->forced[1];
  return NULL;
}

int rec__forced_sigaction(struct rec *r, const u64 *args, i64 result) {
  struct rec__sigdisp *d = slot(r->proc, (int)args[0]);
  u8 act[32];
  if (!d || result != 0 || !args[1]) return 0;
  if (rec__mem_read(r, args[1], act, sizeof act) != (i64)sizeof act) {
    d->kind = REC_DISP_DFL; /* not worth guessing */
    return 0;
  }
  for (int i = 0; i < 4; i++) d->act[i] = rd_le64(act + 8 * i);
  d->kind = d->act[0] == 0   ? REC_DISP_DFL
            : d->act[0] == 1 ? REC_DISP_IGN
                             : REC_DISP_CAUGHT;
  return 0;
}

void rec__forced_exec(struct rec__proc *p) {
  for (int i = 0; i < 2; i++)
    if (p->forced[i].kind == REC_DISP_CAUGHT) p->forced[i].kind = REC_DISP_DFL;
}

void rec__forced_delivered(struct rec *r, int sig) {
  struct rec__sigdisp *d = slot(r->proc, sig);
  if (d && d->kind == REC_DISP_CAUGHT && (d->act[1] & SA_RESETHAND_))
    d->kind = REC_DISP_DFL;
}

/* Makes the current thread, whose registers are T->regs, run
 * rt_sigaction(SIG, ACT, NULL, 8) through a syscall instruction at AT;
 * puts everything back. Its result in *RES. */
static int call_sigaction(struct rec *r, int sig, const u64 act[4], u64 at,
                          i64 *res) {
  struct rec__task *t = r->cur;
  const struct rw_regs *regs = &t->regs;
  u64 sp = (regs->gpr[RW_REG_rsp] - 128 - 64) & ~15ull;
  u8 code[2], stack[32], a[32], sc[2] = {0x0f, 0x05};
  if (rec__mem_read(r, at, code, 2) != 2 ||
      rec__mem_read(r, sp, stack, sizeof stack) != (i64)sizeof stack)
    return 1;
  /* (rec__remote_syscall blocks the program's signals for the call.) */
  for (int i = 0; i < 4; i++) wr_le64(a + 8 * i, act[i]);
  int rc = rec__mem_write(r, sp, a, sizeof a) < 0 ||
           rec__mem_write(r, at, sc, 2) < 0; /* 1: say so, go on */
  const u64 args[6] = {(u64)sig, sp, 0, 8, 0, 0};
  if (rc == 0)
    rc = rec__remote_syscall(t->tid, regs, at, 13 /* rt_sigaction */, args,
                             res);
  if (rc == RW_ENOTFOUND) return rc; /* gone: nothing to put back */
  RW_FORWARD(rec__mem_write(r, at, code, 2));
  RW_FORWARD(rec__mem_write(r, sp, stack, sizeof stack));
  RW_FORWARD(rec__regs_set_gprs(t->tid, regs));
  return rc;
}

void rec__forced_mask_read(struct rec *r) {
  struct rec__task *t = r->cur;
  t->mask_seen_ok = ptrace(PTRACE_GETSIGMASK, t->tid,
                           (void *)sizeof t->mask_seen, &t->mask_seen) == 0;
}

void rec__forced_mask_lost(struct rec *r, u64 nr) {
  switch (nr) {
    case REC_NR_rt_sigprocmask:
    case REC_NR_rt_sigreturn:
    case REC_NR_rt_sigsuspend:
    case REC_NR_pselect6:
    case REC_NR_ppoll:
    case REC_NR_epoll_pwait:
    case REC_NR_io_pgetevents:
    case REC_NR_epoll_pwait2:
    case ~0ull: /* (whose thread a buffered call was: any of them) */
      for (size_t i = 0; i < r->nth; i++)
        if (r->th[i]->proc == r->proc) r->th[i]->mask_seen_ok = 0;
      break;
    default:
      break;
  }
}

/* A trap of SIG, left at SIG_DFL, in the current thread: blocks SIG again
 * when the mask read at exec had it and the trap took exactly it away. */
static void reblock(struct rec *r, int sig) {
  struct rec__task *t = r->cur;
  u64 bit = 1ull << (sig - 1), now;
  if (!t->mask_seen_ok || !(t->mask_seen & bit) ||
      ptrace(PTRACE_GETSIGMASK, t->tid, (void *)sizeof now, &now) < 0 ||
      now != (t->mask_seen & ~bit))
    return;
  if (ptrace(PTRACE_SETSIGMASK, t->tid, (void *)sizeof t->mask_seen,
             &t->mask_seen) < 0)
    t->mask_seen_ok = 0;
}

int rec__forced_restore(struct rec *r, int sig, u64 at) {
  struct rec__sigdisp *d = slot(r->proc, sig);
  if (d && d->kind == REC_DISP_DFL) reblock(r, sig);
  if (!d || d->kind == REC_DISP_DFL) return 0;
  pid_t tid = r->cur->tid;
  int now = rec__disposition(tid, sig);
  if ((d->kind == REC_DISP_CAUGHT && now == 2) ||
      (d->kind == REC_DISP_IGN && now == 1))
    return 0; /* as the program left it */
  i64 res = -1;
  int rc = call_sigaction(r, sig, d->act, at, &res);
  if (rc < 0) return rc;
  if (d->kind == REC_DISP_CAUGHT && rc == 0 && res == 0) {
    /* Reset with a handler: only because the thread blocked it. */
    u64 mask;
    if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof mask, &mask) == 0) {
      mask |= 1ull << (sig - 1);
      if (ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof mask, &mask) < 0)
        rc = 1;
    } else {
      rc = 1;
    }
  }
  if (rc || res != 0)
    return rec__warn(r, 13,
                     "could not give thread %d its %s disposition back after "
                     "the kernel reset it at a trap of rewind's at %#llx; "
                     "the program may now see the default action",
                     (int)tid, strsignal(sig), (unsigned long long)at);
  return 0;
}
