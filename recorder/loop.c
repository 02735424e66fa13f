/* SPDX-License-Identifier: MIT */
/* The event loop: waits for the next ptrace stop and dispatches it (syscall
 * entry or exit, exec, fork, signal, handler entry, group stop, exit). The
 * handlers record one event each through the record encoders, so a later
 * in-process syscall buffer can feed the same handlers with a batch of
 * completed syscalls without changing the trace. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorder/rec_int.h"

volatile sig_atomic_t rec__flush_due;

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

/* PTRACE_EVENT_EXIT: the thread is about to go, its memory still there. */
static int on_exit_event(struct rec *r) {
  struct rec__task *t = &r->t;
  unsigned long msg = 0;
  if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg) < 0) return 0;
  int st = (int)msg;
  if (!WIFSIGNALED(st)) return 0;
  int sig = WTERMSIG(st);
  /* Killed from outside without a delivery stop (SIGKILL): locate it. */
  if (t->sync_signo != sig && t->sync_signo != -sig && !t->in_syscall &&
      !r->thread_refused) {
    u64 digest;
    RW_FORWARD(rec__regs_get(r, t->tid, &t->regs, 1));
    RW_FORWARD(rec__digest(r, &digest));
    RW_FORWARD(rec__emit_preempt(r, &t->regs, digest));
  }
  if (is_crash(sig) && !r->opts->quiet) {
    rw_log(RW_LOG_ERROR, "%s crashed with signal %d (%s); backtrace:",
           r->prog_name, sig, strsignal(sig));
    rec__backtrace(t->tid, r->prog_name);
    r->crash_reported = 1;
  }
  return 0;
}

/* A group stop (SIGSTOP, or Ctrl-Z's SIGTSTP) or another PTRACE_EVENT_STOP.
 * Returns 1 when the tracee must stay stopped (PTRACE_LISTEN was used). */
static int on_group_stop(struct rec *r, int sig) {
  if (sig != SIGSTOP && sig != SIGTSTP && sig != SIGTTIN && sig != SIGTTOU)
    return 0;
  ptrace(PTRACE_LISTEN, r->t.tid, 0, 0);
  /* Stopped from the terminal: stop rewind too, so the shell sees the job
   * stopped; its SIGCONT resumes both. */
  if (sig != SIGSTOP) kill(getpid(), SIGSTOP);
  return 1;
}

/* Handles one stop of the recorded thread with wait status ST. Sets *SIG
 * and *STEP for the resumption. Returns 1 when the tracee must not be
 * resumed, 0, or a negative code. */
static int dispatch(struct rec *r, int st, int *sig, int *step) {
  struct rec__task *t = &r->t;
  int stopsig = WSTOPSIG(st), ev = st >> 16;
  *sig = 0;
  *step = 0;
  if (t->step_signo && !(stopsig == SIGTRAP && ev == 0))
    t->step_signo = 0; /* the handler was not entered (bad stack...) */
  if (stopsig == (SIGTRAP | 0x80)) {
    /* Entry and exit stops alternate (an exec reports its event between
     * them, a restarted syscall exits before it enters again), so the
     * thread's state tells which this is without another ptrace call. */
    return t->in_syscall ? rec__sys_exit(r) : rec__sys_enter(r);
  }
  switch (ev) {
    case PTRACE_EVENT_EXEC:
      return rec__on_exec(r, 0);
    case PTRACE_EVENT_FORK:
    case PTRACE_EVENT_VFORK:
    case PTRACE_EVENT_CLONE:
      return rec__on_fork_event(r, ev);
    case PTRACE_EVENT_VFORK_DONE:
      return 0;
    case PTRACE_EVENT_EXIT:
      return on_exit_event(r);
    case PTRACE_EVENT_STOP:
      return on_group_stop(r, stopsig);
    default:
      break;
  }
  if (ev) return 0;
  if (stopsig == SIGTRAP && t->step_signo) return rec__on_handler_entry(r);
  return rec__on_signal(r, stopsig, sig, step);
}

/* Kills PROG after an unrecoverable condition and waits until it is gone. */
static void kill_and_reap(struct rec *r) {
  kill(r->pid, SIGKILL);
  for (;;) {
    int st;
    pid_t p = waitpid(r->t.tid, &st, __WALL);
    if (p < 0 && errno == EINTR) continue;
    if (p < 0 || WIFEXITED(st) || WIFSIGNALED(st)) {
      r->wait_status = p < 0 ? SIGKILL : st;
      r->done = 1;
      return;
    }
    ptrace(PTRACE_CONT, r->t.tid, 0, 0);
  }
}

int rec__loop(struct rec *r) {
  struct rec__task *t = &r->t;
  int rc = 0, sig = 0, step = 0, resume = 1;
  for (;;) {
    rec__tsc_self_rearm();
    if (resume &&
        ptrace(step ? PTRACE_SINGLESTEP : PTRACE_SYSCALL, t->tid, 0,
               (void *)(long)sig) < 0 &&
        errno != ESRCH) {
      rc = RW_ERR(errno);
      break;
    }
    resume = 1;
    int st;
    pid_t p;
    for (;;) {
      if (rec__flush_due) {
        rec__flush_due = 0;
        rc = trace_writer_flush(r->w);
        if (rc < 0) break;
      }
      p = waitpid(-1, &st, __WALL);
      if (p < 0 && errno == EINTR) continue;
      if (p < 0) {
        rc = RW_ERR(errno);
        break;
      }
      if (p == t->tid) break;
      /* Another process: a child of PROG at its first stop. */
      if (WIFSTOPPED(st)) {
        rc = rec__child_release(r, p);
        if (rc < 0) break;
      }
    }
    if (rc < 0) break;
    if (WIFEXITED(st) || WIFSIGNALED(st)) {
      r->wait_status = st;
      r->done = 1;
      int signo = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
      return rec__emit_exit(r, (u32)t->tid,
                            WIFEXITED(st) ? WEXITSTATUS(st) : 0, (u32)signo);
    }
    rc = dispatch(r, st, &sig, &step);
    if (rc == 1) { /* left in its group stop until SIGCONT */
      rc = 0;
      resume = 0;
    }
    if (rc < 0) break;
  }
  /* Threads refused, or an error: PROG cannot go on being recorded. */
  kill_and_reap(r);
  int erc = rec__emit_exit(r, (u32)t->tid, 0, SIGKILL);
  return rc < 0 ? rc : erc;
}
