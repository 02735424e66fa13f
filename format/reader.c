/* SPDX-License-Identifier: MIT */
/* Opening a trace: the file is mapped (or a caller's buffer borrowed), the
 * header is checked, and the index is loaded through the trailer, or rebuilt
 * by scan.c when the trailer or index is missing or damaged. Also the small
 * queries over the loaded tables: info, metadata, threads, chunks. Record
 * cursors are in cursor.c, blob and keyframe reads in blob.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/format_int.h"

void trace__damage(trace_reader *r, u64 off, const char *msg) {
  if (r->damaged && off == r->damage_offset) return; /* seen already */
  r->ndamaged++;
  if (r->ndamages < TRACE__MAX_DAMAGES) {
    struct trace__damage_rec *d = &r->damages[r->ndamages++];
    d->offset = off;
    d->torn = 0;
    snprintf(d->msg, sizeof d->msg, "%s", msg);
  }
  if (r->damaged && off > r->damage_offset) return;
  r->damaged = 1;
  r->damage_offset = off;
  snprintf(r->damage, sizeof r->damage, "%s", msg);
}

/* Checks the file header. */
static int header_check(trace_reader *r, struct rw_diag *diag) {
  const u8 *h = r->base;
  u32 arch;
  if (memcmp(h, TRACE__MAGIC, RW_MIN(r->size, (u64)TRACE__MAGIC_LEN)))
    return rw_diag_set(diag, RW_EINVAL, 0,
                       "not a rewind trace (bad magic at offset 0)");
  if (r->size < 16)
    return rw_diag_set(diag, RW_ETRUNC, r->size,
                       "trace header truncated: the file has %llu bytes",
                       (unsigned long long)r->size);
  r->vmaj = rd_le16(h + 8);
  r->vmin = rd_le16(h + 10);
  if (r->vmaj != TRACE_VERSION_MAJOR)
    return rw_diag_set(diag, RW_EVERSION, 8,
                       "trace format version %u.%u is not supported (this "
                       "build reads version %u.x)",
                       r->vmaj, r->vmin, TRACE_VERSION_MAJOR);
  r->hdr_len = rd_le16(h + 12);
  if (r->hdr_len < TRACE__HDR_SIZE || r->hdr_len > TRACE__HDR_MAX ||
      r->hdr_len % 8)
    return rw_diag_set(diag, RW_ECORRUPT, 12,
                       "trace header length %u is impossible", r->hdr_len);
  if (r->size < r->hdr_len)
    return rw_diag_set(diag, RW_ETRUNC, r->size,
                       "trace header truncated: %llu of its %u bytes",
                       (unsigned long long)r->size, r->hdr_len);
  if (rd_le32(h + r->hdr_len - 4) != rw_crc32c(0, h, r->hdr_len - 4))
    return rw_diag_set(diag, RW_ECORRUPT, r->hdr_len - 4,
                       "trace header checksum mismatch");
  arch = rd_le16(h + 14);
  if (arch != TRACE__ARCH_X86_64)
    return rw_diag_set(diag, RW_EUNSUPPORTED, 14,
                       "trace is for ELF machine %u, not x86-64", arch);
  r->page_size = rd_le32(h + 16);
  if (r->page_size < 4096 || r->page_size > (1u << 30) ||
      (r->page_size & (r->page_size - 1)))
    return rw_diag_set(diag, RW_ECORRUPT, 16,
                       "trace header: impossible page size %u", r->page_size);
  r->created_ns = rd_le64(h + 24);
  return 0;
}

/* Loads the index through the trailer. Returns 1 when it is loaded, 0 when
 * it must be rebuilt (damage recorded when something was there but bad), or
 * RW_ENOMEM. */
