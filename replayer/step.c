/* SPDX-License-Identifier: MIT */
/* The event machine: walks the trace's records in sequence order. Records
 * that describe a change (mappings, memory imports, the registers after a
 * syscall) are applied at once; records that mark a point in the program's
 * execution (a syscall entry, a trapped rdtsc, a fault, an asynchronous
 * stop) are reached by running the emulator until it gets there, and the
 * registers are checked against the recording on arrival.
 *
 * Threads (docs/design-notes.md, "Threads"): one thread ran user code at a
 * time while recording, so the records in sequence order fix the
 * interleaving. A record applies to the thread of its stream (EXIT names
 * its thread); an execution point of thread T is reached by running T's
 * processor, and T runs only while its execution point is the next record.
 * The global instruction count is the sum of every thread's. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

/* RDTSC record kinds (format/records.def, TRACE_RDTSC_KIND). */
enum {
#define TRACE_REC(id, NAME, name, fields, doc)
#define TRACE_RDTSC_KIND(v, NAME, name, doc) RP_ND_##NAME = (v),
#include "format/records.def"
#undef TRACE_RDTSC_KIND
#undef TRACE_REC
};

/* The instruction an RDTSC record of KIND answers. */
static const char *nd_name(u32 kind) {
  switch (kind) {
#define TRACE_REC(id, NAME, name, fields, doc)
#define TRACE_RDTSC_KIND(v, NAME, name, doc) \
  case v:                                    \
    return #name;
#include "format/records.def"
#undef TRACE_RDTSC_KIND
#undef TRACE_REC
    default:
      return "an instruction of an unknown kind";
  }
}

/* PKRU as Linux starts a program: every key but 0 access-disabled. */
#define RP_PKRU_DEFAULT 0x55555554u

/* Reads the next record into rp->trace.pend. Returns 1, 0 at the end of the
 * trace, or a negative code with DIAG. */
int rp__fetch(rp_replay *rp, struct rw_diag *diag) {
  struct trace_record r;
  int rc = rp__segment_next(rp, &r, diag);
  if (rc <= 0) return rc;
  if (r.len > rp->trace.pend.cap) {
    size_t cap = RW_MAX((size_t)r.len, 2 * rp->trace.pend.cap);
    u8 *d = realloc(rp->trace.pend.data, cap);
    RW_RETURN_IF(!d, RW_ENOMEM, "record of %u bytes", r.len);
    rp->trace.pend.data = d;
    rp->trace.pend.cap = cap;
  }
  if (r.len) memcpy(rp->trace.pend.data, r.data, r.len);
  rp->trace.pend.seq = r.seq;
  rp->trace.pend.tid = r.tid;
  rp->trace.pend.type = r.type;
  rp->trace.pend.len = r.len;
  rp->trace.have_pend = 1;
  return 1;
}

static void consume(rp_replay *rp) {
  rp->trace.have_pend = 0;
  rp->trace.last_seq = rp->trace.pend.seq;
  rp->trace.events++;
  if (!rp->tl.log_broken && rp->trace.events > rp->tl.log_covered)
    rp->tl.log_covered = rp->trace.events;
}

static void fill_stop(rp_replay *rp, struct rp_stop *stop, int reason) {
  memset(stop, 0, sizeof *stop);
  stop->reason = reason;
  stop->icount = rp->icount;
  stop->event = rp->trace.events;
  stop->tid = rp_current_tid(rp);
}

/* Makes T the current thread. */
static void set_cur(rp_replay *rp, struct rp__thread *t) {
  rp->th.thr = t;
  rp->th.cur_tid = t->st.tid;
  rp->proc = t->proc;
}

/* Makes the process of record REC's thread the one records apply to. A
 * THREAD_START chooses its own (the thread does not exist yet); records
 * of no thread (END) are the root's. */
static void proc_for(rp_replay *rp, const struct rp__rec *rec) {
  if (rec->type == TRACE_REC_THREAD_START) return;
  if (rec->tid == TRACE_TID_GLOBAL) {
    rp->proc = &rp->root;
    return;
  }
  struct rp__thread *t = rp__thread_find(rp, rec->tid);
  if (t && t->st.alive) rp->proc = t->proc;
}

static int end_history(rp_replay *rp, int how, int status, const char *msg) {
  if (!rp->th.thr && rp->th.nthreads) set_cur(rp, rp->th.threads[0]);
  rp->fin.ended = 1;
  rp->fin.end_icount = rp->icount;
  fill_stop(rp, &rp->fin.end, RP_STOP_END);
  rp->fin.end.end = how;
  rp->fin.end.status = status;
  rp->fin.end.finished =
      how != RP_END_CUT && (!rp->fin.end_expected || rp->fin.have_endrec);
  if (msg) snprintf(rp->fin.end.msg, sizeof rp->fin.end.msg, "%s", msg);
  return 0;
}

/* Sets every register of thread T from REGS (the state the recording says
 * the thread has now), its count already past the instruction at its rip
 * when EXECUTED (for the instruction counts, which see a move). */
static int set_regs(rp_replay *rp, struct rp__thread *t,
                    const struct rw_regs *regs, int executed) {
  /* Recorded register files have no PKRU: PKRU records set it. */
  u32 pkru = cpu_pkru(t->cpu);
  u64 at = cpu_rip(t->cpu);
  int rc = cpu_set_regs(t->cpu, regs);
  cpu_set_pkru(t->cpu, pkru);
  RW_RETURN_IF(rc < 0, RW_ECORRUPT, "recorded registers of thread %u are "
               "not valid", t->st.tid);
  if (RW_UNLIKELY(rp->prof)) rp__prof_moved(rp, t, at, executed);
  return 0;
}

