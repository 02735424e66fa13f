/* SPDX-License-Identifier: MIT */
/* Differential cases of the x87 family (replayer/cpu/x87.c): one row per
 * table form, and fix callbacks that give each case a full x87 state (stack
 * depth from empty to full, TOP anywhere, edge values: signed zeros,
 * infinities, quiet and signalling NaNs, denormals, pseudo-denormals,
 * unnormals, integer boundaries; every precision and rounding control;
 * masked and unmasked exceptions, some already pending) and edge memory
 * operands. The harness compares the whole FXSAVE image and memory. */
#include <string.h>

#include "tests/cpu/diff.h"

/* ---- Values ------------------------------------------------------------ */

struct f80 {
  u64 m;  /* significand, explicit integer bit */
  u16 se; /* sign and exponent */
};

static unsigned rnd(struct diff_rng *r, unsigned n) {
  return (unsigned)(diff_rand(r) % n);
}

/* An extended value from a long double (the test host's own format). */
static struct f80 f80_of(long double v) {
  struct f80 f;
  memcpy(&f.m, &v, 8);
  memcpy(&f.se, (const u8 *)&v + 8, 2);
  return f;
}

/* Integer-boundary values for fist/fistp/fisttp and frndint. */
static long double int_edge(struct diff_rng *r) {
  static const long double base[] = {
      0.0L,          0.5L,          1.0L,         1.5L,         2.5L,
      32767.0L,      32767.5L,      32768.0L,     32768.5L,     65535.0L,
      2147483647.0L, 2147483647.5L, 2147483648.0L, 4294967296.0L,
      9223372036854775807.0L,       9223372036854775808.0L,
      18446744073709551616.0L};
  long double v = base[rnd(r, sizeof base / sizeof base[0])];
  switch (rnd(r, 4)) {
    case 0: v += 0.25L; break;
    case 1: v -= 0.75L; break;
    case 2: v -= 1.0L; break;
    default: break;
  }
  return rnd(r, 2) ? -v : v;
}

/* An extended value biased toward the edges of the format. */
static struct f80 f80_edge(struct diff_rng *r) {
  struct f80 f;
  u16 s = rnd(r, 2) ? 0x8000 : 0;
  u64 x = diff_rand(r);
  switch (rnd(r, 24)) {
    case 0: f.m = 0; f.se = s; break;                                /* 0 */
    case 1: f.m = 1ull << 63; f.se = s | 0x7fff; break;              /* inf */
    case 2: f.m = (3ull << 62) | (x >> 3); f.se = s | 0x7fff; break; /* qnan */
    case 3: /* snan */
      f.m = (1ull << 63) | ((x >> 2) | 1);
      f.se = s | 0x7fff;
      break;
    case 4: f.m = 3ull << 62; f.se = 0xffff; break; /* indefinite */
    case 5: f.m = (x >> 1) | 1; f.se = s; break;    /* denormal */
    case 6: f.m = x | (1ull << 63); f.se = s; break; /* pseudo-denormal */
    case 7: /* unnormal */
      f.m = x >> 1;
      f.se = (u16)(s | (1 + rnd(r, 0x7ffe)));
      break;
    case 8: f.m = x >> 1; f.se = s | 0x7fff; break; /* pseudo-nan/inf */
    case 9: f.m = ~0ull; f.se = s | 0x7ffe; break;  /* largest */
    case 10: f.m = 1ull << 63; f.se = s | 1; break; /* smallest normal */
    case 11:
    case 12: f = f80_of(int_edge(r)); break;
    case 13: f = f80_of((long double)(i64)(x % 2001) - 1000.0L); break;
    case 14: { /* a double, as most long double data starts */
      double d;
      memcpy(&d, &x, 8);
      f = f80_of((long double)d);
      if (f.se == 0x7fff || f.se == 0xffff) f = f80_of(1.0L);
      break;
    }
    case 15: /* near the float/double overflow and underflow thresholds */
      f.m = x | (1ull << 63);
      f.se = (u16)(s | ((const u16[]){0x407e, 0x407f, 0x3f81, 0x3f6a, 0x43fe,
                                      0x43ff, 0x3c01, 0x3bcd})[rnd(r, 8)]);
      break;
    case 16: /* near the extended overflow and underflow thresholds */
      f.m = x | (1ull << 63);
      f.se = (u16)(s | (rnd(r, 2) ? 0x7ffe - rnd(r, 4) : 1 + rnd(r, 4)));
      break;
    default: /* moderate magnitude */
      f.m = x | (1ull << 63);
      f.se = (u16)(s | (0x3fff - 40 + rnd(r, 80)));
      break;
  }
  return f;
}

