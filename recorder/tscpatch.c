/* SPDX-License-Identifier: MIT */
/* rdtsc where the kernel cannot trap it, and rdrand/rdseed everywhere.
 * PR_TSC_SIGSEGV works through the CPU's CR4.TSD bit, and some hypervisors do
 * not honour it: prctl succeeds and rdtsc still runs, unrecorded, so the replay
 * could never know its value. rewind checks once whether the trap works. When
 * it does not, the recorder finds the rdtsc and rdtscp instructions of every
 * executable mapping (a linear decode of a window before each byte pattern,
 * confirming it is at an instruction boundary) and replaces their first byte
 * with int3. The SIGTRAP of such an int3 is answered exactly as the trap would
 * be, with an RDTSC record; the trace keeps the original bytes, so the replay
 * needs nothing special. What this cannot reach (code generated at run time,
 * rdtsc hidden in data the decoder skips) is named at record time. Code
 * that is read rather than run must not be patched: valgrind's tools
 * translate the program they run from its bytes, so in their processes
 * only the tool's own image is (recorder/image.c, guest_code).
 *
 * rdrand and rdseed can never be trapped without CPUID faulting, so they
 * are always patched the same way (when the CPU has them: elsewhere they
 * raise #UD, as they must): the recorder runs the instruction itself and
 * records the value and CF in an RDTSC record of kind rdrand/rdseed.
 *
 * xbegin (RTM) is patched too, when the CPU has RTM: whether a transaction
 * commits depends on interrupts, cache conflicts and capacity, which no
 * replay can reproduce. At its int3 the recorder aborts the transaction
 * before it starts, as the CPU is always allowed to (eax = the abort status,
 * rip = the fallback address), and records the status in an RDTSC record of
 * kind xbegin; so no transaction ever runs in a recorded program, and xtest,
 * xend and xabort behave as outside one, which the replay's emulator
 * computes (docs/design-notes.md, "Transactional memory"). An xbegin whose
 * fallback address is not canonical is left alone: it raises #GP without
 * starting anything, here and in the replay. */
#define _GNU_SOURCE
#include <capstone/capstone.h>
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#include "common/endian.h"
#include "format/format.h"
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
  struct rec__tscp key = {.addr = addr};
  return r->proc->ntscp ? bsearch(&key, r->proc->tscp, r->proc->ntscp,
                                  sizeof key, cmp_patch)
                        : NULL;
}

void rec__tsc_patch_reset(struct rec *r) {
  free(r->proc->tscp);
  r->proc->tscp = NULL;
  r->proc->ntscp = r->proc->captscp = 0;
}

static int add_patch(struct rec *r, const struct rec__tscp *p) {
  if (rec__tsc_patch_at(r, p->addr)) return 0;
  if (r->proc->ntscp == r->proc->captscp) {
    size_t n = r->proc->captscp ? r->proc->captscp * 2 : 16;
    struct rec__tscp *v = realloc(r->proc->tscp, n * sizeof *v);
    if (!v) return RW_ENOMEM;
    r->proc->tscp = v;
    r->proc->captscp = n;
  }
  r->proc->tscp[r->proc->ntscp++] = *p;
  qsort(r->proc->tscp, r->proc->ntscp, sizeof *r->proc->tscp, cmp_patch);
  return 0;
}

/* 1 when the bytes at B (N left) are rdtsc (0f 31) or rdtscp (0f 01 f9)
 * and TSC is set, or rdrand/rdseed with a register (0f c7 /6 or /7, mod 3,
 * maybe after a 66 or REX prefix the decoder finds) and RAND is set, or
 * xbegin (c7 f8, maybe after prefixes) and RTM is set. */
static int is_pattern(const u8 *b, size_t n, int tsc, int rand, int rtm) {
  if (rtm && n >= 2 && b[0] == 0xc7 && b[1] == 0xf8) return 1;
  if (n < 2 || b[0] != 0x0f) return 0;
  if (tsc && (b[1] == 0x31 || (n >= 3 && b[1] == 0x01 && b[2] == 0xf9)))
    return 1;
  return rand && n >= 3 && b[1] == 0xc7 && b[2] >= 0xf0;
}

