/* SPDX-License-Identifier: MIT */
/* The differential harness (STYLE R18): instruction cases run natively in a
 * child process and in the emulator from the same state, and compared. This
 * header is what a family's case file (tests/cpu/cases_<family>.c) needs:
 * the encoding rows, the state a case carries and the random helpers. */
#ifndef RW_TESTS_CPU_DIFF_H
#define RW_TESTS_CPU_DIFF_H

#include <capstone/capstone.h>

#include "common/rw.h"

/* Guest layout shared by both sides. The code page is filled with int3 and
 * the instruction is placed at DIFF_CODE_INSN, so any branch into the page
 * stops at an int3. The data pages are random and compared after the case;
 * DIFF_RO_ADDR is a read-only page just before them and DIFF_GUARD_ADDR an
 * unmapped one just after them, for fault cases. */
#define DIFF_CODE_ADDR 0x10000000ull
#define DIFF_CODE_INSN (DIFF_CODE_ADDR + 0x800)
#define DIFF_DATA_ADDR 0x20000000ull
#define DIFF_DATA_SIZE 8192u
#define DIFF_RO_ADDR (DIFF_DATA_ADDR - 4096)
#define DIFF_GUARD_ADDR (DIFF_DATA_ADDR + DIFF_DATA_SIZE)
#define DIFF_GS_BASE 0x30000000ull /* gs base on both sides */

/* Everything a case starts from and is compared on. The AVX-512 state (k,
 * zmmh, hi16: XSAVE components 5, 6 and 7 in their layouts) is all zero
 * when the host does not enable it (diff_avx512). */
struct diff_state {
  u64 gpr[16];             /* rax..r15 */
  u64 rip;                 /* instruction pointer */
  u64 rflags;              /* full rflags */
  u8 fx[512];              /* x87, MXCSR, XMM0-15 in FXSAVE layout */
  u8 ymmh[256];            /* bits 255:128 of YMM0-15, 16 bytes each */
  u64 k[8];                /* opmask registers k0-k7 */
  u8 zmmh[512];            /* bits 511:256 of ZMM0-15, 32 bytes each */
  u8 hi16[1024];           /* ZMM16-31, 64 bytes each */
  u8 data[DIFF_DATA_SIZE]; /* the data pages */
};

/* How a case ended. */
struct diff_result {
  int sig;  /* 0: reached the int3 after the instruction (or a branch
               target's int3); else SIGSEGV, SIGFPE, SIGILL, SIGBUS, SIGTRAP */
  u64 addr; /* SIGSEGV/SIGBUS: the fault address (0 for #GP) */
  struct diff_state st; /* state at the end */
  int xin;  /* XINUSE after the instruction (xgetbv 1, measured natively
               where the instruction falls through; the emulator's
               cpu_xinuse), or -1 */
};

struct diff_case;
struct diff_rng;

/* Operand encodings of struct diff_enc.enc. */
enum {
  DIFF_ENC_NONE,  /* opcode only (operands implicit) */
  DIFF_ENC_MODRM, /* ModRM: reg = register operand (or /ext), rm = E/W */
  DIFF_ENC_OREG,  /* register in the opcode's low 3 bits (+REX.B) */
  DIFF_ENC_VEX,   /* VEX (BMI): reg, vvvv and rm (map and pp from map/pfx) */
  DIFF_ENC_KVEX,  /* a VEX opmask instruction (cases_evex.c) */
  DIFF_ENC_EVEX   /* EVEX: the row's form and rules in diff_evex_row */
};

/* Opcode maps (5 and 6: EVEX only, AVX512-FP16). */
enum {
  DIFF_MAP_1,
  DIFF_MAP_0F,
  DIFF_MAP_0F38,
  DIFF_MAP_0F3A,
  DIFF_MAP_5,
  DIFF_MAP_6
};

/* Register kinds of the reg and rm operands. */
enum { DIFF_K_NONE, DIFF_K_GPR, DIFF_K_XMM, DIFF_K_MM, DIFF_K_K };

