/* SPDX-License-Identifier: MIT */
/* Finding an execution point that the recording fixed only by registers
 * and memory (replayer/step.c runs the thread there): a PREEMPT, an
 * asynchronous stop, is found where the thread's registers and a digest
 * of its writable memory are the recorded ones, with a breakpoint at the
 * recorded rip that stops only there; a search that comes back to a
 * state it saw before is a loop that never gets there (Brent's cycle
 * detection over fingerprints); a syscall entry that the debugger stops
 * at waits at its syscall instruction. */
#include <string.h>

#include "replayer/rp_int.h"

/* Decodes the pending PREEMPT record into rp->pre_* (once: its search may
 * arrive at the recorded rip many times). */
static int preempt_decode(rp_replay *rp) {
  struct trace_rec_preempt p;
  if (rp->search.pre_seq == rp->trace.pend.seq) return 0;
  RW_FORWARD(
      trace_rec_preempt_get(&p, rp->trace.pend.data, rp->trace.pend.len));
  rp->search.pre_regs = p.regs;
  rp->search.pre_digest = p.digest;
  RW_FORWARD(trace_spec_get(p.dead_lo, p.dead_hi, p.nskip, p.skips,
                            &rp->search.pre_spec));
  rp->search.pre_spec.kind = rp->digest_kind;
  rp->search.pre_seq = rp->trace.pend.seq;
  return 0;
}

int rp__preempt_rip(rp_replay *rp, u64 *rip) {
  RW_FORWARD(preempt_decode(rp));
  *rip = rp->search.pre_regs.rip;
  return 0;
}

/* Whether thread T is where the pending PREEMPT says it was; *CYCLE set
 * when it is not, and its registers and memory are those of an earlier
 * arrival of this search: it runs in a loop that cannot get there. */
int rp__preempt_matches(rp_replay *rp, struct rp__thread *t, int *match,
                        int *cycle) {
  struct rw_regs actual;
  const struct rw_regs *expect = &rp->search.pre_regs;
  u8 enc[RW_REGS_DISK_SIZE];
  int since;
  RW_FORWARD(preempt_decode(rp));
  *match = *cycle = 0;
  cpu_get_regs(t->cpu, &actual);
  if (actual.rip != expect->rip ||
      !rp__regs_match(expect, &actual, 1))
    return 0;
  RW_FORWARD(rp__digest_match(rp, rp->search.pre_digest, match, &since));
  if (!*match) { /* for the report if it never gets there */
    rp->search.missed_seq = rp->search.pre_seq;
    rp->search.missed_at = rp->icount;
  }
  if (*match || since == RP_DIGEST_CHANGED) return 0;
  rw_regs_encode(&actual, enc);
  if (since == RP_DIGEST_BUILT)
    memcpy(rp->search.cyc.built_regs, enc, sizeof enc);
  else
    *cycle = !memcmp(rp->search.cyc.built_regs, enc, sizeof enc);
  return 0;
}

/* Sets the replay's own breakpoint at RIP for thread T, stopping it only
 * where its general registers are COND (NULL: always). One at a time: the
 * pending record is what it looks for. */
static int set_search_bp(rp_replay *rp, struct rp__thread *t, u64 rip,
                         const u64 *cond) {
  cpu_mem *mem = t->proc->mem;
  if (rp->search.preempt_bp != rip || rp->search.preempt_mem != mem) {
    RW_FORWARD(rp__clear_preempt_bp(rp));
    rp->search.preempt_bp = rip;
    rp->search.preempt_mem = mem;
    RW_FORWARD(cpu_mem_break_add(mem, rip));
  }
  if (rp->search.preempt_cpu && rp->search.preempt_cpu != t->cpu)
    cpu_break_cond(rp->search.preempt_cpu, 0, NULL);
  rp->search.preempt_cpu = t->cpu;
  cpu_break_cond(t->cpu, rip, cond);
  return 0;
}

/* Sets the search breakpoint at the pending PREEMPT's rip, for thread T
 * only and only where its general registers are the recorded ones (unless
 * a user breakpoint is there too, which must stop whatever they are). */
