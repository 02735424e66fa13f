/* SPDX-License-Identifier: MIT */
/* Differential cases of GFNI (replayer/cpu/gfni.c): gf2p8mulb,
 * gf2p8affineqb and gf2p8affineinvqb in their legacy encodings (register
 * and memory, aligned, misaligned and faulting) and their VEX.128 and
 * VEX.256 ones. Bytes lean on zero (whose inverse is zero), one, the top
 * bit and all ones; matrices on all zeros, all ones, the identity, the bit
 * reversal, the AES S-box's affine map and single bits; immediates on 0,
 * 0xff and 0x63 (with the S-box matrix, gf2p8affineinvqb is the S-box).
 * The "(F2/F3)" rows add a prefix that makes the encoding #UD and the
 * "(lock)" rows a LOCK, also #UD. Capstone 4 decodes none of these; the
 * ids are the emulator's own (cpu_int.h). Like the AVX families, these need
 * a host CPU that has the instructions. */
#include <string.h>

#include "replayer/cpu/cpu_int.h"
#include "tests/cpu/cases_sse.h"

/* Bytes to transform or multiply: edges, zeros sprinkled in, or random. */
static void gf_bytes(struct diff_rng *r, u8 *v) {
  static const u8 k[] = {0x00, 0x01, 0x02, 0x03, 0x53, 0x80,
                         0x8d, 0xca, 0xf6, 0xfe, 0xff};
  unsigned how = rnd(r, 4);
  for (unsigned i = 0; i < 16; i++) {
    if (how == 0)
      v[i] = k[rnd(r, sizeof k)];
    else if (how == 1)
      v[i] = rnd(r, 4) ? 0 : (u8)rnd(r, 256);
    else
      v[i] = rnd(r, 8) ? (u8)rnd(r, 256) : 0;
  }
  if (rnd(r, 16) == 0) memset(v, rnd(r, 2) ? 0 : 0xff, 16);
}

/* Two 8x8 bit matrices, one per qword. */
static void gf_matrices(struct diff_rng *r, u8 *v) {
  static const u64 k[] = {
      0x0000000000000000ull, 0xffffffffffffffffull,
      0x0102040810204080ull, /* identity */
      0x8040201008040201ull, /* bit reversal */
      0xf1e3c78f1f3e7cf8ull, /* the AES S-box's affine map */
      0x0000000000000001ull, 0x8000000000000000ull};
  for (unsigned i = 0; i < 16; i += 8) {
    u64 m;
    switch (rnd(r, 4)) {
      case 0:
      case 1:
        m = k[rnd(r, sizeof k / sizeof k[0])];
        break;
      case 2:
        m = diff_rand_edge(r, 8);
        break;
      default:
        m = diff_rand(r);
        break;
    }
    memcpy(v + i, &m, 8);
  }
}

/* The first source of case C in lane LANE (the destination in legacy
 * form, vvvv in VEX form), or the second (register or memory), or NULL
 * when the memory operand is outside the data. */
static u8 *operand(struct diff_case *c, int second, unsigned lane) {
  int vex = c->enc->enc == DIFF_ENC_VEX;
  unsigned x = second ? c->rm : vex ? c->vreg : c->reg;
  if (second && c->memop) {
    u8 *m = mem_at(c, c->vl ? 32 : 16);
    return m ? m + 16 * lane : NULL;
  }
  return lane ? c->st.ymmh + 16 * x : xmm_at(c, x);
}

/* Edge values in both sources, both lanes; MATRIX says the second holds
 * matrices (affine forms) rather than bytes (gf2p8mulb). In VEX form the
 * destination gets bytes too, since the generator often copies it over
 * vvvv afterwards. */
static void fill(struct diff_case *c, struct diff_rng *r, int matrix) {
  if (c->enc->enc == DIFF_ENC_VEX) gf_bytes(r, xmm_at(c, c->reg));
  for (unsigned lane = 0; lane < 2; lane++) {
    u8 *x = operand(c, 0, lane), *m = operand(c, 1, lane);
    gf_bytes(r, x);
    if (m) {
      if (matrix)
        gf_matrices(r, m);
      else
        gf_bytes(r, m);
    }
  }
  set_mxcsr(c, rand_mxcsr(r));
}

static void fix_mul(struct diff_case *c, struct diff_rng *r) { fill(c, r, 0); }

/* Affine forms: matrices, and the imm8 vector at its edges or random. */
static void fix_affine(struct diff_case *c, struct diff_rng *r) {
  static const u8 k[] = {0x00, 0xff, 0x63, 0x01, 0x80};
  fill(c, r, 1);
  c->code[c->len - 1] = rnd(r, 2) ? k[rnd(r, sizeof k)] : (u8)rnd(r, 256);
}

#define LEG(id, text, map, op, imm, opt, fix)                                \
  {                                                                          \
    CPU_INS_##id, text, 0x66, DIFF_MAP_##map, op, DIFF_ENC_MODRM, -1, 0, imm, \
        DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | (opt), fix   \
  }
/* Each legacy encoding, with F2/F3 (two cases in three) and with LOCK on
 * a memory operand (one case in two). */
#define LEGS(id, text, map, op, imm, fix)                          \
  LEG(id, text, map, op, imm, 0, fix),                             \
      LEG(id, text " (F2/F3)", map, op, imm, DIFF_O_REP, fix),     \
      LEG(id, text " (lock)", map, op, imm, DIFF_O_LOCK | DIFF_O_MEM, fix)
/* VEX.128 and VEX.256 (L random). */
#define VEX(id, text, map, op, imm, opt, fix)                           \
  {                                                                     \
    CPU_INS_##id, text, 0x66, DIFF_MAP_##map, op, DIFF_ENC_VEX, -1, 0,  \
        imm, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL | (opt),  \
        fix                                                             \
  }

static const struct diff_enc gfni_encs[] = {
    LEGS(GF2P8MULB, "gf2p8mulb V,W", 0F38, 0xcf, DIFF_IMM_NONE, fix_mul),
    LEGS(GF2P8AFFINEQB, "gf2p8affineqb V,W,I", 0F3A, 0xce, DIFF_IMM_B,
         fix_affine),
    LEGS(GF2P8AFFINEINVQB, "gf2p8affineinvqb V,W,I", 0F3A, 0xcf, DIFF_IMM_B,
         fix_affine),
    VEX(VGF2P8MULB, "vgf2p8mulb V,V,W", 0F38, 0xcf, DIFF_IMM_NONE, 0,
        fix_mul),
    VEX(VGF2P8AFFINEQB, "vgf2p8affineqb V,V,W,I", 0F3A, 0xce, DIFF_IMM_B,
        DIFF_O_W1, fix_affine),
    VEX(VGF2P8AFFINEINVQB, "vgf2p8affineinvqb V,V,W,I", 0F3A, 0xcf,
        DIFF_IMM_B, DIFF_O_W1, fix_affine),
};
#undef VEX
#undef LEGS
#undef LEG

const struct diff_family diff_cases_gfni = {
    "gfni", gfni_encs, sizeof gfni_encs / sizeof gfni_encs[0]};
