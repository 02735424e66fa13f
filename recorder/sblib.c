/* SPDX-License-Identifier: MIT */
/* The syscall buffer's library (recorder/sbuf.c maps it into every
 * recorded process at RW_SB_BASE). The vDSO's time functions jump here;
 * each makes its syscall through the one `syscall` instruction that
 * rewind's seccomp filter lets run without a ptrace stop, with its output
 * pointed into a record of the ring, and logs the result and the registers
 * there. The recorder turns each record into the SYSCALL_ENTER, MEM and
 * SYSCALL_EXIT a stop would have written, so the replay cannot tell.
 *
 * Built on its own, without libc, into a flat image (recorder/local.mk):
 * no data of its own, no stack protector, no red zone (its `call` below
 * would overwrite it), no SSE (the caller's vector registers stay as they
 * were). Everything here must be deterministic: the replay runs this code
 * too, and must find the same registers at each syscall. */
#include "recorder/sbuf.h"

typedef unsigned int u32;
typedef unsigned long u64;

#define STR(x) #x
#define XSTR(x) STR(x)
#define HDR(off) (*(volatile u64 *)(RW_SB_HDR + (off)))
#define FIELD(rec, off, type) (*(volatile type *)((rec) + (off)))

/* The entry table and the untraced syscall, at fixed offsets. sb_raw
 * takes the syscall in rax and its arguments in rdi, rsi, rdx, the record
 * in r12 and its register area in r11: it stores every register as it is
 * at the syscall instruction, makes the call, stores its result in the
 * record and the record's address in the header's DONE. */
__asm__(".section .text.sb0,\"ax\",@progbits\n"
        ".balign 8\n"
        "sb_table:\n"
        "  jmp sb_clock_gettime\n .balign 8\n"
        "  jmp sb_gettimeofday\n .balign 8\n"
        "  jmp sb_time\n .balign 8\n"
        "  jmp sb_getcpu\n .balign 8\n"
        "  jmp sb_clock_getres\n .balign 8\n"
        "  jmp sb_sys\n"
        "  .org sb_table + 0x30\n"
        "sb_raw:\n"
        "  mov %rax, 0(%r11)\n"
        "  mov %rcx, 8(%r11)\n"
        "  mov %rdx, 16(%r11)\n"
        "  mov %rbx, 24(%r11)\n"
        "  mov %rsp, 32(%r11)\n"
        "  mov %rbp, 40(%r11)\n"
        "  mov %rsi, 48(%r11)\n"
        "  mov %rdi, 56(%r11)\n"
        "  mov %r8, 64(%r11)\n"
        "  mov %r9, 72(%r11)\n"
        "  mov %r10, 80(%r11)\n"
        "  mov %r11, 88(%r11)\n"
        "  mov %r12, 96(%r11)\n"
        "  mov %r13, 104(%r11)\n"
        "  mov %r14, 112(%r11)\n"
        "  mov %r15, 120(%r11)\n"
        "  pushfq\n"
        "  popq 128(%r11)\n"
        "  .org sb_table + " XSTR(RW_SB_SYSCALL) ", 0x90\n" /* nops */
        "  syscall\n"
        "  mov %rax, " XSTR(RW_SB_R_RET) "(%r12)\n"
        "  .org sb_table + " XSTR(RW_SB_SYSCALL) " + " XSTR(RW_SB_AFTER_RET) ", 0x90\n"
        "  mov %r12, " XSTR(RW_SB_HDR) " + " XSTR(RW_SB_H_DONE) "\n"
        "  ret\n"
        /* A glibc syscall site the recorder patched jumps to its stub,
         * which calls here with the syscall in rax and its arguments in
         * rdi, rsi, rdx, r10, r8, r9. Like the syscall instruction, this
         * keeps every register but rax (the result), rcx and r11. */
        "sb_sys:\n"
        "  pushfq\n"
        "  push %rdi\n push %rsi\n push %rdx\n"
        "  push %r8\n push %r9\n push %r10\n"
        "  mov %r10, %rcx\n"
        "  push %rax\n" /* the seventh argument: the syscall */
        "  call sb_dispatch\n"
        "  add $8, %rsp\n"
        "  pop %r10\n pop %r9\n pop %r8\n"
        "  pop %rdx\n pop %rsi\n pop %rdi\n"
        "  popfq\n"
        "  ret\n"
        ".text\n");

/* A syscall that stops in the recorder, as the program's own do. */
static long traced6(long nr, long a, long b, long c, long d, long e,
                    long f) {
  long r;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                     "r"(r9)
                   : "rcx", "r11", "memory");
  return r;
}

