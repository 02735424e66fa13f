/* SPDX-License-Identifier: MIT */
/* AVX and AVX2: the VEX forms of SSE instructions, run through their SSE
 * handlers one 128-bit lane at a time (cpu__vex), and the instructions that
 * exist only in VEX form: 128/256-bit moves, vzeroupper/vzeroall,
 * broadcasts, 128-bit lane inserts, extracts and permutes, the cross-lane
 * permutes, per-element variable shifts, vpblendd, masked loads and stores,
 * vtestps/pd and the 256-bit ptest and sign-mask extractions, and the
 * widening and narrowing conversions at 256 bits. Every VEX instruction
 * that writes a vector register zeroes it above the operation's width;
 * memory operands need no alignment except where the instruction says so
 * (vmovaps, vmovapd, vmovdqa, the non-temporal moves). */
#include "replayer/cpu/evex.h"

/* ---- The lane runner ---------------------------------------------------- */

/* Around the lanes of one instruction: with more than one lane, SIMD FP
 * exceptions are collected and decided for the whole vector, as the CPU
 * does (a pre-computation exception in any element stops all of them). */
static void begin_lanes(struct cpu *cpu, unsigned lanes) {
  if (lanes > 1) {
    cpu->xm_defer = 1;
    cpu->xm_ex = cpu->xm_fl = 0;
  }
}

/* Ends what begin_lanes began; RC is the lanes' outcome. Returns RC, or
 * CPU_FAULT for an unmasked exception of the whole vector. */
static int end_lanes(struct cpu *cpu, int rc) {
  if (!cpu->xm_defer) return rc;
  cpu->xm_defer = 0;
  if (rc != CPU_RC_NEXT) return rc;
  return cpu__sse_commit(cpu, cpu->xm_ex, cpu->xm_fl) ? CPU_FAULT
                                                      : CPU_RC_NEXT;
}

int cpu__vex(struct cpu *cpu, const struct cpu_insn *in, cpu_handler fn,
             unsigned how) {
  int wide = cpu__vex256(in);
  unsigned lanes = wide ? 2 : 1, sh = how >> 8;
  int pass = (how & CPU_VX_PASS) && !wide;
  struct cpu_insn li = *in;
  union cpu_vec src, first, sel, xmm0, out;
  if (wide && (how & CPU_VX_NODST)) return cpu__fault(cpu, CPU_FAULT_UD);
  if (!pass) {
    if (in->pfx & CPU_PFX_MEM) {
      unsigned n = wide && !(how & CPU_VX_SRC2X) ? 32 : 16;
      u64 a = cpu_ea(cpu, in);
      if ((how & CPU_VX_ALIGN) && (a & (n - 1)))
        return cpu__fault(cpu, CPU_FAULT_GP);
      CPU_TRY(n == 32 ? cpu_ld256(cpu, a, src.b) : cpu_ld128(cpu, a, src.b));
      li.pfx &= (u8)~CPU_PFX_MEM;
    } else {
      src = cpu->ymm[in->rm];
    }
    if (how & CPU_VX_SRC2X) memcpy(src.b + 16, src.b, 16);
    li.rm = CPU_VTMP1;
  }
  first = cpu->ymm[(how & CPU_VX_SRC1)    ? in->reg2
                   : (how & CPU_VX_SRCRM) ? in->rm
                                          : in->reg];
  if (how & CPU_VX_BLENDV) {
    sel = cpu->ymm[in->imm2 & 15];
    xmm0 = cpu->ymm[0];
  }
  if (!(how & CPU_VX_NODST)) li.reg = CPU_VTMP0;
  begin_lanes(cpu, lanes);
  for (unsigned l = 0; l < lanes; l++) {
    int rc;
    if (!(how & CPU_VX_NODST))
      memcpy(cpu->ymm[CPU_VTMP0].b, first.b + 16 * l, 16);
    if (!pass) memcpy(cpu->ymm[CPU_VTMP1].b, src.b + 16 * l, 16);
    if (l) li.imm = in->imm >> sh;
    if (how & CPU_VX_BLENDV) memcpy(cpu->ymm[0].b, sel.b + 16 * l, 16);
    rc = fn(cpu, &li);
    if (how & CPU_VX_BLENDV) cpu->ymm[0] = xmm0;
    if (rc != CPU_RC_NEXT) return end_lanes(cpu, rc);
    memcpy(out.b + 16 * l, cpu->ymm[CPU_VTMP0].b, 16);
  }
  if (end_lanes(cpu, CPU_RC_NEXT) != CPU_RC_NEXT) return CPU_FAULT;
  if (!(how & CPU_VX_NODST)) {
    if (!wide) memset(out.b + 16, 0, 16);
    cpu_vput(cpu, in->reg, &out);
  }
  if (how & CPU_VX_XMM0Z) {
    memset(cpu->ymm[0].b + 16, 0, 16);
    cpu_vzhi(cpu, 0);
  }
  return CPU_RC_NEXT;
}

