/* SPDX-License-Identifier: MIT */
/* Recording a process that is already running (rewind record -p PID), and
 * letting it go again.
 *
 * Attaching seizes every thread and stops it (PTRACE_INTERRUPT), lists the
 * threads again until no new one appears, and turns each thread's stop
 * into a state the history can start from: a thread the stop took out of a
 * blocking syscall is put back before its syscall instruction, which it
 * executes again once it runs (the kernel would have restarted it the same
 * way). Then the recorder does to the process what it does at an exec:
 * rdtsc trapped (PR_SET_TSC, made by each thread through a syscall the
 * recorder has it execute), the vDSO patched, the threads pinned to the
 * recorder's CPU, and the trace gets the whole state: EXEC, a MAP for every
 * mapping with every byte that differs from its file or from zero, AUXV,
 * then THREAD_START, PKRU and THREAD_NAME for every thread. The history
 * begins there; the replay needs nothing from before it.
 *
 * Detaching (Ctrl-C, SIGTERM, --duration) brings every thread to a stop
 * the trace can describe: the thread running user code is located with a
 * PREEMPT (or its rdtsc answered), a thread inside a syscall has its
 * SYSCALL_EXIT written. The DETACH record ends the trace with a digest of
 * memory as the threads left it. Then everything the recorder changed is
 * put back (rdtsc, the patched instructions, the vDSO, the CPU affinity)
 * and the threads go on as if nothing had happened, each with the signal it
 * was about to get.
 *
 * Without a syscall buffer: rewind's seccomp filter could never be taken
 * out of the process again. */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

/* Options of an attached thread: those of a launched one but EXITKILL (the
 * process outlives rewind) and the seccomp event (no filter of rewind's).
 * While attaching, none that would make the kernel attach new tasks by
 * itself: the threads are found by listing them. */
#define ATTACH_OPTS                                                   \
  (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK |  \
   PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT)

#define NR_prctl 157
#define NR_restart_syscall 219

/* Refuses what cannot be attached to, with a message that says why. */
static int check_target(pid_t pid) {
  char path[64];
  if (pid <= 0 || pid == getpid()) {
    rw_log(RW_LOG_ERROR, "-p %d: rewind cannot record itself", (int)pid);
    return RW_EINVAL;
  }
  if (kill(pid, 0) < 0 && errno == ESRCH) {
    rw_log(RW_LOG_ERROR, "-p %d: no such process", (int)pid);
    return RW_ENOTFOUND;
  }
  snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    u8 h[20] = {0};
    ssize_t n = read(fd, h, sizeof h);
    close(fd);
    if (n == (ssize_t)sizeof h && !memcmp(h, ELFMAG, SELFMAG) &&
        (h[EI_CLASS] != ELFCLASS64 || rd_le16(h + 18) != EM_X86_64)) {
      rw_log(RW_LOG_ERROR, "-p %d: not an x86-64 program; rewind records "
             "64-bit x86 programs", (int)pid);
      return RW_EUNSUPPORTED;
    }
  }
  char s = rec__task_state(pid, pid);
  if (s == 'Z' || s == 'X') {
    rw_log(RW_LOG_ERROR, "-p %d: the process has ended (a zombie)",
           (int)pid);
    return RW_ENOTFOUND;
  }
  if (s == 'T') {
    rw_log(RW_LOG_ERROR, "-p %d: the process is stopped; let it go on "
           "first (kill -CONT %d)", (int)pid, (int)pid);
    return RW_EINVAL;
  }
  if (s == 't') {
    rw_log(RW_LOG_ERROR, "-p %d: the process is being traced (a debugger "
           "or strace has it); detach that first", (int)pid);
    return RW_ERR(EPERM);
  }
  return 0;
}

/* Says why PTRACE_SEIZE of thread TID failed with ERR. */
static void explain(pid_t pid, pid_t tid, int err) {
  char name[64];
  int tracer = rec__tracer_of(tid, name, sizeof name);
  if (tracer > 0) {
    rw_log(RW_LOG_ERROR, "-p %d: the process is already traced by pid %d "
           "(%s); detach that first", (int)pid, tracer, name);
    return;
  }
  rw_log(RW_LOG_ERROR, "-p %d: cannot attach (PTRACE_SEIZE: %s)", (int)pid,
         strerror(err));
  if (err != EPERM) return;
  int scope = rec__ptrace_scope();
  if (scope == 1)
    rw_log(RW_LOG_ERROR, "/proc/sys/kernel/yama/ptrace_scope is 1: only "
           "a process's ancestors may attach to it. Run rewind as root (or "
           "with CAP_SYS_PTRACE), or allow it for now: sysctl "
           "kernel.yama.ptrace_scope=0");
  else if (scope >= 2)
    rw_log(RW_LOG_ERROR, "/proc/sys/kernel/yama/ptrace_scope is %d: "
           "attaching needs CAP_SYS_PTRACE (run as root)%s", scope,
           scope == 3 ? ", and 3 forbids it until reboot" : "");
  else
    rw_log(RW_LOG_ERROR, "a process of another user, or a setuid one, can "
           "only be recorded as root");
}

