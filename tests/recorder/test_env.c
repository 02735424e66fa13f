/* SPDX-License-Identifier: MIT */
/* Tests of recorder/env.c: the environment PROG gets. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/recorder/tests.h"
#include "recorder/rec_int.h"

static const char *get(char **env, const char *name) {
  size_t n = strlen(name);
  for (; *env; env++)
    if (!strncmp(*env, name, n) && (*env)[n] == '=') return *env + n + 1;
  return NULL;
}

/* The default: nothing hidden (the program runs its native code paths);
 * only rewind's own items in GLIBC_TUNABLES, and no OPENSSL_ia32cap. */
void test_env_tunables_added(void) {
  char e1[] = "HOME=/root", e2[] = "PATH=/bin";
  char *in[] = {e1, e2, NULL};
  char **out, *applied;
  struct rec__cpu_mask m;
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build(NULL, &m), 0);
  CU_ASSERT_STRING_EQUAL(m.hidden, "");
  CU_ASSERT_EQUAL_FATAL(rec__env_build(in, &m, &out, &applied), 0);
  CU_ASSERT_STRING_EQUAL(get(out, "HOME"), "/root");
  const char *t = get(out, "GLIBC_TUNABLES");
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_STRING_EQUAL(t, "glibc.pthread.rseq=0:glibc.cpu.hwcaps=-XSAVEC");
  CU_ASSERT_PTR_NULL(get(out, "OPENSSL_ia32cap"));
  CU_ASSERT_PTR_NOT_NULL(strstr(applied, "GLIBC_TUNABLES="));
  CU_ASSERT_PTR_NULL(strstr(applied, "OPENSSL"));
  CU_ASSERT(rec__env_is_ours(out, &m));
  CU_ASSERT(!rec__env_is_ours(in, &m));
  rec__env_free(out);
  free(applied);
}

/* The OPENSSL_ia32cap words of ENV: ~W0:~W1. */
static int ossl_words(char **env, unsigned long long *w0,
                      unsigned long long *w1) {
  const char *o = get(env, "OPENSSL_ia32cap");
  return o && sscanf(o, "~0x%llx:~0x%llx", w0, w1) == 2;
}

/* --cpu-features=-avx512: every AVX-512 subset hidden from both, and
 * nothing else. */
void test_env_hide_avx512(void) {
  char e1[] = "HOME=/root";
  char *in[] = {e1, NULL};
  char **out, *applied;
  struct rec__cpu_mask m;
  unsigned long long w0 = 1, w1 = 0;
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build("-avx512", &m), 0);
  CU_ASSERT_EQUAL_FATAL(rec__env_build(in, &m, &out, &applied), 0);
  const char *t = get(out, "GLIBC_TUNABLES");
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "-AVX512F,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "-AVX512VL,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "-AVX512BW,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "-XSAVEC"));
  CU_ASSERT_PTR_NULL(strstr(t, "-AVX2"));
  CU_ASSERT_PTR_NULL(strstr(t, "-AVX,"));
  CU_ASSERT_FATAL(ossl_words(out, &w0, &w1));
  CU_ASSERT_EQUAL(w0, 0);
  CU_ASSERT((w1 & (1ull << 16)) != 0);      /* AVX512F */
  CU_ASSERT((w1 & (1ull << 31)) != 0);      /* AVX512VL */
  CU_ASSERT((w1 & (1ull << 21)) != 0);      /* IFMA */
  CU_ASSERT((w1 & (1ull << 43)) != 0);      /* VNNI */
  CU_ASSERT((w1 & (1ull << 5)) == 0);       /* AVX2 */
  CU_ASSERT((w1 & (1ull << 41)) == 0);      /* VAES */
  CU_ASSERT((w1 & (1ull << 18)) == 0);      /* RDSEED: never */
  CU_ASSERT_PTR_NOT_NULL(strstr(m.hidden, "avx512vpopcntdq"));
  CU_ASSERT_PTR_NULL(strstr(m.hidden, "avx2"));
  CU_ASSERT(rec__env_is_ours(out, &m));
  rec__env_free(out);
  free(applied);
}

/* A level hides what it lacks, and what needs a hidden feature goes with
 * it (-avx takes AVX2, FMA, VAES and AVX-512). */
