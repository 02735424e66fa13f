/* SPDX-License-Identifier: MIT */
/* Runs cases on both sides and compares them (STYLE R18). The native side is
 * a forked child that enters each case from a signal handler: it rewrites
 * the interrupted context (every GPR, rip, rflags, the XSAVE image with the
 * FXSAVE part, the YMM and the AVX-512 state) so that sigreturn loads the
 * case state and jumps to the instruction, which is followed by int3; the
 * trap (or the fault) handler copies the context out and puts the saved one
 * back. One child runs batches of cases through shared memory and is
 * restarted if a case kills it. The emulator side runs the same bytes in
 * cpu_run. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "replayer/cpu/cpu.h"
#include "replayer/cpu/cpu_int.h"
#include "tests/cpu/diff_int.h"

#define BATCH 64

u64 diff_fs_base;
u64 diff_id_flag;
int diff_avx512;
int diff_intel;
/* The child measures XINUSE after each case (Intel, xgetbv 1 there). */
static int xin_measure;

/* Standard-format offsets in an XSAVE image of components 5 (opmask), 6
 * (ZMM_Hi256) and 7 (Hi16_ZMM), from CPUID leaf 0xD; valid when diff_avx512
 * is set. The child inherits them. */
static unsigned avx512_off[3];
static const unsigned avx512_size[3] = {64, 512, 1024};

/* Sets diff_avx512 and avx512_off when the OS enables the AVX-512 state
 * (XCR0 bits 5-7) and CPUID gives its components the sizes we expect. */
static void probe_avx512(void) {
  unsigned a, b, c, d;
  u32 lo, hi;
  diff_avx512 = 0;
  /* XINUSE is compared where the emulator models it, Intel, and the CPU
   * answers xgetbv 1 (CPUID.(EAX=0DH,ECX=1):EAX[2]). */
  diff_intel = __get_cpuid(0, &a, &b, &c, &d) &&
               cpu_vendor_of(b, d, c) == CPU_VENDOR_INTEL &&
               __get_cpuid_count(0xd, 1, &a, &b, &c, &d) && (a & 4);
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 0xe0) != 0xe0) return;
  for (unsigned i = 0; i < 3; i++) {
    if (!__get_cpuid_count(0xd, 5 + i, &a, &b, &c, &d)) return;
    if (a != avx512_size[i] || !b) return;
    avx512_off[i] = b;
  }
  diff_avx512 = 1;
}

unsigned diff_need_of(const struct diff_enc *e) {
  return cpu__feature_of(e->id, e->enc == DIFF_ENC_EVEX);
}

/* cpuid answered by the host, as a recording's table would be. */
static int host_cpuid(void *ctx, u32 leaf, u32 sub, u32 out[4]) {
  (void)ctx;
  __asm__ volatile("cpuid"
                   : "=a"(out[0]), "=b"(out[1]), "=c"(out[2]), "=d"(out[3])
                   : "a"(leaf), "c"(sub));
  return 0;
}

int diff_host_has(unsigned need) {
  static u32 host;
  _Static_assert(CPU__FEAT_N <= DIFF_NEED_N, "DIFF_NEED_N too small");
  if (!host) {
    struct cpu_config cfg = {.cpuid = host_cpuid};
    host = cpu__features(&cfg);
  }
  return need < CPU__FEAT_N && ((host >> need) & 1);
}

const char *diff_need_name(unsigned need) {
  return cpu__feature_name(need);
}

/* Shared between parent and child. */
struct shm {
  u64 fs_base;                /* the child's fs base */
  u64 rflags;                 /* the child's rflags (ID persists) */
  u32 n;                      /* cases in this batch */
  volatile u32 cur;           /* case being run (for crash attribution) */
  struct diff_case in[BATCH]; /* the batch */
  struct diff_result out[BATCH];
};

static struct shm *shm;
static pid_t child = -1;
static int to_child = -1, from_child = -1;

/* ---- Child ----------------------------------------------------------- */

static gregset_t home_gregs; /* context of the raise() that entered */
static u8 home_fx[464];      /* its FXSAVE image (no software bytes) */
static struct diff_case *cur_case;
static struct diff_result *cur_res;

static u8 home_ymmh[256];    /* and its YMM upper halves */
static unsigned ymm_off;     /* offset of YMM_Hi128 in an XSAVE frame */
/* The AVX-512 state of the raise() that entered (only k, zmmh and hi16 are
 * used). */
