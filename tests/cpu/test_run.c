/* SPDX-License-Identifier: MIT */
/* The run loop (replayer/cpu/run.c): exact budgets against single-stepping,
 * rep instructions interrupted and resumed, precise faults, breakpoints in
 * decoded blocks, self-modifying code, exits to the caller, watchpoints,
 * the stop request and observers. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/cpu/emu_util.h"
#include "tests/cpu/tests.h"

/* mov ecx,100; L: add rax,rcx; xor rdx,rax; lea rsi,[rdx+rdx*2]; dec ecx;
 * jne L; int3 -- 502 instructions. */
static const u8 loop_prog[] = {0xb9, 0x64, 0,    0,    0,    0x48, 0x01,
                               0xc8, 0x48, 0x31, 0xc2, 0x48, 0x8d, 0x34,
                               0x52, 0xff, 0xc9, 0x75, 0xf2, 0xcc};

struct snap {
  u64 icount, rip, rax, rdx, rsi, rcx;
};

static struct snap take(struct emu *e) {
  struct snap s = {cpu_icount(e->cpu),     emu_rip(e),
                   emu_reg(e, RW_REG_rax), emu_reg(e, RW_REG_rdx),
                   emu_reg(e, RW_REG_rsi), emu_reg(e, RW_REG_rcx)};
  return s;
}

void test_run_budget_exact(void) {
  static struct snap trace[600];
  struct emu e;
  struct cpu_exit ex;
  unsigned n = 0;
  static const u64 budgets[] = {1, 2, 3, 5, 17, 250, 501, 1000};
  CU_ASSERT_FATAL(emu_open(&e, loop_prog, sizeof loop_prog) == 0);
  trace[n++] = take(&e);
  for (;;) {
    CU_ASSERT_FATAL(cpu_run(e.cpu, 1, &ex) == 0);
    trace[n++] = take(&e);
    if (ex.reason != CPU_EXIT_BUDGET) break;
    CU_ASSERT_FATAL(n < 600);
  }
  CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 502);
  emu_close(&e);
  for (unsigned i = 0; i < RW_ARRAY_SIZE(budgets); i++) {
    u64 b = budgets[i], want = b < 502 ? b : 502;
    struct snap s;
    CU_ASSERT_FATAL(emu_open(&e, loop_prog, sizeof loop_prog) == 0);
    CU_ASSERT_FATAL(cpu_run(e.cpu, b, &ex) == 0);
    CU_ASSERT_EQUAL(ex.reason, b < 502 ? CPU_EXIT_BUDGET : CPU_EXIT_FAULT);
    s = take(&e);
    CU_ASSERT_EQUAL(s.icount, want);
    CU_ASSERT(memcmp(&s, &trace[want], sizeof s) == 0);
    /* The rest of the way in one more run ends where stepping did. */
    if (b < 502) {
      CU_ASSERT(emu_run(&e, NULL) == CPU_EXIT_FAULT);
      s = take(&e);
      CU_ASSERT(memcmp(&s, &trace[502], sizeof s) == 0);
    }
    emu_close(&e);
  }
}

/* mov rcx,100; mov rdi,0x600000; mov al,0x5a; rep stosb; int3 */
static const u8 rep_prog[] = {0x48, 0xc7, 0xc1, 0x64, 0,    0,   0, 0x48,
                              0xbf, 0,    0,    0x60, 0,    0,   0, 0,
                              0,    0xb0, 0x5a, 0xf3, 0xaa, 0xcc};
#define REP_AT (EMU_CODE + 19)

void test_run_rep_budget_resumes(void) {
  struct emu e;
  struct cpu_exit ex;
  u8 buf[101];
  CU_ASSERT_FATAL(emu_open(&e, rep_prog, sizeof rep_prog) == 0);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 3, &ex) == 0);
  CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_BUDGET);
  CU_ASSERT_EQUAL(emu_rip(&e), REP_AT);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rcx), 100);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 37, &ex) == 0);
  CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_BUDGET);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 40);
  CU_ASSERT_EQUAL(emu_rip(&e), REP_AT);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rcx), 63);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rdi), 0x600000 + 37);
  /* One step is one iteration. */
  CU_ASSERT_FATAL(cpu_run(e.cpu, 1, &ex) == 0);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rcx), 62);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 3 + 100 + 1);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rcx), 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, buf, sizeof buf) == 0);
  for (int i = 0; i < 100; i++) CU_ASSERT_EQUAL(buf[i], 0x5a);
  CU_ASSERT_EQUAL(buf[100], 0);
  emu_close(&e);
}

void test_run_fault_is_precise(void) {
  /* mov rax,0x11; mov rbx,[0xdd00000]; int3 */
  static const u8 p1[] = {0x48, 0xc7, 0xc0, 0x11, 0, 0,    0,    0x48,
                          0x8b, 0x1c, 0x25, 0,    0, 0xd0, 0x0d, 0xcc};
  /* xor ecx,ecx; div rcx */
  static const u8 p2[] = {0x31, 0xc9, 0x48, 0xf7, 0xf1};
  /* push rax (with rsp pointing at an unmapped page) */
  static const u8 p3[] = {0x50};
  /* mov [rip+0],rax: a store into read-only code; ud2 */
  static const u8 p4[] = {0x48, 0x89, 0x05, 0, 0, 0, 0, 0x0f, 0x0b};
  /* mov eax,1; movd xmm0,eax; add rax,rax; mov rbx,[0xdd00000]; int3: a
   * fault inside a block mixing chained and unchained handlers */
  static const u8 p5[] = {0xb8, 1,    0,    0,    0,    0x66, 0x0f,
                          0x6e, 0xc0, 0x48, 0x01, 0xc0, 0x48, 0x8b,
                          0x1c, 0x25, 0,    0,    0xd0, 0x0d, 0xcc};
  struct emu e;
  struct cpu_exit ex;
  CU_ASSERT_FATAL(emu_open(&e, p1, sizeof p1) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_PF);
  CU_ASSERT_EQUAL(ex.addr, 0xdd00000);
  CU_ASSERT_EQUAL(ex.access, CPU_ACCESS_READ);
  CU_ASSERT_EQUAL(ex.maperr, 1);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 7);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 7);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 1);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rbx), 0);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax), 0x11);
  emu_close(&e);

  CU_ASSERT_FATAL(emu_open(&e, p2, sizeof p2) == 0);
  emu_set_reg(&e, RW_REG_rax, 7);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_DE);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 2);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax), 7);
  emu_close(&e);

  CU_ASSERT_FATAL(emu_open(&e, p3, sizeof p3) == 0);
  emu_set_reg(&e, RW_REG_rsp, 0x1000);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_PF);
  CU_ASSERT_EQUAL(ex.addr, 0xff8);
  CU_ASSERT_EQUAL(ex.access, CPU_ACCESS_WRITE);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rsp), 0x1000);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 0);
  emu_close(&e);

  CU_ASSERT_FATAL(emu_open(&e, p4, sizeof p4) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_PF);
  CU_ASSERT_EQUAL(ex.maperr, 0);
  CU_ASSERT_EQUAL(ex.addr, EMU_CODE + 7);
  emu_close(&e);

  CU_ASSERT_FATAL(emu_open(&e, p5, sizeof p5) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_PF);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 12);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 3);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax), 2);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rbx), 0);
  emu_close(&e);
}

