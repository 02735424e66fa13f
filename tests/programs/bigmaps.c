/* SPDX-License-Identifier: MIT */
/* Address spaces that are large in size or in number of mappings, for the
 * recorder's and the replayer's costs (tests/replay/bigmaps.sh, bench/
 * RESULTS.md): what they cost must follow what the program touches, not how
 * much it reserved or how many pieces it cut. Each mode prints a checksum of
 * what it read, so a replay that shows other bytes prints something else.
 *
 *   bigmaps fracture N [asc|desc|rand]  N pages PROT_NONE, every other one
 *                                       made readable (N/2 mprotects), then
 *                                       unmapped, remapped, discarded
 *   bigmaps hugefile                    a 1 TiB sparse memfd mapped shared
 *                                       writable, shared read-only, private
 *                                       and PROT_NONE
 *   bigmaps hole                        a 100 GiB PROT_NONE reservation with
 *                                       a few pages made writable
 *   bigmaps memfd2g                     a 2 GiB memfd mapped shared
 *   bigmaps vmchild                     a child in the same address space
 *                                       (CLONE_VM, not recorded) changes
 *                                       mappings the program then uses
 *   bigmaps files                       a file mapped as ld.so maps a
 *                                       library (the whole, then pieces
 *                                       MAP_FIXED over it), neighbours the
 *                                       kernel merges, shared and deleted
 *   bigmaps brk                         the heap grown and shrunk by brk */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG 4096ul

static void die(const char *what) {
  perror(what);
  exit(2);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static sigjmp_buf jb;
static volatile sig_atomic_t fault_sig;
static void on_segv(int sig) {
  fault_sig = sig;
  siglongjmp(jb, 1);
}

/* The signal reading the byte at P raises (SIGSEGV, SIGBUS), or 0. */
static int faults(const volatile unsigned char *p) {
  if (sigsetjmp(jb, 1)) return fault_sig;
  (void)*p;
  return 0;
}

static void catch_segv(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
}

/* The I-th of the M odd pages visited, in ORDER. */
static size_t nth(size_t i, size_t m, const char *order) {
  if (!strcmp(order, "desc")) return m - 1 - i;
  /* A prime step larger than any M visits every page once. */
  if (!strcmp(order, "rand")) return (size_t)((i * 2654435761ull) % m);
  return i;
}

static int fracture(size_t n, const char *order) {
  if (n < 4) n = 4;
  unsigned char *p = mmap(NULL, n * PG, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) die("mmap");
  size_t m = n / 2; /* the odd pages 1, 3, 5, ... */
  for (size_t i = 0; i < m; i++) {
    size_t k = 2 * nth(i, m, order) + 1;
    if (mprotect(p + k * PG, PG, PROT_READ)) die("mprotect");
  }
  catch_segv();
  uint64_t h = 0;
  /* Readable pages read zero, the others fault. */
  for (size_t k = 0; k < n; k += 1 + n / 64) h = mix(h, faults(p + k * PG));
  for (size_t k = 1; k < n; k += 2) h = mix(h, p[k * PG + k % PG]);
  /* One page in a hundred made writable and written. */
  for (size_t k = 1; k < n; k += 202) {
    if (mprotect(p + k * PG, PG, PROT_READ | PROT_WRITE)) die("mprotect w");
    memset(p + k * PG, (int)(k & 0xff) | 1, 64);
  }
  /* Some discarded (zeros again), some unmapped, some mapped anew over
   * their old place and a neighbour (MAP_FIXED) and written. */
  for (size_t k = 1; k < n; k += 404)
    if (madvise(p + k * PG, PG, MADV_DONTNEED)) die("madvise");
  for (size_t k = 203; k < n; k += 808)
    if (munmap(p + k * PG, PG)) die("munmap");
  for (size_t k = 203; k + 2 < n; k += 1616) {
    unsigned char *q = mmap(p + k * PG, 2 * PG, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (q != p + k * PG) die("mmap fixed");
    q[PG + 7] = 0x5a;
  }
  for (size_t k = 1; k < n; k += 101) {
    const volatile unsigned char *b = p + k * PG;
    int f = faults(b);
    h = mix(h, (uint64_t)f);
    if (!f) h = mix(h, b[0] + b[63] * 7u + b[7] * 13u);
  }
  /* Over the holes mprotect fails, after changing what comes before the
   * first one. */
  int rc = mprotect(p, n * PG, PROT_READ);
  h = mix(h, (uint64_t)(rc == 0));
  h = mix(h, faults(p));
  if (munmap(p, n * PG)) die("munmap all");
  printf("fracture %zu %s: %016llx\n", n, order, (unsigned long long)h);
  return 0;
}

/* A 1 TiB memfd with nearly nothing in it, mapped four ways. */
static int hugefile(void) {
  const size_t size = 1ul << 40;
  const size_t at[] = {0, 12345, (1ul << 39) + 4097, size - 1};
  int fd = memfd_create("bigmaps-huge", 0);
  if (fd < 0 || ftruncate(fd, (off_t)size) < 0) die("memfd");
  unsigned char *w = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                          fd, 0);
  const volatile unsigned char *r = mmap(NULL, size, PROT_READ, MAP_SHARED,
                                         fd, 0);
  if (w == MAP_FAILED || r == MAP_FAILED) die("mmap shared");
  uint64_t h = 0;
  for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
    w[at[i]] = (unsigned char)(0x41 + i);
    h = mix(h, r[at[i]]);
  }
  /* Mapped after the stores: the private copy starts with them. One page
   * more than the file: that one raises SIGBUS. */
  const volatile unsigned char *c = mmap(NULL, size + PG, PROT_READ,
                                         MAP_PRIVATE, fd, 0);
  unsigned char *n = mmap(NULL, size, PROT_NONE, MAP_SHARED, fd, 0);
  if (c == MAP_FAILED || n == MAP_FAILED) die("mmap private");
  for (size_t i = 0; i < sizeof at / sizeof *at; i++)
    h = mix(h, c[at[i]] + 3u * c[at[i] ^ 1]);
  catch_segv();
  h = mix(h, (uint64_t)faults(c + size - 1) << 8 | (uint64_t)faults(c + size));
  h = mix(h, faults(n + at[2]));
  size_t pg = at[2] & ~(PG - 1);
  if (mprotect(n + pg, PG, PROT_READ)) die("mprotect");
  h = mix(h, faults(n + at[2]));
  h = mix(h, n[at[2]]);
  if (munmap(w, size) || munmap((void *)r, size) ||
      munmap((void *)c, size + PG) || munmap(n, size))
    die("munmap");
  close(fd);
  printf("hugefile: %016llx\n", (unsigned long long)h);
  return 0;
}

