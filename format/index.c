/* SPDX-License-Identifier: MIT */
/* The reader's tables: parsing the footer index written by windex.c, and
 * deriving the per-thread streams, the keyframe list and the sorted blob and
 * metadata tables from the chunk list, whether it came from the index or
 * from a scan (scan.c). Every count and reference read from the file is
 * checked against the file before it is used. */
#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

int trace__gap_is_cut(const trace_reader *r, int unclosed) {
  return unclosed && r->ndamaged == (u64)r->torn;
}

int trace__add_chunk(trace_reader *r, const struct trace__chunk *c) {
  if (r->nchunks == r->chunks_cap) {
    size_t ncap = r->chunks_cap ? 2 * r->chunks_cap : 64;
    struct trace__chunk *n = realloc(r->chunks, ncap * sizeof *n);
    RW_RETURN_IF(!n, RW_ENOMEM, "chunk table of %zu", ncap);
    r->chunks = n;
    r->chunks_cap = ncap;
  }
  r->chunks[r->nchunks++] = *c;
  return 0;
}

int trace__add_blob(trace_reader *r, const u8 hash[32], u64 size,
                    const u8 *name, size_t nlen, u32 first, u32 npieces) {
  struct trace__blob *b;
  if (r->nblobs == r->blobs_cap) {
    size_t ncap = r->blobs_cap ? 2 * r->blobs_cap : 16;
    struct trace__blob *n = realloc(r->blobs, ncap * sizeof *n);
    RW_RETURN_IF(!n, RW_ENOMEM, "blob table of %zu", ncap);
    r->blobs = n;
    r->blobs_cap = ncap;
  }
  b = &r->blobs[r->nblobs];
  b->name = malloc(nlen + 1);
  RW_RETURN_IF(!b->name, RW_ENOMEM, "blob name");
  if (nlen) memcpy(b->name, name, nlen);
  b->name[nlen] = 0;
  memcpy(b->hash, hash, 32);
  b->size = size;
  b->first = first;
  b->npieces = npieces;
  b->checked = 0;
  r->nblobs++;
  return 0;
}

int trace__set_meta(trace_reader *r, const u8 *key, size_t klen,
                    const u8 *val, size_t vlen) {
  struct trace__meta *m;
  char *mem;
  if (r->nmeta == r->meta_cap) {
    size_t ncap = r->meta_cap ? 2 * r->meta_cap : 16;
    struct trace__meta *n = realloc(r->meta, ncap * sizeof *n);
    RW_RETURN_IF(!n, RW_ENOMEM, "metadata table of %zu", ncap);
    r->meta = n;
    r->meta_cap = ncap;
  }
  mem = malloc(klen + vlen + 2);
  RW_RETURN_IF(!mem, RW_ENOMEM, "metadata entry");
  memcpy(mem, key, klen);
  mem[klen] = 0;
  if (vlen) memcpy(mem + klen + 1, val, vlen);
  mem[klen + 1 + vlen] = 0;
  m = &r->meta[r->nmeta];
  m->key = mem;
  m->val = (const u8 *)mem + klen + 1;
  m->len = (u32)vlen;
  m->order = r->nmeta;
  m->where = 0;
  r->nmeta++;
  return 0;
}

int trace__meta_parse(trace_reader *r, const u8 *raw, size_t len, u32 count,
                      u64 offset, struct rw_diag *diag) {
  size_t pos = 0;
  for (u32 i = 0; i < count; i++) {
    size_t klen, vlen;
    if (len - pos < 2) goto bad;
    klen = rd_le16(raw + pos);
    if (klen == 0 || klen > TRACE__MAX_KEY || len - pos - 2 < klen + 4)
      goto bad;
    if (memchr(raw + pos + 2, 0, klen)) goto bad;
    vlen = rd_le32(raw + pos + 2 + klen);
    if (vlen > len - pos - 6 - klen) goto bad;
    RW_FORWARD(
        trace__set_meta(r, raw + pos + 2, klen, raw + pos + 6 + klen, vlen));
    pos += 6 + klen + vlen;
    continue;
  bad:
    return rw_diag_set(diag, RW_ECORRUPT, offset,
                       "metadata at offset %llu: entry %u at byte %zu is "
                       "malformed",
                       (unsigned long long)offset, i, pos);
  }
  if (pos != len)
    return rw_diag_set(diag, RW_ECORRUPT, offset,
                       "metadata at offset %llu: %zu bytes after %u entries",
                       (unsigned long long)offset, len - pos, count);
  return 0;
}

