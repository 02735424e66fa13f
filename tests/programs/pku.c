/* SPDX-License-Identifier: MIT */
/* Protection keys (tests/replay/pku.sh): the PKRU register as the program
 * and the kernel change it. The program's own wrpkru and xrstor; the
 * kernel's default rights at the start of an image and in a signal
 * handler, the rights rt_sigreturn restores, pkey_alloc's new key, and a
 * thread that starts with its parent's. Prints each value; with an
 * argument it is the image that execve started. Needs a CPU whose OS
 * enabled protection keys (the test skips otherwise). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned rdpkru(void) {
  unsigned a, d;
  __asm__ volatile(".byte 0x0f, 0x01, 0xee" : "=a"(a), "=d"(d) : "c"(0));
  return a;
}

static void wrpkru(unsigned v) {
  __asm__ volatile(".byte 0x0f, 0x01, 0xef" : : "a"(v), "c"(0), "d"(0));
}

static volatile unsigned in_handler;

/* Where the test's gdb stops to read $pkru. */
__attribute__((noinline)) void pku_mark(int step, unsigned value) {
  __asm__ volatile("" : : "r"(step), "r"(value) : "memory");
}

static void on_usr1(int sig) {
  (void)sig;
  in_handler = rdpkru();
  pku_mark(2, in_handler);
  wrpkru(0x0c); /* undone by rt_sigreturn */
}

static void *thread_main(void *arg) {
  (void)arg;
  return (void *)(unsigned long)rdpkru();
}

static unsigned char area[4096] __attribute__((aligned(64)));

/* xsave of PKRU alone (component 9), then xrstor of the same image. */
static unsigned xsave_roundtrip(unsigned scratch) {
  memset(area, 0, sizeof area);
  __asm__ volatile("xsave %0" : "+m"(area) : "a"(0x200), "d"(0));
  wrpkru(scratch);
  __asm__ volatile("xrstor %0" : : "m"(area), "a"(0x200), "d"(0)
                   : "memory");
  return rdpkru();
}

int main(int argc, char **argv) {
  printf("start %#x\n", rdpkru());
  if (argc > 1) return 0; /* the image execve started */
  wrpkru(0x10);
  pku_mark(1, rdpkru());
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  printf("handler %#x after %#x\n", in_handler, rdpkru());
  int key = pkey_alloc(0, PKEY_DISABLE_WRITE);
  printf("pkey %d pkru %#x\n", key, rdpkru());
  pku_mark(3, rdpkru());
  pthread_t t;
  void *got;
  if (pthread_create(&t, NULL, thread_main, NULL) || pthread_join(t, &got))
    return 1;
  printf("thread %#lx\n", (unsigned long)got);
  printf("xrstor %#x\n", xsave_roundtrip(0x3c));
  if (key >= 0) pkey_free(key);
  wrpkru(0);
  printf("zero %#x\n", rdpkru());
  fflush(stdout);
  char *args[] = {argv[0], "image", NULL};
  execv("/proc/self/exe", args);
  perror("execv");
  return 1;
}
