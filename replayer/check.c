/* SPDX-License-Identifier: MIT */
/* Divergence checks and reports. The registers the emulator reaches an
 * event with are compared with the recorded ones; on the first difference
 * the replay stops, and rp_report() explains it: the event, the thread, the
 * registers side by side, the last instructions executed (found by running
 * that stretch again from a keyframe, one instruction at a time) and the
 * memory imports applied just before. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

#define RP_FLAGS_MASK 0xcd5ull /* CF PF AF ZF SF DF OF */
#define RP_LAST 32

/* Byte ranges of the FXSAVE image that hold architectural state the
 * emulator reproduces: FCW, FSW, abridged FTW, MXCSR, ST0-7, XMM0-15. */
static int fx_equal(const u8 *a, const u8 *b) {
  if (memcmp(a, b, 5)) return 0;              /* fcw, fsw, ftw */
  if (memcmp(a + 24, b + 24, 4)) return 0;    /* mxcsr */
  for (int i = 0; i < 8; i++)
    if (memcmp(a + 32 + 16 * i, b + 32 + 16 * i, 10)) return 0;
  return memcmp(a + 160, b + 160, 256) == 0;  /* xmm0-15 */
}

int rp__regs_match(const struct rw_regs *e, const struct rw_regs *a,
                   int full) {
  const u64 mask = RP_FLAGS_MASK;
  for (int i = 0; i < RW_NGPR; i++)
    if (e->gpr[i] != a->gpr[i]) return 0;
  if (e->rip != a->rip || e->fs_base != a->fs_base ||
      e->gs_base != a->gs_base)
    return 0;
  if ((e->rflags ^ a->rflags) & mask) return 0;
  if (!full) return 1;
  return fx_equal(e->fxsave, a->fxsave) &&
         memcmp(e->ymmh, a->ymmh, sizeof e->ymmh) == 0;
}

void rp__note_recent(rp_replay *rp, const struct rp__rec *rec, u64 addr,
                     u64 len) {
  struct rp__recent *r = &rp->proc->recent[rp->proc->nrecent++ % RP_RECENT];
  r->seq = rec->seq;
  r->type = rec->type;
  r->addr = addr;
  r->len = len;
}

int rp__cs_open(rp_replay *rp) {
  if (rp->cs) return 0;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &rp->cs) != CS_ERR_OK) {
    rp->cs = 0;
    return RW_EUNSUPPORTED;
  }
  return 0;
}

