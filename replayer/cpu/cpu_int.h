/* SPDX-License-Identifier: MIT */
/* Private declarations of the emulator, shared by the files of replayer/cpu/
 * (and by its tests): the processor state, the decoded instruction form, the
 * handler table mechanism, the guest memory accessors over the software TLB
 * and the lazy-flags state. Instruction families code against this header;
 * replayer/cpu/README.md says how to add one. */
#ifndef RW_REPLAYER_CPU_CPU_INT_H
#define RW_REPLAYER_CPU_CPU_INT_H

#include <capstone/capstone.h>
#include <stdatomic.h>
#include <string.h>

#include "replayer/cpu/cpu.h"

struct cpu;
struct cpu_insn;

/* ---- Handlers ----------------------------------------------------------
 *
 * Every instruction handler has this signature (STYLE R9). It returns one of
 * the CPU_RC_* codes below. Before it runs, cpu->rip is the address of the
 * instruction; the next instruction is at cpu->rip + in->len. A handler that
 * returns CPU_RC_NEXT leaves rip alone (the run loop advances it). A handler
 * must do every access that can fail before it changes any register, so
 * that CPU_FAULT leaves the state as it was (STYLE R13). */
typedef int (*cpu_handler)(struct cpu *cpu, const struct cpu_insn *in);

enum {
  CPU_RC_NEXT = 0, /* done; continue with the next instruction */
  CPU_RC_JUMP,     /* done; the handler set cpu->rip; ends the block */
  CPU_RC_EXIT,     /* done; the handler set cpu->rip and cpu->exit; cpu_run
                      returns (syscall, int3) */
  CPU_FAULT,       /* not done; cpu->exit holds the fault; rip unchanged */
  CPU_RC_HALT,     /* not done; cpu->exit holds the reason (cpuid with no
                      answer, rdrand, unsupported); rip unchanged */
  CPU_RC_REP,      /* a rep string instruction paused before finishing
                      (budget, stop or watchpoint); it counted its own
                      iterations in cpu->icount; rip unchanged */
  CPU_RC_END,      /* not an instruction: end of block (rip is right) */
  CPU_RC_WATCH     /* an access hit a watched range and was not done; the
                      run loop re-executes the instruction in watch mode */
};

/* Inline even when the compiler would rather not: these are the hot path. */
#define CPU_INLINE static inline __attribute__((always_inline))

/* Propagates a nonzero handler code (a fault or a watch hit) from a memory
 * access or helper: CPU_TRY(cpu_ld32(cpu, a, &v)); */
#define CPU_TRY(expr)                         \
  do {                                        \
    int cpu__rc = (expr);                     \
    if (RW_UNLIKELY(cpu__rc)) return cpu__rc; \
  } while (0)

/* ---- Registers and decoded operands ---------------------------------- */

/* Register numbers in struct cpu_insn fields. General registers use their
 * encoding 0-15 (RW_REG_rax..). Byte registers use 0-15 for al..r15b and
 * CPU_REG_AH+n for ah, ch, dh, bh. CPU_REG_NONE names a register that always
 * reads 0 (cpu->gpr[16]), so an absent base or index costs no branch. XMM and
 * x87 st(i) operands use 0-15 and 0-7 in the same fields. */
enum {
  CPU_REG_NONE = 16,
  CPU_REG_AH = 20 /* 20..23: ah, ch, dh, bh */
};

/* Vector registers 0-31 are the guest's XMM/YMM/ZMM0-31 (bits 255:0 in
 * cpu->ymm, bits 511:256 in cpu->zmmh). 32 and 33 are scratch: cpu__vex
 * (avx.c) runs an SSE handler on them to compute one 128-bit lane of a VEX
 * or EVEX instruction. They hold nothing between instructions and no guest
 * state names them. */
enum { CPU_NZMM = 32, CPU_VTMP0 = 32, CPU_VTMP1 = 33, CPU_NVREGS = 34 };

/* Segment override of a memory operand: index into cpu->segbase. */
enum { CPU_SEG_NONE = 0, CPU_SEG_FS = 1, CPU_SEG_GS = 2 };

/* Prefix bits in struct cpu_insn.pfx. REP is F3 on a string instruction
 * (rep, repe), REPNE is F2 on one; mandatory SSE prefixes are part of the
 * Capstone id and do not appear here. */
enum {
  CPU_PFX_REP = 1,
  CPU_PFX_REPNE = 2,
  CPU_PFX_LOCK = 4,
  CPU_PFX_OPSIZE = 8,  /* 66 */
  CPU_PFX_ADDR32 = 16, /* 67: 32-bit addressing */
  CPU_PFX_REXW = 32,
  CPU_PFX_MEM = 64 /* the rm operand is memory (else register rm) */
};

/* One decoded instruction (STYLE R9), produced once per address by
 * decode.c. Operands are pre-resolved: which Capstone operand lands in which
 * field is fixed by the row's form (forms.def), in this order:
 *  - the rm slot: the first E/M/W/U operand, as register `rm` or as the
 *    memory fields base/index/scale/disp/seg (with CPU_PFX_MEM set);
 *  - register slots: G/X/F/B operands fill `reg`, then `reg2`, in order;
 *    a third (the is4 register of VEX blends) fills `imm2`;
 *  - immediates: the first fills `imm`, a second (enter) fills `imm2`.
 * rip-relative operands are resolved at decode: base = CPU_REG_NONE and disp
 * is the absolute address. A VSIB operand (the gathers) has index =
 * CPU_REG_NONE, its vector index register in imm and that register's size
 * (16 or 32) in imm2. Immediates are sign-extended from their encoded
 * width, then truncated to the operand size; branch targets are absolute. */
struct cpu_insn {
  cpu_handler fn;  /* the handler chosen at decode time */
  cpu_handler run; /* what the block executor calls: fn, or fn's chained
                      form, which runs the following instructions of the
                      block itself (cpu_variant.h; icache.c decides) */
  i64 disp;       /* memory displacement, or absolute address if rip-rel. */
  u64 imm;        /* immediate or absolute branch target */
  u8 len;         /* instruction length in bytes, 1-15 */
  u8 osz;         /* size of the first operand in bytes (1,2,4,8,10,16);
                     with no operand: 8 with REX.W, 2 with 66, else 4 */
  u8 osz2;        /* size of the second operand (0 if none) */
  u8 msz;         /* size of the memory operand as Capstone reports it
                     (unreliable for SSE; handlers know their own size) */
  u8 reg;         /* first register slot */
  u8 reg2;        /* second register slot (CPU_REG_NONE if unused) */
  u8 rm;          /* register of the rm slot when !(pfx & CPU_PFX_MEM) */
  u8 base;        /* memory base register, CPU_REG_NONE if none */
  u8 index;       /* memory index register, CPU_REG_NONE if none */
  u8 scale;       /* log2 of the index scale, 0-3 */
  u8 seg;         /* CPU_SEG_* override of the memory operand */
  u8 pfx;         /* CPU_PFX_* bits */
  u8 cond;        /* low nibble of the last opcode byte: the condition of
                     jcc/setcc/cmovcc, usable by other families */
  u8 imm2;        /* second immediate (enter's nesting level); for a
                     VSIB operand (gathers), the index vector's size */
  u16 id;         /* Capstone X86_INS_* id, for messages and observers */
};

/* Lazy flags (STYLE R11). ALU handlers write
 *   cpu->cc = (struct cc){CC_OP(CC_ADD, osz), result, a, b};
 * and cpu/flags.c computes OF SF ZF AF PF CF from it when asked. */
struct cc {
  u32 op;   /* CC_* kind + log2(size) */
  u64 dst;  /* the result */
  u64 src1; /* first source (CC_EFLAGS: the flag bits themselves) */
  u64 src2; /* second source (CC_INC/CC_DEC: the old CF) */
};

/* Kinds of struct cc.op; each is a multiple of 4, plus log2 of the operand
 * size: CC_OP(CC_SUB, 4) is a 32-bit subtraction. */
