/* SPDX-License-Identifier: MIT */
/* Files and shared memory behind mappings ("objects"). Every mapping of an
 * inode carries the object's number in its MAP record, so the replay knows
 * which MAP_SHARED mappings are the same bytes. A file the program changes
 * through a syscall while it is mapped (pwrite, write, ftruncate, a
 * truncating open) changes what those mappings show without any access by
 * the program: after such a syscall the recorder imports the changed bytes
 * of every mapping of the file and records a new size with RESIZE. A write
 * to the process's own /proc/PID/mem imports the bytes it wrote. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

static u32 dev_of(dev_t d) { return (u32)(major(d) << 20 | minor(d)); }

static struct rec__obj *obj_find(struct rec *r, u32 dev, u64 ino) {
  for (size_t i = 0; i < r->nobjs; i++)
    if (r->objs[i].dev == dev && r->objs[i].ino == ino) return &r->objs[i];
  return NULL;
}

/* The object a stat of a descriptor or path names. */
static struct rec__obj *obj_stat(struct rec *r, const struct stat *st) {
  struct rec__obj *o = obj_find(r, dev_of(st->st_dev), (u64)st->st_ino);
  for (size_t i = 0; !o && i < r->nobjs; i++)
    if (r->objs[i].sdev == (u64)st->st_dev &&
        r->objs[i].sino == (u64)st->st_ino)
      o = &r->objs[i];
  return o;
}

int rec__obj_dirty(struct rec *r, const struct stat *st) {
  const struct rec__obj *o = obj_stat(r, st);
  return o && o->dirty;
}

/* stat of the file behind M, through /proc/PID/map_files. */
static int map_stat(struct rec *r, const struct rec__map *m, struct stat *st) {
  char mf[128];
  snprintf(mf, sizeof mf, "/proc/%d/map_files/%llx-%llx", (int)r->proc->live,
           (unsigned long long)m->start, (unsigned long long)m->end);
  return stat(mf, st);
}

int rec__obj_of(struct rec *r, const struct rec__map *m, u64 *id) {
  *id = 0;
  if (!m->ino || (m->flags & REC_MAPF_SPECIAL)) return 0;
  struct rec__obj *o = obj_find(r, m->dev, m->ino);
  if (!o) {
    if (r->nobjs == r->capobjs) {
      size_t cap = r->capobjs ? 2 * r->capobjs : 32;
      struct rec__obj *v = realloc(r->objs, cap * sizeof *v);
      RW_RETURN_IF(!v, RW_ENOMEM, "objects");
      r->objs = v, r->capobjs = cap;
    }
    o = &r->objs[r->nobjs++];
    memset(o, 0, sizeof *o);
    o->dev = m->dev;
    o->ino = m->ino;
    o->size = ~0ull; /* unknown until looked at */
    struct stat st;
    if (map_stat(r, m, &st) == 0) {
      o->sdev = (u64)st.st_dev, o->sino = (u64)st.st_ino;
      if (S_ISREG(st.st_mode)) o->size = (u64)st.st_size;
    }
  }
  /* Bytes written through a shared mapping reach the file without changing
   * its modification time reliably: its blob can no longer be reused. */
  if ((m->flags & REC_MAPF_SHARED) && (m->prot & PROT_WRITE)) o->dirty = 1;
  *id = (u64)(o - r->objs) + 1;
  return 0;
}

/* A mapping whose file the program might change under it. Read-only
 * private mappings (libraries, locale data) are not watched: the stat each
 * write-like syscall would cost is not spent on them (docs/design-notes.md,
 * "Shared mappings"). */
static int watched(const struct rec__map *m) {
  if (!m->ino || (m->flags & (REC_MAPF_SPECIAL))) return 0;
  return (m->flags & REC_MAPF_SHARED) || (m->prot & PROT_WRITE);
}

/* The position of FD in the live process after the syscall, or -1. */
static i64 fd_pos(struct rec *r, int fd) {
  char p[64], buf[256];
  snprintf(p, sizeof p, "/proc/%d/fdinfo/%d", (int)r->proc->live, fd);
  int f = open(p, O_RDONLY | O_CLOEXEC);
  if (f < 0) return -1;
  ssize_t n = read(f, buf, sizeof buf - 1);
  close(f);
  if (n <= 0) return -1;
  buf[n] = 0;
  unsigned long long pos;
  return sscanf(buf, "pos: %llu", &pos) == 1 ? (i64)pos : -1;
}


