/* SPDX-License-Identifier: MIT */
/* End-to-end checks of the x87 family (replayer/cpu/x87.c): a function of
 * this test program, compiled by gcc from long double C (arithmetic,
 * comparisons, conversions, a %Lf-style formatter) plus libm's x87
 * instructions, runs natively and in the emulator from this process's own
 * code and data pages, and the results must be bit-identical; the
 * formatter is checked against glibc's printf("%Lf") natively. Also: #MF is
 * raised at the next waiting instruction, not at the one that failed. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/cpu/emu_util.h"
#include "tests/cpu/tests.h"

#if defined(__has_attribute) && __has_attribute(no_stack_protector)
#define X87_NOSP __attribute__((no_stack_protector))
#else
#define X87_NOSP
#endif
/* The kernel runs in the emulator from this binary's pages: it must call
 * nothing (no sanitizer hooks, no stack protector reading fs:0x28). */
#define X87_PLAIN __attribute__((no_sanitize("address", "undefined"))) X87_NOSP
#define X87_KERNEL __attribute__((noinline)) X87_PLAIN

#define NIN 12  /* inputs */
#define NOUT 24 /* results per input */
#define FMT 48  /* formatted bytes per input */

/* The x87 instructions libm uses, on st(0) (and st(1)). */
#define X87_UNARY(name, insn)                                   \
  X87_PLAIN static inline long double name(long double x) {     \
    __asm__(insn : "+t"(x));                                    \
    return x;                                                   \
  }
X87_UNARY(x_sin, "fsin")
X87_UNARY(x_cos, "fcos")
X87_UNARY(x_sqrt, "fsqrt")
X87_UNARY(x_rndint, "frndint")
X87_UNARY(x_f2xm1, "f2xm1")
#undef X87_UNARY
X87_PLAIN static inline long double x_yl2x(long double y, long double x) {
  long double r;
  __asm__("fyl2x" : "=t"(r) : "0"(x), "u"(y) : "st(1)");
  return r;
}
X87_PLAIN static inline long double x_atan2(long double y, long double x) {
  long double r;
  __asm__("fpatan" : "=t"(r) : "0"(x), "u"(y) : "st(1)");
  return r;
}
X87_PLAIN static inline long double x_scale(long double x, long double e) {
  __asm__("fscale" : "+t"(x) : "u"(e));
  return x;
}
X87_PLAIN static inline long double x_prem(long double x, long double y) {
  __asm__("1: fprem\n\tfnstsw %%ax\n\ttestw $0x400, %%ax\n\tjnz 1b"
          : "+t"(x)
          : "u"(y)
          : "ax", "cc");
  return x;
}

/* Writes X with six decimals (glibc %Lf rounding: to nearest, ties to
 * even on the exact binary value) for |X| < 1e13 (X * 1e6 fits in 64
 * bits), else 'b' (or 'n' for a NaN). */
X87_KERNEL static char *fmt_Lf(char *p, long double x) {
  char tmp[40];
  int n = 0;
  if (x < 0 || (x == 0 && 1 / x < 0)) {
    *p++ = '-';
    x = -x;
  }
  if (!(x < 1e13L)) {
    *p++ = x != x ? 'n' : 'b';
    *p = 0;
    return p;
  }
  long double s = x_rndint(x * 1e6L); /* exact: x * 1e6 < 2^64 */
  unsigned long long v = (unsigned long long)s;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v || n < 7);
  while (n > 6) *p++ = tmp[--n];
  *p++ = '.';
  while (n > 0) *p++ = tmp[--n];
  *p = 0;
  return p;
}

/* Long double work of the kind glibc, libstdc++ and python do. */
X87_KERNEL static void x87_kernel(const long double *in, long double *out,
                                  char *fmt, long long *iout) {
  for (int k = 0; k < NIN; k++) {
    long double x = in[k], y = in[(k + 1) % NIN], *o = out + k * NOUT;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / (y == 0 ? 3.0L : y);
    o[4] = x < y ? x : y; /* fcmov or a branch */
    o[5] = x > y ? x * 2 : -y;
    o[6] = (long double)(double)x; /* fstp m64 / fld m64 */
    o[7] = (long double)(float)y;
    o[8] = (long double)(long long)(x * 1000.0L); /* fnstcw/fldcw/fistp */
    o[9] = (long double)(int)(y / 7.0L);
    o[10] = x_sqrt(x < 0 ? -x : x);
    o[11] = x_sin(x);
    o[12] = x_cos(y);
    o[13] = x_atan2(x, y);
    o[14] = x_yl2x(1.0L, (x < 0 ? -x : x) + 1.0L);
    o[15] = x_scale(x_f2xm1(0.5L) + 1.0L, 3.0L);
    o[16] = x_prem(x, y == 0 ? 7.0L : y);
    o[17] = x_rndint(x * 3.5L);
    o[18] = (long double)k * x - (long double)(short)k;
    long double acc = 1.0L;
    for (int i = 1; i < 20; i++) acc = acc * x / (long double)i + 1.0L;
    o[19] = acc;
    o[20] = x == y ? 1.0L : x != x ? 2.0L : 3.0L;
    iout[k] = (long long)(x * 1e6L);
    fmt_Lf(fmt + k * FMT, x);
  }
}

static const long double inputs[NIN] = {
    3.14159265358979323846L, -2.718281828459045235L, 0.1L, 1.0L / 3.0L,
    -0.0L, 1e-4000L, 123456.789L, -7.5L, 1e16L, 0.5L, 2.0L, 65535.25L};

/* Copies N bytes (a multiple of 8) from SRC without the sanitizers, which
 * would object to the redzones between this image's globals. */
