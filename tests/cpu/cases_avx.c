/* SPDX-License-Identifier: MIT */
/* Differential cases of the instructions that exist only in VEX form
 * (avx.c): the 128/256-bit moves, vzeroupper/vzeroall, broadcasts, lane
 * inserts, extracts and permutes, cross-lane permutes, variable shifts,
 * vpblendd, the masked loads and stores (with masked-off elements on the
 * unmapped page, which must not fault) and vtestps/pd. The VEX forms of SSE
 * instructions are in the *_vex tables of the SSE case files. */
#include <string.h>

#include "tests/cpu/cases_sse.h"

/* Shift counts around the element widths in the rm vector. */
static void fix_counts(struct diff_case *c, struct diff_rng *r) {
  static const u32 k[] = {0, 1, 7, 15, 16, 31, 32, 33, 63, 64, 65, 0x80000000u};
  u8 *lo = c->memop ? mem_at(c, 32) : xmm_at(c, c->rm);
  u8 *hi = c->memop ? (lo ? lo + 16 : NULL) : c->st.ymmh + 16 * c->rm;
  for (int i = 0; lo && i < 4; i++) {
    u32 v = rnd(r, 3) ? k[rnd(r, 12)] : rnd(r, 80);
    memcpy(lo + 4 * i, &v, 4);
    v = rnd(r, 3) ? k[rnd(r, 12)] : rnd(r, 80);
    memcpy(hi + 4 * i, &v, 4);
  }
}

/* Gathers: the generic encoder has no VSIB, so the fixer writes the whole
 * instruction: VEX.66.0F38 with the row's opcode and W, random L,
 * distinct dest, mask and index registers (the same ones, #UD, in one
 * case in sixteen), a base register in the middle of the data with a
 * disp8, index elements that stay inside the data, or in one case in six
 * reach the unmapped page above it (a fault partway: the elements before
 * it are gathered), and random mask bits. The rows say NV so that the
 * generator copies no register over the index after this. */
static void fix_gather(struct diff_case *c, struct diff_rng *r) {
  unsigned w = (c->enc->opt & DIFF_O_W1) != 0, qidx = c->enc->op & 1;
  unsigned esz = w ? 8 : 4, isz = qidx ? 8 : 4, l = rnd(r, 2);
  unsigned d = rnd(r, 16), m, x, b;
  do m = rnd(r, 16); while (m == d);
  do x = rnd(r, 16); while (x == d || x == m);
  if (rnd(r, 16) == 0) {
    unsigned k = rnd(r, 3);
    if (k == 0) m = d;
    else if (k == 1) x = d;
    else x = m;
  }
  do b = rnd(r, 16); while (b == 4);
  unsigned scale = rnd(r, 4);
  int disp = (int)rnd(r, 64) - 32;
  c->st.gpr[b] = DIFF_DATA_ADDR + 4096;
  /* Index elements: byte offsets within the data, divided by the scale. */
  u8 *lo = xmm_at(c, x), *hi = c->st.ymmh + 16 * x;
  int fault = rnd(r, 6) == 0;
  for (unsigned i = 0; i < 32 / isz; i++) {
    i64 off = ((i64)rnd(r, 8000) - 4000 - disp) >> scale;
    if (fault && rnd(r, 3) == 0) off = (i64)(4096 + 64) >> scale;
    u8 *p = i * isz < 16 ? lo + i * isz : hi + i * isz - 16;
    if (isz == 4) {
      i32 v = (i32)off;
      memcpy(p, &v, 4);
    } else {
      memcpy(p, &off, 8);
    }
  }
  /* Mask: each element's top bit random, sometimes all set. */
  u8 *mlo = xmm_at(c, m), *mhi = c->st.ymmh + 16 * m;
  int all = rnd(r, 3) == 0;
  for (unsigned i = 0; i < 32 / esz; i++) {
    u8 *p = i * esz < 16 ? mlo + i * esz : mhi + i * esz - 16;
    p[esz - 1] = (u8)((p[esz - 1] & 0x7f) | (all || rnd(r, 2) ? 0x80 : 0));
  }
  u8 *code = c->code;
  unsigned n = 0;
  code[n++] = 0xc4;
  code[n++] = (u8)((!(d & 8) << 7) | (!(x & 8) << 6) | (!(b & 8) << 5) | 2);
  code[n++] = (u8)((w << 7) | ((~m & 15) << 3) | (l << 2) | 1);
  code[n++] = c->enc->op;
  code[n++] = (u8)(0x40 | ((d & 7) << 3) | 4);
  code[n++] = (u8)((scale << 6) | ((x & 7) << 3) | (b & 7));
  code[n++] = (u8)(i8)disp;
  c->len = (u8)n;
  c->memop = 1;
}