/* A moderate value for the transcendental instructions' domains. */
static struct f80 f80_trans(struct diff_rng *r) {
  static const long double k[] = {
      0.0L, 0.5L, -0.5L, 1.0L, -1.0L, 0.75L, 2.0L, 10.0L,
      3.14159265358979323851L, 1.57079632679489661926L,
      0.785398163397448309628L, 1e-10L, 1e10L, 1e18L,
      9223372036854775808.0L, 9.3e18L};
  u64 x = diff_rand(r);
  switch (rnd(r, 6)) {
    case 0: return f80_edge(r);
    case 1: {
      long double v = k[rnd(r, sizeof k / sizeof k[0])];
      return f80_of(rnd(r, 2) ? -v : v);
    }
    case 2: { /* |x| < 1 */
      struct f80 f = {x | (1ull << 63), (u16)(0x3fff - 1 - rnd(r, 20))};
      if (rnd(r, 2)) f.se |= 0x8000;
      return f;
    }
    default: {
      struct f80 f = {x | (1ull << 63), (u16)(0x3fff - 8 + rnd(r, 80))};
      if (rnd(r, 3) == 0) f.se |= 0x8000;
      return f;
    }
  }
}

/* ---- State ------------------------------------------------------------- */

static void put16(u8 *p, u16 v) { memcpy(p, &v, 2); }
static u16 get16(const u8 *p) {
  u16 v;
  memcpy(&v, p, 2);
  return v;
}

static void set_st(struct diff_case *c, unsigned i, struct f80 v) {
  memcpy(c->st.fx + 32 + 16 * i, &v.m, 8);
  put16(c->st.fx + 40 + 16 * i, v.se);
}

/* FCW: any precision and rounding control; mostly all exceptions masked,
 * sometimes some unmasked. FSW: random condition codes, mostly no flags,
 * sometimes masked ones, rarely unmasked ones (the instruction then takes
 * #MF before it runs). ES and B follow the flags, as the CPU keeps them. */
static void set_control(struct diff_case *c, struct diff_rng *r) {
  u16 pc = (u16)((const u16[]){0x300, 0x300, 0x200, 0x000, 0x100})[rnd(r, 5)];
  u16 rc = (u16)(rnd(r, 4) << 10);
  u16 masks = rnd(r, 4) ? 0x3f : (u16)(diff_rand(r) & 0x3f);
  u16 fcw = (u16)(0x40 | pc | rc | masks);
  u16 flags = 0;
  unsigned k = rnd(r, 16);
  if (k < 3) flags = (u16)(diff_rand(r) & 0x7f & (masks | 0x40));
  if (k == 3) flags = (u16)(diff_rand(r) & 0x7f);
  u16 fsw = (u16)((get16(c->st.fx + 2) & 0x3800) | flags |
                  (diff_rand(r) & 0x4700));
  if (fsw & ~fcw & 0x3f) fsw |= 0x8080;
  put16(c->st.fx + 0, fcw);
  put16(c->st.fx + 2, fsw);
}

/* A stack of DEPTH registers (ST(0)..ST(DEPTH-1) valid) at a random TOP,
 * with values from GEN; empty registers hold stale values. */
static void set_stack(struct diff_case *c, struct diff_rng *r, unsigned depth,
                      struct f80 (*gen)(struct diff_rng *)) {
  unsigned top = rnd(r, 8);
  u8 ftw = 0;
  for (unsigned i = 0; i < 8; i++) {
    set_st(c, i, gen(r));
    if (i < depth) ftw |= (u8)(1u << ((top + i) & 7));
  }
  put16(c->st.fx + 2, (u16)((get16(c->st.fx + 2) & ~0x3800) | (top << 11)));
  c->st.fx[4] = ftw;
  set_control(c, r);
}