X87_PLAIN static void copy_raw(void *dst, const void *src, size_t n) {
  const volatile u64 *s = src;
  u64 *d = dst;
  for (size_t i = 0; i < n / 8; i++) d[i] = s[i];
}

/* Maps this process's own image (every mapping of /proc/self/exe) into
 * E at the same addresses, so the kernel's code and constants are there. */
static int map_self(struct emu *e) {
  char exe[4096], line[4608];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  FILE *f = fopen("/proc/self/maps", "r");
  int rc = 0, found = 0;
  if (n <= 0 || !f) {
    if (f) fclose(f);
    return -1;
  }
  exe[n] = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    char perm[8], path[4096] = "";
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &lo, &hi, perm,
               path) < 3 ||
        strcmp(path, exe))
      continue;
    int prot = CPU_PROT_READ | (perm[1] == 'w' ? CPU_PROT_WRITE : 0) |
               (perm[2] == 'x' ? CPU_PROT_EXEC : 0);
    void *copy = perm[0] == 'r' ? malloc(hi - lo) : NULL;
    if (copy) copy_raw(copy, (const void *)lo, hi - lo);
    if (!copy || cpu_mem_map(e->mem, lo, hi - lo, prot) ||
        cpu_mem_write(e->mem, lo, copy, hi - lo))
      rc = -1;
    free(copy);
    if (rc) break;
    found = 1;
  }
  fclose(f);
  return rc || !found ? -1 : 0;
}

void test_x87_long_double_program(void) {
  static long double nat_out[NIN * NOUT], emu_out[NIN * NOUT];
  static char nat_fmt[NIN * FMT], emu_fmt[NIN * FMT];
  static long long nat_i[NIN], emu_i[NIN];
  static const u8 stub[] = {0xcc};
  const u64 in_a = EMU_DATA, out_a = EMU_DATA + 0x1000,
            fmt_a = EMU_DATA + 0x4000, i_a = EMU_DATA + 0x5000,
            ret_a = EMU_CODE;
  struct emu e;
  struct cpu_exit ex;
  memset(nat_out, 0, sizeof nat_out);
  memset(emu_out, 0, sizeof emu_out);
  x87_kernel(inputs, nat_out, nat_fmt, nat_i);
  /* The formatter agrees with glibc. */
  for (int k = 0; k < NIN; k++) {
    char want[64];
    if (!(inputs[k] < 1e13L && inputs[k] > -1e13L)) continue;
    snprintf(want, sizeof want, "%Lf", inputs[k]);
    CU_ASSERT_STRING_EQUAL(nat_fmt + k * FMT, want);
  }
  /* The same call in the emulator: return address on an int3. */
  CU_ASSERT_FATAL(emu_open(&e, stub, sizeof stub) == 0);
  CU_ASSERT_FATAL(map_self(&e) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, in_a, inputs, sizeof inputs) == 0);
  u64 sp = emu_reg(&e, RW_REG_rsp) & ~15ull;
  sp -= 8;
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, sp, &ret_a, 8) == 0);
  emu_set_reg(&e, RW_REG_rsp, sp);
  emu_set_reg(&e, RW_REG_rdi, in_a);
  emu_set_reg(&e, RW_REG_rsi, out_a);
  emu_set_reg(&e, RW_REG_rdx, fmt_a);
  emu_set_reg(&e, RW_REG_rcx, i_a);
  struct rw_regs regs;
  cpu_get_regs(e.cpu, &regs);
  regs.rip = (u64)(uintptr_t)x87_kernel;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &regs) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  if (ex.reason != CPU_EXIT_FAULT) printf("\n  emulator: %s\n", ex.msg);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  CU_ASSERT_EQUAL(ex.rip, ret_a + 1);
  CU_ASSERT(cpu_mem_read(e.mem, out_a, emu_out, sizeof emu_out) == 0);
  CU_ASSERT(cpu_mem_read(e.mem, fmt_a, emu_fmt, sizeof emu_fmt) == 0);
  CU_ASSERT(cpu_mem_read(e.mem, i_a, emu_i, sizeof emu_i) == 0);
  for (int i = 0; i < NIN * NOUT; i++)
    if (memcmp(&nat_out[i], &emu_out[i], 10)) {
      printf("\n  input %d result %d: native %.21Lg emulator %.21Lg", i / NOUT,
             i % NOUT, nat_out[i], emu_out[i]);
      CU_FAIL("a long double result differs");
    }
  CU_ASSERT(memcmp(nat_fmt, emu_fmt, sizeof nat_fmt) == 0);
  CU_ASSERT(memcmp(nat_i, emu_i, sizeof nat_i) == 0);
  emu_close(&e);
}

void test_x87_mf_at_next_waiting(void) {
  /* fldcw [rip+L] (unmask ZE); fldz; fld1; fdivrp (1/0: ZE pending);
   * fnstsw ax (no wait); fnop (#MF here); int3; L: dw 0x37b */
  static const u8 p[] = {0xd9, 0x2d, 0x0b, 0, 0, 0, 0xd9, 0xee, 0xd9,
                         0xe8, 0xde, 0xf1, 0xdf, 0xe0, 0xd9, 0xd0, 0xcc,
                         0x7b, 0x03};
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs regs;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_MF);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 14);
  /* fnstsw saw ZE, ES and B; the state keeps them and FIP shows fdivrp. */
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax) & 0x8084, 0x8084);
  cpu_get_regs(e.cpu, &regs);
  CU_ASSERT_EQUAL(regs.fxsave[2] & 0x84, 0x84);
  u64 fip;
  memcpy(&fip, regs.fxsave + 8, 8);
  CU_ASSERT_EQUAL(fip, EMU_CODE + 10);
  CU_ASSERT_EQUAL(regs.fxsave[6] | regs.fxsave[7] << 8, 0x6f1);
  emu_close(&e);
}
