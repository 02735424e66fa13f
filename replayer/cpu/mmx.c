/* SPDX-License-Identifier: MIT */
/* MMX: the eight 64-bit mm registers, which are the significands of the x87
 * physical registers R0-R7 (not of ST(i): mm3 is R3 whatever TOP is), and
 * the instructions on them. Every MMX instruction makes the x87 #MF check
 * first and, once it cannot fault any more, the x87-to-MMX transition (TOP
 * = 0, all tags valid); a write to an mm register also sets the sign and
 * exponent of its x87 register to all ones, so x87 code that runs without
 * an emms sees NaNs and a full stack, as on the CPU. emms empties the tags.
 *
 * The arithmetic of MMX instructions that have an SSE twin is that twin's
 * handler, run by cpu__mmx on the 64-bit operands (the CPU_MMX rows of the
 * SSE families); this file holds cpu__mmx and the instructions with no
 * such twin: moves, emms, pshufw, pshufb and palignr on 8 bytes,
 * pextrw/pinsrw, maskmovq, movq2dq and movdq2q. */
#include "replayer/cpu/sse_util.h"
#include "replayer/cpu/x87.h"

int cpu__mmx(struct cpu *cpu, const struct cpu_insn *in, cpu_handler fn,
             unsigned how) {
  struct cpu_insn li = *in;
  union cpu_vec a, b;
  u64 src = 0, dst = 0;
  int rc, xmm = (how & (CPU_MM_XDST | CPU_MM_XSRC | CPU_MM_XSRC16)) != 0;
  /* cvtpi2ps/pd from memory involve no mm register: they neither check
   * for x87 exceptions nor enter MMX mode (measured). */
  int nomm = (how & CPU_MM_XDST) && (in->pfx & CPU_PFX_MEM);
  if (!nomm) CPU_TRY(cpu__x87_wait(cpu));
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  if (in->pfx & CPU_PFX_MEM) {
    u64 ea = cpu_ea(cpu, in);
    if (how & CPU_MM_XSRC16) {
      CPU_TRY(cpu_ld128a(cpu, ea, b.b));
    } else {
      CPU_TRY(cpu_ld(cpu, ea, (how & CPU_MM_M32) ? 4 : 8, &src));
      b.q[0] = src;
    }
    li.pfx &= (u8)~CPU_PFX_MEM;
  } else if (how & CPU_MM_XSRC16) {
    memcpy(b.b, cpu->ymm[in->rm].b, 16);
  } else if (how & CPU_MM_XSRC) {
    b.q[0] = cpu->ymm[in->rm].q[0];
  } else if (in->rm < 8) { /* no rm at all in the shifts by imm8 */
    src = cpu__mm(cpu, in->rm);
    b.q[0] = src;
  }
  if (how & CPU_MM_XDST)
    memcpy(a.b, cpu->ymm[in->reg].b, 16);
  else if (!(how & CPU_MM_NODST))
    a.q[0] = dst = cpu__mm(cpu, in->reg);
  if (how & CPU_MM_HIGH) {
    a.q[0] = dst >> 32;
    b.q[0] = src >> 32;
  }
  if (how & CPU_MM_PAIR) {
    a.q[1] = src;
    b = a;
  }
  /* The conversions between mm and xmm enter MMX mode once their memory
   * operand is read, before #XM can fault; the MMX instructions proper
   * only once they complete (measured). */
  if (xmm && !nomm) cpu__mmx_enter(cpu);
  memcpy(cpu->ymm[CPU_VTMP0].b, a.b, 16);
  memcpy(cpu->ymm[CPU_VTMP1].b, b.b, 16);
  li.rm = CPU_VTMP1;
  if (!(how & CPU_MM_NODST)) li.reg = CPU_VTMP0;
  rc = fn(cpu, &li);
  if (rc != CPU_RC_NEXT) return rc;
  if (!xmm) cpu__mmx_enter(cpu);
  if (how & CPU_MM_XDST)
    memcpy(cpu->ymm[in->reg].b, cpu->ymm[CPU_VTMP0].b,
           (how & CPU_MM_XLO) ? 8 : 16);
  else if (!(how & CPU_MM_NODST))
    cpu__mm_set(cpu, in->reg, cpu->ymm[CPU_VTMP0].q[0]);
  return CPU_RC_NEXT;
}

