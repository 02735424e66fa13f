/* SPDX-License-Identifier: MIT */
/* rdtsc where the kernel cannot trap it. PR_TSC_SIGSEGV works through the
 * CPU's CR4.TSD bit, and some hypervisors do not honour it: prctl succeeds
 * and rdtsc still runs, unrecorded, so the replay could never know its
 * value. rewind checks once whether the trap works. When it does not, the
 * recorder finds the rdtsc and rdtscp instructions of every executable
 * mapping (a linear decode of a window before each byte pattern, confirming
 * it is at an instruction boundary) and replaces their first byte with int3. The
 * SIGTRAP of such an int3 is answered exactly as the trap would be, with an
 * RDTSC record; the trace keeps the original bytes, so the replay needs
 * nothing special. What this cannot reach (code generated at run time,
 * rdtsc hidden in data the decoder skips) is named at record time. */
#define _GNU_SOURCE
#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#include "recorder/rec_int.h"

int rec__tsc_trap_works(void) {
  static int known = -1;
  if (known >= 0) return known;
  const char *force = getenv("REWIND_TSC_PATCH");
  if (force && !strcmp(force, "1")) return known = 0;
  pid_t p = fork();
  if (p < 0) return known = 1; /* assume the documented behaviour */
  if (p == 0) {
    signal(SIGSEGV, SIG_DFL);
    prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
    (void)__rdtsc();
    _exit(0);
  }
  int st;
  while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
  }
  known = WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
  return known;
}

static int cmp_patch(const void *a, const void *b) {
  const struct rec__tscp *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

const struct rec__tscp *rec__tsc_patch_at(const struct rec *r, u64 addr) {
  struct rec__tscp key = {addr, 0, 0};
  return r->ntscp ? bsearch(&key, r->tscp, r->ntscp, sizeof key, cmp_patch)
                  : NULL;
}

void rec__tsc_patch_reset(struct rec *r) {
  free(r->tscp);
  r->tscp = NULL;
  r->ntscp = r->captscp = 0;
}

static int add_patch(struct rec *r, u64 addr, int is_p, u8 orig) {
  if (rec__tsc_patch_at(r, addr)) return 0;
  if (r->ntscp == r->captscp) {
    size_t n = r->captscp ? r->captscp * 2 : 16;
    struct rec__tscp *v = realloc(r->tscp, n * sizeof *v);
    if (!v) return RW_ENOMEM;
    r->tscp = v;
    r->captscp = n;
  }
  r->tscp[r->ntscp++] = (struct rec__tscp){addr, (u8)is_p, orig};
  qsort(r->tscp, r->ntscp, sizeof *r->tscp, cmp_patch);
  return 0;
}

/* 1 when the bytes at B (N left) are rdtsc (0f 31) or rdtscp (0f 01 f9). */
static int is_pattern(const u8 *b, size_t n) {
  return n >= 2 && b[0] == 0x0f &&
         (b[1] == 0x31 || (n >= 3 && b[1] == 0x01 && b[2] == 0xf9));
}

/* How far before a byte pattern the decoder starts. x86 code decoded from
 * an arbitrary byte falls into step with the real instruction stream after
 * a few instructions, so a window this long finds the boundaries a decode of
 * the whole mapping would, at a small part of its cost (the whole libc text
 * took 0.1 s, paid at every exec). */
#define TSC_WINDOW 1024

int rec__tsc_patch_range(struct rec *r, u64 a, u64 b) {
  if (r->tsc_trap || b <= a || b - a > (1ull << 30)) return 0;
  size_t n = (size_t)(b - a);
  u8 *code = malloc(n);
  if (!code) return RW_ENOMEM;
  i64 got = rec__mem_read(r, a, code, n);
  if (got <= 0) {
    free(code);
    return 0;
  }
  n = (size_t)got;
  csh cs = 0;
  cs_insn *insn = NULL;
  size_t pos = 0; /* the decoder's position: an instruction boundary */
  int rc = 0, found = 0;
  for (size_t c = 0; c < n && rc == 0; c++) {
    if (!is_pattern(code + c, n - c)) continue;
    if (!insn) {
      if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
        rc = RW_EUNSUPPORTED;
        break;
      }
      insn = cs_malloc(cs);
      pos = SIZE_MAX; /* no decode yet: start a window below */
    }
    /* Go on from where the last decode stopped when it is close, else
     * start a window before the pattern. */
    if (pos > c || c - pos > TSC_WINDOW)
      pos = c > TSC_WINDOW ? (c - TSC_WINDOW) & ~(size_t)15 : 0;
    while (pos < c) {
      const u8 *p = code + pos;
      size_t left = n - pos;
      u64 pc = a + pos;
      pos += cs_disasm_iter(cs, &p, &left, &pc, insn) ? insn->size : 1;
    }
    if (pos != c) continue; /* inside another instruction */
    const u8 *p = code + c;
    size_t left = n - c;
    u64 pc = a + c;
    if (!cs_disasm_iter(cs, &p, &left, &pc, insn)) continue;
    pos = c + insn->size;
    int is_p = insn->id == X86_INS_RDTSCP;
    if (insn->id != X86_INS_RDTSC && !is_p) continue;
    u8 cc = 0xcc;
    rc = add_patch(r, a + c, is_p, code[c]);
    if (rc == 0) rc = rec__mem_write(r, a + c, &cc, 1);
    found++;
  }
  if (insn) cs_free(insn, 1);
  if (cs) cs_close(&cs);
  free(code);
  if (found)
    rw_log(RW_LOG_VERBOSE, "rdtsc: %d instruction%s in %#llx-%#llx answered "
           "through int3", found, found == 1 ? "" : "s",
           (unsigned long long)a, (unsigned long long)b);
  return rc;
}

void rec__tsc_unpatch_child(const struct rec *r, pid_t child) {
  for (size_t i = 0; i < r->ntscp; i++) {
    u8 orig = r->tscp[i].orig;
    struct iovec l = {&orig, 1};
    struct iovec rv = {(void *)(uintptr_t)r->tscp[i].addr, 1};
    if (process_vm_writev(child, &l, 1, &rv, 1, 0) == 1) continue;
    /* Code pages are read-only: write through /proc/PID/mem instead. */
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)child);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    for (; i < r->ntscp; i++) {
      orig = r->tscp[i].orig;
      if (pwrite(fd, &orig, 1, (off_t)r->tscp[i].addr) != 1) break;
    }
    close(fd);
    return;
  }
}
