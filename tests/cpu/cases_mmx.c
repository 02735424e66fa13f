/* SPDX-License-Identifier: MIT */
/* Differential cases of MMX (mmx.c and the CPU_MMX rows of the SSE
 * families): every MMX encoding and the SSE ones with an mm operand,
 * register and memory (faulting too), from a random x87 state: TOP, tags,
 * register contents (so that the aliasing of mm_i with the physical
 * register R_i, not ST(i), shows), and sometimes a pending unmasked x87
 * exception, which every one of them but the memory forms of cvtpi2ps/pd
 * must raise (#MF) before it does anything. */
#include <string.h>

#include "tests/cpu/cases_sse.h"

/* The 10 bytes of physical x87 register I in the case's FXSAVE image,
 * which holds ST(0)..ST(7): R_I is ST((I - TOP) & 7). */
static u8 *phys_at(struct diff_case *c, unsigned i) {
  unsigned top = (c->st.fx[3] >> 3) & 7;
  return c->st.fx + 32 + 16 * ((i - top) & 7);
}

/* Lane edges of 8, 16, 32 and 64 bits, or random bytes. */
static u64 edge_q(struct diff_rng *r) {
  static const u8 k[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0x81, 0x40};
  u64 v = 0;
  unsigned mode = rnd(r, 4);
  if (mode >= 2) return diff_rand(r);
  for (unsigned i = 0; i < 8; i++) {
    u64 b = mode == 0 || (i & 1) ? k[rnd(r, 8)] : rnd(r, 2) ? 0xff : 0;
    v |= b << (8 * i);
  }
  return v;
}

/* Random x87 state: TOP, tags, the eight registers (MMX values with an
 * all-ones or a random sign and exponent), and one case in twelve an
 * unmasked exception pending. */
static void fix_x87(struct diff_case *c, struct diff_rng *r) {
  u16 fcw = 0x37f, fsw = (u16)(rnd(r, 8) << 11);
  if (rnd(r, 12) == 0) {
    u16 bit = (u16)(1u << rnd(r, 6));
    fcw &= (u16)~bit;
    fsw |= bit | 0x80 | 0x8000;
  } else if (rnd(r, 4) == 0) {
    fsw |= (u16)rnd(r, 64); /* masked flags, kept as they are */
  }
  memcpy(c->st.fx, &fcw, 2);
  memcpy(c->st.fx + 2, &fsw, 2);
  c->st.fx[4] = rnd(r, 3) ? (u8)diff_rand(r) : rnd(r, 2) ? 0xff : 0;
  for (unsigned i = 0; i < 8; i++) {
    u64 m = edge_q(r);
    u16 se = rnd(r, 2) ? 0xffff : (u16)diff_rand(r);
    memcpy(phys_at(c, i), &m, 8);
    memcpy(phys_at(c, i) + 8, &se, 2);
  }
  set_mxcsr(c, rand_mxcsr(r));
}

/* The 8-byte source: a memory operand, or mm register rm. */
static u8 *src_q(struct diff_case *c) {
  return c->memop ? mem_at(c, 8) : phys_at(c, c->rm);
}

static void fix_mm(struct diff_case *c, struct diff_rng *r) {
  fix_x87(c, r);
  u8 *s = src_q(c);
  if (s && rnd(r, 8) == 0) memcpy(s, phys_at(c, c->reg), 8);
}

static void fix_count(struct diff_case *c, struct diff_rng *r) {
  fix_x87(c, r);
  u64 n = edge_count(r);
  u8 *s = src_q(c);
  if (s) memcpy(s, &n, 8);
}

static void fix_shimm(struct diff_case *c, struct diff_rng *r) {
  fix_x87(c, r);
  c->code[c->len - 1] = (u8)edge_count(r);
}

/* An imm8 that is often in range for 4-word or 8-byte selections. */
static void fix_imm(struct diff_case *c, struct diff_rng *r) {
  fix_x87(c, r);
  if (rnd(r, 2)) c->code[c->len - 1] = (u8)rnd(r, 24);
}

