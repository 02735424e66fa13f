/* SPDX-License-Identifier: MIT */
/* The direct stores, MOVDIRI and MOVDIR64B, which Capstone 4 cannot
 * decode:
 *
 *   movdiri m32/m64, r32/r64     NP 0F 38 F9 /r (REX.W: 64 bits)
 *   movdir64b r64/r32, m512      66 0F 38 F8 /r (67: a 32-bit register)
 *
 * For a program they are ordinary stores: what makes them "direct"
 * (write-combining, bypassing the cache, for device portals) does not
 * change what a later load sees. As measured on AMD Zen 5: movdiri
 * accepts any alignment; movdir64b reads 64 bytes from its memory operand
 * (any alignment) and writes them at the address in its register, in ES,
 * which must be 64-byte aligned (else #GP, SIGSEGV with SI_KERNEL). A
 * register operand, LOCK or an F2/F3 prefix is not one of these (F2/F3
 * 0F 38 F8 is ENQCMD/ENQCMDS, which cpu__raw_unsupported names). Each
 * raises #UD when the recording CPU's CPUID lacks it (MOVDIRI, leaf 7 ECX
 * bit 27; MOVDIR64B, bit 28). */
#include "replayer/cpu/cpu_int.h"

static int op_movdiri(struct cpu *cpu, const struct cpu_insn *in) {
  CPU_TRY(cpu_st(cpu, cpu_ea(cpu, in), in->osz, cpu->gpr[in->reg]));
  return CPU_RC_NEXT;
}

static int op_movdir64b(struct cpu *cpu, const struct cpu_insn *in) {
  u8 v[64];
  u64 dst = cpu->gpr[in->reg];
  if (in->pfx & CPU_PFX_ADDR32) dst = (u32)dst;
  if (dst & 63) return cpu__fault(cpu, CPU_FAULT_GP);
  CPU_TRY(cpu_ldn(cpu, cpu_ea(cpu, in), v, 64));
  CPU_TRY(cpu_stn(cpu, dst, v, 64));
  return CPU_RC_NEXT;
}

/* An instruction the recording CPU does not have. */
static int op_ud(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  return cpu__fault(cpu, CPU_FAULT_UD);
}

int cpu__decode_movdir(const struct cpu *cpu, const u8 *b, unsigned n,
                       u64 rip, struct cpu_insn *in) {
  struct cpu__legacy_pfx px;
  cpu__legacy_prefixes(b, n, &px);
  unsigned i = px.n, rex = px.rex;
  if (i + 4 > n || b[i] != 0x0f || b[i + 1] != 0x38 || px.rep || px.lock)
    return 0;
  u8 op = b[i + 2], modrm = b[i + 3];
  if ((modrm >> 6) == 3) return 0;
  if (op == 0xf9 && !px.opsize) {
    in->id = CPU_INS_EV_movdiri;
    in->fn = in->run = op_movdiri;
    in->osz = (rex & 8) ? 8 : 4;
  } else if (op == 0xf8 && px.opsize) {
    in->id = CPU_INS_EV_movdir64b;
    in->fn = in->run = op_movdir64b;
    in->osz = 64;
  } else {
    return 0;
  }
  int riprel;
  unsigned end = cpu__ev_modrm(b, n, i + 3, rex & 1, (rex >> 1) & 1, 1, 0,
                               in, &riprel);
  if (!end) {
    in->len = 0; /* cut short by a fetch fault */
    return 1;
  }
  in->len = (u8)end;
  in->reg = (u8)(((modrm >> 3) & 7) | ((rex >> 2) & 1) << 3);
  in->seg = (u8)px.seg;
  if (px.addr32) in->pfx |= CPU_PFX_ADDR32;
  if (rex & 8) in->pfx |= CPU_PFX_REXW;
  if (riprel) {
    in->base = CPU_REG_NONE;
    in->disp = (i64)(rip + end + (u64)in->disp);
  }
  /* #UD where the recording CPU's CPUID lacks the instruction. */
  if (!cpu__has(cpu, cpu__feature_of(in->id, 0))) in->fn = in->run = op_ud;
  return 1;
}
