/* SPDX-License-Identifier: MIT */
/* diffcpu: the differential test of the emulator against this CPU (STYLE
 * R18). Generates random cases for every encoding of every case family, runs
 * them natively and in the emulator, and prints the differences and a
 * summary. With no arguments it is the fixed-seed run of `make check`.
 *   diffcpu [--seed S] [--cases N] [--family NAME] [--only TEXT] [--verbose]
 *           [--max-report K] [--portable]
 * --family keeps the encodings of one case family (cases.def, or "evex":
 * the EVEX and opmask encodings made from the emulator's own tables, which
 * run only where this CPU has AVX-512), --only those whose text starts
 * with TEXT. --portable makes the emulator use only its
 * portable routines, not the host's instructions (replayer/cpu/host.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "replayer/cpu/cpu.h"
#include "tests/cpu/diff_int.h"

#define BATCHN 64

int main(int argc, char **argv) {
  u64 seed = 1, ncases = 60000, ran = 0, ndiff = 0, unstable = 0;
  const char *only = NULL, *family = NULL;
  int verbose = 0, max_report = 30, portable = 0;
  const struct diff_enc **encs = NULL;
  size_t nencs = 0, cap = 0;
  size_t lacking[DIFF_NEED_N] = {0};
  unsigned *diffs_per;
  static struct diff_case cs[BATCHN];
  static struct diff_result nat[BATCHN], emu;
  struct diff_rng rng;
  struct timespec t0, t1;
  unsigned nmn = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
      ncases = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--family") && i + 1 < argc)
      family = argv[++i];
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "--max-report") && i + 1 < argc)
      max_report = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--verbose"))
      verbose = 1;
    else if (!strcmp(argv[i], "--portable"))
      portable = 1;
    else {
      fprintf(stderr,
              "usage: diffcpu [--seed S] [--cases N] [--family NAME] "
              "[--only TEXT] [--verbose] [--max-report K] [--portable]\n");
      return 2;
    }
  }
  if (portable) cpu_set_portable(1);
  if (diff_native_start() || diff_emu_start()) {
    fprintf(stderr, "diffcpu: cannot start the native child or emulator\n");
    return 2;
  }
  for (const struct diff_family *const *f = diff_families;; f++) {
    const struct diff_enc *rows;
    size_t nrows;
    const char *name;
    if (*f) {
      rows = (*f)->encs, nrows = (*f)->nencs, name = (*f)->name;
    } else {
      /* Last, the EVEX family, whose rows come from the emulator's
       * tables; the CPU must have AVX-512 to judge them. */
      rows = diff_evex_encs(&nrows), name = "evex";
      if (!rows) {
        fprintf(stderr, "diffcpu: cannot build the EVEX encodings\n");
        return 2;
      }
      if (!diff_avx512 && (!family || !strcmp(family, name))) {
        printf("diffcpu: this CPU has no AVX-512: the %zu EVEX and opmask "
               "encodings are not tested\n", nrows);
        nrows = 0;
      }
    }
    if (family && strcmp(name, family)) nrows = 0;
    for (size_t i = 0; i < nrows; i++) {
      const struct diff_enc *e = &rows[i];
      unsigned need = diff_need_of(e);
      if (only && strncmp(e->text, only, strlen(only))) continue;
      if (!diff_host_has(need)) {
        lacking[need < DIFF_NEED_N ? need : 0]++;
        continue;
      }
      if (nencs == cap) {
        cap = cap ? cap * 2 : 256;
        encs = realloc(encs, cap * sizeof *encs);
        if (!encs) return 2;
      }
      encs[nencs++] = e;
    }
    if (!*f) break;
  }
  for (unsigned k = 1; k < DIFF_NEED_N; k++)
    if (lacking[k])
      printf("diffcpu: this CPU has no %s: %zu encodings are not tested\n",
             diff_need_name(k), lacking[k]);
  if (!nencs) {
    fprintf(stderr, "diffcpu: no encoding matches\n");
    return 2;
  }
  diffs_per = calloc(nencs, sizeof *diffs_per);
  if (!diffs_per) return 2;
  /* Distinct mnemonics, by id. */
  for (size_t i = 0; i < nencs; i++) {
    size_t j;
    for (j = 0; j < i && encs[j]->id != encs[i]->id; j++) continue;
    if (j == i) nmn++;
  }
  rng.s = seed * 0x9e3779b97f4a7c15ull + 1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (ran < ncases) {
    unsigned n = (unsigned)RW_MIN((u64)BATCHN, ncases - ran);
    size_t which[BATCHN];
    for (unsigned i = 0; i < n; i++) {
      which[i] = (size_t)((ran + i) % nencs);
      diff_make_case(encs[which[i]], &rng, &cs[i]);
    }
    if (diff_native_run(cs, nat, n)) {
      fprintf(stderr, "diffcpu: native child failed\n");
      return 2;
    }
    for (unsigned i = 0; i < n; i++) {
      char msg[200];
      int bad;
      diff_emu_run(&cs[i], &emu, msg, sizeof msg);
      bad = diff_compare(&cs[i], &nat[i], &emu, msg, verbose ? 1 : -1);
      if (bad && !verbose) {
        /* The native side again: a CPU result that does not repeat (seen
         * once under heavy load: a SIGILL for a register move; on Intel
         * under a hypervisor, exits that mark SSE in use, which come in
         * bursts) says nothing about the emulator. Up to six more runs:
         * two in a row that agree with the emulator set the first aside;
         * two in a row that agree with each other are the reference. */
        struct diff_result prev, cur;
        int prev_emu = 0, settled = 0;
        for (int k = 0; k < 6 && !settled; k++) {
          if (diff_native_run(&cs[i], &cur, 1)) {
            fprintf(stderr, "diffcpu: native child failed\n");
            return 2;
          }
          int cur_emu = !diff_compare(&cs[i], &cur, &emu, msg, -1);
          if (cur_emu && prev_emu) {
            unstable++;
            printf("diffcpu: case %llu (%s): the first native run did not "
                   "repeat, two more agree with the emulator\n",
                   (unsigned long long)(ran + i), encs[which[i]]->text);
            bad = 0;
            settled = 1;
          } else if (k > 0 && !cur_emu &&
                     !diff_compare(&cs[i], &prev, &cur, "", -1)) {
            settled = 1; /* the CPU repeats a result the emulator lacks */
          }
          prev = cur;
          prev_emu = cur_emu;
        }
        if (bad)
          bad = diff_compare(&cs[i], &nat[i], &emu, msg,
                             ndiff < (u64)max_report ? 0 : -1);
      }
      if (bad) {
        diffs_per[which[i]]++;
        ndiff++;
      }
    }
    ran += n;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  diff_native_stop();
  diff_emu_stop();
  if (ndiff) {
    printf("differences by encoding:\n");
    for (size_t i = 0; i < nencs; i++)
      if (diffs_per[i]) printf("  %-24s %u\n", encs[i]->text, diffs_per[i]);
  }
  printf(
      "diffcpu: seed %llu: %u mnemonics, %zu encodings, %llu cases in "
      "%.1f s, %llu differences, %llu native results that did not repeat "
      "(%s routines)\n",
      (unsigned long long)seed, nmn, nencs, (unsigned long long)ran,
      (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
      (unsigned long long)ndiff, (unsigned long long)unstable,
      cpu_portable() ? "portable" : "host fast-path");
  if (cpu_jit() == 2) {
    struct cpu_jit_stats js;
    cpu_jit_totals(&js);
    printf("diffcpu: translator: %llu blocks, %llu instructions translated\n",
           (unsigned long long)js.blocks, (unsigned long long)js.insns);
  }
  free(diffs_per);
  free(encs);
  return ndiff ? 1 : 0;
}
