/* SPDX-License-Identifier: MIT */
/* The address space (replayer/cpu/mem.c): copy-on-write snapshots seen both
 * through the privileged interface and through guest accesses cached in
 * the TLB, the cost of untouched mappings, protection changes and queries. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/cpu/emu_util.h"
#include "tests/cpu/tests.h"

void test_mem_cow_snapshot_restore(void) {
  /* inc qword [0x600000]; int3 */
  static const u8 p[] = {0x48, 0xff, 0x04, 0x25, 0, 0, 0x60, 0, 0xcc};
  struct emu e;
  struct rw_regs start;
  cpu_snap *s1, *s2;
  u64 v;
  u8 page[4096];
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  cpu_get_regs(e.cpu, &start);
  memset(page, 'A', sizeof page);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x601000, page, sizeof page) == 0);
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s1) == 0);
  memset(page, 'B', 16);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x601000, page, 16) == 0);
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s2) == 0);
  CU_ASSERT_FATAL(cpu_mem_restore(e.mem, s1) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x601000, page, 16) == 0);
  CU_ASSERT_EQUAL(page[0], 'A');
  CU_ASSERT_FATAL(cpu_mem_restore(e.mem, s2) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x601000, page, 16) == 0);
  CU_ASSERT_EQUAL(page[0], 'B');
  CU_ASSERT_FATAL(cpu_mem_restore(e.mem, s1) == 0); /* again: still there */
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x601000, page, 16) == 0);
  CU_ASSERT_EQUAL(page[0], 'A');
  cpu_snap_free(s2);

  /* Guest stores after a snapshot go to a private copy, even when the TLB
   * already holds the shared page. */
  CU_ASSERT_EQUAL(emu_run(&e, NULL), CPU_EXIT_FAULT); /* [0x600000] = 1 */
  cpu_snap_free(s1);
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s1) == 0);
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &start) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, NULL), CPU_EXIT_FAULT); /* 2 */
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 2);
  CU_ASSERT_FATAL(cpu_mem_restore(e.mem, s1) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 1);
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &start) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, NULL), CPU_EXIT_FAULT); /* 2 again */
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 2);
  CU_ASSERT_FATAL(cpu_mem_restore(e.mem, s1) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 1);
  cpu_snap_free(s1);
  emu_close(&e);
}

void test_mem_untouched_gigabyte_is_cheap(void) {
  cpu_mem *m;
  u8 buf[16], one = 1;
  size_t before;
  CU_ASSERT_FATAL(cpu_mem_new(&m) == 0);
  CU_ASSERT_FATAL(cpu_mem_map(m, 1ull << 32, 1ull << 30,
                              CPU_PROT_READ | CPU_PROT_WRITE) == 0);
  before = cpu_mem_footprint(m);
  CU_ASSERT(before < 64u << 10); /* a gigabyte of zeros is one entry */
  memset(buf, 0xff, sizeof buf);
  CU_ASSERT_FATAL(cpu_mem_read(m, (1ull << 32) + (1ull << 29), buf, 16) == 0);
  for (int i = 0; i < 16; i++) CU_ASSERT_EQUAL(buf[i], 0);
  CU_ASSERT_EQUAL(cpu_mem_footprint(m), before);
  CU_ASSERT_FATAL(cpu_mem_write(m, (1ull << 32) + 12345, &one, 1) == 0);
  CU_ASSERT(cpu_mem_footprint(m) > before);
  /* The page and the table nodes on its path, made real. */
  CU_ASSERT(cpu_mem_footprint(m) < before + 5 * 4096);
  cpu_mem_free(m);
}

