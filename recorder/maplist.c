/* SPDX-License-Identifier: MIT */
/* A list of mappings in address order (struct rec__maps), kept as a skip
 * list: finding, splitting, inserting and removing an entry costs
 * O(log n), and walking to the next entry O(1). A program may cut one
 * region into tens of thousands of mappings, and a sorted array would move
 * half of them at every cut (measured: the memmove was 43% of the
 * recorder's time for 30,000 mprotects in descending order, bench/
 * RESULTS.md). The list serves for the maps read from /proc and for the
 * recorder's own model of the address space (recorder/follow.c); the
 * edits change it as the kernel changes VMAs, merging neighbours of
 * anonymous memory that agree in every field. */
#include <stdlib.h>
#include <string.h>

#include "recorder/rec_int.h"

/* A node is its mapping followed by its links; HEIGHT forward links. */
struct rec__mnode {
  struct rec__map m;        /* first member: a node is its mapping */
  struct rec__mnode *prev;  /* the node below it, NULL for the first */
  unsigned height;          /* 1..REC_MAPS_LEVELS */
  struct rec__mnode *next[]; /* the next node at each level */
};

static struct rec__mnode *node_of(const struct rec__map *e) {
  return (struct rec__mnode *)(uintptr_t)e;
}

/* The link at level L of X, or of the head when X is NULL. */
static struct rec__mnode **link_of(struct rec__maps *m, struct rec__mnode *x,
                                   unsigned l) {
  return x ? &x->next[l] : &m->head[l];
}

static struct rec__mnode *next_of(const struct rec__maps *m,
                                  const struct rec__mnode *x, unsigned l) {
  return x ? x->next[l] : m->head[l];
}

/* The last node whose start is at most ADDR, or NULL; UPD (when not NULL)
 * gets, at each level, the last node whose start is below ADDR. */
static struct rec__mnode *last_le(const struct rec__maps *m, u64 addr,
                                  struct rec__mnode **upd) {
  struct rec__mnode *x = NULL, *le = NULL;
  for (unsigned l = m->level; l-- > 0;) {
    struct rec__mnode *n;
    while ((n = next_of(m, x, l)) && n->m.start < addr) x = n;
    if (upd) upd[l] = x;
    if (!le && (n = next_of(m, x, l)) && n->m.start == addr) le = n;
  }
  return le ? le : x;
}

/* A height with P(h) = 4^-(h-1) * 3/4, from a generator seeded with a
 * constant: the list's shape, and the recorder, stay deterministic. */
static unsigned height(struct rec__maps *m) {
  u64 x = m->seed ? m->seed : 0x9e3779b97f4a7c15ull;
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  m->seed = x;
  unsigned h = 1;
  while (h < REC_MAPS_LEVELS && (x & 3) == 0) h++, x >>= 2;
  return h;
}

/* Links N (its mapping set, not overlapping any other) into M. */
static void link_in(struct rec__maps *m, struct rec__mnode *n) {
  struct rec__mnode *upd[REC_MAPS_LEVELS];
  last_le(m, n->m.start, upd);
  for (; m->level < n->height; m->level++) upd[m->level] = NULL;
  for (unsigned l = 0; l < n->height; l++) {
    struct rec__mnode **p = link_of(m, upd[l], l);
    n->next[l] = *p;
    *p = n;
  }
  n->prev = upd[0];
  if (n->next[0]) n->next[0]->prev = n;
  m->n++;
}

/* Unlinks N from M and frees it. */
static void drop(struct rec__maps *m, struct rec__mnode *n) {
  struct rec__mnode *upd[REC_MAPS_LEVELS];
  last_le(m, n->m.start, upd);
  for (unsigned l = 0; l < n->height; l++) {
    struct rec__mnode **p = link_of(m, upd[l], l);
    RW_ASSERT(*p == n);
    *p = n->next[l];
  }
  if (n->next[0]) n->next[0]->prev = n->prev;
  while (m->level && !m->head[m->level - 1]) m->level--;
  m->n--;
  free(n->m.path);
  free(n);
}

/* A node of M for E, whose path it takes over; not linked yet. */
static struct rec__mnode *node_new(struct rec__maps *m,
                                   const struct rec__map *e) {
  unsigned h = height(m);
  struct rec__mnode *n = malloc(sizeof *n + h * sizeof n->next[0]);
  if (!n) return NULL;
  n->m = *e;
  n->height = h;
  return n;
}

void rec__maps_free(struct rec__maps *m) {
  struct rec__mnode *n = m->head[0];
  while (n) {
    struct rec__mnode *x = n->next[0];
    free(n->m.path);
    free(n);
    n = x;
  }
  memset(m, 0, sizeof *m);
}

void rec__maps_move(struct rec__maps *dst, struct rec__maps *src) {
  rec__maps_free(dst);
  *dst = *src;
  memset(src, 0, sizeof *src);
}