static void put_gprs(FILE *f, const struct rw_regs *e,
                     const struct rw_regs *a) {
  fprintf(f, "  %-8s %-18s  %-18s\n", "register", "recorded", "replayed");
#define ROW(name, ev, av)                                              \
  fprintf(f, "  %-8s 0x%016llx  0x%016llx%s\n", name,                  \
          (unsigned long long)(ev), (unsigned long long)(av),          \
          (ev) != (av) ? "   <- differs" : "")
  for (int i = 0; i < RW_NGPR; i++)
    ROW(rw_gpr_name((unsigned)i), e->gpr[i], a->gpr[i]);
  ROW("rip", e->rip, a->rip);
  ROW("eflags", e->rflags & RP_FLAGS_MASK, a->rflags & RP_FLAGS_MASK);
  ROW("fs_base", e->fs_base, a->fs_base);
  ROW("gs_base", e->gs_base, a->gs_base);
#undef ROW
  if (e->fs_base != a->fs_base || e->gs_base != a->gs_base)
    fprintf(f, "  (the recorder reads the FS and GS bases through ptrace, "
            "which on some kernels does not show a base the program set "
            "with wrfsbase or wrgsbase)\n");
  if ((e->rflags ^ a->rflags) & RP_FLAGS_MASK) {
    static const struct {
      u64 bit;
      char name[3];
    } fl[] = {{0x1, "CF"},  {0x4, "PF"},  {0x10, "AF"}, {0x40, "ZF"},
              {0x80, "SF"}, {0x400, "DF"}, {0x800, "OF"}};
    fprintf(f, "  flags that differ:");
    for (size_t i = 0; i < RW_ARRAY_SIZE(fl); i++)
      if ((e->rflags ^ a->rflags) & fl[i].bit)
        fprintf(f, " %s (recorded %d)", fl[i].name, !!(e->rflags & fl[i].bit));
    fprintf(f, "\n");
  }
  if (memcmp(e->fxsave, a->fxsave, 5))
    fprintf(
        f,
        "  x87 control/status/tag differ: %04x/%04x/%02x vs %04x/%04x/%02x\n",
        rd_le16(e->fxsave), rd_le16(e->fxsave + 2), e->fxsave[4],
        rd_le16(a->fxsave), rd_le16(a->fxsave + 2), a->fxsave[4]);
  if (memcmp(e->fxsave + 24, a->fxsave + 24, 4))
    fprintf(f, "  mxcsr    0x%08x          0x%08x   <- differs\n",
            rd_le32(e->fxsave + 24), rd_le32(a->fxsave + 24));
  for (int i = 0; i < 8; i++)
    if (memcmp(e->fxsave + 32 + 16 * i, a->fxsave + 32 + 16 * i, 10))
      fprintf(f, "  st%d (physical register %d) differs\n", i, i);
  for (int i = 0; i < 16; i++) {
    const u8 *x = e->fxsave + 160 + 16 * i, *y = a->fxsave + 160 + 16 * i;
    if (memcmp(x, y, 16))
      fprintf(
          f, "  xmm%-5d 0x%016llx%016llx  0x%016llx%016llx   <- differs\n", i,
          (unsigned long long)rd_le64(x + 8), (unsigned long long)rd_le64(x),
          (unsigned long long)rd_le64(y + 8), (unsigned long long)rd_le64(y));
  }
  for (int i = 0; i < 16; i++)
    if (memcmp(e->ymmh + 16 * i, a->ymmh + 16 * i, 16))
      fprintf(f, "  ymm%dh differs\n", i);
}

/* Stops the replay: remembers the stop in rp->health.broken_stop and returns
 * it. */
static void set_broken(rp_replay *rp, struct rp_stop *stop, int reason,
                       const char *msg) {
  memset(stop, 0, sizeof *stop);
  stop->reason = reason;
  stop->icount = rp->icount;
  stop->event = rp->trace.events;
  stop->tid = rp_current_tid(rp);
  snprintf(stop->msg, sizeof stop->msg, "%s", msg);
  rp->health.broken = 1;
  rp->health.broken_stop = *stop;
  if (!rp->health.has_limit || stop->icount < rp->health.limit_stop.icount) {
    rp->health.has_limit = 1;
    rp->health.limit_stop = *stop;
  }
}

int rp__unbreak(rp_replay *rp, u64 target, struct rp_stop *stop) {
  if (!rp->health.broken) return 1;
  if (target < rp->health.broken_stop.icount) {
    rp->health.broken = 0;
    return 1;
  }
  *stop = rp->health.broken_stop;
  return 0;
}

int rp__diverge(rp_replay *rp, struct rp_stop *stop,
                const struct rw_regs *expect, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (rp->health.broken) { /* a re-run for the report reached it again */
    *stop = rp->health.broken_stop;
    return 0;
  }
  set_broken(rp, stop, RP_STOP_DIVERGED, msg);
  free(rp->health.report);
  rp->health.report = NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  RW_RETURN_IF(!f, RW_ENOMEM, "report");
  struct rw_regs actual;
  fprintf(f,
          "replay diverged from the recording at event %llu (record seq "
          "%llu, %s), thread %u, after %llu instructions:\n  %s\n",
          (unsigned long long)rp->trace.events,
          (unsigned long long)rp->trace.pend.seq,
          trace_record_name(rp->trace.pend.type) ?: "?", rp->th.cur_tid,
          (unsigned long long)rp->icount, msg);
  if (expect && rp_get_regs(rp, 0, &actual) == 0) put_gprs(f, expect, &actual);
  fclose(f);
  rp->health.report = text;
  return 0;
}

