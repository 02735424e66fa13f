/* SPDX-License-Identifier: MIT */
/* Tracee memory: reading and writing it (process_vm_readv, with /proc/PID/mem
 * for pages the former refuses), and turning byte ranges into MEM records at
 * cache-line granularity (DESIGN.md section 2). What to import is decided
 * elsewhere (syscall table, signal frames, exec image, generic diff). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

int rec__ranges_add(struct rec__ranges *rs, u64 addr, u64 len) {
  if (!addr || !len) return 0;
  if (rs->n == rs->cap) {
    size_t cap = rs->cap ? rs->cap * 2 : 16;
    struct rec__range *v = realloc(rs->v, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "ranges");
    rs->v = v;
    rs->cap = cap;
  }
  rs->v[rs->n].addr = addr;
  rs->v[rs->n].len = len;
  rs->n++;
  return 0;
}

void rec__ranges_free(struct rec__ranges *rs) {
  free(rs->v);
  rs->v = NULL;
  rs->n = rs->cap = 0;
}

int rec__mem_open(struct rec *r) {
  char path[64];
  if (r->proc->memfd >= 0) close(r->proc->memfd);
  snprintf(path, sizeof path, "/proc/%d/mem", (int)r->proc->live);
  r->proc->memfd = open(path, O_RDWR | O_CLOEXEC);
  if (r->proc->memfd < 0) r->proc->memfd = open(path, O_RDONLY | O_CLOEXEC);
  RW_RETURN_IF(r->proc->memfd < 0, RW_ERR(errno), "open %s", path);
  return 0;
}

i64 rec__mem_read(void *ctx, u64 addr, void *dst, size_t len) {
  struct rec *r = ctx;
  size_t got = 0;
  while (got < len) {
    struct iovec l = {(u8 *)dst + got, len - got};
    struct iovec rv = {(void *)(uintptr_t)(addr + got), len - got};
    ssize_t n = process_vm_readv(r->proc->live, &l, 1, &rv, 1, 0);
    if (n > 0) {
      got += (size_t)n;
      continue;
    }
    /* Unreadable for process_vm_readv (PROT_NONE, PROT_WRITE alone, a
     * partial page): try the mem file, which reads with the kernel's
     * FOLL_FORCE. A forked child has none open until it is needed. */
    if (addr + got > (u64)INT64_MAX ||
        (r->proc->memfd < 0 && rec__mem_open(r) < 0))
      break;
    ssize_t m = pread(r->proc->memfd, (u8 *)dst + got, len - got,
                      (off_t)(addr + got));
    if (m <= 0) break;
    got += (size_t)m;
  }
  /* For a keyframe: the bytes the trace has, not rewind's int3s. */
  const struct rec__proc *p = r->proc;
  if (r->kf.unpatch && got && p->ntscp) {
    size_t lo = 0, hi = p->ntscp;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (p->tscp[mid].addr < addr) lo = mid + 1;
      else hi = mid;
    }
    for (; lo < p->ntscp && p->tscp[lo].addr < addr + got; lo++)
      ((u8 *)dst)[p->tscp[lo].addr - addr] = p->tscp[lo].orig;
  }
  return (i64)got;
}

int rec__mem_write(struct rec *r, u64 addr, const void *src, size_t len) {
  struct iovec l = {(void *)src, len};
  struct iovec rv = {(void *)(uintptr_t)addr, len};
  ssize_t n = process_vm_writev(r->proc->live, &l, 1, &rv, 1, 0);
  if (n == (ssize_t)len) return 0;
  /* Read-only memory (code): through the mem file, opened now in a forked
   * child, which has not execed. */
  if (r->proc->memfd < 0) RW_FORWARD(rec__mem_open(r));
  n = pwrite(r->proc->memfd, src, len, (off_t)addr);
  RW_RETURN_IF(n != (ssize_t)len, n < 0 ? RW_ERR(errno) : RW_EFAULT,
               "pwrite mem %#llx", (unsigned long long)addr);
  return 0;
}

/* Appends a MEM record for the LEN bytes at P. */
static int emit_at(struct rec *r, u64 addr, const u8 *p, size_t len) {
  r->n.mem_bytes += len;
  return rec__emit_mem(r, addr, p, len);
}

int rec__mem_emit(struct rec *r, u64 addr, const u8 *data, size_t len) {
  while (len > 0) {
    size_t n = RW_MIN(len, (size_t)REC_BUF);
    RW_FORWARD(emit_at(r, addr, data, n));
    addr += n, data += n, len -= n;
  }
  return 0;
}

int rec__mem_import(struct rec *r, u64 addr, u64 len) {
  u64 a = addr & ~(u64)(REC_LINE - 1);
  u64 b = (addr + len + REC_LINE - 1) & ~(u64)(REC_LINE - 1);
  if (b < a) b = ~(u64)(REC_LINE - 1); /* wrapped: stop at the top */
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, r->buf, n);
    got &= ~(i64)(REC_LINE - 1);
    if (got > 0) RW_FORWARD(emit_at(r, a, r->buf, (size_t)got));
    if ((size_t)got < n) {
      /* Skip the unreadable page and go on with the next one. */
      u64 next = ((a + (u64)got) | (REC_PAGE - 1)) + 1;
      if (next <= a) break;
      a = next;
    } else {
      a += n;
    }
  }
  return 0;
}

static int all_zero(const u8 *p, size_t n) {
  const u64 *q = (const u64 *)(const void *)p;
  for (size_t i = 0; i < n / 8; i++)
    if (q[i]) return 0;
  return 1;
}

int rec__mem_import_nonzero(struct rec *r, u64 a, u64 b) {
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, r->buf, n);
    got &= ~(i64)(REC_LINE - 1);
    u8 *p = r->buf;
    size_t run = 0, i;
    for (i = 0; i < (size_t)got; i += REC_LINE) {
      if (!all_zero(p + i, REC_LINE)) {
        run += REC_LINE;
        continue;
      }
      if (run) RW_FORWARD(emit_at(r, a + i - run, p + i - run, run));
      run = 0;
    }
    if (run) RW_FORWARD(emit_at(r, a + i - run, p + i - run, run));
    if ((size_t)got < n) {
      u64 next = ((a + (u64)got) | (REC_PAGE - 1)) + 1;
      if (next <= a) break;
      a = next;
    } else {
      a += n;
    }
  }
  return 0;
}
