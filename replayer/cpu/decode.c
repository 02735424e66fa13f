/* SPDX-License-Identifier: MIT */
/* Decoding (STYLE R9): Capstone turns the bytes at an address into an id and
 * an operand list once; this file finds the table row whose id and form
 * match, and resolves the operands into struct cpu_insn (register numbers,
 * memory operand fields with rip-relative addresses made absolute,
 * immediates normalised). It executes nothing; blocks are icache.c's. */
#include <pthread.h>
#include <stdlib.h>

#include "replayer/cpu/cpu_int.h"
#include "replayer/cpu/cpu_variant.h"

const struct cpu__family *const cpu__families[] = {
#define FAMILY(f) &cpu__family_##f,
#include "replayer/cpu/families.def"
#undef FAMILY
    NULL};

/* Operand specs of each form, from forms.def. */
static const u16 form_ops[CPU_FORM_COUNT][4] = {
#define N 0
#define E(s) (CPU__K_E | CPU__S_##s)
#define M(s) (CPU__K_M | CPU__S_##s)
#define G(s) (CPU__K_G | CPU__S_##s)
#define I(s) (CPU__K_I | CPU__S_##s)
#define X(s) (CPU__K_X | CPU__S_##s)
#define W(s) (CPU__K_W | CPU__S_##s)
#define U(s) (CPU__K_U | CPU__S_##s)
#define F(s) (CPU__K_F | CPU__S_##s)
#define R(s) (CPU__K_R | CPU__S_##s)
#define A(s) (CPU__K_A | CPU__S_##s)
#define C(s) (CPU__K_C | CPU__S_##s)
#define Z(s) (CPU__K_Z | CPU__S_##s)
#define P(s) (CPU__K_P | CPU__S_##s)
#define Q(s) (CPU__K_Q | CPU__S_##s)
#define NM(s) (CPU__K_N | CPU__S_##s)
#define FORM(name, a, b, c, d) {a, b, c, d},
#define OP(id, form, fn)
#include "replayer/cpu/forms.def"
#undef FORM
#undef OP
#undef N
#undef E
#undef M
#undef G
#undef I
#undef X
#undef W
#undef U
#undef F
#undef R
#undef A
#undef C
#undef Z
#undef P
#undef Q
#undef NM
};

/* Register classes of the x86_reg map. */
enum { RC_NONE, RC_GPR, RC_XMM, RC_ST, RC_MM, RC_RIP, RC_FS, RC_GS, RC_ZERO };

struct regmap {
  u8 cls;  /* RC_* */
  u8 num;  /* register number */
  u8 size; /* bytes */
};

/* The row index: rows of one Capstone id chained in table order. */
struct rowref {
  const struct cpu__oprow *row;
  const struct cpu__family *fam; /* the family the row belongs to */
  u32 next; /* index + 1 of the next row with the same id, 0 at the end */
};

static struct regmap regs[X86_REG_ENDING];
static u32 first_row[CPU_INS_ENDING]; /* Capstone's ids and ours */
static struct rowref *rowrefs;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void map_gprs(const x86_reg *r, unsigned size) {
  for (unsigned i = 0; i < 16; i++)
    regs[r[i]] = (struct regmap){RC_GPR, (u8)i, (u8)size};
}

