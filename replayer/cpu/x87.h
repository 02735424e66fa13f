/* SPDX-License-Identifier: MIT */
/* The x87 unit's interface to the rest of replayer/cpu/: the pending
 * exception check of waiting instructions (x87 and MMX), conversion between
 * cpu->x87 and the x87 part of an FXSAVE image (fxsave/fxrstor, the register
 * file of cpu_get_regs), and the host executor that x87.c builds its
 * handlers on. It does not cover MXCSR or the XMM registers of the image. */
#ifndef RW_REPLAYER_CPU_X87_H
#define RW_REPLAYER_CPU_X87_H

#include "replayer/cpu/cpu_int.h"

/* FSW bits. */
enum {
  CPU_FSW_IE = 0x1,   /* invalid operation */
  CPU_FSW_DE = 0x2,   /* denormal operand */
  CPU_FSW_ZE = 0x4,   /* zero divide */
  CPU_FSW_OE = 0x8,   /* overflow */
  CPU_FSW_UE = 0x10,  /* underflow */
  CPU_FSW_PE = 0x20,  /* precision */
  CPU_FSW_SF = 0x40,  /* stack fault (with IE) */
  CPU_FSW_ES = 0x80,  /* exception summary: an unmasked flag is set */
  CPU_FSW_TOP = 0x3800,
  CPU_FSW_B = 0x8000  /* busy, a copy of ES */
};

/* Whether an unmasked exception is pending (a flag of FSW whose mask bit in
 * FCW is clear). The CPU keeps ES and B equal to this. */
static inline int cpu__x87_pending(const struct cpu *cpu) {
  return (cpu->x87.fsw & ~cpu->x87.fcw & 0x3f) != 0;
}

/* The check every waiting x87 instruction (and fwait, and MMX instructions)
 * makes before it runs: returns 0, or CPU_FAULT (#MF, cpu->exit filled,
 * nothing changed) when an unmasked exception is pending. */
RW_MUST_CHECK static inline int cpu__x87_wait(struct cpu *cpu) {
  if (RW_UNLIKELY(cpu__x87_pending(cpu))) return cpu__fault(cpu, CPU_FAULT_MF);
  return 0;
}

/* Recomputes ES and B from the flags and masks, as the CPU does after every
 * load of FSW or FCW. */
static inline void cpu__x87_fix_es(struct cpu *cpu) {
  cpu->x87.fsw &= 0x7f7f;
  if (cpu__x87_pending(cpu)) cpu->x87.fsw |= CPU_FSW_ES | CPU_FSW_B;
}

/* Writes the x87 part of an FXSAVE image from cpu->x87 into IMG (512-byte
 * image, caller-owned): bytes 0-23 (FCW, FSW, abridged FTW, FOP, FIP, FDP)
 * and 32-159 (ST0-ST7 in stack order, 16 bytes each, padding zero); MXCSR
 * and MXCSR_MASK (24-31) and the XMM area are left alone. IS64 selects the
 * REX.W layout (fxsave64: 64-bit FIP and FDP; PTRACE_GETFPREGS uses it);
 * without it FIP and FDP are 32-bit offsets followed by the FCS and FDS
 * selectors, which are not modelled and read as 0 (what the CPU shows once
 * the kernel has restored the state with a 64-bit xrstor). Like the host
 * CPU, FIP, FDP and FOP read as zero when the host's own FXSAVE hides them
 * (AMD without a pending exception). */
void cpu__x87_to_fxsave(const struct cpu *cpu, void *img, int is64);

/* Loads cpu->x87 from the x87 part of the FXSAVE image IMG (borrowed),
 * bytes 0-23 and 32-159, as fxrstor does: reserved FCW bits are dropped,
 * ES and B recomputed, FOP taken to 11 bits; IS64 as above (without it FIP
 * and FDP are zero-extended 32-bit offsets). Never fails: fxrstor's #GP
 * cases concern MXCSR, which the caller checks. */
void cpu__x87_from_fxsave(struct cpu *cpu, const void *img, int is64);

/* ---- The host executor (x87_host.c) ------------------------------------
 *
 * Every x87 instruction that computes runs on the host's own x87 unit, which
 * is exact by construction on the x86-64 machine that replays: the guest's
 * registers, FCW (precision, rounding, masks), FSW and tags are loaded with
 * frstor, the same opcode runs with its memory operand in a host buffer, and
 * fnsave reads everything back; the host's own x87 state is saved before and
 * restored after. Unmasked exceptions behave as on the CPU: the instruction
 * leaves the state the CPU leaves and sets ES; #MF is raised by the next
 * waiting instruction (cpu__x87_wait). */

/* The state one host run starts from and ends with. Plain data. */
struct cpu__x87_job {
  u8 img[108];  /* FNSAVE/FRSTOR image (32-bit protected-mode layout) */
  u8 pad_[4];
  u8 mem[112] __attribute__((aligned(16))); /* the memory operand */
  u64 flags;    /* in: arithmetic rflags bits loaded before the opcode;
                   out: rflags bits after it */
};

/* Runs the x87 opcode HOP on the host: HOP is the 11-bit FOP of the
 * instruction (low 3 bits of the first opcode byte, then ModRM); a memory
 * form (ModRM.mod != 3) addresses JOB->mem whatever its ModRM.rm says.
 * The opcode must be a valid x87 opcode other than fnstsw ax. */
void cpu__x87_host(unsigned hop, struct cpu__x87_job *job);

/* Host facts probed once: whether the host's FXSAVE stores zero FIP, FDP
 * and FOP when no exception is pending. */
struct cpu__x87_hostinfo {
  int fxsave_hides_ptrs; /* 1 on AMD CPUs without a pending exception */
};
const struct cpu__x87_hostinfo *cpu__x87_hostinfo(void);

#endif /* RW_REPLAYER_CPU_X87_H */