int rp__set_preempt_bp(rp_replay *rp, struct rp__thread *t) {
  u64 rip = rp->search.pre_regs.rip;
  /* User breakpoints stop the debugger's process alone (a vfork child
   * of it runs in the same memory). */
  int user = rp__user_bp_at(rp, t->proc, rip);
  return set_search_bp(rp, t, rip, user ? NULL : rp->search.pre_regs.gpr);
}

/* With syscall stops, at an execution point where thread T runs to the
 * SYSCALL_ENTER pending: *NR is the syscall, and *AT is set when T is at
 * its syscall instruction and the syscall stops the debugger. Otherwise,
 * when it will stop, the search breakpoint waits at that instruction (the
 * record's rip is after it). */
int rp__sys_entry_at(rp_replay *rp, struct rp__thread *t, int *at,
                     u64 *nr) {
  struct trace_rec_syscall_enter e;
  struct rw_regs regs;
  u8 insn[2];
  *at = 0;
  RW_FORWARD(
      trace_rec_syscall_enter_get(&e, rp->trace.pend.data, rp->trace.pend.len));
  *nr = e.nr;
  if (!rp__sys_stops_at(rp, e.nr) || !rp__users(rp, t->proc)) return 0;
  u64 rip = e.regs.rip - 2;
  cpu_get_regs(t->cpu, &regs);
  /* Code rewritten since (a JIT) may hold something else there. */
  if (regs.rip == rip && cpu_mem_read(t->proc->mem, rip, insn, 2) == 0 &&
      insn[0] == 0x0f && insn[1] == 0x05) {
    *at = 1;
    return 0;
  }
  return set_search_bp(rp, t, rip, NULL);
}

/* The thread's count at which the search for the pending PREEMPT takes
 * its next fingerprint (starting the search's detection when it is new). */
u64 rp__cycle_next(rp_replay *rp, struct rp__thread *t) {
  struct rp__cycle *c = &rp->search.cyc;
  if (c->seq != rp->trace.pend.seq || c->restores != rp->tl.restores) {
    memset(c, 0, sizeof *c);
    c->seq = rp->trace.pend.seq;
    c->restores = rp->tl.restores;
    c->next = cpu_icount(t->cpu) + RP_CYCLE_STEP;
    c->power = 1;
  }
  return c->next;
}

/* At a fingerprint of thread T's search: whether its registers and memory
 * are those of the kept fingerprint (*CYCLE: since which count), else
 * moves on (Brent's rounds). */
int rp__cycle_check(rp_replay *rp, struct rp__thread *t, u64 *cycle) {
  struct rp__cycle *c = &rp->search.cyc;
  struct rw_regs regs;
  u8 enc[RW_REGS_DISK_SIZE];
  u64 d;
  *cycle = 0;
  cpu_get_regs(t->cpu, &regs);
  rw_regs_encode(&regs, enc);
  /* The digest only where the registers already agree, and when keeping:
   * a whole pass over memory for about log2(fingerprints) of them. */
  if (c->have && !memcmp(enc, c->kept_regs, sizeof enc)) {
    RW_FORWARD(rp__digest(rp, &rp->search.pre_spec, &d));
    if (d == c->kept_digest) {
      *cycle = c->kept_at;
      return 0;
    }
  }
  c->next += RP_CYCLE_STEP;
  if (++c->lam < c->power) return 0;
  c->lam = 0;
  c->power *= 2;
  memcpy(c->kept_regs, enc, sizeof enc);
  RW_FORWARD(rp__digest(rp, &rp->search.pre_spec,
                        &c->kept_digest));
  c->kept_at = cpu_icount(t->cpu);
  c->have = 1;
  return 0;
}

int rp__clear_preempt_bp(rp_replay *rp) {
  u64 a = rp->search.preempt_bp;
  rp->search.preempt_bp = 0;
  if (rp->search.preempt_cpu) cpu_break_cond(rp->search.preempt_cpu, 0, NULL);
  rp->search.preempt_cpu = NULL;
  rp__digest_drop(rp);
  cpu_mem *mem = rp->search.preempt_mem;
  rp->search.preempt_mem = NULL;
  if (a && mem && !rp__user_bp_in(rp, mem, a))
    RW_FORWARD(cpu_mem_break_del(mem, a));
  return 0;
}