static int trailer_load(trace_reader *r) {
  u64 toff = r->size - TRACE__TRAILER_SIZE, ioff, ilen;
  const u8 *t = r->base + toff;
  struct rw_diag d = {0};
  struct trace__chunk c;
  int rc;
  if (r->size < r->hdr_len + TRACE__CHUNK_HDR + TRACE__TRAILER_SIZE) return 0;
  if (memcmp(t, TRACE__TRAILER_MAGIC, 8)) return 0; /* never closed */
  r->has_trailer = 1;
  if (rd_le32(t + 28) != rw_crc32c(0, t, 28)) {
    rw_diag_set(&d, RW_ECORRUPT, toff,
                "trailer at offset %llu: checksum mismatch",
                (unsigned long long)toff);
    goto damaged;
  }
  ioff = rd_le64(t + 8);
  ilen = rd_le64(t + 16);
  if (ioff < r->hdr_len || ioff > toff || ilen != toff - ioff ||
      ilen < TRACE__CHUNK_HDR) {
    rw_diag_set(&d, RW_ECORRUPT, toff,
                "trailer at offset %llu: index at %llu+%llu is not just "
                "before it",
                (unsigned long long)toff, (unsigned long long)ioff,
                (unsigned long long)ilen);
    goto damaged;
  }
  if (trace__chunk_decode(&c, r->base + ioff, ioff, &d) < 0) goto damaged;
  if (c.type != TRACE_CHUNK_INDEX ||
      TRACE__CHUNK_HDR + (u64)c.comp_len != ilen) {
    rw_diag_set(&d, RW_ECORRUPT, ioff,
                "index at offset %llu: chunk of type %u and %u bytes is not "
                "the index the trailer describes",
                (unsigned long long)ioff, c.type, c.comp_len);
    goto damaged;
  }
  if (trace__payload_check(&c, r->base, &d) < 0) goto damaged;
  rc = trace__index_load(r, &c, &d);
  if (rc == RW_ENOMEM) return rc;
  if (rc < 0) goto damaged;
  return 1;
damaged:
  trace__damage(r, d.offset, d.msg);
  return 0;
}

/* Reads the META chunks of a trace whose index was loaded (the index holds
 * its own copy of the metadata, so nothing else reads them) and records
 * damage when one cannot be read or they say something else than the
 * index. */
static int meta_check(trace_reader *r) {
  trace_reader *tmp = calloc(1, sizeof *tmp);
  u8 *raw = NULL;
  size_t cap = 0;
  u64 first = 0;
  int rc = 0, bad = 0;
  RW_RETURN_IF(!tmp, RW_ENOMEM, "metadata check");
  for (size_t i = 0; i < r->nchunks && rc == 0; i++) {
    const struct trace__chunk *c = &r->chunks[i];
    struct rw_diag d = {0};
    if (c->type != TRACE_CHUNK_META) continue;
    if (!first) first = c->offset;
    size_t before = tmp->nmeta;
    rc = trace__chunk_load(r, i, r->dctx, &raw, &cap, &d);
    if (rc == 0)
      rc = trace__meta_parse(tmp, raw, c->raw_len, c->count, c->offset, &d);
    for (size_t k = before; k < tmp->nmeta; k++) tmp->meta[k].where = c->offset;
    if (rc == RW_ENOMEM) break;
    if (rc < 0) {
      trace__damage(r, c->offset, d.msg);
      bad = 1; /* what follows would only repeat it */
    }
    rc = 0;
  }
  if (rc == 0) rc = trace__build_tables(tmp, 0, NULL);
  for (size_t i = 0, j = 0;
       rc == 0 && !bad && (i < r->nmeta || j < tmp->nmeta);) {
    const struct trace__meta *a = i < r->nmeta ? &r->meta[i] : NULL;
    const struct trace__meta *b = j < tmp->nmeta ? &tmp->meta[j] : NULL;
    int cmp = !a ? 1 : !b ? -1 : strcmp(a->key, b->key);
    char msg[160];
    if (cmp == 0 && a->len == b->len && !memcmp(a->val, b->val, a->len)) {
      i++;
      j++;
      continue;
    }
    snprintf(msg, sizeof msg,
             "metadata '%.60s' %s", cmp <= 0 ? a->key : b->key,
             cmp < 0   ? "is in the index but in no META chunk"
             : cmp > 0 ? "is in a META chunk but not in the index"
                       : "differs between its META chunk and the index");
    trace__damage(r, cmp >= 0 ? b->where : first, msg);
    break;
  }
  trace__free_tables(tmp);
  free(tmp);
  free(raw);
  return rc;
}

