/* SPDX-License-Identifier: MIT */
/* Child processes. One made by fork (or clone without CLONE_VM) is
 * recorded as a process of its own (recorder/procs.c), unless --no-follow;
 * so is one made by vfork (or clone with CLONE_VM and CLONE_VFORK, as
 * posix_spawn does), which runs in its parent's address space until it
 * execs or exits while the parent waits in the kernel. The others (clone
 * with CLONE_VM alone, and every child under --no-follow) run
 * unrecorded: they inherit rdtsc trapping, so before being let go each
 * one executes an injected prctl(PR_SET_TSC, PR_TSC_ENABLE) (unless the
 * program asked for the traps itself), and is then detached. A vfork
 * child's writes to the shared memory are imported by the parent's
 * generic diff (recorder/sysrec.c); the others' writes to memory they
 * share with the parent, by the watch (recorder/watch.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorder/rec_int.h"


/* Children already released, so that a child whose first stop was seen
 * before its parent's fork event is not waited for again. */
static pid_t released[64];
static unsigned nreleased;

static int was_released(pid_t pid) {
  for (unsigned i = 0; i < RW_ARRAY_SIZE(released); i++)
    if (released[i] == pid) return 1;
  return 0;
}

int rec__next_syscall_stop(pid_t child, int op) {
  int sig = 0;
  for (;;) {
    int st;
    if (ptrace(PTRACE_SYSCALL, child, 0, (void *)(long)sig) < 0) return -1;
    pid_t p;
    while ((p = waitpid(child, &st, __WALL)) < 0 && errno == EINTR) {
    }
    if (p < 0 || !WIFSTOPPED(st)) return -1;
    sig = 0;
    if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {
      if (rec__syscall_op(child) == op) return 0;
      continue;
    }
    if (!(st >> 16) && WSTOPSIG(st) != SIGTRAP) sig = WSTOPSIG(st);
  }
}

int rec__remote_syscall(pid_t tid, const struct rw_regs *at, u64 insn,
                        u64 nr, const u64 args[6], i64 *res) {
  struct rw_regs regs = *at;
  static const int arg[6] = {RW_REG_rdi, RW_REG_rsi, RW_REG_rdx,
                             RW_REG_r10, RW_REG_r8,  RW_REG_r9};
  regs.rip = insn;
  regs.gpr[RW_REG_rax] = nr;
  for (int i = 0; i < 6; i++) regs.gpr[arg[i]] = args[i];
  regs.orig_rax = ~0ull;
  /* No signal of the program's may come in the middle: given at the
   * syscall instruction, its handler would run unrecorded and its first
   * syscall be taken for this one. A pending one waits until the mask is
   * back. (A syscall that set a mask of its own until its return, such as
   * an interrupted epoll_pwait, has the kernel put the thread's back on
   * the way out: that one stays.) */
  const u64 never = 1ull << (SIGKILL - 1) | 1ull << (SIGSTOP - 1);
  u64 mask, all = ~0ull, now = 0;
  if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof mask, &mask) < 0 ||
      ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof all, &all) < 0)
    return errno == ESRCH ? RW_ENOTFOUND : RW_ERR(errno);
  RW_FORWARD(rec__regs_set_gprs(tid, &regs));
  if (rec__next_syscall_stop(tid, 1) < 0 || rec__next_syscall_stop(tid, 2) < 0)
    return RW_ENOTFOUND;
  errno = 0;
  long v = ptrace(PTRACE_PEEKUSER, tid,
                  (void *)offsetof(struct user_regs_struct, rax), 0);
  RW_RETURN_IF(errno, RW_ERR(errno), "reading a syscall's result");
  *res = v;
  if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof now, &now) < 0 ||
      ((now | never) == all &&
       ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof mask, &mask) < 0))
    return errno == ESRCH ? RW_ENOTFOUND : RW_ERR(errno);
  return 0;
}