/* Seizes and interrupts every thread of PID not seized yet; *ADDED counts
 * them. */
static int seize_new(struct rec *r, pid_t pid, size_t *added) {
  char path[64];
  *added = 0;
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR *d = opendir(path);
  if (!d) {
    int e = errno;
    rw_log(RW_LOG_ERROR, "-p %d: cannot list its threads: %s", (int)pid,
           strerror(e));
    return RW_ERR(e);
  }
  struct dirent *de;
  int rc = 0;
  while (rc == 0 && (de = readdir(d))) {
    char *end;
    long tid = strtol(de->d_name, &end, 10);
    if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end) continue;
    if (rec__task_find(r, (pid_t)tid)) continue;
    if (ptrace(PTRACE_SEIZE, (pid_t)tid, 0, 0) < 0) {
      if (errno == ESRCH) continue; /* gone meanwhile */
      int e = errno;
      explain(pid, (pid_t)tid, e);
      rc = RW_ERR(e);
      break;
    }
    struct rec__task *t = rec__task_add(r, (pid_t)tid);
    if (!t) {
      ptrace(PTRACE_DETACH, (pid_t)tid, 0, 0);
      rc = RW_ENOMEM;
      break;
    }
    t->state = REC_T_NEW; /* not stopped yet */
    ptrace(PTRACE_INTERRUPT, (pid_t)tid, 0, 0);
    (*added)++;
  }
  closedir(d);
  return rc;
}

/* Waits until seized thread T stops for its PTRACE_INTERRUPT. Stops that
 * come first (a signal being delivered, an exec or a clone in progress)
 * are let go: what they lead to happens before the history begins.
 * Returns 1 when stopped, 0 when the thread is gone, or a negative code. */
static int wait_stopped(struct rec *r, struct rec__task *t) {
  (void)r;
  for (;;) {
    int st;
    pid_t p = waitpid(t->tid, &st, __WALL);
    if (p < 0 && errno == EINTR) continue;
    if (p < 0) return errno == ECHILD ? 0 : RW_ERR(errno);
    if (WIFEXITED(st) || WIFSIGNALED(st)) return 0;
    if (!WIFSTOPPED(st)) continue;
    int ev = st >> 16, sig = WSTOPSIG(st);
    if (ev == PTRACE_EVENT_STOP) return 1;
    ptrace(PTRACE_CONT, t->tid, 0, (void *)(long)(ev ? 0 : sig));
  }
}

/* A syscall instruction in the process: the first of the patched vDSO, or
 * one found in its code. 0 when there is none. */
static u64 syscall_insn(struct rec *r) {
  if (r->proc->nvfn) return r->proc->vfn[0].addr + 5;
  struct rec__maps *m = r->proc->maps;
  for (const struct rec__map *e = rec__maps_first(m); e;
       e = rec__maps_next(m, e)) {
    if (!(e->prot & PROT_EXEC) || (e->flags & REC_MAPF_SPECIAL)) continue;
    for (u64 a = e->start; a < e->end && a - e->start < (64u << 20);) {
      size_t n = (size_t)RW_MIN(e->end - a, (u64)REC_BUF);
      i64 got = rec__mem_read(r, a, r->buf, n);
      if (got < 2) break;
      for (i64 i = 0; i + 1 < got; i++)
        if (r->buf[i] == 0x0f && r->buf[i + 1] == 0x05) return a + (u64)i;
      a += (u64)got - 1;
    }
  }
  return 0;
}

/* Has stopped thread T (registers AT) make syscall NR(ARGS) through the
 * instruction at INSN, then puts its registers back; *RES gets the
 * result. 1 when done, 0 when the thread is gone, or a negative code. */
static int call_in(struct rec__task *t, const struct rw_regs *at, u64 insn,
                   u64 nr, const u64 args[6], i64 *res) {
  int rc = rec__remote_syscall(t->tid, at, insn, nr, args, res);
  if (rc == RW_ENOTFOUND) return 0;
  int rc2 = rec__regs_set_gprs(t->tid, at);
  RW_FORWARD(rc);
  RW_FORWARD(rc2);
  return 1;
}

