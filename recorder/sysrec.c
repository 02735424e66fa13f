/* SPDX-License-Identifier: MIT */
/* One syscall, from its entry stop to its exit stop: SYSCALL_ENTER with the
 * registers the replayer checks, then the address-space changes, the bytes
 * the kernel wrote (from the syscall table, or the generic diff) and
 * SYSCALL_EXIT. A few syscalls are altered so that the recording stays
 * replayable: rseq fails, MADV_FREE becomes MADV_DONTNEED, the program
 * cannot turn off rdtsc trapping, and a thread that changed its affinity
 * is pinned back after the syscall. A clone that
 * creates a thread starts that thread's stream after its exit. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

#define REC_PR_GET_TSC 25
#define REC_PR_SET_TSC 26
#define REC_PR_TSC_ENABLE 1
#define REC_PR_TSC_SIGSEGV 2
#define REC_PR_GET_SECCOMP 21
#define REC_PR_SET_SECCOMP 22
#define REC_PR_SET_NO_NEW_PRIVS 38
#define REC_PR_GET_NO_NEW_PRIVS 39

/* sched_setaffinity of one of PROG's threads (TID 0: the caller) ran as
 * the program asked (a seccomp filter sees it, errors are its own), and
 * succeeded: the thread goes back to the recorder's CPU. */
static void repin(struct rec *r, u64 tid) {
  cpu_set_t set;
  pid_t who = tid ? (pid_t)tid : r->cur->tid;
  if (tid && tid != (u64)r->proc->pid && !rec__task_find(r, who)) return;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    sched_setaffinity(who, sizeof set, &set);
}

int rec__sys_skip(struct rec *r, i64 result) {
  struct rec__task *t = r->cur;
  struct rw_regs regs = t->entry;
  regs.orig_rax = ~0ull;
  regs.gpr[RW_REG_rax] = t->nr;
  t->fake = 1;
  t->fake_result = result;
  return rec__regs_set_gprs(t->tid, &regs);
}

/* prctl(PR_GET_TSC/PR_SET_TSC): rewind traps rdtsc for its own use, so
 * the thread is told the mode it set itself, as if rewind were not there
 * (an rdtsc is still answered in the mode PR_TSC_SIGSEGV). */
static int tsc_prctl(struct rec *r, const u64 a[6]) {
  struct rec__task *t = r->cur;
  if (a[0] == REC_PR_SET_TSC) {
    if (a[1] != REC_PR_TSC_ENABLE && a[1] != REC_PR_TSC_SIGSEGV)
      return rec__sys_skip(r, -EINVAL);
    t->tsc_mode = (int)a[1];
    return rec__sys_skip(r, 0);
  }
  u8 v[4];
  wr_le32(v, t->tsc_mode ? (u32)t->tsc_mode : REC_PR_TSC_ENABLE);
  if (rec__mem_write(r, a[1], v, 4) < 0) return rec__sys_skip(r, -EFAULT);
  RW_FORWARD(rec__mem_import(r, a[1], 4)); /* the kernel's write */
  return rec__sys_skip(r, 0);
}

/* After a successful syscall NR (ARGS) of thread T: once a thread has a
 * seccomp filter or no_new_privs of the program's own, prctl tells it
 * the truth about them. SECCOMP_FILTER_FLAG_TSYNC gives the filter (and
 * no_new_privs) to every thread. */
