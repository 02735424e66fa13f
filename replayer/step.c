/* SPDX-License-Identifier: MIT */
/* The event machine: walks the trace's records in sequence order. Records
 * that describe a change (mappings, memory imports, the registers after a
 * syscall) are applied at once; records that mark a point in the program's
 * execution (a syscall entry, a trapped rdtsc, a fault, an asynchronous
 * stop) are reached by running the emulator until it gets there, and the
 * registers are checked against the recording on arrival. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

enum { RP_NR_exit = 60, RP_NR_exit_group = 231, RP_NR_restart_syscall = 219 };

/* Reads the next record into rp->pend. Returns 1, 0 at the end of the trace,
 * or a negative code with DIAG. */
int rp__fetch(rp_replay *rp, struct rw_diag *diag) {
  struct trace_record r;
  int rc = trace_cursor_next(rp->cur, &r, diag);
  if (rc <= 0) return rc;
  if (r.len > rp->pend.cap) {
    size_t cap = RW_MAX((size_t)r.len, 2 * rp->pend.cap);
    u8 *d = realloc(rp->pend.data, cap);
    RW_RETURN_IF(!d, RW_ENOMEM, "record of %u bytes", r.len);
    rp->pend.data = d;
    rp->pend.cap = cap;
  }
  if (r.len) memcpy(rp->pend.data, r.data, r.len);
  rp->pend.seq = r.seq;
  rp->pend.tid = r.tid;
  rp->pend.type = r.type;
  rp->pend.len = r.len;
  rp->have_pend = 1;
  return 1;
}

static void consume(rp_replay *rp) {
  rp->have_pend = 0;
  rp->last_seq = rp->pend.seq;
  rp->events++;
}

static void fill_stop(rp_replay *rp, struct rp_stop *stop, int reason) {
  memset(stop, 0, sizeof *stop);
  stop->reason = reason;
  stop->icount = rp->icount;
  stop->event = rp->events;
  stop->tid = rp->tid;
}

static int end_history(rp_replay *rp, int how, int status, const char *msg) {
  rp->ended = 1;
  rp->end_icount = rp->icount;
  fill_stop(rp, &rp->end, RP_STOP_END);
  rp->end.end = how;
  rp->end.status = status;
  if (msg) snprintf(rp->end.msg, sizeof rp->end.msg, "%s", msg);
  return 0;
}

/* Sets every register of the thread from REGS (the state the recording says
 * the thread has now). */
static int set_regs(rp_replay *rp, const struct rw_regs *regs) {
  int rc = cpu_set_regs(rp->cpu, regs);
  RW_RETURN_IF(rc < 0, RW_ECORRUPT, "recorded registers are not valid");
  return 0;
}

/* The signal the kernel sends for fault F of the emulator. */
static int fault_signal(int f) {
  switch (f) {
    case CPU_FAULT_PF:
    case CPU_FAULT_GP:
      return SIGSEGV;
    case CPU_FAULT_UD:
      return SIGILL;
    case CPU_FAULT_DE:
    case CPU_FAULT_XM:
    case CPU_FAULT_MF:
      return SIGFPE;
    case CPU_FAULT_BP:
      return SIGTRAP;
    case CPU_FAULT_AC:
      return SIGBUS;
    default:
      return 0;
  }
}

static int is_sync_signal(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
         sig == SIGTRAP;
}

static int is_restart(i64 res) {
  return res == -512 || res == -513 || res == -514 || res == -516;
}

/* The kernel restarts an interrupted syscall that no handler saw. */
static int apply_restart(rp_replay *rp) {
  struct rw_regs regs;
  if (!rp->restart) return 0;
  rp->restart = 0;
  cpu_get_regs(rp->cpu, &regs);
  regs.rip -= 2;
  regs.gpr[RW_REG_rax] =
      rp->restart_result == -516 ? RP_NR_restart_syscall : rp->sys_nr;
  return set_regs(rp, &regs);
}

