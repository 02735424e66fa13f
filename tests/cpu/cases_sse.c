/* SPDX-License-Identifier: MIT */
/* Differential cases of the SSE moves and state instructions (sse_mov.c,
 * sse_state.c): every load, store and register form of the moves, aligned
 * and misaligned and faulting memory, ldmxcsr with reserved bits, fxsave and
 * fxrstor in both layouts, and the XSAVE family on the x87, SSE, AVX and
 * AVX-512 components, in both formats, with areas that run into the guard
 * page (every case starts from random or all-zero vector state, whose
 * in-use bits are then the same natively and in the emulator). */
#include <string.h>

#include "tests/cpu/cases_sse.h"


/* Whether register X holds part of the memory operand's address. */
static int addr_reg(const struct diff_case *c, unsigned x) {
  return c->memop && (c->base == x || c->index == x);
}

/* Moves the memory operand to ADDR by changing its base register (or its
 * index register); returns 0 if it cannot (rip-relative or absolute). */
static int move_mem(struct diff_case *c, u64 addr) {
  if (!c->memop || c->base >= 16) return 0;
  c->st.gpr[c->base] += addr - c->mem_addr;
  c->mem_addr = addr;
  return 1;
}

static void fix_mxcsr(struct diff_case *c, struct diff_rng *r) {
  set_mxcsr(c, rand_mxcsr(r));
}

static void fix_ldmxcsr(struct diff_case *c, struct diff_rng *r) {
  u8 *p = mem_at(c, 4);
  u32 v = rand_mxcsr(r);
  if (rnd(r, 8) == 0) v |= 1u << (16 + rnd(r, 16));
  if (p) memcpy(p, &v, 4);
}

static void fix_maskmov(struct diff_case *c, struct diff_rng *r) {
  u8 *m = xmm_at(c, c->rm);
  for (int i = 0; i < 16; i++) m[i] = rnd(r, 2) ? 0x80 | (u8)rnd(r, 128) : (u8)rnd(r, 128);
  if (rnd(r, 8) == 0) memset(m, 0, 16);
  unsigned k = rnd(r, 16);
  c->st.gpr[7] = k == 0 ? DIFF_RO_ADDR + rnd(r, 4000)
                        : k == 1 ? DIFF_GUARD_ADDR - rnd(r, 16)
                                 : DIFF_DATA_ADDR + rnd(r, DIFF_DATA_SIZE - 16);
}

/* A random x87 state that is not the initial one. */
static void rand_x87(struct diff_case *c, struct diff_rng *r) {
  u16 fcw = (u16)(0x40 | (rnd(r, 2) ? 0x37f : (diff_rand(r) & 0xf3f)));
  if (fcw == 0x37f) fcw = 0x27f;
  memcpy(c->st.fx, &fcw, 2);
  c->st.fx[4] = (u8)diff_rand(r); /* abridged tags */
  for (int i = 0; i < 8; i++) {
    u64 m = diff_rand(r) | (1ull << 63);
    u16 se = (u16)(0x3fff + rnd(r, 64) - 32) | (rnd(r, 2) ? 0x8000 : 0);
    memcpy(c->st.fx + 32 + 16 * i, &m, 8);
    memcpy(c->st.fx + 40 + 16 * i, &se, 2);
  }
}

static void fix_fxsave(struct diff_case *c, struct diff_rng *r) {
  rand_x87(c, r);
  set_mxcsr(c, rand_mxcsr(r));
  if (rnd(r, 8)) move_mem(c, DIFF_DATA_ADDR + 16 * rnd(r, (DIFF_DATA_SIZE - 512) / 16));
}

static void fix_fxrstor(struct diff_case *c, struct diff_rng *r) {
  if (rnd(r, 8)) move_mem(c, DIFF_DATA_ADDR + 16 * rnd(r, (DIFF_DATA_SIZE - 512) / 16));
  u8 *p = mem_at(c, 512);
  if (!p) return;
  struct diff_case t;
  memcpy(t.st.fx, c->st.fx, 512);
  rand_x87(&t, r);
  memcpy(p, t.st.fx, 24);
  memcpy(p + 32, t.st.fx + 32, 128);
  u16 fsw = (u16)diff_rand(r);
  memcpy(p + 2, &fsw, 2);
  u32 mx = rand_mxcsr(r);
  if (rnd(r, 10) == 0) mx |= 1u << (16 + rnd(r, 16));
  memcpy(p + 24, &mx, 4);
}

/* The XSAVE family on components 0 and 1 (x87 made non-initial, XMM random
 * so not initial either). */
