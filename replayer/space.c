/* SPDX-License-Identifier: MIT */
/* The replay's address space, mirrored from the recording: EXEC empties it,
 * MAP fills a range from a blob (or zeros), UNMAP, PROTECT and REMAP change
 * it as the kernel did, MEM writes the bytes the kernel wrote. Also the
 * bounded payload reader every record goes through. Every value comes from
 * the trace, so every value is checked before it is used. */
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

#define RP_PAGE CPU_PAGE_SIZE
#define RP_USER_END (1ull << 47)

/* MAP record flags (format/records.def, TRACE_MAP_FLAG). */
enum {
#define TRACE_REC(id, NAME, name, fields, doc)
#define TRACE_MAP_FLAG(bit, name, doc) RP_MAPF_##name = (bit),
#include "format/records.def"
#undef TRACE_MAP_FLAG
#undef TRACE_REC
};

/* x86 makes every page that is writable or executable readable too. */
static int cpu_prot(u32 prot) {
  int p = (int)(prot & 7);
  if (p & (CPU_PROT_WRITE | CPU_PROT_EXEC)) p |= CPU_PROT_READ;
  return p;
}

static int range_ok(u64 addr, u64 len) {
  return len && !(addr % RP_PAGE) && !(len % RP_PAGE) && addr < RP_USER_END &&
         len <= RP_USER_END - addr;
}

/* ---- mapping sources ---- */

void rp__srcs_free(struct rp__srcs *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i].path);
  free(s->v);
  memset(s, 0, sizeof *s);
}

struct rp__src *rp__src_at(struct rp__proc *p, u64 addr) {
  for (size_t i = 0; i < p->srcs.n; i++)
    if (p->srcs.v[i].start <= addr && addr < p->srcs.v[i].end)
      return &p->srcs.v[i];
  return NULL;
}

int rp__srcs_copy(struct rp__srcs *dst, const struct rp__srcs *src) {
  memset(dst, 0, sizeof *dst);
  if (!src->n) return 0;
  dst->v = calloc(src->n, sizeof *dst->v);
  RW_RETURN_IF(!dst->v, RW_ENOMEM, "srcs");
  dst->cap = src->n;
  for (size_t i = 0; i < src->n; i++) {
    dst->v[i] = src->v[i];
    dst->v[i].path = strdup(src->v[i].path);
    if (!dst->v[i].path) {
      dst->n = i;
      rp__srcs_free(dst);
      return RW_ENOMEM;
    }
  }
  dst->n = src->n;
  return 0;
}

/* Removes [A, B) from the sources, splitting entries that straddle it. */
static int srcs_cut(struct rp__srcs *s, u64 a, u64 b) {
  for (size_t i = 0; i < s->n; i++) {
    struct rp__src *e = &s->v[i];
    if (e->end <= a || e->start >= b) continue;
    if (e->start < a && e->end > b) { /* split in two */
      if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct rp__src *v = realloc(s->v, cap * sizeof *v);
        RW_RETURN_IF(!v, RW_ENOMEM, "srcs");
        s->v = v, s->cap = cap;
        e = &s->v[i];
      }
      struct rp__src tail = *e;
      tail.path = strdup(e->path);
      RW_RETURN_IF(!tail.path, RW_ENOMEM, "srcs");
      tail.offset += b - e->start;
      tail.start = b;
      e->end = a;
      memmove(&s->v[i + 2], &s->v[i + 1], (s->n - i - 1) * sizeof *s->v);
      s->v[i + 1] = tail;
      s->n++;
      return 0;
    }
    if (e->start >= a && e->end <= b) { /* covered: drop */
      free(e->path);
      memmove(e, e + 1, (s->n - i - 1) * sizeof *s->v);
      s->n--;
      i--;
      continue;
    }
    if (e->start < a) {
      e->end = a;
    } else {
      e->offset += b - e->start;
      e->start = b;
    }
  }
  return 0;
}

static int srcs_add(struct rp__srcs *s, const struct rp__src *src) {
  RW_FORWARD(srcs_cut(s, src->start, src->end));
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    struct rp__src *v = realloc(s->v, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "srcs");
    s->v = v, s->cap = cap;
  }
  size_t i = s->n;
  while (i > 0 && s->v[i - 1].start > src->start) i--;
  memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof *s->v);
  s->v[i] = *src;
  s->v[i].path = strdup(src->path ? src->path : "");
  if (!s->v[i].path) {
    memmove(&s->v[i], &s->v[i + 1], (s->n - i) * sizeof *s->v);
    return RW_ENOMEM;
  }
  s->n++;
  return 0;
}

