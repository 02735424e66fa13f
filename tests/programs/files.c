/* SPDX-License-Identifier: MIT */
/* Test program, files and directories: reads a file of known content (argv[1])
 * with read, pread and readv, stats it, lists a directory it creates, renames
 * and removes files. The end-to-end test finds the bytes read in the trace. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  char buf[4096], a[16], b[16], dir[256], path[300], cwd[512];
  if (argc < 3) return 2;
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) return 3;
  ssize_t n = read(fd, buf, sizeof buf);
  ssize_t m = pread(fd, a, sizeof a, 4);
  struct iovec iov[2] = {{a, 8}, {b, 8}};
  lseek(fd, 0, SEEK_SET);
  ssize_t k = readv(fd, iov, 2);
  struct stat st;
  fstat(fd, &st);
  close(fd);
  printf("read %zd pread %zd readv %zd size %lld\n", n, m, k,
         (long long)st.st_size);
  snprintf(dir, sizeof dir, "%s/dir", argv[2]);
  if (mkdir(dir, 0755) < 0) return 4;
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/f%d", dir, i);
    int f = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (f < 0 || write(f, path, strlen(path)) < 0) return 5;
    close(f);
  }
  snprintf(path, sizeof path, "%s/f0", dir);
  char to[300];
  snprintf(to, sizeof to, "%s/g0", dir);
  if (rename(path, to) < 0) return 6;
  DIR *d = opendir(dir);
  int entries = 0;
  struct dirent *e;
  while ((e = readdir(d))) entries++;
  closedir(d);
  struct statx sx;
  statx(AT_FDCWD, to, 0, STATX_SIZE, &sx);
  char link[256];
  ssize_t ln = readlink("/proc/self/exe", link, sizeof link - 1);
  if (!getcwd(cwd, sizeof cwd)) return 7;
  for (int i = 1; i < 3; i++) {
    snprintf(path, sizeof path, "%s/f%d", dir, i);
    unlink(path);
  }
  unlink(to);
  rmdir(dir);
  printf("entries %d statx %llu readlink %d\n", entries,
         (unsigned long long)sx.stx_size, ln > 0);
  return 0;
}
