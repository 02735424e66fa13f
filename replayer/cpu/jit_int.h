/* SPDX-License-Identifier: MIT */
/* The translator's code generation, shared by jit.c (blocks, the integer
 * instructions, the code cache) and jit_sse.c (the SSE, AVX and FMA
 * instructions): a small x86-64 encoder, the guest state and memory as
 * translated code reaches them, the slow paths emitted after a block.
 * Private to replayer/cpu. */
#ifndef RW_REPLAYER_CPU_JIT_INT_H
#define RW_REPLAYER_CPU_JIT_INT_H

#include <stddef.h>

#include "replayer/cpu/sse_util.h"

/* The code cache of one address space: one mapping, filled in order and
 * emptied whole when full (every translation dropped). */
#define CACHE_SIZE (64u << 20)
/* Room a block's translation may need at most: 64 instructions of at most
 * 300 bytes of code and 100 of slow paths. */
#define BLOCK_ROOM (64u * 400u + 512u)

struct cpu__jit {
  u8 *base;       /* the mapping (NULL: no cache could be made): first
                     the links of indirect branches (struct link
                     [IND_SIZE], by target), then code */
  size_t used;    /* bytes handed out */
  u64 blocks;     /* blocks translated since the cache was made */
  u64 insns;      /* instructions of theirs translated, not called */
  u64 flushes;    /* times the cache was emptied */
  int broken;     /* mmap failed: never try again */
};

/* ---- A small x86-64 encoder -------------------------------------------- */

enum {
  H_AX, H_CX, H_DX, H_BX, H_SP, H_BP, H_SI, H_DI,
  H_R8, H_R9, H_R10, H_R11, H_R12, H_R13, H_R14, H_R15
};
/* Roles (jit.c's file comment). */
enum { R_CPU = H_BX, R_EA = H_R12, R_A = H_R13, R_B = H_R14, R_R = H_R15 };
#define NOIDX 0xffu

/* The rm operand of an encoded instruction: a host register, or memory at
 * base + index * 2^scale + disp. */
struct xrm {
  u8 mem, r, base, index, scale;
  i32 disp;
};
static inline struct xrm xr(unsigned r) {
  return (struct xrm){0, (u8)r, 0, NOIDX, 0, 0};
}
static inline struct xrm xm(unsigned base, i32 disp) {
  return (struct xrm){1, 0, (u8)base, NOIDX, 0, disp};
}
static inline struct xrm xmi(unsigned base, unsigned index, i32 disp) {
  return (struct xrm){1, 0, (u8)base, (u8)index, 0, disp};
}

/* A slow path of one guest memory access, emitted after the block. */
struct stub {
  u32 jne;      /* offset of the rel32 of the jne to it */
  u32 back;     /* where it returns to */
  u8 store;     /* a store (else a load) */
  u8 size;      /* bytes */
  u8 reg;       /* host register loaded into or stored from */
  u8 k;         /* the instruction's index in the block */
  u8 vec;       /* REG is an xmm (16-byte accesses) or ymm (32-byte)
                   register */
};

/* A jump from an instruction's translation to a call of its handler, for
 * what the translation does not do itself (a misaligned operand, a guest
 * MXCSR the host cannot run under): emitted after the block, it calls the
 * handler and goes on at BACK. */
struct ool {
  u32 jcc;      /* offset of the rel32 of the jump to it */
  u32 back;     /* where it goes on (the instruction's end) */
  u8 k;
};

/* A link: where a translation goes next without returning to run.c,
 * filled in by cpu__jit_link. It holds while mem->code_gen is GEN (no
 * block dropped since), the guest target is TARGET, the budget has room
 * for the N instructions of the next block and no stop is asked. */
struct link {
  u64 gen;      /* ~0: not linked */
  u64 target;
  u64 n;
  void *entry;  /* the next translation, past its prologue */
};
#define MAX_LINKS 2
/* Links of the branches whose target is computed (ret, jmp and call
 * through a register or memory), shared by all blocks: one per target,
 * hashed by its low bits. */
#define IND_SIZE 4096u
#define IND_BYTES (IND_SIZE * sizeof(struct link))

/* One translation in progress. */
struct tr {
  struct link *links;           /* this block's, before its code */
  unsigned nlinks;
  struct cpu_mem *mem;
  u8 *start, *p, *end;
  int bad;                      /* ran out of room */
  struct cpu__block *b;
  u64 addr[65];                 /* guest address of each instruction, and
                                   of the end of the block */
  struct stub stubs[160];
  unsigned nstubs;
  struct ool ools[128];
  unsigned nools, ool0;         /* OOLS[OOL0..] are the current
                                   instruction's, BACK still to set */
  u32 epilogue;                 /* offset of the epilogue, once emitted */
  /* Forward jumps to fill in once their targets exist. */
  struct {
    u32 at;                     /* offset of the rel32 */
    u8 kind;                    /* FIX_EPILOGUE, FIX_FAULT, FIX_DEAD */
    u8 k;
  } fix[1024];
  unsigned nfix;
  int cc_kind;                  /* CC_* kind the last translated
                                   instruction left in cpu->cc, or -1 */
  unsigned cc_sz;               /* its operand size */
  int may_die;                  /* the current instruction stores through
                                   a slow path or calls a handler */
  u64 target;                   /* exit_to's target (~0: none) */
  int cc_dead;                  /* the flags the current instruction sets
                                   are set again before anything can read
                                   them or the block can be left */
};
enum { FIX_EPILOGUE, FIX_FAULT, FIX_DEAD };

