/* SPDX-License-Identifier: MIT */
/* Test program, the end of an exec chain: prints its arguments. */
#include <stdio.h>

int main(int argc, char **argv) {
  printf("exec_target");
  for (int i = 1; i < argc; i++) printf(" %s", argv[i]);
  printf("\n");
  return 0;
}
