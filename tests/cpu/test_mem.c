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
  CU_ASSERT(before < 4u << 20);
  memset(buf, 0xff, sizeof buf);
  CU_ASSERT_FATAL(cpu_mem_read(m, (1ull << 32) + (1ull << 29), buf, 16) == 0);
  for (int i = 0; i < 16; i++) CU_ASSERT_EQUAL(buf[i], 0);
  CU_ASSERT_EQUAL(cpu_mem_footprint(m), before);
  CU_ASSERT_FATAL(cpu_mem_write(m, (1ull << 32) + 12345, &one, 1) == 0);
  CU_ASSERT(cpu_mem_footprint(m) > before);
  CU_ASSERT(cpu_mem_footprint(m) < before + 3 * 4096);
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