static inline void b1(struct tr *t, unsigned x) {
  if (t->p < t->end)
    *t->p++ = (u8)x;
  else
    t->bad = 1;
}
static inline void b4(struct tr *t, u32 x) {
  for (int i = 0; i < 4; i++) b1(t, (x >> (8 * i)) & 0xff);
}
static inline void b8(struct tr *t, u64 x) {
  b4(t, (u32)x);
  b4(t, (u32)(x >> 32));
}
static inline u32 here(const struct tr *t) { return (u32)(t->p - t->start); }

/* ModRM [SIB] [disp] of REG and RM. */
static inline void modrm(struct tr *t, unsigned reg, struct xrm rm) {
  if (!rm.mem) {
    b1(t, 0xc0 | (reg & 7) << 3 | (rm.r & 7));
    return;
  }
  {
    unsigned base = rm.base & 7, mod;
    int sib = rm.index != NOIDX || base == 4;
    if (rm.disp == 0 && base != 5)
      mod = 0;
    else if (rm.disp >= -128 && rm.disp <= 127)
      mod = 1;
    else
      mod = 2;
    b1(t, mod << 6 | (reg & 7) << 3 | (sib ? 4u : base));
    if (sib)
      b1(t, (unsigned)rm.scale << 6 |
                ((rm.index == NOIDX ? 4u : rm.index) & 7) << 3 | base);
    if (mod == 1) b1(t, (u8)rm.disp);
    if (mod == 2) b4(t, (u32)rm.disp);
  }
}

/* [66] [REX] OP (NOP bytes, first byte in the highest position) ModRM
 * [SIB] [disp]. SZ 2 adds 66 and 8 REX.W; REG is ModRM.reg (a register or
 * an opcode extension). BYTEREG: bit 0, REG is a byte register; bit 1, a
 * register RM is: spl, bpl, sil, dil need a REX. */
static inline void enc(struct tr *t, unsigned sz, u32 op, unsigned nop, unsigned reg,
                struct xrm rm, int bytereg) {
  unsigned rex = 0x40;
  if (sz == 2) b1(t, 0x66);
  if (sz == 8) rex |= 8;
  if (reg & 8) rex |= 4;
  if (rm.mem) {
    if (rm.index != NOIDX && (rm.index & 8)) rex |= 2;
    if (rm.base & 8) rex |= 1;
  } else if (rm.r & 8) {
    rex |= 1;
  }
  if (rex != 0x40 || ((bytereg & 1) && reg >= 4 && reg < 8) ||
      ((bytereg & 2) && !rm.mem && rm.r >= 4 && rm.r < 8))
    b1(t, rex);
  for (unsigned i = nop; i-- > 0;) b1(t, (op >> (8 * i)) & 0xff);
  modrm(t, reg, rm);
}

/* A VEX-encoded host instruction: C4, the map (1: 0F, 2: 0F38, 3: 0F3A),
 * W, the second source VVVV, L (256 bits), PP (0: none, 1: 66, 2: F3,
 * 3: F2), then OP and ModRM as enc's. */
static inline void venc(struct tr *t, unsigned map, int w, unsigned vvvv,
                        int l, unsigned pp, unsigned op, unsigned reg,
                        struct xrm rm) {
  unsigned x = rm.mem && rm.index != NOIDX ? rm.index : 0;
  unsigned b = rm.mem ? rm.base : rm.r;
  b1(t, 0xc4);
  b1(t, (reg & 8 ? 0u : 0x80u) | (x & 8 ? 0u : 0x40u) |
            (b & 8 ? 0u : 0x20u) | map);
  b1(t, (w ? 0x80u : 0) | (~vvvv & 15) << 3 | (l ? 4u : 0) | pp);
  b1(t, op);
  modrm(t, reg, rm);
}

/* Integer ALU operations by their ModRM.reg extension. */
enum {
  X_ADD = 0, X_OR = 1, X_ADC = 2, X_SBB = 3, X_AND = 4, X_SUB = 5,
  X_XOR = 6, X_CMP = 7
};

