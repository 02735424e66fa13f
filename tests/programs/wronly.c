/* SPDX-License-Identifier: MIT */
/* Test program: memory mapped PROT_WRITE alone, which x86-64 lets a
 * program read too but process_vm_readv does not. Three such pages
 * (private anonymous, shared anonymous, a shared mapping of a file); a
 * forked child fills them, one also through read() from a pipe, and
 * exits; the parent then reads what the child left in the shared ones and
 * writes its own pages. Prints "wronly ok" and sums of what each saw. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { N = 4096 / sizeof(int) };

static int *wmap(int flags, int fd) {
  void *p = mmap(NULL, 4096, PROT_WRITE, flags, fd, 0);
  if (p == MAP_FAILED) {
    perror("wronly: mmap");
    exit(1);
  }
  return p;
}

static long sum(const int *p) {
  long s = 0;
  for (int i = 0; i < N; i++) s += p[i];
  return s;
}

int main(void) {
  FILE *f = tmpfile();
  if (!f || ftruncate(fileno(f), 4096)) return 1;
  int *priv = wmap(MAP_PRIVATE | MAP_ANONYMOUS, -1);
  int *shan = wmap(MAP_SHARED | MAP_ANONYMOUS, -1);
  int *shfile = wmap(MAP_SHARED, fileno(f));
  int fds[2];
  if (pipe(fds)) return 1;
  pid_t c = fork();
  if (c < 0) return 1;
  if (c == 0) {
    for (int i = 0; i < N; i++) {
      priv[i] = 3 * i;
      shan[i] = 5 * i;
      shfile[i] = 7 * i;
    }
    static const char msg[] = "from the pipe";
    if (write(fds[1], msg, sizeof msg) != (ssize_t)sizeof msg ||
        read(fds[0], (char *)priv + 100, sizeof msg) != (ssize_t)sizeof msg)
      _exit(1);
    printf("child %ld %ld %ld %s\n", sum(priv), sum(shan), sum(shfile),
           (char *)priv + 100);
    fflush(stdout);
    _exit(0);
  }
  int st;
  if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st)) return 1;
  long ps = sum(priv), ss = sum(shan), fs = sum(shfile);
  for (int i = 0; i < N; i++) priv[i] = shan[i] + shfile[i];
  printf("parent %ld %ld %ld %ld\n", ps, ss, fs, sum(priv));
  puts(ps == 0 && ss == 5L * N * (N - 1) / 2 && fs == 7L * N * (N - 1) / 2
           ? "wronly ok"
           : "wronly WRONG");
  return 0;
}
