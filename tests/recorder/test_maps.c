/* SPDX-License-Identifier: MIT */
/* Tests of recorder/maps.c: parsing /proc/PID/maps lines and comparing two
 * address spaces range by range. */
#include <CUnit/CUnit.h>
#include <stdio.h>
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

/* The I-th entry of M. */
static const struct rec__map *at(const struct rec__maps *m, size_t i) {
  const struct rec__map *e = rec__maps_first(m);
  while (e && i--) e = rec__maps_next(m, e);
  return e;
}

void test_maps_parse_lines(void) {
  struct rec__maps m = {0};
  CU_ASSERT_EQUAL_FATAL(rec__maps_parse(sample, strlen(sample), &m), 0);
  CU_ASSERT_EQUAL_FATAL(rec__maps_count(&m), 8);
  CU_ASSERT_EQUAL(at(&m, 0)->start, 0x55d0c0a00000ull);
  CU_ASSERT_EQUAL(at(&m, 1)->offset, 0x2000);
  CU_ASSERT_EQUAL(at(&m, 1)->prot, PROT_READ | PROT_EXEC);
  CU_ASSERT_EQUAL(at(&m, 1)->ino, 1234);
  CU_ASSERT_EQUAL(at(&m, 1)->dev, 0xfd00001); /* fd:01, major << 20 | minor */
  CU_ASSERT_STRING_EQUAL(at(&m, 1)->path, "/usr/bin/cat");
  CU_ASSERT(rec__map_is_file(at(&m, 1)));
  CU_ASSERT(at(&m, 2)->flags & REC_MAPF_HEAP);
  CU_ASSERT(at(&m, 3)->flags & REC_MAPF_SHARED);
  CU_ASSERT_STRING_EQUAL(at(&m, 3)->path, "/dev/zero (deleted)");
  CU_ASSERT_FALSE(rec__map_is_file(at(&m, 3)));
  CU_ASSERT_STRING_EQUAL(at(&m, 4)->path, "");
  CU_ASSERT_FALSE(rec__map_is_file(at(&m, 4)));
  CU_ASSERT(at(&m, 5)->flags & REC_MAPF_STACK);
  /* The vDSO is recorded (patched), the vsyscall page is not. */
  CU_ASSERT(at(&m, 6)->flags & REC_MAPF_VDSO);
  CU_ASSERT_FALSE(at(&m, 6)->flags & REC_MAPF_SPECIAL);
  CU_ASSERT(at(&m, 7)->flags & REC_MAPF_SPECIAL);
  CU_ASSERT_EQUAL(at(&m, 7)->prot, PROT_EXEC);
  CU_ASSERT_PTR_NULL(at(&m, 8));
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
  CU_ASSERT_EQUAL(rec__maps_count(&m), 0);
  CU_ASSERT_PTR_NULL(rec__maps_first(&m));
}

void test_maps_find(void) {
  struct rec__maps m = {0};
  CU_ASSERT_EQUAL_FATAL(rec__maps_parse(sample, strlen(sample), &m), 0);
  CU_ASSERT_PTR_EQUAL(rec__maps_find(&m, 0x55d0c0a01fffull), at(&m, 0));
  CU_ASSERT_PTR_EQUAL(rec__maps_find(&m, 0x55d0c0a02000ull), at(&m, 1));
  CU_ASSERT_PTR_NULL(rec__maps_find(&m, 0x7f0000001000ull));
  CU_ASSERT_PTR_NULL(rec__maps_find(&m, 0));
  CU_ASSERT_PTR_EQUAL(rec__maps_from(&m, 0x7f0000001000ull), at(&m, 4));
  CU_ASSERT_PTR_EQUAL(rec__maps_from(&m, 0), at(&m, 0));
  CU_ASSERT_PTR_NULL(rec__maps_from(&m, ~0ull));
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

/* M as text, one "start-end:prot:path" per entry. */
static const char *show(const struct rec__maps *m) {
  static char buf[2048];
  buf[0] = 0;
  for (const struct rec__map *e = rec__maps_first(m); e;
       e = rec__maps_next(m, e))
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%llx-%llx:%u:%s ",
             (unsigned long long)e->start, (unsigned long long)e->end,
             e->prot, e->path);
  return buf;
}

/* A model followed by hand equals the kernel's view as the diff sees it. */
static const char *same(const struct rec__maps *m, const char *kernel) {
  struct rec__maps k = {0};
  log_[0] = 0;
  CU_ASSERT_EQUAL(rec__maps_parse(kernel, strlen(kernel), &k), 0);
  CU_ASSERT_EQUAL(rec__maps_diff(m, &k, NULL, 0, &ops, NULL), 0);
  rec__maps_free(&k);
  return log_;
}

void test_maps_model_protect_splits_and_merges(void) {
  struct rec__maps m = {0};
  const char *t = "10000-20000 ---p 00000000 00:00 0\n";
  CU_ASSERT_EQUAL_FATAL(rec__maps_parse(t, strlen(t), &m), 0);
  /* Every other page readable: 16 pieces. */
  for (u64 a = 0x11000; a < 0x20000; a += 0x2000)
    CU_ASSERT_EQUAL(rec__maps_protect(&m, a, a + 0x1000, PROT_READ), 0);
  CU_ASSERT_EQUAL(rec__maps_count(&m), 16);
  CU_ASSERT_EQUAL(rec__maps_find(&m, 0x13fff)->prot, PROT_READ);
  CU_ASSERT_EQUAL(rec__maps_find(&m, 0x14000)->prot, 0);
  /* In descending order, the other half: one mapping again. */
  for (u64 a = 0x1e000; a >= 0x10000; a -= 0x2000)
    CU_ASSERT_EQUAL(rec__maps_protect(&m, a, a + 0x1000, PROT_READ), 0);
  CU_ASSERT_STRING_EQUAL(show(&m), "10000-20000:1: ");
  /* Across pieces with one call. */
  CU_ASSERT_EQUAL(rec__maps_protect(&m, 0x12000, 0x14000, 3), 0);
  CU_ASSERT_EQUAL(rec__maps_protect(&m, 0x11000, 0x13000, 0), 0);
  CU_ASSERT_STRING_EQUAL(show(&m), "10000-11000:1: 11000-13000:0: "
                                   "13000-14000:3: 14000-20000:1: ");
  rec__maps_free(&m);
}

