/* SPDX-License-Identifier: MIT */
/* The event loop and the scheduler. One thread of PROG runs user code at a
 * time (DESIGN.md section 2); the others are stopped by ptrace, or inside a
 * syscall that may block, which the kernel runs meanwhile. The loop waits
 * for the next ptrace stop: a stop of the running thread is handled at once
 * (syscall entry or exit, exec, fork, clone, signal, handler entry, group
 * stop, exit); a stop of another thread waits until the scheduler picks that
 * thread. Threads switch where the one left behind has an event: at a
 * syscall, or at a PREEMPT when its timeslice is over and another thread is
 * ready. The handlers record one event each through the record encoders, so
 * a later in-process syscall buffer can feed them batches of completed
 * syscalls without changing the trace. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/seccomp.h>
#include <sys/ptrace.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorder/rec_int.h"

volatile sig_atomic_t rec__tick;
volatile sig_atomic_t rec__stop_sig;
volatile sig_atomic_t rec__stop_pid;
volatile sig_atomic_t rec__int_pending;
volatile sig_atomic_t rec__int_pid;

/* What a handled stop leaves the thread doing. */
enum go {
  GO_RUN,    /* resume it in user code (it stays the running thread) */
  GO_KERNEL, /* resume it into a syscall that may block; switch */
  GO_YIELD,  /* leave it stopped, ready; switch */
  GO_HOLD,   /* it stays in a group stop (PTRACE_LISTEN); switch */
  GO_GONE    /* it is gone; switch */
};

#define REC_SEC 1000000000ull

/* The clock of flushes and held threads: CLOCK_MONOTONIC to a jiffy.
 * The vDSO reads it without rdtsc, which the recorder traps for itself
 * (tscself.c): each rdtsc there costs a SIGSEGV and two prctl calls.
 * Timeslices are measured in ticks (slice_over). */
static u64 coarse_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

void rec__tick_arm(struct rec *r) {
  size_t live = 0;
  for (size_t i = 0; i < r->nth; i++)
    live += r->th[i]->state != REC_T_GONE;
  u64 ns = REC_SEC;
  if (live > 1) ns = RW_MAX(r->timeslice_ns / 4, 1000000ull);
  if (ns > REC_SEC) ns = REC_SEC;
  /* Keyframes are found due at ticks; a ring's segments fill. */
  if (r->kf.interval_ns && ns > r->kf.interval_ns) ns = r->kf.interval_ns;
  if (r->ring.bytes && ns > REC_SEC / 20) ns = REC_SEC / 20;
  /* --duration ends the recording on time even while nothing stops. */
  if (r->opts && r->opts->duration_s && ns > REC_SEC / 10) ns = REC_SEC / 10;
  struct itimerval it, was;
  it.it_interval.tv_sec = (time_t)(ns / REC_SEC);
  it.it_interval.tv_usec = (suseconds_t)(ns % REC_SEC / 1000);
  it.it_value = it.it_interval;
  /* Armed again at every thread or process made or gone: a program that
   * forks faster than the period must not push the next tick away each
   * time (keyframes and timeslices would never come). The period asked
   * for before is compared, not the one the kernel reports (it may round
   * it to its clock's); the tick that is coming stays when it comes
   * sooner than a whole new period. */
  if (getitimer(ITIMER_REAL, &was) == 0 &&
      (was.it_value.tv_sec || was.it_value.tv_usec)) {
    if (ns == r->tick_ns) return;
    u64 left = (u64)was.it_value.tv_sec * REC_SEC +
               (u64)was.it_value.tv_usec * 1000;
    if (left < ns) it.it_value = was.it_value;
  }
  r->tick_ns = ns;
  setitimer(ITIMER_REAL, &it, NULL);
}

/* 1 for signals whose default action dumps core: a crash. */
static int is_crash(int sig) {
  switch (sig) {
    case SIGQUIT:
    case SIGILL:
    case SIGTRAP:
    case SIGABRT:
    case SIGBUS:
    case SIGFPE:
    case SIGSEGV:
    case SIGSYS:
    case SIGXCPU:
    case SIGXFSZ:
      return 1;
    default:
      return 0;
  }
}

/* Syscalls that never wait for another thread or process: the thread that
 * makes one stays the running thread. Every other syscall may block (read
 * from a pipe, futex wait, poll, nanosleep, accept, open of a FIFO...), so
 * it runs in the kernel while another thread runs user code. Guessing
 * "may block" wrongly costs a thread switch; guessing "quick" wrongly would
 * deadlock. */
