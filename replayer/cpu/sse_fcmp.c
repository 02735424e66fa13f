/* SPDX-License-Identifier: MIT */
/* SSE floating-point compares and rounding: cmpps/pd/ss/sd with the eight
 * legacy predicates, comiss/comisd/ucomiss/ucomisd (ZF PF CF; OF SF AF
 * cleared), roundps/pd/ss/sd and the dot products dpps/dppd. Compare
 * results and flags come from host compares through sse_fpu.c; rounding is
 * done in C with host adds in the requested rounding mode. */
#include "replayer/cpu/sse_util.h"

/* ---- cmpXX ------------------------------------------------------------ */

/* Compares with predicate P (0-7: eq lt le unord neq nlt nle ord). HOPEQ is
 * the host eq operation of the form; lt, le and unord follow it at strides
 * of 4 in sse_hops.def. N elements of ESZ bytes are written (the rest of a
 * scalar destination is kept). */
static int cmp(struct cpu *cpu, const struct cpu_insn *in, unsigned p,
               int hopeq, unsigned sz) {
  union cpu_vec a, b;
  CPU_TRY(cpu_W_read(cpu, in, sz, sz == 16, &b));
  a = *cpu__x(cpu, in->reg);
  CPU_TRY(cpu__sse_fp(cpu, hopeq + 4 * (int)(p & 3), &a, &b));
  if (p & 4) {
    if (sz == 16) {
      a.q[0] = ~a.q[0];
      a.q[1] = ~a.q[1];
    } else if (sz == 8) {
      a.q[0] = ~a.q[0];
    } else {
      a.d[0] = ~a.d[0];
    }
  }
  cpu__xset(cpu, in->reg, &a);
  return CPU_RC_NEXT;
}

