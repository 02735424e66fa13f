/* SPDX-License-Identifier: MIT */
/* The recorded address space: after a syscall that may change it, unless
 * its effect is known from its arguments (recorder/follow.c), the maps are
 * read again and compared with what the trace already describes, so
 * nothing is missed (a mapping made by a vfork child, a brk, an io_setup
 * ring). What the syscall itself says is recorded first (mmap's fresh pages,
 * mremap's move, madvise's discard), then the differences. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "recorder/rec_int.h"

/* Imports the lines of [A, B) that differ from WANT (B - A bytes: the
 * file's, zero past its end). Returns how many lines differed, or a
 * negative code. */
static i64 import_diff(struct rec *r, u64 a, u64 b, const u8 *want) {
  i64 lines = 0;
  u64 off = 0;
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, r->buf, n);
    got &= ~(i64)(REC_LINE - 1);
    u8 *p = r->buf;
    size_t run = 0, i;
    for (i = 0; i < (size_t)got; i += REC_LINE) {
      if (memcmp(p + i, want + off + i, REC_LINE)) {
        run += REC_LINE;
        lines++;
        continue;
      }
      if (run) RW_FORWARD(rec__mem_emit(r, a + i - run, p + i - run, run));
      run = 0;
    }
    if (run) RW_FORWARD(rec__mem_emit(r, a + i - run, p + i - run, run));
    /* Unreadable pages are skipped: the replayer has the file's bytes. */
    u64 step = (size_t)got < n ? (((u64)got | (REC_PAGE - 1)) + 1) : n;
    a += step, off += step;
  }
  return lines;
}

static int import_nonzero(void *ctx, u64 a, u64 b) {
  return rec__mem_import_nonzero(ctx, a, b);
}

/* What describe() learnt of a file mapping's bytes: whether [A, B) holds
 * exactly the bytes of the blob HASH at OFF. */
struct from_file {
  int same;
  u8 hash[32];
  u64 off;
};

static int describe(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                    int how, struct from_file *ff) {
  u64 off = m->offset + (a - m->start), obj;
  int copied = 0, at_exec = how != REC_DESCRIBE_NEW;
  if (m->flags & REC_MAPF_SPECIAL)
    return rec__emit_map(r, a, b - a, m->prot, m->flags, 0, NULL, m->path, 0);
  if (m->flags & REC_MAPF_VDSO) { /* as patched (recorder/vdso.c) */
    RW_FORWARD(rec__emit_map(r, a, b - a, m->prot, m->flags, 0, NULL,
                             m->path, 0));
    return rec__mem_import(r, a, b - a);
  }
  RW_FORWARD(rec__obj_of(r, m, &obj));
  if (rec__map_is_file(m)) {
    u8 hash[32], *want = NULL;
    /* Fresh from the ELF loader, a mapping it could not write is the
     * file's (the text of a compiler make runs 25 times is not read). */
    int diff = at_exec && (m->prot & PROT_READ) &&
               (how != REC_DESCRIBE_EXEC || (m->prot & PROT_WRITE));
    int rc = rec__blob_get(r, m, hash, NULL);
    if (rc == 0) {
      i64 lines = 0;
      rc = rec__emit_map(r, a, b - a, m->prot, m->flags, off, hash, m->path,
                         obj);
      if (rc == 0 && diff) {
        want = malloc(b - a);
        rc = want ? rec__blob_range(r, m, off, want, b - a) : RW_ENOMEM;
      }
      if (rc == 0 && diff) {
        lines = import_diff(r, a, b, want);
        if (lines < 0) rc = (int)lines;
      }
      free(want);
      ff->same = rc == 0 && lines == 0 && (!at_exec || diff ||
                                           how == REC_DESCRIBE_EXEC);
      memcpy(ff->hash, hash, 32);
      ff->off = off;
      if (rc == 0 && !at_exec && (m->flags & REC_MAPF_SHARED) &&
          (m->prot & PROT_WRITE))
        rc = rec__warn(r, REC_NR_mmap,
                       "mmap: writable MAP_SHARED mapping of %s; changes "
                       "other processes make to it cannot be recorded",
                       m->path);
      return rc;
    }
    if (rc != RW_EUNSUPPORTED && rc != RW_ELIMIT && rc != RW_ERR(ENOENT) &&
        rc != RW_ERR(EACCES))
      return rc;
    /* A device, or a file rewind cannot read or does not embed: its bytes
     * become MEM (those a device shows privately are not read). */
    copied = rc != RW_EUNSUPPORTED;
    if (copied && obj) r->objs[obj - 1].noblob = 1;
  }
  u32 flags = m->flags;
  int shared_other = (flags & REC_MAPF_SHMEM) ||
                     ((flags & REC_MAPF_SHARED) && rec__map_is_file(m));
  if (shared_other) flags |= REC_MAPF_SHMEM;
  /* Without a blob, offset is only the place in the object (for aliases). */
  RW_FORWARD(rec__emit_map(r, a, b - a, m->prot, flags, obj ? off : 0, NULL,
                           m->path, obj));
  /* Without a blob the replay learns the file's size from RESIZE: pages
   * past its end raise SIGBUS there too. */
  if (copied && obj && r->objs[obj - 1].size != ~0ull)
    RW_FORWARD(rec__emit_resize(r, obj, r->objs[obj - 1].size));
  if (at_exec || shared_other || copied)
    RW_FORWARD(rec__populated(r, m, a, b,
                              how == REC_DESCRIBE_KEYFRAME && r->kf.mem.active
                                  ? rec__kf_mem_import
                                  : import_nonzero,
                              r));
  if (shared_other && !at_exec && (m->prot & PROT_WRITE))
    RW_FORWARD(rec__warn(r, REC_NR_shmat,
                         "shared memory %s is mapped writable; writes by "
                         "other processes cannot be recorded",
                         m->path[0] ? m->path : "(anonymous)"));
  return 0;
}

