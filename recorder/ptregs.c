/* SPDX-License-Identifier: MIT */
/* Registers of a stopped tracee, converted between ptrace's structures
 * (user_regs_struct, and the XSAVE area of PTRACE_GETREGSET NT_X86_XSTATE
 * whose first 512 bytes are the FXSAVE image) and the canonical struct
 * rw_regs of common/regs.h. */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

int rec__regs_init(struct rec *r) {
  u32 c[4];
  rec__cpuid_exec(0xd, 0, c);
  size_t size = c[2] > 4096 ? c[2] : 4096; /* ecx: all supported features */
  rec__cpuid_exec(0xd, 2, c);
  r->ymm_off = c[1] ? c[1] : 576; /* ebx: offset of the YMM_Hi128 state */
  /* Protection keys: the OS enabled them (OSPKE, leaf 7 ECX bit 4), and
   * PKRU is XSAVE component 9. */
  rec__cpuid_exec(7, 0, c);
  if ((c[2] >> 4) & 1) {
    rec__cpuid_exec(0xd, 9, c);
    r->pkru_off = c[0] >= 4 ? c[1] : 0;
  }
  /* AVX-512: opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7), standard offsets. */
  rec__cpuid_exec(0xd, 0, c);
  if ((c[0] & 0xe0) == 0xe0) {
    rec__cpuid_exec(0xd, 5, c);
    r->k_off = c[1];
    rec__cpuid_exec(0xd, 6, c);
    r->zmmh_off = c[1];
    rec__cpuid_exec(0xd, 7, c);
    r->hi16_off = c[1];
  }
  r->xsave_size = size + 64;
  r->xsave = calloc(1, r->xsave_size);
  RW_RETURN_IF(!r->xsave, RW_ENOMEM, "xsave buffer");
  return 0;
}

static void from_user(struct rw_regs *o, const struct user_regs_struct *u) {
  o->gpr[RW_REG_rax] = u->rax;
  o->gpr[RW_REG_rcx] = u->rcx;
  o->gpr[RW_REG_rdx] = u->rdx;
  o->gpr[RW_REG_rbx] = u->rbx;
  o->gpr[RW_REG_rsp] = u->rsp;
  o->gpr[RW_REG_rbp] = u->rbp;
  o->gpr[RW_REG_rsi] = u->rsi;
  o->gpr[RW_REG_rdi] = u->rdi;
  o->gpr[RW_REG_r8] = u->r8;
  o->gpr[RW_REG_r9] = u->r9;
  o->gpr[RW_REG_r10] = u->r10;
  o->gpr[RW_REG_r11] = u->r11;
  o->gpr[RW_REG_r12] = u->r12;
  o->gpr[RW_REG_r13] = u->r13;
  o->gpr[RW_REG_r14] = u->r14;
  o->gpr[RW_REG_r15] = u->r15;
  o->rip = u->rip;
  o->rflags = u->eflags;
  o->fs_base = u->fs_base;
  o->gs_base = u->gs_base;
  o->orig_rax = u->orig_rax;
  o->seg[RW_SEG_es] = (u16)u->es;
  o->seg[RW_SEG_cs] = (u16)u->cs;
  o->seg[RW_SEG_ss] = (u16)u->ss;
  o->seg[RW_SEG_ds] = (u16)u->ds;
  o->seg[RW_SEG_fs] = (u16)u->fs;
  o->seg[RW_SEG_gs] = (u16)u->gs;
}

static void to_user(struct user_regs_struct *u, const struct rw_regs *o) {
  u->rax = o->gpr[RW_REG_rax];
  u->rcx = o->gpr[RW_REG_rcx];
  u->rdx = o->gpr[RW_REG_rdx];
  u->rbx = o->gpr[RW_REG_rbx];
  u->rsp = o->gpr[RW_REG_rsp];
  u->rbp = o->gpr[RW_REG_rbp];
  u->rsi = o->gpr[RW_REG_rsi];
  u->rdi = o->gpr[RW_REG_rdi];
  u->r8 = o->gpr[RW_REG_r8];
  u->r9 = o->gpr[RW_REG_r9];
  u->r10 = o->gpr[RW_REG_r10];
  u->r11 = o->gpr[RW_REG_r11];
  u->r12 = o->gpr[RW_REG_r12];
  u->r13 = o->gpr[RW_REG_r13];
  u->r14 = o->gpr[RW_REG_r14];
  u->r15 = o->gpr[RW_REG_r15];
  u->rip = o->rip;
  u->eflags = o->rflags;
  u->fs_base = o->fs_base;
  u->gs_base = o->gs_base;
  u->orig_rax = o->orig_rax;
  u->es = o->seg[RW_SEG_es];
  u->cs = o->seg[RW_SEG_cs];
  u->ss = o->seg[RW_SEG_ss];
  u->ds = o->seg[RW_SEG_ds];
  u->fs = o->seg[RW_SEG_fs];
  u->gs = o->seg[RW_SEG_gs];
}

/* The thread's XSAVE image into R->xsave: its length, or 0 without
 * XSAVE (or an image too short to hold the header). */
