/* SPDX-License-Identifier: MIT */
/* Test program: asynchronous stops inside rep string instructions. The CPU
 * takes an interrupt between two iterations of a rep movs or rep stos, and
 * the registers a signal or a preemption then shows are those of the
 * instruction half done: rip still at it, rcx the iterations left.
 *
 *   repstop signal ROUNDS   ITIMER_PROF ticks while rep movsb and rep stosq
 *                           copy and fill 8 MiB buffers ROUNDS times
 *   repstop threads ROUNDS  two threads do the same, each on its own
 *                           buffers, with no syscall between (preemptions)
 *   repstop one ROUNDS      one thread does the same
 *   repstop tree ROUNDS     a child does the same, then runs this program
 *                           again (repstop one ROUNDS: one process, two
 *                           images) while its parent does it too
 *
 * Prints a checksum of the buffers and, for signal, whether ticks came.
 * The test needs a tick inside a rep instruction: signal goes on past
 * ROUNDS (up to 50 times as many) until its handler has seen one, with
 * rip at a rep and rcx between 0 and the count (on a loaded machine the
 * ticks may all land elsewhere in the first rounds). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>

#define SIZE (8u << 20)

static volatile sig_atomic_t ticks, midrep;

static void on_prof(int sig, siginfo_t *si, void *ctx) {
  (void)sig;
  (void)si;
  const ucontext_t *uc = ctx;
  const greg_t *g = uc->uc_mcontext.gregs;
  const unsigned char *ip = (const unsigned char *)g[REG_RIP];
  unsigned long long rcx = (unsigned long long)g[REG_RCX];
  ticks++;
  /* rep movsb (f3 a4) or rep stosq (f3 48 ab), started, not done */
  if (ip[0] == 0xf3 && (ip[1] == 0xa4 || (ip[1] == 0x48 && ip[2] == 0xab)) &&
      rcx > 0 && rcx < (ip[1] == 0xa4 ? SIZE : SIZE / 8))
    midrep = 1;
}

static void rep_movsb(void *dst, const void *src, size_t n) {
  __asm__ volatile("rep movsb"
                   : "+D"(dst), "+S"(src), "+c"(n)
                   :
                   : "memory");
}

static void rep_stosq(void *dst, uint64_t v, size_t n) {
  __asm__ volatile("rep stosq" : "+D"(dst), "+c"(n) : "a"(v) : "memory");
}

struct job {
  unsigned char *a, *b;
  int rounds;
  int until_midrep; /* go on until a tick came inside a rep */
  uint64_t sum;
};

static void *work(void *arg) {
  struct job *j = arg;
  for (int r = 0; r < j->rounds || (j->until_midrep && !midrep &&
                                    r < 50 * j->rounds);
       r++) {
    rep_stosq(j->a, 0x0101010101010101ull * (uint64_t)(r + 1), SIZE / 8);
    j->a[(unsigned)r * 4099u % SIZE] ^= (unsigned char)r;
    rep_movsb(j->b, j->a, SIZE);
    for (unsigned i = 0; i < SIZE; i += 4096) j->sum = j->sum * 31 + j->b[i];
  }
  return NULL;
}

static struct job *job_new(int rounds) {
  struct job *j = calloc(1, sizeof *j);
  if (j) j->a = malloc(SIZE), j->b = malloc(SIZE);
  if (!j || !j->a || !j->b) {
    perror("malloc");
    exit(1);
  }
  j->rounds = rounds;
  return j;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: repstop signal|threads ROUNDS\n");
    return 2;
  }
  int rounds = atoi(argv[2]);
  if (!strcmp(argv[1], "signal")) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_prof;
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigaction(SIGPROF, &sa, NULL);
    struct itimerval it = {{0, 500}, {0, 500}};
    setitimer(ITIMER_PROF, &it, NULL);
    struct job *j = job_new(rounds);
    j->until_midrep = 1;
    work(j);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    printf("sum %016llx, %s%s\n", (unsigned long long)j->sum,
           ticks ? "ticked" : "no ticks", midrep ? ", inside a rep" : "");
    return 0;
  }
  if (!strcmp(argv[1], "threads")) {
    struct job *j1 = job_new(rounds), *j2 = job_new(rounds);
    pthread_t t1, t2;
    pthread_create(&t1, NULL, work, j1);
    pthread_create(&t2, NULL, work, j2);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("sums %016llx %016llx\n", (unsigned long long)j1->sum,
           (unsigned long long)j2->sum);
    return 0;
  }
  if (!strcmp(argv[1], "one") || !strcmp(argv[1], "tree")) {
    pid_t kid = argv[1][0] == 't' ? fork() : -1;
    struct job *j = job_new(rounds);
    work(j);
    if (kid == 0) {
      execl("/proc/self/exe", argv[0], "one", argv[2], (char *)NULL);
      perror("execl");
      _exit(1);
    }
    int st = 0;
    if (kid > 0 && (waitpid(kid, &st, 0) != kid || st != 0)) return 1;
    printf("sum %016llx\n", (unsigned long long)j->sum);
    return 0;
  }
  fprintf(stderr, "repstop: unknown mode %s\n", argv[1]);
  return 2;
}