/* While the recorder makes a thread run syscalls or steps it, no signal
 * of the program's may come in: it would be delivered in the middle (or
 * lost), and its handler's syscalls taken for the recorder's. The
 * thread's mask is kept in *OLD, everything blocked. */
static int block_all(pid_t tid, u64 *old) {
  u64 all = ~0ull;
  if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof *old, old) < 0 ||
      ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof all, &all) < 0)
    return errno == ESRCH ? RW_ENOTFOUND : RW_ERR(errno);
  return 0;
}

static int unblock(pid_t tid, u64 old) {
  if (ptrace(PTRACE_SETSIGMASK, tid, (void *)sizeof old, &old) < 0 &&
      errno != ESRCH)
    return RW_ERR(errno);
  return 0;
}

/* Has stopped thread T (registers AT) call prctl(PR_SET_TSC, MODE) and
 * puts its registers back. */
static int set_tsc(struct rec__task *t, const struct rw_regs *at, u64 insn,
                   int mode) {
  const u64 args[6] = {PR_SET_TSC, (u64)mode, 0, 0, 0, 0};
  i64 res = 0;
  int rc = call_in(t, at, insn, NR_prctl, args, &res);
  if (rc <= 0) return rc; /* gone, or failed */
  RW_RETURN_IF(res < 0, RW_ERR((int)-res), "prctl(PR_SET_TSC) in thread %d",
               (int)t->tid);
  return 0;
}

/* rseq: the kernel writes a registered thread's area (its CPU number)
 * whenever the thread comes back to user mode after moving, which nothing
 * could record. A launched program never registers one (rewind's
 * environment tells glibc not to, and the syscall fails); an attached
 * one's threads have theirs taken out for the recording and put back
 * after. */
#define NR_rseq 334
#define REC_RSEQ_UNREGISTER 1
#define REC_GET_RSEQ_CONFIGURATION 0x420f
struct rseq_conf {
  u64 ptr;
  u32 size, sig, flags, pad;
};

/* The rseq area thread T registered: 1 with it in *C, 0 without one (or
 * a kernel that cannot say). */
static int rseq_config(const struct rec__task *t, struct rseq_conf *c) {
  memset(c, 0, sizeof *c);
  return ptrace(REC_GET_RSEQ_CONFIGURATION, t->tid, (void *)sizeof *c, c) >= 0 &&
         c->ptr;
}

/* Unregisters the rseq area of stopped thread T (registers AT), through
 * the syscall instruction INSN; remembers it for rseq_on. */
static int rseq_off(struct rec__task *t, const struct rw_regs *at, u64 insn) {
  struct rseq_conf c;
  if (!rseq_config(t, &c)) return 0; /* an older kernel, or none */
  const u64 args[6] = {c.ptr, c.size, REC_RSEQ_UNREGISTER, c.sig, 0, 0};
  i64 res = 0;
  int rc = call_in(t, at, insn, NR_rseq, args, &res);
  if (rc <= 0) return rc; /* gone, or failed */
  RW_RETURN_IF(res < 0, RW_ERR((int)-res), "unregistering the rseq area of "
               "thread %d", (int)t->tid);
  t->rseq_ptr = c.ptr;
  t->rseq_len = c.size;
  t->rseq_sig = c.sig;
  return 0;
}

/* Registers again the rseq area rseq_off took from T (registers AT). */
static int rseq_on(struct rec__task *t, const struct rw_regs *at, u64 insn) {
  const u64 args[6] = {t->rseq_ptr, t->rseq_len, 0, t->rseq_sig, 0, 0};
  i64 res = 0;
  int rc = call_in(t, at, insn, NR_rseq, args, &res);
  if (rc <= 0) return rc; /* gone, or failed */
  return res < 0 ? RW_ERR((int)-res) : 0;
}

/* Where the kernel clears thread T's id when it ends (its
 * clear_child_tid, which glibc's pthread_join waits on): asked with
 * prctl(PR_GET_TID_ADDRESS), which writes it below the thread's stack.
 * A kernel without it (no CONFIG_CHECKPOINT_RESTORE) leaves it unknown. */
