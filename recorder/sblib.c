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
/* What sb_dispatch returns for "make it at the site, the traced way": no
 * syscall returns it. */
#define SB_REDO 0x8000000000000000

/* The entry table and the untraced syscall, at fixed offsets. sb_raw
 * takes the syscall in rax and its arguments in rdi, rsi, rdx, the record
 * in r12 and its register area in r11: it stores every register as it is
 * at the syscall instruction, makes the call, stores its result in the
 * record and the record's address in the header's DONE.
 *
 * A patched glibc syscall site jumps to its stub (recorder/sbuf.c), which
 * moves rsp past the red zone (128 bytes), pushes where the site goes on
 * after its syscall, and jumps to sb_sys (a `mov eax, NR; syscall` site)
 * or to sb_sys_cmp0 or sb_sys_cmp1 (a `syscall; cmp rax, -4096` or
 * `-4095` site), with the syscall in rax and its arguments in rdi, rsi,
 * rdx, r10, r8, r9. Like the syscall instruction, these keep every
 * register but rax (the result), rcx and r11; the cmp ones then compare as
 * the site did; all return straight into the site's function, popping the
 * 128 bytes too, so that a debugger's backtrace goes from the library's
 * frames to glibc's (the unwind tables below say so). When the library
 * would make the syscall the traced way, sb_sys returns to the site's own
 * syscall instruction instead (2 bytes back), the arguments and rax as
 * they were: the traced syscall is the program's, where it always was. */
#define CFI_SITE \
  "  .cfi_startproc simple\n" \
  "  .cfi_def_cfa rsp, 136\n" \
  "  .cfi_offset rip, -136\n"
#define PUSHES \
  "  pushfq\n .cfi_adjust_cfa_offset 8\n" \
  "  push %rdi\n .cfi_adjust_cfa_offset 8\n" \
  "  push %rsi\n .cfi_adjust_cfa_offset 8\n" \
  "  push %rdx\n .cfi_adjust_cfa_offset 8\n" \
  "  push %r8\n .cfi_adjust_cfa_offset 8\n" \
  "  push %r9\n .cfi_adjust_cfa_offset 8\n" \
  "  push %r10\n .cfi_adjust_cfa_offset 8\n" \
  "  mov %r10, %rcx\n"
#define POPS \
  "  pop %r10\n .cfi_adjust_cfa_offset -8\n" \
  "  pop %r9\n .cfi_adjust_cfa_offset -8\n" \
  "  pop %r8\n .cfi_adjust_cfa_offset -8\n" \
  "  pop %rdx\n .cfi_adjust_cfa_offset -8\n" \
  "  pop %rsi\n .cfi_adjust_cfa_offset -8\n" \
  "  pop %rdi\n .cfi_adjust_cfa_offset -8\n" \
  "  popfq\n .cfi_adjust_cfa_offset -8\n"
/* The call: sb_dispatch(args..., nr, REDO), with the syscall's number in
 * r11 after it. That number comes from a copy of its own: a function owns
 * its arguments on the stack and may write over them (gcc does, when it
 * passes them on). The pad keeps the stack's alignment as it was. */