void test_maps_model_remove_insert(void) {
  struct rec__maps m = {0};
  const char *t =
      "10000-20000 rw-p 00000000 00:00 0\n"
      "20000-30000 r--p 00001000 fd:01 7 /lib/y.so\n";
  CU_ASSERT_EQUAL_FATAL(rec__maps_parse(t, strlen(t), &m), 0);
  /* A hole in the middle of each; the file keeps its offsets. */
  CU_ASSERT_EQUAL(rec__maps_remove(&m, 0x14000, 0x16000), 0);
  CU_ASSERT_EQUAL(rec__maps_remove(&m, 0x24000, 0x25000), 0);
  CU_ASSERT_EQUAL(rec__maps_find(&m, 0x25000)->offset, 0x6000);
  CU_ASSERT_PTR_NULL(rec__maps_find(&m, 0x15fff));
  CU_ASSERT_STRING_EQUAL(
      same(&m,
           "10000-14000 rw-p 00000000 00:00 0\n"
           "16000-20000 rw-p 00000000 00:00 0\n"
           "20000-24000 r--p 00001000 fd:01 7 /lib/y.so\n"
           "25000-30000 r--p 00006000 fd:01 7 /lib/y.so\n"),
      "");
  /* Filled again with the same kind: one anonymous entry; over the file
   * (MAP_FIXED) after taking it out. */
  char anon[1] = "";
  struct rec__map e = {0x14000, 0x16000, 0, 0, 0, 3, REC_MAPF_PRIVATE, anon};
  CU_ASSERT_EQUAL(rec__maps_insert(&m, &e), 0);
  CU_ASSERT_EQUAL(rec__maps_find(&m, 0x10000)->end, 0x20000);
  e.start = 0x1f000, e.end = 0x21000;
  CU_ASSERT_EQUAL(rec__maps_remove(&m, e.start, e.end), 0);
  CU_ASSERT_EQUAL(rec__maps_insert(&m, &e), 0);
  CU_ASSERT_STRING_EQUAL(show(&m), "10000-21000:3: 21000-24000:1:/lib/y.so "
                                   "25000-30000:1:/lib/y.so ");
  CU_ASSERT_EQUAL(rec__maps_find(&m, 0x21000)->offset, 0x2000);
  /* Everything. */
  CU_ASSERT_EQUAL(rec__maps_remove(&m, 0, ~0ull & ~0xfffull), 0);
  CU_ASSERT_EQUAL(rec__maps_count(&m), 0);
  rec__maps_free(&m);
}

/* Many pieces in a pseudo-random order, against a page array. */
void test_maps_model_random_against_pages(void) {
  enum { N = 512 };
  u32 page[N]; /* protection + 1, 0: unmapped */
  struct rec__maps m = {0};
  char anon[1] = "";
  u64 base = 0x100000;
  for (size_t i = 0; i < N; i++) page[i] = 0;
  u64 x = 12345;
  for (int step = 0; step < 4000; step++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    size_t i = (size_t)(x >> 33) % N, n = 1 + (size_t)(x >> 20) % 9;
    if (i + n > N) n = N - i;
    u32 prot = (u32)(x >> 50) % 4, op = (u32)(x >> 60) % 3;
    u64 a = base + i * 4096, b = a + n * 4096;
    if (op == 0) {
      CU_ASSERT_EQUAL(rec__maps_remove(&m, a, b), 0);
      for (size_t k = i; k < i + n; k++) page[k] = 0;
    } else if (op == 1) {
      struct rec__map e = {a, b, 0, 0, 0, prot, REC_MAPF_PRIVATE, anon};
      CU_ASSERT_EQUAL(rec__maps_remove(&m, a, b), 0);
      CU_ASSERT_EQUAL(rec__maps_insert(&m, &e), 0);
      for (size_t k = i; k < i + n; k++) page[k] = prot + 1;
    } else {
      CU_ASSERT_EQUAL(rec__maps_protect(&m, a, b, prot), 0);
      for (size_t k = i; k < i + n; k++)
        if (page[k]) page[k] = prot + 1;
    }
  }
  /* Same pages, and no two neighbours that should have merged. */
  int bad = 0;
  for (size_t k = 0; k < N; k++) {
    const struct rec__map *e = rec__maps_find(&m, base + k * 4096);
    if ((e ? e->prot + 1 : 0) != page[k]) bad++;
  }
  CU_ASSERT_EQUAL(bad, 0);
  size_t runs = 0;
  for (size_t k = 0; k < N; k++)
    if (page[k] && (k == 0 || page[k - 1] != page[k])) runs++;
  CU_ASSERT_EQUAL(rec__maps_count(&m), runs);
  const struct rec__map *p = NULL;
  for (const struct rec__map *e = rec__maps_first(&m); e;
       p = e, e = rec__maps_next(&m, e))
    CU_ASSERT(!p || (p->end <= e->start && e->start < e->end));
  rec__maps_free(&m);
}