/* Stack depth: usually enough operands, sometimes empty (stack underflow)
 * or full (overflow for loads). */
static unsigned pick_depth(struct diff_rng *r) {
  unsigned k = rnd(r, 16);
  if (k == 0) return 0;
  if (k == 1) return 1;
  if (k == 2) return 8;
  if (k == 3) return 7;
  return 2 + rnd(r, 5);
}

/* The memory operand's bytes, when they are inside the data pages. */
static u8 *mem_at(struct diff_case *c, unsigned n) {
  if (!c->memop || c->mem_addr < DIFF_DATA_ADDR ||
      c->mem_addr + n > DIFF_DATA_ADDR + DIFF_DATA_SIZE)
    return NULL;
  return c->st.data + (c->mem_addr - DIFF_DATA_ADDR);
}

static void mem_f32(struct diff_case *c, struct diff_rng *r) {
  static const u32 e[] = {0,          0x80000000, 0x7f800000, 0xff800000,
                          0x7fc00000, 0x7f800001, 0xffa00000, 0x00000001,
                          0x807fffff, 0x7f7fffff, 0x00800000, 0x3f800000,
                          0x4f000000, 0x46fffe00};
  u8 *p = mem_at(c, 4);
  u32 v = rnd(r, 2) ? e[rnd(r, sizeof e / sizeof e[0])] : (u32)diff_rand(r);
  if (p) memcpy(p, &v, 4);
}

static void mem_f64(struct diff_case *c, struct diff_rng *r) {
  static const u64 e[] = {0,
                          0x8000000000000000ull,
                          0x7ff0000000000000ull,
                          0xfff0000000000000ull,
                          0x7ff8000000000000ull,
                          0x7ff0000000000001ull,
                          0x0000000000000001ull,
                          0x800fffffffffffffull,
                          0x7fefffffffffffffull,
                          0x0010000000000000ull,
                          0x3ff0000000000000ull,
                          0x43e0000000000000ull,
                          0x41dfffffffc00000ull};
  u8 *p = mem_at(c, 8);
  u64 v = rnd(r, 2) ? e[rnd(r, sizeof e / sizeof e[0])] : diff_rand(r);
  if (p) memcpy(p, &v, 8);
}

static void mem_f80(struct diff_case *c, struct diff_rng *r) {
  u8 *p = mem_at(c, 10);
  struct f80 v = f80_edge(r);
  if (!p) return;
  memcpy(p, &v.m, 8);
  memcpy(p + 8, &v.se, 2);
}

static void mem_int(struct diff_case *c, struct diff_rng *r, unsigned n) {
  u8 *p = mem_at(c, n);
  u64 v = diff_rand_edge(r, n);
  if (p) memcpy(p, &v, n);
}

/* Packed BCD: 18 digits and a sign byte; sometimes invalid digits. */
static void mem_bcd(struct diff_case *c, struct diff_rng *r) {
  u8 *p = mem_at(c, 10);
  if (!p) return;
  for (unsigned i = 0; i < 9; i++) {
    unsigned lo = rnd(r, 10), hi = rnd(r, 10);
    if (rnd(r, 3) == 0) lo = hi = 0;
    p[i] = (u8)(lo | hi << 4);
  }
  if (rnd(r, 8) == 0) p[rnd(r, 9)] = (u8)diff_rand(r);
  p[9] = rnd(r, 2) ? 0x80 : 0;
  if (rnd(r, 16) == 0) p[9] = (u8)diff_rand(r);
}

/* ---- Fix callbacks ----------------------------------------------------- */

