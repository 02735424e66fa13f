/* SPDX-License-Identifier: MIT */
/* Extensions the recording CPU lacks (replayer/cpu/feature.c): an
 * instruction of one raises #UD when the recorded CPUID does not report
 * it, whatever this host has, and runs when it does. And known answers for
 * extensions the AMD test machines lack, AVX-VNNI, VP2INTERSECT and
 * AVX512-FP16, so that the emulator's computation of them is checked on
 * any host, not only where diffcpu can compare it with the CPU. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "replayer/cpu/cpu_int.h"
#include "replayer/cpu/softfp.h"
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
      {"clflush [rax]", {0x0f, 0xae, 0x38}, 3, CPU__FEAT_CLFSH},
      {"clflushopt [rax]", {0x66, 0x0f, 0xae, 0x38}, 4, CPU__FEAT_CLFLUSHOPT},
      {"clwb [rax]", {0x66, 0x0f, 0xae, 0x30}, 4, CPU__FEAT_CLWB},
      {"rdfsbase rax", {0xf3, 0x48, 0x0f, 0xae, 0xc0}, 5, CPU__FEAT_FSGSBASE},
      {"vpaddd zmm0, zmm1, zmm2", {0x62, 0xf1, 0x75, 0x48, 0xfe, 0xc2}, 6,
       CPU__FEAT_AVX512F},
      {"kmovw k1, k2", {0xc5, 0xf8, 0x90, 0xca}, 4, CPU__FEAT_AVX512F},
      {"vaddph zmm0, zmm1, zmm2", {0x62, 0xf5, 0x74, 0x48, 0x58, 0xc2}, 6,
       CPU__FEAT_AVX512FP16},
      {"vcvtsh2si eax, xmm2", {0x62, 0xf5, 0x7e, 0x08, 0x2d, 0xc2}, 6,
       CPU__FEAT_AVX512FP16},
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

/* Known answers of AVX512-FP16, measured on a Xeon that has it: products
 * rounding to a denormal, overflowing and of a NaN, a complex multiply-add
 * (each step rounded), the exact widening, a compare, the approximate
 * reciprocal square root, and vgetmant, with the MXCSR flags they leave. */
void test_feature_fp16_values(void) {
  static const u8 p[] = {
      0x62, 0xf5, 0x74, 0x08, 0x59, 0xc2,       /* vmulph xmm0, xmm1, xmm2 */
      0x62, 0xf6, 0x76, 0x08, 0x56, 0xda,       /* vfmaddcph xmm3, xmm1, xmm2 */
      0x62, 0xf6, 0x7d, 0x28, 0x13, 0xe1,       /* vcvtph2psx ymm4, xmm1 */
      0x62, 0xf3, 0x74, 0x08, 0xc2, 0xca, 0x01, /* vcmpph k1, xmm1, xmm2, 1 */
      0x62, 0xf6, 0x7d, 0x08, 0x4e, 0xe9,       /* vrsqrtph xmm5, xmm1 */
      0x62, 0xf3, 0x7c, 0x08, 0x26, 0xf1, 0x01, /* vgetmantph xmm6, xmm1, 1 */
  };
  static const u16 in1[8] = {0x3c00, 0x0401, 0xc500, 0x7bff,
                             0x0003, 0x3555, 0x7e00, 0x4248};
  static const u16 in2[8] = {0x3800, 0x3bff, 0x4200, 0x4000,
                             0x3c00, 0xb555, 0x3c00, 0x0001};
  static const u16 in3[8] = {0x3c00, 0xbc00, 0x0000, 0x8000,
                             0x7c00, 0x0200, 0x4900, 0xc900};
  static const u16 mul[8] = {0x3800, 0x0400, 0xcb80, 0x7c00,
                             0x0003, 0xaf1c, 0x7e00, 0x0003};
  static const u16 maddc[8] = {0x3e00, 0x9000, 0xfc00, 0x7c00,
                               0x7c00, 0x3555, 0x7e00, 0x7e00};
  static const u32 ps[8] = {0x3f800000, 0x38802000, 0xc0a00000, 0x477fe000,
                            0x34400000, 0x3eaaa000, 0x7fc00000, 0x40490000};
  static const u16 rsqrt[8] = {0x3c00, 0x57ff, 0xfe00, 0x1c00,
                               0x689e, 0x3eee, 0x7e00, 0x3884};
  static const u16 mant[8] = {0x3c00, 0x3c01, 0xbd00, 0x3bff,
                              0x3a00, 0x3d55, 0x7e00, 0x3a48};
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  u32 mx = 0x1f80;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  cpu_get_regs(e.cpu, &r);
  memcpy(r.fxsave + 24, &mx, 4);
  memcpy(r.fxsave + 160 + 16 * 1, in1, 16);
  memcpy(r.fxsave + 160 + 16 * 2, in2, 16);
  memcpy(r.fxsave + 160 + 16 * 3, in3, 16);
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 6, &ex) == 0);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.rip, EMU_CODE + sizeof p);
  CU_ASSERT(memcmp(r.fxsave + 160 + 16 * 0, mul, 16) == 0);
  CU_ASSERT(memcmp(r.fxsave + 160 + 16 * 3, maddc, 16) == 0);
  CU_ASSERT(memcmp(r.fxsave + 160 + 16 * 4, ps, 16) == 0);
  CU_ASSERT(memcmp(r.ymmh + 16 * 4, ps + 4, 16) == 0);
  CU_ASSERT(memcmp(r.fxsave + 160 + 16 * 5, rsqrt, 16) == 0);
  CU_ASSERT(memcmp(r.fxsave + 160 + 16 * 6, mant, 16) == 0);
  CU_ASSERT_EQUAL(r.k[1], 0x16);
  memcpy(&mx, r.fxsave + 24, 4);
  CU_ASSERT_EQUAL(mx, 0x1fbb); /* IE DE OE UE PE */
  emu_close(&e);
}