#define REC_PR_GET_TID_ADDRESS 40
static int tid_address(struct rec *r, struct rec__task *t,
                       const struct rw_regs *at, u64 insn) {
  u64 spot = (at->gpr[RW_REG_rsp] - 128 - 64) & ~15ull;
  u8 save[8], got[8];
  if (rec__mem_read(r, spot, save, 8) != 8) return 0;
  const u64 args[6] = {REC_PR_GET_TID_ADDRESS, spot, 0, 0, 0, 0};
  i64 res = -1;
  int rc = call_in(t, at, insn, NR_prctl, args, &res);
  if (rc <= 0) return rc; /* gone, or failed */
  if (res == 0 && rec__mem_read(r, spot, got, 8) == 8) t->ctid = rd_le64(got);
  RW_FORWARD(rec__mem_write(r, spot, save, 8));
  if (res != 0 && !r->ctid_noted) {
    r->ctid_noted = 1;
    RW_FORWARD(rec__warn(r, ~0ull, "this kernel does not tell where a thread's "
                         "id is cleared when it ends (PR_GET_TID_ADDRESS): "
                         "a pthread_join of a thread that was running "
                         "before the attach may not replay"));
  }
  return 0;
}

/* A thread with a seccomp filter keeps its rseq area (the recorder makes
 * it run no syscall): it gets the CPU the recording runs on now, which
 * the kernel would write at the thread's next return to user mode, and
 * what the kernel writes later comes in as MEM at the thread's stops. */
static int rseq_keep(struct rec *r, struct rec__task *t) {
  struct rseq_conf c;
  u8 cpu[8];
  if (!rseq_config(t, &c) || c.size < 32) return 0;
  wr_le32(cpu, (u32)r->pin_cpu);     /* cpu_id_start */
  wr_le32(cpu + 4, (u32)r->pin_cpu); /* cpu_id */
  RW_FORWARD(rec__mem_write(r, c.ptr, cpu, sizeof cpu));
  if (rec__mem_read(r, c.ptr, t->rseq_seen, 32) == 32) t->rseq_live = c.ptr;
  return 0;
}

int rec__rseq_check(struct rec *r, struct rec__task *t) {
  u8 now[32];
  if (rec__mem_read(r, t->rseq_live, now, 32) != 32 ||
      !memcmp(now, t->rseq_seen, 32))
    return 0;
  memcpy(t->rseq_seen, now, 32);
  return rec__mem_import(r, t->rseq_live & ~(u64)(REC_LINE - 1), REC_LINE);
}

/* Thread T, stopped, leaves a blocking syscall it was taken out of: its
 * registers in *REGS are set to the instant before the syscall
 * instruction, which runs again when the thread does. */
static int unwind_restart(struct rec__task *t, struct rw_regs *regs) {
  i64 rax = (i64)regs->gpr[RW_REG_rax];
  int restart = regs->orig_rax != ~0ull &&
                (rax == -512 || rax == -513 || rax == -514 || rax == -516);
  if (restart) {
    /* restart_syscall goes on with the call it continues (nanosleep's
     * remaining time): what it may write is that call's. */
    if (rax == -516) {
      static const int arg[6] = {RW_REG_rdi, RW_REG_rsi, RW_REG_rdx,
                                 RW_REG_r10, RW_REG_r8,  RW_REG_r9};
      t->rs_valid = 1;
      t->rs_nr = regs->orig_rax;
      for (int i = 0; i < 6; i++) t->rs_args[i] = regs->gpr[arg[i]];
    }
    regs->rip -= 2;
    regs->gpr[RW_REG_rax] = rax == -516 ? NR_restart_syscall : regs->orig_rax;
  }
  regs->orig_rax = ~0ull;
  return restart ? rec__regs_set_gprs(t->tid, regs) : 0;
}

/* Steps thread T (registers *REGS) out of the vDSO, whose code is about to
 * change under it; *REGS gets where it is then. */
static int leave_vdso(struct rec *r, struct rec__task *t, u64 lo, u64 hi,
                      struct rw_regs *regs) {
  for (int i = 0; i < 100000 && regs->rip >= lo && regs->rip < hi; i++) {
    int st;
    if (ptrace(PTRACE_SINGLESTEP, t->tid, 0, 0) < 0) return RW_ERR(errno);
    for (;;) {
      if (waitpid(t->tid, &st, __WALL) < 0 || !WIFSTOPPED(st)) return 0;
      /* A syscall stepped over reports its stops too (from a thread
       * already at one): on to the step's trap. */
      if (WSTOPSIG(st) != (SIGTRAP | 0x80)) break;
      if (ptrace(PTRACE_SINGLESTEP, t->tid, 0, 0) < 0) return RW_ERR(errno);
    }
    RW_FORWARD(rec__regs_get(r, t->tid, regs, 1));
  }
  return 0;
}

