/* SPDX-License-Identifier: MIT */
/* The x87 floating-point family: loads and stores of every format, the
 * arithmetic, comparisons, fcmovcc, transcendental functions, constants and
 * the control instructions. Everything that computes runs on the host's x87
 * unit through cpu__x87_host() (x87_host.c says why); this file reads and
 * writes guest memory, checks for pending exceptions, keeps FIP/FDP/FOP as
 * the host CPU does, and does the few control instructions in C. */
#include "common/endian.h"
#include "replayer/cpu/x87.h"

/* How a handler runs (the kind argument of x87_run). */
enum {
  X87_MSZ = 0xff,     /* bytes of the memory operand (0: none) */
  X87_LD = 0x100,     /* reads its memory operand */
  X87_ST = 0x200,     /* writes its memory operand */
  X87_NOWAIT = 0x400, /* fn* forms: no check for pending exceptions */
  X87_FLAGS = 0x800,  /* fcomi family: sets ZF PF CF, clears OF SF AF */
  X87_CTRL = 0x1000,  /* control instruction: FIP, FDP and FOP kept */
  X87_PLOAD = 0x2000  /* FIP, FDP and FOP are loaded (fldenv, frstor,
                         and fnsave, which reinitialises) */
};

/* Values no host run produces for FIP/FDP (host addresses are not
 * 0xffffffff) or FOP (DF FF is no instruction), to see what it updated. */
#define X87_NOPTR 0xffffffffu
#define X87_NOFOP 0x7ffu
/* Guest FOP unknown until the instruction bytes are fetched. */
#define X87_FOP_FETCH 0xffffu

/* FOP of memory form OP /DIGIT and of register form OP MODRM+i. */
#define X87_M(op, digit) ((((op)&7u) << 8) | ((unsigned)(digit) << 3))
#define X87_R(op, modrm) ((((op)&7u) << 8) | (unsigned)(modrm))


/* Fills the frstor image of JOB from cpu->x87. With REAL the pointers are
 * the guest's (truncated to the 32-bit layout: what fnstenv stores), else
 * the sentinels. */
static void x87_image(const struct cpu *cpu, u8 *img, int real) {
  const struct cpu_x87 *x = &cpu->x87;
  unsigned top = (x->fsw >> 11) & 7;
  u16 tags = 0;
  for (unsigned i = 0; i < 8; i++)
    if (!(x->ftw & (1u << i))) tags |= (u16)(3u << (2 * i));
  wr_le32(img + 0, 0xffff0000u | x->fcw);
  wr_le32(img + 4, 0xffff0000u | x->fsw);
  wr_le32(img + 8, 0xffff0000u | tags);
  wr_le32(img + 12, real ? (u32)x->fip : X87_NOPTR);
  wr_le16(img + 16, 0); /* FCS and FDS are not modelled: 0 */
  wr_le16(img + 18, real ? x->fop : X87_NOFOP);
  wr_le32(img + 20, real ? (u32)x->fdp : X87_NOPTR);
  wr_le32(img + 24, 0xffff0000u);
  for (unsigned i = 0; i < 8; i++) {
    const struct cpu_f80 *f = &x->st[(top + i) & 7];
    memcpy(img + 28 + 10 * i, &f->mant, 8);
    memcpy(img + 36 + 10 * i, &f->se, 2);
  }
}

/* The guest's FOP of the instruction at rip: low 3 bits of its x87 opcode
 * byte and its ModRM (prefix bytes are never D8-DF). */
static u16 x87_fetch_fop(struct cpu *cpu, const struct cpu_insn *in) {
  u8 b[16];
  unsigned n = cpu__fetch(cpu, cpu->rip, b, in->len);
  for (unsigned i = 0; i + 1 < n; i++)
    if (b[i] >= 0xd8 && b[i] <= 0xdf)
      return (u16)(((b[i] & 7u) << 8) | b[i + 1]);
  return 0;
}