static void init_tables(void) {
  static const x86_reg r64[16] = {
      X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX,
      X86_REG_RSP, X86_REG_RBP, X86_REG_RSI, X86_REG_RDI,
      X86_REG_R8,  X86_REG_R9,  X86_REG_R10, X86_REG_R11,
      X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15};
  static const x86_reg r32[16] = {
      X86_REG_EAX,  X86_REG_ECX,  X86_REG_EDX,  X86_REG_EBX,
      X86_REG_ESP,  X86_REG_EBP,  X86_REG_ESI,  X86_REG_EDI,
      X86_REG_R8D,  X86_REG_R9D,  X86_REG_R10D, X86_REG_R11D,
      X86_REG_R12D, X86_REG_R13D, X86_REG_R14D, X86_REG_R15D};
  static const x86_reg r16[16] = {
      X86_REG_AX,   X86_REG_CX,   X86_REG_DX,   X86_REG_BX,
      X86_REG_SP,   X86_REG_BP,   X86_REG_SI,   X86_REG_DI,
      X86_REG_R8W,  X86_REG_R9W,  X86_REG_R10W, X86_REG_R11W,
      X86_REG_R12W, X86_REG_R13W, X86_REG_R14W, X86_REG_R15W};
  static const x86_reg r8[16] = {
      X86_REG_AL,   X86_REG_CL,   X86_REG_DL,   X86_REG_BL,
      X86_REG_SPL,  X86_REG_BPL,  X86_REG_SIL,  X86_REG_DIL,
      X86_REG_R8B,  X86_REG_R9B,  X86_REG_R10B, X86_REG_R11B,
      X86_REG_R12B, X86_REG_R13B, X86_REG_R14B, X86_REG_R15B};
  static const x86_reg hi8[4] = {X86_REG_AH, X86_REG_CH, X86_REG_DH,
                                 X86_REG_BH};
  size_t nrows = 0, k = 0;
  map_gprs(r64, 8);
  map_gprs(r32, 4);
  map_gprs(r16, 2);
  map_gprs(r8, 1);
  for (unsigned i = 0; i < 4; i++)
    regs[hi8[i]] = (struct regmap){RC_GPR, (u8)(CPU_REG_AH + i), 1};
  for (unsigned i = 0; i < 16; i++) {
    regs[X86_REG_XMM0 + i] = (struct regmap){RC_XMM, (u8)i, 16};
    regs[X86_REG_YMM0 + i] = (struct regmap){RC_XMM, (u8)i, 32};
  }
  for (unsigned i = 0; i < 8; i++) {
    regs[X86_REG_ST0 + i] = (struct regmap){RC_ST, (u8)i, 10};
    regs[X86_REG_MM0 + i] = (struct regmap){RC_MM, (u8)i, 8};
  }
  regs[X86_REG_RIP] = (struct regmap){RC_RIP, 0, 8};
  regs[X86_REG_FS] = (struct regmap){RC_FS, 0, 2};
  regs[X86_REG_GS] = (struct regmap){RC_GS, 0, 2};
  regs[X86_REG_RIZ] = (struct regmap){RC_ZERO, CPU_REG_NONE, 8};
  regs[X86_REG_EIZ] = (struct regmap){RC_ZERO, CPU_REG_NONE, 4};

  for (const struct cpu__family *const *f = cpu__families; *f; f++)
    nrows += (*f)->nrows;
  rowrefs = calloc(nrows ? nrows : 1, sizeof *rowrefs);
  if (!rowrefs) return; /* cpu__decode then finds no rows: unsupported */
  /* Chain rows per id in table order: walk backwards, pushing on fronts. */
  {
    const struct cpu__oprow **all = calloc(nrows ? nrows : 1, sizeof *all);
    if (!all) return;
    for (const struct cpu__family *const *f = cpu__families; *f; f++)
      for (size_t i = 0; i < (*f)->nrows; i++) {
        rowrefs[k].fam = *f;
        all[k++] = &(*f)->rows[i];
      }
    for (size_t i = nrows; i-- > 0;) {
      unsigned id = all[i]->id;
      if (id >= CPU_INS_ENDING) continue;
      rowrefs[i].row = all[i];
      rowrefs[i].next = first_row[id];
      first_row[id] = (u32)(i + 1);
    }
    free(all);
  }
}

int cpu__reg_number(unsigned x86reg, unsigned *size) {
  pthread_once(&init_once, init_tables);
  if (x86reg >= X86_REG_ENDING || regs[x86reg].cls == RC_NONE)
    return RW_ENOTFOUND;
  if (size) *size = regs[x86reg].size;
  return regs[x86reg].num;
}

static unsigned size_bit(unsigned size) {
  switch (size) {
    case 1:
      return 1;
    case 2:
      return 2;
    case 4:
      return 4;
    case 8:
      return 8;
    case 10:
      return 16;
    case 16:
      return 32;
    case 32:
      return 64;
    default:
      return 128; /* other sizes (x87 m28 env): only "any" matches */
  }
}

static int op_match(u16 spec, const cs_x86_op *o) {
  unsigned kind = spec & 15, cls = RC_NONE;
  if (!((spec >> 4) & size_bit(o->size)) && kind != CPU__K_Z) return 0;
  if (o->type == X86_OP_REG && o->reg < X86_REG_ENDING) cls = regs[o->reg].cls;
  switch (kind) {
    case CPU__K_E:
      return o->type == X86_OP_MEM || cls == RC_GPR;
    case CPU__K_M:
      return o->type == X86_OP_MEM;
    case CPU__K_G:
    case CPU__K_R:
      return cls == RC_GPR;
    case CPU__K_I:
      return o->type == X86_OP_IMM;
    case CPU__K_X:
    case CPU__K_U:
      return cls == RC_XMM;
    case CPU__K_W:
      return o->type == X86_OP_MEM || cls == RC_XMM;
    case CPU__K_F:
      return cls == RC_ST;
    case CPU__K_P:
    case CPU__K_N:
      return cls == RC_MM;
    case CPU__K_Q:
      return o->type == X86_OP_MEM || cls == RC_MM;
    case CPU__K_A:
      return cls == RC_GPR && regs[o->reg].num == 0;
    case CPU__K_C:
      return o->reg == X86_REG_CL;
    case CPU__K_Z:
      return 1;
    default:
      return 0;
  }
}