/* Seizes and stops every thread of process PID (r->proc), listing them
 * again until no new one appears (a stopped thread creates none). */
static int seize_all(struct rec *r, pid_t pid) {
  struct rec__proc *p = r->proc;
  for (;;) {
    size_t added;
    RW_FORWARD(seize_new(r, pid, &added));
    if (!added) break;
    for (size_t i = 0; i < r->nth; i++) {
      struct rec__task *t = r->th[i];
      if (t->state != REC_T_NEW) continue;
      int rc = wait_stopped(r, t);
      RW_FORWARD(rc);
      t->state = rc ? REC_T_READY : REC_T_GONE;
    }
  }
  size_t n = 0;
  for (size_t i = r->nth; i-- > 0;) {
    if (r->th[i]->proc != p) continue;
    if (r->th[i]->state == REC_T_GONE) rec__task_remove(r, r->th[i]);
    else n++;
  }
  RW_RETURN_IF(!n, RW_ENOTFOUND, "process %d ended while attaching",
               (int)pid);
  struct rec__task *lead = rec__task_find(r, pid);
  if (!lead) /* the leader itself has exited */
    for (size_t i = 0; i < r->nth && !lead; i++)
      if (r->th[i]->proc == p) lead = r->th[i];
  p->live = lead->tid;
  return 0;
}

/* What is learned of process PID (r->proc), stopped, before anything is
 * changed in it: options, CPU affinity, maps, registers out of
 * interrupted syscalls and out of the vDSO, which is patched then. 1 when
 * it has a seccomp filter of its own, else 0 or a negative code. */
static int take_in(struct rec *r, pid_t pid) {
  struct rec__proc *p = r->proc;
  for (size_t i = 0; i < r->nth; i++)
    if (r->th[i]->proc == p &&
        ptrace(PTRACE_SETOPTIONS, r->th[i]->tid, 0, (void *)ATTACH_OPTS) < 0)
      return RW_ERR(errno);
  _Static_assert(sizeof p->attach_mask == sizeof(cpu_set_t),
                 "attach_mask holds a cpu_set_t");
  p->attach_mask_ok = sched_getaffinity(pid, sizeof p->attach_mask,
                                        (cpu_set_t *)p->attach_mask) == 0;
  rec__set_cur(r, rec__task_find(r, p->live));
  RW_FORWARD(rec__mem_open(r));
  rec__pages_reset(r);
  RW_FORWARD(rec__maps_read(pid, p->maps));
  rec__follow_exec(r);

  /* Registers: out of interrupted syscalls, out of the vDSO. */
  u64 vlo = 0, vhi = 0;
  for (const struct rec__map *e = rec__maps_first(p->maps); e;
       e = rec__maps_next(p->maps, e))
    if (e->flags & REC_MAPF_VDSO) vlo = e->start, vhi = e->end;
  /* Their masks come back in rec__attach, or in rec__undo_attach. */
  int rc = 0;
  for (size_t i = 0; i < r->nth && rc == 0; i++) {
    struct rec__task *t = r->th[i];
    if (t->proc != p) continue;
    rc = block_all(t->tid, &t->detach_mask);
    t->detach_masked = rc == 0;
    if (rc == 0) rc = rec__regs_get(r, t->tid, &t->regs, 1);
    if (rc == 0) rc = unwind_restart(t, &t->regs);
    if (rc == 0 && vlo) rc = leave_vdso(r, t, vlo, vhi, &t->regs);
    t->entry = t->regs;
    rec__thread_comm(r, t->tid, t->name);
  }
  RW_FORWARD(rc);
  /* The vDSO as the kernel made it, to put back at the end. */
  if (!r->vdso_orig && vlo && vhi - vlo <= REC_BUF &&
      (r->vdso_orig = malloc(vhi - vlo))) {
    if (rec__mem_read(r, vlo, r->vdso_orig, vhi - vlo) == (i64)(vhi - vlo)) {
      r->vdso_len = vhi - vlo;
    } else {
      free(r->vdso_orig);
      r->vdso_orig = NULL;
    }
  }
  int keep = rec__vdso_patch(r);
  if (keep == 0)
    keep = rec__warn(r, ~0ull, "the vDSO of process %d could not be made "
                     "recordable: a call to its time functions will "
                     "diverge", (int)pid);
  RW_FORWARD(keep);
  /* A filter of the program's own could refuse the syscalls the recorder
   * makes its threads run, or kill them for it: none are made, rdtsc is
   * patched instead of trapped. */
  int filtered = 0;
  for (size_t i = 0; i < r->nth; i++)
    if (r->th[i]->proc == p &&
        rec__status_field(r->th[i]->tid, "Seccomp", -1) == 2)
      r->th[i]->own_seccomp = 1, filtered = 1;
  for (size_t i = 0; i < r->nth && filtered && keep >= 0; i++)
    if (r->th[i]->proc == p) keep = rseq_keep(r, r->th[i]);
  RW_FORWARD(keep);
  if (filtered && r->tsc_trap) r->tsc_trap = 0;
  if (filtered)
    RW_FORWARD(rec__warn(r, ~0ull, "process %d has a seccomp filter of its "
                         "own: rewind makes it run no syscall (rdtsc is "
                         "patched, not trapped; its threads' rseq areas "
                         "stay registered, and a replay may diverge where a "
                         "thread reads one the kernel has just changed)",
                         (int)pid));
  return filtered;
}

