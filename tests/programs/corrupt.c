/* SPDX-License-Identifier: MIT */
/* Test program for debugging one process of a script: `corrupt FILE N`
 * rewrites record N of FILE (lines "record K: ....") in place, upper-casing
 * its text. For N = 3 a bad bound makes it write one byte past the record,
 * over the newline, so the file's fourth line joins the third. A script
 * runs it for N = 1, 2, 3; the test finds the third process with rewind ps
 * and the bad store with a watchpoint and reverse-continue. */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[4096];

/* Upper-cases LEN bytes of the record at REC. */
__attribute__((noinline)) static void shout(char *rec, size_t len, int n) {
  size_t end = n == 3 ? len + 1 : len; /* the bug: one too far for 3 */
  for (size_t i = 0; i < end; i++)
    rec[i] = (char)(i < len ? toupper((unsigned char)rec[i]) : '#'); /* bad */
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  int n = atoi(argv[2]);
  int fd = open(argv[1], O_RDWR);
  if (fd < 0) return 1;
  ssize_t got = read(fd, buf, sizeof buf - 1);
  if (got <= 0) return 1;
  buf[got] = 0;
  char *rec = buf;
  for (int k = 1; k < n && rec; k++) {
    rec = strchr(rec, '\n');
    if (rec) rec++;
  }
  if (!rec || !*rec) return 1;
  size_t len = strcspn(rec, "\n");
  shout(rec, len, n);
  if (pwrite(fd, buf, (size_t)got, 0) != got) return 1; /* gdb: written */
  close(fd);
  return 0;
}
