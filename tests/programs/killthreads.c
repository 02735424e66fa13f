/* SPDX-License-Identifier: MIT */
/* Test program: a child process of two threads killed with SIGKILL by its
 * parent while one thread spins in user code and the other sleeps in
 * nanosleep with a pointer for the time left, which the kernel fills in
 * as the kill cuts the sleep short. The replay must find the spinning
 * thread where the kill stopped it, with the memory the kernel wrote and
 * before the sleeper's exit clears its thread id (tests/recorder/
 * threads.sh). Prints "killthreads ok 1". */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fds[2];

static void *sleeper(void *arg) {
  struct timespec ts = {1000, 0}, left = {0, 0};
  char c = 's';
  (void)arg;
  if (write(fds[1], &c, 1) != 1) return NULL;
  nanosleep(&ts, &left);
  return NULL;
}

int main(void) {
  if (pipe(fds)) return 1;
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    pthread_t th;
    if (pthread_create(&th, NULL, sleeper, NULL)) _exit(1);
    for (volatile unsigned long turns = 0;; turns++) {
    }
  }
  char c;
  if (read(fds[0], &c, 1) != 1) return 1;
  usleep(1000); /* the sleeper asleep, the spinner spinning */
  kill(pid, SIGKILL);
  int st = 0;
  if (waitpid(pid, &st, 0) != pid) return 1;
  printf("killthreads ok %d\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  return 0;
}