/* Has the threads of process PID (r->proc) stop their rseq areas and trap
 * rdtsc, through syscalls they make; FILTERED (a filter of its own): none.
 * Then gives them their signal masks back and pins them to the
 * recording's CPU. */
static int make_recordable(struct rec *r, pid_t pid, int filtered) {
  struct rec__proc *p = r->proc;
  u64 insn = filtered ? 0 : syscall_insn(r);
  if (!insn && !filtered) {
    rw_log(RW_LOG_ERROR, "-p %d: no syscall instruction in the process to "
           "have its threads call prctl and rseq with", (int)pid);
    return RW_EUNSUPPORTED;
  }
  int rc = 0;
  for (size_t i = 0; i < r->nth && rc == 0 && insn; i++) {
    struct rec__task *t = r->th[i];
    if (t->proc != p) continue;
    rc = tid_address(r, t, &t->regs, insn);
    if (rc == 0) rc = rseq_off(t, &t->regs, insn);
    if (rc == 0 && r->tsc_trap)
      rc = set_tsc(t, &t->regs, insn, PR_TSC_SIGSEGV);
  }
  /* Signals that came meanwhile are delivered once the history runs. */
  for (size_t i = 0; i < r->nth && rc == 0; i++) {
    if (r->th[i]->proc != p) continue;
    rc = unblock(r->th[i]->tid, r->th[i]->detach_mask);
    r->th[i]->detach_masked = rc < 0;
  }
  RW_FORWARD(rc);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(r->pin_cpu, &one);
  for (size_t i = 0; i < r->nth; i++)
    if (r->th[i]->proc == p)
      sched_setaffinity(r->th[i]->tid, sizeof one, &one);
  return 0;
}

int rec__attach(struct rec *r) {
  size_t np = 1 + r->n_attach_more;
  pid_t pids[REC_ATTACH_MAX];
  pids[0] = r->attach_pid;
  memcpy(pids + 1, r->attach_more, r->n_attach_more * sizeof *pids);
  r->attached = 1;
  /* Every process stopped first: one may be about to wait for another. */
  for (size_t k = 0; k < np; k++) {
    RW_FORWARD(check_target(pids[k]));
    struct rec__proc *p = k ? rec__proc_new(r, pids[k]) : &r->root;
    RW_RETURN_IF(!p, RW_ENOMEM, "process %d", (int)pids[k]);
    p->pid = p->live = pids[k];
    r->proc = p;
    RW_FORWARD(seize_all(r, pids[k]));
  }
  /* Whether rdtsc can be trapped is known once every filter is. */
  int filtered[REC_ATTACH_MAX];
  for (size_t k = 0; k < np; k++) {
    r->proc = rec__proc_at(r, k);
    filtered[k] = take_in(r, pids[k]);
    RW_FORWARD(filtered[k]);
  }
  for (size_t k = 0; k < np; k++) {
    r->proc = rec__proc_at(r, k);
    RW_FORWARD(make_recordable(r, pids[k], filtered[k]));
  }

  /* The state the history starts from: the others as forks of the
   * first. */
  r->proc = &r->root;
  struct rec__task *lead = rec__task_find(r, r->root.live);
  RW_FORWARD(rec__emit_state(r, lead, REC_DESCRIBE_AS_IS));
  for (size_t i = 0; i < r->nth; i++) r->th[i]->state = REC_T_READY;
  r->cur = NULL;
  r->proc = &r->root;
  r->last_run = lead->tid;
  r->last_proc = r->proc;
  r->n.threads = r->nth - 1;
  return trace_writer_flush(r->w);
}

/* ------------------------------------------------------------ detaching */

