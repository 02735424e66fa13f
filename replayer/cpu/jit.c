/* SPDX-License-Identifier: MIT */
/* The translator (DESIGN.md section 4): a decoded block that has run often
 * becomes one host function with the signature of a chained handler
 * (cpu_variant.h), so that run.c runs it as it runs a chain: the function
 * runs the block's instructions in order and returns what the block's last
 * instruction returns, or the code of the instruction that did not
 * complete, with rip at it. The common integer instructions (mov, lea,
 * movzx, the ALU operations, push, pop, call, ret, jmp, jcc, setcc, cmovcc)
 * are translated to host code with the interpreter's exact semantics: the
 * same lazy flags in cpu->cc, guest memory through the same TLB with the
 * same slow paths (faults, watchpoints, observed pages, code writes), the
 * same last_read/last_write; so are the common SSE, AVX and FMA
 * instructions at 128 bits (jit_sse.c). Every other instruction is a call
 * of its handler, so the translator is correct for all of them by
 * construction. The encoder and the shared emitters are in jit_int.h.
 * The run loop uses a translation only when the whole block fits in the
 * budget (counts stay exact) and the thread has no observer.
 *
 * Host registers in translated code: rbx holds the struct cpu, r12 the
 * guest address of the memory operand, r13 and r14 the operands, r15 the
 * result, rbp whether a slow-path store dropped this block's code (the
 * block then ends after the instruction, as a chain does). Everything
 * else is scratch, so slow paths and handlers may be called anywhere. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "replayer/cpu/jit_int.h"

/* Totals over every address space of the process (cpu_jit_totals). */
static struct cpu_jit_stats totals;

/* 0: off; 1: translate blocks that ran JIT_HOT times; 2: translate every
 * block the first time it runs (tests). REWIND_JIT=0/1/always sets it. */
static int jit_mode = -1;
#define JIT_HOT 16u

static void mode_init(void) {
  const char *e = getenv("REWIND_JIT");
  if (jit_mode >= 0) return;
  jit_mode = 1;
  if (e && !strcmp(e, "0")) jit_mode = 0;
  if (e && !strcmp(e, "always")) jit_mode = 2;
}

void cpu_set_jit(int mode) { jit_mode = mode < 0 ? 0 : mode > 2 ? 2 : mode; }

int cpu_jit(void) {
  mode_init();
  return jit_mode;
}

u32 cpu__jit_threshold(void) {
  mode_init();
  return jit_mode == 0 ? 0 : jit_mode == 2 ? 1 : JIT_HOT;
}

/* ---- Instructions ------------------------------------------------------- */

/* How instruction IN, decoded under FORM (CPU_FORM_*, or 0xff), is
 * translated. */