/* The ModRM byte of the operand-less forms, chosen by the Capstone id. */
static int fixed_modrm(unsigned id) {
  switch (id) {
    case X86_INS_FLD1: return 0xe8;
    case X86_INS_FLDL2T: return 0xe9;
    case X86_INS_FLDL2E: return 0xea;
    case X86_INS_FLDPI: return 0xeb;
    case X86_INS_FLDLG2: return 0xec;
    case X86_INS_FLDLN2: return 0xed;
    case X86_INS_FLDZ: return 0xee;
    case X86_INS_FCHS: return 0xe0;
    case X86_INS_FABS: return 0xe1;
    case X86_INS_FTST: return 0xe4;
    case X86_INS_FXAM: return 0xe5;
    case X86_INS_F2XM1: return 0xf0;
    case X86_INS_FYL2X: return 0xf1;
    case X86_INS_FPTAN: return 0xf2;
    case X86_INS_FPATAN: return 0xf3;
    case X86_INS_FXTRACT: return 0xf4;
    case X86_INS_FPREM1: return 0xf5;
    case X86_INS_FDECSTP: return 0xf6;
    case X86_INS_FINCSTP: return 0xf7;
    case X86_INS_FPREM: return 0xf8;
    case X86_INS_FYL2XP1: return 0xf9;
    case X86_INS_FSQRT: return 0xfa;
    case X86_INS_FSINCOS: return 0xfb;
    case X86_INS_FRNDINT: return 0xfc;
    case X86_INS_FSCALE: return 0xfd;
    case X86_INS_FSIN: return 0xfe;
    case X86_INS_FCOS: return 0xff;
    case X86_INS_FNOP: return 0xd0;
    case X86_INS_FCOMPP: return 0xd9;
    case X86_INS_FUCOMPP: return 0xe9;
    case X86_INS_FNCLEX: return 0xe2;
    case X86_INS_FNINIT: return 0xe3;
    case X86_INS_FNSTSW: return 0xe0;
    default: return -1;
  }
}

/* Operand-less forms are emitted as register forms; this rewrites their
 * ModRM (the last byte) to the one the id needs. */
static void fix_modrm(struct diff_case *c) {
  int m = fixed_modrm(c->id);
  if (m >= 0 && !c->memop) c->code[c->len - 1] = (u8)m;
}

/* Register and operand-less forms: a general stack. */
static void fix_stack(struct diff_case *c, struct diff_rng *r) {
  fix_modrm(c);
  set_stack(c, r, pick_depth(r), f80_edge);
}

/* Transcendental and scaling forms: values in their domains. */
static void fix_trans(struct diff_case *c, struct diff_rng *r) {
  fix_modrm(c);
  set_stack(c, r, pick_depth(r), f80_trans);
}

/* Stores and integer conversions: integer boundaries on the stack. */
static struct f80 f80_int(struct diff_rng *r) {
  return rnd(r, 3) ? f80_of(int_edge(r)) : f80_edge(r);
}
static void fix_store(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_int);
}

static void fix_m32(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_edge);
  mem_f32(c, r);
}
static void fix_m64(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_edge);
  mem_f64(c, r);
}
static void fix_m80(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_edge);
  mem_f80(c, r);
}
static void fix_i16(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_int);
  mem_int(c, r, 2);
}
static void fix_i32(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_int);
  mem_int(c, r, 4);
}
static void fix_i64(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_int);
  mem_int(c, r, 8);
}
static void fix_bcd(struct diff_case *c, struct diff_rng *r) {
  set_stack(c, r, pick_depth(r), f80_int);
  mem_bcd(c, r);
}

/* fldcw: control words with every field, sometimes unmasking flags that
 * are already set. */
static void fix_cw(struct diff_case *c, struct diff_rng *r) {
  static const u16 cw[] = {0x37f, 0x27f, 0x07f, 0xf7f, 0x37e,
                           0x372, 0x1373, 0xffff, 0x0000, 0x0b7f};
  u8 *p = mem_at(c, 2);
  set_stack(c, r, pick_depth(r), f80_edge);
  if (p) put16(p, rnd(r, 2) ? cw[rnd(r, 10)] : (u16)diff_rand(r));
}

/* fldenv/frstor: an image of a plausible state (tags and control fields in
 * every combination), registers from the edge generator. */