int rp__report_add(rp_replay *rp, const char *text) {
  size_t a = rp->health.report ? strlen(rp->health.report) : 0,
         b = strlen(text);
  char *s = realloc(rp->health.report, a + b + 1);
  RW_RETURN_IF(!s, RW_ENOMEM, "report");
  memcpy(s + a, text, b + 1);
  rp->health.report = s;
  return 0;
}

int rp__fail(rp_replay *rp, struct rp_stop *stop, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (rp->health.broken) {
    *stop = rp->health.broken_stop;
    return 0;
  }
  set_broken(rp, stop, RP_STOP_FAILED, msg);
  free(rp->health.report);
  rp->health.report = NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (f) {
    fprintf(f,
            "replay stopped at event %llu, thread %u, after %llu "
            "instructions:\n  %s\n",
            (unsigned long long)rp->trace.events, rp->th.cur_tid,
            (unsigned long long)rp->icount, msg);
    fclose(f);
    rp->health.report = text;
  }
  return 0;
}

int rp__damaged(rp_replay *rp, struct rp_stop *stop,
                const struct rw_diag *diag) {
  int broken = rp->health.broken;
  rp__fail(rp, stop, "the trace is damaged at offset %llu: %s",
           (unsigned long long)diag->offset,
           diag->msg[0] ? diag->msg : rw_strerror(diag->code));
  if (!broken) {
    rp->health.broken_stop.damaged = 1;
    if (rp->health.limit_stop.icount == rp->health.broken_stop.icount)
      rp->health.limit_stop.damaged = 1;
    stop->damaged = 1;
  }
  return 0;
}

void rp_disasm(rp_replay *rp, FILE *out, u64 addr, int count, u64 mark) {
  u8 code[16 * 64];
  size_t n = sizeof code;
  if (count > 64) count = 64;
  if (rp__cs_open(rp) < 0) return;
  while (n > 0 && cpu_mem_read(rp->proc->mem, addr, code, n) < 0) n -= 16;
  const u8 *p = code;
  u64 a = addr;
  cs_insn *insn = cs_malloc(rp->cs);
  if (!insn) return;
  for (int i = 0; i < count && n > 0; i++) {
    char sym[128];
    if (!cs_disasm_iter(rp->cs, &p, &n, &a, insn)) {
      fprintf(out, "  0x%llx: (cannot be decoded)\n", (unsigned long long)a);
      break;
    }
    if (rp_symbolize(rp, insn->address, sym, sizeof sym) < 0) sym[0] = 0;
    fprintf(out, "%s 0x%llx %-24s %s %s\n",
            insn->address == mark ? "=>" : "  ",
            (unsigned long long)insn->address, sym, insn->mnemonic,
            insn->op_str);
  }
  cs_free(insn, 1);
}

/* Disassembles the one instruction at ADDR into DST. */
static void one_insn(rp_replay *rp, u64 addr, char *dst, size_t cap) {
  u8 code[16];
  const u8 *p = code;
  size_t n = sizeof code;
  u64 a = addr;
  snprintf(dst, cap, "(unreadable)");
  if (rp__cs_open(rp) < 0) return;
  while (n > 0 && cpu_mem_read(rp->proc->mem, addr, code, n) < 0) n--;
  cs_insn *insn = cs_malloc(rp->cs);
  if (!insn) return;
  if (n && cs_disasm_iter(rp->cs, &p, &n, &a, insn))
    snprintf(dst, cap, "%s %s", insn->mnemonic, insn->op_str);
  cs_free(insn, 1);
}

/* Runs the stretch before the stop again from a keyframe, one instruction
 * at a time, and prints the last RP_LAST instructions. The replay is left
 * at the stop again (still broken). */