static int form_match(unsigned form, const cs_x86 *x) {
  const u16 *ops = form_ops[form];
  unsigned n = 0;
  while (n < 4 && ops[n]) n++;
  if (n != x->op_count) return 0;
  for (unsigned i = 0; i < n; i++)
    if (!op_match(ops[i], &x->operands[i])) return 0;
  return 1;
}

/* Fills the memory fields of IN from O. Returns 0, or -1 when the operand
 * uses something the emulator does not model (32-bit rip, odd segments). */
static int fill_mem(struct cpu_insn *in, const cs_x86_op *o, u64 next_rip) {
  const x86_op_mem *m = &o->mem;
  in->pfx |= CPU_PFX_MEM;
  in->msz = o->size;
  in->disp = m->disp;
  if (m->segment == X86_REG_FS)
    in->seg = CPU_SEG_FS;
  else if (m->segment == X86_REG_GS)
    in->seg = CPU_SEG_GS;
  if (m->base == X86_REG_RIP) {
    in->disp = (i64)(next_rip + (u64)m->disp);
  } else if (m->base != X86_REG_INVALID) {
    if (m->base >= X86_REG_ENDING || regs[m->base].cls != RC_GPR)
      return RW_EUNSUPPORTED;
    in->base = regs[m->base].num;
  }
  if (m->index != X86_REG_INVALID && m->index < X86_REG_ENDING &&
      regs[m->index].cls != RC_ZERO) {
    const struct regmap *x = &regs[m->index];
    if (x->cls == RC_XMM) { /* VSIB: the gathers' vector index */
      in->imm = x->num;
      in->imm2 = x->size;
    } else if (x->cls == RC_GPR) {
      in->index = x->num;
    } else {
      return RW_EUNSUPPORTED;
    }
    in->scale = (u8)__builtin_ctz((unsigned)(m->scale ? m->scale : 1));
  }
  return 0;
}

static int is_lockable(unsigned id) {
  switch (id) {
    case X86_INS_ADD:
    case X86_INS_ADC:
    case X86_INS_AND:
    case X86_INS_BTC:
    case X86_INS_BTR:
    case X86_INS_BTS:
    case X86_INS_CMPXCHG:
    case X86_INS_CMPXCHG8B:
    case X86_INS_CMPXCHG16B:
    case X86_INS_DEC:
    case X86_INS_INC:
    case X86_INS_NEG:
    case X86_INS_NOT:
    case X86_INS_OR:
    case X86_INS_SBB:
    case X86_INS_SUB:
    case X86_INS_XOR:
    case X86_INS_XADD:
    case X86_INS_XCHG:
      return 1;
    default:
      return 0;
  }
}

static int op_ud(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  return cpu__fault(cpu, CPU_FAULT_UD);
}

static int op_hint_nop(struct cpu *cpu, const struct cpu_insn *in) {
  (void)cpu;
  (void)in;
  return CPU_RC_NEXT;
}

/* Legacy prefixes as the CPU applies them: the last of F2/F3 wins, and a
 * repne on movs/stos/lods repeats like rep (Capstone drops some of them).
 * Returns CPU_PFX_REP/REPNE bits and the number of prefix bytes. */
static unsigned scan_prefixes(const u8 *b, unsigned n, unsigned *count) {
  unsigned pfx = 0, i;
  for (i = 0; i < n; i++) {
    if (b[i] == 0xf2)
      pfx = CPU_PFX_REPNE;
    else if (b[i] == 0xf3)
      pfx = CPU_PFX_REP;
    else if (b[i] != 0xf0 && b[i] != 0x2e && b[i] != 0x36 && b[i] != 0x3e &&
             b[i] != 0x26 && b[i] != 0x64 && b[i] != 0x65 && b[i] != 0x66 &&
             b[i] != 0x67)
      break;
  }
  *count = i;
  return pfx;
}

