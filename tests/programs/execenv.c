/* SPDX-License-Identifier: MIT */
/* Test program: execve with an environment of its own. A failed execve
 * must leave the program's registers and memory as they were; the image
 * run with an empty environment uses glibc's string functions, which pick
 * their instructions by what the environment allows. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

/* execve through a raw syscall, returning the result and whether rdx (the
 * environment pointer) came back unchanged, as the ABI promises. */
static long raw_execve(const char *path, char *const *argv, char *const *envp,
                       int *rdx_kept) {
  long ret;
  register char *const *rdx __asm__("rdx") = envp;
  __asm__ volatile("syscall"
                   : "=a"(ret), "+r"(rdx)
                   : "0"((long)SYS_execve), "D"(path), "S"(argv)
                   : "rcx", "r11", "memory");
  *rdx_kept = rdx == envp;
  return ret;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child")) {
    /* String functions over a long buffer: glibc's choice of variant. */
    static char buf[1 << 16];
    memset(buf, 'x', sizeof buf - 1);
    size_t n = strlen(buf) + strlen(strchr(buf, 'x')) +
               (size_t)(memchr(buf, 0, sizeof buf) != NULL);
    printf("child: environ %s, len %zu\n", environ[0] ? "set" : "empty", n);
    return 0;
  }
  char var[] = "REWIND_TEST_VAR=kept";
  char *envp[] = {var, NULL};
  char *cargv[] = {argv[0], "child", NULL};
  int kept;
  long rc = raw_execve("/nonexistent/program", cargv, envp, &kept);
  printf("failed execve: %ld, rdx kept %d, env %s %s\n", rc, kept,
         envp[0] == var ? "same" : "changed", envp[0]);
  fflush(stdout);
  char *empty[] = {NULL};
  execve("/proc/self/exe", cargv, empty);
  perror("execve");
  return 1;
}