static int is_quick(const struct rec__task *t) {
  if (t->snap || t->fake || (t->sc_flags & REC_SC_MAPS)) return 1;
  switch (t->nr) {
    case REC_NR_close:
    case REC_NR_stat:
    case REC_NR_fstat:
    case REC_NR_lstat:
    case REC_NR_lseek:
    case REC_NR_rt_sigaction:
    case REC_NR_rt_sigprocmask:
    case REC_NR_rt_sigreturn:
    case REC_NR_access:
    case REC_NR_dup:
    case REC_NR_dup2:
    case REC_NR_getpid:
    case REC_NR_clone:
    case REC_NR_fork:
    case REC_NR_vfork:
    case REC_NR_execve:
    case REC_NR_exit:
    case REC_NR_kill:
    case REC_NR_uname:
    case REC_NR_getcwd:
    case REC_NR_readlink:
    case REC_NR_umask:
    case REC_NR_gettimeofday:
    case REC_NR_getrlimit:
    case REC_NR_sysinfo:
    case REC_NR_getuid:
    case REC_NR_getgid:
    case REC_NR_geteuid:
    case REC_NR_getegid:
    case REC_NR_getppid:
    case REC_NR_sigaltstack:
    case REC_NR_prctl:
    case REC_NR_arch_prctl:
    case REC_NR_gettid:
    case REC_NR_tkill:
    case REC_NR_time:
    case REC_NR_sched_getaffinity:
    case REC_NR_set_tid_address:
    case REC_NR_clock_gettime:
    case REC_NR_clock_getres:
    case REC_NR_exit_group:
    case REC_NR_tgkill:
    case REC_NR_newfstatat:
    case REC_NR_set_robust_list:
    case REC_NR_dup3:
    case REC_NR_prlimit64:
    case REC_NR_getrandom:
    case REC_NR_execveat:
    case REC_NR_statx:
    case REC_NR_rseq:
    case REC_NR_clone3:
    case REC_NR_sched_yield: /* the switch is at its exit */
      return 1;
    case REC_NR_fcntl: /* except waiting for a lock */
      return t->args[1] != 7 && t->args[1] != 38;
    case REC_NR_futex: /* the wake operations */
      switch (t->args[1] & 0x7f) {
        case 1:  /* FUTEX_WAKE */
        case 3:  /* FUTEX_REQUEUE */
        case 4:  /* FUTEX_CMP_REQUEUE */
        case 5:  /* FUTEX_WAKE_OP */
        case 7:  /* FUTEX_UNLOCK_PI */
        case 10: /* FUTEX_WAKE_BITSET */
          return 1;
        default:
          return 0;
      }
    default:
      return 0;
  }
}

/* A thread other than the current one that is ready to run. */
static int others_ready(struct rec *r) {
  for (size_t i = 0; i < r->nth; i++)
    if (r->th[i] != r->cur && r->th[i]->state == REC_T_READY) return 1;
  return 0;
}

/* The next ready thread after the last one picked, or NULL. */
static struct rec__task *pick(struct rec *r) {
  for (size_t k = 1; k <= r->nth; k++) {
    size_t i = (r->rr + k) % r->nth;
    if (r->th[i]->state == REC_T_READY) {
      r->rr = i;
      return r->th[i];
    }
  }
  return NULL;
}

/* Whether the current thread's timeslice is over with others waiting.
 * Slices are measured in ticks (the slice clock), not read from a clock:
 * CLOCK_MONOTONIC_COARSE moves once a jiffy (4 ms here), and a slice that
 * only a jiffy could end would end wherever its phase against the ticks
 * put it, at a syscall exit in one recording and at a tick in the next. A
 * preemption point digests the process's writable memory, which takes
 * long with a large heap (about 0.2 s a GB here): unless --timeslice was
 * given, a slice lasts at least 4 times what the last point cost, so
 * that points take at most a fifth of the time, up to a second. */
static int slice_over(struct rec *r) {
  u64 slice = r->timeslice_ns;
  if (r->slice_auto)
    slice = RW_MAX(slice, RW_MIN(4 * r->preempt_ns, REC_SEC));
  return others_ready(r) &&
         r->slice_clock_ns - r->cur->slice_start_ns >= slice;
}

static int on_status(struct rec *r, pid_t p, int st);

/* Records the syscall exits that other threads have reached, so that the
 * memory the kernel wrote for them is in the trace before a digest covers
 * it: the replay applies it at their SYSCALL_EXIT, which then comes first.
 * The current thread is stopped. */
static int settle(struct rec *r) {
  struct rec__task *cur = r->cur;
  int st;
  pid_t p;
  while ((p = waitpid(-1, &st, __WALL | WNOHANG)) > 0)
    RW_FORWARD(on_status(r, p, st));
  struct rec__proc *proc = r->proc;
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *t = r->th[i];
    if (t == cur || !t->has_pend || !t->in_syscall || t->proc != proc ||
        WSTOPSIG(t->pend_status) != (SIGTRAP | 0x80))
      continue;
    rec__set_cur(r, t);
    t->has_pend = 0;
    int rc = rec__sys_exit(r);
    rec__set_cur(r, cur);
    r->proc = proc;
    RW_FORWARD(rc);
  }
  return 0;
}

/* Whether syscall NR with ARGS, blocked in, writes nothing to memory before
 * it returns to the program: a killed thread never returns, so it wrote
 * nothing (its sleep's remaining time, for instance). */
static int writes_nothing_blocked(u64 nr, const u64 args[6]) {
  switch (nr) {
    case REC_NR_futex:
      return (args[1] & 0x7f) == 0 || (args[1] & 0x7f) == 9; /* WAIT(_BITSET) */
    case REC_NR_nanosleep:
    case REC_NR_clock_nanosleep:
    case REC_NR_pause:
    case REC_NR_rt_sigsuspend:
    case REC_NR_sched_yield:
    case REC_NR_kill: /* raise, abort: the signal that kills it */
    case REC_NR_tkill:
    case REC_NR_tgkill:
      return 1;
    default:
      return 0;
  }
}

/* Whether a live thread is inside a syscall that may already have written
 * memory: its SYSCALL_EXIT, with the imports, will never be recorded. */
static int may_have_written(struct rec *r) {
  for (size_t i = 0; i < r->nth; i++) {
    const struct rec__task *t = r->th[i];
    if (t->state != REC_T_GONE && t->in_syscall && t->proc == r->proc &&
        !writes_nothing_blocked(t->nr, t->args))
      return 1;
  }
  return 0;
}

/* The memory digest of an asynchronous point or of the end, with the dead
 * range of a thread whose stack pointer is RSP (0: none), leaving out the
 * shared memory that processes rewind does not record may be writing
 * (recorder/watch.c) and the dead stacks of the other threads. A stack may
 * have grown since the maps were last read (no syscall tells): they are
 * read again first, so that the digest covers what the replay has, and a
 * GROW in the current thread's stream says so before the point. */
