/* SPDX-License-Identifier: MIT */
/* Intel TSX (RTM): xbegin, xend, xabort, xtest, as they behave in a
 * recorded program, where no transaction ever runs. A transaction's outcome
 * (commit, or abort with a status) depends on interrupts, cache conflicts
 * and capacity, so no replay can compute it: the recorder patches every
 * xbegin it finds and performs the abort itself (recorder/tscpatch.c,
 * docs/design-notes.md "Transactional memory"). So here:
 *
 *   xbegin  (C7 F8 cd, 66 C7 F8 cw)  not run: CPU_EXIT_XBEGIN, with the
 *           fallback address in exit.target; the replayer applies the
 *           recorded abort (eax = its status, rip = the fallback). A
 *           fallback address that is not canonical raises #GP first, as on
 *           the CPU (which then starts no transaction either).
 *   xend    (NP 0F 01 D5)  #GP: there is no transaction to commit.
 *   xabort  (C6 F8 ib)     nothing: outside a transaction it is a nop.
 *   xtest   (NP 0F 01 D6)  ZF = 1 (not in a transaction), CF OF SF AF PF
 *                          cleared.
 *
 * Prefixes as measured on the CPU (tests/cpu/cases_tsx.c): 66, F2 or F3
 * make xend and xtest #UD, and are ignored by xbegin and xabort (66 gives
 * xbegin a rel16, sign-extended: 64-bit mode does not truncate the fallback
 * address); a segment, 67 or REX prefix changes nothing. Capstone 4 drops
 * F2/F3 from its detail, so they come from decode.c's own prefix scan
 * (CPU_PFX_REP/REPNE). LOCK makes all four #UD; Capstone cannot decode
 * those forms, so they stop the replay as undecodable instead.
 *
 * Without RTM in the recorded CPUID the four raise #UD (feature.c), except
 * xtest, which also exists with HLE alone. The HLE prefixes themselves
 * (xacquire, xrelease: F2/F3 on a locked instruction or a store) are hints
 * that leave the instruction's result unchanged, and run as the plain
 * instruction. */
#include <stdio.h>

#include "replayer/cpu/cpu_int.h"

static int op_xbegin(struct cpu *cpu, const struct cpu_insn *in) {
  u64 target = in->imm;
  if ((u64)((i64)(target << 16) >> 16) != target)
    return cpu__fault(cpu, CPU_FAULT_GP);
  int rc = cpu__halt(cpu, in, CPU_EXIT_XBEGIN);
  cpu->exit.target = target;
  snprintf(cpu->exit.msg, sizeof cpu->exit.msg,
           "xbegin at %#llx: whether its transaction commits is not "
           "reproducible",
           (unsigned long long)cpu->rip);
  return rc;
}

/* xend and xtest are NP: 66, F2 or F3 make them #UD. */
static int np_prefix_bad(const struct cpu_insn *in) {
  return (in->pfx & (CPU_PFX_REP | CPU_PFX_REPNE | CPU_PFX_OPSIZE)) != 0;
}

static int op_xend(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__fault(cpu, np_prefix_bad(in) ? CPU_FAULT_UD : CPU_FAULT_GP);
}

static int op_xabort(struct cpu *cpu, const struct cpu_insn *in) {
  (void)cpu;
  (void)in;
  return CPU_RC_NEXT;
}

static int op_xtest(struct cpu *cpu, const struct cpu_insn *in) {
  if (np_prefix_bad(in) ||
      (!cpu__has(cpu, CPU__FEAT_RTM) && !cpu__has(cpu, CPU__FEAT_HLE)))
    return cpu__fault(cpu, CPU_FAULT_UD);
  cpu__flags_set(cpu, CPU_ARITH, CPU_ZF);
  return CPU_RC_NEXT;
}

static const struct cpu__oprow tsx_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/tsx.def"
#undef OP
};
CPU__FAMILY_TABLE(tsx)