static size_t xsave_read(struct rec *r, pid_t tid) {
  struct iovec iov = {r->xsave, r->xsave_size};
  if (ptrace(PTRACE_GETREGSET, tid, (void *)NT_X86_XSTATE, &iov) < 0 ||
      iov.iov_len < 576)
    return 0;
  return iov.iov_len;
}

/* The FXSAVE image and the YMM upper halves of REGS: from the XSAVE image
 * of LEN bytes in R->xsave, or, when LEN is 0, from GETFPREGS. */
static int fp_from(struct rec *r, pid_t tid, size_t len,
                   struct rw_regs *regs) {
  if (!len) { /* No XSAVE: the FXSAVE image alone. */
    struct user_fpregs_struct f;
    RW_RETURN_IF(ptrace(PTRACE_GETFPREGS, tid, 0, &f) < 0, RW_ERR(errno),
                 "GETFPREGS %d", (int)tid);
    memcpy(regs->fxsave, &f, sizeof regs->fxsave);
    memset(regs->ymmh, 0, sizeof regs->ymmh);
    return 0;
  }
  memcpy(regs->fxsave, r->xsave, sizeof regs->fxsave);
  u64 bv = rd_le64(r->xsave + 512);
  /* Components not in XSTATE_BV are in their initial state: zero. */
  if ((bv & 4) && len >= r->ymm_off + 256)
    memcpy(regs->ymmh, r->xsave + r->ymm_off, sizeof regs->ymmh);
  else
    memset(regs->ymmh, 0, sizeof regs->ymmh);
  return 0;
}

/* The XINUSE bits and the AVX-512 state (rec__xstate_get) from the XSAVE
 * image of LEN bytes in R->xsave. */
static int avx512_from(struct rec *r, size_t len, u32 *xinuse,
                       u8 out[1600]) {
  *xinuse = 3; /* without XSAVE: x87 and SSE, as after an fxrstor */
  if (!len) return 0;
  u64 bv = rd_le64(r->xsave + 512);
  *xinuse = (u32)(bv & 0xff);
  if (!r->hi16_off || !(bv & 0xe0) || len < r->hi16_off + 1024) return 0;
  memset(out, 0, 1600);
  /* A component not in XSTATE_BV is in its initial state: zero. */
  if (bv & 0x20) memcpy(out, r->xsave + r->k_off, 64);
  if (bv & 0x40) memcpy(out + 64, r->xsave + r->zmmh_off, 512);
  if (bv & 0x80) memcpy(out + 576, r->xsave + r->hi16_off, 1024);
  return 1;
}

int rec__regs_get(struct rec *r, pid_t tid, struct rw_regs *regs, int fp) {
  struct user_regs_struct u;
  RW_RETURN_IF(ptrace(PTRACE_GETREGS, tid, 0, &u) < 0, RW_ERR(errno),
               "GETREGS %d", (int)tid);
  from_user(regs, &u);
  /* The AVX-512 state is not recorded yet (common/regs.h). */
  memset(regs->zmmh, 0, sizeof regs->zmmh);
  memset(regs->hi16, 0, sizeof regs->hi16);
  memset(regs->k, 0, sizeof regs->k);
  if (!fp) return 0;
  return fp_from(r, tid, xsave_read(r, tid), regs);
}

int rec__xstate_get(struct rec *r, pid_t tid, u32 *xinuse, u8 out[1600]) {
  return avx512_from(r, xsave_read(r, tid), xinuse, out);
}

int rec__fp_xstate_get(struct rec *r, pid_t tid, struct rw_regs *regs,
                       u32 *xinuse, u8 out[1600]) {
  size_t len = xsave_read(r, tid);
  RW_FORWARD(fp_from(r, tid, len, regs));
  return avx512_from(r, len, xinuse, out);
}

int rec__pkru_get(struct rec *r, pid_t tid, u32 *pkru, int *inuse) {
  if (!r->pkru_off) return RW_ENOTFOUND;
  struct iovec iov = {r->xsave, r->xsave_size};
  RW_RETURN_IF(ptrace(PTRACE_GETREGSET, tid, (void *)NT_X86_XSTATE, &iov) < 0,
               RW_ERR(errno), "GETREGSET xstate %d", (int)tid);
  RW_RETURN_IF(iov.iov_len < r->pkru_off + 4, RW_ENOTFOUND,
               "no PKRU in the xstate of %d", (int)tid);
  /* XSTATE_BV[9] clear: PKRU in its initial state, 0, as far as the
   * kernel's saved image knows. */
  *inuse = (rd_le64(r->xsave + 512) >> 9) & 1;
  *pkru = *inuse ? rd_le32(r->xsave + r->pkru_off) : 0;
  return 0;
}

int rec__regs_set_gprs(pid_t tid, const struct rw_regs *regs) {
  struct user_regs_struct u;
  to_user(&u, regs);
  RW_RETURN_IF(ptrace(PTRACE_SETREGS, tid, 0, &u) < 0, RW_ERR(errno),
               "SETREGS %d", (int)tid);
  return 0;
}

int rec__syscall_op(pid_t tid) {
  u8 info[128];
  if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof info, info) < 0)
    return -1;
  return info[0];
}