/* Operand sizes to try (GPR forms); the harness picks one per case and
 * emits 66 / REX.W (or VEX.W) for it. */
enum { DIFF_SZ8 = 1, DIFF_SZ16 = 2, DIFF_SZ32 = 4, DIFF_SZ64 = 8 };
#define DIFF_SZV (DIFF_SZ16 | DIFF_SZ32 | DIFF_SZ64)
#define DIFF_SZY (DIFF_SZ32 | DIFF_SZ64)
#define DIFF_SZALL (DIFF_SZ8 | DIFF_SZV)

/* Immediate kinds. */
enum {
  DIFF_IMM_NONE = 0,
  DIFF_IMM_B = 1, /* imm8 */
  DIFF_IMM_W = 2, /* imm16 */
  DIFF_IMM_D = 4, /* imm32 */
  DIFF_IMM_Z = 5, /* imm16 for 16-bit operands, else imm32 */
  DIFF_IMM_V = 8, /* imm16/32/64 by operand size (mov r, imm) */
  DIFF_IMM_Q = 9  /* 8 bytes whatever the size (moffs) */
};

/* Options (struct diff_enc.opt). */
enum {
  DIFF_O_MEM = 1 << 0,      /* rm must be memory */
  DIFF_O_REG = 1 << 1,      /* rm must be a register */
  DIFF_O_STACK = 1 << 2,    /* rsp points into the data pages */
  DIFF_O_STRING = 1 << 3,   /* rsi/rdi into data, rcx small; DF random */
  DIFF_O_REP = 1 << 4,      /* also emit rep (F3) / repne (F2) variants */
  DIFF_O_LOCK = 1 << 5,     /* also emit lock with memory rm */
  DIFF_O_REL8 = 1 << 6,     /* rel8 branch target inside the code page */
  DIFF_O_REL32 = 1 << 7,    /* rel32 branch target inside the code page */
  DIFF_O_COUNT = 1 << 8,    /* shift count edge values in cl / imm8 */
  DIFF_O_DIV = 1 << 9,      /* divisor/dividend edge values (incl. #DE) */
  DIFF_O_ALIGN16 = 1 << 10, /* memory operand 16-byte aligned (mostly) */
  DIFF_O_FAULT = 1 << 11,   /* sometimes aim memory at the guard/RO page */
  DIFF_O_NOREX = 1 << 12,   /* no REX (ah..bh operands stay reachable) */
  DIFF_O_BYTEREG = 1 << 13, /* 8-bit regs of a non-8-bit form (movzx Gv,Eb) */
  DIFF_O_WORDREG = 1 << 14, /* 16-bit rm of a wider form (movzx Gv,Ew) */
  DIFF_O_NOVVVV = 1 << 15,  /* VEX.vvvv unused (must be 1111) */
  DIFF_O_CL = 1 << 16,      /* rcx is an operand: keep it out of addresses */
  DIFF_O_VL = 1 << 17,      /* VEX: L random (128 or 256 bits) */
  DIFF_O_L1 = 1 << 18,      /* VEX: L = 1 (256 bits only) */
  DIFF_O_W1 = 1 << 19,      /* VEX: W = 1 */
  DIFF_O_IS4 = 1 << 20,     /* VEX: imm8[7:4] names a fourth XMM register */
  DIFF_O_NOMODRM = 1 << 21  /* VEX: no ModRM (vzeroupper, vzeroall) */
};