/* Makes the image after a host run the guest's state. */
static void x87_commit(struct cpu *cpu, const struct cpu_insn *in,
                       const u8 *img, unsigned kind, unsigned gfop, u64 ea) {
  struct cpu_x87 *x = &cpu->x87;
  u32 fip = rd_le32(img + 12), fdp = rd_le32(img + 20);
  u16 fop = rd_le16(img + 18) & 0x7ff;
  u16 tags = rd_le16(img + 8);
  x->fcw = rd_le16(img + 0);
  x->fsw = rd_le16(img + 4);
  unsigned top = (x->fsw >> 11) & 7;
  x->ftw = 0;
  for (unsigned i = 0; i < 8; i++)
    if (((tags >> (2 * i)) & 3) != 3) x->ftw |= (u8)(1u << i);
  for (unsigned i = 0; i < 8; i++) {
    struct cpu_f80 *f = &x->st[(top + i) & 7];
    memcpy(&f->mant, img + 28 + 10 * i, 8);
    memcpy(&f->se, img + 36 + 10 * i, 2);
  }
  if (kind & X87_PLOAD) {
    x->fip = fip;
    x->fdp = fdp;
    x->fop = fop;
  } else if (!(kind & X87_CTRL)) {
    if (fip != X87_NOPTR) x->fip = cpu->rip;
    if (fop != X87_NOFOP)
      x->fop = gfop == X87_FOP_FETCH ? x87_fetch_fop(cpu, in) : (u16)gfop;
    if (fdp != X87_NOPTR) {
      if (in->pfx & CPU_PFX_MEM)
        x->fdp = ea - cpu->segbase[in->seg];
      else
        x->fdp = fdp;
    }
  }
}

static int x87_load(struct cpu *cpu, u64 a, u8 *buf, unsigned n) {
  switch (n) {
    case 2: {
      u16 v;
      CPU_TRY(cpu_ld16(cpu, a, &v));
      memcpy(buf, &v, 2);
      return 0;
    }
    case 4: {
      u32 v;
      CPU_TRY(cpu_ld32(cpu, a, &v));
      memcpy(buf, &v, 4);
      return 0;
    }
    case 8: {
      u64 v;
      CPU_TRY(cpu_ld64(cpu, a, &v));
      memcpy(buf, &v, 8);
      return 0;
    }
    default: return cpu_ldn(cpu, a, buf, n);
  }
}

static int x87_store(struct cpu *cpu, u64 a, const u8 *buf, unsigned n) {
  switch (n) {
    case 2: return cpu_st16(cpu, a, rd_le16(buf));
    case 4: return cpu_st32(cpu, a, rd_le32(buf));
    case 8: {
      u64 v;
      memcpy(&v, buf, 8);
      return cpu_st64(cpu, a, v);
    }
    default: return cpu_stn(cpu, a, buf, n);
  }
}

/* The order in which the CPU touches a 28- or 108-byte image, which decides
 * the address a page fault reports: the first dword, then the last byte.
 * WRITE probes writability by writing the bytes back unchanged. */
static int x87_probe_image(struct cpu *cpu, u64 a, unsigned n, int write) {
  u8 b[4], last;
  CPU_TRY(cpu_ldn(cpu, a, b, 4));
  if (write) CPU_TRY(cpu_stn(cpu, a, b, 4));
  CPU_TRY(cpu_ld8(cpu, a + n - 1, &last));
  if (write) CPU_TRY(cpu_st8(cpu, a + n - 1, last));
  return 0;
}

/* A store AMD suppressed (unmasked exception) still faults on memory it
 * could not have written: read the bytes and write them back unchanged. */
static int x87_probe_store(struct cpu *cpu, u64 a, unsigned n) {
  u8 b[16];
  CPU_TRY(x87_load(cpu, a, b, n));
  return x87_store(cpu, a, b, n);
}

/* Runs host opcode HOP for the guest instruction IN. GFOP is the guest's
 * FOP (X87_FOP_FETCH for memory forms); FLAGS_IN the arithmetic flags the
 * host opcode sees (fcmovcc). */
static int x87_run(struct cpu *cpu, const struct cpu_insn *in, unsigned hop,
                   unsigned gfop, unsigned kind, u64 flags_in) {
  struct cpu__x87_job job;
  unsigned msz = kind & X87_MSZ;
  u64 ea = 0;
  if (!(kind & X87_NOWAIT)) CPU_TRY(cpu__x87_wait(cpu));
  if (msz) {
    /* 16-bit environment layouts (66 prefix) are not implemented. */
    if ((msz == 28 || msz == 108) && (in->pfx & CPU_PFX_OPSIZE))
      return cpu__op_unsupported(cpu, in);
    ea = cpu_ea(cpu, in);
  }
  memset(job.mem, 0, sizeof job.mem);
  if (msz > 16) CPU_TRY(x87_probe_image(cpu, ea, msz, (kind & X87_ST) != 0));
  if (kind & X87_LD) CPU_TRY(x87_load(cpu, ea, job.mem, msz));
  x87_image(cpu, job.img, (kind & (X87_CTRL | X87_PLOAD)) != 0);
  job.flags = (kind & X87_FLAGS) ? cpu__rflags(cpu) : flags_in;
  u8 in_img[108];
  if (kind & X87_ST) memcpy(in_img, job.img, sizeof in_img);
  cpu__x87_host(hop, &job);
  if (kind & X87_ST) {
    int store = 1;
    /* An unmasked exception can suppress the store: run again over a
     * differently filled buffer and see whether the bytes were written. */
    if (rd_le16(job.img + 4) & CPU_FSW_ES) {
      struct cpu__x87_job again;
      memcpy(again.img, in_img, sizeof in_img);
      memset(again.mem, 0xff, sizeof again.mem);
      again.flags = job.flags;
      cpu__x87_host(hop, &again);
      store = memcmp(again.mem, job.mem, msz) == 0;
    }
    if (store)
      CPU_TRY(x87_store(cpu, ea, job.mem, msz));
    else if (cpu->cfg.vendor == CPU_VENDOR_AMD)
      CPU_TRY(x87_probe_store(cpu, ea, msz));
    /* Intel (measured) does not touch memory at all then */
  }
  x87_commit(cpu, in, job.img, kind, gfop, ea);
  if (kind & X87_FLAGS) cpu__flags_set(cpu, CPU_ARITH, job.flags);
  return CPU_RC_NEXT;
}

