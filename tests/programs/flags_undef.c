/* SPDX-License-Identifier: MIT */
/* Test program: runs every instruction family that leaves some arithmetic
 * flags undefined in the manuals (shifts by 1 and by more, double shifts,
 * rotates by more than 1, mul and imul, div and idiv, bsf and bsr of zero
 * and non-zero, bt*, and/or/xor/test, lzcnt/tzcnt/popcnt and BMI when the
 * CPU has them) from varied operands and incoming flags, and prints the
 * flags each leaves (pushf). A replay must print the same bytes, so it must
 * compute those flags as the recording CPU did (docs/flags.md). */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t u64;

/* The arithmetic flags: CF PF AF ZF SF OF. */
#define ARITH 0x8d5ull

/* Incoming flags: none, all six, and two mixes. */
static const u64 fins[] = {0x202, 0x202 | ARITH, 0x202 | 0x811, 0x202 | 0xc4};

static const u64 vals[] = {0,
                           1,
                           0x7f,
                           0x80,
                           0xff,
                           0x8000,
                           0xffff,
                           0x7fffffff,
                           0xdeadbeef,
                           0x80000000ull,
                           0x123456789abcdef0ull,
                           0x8000000000000000ull,
                           0xfedcba9876543210ull,
                           ~0ull};
#define NVALS (sizeof vals / sizeof vals[0])

static const unsigned counts[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 33, 63};
#define NCOUNTS (sizeof counts / sizeof counts[0])

/* The asm below pushes: step over the red zone first (lea keeps flags). */
#define ENTER "lea -128(%%rsp), %%rsp\n\tpushq %[fin]\n\tpopfq\n\t"
#define LEAVE "\n\tpushfq\n\tpopq %[f]\n\tlea 128(%%rsp), %%rsp"

/* Two-operand reg, reg (AT&T: INSN src, dst) at three sizes. */
#define BIN(name, insn)                                                      \
  static u64 name(int sz, u64 *a, u64 b, u64 fin) {                          \
    u64 f, x = *a;                                                           \
    if (sz == 8)                                                             \
      __asm__ volatile(ENTER insn "q %[b], %[x]" LEAVE                       \
                       : [x] "+r"(x), [f] "=&r"(f)                           \
                       : [b] "r"(b), [fin] "r"(fin)                          \
                       : "cc");                                              \
    else if (sz == 4) {                                                      \
      uint32_t y = (uint32_t)x;                                              \
      __asm__ volatile(ENTER insn "l %[b], %[x]" LEAVE                       \
                       : [x] "+r"(y), [f] "=&r"(f)                           \
                       : [b] "r"((uint32_t)b), [fin] "r"(fin)                \
                       : "cc");                                              \
      x = y;                                                                 \
    } else {                                                                 \
      uint16_t y = (uint16_t)x;                                              \
      __asm__ volatile(ENTER insn "w %[b], %[x]" LEAVE                       \
                       : [x] "+r"(y), [f] "=&r"(f)                           \
                       : [b] "r"((uint16_t)b), [fin] "r"(fin)                \
                       : "cc");                                              \
      x = y;                                                                 \
    }                                                                        \
    *a = x;                                                                  \
    return f;                                                                \
  }
BIN(op_and, "and")
BIN(op_or, "or")
BIN(op_xor, "xor")
BIN(op_test, "test")
BIN(op_imul2, "imul")
BIN(op_bsf, "bsf")
BIN(op_bsr, "bsr")
BIN(op_bt, "bt")
BIN(op_bts, "bts")
BIN(op_btr, "btr")
BIN(op_btc, "btc")
BIN(op_lzcnt, "lzcnt")
BIN(op_tzcnt, "tzcnt")
BIN(op_popcnt, "popcnt")