/* vrcpph and vrsqrtph of every half: FNV-1a hashes of the 65536 results
 * (each little-endian) as a Xeon with AVX512-FP16 computes them. */
void test_feature_fp16_approx(void) {
  for (int rsqrt = 0; rsqrt < 2; rsqrt++) {
    u64 h = 0xcbf29ce484222325ull;
    for (unsigned x = 0; x < 65536; x++) {
      u16 v = cpu__sf_rcp14_half((u16)x, rsqrt);
      h = (h ^ (v & 0xff)) * 0x100000001b3ull;
      h = (h ^ (v >> 8)) * 0x100000001b3ull;
    }
    CU_ASSERT_EQUAL(h, rsqrt ? 0x063183ab4574cd58ull : 0xeddba2cd785ac9e1ull);
  }
}

/* vrcp14 and vrsqrt14 on singles and doubles as Intel computes them: FNV-1a
 * hashes of the results on 2^20 singles and 2^20 doubles spread over every
 * exponent (i times the golden ratio), under MXCSR 0x1f80 and with DAZ and
 * FTZ (0x9fc0), taken from a Xeon's vrcp14ss/sd and vrsqrt14ss/sd; then
 * the special cases one by one. */
static u64 approx14_hash(int rsqrt, u32 mx) {
  u64 h = 0xcbf29ce484222325ull;
  for (u32 i = 0; i < 1u << 20; i++)
    h = (h ^ cpu__sf_approx14(&cpu__sf_f32, (u32)(i * 0x9e3779b1u), rsqrt,
                              mx)) *
        0x100000001b3ull;
  for (u64 i = 0; i < 1u << 20; i++)
    h = (h ^ cpu__sf_approx14(&cpu__sf_f64, i * 0x9e3779b97f4a7c15ull,
                              rsqrt, mx)) *
        0x100000001b3ull;
  return h;
}

void test_feature_approx14(void) {
  static const struct {
    int rsqrt;
    u32 mx, x, want;
  } one[] = {
      {0, 0x1f80, 0x3f800000, 0x3f800000}, /* 1: exact */
      {0, 0x1f80, 0x3f800001, 0x3f7ffe00}, /* low 7 bits ignored */
      {0, 0x1f80, 0xbf800000, 0xbf800000},
      {0, 0x1f80, 0x00000000, 0x7f800000}, /* 1/0 */
      {0, 0x1f80, 0x80000000, 0xff800000},
      {0, 0x1f80, 0xff800000, 0x80000000}, /* 1/-inf */
      {0, 0x1f80, 0x7fa00000, 0x7fe00000}, /* an SNaN, quieted */
      {0, 0x1f80, 0x00400000, 0x7f000000}, /* a denormal, normalized */
      {0, 0x1f80, 0x00200000, 0x7f800000}, /* 2^128: beyond, inf */
      {0, 0x1f80, 0x00200001, 0x7f7ffe00},
      {0, 0x1fc0, 0x00400000, 0x7f800000}, /* DAZ: a zero */
      {0, 0x1f80, 0x7e800001, 0x007fff00}, /* a denormal result */
      {0, 0x9f80, 0x7e800001, 0x00000000}, /* FTZ */
      {0, 0x9f80, 0x7e800000, 0x00800000}, /* the smallest normal stays */
      {0, 0x7f80, 0x7f7fffff, 0x00200000}, /* rounding control: none */
      {1, 0x1f80, 0x40000000, 0x3f350280}, /* odd exponent: the line */
      {1, 0x1f80, 0x40800000, 0x3f000000}, /* a power of four: exact */
      {1, 0x1f80, 0x00000001, 0x64b50280},
      {1, 0x1f80, 0x80000001, 0xffc00000}, /* negative: default NaN */
      {1, 0x1fc0, 0x80000001, 0xff800000}, /* DAZ: -0, so -inf */
      {1, 0x1f80, 0xff800000, 0xffc00000},
      {1, 0x1f80, 0x7f800000, 0x00000000},
      {1, 0x1f80, 0x3f800001, 0x3f7ffd00},
  };
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
    CU_ASSERT_EQUAL(cpu__sf_approx14(&cpu__sf_f32, one[i].x, one[i].rsqrt,
                                     one[i].mx),
                    one[i].want);
  CU_ASSERT_EQUAL(cpu__sf_approx14(&cpu__sf_f64, 0x7fd0000000000001ull, 0,
                                   0x1f80),
                  0x000fffe000000000ull);
  CU_ASSERT_EQUAL(cpu__sf_approx14(&cpu__sf_f64, 0x0004000000000000ull, 0,
                                   0x1f80),
                  0x7ff0000000000000ull);
  CU_ASSERT_EQUAL(cpu__sf_approx14(&cpu__sf_f64, 0x7fe0000000000000ull, 1,
                                   0x1f80),
                  0x1ff6a05000000000ull);
  CU_ASSERT_EQUAL(approx14_hash(0, 0x1f80), 0xc5cbba3f5cf9f34aull);
  CU_ASSERT_EQUAL(approx14_hash(0, 0x9fc0), 0xcb9e16072a2b83caull);
  CU_ASSERT_EQUAL(approx14_hash(1, 0x1f80), 0x741c1f1ff51a2bcaull);
  CU_ASSERT_EQUAL(approx14_hash(1, 0x9fc0), 0xa9437bc0b15efe4aull);
}