int rec__child_release(struct rec *r, pid_t child) {
  struct rw_regs saved, regs;
  released[nreleased++ % RW_ARRAY_SIZE(released)] = child;
  /* A copy of the address space runs unrecorded: its rdtsc must not stop
   * at int3s nobody answers. (A child that shares the parent's memory
   * keeps them: putting the instructions back would let the recorded
   * parent run them unseen.) */
  if (syscall(SYS_kcmp, (pid_t)r->proc->live, child, 1 /* KCMP_VM */, 0, 0) !=
      0)
    rec__tsc_unpatch_child(r, child);
  /* It keeps the shared mappings; they are compared from now on. */
  RW_FORWARD(rec__watch_fork(r));
  /* A program that set PR_TSC_SIGSEGV itself gave the child its traps:
   * they stay. */
  if (r->cur && r->cur->tsc_mode == PR_TSC_SIGSEGV) goto detach;
  if (rec__regs_get(r, child, &saved, 0) < 0) goto detach;
  /* The child stands right after the syscall instruction of its fork:
   * execute prctl through that instruction, then put everything back. */
  u8 insn[2];
  struct iovec l = {insn, 2}, rv = {(void *)(uintptr_t)(saved.rip - 2), 2};
  if (process_vm_readv(child, &l, 1, &rv, 1, 0) != 2 || insn[0] != 0x0f ||
      insn[1] != 0x05)
    goto warn;
  regs = saved;
  regs.gpr[RW_REG_rax] = 157; /* prctl */
  regs.gpr[RW_REG_rdi] = PR_SET_TSC;
  regs.gpr[RW_REG_rsi] = PR_TSC_ENABLE;
  regs.rip = saved.rip - 2;
  regs.orig_rax = ~0ull;
  if (rec__regs_set_gprs(child, &regs) < 0) goto warn;
  if (rec__next_syscall_stop(child, 1) < 0) return 0; /* entry */
  if (rec__next_syscall_stop(child, 2) < 0) return 0; /* exit */
  if (rec__regs_set_gprs(child, &saved) < 0) goto warn;
  goto detach;
warn:
  rw_log(RW_LOG_INFO,
         "warning: could not re-enable rdtsc in child %d; it gets SIGSEGV if "
         "it executes rdtsc",
         (int)child);
detach:
  /* rewind's filter stops every syscall: without a tracer they would all
   * fail (recorder/sbuf.c). It stays traced, unrecorded. */
  if (r->sbuf) return rec__pass_add(r, child);
  ptrace(PTRACE_DETACH, child, 0, 0);
  return 0;
}

int rec__pass_add(struct rec *r, pid_t pid) {
  if (r->npass == r->cappass) {
    size_t cap = r->cappass ? 2 * r->cappass : 8;
    pid_t *v = realloc(r->pass, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "unrecorded processes");
    r->pass = v;
    r->cappass = cap;
  }
  /* A child whose first stop has not come yet is kept as -PID: that
   * stop is not a group stop. */
  r->pass[r->npass++] = ptrace(PTRACE_CONT, pid, 0, 0) == 0 ? pid : -pid;
  return 0;
}

int rec__pass_status(struct rec *r, pid_t pid, int st) {
  size_t i = 0;
  while (i < r->npass && r->pass[i] != pid && r->pass[i] != -pid) i++;
  if (i == r->npass) return 0;
  int first = r->pass[i] < 0;
  r->pass[i] = pid;
  if (!WIFSTOPPED(st)) {
    r->pass[i] = r->pass[--r->npass];
    return 1;
  }
  int ev = st >> 16, sig = WSTOPSIG(st);
  if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK ||
      ev == PTRACE_EVENT_CLONE) {
    unsigned long msg = 0;
    if (ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg) == 0 && msg) {
      /* Its child may have stopped first, and been taken for a new
       * recorded one. */
      struct rec__task *c = rec__task_find(r, (pid_t)msg);
      if (c && c->state == REC_T_NEW) rec__task_remove(r, c);
      if (rec__pass_add(r, (pid_t)msg) < 0) return RW_ENOMEM;
    }
    sig = 0;
  } else if (ev == PTRACE_EVENT_STOP) {
    if (!first && (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
        sig == SIGTTOU)) { /* a group stop: it stays stopped */
      ptrace(PTRACE_LISTEN, pid, 0, 0);
      return 1;
    }
    sig = 0;
  } else if (ev || sig == (SIGTRAP | 0x80)) {
    sig = 0;
  }
  ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig);
  return 1;
}

/* Waits for CHILD's first stop unless it was seen already (a task in
 * state NEW, which it then takes over). Returns its task (state READY, with
 * nothing pending), NULL when it is gone already, or sets *RC. */