int rec__space_describe(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                        int how) {
  struct from_file ff = {0};
  RW_FORWARD(describe(r, m, a, b, how, &ff));
  /* The trace has the original code; now rdtsc can be made to stop. */
  if (how != REC_DESCRIBE_KEYFRAME && !(m->flags & REC_MAPF_SPECIAL) &&
      (m->prot & PROT_EXEC))
    RW_FORWARD(ff.same ? rec__tsc_patch_file(r, a, b, ff.hash, ff.off)
                       : rec__tsc_patch_range(r, a, b));
  return 0;
}

static int on_unmap(void *ctx, u64 a, u64 b) {
  return rec__emit_unmap(ctx, a, b - a);
}
static int on_map(void *ctx, const struct rec__map *m, u64 a, u64 b) {
  struct rec *r = ctx;
  /* New pages right below a grows-down mapping that still goes on above
   * them: the kernel grew it (r->proc->maps is the view before this syscall).
   */
  const struct rec__map *o = rec__maps_find(r->proc->maps, b);
  if (rec__map_grows(m) && b < m->end && o && o->start == b &&
      rec__map_grows(o))
    return rec__emit_grow(r, a, b - a);
  return rec__space_describe(r, m, a, b, REC_DESCRIBE_NEW);
}
static int on_protect(void *ctx, u64 a, u64 b, u32 prot) {
  RW_FORWARD(rec__emit_protect(ctx, a, b - a, prot));
  return (prot & PROT_EXEC) ? rec__tsc_patch_range(ctx, a, b) : 0;
}
static const struct rec__maps_ops ops = {on_unmap, on_map, on_protect};

/* Records [A, B) of every mapping of NEW it overlaps as new; private ones
 * only when PRIVATE_ONLY. The pages are taken to be what the kernel gives
 * a new mapping, unless AS_IS: then their contents are recorded too. */
static int fresh(struct rec *r, const struct rec__maps *nm, u64 a, u64 b,
                 int private_only, int as_is) {
  for (const struct rec__map *m = rec__maps_from(nm, a); m && m->start < b;
       m = rec__maps_next(nm, m)) {
    u64 x = RW_MAX(a, m->start), y = RW_MIN(b, m->end);
    if (private_only && !(m->flags & REC_MAPF_PRIVATE)) continue;
    RW_FORWARD(rec__space_describe(
        r, m, x, y, as_is ? REC_DESCRIBE_AS_IS : REC_DESCRIBE_NEW));
  }
  return 0;
}

