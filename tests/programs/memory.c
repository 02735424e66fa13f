/* SPDX-License-Identifier: MIT */
/* Test program, the address space: anonymous and file mmap, mprotect,
 * munmap, mremap (grow in place and move), MAP_FIXED, madvise, brk through
 * malloc, a writable MAP_SHARED file mapping (which rewind warns about) and a
 * syscall outside the recorder's table (get_mempolicy, diffed). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long sum = 0;
  char *p = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  memset(p, 7, 1 << 16);
  mprotect(p, 4096, PROT_READ);
  munmap(p + 8192, 4096);
  char *q = mremap(p + 12288, 4096, 1 << 20, MREMAP_MAYMOVE);
  if (q == MAP_FAILED) return 2;
  q[(1 << 20) - 1] = 1;
  sum += q[0] + q[(1 << 20) - 1];
  char *f = mmap(p + 16384, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  sum += f[0];
  madvise(p + 20480, 4096, MADV_DONTNEED);
  sum += p[20480];
  char *big = malloc(300000);
  memset(big, 1, 300000);
  char *small = malloc(100);
  strcpy(small, "heap");
  if (argc > 1) {
    int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate(fd, 4096) < 0) return 3;
    char *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (s == MAP_FAILED) return 4;
    strcpy(s, "shared");
    munmap(s, 4096);
    close(fd);
  }
  int mode = 0x7777;
  long r = syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0);
  printf("sum %ld big %d small %s mempolicy %ld mode %d\n", sum, big[299999],
         small, r, mode);
  free(big);
  return 0;
}