#define CMP(sfx, hsfx, SFX, sz)                                          \
  static int op_cmp##sfx##_Vx_W##hsfx(struct cpu *cpu,                   \
                                      const struct cpu_insn *in) {       \
    return cmp(cpu, in, (unsigned)(in->id - X86_INS_CMPEQ##SFX),         \
               CPU__HOP_cmpeq##sfx, sz);                                 \
  }                                                                      \
  static int op_cmp##sfx##_Vx_W##hsfx##_Ib(struct cpu *cpu,              \
                                           const struct cpu_insn *in) {  \
    return cmp(cpu, in, cpu__imm8(in) & 7, CPU__HOP_cmpeq##sfx, sz);     \
  }
CMP(ps, x, PS, 16)
CMP(pd, x, PD, 16)
CMP(ss, ss, SS, 4)
CMP(sd, sd, SD, 8)
#undef CMP

/* The 32 predicates of the VEX compares. For predicate P (0-31) and an
 * ordered pair, the result is the relation of P & 7 (eq lt le false, then
 * their negations neq nlt nle true, as below); for an unordered pair it is
 * "true" for P & 7 in 3-6, and bit 3 of P flips that. Bit 4 swaps the
 * quiet and signalling behaviour toward quiet NaNs: the flags and the #XM
 * are those of the host's quiet compare (eq) or signalling one (lt), and
 * the result is built from the host's eq, lt, le and unord masks. Legacy
 * SSE reaches here only with P < 8 through cmp(). */
int cpu__fcmp32(struct cpu *cpu, unsigned p, int hopeq, union cpu_vec *va,
                const union cpu_vec *vb) {
  union cpu_vec a = *va, b = *vb, m[4], t;
  unsigned esz = hopeq == CPU__HOP_cmpeqps || hopeq == CPU__HOP_cmpeqss ? 4
                                                                         : 8;
  unsigned n = hopeq == CPU__HOP_cmpeqps || hopeq == CPU__HOP_cmpeqpd
                   ? 16 / esz
                   : 1;
  int sig = ((p & 3) == 1 || (p & 3) == 2) ^ ((p >> 4) & 1);
  t = a;
  CPU_TRY(cpu__sse_fp(cpu, hopeq + (sig ? 4 : 0), &t, &b));
  for (int k = 0; k < 4; k++) {
    m[k] = a;
    (void)cpu__sse_host(hopeq + 4 * k, &m[k], &b, cpu->mxcsr | CPU_MX_MASKS);
  }
  for (unsigned i = 0; i < n; i++) {
    u64 eq, lt, le, un, r;
    if (esz == 4) {
      eq = m[0].d[i] & 1, lt = m[1].d[i] & 1, le = m[2].d[i] & 1;
      un = m[3].d[i] & 1;
    } else {
      eq = m[0].q[i] & 1, lt = m[1].q[i] & 1, le = m[2].q[i] & 1;
      un = m[3].q[i] & 1;
    }
    if (un) {
      r = ((p & 7) >= 3 && (p & 7) <= 6) ^ ((p >> 3) & 1);
    } else {
      static const unsigned char base[4] = {0, 1, 2, 3};
      unsigned q = base[p & 3];
      r = q == 0 ? eq : q == 1 ? lt : q == 2 ? le : 0;
      if (p & 4) r = !r;
    }
    if (esz == 4)
      a.d[i] = r ? 0xffffffffu : 0;
    else
      a.q[i] = r ? ~0ull : 0;
  }
  *va = a;
  return 0;
}

static int cmp32(struct cpu *cpu, const struct cpu_insn *in, unsigned p,
                 int hopeq, unsigned sz) {
  union cpu_vec a, b;
  CPU_TRY(cpu_W_read(cpu, in, sz, 0, &b));
  a = *cpu__x(cpu, in->reg);
  CPU_TRY(cpu__fcmp32(cpu, p, hopeq, &a, &b));
  cpu__xset(cpu, in->reg, &a);
  return CPU_RC_NEXT;
}

/* VEX compares, predicate from the Capstone id (32 per type) or imm8. */
#define VCMP(sfx, hsfx, SFX, sz)                                            \
  static int op_vcmp##sfx##_lane(struct cpu *cpu,                           \
                                 const struct cpu_insn *in) {               \
    unsigned p = in->id == X86_INS_VCMP##SFX                                \
                     ? cpu__imm8(in) & 31                                   \
                     : (unsigned)(in->id - X86_INS_VCMPEQ##SFX);            \
    return cmp32(cpu, in, p, CPU__HOP_cmpeq##sfx, sz);                      \
  }
VCMP(ps, x, PS, 16)
VCMP(pd, x, PD, 16)
VCMP(ss, ss, SS, 4)
VCMP(sd, sd, SD, 8)
#undef VCMP
CPU_VEX(vcmpps, op_vcmpps_lane, CPU_VX_SRC1)
CPU_VEX(vcmppd, op_vcmppd_lane, CPU_VX_SRC1)
CPU_VEX(vcmpss, op_vcmpss_lane, CPU_VX_SRC1 | CPU_VX_PASS)
CPU_VEX(vcmpsd, op_vcmpsd_lane, CPU_VX_SRC1 | CPU_VX_PASS)

/* ---- comi/ucomi --------------------------------------------------------- */

/* Whether the float/double bits X are a NaN; *Z gets X with a denormal
 * flushed when DAZ, as a comparable sign-magnitude key in *KEY. */
static int fkey(u64 x, unsigned esz, int daz, i64 *key) {
  u64 sign = esz == 4 ? 0x80000000u : 1ull << 63;
  u64 expm = esz == 4 ? 0x7f800000u : 0x7ff0000000000000ull;
  u64 mag = x & (sign - 1);
  if (mag > expm) return 1;
  if (daz && !(x & expm)) mag = 0;
  *key = (x & sign) ? -(i64)mag : (i64)mag;
  return 0;
}

static int comi(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                int signalling) {
  union cpu_vec b;
  CPU_TRY(cpu_W_read(cpu, in, esz, 0, &b));
  union cpu_vec a = *cpu__x(cpu, in->reg);
  int hop = esz == 4 ? (signalling ? CPU__HOP_cmpltss : CPU__HOP_cmpeqss)
                     : (signalling ? CPU__HOP_cmpltsd : CPU__HOP_cmpeqsd);
  u64 x = esz == 4 ? a.d[0] : a.q[0], y = esz == 4 ? b.d[0] : b.q[0];
  CPU_TRY(cpu__sse_fp(cpu, hop, &a, &b));
  int daz = (cpu->mxcsr & CPU_MX_DAZ) != 0;
  i64 kx = 0, ky = 0;
  u64 f;
  if (fkey(x, esz, daz, &kx) | fkey(y, esz, daz, &ky))
    f = CPU_ZF | CPU_PF | CPU_CF;
  else if (kx == ky)
    f = CPU_ZF;
  else
    f = kx < ky ? CPU_CF : 0;
  cpu__flags_set(cpu, CPU_ARITH, f);
  return CPU_RC_NEXT;
}

static int op_comiss_Vss_Wss(struct cpu *cpu, const struct cpu_insn *in) {
  return comi(cpu, in, 4, 1);
}
static int op_comisd_Vsd_Wsd(struct cpu *cpu, const struct cpu_insn *in) {
  return comi(cpu, in, 8, 1);
}
static int op_ucomiss_Vss_Wss(struct cpu *cpu, const struct cpu_insn *in) {
  return comi(cpu, in, 4, 0);
}
static int op_ucomisd_Vsd_Wsd(struct cpu *cpu, const struct cpu_insn *in) {
  return comi(cpu, in, 8, 0);
}

/* ---- round ---------------------------------------------------------- */

/* Rounds the element X (ESZ bytes) to an integral value with rounding RC
 * (MXCSR encoding); ORs IE/PE into *FL (PE unless NOPE). */
static u64 round_elem(u64 x, unsigned esz, unsigned rc, int daz, int nope,
                      u32 *fl) {
  int d = esz == 8;
  u64 sign = d ? 1ull << 63 : 0x80000000u;
  u64 expm = d ? 0x7ff0000000000000ull : 0x7f800000u;
  u64 quiet = d ? 1ull << 51 : 0x400000u;
  u64 big = d ? 0x4330000000000000ull : 0x4b000000u; /* 2^52, 2^23 */
  u64 mag = x & (sign - 1);
  if (mag > expm) {
    if (!(x & quiet)) *fl |= CPU_MX_IE;
    return x | quiet;
  }
  if (daz && !(x & expm)) return x & sign;
  if (mag >= big || mag == 0) return x;
  u32 mx = (rc << 13) | CPU_MX_MASKS;
  union cpu_vec a = {0}, c = {0};
  int add = d ? CPU__HOP_addsd : CPU__HOP_addss;
  int sub = d ? CPU__HOP_subsd : CPU__HOP_subss;
  a.q[0] = x;
  c.q[0] = big | (x & sign);
  (void)cpu__sse_host(add, &a, &c, mx);
  (void)cpu__sse_host(sub, &a, &c, mx);
  u64 r = (a.q[0] & (d ? ~0ull : 0xffffffffu) & (sign - 1)) | (x & sign);
  if (r != x && !nope) *fl |= CPU_MX_PE;
  return r;
}

static int round_op(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                    unsigned n) {
  union cpu_vec b;
  unsigned sz = n == 1 ? esz : 16;
  CPU_TRY(cpu_W_read(cpu, in, sz, sz == 16, &b));
  union cpu_vec r = *cpu__x(cpu, in->reg);
  unsigned imm = cpu__imm8(in);
  unsigned rc = (imm & 4) ? (cpu->mxcsr & CPU_MX_RC) >> 13 : (imm & 3);
  int daz = (cpu->mxcsr & CPU_MX_DAZ) != 0;
  u32 fl = 0;
  for (unsigned i = 0; i < n; i++) {
    if (esz == 4)
      r.d[i] = (u32)round_elem(b.d[i], 4, rc, daz, imm & 8, &fl);
    else
      r.q[i] = round_elem(b.q[i], 8, rc, daz, imm & 8, &fl);
  }
  CPU_TRY(cpu__sse_flags(cpu, fl));
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_roundps_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return round_op(cpu, in, 4, 4);
}
static int op_roundpd_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return round_op(cpu, in, 8, 2);
}
static int op_roundss_Vx_Wss_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return round_op(cpu, in, 4, 1);
}
static int op_roundsd_Vx_Wsd_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return round_op(cpu, in, 8, 1);
}

