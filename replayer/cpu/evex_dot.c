/* SPDX-License-Identifier: MIT */
/* The EVEX dot products, VNNI (vpdpbusd, vpdpbusds, vpdpwssd, vpdpwssds)
 * and BF16 (vcvtne2ps2bf16, vcvtneps2bf16, vdpbf16ps), and the smaller
 * AVX-512 extensions evex_ops.c lacks: CD (vpconflictd/q, vplzcntd/q,
 * vpbroadcastmb2q, vpbroadcastmw2d), VP2INTERSECT, BITALG's vpshufbitqmb,
 * VBMI2's variable double shifts (vpshldv, vpshrdv) and BW's vpmulhrsw
 * and vdbpsadbw, with their rows (the decoder is evex.c's); and AVX-VNNI,
 * the VEX forms of the four VNNI dot products, which run the same code
 * with no opmask at 128 or 256 bits.
 *
 * What the manuals leave open, as measured on AMD Zen 5 (the differential
 * harness, and direct runs on the CPU):
 *  - BF16 ignores MXCSR: it rounds to nearest even whatever RC, reads no
 *    DAZ or FTZ bit, sets no flag and raises no #XM with every exception
 *    unmasked. A single becomes a bfloat16 (checked for all 2^32 of
 *    them) as follows: a zero or denormal becomes a zero of its sign, a
 *    NaN keeps its sign and top payload bits and is made quiet, any other
 *    value is rounded to nearest even on its top 16 bits (past the
 *    largest, to infinity).
 *  - vdpbf16ps: each single of the destination gets two fused
 *    multiply-adds, each rounded once, the odd (upper) pair of bfloat16
 *    first: acc + a1 * b1, then that + a0 * b0; the inputs' denormals
 *    (bfloat16 or the accumulator) count as zeros and a result below the
 *    normal range becomes zero; a NaN result is the first NaN of vvvv's
 *    value, rm's value and the accumulator, quieted, and an invalid
 *    operation (0 * inf, inf - inf) gives the default NaN.
 *  - The elements the opmask leaves out are not read from memory (they
 *    cannot fault) for the VNNI instructions, vcvtneps2bf16, vdpbf16ps,
 *    vplzcnt, vpshufbitqmb, the double shifts and vpmulhrsw; the whole
 *    memory operand (or its broadcast element) is read, even under an
 *    opmask of zeros, by vcvtne2ps2bf16, vpconflict and vdbpsadbw.
 *  - vp2intersect ignores ModRM.reg's low bit (an odd register writes the
 *    same pair as the even one below it); an opmask or EVEX.z is #UD.
 *  - vpbroadcastm* ignore EVEX.B and X on their opmask register; a memory
 *    operand is #UD. */
#include "replayer/cpu/evex.h"

/* ---- VNNI: dot products into dword accumulators ------------------------ */

static i64 sat32(i64 v) {
  return v > 0x7fffffff ? 0x7fffffff : v < -0x80000000ll ? -0x80000000ll : v;
}

/* vpdpbusd(s) (WORDS 0: four unsigned bytes of vvvv times the signed bytes
 * of rm) and vpdpwssd(s) (WORDS 1: two signed words times signed words),
 * each sum added to the destination's dword, with signed saturation when
 * SAT. */
static int vnni(struct cpu *cpu, const struct cpu_insn *in, int words,
                int sat) {
  union zv a, b, r;
  CPU_TRY(zsrc(cpu, in, 4, &b));
  zget(cpu, in->reg2, &a);
  zget(cpu, in->reg, &r);
  for (unsigned i = 0; i < in->osz / 4; i++) {
    i64 s = r.sd[i];
    if (words)
      s += (i64)a.sw[2 * i] * b.sw[2 * i] +
           (i64)a.sw[2 * i + 1] * b.sw[2 * i + 1];
    else
      for (unsigned k = 0; k < 4; k++) s += a.b[4 * i + k] * b.sb[4 * i + k];
    r.d[i] = (u32)(sat ? sat32(s) : s);
  }
  zput(cpu, in, in->reg, &r, 4);
  return CPU_RC_NEXT;
}
EV_OP(vpdpbusd, vnni(cpu, in, 0, 0))
EV_OP(vpdpbusds, vnni(cpu, in, 0, 1))
EV_OP(vpdpwssd, vnni(cpu, in, 1, 0))
EV_OP(vpdpwssds, vnni(cpu, in, 1, 1))

/* ---- BF16 ---------------------------------------------------------------- */

