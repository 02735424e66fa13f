/* SPDX-License-Identifier: MIT */
/* Instructions Capstone 4 cannot decode, decoded here from their bytes
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
 *   gf2p8mulb xmm, xmm/m128         66 0F 38 CF /r (GFNI)
 *   gf2p8affineqb/gf2p8affineinvqb xmm, xmm/m128, imm8
 *                                   66 0F 3A CE/CF /r ib
 *   vgf2p8mulb x/ymm, x/ymm, x/ymm/m  VEX.66.0F38.W0 CF /r
 *   vgf2p8affineqb/vgf2p8affineinvqb x/ymm, x/ymm, x/ymm/m, imm8
 *                                   VEX.66.0F3A.W1 CE/CF /r ib
 *
 * The GFNI ones have no Capstone id at all; they take ids of ours past
 * Capstone's list (CPU_INS_GF2P8*, cpu_int.h), named by cpu__insn_name.
 * Their legacy forms keep an F2/F3 prefix in the bytes (the handler raises
 * the #UD the CPU does) and report LOCK as Capstone would (decode.c turns
 * it into #UD). Anything else stays undecodable and stops the replay with
 * its bytes, except the instructions cpu__raw_unsupported names: ones we
 * do not run, which Capstone 4 cannot decode or decodes as another
 * instruction. */
#include "replayer/cpu/cpu_int.h"

enum { MAP_0F38 = 2, MAP_0F3A = 3 };
enum { ANY = -1 };

struct raw_row {
  u8 vex;    /* a VEX encoding (else legacy, with the mandatory 66) */
  u8 map, op;
  i8 w;      /* VEX.W required, or ANY */
  i8 l;      /* VEX.L required, or ANY: the vector length follows L */
  u8 memonly;
  u8 vvvv;   /* vvvv names the second operand (else must be 1111) */
  u8 imm;    /* an imm8 follows */
  u8 msz;    /* memory operand size, 0 for the vector length */
  u16 id;
  const char *mnemonic;
};

static const struct raw_row raw_rows[] = {
    {1, MAP_0F38, 0x5a, 0, 1, 1, 0, 0, 16, X86_INS_VBROADCASTF128,
     "vbroadcasti128"},
    {1, MAP_0F38, 0xdc, ANY, 1, 0, 1, 0, 32, X86_INS_VAESENC, "vaesenc"},
    {1, MAP_0F38, 0xdd, ANY, 1, 0, 1, 0, 32, X86_INS_VAESENCLAST,
     "vaesenclast"},
    {1, MAP_0F38, 0xde, ANY, 1, 0, 1, 0, 32, X86_INS_VAESDEC, "vaesdec"},
    {1, MAP_0F38, 0xdf, ANY, 1, 0, 1, 0, 32, X86_INS_VAESDECLAST,
     "vaesdeclast"},
    {1, MAP_0F3A, 0x44, ANY, 1, 0, 1, 1, 32, X86_INS_VPCLMULQDQ,
     "vpclmulqdq"},
    {0, MAP_0F38, 0xcf, ANY, ANY, 0, 0, 0, 16, CPU_INS_GF2P8MULB,
     "gf2p8mulb"},
    {0, MAP_0F3A, 0xce, ANY, ANY, 0, 0, 1, 16, CPU_INS_GF2P8AFFINEQB,
     "gf2p8affineqb"},
    {0, MAP_0F3A, 0xcf, ANY, ANY, 0, 0, 1, 16, CPU_INS_GF2P8AFFINEINVQB,
     "gf2p8affineinvqb"},
    {1, MAP_0F38, 0xcf, 0, ANY, 0, 1, 0, 0, CPU_INS_VGF2P8MULB,
     "vgf2p8mulb"},
    {1, MAP_0F3A, 0xce, 1, ANY, 0, 1, 1, 0, CPU_INS_VGF2P8AFFINEQB,
     "vgf2p8affineqb"},
    {1, MAP_0F3A, 0xcf, 1, ANY, 0, 1, 1, 0, CPU_INS_VGF2P8AFFINEINVQB,
     "vgf2p8affineinvqb"},
};