/* ---- dpps / dppd ------------------------------------------------------ *
 * The products and sums run one by one in the CPU's order, which gives the
 * results and the masked flags exactly. Which flags the CPU reports before
 * #XM when one of them is unmasked is not known well enough here: such a
 * case stops as an unsupported instruction instead of guessing. */

/* One scalar host operation on elements X and Y (low element of
 * vectors), accumulating flags. */
static u64 sop(int hop, u64 x, u64 y, u32 mx, u32 *fl) {
  union cpu_vec a = {0}, b = {0};
  a.q[0] = x;
  b.q[0] = y;
  *fl |= cpu__sse_host(hop, &a, &b, mx);
  return a.q[0];
}

/* Each destination element of an Intel dpps adds the same products in its
 * own operand order (measured with a NaN in each product: the first
 * operand's NaN is the one that stays): even elements t1 + t0 and t3 + t2,
 * odd ones t0 + t1 and t2 + t3; elements 0 and 1 then add the second sum to
 * the first, 2 and 3 the first to the second. AMD uses the odd elements'
 * order and elements 0 and 1's for all four. The values and flags are the
 * same either way; only which NaN comes out differs. */
static int op_dpps_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec b;
  CPU_TRY(cpu__W16(cpu, in, 1, &b));
  const union cpu_vec *a = cpu__x(cpu, in->reg);
  unsigned imm = cpu__imm8(in);
  int intel = cpu->cfg.vendor != CPU_VENDOR_AMD;
  u32 mx = cpu->mxcsr, fl = 0, s[4];
  u64 t[4];
  for (int i = 0; i < 4; i++)
    t[i] = (imm >> (4 + i)) & 1
               ? (u32)sop(CPU__HOP_mulss, a->d[i], b.d[i], mx, &fl)
               : 0;
  for (int j = 0; j < 4; j++) {
    int swap = intel && !(j & 1), high = intel && j >= 2;
    u32 unused = 0;
    u32 *f = j ? &unused : &fl; /* the flags are the same for every j */
    u64 s01 = (u32)sop(CPU__HOP_addss, t[swap], t[!swap], mx, f);
    u64 s23 = (u32)sop(CPU__HOP_addss, t[2 + swap], t[2 + !swap], mx, f);
    s[j] = (u32)(high ? sop(CPU__HOP_addss, s23, s01, mx, f)
                      : sop(CPU__HOP_addss, s01, s23, mx, f));
  }
  if (fl & ~(mx >> 7) & CPU_MX_FLAGS) return cpu__op_unsupported(cpu, in);
  cpu->mxcsr |= fl;
  union cpu_vec r;
  for (int i = 0; i < 4; i++) r.d[i] = (imm >> i) & 1 ? s[i] : 0;
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_dppd_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec b;
  CPU_TRY(cpu__W16(cpu, in, 1, &b));
  const union cpu_vec *a = cpu__x(cpu, in->reg);
  unsigned imm = cpu__imm8(in);
  u32 mx = cpu->mxcsr, fl = 0;
  u64 t[2];
  for (int i = 0; i < 2; i++)
    t[i] = (imm >> (4 + i)) & 1
               ? sop(CPU__HOP_mulsd, a->q[i], b.q[i], mx, &fl)
               : 0;
  /* Intel: element 1 adds t1 + t0 (its NaN first; see dpps) */
  u32 unused = 0;
  u64 s0 = sop(CPU__HOP_addsd, t[0], t[1], mx, &fl);
  u64 s1 = cpu->cfg.vendor != CPU_VENDOR_AMD
               ? sop(CPU__HOP_addsd, t[1], t[0], mx, &unused)
               : s0;
  if (fl & ~(mx >> 7) & CPU_MX_FLAGS) return cpu__op_unsupported(cpu, in);
  cpu->mxcsr |= fl;
  union cpu_vec r;
  r.q[0] = imm & 1 ? s0 : 0;
  r.q[1] = (imm >> 1) & 1 ? s1 : 0;
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vcomiss, op_comiss_Vss_Wss, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vcomisd, op_comisd_Vsd_Wsd, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vucomiss, op_ucomiss_Vss_Wss, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vucomisd, op_ucomisd_Vsd_Wsd, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vroundps, op_roundps_Vx_Wx_Ib, 0)
CPU_VEX(vroundpd, op_roundpd_Vx_Wx_Ib, 0)
CPU_VEX(vroundss, op_roundss_Vx_Wss_Ib, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vroundsd, op_roundsd_Vx_Wsd_Ib, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vdpps, op_dpps_Vx_Wx_Ib, CPU_VX_SRC1)
CPU_VEX(vdppd, op_dppd_Vx_Wx_Ib, CPU_VX_SRC1)

static const struct cpu__oprow sse_fcmp_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_fcmp.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_fcmp)
