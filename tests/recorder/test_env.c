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

void test_env_tunables_added(void) {
  char e1[] = "HOME=/root", e2[] = "PATH=/bin";
  char *in[] = {e1, e2, NULL};
  char **out, *applied;
  CU_ASSERT_EQUAL_FATAL(rec__env_build(in, &out, &applied), 0);
  CU_ASSERT_STRING_EQUAL(get(out, "HOME"), "/root");
  const char *t = get(out, "GLIBC_TUNABLES");
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "glibc.pthread.rseq=0"));
  CU_ASSERT_PTR_NOT_NULL(strstr(t, "glibc.cpu.hwcaps=-XSAVEC"));
  /* glibc's EVEX string functions all run in the emulator. */
  CU_ASSERT_PTR_NULL(strstr(t, "AVX512"));
  /* The emulator has AVX, AVX2 and FMA: glibc keeps those functions. */
  CU_ASSERT_PTR_NULL(strstr(t, "-FMA"));
  CU_ASSERT_PTR_NULL(strstr(t, "-AVX2"));
  CU_ASSERT_PTR_NULL(strstr(t, "-AVX,"));
  const char *o = get(out, "OPENSSL_ia32cap");
  CU_ASSERT_PTR_NOT_NULL_FATAL(o);
  CU_ASSERT_EQUAL(o[0], '~');
  /* Masked: what the emulator lacks (AVX-512); left on: what it has,
   * and rdrand/rdseed, which the recorder records. */
  unsigned long long w0 = 1, w1 = 0;
  CU_ASSERT_EQUAL(sscanf(o, "~0x%llx:~0x%llx", &w0, &w1), 2);
  CU_ASSERT_EQUAL(w0, 0);
  CU_ASSERT((w1 & (1ull << 16)) != 0); /* AVX512F */
  CU_ASSERT((w1 & (1ull << 30)) != 0); /* AVX512BW */
  CU_ASSERT((w1 & (1ull << 31)) != 0); /* AVX512VL */
  CU_ASSERT((w1 & (1ull << 18)) == 0); /* RDSEED */
  CU_ASSERT((w1 & (1ull << 40)) == 0); /* GFNI */
  CU_ASSERT((w1 & (1ull << 41)) == 0); /* VAES */
  CU_ASSERT((w1 & (1ull << 42)) == 0); /* VPCLMULQDQ */
  CU_ASSERT((w0 & (1ull << 60)) == 0); /* AVX */
  CU_ASSERT((w0 & (1ull << 57)) == 0); /* AES-NI */
  CU_ASSERT((w0 & (1ull << 44)) == 0); /* FMA */
  CU_ASSERT((w1 & (1ull << 5)) == 0); /* AVX2 */
  CU_ASSERT((w1 & (1ull << 29)) == 0); /* SHA */
  CU_ASSERT((w1 & (1ull << 19)) == 0); /* ADX */
  CU_ASSERT_PTR_NOT_NULL(strstr(applied, "GLIBC_TUNABLES="));
  rec__env_free(out);
  free(applied);
}

void test_env_user_tunables_merged(void) {
  char e1[] =
      "GLIBC_TUNABLES=glibc.malloc.check=3:glibc.cpu.hwcaps=-SSE4_2:"
      "glibc.pthread.rseq=1";
  char *in[] = {e1, NULL};
  char **out, *applied;
  CU_ASSERT_EQUAL_FATAL(rec__env_build(in, &out, &applied), 0);
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
  CU_ASSERT_EQUAL_FATAL(rec__env_build(in, &out, &applied), 0);
  CU_ASSERT_STRING_EQUAL(get(out, "OPENSSL_ia32cap"), "0x0");
  CU_ASSERT_PTR_NOT_NULL(strstr(applied, "kept"));
  rec__env_free(out);
  free(applied);
}
