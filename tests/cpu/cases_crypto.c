/* SPDX-License-Identifier: MIT */
/* Differential cases of the crypto family (replayer/cpu/crypto.c):
 * pclmulqdq, AES-NI and the SHA extensions in their legacy encodings,
 * register and memory forms (aligned, misaligned, faulting), with vectors
 * at their edges (zero, all ones, single bits, repeated bytes and dwords)
 * and random ones, every pclmulqdq selector and sha1rnds4 function (and
 * the imm8 bits they ignore), edge and random aeskeygenassist round
 * constants, and random XMM0 for sha256rnds2. The "(F2/F3)" and "(66)"
 * rows add prefixes that make the encoding #UD, which Capstone 4 still
 * decodes. GFNI's cases are in cases_gfni.c. */
#include <string.h>

#include "tests/cpu/cases_sse.h"

/* A 16-byte vector: edges or random. */
static void crypto_vec(struct diff_rng *r, u8 *v) {
  static const u32 dw[] = {0x00000000, 0xffffffff, 0x80000000, 0x7fffffff,
                           0x00000001, 0x5a827999, 0x6a09e667, 0xc3d2e1f0};
  static const u8 by[] = {0x00, 0x01, 0x02, 0x1b, 0x52, 0x63,
                          0x7c, 0x80, 0x8d, 0xfe, 0xff};
  switch (rnd(r, 10)) {
    case 0: /* one byte value everywhere */
      memset(v, rnd(r, 2) ? by[rnd(r, sizeof by)] : (int)rnd(r, 256), 16);
      break;
    case 1: /* bytes from the edge list */
      for (int i = 0; i < 16; i++) v[i] = by[rnd(r, sizeof by)];
      break;
    case 2: /* dwords from the edge list */
      for (int i = 0; i < 16; i += 4) {
        u32 x = dw[rnd(r, sizeof dw / sizeof dw[0])];
        memcpy(v + i, &x, 4);
      }
      break;
    case 3: /* qwords with few bits set */
      for (int i = 0; i < 16; i += 8) {
        u64 x = 0;
        for (unsigned n = rnd(r, 4); n; n--) x |= 1ull << rnd(r, 64);
        memcpy(v + i, &x, 8);
      }
      break;
    case 4: /* qword edges */
      for (int i = 0; i < 16; i += 8) {
        u64 x = diff_rand_edge(r, 8);
        memcpy(v + i, &x, 8);
      }
      break;
    default:
      for (int i = 0; i < 16; i += 8) {
        u64 x = diff_rand(r);
        memcpy(v + i, &x, 8);
      }
      break;
  }
}

/* Edge or random vectors in the destination, the source and XMM0 (the
 * implicit operand of sha256rnds2), sometimes the same value in both. */
static void fix_vec(struct diff_case *c, struct diff_rng *r) {
  u8 *d = xmm_at(c, c->reg), *s = c->memop ? mem_at(c, 16) : xmm_at(c, c->rm);
  crypto_vec(r, d);
  if (s) {
    crypto_vec(r, s);
    if (rnd(r, 16) == 0) memcpy(s, d, 16);
  }
  if (c->reg != 0 && !(s && !c->memop && c->rm == 0))
    crypto_vec(r, xmm_at(c, 0));
  set_mxcsr(c, rand_mxcsr(r));
}

/* pclmulqdq: each of the four selectors, with or without noise in the
 * ignored bits. */
static void fix_pclmul(struct diff_case *c, struct diff_rng *r) {
  unsigned imm = (rnd(r, 2) ? 0x10 : 0) | rnd(r, 2);
  if (rnd(r, 4) == 0) imm |= rnd(r, 256) & 0xee;
  fix_vec(c, r);
  c->code[c->len - 1] = (u8)imm;
}

/* sha1rnds4: each of the four functions, sometimes with high bits set. */
static void fix_sha1rnds4(struct diff_case *c, struct diff_rng *r) {
  unsigned imm = rnd(r, 4);
  if (rnd(r, 4) == 0) imm |= rnd(r, 256) & 0xfc;
  fix_vec(c, r);
  c->code[c->len - 1] = (u8)imm;
}

/* aeskeygenassist: the AES round constants, edges and random bytes. */
static void fix_keygen(struct diff_case *c, struct diff_rng *r) {
  static const u8 k[] = {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40,
                         0x80, 0x1b, 0x36, 0x6c, 0x7f, 0xfe, 0xff};
  fix_vec(c, r);
  c->code[c->len - 1] = rnd(r, 2) ? k[rnd(r, sizeof k)] : (u8)rnd(r, 256);
}

#define ENC(id, text, pfx, map, op, imm, opt, fix)                           \
  {                                                                          \
    X86_INS_##id, text, pfx, DIFF_MAP_##map, op, DIFF_ENC_MODRM, -1, 0, imm, \
        DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | (opt), fix   \
  }
/* Each encoding, and a row with the prefixes that make it #UD: F2/F3 for
 * AES and pclmulqdq (two cases in three), 66 for SHA (always; with F2/F3
 * in two cases in three). */
