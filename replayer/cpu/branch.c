/* SPDX-License-Identifier: MIT */
/* Control flow and conditions: jcc, jmp, call, ret, loop*, jrcxz, setcc,
 * cmovcc. Every branch sets rip and returns CPU_RC_JUMP (taken or not), so
 * the run loop checks the budget and breakpoints there. */
#include "replayer/cpu/cpu_int.h"

enum { RCX = 1, RSP = 4 };

static int op_jcc_I(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->rip = cpu__cond(cpu, in->cond) ? in->imm : cpu->rip + in->len;
  return CPU_RC_JUMP;
}

/* Copies of op_jcc_I per condition (the decoder picks one by in->cond), in
 * which the condition's shortcut is inline. */
#define JCC_COPY(c)                                                        \
  static int op_jcc_I_##c(struct cpu *cpu, const struct cpu_insn *in) {    \
    cpu->rip = cpu__cond_inline(cpu, c) ? in->imm : cpu->rip + in->len;   \
    return CPU_RC_JUMP;                                                    \
  }
JCC_COPY(0)
JCC_COPY(1)
JCC_COPY(2)
JCC_COPY(3)
JCC_COPY(4)
JCC_COPY(5)
JCC_COPY(6)
JCC_COPY(7)
JCC_COPY(8)
JCC_COPY(9)
JCC_COPY(10)
JCC_COPY(11)
JCC_COPY(12)
JCC_COPY(13)
JCC_COPY(14)
JCC_COPY(15)
#undef JCC_COPY

static int op_jmp_I(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->rip = in->imm;
  return CPU_RC_JUMP;
}

static int op_jmp_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 t;
  CPU_TRY(cpu_rm_read(cpu, in, 8, &t));
  cpu->rip = t;
  return CPU_RC_JUMP;
}

static int call(struct cpu *cpu, const struct cpu_insn *in, u64 target) {
  u64 sp = cpu->gpr[RSP] - 8;
  CPU_TRY(cpu_st64(cpu, sp, cpu->rip + in->len));
  cpu->gpr[RSP] = sp;
  cpu->rip = target;
  return CPU_RC_JUMP;
}

static int op_call_I(struct cpu *cpu, const struct cpu_insn *in) {
  return call(cpu, in, in->imm);
}

static int op_call_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 t;
  CPU_TRY(cpu_rm_read(cpu, in, 8, &t));
  return call(cpu, in, t);
}

static int op_ret(struct cpu *cpu, const struct cpu_insn *in) {
  u64 t, sp = cpu->gpr[RSP];
  CPU_TRY(cpu_ld64(cpu, sp, &t));
  cpu->gpr[RSP] = sp + 8 + (in->id == X86_INS_RET ? (u16)in->imm : 0);
  cpu->rip = t;
  return CPU_RC_JUMP;
}

/* loop, loope, loopne: rcx (ecx with 67) counts down. */
static int loop(struct cpu *cpu, const struct cpu_insn *in, int zf_need) {
  unsigned asz = in->pfx & CPU_PFX_ADDR32 ? 4 : 8;
  u64 c = cpu_trunc(cpu->gpr[RCX] - 1, asz);
  int take = c != 0;
  if (take && zf_need >= 0) take = cpu__cond(cpu, 4) == zf_need;
  cpu_reg_set(cpu, RCX, asz, c);
  cpu->rip = take ? in->imm : cpu->rip + in->len;
  return CPU_RC_JUMP;
}

static int op_loop_I(struct cpu *cpu, const struct cpu_insn *in) {
  return loop(cpu, in, -1);
}
static int op_loope_I(struct cpu *cpu, const struct cpu_insn *in) {
  return loop(cpu, in, 1);
}
static int op_loopne_I(struct cpu *cpu, const struct cpu_insn *in) {
  return loop(cpu, in, 0);
}

static int op_jrcxz_I(struct cpu *cpu, const struct cpu_insn *in) {
  u64 c = in->id == X86_INS_JECXZ ? (u32)cpu->gpr[RCX] : cpu->gpr[RCX];
  cpu->rip = c == 0 ? in->imm : cpu->rip + in->len;
  return CPU_RC_JUMP;
}

static int op_setcc_Eb(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_rm_write(cpu, in, 1, (u64)cpu__cond_inline(cpu, in->cond));
}

/* The source is read (and may fault) whatever the condition; a 32-bit
 * destination is zero-extended even when the move does not happen. */
static int op_cmovcc_Gv_Ev(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  if (!cpu__cond_inline(cpu, in->cond))
    v = cpu_reg_get(cpu, in->reg, in->osz);
  cpu_reg_set(cpu, in->reg, in->osz, v);
  return CPU_RC_NEXT;
}

/* ---- Observing handlers (cpu.h, struct cpu_observer) ------------------ */

/* The thread's count before IN: the instructions of its block before it
 * (imm2 of them) are counted only when the block ends, except when IN runs
 * again for a watchpoint (run.c counted them first). */
static u64 count_before(const struct cpu *cpu, const struct cpu_insn *in) {
  return cpu->icount + (cpu->watch_mode ? 0 : in->imm2);
}