enum {
  CC_EFLAGS = 0, /* src1 holds the six arithmetic flags */
  CC_ADD = 4,    /* dst = src1 + src2 */
  CC_ADC = 8,    /* dst = src1 + src2 + cf (cf is recovered from dst) */
  CC_SUB = 12,   /* dst = src1 - src2 (cmp, neg with src1 = 0) */
  CC_SBB = 16,   /* dst = src1 - src2 - cf */
  CC_LOGIC = 20, /* and/or/xor/test: CF = OF = 0, AF = 0 */
  CC_INC = 24,   /* dst = src1 + 1, src2 = old CF */
  CC_DEC = 28,   /* dst = src1 - 1, src2 = old CF */
  CC_SHL = 32,   /* dst = src1 << src2, src2 = count in 1..width-1+ */
  CC_SHR = 36,   /* dst = src1 >> src2 (logical) */
  CC_SAR = 40,   /* dst = src1 >> src2 (arithmetic) */
  CC_NKINDS = 44,
  /* Added to the op of another kind (never CC_EFLAGS): CF and OF are
   * replaced, by the values of CC_OVR_CF and CC_OVR_OF, and the other four
   * flags are those of the operation recorded. Rotates, and AMD's mul and
   * imul, leave SF ZF AF PF as they were; this keeps them lazy. No fast
   * path knows these bits, so every switch on the kind sends such an op to
   * the general code, which is right for all but the e/ne/s/ns shortcut,
   * which reads ZF and SF from dst, as the recorded operation does. */
  CC_OVR = 0x100,
  CC_OVR_CF = 0x200,
  CC_OVR_OF = 0x400
};
#define CC_OP(kind, osz) ((u32)(kind) + (u32)__builtin_ctz(osz))

/* Arithmetic flag bits of rflags. */
enum {
  CPU_CF = 0x1,
  CPU_PF = 0x4,
  CPU_AF = 0x10,
  CPU_ZF = 0x40,
  CPU_SF = 0x80,
  CPU_TF = 0x100,
  CPU_IF = 0x200,
  CPU_DF = 0x400,
  CPU_OF = 0x800,
  CPU_RF = 0x10000,
  CPU_AC = 0x40000,
  CPU_ID = 0x200000,
  CPU_ARITH = CPU_CF | CPU_PF | CPU_AF | CPU_ZF | CPU_SF | CPU_OF
};

/* One YMM register; bytes 0-15 are the XMM register. Host little-endian, so
 * element i of every view is guest element i. */
union cpu_vec {
  u8 b[32];
  u16 w[16];
  u32 d[8];
  u64 q[4];
  i8 sb[32];
  i16 sw[16];
  i32 sd[8];
  i64 sq[4];
  float f[8];
  double fd[4];
};

/* One x87 register as FXSAVE stores it: 64-bit significand, then sign and
 * 15-bit exponent; the padding is kept zero. */
struct cpu_f80 {
  u64 mant; /* significand with explicit integer bit */
  u16 se;   /* sign (bit 15) and biased exponent */
  u16 pad[3];
};

/* The x87 unit. st[] holds the physical registers R0-R7; ST(i) is
 * st[(TOP + i) & 7] with TOP = (fsw >> 11) & 7. */
struct cpu_x87 {
  struct cpu_f80 st[8]; /* physical registers R0-R7 */
  u16 fcw;              /* control word (0x37f after reset/finit) */
  u16 fsw;              /* status word, TOP in bits 11-13 */
  u8 ftw;               /* abridged tag word: bit i set = R_i not empty */
  u16 fop;              /* last non-control opcode (11 bits) */
  u64 fip;              /* last instruction pointer */
  u64 fdp;              /* last data pointer */
};

/* One TLB entry: guest page address (CPU_TLB_EMPTY if invalid) and the
 * host addend (host pointer = guest address + addend). */
struct cpu_tlbe {
  u64 page;         /* page-aligned guest address, or CPU_TLB_EMPTY */
  uintptr_t addend; /* host address minus guest address */
};
/* 1,024 entries (4 MiB of pages) per kind: with 256, a qsort of 100k
 * strings (bench/record/libc) spent 5% of its replay refilling them; 1,024
 * cut its time by 6%, at 36 KiB more per thread. */
#define CPU_TLB_BITS 10
#define CPU_TLB_SIZE (1u << CPU_TLB_BITS)
#define CPU_OTLB_SIZE 16u
#define CPU_TLB_EMPTY (~(u64)0)

/* The last access of one kind, for watchpoints and observers (R12). */
struct cpu_access {
  u64 addr; /* guest address */
  u32 size; /* bytes, 0 before any access */
};

struct cpu__block;

/* One thread (the public `cpu` handle). Every guest-visible register is
 * here; the arithmetic flags live in cc and the rest of rflags in rflags. */
struct cpu {
  u64 gpr[17];    /* rax..r15 (RW_REG_* order); gpr[16] is always 0 */
  u64 rip;        /* address of the current instruction */
  struct cc cc;   /* lazy arithmetic flags (OSZAPC) */
  u64 rflags;     /* non-arithmetic rflags bits (DF, IF, ID, AC, bit
                     1); OSZAPC bits here are always 0 */
  u64 segbase[3]; /* 0, fs base, gs base (indexed by CPU_SEG_*) */
  union cpu_vec ymm[CPU_NVREGS] __attribute__((aligned(32))); /* bits
                    255:0 of ZMM0-31, then the scratch CPU_VTMP0/1 */
  union cpu_vec zmmh[CPU_NZMM]; /* bits 511:256 of ZMM0-31: every VEX
                    write of a vector register zeroes its entry
                    (cpu_vput, cpu_vzhi); legacy SSE writes keep it */
  u64 k[8];                     /* AVX-512 opmask registers k0-k7 */
  u32 mxcsr;                                          /* SSE control/status */
  u32 pkru;           /* protection-key rights (rdpkru, wrpkru) */
  u32 xinuse;         /* Intel: XINUSE bits 0-7 (CPU_XIN_*) as the CPU
                         tracks them, by modification (xinuse.c) */
  struct cpu_x87 x87; /* x87 registers, control and status */
  u8 rep_paused;      /* the last run stopped inside a rep string
                         instruction (rip at it, rcx partly counted down):
                         resuming it is not reaching it, for breakpoints */
  u64 rep_resume;     /* the rep instruction paused part way (its rip; ~0:
                         none): running it again resumes it (string.c) */
  u8 rep_open;        /* with an on_rep observer: a rep instruction at
                         rep_at began and has not ended (string.c) */
  u64 rep_at, rep_req, rep_done, rep_n; /* its address, rcx at its first
                         iteration, iterations so far, count before it */
  const char *rep_mnem;
  /* Everything above is what cpu_state_save copies: keep it first. */

  u64 icount;           /* instructions completed (rep iterations count) */
  u64 rep_skip;         /* a rep stop before the rep instruction here was
                           reported: the next start runs it (~0: none) */
  u64 icount_end;       /* icount at which the current cpu_run's budget
                           ends; rep handlers read it */
  atomic_int stop;      /* cpu_stop() request, consumed by cpu_run */
  int watch_mode;       /* re-executing an instruction that hit a watch:
                           accesses to watched ranges proceed and record */
  int watch_hit;        /* a watched access happened during watch mode */
  int xm_defer;         /* running the lanes of one VEX instruction: SIMD
                           FP exceptions collect in xm_ex/xm_fl (flags
                           as if unmasked, flags as masked) and are
                           applied once for the whole vector (avx.c) */
  u32 xm_ex, xm_fl;
  struct cpu_exit exit; /* the exit being built by a handler or fault */

  struct cpu_tlbe tlb_r[CPU_TLB_SIZE]; /* data read TLB */
  struct cpu_tlbe tlb_w[CPU_TLB_SIZE]; /* data write TLB */
  struct cpu_tlbe tlb_x[CPU_TLB_SIZE]; /* instruction fetch TLB */
  /* Pages of the observed range (cpu_mem_observe), which stay out of the
   * two above so that every access reaches the observer: the slow path
   * finds them here first, without a page lookup (tlb.c). */
  struct cpu_tlbe otlb_r[CPU_OTLB_SIZE], otlb_w[CPU_OTLB_SIZE];
  struct cpu_access last_read;         /* most recent data read */
  struct cpu_access last_write;        /* most recent data write */

  struct cpu_mem *mem;        /* the shared address space (borrowed) */
  struct cpu *mem_next;       /* next thread bound to the same cpu_mem */
  struct cpu_config cfg;      /* cpuid/rdtsc answers, xcr0 */
  u32 feats;                  /* 1 << CPU__FEAT_x for each extension the
                                 recorded CPUID reports (cpu_new) */
  struct cpu__block **jcache; /* direct-mapped rip -> block cache */
  u64 jcache_gen;             /* mem code generation jcache was filled under */
  struct cpu_observer obs;    /* cpu_set_observer; zero: none */
  int observed;               /* CPU__OBS_* of the callbacks obs has: the
                                 handlers decode picks */
  int bpc_on;                 /* cpu_break_cond: the breakpoint at bpc_addr */
  u64 bpc_addr;               /* stops this thread only when its general */
  u64 bpc_gpr[16];            /* registers equal bpc_gpr */
  struct cpu__block *jit_last; /* the block a translation returned from
                                  (translations jump from one to the next:
                                  jit.c) */
  void *jit_link;              /* the link a translation left through
                                  without following it, for run.c to fill
                                  in; or NULL */
  union cpu_vec jit_tmp;       /* a vector access of a translation that
                                  takes the slow path goes through here */
};