/* op r/m, reg at SZ bytes (the 00-3F row: op | 1 for sizes above 1). */
static inline void alu_rr(struct tr *t, unsigned x, unsigned sz, unsigned dst,
                   unsigned src) {
  enc(t, sz, x * 8 + (sz == 1 ? 0 : 1), 1, src, xr(dst), 3);
}
static inline void mov_rr(struct tr *t, unsigned dst, unsigned src) {
  enc(t, 8, 0x89, 1, src, xr(dst), 0);
}
/* mov DST, [m] / mov [m], SRC, 64-bit. */
static inline void ld64(struct tr *t, unsigned dst, struct xrm m) {
  enc(t, 8, 0x8b, 1, dst, m, 0);
}
static inline void st64(struct tr *t, struct xrm m, unsigned src) {
  enc(t, 8, 0x89, 1, src, m, 0);
}
/* H = V, any 64-bit constant. */
static inline void mov_imm(struct tr *t, unsigned h, u64 v) {
  if (v <= 0xffffffffu) {
    if (h & 8) b1(t, 0x41);
    b1(t, 0xb8 + (h & 7));
    b4(t, (u32)v);
  } else if ((i64)v == (i32)v) {
    enc(t, 8, 0xc7, 1, 0, xr(h), 0);
    b4(t, (u32)v);
  } else {
    b1(t, 0x48 | (h & 8 ? 1 : 0));
    b1(t, 0xb8 + (h & 7));
    b8(t, v);
  }
}
/* The 64-bit field at [rbx + OFF] = V. */
static inline void st_const64(struct tr *t, i32 off, u64 v) {
  if ((i64)v == (i32)v) {
    enc(t, 8, 0xc7, 1, 0, xm(R_CPU, off), 0);
    b4(t, (u32)v);
  } else {
    mov_imm(t, H_AX, v);
    st64(t, xm(R_CPU, off), H_AX);
  }
}
static inline void st_const32(struct tr *t, i32 off, u32 v) {
  enc(t, 4, 0xc7, 1, 0, xm(R_CPU, off), 0);
  b4(t, v);
}
/* call FN (absolute, through rax). */
static inline void call_abs(struct tr *t, const void *fn) {
  mov_imm(t, H_AX, (u64)(uintptr_t)fn);
  enc(t, 4, 0xff, 1, 2, xr(H_AX), 0);
}
/* jcc rel32 / jmp rel32 to be patched; return the rel32's offset. */
static inline u32 jcc32(struct tr *t, unsigned cc) {
  b1(t, 0x0f);
  b1(t, 0x80 + cc);
  b4(t, 0);
  return here(t) - 4;
}
static inline u32 jmp32(struct tr *t) {
  b1(t, 0xe9);
  b4(t, 0);
  return here(t) - 4;
}
static inline void patch(struct tr *t, u32 at, u32 target) {
  i32 rel = (i32)(target - (at + 4));
  if (t->bad || at + 4 > (u32)(t->end - t->start)) return;
  memcpy(t->start + at, &rel, 4);
}
static inline void fixup(struct tr *t, u32 at, int kind, unsigned k) {
  if (t->nfix == RW_ARRAY_SIZE(t->fix)) {
    t->bad = 1;
    return;
  }
  t->fix[t->nfix].at = at;
  t->fix[t->nfix].kind = (u8)kind;
  t->fix[t->nfix].k = (u8)k;
  t->nfix++;
}

/* ---- Guest state ------------------------------------------------------- */

#define OFF(field) ((i32)offsetof(struct cpu, field))
#define CC_OFF(f) (OFF(cc) + (i32)offsetof(struct cc, f))

/* Offset of guest register R (cpu_insn numbering) at SZ bytes. */
static inline i32 goff(unsigned r, unsigned sz) {
  if (sz == 1 && r >= CPU_REG_AH) return OFF(gpr) + 8 * (i32)(r - CPU_REG_AH) + 1;
  return OFF(gpr) + 8 * (i32)r;
}

/* H = guest register R at SZ bytes, zero-extended (cpu_reg_get). */
static inline void get_reg(struct tr *t, unsigned h, unsigned r, unsigned sz) {
  struct xrm m = xm(R_CPU, goff(r, sz));
  if (sz == 1)
    enc(t, 4, 0x0fb6, 2, h, m, 0);
  else if (sz == 2)
    enc(t, 4, 0x0fb7, 2, h, m, 0);
  else
    enc(t, sz == 4 ? 4 : 8, 0x8b, 1, h, m, 0);
}

/* Guest register R at SZ bytes = H, with cpu_reg_set's rules (8 and 16-bit
 * writes merge, 32-bit writes zero-extend). */
static inline void set_reg(struct tr *t, unsigned r, unsigned sz, unsigned h) {
  struct xrm m = xm(R_CPU, goff(r, sz));
  if (sz == 1) {
    enc(t, 1, 0x88, 1, h, m, 1);
  } else if (sz == 2) {
    enc(t, 2, 0x89, 1, h, m, 0);
  } else if (sz == 4) {
    enc(t, 4, 0x89, 1, h, xr(H_AX), 0); /* mov eax, h32 */
    st64(t, m, H_AX);
  } else {
    st64(t, m, h);
  }
}

