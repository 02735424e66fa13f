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
#define RW_SB_CODE 0x2000ul             /* two pages of code (r-x) */
#define RW_SB_HDR (RW_SB_BASE + RW_SB_CODE) /* one page of header (rw-) */
#define RW_SB_RING (RW_SB_HDR + 0x1000ul)   /* the ring (rw-) */
#define RW_SB_CAP 0x100000ul            /* ring bytes, a power of two */
#define RW_SB_SIZE (RW_SB_CODE + 0x1000ul + RW_SB_CAP)
/* A page of the stubs that patched syscall sites jump to. */
#define RW_SB_STUBPAGE 0x1000ul

/* The most a buffered read (or getdents, readlink...) may ask for; a
 * larger one is made the traced way. */
#define RW_SB_READ_MAX 0x40000ul

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
/* The entries a patched glibc syscall site's stub jumps to, with the
 * syscall in rax, its arguments in rdi, rsi, rdx, r10, r8, r9, as for the
 * instruction, rsp 136 bytes lower than the site had it and where the
 * site goes on in [rsp] (recorder/sblib.c): for a `mov eax, NR; syscall`
 * site; for a `syscall; cmp rax, -4096` one; for a `syscall; cmp rax,
 * -4095` one. */
#define RW_SB_ENT_SYSCALL 0x28
#define RW_SB_ENT_SYSCALL_CMP0 0x90
#define RW_SB_ENT_SYSCALL_CMP1 0x98

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
/* Set by the recorder: the device number of /proc as stat reports it (a
 * file there may be one the recorder must see opened: comm, mem), or 0. */
#define RW_SB_H_PROCDEV 40
/* Set by the recorder: bit 0, the CPU has the crc32 instruction. */
#define RW_SB_H_CAPS 48
#define RW_SB_CAP_CRC32 1ul
/* Set by the recorder: 512 bits, syscall NR's bit set when a patched site
 * whose number is not fixed (glibc's syscall(), read) hands it to the
 * library; the others run from the site's stub, the traced way. */
#define RW_SB_H_SYSMASK 64
/* One byte per descriptor below RW_SB_NFD: what the library may do with
 * it. The recorder sets a class at the exit of a traced call that uses the
 * descriptor; a close (the library's or a traced one), dup2 or dup3 over
 * it sets it back to 0. */
#define RW_SB_H_FDCLASS 0x100
#define RW_SB_NFD 0xe00u
#define RW_SB_FD_UNKNOWN 0 /* not looked at: every call is traced */
#define RW_SB_FD_REG 1     /* a regular file: reads never wait for another
                              process; writes are buffered (the file was
                              not mapped when the recorder looked) */
#define RW_SB_FD_DEV 2     /* /dev/null, zero, full, random, urandom */
#define RW_SB_FD_NOWAIT 3  /* a pipe or socket: read and write with
                              RWF_NOWAIT, the traced way when it would wait */
#define RW_SB_FD_NEVER 4   /* anything else (a terminal...): traced */
#define RW_SB_FD_REGRO 5   /* a regular file that may be mapped: reads are
                              buffered, writes traced (the recorder looks
                              again, and may make it RW_SB_FD_REG) */

/* A record, contiguous in the ring and a whole number of 64-byte cache
 * lines (a padding record may end the ring at any multiple of 8):
 *   u32 size   bytes of the whole record
 *   u32 nr     the syscall, or RW_SB_PAD: skip to the ring's start
 *   i64 ret    its result
 *   u64 gpr[16], rflags
 *              the registers at the syscall instruction, rax..r15 in
 *              encoding order
 *   u32 nout   bytes of the out area in use (before the call: room)
 *   u32 kind   what the out area holds, RW_SB_K_*
 *   u8 out[]   RW_SB_K_RING: where the syscall's output pointers point
 *              (how many bytes the kernel wrote depends on the syscall and
 *              its result: recorder/sbuf.c). RW_SB_K_PIECES: pieces of
 *              the program's memory the syscall wrote, each
 *                u64 at; u32 max; u32 mode (RW_SB_M_*); u8 bytes[]
 *              with room for max bytes (rounded up to 8), of which the
 *              mode says how many were written; the last piece's room is
 *              cut to what was written when the record is committed.
 *              RW_SB_K_OUTPUT: what a write-like call sent,
 *                u64 buf; u64 count; u32 crc; u32 valid; u8 head[64]
 *              (valid: 1 when all count bytes were sent; crc: their
 *              CRC-32C, head: the first of them) */
#define RW_SB_R_SIZE 0
#define RW_SB_R_NR 4
#define RW_SB_R_RET 8
#define RW_SB_R_GPR 16
#define RW_SB_R_FLAGS (RW_SB_R_GPR + 16 * 8)
#define RW_SB_R_NOUT (RW_SB_R_FLAGS + 8)
#define RW_SB_R_KIND (RW_SB_R_NOUT + 4)
#define RW_SB_R_OUT (RW_SB_R_NOUT + 8)
#define RW_SB_PAD 0xffffffffu

#define RW_SB_K_RING 0
#define RW_SB_K_PIECES 1
#define RW_SB_K_OUTPUT 2

/* A piece's header, and how many of its max bytes the syscall wrote given
 * its result: */
#define RW_SB_PIECE_HDR 16
#define RW_SB_M_RET 1  /* the result's count (read, getdents...) */
#define RW_SB_M_ZERO 2 /* all of them when it returned 0 (statx, statfs) */
#define RW_SB_M_POS 3  /* all of them when it returned more than 0 */
#define RW_SB_M_NONNEG 4 /* all of them when it returned 0 or more (poll) */
#define RW_SB_M_EPOLL 5  /* 12 per event it returned (epoll_wait) */
#define RW_SB_OUTPUT_SIZE 88

/* The room a piece of at most MAX bytes takes in a record: its header and
 * the whole cache lines its bytes can be in. */
static inline unsigned long long rw_sb_piece_room(unsigned long long max) {
  return RW_SB_PIECE_HDR + ((max + 63) & ~63ull) + 64;
}

/* How many of a piece's MAX bytes its syscall wrote, having returned RET
 * (the library and the recorder count them the same way). */
static inline unsigned long long rw_sb_piece_len(unsigned mode,
                                                 unsigned long long max,
                                                 long long ret) {
  if (mode == RW_SB_M_EPOLL) ret = ret > 0 ? ret * 12 : 0;
  if (mode == RW_SB_M_RET || mode == RW_SB_M_EPOLL)
    return ret > 0 ? ((unsigned long long)ret < max ? (unsigned long long)ret
                                                    : max)
                   : 0;
  if (mode == RW_SB_M_ZERO) return ret == 0 ? max : 0;
  if (mode == RW_SB_M_NONNEG) return ret >= 0 ? max : 0;
  return ret > 0 ? max : 0;
}

#endif