void test_run_breakpoint_inside_block(void) {
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  CU_ASSERT_FATAL(emu_open(&e, loop_prog, sizeof loop_prog) == 0);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT); /* blocks decoded */
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  cpu_set_icount(e.cpu, 0);
  CU_ASSERT_FATAL(cpu_mem_break_add(e.mem, EMU_CODE + 0xb) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_BREAKPOINT);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 0xb);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 3);
  /* Continuing steps off it and stops there in the next iteration. */
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_BREAKPOINT);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 8);
  CU_ASSERT_FATAL(cpu_mem_break_del(e.mem, EMU_CODE + 0xb) == 0);
  CU_ASSERT_EQUAL(cpu_mem_break_del(e.mem, EMU_CODE + 0xb), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 502);
  emu_close(&e);
}

void test_run_self_modifying_code(void) {
  /* mov byte [rip+1],5 (the imm of the next instruction); mov eax,1; int3 */
  static const u8 p[] = {0xc6, 0x05, 0x01, 0, 0, 0,   0x05,
                         0xb8, 0x01, 0,    0, 0, 0xcc};
  static const u8 nine = 9;
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(
      cpu_mem_protect(e.mem, EMU_CODE, 0x1000,
                      CPU_PROT_READ | CPU_PROT_WRITE | CPU_PROT_EXEC) == 0);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax), 5);
  /* A write from outside (a memory import) is seen too. */
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, EMU_CODE + 8, &nine, 1) == 0);
  r.rip = EMU_CODE + 7;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax), 9);
  emu_close(&e);
}

void test_run_unsupported_message(void) {
  /* AVX512ER vexp2ps zmm0, zmm1 (Xeon Phi only: never emulated) */
  static const u8 p[] = {0x62, 0xf2, 0x7d, 0x48, 0xc8, 0xc1};
  /* AVX-VNNI-INT8 vpdpbssd ymm0, ymm1, ymm1: Capstone 4 has no name */
  static const u8 q[] = {0xc4, 0xe2, 0x77, 0x50, 0xc1, 0x90};
  /* AVX10.2 vaddbf16 zmm0, zmm0, zmm1: EVEX map 5, as vaddph but 66 */
  static const u8 f[] = {0x62, 0xf5, 0x7d, 0x48, 0x58, 0xc1};
  struct emu e;
  struct cpu_exit ex;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_UNSUPPORTED);
  CU_ASSERT_STRING_EQUAL(ex.msg,
                         "unsupported instruction vexp2ps (62 f2 7d 48 c8 c1) "
                         "at 0x400000");
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE);
  CU_ASSERT_EQUAL(ex.insn_len, 6);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 0);
  emu_close(&e);
  CU_ASSERT_FATAL(emu_open(&e, q, sizeof q) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_UNSUPPORTED);
  CU_ASSERT_STRING_EQUAL(ex.msg,
                         "unsupported instruction VEX.256.F2.map2.W0 50 "
                         "(c4 e2 77 50 c1) at 0x400000");
  CU_ASSERT_EQUAL(ex.insn_len, 5);
  emu_close(&e);
  CU_ASSERT_FATAL(emu_open(&e, f, sizeof f) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_UNSUPPORTED);
  CU_ASSERT_STRING_EQUAL(ex.msg,
                         "unsupported instruction EVEX.512.66.map5.W0 58 "
                         "(62 f5 7d 48 58 c1) at 0x400000");
  emu_close(&e);
}

/* MOVDIRI and MOVDIR64B, which Capstone 4 cannot decode, run as the CPU
 * runs them (movdir.c): movdiri at any alignment, movdir64b from any
 * source to a 64-byte aligned destination, #GP for one that is not. */
void test_run_movdir(void) {
  static const u8 p[] = {
      0x48, 0x0f, 0x38, 0xf9, 0x07,       /* movdiri [rdi], rax */
      0x0f, 0x38, 0xf9, 0x4f, 0x0b,       /* movdiri [rdi+11], ecx */
      0x66, 0x0f, 0x38, 0xf8, 0x77, 0x45, /* movdir64b rsi, [rdi+0x45] */
      0x66, 0x0f, 0x38, 0xf8, 0x17,       /* movdir64b rdx, [rdi] */
  };
  u8 src[64], buf[64];
  struct emu e;
  struct cpu_exit ex;
  for (int i = 0; i < 64; i++) src[i] = (u8)(i * 3 + 1);
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x600045, src, 64) == 0);
  emu_set_reg(&e, RW_REG_rdi, 0x600000);
  emu_set_reg(&e, RW_REG_rax, 0x1122334455667788ull);
  emu_set_reg(&e, RW_REG_rcx, 0xffffffffaabbccddull);
  emu_set_reg(&e, RW_REG_rsi, 0x600100);
  emu_set_reg(&e, RW_REG_rdx, 0x600208);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 16);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 3);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, buf, 16) == 0);
  static const u8 want[16] = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                              0, 0, 0, 0xdd, 0xcc, 0xbb, 0xaa, 0};
  CU_ASSERT_EQUAL(memcmp(buf, want, 16), 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600100, buf, 64) == 0);
  CU_ASSERT_EQUAL(memcmp(buf, src, 64), 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600200, buf, 64) == 0);
  for (int i = 0; i < 64; i++) CU_ASSERT_EQUAL(buf[i], 0);
  emu_close(&e);
}