/* Applies a record that changes state without running the program. Returns
 * 1 when REC is such a record (applied), 0 when it marks an execution point,
 * or a negative code. */
static int apply_now(rp_replay *rp, const struct rp__rec *rec,
                     struct rp_stop *stop, int *stopped) {
  struct rp__rd rd;
  struct rw_regs regs;
  rp__rd_init(&rd, rec->data, rec->len);
  switch (rec->type) {
    case TRACE_REC_EXEC:
      RW_FORWARD(rp__note_exec(rp, rec));
      RW_FORWARD(rp__apply_exec(rp));
      return 1;
    case TRACE_REC_AUXV:
      RW_FORWARD(rp__note_auxv(rp, rec));
      return 1;
    case TRACE_REC_THREAD_START: {
      u32 tid = rp__rd_u32(&rd);
      rp__rd_u32(&rd);
      rp__rd_regs(&rd, &regs);
      RW_RETURN_IF(rd.bad, RW_ECORRUPT, "THREAD_START record too short");
      if (rp->have_thread && tid != rp->tid) {
        *stopped = 1;
        rp__fail(rp, stop,
                 "the trace has a second thread (%u) at event %llu; "
                 "replaying threads is not supported yet",
                 tid, (unsigned long long)rp->events);
        return 1;
      }
      rp->tid = tid;
      rp->have_thread = 1;
      RW_FORWARD(set_regs(rp, &regs));
      return 1;
    }
    case TRACE_REC_MAP:
      RW_FORWARD(rp__apply_map(rp, rec));
      return 1;
    case TRACE_REC_UNMAP:
      RW_FORWARD(rp__apply_unmap(rp, rec));
      return 1;
    case TRACE_REC_PROTECT:
      RW_FORWARD(rp__apply_protect(rp, rec));
      return 1;
    case TRACE_REC_REMAP:
      RW_FORWARD(rp__apply_remap(rp, rec));
      return 1;
    case TRACE_REC_MEM:
      RW_FORWARD(rp__apply_mem(rp, rec));
      return 1;
    case TRACE_REC_SYSCALL_EXIT: {
      u64 nr = rp__rd_u64(&rd);
      i64 res = (i64)rp__rd_u64(&rd);
      rp__rd_regs(&rd, &regs);
      u32 fp_valid = rd.len - rd.off >= 4 ? rp__rd_u32(&rd) : 1;
      RW_RETURN_IF(rd.bad, RW_ECORRUPT, "SYSCALL_EXIT record too short");
      RW_RETURN_IF(!rp->in_syscall || nr != rp->sys_nr, RW_ECORRUPT,
                   "SYSCALL_EXIT without its entry");
      if (!fp_valid) { /* the kernel left FP/SSE/AVX alone: keep ours */
        struct rw_regs mine;
        cpu_get_regs(rp->cpu, &mine);
        memcpy(regs.fxsave, mine.fxsave, sizeof regs.fxsave);
        memcpy(regs.ymmh, mine.ymmh, sizeof regs.ymmh);
      }
      RW_FORWARD(set_regs(rp, &regs));
      rp->in_syscall = 0;
      rp->restart = is_restart(res);
      rp->restart_result = res;
      return 1;
    }
    case TRACE_REC_SIGNAL:
      if (!rp->located && !rp->in_syscall) return 0; /* a fault: run to it */
      rp__rd_u32(&rd), rp__rd_u32(&rd), rp__rd_u64(&rd);
      rp__rd_regs(&rd, &regs);
      RW_RETURN_IF(rd.bad, RW_ECORRUPT, "SIGNAL record too short");
      RW_FORWARD(set_regs(rp, &regs));
      rp->located = 0;
      rp->restart = 0;
      rp->in_syscall = 0;
      return 1;
    case TRACE_REC_EXIT: {
      rp__rd_u32(&rd);
      i32 status = (i32)rp__rd_u32(&rd);
      u32 signo = rp__rd_u32(&rd);
      RW_RETURN_IF(rd.bad, RW_ECORRUPT, "EXIT record too short");
      if (signo && is_sync_signal((int)signo) && !rp->located &&
          !rp->in_syscall)
        return 0; /* a fatal fault: run to it */
      *stopped = 1;
      if (signo)
        end_history(rp, RP_END_SIGNAL, (int)signo, NULL);
      else
        end_history(rp, RP_END_EXIT, status, NULL);
      return 1;
    }
    case TRACE_REC_NOTE:
    case TRACE_REC_SYSCALL_DIFF:
    case TRACE_REC_FORK:
      return 1;
    case TRACE_REC_SYSCALL_ENTER:
    case TRACE_REC_RDTSC:
    case TRACE_REC_PREEMPT:
      return 0;
    default:
      return 1; /* a record type this build does not know: skip it */
  }
}

