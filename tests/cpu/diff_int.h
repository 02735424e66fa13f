/* SPDX-License-Identifier: MIT */
/* Private declarations of the differential harness, shared by its files:
 * case generation (diff_gen.c), running and comparing (diff_run.c) and the
 * programs that drive them. Case files only need diff.h. */
#ifndef RW_TESTS_CPU_DIFF_INT_H
#define RW_TESTS_CPU_DIFF_INT_H

#include <stddef.h>

#include "tests/cpu/diff.h"

#define DIFF_ARITH 0x8d5ull /* CF PF AF ZF SF OF */

/* The child's fs base (glibc's thread pointer), learned at start; fs: cases
 * aim at the data pages through it. */
extern u64 diff_fs_base;
/* The child's ID flag: sigreturn cannot change it, so cases carry it. */
extern u64 diff_id_flag;
/* Nonzero when the host enables the AVX-512 state (XCR0 bits 5-7) and the
 * cases carry it; set by diff_native_start. */
extern int diff_avx512;
/* The host is Intel and answers xgetbv 1: XINUSE is compared. */
extern int diff_intel;
/* The extension row E needs beyond its family (CPU__FEAT_*, 0: none). */
unsigned diff_need_of(const struct diff_enc *e);
/* Whether the host has extension NEED (CPU__FEAT_*); 0: 1. */
int diff_host_has(unsigned need);
/* Its name, for reports. */
const char *diff_need_name(unsigned need);

/* Builds a random case of encoding E into C. Returns 0. */
int diff_make_case(const struct diff_enc *e, struct diff_rng *r,
                   struct diff_case *c);
/* Immediate bytes of E at operand size SZ. */
unsigned isz_of(const struct diff_enc *e, unsigned sz);

/* The native side: a child process that runs batches of cases. */
int diff_native_start(void);
void diff_native_stop(void);
/* Runs N cases natively into RES. Returns 0, or -1 if the child could not
 * be (re)started. */
int diff_native_run(const struct diff_case *cs, struct diff_result *res,
                    unsigned n);

/* The emulator side. */
int diff_emu_start(void);
void diff_emu_stop(void);
void diff_emu_run(const struct diff_case *c, struct diff_result *res, char *msg,
                  size_t cap);

/* Compares; prints a report to stdout: of a difference when VERBOSE >= 0,
 * of every case when VERBOSE > 0. Returns 1 if they differ. */
int diff_compare(const struct diff_case *c, const struct diff_result *nat,
                 const struct diff_result *emu, const char *emu_msg,
                 int verbose);

/* The EVEX and VEX opmask encodings (cases_evex.c): one per row of the
 * emulator's tables, built on the first call; their count in *N. */
const struct diff_enc *diff_evex_encs(size_t *n);
/* The emulator's row of an encoding diff_evex_encs returned, else NULL. */
struct ev_row;
const struct ev_row *diff_evex_row(const struct diff_enc *e);

/* Every encoding of every family, in cases.def order (NULL-terminated
 * array of family pointers). */
extern const struct diff_family *const diff_families[];

#endif /* RW_TESTS_CPU_DIFF_INT_H */
