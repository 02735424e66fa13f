/* SPDX-License-Identifier: MIT */
/* Diversions: the debugger's what-ifs on the replayed state. gdb's call
 * and print f(x) write a return address and arguments, set registers,
 * run the function to a breakpoint at that return address, read the
 * result and put the registers back; set var writes memory. None of that
 * is in the recording, so it runs on a copy: the first change keeps the
 * whole state (a keyframe, rp__kf_capture: copy-on-write pages, every
 * thread's registers), and rp_divert_end restores it, byte for byte, as
 * reverse execution restores keyframes. In between, a thread runs alone
 * and off the record: no record is read or checked, a syscall cannot be
 * answered and returns -ENOSYS, and what has no recorded answer (cpuid,
 * rdtsc, rdrand, xbegin) stops the run. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

/* Instructions between checks of the poll function, and the most one run
 * makes (a called function that never returns, with no ^C to stop it in a
 * batch session). */
#define DIVERT_CHUNK (1u << 20)
#define DIVERT_MAX (1ull << 33)

int rp_diverted(const rp_replay *rp) { return rp->div.on; }

static int begin(rp_replay *rp) {
  if (rp->div.on) return 0;
  RW_FORWARD(rp__kf_capture(rp, &rp->div.kf));
  rp->div.on = 1;
  rp->div.nsaved = 0;
  return 0;
}

void rp__divert_free(rp_replay *rp) {
  if (rp->div.on) rp__kf_free(&rp->div.kf);
  rp->div.on = 0;
  free(rp->div.saved);
  rp->div.saved = NULL;
  rp->div.nsaved = rp->div.capsaved = 0;
}

int rp_divert_end(rp_replay *rp) {
  if (!rp->div.on) return 0;
  int rc = rp__kf_restore(rp, &rp->div.kf);
  rp__kf_free(&rp->div.kf);
  rp->div.on = 0;
  rp->div.nsaved = 0;
  return rc;
}

int rp_divert_write_mem(rp_replay *rp, u64 addr, const void *src,
                        size_t len) {
  RW_FORWARD(begin(rp));
  return cpu_mem_write(rp->user.proc->mem, addr, src, len);
}

int rp_divert_set_regs(rp_replay *rp, u32 tid, const struct rw_regs *regs) {
  struct rp__thread *t = tid ? rp__thread_find(rp, tid) : rp->th.thr;
  RW_RETURN_IF(!t, RW_ENOTFOUND, "thread %u", tid);
  RW_FORWARD(begin(rp));
  size_t i = 0;
  while (i < rp->div.nsaved && rp->div.saved[i].tid != t->st.tid) i++;
  if (i == rp->div.nsaved) {
    if (i == rp->div.capsaved) {
      size_t cap = rp->div.capsaved ? 2 * rp->div.capsaved : 4;
      struct rp__divert_reg *v = realloc(rp->div.saved, cap * sizeof *v);
      RW_RETURN_IF(!v, RW_ENOMEM, "registers of %zu threads", cap);
      rp->div.saved = v;
      rp->div.capsaved = cap;
    }
    rp->div.saved[i].tid = t->st.tid;
    cpu_get_regs(t->cpu, &rp->div.saved[i].regs);
    rp->div.nsaved++;
  }
  return cpu_set_regs(t->cpu, regs);
}

int rp_divert_clean(rp_replay *rp) {
  for (size_t i = 0; i < rp->div.nsaved; i++) {
    const struct rw_regs *a = &rp->div.saved[i].regs;
    struct rw_regs b;
    if (rp_get_regs(rp, rp->div.saved[i].tid, &b) < 0)
      continue; /* (cannot be: no thread ends in a diversion) */
    if (memcmp(a->gpr, b.gpr, sizeof a->gpr) || a->rip != b.rip ||
        a->rflags != b.rflags)
      return 0;
  }
  return 1;
}

/* A user watchpoint of thread T's process that the access of WHY hits. */
static int user_watch(const rp_replay *rp, const struct rp__thread *t,
                      const struct cpu_exit *why) {
  for (size_t i = 0; i < rp->user.nwps; i++) {
    const struct rp__uwp *w = &rp->user.wps[i];
    if (w->in != t->proc->mem || !(w->kind & why->watch_kind)) continue;
    if (why->watch_addr < w->addr + w->len &&
        w->addr < why->watch_addr + why->watch_size)
      return 1;
  }
  return 0;
}

/* The si_code Linux gives the signal of fault WHY, and its si_addr in
 * *ADDR; 0 for a code not known here (x87 and SIMD exceptions: theirs
 * depends on the exception flags). */
static int fault_code(const struct cpu_exit *why, u64 *addr) {
  *addr = why->rip;
  switch (why->fault) {
    case CPU_FAULT_PF:
      *addr = why->addr;
      return why->maperr ? 1 /* SEGV_MAPERR */ : 2 /* SEGV_ACCERR */;
    case CPU_FAULT_GP:
    case CPU_FAULT_BP:
      *addr = 0;
      return 0x80; /* SI_KERNEL */
    case CPU_FAULT_UD:
      return 2; /* ILL_ILLOPN */
    case CPU_FAULT_DE:
      return 1; /* FPE_INTDIV */
    case CPU_FAULT_AC:
      return 1; /* BUS_ADRALN */
    default:
      return 0;
  }
}

