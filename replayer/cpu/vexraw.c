/* SPDX-License-Identifier: MIT */
/* VEX instructions Capstone 4 cannot decode, decoded here from their bytes
 * into the same cs_insn detail Capstone would give, so that decode.c
 * matches them against the ordinary table rows and their handlers:
 *
 *   vbroadcasti128 ymm, m128        VEX.256.66.0F38.W0 5A /r
 *       (the row of vbroadcastf128: the same bytes move, and the id in
 *       messages and counts is vbroadcastf128's)
 *   vaesenc/vaesenclast/vaesdec/vaesdeclast ymm, ymm, ymm/m256
 *                                   VEX.256.66.0F38.WIG DC-DF /r (VAES)
 *   vpclmulqdq ymm, ymm, ymm/m256, imm8
 *                                   VEX.256.66.0F3A.WIG 44 /r ib
 *
 * Anything else stays undecodable and stops the replay with its bytes. */
#include "replayer/cpu/cpu_int.h"

enum { MAP_0F38 = 2, MAP_0F3A = 3 };
enum { ANY = -1 };

struct raw_row {
  u8 map, op;
  i8 w;      /* VEX.W required, or ANY */
  u8 l;      /* VEX.L required */
  u8 memonly;
  u8 vvvv;   /* vvvv names the second operand (else must be 1111) */
  u8 imm;    /* an imm8 follows */
  u8 msz;    /* memory operand size */
  u16 id;
  const char *mnemonic;
};

static const struct raw_row raw_rows[] = {
    {MAP_0F38, 0x5a, 0, 1, 1, 0, 0, 16, X86_INS_VBROADCASTF128,
     "vbroadcasti128"},
    {MAP_0F38, 0xdc, ANY, 1, 0, 1, 0, 32, X86_INS_VAESENC, "vaesenc"},
    {MAP_0F38, 0xdd, ANY, 1, 0, 1, 0, 32, X86_INS_VAESENCLAST, "vaesenclast"},
    {MAP_0F38, 0xde, ANY, 1, 0, 1, 0, 32, X86_INS_VAESDEC, "vaesdec"},
    {MAP_0F38, 0xdf, ANY, 1, 0, 1, 0, 32, X86_INS_VAESDECLAST, "vaesdeclast"},
    {MAP_0F3A, 0x44, ANY, 1, 0, 1, 1, 32, X86_INS_VPCLMULQDQ, "vpclmulqdq"},
};

static const x86_reg gpr64[16] = {
    X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX,
    X86_REG_RSP, X86_REG_RBP, X86_REG_RSI, X86_REG_RDI,
    X86_REG_R8,  X86_REG_R9,  X86_REG_R10, X86_REG_R11,
    X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15};

static void set_reg(cs_x86_op *o, unsigned ymm) {
  o->type = X86_OP_REG;
  o->reg = (x86_reg)(X86_REG_YMM0 + ymm);
  o->size = 32;
}

int cpu__decode_raw(const u8 *b, unsigned n, cs_insn *ci) {
  unsigned i = 0;
  x86_reg seg = X86_REG_INVALID;
  int a32 = 0;
  /* Only segment and address-size prefixes may precede a VEX prefix. */
  for (; i < n && i < 4; i++) {
    if (b[i] == 0x64)
      seg = X86_REG_FS;
    else if (b[i] == 0x65)
      seg = X86_REG_GS;
    else if (b[i] == 0x67)
      a32 = 1;
    else if (b[i] != 0x2e && b[i] != 0x36 && b[i] != 0x3e && b[i] != 0x26)
      break;
  }
  if (i + 5 > n || b[i] != 0xc4) return -1; /* all rows need the 3-byte form */
  unsigned r = !(b[i + 1] & 0x80), x = !(b[i + 1] & 0x40),
           bb = !(b[i + 1] & 0x20), map = b[i + 1] & 0x1f;
  unsigned w = b[i + 2] >> 7, vvvv = (~b[i + 2] >> 3) & 15,
           l = (b[i + 2] >> 2) & 1, pp = b[i + 2] & 3;
  unsigned op = b[i + 3], modrm = b[i + 4];
  unsigned p = i + 5;
  if (pp != 1) return -1; /* every row has the 66 prefix */
  const struct raw_row *row = NULL;
  for (size_t k = 0; k < sizeof raw_rows / sizeof raw_rows[0]; k++) {
    const struct raw_row *t = &raw_rows[k];
    if (t->map == map && t->op == op && t->l == l &&
        (t->w == ANY || t->w == (i8)w))
      row = t;
  }
  if (!row) return -1;
  unsigned mod = modrm >> 6, reg = ((modrm >> 3) & 7) | (r << 3),
           rm = (modrm & 7) | (bb << 3);
  if (row->memonly && mod == 3) return -1;
  if (a32 && mod != 3) return -1; /* 32-bit addressing: not modelled here */
  if (!row->vvvv && vvvv) return -1;

  cs_detail *d = ci->detail;
  cs_x86 *xd = &d->x86;
  memset(d, 0, sizeof *d);
  cs_x86_op *o = xd->operands;
  unsigned nops = 0;
  set_reg(&o[nops++], reg);
  if (row->vvvv) set_reg(&o[nops++], vvvv);
  cs_x86_op *rmo = &o[nops++];
  if (mod == 3) {
    set_reg(rmo, rm);
  } else {
    x86_op_mem *m = &rmo->mem;
    rmo->type = X86_OP_MEM;
    rmo->size = row->msz;
    m->segment = seg;
    m->base = m->index = X86_REG_INVALID;
    m->scale = 1;
    int rip = 0;
    if ((modrm & 7) == 4) { /* SIB */
      if (p >= n) return -1;
      unsigned sib = b[p++];
      unsigned idx = ((sib >> 3) & 7) | (x << 3), base = (sib & 7) | (bb << 3);
      if (idx != 4) {
        m->index = gpr64[idx];
        m->scale = 1 << (sib >> 6);
      }
      if ((sib & 7) == 5 && mod == 0) {
        mod = 2; /* disp32, no base */
      } else {
        m->base = gpr64[base];
      }
    } else if ((modrm & 7) == 5 && mod == 0) {
      rip = 1;
      mod = 2;
    } else {
      m->base = gpr64[rm];
    }
    if (mod == 1) {
      if (p + 1 > n) return -1;
      m->disp = (i8)b[p++];
    } else if (mod == 2) {
      if (p + 4 > n) return -1;
      i32 v;
      memcpy(&v, b + p, 4);
      m->disp = v;
      p += 4;
    }
    if (rip) m->base = X86_REG_RIP;
  }
  if (row->imm) {
    if (p >= n) return -1;
    cs_x86_op *io = &o[nops++];
    io->type = X86_OP_IMM;
    io->imm = b[p++];
    io->size = 1;
  }
  xd->op_count = (u8)nops;
  xd->rex = w ? 0x48 : 0;
  xd->addr_size = 8;
  xd->opcode[0] = (u8)op;
  xd->modrm = (u8)modrm;
  ci->id = row->id;
  ci->size = (u16)p;
  memcpy(ci->bytes, b, p);
  snprintf(ci->mnemonic, sizeof ci->mnemonic, "%s", row->mnemonic);
  ci->op_str[0] = 0;
  return 0;
}
