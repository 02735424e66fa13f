/* SPDX-License-Identifier: MIT */
/* A map of u64 keys to u32 values for the analyses (profile.c, sample.c):
 * open addressing with linear probing, hashed by rw_fmix64, at most half
 * full. rp__umap_get, on their hot paths, is inline in rp_int.h. */
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

static void place(struct rp__umap *m, u64 k, u32 v) {
  size_t i = rw_fmix64(k) & (m->cap - 1);
  while (m->vals[i]) i = (i + 1) & (m->cap - 1);
  m->keys[i] = k;
  m->vals[i] = v;
  m->n++;
}

int rp__umap_put(struct rp__umap *m, u64 k, u32 v) {
  if (2 * (m->n + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 256;
    struct rp__umap g = {calloc(cap, sizeof(u64)), calloc(cap, sizeof(u32)),
                         cap, 0};
    if (!g.keys || !g.vals) {
      free(g.keys);
      free(g.vals);
      return RW_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->vals[i]) place(&g, m->keys[i], m->vals[i]);
    free(m->keys);
    free(m->vals);
    *m = g;
  }
  place(m, k, v);
  return 0;
}

void rp__umap_set(struct rp__umap *m, u64 k, u32 v) {
  for (size_t i = rw_fmix64(k) & (m->cap - 1); m->vals[i];
       i = (i + 1) & (m->cap - 1))
    if (m->keys[i] == k) {
      m->vals[i] = v;
      return;
    }
}

void rp__umap_free(struct rp__umap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}
