/* SPDX-License-Identifier: MIT */
/* Which pages of a mapping can hold anything but zero bytes. A private
 * anonymous page that was never touched (or swapped) reads as zero, so the
 * memory diffs and the digest skip it; the PAGEMAP_SCAN ioctl of
 * /proc/PID/pagemap (Linux 6.7) lists the others without walking terabytes
 * of reserved address space (sanitizer shadows, language runtimes' heaps).
 * On older kernels every page counts. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "recorder/rec_int.h"

/* From linux/fs.h (6.7), which older headers lack. */
struct rec__page_region {
  u64 start, end, categories;
};
struct rec__pm_scan_arg {
  u64 size, flags, start, end, walk_end, vec, vec_len, max_pages;
  u64 category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define REC_PAGEMAP_SCAN _IOWR('f', 16, struct rec__pm_scan_arg)
#define REC_PAGE_IS_PRESENT (1u << 3)
#define REC_PAGE_IS_SWAPPED (1u << 4)

static int scan_fd = -2; /* -2: not opened yet, -1: no PAGEMAP_SCAN */
static pid_t scan_pid;

void rec__pages_reset(void) {
  if (scan_fd >= 0) close(scan_fd);
  scan_fd = -2;
}

static int pagemap(pid_t pid) {
  if (scan_fd != -2 && scan_pid == pid) return scan_fd;
  rec__pages_reset();
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/pagemap", (int)pid);
  scan_pid = pid;
  scan_fd = open(path, O_RDONLY | O_CLOEXEC);
  if (scan_fd < 0) scan_fd = -1;
  return scan_fd;
}

int rec__populated(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                   int (*fn)(void *ctx, u64 a, u64 b), void *ctx) {
  if (a >= b) return 0;
  int fd =
      (m->ino || !(m->flags & REC_MAPF_PRIVATE)) ? -1 : pagemap(r->live);
  if (fd < 0) return fn(ctx, a, b);
  struct rec__page_region v[64];
  u64 at = a;
  while (at < b) {
    struct rec__pm_scan_arg s = {0};
    s.size = sizeof s;
    s.start = at;
    s.end = b;
    s.vec = (u64)(uintptr_t)v;
    s.vec_len = RW_ARRAY_SIZE(v);
    s.category_anyof_mask = REC_PAGE_IS_PRESENT | REC_PAGE_IS_SWAPPED;
    s.return_mask = REC_PAGE_IS_PRESENT | REC_PAGE_IS_SWAPPED;
    int n = ioctl(fd, REC_PAGEMAP_SCAN, &s);
    if (n < 0) {
      if (errno == EINTR) continue;
      close(scan_fd);
      scan_fd = -1; /* not supported: every page from now on */
      return fn(ctx, at, b);
    }
    for (int i = 0; i < n; i++) RW_FORWARD(fn(ctx, v[i].start, v[i].end));
    if (s.walk_end <= at) break;
    at = s.walk_end;
  }
  return 0;
}