void test_mem_protect_unmap_query(void) {
  cpu_mem *m;
  u64 start, len;
  int prot;
  u8 b = 0;
  CU_ASSERT_FATAL(cpu_mem_new(&m) == 0);
  CU_ASSERT_EQUAL(cpu_mem_map(m, 0x10001, 0x1000, CPU_PROT_READ), RW_EINVAL);
  CU_ASSERT_FATAL(
      cpu_mem_map(m, 0x10000, 0x4000, CPU_PROT_READ | CPU_PROT_WRITE) == 0);
  CU_ASSERT_FATAL(cpu_mem_protect(m, 0x11000, 0x1000, CPU_PROT_READ) == 0);
  CU_ASSERT_FATAL(cpu_mem_unmap(m, 0x12000, 0x1000) == 0);
  CU_ASSERT_FATAL(cpu_mem_query(m, 0, &start, &len, &prot) == 0);
  CU_ASSERT_EQUAL(start, 0x10000);
  CU_ASSERT_EQUAL(len, 0x1000);
  CU_ASSERT_EQUAL(prot, CPU_PROT_READ | CPU_PROT_WRITE);
  CU_ASSERT_FATAL(cpu_mem_query(m, 0x11000, &start, &len, &prot) == 0);
  CU_ASSERT_EQUAL(start, 0x11000);
  CU_ASSERT_EQUAL(prot, CPU_PROT_READ);
  CU_ASSERT_FATAL(cpu_mem_query(m, 0x12000, &start, &len, &prot) == 0);
  CU_ASSERT_EQUAL(start, 0x13000);
  CU_ASSERT_EQUAL(len, 0x1000);
  CU_ASSERT_EQUAL(cpu_mem_query(m, 0x14000, &start, &len, &prot), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(cpu_mem_read(m, 0x12000, &b, 1), RW_EFAULT);
  CU_ASSERT_EQUAL(cpu_mem_write(m, 0x11fff, "ab", 2), RW_EFAULT);
  CU_ASSERT_EQUAL(cpu_mem_protect(m, 0x12000, 0x1000, 0), RW_ENOTFOUND);
  /* Privileged writes ignore protection. */
  CU_ASSERT_FATAL(cpu_mem_write(m, 0x11000, "x", 1) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(m, 0x11000, &b, 1) == 0);
  CU_ASSERT_EQUAL(b, 'x');
  cpu_mem_free(m);
}

void test_mem_alias_stores(void) {
  /* inc qword [0x600ffc]: a store that crosses from the first data page
   * into the second; int3 */
  static const u8 p[] = {0x48, 0xff, 0x04, 0x25, 0xfc, 0x0f, 0x60, 0, 0xcc};
  struct emu e;
  struct rw_regs start;
  cpu_snap *s;
  u64 v;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  cpu_get_regs(e.cpu, &start);
  /* A read-only view of the two data pages elsewhere, and a view of only
   * the second one: the same object at different offsets. */
  CU_ASSERT_FATAL(cpu_mem_map(e.mem, 0x900000, 0x2000, CPU_PROT_READ) == 0);
  CU_ASSERT_FATAL(cpu_mem_map(e.mem, 0xa00000, 0x1000, CPU_PROT_READ) == 0);
  const struct cpu_alias al[] = {
      {0x600000, 0x602000, 7, 0x5000},
      {0x900000, 0x902000, 7, 0x5000},
      {0xa00000, 0xa01000, 7, 0x6000},
      {0xb00000, 0xb01000, 8, 0}, /* alone: dropped */
  };
  CU_ASSERT_FATAL(cpu_mem_alias_set(e.mem, al, 4) == 0);
  for (int i = 1; i <= 2; i++) { /* twice: the second run has a warm TLB */
    CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &start) == 0);
    CU_ASSERT_EQUAL(emu_run(&e, NULL), CPU_EXIT_FAULT);
    CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x900ffc, &v, 8) == 0);
    CU_ASSERT_EQUAL(v, (u64)i);
    CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0xa00000, &v, 4) == 0);
    CU_ASSERT_EQUAL(v & 0xffffffff, 0);
  }
  /* A privileged write (a MEM record) reaches the other views too. */
  v = 0x1122334455667788ull;
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x901ffc, &v, 4) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0xa00ffc, &v, 4) == 0);
  CU_ASSERT_EQUAL(v & 0xffffffff, 0x55667788);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x601ffc, &v, 4) == 0);
  CU_ASSERT_EQUAL(v & 0xffffffff, 0x55667788);
  /* After a snapshot the views stay one: a store copies each page once. */
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s) == 0);
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &start) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, NULL), CPU_EXIT_FAULT);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x900ffc, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 3);
  CU_ASSERT_FATAL(cpu_mem_restore(e.mem, s) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x900ffc, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 2);
  cpu_snap_free(s);
  /* Without aliases a store stays where it is. */
  CU_ASSERT_FATAL(cpu_mem_alias_set(e.mem, NULL, 0) == 0);
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &start) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, NULL), CPU_EXIT_FAULT);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x900ffc, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 2);
  emu_close(&e);
}

/* A terabyte mapped, protected, written in a few places and unmapped costs
 * a few table entries, and a snapshot keeps what it saw. */
