/* SPDX-License-Identifier: MIT */
/* Test program for the checks of what registers do not show (tests/replay/
 * outputs.sh). It never branches on the bytes it reads, so a trace with
 * one of those bytes changed reaches every syscall with the recorded
 * registers, and only the checks of output bytes and of memory at the end
 * can see the change.
 *
 *   outcheck echo SENT KEPT   reads SENT into a buffer and writes it to
 *                             stdout with write, then writev; reads KEPT
 *                             into memory that is never sent out; exits 0
 *   outcheck spin SECONDS     makes syscalls, and writes to /dev/null,
 *                             until SECONDS have passed (to be killed)
 *   outcheck crash SENT KEPT HOW
 *                             as echo, then dies of a signal: HOW segv
 *                             (a store to address 0), abort (SIGABRT),
 *                             kill (SIGKILL sent to itself) */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static char kept[256];
static volatile long argc_zero; /* 0, unknown to the compiler */

static int echo(const char *sent, const char *keep) {
  char buf[256];
  int fd = open(sent, O_RDONLY);
  if (fd < 0) return 1;
  ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  if (n < 0) return 1;
  if (write(1, buf, (size_t)n) != n) return 1;
  struct iovec iov[3] = {
      {(void *)"[", 1}, {buf, (size_t)n}, {(void *)"]\n", 2}};
  if (writev(1, iov, 3) != n + 3) return 1;
  fd = open(keep, O_RDONLY);
  if (fd < 0) return 1;
  n = read(fd, kept, sizeof kept);
  close(fd);
  return n < 0;
}

static int spin(int secs) {
  char line[64];
  memset(line, 'x', sizeof line);
  int fd = open("/dev/null", O_WRONLY);
  time_t end = time(NULL) + secs;
  for (long i = 0; time(NULL) < end; i++) {
    syscall(SYS_getppid);
    if (i % 16 == 0 && write(fd, line, sizeof line) < 0) return 1;
    if (i % 256 == 0) usleep(1000);
  }
  return 0;
}

static int crash(const char *sent, const char *keep, const char *how) {
  if (echo(sent, keep)) return 1;
  if (!strcmp(how, "segv")) *(volatile int *)(long)(argc_zero) = 1;
  if (!strcmp(how, "abort")) abort();
  if (!strcmp(how, "kill")) raise(SIGKILL);
  return 3;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "crash"))
    return crash(argv[2], argv[3], argv[4]);
  if (argc == 4 && !strcmp(argv[1], "echo")) return echo(argv[2], argv[3]);
  if (argc == 3 && !strcmp(argv[1], "spin")) return spin(atoi(argv[2]));
  return 2;
}
