/* SPDX-License-Identifier: MIT */
/* Three register forms of 0F 01 that Capstone 4 cannot decode:
 *
 *   rdpkru     NP 0F 01 EE   EDX:EAX = PKRU; #GP unless ECX = 0
 *   wrpkru     NP 0F 01 EF   PKRU = EAX; #GP unless ECX = EDX = 0
 *   clzero     NP 0F 01 FC   zeroes the 64-byte line holding [rAX]
 *
 * PKRU holds two bits per protection key (access disable, write disable);
 * the kernel sets it at execve, signal delivery, rt_sigreturn, pkey_alloc,
 * and the replay loads it from the trace's PKRU records there. Both PKU
 * instructions raise #UD when the recording CPU's CPUID lacks OSPKE (leaf
 * 7, ECX bit 4: the OS did not enable protection keys), as there; clzero
 * when it lacks CLZERO (leaf 0x80000008, EBX bit 0): the decoder asks
 * (cpu__has, feature.c) once per decoded instruction, not each time it
 * runs (V8 runs wrpkru around every write to its code). A recording
 * without CPUID answers (the unit tests) is taken to have both. The keys are not
 * enforced on memory accesses: a recorded SIGSEGV with SEGV_PKUERR that
 * the replay does not raise is reported as a divergence. */
#include "replayer/cpu/cpu_int.h"

/* An instruction the recording CPU does not have. */
static int op_ud(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  return cpu__fault(cpu, CPU_FAULT_UD);
}

static int op_rdpkru(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  if ((u32)cpu->gpr[RW_REG_rcx]) return cpu__fault(cpu, CPU_FAULT_GP);
  cpu->gpr[RW_REG_rax] = cpu->pkru;
  cpu->gpr[RW_REG_rdx] = 0;
  return CPU_RC_NEXT;
}

static int op_wrpkru(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  if ((u32)cpu->gpr[RW_REG_rcx] || (u32)cpu->gpr[RW_REG_rdx])
    return cpu__fault(cpu, CPU_FAULT_GP);
  cpu->pkru = (u32)cpu->gpr[RW_REG_rax];
  return CPU_RC_NEXT;
}

static int op_clzero(struct cpu *cpu, const struct cpu_insn *in) {
  static const u8 zero[64];
  return cpu_stn(cpu, cpu_ea(cpu, in) & ~(u64)63, zero, 64);
}

int cpu__decode_pku(const struct cpu *cpu, const u8 *b, unsigned n,
                    struct cpu_insn *in) {
  struct cpu__legacy_pfx px;
  cpu__legacy_prefixes(b, n, &px);
  unsigned i = px.n;
  if (i + 3 > n || b[i] != 0x0f || b[i + 1] != 0x01 || px.rep ||
      px.opsize || px.lock)
    return 0;
  switch (b[i + 2]) {
    case 0xee:
      in->id = CPU_INS_EV_rdpkru;
      in->fn = in->run = op_rdpkru;
      break;
    case 0xef:
      in->id = CPU_INS_EV_wrpkru;
      in->fn = in->run = op_wrpkru;
      break;
    case 0xfc:
      in->id = CPU_INS_EV_clzero;
      in->fn = in->run = op_clzero;
      in->base = RW_REG_rax;
      in->seg = (u8)px.seg;
      if (px.addr32) in->pfx |= CPU_PFX_ADDR32;
      in->pfx |= CPU_PFX_MEM;
      in->osz = 64;
      break;
    default:
      return 0;
  }
  if (!cpu__has(cpu, cpu__feature_of(in->id, 0))) in->fn = in->run = op_ud;
  in->len = (u8)(i + 3);
  return 1;
}
