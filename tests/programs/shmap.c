/* SPDX-License-Identifier: MIT */
/* Shared mappings whose bytes change without the program storing to them
 * (tests/replay/shared.sh): two mappings of one memfd, code written through
 * one mapping and run through another, a file changed by pwrite and write
 * under its mappings, a file grown and shrunk under a mapping (SIGBUS past
 * its end), mremap of a shared mapping with old size 0, shared memory and a
 * mapped file written by child processes (which run unrecorded), robust
 * mutexes the kernel marks when their owner thread dies, a clone(CLONE_VM)
 * child writing the parent's memory (also one with CLONE_UNTRACED, as
 * AddressSanitizer's leak check makes), and a child that writes shared memory
 * and exits while its parent computes (its SIGCHLD interrupts the parent
 * between two instructions, after bytes it never stored changed). Each mode
 * prints
 * what it read, so the replay's output check sees any difference.
 *
 *   shmap MODE DIR   (MODE: alias jit pwrite write grow dup child robust
 *                     clonevm untraced spin all) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG 4096

static void die(const char *what) {
  perror(what);
  exit(2);
}

static unsigned sum(const volatile unsigned char *p, size_t n) {
  unsigned s = 0;
  for (size_t i = 0; i < n; i++) s = s * 31 + p[i];
  return s;
}

/* Writes through one mapping of a memfd, reads through the other. */
static void alias(void) {
  int fd = memfd_create("shmap", 0);
  if (fd < 0 || ftruncate(fd, 2 * PG) < 0) die("memfd");
  unsigned char *w = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED,
                          fd, 0);
  volatile unsigned char *r = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, PG);
  if (w == MAP_FAILED || r == MAP_FAILED) die("mmap");
  unsigned seen = 0;
  for (int i = 0; i < 1000; i++) {
    w[PG + (i * 7) % PG] = (unsigned char)(i + 1);
    seen = seen * 3 + r[(i * 7) % PG]; /* the byte just written */
  }
  printf("alias: seen %u, sum %u\n", seen, sum(r, PG));
  /* A store that crosses into the aliased page. */
  memcpy(w + PG - 4, "abcdefgh", 8);
  printf("alias: across %.4s\n", (const char *)r); /* gdb: alias stop */
  close(fd);
}

/* W^X the way JITs do it: code written through a writable mapping and
 * run through an executable mapping of the same memfd, then rewritten. */
static void jit(void) {
  int fd = memfd_create("jit", 0);
  if (fd < 0 || ftruncate(fd, PG) < 0) die("memfd");
  unsigned char *w = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  void *x = mmap(NULL, PG, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
  if (w == MAP_FAILED || x == MAP_FAILED) die("mmap");
  int (*f)(void) = (int (*)(void))x;
  int total = 0;
  for (int i = 0; i < 5; i++) {
    w[0] = 0xb8; /* mov eax, imm32 */
    int v = 100 + i * i;
    memcpy(w + 1, &v, 4);
    w[5] = 0xc3; /* ret */
    total += f();
    printf("jit: call %d returned %d\n", i, f());
  }
  printf("jit: total %d\n", total);
  close(fd);
}

static int open_file(const char *dir, const char *name, size_t size) {
  char p[4096];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) die(p);
  unlink(p);
  if (ftruncate(fd, (off_t)size) < 0) die("ftruncate");
  return fd;
}

/* pwrite under a read-only shared mapping and a private one. */
static void pwrite_mode(const char *dir) {
  int fd = open_file(dir, "pw", 2 * PG);
  volatile unsigned char *s = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);
  volatile unsigned char *p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE, fd, 0);
  if (s == MAP_FAILED || p == MAP_FAILED) die("mmap");
  p[0] = 'P'; /* the first private page is a copy now; the second is not */
  for (int i = 0; i < 50; i++) {
    unsigned v = 0x01020304u * (unsigned)(i + 1);
    if (pwrite(fd, &v, 4, (off_t)((i * 131) % (2 * PG - 4))) != 4)
      die("pwrite");
  }
  printf("pwrite: shared %u, private copied page %u, private page %u\n",
         sum(s, 2 * PG), sum(p, PG), sum(p + PG, PG));
  close(fd);
}

/* write() at the file position, and appending past the mapped end. */
static void write_mode(const char *dir) {
  int fd = open_file(dir, "wr", PG);
  volatile unsigned char *s = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);
  if (s == MAP_FAILED) die("mmap");
  if (lseek(fd, 100, SEEK_SET) != 100) die("lseek");
  for (int i = 0; i < 20; i++)
    if (write(fd, "hello, mapped world ", 20) != 20) die("write");
  if (lseek(fd, PG - 10, SEEK_SET) < 0) die("lseek");
  if (write(fd, "0123456789ABCDEFGHIJ", 20) != 20) die("write"); /* grows */
  printf("write: first page %u, second page %u, at %.20s\n", sum(s, PG),
         sum(s + PG, PG), (const char *)s + PG - 10);
  close(fd);
}

