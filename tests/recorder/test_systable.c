/* SPDX-License-Identifier: MIT */
/* Tests of recorder/systable.c: the table agrees with libc's syscall
 * numbers, and outputs are computed right from arguments, results and
 * (fake) tracee memory. */
#include <CUnit/CUnit.h>
#include <string.h>
#include <sys/syscall.h>

#include "tests/recorder/tests.h"
#include "common/endian.h"
#include "recorder/rec_int.h"

/* Fake tracee memory: 4 KiB at FAKE_BASE. */
#define FAKE_BASE 0x10000ull
static u8 fake[4096];

static i64 fake_read(void *ctx, u64 addr, void *dst, size_t len) {
  (void)ctx;
  if (addr < FAKE_BASE || addr + len > FAKE_BASE + sizeof fake) return 0;
  memcpy(dst, fake + (addr - FAKE_BASE), len);
  return (i64)len;
}

static struct rec__ranges out;

static size_t outputs(u64 nr, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
                      i64 res) {
  u64 args[6] = {a0, a1, a2, a3, a4, 0};
  out.n = 0;
  CU_ASSERT_EQUAL(rec__sc_outputs(nr, args, res, fake_read, NULL, &out), 0);
  return out.n;
}

void test_systable_names_match_libc(void) {
  CU_ASSERT_EQUAL(rec__sc_number("read"), SYS_read);
  CU_ASSERT_EQUAL(rec__sc_number("mmap"), SYS_mmap);
  CU_ASSERT_EQUAL(rec__sc_number("clone3"), SYS_clone3);
  CU_ASSERT_EQUAL(rec__sc_number("getrandom"), SYS_getrandom);
  CU_ASSERT_EQUAL(rec__sc_number("newfstatat"), SYS_newfstatat);
  CU_ASSERT_EQUAL(rec__sc_number("rseq"), SYS_rseq);
  CU_ASSERT_EQUAL(rec__sc_number("futex_waitv"), SYS_futex_waitv);
  CU_ASSERT_EQUAL(REC_NR_execve, SYS_execve);
  CU_ASSERT_EQUAL(REC_NR_rt_sigreturn, SYS_rt_sigreturn);
  CU_ASSERT_EQUAL(rec__sc_number("no_such_call"), -1);
}

