/* SPDX-License-Identifier: MIT */
/* Extensions the recording CPU lacks (replayer/cpu/feature.c): an
 * instruction of one raises #UD when the recorded CPUID does not report
 * it, whatever this host has, and runs when it does. And known answers for
 * the two extensions this test machine (a Zen 4) lacks, AVX-VNNI and
 * VP2INTERSECT, so that the emulator's computation of them is checked on
 * any host, not only where diffcpu can compare it with the CPU. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "replayer/cpu/cpu_int.h"
#include "tests/cpu/emu_util.h"
#include "tests/cpu/tests.h"

/* A recording CPU with every extension of features.def except those whose
 * bits are set in *CTX (1 << CPU__FEAT_x). */
static int fake_cpuid(void *ctx, u32 leaf, u32 sub, u32 out[4]) {
  static const struct {
    u32 leaf, sub;
    unsigned reg, bit, feat;
  } bits[] = {
#define FEAT(n, l, s, r, b) {l, s, r, b, CPU__FEAT_##n},
#include "replayer/cpu/features.def"
#undef FEAT
  };
  u32 off = *(const u32 *)ctx;
  memset(out, 0, 16);
  if (leaf == 0) out[0] = 0xd;
  if (leaf == 0x80000000u) out[0] = 0x80000008u;
  for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
    if (bits[i].leaf == leaf && bits[i].sub == sub &&
        !((off >> bits[i].feat) & 1))
      out[bits[i].reg] |= 1u << bits[i].bit;
  return 0;
}

/* Runs the instruction of N bytes at B once on a recording CPU lacking
 * the extensions in OFF; returns the exit's fault (CPU_FAULT_UD...) or 0
 * when it completed. */
static int run_without(const u8 *b, unsigned n, u32 off) {
  u8 code[32];
  struct emu e;
  struct cpu_config cfg = {.cpuid = fake_cpuid, .ctx = &off, .xcr0 = 0xe7};
  struct cpu_exit ex;
  struct rw_regs r;
  cpu_thread *c;
  int fault = -1;
  memset(code, 0x90, sizeof code);
  memcpy(code, b, n);
  if (emu_open(&e, code, sizeof code)) return -1;
  if (cpu_new(e.mem, &cfg, &c) == 0) {
    cpu_get_regs(e.cpu, &r);
    r.gpr[RW_REG_rax] = EMU_DATA;
    if (cpu_set_regs(c, &r) == 0 && cpu_run(c, 1, &ex) == 0) {
      cpu_get_regs(c, &r);
      if (ex.reason == CPU_EXIT_FAULT)
        fault = ex.fault;
      else if (r.rip == EMU_CODE + n)
        fault = 0;
    }
    cpu_free(c);
  }
  emu_close(&e);
  return fault;
}

void test_feature_gating(void) {
  static const struct {
    const char *what;
    u8 b[8];
    unsigned n;
    unsigned feat;
  } t[] = {
      {"vpdpbusd ymm0, ymm1, ymm2 (VEX)", {0xc4, 0xe2, 0x75, 0x50, 0xc2}, 5,
       CPU__FEAT_AVXVNNI},
      {"vpdpbusd zmm0, zmm1, zmm2", {0x62, 0xf2, 0x75, 0x48, 0x50, 0xc2}, 6,
       CPU__FEAT_AVX512VNNI},
      {"vp2intersectd k2, zmm1, zmm2", {0x62, 0xf2, 0x77, 0x48, 0x68, 0xd2},
       6, CPU__FEAT_AVX512VP2INTERSECT},
      {"vdpbf16ps zmm0, zmm1, zmm2", {0x62, 0xf2, 0x76, 0x48, 0x52, 0xc2}, 6,
       CPU__FEAT_AVX512BF16},
      {"vpermb zmm0, zmm1, zmm2", {0x62, 0xf2, 0x75, 0x48, 0x8d, 0xc2}, 6,
       CPU__FEAT_AVX512VBMI},
      {"vpshldd zmm0, zmm1, zmm2, 1",
       {0x62, 0xf3, 0x75, 0x48, 0x71, 0xc2, 0x01}, 7, CPU__FEAT_AVX512VBMI2},
      {"vpmadd52luq zmm0, zmm1, zmm2", {0x62, 0xf2, 0xf5, 0x48, 0xb4, 0xc2},
       6, CPU__FEAT_AVX512IFMA},
      {"vpopcntb zmm0, zmm2", {0x62, 0xf2, 0x7d, 0x48, 0x54, 0xc2}, 6,
       CPU__FEAT_AVX512BITALG},
      {"vpopcntd zmm0, zmm2", {0x62, 0xf2, 0x7d, 0x48, 0x55, 0xc2}, 6,
       CPU__FEAT_AVX512VPOPCNTDQ},
      {"vgf2p8mulb zmm0, zmm1, zmm2", {0x62, 0xf2, 0x75, 0x48, 0xcf, 0xc2},
       6, CPU__FEAT_GFNI},
      {"gf2p8mulb xmm0, xmm2", {0x66, 0x0f, 0x38, 0xcf, 0xc2}, 5,
       CPU__FEAT_GFNI},
      {"vaesenc zmm0, zmm1, zmm2", {0x62, 0xf2, 0x75, 0x48, 0xdc, 0xc2}, 6,
       CPU__FEAT_VAES},
      {"vpclmulqdq zmm0, zmm1, zmm2, 0",
       {0x62, 0xf3, 0x75, 0x48, 0x44, 0xc2, 0x00}, 7, CPU__FEAT_VPCLMULQDQ},
      {"sha256msg1 xmm0, xmm2", {0x0f, 0x38, 0xcc, 0xc2}, 4, CPU__FEAT_SHA},
      {"movdiri [rax], ecx", {0x0f, 0x38, 0xf9, 0x08}, 4, CPU__FEAT_MOVDIRI},
      {"vpaddd zmm0, zmm1, zmm2", {0x62, 0xf1, 0x75, 0x48, 0xfe, 0xc2}, 6,
       CPU__FEAT_AVX512F},
      {"kmovw k1, k2", {0xc5, 0xf8, 0x90, 0xca}, 4, CPU__FEAT_AVX512F},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    int with = run_without(t[i].b, t[i].n, 0);
    int without = run_without(t[i].b, t[i].n, 1u << t[i].feat);
    if (with != 0 || without != CPU_FAULT_UD)
      fprintf(stderr, "%s: %d with %s, %d without\n", t[i].what, with,
              cpu__feature_name(t[i].feat), without);
    CU_ASSERT_EQUAL(with, 0);
    CU_ASSERT_EQUAL(without, CPU_FAULT_UD);
  }
  /* Every EVEX instruction needs AVX-512 itself; AVX-VNNI does not. */
  CU_ASSERT_EQUAL(run_without(t[1].b, t[1].n, 1u << CPU__FEAT_AVX512F),
                  CPU_FAULT_UD);
  CU_ASSERT_EQUAL(run_without(t[0].b, t[0].n, 1u << CPU__FEAT_AVX512F), 0);
  CU_ASSERT_EQUAL(run_without(t[0].b, t[0].n, 1u << CPU__FEAT_AVX512VNNI), 0);
  CU_ASSERT_EQUAL(run_without(t[1].b, t[1].n, 1u << CPU__FEAT_AVXVNNI), 0);
  CU_ASSERT_STRING_EQUAL(cpu__feature_name(CPU__FEAT_AVXVNNI), "AVXVNNI");
}