static int classify(const struct cpu_insn *in, unsigned form) {
  int mem = (in->pfx & CPU_PFX_MEM) != 0;
  unsigned sz = in->osz;
  if (form == 0xff) return J_CALL;
  if (mem && !plain_mem(in)) return J_CALL;
  if (in->id == X86_INS_NOP) return J_NOP;
  if (alu_x(in->id) >= 0 && (sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
    switch (form) {
      case CPU_FORM_Eb_Gb:
      case CPU_FORM_Ev_Gv:
        return J_ALU_EG;
      case CPU_FORM_Gb_Eb:
      case CPU_FORM_Gv_Ev:
        return in->id == X86_INS_TEST ? J_CALL : J_ALU_GE;
      case CPU_FORM_Eb_Ib:
      case CPU_FORM_Ev_Iv:
        return J_ALU_EI;
      default:
        return J_CALL;
    }
  }
  switch (in->id) {
    case X86_INS_SHL:
    case X86_INS_SAL:
    case X86_INS_SHR:
    case X86_INS_SAR:
      return form == CPU_FORM_Eb_Ib || form == CPU_FORM_Ev_Ib ? J_SHIFT
                                                               : J_CALL;
    case X86_INS_INC:
    case X86_INS_DEC:
    case X86_INS_NEG:
    case X86_INS_NOT:
      return (form == CPU_FORM_Eb || form == CPU_FORM_Ev) ? J_UNARY : J_CALL;
    case X86_INS_MOV:
    case X86_INS_MOVABS:
      if (form == CPU_FORM_Eb_Gb || form == CPU_FORM_Ev_Gv) return J_MOV_EG;
      if (form == CPU_FORM_Gb_Eb || form == CPU_FORM_Gv_Ev) return J_MOV_GE;
      if (form == CPU_FORM_Eb_Ib || form == CPU_FORM_Ev_Iv) return J_MOV_EI;
      return J_CALL;
    case X86_INS_MOVZX:
    case X86_INS_MOVSX:
      return (form == CPU_FORM_Gv_Eb || form == CPU_FORM_Gv_Ew) ? J_MOVX
                                                                : J_CALL;
    case X86_INS_MOVSXD:
      return (in->pfx & CPU_PFX_REXW) ? J_MOVX : J_CALL;
    case X86_INS_LEA:
      return sz >= 2 ? J_LEA : J_CALL;
    case X86_INS_PUSH:
      if (form == CPU_FORM_Ev) return !mem && sz == 8 ? J_PUSH : J_CALL;
      return form == CPU_FORM_I && !(in->pfx & CPU_PFX_OPSIZE) ? J_PUSH_I
                                                               : J_CALL;
    case X86_INS_POP:
      return form == CPU_FORM_Ev && !mem && sz == 8 ? J_POP : J_CALL;
    case X86_INS_CALL:
      if (form == CPU_FORM_Ev) return sz == 8 ? J_CALL_E : J_CALL;
      return form == CPU_FORM_I ? J_CALL_I : J_CALL;
    case X86_INS_RET:
      return J_RET;
    case X86_INS_JMP:
      if (form == CPU_FORM_Ev) return sz == 8 ? J_JMP_E : J_CALL;
      return form == CPU_FORM_I ? J_JMP_I : J_CALL;
    default:
      break;
  }
  switch (in->id) {
    case X86_INS_JO: case X86_INS_JNO: case X86_INS_JB: case X86_INS_JAE:
    case X86_INS_JE: case X86_INS_JNE: case X86_INS_JBE: case X86_INS_JA:
    case X86_INS_JS: case X86_INS_JNS: case X86_INS_JP: case X86_INS_JNP:
    case X86_INS_JL: case X86_INS_JGE: case X86_INS_JLE: case X86_INS_JG:
      return form == CPU_FORM_I ? J_JCC : J_CALL;
    case X86_INS_SETO: case X86_INS_SETNO: case X86_INS_SETB:
    case X86_INS_SETAE: case X86_INS_SETE: case X86_INS_SETNE:
    case X86_INS_SETBE: case X86_INS_SETA: case X86_INS_SETS:
    case X86_INS_SETNS: case X86_INS_SETP: case X86_INS_SETNP:
    case X86_INS_SETL: case X86_INS_SETGE: case X86_INS_SETLE:
    case X86_INS_SETG:
      return form == CPU_FORM_Eb ? J_SETCC : J_CALL;
    case X86_INS_CMOVO: case X86_INS_CMOVNO: case X86_INS_CMOVB:
    case X86_INS_CMOVAE: case X86_INS_CMOVE: case X86_INS_CMOVNE:
    case X86_INS_CMOVBE: case X86_INS_CMOVA: case X86_INS_CMOVS:
    case X86_INS_CMOVNS: case X86_INS_CMOVP: case X86_INS_CMOVNP:
    case X86_INS_CMOVL: case X86_INS_CMOVGE: case X86_INS_CMOVLE:
    case X86_INS_CMOVG:
      return form == CPU_FORM_Gv_Ev && sz >= 2 ? J_CMOV : J_CALL;
    default:
      break;
  }
  return cpu__jit_sse_kind(in, form);
}

/* R_R = R_A op R_B (64-bit, as alu.c computes before truncating), and
 * the flags state. */
static void alu_op(struct tr *t, int x) {
  if (x == X_ADC || x == X_SBB) {
    /* r15 = a + b + CF / a - b - CF, CF from the flags before */
    cond_value(t, R_R, 2);
    if (x == X_SBB) enc(t, 8, 0xf7, 1, 3, xr(R_R), 0); /* neg r15 */
    alu_rr(t, X_ADD, 8, R_R, R_A);
    alu_rr(t, x == X_ADC ? X_ADD : X_SUB, 8, R_R, R_B);
    return;
  }
  mov_rr(t, R_R, R_A);
  if (x == 8) x = X_AND;
  alu_rr(t, x == X_CMP ? X_SUB : x, 8, R_R, R_B);
}
static void alu_cc(struct tr *t, int x, unsigned sz) {
  if (x == X_ADD)
    set_cc(t, CC_ADD, sz, R_R, R_A, R_B);
  else if (x == X_ADC)
    set_cc(t, CC_ADC, sz, R_R, R_A, R_B);
  else if (x == X_SBB)
    set_cc(t, CC_SBB, sz, R_R, R_A, R_B);
  else if (x == X_SUB || x == X_CMP)
    set_cc(t, CC_SUB, sz, R_R, R_A, R_B);
  else
    set_cc(t, CC_LOGIC, sz, R_R, NOIDX, NOIDX);
}

/* The epilogue's register restores (the prologue's pushes, reversed). */
static void pops(struct tr *t) {
  static const u8 seq[] = {0x48, 0x83, 0xc4, 0x08, /* add rsp, 8 */
                           0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c,
                           0x5d, 0x5b};
  for (unsigned i = 0; i < sizeof seq; i++) b1(t, seq[i]);
}

/* Calls IN's handler (rip set to it first). */
static void call_handler(struct tr *t, const struct cpu_insn *in, unsigned k,
                         int last) {
  set_rip(t, t->addr[k]);
  mov_rr(t, H_DI, R_CPU);
  mov_imm(t, H_SI, (u64)(uintptr_t)in);
  mov_imm(t, H_AX, (u64)(uintptr_t)in->fn);
  if (last) {
    /* Its code is the block's: tail call. */
    mov_imm(t, H_CX, (u64)(uintptr_t)t->b);
    st64(t, xm(R_CPU, OFF(jit_last)), H_CX);
    pops(t);
    enc(t, 4, 0xff, 1, 4, xr(H_AX), 0); /* jmp rax */
    return;
  }
  enc(t, 4, 0xff, 1, 2, xr(H_AX), 0); /* call rax */
  enc(t, 4, 0x85, 1, H_AX, xr(H_AX), 0);
  fixup(t, jcc32(t, 5), FIX_EPILOGUE, 0); /* rip is at it */
  mov_imm(t, H_CX, (u64)(uintptr_t)&t->b->dead);
  enc(t, 4, 0x0fb7, 2, H_BP, xm(H_CX, 0), 0);
  t->may_die = 1;
  t->cc_kind = -1;
}

/* Every translation begins so; links enter at CHAIN_ENTRY. */
static const u8 prologue[] = {
    0x53,                   /* push rbx */
    0x55,                   /* push rbp */
    0x41, 0x54,             /* push r12 */
    0x41, 0x55,             /* push r13 */
    0x41, 0x56,             /* push r14 */
    0x41, 0x57,             /* push r15 */
    0x48, 0x83, 0xec, 0x08, /* sub rsp, 8: calls see rsp 16-aligned */
    0x48, 0x89, 0xfb,       /* mov rbx, rdi */
    0x31, 0xed              /* xor ebp, ebp: where links enter */
};
#define CHAIN_ENTRY (sizeof prologue - 2)

/* Leaves the block for the guest address in rdx: through a link to the
 * next block's translation when it holds, else back to run.c with
 * CPU_RC_JUMP (rip set), naming the link for it to fill in. The block's
 * instructions are counted here while the chain goes on; run.c counts
 * the block it returns from. */
static void exit_link(struct tr *t, int indirect) {
  unsigned n = t->b->ninsn, xin = t->b->xin[n];
  struct link *l = NULL;
  u32 miss[4];
  if (!indirect) {
    if (t->nlinks == MAX_LINKS) {
      t->bad = 1;
      return;
    }
    l = &t->links[t->nlinks++];
  }
  enc(t, 8, 0x81, 1, 0, xm(R_CPU, OFF(icount)), 0); /* add icount, n */
  b4(t, n);
  if (xin) {
    enc(t, 4, 0x81, 1, 1, xm(R_CPU, OFF(xinuse)), 0); /* or xinuse */
    b4(t, xin);
  }
  if (!indirect && t->target == t->b->start && !t->b->bp) {
    /* A loop of one block goes round without a link while it lives (a
     * store of its last instruction may have dropped it: rbp), the budget
     * has room and no stop is asked; otherwise on as any exit. Not with a
     * breakpoint at its start, which run.c must see every time round
     * (cpu__jit_link links no block that has one either). */
    u32 again[3];
    enc(t, 4, 0x85, 1, H_BP, xr(H_BP), 0); /* test ebp, ebp */
    again[0] = jcc32(t, 5);
    ld64(t, H_AX, xm(R_CPU, OFF(icount_end)));
    enc(t, 8, 0x2b, 1, H_AX, xm(R_CPU, OFF(icount)), 0);
    enc(t, 8, 0x81, 1, 7, xr(H_AX), 0); /* cmp rax, n */
    b4(t, n);
    again[1] = jcc32(t, 2);
    enc(t, 4, 0x83, 1, 7, xm(R_CPU, OFF(stop)), 0);
    b1(t, 0);
    again[2] = jcc32(t, 5);
    patch(t, jmp32(t), CHAIN_ENTRY);
    for (int i = 0; i < 3; i++) patch(t, again[i], here(t));
  }
  if (indirect) {
    /* rcx = &table[rdx % IND_SIZE] */
    enc(t, 4, 0x89, 1, H_DX, xr(H_AX), 0);        /* mov eax, edx */
    enc(t, 4, 0x81, 1, 4, xr(H_AX), 0);           /* and eax, mask */
    b4(t, IND_SIZE - 1);
    enc(t, 4, 0xc1, 1, 4, xr(H_AX), 0);           /* shl eax, 5 */
    b1(t, 5);
    mov_imm(t, H_CX, (u64)(uintptr_t)t->mem->jit->base);
    alu_rr(t, X_ADD, 8, H_CX, H_AX);
  } else {
    mov_imm(t, H_CX, (u64)(uintptr_t)l);
  }
  mov_imm(t, H_AX, (u64)(uintptr_t)&t->mem->code_gen);
  ld64(t, H_AX, xm(H_AX, 0));
  enc(t, 8, 0x3b, 1, H_AX, xm(H_CX, 0), 0); /* cmp rax, gen */
  miss[0] = jcc32(t, 5);
  enc(t, 8, 0x3b, 1, H_DX, xm(H_CX, 8), 0); /* cmp rdx, target */
  miss[1] = jcc32(t, 5);
  ld64(t, H_AX, xm(R_CPU, OFF(icount_end)));
  enc(t, 8, 0x2b, 1, H_AX, xm(R_CPU, OFF(icount)), 0); /* sub rax, icount */
  enc(t, 8, 0x3b, 1, H_AX, xm(H_CX, 16), 0);           /* cmp rax, n */
  miss[2] = jcc32(t, 2);                                /* jb */
  enc(t, 4, 0x83, 1, 7, xm(R_CPU, OFF(stop)), 0);      /* cmp stop, 0 */
  b1(t, 0);
  miss[3] = jcc32(t, 5);
  enc(t, 4, 0xff, 1, 4, xm(H_CX, 24), 0); /* jmp [entry] */
  for (int i = 0; i < 4; i++) patch(t, miss[i], here(t));
  enc(t, 8, 0x81, 1, 5, xm(R_CPU, OFF(icount)), 0); /* sub icount, n */
  b4(t, n);
  st64(t, xm(R_CPU, OFF(rip)), H_DX);
  st64(t, xm(R_CPU, OFF(jit_link)), H_CX);
  leave_rc(t, CPU_RC_JUMP);
}

/* rdx = the static guest target V, then exit_link. */
static void exit_to(struct tr *t, u64 v) {
  mov_imm(t, H_DX, v);
  t->target = v;
  exit_link(t, 0);
  t->target = ~(u64)0;
}

/* rsp's offset in cpu->gpr. */
#define RSP_OFF (OFF(gpr) + 8 * 4)

/* Emits instruction K of the block, IN, translated as KIND. Returns whether
 * it ended the block itself (a branch: rip set, code returned). */
static int emit_insn(struct tr *t, const struct cpu_insn *in, unsigned k,
                     int kind, int last) {
  unsigned sz = in->osz;
  int mem = (in->pfx & CPU_PFX_MEM) != 0, x = alu_x(in->id);
  switch (kind) {
    case J_NOP:
      break;
    case J_ALU_EI:
      if (t->cc_dead && !mem && x != X_ADC && x != X_SBB) {
        /* Only the result is seen, and only its low SZ bytes: the
         * immediate as a sign-extended imm32 gives them (at SZ 8 it is
         * one). cmp and test then do nothing at all. */
        if (x == X_CMP || x == 8) {
          alu_cc(t, x, sz); /* flags dead: records their kind only */
          break;
        }
        if (sz < 8 || (i64)in->imm == (i32)in->imm) {
          get_reg(t, R_R, in->rm, sz);
          enc(t, 8, 0x81, 1, (unsigned)x, xr(R_R), 0); /* op r15, imm32 */
          b4(t, (u32)in->imm);
          set_reg(t, in->rm, sz, R_R);
          alu_cc(t, x, sz);
          break;
        }
      }
      /* fall through */
    case J_ALU_EG:
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, sz, R_A);
      if (kind == J_ALU_EG)
        get_reg(t, R_B, in->reg, sz);
      else
        mov_imm(t, R_B, in->imm);
      alu_op(t, x);
      if (x != X_CMP && x != 8) rm_write(t, in, k, sz, R_R);
      alu_cc(t, x, sz);
      break;
    case J_ALU_GE:
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, sz, R_B);
      get_reg(t, R_A, in->reg, sz);
      alu_op(t, x);
      if (x != X_CMP) set_reg(t, in->reg, sz, R_R);
      alu_cc(t, x, sz);
      break;
    case J_UNARY:
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, sz, R_A);
      switch (in->id) {
        case X86_INS_INC:
        case X86_INS_DEC:
          cond_value(t, R_B, 2); /* the old CF */
          enc(t, 8, 0x8d, 1, R_R,
              xm(R_A, in->id == X86_INS_INC ? 1 : -1), 0);
          break;
        case X86_INS_NEG:
          enc(t, 4, 0x31, 1, R_R, xr(R_R), 0); /* xor r15d, r15d */
          alu_rr(t, X_SUB, 8, R_R, R_A);
          break;
        default:
          mov_rr(t, R_R, R_A);
          enc(t, 8, 0xf7, 1, 2, xr(R_R), 0); /* not r15 */
          break;
      }
      rm_write(t, in, k, sz, R_R);
      if (in->id == X86_INS_INC)
        set_cc(t, CC_INC, sz, R_R, R_A, R_B);
      else if (in->id == X86_INS_DEC)
        set_cc(t, CC_DEC, sz, R_R, R_A, R_B);
      else if (in->id == X86_INS_NEG)
        set_cc(t, CC_SUB, sz, R_R, NOIDX, R_A);
      break;
    case J_SHIFT: {
      /* shift.c: the count masked to 5 or 6 bits; 0 writes the operand
       * back unchanged and keeps the flags */
      unsigned c = (unsigned)in->imm & (sz == 8 ? 63u : 31u);
      unsigned sh = in->id == X86_INS_SHR ? 5 : in->id == X86_INS_SAR ? 7 : 4;
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, sz, R_A);
      if (!c) {
        rm_write(t, in, k, sz, R_A);
        break;
      }
      if (sh == 7 && sz < 8)
        enc(t, 8, sz == 1 ? 0x0fbe : sz == 2 ? 0x0fbf : 0x63,
            sz == 4 ? 1 : 2, R_R, xr(R_A), 2); /* movsx r15, a */
      else
        mov_rr(t, R_R, R_A);
      enc(t, 8, 0xc1, 1, sh, xr(R_R), 0);
      b1(t, c);
      if (sh != 5) trunc_reg(t, R_R, sz);
      rm_write(t, in, k, sz, R_R);
      if (!t->cc_dead) mov_imm(t, R_B, c);
      set_cc(t, sh == 4 ? CC_SHL : sh == 5 ? CC_SHR : CC_SAR, sz, R_R, R_A,
             R_B);
      break;
    }
    case J_MOV_EG:
      get_reg(t, R_A, in->reg, sz);
      if (mem) ea(t, in, 0);
      rm_write(t, in, k, sz, R_A);
      break;
    case J_MOV_GE:
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, sz, R_A);
      set_reg(t, in->reg, sz, R_A);
      break;
    case J_MOV_EI:
      mov_imm(t, R_A, in->imm);
      if (mem) ea(t, in, 0);
      rm_write(t, in, k, sz, R_A);
      break;
    case J_MOVX: {
      unsigned ssz = in->id == X86_INS_MOVSXD ? 4
                     : in->osz2 == 1          ? 1
                                              : 2;
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, ssz, R_A);
      if (in->id == X86_INS_MOVSXD)
        enc(t, 8, 0x63, 1, R_A, xr(R_A), 0);
      else if (in->id == X86_INS_MOVSX)
        enc(t, 8, ssz == 1 ? 0x0fbe : 0x0fbf, 2, R_A, xr(R_A), 2);
      set_reg(t, in->reg, in->id == X86_INS_MOVSXD ? 8 : sz, R_A);
      break;
    }
    case J_LEA:
      ea(t, in, 1);
      set_reg(t, in->reg, sz, R_EA);
      break;
    case J_PUSH:
    case J_PUSH_I:
      if (kind == J_PUSH)
        get_reg(t, R_A, in->rm, 8);
      else
        mov_imm(t, R_A, in->imm);
      ld64(t, R_EA, xm(R_CPU, RSP_OFF));
      enc(t, 8, 0x8d, 1, R_EA, xm(R_EA, -8), 0);
      mem_st(t, k, 8, R_A);
      st64(t, xm(R_CPU, RSP_OFF), R_EA);
      break;
    case J_POP:
      ld64(t, R_EA, xm(R_CPU, RSP_OFF));
      mem_ld(t, k, 8, R_A);
      enc(t, 8, 0x8d, 1, H_AX, xm(R_EA, 8), 0);
      st64(t, xm(R_CPU, RSP_OFF), H_AX);
      set_reg(t, in->rm, 8, R_A);
      break;
    case J_CALL_I:
      ld64(t, R_EA, xm(R_CPU, RSP_OFF));
      enc(t, 8, 0x8d, 1, R_EA, xm(R_EA, -8), 0);
      mov_imm(t, R_A, t->addr[k] + in->len);
      mem_st(t, k, 8, R_A);
      st64(t, xm(R_CPU, RSP_OFF), R_EA);
      exit_to(t, in->imm);
      return 1;
    case J_RET:
      ld64(t, R_EA, xm(R_CPU, RSP_OFF));
      mem_ld(t, k, 8, R_A);
      enc(t, 8, 0x8d, 1, H_AX,
          xm(R_EA, 8 + (in->id == X86_INS_RET ? (i32)(u16)in->imm : 0)), 0);
      st64(t, xm(R_CPU, RSP_OFF), H_AX);
      mov_rr(t, H_DX, R_A);
      exit_link(t, 1);
      return 1;
    case J_JMP_I:
      exit_to(t, in->imm);
      return 1;
    case J_JMP_E:
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, 8, R_A);
      mov_rr(t, H_DX, R_A);
      exit_link(t, 1);
      return 1;
    case J_CALL_E:
      /* The target is read first (a fault there pushes nothing). */
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, 8, R_B);
      ld64(t, R_EA, xm(R_CPU, RSP_OFF));
      enc(t, 8, 0x8d, 1, R_EA, xm(R_EA, -8), 0);
      mov_imm(t, R_A, t->addr[k] + in->len);
      mem_st(t, k, 8, R_A);
      st64(t, xm(R_CPU, RSP_OFF), R_EA);
      mov_rr(t, H_DX, R_B);
      exit_link(t, 1);
      return 1;
    case J_JCC: {
      unsigned hc = cond_flags(t, in->cond);
      u32 taken = jcc32(t, hc);
      exit_to(t, t->addr[k] + in->len);
      patch(t, taken, here(t));
      exit_to(t, in->imm);
      return 1;
    }
    case J_SETCC:
      cond_value(t, R_A, in->cond);
      if (mem) ea(t, in, 0);
      rm_write(t, in, k, 1, R_A);
      break;
    case J_CMOV: {
      unsigned hc;
      if (mem) ea(t, in, 0);
      rm_read(t, in, k, sz, R_A);
      get_reg(t, R_B, in->reg, sz);
      hc = cond_flags(t, in->cond);
      enc(t, 8, 0x0f40 + (hc ^ 1), 2, R_A, xr(R_B), 0);
      set_reg(t, in->reg, sz, R_A);
      break;
    }
    case J_SSE:
    case J_XMOV:
    case J_CVTI:
    case J_CVTF:
    case J_COMI:
    case J_VSSE:
    case J_VFMA:
    case J_VMOV:
    case J_VCVTI:
    case J_MOVMSK:
    case J_HX:
    case J_VHX:
    case J_VZU:
      cpu__jit_sse_emit(t, in, k, kind, t->b->forms[k]);
      break;
    default:
      call_handler(t, in, k, last);
      return last;
  }
  return 0;
}

