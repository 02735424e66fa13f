/* SPDX-License-Identifier: MIT */
/* The legacy vsyscall page. A call to 0xffffffffff600000 (gettimeofday),
 * ...600400 (time) or ...600800 (getcpu) faults, and the kernel performs
 * the syscall itself and returns to the caller: there is no syscall stop,
 * and what it wrote would be missing from the trace. Its one hook is
 * seccomp: before the call, the kernel runs the thread's filters with the
 * instruction pointer at the entry. So the recorder's child installs,
 * before its exec, a filter that asks for a ptrace stop
 * (SECCOMP_RET_TRACE) for an instruction pointer in that page and allows
 * everything else. At the stop the recorder performs the call, writes its
 * outputs, records it as a syscall entered at the entry, and has the
 * kernel skip it; the kernel then returns to the caller. The replayer
 * takes an execute fault at an entry, when the next record is that
 * syscall, as the call (replayer/step.c).
 *
 * The filter must not show: prctl(PR_GET_SECCOMP) and
 * prctl(PR_GET_NO_NEW_PRIVS) answer what the program set itself
 * (sysrec.c). A SECCOMP_RET_TRACE of the program's own filter, which
 * without a tracer that asks fails the call with ENOSYS, still does. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "recorder/rec_int.h"
#include "recorder/sbuf.h"

#define VSYS_BASE REC_VSYS_BASE

/* The syscall of the vsyscall entry at IP, or -1 for any other address. */
static long vsys_nr(u64 ip) {
  switch (ip) {
    case VSYS_BASE: return SYS_gettimeofday;
    case VSYS_BASE + 0x400: return SYS_time;
    case VSYS_BASE + 0x800: return SYS_getcpu;
    default: return -1;
  }
}

int rec__vsyscall_present(void) {
  FILE *f = fopen("/proc/self/maps", "re");
  char line[512];
  int yes = 0;
  if (!f) return 0;
  while (!yes && fgets(line, sizeof line, f)) {
    char perm[8];
    if (strstr(line, "[vsyscall]") && sscanf(line, "%*s %7s", perm) == 1)
      yes = strchr(perm, 'x') != NULL;
  }
  fclose(f);
  return yes;
}

void rec__seccomp_filter(int sbuf) {
  enum { IP_LO = offsetof(struct seccomp_data, instruction_pointer) };
  /* Any other syscall: stopped under the syscall buffer, else let go. */
  u32 other = sbuf ? SECCOMP_RET_TRACE | REC_SB_DATA : SECCOMP_RET_ALLOW;
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO + 4),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (u32)(VSYS_BASE >> 32), 0, 4),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (u32)VSYS_BASE, 0, 6),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (u32)VSYS_BASE + 4096, 5, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | REC_VSYS_DATA),
      /* The syscall buffer's instruction (recorder/sbuf.h) runs freely. */
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (u32)(RW_SB_IP >> 32), 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (u32)RW_SB_IP, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, other),
  };
  struct sock_fprog prog = {sizeof f / sizeof *f, f};
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0) return;
  /* Without CAP_SYS_ADMIN a filter needs no_new_privs; under ptrace a
   * set-user-ID program gains nothing anyway. */
  if (errno == EACCES && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

/* The "NAME: N" line of /proc/PID/status, or -1. */
static int status_field(pid_t pid, const char *name) {
  char path[64], line[256];
  size_t n = strlen(name);
  int v = -1;
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "re");
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, name, n) && line[n] == ':') {
      v = atoi(line + n + 1);
      break;
    }
  fclose(f);
  return v;
}

void rec__vsyscall_started(struct rec *r, int wanted) {
  int mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
  int nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
  int now = status_field(r->proc->pid, "Seccomp");
  if (wanted && mode == 0 && now == 0)
    rw_log(RW_LOG_INFO, "seccomp is not available: a call into the "
           "vsyscall page (0xffffffffff600000) will not replay");
  r->proc->hide_seccomp = mode == 0 && now == 2;
  r->proc->hide_nnp = nnp == 0 && status_field(r->proc->pid, "NoNewPrivs") == 1;
}

/* One output of a vsyscall: LEN bytes for ADDR. */
struct vsys_out {
  u64 addr;
  u8 bytes[16];
  u32 len;
};