static int fresh_digest(struct rec *r, u64 rsp, u64 *digest,
                        struct rw_digest_spec *spec) {
  if (r->cur) {
    static const u64 none[6];
    RW_FORWARD(rec__space_after(r, ~0ull, none, 0));
  }
  memset(spec, 0, sizeof *spec);
  spec->kind = RW_DIGEST_LANES; /* the trace's metadata says so */
  if (rsp) rec__dead_stack(r, rsp, &spec->dead_lo, &spec->dead_hi);
  RW_FORWARD(rec__watch_skips(r, spec));
  RW_FORWARD(rec__stack_deads(r, rsp, spec));
  return rec__digest(r, spec, digest);
}

int rec__end_digest(struct rec *r, int how) {
  /* END describes the root; the other processes end with their EXITs. */
  if (r->end_decided || r->proc != &r->root) return 0;
  r->end_decided = 1;
  if (how == REC_END_SIGNALED && may_have_written(r)) return 0;
  u64 t0 = rw_now_ns();
  if (how == REC_END_EXIT_GROUP) RW_FORWARD(settle(r));
  /* At exit or exit_group the thread's stack pointer is the one at the
   * syscall's entry; a process killed by a signal gets no dead range. */
  u64 rsp = how != REC_END_SIGNALED && r->cur ? r->cur->entry.gpr[RW_REG_rsp]
                                                : 0;
  RW_FORWARD(fresh_digest(r, rsp, &r->end_digest, &r->end_spec));
  r->end_have = 1;
  r->n.digest_ns += rw_now_ns() - t0;
  return 0;
}

int rec__proc_digest(struct rec *r) {
  struct rec__proc *p = r->proc;
  /* A vfork child that has not exec'd runs in its parent's memory, on its
   * parent's stack: the parent's threads would be part of its digest. */
  if (p == &r->root || p->digested || p->maps != &p->maps_own || !r->cur)
    return 0;
  p->digested = 1;
  u64 t0 = rw_now_ns(), digest;
  struct rw_digest_spec spec;
  RW_FORWARD(settle(r));
  RW_FORWARD(fresh_digest(r, r->cur->entry.gpr[RW_REG_rsp], &digest, &spec));
  r->n.digest_ns += rw_now_ns() - t0;
  return rec__emit_digest(r, digest, &spec);
}

/* The digest of T's process, not the first, as a signal kills it: taken
 * at the exit event of its first thread to go (no thread has left the
 * address space yet), written in the EXIT that ends it (on_final). None
 * when a thread may have been inside a syscall that wrote memory, and
 * none for a vfork child in its parent's memory (rec__proc_digest). */
static int killed_digest(struct rec *r, struct rec__task *t) {
  struct rec__proc *p = t->proc;
  if (p == &r->root || p->digested || p->maps != &p->maps_own ||
      may_have_written(r))
    return 0;
  p->digested = 1;
  struct rw_digest_spec *spec = malloc(sizeof *spec);
  if (!spec) return RW_ENOMEM;
  u64 t0 = rw_now_ns();
  struct rec__task *was = r->cur; /* a GROW it needs goes in T's stream */
  r->cur = t;
  int rc = fresh_digest(r, 0, &p->killed_digest, spec);
  r->cur = was;
  r->n.digest_ns += rw_now_ns() - t0;
  if (rc < 0) {
    free(spec);
    return rc;
  }
  p->killed = spec;
  return 0;
}

int rec__preempt(struct rec *r) {
  struct rec__task *t = r->cur;
  struct rw_digest_spec spec;
  u64 digest, t0 = rw_now_ns();
  RW_FORWARD(settle(r));
  RW_FORWARD(rec__regs_get(r, t->tid, &t->regs, 1));
  RW_FORWARD(fresh_digest(r, t->regs.gpr[RW_REG_rsp], &digest, &spec));
  r->preempt_ns = rw_now_ns() - t0;
  r->n.digest_ns += r->preempt_ns;
  r->n.preempts++;
  RW_FORWARD(rec__emit_preempt(r, &t->regs, digest, &spec));
  /* What unrecorded processes wrote to the memory the digest left out
   * arrives here, after the point the replay finds without it. */
  return rec__watch_check(r);
}

/* Whether a thread of T's process other than T has not reached its exit
 * event yet (T NULL: any thread of P). */
static int others_alive(const struct rec *r, const struct rec__proc *p,
                        const struct rec__task *t) {
  for (size_t i = 0; i < r->nth; i++) {
    const struct rec__task *h = r->th[i];
    if (h != t && h->proc == p && h->state != REC_T_GONE && !h->at_exit)
      return 1;
  }
  return 0;
}

/* Every thread of P killed by a signal has reached its exit event (the
 * running one located there): those held there go on dying. */
static void release_held(struct rec *r, struct rec__proc *p) {
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *h = r->th[i];
    if (h->proc != p || !h->exit_held) continue;
    h->exit_held = 0;
    ptrace(PTRACE_CONT, h->tid, 0, 0);
  }
}

/* PTRACE_EVENT_EXIT of T: the thread is about to go, its memory still
 * there. T may be a thread of another process than the one being handled
 * (a child killed while its parent runs): what follows is about T's. */