static int seccomp_set(struct rec *r, struct rec__task *t, const u64 a[6]) {
  int sb_rc = 0;
  if (t->nr == REC_NR_prctl && a[0] == REC_PR_SET_NO_NEW_PRIVS)
    t->own_nnp = 1;
  /* seccomp's modes: 0 strict, 1 filter (which may return a descriptor) */
  if (!(t->nr == REC_NR_seccomp && a[0] <= 1) &&
      !(t->nr == REC_NR_prctl && a[0] == REC_PR_SET_SECCOMP))
    return 0;
  t->own_seccomp = 1;
  /* Its filter may fail a syscall before rewind's asks for a stop: from
   * now on every syscall of the process stops at its entry, and the
   * syscall buffer is off. */
  if (r->sbuf && !r->proc->sb_fullstop) {
    r->proc->sb_fullstop = 1;
    sb_rc = rec__sb_off(r);
  }
  if (t->nr == REC_NR_seccomp && a[0] == 1 && (a[1] & 1))
    for (size_t i = 0; i < r->nth; i++) {
      r->th[i]->own_seccomp = 1;
      r->th[i]->own_nnp |= t->own_nnp;
    }
  return sb_rc;
}

static const char *warn_text(u64 nr) {
  switch (nr) {
    case REC_NR_io_uring_setup:
    case REC_NR_io_uring_enter:
    case REC_NR_io_uring_register:
      return "the kernel fills io_uring's shared rings on its own";
    case REC_NR_userfaultfd:
      return "page faults served by userfaultfd are not recorded";
    case REC_NR_shmat:
      return "writes to System V shared memory by other processes are not "
             "recorded";
    case REC_NR_perf_event_open:
      return "the kernel writes perf ring buffers on its own";
    default:
      return "its memory effects are not recorded";
  }
}

/* A child made with CLONE_UNTRACED would escape the recorder: no fork
 * event, and, under the syscall buffer's filter, every syscall of its
 * failing (ENOSYS) with no tracer to stop at. AddressSanitizer's leak
 * check makes one to stop the program's threads with ptrace. The flag is
 * taken out for the kernel, so the child is seen as any other, and put
 * back at the exit (untraced_on), where the program looks. */
static int untraced_off(struct rec *r, struct rec__task *t) {
  u64 f = rec__clone_flags(r);
  t->untraced_off = 0;
  if (!(f & REC_CLONE_UNTRACED)) return 0;
  f &= ~REC_CLONE_UNTRACED;
  if (t->nr == REC_NR_clone) {
    struct rw_regs regs = t->entry;
    regs.gpr[RW_REG_rax] = ~(u64)ENOSYS + 1;
    regs.gpr[RW_REG_rdi] = f;
    RW_FORWARD(rec__regs_set_gprs(t->tid, &regs));
  } else {
    u8 b[8];
    wr_le64(b, f);
    RW_FORWARD(rec__mem_write(r, t->args[0], b, 8));
  }
  t->untraced_off = 1;
  if (!r->untraced_noted) {
    r->untraced_noted = 1;
    rw_log(RW_LOG_INFO,
           "note: %s makes a child with CLONE_UNTRACED; rewind traces it "
           "all the same. If it is AddressSanitizer's leak check, that "
           "check cannot work under a tracer (it fails, as under gdb or "
           "strace) and the replay may diverge there: record with "
           "ASAN_OPTIONS=detect_leaks=0",
           r->prog_name);
  }
  return 0;
}

static int untraced_on(struct rec *r, struct rec__task *t,
                       struct rw_regs *regs) {
  t->untraced_off = 0;
  if (t->nr == REC_NR_clone) {
    regs->gpr[RW_REG_rdi] = t->args[0];
    return rec__regs_set_gprs(t->tid, regs);
  }
  u8 b[8];
  if (rec__mem_read(r, t->args[0], b, 8) != 8) return 0;
  wr_le64(b, rd_le64(b) | REC_CLONE_UNTRACED);
  return rec__mem_write(r, t->args[0], b, 8);
}

