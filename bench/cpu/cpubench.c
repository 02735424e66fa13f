/* SPDX-License-Identifier: MIT */
/* cpubench: emulator speed in MIPS on compute-bound loops. The workloads are
 * position-independent assembly in this file; their bytes are copied into an
 * emulated address space and run by cpu_run, and the same code runs natively
 * for comparison. Instruction counts are the emulator's exact counts (each
 * rep iteration would count as one; these loops have none).
 *   cpubench [SECONDS-PER-WORKLOAD] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "replayer/cpu/cpu.h"

/* Workload 1, "alu": loads, multiply, rotate, store, a data-dependent
 * branch; rcx iterations over a 8 KB table at rdi. Ends with ret. */
/* Workload 2, "calls": recursive fib(rdi) with push/pop/call/ret. */
__asm__(
    ".text\n"
    ".globl bench_alu\n"
    "bench_alu:\n"
    "  xor %edx, %edx\n"
    "1: mov (%rdi,%rdx,8), %rax\n"
    "  imul $0x5bd1e995, %rax, %rax\n"
    "  add %rax, %rbx\n"
    "  xor %rdx, %rbx\n"
    "  rol $7, %rbx\n"
    "  mov %rbx, (%rdi,%rdx,8)\n"
    "  inc %rdx\n"
    "  and $1023, %rdx\n"
    "  cmp %r8, %rbx\n"
    "  jb 2f\n"
    "  add $1, %r9\n"
    "2: dec %rcx\n"
    "  jnz 1b\n"
    "  ret\n"
    ".globl bench_fib\n"
    "bench_fib:\n"
    "  cmp $2, %rdi\n"
    "  jb 3f\n"
    "  push %rbx\n"
    "  push %rdi\n"
    "  dec %rdi\n"
    "  call bench_fib\n"
    "  mov %rax, %rbx\n"
    "  pop %rdi\n"
    "  sub $2, %rdi\n"
    "  call bench_fib\n"
    "  add %rbx, %rax\n"
    "  pop %rbx\n"
    "  ret\n"
    "3: mov %rdi, %rax\n"
    "  ret\n"
    ".globl bench_end\n"
    "bench_end:\n");
extern const u8 bench_alu[], bench_fib[], bench_end[];

#define CODE 0x400000ull
#define DATA 0x600000ull
#define STACK 0x7ff0000ull

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs the workload at OFF with RDI/RCX until its final ret reaches the
 * int3 pushed as return address. Returns MIPS; *INSNS gets the count. */
static double run_emu(size_t off, u64 rdi, u64 rcx, u64 *insns) {
  cpu_mem *m;
  cpu_thread *c;
  struct rw_regs r;
  struct cpu_exit ex;
  u64 ret = CODE + 0xff0;
  u8 int3 = 0xcc;
  double t0, t1;
  size_t len = (size_t)(bench_end - bench_alu);
  if (cpu_mem_new(&m) ||
      cpu_mem_map(m, CODE, 0x1000, CPU_PROT_READ | CPU_PROT_EXEC) ||
      cpu_mem_map(m, DATA, 0x2000, CPU_PROT_READ | CPU_PROT_WRITE) ||
      cpu_mem_map(m, STACK - 0x100000, 0x100000,
                  CPU_PROT_READ | CPU_PROT_WRITE) ||
      cpu_mem_write(m, CODE, bench_alu, len) ||
      cpu_mem_write(m, ret, &int3, 1) || cpu_mem_write(m, STACK - 8, &ret, 8) ||
      cpu_new(m, NULL, &c)) {
    fprintf(stderr, "cpubench: setup failed\n");
    exit(1);
  }
  cpu_get_regs(c, &r);
  r.rip = CODE + off;
  r.gpr[RW_REG_rsp] = STACK - 8;
  r.gpr[RW_REG_rdi] = rdi;
  r.gpr[RW_REG_rcx] = rcx;
  r.gpr[RW_REG_r8] = 1ull << 63;
  if (cpu_set_regs(c, &r)) exit(1);
  t0 = now();
  if (cpu_run(c, ~0ull, &ex) || ex.reason != CPU_EXIT_FAULT ||
      ex.fault != CPU_FAULT_BP) {
    fprintf(stderr, "cpubench: unexpected exit %d: %s\n", ex.reason, ex.msg);
    exit(1);
  }
  t1 = now();
  *insns = cpu_icount(c) - 1; /* not the final int3 */
  cpu_free(c);
  cpu_mem_free(m);
  return (double)*insns / (t1 - t0) / 1e6;
}

static double run_native(int which, u64 arg, u64 insns) {
  static u64 table[1024];
  double t0 = now(), t1;
  u64 out = 0;
  if (which == 0) {
    u64 rcx = arg;
    __asm__ volatile("mov $0x8000000000000000, %%r8\n call bench_alu"
                     : "+c"(rcx), "=b"(out)
                     : "D"(table)
                     : "rax", "rdx", "r8", "r9", "memory", "cc");
  } else {
    __asm__ volatile("call bench_fib"
                     : "=a"(out), "+D"(arg)
                     :
                     : "rbx", "memory", "cc");
  }
  t1 = now();
  (void)out;
  return (double)insns / (t1 - t0) / 1e6;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2.0;
  u64 n, insns;
  double mips;
  printf("cpubench: MIPS = emulated instructions / wall time of cpu_run\n");
  /* Calibrate each workload to about SECS of emulation. */
  n = 1000000;
  mips = run_emu(0, DATA, n, &insns);
  n = (u64)((double)n * secs * mips * 1e6 / (double)insns);
  mips = run_emu(0, DATA, n, &insns);
  printf("  alu    %12llu insns  %8.1f MIPS emulated  %8.1f MIPS native\n",
         (unsigned long long)insns, mips, run_native(0, n, insns));
  {
    u64 k = 20;
    mips = run_emu((size_t)(bench_fib - bench_alu), k, 0, &insns);
    while ((double)insns / (mips * 1e6) < secs / 2 && k < 40) {
      k++;
      mips = run_emu((size_t)(bench_fib - bench_alu), k, 0, &insns);
    }
    printf(
        "  calls  %12llu insns  %8.1f MIPS emulated  %8.1f MIPS native"
        " (fib %llu)\n",
        (unsigned long long)insns, mips, run_native(1, k, insns),
        (unsigned long long)k);
  }
  return 0;
}