static sigjmp_buf bus_jmp;
static void on_bus(int sig) {
  (void)sig;
  siglongjmp(bus_jmp, 1);
}

/* Reads P[I], or -1 when it raises SIGBUS. */
static int probe(volatile unsigned char *p, size_t i) {
  if (sigsetjmp(bus_jmp, 1)) return -1;
  return p[i];
}

/* A mapping larger than its file: grown and shrunk under it. (A private
 * mapping would also show the stores through the shared one on pages it
 * has not copied yet; the replay does not follow that, so it is not read
 * here after such a store: docs/design-notes.md, "Shared mappings".) */
static void grow(const char *dir) {
  signal(SIGBUS, on_bus);
  int fd = open_file(dir, "gr", 0);
  volatile unsigned char *s = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE,
                                   MAP_SHARED, fd, 0);
  volatile unsigned char *p = mmap(NULL, 4 * PG, PROT_READ, MAP_PRIVATE, fd,
                                   0);
  if (s == MAP_FAILED || p == MAP_FAILED) die("mmap");
  printf("grow: empty %d %d\n", probe(s, 0), probe(p, 10));
  if (ftruncate(fd, 2 * PG + 5) < 0) die("ftruncate");
  printf("grow: grown %d %d\n", probe(p, PG + 1), probe(p, 3 * PG));
  s[PG + 1] = 42;
  s[2 * PG + 100] = 7; /* on the last page, past the end of the file */
  printf("grow: written %d %d %d\n", probe(s, PG + 1), probe(s, 3 * PG),
         probe(s, 2 * PG + 100));
  if (ftruncate(fd, PG / 2) < 0) die("ftruncate");
  printf("grow: shrunk %d %d %d\n", probe(s, PG / 2 - 1), probe(s, PG + 1),
         probe(p, 2 * PG));
  if (ftruncate(fd, 3 * PG) < 0) die("ftruncate");
  printf("grow: again %d %d %d\n", probe(s, PG + 1), probe(s, PG - 1),
         probe(p, 2 * PG + 100));
  close(fd);
}

/* mremap(old, 0, ...) maps a shared mapping a second time; then a grown
 * mremap of a file changed since it was mapped. */
static void dup_mode(const char *dir) {
  volatile unsigned char *a = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
                                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (a == MAP_FAILED) die("mmap");
  volatile unsigned char *b = mremap((void *)a, 0, 2 * PG, MREMAP_MAYMOVE);
  if (b == MAP_FAILED) die("mremap");
  for (int i = 0; i < 100; i++) a[i * 37] = (unsigned char)i;
  b[5] = 99;
  printf("dup: %u %u %d\n", sum(a, 2 * PG), sum(b, 2 * PG), a[5]);

  int fd = open_file(dir, "du", 3 * PG);
  volatile unsigned char *m = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) die("mmap");
  if (pwrite(fd, "grown part", 10, 2 * PG + 8) != 10) die("pwrite");
  m = mremap((void *)m, PG, 3 * PG, MREMAP_MAYMOVE);
  if (m == MAP_FAILED) die("mremap");
  printf("dup: grown %.10s\n", (const char *)m + 2 * PG + 8);
  close(fd);
}

static volatile unsigned char *shared_a;
static volatile int handler_saw = -1;
static void on_chld(int sig) {
  (void)sig;
  if (handler_saw < 0) handler_saw = shared_a[99];
}

static void wait_child(pid_t pid, const char *who) {
  int st;
  if (pid < 0) die("fork");
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) die("waitpid");
  printf("child: %s exited %d\n", who, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Children write shared anonymous memory and a file mapped read-only; a
 * grandchild writes too; a mapping made after the first fork is written by
 * a second child. The SIGCHLD handler reads what the first child wrote. */
static void child_mode(const char *dir) {
  shared_a = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared_a == MAP_FAILED) die("mmap");
  int fd = open_file(dir, "ch", PG);
  volatile unsigned char *m = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) die("mmap");
  signal(SIGCHLD, on_chld);
  pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < 2 * PG; i += 3) shared_a[i] = (unsigned char)(i / 7);
    if (pwrite(fd, "from the child", 14, 100) != 14) _exit(3);
    pid_t g = fork();
    if (g == 0) {
      shared_a[PG + 5] = 201;
      _exit(0);
    }
    waitpid(g, NULL, 0);
    _exit(7);
  }
  wait_child(pid, "first");
  printf("child: shared %u, byte %d, file '%.14s', handler %d\n",
         sum(shared_a, 2 * PG), shared_a[PG + 5], (const char *)m + 100,
         handler_saw);

  volatile unsigned char *b = mmap(NULL, PG, PROT_READ | PROT_WRITE,
                                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (b == MAP_FAILED) die("mmap");
  pid = fork();
  if (pid == 0) {
    memset((void *)b, 0x5a, PG / 2);
    shared_a[7] = 77;
    _exit(8);
  }
  wait_child(pid, "second");
  printf("child: later mapping %u, first again %d\n", sum(b, PG), shared_a[7]);
  signal(SIGCHLD, SIG_DFL);
  close(fd);
}