/* Everything after the bytes are in place. */
static int open_common(trace_reader *r, struct rw_diag *diag) {
  int rc;
  r->cache_chunk = -1;
  RW_FORWARD(header_check(r, diag));
  r->dctx = ZSTD_createDCtx();
  RW_RETURN_IF(!r->dctx, rw_diag_set(diag, RW_ENOMEM, 0, "zstd context"),
               "dctx");
  rc = trailer_load(r);
  if (rc < 0) return rw_diag_set(diag, rc, 0, "loading the index");
  if (rc == 1) {
    r->complete = 1;
    rc = meta_check(r);
    return rc < 0 ? rw_diag_set(diag, rc, 0, "checking the metadata") : 0;
  }
  r->rebuilt = 1;
  rc = trace__scan(r);
  if (rc < 0) return rw_diag_set(diag, rc, 0, "rebuilding the index");
  return 0;
}

int trace_reader_open_mem(trace_reader **out, const void *data, size_t len,
                          struct rw_diag *diag) {
  trace_reader *r;
  int rc;
  *out = NULL;
  r = calloc(1, sizeof *r);
  RW_RETURN_IF(!r, rw_diag_set(diag, RW_ENOMEM, 0, "reader"), "reader");
  r->base = data;
  r->size = len;
  r->fd = -1;
  rc = open_common(r, diag);
  if (rc < 0) {
    trace_reader_close(r);
    return rc;
  }
  *out = r;
  return 0;
}

int trace_reader_open(trace_reader **out, const char *path,
                      struct rw_diag *diag) {
  struct stat st;
  void *map;
  int fd, rc;
  trace_reader *r;
  *out = NULL;
  /* O_NONBLOCK: opening a FIFO with no writer must not wait for one; the
   * file type is checked right after. */
  fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return rw_diag_set(diag, RW_ERR(errno), 0, "cannot open: %s",
                       strerror(errno));
  if (fstat(fd, &st) < 0) {
    rc = RW_ERR(errno);
    close(fd);
    return rw_diag_set(diag, rc, 0, "cannot stat: %s", strerror(-rc));
  }
  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    close(fd);
    return rw_diag_set(diag, S_ISREG(st.st_mode) ? RW_ETRUNC : RW_EINVAL, 0,
                       "%s", S_ISREG(st.st_mode)   ? "empty file"
                             : S_ISDIR(st.st_mode) ? "a directory, not a trace"
                             : S_ISFIFO(st.st_mode)
                                 ? "a FIFO, not a trace file"
                                 : "not a regular file");
  }
  map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  rc = RW_ERR(errno);
  if (map == MAP_FAILED) {
    close(fd);
    return rw_diag_set(diag, rc, 0, "mmap: %s", strerror(-rc));
  }
  r = calloc(1, sizeof *r);
  if (!r) {
    close(fd);
    munmap(map, (size_t)st.st_size);
    return rw_diag_set(diag, RW_ENOMEM, 0, "reader");
  }
  r->fd = fd; /* kept: a scan asks it where the holes are */
  r->base = map;
  r->size = (u64)st.st_size;
  r->mapped = 1;
  rc = open_common(r, diag);
  if (rc < 0) {
    trace_reader_close(r);
    return rc;
  }
  *out = r;
  return 0;
}

void trace_reader_close(trace_reader *r) {
  if (!r) return;
  trace__free_tables(r);
  ZSTD_freeDCtx(r->dctx);
  free(r->cache);
  if (r->mapped) munmap((void *)r->base, r->size);
  if (r->fd >= 0) close(r->fd);
  free(r);
}

void trace_reader_get_info(const trace_reader *r, struct trace_info *info) {
  memset(info, 0, sizeof *info);
  info->version_major = r->vmaj;
  info->version_minor = r->vmin;
  info->file_size = r->size;
  info->created_ns = r->created_ns;
  info->nchunks = r->nchunks;
  info->nblobs = r->nblobs;
  info->nkeyframes = r->nkeyframes;
  info->nthreads = trace_reader_threads(r, NULL, 0);
  for (size_t i = 0; i < r->nchunks; i++) {
    const struct trace__chunk *c = &r->chunks[i];
    info->raw_bytes += c->raw_len;
    info->comp_bytes += c->comp_len;
    if (c->type != TRACE_CHUNK_RECORDS) continue;
    info->nrecords_chunks++;
  }
  for (size_t i = 0; i < r->nstreams; i++) {
    const struct trace__stream *s = &r->streams[i];
    u64 first = r->chunks[s->chunks[0]].seq_first;
    u64 last = r->chunks[s->chunks[s->n - 1]].seq_last;
    if (!info->seq_first || first < info->seq_first) info->seq_first = first;
    if (last > info->seq_last) info->seq_last = last;
  }
  info->complete = r->complete;
  info->rebuilt = r->rebuilt;
  info->damaged = r->damaged;
  info->torn = r->torn && r->ndamaged == 1;
  info->damage_offset = r->damage_offset;
  snprintf(info->damage, sizeof info->damage, "%s", r->damage);
}