/* Thread T (the one running user code) stopped with ST for the detach:
 * records where it is. A syscall it was entering is taken back (it runs
 * once the thread goes on) and recorded as entered: rcx and r11 held
 * something else before its instruction, which nothing can tell now, so
 * the replay can only find the thread after that instruction. A signal
 * it was getting is kept for then. */
static int stop_running(struct rec *r, struct rec__task *t, int st) {
  int ev = st >> 16, sig = WSTOPSIG(st);
  rec__set_cur(r, t);
  if (t->step_signo && sig == SIGTRAP && !ev) {
    /* The signal's handler was being entered: that is recorded. */
    return rec__on_handler_entry(r);
  }
  if (sig == (SIGTRAP | 0x80)) {
    /* At the entry of a syscall: skip it, and go back before its
     * instruction. */
    struct rw_regs regs;
    u64 mask;
    RW_FORWARD(rec__regs_get(r, t->tid, &regs, 1));
    u64 nr = regs.orig_rax;
    regs.gpr[RW_REG_rax] = nr;
    RW_FORWARD(rec__emit_regs(r, TRACE_REC_SYSCALL_ENTER, nr, 0, 0, &regs, 1));
    regs.orig_rax = ~0ull;
    RW_FORWARD(rec__regs_set_gprs(t->tid, &regs));
    RW_FORWARD(block_all(t->tid, &mask));
    if (rec__next_syscall_stop(t->tid, 2) < 0) return 0; /* gone */
    RW_FORWARD(unblock(t->tid, mask));
    regs.rip -= 2;
    regs.gpr[RW_REG_rax] = nr;
    return rec__regs_set_gprs(t->tid, &regs);
  } else if (!ev) {
    int ans = rec__signal_answer(r, sig);
    RW_FORWARD(ans);
    if (ans == 1) return 0; /* an rdtsc: its record locates the thread */
    t->rsig = sig;
  }
  return rec__preempt(r);
}

/* Thread T, inside a syscall, stopped with ST: records the syscall's exit
 * when that is what it is. 1 when the thread is stopped for good, 0 when
 * it must go on to that exit. */
static int stop_in_syscall(struct rec *r, struct rec__task *t, int st) {
  int ev = st >> 16, sig = WSTOPSIG(st);
  if (sig == (SIGTRAP | 0x80)) {
    rec__set_cur(r, t);
    RW_FORWARD(rec__sys_exit(r));
    return 1;
  }
  /* An event inside the syscall (a fork's, a clone's): on to its exit.
   * A signal interrupting it comes after the exit. */
  ptrace(PTRACE_SYSCALL, t->tid, 0, (void *)(long)(ev ? 0 : sig));
  return 0;
}

/* Whether thread T still has to reach a stop before the detach. */
static int moving(const struct rec__task *t) {
  return t->state == REC_T_RUNNING ||
         (t->state == REC_T_KERNEL && t->in_syscall);
}

int rec__detach(struct rec *r) {
  /* Stop whoever is not stopped. */
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *t = r->th[i];
    if (moving(t)) ptrace(PTRACE_INTERRUPT, t->tid, 0, 0);
  }
  int rc = 0;
  for (;;) {
    int any = 0;
    for (size_t i = 0; i < r->nth; i++) any |= moving(r->th[i]);
    if (!any || rc < 0) break;
    int st;
    pid_t p = waitpid(-1, &st, __WALL);
    if (p < 0 && errno == EINTR) continue;
    if (p < 0) break;
    struct rec__task *t = rec__task_find(r, p);
    if (!t || !WIFSTOPPED(st)) {
      /* A task gone, or one the kernel attached (a new thread): let the
       * loop's handler see it, as it would have. */
      rc = rec__on_status(r, p, st);
      continue;
    }
    int ev = st >> 16;
    if (ev == PTRACE_EVENT_EXIT) { /* dying anyway */
      ptrace(PTRACE_CONT, t->tid, 0, 0);
      continue;
    }
    if (!moving(t)) { /* a stop that was waiting to be handled */
      t->has_pend = 1;
      t->pend_status = st;
      continue;
    }
    if (t->in_syscall) {
      int done = stop_in_syscall(r, t, st);
      if (done < 0) rc = done;
      if (done) t->state = REC_T_READY;
    } else {
      t->state = REC_T_READY; /* stopped: nothing resumes it */
      rc = stop_running(r, t, st);
    }
  }
  /* Stops that were waiting: the exits of syscalls are recorded, signals
   * are delivered once the thread goes. */
  for (size_t i = 0; i < r->nth && rc == 0; i++) {
    struct rec__task *t = r->th[i];
    if (t->state == REC_T_GONE || !t->has_pend) continue;
    t->has_pend = 0;
    int st = t->pend_status, ev = st >> 16, sig = WSTOPSIG(st);
    if (sig == (SIGTRAP | 0x80) && t->in_syscall) {
      rec__set_cur(r, t);
      rc = rec__sys_exit(r);
    } else if (!ev && sig != SIGTRAP && sig != (SIGTRAP | 0x80)) {
      t->rsig = sig;
    }
  }
  for (size_t i = 0; i < r->nth && rc == 0; i++) {
    struct rec__task *t = r->th[i];
    if (t->rseq_live && t->state != REC_T_GONE) {
      rec__set_cur(r, t);
      rc = rec__rseq_check(r, t);
    }
  }
  r->cur = NULL;
  r->proc = &r->root;
  /* The first process gone, the others go on: no digest to check. */
  if (rc == 0 && !r->root.gone) rc = rec__detach_end(r);
  else if (rc == 0) rc = rec__emit_detach(r, 0, NULL);
  if (rc == 0) rc = trace_writer_flush(r->w);
  r->let_go = 1;
  rec__undo_attach(r);
  return rc;
}