/* Reads the 8-byte Q operand (mm register or m64) of IN. */
RW_MUST_CHECK static int q_read(struct cpu *cpu, const struct cpu_insn *in,
                                u64 *v) {
  if (in->pfx & CPU_PFX_MEM) return cpu_ld(cpu, cpu_ea(cpu, in), 8, v);
  *v = cpu__mm(cpu, in->rm);
  return 0;
}

/* Ends an instruction whose result V goes to mm register R. */
static int mm_done(struct cpu *cpu, unsigned r, u64 v) {
  cpu__mmx_enter(cpu);
  cpu__mm_set(cpu, r, v);
  return CPU_RC_NEXT;
}

static int op_emms(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  CPU_TRY(cpu__x87_wait(cpu));
  cpu->x87.fsw &= (u16)~0x3800;
  cpu->x87.ftw = 0;
  return CPU_RC_NEXT;
}

/* movd/movq mm, r/m32 or r/m64: zero-extended. */
static int op_movd_Pq_Ey(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu__x87_wait(cpu));
  CPU_TRY(cpu_rm_read(cpu, in, in->osz2, &v));
  return mm_done(cpu, in->reg, v);
}

/* Before an MMX store that may fault: Intel sets TOP to 0 there, and the
 * tags only once the store is done; AMD does both after it (measured). */
static void mm_store_top(struct cpu *cpu) {
  if (cpu->cfg.vendor != CPU_VENDOR_AMD) cpu->x87.fsw &= (u16)~0x3800;
}

/* movd/movq r/m32 or r/m64, mm. */
static int op_movd_Ey_Pq(struct cpu *cpu, const struct cpu_insn *in) {
  CPU_TRY(cpu__x87_wait(cpu));
  mm_store_top(cpu);
  CPU_TRY(cpu_rm_write(cpu, in, in->osz, cpu__mm(cpu, in->reg)));
  cpu__mmx_enter(cpu);
  return CPU_RC_NEXT;
}

static int op_movq_Pq_Qq(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu__x87_wait(cpu));
  CPU_TRY(q_read(cpu, in, &v));
  return mm_done(cpu, in->reg, v);
}

/* movq mm/m64, mm and movntq m64, mm. */
static int op_movq_Qq_Pq(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu__x87_wait(cpu));
  v = cpu__mm(cpu, in->reg);
  if (in->pfx & CPU_PFX_MEM) {
    mm_store_top(cpu);
    CPU_TRY(cpu_st(cpu, cpu_ea(cpu, in), 8, v));
    cpu__mmx_enter(cpu);
    return CPU_RC_NEXT;
  }
  return mm_done(cpu, in->rm, v);
}

/* pshufw: word i of the result is word imm8[2i+1:2i] of the source. */
static int op_pshufw_Pq_Qq_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  u64 s, r = 0;
  unsigned imm = cpu__imm8(in);
  CPU_TRY(cpu__x87_wait(cpu));
  CPU_TRY(q_read(cpu, in, &s));
  for (unsigned i = 0; i < 4; i++)
    r |= ((s >> (16 * ((imm >> (2 * i)) & 3))) & 0xffff) << (16 * i);
  return mm_done(cpu, in->reg, r);
}

/* pshufb on 8 bytes: the index is the low 3 bits, bit 7 zeroes. */
static int op_pshufb_Pq_Qq(struct cpu *cpu, const struct cpu_insn *in) {
  u64 s, d, r = 0;
  CPU_TRY(cpu__x87_wait(cpu));
  CPU_TRY(q_read(cpu, in, &s));
  d = cpu__mm(cpu, in->reg);
  for (unsigned i = 0; i < 8; i++) {
    unsigned k = (unsigned)(s >> (8 * i)) & 0xff;
    if (!(k & 0x80)) r |= ((d >> (8 * (k & 7))) & 0xff) << (8 * i);
  }
  return mm_done(cpu, in->reg, r);
}