static u64 page_up(u64 x) { return (x + REC_PAGE - 1) & ~(u64)(REC_PAGE - 1); }

/* /proc/PID/maps does not say which mappings grow down, except [stack]:
 * the flag comes from the mmap that made one (MAP_GROWSDOWN in ARGS of a
 * successful NR) and is kept by whatever part of it is still there. */
static void mark_growsdown(const struct rec__maps *om, struct rec__maps *nm,
                           u64 nr, const u64 args[6], i64 result) {
  u64 a = 0, b = 0;
  if (nr == REC_NR_mmap && result >= 0)
    a = (u64)result, b = a + page_up(args[1]);
  for (const struct rec__map *m = rec__maps_first(nm); m;
       m = rec__maps_next(nm, m)) {
    if (m->ino || !(m->flags & REC_MAPF_PRIVATE)) continue;
    const struct rec__map *o = rec__maps_find(om, m->end - 1);
    int grows = m->start < b && m->end > a /* made by this mmap */
                    ? (args[3] & MAP_GROWSDOWN) != 0
                    : o && !o->ino && (o->flags & REC_MAPF_GROWSDOWN);
    if (grows) rec__maps_mut(nm, m)->flags |= REC_MAPF_GROWSDOWN;
  }
}

/* REWIND_CHECK_MAPS: the model after an update the recorder made on its own
 * (recorder/follow.c) must be what the kernel shows, apart from stack
 * growth, which the next read of the maps records. */
struct check {
  struct rec *r;
  char what[200]; /* the first difference, "" when none */
};

/* Keeps the first difference, [A, B) and WHAT with the model's and the
 * kernel's protections. */
static int check_bad(struct check *c, u64 a, u64 b, const char *what,
                     u32 model, u32 kernel) {
  if (!c->what[0])
    snprintf(c->what, sizeof c->what, "%#llx-%#llx: %s (prot %u in the "
             "model, %u in the kernel)", (unsigned long long)a,
             (unsigned long long)b, what, model, kernel);
  return 0;
}
static u32 model_prot(struct check *c, u64 a) {
  const struct rec__map *o = rec__maps_find(c->r->proc->maps, a);
  return o ? o->prot : 0;
}
static int check_unmap(void *ctx, u64 a, u64 b) {
  return check_bad(ctx, a, b, "mapped in the model only", model_prot(ctx, a),
                   0);
}
static int check_map(void *ctx, const struct rec__map *m, u64 a, u64 b) {
  struct check *c = ctx;
  const struct rec__map *o = rec__maps_find(c->r->proc->maps, b);
  if (rec__map_grows(m) && b < m->end && o && o->start == b &&
      rec__map_grows(o))
    return 0; /* the stack grew */
  return check_bad(c, a, b, "the kernel maps something else or more",
                   model_prot(c, a), m->prot);
}
static int check_protect(void *ctx, u64 a, u64 b, u32 prot) {
  return check_bad(ctx, a, b, "other protection", model_prot(ctx, a), prot);
}
static const struct rec__maps_ops check_ops = {check_unmap, check_map,
                                               check_protect};

static int check_model(struct rec *r, u64 nr, const u64 args[6],
                       i64 result) {
  static const u64 none[6];
  struct rec__maps nm = {0};
  struct check c = {r, ""};
  int rc = rec__maps_read(r->proc->live, &nm);
  if (rc == 0) {
    mark_growsdown(r->proc->maps, &nm, ~0ull, none, 0);
    rc = rec__maps_diff(r->proc->maps, &nm, NULL, 0, &check_ops, &c);
  }
  rec__maps_free(&nm);
  RW_FORWARD(rc);
  if (!c.what[0]) return 0;
  rw_log(RW_LOG_ERROR,
         "REWIND_CHECK_MAPS: after %s(%#llx, %#llx, %#llx, %#llx) = %lld "
         "the recorder's model of the address space differs from "
         "/proc/%d/maps at %s",
         rec__sc_name(nr) ? rec__sc_name(nr) : "?",
         (unsigned long long)args[0], (unsigned long long)args[1],
         (unsigned long long)args[2], (unsigned long long)args[3],
         (long long)result, (int)r->proc->live, c.what);
  return RW_ECORRUPT;
}