/* 100 GiB reserved, a few pages of it used. */
static int hole(void) {
  const size_t size = 100ul << 30;
  const size_t at[] = {0, 1ul << 30, 50ul << 30, (77ul << 30) + 5 * PG,
                       size - PG};
  unsigned char *p = mmap(NULL, size, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) die("mmap");
  uint64_t h = 0;
  for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
    if (mprotect(p + at[i], PG, PROT_READ | PROT_WRITE)) die("mprotect");
    for (size_t j = 0; j < PG; j += 512) p[at[i] + j] = (unsigned char)(i + j);
  }
  /* 1 MiB in the middle, used as an array. */
  unsigned *a = (unsigned *)(void *)(p + (60ul << 30));
  if (mprotect(a, 1ul << 20, PROT_READ | PROT_WRITE)) die("mprotect 1M");
  for (size_t i = 0; i < (1ul << 18); i++) a[i] = (unsigned)(i * i);
  for (size_t i = 0; i < (1ul << 18); i += 997) h = mix(h, a[i]);
  for (size_t i = 0; i < sizeof at / sizeof *at; i++)
    for (size_t j = 0; j < PG; j += 256) h = mix(h, p[at[i] + j]);
  catch_segv();
  h = mix(h, faults(p + PG));
  h = mix(h, faults(p + (99ul << 30)));
  if (munmap(p, size)) die("munmap");
  printf("hole: %016llx\n", (unsigned long long)h);
  return 0;
}

/* A 2 GiB memfd mapped shared; a few pages touched. */
static int memfd2g(void) {
  const size_t size = 2ul << 30;
  int fd = memfd_create("bigmaps-2g", 0);
  if (fd < 0 || ftruncate(fd, (off_t)size) < 0) die("memfd");
  unsigned char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                          fd, 0);
  if (p == MAP_FAILED) die("mmap");
  uint64_t h = 0;
  for (size_t off = 0; off < size; off += 256ul << 20) {
    for (size_t j = 0; j < 3 * PG; j += 1000) p[off + j] = (unsigned char)j;
    h = mix(h, p[off + 1000] + p[off + 2 * PG + 5]);
  }
  h = mix(h, p[size - 1]);
  if (munmap(p, size)) die("munmap");
  close(fd);
  printf("memfd2g: %016llx\n", (unsigned long long)h);
  return 0;
}

static int go_pipe[2];

/* In the parent's address space, unseen by the recorder; it waits until
 * the parent's clone has returned (and the recorder has looked at the
 * maps after it). */
static int vm_child(void *arg) {
  unsigned char *p = arg;
  char c;
  if (read(go_pipe[0], &c, 1) != 1) return 1;
  if (mprotect(p + PG, PG, PROT_READ) || munmap(p + 3 * PG, PG)) return 1;
  return 0;
}

/* The child's stores are not recorded: its stack is unmapped before the
 * end, and the program is linked with -z now, so that the child's first
 * calls do not resolve symbols into the shared GOT. */
