/* SPDX-License-Identifier: MIT */
/* The buffers a syscall sends out of the process, walked in the order the
 * kernel reads them. The list of such syscalls lives here once; the
 * recorder and the replayer only supply a memory reader and a consumer. */
#include <string.h>

#include "common/endian.h"
#include "common/outbuf.h"

/* Where a syscall's outgoing bytes are:
 *   BUF   args[1] points at args[2] bytes
 *   IOV   args[1] is an array of args[2] iovecs
 *   MSG   args[1] is a struct msghdr; its iovecs are sent
 *   MMSG  args[1] is an array of args[2] struct mmsghdr
 *   MSGQ  args[1] points at a long (the message type), then args[2] bytes
 * X(nr, name, kind) */
#define OUTBUF_SYSCALLS(X)   \
  X(1, write, BUF)           \
  X(18, pwrite64, BUF)       \
  X(20, writev, IOV)         \
  X(44, sendto, BUF)         \
  X(46, sendmsg, MSG)        \
  X(69, msgsnd, MSGQ)        \
  X(242, mq_timedsend, BUF)  \
  X(278, vmsplice, IOV)      \
  X(296, pwritev, IOV)       \
  X(307, sendmmsg, MMSG)     \
  X(328, pwritev2, IOV)

enum { K_BUF = 1, K_IOV, K_MSG, K_MMSG, K_MSGQ };

static int kind_of(u64 nr, const char **name) {
  switch (nr) {
#define X(n, nm, k) \
  case n:           \
    *name = #nm;    \
    return K_##k;
    OUTBUF_SYSCALLS(X)
#undef X
    default:
      *name = NULL;
      return 0;
  }
}

const char *rw_outbuf_name(u64 nr) {
  const char *name;
  kind_of(nr, &name);
  return name;
}

/* Byte layouts of the x86-64 ABI. */
#define IOV_SIZE 16u     /* struct iovec: base, len */
#define MSGHDR_SIZE 56u  /* struct msghdr */
#define MSGHDR_IOV 16u   /* msg_iov */
#define MSGHDR_IOVLEN 24u /* msg_iovlen */
#define MMSGHDR_SIZE 64u /* struct mmsghdr: msghdr, msg_len, padding */
#define IOV_BATCH 64u    /* iovecs read at a time */

struct walk {
  rw_outbuf_read_fn rd;
  void *rctx;
  rw_outbuf_seg_fn seg;
  void *sctx;
  u64 total; /* bytes handed to seg so far */
  int done;  /* the walk is over (cap reached, seg said stop) */
};

/* Hands [ADDR, ADDR+LEN) to the consumer, cut at RW_OUTBUF_MAX in all. */
static int emit(struct walk *w, u64 addr, u64 len) {
  if (w->done) return 0;
  if (len >= RW_OUTBUF_MAX - w->total) {
    len = RW_OUTBUF_MAX - w->total;
    w->done = 1;
  }
  if (!len) return 0;
  w->total += len;
  int rc = w->seg(w->sctx, addr, len);
  if (rc) w->done = 1;
  return rc < 0 ? rc : 0;
}

/* The N iovecs at IOV. */
static int walk_iov(struct walk *w, u64 iov, u64 n) {
  u8 b[IOV_BATCH * IOV_SIZE];
  if (n > RW_OUTBUF_IOV_MAX) return 0; /* EINVAL: nothing is read */
  for (u64 i = 0; i < n && !w->done; i += IOV_BATCH) {
    u64 k = RW_MIN(n - i, (u64)IOV_BATCH);
    if (w->rd(w->rctx, iov + i * IOV_SIZE, b, (size_t)(k * IOV_SIZE)) < 0) {
      w->done = 1; /* EFAULT */
      return 0;
    }
    for (u64 j = 0; j < k && !w->done; j++) {
      u64 base = rd_le64(b + j * IOV_SIZE);
      u64 len = rd_le64(b + j * IOV_SIZE + 8);
      if ((i64)len < 0) { /* EINVAL */
        w->done = 1;
        return 0;
      }
      RW_FORWARD(emit(w, base, len));
    }
  }
  return 0;
}

/* The iovecs of the struct msghdr at MSG. */
static int walk_msg(struct walk *w, u64 msg) {
  u8 h[MSGHDR_SIZE];
  if (w->rd(w->rctx, msg, h, sizeof h) < 0) {
    w->done = 1;
    return 0;
  }
  return walk_iov(w, rd_le64(h + MSGHDR_IOV), rd_le64(h + MSGHDR_IOVLEN));
}

int rw_outbuf_walk(u64 nr, const u64 args[6], rw_outbuf_read_fn rd,
                   void *rctx, rw_outbuf_seg_fn seg, void *sctx) {
  struct walk w = {rd, rctx, seg, sctx, 0, 0};
  const char *name;
  switch (kind_of(nr, &name)) {
    case K_BUF:
      return emit(&w, args[1], args[2]);
    case K_IOV:
      return walk_iov(&w, args[1], args[2]);
    case K_MSG:
      return walk_msg(&w, args[1]);
    case K_MMSG: {
      u64 n = RW_MIN(args[2], (u64)RW_OUTBUF_IOV_MAX); /* the kernel cuts */
      for (u64 i = 0; i < n && !w.done; i++)
        RW_FORWARD(walk_msg(&w, args[1] + i * MMSGHDR_SIZE));
      return 0;
    }
    case K_MSGQ:
      if ((i64)args[2] < 0) return 0; /* EINVAL */
      return emit(&w, args[1], 8 + args[2]);
    default:
      return 0;
  }
}