/* H = its low SZ bytes, zero-extended. */
static inline void trunc_reg(struct tr *t, unsigned h, unsigned sz) {
  if (sz == 1)
    enc(t, 4, 0x0fb6, 2, h, xr(h), 2);
  else if (sz == 2)
    enc(t, 4, 0x0fb7, 2, h, xr(h), 0);
  else if (sz == 4)
    enc(t, 4, 0x89, 1, h, xr(h), 0);
}

/* cpu->cc = {KIND + log2(SZ), dst, src1, src2} from host registers
 * (NOIDX: the field is 0). */
static inline void set_cc(struct tr *t, unsigned kind, unsigned sz, unsigned dst,
                   unsigned s1, unsigned s2) {
  t->cc_kind = (int)kind;
  t->cc_sz = sz;
  if (t->cc_dead) return; /* overwritten before anything can see it */
  st_const32(t, CC_OFF(op), CC_OP(kind, sz));
  st64(t, xm(R_CPU, CC_OFF(dst)), dst);
  if (s1 == NOIDX)
    st_const64(t, CC_OFF(src1), 0);
  else
    st64(t, xm(R_CPU, CC_OFF(src1)), s1);
  if (s2 == NOIDX)
    st_const64(t, CC_OFF(src2), 0);
  else
    st64(t, xm(R_CPU, CC_OFF(src2)), s2);
}

/* rip = V. */
static inline void set_rip(struct tr *t, u64 v) {
  mov_imm(t, H_CX, v);
  st64(t, xm(R_CPU, OFF(rip)), H_CX);
}

/* Leaves with code RC (rip already right). */
static inline void leave_rc(struct tr *t, int rc) {
  if (rc)
    mov_imm(t, H_AX, (u64)rc);
  else
    enc(t, 4, 0x31, 1, H_AX, xr(H_AX), 0); /* xor eax, eax */
  fixup(t, jmp32(t), FIX_EPILOGUE, 0);
}

/* ---- Conditions -------------------------------------------------------- */

/* Makes the host flags say what guest condition COND (0-15) says, and
 * returns the host condition to test: the guest flags are rebuilt by
 * running the operation recorded in cpu->cc again on the host, when the
 * translation knows its kind; otherwise cpu__cond answers. */
static inline unsigned cond_flags(struct tr *t, unsigned cond) {
  unsigned sz = t->cc_sz;
  switch (t->cc_kind) {
    case CC_SUB:
    case CC_ADD:
      ld64(t, H_AX, xm(R_CPU, CC_OFF(src1)));
      ld64(t, H_CX, xm(R_CPU, CC_OFF(src2)));
      alu_rr(t, t->cc_kind == CC_SUB ? X_CMP : X_ADD, sz, H_AX, H_CX);
      return cond;
    case CC_LOGIC:
      ld64(t, H_AX, xm(R_CPU, CC_OFF(dst)));
      enc(t, sz, sz == 1 ? 0x84 : 0x85, 1, H_AX, xr(H_AX), 0);
      return cond;
    case CC_INC:
    case CC_DEC:
      /* CF is the old one, kept in src2: bt sets it, inc/dec keep it. */
      ld64(t, H_CX, xm(R_CPU, CC_OFF(src2)));
      enc(t, 4, 0x0fba, 2, 4, xr(H_CX), 0);
      b1(t, 0);
      ld64(t, H_AX, xm(R_CPU, CC_OFF(src1)));
      enc(t, sz, sz == 1 ? 0xfe : 0xff, 1, t->cc_kind == CC_INC ? 0 : 1,
          xr(H_AX), 0);
      return cond;
    case CC_EFLAGS:
      if (cond < 12) {
        /* o b e be s p: one test of the stored flags (even conditions
         * true when a bit is set, odd ones when none is) */
        static const u32 bits[6] = {CPU_OF, CPU_CF, CPU_ZF,
                                    CPU_CF | CPU_ZF, CPU_SF, CPU_PF};
        ld64(t, H_AX, xm(R_CPU, CC_OFF(src1)));
        enc(t, 4, 0xf7, 1, 0, xr(H_AX), 0); /* test eax, bits */
        b4(t, bits[cond / 2]);
        return cond & 1 ? 4 : 5;
      }
      /* fall through */
    default:
      mov_rr(t, H_DI, R_CPU);
      if (cond == 2 || cond == 3) {
        /* b, ae: CF alone, which cpu__flag_cf gets without the others */
        call_abs(t, (const void *)cpu__flag_cf);
        enc(t, 4, 0x85, 1, H_AX, xr(H_AX), 0);
        return cond == 2 ? 5 : 4;
      }
      mov_imm(t, H_SI, cond);
      call_abs(t, (const void *)cpu__cond);
      enc(t, 4, 0x85, 1, H_AX, xr(H_AX), 0); /* test eax, eax */
      return 5;                               /* ne */
  }
}

