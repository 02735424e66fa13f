/* SPDX-License-Identifier: MIT */
/* Differential cases of the EVEX (AVX-512) instructions, the VEX opmask
 * instructions and AVX-VNNI: one encoding per row of the emulator's own
 * tables (replayer/cpu/evex_ops.c and the others), so that every row the
 * emulator runs is tested and a new row is tested the day it is added. The rows give the opcode,
 * map, prefix, W, operand form and tuple; the generator (diff_gen.c) picks
 * the vector length, opmask, zeroing, broadcast, registers 0-31 and the
 * memory operand, and in one case in sixteen breaks one of the row's rules
 * (a vector length, an opmask or zeroing it does not allow, EVEX.b on a
 * register form, a vvvv it does not use), where the CPU's #UD is the
 * reference. Capstone 4 cannot name most of these instructions, so the
 * CPU alone judges what the bytes mean: a row the emulator decodes
 * differently from the CPU shows up as a difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/cpu/evex.h"
#include "tests/cpu/cases_sse.h"
#include "tests/cpu/diff_int.h"

/* Intel's operand letters of each form (evex.h), for reports. */
static const char *form_text(unsigned form) {
  switch (form) {
    case F_VHW: return "V,H,W";
    case F_VHWI: return "V,H,W,I";
    case F_VW: return "V,W";
    case F_VWI: return "V,W,I";
    case F_WV: return "W,V";
    case F_WVI: return "W,V,I";
    case F_HWI: return "H,W,I";
    case F_KHW: return "K,H,W";
    case F_KHWI: return "K,H,W,I";
    case F_KWI: return "K,W,I";
    case F_KU: return "K,U";
    case F_VK: return "V,K";
    case F_VR: return "V,R";
    case F_VE: return "V,E";
    case F_EV: return "E,V";
    case F_VHE: return "V,H,E";
    case F_VHEI: return "V,H,E,I";
    case F_GW: return "G,W";
    case F_GWI: return "G,W,I";
    case F_EVI: return "E,V,I";
    case F_KKM: return "K,KM";
    case F_MK: return "M,K";
    case F_KR: return "K,R";
    case F_RK: return "R,K";
    case F_KKK: return "K,K,K";
    case F_KK: return "K,K";
    default: return "K,K,I";
  }
}

static int has_imm(unsigned form) {
  return form == F_VHWI || form == F_VWI || form == F_WVI || form == F_HWI ||
         form == F_KHWI || form == F_KWI || form == F_KKI ||
         form == F_VHEI || form == F_GWI || form == F_EVI;
}

/* The register kinds of the reg and rm operands of FORM. */
static void kinds(unsigned form, u8 *regk, u8 *rmk) {
  *regk = DIFF_K_XMM;
  *rmk = DIFF_K_XMM;
  switch (form) {
    case F_KHW:
    case F_KHWI:
    case F_KWI:
    case F_KU: *regk = DIFF_K_K; break;
    case F_VK: *rmk = DIFF_K_K; break;
    case F_VR:
    case F_VE:
    case F_EV:
    case F_VHE:
    case F_VHEI:
    case F_EVI: *rmk = DIFF_K_GPR; break;
    case F_GW:
    case F_GWI: *regk = DIFF_K_GPR; break;
    case F_HWI: *regk = DIFF_K_NONE; break;
    case F_KKM:
    case F_KKK:
    case F_KK:
    case F_KKI: *regk = *rmk = DIFF_K_K; break;
    case F_MK: *regk = *rmk = DIFF_K_K; break; /* rm: memory only */
    case F_KR: *regk = DIFF_K_K, *rmk = DIFF_K_GPR; break;
    case F_RK: *regk = DIFF_K_GPR, *rmk = DIFF_K_K; break;
    default: break;
  }
}

/* Writes the 64 bytes V into ZMM register R of C. */
static void zmm_set(struct diff_case *c, unsigned r, const u8 *v) {
  if (r >= 16) {
    memcpy(c->st.hi16 + 64 * (r - 16), v, 64);
    return;
  }
  memcpy(c->st.fx + 160 + 16 * r, v, 16);
  memcpy(c->st.ymmh + 16 * r, v + 16, 16);
  memcpy(c->st.zmmh + 32 * r, v + 32, 32);
}

/* The integer sources of the conversions to halves: their size, else 0. */
static unsigned int_to_half(unsigned id) {
  switch (id) {
    case CPU_INS_EV_vcvtw2ph:
    case CPU_INS_EV_vcvtuw2ph: return 2;
    case CPU_INS_EV_vcvtdq2ph:
    case CPU_INS_EV_vcvtudq2ph: return 4;
    case CPU_INS_EV_vcvtqq2ph:
    case CPU_INS_EV_vcvtuqq2ph:
    case CPU_INS_EV_vcvtsi2sh:
    case CPU_INS_EV_vcvtusi2sh: return 8;
    default: return 0;
  }
}