#define R DIFF_K_XMM
#define G DIFF_K_GPR
#define N DIFF_K_NONE
#define VX DIFF_ENC_VEX
#define M0F DIFF_MAP_0F
#define M38 DIFF_MAP_0F38
#define M3A DIFF_MAP_0F3A
#define IB DIFF_IMM_B
#define NI DIFF_IMM_NONE
#define NV DIFF_O_NOVVVV
#define VL DIFF_O_VL
#define L1 DIFF_O_L1
#define W1 DIFF_O_W1
#define MEM DIFF_O_MEM
#define REG DIFF_O_REG
#define FLT DIFF_O_FAULT
#define A16 DIFF_O_ALIGN16

static const struct diff_enc avx_encs[] = {
    {X86_INS_VMOVAPS, "vmovaps V,W", 0, M0F, 0x28, VX, -1, 0, NI, R, R, NV | VL | A16 | FLT, NULL},
    {X86_INS_VMOVAPS, "vmovaps W,V", 0, M0F, 0x29, VX, -1, 0, NI, R, R, NV | VL | A16 | FLT, NULL},
    {X86_INS_VMOVAPD, "vmovapd V,W", 0x66, M0F, 0x28, VX, -1, 0, NI, R, R, NV | VL | A16 | FLT, NULL},
    {X86_INS_VMOVAPD, "vmovapd W,V", 0x66, M0F, 0x29, VX, -1, 0, NI, R, R, NV | VL | A16 | FLT, NULL},
    {X86_INS_VMOVDQA, "vmovdqa V,W", 0x66, M0F, 0x6f, VX, -1, 0, NI, R, R, NV | VL | A16 | FLT, NULL},
    {X86_INS_VMOVDQA, "vmovdqa W,V", 0x66, M0F, 0x7f, VX, -1, 0, NI, R, R, NV | VL | A16 | FLT, NULL},
    {X86_INS_VMOVUPS, "vmovups V,W", 0, M0F, 0x10, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VMOVUPS, "vmovups W,V", 0, M0F, 0x11, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VMOVUPD, "vmovupd V,W", 0x66, M0F, 0x10, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VMOVUPD, "vmovupd W,V", 0x66, M0F, 0x11, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VMOVDQU, "vmovdqu V,W", 0xf3, M0F, 0x6f, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VMOVDQU, "vmovdqu W,V", 0xf3, M0F, 0x7f, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VLDDQU, "vlddqu V,M", 0xf2, M0F, 0xf0, VX, -1, 0, NI, R, R, NV | VL | MEM | FLT, NULL},
    {X86_INS_VMOVNTDQA, "vmovntdqa V,M", 0x66, M38, 0x2a, VX, -1, 0, NI, R, R, NV | VL | MEM | A16 | FLT, NULL},
    {X86_INS_VMOVNTPS, "vmovntps M,V", 0, M0F, 0x2b, VX, -1, 0, NI, R, R, NV | VL | MEM | A16 | FLT, NULL},
    {X86_INS_VMOVNTPD, "vmovntpd M,V", 0x66, M0F, 0x2b, VX, -1, 0, NI, R, R, NV | VL | MEM | A16 | FLT, NULL},
    {X86_INS_VMOVNTDQ, "vmovntdq M,V", 0x66, M0F, 0xe7, VX, -1, 0, NI, R, R, NV | VL | MEM | A16 | FLT, NULL},
    {X86_INS_VMOVSS, "vmovss V,M", 0xf3, M0F, 0x10, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVSS, "vmovss M,V", 0xf3, M0F, 0x11, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVSS, "vmovss V,V,U", 0xf3, M0F, 0x10, VX, -1, 0, NI, R, R, REG, NULL},
    {X86_INS_VMOVSS, "vmovss U,V,V", 0xf3, M0F, 0x11, VX, -1, 0, NI, R, R, REG, NULL},
    {X86_INS_VMOVSD, "vmovsd V,M", 0xf2, M0F, 0x10, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVSD, "vmovsd M,V", 0xf2, M0F, 0x11, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVSD, "vmovsd V,V,U", 0xf2, M0F, 0x10, VX, -1, 0, NI, R, R, REG, NULL},
    {X86_INS_VMOVSD, "vmovsd U,V,V", 0xf2, M0F, 0x11, VX, -1, 0, NI, R, R, REG, NULL},
    {X86_INS_VMOVLPS, "vmovlps V,V,M", 0, M0F, 0x12, VX, -1, 0, NI, R, R, MEM | FLT, NULL},
    {X86_INS_VMOVLPS, "vmovlps M,V", 0, M0F, 0x13, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVHPS, "vmovhps V,V,M", 0, M0F, 0x16, VX, -1, 0, NI, R, R, MEM | FLT, NULL},
    {X86_INS_VMOVHPS, "vmovhps M,V", 0, M0F, 0x17, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVLPD, "vmovlpd V,V,M", 0x66, M0F, 0x12, VX, -1, 0, NI, R, R, MEM | FLT, NULL},
    {X86_INS_VMOVLPD, "vmovlpd M,V", 0x66, M0F, 0x13, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVHPD, "vmovhpd V,V,M", 0x66, M0F, 0x16, VX, -1, 0, NI, R, R, MEM | FLT, NULL},
    {X86_INS_VMOVHPD, "vmovhpd M,V", 0x66, M0F, 0x17, VX, -1, 0, NI, R, R, NV | MEM | FLT, NULL},
    {X86_INS_VMOVHLPS, "vmovhlps V,V,U", 0, M0F, 0x12, VX, -1, 0, NI, R, R, REG, NULL},
    {X86_INS_VMOVLHPS, "vmovlhps V,V,U", 0, M0F, 0x16, VX, -1, 0, NI, R, R, REG, NULL},
    {X86_INS_VZEROUPPER, "vzeroupper", 0, M0F, 0x77, VX, -1, 0, NI, N, N, NV | DIFF_O_NOMODRM, NULL},
    {X86_INS_VZEROALL, "vzeroall", 0, M0F, 0x77, VX, -1, 0, NI, N, N, NV | L1 | DIFF_O_NOMODRM, NULL},
    {X86_INS_VTESTPS, "vtestps V,W", 0x66, M38, 0x0e, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VTESTPD, "vtestpd V,W", 0x66, M38, 0x0f, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VPBROADCASTB, "vpbroadcastb V,W", 0x66, M38, 0x78, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VPBROADCASTW, "vpbroadcastw V,W", 0x66, M38, 0x79, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VPBROADCASTD, "vpbroadcastd V,W", 0x66, M38, 0x58, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VPBROADCASTQ, "vpbroadcastq V,W", 0x66, M38, 0x59, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VBROADCASTSS, "vbroadcastss V,W", 0x66, M38, 0x18, VX, -1, 0, NI, R, R, NV | VL | FLT, NULL},
    {X86_INS_VBROADCASTSD, "vbroadcastsd V,W", 0x66, M38, 0x19, VX, -1, 0, NI, R, R, NV | L1 | FLT, NULL},
    {X86_INS_VBROADCASTF128, "vbroadcastf128 V,M", 0x66, M38, 0x1a, VX, -1, 0, NI, R, R, NV | L1 | MEM | FLT, NULL},
    /* Capstone 4 cannot decode vbroadcasti128; vexraw.c decodes it to the
     * vbroadcastf128 row, which moves the same bytes. */
    {X86_INS_VBROADCASTF128, "vbroadcasti128 V,M", 0x66, M38, 0x5a, VX, -1, 0, NI, R, R, NV | L1 | MEM | FLT, NULL},
    {X86_INS_VINSERTF128, "vinsertf128 V,V,W,I", 0x66, M3A, 0x18, VX, -1, 0, IB, R, R, L1 | FLT, NULL},
    {X86_INS_VINSERTI128, "vinserti128 V,V,W,I", 0x66, M3A, 0x38, VX, -1, 0, IB, R, R, L1 | FLT, NULL},
    {X86_INS_VEXTRACTF128, "vextractf128 W,V,I", 0x66, M3A, 0x19, VX, -1, 0, IB, R, R, NV | L1 | FLT, NULL},
    {X86_INS_VEXTRACTI128, "vextracti128 W,V,I", 0x66, M3A, 0x39, VX, -1, 0, IB, R, R, NV | L1 | FLT, NULL},
    {X86_INS_VPERM2F128, "vperm2f128 V,V,W,I", 0x66, M3A, 0x06, VX, -1, 0, IB, R, R, L1 | FLT, NULL},
    {X86_INS_VPERM2I128, "vperm2i128 V,V,W,I", 0x66, M3A, 0x46, VX, -1, 0, IB, R, R, L1 | FLT, NULL},
    {X86_INS_VPERMQ, "vpermq V,W,I", 0x66, M3A, 0x00, VX, -1, 0, IB, R, R, NV | L1 | W1 | FLT, NULL},
    {X86_INS_VPERMPD, "vpermpd V,W,I", 0x66, M3A, 0x01, VX, -1, 0, IB, R, R, NV | L1 | W1 | FLT, NULL},
    {X86_INS_VPERMD, "vpermd V,V,W", 0x66, M38, 0x36, VX, -1, 0, NI, R, R, L1 | FLT, NULL},
    {X86_INS_VPERMPS, "vpermps V,V,W", 0x66, M38, 0x16, VX, -1, 0, NI, R, R, L1 | FLT, NULL},
    {X86_INS_VPERMILPS, "vpermilps V,V,W", 0x66, M38, 0x0c, VX, -1, 0, NI, R, R, VL | FLT, NULL},
    {X86_INS_VPERMILPD, "vpermilpd V,V,W", 0x66, M38, 0x0d, VX, -1, 0, NI, R, R, VL | FLT, NULL},
    {X86_INS_VPERMILPS, "vpermilps V,W,I", 0x66, M3A, 0x04, VX, -1, 0, IB, R, R, NV | VL | FLT, NULL},
    {X86_INS_VPERMILPD, "vpermilpd V,W,I", 0x66, M3A, 0x05, VX, -1, 0, IB, R, R, NV | VL | FLT, NULL},
    {X86_INS_VPBLENDD, "vpblendd V,V,W,I", 0x66, M3A, 0x02, VX, -1, 0, IB, R, R, VL | FLT, NULL},
    {X86_INS_VPSLLVD, "vpsllvd V,V,W", 0x66, M38, 0x47, VX, -1, 0, NI, R, R, VL | FLT, fix_counts},
    {X86_INS_VPSLLVQ, "vpsllvq V,V,W", 0x66, M38, 0x47, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_counts},
    {X86_INS_VPSRLVD, "vpsrlvd V,V,W", 0x66, M38, 0x45, VX, -1, 0, NI, R, R, VL | FLT, fix_counts},
    {X86_INS_VPSRLVQ, "vpsrlvq V,V,W", 0x66, M38, 0x45, VX, -1, 0, NI, R, R, VL | W1 | FLT, fix_counts},
    {X86_INS_VPSRAVD, "vpsravd V,V,W", 0x66, M38, 0x46, VX, -1, 0, NI, R, R, VL | FLT, fix_counts},
    {X86_INS_VMASKMOVPS, "vmaskmovps V,V,M", 0x66, M38, 0x2c, VX, -1, 0, NI, R, R, VL | MEM | FLT, NULL},
    {X86_INS_VMASKMOVPS, "vmaskmovps M,V,V", 0x66, M38, 0x2e, VX, -1, 0, NI, R, R, VL | MEM | FLT, NULL},
    {X86_INS_VMASKMOVPD, "vmaskmovpd V,V,M", 0x66, M38, 0x2d, VX, -1, 0, NI, R, R, VL | MEM | FLT, NULL},
    {X86_INS_VMASKMOVPD, "vmaskmovpd M,V,V", 0x66, M38, 0x2f, VX, -1, 0, NI, R, R, VL | MEM | FLT, NULL},
    {X86_INS_VPMASKMOVD, "vpmaskmovd V,V,M", 0x66, M38, 0x8c, VX, -1, 0, NI, R, R, VL | MEM | FLT, NULL},
    {X86_INS_VPMASKMOVD, "vpmaskmovd M,V,V", 0x66, M38, 0x8e, VX, -1, 0, NI, R, R, VL | MEM | FLT, NULL},
    {X86_INS_VPMASKMOVQ, "vpmaskmovq V,V,M", 0x66, M38, 0x8c, VX, -1, 0, NI, R, R, VL | W1 | MEM | FLT, NULL},
    {X86_INS_VPMASKMOVQ, "vpmaskmovq M,V,V", 0x66, M38, 0x8e, VX, -1, 0, NI, R, R, VL | W1 | MEM | FLT, NULL},
    {X86_INS_VPGATHERDD, "vpgatherdd V,Mv,V", 0x66, M38, 0x90, VX, -1, 0, NI, R, R, VL | NV | MEM, fix_gather},
    {X86_INS_VPGATHERDQ, "vpgatherdq V,Mv,V", 0x66, M38, 0x90, VX, -1, 0, NI, R, R, VL | W1 | NV | MEM, fix_gather},
    {X86_INS_VPGATHERQD, "vpgatherqd V,Mv,V", 0x66, M38, 0x91, VX, -1, 0, NI, R, R, VL | NV | MEM, fix_gather},
    {X86_INS_VPGATHERQQ, "vpgatherqq V,Mv,V", 0x66, M38, 0x91, VX, -1, 0, NI, R, R, VL | W1 | NV | MEM, fix_gather},
    {X86_INS_VGATHERDPS, "vgatherdps V,Mv,V", 0x66, M38, 0x92, VX, -1, 0, NI, R, R, VL | NV | MEM, fix_gather},
    {X86_INS_VGATHERDPD, "vgatherdpd V,Mv,V", 0x66, M38, 0x92, VX, -1, 0, NI, R, R, VL | W1 | NV | MEM, fix_gather},
    {X86_INS_VGATHERQPS, "vgatherqps V,Mv,V", 0x66, M38, 0x93, VX, -1, 0, NI, R, R, VL | NV | MEM, fix_gather},
    {X86_INS_VGATHERQPD, "vgatherqpd V,Mv,V", 0x66, M38, 0x93, VX, -1, 0, NI, R, R, VL | W1 | NV | MEM, fix_gather},
};

const struct diff_family diff_cases_avx = {"avx", avx_encs,
                                           sizeof avx_encs / sizeof avx_encs[0]};
