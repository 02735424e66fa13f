/* SPDX-License-Identifier: MIT */
/* Fast paths through the host's own vector instructions. Every instruction
 * has a portable routine in its family; where the host has an instruction
 * that computes exactly the same thing and the portable routine is hot in
 * real programs, the family calls the host one instead. The choice is made
 * once per process from the host's cpuid and can be forced to the portable
 * routines (cpu_set_portable, REWIND_CPU_PORTABLE=1), which the tests use
 * to compare both ways. */
#include <cpuid.h>
#include <stdlib.h>
#include <tmmintrin.h>

#include "replayer/cpu/cpu_int.h"

int cpu__host_ssse3;

static int portable_forced;

static void host_detect(void) {
  unsigned a, b, c, d;
  const char *e = getenv("REWIND_CPU_PORTABLE");
  cpu__host_ssse3 = 0;
  if (portable_forced || (e && *e && *e != '0')) return;
  if (__get_cpuid(1, &a, &b, &c, &d)) cpu__host_ssse3 = (c >> 9) & 1;
}

void cpu__host_init(void) {
  static int done;
  if (!done) host_detect();
  done = 1;
}

void cpu_set_portable(int on) {
  portable_forced = on;
  host_detect();
}

int cpu_portable(void) { return !cpu__host_ssse3; }

/* pshufb on N16 16-byte lanes: R[i] = S[i] bit 7 ? 0 : D[lane + S[i] & 15]. */
__attribute__((target("ssse3"))) void cpu__host_pshufb(u8 *r, const u8 *d,
                                                      const u8 *s,
                                                      unsigned n16) {
  for (unsigned i = 0; i < n16; i++) {
    __m128i dv = _mm_loadu_si128((const __m128i *)(const void *)(d + 16 * i));
    __m128i sv = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));
    _mm_storeu_si128((__m128i *)(void *)(r + 16 * i),
                     _mm_shuffle_epi8(dv, sv));
  }
}