/* Which of rdrand and rdseed this CPU runs (CPUID 1 ECX bit 30, 7.0 EBX
 * bit 18): only those are patched. */
static int cpu_has_rand(void) {
  static int known = -1;
  if (known < 0) {
    unsigned a, b, c, d;
    known = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 30))) known |= 1;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 18)))
      known |= 2;
  }
  return known;
}

/* 1 when this CPU runs RTM transactions (CPUID 7.0 EBX bit 11): only then
 * is xbegin patched. Elsewhere it raises #UD, or (TSX disabled by
 * microcode, RTM_ALWAYS_ABORT) always aborts natively, which the replay
 * does not reproduce: it raises the #UD the recorded CPUID calls for. */
static int cpu_has_rtm(void) {
  static int known = -1;
  if (known < 0) {
    unsigned a, b, c, d;
    known = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 11));
  }
  return known;
}

/* 1 when ADDR is canonical (bits 63-47 all equal). */
static int canonical(u64 addr) {
  return (u64)((i64)(addr << 16) >> 16) == addr;
}

/* How far before a byte pattern the decoder starts. x86 code decoded from
 * an arbitrary byte falls into step with the real instruction stream after
 * a few instructions, so a window this long finds the boundaries a decode of
 * the whole mapping would, at a small part of its cost (the whole libc text
 * took 0.1 s, paid at every exec). */
#define TSC_WINDOW 1024

/* Whether anything is to be patched on this machine. */
static int any_patch(const struct rec *r) {
  return !r->tsc_trap || cpu_has_rand() || cpu_has_rtm();
}

/* Patches the site PT (found now or remembered) unless it is patched
 * already; counts it in FOUND. */
static int apply(struct rec *r, const struct rec__tscp *pt, int *found) {
  u8 cc = 0xcc;
  if (rec__tsc_patch_at(r, pt->addr)) return 0;
  RW_FORWARD(add_patch(r, pt));
  found[pt->kind]++;
  return rec__mem_write(r, pt->addr, &cc, 1);
}

static void say_found(const int *found, u64 a, u64 b) {
  if (found[0] + found[1])
    rw_log(RW_LOG_VERBOSE, "rdtsc: %d instruction%s in %#llx-%#llx answered "
           "through int3", found[0] + found[1],
           found[0] + found[1] == 1 ? "" : "s", (unsigned long long)a,
           (unsigned long long)b);
  if (found[2] + found[3])
    rw_log(RW_LOG_VERBOSE, "rdrand/rdseed: %d instruction%s in %#llx-%#llx "
           "answered through int3", found[2] + found[3],
           found[2] + found[3] == 1 ? "" : "s", (unsigned long long)a,
           (unsigned long long)b);
  if (found[REC_ND_XBEGIN])
    rw_log(RW_LOG_VERBOSE, "xbegin: %d instruction%s in %#llx-%#llx aborted "
           "through int3", found[REC_ND_XBEGIN],
           found[REC_ND_XBEGIN] == 1 ? "" : "s", (unsigned long long)a,
           (unsigned long long)b);
}

/* Remembers site PT of a scan of [A, ...) for rec__tsc_patch_file, its
 * addresses relative to A. */
static int remember(struct rec *r, const struct rec__tscp *pt, u64 a) {
  if (r->ntscsites == r->captscsites) {
    size_t n = r->captscsites ? r->captscsites * 2 : 64;
    struct rec__tscp *v = realloc(r->tscsites, n * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "rdtsc sites");
    r->tscsites = v;
    r->captscsites = n;
  }
  struct rec__tscp *q = &r->tscsites[r->ntscsites++];
  *q = *pt;
  q->addr -= a;
  if (q->kind == REC_ND_XBEGIN) q->target -= a;
  return 0;
}

/* Scans [A, B) of the tracee and patches what it finds; with KEEP, also
 * remembers every site found (patched now or already). */