static int call_seen(struct cpu *cpu, const struct cpu_insn *in, u64 from,
                     int rc) {
  if (rc == CPU_RC_JUMP && cpu->obs.on_call)
    cpu->obs.on_call(cpu->obs.ctx, cpu, from, cpu->rip, from + in->len,
                     count_before(cpu, in));
  return rc;
}

static int op_call_I_obs(struct cpu *cpu, const struct cpu_insn *in) {
  u64 from = cpu->rip;
  return call_seen(cpu, in, from, op_call_I(cpu, in));
}

static int op_call_E_obs(struct cpu *cpu, const struct cpu_insn *in) {
  u64 from = cpu->rip;
  return call_seen(cpu, in, from, op_call_E(cpu, in));
}

static int op_ret_obs(struct cpu *cpu, const struct cpu_insn *in) {
  u64 from = cpu->rip;
  int rc = op_ret(cpu, in);
  if (rc == CPU_RC_JUMP && cpu->obs.on_ret)
    cpu->obs.on_ret(cpu->obs.ctx, cpu, from, cpu->rip, count_before(cpu, in));
  return rc;
}

/* A conditional branch runs through PLAIN; taken when rip is not the next
 * instruction, or (a branch to the next instruction) when TAKEN says. */
static int branch_seen(struct cpu *cpu, const struct cpu_insn *in,
                       cpu_handler plain, int taken) {
  u64 from = cpu->rip;
  int rc = plain(cpu, in), kind = CPU_BRANCH_COND;
  if (rc == CPU_RC_JUMP && cpu->obs.on_branch) {
    if (plain == op_jmp_E) kind = CPU_BRANCH_INDIRECT;
    if (plain == op_jmp_I) kind = CPU_BRANCH_JMP;
    if (taken < 0) taken = cpu->rip != from + in->len;
    cpu->obs.on_branch(cpu->obs.ctx, cpu, from, cpu->rip, taken, kind,
                       count_before(cpu, in));
  }
  return rc;
}

static int op_jcc_I_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return branch_seen(cpu, in, op_jcc_I, cpu__cond(cpu, in->cond));
}
static int op_jmp_E_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return branch_seen(cpu, in, op_jmp_E, 1);
}
static int op_jmp_I_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return branch_seen(cpu, in, op_jmp_I, 1);
}
static int op_loop_I_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return branch_seen(cpu, in, op_loop_I, -1);
}
static int op_loope_I_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return branch_seen(cpu, in, op_loope_I, -1);
}
static int op_loopne_I_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return branch_seen(cpu, in, op_loopne_I, -1);
}
static int op_jrcxz_I_obs(struct cpu *cpu, const struct cpu_insn *in) {
  return branch_seen(cpu, in, op_jrcxz_I, -1);
}

static const struct {
  cpu_handler plain, obs;
  int kind; /* CPU__OBS_* */
} observing[] = {
    {op_call_I, op_call_I_obs, CPU__OBS_CALL},
    {op_call_E, op_call_E_obs, CPU__OBS_CALL},
    {op_ret, op_ret_obs, CPU__OBS_RET},
    {op_jcc_I, op_jcc_I_obs, CPU__OBS_BRANCH},
    {op_jmp_E, op_jmp_E_obs, CPU__OBS_BRANCH},
    {op_jmp_I, op_jmp_I_obs, CPU__OBS_BRANCH},
    {op_loop_I, op_loop_I_obs, CPU__OBS_BRANCH},
    {op_loope_I, op_loope_I_obs, CPU__OBS_BRANCH},
    {op_loopne_I, op_loopne_I_obs, CPU__OBS_BRANCH},
    {op_jrcxz_I, op_jrcxz_I_obs, CPU__OBS_BRANCH},
};

cpu_handler cpu__observing(cpu_handler plain, int kinds) {
  for (size_t i = 0; i < RW_ARRAY_SIZE(observing); i++)
    if (observing[i].plain == plain)
      return kinds & observing[i].kind ? observing[i].obs : NULL;
  return cpu__string_observing(plain, kinds);
}

int cpu__is_observing(cpu_handler fn) {
  for (size_t i = 0; i < RW_ARRAY_SIZE(observing); i++)
    if (observing[i].obs == fn) return 1;
  return cpu__string_is_observing(fn);
}

static cpu_handler branch_specialise(const struct cpu_insn *in,
                                     cpu_handler *chained) {
  (void)chained; /* branches end their block: nothing to chain to */
  static const cpu_handler jcc[16] = {
      op_jcc_I_0,  op_jcc_I_1,  op_jcc_I_2,  op_jcc_I_3,
      op_jcc_I_4,  op_jcc_I_5,  op_jcc_I_6,  op_jcc_I_7,
      op_jcc_I_8,  op_jcc_I_9,  op_jcc_I_10, op_jcc_I_11,
      op_jcc_I_12, op_jcc_I_13, op_jcc_I_14, op_jcc_I_15};
  if (in->fn == op_jcc_I) return jcc[in->cond & 15];
  return NULL;
}

static const struct cpu__oprow branch_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/branch.def"
#undef OP
};
CPU__FAMILY_TABLE_SPEC(branch, branch_specialise)
