/* SPDX-License-Identifier: MIT */
/* Test program, processes: fork (the child runs unrecorded), vfork whose
 * child writes into the parent's memory before _exit, and posix_spawn of
 * /bin/true. Prints what the vfork child left behind. */
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static volatile char shared[64];

int main(void) {
  int st, ok = 0;
  pid_t pid = fork();
  if (pid == 0) _exit(3);
  waitpid(pid, &st, 0);
  ok += WIFEXITED(st) && WEXITSTATUS(st) == 3;
  pid = vfork();
  if (pid == 0) {
    memcpy((char *)shared, "written-by-vfork-child", 23);
    _exit(4);
  }
  waitpid(pid, &st, 0);
  ok += WIFEXITED(st) && WEXITSTATUS(st) == 4;
  char *av[] = {"true", NULL};
  if (posix_spawn(&pid, "/bin/true", NULL, NULL, av, environ) == 0) {
    waitpid(pid, &st, 0);
    ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
  }
  printf("ok %d shared '%s'\n", ok, (const char *)shared);
  return 0;
}