static int scan(struct rec *r, u64 a, u64 b, int keep) {
  int tsc = !r->tsc_trap, rand = cpu_has_rand(), rtm = cpu_has_rtm();
  if (!any_patch(r) || b <= a || b - a > (1ull << 30)) return 0;
  size_t n = (size_t)(b - a);
  u8 *code = malloc(n);
  if (!code) return RW_ENOMEM;
  i64 got = rec__mem_read(r, a, code, n);
  if (got <= 0) {
    free(code);
    return 0;
  }
  n = (size_t)got;
  /* A range scanned before (mprotect to PROT_EXEC again) holds our int3s:
   * decode the original bytes, or a prefixed instruction would be found
   * again one byte further on (cc 0f c7 f0 is int3, then rdrand eax). */
  for (size_t i = 0; i < r->proc->ntscp; i++) {
    const struct rec__tscp *p = &r->proc->tscp[i];
    if (p->addr >= a && p->addr - a < n && code[p->addr - a] == 0xcc)
      code[p->addr - a] = p->orig;
  }
  csh cs = 0;
  cs_insn *insn = NULL;
  size_t pos = 0; /* the decoder's position: an instruction boundary */
  int rc = 0, found[REC_ND_XBEGIN + 1] = {0};
  for (size_t c = 0; c < n && rc == 0; c++) {
    if (!is_pattern(code + c, n - c, tsc, rand != 0, rtm)) continue;
    if (!insn) {
      if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
        rc = RW_EUNSUPPORTED;
        break;
      }
      cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
      insn = cs_malloc(cs);
      pos = SIZE_MAX; /* no decode yet: start a window below */
    }
    /* Go on from where the last decode stopped when it is close, else
     * start a window before the pattern. Then decode up to the
     * instruction that holds byte C. */
    if (pos > c || c - pos > TSC_WINDOW)
      pos = c > TSC_WINDOW ? (c - TSC_WINDOW) & ~(size_t)15 : 0;
    size_t at = SIZE_MAX;
    while (pos <= c) {
      const u8 *p = code + pos;
      size_t left = n - pos;
      u64 pc = a + pos;
      if (!cs_disasm_iter(cs, &p, &left, &pc, insn)) {
        pos++;
        continue;
      }
      if (pos + insn->size > c) at = pos;
      pos += insn->size;
    }
    if (at == SIZE_MAX) continue; /* undecodable there */
    const struct rec__tscp *had = rec__tsc_patch_at(r, a + at);
    if (had) { /* patched already */
      if (keep) rc = remember(r, had, a);
      continue;
    }
    struct rec__tscp pt = {
        .addr = a + at, .orig = code[at], .len = (u8)insn->size};
    switch (insn->id) {
      case X86_INS_RDTSC:
      case X86_INS_RDTSCP:
        if (!tsc || at != c) continue; /* inside another instruction */
        pt.kind = insn->id == X86_INS_RDTSCP ? REC_ND_RDTSCP : REC_ND_RDTSC;
        break;
      case X86_INS_RDRAND:
      case X86_INS_RDSEED: {
        const cs_x86 *x = &insn->detail->x86;
        int seed = insn->id == X86_INS_RDSEED;
        if (!(rand & (seed ? 2 : 1)) || x->op_count != 1 ||
            x->operands[0].type != X86_OP_REG)
          continue;
        /* The register is ModRM.rm (mod 3) extended by REX.B. */
        pt.kind = seed ? REC_ND_RDSEED : REC_ND_RDRAND;
        pt.reg = (u8)((x->modrm & 7) | ((x->rex & 1) << 3));
        pt.osz = x->operands[0].size;
        break;
      }
      case X86_INS_XBEGIN: {
        /* Capstone gives the fallback address itself (rel16 with 66, else
         * rel32, sign-extended and not truncated: measured). */
        const cs_x86 *x = &insn->detail->x86;
        if (!rtm || x->op_count != 1 || x->operands[0].type != X86_OP_IMM ||
            !canonical((u64)x->operands[0].imm))
          continue;
        pt.kind = REC_ND_XBEGIN;
        pt.target = (u64)x->operands[0].imm;
        break;
      }
      default:
        continue;
    }
    rc = apply(r, &pt, found);
    if (rc == 0 && keep) rc = remember(r, &pt, a);
  }
  if (insn) cs_free(insn, 1);
  if (cs) cs_close(&cs);
  free(code);
  say_found(found, a, b);
  return rc;
}

