/* SPDX-License-Identifier: MIT */
/* The memory of recorder keyframes, each page stored once (format 1.16).
 *
 * A keyframe holds every page of the process that is not all zero. Written
 * whole each time, a 1 GB heap would cost 1 GB of trace per keyframe
 * however little of it changed. Instead the pages a keyframe reads go to a
 * blob of their own (its "pack"), and its state names them with MEM_FROM
 * records (a range of the address space, a blob, an offset in it). The
 * recorder remembers a 128-bit fingerprint of every page of the last
 * keyframe and where a pack holds those bytes: a page whose fingerprint it
 * knows is named where it already is, and only the others are stored. So
 * a keyframe costs reading and fingerprinting memory (several GB/s) and
 * storing what changed; pages with the same bytes (a heap filled with one
 * value) are stored once even within one keyframe.
 *
 * Contents decide, not addresses: a page that moved, or came back with the
 * same bytes after an exec, is found as well. The kernel could say which
 * pages were written without reading any (soft-dirty bits, userfaultfd
 * write protection), but soft-dirty is not built into every kernel (nor
 * into this project's test machines) and the write protection belongs to
 * the digests (recorder/wp.c).
 *
 * The fingerprint: four chains of rotl(h ^ w * K, r) * K' over the page's
 * words, the even words feeding two of them and the odd words the other
 * two, with different constants. Each step is a bijection of the chain
 * given the word and of the word given the chain, so pages that differ in
 * one word always differ in both of its chains, and two independent 64-bit
 * values must collide for pages that differ in more.
 *
 * A ring segment (recorder/ring.c) must hold every pack its keyframes
 * name, so a new segment begins with nothing remembered. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/rec_int.h"

#define K1 0x87c37b91114253d5ull
#define K2 0x4cf5ad432745937full
#define K3 0x9e3779b97f4a7c15ull
#define K4 0xc2b2ae3d27d4eb4full

static u64 rotl(u64 x, int r) { return (x << r) | (x >> (64 - r)); }

static u64 fmix(u64 x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

void rec__kf_fingerprint(const u8 *p, u64 fp[2]) {
  u64 a = 0x6a09e667f3bcc908ull, b = 0xbb67ae8584caa73bull;
  u64 c = 0x3c6ef372fe94f82bull, d = 0xa54ff53a5f1d36f1ull;
  for (size_t i = 0; i < REC_PAGE; i += 16) {
    u64 w0, w1;
    memcpy(&w0, p + i, 8);
    memcpy(&w1, p + i + 8, 8);
    a = rotl(a ^ (w0 * K1), 31) * K2;
    b = rotl(b ^ (w0 * K3), 27) * K4;
    c = rotl(c ^ (w1 * K1), 31) * K2;
    d = rotl(d ^ (w1 * K3), 27) * K4;
  }
  fp[0] = fmix(a) ^ rotl(fmix(c), 17);
  fp[1] = fmix(b) ^ rotl(fmix(d), 41);
}

/* ------------------------------------------------ the pages remembered */

static size_t slot_of(const struct rec__kfmemo *t, const u64 fp[2]) {
  return (size_t)(fp[0] ^ (fp[1] >> 7)) & (t->cap - 1);
}

static struct rec__kfpage *find(const struct rec__kfmemo *t,
                                const u64 fp[2]) {
  if (!t->cap) return NULL;
  for (size_t i = slot_of(t, fp);; i = (i + 1) & (t->cap - 1)) {
    struct rec__kfpage *e = &t->v[i];
    if (!e->used) return NULL;
    if (e->fp[0] == fp[0] && e->fp[1] == fp[1]) return e;
  }
}