const char *cpu__insn_name(csh cs, unsigned id) {
  if (id < X86_INS_ENDING) return cs_insn_name(cs, id);
  for (size_t k = 0; k < sizeof raw_rows / sizeof raw_rows[0]; k++)
    if (raw_rows[k].id == id) return raw_rows[k].mnemonic;
  return cpu__evex_name(id);
}

static const x86_reg gpr64[16] = {
    X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX,
    X86_REG_RSP, X86_REG_RBP, X86_REG_RSI, X86_REG_RDI,
    X86_REG_R8,  X86_REG_R9,  X86_REG_R10, X86_REG_R11,
    X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15};

/* Operand O is vector register NUM, an XMM or YMM register by SIZE. */
static void set_reg(cs_x86_op *o, unsigned num, unsigned size) {
  o->type = X86_OP_REG;
  o->reg = (x86_reg)((size == 32 ? X86_REG_YMM0 : X86_REG_XMM0) + num);
  o->size = (u8)size;
}

int cpu__decode_raw(const u8 *b, unsigned n, cs_insn *ci) {
  unsigned i = 0, opsize = 0, rep = 0, lock = 0, rex = 0;
  x86_reg seg = X86_REG_INVALID;
  int a32 = 0;
  for (; i < n; i++) {
    if (b[i] == 0x64)
      seg = X86_REG_FS;
    else if (b[i] == 0x65)
      seg = X86_REG_GS;
    else if (b[i] == 0x67)
      a32 = 1;
    else if (b[i] == 0x66)
      opsize = 1;
    else if (b[i] == 0xf2 || b[i] == 0xf3)
      rep = 1;
    else if (b[i] == 0xf0)
      lock = 1;
    else if (b[i] != 0x2e && b[i] != 0x36 && b[i] != 0x3e && b[i] != 0x26)
      break;
  }
  /* A REX counts only right before the opcode; one followed by another
   * prefix (which the CPU ignores) leaves the bytes undecodable here. */
  if (i < n && (b[i] & 0xf0) == 0x40) rex = b[i++];
  unsigned vex = i < n && b[i] == 0xc4;
  unsigned r, x, bb, map, w, vvvv = 0, l = 0, op, modrm, p;
  if (vex) {
    /* Only segment and address-size prefixes may precede a VEX prefix;
     * with the others the CPU raises #UD, which is not modelled here. */
    if (opsize || rep || lock || rex) return -1;
    if (i + 5 > n) return -1; /* every VEX row needs the 3-byte form */
    r = !(b[i + 1] & 0x80);
    x = !(b[i + 1] & 0x40);
    bb = !(b[i + 1] & 0x20);
    map = b[i + 1] & 0x1f;
    w = b[i + 2] >> 7;
    vvvv = (~b[i + 2] >> 3) & 15;
    l = (b[i + 2] >> 2) & 1;
    if ((b[i + 2] & 3) != 1) return -1; /* every row has the 66 prefix */
    op = b[i + 3];
    modrm = b[i + 4];
    p = i + 5;
  } else {
    /* Legacy: the mandatory 66, then 0F 38 or 0F 3A. */
    if (!opsize || i + 4 > n || b[i] != 0x0f) return -1;
    if (b[i + 1] == 0x38)
      map = MAP_0F38;
    else if (b[i + 1] == 0x3a)
      map = MAP_0F3A;
    else
      return -1;
    r = (rex >> 2) & 1;
    x = (rex >> 1) & 1;
    bb = rex & 1;
    w = (rex >> 3) & 1;
    op = b[i + 2];
    modrm = b[i + 3];
    p = i + 4;
  }
  const struct raw_row *row = NULL;
  for (size_t k = 0; k < sizeof raw_rows / sizeof raw_rows[0]; k++) {
    const struct raw_row *t = &raw_rows[k];
    if (t->vex == vex && t->map == map && t->op == op &&
        (t->l == ANY || t->l == (i8)l) && (t->w == ANY || t->w == (i8)w))
      row = t;
  }
  if (!row) return -1;
  unsigned vlen = row->l == ANY && !l ? 16 : 32;
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
  set_reg(&o[nops++], reg, vlen);
  if (row->vvvv) set_reg(&o[nops++], vvvv, vlen);
  cs_x86_op *rmo = &o[nops++];
  if (mod == 3) {
    set_reg(rmo, rm, vlen);
  } else {
    x86_op_mem *m = &rmo->mem;
    rmo->type = X86_OP_MEM;
    rmo->size = (u8)(row->msz ? row->msz : vlen);
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
  xd->rex = (u8)(vex ? (w ? 0x48 : 0) : rex);
  if (lock) xd->prefix[0] = X86_PREFIX_LOCK;
  if (opsize) xd->prefix[2] = X86_PREFIX_OPSIZE;
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

/* The end of the ModRM operand whose ModRM byte is B[I] (SIB and
 * displacement included), or 0 past N bytes. */
static unsigned modrm_end(const u8 *b, unsigned n, unsigned i) {
  if (i >= n) return 0;
  unsigned mod = b[i] >> 6, rm = b[i] & 7, e = i + 1;
  if (mod != 3 && rm == 4) {
    if (e >= n) return 0;
    if (mod == 0 && (b[e] & 7) == 5) e += 4; /* disp32, no base */
    e++;
  }
  if (mod == 0 && rm == 5) e += 4; /* RIP-relative */
  if (mod == 1) e += 1;
  if (mod == 2) e += 4;
  return e <= n ? e : 0;
}

void cpu__legacy_prefixes(const u8 *b, unsigned n,
                          struct cpu__legacy_pfx *p) {
  unsigned i = 0;
  memset(p, 0, sizeof *p);
  for (; i < n && i < 14; i++) {
    if (b[i] == 0xf2 || b[i] == 0xf3)
      p->rep = b[i]; /* the last of F2 and F3 is the one that counts */
    else if (b[i] == 0x66)
      p->opsize = 1;
    else if (b[i] == 0xf0)
      p->lock = 1;
    else if (b[i] == 0x67)
      p->addr32 = 1;
    else if (b[i] == 0x64)
      p->seg = CPU_SEG_FS;
    else if (b[i] == 0x65)
      p->seg = CPU_SEG_GS;
    else if (b[i] != 0x2e && b[i] != 0x36 && b[i] != 0x3e && b[i] != 0x26)
      break;
  }
  if (i < n && (b[i] & 0xf0) == 0x40) p->rex = b[i++];
  p->n = i;
}

const char *cpu__raw_unsupported(const u8 *b, unsigned n, unsigned *len) {
  struct cpu__legacy_pfx px;
  cpu__legacy_prefixes(b, n, &px);
  unsigned i = px.n, rep = px.rep;
  if (i + 3 > n || b[i] != 0x0f) return NULL;
  u8 op = b[i + 1], m = b[i + 2];
  unsigned mod = m >> 6, reg = (m >> 3) & 7;
  const char *name = NULL;
  *len = i + 3;
  if (op == 0x01 && !rep) {
    switch (m) {
      case 0xe8: name = "serialize"; break;
      case 0xee: name = "rdpkru"; break;
      case 0xef: name = "wrpkru"; break;
      case 0xfa: name = "monitorx"; break;
      case 0xfb: name = "mwaitx"; break;
      case 0xfc: name = "clzero"; break;
      case 0xfd: name = "rdpru"; break;
      default: break;
    }
  } else if (op == 0xc7 && mod == 3 && reg == 7 && rep == 0xf3) {
    name = "rdpid";
  } else if (op == 0xae && mod == 3 && reg == 6 && (rep || px.opsize)) {
    name = rep == 0xf3 ? "umonitor" : rep == 0xf2 ? "umwait" : "tpause";
  } else if (op == 0x38 && i + 4 <= n && (m == 0xf8 || m == 0xf9) &&
             (b[i + 3] >> 6) != 3) {
    /* (movdiri and movdir64b, the forms without F2/F3, are movdir.c's) */
    if (m == 0xf8 && rep) name = rep == 0xf3 ? "enqcmds" : "enqcmd";
    *len = modrm_end(b, n, i + 3);
    if (!*len) name = NULL;
  }
  return name;
}
