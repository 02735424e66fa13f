/* SPDX-License-Identifier: MIT */
/* Differential cases of the SSE integer families (sse_int.c, sse_shift.c,
 * sse_shuf.c, sse_cmpstr.c): every form, register and memory, with lanes
 * at their edges (0, 1, -1, the signed and unsigned extremes), shift counts
 * around the element width, every imm8, and for the string compares short
 * strings with zeros, explicit lengths around and beyond the limits and all
 * 256 control bytes. */
#include <string.h>

#include "tests/cpu/cases_sse.h"


/* A lane byte pattern: edges of 8-, 16-, 32- and 64-bit lanes. */
static void edge_vec(struct diff_rng *r, u8 *v) {
  static const u8 k[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0x81, 0x40};
  unsigned mode = rnd(r, 4);
  for (int i = 0; i < 16; i++) {
    if (mode == 0)
      v[i] = k[rnd(r, 8)];
    else if (mode == 1) /* whole lanes of 0x00/0xff with a top byte */
      v[i] = (i & 1) ? k[rnd(r, 8)] : (rnd(r, 2) ? 0xff : 0x00);
    else
      v[i] = (u8)diff_rand(r);
  }
}

static void fix_ivec(struct diff_case *c, struct diff_rng *r) {
  u8 *d = xmm_at(c, c->reg), *s = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  if (rnd(r, 2)) edge_vec(r, d);
  if (s && rnd(r, 2)) edge_vec(r, s);
  if (s && rnd(r, 8) == 0) memcpy(s, d, 16);
  if (rnd(r, 2)) edge_vec(r, xmm_at(c, 0)); /* blendv selector */
  set_mxcsr(c, rand_mxcsr(r));
}

static u64 edge_count(struct diff_rng *r) {
  static const u64 k[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64,
                          65, 127, 128, 255, 256, 1ull << 32, ~0ull};
  return rnd(r, 4) ? k[rnd(r, sizeof k / sizeof k[0])] : diff_rand(r);
}

static void fix_shcount(struct diff_case *c, struct diff_rng *r) {
  fix_ivec(c, r);
  u64 n = edge_count(r);
  u8 *s = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  if (s) memcpy(s, &n, 8);
}

static void fix_shimm(struct diff_case *c, struct diff_rng *r) {
  fix_ivec(c, r);
  c->code[c->len - 1] = (u8)edge_count(r);
}

/* A short string of a small alphabet, with zeros. */
static void str_vec(struct diff_rng *r, u8 *v, int words) {
  static const u8 a[] = {'a', 'b', 'c', 'z', 'A', '0', 0x80, 0xff, 0, 0x7f};
  unsigned zero = rnd(r, 3) ? 17 : rnd(r, 17);
  for (int i = 0; i < 16; i++) {
    v[i] = a[rnd(r, words ? 3 : 10)];
    if (words && (i & 1)) v[i] = rnd(r, 4) ? 0 : a[rnd(r, 10)];
  }
  if (zero < 16) {
    if (words) memset(v + (zero & ~1u), 0, 2);
    else v[zero] = 0;
  }
}

static void fix_str(struct diff_case *c, struct diff_rng *r) {
  unsigned imm = rnd(r, 256);
  c->code[c->len - 1] = (u8)imm;
  u8 *s = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  str_vec(r, xmm_at(c, c->reg), imm & 1);
  if (s) str_vec(r, s, imm & 1);
  if (s && rnd(r, 4) == 0) memcpy(s, xmm_at(c, c->reg), 16);
  for (int g = 0; g <= 2; g += 2) {
    if (c->memop && (c->base == g || c->index == g)) continue;
    unsigned k = rnd(r, 8);
    u64 v = k < 5 ? (u64)(i64)((int)rnd(r, 41) - 20)
                  : k == 5 ? diff_rand_edge(r, 8) : diff_rand(r);
    c->st.gpr[g] = v;
  }
}

