/* SPDX-License-Identifier: MIT */
/* The cpuid table of the recording CPU (TRACE_META_CPUID) and the pinning of
 * the recorder, and through inheritance the tracee, to that CPU, so that the
 * answers the program saw are the ones the table holds. Leaves that take a
 * subleaf in ecx are enumerated; the others are stored with subleaf
 * REC_CPUID_ANY (0xffffffff). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

void rec__cpuid_exec(u32 leaf, u32 subleaf, u32 out[4]) {
  __cpuid_count(leaf, subleaf, out[0], out[1], out[2], out[3]);
}

int rec__pin_cpu(u64 *others) {
  cpu_set_t set;
  *others = 0;
  RW_RETURN_IF(sched_getaffinity(0, sizeof set, &set) < 0, RW_ERR(errno),
               "sched_getaffinity");
  int cpu = sched_getcpu();
  if (cpu < 0 || !CPU_ISSET(cpu, &set)) {
    cpu = -1;
    for (int i = 0; i < CPU_SETSIZE; i++)
      if (CPU_ISSET(i, &set)) {
        cpu = i;
        break;
      }
  }
  RW_RETURN_IF(cpu < 0, RW_ENOTFOUND, "no allowed CPU");
  for (int i = 0; i < 64; i++)
    if (i != cpu && CPU_ISSET(i, &set)) *others |= 1ull << i;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  RW_RETURN_IF(sched_setaffinity(0, sizeof set, &set) < 0, RW_ERR(errno),
               "sched_setaffinity %d", cpu);
  return cpu;
}

struct table {
  struct rec__cpuid *v;
  size_t n, cap;
};

static int add(struct table *t, u32 leaf, u32 sub) {
  u32 c[4];
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 128;
    struct rec__cpuid *v = realloc(t->v, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "cpuid table");
    t->v = v;
    t->cap = cap;
  }
  rec__cpuid_exec(leaf, sub == REC_CPUID_ANY ? 0 : sub, c);
  t->v[t->n++] = (struct rec__cpuid){leaf, sub, c[0], c[1], c[2], c[3]};
  return 0;
}

/* How many subleaves LEAF has on this CPU (0: it ignores ecx). */
static u32 subleaves(u32 leaf) {
  u32 c[4], n = 0;
  switch (leaf) {
    case 0x4:
    case 0x8000001d: /* caches: until the type field is 0 */
      for (n = 0; n < 64; n++) {
        rec__cpuid_exec(leaf, n, c);
        if ((c[0] & 0x1f) == 0) break;
      }
      return n + 1;
    case 0xb:
    case 0x1f:
    case 0x80000026: /* topology: until the level type is 0 */
      for (n = 0; n < 64; n++) {
        rec__cpuid_exec(leaf, n, c);
        if (((c[2] >> 8) & 0xff) == 0) break;
      }
      return n + 1;
    case 0x7:
    case 0x14:
    case 0x17:
    case 0x18:
    case 0x1d:
    case 0x20:
    case 0x23:
    case 0x24: /* subleaf 0 eax is the highest subleaf */
      rec__cpuid_exec(leaf, 0, c);
      return RW_MIN(c[0], 63u) + 1;
    case 0xd:
      return 64; /* one per state component */
    case 0xf:
    case 0x10:
    case 0x80000020:
      return 4;
    case 0x12:
      for (n = 2; n < 64; n++) {
        rec__cpuid_exec(leaf, n, c);
        if ((c[0] & 0xf) == 0) break;
      }
      return n + 1;
    default:
      return 0;
  }
}

static int add_leaf(struct table *t, u32 leaf) {
  u32 n = subleaves(leaf);
  if (n == 0) return add(t, leaf, REC_CPUID_ANY);
  for (u32 s = 0; s < n; s++) RW_FORWARD(add(t, leaf, s));
  return 0;
}