#define DISPATCH(redo) \
  "  push %rax\n .cfi_adjust_cfa_offset 8\n" \
  "  push %rax\n .cfi_adjust_cfa_offset 8\n" \
  "  push $" #redo "\n .cfi_adjust_cfa_offset 8\n" \
  "  push %rax\n .cfi_adjust_cfa_offset 8\n" \
  "  call sb_dispatch\n" \
  "  add $24, %rsp\n .cfi_adjust_cfa_offset -24\n" \
  "  pop %r11\n .cfi_adjust_cfa_offset -8\n"

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
        "  .cfi_startproc\n"
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
        "  pushfq\n .cfi_adjust_cfa_offset 8\n"
        "  popq 128(%r11)\n .cfi_adjust_cfa_offset -8\n"
        "  .org sb_table + " XSTR(RW_SB_SYSCALL) ", 0x90\n" /* nops */
        "  syscall\n"
        "  mov %rax, " XSTR(RW_SB_R_RET) "(%r12)\n"
        "  .org sb_table + " XSTR(RW_SB_SYSCALL) " + " XSTR(RW_SB_AFTER_RET) ", 0x90\n"
        "  mov %r12, " XSTR(RW_SB_HDR) " + " XSTR(RW_SB_H_DONE) "\n"
        "  ret\n"
        "  .cfi_endproc\n"
        "  .org sb_table + " XSTR(RW_SB_ENT_SYSCALL_CMP0) ", 0xcc\n"
        "  jmp sb_sys_cmp0\n"
        "  .org sb_table + " XSTR(RW_SB_ENT_SYSCALL_CMP1) ", 0xcc\n"
        "  jmp sb_sys_cmp1\n"
        "\n"
        "sb_sys:\n"
        CFI_SITE
        PUSHES
        DISPATCH(1)
        "  movabs $" XSTR(SB_REDO) ", %rcx\n"
        "  cmp %rcx, %rax\n"
        "  .cfi_remember_state\n"
        "  je 1f\n"
        POPS
        "  ret $128\n"
        "1:\n"
        "  .cfi_restore_state\n"
        "  mov %r11, %rax\n"
        POPS
        "  subq $2, (%rsp)\n"
        "  ret $128\n"
        "  .cfi_endproc\n"
        "\n"
        "sb_sys_cmp0:\n"
        CFI_SITE
        PUSHES
        DISPATCH(0)
        POPS
        "  cmp $-4096, %rax\n"
        "  ret $128\n"
        "  .cfi_endproc\n"
        "\n"
        "sb_sys_cmp1:\n"
        CFI_SITE
        PUSHES
        DISPATCH(0)
        POPS
        "  cmp $-4095, %rax\n"
        "  ret $128\n"
        "  .cfi_endproc\n"
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

/* The traced way: here, or with REDO back at the patched site's own
 * syscall instruction (sb_sys). */
