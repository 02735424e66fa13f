/* SPDX-License-Identifier: MIT */
/* The execution loop (STYLE R10): runs decoded blocks under an exact
 * budget, checking the budget, breakpoints and the stop request only between
 * blocks, and turns handler codes into the exit reported to the caller. A
 * block runs through its instructions' run handlers, which chain from one
 * instruction to the next where they can; a block that does not fit in the
 * remaining budget runs one instruction at a time through fn. Handlers,
 * decoding and memory are elsewhere. */
#include "replayer/cpu/cpu_int.h"

/* Re-executes IN after it hit a watched range, letting the watched accesses
 * happen and recording them. Returns the handler's code. */
static int rerun_watched(struct cpu *cpu, const struct cpu_insn *in) {
  int rc;
  cpu->watch_mode = 1;
  cpu->watch_hit = 0;
  rc = in->fn(cpu, in);
  cpu->watch_mode = 0;
  return rc;
}

/* Where a chain of instructions started at IN (at address AT) stopped,
 * given the code RC it returned. Chained instructions only ever return the
 * code of an instruction that did not complete, with rip at it; completed
 * or branching codes come from the block's last instruction (icache.c
 * chain()). The result is the instruction that returned RC. */
static const struct cpu_insn *chain_stop(const struct cpu__block *b,
                                         const struct cpu_insn *in, u64 at,
                                         u64 rip, int rc) {
  const struct cpu_insn *end = b->insns + b->ninsn;
  if (rc == CPU_RC_NEXT || rc == CPU_RC_JUMP || rc == CPU_RC_EXIT)
    return end - 1;
  if (rip == b->end) return end;
  while (at != rip && in < end) {
    at += in->len;
    in++;
  }
  RW_ASSERT(at == rip);
  return in;
}

/* The block at cpu->rip, through the successor cache of PREV (the block
 * that just ran) when it knows it: blocks chain without a hash lookup. */
static struct cpu__block *next_block(struct cpu *cpu, struct cpu__block *prev) {
  struct cpu__block *b;
  u64 gen = cpu->mem->code_gen;
  if (prev && prev->succ_gen == gen) {
    struct cpu__block *const *s = prev->succ;
    if (s[0] && s[0]->start == cpu->rip) return s[0];
    if (s[1] && s[1]->start == cpu->rip) return s[1];
  }
  /* A dropped PREV is freed by the lookup below: forget it first. */
  if (prev && prev->dead) prev = NULL;
  b = cpu__block_get(cpu);
  if (prev && b && b != (struct cpu__block *)-1 && gen == cpu->mem->code_gen) {
    if (prev->succ_gen != gen) {
      prev->succ[0] = prev->succ[1] = NULL;
      prev->succ_gen = gen;
    }
    prev->succ[prev->succ_next] = b;
    prev->succ_next ^= 1;
  }
  return b;
}

