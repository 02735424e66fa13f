/* SPDX-License-Identifier: MIT */
/* Following the address space from the syscalls themselves. Reading
 * /proc/PID/maps costs time in proportion to the number of mappings, so a
 * program that cuts a region into tens of thousands of pieces, one mprotect
 * at a time, would cost the square of that. Most changes are fully decided
 * by the syscall's arguments and result: a successful munmap, an mprotect
 * or madvise of private anonymous memory, a private anonymous mmap, and a
 * file mmap once the kernel's PROCMAP_QUERY has said what it mapped. For
 * those the recorder writes the records and updates its model (r->proc->maps)
 * itself, in time that depends on the pieces the syscall touches, and
 * reads the maps (recorder/space.c) for everything else: brk, mremap,
 * failures, stacks. It never trusts the model while another
 * process may change the address space unrecorded (a CLONE_VM child), or
 * when the personality adds PROT_EXEC on its own. Stack growth, which no
 * syscall reports, is found at the next read as before. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder/rec_int.h"

#define REC_PROT_KNOWN 0xfu            /* READ, WRITE, EXEC, SEM */
#define REC_MAP_TYPE 0xfu              /* MAP_SHARED, MAP_PRIVATE, ... */
#define REC_MAP_UNINITIALIZED 0x4000000u
#define REC_READ_IMPLIES_EXEC 0x0400000u
#define REC_KCMP_VM 1

static u64 page_up(u64 x) { return (x + REC_PAGE - 1) & ~(u64)(REC_PAGE - 1); }

void rec__follow_personality(struct rec *r) {
  char path[64], buf[32];
  snprintf(path, sizeof path, "/proc/%d/personality", (int)r->proc->live);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
  if (fd >= 0) close(fd);
  /* Unknown: assume the worst, the model is then never used. */
  if (n <= 0) {
    r->proc->read_exec = 1;
    return;
  }
  buf[n] = 0;
  r->proc->read_exec = (strtoul(buf, NULL, 16) & REC_READ_IMPLIES_EXEC) != 0;
}

void rec__follow_exec(struct rec *r) {
  r->proc->brk = 0;
  r->proc->nsharers =
      0; /* exec gives the process an address space of its own */
  r->proc->sharers_left = 0;
  rec__follow_personality(r);
}

int rec__follow_sharer(struct rec *r, pid_t child) {
  if (r->proc->nsharers == r->proc->capsharers) {
    size_t cap = r->proc->capsharers ? 2 * r->proc->capsharers : 4;
    pid_t *v = realloc(r->proc->sharers, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "sharers");
    r->proc->sharers = v;
    r->proc->capsharers = cap;
  }
  r->proc->sharers[r->proc->nsharers++] = child;
  return 0;
}

size_t rec__sharers_live(struct rec *r) {
  size_t k = 0;
  for (size_t i = 0; i < r->proc->nsharers; i++) {
    long rc = syscall(SYS_kcmp, (pid_t)r->proc->live, r->proc->sharers[i],
                      REC_KCMP_VM, 0, 0);
    if (rc == 0 || (rc < 0 && errno != ESRCH))
      r->proc->sharers[k++] = r->proc->sharers[i];
  }
  if (r->proc->nsharers && !k)
    r->proc->sharers_left = 1; /* the maps are read once more */
  return r->proc->nsharers = k;
}

/* Whether the model can be trusted: nobody else changed the address space
 * unseen since the maps were last read. While there are sharers the maps
 * are read every time, and once more after the last one is gone (it may
 * have changed them before). */
static int trusted(struct rec *r) {
  if (r->proc->read_exec) return 0;
  if (r->proc->nsharers) rec__sharers_live(r);
  if (r->proc->nsharers) return 0;
  if (r->proc->sharers_left) { /* the last one may have changed them before */
    r->proc->sharers_left = 0;
    return 0;
  }
  return 1;
}

/* Private anonymous memory that the recorder may change on its own: not a
 * stack (which grows unseen), nothing special or shared. */
static int plain(const struct rec__map *m) {
  return !m->ino && (m->flags & REC_MAPF_PRIVATE) &&
         !(m->flags & (REC_MAPF_SPECIAL | REC_MAPF_SHMEM | REC_MAPF_STACK |
                       REC_MAPF_GROWSDOWN));
}

/* 1 when the model maps all of [A, B) with plain mappings. */
static int all_plain(const struct rec__maps *m, u64 a, u64 b) {
  u64 at = a;
  for (const struct rec__map *e = rec__maps_from(m, a); e && e->start < b;
       e = rec__maps_next(m, e)) {
    if (e->start > at || !plain(e)) return 0;
    at = e->end;
  }
  return at >= b;
}

/* The range [*A, *B) of ADDR and LEN as the kernel rounds it; 0 when it
 * wraps. */
