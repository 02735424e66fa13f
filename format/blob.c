/* SPDX-License-Identifier: MIT */
/* Reading blobs and keyframes back: lookup by hash (binary search in the
 * sorted blob table) and by position, and copying bytes out of the chunk
 * that holds them. A blob's content is checked against its hash the first
 * time any of it is read. The reader caches the last chunk it decompressed for
 * these, so sequential reads of a blob decompress each piece once. */
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "format/format_int.h"

static void blob_info(const struct trace__blob *b, struct trace_blob_info *bi) {
  memcpy(bi->hash, b->hash, 32);
  bi->size = b->size;
  bi->name = b->name;
}

static struct trace__blob *blob_find(const trace_reader *r,
                                     const u8 hash[32]) {
  size_t lo = 0, hi = r->nblobs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = memcmp(r->blobs[mid].hash, hash, 32);
    if (c == 0) return &r->blobs[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

size_t trace_reader_nblobs(const trace_reader *r) { return r->nblobs; }

int trace_reader_blob_info(const trace_reader *r, size_t i,
                           struct trace_blob_info *bi) {
  if (i >= r->nblobs) return RW_ENOTFOUND;
  blob_info(&r->blobs[i], bi);
  return 0;
}

int trace_reader_find_blob(const trace_reader *r, const u8 hash[32],
                           struct trace_blob_info *bi) {
  const struct trace__blob *b = blob_find(r, hash);
  if (!b) return RW_ENOTFOUND;
  blob_info(b, bi);
  return 0;
}

/* Decompresses chunk IDX into the reader's cache unless it is there. */
static int cache_load(trace_reader *r, u32 idx, struct rw_diag *diag) {
  if (r->cache_chunk == (i64)idx) return 0;
  r->cache_chunk = -1;
  RW_FORWARD(
      trace__chunk_load(r, idx, r->dctx, &r->cache, &r->cache_cap, diag));
  r->cache_chunk = idx;
  return 0;
}

/* Hashes every piece of B once and remembers whether the content matches
 * the SHA-256 that names it: each piece's checksum covers only its own
 * bytes, so this is what says the blob is the file that was recorded. */
static int blob_check(trace_reader *r, struct trace__blob *b,
                      struct rw_diag *diag) {
  struct rw_sha256_ctx h;
  u8 got[32];
  u64 at = 0;
  if (b->checked) {
    if (b->checked > 0) return 0;
    return rw_diag_set(diag, b->checked,
                       r->chunks[b->first].offset,
                       "blob '%.80s' (offset %llu) does not match its "
                       "SHA-256",
                       b->name,
                       (unsigned long long)r->chunks[b->first].offset);
  }
  RW_FORWARD(rw_sha256_init(&h));
  for (u32 k = 0; k < b->npieces; k++) {
    const struct trace__chunk *c = &r->chunks[b->first + k];
    size_t skip = TRACE__BLOB_PREFIX + c->count;
    int rc = cache_load(r, b->first + k, diag);
    if (rc == 0 && memcmp(r->cache, b->hash, 32))
      rc = rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "blob piece at offset %llu belongs to another blob",
                       (unsigned long long)c->offset);
    if (rc < 0) {
      rw_sha256_drop(&h);
      return rc;
    }
    rw_sha256_update(&h, r->cache + skip, c->raw_len - skip);
    at += c->raw_len - skip;
  }
  RW_FORWARD(rw_sha256_final(&h, got));
  b->checked = at == b->size && !memcmp(got, b->hash, 32) ? 1 : RW_ECORRUPT;
  return blob_check(r, b, diag);
}

void trace_reader_defer_hash(trace_reader *r, int on) {
  r->defer_hash = on != 0;
}

int trace_reader_blob_check(trace_reader *r, size_t i,
                            struct rw_diag *diag) {
  if (i >= r->nblobs) return RW_ENOTFOUND;
  return blob_check(r, &r->blobs[i], diag);
}

i64 trace_reader_blob_read(trace_reader *r, const u8 hash[32], u64 off,
                           void *dst, size_t cap, struct rw_diag *diag) {
  struct trace__blob *b = blob_find(r, hash);
  size_t done = 0;
  u32 lo, hi;
  if (!b) return rw_diag_set(diag, RW_ENOTFOUND, 0, "no such blob");
  if (!r->defer_hash || b->checked) RW_FORWARD(blob_check(r, b, diag));
  if (off >= b->size) return 0;
  /* The last piece starting at or before OFF. */
  lo = 0;
  hi = b->npieces;
  while (hi - lo > 1) {
    u32 mid = lo + (hi - lo) / 2;
    if (r->chunks[b->first + mid].seq_first <= off)
      lo = mid;
    else
      hi = mid;
  }
  for (u32 k = lo; k < b->npieces && done < cap && off < b->size; k++) {
    const struct trace__chunk *c = &r->chunks[b->first + k];
    size_t skip = TRACE__BLOB_PREFIX + c->count;
    u64 plen = c->raw_len - skip, in;
    size_t take;
    RW_FORWARD(cache_load(r, b->first + k, diag));
    if (memcmp(r->cache, b->hash, 32))
      return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                         "blob piece at offset %llu belongs to another blob",
                         (unsigned long long)c->offset);
    in = off - c->seq_first;
    if (in >= plen) continue;
    take = (size_t)RW_MIN(plen - in, (u64)(cap - done));
    memcpy((u8 *)dst + done, r->cache + skip + in, take);
    done += take;
    off += take;
  }
  return (i64)done;
}