/* Known answers, computed here from the SDM's definitions. */
void test_feature_vnni_vp2intersect_values(void) {
  static const u8 p[] = {
      0xc4, 0xe2, 0x75, 0x50, 0xc2,       /* vpdpbusd ymm0, ymm1, ymm2 */
      0xc4, 0xe2, 0x75, 0x51, 0xda,       /* vpdpbusds ymm3, ymm1, ymm2 */
      0xc4, 0xe2, 0x75, 0x52, 0xe2,       /* vpdpwssd ymm4, ymm1, ymm2 */
      0x62, 0xf2, 0x77, 0x08, 0x68, 0xd2, /* vp2intersectd k2, xmm1, xmm2 */
      0xf4,
  };
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  u8 v1[32], v2[32], acc[32];
  i32 want0[8], want3[8], want4[8];
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  cpu_get_regs(e.cpu, &r);
  for (unsigned i = 0; i < 32; i++) {
    v1[i] = (u8)(i * 37 + 200);
    v2[i] = (u8)(i * 91 + 13);
    acc[i] = (u8)(i * 11);
  }
  memset(acc + 28, 0x7f, 4); /* saturates in vpdpbusds */
  memcpy(r.fxsave + 160 + 16 * 1, v1, 16);
  memcpy(r.ymmh + 16 * 1, v1 + 16, 16);
  memcpy(r.fxsave + 160 + 16 * 2, v2, 16);
  memcpy(r.ymmh + 16 * 2, v2 + 16, 16);
  for (unsigned reg = 0; reg < 5; reg += reg ? 1 : 3) {
    memcpy(r.fxsave + 160 + 16 * reg, acc, 16);
    memcpy(r.ymmh + 16 * reg, acc + 16, 16);
  }
  for (unsigned d = 0; d < 8; d++) {
    i32 a;
    i64 s = 0, w = 0;
    memcpy(&a, acc + 4 * d, 4);
    for (unsigned k = 0; k < 4; k++)
      s += (i64)v1[4 * d + k] * (i8)v2[4 * d + k];
    for (unsigned k = 0; k < 2; k++) {
      i16 x, y;
      memcpy(&x, v1 + 4 * d + 2 * k, 2);
      memcpy(&y, v2 + 4 * d + 2 * k, 2);
      w += (i32)x * y;
    }
    want0[d] = (i32)(u32)((u64)(i64)a + (u64)s);
    s += a;
    want3[d] = s > 0x7fffffff ? 0x7fffffff : s < -0x7fffffffll - 1
                                                 ? (i32)0x80000000u
                                                 : (i32)s;
    want4[d] = (i32)(u32)((u64)(i64)a + (u64)w);
  }
  /* vp2intersectd on the low four dwords: {5, 9, 5, 2} and {2, 7, 5, 8}. */
  static const u32 i1[4] = {5, 9, 5, 2}, i2[4] = {2, 7, 5, 8};
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 3, &ex) == 0);
  cpu_get_regs(e.cpu, &r);
  memcpy(r.fxsave + 160 + 16 * 1, i1, 16);
  memcpy(r.fxsave + 160 + 16 * 2, i2, 16);
  for (unsigned reg = 0; reg < 5; reg += reg ? 1 : 3) {
    u8 got[32];
    const i32 *want = reg == 0 ? want0 : reg == 3 ? want3 : want4;
    memcpy(got, r.fxsave + 160 + 16 * reg, 16);
    memcpy(got + 16, r.ymmh + 16 * reg, 16);
    CU_ASSERT(memcmp(got, want, 32) == 0);
  }
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 1, &ex) == 0);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.rip, EMU_CODE + sizeof p - 1);
  CU_ASSERT_EQUAL(r.k[2], 0xd); /* i1[0], i1[2] (5) and i1[3] (2) */
  CU_ASSERT_EQUAL(r.k[3], 0x5); /* i2[0] (2) and i2[2] (5) */
  emu_close(&e);
}
