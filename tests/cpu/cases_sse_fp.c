/* SPDX-License-Identifier: MIT */
/* Differential cases of the SSE floating-point families (sse_arith.c,
 * sse_fcmp.c, sse_cvt.c): every arithmetic, compare, rounding and conversion
 * form, register and memory (aligned, misaligned, faulting), with edge
 * values in every element (signed zeros, infinities, quiet and signalling
 * NaNs with payloads, denormals, extremes of the finite range, integer
 * boundaries) and random MXCSR rounding, DAZ, FTZ, masks and flags. */
#include <string.h>

#include "tests/cpu/cases_sse.h"


/* Fills the XMM destination, a register source and the memory operand. */
static void fill(struct diff_case *c, struct diff_rng *r, int dbl) {
  u8 v[16];
  u8 *dst[3] = {xmm_at(c, c->reg), c->memop ? mem_at(c, 16) : xmm_at(c, c->rm),
                NULL};
  if (c->enc->regk != DIFF_K_XMM) dst[0] = NULL; /* general register destination */
  if (c->enc->rmk != DIFF_K_XMM) dst[1] = NULL;
  for (int k = 0; k < 2; k++) {
    if (!dst[k]) continue;
    for (int i = 0; i < 16; i += dbl ? 8 : 4) {
      if (dbl) {
        u64 x = f64_edge(r);
        memcpy(v + i, &x, 8);
      } else {
        u32 x = f32_edge(r);
        memcpy(v + i, &x, 4);
      }
    }
    /* Sometimes the same value on both sides (equal compares, x - x). */
    if (k == 1 && dst[0] && rnd(r, 6) == 0) memcpy(v, dst[0], 16);
    memcpy(dst[k], v, 16);
  }
  set_mxcsr(c, rand_mxcsr(r));
}

static void fix_f32(struct diff_case *c, struct diff_rng *r) { fill(c, r, 0); }
static void fix_f64(struct diff_case *c, struct diff_rng *r) { fill(c, r, 1); }

/* cmpXX: the pseudo-op ids need their predicate as imm8, the plain id one
 * above 7. */
static void set_pred(struct diff_case *c, struct diff_rng *r, unsigned base) {
  unsigned p = c->id - base;
  c->code[c->len - 1] = (u8)(p == 0 ? 8 + rnd(r, 248) : p - 1);
}
static void fix_cmp32(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 0);
  set_pred(c, r, c->enc->pfx ? X86_INS_CMPSS : X86_INS_CMPPS);
}
static void fix_cmp64(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 1);
  set_pred(c, r, c->enc->pfx == 0xf2 ? X86_INS_CMPSD : X86_INS_CMPPD);
}

/* Conversions to integers: values around the integer limits. */
static void fix_cvt32(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 0);
  static const u32 k[] = {0x4f000000, 0x4effffff, 0xcf000000, 0xcf000001,
                          0x5f000000, 0x5effffff, 0xdf000000, 0xdf000001,
                          0x3f000000, 0x3fc00000, 0x40200000, 0xbf000000};
  u8 *p = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  for (int i = 0; p && i < 4; i++)
    if (rnd(r, 2)) memcpy(p + 4 * i, &k[rnd(r, 12)], 4);
}

static void fix_cvt64(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 1);
  static const u64 k[] = {0x41dfffffffc00000ull, 0x41dfffffffe00000ull,
                          0x41e0000000000000ull, 0xc1e0000000000000ull,
                          0xc1e0000000100000ull, 0xc1e00000001fffffull,
                          0x43e0000000000000ull, 0x43dfffffffffffffull,
                          0xc3e0000000000000ull, 0xc3e0000000000001ull,
                          0x3fe0000000000000ull, 0x4004000000000000ull};
  u8 *p = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  for (int i = 0; p && i < 2; i++)
    if (rnd(r, 2)) memcpy(p + 8 * i, &k[rnd(r, 12)], 8);
}