/* H = COND ? 1 : 0. */
static inline void cond_value(struct tr *t, unsigned h, unsigned cond) {
  unsigned hc = cond_flags(t, cond);
  enc(t, 4, 0x0f90 + hc, 2, 0, xr(H_AX), 2); /* setcc al */
  enc(t, 4, 0x0fb6, 2, h, xr(H_AX), 2);      /* movzx h, al */
}

/* ---- Guest memory ------------------------------------------------------ */

/* The effective address of IN's memory operand into r12 (cpu_ea);
 * LEA: without the segment base. */
static inline void ea(struct tr *t, const struct cpu_insn *in, int lea) {
  if (in->base != CPU_REG_NONE) {
    ld64(t, R_EA, xm(R_CPU, goff(in->base, 8)));
    if (in->disp) {
      if (in->disp == (i32)in->disp) {
        enc(t, 8, 0x8d, 1, R_EA, xm(R_EA, (i32)in->disp), 0);
      } else {
        mov_imm(t, H_AX, (u64)in->disp);
        alu_rr(t, X_ADD, 8, R_EA, H_AX);
      }
    }
  } else {
    mov_imm(t, R_EA, (u64)in->disp);
  }
  if (in->index != CPU_REG_NONE) {
    struct xrm m = xmi(R_EA, H_AX, 0);
    ld64(t, H_AX, xm(R_CPU, goff(in->index, 8)));
    m.scale = in->scale;
    enc(t, 8, 0x8d, 1, R_EA, m, 0); /* lea r12, [r12 + rax << scale] */
  }
  if (!lea && in->seg != CPU_SEG_NONE)
    enc(t, 8, 0x03, 1, R_EA,
        xm(R_CPU, OFF(segbase) + 8 * (i32)in->seg), 0); /* add r12, [..] */
}

/* The TLB probe of an access of SZ bytes at r12 in the TLB at OFF: jumps to
 * a new stub on a miss; on a hit leaves the host address in rcx and sets
 * last_read or last_write (LAST). Returns the stub. */
_Static_assert(sizeof(struct cpu_tlbe) == 16, "the probe's entry offsets");
static inline struct stub *probe(struct tr *t, i32 off, i32 last, unsigned sz) {
  struct stub *s;
  /* rax = the entry's offset: ((a >> 12) & (TLB_SIZE - 1)) * 16 */
  mov_rr(t, H_AX, R_EA);
  enc(t, 8, 0xc1, 1, 5, xr(H_AX), 0); /* shr rax, 8 */
  b1(t, 8);
  enc(t, 4, 0x81, 1, 4, xr(H_AX), 0); /* and eax, (TLB_SIZE - 1) << 4 */
  b4(t, (CPU_TLB_SIZE - 1) << 4);
  enc(t, 8, 0x8d, 1, H_CX, xm(R_EA, (i32)sz - 1), 0);
  enc(t, 8, 0x81, 1, 4, xr(H_CX), 0); /* and rcx, -4096 */
  b4(t, 0xfffff000u);
  enc(t, 8, 0x3b, 1, H_CX, xmi(R_CPU, H_AX, off), 0); /* cmp rcx, page */
  if (t->nstubs == RW_ARRAY_SIZE(t->stubs)) {
    t->bad = 1;
    return &t->stubs[0];
  }
  s = &t->stubs[t->nstubs++];
  s->jne = jcc32(t, 5);
  ld64(t, H_CX, xmi(R_CPU, H_AX, off + 8)); /* addend: at [rcx + r12] */
  st64(t, xm(R_CPU, last), R_EA);
  st_const32(t, last + 8, sz);
  return s;
}

/* H = SZ bytes at r12, zero-extended (cpu_ld). */
static inline void mem_ld(struct tr *t, unsigned k, unsigned sz, unsigned h) {
  struct stub *s = probe(t, OFF(tlb_r), OFF(last_read), sz);
  struct xrm m = xmi(H_CX, R_EA, 0);
  if (sz == 1)
    enc(t, 4, 0x0fb6, 2, h, m, 0);
  else if (sz == 2)
    enc(t, 4, 0x0fb7, 2, h, m, 0);
  else
    enc(t, sz, 0x8b, 1, h, m, 0);
  s->back = here(t);
  s->store = 0;
  s->size = (u8)sz;
  s->reg = (u8)h;
  s->k = (u8)k;
}

/* SZ bytes at r12 = H (cpu_st). */
static inline void mem_st(struct tr *t, unsigned k, unsigned sz, unsigned h) {
  struct stub *s = probe(t, OFF(tlb_w), OFF(last_write), sz);
  enc(t, sz, sz == 1 ? 0x88 : 0x89, 1, h, xmi(H_CX, R_EA, 0), 1);
  s->back = here(t);
  s->store = 1;
  s->size = (u8)sz;
  s->reg = (u8)h;
  s->k = (u8)k;
  t->may_die = 1;
}