/* ---- Operand helpers ---------------------------------------------------- */

int cpu__vex_rm(struct cpu *cpu, const struct cpu_insn *in, unsigned n,
                int align, union cpu_vec *v) {
  if (!(in->pfx & CPU_PFX_MEM)) {
    if (n == 32) {
      *v = cpu->ymm[in->rm];
      return 0;
    }
    memset(v, 0, sizeof *v);
    memcpy(v->b, cpu->ymm[in->rm].b, n);
    return 0;
  }
  u64 a = cpu_ea(cpu, in);
  if (align && (a & (n - 1))) return cpu__fault(cpu, CPU_FAULT_GP);
  if (n == 32) return cpu_ld256(cpu, a, v->b);
  memset(v, 0, sizeof *v);
  if (n == 16) return cpu_ld128(cpu, a, v->b);
  if (n == 8) return cpu_ld64(cpu, a, &v->q[0]);
  if (n == 4) return cpu_ld32(cpu, a, &v->d[0]);
  return cpu_ldn(cpu, a, v->b, n);
}

/* Sets vector register R to the low N bytes of V, zeroing the rest. */
static void vset(struct cpu *cpu, unsigned r, const union cpu_vec *v,
                 unsigned n) {
  union cpu_vec t = {0};
  memcpy(t.b, v->b, n);
  cpu_vput(cpu, r, &t);
}

static unsigned width(const struct cpu_insn *in) {
  return cpu__vex256(in) ? 32 : 16;
}

/* ---- Whole-register moves ----------------------------------------------- */

static int vload(struct cpu *cpu, const struct cpu_insn *in, int align) {
  union cpu_vec v;
  CPU_TRY(cpu__vex_rm(cpu, in, width(in), align, &v));
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* W_V: the rm operand (memory, or a register then zeroed above N) gets the
 * low N bytes of register reg. */
static int vstore(struct cpu *cpu, const struct cpu_insn *in, int align) {
  unsigned n = width(in);
  union cpu_vec v = cpu->ymm[in->reg];
  if (!(in->pfx & CPU_PFX_MEM)) {
    vset(cpu, in->rm, &v, n);
    return CPU_RC_NEXT;
  }
  u64 a = cpu_ea(cpu, in);
  if (align && (a & (n - 1))) return cpu__fault(cpu, CPU_FAULT_GP);
  return n == 32 ? cpu_st256(cpu, a, v.b) : cpu_st128(cpu, a, v.b);
}

static int op_vmova_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return vload(cpu, in, 1);
}
static int op_vmovu_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return vload(cpu, in, 0);
}
static int op_vmova_W_V(struct cpu *cpu, const struct cpu_insn *in) {
  return vstore(cpu, in, 1);
}
static int op_vmovu_W_V(struct cpu *cpu, const struct cpu_insn *in) {
  return vstore(cpu, in, 0);
}

/* ---- Scalars, halves, movd/movq ----------------------------------------- */

static unsigned scalar_size(const struct cpu_insn *in) {
  return in->id == X86_INS_VMOVSS ? 4 : 8;
}