/* ---- Host fast paths (host.c) ------------------------------------------ */

/* Set by cpu__host_init (once, from cpu_new): the host has SSSE3 and the
 * portable routines are not forced. */
extern int cpu__host_ssse3;
/* The host has FMA3 and AVX with YMM state enabled. */
extern int cpu__host_fma3;
/* The host has AVX2 (and AVX) with YMM state enabled: the translator runs
 * 256-bit VEX instructions as the host's own. */
extern int cpu__host_avx2;
/* The host has AES-NI, PCLMULQDQ, the SHA extensions (each 0 while the
 * portable routines are forced): the translator runs them as the host's
 * own. */
extern int cpu__host_aes, cpu__host_pclmul, cpu__host_sha;
/* ... and VAES, VPCLMULQDQ at 256 bits (with AVX2). */
extern int cpu__host_vaes, cpu__host_vpclmul;
/* The host has AVX-512F with the OS saving its state: set whatever
 * cpu_set_portable says. */
extern int cpu__host_avx512f;
/* Where the host is AMD's with AVX-512F, its display family (0x19 Zen 4,
 * 0x1a Zen 5), else 0; set whatever cpu_set_portable says, for the
 * instructions only such a host computes as a recording AMD CPU did
 * (vrcp14, vrsqrt14: AMD's approximation is not Intel's). */
extern u32 cpu__host_amd512;
/* vrcp14 (RSQRT 0) or vrsqrt14 (1) of the 64 bytes B in elements of
 * doubles (DBL) or floats under the guest's MXCSR MX, into R; SCALAR: the
 * low element only, the rest of R from A. */
void cpu__host_approx14(int rsqrt, int dbl, int scalar, u8 *r, const u8 *a,
                        const u8 *b, u32 mx);
void cpu__host_init(void);
/* pshufb on N16 16-byte lanes of D (table) and S (selectors) into R. */
void cpu__host_pshufb(u8 *r, const u8 *d, const u8 *s, unsigned n16);
/* The FMA3 operations, as the 213 forms compute them (fma.c). */
enum {
  CPU_FMA_ADD,    /* a*b+c */
  CPU_FMA_SUB,    /* a*b-c */
  CPU_FMA_NADD,   /* -(a*b)+c */
  CPU_FMA_NSUB,   /* -(a*b)-c */
  CPU_FMA_ADDSUB, /* a*b-c in even elements, a*b+c in odd ones */
  CPU_FMA_SUBADD  /* a*b+c in even elements, a*b-c in odd ones */
};
/* B = a*b+c (KIND) with the host's FMA3 on 32 bytes (packed; 128-bit
 * operations pass zeros above) or on the low element (SCALAR), single or
 * double (DBL), under the guest MXCSR MX's DAZ, FTZ and rounding with
 * every exception masked; returns the flags raised (MXCSR bits 0-5). */
u32 cpu__host_fma(int kind, int dbl, int scalar, u8 *b, const u8 *a,
                  const u8 *c, u32 mx);
/* The same for a guest MXCSR MX that masks every exception, under the
 * host's MXCSR as it is when its control bits are MX's (no load of it,
 * which costs about 30 ns here with the read after it): returns the
 * flags raised plus some of MX's own, which is what MX becomes. */
u32 cpu__host_fma_sticky(int kind, int dbl, int scalar, u8 *b, const u8 *a,
                         const u8 *c, u32 mx);
/* The same on 64 bytes, packed, with the host's AVX-512F (only when
 * cpu__host_avx512f and cpu__host_fma3 are both set). */
u32 cpu__host_fma512(int kind, int dbl, u8 *b, const u8 *a, const u8 *c,
                     u32 mx);

/* ---- Register and operand helpers ------------------------------------ */

/* Reads register R (general register number, or CPU_REG_AH+n for SZ 1) at
 * size SZ bytes, zero-extended. */
CPU_INLINE u64 cpu_reg_get(const struct cpu *cpu, unsigned r, unsigned sz) {
  switch (sz) {
    case 1:
      if (r >= CPU_REG_AH) return (u8)(cpu->gpr[r - CPU_REG_AH] >> 8);
      return (u8)cpu->gpr[r];
    case 2:
      return (u16)cpu->gpr[r];
    case 4:
      return (u32)cpu->gpr[r];
    default:
      return cpu->gpr[r];
  }
}

/* Writes V to register R at size SZ with the x86 rules: 8 and 16-bit writes
 * merge, 32-bit writes zero-extend to 64 bits. */
CPU_INLINE void cpu_reg_set(struct cpu *cpu, unsigned r, unsigned sz, u64 v) {
  switch (sz) {
    case 1:
      if (r >= CPU_REG_AH) {
        u64 *g = &cpu->gpr[r - CPU_REG_AH];
        *g = (*g & ~(u64)0xff00) | ((v & 0xff) << 8);
      } else {
        cpu->gpr[r] = (cpu->gpr[r] & ~(u64)0xff) | (v & 0xff);
      }
      break;
    case 2:
      cpu->gpr[r] = (cpu->gpr[r] & ~(u64)0xffff) | (v & 0xffff);
      break;
    case 4:
      cpu->gpr[r] = (u32)v;
      break;
    default:
      cpu->gpr[r] = v;
      break;
  }
}

/* The effective address of IN's memory operand, segment base included. */
CPU_INLINE u64 cpu_ea(const struct cpu *cpu, const struct cpu_insn *in) {
  u64 a =
      (u64)in->disp + cpu->gpr[in->base] + (cpu->gpr[in->index] << in->scale);
  if (RW_UNLIKELY(in->pfx & CPU_PFX_ADDR32)) a = (u32)a;
  return a + cpu->segbase[in->seg];
}

/* Truncates V to SZ bytes. */
static inline u64 cpu_trunc(u64 v, unsigned sz) {
  return sz >= 8 ? v : v & ((1ull << (sz * 8)) - 1);
}

/* Sign-extends the low SZ bytes of V. */
static inline u64 cpu_sext(u64 v, unsigned sz) {
  unsigned sh = 64 - sz * 8;
  return sz >= 8 ? v : (u64)((i64)(v << sh) >> sh);
}

/* The XMM/YMM register R. */
static inline union cpu_vec *cpu_xmm(struct cpu *cpu, unsigned r) {
  return &cpu->ymm[r];
}

/* Zeroes bits 511:256 of vector register R, as every VEX and EVEX write of
 * a register does (the scratch registers have no such bits). */
static inline void cpu_vzhi(struct cpu *cpu, unsigned r) {
  if (r < CPU_NZMM) memset(cpu->zmmh[r].b, 0, sizeof cpu->zmmh[r]);
}

/* A VEX write of the whole YMM register R: V, and zeros above bit 255. */
static inline void cpu_vput(struct cpu *cpu, unsigned r,
                            const union cpu_vec *v) {
  cpu->ymm[r] = *v;
  cpu_vzhi(cpu, r);
}

/* ---- Guest memory (STYLE R12) ------------------------------------------
 *
 * Every guest data access goes through cpu_ld* / cpu_st*. They return 0, or
 * a nonzero handler code (CPU_FAULT with cpu->exit filled, CPU_RC_WATCH) that
 * the handler must return unchanged (CPU_TRY). A hit in the direct-mapped TLB
 * costs a compare; a miss, a page-crossing access, a watched page or a write
 * to a page holding decoded code goes to the slow path in tlb.c. */

/* Slow paths (tlb.c): N bytes at A into/from BUF, any N (fxsave: 512). */
int cpu__ld_slow(struct cpu *cpu, u64 a, void *buf, unsigned n) RW_MUST_CHECK;
int cpu__st_slow(struct cpu *cpu, u64 a, const void *buf,
                 unsigned n) RW_MUST_CHECK;
/* The same for the integer accessors below (N = 1, 2, 4, 8), passing the
 * value in registers: a handler's locals then never have their address
 * taken, which lets the compiler keep them in registers and turn the
 * handler's last call into a jump (the chained handlers of icache.c). */
struct cpu__ldv {
  u64 v;  /* the value, zero-extended (0 when rc is nonzero) */
  int rc; /* 0 or a handler code */
};
struct cpu__ldv cpu__ld_slow_int(struct cpu *cpu, u64 a, unsigned n);
int cpu__st_slow_int(struct cpu *cpu, u64 a, u64 v, unsigned n) RW_MUST_CHECK;

/* One compare: the entry is picked by the page of the first byte and matched
 * against the page of the last byte, so a page-crossing access (whose last
 * byte lies on the next page, which maps to another entry) always misses. */