static const struct rp__src *srcs_find(const struct rp__srcs *s, u64 addr) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i].start <= addr && addr < s->v[i].end) return &s->v[i];
  return NULL;
}

int rp__is_zero_hash(const u8 h[32]) {
  for (int i = 0; i < 32; i++)
    if (h[i]) return 0;
  return 1;
}

/* Where SRC's pages past the end of its file begin. */
static u64 src_eof(const struct rp__src *src) {
  if (src->fend == ~(u64)0) return src->end;
  u64 avail = src->fend > src->offset ? src->fend - src->offset : 0;
  return avail < src->end - src->start ? src->start + avail : src->end;
}

static u64 page_end(u64 size) {
  return size > ~(u64)0 - RP_PAGE ? ~(u64)(RP_PAGE - 1)
                                  : (size + RP_PAGE - 1) & ~(u64)(RP_PAGE - 1);
}

/* Sets SRC's eof from its file end and makes the pages past it, mapped
 * already, inaccessible (they raise SIGBUS). */
static int hide_past_eof(rp_replay *rp, struct rp__src *src) {
  src->eof = src_eof(src);
  if (src->eof == src->end) return 0;
  return cpu_mem_protect(rp->proc->mem, src->eof, src->end - src->eof,
                         CPU_PROT_NONE);
}

/* Fills [A, B), already mapped, from SRC's blob; zeros stay past its end. */
static int fill_from_blob(rp_replay *rp, const struct rp__src *src, u64 a,
                          u64 b) {
  if (rp__is_zero_hash(src->hash)) return 0;
  u64 off = src->offset + (a - src->start);
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)RP_BUF);
    struct rw_diag diag = {0};
    i64 got = trace_reader_blob_read(rp->trace.tr, src->hash, off, rp->buf, n,
                                     &diag);
    if (got < 0) { /* reported by the caller as damage */
      if (!rp->health.damage.code)
        rw_diag_set(&rp->health.damage, (int)got, diag.offset, "%s",
                    diag.msg[0] ? diag.msg : rw_strerror((int)got));
      return (int)got;
    }
    if (got == 0) break; /* past the end of the file: zeros */
    RW_FORWARD(cpu_mem_write(rp->proc->mem, a, rp->buf, (size_t)got));
    a += (u64)got;
    off += (u64)got;
  }
  return 0;
}

/* ---- The log of mapping changes ---------------------------------------- */

int rp__maplog_add(rp_replay *rp, u64 addr, u64 len) {
  struct rp__timeline *tl = &rp->tl;
  struct rp__maplog e = {rp->trace.events, rp->proc->mem, addr, addr + len};
  size_t a = 0, b = tl->nmaplog;
  while (a < b) { /* the first entry past E's position */
    size_t m = a + (b - a) / 2;
    if (tl->maplog[m].events <= e.events) a = m + 1;
    else b = m;
  }
  /* Replayed again (after a keyframe restore): logged already. */
  for (size_t i = a; i > 0 && tl->maplog[i - 1].events == e.events; i--)
    if (tl->maplog[i - 1].mem == e.mem && tl->maplog[i - 1].lo == e.lo &&
        tl->maplog[i - 1].hi == e.hi)
      return 0;
  RW_FORWARD(rp__grow((void **)&tl->maplog, tl->nmaplog, &tl->capmaplog,
                      sizeof *tl->maplog));
  memmove(&tl->maplog[a + 1], &tl->maplog[a],
          (tl->nmaplog - a) * sizeof *tl->maplog);
  tl->maplog[a] = e;
  tl->nmaplog++;
  return 0;
}

int rp__maplog_hits(const rp_replay *rp, const cpu_mem *mem, u64 lo, u64 hi,
                    u64 addr, u64 len) {
  const struct rp__timeline *tl = &rp->tl;
  size_t a = 0, b = tl->nmaplog;
  if (hi > tl->log_covered) return 1; /* not run here: not known */
  while (a < b) { /* the first entry at LO or later */
    size_t m = a + (b - a) / 2;
    if (tl->maplog[m].events < lo) a = m + 1;
    else b = m;
  }
  for (; a < tl->nmaplog && tl->maplog[a].events <= hi; a++) {
    const struct rp__maplog *e = &tl->maplog[a];
    if (e->mem == mem && e->lo < addr + len && addr < e->hi) return 1;
  }
  return 0;
}