/* maskmovq: rdi somewhere in the data, sometimes across the guard page
 * or in the read-only page; masks often all clear or all set. */
static void fix_maskmov(struct diff_case *c, struct diff_rng *r) {
  fix_x87(c, r);
  unsigned k = rnd(r, 8);
  c->st.gpr[7] = k == 0   ? DIFF_GUARD_ADDR - 4
                 : k == 1 ? DIFF_RO_ADDR + 8 * rnd(r, 512)
                          : DIFF_DATA_ADDR + rnd(r, DIFF_DATA_SIZE - 8);
  if (rnd(r, 4) == 0) {
    u64 m = rnd(r, 2) ? ~0ull : 0;
    memcpy(phys_at(c, c->rm), &m, 8);
  }
}

/* Conversions from floating point: edge values in the XMM or memory
 * source. */
static void fix_cvt_ps(struct diff_case *c, struct diff_rng *r) {
  fix_x87(c, r);
  u8 *s = c->memop ? mem_at(c, 8) : xmm_at(c, c->rm);
  for (unsigned i = 0; s && i < 16; i += 4) {
    u32 x = f32_edge(r);
    if (i < 8 || !c->memop) memcpy(s + i, &x, 4);
  }
}

static void fix_cvt_pd(struct diff_case *c, struct diff_rng *r) {
  fix_x87(c, r);
  u8 *s = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  for (unsigned i = 0; s && i < 16; i += 8) {
    u64 x = f64_edge(r);
    memcpy(s + i, &x, 8);
  }
}