CPU_INLINE const struct cpu_tlbe *cpu__tlb_entry(const struct cpu_tlbe *t,
                                                 u64 a) {
  return &t[(a >> 12) & (CPU_TLB_SIZE - 1)];
}
CPU_INLINE int cpu__tlb_match(const struct cpu_tlbe *e, u64 a, unsigned n) {
  return e->page == ((a + n - 1) & ~(u64)0xfff);
}
/* The host address of [A, A+N) when the TLB T holds it, else NULL. */
CPU_INLINE void *cpu__tlb_hit(const struct cpu_tlbe *t, u64 a, unsigned n) {
  const struct cpu_tlbe *e = cpu__tlb_entry(t, a);
  if (RW_LIKELY(cpu__tlb_match(e, a, n)))
    return (void *)(uintptr_t)(a + e->addend);
  return NULL;
}

#define CPU__LD(name, type, n)                                         \
  RW_MUST_CHECK CPU_INLINE int name(struct cpu *cpu, u64 a, type *v) { \
    const struct cpu_tlbe *e = cpu__tlb_entry(cpu->tlb_r, a);          \
    if (RW_LIKELY(cpu__tlb_match(e, a, n))) {                          \
      cpu->last_read = (struct cpu_access){a, n};                      \
      memcpy(v, (const void *)(uintptr_t)(a + e->addend), n);          \
      return 0;                                                        \
    }                                                                  \
    struct cpu__ldv r = cpu__ld_slow_int(cpu, a, n);                   \
    if (!r.rc) *v = (type)r.v;                                         \
    return r.rc;                                                       \
  }
#define CPU__ST(name, type, n)                                        \
  RW_MUST_CHECK CPU_INLINE int name(struct cpu *cpu, u64 a, type v) { \
    const struct cpu_tlbe *e = cpu__tlb_entry(cpu->tlb_w, a);         \
    if (RW_LIKELY(cpu__tlb_match(e, a, n))) {                         \
      cpu->last_write = (struct cpu_access){a, n};                    \
      memcpy((void *)(uintptr_t)(a + e->addend), &v, n);              \
      return 0;                                                       \
    }                                                                 \
    return cpu__st_slow_int(cpu, a, v, n);                            \
  }
CPU__LD(cpu_ld8, u8, 1)
CPU__LD(cpu_ld16, u16, 2)
CPU__LD(cpu_ld32, u32, 4)
CPU__LD(cpu_ld64, u64, 8)
CPU__ST(cpu_st8, u8, 1)
CPU__ST(cpu_st16, u16, 2)
CPU__ST(cpu_st32, u32, 4)
CPU__ST(cpu_st64, u64, 8)
#undef CPU__LD
#undef CPU__ST

/* 16 bytes at A into/from V (no alignment check; see cpu_ld128a). */
RW_MUST_CHECK static inline int cpu_ld128(struct cpu *cpu, u64 a, void *v) {
  void *p = cpu__tlb_hit(cpu->tlb_r, a, 16);
  if (RW_LIKELY(p)) {
    cpu->last_read = (struct cpu_access){a, 16};
    memcpy(v, p, 16);
    return 0;
  }
  return cpu__ld_slow(cpu, a, v, 16);
}
RW_MUST_CHECK static inline int cpu_st128(struct cpu *cpu, u64 a,
                                          const void *v) {
  void *p = cpu__tlb_hit(cpu->tlb_w, a, 16);
  if (RW_LIKELY(p)) {
    cpu->last_write = (struct cpu_access){a, 16};
    memcpy(p, v, 16);
    return 0;
  }
  return cpu__st_slow(cpu, a, v, 16);
}

/* 32 bytes at A into/from V (YMM; no alignment check). */
RW_MUST_CHECK static inline int cpu_ld256(struct cpu *cpu, u64 a, void *v) {
  void *p = cpu__tlb_hit(cpu->tlb_r, a, 32);
  if (RW_LIKELY(p)) {
    cpu->last_read = (struct cpu_access){a, 32};
    memcpy(v, p, 32);
    return 0;
  }
  return cpu__ld_slow(cpu, a, v, 32);
}
RW_MUST_CHECK static inline int cpu_st256(struct cpu *cpu, u64 a,
                                          const void *v) {
  void *p = cpu__tlb_hit(cpu->tlb_w, a, 32);
  if (RW_LIKELY(p)) {
    cpu->last_write = (struct cpu_access){a, 32};
    memcpy(p, v, 32);
    return 0;
  }
  return cpu__st_slow(cpu, a, v, 32);
}

/* Any size (1..4096 bytes; used for fxsave/xsave areas and 10-byte x87
 * operands). */
RW_MUST_CHECK static inline int cpu_ldn(struct cpu *cpu, u64 a, void *v,
                                        unsigned n) {
  return cpu__ld_slow(cpu, a, v, n);
}
RW_MUST_CHECK static inline int cpu_stn(struct cpu *cpu, u64 a, const void *v,
                                        unsigned n) {
  return cpu__st_slow(cpu, a, v, n);
}

/* Width-generic integer access, SZ in {1, 2, 4, 8}; loads zero-extend. */
RW_MUST_CHECK CPU_INLINE int cpu_ld(struct cpu *cpu, u64 a, unsigned sz,
                                    u64 *v) {
  int rc;
  switch (sz) {
    case 1: {
      u8 x = 0;
      rc = cpu_ld8(cpu, a, &x);
      *v = x;
      return rc;
    }
    case 2: {
      u16 x = 0;
      rc = cpu_ld16(cpu, a, &x);
      *v = x;
      return rc;
    }
    case 4: {
      u32 x = 0;
      rc = cpu_ld32(cpu, a, &x);
      *v = x;
      return rc;
    }
    default:
      return cpu_ld64(cpu, a, v);
  }
}
RW_MUST_CHECK CPU_INLINE int cpu_st(struct cpu *cpu, u64 a, unsigned sz,
                                    u64 v) {
  switch (sz) {
    case 1:
      return cpu_st8(cpu, a, (u8)v);
    case 2:
      return cpu_st16(cpu, a, (u16)v);
    case 4:
      return cpu_st32(cpu, a, (u32)v);
    default:
      return cpu_st64(cpu, a, v);
  }
}

/* Faults (fault.c). Each fills cpu->exit and returns CPU_FAULT, so a handler
 * writes `return cpu__fault(cpu, CPU_FAULT_UD);`. For #PF use
 * cpu__fault_pf (the memory slow path already does). */
int cpu__fault(struct cpu *cpu, int fault) RW_MUST_CHECK;
int cpu__fault_pf(struct cpu *cpu, u64 addr, int access,
                  int maperr) RW_MUST_CHECK;

/* 16-byte access with the SSE alignment rule: #GP(0) when A is not a
 * multiple of 16. */
RW_MUST_CHECK static inline int cpu_ld128a(struct cpu *cpu, u64 a, void *v) {
  if (RW_UNLIKELY(a & 15)) return cpu__fault(cpu, CPU_FAULT_GP);
  return cpu_ld128(cpu, a, v);
}
RW_MUST_CHECK static inline int cpu_st128a(struct cpu *cpu, u64 a,
                                           const void *v) {
  if (RW_UNLIKELY(a & 15)) return cpu__fault(cpu, CPU_FAULT_GP);
  return cpu_st128(cpu, a, v);
}

/* Reads the rm operand (register or memory) of IN at SZ bytes into *V. */
RW_MUST_CHECK CPU_INLINE int cpu_rm_read(struct cpu *cpu,
                                         const struct cpu_insn *in, unsigned sz,
                                         u64 *v) {
  if (in->pfx & CPU_PFX_MEM) return cpu_ld(cpu, cpu_ea(cpu, in), sz, v);
  *v = cpu_reg_get(cpu, in->rm, sz);
  return 0;
}

/* Writes V to the rm operand of IN at SZ bytes (register rules as
 * cpu_reg_set). */
RW_MUST_CHECK CPU_INLINE int cpu_rm_write(struct cpu *cpu,
                                          const struct cpu_insn *in,
                                          unsigned sz, u64 v) {
  if (in->pfx & CPU_PFX_MEM) return cpu_st(cpu, cpu_ea(cpu, in), sz, v);
  cpu_reg_set(cpu, in->rm, sz, v);
  return 0;
}

/* Reads the W operand (XMM register rm, or SZ bytes of memory: 4, 8 or 16)
 * into *OUT. A register copies all 16 bytes; memory fills the low SZ bytes
 * and zeroes the rest. ALIGN makes a 16-byte memory operand #GP when it is
 * not 16-byte aligned. */