/* The expected registers of an execution-point record, for reports. */
static void expected_regs(const struct rp__rec *rec, struct rw_regs *regs,
                          int *have) {
  struct rp__rd rd;
  rp__rd_init(&rd, rec->data, rec->len);
  *have = 0;
  if (rec->type == TRACE_REC_SYSCALL_ENTER) {
    rp__rd_u64(&rd);
    rp__rd_regs(&rd, regs);
    *have = !rd.bad;
  } else if (rec->type == TRACE_REC_PREEMPT) {
    rp__rd_regs(&rd, regs);
    *have = !rd.bad;
  }
}

static const char *what(u16 type) {
  switch (type) {
    case TRACE_REC_SYSCALL_ENTER:
      return "a syscall";
    case TRACE_REC_RDTSC:
      return "an rdtsc";
    case TRACE_REC_PREEMPT:
      return "an asynchronous signal";
    case TRACE_REC_SIGNAL:
    case TRACE_REC_EXIT:
      return "a fault";
    default:
      return "an event";
  }
}

/* The emulator stopped at something the recording does not have next. */
static int unexpected(rp_replay *rp, struct rp_stop *stop,
                      const struct cpu_exit *why, const char *got) {
  struct rw_regs expect;
  int have;
  expected_regs(&rp->pend, &expect, &have);
  return rp__diverge(rp, stop, have ? &expect : NULL,
                     "the recording has %s next (event %llu, seq %llu), but "
                     "the program executed %s at %#llx",
                     what(rp->pend.type), (unsigned long long)rp->events,
                     (unsigned long long)rp->pend.seq, got,
                     (unsigned long long)why->rip);
}

static int on_syscall(rp_replay *rp, const struct cpu_exit *why,
                      struct rp_stop *stop, int *stopped) {
  struct rp__rd rd;
  struct rw_regs expect, actual;
  if (rp->pend.type != TRACE_REC_SYSCALL_ENTER)
    return *stopped = 1, unexpected(rp, stop, why, "a syscall");
  rp__rd_init(&rd, rp->pend.data, rp->pend.len);
  u64 nr = rp__rd_u64(&rd);
  rp__rd_regs(&rd, &expect);
  /* fp_valid 0: the recorder did not read FP/SSE/AVX at this syscall. */
  u32 fp_valid = rd.len - rd.off >= 4 ? rp__rd_u32(&rd) : 1;
  RW_RETURN_IF(rd.bad, RW_ECORRUPT, "SYSCALL_ENTER record too short");
  cpu_get_regs(rp->cpu, &actual);
  if (!fp_valid) {
    memcpy(expect.fxsave, actual.fxsave, sizeof expect.fxsave);
    memcpy(expect.ymmh, actual.ymmh, sizeof expect.ymmh);
  }
  if (actual.gpr[RW_REG_rax] != nr || !rp__regs_match(&expect, &actual, 1)) {
    *stopped = 1;
    return rp__diverge(rp, stop, &expect,
                       "registers differ at the entry of syscall %llu",
                       (unsigned long long)nr);
  }
  rp->checks++;
  rp->in_syscall = 1;
  rp->sys_nr = nr;
  consume(rp);
  return 0;
}