/* An edge value of an element of ESZ bytes: a half (HALF), single or
 * double, or (INT) an integer around the ends of the halves' range and
 * their precision. */
static u64 edge_of(struct diff_rng *r, unsigned esz, int half, int integer) {
  if (integer) return i2h_edge(r);
  if (half) return f16_edge(r);
  return esz == 4 ? f32_edge(r) : f64_edge(r);
}

/* Floating-point rows: a random MXCSR (rounding, DAZ, FTZ, unmasked
 * exceptions) and edge values (NaNs, infinities, denormals, values that
 * overflow or underflow) in the source registers and the memory operand,
 * with elements of the row's size, halves for the rows with R_F16, and
 * integers for the conversions of integers to halves. */
static void fix_fp(struct diff_case *c, struct diff_rng *r) {
  const struct ev_row *row = diff_evex_row(c->enc);
  int half = row && (row->fl & R_F16);
  unsigned isz = row ? int_to_half(row->id) : 0;
  unsigned esz = half ? 2 : isz ? isz : row && row->esz == 8 ? 8 : 4;
  u8 v[64];
  set_mxcsr(c, rand_mxcsr(r));
  for (unsigned k = 0; k < 3; k++) {
    unsigned reg = k == 0 ? c->vreg : k == 1 ? c->rm : c->reg;
    if ((k == 1 && c->memop) || (k == 2 && c->enc->regk != DIFF_K_XMM) ||
        !rnd(r, 4))
      continue;
    if (k == 1 && c->enc->rmk == DIFF_K_GPR) { /* vcvtsi2sh... */
      c->st.gpr[reg & 15] = edge_of(r, esz, half, isz != 0);
      continue;
    }
    for (unsigned i = 0; i < 64; i += esz) {
      u64 x = edge_of(r, esz, half, isz != 0);
      memcpy(v + i, &x, esz);
    }
    zmm_set(c, reg, v);
  }
  u8 *m = mem_at(c, 64);
  for (unsigned i = 0; m && i < 64; i += esz) {
    u64 x = edge_of(r, esz, half, isz != 0);
    if (rnd(r, 4)) memcpy(m + i, &x, esz);
  }
}

/* Gathers and scatters: the generic encoder has no VSIB, so this writes
 * the whole instruction: EVEX.66.0F38 with the row's opcode and W, a
 * random length, destination (or source) and index registers 0-31 (the
 * same, which a gather must refuse, in one case in sixteen), an opmask
 * k1-k7 with random bits (k0, #UD, in one case in sixteen), a base in the
 * middle of the data with a disp8 scaled by the element size, and index
 * elements that stay inside the data, or in one case in five reach the
 * unmapped page above it or the read-only one below it (a fault part
 * way: the elements before it are done). */
static void fix_vsib(struct diff_case *c, struct diff_rng *r) {
  const struct ev_row *row = diff_evex_row(c->enc);
  unsigned esz = row->esz, isz = (row->op & 1) ? 8 : 4, w = row->w == W1;
  unsigned ll = rnd(r, 3), vl = 16u << ll;
  unsigned n = vl / (esz > isz ? esz : isz);
  unsigned d = rnd(r, 32), x, b, aaa = 1 + rnd(r, 7);
  do x = rnd(r, 32); while (x == d && rnd(r, 16));
  do b = rnd(r, 16); while (b == 4);
  if (!rnd(r, 16)) aaa = 0;
  unsigned scale = rnd(r, 4);
  int d8 = (int)rnd(r, 64) - 32, disp = d8 * (int)esz;
  int fault = rnd(r, 5) == 0;
  u8 v[64];
  c->st.gpr[b] = DIFF_DATA_ADDR + 4096;
  memset(v, 0, sizeof v);
  for (unsigned i = 0; i < n; i++) {
    i64 off = ((i64)rnd(r, 7900) - 3950 - disp) >> scale;
    if (fault && !rnd(r, 3))
      off = (rnd(r, 2) ? (i64)(4096 + 64) : -(i64)(4096 + 512)) >> scale;
    if (isz == 4) {
      i32 t = (i32)off;
      memcpy(v + 4 * i, &t, 4);
    } else {
      memcpy(v + 8 * i, &off, 8);
    }
  }
  zmm_set(c, x, v);
  c->st.k[aaa] = rnd(r, 4) ? diff_rand(r) : ~0ull;
  u8 *code = c->code;
  unsigned k = 0;
  code[k++] = 0x62;
  code[k++] = (u8)((!(d & 8) << 7) | (!(x & 8) << 6) | (!(b & 8) << 5) |
                   (!(d & 16) << 4) | 2);
  code[k++] = (u8)((w << 7) | (15 << 3) | 4 | 1);
  code[k++] = (u8)((ll << 5) | (!(x & 16) << 3) | aaa);
  code[k++] = row->op;
  code[k++] = (u8)(0x40 | ((d & 7) << 3) | 4);
  code[k++] = (u8)((scale << 6) | ((x & 7) << 3) | (b & 7));
  code[k++] = (u8)(i8)d8;
  c->len = (u8)k;
  c->memop = 1;
  c->vl = (u8)ll;
  c->aaa = (u8)aaa;
  c->reg = (u8)d;
  c->index = (u8)x;
  c->base = (u8)b;
}