RW_MUST_CHECK static inline int cpu_W_read(struct cpu *cpu,
                                           const struct cpu_insn *in,
                                           unsigned sz, int align,
                                           union cpu_vec *out) {
  if (!(in->pfx & CPU_PFX_MEM)) {
    memcpy(out->b, cpu->ymm[in->rm].b, 16);
    return 0;
  }
  u64 a = cpu_ea(cpu, in);
  memset(out->b, 0, 16);
  if (sz == 16)
    return align ? cpu_ld128a(cpu, a, out->b) : cpu_ld128(cpu, a, out->b);
  if (sz == 8) return cpu_ld64(cpu, a, &out->q[0]);
  if (sz == 4) return cpu_ld32(cpu, a, &out->d[0]);
  return cpu_ldn(cpu, a, out->b, sz);
}

/* Writes the low SZ bytes of V to the W operand: to memory, SZ bytes; to a
 * register, the low SZ bytes (the rest of the register is kept). */
RW_MUST_CHECK static inline int cpu_W_write(struct cpu *cpu,
                                            const struct cpu_insn *in,
                                            unsigned sz, int align,
                                            const union cpu_vec *v) {
  if (!(in->pfx & CPU_PFX_MEM)) {
    memcpy(cpu->ymm[in->rm].b, v->b, sz);
    return 0;
  }
  u64 a = cpu_ea(cpu, in);
  if (sz == 16)
    return align ? cpu_st128a(cpu, a, v->b) : cpu_st128(cpu, a, v->b);
  if (sz == 8) return cpu_st64(cpu, a, v->q[0]);
  if (sz == 4) return cpu_st32(cpu, a, v->d[0]);
  return cpu_stn(cpu, a, v->b, sz);
}

/* ---- Extensions the recording CPU has (feature.c) --------------------- */

/* The extensions of features.def: CPU__FEAT_NONE (0) for an instruction
 * that needs none of them, then one per FEAT line. */
enum {
  CPU__FEAT_NONE,
#define FEAT(name, leaf, sub, reg, bit) CPU__FEAT_##name,
#include "replayer/cpu/features.def"
#undef FEAT
  CPU__FEAT_N
};
_Static_assert(CPU__FEAT_N <= 32, "struct cpu's feats has 32 bits");
/* The CPU__FEAT bits that CFG's cpuid callback reports (bit 0 always
 * set): a leaf past the highest one leaf 0 (or 0x80000000) reports counts
 * as absent. Without a callback (unit tests), every extension. */
u32 cpu__features(const struct cpu_config *cfg);
/* The extension instruction ID needs (CPU__FEAT_*, NONE for most); EVEX
 * says whether it is EVEX-encoded (AVX-VNNI's VEX forms share the EVEX
 * ids). An EVEX or opmask instruction needs CPU__FEAT_AVX512F as well. */
unsigned cpu__feature_of(unsigned id, int evex);
/* Its name ("AVX512VNNI"), or "?". */
const char *cpu__feature_name(unsigned feat);
/* Whether the recording CPU of CPU has extension FEAT; NULL: yes. */
static inline int cpu__has(const struct cpu *cpu, unsigned feat) {
  return !cpu || ((cpu->feats >> feat) & 1);
}

/* ---- Flags (flags.c; the only code that reads or writes OSZAPC) ------- */

/* The AMD generation whose measured rules apply (flags.c), from
 * cpu->cfg: CPU__ZEN_NONE for other vendors; family 0x19 is Zen 3 or, at
 * models 0x10-0x1f, 0x60-0x7f and 0xa0-0xaf, Zen 4; 0x1a and the newest
 * known (family 0) Zen 5. Older families count as Zen 3: nothing was
 * measured on them, and they keep the rules they always had. */
enum { CPU__ZEN_NONE, CPU__ZEN3, CPU__ZEN4, CPU__ZEN5 };
unsigned cpu__zen(const struct cpu *cpu);

/* The six arithmetic flags computed from cpu->cc. */
u64 cpu__flags_arith(const struct cpu *cpu);
/* rflags as the guest sees it (arithmetic bits materialised). */
u64 cpu__rflags(const struct cpu *cpu);
/* Sets the arithmetic flags selected by MASK to those of VALUE, keeping the
 * others (sahf, popf, clc, bt, rotates, comiss, ...). */
void cpu__flags_set(struct cpu *cpu, u64 mask, u64 value);
/* Writes a whole guest rflags value (popf, cpu_set_regs): arithmetic bits to
 * cc, the others to cpu->rflags, keeping bit 1 set. */
void cpu__rflags_set(struct cpu *cpu, u64 value);
/* The carry flag, with a fast path per cc.op. */
int cpu__flag_cf(const struct cpu *cpu);

/* Instructions that leave some flags undefined call these with what they
 * computed; flags.c applies the rules of cpu->cfg.vendor to the rest
 * (docs/flags.md). */
/* mul/imul: LO the low half (or truncated product), OVF the CF/OF value. */
void cpu__flags_mul(struct cpu *cpu, unsigned sz, u64 lo, int ovf);
/* div/idiv that completed. */
void cpu__flags_div(struct cpu *cpu);
/* bsf/bsr of SRC (the operand, zero-extended), INDEX the bit found. */
void cpu__flags_bitscan(struct cpu *cpu, u64 src, u64 index);
/* tzcnt/lzcnt of SRC giving COUNT. */
void cpu__flags_count(struct cpu *cpu, u64 src, u64 count);
/* BMI1/BMI2 (andn, bextr, blsi, blsmsk, blsr, bzhi): OP one of
 * CPU__BMI_*, R the result at SZ bytes, CF the carry they define. */
enum { CPU__BMI_OTHER, CPU__BMI_BEXTR };
void cpu__flags_bmi(struct cpu *cpu, int op, u64 r, unsigned sz, int cf);
/* shld (LEFT) or shrd of A by B, masked count C of at least 1, giving R:
 * the flags as Intel computes them (AMD's stay lazy, in CC_SHL/CC_SHR). */
void cpu__flags_dshift(struct cpu *cpu, unsigned sz, int left, u64 a, u64 b,
                       unsigned c, u64 r);
/* rol/ror/rcl/rcr by a masked count of at least 1: A the operand, R the
 * result, CF the carry out, CIN the carry in; SF ZF AF PF stay. KIND is one
 * of LEFT (rol, rcl), RIGHT (ror), RCR, with CPU__ROT_IMM added for rol and
 * ror of a register by an immediate count above 1 (Intel keeps OF
 * there). */
enum { CPU__ROT_LEFT, CPU__ROT_RIGHT, CPU__ROT_RCR, CPU__ROT_IMM = 4 };
void cpu__flags_rotate(struct cpu *cpu, unsigned sz, int kind, u64 a, u64 r,
                       int cf, int cin);
/* The same fast paths inline (inc, dec, adc, sbb keep or use CF). */
CPU_INLINE int cpu__flag_cf_inline(const struct cpu *cpu) {
  const struct cc *c = &cpu->cc;
  unsigned sh = 64 - (8u << (c->op & 3));
  switch (c->op & ~3u) {
    case CC_EFLAGS:
      return (int)(c->src1 & 1);
    case CC_ADD:
      return (c->dst << sh) < (c->src1 << sh);
    case CC_SUB:
      return (c->src1 << sh) < (c->src2 << sh);
    case CC_LOGIC:
      return 0;
    case CC_INC:
    case CC_DEC:
      return c->src2 != 0;
    default:
      return cpu__flag_cf(cpu);
  }
}
/* Condition COND (0-15, as in jcc's opcode low nibble: o, no, b, ae, e, ne,
 * be, a, s, ns, p, np, l, ge, le, g) with fast paths per cc.op. */
int cpu__cond(const struct cpu *cpu, unsigned cond);
/* The same condition evaluated from the materialised flags (no shortcut):
 * the reference the shortcuts are tested against. */
int cpu__cond_flags(const struct cpu *cpu, unsigned cond);

/* The shortcuts of cpu__cond, inline for handlers specialised per condition
 * (COND a constant). Every kind but CC_EFLAGS derives ZF and SF from the
 * result, so e/ne/s/ns need only dst; b/ae, be/a, l/ge, le/g have shortcuts
 * after compares and logic ops (and b/ae after add, inc, dec). Operands are
 * compared shifted left so that only their low 8 << (op & 3) bits count. */