/* ---- Vector registers and memory ---------------------------------------- */

/* Offset of vector register R (its low 16 bytes are the XMM register). */
static inline i32 yoff(unsigned r) {
  return OFF(ymm) + (i32)(sizeof(union cpu_vec) * r);
}

/* [PFX] [REX] 0F OP with ModRM reg REG and RM (REX.W when W). */
static inline void sse_enc(struct tr *t, unsigned pfx, unsigned op, int w,
                    unsigned reg, struct xrm rm) {
  if (pfx) b1(t, pfx);
  enc(t, w ? 8 : 4, 0x0f00 | op, 2, reg, rm, 0);
}
/* Host xmm X = 16 bytes at M / M = xmm X (movups). */
static inline void xld16(struct tr *t, unsigned x, struct xrm m) {
  sse_enc(t, 0, 0x10, 0, x, m);
}
static inline void xst16(struct tr *t, struct xrm m, unsigned x) {
  sse_enc(t, 0, 0x11, 0, x, m);
}
/* Host ymm Y = 32 bytes at M / M = ymm Y (vmovups); vzeroupper, after a
 * translation that used the upper halves, so that the host's legacy SSE
 * code (handlers, translations) runs without a transition cost. */
static inline void yld32(struct tr *t, unsigned y, struct xrm m) {
  venc(t, 1, 0, 0, 1, 0, 0x10, y, m);
}
static inline void yst32(struct tr *t, struct xrm m, unsigned y) {
  venc(t, 1, 0, 0, 1, 0, 0x11, y, m);
}
static inline void host_vzeroupper(struct tr *t) {
  b1(t, 0xc5);
  b1(t, 0xf8);
  b1(t, 0x77);
}
/* Host xmm X = the general register H, zero-extended (movq). */
static inline void xfrom64(struct tr *t, unsigned x, unsigned h) {
  sse_enc(t, 0x66, 0x6e, 1, x, xr(h));
}

/* Records the slow path of instruction K's 16- or 32-byte (SZ) access
 * through host xmm or ymm X, whose probe returned S and whose fast path
 * was just emitted. */
static inline void vmem_stub(struct tr *t, struct stub *s, unsigned k,
                             unsigned x, int store, unsigned sz) {
  s->back = here(t);
  s->store = (u8)store;
  s->size = (u8)sz;
  s->reg = (u8)x;
  s->k = (u8)k;
  s->vec = 1;
  if (store) t->may_die = 1;
}
/* Host xmm X = SZ (16) bytes at r12 (cpu_ld128), or ymm X = SZ (32)
 * bytes (cpu_ld256). */
static inline void vmem_ld(struct tr *t, unsigned k, unsigned x,
                           unsigned sz) {
  struct stub *s = probe(t, OFF(tlb_r), OFF(last_read), sz);
  if (sz == 32)
    yld32(t, x, xmi(H_CX, R_EA, 0));
  else
    xld16(t, x, xmi(H_CX, R_EA, 0));
  vmem_stub(t, s, k, x, 0, sz);
}
/* SZ (16 or 32) bytes at r12 = host xmm or ymm X (cpu_st128, cpu_st256). */
static inline void vmem_st(struct tr *t, unsigned k, unsigned x,
                           unsigned sz) {
  struct stub *s = probe(t, OFF(tlb_w), OFF(last_write), sz);
  if (sz == 32)
    yst32(t, xmi(H_CX, R_EA, 0), x);
  else
    xst16(t, xmi(H_CX, R_EA, 0), x);
  vmem_stub(t, s, k, x, 1, sz);
}

/* The slow path of a vector access: cpu__ld_slow / cpu__st_slow through
 * cpu->jit_tmp. */
static inline void vec_stub(struct tr *t, const struct stub *s) {
  struct xrm tmp = xm(R_CPU, OFF(jit_tmp));
  _Static_assert(sizeof(union cpu_vec) >= 32, "jit_tmp holds a ymm");
  if (s->store && s->size == 32)
    yst32(t, tmp, s->reg);
  else if (s->store)
    xst16(t, tmp, s->reg);
  mov_rr(t, H_DI, R_CPU);
  mov_rr(t, H_SI, R_EA);
  enc(t, 8, 0x8d, 1, H_DX, tmp, 0); /* lea rdx, jit_tmp */
  mov_imm(t, H_CX, s->size);
  call_abs(t, s->store ? (const void *)cpu__st_slow
                       : (const void *)cpu__ld_slow);
  enc(t, 4, 0x85, 1, H_AX, xr(H_AX), 0);
  fixup(t, jcc32(t, 5), FIX_FAULT, s->k);
  if (s->store) {
    mov_imm(t, H_CX, (u64)(uintptr_t)&t->b->dead);
    enc(t, 4, 0x0fb7, 2, H_BP, xm(H_CX, 0), 0);
  } else if (s->size == 32) {
    yld32(t, s->reg, tmp);
  } else {
    xld16(t, s->reg, tmp);
  }
  patch(t, jmp32(t), s->back);
}