static struct diff_state home_st;

/* The YMM upper halves of the signal frame's XSAVE image, or NULL when the
 * frame has none (no XSAVE frame). */
static u8 *frame_ymmh(ucontext_t *uc) {
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs;
  u32 magic;
  memcpy(&magic, fx + 464, 4);
  if (magic != 0x46505853u || !ymm_off) return NULL; /* FP_XSTATE_MAGIC1 */
  return fx + ymm_off;
}

/* Marks x87, SSE and (with YMM) AVX state as present in the frame, so that
 * sigreturn loads them instead of their initial values. */
static void set_xstate_bv(ucontext_t *uc, int ymm) {
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs;
  u32 magic;
  memcpy(&magic, fx + 464, 4);
  if (magic == 0x46505853u) { /* FP_XSTATE_MAGIC1: an XSAVE frame */
    u64 bv;
    memcpy(&bv, fx + 512, 8);
    bv |= 3; /* x87 and SSE state are in the image */
    if (ymm && frame_ymmh(uc)) bv |= 4;
    memcpy(fx + 512, &bv, 8);
  }
}

/* Component 5 + I (I < 3) of the signal frame's XSAVE image, or NULL when
 * the frame has none (no XSAVE frame, no AVX-512, or the kernel's frame
 * does not hold it). */
static u8 *frame_avx512(ucontext_t *uc, unsigned i) {
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs;
  u32 magic, xsize;
  u64 feat;
  memcpy(&magic, fx + 464, 4); /* struct _fpx_sw_bytes */
  memcpy(&feat, fx + 472, 8);
  memcpy(&xsize, fx + 480, 4);
  if (magic != 0x46505853u || !diff_avx512 || !((feat >> (5 + i)) & 1) ||
      xsize < avx512_off[i] + avx512_size[i])
    return NULL;
  return fx + avx512_off[i];
}

/* Where component 5 + I lives in a struct diff_state. */
static u8 *state_avx512(struct diff_state *st, unsigned i) {
  return i == 0 ? (u8 *)st->k : i == 1 ? st->zmmh : st->hi16;
}

/* The AVX-512 state of the frame as the CPU has it (a component absent from
 * XSTATE_BV is in its initial state, zero) into ST's k, zmmh and hi16. */
static void get_avx512(ucontext_t *uc, struct diff_state *st) {
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs;
  u64 bv;
  memcpy(&bv, fx + 512, 8);
  for (unsigned i = 0; i < 3; i++) {
    u8 *f = frame_avx512(uc, i), *s = state_avx512(st, i);
    if (f && ((bv >> (5 + i)) & 1))
      memcpy(s, f, avx512_size[i]);
    else
      memset(s, 0, avx512_size[i]);
  }
}

/* Puts ST's AVX-512 state into the frame for sigreturn to load: a
 * component that is all zero is marked absent in XSTATE_BV (its initial
 * state), any other is copied in and marked present. */
static void put_avx512(ucontext_t *uc, struct diff_state *st) {
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs;
  u64 bv;
  memcpy(&bv, fx + 512, 8);
  for (unsigned i = 0; i < 3; i++) {
    u8 *f = frame_avx512(uc, i), *s = state_avx512(st, i);
    unsigned k = 0;
    if (!f) continue;
    while (k < avx512_size[i] && !s[k]) k++;
    bv &= ~(1ull << (5 + i));
    if (k == avx512_size[i]) continue;
    memcpy(f, s, avx512_size[i]);
    bv |= 1ull << (5 + i);
  }
  memcpy(fx + 512, &bv, 8);
}

/* The YMM upper halves of the frame as the CPU has them (zero when the AVX
 * component is in its initial state). */
static void get_ymmh(ucontext_t *uc, u8 *out) {
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs, *y = frame_ymmh(uc);
  u64 bv = 0;
  if (y) memcpy(&bv, fx + 512, 8);
  if (y && (bv & 4))
    memcpy(out, y, 256);
  else
    memset(out, 0, 256);
}

static const int greg_of[16] = {
    REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
    REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};