/* ---- Blocks ------------------------------------------------------------ */

/* What an instruction does with the flags (P_*, jit_int.h). */
static unsigned props(const struct cpu_insn *in, int kind) {
  unsigned p = (in->pfx & CPU_PFX_MEM) ? P_EXIT : 0;
  switch (kind) {
    case J_ALU_EG:
    case J_ALU_GE:
    case J_ALU_EI:
      p |= P_WRITE;
      if (in->id == X86_INS_ADC || in->id == X86_INS_SBB) p |= P_READ;
      return p;
    case J_UNARY:
      if (in->id == X86_INS_NOT) return p;
      p |= P_WRITE;
      if (in->id != X86_INS_NEG) p |= P_READ; /* inc, dec keep CF */
      return p;
    case J_SHIFT:
      return p | ((in->imm & (in->osz == 8 ? 63 : 31)) ? P_WRITE : 0);
    case J_JCC:
    case J_SETCC:
    case J_CMOV:
      return p | P_READ;
    case J_PUSH:
    case J_PUSH_I:
    case J_POP:
    case J_CALL_I:
    case J_RET:
    case J_JMP_E:
    case J_CALL_E:
      return p | P_EXIT;
    case J_CALL:
      return P_READ | P_EXIT;
    default:
      return p | cpu__jit_sse_props(in, kind);
  }
}