CPU_INLINE int cpu__cond_inline(const struct cpu *cpu, unsigned cond) {
  const struct cc *c = &cpu->cc;
  unsigned kind = c->op & ~3u, sh = 64 - (8u << (c->op & 3));
  u64 d = c->dst << sh;
  int r;
  if (RW_UNLIKELY(kind == CC_EFLAGS)) return cpu__cond_flags(cpu, cond);
  switch (cond >> 1) {
    case 2: /* e, ne */
      r = d == 0;
      break;
    case 4: /* s, ns */
      r = (i64)d < 0;
      break;
    case 1: /* b, ae */
      if (kind == CC_SUB)
        r = (c->src1 << sh) < (c->src2 << sh);
      else if (kind == CC_LOGIC)
        r = 0;
      else if (kind == CC_ADD)
        r = d < (c->src1 << sh);
      else if (kind == CC_INC || kind == CC_DEC)
        r = c->src2 != 0;
      else
        return cpu__cond_flags(cpu, cond);
      break;
    case 3: /* be, a */
      if (kind == CC_SUB)
        r = (c->src1 << sh) <= (c->src2 << sh);
      else if (kind == CC_LOGIC)
        r = d == 0;
      else
        return cpu__cond_flags(cpu, cond);
      break;
    case 6: /* l, ge */
      if (kind == CC_SUB)
        r = (i64)(c->src1 << sh) < (i64)(c->src2 << sh);
      else if (kind == CC_LOGIC)
        r = (i64)d < 0;
      else
        return cpu__cond_flags(cpu, cond);
      break;
    case 7: /* le, g */
      if (kind == CC_SUB)
        r = (i64)(c->src1 << sh) <= (i64)(c->src2 << sh);
      else if (kind == CC_LOGIC)
        r = (i64)d <= 0;
      else
        return cpu__cond_flags(cpu, cond);
      break;
    default: /* o, no, p, np */
      return cpu__cond_flags(cpu, cond);
  }
  return r ^ (int)(cond & 1);
}

/* ---- The handler table (STYLE R9, R14) ---------------------------------
 *
 * A family (one .c file of handlers) lists its rows in its own .def file:
 *   OP(X86_INS_ADD, Ev_Gv, op_add_Ev_Gv)   [with a comment: 01 /r add Ev,Gv]
 * and ends with
 *   CPU__FAMILY_TABLE(alu)   after  #define OP ... #include "alu.def"
 * as README.md shows; families.def lists every family once. Rows are tried in
 * families.def order, then row order; the first whose id and form match the
 * decoded instruction wins. */

/* Operand kinds of a form (low 4 bits of an operand spec). */
enum {
  CPU__K_NONE = 0, /* no operand here (and none after) */
  CPU__K_E,        /* general register or memory -> rm slot */
  CPU__K_M,        /* memory only -> rm slot */
  CPU__K_G,        /* general register -> reg slots */
  CPU__K_I,        /* immediate -> imm, then imm2 */
  CPU__K_X,        /* XMM register -> reg slots */
  CPU__K_W,        /* XMM register or memory -> rm slot */
  CPU__K_U,        /* XMM register only -> rm slot */
  CPU__K_F,        /* x87 st(i) -> reg slots (the number i) */
  CPU__K_R,        /* general register only -> rm slot */
  CPU__K_A,        /* the accumulator al/ax/eax/rax (implicit, checked) */
  CPU__K_C,        /* the register cl (implicit, checked) */
  CPU__K_Z,        /* any operand, not stored (string instructions) */
  CPU__K_P,        /* MMX register -> reg slots */
  CPU__K_Q,        /* MMX register or memory -> rm slot */
  CPU__K_N         /* MMX register only -> rm slot */
};

/* Operand size classes (bits 4-11 of an operand spec): sizes in bytes
 * 1, 2, 4, 8, 10, 16, 32 and "any". */
#define CPU__S_b (1u << 4)
#define CPU__S_w (2u << 4)
#define CPU__S_d (4u << 4)
#define CPU__S_q (8u << 4)
#define CPU__S_t (16u << 4)  /* 10 bytes: x87 extended */
#define CPU__S_x (32u << 4)  /* 16 bytes */
#define CPU__S_y8 (64u << 4) /* 32 bytes */
#define CPU__S_v (CPU__S_w | CPU__S_d | CPU__S_q)
#define CPU__S_y (CPU__S_d | CPU__S_q)
#define CPU__S_xy (CPU__S_x | CPU__S_y8) /* XMM or YMM */
#define CPU__S_any (0xffu << 4)

/* Form ids, from forms.def (and families' own FORM rows). */
enum cpu__form {
#define FORM(name, o0, o1, o2, o3) CPU_FORM_##name,
#define OP(id, form, fn)
#include "replayer/cpu/forms.def"
#undef FORM
#undef OP
  CPU_FORM_COUNT
};

/* One row of a family's table. */
struct cpu__oprow {
  u16 id;           /* Capstone X86_INS_* */
  u16 form;         /* CPU_FORM_* */
  cpu_handler fn;   /* the handler */
  const char *name; /* the handler's name, for tests and messages */
};

/* One family: its name and rows. */
struct cpu__family {
  const char *name;
  const struct cpu__oprow *rows;
  size_t nrows;
  /* Optional: given an instruction decoded with one of this family's rows
   * (in->fn is the row's handler), returns a faster handler specialised for
   * its operand size, register/memory form or condition, or NULL to keep
   * the row's. The specialised handler must behave exactly as the row's
   * does on that instruction (cpu_variant.h). It may also store in
   * *CHAINED the handler's chained form (struct cpu_insn.run). */
  cpu_handler (*specialise)(const struct cpu_insn *in, cpu_handler *chained);
};

/* Defines the family table cpu__family_NAME from the static array
 * NAME_rows, which the family file builds from its .def. */
#define CPU__FAMILY_TABLE(fam)                   \
  const struct cpu__family cpu__family_##fam = { \
      #fam, fam##_rows, sizeof(fam##_rows) / sizeof(fam##_rows[0]), NULL};
/* The same, with the family's specialiser SPEC. */
#define CPU__FAMILY_TABLE_SPEC(fam, spec)        \
  const struct cpu__family cpu__family_##fam = { \
      #fam, fam##_rows, sizeof(fam##_rows) / sizeof(fam##_rows[0]), spec};

#define FAMILY(fam) extern const struct cpu__family cpu__family_##fam;
#include "replayer/cpu/families.def"
#undef FAMILY

/* Every family, in families.def order, NULL-terminated (decode.c). */
extern const struct cpu__family *const cpu__families[];

/* ---- Decoding, blocks and the run loop -------------------------------- */

/* A decoded block: instructions from start up to a branch, a page end or a
 * breakpoint. insns[ninsn] is always a sentinel that returns CPU_RC_END. */
struct cpu__block {
  const u8 *xin;               /* xin[k]: the CPU_XIN_* bits the first k
                                  instructions set (ninsn + 1 entries,
                                  after insns[]; xinuse.c) */
  u64 start;                   /* guest address of the first instruction */
  u64 end;                     /* guest address after the last one */
  u32 ninsn;                   /* instructions (the sentinel not counted) */
  u16 bp;                      /* a breakpoint is set at start */
  u16 dead;                    /* dropped (in the graveyard) */
  struct cpu__block *hnext;    /* hash chain by start */
  struct cpu__block *pnext[2]; /* per-page chains (start page, end page) */
  struct cpu__block *succ[2];  /* blocks that followed this one (chaining) */
  u64 succ_gen;                /* mem->code_gen succ[] is valid for */
  u32 succ_next;               /* succ[] slot to replace next */
  const u8 *forms;             /* forms[k]: the CPU_FORM_* instruction k
                                  was decoded under, 0xff if none (after
                                  xin[]; the translator reads it) */
  cpu_handler jit;             /* the block translated (jit.c), run as a
                                  chained handler at insns[0]; or NULL */
  u32 heat;                    /* times run before being translated */
  u8 jit_state;                /* CPU__JIT_* */
  struct cpu_insn insns[];     /* ninsn + 1 entries */
};

/* Decoder verdicts on how an instruction sits in a block, and in bits
 * 8-15 (CPU__DEC_XIN) the CPU_XIN_* bits it sets when it completes. */
enum {
  CPU__DEC_END = 1,   /* the block ends after it (branch, syscall, ...) */
  CPU__DEC_ALONE = 2, /* it must be alone in its block (rep string; the
                         instructions that read or restore XINUSE) */
  CPU__DEC_XCLEAR = 4, /* it clears XINUSE bits (vzeroupper, vzeroall):
                          the block's union of XINUSE bits starts again
                          after it, and its imm holds the union before it,
                          which its handler adds first */
  CPU__DEC_XIN = 8,   /* shift of the XINUSE bits */
  CPU__DEC_FORM = 16  /* shift of 1 + the CPU_FORM_* of the row that
                         gave the handler (0: none: op_ud, raw decodes) */
};

/* ---- The translator (jit.c) -------------------------------------------- */

enum { CPU__JIT_NONE, CPU__JIT_DONE, CPU__JIT_REFUSED };
/* How many runs make a block hot (0: the translator is off). */
u32 cpu__jit_threshold(void);
/* Translates B (sets b->jit and b->jit_state). */
void cpu__jit_block(struct cpu *cpu, struct cpu__block *b);
/* Lets the link LINK (cpu->jit_link) of a translation jump straight to
 * B's translation from now on, while no block is dropped. */