static struct rec__task *first_stop(struct rec *r, pid_t child, int *rc) {
  struct rec__task *c = rec__task_find(r, child);
  *rc = 0;
  if (c && c->state == REC_T_NEW && c->has_pend) {
    c->has_pend = 0;
  } else {
    for (;;) {
      int st;
      pid_t p = waitpid(child, &st, __WALL);
      if (p < 0 && errno == EINTR) continue;
      if (p < 0 || !WIFSTOPPED(st)) return NULL;
      break;
    }
    if (!(c = rec__task_add(r, child))) {
      *rc = RW_ENOMEM;
      return NULL;
    }
  }
  c->state = REC_T_READY;
  return c;
}

/* A vfork child starts in its parent's address space: it watches what
 * the parent watches (memory unrecorded processes may write), so that its
 * digests leave out the same. */
static int shared_watch(struct rec *r, struct rec__proc *p,
                        const struct rec__proc *parent) {
  if (!parent->watch.n) return 0;
  struct rec__proc *was = r->proc;
  r->proc = p;
  p->watch_all = parent->watch_all;
  int rc = rec__watch_fork(r);
  r->proc = was;
  return rc;
}

/* The mappings of process PARENT, just forked, that the child P (current)
 * does not get as they are: madvise(MADV_DONTFORK) ones ("dc" in smaps'
 * VmFlags) are not in the child at all, MADV_WIPEONFORK ones ("wf") are
 * new zero pages there. Recorded as the child's UNMAP and MAP, and P's
 * model follows. */
static int fork_advice(struct rec *r, pid_t parent, struct rec__proc *p) {
  char path[64], line[1024];
  snprintf(path, sizeof path, "/proc/%d/smaps", (int)parent);
  FILE *f = fopen(path, "re");
  if (!f) return 0; /* gone: nothing forked from it matters any more */
  unsigned long long a = 0, b = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    unsigned long long x, y;
    char perms[8];
    if (sscanf(line, "%llx-%llx %7s ", &x, &y, perms) == 3) {
      a = x, b = y;
      continue;
    }
    if (strncmp(line, "VmFlags:", 8) || b <= a) continue;
    if (strstr(line, " dc")) {
      rc = rec__emit_unmap(r, a, b - a);
      if (rc == 0) rc = rec__maps_remove(p->maps, a, b);
    } else if (strstr(line, " wf")) {
      for (const struct rec__map *e = rec__maps_from(p->maps, a);
           rc == 0 && e && e->start < b; e = rec__maps_next(p->maps, e)) {
        u64 s = RW_MAX(a, e->start), t = RW_MIN(b, e->end);
        rc = rec__emit_map(r, s, t - s, e->prot, e->flags, 0, NULL, e->path,
                           0);
      }
    }
  }
  fclose(f);
  return rc;
}

/* Records CHILD, which the current thread forked: a process of its own
 * from here on (recorder/procs.c). FLAGS are the clone flags; SHARED 1 for
 * a vfork child, which uses the parent's address space, and the parent's
 * model of it, until it execs or exits. */
static int follow_child(struct rec *r, pid_t child, u64 flags, int shared) {
  struct rec__task *t = r->cur;
  struct rec__proc *parent = r->proc;
  int rc;
  RW_FORWARD(rec__emit_fork(r, (u32)child, (u32)shared, flags, 1));
  struct rec__task *c = first_stop(r, child, &rc);
  RW_FORWARD(rc);
  if (!c) return 0; /* killed before it ran: it never existed for anyone */
  struct rec__proc *p = rec__proc_fork(r, child, shared);
  if (!p) return RW_ENOMEM;
  if (shared) RW_FORWARD(shared_watch(r, p, parent));
  c->proc = p;
  c->rsig = c->rstep = 0;
  RW_FORWARD(rec__regs_get(r, child, &c->entry, 1));
  c->entry.orig_rax = ~0ull;
  c->fp_valid = 1;
  if (flags & REC_CLONE_CHILD_CLEARTID) c->ctid = rec__child_tid_addr(r);
  u64 settid = flags & REC_CLONE_CHILD_SETTID ? rec__child_tid_addr(r) : 0;
  c->tsc_mode = t->tsc_mode; /* a child inherits these */
  c->own_seccomp = t->own_seccomp;
  c->own_nnp = t->own_nnp;
  /* The shared mappings parent and child both keep: each imports what the
   * other wrote there (recorder/watch.c). */
  if (!shared) RW_FORWARD(rec__watch_fork(r));
  rec__set_cur(r, c);
  rc = rec__emit_thread_start(r, (u32)child, (u32)t->tid, &c->entry);
  if (rc == 0) rc = rec__emit_pkru(r, child, 0);
  if (rc == 0 && !shared && parent->fork_advice) {
    p->fork_advice = 1;
    rc = fork_advice(r, parent->pid, p);
  }
  /* CLONE_CHILD_SETTID: the kernel wrote the id into the child's copy. */
  if (rc == 0 && settid) rc = rec__mem_import(r, settid, 4);
  if (rc == RW_EFAULT) rc = 0;
  if (rc == 0) {
    rec__thread_comm(r, child, c->name);
    rc = rec__emit_thread_name(r, (u32)child, c->name);
  }
  if (rc == 0 && !shared) rc = rec__watch_fork(r);
  rec__set_cur(r, t);
  r->proc = parent;
  return rc;
}