/* One encoding to test: rows of a family's case table. */
struct diff_enc {
  u16 id;           /* X86_INS_* the bytes must decode to */
  const char *text; /* "add Ev,Gv", for reports */
  u8 pfx;           /* mandatory prefix 0x66/0xf2/0xf3, or 0 */
  u8 map;           /* DIFF_MAP_* */
  u8 op;            /* opcode byte */
  u8 enc;           /* DIFF_ENC_* */
  i8 ext;           /* ModRM.reg /digit, or -1 when reg is an operand */
  u8 sizes;         /* DIFF_SZ* bits (GPR forms); 0 for fixed-size forms */
  u8 imm;           /* DIFF_IMM_* */
  u8 regk;          /* DIFF_K_* of the reg operand */
  u8 rmk;           /* DIFF_K_* of the rm operand */
  u32 opt;          /* DIFF_O_* */
  /* Optional: adjusts the random case (edge values, alignment, x87 stack)
   * before it runs. C's state and code are filled in already. */
  void (*fix)(struct diff_case *c, struct diff_rng *r);
};

/* Extensions a host may lack although it has the rest of a family: the
 * emulator's own list (CPU__FEAT_* of replayer/cpu/features.def, 0 for
 * none, fewer than DIFF_NEED_N). Rows that need one run only where CPUID
 * reports it, and diffcpu says how many it left out; the emulator raises
 * #UD for them where the recorded CPUID lacks them. */
#define DIFF_NEED_N 32

/* A family's cases: rows, plus optional raw generators for cases a table
 * cannot describe (instruction sequences). */
struct diff_family {
  const char *name;
  const struct diff_enc *encs;
  size_t nencs;
};

/* A concrete case. */
struct diff_case {
  const struct diff_enc *enc; /* the row it came from */
  u16 id;                     /* X86_INS_* */
  u8 code[32];                /* instruction bytes (int3 follows) */
  u8 len;                     /* their length */
  u8 osz;                     /* chosen operand size (GPR forms) */
  u8 rep;                     /* 0, 0xf3 or 0xf2 emitted */
  u8 memop;                   /* rm is memory */
  u8 reg;                     /* register number of the reg operand */
  u8 rm;                      /* register number of a register rm */
  u8 vreg;                    /* VEX.vvvv register */
  u8 vl;                      /* VEX.L: 1 for 256 bits; EVEX.L'L */
  u8 aaa, z, bc;              /* EVEX opmask register, zeroing, EVEX.b */
  u8 xin;                     /* XINUSE the case starts with (components
                                 not in it hold their initial state) */
  u8 probe;                   /* XINUSE is read after the instruction (an
                                 Intel host, an instruction that does not
                                 branch: diff_run.c) */
  u8 is4;                     /* the is4 register (DIFF_O_IS4) */
  u8 base, index;             /* memory operand registers (16 = none) */
  u64 flags_defined;          /* OSZAPC bits the manuals define (reports
                                 only: every bit is compared); fix may
                                 narrow it */
  u64 mem_addr;               /* address of the memory operand, if any */
  u8 fault_page;              /* a SIGSEGV's address is compared by page
                                 only: which byte of the first inaccessible
                                 page the CPU names is not architectural
                                 (xrstor of the components past the
                                 header) */
  struct diff_state st;       /* initial state */
};

/* Random numbers: xorshift, seeded per run. */
struct diff_rng {
  u64 s;
};
u64 diff_rand(struct diff_rng *r);
/* A random value biased toward edges (0, 1, -1, min/max signed of SZ
 * bytes, small numbers, powers of two), truncated to SZ bytes. */
u64 diff_rand_edge(struct diff_rng *r, unsigned sz);

/* Rewrites C's random registers and data as a double/float edge value
 * helper for SSE cases: writes V (SZ bytes) into XMM register REG. */
void diff_set_xmm(struct diff_case *c, unsigned reg, const void *v,
                  unsigned sz);

/* The families, from cases.def. */
#define CASES(fam) extern const struct diff_family diff_cases_##fam;
#include "tests/cpu/cases.def"
#undef CASES

/* The arithmetic flags the manuals define after an instruction
 * (flagmask.def; default all six). Reports name the differing flags the
 * manuals leave undefined; the comparison covers every flag all the same. */
u64 diff_flags_defined(unsigned id);

#endif /* RW_TESTS_CPU_DIFF_H */
