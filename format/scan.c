/* SPDX-License-Identifier: MIT */
/* Rebuilding the index of a trace whose trailer or index is missing (the
 * writer was killed) or damaged: walk the chunks from the end of the header,
 * keep every chunk whose header and payload checksums hold, and after damage
 * search forward for the next valid chunk header so that later chunks stay
 * readable. Metadata and blob names are recovered from the chunks themselves.
 * Record payloads are not decompressed here; cursors check them. */
#define _GNU_SOURCE /* memmem, SEEK_DATA */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/format_int.h"

/* A blob whose pieces are being collected; pieces are written back to back,
 * so anything else in between abandons it. */
struct blob_acc {
  int active;
  u8 hash[32];
  u64 size, at;
  u8 name[TRACE__MAX_NAME];
  size_t nlen;
  u32 first, n;
};

/* Bytes searched at once for a chunk header. */
#define SCAN_WINDOW ((u64)64 << 20)

/* Moves *FROM past a hole of the file (holes read as zeros and cannot hold
 * a chunk) and returns the end of the stretch to search from there: the
 * next hole, at most SCAN_WINDOW away. So a sparse file of gigabytes is
 * rejected without reading its zeros. */
static u64 data_end(const trace_reader *r, u64 *from) {
  u64 end = r->size;
  if (r->fd >= 0) {
    off_t d = lseek(r->fd, (off_t)*from, SEEK_DATA), h;
    if (d < 0) { /* ENXIO: only a hole is left */
      if (errno == ENXIO) *from = r->size;
      return r->size;
    }
    *from = (u64)d;
    h = lseek(r->fd, d, SEEK_HOLE);
    if (h > d) end = (u64)h;
  }
  return RW_MIN(end, RW_MIN(r->size, *from + SCAN_WINDOW));
}

/* Lets the kernel drop the pages of [A, B) that a search read, so that
 * rejecting a large file that is not a trace holds little memory. */
static void forget(const trace_reader *r, u64 a, u64 b) {
  u64 page = 4096;
  a = (a + page - 1) & ~(page - 1);
  b &= ~(page - 1);
  if (r->fd >= 0 && b > a)
    madvise((void *)(r->base + a), (size_t)(b - a), MADV_DONTNEED);
}

/* The next offset at or after FROM holding a chunk header that decodes
 * (magic, checksum, sane fields) and whose payload fits in the file, or the
 * file size when there is none. The payload checksum is left to the main
 * loop, which then skips the whole chunk by its length, so the total work
 * stays linear in the file size. */
static u64 resync(const trace_reader *r, u64 from) {
  static const u8 magic[4] = {'R', 'W', 'C', 'K'};
  while (from < r->size && r->size - from >= TRACE__CHUNK_HDR) {
    u64 end = data_end(r, &from);
    const u8 *p;
    struct trace__chunk c;
    u64 o;
    if (from >= r->size) break;
    p = memmem(r->base + from, end - from, magic, 4);
    if (!p) {
      forget(r, from, end);
      /* A header may straddle the end of a window (not of data). */
      from = end - from > 3 && end < r->size ? end - 3 : end;
      continue;
    }
    o = (u64)(p - r->base);
    if (r->size - o >= TRACE__CHUNK_HDR &&
        trace__chunk_decode(&c, p, o, NULL) == 0 &&
        r->size - o - TRACE__CHUNK_HDR >= c.comp_len)
      return o;
    from = o + 1;
  }
  return r->size;
}

/* Adds BLOB chunk C (index IDX) to the blob being collected in A. */
static int blob_piece(trace_reader *r, struct blob_acc *a,
                      const struct trace__chunk *c, u32 idx,
                      struct rw_diag *diag) {
  u8 prefix[TRACE__BLOB_PREFIX + TRACE__MAX_NAME];
  RW_FORWARD(trace__payload_prefix(r->dctx, c,
                                   r->base + c->offset + TRACE__CHUNK_HDR,
                                   prefix, TRACE__BLOB_PREFIX + c->count,
                                   diag));
  if (rd_le16(prefix + 32) != c->count)
    return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "blob piece at offset %llu: name length %u, header "
                       "says %u",
                       (unsigned long long)c->offset, rd_le16(prefix + 32),
                       c->count);
  if (c->seq_first == 0) {
    a->active = 1;
    memcpy(a->hash, prefix, 32);
    a->size = c->seq_last;
    a->at = 0;
    a->nlen = c->count;
    memcpy(a->name, prefix + TRACE__BLOB_PREFIX, a->nlen);
    a->first = idx;
    a->n = 0;
  } else if (!a->active || memcmp(a->hash, prefix, 32) ||
             c->seq_first != a->at || c->seq_last != a->size || c->count) {
    a->active = 0; /* a piece without its predecessors */
    return 0;
  }
  a->n++;
  a->at += c->raw_len - TRACE__BLOB_PREFIX - c->count;
  if (a->at == a->size) {
    a->active = 0;
    return trace__add_blob(r, a->hash, a->size, a->name, a->nlen, a->first,
                           a->n);
  }
  return 0;
}

