/* SPDX-License-Identifier: MIT */
/* The EVEX vector instructions of AVX-512 implemented so far, and their
 * table rows (the decoder is evex.c's): integer moves, logic,
 * arithmetic, compares into opmasks, broadcasts, permutes,
 * compress/expand, narrowing moves and shifts, all under merge- or
 * zero-masking (evex.h's zput). */
#include <emmintrin.h>

#include "replayer/cpu/evex.h"

/* ---- Moves -------------------------------------------------------------- */

/* Whether an aligned move's memory operand at A faults for alignment: a
 * misaligned one does unless the opmask enables none of its elements
 * (measured on AMD Zen 5; with one element enabled it faults). */
static int misaligned(struct cpu *cpu, const struct cpu_insn *in, u64 a,
                      unsigned esz) {
  return (a & (in->osz - 1)) && kmask(cpu, in, in->osz / esz);
}

static int zload(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                 int align) {
  union zv v;
  if ((in->pfx & CPU_PFX_MEM) && !EV_AAA(in) && !EV_BC(in)) {
    /* No opmask: the whole vector, the bytes past its length zero (what
     * the general path below computes with every element enabled). */
    unsigned vl = in->osz;
    u64 a = cpu_ea(cpu, in);
    if (align && (a & (vl - 1))) return cpu__fault(cpu, CPU_FAULT_GP);
    CPU_TRY(cpu__ev_ldv(cpu, a, v.b, vl));
    memset(v.b + vl, 0, 64 - vl);
    zset(cpu, in->reg, &v);
    return CPU_RC_NEXT;
  }
  if ((in->pfx & CPU_PFX_MEM) && align &&
      misaligned(cpu, in, cpu_ea(cpu, in), esz))
    return cpu__fault(cpu, CPU_FAULT_GP);
  CPU_TRY(zsrc(cpu, in, esz, &v));
  zput(cpu, in, in->reg, &v, esz);
  return CPU_RC_NEXT;
}

static int zstore(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                  int align) {
  union zv v;
  zget(cpu, in->reg, &v);
  if (!(in->pfx & CPU_PFX_MEM)) {
    zput(cpu, in, in->rm, &v, esz);
    return CPU_RC_NEXT;
  }
  u64 a = cpu_ea(cpu, in);
  if (align && misaligned(cpu, in, a, esz))
    return cpu__fault(cpu, CPU_FAULT_GP);
  return cpu__ev_st_masked(cpu, a, &v, esz, in->osz / esz,
                           kmask(cpu, in, in->osz / esz), EV_AAA(in) != 0);
}

#define EV_MOV(name, esz, align)                                        \
  EV_OP(name##_V_W, zload(cpu, in, esz, align))                         \
  EV_OP(name##_W_V, zstore(cpu, in, esz, align))
EV_MOV(vmovdqa32, 4, 1)
EV_MOV(vmovdqa64, 8, 1)
EV_MOV(vmovdqu8, 1, 0)
EV_MOV(vmovdqu16, 2, 0)
EV_MOV(vmovdqu32, 4, 0)
EV_MOV(vmovdqu64, 8, 0)
EV_MOV(vmovaps, 4, 1)
EV_MOV(vmovapd, 8, 1)
EV_MOV(vmovups, 4, 0)
EV_MOV(vmovupd, 8, 0)
/* The non-temporal moves: aligned, never masked (a hint the emulator has
 * no use for). */
EV_OP(vmovntdq, zstore(cpu, in, 4, 1))
EV_OP(vmovntdqa, zload(cpu, in, 4, 1))

/* ---- Element-wise operations ------------------------------------------- */

/* dst = EXPR(x, y) per element of view V (ESZ bytes), x from vvvv and y
 * from rm. */
#define EV_BIN(name, V, ESZ, EXPR)                                      \
  static int op_##name(struct cpu *cpu, const struct cpu_insn *in) {    \
    union zv a, b, r;                                                   \
    CPU_TRY(zsrc(cpu, in, ESZ, &b));                                    \
    zget(cpu, in->reg2, &a);                                            \
    for (unsigned i = 0; i < in->osz / sizeof a.V[0]; i++) {            \
      __typeof__(a.V[0]) x = a.V[i], y = b.V[i];                        \
      (void)x;                                                          \
      (void)y;                                                          \
      r.V[i] = (__typeof__(a.V[0]))(EXPR);                              \
    }                                                                   \
    zput(cpu, in, in->reg, &r, ESZ);                                    \
    return CPU_RC_NEXT;                                                 \
  }

/* dst = EXPR(y) per element, y from rm. */
#define EV_UN(name, V, ESZ, EXPR)                                       \
  static int op_##name(struct cpu *cpu, const struct cpu_insn *in) {    \
    union zv b, r;                                                      \
    CPU_TRY(zsrc(cpu, in, ESZ, &b));                                    \
    for (unsigned i = 0; i < in->osz / sizeof b.V[0]; i++) {            \
      __typeof__(b.V[0]) y = b.V[i];                                    \
      r.V[i] = (__typeof__(b.V[0]))(EXPR);                              \
    }                                                                   \
    zput(cpu, in, in->reg, &r, ESZ);                                    \
    return CPU_RC_NEXT;                                                 \
  }

static int sat_u8(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }
static int sat_s8(int v) { return v < -128 ? -128 : v > 127 ? 127 : v; }
static int sat_u16(int v) { return v < 0 ? 0 : v > 65535 ? 65535 : v; }
static int sat_s16(int v) {
  return v < -32768 ? -32768 : v > 32767 ? 32767 : v;
}

EV_BIN(vpandd, d, 4, x & y)
EV_BIN(vpandq, q, 8, x & y)
EV_BIN(vpandnd, d, 4, ~x & y)
EV_BIN(vpandnq, q, 8, ~x & y)
EV_BIN(vpord, d, 4, x | y)
EV_BIN(vporq, q, 8, x | y)
EV_BIN(vpxord, d, 4, x ^ y)
EV_BIN(vpxorq, q, 8, x ^ y)
EV_BIN(vpaddb, b, 1, x + y)
EV_BIN(vpaddw, w, 2, x + y)
EV_BIN(vpaddd, d, 4, x + y)
EV_BIN(vpaddq, q, 8, x + y)
EV_BIN(vpsubb, b, 1, x - y)
EV_BIN(vpsubw, w, 2, x - y)
EV_BIN(vpsubd, d, 4, x - y)
EV_BIN(vpsubq, q, 8, x - y)
EV_BIN(vpaddsb, sb, 1, sat_s8(x + y))
EV_BIN(vpaddsw, sw, 2, sat_s16(x + y))
EV_BIN(vpaddusb, b, 1, sat_u8(x + y))
EV_BIN(vpaddusw, w, 2, sat_u16(x + y))
EV_BIN(vpsubsb, sb, 1, sat_s8(x - y))
EV_BIN(vpsubsw, sw, 2, sat_s16(x - y))
EV_BIN(vpsubusb, b, 1, sat_u8(x - y))
EV_BIN(vpsubusw, w, 2, sat_u16(x - y))
EV_BIN(vpminub, b, 1, x < y ? x : y)
EV_BIN(vpminuw, w, 2, x < y ? x : y)
EV_BIN(vpminud, d, 4, x < y ? x : y)
EV_BIN(vpminuq, q, 8, x < y ? x : y)
EV_BIN(vpminsb, sb, 1, x < y ? x : y)
EV_BIN(vpminsw, sw, 2, x < y ? x : y)
EV_BIN(vpminsd, sd, 4, x < y ? x : y)
EV_BIN(vpminsq, sq, 8, x < y ? x : y)
EV_BIN(vpmaxub, b, 1, x > y ? x : y)
EV_BIN(vpmaxuw, w, 2, x > y ? x : y)
EV_BIN(vpmaxud, d, 4, x > y ? x : y)
EV_BIN(vpmaxuq, q, 8, x > y ? x : y)
EV_BIN(vpmaxsb, sb, 1, x > y ? x : y)
EV_BIN(vpmaxsw, sw, 2, x > y ? x : y)
EV_BIN(vpmaxsd, sd, 4, x > y ? x : y)
EV_BIN(vpmaxsq, sq, 8, x > y ? x : y)
EV_BIN(vpavgb, b, 1, ((unsigned)x + y + 1) >> 1)
EV_BIN(vpavgw, w, 2, ((unsigned)x + y + 1) >> 1)
EV_UN(vpabsb, sb, 1, y < 0 ? -y : y)
EV_UN(vpabsw, sw, 2, y < 0 ? -y : y)
EV_UN(vpabsd, sd, 4, y < 0 ? -(u32)y : (u32)y)
EV_UN(vpabsq, sq, 8, y < 0 ? -(u64)y : (u64)y)
EV_BIN(vpmullw, w, 2, (u32)x * y)
EV_BIN(vpmulhw, sw, 2, ((i32)x * y) >> 16)
EV_BIN(vpmulhuw, w, 2, ((u32)x * y) >> 16)
EV_BIN(vpmulld, d, 4, (u32)((u64)x * y))
EV_BIN(vpmullq, q, 8, x * y)
EV_BIN(vpmuludq, q, 8, (x & 0xffffffffu) * (y & 0xffffffffu))
EV_BIN(vpmuldq, sq, 8, (i64)(i32)x * (i32)y)
EV_BIN(vpsllvd, d, 4, y > 31 ? 0 : x << y)
EV_BIN(vpsllvq, q, 8, y > 63 ? 0 : x << y)
EV_BIN(vpsllvw, w, 2, y > 15 ? 0 : (u32)x << y)
EV_BIN(vpsrlvd, d, 4, y > 31 ? 0 : x >> y)
EV_BIN(vpsrlvq, q, 8, y > 63 ? 0 : x >> y)
EV_BIN(vpsrlvw, w, 2, y > 15 ? 0 : x >> y)
EV_BIN(vpsravd, sd, 4, x >> ((u32)y > 31 ? 31 : y))
EV_BIN(vpsravq, sq, 8, x >> ((u64)y > 63 ? 63 : y))
EV_BIN(vpsravw, sw, 2, x >> ((u16)y > 15 ? 15 : y))
EV_BIN(vprolvd, d, 4, (x << (y & 31)) | (x >> ((32 - (y & 31)) & 31)))
EV_BIN(vprolvq, q, 8, (x << (y & 63)) | (x >> ((64 - (y & 63)) & 63)))
EV_BIN(vprorvd, d, 4, (x >> (y & 31)) | (x << ((32 - (y & 31)) & 31)))
EV_BIN(vprorvq, q, 8, (x >> (y & 63)) | (x << ((64 - (y & 63)) & 63)))

/* vpmaddwd: pairs of signed words multiplied and added into dwords. */
static int op_vpmaddwd(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  CPU_TRY(zsrc_all(cpu, in, 4, &b)); /* no fault suppression */
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / 4; i++)
    r.d[i] = (u32)((i32)a.sw[2 * i] * b.sw[2 * i] +
                   (i32)a.sw[2 * i + 1] * b.sw[2 * i + 1]);
  zput(cpu, in, in->reg, &r, 4);
  return CPU_RC_NEXT;
}

/* vpmaddubsw: unsigned bytes of vvvv times signed bytes of rm, pairs added
 * into words with signed saturation. */
