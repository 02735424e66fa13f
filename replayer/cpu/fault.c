/* SPDX-License-Identifier: MIT */
/* How handlers stop: faults and traps filled into cpu->exit (returned as
 * CPU_FAULT, never longjmp'd, STYLE R13), exits before an instruction, and
 * the "unsupported instruction" message. Deciding what a fault means for the
 * recorded program is the replayer's business. */
#include <stdio.h>

#include "replayer/cpu/cpu_int.h"

int cpu__fault(struct cpu *cpu, int fault) {
  cpu->exit.reason = CPU_EXIT_FAULT;
  cpu->exit.fault = fault;
  cpu->exit.addr = 0;
  cpu->exit.access = 0;
  cpu->exit.maperr = 0;
  return CPU_FAULT;
}

int cpu__fault_pf(struct cpu *cpu, u64 addr, int access, int maperr) {
  cpu->exit.reason = CPU_EXIT_FAULT;
  cpu->exit.fault = CPU_FAULT_PF;
  cpu->exit.addr = addr;
  cpu->exit.access = access;
  cpu->exit.maperr = maperr;
  return CPU_FAULT;
}

int cpu__halt(struct cpu *cpu, const struct cpu_insn *in, int reason) {
  cpu->exit.reason = reason;
  cpu->exit.insn_len = in->len;
  return CPU_RC_HALT;
}

/* The unsupported-instruction halt, with WHY after the address (or none). */
static int unsupported(struct cpu *cpu, const struct cpu_insn *in,
                       const char *why) {
  u8 bytes[16];
  char hex[64], *p = hex;
  const char *mn = "(undecodable)";
  char evx[48];
  unsigned n = cpu__fetch(cpu, cpu->rip, bytes, in->len), rl;
  const u8 *code = bytes;
  size_t size = n;
  u64 addr = cpu->rip;
  cs_insn *ci = cpu->mem->csi;
  memset(&cpu->exit, 0, sizeof cpu->exit);
  for (unsigned i = 0; i < n; i++)
    p += snprintf(p, (size_t)(hex + sizeof hex - p), "%s%02x", i ? " " : "",
                  bytes[i]);
  *p = 0;
  /* Bytes Capstone cannot decode may still be an instruction vexraw.c
   * knows, with an operand form no row takes. */
  const char *raw = n ? cpu__raw_unsupported(bytes, n, &rl) : NULL;
  if (raw)
    mn = raw;
  else if (n && (cs_disasm_iter(cpu->mem->cs, &code, &size, &addr, ci) ||
                 cpu__decode_raw(bytes, n, ci) == 0))
    mn = ci->mnemonic;
  else if (cpu__evex_name(in->id))
    mn = cpu__evex_name(in->id);
  else if (cpu__evex_describe(bytes, n, evx, sizeof evx))
    mn = evx;
  snprintf(cpu->exit.msg, sizeof cpu->exit.msg,
           "unsupported instruction %s (%s) at %#llx%s%s", mn, hex,
           (unsigned long long)cpu->rip, why ? ": " : "", why ? why : "");
  return cpu__halt(cpu, in, CPU_EXIT_UNSUPPORTED);
}

int cpu__op_unsupported(struct cpu *cpu, const struct cpu_insn *in) {
  return unsupported(cpu, in, NULL);
}

int cpu__op_unsupported_why(struct cpu *cpu, const struct cpu_insn *in,
                            const char *why) {
  return unsupported(cpu, in, why);
}