int rec__cpuid_table(struct rec__cpuid **out, size_t *n) {
  struct table t = {0};
  u32 c[4];
  int rc = 0;
  rec__cpuid_exec(0, 0, c);
  u32 max = RW_MIN(c[0], 0xffu);
  for (u32 l = 0; l <= max && rc == 0; l++) rc = add_leaf(&t, l);
  rec__cpuid_exec(1, 0, c);
  if (rc == 0 && (c[2] >> 31)) { /* a hypervisor: its leaves too */
    rec__cpuid_exec(0x40000000u, 0, c);
    u32 hmax = RW_MIN(RW_MAX(c[0], 0x40000000u), 0x400000ffu);
    for (u32 l = 0x40000000u; l <= hmax && rc == 0; l++) rc = add_leaf(&t, l);
  }
  rec__cpuid_exec(0x80000000u, 0, c);
  u32 emax = c[0] >= 0x80000000u ? RW_MIN(c[0], 0x800000ffu) : 0x80000000u;
  for (u32 l = 0x80000000u; l <= emax && rc == 0; l++) rc = add_leaf(&t, l);
  if (rc < 0) {
    free(t.v);
    return rc;
  }
  *out = t.v;
  *n = t.n;
  return 0;
}

void rec__cpuid_encode(const struct rec__cpuid *t, size_t n, u8 *dst) {
  for (size_t i = 0; i < n; i++, dst += 24) {
    wr_le32(dst, t[i].leaf);
    wr_le32(dst + 4, t[i].subleaf);
    wr_le32(dst + 8, t[i].eax);
    wr_le32(dst + 12, t[i].ebx);
    wr_le32(dst + 16, t[i].ecx);
    wr_le32(dst + 20, t[i].edx);
  }
}

/* Entry E as this CPU answers it now: the fields that name the CPU taken
 * afresh (an initial APIC ID, x2APIC IDs, the core type, AMD's extended
 * APIC, core and node IDs), the others as the table has them (features
 * --cpu-features hides stay hidden). 0 when E has no such field. */
static int renamed(const struct rec__cpuid *e, struct rec__cpuid *n) {
  u32 c[4];
  switch (e->leaf) {
    case 0x1:
    case 0xb:
    case 0x1a:
    case 0x1f:
    case 0x8000001e:
      break;
    default:
      return 0;
  }
  rec__cpuid_exec(e->leaf, e->subleaf == REC_CPUID_ANY ? 0 : e->subleaf, c);
  *n = *e;
  switch (e->leaf) {
    case 0x1:
      n->ebx = (e->ebx & 0x00ffffffu) | (c[1] & 0xff000000u);
      break;
    case 0xb:
    case 0x1f:
      n->edx = c[3];
      break;
    case 0x1a:
      n->eax = c[0];
      break;
    default: /* 0x8000001e */
      n->eax = c[0];
      n->ebx = c[1];
      n->ecx = c[2];
  }
  return 1;
}

static int emit(struct rec *r, u32 tid, const struct rec__cpuid *e) {
  struct trace_rec_cpuid c = {e->leaf, e->subleaf, e->eax, e->ebx, e->ecx,
                              e->edx};
  return trace_rec_cpuid_append(r->w, tid, &c);
}

int rec__cpuid_recheck(struct rec *r, u32 tid) {
  for (size_t i = 0; i < r->ncpuid; i++) {
    struct rec__cpuid n;
    if (!renamed(&r->cpuid[i], &n) ||
        !memcmp(&n, &r->cpuid[i], sizeof n))
      continue;
    r->cpuid[i] = n;
    RW_FORWARD(emit(r, tid, &n));
  }
  return 0;
}

int rec__cpuid_state(struct rec *r, u32 tid) {
  for (size_t i = 0; i < r->ncpuid; i++)
    if (memcmp(&r->cpuid[i], &r->cpuid_meta[i], sizeof *r->cpuid))
      RW_FORWARD(emit(r, tid, &r->cpuid[i]));
  return 0;
}
