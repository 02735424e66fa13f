/* SPDX-License-Identifier: MIT */
/* Tests of common/outbuf.c: which buffers each write-like syscall hands to
 * the kernel, over a fake memory of 64 KiB at 0x10000, and where the walk
 * stops (a refused count or length, an unreadable iovec array, the
 * consumer's stop, the MAX_RW_COUNT cap). */
#include <CUnit/CUnit.h>
#include <string.h>

#include "common/endian.h"
#include "common/outbuf.h"
#include "tests/recorder/tests.h"

#define BASE 0x10000ull
static u8 mem[0x10000];

static int rd(void *ctx, u64 addr, void *dst, size_t len) {
  (void)ctx;
  if (addr < BASE || addr + len > BASE + sizeof mem) return RW_EFAULT;
  memcpy(dst, mem + (addr - BASE), len);
  return 0;
}

/* The segments a walk produced. */
struct segs {
  u64 addr[8], len[8];
  int n;
  int stop_after; /* return 1 after this many (0: never) */
};

static int seg(void *ctx, u64 addr, u64 len) {
  struct segs *s = ctx;
  if (s->n < 8) s->addr[s->n] = addr, s->len[s->n] = len;
  s->n++;
  return s->stop_after && s->n >= s->stop_after;
}

static void walk(u64 nr, u64 a1, u64 a2, struct segs *s) {
  u64 args[6] = {3, a1, a2, 0, 0, 0};
  int stop = s->stop_after;
  memset(s, 0, sizeof *s);
  s->stop_after = stop;
  CU_ASSERT_EQUAL(rw_outbuf_walk(nr, args, rd, NULL, seg, s), 0);
}

/* Writes the iovec {BASE_, LEN} at index I of the array at ADDR. */
static void iov(u64 addr, int i, u64 base, u64 len) {
  wr_le64(mem + (addr - BASE) + 16 * i, base);
  wr_le64(mem + (addr - BASE) + 16 * i + 8, len);
}

void test_outbuf_names(void) {
  CU_ASSERT_STRING_EQUAL(rw_outbuf_name(1), "write");
  CU_ASSERT_STRING_EQUAL(rw_outbuf_name(20), "writev");
  CU_ASSERT_STRING_EQUAL(rw_outbuf_name(307), "sendmmsg");
  CU_ASSERT_PTR_NULL(rw_outbuf_name(0));   /* read */
  CU_ASSERT_PTR_NULL(rw_outbuf_name(311)); /* process_vm_writev */
  CU_ASSERT_PTR_NULL(rw_outbuf_name(1u << 20));
}

void test_outbuf_buffers(void) {
  struct segs s = {0};
  walk(1, 0x12345, 100, &s); /* write: the buffer, whatever is there */
  CU_ASSERT_EQUAL(s.n, 1);
  CU_ASSERT_EQUAL(s.addr[0], 0x12345);
  CU_ASSERT_EQUAL(s.len[0], 100);
  walk(44, 0x99999999, 7, &s); /* sendto: not read by the walker */
  CU_ASSERT(s.n == 1 && s.addr[0] == 0x99999999 && s.len[0] == 7);
  walk(1, 0x12345, 0, &s); /* nothing to send */
  CU_ASSERT_EQUAL(s.n, 0);
  walk(69, 0x12000, 10, &s); /* msgsnd: the type, then the text */
  CU_ASSERT(s.n == 1 && s.addr[0] == 0x12000 && s.len[0] == 18);
  walk(69, 0x12000, (u64)-1, &s); /* a negative size: EINVAL */
  CU_ASSERT_EQUAL(s.n, 0);
  walk(1, 0x12345, ~0ull, &s); /* cut at MAX_RW_COUNT */
  CU_ASSERT(s.n == 1 && s.len[0] == RW_OUTBUF_MAX);
  walk(0, 0x12345, 100, &s); /* read sends nothing */
  CU_ASSERT_EQUAL(s.n, 0);
}

void test_outbuf_iovecs(void) {
  struct segs s = {0};
  u64 v = 0x11000;
  iov(v, 0, 0x20000, 5);
  iov(v, 1, 0x30000, 0); /* empty: skipped */
  iov(v, 2, 0x40000, 9);
  walk(20, v, 3, &s); /* writev */
  CU_ASSERT_EQUAL(s.n, 2);
  CU_ASSERT(s.addr[0] == 0x20000 && s.len[0] == 5);
  CU_ASSERT(s.addr[1] == 0x40000 && s.len[1] == 9);
  walk(278, v, 3, &s); /* vmsplice */
  CU_ASSERT_EQUAL(s.n, 2);
  walk(20, v, 1025, &s); /* more than UIO_MAXIOV: EINVAL */
  CU_ASSERT_EQUAL(s.n, 0);
  walk(20, 0x500, 3, &s); /* the array cannot be read: EFAULT */
  CU_ASSERT_EQUAL(s.n, 0);
  iov(v, 1, 0x30000, (u64)-5); /* a negative length stops the walk */
  walk(296, v, 3, &s);         /* pwritev */
  CU_ASSERT(s.n == 1 && s.addr[0] == 0x20000);
  iov(v, 1, 0x30000, 0);
  s.stop_after = 1; /* the consumer stops */
  walk(328, v, 3, &s); /* pwritev2 */
  CU_ASSERT_EQUAL(s.n, 1);
}

void test_outbuf_messages(void) {
  struct segs s = {0};
  u64 v = 0x11000, m = 0x13000;
  iov(v, 0, 0x20000, 3);
  iov(v, 1, 0x21000, 4);
  memset(mem + (m - BASE), 0, 2 * 64);
  wr_le64(mem + (m - BASE) + 16, v); /* msg_iov */
  wr_le64(mem + (m - BASE) + 24, 2); /* msg_iovlen */
  walk(46, m, 0, &s);                /* sendmsg */
  CU_ASSERT(s.n == 2 && s.len[0] == 3 && s.len[1] == 4);
  /* sendmmsg: a second mmsghdr, 64 bytes on, with the second iovec only */
  wr_le64(mem + (m - BASE) + 64 + 16, v + 16);
  wr_le64(mem + (m - BASE) + 64 + 24, 1);
  walk(307, m, 2, &s);
  CU_ASSERT_EQUAL(s.n, 3);
  CU_ASSERT(s.addr[2] == 0x21000 && s.len[2] == 4);
  walk(46, 0x100, 0, &s); /* the msghdr cannot be read */
  CU_ASSERT_EQUAL(s.n, 0);
}
