/* SPDX-License-Identifier: MIT */
/* Differential cases of FMA3 and F16C (fma.c): every form of every fused
 * multiply-add and both half-precision conversions, 128 and 256 bits, register and memory (faulting too), with
 * edge values in all three operands, products that cancel the addend
 * exactly or nearly, and random MXCSR rounding, DAZ, FTZ, masks and flags.
 * Like the AVX families, these need a host CPU that has the instructions. */
#include <string.h>

#include "tests/cpu/cases_sse.h"

/* Operand K (0 dest, 1 vvvv, 2 rm) of case C, lane LANE (0 low, 1 high),
 * or NULL when the memory operand is outside the data. */
static u8 *operand(struct diff_case *c, unsigned k, unsigned lane) {
  unsigned x = k == 0 ? c->reg : k == 1 ? c->vreg : c->rm;
  if (k == 2 && c->memop) {
    u8 *m = mem_at(c, 32);
    return m ? m + 16 * lane : NULL;
  }
  return lane ? c->st.ymmh + 16 * x : xmm_at(c, x);
}

/* Fills the three operands with edge values; then, in some elements, sets
 * the addend to minus the product rounded (or the product's neighbour), so
 * that the sum cancels to the rounding error of the product, which only a
 * fused operation keeps. The row's opcode names the order: 9x 132, Ax 213,
 * Bx 231 (a, b multiplied, c added, as operand numbers). */
static void fill(struct diff_case *c, struct diff_rng *r, int dbl) {
  unsigned esz = dbl ? 8 : 4;
  for (unsigned k = 0; k < 3; k++)
    for (unsigned lane = 0; lane < 2; lane++) {
      u8 *p = operand(c, k, lane);
      for (unsigned i = 0; p && i < 16; i += esz) {
        if (dbl) {
          u64 x = f64_edge(r);
          memcpy(p + i, &x, 8);
        } else {
          u32 x = f32_edge(r);
          memcpy(p + i, &x, 4);
        }
      }
    }
  static const char orders[3][3] = {{0, 2, 1}, {1, 0, 2}, {1, 2, 0}};
  unsigned o = (c->enc->op >> 4) - 9;
  if (o > 2) o = 0;
  const char *abc = orders[o];
  for (unsigned lane = 0; lane < 2; lane++) {
    u8 *pa = operand(c, (unsigned)abc[0], lane);
    u8 *pb = operand(c, (unsigned)abc[1], lane);
    u8 *pc = operand(c, (unsigned)abc[2], lane);
    if (!pa || !pb || !pc) continue;
    for (unsigned i = 0; i < 16; i += esz) {
      if (rnd(r, 3)) continue;
      int nudge = (int)rnd(r, 3) - 1, neg = rnd(r, 2);
      if (dbl) {
        double a, b, p;
        memcpy(&a, pa + i, 8);
        memcpy(&b, pb + i, 8);
        p = a * b;
        u64 x;
        memcpy(&x, &p, 8);
        x += (u64)(i64)nudge;
        if (neg) x ^= 1ull << 63;
        memcpy(pc + i, &x, 8);
      } else {
        float a, b, p;
        memcpy(&a, pa + i, 4);
        memcpy(&b, pb + i, 4);
        p = a * b;
        u32 x;
        memcpy(&x, &p, 4);
        x += (u32)nudge;
        if (neg) x ^= 1u << 31;
        memcpy(pc + i, &x, 4);
      }
    }
  }
  set_mxcsr(c, rand_mxcsr(r));
}

static void fix_f32(struct diff_case *c, struct diff_rng *r) { fill(c, r, 0); }
static void fix_f64(struct diff_case *c, struct diff_rng *r) { fill(c, r, 1); }

/* ---- F16C ---- */

/* vcvtph2ps: halves in the source (rm: register or memory). */
static void fix_ph2ps(struct diff_case *c, struct diff_rng *r) {
  for (unsigned lane = 0; lane < 2; lane++) {
    u8 *p = operand(c, 2, lane);
    for (unsigned i = 0; p && i < 16; i += 2) {
      u16 h = f16_edge(r);
      memcpy(p + i, &h, 2);
    }
  }
  set_mxcsr(c, rand_mxcsr(r));
}

