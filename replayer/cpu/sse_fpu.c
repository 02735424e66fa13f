/* SPDX-License-Identifier: MIT */
/* The SSE floating-point engine: runs one host SSE/SSE2 instruction under
 * the guest's rounding, DAZ and FTZ with every exception masked, which gives
 * bit-exact results and flags, then applies the guest's exception masks.
 * When a masked-out overflow or underflow could change the flags the CPU
 * reports before #XM (the CPU then rounds with an unbounded exponent), each
 * element is recomputed on the host x87 at the target precision. This file
 * has no handlers; sse_arith.c, sse_fcmp.c and sse_cvt.c use it. */
#include <emmintrin.h>

#include "replayer/cpu/sse_util.h"

enum { K_OTHER, K_ADD, K_SUB, K_MUL, K_DIV, K_CVT };

static const struct {
  u8 kind, esz, n;
} hop_info[CPU__HOP_COUNT] = {
#define HOP(name, insn, kind, esz, n) {K_##kind, esz, n},
#define HOPG(name, tmpl, dir, esz) {K_OTHER, esz, 1},
#include "replayer/cpu/sse_hops.def"
#undef HOP
#undef HOPG
};

/* The host instruction of HOP on VA and VB (or the general register G),
 * under whatever the host's MXCSR holds. */
#define HOST_XX(tmpl) __asm__ volatile(tmpl : [x] "+x"(va) : [y] "x"(vb))
#define HOST_FROM(tmpl) __asm__ volatile(tmpl : [x] "+x"(va) : [g] "r"(g))
#define HOST_TO(tmpl) __asm__ volatile(tmpl : [g] "=r"(g) : [y] "x"(vb))

/* Runs HOP on A and B, after loading the host's MXCSR with C when LOAD;
 * returns the host's MXCSR after it. */
static inline __attribute__((always_inline)) u32
host_run(int hop, union cpu_vec *a, const union cpu_vec *b, int load, u32 c) {
  __m128 va, vb;
  u32 o = 0;
  u64 g = b->q[0];
  memcpy(&va, a->b, 16);
  memcpy(&vb, b->b, 16);
  if (load) __asm__ volatile("ldmxcsr %0" : : "m"(c));
  switch (hop) {
#define HOP(name, insn, kind, esz, n) \
  case CPU__HOP_##name:               \
    HOST_XX(insn " %[y], %[x]");      \
    break;
#define HOPG(name, tmpl, dir, esz) \
  case CPU__HOP_##name:            \
    HOST_##dir(tmpl);              \
    break;
#include "replayer/cpu/sse_hops.def"
#undef HOP
#undef HOPG
    default: break;
  }
  __asm__ volatile("stmxcsr %0" : "=m"(o));
  memcpy(a->b, &va, 16);
  if (hop >= CPU__HOP_cvtss2si32 && hop <= CPU__HOP_cvttsd2si64) a->q[0] = g;
  return o;
}

u32 cpu__sse_host(int hop, union cpu_vec *a, const union cpu_vec *b, u32 mx) {
  u32 saved;
  u32 c = (mx & (CPU_MX_DAZ | CPU_MX_RC | CPU_MX_FTZ)) | CPU_MX_MASKS;
  __asm__ volatile("stmxcsr %0" : "=m"(saved));
  u32 o = host_run(hop, a, b, 1, c);
  __asm__ volatile("ldmxcsr %0" : : "m"(saved));
  return o & CPU_MX_FLAGS;
}

/* A load of MXCSR followed by a read of it costs about 30 ns on these
 * machines, against 1 ns for the instruction itself, so with every
 * exception masked (MX, the guest's MXCSR) the host's MXCSR is used as it
 * is when its control bits are the guest's: loaded only when it holds a
 * flag the guest's lacks (then with the guest's flags), so that what it
 * holds after the instruction is the guest's flags plus the
 * instruction's, which is what the guest's MXCSR becomes. The control
 * bits are never changed, so the replayer's own arithmetic is unaffected;
 * other control bits (rounding, DAZ, FTZ) take the exact path. */
static u32 sse_host_sticky(int hop, union cpu_vec *a, const union cpu_vec *b,
                           u32 mx) {
  u32 s;
  __asm__ volatile("stmxcsr %0" : "=m"(s));
  if ((s ^ mx) & ~(u32)CPU_MX_FLAGS) return cpu__sse_host(hop, a, b, mx);
  return host_run(hop, a, b, (s & ~mx & CPU_MX_FLAGS) != 0, mx) &
         CPU_MX_FLAGS;
}