static int op_vpmaddubsw(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  CPU_TRY(zsrc_all(cpu, in, 2, &b)); /* no fault suppression */
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / 2; i++)
    r.sw[i] = (i16)sat_s16(a.b[2 * i] * b.sb[2 * i] +
                           a.b[2 * i + 1] * b.sb[2 * i + 1]);
  zput(cpu, in, in->reg, &r, 2);
  return CPU_RC_NEXT;
}

/* vpmadd52luq/huq: the low or high 52 bits of the 104-bit product of the
 * low 52 bits of vvvv and rm, added to the destination. */
static int madd52(struct cpu *cpu, const struct cpu_insn *in, int high) {
  union zv a, b, r;
  const u64 m52 = (1ull << 52) - 1;
  CPU_TRY(zsrc(cpu, in, 8, &b));
  zget(cpu, in->reg2, &a);
  zget(cpu, in->reg, &r);
  for (unsigned i = 0; i < in->osz / 8; i++) {
    unsigned __int128 p = (unsigned __int128)(a.q[i] & m52) * (b.q[i] & m52);
    r.q[i] += high ? (u64)(p >> 52) : (u64)p & m52;
  }
  zput(cpu, in, in->reg, &r, 8);
  return CPU_RC_NEXT;
}
EV_OP(vpmadd52luq, madd52(cpu, in, 0))
EV_OP(vpmadd52huq, madd52(cpu, in, 1))

/* vpternlog: each bit of the result is bit (dst, vvvv, rm) of imm8. */
static int ternlog(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv a, b, c, r;
  unsigned imm = (u8)in->imm;
  CPU_TRY(zsrc(cpu, in, esz, &c));
  zget(cpu, in->reg, &a);
  zget(cpu, in->reg2, &b);
  for (unsigned i = 0; i < in->osz / 8; i++) {
    u64 x = a.q[i], y = b.q[i], z = c.q[i], o = 0;
    for (unsigned k = 0; k < 8; k++) {
      u64 t = ((k & 4) ? x : ~x) & ((k & 2) ? y : ~y) & ((k & 1) ? z : ~z);
      if ((imm >> k) & 1) o |= t;
    }
    r.q[i] = o;
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vpternlogd, ternlog(cpu, in, 4))
EV_OP(vpternlogq, ternlog(cpu, in, 8))

/* ---- Shifts by a count -------------------------------------------------- */

/* Shifts every element of S (ESZ bytes, N of them) by COUNT: KIND 0 left,
 * 1 logical right, 2 arithmetic right, 3 rotate left, 4 rotate right.
 * Inlined into each handler, so that the element size and the kind are
 * constants there: ChaCha20's vprold spent a quarter of its replay in the
 * switch and the variable-size copies. */
static inline __attribute__((always_inline)) void shift_all(
    union zv *r, const union zv *s, unsigned esz, unsigned n, int kind,
    u64 count) {
  unsigned bits = esz * 8;
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0, y;
    memcpy(&x, s->b + i * esz, esz);
    switch (kind) {
      case 0:
        y = count >= bits ? 0 : x << count;
        break;
      case 1:
        y = count >= bits ? 0 : x >> count;
        break;
      case 2: {
        i64 v = (i64)cpu_sext(x, esz);
        y = (u64)(v >> (count >= bits ? bits - 1 : count));
        break;
      }
      case 3: {
        unsigned c = (unsigned)(count & (bits - 1));
        y = c ? (x << c) | (x >> (bits - c)) : x;
        break;
      }
      default: {
        unsigned c = (unsigned)(count & (bits - 1));
        y = c ? (x >> c) | (x << (bits - c)) : x;
        break;
      }
    }
    memcpy(r->b + i * esz, &y, esz);
  }
}

/* By imm8: the destination is vvvv, the source rm. */
static inline __attribute__((always_inline)) int shift_imm(
    struct cpu *cpu, const struct cpu_insn *in, unsigned esz, int kind) {
  union zv s, r;
  CPU_TRY(zsrc(cpu, in, esz, &s));
  shift_all(&r, &s, esz, in->osz / esz, kind, (u8)in->imm);
  zput(cpu, in, in->reg2, &r, esz);
  return CPU_RC_NEXT;
}

/* By the low 64 bits of an XMM register or 16 bytes of memory. */
static inline __attribute__((always_inline)) int shift_xmm(
    struct cpu *cpu, const struct cpu_insn *in, unsigned esz, int kind) {
  union zv s, r;
  u64 count;
  if (in->pfx & CPU_PFX_MEM) {
    union cpu_vec c;
    CPU_TRY(cpu_ld128(cpu, cpu_ea(cpu, in), c.b));
    count = c.q[0];
  } else {
    count = cpu->ymm[in->rm].q[0];
  }
  zget(cpu, in->reg2, &s);
  shift_all(&r, &s, esz, in->osz / esz, kind, count);
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}

#define EV_SHIFT(name, esz, kind)                                       \
  EV_OP(name##_i, shift_imm(cpu, in, esz, kind))                        \
  EV_OP(name##_x, shift_xmm(cpu, in, esz, kind))
EV_SHIFT(vpsllw, 2, 0)
EV_SHIFT(vpslld, 4, 0)
EV_SHIFT(vpsllq, 8, 0)
EV_SHIFT(vpsrlw, 2, 1)
EV_SHIFT(vpsrld, 4, 1)
EV_SHIFT(vpsrlq, 8, 1)
EV_SHIFT(vpsraw, 2, 2)
EV_SHIFT(vpsrad, 4, 2)
EV_SHIFT(vpsraq, 8, 2)

EV_OP(vprold, shift_imm(cpu, in, 4, 3))
EV_OP(vprolq, shift_imm(cpu, in, 8, 3))
EV_OP(vprord, shift_imm(cpu, in, 4, 4))
EV_OP(vprorq, shift_imm(cpu, in, 8, 4))

/* vpslldq/vpsrldq: bytes of each 128-bit lane, destination vvvv. */
static int bshift(struct cpu *cpu, const struct cpu_insn *in, int right) {
  union zv s, r;
  unsigned c = (u8)in->imm;
  CPU_TRY(zsrc_all(cpu, in, 1, &s));
  for (unsigned l = 0; l < in->osz; l += 16)
    for (unsigned i = 0; i < 16; i++) {
      unsigned j = right ? i + c : i - c;
      r.b[l + i] = (right ? j < 16 : i >= c) ? s.b[l + j] : 0;
    }
  zput(cpu, in, in->reg2, &r, 16); /* no masking: whole lanes */
  return CPU_RC_NEXT;
}
EV_OP(vpslldq, bshift(cpu, in, 0))
EV_OP(vpsrldq, bshift(cpu, in, 1))

/* ---- Compares into opmasks ---------------------------------------------- */

/* The bits of the N bytes (a multiple of 16) of A and B where they are
 * equal (EQ) and where A < B (LT), signed or not, by SSE2 (every x86-64
 * host has it): the byte compares of glibc's EVEX string functions are
 * the hot path here. */
static void bytes_cmp(const u8 *a, const u8 *b, unsigned n, int sgn, u64 *eq,
                      u64 *lt) {
  const __m128i flip = _mm_set1_epi8(sgn ? 0 : (char)0x80);
  *eq = *lt = 0;
  for (unsigned i = 0; i < n; i += 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + i));
    __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
    u64 e = (u16)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y));
    u64 l = (u16)_mm_movemask_epi8(
        _mm_cmplt_epi8(_mm_xor_si128(x, flip), _mm_xor_si128(y, flip)));
    *eq |= e << i;
    *lt |= l << i;
  }
}

/* The same per element of ESZ bytes (N of them), in integers. */
static inline __attribute__((always_inline)) void elems_cmp(
    const union zv *a, const union zv *b, unsigned esz, unsigned n, int sgn,
    u64 *eq, u64 *lt) {
  *eq = *lt = 0;
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0, y = 0;
    memcpy(&x, a->b + i * esz, esz);
    memcpy(&y, b->b + i * esz, esz);
    int l = sgn ? (i64)cpu_sext(x, esz) < (i64)cpu_sext(y, esz) : x < y;
    *eq |= (u64)(x == y) << i;
    *lt |= (u64)l << i;
  }
}

/* Compares vvvv with rm per element (PRED as vpcmp's imm8: 0 eq, 1 lt, 2 le,
 * 3 false, 4 ne, 5 nlt, 6 nle, 7 true), signed or not, into k[reg]. */