/* Integer sources (cvtdq2ps/pd): random integers, many needing rounding. */
static void fix_int32(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 0);
  u8 *p = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  for (int i = 0; p && i < 4; i++) {
    u32 v = (u32)diff_rand_edge(r, 4);
    memcpy(p + 4 * i, &v, 4);
  }
}

/* cvtsi2ss/sd: a general register or memory integer. */
static void fix_si2f(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, c->enc->pfx == 0xf2);
  u64 v = diff_rand_edge(r, c->osz);
  if (rnd(r, 3) == 0) v = (diff_rand(r) >> rnd(r, 64)) | 1;
  u8 *p = mem_at(c, 8);
  if (p)
    memcpy(p, &v, 8);
  else if (!c->memop)
    c->st.gpr[c->rm] = v;
}

/* dpps/dppd: the emulator declines unmasked exceptions of the dot products
 * (see sse_fcmp.c), so their cases keep every exception masked. */
static void fix_dp32(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 0);
  c->st.fx[24] |= 0x80;
  c->st.fx[25] |= 0x1f;
}
static void fix_dp64(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 1);
  c->st.fx[24] |= 0x80;
  c->st.fx[25] |= 0x1f;
}

static const struct diff_enc sse_fp_encs[] = {
    {X86_INS_ADDPS, "addps V,W", 0, DIFF_MAP_0F, 0x58, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_ADDPD, "addpd V,W", 0x66, DIFF_MAP_0F, 0x58, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_ADDSS, "addss V,W", 0xf3, DIFF_MAP_0F, 0x58, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_ADDSD, "addsd V,W", 0xf2, DIFF_MAP_0F, 0x58, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_MULPS, "mulps V,W", 0, DIFF_MAP_0F, 0x59, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_MULPD, "mulpd V,W", 0x66, DIFF_MAP_0F, 0x59, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_MULSS, "mulss V,W", 0xf3, DIFF_MAP_0F, 0x59, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_MULSD, "mulsd V,W", 0xf2, DIFF_MAP_0F, 0x59, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_SUBPS, "subps V,W", 0, DIFF_MAP_0F, 0x5c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_SUBPD, "subpd V,W", 0x66, DIFF_MAP_0F, 0x5c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_SUBSS, "subss V,W", 0xf3, DIFF_MAP_0F, 0x5c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_SUBSD, "subsd V,W", 0xf2, DIFF_MAP_0F, 0x5c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_MINPS, "minps V,W", 0, DIFF_MAP_0F, 0x5d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_MINPD, "minpd V,W", 0x66, DIFF_MAP_0F, 0x5d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_MINSS, "minss V,W", 0xf3, DIFF_MAP_0F, 0x5d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_MINSD, "minsd V,W", 0xf2, DIFF_MAP_0F, 0x5d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_DIVPS, "divps V,W", 0, DIFF_MAP_0F, 0x5e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_DIVPD, "divpd V,W", 0x66, DIFF_MAP_0F, 0x5e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_DIVSS, "divss V,W", 0xf3, DIFF_MAP_0F, 0x5e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_DIVSD, "divsd V,W", 0xf2, DIFF_MAP_0F, 0x5e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_MAXPS, "maxps V,W", 0, DIFF_MAP_0F, 0x5f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_MAXPD, "maxpd V,W", 0x66, DIFF_MAP_0F, 0x5f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_MAXSS, "maxss V,W", 0xf3, DIFF_MAP_0F, 0x5f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_MAXSD, "maxsd V,W", 0xf2, DIFF_MAP_0F, 0x5f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_SQRTPS, "sqrtps V,W", 0, DIFF_MAP_0F, 0x51, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_SQRTPD, "sqrtpd V,W", 0x66, DIFF_MAP_0F, 0x51, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_SQRTSS, "sqrtss V,W", 0xf3, DIFF_MAP_0F, 0x51, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_SQRTSD, "sqrtsd V,W", 0xf2, DIFF_MAP_0F, 0x51, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_RCPPS, "rcpps V,W", 0, DIFF_MAP_0F, 0x53, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_RCPSS, "rcpss V,W", 0xf3, DIFF_MAP_0F, 0x53, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_RSQRTPS, "rsqrtps V,W", 0, DIFF_MAP_0F, 0x52, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_RSQRTSS, "rsqrtss V,W", 0xf3, DIFF_MAP_0F, 0x52, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_ANDPS, "andps V,W", 0, DIFF_MAP_0F, 0x54, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_ANDPD, "andpd V,W", 0x66, DIFF_MAP_0F, 0x54, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_ANDNPS, "andnps V,W", 0, DIFF_MAP_0F, 0x55, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_ANDNPD, "andnpd V,W", 0x66, DIFF_MAP_0F, 0x55, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_ORPS, "orps V,W", 0, DIFF_MAP_0F, 0x56, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_ORPD, "orpd V,W", 0x66, DIFF_MAP_0F, 0x56, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_XORPS, "xorps V,W", 0, DIFF_MAP_0F, 0x57, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_XORPD, "xorpd V,W", 0x66, DIFF_MAP_0F, 0x57, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_HADDPS, "haddps V,W", 0xf2, DIFF_MAP_0F, 0x7c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_HADDPD, "haddpd V,W", 0x66, DIFF_MAP_0F, 0x7c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_HSUBPS, "hsubps V,W", 0xf2, DIFF_MAP_0F, 0x7d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_HSUBPD, "hsubpd V,W", 0x66, DIFF_MAP_0F, 0x7d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_ADDSUBPS, "addsubps V,W", 0xf2, DIFF_MAP_0F, 0xd0, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_ADDSUBPD, "addsubpd V,W", 0x66, DIFF_MAP_0F, 0xd0, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_CMPEQPS, "cmpeqps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPLTPS, "cmpltps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPLEPS, "cmpleps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPUNORDPS, "cmpunordps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPNEQPS, "cmpneqps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPNLTPS, "cmpnltps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPNLEPS, "cmpnleps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPORDPS, "cmpordps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPPS, "cmpps V,W,imm>7", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPEQPD, "cmpeqpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPLTPD, "cmpltpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPLEPD, "cmplepd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPUNORDPD, "cmpunordpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPNEQPD, "cmpneqpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPNLTPD, "cmpnltpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPNLEPD, "cmpnlepd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPORDPD, "cmpordpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPPD, "cmppd V,W,imm>7", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPEQSS, "cmpeqss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPLTSS, "cmpltss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPLESS, "cmpless V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPUNORDSS, "cmpunordss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPNEQSS, "cmpneqss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPNLTSS, "cmpnltss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPNLESS, "cmpnless V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPORDSS, "cmpordss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPSS, "cmpss V,W,imm>7", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_CMPEQSD, "cmpeqsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPLTSD, "cmpltsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPLESD, "cmplesd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPUNORDSD, "cmpunordsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPNEQSD, "cmpneqsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPNLTSD, "cmpnltsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPNLESD, "cmpnlesd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPORDSD, "cmpordsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_CMPSD, "cmpsd V,W,imm>7", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_COMISS, "comiss V,W", 0, DIFF_MAP_0F, 0x2f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_COMISD, "comisd V,W", 0x66, DIFF_MAP_0F, 0x2f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_UCOMISS, "ucomiss V,W", 0, DIFF_MAP_0F, 0x2e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_UCOMISD, "ucomisd V,W", 0x66, DIFF_MAP_0F, 0x2e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_ROUNDPS, "roundps V,W,I", 0x66, DIFF_MAP_0F3A, 0x08, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f32},
    {X86_INS_ROUNDPD, "roundpd V,W,I", 0x66, DIFF_MAP_0F3A, 0x09, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_ROUNDSS, "roundss V,W,I", 0x66, DIFF_MAP_0F3A, 0x0a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_ROUNDSD, "roundsd V,W,I", 0x66, DIFF_MAP_0F3A, 0x0b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_DPPS, "dpps V,W,I", 0x66, DIFF_MAP_0F3A, 0x40, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_dp32},
    {X86_INS_DPPD, "dppd V,W,I", 0x66, DIFF_MAP_0F3A, 0x41, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_dp64},
    {X86_INS_CVTPS2PD, "cvtps2pd V,W", 0, DIFF_MAP_0F, 0x5a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_CVTPD2PS, "cvtpd2ps V,W", 0x66, DIFF_MAP_0F, 0x5a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_f64},
    {X86_INS_CVTSS2SD, "cvtss2sd V,W", 0xf3, DIFF_MAP_0F, 0x5a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_CVTSD2SS, "cvtsd2ss V,W", 0xf2, DIFF_MAP_0F, 0x5a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_CVTDQ2PS, "cvtdq2ps V,W", 0, DIFF_MAP_0F, 0x5b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_int32},
    {X86_INS_CVTPS2DQ, "cvtps2dq V,W", 0x66, DIFF_MAP_0F, 0x5b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cvt32},
    {X86_INS_CVTTPS2DQ, "cvttps2dq V,W", 0xf3, DIFF_MAP_0F, 0x5b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cvt32},
    {X86_INS_CVTDQ2PD, "cvtdq2pd V,W", 0xf3, DIFF_MAP_0F, 0xe6, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_int32},
    {X86_INS_CVTPD2DQ, "cvtpd2dq V,W", 0xf2, DIFF_MAP_0F, 0xe6, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cvt64},
    {X86_INS_CVTTPD2DQ, "cvttpd2dq V,W", 0x66, DIFF_MAP_0F, 0xe6, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_cvt64},
    {X86_INS_CVTSI2SS, "cvtsi2ss V,Ey", 0xf3, DIFF_MAP_0F, 0x2a, DIFF_ENC_MODRM, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, fix_si2f},
    {X86_INS_CVTSI2SD, "cvtsi2sd V,Ey", 0xf2, DIFF_MAP_0F, 0x2a, DIFF_ENC_MODRM, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, fix_si2f},
    {X86_INS_CVTSS2SI, "cvtss2si Gy,W", 0xf3, DIFF_MAP_0F, 0x2d, DIFF_ENC_MODRM, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT, fix_cvt32},
    {X86_INS_CVTTSS2SI, "cvttss2si Gy,W", 0xf3, DIFF_MAP_0F, 0x2c, DIFF_ENC_MODRM, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT, fix_cvt32},
    {X86_INS_CVTSD2SI, "cvtsd2si Gy,W", 0xf2, DIFF_MAP_0F, 0x2d, DIFF_ENC_MODRM, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT, fix_cvt64},
    {X86_INS_CVTTSD2SI, "cvttsd2si Gy,W", 0xf2, DIFF_MAP_0F, 0x2c, DIFF_ENC_MODRM, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT, fix_cvt64},
};

