/* SPDX-License-Identifier: MIT */
/* The footer index, written once when the trace is closed: the chunk table,
 * the blob table and the final metadata in one INDEX chunk, then the
 * fixed-size trailer that locates it. Field layout: rewind-trace(5), "Index
 * chunk". Parsing it back is in index.c. */
#include <stdlib.h>
#include <string.h>

#include "format/writer_int.h"

/* Bytes the index payload needs. */
static u64 index_size(const trace_writer *w) {
  u64 n = TRACE__INDEX_HEAD + (u64)w->nchunks * TRACE__INDEX_CHUNK_ENTRY;
  for (size_t i = 0; i < w->nblobs; i++)
    n += TRACE__INDEX_BLOB_FIXED + strlen(w->blobs[i].name);
  for (size_t i = 0; i < w->nmeta; i++)
    n += 6 + strlen(w->meta[i].key) + w->meta[i].len;
  return n;
}

static int cmp_meta(const void *a, const void *b) {
  return strcmp(((const struct trace__wmeta *)a)->key,
                ((const struct trace__wmeta *)b)->key);
}

int trace__w_index(trace_writer *w) {
  struct trace__chunk c = {0};
  u64 size = index_size(w), first = 0, last = 0;
  u8 trailer[TRACE__TRAILER_SIZE];
  u8 *p;
  RW_RETURN_IF(w->err, w->err, "earlier error");
  if (size > TRACE__MAX_CHUNK_RAW) {
    /* Too many chunks for one index: leave the trace without one; readers
     * rebuild it by scanning, which costs time but loses nothing. */
    rw_log(RW_LOG_INFO, "trace index of %llu bytes is over the limit; "
                        "readers will rebuild it",
           (unsigned long long)size);
    return 0;
  }
  RW_FORWARD(trace__reserve(&w->rawbuf, &w->rawbuf_cap, size));
  p = w->rawbuf;
  wr_le32(p, (u32)w->nchunks);
  wr_le32(p + 4, (u32)w->nblobs);
  wr_le32(p + 8, (u32)w->nmeta);
  wr_le32(p + 12, 0); /* flags */
  p += TRACE__INDEX_HEAD;
  for (size_t i = 0; i < w->nchunks; i++, p += TRACE__INDEX_CHUNK_ENTRY) {
    const struct trace__chunk *k = &w->chunks[i];
    wr_le64(p, k->offset);
    wr_le16(p + 8, k->type);
    wr_le16(p + 10, k->kind);
    wr_le32(p + 12, k->tid);
    wr_le32(p + 16, k->count);
    wr_le64(p + 20, k->seq_first);
    wr_le64(p + 28, k->seq_last);
    wr_le32(p + 36, k->comp_len);
    wr_le32(p + 40, k->raw_len);
    if (k->type == TRACE_CHUNK_RECORDS) {
      if (!first || k->seq_first < first) first = k->seq_first;
      if (k->seq_last > last) last = k->seq_last;
    }
  }
  for (size_t i = 0; i < w->nblobs; i++) {
    const struct trace__wblob *b = &w->blobs[i];
    size_t nlen = strlen(b->name);
    memcpy(p, b->hash, 32);
    wr_le64(p + 32, b->size);
    wr_le32(p + 40, b->first_chunk);
    wr_le32(p + 44, b->npieces);
    wr_le16(p + 48, (u16)nlen);
    memcpy(p + TRACE__INDEX_BLOB_FIXED, b->name, nlen);
    p += TRACE__INDEX_BLOB_FIXED + nlen;
  }
  if (w->nmeta) qsort(w->meta, w->nmeta, sizeof *w->meta, cmp_meta);
  for (size_t i = 0; i < w->nmeta; i++) {
    const struct trace__wmeta *m = &w->meta[i];
    size_t klen = strlen(m->key);
    wr_le16(p, (u16)klen);
    memcpy(p + 2, m->key, klen);
    wr_le32(p + 2 + klen, m->len);
    if (m->len) memcpy(p + 6 + klen, m->val, m->len);
    p += 6 + klen + m->len;
  }
  RW_ASSERT((u64)(p - w->rawbuf) == size);
  c.type = TRACE_CHUNK_INDEX;
  c.count = (u32)w->nchunks;
  c.seq_first = first;
  c.seq_last = last;
  c.raw_len = (u32)size;
  RW_FORWARD(trace__w_chunk(w, &c, w->rawbuf));
  trace__trailer_encode(trailer, c.offset, w->off - c.offset);
  /* The trailer goes out in one write, like a chunk. */
  return trace__w_write(w, trailer, sizeof trailer);
}
