/* SPDX-License-Identifier: MIT */
/* String instructions: movs, stos, lods, scas, cmps at every width, with
 * rep / repe / repne and the direction flag. A rep instruction is alone in
 * its block; each iteration counts as one instruction, and one interrupted by
 * the budget, a stop request, a fault or a watchpoint keeps the iterations it
 * did (rcx, rsi, rdi updated), as on the CPU, and resumes from there. So
 * does one whose registers reach those of a conditional breakpoint on it. */
#include "replayer/cpu/cpu_int.h"

enum { RAX = 0, RCX = 1, RSI = 6, RDI = 7 };
enum { K_MOVS, K_STOS, K_LODS, K_SCAS, K_CMPS };

/* One iteration. */
static int once(struct cpu *cpu, unsigned sz, int kind) {
  u64 step = (cpu->rflags & CPU_DF) ? (u64)0 - sz : sz, a, b;
  switch (kind) {
    case K_MOVS:
      CPU_TRY(cpu_ld(cpu, cpu->gpr[RSI], sz, &a));
      CPU_TRY(cpu_st(cpu, cpu->gpr[RDI], sz, a));
      cpu->gpr[RSI] += step;
      cpu->gpr[RDI] += step;
      break;
    case K_STOS:
      CPU_TRY(cpu_st(cpu, cpu->gpr[RDI], sz, cpu_reg_get(cpu, RAX, sz)));
      cpu->gpr[RDI] += step;
      break;
    case K_LODS:
      CPU_TRY(cpu_ld(cpu, cpu->gpr[RSI], sz, &a));
      cpu_reg_set(cpu, RAX, sz, a);
      cpu->gpr[RSI] += step;
      break;
    case K_SCAS:
      CPU_TRY(cpu_ld(cpu, cpu->gpr[RDI], sz, &b));
      a = cpu_reg_get(cpu, RAX, sz);
      cpu->cc = (struct cc){CC_OP(CC_SUB, sz), cpu_trunc(a - b, sz), a, b};
      cpu->gpr[RDI] += step;
      break;
    default:
      CPU_TRY(cpu_ld(cpu, cpu->gpr[RSI], sz, &a));
      CPU_TRY(cpu_ld(cpu, cpu->gpr[RDI], sz, &b));
      cpu->cc = (struct cc){CC_OP(CC_SUB, sz), cpu_trunc(a - b, sz), a, b};
      cpu->gpr[RSI] += step;
      cpu->gpr[RDI] += step;
      break;
  }
  return 0;
}

/* A rep stop before rep instruction IN starts (cpu_mem_rep_stops): 1 when
 * it is reported now (CPU_RC_HALT with the exit filled), 0 to run it. */
static int rep_start_stop(struct cpu *cpu, const struct cpu_insn *in) {
  if (cpu->mem->rep_stops != CPU_REP_STOP_START || cpu->watch_mode ||
      cpu->rep_resume == cpu->rip)
    return 0;
  if (cpu->rep_skip == cpu->rip) { /* reported: it runs now */
    cpu->rep_skip = ~0ull;
    return 0;
  }
  cpu->rep_skip = cpu->rip;
  cpu->exit.reason = CPU_EXIT_REP;
  cpu->exit.rep_end = 0;
  cpu->exit.insn_len = in->len;
  return 1;
}

/* How rep instruction IN that ran (RC) leaves: paused part way, it is
 * resumed next time; completed with rep stops at the end, cpu_run stops
 * after it (CPU_RC_EXIT). */
static int rep_leave(struct cpu *cpu, const struct cpu_insn *in, int rc) {
  if (rc == CPU_RC_REP || rc == CPU_RC_WATCH) {
    cpu->rep_resume = cpu->rip;
    return rc;
  }
  cpu->rep_resume = ~0ull;
  if (rc != CPU_RC_NEXT || cpu->mem->rep_stops != CPU_REP_STOP_END ||
      cpu->watch_mode)
    return rc;
  cpu->rip += in->len;
  cpu->exit.reason = CPU_EXIT_REP;
  cpu->exit.rep_end = 1;
  cpu->exit.insn_len = in->len;
  return CPU_RC_EXIT;
}

static int str_run(struct cpu *cpu, const struct cpu_insn *in, int kind);

static int str(struct cpu *cpu, const struct cpu_insn *in, int kind) {
  if (RW_LIKELY(!cpu->mem->rep_stops) ||
      !(in->pfx & (CPU_PFX_REP | CPU_PFX_REPNE)))
    return str_run(cpu, in, kind);
  if (rep_start_stop(cpu, in)) return CPU_RC_HALT;
  return rep_leave(cpu, in, str_run(cpu, in, kind));
}

/* Up to MAX iterations of rep movs or rep stos (element size SZ, the
 * direction flag clear) in one piece, as far as both operands stay on
 * pages the TLB holds: the same bytes, registers and last accesses as
 * that many single iterations. Returns how many it did (0: the next one
 * needs the slow path, a fault or a watched page; once() takes it). */