/* Shifts and rotates by cl, at 8, 16, 32 and 64 bits. */
#define SHIFT(name, insn)                                                   \
  static u64 name(int sz, u64 *a, u64 c, u64 fin) {                         \
    u64 f, x = *a;                                                          \
    uint8_t n = (uint8_t)c;                                                 \
    if (sz == 8)                                                            \
      __asm__ volatile(ENTER insn "q %%cl, %[x]" LEAVE                      \
                       : [x] "+r"(x), [f] "=&r"(f)                          \
                       : "c"(n), [fin] "r"(fin)                             \
                       : "cc");                                             \
    else if (sz == 4) {                                                     \
      uint32_t y = (uint32_t)x;                                             \
      __asm__ volatile(ENTER insn "l %%cl, %[x]" LEAVE                      \
                       : [x] "+r"(y), [f] "=&r"(f)                          \
                       : "c"(n), [fin] "r"(fin)                             \
                       : "cc");                                             \
      x = y;                                                                \
    } else if (sz == 2) {                                                   \
      uint16_t y = (uint16_t)x;                                             \
      __asm__ volatile(ENTER insn "w %%cl, %[x]" LEAVE                      \
                       : [x] "+r"(y), [f] "=&r"(f)                          \
                       : "c"(n), [fin] "r"(fin)                             \
                       : "cc");                                             \
      x = y;                                                                \
    } else {                                                                \
      uint8_t y = (uint8_t)x;                                               \
      __asm__ volatile(ENTER insn "b %%cl, %[x]" LEAVE                      \
                       : [x] "+q"(y), [f] "=&r"(f)                          \
                       : "c"(n), [fin] "r"(fin)                             \
                       : "cc");                                             \
      x = y;                                                                \
    }                                                                       \
    *a = x;                                                                 \
    return f;                                                               \
  }
SHIFT(op_shl, "shl")
SHIFT(op_shr, "shr")
SHIFT(op_sar, "sar")
SHIFT(op_rol, "rol")
SHIFT(op_ror, "ror")
SHIFT(op_rcl, "rcl")
SHIFT(op_rcr, "rcr")

/* shld/shrd by cl: the bits shifted in come from B. */
#define DSHIFT(name, insn)                                                 \
  static u64 name##_(int sz, u64 *a, u64 b, unsigned c, u64 fin) {        \
    u64 f, x = *a;                                                         \
    uint8_t n = (uint8_t)c;                                                \
    if (sz == 8)                                                           \
      __asm__ volatile(ENTER insn "q %%cl, %[b], %[x]" LEAVE               \
                       : [x] "+r"(x), [f] "=&r"(f)                         \
                       : [b] "r"(b), "c"(n), [fin] "r"(fin)                \
                       : "cc");                                            \
    else if (sz == 4) {                                                    \
      uint32_t y = (uint32_t)x;                                            \
      __asm__ volatile(ENTER insn "l %%cl, %[b], %[x]" LEAVE               \
                       : [x] "+r"(y), [f] "=&r"(f)                         \
                       : [b] "r"((uint32_t)b), "c"(n), [fin] "r"(fin)      \
                       : "cc");                                            \
      x = y;                                                               \
    } else {                                                               \
      uint16_t y = (uint16_t)x;                                            \
      __asm__ volatile(ENTER insn "w %%cl, %[b], %[x]" LEAVE               \
                       : [x] "+r"(y), [f] "=&r"(f)                         \
                       : [b] "r"((uint16_t)b), "c"(n), [fin] "r"(fin)      \
                       : "cc");                                            \
      x = y;                                                               \
    }                                                                      \
    *a = x;                                                                \
    return f;                                                              \
  }
DSHIFT(op_shld, "shld")
DSHIFT(op_shrd, "shrd")

/* One-operand mul/imul/div/idiv on rdx:rax at 32 or 64 bits. */
#define ACC(name, insn)                                                     \
  static u64 name(int sz, u64 *ax, u64 *dx, u64 b, u64 fin) {               \
    u64 f, a = *ax, d = *dx;                                                \
    if (sz == 8)                                                            \
      __asm__ volatile(ENTER insn "q %[b]" LEAVE                            \
                       : "+a"(a), "+d"(d), [f] "=&r"(f)                     \
                       : [b] "r"(b), [fin] "r"(fin)                         \
                       : "cc");                                             \
    else                                                                    \
      __asm__ volatile(ENTER insn "l %k[b]" LEAVE                           \
                       : "+a"(a), "+d"(d), [f] "=&r"(f)                     \
                       : [b] "r"(b), [fin] "r"(fin)                         \
                       : "cc");                                             \
    *ax = a;                                                                \
    *dx = d;                                                                \
    return f;                                                               \
  }