/* cpu_mem_map and cpu_mem_unmap of the current process's space, logged. */
static int space_map(rp_replay *rp, u64 addr, u64 len, int prot) {
  RW_FORWARD(rp__maplog_add(rp, addr, len));
  return cpu_mem_map(rp->proc->mem, addr, len, prot);
}

static int space_unmap(rp_replay *rp, u64 addr, u64 len) {
  RW_FORWARD(rp__maplog_add(rp, addr, len));
  return cpu_mem_unmap(rp->proc->mem, addr, len);
}

int rp__apply_exec(rp_replay *rp) {
  u64 start, len;
  int prot;
  /* Unmap what is mapped, run by run (the space is mostly empty). */
  while (cpu_mem_query(rp->proc->mem, 0, &start, &len, &prot) == 0)
    RW_FORWARD(space_unmap(rp, start, len));
  rp__srcs_free(&rp->proc->srcs);
  rp__stack_defaults(&rp->proc->stack); /* until the image's STACK_RULES */
  return rp__alias_sync(rp);
}

int rp__alias_sync(rp_replay *rp) {
  struct cpu_alias v[64], *a = v;
  size_t n = 0;
  for (size_t i = 0; i < rp->proc->srcs.n; i++)
    n += rp->proc->srcs.v[i].shared && rp->proc->srcs.v[i].object;
  if (!n) return cpu_mem_alias_set(rp->proc->mem, NULL, 0);
  if (n > sizeof v / sizeof *v) {
    a = malloc(n * sizeof *a);
    RW_RETURN_IF(!a, RW_ENOMEM, "aliases");
  }
  n = 0;
  for (size_t i = 0; i < rp->proc->srcs.n; i++) {
    const struct rp__src *e = &rp->proc->srcs.v[i];
    if (e->shared && e->object)
      a[n++] = (struct cpu_alias){e->start, e->end, e->object, e->offset};
  }
  int rc = cpu_mem_alias_set(rp->proc->mem, a, n);
  if (a != v) free(a);
  return rc;
}

int rp__apply_map(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_map m;
  struct rp__src src;
  char path[4096];
  RW_FORWARD(trace_rec_map_get(&m, rec->data, rec->len));
  trace_str_copy(m.path, path, sizeof path);
  src.start = m.addr;
  u64 len = m.len;
  u32 prot = m.prot, flags = m.flags;
  src.offset = m.offset;
  src.object = m.object; /* 0 before format 1.2 */
  src.shared = (flags & RP_MAPF_SHARED) != 0;
  memcpy(src.hash, m.blob.b, 32);
  src.end = src.start + len;
  src.prot = (int)prot;
  src.path = path;
  /* [vdso], [vvar], [vsyscall]: not recorded, not used by the program. */
  if (flags & RP_MAPF_SPECIAL) return 0;
  src.growsdown = (flags & (RP_MAPF_STACK | RP_MAPF_GROWSDOWN)) != 0;
  RW_RETURN_IF(!range_ok(src.start, len), RW_ECORRUPT,
               "MAP of a bad range %#llx+%#llx",
               (unsigned long long)src.start, (unsigned long long)len);
  RW_FORWARD(space_map(rp, src.start, len, cpu_prot(prot)));
  src.fend = ~(u64)0;
  if (!rp__is_zero_hash(src.hash)) {
    /* Pages wholly past the end of the file raise SIGBUS when touched:
     * keep them inaccessible in the emulator too. */
    struct trace_blob_info bi;
    if (trace_reader_find_blob(rp->trace.tr, src.hash, &bi) < 0) {
      if (!rp->health.damage.code)
        rw_diag_set(&rp->health.damage, RW_ECORRUPT, 0,
                    "record %llu (MAP of %s) names the content of a file "
                    "that the trace does not hold (a lost BLOB chunk)",
                    (unsigned long long)rec->seq, src.path);
      return RW_ECORRUPT;
    }
    src.fend = page_end(bi.size);
  }
  RW_FORWARD(hide_past_eof(rp, &src));
  RW_FORWARD(srcs_add(&rp->proc->srcs, &src));
  rp__note_recent(rp, rec, src.start, len);
  /* Filled before it becomes an alias, so the fill is not copied to the
   * others: the blob is the object's bytes as they are now anyway (the
   * recorder reads a file changed while mapped again). */
  RW_FORWARD(fill_from_blob(rp, &src, src.start, src.end));
  return rp__alias_sync(rp);
}