/* clflush, clflushopt and clwb change nothing the program sees, but fault
 * as a byte load from their operand would: a flush of code (read-only)
 * runs, one of an unmapped address is #PF, a read access. */
void test_run_clflush(void) {
  static const u8 p[] = {
      0x0f, 0xae, 0x3f,             /* clflush [rdi] */
      0x66, 0x0f, 0xae, 0x7f, 0x40, /* clflushopt [rdi+0x40] */
      0x66, 0x0f, 0xae, 0x37,       /* clwb [rdi] */
      0x0f, 0xae, 0x38,             /* clflush [rax]: code, read-only */
      0x0f, 0xae, 0x3e,             /* clflush [rsi]: unmapped */
  };
  u8 buf[0x80], want[0x80];
  struct emu e;
  struct cpu_exit ex;
  for (int i = 0; i < 0x80; i++) want[i] = (u8)(i * 7);
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x600000, want, sizeof want) == 0);
  emu_set_reg(&e, RW_REG_rdi, 0x600000);
  emu_set_reg(&e, RW_REG_rax, EMU_CODE);
  emu_set_reg(&e, RW_REG_rsi, 0xdd00000);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_PF);
  CU_ASSERT_EQUAL(ex.addr, 0xdd00000);
  CU_ASSERT_EQUAL(ex.access, CPU_ACCESS_READ);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 15);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 4);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, buf, sizeof buf) == 0);
  CU_ASSERT_EQUAL(memcmp(buf, want, sizeof buf), 0);
  emu_close(&e);
}

/* int n: vector 3 is int3's trap (rip after the instruction); any other
 * a user program may reach faults with #GP at the instruction. */
void test_run_int_n(void) {
  static const u8 p[] = {
      0xcd, 0x03, /* int 3 */
      0xcd, 0x80, /* int 0x80 */
  };
  struct emu e;
  struct cpu_exit ex;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 2);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 2);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 1);
  emu_close(&e);
}

/* rdfsbase and kin: the bases cpu_set_regs gave, 32-bit forms zero-
 * extended, a write seen by an fs-relative load, #GP for a base that is
 * not canonical. */
void test_run_fsgsbase(void) {
  static const u8 p[] = {
      0xf3, 0x48, 0x0f, 0xae, 0xc0,       /* rdfsbase rax */
      0xf3, 0x0f, 0xae, 0xcb,             /* rdgsbase ebx */
      0xf3, 0x48, 0x0f, 0xae, 0xd1,       /* wrfsbase rcx */
      0x64, 0x48, 0x8b, 0x14, 0x25, 0x08, /* mov rdx, fs:[8] */
      0x00, 0x00, 0x00,
      0xf3, 0x0f, 0xae, 0xde,             /* wrgsbase esi */
      0xf3, 0x48, 0x0f, 0xae, 0xdf,       /* wrgsbase rdi: #GP */
  };
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  const u64 val = 0x1122334455667788ull;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x600008, &val, 8) == 0);
  cpu_get_regs(e.cpu, &r);
  r.fs_base = 0x7fff12345678ull;
  r.gs_base = 0xffffffff87654321ull;
  r.gpr[RW_REG_rcx] = 0x600000;
  r.gpr[RW_REG_rsi] = 0xffffffff00abc000ull;
  r.gpr[RW_REG_rdi] = 0x0000800000000000ull;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 27);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_rax], 0x7fff12345678ull);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_rbx], 0x87654321ull);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_rdx], val);
  CU_ASSERT_EQUAL(r.fs_base, 0x600000);
  CU_ASSERT_EQUAL(r.gs_base, 0xabc000);
  emu_close(&e);
}

/* The recorded CPUID of a CPU without OSPKE and CLZERO. */
static int no_pku(void *ctx, u32 leaf, u32 subleaf, u32 out[4]) {
  (void)ctx, (void)leaf, (void)subleaf;
  memset(out, 0, 16);
  return 0;
}

/* rdpkru, wrpkru and clzero, which Capstone 4 cannot decode, run as the
 * CPU runs them (pku.c): PKRU is a register of the thread's state; a
 * nonzero ECX (or EDX for wrpkru) is #GP; clzero zeroes the aligned line
 * that holds [rax]; without OSPKE or CLZERO in CPUID each is #UD. */