static int on_rdtsc(rp_replay *rp, const struct cpu_exit *why,
                    struct rp_stop *stop, int *stopped) {
  struct rp__rd rd;
  struct rw_regs regs;
  if (rp->pend.type != TRACE_REC_RDTSC)
    return *stopped = 1, unexpected(rp, stop, why, "rdtsc");
  rp__rd_init(&rd, rp->pend.data, rp->pend.len);
  u64 rip = rp__rd_u64(&rd), tsc = rp__rd_u64(&rd);
  u32 aux = rp__rd_u32(&rd), is_p = rp__rd_u32(&rd);
  RW_RETURN_IF(rd.bad, RW_ECORRUPT, "RDTSC record too short");
  if (rip != why->rip) {
    *stopped = 1;
    return rp__diverge(rp, stop, NULL,
                       "the recorded rdtsc was at %#llx, the replay's is at "
                       "%#llx",
                       (unsigned long long)rip, (unsigned long long)why->rip);
  }
  cpu_get_regs(rp->cpu, &regs);
  regs.gpr[RW_REG_rax] = (u32)tsc;
  regs.gpr[RW_REG_rdx] = tsc >> 32;
  if (is_p) regs.gpr[RW_REG_rcx] = aux;
  regs.rip += is_p ? 3 : 2;
  RW_FORWARD(set_regs(rp, &regs));
  /* The instruction completed: it counts. */
  cpu_set_icount(rp->cpu, cpu_icount(rp->cpu) + 1);
  rp->icount++;
  rp->checks++;
  consume(rp);
  return 0;
}

static int on_fault(rp_replay *rp, const struct cpu_exit *why,
                    struct rp_stop *stop, int *stopped) {
  char got[96];
  int sig = fault_signal(why->fault);
  snprintf(got, sizeof got, "an instruction raising signal %d", sig);
  if (rp->pend.type != TRACE_REC_SIGNAL && rp->pend.type != TRACE_REC_EXIT)
    return *stopped = 1, unexpected(rp, stop, why, got);
  struct rp__rd rd;
  rp__rd_init(&rd, rp->pend.data, rp->pend.len);
  u32 rsig;
  if (rp->pend.type == TRACE_REC_SIGNAL) {
    rsig = rp__rd_u32(&rd);
  } else {
    rp__rd_u32(&rd), rp__rd_u32(&rd);
    rsig = rp__rd_u32(&rd);
  }
  RW_RETURN_IF(rd.bad, RW_ECORRUPT, "signal record too short");
  /* A page fault on a file mapping past its end is SIGBUS. */
  if ((int)rsig != sig && !(sig == SIGSEGV && rsig == SIGBUS)) {
    *stopped = 1;
    return rp__diverge(rp, stop, NULL,
                       "the recording has signal %u next, but the program "
                       "raised signal %d at %#llx",
                       rsig, sig, (unsigned long long)why->rip);
  }
  rp->checks++;
  rp->located = 1; /* the SIGNAL or EXIT now applies without running */
  return 0;
}

/* Whether the thread is where PREEMPT says it was. */
static int preempt_matches(rp_replay *rp, int *match) {
  struct rp__rd rd;
  struct rw_regs expect, actual;
  rp__rd_init(&rd, rp->pend.data, rp->pend.len);
  rp__rd_regs(&rd, &expect);
  u64 digest = rp__rd_u64(&rd);
  RW_RETURN_IF(rd.bad, RW_ECORRUPT, "PREEMPT record too short");
  cpu_get_regs(rp->cpu, &actual);
  *match = 0;
  if (actual.rip != expect.rip || !rp__regs_match(&expect, &actual, 0))
    return 0;
  u64 mine;
  RW_FORWARD(rp__digest(rp, &mine));
  *match = mine == digest;
  return 0;
}