static unsigned char vm_data[3 * PG];
static int vm_child(void *arg) {
  unsigned char *heap = arg;
  for (int i = 0; i < 3 * PG; i += 5) vm_data[i] = (unsigned char)(i % 251);
  for (int i = 0; i < PG; i++) heap[i] = (unsigned char)(i * 3);
  return 9;
}

/* clone(CLONE_VM) without CLONE_VFORK: a child that runs unrecorded in the
 * parent's own memory, writing its data, its heap and its own stack. */
static void clonevm_mode(int untraced) {
  size_t stack_size = 256 * 1024;
  char *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *heap = malloc(PG);
  if (stack == MAP_FAILED || !heap) die("mmap");
  pid_t pid = clone(vm_child, stack + stack_size,
                    CLONE_VM | SIGCHLD | (untraced ? CLONE_UNTRACED : 0),
                    heap);
  const char *name = untraced ? "untraced" : "clonevm";
  wait_child(pid, name);
  printf("%s: data %u, heap %u\n", name, sum(vm_data, sizeof vm_data),
         sum(heap, PG));
  free(heap);
}

static pthread_mutex_t robust_mu;
static void *hold_and_die(void *arg) {
  (void)arg;
  pthread_mutex_lock(&robust_mu);
  return NULL; /* dies holding it */
}

/* A thread ends holding a robust mutex: the kernel marks its futex word,
 * and the next lock says EOWNERDEAD. */
static void robust_mode(void) {
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_setrobust(&at, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&robust_mu, &at);
  pthread_t t;
  if (pthread_create(&t, NULL, hold_and_die, NULL)) die("pthread_create");
  pthread_join(t, NULL);
  int rc = pthread_mutex_lock(&robust_mu);
  printf("robust: lock after owner died %s\n",
         rc == EOWNERDEAD ? "EOWNERDEAD" : "something else");
  pthread_mutex_consistent(&robust_mu);
  pthread_mutex_unlock(&robust_mu);
}

static volatile sig_atomic_t spin_saw = -1;
static void on_spin_chld(int sig) {
  (void)sig;
  spin_saw = shared_a[300];
}

/* The child writes shared memory and exits at once; the parent computes
 * with no syscall until the SIGCHLD handler has run. */
static void spin_mode(void) {
  shared_a = mmap(NULL, PG, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared_a == MAP_FAILED) die("mmap");
  signal(SIGCHLD, on_spin_chld);
  pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < PG; i++) shared_a[i] = (unsigned char)(i * 3 + 1);
    _exit(0);
  }
  volatile unsigned long x = 1;
  for (unsigned long n = 0; spin_saw < 0 && n < (1ul << 28); n++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  waitpid(pid, NULL, 0);
  printf("spin: handler saw %d, sum %u\n", (int)spin_saw,
         sum(shared_a, PG));
  signal(SIGCHLD, SIG_DFL);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "all";
  const char *dir = argc > 2 ? argv[2] : "/tmp";
  int all = !strcmp(mode, "all");
  if (all || !strcmp(mode, "alias")) alias();
  if (all || !strcmp(mode, "jit")) jit();
  if (all || !strcmp(mode, "pwrite")) pwrite_mode(dir);
  if (all || !strcmp(mode, "write")) write_mode(dir);
  if (all || !strcmp(mode, "grow")) grow(dir);
  if (all || !strcmp(mode, "dup")) dup_mode(dir);
  if (all || !strcmp(mode, "child")) child_mode(dir);
  if (all || !strcmp(mode, "robust")) robust_mode();
  if (all || !strcmp(mode, "clonevm")) clonevm_mode(0);
  if (all || !strcmp(mode, "untraced")) clonevm_mode(1);
  if (all || !strcmp(mode, "spin")) spin_mode();
  return 0;
}
