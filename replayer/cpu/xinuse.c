/* SPDX-License-Identifier: MIT */
/* XINUSE as Intel tracks it: which XSAVE components an instruction marks
 * in use (cpu_int.h, "XINUSE"). Measured on an Intel Xeon with AVX512-FP16
 * (docs/flags.md has the list): a write marks its component whatever the
 * value written, reads mark nothing, and only XRSTOR, vzeroupper and
 * vzeroall (sse_state.c, avx.c) return a component to its initial state.
 * The differential harness compares the XSTATE_BV of the CPU's signal
 * frame after every case with cpu->xinuse, so each rule here is checked
 * against the CPU instruction by instruction. */
#include "replayer/cpu/cpu_int.h"

unsigned cpu__xin_vreg(unsigned r, unsigned bytes) {
  if (r >= 16) return CPU_XIN_HI16; /* any length: ZMM16-31 are one piece */
  return CPU_XIN_SSE | (bytes >= 32 ? CPU_XIN_AVX : 0) |
         (bytes >= 64 ? CPU_XIN_ZMMH : 0);
}

/* The bits a write of Capstone register REG sets (0 for other classes). */
static unsigned reg_xin(x86_reg reg) {
  if (reg >= X86_REG_XMM0 && reg <= X86_REG_XMM31)
    return cpu__xin_vreg((unsigned)(reg - X86_REG_XMM0), 16);
  if (reg >= X86_REG_YMM0 && reg <= X86_REG_YMM31)
    return cpu__xin_vreg((unsigned)(reg - X86_REG_YMM0), 32);
  if (reg >= X86_REG_ZMM0 && reg <= X86_REG_ZMM31)
    return cpu__xin_vreg((unsigned)(reg - X86_REG_ZMM0), 64);
  if (reg >= X86_REG_K0 && reg <= X86_REG_K7) return CPU_XIN_K;
  return 0;
}

static int is_x87_reg(x86_reg reg) {
  return (reg >= X86_REG_MM0 && reg <= X86_REG_MM7) ||
         (reg >= X86_REG_ST0 && reg <= X86_REG_ST7) ||
         (reg >= X86_REG_FP0 && reg <= X86_REG_FP7);
}

/* Whether CI's opcode is an x87 escape (D8-DF) or fwait, after its legacy
 * prefixes and REX: Capstone does not put every x87 instruction in its FPU
 * group. */
static unsigned after_prefixes(const cs_insn *ci) {
  unsigned i = 0;
  while (i < ci->size) {
    u8 b = ci->bytes[i];
    if (b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 ||
        b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 ||
        b == 0x65 || (b & 0xf0) == 0x40)
      i++;
    else
      break;
  }
  return i;
}

static int x87_opcode(const cs_insn *ci) {
  unsigned i = after_prefixes(ci);
  u8 b = i < ci->size ? ci->bytes[i] : 0;
  return (b >= 0xd8 && b <= 0xdf) || b == 0x9b;
}

/* Whether CI is VEX-encoded with L = 1 (256 bits): Intel then marks the
 * upper halves in use whatever register it writes. */
static int vex256(const cs_insn *ci) {
  unsigned i = after_prefixes(ci);
  if (i + 2 < ci->size && ci->bytes[i] == 0xc5)
    return (ci->bytes[i + 1] >> 2) & 1;
  if (i + 3 < ci->size && ci->bytes[i] == 0xc4)
    return (ci->bytes[i + 2] >> 2) & 1;
  return 0;
}

unsigned cpu__xin_of(const cs_insn *ci, int *alone) {
  const cs_detail *d = ci->detail;
  const cs_x86 *x = &d->x86;
  unsigned xin = 0;
  *alone = 0;
  switch (ci->id) {
    /* They clear XINUSE bits: the block's running union starts again
     * after them, and they add what it held before them themselves
     * (icache.c; avx.c). */
    case X86_INS_VZEROUPPER:
    case X86_INS_VZEROALL:
      *alone = 2;
      return 0;
    /* They read or restore XINUSE: alone in a block, after every bit an
     * earlier instruction set is in cpu->xinuse. */
    case X86_INS_XSAVE:
    case X86_INS_XSAVE64:
    case X86_INS_XSAVEOPT:
    case X86_INS_XSAVEOPT64:
    case X86_INS_XSAVEC:
    case X86_INS_XSAVEC64:
    case X86_INS_XRSTOR:
    case X86_INS_XRSTOR64:
    case X86_INS_XGETBV:
      *alone = 1;
      return 0;
    /* The x87 instructions that leave its state alone, and the saves. */
    case X86_INS_FNSTCW:
    case X86_INS_FNSTSW:
    case X86_INS_FXSAVE:
    case X86_INS_FXSAVE64:
    case X86_INS_STMXCSR:
    case X86_INS_VSTMXCSR:
      return 0;
    case X86_INS_FXRSTOR:
    case X86_INS_FXRSTOR64:
      return CPU_XIN_X87 | CPU_XIN_SSE;
    case X86_INS_LDMXCSR:
    case X86_INS_VLDMXCSR:
      return CPU_XIN_SSE;
    case X86_INS_WAIT: /* fwait marks the x87 state, fnstcw does not */
      return CPU_XIN_X87;
    default:
      break;
  }
  if (x87_opcode(ci)) xin |= CPU_XIN_X87;
  for (unsigned i = 0; i < d->groups_count; i++)
    if (d->groups[i] == X86_GRP_FPU || d->groups[i] == X86_GRP_MMX)
      xin |= CPU_XIN_X87;
  for (unsigned i = 0; i < x->op_count; i++) {
    const cs_x86_op *o = &x->operands[i];
    if (o->type != X86_OP_REG) continue;
    if (is_x87_reg(o->reg)) xin |= CPU_XIN_X87; /* MMX and x87 both */
    /* A first operand with no access known (the instructions vexraw.c
     * decodes) is the destination. */
    if ((o->access & CS_AC_WRITE) || (i == 0 && !o->access))
      xin |= reg_xin(o->reg);
  }
  for (unsigned i = 0; i < d->regs_write_count; i++)
    xin |= reg_xin(d->regs_write[i]);
  if ((xin & CPU_XIN_SSE) && vex256(ci)) xin |= CPU_XIN_AVX;
  return xin;
}