void test_env_hide_levels(void) {
  struct rec__cpu_mask m;
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build("x86-64-v3", &m), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(m.hwcaps, "-AVX512F,"));
  CU_ASSERT_PTR_NULL(strstr(m.hwcaps, "-AVX2,"));
  CU_ASSERT_PTR_NULL(strstr(m.hwcaps, "-FMA,"));
  CU_ASSERT((m.ossl[1] & (1ull << 29)) != 0); /* SHA: in no level */
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build("x86-64-v4", &m), 0);
  CU_ASSERT_PTR_NULL(strstr(m.hwcaps, "-AVX512F,"));
  CU_ASSERT((m.ossl[1] & (1ull << 21)) != 0); /* IFMA: not in v4 */
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build("x86-64", &m), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(m.hwcaps, "-SSE4_2,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(m.hwcaps, "-POPCNT,"));
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build("-avx", &m), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(m.hwcaps, "-AVX2,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(m.hwcaps, "-FMA,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(m.hwcaps, "-AVX512VL,"));
  CU_ASSERT((m.ossl[1] & (1ull << 41)) != 0); /* VAES */
  CU_ASSERT_PTR_NULL(strstr(m.hwcaps, "-SSE4_2,"));
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build("native", &m), 0);
  CU_ASSERT_STRING_EQUAL(m.hidden, "");
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build("-sha,-gfni", &m), 0);
  CU_ASSERT_STRING_EQUAL(m.hidden, "gfni sha");
}

void test_env_bad_features(void) {
  char err[160];
  struct rec__cpu_mask m;
  CU_ASSERT_EQUAL(rec_cpu_features_check("-avx513", err, sizeof err),
                  RW_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "avx513"));
  CU_ASSERT_EQUAL(rec_cpu_features_check("avx2", err, sizeof err),
                  RW_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "x86-64-v3"));
  CU_ASSERT_EQUAL(rec_cpu_features_check("x86-64-v5", err, sizeof err),
                  RW_EINVAL);
  CU_ASSERT_EQUAL(rec_cpu_features_check("", err, sizeof err), 0);
  CU_ASSERT_EQUAL(rec_cpu_features_check("-", err, sizeof err), RW_EINVAL);
  CU_ASSERT_EQUAL(rec__cpu_mask_build("-nope", &m), RW_EINVAL);
  CU_ASSERT_PTR_NOT_NULL(strstr(rec_cpu_feature_names(), "avx512vl"));
}

void test_env_user_tunables_merged(void) {
  char e1[] =
      "GLIBC_TUNABLES=glibc.malloc.check=3:glibc.cpu.hwcaps=-SSE4_2:"
      "glibc.pthread.rseq=1";
  char *in[] = {e1, NULL};
  char **out, *applied;
  struct rec__cpu_mask m;
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build(NULL, &m), 0);
  CU_ASSERT_EQUAL_FATAL(rec__env_build(in, &m, &out, &applied), 0);
  const char *t = get(out, "GLIBC_TUNABLES");
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "glibc.malloc.check=3"));
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "glibc.cpu.hwcaps=-SSE4_2,-XSAVEC"));
  CU_ASSERT_PTR_NULL(strstr(t, "rseq=1"));
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "glibc.pthread.rseq=0"));
  /* Exactly one hwcaps item: glibc keeps only the last. */
  CU_ASSERT_PTR_NULL(strstr(strstr(t, "hwcaps") + 1, "hwcaps"));
  int count = 0;
  for (char **e = out; *e; e++) count += !strncmp(*e, "GLIBC_TUNABLES=", 15);
  CU_ASSERT_EQUAL(count, 1);
  rec__env_free(out);
  free(applied);
}

void test_env_openssl_user_value_kept(void) {
  char e1[] = "OPENSSL_ia32cap=0x0";
  char *in[] = {e1, NULL};
  char **out, *applied;
  struct rec__cpu_mask m;
  CU_ASSERT_EQUAL_FATAL(rec__cpu_mask_build(NULL, &m), 0);
  CU_ASSERT_EQUAL_FATAL(rec__env_build(in, &m, &out, &applied), 0);
  CU_ASSERT_STRING_EQUAL(get(out, "OPENSSL_ia32cap"), "0x0");
  CU_ASSERT_PTR_NOT_NULL(strstr(applied, "kept"));
  rec__env_free(out);
  free(applied);
}
