/* SPDX-License-Identifier: MIT */
/* Which bytes a syscall sends out of the process (write, send, vmsplice...):
 * the recorder checksums them in OUTPUT records and the replayer checksums
 * its own at the same syscall (DESIGN.md section 2, divergence checks). Both
 * walk the buffers with the code below, so they agree on which bytes count.
 * It reads memory only through the caller's function and knows nothing of
 * ptrace or of the emulator. */
#ifndef RW_COMMON_OUTBUF_H
#define RW_COMMON_OUTBUF_H

#include "rw.h"

/* Most bytes one syscall can move: the kernel's MAX_RW_COUNT (INT_MAX
 * rounded down to a page). Longer requests are cut there, as the kernel
 * cuts them. */
#define RW_OUTBUF_MAX 0x7ffff000ull

/* Most iovecs (and sendmmsg messages) the kernel accepts (UIO_MAXIOV). */
#define RW_OUTBUF_IOV_MAX 1024u

/* How many bytes of an OUTPUT record's head are kept for reports. */
#define RW_OUTBUF_HEAD 64u

/* Copies LEN bytes of the program's memory at ADDR into DST. Returns 0, or
 * a negative code when a byte of the range cannot be read. */
typedef int (*rw_outbuf_read_fn)(void *ctx, u64 addr, void *dst, size_t len);

/* Receives one buffer [ADDR, ADDR+LEN) of the bytes sent, in the order the
 * kernel reads them. Returns 0 to go on, 1 to stop the walk early, or a
 * negative code. */
typedef int (*rw_outbuf_seg_fn)(void *ctx, u64 addr, u64 len);

/* The name of syscall NR (x86-64 numbers) when it sends bytes out of the
 * process ("writev"), or NULL when it does not. */
const char *rw_outbuf_name(u64 nr);

/* Calls SEG (with SCTX, borrowed) for every buffer that syscall NR with
 * arguments ARGS hands to the kernel, with the lengths requested at entry,
 * at most RW_OUTBUF_MAX bytes in all. iovec arrays and message headers are
 * read through RD (with RCTX, borrowed); one that cannot be read, or that
 * the kernel would refuse (too many iovecs, a negative length), ends the
 * walk there, as the kernel's EFAULT or EINVAL would. Returns 0 (also for a
 * syscall that sends nothing) or the first negative code of SEG. */
int rw_outbuf_walk(u64 nr, const u64 args[6], rw_outbuf_read_fn rd,
                   void *rctx, rw_outbuf_seg_fn seg, void *sctx)
    RW_MUST_CHECK;

#endif /* RW_COMMON_OUTBUF_H */