/* vmovss/vmovsd xmm, m: the element, zero-extended to 256 bits. */
static int op_vmovs_V_M(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec v;
  CPU_TRY(cpu__vex_rm(cpu, in, scalar_size(in), 0, &v));
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_vmovs_M_V(struct cpu *cpu, const struct cpu_insn *in) {
  u64 a = cpu_ea(cpu, in);
  const union cpu_vec *s = &cpu->ymm[in->reg];
  return scalar_size(in) == 4 ? cpu_st32(cpu, a, s->d[0])
                              : cpu_st64(cpu, a, s->q[0]);
}

/* vmovss/vmovsd x1, x2, x3: x3's low element over x2. */
static int op_vmovs_V_V_U(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec v = cpu->ymm[in->reg2];
  memcpy(v.b, cpu->ymm[in->rm].b, scalar_size(in));
  vset(cpu, in->reg, &v, 16);
  return CPU_RC_NEXT;
}

/* vmovq xmm, xmm/m64 (both encodings): the low quadword, zero-extended. */
static int op_vmovq_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec v;
  CPU_TRY(cpu__vex_rm(cpu, in, 8, 0, &v));
  vset(cpu, in->reg, &v, 8);
  return CPU_RC_NEXT;
}

static int op_vmovq_M_V(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_st64(cpu, cpu_ea(cpu, in), cpu->ymm[in->reg].q[0]);
}

/* vmovd/vmovq with a general register or memory. */
static unsigned gsize(const struct cpu_insn *in) {
  return (in->pfx & CPU_PFX_REXW) ? 8 : 4;
}

static int op_vmovd_V_Ey(struct cpu *cpu, const struct cpu_insn *in) {
  u64 x;
  CPU_TRY(cpu_rm_read(cpu, in, gsize(in), &x));
  union cpu_vec v = {0};
  v.q[0] = x;
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_vmovd_Ey_V(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_rm_write(cpu, in, gsize(in), cpu->ymm[in->reg].q[0]);
}

/* vmovlps/vmovlpd/vmovhps/vmovhpd x1, x2, m64: x2 with one half from
 * memory. */
static int op_vmovhalf_V_V_M(struct cpu *cpu, const struct cpu_insn *in) {
  int hi = in->id == X86_INS_VMOVHPS || in->id == X86_INS_VMOVHPD;
  u64 x;
  CPU_TRY(cpu_ld64(cpu, cpu_ea(cpu, in), &x));
  union cpu_vec v = cpu->ymm[in->reg2];
  v.q[hi] = x;
  vset(cpu, in->reg, &v, 16);
  return CPU_RC_NEXT;
}

static int op_vmovhalf_M_V(struct cpu *cpu, const struct cpu_insn *in) {
  int hi = in->id == X86_INS_VMOVHPS || in->id == X86_INS_VMOVHPD;
  return cpu_st64(cpu, cpu_ea(cpu, in), cpu->ymm[in->reg].q[hi]);
}

/* vmovhlps: x3's high half, then x2's; vmovlhps: x2's low, then x3's. */
static int op_vmovhlps_V_V_U(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec v = {0};
  v.q[0] = cpu->ymm[in->rm].q[1];
  v.q[1] = cpu->ymm[in->reg2].q[1];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_vmovlhps_V_V_U(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec v = {0};
  v.q[0] = cpu->ymm[in->reg2].q[0];
  v.q[1] = cpu->ymm[in->rm].q[0];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* ---- vzeroupper, vzeroall ----------------------------------------------- */

/* Both put the upper halves back in their initial state, vzeroall the
 * XMM registers too (an MXCSR other than 1F80h still counts as SSE in use:
 * cpu__xinuse). First, IN->imm: the XINUSE bits of the instructions
 * before them in their block (CPU__DEC_XCLEAR). */
static int op_vzeroupper(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->xinuse |= (u32)in->imm;
  for (int r = 0; r < 16; r++) {
    memset(cpu->ymm[r].b + 16, 0, 16);
    cpu_vzhi(cpu, (unsigned)r);
  }
  cpu->xinuse &= ~(u32)(CPU_XIN_AVX | CPU_XIN_ZMMH);
  return CPU_RC_NEXT;
}

static int op_vzeroall(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->xinuse |= (u32)in->imm;
  memset(cpu->ymm, 0, 16 * sizeof cpu->ymm[0]);
  memset(cpu->zmmh, 0, 16 * sizeof cpu->zmmh[0]);
  cpu->xinuse &= ~(u32)(CPU_XIN_SSE | CPU_XIN_AVX | CPU_XIN_ZMMH);
  return CPU_RC_NEXT;
}

/* ---- Sign masks and tests ----------------------------------------------- */

/* vmovmskps/pd, vpmovmskb at any width: the top bit of each element. */
static int movmsk(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  const union cpu_vec *s = &cpu->ymm[in->rm];
  u64 m = cpu__signs16(s->b, esz);
  if (in->osz2 == 32) m |= (u64)cpu__signs16(s->b + 16, esz) << (16 / esz);
  cpu_reg_set(cpu, in->reg, 8, m);
  return CPU_RC_NEXT;
}

static int op_vmovmskps_Gy_U(struct cpu *cpu, const struct cpu_insn *in) {
  return movmsk(cpu, in, 4);
}
static int op_vmovmskpd_Gy_U(struct cpu *cpu, const struct cpu_insn *in) {
  return movmsk(cpu, in, 8);
}
static int op_vpmovmskb_Gy_U(struct cpu *cpu, const struct cpu_insn *in) {
  return movmsk(cpu, in, 1);
}

/* vptest (every bit) and vtestps/vtestpd (the sign bits of ESZ-byte
 * elements): ZF = (a AND b) is zero, CF = (NOT a AND b) is zero. */
static int vtest(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  unsigned n = width(in);
  union cpu_vec b;
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &b));
  const union cpu_vec *a = &cpu->ymm[in->reg];
  u64 z = 0, c = 0, m = 0;
  if (esz == 4) m = 0x8000000080000000ull;
  if (esz == 8) m = 0x8000000000000000ull;
  if (!esz) m = ~0ull;
  for (unsigned i = 0; i < n / 8; i++) {
    z |= a->q[i] & b.q[i] & m;
    c |= ~a->q[i] & b.q[i] & m;
  }
  cpu__flags_set(cpu, CPU_ARITH, (z ? 0 : CPU_ZF) | (c ? 0 : CPU_CF));
  return CPU_RC_NEXT;
}

static int op_vptest_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return vtest(cpu, in, 0);
}
static int op_vtestps_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return vtest(cpu, in, 4);
}
static int op_vtestpd_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return vtest(cpu, in, 8);
}