#define AES(id, text, map, op, imm, fix)     \
  ENC(id, text, 0x66, map, op, imm, 0, fix), \
      ENC(id, text " (F2/F3)", 0x66, map, op, imm, DIFF_O_REP, fix)
#define SHA(id, text, map, op, imm, fix)  \
  ENC(id, text, 0, map, op, imm, 0, fix), \
      ENC(id, text " (66)", 0x66, map, op, imm, DIFF_O_REP, fix)

#define VEX(id, text, map, op, imm, opt, fix)                           \
  {                                                                     \
    X86_INS_##id, text, 0x66, DIFF_MAP_##map, op, DIFF_ENC_VEX, -1, 0,  \
        imm, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | (opt), fix          \
  }

static const struct diff_enc crypto_encs[] = {
    AES(PCLMULQDQ, "pclmulqdq V,W,I", 0F3A, 0x44, DIFF_IMM_B, fix_pclmul),
    AES(AESENC, "aesenc V,W", 0F38, 0xdc, DIFF_IMM_NONE, fix_vec),
    AES(AESENCLAST, "aesenclast V,W", 0F38, 0xdd, DIFF_IMM_NONE, fix_vec),
    AES(AESDEC, "aesdec V,W", 0F38, 0xde, DIFF_IMM_NONE, fix_vec),
    AES(AESDECLAST, "aesdeclast V,W", 0F38, 0xdf, DIFF_IMM_NONE, fix_vec),
    AES(AESIMC, "aesimc V,W", 0F38, 0xdb, DIFF_IMM_NONE, fix_vec),
    AES(AESKEYGENASSIST, "aeskeygenassist V,W,I", 0F3A, 0xdf, DIFF_IMM_B,
        fix_keygen),
    SHA(SHA1RNDS4, "sha1rnds4 V,W,I", 0F3A, 0xcc, DIFF_IMM_B, fix_sha1rnds4),
    SHA(SHA1NEXTE, "sha1nexte V,W", 0F38, 0xc8, DIFF_IMM_NONE, fix_vec),
    SHA(SHA1MSG1, "sha1msg1 V,W", 0F38, 0xc9, DIFF_IMM_NONE, fix_vec),
    SHA(SHA1MSG2, "sha1msg2 V,W", 0F38, 0xca, DIFF_IMM_NONE, fix_vec),
    SHA(SHA256RNDS2, "sha256rnds2 V,W", 0F38, 0xcb, DIFF_IMM_NONE, fix_vec),
    SHA(SHA256MSG1, "sha256msg1 V,W", 0F38, 0xcc, DIFF_IMM_NONE, fix_vec),
    SHA(SHA256MSG2, "sha256msg2 V,W", 0F38, 0xcd, DIFF_IMM_NONE, fix_vec),
    /* VEX.128 forms: vvvv is the first source (none for vaesimc and
     * vaeskeygenassist). */
    VEX(VPCLMULQDQ, "vpclmulqdq V,V,W,I", 0F3A, 0x44, DIFF_IMM_B, 0, fix_pclmul),
    VEX(VAESENC, "vaesenc V,V,W", 0F38, 0xdc, DIFF_IMM_NONE, 0, fix_vec),
    VEX(VAESENCLAST, "vaesenclast V,V,W", 0F38, 0xdd, DIFF_IMM_NONE, 0, fix_vec),
    VEX(VAESDEC, "vaesdec V,V,W", 0F38, 0xde, DIFF_IMM_NONE, 0, fix_vec),
    VEX(VAESDECLAST, "vaesdeclast V,V,W", 0F38, 0xdf, DIFF_IMM_NONE, 0, fix_vec),
    VEX(VAESIMC, "vaesimc V,W", 0F38, 0xdb, DIFF_IMM_NONE, DIFF_O_NOVVVV, fix_vec),
    VEX(VAESKEYGENASSIST, "vaeskeygenassist V,W,I", 0F3A, 0xdf, DIFF_IMM_B, DIFF_O_NOVVVV, fix_keygen),
    /* VEX.256 forms (VAES, VPCLMULQDQ), which Capstone 4 cannot decode
     * (vexraw.c decodes them): each 128-bit lane on its own. */
    VEX(VPCLMULQDQ, "vpclmulqdq V,V,W,I (256)", 0F3A, 0x44, DIFF_IMM_B, DIFF_O_L1, fix_pclmul),
    VEX(VAESENC, "vaesenc V,V,W (256)", 0F38, 0xdc, DIFF_IMM_NONE, DIFF_O_L1, fix_vec),
    VEX(VAESENCLAST, "vaesenclast V,V,W (256)", 0F38, 0xdd, DIFF_IMM_NONE, DIFF_O_L1, fix_vec),
    VEX(VAESDEC, "vaesdec V,V,W (256)", 0F38, 0xde, DIFF_IMM_NONE, DIFF_O_L1, fix_vec),
    VEX(VAESDECLAST, "vaesdeclast V,V,W (256)", 0F38, 0xdf, DIFF_IMM_NONE, DIFF_O_L1, fix_vec),
};
#undef VEX
#undef AES
#undef SHA
#undef ENC

const struct diff_family diff_cases_crypto = {
    "crypto", crypto_encs, sizeof crypto_encs / sizeof crypto_encs[0]};