/* Capstone 4 takes a 66 prefix as the operand size only when no F2 or F3
 * follows it: it decodes 66 F3 AB (gas's encoding of "rep stosw") as rep
 * stosd, and 66 F2 F0 87 07 (gas's "xacquire lock xchg %ax,(%rdi)") as a
 * dword xchg with a word register. The CPU ignores the order of legacy
 * prefixes, so for the one-byte opcodes (but 90: F3 90 is pause) and the
 * lockable 0F ones (cmpxchg, xadd, bts, btr, btc) the decoder gives
 * Capstone the bytes of B (N) with each 66 moved after the last F2/F3, in
 * OUT. SSE instructions keep their order: there Capstone picks the
 * instruction by the last of 66, F2 and F3. Returns 1 when OUT holds the
 * reordered bytes, 0 when B needs none. */
static int opsize_last(const u8 *b, unsigned n, u8 *out) {
  unsigned i, last_rep = 0, n66 = 0, first66 = n, j, k = 0;
  for (i = 0; i < n; i++) {
    if (b[i] == 0xf2 || b[i] == 0xf3) {
      last_rep = i;
    } else if (b[i] == 0x66) {
      if (!n66++) first66 = i;
    } else if (b[i] != 0xf0 && b[i] != 0x2e && b[i] != 0x36 &&
               b[i] != 0x3e && b[i] != 0x26 && b[i] != 0x64 &&
               b[i] != 0x65 && b[i] != 0x67) {
      break;
    }
  }
  if (!n66 || first66 > last_rep) return 0;
  j = i < n && (b[i] & 0xf0) == 0x40 ? i + 1 : i;
  if (j >= n || b[j] == 0x90 || b[j] == 0xc4 || b[j] == 0xc5 || b[j] == 0x62)
    return 0;
  if (b[j] == 0x0f &&
      (j + 1 >= n || (b[j + 1] != 0xb0 && b[j + 1] != 0xb1 &&
                      b[j + 1] != 0xc0 && b[j + 1] != 0xc1 &&
                      b[j + 1] != 0xab && b[j + 1] != 0xb3 &&
                      b[j + 1] != 0xbb && b[j + 1] != 0xba)))
    return 0;
  for (unsigned p = 0; p < i; p++)
    if (b[p] != 0x66) out[k++] = b[p];
  while (n66--) out[k++] = 0x66;
  memcpy(out + k, b + i, n - i);
  return 1;
}

/* The reserved-NOP opcodes 0F 0D and 0F 18-1F with any ModRM, which
 * Capstone 4 rejects in some register forms: their length, or 0. */
static unsigned hint_nop_len(const u8 *b, unsigned n) {
  unsigned i, mod, rm, len;
  scan_prefixes(b, n, &i);
  if (i < n && (b[i] & 0xf0) == 0x40) i++;
  if (i + 3 > n || b[i] != 0x0f ||
      !(b[i + 1] == 0x0d || (b[i + 1] >= 0x18 && b[i + 1] <= 0x1f)))
    return 0;
  mod = b[i + 2] >> 6;
  rm = b[i + 2] & 7;
  len = i + 3;
  if (mod != 3 && rm == 4) {
    if (len >= n) return 0;
    if (mod == 0 && (b[len] & 7) == 5) len += 4;
    len++;
  }
  if (mod == 1) len += 1;
  if (mod == 2 || (mod == 0 && rm == 5)) len += 4;
  return len <= n ? len : 0;
}

static int is_string_form(unsigned form) {
  return form == CPU_FORM_M_M || form == CPU_FORM_M_A || form == CPU_FORM_A_M;
}

/* How the instruction in CI ends a block. */
static unsigned block_verdict(csh cs, const cs_insn *ci) {
  if (cs_insn_group(cs, ci, X86_GRP_JUMP) ||
      cs_insn_group(cs, ci, X86_GRP_CALL) ||
      cs_insn_group(cs, ci, X86_GRP_RET) ||
      cs_insn_group(cs, ci, X86_GRP_INT) ||
      cs_insn_group(cs, ci, X86_GRP_IRET) ||
      cs_insn_group(cs, ci, X86_GRP_PRIVILEGE))
    return CPU__DEC_END;
  switch (ci->id) {
    case X86_INS_SYSCALL:
    case X86_INS_HLT:
    case X86_INS_UD2:
    case X86_INS_RDRAND:
    case X86_INS_RDSEED:
    case X86_INS_CPUID:
    case X86_INS_RDTSC:
    case X86_INS_RDTSCP:
      return CPU__DEC_END;
    default:
      return 0;
  }
}

