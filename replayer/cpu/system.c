/* SPDX-License-Identifier: MIT */
/* Everything else a user program executes: nops and hints, fences,
 * prefetches, cache line flushes, flag instructions (clc, stc, cmc, cld,
 * std, lahf, sahf), and the instructions that leave the emulator or ask the
 * outside: syscall, cpuid, rdtsc/rdtscp, rdrand/rdseed, xgetbv, int3, ud2,
 * hlt; and the FS/GS base instructions. */
#include <stdio.h>

#include "replayer/cpu/cpu_int.h"

enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3, R11 = 11 };

static int op_nop(struct cpu *cpu, const struct cpu_insn *in) {
  (void)cpu;
  (void)in;
  return CPU_RC_NEXT;
}

/* clflush, clflushopt, clwb: the cache is not the emulator's, but the
 * instruction faults as a byte load from its operand would. */
static int op_clflush(struct cpu *cpu, const struct cpu_insn *in) {
  u8 b;
  return cpu_ld8(cpu, cpu_ea(cpu, in), &b);
}

static int op_clc(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu__flags_set(cpu, CPU_CF, 0);
  return CPU_RC_NEXT;
}
static int op_stc(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu__flags_set(cpu, CPU_CF, CPU_CF);
  return CPU_RC_NEXT;
}
static int op_cmc(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu__flags_set(cpu, CPU_CF, cpu__flag_cf(cpu) ? 0 : CPU_CF);
  return CPU_RC_NEXT;
}
static int op_cld(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu->rflags &= ~(u64)CPU_DF;
  return CPU_RC_NEXT;
}
static int op_std(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu->rflags |= CPU_DF;
  return CPU_RC_NEXT;
}
static int op_lahf(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu_reg_set(cpu, CPU_REG_AH, 1, (cpu__flags_arith(cpu) & 0xd5) | 2);
  return CPU_RC_NEXT;
}
static int op_sahf(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu__flags_set(cpu, 0xd5, cpu_reg_get(cpu, CPU_REG_AH, 1));
  return CPU_RC_NEXT;
}

/* syscall completes here: rcx and r11 as the CPU sets them, then the run
 * loop returns CPU_EXIT_SYSCALL with rip after the instruction. */
static int op_syscall(struct cpu *cpu, const struct cpu_insn *in) {
  u64 next = cpu->rip + in->len;
  cpu->gpr[RCX] = next;
  cpu->gpr[R11] = cpu__rflags(cpu) & ~0x10000ull;
  cpu->rip = next;
  cpu->exit.reason = CPU_EXIT_SYSCALL;
  cpu->exit.insn_len = in->len;
  return CPU_RC_EXIT;
}

/* int3 is a trap: it completes, rip is after it, SIGTRAP follows. */
static int op_int3(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->rip += in->len;
  cpu->exit.reason = CPU_EXIT_FAULT;
  cpu->exit.fault = CPU_FAULT_BP;
  cpu->exit.insn_len = in->len;
  return CPU_RC_EXIT;
}

/* rdfsbase, rdgsbase, wrfsbase, wrgsbase: the thread's FS and GS bases,
 * which Linux lets user code read and write (CR4.FSGSBASE, since 5.9).
 * 32 bits read the low half and write it zero-extended; a 64-bit base
 * that is not canonical is #GP. */
static int op_fsgsbase(struct cpu *cpu, const struct cpu_insn *in) {
  int gs = in->id == X86_INS_RDGSBASE || in->id == X86_INS_WRGSBASE;
  u64 *base = &cpu->segbase[gs ? CPU_SEG_GS : CPU_SEG_FS];
  unsigned sz = in->osz;
  if (in->id == X86_INS_RDFSBASE || in->id == X86_INS_RDGSBASE) {
    cpu_reg_set(cpu, in->rm, sz, sz == 8 ? *base : (u32)*base);
    return CPU_RC_NEXT;
  }
  u64 v = cpu_reg_get(cpu, in->rm, sz);
  if (sz == 8 && (u64)((i64)(v << 16) >> 16) != v)
    return cpu__fault(cpu, CPU_FAULT_GP);
  *base = v;
  return CPU_RC_NEXT;
}