int trace_reader_recorder_state(trace_reader *r, size_t i, u64 *seq, u8 **img,
                                size_t *len, struct rw_diag *diag) {
  u8 p[TRACE_KF_RECORDER_SIZE];
  *img = NULL;
  *len = 0;
  i64 got = trace_reader_keyframe_read(r, i, p, sizeof p, diag);
  if (got < 0) return (int)got;
  if (got < (i64)sizeof p || rd_le32(p) != 1)
    return rw_diag_set(diag, RW_ECORRUPT, 0, "recorder keyframe %zu: %s", i,
                       got < (i64)sizeof p ? "its entry is too short"
                                           : "of an unknown version");
  *seq = rd_le64(p + 8);
  u64 n = rd_le64(p + 16);
  struct trace_blob_info bi;
  if (trace_reader_find_blob(r, p + 24, &bi) < 0 || bi.size != n)
    return rw_diag_set(diag, RW_ECORRUPT, 0, "recorder keyframe %zu: the "
                       "trace does not hold its state (a lost BLOB chunk)",
                       i);
  u8 *b = malloc(n ? (size_t)n : 1);
  if (!b) return rw_diag_set(diag, RW_ENOMEM, 0, "recorder keyframe %zu: "
                             "%llu bytes", i, (unsigned long long)n);
  got = trace_reader_blob_read(r, p + 24, 0, b, (size_t)n, diag);
  if (got != (i64)n) {
    free(b);
    if (got < 0) return (int)got;
    return rw_diag_set(diag, RW_ECORRUPT, 0, "recorder keyframe %zu: its "
                       "state has %lld of %llu bytes", i, (long long)got,
                       (unsigned long long)n);
  }
  *img = b;
  *len = (size_t)n;
  return 0;
}

size_t trace_reader_nkeyframes(const trace_reader *r) { return r->nkeyframes; }

int trace_reader_keyframe_info(const trace_reader *r, size_t i,
                               struct trace_keyframe_info *ki) {
  const struct trace__chunk *c;
  if (i >= r->nkeyframes) return RW_ENOTFOUND;
  c = &r->chunks[r->keyframes[i]];
  ki->kind = c->kind;
  ki->seq = c->seq_first;
  ki->offset = c->offset;
  ki->raw_len = c->raw_len;
  return 0;
}

i64 trace_reader_keyframe_read(trace_reader *r, size_t i, void *dst,
                               size_t cap, struct rw_diag *diag) {
  u32 idx;
  size_t n;
  if (i >= r->nkeyframes)
    return rw_diag_set(diag, RW_ENOTFOUND, 0, "no keyframe %zu", i);
  idx = r->keyframes[i];
  RW_FORWARD(cache_load(r, idx, diag));
  n = RW_MIN((size_t)r->chunks[idx].raw_len, cap);
  if (n) memcpy(dst, r->cache, n);
  return (i64)n;
}

int trace_reader_blob_image(trace_reader *r, const u8 hash[32], u8 **out,
                            size_t *len) {
  const struct trace__blob *b = blob_find(r, hash);
  *out = NULL;
  *len = 0;
  if (!b) return RW_ENOTFOUND;
  size_t n = 0;
  for (u32 k = 0; k < b->npieces; k++) {
    const struct trace__chunk *c = &r->chunks[b->first + k];
    RW_RETURN_IF(c->offset > r->size ||
                     r->size - c->offset < TRACE__CHUNK_HDR + (u64)c->comp_len,
                 RW_ETRUNC, "blob piece at offset %llu past the end",
                 (unsigned long long)c->offset);
    n += TRACE__CHUNK_HDR + c->comp_len;
  }
  u8 *p = malloc(n ? n : 1);
  RW_RETURN_IF(!p, RW_ENOMEM, "blob image of %zu bytes", n);
  size_t at = 0;
  for (u32 k = 0; k < b->npieces; k++) {
    const struct trace__chunk *c = &r->chunks[b->first + k];
    memcpy(p + at, r->base + c->offset, TRACE__CHUNK_HDR + c->comp_len);
    at += TRACE__CHUNK_HDR + c->comp_len;
  }
  *out = p;
  *len = n;
  return 0;
}