static long fallback(int redo, long nr, long a, long b, long c, long d,
                     long e, long f) {
  return redo ? (long)SB_REDO : traced6(nr, a, b, c, d, e, f);
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
static long plain(int redo, long nr) {
  char *rec = begin((u32)nr, 0);
  if (!rec) return fallback(redo, nr, 0, 0, 0, 0, 0, 0);
  long r = untraced(rec, nr, 0, 0, 0);
  commit(rec);
  return r;
}

/* A syscall that writes no memory, with its five first arguments. */
static long plain5(int redo, long nr, long a, long b, long c, long d, long e) {
  char *rec = begin((u32)nr, 0);
  if (!rec) return fallback(redo, nr, a, b, c, d, e, 0);
  long r = untraced6(rec, nr, a, b, c, d, e, 0);
  commit(rec);
  return r;
}

/* fstat and newfstatat: the kernel's struct stat (144 bytes) goes into the
 * record, and from there to the program's buffer. */
static long stat_call(int redo, long nr, long a, long b, long c, long d) {
  char *rec = begin((u32)nr, 144);
  if (!rec) return fallback(redo, nr, a, b, c, d, 0, 0);
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
static long sigmask_call(int redo, long how, long set, long old, long size) {
  if (size != 8) return fallback(redo, 14, how, set, old, size, 0, 0);
  char *rec = begin(14, old ? 8 : 0);
  if (!rec) return fallback(redo, 14, how, set, old, size, 0, 0);
  long r = untraced4(rec, 14, how, set, old ? (long)(rec + RW_SB_R_OUT) : 0,
                     size);
  u64 m = out64(rec, 0);
  commit(rec);
  if (r == 0 && old) *(u64 *)old = m;
  return r;
}

/* A futex wake: it writes no memory and never waits. */
static long wake_call(int redo, long a, long b, long c, long d, long e, long f) {
  char *rec = begin(202, 0);
  if (!rec) return fallback(redo, 202, a, b, c, d, e, f);
  long r = untraced6(rec, 202, a, b, c, d, e, f);
  commit(rec);
  return r;
}

/* The rest write the program's memory directly: after the call, what the
 * kernel wrote is copied into the record's pieces (recorder/sbuf.h). */
typedef u64 __attribute__((may_alias, aligned(1))) u64u;

static void copy(void *dst, const void *src, u64 n) {
  __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

/* A piece holds the whole cache lines its bytes are in, as memory is
 * recorded: what the program had around them is as it was at the call. */
static char *declare(char *p, u64 at, u64 max, u32 mode) {
  FIELD(p, 0, u64) = at;
  FIELD(p, 8, u32) = (u32)max;
  FIELD(p, 12, u32) = mode;
  return p + rw_sb_piece_room(max);
}

/* Fills the N pieces of REC after its call returned R; commits it. */
static void fill_commit(char *rec, int n, long r) {
  char *o = rec + RW_SB_R_OUT, *p = o;
  u64 used = 0;
  for (int i = 0; i < n; i++) {
    u64 at = FIELD(p, 0, u64), max = FIELD(p, 8, u32);
    u64 len = rw_sb_piece_len(FIELD(p, 12, u32), max, r);
    u64 lo = at & ~63ul, hi = (at + len + 63) & ~63ul;
    if (len) copy(p + RW_SB_PIECE_HDR, (const void *)lo, hi - lo);
    used = (u64)(p - o) +
           (i < n - 1 ? rw_sb_piece_room(max)
                      : RW_SB_PIECE_HDR + (len ? hi - lo : 0));
    p += rw_sb_piece_room(max);
  }
  FIELD(rec, RW_SB_R_NOUT, u32) = (u32)used;
  FIELD(rec, RW_SB_R_SIZE, u32) = (u32)((RW_SB_R_OUT + used + 63) & ~63ul);
  commit(rec);
}

/* Syscall NR(A..E), which writes at most MAX bytes at AT (MODE says how
 * many), or nothing when AT or MAX is 0. */
static long out_call(int redo, long nr, long a, long b, long c, long d, long e, long at,
                     long max, u32 mode) {
  if (!at) max = 0;
  if ((u64)max > RW_SB_READ_MAX) return fallback(redo, nr, a, b, c, d, e, 0);
  char *rec = begin((u32)nr, max ? (u32)rw_sb_piece_room((u64)max) : 0);
  if (!rec) return fallback(redo, nr, a, b, c, d, e, 0);
  FIELD(rec, RW_SB_R_KIND, u32) = RW_SB_K_PIECES;
  if (max) declare(rec + RW_SB_R_OUT, (u64)at, (u64)max, mode);
  long r = untraced6(rec, nr, a, b, c, d, e, 0);
  fill_commit(rec, max ? 1 : 0, r);
  return r;
}

#define CLASS(fd) \
  (*(volatile unsigned char *)(RW_SB_HDR + RW_SB_H_FDCLASS + (u64)(fd)))
#define EAGAIN_ 11
#define EOPNOTSUPP_ 95
#define ENOENT_ 2
#define ENOTDIR_ 20
#define RWF_NOWAIT_ 8

static int fd_class(long fd) {
  return (u64)fd < RW_SB_NFD ? CLASS(fd) : RW_SB_FD_NEVER;
}

/* Syscall NR, logged in REC: read, write, pread64 or pwrite64 of COUNT
 * bytes at BUF, or preadv2 or pwritev2 (327, 328) of them with RWF_NOWAIT
 * at the file's position. */
static long rw_call(char *rec, long nr, long fd, long buf, long count,
                    long off) {
  if (nr != 327 && nr != 328) return untraced4(rec, nr, fd, buf, count, off);
  volatile u64 iov[2];
  iov[0] = (u64)buf, iov[1] = (u64)count;
  return untraced6(rec, nr, fd, (long)iov, 1, -1, 0, RWF_NOWAIT_);
}

/* read and pread64. A pipe or socket is read with preadv2 and RWF_NOWAIT:
 * when it has nothing to give, the traced read waits, with the recorder
 * free to run the thread that will write. */
static long read_call(int redo, long nr, long fd, long buf, long count, long off) {
  int c = fd_class(fd), nowait = c == RW_SB_FD_NOWAIT && nr == 0;
  if ((u64)count > RW_SB_READ_MAX ||
      !(c == RW_SB_FD_REG || c == RW_SB_FD_REGRO || c == RW_SB_FD_DEV ||
        nowait))
    return fallback(redo, nr, fd, buf, count, off, 0, 0);
  long use = nowait ? 327 : nr;
  char *rec = begin((u32)use, (u32)rw_sb_piece_room((u64)count));
  if (!rec) return fallback(redo, nr, fd, buf, count, off, 0, 0);
  FIELD(rec, RW_SB_R_KIND, u32) = RW_SB_K_PIECES;
  declare(rec + RW_SB_R_OUT, (u64)buf, (u64)count, RW_SB_M_RET);
  long r = rw_call(rec, nowait ? 327 : nr, fd, buf, count, off);
  fill_commit(rec, 1, r);
  if (nowait && r == -EOPNOTSUPP_) CLASS(fd) = RW_SB_FD_NEVER;
  if (nowait && (r == -EAGAIN_ || r == -EOPNOTSUPP_))
    return fallback(redo, nr, fd, buf, count, off, 0, 0);
  return r;
}

/* CRC-32C: C (not yet inverted) continued over N bytes at P. */
static u32 crc_run(u32 c32, const char *p, u64 n) {
  u64 c = c32;
  for (; n >= 8; n -= 8, p += 8) {
    u64 v = *(const u64u *)p;
    __asm__("crc32q %1, %0" : "+r"(c) : "r"(v));
  }
  c32 = (u32)c;
  for (; n; n--, p++) {
    unsigned char v = (unsigned char)*p;
    __asm__("crc32b %1, %0" : "+r"(c32) : "q"(v));
  }
  return c32;
}

/* O's OUTPUT fields for a call that sent all N bytes of the IOCNT iovecs
 * at IOV (so the kernel read all of them): their CRC-32C and head. */
static void iov_output(char *o, const u64 *iov, long iocnt, u64 n) {
  u32 c = 0xffffffffu;
  u64 got = 0;
  for (long i = 0; i < iocnt && got < n; i++) {
    u64 len = iov[2 * i + 1] < n - got ? iov[2 * i + 1] : n - got;
    const char *p = (const char *)iov[2 * i];
    if (got < 64) copy(o + 24 + got, p, len < 64 - got ? len : 64 - got);
    c = crc_run(c, p, len);
    got += len;
  }
  FIELD(o, 16, u32) = ~c;
  FIELD(o, 20, u32) = 1;
}

/* write and pwrite64: the record says what was sent (an OUTPUT record, as
 * the recorder makes for a traced write). A pipe or socket is written with
 * pwritev2 and RWF_NOWAIT; what does not fit now goes the traced way, so
 * that the program sees the whole count a blocking write gives. */
static long write_call(int redo, long nr, long fd, long buf, long count, long off) {
  int c = fd_class(fd), nowait = c == RW_SB_FD_NOWAIT && nr == 1;
  int ok = c == RW_SB_FD_DEV || c == RW_SB_FD_REG || nowait;
  if (!ok || count < 0 || !(HDR(RW_SB_H_CAPS) & RW_SB_CAP_CRC32))
    return fallback(redo, nr, fd, buf, count, off, 0, 0);
  long use = nowait ? 328 : nr;
  char *rec = begin((u32)use, RW_SB_OUTPUT_SIZE);
  if (!rec) return fallback(redo, nr, fd, buf, count, off, 0, 0);
  char *o = rec + RW_SB_R_OUT;
  FIELD(rec, RW_SB_R_KIND, u32) = RW_SB_K_OUTPUT;
  FIELD(o, 0, u64) = (u64)buf;
  FIELD(o, 8, u64) = (u64)count;
  FIELD(o, 20, u32) = 0;
  long r = rw_call(rec, use, fd, buf, count, off);
  if (r == count) { /* every byte was read by the kernel: all readable */
    const u64 iov[2] = {(u64)buf, (u64)count};
    iov_output(o, iov, 1, (u64)count);
  }
  FIELD(rec, RW_SB_R_NOUT, u32) = RW_SB_OUTPUT_SIZE;
  commit(rec);
  if (nowait && r == -EOPNOTSUPP_) CLASS(fd) = RW_SB_FD_NEVER;
  if (nowait && (r == -EAGAIN_ || r == -EOPNOTSUPP_))
    return fallback(redo, nr, fd, buf, count, off, 0, 0);
  if (nowait && r > 0 && r < count) {
    long more = traced6(1, fd, buf + r, count - r, 0, 0, 0);
    return more < 0 ? r : r + more;
  }
  return r;
}

#define MSG_DONTWAIT_ 0x40

/* recvfrom without an address (recv): a pipe's or socket's bytes, taken
 * with MSG_DONTWAIT; when there are none yet, the traced call waits. */
static long recv_call(int redo, long fd, long buf, long len, long flags) {
  if (fd_class(fd) != RW_SB_FD_NOWAIT || (u64)len > RW_SB_READ_MAX ||
      (flags & 0x100)) /* MSG_WAITALL: it waits for all of them */
    return fallback(redo, 45, fd, buf, len, flags, 0, 0);
  char *rec = begin(45, (u32)rw_sb_piece_room((u64)len));
  if (!rec) return fallback(redo, 45, fd, buf, len, flags, 0, 0);
  FIELD(rec, RW_SB_R_KIND, u32) = RW_SB_K_PIECES;
  declare(rec + RW_SB_R_OUT, (u64)buf, (u64)len, RW_SB_M_RET);
  long r = untraced6(rec, 45, fd, buf, len, flags | MSG_DONTWAIT_, 0, 0);
  fill_commit(rec, 1, r);
  if (r == -EAGAIN_ && !(flags & MSG_DONTWAIT_))
    return fallback(redo, 45, fd, buf, len, flags, 0, 0);
  return r;
}

/* sendto and writev: what was sent is logged as for write. A pipe or
 * socket gets MSG_DONTWAIT (pwritev2 with RWF_NOWAIT for writev); what
 * does not fit now goes the traced way. NR 44: sendto(A, B, C, D, E, F);
 * 20: writev(A, B, C) of at most 16 iovecs. */
static long send_call(int redo, long nr, long a, long b, long c, long d,
                      long e, long f) {
  int cls = fd_class(a), nowait = cls == RW_SB_FD_NOWAIT;
  if (!(nowait || (nr == 20 && (cls == RW_SB_FD_REG || cls == RW_SB_FD_DEV))) ||
      c < 0 || (nr == 20 && c > 16) || !(HDR(RW_SB_H_CAPS) & RW_SB_CAP_CRC32))
    return fallback(redo, nr, a, b, c, d, e, f);
  long use = nr == 20 && nowait ? 328 : nr;
  char *rec = begin((u32)use, RW_SB_OUTPUT_SIZE);
  if (!rec) return fallback(redo, nr, a, b, c, d, e, f);
  char *o = rec + RW_SB_R_OUT;
  FIELD(rec, RW_SB_R_KIND, u32) = RW_SB_K_OUTPUT;
  FIELD(o, 0, u64) = (u64)b;
  FIELD(o, 20, u32) = 0;
  long r;
  u64 total = (u64)c;
  if (nr == 44) {
    FIELD(o, 8, u64) = (u64)c;
    r = untraced6(rec, 44, a, b, c, d | MSG_DONTWAIT_, e, f);
    if (r == c) {
      const u64 iov[2] = {(u64)b, (u64)c};
      iov_output(o, iov, 1, (u64)c);
    }
  } else {
    r = use == 328 ? untraced6(rec, 328, a, b, c, -1, 0, RWF_NOWAIT_)
                   : untraced4(rec, 20, a, b, c, 0);
    total = 0;
    if (r >= 0) /* the kernel read the iovecs: they are there */
      for (long i = 0; i < c; i++) total += ((const u64 *)b)[2 * i + 1];
    FIELD(o, 8, u64) = total;
    if (r >= 0 && (u64)r == total) iov_output(o, (const u64 *)b, c, total);
  }
  FIELD(rec, RW_SB_R_NOUT, u32) = RW_SB_OUTPUT_SIZE;
  commit(rec);
  if (nowait && r == -EOPNOTSUPP_) CLASS(a) = RW_SB_FD_NEVER;
  if (nowait && (r == -EAGAIN_ || r == -EOPNOTSUPP_) &&
      !(nr == 44 && (d & MSG_DONTWAIT_)))
    return fallback(redo, nr, a, b, c, d, e, f);
  if (!nowait || r <= 0 || (u64)r >= total) return r;
  /* Sent in part: the rest waits, as it would have. */
  if (nr == 44) {
    if (d & MSG_DONTWAIT_) return r;
    long more = traced6(44, a, b + r, c - r, d, e, f);
    return more < 0 ? r : r + more;
  }
  volatile u64 rest[32];
  long n = 0;
  u64 skip = (u64)r;
  for (long i = 0; i < c; i++) {
    u64 base = ((const u64 *)b)[2 * i], len = ((const u64 *)b)[2 * i + 1];
    if (skip >= len) {
      skip -= len;
      continue;
    }
    rest[2 * n] = base + skip, rest[2 * n + 1] = len - skip;
    skip = 0;
    n++;
  }
  long more = traced(20, a, (long)rest, n);
  return more < 0 ? r : r + more;
}

/* openat, when it cannot wait: a stat first (a FIFO's open waits for its
 * other end, a device's may too) says the path is a regular file or a
 * directory, or absent and to be created. A regular file's descriptor is
 * then one the library may read itself, and write when the file is new
 * (an old one may be mapped: the recorder looks at it at its first
 * write). Anything in /proc is opened the traced way: the recorder looks
 * at some of those; so is a truncating open of a file that exists. */
static long openat_call(int redo, long dirfd, long path, long flags, long mode) {
  u64 procdev = HDR(RW_SB_H_PROCDEV);
  if (!procdev) return fallback(redo, 257, dirfd, path, flags, mode, 0, 0);
  char *rec = begin(262, 144);
  if (!rec) return fallback(redo, 257, dirfd, path, flags, mode, 0, 0);
  long sr = untraced4(rec, 262, dirfd, path, (long)(rec + RW_SB_R_OUT),
                      (flags & 0400000) ? 0x100 : 0); /* O_NOFOLLOW */
  u64 dev = out64(rec, 0);
  u32 fmt = out32(rec, 24) & 0170000;
  commit(rec);
  /* A path that is not there (and no file to create): the open fails as
   * the stat did, the stat being the call's moment, and is not made. */
  if ((sr == -ENOENT_ || sr == -ENOTDIR_) && !(flags & 020000100))
    return sr;
  int cls;
  if (sr == 0 && dev != procdev && fmt == 040000)
    cls = 0;
  else if (sr == 0 && dev != procdev && fmt == 0100000 && !(flags & 01000))
    cls = RW_SB_FD_REGRO;
  else if (sr == -ENOENT_ && (flags & 0100)) /* O_CREAT: a new file */
    cls = RW_SB_FD_REG;
  else
    return fallback(redo, 257, dirfd, path, flags, mode, 0, 0);
  rec = begin(257, 0);
  if (!rec) return fallback(redo, 257, dirfd, path, flags, mode, 0, 0);
  long r = untraced4(rec, 257, dirfd, path, flags, mode);
  commit(rec);
  if (r >= 0 && r < (long)RW_SB_NFD) CLASS(r) = (unsigned char)cls;
  return r;
}

/* copy_file_range between regular files: no bytes pass through the
 * program; the offsets it gives are updated. */
static long cfr_call(int redo, long a, long b, long c, long d, long e, long f) {
  int from = fd_class(a);
  if ((from != RW_SB_FD_REG && from != RW_SB_FD_REGRO) ||
      fd_class(c) != RW_SB_FD_REG)
    return fallback(redo, 326, a, b, c, d, e, f);
  char *rec = begin(326, 2 * (u32)rw_sb_piece_room(8));
  if (!rec) return fallback(redo, 326, a, b, c, d, e, f);
  FIELD(rec, RW_SB_R_KIND, u32) = RW_SB_K_PIECES;
  char *p = declare(rec + RW_SB_R_OUT, (u64)b, b ? 8 : 0, RW_SB_M_POS);
  declare(p, (u64)d, d ? 8 : 0, RW_SB_M_POS);
  long r = untraced6(rec, 326, a, b, c, d, e, f);
  fill_commit(rec, 2, r);
  return r;
}

__attribute__((used)) static long sb_dispatch(long a, long b, long c, long d,
                                               long e, long f, long nr,
                                               long redo) {
  switch (nr) {
    case 39:  /* getpid */
    case 102: /* getuid */
    case 104: /* getgid */
    case 107: /* geteuid */
    case 108: /* getegid */
    case 110: /* getppid */
    case 186: /* gettid */
      return plain(redo, nr);
    case 5:   /* fstat */
    case 262: /* newfstatat */
      return stat_call(redo, nr, a, b, c, d);
    case 14: /* rt_sigprocmask */
      return sigmask_call(redo, a, b, c, d);
    case 202: /* futex: FUTEX_WAKE and FUTEX_WAKE_BITSET alone */
      if ((b & 0x7f) == 1 || (b & 0x7f) == 10) return wake_call(redo, a, b, c, d, e, f);
      return fallback(redo, nr, a, b, c, d, e, f);
    case 0:  /* read */
    case 17: /* pread64 */
      return read_call(redo, nr, a, b, c, d);
    case 1:  /* write */
    case 18: /* pwrite64 */
      return write_call(redo, nr, a, b, c, d);
    case 3: /* close: the descriptor's class goes with it */
      if ((u64)a < RW_SB_NFD) CLASS(a) = 0;
      return plain5(redo, nr, a, 0, 0, 0, 0);
    case 8: /* lseek: of a file whose position is only a number */
      if (fd_class(a) != RW_SB_FD_REG && fd_class(a) != RW_SB_FD_REGRO &&
          fd_class(a) != RW_SB_FD_DEV)
        return fallback(redo, nr, a, b, c, d, e, f);
      return plain5(redo, nr, a, b, c, 0, 0);
    case 257: /* openat */
      return openat_call(redo, a, b, c, d);
    case 45: /* recvfrom, without an address: recv */
      if (e || f) return fallback(redo, nr, a, b, c, d, e, f);
      return recv_call(redo, a, b, c, d);
    case 44: /* sendto */
    case 20: /* writev */
      return send_call(redo, nr, a, b, c, d, e, f);
    case 7: /* poll that does not wait: the events back */
      if (c) return fallback(redo, nr, a, b, c, d, e, f);
      return out_call(redo, nr, a, b, 0, 0, 0, a, (long)(u32)b * 8,
                      RW_SB_M_NONNEG);
    case 232: /* epoll_wait and epoll_pwait without a mask, that do not wait */
    case 281:
      if (d || (nr == 281 && e)) return fallback(redo, nr, a, b, c, d, e, f);
      return out_call(redo, nr, a, b, c, 0, 0, b, (int)c > 0 ? (long)(int)c * 12 : 0,
                      RW_SB_M_EPOLL);
    case 326: /* copy_file_range */
      return cfr_call(redo, a, b, c, d, e, f);
    case 16: /* ioctl: FICLONE and FICLONERANGE, which write a file; the
              * terminal queries of isatty() on a file, which fail */
      if ((b == 0x5401 || b == 0x5413) &&
          (fd_class(a) == RW_SB_FD_REG || fd_class(a) == RW_SB_FD_REGRO))
        return plain5(redo, nr, a, b, c, 0, 0);
      if ((b != 0x40049409 && b != 0x4020940d) || fd_class(a) != RW_SB_FD_REG)
        return fallback(redo, nr, a, b, c, d, e, f);
      return plain5(redo, nr, a, b, c, 0, 0);
    case 217: /* getdents64 */
      return out_call(redo, nr, a, b, c, 0, 0, b, c, RW_SB_M_RET);
    case 89: /* readlink */
    case 194: /* listxattr */
    case 195: /* llistxattr */
    case 196: /* flistxattr */
      return out_call(redo, nr, a, b, c, 0, 0, b, c, RW_SB_M_RET);
    case 267: /* readlinkat */
    case 191: /* getxattr */
    case 192: /* lgetxattr */
    case 193: /* fgetxattr */
      return out_call(redo, nr, a, b, c, d, 0, c, d, RW_SB_M_RET);
    case 72: /* fcntl: the calls that never wait and write at most a lock */
      switch (b) {
        case 0: case 1030: /* F_DUPFD(_CLOEXEC): a new, closed number */
        case 1: case 2: case 3: case 4: /* F_GETFD, F_SETFD, F_GETFL, F_SETFL */
        case 6: case 37: /* F_SETLK, F_OFD_SETLK: they fail, not wait */
          return plain5(redo, nr, a, b, c, 0, 0);
        case 5: case 36: /* F_GETLK, F_OFD_GETLK: a struct flock back */
          return out_call(redo, nr, a, b, c, 0, 0, c, 32, RW_SB_M_ZERO);
        default:
          return fallback(redo, nr, a, b, c, d, e, f);
      }
    case 79: /* getcwd */
      return out_call(redo, nr, a, b, 0, 0, 0, a, b, RW_SB_M_RET);
    case 13: /* rt_sigaction (posix_spawn asks for every signal; shells
              * set dozens): the old action back. Not of SIGTRAP and
              * SIGSEGV, whose actions the recorder follows (forced.c). */
      if (d != 8 || a == 5 || a == 11)
        return fallback(redo, nr, a, b, c, d, e, f);
      return out_call(redo, nr, a, b, c, d, 0, c, 32, RW_SB_M_ZERO);
    case 302: /* prlimit64 that only asks: the old limits back */
      if (c) return fallback(redo, nr, a, b, c, d, e, f);
      return out_call(redo, nr, a, b, c, d, 0, d, 16, RW_SB_M_ZERO);
    case 99: /* sysinfo */
      return out_call(redo, nr, a, 0, 0, 0, 0, a, 112, RW_SB_M_ZERO);
    case 318: /* getrandom */
      return out_call(redo, nr, a, b, c, 0, 0, a, b, RW_SB_M_RET);
    case 332: /* statx */
      return out_call(redo, nr, a, b, c, d, e, e, 256, RW_SB_M_ZERO);
    case 137: /* statfs */
    case 138: /* fstatfs */
      return out_call(redo, nr, a, b, 0, 0, 0, b, 120, RW_SB_M_ZERO);
    case 21: case 269: case 439:            /* access, faccessat(2) */
    case 74: case 75: case 221:             /* fsync, fdatasync, fadvise64 */
    case 83: case 258: case 84:             /* mkdir, mkdirat, rmdir */
    case 87: case 263:                      /* unlink, unlinkat */
    case 82: case 264: case 316:            /* rename, renameat(2) */
    case 88: case 266: case 86: case 265:   /* symlink(at), link(at) */
    case 90: case 91: case 268:             /* chmod, fchmod, fchmodat */
    case 92: case 93: case 94: case 260:    /* chown, fchown, lchown, at */
    case 280: case 95:                      /* utimensat, umask */
    case 188: case 189: case 190:           /* setxattr and kin */
    case 197: case 198: case 199:           /* removexattr and kin */
      return plain5(redo, nr, a, b, c, d, e);
    default:
      return fallback(redo, nr, a, b, c, d, e, f);
  }
}