int rp__apply_unmap(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_unmap u;
  RW_FORWARD(trace_rec_unmap_get(&u, rec->data, rec->len));
  u64 a = u.addr, len = u.len;
  if (a >= RP_USER_END) return 0; /* [vsyscall] and the like */
  RW_RETURN_IF(!range_ok(a, len), RW_ECORRUPT, "UNMAP of a bad range");
  rp__note_recent(rp, rec, a, len);
  RW_FORWARD(space_unmap(rp, a, len));
  RW_FORWARD(srcs_cut(&rp->proc->srcs, a, a + len));
  return rp__alias_sync(rp);
}

int rp__apply_protect(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_protect pr;
  RW_FORWARD(trace_rec_protect_get(&pr, rec->data, rec->len));
  u64 a = pr.addr, len = pr.len;
  u32 prot = pr.prot;
  if (a >= RP_USER_END) return 0;
  RW_RETURN_IF(!range_ok(a, len), RW_ECORRUPT, "PROTECT of a bad range");
  int rc = cpu_mem_protect(rp->proc->mem, a, len, cpu_prot(prot));
  if (rc == RW_ENOTFOUND) rc = 0; /* holes: as mprotect, the rest changed */
  for (size_t i = 0; i < rp->proc->srcs.n && rc == 0; i++) {
    struct rp__src *e = &rp->proc->srcs.v[i];
    if (e->start >= a && e->end <= a + len) e->prot = (int)prot;
    u64 x = RW_MAX(a, e->eof), y = RW_MIN(a + len, e->end);
    if (x < y) rc = cpu_mem_protect(rp->proc->mem, x, y - x, CPU_PROT_NONE);
  }
  return rc;
}

/* Copies the pages of [FROM, FROM+LEN) that hold bytes to the same places
 * of [TO, TO+LEN), mapped already and not overlapping it; the others are
 * zeros there too. Costs what the pages written cost, not LEN. */
static int copy_pages(rp_replay *rp, u64 from, u64 to, u64 len) {
  u64 at = from, page;
  int prot;
  const u8 *bytes;
  u8 buf[RP_PAGE];
  while (at < from + len &&
         cpu_mem_next_data(rp->proc->mem, at, &page, &prot, &bytes) == 0 &&
         page < from + len) {
    memcpy(buf, bytes, RP_PAGE); /* the write may move what BYTES shows */
    RW_FORWARD(cpu_mem_write(rp->proc->mem, to + (page - from), buf, RP_PAGE));
    at = page + RP_PAGE;
  }
  return 0;
}

/* mremap with an old size of 0 maps the shared mapping at OA a second
 * time at [NA, NA+NL): the same bytes from the same place of the object. */
static int remap_dup(rp_replay *rp, const struct rp__rec *rec, u64 oa, u64 na,
                     u64 nl) {
  const struct rp__src *s = srcs_find(&rp->proc->srcs, oa);
  RW_RETURN_IF(!s || !s->shared, RW_ECORRUPT,
               "REMAP of size 0 of %#llx, which is not a shared mapping",
               (unsigned long long)oa);
  struct rp__src src = *s;
  src.offset += oa - s->start;
  src.start = na;
  src.end = na + nl;
  rp__note_recent(rp, rec, na, nl);
  RW_FORWARD(space_map(rp, na, nl, cpu_prot((u32)s->prot)));
  RW_FORWARD(hide_past_eof(rp, &src));
  /* Copy what the other mappings of the object show of the new range. */
  for (size_t i = 0; i < rp->proc->srcs.n; i++) {
    const struct rp__src *e = &rp->proc->srcs.v[i];
    if (!e->shared || e->object != src.object || !src.object) continue;
    u64 lo = RW_MAX(src.offset, e->offset);
    u64 hi = RW_MIN(src.offset + nl, e->offset + (e->end - e->start));
    if (lo >= hi) continue;
    RW_FORWARD(copy_pages(rp, e->start + (lo - e->offset),
                          na + (lo - src.offset), hi - lo));
  }
  src.path = s->path; /* srcs_add copies it */
  RW_FORWARD(srcs_add(&rp->proc->srcs, &src));
  return rp__alias_sync(rp);
}