static void on_enter(int sig, siginfo_t *si, void *p) {
  ucontext_t *uc = p;
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs;
  (void)sig;
  (void)si;
  memcpy(home_gregs, uc->uc_mcontext.gregs, sizeof home_gregs);
  memcpy(home_fx, fx, sizeof home_fx);
  get_ymmh(uc, home_ymmh);
  get_avx512(uc, &home_st);
  for (int i = 0; i < 16; i++)
    uc->uc_mcontext.gregs[greg_of[i]] = (greg_t)cur_case->st.gpr[i];
  uc->uc_mcontext.gregs[REG_RIP] = (greg_t)DIFF_CODE_INSN;
  uc->uc_mcontext.gregs[REG_EFL] = (greg_t)cur_case->st.rflags;
  memcpy(fx, cur_case->st.fx, 28); /* x87 control, mxcsr */
  memcpy(fx + 32, cur_case->st.fx + 32, 416 - 32);
  if (frame_ymmh(uc)) memcpy(frame_ymmh(uc), cur_case->st.ymmh, 256);
  set_xstate_bv(uc, 1);
  put_avx512(uc, &cur_case->st);
  {
    /* x87, SSE and AVX in use as the case says (its registers hold the
     * initial values of those that are not) */
    u64 bv;
    memcpy(&bv, fx + 512, 8);
    bv = (bv & ~7ull) | (cur_case->xin & 7);
    memcpy(fx + 512, &bv, 8);
  }
}

/* After the instruction on both sides where XINUSE is compared, before its
 * int3: XINUSE into XIN_SCRATCH + 24 (rax, rdx and rcx kept in
 * XIN_SCRATCH; mov and xgetbv leave the flags alone). */
#define XIN_SCRATCH 0x3f000000u
#define A32(off) (u8)((XIN_SCRATCH + (off)) & 0xff), \
    (u8)(((XIN_SCRATCH + (off)) >> 8) & 0xff),        \
    (u8)(((XIN_SCRATCH + (off)) >> 16) & 0xff), (u8)((XIN_SCRATCH + (off)) >> 24)
static const u8 xin_probe[] = {
    0x48, 0x89, 0x04, 0x25, A32(0),  /* mov [s], rax */
    0x48, 0x89, 0x14, 0x25, A32(8),  /* mov [s + 8], rdx */
    0x48, 0x89, 0x0c, 0x25, A32(16), /* mov [s + 16], rcx */
    0xb9, 0x01, 0x00, 0x00, 0x00,    /* mov ecx, 1 */
    0x0f, 0x01, 0xd0,                /* xgetbv */
    0x89, 0x04, 0x25, A32(24),       /* mov [s + 24], eax */
    0x48, 0x8b, 0x04, 0x25, A32(0),  /* mov rax, [s] */
    0x48, 0x8b, 0x14, 0x25, A32(8),  /* mov rdx, [s + 8] */
    0x48, 0x8b, 0x0c, 0x25, A32(16), /* mov rcx, [s + 16] */
    0xcc};

static void on_exit_sig(int sig, siginfo_t *si, void *p) {
  ucontext_t *uc = p;
  u8 *fx = (u8 *)uc->uc_mcontext.fpregs;
  struct diff_result *r = cur_res;
  for (int i = 0; i < 16; i++)
    r->st.gpr[i] = (u64)uc->uc_mcontext.gregs[greg_of[i]];
  r->st.rip = (u64)uc->uc_mcontext.gregs[REG_RIP];
  r->st.rflags = (u64)uc->uc_mcontext.gregs[REG_EFL];
  memcpy(r->st.fx, fx, 416);
  get_ymmh(uc, r->st.ymmh);
  get_avx512(uc, &r->st);
  memcpy(r->st.data, (void *)DIFF_DATA_ADDR, DIFF_DATA_SIZE);
  r->xin = -1;
  if (xin_measure && cur_case->probe && sig == SIGTRAP &&
      r->st.rip == DIFF_CODE_INSN + cur_case->len + sizeof xin_probe) {
    /* it fell through to the probe, which read XINUSE */
    u32 x;
    memcpy(&x, (u8 *)XIN_SCRATCH + 24, 4);
    r->xin = (int)x;
  }
  r->sig = sig == SIGTRAP && si->si_code == SI_KERNEL ? 0 : sig;
  r->addr = (sig == SIGSEGV || sig == SIGBUS) ? (u64)si->si_addr : 0;
  memcpy(uc->uc_mcontext.gregs, home_gregs, sizeof home_gregs);
  memcpy(fx, home_fx, sizeof home_fx);
  if (frame_ymmh(uc)) memcpy(frame_ymmh(uc), home_ymmh, 256);
  set_xstate_bv(uc, 1);
  put_avx512(uc, &home_st);
}