int rec__follows_vfork(struct rec *r) {
  const struct rec__task *t = r->cur;
  if (r->opts->no_follow) return 0;
  if (t->nr == REC_NR_vfork) return 1;
  if (t->nr != REC_NR_clone && t->nr != REC_NR_clone3) return 0;
  u64 f = rec__clone_flags(r) & (REC_CLONE_VM | REC_CLONE_VFORK |
                                 REC_CLONE_THREAD);
  return f == (REC_CLONE_VM | REC_CLONE_VFORK);
}

int rec__on_fork_event(struct rec *r, int event) {
  unsigned long msg = 0;
  if (ptrace(PTRACE_GETEVENTMSG, r->cur->tid, 0, &msg) < 0) return 0;
  pid_t child = (pid_t)msg;
  u64 flags = 0;
  if (r->cur->nr == REC_NR_clone) flags = r->cur->args[0];
  r->n.forks++;
  u64 cf = rec__clone_flags(r);
  u32 kind = event == PTRACE_EVENT_VFORK || (cf & REC_CLONE_VM) ? 1 : 0;
  if (!kind && !r->opts->no_follow) {
    RW_FORWARD(follow_child(r, child, cf, 0));
    /* Two processes with one descriptor table: what one closes, the
     * other's syscall buffer would not know. */
    if (cf & REC_CLONE_FILES) {
      struct rec__proc *cp = rec__proc_find(r, child);
      if (cp) cp->sb->want_nofds = 1;
      RW_FORWARD(rec__sb_no_fds(r));
    }
    return 0;
  }
  if (kind && rec__follows_vfork(r)) { /* the parent waits in the kernel */
    RW_FORWARD(follow_child(r, child, cf, 1));
    return 1;
  }
  RW_FORWARD(rec__emit_fork(r, (u32)child, kind, flags, 0));
  /* A child in the same address space (CLONE_VM, vfork, also through
   * clone3) may map and unmap unrecorded while it runs. */
  if (event == PTRACE_EVENT_VFORK || (cf & REC_CLONE_VM)) {
    RW_FORWARD(rec__follow_sharer(r, child));
    /* Its calls into the syscall buffer's library would mix with the
     * recorded threads' in the one ring: before it runs, the library is
     * told to make every syscall stop. */
    RW_FORWARD(rec__sb_off(r));
  }
  /* One that runs alongside (the parent of a vfork waits for it, and the
   * generic diff sees what it wrote) writes anywhere at any time. */
  if (event != PTRACE_EVENT_VFORK && (cf & REC_CLONE_VM) &&
      !(cf & REC_CLONE_VFORK))
    RW_FORWARD(rec__watch_sharer(r));
  if (!r->forks_noted) {
    if (r->opts->no_follow)
      rw_log(RW_LOG_INFO,
             "%s started child process %d; with --no-follow child processes "
             "run unrecorded",
             r->prog_name, (int)child);
    else
      rw_log(RW_LOG_INFO,
             "%s started child process %d with clone(CLONE_VM) and no "
             "CLONE_VFORK; such children (and what they exec) run "
             "unrecorded for now",
             r->prog_name, (int)child);
    r->forks_noted = 1;
  }
  if (was_released(child)) return 0;
  /* Its first stop, unless seen before this event: then let it go. */
  struct rec__task *c = rec__task_find(r, child);
  if (c && c->state == REC_T_NEW) {
    rec__task_remove(r, c);
    return rec__child_release(r, child);
  }
  for (;;) {
    int st;
    pid_t p = waitpid(child, &st, __WALL);
    if (p < 0 && errno == EINTR) continue;
    if (p < 0 || !WIFSTOPPED(st)) return 0;
    return rec__child_release(r, child);
  }
}