int rp_fault_siginfo(rp_replay *rp, u32 tid, int signo, u8 out[128]) {
  RW_RETURN_IF(rp->div.on, RW_EINVAL, "in a diversion");
  struct rp_divert_stop d;
  int rc = rp_divert_run(rp, tid, 1, &d);
  int end = rp_divert_end(rp);
  RW_FORWARD(rc);
  RW_FORWARD(end);
  if (d.reason != RP_DIV_SIGNAL || d.signo != signo || !d.si_code)
    return RW_ENOTFOUND;
  memset(out, 0, 128);
  wr_le32(out, (u32)signo);
  wr_le32(out + 8, (u32)d.si_code);
  wr_le64(out + 16, d.addr); /* si_addr */
  return 0;
}

/* Fills OUT for an instruction the diversion cannot run (WHY). */
static void cannot(struct rp_divert_stop *out, const struct cpu_exit *why,
                   const char *what) {
  out->reason = RP_DIV_SIGNAL;
  out->signo = SIGILL;
  out->addr = why->rip;
  if (why->msg[0])
    snprintf(out->msg, sizeof out->msg, "%s", why->msg);
  else
    snprintf(out->msg, sizeof out->msg, "%s at %#llx has no answer off "
             "the record", what, (unsigned long long)why->rip);
}

int rp_divert_run(rp_replay *rp, u32 tid, int step,
                  struct rp_divert_stop *out) {
  struct rp__thread *t = tid ? rp__thread_find(rp, tid) : rp->th.thr;
  memset(out, 0, sizeof *out);
  RW_RETURN_IF(!t, RW_ENOTFOUND, "thread %u", tid);
  RW_FORWARD(begin(rp));
  cpu_mem_rep_stops(t->proc->mem, 0);
  u64 start = cpu_icount(t->cpu);
  for (;;) {
    struct cpu_exit why;
    RW_FORWARD(cpu_run(t->cpu, step ? 1 : DIVERT_CHUNK, &why));
    switch (why.reason) {
      case CPU_EXIT_BUDGET:
        if (step) {
          out->reason = RP_DIV_STEP;
          return 0;
        }
        if (rp->user.poll && rp->user.poll(rp->user.poll_ctx)) {
          out->reason = RP_DIV_INTERRUPTED;
          return 0;
        }
        if (cpu_icount(t->cpu) - start >= DIVERT_MAX) {
          out->reason = RP_DIV_INTERRUPTED;
          snprintf(out->msg, sizeof out->msg, "%llu instructions ran without "
                   "a stop; stopped there",
                   (unsigned long long)(cpu_icount(t->cpu) - start));
          return 0;
        }
        continue;
      case CPU_EXIT_STOP:
        out->reason = RP_DIV_INTERRUPTED;
        return 0;
      case CPU_EXIT_BREAKPOINT:
        /* The replayer's own (a preemption point) is not the user's: run
         * on (cpu_run steps off the one it starts at). */
        if (!rp__user_bp_at(rp, t->proc, why.rip)) continue;
        out->reason = RP_DIV_BREAKPOINT;
        out->addr = why.rip;
        return 0;
      case CPU_EXIT_WATCHPOINT:
        if (!user_watch(rp, t, &why)) break;
        out->reason = RP_DIV_WATCHPOINT;
        out->addr = why.watch_addr;
        out->watch_size = why.watch_size;
        out->watch_kind = why.watch_kind;
        return 0;
      case CPU_EXIT_SYSCALL: {
        struct rw_regs r;
        cpu_get_regs(t->cpu, &r);
        out->syscalls++;
        out->last_sys = (u32)r.gpr[RW_REG_rax];
        r.gpr[RW_REG_rax] = (u64)-ENOSYS;
        RW_FORWARD(cpu_set_regs(t->cpu, &r));
        break;
      }
      case CPU_EXIT_FAULT:
        /* A breakpoint where code cannot run: gdb's return address on the
         * stack (its dummy frame ON_STACK). */
        if (why.fault == CPU_FAULT_PF && (why.access & CPU_ACCESS_EXEC) &&
            why.addr == why.rip && rp__user_bp_at(rp, t->proc, why.rip)) {
          out->reason = RP_DIV_BREAKPOINT;
          out->addr = why.rip;
          return 0;
        }
        out->reason = RP_DIV_SIGNAL;
        out->signo = rp__fault_signal(why.fault);
        out->si_code = fault_code(&why, &out->addr);
        return 0;
      case CPU_EXIT_CPUID:
        cannot(out, &why, "cpuid");
        return 0;
      case CPU_EXIT_RDTSC:
        cannot(out, &why, "rdtsc");
        return 0;
      case CPU_EXIT_REP: /* not asked for */
        break;
      default: /* rdrand, rdseed, xbegin, an unsupported instruction */
        cannot(out, &why, "an instruction");
        return 0;
    }
    if (step) {
      out->reason = RP_DIV_STEP;
      return 0;
    }
  }
}