static int put(struct rec__kfmemo *t, const struct rec__kfpage *p) {
  if (2 * (t->n + 1) > t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 1024;
    struct rec__kfpage *v = calloc(cap, sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "keyframe pages");
    struct rec__kfmemo nt = {v, cap, 0};
    for (size_t i = 0; i < t->cap; i++)
      if (t->v[i].used) RW_FORWARD(put(&nt, &t->v[i]));
    free(t->v);
    *t = nt;
  }
  size_t i = slot_of(t, p->fp);
  while (t->v[i].used) i = (i + 1) & (t->cap - 1);
  t->v[i] = *p;
  t->v[i].used = 1;
  t->n++;
  return 0;
}

static void memo_free(struct rec__kfmemo *t) {
  free(t->v);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------ one keyframe */

void rec__kf_mem_begin(struct rec *r) {
  struct rec__kfmem *k = &r->kf.mem;
  memo_free(&k->next);
  k->len = 0;
  k->nruns = 0;
  k->active = 1;
}

/* Names [A, A + REC_PAGE) as bytes of pack PACK at OFF. */
static int name_page(struct rec__kfmem *k, u64 a, u32 pack, u64 off) {
  struct rec__kfrun *l = k->nruns ? &k->runs[k->nruns - 1] : NULL;
  if (l && l->pack == pack && l->addr + l->len == a &&
      l->off + l->len == off && l->len < ((u64)1 << 30)) {
    l->len += REC_PAGE;
    return 0;
  }
  if (k->nruns == k->caprun) {
    size_t cap = k->caprun ? 2 * k->caprun : 256;
    struct rec__kfrun *v = realloc(k->runs, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "keyframe pages");
    k->runs = v;
    k->caprun = cap;
  }
  k->runs[k->nruns++] = (struct rec__kfrun){a, REC_PAGE, off, pack};
  return 0;
}

static int take_page(struct rec *r, u64 a, const u8 *p) {
  struct rec__kfmem *k = &r->kf.mem;
  struct rec__kfpage e = {0};
  rec__kf_fingerprint(p, e.fp);
  const struct rec__kfpage *had = find(&k->next, e.fp);
  if (!had) had = find(&k->memo, e.fp);
  if (had) {
    e.pack = had->pack;
    e.off = had->off;
    k->reused += REC_PAGE;
  } else { /* new bytes: into this keyframe's pack */
    if (k->len + REC_PAGE > k->cap) {
      size_t cap = k->cap ? 2 * k->cap : (size_t)1 << 20;
      u8 *v = realloc(k->pack, cap);
      RW_RETURN_IF(!v, RW_ENOMEM, "keyframe pages");
      k->pack = v;
      k->cap = cap;
    }
    memcpy(k->pack + k->len, p, REC_PAGE);
    e.pack = (u32)k->npacks;
    e.off = k->len;
    k->len += REC_PAGE;
  }
  if (find(&k->next, e.fp) == NULL) RW_FORWARD(put(&k->next, &e));
  return name_page(k, a, e.pack, e.off);
}

static int all_zero(const u8 *p, size_t n) {
  static const u8 z[REC_LINE];
  for (size_t i = 0; i < n; i += REC_LINE)
    if (memcmp(p + i, z, REC_LINE)) return 0;
  return 1;
}

int rec__kf_mem_import(void *ctx, u64 a, u64 b) {
  struct rec *r = ctx;
  a &= ~(u64)(REC_PAGE - 1);
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, r->buf, n);
    size_t whole = got > 0 ? (size_t)got & ~(size_t)(REC_PAGE - 1) : 0;
    for (size_t i = 0; i < whole; i += REC_PAGE)
      if (!all_zero(r->buf + i, REC_PAGE))
        RW_FORWARD(take_page(r, a + i, r->buf + i));
    /* A page read in part (the end of a file's mapping): its lines. */
    if (got > 0 && (size_t)got > whole && (size_t)got < n) {
      size_t part = ((size_t)got - whole) & ~(size_t)(REC_LINE - 1);
      if (part && !all_zero(r->buf + whole, part))
        RW_FORWARD(rec__mem_emit(r, a + whole, r->buf + whole, part));
    }
    if (got < 0 || (size_t)got < n) { /* skip the unreadable page */
      u64 next = ((a + (got > 0 ? (u64)got : 0)) | (REC_PAGE - 1)) + 1;
      if (next <= a) break;
      a = next;
    } else {
      a += n;
    }
  }
  return 0;
}