u64 trace_reader_ndamaged(const trace_reader *r) { return r->ndamaged; }

u64 trace_reader_nrecords(const trace_reader *r) {
  u64 n = 0;
  for (size_t i = 0; i < r->nstreams; i++) n += r->streams[i].nrecords;
  return n;
}

static int cmp_key(const void *k, const void *m) {
  return strcmp(k, ((const struct trace__meta *)m)->key);
}

int trace_reader_meta(const trace_reader *r, const char *key, const void **val,
                      size_t *len) {
  const struct trace__meta *m;
  if (!r->nmeta) return RW_ENOTFOUND;
  m = bsearch(key, r->meta, r->nmeta, sizeof *r->meta, cmp_key);
  if (!m) return RW_ENOTFOUND;
  *val = m->val;
  *len = m->len;
  return 0;
}

int trace_reader_meta_at(const trace_reader *r, size_t i, const char **key,
                         const void **val, size_t *len) {
  if (i >= r->nmeta) return RW_ENOTFOUND;
  *key = r->meta[i].key;
  *val = r->meta[i].val;
  *len = r->meta[i].len;
  return 0;
}

size_t trace_reader_threads(const trace_reader *r, u32 *tids, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < r->nstreams; i++) {
    if (r->streams[i].tid == TRACE_TID_GLOBAL) continue; /* not a thread */
    if (n < cap) tids[n] = r->streams[i].tid;
    n++;
  }
  return n;
}

size_t trace_reader_nchunks(const trace_reader *r) { return r->nchunks; }

static void chunk_info(const struct trace__chunk *c,
                       struct trace_chunk_info *ci) {
  ci->offset = c->offset;
  ci->type = c->type;
  ci->tid = c->tid;
  ci->seq_first = c->seq_first;
  ci->seq_last = c->seq_last;
  ci->comp_len = c->comp_len;
  ci->raw_len = c->raw_len;
}

int trace_reader_chunk(const trace_reader *r, size_t i,
                       struct trace_chunk_info *ci) {
  if (i >= r->nchunks) return RW_ENOTFOUND;
  chunk_info(&r->chunks[i], ci);
  return 0;
}

const struct trace__stream *trace__stream_find(const trace_reader *r,
                                               u32 tid) {
  size_t lo = 0, hi = r->nstreams;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->streams[mid].tid < tid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < r->nstreams && r->streams[lo].tid == tid ? &r->streams[lo]
                                                       : NULL;
}

u32 trace__stream_lower(const trace_reader *r, const struct trace__stream *s,
                        u64 seq) {
  u32 lo = 0, hi = s->n;
  while (lo < hi) {
    u32 mid = lo + (hi - lo) / 2;
    if (r->chunks[s->chunks[mid]].seq_last < seq)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int trace_reader_find_chunk(const trace_reader *r, u32 tid, u64 seq,
                            struct trace_chunk_info *ci) {
  const struct trace__chunk *best = NULL;
  size_t i = 0, end = r->nstreams;
  if (tid != TRACE_ALL_THREADS) {
    const struct trace__stream *s = trace__stream_find(r, tid);
    if (!s) return RW_ENOTFOUND;
    i = (size_t)(s - r->streams);
    end = i + 1;
  }
  for (; i < end; i++) {
    const struct trace__stream *s = &r->streams[i];
    u32 k = trace__stream_lower(r, s, seq);
    const struct trace__chunk *c;
    if (k == s->n) continue;
    c = &r->chunks[s->chunks[k]];
    /* Prefer the chunk holding SEQ; else the earliest one after it. */
    if (!best || (c->seq_first <= seq && best->seq_first > seq) ||
        ((c->seq_first <= seq) == (best->seq_first <= seq) &&
         c->seq_first < best->seq_first))
      best = c;
  }
  if (!best) return RW_ENOTFOUND;
  chunk_info(best, ci);
  return 0;
}