static int on_exit_event(struct rec *r, struct rec__task *t) {
  unsigned long msg = 0;
  if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg) < 0) return 0;
  int st = (int)msg;
  if (!WIFSIGNALED(st)) return 0;
  int sig = WTERMSIG(st);
  if (!t->proc) return 0; /* a child not taken on yet */
  t->at_exit = 1;
  struct rec__proc *was = r->proc;
  r->proc = t->proc;
  t->proc->dying = 1;
  int rc = rec__sys_killed(r, t);
  /* The running thread killed from outside without a delivery stop
   * (SIGKILL): locate it. The others stand at their last event. */
  if (rc == 0 && t == r->cur && t->state == REC_T_RUNNING &&
      t->sync_signo != sig && t->sync_signo != -sig && !t->in_syscall) {
    rc = rec__preempt(r);
    t->sync_signo = -sig;
  }
  /* The first thread to go: no thread has left the address space yet
   * (each waits at this stop until the recorder lets it go). */
  if (rc == 0) rc = rec__end_digest(r, REC_END_SIGNALED);
  if (rc == 0) rc = killed_digest(r, t);
  int root = t->proc == &r->root;
  if (rc == 0 && is_crash(sig) && !r->opts->quiet &&
      (!root || !r->crash_reported) &&
      (t->sync_signo == sig || t == r->cur)) {
    if (root)
      rw_log(RW_LOG_ERROR, "%s crashed with signal %d (%s); backtrace:",
             r->prog_name, sig, strsignal(sig));
    else
      rw_log(RW_LOG_ERROR,
             "%s's child process %d crashed with signal %d (%s); "
             "backtrace:",
             r->prog_name, (int)t->proc->pid, sig, strsignal(sig));
    rec__backtrace(t->tid, r->prog_name);
    if (root) r->crash_reported = 1;
  }
  r->proc = was;
  if (t == r->cur && !others_alive(r, t->proc, t)) release_held(r, t->proc);
  return rc;
}

/* Whether a signal the thread TID does not block waits in its own queue.
 * The kernel reports a PTRACE_INTERRUPT before the signal an instruction
 * raised just before it: after an int3 (the program's, or the one in place
 * of an rdtsc) the registers then stand past the instruction with its
 * signal still to come, a point the replay never reaches (it raises the
 * signal as it executes the int3). A blocked signal can wait forever, and
 * must not keep the thread from being preempted. */
static int signal_waits(pid_t tid) {
  siginfo_t si[32];
  struct __ptrace_peeksiginfo_args a = {.off = 0, .flags = 0, .nr = 32};
  long n = ptrace(PTRACE_PEEKSIGINFO, tid, &a, si);
  if (n <= 0) return 0;
  u64 blocked = 0;
  if (ptrace(PTRACE_GETSIGMASK, tid, sizeof blocked, &blocked) < 0)
    return 1;
  for (long i = 0; i < n; i++)
    if (si[i].si_signo >= 1 && si[i].si_signo <= 64 &&
        !(blocked >> (si[i].si_signo - 1) & 1))
      return 1;
  return 0; /* (beyond 32 queued: a later interrupt may find it) */
}

/* PTRACE_INTERRUPT's stop of the running thread: its timeslice is over.
 * Records where it is (PREEMPT) and switches, unless nobody else is ready,
 * the kernel is about to restart a syscall there (the replay would never
 * see these registers: it restarts at once), or a signal of the thread is
 * about to be delivered (its stop comes next; a later tick interrupts
 * again). */
static int on_interrupt(struct rec *r, struct rec__task *t) {
  if (t->step_signo || (!others_ready(r) && !r->kf.due)) return GO_RUN;
  RW_FORWARD(rec__regs_get(r, t->tid, &t->regs, 1));
  i64 rax = (i64)t->regs.gpr[RW_REG_rax];
  if (t->regs.orig_rax != ~0ull && rax >= -516 && rax <= -512) return GO_RUN;
  if (signal_waits(t->tid)) return GO_RUN;
  RW_FORWARD(rec__preempt(r));
  return GO_YIELD;
}

/* A group stop (SIGSTOP, or Ctrl-Z's SIGTSTP) of T. */
static int on_group_stop(struct rec *r, struct rec__task *t, int sig) {
  (void)r;
  ptrace(PTRACE_LISTEN, t->tid, 0, 0);
  /* Stopped from rewind's terminal (Ctrl-Z, a background read or write):
   * stop rewind too, so the shell sees the job stopped; its SIGCONT
   * resumes both. A process in a session of its own was stopped by its
   * own terminal (a pty it opened): that is its business alone, and its
   * parent may be waiting to see it stopped. */
  if (sig != SIGSTOP && getsid(t->tid) == getsid(0)) kill(getpid(), SIGSTOP);
  return GO_HOLD;
}