static long traced(long nr, long a, long b, long c) {
  return traced6(nr, a, b, c, 0, 0, 0);
}

/* The syscall, logged in the record at REC. */
static long untraced4(char *rec, long nr, long a, long b, long c, long d) {
  long r;
  register long r11 __asm__("r11") = (long)(rec + RW_SB_R_GPR);
  register char *r12 __asm__(RW_SB_RECREG) = rec;
  register long r10 __asm__("r10") = d;
  __asm__ volatile("call sb_raw"
                   : "=a"(r), "+r"(r11)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r12)
                   : "rcx", "memory");
  return r;
}

static long untraced6(char *rec, long nr, long a, long b, long c, long d,
                      long e, long f) {
  long r;
  register long r11 __asm__("r11") = (long)(rec + RW_SB_R_GPR);
  register char *r12 __asm__(RW_SB_RECREG) = rec;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("call sb_raw"
                   : "=a"(r), "+r"(r11)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                     "r"(r9), "r"(r12)
                   : "rcx", "memory");
  return r;
}

static long untraced(char *rec, long nr, long a, long b, long c) {
  return untraced4(rec, nr, a, b, c, 0);
}

/* A record for a syscall with NOUT bytes of output, or 0: the buffer is
 * in use (a signal handler interrupted the library) or turned off. */
static char *begin(u32 nr, u32 nout) {
  if (HDR(RW_SB_H_BUSY)) return 0;
  HDR(RW_SB_H_BUSY) = 1;
  /* Whole cache lines: the recorder imports the out area's lines, which
   * then hold nothing written after the syscall (recorder/sbuf.c). */
  u64 size = (RW_SB_R_OUT + nout + 63) & ~63ul;
  if (HDR(RW_SB_H_SINCE) + size > RW_SB_FLUSH) {
    traced(39 /* getpid */, 0, 0, 0); /* the recorder drains the ring */
    HDR(RW_SB_H_SINCE) = 0;
  }
  u64 pos = HDR(RW_SB_H_HEAD) & (RW_SB_CAP - 1);
  if (pos + size > RW_SB_CAP) { /* no room before the end: pad to it */
    char *pad = (char *)(RW_SB_RING + pos);
    FIELD(pad, RW_SB_R_SIZE, u32) = (u32)(RW_SB_CAP - pos);
    FIELD(pad, RW_SB_R_NR, u32) = RW_SB_PAD;
    HDR(RW_SB_H_HEAD) += RW_SB_CAP - pos;
    HDR(RW_SB_H_SINCE) += RW_SB_CAP - pos;
    pos = 0;
  }
  char *rec = (char *)(RW_SB_RING + pos);
  FIELD(rec, RW_SB_R_SIZE, u32) = (u32)size;
  FIELD(rec, RW_SB_R_NR, u32) = nr;
  FIELD(rec, RW_SB_R_NOUT, u32) = nout;
  FIELD(rec, RW_SB_R_NOUT + 4, u32) = 0;
  return rec;
}

/* Completes REC, whose syscall returned. */
static void commit(char *rec) {
  u64 size = FIELD(rec, RW_SB_R_SIZE, u32);
  HDR(RW_SB_H_HEAD) += size;
  HDR(RW_SB_H_SINCE) += size;
  HDR(RW_SB_H_DONE) = 0;
  HDR(RW_SB_H_BUSY) = 0;
}

static u64 out64(const char *rec, u32 at) {
  return FIELD(rec, RW_SB_R_OUT + at, u64);
}

static u32 out32(const char *rec, u32 at) {
  return FIELD(rec, RW_SB_R_OUT + at, u32);
}

/* clock_gettime and clock_getres: a struct timespec through the record.
 * NULL_OK: the call may be given no pointer (clock_getres). */
static long timespec_call(long nr, long clk, u64 *ts, int null_ok) {
  char *rec = begin((u32)nr, 16);
  if (!rec) return traced(nr, clk, (long)ts, 0);
  long r = untraced(rec, nr, clk, (long)(rec + RW_SB_R_OUT), 0);
  u64 s = out64(rec, 0), ns = out64(rec, 8);
  commit(rec);
  /* A bad pointer faults here, as it does in the vDSO. */
  if (r == 0 && (ts || !null_ok)) ts[0] = s, ts[1] = ns;
  return r;
}

__attribute__((used)) static long sb_clock_gettime(long clk, u64 *ts) {
  return timespec_call(228, clk, ts, 0);
}

