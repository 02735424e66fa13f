/* SPDX-License-Identifier: MIT */
/* Test program: writes into its own memory through /proc/self/mem and
 * /proc/thread-self/mem, as JITs and patchers do. Those writes reach pages
 * the program keeps read-only (the kernel writes them anyway) and show in
 * no syscall output. It writes a function into a read-and-execute page
 * with write after lseek, calls it, rewrites it with pwrite and calls it
 * again (the emulator must drop the old code), and changes a read-only
 * data page with pwritev through the thread's own file. Prints what it
 * saw. The first write is at the file position, after an lseek. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

typedef int (*fn)(void);

int main(void) {
  unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *data = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                    0);
  int fd = open("/proc/self/mem", O_RDWR);
  int tfd = open("/proc/thread-self/mem", O_RDWR);
  if (code == MAP_FAILED || data == MAP_FAILED || fd < 0 || tfd < 0) {
    perror("procmem setup");
    return 1;
  }
  static const unsigned char f42[] = {0xb8, 42, 0, 0, 0, 0xc3}; /* mov eax,42; ret */
  static const unsigned char f7[] = {0xb8, 7, 0, 0, 0, 0xc3};   /* mov eax,7; ret */
  ssize_t n1 = -1;
  if (lseek(fd, (off_t)(uintptr_t)(code + 64), SEEK_SET) >= 0)
    n1 = write(fd, f42, sizeof f42);
  int r1 = ((fn)(void *)(code + 64))();
  ssize_t n2 = pwrite(fd, f7, sizeof f7, (off_t)(uintptr_t)(code + 64));
  int r2 = ((fn)(void *)(code + 64))();
  char a[] = "hello ", b[] = "from /proc";
  struct iovec iov[2] = {{a, strlen(a)}, {b, strlen(b)}};
  ssize_t n3 = pwritev(tfd, iov, 2, (off_t)(uintptr_t)(data + 1000));
  printf("write %zd, call %d; pwrite %zd, call %d; pwritev %zd, data '%s'\n",
         n1, r1, n2, r2, n3, data + 1000);
  return r1 == 42 && r2 == 7 ? 0 : 1;
}
