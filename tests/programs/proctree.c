/* SPDX-License-Identifier: MIT */
/* Test program, process trees: a parent and three children add to a
 * counter in anonymous MAP_SHARED memory under a process-shared mutex; a
 * child execs a program (argv[1], if given); a child kills itself with
 * SIGKILL; the parent SIGKILLs a child blocked in pause(); a
 * double-forked grandchild reports through a pipe. Prints
 * what it saw; the replay must reproduce every process. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct shm {
  pthread_mutex_t lock;
  long counter;
  long order[64];
  int norder;
};

static void add(struct shm *s, int who, int n) {
  for (int i = 0; i < n; i++) {
    pthread_mutex_lock(&s->lock);
    s->counter += who;
    if (s->norder < 64) s->order[s->norder++] = who;
    pthread_mutex_unlock(&s->lock);
    if (i % 50 == 0) sched_yield();
  }
}

int main(int argc, char **argv) {
  struct shm *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) return 1;
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
  pthread_mutex_init(&s->lock, &a);
  pid_t kids[3];
  for (int k = 0; k < 3; k++) {
    kids[k] = fork();
    if (kids[k] == 0) {
      add(s, k + 2, 300);
      _exit(10 + k);
    }
  }
  add(s, 1, 300);
  int st, sum = 0;
  for (int k = 0; k < 3; k++) {
    waitpid(kids[k], &st, 0);
    sum += WEXITSTATUS(st);
  }
  printf("counter %ld, statuses %d\n", s->counter, sum); /* gdb: counted */
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    if (argc > 1) execv(argv[1], argv + 1);
    _exit(127);
  }
  waitpid(p, &st, 0);
  printf("exec child: exit %d\n", WEXITSTATUS(st));
  p = fork();
  if (p == 0) {
    kill(getpid(), SIGKILL);
    _exit(0);
  }
  waitpid(p, &st, 0);
  printf("killed child: signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  /* One killed by its parent while it waits in the kernel: it dies while
   * another process runs, which then goes on writing memory. */
  p = fork();
  if (p == 0) {
    pause();
    _exit(0);
  }
  usleep(10000);
  kill(p, SIGKILL);
  waitpid(p, &st, 0);
  static char scratch[1 << 16];
  for (size_t i = 0; i < sizeof scratch; i++) scratch[i] = (char)(i * 7);
  printf("blocked child: signal %d, %d\n",
         WIFSIGNALED(st) ? WTERMSIG(st) : 0, scratch[1001]);
  int fd[2];
  if (pipe(fd)) return 1;
  p = fork();
  if (p == 0) {
    if (fork() == 0) { /* the daemon: its parent is gone when it writes */
      close(fd[0]);
      setsid();
      usleep(20000);
      char msg[64];
      int n = snprintf(msg, sizeof msg, "daemon in session %d\n",
                       getsid(0) == getpid());
      if (write(fd[1], msg, (size_t)n) < 0) _exit(1);
      _exit(0);
    }
    _exit(0);
  }
  waitpid(p, &st, 0);
  close(fd[1]);
  char buf[64] = "";
  ssize_t n = read(fd[0], buf, sizeof buf - 1);
  if (n > 0) buf[n] = 0;
  printf("%s", buf);
  return 0;
}
