/* SPDX-License-Identifier: MIT */
/* The layout of the syscall buffer (recorder/sbuf.c): the small library
 * rewind maps into every recorded process at a fixed address, and the ring
 * in which it logs the syscalls it makes without a ptrace stop. Shared by
 * the recorder and the library's own source (recorder/sblib.c), which is
 * built without libc: plain macros only. Part of no trace format: a trace
 * holds the library's bytes like any other memory. */
#ifndef RW_RECORDER_SBUF_H
#define RW_RECORDER_SBUF_H

/* Where it lives: below 2 GiB, so that its code reaches its data with
 * absolute 32-bit addresses, and away from where Linux puts executables,
 * heaps and mmap areas. */
#define RW_SB_BASE 0x70000000ul
#define RW_SB_CODE 0x1000ul             /* one page of code (r-x) */
#define RW_SB_HDR (RW_SB_BASE + RW_SB_CODE) /* one page of header (rw-) */
#define RW_SB_RING (RW_SB_HDR + 0x1000ul)   /* the ring (rw-) */
#define RW_SB_CAP 0x10000ul             /* ring bytes, a power of two */
#define RW_SB_SIZE (RW_SB_CODE + 0x1000ul + RW_SB_CAP)

/* The library makes a traced syscall (getpid), at which the recorder
 * drains the ring, once this many bytes were logged since the last one:
 * the recorder has then always read what it is about to overwrite. */
#define RW_SB_FLUSH (RW_SB_CAP / 2)

/* Entry points, at these offsets from RW_SB_BASE; each is called like
 * the vDSO function of that name (the vDSO's entries jump to them). */
#define RW_SB_ENT_CLOCK_GETTIME 0x00
#define RW_SB_ENT_GETTIMEOFDAY 0x08
#define RW_SB_ENT_TIME 0x10
#define RW_SB_ENT_GETCPU 0x18
#define RW_SB_ENT_CLOCK_GETRES 0x20
/* The entry a patched glibc syscall site's stub calls: the syscall in rax,
 * its arguments in rdi, rsi, rdx, r10, r8, r9, as for the instruction. */
#define RW_SB_ENT_SYSCALL 0x28

/* The offset of the library's one `syscall` instruction whose syscalls
 * rewind's seccomp filter lets through without a stop. */
#define RW_SB_SYSCALL 0x80
/* Its address as seccomp and ptrace see it: right after it. */
#define RW_SB_IP (RW_SB_BASE + RW_SB_SYSCALL + 2)

/* Where the library keeps the record being filled across its syscall
 * (the instructions after it store the result there). */
#define RW_SB_RECREG "r12"

/* Header fields (u64 each), offsets from RW_SB_HDR. HEAD counts every
 * byte ever appended to the ring (a record starts at HEAD % RW_SB_CAP);
 * SINCE counts those since the last flush; BUSY is 1 while the library
 * fills a record (a signal handler's call then takes the traced path) and
 * stays 1 for good once the recorder turns the buffer off. */
/* The instructions right after the untraced syscall store its result in
 * the record (first) and the record's address in DONE: a stop at
 * RW_SB_SYSCALL + 2 has the result in rax, one at RW_SB_SYSCALL +
 * RW_SB_AFTER_RET in the record; RW_SB_RECREG holds the record in both. */
#define RW_SB_AFTER_RET 7
#define RW_SB_H_HEAD 0
#define RW_SB_H_SINCE 8
#define RW_SB_H_BUSY 16
/* DONE is the address of the record whose syscall has returned (its
 * result is in ret), until the library commits it and sets DONE back to
 * 0: at a stop in between, the recorder writes the record already. */
#define RW_SB_H_DONE 24

/* A record, contiguous in the ring and a whole number of 64-byte cache
 * lines (a padding record may end the ring at any multiple of 8):
 *   u32 size   bytes of the whole record
 *   u32 nr     the syscall, or RW_SB_PAD: skip to the ring's start
 *   i64 ret    its result
 *   u64 gpr[16], rflags
 *              the registers at the syscall instruction, rax..r15 in
 *              encoding order
 *   u32 nout   bytes the out area has room for (set before the call;
 *              how many the kernel wrote depends on the syscall and its
 *              result: recorder/sbuf.c)
 *   u32 zero
 *   u8 out[]   where the syscall's output pointers point */
#define RW_SB_R_SIZE 0
#define RW_SB_R_NR 4
#define RW_SB_R_RET 8
#define RW_SB_R_GPR 16
#define RW_SB_R_FLAGS (RW_SB_R_GPR + 16 * 8)
#define RW_SB_R_NOUT (RW_SB_R_FLAGS + 8)
#define RW_SB_R_OUT (RW_SB_R_NOUT + 8)
#define RW_SB_PAD 0xffffffffu

/* The most any record's out area holds. */
#define RW_SB_OUT_MAX 32

#endif