static const struct diff_enc sse_int_encs[] = {
    {X86_INS_PADDB, "paddb V,W", 0x66, DIFF_MAP_0F, 0xfc, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PADDW, "paddw V,W", 0x66, DIFF_MAP_0F, 0xfd, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PADDD, "paddd V,W", 0x66, DIFF_MAP_0F, 0xfe, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PADDQ, "paddq V,W", 0x66, DIFF_MAP_0F, 0xd4, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBB, "psubb V,W", 0x66, DIFF_MAP_0F, 0xf8, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBW, "psubw V,W", 0x66, DIFF_MAP_0F, 0xf9, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBD, "psubd V,W", 0x66, DIFF_MAP_0F, 0xfa, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBQ, "psubq V,W", 0x66, DIFF_MAP_0F, 0xfb, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PADDSB, "paddsb V,W", 0x66, DIFF_MAP_0F, 0xec, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PADDSW, "paddsw V,W", 0x66, DIFF_MAP_0F, 0xed, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBSB, "psubsb V,W", 0x66, DIFF_MAP_0F, 0xe8, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBSW, "psubsw V,W", 0x66, DIFF_MAP_0F, 0xe9, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PADDUSB, "paddusb V,W", 0x66, DIFF_MAP_0F, 0xdc, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PADDUSW, "paddusw V,W", 0x66, DIFF_MAP_0F, 0xdd, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBUSB, "psubusb V,W", 0x66, DIFF_MAP_0F, 0xd8, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSUBUSW, "psubusw V,W", 0x66, DIFF_MAP_0F, 0xd9, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMULLW, "pmullw V,W", 0x66, DIFF_MAP_0F, 0xd5, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMULHW, "pmulhw V,W", 0x66, DIFF_MAP_0F, 0xe5, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMULHUW, "pmulhuw V,W", 0x66, DIFF_MAP_0F, 0xe4, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PAVGB, "pavgb V,W", 0x66, DIFF_MAP_0F, 0xe0, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PAVGW, "pavgw V,W", 0x66, DIFF_MAP_0F, 0xe3, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPEQB, "pcmpeqb V,W", 0x66, DIFF_MAP_0F, 0x74, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPEQW, "pcmpeqw V,W", 0x66, DIFF_MAP_0F, 0x75, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPEQD, "pcmpeqd V,W", 0x66, DIFF_MAP_0F, 0x76, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPGTB, "pcmpgtb V,W", 0x66, DIFF_MAP_0F, 0x64, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPGTW, "pcmpgtw V,W", 0x66, DIFF_MAP_0F, 0x65, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPGTD, "pcmpgtd V,W", 0x66, DIFF_MAP_0F, 0x66, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMINUB, "pminub V,W", 0x66, DIFF_MAP_0F, 0xda, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMINSW, "pminsw V,W", 0x66, DIFF_MAP_0F, 0xea, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMAXUB, "pmaxub V,W", 0x66, DIFF_MAP_0F, 0xde, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMAXSW, "pmaxsw V,W", 0x66, DIFF_MAP_0F, 0xee, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PAND, "pand V,W", 0x66, DIFF_MAP_0F, 0xdb, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PANDN, "pandn V,W", 0x66, DIFF_MAP_0F, 0xdf, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_POR, "por V,W", 0x66, DIFF_MAP_0F, 0xeb, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PXOR, "pxor V,W", 0x66, DIFF_MAP_0F, 0xef, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMULUDQ, "pmuludq V,W", 0x66, DIFF_MAP_0F, 0xf4, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMADDWD, "pmaddwd V,W", 0x66, DIFF_MAP_0F, 0xf5, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSADBW, "psadbw V,W", 0x66, DIFF_MAP_0F, 0xf6, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKLBW, "punpcklbw V,W", 0x66, DIFF_MAP_0F, 0x60, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKLWD, "punpcklwd V,W", 0x66, DIFF_MAP_0F, 0x61, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKLDQ, "punpckldq V,W", 0x66, DIFF_MAP_0F, 0x62, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKLQDQ, "punpcklqdq V,W", 0x66, DIFF_MAP_0F, 0x6c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKHBW, "punpckhbw V,W", 0x66, DIFF_MAP_0F, 0x68, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKHWD, "punpckhwd V,W", 0x66, DIFF_MAP_0F, 0x69, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKHDQ, "punpckhdq V,W", 0x66, DIFF_MAP_0F, 0x6a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PUNPCKHQDQ, "punpckhqdq V,W", 0x66, DIFF_MAP_0F, 0x6d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PACKSSWB, "packsswb V,W", 0x66, DIFF_MAP_0F, 0x63, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PACKUSWB, "packuswb V,W", 0x66, DIFF_MAP_0F, 0x67, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PACKSSDW, "packssdw V,W", 0x66, DIFF_MAP_0F, 0x6b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMULLD, "pmulld V,W", 0x66, DIFF_MAP_0F38, 0x40, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMULHRSW, "pmulhrsw V,W", 0x66, DIFF_MAP_0F38, 0x0b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPEQQ, "pcmpeqq V,W", 0x66, DIFF_MAP_0F38, 0x29, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PCMPGTQ, "pcmpgtq V,W", 0x66, DIFF_MAP_0F38, 0x37, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMINSB, "pminsb V,W", 0x66, DIFF_MAP_0F38, 0x38, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMINUW, "pminuw V,W", 0x66, DIFF_MAP_0F38, 0x3a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMINSD, "pminsd V,W", 0x66, DIFF_MAP_0F38, 0x39, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMINUD, "pminud V,W", 0x66, DIFF_MAP_0F38, 0x3b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMAXSB, "pmaxsb V,W", 0x66, DIFF_MAP_0F38, 0x3c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMAXUW, "pmaxuw V,W", 0x66, DIFF_MAP_0F38, 0x3e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMAXSD, "pmaxsd V,W", 0x66, DIFF_MAP_0F38, 0x3d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMAXUD, "pmaxud V,W", 0x66, DIFF_MAP_0F38, 0x3f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PABSB, "pabsb V,W", 0x66, DIFF_MAP_0F38, 0x1c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PABSW, "pabsw V,W", 0x66, DIFF_MAP_0F38, 0x1d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PABSD, "pabsd V,W", 0x66, DIFF_MAP_0F38, 0x1e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSIGNB, "psignb V,W", 0x66, DIFF_MAP_0F38, 0x08, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSIGNW, "psignw V,W", 0x66, DIFF_MAP_0F38, 0x09, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSIGND, "psignd V,W", 0x66, DIFF_MAP_0F38, 0x0a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMULDQ, "pmuldq V,W", 0x66, DIFF_MAP_0F38, 0x28, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMADDUBSW, "pmaddubsw V,W", 0x66, DIFF_MAP_0F38, 0x04, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PHADDW, "phaddw V,W", 0x66, DIFF_MAP_0F38, 0x01, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PHADDD, "phaddd V,W", 0x66, DIFF_MAP_0F38, 0x02, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PHADDSW, "phaddsw V,W", 0x66, DIFF_MAP_0F38, 0x03, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PHSUBW, "phsubw V,W", 0x66, DIFF_MAP_0F38, 0x05, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PHSUBD, "phsubd V,W", 0x66, DIFF_MAP_0F38, 0x06, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PHSUBSW, "phsubsw V,W", 0x66, DIFF_MAP_0F38, 0x07, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PTEST, "ptest V,W", 0x66, DIFF_MAP_0F38, 0x17, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PHMINPOSUW, "phminposuw V,W", 0x66, DIFF_MAP_0F38, 0x41, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSHUFB, "pshufb V,W", 0x66, DIFF_MAP_0F38, 0x00, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PACKUSDW, "packusdw V,W", 0x66, DIFF_MAP_0F38, 0x2b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_BLENDVPS, "blendvps V,W", 0x66, DIFF_MAP_0F38, 0x14, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_BLENDVPD, "blendvpd V,W", 0x66, DIFF_MAP_0F38, 0x15, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PBLENDVB, "pblendvb V,W", 0x66, DIFF_MAP_0F38, 0x10, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVZXBW, "pmovzxbw V,W", 0x66, DIFF_MAP_0F38, 0x30, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVSXBW, "pmovsxbw V,W", 0x66, DIFF_MAP_0F38, 0x20, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVZXBD, "pmovzxbd V,W", 0x66, DIFF_MAP_0F38, 0x31, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVSXBD, "pmovsxbd V,W", 0x66, DIFF_MAP_0F38, 0x21, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVZXBQ, "pmovzxbq V,W", 0x66, DIFF_MAP_0F38, 0x32, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVSXBQ, "pmovsxbq V,W", 0x66, DIFF_MAP_0F38, 0x22, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVZXWD, "pmovzxwd V,W", 0x66, DIFF_MAP_0F38, 0x33, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVSXWD, "pmovsxwd V,W", 0x66, DIFF_MAP_0F38, 0x23, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVZXWQ, "pmovzxwq V,W", 0x66, DIFF_MAP_0F38, 0x34, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVSXWQ, "pmovsxwq V,W", 0x66, DIFF_MAP_0F38, 0x24, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVZXDQ, "pmovzxdq V,W", 0x66, DIFF_MAP_0F38, 0x35, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PMOVSXDQ, "pmovsxdq V,W", 0x66, DIFF_MAP_0F38, 0x25, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSLLW, "psllw V,W", 0x66, DIFF_MAP_0F, 0xf1, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSLLD, "pslld V,W", 0x66, DIFF_MAP_0F, 0xf2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSLLQ, "psllq V,W", 0x66, DIFF_MAP_0F, 0xf3, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSRLW, "psrlw V,W", 0x66, DIFF_MAP_0F, 0xd1, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSRLD, "psrld V,W", 0x66, DIFF_MAP_0F, 0xd2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSRLQ, "psrlq V,W", 0x66, DIFF_MAP_0F, 0xd3, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSRAW, "psraw V,W", 0x66, DIFF_MAP_0F, 0xe1, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSRAD, "psrad V,W", 0x66, DIFF_MAP_0F, 0xe2, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_shcount},
    {X86_INS_PSRLW, "psrlw U,I", 0x66, DIFF_MAP_0F, 0x71, DIFF_ENC_MODRM, 2, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSRAW, "psraw U,I", 0x66, DIFF_MAP_0F, 0x71, DIFF_ENC_MODRM, 4, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSLLW, "psllw U,I", 0x66, DIFF_MAP_0F, 0x71, DIFF_ENC_MODRM, 6, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSRLD, "psrld U,I", 0x66, DIFF_MAP_0F, 0x72, DIFF_ENC_MODRM, 2, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSRAD, "psrad U,I", 0x66, DIFF_MAP_0F, 0x72, DIFF_ENC_MODRM, 4, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSLLD, "pslld U,I", 0x66, DIFF_MAP_0F, 0x72, DIFF_ENC_MODRM, 6, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSRLQ, "psrlq U,I", 0x66, DIFF_MAP_0F, 0x73, DIFF_ENC_MODRM, 2, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSLLQ, "psllq U,I", 0x66, DIFF_MAP_0F, 0x73, DIFF_ENC_MODRM, 6, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSRLDQ, "psrldq U,I", 0x66, DIFF_MAP_0F, 0x73, DIFF_ENC_MODRM, 3, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSLLDQ, "pslldq U,I", 0x66, DIFF_MAP_0F, 0x73, DIFF_ENC_MODRM, 7, 0, DIFF_IMM_B, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_REG, fix_shimm},
    {X86_INS_PSHUFD, "pshufd V,W,I", 0x66, DIFF_MAP_0F, 0x70, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSHUFLW, "pshuflw V,W,I", 0xf2, DIFF_MAP_0F, 0x70, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PSHUFHW, "pshufhw V,W,I", 0xf3, DIFF_MAP_0F, 0x70, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PALIGNR, "palignr V,W,I", 0x66, DIFF_MAP_0F3A, 0x0f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_SHUFPS, "shufps V,W,I", 0, DIFF_MAP_0F, 0xc6, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_SHUFPD, "shufpd V,W,I", 0x66, DIFF_MAP_0F, 0xc6, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_BLENDPS, "blendps V,W,I", 0x66, DIFF_MAP_0F3A, 0x0c, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_BLENDPD, "blendpd V,W,I", 0x66, DIFF_MAP_0F3A, 0x0d, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PBLENDW, "pblendw V,W,I", 0x66, DIFF_MAP_0F3A, 0x0e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_INSERTPS, "insertps V,W,I", 0x66, DIFF_MAP_0F3A, 0x21, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_ivec},
    {X86_INS_UNPCKLPS, "unpcklps V,W", 0, DIFF_MAP_0F, 0x14, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_UNPCKHPS, "unpckhps V,W", 0, DIFF_MAP_0F, 0x15, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_UNPCKLPD, "unpcklpd V,W", 0x66, DIFF_MAP_0F, 0x14, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_UNPCKHPD, "unpckhpd V,W", 0x66, DIFF_MAP_0F, 0x15, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_ivec},
    {X86_INS_PEXTRB, "pextrb E,V,I", 0x66, DIFF_MAP_0F3A, 0x14, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PEXTRW, "pextrw E,V,I", 0x66, DIFF_MAP_0F3A, 0x15, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PEXTRD, "pextrd E,V,I", 0x66, DIFF_MAP_0F3A, 0x16, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_EXTRACTPS, "extractps E,V,I", 0x66, DIFF_MAP_0F3A, 0x17, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PEXTRQ, "pextrq E,V,I", 0x66, DIFF_MAP_0F3A, 0x16, DIFF_ENC_MODRM, -1, DIFF_SZ64, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PEXTRW, "pextrw G,U,I", 0x66, DIFF_MAP_0F, 0xc5, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_REG, NULL},
    {X86_INS_PINSRB, "pinsrb V,E,I", 0x66, DIFF_MAP_0F3A, 0x20, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PINSRW, "pinsrw V,E,I", 0x66, DIFF_MAP_0F, 0xc4, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PINSRD, "pinsrd V,E,I", 0x66, DIFF_MAP_0F3A, 0x22, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PINSRQ, "pinsrq V,E,I", 0x66, DIFF_MAP_0F3A, 0x22, DIFF_ENC_MODRM, -1, DIFF_SZ64, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_PCMPESTRI, "pcmpestri V,W,I", 0x66, DIFF_MAP_0F3A, 0x61, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_str},
    {X86_INS_PCMPESTRI, "pcmpestri V,W,I (REX.W)", 0x66, DIFF_MAP_0F3A, 0x61, DIFF_ENC_MODRM, -1, DIFF_SZ64, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_str},
    {X86_INS_PCMPESTRM, "pcmpestrm V,W,I", 0x66, DIFF_MAP_0F3A, 0x60, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_str},
    {X86_INS_PCMPESTRM, "pcmpestrm V,W,I (REX.W)", 0x66, DIFF_MAP_0F3A, 0x60, DIFF_ENC_MODRM, -1, DIFF_SZ64, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_str},
    {X86_INS_PCMPISTRI, "pcmpistri V,W,I", 0x66, DIFF_MAP_0F3A, 0x63, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_str},
    {X86_INS_PCMPISTRM, "pcmpistrm V,W,I", 0x66, DIFF_MAP_0F3A, 0x62, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_B, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, fix_str},
};

const struct diff_family diff_cases_sse_int = {
    "sse_int", sse_int_encs, sizeof sse_int_encs / sizeof sse_int_encs[0]};
