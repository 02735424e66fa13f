/* SPDX-License-Identifier: MIT */
/* Test program, xsavec: XSAVE, XSAVEOPT and XSAVEC (the compacted save
 * that glibc's lazy-binding trampoline uses) into an area filled with
 * 0xcc, each in the same asm statement as the instructions that set up
 * the state it saves (so that no library code touches the registers in
 * between): YMM upper halves set, then cleared by vzeroupper, ZMM5 set,
 * everything cleared by vzeroall with MXCSR at and off its default, and
 * the same in a signal handler. Prints each save's header and a checksum
 * of the area, so that a replay writing one byte the CPU left alone
 * differs (on AMD, XSAVEC leaves MXCSR unwritten when the XMM registers
 * and MXCSR are in their initial state). Without XSAVEC or AVX-512F it
 * says so and exits 0. */
#include <cpuid.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static _Alignas(64) unsigned char area[4096];
static unsigned mxcsr_def = 0x1f80, mxcsr_daz = 0x1fc0;

/* SETUP, then one save of KIND ("xsave64"...) with RFBM in eax. */
#define SAVE(setup, kind)                                              \
  __asm__ volatile(setup "\n\t" kind " (%0)\n\tldmxcsr %3"             \
                   :                                                   \
                   : "r"(area), "a"(rfbm), "d"(0u), "m"(mxcsr_def),    \
                     "m"(mxcsr_daz)                                    \
                   : "memory", "xmm3", "xmm5")

static const char *const setups[] = {"ymm", "vzeroupper", "zmm5",
                                     "vzeroall", "vzeroall+daz"};
static const char *const kinds[] = {"xsave", "xsaveopt", "xsavec"};

static void one(const char *where, int s, int k, unsigned rfbm) {
  uint64_t bv, comp, h = 0xcbf29ce484222325ull;
  memset(area, 0xcc, sizeof area);
  memset(area + 512, 0, 64);
#define KINDS(setup)                                  \
  if (k == 0) SAVE(setup, "xsave64");                 \
  else if (k == 1) SAVE(setup, "xsaveopt64");         \
  else SAVE(setup, "xsavec64");
  switch (s) {
    case 0: KINDS("vpcmpeqd %%ymm3, %%ymm3, %%ymm3") break;
    case 1: KINDS("vpcmpeqd %%ymm3, %%ymm3, %%ymm3\n\tvzeroupper") break;
    case 2: KINDS("vpternlogd $0xff, %%zmm5, %%zmm5, %%zmm5") break;
    case 3: KINDS("vzeroall") break;
    default: KINDS("vzeroall\n\tldmxcsr %4") break;
  }
  memcpy(&bv, area + 512, 8);
  memcpy(&comp, area + 520, 8);
  for (size_t i = 0; i < sizeof area; i++)
    h = (h ^ area[i]) * 0x100000001b3ull;
  printf("%-7s %-12s %-8s rfbm %02x: xstate_bv %02llx xcomp_bv %llx, "
         "%016llx\n",
         where, setups[s], kinds[k], rfbm, (unsigned long long)bv,
         (unsigned long long)comp, (unsigned long long)h);
}

/* Every state and kind, with glibc's mask (SSE, AVX, opmask, ZMM) and
 * without SSE. */
static void all(const char *where) {
  for (int s = 0; s < 5; s++)
    for (int k = 0; k < 3; k++) {
      one(where, s, k, 0xee);
      one(where, s, k, 0xe4);
    }
}

static void on_usr1(int sig) {
  (void)sig;
  all("handler");
}

int main(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(0xd, 1, &a, &b, &c, &d) || !(a & 2) ||
      !__get_cpuid_count(7, 0, &a, &b, &c, &d) || !((b >> 16) & 1)) {
    puts("no XSAVEC or AVX-512F");
    return 0;
  }
  all("main");
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  return 0;
}