/* Whether R is one of the N rows at T. */
static int in_table(const struct ev_row *r, const struct ev_row *t,
                    size_t n) {
  return r >= t && r < t + n;
}

static struct diff_enc *encs;
static const struct ev_row **rows_of;
static size_t nencs;

/* Adds one encoding for row R of an EVEX (EVEX nonzero) or VEX opmask
 * table, named through CS. */
static int add(csh cs, const struct ev_row *r, int evex) {
  static const u8 pfx[4] = {0, 0x66, 0xf3, 0xf2};
  char text[64];
  struct diff_enc *e = &encs[nencs];
  snprintf(text, sizeof text, "%s %s%s", cpu__insn_name(cs, r->id),
           form_text(r->form), evex ? "" : " (vex)");
  char *t = strdup(text);
  if (!t) return -1;
  memset(e, 0, sizeof *e);
  e->id = r->id;
  e->text = t;
  e->pfx = pfx[r->pp & 3];
  e->map = r->map == MAP_0F38   ? DIFF_MAP_0F38
           : r->map == MAP_0F3A ? DIFF_MAP_0F3A
           : r->map == MAP_5    ? DIFF_MAP_5
           : r->map == MAP_6    ? DIFF_MAP_6
                                : DIFF_MAP_0F;
  e->op = r->op;
  e->enc = evex                ? DIFF_ENC_EVEX
           : r->form == F_VHW ? DIFF_ENC_VEX /* AVX-VNNI */
                              : DIFF_ENC_KVEX;
  e->ext = r->ext == EXT_ANY ? -1 : (i8)r->ext;
  e->imm = has_imm(r->form) ? DIFF_IMM_B : DIFF_IMM_NONE;
  kinds(r->form, &e->regk, &e->rmk);
  if (r->fl & R_MEM) e->opt |= DIFF_O_MEM;
  if (r->fl & R_REG) e->opt |= DIFF_O_REG;
  if (r->form == F_MK) e->opt |= DIFF_O_MEM;
  if (r->w == W1) e->opt |= DIFF_O_W1;
  if (!evex && r->form != F_KKK && r->form != F_VHW) e->opt |= DIFF_O_NOVVVV;
  if (!evex && r->form == F_VHW) e->opt |= DIFF_O_VL;
  if (!evex && (r->fl & R_L1)) e->opt |= DIFF_O_L1;
  e->opt |= DIFF_O_FAULT;
  if ((r->fl & (R_ER | R_SAE | R_FP)) || in_table(r, cpu__evex_fp_rows,
                                           cpu__evex_fp_nrows) ||
      in_table(r, cpu__evex_fpx_rows, cpu__evex_fpx_nrows))
    e->fix = fix_fp;
  if (r->fl & R_VSIB) e->fix = fix_vsib;
  rows_of[nencs++] = r;
  return 0;
}

const struct diff_enc *diff_evex_encs(size_t *n) {
  if (!encs) {
    size_t cap = 0;
    for (const struct ev_table *t = cpu__evex_tables; t->rows; t++)
      cap += *t->n;
    for (const struct ev_table *t = cpu__vex_tables; t->rows; t++)
      cap += *t->n;
    csh cs;
    encs = calloc(cap, sizeof *encs);
    rows_of = calloc(cap, sizeof *rows_of);
    if (!encs || !rows_of ||
        cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
      *n = 0;
      return NULL;
    }
    for (const struct ev_table *t = cpu__vex_tables; t->rows; t++)
      for (size_t i = 0; i < *t->n; i++)
        if (add(cs, &t->rows[i], 0)) break;
    for (const struct ev_table *t = cpu__evex_tables; t->rows; t++)
      for (size_t i = 0; i < *t->n; i++)
        if (add(cs, &t->rows[i], 1)) break;
    cs_close(&cs);
  }
  *n = nencs;
  return encs;
}

const struct ev_row *diff_evex_row(const struct diff_enc *e) {
  return encs && e >= encs && e < encs + nencs ? rows_of[e - encs] : NULL;
}
