/* SPDX-License-Identifier: MIT */
/* Tests of recorder/maps.c: parsing /proc/PID/maps lines and comparing two
 * address spaces range by range. */
#include <CUnit/CUnit.h>
#include <string.h>
#include <sys/mman.h>

#include "tests/recorder/tests.h"
#include "recorder/rec_int.h"

static const char sample[] =
    "55d0c0a00000-55d0c0a02000 r--p 00000000 fd:01 1234   /usr/bin/cat\n"
    "55d0c0a02000-55d0c0a07000 r-xp 00002000 fd:01 1234   /usr/bin/cat\n"
    "55d0c1000000-55d0c1021000 rw-p 00000000 00:00 0      [heap]\n"
    "7f0000000000-7f0000001000 rw-s 00000000 00:01 77     /dev/zero (deleted)\n"
    "7f0000002000-7f0000003000 rw-p 00000000 00:00 0 \n"
    "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0      [stack]\n"
    "7ffd000fe000-7ffd00100000 r-xp 00000000 00:00 0      [vdso]\n"
    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";

void test_maps_parse_lines(void) {
  struct rec__maps m = {0};
  CU_ASSERT_EQUAL_FATAL(rec__maps_parse(sample, strlen(sample), &m), 0);
  CU_ASSERT_EQUAL_FATAL(m.n, 8);
  CU_ASSERT_EQUAL(m.v[0].start, 0x55d0c0a00000ull);
  CU_ASSERT_EQUAL(m.v[1].offset, 0x2000);
  CU_ASSERT_EQUAL(m.v[1].prot, PROT_READ | PROT_EXEC);
  CU_ASSERT_EQUAL(m.v[1].ino, 1234);
  CU_ASSERT_EQUAL(m.v[1].dev, 0xfd00001); /* fd:01, major << 20 | minor */
  CU_ASSERT_STRING_EQUAL(m.v[1].path, "/usr/bin/cat");
  CU_ASSERT(rec__map_is_file(&m.v[1]));
  CU_ASSERT(m.v[2].flags & REC_MAPF_HEAP);
  CU_ASSERT(m.v[3].flags & REC_MAPF_SHARED);
  CU_ASSERT_STRING_EQUAL(m.v[3].path, "/dev/zero (deleted)");
  CU_ASSERT_FALSE(rec__map_is_file(&m.v[3]));
  CU_ASSERT_STRING_EQUAL(m.v[4].path, "");
  CU_ASSERT_FALSE(rec__map_is_file(&m.v[4]));
  CU_ASSERT(m.v[5].flags & REC_MAPF_STACK);
  CU_ASSERT(m.v[6].flags & REC_MAPF_SPECIAL);
  CU_ASSERT(m.v[7].flags & REC_MAPF_SPECIAL);
  CU_ASSERT_EQUAL(m.v[7].prot, PROT_EXEC);
  rec__maps_free(&m);
}

void test_maps_parse_rejects_garbage(void) {
  struct rec__maps m = {0};
  const char *bad = "hello world\n";
  CU_ASSERT_EQUAL(rec__maps_parse(bad, strlen(bad), &m), RW_ECORRUPT);
  const char *rev = "2000-1000 r--p 00000000 00:00 0\n";
  CU_ASSERT_EQUAL(rec__maps_parse(rev, strlen(rev), &m), RW_ECORRUPT);
  const char *order =
      "3000-4000 r--p 00000000 00:00 0\n1000-2000 r--p 00000000 00:00 0\n";
  CU_ASSERT_EQUAL(rec__maps_parse(order, strlen(order), &m), RW_ECORRUPT);
  rec__maps_free(&m);
  CU_ASSERT_EQUAL(rec__maps_parse("", 0, &m), 0);
  CU_ASSERT_EQUAL(m.n, 0);
}