void rec__undo_attach(struct rec *r) {
  for (size_t k = 0; k < rec__proc_count(r); k++) {
    struct rec__proc *p = rec__proc_at(r, k);
    if (p->gone) continue;
    r->proc = p;
    /* rdtsc and rseq first, through the patched vDSO's syscall
     * instruction. */
    u64 insn = syscall_insn(r);
    for (size_t i = 0; i < r->nth; i++) {
      struct rec__task *t = r->th[i];
      if (t->proc == p && t->state != REC_T_GONE && !t->detach_masked &&
          block_all(t->tid, &t->detach_mask) == 0)
        t->detach_masked = 1;
    }
    for (size_t i = 0; i < r->nth && insn; i++) {
      struct rec__task *t = r->th[i];
      struct rw_regs regs;
      if (t->proc != p || t->state == REC_T_GONE ||
          rec__regs_get(r, t->tid, &regs, 0) < 0)
        continue;
      if (r->tsc_trap && set_tsc(t, &regs, insn, PR_TSC_ENABLE) < 0)
        rw_log(RW_LOG_INFO, "warning: could not re-enable rdtsc in thread "
               "%d; it gets SIGSEGV if it executes rdtsc", (int)t->tid);
      if (t->rseq_ptr && rseq_on(t, &regs, insn) < 0)
        rw_log(RW_LOG_INFO, "note: could not register the rseq area of "
               "thread %d again; glibc reads its CPU with a syscall now",
               (int)t->tid);
    }
    rec__tsc_unpatch_child(r, p->pid);
    const struct rec__map *v = NULL;
    for (const struct rec__map *e = rec__maps_first(p->maps); e;
         e = rec__maps_next(p->maps, e))
      if (e->flags & REC_MAPF_VDSO) v = e;
    if (!v || !r->vdso_orig || v->end - v->start != r->vdso_len) continue;
    /* A thread stopped in a patched function (at a syscall's exit) would
     * come back to other code: it finishes the function first. */
    for (size_t i = 0; i < r->nth; i++) {
      struct rec__task *t = r->th[i];
      struct rw_regs regs;
      if (t->proc == p && t->state != REC_T_GONE &&
          rec__regs_get(r, t->tid, &regs, 0) == 0 && leave_vdso(r, t, v->start,
                                                                v->end,
                                                                &regs) < 0)
        continue;
    }
    if (rec__mem_write(r, v->start, r->vdso_orig, r->vdso_len) < 0)
      rw_log(RW_LOG_INFO, "warning: could not put back the vDSO of process "
             "%d: its time functions go on making syscalls", (int)p->pid);
  }
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *t = r->th[i];
    if (t->state == REC_T_GONE) continue;
    if (t->proc && t->proc->attach_mask_ok)
      sched_setaffinity(t->tid, sizeof t->proc->attach_mask,
                        (const cpu_set_t *)t->proc->attach_mask);
    if (t->detach_masked && unblock(t->tid, t->detach_mask) < 0)
      rw_log(RW_LOG_INFO, "warning: could not give thread %d its signal "
             "mask back", (int)t->tid);
    ptrace(PTRACE_DETACH, t->tid, 0, (void *)(long)t->rsig);
    t->state = REC_T_GONE;
  }
  free(r->vdso_orig);
  r->vdso_orig = NULL;
}
