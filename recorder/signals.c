/* SPDX-License-Identifier: MIT */
/* Signals of the recorded thread. rdtsc/rdtscp trapped by PR_TSC_SIGSEGV are
 * answered here and never reach the program. Other signals are delivered by
 * single-stepping into the handler, so that SIGNAL holds the registers the
 * handler starts with and the kernel-written frame becomes a memory import;
 * an asynchronous one is first located by PREEMPT (registers and the memory
 * digest, DESIGN.md section 2). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

/* si_code of a SIGSYS sent by syscall user dispatch instead of running a
 * syscall (PR_SET_SYSCALL_USER_DISPATCH, Linux 5.11). */
#define REC_SYS_USER_DISPATCH 2

int rec__signal_is_sync(int sig, int code) {
  switch (sig) {
    case SIGSEGV:
    case SIGBUS:
    case SIGFPE:
    case SIGILL:
    case SIGTRAP:
      return code > 0; /* raised by the CPU, not sent by someone */
    case SIGSYS:
      /* Raised by a syscall instruction the kernel dispatched to the
       * program (no syscall stop comes first): the replay finds it at
       * that instruction, it needs no PREEMPT. */
      return code == REC_SYS_USER_DISPATCH;
    default:
      return 0;
  }
}

/* What the signal's disposition is in the tracee: 2 caught by a handler,
 * 1 ignored (explicitly or by default), 0 default action that stops or
 * terminates the process. */
int rec__disposition(pid_t tid, int sig) {
  char path[64], line[256];
  unsigned long long ign = 0, cgt = 0;
  snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
  FILE *f = fopen(path, "re");
  if (f) {
    while (fgets(line, sizeof line, f)) {
      if (sscanf(line, "SigIgn: %llx", &ign) == 1) continue;
      if (sscanf(line, "SigCgt: %llx", &cgt) == 1) break;
    }
    fclose(f);
  }
  unsigned long long bit = 1ull << (sig - 1);
  if (cgt & bit) return 2;
  if (ign & bit) return 1;
  switch (sig) {
    case SIGCHLD:
    case SIGCONT:
    case SIGURG:
    case SIGWINCH:
      return 1;
    default:
      return 0;
  }
}

/* Answers the rdtsc (IS_P 0) or rdtscp (1) at RIP of the current thread,
 * whose registers are in t->regs, as the CPU would, and records it. */
static int answer_at(struct rec *r, u64 rip, int is_p) {
  struct rec__task *t = r->cur;
  struct rw_regs *regs = &t->regs;
  u32 aux = 0;
  u64 tsc = rec__tsc_read(is_p, &aux);
  regs->gpr[RW_REG_rax] = (u32)tsc;
  regs->gpr[RW_REG_rdx] = tsc >> 32;
  if (is_p) regs->gpr[RW_REG_rcx] = aux;
  regs->rip = rip + (is_p ? 3 : 2);
  RW_FORWARD(rec__regs_set_gprs(t->tid, regs));
  r->n.rdtsc++;
  return rec__emit_rdtsc(r, rip, tsc, aux, (u32)is_p);
}

/* Answers a trapped rdtsc or rdtscp at the thread's rip. Returns 1 when the
 * SIGSEGV was one, 0 when it was a real fault (or an rdtsc trap the
 * program asked for with PR_SET_TSC, which it gets), or a negative
 * code. */
static int answer_tsc(struct rec *r, u64 *at) {
  struct rw_regs *regs = &r->cur->regs;
  u8 insn[3] = {0};
  RW_FORWARD(rec__regs_get(r, r->cur->tid, regs, 0));
  if (rec__mem_read(r, regs->rip, insn, 3) < 2) return 0;
  int is_p;
  if (insn[0] == 0x0f && insn[1] == 0x31)
    is_p = 0;
  else if (insn[0] == 0x0f && insn[1] == 0x01 && insn[2] == 0xf9)
    is_p = 1;
  else
    return 0;
  if (r->cur->tsc_mode == PR_TSC_SIGSEGV) return 0;
  *at = regs->rip;
  RW_FORWARD(answer_at(r, regs->rip, is_p));
  return 1;
}