/* ---- Broadcasts --------------------------------------------------------- */

/* The low ESZ bytes of the source (register or memory) in every element of
 * the destination. */
static int broadcast(struct cpu *cpu, const struct cpu_insn *in,
                     unsigned esz) {
  union cpu_vec s, v;
  unsigned n = in->osz == 32 ? 32 : 16;
  CPU_TRY(cpu__vex_rm(cpu, in, (in->pfx & CPU_PFX_MEM) ? esz : 16, 0, &s));
  for (unsigned i = 0; i < n; i += esz) memcpy(v.b + i, s.b, esz);
  vset(cpu, in->reg, &v, n);
  return CPU_RC_NEXT;
}

#define BCAST(mn, esz)                                                   \
  static int op_##mn##_V_W(struct cpu *cpu, const struct cpu_insn *in) { \
    return broadcast(cpu, in, esz);                                      \
  }
BCAST(vpbroadcastb, 1)
BCAST(vpbroadcastw, 2)
BCAST(vpbroadcastd, 4)
BCAST(vpbroadcastq, 8)
BCAST(vbroadcast128, 16)
#undef BCAST

/* ---- 128-bit lanes: insert, extract, permute ----------------------------- */

static int op_vinsert128_V_V_W_I(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, v;
  CPU_TRY(cpu__vex_rm(cpu, in, 16, 0, &s));
  v = cpu->ymm[in->reg2];
  memcpy(v.b + 16 * (in->imm & 1), s.b, 16);
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_vextract128_W_V_I(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec v;
  memcpy(v.b, cpu->ymm[in->reg].b + 16 * (in->imm & 1), 16);
  if (in->pfx & CPU_PFX_MEM) return cpu_st128(cpu, cpu_ea(cpu, in), v.b);
  vset(cpu, in->rm, &v, 16);
  return CPU_RC_NEXT;
}

static int op_vperm2x128_V_V_W_I(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec b, v;
  CPU_TRY(cpu__vex_rm(cpu, in, 32, 0, &b));
  const union cpu_vec *a = &cpu->ymm[in->reg2];
  for (unsigned l = 0; l < 2; l++) {
    unsigned c = (unsigned)(in->imm >> (4 * l)) & 15;
    const union cpu_vec *s = (c & 2) ? &b : a;
    if (c & 8)
      memset(v.b + 16 * l, 0, 16);
    else
      memcpy(v.b + 16 * l, s->b + 16 * (c & 1), 16);
  }
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* ---- Cross-lane and in-lane permutes ------------------------------------ */

/* vpermq/vpermpd ymm, ymm/m256, imm8. */
static int op_vpermq_V_W_I(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, v;
  CPU_TRY(cpu__vex_rm(cpu, in, 32, 0, &s));
  for (unsigned i = 0; i < 4; i++) v.q[i] = s.q[(in->imm >> (2 * i)) & 3];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* vpermd/vpermps ymm1, ymm2 (indices), ymm3/m256 (data). */
static int op_vpermd_V_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, v;
  CPU_TRY(cpu__vex_rm(cpu, in, 32, 0, &s));
  const union cpu_vec *x = &cpu->ymm[in->reg2];
  for (unsigned i = 0; i < 8; i++) v.d[i] = s.d[x->d[i] & 7];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* vpermilps/vpermilpd with a control vector: each element picks one of its
 * lane's elements of x2. */
static int op_vpermilps_V_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = width(in);
  union cpu_vec c, v = {0};
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &c));
  const union cpu_vec *s = &cpu->ymm[in->reg2];
  for (unsigned i = 0; i < n / 4; i++) v.d[i] = s->d[(i & ~3u) + (c.d[i] & 3)];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_vpermilpd_V_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = width(in);
  union cpu_vec c, v = {0};
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &c));
  const union cpu_vec *s = &cpu->ymm[in->reg2];
  for (unsigned i = 0; i < n / 8; i++)
    v.q[i] = s->q[(i & ~1u) + ((c.q[i] >> 1) & 1)];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* The same with an immediate control: the same 2-bit fields in each lane
 * (ps), one bit per element (pd). */
