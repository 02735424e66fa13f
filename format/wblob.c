/* SPDX-License-Identifier: MIT */
/* Content-addressed blobs on the writing side: each distinct content is
 * stored once, named by its SHA-256, as one or more BLOB chunks of at most
 * TRACE__BLOB_PIECE bytes so a reader never needs more than one piece in
 * memory. Reading blobs back is in blob.c. */
#include <stdlib.h>
#include <string.h>

#include "format/writer_int.h"

static size_t hash_slot(const u8 hash[32], size_t cap) {
  return (size_t)rd_le64(hash) & (cap - 1);
}

static struct trace__wblob *blob_find(trace_writer *w, const u8 hash[32]) {
  if (!w->btab_cap) return NULL;
  for (size_t i = hash_slot(hash, w->btab_cap); w->btab[i];
       i = (i + 1) & (w->btab_cap - 1))
    if (!memcmp(w->blobs[w->btab[i] - 1].hash, hash, 32))
      return &w->blobs[w->btab[i] - 1];
  return NULL;
}

/* Makes room for one more blob in the array and the hash table. */
static int blob_grow(trace_writer *w) {
  if (w->nblobs == w->blobs_cap) {
    size_t ncap = w->blobs_cap ? 2 * w->blobs_cap : 16;
    struct trace__wblob *nb = realloc(w->blobs, ncap * sizeof *nb);
    RW_RETURN_IF(!nb, RW_ENOMEM, "blob table");
    w->blobs = nb;
    w->blobs_cap = ncap;
  }
  if (2 * (w->nblobs + 1) > w->btab_cap) {
    size_t ncap = w->btab_cap ? 2 * w->btab_cap : 32;
    u32 *nt = calloc(ncap, sizeof *nt);
    RW_RETURN_IF(!nt, RW_ENOMEM, "blob hash table");
    for (size_t k = 0; k < w->nblobs; k++) {
      size_t i = hash_slot(w->blobs[k].hash, ncap);
      while (nt[i]) i = (i + 1) & (ncap - 1);
      nt[i] = (u32)k + 1;
    }
    free(w->btab);
    w->btab = nt;
    w->btab_cap = ncap;
  }
  return 0;
}

/* Enters a blob whose NPIECES chunks from FIRST on are queued in the table
 * (blob_grow made room). */
static int blob_enter(trace_writer *w, const u8 hash[32], u64 size,
                      const char *name, size_t nlen, u32 first,
                      u32 npieces) {
  struct trace__wblob *b = &w->blobs[w->nblobs];
  memset(b, 0, sizeof *b);
  b->name = malloc(nlen + 1);
  RW_RETURN_IF(!b->name, RW_ENOMEM, "blob name");
  if (nlen) memcpy(b->name, name, nlen);
  b->name[nlen] = 0;
  memcpy(b->hash, hash, 32);
  b->size = size;
  b->first_chunk = first;
  b->npieces = npieces;
  size_t i = hash_slot(hash, w->btab_cap);
  while (w->btab[i]) i = (i + 1) & (w->btab_cap - 1);
  w->btab[i] = (u32)++w->nblobs;
  return 0;
}

int trace_writer_add_blob(trace_writer *w, const char *name, const void *data,
                          size_t len, u8 hash[32]) {
  size_t nlen = name ? strlen(name) : 0;
  u64 done = 0;
  u32 first, npieces = 0;
  RW_RETURN_IF(w->err, w->err, "earlier error");
  RW_RETURN_IF(len && !data, RW_EINVAL, "blob without data");
  if (nlen > TRACE__MAX_NAME) nlen = TRACE__MAX_NAME;
  RW_FORWARD(rw_sha256(data, len, hash));
  if (blob_find(w, hash)) return 0;
  RW_FORWARD(blob_grow(w));
  RW_FORWARD(trace__w_meta_flush(w));
  first = (u32)w->nqueued;
  RW_FORWARD(trace__reserve(&w->rawbuf, &w->rawbuf_cap,
                            TRACE__BLOB_PREFIX + TRACE__MAX_NAME +
                                RW_MIN(len, (size_t)TRACE__BLOB_PIECE)));
  /* Piece 0 carries the name; every piece carries the hash, so a reader
   * rebuilding the index can group pieces without the index. */
  do {
    size_t take = RW_MIN(len - done, (u64)TRACE__BLOB_PIECE);
    size_t plen = npieces == 0 ? nlen : 0;
    struct trace__chunk c = {0};
    u8 *p = w->rawbuf;
    memcpy(p, hash, 32);
    wr_le16(p + 32, (u16)plen);
    if (plen) memcpy(p + TRACE__BLOB_PREFIX, name, plen);
    if (take)
      memcpy(p + TRACE__BLOB_PREFIX + plen, (const u8 *)data + done, take);
    c.type = TRACE_CHUNK_BLOB;
    c.count = (u32)plen;
    c.seq_first = done;
    c.seq_last = len;
    c.raw_len = (u32)(TRACE__BLOB_PREFIX + plen + take);
    RW_FORWARD(trace__w_chunk(w, &c, p));
    done += take;
    npieces++;
  } while (done < len);

  return blob_enter(w, hash, len, name, nlen, first, npieces);
}