__attribute__((used)) static long sb_gettimeofday(u64 *tv, u32 *tz) {
  char *rec = begin(96, 24);
  if (!rec) return traced(96, (long)tv, (long)tz, 0);
  char *o = rec + RW_SB_R_OUT;
  long r = untraced(rec, 96, (long)o, (long)(o + 16), 0);
  u64 s = out64(rec, 0), us = out64(rec, 8);
  u32 w = out32(rec, 16), d = out32(rec, 20);
  commit(rec);
  if (r == 0 && tv) tv[0] = s, tv[1] = us;
  if (r == 0 && tz) tz[0] = w, tz[1] = d;
  return r;
}

__attribute__((used)) static long sb_time(long *t) {
  char *rec = begin(201, 0);
  if (!rec) return traced(201, (long)t, 0, 0);
  long r = untraced(rec, 201, 0, 0, 0);
  commit(rec);
  if (t) *t = r;
  return r;
}

__attribute__((used)) static long sb_getcpu(u32 *cpu, u32 *node, void *cache) {
  char *rec = begin(309, 8);
  if (!rec) return traced(309, (long)cpu, (long)node, (long)cache);
  char *o = rec + RW_SB_R_OUT;
  long r = untraced(rec, 309, (long)o, (long)(o + 4), 0);
  u32 c = out32(rec, 0), n = out32(rec, 4);
  commit(rec);
  if (r == 0 && cpu) *cpu = c;
  if (r == 0 && node) *node = n;
  return r;
}

__attribute__((used)) static long sb_clock_getres(long clk, u64 *res) {
  return timespec_call(229, clk, res, 1);
}

/* getpid and kin: nothing but a result. */
static long plain(long nr) {
  char *rec = begin((u32)nr, 0);
  if (!rec) return traced(nr, 0, 0, 0);
  long r = untraced(rec, nr, 0, 0, 0);
  commit(rec);
  return r;
}

/* fstat and newfstatat: the kernel's struct stat (144 bytes) goes into the
 * record, and from there to the program's buffer. */
static long stat_call(long nr, long a, long b, long c, long d) {
  char *rec = begin((u32)nr, 144);
  if (!rec) return traced6(nr, a, b, c, d, 0, 0);
  char *o = rec + RW_SB_R_OUT;
  long r = nr == 5 ? untraced(rec, nr, a, (long)o, 0)
                   : untraced4(rec, nr, a, b, (long)o, d);
  u64 st[18];
  for (int i = 0; i < 18; i++) st[i] = out64(rec, 8 * (u32)i);
  commit(rec);
  if (r == 0) {
    u64 *to = (u64 *)(nr == 5 ? b : c);
    for (int i = 0; i < 18; i++) to[i] = st[i];
  }
  return r;
}

/* rt_sigprocmask: the old mask (8 bytes) goes through the record. A signal
 * the call unblocks comes right after its syscall instruction. */
static long sigmask_call(long how, long set, long old, long size) {
  if (size != 8) return traced6(14, how, set, old, size, 0, 0);
  char *rec = begin(14, old ? 8 : 0);
  if (!rec) return traced6(14, how, set, old, size, 0, 0);
  long r = untraced4(rec, 14, how, set, old ? (long)(rec + RW_SB_R_OUT) : 0,
                     size);
  u64 m = out64(rec, 0);
  commit(rec);
  if (r == 0 && old) *(u64 *)old = m;
  return r;
}

/* A futex wake: it writes no memory and never waits. */
static long wake_call(long a, long b, long c, long d, long e, long f) {
  char *rec = begin(202, 0);
  if (!rec) return traced6(202, a, b, c, d, e, f);
  long r = untraced6(rec, 202, a, b, c, d, e, f);
  commit(rec);
  return r;
}

__attribute__((used)) static long sb_dispatch(long a, long b, long c, long d,
                                               long e, long f, long nr) {
  switch (nr) {
    case 39:  /* getpid */
    case 102: /* getuid */
    case 104: /* getgid */
    case 107: /* geteuid */
    case 108: /* getegid */
    case 110: /* getppid */
    case 186: /* gettid */
      return plain(nr);
    case 5:   /* fstat */
    case 262: /* newfstatat */
      return stat_call(nr, a, b, c, d);
    case 14: /* rt_sigprocmask */
      return sigmask_call(a, b, c, d);
    case 202: /* futex: FUTEX_WAKE and FUTEX_WAKE_BITSET alone */
      if ((b & 0x7f) == 1 || (b & 0x7f) == 10) return wake_call(a, b, c, d, e, f);
      return traced6(nr, a, b, c, d, e, f);
    default:
      return traced6(nr, a, b, c, d, e, f);
  }
}