static int user_bp_at(const rp_replay *rp, u64 addr) {
  for (size_t i = 0; i < rp->nbps; i++)
    if (rp->bps[i] == addr) return 1;
  return 0;
}

static int set_preempt_bp(rp_replay *rp, u64 rip) {
  if (rp->preempt_bp == rip) return 0;
  if (rp->preempt_bp && !user_bp_at(rp, rp->preempt_bp))
    RW_FORWARD(cpu_mem_break_del(rp->mem, rp->preempt_bp));
  rp->preempt_bp = rip;
  return cpu_mem_break_add(rp->mem, rip);
}

static int clear_preempt_bp(rp_replay *rp) {
  u64 a = rp->preempt_bp;
  rp->preempt_bp = 0;
  if (a && !user_bp_at(rp, a)) RW_FORWARD(cpu_mem_break_del(rp->mem, a));
  return 0;
}

/* Whether a user breakpoint is at the current rip. */
static int at_user_bp(rp_replay *rp) {
  struct rw_regs regs;
  if (!rp->nbps) return 0;
  cpu_get_regs(rp->cpu, &regs);
  return user_bp_at(rp, regs.rip);
}

/* Instructions between two calls of the poll function. */
#define RP_POLL_SLICE 4000000ull

/* Runs the program from the current position until the global count reaches
 * UNTIL, the end, a divergence, a failure, or (FLAGS has RP__USER) a
 * breakpoint or watchpoint of the user. cpu_run steps off a breakpoint at
 * the first instruction it runs; a breakpoint reached between two cpu_run
 * calls of one rp__run (after a syscall, at a slice's end) is checked here,
 * so only the starting position is exempt, and not even that with
 * RP__USER_AT_START. */