static void xs_common(struct diff_case *c, struct diff_rng *r) {
  rand_x87(c, r);
  set_mxcsr(c, rand_mxcsr(r));
  u64 at = DIFF_DATA_ADDR + 64 * rnd(r, (DIFF_DATA_SIZE - 2752) / 64);
  if (addr_reg(c, 0) || addr_reg(c, 2)) {
    /* edx:eax is part of the address: make it a misalignment #GP case. */
    move_mem(c, at + 8 + 8 * rnd(r, 7));
    if (!(c->mem_addr & 63)) c->flags_defined = 0;
    return;
  }
  if (rnd(r, 8)) move_mem(c, at);
  c->st.gpr[0] = (rnd(r, 8) | (rnd(r, 8) << 5)) |
                 (diff_rand(r) & ~0xffull & ~0xffffffffull);
  c->st.gpr[2] = diff_rand(r) & ~0xffffffffull;
}

static void fix_xsave(struct diff_case *c, struct diff_rng *r) {
  xs_common(c, r);
}

static void fix_xrstor(struct diff_case *c, struct diff_rng *r) {
  xs_common(c, r);
  /* Where the area runs into the guard page past the legacy region and
   * header, this AMD CPU names the last byte of the access that faulted
   * (a 64-byte line, or a whole component), in an order the manuals do not
   * give; the emulator names the page's first byte. A replay takes
   * si_addr from the recording. */
  c->fault_page = (c->st.gpr[0] & 0xe4) != 0;
  u8 *p = mem_at(c, 576);
  if (!p) return;
  struct diff_case t;
  memcpy(t.st.fx, c->st.fx, 512);
  rand_x87(&t, r);
  memcpy(p, t.st.fx, 24);
  memcpy(p + 32, t.st.fx + 32, 128);
  u32 mx = rand_mxcsr(r);
  if (rnd(r, 10) == 0) mx |= 1u << (16 + rnd(r, 16));
  memcpy(p + 24, &mx, 4);
  u64 bv = rnd(r, 8) | (rnd(r, 8) << 5);
  u64 comp = rnd(r, 2) ? 0 : (1ull << 63) | bv | rnd(r, 8) | (rnd(r, 8) << 5);
  memcpy(p + 512, &bv, 8);
  memcpy(p + 520, &comp, 8);
  memset(p + 528, 0, 48);
  if (rnd(r, 10) == 0) p[512 + 16 + rnd(r, 48)] = 1; /* reserved: #GP */
}