/* DEAD[k]: the flags instruction K of B sets are set again by a later
 * instruction before any instruction reads them and before the block can
 * be left (then nothing can tell whether they were stored). An
 * instruction that may leave keeps its own: a store may end the block
 * right after it (it rewrote the block's code). */
static void cc_liveness(const struct cpu__block *b, const int *kinds,
                        u8 *dead) {
  int needed = 1; /* at the end of the block, the flags are seen */
  for (unsigned k = b->ninsn; k-- > 0;) {
    unsigned p = props(&b->insns[k], kinds[k]);
    dead[k] = (p & P_WRITE) && !(p & P_EXIT) && !needed;
    if (p & (P_READ | P_EXIT))
      needed = 1;
    else if (p & P_WRITE)
      needed = 0;
  }
}


/* Unlinks every indirect branch. */
static void ind_reset(struct cpu__jit *j) {
  struct link *l = (struct link *)(void *)j->base;
  for (unsigned i = 0; i < IND_SIZE; i++)
    l[i] = (struct link){~(u64)0, 0, 0, NULL};
}

/* Makes the cache of MEM ready for one more block; empties it when full.
 * Returns 0, or -1 when there is no cache. */
static int cache_room(struct cpu_mem *mem) {
  struct cpu__jit *j = mem->jit;
  if (!j) {
    if (!(j = calloc(1, sizeof *j))) return -1;
    mem->jit = j;
  }
  if (j->broken) return -1;
  if (!j->base) {
    void *p = mmap(NULL, CACHE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      j->broken = 1;
      return -1;
    }
    j->base = p;
    j->used = IND_BYTES;
    ind_reset(j);
  }
  if (j->used + BLOCK_ROOM > CACHE_SIZE) {
    cpu__jit_flush(mem);
    j->flushes++;
    totals.flushes++;
  }
  return 0;
}

