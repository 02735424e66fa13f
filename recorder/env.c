/* SPDX-License-Identifier: MIT */
/* The environment PROG runs with: the user's, plus the restrictions that
 * keep the recording replayable (DESIGN.md section 2): glibc's rseq
 * registration off and its ISA-specific string functions limited to SSE4.2
 * through GLIBC_TUNABLES, and OpenSSL's AVX/AVX-512/SHA/AES-NI/RDRAND paths
 * masked through OPENSSL_ia32cap. man/rewind-record.1 documents them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/rec_int.h"

/* glibc 2.36 feature names (sysdeps/x86/cpu-tunables.c); each was checked to
 * change the selection reported by ld.so --list-diagnostics. */
const char rec__hwcaps_off[] =
    "-AVX,-AVX2,-AVX512F,-AVX512CD,-AVX512BW,-AVX512DQ,-AVX512VL,-BMI1,-BMI2,"
    "-FMA,-LZCNT,-MOVBE,-ERMS,-XSAVEC,-AVX_Fast_Unaligned_Load";

/* OPENSSL_ia32cap bits (man OPENSSL_ia32cap) to clear. Word 0 is
 * CPUID.1:EDX (bits 0-31) and ECX (32-63); word 1 is CPUID.7.0:EBX (0-31)
 * and ECX (32-63). */
#define B(n) (1ull << (n))
static const unsigned long long ossl_mask0 =
    B(32 + 1) /* PCLMULQDQ */ | B(32 + 12) /* FMA */ | B(32 + 22) /* MOVBE */ |
    B(32 + 25) /* AES-NI */ | B(32 + 28) /* AVX */ | B(32 + 30) /* RDRAND */;
static const unsigned long long ossl_mask1 =
    B(3) /* BMI1 */ | B(5) /* AVX2 */ | B(8) /* BMI2 */ | B(16) /* AVX512F */ |
    B(17) /* AVX512DQ */ | B(18) /* RDSEED */ | B(19) /* ADX */ |
    B(21) /* AVX512IFMA */ | B(28) /* AVX512CD */ | B(29) /* SHA */ |
    B(30) /* AVX512BW */ | B(31) /* AVX512VL */ | B(32 + 1) /* VBMI */ |
    B(32 + 6) /* VBMI2 */ | B(32 + 8) /* GFNI */ | B(32 + 9) /* VAES */ |
    B(32 + 10) /* VPCLMULQDQ */ | B(32 + 11) /* VNNI */ |
    B(32 + 12) /* BITALG */ | B(32 + 14) /* VPOPCNTDQ */;
#undef B

static const char *getenv_in(char *const *envp, const char *name) {
  size_t n = strlen(name);
  for (; envp && *envp; envp++)
    if (!strncmp(*envp, name, n) && (*envp)[n] == '=') return *envp + n + 1;
  return NULL;
}

/* Builds the GLIBC_TUNABLES value: the user's items, with rewind's hwcaps
 * appended to any glibc.cpu.hwcaps item and glibc.pthread.rseq forced to 0,
 * followed by rewind's own items. Returns a malloc'd string or NULL. */
static char *tunables(const char *user) {
  size_t cap = (user ? strlen(user) : 0) + sizeof rec__hwcaps_off + 128;
  char *out = malloc(cap), *copy = user ? strdup(user) : NULL;
  if (!out || (user && !copy)) {
    free(out);
    free(copy);
    return NULL;
  }
  out[0] = 0;
  int have_hwcaps = 0;
  for (char *save = NULL, *it = copy ? strtok_r(copy, ":", &save) : NULL; it;
       it = strtok_r(NULL, ":", &save)) {
    if (!strncmp(it, "glibc.pthread.rseq=", 19)) continue;
    if (out[0]) strcat(out, ":");
    strcat(out, it);
    if (!strncmp(it, "glibc.cpu.hwcaps=", 17)) {
      if (it[17]) strcat(out, ",");
      strcat(out, rec__hwcaps_off);
      have_hwcaps = 1;
    }
  }
  if (out[0]) strcat(out, ":");
  strcat(out, "glibc.pthread.rseq=0");
  if (!have_hwcaps) {
    strcat(out, ":glibc.cpu.hwcaps=");
    strcat(out, rec__hwcaps_off);
  }
  free(copy);
  return out;
}

void rec__env_free(char **env) {
  if (!env) return;
  for (char **e = env; *e; e++) free(*e);
  free(env);
}

int rec__env_build(char *const *envp, char ***out, char **applied) {
  size_t n = 0;
  while (envp && envp[n]) n++;
  char **env = calloc(n + 3, sizeof *env);
  char *tun = tunables(getenv_in(envp, "GLIBC_TUNABLES"));
  const char *user_ossl = getenv_in(envp, "OPENSSL_ia32cap");
  char ossl[128];
  if (user_ossl)
    snprintf(ossl, sizeof ossl, "%s", user_ossl);
  else
    snprintf(ossl, sizeof ossl, "~0x%llx:~0x%llx", ossl_mask0, ossl_mask1);
  size_t alen = (tun ? strlen(tun) : 0) + strlen(ossl) + 64;
  char *app = malloc(alen);
  if (!env || !tun || !app) goto fail;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!strncmp(envp[i], "GLIBC_TUNABLES=", 15) ||
        !strncmp(envp[i], "OPENSSL_ia32cap=", 16))
      continue;
    if (!(env[k++] = strdup(envp[i]))) goto fail;
  }
  if (!(env[k] = malloc(strlen(tun) + 16))) goto fail;
  sprintf(env[k++], "GLIBC_TUNABLES=%s", tun);
  if (!(env[k] = malloc(strlen(ossl) + 17))) goto fail;
  sprintf(env[k++], "OPENSSL_ia32cap=%s", ossl);
  snprintf(app, alen, "GLIBC_TUNABLES=%s\nOPENSSL_ia32cap=%s%s\n", tun, ossl,
           user_ossl ? " (the user's value, kept)" : "");
  free(tun);
  *out = env;
  *applied = app;
  return 0;
fail:
  rec__env_free(env);
  free(tun);
  free(app);
  return RW_ENOMEM;
}