void test_mem_terabyte_ranges(void) {
  const u64 base = 1ull << 40, tib = 1ull << 40;
  cpu_mem *m;
  cpu_snap *s;
  u64 start, len, page;
  int prot;
  const u8 *bytes;
  u8 b = 0;
  CU_ASSERT_FATAL(cpu_mem_new(&m) == 0);
  CU_ASSERT_FATAL(cpu_mem_map(m, base, tib, CPU_PROT_READ) == 0);
  CU_ASSERT(cpu_mem_footprint(m) < 64u << 10);
  CU_ASSERT_FATAL(cpu_mem_query(m, 0, &start, &len, &prot) == 0);
  CU_ASSERT_EQUAL(start, base);
  CU_ASSERT_EQUAL(len, tib);
  CU_ASSERT_EQUAL(prot, CPU_PROT_READ);
  /* A privileged write in the middle; the rest stays one run. */
  CU_ASSERT_FATAL(cpu_mem_write(m, base + (tib >> 1) + 5, "z", 1) == 0);
  CU_ASSERT(cpu_mem_footprint(m) < 64u << 10);
  CU_ASSERT_FATAL(cpu_mem_query(m, base, &start, &len, &prot) == 0);
  CU_ASSERT_EQUAL(len, tib);
  CU_ASSERT_FATAL(cpu_mem_next_data(m, 0, &page, &prot, &bytes) == 0);
  CU_ASSERT_EQUAL(page, base + (tib >> 1));
  CU_ASSERT_EQUAL(bytes[5], 'z');
  CU_ASSERT_EQUAL(cpu_mem_next_data(m, page + 4096, &page, &prot, &bytes),
                  RW_ENOTFOUND);
  CU_ASSERT_FATAL(cpu_mem_snapshot(m, &s) == 0);
  /* One page writable at the very end, then the first half unmapped. */
  CU_ASSERT_FATAL(cpu_mem_protect(m, base + tib - 4096, 4096,
                                  CPU_PROT_READ | CPU_PROT_WRITE) == 0);
  CU_ASSERT_EQUAL(cpu_mem_page_prot(m, base + tib - 4096),
                  CPU_PROT_READ | CPU_PROT_WRITE);
  CU_ASSERT_EQUAL(cpu_mem_page_prot(m, base + tib - 8192), CPU_PROT_READ);
  CU_ASSERT_FATAL(cpu_mem_unmap(m, base, tib >> 1) == 0);
  CU_ASSERT_EQUAL(cpu_mem_page_prot(m, base), -1);
  CU_ASSERT_FATAL(cpu_mem_query(m, 0, &start, &len, &prot) == 0);
  CU_ASSERT_EQUAL(start, base + (tib >> 1));
  CU_ASSERT_EQUAL(len, (tib >> 1) - 4096);
  CU_ASSERT_FATAL(cpu_mem_read(m, base + (tib >> 1) + 5, &b, 1) == 0);
  CU_ASSERT_EQUAL(b, 'z');
  CU_ASSERT_EQUAL(cpu_mem_protect(m, base, tib, CPU_PROT_NONE),
                  RW_ENOTFOUND); /* the first half is a hole */
  CU_ASSERT_EQUAL(cpu_mem_page_prot(m, base + tib - 4096), CPU_PROT_NONE);
  /* The snapshot still has all of it, readable. */
  CU_ASSERT_FATAL(cpu_mem_restore(m, s) == 0);
  CU_ASSERT_EQUAL(cpu_mem_page_prot(m, base), CPU_PROT_READ);
  CU_ASSERT_FATAL(cpu_mem_query(m, 0, &start, &len, &prot) == 0);
  CU_ASSERT_EQUAL(len, tib);
  cpu_snap_free(s);
  CU_ASSERT_FATAL(cpu_mem_unmap(m, base, tib) == 0);
  CU_ASSERT_EQUAL(cpu_mem_query(m, 0, &start, &len, &prot), RW_ENOTFOUND);
  cpu_mem_free(m);
}

/* Random maps, protections, unmaps and writes at every alignment, against
 * a page array. */