/* vcvtps2ph: singles in the source (reg), many around the half range
 * (overflow, denormal and underflow results), and every rounding
 * selector, sometimes with the ignored imm8 bits set. */
static void fix_ps2ph(struct diff_case *c, struct diff_rng *r) {
  for (unsigned lane = 0; lane < 2; lane++) {
    u8 *p = operand(c, 0, lane);
    for (unsigned i = 0; i < 16; i += 4) {
      u32 x = rnd(r, 2) ? f32_edge(r)
                        : (rnd(r, 2) ? 0x80000000u : 0) |
                              ((127 - 26 + rnd(r, 44)) << 23) |
                              ((u32)diff_rand(r) & 0x7fffff);
      memcpy(p + i, &x, 4);
    }
  }
  unsigned imm = rnd(r, 8);
  if (rnd(r, 4) == 0) imm |= rnd(r, 256) & 0xf8;
  c->code[c->len - 1] = (u8)imm;
  set_mxcsr(c, rand_mxcsr(r));
}

#define R DIFF_K_XMM
#define VX DIFF_ENC_VEX
#define M38 DIFF_MAP_0F38
#define NI DIFF_IMM_NONE
#define IB DIFF_IMM_B
#define M3A DIFF_MAP_0F3A
#define NV DIFF_O_NOVVVV
#define VL DIFF_O_VL
#define W1 DIFF_O_W1
#define FLT DIFF_O_FAULT

