/* SPDX-License-Identifier: MIT */
/* Threads: creation, the register file to and from the canonical struct
 * rw_regs (x87 and SSE in FXSAVE layout, YMM upper halves), the instruction
 * counter and the stop request. Running is run.c's. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/cpu/cpu_int.h"
#include "replayer/cpu/x87.h"

/* The vendor of the machine we run on, from its own cpuid leaf 0, and its
 * family and model, from leaf 1. */
static int host_vendor(u32 *family, u32 *model) {
  u32 a, b, c, d;
  __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
  *family = cpu_family_of(a);
  *model = cpu_model_of(a);
  __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
  return cpu_vendor_of(b, d, c);
}

int cpu_new(cpu_mem *mem, const struct cpu_config *cfg, cpu_thread **out) {
  struct cpu *c;
  int rc;
  *out = NULL;
  rc = cpu__code_init(mem);
  if (rc) return rc;
  cpu__host_init();
  c = aligned_alloc(64, (sizeof *c + 63) & ~(size_t)63);
  if (!c) return RW_ENOMEM;
  memset(c, 0, sizeof *c);
  if (cpu__jcache_new(c)) {
    free(c);
    return RW_ENOMEM;
  }
  c->mem = mem;
  c->rep_resume = c->rep_skip = ~0ull;
  if (cfg) c->cfg = *cfg;
  if (!c->cfg.xcr0) c->cfg.xcr0 = 3;
  if (c->cfg.vendor != CPU_VENDOR_AMD && c->cfg.vendor != CPU_VENDOR_INTEL)
    c->cfg.vendor = host_vendor(&c->cfg.family, &c->cfg.model);
  c->feats = cpu__features(&c->cfg);
  c->rflags = 0x202;
  c->cc = (struct cc){CC_EFLAGS, 0, 0, 0};
  c->mxcsr = 0x1f80;
  c->x87.fcw = 0x37f;
  atomic_init(&c->stop, 0);
  cpu__tlb_flush(c);
  c->jcache_gen = mem->code_gen;
  c->mem_next = mem->cpus;
  mem->cpus = c;
  *out = c;
  return 0;
}

void cpu_free(cpu_thread *c) {
  struct cpu **pp;
  if (!c) return;
  for (pp = &c->mem->cpus; *pp; pp = &(*pp)->mem_next)
    if (*pp == c) {
      *pp = c->mem_next;
      break;
    }
  free(c->jcache);
  free(c);
}

cpu_mem *cpu_get_mem(cpu_thread *c) { return c->mem; }


void cpu_get_regs(const cpu_thread *c, struct rw_regs *r) {
  unsigned top = (c->x87.fsw >> 11) & 7;
  memset(r, 0, sizeof *r);
  memcpy(r->gpr, c->gpr, sizeof r->gpr);
  r->rip = c->rip;
  r->rflags = cpu__rflags(c);
  r->fs_base = c->segbase[CPU_SEG_FS];
  r->gs_base = c->segbase[CPU_SEG_GS];
  r->orig_rax = ~(u64)0;
  r->seg[RW_SEG_cs] = 0x33;
  r->seg[RW_SEG_ss] = 0x2b;
  wr_le16(r->fxsave + 0, c->x87.fcw);
  wr_le16(r->fxsave + 2, c->x87.fsw);
  r->fxsave[4] = c->x87.ftw;
  wr_le16(r->fxsave + 6, c->x87.fop);
  wr_le64(r->fxsave + 8, c->x87.fip);
  wr_le64(r->fxsave + 16, c->x87.fdp);
  wr_le32(r->fxsave + 24, c->mxcsr);
  wr_le32(r->fxsave + 28, 0xffff);
  for (unsigned i = 0; i < 8; i++) {
    const struct cpu_f80 *f = &c->x87.st[(top + i) & 7];
    wr_le64(r->fxsave + 32 + 16 * i, f->mant);
    wr_le16(r->fxsave + 40 + 16 * i, f->se);
  }
  cpu__x87_to_fxsave(c, r->fxsave, 1); /* x87.h: what fxsave64 shows */
  for (unsigned i = 0; i < 16; i++) {
    memcpy(r->fxsave + 160 + 16 * i, c->ymm[i].b, 16);
    memcpy(r->ymmh + 16 * i, c->ymm[i].b + 16, 16);
    memcpy(r->zmmh + 32 * i, c->zmmh[i].b, 32);
    memcpy(r->hi16 + 64 * i, c->ymm[16 + i].b, 32);
    memcpy(r->hi16 + 64 * i + 32, c->zmmh[16 + i].b, 32);
  }
  memcpy(r->k, c->k, sizeof r->k);
  r->pkru = c->pkru;
}

u32 cpu_pkru(const cpu_thread *c) { return c->pkru; }

void cpu_set_pkru(cpu_thread *c, u32 pkru) { c->pkru = pkru; }

u32 cpu_xinuse(const cpu_thread *c) { return cpu__xinuse(c) & 0xe7; }

void cpu_set_xinuse(cpu_thread *c, u32 xinuse) { c->xinuse = xinuse & 0xe7; }