void test_mem_ranges_against_pages(void) {
  enum { N = 3 * 512 + 77 }; /* pages: crosses leaf nodes */
  const u64 base = (1ull << 30) - 700 * 4096ull;
  int want[N]; /* protection, -1: unmapped */
  u8 val[N];
  cpu_mem *m;
  CU_ASSERT_FATAL(cpu_mem_new(&m) == 0);
  for (int i = 0; i < N; i++) want[i] = -1, val[i] = 0;
  u64 x = 7;
  for (int step = 0; step < 3000; step++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    unsigned i = (unsigned)(x >> 33) % N;
    unsigned n = 1 + (unsigned)(x >> 12) % (step % 5 ? 9 : 1100);
    if (i + n > N) n = N - i;
    int prot = (int)(x >> 50) % 4, op = (int)(x >> 60) % 4;
    u64 a = base + i * 4096ull, len = n * 4096ull;
    if (op == 0) {
      CU_ASSERT_EQUAL(cpu_mem_map(m, a, len, prot), 0);
      for (unsigned k = i; k < i + n; k++) want[k] = prot, val[k] = 0;
    } else if (op == 1) {
      int hole = 0;
      for (unsigned k = i; k < i + n; k++) {
        if (want[k] < 0) hole = 1;
        else want[k] = prot;
      }
      CU_ASSERT_EQUAL(cpu_mem_protect(m, a, len, prot),
                      hole ? RW_ENOTFOUND : 0);
    } else if (op == 2) {
      CU_ASSERT_EQUAL(cpu_mem_unmap(m, a, len), 0);
      for (unsigned k = i; k < i + n; k++) want[k] = -1, val[k] = 0;
    } else if (want[i] >= 0) {
      u8 v = (u8)(x >> 40) | 1;
      CU_ASSERT_EQUAL(cpu_mem_write(m, a + 100, &v, 1), 0);
      val[i] = v;
    }
  }
  int bad = 0;
  for (unsigned k = 0; k < N; k++) {
    u64 a = base + k * 4096ull;
    u8 b = 0;
    if (cpu_mem_page_prot(m, a) != want[k]) bad++;
    if (want[k] >= 0 && (cpu_mem_read(m, a + 100, &b, 1) || b != val[k]))
      bad++;
  }
  CU_ASSERT_EQUAL(bad, 0);
  /* Runs from cpu_mem_query and pages from cpu_mem_next_data agree. */
  u64 at = 0, start, len, page;
  int prot;
  const u8 *bytes;
  while (cpu_mem_query(m, at, &start, &len, &prot) == 0) {
    unsigned k0 = (unsigned)((start - base) / 4096);
    unsigned k1 = (unsigned)((start + len - base) / 4096);
    CU_ASSERT(k0 < N && k1 <= N);
    if (k0 >= N || k1 > N) break;
    for (unsigned k = k0; k < k1; k++) CU_ASSERT_EQUAL(want[k], prot);
    CU_ASSERT(k0 == 0 || want[k0 - 1] != prot);
    CU_ASSERT(k1 == N || want[k1] != prot);
    at = start + len;
  }
  unsigned written = 0, seen = 0;
  for (unsigned k = 0; k < N; k++) written += val[k] != 0;
  at = 0;
  while (cpu_mem_next_data(m, at, &page, &prot, &bytes) == 0) {
    unsigned k = (unsigned)((page - base) / 4096);
    CU_ASSERT(k < N && val[k] && bytes[100] == val[k]);
    seen++;
    at = page + 4096;
  }
  CU_ASSERT_EQUAL(seen, written);
  cpu_mem_free(m);
}

/* cpu_snap_same: which ranges a history left alone between two snapshots,
 * seen through guest stores (TLB), privileged writes, protection changes,
 * a gigabyte mapped as one entry, and a duplicated handle. */