/* Imports what every mapping of O shows of the file bytes [LO, HI). */
static int import_file_range(struct rec *r, const struct rec__obj *o, u64 lo,
                             u64 hi) {
  for (const struct rec__map *m = rec__maps_first(r->proc->maps); m;
       m = rec__maps_next(r->proc->maps, m)) {
    if (m->dev != o->dev || m->ino != o->ino || !rec__prot_reads(m->prot))
      continue;
    u64 fa = m->offset, fb = m->offset + (m->end - m->start);
    u64 x = RW_MAX(lo, fa), y = RW_MIN(hi, fb);
    if (x >= y) continue;
    RW_FORWARD(rec__mem_import(r, m->start + (x - fa), y - x));
  }
  return 0;
}

/* Looks at object O after a syscall that may have changed the bytes
 * [LO, HI) of its file (HI ~0: anywhere) and whose size is now SIZE. */
static int object_changed(struct rec *r, struct rec__obj *o, u64 lo, u64 hi,
                          u64 size) {
  o->dirty = 1;
  if (size != o->size) {
    u64 old = o->size;
    o->size = size;
    RW_FORWARD(rec__emit_resize(r, (u64)(o - r->objs) + 1, size));
    /* The last page of a shrunk file is cut at the new end (zeros after
     * it); a grown one shows zeros where it had none. */
    u64 a = RW_MIN(old, size) & ~(u64)(REC_PAGE - 1);
    u64 b = (RW_MAX(old == ~0ull ? size : old, size) + REC_PAGE - 1) &
            ~(u64)(REC_PAGE - 1);
    if (b - a > 16 * REC_PAGE) b = a + REC_PAGE; /* grown far: zeros */
    RW_FORWARD(import_file_range(r, o, a, b));
  }
  if (hi == ~0ull) hi = size;
  return lo < hi ? import_file_range(r, o, lo, hi) : 0;
}

/* After a truncate(path) or a truncating open: the file is not known by
 * descriptor, so every watched object's size is looked at again. */
static int recheck_sizes(struct rec *r) {
  for (const struct rec__map *m = rec__maps_first(r->proc->maps); m;
       m = rec__maps_next(r->proc->maps, m)) {
    if (!watched(m)) continue;
    struct rec__obj *o = obj_find(r, m->dev, m->ino);
    struct stat st;
    if (!o || map_stat(r, m, &st) < 0 || (u64)st.st_size == o->size) continue;
    RW_FORWARD(object_changed(r, o, (u64)st.st_size, (u64)st.st_size,
                              (u64)st.st_size));
  }
  return 0;
}

/* The recorded process whose /proc/PID/mem (or /proc/PID/task/TID/mem)
 * file FD of the current process is, and a live thread of it into *BY:
 * the process itself, or another one it writes into (a parent patching
 * its child, a debugger-like tool); NULL when FD is something else. */
static struct rec__proc *mem_fd_proc(struct rec *r, int fd,
                                     struct rec__task **by) {
  char p[64], link[96], tail[8];
  int pid, tid;
  snprintf(p, sizeof p, "/proc/%d/fd/%d", (int)r->proc->live, fd);
  ssize_t n = readlink(p, link, sizeof link - 1);
  if (n <= 0) return NULL;
  link[n] = 0;
  if (sscanf(link, "/proc/%d/task/%d/%7s", &pid, &tid, tail) != 3 &&
      sscanf(link, "/proc/%d/%7s", &pid, tail) != 2)
    return NULL;
  if (strcmp(tail, "mem")) return NULL;
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *t = r->th[i];
    if (t->state == REC_T_GONE || !t->proc) continue;
    if (t->tid == pid || t->proc->pid == pid) {
      *by = t;
      return t->proc;
    }
  }
  return NULL;
}

int rec__files_is_object(struct rec *r, const struct stat *st) {
  return obj_stat(r, st) != NULL;
}

/* Whether ADDR is mapped in some recorded process (the current one
 * first): where a write through a /proc/PID/mem file can land. */
static int mapped_somewhere(struct rec *r, u64 addr) {
  if (rec__maps_find(r->proc->maps, addr)) return 1;
  for (size_t i = 0; i < rec__proc_count(r); i++) {
    struct rec__proc *q = rec__proc_at(r, i);
    if (!q->gone && q->maps && rec__maps_find(q->maps, addr)) return 1;
  }
  return 0;
}

/* A write through /proc/PID/mem into the recorded process itself (a JIT
 * filling code pages it keeps read-only, a debugger-like patch) changes its
 * memory at addresses the syscall's arguments name but no output describes,
 * and may write pages the program cannot write itself: the bytes written
 * are imported. The file position is the address.
 *
 * Looking at the descriptor costs a readlink, too much for every write:
 * a positional write is looked at only when its offset lies in a mapping,
 * and one at the file position only once an lseek of such a descriptor
 * into a mapping, or a positional write through one, was seen (the
 * position of a fresh descriptor is 0, where nothing can be written). */
