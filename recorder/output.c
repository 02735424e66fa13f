/* SPDX-License-Identifier: MIT */
/* Checksums of what the program sends out: at the entry of a write-like
 * syscall, the OUTPUT record holds the CRC-32C of the bytes it hands to the
 * kernel (the buffers of common/outbuf.h, with the lengths requested), so
 * that a replay whose output differs stops there instead of printing
 * "verified". The bytes are read with one process_vm_readv per megabyte,
 * however many iovecs they are spread over; /proc/PID/mem is the fallback
 * for pages process_vm_readv refuses. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/uio.h>

#include "common/endian.h"
#include "common/outbuf.h"
#include "recorder/rec_int.h"

#define OUT_BATCH 256u /* remote iovecs per process_vm_readv */

/* The bytes summed so far, and the buffers waiting to be read. */
struct out_acc {
  struct rec *r;
  struct iovec rem[OUT_BATCH]; /* pending pieces of the tracee's memory */
  size_t nrem;
  size_t pending;              /* their bytes, at most REC_BUF */
  u64 len;                     /* bytes summed */
  u32 crc;
  u8 head[RW_OUTBUF_HEAD];
  int stopped;                 /* a byte could not be read: the sum ends */
};

static void take(struct out_acc *o, const u8 *p, size_t n) {
  if (o->len < RW_OUTBUF_HEAD) {
    size_t k = (size_t)RW_MIN((u64)n, RW_OUTBUF_HEAD - o->len);
    memcpy(o->head + o->len, p, k);
  }
  o->crc = rw_crc32c(o->crc, p, n);
  o->len += n;
}

/* Reads the pending pieces into r->buf and sums them. A short read is done
 * again piece by piece, to find the first byte that cannot be read. */
static void flush(struct out_acc *o) {
  struct rec *r = o->r;
  if (!o->nrem) return;
  struct iovec local = {r->buf, o->pending};
  ssize_t n = process_vm_readv(r->proc->live, &local, 1, o->rem, o->nrem, 0);
  if (n == (ssize_t)o->pending) {
    take(o, r->buf, o->pending);
  } else {
    for (size_t i = 0; i < o->nrem && !o->stopped; i++) {
      size_t want = o->rem[i].iov_len;
      i64 got = rec__mem_read(r, (u64)(uintptr_t)o->rem[i].iov_base, r->buf,
                              want);
      if (got > 0) take(o, r->buf, (size_t)got);
      if (got < (i64)want) o->stopped = 1;
    }
  }
  o->nrem = 0;
  o->pending = 0;
}

static int on_seg(void *ctx, u64 addr, u64 len) {
  struct out_acc *o = ctx;
  while (len > 0 && !o->stopped) {
    if (o->nrem == OUT_BATCH || o->pending == REC_BUF) flush(o);
    if (o->stopped) break;
    size_t n = (size_t)RW_MIN(len, (u64)(REC_BUF - o->pending));
    o->rem[o->nrem].iov_base = (void *)(uintptr_t)addr;
    o->rem[o->nrem].iov_len = n;
    o->nrem++;
    o->pending += n;
    addr += n, len -= n;
  }
  return o->stopped;
}

/* Reads for the walker: iovec arrays and message headers. */
static int read_all(void *ctx, u64 addr, void *dst, size_t len) {
  return rec__mem_read(ctx, addr, dst, len) == (i64)len ? 0 : RW_EFAULT;
}

int rec__output(struct rec *r) {
  struct rec__task *t = r->cur;
  if (!rw_outbuf_name(t->nr)) return 0;
  struct out_acc o;
  o.r = r;
  o.nrem = o.pending = 0;
  o.len = 0;
  o.crc = 0;
  o.stopped = 0;
  RW_FORWARD(rw_outbuf_walk(t->nr, t->args, read_all, r, on_seg, &o));
  flush(&o);
  r->n.outputs++;
  r->n.output_bytes += o.len;
  size_t head = (size_t)RW_MIN(o.len, (u64)RW_OUTBUF_HEAD);
  struct trace_rec_output out = {(u32)t->args[0], o.len, o.crc,
                                 {o.head, head}};
  return trace_rec_output_append(r->w, (u32)r->cur->tid, &out);
}