int rec__space_after(struct rec *r, u64 nr, const u64 args[6], i64 result) {
  struct rec__maps nm = {0};
  struct rec__range skip[3];
  size_t nskip = 0;
  int done;
  if ((nr == REC_NR_mprotect || nr == REC_NR_pkey_mprotect) && result == 0 &&
      (args[2] & PROT_WRITE))
    RW_FORWARD(rec__wp_reprotect(r, args[0], args[1]));
  RW_FORWARD(rec__follow(r, nr, args, result, &done));
  if (done) {
    r->n.maps_followed++;
    return r->check_maps ? check_model(r, nr, args, result) : 0;
  }
  r->n.maps_read++;
  int rc = rec__maps_read(r->proc->live, &nm);
  if (rc < 0) return rc;
  int ok = result >= 0 || result < -4095;
  mark_growsdown(r->proc->maps, &nm, nr, args, result);
  if (nr == REC_NR_munmap && result == 0) {
    /* All of it, also what the recorder never saw mapped: the bottom of a
     * stack that grew since the last look. */
    u64 a = args[0] & ~(u64)(REC_PAGE - 1), b = page_up(args[0] + args[1]);
    if (b > a) {
      rc = rec__emit_unmap(r, a, b - a);
      skip[nskip++] = (struct rec__range){a, b - a};
    }
  } else if (nr == REC_NR_mmap && ok) {
    u64 a = (u64)result, b = a + page_up(args[1]);
    rc = fresh(r, &nm, a, b, 0, 0);
    skip[nskip++] = (struct rec__range){a, b - a};
  } else if (nr == REC_NR_mremap && ok) {
    u64 oa = args[0], ol = page_up(args[1]), na = (u64)result;
    u64 nl = page_up(args[2]);
    rc = rec__emit_remap(r, oa, ol, na, nl, (u32)args[3]);
    rec__wp_forget(&r->proc->wp); /* its pages moved, protection and all */
    skip[nskip++] = (struct rec__range){oa, ol};
    skip[nskip++] = (struct rec__range){na, nl};
    if (rc == 0 && (args[3] & 4)) /* MREMAP_DONTUNMAP: old pages empty */
      rc = fresh(r, &nm, oa, oa + ol, 0, 0);
    /* The growth comes from the file as it is now, not as its blob was
     * when it was mapped: if it changed since, or has no blob, its bytes
     * are imported. */
    const struct rec__map *m = rec__maps_find(&nm, na);
    u64 obj = 0;
    if (rc == 0 && nl > ol && m) rc = rec__obj_of(r, m, &obj);
    if (rc == 0 && obj && r->objs[obj - 1].noblob)
      rc = rec__populated(r, m, na + ol, na + nl, import_nonzero, r);
    else if (rc == 0 && obj && r->objs[obj - 1].dirty)
      rc = rec__mem_import(r, na + ol, nl - ol);
  } else if (nr == REC_NR_madvise) {
    u64 adv = args[2];
    /* DONTNEED, FREE (made DONTNEED at entry), REMOVE, DONTNEED_LOCKED:
     * private pages go back to their source (zero or the file). Even a
     * failure may have discarded part of the range (ENOMEM for a hole,
     * EINVAL at a locked mapping after the ones before it), so the range
     * is described again whatever the result. */
    if (adv == 4 || adv == 8 || adv == 9 || adv == 24) {
      u64 a = args[0], b = a + page_up(args[1]);
      rc = fresh(r, &nm, a, b, 1, result != 0);
      skip[nskip++] = (struct rec__range){a, b - a};
    }
  }
  if (rc == 0) rc = rec__maps_diff(r->proc->maps, &nm, skip, nskip, &ops, r);
  rec__maps_move(r->proc->maps, &nm);
  rec__maps_free(&nm);
  return rc;
}