/* Reads the metadata of META chunk C. */
static int meta_chunk(trace_reader *r, const struct trace__chunk *c,
                      struct rw_diag *diag) {
  u8 *raw = malloc(c->raw_len ? c->raw_len : 1);
  int rc;
  RW_RETURN_IF(!raw, RW_ENOMEM, "metadata of %u bytes", c->raw_len);
  rc = trace__payload_decompress(r->dctx, c, r->base, raw, diag);
  if (rc == 0) {
    size_t before = r->nmeta;
    rc = trace__meta_parse(r, raw, c->raw_len, c->count, c->offset, diag);
    /* A malformed chunk contributes nothing, not half of its entries. */
    while (rc < 0 && r->nmeta > before) free(r->meta[--r->nmeta].key);
  }
  free(raw);
  return rc;
}

/* Checks chunk C, already decoded at its offset, and adds it to R. Returns 0
 * (added), 1 (skipped: damage recorded in DIAG) or RW_ENOMEM. */
static int take_chunk(trace_reader *r, struct blob_acc *a,
                      const struct trace__chunk *c, struct rw_diag *diag) {
  int rc = 0;
  if (trace__payload_check(c, r->base, diag) < 0) return 1;
  if (c->type != TRACE_CHUNK_BLOB) a->active = 0;
  if (c->type == TRACE_CHUNK_META)
    rc = meta_chunk(r, c, diag);
  else if (c->type == TRACE_CHUNK_BLOB)
    rc = blob_piece(r, a, c, (u32)r->nchunks, diag);
  if (rc == RW_ENOMEM) return rc;
  if (rc < 0) {
    a->active = 0;
    return 1;
  }
  RW_FORWARD(trace__add_chunk(r, c));
  return 0;
}

/* Marks the damage at OFF as the torn end of a trace whose writer died. */
static void torn(trace_reader *r, u64 off) {
  r->torn = 1;
  if (r->ndamages && r->damages[r->ndamages - 1].offset == off)
    r->damages[r->ndamages - 1].torn = 1;
}

int trace__scan(trace_reader *r) {
  struct blob_acc *a = calloc(1, sizeof *a);
  u64 off = r->hdr_len;
  int rc = 0;
  RW_RETURN_IF(!a, RW_ENOMEM, "scan state");
  while (off < r->size) {
    u64 rem = r->size - off;
    struct trace__chunk c;
    struct rw_diag d = {0};
    if (rem < TRACE__CHUNK_HDR) {
      if (rem == TRACE__TRAILER_SIZE &&
          !memcmp(r->base + off, TRACE__TRAILER_MAGIC, 8))
        break; /* the trailer; checked (and any damage noted) already */
      rw_diag_set(&d, RW_ETRUNC, off,
                  "chunk header at offset %llu cut short: the file ends "
                  "%llu bytes later",
                  (unsigned long long)off, (unsigned long long)rem);
      trace__damage(r, off, d.msg);
      torn(r, off);
      break;
    }
    if (trace__chunk_decode(&c, r->base + off, off, &d) < 0) {
      trace__damage(r, off, d.msg);
      off = resync(r, off + 1);
      continue;
    }
    if (rem - TRACE__CHUNK_HDR < c.comp_len) {
      u64 bad = off;
      rw_diag_set(&d, RW_ETRUNC, off,
                  "chunk at offset %llu cut short: %u payload bytes, the "
                  "file ends after %llu",
                  (unsigned long long)off, c.comp_len,
                  (unsigned long long)(rem - TRACE__CHUNK_HDR));
      trace__damage(r, off, d.msg);
      off = resync(r, off + 1);
      if (off == r->size) torn(r, bad); /* the last chunk, being written */
      continue;
    }
    /* The header checksum held, so its length can be trusted to skip the
     * chunk even if its payload is bad. */
    if (c.type != TRACE_CHUNK_INDEX) {
      rc = take_chunk(r, a, &c, &d);
      if (rc < 0) break;
      if (rc == 1) trace__damage(r, off, d.msg);
      rc = 0;
    }
    off += TRACE__CHUNK_HDR + c.comp_len;
  }
  free(a);
  RW_FORWARD(rc);
  return trace__build_tables(r, 0, NULL);
}