static int op_vpermilps_V_W_I(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = width(in);
  union cpu_vec s, v = {0};
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &s));
  for (unsigned i = 0; i < n / 4; i++)
    v.d[i] = s.d[(i & ~3u) + ((in->imm >> (2 * (i & 3))) & 3)];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_vpermilpd_V_W_I(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = width(in);
  union cpu_vec s, v = {0};
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &s));
  for (unsigned i = 0; i < n / 8; i++)
    v.q[i] = s.q[(i & ~1u) + ((in->imm >> i) & 1)];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* vpblendd: dword i from x3 when imm bit i is set, else from x2. */
static int op_vpblendd_V_V_W_I(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = width(in);
  union cpu_vec s, v = {0};
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &s));
  const union cpu_vec *a = &cpu->ymm[in->reg2];
  for (unsigned i = 0; i < n / 4; i++)
    v.d[i] = ((in->imm >> i) & 1) ? s.d[i] : a->d[i];
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* ---- Variable shifts ---------------------------------------------------- */

/* vpsllv/vpsrlv/vpsrav: each element of x2 shifted by the same element of
 * x3; counts of the element width or more give 0 (or the sign). */
static int varshift(struct cpu *cpu, const struct cpu_insn *in, int kind) {
  unsigned n = width(in), q = (in->pfx & CPU_PFX_REXW) != 0;
  union cpu_vec c, v = {0};
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &c));
  const union cpu_vec *s = &cpu->ymm[in->reg2];
  if (q) {
    for (unsigned i = 0; i < n / 8; i++) {
      u64 k = c.q[i], x = s->q[i];
      v.q[i] = k > 63 ? 0 : kind == 0 ? x << k : x >> k;
    }
  } else {
    for (unsigned i = 0; i < n / 4; i++) {
      u32 k = c.d[i], x = s->d[i];
      if (kind == 2)
        v.sd[i] = (i32)x >> (k > 31 ? 31 : k);
      else
        v.d[i] = k > 31 ? 0 : kind == 0 ? x << k : x >> k;
    }
  }
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_vpsllv_V_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return varshift(cpu, in, 0);
}
static int op_vpsrlv_V_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return varshift(cpu, in, 1);
}
static int op_vpsrav_V_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  return varshift(cpu, in, 2);
}

/* ---- Gathers ------------------------------------------------------------ */

