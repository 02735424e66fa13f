/* SPDX-License-Identifier: MIT */
/* Ways a program grows its stack without a syscall, one per argument
 * (tests/replay/stack.sh records and verifies each):
 *   array      a 1 MiB local array touched from its lowest address first
 *   recurse N  recursion N deep (frames of about 100 bytes)
 *   sigframe   a signal delivered while rsp is 512 KiB below anything
 *              touched: the kernel's frame write grows the stack
 *   altstack   a handler on a sigaltstack, with a big frame of its own
 *   kread      a syscall reads 600 KiB below the stack (the kernel grows
 *              it; the replay sees no access, only the recorder's GROW)
 *   growsdown  a MAP_GROWSDOWN mapping written 40 KiB below its start
 *   thread     a thread (an ordinary mapping, not grows-down) with a big
 *              frame
 *   overflow   unbounded recursion under a 1 MiB RLIMIT_STACK: SIGSEGV
 *   caught     the same, with a SIGSEGV handler on a sigaltstack that
 *              reports the depth (in a syscall's argument, which the replay
 *              compares) and exits 0
 * Each mode that survives maps and unmaps a page afterwards, so that the
 * recorder compares the maps again and sees the grown stack. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BIG (1 << 20)

/* Initialised, so that it is not next to anything a signal frame covers:
 * the replay must compute it, not import it. */
static volatile long depth = -1;
static volatile sig_atomic_t handled;

/* Touches a 1 MiB frame from its lowest address up. */
__attribute__((noinline)) static long big_frame(void) {
  volatile char a[BIG];
  for (long i = 0; i < BIG; i += 4096) a[i] = (char)(i >> 12);
  long s = 0;
  for (long i = BIG - 4096; i >= 0; i -= 4096) s += a[i];
  return s;
}

__attribute__((noinline)) static long recurse(long n) {
  volatile char pad[64];
  pad[0] = (char)n;
  depth = n;
  if (n == 0) return 0;
  return recurse(n - 1) + pad[0];
}

__attribute__((noinline)) static long forever(long n) {
  volatile char pad[64];
  pad[0] = (char)n;
  depth = n;
  return forever(n + 1) + pad[0];
}

static void on_usr1(int sig) {
  volatile char local[16384];
  for (size_t i = 0; i < sizeof local; i += 512) local[i] = (char)sig;
  handled = handled + 1 + local[512];
}

static void on_segv(int sig) {
  (void)sig;
  char msg[64];
  int n = snprintf(msg, sizeof msg, "overflow at depth %ld\n", depth);
  syscall(SYS_getpid, depth); /* the depth is compared in the replay */
  if (write(1, msg, (size_t)n) < 0) _exit(2);
  _exit(0);
}

static void on_signal(int sig, void (*fn)(int), int onstack) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sa.sa_flags = onstack ? SA_ONSTACK : 0;
  sigaction(sig, &sa, NULL);
}

static void altstack(void) {
  size_t size = 128 * 1024;
  void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) abort();
  stack_t ss = {.ss_sp = mem, .ss_size = size, .ss_flags = 0};
  sigaltstack(&ss, NULL);
}

/* kill(getpid(), SIGUSR1) with rsp 512 KiB lower than it is, nothing in
 * between touched: the signal frame lands far below the stack. */
static void signal_far_below(void) {
  long pid = getpid();
  __asm__ volatile(
      "mov %%rsp, %%r12\n\t"
      "sub $0x80000, %%rsp\n\t"
      "and $-16, %%rsp\n\t"
      "mov %[nr], %%eax\n\t"
      "mov %[pid], %%rdi\n\t"
      "mov %[sig], %%esi\n\t"
      "syscall\n\t"
      "mov %%r12, %%rsp"
      :
      : [nr] "i"(SYS_kill), [pid] "r"(pid), [sig] "i"(SIGUSR1)
      : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
        "memory", "cc");
}

/* Sends 64 bytes from 600 KiB below this frame through a pipe, and returns
 * the sum of what came back. */
__attribute__((noinline)) static long kernel_reads_below(void) {
  int fd[2];
  unsigned char back[64];
  const char *below = (const char *)__builtin_frame_address(0) - 600 * 1024;
  if (pipe(fd) != 0) return -1;
  if (write(fd[1], below, sizeof back) != (ssize_t)sizeof back) return -2;
  if (read(fd[0], back, sizeof back) != (ssize_t)sizeof back) return -3;
  long s = 0;
  for (size_t i = 0; i < sizeof back; i++) s += back[i];
  close(fd[0]);
  close(fd[1]);
  return s;
}

/* A MAP_GROWSDOWN mapping far from the others (the guard gap), then a
 * write 40 KiB below its start: the kernel grows it. */
static long grows_down_mapping(void) {
  size_t size = 64 * 1024;
  char *p = mmap((void *)0x200000000000ull, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0);
  if (p == MAP_FAILED) return -1;
  volatile char *below = p - 40 * 1024;
  *below = 7;
  return *below + p[0];
}

static void *thread_main(void *arg) {
  (void)arg;
  return (void *)big_frame();
}

static void limit_stack(rlim_t bytes) {
  struct rlimit rl;
  getrlimit(RLIMIT_STACK, &rl);
  rl.rlim_cur = bytes;
  if (setrlimit(RLIMIT_STACK, &rl) != 0) perror("setrlimit");
}

static void look_at_maps(void) {
  void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) munmap(p, 4096);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "array";
  long r = 0;
  if (!strcmp(mode, "array")) {
    r = big_frame();
  } else if (!strcmp(mode, "recurse")) {
    r = recurse(argc > 2 ? atol(argv[2]) : 4000);
  } else if (!strcmp(mode, "sigframe")) {
    on_signal(SIGUSR1, on_usr1, 0);
    signal_far_below();
    r = handled;
  } else if (!strcmp(mode, "altstack")) {
    altstack();
    on_signal(SIGUSR1, on_usr1, 1);
    raise(SIGUSR1);
    r = handled;
  } else if (!strcmp(mode, "kread")) {
    r = kernel_reads_below();
  } else if (!strcmp(mode, "growsdown")) {
    r = grows_down_mapping();
  } else if (!strcmp(mode, "thread")) {
    pthread_t t;
    void *ret;
    if (pthread_create(&t, NULL, thread_main, NULL) != 0) return 3;
    pthread_join(t, &ret);
    r = (long)ret;
  } else if (!strcmp(mode, "overflow") || !strcmp(mode, "caught")) {
    limit_stack(1 << 20);
    if (!strcmp(mode, "caught")) {
      altstack();
      on_signal(SIGSEGV, on_segv, 1);
    }
    r = forever(0);
  } else {
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  look_at_maps();
  printf("%s: %ld\n", mode, r);
  return 0;
}
