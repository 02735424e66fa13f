/* SPDX-License-Identifier: MIT */
/* Test program: a process that keeps changing for about SECONDS (argument,
 * default 1; a second argument "light": little computing, as many
 * syscalls; a third, MB: a heap of MB megabytes no two pages alike, slow
 * to read) in every way a recorder keyframe must catch, so that
 * keyframes written every few milliseconds land in all of them
 * (tests/replay/keyframes.sh): a thread computing, one blocked on a pipe,
 * one waiting on a condition variable, the main thread sleeping; a heap
 * that grows and shrinks (mmap, munmap, brk), vector registers in use,
 * and a file read into memory. Prints a checksum at the end: every
 * thread does at least one round, however late the system runs it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t started; /* the threads and main: the clock starts */
static volatile int stop, ticks, light;
static unsigned long sums[3];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Computes, with vector registers, on memory it maps and unmaps. */
static void *compute(void *arg) {
  (void)arg;
  unsigned long s = 0;
  pthread_barrier_wait(&started);
  do {
    size_t n = light ? 512 : (size_t)1 << (12 + (s % 7));
    double *v = mmap(NULL, n * sizeof *v, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (v == MAP_FAILED) return NULL;
    for (size_t i = 0; i < n; i++) v[i] = (double)(i ^ s) * 0.5;
    double acc = 0;
    for (size_t i = 0; i < n; i++) acc += v[i] * v[n - 1 - i];
    s += (unsigned long)acc % 1000 + 1;
    munmap(v, n * sizeof *v);
    char *p = malloc(1000 + s % 5000);
    memset(p, (int)s, 1000);
    s += (unsigned char)p[999];
    free(p);
    if (light) {
      struct timespec ts = {0, 200000};
      nanosleep(&ts, NULL);
    }
  } while (!stop);
  sums[0] = s;
  return NULL;
}

/* Blocks on the pipe between the main thread's writes. */
static void *reader(void *arg) {
  (void)arg;
  char buf[256];
  unsigned long s = 0;
  ssize_t n;
  pthread_barrier_wait(&started);
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; i++) s = s * 31 + (unsigned char)buf[i];
  sums[1] = s;
  return NULL;
}

/* Waits on a condition variable the main thread signals. */
static void *waiter(void *arg) {
  (void)arg;
  unsigned long s = 0;
  /* Holding the lock from before the clock starts, it is waiting when the
   * first signal comes: at least one wake-up. */
  pthread_mutex_lock(&mu);
  pthread_barrier_wait(&started);
  do {
    pthread_cond_wait(&cv, &mu);
    s += (unsigned long)ticks + 1;
  } while (!stop);
  pthread_mutex_unlock(&mu);
  sums[2] = s;
  return NULL;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 1.0;
  light = argc > 2 && !strcmp(argv[2], "light");
  size_t heap = argc > 3 ? (size_t)atol(argv[3]) << 20 : 0;
  unsigned char *h = heap ? malloc(heap) : NULL;
  unsigned long x = 88172645463325252ul;
  for (size_t i = 0; h && i + 8 <= heap; i += 8) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    memcpy(h + i, &x, 8);
  }
  if (pipe(fds) < 0) return 1;
  pthread_t t[3];
  pthread_barrier_init(&started, NULL, 4);
  pthread_create(&t[0], NULL, compute, NULL);
  pthread_create(&t[1], NULL, reader, NULL);
  pthread_create(&t[2], NULL, waiter, NULL);
  pthread_barrier_wait(&started);
  double end = now() + secs;
  unsigned long fsum = 0;
  for (int k = 0; now() < end; k++) {
    struct timespec ts = {0, light ? 300000 : 3000000};
    nanosleep(&ts, NULL);
    char msg[64];
    int len = snprintf(msg, sizeof msg, "tick %d\n", k);
    if (write(fds[1], msg, (size_t)len) != len) return 1;
    pthread_mutex_lock(&mu);
    ticks = k;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    if (k % 16 == 0) { /* a file's bytes into memory */
      FILE *f = fopen("/proc/self/exe", "rb");
      if (f) {
        char b[4096];
        size_t got = fread(b, 1, sizeof b, f);
        for (size_t i = 0; i < got; i++) fsum += (unsigned char)b[i];
        fclose(f);
      }
    }
    void *brk0 = sbrk(0);
    if (sbrk(4096 * (k % 3 + 1)) != (void *)-1) {
      memset(brk0, k, 4096);
      sbrk(-4096 * (k % 3 + 1));
    }
  }
  stop = 1;
  close(fds[1]);
  pthread_mutex_lock(&mu);
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  free(h);
  printf("kfwork: %lu %lu %lu %lu\n", sums[0] != 0, sums[1] != 0,
         sums[2] != 0, fsum != 0);
  return 0;
}