ACC(op_mul, "mul")
ACC(op_imul, "imul")
ACC(op_div, "div")
ACC(op_idiv, "idiv")

/* VEX forms (BMI1/BMI2), 64-bit. AT&T: INSN src2, src1, dst. */
#define VEX3(name, insn)                                        \
  static u64 name(u64 *d, u64 s1, u64 s2, u64 fin) {            \
    u64 f, x;                                                   \
    __asm__ volatile(ENTER insn " %[s2], %[s1], %[x]" LEAVE     \
                     : [x] "=&r"(x), [f] "=&r"(f)               \
                     : [s1] "r"(s1), [s2] "r"(s2), [fin] "r"(fin) \
                     : "cc");                                   \
    *d = x;                                                     \
    return f;                                                   \
  }
VEX3(op_andn, "andnq")
VEX3(op_bextr, "bextrq")
VEX3(op_bzhi, "bzhiq")
#define VEX2(name, insn)                                         \
  static u64 name(u64 *d, u64 s, u64 fin) {                      \
    u64 f, x;                                                    \
    __asm__ volatile(ENTER insn " %[s], %[x]" LEAVE              \
                     : [x] "=&r"(x), [f] "=&r"(f)                \
                     : [s] "r"(s), [fin] "r"(fin)                \
                     : "cc");                                    \
    *d = x;                                                      \
    return f;                                                    \
  }
VEX2(op_blsi, "blsiq")
VEX2(op_blsmsk, "blsmskq")
VEX2(op_blsr, "blsrq")

/* Output: one line per family, flags as 3 hex digits, results folded in. */
static u64 fold;
static unsigned col;
static void begin(const char *name) {
  printf("%-8s", name);
  fold = 0;
  col = 0;
}
static void put(u64 f, u64 result) {
  printf(" %03llx", (unsigned long long)(f & ARITH));
  fold = fold * 31 + result;
  if (++col % 16 == 0) printf("\n        ");
}
static void end(void) { printf(" | %016llx\n", (unsigned long long)fold); }

typedef u64 (*binop)(int, u64 *, u64, u64);

static void run_bin(const char *name, binop op, int pairs) {
  static const int sizes[] = {2, 4, 8};
  begin(name);
  for (unsigned s = 0; s < 3; s++)
    for (unsigned i = 0; i < NVALS; i += pairs ? 3 : 1)
      for (unsigned k = 0; k < 4; k += 3) {
        u64 a = vals[i], b = vals[(i * 7 + 3) % NVALS];
        u64 f = op(sizes[s], &a, pairs ? b : vals[i], fins[k]);
        put(f, a);
      }
  end();
}

static void run_bsx(const char *name, binop op) {
  /* The destination starts as a marker: a zero source leaves it. */
  begin(name);
  for (int sz = 2; sz <= 8; sz *= 2)
    for (unsigned i = 0; i < NVALS; i++)
      for (unsigned k = 0; k < 4; k++) {
        u64 d = 0x5a5a5a5a5a5a5a5aull;
        u64 f = op(sz, &d, vals[i], fins[k]);
        put(f, d);
      }
  end();
}

static void run_shift(const char *name, binop op) {
  begin(name);
  for (int sz = 1; sz <= 8; sz *= 2)
    for (unsigned c = 0; c < NCOUNTS; c++)
      for (unsigned i = 1; i < NVALS; i += 4)
        for (unsigned k = 0; k < 4; k += 1) {
          u64 a = vals[(i + c) % NVALS];
          u64 f = op(sz, &a, counts[c], fins[k]);
          put(f, a);
        }
  end();
}