static void fix_env(struct diff_case *c, struct diff_rng *r) {
  unsigned n = c->id == X86_INS_FRSTOR ? 108 : 28;
  u8 *p = mem_at(c, n);
  set_stack(c, r, pick_depth(r), f80_edge);
  if (!p) return;
  for (unsigned i = 0; i < n; i += 8) {
    u64 v = diff_rand(r);
    memcpy(p + i, &v, n - i < 8 ? n - i : 8);
  }
  u16 masks = rnd(r, 3) ? 0x3f : (u16)(diff_rand(r) & 0x3f);
  put16(p + 0, (u16)((diff_rand(r) & 0xf00) | 0x40 | masks));
  u16 fsw = (u16)diff_rand(r);
  if (rnd(r, 2)) fsw &= (u16)~0x3f;
  put16(p + 4, fsw);
  if (rnd(r, 2)) put16(p + 8, (u16)(0xffff << (2 * rnd(r, 8))));
  for (unsigned i = 0; n == 108 && i < 8; i++) {
    struct f80 v = f80_edge(r);
    memcpy(p + 28 + 10 * i, &v.m, 8);
    memcpy(p + 36 + 10 * i, &v.se, 2);
  }
}

/* ---- Rows -------------------------------------------------------------- */

#define M(id, text, op, d, fix) \
  {id, text, 0, DIFF_MAP_1, op, DIFF_ENC_MODRM, d, 0, DIFF_IMM_NONE, \
   DIFF_K_NONE, DIFF_K_GPR, DIFF_O_MEM | DIFF_O_FAULT, fix}
#define R(id, text, op, d, fix) \
  {id, text, 0, DIFF_MAP_1, op, DIFF_ENC_MODRM, d, 0, DIFF_IMM_NONE, \
   DIFF_K_NONE, DIFF_K_GPR, DIFF_O_REG, fix}

