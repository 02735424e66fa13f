/* SPDX-License-Identifier: MIT */
/* The x87 host executor and the FXSAVE conversion. x87 results (rounding
 * under FCW's precision and rounding control, transcendental functions,
 * exception flags, condition codes, unmasked-exception responses) are taken
 * from the host's own x87 unit, which is exact on the x86-64 machine that
 * replays; this file holds the one inline-asm sequence that does it and a
 * table of 2048 tiny host routines, one per x87 opcode. Decoding, memory
 * access and the guest's pointer bookkeeping are x87.c's. */
#include "common/endian.h"
#include "replayer/cpu/x87.h"

/* The routine table: entry h (16 bytes) executes the x87 opcode whose FOP
 * is h, then returns. Register forms use the ModRM byte as is; memory forms
 * keep ModRM.reg and address [rdi] (mod 00, rm 111). Each entry starts with
 * endbr64 (a no-op without CET) so indirect calls stay valid under IBT. */
__asm__(
    "  .pushsection .text\n"
    "  .balign 16\n"
    ".Lrw_x87_stubs:\n"
    "  .set rw_x87_h, 0\n"
    "  .rept 2048\n"
    "  .balign 16\n"
    "  .byte 0xf3, 0x0f, 0x1e, 0xfa\n"
    "  .if (rw_x87_h & 0xc0) == 0xc0\n"
    "  .byte 0xd8 + (rw_x87_h >> 8), rw_x87_h & 0xff\n"
    "  .else\n"
    "  .byte 0xd8 + (rw_x87_h >> 8), (rw_x87_h & 0x38) | 7\n"
    "  .endif\n"
    "  .byte 0xc3\n"
    "  .set rw_x87_h, rw_x87_h + 1\n"
    "  .endr\n"
    "  .popsection\n");

void cpu__x87_host(unsigned hop, struct cpu__x87_job *job) {
  u8 host[108] __attribute__((aligned(16)));
  u64 off = (u64)(hop & 0x7ff) << 4;
  u64 fl = job->flags & CPU_ARITH;
  u64 target;
  /* fnsave saves the host's x87 state and reinitialises it, so nothing of
   * the host leaks into the guest and no host exception is pending; frstor
   * checks for pending exceptions before it loads, so neither frstor traps
   * (the executor is never asked for a waiting opcode while the guest has
   * one pending). The red zone is skipped because of pushfq and call; the
   * flags outside OSZAPC (TF, AC, DF) stay the host's, and nothing between
   * popfq and the call may change flags. */
  __asm__ volatile(
      "fnsave (%[host])\n\t"
      "frstor (%[img])\n\t"
      "lea .Lrw_x87_stubs(%%rip), %[t]\n\t"
      "add %[off], %[t]\n\t"
      "lea -128(%%rsp), %%rsp\n\t"
      "pushfq\n\t"
      "andq $~0x8d5, (%%rsp)\n\t"
      "orq %[fl], (%%rsp)\n\t"
      "popfq\n\t"
      "call *%[t]\n\t"
      "pushfq\n\t"
      "popq %[fl]\n\t"
      "lea 128(%%rsp), %%rsp\n\t"
      "fnsave (%[img])\n\t"
      "frstor (%[host])\n\t"
      : [fl] "+r"(fl), [t] "=&r"(target)
      : [off] "r"(off), [host] "r"(host), [img] "r"(job->img),
        "D"(job->mem)
      : "cc", "memory");
  job->flags = fl;
}

/* ---- Host facts ------------------------------------------------------- */

static struct cpu__x87_hostinfo x87_info;
static int x87_info_done; /* accessed with __atomic builtins */

const struct cpu__x87_hostinfo *cpu__x87_hostinfo(void) {
  if (__atomic_load_n(&x87_info_done, __ATOMIC_ACQUIRE))
    return &x87_info;
  u8 host[108] __attribute__((aligned(16)));
  u8 fx[512] __attribute__((aligned(16)));
  float one = 1.0f;
  u64 fip;
  memset(fx, 0, sizeof fx);
  /* fld m32 updates FIP, FDP and FOP; fxsave64 shows them or zeros. */
  __asm__ volatile(
      "fnsave %[host]\n\t"
      "flds %[one]\n\t"
      "fxsave64 %[fx]\n\t"
      "frstor %[host]\n\t"
      : [host] "=m"(host), [fx] "=m"(fx)
      : [one] "m"(one)
      : "memory");
  memcpy(&fip, fx + 8, 8);
  struct cpu__x87_hostinfo info = {fip == 0};
  /* Every thread computes the same answer, so a race only repeats it. */
  __atomic_store(&x87_info, &info, __ATOMIC_RELAXED);
  __atomic_store_n(&x87_info_done, 1, __ATOMIC_RELEASE);
  return &x87_info;
}

/* ---- FXSAVE image ----------------------------------------------------- */


void cpu__x87_to_fxsave(const struct cpu *cpu, void *img, int is64) {
  const struct cpu_x87 *x = &cpu->x87;
  const struct cpu__x87_hostinfo *hi = cpu__x87_hostinfo();
  u8 *p = img;
  unsigned top = (x->fsw >> 11) & 7;
  int hide = hi->fxsave_hides_ptrs && !(x->fsw & CPU_FSW_ES);
  wr_le16(p + 0, x->fcw);
  wr_le16(p + 2, x->fsw);
  p[4] = x->ftw;
  p[5] = 0;
  wr_le16(p + 6, hide ? 0 : x->fop);
  if (hide) {
    memset(p + 8, 0, 16);
  } else if (is64) {
    wr_le64(p + 8, x->fip);
    wr_le64(p + 16, x->fdp);
  } else {
    wr_le32(p + 8, (u32)x->fip);
    wr_le32(p + 12, 0); /* FCS, not modelled */
    wr_le32(p + 16, (u32)x->fdp);
    wr_le32(p + 20, 0); /* FDS */
  }
  for (unsigned i = 0; i < 8; i++) {
    const struct cpu_f80 *f = &x->st[(top + i) & 7];
    u8 *r = p + 32 + 16 * i;
    wr_le64(r, f->mant);
    wr_le16(r + 8, f->se);
    memset(r + 10, 0, 6);
  }
}

void cpu__x87_from_fxsave(struct cpu *cpu, const void *img, int is64) {
  struct cpu_x87 *x = &cpu->x87;
  const u8 *p = img;
  x->fcw = (rd_le16(p + 0) & 0x1f3f) | 0x40;
  x->fsw = rd_le16(p + 2);
  x->ftw = p[4];
  x->fop = rd_le16(p + 6) & 0x7ff;
  if (is64) {
    x->fip = rd_le64(p + 8);
    x->fdp = rd_le64(p + 16);
  } else {
    x->fip = rd_le32(p + 8);
    x->fdp = rd_le32(p + 16);
  }
  unsigned top = (x->fsw >> 11) & 7;
  for (unsigned i = 0; i < 8; i++) {
    struct cpu_f80 *f = &x->st[(top + i) & 7];
    f->mant = rd_le64(p + 32 + 16 * i);
    f->se = rd_le16(p + 40 + 16 * i);
    memset(f->pad, 0, sizeof f->pad);
  }
  cpu__x87_fix_es(cpu);
}