/* vpgather*, vgather*: V_M_V is dest (reg), the VSIB operand (base, disp,
 * scale, the index vector in imm and its size in imm2) and the mask
 * (reg2). Element i is loaded from base + disp + (index[i] << scale) when
 * the top bit of mask element i is set. Elements are taken in order, and
 * each one passed (gathered or not selected) gets its mask element
 * cleared, so a fault leaves the earlier ones done and the instruction
 * restartable, as on the CPU (Intel rewrites the rest of the mask then:
 * below). When all
 * are done the mask is zero and the destination is zero above the
 * elements gathered. The opcode's W gives the element size (d/ps 4, q/pd
 * 8), its low bit the index element size (90/92 dword, 91/93 qword). */
static int op_vgather_V_M_V(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned esz = (in->pfx & CPU_PFX_REXW) ? 8 : 4;
  unsigned qidx = in->id == X86_INS_VPGATHERQD ||
                  in->id == X86_INS_VPGATHERQQ ||
                  in->id == X86_INS_VGATHERQPS || in->id == X86_INS_VGATHERQPD;
  unsigned isz = qidx ? 8 : 4, vx = (unsigned)in->imm;
  unsigned n = in->osz / esz;
  if (in->imm2 / isz < n) n = in->imm2 / isz;
  if (in->reg == in->reg2 || in->reg == vx || in->reg2 == vx)
    return cpu__fault(cpu, CPU_FAULT_UD);
  union cpu_vec *d = &cpu->ymm[in->reg], *m = &cpu->ymm[in->reg2];
  const union cpu_vec *ix = &cpu->ymm[vx];
  u64 base = (u64)in->disp + cpu->gpr[in->base];
  int gathered = 0;
  for (unsigned i = 0; i < n; i++) {
    if (!(m->b[i * esz + esz - 1] & 0x80)) {
      memset(m->b + i * esz, 0, esz);
      continue;
    }
    u64 off = isz == 4 ? (u64)(i64)ix->sd[i] : ix->q[i];
    u64 a = base + (off << in->scale);
    if (in->pfx & CPU_PFX_ADDR32) a = (u32)a;
    a += cpu->segbase[in->seg];
    union cpu_vec t;
    int rc = esz == 4 ? cpu_ld32(cpu, a, &t.d[0]) : cpu_ld64(cpu, a, &t.q[0]);
    if (rc == CPU_FAULT && cpu->cfg.vendor != CPU_VENDOR_AMD) {
      /* Intel (measured): from the faulting element to the end of the
       * encoded vector length (the index register's for qword indices),
       * every selected mask element becomes all ones and the others zero,
       * and the mask register is zero above that length; the destination
       * is zero above it too once an element was gathered, else
       * untouched. */
      unsigned vl = qidx ? in->imm2 : in->osz; /* the encoded length */
      for (unsigned k = i; k < vl / esz; k++)
        memset(m->b + k * esz, (m->b[k * esz + esz - 1] & 0x80) ? 0xff : 0,
               esz);
      memset(m->b + vl, 0, sizeof m->b - vl);
      cpu_vzhi(cpu, in->reg2);
      if (gathered) {
        memset(d->b + vl, 0, sizeof d->b - vl);
        cpu_vzhi(cpu, in->reg);
      }
    }
    CPU_TRY(rc);
    memcpy(d->b + i * esz, t.b, esz);
    memset(m->b + i * esz, 0, esz);
    gathered = 1;
  }
  memset(d->b + n * esz, 0, sizeof d->b - n * esz);
  memset(m, 0, sizeof *m);
  cpu_vzhi(cpu, in->reg);
  cpu_vzhi(cpu, in->reg2);
  return CPU_RC_NEXT;
}

/* ---- Masked loads and stores -------------------------------------------- */

/* vmaskmovps/pd, vpmaskmovd/q: only the elements whose mask (x2) has its
 * top bit set are accessed, so only they can fault; a load zeroes the
 * others. */
static unsigned mask_esz(const struct cpu_insn *in) {
  if (in->id == X86_INS_VMASKMOVPD) return 8;
  if (in->id == X86_INS_VPMASKMOVQ) return 8;
  return 4;
}