static void add_out(struct vsys_out *w, int *nw, u64 addr, const void *src,
                    u32 len) {
  if (!addr) return; /* NULL: the kernel writes nothing there */
  w[*nw].addr = addr;
  w[*nw].len = len;
  memcpy(w[*nw].bytes, src, len);
  (*nw)++;
}

/* Performs vsyscall NR for the current thread, whose registers are IN,
 * and writes its outputs into the thread; W gets them too. Returns the
 * result; *FAILED is 1 when a write failed (a bad pointer). */
static i64 perform(struct rec *r, long nr, const struct rw_regs *in,
                   struct vsys_out w[2], int *nw, int *failed) {
  u64 p0 = in->gpr[RW_REG_rdi], p1 = in->gpr[RW_REG_rsi];
  i64 res;
  *nw = 0;
  if (nr == SYS_gettimeofday) {
    struct timeval tv;
    struct timezone tz;
    res = syscall(SYS_gettimeofday, &tv, &tz) < 0 ? -errno : 0;
    add_out(w, nw, p0, &tv, 16);
    add_out(w, nw, p1, &tz, 8);
  } else if (nr == SYS_time) {
    i64 now = (i64)time(NULL);
    res = now;
    add_out(w, nw, p0, &now, 8);
  } else { /* getcpu; the kernel ignores its third argument here */
    unsigned cpu = 0, node = 0;
    res = syscall(SYS_getcpu, &cpu, &node, NULL) < 0 ? -errno : 0;
    add_out(w, nw, p0, &cpu, 4);
    add_out(w, nw, p1, &node, 4);
  }
  *failed = 0;
  for (int i = 0; i < *nw; i++)
    if (rec__mem_write(r, w[i].addr, w[i].bytes, w[i].len) < 0) *failed = 1;
  return res;
}

int rec__on_seccomp(struct rec *r) {
  struct rec__task *t = r->cur;
  unsigned long data = 0;
  if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &data) < 0) return 0;
  /* The program's own filter answered SECCOMP_RET_TRACE for a syscall:
   * with no tracer asking for it, the kernel fails the call. */
  if (t->in_syscall) return rec__sys_skip(r, -ENOSYS);
  struct rw_regs out, *in = &t->entry; /* FP carried over unless read */
  int fp = r->n.syscalls % REC_FP_EVERY == 0;
  RW_FORWARD(rec__regs_get(r, t->tid, in, fp));
  long nr = vsys_nr(in->rip);
  u64 caller;
  if (nr < 0 || (u64)nr != in->orig_rax ||
      rec__mem_read(r, in->gpr[RW_REG_rsp], &caller, 8) != 8)
    return 0; /* not a vsyscall the kernel would run: it decides */
  struct vsys_out w[2];
  int nw = 0, failed = 0;
  i64 res = -ENOSYS; /* SECCOMP_RET_TRACE of the program's own filter */
  if ((data & SECCOMP_RET_DATA) == REC_VSYS_DATA) {
    res = perform(r, nr, in, w, &nw, &failed);
    /* A bad pointer: the kernel runs the call itself and raises SIGSEGV,
     * which is recorded as usual. */
    if (failed) return 0;
  }
  out = *in;
  out.orig_rax = ~0ull;
  out.gpr[RW_REG_rax] = (u64)res;
  RW_FORWARD(rec__regs_set_gprs(t->tid, &out));
  r->n.syscalls++;
  t->nr = (u64)nr;
  in->gpr[RW_REG_rax] = (u64)nr;
  t->fp_valid = fp;
  RW_FORWARD(rec__emit_regs(r, TRACE_REC_SYSCALL_ENTER, (u64)nr, 0, 0,
                            &t->entry, fp));
  for (int i = 0; i < nw; i++) {
    u64 a = w[i].addr & ~(u64)(REC_LINE - 1);
    RW_FORWARD(rec__mem_import(r, a, w[i].addr + w[i].len - a));
  }
  RW_FORWARD(rec__watch_check(r));
  /* What the kernel does next: a ret to the caller. */
  out.rip = caller;
  out.gpr[RW_REG_rsp] += 8;
  t->regs = out;
  return rec__emit_regs(r, TRACE_REC_SYSCALL_EXIT, (u64)nr, 1, res, &out,
                        fp);
}