int cpu_set_regs(cpu_thread *c, const struct rw_regs *r) {
  u32 mxcsr = rd_le32(r->fxsave + 24);
  unsigned top;
  RW_RETURN_IF(mxcsr & 0xffff0000u, RW_EINVAL, "mxcsr %#x", mxcsr);
  RW_RETURN_IF(r->rip >= (1ull << 47) && r->rip < 0xffff800000000000ull,
               RW_EINVAL, "rip %#llx", (unsigned long long)r->rip);
  if (RW_UNLIKELY(c->rep_open)) cpu__rep_interrupt(c);
  memcpy(c->gpr, r->gpr, sizeof r->gpr);
  c->rep_paused = 0;
  c->rep_resume = c->rep_skip = ~0ull;
  c->gpr[CPU_REG_NONE] = 0;
  c->rip = r->rip;
  cpu__rflags_set(c, r->rflags);
  c->segbase[CPU_SEG_NONE] = 0;
  c->segbase[CPU_SEG_FS] = r->fs_base;
  c->segbase[CPU_SEG_GS] = r->gs_base;
  c->x87.fcw = rd_le16(r->fxsave + 0);
  c->x87.fsw = rd_le16(r->fxsave + 2);
  c->x87.ftw = r->fxsave[4];
  c->x87.fop = rd_le16(r->fxsave + 6) & 0x7ff;
  c->x87.fip = rd_le64(r->fxsave + 8);
  c->x87.fdp = rd_le64(r->fxsave + 16);
  c->mxcsr = mxcsr;
  top = (c->x87.fsw >> 11) & 7;
  for (unsigned i = 0; i < 8; i++) {
    struct cpu_f80 *f = &c->x87.st[(top + i) & 7];
    f->mant = rd_le64(r->fxsave + 32 + 16 * i);
    f->se = rd_le16(r->fxsave + 40 + 16 * i);
    memset(f->pad, 0, sizeof f->pad);
  }
  cpu__x87_from_fxsave(c, r->fxsave, 1); /* x87.h: fxrstor64's rules */
  for (unsigned i = 0; i < 16; i++) {
    memcpy(c->ymm[i].b, r->fxsave + 160 + 16 * i, 16);
    memcpy(c->ymm[i].b + 16, r->ymmh + 16 * i, 16);
    memcpy(c->zmmh[i].b, r->zmmh + 32 * i, 32);
    memcpy(c->ymm[16 + i].b, r->hi16 + 64 * i, 32);
    memcpy(c->zmmh[16 + i].b, r->hi16 + 64 * i + 32, 32);
  }
  memcpy(c->k, r->k, sizeof c->k);
  c->pkru = r->pkru;
  return 0;
}

/* The architectural state is the head of struct cpu, up to icount. */
#define STATE_SIZE offsetof(struct cpu, icount)
_Static_assert(offsetof(struct cpu, gpr) == 0, "registers first");

size_t cpu_state_size(void) { return STATE_SIZE; }

void cpu_state_save(const cpu_thread *c, void *dst) {
  memcpy(dst, c, STATE_SIZE);
}

void cpu_state_load(cpu_thread *c, const void *src) {
  memcpy(c, src, STATE_SIZE);
  c->gpr[CPU_REG_NONE] = 0;
  c->rep_skip = ~0ull;
}

u64 cpu_icount(const cpu_thread *c) { return c->icount; }

u64 cpu_gpr(const cpu_thread *c, unsigned reg) {
  return reg < 16 ? c->gpr[reg] : 0;
}

u64 cpu_rip(const cpu_thread *c) { return c->rip; }

int cpu_rep_paused(const cpu_thread *c) { return c->rep_paused; }

void cpu_set_icount(cpu_thread *c, u64 icount) { c->icount = icount; }

void cpu_stop(cpu_thread *c) { atomic_store(&c->stop, 1); }

void cpu_break_cond(cpu_thread *c, u64 addr, const u64 gpr[16]) {
  c->bpc_on = gpr != NULL;
  c->bpc_addr = addr;
  if (gpr) memcpy(c->bpc_gpr, gpr, sizeof c->bpc_gpr);
}

void cpu_last_access(const cpu_thread *c, u64 *read_addr, u32 *read_size,
                     u64 *write_addr, u32 *write_size) {
  *read_addr = c->last_read.addr;
  *read_size = c->last_read.size;
  *write_addr = c->last_write.addr;
  *write_size = c->last_write.size;
}

int cpu_rep_open(const cpu_thread *c, u64 *at, const char **mnem,
                 u64 *requested, u64 *done, u64 *n) {
  if (!c->rep_open) return 0;
  *at = c->rep_at;
  *mnem = c->rep_mnem;
  *requested = c->rep_req;
  *done = c->rep_done;
  *n = c->rep_n;
  return 1;
}

int cpu_set_observer(cpu_thread *c, const struct cpu_observer *obs) {
  int kinds = 0;
  if (obs)
    c->obs = *obs;
  else
    memset(&c->obs, 0, sizeof c->obs);
  kinds |= c->obs.on_call ? CPU__OBS_CALL : 0;
  kinds |= c->obs.on_ret ? CPU__OBS_RET : 0;
  kinds |= c->obs.on_branch ? CPU__OBS_BRANCH : 0;
  kinds |= c->obs.on_rep ? CPU__OBS_REP : 0;
  c->rep_open = 0; /* a rep begun before is not this observer's */
  if (kinds != c->observed) { /* decode again, with the other handlers */
    c->observed = kinds;
    cpu__code_invalidate(c->mem, ~(u64)0);
  }
  return 0;
}