static u64 bulk(struct cpu *cpu, unsigned sz, int kind, u64 max) {
  u64 d = cpu->gpr[RDI], s = cpu->gpr[RSI];
  u64 room = (0x1000 - (d & 0xfff)) / sz, n, bytes;
  if (kind == K_MOVS && (0x1000 - (s & 0xfff)) / sz < room)
    room = (0x1000 - (s & 0xfff)) / sz;
  n = max < room ? max : room;
  if (!n) return 0;
  bytes = n * sz;
  u8 *dp = cpu__tlb_hit(cpu->tlb_w, d, (unsigned)bytes);
  if (!dp) return 0;
  if (kind == K_MOVS) {
    const u8 *sp = cpu__tlb_hit(cpu->tlb_r, s, (unsigned)bytes);
    if (!sp) return 0;
    if (dp > sp && dp < sp + bytes) {
      /* The destination starts inside the source: element by element,
       * each reading what an earlier one may have written. */
      for (u64 i = 0; i < bytes; i += sz) memmove(dp + i, sp + i, sz);
    } else {
      memmove(dp, sp, bytes);
    }
    cpu->last_read = (struct cpu_access){s + bytes - sz, sz};
    cpu->gpr[RSI] = s + bytes;
  } else {
    u64 v = cpu_reg_get(cpu, RAX, sz);
    if (sz == 1) {
      memset(dp, (int)v, bytes);
    } else {
      for (u64 i = 0; i < bytes; i += sz) memcpy(dp + i, &v, sz);
    }
  }
  cpu->last_write = (struct cpu_access){d + bytes - sz, sz};
  cpu->gpr[RDI] = d + bytes;
  cpu->gpr[RCX] -= n;
  return n;
}

static int str_run(struct cpu *cpu, const struct cpu_insn *in, int kind) {
  unsigned sz = kind == K_STOS ? in->osz2 : in->osz;
  int cond = kind == K_SCAS || kind == K_CMPS;
  /* A conditional breakpoint here (an asynchronous stop being searched
   * for) can match between two iterations: the CPU takes interrupts and
   * signals there, with rcx, rsi and rdi showing the iterations done. */
  int bpc = cpu->bpc_on && cpu->rip == cpu->bpc_addr;
  u64 allow, k = 0;
  if (RW_UNLIKELY(in->pfx & CPU_PFX_ADDR32) || RW_UNLIKELY(in->seg))
    return cpu__op_unsupported(cpu, in);
  if (kind == K_LODS || kind == K_SCAS) sz = in->osz2;
  if (!(in->pfx & (CPU_PFX_REP | CPU_PFX_REPNE))) return once(cpu, sz, kind);
  allow = cpu->icount_end - cpu->icount;
  while (cpu->gpr[RCX]) {
    int rc;
    if (k == allow || (cpu->watch_mode && cpu->watch_hit) ||
        (!(k & 1023) && k &&
         atomic_load_explicit(&cpu->stop, memory_order_relaxed))) {
      cpu->icount += k;
      return CPU_RC_REP;
    }
    if ((kind == K_MOVS || kind == K_STOS) && !bpc && !cpu->watch_mode &&
        !(cpu->rflags & CPU_DF)) {
      /* Up to the next stop check, in one piece. */
      u64 lim = allow - k, chk = 1024 - (k & 1023), did;
      if (chk < lim) lim = chk;
      if (cpu->gpr[RCX] < lim) lim = cpu->gpr[RCX];
      did = bulk(cpu, sz, kind, lim);
      if (did) {
        k += did;
        continue;
      }
    }
    rc = once(cpu, sz, kind);
    if (rc) {
      cpu->icount += k;
      return rc;
    }
    cpu->gpr[RCX]--;
    k++;
    if (cond && cpu__cond(cpu, 4) != !(in->pfx & CPU_PFX_REPNE)) break;
    if (RW_UNLIKELY(bpc) && cpu->gpr[RCX] &&
        !memcmp(cpu->gpr, cpu->bpc_gpr, sizeof cpu->bpc_gpr)) {
      cpu->icount += k; /* paused: cpu_run stops at the breakpoint */
      return CPU_RC_REP;
    }
  }
  if (k) cpu->icount += k - 1;
  return CPU_RC_NEXT;
}

static int op_movs(struct cpu *cpu, const struct cpu_insn *in) {
  return str(cpu, in, K_MOVS);
}
static int op_stos(struct cpu *cpu, const struct cpu_insn *in) {
  return str(cpu, in, K_STOS);
}
static int op_lods(struct cpu *cpu, const struct cpu_insn *in) {
  return str(cpu, in, K_LODS);
}
static int op_scas(struct cpu *cpu, const struct cpu_insn *in) {
  return str(cpu, in, K_SCAS);
}
static int op_cmps(struct cpu *cpu, const struct cpu_insn *in) {
  return str(cpu, in, K_CMPS);
}

/* ---- Observing handlers (cpu.h, on_rep) ------------------------------ */