static inline __attribute__((always_inline)) int cmp_k(
    struct cpu *cpu, const struct cpu_insn *in, unsigned esz, int sgn,
    unsigned pred) {
  union zv a, b;
  unsigned n = in->osz / esz;
  u64 m = kmask(cpu, in, n), eq, lt, r;
  CPU_TRY(zsrc(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  if (esz == 1)
    bytes_cmp(a.b, b.b, n, sgn, &eq, &lt);
  else
    elems_cmp(&a, &b, esz, n, sgn, &eq, &lt);
  switch (pred & 7) {
    case 0: r = eq; break;
    case 1: r = lt; break;
    case 2: r = lt | eq; break;
    case 3: r = 0; break;
    case 4: r = ~eq; break;
    case 5: r = ~lt; break;
    case 6: r = ~(lt | eq); break;
    default: r = ~0ull; break;
  }
  cpu->k[in->reg & 7] = r & m & ones(n);
  return CPU_RC_NEXT;
}

#define EV_CMPEQ(name, esz, pred)                                       \
  EV_OP(name, cmp_k(cpu, in, esz, 1, pred))
EV_CMPEQ(vpcmpeqb, 1, 0)
EV_CMPEQ(vpcmpeqw, 2, 0)
EV_CMPEQ(vpcmpeqd, 4, 0)
EV_CMPEQ(vpcmpeqq, 8, 0)
EV_CMPEQ(vpcmpgtb, 1, 6)
EV_CMPEQ(vpcmpgtw, 2, 6)
EV_CMPEQ(vpcmpgtd, 4, 6)
EV_CMPEQ(vpcmpgtq, 8, 6)

#define EV_CMPI(name, esz, sgn)                                         \
  EV_OP(name, cmp_k(cpu, in, esz, sgn, (unsigned)in->imm))
EV_CMPI(vpcmpb, 1, 1)
EV_CMPI(vpcmpw, 2, 1)
EV_CMPI(vpcmpd, 4, 1)
EV_CMPI(vpcmpq, 8, 1)
EV_CMPI(vpcmpub, 1, 0)
EV_CMPI(vpcmpuw, 2, 0)
EV_CMPI(vpcmpud, 4, 0)
EV_CMPI(vpcmpuq, 8, 0)

/* vptestm (NZ 1) / vptestnm (NZ 0): (vvvv & rm) != 0 per element. */
static inline __attribute__((always_inline)) int testm(
    struct cpu *cpu, const struct cpu_insn *in, unsigned esz, int nz) {
  union zv a, b;
  unsigned n = in->osz / esz;
  u64 m = kmask(cpu, in, n), z = 0;
  CPU_TRY(zsrc(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  if (esz == 1) {
    for (unsigned i = 0; i < n; i += 16) {
      __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a.b + i));
      __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(b.b + i));
      z |= (u64)(u16)_mm_movemask_epi8(
               _mm_cmpeq_epi8(_mm_and_si128(x, y), _mm_setzero_si128()))
           << i;
    }
  } else {
    for (unsigned i = 0; i < n; i++) {
      u64 x = 0, y = 0;
      memcpy(&x, a.b + i * esz, esz);
      memcpy(&y, b.b + i * esz, esz);
      z |= (u64)((x & y) == 0) << i;
    }
  }
  cpu->k[in->reg & 7] = (nz ? ~z : z) & m & ones(n);
  return CPU_RC_NEXT;
}
#define EV_TESTM(name, esz, nz)                                         \
  EV_OP(name, testm(cpu, in, esz, nz))
EV_TESTM(vptestmb, 1, 1)
EV_TESTM(vptestmw, 2, 1)
EV_TESTM(vptestmd, 4, 1)
EV_TESTM(vptestmq, 8, 1)
EV_TESTM(vptestnmb, 1, 0)
EV_TESTM(vptestnmw, 2, 0)
EV_TESTM(vptestnmd, 4, 0)
EV_TESTM(vptestnmq, 8, 0)

/* vpmov*2m: the sign bits of the rm register into k[reg]. */
static int tomask(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv s;
  u64 r = 0;
  zget(cpu, in->rm, &s);
  for (unsigned i = 0; i < in->osz / esz; i++)
    if (s.b[i * esz + esz - 1] & 0x80) r |= 1ull << i;
  cpu->k[in->reg & 7] = r;
  return CPU_RC_NEXT;
}
/* vpmovm2*: each element all ones or zero from the bits of k[rm]. */
static int frommask(struct cpu *cpu, const struct cpu_insn *in,
                    unsigned esz) {
  union zv r;
  u64 k = cpu->k[in->rm & 7];
  memset(r.b, 0, sizeof r.b);
  for (unsigned i = 0; i < in->osz / esz; i++)
    if ((k >> i) & 1) memset(r.b + i * esz, 0xff, esz);
  memset(r.b + in->osz, 0, 64 - in->osz);
  zset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}
#define EV_MASKMOV(b2m, m2b, esz)                                       \
  EV_OP(b2m, tomask(cpu, in, esz))                                      \
  EV_OP(m2b, frommask(cpu, in, esz))
EV_MASKMOV(vpmovb2m, vpmovm2b, 1)
EV_MASKMOV(vpmovw2m, vpmovm2w, 2)
EV_MASKMOV(vpmovd2m, vpmovm2d, 4)
EV_MASKMOV(vpmovq2m, vpmovm2q, 8)

/* ---- Broadcasts --------------------------------------------------------- */

/* vpbroadcast from an XMM register or memory element. */
static int bcast(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv r;
  u64 x = 0;
  unsigned n = in->osz / esz;
  if (in->pfx & CPU_PFX_MEM) {
    if (kmask(cpu, in, n)) CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), esz, &x));
  } else {
    memcpy(&x, cpu->ymm[in->rm].b, esz);
  }
  for (unsigned i = 0; i < n; i++) memcpy(r.b + i * esz, &x, esz);
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
/* vpbroadcast from a general register. */
static int bcast_gpr(struct cpu *cpu, const struct cpu_insn *in,
                     unsigned esz) {
  union zv r;
  u64 x = cpu->gpr[in->rm];
  for (unsigned i = 0; i < in->osz / esz; i++) memcpy(r.b + i * esz, &x, esz);
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
#define EV_BCAST(name, esz)                                             \
  EV_OP(name, bcast(cpu, in, esz))                                      \
  EV_OP(name##_gpr, bcast_gpr(cpu, in, esz))
EV_BCAST(vpbroadcastb, 1)
EV_BCAST(vpbroadcastw, 2)
EV_BCAST(vpbroadcastd, 4)
EV_BCAST(vpbroadcastq, 8)

/* vbroadcasti32x4 and kin: a 16- or 32-byte block of memory repeated;
 * masking by ESZ elements. */
static int bcast_block(struct cpu *cpu, const struct cpu_insn *in,
                       unsigned esz, unsigned blk) {
  union zv r, t;
  unsigned per = blk / esz;
  u64 m = kmask(cpu, in, in->osz / esz), used = 0;
  for (unsigned o = 0; o < in->osz / esz; o += per)
    used |= (m >> o) & ones(per); /* block elements some copy needs */
  CPU_TRY(cpu__ev_ld_masked(cpu, cpu_ea(cpu, in), &t, esz, per, used));
  for (unsigned o = 0; o < in->osz; o += blk) memcpy(r.b + o, t.b, blk);
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vbroadcasti32x4, bcast_block(cpu, in, 4, 16))
EV_OP(vbroadcasti64x2, bcast_block(cpu, in, 8, 16))
EV_OP(vbroadcasti32x8, bcast_block(cpu, in, 4, 32))
EV_OP(vbroadcasti64x4, bcast_block(cpu, in, 8, 32))

/* ---- Shuffles and permutes ---------------------------------------------- */

static int op_vpshufb(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, s, r;
  CPU_TRY(zsrc_all(cpu, in, 1, &s)); /* no fault suppression */
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz; i++)
    r.b[i] = (s.b[i] & 0x80) ? 0 : a.b[(i & ~15u) + (s.b[i] & 15)];
  zput(cpu, in, in->reg, &r, 1);
  return CPU_RC_NEXT;
}

static int op_vpshufd(struct cpu *cpu, const struct cpu_insn *in) {
  union zv s, r;
  unsigned imm = (u8)in->imm;
  CPU_TRY(zsrc_all(cpu, in, 4, &s)); /* no fault suppression */
  for (unsigned i = 0; i < in->osz / 4; i++)
    r.d[i] = s.d[(i & ~3u) + ((imm >> (2 * (i & 3))) & 3)];
  zput(cpu, in, in->reg, &r, 4);
  return CPU_RC_NEXT;
}

/* vpermb/w/d/q: elements of rm selected by the indices in vvvv. */
static int perm(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv ix, s, r;
  unsigned n = in->osz / esz;
  CPU_TRY(zsrc_all(cpu, in, esz, &s));
  zget(cpu, in->reg2, &ix);
  for (unsigned i = 0; i < n; i++) {
    u64 j = 0;
    memcpy(&j, ix.b + i * esz, esz);
    memcpy(r.b + i * esz, s.b + (j & (n - 1)) * esz, esz);
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vpermb, perm(cpu, in, 1))
EV_OP(vpermw, perm(cpu, in, 2))
EV_OP(vpermd, perm(cpu, in, 4))
EV_OP(vpermq, perm(cpu, in, 8))

/* vpermq by imm8: each 256-bit half picks its own qwords. */
static int op_vpermq_i(struct cpu *cpu, const struct cpu_insn *in) {
  union zv s, r;
  unsigned imm = (u8)in->imm;
  CPU_TRY(zsrc_all(cpu, in, 8, &s));
  for (unsigned i = 0; i < in->osz / 8; i++)
    r.q[i] = s.q[(i & ~3u) + ((imm >> (2 * (i & 3))) & 3)];
  zput(cpu, in, in->reg, &r, 8);
  return CPU_RC_NEXT;
}

/* Two-table permutes: vpermt2 (indices in vvvv, first table the
 * destination) and vpermi2 (indices in the destination, first table vvvv);
 * the second table is rm. The index's next bit above the table's picks. */
static int perm2(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                 int idx_in_dst) {
  union zv t1, ix, t2, r;
  unsigned n = in->osz / esz;
  CPU_TRY(zsrc_all(cpu, in, esz, &t2));
  zget(cpu, in->reg, idx_in_dst ? &ix : &t1);
  zget(cpu, in->reg2, idx_in_dst ? &t1 : &ix);
  for (unsigned i = 0; i < n; i++) {
    u64 j = 0;
    memcpy(&j, ix.b + i * esz, esz);
    const union zv *t = (j & n) ? &t2 : &t1;
    memcpy(r.b + i * esz, t->b + (j & (n - 1)) * esz, esz);
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
#define EV_PERM2(sfx, esz)                                              \
  EV_OP(vpermt2##sfx, perm2(cpu, in, esz, 0))                           \
  EV_OP(vpermi2##sfx, perm2(cpu, in, esz, 1))
EV_PERM2(b, 1)
EV_PERM2(w, 2)
EV_PERM2(d, 4)
EV_PERM2(q, 8)

/* vpblendm: rm where the opmask is set, vvvv elsewhere (or zero with
 * EVEX.z); without an opmask register, rm everywhere. */
static int blendm(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv a, b, r;
  unsigned n = in->osz / esz;
  u64 m = kmask(cpu, in, n);
  CPU_TRY(zsrc(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < n; i++) {
    const u8 *p = ((m >> i) & 1) ? b.b : EV_Z(in) ? NULL : a.b;
    if (p)
      memcpy(r.b + i * esz, p + i * esz, esz);
    else
      memset(r.b + i * esz, 0, esz);
  }
  memset(r.b + in->osz, 0, 64 - in->osz);
  zset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}
#define EV_BLENDM(sfx, esz)                                             \
  EV_OP(vpblendm##sfx, blendm(cpu, in, esz))
EV_BLENDM(b, 1)
EV_BLENDM(w, 2)
EV_BLENDM(d, 4)
EV_BLENDM(q, 8)

/* vpcompress: the enabled elements of reg packed to the low end of rm; the
 * rest of a register keeps its value or becomes zero (EVEX.z); memory gets
 * only the packed elements. */
static int compress(struct cpu *cpu, const struct cpu_insn *in,
                    unsigned esz) {
  union zv s, r;
  unsigned n = in->osz / esz, k = 0;
  u64 m = kmask(cpu, in, n);
  zget(cpu, in->reg, &s);
  if (in->pfx & CPU_PFX_MEM) {
    for (unsigned i = 0; i < n; i++)
      if ((m >> i) & 1) memcpy(r.b + esz * k++, s.b + i * esz, esz);
    return k ? cpu__ev_st_masked(cpu, cpu_ea(cpu, in), &r, esz, k, ones(k),
                                 EV_AAA(in) != 0)
             : 0;
  }
  if (EV_Z(in))
    memset(r.b, 0, sizeof r.b);
  else
    zget(cpu, in->rm, &r);
  for (unsigned i = 0; i < n; i++)
    if ((m >> i) & 1) memcpy(r.b + esz * k++, s.b + i * esz, esz);
  memset(r.b + in->osz, 0, 64 - in->osz);
  zset(cpu, in->rm, &r);
  return CPU_RC_NEXT;
}
/* vpexpand: consecutive elements of rm spread to the enabled positions. */
static int expand(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv s, r;
  unsigned n = in->osz / esz, k = 0, cnt;
  u64 m = kmask(cpu, in, n);
  cnt = (unsigned)__builtin_popcountll(m);
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu__ev_ld_masked(cpu, cpu_ea(cpu, in), &s, esz, cnt, ones(cnt)));
  else
    zget(cpu, in->rm, &s);
  if (EV_Z(in))
    memset(r.b, 0, sizeof r.b);
  else
    zget(cpu, in->reg, &r);
  for (unsigned i = 0; i < n; i++)
    if ((m >> i) & 1) memcpy(r.b + i * esz, s.b + esz * k++, esz);
  memset(r.b + in->osz, 0, 64 - in->osz);
  zset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}
#define EV_CMPX(sfx, esz)                                               \
  EV_OP(vpcompress##sfx, compress(cpu, in, esz))                        \
  EV_OP(vpexpand##sfx, expand(cpu, in, esz))
EV_CMPX(b, 1)
EV_CMPX(w, 2)
EV_CMPX(d, 4)
EV_CMPX(q, 8)

/* vpmovzx/sx: N elements of SSZ bytes (the low part of rm) widened to
 * DSZ. */
static int widen(struct cpu *cpu, const struct cpu_insn *in, unsigned ssz,
                 unsigned dsz, int sgn) {
  union zv s, r;
  unsigned n = in->osz / dsz;
  u64 m = kmask(cpu, in, n);
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu__ev_ld_masked(cpu, cpu_ea(cpu, in), &s, ssz, n, m));
  else
    zget(cpu, in->rm, &s);
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0;
    memcpy(&x, s.b + i * ssz, ssz);
    if (sgn) x = cpu_sext(x, ssz);
    memcpy(r.b + i * dsz, &x, dsz);
  }
  zput(cpu, in, in->reg, &r, dsz);
  return CPU_RC_NEXT;
}
#define EV_WIDEN(name, ssz, dsz, sgn)                                   \
  EV_OP(name, widen(cpu, in, ssz, dsz, sgn))
EV_WIDEN(vpmovzxbw, 1, 2, 0)
EV_WIDEN(vpmovzxbd, 1, 4, 0)
EV_WIDEN(vpmovzxbq, 1, 8, 0)
EV_WIDEN(vpmovzxwd, 2, 4, 0)
EV_WIDEN(vpmovzxwq, 2, 8, 0)
EV_WIDEN(vpmovzxdq, 4, 8, 0)
EV_WIDEN(vpmovsxbw, 1, 2, 1)
EV_WIDEN(vpmovsxbd, 1, 4, 1)
EV_WIDEN(vpmovsxbq, 1, 8, 1)
EV_WIDEN(vpmovsxwd, 2, 4, 1)
EV_WIDEN(vpmovsxwq, 2, 8, 1)
EV_WIDEN(vpmovsxdq, 4, 8, 1)

/* vextracti*: the BLK-byte block imm8 of reg into rm (masked by ESZ). */
static int extract(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                   unsigned blk) {
  union zv s, r;
  unsigned nb = in->osz / blk;
  zget(cpu, in->reg, &s);
  memset(r.b, 0, sizeof r.b);
  memcpy(r.b, s.b + blk * ((unsigned)in->imm & (nb - 1)), blk);
  if (in->pfx & CPU_PFX_MEM) {
    /* the whole block's pages are checked whatever the opmask (no fault
     * suppression), then only its enabled elements are written */
    struct cpu_insn li = *in;
    u64 a = cpu_ea(cpu, in);
    li.osz = (u8)blk;
    CPU_TRY(cpu__ev_st_probe(cpu, a, blk));
    return cpu__ev_st_masked(cpu, a, &r, esz, blk / esz,
                             kmask(cpu, &li, blk / esz), EV_AAA(in) != 0);
  }
  struct cpu_insn li = *in;
  li.osz = (u8)blk;
  zput(cpu, &li, in->rm, &r, esz);
  return CPU_RC_NEXT;
}
/* vinserti*: vvvv with block imm8 replaced by rm's low BLK bytes. */
static int insert(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                  unsigned blk) {
  union zv s, r;
  unsigned nb = in->osz / blk;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu__ev_ldv(cpu, cpu_ea(cpu, in), s.b, blk));
  else
    zget(cpu, in->rm, &s);
  zget(cpu, in->reg2, &r);
  memcpy(r.b + blk * ((unsigned)in->imm & (nb - 1)), s.b, blk);
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
#define EV_EXTINS(n1, n2, esz, blk)                                     \
  EV_OP(n1, extract(cpu, in, esz, blk))                                 \
  EV_OP(n2, insert(cpu, in, esz, blk))
EV_EXTINS(vextracti32x4, vinserti32x4, 4, 16)
EV_EXTINS(vextracti64x2, vinserti64x2, 8, 16)
EV_EXTINS(vextracti32x8, vinserti32x8, 4, 32)
EV_EXTINS(vextracti64x4, vinserti64x4, 8, 32)

/* vshufi32x4/64x2: 128-bit blocks, the low half of the result from vvvv
 * and the high half from rm, chosen by imm8. */
static int shuf128(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv a, b, r;
  unsigned imm = (u8)in->imm, nb = in->osz / 16;
  CPU_TRY(zsrc_all(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < nb; i++) {
    unsigned sel = nb == 4 ? (imm >> (2 * i)) & 3 : (imm >> i) & 1;
    memcpy(r.b + 16 * i, (i < nb / 2 ? a.b : b.b) + 16 * sel, 16);
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vshufi32x4, shuf128(cpu, in, 4))
EV_OP(vshufi64x2, shuf128(cpu, in, 8))

/* valignd/q: the concatenation vvvv:rm shifted right by imm8 elements. */
static int align_el(struct cpu *cpu, const struct cpu_insn *in,
                    unsigned esz) {
  union zv a, b, r;
  unsigned n = in->osz / esz, sh = (unsigned)in->imm & (n - 1);
  u8 cat[128];
  CPU_TRY(zsrc_all(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  memcpy(cat, b.b, in->osz);
  memcpy(cat + in->osz, a.b, in->osz);
  memcpy(r.b, cat + sh * esz, in->osz);
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(valignd, align_el(cpu, in, 4))
EV_OP(valignq, align_el(cpu, in, 8))

/* vpunpck{l,h}*: per 128-bit lane, the low or high halves of vvvv and rm
 * interleaved by elements of ESZ. */
static int unpck(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                 int high) {
  union zv a, b, r;
  CPU_TRY(zsrc_all(cpu, in, esz, &b)); /* elements do not match up */
  zget(cpu, in->reg2, &a);
  for (unsigned l = 0; l < in->osz; l += 16)
    for (unsigned i = 0; i < 8 / esz; i++) {
      unsigned s = l + (high ? 8 : 0) + i * esz;
      memcpy(r.b + l + 2 * i * esz, a.b + s, esz);
      memcpy(r.b + l + (2 * i + 1) * esz, b.b + s, esz);
    }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
#define EV_UNPCK(sfx, esz)                                              \
  EV_OP(vpunpckl##sfx, unpck(cpu, in, esz, 0))                          \
  EV_OP(vpunpckh##sfx, unpck(cpu, in, esz, 1))
EV_UNPCK(bw, 1)
EV_UNPCK(wd, 2)
EV_UNPCK(dq, 4)
EV_UNPCK(qdq, 8)

/* vpack*: per 128-bit lane, the elements of vvvv then those of rm narrowed
 * from SSZ to half with saturation (signed or unsigned). */
static int pack(struct cpu *cpu, const struct cpu_insn *in, unsigned ssz,
                int sgn_dst) {
  union zv a, b, r;
  unsigned dsz = ssz / 2, per = 16 / ssz;
  CPU_TRY(zsrc_all(cpu, in, ssz, &b)); /* elements do not match up */
  zget(cpu, in->reg2, &a);
  for (unsigned l = 0; l < in->osz; l += 16)
    for (unsigned h = 0; h < 2; h++)
      for (unsigned i = 0; i < per; i++) {
        const union zv *s = h ? &b : &a;
        i64 v = ssz == 2 ? s->sw[(l + i * 2) / 2] : s->sd[(l + i * 4) / 4];
        i64 lo = sgn_dst ? -(1ll << (dsz * 8 - 1)) : 0;
        i64 hi = sgn_dst ? (1ll << (dsz * 8 - 1)) - 1 : (1ll << (dsz * 8)) - 1;
        u64 o = (u64)(v < lo ? lo : v > hi ? hi : v);
        memcpy(r.b + l + (h * per + i) * dsz, &o, dsz);
      }
  zput(cpu, in, in->reg, &r, dsz);
  return CPU_RC_NEXT;
}
EV_OP(vpacksswb, pack(cpu, in, 2, 1))
EV_OP(vpackuswb, pack(cpu, in, 2, 0))
EV_OP(vpackssdw, pack(cpu, in, 4, 1))
EV_OP(vpackusdw, pack(cpu, in, 4, 0))

/* vpalignr: per 128-bit lane, vvvv:rm shifted right by imm8 bytes. */
static int op_vpalignr(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  unsigned c = (u8)in->imm;
  CPU_TRY(zsrc_all(cpu, in, 1, &b)); /* no fault suppression */
  zget(cpu, in->reg2, &a);
  for (unsigned l = 0; l < in->osz; l += 16)
    for (unsigned i = 0; i < 16; i++) {
      unsigned j = i + c;
      r.b[l + i] = j < 16 ? b.b[l + j] : j < 32 ? a.b[l + j - 16] : 0;
    }
  zput(cpu, in, in->reg, &r, 1);
  return CPU_RC_NEXT;
}

/* vpsadbw: per qword, the sum of absolute byte differences (no masking). */
static int op_vpsadbw(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  CPU_TRY(zsrc_all(cpu, in, 8, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned q = 0; q < in->osz / 8; q++) {
    unsigned sum = 0;
    for (unsigned i = 0; i < 8; i++) {
      int d = a.b[8 * q + i] - b.b[8 * q + i];
      sum += (unsigned)(d < 0 ? -d : d);
    }
    r.q[q] = sum;
  }
  zput(cpu, in, in->reg, &r, 8);
  return CPU_RC_NEXT;
}

/* vpmultishiftqb: byte j of each qword is the 8 bits of rm's qword that
 * start at the bit vvvv's byte j names (mod 64, wrapping around). */
static int op_vpmultishiftqb(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a, b, r;
  CPU_TRY(zsrc_all(cpu, in, 8, &b)); /* no fault suppression */
  zget(cpu, in->reg2, &a);
  for (unsigned q = 0; q < in->osz / 8; q++)
    for (unsigned j = 0; j < 8; j++) {
      unsigned c = a.b[8 * q + j] & 63;
      u64 x = b.q[q];
      r.b[8 * q + j] = (u8)(c ? (x >> c) | (x << (64 - c)) : x);
    }
  zput(cpu, in, in->reg, &r, 1);
  return CPU_RC_NEXT;
}

EV_UN(vpopcntb, b, 1, __builtin_popcount(y))
EV_UN(vpopcntw, w, 2, __builtin_popcount(y))
EV_UN(vpopcntd, d, 4, __builtin_popcount(y))
EV_UN(vpopcntq, q, 8, __builtin_popcountll(y))

/* vpshld/vpshrd by imm8: the concatenation of vvvv and rm elements
 * shifted, the upper (left) or lower (right) half kept. */
static int dshift(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                  int right) {
  union zv a, b, r;
  unsigned bits = esz * 8, c = (unsigned)in->imm & (bits - 1);
  CPU_TRY(zsrc(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / esz; i++) {
    u64 x = 0, y = 0, o;
    memcpy(&x, a.b + i * esz, esz);
    memcpy(&y, b.b + i * esz, esz);
    if (!c)
      o = x;
    else if (right)
      o = (x >> c) | (y << (bits - c));
    else
      o = (x << c) | (y >> (bits - c));
    memcpy(r.b + i * esz, &o, esz);
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
#define EV_DSHIFT(sfx, esz)                                             \
  EV_OP(vpshld##sfx, dshift(cpu, in, esz, 0))                           \
  EV_OP(vpshrd##sfx, dshift(cpu, in, esz, 1))
EV_DSHIFT(w, 2)
EV_DSHIFT(d, 4)
EV_DSHIFT(q, 8)

/* vpmov{,s,us}{wb,db,qb,dw,qw,qd}: the elements of reg narrowed from SSZ
 * to DSZ (truncated, or saturated signed / unsigned) into rm, which gets
 * VL * DSZ / SSZ bytes. */
static int narrow(struct cpu *cpu, const struct cpu_insn *in, unsigned ssz,
                  unsigned dsz, int sat) {
  union zv s, r;
  unsigned n = in->osz / ssz;
  zget(cpu, in->reg, &s);
  memset(r.b, 0, sizeof r.b);
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0;
    memcpy(&x, s.b + i * ssz, ssz);
    if (sat == 1) { /* signed */
      i64 v = (i64)cpu_sext(x, ssz), hi = (1ll << (dsz * 8 - 1)) - 1;
      x = (u64)(v > hi ? hi : v < -hi - 1 ? -hi - 1 : v);
    } else if (sat == 2) { /* unsigned */
      u64 hi = (1ull << (dsz * 8)) - 1;
      x = x > hi ? hi : x;
    }
    memcpy(r.b + i * dsz, &x, dsz);
  }
  if (in->pfx & CPU_PFX_MEM)
    return cpu__ev_st_masked(cpu, cpu_ea(cpu, in), &r, dsz, n,
                             kmask(cpu, in, n), EV_AAA(in) != 0);
  /* a register gets n elements, zero above them (with masking, the
   * elements past n are zero too) */
  {
    union zv out;
    u64 m = kmask(cpu, in, n);
    zget(cpu, in->rm, &out);
    for (unsigned i = 0; i < n; i++)
      if ((m >> i) & 1)
        memcpy(out.b + i * dsz, r.b + i * dsz, dsz);
      else if (EV_Z(in))
        memset(out.b + i * dsz, 0, dsz);
    memset(out.b + n * dsz, 0, 64 - n * dsz);
    zset(cpu, in->rm, &out);
  }
  return CPU_RC_NEXT;
}
#define EV_NARROW(name, ssz, dsz, sat)                                  \
  EV_OP(name, narrow(cpu, in, ssz, dsz, sat))
EV_NARROW(vpmovwb, 2, 1, 0)
EV_NARROW(vpmovdb, 4, 1, 0)
EV_NARROW(vpmovqb, 8, 1, 0)
EV_NARROW(vpmovdw, 4, 2, 0)
EV_NARROW(vpmovqw, 8, 2, 0)
EV_NARROW(vpmovqd, 8, 4, 0)
EV_NARROW(vpmovswb, 2, 1, 1)
EV_NARROW(vpmovsdb, 4, 1, 1)
EV_NARROW(vpmovsqb, 8, 1, 1)
EV_NARROW(vpmovsdw, 4, 2, 1)
EV_NARROW(vpmovsqw, 8, 2, 1)
EV_NARROW(vpmovsqd, 8, 4, 1)
EV_NARROW(vpmovuswb, 2, 1, 2)
EV_NARROW(vpmovusdb, 4, 1, 2)
EV_NARROW(vpmovusqb, 8, 1, 2)
EV_NARROW(vpmovusdw, 4, 2, 2)
EV_NARROW(vpmovusqw, 8, 2, 2)
EV_NARROW(vpmovusqd, 8, 4, 2)

/* vmovd/vmovq (EVEX.128): to an XMM register from a general register,
 * memory or the low qword of another XMM register, zeroing the rest; and
 * back. vmovw (AVX512-FP16) is vmovd with a word. */
static int mov_V_E(struct cpu *cpu, const struct cpu_insn *in, unsigned sz) {
  union zv r;
  u64 x;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), sz, &x));
  else
    x = cpu_trunc(cpu->gpr[in->rm], sz);
  memset(r.b, 0, sizeof r.b);
  r.q[0] = x;
  zset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}
static int mov_E_V(struct cpu *cpu, const struct cpu_insn *in, unsigned sz) {
  u64 x = cpu_trunc(cpu->ymm[in->reg].q[0], sz);
  if (in->pfx & CPU_PFX_MEM) return cpu_st(cpu, cpu_ea(cpu, in), sz, x);
  cpu->gpr[in->rm] = x;
  return CPU_RC_NEXT;
}
EV_OP(vmov_V_E, mov_V_E(cpu, in, (in->pfx & CPU_PFX_REXW) ? 8 : 4))
EV_OP(vmov_E_V, mov_E_V(cpu, in, (in->pfx & CPU_PFX_REXW) ? 8 : 4))
EV_OP(vmovw_V_E, mov_V_E(cpu, in, 2))
EV_OP(vmovw_E_V, mov_E_V(cpu, in, 2))
static int op_vmovq_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  union zv r;
  u64 x;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld64(cpu, cpu_ea(cpu, in), &x));
  else
    x = cpu->ymm[in->rm].q[0];
  memset(r.b, 0, sizeof r.b);
  r.q[0] = x;
  zset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}
static int op_vmovq_W_V(struct cpu *cpu, const struct cpu_insn *in) {
  u64 x = cpu->ymm[in->reg].q[0];
  union zv r;
  if (in->pfx & CPU_PFX_MEM) return cpu_st64(cpu, cpu_ea(cpu, in), x);
  memset(r.b, 0, sizeof r.b);
  r.q[0] = x;
  zset(cpu, in->rm, &r);
  return CPU_RC_NEXT;
}

/* ---- The rows ----------------------------------------------------------- */

const struct ev_row cpu__evex_rows[] = {
    /* moves */
    E(0F, 66, 6F, W0, X, VW, 4, FVM, 0, vmovdqa32, op_vmovdqa32_V_W)
    E(0F, 66, 7F, W0, X, WV, 4, FVM, 0, vmovdqa32, op_vmovdqa32_W_V)
    E(0F, 66, 6F, W1, X, VW, 8, FVM, 0, vmovdqa64, op_vmovdqa64_V_W)
    E(0F, 66, 7F, W1, X, WV, 8, FVM, 0, vmovdqa64, op_vmovdqa64_W_V)
    E(0F, F2, 6F, W0, X, VW, 1, FVM, 0, vmovdqu8, op_vmovdqu8_V_W)
    E(0F, F2, 7F, W0, X, WV, 1, FVM, 0, vmovdqu8, op_vmovdqu8_W_V)
    E(0F, F2, 6F, W1, X, VW, 2, FVM, 0, vmovdqu16, op_vmovdqu16_V_W)
    E(0F, F2, 7F, W1, X, WV, 2, FVM, 0, vmovdqu16, op_vmovdqu16_W_V)
    E(0F, F3, 6F, W0, X, VW, 4, FVM, 0, vmovdqu32, op_vmovdqu32_V_W)
    E(0F, F3, 7F, W0, X, WV, 4, FVM, 0, vmovdqu32, op_vmovdqu32_W_V)
    E(0F, F3, 6F, W1, X, VW, 8, FVM, 0, vmovdqu64, op_vmovdqu64_V_W)
    E(0F, F3, 7F, W1, X, WV, 8, FVM, 0, vmovdqu64, op_vmovdqu64_W_V)
    E(0F, NONE, 28, W0, X, VW, 4, FVM, 0, vmovaps, op_vmovaps_V_W)
    E(0F, NONE, 29, W0, X, WV, 4, FVM, 0, vmovaps, op_vmovaps_W_V)
    E(0F, 66, 28, W1, X, VW, 8, FVM, 0, vmovapd, op_vmovapd_V_W)
    E(0F, 66, 29, W1, X, WV, 8, FVM, 0, vmovapd, op_vmovapd_W_V)
    E(0F, NONE, 10, W0, X, VW, 4, FVM, 0, vmovups, op_vmovups_V_W)
    E(0F, NONE, 11, W0, X, WV, 4, FVM, 0, vmovups, op_vmovups_W_V)
    E(0F, 66, E7, W0, X, WV, 4, FVM, R_MEM | R_NOMASK | R_NOZ, vmovntdq,
      op_vmovntdq)
    E(0F, NONE, 2B, W0, X, WV, 4, FVM, R_MEM | R_NOMASK | R_NOZ, vmovntps,
      op_vmovntdq)
    E(0F, 66, 2B, W1, X, WV, 8, FVM, R_MEM | R_NOMASK | R_NOZ, vmovntpd,
      op_vmovntdq)
    E(0F38, 66, 2A, W0, X, VW, 4, FVM, R_MEM | R_NOMASK | R_NOZ, vmovntdqa,
      op_vmovntdqa)
    E(0F, 66, 10, W1, X, VW, 8, FVM, 0, vmovupd, op_vmovupd_V_W)
    E(0F, 66, 11, W1, X, WV, 8, FVM, 0, vmovupd, op_vmovupd_W_V)
    /* logic */
    E(0F, 66, DB, W0, X, VHW, 4, FV, R_BC, vpandd, op_vpandd)
    E(0F, 66, DB, W1, X, VHW, 8, FV, R_BC, vpandq, op_vpandq)
    E(0F, 66, DF, W0, X, VHW, 4, FV, R_BC, vpandnd, op_vpandnd)
    E(0F, 66, DF, W1, X, VHW, 8, FV, R_BC, vpandnq, op_vpandnq)
    E(0F, 66, EB, W0, X, VHW, 4, FV, R_BC, vpord, op_vpord)
    E(0F, 66, EB, W1, X, VHW, 8, FV, R_BC, vporq, op_vporq)
    E(0F, 66, EF, W0, X, VHW, 4, FV, R_BC, vpxord, op_vpxord)
    E(0F, 66, EF, W1, X, VHW, 8, FV, R_BC, vpxorq, op_vpxorq)
    E(0F3A, 66, 25, W0, X, VHWI, 4, FV, R_BC, vpternlogd, op_vpternlogd)
    E(0F3A, 66, 25, W1, X, VHWI, 8, FV, R_BC, vpternlogq, op_vpternlogq)
    /* arithmetic */
    E(0F, 66, FC, WIG, X, VHW, 1, FVM, 0, vpaddb, op_vpaddb)
    E(0F, 66, FD, WIG, X, VHW, 2, FVM, 0, vpaddw, op_vpaddw)
    E(0F, 66, FE, W0, X, VHW, 4, FV, R_BC, vpaddd, op_vpaddd)
    E(0F, 66, D4, W1, X, VHW, 8, FV, R_BC, vpaddq, op_vpaddq)
    E(0F, 66, F8, WIG, X, VHW, 1, FVM, 0, vpsubb, op_vpsubb)
    E(0F, 66, F9, WIG, X, VHW, 2, FVM, 0, vpsubw, op_vpsubw)
    E(0F, 66, FA, W0, X, VHW, 4, FV, R_BC, vpsubd, op_vpsubd)
    E(0F, 66, FB, W1, X, VHW, 8, FV, R_BC, vpsubq, op_vpsubq)
    E(0F, 66, EC, WIG, X, VHW, 1, FVM, 0, vpaddsb, op_vpaddsb)
    E(0F, 66, ED, WIG, X, VHW, 2, FVM, 0, vpaddsw, op_vpaddsw)
    E(0F, 66, DC, WIG, X, VHW, 1, FVM, 0, vpaddusb, op_vpaddusb)
    E(0F, 66, DD, WIG, X, VHW, 2, FVM, 0, vpaddusw, op_vpaddusw)
    E(0F, 66, E8, WIG, X, VHW, 1, FVM, 0, vpsubsb, op_vpsubsb)
    E(0F, 66, E9, WIG, X, VHW, 2, FVM, 0, vpsubsw, op_vpsubsw)
    E(0F, 66, D8, WIG, X, VHW, 1, FVM, 0, vpsubusb, op_vpsubusb)
    E(0F, 66, D9, WIG, X, VHW, 2, FVM, 0, vpsubusw, op_vpsubusw)
    E(0F, 66, DA, WIG, X, VHW, 1, FVM, 0, vpminub, op_vpminub)
    E(0F38, 66, 3A, WIG, X, VHW, 2, FVM, 0, vpminuw, op_vpminuw)
    E(0F38, 66, 3B, W0, X, VHW, 4, FV, R_BC, vpminud, op_vpminud)
    E(0F38, 66, 3B, W1, X, VHW, 8, FV, R_BC, vpminuq, op_vpminuq)
    E(0F38, 66, 38, WIG, X, VHW, 1, FVM, 0, vpminsb, op_vpminsb)
    E(0F, 66, EA, WIG, X, VHW, 2, FVM, 0, vpminsw, op_vpminsw)
    E(0F38, 66, 39, W0, X, VHW, 4, FV, R_BC, vpminsd, op_vpminsd)
    E(0F38, 66, 39, W1, X, VHW, 8, FV, R_BC, vpminsq, op_vpminsq)
    E(0F, 66, DE, WIG, X, VHW, 1, FVM, 0, vpmaxub, op_vpmaxub)
    E(0F38, 66, 3E, WIG, X, VHW, 2, FVM, 0, vpmaxuw, op_vpmaxuw)
    E(0F38, 66, 3F, W0, X, VHW, 4, FV, R_BC, vpmaxud, op_vpmaxud)
    E(0F38, 66, 3F, W1, X, VHW, 8, FV, R_BC, vpmaxuq, op_vpmaxuq)
    E(0F38, 66, 3C, WIG, X, VHW, 1, FVM, 0, vpmaxsb, op_vpmaxsb)
    E(0F, 66, EE, WIG, X, VHW, 2, FVM, 0, vpmaxsw, op_vpmaxsw)
    E(0F38, 66, 3D, W0, X, VHW, 4, FV, R_BC, vpmaxsd, op_vpmaxsd)
    E(0F38, 66, 3D, W1, X, VHW, 8, FV, R_BC, vpmaxsq, op_vpmaxsq)
    E(0F, 66, E0, WIG, X, VHW, 1, FVM, 0, vpavgb, op_vpavgb)
    E(0F, 66, E3, WIG, X, VHW, 2, FVM, 0, vpavgw, op_vpavgw)
    E(0F38, 66, 1C, WIG, X, VW, 1, FVM, 0, vpabsb, op_vpabsb)
    E(0F38, 66, 1D, WIG, X, VW, 2, FVM, 0, vpabsw, op_vpabsw)
    E(0F38, 66, 1E, W0, X, VW, 4, FV, R_BC, vpabsd, op_vpabsd)
    E(0F38, 66, 1F, W1, X, VW, 8, FV, R_BC, vpabsq, op_vpabsq)
    E(0F, 66, D5, WIG, X, VHW, 2, FVM, 0, vpmullw, op_vpmullw)
    E(0F, 66, E5, WIG, X, VHW, 2, FVM, 0, vpmulhw, op_vpmulhw)
    E(0F, 66, E4, WIG, X, VHW, 2, FVM, 0, vpmulhuw, op_vpmulhuw)
    E(0F38, 66, 40, W0, X, VHW, 4, FV, R_BC, vpmulld, op_vpmulld)
    E(0F38, 66, 40, W1, X, VHW, 8, FV, R_BC, vpmullq, op_vpmullq)
    E(0F, 66, F4, W1, X, VHW, 8, FV, R_BC, vpmuludq, op_vpmuludq)
    E(0F38, 66, 28, W1, X, VHW, 8, FV, R_BC, vpmuldq, op_vpmuldq)
    E(0F, 66, F5, WIG, X, VHW, 4, FVM, 0, vpmaddwd, op_vpmaddwd)
    E(0F38, 66, 04, WIG, X, VHW, 2, FVM, 0, vpmaddubsw, op_vpmaddubsw)
    E(0F38, 66, B4, W1, X, VHW, 8, FV, R_BC, vpmadd52luq, op_vpmadd52luq)
    E(0F38, 66, B5, W1, X, VHW, 8, FV, R_BC, vpmadd52huq, op_vpmadd52huq)
    /* compares */
    E(0F, 66, 74, WIG, X, KHW, 1, FVM, R_NOZ, vpcmpeqb, op_vpcmpeqb)
    E(0F, 66, 75, WIG, X, KHW, 2, FVM, R_NOZ, vpcmpeqw, op_vpcmpeqw)
    E(0F, 66, 76, W0, X, KHW, 4, FV, R_BC | R_NOZ, vpcmpeqd, op_vpcmpeqd)
    E(0F38, 66, 29, W1, X, KHW, 8, FV, R_BC | R_NOZ, vpcmpeqq, op_vpcmpeqq)
    E(0F, 66, 64, WIG, X, KHW, 1, FVM, R_NOZ, vpcmpgtb, op_vpcmpgtb)
    E(0F, 66, 65, WIG, X, KHW, 2, FVM, R_NOZ, vpcmpgtw, op_vpcmpgtw)
    E(0F, 66, 66, W0, X, KHW, 4, FV, R_BC | R_NOZ, vpcmpgtd, op_vpcmpgtd)
    E(0F38, 66, 37, W1, X, KHW, 8, FV, R_BC | R_NOZ, vpcmpgtq, op_vpcmpgtq)
    E(0F3A, 66, 3F, W0, X, KHWI, 1, FVM, R_NOZ, vpcmpb, op_vpcmpb)
    E(0F3A, 66, 3F, W1, X, KHWI, 2, FVM, R_NOZ, vpcmpw, op_vpcmpw)
    E(0F3A, 66, 1F, W0, X, KHWI, 4, FV, R_BC | R_NOZ, vpcmpd, op_vpcmpd)
    E(0F3A, 66, 1F, W1, X, KHWI, 8, FV, R_BC | R_NOZ, vpcmpq, op_vpcmpq)
    E(0F3A, 66, 3E, W0, X, KHWI, 1, FVM, R_NOZ, vpcmpub, op_vpcmpub)
    E(0F3A, 66, 3E, W1, X, KHWI, 2, FVM, R_NOZ, vpcmpuw, op_vpcmpuw)
    E(0F3A, 66, 1E, W0, X, KHWI, 4, FV, R_BC | R_NOZ, vpcmpud, op_vpcmpud)
    E(0F3A, 66, 1E, W1, X, KHWI, 8, FV, R_BC | R_NOZ, vpcmpuq, op_vpcmpuq)
    E(0F38, 66, 26, W0, X, KHW, 1, FVM, R_NOZ, vptestmb, op_vptestmb)
    E(0F38, 66, 26, W1, X, KHW, 2, FVM, R_NOZ, vptestmw, op_vptestmw)
    E(0F38, 66, 27, W0, X, KHW, 4, FV, R_BC | R_NOZ, vptestmd, op_vptestmd)
    E(0F38, 66, 27, W1, X, KHW, 8, FV, R_BC | R_NOZ, vptestmq, op_vptestmq)
    E(0F38, F3, 26, W0, X, KHW, 1, FVM, R_NOZ, vptestnmb, op_vptestnmb)
    E(0F38, F3, 26, W1, X, KHW, 2, FVM, R_NOZ, vptestnmw, op_vptestnmw)
    E(0F38, F3, 27, W0, X, KHW, 4, FV, R_BC | R_NOZ, vptestnmd, op_vptestnmd)
    E(0F38, F3, 27, W1, X, KHW, 8, FV, R_BC | R_NOZ, vptestnmq, op_vptestnmq)
    E(0F38, F3, 29, W0, X, KU, 1, FVM, R_REG | R_NOMASK | R_NOZ, vpmovb2m,
      op_vpmovb2m)
    E(0F38, F3, 29, W1, X, KU, 2, FVM, R_REG | R_NOMASK | R_NOZ, vpmovw2m,
      op_vpmovw2m)
    E(0F38, F3, 39, W0, X, KU, 4, FVM, R_REG | R_NOMASK | R_NOZ, vpmovd2m,
      op_vpmovd2m)
    E(0F38, F3, 39, W1, X, KU, 8, FVM, R_REG | R_NOMASK | R_NOZ, vpmovq2m,
      op_vpmovq2m)
    E(0F38, F3, 28, W0, X, VK, 1, FVM, R_REG | R_NOMASK | R_NOZ, vpmovm2b,
      op_vpmovm2b)
    E(0F38, F3, 28, W1, X, VK, 2, FVM, R_REG | R_NOMASK | R_NOZ, vpmovm2w,
      op_vpmovm2w)
    E(0F38, F3, 38, W0, X, VK, 4, FVM, R_REG | R_NOMASK | R_NOZ, vpmovm2d,
      op_vpmovm2d)
    E(0F38, F3, 38, W1, X, VK, 8, FVM, R_REG | R_NOMASK | R_NOZ, vpmovm2q,
      op_vpmovm2q)
    /* broadcasts */
    E(0F38, 66, 78, W0, X, VW, 1, T1S, 0, vpbroadcastb, op_vpbroadcastb)
    E(0F38, 66, 79, W0, X, VW, 2, T1S, 0, vpbroadcastw, op_vpbroadcastw)
    E(0F38, 66, 58, W0, X, VW, 4, T1S, 0, vpbroadcastd, op_vpbroadcastd)
    E(0F38, 66, 59, W1, X, VW, 8, T1S, 0, vpbroadcastq, op_vpbroadcastq)
    E(0F38, 66, 7A, W0, X, VR, 1, T1S, R_REG, vpbroadcastb,
      op_vpbroadcastb_gpr)
    E(0F38, 66, 7B, W0, X, VR, 2, T1S, R_REG, vpbroadcastw,
      op_vpbroadcastw_gpr)
    E(0F38, 66, 7C, W0, X, VR, 4, T1S, R_REG, vpbroadcastd,
      op_vpbroadcastd_gpr)
    E(0F38, 66, 7C, W1, X, VR, 8, T1S, R_REG, vpbroadcastq,
      op_vpbroadcastq_gpr)
    E(0F38, 66, 5A, W0, X, VW, 4, T4, R_MEM | R_V256, vbroadcasti32x4,
      op_vbroadcasti32x4)
    E(0F38, 66, 5A, W1, X, VW, 8, T2Q, R_MEM | R_V256, vbroadcasti64x2,
      op_vbroadcasti64x2)
    /* 512 bits only; the decoder checks VL below */
    E(0F38, 66, 5B, W0, X, VW, 4, T8, R_MEM | R_V256, vbroadcasti32x8,
      op_vbroadcasti32x8)
    E(0F38, 66, 5B, W1, X, VW, 8, T8, R_MEM | R_V256, vbroadcasti64x4,
      op_vbroadcasti64x4)
    /* the floating-point broadcasts move bits, as their integer twins */
    E(0F38, 66, 18, W0, X, VW, 4, T1S, 0, vbroadcastss, op_vpbroadcastd)
    E(0F38, 66, 19, W1, X, VW, 8, T1S, R_V256, vbroadcastsd, op_vpbroadcastq)
    E(0F38, 66, 1A, W0, X, VW, 4, T4, R_MEM | R_V256, vbroadcastf32x4,
      op_vbroadcasti32x4)
    E(0F38, 66, 1A, W1, X, VW, 8, T2Q, R_MEM | R_V256, vbroadcastf64x2,
      op_vbroadcasti64x2)
    E(0F38, 66, 1B, W0, X, VW, 4, T8, R_MEM | R_V256, vbroadcastf32x8,
      op_vbroadcasti32x8)
    E(0F38, 66, 1B, W1, X, VW, 8, T8, R_MEM | R_V256, vbroadcastf64x4,
      op_vbroadcasti64x4)
    /* shuffles and permutes */
    E(0F38, 66, 00, WIG, X, VHW, 1, FVM, 0, vpshufb, op_vpshufb)
    E(0F, 66, 70, W0, X, VWI, 4, FV, R_BC, vpshufd, op_vpshufd)
    E(0F38, 66, 8D, W0, X, VHW, 1, FVM, 0, vpermb, op_vpermb)
    E(0F38, 66, 8D, W1, X, VHW, 2, FVM, 0, vpermw, op_vpermw)
    E(0F38, 66, 36, W0, X, VHW, 4, FV, R_BC | R_V256, vpermd, op_vpermd)
    E(0F38, 66, 36, W1, X, VHW, 8, FV, R_BC | R_V256, vpermq, op_vpermq)
    E(0F3A, 66, 00, W1, X, VWI, 8, FV, R_BC | R_V256, vpermq, op_vpermq_i)
    E(0F38, 66, 75, W0, X, VHW, 1, FVM, 0, vpermi2b, op_vpermi2b)
    E(0F38, 66, 75, W1, X, VHW, 2, FVM, 0, vpermi2w, op_vpermi2w)
    E(0F38, 66, 76, W0, X, VHW, 4, FV, R_BC, vpermi2d, op_vpermi2d)
    E(0F38, 66, 76, W1, X, VHW, 8, FV, R_BC, vpermi2q, op_vpermi2q)
    E(0F38, 66, 7D, W0, X, VHW, 1, FVM, 0, vpermt2b, op_vpermt2b)
    E(0F38, 66, 7D, W1, X, VHW, 2, FVM, 0, vpermt2w, op_vpermt2w)
    E(0F38, 66, 7E, W0, X, VHW, 4, FV, R_BC, vpermt2d, op_vpermt2d)
    E(0F38, 66, 7E, W1, X, VHW, 8, FV, R_BC, vpermt2q, op_vpermt2q)
    E(0F38, 66, 66, W0, X, VHW, 1, FVM, 0, vpblendmb, op_vpblendmb)
    E(0F38, 66, 66, W1, X, VHW, 2, FVM, 0, vpblendmw, op_vpblendmw)
    E(0F38, 66, 64, W0, X, VHW, 4, FV, R_BC, vpblendmd, op_vpblendmd)
    E(0F38, 66, 64, W1, X, VHW, 8, FV, R_BC, vpblendmq, op_vpblendmq)
    E(0F38, 66, 63, W0, X, WV, 1, T1S, 0, vpcompressb, op_vpcompressb)
    E(0F38, 66, 63, W1, X, WV, 2, T1S, 0, vpcompressw, op_vpcompressw)
    E(0F38, 66, 8B, W0, X, WV, 4, T1S, 0, vpcompressd, op_vpcompressd)
    E(0F38, 66, 8B, W1, X, WV, 8, T1S, 0, vpcompressq, op_vpcompressq)
    E(0F38, 66, 62, W0, X, VW, 1, T1S, 0, vpexpandb, op_vpexpandb)
    E(0F38, 66, 62, W1, X, VW, 2, T1S, 0, vpexpandw, op_vpexpandw)
    E(0F38, 66, 89, W0, X, VW, 4, T1S, 0, vpexpandd, op_vpexpandd)
    E(0F38, 66, 89, W1, X, VW, 8, T1S, 0, vpexpandq, op_vpexpandq)
    E(0F38, 66, 30, WIG, X, VW, 2, HVM, 0, vpmovzxbw, op_vpmovzxbw)
    E(0F38, 66, 31, WIG, X, VW, 4, QVM, 0, vpmovzxbd, op_vpmovzxbd)
    E(0F38, 66, 32, WIG, X, VW, 8, OVM, 0, vpmovzxbq, op_vpmovzxbq)
    E(0F38, 66, 33, WIG, X, VW, 4, HVM, 0, vpmovzxwd, op_vpmovzxwd)
    E(0F38, 66, 34, WIG, X, VW, 8, QVM, 0, vpmovzxwq, op_vpmovzxwq)
    E(0F38, 66, 35, W0, X, VW, 8, HVM, 0, vpmovzxdq, op_vpmovzxdq)
    E(0F38, 66, 20, WIG, X, VW, 2, HVM, 0, vpmovsxbw, op_vpmovsxbw)
    E(0F38, 66, 21, WIG, X, VW, 4, QVM, 0, vpmovsxbd, op_vpmovsxbd)
    E(0F38, 66, 22, WIG, X, VW, 8, OVM, 0, vpmovsxbq, op_vpmovsxbq)
    E(0F38, 66, 23, WIG, X, VW, 4, HVM, 0, vpmovsxwd, op_vpmovsxwd)
    E(0F38, 66, 24, WIG, X, VW, 8, QVM, 0, vpmovsxwq, op_vpmovsxwq)
    E(0F38, 66, 25, W0, X, VW, 8, HVM, 0, vpmovsxdq, op_vpmovsxdq)
    E(0F3A, 66, 39, W0, X, WVI, 4, T4, R_V256, vextracti32x4,
      op_vextracti32x4)
    E(0F3A, 66, 39, W1, X, WVI, 8, T2Q, R_V256, vextracti64x2,
      op_vextracti64x2)
    E(0F3A, 66, 3B, W0, X, WVI, 4, T8, R_V256, vextracti32x8,
      op_vextracti32x8)
    E(0F3A, 66, 3B, W1, X, WVI, 8, T8, R_V256, vextracti64x4,
      op_vextracti64x4)
    E(0F3A, 66, 38, W0, X, VHWI, 4, T4, R_V256, vinserti32x4, op_vinserti32x4)
    E(0F3A, 66, 38, W1, X, VHWI, 8, T2Q, R_V256, vinserti64x2,
      op_vinserti64x2)
    E(0F3A, 66, 3A, W0, X, VHWI, 4, T8, R_V256, vinserti32x8, op_vinserti32x8)
    E(0F3A, 66, 3A, W1, X, VHWI, 8, T8, R_V256, vinserti64x4, op_vinserti64x4)
    E(0F3A, 66, 43, W0, X, VHWI, 4, FV, R_BC | R_V256, vshufi32x4,
      op_vshufi32x4)
    E(0F3A, 66, 43, W1, X, VHWI, 8, FV, R_BC | R_V256, vshufi64x2,
      op_vshufi64x2)
    E(0F3A, 66, 03, W0, X, VHWI, 4, FV, R_BC, valignd, op_valignd)
    E(0F3A, 66, 03, W1, X, VHWI, 8, FV, R_BC, valignq, op_valignq)
    /* shifts */
    E(0F, 66, 71, WIG, 6, HWI, 2, FVM, 0, vpsllw, op_vpsllw_i)
    E(0F, 66, 71, WIG, 2, HWI, 2, FVM, 0, vpsrlw, op_vpsrlw_i)
    E(0F, 66, 71, WIG, 4, HWI, 2, FVM, 0, vpsraw, op_vpsraw_i)
    E(0F, 66, 72, W0, 6, HWI, 4, FV, R_BC, vpslld, op_vpslld_i)
    E(0F, 66, 72, W0, 2, HWI, 4, FV, R_BC, vpsrld, op_vpsrld_i)
    E(0F, 66, 72, W0, 4, HWI, 4, FV, R_BC, vpsrad, op_vpsrad_i)
    E(0F, 66, 72, W1, 4, HWI, 8, FV, R_BC, vpsraq, op_vpsraq_i)
    E(0F, 66, 72, W0, 1, HWI, 4, FV, R_BC, vprold, op_vprold)
    E(0F, 66, 72, W1, 1, HWI, 8, FV, R_BC, vprolq, op_vprolq)
    E(0F, 66, 72, W0, 0, HWI, 4, FV, R_BC, vprord, op_vprord)
    E(0F, 66, 72, W1, 0, HWI, 8, FV, R_BC, vprorq, op_vprorq)
    E(0F, 66, 73, W1, 6, HWI, 8, FV, R_BC, vpsllq, op_vpsllq_i)
    E(0F, 66, 73, W1, 2, HWI, 8, FV, R_BC, vpsrlq, op_vpsrlq_i)
    E(0F, 66, 73, WIG, 7, HWI, 16, FVM, R_NOMASK, vpslldq, op_vpslldq)
    E(0F, 66, 73, WIG, 3, HWI, 16, FVM, R_NOMASK, vpsrldq, op_vpsrldq)
    E(0F, 66, F1, WIG, X, VHW, 2, M128, 0, vpsllw, op_vpsllw_x)
    E(0F, 66, F2, W0, X, VHW, 4, M128, 0, vpslld, op_vpslld_x)
    E(0F, 66, F3, W1, X, VHW, 8, M128, 0, vpsllq, op_vpsllq_x)
    E(0F, 66, D1, WIG, X, VHW, 2, M128, 0, vpsrlw, op_vpsrlw_x)
    E(0F, 66, D2, W0, X, VHW, 4, M128, 0, vpsrld, op_vpsrld_x)
    E(0F, 66, D3, W1, X, VHW, 8, M128, 0, vpsrlq, op_vpsrlq_x)
    E(0F, 66, E1, WIG, X, VHW, 2, M128, 0, vpsraw, op_vpsraw_x)
    E(0F, 66, E2, W0, X, VHW, 4, M128, 0, vpsrad, op_vpsrad_x)
    E(0F, 66, E2, W1, X, VHW, 8, M128, 0, vpsraq, op_vpsraq_x)
    E(0F38, 66, 47, W0, X, VHW, 4, FV, R_BC, vpsllvd, op_vpsllvd)
    E(0F38, 66, 47, W1, X, VHW, 8, FV, R_BC, vpsllvq, op_vpsllvq)
    E(0F38, 66, 12, W1, X, VHW, 2, FVM, 0, vpsllvw, op_vpsllvw)
    E(0F38, 66, 45, W0, X, VHW, 4, FV, R_BC, vpsrlvd, op_vpsrlvd)
    E(0F38, 66, 45, W1, X, VHW, 8, FV, R_BC, vpsrlvq, op_vpsrlvq)
    E(0F38, 66, 10, W1, X, VHW, 2, FVM, 0, vpsrlvw, op_vpsrlvw)
    E(0F38, 66, 46, W0, X, VHW, 4, FV, R_BC, vpsravd, op_vpsravd)
    E(0F38, 66, 46, W1, X, VHW, 8, FV, R_BC, vpsravq, op_vpsravq)
    E(0F38, 66, 11, W1, X, VHW, 2, FVM, 0, vpsravw, op_vpsravw)
    E(0F38, 66, 15, W0, X, VHW, 4, FV, R_BC, vprolvd, op_vprolvd)
    E(0F38, 66, 15, W1, X, VHW, 8, FV, R_BC, vprolvq, op_vprolvq)
    E(0F38, 66, 14, W0, X, VHW, 4, FV, R_BC, vprorvd, op_vprorvd)
    E(0F38, 66, 14, W1, X, VHW, 8, FV, R_BC, vprorvq, op_vprorvq)
    /* unpacks, packs, align, sad, multishift, popcnt, double shifts */
    E(0F, 66, 60, WIG, X, VHW, 1, FVM, 0, vpunpcklbw, op_vpunpcklbw)
    E(0F, 66, 61, WIG, X, VHW, 2, FVM, 0, vpunpcklwd, op_vpunpcklwd)
    E(0F, 66, 62, W0, X, VHW, 4, FV, R_BC, vpunpckldq, op_vpunpckldq)
    E(0F, 66, 6C, W1, X, VHW, 8, FV, R_BC, vpunpcklqdq, op_vpunpcklqdq)
    E(0F, 66, 68, WIG, X, VHW, 1, FVM, 0, vpunpckhbw, op_vpunpckhbw)
    E(0F, 66, 69, WIG, X, VHW, 2, FVM, 0, vpunpckhwd, op_vpunpckhwd)
    E(0F, 66, 6A, W0, X, VHW, 4, FV, R_BC, vpunpckhdq, op_vpunpckhdq)
    E(0F, 66, 6D, W1, X, VHW, 8, FV, R_BC, vpunpckhqdq, op_vpunpckhqdq)
    E(0F, 66, 63, WIG, X, VHW, 1, FVM, 0, vpacksswb, op_vpacksswb)
    E(0F, 66, 67, WIG, X, VHW, 1, FVM, 0, vpackuswb, op_vpackuswb)
    E(0F, 66, 6B, W0, X, VHW, 2, FV, R_BC | R_B4, vpackssdw, op_vpackssdw)
    E(0F38, 66, 2B, W0, X, VHW, 2, FV, R_BC | R_B4, vpackusdw, op_vpackusdw)
    E(0F3A, 66, 0F, WIG, X, VHWI, 1, FVM, 0, vpalignr, op_vpalignr)
    E(0F, 66, F6, WIG, X, VHW, 8, FVM, R_NOMASK, vpsadbw, op_vpsadbw)
    E(0F38, 66, 83, W1, X, VHW, 1, FV, R_BC | R_B8, vpmultishiftqb,
      op_vpmultishiftqb)
    E(0F38, 66, 54, W0, X, VW, 1, FVM, 0, vpopcntb, op_vpopcntb)
    E(0F38, 66, 54, W1, X, VW, 2, FVM, 0, vpopcntw, op_vpopcntw)
    E(0F38, 66, 55, W0, X, VW, 4, FV, R_BC, vpopcntd, op_vpopcntd)
    E(0F38, 66, 55, W1, X, VW, 8, FV, R_BC, vpopcntq, op_vpopcntq)
    E(0F3A, 66, 70, W1, X, VHWI, 2, FVM, 0, vpshldw, op_vpshldw)
    E(0F3A, 66, 71, W0, X, VHWI, 4, FV, R_BC, vpshldd, op_vpshldd)
    E(0F3A, 66, 71, W1, X, VHWI, 8, FV, R_BC, vpshldq, op_vpshldq)
    E(0F3A, 66, 72, W1, X, VHWI, 2, FVM, 0, vpshrdw, op_vpshrdw)
    E(0F3A, 66, 73, W0, X, VHWI, 4, FV, R_BC, vpshrdd, op_vpshrdd)
    E(0F3A, 66, 73, W1, X, VHWI, 8, FV, R_BC, vpshrdq, op_vpshrdq)
    /* narrowing moves (F3 0F38 10-15 unsigned saturation, 20-25 signed,
     * 30-35 truncation) */
    E(0F38, F3, 30, W0, X, WV, 1, HVM, 0, vpmovwb, op_vpmovwb)
    E(0F38, F3, 31, W0, X, WV, 1, QVM, 0, vpmovdb, op_vpmovdb)
    E(0F38, F3, 32, W0, X, WV, 1, OVM, 0, vpmovqb, op_vpmovqb)
    E(0F38, F3, 33, W0, X, WV, 2, HVM, 0, vpmovdw, op_vpmovdw)
    E(0F38, F3, 34, W0, X, WV, 2, QVM, 0, vpmovqw, op_vpmovqw)
    E(0F38, F3, 35, W0, X, WV, 4, HVM, 0, vpmovqd, op_vpmovqd)
    E(0F38, F3, 20, W0, X, WV, 1, HVM, 0, vpmovswb, op_vpmovswb)
    E(0F38, F3, 21, W0, X, WV, 1, QVM, 0, vpmovsdb, op_vpmovsdb)
    E(0F38, F3, 22, W0, X, WV, 1, OVM, 0, vpmovsqb, op_vpmovsqb)
    E(0F38, F3, 23, W0, X, WV, 2, HVM, 0, vpmovsdw, op_vpmovsdw)
    E(0F38, F3, 24, W0, X, WV, 2, QVM, 0, vpmovsqw, op_vpmovsqw)
    E(0F38, F3, 25, W0, X, WV, 4, HVM, 0, vpmovsqd, op_vpmovsqd)
    E(0F38, F3, 10, W0, X, WV, 1, HVM, 0, vpmovuswb, op_vpmovuswb)
    E(0F38, F3, 11, W0, X, WV, 1, QVM, 0, vpmovusdb, op_vpmovusdb)
    E(0F38, F3, 12, W0, X, WV, 1, OVM, 0, vpmovusqb, op_vpmovusqb)
    E(0F38, F3, 13, W0, X, WV, 2, HVM, 0, vpmovusdw, op_vpmovusdw)
    E(0F38, F3, 14, W0, X, WV, 2, QVM, 0, vpmovusqw, op_vpmovusqw)
    E(0F38, F3, 15, W0, X, WV, 4, HVM, 0, vpmovusqd, op_vpmovusqd)
    /* vmovd, vmovq */
    E(0F, 66, 6E, W0, X, VE, 4, T1S, R_NOMASK | R_L128, vmovd, op_vmov_V_E)
    E(0F, 66, 6E, W1, X, VE, 8, T1S, R_NOMASK | R_L128, vmovq, op_vmov_V_E)
    E(0F, 66, 7E, W0, X, EV, 4, T1S, R_NOMASK | R_L128, vmovd, op_vmov_E_V)
    E(0F, 66, 7E, W1, X, EV, 8, T1S, R_NOMASK | R_L128, vmovq, op_vmov_E_V)
    E(5, 66, 6E, WIG, X, VE, 2, T1S, R_NOMASK | R_L128, vmovw, op_vmovw_V_E)
    E(5, 66, 7E, WIG, X, EV, 2, T1S, R_NOMASK | R_L128, vmovw, op_vmovw_E_V)
    E(0F, F3, 7E, W1, X, VW, 8, T1S, R_NOMASK | R_L128, vmovq, op_vmovq_V_W)
    E(0F, 66, D6, W1, X, WV, 8, T1S, R_NOMASK | R_L128 | R_NOZ, vmovq,
      op_vmovq_W_V)
    /* the floating-point forms of data moves: the integer handlers */
    E(0F3A, 66, 19, W0, X, WVI, 4, T4, R_V256, vextractf32x4,
      op_vextracti32x4)
    E(0F3A, 66, 19, W1, X, WVI, 8, T2Q, R_V256, vextractf64x2,
      op_vextracti64x2)
    E(0F3A, 66, 1B, W0, X, WVI, 4, T8, R_V256, vextractf32x8,
      op_vextracti32x8)
    E(0F3A, 66, 1B, W1, X, WVI, 8, T8, R_V256, vextractf64x4,
      op_vextracti64x4)
    E(0F3A, 66, 18, W0, X, VHWI, 4, T4, R_V256, vinsertf32x4, op_vinserti32x4)
    E(0F3A, 66, 18, W1, X, VHWI, 8, T2Q, R_V256, vinsertf64x2,
      op_vinserti64x2)
    E(0F3A, 66, 1A, W0, X, VHWI, 4, T8, R_V256, vinsertf32x8, op_vinserti32x8)
    E(0F3A, 66, 1A, W1, X, VHWI, 8, T8, R_V256, vinsertf64x4, op_vinserti64x4)
    E(0F3A, 66, 23, W0, X, VHWI, 4, FV, R_BC | R_V256, vshuff32x4,
      op_vshufi32x4)
    E(0F3A, 66, 23, W1, X, VHWI, 8, FV, R_BC | R_V256, vshuff64x2,
      op_vshufi64x2)
    E(0F38, 66, 16, W0, X, VHW, 4, FV, R_BC | R_V256, vpermps, op_vpermd)
    E(0F38, 66, 16, W1, X, VHW, 8, FV, R_BC | R_V256, vpermpd, op_vpermq)
    E(0F3A, 66, 01, W1, X, VWI, 8, FV, R_BC | R_V256, vpermpd, op_vpermq_i)
    E(0F38, 66, 77, W0, X, VHW, 4, FV, R_BC, vpermi2ps, op_vpermi2d)
    E(0F38, 66, 77, W1, X, VHW, 8, FV, R_BC, vpermi2pd, op_vpermi2q)
    E(0F38, 66, 7F, W0, X, VHW, 4, FV, R_BC, vpermt2ps, op_vpermt2d)
    E(0F38, 66, 7F, W1, X, VHW, 8, FV, R_BC, vpermt2pd, op_vpermt2q)
    E(0F38, 66, 65, W0, X, VHW, 4, FV, R_BC, vblendmps, op_vpblendmd)
    E(0F38, 66, 65, W1, X, VHW, 8, FV, R_BC, vblendmpd, op_vpblendmq)
    E(0F38, 66, 8A, W0, X, WV, 4, T1S, 0, vcompressps, op_vpcompressd)
    E(0F38, 66, 8A, W1, X, WV, 8, T1S, 0, vcompresspd, op_vpcompressq)
    E(0F38, 66, 88, W0, X, VW, 4, T1S, 0, vexpandps, op_vpexpandd)
    E(0F38, 66, 88, W1, X, VW, 8, T1S, 0, vexpandpd, op_vpexpandq)
    E(0F, NONE, 14, W0, X, VHW, 4, FV, R_BC, vunpcklps, op_vpunpckldq)
    E(0F, 66, 14, W1, X, VHW, 8, FV, R_BC, vunpcklpd, op_vpunpcklqdq)
    E(0F, NONE, 15, W0, X, VHW, 4, FV, R_BC, vunpckhps, op_vpunpckhdq)
    E(0F, 66, 15, W1, X, VHW, 8, FV, R_BC, vunpckhpd, op_vpunpckhqdq)
};

const size_t cpu__evex_nrows = sizeof cpu__evex_rows / sizeof cpu__evex_rows[0];