/* A jump (host condition CC) to a call of instruction K's handler. */
static inline void to_handler(struct tr *t, unsigned cc, unsigned k) {
  if (t->nools == RW_ARRAY_SIZE(t->ools)) {
    t->bad = 1;
    return;
  }
  t->ools[t->nools].jcc = jcc32(t, cc);
  t->ools[t->nools].k = (u8)k;
  t->nools++;
  t->may_die = 1;
}
/* The current instruction's translation ends here: its jumps to the
 * handler come back here. */
static inline void ool_back(struct tr *t) {
  for (; t->ool0 < t->nools; t->ool0++) t->ools[t->ool0].back = here(t);
}
static inline void emit_ools(struct tr *t) {
  for (unsigned i = 0; i < t->nools; i++) {
    const struct ool *o = &t->ools[i];
    const struct cpu_insn *in = &t->b->insns[o->k];
    patch(t, o->jcc, here(t));
    set_rip(t, t->addr[o->k]);
    mov_rr(t, H_DI, R_CPU);
    mov_imm(t, H_SI, (u64)(uintptr_t)in);
    call_abs(t, (const void *)in->fn);
    enc(t, 4, 0x85, 1, H_AX, xr(H_AX), 0);
    fixup(t, jcc32(t, 5), FIX_EPILOGUE, 0); /* rip is at it */
    mov_imm(t, H_CX, (u64)(uintptr_t)&t->b->dead);
    enc(t, 4, 0x0fb7, 2, H_BP, xm(H_CX, 0), 0);
    patch(t, jmp32(t), o->back);
  }
}

/* ---- The guest's MXCSR ---------------------------------------------------
 *
 * Translated SSE arithmetic runs under the host's MXCSR as it is: loading
 * it costs about 30 ns here when it is read back soon after, against
 * about 1 ns for the instruction. That needs the host's control bits to be
 * the guest's (rounding, DAZ, FTZ, every exception masked) and the host's
 * flags to be some of the guest's; then the flags after the instruction,
 * ORed into the guest's, are what the guest's MXCSR becomes. Otherwise
 * the handler runs the instruction. */

/* Whether the host's MXCSR masks every exception (else no SSE arithmetic
 * is translated: it would trap). */
static inline int host_masked(void) {
  static int v = -1;
  if (v < 0) {
    u32 m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    v = (m & 0x1f80u) == 0x1f80u;
  }
  return v;
}

/* The check before instruction K's arithmetic: to its handler when the
 * control bits differ; the host's flags cleared to the guest's when it
 * has one the guest lacks. */
static inline void mx_check(struct tr *t, unsigned k) {
  u32 ok;
  enc(t, 4, 0x0fae, 2, 3, xm(H_SP, 0), 0);                /* stmxcsr [rsp] */
  enc(t, 4, 0x8b, 1, H_AX, xm(H_SP, 0), 0);               /* mov eax, [rsp] */
  enc(t, 4, 0x33, 1, H_AX, xm(R_CPU, OFF(mxcsr)), 0);     /* xor eax, mx */
  enc(t, 4, 0xf7, 1, 0, xr(H_AX), 0);                     /* test eax, ~3f */
  b4(t, 0xffffffc0u);
  to_handler(t, 5, k);
  enc(t, 4, 0x23, 1, H_AX, xm(H_SP, 0), 0);               /* and eax, [rsp] */
  ok = jcc32(t, 4);
  enc(t, 4, 0x0fae, 2, 2, xm(R_CPU, OFF(mxcsr)), 0);      /* ldmxcsr mx */
  patch(t, ok, here(t));
}
/* After it: the flags into the guest's MXCSR. */
static inline void mx_flags(struct tr *t) {
  enc(t, 4, 0x0fae, 2, 3, xm(H_SP, 0), 0);                /* stmxcsr [rsp] */
  enc(t, 4, 0x8b, 1, H_AX, xm(H_SP, 0), 0);
  enc(t, 4, 0x83, 1, 4, xr(H_AX), 0);                     /* and eax, 3f */
  b1(t, 0x3f);
  enc(t, 4, 0x09, 1, H_AX, xm(R_CPU, OFF(mxcsr)), 0);     /* or mx, eax */
}