void cpu__jit_link(struct cpu_mem *mem, void *link, struct cpu__block *b) {
  struct link *l = link;
  if (!b->jit || b->bp) return;
  l->target = b->start;
  l->n = b->ninsn;
  l->entry = (u8 *)(void *)b->jit + CHAIN_ENTRY;
  l->gen = mem->code_gen;
}

void cpu__jit_flush(struct cpu_mem *mem) {
  struct cpu__jit *j = mem->jit;
  if (!j) return;
  cpu__code_forget_jit(mem);
  if (j->base) {
    ind_reset(j);
    j->used = IND_BYTES;
  }
}

void cpu__jit_free(struct cpu_mem *mem) {
  struct cpu__jit *j = mem->jit;
  if (!j) return;
  if (j->base) munmap(j->base, CACHE_SIZE);
  free(j);
  mem->jit = NULL;
}

void cpu_jit_totals(struct cpu_jit_stats *st) {
  *st = totals;
  st->cache_size = CACHE_SIZE;
}

void cpu_mem_jit_stats(const cpu_mem *mem, struct cpu_jit_stats *st) {
  const struct cpu__jit *j = mem->jit;
  memset(st, 0, sizeof *st);
  st->cache_size = CACHE_SIZE;
  if (!j) return;
  st->blocks = j->blocks;
  st->insns = j->insns;
  st->flushes = j->flushes;
  st->cache_used = j->used;
}