/* Moves the pages of [OA, OA+OL) to [NA, NA+NL) as mremap did; the part of
 * the new range past the old length is fresh from the mapping's source. */
int rp__apply_remap(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_remap m;
  RW_FORWARD(trace_rec_remap_get(&m, rec->data, rec->len));
  u64 oa = m.old_addr, ol = m.old_len, na = m.new_addr, nl = m.new_len;
  u32 flags = m.flags;
  RW_RETURN_IF((ol && !range_ok(oa, ol)) || !range_ok(na, nl), RW_ECORRUPT,
               "REMAP of a bad range");
  if (!ol) return remap_dup(rp, rec, oa, na, nl);
  /* A copy of the source: cutting the old range frees the entry. */
  const struct rp__src *s = srcs_find(&rp->proc->srcs, oa);
  struct rp__src src = {0};
  char path[4096] = "";
  int prot;
  if (s) {
    src = *s;
    src.offset += oa - s->start;
    snprintf(path, sizeof path, "%s", s->path);
    prot = cpu_prot((u32)s->prot);
  } else {
    u64 start, mlen;
    src.fend = ~(u64)0;
    src.prot = 3;
    if (cpu_mem_query(rp->proc->mem, oa, &start, &mlen, &prot) < 0 ||
        start > oa)
      prot = CPU_PROT_READ | CPU_PROT_WRITE;
  }
  src.path = path;
  u64 keep = RW_MIN(ol, nl);
  rp__note_recent(rp, rec, na, nl);
  if (na != oa) {
    /* The kernel never moves a mapping onto itself in part. */
    RW_RETURN_IF(na < oa + ol && oa < na + nl, RW_ECORRUPT,
                 "REMAP onto its own range");
    RW_FORWARD(space_map(rp, na, nl, prot));
    RW_FORWARD(copy_pages(rp, oa, na, keep));
    if (!(flags & 4)) {
      RW_FORWARD(space_unmap(rp, oa, ol));
      RW_FORWARD(srcs_cut(&rp->proc->srcs, oa, oa + ol));
    }
  } else if (nl > ol) {
    RW_FORWARD(space_map(rp, oa + ol, nl - ol, prot));
  } else if (nl < ol) {
    RW_FORWARD(space_unmap(rp, oa + nl, ol - nl));
    RW_FORWARD(srcs_cut(&rp->proc->srcs, oa + nl, oa + ol));
  }
  src.start = na;
  src.end = na + nl;
  RW_FORWARD(hide_past_eof(rp, &src));
  RW_FORWARD(srcs_add(&rp->proc->srcs, &src));
  if (nl > ol) RW_FORWARD(fill_from_blob(rp, &src, na + ol, na + nl));
  return rp__alias_sync(rp);
}

/* The file behind an object has a new size: pages of its mappings past the
 * end become inaccessible (SIGBUS), pages before it accessible again, and
 * those read as zeros (the kernel dropped them when it shrank; the recorder
 * sends what was written since as MEM records after this one). */
int rp__apply_resize(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_resize z;
  RW_FORWARD(trace_rec_resize_get(&z, rec->data, rec->len));
  u64 obj = z.object, size = z.size;
  for (size_t i = 0; i < rp->proc->srcs.n && obj; i++) {
    struct rp__src *e = &rp->proc->srcs.v[i];
    if (e->object != obj) continue;
    e->fend = page_end(size);
    u64 eof = src_eof(e);
    if (eof < e->eof) {
      RW_FORWARD(
          cpu_mem_protect(rp->proc->mem, eof, e->eof - eof, CPU_PROT_NONE));
    } else if (eof > e->eof) {
      RW_FORWARD(space_unmap(rp, e->eof, eof - e->eof));
      RW_FORWARD(space_map(rp, e->eof, eof - e->eof,
                             cpu_prot((u32)e->prot)));
    }
    e->eof = eof;
  }
  rp__note_recent(rp, rec, 0, 0);
  return 0;
}