int rec__tsc_patch_range(struct rec *r, u64 a, u64 b) {
  if (r->proc->guest_code) return 0;
  return scan(r, a, b, 0);
}

/* Scans kept between recordings. Scanning a file's code means reading it
 * out of the process and decoding around every byte pattern: for the tens
 * of megabytes of libraries a Python or a compiler maps, milliseconds at
 * every recording. The sites depend only on the bytes and on what this
 * machine patches, so the cache directory (REWIND_CACHE, next to the blob
 * cache; none when it is off) keeps them in scans/, one small file per
 * file range: SCAN_MAGIC, then per site its offset and xbegin target
 * (relative to the range, u64 each) and kind, first byte, length,
 * register and size (u8 each). */
#define SCAN_MAGIC "rwscan1\n"
#define SCAN_SITE 21
#define SCAN_KEEP (16u << 20) /* bytes kept at most, the oldest going */

/* The file for the range of LEN bytes at OFF of the content HASH, under
 * this machine's patch mode, into DST; its directory into DIR. -1: no
 * cache. */
static int scan_path(const struct rec *r, char *dst, size_t cap, char *dir,
                     size_t dcap, const u8 hash[32], u64 off, u64 len) {
  char base[4096], hex[65];
  if (trace_cache_dir(base, sizeof base) < 0) return -1;
  for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", hash[i]);
  unsigned mode = (unsigned)!r->tsc_trap | (unsigned)cpu_has_rand() << 1 |
                  (unsigned)cpu_has_rtm() << 3;
  if ((size_t)snprintf(dir, dcap, "%s/scans", base) >= dcap) return -1;
  int n = snprintf(dst, cap, "%s/%s-%llx-%llx-%x", dir, hex,
                   (unsigned long long)off, (unsigned long long)len, mode);
  return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* Appends the sites kept in PATH to R's tscsites (relative); 1 when it
 * holds a whole, valid list, else 0 with nothing appended. */
static int scan_load(struct rec *r, const char *path, u64 len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat st;
  u8 *buf = NULL;
  size_t n = 0, hdr = sizeof SCAN_MAGIC - 1;
  int ok = fstat(fd, &st) == 0 && st.st_size >= (off_t)hdr &&
           (size_t)st.st_size <= hdr + SCAN_SITE * (size_t)len &&
           ((size_t)st.st_size - hdr) % SCAN_SITE == 0 &&
           (buf = malloc((size_t)st.st_size)) != NULL &&
           read(fd, buf, (size_t)st.st_size) == st.st_size &&
           !memcmp(buf, SCAN_MAGIC, hdr);
  close(fd);
  if (ok) n = ((size_t)st.st_size - hdr) / SCAN_SITE;
  size_t was = r->ntscsites;
  for (size_t i = 0; ok && i < n; i++) {
    const u8 *p = buf + hdr + SCAN_SITE * i;
    struct rec__tscp pt = {.addr = rd_le64(p), .target = rd_le64(p + 8),
                           .kind = p[16], .orig = p[17], .len = p[18],
                           .reg = p[19], .osz = p[20]};
    ok = pt.addr < len && pt.kind <= REC_ND_XBEGIN && pt.len >= 1 &&
         pt.len <= 15 && remember(r, &pt, 0) == 0;
  }
  free(buf);
  if (!ok) r->ntscsites = was;
  if (ok) (void)utimensat(AT_FDCWD, path, NULL, 0); /* used: kept longer */
  return ok;
}

/* Keeps the N sites of V (relative) in PATH, whole or not at all. */
static void scan_store(const char *path, const char *dir,
                       const struct rec__tscp *v, size_t n) {
  char tmp[4480];
  if (trace_mkdirs(dir, 0700) < 0) return;
  snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return;
  size_t hdr = sizeof SCAN_MAGIC - 1, size = hdr + SCAN_SITE * n;
  u8 *buf = malloc(size);
  int ok = buf != NULL;
  if (ok) {
    memcpy(buf, SCAN_MAGIC, hdr);
    for (size_t i = 0; i < n; i++) {
      u8 *p = buf + hdr + SCAN_SITE * i;
      wr_le64(p, v[i].addr);
      wr_le64(p + 8, v[i].target);
      p[16] = v[i].kind, p[17] = v[i].orig, p[18] = v[i].len;
      p[19] = v[i].reg, p[20] = v[i].osz;
    }
    ok = write(fd, buf, size) == (ssize_t)size;
  }
  free(buf);
  if (close(fd) < 0) ok = 0;
  if (!ok || rename(tmp, path) < 0) unlink(tmp);
}

int rec__tsc_patch_file(struct rec *r, u64 a, u64 b, const u8 hash[32],
                        u64 off) {
  if (!any_patch(r) || b <= a || r->proc->guest_code) return 0;
  for (size_t i = 0; i < r->ntscfiles; i++) {
    const struct rec__tscfile *f = &r->tscfiles[i];
    if (f->off != off || f->len != b - a || memcmp(f->hash, hash, 32))
      continue;
    int found[REC_ND_XBEGIN + 1] = {0};
    for (size_t k = 0; k < f->n; k++) {
      struct rec__tscp pt = r->tscsites[f->first + k];
      pt.addr += a;
      if (pt.kind == REC_ND_XBEGIN) pt.target += a;
      RW_FORWARD(apply(r, &pt, found));
    }
    say_found(found, a, b);
    return 0;
  }
  if (r->ntscfiles == r->captscfiles) {
    size_t n = r->captscfiles ? r->captscfiles * 2 : 16;
    struct rec__tscfile *v = realloc(r->tscfiles, n * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "scanned files");
    r->tscfiles = v;
    r->captscfiles = n;
  }
  size_t first = r->ntscsites;
  char path[4400], dir[4200];
  int cached = scan_path(r, path, sizeof path, dir, sizeof dir, hash, off,
                         b - a) == 0;
  if (cached && scan_load(r, path, b - a)) {
    int found[REC_ND_XBEGIN + 1] = {0};
    for (size_t k = first; k < r->ntscsites; k++) {
      struct rec__tscp pt = r->tscsites[k];
      pt.addr += a;
      if (pt.kind == REC_ND_XBEGIN) pt.target += a;
      RW_FORWARD(apply(r, &pt, found));
    }
    say_found(found, a, b);
  } else {
    RW_FORWARD(scan(r, a, b, 1));
    if (cached) {
      scan_store(path, dir, r->tscsites + first, r->ntscsites - first);
      if (hash[0] % 64 == 0) rec__cache_trim(dir, SCAN_KEEP); /* at times */
    }
  }
  struct rec__tscfile *f = &r->tscfiles[r->ntscfiles++];
  memcpy(f->hash, hash, 32);
  f->off = off;
  f->len = b - a;
  f->first = first;
  f->n = r->ntscsites - first;
  return 0;
}

void rec__tsc_unpatch_child(const struct rec *r, pid_t child) {
  for (size_t i = 0; i < r->proc->ntscp; i++) {
    u8 orig = r->proc->tscp[i].orig;
    struct iovec l = {&orig, 1};
    struct iovec rv = {(void *)(uintptr_t)r->proc->tscp[i].addr, 1};
    if (process_vm_writev(child, &l, 1, &rv, 1, 0) == 1) continue;
    /* Code pages are read-only: write through /proc/PID/mem instead. */
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)child);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    for (; i < r->proc->ntscp; i++) {
      orig = r->proc->tscp[i].orig;
      if (pwrite(fd, &orig, 1, (off_t)r->proc->tscp[i].addr) != 1) break;
    }
    close(fd);
    return;
  }
}