/* Checks that chunks FIRST.. FIRST+N-1 are the pieces of a blob of SIZE
 * bytes whose name is NLEN bytes long. */
static int blob_pieces_check(const trace_reader *r, u64 size, size_t nlen,
                             u32 first, u32 n, u64 where,
                             struct rw_diag *diag) {
  u64 at = 0;
  for (u32 k = 0; k < n; k++) {
    const struct trace__chunk *c = &r->chunks[first + k];
    if (c->type != TRACE_CHUNK_BLOB || c->seq_last != size ||
        c->seq_first != at || c->count != (k == 0 ? nlen : 0))
      return rw_diag_set(diag, RW_ECORRUPT, where,
                         "index at offset %llu: blob piece %u (chunk at "
                         "offset %llu) does not continue the blob",
                         (unsigned long long)where, k,
                         (unsigned long long)c->offset);
    at += c->raw_len - TRACE__BLOB_PREFIX - c->count;
  }
  if (at != size)
    return rw_diag_set(diag, RW_ECORRUPT, where,
                       "index at offset %llu: blob pieces hold %llu of its "
                       "%llu bytes",
                       (unsigned long long)where, (unsigned long long)at,
                       (unsigned long long)size);
  return 0;
}

/* Parses the decompressed index RAW of chunk C. */
static int index_parse(trace_reader *r, const struct trace__chunk *c,
                       const u8 *raw, struct rw_diag *diag) {
  u64 where = c->offset, end = TRACE__INDEX_HEAD, prev_end = r->hdr_len;
  u32 nchunks, nblobs, nmeta, next_blob_chunk = 0;
  size_t len = c->raw_len, pos;
#define BAD(...) return rw_diag_set(diag, RW_ECORRUPT, where, __VA_ARGS__)
  if (len < TRACE__INDEX_HEAD)
    BAD("index at offset %llu: %zu bytes, too short", (unsigned long long)where,
        len);
  nchunks = rd_le32(raw);
  nblobs = rd_le32(raw + 4);
  nmeta = rd_le32(raw + 8);
  end += (u64)nchunks * TRACE__INDEX_CHUNK_ENTRY;
  if (end > len || nchunks > c->offset / TRACE__CHUNK_HDR ||
      (u64)nblobs * TRACE__INDEX_BLOB_FIXED > len - end ||
      nblobs > nchunks || (u64)nmeta * 6 > len)
    BAD("index at offset %llu: %u chunks, %u blobs and %u metadata entries "
        "cannot fit in %zu bytes",
        (unsigned long long)where, nchunks, nblobs, nmeta, len);
  pos = TRACE__INDEX_HEAD;
  for (u32 i = 0; i < nchunks; i++, pos += TRACE__INDEX_CHUNK_ENTRY) {
    const u8 *p = raw + pos;
    struct trace__chunk k = {0};
    k.offset = rd_le64(p);
    k.type = rd_le16(p + 8);
    k.kind = rd_le16(p + 10);
    k.tid = rd_le32(p + 12);
    k.count = rd_le32(p + 16);
    k.seq_first = rd_le64(p + 20);
    k.seq_last = rd_le64(p + 28);
    k.comp_len = rd_le32(p + 36);
    k.raw_len = rd_le32(p + 40);
    if (k.offset < prev_end || k.offset > c->offset ||
        c->offset - k.offset < TRACE__CHUNK_HDR + (u64)k.comp_len ||
        k.type == TRACE_CHUNK_INDEX)
      BAD("index at offset %llu: chunk %u at offset %llu (%u bytes) is out "
          "of place",
          (unsigned long long)where, i, (unsigned long long)k.offset,
          k.comp_len);
    RW_FORWARD(trace__chunk_sane(&k, diag));
    RW_FORWARD(trace__add_chunk(r, &k));
    prev_end = k.offset + TRACE__CHUNK_HDR + k.comp_len;
  }
  for (u32 i = 0; i < nblobs; i++) {
    const u8 *p = raw + pos;
    u32 first, n;
    size_t nlen;
    if (len - pos < TRACE__INDEX_BLOB_FIXED)
      BAD("index at offset %llu: blob table cut", (unsigned long long)where);
    nlen = rd_le16(p + 48);
    first = rd_le32(p + 40);
    n = rd_le32(p + 44);
    if (nlen > TRACE__MAX_NAME || len - pos - TRACE__INDEX_BLOB_FIXED < nlen)
      BAD("index at offset %llu: blob %u name cut", (unsigned long long)where,
          i);
    /* Blobs are listed in the order their pieces were written, so their
     * chunk ranges increase; that also bounds the work here by nchunks. */
    if (n == 0 || first < next_blob_chunk || first > nchunks ||
        n > nchunks - first)
      BAD("index at offset %llu: blob %u has pieces %u+%u of %u chunks",
          (unsigned long long)where, i, first, n, nchunks);
    RW_FORWARD(blob_pieces_check(r, rd_le64(p + 32), nlen, first, n, where,
                                 diag));
    RW_FORWARD(trace__add_blob(r, p, rd_le64(p + 32),
                               p + TRACE__INDEX_BLOB_FIXED, nlen, first, n));
    next_blob_chunk = first + n;
    pos += TRACE__INDEX_BLOB_FIXED + nlen;
  }
  RW_FORWARD(trace__meta_parse(r, raw + pos, len - pos, nmeta, where, diag));
#undef BAD
  return 0;
}