static const struct diff_enc sse_encs[] = {
    {X86_INS_MOVAPS, "movaps V,W", 0, DIFF_MAP_0F, 0x28, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVAPS, "movaps W,V", 0, DIFF_MAP_0F, 0x29, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVAPD, "movapd V,W", 0x66, DIFF_MAP_0F, 0x28, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVAPD, "movapd W,V", 0x66, DIFF_MAP_0F, 0x29, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVDQA, "movdqa V,W", 0x66, DIFF_MAP_0F, 0x6f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVDQA, "movdqa W,V", 0x66, DIFF_MAP_0F, 0x7f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVUPS, "movups V,W", 0, DIFF_MAP_0F, 0x10, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVUPS, "movups W,V", 0, DIFF_MAP_0F, 0x11, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVUPD, "movupd V,W", 0x66, DIFF_MAP_0F, 0x10, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVUPD, "movupd W,V", 0x66, DIFF_MAP_0F, 0x11, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVDQU, "movdqu V,W", 0xf3, DIFF_MAP_0F, 0x6f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVDQU, "movdqu W,V", 0xf3, DIFF_MAP_0F, 0x7f, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_LDDQU, "lddqu V,M", 0xf2, DIFF_MAP_0F, 0xf0, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVNTDQA, "movntdqa V,M", 0x66, DIFF_MAP_0F38, 0x2a, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVNTPS, "movntps M,V", 0, DIFF_MAP_0F, 0x2b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVNTPD, "movntpd M,V", 0x66, DIFF_MAP_0F, 0x2b, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVNTDQ, "movntdq M,V", 0x66, DIFF_MAP_0F, 0xe7, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVSS, "movss V,W", 0xf3, DIFF_MAP_0F, 0x10, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVSS, "movss W,V", 0xf3, DIFF_MAP_0F, 0x11, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVSD, "movsd V,W", 0xf2, DIFF_MAP_0F, 0x10, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVSD, "movsd W,V", 0xf2, DIFF_MAP_0F, 0x11, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVQ, "movq V,Wq", 0xf3, DIFF_MAP_0F, 0x7e, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVQ, "movq Wq,V", 0x66, DIFF_MAP_0F, 0xd6, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVQ, "movq V,Eq", 0x66, DIFF_MAP_0F, 0x6e, DIFF_ENC_MODRM, -1, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_MOVQ, "movq Eq,V", 0x66, DIFF_MAP_0F, 0x7e, DIFF_ENC_MODRM, -1, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_MOVD, "movd V,Ed", 0x66, DIFF_MAP_0F, 0x6e, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_MOVD, "movd Ed,V", 0x66, DIFF_MAP_0F, 0x7e, DIFF_ENC_MODRM, -1, DIFF_SZ32, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT, NULL},
    {X86_INS_MOVLPS, "movlps V,M", 0, DIFF_MAP_0F, 0x12, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVLPS, "movlps M,V", 0, DIFF_MAP_0F, 0x13, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVLPD, "movlpd V,M", 0x66, DIFF_MAP_0F, 0x12, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVLPD, "movlpd M,V", 0x66, DIFF_MAP_0F, 0x13, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVHPS, "movhps V,M", 0, DIFF_MAP_0F, 0x16, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVHPS, "movhps M,V", 0, DIFF_MAP_0F, 0x17, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVHPD, "movhpd V,M", 0x66, DIFF_MAP_0F, 0x16, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVHPD, "movhpd M,V", 0x66, DIFF_MAP_0F, 0x17, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, NULL},
    {X86_INS_MOVHLPS, "movhlps V,U", 0, DIFF_MAP_0F, 0x12, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_REG, NULL},
    {X86_INS_MOVLHPS, "movlhps V,U", 0, DIFF_MAP_0F, 0x16, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_REG, NULL},
    {X86_INS_MOVDDUP, "movddup V,W", 0xf2, DIFF_MAP_0F, 0x12, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT, NULL},
    {X86_INS_MOVSLDUP, "movsldup V,W", 0xf3, DIFF_MAP_0F, 0x12, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVSHDUP, "movshdup V,W", 0xf3, DIFF_MAP_0F, 0x16, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT, NULL},
    {X86_INS_MOVMSKPS, "movmskps G,U", 0, DIFF_MAP_0F, 0x50, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_REG, NULL},
    {X86_INS_MOVMSKPD, "movmskpd G,U", 0x66, DIFF_MAP_0F, 0x50, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_REG, NULL},
    {X86_INS_PMOVMSKB, "pmovmskb G,U", 0x66, DIFF_MAP_0F, 0xd7, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_REG, NULL},
    {X86_INS_MASKMOVDQU, "maskmovdqu V,U", 0x66, DIFF_MAP_0F, 0xf7, DIFF_ENC_MODRM, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_REG, fix_maskmov},
    {X86_INS_LDMXCSR, "ldmxcsr Md", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 2, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, fix_ldmxcsr},
    {X86_INS_STMXCSR, "stmxcsr Md", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 3, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT, fix_mxcsr},
    {X86_INS_FXSAVE, "fxsave M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 0, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_fxsave},
    {X86_INS_FXSAVE64, "fxsave64 M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 0, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_fxsave},
    {X86_INS_FXRSTOR, "fxrstor M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 1, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_fxrstor},
    {X86_INS_FXRSTOR64, "fxrstor64 M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 1, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_fxrstor},
    {X86_INS_XSAVE, "xsave M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 4, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xsave},
    {X86_INS_XSAVE64, "xsave64 M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 4, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xsave},
    {X86_INS_XSAVEOPT, "xsaveopt M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 6, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xsave},
    {X86_INS_XSAVEOPT64, "xsaveopt64 M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 6, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xsave},
    {X86_INS_XSAVEC, "xsavec M", 0, DIFF_MAP_0F, 0xc7, DIFF_ENC_MODRM, 4, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xsave},
    {X86_INS_XSAVEC64, "xsavec64 M", 0, DIFF_MAP_0F, 0xc7, DIFF_ENC_MODRM, 4, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xsave},
    {X86_INS_XRSTOR, "xrstor M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 5, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xrstor},
    {X86_INS_XRSTOR64, "xrstor64 M", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_MODRM, 5, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT, fix_xrstor},
};

const struct diff_family diff_cases_sse = {"sse", sse_encs,
                                           sizeof sse_encs / sizeof sse_encs[0]};

/* The VEX forms of the rows above (AVX, AVX2): the same opcodes with
 * a VEX prefix, 256 bits where the instruction has them, vvvv as the
 * first source where it is one. */
static const struct diff_enc sse_vex_encs[] = {
    {X86_INS_VMASKMOVDQU, "vmaskmovdqu V,U", 0x66, DIFF_MAP_0F, 0xf7, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_REG | DIFF_O_NOVVVV, fix_maskmov},
    {X86_INS_VLDMXCSR, "vldmxcsr Md", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_VEX, 2, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT | DIFF_O_NOVVVV, fix_ldmxcsr},
    {X86_INS_VSTMXCSR, "vstmxcsr Md", 0, DIFF_MAP_0F, 0xae, DIFF_ENC_VEX, 3, 0, DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT | DIFF_O_NOVVVV, fix_mxcsr},
    {X86_INS_VMOVAPS, "vmovaps V,W", 0, DIFF_MAP_0F, 0x28, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVAPS, "vmovaps W,V", 0, DIFF_MAP_0F, 0x29, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVAPD, "vmovapd V,W", 0x66, DIFF_MAP_0F, 0x28, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVAPD, "vmovapd W,V", 0x66, DIFF_MAP_0F, 0x29, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVDQA, "vmovdqa V,W", 0x66, DIFF_MAP_0F, 0x6f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVDQA, "vmovdqa W,V", 0x66, DIFF_MAP_0F, 0x7f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVUPS, "vmovups V,W", 0, DIFF_MAP_0F, 0x10, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVUPS, "vmovups W,V", 0, DIFF_MAP_0F, 0x11, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVUPD, "vmovupd V,W", 0x66, DIFF_MAP_0F, 0x10, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVUPD, "vmovupd W,V", 0x66, DIFF_MAP_0F, 0x11, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVDQU, "vmovdqu V,W", 0xf3, DIFF_MAP_0F, 0x6f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVDQU, "vmovdqu W,V", 0xf3, DIFF_MAP_0F, 0x7f, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VLDDQU, "vlddqu V,M", 0xf2, DIFF_MAP_0F, 0xf0, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVNTDQA, "vmovntdqa V,M", 0x66, DIFF_MAP_0F38, 0x2a, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVNTPS, "vmovntps M,V", 0, DIFF_MAP_0F, 0x2b, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVNTPD, "vmovntpd M,V", 0x66, DIFF_MAP_0F, 0x2b, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVNTDQ, "vmovntdq M,V", 0x66, DIFF_MAP_0F, 0xe7, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_MEM | DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVQ, "vmovq V,Wq", 0xf3, DIFF_MAP_0F, 0x7e, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, NULL},
    {X86_INS_VMOVQ, "vmovq Wq,V", 0x66, DIFF_MAP_0F, 0xd6, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV, NULL},
    {X86_INS_VMOVQ, "vmovq V,Eq", 0x66, DIFF_MAP_0F, 0x6e, DIFF_ENC_VEX, -1, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT | DIFF_O_NOVVVV, NULL},
    {X86_INS_VMOVQ, "vmovq Eq,V", 0x66, DIFF_MAP_0F, 0x7e, DIFF_ENC_VEX, -1, DIFF_SZ64, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT | DIFF_O_NOVVVV, NULL},
    {X86_INS_VMOVD, "vmovd V,Ed", 0x66, DIFF_MAP_0F, 0x6e, DIFF_ENC_VEX, -1, DIFF_SZ32, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT | DIFF_O_NOVVVV, NULL},
    {X86_INS_VMOVD, "vmovd Ed,V", 0x66, DIFF_MAP_0F, 0x7e, DIFF_ENC_VEX, -1, DIFF_SZ32, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_GPR, DIFF_O_FAULT | DIFF_O_NOVVVV, NULL},
    {X86_INS_VMOVDDUP, "vmovddup V,W", 0xf2, DIFF_MAP_0F, 0x12, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVSLDUP, "vmovsldup V,W", 0xf3, DIFF_MAP_0F, 0x12, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVSHDUP, "vmovshdup V,W", 0xf3, DIFF_MAP_0F, 0x16, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_XMM, DIFF_K_XMM, DIFF_O_ALIGN16 | DIFF_O_FAULT | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVMSKPS, "vmovmskps G,U", 0, DIFF_MAP_0F, 0x50, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_REG | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VMOVMSKPD, "vmovmskpd G,U", 0x66, DIFF_MAP_0F, 0x50, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_REG | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
    {X86_INS_VPMOVMSKB, "vpmovmskb G,U", 0x66, DIFF_MAP_0F, 0xd7, DIFF_ENC_VEX, -1, 0, DIFF_IMM_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_O_REG | DIFF_O_NOVVVV | DIFF_O_VL, NULL},
};

const struct diff_family diff_cases_sse_vex = {
    "sse_vex", sse_vex_encs,
    sizeof sse_vex_encs / sizeof sse_vex_encs[0]};