void test_run_pku_clzero(void) {
  static const u8 p[] = {
      0x0f, 0x01, 0xef,             /* wrpkru */
      0xb8, 0x47, 0x00, 0x60, 0x00, /* mov eax, 0x600047 */
      0x0f, 0x01, 0xfc,             /* clzero */
      0x0f, 0x01, 0xee,             /* rdpkru */
      0xff, 0xc1,                   /* inc ecx */
      0x0f, 0x01, 0xee,             /* rdpkru: #GP */
  };
  u8 buf[0x100], ff[0x100];
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  memset(ff, 0xff, sizeof ff);
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x600000, ff, sizeof ff) == 0);
  emu_set_reg(&e, RW_REG_rax, 0xffffffff5555555cull);
  emu_set_reg(&e, RW_REG_rdx, 0xffffffff00000000ull); /* EDX 0 */
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 16);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 5);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax), 0x5555555c);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rdx), 0);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.pkru, 0x5555555c);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, buf, sizeof buf) == 0);
  for (int i = 0; i < 0x100; i++)
    CU_ASSERT_EQUAL(buf[i], i >= 0x40 && i < 0x80 ? 0 : 0xff);
  /* wrpkru with EDX nonzero: #GP, PKRU kept. */
  r.rip = EMU_CODE;
  r.gpr[RW_REG_rcx] = 0;
  r.gpr[RW_REG_rdx] = 1;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.pkru, 0x5555555c);
  /* A recording CPU without them: #UD. Its own address space, since the
   * threads of one share decoded code (cpu_new). */
  struct emu f;
  struct cpu_config cfg = {.cpuid = no_pku};
  cpu_thread *c;
  CU_ASSERT_FATAL(emu_open(&f, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu_new(f.mem, &cfg, &c) == 0);
  static const unsigned at[] = {0, 8, 11};
  for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
    r.rip = EMU_CODE + at[k];
    r.gpr[RW_REG_rdx] = 0;
    CU_ASSERT_FATAL(cpu_set_regs(c, &r) == 0);
    CU_ASSERT_FATAL(cpu_run(c, 1, &ex) == 0);
    CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_FAULT);
    CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_UD);
  }
  cpu_free(c);
  emu_close(&f);
  emu_close(&e);
}

/* A CPU whose XSAVE area has PKRU (component 9) at 2432, as AMD Zen 3's. */
static int pku_cpuid(void *ctx, u32 leaf, u32 subleaf, u32 out[4]) {
  (void)ctx;
  memset(out, 0, 16);
  if (leaf == 0) out[0] = 0xd;     /* the highest leaf */
  if (leaf == 7) out[2] = 1u << 4; /* OSPKE */
  if (leaf == 0xd && subleaf == 9) out[0] = 8, out[1] = 2432;
  return 0;
}

/* xsave writes PKRU as component 9 and counts it in use when it is not
 * 0 (as measured on Zen 3); xrstor loads it, or its initial state 0. */
void test_run_pku_xsave(void) {
  static const u8 p[] = {
      0x0f, 0x01, 0xef, /* wrpkru (eax 4) */
      0xb8, 0x00, 0x02, 0x00, 0x00, /* mov eax, 0x200 */
      0x0f, 0xae, 0x27, /* xsave [rdi] */
      0x0f, 0xae, 0x2e, /* xrstor [rsi] */
      0xf4,             /* hlt */
  };
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  u8 img[8];
  u64 bv;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  struct cpu_config cfg = {.cpuid = pku_cpuid, .xcr0 = 0x207};
  cpu_thread *c;
  CU_ASSERT_FATAL(cpu_new(e.mem, &cfg, &c) == 0);
  cpu_get_regs(e.cpu, &r);
  r.gpr[RW_REG_rax] = 4;
  r.gpr[RW_REG_rdi] = 0x600000;
  r.gpr[RW_REG_rsi] = 0x601000; /* all zero: XSTATE_BV 0 */
  CU_ASSERT_FATAL(cpu_set_regs(c, &r) == 0);
  CU_ASSERT_FATAL(cpu_run(c, 3, &ex) == 0);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000 + 512, &bv, 8) == 0);
  CU_ASSERT_EQUAL(bv, 0x200);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000 + 2432, img, 8) == 0);
  CU_ASSERT_EQUAL(img[0], 4);
  cpu_get_regs(c, &r);
  CU_ASSERT_EQUAL(r.pkru, 4);
  CU_ASSERT_FATAL(cpu_run(c, 1, &ex) == 0);
  cpu_get_regs(c, &r);
  CU_ASSERT_EQUAL(r.pkru, 0);
  CU_ASSERT_EQUAL(r.rip, EMU_CODE + 14);
  cpu_free(c);
  emu_close(&e);
}

/* cpuid for xinuse_intel: leaf 0 only; every other leaf empty. */
static int intel_cpuid(void *ctx, u32 leaf, u32 subleaf, u32 out[4]) {
  (void)ctx;
  (void)subleaf;
  memset(out, 0, 16);
  if (leaf == 0) { /* "GenuineIntel" */
    out[0] = 0xd;
    out[1] = 0x756e6547;
    out[2] = 0x6c65746e;
    out[3] = 0x49656e69;
  }
  return 0;
}

/* XINUSE on an Intel recording (replayer/cpu/xinuse.c): writes mark their
 * component whatever the value, reads and fnstcw do not, vzeroupper and
 * vzeroall clear, and xgetbv 1 reports it; on any host. */