int rec__sys_enter(struct rec *r) {
  struct rec__task *t = r->cur;
  /* The FP/SSE/AVX state costs one more ptrace call per stop; it is read
   * at every REC_FP_EVERY-th syscall and otherwise carried over (and then
   * flagged as not read, so the replayer does not compare it). */
  int fp = r->n.syscalls % REC_FP_EVERY == 0;
  RW_FORWARD(rec__regs_get(r, t->tid, &t->entry, fp));
  /* Under the syscall buffer's filter a seccomp stop is taken for a
   * syscall entry without asking which (recorder/loop.c): a call into the
   * vsyscall page is one too. */
  if (r->sbuf && t->entry.rip >= REC_VSYS_BASE) return 1;
  t->fp_valid = fp;
  t->nr = t->entry.orig_rax;
  /* At the stop, rax holds -ENOSYS; the program had the number there. */
  t->entry.gpr[RW_REG_rax] = t->nr;
  const u64 *g = t->entry.gpr;
  u64 a[6] = {g[RW_REG_rdi], g[RW_REG_rsi], g[RW_REG_rdx],
              g[RW_REG_r10], g[RW_REG_r8],  g[RW_REG_r9]};
  memcpy(t->args, a, sizeof a);
  /* restart_syscall continues what the kernel interrupted with
   * ERESTART_RESTARTBLOCK (nanosleep, clock_nanosleep, poll, a futex wait
   * with a timeout...) with that syscall's arguments: whether it may
   * block, and what it writes, are that syscall's. */
  t->eff_nr = t->nr;
  if (t->nr == REC_NR_restart_syscall && t->rs_valid) {
    t->eff_nr = t->rs_nr;
    memcpy(t->args, t->rs_args, sizeof t->args);
  }
  t->rs_valid = 0;
  t->in_syscall = 1;
  t->fake = 0;
  t->snap = 0;
  const struct rec__sc *sc = rec__sc_lookup(t->eff_nr);
  t->sc_flags = sc ? sc->flags : 0;
  r->n.syscalls++;
  RW_FORWARD(rec__emit_regs(r, TRACE_REC_SYSCALL_ENTER, t->nr, 0, 0,
                            &t->entry, t->fp_valid));
  RW_FORWARD(rec__output(r));
  RW_FORWARD(rec__sb_entry(r, t->nr, a));
  switch (t->nr) {
    case REC_NR_rseq:
      /* The kernel would write the rseq area on its own: refuse it. */
      return rec__sys_skip(r, -ENOSYS);
    case REC_NR_prctl:
      if (a[0] == REC_PR_SET_TSC || a[0] == REC_PR_GET_TSC)
        return tsc_prctl(r, a);
      /* rewind's own seccomp filter (vsyscall.c) does not show. */
      if (a[0] == REC_PR_GET_SECCOMP && r->proc->hide_seccomp &&
          !t->own_seccomp)
        return rec__sys_skip(r, 0);
      if (a[0] == REC_PR_GET_NO_NEW_PRIVS && r->proc->hide_nnp && !t->own_nnp)
        return rec__sys_skip(r, 0);
      break;
    case REC_NR_execve:
    case REC_NR_execveat:
      RW_FORWARD(rec__exec_env(r));
      break;
    case REC_NR_clone:
    case REC_NR_clone3:
      RW_FORWARD(untraced_off(r, t));
      break;
    case REC_NR_madvise:
      if (a[2] == 8) { /* MADV_FREE: pages may or may not read back zero */
        struct rw_regs regs = t->entry;
        regs.gpr[RW_REG_rax] = ~(u64)ENOSYS + 1;
        regs.gpr[RW_REG_rdx] = 4; /* MADV_DONTNEED */
        RW_FORWARD(rec__regs_set_gprs(t->tid, &regs));
      }
      break;
    default:
      break;
  }
  if (t->sc_flags & REC_SC_WARN)
    RW_FORWARD(rec__warn(r, t->nr, "%s: %s; the replay may differ",
                         sc->name, warn_text(t->nr)));
  /* PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_SEIZE: a recorded process is
   * rewind's tracee, and so is every child it records, so the kernel
   * refuses them (EPERM), and a program waiting for its tracee's stops
   * would wait for ever without a word. */
  if (t->nr == REC_NR_ptrace &&
      (t->args[0] == 0 || t->args[0] == 16 || t->args[0] == 0x4206))
    RW_FORWARD(rec__warn(r, t->nr, "ptrace: the program traces a process "
                         "itself, which rewind cannot record yet: rewind "
                         "traces it already, so the kernel refuses "
                         "(EPERM), and a program that waits for its "
                         "tracee's stops may wait for ever (Ctrl-C ends "
                         "the recording and keeps it)"));
  /* A recorded vfork child's writes are in its own stream. */
  if (rec__sc_needs_diff(t->eff_nr, t->args, rec__mem_read, r) &&
      !rec__follows_vfork(r)) {
    RW_FORWARD(rec__snap_take(r));
    t->snap = 1;
  }
  return 0;
}