int rp__run(rp_replay *rp, u64 until, int flags, struct rp_stop *stop) {
  struct cpu_exit why;
  struct rw_diag diag;
  int stop_at_user = flags & RP__USER;
  u64 start = rp->icount;
  for (;;) {
    int stopped = 0;
    if (rp->broken) {
      *stop = rp->broken_stop;
      return 0;
    }
    if (rp->ended) {
      *stop = rp->end;
      return 0;
    }
    if (!rp->have_pend) {
      memset(&diag, 0, sizeof diag);
      int rc = rp__fetch(rp, &diag);
      if (rc < 0) {
        rp__fail(rp, stop, "the trace is damaged at offset %llu: %s",
                 (unsigned long long)diag.offset,
                 diag.msg[0] ? diag.msg : rw_strerror(rc));
        return 0;
      }
      if (rc == 0) {
        end_history(rp, RP_END_CUT, 0,
                    "the trace ends here, before the program did (the "
                    "recording was cut off)");
        continue;
      }
    }
    int rc = apply_now(rp, &rp->pend, stop, &stopped);
    if (rc < 0) {
      rp__fail(rp, stop, "cannot apply record %llu (%s): %s",
               (unsigned long long)rp->pend.seq,
               trace_record_name(rp->pend.type) ?: "?", rw_strerror(rc));
      return 0;
    }
    if (rc == 1) {
      if (!rp->broken) consume(rp);
      if (stopped) {
        *stop = rp->broken ? rp->broken_stop : rp->end;
        return 0;
      }
      if (rp->icount >= rp->next_kf && !rp->seeking) RW_FORWARD(rp__kf_take(rp));
      continue;
    }
    /* An execution point: run until the program gets there. */
    if (rp->pend.type != TRACE_REC_PREEMPT) RW_FORWARD(apply_restart(rp));
    if (rp->pend.type == TRACE_REC_PREEMPT) {
      int match;
      RW_FORWARD(preempt_matches(rp, &match));
      if (match) {
        RW_FORWARD(clear_preempt_bp(rp));
        rp->located = 1;
        rp->restart = 0;
        rp->checks++;
        consume(rp);
        continue;
      }
      struct rp__rd rd;
      struct rw_regs expect;
      rp__rd_init(&rd, rp->pend.data, rp->pend.len);
      rp__rd_regs(&rd, &expect);
      RW_FORWARD(set_preempt_bp(rp, expect.rip));
    }
    if (rp->icount >= until &&
        (rp->icount > until || rp->events >= rp->until_events)) {
      fill_stop(rp, stop, RP_STOP_TARGET);
      return 0;
    }
    if (stop_at_user &&
        (rp->icount != start || (flags & RP__USER_AT_START)) &&
        at_user_bp(rp)) {
      struct rw_regs regs;
      cpu_get_regs(rp->cpu, &regs);
      fill_stop(rp, stop, RP_STOP_BREAKPOINT);
      stop->addr = regs.rip;
      return 0;
    }
    /* At the target with records still to reach (a fault whose signal is
     * delivered there), run the faulting instruction: it does not count. */
    u64 budget = until > rp->icount ? until - rp->icount : 1;
    if (rp->next_kf > rp->icount)
      budget = RW_MIN(budget, rp->next_kf - rp->icount);
    if (stop_at_user && rp->poll) budget = RW_MIN(budget, RP_POLL_SLICE);
    u64 before = cpu_icount(rp->cpu);
    rc = cpu_run(rp->cpu, budget, &why);
    RW_FORWARD(rc);
    u64 ran = cpu_icount(rp->cpu) - before;
    rp->icount += ran;
    rp->executed += ran;
    rp__progress(rp, 0);
    switch (why.reason) {
      case CPU_EXIT_BUDGET:
      case CPU_EXIT_STOP:
        if (rp->icount >= rp->next_kf && !rp->seeking)
          RW_FORWARD(rp__kf_take(rp));
        if (why.reason == CPU_EXIT_STOP) {
          fill_stop(rp, stop, RP_STOP_TARGET);
          return 0;
        }
        if (stop_at_user && rp->poll && rp->icount < until &&
            rp->poll(rp->poll_ctx)) {
          fill_stop(rp, stop, RP_STOP_INTERRUPTED);
          return 0;
        }
        continue;
      case CPU_EXIT_BREAKPOINT:
        if (rp->pend.type == TRACE_REC_PREEMPT && why.rip == rp->preempt_bp &&
            !(stop_at_user && user_bp_at(rp, why.rip)))
          continue; /* checked at the top of the loop */
        if (stop_at_user && user_bp_at(rp, why.rip)) {
          fill_stop(rp, stop, RP_STOP_BREAKPOINT);
          stop->addr = why.rip;
          return 0;
        }
        continue;
      case CPU_EXIT_WATCHPOINT:
        if (!stop_at_user) continue;
        fill_stop(rp, stop, RP_STOP_WATCHPOINT);
        stop->addr = why.watch_addr;
        stop->watch_size = why.watch_size;
        stop->watch_kind = why.watch_kind;
        return 0;
      case CPU_EXIT_SYSCALL:
        RW_FORWARD(on_syscall(rp, &why, stop, &stopped));
        break;
      case CPU_EXIT_RDTSC:
        RW_FORWARD(on_rdtsc(rp, &why, stop, &stopped));
        break;
      case CPU_EXIT_FAULT:
        RW_FORWARD(on_fault(rp, &why, stop, &stopped));
        break;
      case CPU_EXIT_CPUID:
        rp__fail(rp, stop, "cpuid at %#llx has no recorded answer",
                 (unsigned long long)why.rip);
        return 0;
      case CPU_EXIT_NONDET:
        rp__fail(rp, stop,
                 "the program executed rdrand or rdseed at %#llx: its result "
                 "cannot be reproduced on a CPU without CPUID faulting, so "
                 "the replay stops here",
                 (unsigned long long)why.rip);
        return 0;
      case CPU_EXIT_UNSUPPORTED:
        rp__fail(rp, stop, "%s", why.msg);
        return 0;
      default:
        rp__fail(rp, stop, "the emulator stopped for an unknown reason %d",
                 why.reason);
        return 0;
    }
    if (stopped) return 0;
  }
}