static void child_main(void) {
  static u8 altstack[65536];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  struct sigaction sa;
  unsigned a, b, c, d;
  if (__get_cpuid_count(0xd, 2, &a, &b, &c, &d) && a == 256) ymm_off = b;
  int sigs[] = {SIGTRAP, SIGSEGV, SIGFPE, SIGILL, SIGBUS};
  u64 fsb = 0;
  xin_measure = diff_intel &&
                mmap((void *)(uintptr_t)XIN_SCRATCH, 4096,
                     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
                     MAP_FIXED_NOREPLACE, -1, 0) != MAP_FAILED;
  if (mmap((void *)DIFF_CODE_ADDR, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
           0) == MAP_FAILED ||
      mmap((void *)DIFF_RO_ADDR, 4096 + DIFF_DATA_SIZE, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
           0) == MAP_FAILED ||
      mprotect((void *)DIFF_RO_ADDR, 4096, PROT_READ))
    _exit(3);
  syscall(SYS_arch_prctl, ARCH_SET_GS, DIFF_GS_BASE);
  syscall(SYS_arch_prctl, ARCH_GET_FS, &fsb);
  shm->fs_base = fsb;
  {
    u64 fl;
    __asm__ volatile("pushfq; popq %0" : "=r"(fl));
    shm->rflags = fl;
  }
  sigaltstack(&ss, NULL);
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_exit_sig;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  for (unsigned i = 0; i < RW_ARRAY_SIZE(sigs); i++)
    sigaction(sigs[i], &sa, NULL);
  sa.sa_sigaction = on_enter;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &sa, NULL);
  for (;;) {
    u8 cmd;
    if (read(0, &cmd, 1) != 1) _exit(0);
    for (u32 i = shm->cur; i < shm->n; i++) {
      shm->cur = i;
      cur_case = &shm->in[i];
      cur_res = &shm->out[i];
      memset((void *)DIFF_CODE_ADDR, 0xcc, 4096);
      memcpy((void *)(uintptr_t)DIFF_CODE_INSN, cur_case->code, cur_case->len);
      if (xin_measure && cur_case->probe)
        memcpy((u8 *)(uintptr_t)DIFF_CODE_INSN + cur_case->len, xin_probe,
               sizeof xin_probe);
      memcpy((void *)DIFF_DATA_ADDR, cur_case->st.data, DIFF_DATA_SIZE);
      raise(SIGUSR1);
    }
    shm->cur = shm->n;
    if (write(1, &cmd, 1) != 1) _exit(0);
  }
}

int diff_native_start(void) {
  int a[2], b[2];
  probe_avx512();
  if (!shm) {
    shm = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shm == MAP_FAILED) {
      shm = NULL;
      return -1;
    }
  }
  if (pipe(a) || pipe(b)) return -1;
  fflush(stdout);
  child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    dup2(a[0], 0);
    dup2(b[1], 1);
    close(a[1]);
    close(b[0]);
    child_main();
  }
  close(a[0]);
  close(b[1]);
  to_child = a[1];
  from_child = b[0];
  /* A first empty batch tells us the child is up and its fs base. */
  shm->n = 0;
  shm->cur = 0;
  {
    u8 c = 1;
    if (write(to_child, &c, 1) != 1 || read(from_child, &c, 1) != 1) return -1;
  }
  diff_fs_base = shm->fs_base;
  diff_id_flag = shm->rflags & 0x200000;
  return 0;
}

void diff_native_stop(void) {
  if (child > 0) {
    close(to_child);
    close(from_child);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
  }
  child = -1;
}