/* ---- Handlers ----------------------------------------------------------
 * X87_MEM: a memory form of opcode OP /DIGIT; X87_NOP: an opcode with no
 * operand; X87_STI: a register form OP MODRM+i with i in in->reg. */
#define X87_MEM(name, op, digit, kind)                                \
  static int name(struct cpu *cpu, const struct cpu_insn *in) {       \
    return x87_run(cpu, in, X87_M(op, digit), X87_FOP_FETCH, kind, 0); \
  }
#define X87_NOP(name, op, modrm, kind)                                     \
  static int name(struct cpu *cpu, const struct cpu_insn *in) {            \
    return x87_run(cpu, in, X87_R(op, modrm), X87_R(op, modrm), kind, 0); \
  }
#define X87_STI(name, op, modrm, kind)                                \
  static int name(struct cpu *cpu, const struct cpu_insn *in) {       \
    unsigned h = X87_R(op, modrm) + (in->reg & 7u);                   \
    return x87_run(cpu, in, h, h, kind, 0);                           \
  }

/* Loads and stores. */
X87_MEM(op_fld_Md, 0xd9, 0, X87_LD | 4)
X87_MEM(op_fld_Mq, 0xdd, 0, X87_LD | 8)
X87_MEM(op_fld_Mt, 0xdb, 5, X87_LD | 10)
X87_STI(op_fld_STi, 0xd9, 0xc0, 0)
X87_MEM(op_fst_Md, 0xd9, 2, X87_ST | 4)
X87_MEM(op_fst_Mq, 0xdd, 2, X87_ST | 8)
X87_STI(op_fst_STi, 0xdd, 0xd0, 0)
X87_MEM(op_fstp_Md, 0xd9, 3, X87_ST | 4)
X87_MEM(op_fstp_Mq, 0xdd, 3, X87_ST | 8)
X87_MEM(op_fstp_Mt, 0xdb, 7, X87_ST | 10)
X87_STI(op_fstp_STi, 0xdd, 0xd8, 0)
X87_MEM(op_fild_Mw, 0xdf, 0, X87_LD | 2)
X87_MEM(op_fild_Md, 0xdb, 0, X87_LD | 4)
X87_MEM(op_fild_Mq, 0xdf, 5, X87_LD | 8)
X87_MEM(op_fist_Mw, 0xdf, 2, X87_ST | 2)
X87_MEM(op_fist_Md, 0xdb, 2, X87_ST | 4)
X87_MEM(op_fistp_Mw, 0xdf, 3, X87_ST | 2)
X87_MEM(op_fistp_Md, 0xdb, 3, X87_ST | 4)
X87_MEM(op_fistp_Mq, 0xdf, 7, X87_ST | 8)
X87_MEM(op_fisttp_Mw, 0xdf, 1, X87_ST | 2)
X87_MEM(op_fisttp_Md, 0xdb, 1, X87_ST | 4)
X87_MEM(op_fisttp_Mq, 0xdd, 1, X87_ST | 8)
X87_MEM(op_fbld_Mt, 0xdf, 4, X87_LD | 10)
X87_MEM(op_fbstp_Mt, 0xdf, 6, X87_ST | 10)
X87_STI(op_fxch_STi, 0xd9, 0xc8, 0)
X87_NOP(op_fld1, 0xd9, 0xe8, 0)
X87_NOP(op_fldl2t, 0xd9, 0xe9, 0)
X87_NOP(op_fldl2e, 0xd9, 0xea, 0)
X87_NOP(op_fldpi, 0xd9, 0xeb, 0)
X87_NOP(op_fldlg2, 0xd9, 0xec, 0)
X87_NOP(op_fldln2, 0xd9, 0xed, 0)
X87_NOP(op_fldz, 0xd9, 0xee, 0)