void test_systable_lookups(void) {
  CU_ASSERT_STRING_EQUAL(rec__sc_name(0), "read");
  CU_ASSERT_STRING_EQUAL(rec__sc_name(435), "clone3");
  CU_ASSERT_PTR_NULL(rec__sc_name(400)); /* a hole in the numbering */
  CU_ASSERT_PTR_NULL(rec__sc_lookup(100000));
  const struct rec__sc *sc = rec__sc_lookup(SYS_mmap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  CU_ASSERT(sc->flags & REC_SC_MAPS);
  CU_ASSERT(rec__sc_lookup(SYS_rt_sigreturn)->flags & REC_SC_FPREGS);
  CU_ASSERT(rec__sc_lookup(SYS_io_uring_setup)->flags & REC_SC_WARN);
}

void test_systable_fixed_and_result_outputs(void) {
  CU_ASSERT_EQUAL(outputs(SYS_read, 3, 0x5000, 100, 0, 0, 42), 1);
  CU_ASSERT_EQUAL(out.v[0].addr, 0x5000);
  CU_ASSERT_EQUAL(out.v[0].len, 42);
  CU_ASSERT_EQUAL(outputs(SYS_fstat, 3, 0x6000, 0, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 144);
  CU_ASSERT_EQUAL(outputs(SYS_newfstatat, 3, 0x1, 0x7000, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].addr, 0x7000);
  CU_ASSERT_EQUAL(outputs(SYS_statx, 3, 1, 0, 0x7ff, 0x8000, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 256);
  CU_ASSERT_EQUAL(outputs(SYS_clock_gettime, 1, 0x9000, 0, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 16);
  CU_ASSERT_EQUAL(outputs(SYS_gettimeofday, 0x9000, 0, 0, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(outputs(SYS_wait4, -1, 0xa000, 0, 0xb000, 0, 77), 2);
  CU_ASSERT_EQUAL(outputs(SYS_rt_sigprocmask, 0, 0, 0xc000, 8, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 8);
  CU_ASSERT_EQUAL(outputs(SYS_poll, 0xd000, 3, 100, 0, 0, 1), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 24);
  CU_ASSERT_EQUAL(outputs(SYS_getrandom, 0xe000, 32, 0, 0, 0, 32), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 32);
  CU_ASSERT_EQUAL(outputs(SYS_getdents64, 3, 0xe000, 4096, 0, 0, 0), 0);
  CU_ASSERT_EQUAL(outputs(SYS_write, 1, 0xe000, 10, 0, 0, 10), 0);
  CU_ASSERT_EQUAL(outputs(SYS_pipe2, 0xf000, 0, 0, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 8);
}

void test_systable_errors_write_nothing(void) {
  CU_ASSERT_EQUAL(outputs(SYS_fstat, 3, 0x6000, 0, 0, 0, -9), 0);
  CU_ASSERT_EQUAL(outputs(SYS_read, 3, 0x5000, 100, 0, 0, -11), 0);
  /* nanosleep writes the remaining time when interrupted. */
  CU_ASSERT_EQUAL(outputs(SYS_nanosleep, 0x5000, 0x6000, 0, 0, 0, -4), 1);
  CU_ASSERT_EQUAL(out.v[0].addr, 0x6000);
  /* A NULL pointer is no output. */
  CU_ASSERT_EQUAL(outputs(SYS_time, 0, 0, 0, 0, 0, 12345), 0);
}

void test_systable_iovec_outputs(void) {
  memset(fake, 0, sizeof fake);
  wr_le64(fake + 0, 0x20000), wr_le64(fake + 8, 10);
  wr_le64(fake + 16, 0x30000), wr_le64(fake + 24, 100);
  CU_ASSERT_EQUAL(outputs(SYS_readv, 3, FAKE_BASE, 2, 0, 0, 25), 2);
  CU_ASSERT_EQUAL(out.v[0].addr, 0x20000);
  CU_ASSERT_EQUAL(out.v[0].len, 10);
  CU_ASSERT_EQUAL(out.v[1].addr, 0x30000);
  CU_ASSERT_EQUAL(out.v[1].len, 15);
  CU_ASSERT_EQUAL(outputs(SYS_readv, 3, FAKE_BASE, 2, 0, 0, 5), 1);
}

void test_systable_socklen_outputs(void) {
  memset(fake, 0, sizeof fake);
  wr_le32(fake + 64, 16);
  CU_ASSERT_EQUAL(outputs(SYS_accept4, 3, 0x40000, FAKE_BASE + 64, 0, 0, 4),
                  2);
  CU_ASSERT_EQUAL(out.v[0].addr, FAKE_BASE + 64);
  CU_ASSERT_EQUAL(out.v[0].len, 4);
  CU_ASSERT_EQUAL(out.v[1].addr, 0x40000);
  CU_ASSERT_EQUAL(out.v[1].len, 16);
  /* recvfrom: the data, then the address. */
  CU_ASSERT_EQUAL(outputs(SYS_recvfrom, 3, 0x50000, 100, 0, 0x40000, 7), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 7);
}

void test_systable_ioctl_requests(void) {
  CU_ASSERT_EQUAL(outputs(SYS_ioctl, 0, 0x5401, 0x60000, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 36); /* TCGETS */
  CU_ASSERT_EQUAL(outputs(SYS_ioctl, 0, 0x5413, 0x60000, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 8); /* TIOCGWINSZ */
  CU_ASSERT_EQUAL(outputs(SYS_ioctl, 0, 0x541B, 0x60000, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(outputs(SYS_ioctl, 0, 0x5402, 0x60000, 0, 0, 0), 0);
  CU_ASSERT_EQUAL(outputs(SYS_ioctl, 0, 0x5401, 0x60000, 0, 0, -25), 0);
  /* FS_IOC_GETFLAGS is _IOR('f', 1, long) but writes an int. */
  CU_ASSERT_EQUAL(outputs(SYS_ioctl, 0, 0x80086601, 0x60000, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 4);
  /* A request's encoded size is not trusted (TUNGETIFF says 4 bytes and
   * writes 40; TUNSETIFF is _IOW and writes): unknown ones are diffed. */
  u64 a[6] = {0, 0x800454d2, 0x60000, 0, 0, 0};
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_ioctl, a, fake_read, NULL));
  a[1] = 0x400454ca;
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_ioctl, a, fake_read, NULL));
}

void test_systable_needs_diff(void) {
  u64 a[6] = {0};
  CU_ASSERT_FALSE(rec__sc_needs_diff(SYS_read, a, fake_read, NULL));
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_get_mempolicy, a, fake_read, NULL));
  CU_ASSERT_TRUE(rec__sc_needs_diff(499, a, fake_read, NULL));
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_vfork, a, fake_read, NULL));
  a[1] = 0x1234; /* a legacy ioctl nobody knows */
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_ioctl, a, fake_read, NULL));
  a[1] = 0x5401;
  CU_ASSERT_FALSE(rec__sc_needs_diff(SYS_ioctl, a, fake_read, NULL));
  a[0] = 0x100 | 0x4000; /* clone(CLONE_VM | CLONE_VFORK) */
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_clone, a, fake_read, NULL));
  a[0] = 0x11; /* fork-like clone */
  CU_ASSERT_FALSE(rec__sc_needs_diff(SYS_clone, a, fake_read, NULL));
  memset(fake, 0, sizeof fake);
  wr_le64(fake, 0x100 | 0x4000);
  a[0] = FAKE_BASE;
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_clone3, a, fake_read, NULL));
  a[1] = 1035; /* fcntl F_GET_RW_HINT: described, 8 bytes at arg 3 */
  CU_ASSERT_FALSE(rec__sc_needs_diff(SYS_fcntl, a, fake_read, NULL));
  CU_ASSERT_EQUAL(outputs(SYS_fcntl, 3, 1035, 0x5000, 0, 0, 0), 1);
  CU_ASSERT_EQUAL(out.v[0].len, 8);
  CU_ASSERT_EQUAL(outputs(SYS_fcntl, 3, 17, 0x5000, 0, 0, 0), 1);
  a[1] = 2000; /* an fcntl command from a future kernel */
  CU_ASSERT_TRUE(rec__sc_needs_diff(SYS_fcntl, a, fake_read, NULL));
}

void test_systable_recvmsg_outputs(void) {
  memset(fake, 0, sizeof fake);
  /* msghdr at FAKE_BASE: name 0x70000/16, one iovec at +256, control
   * 0x71000/32. */
  wr_le64(fake + 0, 0x70000), wr_le32(fake + 8, 16);
  wr_le64(fake + 16, FAKE_BASE + 256), wr_le64(fake + 24, 1);
  wr_le64(fake + 32, 0x71000), wr_le64(fake + 40, 32);
  wr_le64(fake + 256, 0x72000), wr_le64(fake + 264, 100);
  CU_ASSERT_EQUAL(outputs(SYS_recvmsg, 3, FAKE_BASE, 0, 0, 0, 9), 4);
  CU_ASSERT_EQUAL(out.v[0].addr, FAKE_BASE);
  CU_ASSERT_EQUAL(out.v[1].addr, 0x70000);
  CU_ASSERT_EQUAL(out.v[2].addr, 0x72000);
  CU_ASSERT_EQUAL(out.v[2].len, 9);
  CU_ASSERT_EQUAL(out.v[3].addr, 0x71000);
  rec__ranges_free(&out);
}