/* ---- Exact flags for unmasked overflow, underflow and precision ------- */

/* The scalar host operation of KIND at element size ESZ. */
static int scalar_hop(int kind, unsigned esz) {
  int d = esz == 8;
  switch (kind) {
    case K_ADD: return d ? CPU__HOP_addsd : CPU__HOP_addss;
    case K_SUB: return d ? CPU__HOP_subsd : CPU__HOP_subss;
    case K_MUL: return d ? CPU__HOP_mulsd : CPU__HOP_mulss;
    case K_DIV: return d ? CPU__HOP_divsd : CPU__HOP_divss;
    default: return CPU__HOP_cvtsd2ss;
  }
}

/* An 80-bit x87 value. */
struct f80 {
  u64 mant;
  u16 se;
};

/* Computes A op B (or A rounded, for K_CVT) on the host x87 with PREC bits
 * of significand (24 or 53), the rounding RC (0-3, MXCSR order, which is
 * the x87 order) and an exponent range wide enough to be unbounded for
 * single and double results. Stores the result in *R and returns whether
 * it was inexact. */
static int x87_unbounded(int kind, double a, double b, unsigned prec,
                         unsigned rc, struct f80 *r) {
  u8 env[28];
  u16 sw = 0;
  u16 cw = (u16)(0x7f | (prec == 24 ? 0 : 0x200) | (rc << 10));
  static const double one = 1.0;
  long double res = 0;
  __asm__ volatile("fnstenv %0" : "=m"(env));
  __asm__ volatile("fldcw %0\n\tfnclex" : : "m"(cw));
  switch (kind) {
    case K_ADD:
      __asm__ volatile("fldl %1\n\tfaddl %2\n\tfstpt %0"
                       : "=m"(res) : "m"(a), "m"(b));
      break;
    case K_SUB:
      __asm__ volatile("fldl %1\n\tfsubl %2\n\tfstpt %0"
                       : "=m"(res) : "m"(a), "m"(b));
      break;
    case K_MUL:
      __asm__ volatile("fldl %1\n\tfmull %2\n\tfstpt %0"
                       : "=m"(res) : "m"(a), "m"(b));
      break;
    case K_DIV:
      __asm__ volatile("fldl %1\n\tfdivl %2\n\tfstpt %0"
                       : "=m"(res) : "m"(a), "m"(b));
      break;
    default:
      __asm__ volatile("fldl %1\n\tfmull %2\n\tfstpt %0"
                       : "=m"(res) : "m"(a), "m"(one));
      break;
  }
  __asm__ volatile("fnstsw %0" : "=m"(sw));
  __asm__ volatile("fldenv %0" : : "m"(env));
  memcpy(&r->mant, &res, 8);
  memcpy(&r->se, (u8 *)&res + 8, 2);
  return (sw & 0x20) != 0;
}

