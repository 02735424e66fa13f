/* SPDX-License-Identifier: MIT */
/* Test program: job control on a terminal of the program's own. A child
 * starts a session, makes a new pty its controlling terminal with TOSTOP
 * set, and forks a grandchild into a background process group, whose
 * tcsetattr on that terminal stops it with SIGTTOU; the child sees it
 * stopped (waitpid with WUNTRACED), continues it and reaps it
 * (tests/recorder/stopsig.sh). Prints "ptystop ok" from the child, or
 * "ptystop skipped" where no pty can be opened. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int child(void) {
  if (setsid() != getpid()) return 1;
  int fd = posix_openpt(O_RDWR | O_NOCTTY);
  if (fd < 0 || grantpt(fd) || unlockpt(fd)) {
    printf("ptystop skipped\n");
    return 0;
  }
  struct termios tios;
  if (ioctl(fd, TIOCSCTTY, 0) || tcsetpgrp(fd, getpid()) ||
      tcgetattr(fd, &tios))
    return 1;
  tios.c_lflag |= TOSTOP;
  if (tcsetattr(fd, TCSANOW, &tios)) return 1;
  pid_t g = fork();
  if (g < 0) return 1;
  if (g == 0) {
    setpgid(0, 0); /* a background group of this terminal */
    tcsetattr(fd, TCSANOW, &tios); /* stops here: SIGTTOU */
    _exit(5);
  }
  int st = 0;
  if (waitpid(g, &st, WUNTRACED) != g || !WIFSTOPPED(st) ||
      WSTOPSIG(st) != SIGTTOU)
    return 1;
  kill(g, SIGKILL);
  if (waitpid(g, &st, 0) != g) return 1;
  printf("ptystop ok\n");
  return 0;
}

int main(void) {
  pid_t c = fork();
  if (c < 0) return 1;
  if (c == 0) return child();
  int st = 0;
  if (waitpid(c, &st, 0) != c) return 1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