void cpu__jit_link(struct cpu_mem *mem, void *link, struct cpu__block *b);
/* Drops every translation of MEM (the cache is full). */
void cpu__jit_flush(struct cpu_mem *mem);
/* Frees MEM's code cache (cpu_mem_free). */
void cpu__jit_free(struct cpu_mem *mem);
/* Makes every live block of MEM forget its translation (icache.c). */
void cpu__code_forget_jit(struct cpu_mem *mem);

/* ---- XINUSE (xinuse.c) ------------------------------------------------
 *
 * Which XSAVE components are "in use" decides what XSAVEOPT and XSAVEC
 * write and the XSTATE_BV they store, and what xgetbv 1 returns. Intel
 * (measured) marks a component in use whenever an instruction writes it,
 * whatever the value, until an XRSTOR, vzeroupper or vzeroall puts it back
 * in its initial state. The decoder gives each instruction the bits it sets
 * (CPU__DEC_XIN); a block keeps their running union (cpu__block.xin) and
 * the run loop adds the executed prefix to cpu->xinuse. The instructions
 * that read or restore XINUSE are alone in their blocks, so they see every
 * earlier instruction's bits; vzeroupper and vzeroall add the bits of the
 * instructions before them in the block themselves, and the union starts
 * again after them (CPU__DEC_XCLEAR). AMD decides by value (sse_state.c). */
enum {
  CPU_XIN_X87 = 1,   /* x87 (and MMX) */
  CPU_XIN_SSE = 2,   /* XMM0-15 and MXCSR */
  CPU_XIN_AVX = 4,   /* bits 255:128 of YMM0-15 */
  CPU_XIN_K = 0x20,  /* k0-k7 */
  CPU_XIN_ZMMH = 0x40, /* bits 511:256 of ZMM0-15 */
  CPU_XIN_HI16 = 0x80  /* ZMM16-31 */
};
/* XINUSE as xsave and xgetbv 1 see it: SSE counts in use too while MXCSR
 * is not 1F80h (Intel, measured). */
static inline u32 cpu__xinuse(const struct cpu *cpu) {
  return cpu->xinuse | (cpu->mxcsr != 0x1f80 ? CPU_XIN_SSE : 0);
}
/* The bits a write of vector register R (0-31) of BYTES bytes (16, 32, 64:
 * the vector length that writes it) sets. */
unsigned cpu__xin_vreg(unsigned r, unsigned bytes);
/* The bits instruction CI (decoded by Capstone) sets, and in *ALONE 1 when
 * it reads or restores XINUSE (alone in its block), 2 when it only clears
 * bits (CPU__DEC_XCLEAR), else 0. */
unsigned cpu__xin_of(const cs_insn *ci, int *alone);

/* Decodes the instruction at RIP into *IN (decode.c) and sets *HOW to
 * CPU__DEC_* bits. Returns 0, or CPU_FAULT (a fetch fault, cpu->exit
 * filled). An instruction with no row gets cpu__op_unsupported; bytes
 * Capstone cannot decode get a handler that reports them the same way. */
int cpu__decode(struct cpu *cpu, u64 rip, struct cpu_insn *in,
                unsigned *how) RW_MUST_CHECK;

/* The table row matching the Capstone instruction CI (decoded with detail),
 * or NULL: what cpu__decode uses, exposed for the corpus test. */
const struct cpu__oprow *cpu__find_row(const cs_insn *ci);

/* Decodes the N bytes at B (the instruction at RIP) into *IN when they
 * hold an EVEX instruction or a VEX opmask instruction (evex.c), which
 * cpu__decode leaves to it rather than to Capstone. Returns 1 when it took
 * the bytes (*IN is set, possibly to a #UD or unsupported handler), 0 when
 * they are something else. CPU (borrowed; NULL: no recording CPU, the
 * strict encoding rules and every extension) gives the recording CPU,
 * whose model decides some #UDs (Zen 4) and whose CPUID which
 * extensions exist. *XIN gets the XINUSE bits the instruction sets. */
int cpu__decode_evex(const struct cpu *cpu, const u8 *b, unsigned n, u64 rip,
                     struct cpu_insn *in, unsigned *xin);
/* Decodes ModRM (at B[I]), SIB and displacement into IN (evex.c): BB and
 * XX extend base and index, DN scales a disp8, EVEX extends a register rm
 * to 16-31; *RIPREL is set for a RIP-relative operand, whose disp the
 * caller makes absolute. Returns the index past them, 0 when B runs out. */
unsigned cpu__ev_modrm(const u8 *b, unsigned n, unsigned i, unsigned bb,
                       unsigned xx, unsigned dn, int evex, struct cpu_insn *in,
                       int *riprel);
/* Decodes MOVDIRI and MOVDIR64B, which Capstone 4 cannot (movdir.c), as
 * cpu__decode_evex does the EVEX instructions; each one #UD when CPU's
 * recorded CPUID lacks it. */
int cpu__decode_movdir(const struct cpu *cpu, const u8 *b, unsigned n,
                       u64 rip, struct cpu_insn *in);
/* Decodes rdpkru, wrpkru and clzero, which Capstone 4 cannot (pku.c), the
 * same way; each one #UD when CPU's recorded CPUID lacks its feature. */
int cpu__decode_pku(const struct cpu *cpu, const u8 *b, unsigned n,
                    struct cpu_insn *in);
/* Whether IN, as cpu__decode_evex set it, runs (neither #UD nor
 * unsupported): for the corpus test. */
int cpu__evex_runs(const struct cpu_insn *in);
/* The mnemonic of one of evex.c's ids, or NULL. */
const char *cpu__evex_name(unsigned id);
/* Names the encoding of the EVEX or VEX instruction at B
 * ("EVEX.512.66.map2.W1 83", "VEX.256.66.map2.W0 50") into BUF for a
 * message; returns 0 when B holds neither prefix. */
int cpu__evex_describe(const u8 *b, unsigned n, char *buf, size_t size);
/* The length of the VEX instruction at B (N bytes) that nothing else
 * decodes, from its prefixes, VEX bytes, ModRM, SIB and displacement, and
 * an imm8 for map 3 (the other maps' unknown opcodes are taken to have
 * none); 0 when B is not VEX or too short. */
unsigned cpu__vex_len(const u8 *b, unsigned n);

/* Decodes the N bytes at B when they hold one of the few instructions
 * Capstone 4 cannot decode (vexraw.c), filling CI and its detail as
 * Capstone would. Returns 0, or -1 when B holds none of them. */
int cpu__decode_raw(const u8 *b, unsigned n, cs_insn *ci);

/* The legacy prefixes and REX before an opcode (vexraw.c): the bytes they
 * take, 66, the last of F2/F3 (0 for none), F0, 67, an FS or GS override
 * (CPU_SEG_*, others ignore as in 64-bit mode) and the REX byte (0: none;
 * one counts only right before the opcode). */
struct cpu__legacy_pfx {
  unsigned n, opsize, rep, lock, addr32, seg, rex;
};
void cpu__legacy_prefixes(const u8 *b, unsigned n,
                          struct cpu__legacy_pfx *p);

/* The name of the instruction at B (N bytes) when it is one the emulator
 * does not run and Capstone 4 either cannot decode (rdpru, serialize,
 * enqcmd...) or decodes as another instruction because it ignores the
 * mandatory prefix (rdpid as rdseed; umonitor, umwait and tpause as
 * mfence), with its length in *LEN; else NULL (vexraw.c). The decoder asks
 * before Capstone, so that these stop the replay under their own names. */
const char *cpu__raw_unsupported(const u8 *b, unsigned n, unsigned *len);

/* Ids of instructions Capstone 4 has no X86_INS_* for (GFNI), which
 * vexraw.c decodes. Capstone's ids are dense and stop at X86_INS_ENDING,
 * so ours continue from there: the table rows, struct cpu_insn.id and the
 * decoder's row index take them like Capstone's, and no Capstone id can
 * collide with them. Only the names differ: cs_insn_name knows nothing of
 * them, so anything that prints an id goes through cpu__insn_name. The
 * legacy and VEX forms have ids of their own, as Capstone gives aesenc and
 * vaesenc. */
enum {
  CPU_INS_GF2P8MULB = X86_INS_ENDING, /* 66 0F 38 CF */
  CPU_INS_GF2P8AFFINEQB,              /* 66 0F 3A CE */
  CPU_INS_GF2P8AFFINEINVQB,           /* 66 0F 3A CF */
  CPU_INS_VGF2P8MULB,                 /* VEX.66.0F38.W0 CF */
  CPU_INS_VGF2P8AFFINEQB,             /* VEX.66.0F3A.W1 CE */
  CPU_INS_VGF2P8AFFINEINVQB,          /* VEX.66.0F3A.W1 CF */
#define EVN(name) CPU_INS_EV_##name,
#include "replayer/cpu/evex_ids.def"
#undef EVN
  CPU_INS_ENDING                      /* the number of ids, ours included */
};

