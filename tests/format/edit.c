/* SPDX-License-Identifier: MIT */
/* Damaging a trace behind fixed-up checksums and index: the work of
 * tests/format/rw_edit (see its header), shared with mktrace, which writes
 * the golden samples of tests/format/bad/ with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/writer_int.h"
#include "tests/format/edit.h"

#define CHECK(x)                                                 \
  do {                                                           \
    int rc_ = (x);                                               \
    if (rc_ < 0) {                                               \
      fprintf(stderr, "edit: %s: %s\n", #x, rw_strerror(rc_)); \
      exit(1);                                                   \
    }                                                            \
  } while (0)


void tf_edit_list(trace_reader *r) {
  for (size_t i = 0; i < r->nchunks; i++) {
    const struct trace__chunk *c = &r->chunks[i];
    printf("%zu %s %u %llu %llu %u %llu\n", i,
           trace_chunk_name(c->type) ? trace_chunk_name(c->type) : "?",
           c->tid, (unsigned long long)c->seq_first,
           (unsigned long long)c->seq_last, c->raw_len,
           (unsigned long long)c->offset);
  }
}

static int cmp_first(const void *a, const void *b) {
  const struct trace__wblob *x = a, *y = b;
  return x->first_chunk < y->first_chunk ? -1 : x->first_chunk > y->first_chunk;
}

/* Writes chunk IDX of R to W with its payload, after EDIT when it is the
 * one to flip; returns W's index of it. */
static u32 copy_chunk(trace_reader *r, trace_writer *w, size_t idx,
                      long flip_at, u8 x) {
  struct trace__chunk c = r->chunks[idx];
  ZSTD_DCtx *d = ZSTD_createDCtx();
  u8 *buf = NULL;
  size_t cap = 0;
  struct rw_diag diag = {0};
  if (!d) exit(1);
  if (trace__chunk_load(r, idx, d, &buf, &cap, &diag) < 0) {
    fprintf(stderr, "edit: chunk %zu: %s\n", idx, diag.msg);
    exit(1);
  }
  if (flip_at >= 0) {
    if ((u64)flip_at >= c.raw_len) {
      fprintf(stderr, "edit: chunk %zu has %u bytes\n", idx, c.raw_len);
      exit(1);
    }
    buf[flip_at] ^= x;
  }
  CHECK(trace__w_chunk(w, &c, buf));
  free(buf);
  ZSTD_freeDCtx(d);
  return (u32)(w->nchunks - 1);
}

int tf_edit(trace_reader *r, const char *out, const char *op, long k,
            long flip_at, u8 x) {
  trace_writer *w;
  struct trace_writer_opts wo = {0};
  u32 *map;
  if (k < 0 || (size_t)k >= r->nchunks ||
      (!strcmp(op, "swap") && (size_t)k + 1 >= r->nchunks)) {
    fprintf(stderr, "edit: no chunk %ld (the trace has %zu)\n", k,
            r->nchunks);
    return 1;
  }
  wo.overwrite = 1;
  CHECK(trace_writer_open(&w, out, &wo));
  map = calloc(r->nchunks + 1, sizeof *map);
  if (!map) return 1;
  for (size_t i = 0; i < r->nchunks; i++) {
    size_t from = i;
    if (!strcmp(op, "swap") && i == (size_t)k) from = i + 1;
    if (!strcmp(op, "swap") && i == (size_t)k + 1) from = i - 1;
    if (!strcmp(op, "drop") && i == (size_t)k) {
      map[i] = ~0u;
      continue;
    }
    map[from] = copy_chunk(r, w, from, i == (size_t)k ? flip_at : -1, x);
    if (!strcmp(op, "dup") && i == (size_t)k) copy_chunk(r, w, from, -1, 0);
  }
  /* The blob table, over the pieces that are left. */
  for (size_t i = 0; i < r->nblobs; i++) {
    const struct trace__blob *b = &r->blobs[i];
    struct trace__wblob *nb;
    u32 first = ~0u, n = 0;
    for (u32 p = 0; p < b->npieces; p++) {
      if (map[b->first + p] == ~0u) continue;
      if (first == ~0u) first = map[b->first + p];
      n++;
    }
    if (!n) continue;
    if (w->nblobs == w->blobs_cap) {
      size_t ncap = w->blobs_cap ? 2 * w->blobs_cap : 16;
      nb = realloc(w->blobs, ncap * sizeof *nb);
      if (!nb) return 1;
      w->blobs = nb;
      w->blobs_cap = ncap;
    }
    nb = &w->blobs[w->nblobs++];
    memcpy(nb->hash, b->hash, 32);
    nb->size = b->size;
    nb->name = strdup(b->name);
    nb->first_chunk = first;
    nb->npieces = n;
  }
  /* The index lists blobs in the order of their pieces. */
  if (w->nblobs) qsort(w->blobs, w->nblobs, sizeof *w->blobs, cmp_first);
  /* The metadata of IN's index, not written again as chunks. */
  for (size_t i = 0; i < r->nmeta; i++)
    CHECK(trace_writer_set_meta(w, r->meta[i].key, r->meta[i].val,
                                r->meta[i].len));
  for (size_t i = 0; i < w->nmeta; i++) w->meta[i].dirty = 0;
  w->meta_dirty = 0;
  CHECK(trace_writer_close(w));
  free(map);
  return 0;
}