void test_run_xinuse_intel(void) {
  static const u8 p[] = {
      0x0f, 0xae, 0x2e,             /* xrstor [rsi]: all initial */
      0xb9, 0x01, 0x00, 0x00, 0x00, /* mov ecx, 1 */
      0x0f, 0x01, 0xd0,             /* xgetbv: eax 0 */
      0x41, 0x89, 0xc0,             /* mov r8d, eax */
      0xd9, 0x3f,                   /* fnstcw [rdi]: no mark */
      0x66, 0x0f, 0x7e, 0xc0,       /* movd eax, xmm0: a read, no mark */
      0x66, 0x0f, 0xef, 0xc0,       /* pxor xmm0, xmm0: SSE, value 0 */
      0x0f, 0x01, 0xd0,             /* xgetbv: 2 */
      0x41, 0x89, 0xc1,             /* mov r9d, eax */
      0xc5, 0xfd, 0xef, 0xc9,       /* vpxor ymm1, ymm0, ymm1: AVX */
      0xd9, 0xe8,                   /* fld1: x87 */
      0x0f, 0x01, 0xd0,             /* xgetbv: 7 */
      0x41, 0x89, 0xc2,             /* mov r10d, eax */
      0xc5, 0xf8, 0x77,             /* vzeroupper */
      0x0f, 0x01, 0xd0,             /* xgetbv: 3 */
      0x41, 0x89, 0xc3,             /* mov r11d, eax */
      0xc5, 0xfc, 0x77,             /* vzeroall */
      0x0f, 0x01, 0xd0,             /* xgetbv: 1 */
      0x89, 0xc3,                   /* mov ebx, eax */
      /* vzeroupper inside a block: what came before it in the block
       * counts, then it clears; what comes after counts again */
      0xb8, 0x07, 0x00, 0x00, 0x00, /* mov eax, 7 */
      0x0f, 0xae, 0x2e,             /* xrstor [rsi]: all initial */
      0xd9, 0xe8,                   /* fld1: x87 */
      0xc5, 0xfd, 0xef, 0xc9,       /* vpxor ymm1, ymm0, ymm1: AVX */
      0xc5, 0xf8, 0x77,             /* vzeroupper */
      0x0f, 0x01, 0xd0,             /* xgetbv: 3 */
      0x41, 0x89, 0xc4,             /* mov r12d, eax */
      0xb8, 0x07, 0x00, 0x00, 0x00, /* mov eax, 7 */
      0x0f, 0xae, 0x2e,             /* xrstor [rsi]: all initial */
      0xc5, 0xfd, 0xef, 0xc9,       /* vpxor ymm1, ymm0, ymm1: AVX */
      0xc5, 0xf8, 0x77,             /* vzeroupper */
      0xc5, 0xed, 0xef, 0xd2,       /* vpxor ymm2, ymm2, ymm2: AVX */
      0x0f, 0x01, 0xd0,             /* xgetbv: 6 */
      0xcc,                         /* int3 */
  };
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  u8 zero[576] = {0};
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  struct cpu_config cfg = {
      .cpuid = intel_cpuid, .xcr0 = 7, .vendor = CPU_VENDOR_INTEL};
  cpu_thread *c;
  CU_ASSERT_FATAL(cpu_new(e.mem, &cfg, &c) == 0);
  zero[24] = 0x80; /* MXCSR 1F80h: not counted as SSE in use */
  zero[25] = 0x1f;
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, 0x601000, zero, sizeof zero) == 0);
  cpu_get_regs(e.cpu, &r);
  r.gpr[RW_REG_rax] = 7;
  r.gpr[RW_REG_rdx] = 0;
  r.gpr[RW_REG_rsi] = 0x601000;
  r.gpr[RW_REG_rdi] = 0x600000;
  CU_ASSERT_FATAL(cpu_set_regs(c, &r) == 0);
  cpu_set_xinuse(c, 7);
  CU_ASSERT_EQUAL(cpu_run(c, 100, &ex), 0);
  CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  cpu_get_regs(c, &r);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_r8], 0);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_r9], 2);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_r10], 7);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_r11], 3);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_rbx], 1);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_r12], 3);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_rax], 6);
  CU_ASSERT_EQUAL(cpu_xinuse(c), 6);
  cpu_free(c);
  emu_close(&e);
}

/* XSAVE on an Intel recording into an area whose first page is read-only
 * and whose last is writable (measured on a Xeon): the fault names the
 * first byte RFBM says is written (FCW with x87, MXCSR with SSE or AVX,
 * else the header), and an area whose header and components lie in the
 * writable page saves without touching the other. One wholly read-only
 * faults at its last byte. */
void test_run_xsave_intel_first_byte(void) {
  static const u8 p[] = {0x0f, 0xae, 0x27}; /* xsave [rdi] */
  static const struct {
    u32 rfbm;
    u64 at;   /* area's offset below the writable page */
    int fault;
    u64 addr; /* the fault's offset in the area */
  } c[] = {
      {7, 192, 1, 0},  {6, 192, 1, 24}, {4, 192, 1, 24}, {1, 64, 1, 0},
      {0, 512, 0, 0},  {0, 448, 0, 0},   /* the header is the first */
      {4, 832, 1, 831}, {0, 576, 1, 575}, /* all read-only: the last byte */
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    struct emu e;
    struct cpu_exit ex;
    struct rw_regs r;
    cpu_thread *t;
    u64 page = EMU_DATA + 0x1000, a = page + 0x1000 - c[i].at;
    struct cpu_config cfg = {
        .cpuid = intel_cpuid, .xcr0 = 7, .vendor = CPU_VENDOR_INTEL};
    CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
    CU_ASSERT_FATAL(cpu_mem_protect(e.mem, page, 0x1000, CPU_PROT_READ) == 0);
    CU_ASSERT_FATAL(cpu_new(e.mem, &cfg, &t) == 0);
    cpu_get_regs(e.cpu, &r);
    r.gpr[RW_REG_rax] = c[i].rfbm;
    r.gpr[RW_REG_rdx] = 0;
    r.gpr[RW_REG_rdi] = a;
    CU_ASSERT_FATAL(cpu_set_regs(t, &r) == 0);
    CU_ASSERT_EQUAL(cpu_run(t, 1, &ex), 0);
    if (c[i].fault) {
      CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_FAULT);
      CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_PF);
      CU_ASSERT_EQUAL(ex.addr, a + c[i].addr);
    } else {
      cpu_get_regs(t, &r);
      CU_ASSERT_NOT_EQUAL(ex.reason, CPU_EXIT_FAULT);
      CU_ASSERT_EQUAL(r.rip, EMU_CODE + sizeof p);
    }
    cpu_free(t);
    emu_close(&e);
  }
}

/* Instructions Capstone 4 cannot decode, or decodes as another one because
 * it ignores their mandatory prefix, stop the replay under their own names
 * and lengths: rdpid must not run as rdseed, umwait not as mfence. */
