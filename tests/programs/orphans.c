/* SPDX-License-Identifier: MIT */
/* The first process ends before its children: a child that outlives it
 * (a background job, a daemon) writes a file after the parent is gone, and
 * exits with 3. tests/replay/procs.sh checks that a debugger of the first
 * process sees its history end at its own exit, and that --verify still
 * checks the children to the end of the recording. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int stage; /* a watchpoint's target in the parent */

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: orphans FILE\n");
    return 2;
  }
  stage = 1;
  pid_t p = fork();
  if (p < 0) return 1;
  if (p == 0) {
    usleep(50000); /* the parent has exited by now */
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "late child\n", 11) != 11) _exit(1);
    _exit(3);
  }
  stage = 2;
  printf("parent leaves child %d\n", (int)p);
  stage = 3;
  return 0;
}