void test_maps_find(void) {
  struct rec__maps m = {0};
  CU_ASSERT_EQUAL_FATAL(rec__maps_parse(sample, strlen(sample), &m), 0);
  CU_ASSERT_PTR_EQUAL(rec__maps_find(&m, 0x55d0c0a01fffull), &m.v[0]);
  CU_ASSERT_PTR_EQUAL(rec__maps_find(&m, 0x55d0c0a02000ull), &m.v[1]);
  CU_ASSERT_PTR_NULL(rec__maps_find(&m, 0x7f0000001000ull));
  CU_ASSERT_PTR_NULL(rec__maps_find(&m, 0));
  rec__maps_free(&m);
}

/* Collects the diff as text. */
static char log_[1024];
static int d_unmap(void *c, u64 a, u64 b) {
  (void)c;
  snprintf(log_ + strlen(log_), sizeof log_ - strlen(log_), "U%llx-%llx ",
           (unsigned long long)a, (unsigned long long)b);
  return 0;
}
static int d_map(void *c, const struct rec__map *m, u64 a, u64 b) {
  (void)c;
  snprintf(log_ + strlen(log_), sizeof log_ - strlen(log_), "M%llx-%llx:%s ",
           (unsigned long long)a, (unsigned long long)b, m->path);
  return 0;
}
static int d_protect(void *c, u64 a, u64 b, u32 prot) {
  (void)c;
  snprintf(log_ + strlen(log_), sizeof log_ - strlen(log_), "P%llx-%llx:%u ",
           (unsigned long long)a, (unsigned long long)b, prot);
  return 0;
}
static const struct rec__maps_ops ops = {d_unmap, d_map, d_protect};

static const char *diff(const char *a, const char *b,
                        const struct rec__range *skip, size_t nskip) {
  struct rec__maps x = {0}, y = {0};
  log_[0] = 0;
  CU_ASSERT_EQUAL(rec__maps_parse(a, strlen(a), &x), 0);
  CU_ASSERT_EQUAL(rec__maps_parse(b, strlen(b), &y), 0);
  CU_ASSERT_EQUAL(rec__maps_diff(&x, &y, skip, nskip, &ops, NULL), 0);
  rec__maps_free(&x);
  rec__maps_free(&y);
  return log_;
}

void test_maps_diff_unmap_map_protect(void) {
  const char *a =
      "1000-5000 rw-p 00000000 00:00 0\n"
      "8000-9000 r--p 00000000 fd:01 5 /lib/x.so\n";
  const char *b =
      "1000-2000 rw-p 00000000 00:00 0\n"
      "2000-3000 r--p 00000000 00:00 0\n"
      "8000-9000 r--p 00001000 fd:01 5 /lib/x.so\n"
      "a000-b000 rw-p 00000000 00:00 0 [heap]\n";
  CU_ASSERT_STRING_EQUAL(diff(a, b, NULL, 0),
                         "P2000-3000:1 U3000-5000 M8000-9000:/lib/x.so "
                         "Ma000-b000:[heap] ");
}

void test_maps_diff_merged_vmas_are_equal(void) {
  const char *a =
      "1000-2000 rw-p 00000000 00:00 0\n2000-3000 rw-p 00000000 00:00 0\n";
  const char *b = "1000-3000 rw-p 00000000 00:00 0\n";
  CU_ASSERT_STRING_EQUAL(diff(a, b, NULL, 0), "");
  const char *c = "1000-3000 r--p 00000000 fd:01 9 /f\n";
  const char *d =
      "1000-2000 r--p 00000000 fd:01 9 /f\n2000-3000 r--p 00001000 fd:01 9 /f\n";
  CU_ASSERT_STRING_EQUAL(diff(c, d, NULL, 0), "");
}

void test_maps_diff_skip_ranges(void) {
  const char *a = "1000-3000 rw-p 00000000 00:00 0\n";
  const char *b = "5000-7000 rw-p 00000000 00:00 0\n";
  struct rec__range skip[2] = {{0x1000, 0x2000}, {0x5000, 0x1000}};
  CU_ASSERT_STRING_EQUAL(diff(a, b, skip, 2), "M6000-7000: ");
}