void test_run_unsupported_misdecoded(void) {
  static const struct {
    u8 b[12];
    unsigned n;
    const char *msg;
  } t[] = {
      {{0x0f, 0x01, 0xfd, 0x90}, 4,
       "unsupported instruction rdpru (0f 01 fd) at 0x400000"},
      {{0xf3, 0x0f, 0xc7, 0xf8, 0x90}, 5,
       "unsupported instruction rdpid (f3 0f c7 f8) at 0x400000"},
      {{0xf2, 0x0f, 0xae, 0xf1, 0x90}, 5,
       "unsupported instruction umwait (f2 0f ae f1) at 0x400000"},
      {{0x66, 0x0f, 0xae, 0xf1, 0x90}, 5,
       "unsupported instruction tpause (66 0f ae f1) at 0x400000"},
      {{0xf2, 0x48, 0x0f, 0x38, 0xf8, 0x44, 0x24, 0x08, 0x90}, 9,
       "unsupported instruction enqcmd (f2 48 0f 38 f8 44 24 08) at "
       "0x400000"},
      {{0x0f, 0x01, 0xe8, 0x90}, 4,
       "unsupported instruction serialize (0f 01 e8) at 0x400000"},
  };
  for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
    struct emu e;
    struct cpu_exit ex;
    CU_ASSERT_FATAL(emu_open(&e, t[k].b, t[k].n) == 0);
    CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_UNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(ex.msg, t[k].msg);
    CU_ASSERT_EQUAL(cpu_icount(e.cpu), 0);
    emu_close(&e);
  }
  /* mfence itself still runs: NP 0F AE F0 */
  static const u8 mf[] = {0x0f, 0xae, 0xf0, 0xf4};
  struct emu e;
  struct cpu_exit ex;
  CU_ASSERT_FATAL(emu_open(&e, mf, sizeof mf) == 0);
  emu_run(&e, &ex);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 1);
  emu_close(&e);
}

void test_run_syscall_and_outside_answers(void) {
  /* syscall; cpuid; rdtsc; rdrand rax; int3 */
  static const u8 p[] = {0x0f, 0x05, 0x0f, 0xa2, 0x0f, 0x31,
                         0x48, 0x0f, 0xc7, 0xf0, 0xcc};
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_SYSCALL);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 2);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rcx), EMU_CODE + 2);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_r11), 0x202);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 1);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_CPUID);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 2);
  CU_ASSERT_EQUAL(ex.insn_len, 2);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 1);
  cpu_get_regs(e.cpu, &r);
  r.rip += ex.insn_len;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_RDTSC);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 4);
  r.rip += ex.insn_len;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_NONDET);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 6);
  CU_ASSERT(strstr(ex.msg, "rdrand") != NULL);
  emu_close(&e);
}

/* CPUID leaf 7 EBX with the bits in *CTX: RTM (11), HLE (4) or neither. */
static int tsx_cpuid(void *ctx, u32 leaf, u32 subleaf, u32 out[4]) {
  (void)subleaf;
  memset(out, 0, 16);
  if (leaf == 0) out[0] = 7;
  if (leaf == 7) out[1] = *(const u32 *)ctx;
  return 0;
}

/* TSX as a recorded program sees it (tsx.c): xbegin is not run but exits
 * with its fallback address (rel16 with 66, sign-extended, not truncated),
 * xabort is a nop, xtest says "not in a transaction" (ZF=1, the other
 * arithmetic flags clear), xend is #GP; a non-canonical fallback address
 * is #GP at the xbegin. Without RTM in CPUID the four are #UD, but xtest
 * runs with HLE alone. */
void test_run_tsx(void) {
  static const u8 p[] = {
      0xc7, 0xf8, 0x0a, 0x00, 0x00, 0x00, /* 0: xbegin +16 */
      0x66, 0xc7, 0xf8, 0xf6, 0xff,       /* 6: xbegin +1 (rel16 -10) */
      0xc6, 0xf8, 0x42,                   /* 11: xabort 0x42 */
      0x0f, 0x01, 0xd6,                   /* 14: xtest */
      0x0f, 0x01, 0xd5,                   /* 17: xend */
      0xf4,                               /* 20: hlt */
  };
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_XBEGIN);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE);
  CU_ASSERT_EQUAL(ex.target, EMU_CODE + 16);
  CU_ASSERT_EQUAL(ex.insn_len, 6);
  CU_ASSERT(strstr(ex.msg, "xbegin") != NULL);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 0);
  cpu_get_regs(e.cpu, &r);
  r.rip = EMU_CODE + 6;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_XBEGIN);
  CU_ASSERT_EQUAL(ex.target, EMU_CODE + 1);
  CU_ASSERT_EQUAL(ex.insn_len, 5);
  r.rip = EMU_CODE + 11;
  r.gpr[RW_REG_rax] = 0x1234;
  r.rflags = 0x202 | 0x8d5; /* OF SF ZF AF PF CF */
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 17);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 2);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_rax], 0x1234);
  CU_ASSERT_EQUAL(r.rflags, 0x242);
  /* The last user page: xbegin +0x10000 from there is not canonical. */
  static const u8 far[] = {0xc7, 0xf8, 0x00, 0x00, 0x01, 0x00};
  const u64 top = 0x7ffffffff000ull;
  CU_ASSERT_FATAL(cpu_mem_map(e.mem, top, 4096,
                              CPU_PROT_READ | CPU_PROT_EXEC) == 0);
  CU_ASSERT_FATAL(cpu_mem_write(e.mem, top, far, sizeof far) == 0);
  r.rip = top;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(ex.rip, top);
  /* Recording CPUs without RTM: #UD, but for xtest with HLE. Each its own
   * address space, since the threads of one share decoded code. */
  static const u32 feats[] = {0, 1u << 4};
  for (size_t k = 0; k < 2; k++) {
    static const unsigned at[] = {0, 6, 11, 14, 17};
    struct emu f;
    struct cpu_config cfg = {.cpuid = tsx_cpuid, .ctx = (void *)&feats[k]};
    cpu_thread *c;
    CU_ASSERT_FATAL(emu_open(&f, p, sizeof p) == 0);
    CU_ASSERT_FATAL(cpu_new(f.mem, &cfg, &c) == 0);
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
      r.rip = EMU_CODE + at[i];
      CU_ASSERT_FATAL(cpu_set_regs(c, &r) == 0);
      CU_ASSERT_FATAL(cpu_run(c, 1, &ex) == 0);
      if (at[i] == 14 && feats[k]) {
        CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_BUDGET);
      } else {
        CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_FAULT);
        CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_UD);
      }
    }
    cpu_free(c);
    emu_close(&f);
  }
  emu_close(&e);
}