static int cmp_range(const void *x, const void *y) {
  const struct rec__range *a = x, *b = y;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Imports the ranges in R->ranges, merged at cache-line granularity. */
static int import_ranges(struct rec *r) {
  struct rec__ranges *rs = &r->ranges;
  if (!rs->n) return 0;
  for (size_t i = 0; i < rs->n; i++) {
    u64 a = rs->v[i].addr & ~(u64)(REC_LINE - 1);
    u64 b = rs->v[i].addr + rs->v[i].len;
    if (b < rs->v[i].addr) b = ~0ull; /* wrapped */
    rs->v[i].addr = a;
    rs->v[i].len = b - a;
  }
  qsort(rs->v, rs->n, sizeof *rs->v, cmp_range);
  u64 a = rs->v[0].addr, b = a + rs->v[0].len;
  for (size_t i = 1; i < rs->n; i++) {
    u64 x = rs->v[i].addr, y = x + rs->v[i].len;
    if (x <= ((b + REC_LINE - 1) & ~(u64)(REC_LINE - 1))) {
      b = RW_MAX(b, y);
      continue;
    }
    RW_FORWARD(rec__mem_import(r, a, b - a));
    a = x, b = y;
  }
  return rec__mem_import(r, a, b - a);
}

/* Whether syscall NR with ARGS may change the caller's PKRU: rt_sigreturn
 * loads it from the frame, pkey_alloc sets the new key's rights, and a
 * PROT_EXEC-only protection may take an execute-only key that the kernel
 * makes unreadable in PKRU. */
static int sets_pkru(u64 nr, const u64 args[6]) {
  switch (nr) {
    case REC_NR_rt_sigreturn:
    case REC_NR_pkey_alloc:
      return 1;
    case REC_NR_mprotect:
    case REC_NR_pkey_mprotect:
      return args[2] == PROT_EXEC;
    default:
      return 0;
  }
}

int rec__sys_killed(struct rec *r, struct rec__task *t) {
  struct rw_regs regs;
  if (!t->in_syscall || t->fake || rec__regs_get(r, t->tid, &regs, 0) < 0)
    return 0;
  struct rec__task *was = r->cur; /* the records are T's */
  r->cur = t;
  r->ranges.n = 0;
  int rc = rec__sc_outputs(t->eff_nr, t->args, (i64)regs.gpr[RW_REG_rax],
                           rec__mem_read, r, &r->ranges);
  if (rc == 0) rc = import_ranges(r);
  r->cur = was;
  return rc;
}

int rec__sys_exit(struct rec *r) {
  struct rec__task *t = r->cur;
  struct rw_regs *regs = &t->regs;
  t->in_syscall = 0;
  t->kfe_ok = 0; /* its entry is no keyframe's any more */
  int fp = (t->sc_flags & REC_SC_FPREGS) != 0;
  RW_FORWARD(rec__regs_get(r, t->tid, regs, fp));
  if (!fp) { /* the kernel leaves them alone */
    memcpy(regs->fxsave, t->entry.fxsave, sizeof regs->fxsave);
    memcpy(regs->ymmh, t->entry.ymmh, sizeof regs->ymmh);
  } else {
    t->fp_valid = 1;
  }
  if (t->fake) {
    regs->gpr[RW_REG_rax] = (u64)t->fake_result;
    RW_FORWARD(rec__regs_set_gprs(t->tid, regs));
    regs->orig_rax = t->nr;
  }
  if (t->untraced_off) RW_FORWARD(untraced_on(r, t, regs));
  RW_FORWARD(rec__exec_env_undo(r, regs));
  int exec_ok = (t->nr == REC_NR_execve || t->nr == REC_NR_execveat) &&
                regs->gpr[RW_REG_rax] == 0 && !t->fake;
  /* The new image has not run yet: the syscall buffer's library goes in
   * first. */
  if (exec_ok) RW_FORWARD(rec__sb_exec(r, regs));
  if (t->skip_exit) { /* the exec that started the recording */
    t->skip_exit = 0;
    return 0;
  }
  i64 result = (i64)regs->gpr[RW_REG_rax];
  if (t->sc_flags & REC_SC_MAPS)
    RW_FORWARD(rec__space_after(r, t->nr, t->args, result));
  if (t->nr == REC_NR_personality && result >= 0) rec__follow_personality(r);
  if (!t->fake && result >= 0) RW_FORWARD(seccomp_set(r, t, t->args));
  if (t->nr == REC_NR_sched_setaffinity && result == 0) repin(r, t->args[0]);
  if ((t->nr == REC_NR_setrlimit || t->nr == REC_NR_prlimit64) && result == 0)
    RW_FORWARD(rec__stack_rules(r, 0)); /* the stack may grow less or more */
  /* Linux gives AMX's tile state only to a process that asks for it
   * (ARCH_REQ_XCOMP_PERM for XTILEDATA, component 18): that is when a
   * program shows it will run AMX, which the emulator does not. */
  if (t->nr == REC_NR_arch_prctl && result == 0 && t->args[0] == 0x1023 &&
      t->args[1] == 18 && !r->amx_noted) {
    r->amx_noted = 1;
    rw_log(RW_LOG_INFO,
           "note: the program asked the kernel for AMX (tile registers), "
           "which rewind does not emulate yet: it records, but its replay "
           "stops at its first AMX instruction");
  }
  r->ranges.n = 0;
  if (!t->fake)
    RW_FORWARD(rec__sc_outputs(t->eff_nr, t->args, result, rec__mem_read, r,
                               &r->ranges));
  RW_FORWARD(import_ranges(r));
  RW_FORWARD(rec__watch_check(r));
  if (!t->fake)
    RW_FORWARD(rec__files_after(r, t->eff_nr, t->args, result));
  if (!t->fake && t->eff_nr == REC_NR_rt_sigaction)
    RW_FORWARD(rec__forced_sigaction(r, t->args, result));
  if (result == -516) { /* ERESTART_RESTARTBLOCK */
    t->rs_valid = 1;
    t->rs_nr = t->eff_nr;
    memcpy(t->rs_args, t->args, sizeof t->args);
  }
  if (t->snap) {
    u64 lines = 0;
    RW_FORWARD(rec__snap_diff(r, &lines));
    RW_FORWARD(rec__emit_diff(r, t->nr, lines, rec__sc_name(t->nr)));
    r->n.diffs++;
    t->snap = 0;
  }
  RW_FORWARD(rec__sb_exit(r, regs));
  RW_FORWARD(rec__emit_regs(r, TRACE_REC_SYSCALL_EXIT, t->nr, 1, result, regs,
                            t->fp_valid));
  /* A syscall the library can log, from a glibc site it can take over:
   * from now on the site calls the library (recorder/sbuf.c). After the
   * exit, so that the code the syscall came from is as it ran until the
   * thread has left it (the replay's instruction counts decode a
   * straight run when it ends). And what the library may do with the
   * descriptor the syscall used. */
  RW_FORWARD(rec__sb_patch(r, regs));
  if (sets_pkru(t->nr, t->args)) RW_FORWARD(rec__emit_pkru(r, t->tid, 0));
  if (t->new_child) RW_FORWARD(rec__thread_started(r));
  return rec__thread_after_syscall(r, result);
}