int cpu_run(cpu_thread *cpu, u64 budget, struct cpu_exit *why) {
  int first = 1, rc = 0;
  struct cpu__block *prev = NULL;
  u32 jit_hot = cpu__jit_threshold();
  u64 n0 = cpu->icount;
  memset(&cpu->exit, 0, sizeof cpu->exit);
  cpu->watch_hit = 0;
  cpu->jit_link = NULL;
  cpu->icount_end =
      cpu->icount + budget < cpu->icount ? ~(u64)0 : cpu->icount + budget;
  for (;;) {
    const struct cpu_insn *in;
    struct cpu__block *b;
    u64 left = cpu->icount_end - cpu->icount;
    if (!left) {
      cpu->exit.reason = CPU_EXIT_BUDGET;
      break;
    }
    if (RW_UNLIKELY(atomic_load_explicit(&cpu->stop, memory_order_relaxed))) {
      atomic_store(&cpu->stop, 0);
      cpu->exit.reason = CPU_EXIT_STOP;
      break;
    }
    b = next_block(cpu, prev);
    prev = NULL;
    if (RW_UNLIKELY(!b)) break; /* fetch fault, cpu->exit filled */
    if (RW_UNLIKELY(b == (struct cpu__block *)-1)) {
      rc = RW_ENOMEM;
      break;
    }
    if (cpu->jit_link) {
      /* The translation that ran last left through a link: point it here. */
      cpu__jit_link(cpu->mem, cpu->jit_link, b);
      cpu->jit_link = NULL;
    }
    if (RW_UNLIKELY(b->bp) && !first &&
        (!cpu->bpc_on || b->start != cpu->bpc_addr ||
         !memcmp(cpu->gpr, cpu->bpc_gpr, sizeof cpu->bpc_gpr))) {
      cpu->exit.reason = CPU_EXIT_BREAKPOINT;
      break;
    }
    first = 0;
    cpu->rep_paused = 0;
    in = b->insns;
    if (RW_UNLIKELY(b->jit_state == CPU__JIT_NONE) && jit_hot &&
        ++b->heat >= jit_hot)
      cpu__jit_block(cpu, b);
    if (b->jit && RW_LIKELY(b->ninsn <= left) && !cpu->observed &&
        !cpu->obs.on_access) {
      /* The translation runs the block as a chain does, and maybe the
       * blocks after it (they count themselves): B becomes the one it
       * returned from. */
      rc = b->jit(cpu, in);
      b = cpu->jit_last;
      in = chain_stop(b, b->insns, b->start, cpu->rip, rc);
      if (rc == CPU_RC_NEXT) {
        cpu->rip += in->len;
        in++;
        rc = CPU_RC_END;
      }
    } else if (RW_LIKELY(b->ninsn <= left)) {
      for (;;) {
        int chained = in->run != in->fn;
        u64 at = cpu->rip;
        rc = in->run(cpu, in);
        if (chained) in = chain_stop(b, in, at, cpu->rip, rc);
        if (RW_UNLIKELY(rc)) break;
        cpu->rip += in->len;
        in++;
      }
    } else {
      /* The block does not fit: count each instruction. */
      const struct cpu_insn *stop = b->insns + left;
      for (;;) {
        if (in == stop) {
          rc = CPU_RC_END;
          break;
        }
        rc = in->fn(cpu, in);
        if (rc) break;
        cpu->rip += in->len;
        in++;
      }
    }
    cpu->icount += (u64)(in - b->insns);
    /* XINUSE: the instructions that completed (the one at IN too when it
     * ended the block by completing). */
    cpu->xinuse |= b->xin[(in - b->insns) +
                          (rc == CPU_RC_JUMP || rc == CPU_RC_EXIT)];
    prev = b;
    if (RW_UNLIKELY(rc == CPU_RC_WATCH)) {
      rc = rerun_watched(cpu, in);
      if (rc == CPU_RC_NEXT || rc == CPU_RC_JUMP || rc == CPU_RC_EXIT)
        cpu->xinuse |= b->xin[(in - b->insns) + 1];
      if (rc == CPU_RC_NEXT) {
        cpu->rip += in->len;
        rc = CPU_RC_JUMP; /* completed; counted below */
      }
      if (cpu->watch_hit && (rc == CPU_RC_JUMP || rc == CPU_RC_REP)) {
        if (rc == CPU_RC_JUMP) cpu->icount++;
        cpu->rep_paused = rc == CPU_RC_REP;
        cpu->exit.reason = CPU_EXIT_WATCHPOINT;
        rc = 0;
        break;
      }
    }
    switch (rc) {
      case CPU_RC_REP:
        cpu->rep_paused = 1;
        continue;
      case CPU_RC_END:
        continue;
      case CPU_RC_JUMP:
        cpu->icount++;
        continue;
      case CPU_RC_EXIT:
        cpu->icount++;
        rc = 0;
        goto out;
      case CPU_FAULT:
        rc = 0;
        goto out;
      case CPU_RC_HALT:
        rc = 0;
        goto out;
      default:
        if (rc < 0) goto out; /* out of memory in a page fill */
        RW_ASSERT(!"bad handler code");
        rc = RW_EINVAL;
        goto out;
    }
  }
out:
  /* RF (resume flag): the kernel returns to an instruction that faulted
   * with it set, and a signal frame or ptrace may show it there; the
   * processor clears it once an instruction completes. Only recorded
   * registers set it, and they are set between runs. */
  if (RW_UNLIKELY(cpu->rflags & CPU_RF) && cpu->icount != n0)
    cpu->rflags &= ~(u64)CPU_RF;
  cpu->exit.rip = cpu->rip;
  *why = cpu->exit;
  return rc < 0 ? rc : 0;
}