/* Runs rdrand (SEED 0) or rdseed of OSZ bytes here, on the same CPU as
 * the recorded thread: the value and the CF it set. */
static u64 run_rand(int seed, unsigned osz, int *cf) {
  u64 v = 0;
  u8 c = 0;
  /* Encoded by hand: rdrand/rdseed rax (REX.W 0F C7 /6 or /7), or eax, or
   * ax (66), so that no -mrdrnd/-mrdseed build option is needed. */
  if (osz == 8 && !seed)
    __asm__ volatile(".byte 0x48, 0x0f, 0xc7, 0xf0; setc %1"
                     : "=a"(v), "=qm"(c)
                     :
                     : "cc");
  else if (osz == 8)
    __asm__ volatile(".byte 0x48, 0x0f, 0xc7, 0xf8; setc %1"
                     : "=a"(v), "=qm"(c)
                     :
                     : "cc");
  else if (osz == 4 && !seed)
    __asm__ volatile(".byte 0x0f, 0xc7, 0xf0; setc %1"
                     : "=a"(v), "=qm"(c)
                     :
                     : "cc");
  else if (osz == 4)
    __asm__ volatile(".byte 0x0f, 0xc7, 0xf8; setc %1"
                     : "=a"(v), "=qm"(c)
                     :
                     : "cc");
  else if (!seed)
    __asm__ volatile(".byte 0x66, 0x0f, 0xc7, 0xf0; setc %1"
                     : "=a"(v), "=qm"(c)
                     :
                     : "cc");
  else
    __asm__ volatile(".byte 0x66, 0x0f, 0xc7, 0xf8; setc %1"
                     : "=a"(v), "=qm"(c)
                     :
                     : "cc");
  *cf = c;
  return osz == 8 ? v : osz == 4 ? (u32)v : (u16)v;
}

/* Answers the patched rdrand or rdseed P of the current thread as the CPU
 * would: the destination register (a 16-bit one keeps its upper bits, a
 * 32-bit one is zero-extended), CF, the other arithmetic flags cleared. */
static int answer_rand(struct rec *r, const struct rec__tscp *p) {
  struct rec__task *t = r->cur;
  struct rw_regs *regs = &t->regs;
  int cf;
  u64 v = run_rand(p->kind == REC_ND_RDSEED, p->osz, &cf);
  u64 *g = &regs->gpr[p->reg];
  *g = p->osz == 2 ? (*g & ~0xffffull) | v : v;
  regs->rflags &= ~0x8d5ull; /* OF SF ZF AF PF CF */
  if (cf) regs->rflags |= 1;
  regs->rip = p->addr + p->len;
  RW_FORWARD(rec__regs_set_gprs(t->tid, regs));
  r->n.rdrand++;
  return rec__emit_rdtsc(r, p->addr, v, (u32)cf, p->kind);
}

/* The abort status a patched xbegin gets: 0, no reason named and no RETRY
 * bit (bit 1), as the CPU reports aborts it names no reason for (measured:
 * spontaneous aborts of empty transactions, popf in one). Software that
 * reads the status (glibc's lock elision, the usual retry loops) then takes
 * its fallback path at once instead of trying again, each try costing a
 * ptrace stop. Any fixed value would replay: the record carries it. */
#define REC_XBEGIN_STATUS 0u

/* Answers the patched xbegin P of the current thread: its transaction
 * aborts before it starts, which the CPU may always do. EAX = the status
 * (zero-extended into rax, as the CPU writes it: measured), rip = the
 * fallback address; the other registers, the flags and memory keep their
 * values, as after a real abort. */