static void run_dshift(const char *name,
                       u64 (*op)(int, u64 *, u64, unsigned, u64)) {
  begin(name);
  for (int sz = 2; sz <= 8; sz *= 2)
    for (unsigned c = 0; c < NCOUNTS; c++)
      for (unsigned i = 0; i < NVALS; i += 3) {
        u64 a = vals[i], b = vals[(i + 5 + c) % NVALS];
        u64 f = op(sz, &a, b, counts[c], fins[(i + c) % 4]);
        put(f, a);
      }
  end();
}

static void run_acc(const char *name, u64 (*op)(int, u64 *, u64 *, u64, u64),
                    int divide) {
  begin(name);
  for (int sz = 4; sz <= 8; sz *= 4)
    for (unsigned i = 0; i < NVALS; i++)
      for (unsigned k = 0; k < 4; k++) {
        u64 ax = vals[i], dx = 0, b = vals[(i * 5 + k + 1) % NVALS];
        if (divide) {
          /* A quotient that fits: a small dividend high half, a
           * divisor other than 0, and (idiv) a positive dividend. */
          if (sz == 4) b = (uint32_t)b;
          if (!b) b = 3;
          if (op == op_idiv) {
            ax &= sz == 8 ? ~0ull >> 1 : 0x7fffffffull;
            if (sz == 4 ? (int32_t)b == -1 : (int64_t)b == -1) b = 5;
          }
        }
        u64 f = op(sz, &ax, &dx, b, fins[k]);
        put(f, ax ^ dx);
      }
  end();
}

int main(void) {
  unsigned a, b, c, d, ext_c = 0, ext_b = 0;
  if (__get_cpuid(0x80000001, &a, &b, &c, &d)) ext_c = c;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) ext_b = b;
  __get_cpuid(1, &a, &b, &c, &d);

  run_bin("and", op_and, 1);
  run_bin("or", op_or, 1);
  run_bin("xor", op_xor, 1);
  run_bin("test", op_test, 1);
  run_bin("imul2", op_imul2, 1);
  run_bin("bt", op_bt, 1);
  run_bin("bts", op_bts, 1);
  run_bin("btr", op_btr, 1);
  run_bin("btc", op_btc, 1);
  run_bsx("bsf", op_bsf);
  run_bsx("bsr", op_bsr);
  if (c & bit_POPCNT) run_bsx("popcnt", op_popcnt);
  if (ext_c & bit_LZCNT) run_bsx("lzcnt", op_lzcnt);
  if (ext_b & bit_BMI) run_bsx("tzcnt", op_tzcnt);
  run_shift("shl", op_shl);
  run_shift("shr", op_shr);
  run_shift("sar", op_sar);
  run_shift("rol", op_rol);
  run_shift("ror", op_ror);
  run_shift("rcl", op_rcl);
  run_shift("rcr", op_rcr);
  run_dshift("shld", op_shld_);
  run_dshift("shrd", op_shrd_);
  run_acc("mul", op_mul, 0);
  run_acc("imul", op_imul, 0);
  run_acc("div", op_div, 1);
  run_acc("idiv", op_idiv, 1);
  if (ext_b & bit_BMI) {
    begin("bmi1");
    for (unsigned i = 0; i < NVALS; i++)
      for (unsigned k = 0; k < 4; k++) {
        u64 x, y = vals[(i * 3 + k) % NVALS], f;
        f = op_andn(&x, vals[i], y, fins[k]);
        put(f, x);
        f = op_bextr(&x, vals[i], (i * 5 + k) | ((i + 3 * k) << 8), fins[k]);
        put(f, x);
        f = op_blsi(&x, vals[i], fins[k]);
        put(f, x);
        f = op_blsmsk(&x, vals[i], fins[k]);
        put(f, x);
        f = op_blsr(&x, vals[i], fins[k]);
        put(f, x);
      }
    end();
  }
  if (ext_b & bit_BMI2) {
    begin("bzhi");
    for (unsigned i = 0; i < NVALS; i++)
      for (unsigned k = 0; k < 4; k++) {
        u64 x, f = op_bzhi(&x, vals[i], counts[(i + k) % NCOUNTS] + k * 20,
                           fins[k]);
        put(f, x);
      }
    end();
  }
  return 0;
}