void test_run_watchpoints(void) {
  /* mov qword [0x600000],42; mov rax,[0x600008]; int3 */
  static const u8 p[] = {0x48, 0xc7, 0x04, 0x25, 0, 0, 0x60, 0, 42,  0, 0, 0,
                         0x48, 0x8b, 0x04, 0x25, 8, 0, 0x60, 0, 0xcc};
  struct emu e;
  struct cpu_exit ex;
  u64 v = 0;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu_mem_watch_add(e.mem, 0x600004, 2, CPU_WATCH_WRITE) == 0);
  CU_ASSERT_FATAL(cpu_mem_watch_add(e.mem, 0x60000f, 1, CPU_WATCH_READ) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_WATCHPOINT);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 12); /* after the store */
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 1);
  CU_ASSERT_EQUAL(ex.watch_addr, 0x600000);
  CU_ASSERT_EQUAL(ex.watch_size, 8);
  CU_ASSERT_EQUAL(ex.watch_kind, CPU_WATCH_WRITE);
  CU_ASSERT_EQUAL(ex.watch_old[0], 0);
  CU_ASSERT_EQUAL(ex.watch_new[0], 42);
  CU_ASSERT_FATAL(cpu_mem_read(e.mem, 0x600000, &v, 8) == 0);
  CU_ASSERT_EQUAL(v, 42);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_WATCHPOINT);
  CU_ASSERT_EQUAL(ex.watch_kind, CPU_WATCH_READ);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE + 20);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  emu_close(&e);

  /* A rep stosb stops after the iteration that wrote the watched byte. */
  CU_ASSERT_FATAL(emu_open(&e, rep_prog, sizeof rep_prog) == 0);
  CU_ASSERT_FATAL(cpu_mem_watch_add(e.mem, 0x600050, 1, CPU_WATCH_WRITE) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_WATCHPOINT);
  CU_ASSERT_EQUAL(ex.watch_addr, 0x600050);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rcx), 100 - 0x51);
  CU_ASSERT_EQUAL(emu_rip(&e), REP_AT);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 3 + 0x51);
  CU_ASSERT_FATAL(cpu_mem_watch_del(e.mem, 0x600050, 1, CPU_WATCH_WRITE) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 104);
  emu_close(&e);
}

void test_run_stop_request(void) {
  struct emu e;
  struct cpu_exit ex;
  CU_ASSERT_FATAL(emu_open(&e, loop_prog, sizeof loop_prog) == 0);
  cpu_stop(e.cpu);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_STOP);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 502);
  emu_close(&e);
}

/* Registers with RF (the resume flag) set, as the kernel shows a thread
 * interrupted right after a page fault: RF stays until an instruction
 * completes (not through a run that ran none), then is clear, and pushf
 * never shows it. */
void test_run_resume_flag(void) {
  /* pushfq; pop rax; int3 */
  static const u8 prog[] = {0x9c, 0x58, 0xcc};
  struct emu e;
  struct cpu_exit ex;
  struct rw_regs r;
  CU_ASSERT_FATAL(emu_open(&e, prog, sizeof prog) == 0);
  cpu_get_regs(e.cpu, &r);
  r.rflags = 0x10246;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 0, &ex) == 0);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.rflags, 0x10246);
  cpu_stop(e.cpu);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_STOP);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.rflags, 0x10246);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 1, &ex) == 0);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 1);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.rflags, 0x246);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rax), 0x246);
  emu_close(&e);
}

/* What an observer saw (cpu.h, struct cpu_observer). */
struct seen {
  char kind;  /* 'c' call, 'r' ret, 'b' branch */
  u64 from, to, n;
  int taken;
};
struct seen_log {
  struct seen v[64];
  unsigned n;
};

static void seen_call(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 ret,
                      u64 n) {
  struct seen_log *l = ctx;
  (void)cpu;
  CU_ASSERT_EQUAL(ret, from + 5);
  if (l->n < 64) l->v[l->n++] = (struct seen){'c', from, to, n, 1};
}
static void seen_ret(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 n) {
  struct seen_log *l = ctx;
  (void)cpu;
  if (l->n < 64) l->v[l->n++] = (struct seen){'r', from, to, n, 1};
}
static void seen_branch(void *ctx, cpu_thread *cpu, u64 from, u64 to,
                        int taken, int kind, u64 n) {
  struct seen_log *l = ctx;
  (void)cpu;
  CU_ASSERT_EQUAL(kind, CPU_BRANCH_COND);
  if (l->n < 64) l->v[l->n++] = (struct seen){'b', from, to, n, taken};
}

/* mov ecx,3; L: nop; call f; dec ecx; jne L; int3; f: nop; nop; ret --
 * 23 instructions with the int3; the call is the 3rd and then the 2nd of
 * its block. */
static const u8 call_prog[] = {0xb9, 3,    0,    0,    0, 0x90, 0xe8, 5, 0,
                               0,    0,    0xff, 0xc9, 0x75, 0xf6, 0xcc,
                               0x90, 0x90, 0xc3};

static void check_calls(const struct seen_log *l) {
  CU_ASSERT_EQUAL_FATAL(l->n, 9);
  for (unsigned i = 0; i < 3; i++) {
    const struct seen *c = &l->v[3 * i], *r = c + 1, *b = c + 2;
    CU_ASSERT(c->kind == 'c' && c->from == EMU_CODE + 6 &&
              c->to == EMU_CODE + 16 && c->n == 2 + 7 * i);
    CU_ASSERT(r->kind == 'r' && r->from == EMU_CODE + 18 &&
              r->to == EMU_CODE + 11 && r->n == 5 + 7 * i);
    CU_ASSERT(b->kind == 'b' && b->from == EMU_CODE + 13 && b->n == 7 + 7 * i);
    CU_ASSERT_EQUAL(b->taken, i < 2);
    CU_ASSERT_EQUAL(b->to, i < 2 ? EMU_CODE + 5 : EMU_CODE + 15);
  }
}

/* Runs CPU 3 instructions at a time until it stops for another reason than
 * its budget or a watchpoint, with *EX the reason. Returns the watchpoint
 * stops. */
