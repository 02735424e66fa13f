/* SPDX-License-Identifier: MIT */
/* Differential cases of TSX (replayer/cpu/tsx.c) and of the HLE prefixes.
 * A case runs outside any transaction on both sides, which is the only
 * state a recorded program is ever in (the recorder aborts every xbegin
 * before it starts): xtest sets ZF and clears CF OF SF AF PF, xend raises
 * #GP, xabort does nothing; 66, F2 or F3 make xtest and xend #UD, and
 * xabort ignores them (as REX.W, which every row may get through its
 * operand sizes). The rows need RTM on the host (feature.c), xtest not
 * even that: without RTM and HLE both sides raise #UD.
 *
 * xbegin has no case, and cannot have a meaningful one: natively it starts
 * a transaction, which the int3 after it aborts with a status of the CPU's
 * choosing, while the emulator never runs it (CPU_EXIT_XBEGIN) and the
 * replayer applies the recorded outcome; tests/cpu/test_run.c checks that
 * exit, tests/replay/tsx.sh a recorded program.
 *
 * xacquire and xrelease (F2, F3 before a locked read-modify-write, F3
 * before a store) are hints: the instruction runs as without them, which
 * the HLE rows check (natively the CPU may elide the lock, but an int3
 * right after it aborts the elision and runs it for real). */
#include <string.h>

#include "replayer/cpu/cpu_int.h"
#include "tests/cpu/diff_int.h"

static unsigned rnd(struct diff_rng *r, unsigned n) {
  return (unsigned)(diff_rand(r) % n);
}

/* 0F 01 D5/D6: the row's imm8 is the last opcode byte. */
static void fix_xend(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  c->code[c->len - 1] = 0xd5;
}
static void fix_xtest(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  c->code[c->len - 1] = 0xd6;
}

/* C6 F8 ib: the row's imm16 is F8 and the abort code. */
static void fix_xabort(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  c->code[c->len - 2] = 0xf8;
}

/* cmpxchg: often let rAX equal the memory operand, so that the exchange
 * happens. */
static void fix_cmpxchg(struct diff_case *c, struct diff_rng *r) {
  unsigned sz = c->osz;
  u64 v = 0, off = c->mem_addr - DIFF_DATA_ADDR;
  if (rnd(r, 2) || !c->memop || c->base == 0 || c->index == 0 ||
      off + sz > DIFF_DATA_SIZE)
    return;
  memcpy(&v, c->st.data + off, sz);
  c->st.gpr[0] =
      (c->st.gpr[0] & ~(sz == 8 ? ~0ull : (1ull << (sz * 8)) - 1)) | v;
}

#define GPR DIFF_K_GPR
#define NOK DIFF_K_NONE
#define M0 DIFF_ENC_MODRM
#define NO DIFF_ENC_NONE
#define SV DIFF_SZV
#define B8 DIFF_SZ8
#define IB DIFF_IMM_B
#define IW DIFF_IMM_W
#define IZ DIFF_IMM_Z
#define P1 DIFF_MAP_1
#define P0F DIFF_MAP_0F
#define MEM DIFF_O_MEM
#define LK DIFF_O_LOCK
#define E(id, text, pfx, map, op, enc, ext, sizes, imm, regk, rmk, opt, fix) \
  {X86_INS_##id, text, pfx, map, op, enc, ext, sizes, imm, regk, rmk, opt, fix},

static const struct diff_enc tsx_encs[] = {
    E(XTEST, "xtest", 0, P0F, 0x01, NO, -1, SV, IB, NOK, NOK, 0, fix_xtest)
    E(XTEST, "xtest (F2/F3: #UD)", 0, P0F, 0x01, NO, -1, 0, IB, NOK, NOK,
      DIFF_O_REP, fix_xtest)
    E(XEND, "xend (#GP)", 0, P0F, 0x01, NO, -1, SV, IB, NOK, NOK, 0, fix_xend)
    E(XEND, "xend (F2/F3: #UD)", 0, P0F, 0x01, NO, -1, 0, IB, NOK, NOK,
      DIFF_O_REP, fix_xend)
    E(XABORT, "xabort Ib", 0, P1, 0xc6, NO, -1, SV, IW, NOK, NOK, DIFF_O_REP,
      fix_xabort)
    /* HLE: xacquire (F2) and xrelease (F3). */
    E(XCHG, "xacquire lock xchg Ev,Gv", 0xf2, P1, 0x87, M0, -1, SV, 0, GPR,
      GPR, MEM | LK, 0)
    E(XCHG, "xrelease xchg Eb,Gb", 0xf3, P1, 0x86, M0, -1, B8, 0, GPR, GPR,
      MEM, 0)
    E(CMPXCHG, "xacquire lock cmpxchg Ev,Gv", 0xf2, P0F, 0xb1, M0, -1, SV, 0,
      GPR, GPR, MEM | LK, fix_cmpxchg)
    E(XADD, "xrelease lock xadd Ev,Gv", 0xf3, P0F, 0xc1, M0, -1, SV, 0, GPR,
      GPR, MEM | LK, 0)
    E(ADD, "xacquire lock add Ev,Gv", 0xf2, P1, 0x01, M0, -1, SV, 0, GPR, GPR,
      MEM | LK, 0)
    E(DEC, "xrelease lock dec Ev", 0xf3, P1, 0xff, M0, 1, SV, 0, NOK, GPR,
      MEM | LK, 0)
    E(MOV, "xrelease mov Ev,Gv", 0xf3, P1, 0x89, M0, -1, SV, 0, GPR, GPR, MEM,
      0)
    E(MOV, "xrelease mov Eb,Ib", 0xf3, P1, 0xc6, M0, 0, B8, IB, NOK, GPR, MEM,
      0)
    E(MOV, "xrelease mov Ev,Iz", 0xf3, P1, 0xc7, M0, 0, SV, IZ, NOK, GPR, MEM,
      0)
};

const struct diff_family diff_cases_tsx = {"tsx", tsx_encs,
                                           RW_ARRAY_SIZE(tsx_encs)};