/* The slow paths, after the block's code. */
static inline void emit_stubs(struct tr *t) {
  for (unsigned i = 0; i < t->nstubs; i++) {
    const struct stub *s = &t->stubs[i];
    patch(t, s->jne, here(t));
    if (s->vec) {
      vec_stub(t, s);
      continue;
    }
    mov_rr(t, H_DI, R_CPU);
    mov_rr(t, H_SI, R_EA);
    if (s->store) {
      mov_rr(t, H_DX, s->reg);
      mov_imm(t, H_CX, s->size);
      call_abs(t, (const void *)cpu__st_slow_int);
      enc(t, 4, 0x85, 1, H_AX, xr(H_AX), 0);
      fixup(t, jcc32(t, 5), FIX_FAULT, s->k);
      /* A store may have dropped this block's code (rbp = b->dead). */
      mov_imm(t, H_CX, (u64)(uintptr_t)&t->b->dead);
      enc(t, 4, 0x0fb7, 2, H_BP, xm(H_CX, 0), 0); /* movzx ebp, word */
    } else {
      mov_imm(t, H_DX, s->size);
      call_abs(t, (const void *)cpu__ld_slow_int);
      enc(t, 4, 0x85, 1, H_DX, xr(H_DX), 0); /* test edx, edx */
      {
        u32 ok = jcc32(t, 4);                 /* je ok */
        enc(t, 4, 0x89, 1, H_DX, xr(H_AX), 0); /* mov eax, edx */
        fixup(t, jmp32(t), FIX_FAULT, s->k);
        patch(t, ok, here(t));
      }
      mov_rr(t, s->reg, H_AX);
    }
    patch(t, jmp32(t), s->back);
  }
}

/* ---- Instructions ------------------------------------------------------- */


enum {
  J_CALL, /* call the handler */
  J_ALU_EG, J_ALU_GE, J_ALU_EI, J_UNARY,
  J_MOV_EG, J_MOV_GE, J_MOV_EI, J_MOVX, J_LEA,
  J_PUSH, J_PUSH_I, J_POP, J_CALL_I, J_RET, J_JMP_I, J_JCC, J_SETCC,
  J_JMP_E, J_CALL_E, J_SHIFT,
  J_CMOV, J_NOP,
  J_SSE,   /* xmm = xmm OP xmm/mem, the host's own instruction (sse_ops) */
  J_XMOV,  /* the SSE moves */
  J_CVTI,  /* cvtsi2sd/ss */
  J_CVTF,  /* cvt(t)sd/ss2si */
  J_COMI,  /* (u)comisd/ss and their VEX forms */
  J_VSSE,  /* the VEX forms of sse_ops */
  J_VFMA,  /* FMA3, the host's own */
  J_VMOV,  /* the VEX moves */
  J_VCVTI, /* vcvtsi2sd/ss */
  J_MOVMSK, /* (v)pmovmskb, (v)movmskps/pd into a general register */
  J_HX,    /* legacy xmm = xmm OP xmm/mem [, imm8] of the 0F38 and 0F3A
              maps and pshufd: shuffles, AES-NI, PCLMULQDQ, SHA (hx_ops) */
  J_VHX,   /* their VEX forms vaesenc..., vpclmulqdq at 128 and 256 bits */
  J_VZU    /* vzeroupper */
};

/* What an instruction does with the flags and whether it may leave the
 * block before completing (a memory access can fault or hit a
 * watchpoint; a handler can do anything). */
enum { P_WRITE = 1, P_READ = 2, P_EXIT = 4 };

/* A memory operand the translation computes: 64-bit addressing. */
static inline int plain_mem(const struct cpu_insn *in) {
  return !(in->pfx & CPU_PFX_ADDR32);
}

static inline int alu_x(unsigned id) {
  switch (id) {
    case X86_INS_ADD: return X_ADD;
    case X86_INS_OR: return X_OR;
    case X86_INS_ADC: return X_ADC;
    case X86_INS_SBB: return X_SBB;
    case X86_INS_AND: return X_AND;
    case X86_INS_SUB: return X_SUB;
    case X86_INS_XOR: return X_XOR;
    case X86_INS_CMP: return X_CMP;
    case X86_INS_TEST: return 8;
    default: return -1;
  }
}

/* Reads the rm operand of IN (register or memory at r12, EA computed) at
 * SZ bytes into H. */
static inline void rm_read(struct tr *t, const struct cpu_insn *in, unsigned k,
                    unsigned sz, unsigned h) {
  if (in->pfx & CPU_PFX_MEM)
    mem_ld(t, k, sz, h);
  else
    get_reg(t, h, in->rm, sz);
}
static inline void rm_write(struct tr *t, const struct cpu_insn *in, unsigned k,
                     unsigned sz, unsigned h) {
  if (in->pfx & CPU_PFX_MEM)
    mem_st(t, k, sz, h);
  else
    set_reg(t, in->rm, sz, h);
}

/* jit_sse.c: the kind of an SSE, AVX or FMA instruction (J_CALL: not
 * translated); its P_* bits beyond those of its memory operand; its
 * translation. */
int cpu__jit_sse_kind(const struct cpu_insn *in, unsigned form);
unsigned cpu__jit_sse_props(const struct cpu_insn *in, int kind);
void cpu__jit_sse_emit(struct tr *t, const struct cpu_insn *in, unsigned k,
                       int kind, unsigned form);

#endif /* RW_REPLAYER_CPU_JIT_INT_H */
