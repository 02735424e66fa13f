/* SPDX-License-Identifier: MIT */
/* Metadata on the writing side: trace_writer_set_meta() keeps the latest
 * value of each key, and every key changed since the last flush is written
 * in a META chunk before the next chunk of any other kind, so metadata set
 * early survives a crash of the writer. The index repeats the final values. */
#include <stdlib.h>
#include <string.h>

#include "format/writer_int.h"

int trace_writer_set_meta(trace_writer *w, const char *key, const void *val,
                          size_t len) {
  size_t klen = strlen(key);
  struct trace__wmeta *m = NULL;
  u8 *copy;
  RW_RETURN_IF(w->err, w->err, "earlier error");
  RW_RETURN_IF(klen == 0 || klen > TRACE__MAX_KEY || len > TRACE_MAX_RECORD ||
                   (len && !val),
               RW_EINVAL, "metadata key of %zu bytes, value of %zu", klen,
               len);
  for (size_t i = 0; i < w->nmeta; i++)
    if (!strcmp(w->meta[i].key, key)) m = &w->meta[i];
  copy = malloc(len + 1);
  RW_RETURN_IF(!copy, RW_ENOMEM, "metadata value");
  if (len) memcpy(copy, val, len);
  copy[len] = 0;
  if (!m) {
    char *kcopy;
    if (w->nmeta == w->meta_cap) {
      size_t ncap = w->meta_cap ? 2 * w->meta_cap : 16;
      struct trace__wmeta *nm = realloc(w->meta, ncap * sizeof *nm);
      if (!nm) {
        free(copy);
        return RW_ENOMEM;
      }
      w->meta = nm;
      w->meta_cap = ncap;
    }
    kcopy = strdup(key);
    if (!kcopy) {
      free(copy);
      return RW_ENOMEM;
    }
    m = &w->meta[w->nmeta++];
    m->key = kcopy;
    m->val = NULL;
  }
  free(m->val);
  m->val = copy;
  m->len = (u32)len;
  m->dirty = 1;
  w->meta_dirty = 1;
  return 0;
}

/* Writes the first COUNT dirty entries, which take LEN bytes encoded, as one
 * META chunk, and marks them clean. */
static int write_meta_chunk(trace_writer *w, u32 count, size_t len) {
  struct trace__chunk c = {0};
  u8 *p;
  u32 done = 0;
  RW_FORWARD(trace__reserve(&w->rawbuf, &w->rawbuf_cap, len));
  p = w->rawbuf;
  for (size_t i = 0; i < w->nmeta && done < count; i++) {
    struct trace__wmeta *m = &w->meta[i];
    size_t klen = strlen(m->key);
    if (!m->dirty) continue;
    wr_le16(p, (u16)klen);
    memcpy(p + 2, m->key, klen);
    wr_le32(p + 2 + klen, m->len);
    if (m->len) memcpy(p + 6 + klen, m->val, m->len);
    p += 6 + klen + m->len;
    m->dirty = 0;
    done++;
  }
  RW_ASSERT((size_t)(p - w->rawbuf) == len);
  c.type = TRACE_CHUNK_META;
  c.count = count;
  c.raw_len = (u32)len;
  return trace__w_chunk(w, &c, w->rawbuf);
}

int trace__w_meta_flush(trace_writer *w) {
  u32 count = 0;
  size_t len = 0;
  if (!w->meta_dirty) return 0;
  RW_RETURN_IF(w->err, w->err, "earlier error");
  /* Each value is at most TRACE_MAX_RECORD bytes; starting a new chunk once
   * one holds that much keeps every META chunk far below the raw limit. */
  for (size_t i = 0; i < w->nmeta; i++) {
    struct trace__wmeta *m = &w->meta[i];
    if (!m->dirty) continue;
    if (count && len >= TRACE_MAX_RECORD) {
      RW_FORWARD(write_meta_chunk(w, count, len));
      count = 0;
      len = 0;
    }
    count++;
    len += 6 + strlen(m->key) + m->len;
  }
  if (count) RW_FORWARD(write_meta_chunk(w, count, len));
  w->meta_dirty = 0;
  return 0;
}

void trace__w_free_meta(trace_writer *w) {
  for (size_t i = 0; i < w->nmeta; i++) {
    free(w->meta[i].key);
    free(w->meta[i].val);
  }
  free(w->meta);
}

int trace_writer_copy_meta(trace_writer *dst, const trace_writer *src) {
  for (size_t i = 0; i < src->nmeta; i++)
    if (strcmp(src->meta[i].key, TRACE_META_RECORDS) &&
        strcmp(src->meta[i].key, TRACE_META_FIRST_SEQ))
      RW_FORWARD(trace_writer_set_meta(dst, src->meta[i].key,
                                       src->meta[i].val, src->meta[i].len));
  return 0;
}