/* int n: Linux gives user mode gates for vectors 3 (as int3), 4 (#OF:
 * SIGSEGV, as the #GP every other vector raises) and, with IA32
 * emulation, 0x80, the 32-bit system call: the emulator does not make
 * that one, so a recording that has a syscall there stops the replay as
 * a divergence, and one that has the SIGSEGV (no IA32 emulation) goes
 * on. */
static int op_int(struct cpu *cpu, const struct cpu_insn *in) {
  if ((u8)in->imm == 3) return op_int3(cpu, in);
  return cpu__fault(cpu, CPU_FAULT_GP);
}

static int op_ud2(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  return cpu__fault(cpu, CPU_FAULT_UD);
}

/* hlt and privileged instructions fault with #GP in user mode. */
static int op_gp(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  return cpu__fault(cpu, CPU_FAULT_GP);
}

static int op_cpuid(struct cpu *cpu, const struct cpu_insn *in) {
  u32 out[4];
  if (!cpu->cfg.cpuid ||
      cpu->cfg.cpuid(cpu->cfg.ctx, (u32)cpu->gpr[RAX], (u32)cpu->gpr[RCX], out))
    return cpu__halt(cpu, in, CPU_EXIT_CPUID);
  cpu->gpr[RAX] = out[0];
  cpu->gpr[RBX] = out[1];
  cpu->gpr[RCX] = out[2];
  cpu->gpr[RDX] = out[3];
  /* Measured on an Intel VM: the hypervisor's exit marks SSE in use (as
   * any exit does, an interrupt's too: those the replay cannot see). */
  if (cpu__has(cpu, CPU__FEAT_HYPERVISOR)) cpu->xinuse |= CPU_XIN_SSE;
  return CPU_RC_NEXT;
}

static int op_rdtsc(struct cpu *cpu, const struct cpu_insn *in) {
  u64 tsc;
  u32 aux = 0;
  if (!cpu->cfg.rdtsc || cpu->cfg.rdtsc(cpu->cfg.ctx, &tsc, &aux))
    return cpu__halt(cpu, in, CPU_EXIT_RDTSC);
  cpu->gpr[RAX] = (u32)tsc;
  cpu->gpr[RDX] = tsc >> 32;
  if (in->id == X86_INS_RDTSCP) cpu->gpr[RCX] = aux;
  return CPU_RC_NEXT;
}

static int op_nondet(struct cpu *cpu, const struct cpu_insn *in) {
  int rc = cpu__halt(cpu, in, CPU_EXIT_NONDET);
  cpu->exit.nondet_reg = in->rm;
  cpu->exit.nondet_size = in->osz;
  snprintf(cpu->exit.msg, sizeof cpu->exit.msg,
           "%s at %#llx is not reproducible",
           in->id == X86_INS_RDRAND ? "rdrand" : "rdseed",
           (unsigned long long)cpu->rip);
  return rc;
}

/* xgetbv 0 answers the configured XCR0. xgetbv 1 (XINUSE) answers what an
 * Intel CPU tracks (xinuse.c; PKRU by its value); AMD's rule differs
 * between generations (docs/design-notes.md, "Dead stack"), so there it is
 * unsupported. */
static int op_xgetbv(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v = cpu->cfg.xcr0;
  if ((u32)cpu->gpr[RCX] == 1) {
    if (cpu->cfg.vendor == CPU_VENDOR_AMD)
      return cpu__op_unsupported_why(cpu, in, "ecx 1 (XINUSE) on an AMD "
                                     "CPU, whose in-use rules differ "
                                     "between generations");
    v &= (cpu__xinuse(cpu) & 0xe7) | (cpu->pkru ? 1u << 9 : 0);
  } else if ((u32)cpu->gpr[RCX] != 0) {
    return cpu__fault(cpu, CPU_FAULT_GP);
  }
  cpu->gpr[RAX] = (u32)v;
  cpu->gpr[RDX] = v >> 32;
  return CPU_RC_NEXT;
}

static const struct cpu__oprow system_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/system.def"
#undef OP
};
CPU__FAMILY_TABLE(system)