/* MEM_FROM (a keyframe's state): LEN bytes at ADDR from a blob. */
static int apply_mem_from(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_mem_from m;
  RW_FORWARD(trace_rec_mem_from_get(&m, rec->data, rec->len));
  RW_RETURN_IF(m.addr >= RP_USER_END || m.len > RP_USER_END - m.addr,
               RW_ECORRUPT, "MEM_FROM at a bad address");
  rp__note_recent(rp, rec, m.addr, (size_t)m.len);
  if (rp->prov.collect) RW_FORWARD(rp__prov_note(rp, &m));
  u64 a = m.addr, off = m.offset, end = m.addr + m.len;
  while (a < end) {
    size_t n = (size_t)RW_MIN(end - a, (u64)RP_BUF);
    if (rp->prov.donor) { /* page by page: most are the donor's */
      const u64 pg = CPU_PAGE_SIZE;
      int took = 0;
      if (!(a & (pg - 1)) && end - a >= pg) {
        took = rp__prov_take(rp, &m, a);
        RW_FORWARD(took);
      }
      if (took) {
        a += pg, off += pg;
        continue;
      }
      n = (size_t)RW_MIN((u64)n, pg - (a & (pg - 1)));
    }
    struct rw_diag diag = {0};
    i64 got = trace_reader_blob_read(rp->trace.tr, m.blob.b, off, rp->buf, n,
                                     &diag);
    if (got >= 0 && (size_t)got < n)
      rw_diag_set(&diag, RW_ECORRUPT, 0, "the keyframe takes bytes "
                  "%llu-%llu of a blob of %llu bytes",
                  (unsigned long long)m.offset,
                  (unsigned long long)(m.offset + m.len),
                  (unsigned long long)(off + (u64)got));
    if (diag.code) {
      rw_log(RW_LOG_ERROR, "MEM_FROM at %#llx: %s", (unsigned long long)a,
             diag.msg);
      return diag.code;
    }
    RW_FORWARD(cpu_mem_write(rp->proc->mem, a, rp->buf, n));
    a += n, off += n;
  }
  return 0;
}

int rp__apply_mem(rp_replay *rp, const struct rp__rec *rec) {
  if (rec->type == TRACE_REC_MEM_FROM) return apply_mem_from(rp, rec);
  struct trace_rec_mem m;
  RW_FORWARD(trace_rec_mem_get(&m, rec->data, rec->len));
  u64 a = m.addr;
  size_t n = m.data.len;
  RW_RETURN_IF(a >= RP_USER_END || n > RP_USER_END - a, RW_ECORRUPT,
               "MEM at a bad address");
  rp__note_recent(rp, rec, a, n);
  /* The kernel wrote below a stack (a signal frame, a syscall's output
   * into a buffer not touched yet): it grew the stack first. */
  u64 start, len;
  int prot, grew = 0;
  if (n &&
      (cpu_mem_query(rp->proc->mem, a, &start, &len, &prot) < 0 || start > a))
    RW_FORWARD(rp__stack_grow(rp, a, &grew));
  int rc = cpu_mem_write(rp->proc->mem, a, m.data.p, n);
  if (rc == RW_EFAULT)
    rw_log(RW_LOG_ERROR, "the recording has bytes the kernel wrote at "
           "%#llx, which the replay has not mapped%s",
           (unsigned long long)a, grew ? "" : " (and no stack grows there)");
  return rc;
}

int rp_maps_text(rp_replay *rp, char **out, size_t *len) {
  size_t cap = 256, n = 0;
  char *t = malloc(cap);
  RW_RETURN_IF(!t, RW_ENOMEM, "maps text");
  const struct rp__srcs *ss = &rp->user.proc->srcs; /* the debugger's */
  for (size_t i = 0; i < ss->n; i++) {
    const struct rp__src *e = &ss->v[i];
    size_t need = n + strlen(e->path) + 128;
    if (need > cap) {
      cap = RW_MAX(2 * cap, need);
      char *v = realloc(t, cap);
      if (!v) free(t);
      RW_RETURN_IF(!v, RW_ENOMEM, "maps text");
      t = v;
    }
    n += (size_t)snprintf(t + n, cap - n,
                          "%llx-%llx %c%c%c%c %08llx 00:00 0%s%s\n",
                          (unsigned long long)e->start,
                          (unsigned long long)e->end,
                          e->prot & 1 ? 'r' : '-', /* PROT_READ */
                          e->prot & 2 ? 'w' : '-', /* PROT_WRITE */
                          e->prot & 4 ? 'x' : '-', /* PROT_EXEC */
                          e->shared ? 's' : 'p',
                          (unsigned long long)e->offset,
                          e->path[0] ? "                          " : "",
                          e->path);
  }
  *out = t;
  *len = n;
  return 0;
}