static int is_group_stop_sig(int sig) {
  return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* PTRACE_EVENT_CLONE/FORK/VFORK of the current thread. */
static int on_clone_event(struct rec *r, int ev) {
  if (ev == PTRACE_EVENT_CLONE && (rec__clone_flags(r) & REC_CLONE_THREAD)) {
    unsigned long msg = 0;
    if (ptrace(PTRACE_GETEVENTMSG, r->cur->tid, 0, &msg) < 0) return 0;
    RW_FORWARD(rec__on_thread_clone(r, (pid_t)msg));
    rec__tick_arm(r);
    return 0;
  }
  return rec__on_fork_event(r, ev);
}

/* The entry of a syscall of the current thread T (a syscall-entry stop,
 * or the seccomp stop of rewind's filter). Returns an enum go or a
 * negative code. */
static int sys_entry(struct rec *r, struct rec__task *t) {
  int rc = rec__sys_enter(r);
  RW_FORWARD(rc);
  if (rc == 1) { /* a call into the vsyscall page */
    RW_FORWARD(rec__on_seccomp(r));
    return GO_RUN;
  }
  rec__forced_mask_lost(r, t->nr);
  if (t->fake) return GO_RUN;
  /* The history ends at exit_group's entry: what the kernel does after
   * (other threads' clear_child_tid words) no replay sees. */
  if (t->nr == REC_NR_exit_group) {
    RW_FORWARD(rec__end_digest(r, REC_END_EXIT_GROUP));
    RW_FORWARD(rec__proc_digest(r));
  }
  if (t->nr == REC_NR_exit) {
    RW_FORWARD(rec__thread_exit(r));
    rec__tick_arm(r);
    return GO_GONE;
  }
  if (t->nr == REC_NR_exit_group) r->proc->dying = 1;
  return is_quick(t) ? GO_RUN : GO_KERNEL;
}

/* A PTRACE_EVENT_SECCOMP stop of the current thread T. */
static int on_seccomp_stop(struct rec *r, struct rec__task *t) {
  /* Resumed with PTRACE_CONT, under rewind's filter alone (a filter of
   * the program's own makes every syscall stop at its entry): this is a
   * syscall's entry, or a call into the vsyscall page, which sys_entry
   * tells apart by its address, without PTRACE_GETEVENTMSG. */
  if (!t->in_syscall && rec__sb_cont(r, t)) return sys_entry(r, t);
  unsigned long data = 0;
  if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &data) < 0) return GO_RUN;
  data &= SECCOMP_RET_DATA;
  if (data == REC_SB_DATA) {
    /* Resumed with PTRACE_SYSCALL, the thread stopped at the entry
     * already: on into the kernel. Otherwise this is the entry. */
    if (t->in_syscall) return t->fake ? GO_RUN : GO_KERNEL;
    return sys_entry(r, t);
  }
  RW_FORWARD(rec__on_seccomp(r));
  return GO_RUN;
}

/* Handles stop ST of the current thread T. Returns an enum go or a negative
 * code; T->rsig and T->rstep say how to resume it. */
static int handle(struct rec *r, struct rec__task *t, int st) {
  int stopsig = WSTOPSIG(st), ev = st >> 16;
  t->rsig = 0;
  t->rstep = 0;
  /* Any ptrace stop cancels a PTRACE_INTERRUPT whose stop has not come
   * yet (the kernel clears its pending trap): a thread interrupted just
   * before a syscall stops there instead, and must be interruptible
   * again, or a slice that ends in a spin never ends. */
  t->interrupted = 0;
  if (t->step_signo && !(stopsig == SIGTRAP && ev == 0))
    t->step_signo = 0; /* the handler was not entered (bad stack...) */
  if (RW_UNLIKELY(t->rseq_live)) RW_FORWARD(rec__rseq_check(r, t));
  /* The thread ran user code since its last stop (unless it is inside a
   * syscall): the syscalls it logged come first. */
  if (!t->in_syscall) RW_FORWARD(rec__sb_drain(r));
  if (stopsig == (SIGTRAP | 0x80)) {
    /* Entry and exit stops alternate (an exec reports its event between
     * them, a restarted syscall exits before it enters again), so the
     * thread's state tells which this is without another ptrace call. */
    if (t->in_syscall) {
      u64 nr = t->nr;
      int rc = rec__sys_exit(r);
      if (rc == RW_ERR(ESRCH)) t->in_syscall = 1; /* killed inside it */
      RW_FORWARD(rc);
      /* sched_yield gives the other ready threads their turn first, as
       * the kernel's scheduler does on one CPU. */
      if (nr == REC_NR_sched_yield && others_ready(r)) return GO_YIELD;
      return slice_over(r) ? GO_YIELD : GO_RUN;
    }
    return sys_entry(r, t);
  }
  switch (ev) {
    case 0:
      break;
    case PTRACE_EVENT_EXEC:
      RW_FORWARD(rec__on_exec(r, 0));
      rec__tick_arm(r);
      return GO_RUN;
    case PTRACE_EVENT_FORK:
    case PTRACE_EVENT_VFORK:
    case PTRACE_EVENT_CLONE: {
      int rc = on_clone_event(r, ev);
      RW_FORWARD(rc);
      /* The parent of a recorded vfork child waits in the kernel until the
       * child execs or exits: the child runs meanwhile. */
      return rc > 0 ? GO_KERNEL : GO_RUN;
    }
    case PTRACE_EVENT_EXIT:
      RW_FORWARD(on_exit_event(r, t));
      return GO_RUN;
    case PTRACE_EVENT_SECCOMP:
      return on_seccomp_stop(r, t);
    case PTRACE_EVENT_STOP:
      if (is_group_stop_sig(stopsig)) return on_group_stop(r, t, stopsig);
      return on_interrupt(r, t);
    default:
      return GO_RUN;
  }
  if (stopsig == SIGTRAP && t->step_signo) {
    RW_FORWARD(rec__on_handler_entry(r));
    return GO_RUN;
  }
  RW_FORWARD(rec__on_signal(r, stopsig, &t->rsig, &t->rstep));
  return GO_RUN;
}

/* Resumes T in user code; it becomes the running thread. */
static int resume(struct rec *r, struct rec__task *t) {
  rec__set_cur(r, t);
  t->state = REC_T_RUNNING;
  rec__tsc_self_rearm();
  /* Outside a syscall under rewind's filter, the next syscall stops by
   * itself (recorder/sbuf.c). */
  int req = t->rstep                                    ? PTRACE_SINGLESTEP
            : !t->in_syscall && rec__sb_cont(r, t) ? PTRACE_CONT
                                                        : PTRACE_SYSCALL;
  if (ptrace(req, t->tid, 0, (void *)(long)t->rsig) < 0 &&
      errno != ESRCH)
    return RW_ERR(errno);
  return 0;
}

/* Carries out what handle() returned for the current thread T. */
static int on_status(struct rec *r, pid_t p, int st);

