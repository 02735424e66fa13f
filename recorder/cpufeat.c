/* SPDX-License-Identifier: MIT */
/* --cpu-features: the CPU features a recording hides from the two
 * libraries that let an environment variable choose their code paths,
 * glibc (GLIBC_TUNABLES glibc.cpu.hwcaps) and OpenSSL (OPENSSL_ia32cap).
 * By default nothing is hidden and the program runs the code it runs
 * natively; this is for a trace that must replay on a rewind build older
 * than one of the features. Without CPUID faulting nothing hides a
 * feature from code that executes cpuid itself, and the recorder says so
 * (rec_cpu_features). */
#include <stdio.h>
#include <string.h>

#include "recorder/rec_int.h"

/* A feature: its name on the command line, glibc's name for it (or
 * NULL), its OPENSSL_ia32cap bit (word 0: CPUID.1 EDX then ECX; word 1:
 * CPUID.7.0 EBX then ECX; 0xff for none), the x86-64 level that first
 * has it (0: none does; every level hides it), and the feature it needs,
 * hidden with it. */
struct feat {
  const char *name, *glibc;
  u8 word, bit, level;
  const char *needs;
};

#define NONE 0xff
static const struct feat feats[] = {
    {"ssse3", "SSSE3", 0, 32 + 9, 2, NULL},
    {"sse4.1", "SSE4_1", 0, 32 + 19, 2, "ssse3"},
    {"sse4.2", "SSE4_2", 0, 32 + 20, 2, "sse4.1"},
    {"popcnt", "POPCNT", 0, 32 + 23, 2, NULL},
    {"avx", "AVX", 0, 32 + 28, 3, "sse4.2"},
    {"avx2", "AVX2", 1, 5, 3, "avx"},
    {"fma", "FMA", 0, 32 + 12, 3, "avx"},
    {"f16c", NULL, 0, 32 + 29, 3, "avx"},
    {"bmi1", "BMI1", 1, 3, 3, NULL},
    {"bmi2", "BMI2", 1, 8, 3, NULL},
    {"lzcnt", "LZCNT", NONE, 0, 3, NULL},
    {"movbe", "MOVBE", 0, 32 + 22, 3, NULL},
    {"avx512f", "AVX512F", 1, 16, 4, "avx2"},
    {"avx512dq", "AVX512DQ", 1, 17, 4, "avx512f"},
    {"avx512cd", "AVX512CD", 1, 28, 4, "avx512f"},
    {"avx512bw", "AVX512BW", 1, 30, 4, "avx512f"},
    {"avx512vl", "AVX512VL", 1, 31, 4, "avx512f"},
    {"avx512ifma", NULL, 1, 21, 0, "avx512f"},
    {"avx512vbmi", NULL, 1, 32 + 1, 0, "avx512f"},
    {"avx512vbmi2", NULL, 1, 32 + 6, 0, "avx512f"},
    {"avx512vnni", NULL, 1, 32 + 11, 0, "avx512f"},
    {"avx512bitalg", NULL, 1, 32 + 12, 0, "avx512f"},
    {"avx512vpopcntdq", NULL, 1, 32 + 14, 0, "avx512f"},
    {"aes", NULL, 0, 32 + 25, 0, NULL},
    {"pclmulqdq", NULL, 0, 32 + 1, 0, NULL},
    {"vaes", NULL, 1, 32 + 9, 0, "avx"},
    {"vpclmulqdq", NULL, 1, 32 + 10, 0, "avx"},
    {"gfni", NULL, 1, 32 + 8, 0, NULL},
    {"sha", NULL, 1, 29, 0, NULL},
    {"adx", NULL, 1, 19, 0, NULL},
};
#define NFEAT (sizeof feats / sizeof feats[0])

static int feat_index(const char *name, size_t len) {
  for (size_t i = 0; i < NFEAT; i++)
    if (strlen(feats[i].name) == len && !strncmp(feats[i].name, name, len))
      return (int)i;
  return -1;
}

/* Hides feature I and, through "needs", every feature that needs it. */
static void hide(u64 *set, int i) {
  if ((*set >> i) & 1) return;
  *set |= 1ull << i;
  for (size_t k = 0; k < NFEAT; k++)
    if (feats[k].needs && !strcmp(feats[k].needs, feats[i].name))
      hide(set, (int)k);
}

/* The features SPEC hides, as bits of feats[], or -1 with a message in
 * ERR. */
static int parse(const char *spec, u64 *set, char *err, size_t errlen) {
  *set = 0;
  for (const char *p = spec; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    int level = -1;
    if (len == 6 && !strncmp(p, "native", 6)) level = 5;
    if (len == 6 && !strncmp(p, "x86-64", 6)) level = 1;
    if (len == 9 && !strncmp(p, "x86-64-v", 8) && p[8] >= '2' && p[8] <= '4')
      level = p[8] - '0';
    if (level >= 0) {
      for (size_t i = 0; i < NFEAT && level < 5; i++)
        if (!feats[i].level || feats[i].level > level) hide(set, (int)i);
    } else if (len > 1 && p[0] == '-') {
      int i = feat_index(p + 1, len - 1);
      if (len == 7 && !strncmp(p + 1, "avx512", 6)) {
        hide(set, feat_index("avx512f", 7));
      } else if (i < 0) {
        snprintf(err, errlen, "unknown feature '%.*s' (see rewind record "
                 "--help for the names)", (int)(len - 1), p + 1);
        return -1;
      } else {
        hide(set, i);
      }
    } else {
      snprintf(err, errlen, "'%.*s' is neither a level (native, x86-64, "
               "x86-64-v2, x86-64-v3, x86-64-v4) nor -FEATURE", (int)len, p);
      return -1;
    }
    p += len + (e != NULL);
  }
  return 0;
}

int rec_cpu_features_check(const char *spec, char *err, size_t errlen) {
  u64 set;
  return parse(spec, &set, err, errlen) < 0 ? RW_EINVAL : 0;
}

const char *rec_cpu_feature_names(void) {
  static char buf[512];
  if (!buf[0])
    for (size_t i = 0; i < NFEAT; i++) {
      size_t n = strlen(buf);
      snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "", feats[i].name);
    }
  return buf;
}

int rec__cpu_mask_build(const char *spec, struct rec__cpu_mask *m) {
  u64 set = 0;
  char err[160];
  memset(m, 0, sizeof m->hwcaps);
  m->ossl[0] = m->ossl[1] = 0;
  m->hidden[0] = 0;
  if (spec && parse(spec, &set, err, sizeof err) < 0) return RW_EINVAL;
  for (size_t i = 0; i < NFEAT; i++) {
    const struct feat *f = &feats[i];
    if (!((set >> i) & 1)) continue;
    size_t n = strlen(m->hidden);
    snprintf(m->hidden + n, sizeof m->hidden - n, "%s%s", n ? " " : "",
             f->name);
    if (f->glibc) {
      n = strlen(m->hwcaps);
      snprintf(m->hwcaps + n, sizeof m->hwcaps - n, "-%s,", f->glibc);
    }
    if (f->word != NONE) m->ossl[f->word] |= 1ull << f->bit;
  }
  size_t n = strlen(m->hwcaps);
  snprintf(m->hwcaps + n, sizeof m->hwcaps - n, "%s", rec__hwcaps_off);
  return 0;
}