const struct rec__map *rec__maps_find(const struct rec__maps *m, u64 addr) {
  const struct rec__mnode *x = last_le(m, addr, NULL);
  return x && x->m.end > addr ? &x->m : NULL;
}

const struct rec__map *rec__maps_from(const struct rec__maps *m, u64 addr) {
  const struct rec__mnode *x = last_le(m, addr, NULL);
  if (x && x->m.end > addr) return &x->m;
  x = next_of(m, x, 0);
  return x ? &x->m : NULL;
}

const struct rec__map *rec__maps_first(const struct rec__maps *m) {
  return m->head[0] ? &m->head[0]->m : NULL;
}

const struct rec__map *rec__maps_next(const struct rec__maps *m,
                                      const struct rec__map *e) {
  (void)m;
  const struct rec__mnode *x = node_of(e)->next[0];
  return x ? &x->m : NULL;
}

size_t rec__maps_count(const struct rec__maps *m) { return m->n; }

struct rec__map *rec__maps_mut(struct rec__maps *m, const struct rec__map *e) {
  (void)m;
  return &node_of(e)->m;
}

int rec__maps_append(struct rec__maps *m, struct rec__map *e) {
  const struct rec__mnode *last = last_le(m, ~0ull, NULL);
  RW_RETURN_IF(last && e->start < last->m.end, RW_ECORRUPT,
               "maps out of order");
  struct rec__mnode *n = node_new(m, e);
  RW_RETURN_IF(!n, RW_ENOMEM, "maps");
  link_in(m, n);
  return 0;
}

/* Makes ADDR a boundary between entries: the mapping that straddles it
 * becomes two, as the kernel splits a VMA. */
static int split(struct rec__maps *m, u64 addr) {
  struct rec__mnode *x = last_le(m, addr, NULL);
  if (!x || x->m.start >= addr || x->m.end <= addr) return 0;
  struct rec__map hi = x->m;
  hi.path = strdup(x->m.path);
  RW_RETURN_IF(!hi.path, RW_ENOMEM, "maps");
  hi.start = addr;
  if (hi.ino) hi.offset += addr - x->m.start;
  struct rec__mnode *n = node_new(m, &hi);
  if (!n) {
    free(hi.path);
    return RW_ENOMEM;
  }
  x->m.end = addr;
  link_in(m, n);
  return 0;
}

/* 1 when X and Y, X right below Y, are one mapping as far as the trace is
 * concerned: anonymous memory alike in every field. Mappings of files stay
 * as the kernel made them (their ranges name /proc/PID/map_files). */
static int mergeable(const struct rec__map *x, const struct rec__map *y) {
  return x->end == y->start && !x->ino && !y->ino && x->dev == y->dev &&
         x->prot == y->prot && x->flags == y->flags &&
         !strcmp(x->path, y->path);
}

/* Merges, from the entry below X (or X) up to the entry that starts at B,
 * the neighbours that agree. */
static void merge_around(struct rec__maps *m, struct rec__mnode *x, u64 b) {
  if (x->prev) x = x->prev;
  struct rec__mnode *n;
  while ((n = x->next[0]) && n->m.start <= b) {
    if (mergeable(&x->m, &n->m)) {
      x->m.end = n->m.end;
      drop(m, n);
    } else {
      x = n;
    }
  }
}

int rec__maps_remove(struct rec__maps *m, u64 a, u64 b) {
  if (a >= b) return 0;
  RW_FORWARD(split(m, a));
  RW_FORWARD(split(m, b));
  const struct rec__map *e = rec__maps_from(m, a);
  while (e && e->start < b) {
    const struct rec__map *x = rec__maps_next(m, e);
    drop(m, node_of(e));
    e = x;
  }
  return 0;
}

int rec__maps_insert(struct rec__maps *m, const struct rec__map *e) {
  RW_ASSERT(!rec__maps_from(m, e->start) ||
            rec__maps_from(m, e->start)->start >= e->end);
  struct rec__map c = *e;
  c.path = strdup(e->path);
  RW_RETURN_IF(!c.path, RW_ENOMEM, "maps");
  struct rec__mnode *n = node_new(m, &c);
  if (!n) {
    free(c.path);
    return RW_ENOMEM;
  }
  link_in(m, n);
  merge_around(m, n, c.end);
  return 0;
}

int rec__maps_protect(struct rec__maps *m, u64 a, u64 b, u32 prot) {
  if (a >= b) return 0;
  RW_FORWARD(split(m, a));
  RW_FORWARD(split(m, b));
  const struct rec__map *first = rec__maps_from(m, a);
  if (!first || first->start >= b) return 0;
  for (const struct rec__map *e = first; e && e->start < b;
       e = rec__maps_next(m, e))
    node_of(e)->m.prot = prot;
  merge_around(m, node_of(first), b);
  return 0;
}