/* The mnemonic of instruction id ID, Capstone's or one of ours, using the
 * Capstone handle CS (borrowed) for Capstone's; NULL for an id that is
 * neither (vexraw.c). */
const char *cpu__insn_name(csh cs, unsigned id);

/* The x86_reg -> register number map used by the decoder, exposed for the
 * tests: the number, or RW_ENOTFOUND for registers the emulator does not
 * model. */
int cpu__reg_number(unsigned x86reg, unsigned *size);

/* Finds or decodes the block at cpu->rip (icache.c). Returns NULL with
 * cpu->exit filled on a fetch fault, or (struct cpu__block *)-1 out of
 * memory. */
struct cpu__block *cpu__block_get(struct cpu *cpu);

/* Handler for instructions with no row: fills cpu->exit with the
 * "unsupported instruction" message and returns CPU_RC_HALT (fault.c). */
int cpu__op_unsupported(struct cpu *cpu, const struct cpu_insn *in);
/* The same with WHY (a short reason) after the message. */
int cpu__op_unsupported_why(struct cpu *cpu, const struct cpu_insn *in,
                            const char *why);

/* Fills cpu->exit for a non-fault exit REASON before the instruction IN and
 * returns CPU_RC_HALT (fault.c). */
int cpu__halt(struct cpu *cpu, const struct cpu_insn *in, int reason);

/* TLB maintenance (tlb.c). */
void cpu__tlb_flush(struct cpu *cpu);
void cpu__tlb_flush_page(struct cpu *cpu, u64 page);

/* ---- The address space (mem.c) ---------------------------------------- */

struct cpu__node;
struct cpu__cpage;

/* A watched range. */
struct cpu__watch {
  u64 addr; /* first byte */
  u64 len;  /* bytes */
  int kind; /* CPU_WATCH_READ and/or CPU_WATCH_WRITE */
};

struct cpu_mem {
  struct cpu__node *root;     /* page table: 4 levels of 512 slots over the
                                 page number; nodes and pages are reference
                                 counted and shared copy-on-write */
  size_t footprint;           /* host bytes held in nodes and pages, by the
                                 space and by its snapshots */
  size_t nsnaps;              /* snapshots not freed yet */
  struct cpu *cpus;           /* threads bound here (chained by mem_next) */
  csh cs;                     /* Capstone handle (decode.c) */
  cs_insn *csi;               /* Capstone's reusable instruction */
  struct cpu__block **bhash;  /* decoded blocks by start address */
  struct cpu__cpage **phash;  /* pages holding decoded code -> their blocks */
  struct cpu__block *grave;   /* dropped blocks, freed at the next lookup */
  u64 code_gen;               /* bumped whenever blocks are dropped */
  struct cpu__jit *jit;       /* the translator's code cache (jit.c) */
  u64 *bps;                   /* breakpoint addresses, sorted */
  size_t nbps, capbps;        /* their count and capacity */
  struct cpu__watch *watches; /* watched ranges */
  size_t nwatch, capwatch;    /* their count and capacity */
  u64 obs_addr, obs_len;      /* cpu_mem_observe's range (LEN 0: none) */
  int rep_stops;              /* cpu_mem_rep_stops's mode */
  struct cpu_alias *alias;    /* ranges with aliases (cpu_mem_alias_set);
                                 their pages stay out of the write TLB */
  size_t nalias;
  int dirty_on;               /* cpu_mem_dirty_start: pages written are
                                 recorded (checked only on write misses) */
  u64 dirty_lo, dirty_hi;     /* lowest and highest page written since
                                 (lo > hi: none) */
  u64 dirty[CPU_DIRTY_MAX];   /* the pages written, in no order */
  size_t ndirty;              /* how many; CPU_DIRTY_MAX + 1: too many */
  int lines_on;               /* cpu_mem_track_lines */
};

/* 1 when PAGE holds bytes that have aliases. */
int cpu__alias_on_page(const struct cpu_mem *mem, u64 page);
/* Makes the LEN bytes at SRC, just written at guest ADDR, appear at every
 * alias of ADDR too. Returns 0 or RW_ENOMEM. */
int cpu__alias_write(struct cpu_mem *mem, u64 addr, const void *src,
                     size_t len) RW_MUST_CHECK;

/* Page lookup for an access of KIND (CPU_ACCESS_*) to the page at PAGE.
 * On success stores the host address of the page's bytes (the shared zero
 * page for untouched pages read) and returns 0; a write first makes the
 * page private (allocation or copy), flushing every thread's TLB entries for
 * it. Returns RW_ENOTFOUND if the page is not mapped, RW_EFAULT if KIND
 * is not allowed, or RW_ENOMEM. */
int cpu__mem_page(struct cpu_mem *mem, u64 page, int kind,
                  u8 **host) RW_MUST_CHECK;

/* A write of N bytes at A, on the page whose bytes (private, from
 * cpu__mem_page) are at HOST, for the page's line record (mem.c's struct
 * page). CACHE: the caller would let the TLB take the page's writes from
 * now on. Returns whether it may: then every line counts as written. */
int cpu__mem_lines(struct cpu_mem *mem, u8 *host, u64 a, unsigned n,
                   int cache);

/* Flushes the TLB entries of PAGE in every thread of MEM (page = ~0: all
 * entries). */
void cpu__mem_tlb_shootdown(struct cpu_mem *mem, u64 page);

/* Whether a breakpoint is set at ADDR (tlb.c). */
int cpu__break_at(const struct cpu_mem *mem, u64 addr);

/* Whether any watch of KIND overlaps the page at PAGE / the range
 * [A, A+N). */
int cpu__watch_on_page(const struct cpu_mem *mem, u64 page, int kind);
int cpu__watch_hits(const struct cpu_mem *mem, u64 a, u64 n, int kind);

/* ---- Observers (branch.c) ---------------------------------------------- */

/* Which callbacks a thread's observer has (struct cpu.observed). */
enum {
  CPU__OBS_CALL = 1,
  CPU__OBS_RET = 2,
  CPU__OBS_BRANCH = 4,
  CPU__OBS_REP = 8
};
/* The observing handler of the plain handler PLAIN (a branch family row's)
 * for an observer with the callbacks KINDS (CPU__OBS_*), or NULL when
 * PLAIN has none or KINDS has no callback for it (plain code stays as
 * fast as without an observer). */
cpu_handler cpu__observing(cpu_handler plain, int kinds);
/* Whether FN is an observing handler: icache.c keeps its index in its
 * block in cpu_insn.imm2, to know the thread's count before it. */
int cpu__is_observing(cpu_handler fn);
/* The same for the string family's rows (string.c). */
cpu_handler cpu__string_observing(cpu_handler plain, int kinds);
int cpu__string_is_observing(cpu_handler fn);
/* Ends the open rep instruction of CPU as interrupted (a signal is
 * delivered, or its registers are replaced), calling on_rep. */
void cpu__rep_interrupt(struct cpu *cpu);

/* ---- Decoded blocks (icache.c) ---------------------------------------- */

/* Whether PAGE holds decoded code. */
int cpu__code_on_page(const struct cpu_mem *mem, u64 page);
/* Drops every block with an instruction on PAGE (~0: all blocks). Blocks
 * being executed are patched to end at their next instruction. */
void cpu__code_invalidate(struct cpu_mem *mem, u64 page);
/* Drops the blocks with code on any page of [LO, HI), in time that depends
 * on the pages holding code, not on the length of the range. */
void cpu__code_invalidate_range(struct cpu_mem *mem, u64 lo, u64 hi);
/* Opens Capstone and the block cache of MEM if not done yet. Returns 0,
 * RW_ENOMEM or RW_EUNSUPPORTED. */
int cpu__code_init(struct cpu_mem *mem) RW_MUST_CHECK;
/* Frees the block cache and Capstone (cpu_mem_free). */
void cpu__code_free(struct cpu_mem *mem);
/* Allocates CPU's jump cache. Returns 0 or RW_ENOMEM. */
int cpu__jcache_new(struct cpu *cpu) RW_MUST_CHECK;

/* Fetches up to N code bytes at A into BUF through the code TLB; returns
 * how many could be fetched before an unmapped or non-executable page, and
 * records that page's fault in cpu->exit when it returns less than N. */
unsigned cpu__fetch(struct cpu *cpu, u64 a, u8 *buf, unsigned n);

#endif /* RW_REPLAYER_CPU_CPU_INT_H */