static int answer_xbegin(struct rec *r, const struct rec__tscp *p) {
  struct rec__task *t = r->cur;
  struct rw_regs *regs = &t->regs;
  regs->gpr[RW_REG_rax] = REC_XBEGIN_STATUS;
  regs->rip = p->target;
  RW_FORWARD(rec__regs_set_gprs(t->tid, regs));
  r->n.xbegin++;
  return rec__emit_rdtsc(r, p->addr, REC_XBEGIN_STATUS, 0, p->kind);
}

/* The int3 that replaced an rdtsc, rdrand, rdseed or xbegin
 * (recorder/tscpatch.c) stops with rip after it. Returns 1 when this
 * SIGTRAP was one, 0 if not, or a negative code. */
static int answer_patched(struct rec *r, u64 *at) {
  struct rw_regs *regs = &r->cur->regs;
  RW_FORWARD(rec__regs_get(r, r->cur->tid, regs, 0));
  const struct rec__tscp *p = rec__tsc_patch_at(r, regs->rip - 1);
  if (!p) return 0;
  *at = p->addr;
  if (p->kind == REC_ND_XBEGIN) RW_FORWARD(answer_xbegin(r, p));
  else if (p->kind >= REC_ND_RDRAND) RW_FORWARD(answer_rand(r, p));
  else RW_FORWARD(answer_at(r, p->addr, p->kind == REC_ND_RDTSCP));
  return 1;
}

/* SIG with SI, stopped at the current thread: when it is the trap of an
 * rdtsc or a patched instruction, answers it and returns 1; 0 when it is
 * the program's own signal; or a negative code. */
static int answer(struct rec *r, int sig, const siginfo_t *si) {
  if ((sig == SIGSEGV && si->si_code > 0) ||
      (sig == SIGTRAP && si->si_code == SI_KERNEL && r->proc->ntscp)) {
    u64 at = 0;
    int rc = sig == SIGSEGV ? answer_tsc(r, &at) : answer_patched(r, &at);
    RW_FORWARD(rc);
    if (rc == 1) {
      /* The kernel forced the signal: if the thread blocked it or the
       * process ignored it, the program's disposition was reset. */
      RW_FORWARD(rec__forced_restore(r, sig, at));
      return 1;
    }
  }
  return 0;
}

int rec__signal_answer(struct rec *r, int sig) {
  siginfo_t si;
  memset(&si, 0, sizeof si);
  if (ptrace(PTRACE_GETSIGINFO, r->cur->tid, 0, &si) < 0) si.si_code = 0;
  return answer(r, sig, &si);
}

/* The current thread stops for fault SIG, which kills it (its default
 * action): the first time, the signal is passed on and 0 returned. When
 * the same fault comes again, the kernel dropped the signal: the init
 * process of a PID namespace ignores its own fatal signals while traced
 * (a fault clears that immunity only in an untraced process), so it would
 * fault for ever. It is killed with SIGKILL then, with a warning, and 1
 * returned; its parent sees SIGKILL where it would see SIG. */
static int fatal_again(struct rec *r, int sig) {
  struct rec__task *t = r->cur;
  errno = 0;
  long rip = ptrace(PTRACE_PEEKUSER, t->tid,
                    (void *)offsetof(struct user_regs_struct, rip), 0);
  if (errno) return 0;
  if (t->fatal_signo != sig || t->fatal_rip != (u64)rip) {
    t->fatal_signo = sig;
    t->fatal_rip = (u64)rip;
    return 0;
  }
  t->fatal_signo = 0;
  rw_log(RW_LOG_ERROR,
         "process %d ignores signal %d (%s), which kills it natively: it "
         "is the init of a PID namespace, which ignores its own fatal "
         "signals while traced; rewind kills it with SIGKILL instead (its "
         "parent sees SIGKILL)",
         (int)t->proc->pid, sig, strsignal(sig));
  RW_RETURN_IF(kill(t->proc->pid, SIGKILL) < 0, RW_ERR(errno),
               "kill %d", (int)t->proc->pid);
  return 1;
}