int trace__index_load(trace_reader *r, const struct trace__chunk *c,
                      struct rw_diag *diag) {
  u8 *raw = malloc(c->raw_len ? c->raw_len : 1);
  int rc;
  RW_RETURN_IF(!raw, RW_ENOMEM, "index of %u bytes", c->raw_len);
  rc = trace__payload_decompress(r->dctx, c, r->base, raw, diag);
  if (rc == 0) rc = index_parse(r, c, raw, diag);
  if (rc == 0) rc = trace__build_tables(r, 1, diag);
  free(raw);
  if (rc < 0) trace__free_tables(r);
  return rc;
}

/* ---------------------------------------------------------- derived tables */

struct pair {
  u64 key;
  u32 idx;
};

static int cmp_pair(const void *a, const void *b) {
  const struct pair *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_blob(const void *a, const void *b) {
  const struct trace__blob *x = a, *y = b;
  int c = memcmp(x->hash, y->hash, 32);
  if (c) return c;
  return x->first < y->first ? -1 : x->first > y->first;
}

static int cmp_meta(const void *a, const void *b) {
  const struct trace__meta *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  if (c) return c;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* Groups the RECORDS chunks by thread, in file order within a thread. */
static int build_streams(trace_reader *r, int strict, struct rw_diag *diag) {
  size_t n = 0, ns = 0, out = 0;
  struct pair *v;
  for (size_t i = 0; i < r->nchunks; i++)
    n += r->chunks[i].type == TRACE_CHUNK_RECORDS;
  if (!n) return 0;
  v = malloc(n * sizeof *v);
  r->stream_chunks = malloc(n * sizeof *r->stream_chunks);
  r->streams = calloc(n, sizeof *r->streams);
  if (!v || !r->stream_chunks || !r->streams) {
    free(v);
    return RW_ENOMEM;
  }
  n = 0;
  for (size_t i = 0; i < r->nchunks; i++)
    if (r->chunks[i].type == TRACE_CHUNK_RECORDS)
      v[n++] = (struct pair){r->chunks[i].tid, (u32)i};
  qsort(v, n, sizeof *v, cmp_pair);
  for (size_t i = 0; i < n; i++) {
    const struct trace__chunk *c = &r->chunks[v[i].idx];
    struct trace__stream *s = ns ? &r->streams[ns - 1] : NULL;
    if (!s || s->tid != c->tid) {
      s = &r->streams[ns++];
      s->tid = c->tid;
      s->chunks = r->stream_chunks + out;
    } else if (c->seq_first <= r->chunks[s->chunks[s->n - 1]].seq_last) {
      char msg[160];
      snprintf(msg, sizeof msg,
               "chunk at offset %llu: thread %u records %llu..%llu do not "
               "follow its previous chunk",
               (unsigned long long)c->offset, c->tid,
               (unsigned long long)c->seq_first,
               (unsigned long long)c->seq_last);
      if (strict) {
        free(v);
        return rw_diag_set(diag, RW_ECORRUPT, c->offset, "%s", msg);
      }
      trace__damage(r, c->offset, msg);
      continue;
    }
    r->stream_chunks[out++] = v[i].idx;
    s->n++;
    s->nrecords += c->count;
  }
  r->nstreams = ns;
  free(v);
  return 0;
}

static int build_keyframes(trace_reader *r) {
  size_t n = 0;
  struct pair *v;
  for (size_t i = 0; i < r->nchunks; i++)
    n += r->chunks[i].type == TRACE_CHUNK_KEYFRAME;
  if (!n) return 0;
  v = malloc(n * sizeof *v);
  r->keyframes = malloc(n * sizeof *r->keyframes);
  if (!v || !r->keyframes) {
    free(v);
    return RW_ENOMEM;
  }
  n = 0;
  for (size_t i = 0; i < r->nchunks; i++)
    if (r->chunks[i].type == TRACE_CHUNK_KEYFRAME)
      v[n++] = (struct pair){r->chunks[i].seq_first, (u32)i};
  qsort(v, n, sizeof *v, cmp_pair);
  for (size_t i = 0; i < n; i++) r->keyframes[i] = v[i].idx;
  r->nkeyframes = n;
  free(v);
  return 0;
}

/* Groups the RECORDS chunks into stretches of sequence numbers, from the
 * chunk headers alone: chunks whose ranges overlap or touch (threads that
 * ran in turn) form one group, which must hold every number of its span,
 * and consecutive groups must touch. In a closed trace (STRICT: its index
 * was loaded) a shortfall is a lost chunk, recorded as damage here; in one
 * that was not, it is what a recorder that died leaves, or the consequence
 * of damage the scan found (trace__gap_is_cut). Records lost after the last
 * chunk cannot be seen here; the replay finds that out by the missing
 * END. The cursor uses the groups to report one gap per group. */
static int seq_coverage(trace_reader *r, int strict) {
  size_t n = 0, ng = 0;
  struct pair *v;
  char msg[200];
  for (size_t i = 0; i < r->nstreams; i++) n += r->streams[i].n;
  if (!n) return 0;
  v = malloc(n * sizeof *v);
  r->groups = malloc(n * sizeof *r->groups);
  if (!v || !r->groups) {
    free(v);
    return RW_ENOMEM;
  }
  n = 0;
  for (size_t i = 0; i < r->nstreams; i++)
    for (u32 k = 0; k < r->streams[i].n; k++) {
      u32 idx = r->streams[i].chunks[k];
      v[n++] = (struct pair){r->chunks[idx].seq_first, idx};
    }
  qsort(v, n, sizeof *v, cmp_pair);
  for (size_t i = 0; i < n; i++) {
    const struct trace__chunk *c = &r->chunks[v[i].idx];
    struct trace__group *g = ng ? &r->groups[ng - 1] : NULL;
    if (g && c->seq_first <= g->hi + 1) { /* the group goes on */
      g->hi = RW_MAX(g->hi, c->seq_last);
      g->count += c->count;
      continue;
    }
    r->groups[ng++] = (struct trace__group){c->seq_first, c->seq_last,
                                            c->count, c->offset};
  }
  r->ngroups = ng;
  free(v);
  {
    /* A closed trace says how many records it holds: those lost from its
     * end leave no gap to see. */
    const void *val;
    size_t len;
    char buf[24];
    u64 want, have = ng ? r->groups[ng - 1].hi : 0;
    if (strict &&
        trace_reader_meta(r, TRACE_META_RECORDS, &val, &len) == 0 && len &&
        len < sizeof buf) {
      memcpy(buf, val, len);
      buf[len] = 0;
      want = strtoull(buf, NULL, 10);
      if (want > have) {
        snprintf(msg, sizeof msg,
                 "records %llu..%llu are missing from the end of the trace "
                 "(its metadata says it holds %llu)",
                 (unsigned long long)(have + 1), (unsigned long long)want,
                 (unsigned long long)want);
        trace__damage(r, r->size, msg);
      }
    }
  }
  for (size_t i = 0; strict && i < ng; i++) {
    const struct trace__group *g = &r->groups[i];
    u64 lo = i ? r->groups[i - 1].hi + 1 : trace__first_seq(r);
    if (g->lo != lo) {
      snprintf(msg, sizeof msg,
               "records %llu..%llu are missing: no chunk holds them (a "
               "chunk of the trace is lost)",
               (unsigned long long)lo, (unsigned long long)(g->lo - 1));
      trace__damage(r, g->offset, msg);
    }
    if (g->count != g->hi - g->lo + 1) {
      snprintf(msg, sizeof msg,
               "%llu of the records %llu..%llu are missing from the chunks "
               "from offset %llu on (a chunk of the trace is lost)",
               (unsigned long long)(g->hi - g->lo + 1 - g->count),
               (unsigned long long)g->lo, (unsigned long long)g->hi,
               (unsigned long long)g->offset);
      trace__damage(r, g->offset, msg);
    }
  }
  return 0;
}

u64 trace__first_seq(const trace_reader *r) {
  const void *val;
  size_t len;
  char buf[24];
  if (trace_reader_meta(r, TRACE_META_FIRST_SEQ, &val, &len) < 0 || !len ||
      len >= sizeof buf)
    return 1;
  memcpy(buf, val, len);
  buf[len] = 0;
  u64 v = strtoull(buf, NULL, 10);
  return v ? v : 1;
}

const struct trace__group *trace__group_find(const trace_reader *r,
                                             u64 seq) {
  size_t lo = 0, hi = r->ngroups;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->groups[mid].hi < seq)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < r->ngroups && r->groups[lo].lo <= seq ? &r->groups[lo] : NULL;
}

int trace__build_tables(trace_reader *r, int strict, struct rw_diag *diag) {
  size_t out = 0;
  RW_FORWARD(build_streams(r, strict, diag));
  RW_FORWARD(build_keyframes(r));
  if (r->nblobs) qsort(r->blobs, r->nblobs, sizeof *r->blobs, cmp_blob);
  for (size_t i = 1; strict && i < r->nblobs; i++)
    if (!memcmp(r->blobs[i - 1].hash, r->blobs[i].hash, 32)) {
      u64 off = r->chunks[r->blobs[i].first].offset;
      return rw_diag_set(diag, RW_ECORRUPT, off,
                         "blob at offset %llu is stored twice",
                         (unsigned long long)off);
    }
  for (size_t i = 0; i < r->nblobs; i++) {
    if (out && !memcmp(r->blobs[out - 1].hash, r->blobs[i].hash, 32)) {
      free(r->blobs[i].name); /* a copy stored again: keep the first */
      continue;
    }
    r->blobs[out++] = r->blobs[i];
  }
  r->nblobs = out;
  if (r->nmeta) qsort(r->meta, r->nmeta, sizeof *r->meta, cmp_meta);
  out = 0;
  for (size_t i = 0; i < r->nmeta; i++) {
    if (out && !strcmp(r->meta[out - 1].key, r->meta[i].key)) {
      free(r->meta[out - 1].key); /* an older value of the same key */
      out--;
    }
    r->meta[out++] = r->meta[i];
  }
  r->nmeta = out;
  RW_FORWARD(seq_coverage(r, strict)); /* uses the metadata */
  return 0;
}

void trace__free_tables(trace_reader *r) {
  for (size_t i = 0; i < r->nblobs; i++) free(r->blobs[i].name);
  for (size_t i = 0; i < r->nmeta; i++) free(r->meta[i].key);
  free(r->chunks);
  free(r->streams);
  free(r->stream_chunks);
  free(r->blobs);
  free(r->keyframes);
  free(r->meta);
  free(r->groups);
  r->groups = NULL;
  r->ngroups = 0;
  r->chunks = NULL;
  r->streams = NULL;
  r->stream_chunks = NULL;
  r->blobs = NULL;
  r->keyframes = NULL;
  r->meta = NULL;
  r->nchunks = r->chunks_cap = r->nstreams = r->nblobs = r->blobs_cap = 0;
  r->nkeyframes = r->nmeta = r->meta_cap = 0;
}