static int op_vmaskmov_V_V_M(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = width(in), esz = mask_esz(in);
  union cpu_vec v = {0};
  const union cpu_vec *m = &cpu->ymm[in->reg2];
  u64 a = cpu_ea(cpu, in);
  for (unsigned i = 0; i < n; i += esz)
    if (m->b[i + esz - 1] & 0x80) CPU_TRY(cpu_ldn(cpu, a + i, v.b + i, esz));
  cpu_vput(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

/* M_V_V: memory, mask (reg), data (reg2). As on the CPU, a fault on any
 * selected element leaves every element unwritten: a first pass stores
 * each selected element's own bytes back, which faults where the real
 * store would and changes nothing. */
static int op_vmaskmov_M_V_V(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = in->osz2 == 32 ? 32 : 16, esz = mask_esz(in);
  const union cpu_vec *m = &cpu->ymm[in->reg], *s = &cpu->ymm[in->reg2];
  u64 a = cpu_ea(cpu, in);
  if (cpu->cfg.vendor != CPU_VENDOR_AMD) {
    /* Intel: as its opmask stores (measured), cpu__ev_st_masked */
    union zv z;
    u64 bits = 0;
    memcpy(z.b, s->b, n);
    for (unsigned i = 0; i < n / esz; i++)
      if (m->b[i * esz + esz - 1] & 0x80) bits |= 1ull << i;
    return cpu__ev_st_masked(cpu, a, &z, esz, n / esz, bits, 1);
  }
  for (unsigned i = 0; i < n; i += esz) {
    u8 old[8];
    if (!(m->b[i + esz - 1] & 0x80)) continue;
    CPU_TRY(cpu_ldn(cpu, a + i, old, esz));
    CPU_TRY(cpu_stn(cpu, a + i, old, esz));
  }
  for (unsigned i = 0; i < n; i += esz)
    if (m->b[i + esz - 1] & 0x80) CPU_TRY(cpu_stn(cpu, a + i, s->b + i, esz));
  return CPU_RC_NEXT;
}

/* ---- Widening and narrowing at 256 bits --------------------------------- */

/* A 256-bit result from a 128-bit source: lane L is what the SSE handler FN
 * makes of the source bytes from HALF * L (HALF = the source bytes one
 * lane consumes). The source is read once, 2 * HALF bytes. */
int cpu__vex_widen(struct cpu *cpu, const struct cpu_insn *in, cpu_handler fn,
                   unsigned half) {
  union cpu_vec s, out;
  struct cpu_insn li = *in;
  CPU_TRY(cpu__vex_rm(cpu, in, 2 * half, 0, &s));
  li.pfx &= (u8)~CPU_PFX_MEM;
  li.reg = CPU_VTMP0;
  li.rm = CPU_VTMP1;
  begin_lanes(cpu, 2);
  for (unsigned l = 0; l < 2; l++) {
    memset(cpu->ymm[CPU_VTMP1].b, 0, 16);
    memcpy(cpu->ymm[CPU_VTMP1].b, s.b + half * l, half);
    int rc = fn(cpu, &li);
    if (rc != CPU_RC_NEXT) return end_lanes(cpu, rc);
    memcpy(out.b + 16 * l, cpu->ymm[CPU_VTMP0].b, 16);
  }
  if (end_lanes(cpu, CPU_RC_NEXT) != CPU_RC_NEXT) return CPU_FAULT;
  cpu_vput(cpu, in->reg, &out);
  return CPU_RC_NEXT;
}

/* A 128-bit result from a 256-bit source: FN makes 8 bytes of each lane. */
int cpu__vex_narrow(struct cpu *cpu, const struct cpu_insn *in,
                    cpu_handler fn) {
  union cpu_vec s, out = {0};
  struct cpu_insn li = *in;
  CPU_TRY(cpu__vex_rm(cpu, in, 32, 0, &s));
  li.pfx &= (u8)~CPU_PFX_MEM;
  li.reg = CPU_VTMP0;
  li.rm = CPU_VTMP1;
  begin_lanes(cpu, 2);
  for (unsigned l = 0; l < 2; l++) {
    memcpy(cpu->ymm[CPU_VTMP1].b, s.b + 16 * l, 16);
    int rc = fn(cpu, &li);
    if (rc != CPU_RC_NEXT) return end_lanes(cpu, rc);
    out.q[l] = cpu->ymm[CPU_VTMP0].q[0];
  }
  if (end_lanes(cpu, CPU_RC_NEXT) != CPU_RC_NEXT) return CPU_FAULT;
  cpu_vput(cpu, in->reg, &out);
  return CPU_RC_NEXT;
}

static const struct cpu__oprow avx_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/avx.def"
#undef OP
};
CPU__FAMILY_TABLE(avx)