int rec__kf_mem_flush(struct rec *r, u32 tid) {
  struct rec__kfmem *k = &r->kf.mem;
  if (!k->active) return 0;
  if (k->len) {
    if (k->npacks == k->cappack) {
      size_t cap = k->cappack ? 2 * k->cappack : 16;
      u8(*v)[32] = realloc(k->packs, cap * sizeof *v);
      RW_RETURN_IF(!v, RW_ENOMEM, "keyframe packs");
      k->packs = v;
      k->cappack = cap;
    }
    char name[80];
    if (r->proc == &r->root)
      snprintf(name, sizeof name, "keyframe %llu pages",
               (unsigned long long)r->kf.count + 1);
    else
      snprintf(name, sizeof name, "keyframe %llu pages of process %d",
               (unsigned long long)r->kf.count + 1, (int)r->proc->pid);
    /* Stored once the keyframe is sure to be written (rec__kf_mem_store):
     * its hash now, for the records. */
    if (k->npend == k->cappend) {
      size_t cap = k->cappend ? 2 * k->cappend : 8;
      struct rec__kfpend *v = realloc(k->pend, cap * sizeof *v);
      RW_RETURN_IF(!v, RW_ENOMEM, "keyframe packs");
      k->pend = v;
      k->cappend = cap;
    }
    RW_FORWARD(rw_sha256(k->pack, k->len, k->packs[k->npacks]));
    struct rec__kfpend *q = &k->pend[k->npend++];
    q->buf = k->pack;
    q->len = k->len;
    memcpy(q->hash, k->packs[k->npacks], 32);
    snprintf(q->name, sizeof q->name, "%s", name);
    k->pack = NULL;
    k->cap = 0;
    k->npacks++;
    k->len = 0;
  }
  for (size_t i = 0; i < k->nruns; i++) {
    const struct rec__kfrun *u = &k->runs[i];
    struct trace_rec_mem_from m = {u->addr, u->len, {{0}}, u->off};
    memcpy(m.blob.b, k->packs[u->pack], 32);
    RW_FORWARD(trace_rec_mem_from_append(r->w, tid, &m));
  }
  k->nruns = 0;
  return 0;
}

int rec__kf_mem_store(struct rec *r) {
  struct rec__kfmem *k = &r->kf.mem;
  for (size_t i = 0; i < k->npend; i++) {
    u8 h[32];
    struct rec__kfpend *q = &k->pend[i];
    RW_FORWARD(trace_writer_add_blob(r->w, q->name, q->buf, q->len, h));
    k->stored += q->len;
    free(q->buf);
    q->buf = NULL;
  }
  k->npend = 0;
  return 0;
}

static void drop_pending(struct rec__kfmem *k) {
  for (size_t i = 0; i < k->npend; i++) free(k->pend[i].buf);
  k->npend = 0;
}

void rec__kf_mem_end(struct rec *r, int ok) {
  struct rec__kfmem *k = &r->kf.mem;
  if (!k->active) return;
  k->active = 0;
  drop_pending(k); /* stored already when OK */
  if (ok) {
    memo_free(&k->memo);
    k->memo = k->next;
    memset(&k->next, 0, sizeof k->next);
  } else {
    memo_free(&k->next);
  }
  k->len = 0;
  k->nruns = 0;
}

void rec__kf_mem_forget(struct rec *r) {
  struct rec__kfmem *k = &r->kf.mem;
  memo_free(&k->memo);
  k->npacks = 0;
}

void rec__kf_mem_free(struct rec *r) {
  struct rec__kfmem *k = &r->kf.mem;
  drop_pending(k);
  free(k->pend);
  memo_free(&k->memo);
  memo_free(&k->next);
  free(k->pack);
  free(k->runs);
  free(k->packs);
  memset(k, 0, sizeof *k);
}