/* FUTEX_LOCK_PI or FUTEX_LOCK_PI2 of T, just resumed into the kernel. A
 * waiter that blocks has the kernel set FUTEX_WAITERS in the futex word
 * first, and the owner reads that bit with no syscall (it makes its
 * unlock go through the kernel). So the recorder waits until T sleeps
 * there (or stops at the syscall's exit, which imports the word anyway),
 * and imports the word's line before another thread runs. */
static int pi_settle(struct rec *r, struct rec__task *t) {
  u64 end = rw_now_ns() + REC_SEC / 10;
  for (;;) {
    int st;
    pid_t p = waitpid(t->tid, &st, __WALL | WNOHANG);
    if (p == t->tid) return on_status(r, p, st); /* exit stop: pending */
    if (p < 0 && errno != EINTR) return 0;
    char s = rec__proc_state(r, t->tid);
    if (!s) return 0;
    if (s == 'S' || s == 'D') break;
    if (rw_now_ns() > end) break; /* still running: import what is there */
    sched_yield();
  }
  u64 a = t->args[0] & ~(u64)(REC_LINE - 1);
  rec__set_cur(r, t); /* the record is the waiter's */
  int rc = rec__mem_import(r, a, REC_LINE);
  r->cur = NULL;
  return rc == RW_EFAULT ? 0 : rc;
}

static int is_pi_lock(const struct rec__task *t) {
  u64 op = t->args[1] & 0x7f; /* without FUTEX_PRIVATE_FLAG */
  return t->nr == REC_NR_futex && (op == 6 || op == 13);
}

static int go(struct rec *r, struct rec__task *t, int how) {
  /* A SIGKILL takes a thread out of its stop at any moment (another
   * process killed it while its stop was handled): ptrace then fails
   * with ESRCH. It stays the running thread; its exit event comes next
   * and ends it as killed. */
  if (how == RW_ERR(ESRCH) && t == r->cur && t->state == REC_T_RUNNING)
    return 0;
  if (how < 0) return how;
  if (how != GO_GONE && t->proc &&
      (t->proc->sb->want_busy || t->proc->sb->want_nofds)) {
    struct rec__proc *was = r->proc;
    rec__set_cur(r, t); /* the record is the thread's */
    int rc = rec__sb_settle(r);
    r->proc = was;
    RW_FORWARD(rc);
  }
  switch (how) {
    case GO_RUN:
      return resume(r, t);
    case GO_KERNEL:
      if (t->in_syscall) RW_FORWARD(rec__kf_entry(r, t));
      r->cur = NULL;
      t->state = REC_T_KERNEL;
      rec__tsc_self_rearm();
      if (ptrace(PTRACE_SYSCALL, t->tid, 0, 0) < 0 && errno != ESRCH)
        return RW_ERR(errno);
      return is_pi_lock(t) ? pi_settle(r, t) : 0;
    case GO_YIELD:
      r->cur = NULL;
      t->state = REC_T_READY;
      return 0;
    case GO_HOLD:
      r->cur = NULL;
      t->state = REC_T_KERNEL;
      return 0;
    default: /* GO_GONE */
      r->cur = NULL;
      return 0;
  }
}

/* The thread that ended the process: the one that faulted or called
 * exit_group, else the running one, else the leader. */
static struct rec__task *ender(struct rec *r, struct rec__proc *p, int sig) {
  struct rec__task *e = NULL;
#define MINE(t) ((t)->proc == p && !(t)->exit_written)
  for (size_t i = 0; i < r->nth && !e; i++) {
    struct rec__task *t = r->th[i];
    if (MINE(t) && sig && (t->sync_signo == sig)) e = t;
  }
  for (size_t i = 0; i < r->nth && !e; i++) {
    struct rec__task *t = r->th[i];
    if (MINE(t) && t->in_syscall && t->nr == REC_NR_exit_group) e = t;
  }
  if (!e && r->cur && MINE(r->cur)) e = r->cur;
  for (size_t i = 0; i < r->nth && !e; i++)
    if (MINE(r->th[i]) && r->th[i]->tid == p->pid) e = r->th[i];
  for (size_t i = 0; i < r->nth && !e; i++)
    if (MINE(r->th[i])) e = r->th[i];
#undef MINE
  return e;
}

/* Whether every recorded process is gone. */
static int all_gone(struct rec *r) {
  for (size_t i = 0; i < rec__proc_count(r); i++)
    if (!rec__proc_at(r, i)->gone) return 0;
  return 1;
}

/* Process P is gone with wait status ST: an EXIT for every thread of it
 * without one, the thread that ended it last. Once every recorded process
 * is gone the recording is done: then, when it went as it should
 * (FINISHED), the END record, with the root's status. */
static int on_final(struct rec *r, struct rec__proc *p, int st,
                    int finished) {
  p->gone = 1;
  int signo = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  int status = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
  struct rec__task *e = ender(r, p, signo);
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *t = r->th[i];
    if (t == e || t->exit_written || t->proc != p) continue;
    RW_FORWARD(rec__emit_exit(r, (u32)t->tid, status, (u32)signo, 0, NULL));
    t->exit_written = 1;
    t->state = REC_T_GONE;
  }
  if (e) {
    /* A signal killed it: its memory as it was then. */
    RW_FORWARD(rec__emit_exit(r, (u32)e->tid, status, (u32)signo,
                              p->killed_digest, signo ? p->killed : NULL));
    e->exit_written = 1;
    e->state = REC_T_GONE;
  }
  if (r->cur && r->cur->proc == p) r->cur = NULL;
  if (p != &r->root) { /* nothing of it is needed any more */
    for (size_t i = r->nth; i-- > 0;)
      if (r->th[i]->proc == p) rec__task_remove(r, r->th[i]);
    rec__proc_release(r, p);
  }
  if (p == &r->root) {
    r->root_final = 1;
    r->root_status = st;
    r->wait_status = st;
  }
  if (!all_gone(r)) {
    rec__tick_arm(r);
    return 0;
  }
  r->done = 1;
  if (!finished || !r->root_final) return 0;
  signo = WIFSIGNALED(r->root_status) ? WTERMSIG(r->root_status) : 0;
  status = WIFEXITED(r->root_status) ? WEXITSTATUS(r->root_status) : 0;
  return rec__emit_end(r, status, (u32)signo);
}