static const struct diff_enc x87_encs[] = {
    M(X86_INS_FLD, "fld m32fp", 0xd9, 0, fix_m32),
    M(X86_INS_FLD, "fld m64fp", 0xdd, 0, fix_m64),
    M(X86_INS_FLD, "fld m80fp", 0xdb, 5, fix_m80),
    R(X86_INS_FLD, "fld st(i)", 0xd9, 0, fix_stack),
    M(X86_INS_FST, "fst m32fp", 0xd9, 2, fix_stack),
    M(X86_INS_FST, "fst m64fp", 0xdd, 2, fix_stack),
    R(X86_INS_FST, "fst st(i)", 0xdd, 2, fix_stack),
    M(X86_INS_FSTP, "fstp m32fp", 0xd9, 3, fix_stack),
    M(X86_INS_FSTP, "fstp m64fp", 0xdd, 3, fix_stack),
    M(X86_INS_FSTP, "fstp m80fp", 0xdb, 7, fix_stack),
    R(X86_INS_FSTP, "fstp st(i)", 0xdd, 3, fix_stack),
    M(X86_INS_FILD, "fild m16int", 0xdf, 0, fix_i16),
    M(X86_INS_FILD, "fild m32int", 0xdb, 0, fix_i32),
    M(X86_INS_FILD, "fild m64int", 0xdf, 5, fix_i64),
    M(X86_INS_FIST, "fist m16int", 0xdf, 2, fix_store),
    M(X86_INS_FIST, "fist m32int", 0xdb, 2, fix_store),
    M(X86_INS_FISTP, "fistp m16int", 0xdf, 3, fix_store),
    M(X86_INS_FISTP, "fistp m32int", 0xdb, 3, fix_store),
    M(X86_INS_FISTP, "fistp m64int", 0xdf, 7, fix_store),
    M(X86_INS_FISTTP, "fisttp m16int", 0xdf, 1, fix_store),
    M(X86_INS_FISTTP, "fisttp m32int", 0xdb, 1, fix_store),
    M(X86_INS_FISTTP, "fisttp m64int", 0xdd, 1, fix_store),
    M(X86_INS_FBLD, "fbld m80bcd", 0xdf, 4, fix_bcd),
    M(X86_INS_FBSTP, "fbstp m80bcd", 0xdf, 6, fix_store),
    R(X86_INS_FXCH, "fxch st(i)", 0xd9, 1, fix_stack),
    R(X86_INS_FLD1, "fld1", 0xd9, 5, fix_stack),
    R(X86_INS_FLDL2T, "fldl2t", 0xd9, 5, fix_stack),
    R(X86_INS_FLDL2E, "fldl2e", 0xd9, 5, fix_stack),
    R(X86_INS_FLDPI, "fldpi", 0xd9, 5, fix_stack),
    R(X86_INS_FLDLG2, "fldlg2", 0xd9, 5, fix_stack),
    R(X86_INS_FLDLN2, "fldln2", 0xd9, 5, fix_stack),
    R(X86_INS_FLDZ, "fldz", 0xd9, 5, fix_stack),
#define ARITH(ID, IDP, IDI, mn, mnp, mni, d, dr)         \
  M(ID, mn " m32fp", 0xd8, d, fix_m32),                  \
  M(ID, mn " m64fp", 0xdc, d, fix_m64),                  \
  R(ID, mn " st(0),st(i)", 0xd8, d, fix_stack),           \
  R(ID, mn " st(i),st(0)", 0xdc, dr, fix_stack),          \
  R(IDP, mnp " st(i),st(0)", 0xde, dr, fix_stack),        \
  M(IDI, mni " m32int", 0xda, d, fix_i32),                \
  M(IDI, mni " m16int", 0xde, d, fix_i16)
    ARITH(X86_INS_FADD, X86_INS_FADDP, X86_INS_FIADD, "fadd", "faddp",
          "fiadd", 0, 0),
    ARITH(X86_INS_FMUL, X86_INS_FMULP, X86_INS_FIMUL, "fmul", "fmulp",
          "fimul", 1, 1),
    ARITH(X86_INS_FSUB, X86_INS_FSUBP, X86_INS_FISUB, "fsub", "fsubp",
          "fisub", 4, 5),
    ARITH(X86_INS_FSUBR, X86_INS_FSUBRP, X86_INS_FISUBR, "fsubr", "fsubrp",
          "fisubr", 5, 4),
    ARITH(X86_INS_FDIV, X86_INS_FDIVP, X86_INS_FIDIV, "fdiv", "fdivp",
          "fidiv", 6, 7),
    ARITH(X86_INS_FDIVR, X86_INS_FDIVRP, X86_INS_FIDIVR, "fdivr", "fdivrp",
          "fidivr", 7, 6),
#undef ARITH
    M(X86_INS_FCOM, "fcom m32fp", 0xd8, 2, fix_m32),
    M(X86_INS_FCOM, "fcom m64fp", 0xdc, 2, fix_m64),
    R(X86_INS_FCOM, "fcom st(i)", 0xd8, 2, fix_stack),
    M(X86_INS_FCOMP, "fcomp m32fp", 0xd8, 3, fix_m32),
    M(X86_INS_FCOMP, "fcomp m64fp", 0xdc, 3, fix_m64),
    R(X86_INS_FCOMP, "fcomp st(i)", 0xd8, 3, fix_stack),
    R(X86_INS_FCOMPP, "fcompp", 0xde, 3, fix_stack),
    R(X86_INS_FUCOM, "fucom st(i)", 0xdd, 4, fix_stack),
    R(X86_INS_FUCOMP, "fucomp st(i)", 0xdd, 5, fix_stack),
    R(X86_INS_FUCOMPP, "fucompp", 0xda, 5, fix_stack),
    M(X86_INS_FICOM, "ficom m16int", 0xde, 2, fix_i16),
    M(X86_INS_FICOM, "ficom m32int", 0xda, 2, fix_i32),
    M(X86_INS_FICOMP, "ficomp m16int", 0xde, 3, fix_i16),
    M(X86_INS_FICOMP, "ficomp m32int", 0xda, 3, fix_i32),
    R(X86_INS_FCOMI, "fcomi st(0),st(i)", 0xdb, 6, fix_stack),
    R(X86_INS_FCOMIP, "fcomip st(0),st(i)", 0xdf, 6, fix_stack),
    R(X86_INS_FUCOMI, "fucomi st(0),st(i)", 0xdb, 5, fix_stack),
    R(X86_INS_FUCOMIP, "fucomip st(0),st(i)", 0xdf, 5, fix_stack),
    R(X86_INS_FTST, "ftst", 0xd9, 4, fix_stack),
    R(X86_INS_FXAM, "fxam", 0xd9, 4, fix_stack),
    R(X86_INS_FCHS, "fchs", 0xd9, 4, fix_stack),
    R(X86_INS_FABS, "fabs", 0xd9, 4, fix_stack),
    R(X86_INS_F2XM1, "f2xm1", 0xd9, 6, fix_trans),
    R(X86_INS_FYL2X, "fyl2x", 0xd9, 6, fix_trans),
    R(X86_INS_FPTAN, "fptan", 0xd9, 6, fix_trans),
    R(X86_INS_FPATAN, "fpatan", 0xd9, 6, fix_trans),
    R(X86_INS_FXTRACT, "fxtract", 0xd9, 6, fix_stack),
    R(X86_INS_FPREM1, "fprem1", 0xd9, 6, fix_trans),
    R(X86_INS_FDECSTP, "fdecstp", 0xd9, 6, fix_stack),
    R(X86_INS_FINCSTP, "fincstp", 0xd9, 6, fix_stack),
    R(X86_INS_FPREM, "fprem", 0xd9, 7, fix_trans),
    R(X86_INS_FYL2XP1, "fyl2xp1", 0xd9, 7, fix_trans),
    R(X86_INS_FSQRT, "fsqrt", 0xd9, 7, fix_stack),
    R(X86_INS_FSINCOS, "fsincos", 0xd9, 7, fix_trans),
    R(X86_INS_FRNDINT, "frndint", 0xd9, 7, fix_store),
    R(X86_INS_FSCALE, "fscale", 0xd9, 7, fix_trans),
    R(X86_INS_FSIN, "fsin", 0xd9, 7, fix_trans),
    R(X86_INS_FCOS, "fcos", 0xd9, 7, fix_trans),
    R(X86_INS_FNOP, "fnop", 0xd9, 2, fix_stack),
    R(X86_INS_FFREE, "ffree st(i)", 0xdd, 0, fix_stack),
    R(X86_INS_FFREEP, "ffreep st(i)", 0xdf, 0, fix_stack),
    R(X86_INS_FCMOVB, "fcmovb st(0),st(i)", 0xda, 0, fix_stack),
    R(X86_INS_FCMOVE, "fcmove st(0),st(i)", 0xda, 1, fix_stack),
    R(X86_INS_FCMOVBE, "fcmovbe st(0),st(i)", 0xda, 2, fix_stack),
    R(X86_INS_FCMOVU, "fcmovu st(0),st(i)", 0xda, 3, fix_stack),
    R(X86_INS_FCMOVNB, "fcmovnb st(0),st(i)", 0xdb, 0, fix_stack),
    R(X86_INS_FCMOVNE, "fcmovne st(0),st(i)", 0xdb, 1, fix_stack),
    R(X86_INS_FCMOVNBE, "fcmovnbe st(0),st(i)", 0xdb, 2, fix_stack),
    R(X86_INS_FCMOVNU, "fcmovnu st(0),st(i)", 0xdb, 3, fix_stack),
    M(X86_INS_FLDENV, "fldenv m28", 0xd9, 4, fix_env),
    M(X86_INS_FNSTENV, "fnstenv m28", 0xd9, 6, fix_stack),
    M(X86_INS_FRSTOR, "frstor m108", 0xdd, 4, fix_env),
    M(X86_INS_FNSAVE, "fnsave m108", 0xdd, 6, fix_stack),
    M(X86_INS_FLDCW, "fldcw m16", 0xd9, 5, fix_cw),
    M(X86_INS_FNSTCW, "fnstcw m16", 0xd9, 7, fix_stack),
    M(X86_INS_FNSTSW, "fnstsw m16", 0xdd, 7, fix_stack),
    R(X86_INS_FNSTSW, "fnstsw ax", 0xdf, 4, fix_stack),
    R(X86_INS_FNCLEX, "fnclex", 0xdb, 4, fix_stack),
    R(X86_INS_FNINIT, "fninit", 0xdb, 4, fix_stack),
    {X86_INS_WAIT, "fwait", 0, DIFF_MAP_1, 0x9b, DIFF_ENC_NONE, -1, 0,
     DIFF_IMM_NONE, DIFF_K_NONE, DIFF_K_NONE, 0, fix_stack},
};
#undef M
#undef R

const struct diff_family diff_cases_x87 = {
    "x87", x87_encs, sizeof x87_encs / sizeof x87_encs[0]};