static unsigned run_in_threes(cpu_thread *cpu, struct cpu_exit *ex) {
  unsigned watched = 0;
  for (;;) {
    CU_ASSERT_FATAL(cpu_run(cpu, 3, ex) == 0);
    if (ex->reason == CPU_EXIT_WATCHPOINT) {
      watched++;
      continue;
    }
    if (ex->reason != CPU_EXIT_BUDGET) return watched;
  }
}

void test_run_observer(void) {
  struct emu e;
  struct cpu_exit ex;
  struct seen_log l = {0};
  struct cpu_observer o = {.on_call = seen_call,
                           .on_ret = seen_ret,
                           .on_branch = seen_branch,
                           .ctx = &l};
  CU_ASSERT_FATAL(emu_open(&e, call_prog, sizeof call_prog) == 0);
  CU_ASSERT_FATAL(cpu_set_observer(e.cpu, &o) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 23);
  check_calls(&l);
  emu_close(&e);

  /* Blocks decoded before the observer came are decoded again; one step
   * at a time counts the same; a call that hits a watchpoint (its push)
   * runs again and is seen once. */
  memset(&l, 0, sizeof l);
  CU_ASSERT_FATAL(emu_open(&e, call_prog, sizeof call_prog) == 0);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 1, &ex) == 0);
  CU_ASSERT_FATAL(cpu_set_observer(e.cpu, &o) == 0);
  CU_ASSERT_FATAL(cpu_mem_watch_add(e.mem, EMU_STACK - 72, 8,
                                    CPU_WATCH_WRITE) == 0);
  unsigned watched = run_in_threes(e.cpu, &ex);
  CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(watched, 3);
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 23);
  check_calls(&l);

  /* Without the observer, nothing more is seen. */
  CU_ASSERT_FATAL(cpu_set_observer(e.cpu, NULL) == 0);
  CU_ASSERT_FATAL(cpu_mem_watch_del(e.mem, EMU_STACK - 72, 8,
                                    CPU_WATCH_WRITE) == 0);
  l.n = 0;
  struct rw_regs r;
  cpu_get_regs(e.cpu, &r);
  r.rip = EMU_CODE;
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(l.n, 0);
  emu_close(&e);
}

/* What an on_rep observer saw. */
struct rep_seen {
  unsigned n;
  u64 at, req, done, count;
  int how;
  char mnem[16];
};

static void seen_rep(void *ctx, cpu_thread *cpu, u64 at, const char *mnem,
                     u64 requested, u64 done, int how, u64 n) {
  struct rep_seen *s = ctx;
  (void)cpu;
  s->n++;
  s->at = at;
  s->req = requested;
  s->done = done;
  s->how = how;
  s->count = n;
  snprintf(s->mnem, sizeof s->mnem, "%s", mnem);
}

/* mov ecx, 10; mov rdi, rsp; sub rdi, 64; rep stosb; int3 */
static const u8 repobs_prog[] = {0xb9, 10,   0,    0,    0,    0x48, 0x89,
                              0xe7, 0x48, 0x83, 0xef, 0x40, 0xf3, 0xaa,
                              0xcc};

void test_run_rep_observer(void) {
  struct emu e;
  struct cpu_exit ex;
  struct rep_seen s = {0};
  struct cpu_observer o = {.on_rep = seen_rep, .ctx = &s};
  CU_ASSERT_FATAL(emu_open(&e, repobs_prog, sizeof repobs_prog) == 0);
  CU_ASSERT_FATAL(cpu_set_observer(e.cpu, &o) == 0);
  /* In pieces of 3 instructions, and through a watched byte: one
   * execution of 10 iterations. */
  struct rw_regs r;
  cpu_get_regs(e.cpu, &r);
  u64 buf = r.gpr[RW_REG_rsp] - 64;
  CU_ASSERT_FATAL(cpu_mem_watch_add(e.mem, buf + 5, 1, CPU_WATCH_WRITE) == 0);
  unsigned watched = run_in_threes(e.cpu, &ex);
  CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(watched, 1);
  CU_ASSERT_EQUAL(s.n, 1);
  CU_ASSERT_EQUAL(s.at, EMU_CODE + 12);
  CU_ASSERT_EQUAL(s.req, 10);
  CU_ASSERT_EQUAL(s.done, 10);
  CU_ASSERT_EQUAL(s.how, CPU_REP_COUNT);
  CU_ASSERT_EQUAL(s.count, 3);
  CU_ASSERT_STRING_EQUAL(s.mnem, "rep stosb");
  /* 3 instructions, 10 iterations, and the int3 (a trap: it completes) */
  CU_ASSERT_EQUAL(cpu_icount(e.cpu), 14);
  emu_close(&e);

  /* Registers replaced part way (a signal delivered between two
   * iterations): it ends there, interrupted. */
  memset(&s, 0, sizeof s);
  CU_ASSERT_FATAL(emu_open(&e, repobs_prog, sizeof repobs_prog) == 0);
  CU_ASSERT_FATAL(cpu_set_observer(e.cpu, &o) == 0);
  CU_ASSERT_FATAL(cpu_run(e.cpu, 7, &ex) == 0);
  CU_ASSERT_EQUAL(ex.reason, CPU_EXIT_BUDGET);
  CU_ASSERT_EQUAL(s.n, 0);
  cpu_get_regs(e.cpu, &r);
  CU_ASSERT_EQUAL(r.gpr[RW_REG_rcx], 6);
  CU_ASSERT_FATAL(cpu_set_regs(e.cpu, &r) == 0);
  CU_ASSERT_EQUAL(s.n, 1);
  CU_ASSERT_EQUAL(s.done, 4);
  CU_ASSERT_EQUAL(s.how, CPU_REP_INTERRUPTED);
  /* What runs after is another execution, of the 6 left. */
  CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(s.n, 2);
  CU_ASSERT_EQUAL(s.req, 6);
  CU_ASSERT_EQUAL(s.done, 6);
  CU_ASSERT_EQUAL(s.how, CPU_REP_COUNT);
  emu_close(&e);
}