/* A thread of a recorded process died (wait status ST). */
static int on_gone(struct rec *r, struct rec__task *t, int st) {
  struct rec__proc *p = t->proc;
  if (p && t->tid == p->pid) return on_final(r, p, st, 1);
  t->state = REC_T_GONE;
  if (r->cur == t) r->cur = NULL;
  if (p && !others_alive(r, p, NULL)) release_held(r, p);
  if (p && p->live == t->tid)
    for (size_t i = 0; i < r->nth; i++)
      if (r->th[i]->state != REC_T_GONE && r->th[i]->proc == p)
        p->live = r->th[i]->tid;
  return 0;
}

/* exec from a thread other than the leader: the kernel gave it the
 * leader's id and ended every other thread. LEADER takes over the running
 * thread's syscall state. */
static void exec_takeover(struct rec *r, struct rec__task *leader) {
  struct rec__task *from = r->cur;
  if (from && from != leader) {
    /* What each owns stays owned once: FROM, freed with the other
     * threads, takes the leader's. */
    pid_t tid = leader->tid;
    u8 *env_save = leader->env_save;
    struct rec__kfentry *kfe = leader->kfe;
    *leader = *from;
    leader->tid = tid;
    from->env_save = env_save;
    from->kfe = kfe;
  }
  rec__set_cur(r, leader);
  leader->state = REC_T_RUNNING;
}

/* Kills every recorded process after an unrecoverable condition and waits
 * until they are gone; their wait statuses go to their final_status. */
static void kill_and_reap(struct rec *r) {
  for (size_t i = 0; i < rec__proc_count(r); i++) {
    struct rec__proc *q = rec__proc_at(r, i);
    if (!q->gone) kill(q->pid, SIGKILL);
    q->final_status = SIGKILL;
  }
  for (;;) {
    int st;
    pid_t p = waitpid(-1, &st, __WALL);
    if (p < 0 && errno == EINTR) continue;
    if (p < 0) break; /* no child left */
    if (WIFSTOPPED(st)) {
      ptrace(PTRACE_CONT, p, 0, 0);
      continue;
    }
    struct rec__proc *q = rec__proc_find(r, p);
    if (q) q->final_status = st;
  }
}

/* Every TICK: flush the trace each second, and interrupt the running thread
 * when its timeslice is over and another thread is ready. */
static int on_tick(struct rec *r) {
  u64 now = coarse_ns();
  r->slice_clock_ns += r->tick_ns;
  if (now - r->last_flush_ns >= REC_SEC) {
    r->last_flush_ns = now;
    RW_FORWARD(trace_writer_flush(r->w));
    rec__progress(r, 0);
  }
  /* A thread held at its exit longer than any wait for the others of its
   * process should take goes: a recording must never hang on it. */
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *h = r->th[i];
    if (h->exit_held && now - h->held_ns >= REC_SEC / 4) {
      h->exit_held = 0;
      ptrace(PTRACE_CONT, h->tid, 0, 0);
    }
  }
  rec__kf_tick(r, now);
  struct rec__task *t = r->cur;
  if (t && t->state == REC_T_RUNNING && !t->interrupted && !t->in_syscall &&
      !t->step_signo && (r->kf.due || slice_over(r))) {
    if (ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) == 0) t->interrupted = 1;
  }
  return 0;
}

/* One wait status ST of thread or process P. */
static int on_status(struct rec *r, pid_t p, int st) {
  if (r->npass) {
    int rc = rec__pass_status(r, p, st);
    if (rc) return rc < 0 ? rc : 0;
  }
  struct rec__task *t = rec__task_find(r, p);
  if (rec__int_pending && WIFSTOPPED(st) && WSTOPSIG(st) == SIGINT &&
      !(st >> 16)) { /* PROG got the SIGINT too: not meant for us alone */
    rec__int_pending = 0;
    r->int_ns = 0;
  }
  if (!t || (t->state == REC_T_GONE && WIFSTOPPED(st))) {
    if (!WIFSTOPPED(st)) return 0; /* a thread already written off */
    struct rec__proc *proc = rec__proc_of_thread(r, p);
    if (!proc && r->opts->no_follow) return rec__child_release(r, p);
    /* A new thread's first stop, before its parent's clone event, or a
     * new process's, before its parent's fork event (which decides). */
    if (!(t = rec__task_add(r, p))) return RW_ENOMEM;
    t->proc = proc;
    t->state = REC_T_NEW;
    t->has_pend = 1;
    t->pend_status = st;
    return 0;
  }
  if (WIFEXITED(st) || WIFSIGNALED(st)) return on_gone(r, t, st);
  int ev = st >> 16;
  if (ev == PTRACE_EVENT_EXEC && t != r->cur) exec_takeover(r, t);
  if (t == r->cur && t->state == REC_T_RUNNING)
    return go(r, t, handle(r, t, st));
  if (ev == PTRACE_EVENT_EXIT) { /* dying: let it go at once */
    RW_FORWARD(on_exit_event(r, t));
    /* Killed by a signal: held until every thread of its process is at
     * its exit event. Once let go, its exit writes to the process's
     * memory (its clear_child_tid word, robust futexes), and a thread of
     * the process not at its exit yet may still be located there by a
     * PREEMPT (the running one, or one about to run), whose digest would
     * hold a write the replay makes only after it. */
    if (t->at_exit && t->proc && others_alive(r, t->proc, t)) {
      t->exit_held = 1;
      t->held_ns = coarse_ns();
      return 0;
    }
    if (t->at_exit && t->proc) release_held(r, t->proc);
    ptrace(PTRACE_CONT, t->tid, 0, 0);
    return 0;
  }
  t->has_pend = 1;
  t->pend_status = st;
  if (t->state != REC_T_NEW) t->state = REC_T_READY;
  return 0;
}