int rec__on_signal(struct rec *r, int sig, int *inject, int *step) {
  struct rec__task *t = r->cur;
  siginfo_t si;
  *inject = sig;
  *step = 0;
  memset(&si, 0, sizeof si);
  if (ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) < 0) si.si_code = 0;
  int ans = answer(r, sig, &si);
  RW_FORWARD(ans);
  if (ans == 1) {
    *inject = 0;
    return 0;
  }
  if (sig == SIGSEGV || sig == SIGTRAP) rec__forced_delivered(r, sig);
  int disp = rec__disposition(t->tid, sig);
  int sync = rec__signal_is_sync(sig, si.si_code);
  int stops = sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
              sig == SIGTTOU;
  r->n.signals++;
  if (disp == 1 || (disp == 0 && stops)) return 0; /* no effect on memory */
  if (sync && disp == 0) {
    int rc = fatal_again(r, sig);
    RW_FORWARD(rc);
    if (rc == 1) {
      *inject = 0;
      return 0;
    }
  }
  if (sync) t->sync_signo = sig;
  if (!sync) {
    /* Asynchronous: record where the thread was. */
    RW_FORWARD(rec__preempt(r));
    if (disp == 0) t->sync_signo = -sig; /* located: fatal, async */
  }
  if (disp == 2) {
    *step = 1;
    t->step_signo = sig;
    memcpy(t->step_info, &si, sizeof t->step_info);
  }
  return 0;
}

/* The end of the kernel-written signal frame at SP: the saved FPU/XSAVE
 * state is its highest part (uc_mcontext.fpstate, sized by its software
 * header). Returns SP + 4096 when the frame does not look as expected. */
static u64 frame_end(struct rec *r, u64 sp) {
  u8 b[8];
  /* rt_sigframe: pretcode (8), ucontext: uc_flags 8, uc_link 8, uc_stack
   * 24, then sigcontext whose 24th word is the fpstate pointer. */
  if (rec__mem_read(r, sp + 8 + 40 + 23 * 8, b, 8) != 8) return sp + 4096;
  u64 fp = rd_le64(b);
  if (fp <= sp || fp - sp > (1u << 20)) return sp + 4096;
  u8 sw[16];
  if (rec__mem_read(r, fp + 464, sw, sizeof sw) != sizeof sw) return fp + 512;
  u32 magic1 = rd_le32(sw), ext = rd_le32(sw + 4);
  if (magic1 == 0x46505853u && ext >= 512 && ext < (1u << 20))
    return fp + ext;
  return fp + 512;
}

int rec__on_handler_entry(struct rec *r) {
  struct rec__task *t = r->cur;
  int sig = t->step_signo;
  t->step_signo = 0;
  rec__forced_mask_lost(r, ~0ull); /* the handler's mask */
  RW_FORWARD(rec__regs_get(r, t->tid, &t->regs, 1));
  u64 sp = t->regs.gpr[RW_REG_rsp];
  siginfo_t si;
  memcpy(&si, t->step_info, sizeof si);
  u64 addr = 0;
  if (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
      sig == SIGTRAP)
    addr = (u64)(uintptr_t)si.si_addr;
  else if (sig == SIGSYS && si.si_code == REC_SYS_USER_DISPATCH)
    addr = (u64)(uintptr_t)si.si_call_addr; /* after the syscall */
  RW_FORWARD(rec__emit_signal(r, sig, si.si_code, addr, &t->regs,
                              t->step_info));
  RW_FORWARD(rec__mem_import(r, sp, frame_end(r, sp) - sp));
  RW_FORWARD(rec__emit_pkru(r, t->tid, 0)); /* the kernel's default rights */
  return rec__watch_check(r); /* the handler may read what a child wrote */
}