void test_mem_snap_same(void) {
  /* mov byte [0x600800], 7; int3 */
  static const u8 p[] = {0xc6, 0x04, 0x25, 0x00, 0x08, 0x60, 0x00, 0x07, 0xcc};
  struct emu e;
  cpu_snap *s0, *s1, *s2, *s3, *d;
  const u64 big = 1ull << 32, rw = CPU_PROT_READ | CPU_PROT_WRITE;
  u8 b = 7;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu_mem_map(e.mem, big, 1ull << 30, (int)rw) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x601000, &b, 1) == 0);
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s0) == 0);
  CU_ASSERT_FATAL(cpu_snap_dup(s0, &d) == 0);
  CU_ASSERT(cpu_snap_same(s0, d, 0, ~0ull));
  /* A guest store of the value already there is still a write. */
  CU_ASSERT_EQUAL(emu_run(&e, NULL), CPU_EXIT_FAULT);
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s1) == 0);
  CU_ASSERT(!cpu_snap_same(s0, s1, 0x600800, 1));
  CU_ASSERT(!cpu_snap_same(s0, s1, 0x600000, 1)); /* same page */
  CU_ASSERT(cpu_snap_same(s0, s1, 0x601000, 0x1000));
  CU_ASSERT(cpu_snap_same(s0, s1, big, 1ull << 30));
  CU_ASSERT(!cpu_snap_same(s0, s1, 0x5ff000, 0x3000)); /* spans it */
  /* One page written in the middle of a gigabyte of zeros. */
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, big + (300ull << 20), &b, 1) == 0);
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s2) == 0);
  CU_ASSERT(!cpu_snap_same(s1, s2, big, 1ull << 30));
  CU_ASSERT(!cpu_snap_same(s1, s2, big + (300ull << 20) + 4095, 1));
  CU_ASSERT(cpu_snap_same(s1, s2, big, 300ull << 20));
  CU_ASSERT(cpu_snap_same(s1, s2, big + (300ull << 20) + 4096, 1ull << 20));
  CU_ASSERT(cpu_snap_same(s1, s2, 0x600000, 0x2000));
  /* A protection change counts; the other pages of the range do not. */
  CU_ASSERT_FATAL(cpu_mem_protect(e.mem, 0x601000, 0x1000, CPU_PROT_READ) ==
                  0);
  CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s3) == 0);
  CU_ASSERT(!cpu_snap_same(s2, s3, 0x601000, 1));
  CU_ASSERT(cpu_snap_same(s2, s3, 0x600000, 0x1000));
  CU_ASSERT(cpu_snap_same(s0, d, 0x600000, 0x1000)); /* d is s0's state */
  CU_ASSERT(!cpu_snap_same(d, s3, 0x600000, 0x1000));
  cpu_snap_free(d);
  cpu_snap_free(s3);
  cpu_snap_free(s2);
  cpu_snap_free(s1);
  cpu_snap_free(s0);
  emu_close(&e);
}

/* Runs the store loop of test_mem_snap_lines: COUNT stores of a byte at A
 * by the guest, from its start. */
static void store_loop(struct emu *e, u64 a, u64 count) {
  struct rw_regs r;
  cpu_get_regs(e->cpu, &r);
  r.rip = EMU_CODE;
  r.gpr[RW_REG_rdi] = a;
  r.gpr[RW_REG_rax] = count;
  CU_ASSERT_FATAL(cpu_set_regs(e->cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(e, NULL), CPU_EXIT_FAULT); /* the int3 */
}

/* cpu_mem_track_lines: cpu_snap_same answers for the 64-byte lines a page
 * was written in between, through guest stores and privileged writes, one
 * and two copies of the page on, until the TLB takes a busy page's
 * writes; a space that does not track lines answers for pages. */
void test_mem_snap_lines(void) {
  /* L: mov [rdi], cl; dec rax; jnz L; int3 */
  static const u8 p[] = {0x88, 0x0f, 0x48, 0xff, 0xc8, 0x75, 0xf9, 0xcc};
  const u64 pg = EMU_DATA, line = 64;
  u8 b = 1;
  for (int on = 0; on < 2; on++) {
    struct emu e;
    cpu_snap *s0, *s1, *s2, *s3, *s4;
    CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
    cpu_mem_track_lines(e.mem, on);
    CU_ASSERT_FATAL(cpu_mem_write(e.mem, pg + 32 * line, &b, 1) == 0);
    CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s0) == 0);
    store_loop(&e, pg + line + 8, 1); /* line 1 */
    CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s1) == 0);
    CU_ASSERT(!cpu_snap_same(s0, s1, pg + line + 8, 1));
    CU_ASSERT(!cpu_snap_same(s0, s1, pg + 2 * line - 1, 1)); /* its line */
    CU_ASSERT(!cpu_snap_same(s0, s1, pg + line - 4, 8)); /* spans two */
    CU_ASSERT_EQUAL(cpu_snap_same(s0, s1, pg, line), on);
    CU_ASSERT_EQUAL(cpu_snap_same(s0, s1, pg + 2 * line, 4096 - 2 * line),
                    on);
    /* A privileged write (the kernel's), then a copy one snapshot on. */
    CU_ASSERT_FATAL(cpu_mem_write(e.mem, pg + 5 * line, &b, 1) == 0);
    CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s2) == 0);
    CU_ASSERT(!cpu_snap_same(s1, s2, pg + 5 * line, 1));
    CU_ASSERT_EQUAL(cpu_snap_same(s1, s2, pg + line, 1), on);
    CU_ASSERT(!cpu_snap_same(s0, s2, pg + line, 1));
    CU_ASSERT(!cpu_snap_same(s0, s2, pg + 5 * line, 1));
    CU_ASSERT_EQUAL(cpu_snap_same(s0, s2, pg + 7 * line, 1), on);
    /* A busy page: after a few stores the TLB takes its writes, and then
     * every line counts as written. */
    store_loop(&e, pg + 9 * line, 100);
    CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s3) == 0);
    CU_ASSERT(!cpu_snap_same(s2, s3, pg + 7 * line, 1));
    CU_ASSERT(cpu_snap_same(s2, s3, pg + 4096, 4096)); /* the next page */
    /* Three copies back is too far; a fresh page has no lineage. */
    store_loop(&e, pg + 9 * line, 1);
    CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s4) == 0);
    CU_ASSERT_EQUAL(cpu_snap_same(s3, s4, pg + 7 * line, 1), on);
    CU_ASSERT(!cpu_snap_same(s1, s4, pg + 7 * line, 1));
    cpu_snap_free(s4);
    CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s4) == 0);
    store_loop(&e, pg + 4096, 1);
    cpu_snap_free(s3);
    CU_ASSERT_FATAL(cpu_mem_snapshot(e.mem, &s3) == 0);
    CU_ASSERT(!cpu_snap_same(s4, s3, pg + 4096 + line, 1));
    cpu_snap_free(s4);
    cpu_snap_free(s3);
    cpu_snap_free(s2);
    cpu_snap_free(s1);
    cpu_snap_free(s0);
    emu_close(&e);
  }
}