static const char *const names[5][4] = {
    {"rep movsb", "rep movsw", "rep movsd", "rep movsq"},
    {"rep stosb", "rep stosw", "rep stosd", "rep stosq"},
    {"rep lodsb", "rep lodsw", "rep lodsd", "rep lodsq"},
    {"scasb", "scasw", "scasd", "scasq"},
    {"cmpsb", "cmpsw", "cmpsd", "cmpsq"},
};
static const char *const cond_names[2][2][4] = {
    {{"repe scasb", "repe scasw", "repe scasd", "repe scasq"},
     {"repne scasb", "repne scasw", "repne scasd", "repne scasq"}},
    {{"repe cmpsb", "repe cmpsw", "repe cmpsd", "repe cmpsq"},
     {"repne cmpsb", "repne cmpsw", "repne cmpsd", "repne cmpsq"}},
};

static const char *mnemonic(const struct cpu_insn *in, int kind) {
  unsigned sz = kind == K_MOVS || kind == K_CMPS ? in->osz : in->osz2;
  unsigned w = sz == 8 ? 3 : sz == 4 ? 2 : sz == 2 ? 1 : 0;
  if (kind == K_SCAS || kind == K_CMPS)
    return cond_names[kind == K_CMPS][(in->pfx & CPU_PFX_REPNE) != 0][w];
  return names[kind][w];
}

void cpu__rep_interrupt(struct cpu *cpu) {
  cpu->rep_open = 0;
  if (cpu->obs.on_rep)
    cpu->obs.on_rep(cpu->obs.ctx, cpu, cpu->rep_at, cpu->rep_mnem,
                    cpu->rep_req, cpu->rep_done, CPU_REP_INTERRUPTED,
                    cpu->rep_n);
}

/* Runs IN (of KIND) and tells the observer when a rep instruction ends. */
static int rep_seen(struct cpu *cpu, const struct cpu_insn *in, int kind) {
  if (!(in->pfx & (CPU_PFX_REP | CPU_PFX_REPNE))) return str(cpu, in, kind);
  u64 at = cpu->rip;
  /* Another rep instruction while one is open: a signal handler runs. */
  if (cpu->rep_open && cpu->rep_at != at) cpu__rep_interrupt(cpu);
  if (!cpu->rep_open) {
    cpu->rep_open = 1;
    cpu->rep_at = at;
    cpu->rep_req = cpu->gpr[RCX];
    cpu->rep_done = 0;
    cpu->rep_n = cpu->icount + (cpu->watch_mode ? 0 : in->imm2);
    cpu->rep_mnem = mnemonic(in, kind);
  }
  u64 before = cpu->gpr[RCX];
  int rc = str(cpu, in, kind);
  cpu->rep_done += before - cpu->gpr[RCX];
  /* Paused (the budget, a stop request, a watched access): it goes on. */
  if (rc == CPU_RC_REP || rc == CPU_RC_WATCH) return rc;
  /* A rep stop before it started: it has not begun. */
  if (rc == CPU_RC_HALT && cpu->exit.reason == CPU_EXIT_REP) {
    cpu->rep_open = 0;
    return rc;
  }
  /* A rep stop after it ended: it completed. */
  int ended = rc == CPU_RC_NEXT ||
              (rc == CPU_RC_EXIT && cpu->exit.reason == CPU_EXIT_REP);
  int how = !ended              ? CPU_REP_FAULT
            : cpu->gpr[RCX] != 0 ? CPU_REP_COND
                                 : CPU_REP_COUNT;
  cpu->rep_open = 0;
  if (cpu->obs.on_rep)
    cpu->obs.on_rep(cpu->obs.ctx, cpu, at, cpu->rep_mnem, cpu->rep_req,
                    cpu->rep_done, how, cpu->rep_n);
  return rc;
}

static int op_movs_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return rep_seen(cpu, in, K_MOVS);
}
static int op_stos_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return rep_seen(cpu, in, K_STOS);
}
static int op_lods_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return rep_seen(cpu, in, K_LODS);
}
static int op_scas_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return rep_seen(cpu, in, K_SCAS);
}
static int op_cmps_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return rep_seen(cpu, in, K_CMPS);
}

static const struct {
  cpu_handler plain, obs;
} observing[] = {
    {op_movs, op_movs_obs}, {op_stos, op_stos_obs}, {op_lods, op_lods_obs},
    {op_scas, op_scas_obs}, {op_cmps, op_cmps_obs},
};

cpu_handler cpu__string_observing(cpu_handler plain, int kinds) {
  for (size_t i = 0; i < RW_ARRAY_SIZE(observing); i++)
    if (observing[i].plain == plain)
      return kinds & CPU__OBS_REP ? observing[i].obs : NULL;
  return NULL;
}

int cpu__string_is_observing(cpu_handler fn) {
  for (size_t i = 0; i < RW_ARRAY_SIZE(observing); i++)
    if (observing[i].obs == fn) return 1;
  return 0;
}

static const struct cpu__oprow string_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/string.def"
#undef OP
};
CPU__FAMILY_TABLE(string)