static int vmchild(void) {
  const size_t ssize = 64 << 10;
  char *stack = mmap(NULL, ssize, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *p = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED || stack == MAP_FAILED) die("mmap");
  for (int i = 0; i < 8; i++) p[i * PG] = (unsigned char)(i + 1);
  if (pipe(go_pipe)) die("pipe");
  pid_t c = clone(vm_child, stack + ssize, CLONE_VM | SIGCHLD, p);
  int st = 0;
  if (c < 0 || write(go_pipe[1], "g", 1) != 1 || waitpid(c, &st, 0) != c)
    die("clone");
  if (munmap(stack, ssize)) die("munmap stack");
  /* Now the address space is what the child left; changes made by the
   * program itself must be recorded against that. */
  if (mprotect(p + 2 * PG, PG, PROT_READ)) die("mprotect");
  if (mprotect(p + 6 * PG, PG, PROT_NONE)) die("mprotect");
  catch_segv();
  uint64_t h = (uint64_t)st;
  for (int i = 0; i < 8; i++) {
    int f = faults(p + i * PG);
    h = mix(h, (uint64_t)f);
    if (!f) h = mix(h, p[i * PG]);
  }
  if (munmap(p, 8 * PG)) die("munmap");
  printf("vmchild: %016llx\n", (unsigned long long)h);
  return 0;
}

/* File mappings of every kind the recorder learns from the kernel's
 * PROCMAP_QUERY instead of the maps: each must be recorded as the kernel
 * made it (REWIND_CHECK_MAPS) and read back the file's bytes. */
static int files(void) {
  char path[] = "/tmp/bigmaps-files-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) die("mkstemp");
  static char page[PG];
  for (int i = 0; i < 16; i++) {
    memset(page, 'a' + i, sizeof page);
    if (write(fd, page, sizeof page) != (ssize_t)sizeof page) die("write");
  }
  uint64_t h = 0;
  /* As ld.so maps a library: all of it, then its pieces over it. */
  char *lib = mmap(NULL, 16 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
  if (lib == MAP_FAILED) die("mmap");
  if (mmap(lib + 4 * PG, 4 * PG, PROT_READ | PROT_EXEC,
           MAP_PRIVATE | MAP_FIXED, fd, 4 * PG) == MAP_FAILED ||
      mmap(lib + 12 * PG, 4 * PG, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_FIXED, fd, 12 * PG) == MAP_FAILED)
    die("mmap fixed");
  lib[12 * PG] = 'Z'; /* copy on write */
  for (int i = 0; i < 16; i++) h = mix(h, (uint64_t)lib[i * PG]);
  /* Two neighbours of consecutive offsets, which the kernel merges. */
  char *two = mmap(NULL, 8 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (two == MAP_FAILED ||
      mmap(two, 4 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED ||
      mmap(two + 4 * PG, 4 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
           4 * PG) == MAP_FAILED)
    die("mmap merged");
  for (int i = 0; i < 8; i++) h = mix(h, (uint64_t)two[i * PG]);
  /* Shared and writable: a write through it is in the file. */
  char *sh = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 2 * PG);
  if (sh == MAP_FAILED) die("mmap shared");
  sh[0] = 'S';
  if (pread(fd, page, 1, 2 * PG) != 1) die("pread");
  h = mix(h, (uint64_t)page[0]);
  /* A deleted file, mapped after the unlink. */
  unlink(path);
  char *del = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, 15 * PG);
  if (del == MAP_FAILED) die("mmap deleted");
  h = mix(h, (uint64_t)del[0]);
  munmap(lib, 16 * PG);
  munmap(two, 8 * PG);
  munmap(sh, 2 * PG);
  munmap(del, PG);
  close(fd);
  printf("files: %016llx\n", (unsigned long long)h);
  return 0;
}

/* The heap grown by brk in uneven steps, written, shrunk, grown again
 * (fresh pages must read zero). */
static int heap(void) {
  char *base = sbrk(0);
  uint64_t h = 0;
  for (int r = 0; r < 40; r++) {
    long n = (r % 7 + 1) * 40000L + 123;
    char *p = sbrk(n);
    if (p == (void *)-1) die("sbrk");
    for (long i = 0; i < n; i += 4096) h = mix(h, (uint64_t)p[i]);
    memset(p, r + 1, (size_t)n);
    if (r % 3 == 0) sbrk(-n / 2);
    if (r % 5 == 0 && brk(base + 1000)) die("brk");
  }
  printf("brk: %016llx\n", (unsigned long long)h);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "files")) return files();
  if (argc == 2 && !strcmp(argv[1], "brk")) return heap();
  if (argc >= 3 && !strcmp(argv[1], "fracture"))
    return fracture(strtoul(argv[2], NULL, 0), argc > 3 ? argv[3] : "asc");
  if (argc == 2 && !strcmp(argv[1], "hugefile")) return hugefile();
  if (argc == 2 && !strcmp(argv[1], "hole")) return hole();
  if (argc == 2 && !strcmp(argv[1], "memfd2g")) return memfd2g();
  if (argc == 2 && !strcmp(argv[1], "vmchild")) return vmchild();
  fprintf(stderr,
          "usage: bigmaps fracture N [asc|desc|rand] | hugefile | hole | "
          "memfd2g | vmchild | files | brk\n");
  return 2;
}
