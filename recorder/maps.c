/* SPDX-License-Identifier: MIT */
/* /proc/PID/maps: parsing it into a sorted list of mappings, and comparing
 * two such lists to find what a syscall changed in the address space. The
 * comparison works on byte ranges, so the kernel's merging and splitting of
 * VMAs does not matter. Turning the differences into records is in
 * recorder/space.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "recorder/rec_int.h"

static u32 classify(const char *path, int shared) {
  u32 f = shared ? REC_MAPF_SHARED : REC_MAPF_PRIVATE;
  if (!strcmp(path, "[heap]")) f |= REC_MAPF_HEAP;
  if (!strcmp(path, "[stack]")) f |= REC_MAPF_STACK;
  if (!strcmp(path, "[vdso]")) f |= REC_MAPF_VDSO;
  if (!strncmp(path, "[vvar", 5) || !strcmp(path, "[vsyscall]") ||
      !strcmp(path, "[uprobes]"))
    f |= REC_MAPF_SPECIAL;
  if (!strncmp(path, "/SYSV", 5) || !strncmp(path, "[anon_shmem", 11) ||
      !strncmp(path, "/[aio]", 6) || !strncmp(path, "anon_inode:", 11))
    f |= REC_MAPF_SHMEM;
  return f;
}

int rec__map_is_file(const struct rec__map *m) {
  if (!m->ino || m->path[0] != '/') return 0;
  if (m->flags & (REC_MAPF_SHMEM | REC_MAPF_SPECIAL)) return 0;
  if (!strcmp(m->path, "/dev/zero (deleted)") ||
      !strcmp(m->path, "/dev/zero"))
    return 0;
  return 1;
}

static int parse_line(const char *s, struct rec__map *m) {
  unsigned long long start, end, off, ino;
  unsigned maj, min;
  char perms[8];
  int pos = 0;
  if (sscanf(s, "%llx-%llx %7s %llx %x:%x %llu%n", &start, &end, perms, &off,
             &maj, &min, &ino, &pos) != 7)
    return RW_ECORRUPT;
  if (end < start || strlen(perms) != 4) return RW_ECORRUPT;
  while (s[pos] == ' ' || s[pos] == '\t') pos++;
  m->start = start;
  m->end = end;
  m->offset = off;
  m->ino = ino;
  m->dev = maj << 20 | min;
  m->prot = (perms[0] == 'r' ? PROT_READ : 0) |
            (perms[1] == 'w' ? PROT_WRITE : 0) |
            (perms[2] == 'x' ? PROT_EXEC : 0);
  m->path = strdup(s + pos);
  if (!m->path) return RW_ENOMEM;
  m->flags = classify(m->path, perms[3] == 's');
  return 0;
}

int rec__maps_parse(const char *text, size_t len, struct rec__maps *out) {
  rec__maps_free(out);
  const char *p = text, *end = text + len;
  char line[4096 + 256];
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (n >= sizeof line) n = sizeof line - 1;
    memcpy(line, p, n);
    line[n] = 0;
    p = nl ? nl + 1 : end;
    if (!n) continue;
    struct rec__map e;
    RW_FORWARD(parse_line(line, &e));
    int rc = rec__maps_append(out, &e);
    if (rc < 0) free(e.path);
    RW_FORWARD(rc);
  }
  return 0;
}

/* PROCMAP_QUERY (Linux 6.11): one line of /proc/PID/maps, by address,
 * through an ioctl on that file (the layout of linux/fs.h). */
struct procmap_query_ {
  u64 size, query_flags, query_addr, vma_start, vma_end, vma_flags;
  u64 vma_page_size, vma_offset, inode;
  u32 dev_major, dev_minor, vma_name_size, build_id_size;
  u64 vma_name_addr, build_id_addr;
};
#define PROCMAP_QUERY_ 0xc0686611u /* _IOWR('f', 17, struct procmap_query) */

int rec__maps_query(pid_t pid, u64 addr, struct rec__map *out) {
  static int lacking; /* the kernel has no PROCMAP_QUERY */
  char path[64], name[4096];
  if (lacking) return RW_EUNSUPPORTED;
  snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  RW_RETURN_IF(fd < 0, RW_ERR(errno), "open %s", path);
  struct procmap_query_ q;
  memset(&q, 0, sizeof q);
  q.size = sizeof q;
  q.query_addr = addr;
  q.vma_name_addr = (u64)(uintptr_t)name;
  q.vma_name_size = sizeof name;
  int rc = ioctl(fd, PROCMAP_QUERY_, &q);
  int e = errno;
  close(fd);
  if (rc < 0 && (e == ENOTTY || e == EINVAL || e == EOPNOTSUPP)) {
    lacking = 1;
    return RW_EUNSUPPORTED;
  }
  if (rc < 0) return RW_ERR(e);
  /* maps writes a newline in a name as \012: read the maps then. */
  if (q.vma_start > addr || q.vma_end <= addr || !q.vma_name_size ||
      memchr(name, '\n', q.vma_name_size))
    return RW_ENOTFOUND;
  name[sizeof name - 1] = 0;
  out->start = q.vma_start;
  out->end = q.vma_end;
  out->offset = q.vma_offset;
  out->ino = q.inode;
  out->dev = q.dev_major << 20 | q.dev_minor;
  out->prot = (q.vma_flags & 1 ? PROT_READ : 0) |
              (q.vma_flags & 2 ? PROT_WRITE : 0) |
              (q.vma_flags & 4 ? PROT_EXEC : 0);
  out->path = strdup(name);
  if (!out->path) return RW_ENOMEM;
  out->flags = classify(out->path, (q.vma_flags & 8) != 0);
  return 0;
}

