/* SPDX-License-Identifier: MIT */
/* On-disk codec and names for struct rw_regs. The field order here is the
 * format documented in man/rewind-trace.5 ("Register file"). */
#include <string.h>

#include "endian.h"
#include "regs.h"

void rw_gregs_encode(const struct rw_regs *regs, u8 *dst) {
  u8 *p = dst;
  for (int i = 0; i < RW_NGPR; i++, p += 8) wr_le64(p, regs->gpr[i]);
  wr_le64(p, regs->rip), p += 8;
  wr_le64(p, regs->rflags), p += 8;
  wr_le64(p, regs->fs_base), p += 8;
  wr_le64(p, regs->gs_base), p += 8;
  wr_le64(p, regs->orig_rax), p += 8;
  for (int i = 0; i < RW_NSEG; i++, p += 2) wr_le16(p, regs->seg[i]);
  RW_ASSERT(p - dst == RW_GREGS_DISK_SIZE);
}

void rw_regs_encode(const struct rw_regs *regs, u8 *dst) {
  rw_gregs_encode(regs, dst);
  u8 *p = dst + RW_GREGS_DISK_SIZE;
  memcpy(p, regs->fxsave, sizeof regs->fxsave), p += sizeof regs->fxsave;
  memcpy(p, regs->ymmh, sizeof regs->ymmh), p += sizeof regs->ymmh;
  RW_ASSERT(p - dst == RW_REGS_DISK_SIZE);
}

static void gregs_decode(struct rw_regs *regs, const u8 *src) {
  const u8 *p = src;
  for (int i = 0; i < RW_NGPR; i++, p += 8) regs->gpr[i] = rd_le64(p);
  regs->rip = rd_le64(p), p += 8;
  regs->rflags = rd_le64(p), p += 8;
  regs->fs_base = rd_le64(p), p += 8;
  regs->gs_base = rd_le64(p), p += 8;
  regs->orig_rax = rd_le64(p), p += 8;
  for (int i = 0; i < RW_NSEG; i++, p += 2) regs->seg[i] = rd_le16(p);
}

int rw_gregs_decode(struct rw_regs *regs, const u8 *src, size_t len) {
  RW_RETURN_IF(len < RW_GREGS_DISK_SIZE, RW_ETRUNC,
               "general registers %zu < %d", len, RW_GREGS_DISK_SIZE);
  memset(regs, 0, sizeof *regs);
  gregs_decode(regs, src);
  return 0;
}

int rw_regs_decode(struct rw_regs *regs, const u8 *src, size_t len) {
  RW_RETURN_IF(len < RW_REGS_DISK_SIZE, RW_ETRUNC, "register file %zu < %d",
               len, RW_REGS_DISK_SIZE);
  gregs_decode(regs, src);
  const u8 *p = src + RW_GREGS_DISK_SIZE;
  memcpy(regs->fxsave, p, sizeof regs->fxsave), p += sizeof regs->fxsave;
  memcpy(regs->ymmh, p, sizeof regs->ymmh);
  memset(regs->zmmh, 0, sizeof regs->zmmh); /* not on disk (regs.h) */
  memset(regs->hi16, 0, sizeof regs->hi16);
  memset(regs->k, 0, sizeof regs->k);
  regs->pkru = 0;
  return 0;
}

static const char *const gpr_names[RW_NGPR] = {
#define RW_GPR(enc, name) [enc] = #name,
#include "regs.def"
#undef RW_GPR
};

static const char *const seg_names[RW_NSEG] = {
#define RW_SEG(enc, name) [enc] = #name,
#include "regs.def"
#undef RW_SEG
};

const char *rw_gpr_name(unsigned enc) {
  return enc < RW_NGPR ? gpr_names[enc] : "?";
}

const char *rw_seg_name(unsigned enc) {
  return enc < RW_NSEG ? seg_names[enc] : "?";
}
