/* SPDX-License-Identifier: MIT */
/* Test program, a long run: makes a syscall now and then for SECONDS
 * (argv[1], default 30), so that a recording of it can be killed midway. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int secs = argc > 1 ? atoi(argv[1]) : 30;
  time_t end = time(NULL) + secs;
  while (time(NULL) < end) usleep(20000);
  return 0;
}
