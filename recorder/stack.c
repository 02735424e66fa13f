/* SPDX-License-Identifier: MIT */
/* Stack growth, as the recorder sees it. The kernel grows the main stack
 * (and any MAP_GROWSDOWN mapping) on a fault below it, without a syscall, so
 * the trace cannot say where it happened; it says instead what decided it:
 * STACK_RULES holds the soft RLIMIT_STACK, the kernel's stack_guard_gap and
 * vm.mmap_min_addr, at exec and after every change of the limit. The replay
 * grows its own copy by the same rules. Growth the recorder notices later,
 * in a maps diff, becomes a GROW record that the replay checks (see
 * recorder/space.c). Nothing here reads tracee memory. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

/* The kernel's default gap, in pages, unless the boot command line sets
 * stack_guard_gap= (also in pages). */
#define REC_GUARD_GAP_PAGES 256u
/* The usual vm.mmap_min_addr when /proc/sys/vm cannot be read. */
#define REC_MIN_ADDR_DEFAULT 65536u

/* The boot parameter stack_guard_gap=N (pages) in TEXT, or 0 if absent. */
static u64 gap_param(const char *text) {
  const char *key = "stack_guard_gap=";
  for (const char *p = text; (p = strstr(p, key)) != NULL; p++) {
    if (p != text && p[-1] != ' ') continue;
    char *end;
    unsigned long long v = strtoull(p + strlen(key), &end, 10);
    if (end != p + strlen(key)) return v;
  }
  return 0;
}

/* Reads a small /proc file into BUF (CAP bytes, NUL-terminated). Returns 1
 * when something was read. */
static int read_small(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "re");
  if (!f) return 0;
  size_t n = fread(buf, 1, cap - 1, f);
  fclose(f);
  buf[n] = 0;
  return n > 0;
}

u64 rec__stack_guard_gap(const char *cmdline) {
  u64 pages = gap_param(cmdline);
  return (pages ? pages : REC_GUARD_GAP_PAGES) * REC_PAGE;
}

int rec__stack_rules(struct rec *r, int force) {
  struct rlimit rl;
  u64 limit = ~0ull;
  if (prlimit(r->proc->live, RLIMIT_STACK, NULL, &rl) == 0) {
    limit = rl.rlim_cur == RLIM_INFINITY ? ~0ull : (u64)rl.rlim_cur;
  } else if (!r->proc->stack_warned) {
    /* Without the limit the replay lets the stack grow as far as the
     * guard gap allows, so an overflow would not fault where it did. */
    r->proc->stack_warned = 1;
    RW_FORWARD(rec__note(r, 1,
                         "cannot read the stack size limit of %d: a "
                         "stack overflow may not replay",
                         (int)r->proc->live));
  }
  if (!force && r->proc->stack_rules_written && limit == r->proc->stack_limit)
    return 0;
  char buf[4096];
  u64 gap = rec__stack_guard_gap(
      read_small("/proc/cmdline", buf, sizeof buf) ? buf : "");
  u64 min_addr = REC_MIN_ADDR_DEFAULT;
  if (read_small("/proc/sys/vm/mmap_min_addr", buf, sizeof buf))
    min_addr = strtoull(buf, NULL, 10);
  struct trace_rec_stack_rules s = {limit, gap, min_addr};
  r->proc->stack_limit = limit;
  r->proc->stack_rules_written = 1;
  return trace_rec_stack_rules_append(r->w, (u32)r->cur->tid, &s);
}


int rec__map_grows(const struct rec__map *m) {
  return (m->flags & (REC_MAPF_STACK | REC_MAPF_GROWSDOWN)) != 0;
}
