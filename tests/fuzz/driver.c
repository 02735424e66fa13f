/* SPDX-License-Identifier: MIT */
/* The plain driver linked with a fuzz target when libFuzzer is not used
 * (STYLE R19): feeds every file named on the command line, and every file in
 * each directory named, to LLVMFuzzerTestOneInput, each from an allocation
 * of exactly its size. A crash, abort or sanitizer report is the failure;
 * otherwise it prints "N passed, M failed" (M counts unreadable inputs) and
 * exits 0 when M is 0 and N is not. Shared by every fuzz target. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

/* Feeds the file PATH to the target. Returns 0, or -1 if unreadable. */
static int feed(const char *path) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf, *exact;
  size_t len = 0, cap = 1 << 16, n;
  if (!f) return -1;
  buf = malloc(cap);
  while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len == cap) {
      unsigned char *bigger = realloc(buf, cap *= 2);
      if (!bigger) break;
      buf = bigger;
    }
  }
  fclose(f);
  if (!buf) return -1;
  exact = malloc(len ? len : 1);
  if (!exact) {
    free(buf);
    return -1;
  }
  memcpy(exact, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

int main(int argc, char **argv) {
  unsigned passed = 0, failed = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    DIR *d;
    struct dirent *e;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "%s: cannot stat\n", argv[i]);
      failed++;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (feed(argv[i]) == 0) passed++; else failed++;
      continue;
    }
    d = opendir(argv[i]);
    if (!d) {
      failed++;
      continue;
    }
    while ((e = readdir(d))) {
      char path[4096];
      if (e->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) continue;
      if (feed(path) == 0) {
        passed++;
      } else {
        fprintf(stderr, "%s: unreadable\n", path);
        failed++;
      }
    }
    closedir(d);
  }
  printf("%u passed, %u failed\n", passed, failed);
  return failed || !passed ? 1 : 0;
}