static int last_insns(rp_replay *rp, FILE *out) {
  struct rp_stop saved = rp->health.broken_stop, stop;
  u64 target = saved.icount, from = target > RP_LAST ? target - RP_LAST : 0;
  u64 rips[RP_LAST], counts[RP_LAST];
  u32 tids[RP_LAST];
  unsigned n = 0;
  const struct rp__kf *kf = NULL;
  for (size_t i = 0; i < rp->tl.nkfs; i++)
    if (rp->tl.kfs[i].icount <= from) kf = &rp->tl.kfs[i];
  if (!kf) return 0;
  char *report = rp->health.report;
  /* The re-run applies the same imports again: keep the list as it was. */
  struct rp__recent recent[RP_RECENT];
  unsigned nrecent = rp->proc->nrecent;
  memcpy(recent, rp->proc->recent, sizeof recent);
  rp->health.report = NULL;
  rp->health.broken = 0;
  struct rp__goal g = rp__goal_at(from, RP__NO_KEYFRAMES);
  int rc = rp__kf_restore(rp, kf);
  if (rc == 0) rc = rp__run(rp, &g, &stop);
  while (rc == 0 && !rp->health.broken && !rp->fin.ended &&
         rp->icount < target) {
    struct rw_regs regs;
    u32 tid = rp->th.cur_tid; /* the thread about to run */
    if (rp_get_regs(rp, 0, &regs) < 0) break;
    u64 at = rp->icount;
    g = rp__goal_at(at + 1, RP__NO_KEYFRAMES);
    rc = rp__run(rp, &g, &stop);
    if (rp->icount > at || rp->health.broken) {
      rips[n % RP_LAST] = regs.rip;
      counts[n % RP_LAST] = at;
      tids[n % RP_LAST] = tid;
      n++;
    }
    if (rp->icount == at && !rp->health.broken) break; /* no progress */
  }
  memcpy(rp->proc->recent, recent, sizeof recent);
  rp->proc->nrecent = nrecent;
  free(rp->health.report);
  rp->health.report = report;
  rp->health.broken = 1;
  rp->health.broken_stop = saved;
  RW_FORWARD(rc);
  unsigned first = n > RP_LAST ? n - RP_LAST : 0;
  int threads = 0; /* name the thread of each when they differ */
  for (unsigned i = first; i + 1 < n; i++)
    if (tids[i % RP_LAST] != tids[(i + 1) % RP_LAST]) threads = 1;
  fprintf(out, "the last %u instructions executed (count: %saddress, "
               "function, instruction):\n", n - first,
          threads ? "thread, " : "");
  for (unsigned i = first; i < n; i++) {
    char sym[128], ins[256], th[24] = "";
    u64 a = rips[i % RP_LAST];
    if (rp_symbolize(rp, a, sym, sizeof sym) < 0)
      snprintf(sym, sizeof sym, "?");
    one_insn(rp, a, ins, sizeof ins);
    if (threads) snprintf(th, sizeof th, "[%u] ", tids[i % RP_LAST]);
    fprintf(out, "  %10llu: %s0x%llx %-28s %s\n",
            (unsigned long long)counts[i % RP_LAST], th,
            (unsigned long long)a, sym, ins);
  }
  return 0;
}

int rp_report(rp_replay *rp, FILE *out) {
  if (!rp->health.broken) return 0;
  fputs(rp->health.report ? rp->health.report : rp->health.broken_stop.msg,
        out);
  if (rp->health.broken_stop.reason == RP_STOP_DIVERGED)
    RW_FORWARD(last_insns(rp, out));
  /* What the replay applied says nothing about the file's damage. */
  unsigned k = rp->health.broken_stop.damaged ? 0
               : rp->proc->nrecent < RP_RECENT ? rp->proc->nrecent : RP_RECENT;
  if (k) fprintf(out, "memory changes applied just before:\n");
  for (unsigned i = rp->proc->nrecent - k; i < rp->proc->nrecent; i++) {
    const struct rp__recent *r = &rp->proc->recent[i % RP_RECENT];
    fprintf(out, "  seq %-8llu %-6s 0x%llx +%llu\n", (unsigned long long)r->seq,
            trace_record_name(r->type) ?: "?", (unsigned long long)r->addr,
            (unsigned long long)r->len);
  }
  return 0;
}
