/* SPDX-License-Identifier: MIT */
/* The canonical register file of one x86-64 thread, as the recorder captures
 * it, the trace stores it and the replayer restores it, with its on-disk codec.
 * The x87/SSE state is kept in the FXSAVE layout (Intel SDM vol. 1, 10.5.1),
 * which is also what PTRACE_GETFPREGS returns. */
#ifndef RW_COMMON_REGS_H
#define RW_COMMON_REGS_H

#include "rw.h"

enum rw_gpr {
#define RW_GPR(enc, name) RW_REG_##name = (enc),
#include "regs.def"
#undef RW_GPR
  RW_NGPR = 16
};

enum rw_seg {
#define RW_SEG(enc, name) RW_SEG_##name = (enc),
#include "regs.def"
#undef RW_SEG
  RW_NSEG = 6
};

/* One thread's registers. Plain data. */
struct rw_regs {
  u64 gpr[RW_NGPR]; /* rax..r15 in encoding order (enum rw_gpr) */
  u64 rip;          /* instruction pointer */
  u64 rflags;       /* flags register, architectural layout */
  u64 fs_base;      /* FS segment base (thread pointer) */
  u64 gs_base;      /* GS segment base */
  u64 orig_rax;     /* syscall number at a syscall stop, else ~0 */
  u16 seg[RW_NSEG]; /* segment selectors, enum rw_seg order */
  u8 fxsave[512];   /* x87, MXCSR and XMM0-15 in FXSAVE layout */
  u8 ymmh[256];     /* upper 128 bits of YMM0-15, 16 bytes each */
  /* AVX-512 state. Not part of the disk encoding below: traces do not
   * carry it yet, and a decoded register file has it zero. */
  u8 zmmh[512];     /* bits 511:256 of ZMM0-15, 32 bytes each */
  u8 hi16[1024];    /* ZMM16-31, 64 bytes each */
  u64 k[8];         /* opmask registers k0-k7 */
  /* Protection-key rights (PKRU; XSAVE component 9). Not part of the disk
   * encoding either: traces carry it in PKRU records, at the points where
   * the kernel sets it (format/records.def). */
  u32 pkru;
};

/* Size of the on-disk encoding produced by rw_regs_encode(). */
#define RW_REGS_DISK_SIZE (21 * 8 + RW_NSEG * 2 + 512 + 256)

/* Writes REGS (borrowed) into DST, which holds RW_REGS_DISK_SIZE bytes:
 * gpr[0..15], rip, rflags, fs_base, gs_base, orig_rax as LE u64, then the six
 * selectors as LE u16, then fxsave, then ymmh. */
void rw_regs_encode(const struct rw_regs *regs, u8 *dst);

/* Reads LEN bytes at SRC into REGS. Returns 0, or RW_ETRUNC when LEN is less
 * than RW_REGS_DISK_SIZE. */
int rw_regs_decode(struct rw_regs *regs, const u8 *src, size_t len)
    RW_MUST_CHECK;

/* The general part alone (format 1.11, records that do not carry the
 * FP/SSE/AVX state): the first RW_GREGS_DISK_SIZE bytes of the above. */
#define RW_GREGS_DISK_SIZE (21 * 8 + RW_NSEG * 2)
void rw_gregs_encode(const struct rw_regs *regs, u8 *dst);
/* As rw_regs_decode; the FP/SSE/AVX state is zero. */
int rw_gregs_decode(struct rw_regs *regs, const u8 *src, size_t len)
    RW_MUST_CHECK;

/* The name of general register ENC (0-15), e.g. "rax"; "?" when out of range. */
const char *rw_gpr_name(unsigned enc);
/* The name of segment register ENC (0-5), e.g. "fs"; "?" when out of range. */
const char *rw_seg_name(unsigned enc);

#endif /* RW_COMMON_REGS_H */