static int own_mem_written(struct rec *r, u64 nr, const u64 args[6],
                           i64 result) {
  if (result <= 0) return 0;
  u64 n = (u64)result, at;
  struct rec__task *by = NULL;
  struct rec__proc *target;
  if (nr == REC_NR_pwrite64 || nr == REC_NR_pwritev ||
      (nr == REC_NR_pwritev2 && (i64)args[3] != -1)) {
    at = args[3];
    if (!mapped_somewhere(r, at) ||
        !(target = mem_fd_proc(r, (int)args[0], &by)))
      return 0;
    r->proc->procmem_seen = 1;
  } else {
    if (!r->proc->procmem_seen ||
        !(target = mem_fd_proc(r, (int)args[0], &by)))
      return 0;
    i64 pos = fd_pos(r, (int)args[0]); /* where the write ended */
    if (pos < 0) return 0;
    at = (u64)pos - n;
  }
  rw_log(RW_LOG_VERBOSE, "write of %llu bytes through /proc/%d/mem at %#llx",
         (unsigned long long)n, (int)target->pid, (unsigned long long)at);
  if (target == r->proc) return rec__mem_import(r, at, n);
  /* Into another recorded process: its memory, in its records. */
  struct rec__task *was = r->cur;
  struct rec__proc *wasp = r->proc;
  rec__set_cur(r, by);
  int rc = rec__mem_import(r, at, n);
  r->cur = was;
  r->proc = wasp;
  return rc;
}

int rec__files_after(struct rec *r, u64 nr, const u64 args[6], i64 result) {
  int fd;
  switch (nr) {
  case REC_NR_write: case REC_NR_writev: case REC_NR_pwrite64:
  case REC_NR_pwritev: case REC_NR_pwritev2:
    RW_FORWARD(own_mem_written(r, nr, args, result));
    break;
  case REC_NR_lseek: /* a position that is an address of ours */
    if (!r->proc->procmem_seen && result > 0 &&
        mapped_somewhere(r, (u64)result)) {
      struct rec__task *by;
      if (mem_fd_proc(r, (int)args[0], &by)) r->proc->procmem_seen = 1;
    }
    return 0;
  default:
    break;
  }
  switch (nr) {
  case REC_NR_write: case REC_NR_writev: case REC_NR_pwrite64:
  case REC_NR_pwritev: case REC_NR_pwritev2: case REC_NR_ftruncate:
  case REC_NR_fallocate: case REC_NR_sendfile:
    fd = (int)args[0];
    break;
  case REC_NR_copy_file_range: case REC_NR_splice:
    fd = (int)args[2];
    break;
  case REC_NR_truncate:
    fd = -1;
    break;
  case REC_NR_open: case REC_NR_creat: case REC_NR_openat:
  case REC_NR_openat2: {
    u64 fl = nr == REC_NR_open ? args[1] : nr == REC_NR_openat ? args[2] : 0;
    if (nr == REC_NR_openat2) {
      u8 how[8];
      if (rec__mem_read(r, args[2], how, 8) == 8) fl = rd_le64(how);
    }
    if (nr != REC_NR_creat && !(fl & O_TRUNC)) return 0;
    fd = -1;
    break;
  }
  default:
    return 0;
  }
  if (result < 0) return 0;
  const struct rec__map *m = rec__maps_first(r->proc->maps);
  while (m && !watched(m)) m = rec__maps_next(r->proc->maps, m);
  if (!m) return 0; /* nothing mapped that could change */
  if (fd < 0) return recheck_sizes(r);
  char p[64];
  struct stat st;
  snprintf(p, sizeof p, "/proc/%d/fd/%d", (int)r->proc->live, fd);
  if (stat(p, &st) < 0 || !S_ISREG(st.st_mode)) return 0;
  struct rec__obj *o = obj_stat(r, &st);
  if (!o) return 0;
  u64 lo = 0, hi = ~0ull, n = (u64)result;
  switch (nr) {
  case REC_NR_pwrite64: case REC_NR_pwritev:
    lo = args[3], hi = lo + n;
    break;
  case REC_NR_pwritev2:
  case REC_NR_write: case REC_NR_writev: {
    if (nr == REC_NR_pwritev2 && (i64)args[3] != -1) {
      lo = args[3], hi = lo + n;
      break;
    }
    i64 pos = fd_pos(r, fd); /* where the write ended */
    if (pos >= (i64)n) lo = (u64)pos - n, hi = (u64)pos;
    break;
  }
  case REC_NR_ftruncate:
    lo = hi = 0; /* only the size */
    break;
  default:
    break;
  }
  return object_changed(r, o, lo, hi, (u64)st.st_size);
}