/* cpu_mem_share_page: a page of one space taken by another without a copy,
 * each side's later writes its own; cpu_mem_page_kept: whether a page is
 * still the object a snapshot holds. */
void test_mem_share_page(void) {
  cpu_mem *a, *b;
  cpu_snap *s;
  const int rw = CPU_PROT_READ | CPU_PROT_WRITE;
  u8 x = 0x5a, y = 0xa5, got = 0;
  const u8 *pa, *pb;
  CU_ASSERT_FATAL(cpu_mem_new(&a) == 0);
  CU_ASSERT_FATAL(cpu_mem_new(&b) == 0);
  CU_ASSERT_FATAL(cpu_mem_map(a, 0x10000, 0x3000, rw) == 0);
  CU_ASSERT_FATAL(cpu_mem_map(b, 0x10000, 0x2000, CPU_PROT_READ) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(a, 0x10010, &x, 1) == 0);
  CU_ASSERT_FATAL(cpu_mem_snapshot(a, &s) == 0);
  CU_ASSERT(cpu_mem_page_kept(a, s, 0x10000));
  CU_ASSERT(!cpu_mem_page_kept(a, s, 0x11000)); /* never written */
  /* Shared: the same bytes, in place. */
  CU_ASSERT_EQUAL(cpu_mem_share_page(b, 0x10000, a), 1);
  CU_ASSERT(cpu_mem_read(b, 0x10010, &got, 1) == 0 && got == x);
  CU_ASSERT(cpu_mem_peek(a, 0x10000, &pa) == 0 &&
            cpu_mem_peek(b, 0x10000, &pb) == 0 && pa && pa == pb);
  CU_ASSERT_EQUAL(cpu_mem_page_prot(b, 0x10000), CPU_PROT_READ);
  /* Nothing to share: a page never written, a page not mapped. */
  CU_ASSERT_EQUAL(cpu_mem_share_page(b, 0x11000, a), 0);
  CU_ASSERT_EQUAL(cpu_mem_share_page(b, 0x12000, a), 0);
  /* A write on either side copies the page first. */
  CU_ASSERT_FATAL(cpu_mem_write(b, 0x10010, &y, 1) == 0);
  CU_ASSERT(cpu_mem_read(a, 0x10010, &got, 1) == 0 && got == x);
  CU_ASSERT(cpu_mem_page_kept(a, s, 0x10000));
  CU_ASSERT_EQUAL(cpu_mem_share_page(b, 0x10000, a), 1);
  CU_ASSERT_FATAL(cpu_mem_write(a, 0x10010, &y, 1) == 0);
  CU_ASSERT(cpu_mem_read(b, 0x10010, &got, 1) == 0 && got == x);
  CU_ASSERT(!cpu_mem_page_kept(a, s, 0x10000));
  cpu_snap_free(s);
  cpu_mem_free(b);
  cpu_mem_free(a);
}