/* The single X as a bfloat16. */
static u16 bf16_of(u32 x) {
  if (!(x & 0x7f800000u)) return (u16)((x >> 16) & 0x8000); /* 0, denormal */
  if ((x & 0x7fffffffu) > 0x7f800000u) return (u16)((x >> 16) | 0x40);
  return (u16)((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

/* vcvtne2ps2bf16: the low half of the words from rm's singles, the high
 * half from vvvv's; masked by words. */
static int op_vcvtne2ps2bf16(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  unsigned h = in->osz / 4;
  CPU_TRY(zsrc_all(cpu, in, 4, &b)); /* no fault suppression */
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < h; i++) {
    r.w[i] = bf16_of(b.d[i]);
    r.w[h + i] = bf16_of(a.d[i]);
  }
  zput(cpu, in, in->reg, &r, 2);
  return CPU_RC_NEXT;
}

/* vcvtneps2bf16: rm's singles into as many words (half the vector
 * length, zero above), each masked by its single's opmask bit. */
static int op_vcvtneps2bf16(struct cpu *cpu, const struct cpu_insn *in) {
  union zv s, r;
  unsigned n = in->osz / 4;
  struct cpu_insn li = *in;
  CPU_TRY(zsrc(cpu, in, 4, &s));
  memset(r.b, 0, sizeof r.b);
  for (unsigned i = 0; i < n; i++) r.w[i] = bf16_of(s.d[i]);
  li.osz = (u8)(n * 2);
  zput(cpu, &li, in->reg, &r, 2);
  return CPU_RC_NEXT;
}

/* The bfloat16 H as a single. */
static u64 single_of(u16 h) { return (u64)h << 16; }

/* vdpbf16ps: each single of the destination plus the products of the
 * pairs of bfloat16 of vvvv and rm, the upper pair first, each a fused
 * multiply-add under round to nearest even, DAZ and FTZ whatever MXCSR
 * says, its flags dropped. */
static int op_vdpbf16ps(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  const u32 mx = CPU_MX_MASKS | CPU_MX_DAZ | CPU_MX_FTZ;
  CPU_TRY(zsrc(cpu, in, 4, &b));
  zget(cpu, in->reg2, &a);
  zget(cpu, in->reg, &r);
  for (unsigned i = 0; i < in->osz / 4; i++) {
    u32 fl, ex;
    u64 o1[3] = {r.d[i], single_of(a.w[2 * i + 1]), single_of(b.w[2 * i + 1])};
    u64 acc = cpu__fma_elem(0, o1, 231, CPU_FMA_ADD, 0, mx, &fl, &ex);
    u64 o0[3] = {acc, single_of(a.w[2 * i]), single_of(b.w[2 * i])};
    r.d[i] = (u32)cpu__fma_elem(0, o0, 231, CPU_FMA_ADD, 0, mx, &fl, &ex);
  }
  zput(cpu, in, in->reg, &r, 4);
  return CPU_RC_NEXT;
}

/* ---- CD ----------------------------------------------------------------- */

/* vpconflictd/q: each element's bits say which lower elements equal it. */
static int conflict(struct cpu *cpu, const struct cpu_insn *in,
                    unsigned esz) {
  union zv s, r;
  unsigned n = in->osz / esz;
  CPU_TRY(zsrc_all(cpu, in, esz, &s)); /* no fault suppression */
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0, bits = 0;
    memcpy(&x, s.b + i * esz, esz);
    for (unsigned j = 0; j < i; j++) {
      u64 y = 0;
      memcpy(&y, s.b + j * esz, esz);
      if (x == y) bits |= 1ull << j;
    }
    memcpy(r.b + i * esz, &bits, esz);
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vpconflictd, conflict(cpu, in, 4))
EV_OP(vpconflictq, conflict(cpu, in, 8))

/* vplzcntd/q. */
static int lzcnt(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv s, r;
  CPU_TRY(zsrc(cpu, in, esz, &s));
  for (unsigned i = 0; i < in->osz / esz; i++) {
    if (esz == 4)
      r.d[i] = s.d[i] ? (u32)__builtin_clz(s.d[i]) : 32;
    else
      r.q[i] = s.q[i] ? (u64)__builtin_clzll(s.q[i]) : 64;
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vplzcntd, lzcnt(cpu, in, 4))
EV_OP(vplzcntq, lzcnt(cpu, in, 8))

/* vpbroadcastmb2q / vpbroadcastmw2d: the low byte or word of k[rm],
 * zero-extended, in every element of ESZ bytes. */
static int bcastm(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv r;
  u64 k = cpu->k[in->rm & 7] & (esz == 8 ? 0xff : 0xffff);
  memset(r.b, 0, sizeof r.b);
  for (unsigned i = 0; i < in->osz / esz; i++) memcpy(r.b + i * esz, &k, esz);
  zset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}
EV_OP(vpbroadcastmb2q, bcastm(cpu, in, 8))
EV_OP(vpbroadcastmw2d, bcastm(cpu, in, 4))

/* ---- VP2INTERSECT, BITALG ------------------------------------------------ */

/* vp2intersectd/q: k[reg & ~1] gets the elements of vvvv equal to some
 * element of rm, k[reg | 1] those of rm equal to some element of vvvv
 * (the same pair for an odd reg). The whole of rm is read: no opmask. */
static int intersect(struct cpu *cpu, const struct cpu_insn *in,
                     unsigned esz) {
  union zv a, b;
  unsigned n = in->osz / esz;
  u64 m0 = 0, m1 = 0;
  CPU_TRY(zsrc_all(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < n; j++) {
      u64 x = 0, y = 0;
      memcpy(&x, a.b + i * esz, esz);
      memcpy(&y, b.b + j * esz, esz);
      if (x == y) m0 |= 1ull << i, m1 |= 1ull << j;
    }
  cpu->k[in->reg & 6] = m0;
  cpu->k[(in->reg & 7) | 1] = m1;
  return CPU_RC_NEXT;
}
EV_OP(vp2intersectd, intersect(cpu, in, 4))
EV_OP(vp2intersectq, intersect(cpu, in, 8))

/* vpshufbitqmb: bit j of k[reg] is the bit of vvvv's qword that rm's byte
 * j (mod 64) names, under the opmask. */
static int op_vpshufbitqmb(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b;
  unsigned n = in->osz;
  u64 m = kmask(cpu, in, n), r = 0;
  CPU_TRY(zsrc(cpu, in, 1, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < n; i++)
    r |= ((a.q[i / 8] >> (b.b[i] & 63)) & 1) << i;
  cpu->k[in->reg & 7] = r & m;
  return CPU_RC_NEXT;
}

/* ---- VBMI2 variable double shifts ---------------------------------------- */

/* vpshldv (RIGHT 0): the destination's element above vvvv's shifted left
 * by rm's count, the upper half kept; vpshrdv (RIGHT 1): vvvv's element
 * above the destination's shifted right, the lower half kept. */
static int dshiftv(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                   int right) {
  union zv a, b, c, r;
  unsigned bits = esz * 8;
  CPU_TRY(zsrc(cpu, in, esz, &c));
  zget(cpu, in->reg, &a);
  zget(cpu, in->reg2, &b);
  for (unsigned i = 0; i < in->osz / esz; i++) {
    u64 x = 0, y = 0, k = 0, o;
    memcpy(&x, a.b + i * esz, esz);
    memcpy(&y, b.b + i * esz, esz);
    memcpy(&k, c.b + i * esz, esz);
    k &= bits - 1;
    if (!k)
      o = x;
    else if (right)
      o = (x >> k) | (y << (bits - k));
    else
      o = (x << k) | (y >> (bits - k));
    memcpy(r.b + i * esz, &o, esz);
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vpshldvw, dshiftv(cpu, in, 2, 0))
EV_OP(vpshldvd, dshiftv(cpu, in, 4, 0))
EV_OP(vpshldvq, dshiftv(cpu, in, 8, 0))
EV_OP(vpshrdvw, dshiftv(cpu, in, 2, 1))
EV_OP(vpshrdvd, dshiftv(cpu, in, 4, 1))
EV_OP(vpshrdvq, dshiftv(cpu, in, 8, 1))

/* ---- BW: vpmulhrsw, vdbpsadbw ------------------------------------------ */

/* vpmulhrsw: the signed product's bits 30:15, rounded (bit 14 added). */
static int op_vpmulhrsw(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  CPU_TRY(zsrc(cpu, in, 2, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / 2; i++)
    r.sw[i] = (i16)((((i32)a.sw[i] * b.sw[i] >> 14) + 1) >> 1);
  zput(cpu, in, in->reg, &r, 2);
  return CPU_RC_NEXT;
}

/* vdbpsadbw: rm's dwords chosen per 128-bit lane by imm8 (as vpshufd),
 * then per qword four sums of absolute differences of four bytes: words
 * 0 and 1 from vvvv's bytes 0-3, words 2 and 3 from its bytes 4-7, against
 * the shuffled bytes from offset 0, 1, 2 and 3 of the qword. */
static int op_vdbpsadbw(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, t, r;
  unsigned imm = (u8)in->imm;
  CPU_TRY(zsrc_all(cpu, in, 2, &b)); /* no fault suppression */
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / 4; i++)
    t.d[i] = b.d[(i & ~3u) + ((imm >> (2 * (i & 3))) & 3)];
  for (unsigned q = 0; q < in->osz; q += 8)
    for (unsigned k = 0; k < 4; k++) {
      unsigned s = 0;
      for (unsigned j = 0; j < 4; j++) {
        int d = a.b[q + (k >> 1) * 4 + j] - t.b[q + k + j];
        s += (unsigned)(d < 0 ? -d : d);
      }
      r.w[q / 2 + k] = (u16)s;
    }
  zput(cpu, in, in->reg, &r, 2);
  return CPU_RC_NEXT;
}

/* ---- The rows ----------------------------------------------------------- */

const struct ev_row cpu__evex_dot_rows[] = {
    /* VNNI */
    E(0F38, 66, 50, W0, X, VHW, 4, FV, R_BC, vpdpbusd, op_vpdpbusd)
    E(0F38, 66, 51, W0, X, VHW, 4, FV, R_BC, vpdpbusds, op_vpdpbusds)
    E(0F38, 66, 52, W0, X, VHW, 4, FV, R_BC, vpdpwssd, op_vpdpwssd)
    E(0F38, 66, 53, W0, X, VHW, 4, FV, R_BC, vpdpwssds, op_vpdpwssds)
    /* BF16 (esz 4: the source singles; the handlers mask words) */
    E(0F38, F2, 72, W0, X, VHW, 4, FV, R_BC | R_FP, vcvtne2ps2bf16,
      op_vcvtne2ps2bf16)
    E(0F38, F3, 72, W0, X, VW, 4, FV, R_BC | R_FP, vcvtneps2bf16,
      op_vcvtneps2bf16)
    E(0F38, F3, 52, W0, X, VHW, 4, FV, R_BC | R_FP, vdpbf16ps, op_vdpbf16ps)
    /* CD */
    E(0F38, 66, C4, W0, X, VW, 4, FV, R_BC, vpconflictd, op_vpconflictd)
    E(0F38, 66, C4, W1, X, VW, 8, FV, R_BC, vpconflictq, op_vpconflictq)
    E(0F38, 66, 44, W0, X, VW, 4, FV, R_BC, vplzcntd, op_vplzcntd)
    E(0F38, 66, 44, W1, X, VW, 8, FV, R_BC, vplzcntq, op_vplzcntq)
    E(0F38, F3, 2A, W1, X, VK, 8, FVM, R_REG | R_NOMASK | R_NOZ,
      vpbroadcastmb2q, op_vpbroadcastmb2q)
    E(0F38, F3, 3A, W0, X, VK, 4, FVM, R_REG | R_NOMASK | R_NOZ,
      vpbroadcastmw2d, op_vpbroadcastmw2d)
    /* VP2INTERSECT, BITALG */
    E(0F38, F2, 68, W0, X, KHW, 4, FV, R_BC | R_NOMASK | R_NOZ,
      vp2intersectd, op_vp2intersectd)
    E(0F38, F2, 68, W1, X, KHW, 8, FV, R_BC | R_NOMASK | R_NOZ,
      vp2intersectq, op_vp2intersectq)
    E(0F38, 66, 8F, W0, X, KHW, 1, FVM, R_NOZ, vpshufbitqmb, op_vpshufbitqmb)
    /* VBMI2 */
    E(0F38, 66, 70, W1, X, VHW, 2, FVM, 0, vpshldvw, op_vpshldvw)
    E(0F38, 66, 71, W0, X, VHW, 4, FV, R_BC, vpshldvd, op_vpshldvd)
    E(0F38, 66, 71, W1, X, VHW, 8, FV, R_BC, vpshldvq, op_vpshldvq)
    E(0F38, 66, 72, W1, X, VHW, 2, FVM, 0, vpshrdvw, op_vpshrdvw)
    E(0F38, 66, 73, W0, X, VHW, 4, FV, R_BC, vpshrdvd, op_vpshrdvd)
    E(0F38, 66, 73, W1, X, VHW, 8, FV, R_BC, vpshrdvq, op_vpshrdvq)
    /* BW */
    E(0F38, 66, 0B, WIG, X, VHW, 2, FVM, 0, vpmulhrsw, op_vpmulhrsw)
    E(0F3A, 66, 42, W0, X, VHWI, 2, FVM, 0, vdbpsadbw, op_vdbpsadbw)
};

const size_t cpu__evex_dot_nrows =
    sizeof cpu__evex_dot_rows / sizeof cpu__evex_dot_rows[0];

/* AVX-VNNI: VEX.128/256.66.0F38.W0 50-53 (VEX.W1 is #UD; the CPU has no
 * VEX broadcast, and no opmask). */
const struct ev_row cpu__vex_dot_rows[] = {
    E(0F38, 66, 50, W0, X, VHW, 4, FV, 0, vpdpbusd, op_vpdpbusd)
    E(0F38, 66, 51, W0, X, VHW, 4, FV, 0, vpdpbusds, op_vpdpbusds)
    E(0F38, 66, 52, W0, X, VHW, 4, FV, 0, vpdpwssd, op_vpdpwssd)
    E(0F38, 66, 53, W0, X, VHW, 4, FV, 0, vpdpwssds, op_vpdpwssds)
};

const size_t cpu__vex_dot_nrows =
    sizeof cpu__vex_dot_rows / sizeof cpu__vex_dot_rows[0];