int trace_writer_add_blob_image(trace_writer *w, const u8 *img, size_t len,
                                u8 hash[32], u64 *size) {
  u8 head[TRACE__BLOB_PREFIX + TRACE__MAX_NAME];
  size_t pos = 0, nlen = 0;
  u64 done = 0, total = 0;
  u32 npieces = 0;
  RW_RETURN_IF(w->err, w->err, "earlier error");
  /* Every piece is checked before any is written: an image that does not
   * check leaves the trace as it was. */
  while (pos < len) {
    struct trace__chunk c;
    RW_RETURN_IF(len - pos < TRACE__CHUNK_HDR ||
                     trace__chunk_decode(&c, img + pos, 0, NULL) < 0 ||
                     c.type != TRACE_CHUNK_BLOB ||
                     len - pos - TRACE__CHUNK_HDR < c.comp_len ||
                     rw_crc32c(0, img + pos + TRACE__CHUNK_HDR, c.comp_len) !=
                         c.payload_crc,
                 RW_ECORRUPT, "stored blob: piece %u does not check",
                 npieces);
    if (npieces == 0) {
      total = c.seq_last;
      nlen = c.count;
      ZSTD_DCtx *d = ZSTD_createDCtx();
      RW_RETURN_IF(!d, RW_ENOMEM, "zstd context");
      int rc = trace__payload_prefix(d, &c, img + pos + TRACE__CHUNK_HDR,
                                     head, TRACE__BLOB_PREFIX + nlen, NULL);
      ZSTD_freeDCtx(d);
      RW_FORWARD(rc);
      RW_RETURN_IF(rd_le16(head + 32) != nlen, RW_ECORRUPT,
                   "stored blob: name length");
    }
    RW_RETURN_IF(c.seq_first != done || c.seq_last != total ||
                     (npieces && c.count) ||
                     c.raw_len < TRACE__BLOB_PREFIX + c.count,
                 RW_ECORRUPT, "stored blob: piece %u out of order", npieces);
    done += c.raw_len - TRACE__BLOB_PREFIX - c.count;
    pos += TRACE__CHUNK_HDR + c.comp_len;
    npieces++;
  }
  RW_RETURN_IF(!npieces || done != total, RW_ECORRUPT,
               "stored blob: %llu of %llu bytes", (unsigned long long)done,
               (unsigned long long)total);
  memcpy(hash, head, 32);
  if (size) *size = total;
  if (blob_find(w, hash)) return 0;
  RW_FORWARD(blob_grow(w));
  RW_FORWARD(trace__w_meta_flush(w));
  u32 first = (u32)w->nqueued;
  for (pos = 0; pos < len;) {
    struct trace__chunk c;
    RW_FORWARD(trace__chunk_decode(&c, img + pos, 0, NULL));
    RW_FORWARD(trace__w_chunk_pre(w, &c, img + pos + TRACE__CHUNK_HDR));
    pos += TRACE__CHUNK_HDR + c.comp_len;
  }
  return blob_enter(w, hash, total, (const char *)head + TRACE__BLOB_PREFIX,
                    nlen, first, npieces);
}

void trace__w_free_blobs(trace_writer *w) {
  for (size_t i = 0; i < w->nblobs; i++) free(w->blobs[i].name);
  free(w->blobs);
  free(w->btab);
}