int rec__maps_read(pid_t pid, struct rec__maps *out) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  RW_RETURN_IF(fd < 0, RW_ERR(errno), "open %s", path);
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  int rc = 0;
  for (;;) {
    if (!buf) {
      rc = RW_ENOMEM;
      break;
    }
    if (len == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        continue;
      }
      buf = nb;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      rc = RW_ERR(errno);
      break;
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  if (rc == 0) rc = rec__maps_parse(buf, len, out);
  free(buf);
  return rc;
}

/* 1 when O and N describe the same pages at ADDR (same source and offset),
 * so that only the protection may have changed. */
static int same_source(const struct rec__map *o, const struct rec__map *n,
                       u64 addr) {
  u32 kind = REC_MAPF_SHARED | REC_MAPF_PRIVATE;
  if ((o->flags & kind) != (n->flags & kind)) return 0;
  if (o->ino != n->ino || o->dev != n->dev) return 0;
  if (!o->ino) return 1;
  return o->offset + (addr - o->start) == n->offset + (addr - n->start);
}

static int cmp_u64(const void *a, const void *b) {
  u64 x = *(const u64 *)a, y = *(const u64 *)b;
  return x < y ? -1 : x > y;
}

enum { ACT_NONE, ACT_UNMAP, ACT_MAP, ACT_PROTECT };
struct pending {
  int act;
  u64 a, b;
  const struct rec__map *m;
  u32 prot;
};

static int flush(struct pending *p, const struct rec__maps_ops *ops,
                 void *ctx) {
  int rc = 0;
  if (p->act == ACT_UNMAP) rc = ops->unmap(ctx, p->a, p->b);
  if (p->act == ACT_MAP) rc = ops->map(ctx, p->m, p->a, p->b);
  if (p->act == ACT_PROTECT) rc = ops->protect(ctx, p->a, p->b, p->prot);
  p->act = ACT_NONE;
  return rc;
}

int rec__maps_diff(const struct rec__maps *om, const struct rec__maps *nm,
                   const struct rec__range *skip, size_t nskip,
                   const struct rec__maps_ops *ops, void *ctx) {
  size_t nb = 2 * (rec__maps_count(om) + rec__maps_count(nm) + nskip), k = 0;
  if (!nb) return 0;
  u64 *b = malloc(nb * sizeof *b);
  RW_RETURN_IF(!b, RW_ENOMEM, "diff");
  for (const struct rec__map *e = rec__maps_first(om); e;
       e = rec__maps_next(om, e))
    b[k++] = e->start, b[k++] = e->end;
  for (const struct rec__map *e = rec__maps_first(nm); e;
       e = rec__maps_next(nm, e))
    b[k++] = e->start, b[k++] = e->end;
  for (size_t i = 0; i < nskip; i++)
    b[k++] = skip[i].addr, b[k++] = skip[i].addr + skip[i].len;
  qsort(b, k, sizeof *b, cmp_u64);
  struct pending p = {ACT_NONE, 0, 0, NULL, 0};
  int rc = 0;
  for (size_t i = 0; i + 1 < k && rc == 0; i++) {
    u64 x = b[i], y = b[i + 1];
    if (x == y) continue;
    int skipped = 0;
    for (size_t s = 0; s < nskip; s++)
      if (x >= skip[s].addr && y <= skip[s].addr + skip[s].len) skipped = 1;
    const struct rec__map *o = rec__maps_find(om, x);
    const struct rec__map *n = rec__maps_find(nm, x);
    struct pending q = {ACT_NONE, x, y, n, 0};
    if (skipped || (!o && !n))
      q.act = ACT_NONE;
    else if (!n)
      q.act = ACT_UNMAP;
    else if (!o || !same_source(o, n, x))
      q.act = ACT_MAP;
    else if (o->prot != n->prot)
      q.act = ACT_PROTECT, q.prot = n->prot;
    /* Extend the pending action when this segment continues it. */
    if (q.act != ACT_NONE && q.act == p.act && p.b == x &&
        (q.act == ACT_UNMAP || (q.act == ACT_MAP && q.m == p.m) ||
         (q.act == ACT_PROTECT && q.prot == p.prot))) {
      p.b = y;
      continue;
    }
    rc = flush(&p, ops, ctx);
    p = q;
  }
  if (rc == 0) rc = flush(&p, ops, ctx);
  free(b);
  return rc;
}