/* With REWIND_JIT_PERFMAP=1, each translation is named in
 * /tmp/perf-PID.map, where perf looks for the symbols of generated code:
 * "jit 0xGUEST" (the block's guest address). */
static void perf_map(const struct cpu__block *b, const u8 *code, size_t n) {
  static FILE *f;
  static int state; /* 0: not asked yet, 1: on, 2: off */
  if (!state) {
    const char *e = getenv("REWIND_JIT_PERFMAP");
    char path[64];
    state = 2;
    if (e && strcmp(e, "0") && *e) {
      snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
      if ((f = fopen(path, "a"))) state = 1;
    }
  }
  if (state != 1) return;
  fprintf(f, "%lx %zx jit_0x%llx\n", (unsigned long)(uintptr_t)code, n,
          (unsigned long long)b->start);
  fflush(f);
}

void cpu__jit_block(struct cpu *cpu, struct cpu__block *b) {
  struct cpu_mem *mem = cpu->mem;
  struct cpu__jit *j;
  struct tr *t;
  unsigned n = b->ninsn, ntr = 0;
  int kinds[64];
  u8 dead[64];
  b->jit_state = CPU__JIT_REFUSED;
  if (cpu->observed || cpu->obs.on_access || n > 64) return;
  for (unsigned k = 0; k < n; k++) {
    kinds[k] = classify(&b->insns[k], b->forms[k]);
    if (kinds[k] != J_CALL) ntr++;
  }
  if (!ntr || cache_room(mem)) return;
  j = mem->jit;
  if (!(t = calloc(1, sizeof *t))) return;
  t->links = (struct link *)(void *)(j->base + j->used);
  for (unsigned i = 0; i < MAX_LINKS; i++)
    t->links[i] = (struct link){~(u64)0, 0, 0, NULL};
  t->mem = mem;
  t->start = t->p = j->base + j->used + MAX_LINKS * sizeof(struct link);
  t->end = j->base + CACHE_SIZE;
  if ((size_t)(t->end - t->start) > BLOCK_ROOM) t->end = t->start + BLOCK_ROOM;
  t->b = b;
  t->cc_kind = -1;
  t->target = ~(u64)0;
  t->addr[0] = b->start;
  for (unsigned k = 0; k < n; k++)
    t->addr[k + 1] = t->addr[k] + b->insns[k].len;
  cc_liveness(b, kinds, dead);
  for (unsigned i = 0; i < sizeof prologue; i++) b1(t, prologue[i]);
  for (unsigned k = 0; k < n; k++) {
    int last = k + 1 == n;
    t->may_die = 0;
    t->cc_dead = dead[k];
    if (emit_insn(t, &b->insns[k], k, kinds[k], last)) break;
    if (last) {
      /* A last instruction that does not branch: on to the next block. */
      exit_to(t, t->addr[n]);
    } else if (t->may_die) {
      enc(t, 4, 0x85, 1, H_BP, xr(H_BP), 0); /* test ebp, ebp */
      fixup(t, jcc32(t, 5), FIX_DEAD, k + 1);
    }
  }
  emit_stubs(t);
  emit_ools(t);
  /* The exits, then the epilogue (code in eax). */
  for (unsigned i = 0; i < t->nfix; i++) {
    if (t->fix[i].kind == FIX_EPILOGUE) continue;
    patch(t, t->fix[i].at, here(t));
    set_rip(t, t->addr[t->fix[i].k]);
    if (t->fix[i].kind == FIX_DEAD) mov_imm(t, H_AX, CPU_RC_END);
    fixup(t, jmp32(t), FIX_EPILOGUE, 0);
  }
  t->epilogue = here(t);
  mov_imm(t, H_CX, (u64)(uintptr_t)b);
  st64(t, xm(R_CPU, OFF(jit_last)), H_CX);
  pops(t);
  b1(t, 0xc3);
  for (unsigned i = 0; i < t->nfix; i++)
    if (t->fix[i].kind == FIX_EPILOGUE) patch(t, t->fix[i].at, t->epilogue);
  if (!t->bad) {
    perf_map(b, t->start, (size_t)(t->p - t->start));
    b->jit = (cpu_handler)(void *)t->start;
    b->jit_state = CPU__JIT_DONE;
    j->used = (size_t)(t->p - j->base);
    j->used = (j->used + 15) & ~(size_t)15;
    j->blocks++;
    j->insns += ntr;
    totals.blocks++;
    totals.insns += ntr;
    if (j->used > totals.cache_used) totals.cache_used = j->used;
  }
  free(t);
}