int diff_native_run(const struct diff_case *cs, struct diff_result *res,
                    unsigned n) {
  unsigned done = 0;
  while (done < n) {
    unsigned k = RW_MIN(n - done, (unsigned)BATCH);
    u8 c = 1;
    memcpy(shm->in, cs + done, k * sizeof *cs);
    shm->n = k;
    shm->cur = 0;
    for (;;) {
      if (write(to_child, &c, 1) == 1 && read(from_child, &c, 1) == 1) break;
      /* The child died in case shm->cur: record it and go on after it. */
      {
        unsigned bad = shm->cur;
        int st = 0;
        waitpid(child, &st, 0);
        child = -1;
        memset(&shm->out[bad], 0, sizeof shm->out[bad]);
        shm->out[bad].sig = -100 - (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        close(to_child);
        close(from_child);
        {
          u32 resume = bad + 1;
          if (diff_native_start()) return -1;
          memcpy(shm->in, cs + done, k * sizeof *cs);
          shm->n = k;
          shm->cur = resume;
          if (resume >= k) break;
        }
      }
    }
    memcpy(res + done, shm->out, k * sizeof *res);
    done += k;
  }
  return 0;
}

/* ---- Emulator -------------------------------------------------------- */

static cpu_mem *emem;
static cpu_thread *ecpu;

int diff_emu_start(void) {
  struct cpu_config cfg = {0};
  u32 lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  cfg.cpuid = host_cpuid;
  cfg.xcr0 = lo | (u64)hi << 32;
  if (cpu_mem_new(&emem)) return -1;
  if (cpu_mem_map(emem, DIFF_CODE_ADDR, 4096, CPU_PROT_READ | CPU_PROT_EXEC) ||
      cpu_mem_map(emem, DIFF_RO_ADDR, 4096, CPU_PROT_READ) ||
      cpu_mem_map(emem, DIFF_DATA_ADDR, DIFF_DATA_SIZE,
                  CPU_PROT_READ | CPU_PROT_WRITE) ||
      cpu_mem_map(emem, XIN_SCRATCH, 4096, CPU_PROT_READ | CPU_PROT_WRITE))
    return -1;
  return cpu_new(emem, &cfg, &ecpu) ? -1 : 0;
}

void diff_emu_stop(void) {
  cpu_free(ecpu);
  cpu_mem_free(emem);
  ecpu = NULL;
  emem = NULL;
}

void diff_emu_run(const struct diff_case *c, struct diff_result *res, char *msg,
                  size_t cap) {
  static u8 code[4096];
  struct rw_regs regs;
  struct cpu_exit ex;
  memset(res, 0, sizeof *res);
  msg[0] = 0;
  memset(code, 0xcc, sizeof code);
  memcpy(code + (DIFF_CODE_INSN - DIFF_CODE_ADDR), c->code, c->len);
  if (c->probe)
    memcpy(code + (DIFF_CODE_INSN - DIFF_CODE_ADDR) + c->len, xin_probe,
           sizeof xin_probe);
  if (cpu_mem_write(emem, DIFF_CODE_ADDR, code, sizeof code) ||
      cpu_mem_write(emem, DIFF_DATA_ADDR, c->st.data, DIFF_DATA_SIZE)) {
    res->sig = -1;
    snprintf(msg, cap, "cannot set up emulator memory");
    return;
  }
  memset(&regs, 0, sizeof regs);
  memcpy(regs.gpr, c->st.gpr, sizeof regs.gpr);
  regs.rip = DIFF_CODE_INSN;
  regs.rflags = c->st.rflags;
  regs.fs_base = diff_fs_base;
  regs.gs_base = DIFF_GS_BASE;
  memcpy(regs.fxsave, c->st.fx, 416);
  memcpy(regs.ymmh, c->st.ymmh, sizeof regs.ymmh);
  memcpy(regs.zmmh, c->st.zmmh, sizeof regs.zmmh);
  memcpy(regs.hi16, c->st.hi16, sizeof regs.hi16);
  memcpy(regs.k, c->st.k, sizeof regs.k);
  if (cpu_set_regs(ecpu, &regs)) {
    res->sig = -1;
    snprintf(msg, cap, "cpu_set_regs refused the state");
    return;
  }
  cpu_set_xinuse(ecpu, c->xin);
  if (cpu_run(ecpu, 1u << 20, &ex)) {
    res->sig = -1;
    snprintf(msg, cap, "cpu_run failed");
    return;
  }
  cpu_get_regs(ecpu, &regs);
  res->xin = -1;
  if (c->probe && ex.reason == CPU_EXIT_FAULT && ex.fault == CPU_FAULT_BP &&
      regs.rip == DIFF_CODE_INSN + c->len + sizeof xin_probe) {
    u32 x;
    if (!cpu_mem_read(emem, XIN_SCRATCH + 24, &x, 4)) res->xin = (int)x;
  }
  memcpy(res->st.gpr, regs.gpr, sizeof regs.gpr);
  res->st.rip = regs.rip;
  res->st.rflags = regs.rflags;
  memcpy(res->st.fx, regs.fxsave, 416);
  memcpy(res->st.ymmh, regs.ymmh, sizeof regs.ymmh);
  memcpy(res->st.zmmh, regs.zmmh, sizeof res->st.zmmh);
  memcpy(res->st.hi16, regs.hi16, sizeof res->st.hi16);
  memcpy(res->st.k, regs.k, sizeof res->st.k);
  if (cpu_mem_read(emem, DIFF_DATA_ADDR, res->st.data, DIFF_DATA_SIZE))
    res->sig = -1;
  switch (ex.reason) {
    case CPU_EXIT_FAULT:
      switch (ex.fault) {
        case CPU_FAULT_BP:
          res->sig = 0;
          break;
        case CPU_FAULT_PF:
          res->sig = SIGSEGV;
          res->addr = ex.addr;
          break;
        case CPU_FAULT_GP:
          res->sig = SIGSEGV;
          break;
        case CPU_FAULT_UD:
          res->sig = SIGILL;
          break;
        case CPU_FAULT_DE:
        case CPU_FAULT_XM:
        case CPU_FAULT_MF:
          res->sig = SIGFPE;
          break;
        case CPU_FAULT_AC:
          res->sig = SIGBUS;
          break;
        default:
          res->sig = -2;
          break;
      }
      break;
    case CPU_EXIT_UNSUPPORTED:
      res->sig = -3;
      snprintf(msg, cap, "%s", ex.msg);
      break;
    default:
      res->sig = -4;
      snprintf(msg, cap, "unexpected exit reason %d at %#llx", ex.reason,
               (unsigned long long)ex.rip);
      break;
  }
}

/* ---- Comparison ------------------------------------------------------ */

static void disasm(const struct diff_case *c, char *out, size_t cap) {
  static csh cs;
  cs_insn *ci;
  char hex[64] = "", *p = hex;
  for (unsigned i = 0; i < c->len; i++)
    p += snprintf(p, (size_t)(hex + sizeof hex - p), "%02x ", c->code[i]);
  if (!cs && cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) cs = 0;
  if (cs && cs_disasm(cs, c->code, c->len, DIFF_CODE_INSN, 1, &ci) == 1) {
    snprintf(out, cap, "%s(%s %s)", hex, ci->mnemonic, ci->op_str);
    cs_free(ci, 1);
    return;
  }
  /* What Capstone 4 cannot decode, the emulator may (GFNI): name it as the
   * emulator's messages do. */
  ci = NULL;
  if (cs && cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON) == CS_ERR_OK)
    ci = cs_malloc(cs);
  if (ci && cpu__decode_raw(c->code, c->len, ci) == 0)
    snprintf(out, cap, "%s(%s)", hex, ci->mnemonic);
  else
    snprintf(out, cap, "%s(undecodable)", hex);
  if (ci) cs_free(ci, 1);
}