static int range(u64 addr, u64 len, u64 *a, u64 *b) {
  *a = addr & ~(u64)(REC_PAGE - 1);
  *b = page_up(addr + len);
  return *b >= *a && addr + len >= addr;
}

static int do_munmap(struct rec *r, const u64 args[6], int *done) {
  u64 a, b;
  if (!range(args[0], args[1], &a, &b)) return 0;
  /* All of it, also what the model never had: the bottom of a stack that
   * grew since the maps were last read. */
  if (b > a) RW_FORWARD(rec__emit_unmap(r, a, b - a));
  RW_FORWARD(rec__maps_remove(r->proc->maps, a, b));
  *done = 1;
  return 0;
}

static int emit_protect(struct rec *r, u64 a, u64 b, u32 prot) {
  if (a >= b) return 0;
  RW_FORWARD(rec__emit_protect(r, a, b - a, prot));
  return (prot & PROT_EXEC) ? rec__tsc_patch_range(r, a, b) : 0;
}

static int do_mprotect(struct rec *r, const u64 args[6], int *done) {
  u64 a, b;
  if ((args[2] & ~(u64)REC_PROT_KNOWN) || !range(args[0], args[1], &a, &b) ||
      !all_plain(r->proc->maps, a, b))
    return 0;
  u32 prot = (u32)args[2] & (PROT_READ | PROT_WRITE | PROT_EXEC);
  /* One PROTECT per run of pieces whose protection changes. */
  u64 x0 = 0, y0 = 0;
  for (const struct rec__map *e = rec__maps_from(r->proc->maps, a);
       e && e->start < b; e = rec__maps_next(r->proc->maps, e)) {
    u64 x = RW_MAX(a, e->start), y = RW_MIN(b, e->end);
    if (e->prot == prot) continue;
    if (x != y0) {
      RW_FORWARD(emit_protect(r, x0, y0, prot));
      x0 = x;
    }
    y0 = y;
  }
  RW_FORWARD(emit_protect(r, x0, y0, prot));
  RW_FORWARD(rec__maps_protect(r->proc->maps, a, b, prot));
  *done = 1;
  return 0;
}

/* A file mmap: the kernel says what it mapped (rec__maps_query), so that
 * a program (ld.so) mapping its libraries piece by piece does not have the
 * whole maps read at each piece. One mapping must hold all of [A, B). */
static int do_mmap_file(struct rec *r, u64 a, u64 b, int *done) {
  struct rec__map m;
  int rc = rec__maps_query(r->proc->live, a, &m);
  if (rc == RW_EUNSUPPORTED || rc == RW_ENOTFOUND) return 0;
  RW_FORWARD(rc);
  if (m.end < b || !m.ino || m.path[0] != '/' ||
      (m.flags & (REC_MAPF_SPECIAL | REC_MAPF_SHMEM))) {
    free(m.path);
    return 0;
  }
  /* What the kernel merged with it was there before: only [A, B) is new. */
  m.offset += a - m.start;
  m.start = a;
  m.end = b;
  rc = rec__space_describe(r, &m, a, b, REC_DESCRIBE_NEW);
  if (rc == 0) rc = rec__maps_remove(r->proc->maps, a, b);
  if (rc == 0) rc = rec__maps_insert(r->proc->maps, &m);
  free(m.path);
  RW_FORWARD(rc);
  *done = 1;
  return 0;
}

static int do_mmap(struct rec *r, const u64 args[6], i64 result, int *done) {
  u64 fl = args[3], a, b;
  int file = !(fl & MAP_ANONYMOUS) && ((fl & REC_MAP_TYPE) == MAP_PRIVATE ||
                                      (fl & REC_MAP_TYPE) == MAP_SHARED);
  if (((fl & REC_MAP_TYPE) != MAP_PRIVATE && !file) ||
      (fl & (MAP_GROWSDOWN | MAP_HUGETLB | REC_MAP_UNINITIALIZED)) ||
      (args[2] & ~(u64)REC_PROT_KNOWN) ||
      !range((u64)result, args[1], &a, &b) || a >= b)
    return 0;
  /* What it replaced (MAP_FIXED) is gone; without MAP_FIXED nothing was
   * there, or the model is wrong: then the maps are read. */
  for (const struct rec__map *e = rec__maps_from(r->proc->maps, a);
       e && e->start < b; e = rec__maps_next(r->proc->maps, e))
    if (!(fl & MAP_FIXED) || (e->flags & (REC_MAPF_STACK | REC_MAPF_GROWSDOWN)))
      return 0;
  if (file) return do_mmap_file(r, a, b, done);
  char anon[1] = "";
  struct rec__map m = {0};
  m.start = a;
  m.end = b;
  m.prot = (u32)args[2] & (PROT_READ | PROT_WRITE | PROT_EXEC);
  m.flags = REC_MAPF_PRIVATE;
  m.path = anon;
  /* Fresh zeros: no bytes to import, no rdtsc to patch. */
  RW_FORWARD(rec__emit_map(r, a, b - a, m.prot, m.flags, 0, NULL, m.path, 0));
  RW_FORWARD(rec__maps_remove(r->proc->maps, a, b));
  RW_FORWARD(rec__maps_insert(r->proc->maps, &m));
  *done = 1;
  return 0;
}