int rec__on_status(struct rec *r, pid_t p, int st) {
  return on_status(r, p, st);
}

int rec__detach_end(struct rec *r) {
  static const u64 none[6];
  struct rw_digest_spec spec;
  u64 digest = 0, t0 = rw_now_ns();
  /* The maps as they are now (a stack may have grown). */
  struct rec__task *any = NULL;
  for (size_t i = 0; i < r->nth && !any; i++)
    if (r->th[i]->proc == &r->root && r->th[i]->state != REC_T_GONE)
      any = r->th[i];
  if (any) {
    rec__set_cur(r, any);
    RW_FORWARD(rec__space_after(r, ~0ull, none, 0));
  }
  r->cur = NULL;
  r->proc = &r->root;
  RW_FORWARD(fresh_digest(r, 0, &digest, &spec));
  r->n.digest_ns += rw_now_ns() - t0;
  RW_FORWARD(rec__emit_detach(r, digest, &spec));
  return trace_writer_flush(r->w);
}

/* The signal that asks the recording to stop now, or 0. */
static int stop_requested(struct rec *r) {
  if (rec__stop_sig) return rec__stop_sig;
  if (r->deadline_ns && coarse_ns() >= r->deadline_ns) return SIGALRM;
  if (!rec__int_pending) return 0;
  u64 now = coarse_ns();
  if (!r->int_ns) {
    r->int_ns = now;
    return 0;
  }
  if (now - r->int_ns < REC_SEC / 4) return 0;
  rec__stop_pid = rec__int_pid;
  return SIGINT;
}

int rec__loop(struct rec *r) {
  int rc = 0;
  while (!r->done) {
    if ((r->stopped_by = stop_requested(r))) {
      if (r->attached) goto detach;
      break;
    }
    for (size_t i = 0; i < rec__proc_count(r) && rc == 0; i++) {
      struct rec__proc *q = rec__proc_at(r, i);
      if (q->final_seen && !q->gone) rc = on_final(r, q, q->final_status, 1);
    }
    if (rc < 0 || r->done) break;
    if (!r->cur && r->kf.due) {
      int kf = rec__kf_try(r);
      if (kf < 0) {
        rc = kf;
        break;
      }
    }
    if (!r->cur) {
      struct rec__task *t = pick(r);
      if (t) {
        int other = r->last_proc != t->proc;
        /* The process that ran last leaves: its own writes to the memory
         * it shares (a sem_post, with the wake buffered and no stop since)
         * are taken into its view now. Otherwise another process could put
         * the old bytes back before it runs again, and the check when it
         * comes back would see nothing to import while its replay holds
         * its own newer bytes. */
        if (other && r->last_proc && r->last_proc->watch.n &&
            !r->last_proc->gone) {
          struct rec__task *was = rec__task_find(r, r->last_run);
          if (was && was->proc == r->last_proc && was->state != REC_T_GONE &&
              !was->at_exit) {
            rec__set_cur(r, was);
            rc = rec__watch_check(r);
            if (rc < 0) break;
          }
        }
        if (t->tid != r->last_run) r->n.switches++;
        r->last_run = t->tid;
        t->slice_start_ns = r->slice_clock_ns;
        rec__set_cur(r, t);
        /* Another process ran since this one last did: what it wrote to
         * memory the two share comes in before this one goes on. */
        r->last_proc = t->proc;
        if (other && t->proc->watch.n) {
          rc = rec__watch_check(r);
          if (rc < 0) break;
        }
        if (t->has_pend) {
          t->has_pend = 0;
          rec__set_cur(r, t);
          t->state = REC_T_RUNNING;
          rc = go(r, t, handle(r, t, t->pend_status));
        } else {
          rc = resume(r, t);
        }
        if (rc < 0) break;
        continue;
      }
    }
    int st;
    pid_t p = waitpid(-1, &st, __WALL);
    if (rec__tick) {
      rec__tick = 0;
      rc = on_tick(r);
      if (rc < 0) break;
    }
    if ((r->stopped_by = stop_requested(r))) {
      /* Asked to stop: the status just taken (if any) is dropped with
       * PROG, which is killed below; the trace ends here, cut off. An
       * attached process is let go instead, its status handled first. */
      if (!r->attached) break;
      if (p > 0) rc = on_status(r, p, st);
      if (rc < 0) break;
      goto detach;
    }
    if (p < 0 && errno == EINTR) continue;
    if (p < 0) {
      rc = RW_ERR(errno);
      break;
    }
    rc = on_status(r, p, st);
    if (rc < 0) break;
  }
  if (r->done) return rc;
  if (r->attached) { /* an error: it goes on unrecorded */
    rec__undo_attach(r);
    r->done = 1;
    return rc;
  }
  /* An error: PROG cannot go on being recorded. */
  kill_and_reap(r);
  int erc = 0;
  for (size_t i = 0; i < rec__proc_count(r) && erc == 0; i++) {
    struct rec__proc *q = rec__proc_at(r, i);
    if (!q->gone) erc = on_final(r, q, q->final_status, 0);
  }
  r->done = 1;
  return rc < 0 ? rc : erc;
detach:
  rc = rec__detach(r);
  r->done = 1;
  return rc;
}