/* N bytes of V as hex, most significant first, into OUT (2 * N + 1). */
static char *hex_msb(char *out, const u8 *v, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    snprintf(out + 2 * i, 3, "%02x", v[n - 1 - i]);
  return out;
}

/* The 64 bytes of ZMM register R of state ST. */
static void zmm_of(const struct diff_state *st, unsigned r, u8 *v) {
  if (r >= 16) {
    memcpy(v, st->hi16 + 64 * (r - 16), 64);
    return;
  }
  memcpy(v, st->fx + 160 + 16 * r, 16);
  memcpy(v + 16, st->ymmh + 16 * r, 16);
  memcpy(v + 32, st->zmmh + 32 * r, 32);
}

static const char *const gpr_names[16] = {
    "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
    "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};

int diff_compare(const struct diff_case *c, const struct diff_result *nat,
                 const struct diff_result *emu, const char *emu_msg,
                 int verbose) {
  char buf[16384], *p = buf, *end = buf + sizeof buf, hn[129], he[129];
  const u64 fmask = DIFF_ARITH | 0x400; /* every arithmetic flag, DF */
  int bad = 0;
  buf[0] = 0;
  /* Appends to buf; a long report is cut at its end. */
#define SAY(...) \
  (p += snprintf(p, (size_t)(end - p), __VA_ARGS__), p = p < end ? p : end - 1)
  u64 amask = c->fault_page ? ~0xfffull : ~0ull;
  if (nat->sig != emu->sig ||
      (nat->sig == SIGSEGV && (nat->addr & amask) != (emu->addr & amask))) {
    SAY("  outcome: native sig %d addr %#llx, emulator sig %d addr %#llx %s\n",
        nat->sig, (unsigned long long)nat->addr, emu->sig,
        (unsigned long long)emu->addr, emu_msg);
    bad = 1;
  } else if (nat->sig > -100) {
    if (nat->st.rip != emu->st.rip) {
      SAY("  rip: native %#llx emulator %#llx\n",
          (unsigned long long)nat->st.rip, (unsigned long long)emu->st.rip);
      bad = 1;
    }
    for (int i = 0; i < 16; i++)
      if (nat->st.gpr[i] != emu->st.gpr[i]) {
        SAY("  %s: native %#llx emulator %#llx (was %#llx)\n", gpr_names[i],
            (unsigned long long)nat->st.gpr[i],
            (unsigned long long)emu->st.gpr[i],
            (unsigned long long)c->st.gpr[i]);
        bad = 1;
      }
    if ((nat->st.rflags ^ emu->st.rflags) & fmask) {
      static const struct {
        u64 bit;
        char name[3];
      } fl[] = {{0x1, "CF"},  {0x4, "PF"},  {0x10, "AF"},  {0x40, "ZF"},
                {0x80, "SF"}, {0x400, "DF"}, {0x800, "OF"}};
      u64 d = (nat->st.rflags ^ emu->st.rflags) & fmask;
      SAY("  rflags: native %#llx emulator %#llx (was %#llx); differ:",
          (unsigned long long)nat->st.rflags,
          (unsigned long long)emu->st.rflags, (unsigned long long)c->st.rflags);
      for (unsigned i = 0; i < RW_ARRAY_SIZE(fl); i++)
        if (d & fl[i].bit)
          SAY(" %s%s", fl[i].name,
              (fl[i].bit & DIFF_ARITH & ~c->flags_defined) ? "(undefined)"
                                                           : "");
      SAY("\n");
      bad = 1;
    }
    if (memcmp(nat->st.fx, emu->st.fx, 4) ||
        memcmp(nat->st.fx + 24, emu->st.fx + 24, 4)) {
      u32 mn, me, m0;
      u16 wn[2], we[2];
      memcpy(&mn, nat->st.fx + 24, 4);
      memcpy(&me, emu->st.fx + 24, 4);
      memcpy(&m0, c->st.fx + 24, 4);
      memcpy(wn, nat->st.fx, 4);
      memcpy(we, emu->st.fx, 4);
      SAY("  x87 control/status or mxcsr differ: mxcsr native %#x emulator "
          "%#x (was %#x); fcw/fsw native %#x/%#x emulator %#x/%#x\n",
          mn, me, m0, wn[0], wn[1], we[0], we[1]);
      bad = 1;
    }
    if (memcmp(nat->st.fx + 4, emu->st.fx + 4, 20)) {
      u64 n[3], e[3];
      memcpy(n, nat->st.fx, 24);
      memcpy(e, emu->st.fx, 24);
      SAY("  x87 tags/fop/fip/fdp: native %016llx %016llx %016llx emulator "
          "%016llx %016llx %016llx\n",
          (unsigned long long)n[0], (unsigned long long)n[1],
          (unsigned long long)n[2], (unsigned long long)e[0],
          (unsigned long long)e[1], (unsigned long long)e[2]);
      bad = 1;
    }
    for (int i = 0; i < 8; i++)
      if (memcmp(nat->st.fx + 32 + 16 * i, emu->st.fx + 32 + 16 * i, 10)) {
        SAY("  st%d differs\n", i);
        bad = 1;
      }
    for (int i = 0; i < 16; i++)
      if (memcmp(nat->st.fx + 160 + 16 * i, emu->st.fx + 160 + 16 * i, 16)) {
        u64 n[2], e[2];
        memcpy(n, nat->st.fx + 160 + 16 * i, 16);
        memcpy(e, emu->st.fx + 160 + 16 * i, 16);
        SAY("  xmm%d: native %016llx%016llx emulator %016llx%016llx\n", i,
            (unsigned long long)n[1], (unsigned long long)n[0],
            (unsigned long long)e[1], (unsigned long long)e[0]);
        bad = 1;
      }
    for (int i = 0; i < 16; i++)
      if (memcmp(nat->st.ymmh + 16 * i, emu->st.ymmh + 16 * i, 16)) {
        u64 n[2], e[2];
        memcpy(n, nat->st.ymmh + 16 * i, 16);
        memcpy(e, emu->st.ymmh + 16 * i, 16);
        SAY("  ymm%d bits 255:128: native %016llx%016llx emulator "
            "%016llx%016llx\n",
            i, (unsigned long long)n[1], (unsigned long long)n[0],
            (unsigned long long)e[1], (unsigned long long)e[0]);
        bad = 1;
      }
    for (int i = 0; i < 16; i++)
      if (memcmp(nat->st.zmmh + 32 * i, emu->st.zmmh + 32 * i, 32)) {
        SAY("  zmm%d upper (bits 511:256): native %s emulator %s\n", i,
            hex_msb(hn, nat->st.zmmh + 32 * i, 32),
            hex_msb(he, emu->st.zmmh + 32 * i, 32));
        bad = 1;
      }
    for (int i = 0; i < 16; i++)
      if (memcmp(nat->st.hi16 + 64 * i, emu->st.hi16 + 64 * i, 64)) {
        SAY("  zmm%d: native %s emulator %s\n", 16 + i,
            hex_msb(hn, nat->st.hi16 + 64 * i, 64),
            hex_msb(he, emu->st.hi16 + 64 * i, 64));
        bad = 1;
      }
    for (int i = 0; i < 8; i++)
      if (nat->st.k[i] != emu->st.k[i]) {
        SAY("  k%d: native %#llx emulator %#llx (was %#llx)\n", i,
            (unsigned long long)nat->st.k[i], (unsigned long long)emu->st.k[i],
            (unsigned long long)c->st.k[i]);
        bad = 1;
      }
    if (nat->xin != emu->xin) {
      SAY("  XINUSE: native %#x emulator %#x (was %#x)\n", nat->xin,
          emu->xin, c->xin);
      bad = 1;
    }
    for (unsigned i = 0; i < DIFF_DATA_SIZE; i++)
      if (nat->st.data[i] != emu->st.data[i]) {
        SAY("  memory at %#llx: native %02x emulator %02x (was %02x)\n",
            (unsigned long long)(DIFF_DATA_ADDR + i), nat->st.data[i],
            emu->st.data[i], c->st.data[i]);
        bad = 1;
        break;
      }
  }
  if (bad && c->enc && (c->enc->enc == DIFF_ENC_EVEX)) {
    /* What an EVEX case started from: MXCSR, vvvv, reg and rm. */
    u8 v[64];
    u32 m0;
    memcpy(&m0, c->st.fx + 24, 4);
    zmm_of(&c->st, c->vreg, v);
    SAY("  before: mxcsr %#x, vvvv zmm%u %s\n", m0, c->vreg,
        hex_msb(hn, v, 64));
    zmm_of(&c->st, c->reg, v);
    SAY("  before: reg zmm%u %s\n", c->reg, hex_msb(hn, v, 64));
    if (c->memop && c->mem_addr >= DIFF_DATA_ADDR &&
        c->mem_addr + 64 <= DIFF_DATA_ADDR + DIFF_DATA_SIZE) {
      SAY("  before: memory %s\n",
          hex_msb(hn, c->st.data + (c->mem_addr - DIFF_DATA_ADDR), 64));
    } else if (!c->memop) {
      zmm_of(&c->st, c->rm, v);
      SAY("  before: rm zmm%u %s\n", c->rm, hex_msb(hn, v, 64));
    }
  }
  if ((bad && verbose >= 0) || verbose > 0) {
    char dis[256];
    disasm(c, dis, sizeof dis);
    printf("%s %s [%s]%s\n%s", bad ? "DIFF" : "ok  ", dis, c->enc->text,
           nat->sig <= -100 ? " (native child died)" : "", buf);
  }
  return bad;
#undef SAY
}