#define ROW(id, text, pfx, map, op, ext, sizes, imm, regk, rmk, opt, fix) \
  {X86_INS_##id, text, pfx, DIFF_MAP_##map, op, DIFF_ENC_MODRM, ext,     \
   sizes, imm, DIFF_K_##regk, DIFF_K_##rmk, DIFF_O_FAULT | (opt), fix}
/* mm, mm/m64 */
#define PQ(id, text, map, op) \
  ROW(id, text, 0, map, op, -1, 0, DIFF_IMM_NONE, MM, MM, 0, fix_mm)
/* Shifts: by mm/m64, and by imm8 (/ext). */
#define SH(id, text, op, opi, ext)                                         \
  ROW(id, text " P,Q", 0, 0F, op, -1, 0, DIFF_IMM_NONE, MM, MM, 0,         \
      fix_count),                                                          \
      ROW(id, text " N,I", 0, 0F, opi, ext, 0, DIFF_IMM_B, NONE, MM,       \
          DIFF_O_REG, fix_shimm)

static const struct diff_enc mmx_encs[] = {
    {X86_INS_EMMS, "emms", 0, DIFF_MAP_0F, 0x77, DIFF_ENC_NONE, -1, 0,
     DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_NONE, 0, fix_x87},
    ROW(MOVD, "movd/q P,Ey", 0, 0F, 0x6e, -1, DIFF_SZY, DIFF_IMM_NONE, MM,
        GPR, 0, fix_mm),
    ROW(MOVD, "movd/q Ey,P", 0, 0F, 0x7e, -1, DIFF_SZY, DIFF_IMM_NONE, MM,
        GPR, 0, fix_mm),
    PQ(MOVQ, "movq P,Q", 0F, 0x6f),
    ROW(MOVQ, "movq Q,P", 0, 0F, 0x7f, -1, 0, DIFF_IMM_NONE, MM, MM, 0,
        fix_mm),
    ROW(MOVNTQ, "movntq M,P", 0, 0F, 0xe7, -1, 0, DIFF_IMM_NONE, MM, MM,
        DIFF_O_MEM, fix_mm),
    PQ(PADDB, "paddb", 0F, 0xfc), PQ(PADDW, "paddw", 0F, 0xfd),
    PQ(PADDD, "paddd", 0F, 0xfe), PQ(PADDQ, "paddq", 0F, 0xd4),
    PQ(PSUBB, "psubb", 0F, 0xf8), PQ(PSUBW, "psubw", 0F, 0xf9),
    PQ(PSUBD, "psubd", 0F, 0xfa), PQ(PSUBQ, "psubq", 0F, 0xfb),
    PQ(PADDSB, "paddsb", 0F, 0xec), PQ(PADDSW, "paddsw", 0F, 0xed),
    PQ(PSUBSB, "psubsb", 0F, 0xe8), PQ(PSUBSW, "psubsw", 0F, 0xe9),
    PQ(PADDUSB, "paddusb", 0F, 0xdc), PQ(PADDUSW, "paddusw", 0F, 0xdd),
    PQ(PSUBUSB, "psubusb", 0F, 0xd8), PQ(PSUBUSW, "psubusw", 0F, 0xd9),
    PQ(PMULLW, "pmullw", 0F, 0xd5), PQ(PMULHW, "pmulhw", 0F, 0xe5),
    PQ(PMULHUW, "pmulhuw", 0F, 0xe4), PQ(PMULUDQ, "pmuludq", 0F, 0xf4),
    PQ(PMADDWD, "pmaddwd", 0F, 0xf5), PQ(PSADBW, "psadbw", 0F, 0xf6),
    PQ(PAVGB, "pavgb", 0F, 0xe0), PQ(PAVGW, "pavgw", 0F, 0xe3),
    PQ(PCMPEQB, "pcmpeqb", 0F, 0x74), PQ(PCMPEQW, "pcmpeqw", 0F, 0x75),
    PQ(PCMPEQD, "pcmpeqd", 0F, 0x76), PQ(PCMPGTB, "pcmpgtb", 0F, 0x64),
    PQ(PCMPGTW, "pcmpgtw", 0F, 0x65), PQ(PCMPGTD, "pcmpgtd", 0F, 0x66),
    PQ(PMINUB, "pminub", 0F, 0xda), PQ(PMINSW, "pminsw", 0F, 0xea),
    PQ(PMAXUB, "pmaxub", 0F, 0xde), PQ(PMAXSW, "pmaxsw", 0F, 0xee),
    PQ(PAND, "pand", 0F, 0xdb), PQ(PANDN, "pandn", 0F, 0xdf),
    PQ(POR, "por", 0F, 0xeb), PQ(PXOR, "pxor", 0F, 0xef),
    PQ(PUNPCKLBW, "punpcklbw", 0F, 0x60), PQ(PUNPCKLWD, "punpcklwd", 0F, 0x61),
    PQ(PUNPCKLDQ, "punpckldq", 0F, 0x62), PQ(PUNPCKHBW, "punpckhbw", 0F, 0x68),
    PQ(PUNPCKHWD, "punpckhwd", 0F, 0x69), PQ(PUNPCKHDQ, "punpckhdq", 0F, 0x6a),
    PQ(PACKSSWB, "packsswb", 0F, 0x63), PQ(PACKSSDW, "packssdw", 0F, 0x6b),
    PQ(PACKUSWB, "packuswb", 0F, 0x67),
    SH(PSLLW, "psllw", 0xf1, 0x71, 6), SH(PSLLD, "pslld", 0xf2, 0x72, 6),
    SH(PSLLQ, "psllq", 0xf3, 0x73, 6), SH(PSRLW, "psrlw", 0xd1, 0x71, 2),
    SH(PSRLD, "psrld", 0xd2, 0x72, 2), SH(PSRLQ, "psrlq", 0xd3, 0x73, 2),
    SH(PSRAW, "psraw", 0xe1, 0x71, 4), SH(PSRAD, "psrad", 0xe2, 0x72, 4),
    /* SSSE3 on mm registers. */
    PQ(PSHUFB, "pshufb", 0F38, 0x00), PQ(PHADDW, "phaddw", 0F38, 0x01),
    PQ(PHADDD, "phaddd", 0F38, 0x02), PQ(PHADDSW, "phaddsw", 0F38, 0x03),
    PQ(PMADDUBSW, "pmaddubsw", 0F38, 0x04), PQ(PHSUBW, "phsubw", 0F38, 0x05),
    PQ(PHSUBD, "phsubd", 0F38, 0x06), PQ(PHSUBSW, "phsubsw", 0F38, 0x07),
    PQ(PSIGNB, "psignb", 0F38, 0x08), PQ(PSIGNW, "psignw", 0F38, 0x09),
    PQ(PSIGND, "psignd", 0F38, 0x0a), PQ(PMULHRSW, "pmulhrsw", 0F38, 0x0b),
    PQ(PABSB, "pabsb", 0F38, 0x1c), PQ(PABSW, "pabsw", 0F38, 0x1d),
    PQ(PABSD, "pabsd", 0F38, 0x1e),
    ROW(PALIGNR, "palignr P,Q,I", 0, 0F3A, 0x0f, -1, 0, DIFF_IMM_B, MM, MM, 0,
        fix_imm),
    /* The SSE integer additions on mm registers. */
    ROW(PSHUFW, "pshufw P,Q,I", 0, 0F, 0x70, -1, 0, DIFF_IMM_B, MM, MM, 0,
        fix_imm),
    ROW(PEXTRW, "pextrw Gy,N,I", 0, 0F, 0xc5, -1, DIFF_SZY, DIFF_IMM_B, GPR,
        MM, DIFF_O_REG, fix_imm),
    ROW(PINSRW, "pinsrw P,Ry/Mw,I", 0, 0F, 0xc4, -1, DIFF_SZY, DIFF_IMM_B,
        MM, GPR, 0, fix_imm),
    ROW(PMOVMSKB, "pmovmskb Gy,N", 0, 0F, 0xd7, -1, DIFF_SZY, DIFF_IMM_NONE,
        GPR, MM, DIFF_O_REG, fix_mm),
    ROW(MASKMOVQ, "maskmovq P,N", 0, 0F, 0xf7, -1, 0, DIFF_IMM_NONE, MM, MM,
        DIFF_O_REG | DIFF_O_CL, fix_maskmov),
    /* Moves and conversions between mm and xmm. */
    ROW(MOVQ2DQ, "movq2dq V,N", 0xf3, 0F, 0xd6, -1, 0, DIFF_IMM_NONE, XMM,
        MM, DIFF_O_REG, fix_mm),
    ROW(MOVDQ2Q, "movdq2q P,U", 0xf2, 0F, 0xd6, -1, 0, DIFF_IMM_NONE, MM, XMM,
        DIFF_O_REG, fix_mm),
    ROW(CVTPI2PS, "cvtpi2ps V,Q", 0, 0F, 0x2a, -1, 0, DIFF_IMM_NONE, XMM, MM,
        0, fix_mm),
    ROW(CVTPI2PD, "cvtpi2pd V,Q", 0x66, 0F, 0x2a, -1, 0, DIFF_IMM_NONE, XMM,
        MM, 0, fix_mm),
    ROW(CVTPS2PI, "cvtps2pi P,W", 0, 0F, 0x2d, -1, 0, DIFF_IMM_NONE, MM, XMM,
        0, fix_cvt_ps),
    ROW(CVTTPS2PI, "cvttps2pi P,W", 0, 0F, 0x2c, -1, 0, DIFF_IMM_NONE, MM,
        XMM, 0, fix_cvt_ps),
    ROW(CVTPD2PI, "cvtpd2pi P,W", 0x66, 0F, 0x2d, -1, 0, DIFF_IMM_NONE, MM,
        XMM, DIFF_O_ALIGN16, fix_cvt_pd),
    ROW(CVTTPD2PI, "cvttpd2pi P,W", 0x66, 0F, 0x2c, -1, 0, DIFF_IMM_NONE, MM,
        XMM, DIFF_O_ALIGN16, fix_cvt_pd),
};
#undef SH
#undef PQ
#undef ROW

const struct diff_family diff_cases_mmx = {
    "mmx", mmx_encs, sizeof mmx_encs / sizeof mmx_encs[0]};