static const struct rowref *find_rowref(const cs_insn *ci) {
  pthread_once(&init_once, init_tables);
  if (ci->id >= CPU_INS_ENDING || !rowrefs) return NULL;
  for (u32 r = first_row[ci->id]; r; r = rowrefs[r - 1].next)
    if (form_match(rowrefs[r - 1].row->form, &ci->detail->x86))
      return &rowrefs[r - 1];
  return NULL;
}

const struct cpu__oprow *cpu__find_row(const cs_insn *ci) {
  const struct rowref *r = find_rowref(ci);
  return r ? r->row : NULL;
}

cpu_handler cpu__pick_size(const struct cpu__sizevar *t, size_t n,
                           const struct cpu_insn *in, cpu_handler *chained) {
  unsigned sz = in->osz, mem = (in->pfx & CPU_PFX_MEM) != 0, k;
  if (sz != 1 && sz != 2 && sz != 4 && sz != 8) return NULL;
  if (mem && ((in->pfx & CPU_PFX_ADDR32) || in->seg != CPU_SEG_NONE))
    return NULL;
  k = (unsigned)__builtin_ctz(sz) + (mem ? 4 : 0);
  for (size_t i = 0; i < n; i++)
    if (t[i].generic == in->fn) {
      *chained = t[i].c[k];
      return t[i].v[k];
    }
  return NULL;
}

unsigned cpu_insn_length(const u8 *b, unsigned n, u64 rip) {
  struct cpu_insn in;
  unsigned xin = 0;
  pthread_once(&init_once, init_tables);
  memset(&in, 0, sizeof in);
  if (cpu__decode_evex(NULL, b, n, rip, &in, &xin) ||
      cpu__decode_movdir(NULL, b, n, rip, &in) ||
      cpu__decode_pku(NULL, b, n, &in))
    return in.len;
  unsigned hl = hint_nop_len(b, n);
  return hl ? hl : cpu__vex_len(b, n);
}