/* madvise advice that leaves the contents and the maps as they are (the
 * kernel may split mappings for them, which the records do not see):
 * NORMAL, RANDOM, SEQUENTIAL, WILLNEED, DONTFORK, DOFORK, MERGEABLE,
 * UNMERGEABLE, HUGEPAGE, NOHUGEPAGE, DONTDUMP, DODUMP, WIPEONFORK,
 * KEEPONFORK, COLD, PAGEOUT, POPULATE_READ, POPULATE_WRITE, COLLAPSE. */
static int advice_neutral(u64 adv) {
  return adv <= 3 || (adv >= 10 && adv <= 23) || adv == 25;
}

/* DONTNEED, FREE (made DONTNEED at entry), REMOVE, DONTNEED_LOCKED. */
static int advice_discards(u64 adv) {
  return adv == 4 || adv == 8 || adv == 9 || adv == 24;
}

static int do_madvise(struct rec *r, const u64 args[6], i64 result,
                      int *done) {
  u64 a, b;
  if ((args[2] == 10 || args[2] == 18) && result == 0)
    r->proc->fork_advice = 1; /* DONTFORK, WIPEONFORK: recorder/children.c */
  if (advice_neutral(args[2])) {
    *done = 1;
    return 0;
  }
  /* A failure may have discarded part of the range: the maps say what is
   * mapped, and recorder/space.c records the contents as they are. */
  if (!advice_discards(args[2]) || result != 0 ||
      !range(args[0], args[1], &a, &b) || !all_plain(r->proc->maps, a, b))
    return 0;
  /* Private anonymous pages go back to zeros: each piece is new. */
  for (const struct rec__map *e = rec__maps_from(r->proc->maps, a);
       e && e->start < b; e = rec__maps_next(r->proc->maps, e)) {
    u64 x = RW_MAX(a, e->start), y = RW_MIN(b, e->end);
    RW_FORWARD(rec__emit_map(r, x, y - x, e->prot, e->flags, 0, NULL, e->path,
                             0));
  }
  *done = 1;
  return 0;
}

/* brk: the heap is [start, page_up(break)) of private zeros; it grows
 * into pages nothing maps, or shrinks. The first brk after an exec reads
 * the maps (the break before it is not known). */
static int do_brk(struct rec *r, i64 result, int *done) {
  u64 old = r->proc->brk, now = (u64)result;
  r->proc->brk = now;
  if (!old || !trusted(r)) return 0;
  u64 oa = page_up(old), na = page_up(now);
  if (na < oa) {
    RW_FORWARD(rec__emit_unmap(r, na, oa - na));
    RW_FORWARD(rec__maps_remove(r->proc->maps, na, oa));
  } else if (na > oa) {
    if (rec__maps_from(r->proc->maps, oa) &&
        rec__maps_from(r->proc->maps, oa)->start < na)
      return 0; /* the model has something there: read the maps */
    char heap[] = "[heap]";
    struct rec__map m = {0};
    m.start = oa;
    m.end = na;
    m.prot = PROT_READ | PROT_WRITE;
    m.flags = REC_MAPF_PRIVATE | REC_MAPF_HEAP;
    m.path = heap;
    /* Fresh zeros: no bytes to import. */
    RW_FORWARD(rec__emit_map(r, oa, na - oa, m.prot, m.flags, 0, NULL,
                             m.path, 0));
    RW_FORWARD(rec__maps_insert(r->proc->maps, &m));
  }
  *done = 1;
  return 0;
}

int rec__follow(struct rec *r, u64 nr, const u64 args[6], i64 result,
                int *done) {
  *done = 0;
  int ok = result >= 0 || result < -4095;
  switch (nr) {
    case REC_NR_munmap:
      if (result != 0 || !trusted(r)) return 0;
      return do_munmap(r, args, done);
    case REC_NR_mprotect:
      if (result != 0 || !trusted(r)) return 0;
      return do_mprotect(r, args, done);
    case REC_NR_mmap:
      if (!ok || !trusted(r)) return 0;
      return do_mmap(r, args, result, done);
    case REC_NR_madvise:
      if (!trusted(r)) return 0;
      return do_madvise(r, args, result, done);
    case REC_NR_brk:
      return do_brk(r, result, done);
    default:
      return 0;
  }
}
