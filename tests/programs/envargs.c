/* SPDX-License-Identifier: MIT */
/* Test program, environment and arguments: prints its arguments, the
 * variables named in them, and its working directory; exits with argc. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  char cwd[512];
  for (int i = 1; i < argc; i++) {
    const char *v = getenv(argv[i]);
    printf("arg %d %s = %s\n", i, argv[i], v ? v : "(unset)");
  }
  if (getcwd(cwd, sizeof cwd)) printf("cwd %s\n", cwd);
  return argc;
}