int cpu__decode(struct cpu *cpu, u64 rip, struct cpu_insn *in, unsigned *how) {
  struct cpu_mem *mem = cpu->mem;
  cs_insn *ci = mem->csi;
  u8 buf[16], ordered[16];
  const u8 *code = buf;
  unsigned n;
  size_t size;
  u64 addr = rip;
  const cs_x86 *x;
  const struct cpu__oprow *row = NULL;
  const struct rowref *ref;
  unsigned rslots = 0, nimm = 0;

  pthread_once(&init_once, init_tables);
  memset(in, 0, sizeof *in);
  in->base = in->index = in->reg = in->reg2 = in->rm = CPU_REG_NONE;
  *how = 0;
  n = cpu__fetch(cpu, rip, buf, 15);
  if (!n) return CPU_FAULT;
  {
    unsigned xin = 0;
    if (cpu__decode_evex(cpu, buf, n, rip, in, &xin) ||
        cpu__decode_movdir(cpu, buf, n, rip, in) ||
        cpu__decode_pku(cpu, buf, n, in)) {
      if (!in->len) return CPU_FAULT; /* cut short by a fetch fault */
      memset(&cpu->exit, 0, sizeof cpu->exit);
      if (in->fn == cpu__op_unsupported) *how = CPU__DEC_END;
      *how |= xin << CPU__DEC_XIN;
      return 0;
    }
  }
  {
    unsigned rl;
    if (cpu__raw_unsupported(buf, n, &rl)) {
      memset(&cpu->exit, 0, sizeof cpu->exit);
      in->len = (u8)rl;
      in->fn = in->run = cpu__op_unsupported;
      *how = CPU__DEC_END;
      return 0;
    }
  }
  size = n;
  if (opsize_last(buf, n, ordered)) code = ordered;
  if (!cs_disasm_iter(mem->cs, &code, &size, &addr, ci) &&
      cpu__decode_raw(buf, n, ci) != 0) {
    unsigned hl = hint_nop_len(buf, n);
    if (hl) {
      memset(&cpu->exit, 0, sizeof cpu->exit);
      in->len = (u8)hl;
      in->fn = in->run = op_hint_nop;
      return 0;
    }
    unsigned vl = cpu__vex_len(buf, n);
    if (!vl && n < 15) return CPU_FAULT; /* cpu__fetch recorded it */
    in->len = (u8)(vl ? vl : n);
    in->fn = in->run = cpu__op_unsupported;
    *how = CPU__DEC_END;
    return 0;
  }
  /* A fault recorded by a short fetch does not matter when the bytes we
   * have hold a whole instruction. */
  memset(&cpu->exit, 0, sizeof cpu->exit);
  x = &ci->detail->x86;
  in->len = (u8)ci->size;
  in->id = (u16)ci->id;
  {
    unsigned np;
    in->pfx |= (u8)scan_prefixes(buf, in->len, &np);
  }
  if (x->prefix[0] == X86_PREFIX_LOCK) in->pfx |= CPU_PFX_LOCK;
  if (x->prefix[2] == X86_PREFIX_OPSIZE) in->pfx |= CPU_PFX_OPSIZE;
  if (x->addr_size == 4) in->pfx |= CPU_PFX_ADDR32;
  if (x->rex & 8) in->pfx |= CPU_PFX_REXW;
  in->osz = x->op_count                  ? x->operands[0].size
            : (in->pfx & CPU_PFX_REXW)   ? 8
            : (in->pfx & CPU_PFX_OPSIZE) ? 2
                                         : 4;
  in->osz2 = x->op_count > 1 ? x->operands[1].size : 0;
  for (int i = 3; i >= 0; i--)
    if (x->opcode[i]) {
      in->cond = x->opcode[i] & 15;
      break;
    }
  *how = block_verdict(mem->cs, ci);

  ref = find_rowref(ci);
  if (!ref) goto unsupported;
  row = ref->row;

  for (unsigned i = 0; i < x->op_count; i++) {
    const cs_x86_op *o = &x->operands[i];
    unsigned kind = form_ops[row->form][i] & 15;
    switch (kind) {
      case CPU__K_E:
      case CPU__K_M:
      case CPU__K_W:
      case CPU__K_U:
      case CPU__K_R:
      case CPU__K_Q:
      case CPU__K_N:
        if (o->type == X86_OP_MEM) {
          if (fill_mem(in, o, rip + ci->size)) goto unsupported;
        } else {
          in->rm = regs[o->reg].num;
        }
        break;
      case CPU__K_G:
      case CPU__K_X:
      case CPU__K_F:
      case CPU__K_P:
        if (rslots == 0)
          in->reg = regs[o->reg].num;
        else if (rslots == 1)
          in->reg2 = regs[o->reg].num;
        else
          in->imm2 = regs[o->reg].num; /* is4 */
        rslots++;
        break;
      case CPU__K_I:
        if (nimm++ == 0) {
          if (cs_insn_group(mem->cs, ci, X86_GRP_BRANCH_RELATIVE))
            in->imm = (u64)o->imm;
          else if (o->size == 1 || in->osz > 8 || in->osz == 0)
            in->imm = (u8)o->imm;
          else
            in->imm = cpu_trunc((u64)o->imm, in->osz);
        } else {
          in->imm2 = (u8)o->imm;
        }
        break;
      default:
        break;
    }
  }
  in->fn = row->fn;
  /* SHA and GFNI: #UD where the recording CPU lacks them (feature.c). */
  if (!cpu__has(cpu, cpu__feature_of(in->id, 0))) in->fn = op_ud;
  if (in->pfx & CPU_PFX_LOCK) {
    if (!(in->pfx & CPU_PFX_MEM) || !is_lockable(ci->id)) in->fn = op_ud;
  }
  in->run = in->fn;
  if (in->fn == row->fn && ref->fam->specialise) {
    cpu_handler chained = NULL, fast = ref->fam->specialise(in, &chained);
    if (fast) {
      in->fn = fast;
      in->run = chained ? chained : fast;
    }
  }
  if (RW_UNLIKELY(cpu->observed) && in->fn != op_ud) {
    cpu_handler obs = cpu__observing(row->fn, cpu->observed);
    if (obs) in->fn = in->run = obs;
  }
  if (is_string_form(row->form) && (in->pfx & (CPU_PFX_REP | CPU_PFX_REPNE)))
    *how |= CPU__DEC_ALONE | CPU__DEC_END;
  {
    int alone;
    *how |= cpu__xin_of(ci, &alone) << CPU__DEC_XIN;
    if (alone == 1) *how |= CPU__DEC_ALONE | CPU__DEC_END;
    if (alone == 2) *how |= CPU__DEC_XCLEAR;
  }
  if (in->fn != op_ud) *how |= (row->form + 1u) << CPU__DEC_FORM;
  return 0;

unsupported:
  in->fn = in->run = cpu__op_unsupported;
  *how = CPU__DEC_END;
  return 0;
}