/* The six arithmetic operations: D8 /d m32, DC /d m64, D8 C0+8d+i
 * (st(0) op= st(i)), DC (st(i) op= st(0)), DE (the same, then pop), DA /d
 * m32int, DE /d m16int. In the DC and DE register forms the CPU swaps the
 * sub/subr and div/divr encodings. */
#define X87_ARITH(mn, mnp, mni, d, dr)                        \
  X87_MEM(op_##mn##_Md, 0xd8, d, X87_LD | 4)                  \
  X87_MEM(op_##mn##_Mq, 0xdc, d, X87_LD | 8)                  \
  X87_STI(op_##mn##_ST0_STi, 0xd8, 0xc0 | (d) << 3, 0)        \
  X87_STI(op_##mn##_STi_ST0, 0xdc, 0xc0 | (dr) << 3, 0)       \
  X87_STI(op_##mnp##_STi_ST0, 0xde, 0xc0 | (dr) << 3, 0)      \
  X87_MEM(op_##mni##_Md, 0xda, d, X87_LD | 4)                 \
  X87_MEM(op_##mni##_Mw, 0xde, d, X87_LD | 2)
X87_ARITH(fadd, faddp, fiadd, 0, 0)
X87_ARITH(fmul, fmulp, fimul, 1, 1)
X87_ARITH(fsub, fsubp, fisub, 4, 5)
X87_ARITH(fsubr, fsubrp, fisubr, 5, 4)
X87_ARITH(fdiv, fdivp, fidiv, 6, 7)
X87_ARITH(fdivr, fdivrp, fidivr, 7, 6)
#undef X87_ARITH

/* Comparisons. */
X87_MEM(op_fcom_Md, 0xd8, 2, X87_LD | 4)
X87_MEM(op_fcom_Mq, 0xdc, 2, X87_LD | 8)
X87_STI(op_fcom_STi, 0xd8, 0xd0, 0)
X87_MEM(op_fcomp_Md, 0xd8, 3, X87_LD | 4)
X87_MEM(op_fcomp_Mq, 0xdc, 3, X87_LD | 8)
X87_STI(op_fcomp_STi, 0xd8, 0xd8, 0)
X87_NOP(op_fcompp, 0xde, 0xd9, 0)
X87_STI(op_fucom_STi, 0xdd, 0xe0, 0)
X87_STI(op_fucomp_STi, 0xdd, 0xe8, 0)
X87_NOP(op_fucompp, 0xda, 0xe9, 0)
X87_MEM(op_ficom_Mw, 0xde, 2, X87_LD | 2)
X87_MEM(op_ficom_Md, 0xda, 2, X87_LD | 4)
X87_MEM(op_ficomp_Mw, 0xde, 3, X87_LD | 2)
X87_MEM(op_ficomp_Md, 0xda, 3, X87_LD | 4)
X87_STI(op_fcomi_STi, 0xdb, 0xf0, X87_FLAGS)
X87_STI(op_fcomip_STi, 0xdf, 0xf0, X87_FLAGS)
X87_STI(op_fucomi_STi, 0xdb, 0xe8, X87_FLAGS)
X87_STI(op_fucomip_STi, 0xdf, 0xe8, X87_FLAGS)
X87_NOP(op_ftst, 0xd9, 0xe4, 0)
X87_NOP(op_fxam, 0xd9, 0xe5, 0)

/* One operand, st(0) (and st(1)). */
X87_NOP(op_fchs, 0xd9, 0xe0, 0)
X87_NOP(op_fabs, 0xd9, 0xe1, 0)
X87_NOP(op_f2xm1, 0xd9, 0xf0, 0)
X87_NOP(op_fyl2x, 0xd9, 0xf1, 0)
X87_NOP(op_fptan, 0xd9, 0xf2, 0)
X87_NOP(op_fpatan, 0xd9, 0xf3, 0)
X87_NOP(op_fxtract, 0xd9, 0xf4, 0)
X87_NOP(op_fprem1, 0xd9, 0xf5, 0)
X87_NOP(op_fdecstp, 0xd9, 0xf6, 0)
X87_NOP(op_fincstp, 0xd9, 0xf7, 0)
X87_NOP(op_fprem, 0xd9, 0xf8, 0)
X87_NOP(op_fyl2xp1, 0xd9, 0xf9, 0)
X87_NOP(op_fsqrt, 0xd9, 0xfa, 0)
X87_NOP(op_fsincos, 0xd9, 0xfb, 0)
X87_NOP(op_frndint, 0xd9, 0xfc, 0)
X87_NOP(op_fscale, 0xd9, 0xfd, 0)
X87_NOP(op_fsin, 0xd9, 0xfe, 0)
X87_NOP(op_fcos, 0xd9, 0xff, 0)
X87_NOP(op_fnop, 0xd9, 0xd0, 0)
X87_STI(op_ffree_STi, 0xdd, 0xc0, 0)
X87_STI(op_ffreep_STi, 0xdf, 0xc0, 0)

/* fcmovcc st(0), st(i) (DA/DB C0+8k+i): the condition comes from the
 * guest's flags through cpu__cond; the host runs fcmovb with CF set to it,
 * so the x87 side (stack underflow, tags, FOP) is the CPU's. */
#define X87_FCMOV(mn, op, modrm, cond)                                    \
  static int op_##mn##_ST0_STi(struct cpu *cpu,                           \
                               const struct cpu_insn *in) {               \
    unsigned i = in->reg2 & 7u;                                           \
    u64 cf = cpu__cond(cpu, cond) ? CPU_CF : 0;                           \
    return x87_run(cpu, in, X87_R(0xda, 0xc0) + i, X87_R(op, modrm) + i, 0, \
                   cf);                                                   \
  }
X87_FCMOV(fcmovb, 0xda, 0xc0, 2)
X87_FCMOV(fcmove, 0xda, 0xc8, 4)
X87_FCMOV(fcmovbe, 0xda, 0xd0, 6)
X87_FCMOV(fcmovu, 0xda, 0xd8, 10)
X87_FCMOV(fcmovnb, 0xdb, 0xc0, 3)
X87_FCMOV(fcmovne, 0xdb, 0xc8, 5)
X87_FCMOV(fcmovnbe, 0xdb, 0xd0, 7)
X87_FCMOV(fcmovnu, 0xdb, 0xd8, 11)
#undef X87_FCMOV

/* Environment and state images (32-bit protected-mode layouts, which is
 * what 64-bit mode uses). fnstenv masks every exception after storing;
 * fnsave reinitialises. */
X87_MEM(op_fldenv_M, 0xd9, 4, X87_LD | X87_PLOAD | 28)
X87_MEM(op_fnstenv_M, 0xd9, 6, X87_ST | X87_NOWAIT | X87_CTRL | 28)
X87_MEM(op_frstor_M, 0xdd, 4, X87_LD | X87_PLOAD | 108)
X87_MEM(op_fnsave_M, 0xdd, 6, X87_ST | X87_NOWAIT | X87_PLOAD | 108)

#undef X87_MEM
#undef X87_NOP
#undef X87_STI

/* ---- Control instructions in C ---------------------------------------- */

static int op_fldcw_Mw(struct cpu *cpu, const struct cpu_insn *in) {
  u16 v;
  CPU_TRY(cpu__x87_wait(cpu));
  CPU_TRY(cpu_ld16(cpu, cpu_ea(cpu, in), &v));
  /* Bits 7 and 13-15 are reserved and read as 0, bit 6 reads as 1. */
  cpu->x87.fcw = (u16)((v & 0x1f3f) | 0x40);
  cpu__x87_fix_es(cpu);
  return CPU_RC_NEXT;
}

static int op_fnstcw_Mw(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_st16(cpu, cpu_ea(cpu, in), cpu->x87.fcw);
}

static int op_fnstsw_M(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_st16(cpu, cpu_ea(cpu, in), cpu->x87.fsw);
}

static int op_fnstsw_AX(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu_reg_set(cpu, RW_REG_rax, 2, cpu->x87.fsw);
  return CPU_RC_NEXT;
}

static int op_fnclex(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu->x87.fsw &= 0x7f00; /* flags, SF, ES and B */
  return CPU_RC_NEXT;
}

static int op_fninit(struct cpu *cpu, const struct cpu_insn *in) {
  struct cpu_x87 *x = &cpu->x87;
  (void)in;
  x->fcw = 0x37f;
  x->fsw = 0;
  x->ftw = 0;
  x->fop = 0;
  x->fip = 0;
  x->fdp = 0;
  return CPU_RC_NEXT;
}

static int op_fwait(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  return cpu__x87_wait(cpu);
}

static const struct cpu__oprow x87_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/x87.def"
#undef OP
};
CPU__FAMILY_TABLE(x87)