/* palignr on 8 bytes: bytes imm8.. of the 16-byte dest:src, zeros past
 * its end. */
static int op_palignr_Pq_Qq_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  u8 cat[16];
  u64 s, d, r = 0;
  unsigned imm = cpu__imm8(in);
  CPU_TRY(cpu__x87_wait(cpu));
  CPU_TRY(q_read(cpu, in, &s));
  d = cpu__mm(cpu, in->reg);
  memcpy(cat, &s, 8);
  memcpy(cat + 8, &d, 8);
  for (unsigned i = 0; i < 8; i++)
    if (imm + i < 16) r |= (u64)cat[imm + i] << (8 * i);
  return mm_done(cpu, in->reg, r);
}

/* pextrw r, mm, imm8: word imm8[1:0], zero-extended. */
static int op_pextrw_Gy_Nq_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  CPU_TRY(cpu__x87_wait(cpu));
  u64 v = (cpu__mm(cpu, in->rm) >> (16 * (cpu__imm8(in) & 3))) & 0xffff;
  cpu_reg_set(cpu, in->reg, in->osz, v);
  cpu__mmx_enter(cpu);
  return CPU_RC_NEXT;
}

/* pinsrw mm, r32/m16, imm8: into word imm8[1:0]. */
static int op_pinsrw_Pq_Ey_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  unsigned sh = 16 * (cpu__imm8(in) & 3);
  CPU_TRY(cpu__x87_wait(cpu));
  CPU_TRY(cpu_rm_read(cpu, in, 2, &v));
  u64 d = cpu__mm(cpu, in->reg);
  d = (d & ~(0xffffull << sh)) | ((v & 0xffff) << sh);
  return mm_done(cpu, in->reg, d);
}

/* maskmovq mm1, mm2: the bytes of mm1 whose byte in mm2 has bit 7 set go
 * to [rdi] (DS, or the segment override). The CPU enters MMX mode before
 * the store can fault, and the store faults as a write of all 8 bytes
 * even when no byte is selected (measured, read-only pages included), so
 * it is done as a read-modify-write of the 8 bytes. */
static int op_maskmovq_Pq_Nq(struct cpu *cpu, const struct cpu_insn *in) {
  u64 a = cpu->gpr[RW_REG_rdi], d, m, old, sel = 0;
  CPU_TRY(cpu__x87_wait(cpu));
  cpu__mmx_enter(cpu);
  if (in->pfx & CPU_PFX_ADDR32) a = (u32)a;
  a += cpu->segbase[in->seg];
  d = cpu__mm(cpu, in->reg);
  m = cpu__mm(cpu, in->rm);
  for (unsigned i = 0; i < 8; i++)
    if ((m >> (8 * i + 7)) & 1) sel |= 0xffull << (8 * i);
  CPU_TRY(cpu_ld(cpu, a, 8, &old));
  return cpu_st(cpu, a, 8, (old & ~sel) | (d & sel));
}

/* movq2dq xmm, mm: zero-extended to 128 bits (the YMM upper half kept). */
static int op_movq2dq_Vx_Nq(struct cpu *cpu, const struct cpu_insn *in) {
  CPU_TRY(cpu__x87_wait(cpu));
  union cpu_vec *x = cpu__x(cpu, in->reg);
  x->q[0] = cpu__mm(cpu, in->rm);
  x->q[1] = 0;
  cpu__mmx_enter(cpu);
  return CPU_RC_NEXT;
}

/* movdq2q mm, xmm: the low quadword. */
static int op_movdq2q_Pq_Ux(struct cpu *cpu, const struct cpu_insn *in) {
  CPU_TRY(cpu__x87_wait(cpu));
  return mm_done(cpu, in->reg, cpu__x(cpu, in->rm)->q[0]);
}

static const struct cpu__oprow mmx_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/mmx.def"
#undef OP
};
CPU__FAMILY_TABLE(mmx)