/* Element I of V (size ESZ) as a double, denormals flushed when DAZ. */
static double elem(const union cpu_vec *v, unsigned i, unsigned esz, int daz,
                   int *nan) {
  if (esz == 4) {
    u32 x = v->d[i];
    if (daz && !(x & 0x7f800000)) x &= 0x80000000;
    *nan |= (x & 0x7fffffff) > 0x7f800000;
    float f;
    memcpy(&f, &x, 4);
    return (double)f;
  }
  u64 x = v->q[i];
  if (daz && !(x & 0x7ff0000000000000ull)) x &= 0x8000000000000000ull;
  *nan |= (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  double d;
  memcpy(&d, &x, 8);
  return d;
}

/* The flags the CPU reports for HOP when the guest unmasks some
 * post-computation exception: per element, the masked flags, except that
 * an unmasked overflow or underflow reports OE/UE plus PE when the result
 * rounded with an unbounded exponent is inexact (and underflow then does
 * not need inexactness). A0 and B are the original operands. */
static u32 exact_flags(u32 mx, int hop, const union cpu_vec *a0,
                       const union cpu_vec *b) {
  int kind = hop_info[hop].kind;
  unsigned esz = hop_info[hop].esz, n = hop_info[hop].n;
  unsigned rsz = kind == K_CVT ? 4 : esz; /* result element size */
  unsigned prec = rsz == 4 ? 24 : 53;
  int emax = rsz == 4 ? 127 : 1023, emin = rsz == 4 ? -126 : -1022;
  int shop = scalar_hop(kind, esz);
  int daz = (mx & CPU_MX_DAZ) != 0;
  u32 all = 0;
  for (unsigned i = 0; i < n; i++) {
    union cpu_vec x = {0}, y = {0};
    if (esz == 4) {
      x.d[0] = a0->d[i];
      y.d[0] = b->d[i];
    } else {
      x.q[0] = a0->q[i];
      y.q[0] = b->q[i];
    }
    u32 fi = cpu__sse_host(shop, &x, &y, mx);
    int nan = 0;
    double da = kind == K_CVT ? 0 : elem(a0, i, esz, daz, &nan);
    double db = elem(b, i, esz, daz, &nan);
    if (kind == K_CVT) {
      da = db;
      db = 1.0;
    }
    if (nan || (fi & (CPU_MX_IE | CPU_MX_ZE))) {
      all |= fi;
      continue;
    }
    struct f80 r;
    int pe = x87_unbounded(kind, da, db, prec, (mx & CPU_MX_RC) >> 13, &r);
    int e = (int)(r.se & 0x7fff) - 16383;
    u32 pre = fi & (CPU_MX_IE | CPU_MX_DE | CPU_MX_ZE);
    u32 pef = pe ? CPU_MX_PE : 0;
    int finite = (r.se & 0x7fff) != 0x7fff && r.mant;
    if (finite && e > emax && !(mx & (CPU_MX_OE << 7)))
      all |= pre | CPU_MX_OE | pef;
    else if (finite && e < emin && !(mx & (CPU_MX_UE << 7)))
      all |= pre | CPU_MX_UE | pef;
    else
      all |= fi;
  }
  return all;
}

/* ---- Applying the guest's masks --------------------------------------- */

/* Raises #XM for flags FL (the exact ones) if one is unmasked, setting the
 * flags the CPU sets first: only the pre-computation ones (IE DE ZE) when
 * one of those is unmasked. Returns 0 when nothing is unmasked. */
static int raise_unmasked(struct cpu *cpu, u32 fl) {
  u32 unmasked = ~(cpu->mxcsr >> 7) & CPU_MX_FLAGS;
  u32 pre = fl & (CPU_MX_IE | CPU_MX_DE | CPU_MX_ZE);
  if (pre & unmasked) {
    cpu->mxcsr |= pre;
    return cpu__fault(cpu, CPU_FAULT_XM);
  }
  if (fl & unmasked) {
    cpu->mxcsr |= fl;
    return cpu__fault(cpu, CPU_FAULT_XM);
  }
  return 0;
}

int cpu__sse_commit(struct cpu *cpu, u32 ex, u32 fl) {
  CPU_TRY(raise_unmasked(cpu, ex));
  cpu->mxcsr |= fl;
  return 0;
}

int cpu__sse_flags(struct cpu *cpu, u32 fl) {
  if (RW_UNLIKELY(cpu->xm_defer)) {
    cpu->xm_ex |= fl;
    cpu->xm_fl |= fl;
    return 0;
  }
  return cpu__sse_commit(cpu, fl, fl);
}

int cpu__sse_fp(struct cpu *cpu, int hop, union cpu_vec *a,
                const union cpu_vec *b) {
  u32 mx = cpu->mxcsr;
  u32 unmasked = ~(mx >> 7) & CPU_MX_FLAGS;
  if (RW_LIKELY(!unmasked)) {
    u32 fl = sse_host_sticky(hop, a, b, mx);
    if (cpu->xm_defer) {
      cpu->xm_ex |= fl;
      cpu->xm_fl |= fl;
    } else {
      cpu->mxcsr |= fl;
    }
    return 0;
  }
  union cpu_vec a0 = *a;
  u32 fl = cpu__sse_host(hop, a, b, mx);
  u32 ex = fl;
  if (hop_info[hop].kind != K_OTHER &&
      (unmasked & (CPU_MX_OE | CPU_MX_UE | CPU_MX_PE)))
    ex = exact_flags(mx, hop, &a0, b);
  if (cpu->xm_defer) {
    cpu->xm_ex |= ex;
    cpu->xm_fl |= fl;
    return 0;
  }
  CPU_TRY(raise_unmasked(cpu, ex));
  cpu->mxcsr |= fl;
  return 0;
}
