/* SPDX-License-Identifier: MIT */
/* Test program for `rewind record -p`: a threaded server that is already
 * running when the recorder attaches, and its client.
 *
 *   attachee serve SOCKET   listens on the Unix socket SOCKET; each
 *                           connection is served by a thread of a pool of
 *                           three: a line "N" gets back "sum(1..N) tick\n"
 *                           (tick: how often the ticker thread has run), a
 *                           line "quit" ends the server, which prints how
 *                           many requests it answered and exits 0. A
 *                           ticker thread meanwhile reads the clocks and
 *                           the time stamp counter every few milliseconds
 *                           and checks they never go backwards. Prints
 *                           "ready PID" once it listens.
 *   attachee compute N [K [filter]]
 *                           one thread computing: prints "ready PID",
 *                           then runs N rounds of arithmetic that read the
 *                           clock and the time stamp counter now and then
 *                           (the result does not depend on them), and
 *                           calls getppid every K rounds when K is given
 *                           (with the round in rcx, which the syscall
 *                           instruction overwrites),
 *                           and prints "result X"; the same N always gives
 *                           the same X. With "filter", it first gives
 *                           itself a seccomp filter that allows
 *                           everything.
 *   attachee client SOCKET N [quit]
 *                           sends N requests on one connection, checks
 *                           every answer, then "quit" if asked; exits 0
 *                           when every answer was right.
 *
 * The server allows any process to trace it (PR_SET_PTRACER), so that a
 * recorder that is not its parent may attach where Yama restricts ptrace. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <x86intrin.h>

#define POOL 3

/* getppid with V in rcx before the syscall instruction: a thread stopped
 * at its entry has another value there (the return address). */
static void getppid_rcx(unsigned long v) {
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret), "+c"(v)
                   : "a"(110L)
                   : "r11", "memory");
  (void)ret;
}

static int lsock;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static int queue[64], qhead, qtail;
static volatile long served, ticks;
static volatile int quitting;

/* A line from FD into BUF (CAP bytes), without its newline; -1 at the end. */
static int read_line(int fd, char *buf, size_t cap) {
  size_t n = 0;
  for (;;) {
    char c;
    ssize_t k = read(fd, &c, 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    if (c == '\n' || n + 1 == cap) break;
    buf[n++] = c;
  }
  buf[n] = 0;
  return (int)n;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

static void serve_one(int c) {
  char line[64], out[96];
  while (read_line(c, line, sizeof line) >= 0) {
    if (!strcmp(line, "quit")) {
      quitting = 1;
      shutdown(lsock, SHUT_RDWR);
      break;
    }
    long n = atol(line), sum = 0;
    for (long i = 1; i <= n; i++) sum += i;
    int len = snprintf(out, sizeof out, "%ld %ld\n", sum, ticks);
    if (write_all(c, out, (size_t)len) < 0) break;
    __atomic_add_fetch(&served, 1, __ATOMIC_SEQ_CST);
  }
  close(c);
}

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    while (qhead == qtail && !quitting) pthread_cond_wait(&more, &lock);
    if (qhead == qtail) {
      pthread_mutex_unlock(&lock);
      return NULL;
    }
    int c = queue[qhead++ % 64];
    pthread_mutex_unlock(&lock);
    serve_one(c);
  }
}

static void *ticker(void *arg) {
  (void)arg;
  struct timespec last = {0, 0}, now, nap = {0, 3000000};
  unsigned long long tsc0 = __rdtsc();
  while (!quitting) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    unsigned long long tsc = __rdtsc();
    if (now.tv_sec < last.tv_sec ||
        (now.tv_sec == last.tv_sec && now.tv_nsec < last.tv_nsec) ||
        tsc < tsc0) {
      fprintf(stderr, "attachee: time went backwards\n");
      exit(3);
    }
    last = now;
    tsc0 = tsc;
    ticks++;
    nanosleep(&nap, NULL);
  }
  return NULL;
}

static int serve(const char *path) {
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  pthread_t pool[POOL], tk;
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
  snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
  unlink(path);
  lsock = socket(AF_UNIX, SOCK_STREAM, 0);
  if (lsock < 0 || bind(lsock, (struct sockaddr *)&a, sizeof a) < 0 ||
      listen(lsock, 16) < 0) {
    perror("attachee: listen");
    return 1;
  }
  for (int i = 0; i < POOL; i++) pthread_create(&pool[i], NULL, worker, NULL);
  pthread_create(&tk, NULL, ticker, NULL);
  printf("ready %d\n", (int)getpid());
  fflush(stdout);
  while (!quitting) {
    int c = accept(lsock, NULL, NULL);
    if (c < 0) {
      if (errno == EINTR) continue;
      break;
    }
    pthread_mutex_lock(&lock);
    queue[qtail++ % 64] = c;
    pthread_cond_signal(&more);
    pthread_mutex_unlock(&lock);
  }
  quitting = 1;
  pthread_mutex_lock(&lock);
  pthread_cond_broadcast(&more);
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < POOL; i++) pthread_join(pool[i], NULL);
  pthread_join(tk, NULL);
  printf("served %ld\n", served);
  unlink(path);
  return 0;
}

static int client(const char *path, long n, int quit) {
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  char line[96];
  snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
    perror("attachee: connect");
    return 1;
  }
  for (long i = 1; i <= n; i++) {
    long k = 1000 + i % 5000, sum, tick;
    int len = snprintf(line, sizeof line, "%ld\n", k);
    if (write_all(s, line, (size_t)len) < 0 ||
        read_line(s, line, sizeof line) < 0 ||
        sscanf(line, "%ld %ld", &sum, &tick) != 2 || sum != k * (k + 1) / 2) {
      fprintf(stderr, "attachee: request %ld: bad answer '%s'\n", i, line);
      return 1;
    }
  }
  if (quit) write_all(s, "quit\n", 5);
  close(s);
  return 0;
}

static int compute(long n, long every) {
  unsigned long long x = 88172645463325252ull, t = 0;
  struct timespec ts;
  printf("ready %d\n", (int)getpid());
  fflush(stdout);
  for (long i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    if (every && i % every == 0) getppid_rcx((unsigned long)i);
    if (!(i & 0xfffff)) {
      clock_gettime(CLOCK_MONOTONIC, &ts);
      t += __rdtsc() != 0;
    }
  }
  printf("result %llx %s\n", x, t ? "ticked" : "no-ticks");
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[4], "filter")) {
    struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {1, &allow};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
      perror("attachee: seccomp");
      return 1;
    }
    argc = 4;
  }
  if ((argc == 3 || argc == 4) && !strcmp(argv[1], "compute"))
    return compute(atol(argv[2]), argc == 4 ? atol(argv[3]) : 0);
  if (argc == 3 && !strcmp(argv[1], "serve")) return serve(argv[2]);
  if ((argc == 4 || argc == 5) && !strcmp(argv[1], "client"))
    return client(argv[2], atol(argv[3]), argc == 5 && !strcmp(argv[4], "quit"));
  fprintf(stderr, "usage: attachee serve SOCKET | compute N [K [filter]] | "
          "client SOCKET N [quit]\n");
  return 2;
}