/* vrcp14ps zmm0, zmm1 (zmm1 zero, so +inf everywhere) under each vendor's
 * rules: Intel's and AMD Zen 4's and Zen 5's (families 0x19 and 0x1a, the
 * same bits) on any host; a later AMD family only on an AMD host of that
 * family with AVX-512, else the replay stops naming why. */
void test_feature_approx14_vendor(void) {
  static const u8 code[] = {0x62, 0xf2, 0x7d, 0x48, 0x4c, 0xc1, 0xcc};
  static const u32 family[4] = {6, 0x19, 0x1a, 0x1b};
  for (int k = 0; k < 4; k++) {
    struct emu e;
    struct cpu_config cfg = {0};
    struct cpu_exit ex;
    struct rw_regs r;
    u32 lane;
    int amd = k > 0;
    cfg.vendor = amd ? CPU_VENDOR_AMD : CPU_VENDOR_INTEL;
    cfg.family = family[k];
    CU_ASSERT_FATAL(emu_open(&e, code, sizeof code) == 0);
    cpu_free(e.cpu);
    e.cpu = NULL;
    CU_ASSERT_FATAL(cpu_new(e.mem, &cfg, &e.cpu) == 0);
    cpu_get_regs(e.cpu, &r);
    r.rip = EMU_CODE;
    CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
    if (family[k] == 0x1b && cpu__host_amd512 != 0x1b) {
      CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_UNSUPPORTED);
      CU_ASSERT(strstr(ex.msg, "vrcp14ps") != NULL);
      CU_ASSERT(strstr(ex.msg, "AMD's approximation") != NULL);
    } else {
      CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
      CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
      cpu_get_regs(e.cpu, &r);
      memcpy(&lane, r.fxsave + 160 + 12, 4);
      CU_ASSERT_EQUAL(lane, 0x7f800000);
    }
    emu_close(&e);
  }
}

/* vcvtps2ph's flags under an unmasked underflow, measured on a Xeon: a
 * denormal single reports PE with UE and DE, though its value is a power
 * of two, exact with an unbounded exponent; a tiny normal single reports
 * PE only when it needs rounding. Without the Intel bit, PE follows the
 * unbounded result alone. */
void test_feature_ps2ph_underflow(void) {
  static const struct {
    u32 x, mx, ex;
  } c[] = {
      {0x00000080, 0x1780 | CPU_SF_DEN_SRC_INEXACT, 0x32},
      {0x00400000, 0x9780 | CPU_SF_DEN_SRC_INEXACT, 0x32},
      {0x00000080, 0x1780, 0x12},
      {0x33000000, 0x1780 | CPU_SF_DEN_SRC_INEXACT, 0x10},
      {0x20000000, 0x9780 | CPU_SF_DEN_SRC_INEXACT, 0x10},
      {0x33800001, 0x1780 | CPU_SF_DEN_SRC_INEXACT, 0x30},
      {0x387fc000, 0x1780 | CPU_SF_DEN_SRC_INEXACT, 0x10},
      {0x00000080, 0x1fc0 | CPU_SF_DEN_SRC_INEXACT, 0x00}, /* DAZ: a zero */
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    u32 fl, ex;
    (void)cpu__sf_single_to_half(c[i].x, c[i].mx, 0, &fl, &ex);
    if (ex != c[i].ex)
      fprintf(stderr, "\n  %08x under %05x: %#x, not %#x\n", c[i].x, c[i].mx,
              ex, c[i].ex);
    CU_ASSERT_EQUAL(ex, c[i].ex);
  }
}