const struct diff_family diff_cases_sse_fp = {
    "sse_fp", sse_fp_encs, sizeof sse_fp_encs / sizeof sse_fp_encs[0]};

/* VEX compares by predicate id: imm8 is the predicate of the row's id
 * (the 32 ids of each type follow one another). */
static void fix_vcmp32(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 0);
  unsigned base = c->enc->pfx ? X86_INS_VCMPEQSS : X86_INS_VCMPEQPS;
  c->code[c->len - 1] = (u8)(c->id - base);
}
static void fix_vcmp64(struct diff_case *c, struct diff_rng *r) {
  fill(c, r, 1);
  unsigned base = c->enc->pfx == 0xf2 ? X86_INS_VCMPEQSD : X86_INS_VCMPEQPD;
  c->code[c->len - 1] = (u8)(c->id - base);
}

/* The VEX forms of the rows above (AVX, AVX2): the same opcodes with
 * a VEX prefix, 256 bits where the instruction has them, vvvv as the
 * first source where it is one. */
static const struct diff_enc sse_fp_vex_encs[] = {
    {X86_INS_VCMPEQ_UQPS, "vcmpeq_uqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNGEPS, "vcmpngeps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNGTPS, "vcmpngtps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPFALSEPS, "vcmpfalseps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNEQ_OQPS, "vcmpneq_oqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPGEPS, "vcmpgeps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPGTPS, "vcmpgtps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPTRUEPS, "vcmptrueps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPEQ_OSPS, "vcmpeq_osps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPLT_OQPS, "vcmplt_oqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPLE_OQPS, "vcmple_oqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPUNORD_SPS, "vcmpunord_sps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNEQ_USPS, "vcmpneq_usps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNLT_UQPS, "vcmpnlt_uqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNLE_UQPS, "vcmpnle_uqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPORD_SPS, "vcmpord_sps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPEQ_USPS, "vcmpeq_usps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNGE_UQPS, "vcmpnge_uqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNGT_UQPS, "vcmpngt_uqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPFALSE_OSPS, "vcmpfalse_osps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPNEQ_OSPS, "vcmpneq_osps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPGE_OQPS, "vcmpge_oqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPGT_OQPS, "vcmpgt_oqps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPTRUE_USPS, "vcmptrue_usps V,V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp32},
    {X86_INS_VCMPEQ_UQPD, "vcmpeq_uqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNGEPD, "vcmpngepd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNGTPD, "vcmpngtpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPFALSEPD, "vcmpfalsepd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNEQ_OQPD, "vcmpneq_oqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPGEPD, "vcmpgepd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPGTPD, "vcmpgtpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPTRUEPD, "vcmptruepd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPEQ_OSPD, "vcmpeq_ospd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPLT_OQPD, "vcmplt_oqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPLE_OQPD, "vcmple_oqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPUNORD_SPD, "vcmpunord_spd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNEQ_USPD, "vcmpneq_uspd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNLT_UQPD, "vcmpnlt_uqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNLE_UQPD, "vcmpnle_uqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPORD_SPD, "vcmpord_spd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPEQ_USPD, "vcmpeq_uspd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNGE_UQPD, "vcmpnge_uqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNGT_UQPD, "vcmpngt_uqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPFALSE_OSPD, "vcmpfalse_ospd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPNEQ_OSPD, "vcmpneq_ospd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPGE_OQPD, "vcmpge_oqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPGT_OQPD, "vcmpgt_oqpd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPTRUE_USPD, "vcmptrue_uspd V,V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_VL, fix_vcmp64},
    {X86_INS_VCMPEQ_UQSS, "vcmpeq_uqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNGESS, "vcmpngess V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNGTSS, "vcmpngtss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPFALSESS, "vcmpfalsess V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNEQ_OQSS, "vcmpneq_oqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPGESS, "vcmpgess V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPGTSS, "vcmpgtss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPTRUESS, "vcmptruess V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPEQ_OSSS, "vcmpeq_osss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPLT_OQSS, "vcmplt_oqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPLE_OQSS, "vcmple_oqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPUNORD_SSS, "vcmpunord_sss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNEQ_USSS, "vcmpneq_usss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNLT_UQSS, "vcmpnlt_uqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNLE_UQSS, "vcmpnle_uqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPORD_SSS, "vcmpord_sss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPEQ_USSS, "vcmpeq_usss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNGE_UQSS, "vcmpnge_uqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNGT_UQSS, "vcmpngt_uqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPFALSE_OSSS, "vcmpfalse_osss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPNEQ_OSSS, "vcmpneq_osss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPGE_OQSS, "vcmpge_oqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPGT_OQSS, "vcmpgt_oqss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPTRUE_USSS, "vcmptrue_usss V,V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp32},
    {X86_INS_VCMPEQ_UQSD, "vcmpeq_uqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNGESD, "vcmpngesd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNGTSD, "vcmpngtsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPFALSESD, "vcmpfalsesd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNEQ_OQSD, "vcmpneq_oqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPGESD, "vcmpgesd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPGTSD, "vcmpgtsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPTRUESD, "vcmptruesd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPEQ_OSSD, "vcmpeq_ossd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPLT_OQSD, "vcmplt_oqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPLE_OQSD, "vcmple_oqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPUNORD_SSD, "vcmpunord_ssd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNEQ_USSD, "vcmpneq_ussd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNLT_UQSD, "vcmpnlt_uqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNLE_UQSD, "vcmpnle_uqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPORD_SSD, "vcmpord_ssd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPEQ_USSD, "vcmpeq_ussd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNGE_UQSD, "vcmpnge_uqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNGT_UQSD, "vcmpngt_uqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPFALSE_OSSD, "vcmpfalse_ossd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPNEQ_OSSD, "vcmpneq_ossd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPGE_OQSD, "vcmpge_oqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPGT_OQSD, "vcmpgt_oqsd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCMPTRUE_USSD, "vcmptrue_ussd V,V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_vcmp64},
    {X86_INS_VCVTPD2PSX, "vcvtpd2ps V,Mx", 0x66, DIFF_MAP_0F, 0x5a, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_NOVVVV | DIFF_O_MEM | DIFF_O_FAULT, fix_cvt64},
    {X86_INS_VCVTPD2DQX, "vcvtpd2dq V,Mx", 0xf2, DIFF_MAP_0F, 0xe6, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_NOVVVV | DIFF_O_MEM | DIFF_O_FAULT, fix_cvt64},
    {X86_INS_VCVTTPD2DQX, "vcvttpd2dq V,Mx", 0x66, DIFF_MAP_0F, 0xe6, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_NOVVVV | DIFF_O_MEM | DIFF_O_FAULT, fix_cvt64},
    {X86_INS_VADDPS, "vaddps V,W", 0, DIFF_MAP_0F, 0x58, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VADDPD, "vaddpd V,W", 0x66, DIFF_MAP_0F, 0x58, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VADDSS, "vaddss V,W", 0xf3, DIFF_MAP_0F, 0x58, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VADDSD, "vaddsd V,W", 0xf2, DIFF_MAP_0F, 0x58, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VMULPS, "vmulps V,W", 0, DIFF_MAP_0F, 0x59, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VMULPD, "vmulpd V,W", 0x66, DIFF_MAP_0F, 0x59, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VMULSS, "vmulss V,W", 0xf3, DIFF_MAP_0F, 0x59, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VMULSD, "vmulsd V,W", 0xf2, DIFF_MAP_0F, 0x59, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VSUBPS, "vsubps V,W", 0, DIFF_MAP_0F, 0x5c, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VSUBPD, "vsubpd V,W", 0x66, DIFF_MAP_0F, 0x5c, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VSUBSS, "vsubss V,W", 0xf3, DIFF_MAP_0F, 0x5c, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VSUBSD, "vsubsd V,W", 0xf2, DIFF_MAP_0F, 0x5c, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VMINPS, "vminps V,W", 0, DIFF_MAP_0F, 0x5d, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VMINPD, "vminpd V,W", 0x66, DIFF_MAP_0F, 0x5d, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VMINSS, "vminss V,W", 0xf3, DIFF_MAP_0F, 0x5d, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VMINSD, "vminsd V,W", 0xf2, DIFF_MAP_0F, 0x5d, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VDIVPS, "vdivps V,W", 0, DIFF_MAP_0F, 0x5e, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VDIVPD, "vdivpd V,W", 0x66, DIFF_MAP_0F, 0x5e, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VDIVSS, "vdivss V,W", 0xf3, DIFF_MAP_0F, 0x5e, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VDIVSD, "vdivsd V,W", 0xf2, DIFF_MAP_0F, 0x5e, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VMAXPS, "vmaxps V,W", 0, DIFF_MAP_0F, 0x5f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VMAXPD, "vmaxpd V,W", 0x66, DIFF_MAP_0F, 0x5f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VMAXSS, "vmaxss V,W", 0xf3, DIFF_MAP_0F, 0x5f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VMAXSD, "vmaxsd V,W", 0xf2, DIFF_MAP_0F, 0x5f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VSQRTPS, "vsqrtps V,W", 0, DIFF_MAP_0F, 0x51, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f32},
    {X86_INS_VSQRTPD, "vsqrtpd V,W", 0x66, DIFF_MAP_0F, 0x51, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f64},
    {X86_INS_VSQRTSS, "vsqrtss V,W", 0xf3, DIFF_MAP_0F, 0x51, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VSQRTSD, "vsqrtsd V,W", 0xf2, DIFF_MAP_0F, 0x51, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VRCPPS, "vrcpps V,W", 0, DIFF_MAP_0F, 0x53, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f32},
    {X86_INS_VRCPSS, "vrcpss V,W", 0xf3, DIFF_MAP_0F, 0x53, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VRSQRTPS, "vrsqrtps V,W", 0, DIFF_MAP_0F, 0x52, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f32},
    {X86_INS_VRSQRTSS, "vrsqrtss V,W", 0xf3, DIFF_MAP_0F, 0x52, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VANDPS, "vandps V,W", 0, DIFF_MAP_0F, 0x54, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VANDPD, "vandpd V,W", 0x66, DIFF_MAP_0F, 0x54, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VANDNPS, "vandnps V,W", 0, DIFF_MAP_0F, 0x55, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VANDNPD, "vandnpd V,W", 0x66, DIFF_MAP_0F, 0x55, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VORPS, "vorps V,W", 0, DIFF_MAP_0F, 0x56, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VORPD, "vorpd V,W", 0x66, DIFF_MAP_0F, 0x56, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VXORPS, "vxorps V,W", 0, DIFF_MAP_0F, 0x57, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VXORPD, "vxorpd V,W", 0x66, DIFF_MAP_0F, 0x57, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VHADDPS, "vhaddps V,W", 0xf2, DIFF_MAP_0F, 0x7c, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VHADDPD, "vhaddpd V,W", 0x66, DIFF_MAP_0F, 0x7c, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VHSUBPS, "vhsubps V,W", 0xf2, DIFF_MAP_0F, 0x7d, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VHSUBPD, "vhsubpd V,W", 0x66, DIFF_MAP_0F, 0x7d, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VADDSUBPS, "vaddsubps V,W", 0xf2, DIFF_MAP_0F, 0xd0, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f32},
    {X86_INS_VADDSUBPD, "vaddsubpd V,W", 0x66, DIFF_MAP_0F, 0xd0, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_f64},
    {X86_INS_VCMPEQPS, "vcmpeqps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPLTPS, "vcmpltps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPLEPS, "vcmpleps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPUNORDPS, "vcmpunordps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPNEQPS, "vcmpneqps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPNLTPS, "vcmpnltps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPNLEPS, "vcmpnleps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPORDPS, "vcmpordps V,W", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPPS, "vcmpps V,W,imm>7", 0, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp32},
    {X86_INS_VCMPEQPD, "vcmpeqpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPLTPD, "vcmpltpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPLEPD, "vcmplepd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPUNORDPD, "vcmpunordpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPNEQPD, "vcmpneqpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPNLTPD, "vcmpnltpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPNLEPD, "vcmpnlepd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPORDPD, "vcmpordpd V,W", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPPD, "vcmppd V,W,imm>7", 0x66, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_cmp64},
    {X86_INS_VCMPEQSS, "vcmpeqss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPLTSS, "vcmpltss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPLESS, "vcmpless V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPUNORDSS, "vcmpunordss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPNEQSS, "vcmpneqss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPNLTSS, "vcmpnltss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPNLESS, "vcmpnless V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPORDSS, "vcmpordss V,W", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPSS, "vcmpss V,W,imm>7", 0xf3, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp32},
    {X86_INS_VCMPEQSD, "vcmpeqsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPLTSD, "vcmpltsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPLESD, "vcmplesd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPUNORDSD, "vcmpunordsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPNEQSD, "vcmpneqsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPNLTSD, "vcmpnltsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPNLESD, "vcmpnlesd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPORDSD, "vcmpordsd V,W", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCMPSD, "vcmpsd V,W,imm>7", 0xf2, DIFF_MAP_0F, 0xc2, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_cmp64},
    {X86_INS_VCOMISS, "vcomiss V,W", 0, DIFF_MAP_0F, 0x2f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_f32},
    {X86_INS_VCOMISD, "vcomisd V,W", 0x66, DIFF_MAP_0F, 0x2f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_f64},
    {X86_INS_VUCOMISS, "vucomiss V,W", 0, DIFF_MAP_0F, 0x2e, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_f32},
    {X86_INS_VUCOMISD, "vucomisd V,W", 0x66, DIFF_MAP_0F, 0x2e, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_f64},
    {X86_INS_VROUNDPS, "vroundps V,W,I", 0x66, DIFF_MAP_0F3A, 0x08, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f32},
    {X86_INS_VROUNDPD, "vroundpd V,W,I", 0x66, DIFF_MAP_0F3A, 0x09, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f64},
    {X86_INS_VROUNDSS, "vroundss V,W,I", 0x66, DIFF_MAP_0F3A, 0x0a, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VROUNDSD, "vroundsd V,W,I", 0x66, DIFF_MAP_0F3A, 0x0b, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VDPPS, "vdpps V,W,I", 0x66, DIFF_MAP_0F3A, 0x40, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_VL, fix_dp32},
    {X86_INS_VDPPD, "vdppd V,W,I", 0x66, DIFF_MAP_0F3A, 0x41, DIFF_ENC_VEX, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_dp64},
    {X86_INS_VCVTPS2PD, "vcvtps2pd V,W", 0, DIFF_MAP_0F, 0x5a, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f32},
    {X86_INS_VCVTPD2PS, "vcvtpd2ps V,W", 0x66, DIFF_MAP_0F, 0x5a, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_f64},
    {X86_INS_VCVTSS2SD, "vcvtss2sd V,W", 0xf3, DIFF_MAP_0F, 0x5a, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f32},
    {X86_INS_VCVTSD2SS, "vcvtsd2ss V,W", 0xf2, DIFF_MAP_0F, 0x5a, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_f64},
    {X86_INS_VCVTDQ2PS, "vcvtdq2ps V,W", 0, DIFF_MAP_0F, 0x5b, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_int32},
    {X86_INS_VCVTPS2DQ, "vcvtps2dq V,W", 0x66, DIFF_MAP_0F, 0x5b, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_cvt32},
    {X86_INS_VCVTTPS2DQ, "vcvttps2dq V,W", 0xf3, DIFF_MAP_0F, 0x5b, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_cvt32},
    {X86_INS_VCVTDQ2PD, "vcvtdq2pd V,W", 0xf3, DIFF_MAP_0F, 0xe6, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_int32},
    {X86_INS_VCVTPD2DQ, "vcvtpd2dq V,W", 0xf2, DIFF_MAP_0F, 0xe6, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_cvt64},
    {X86_INS_VCVTTPD2DQ, "vcvttpd2dq V,W", 0x66, DIFF_MAP_0F, 0xe6, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, fix_cvt64},
    {X86_INS_VCVTSI2SS, "vcvtsi2ss V,Ey", 0xf3, DIFF_MAP_0F, 0x2a, DIFF_ENC_VEX, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, fix_si2f},
    {X86_INS_VCVTSI2SD, "vcvtsi2sd V,Ey", 0xf2, DIFF_MAP_0F, 0x2a, DIFF_ENC_VEX, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, fix_si2f},
    {X86_INS_VCVTSS2SI, "vcvtss2si Gy,W", 0xf3, DIFF_MAP_0F, 0x2d, DIFF_ENC_VEX, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_cvt32},
    {X86_INS_VCVTTSS2SI, "vcvttss2si Gy,W", 0xf3, DIFF_MAP_0F, 0x2c, DIFF_ENC_VEX, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_cvt32},
    {X86_INS_VCVTSD2SI, "vcvtsd2si Gy,W", 0xf2, DIFF_MAP_0F, 0x2d, DIFF_ENC_VEX, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_cvt64},
    {X86_INS_VCVTTSD2SI, "vcvttsd2si Gy,W", 0xf2, DIFF_MAP_0F, 0x2c, DIFF_ENC_VEX, -1, DIFF_SZY, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, fix_cvt64},
};

const struct diff_family diff_cases_sse_fp_vex = {
    "sse_fp_vex", sse_fp_vex_encs,
    sizeof sse_fp_vex_encs / sizeof sse_fp_vex_encs[0]};
