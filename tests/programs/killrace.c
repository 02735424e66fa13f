/* SPDX-License-Identifier: MIT */
/* Test program: children killed with SIGKILL while they make syscalls one
 * after another, so that the kill lands while the recorder handles one of
 * their stops. ROUNDS (argument, default 200) times: fork a child that
 * calls uname(2) and sched_yield(2) in a loop (syscalls the recorder
 * stops at; the yield lets the parent run soon), tell the parent it runs,
 * kill it, reap it. Prints "killrace ok N" when every child died of
 * SIGKILL. */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 200, ok = 0;
  for (int i = 0; i < rounds; i++) {
    int fds[2];
    if (pipe(fds)) return 1;
    pid_t c = fork();
    if (c < 0) return 1;
    if (c == 0) {
      struct utsname u;
      char x = 'x';
      if (write(fds[1], &x, 1) != 1) _exit(1);
      for (;;) {
        uname(&u);
        sched_yield(); /* the parent gets its turn: the kill comes soon */
      }
    }
    char x;
    if (read(fds[0], &x, 1) != 1) return 1;
    for (int k = 0; k < i % 4; k++) sched_yield(); /* other moments */
    kill(c, SIGKILL);
    int st;
    if (waitpid(c, &st, 0) == c && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
      ok++;
    close(fds[0]);
    close(fds[1]);
  }
  printf("killrace ok %d\n", ok);
  return ok == rounds ? 0 : 1;
}