int rp__fault_signal(int f) {
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

/* At the end of the history (END's EXIT, DETACH): damage there, or
 * memory that differs from the recording's digest, breaks the replay.
 * 1 when it did, 0, or a negative code. */
static int end_broken(rp_replay *rp) {
  struct rp_stop diverged;
  if (rp->fin.end_damage.code) {
    rp__damaged(rp, &diverged, &rp->fin.end_damage);
    return 1;
  }
  RW_FORWARD(rp__check_end(rp, &diverged));
  return rp->health.broken;
}

/* The kernel restarts an interrupted syscall that no handler saw. */
static int apply_restart(rp_replay *rp, struct rp__thread *t) {
  struct rw_regs regs;
  if (!t->st.restart) return 0;
  t->st.restart = 0;
  cpu_get_regs(t->cpu, &regs);
  regs.rip -= 2;
  regs.gpr[RW_REG_rax] =
      t->st.restart_result == -516 ? RP_NR_restart_syscall : t->st.sys_nr;
  return set_regs(rp, t, &regs, 0);
}

/* The thread of a record that concerns one: RW_ECORRUPT when the trace
 * names a thread that does not exist here. */
static int thread_of(rp_replay *rp, u32 tid, const struct rp__rec *rec,
                     struct rp__thread **out) {
  (void)rec; /* only in the trace message of debug builds */
  *out = rp__thread_find(rp, tid);
  RW_RETURN_IF(!*out || !(*out)->st.alive, RW_ECORRUPT,
               "%s record of thread %u, which does not exist here",
               trace_record_name(rec->type) ?: "a", tid);
  return 0;
}

/* Thread T's EXIT was applied: it is gone. One that called exit alone
 * leaves the table; the others were killed as the process ended (exit_group,
 * a fatal signal) and stay listed, as they were at the end, until a thread
 * reaches an event again (which a correct trace never has). */
static void thread_exited(rp_replay *rp, struct rp__thread *t) {
  /* Its call stack ends here, whether or not it stays listed. */
  if (RW_UNLIKELY(rp->prof)) rp__prof_thread_end(rp, t);
  t->st.alive = 0;
  rp->th.nalive--;
  rp->th.nzombies++;
  /* At the end, the last one stays listed whatever ended it. */
  if (!rp->th.nalive || !t->st.in_syscall || t->st.sys_nr != RP_NR_exit) return;
  if (RW_UNLIKELY(rp->goal && rp->goal->step_tid) &&
      t->st.tid == rp->goal->step_tid &&
      t->st.start_seq == rp->goal->step_seq)
    rp->step_gone = 1; /* a thread stepped out of its life */
  rp__thread_remove(rp, t);
}

/* The debugger's process ended (thread TID's EXIT, with SIGNO or STATUS)
 * while others may live on: its history ends there, a whole one. */
static void own_end(rp_replay *rp, u32 tid, u32 signo, i32 status) {
  rp->th.cur_tid = tid; /* its thread may be gone from the list */
  end_history(rp, signo ? RP_END_SIGNAL : RP_END_EXIT,
              signo ? (int)signo : status, NULL);
  rp->fin.end.finished = 1;
}

/* A MEM record REC (the kernel's write) is about to be applied in a user
 * run: when it changes a byte under a write watchpoint of its process,
 * the run stops at the next point (gdb's watchpoints see what a syscall
 * writes too). Records hold whole cache lines, so only a byte that
 * changes counts as written. */
static int kernel_write(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_mem m;
  RW_FORWARD(trace_rec_mem_get(&m, rec->data, rec->len));
  u64 hit;
  u32 size;
  if (rp->user.mem_hit ||
      !rp__user_watch_written(rp, rp->proc, m.addr, m.data.p, m.data.len,
                              &hit, &size))
    return 0;
  rp->user.mem_hit = 1;
  rp->user.mem_hit_at = rp->icount;
  rp->user.mem_hit_addr = hit;
  rp->user.mem_hit_size = size;
  rp->user.mem_hit_tid = rec->tid;
  rp->user.mem_hit_icount = rp->pt_icount;
  rp->user.mem_hit_events = rp->pt_events;
  return 0;
}

/* Applies a record that changes state without running the program. Returns
 * 1 when REC is such a record (applied), 0 when it marks an execution point
 * of thread *WHO, or a negative code. */
static int apply_now(rp_replay *rp, const struct rp__rec *rec, int *stopped,
                     struct rp__thread **who) {
  struct rp_stop diverged;
  struct rp__thread *t;
  if (RW_UNLIKELY(rp->prov.collect)) rp__prov_seen(rp, rec->type);
  switch (rec->type) {
    case TRACE_REC_EXEC:
      /* The counts place the instructions run so far while the old
       * image is still there. */
      for (size_t i = 0; RW_UNLIKELY(rp->prof) && i < rp->th.nthreads; i++)
        if (rp->th.threads[i]->proc == rp->proc)
          rp__prof_moved(rp, rp->th.threads[i],
                         cpu_rip(rp->th.threads[i]->cpu), 0);
      RW_FORWARD(rp__note_exec(rp, rec));
      if (rp->goal && (rp->goal->flags & RP__EXEC) &&
          rp__users(rp, rp->proc))
        rp->user.exec_seen = 1;
      if (rp->proc->lender) { /* a vfork child gets its own space */
        rp__proc_unshare(rp->proc);
        rp->proc->mem = rp->proc->own;
        RW_FORWARD(rp__user_sync(rp));
      }
      RW_FORWARD(rp__apply_exec(rp));
      /* The THREAD_START after it starts the new image's thread, which is
       * still inside the execve whose SYSCALL_EXIT follows. */
      rp->th.exec_nr = 0;
      for (size_t i = 0; i < rp->th.nthreads; i++) {
        t = rp->th.threads[i];
        if (t->proc == rp->proc && t->st.in_syscall &&
            (t->st.sys_nr == RP_NR_execve ||
                                 t->st.sys_nr == RP_NR_execveat))
          rp->th.exec_nr = t->st.sys_nr;
      }
      if (RW_UNLIKELY(rp->goal && rp->goal->step_tid)) {
        /* A stepped thread of the process that exec'd is gone (a
         * thread of another process goes on). */
        t = rp__thread_find(rp, rp->goal->step_tid);
        if (t && t->proc == rp->proc &&
            t->st.start_seq == rp->goal->step_seq)
          rp->step_gone = 1;
      }
      rp__threads_drop_all(rp);
      return 1;
    case TRACE_REC_AUXV:
      RW_FORWARD(rp__note_auxv(rp, rec));
      return 1;
    case TRACE_REC_THREAD_START: {
      struct trace_rec_thread_start ts;
      RW_FORWARD(trace_rec_thread_start_get(&ts, rec->data, rec->len));
      u32 tid = ts.tid, parent = ts.parent_tid;
      struct rw_regs *regs = &ts.regs;
      t = rp__thread_find(rp, tid);
      RW_RETURN_IF(t && t->st.alive, RW_ECORRUPT,
                   "THREAD_START of thread %u, which exists already", tid);
      if (t) rp__thread_remove(rp, t); /* an old one listed at its end */
      /* clone copies the AVX-512 state, which traces do not carry yet, and
       * PKRU (a PKRU record follows in traces of format 1.6); a new image
       * starts with Linux's default rights, all keys but 0 disabled. */
      regs->pkru = RP_PKRU_DEFAULT;
      struct rp__thread *pt = parent ? rp__thread_find(rp, parent) : NULL;
      /* A new process's first thread, or one of its parent's process;
       * the thread of a new image is in the process the EXEC was in. */
      struct rp__proc *kid = parent ? rp__proc_unstarted(rp, tid) : NULL;
      if (kid)
        rp->proc = kid;
      else if (pt && pt->st.alive)
        rp->proc = pt->proc;
      if (pt && pt->st.alive) {
        struct rw_regs theirs;
        cpu_get_regs(pt->cpu, &theirs);
        memcpy(regs->zmmh, theirs.zmmh, sizeof regs->zmmh);
        memcpy(regs->hi16, theirs.hi16, sizeof regs->hi16);
        memcpy(regs->k, theirs.k, sizeof regs->k);
        regs->pkru = theirs.pkru;
      }
      /* A forked child goes on from the fork on its parent's stack: while
       * the parent is still there, the child's call stack is its. */
      rp->th.fork_from = NULL;
      if (kid && pt && pt->st.alive && cpu_rip(pt->cpu) == regs->rip &&
          cpu_gpr(pt->cpu, RW_REG_rsp) == regs->gpr[RW_REG_rsp])
        rp->th.fork_from = pt;
      int started = rp__thread_start(rp, tid, rec->seq, regs, &t);
      rp->th.fork_from = NULL;
      RW_FORWARD(started);
      /* XINUSE: none in a new image, a clone's parent's in a clone. */
      cpu_set_xinuse(t->cpu, pt && pt->st.alive ? cpu_xinuse(pt->cpu) : 0);
      if (!parent && rp->th.exec_nr) { /* the thread that called execve */
        t->st.in_syscall = 1;
        t->st.sys_nr = rp->th.exec_nr;
        rp->th.exec_nr = 0;
      } else if (ts.inside) { /* a history that begins in a syscall */
        t->st.in_syscall = 1;
        t->st.sys_nr = ts.sys_nr;
        t->st.fresh = 0;
        rp->pt_icount = rp->icount;
        rp->pt_events = rp->trace.events;
      }
      return 1;
    }
    case TRACE_REC_THREAD_NAME: {
      struct trace_rec_thread_name tn;
      RW_FORWARD(trace_rec_thread_name_get(&tn, rec->data, rec->len));
      t = rp__thread_find(rp, tn.tid);
      if (t) trace_str_copy(tn.name, t->st.name, sizeof t->st.name);
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
      if (RW_UNLIKELY(rp->user.nwps) && rp->goal &&
          (rp->goal->flags & RP__USER))
        RW_FORWARD(kernel_write(rp, rec));
      /* fall through */
    case TRACE_REC_MEM_FROM: /* a keyframe's state: before any debugger */
      RW_FORWARD(rp__apply_mem(rp, rec));
      return 1;
    case TRACE_REC_CPUID:
      RW_FORWARD(rp__apply_cpuid(rp, rec));
      return 1;
    case TRACE_REC_STACK_RULES:
      RW_FORWARD(rp__apply_stack_rules(rp, rec));
      return 1;
    case TRACE_REC_RESIZE:
      RW_FORWARD(rp__apply_resize(rp, rec));
      return 1;
    case TRACE_REC_GROW:
      RW_FORWARD(rp__apply_grow(rp, rec, stopped));
      return 1;
    case TRACE_REC_SYSCALL_EXIT: {
      struct trace_rec_syscall_exit x;
      RW_FORWARD(trace_rec_syscall_exit_get(&x, rec->data, rec->len));
      u64 nr = x.nr;
      i64 res = x.result;
      u32 fp_valid = x.fp_valid;
      struct rw_regs *regs = &x.regs;
      RW_FORWARD(thread_of(rp, rec->tid, rec, &t));
      RW_RETURN_IF(!t->st.in_syscall || nr != t->st.sys_nr, RW_ECORRUPT,
                   "SYSCALL_EXIT of thread %u without its entry", t->st.tid);
      int keep_fp = !fp_valid; /* the kernel left FP/SSE/AVX alone */
      /* Traces do not carry the AVX-512 state yet: it is ours, except
       * after an execve, which leaves it in its initial state, and after
       * rt_sigreturn, which loads it from the signal frame. */
      int keep_avx512 = !(fp_valid && res >= 0 &&
                          (nr == RP_NR_execve || nr == RP_NR_execveat));
      u64 frame_fp = 0;
      /* rsp is past the frame's return address: the sigcontext's fpstate
       * pointer is 224 bytes above it. */
      if (nr == RP_NR_rt_sigreturn &&
          cpu_mem_read(rp->proc->mem, cpu_gpr(t->cpu, RW_REG_rsp) + 224,
                       &frame_fp, 8) < 0)
        frame_fp = 0;
      if (keep_fp || keep_avx512) {
        struct rw_regs mine;
        cpu_get_regs(t->cpu, &mine);
        if (keep_fp) {
          memcpy(regs->fxsave, mine.fxsave, sizeof regs->fxsave);
          memcpy(regs->ymmh, mine.ymmh, sizeof regs->ymmh);
        }
        if (keep_avx512) {
          memcpy(regs->zmmh, mine.zmmh, sizeof regs->zmmh);
          memcpy(regs->hi16, mine.hi16, sizeof regs->hi16);
          memcpy(regs->k, mine.k, sizeof regs->k);
        }
      }
      RW_FORWARD(set_regs(rp, t, regs, 0));
      if (nr == RP_NR_rt_sigreturn && keep_avx512)
        RW_FORWARD(cpu_sigreturn_avx512(t->cpu, frame_fp));
      if (nr == RP_NR_rt_sigreturn) /* its result is the restored rax */
        cpu_sigreturn_xinuse(t->cpu, frame_fp);
      else if (res >= 0 && (nr == RP_NR_execve || nr == RP_NR_execveat))
        cpu_set_xinuse(t->cpu, 0);
      t->st.in_syscall = 0;
      t->st.restart = is_restart(res);
      t->st.restart_result = res;
      if (RW_UNLIKELY(rp->goal && (rp->goal->flags & RP__SYSCALLS)) &&
          rp__sys_stops_at(rp, nr) && rp__users(rp, t->proc)) {
        rp->user.sys_ret = 1;
        rp->user.sys_ret_tid = t->st.tid;
        rp->user.sys_ret_nr = (u32)nr;
        rp->user.sys_ret_icount = rp->icount;
      }
      if (RW_UNLIKELY(rp->user.echo)) rp__echo(rp, t, nr, res, rec->seq);
      return 1;
    }
    case TRACE_REC_SIGNAL: {
      RW_FORWARD(thread_of(rp, rec->tid, rec, &t));
      struct trace_rec_signal sg;
      RW_FORWARD(trace_rec_signal_get(&sg, rec->data, rec->len));
      u32 signo = sg.signo;
      i32 code = sg.code;
      /* A fault: run to it. A thread that has not run since it started
       * is at a known point too, for a signal sent to it. */
      if (!t->st.located && !t->st.in_syscall &&
          (!t->st.fresh || (is_sync_signal((int)signo) && code > 0))) {
        *who = t;
        return 0;
      }
      RW_FORWARD(set_regs(rp, t, &sg.regs, 0));
      cpu_set_xinuse(t->cpu, 0); /* the handler starts from the init state */
      t->st.located = 0;
      t->st.restart = 0;
      t->st.in_syscall = 0;
      return 1;
    }
    case TRACE_REC_EXIT: {
      struct trace_rec_exit ex;
      RW_FORWARD(trace_rec_exit_get(&ex, rec->data, rec->len));
      u32 tid = ex.tid, signo = ex.signo;
      i32 status = ex.status;
      RW_FORWARD(thread_of(rp, tid, rec, &t));
      struct rp__proc *p = t->proc;
      /* A fatal fault: run to it, when this thread ends the process. */
      if (signo && is_sync_signal((int)signo) && !t->st.located &&
          !t->st.in_syscall && rp__threads_alive_in(rp, p) == 1) {
        *who = t;
        return 0;
      }
      thread_exited(rp, t);
      if (rp__threads_alive_in(rp, p)) return 1;
      if (p != &rp->root) { /* a forked process ended */
        /* Killed by a signal: its memory as it was then. */
        RW_FORWARD(rp__check_killed(rp, rec, &ex, p, &diverged));
        if (rp->health.broken) {
          *stopped = 1;
          return 1;
        }
        /* A vfork child that ends in its parent's memory keeps seeing it
         * (rp__proc_unshare leaves mem): a debugger at its end reads its
         * stack there, and its breakpoints and watchpoints stay put. */
        rp__proc_unshare(p);
        p->exists = 0;
        if (p == rp->user.proc && !rp->user.tree) { /* its history ends */
          *stopped = 1;
          own_end(rp, tid, signo, status);
          return 1;
        }
        if (rp->th.nalive) return 1;
      } else {
        /* The root ended: its memory is checked against END here. */
        struct rp__thread *was = rp->th.thr;
        set_cur(rp, t);
        int broken = end_broken(rp);
        RW_FORWARD(broken);
        if (broken) {
          *stopped = 1;
          return 1;
        }
        rp->fin.root_signo = (int)signo;
        rp->fin.root_status = status;
        rp->fin.root_ended = 1;
        if (rp->th.nalive && rp->user.proc == &rp->root && !rp->opts.whole) {
          /* Its children live on, but the debugger's history ends with
           * it, as a child's does: the rest is other processes' alone. */
          *stopped = 1;
          own_end(rp, tid, signo, status);
          return 1;
        }
        if (rp->th.nalive) { /* its children live on */
          if (was) set_cur(rp, was);
          return 1;
        }
      }
      /* The last recorded process ended: the history ends, with the
       * root's fate. */
      *stopped = 1;
      if (rp->fin.root_ended && rp->fin.root_signo)
        end_history(rp, RP_END_SIGNAL, rp->fin.root_signo, NULL);
      else if (rp->fin.root_ended)
        end_history(rp, RP_END_EXIT, rp->fin.root_status, NULL);
      else if (signo)
        end_history(rp, RP_END_SIGNAL, (int)signo, NULL);
      else
        end_history(rp, RP_END_EXIT, status, NULL);
      return 1;
    }
    case TRACE_REC_PKRU: {
      struct trace_rec_pkru k;
      RW_FORWARD(trace_rec_pkru_get(&k, rec->data, rec->len));
      RW_FORWARD(thread_of(rp, rec->tid, rec, &t));
      cpu_set_pkru(t->cpu, k.pkru);
      return 1;
    }
    case TRACE_REC_OUTPUT:
      RW_FORWARD(thread_of(rp, rec->tid, rec, &t));
      RW_FORWARD(rp__check_output(rp, rec, t, &diverged));
      if (rp->health.broken) *stopped = 1;
      return 1;
    case TRACE_REC_DIGEST:
      RW_FORWARD(thread_of(rp, rec->tid, rec, &t));
      RW_FORWARD(rp__check_digest(rp, rec, t, &diverged));
      if (rp->health.broken) *stopped = 1;
      return 1;
    case TRACE_REC_FORK: {
      struct rp__proc *kid;
      RW_FORWARD(rp__apply_fork(rp, rec, &kid));
      if (kid && (rp->user.nbps || rp->user.nwps))
        RW_FORWARD(rp__user_sync(rp));
      if (kid && rp->goal && (rp->goal->flags & RP__PROCS) &&
          rp->user.tree) {
        rp->user.fork_seen = kid;
        rp->user.fork_tid = rec->tid;
      }
      return 1;
    }
    case TRACE_REC_NOTE:
    case TRACE_REC_SYSCALL_DIFF:
    case TRACE_REC_END: /* read when the trace was opened */
      return 1;
    case TRACE_REC_XSTATE: {
      struct trace_rec_xstate x;
      struct rw_regs regs;
      RW_FORWARD(trace_rec_xstate_get(&x, rec->data, rec->len));
      RW_FORWARD(thread_of(rp, x.tid, rec, &t));
      cpu_get_regs(t->cpu, &regs);
      RW_FORWARD(rp__xstate_regs(&x, rec->seq, &regs));
      RW_FORWARD(set_regs(rp, t, &regs, 0));
      cpu_set_xinuse(t->cpu, x.xinuse & 0xe7);
      return 1;
    }
    case TRACE_REC_DETACH: {
      /* Every thread is where the recording left it: the memory too. */
      *stopped = 1;
      int broken = end_broken(rp);
      RW_FORWARD(broken);
      if (broken) return 1;
      end_history(rp, RP_END_DETACHED, 0,
                  "the recording ends here: rewind detached from the "
                  "process, which went on running");
      return 1;
    }
    case TRACE_REC_SYSCALL_ENTER:
    case TRACE_REC_RDTSC:
    case TRACE_REC_PREEMPT:
      RW_FORWARD(thread_of(rp, rec->tid, rec, who));
      return 0;
    case TRACE_REC_SYSCALL_ENTER_GP:
    case TRACE_REC_SYSCALL_EXIT_GP: /* the cursor expands every whole one */
      RW_RETURN_IF(1, RW_ECORRUPT, "record %llu: a %s too short for its "
                   "registers", (unsigned long long)rec->seq,
                   trace_record_name(rec->type));
    default:
      return 1; /* a record type this build does not know: skip it */
  }
}

/* The expected registers of an execution-point record, for reports. */
static void expected_regs(const struct rp__rec *rec, struct rw_regs *regs,
                          int *have) {
  struct trace_rec_syscall_enter e;
  struct trace_rec_preempt p;
  *have = 0;
  if (rec->type == TRACE_REC_SYSCALL_ENTER &&
      trace_rec_syscall_enter_get(&e, rec->data, rec->len) == 0)
    *regs = e.regs, *have = 1;
  else if (rec->type == TRACE_REC_PREEMPT &&
           trace_rec_preempt_get(&p, rec->data, rec->len) == 0)
    *regs = p.regs, *have = 1;
}

static const char *what(u16 type) {
  switch (type) {
    case TRACE_REC_SYSCALL_ENTER:
      return "a syscall";
    case TRACE_REC_RDTSC:
      return "an rdtsc";
    case TRACE_REC_PREEMPT:
      return "an asynchronous stop (end of timeslice or signal)";
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
  expected_regs(&rp->trace.pend, &expect, &have);
  if (rp->trace.pend.type == TRACE_REC_PREEMPT &&
      rp->search.missed_seq == rp->trace.pend.seq)
    return rp__diverge(
        rp, stop, have ? &expect : NULL,
        "the recording has %s of thread %u next (event %llu, seq %llu): "
        "the thread had its registers after %llu instructions, but its "
        "writable memory differed there from the recording's (digest), "
        "and it went on to execute %s at %#llx: a value it kept in memory "
        "was computed differently before that point",
        what(rp->trace.pend.type), rp->th.cur_tid,
        (unsigned long long)rp->trace.events,
        (unsigned long long)rp->trace.pend.seq,
        (unsigned long long)rp->search.missed_at, got,
        (unsigned long long)why->rip);
  return rp__diverge(rp, stop, have ? &expect : NULL,
                     "the recording has %s of thread %u next (event %llu, "
                     "seq %llu), but the thread executed %s at %#llx",
                     what(rp->trace.pend.type), rp->th.cur_tid,
                     (unsigned long long)rp->trace.events,
                     (unsigned long long)rp->trace.pend.seq, got,
                     (unsigned long long)why->rip);
}

/* si_code of a SIGSYS from syscall user dispatch (PR_SET_SYSCALL_USER_
 * DISPATCH): the kernel did not run the syscall but sent the signal. */
#define RP_SYS_USER_DISPATCH 2

/* A syscall that the recording has as a SIGSYS of syscall user dispatch:
 * the syscall did not run, the SIGNAL that follows applies now. Returns 1
 * when the pending record is that SIGSYS (a divergence when it was another
 * syscall or address: *STOPPED set), 0 when it is not, or a negative
 * code. */
static int on_dispatched(rp_replay *rp, struct rp__thread *t,
                         const struct cpu_exit *why, struct rp_stop *stop,
                         int *stopped) {
  struct trace_rec_signal sg;
  if (rp->trace.pend.type != TRACE_REC_SIGNAL ||
      trace_rec_signal_get(&sg, rp->trace.pend.data, rp->trace.pend.len) < 0 ||
      sg.signo != SIGSYS || sg.code != RP_SYS_USER_DISPATCH)
    return 0;
  struct rw_regs actual;
  cpu_get_regs(t->cpu, &actual);
  /* siginfo: si_syscall (int) at 24, after si_call_addr at 16. */
  u32 nr = sg.siginfo.len >= 28 ? rd_le32(sg.siginfo.p + 24) : 0;
  if (sg.addr != actual.rip || nr != (u32)actual.gpr[RW_REG_rax]) {
    *stopped = 1;
    int rc = rp__diverge(rp, stop, NULL,
                         "the recording has syscall %u at %#llx sent to the "
                         "program's SIGSYS handler (syscall user dispatch) "
                         "next, but thread %u made syscall %llu at %#llx",
                         nr, (unsigned long long)sg.addr, t->st.tid,
                         (unsigned long long)actual.gpr[RW_REG_rax],
                         (unsigned long long)why->rip);
    return rc < 0 ? rc : 1;
  }
  rp->checks++;
  t->st.located = 1; /* the SIGNAL now applies without running */
  return 1;
}

static int on_syscall(rp_replay *rp, struct rp__thread *t,
                      const struct cpu_exit *why, struct rp_stop *stop,
                      int *stopped) {
  struct trace_rec_syscall_enter e;
  struct rw_regs actual;
  if (rp->trace.pend.type != TRACE_REC_SYSCALL_ENTER) {
    int d = on_dispatched(rp, t, why, stop, stopped);
    if (d) return d < 0 ? d : 0;
    return *stopped = 1, unexpected(rp, stop, why, "a syscall");
  }
  RW_FORWARD(
      trace_rec_syscall_enter_get(&e, rp->trace.pend.data, rp->trace.pend.len));
  u64 nr = e.nr;
  struct rw_regs *expect = &e.regs;
  /* fp_valid 0: the recorder did not read FP/SSE/AVX at this syscall. */
  u32 fp_valid = e.fp_valid;
  cpu_get_regs(t->cpu, &actual);
  if (!fp_valid) {
    memcpy(expect->fxsave, actual.fxsave, sizeof expect->fxsave);
    memcpy(expect->ymmh, actual.ymmh, sizeof expect->ymmh);
  }
  if (actual.gpr[RW_REG_rax] != nr ||
      !rp__regs_match(expect, &actual, 1)) {
    *stopped = 1;
    return rp__diverge(rp, stop, expect,
                       "registers of thread %u differ at the entry of "
                       "syscall %llu",
                       t->st.tid, (unsigned long long)nr);
  }
  rp->checks++;
  t->st.in_syscall = 1;
  t->st.sys_nr = nr;
  /* What the kernel writes for this syscall comes after the point just
   * before its instruction (kernel_write). */
  rp->pt_icount = rp->icount - 1;
  rp->pt_events = rp->trace.events;
  consume(rp);
  return 0;
}

/* The syscall the kernel performs for a call to the legacy vsyscall page
 * entry at RIP (gettimeofday, time, getcpu), or -1. */
static long vsyscall_nr(u64 rip) {
  switch (rip) {
    case 0xffffffffff600000ull: return RP_NR_gettimeofday;
    case 0xffffffffff600400ull: return RP_NR_time;
    case 0xffffffffff600800ull: return RP_NR_getcpu;
    default: return -1;
  }
}

/* A fault fetching at a vsyscall entry, nothing being mapped there. The
 * kernel ran the syscall and returned to the caller, and the recorder
 * wrote it as that syscall, entered at the entry (recorder/vsyscall.c):
 * the call counts as one instruction. Returns 1 when WHY is one, with
 * the syscall's entry handled; 0 when it is an ordinary fault. */
static int on_vsyscall(rp_replay *rp, struct rp__thread *t,
                       const struct cpu_exit *why, struct rp_stop *stop,
                       int *stopped) {
  long nr = vsyscall_nr(why->rip);
  /* Nothing runs at RIP: the fault is the fetch (#GP, the address being
   * in the kernel's half). */
  struct trace_rec_syscall_enter e;
  if ((why->fault != CPU_FAULT_GP && why->fault != CPU_FAULT_PF) || nr < 0 ||
      rp->trace.pend.type != TRACE_REC_SYSCALL_ENTER ||
      trace_rec_syscall_enter_get(&e, rp->trace.pend.data, rp->trace.pend.len) <
          0 ||
      e.nr != (u64)nr)
    return 0;
  struct rw_regs regs;
  cpu_get_regs(t->cpu, &regs);
  regs.gpr[RW_REG_rax] = (u64)nr; /* as the kernel has it at the stop */
  cpu_set_icount(t->cpu, cpu_icount(t->cpu) + 1);
  RW_FORWARD(set_regs(rp, t, &regs, 1));
  rp->icount++;
  RW_FORWARD(on_syscall(rp, t, why, stop, stopped));
  return 1;
}

/* The instruction the pending record answers (rdtsc, rdrand, xbegin...)
 * completed with REGS: it counts, and the record is used. Returns 0 or a
 * negative code. */
static int answered(rp_replay *rp, struct rp__thread *t,
                    const struct rw_regs *regs) {
  cpu_set_icount(t->cpu, cpu_icount(t->cpu) + 1);
  RW_FORWARD(set_regs(rp, t, regs, 1));
  rp->icount++;
  rp->checks++;
  consume(rp);
  return 0;
}

static int on_rdtsc(rp_replay *rp, struct rp__thread *t,
                    const struct cpu_exit *why, struct rp_stop *stop,
                    int *stopped) {
  struct trace_rec_rdtsc rt;
  struct rw_regs regs;
  /* The program set PR_TSC_SIGSEGV itself: its rdtsc raised SIGSEGV
   * (si_code SI_KERNEL), which the recording has next. The
   * instruction did not complete; the SIGNAL, or the EXIT of a fatal one,
   * applies now. */
  if (rp->trace.pend.type == TRACE_REC_SIGNAL) {
    struct trace_rec_signal sg;
    if (trace_rec_signal_get(&sg, rp->trace.pend.data, rp->trace.pend.len) ==
            0 &&
        sg.signo == SIGSEGV && sg.code == SI_KERNEL) {
      rp->checks++;
      t->st.located = 1;
      return 0;
    }
  } else if (rp->trace.pend.type == TRACE_REC_EXIT) {
    struct trace_rec_exit ex;
    if (trace_rec_exit_get(&ex, rp->trace.pend.data, rp->trace.pend.len) ==
            0 &&
        ex.signo == SIGSEGV && ex.tid == t->st.tid) {
      rp->checks++;
      t->st.located = 1;
      return 0;
    }
  }
  if (rp->trace.pend.type != TRACE_REC_RDTSC)
    return *stopped = 1, unexpected(rp, stop, why, "rdtsc");
  RW_FORWARD(trace_rec_rdtsc_get(&rt, rp->trace.pend.data, rp->trace.pend.len));
  u64 rip = rt.rip, tsc = rt.tsc;
  u32 aux = rt.aux, is_p = rt.kind;
  if (is_p > RP_ND_RDTSCP) {
    *stopped = 1;
    return rp__diverge(rp, stop, NULL,
                       "thread %u ran rdtsc at %#llx where the recording has "
                       "%s at %#llx",
                       t->st.tid, (unsigned long long)why->rip, nd_name(is_p),
                       (unsigned long long)rip);
  }
  if (rip != why->rip) {
    *stopped = 1;
    return rp__diverge(rp, stop, NULL,
                       "the recorded rdtsc of thread %u was at %#llx, the "
                       "replay's is at %#llx",
                       t->st.tid, (unsigned long long)rip,
                       (unsigned long long)why->rip);
  }
  cpu_get_regs(t->cpu, &regs);
  regs.gpr[RW_REG_rax] = (u32)tsc;
  regs.gpr[RW_REG_rdx] = tsc >> 32;
  if (is_p) regs.gpr[RW_REG_rcx] = aux;
  regs.rip += is_p ? 3 : 2;
  return answered(rp, t, &regs);
}

/* rdrand or rdseed: the recorder answered it (recorder/tscpatch.c) with
 * an RDTSC record of kind 2 or 3: the value written and CF. Without one
 * (code the recorder could not see, or an older trace), the replay stops
 * and says why. */
static int on_nondet(rp_replay *rp, struct rp__thread *t,
                     const struct cpu_exit *why, struct rp_stop *stop,
                     int *stopped) {
  struct trace_rec_rdtsc rt = {0};
  struct rw_regs regs;
  if (rp->trace.pend.type == TRACE_REC_RDTSC)
    RW_FORWARD(
        trace_rec_rdtsc_get(&rt, rp->trace.pend.data, rp->trace.pend.len));
  u64 rip = rt.rip, v = rt.tsc;
  u32 cf = rt.aux, kind = rt.kind;
  if (rp->trace.pend.type != TRACE_REC_RDTSC ||
      (kind != RP_ND_RDRAND && kind != RP_ND_RDSEED) || rip != why->rip) {
    *stopped = 1;
    rp__fail(rp, stop,
             "thread %u executed rdrand or rdseed at %#llx, which the "
             "recorder did not see (code written at run time?): its result "
             "was not recorded, so the replay stops here",
             t->st.tid, (unsigned long long)why->rip);
    return 0;
  }
  cpu_get_regs(t->cpu, &regs);
  u64 *g = &regs.gpr[why->nondet_reg & 15];
  if (why->nondet_size == 2)
    *g = (*g & ~0xffffull) | (u16)v;
  else
    *g = why->nondet_size == 4 ? (u32)v : v;
  regs.rflags &= ~0x8d5ull; /* OF SF ZF AF PF CF */
  if (cf & 1) regs.rflags |= 1;
  regs.rip += why->insn_len;
  return answered(rp, t, &regs);
}

/* xbegin: the recorder aborted its transaction before it started
 * (recorder/tscpatch.c) and wrote an RDTSC record of kind xbegin with the
 * abort status: eax = the status (rax zero-extended), rip = the fallback
 * address, nothing else changes. Without one, the xbegin ran natively
 * (code written at run time, which the recorder did not see) and its
 * transaction may have committed: the replay cannot know, so it stops and
 * says why. */
static int on_xbegin(rp_replay *rp, struct rp__thread *t,
                     const struct cpu_exit *why, struct rp_stop *stop,
                     int *stopped) {
  struct trace_rec_rdtsc rt = {0};
  struct rw_regs regs;
  int have = rp->trace.pend.type == TRACE_REC_RDTSC;
  if (have)
    RW_FORWARD(
        trace_rec_rdtsc_get(&rt, rp->trace.pend.data, rp->trace.pend.len));
  if (!have || rt.kind != RP_ND_XBEGIN || rt.rip != why->rip) {
    char next[96] = "";
    if (have && rt.kind == RP_ND_XBEGIN)
      snprintf(next, sizeof next, " (the recording's next xbegin is at %#llx)",
               (unsigned long long)rt.rip);
    *stopped = 1;
    rp__fail(rp, stop,
             "thread %u executed xbegin at %#llx, which the recorder did not "
             "see (code written at run time?): whether its transaction "
             "committed was not recorded, so the replay stops here%s",
             t->st.tid, (unsigned long long)why->rip, next);
    return 0;
  }
  cpu_get_regs(t->cpu, &regs);
  regs.gpr[RW_REG_rax] = (u32)rt.tsc;
  regs.rip = why->target;
  return answered(rp, t, &regs);
}

static int on_fault(rp_replay *rp, struct rp__thread *t,
                    const struct cpu_exit *why, struct rp_stop *stop,
                    int *stopped) {
  char got[96];
  int sig = rp__fault_signal(why->fault);
  snprintf(got, sizeof got, "an instruction raising signal %d", sig);
  if (rp->trace.pend.type != TRACE_REC_SIGNAL &&
      rp->trace.pend.type != TRACE_REC_EXIT)
    return *stopped = 1, unexpected(rp, stop, why, got);
  u32 rsig;
  int forced = 0; /* a SIGSEGV the kernel sent in the signal's place */
  if (rp->trace.pend.type == TRACE_REC_SIGNAL) {
    struct trace_rec_signal sg;
    RW_FORWARD(
        trace_rec_signal_get(&sg, rp->trace.pend.data, rp->trace.pend.len));
    rsig = sg.signo;
    forced = sg.code == SI_KERNEL;
  } else {
    struct trace_rec_exit ex;
    RW_FORWARD(
        trace_rec_exit_get(&ex, rp->trace.pend.data, rp->trace.pend.len));
    rsig = ex.signo;
    forced = 1;
  }
  /* The kernel could not write the signal's frame (the stack pointer
   * points at nothing writable) and sent SIGSEGV instead. */
  if ((int)rsig == SIGSEGV && sig != SIGSEGV && forced) {
    struct rw_regs regs;
    u64 start, len;
    int prot;
    cpu_get_regs(t->cpu, &regs);
    u64 below = regs.gpr[RW_REG_rsp] - 128 - 8; /* past the red zone */
    if (cpu_mem_query(rp->proc->mem, below, &start, &len, &prot) < 0 ||
        start > below || !(prot & CPU_PROT_WRITE))
      sig = SIGSEGV;
  }
  /* A page fault on a file mapping past its end is SIGBUS. */
  if ((int)rsig != sig && !(sig == SIGSEGV && rsig == SIGBUS)) {
    *stopped = 1;
    return rp__diverge(rp, stop, NULL,
                       "the recording has signal %u of thread %u next, but "
                       "the thread raised signal %d at %#llx",
                       rsig, t->st.tid, sig, (unsigned long long)why->rip);
  }
  rp->checks++;
  t->st.located = 1; /* the SIGNAL or EXIT now applies without running */
  /* The signal frame the kernel writes comes after this point. */
  rp->pt_icount = rp->icount;
  rp->pt_events = rp->trace.events;
  return 0;
}

/* Whether a user breakpoint is at thread T's rip. */
static int at_user_bp(rp_replay *rp, struct rp__thread *t) {
  struct rw_regs regs;
  if (!rp->user.nbps) return 0;
  /* In the middle of a rep instruction that a slice ended: the breakpoint
   * was hit when the instruction began, not again at each slice. */
  if (cpu_rep_paused(t->cpu)) return 0;
  cpu_get_regs(t->cpu, &regs);
  return rp__user_bp_at(rp, t->proc, regs.rip);
}

/* Events reached by a thread: the threads listed only because the process
 * ended with them cannot be there any more (see thread_exited). */
static void reached(rp_replay *rp) {
  if (RW_UNLIKELY(rp->th.nzombies)) rp__threads_purge(rp);
}

/* Instructions between two calls of the poll function (which keeps gdb
 * waiting during a long monitor command: see RP_SHADOW_SLICE). */
#define RP_POLL_SLICE 1000000ull

struct rp__goal rp__goal_at(u64 icount, int flags) {
  return (struct rp__goal){.icount = icount, .flags = flags};
}

struct rp__goal rp__goal_step(const struct rp__thread *t, u64 count,
                              int flags) {
  return (struct rp__goal){.icount = ~0ull,
                           .flags = flags,
                           .step_tid = t->st.tid,
                           .step_seq = t->st.start_seq,
                           .step_count = count};
}

/* Whether the pending SIGNAL record is delivered now, without its thread
 * running first (to its fault, or to where it was interrupted): 1 with
 * the thread in *WHO, its signal in *SIGNO and whether the debugger stops
 * for it (a thread of its processes, a signal not passed) in *STOPS; 0 if
 * not. */
static int signal_now(rp_replay *rp, struct rp__thread **who, int *signo,
                      int *stops) {
  const struct rp__rec *rec = &rp->trace.pend;
  struct trace_rec_signal sg;
  struct rp__thread *t;
  if (trace_rec_signal_get(&sg, rec->data, rec->len) < 0 ||
      !(t = rp__thread_find(rp, rec->tid)))
    return 0;
  if (!t->st.located && !t->st.in_syscall &&
      (!t->st.fresh || (is_sync_signal((int)sg.signo) && sg.code > 0)))
    return 0;
  *who = t;
  *signo = (int)sg.signo;
  *stops = rp__sig_stops(&rp->user, sg.signo) && rp__users(rp, t->proc);
  return 1;
}

/* Runs the program from the current position until the global count reaches
 * the goal's, the end, a divergence, a failure, or (RP__USER) a breakpoint
 * or watchpoint of the user; with a step thread, also when that thread is
 * about to run with its own count at the goal's. cpu_run steps off a
 * breakpoint at the first instruction it runs; a breakpoint reached between
 * two cpu_run calls of one run (after a syscall, at a slice's end, when
 * another thread is scheduled) is checked here, so only the starting
 * position is exempt, and not even that with RP__USER_AT_START. Every stop
 * is at the top of the loop with the thread about to run current, or right
 * after the current thread's cpu_run. */
static int run(rp_replay *rp, const struct rp__goal *goal,
               struct rp_stop *stop) {
  struct cpu_exit why;
  struct rw_diag diag;
  const u64 until = goal->icount;
  const int flags = goal->flags;
  const int take_kf = !(flags & RP__NO_KEYFRAMES);
  int stop_at_user = flags & RP__USER;
  u64 start = rp->icount;
  u32 delivered = 0; /* the thread a signal was delivered to since the
                        start: its handler's first instruction is not
                        where the run started */
  for (;;) {
    int stopped = 0;
    struct rp__thread *t = NULL;
    if (rp->health.broken) {
      *stop = rp->health.broken_stop;
      return 0;
    }
    if (rp->fin.ended) {
      *stop = rp->fin.end;
      return 0;
    }
    if (!rp->trace.have_pend) {
      memset(&diag, 0, sizeof diag);
      int rc = rp__fetch(rp, &diag);
      if (rc == RW_ETRUNC) { /* records a recorder that died never wrote */
        char msg[sizeof diag.msg + 32];
        snprintf(msg, sizeof msg, "the trace ends here: %s", diag.msg);
        end_history(rp, RP_END_CUT, 0, msg);
        continue;
      }
      if (rc < 0) {
        if (!diag.code) rw_diag_set(&diag, rc, 0, "%s", rw_strerror(rc));
        return rp__damaged(rp, stop, &diag);
      }
      if (rc == 0) {
        end_history(rp, RP_END_CUT, 0,
                    "the trace ends here, before the program did");
        continue;
      }
    }
    proc_for(rp, &rp->trace.pend);
    int signo, stops;
    if (RW_UNLIKELY(rp->trace.pend.type == TRACE_REC_SIGNAL) &&
        signal_now(rp, &t, &signo, &stops)) {
      /* A seek to a signal stop's position ends before the delivery. */
      if (goal->events && rp->icount == until &&
          rp->trace.events >= goal->events) {
        if (t != rp->th.thr) set_cur(rp, t);
        fill_stop(rp, stop, RP_STOP_TARGET);
        return 0;
      }
      if ((flags & RP__SIGNALS) && stops &&
          (rp->icount != start || (flags & RP__USER_AT_START) ||
           rp->icount != rp->user.sig_seen_icount ||
           rp->trace.events != rp->user.sig_seen)) {
        if (t != rp->th.thr) set_cur(rp, t);
        fill_stop(rp, stop, RP_STOP_SIGNAL);
        stop->signo = signo;
        rp->user.sig_seen_icount = rp->icount;
        rp->user.sig_seen = rp->trace.events;
        return 0;
      }
      t = NULL;
    }
    u32 to = rp->trace.pend.type == TRACE_REC_SIGNAL ? rp->trace.pend.tid
                                                      : 0;
    int rc = apply_now(rp, &rp->trace.pend, &stopped, &t);
    if (rc < 0 && rp->health.damage.code)
      return rp__damaged(rp, stop, &rp->health.damage);
    if (rc < 0) {
      rp__fail(rp, stop, "cannot apply record %llu (%s) of thread %u: %s",
               (unsigned long long)rp->trace.pend.seq,
               trace_record_name(rp->trace.pend.type) ?: "?",
               rp->trace.pend.tid,
               rp->health.why[0] ? rp->health.why : rw_strerror(rc));
      rp->health.why[0] = 0;
      return 0;
    }
    if (rc == 1) {
      if (to) delivered = to;
      if (!rp->health.broken) consume(rp);
      if (stopped) {
        *stop = rp->health.broken ? rp->health.broken_stop : rp->fin.end;
        return 0;
      }
      if (rp->icount >= rp->tl.next_kf && take_kf) RW_FORWARD(rp__kf_take(rp));
      continue;
    }
    /* An execution point of thread T: run T until it gets there. */
    if (t != rp->th.thr) set_cur(rp, t);
    rp->pt_icount = rp->icount;
    rp->pt_events = rp->trace.events;
    if (RW_UNLIKELY(rp->user.fork_seen)) { /* neither has run since */
      struct rp__proc *kid = rp->user.fork_seen;
      rp->user.fork_seen = NULL;
      fill_stop(rp, stop, RP_STOP_FORK);
      stop->child = kid->pid;
      if (rp__thread_find(rp, rp->user.fork_tid))
        stop->tid = rp->user.fork_tid;
      return 0;
    }
    if (RW_UNLIKELY(rp->user.exec_seen) && rp__users(rp, t->proc)) {
      rp->user.exec_seen = 0; /* its new program is about to run */
      fill_stop(rp, stop, RP_STOP_EXEC);
      return 0;
    }
    /* A syscall's return and a kernel write come after a fork or an exec
     * at the same point, whose stops the next run would forget; they wait
     * for the next run, as long as nothing ran since. */
    if (RW_UNLIKELY(rp->user.sys_ret)) {
      /* A syscall returned: stop here, unless a run without syscall stops
       * went on since. */
      if (rp->icount != rp->user.sys_ret_icount) {
        rp->user.sys_ret = 0;
      } else if (flags & RP__SYSCALLS) {
        rp->user.sys_ret = 0;
        fill_stop(rp, stop, RP_STOP_SYSCALL);
        stop->sys_nr = rp->user.sys_ret_nr;
        if (rp__thread_find(rp, rp->user.sys_ret_tid))
          stop->tid = rp->user.sys_ret_tid;
        return 0;
      }
    }
    if (RW_UNLIKELY(rp->user.mem_hit) &&
        (rp->icount != rp->user.mem_hit_at || !(flags & RP__USER))) {
      /* A run that went on since, or one that does not stop for it. */
      if (rp->icount != rp->user.mem_hit_at) rp->user.mem_hit = 0;
    } else if (RW_UNLIKELY(rp->user.mem_hit)) { /* the kernel wrote */
      rp->user.mem_hit = 0;
      fill_stop(rp, stop, RP_STOP_WATCHPOINT);
      stop->addr = rp->user.mem_hit_addr;
      stop->watch_size = rp->user.mem_hit_size;
      stop->watch_kind = CPU_WATCH_WRITE;
      stop->by_kernel = 1;
      stop->before_icount = rp->user.mem_hit_icount;
      stop->before_event = rp->user.mem_hit_events;
      if (rp__thread_find(rp, rp->user.mem_hit_tid))
        stop->tid = rp->user.mem_hit_tid;
      return 0;
    }
    if (RW_UNLIKELY(goal->proc_pid) && t->proc->pid == goal->proc_pid &&
        rp->trace.last_seq >= goal->proc_seq) {
      fill_stop(rp, stop, RP_STOP_TARGET);
      return 0;
    }
    t->st.fresh = 0;
    if (rp->trace.pend.type == TRACE_REC_PREEMPT) {
      int match, cycle;
      t->st.located = 0;
      /* The recorder may stop the thread after the exit of a syscall the
       * kernel restarts, once the kernel has moved it back to the syscall
       * instruction: the PREEMPT is there, and no instruction ran since.
       * (A stop before the restart, at a signal, has the exit's rip.) */
      if (t->st.restart) {
        u64 want;
        RW_FORWARD(rp__preempt_rip(rp, &want));
        if (want == cpu_rip(t->cpu) - 2) RW_FORWARD(apply_restart(rp, t));
      }
      RW_FORWARD(rp__preempt_matches(rp, t, &match, &cycle));
      if (cycle)
        return rp__diverge(
            rp, stop, &rp->search.pre_regs,
            "thread %u is back at the recorded registers of the "
            "asynchronous stop (end of timeslice or signal) the recording "
            "has next, at rip %#llx, with its memory unchanged since an "
            "earlier arrival whose memory differed from the recording's "
            "(digest): it runs in a loop that never gets there",
            t->st.tid, (unsigned long long)rp->search.pre_regs.rip);
      if (match) {
        RW_FORWARD(rp__clear_preempt_bp(rp));
        t->st.located = 1;
        t->st.restart = 0;
        rp->checks++;
        consume(rp);
        reached(rp);
        continue;
      }
      RW_FORWARD(rp__set_preempt_bp(rp, t));
    } else {
      t->st.located = 0;
      RW_FORWARD(apply_restart(rp, t));
    }
    if (rp->icount >= until &&
        (rp->icount > until || rp->trace.events >= goal->events)) {
      fill_stop(rp, stop, RP_STOP_TARGET);
      return 0;
    }
    /* Back where the replay broke before: it breaks there again. */
    if (RW_UNLIKELY(rp->health.has_limit) &&
        rp->icount >= rp->health.limit_stop.icount) {
      rp->health.broken = 1;
      rp->health.broken_stop = *stop = rp->health.limit_stop;
      return 0;
    }
    u64 own = cpu_icount(t->cpu);
    int stepped = RW_UNLIKELY(goal->step_tid) &&
                  t->st.tid == goal->step_tid &&
                  t->st.start_seq == goal->step_seq;
    /* A debugger's step that delivered a signal to its thread ends at the
     * handler's first instruction, as a live process's step does. */
    if (RW_UNLIKELY(goal->step_tid) &&
        (rp->step_gone ||
         (stepped && (own >= goal->step_count ||
                      ((flags & RP__SIGNALS) && delivered == t->st.tid))))) {
      fill_stop(rp, stop, RP_STOP_TARGET);
      return 0;
    }
    if (stop_at_user &&
        (rp->icount != start || (flags & RP__USER_AT_START) ||
         delivered == t->st.tid) &&
        at_user_bp(rp, t)) {
      struct rw_regs regs;
      cpu_get_regs(t->cpu, &regs);
      fill_stop(rp, stop, RP_STOP_BREAKPOINT);
      stop->addr = regs.rip;
      return 0;
    }
    /* A syscall's entry stops once: a run from there goes on. */
    if (RW_UNLIKELY(flags & RP__SYSCALLS) &&
        rp->trace.pend.type == TRACE_REC_SYSCALL_ENTER &&
        (rp->icount != start || (flags & RP__USER_AT_START) ||
         rp->icount != rp->user.sys_seen_icount ||
         rp->trace.events != rp->user.sys_seen)) {
      int at;
      u64 nr;
      RW_FORWARD(rp__sys_entry_at(rp, t, &at, &nr));
      if (at) {
        fill_stop(rp, stop, RP_STOP_SYSCALL);
        stop->sys_nr = (u32)nr;
        stop->sys_entry = 1;
        rp->user.sys_seen_icount = rp->icount;
        rp->user.sys_seen = rp->trace.events;
        return 0;
      }
    }
    /* At the target with records still to reach (a fault whose signal is
     * delivered there), run the faulting instruction: it does not count. */
    u64 budget = until > rp->icount ? until - rp->icount : 1;
    if (rp->tl.next_kf > rp->icount)
      budget = RW_MIN(budget, rp->tl.next_kf - rp->icount);
    if (stop_at_user && rp->user.poll) budget = RW_MIN(budget, RP_POLL_SLICE);
    if (stepped) budget = RW_MIN(budget, goal->step_count - own);
    if (RW_UNLIKELY(rp->health.has_limit))
      budget = RW_MIN(budget, rp->health.limit_stop.icount - rp->icount);
    u64 fp_at = 0; /* the thread's count at a search's next fingerprint */
    if (rp->trace.pend.type == TRACE_REC_PREEMPT) {
      fp_at = rp__cycle_next(rp, t);
      budget = fp_at > own ? RW_MIN(budget, fp_at - own) : 1;
    }
    /* Observers see the thread's count; this gives them the global one. */
    rp->run_icount = rp->icount;
    /* Rep stops: only a debugger's run of its processes stops there. */
    int rep_mode = stop_at_user && !stepped && rp__users(rp, t->proc)
                       ? rp->user.rep_stops
                       : 0;
    int cpu_mode = rep_mode == RP_REP_START ? CPU_REP_STOP_START
                   : rep_mode == RP_REP_END ? CPU_REP_STOP_END
                                            : 0;
    cpu_mem_rep_stops(t->proc->mem, cpu_mode);
    rp->run_own = own;
    rc = cpu_run(t->cpu, budget, &why);
    RW_FORWARD(rc);
    u64 ran = cpu_icount(t->cpu) - own;
    rp->icount += ran;
    rp->executed += ran;
    rp__progress(rp, 0);
    switch (why.reason) {
      case CPU_EXIT_BUDGET:
      case CPU_EXIT_STOP:
        if (fp_at && cpu_icount(t->cpu) >= fp_at) {
          u64 since;
          RW_FORWARD(rp__cycle_check(rp, t, &since));
          if (since)
            return rp__diverge(
                rp, stop, &rp->search.pre_regs,
                "thread %u runs in a loop that never reaches the "
                "asynchronous stop (end of timeslice or signal) the "
                "recording has next, at rip %#llx: its registers and "
                "writable memory after %llu of its instructions are those "
                "after %llu, and it makes no syscall in between",
                t->st.tid, (unsigned long long)rp->search.pre_regs.rip,
                (unsigned long long)cpu_icount(t->cpu),
                (unsigned long long)since);
        }
        if (rp->icount >= rp->tl.next_kf && take_kf)
          RW_FORWARD(rp__kf_take(rp));
        if (why.reason == CPU_EXIT_STOP) {
          fill_stop(rp, stop, RP_STOP_TARGET);
          return 0;
        }
        if (stop_at_user && rp->user.poll && rp->icount < until &&
            rp->user.poll(rp->user.poll_ctx)) {
          fill_stop(rp, stop, RP_STOP_INTERRUPTED);
          return 0;
        }
        continue;
      case CPU_EXIT_BREAKPOINT:
        if ((rp->trace.pend.type == TRACE_REC_PREEMPT ||
             rp->trace.pend.type == TRACE_REC_SYSCALL_ENTER) &&
            why.rip == rp->search.preempt_bp &&
            !(stop_at_user && rp__user_bp_at(rp, t->proc, why.rip)))
          continue; /* checked at the top of the loop */
        /* A vfork child of the debugger's process runs in its memory,
         * breakpoints included: they are that process's alone. */
        if (stop_at_user && rp__user_bp_at(rp, t->proc, why.rip)) {
          fill_stop(rp, stop, RP_STOP_BREAKPOINT);
          stop->addr = why.rip;
          return 0;
        }
        continue;
      case CPU_EXIT_WATCHPOINT:
        if (!stop_at_user ||
            !rp__user_watch_hit(rp, t->proc, why.watch_addr, why.watch_size))
          continue;
        fill_stop(rp, stop, RP_STOP_WATCHPOINT);
        stop->addr = why.watch_addr;
        stop->watch_size = why.watch_size;
        stop->watch_kind = why.watch_kind;
        return 0;
      case CPU_EXIT_SYSCALL:
        RW_FORWARD(on_syscall(rp, t, &why, stop, &stopped));
        if (!stopped) reached(rp);
        break;
      case CPU_EXIT_RDTSC:
        RW_FORWARD(on_rdtsc(rp, t, &why, stop, &stopped));
        if (!stopped) reached(rp);
        break;
      case CPU_EXIT_FAULT:
        if (why.fault == CPU_FAULT_PF && why.maperr) {
          /* Below a stack: the kernel grows it and the access runs again
           * (it did not complete, so it has not been counted). */
          int grew;
          RW_FORWARD(rp__stack_grow(rp, why.addr, &grew));
          if (grew) continue;
        }
        int vs = on_vsyscall(rp, t, &why, stop, &stopped);
        if (vs < 0) return vs;
        if (vs) {
          if (!stopped) reached(rp);
          break;
        }
        RW_FORWARD(on_fault(rp, t, &why, stop, &stopped));
        break;
      case CPU_EXIT_CPUID:
        rp__fail(rp, stop, "thread %u: cpuid at %#llx has no recorded answer",
                 t->st.tid, (unsigned long long)why.rip);
        return 0;
      case CPU_EXIT_NONDET:
        RW_FORWARD(on_nondet(rp, t, &why, stop, &stopped));
        if (stopped) return 0;
        reached(rp);
        break;
      case CPU_EXIT_XBEGIN:
        RW_FORWARD(on_xbegin(rp, t, &why, stop, &stopped));
        if (stopped) return 0;
        reached(rp);
        break;
      case CPU_EXIT_UNSUPPORTED:
        rp__fail(rp, stop, "thread %u: %s", t->st.tid, why.msg);
        return 0;
      case CPU_EXIT_REP:
        /* At the start of a run, the rep instruction it starts at runs
         * (cpu_run runs it next time), as a breakpoint there is passed. */
        if (!why.rep_end && rp->icount == start &&
            !(flags & RP__USER_AT_START))
          continue;
        fill_stop(rp, stop, RP_STOP_REP);
        stop->rep_end = why.rep_end;
        stop->addr = why.rep_end ? why.rip - why.insn_len : why.rip;
        return 0;
      default:
        rp__fail(rp, stop, "the emulator stopped for an unknown reason %d",
                 why.reason);
        return 0;
    }
    if (stopped) return 0;
  }
}

int rp__run(rp_replay *rp, const struct rp__goal *goal,
            struct rp_stop *stop) {
  /* The goal is the run's own: apply_now and thread_exited read it to see
   * a step thread go. */
  rp->goal = goal;
  rp->step_gone = 0;
  rp->user.exec_seen = 0;
  rp->user.fork_seen = NULL;
  int rc = run(rp, goal, stop);
  rp->goal = NULL;
  return rc;
}