static const struct diff_enc fma_encs[] = {
    {X86_INS_VFMADDSUB132PS, "vfmaddsub132ps V,V,W", 0x66, M38, 0x96, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMADDSUB132PD, "vfmaddsub132pd V,V,W", 0x66, M38, 0x96, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMADDSUB213PS, "vfmaddsub213ps V,V,W", 0x66, M38, 0xa6, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMADDSUB213PD, "vfmaddsub213pd V,V,W", 0x66, M38, 0xa6, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMADDSUB231PS, "vfmaddsub231ps V,V,W", 0x66, M38, 0xb6, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMADDSUB231PD, "vfmaddsub231pd V,V,W", 0x66, M38, 0xb6, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMSUBADD132PS, "vfmsubadd132ps V,V,W", 0x66, M38, 0x97, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMSUBADD132PD, "vfmsubadd132pd V,V,W", 0x66, M38, 0x97, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMSUBADD213PS, "vfmsubadd213ps V,V,W", 0x66, M38, 0xa7, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMSUBADD213PD, "vfmsubadd213pd V,V,W", 0x66, M38, 0xa7, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMSUBADD231PS, "vfmsubadd231ps V,V,W", 0x66, M38, 0xb7, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMSUBADD231PD, "vfmsubadd231pd V,V,W", 0x66, M38, 0xb7, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMADD132PS, "vfmadd132ps V,V,W", 0x66, M38, 0x98, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMADD132PD, "vfmadd132pd V,V,W", 0x66, M38, 0x98, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMADD132SS, "vfmadd132ss V,V,W", 0x66, M38, 0x99, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFMADD132SD, "vfmadd132sd V,V,W", 0x66, M38, 0x99, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFMADD213PS, "vfmadd213ps V,V,W", 0x66, M38, 0xa8, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMADD213PD, "vfmadd213pd V,V,W", 0x66, M38, 0xa8, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMADD213SS, "vfmadd213ss V,V,W", 0x66, M38, 0xa9, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFMADD213SD, "vfmadd213sd V,V,W", 0x66, M38, 0xa9, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFMADD231PS, "vfmadd231ps V,V,W", 0x66, M38, 0xb8, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMADD231PD, "vfmadd231pd V,V,W", 0x66, M38, 0xb8, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMADD231SS, "vfmadd231ss V,V,W", 0x66, M38, 0xb9, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFMADD231SD, "vfmadd231sd V,V,W", 0x66, M38, 0xb9, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFMSUB132PS, "vfmsub132ps V,V,W", 0x66, M38, 0x9a, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMSUB132PD, "vfmsub132pd V,V,W", 0x66, M38, 0x9a, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMSUB132SS, "vfmsub132ss V,V,W", 0x66, M38, 0x9b, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFMSUB132SD, "vfmsub132sd V,V,W", 0x66, M38, 0x9b, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFMSUB213PS, "vfmsub213ps V,V,W", 0x66, M38, 0xaa, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMSUB213PD, "vfmsub213pd V,V,W", 0x66, M38, 0xaa, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMSUB213SS, "vfmsub213ss V,V,W", 0x66, M38, 0xab, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFMSUB213SD, "vfmsub213sd V,V,W", 0x66, M38, 0xab, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFMSUB231PS, "vfmsub231ps V,V,W", 0x66, M38, 0xba, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFMSUB231PD, "vfmsub231pd V,V,W", 0x66, M38, 0xba, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFMSUB231SS, "vfmsub231ss V,V,W", 0x66, M38, 0xbb, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFMSUB231SD, "vfmsub231sd V,V,W", 0x66, M38, 0xbb, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFNMADD132PS, "vfnmadd132ps V,V,W", 0x66, M38, 0x9c, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFNMADD132PD, "vfnmadd132pd V,V,W", 0x66, M38, 0x9c, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFNMADD132SS, "vfnmadd132ss V,V,W", 0x66, M38, 0x9d, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFNMADD132SD, "vfnmadd132sd V,V,W", 0x66, M38, 0x9d, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFNMADD213PS, "vfnmadd213ps V,V,W", 0x66, M38, 0xac, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFNMADD213PD, "vfnmadd213pd V,V,W", 0x66, M38, 0xac, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFNMADD213SS, "vfnmadd213ss V,V,W", 0x66, M38, 0xad, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFNMADD213SD, "vfnmadd213sd V,V,W", 0x66, M38, 0xad, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFNMADD231PS, "vfnmadd231ps V,V,W", 0x66, M38, 0xbc, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFNMADD231PD, "vfnmadd231pd V,V,W", 0x66, M38, 0xbc, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFNMADD231SS, "vfnmadd231ss V,V,W", 0x66, M38, 0xbd, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFNMADD231SD, "vfnmadd231sd V,V,W", 0x66, M38, 0xbd, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFNMSUB132PS, "vfnmsub132ps V,V,W", 0x66, M38, 0x9e, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFNMSUB132PD, "vfnmsub132pd V,V,W", 0x66, M38, 0x9e, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFNMSUB132SS, "vfnmsub132ss V,V,W", 0x66, M38, 0x9f, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFNMSUB132SD, "vfnmsub132sd V,V,W", 0x66, M38, 0x9f, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFNMSUB213PS, "vfnmsub213ps V,V,W", 0x66, M38, 0xae, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFNMSUB213PD, "vfnmsub213pd V,V,W", 0x66, M38, 0xae, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFNMSUB213SS, "vfnmsub213ss V,V,W", 0x66, M38, 0xaf, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFNMSUB213SD, "vfnmsub213sd V,V,W", 0x66, M38, 0xaf, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VFNMSUB231PS, "vfnmsub231ps V,V,W", 0x66, M38, 0xbe, VX, -1, 0, NI, R, R, VL | FLT, fix_f32},
    {X86_INS_VFNMSUB231PD, "vfnmsub231pd V,V,W", 0x66, M38, 0xbe, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_f64},
    {X86_INS_VFNMSUB231SS, "vfnmsub231ss V,V,W", 0x66, M38, 0xbf, VX, -1, 0, NI, R, R, FLT, fix_f32},
    {X86_INS_VFNMSUB231SD, "vfnmsub231sd V,V,W", 0x66, M38, 0xbf, VX, -1, 0, NI, R, R, W1 | FLT, fix_f64},
    {X86_INS_VCVTPH2PS, "vcvtph2ps V,W", 0x66, M38, 0x13, VX, -1, 0, NI, R, R, VL | NV | FLT, fix_ph2ps},
    {X86_INS_VCVTPS2PH, "vcvtps2ph W,V,I", 0x66, M3A, 0x1d, VX, -1, 0, IB, R, R, VL | NV | FLT, fix_ps2ph},
};

const struct diff_family diff_cases_fma = {"fma", fma_encs,
                                           sizeof fma_encs / sizeof fma_encs[0]};
