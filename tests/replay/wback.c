/* SPDX-License-Identifier: MIT */
/* The write index of reverse continues (replayer/reverse.c) against the
 * full scan, through the replayer's API:
 *   wback TRACE INTERVAL ADDR LEN [ADDR LEN ...]
 * opens TRACE three times with keyframes every INTERVAL instructions: with
 * the index, without it (rp_opts.no_write_index) and without the helper
 * process of long reverse continues (rp_opts.no_helper), and without the
 * index but with the helper; runs them to the end, then for each range
 * walks back from there through every write with a write watchpoint: all
 * must stop at the same positions, events, threads and accesses, and end
 * at the start. Then the same with all the
 * ranges watched at once. Prints one line per write, "range ADDR scanned S
 * skipped K" after each range's walk (the indexed replay's intervals),
 * then "hits H scanned S skipped K helped P" for the indexed replay,
 * "full scanned S skipped 0 helped 0" for the full scan alone and "full
 * with a helper scanned S skipped 0 helped P" (P: intervals the helper
 * re-ran);
 * exits 1 on a difference, 2 when a replay fails. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rw.h"
#include "replayer/replayer.h"

#define MAXR 8

static rp_replay *open_one(const char *path, u64 interval, int no_index,
                           int no_helper) {
  struct rp_opts o = {0};
  struct rw_diag d = {0};
  rp_replay *rp;
  struct rp_stop st;
  o.keyframe_interval = interval;
  o.no_write_index = no_index;
  o.write_lines = 1;
  o.no_helper = no_helper;
  if (rp_open(&rp, path, &o, &d) < 0) {
    printf("cannot open %s: %s\n", path, d.msg);
    exit(2);
  }
  if (rp_run(rp, ~0ull, &st) < 0 || st.reason != RP_STOP_END) {
    printf("the replay did not reach the end (%d: %s)\n", st.reason, st.msg);
    exit(2);
  }
  return rp;
}

/* Watches the N ranges R in the NV replays V and walks back; returns the
 * number of writes found. */
static int walk(rp_replay **v, int nv, u64 (*r)[2], int n) {
  struct rp_stop sa, sb;
  int hits = 0;
  for (int k = 0; k < nv; k++)
    for (int i = 0; i < n; i++)
      if (rp_watch_add(v[k], r[i][0], r[i][1], 2) < 0) {
        printf("cannot watch %#" PRIx64 "\n", r[i][0]);
        exit(2);
      }
  for (;;) {
    if (rp_reverse_continue(v[0], &sa) < 0) {
      printf("reverse continue failed\n");
      exit(2);
    }
    for (int k = 1; k < nv; k++) {
      if (rp_reverse_continue(v[k], &sb) < 0) {
        printf("reverse continue failed\n");
        exit(2);
      }
      if (sa.reason != sb.reason || sa.icount != sb.icount ||
          sa.event != sb.event || sa.tid != sb.tid || sa.addr != sb.addr ||
          sa.by_kernel != sb.by_kernel) {
        printf("FAIL: indexed: stop %d at %" PRIu64 "/%" PRIu64
               " thread %u addr %#" PRIx64 "; %s: stop %d at %" PRIu64
               "/%" PRIu64 " thread %u addr %#" PRIx64 "\n",
               sa.reason, sa.icount, sa.event, sa.tid, sa.addr,
               k == 1 ? "full" : "full with a helper", sb.reason, sb.icount,
               sb.event, sb.tid, sb.addr);
        exit(1);
      }
    }
    if (sa.reason != RP_STOP_WATCHPOINT) break;
    hits++;
    printf("write at %" PRIu64 " thread %u addr %#" PRIx64 "%s\n", sa.icount,
           sa.tid, sa.addr, sa.by_kernel ? " by the kernel" : "");
  }
  if (sa.reason != RP_STOP_BEGIN) {
    printf("FAIL: the walk ended with stop %d, not at the start\n", sa.reason);
    exit(1);
  }
  for (int k = 0; k < nv; k++)
    for (int i = 0; i < n; i++)
      if (rp_watch_del(v[k], r[i][0], r[i][1], 2) < 0) exit(2);
  return hits;
}

int main(int argc, char **argv) {
  u64 r[MAXR][2], scanned, skipped, fs, fk;
  struct rp_stop st;
  int n = 0, hits = 0;
  if (argc < 5 || argc % 2 == 0 || (argc - 3) / 2 > MAXR) {
    fprintf(stderr, "usage: wback TRACE INTERVAL ADDR LEN [ADDR LEN...]\n");
    return 2;
  }
  for (int i = 3; i + 1 < argc; i += 2, n++) {
    r[n][0] = strtoull(argv[i], NULL, 0);
    r[n][1] = strtoull(argv[i + 1], NULL, 0);
  }
  u64 interval = strtoull(argv[2], NULL, 0);
  /* Indexed (with the helper process of a long reverse continue), the
   * full scan alone, the full scan with the helper. */
  rp_replay *v[3] = {open_one(argv[1], interval, 0, 0),
                     open_one(argv[1], interval, 1, 1),
                     open_one(argv[1], interval, 1, 0)};
  rp_replay *a = v[0], *b = v[1];
  for (int i = 0; i < n; i++) {
    u64 s0, k0;
    rp_reverse_stats(a, &s0, &k0, NULL);
    hits += walk(v, 3, &r[i], 1);
    rp_reverse_stats(a, &scanned, &skipped, NULL);
    printf("range %#" PRIx64 " scanned %" PRIu64 " skipped %" PRIu64 "\n",
           r[i][0], scanned - s0, skipped - k0);
    /* Back to the end for the next range. */
    for (int k = 0; k < 3; k++)
      if (rp_run(v[k], ~0ull, &st) < 0 || st.reason != RP_STOP_END) return 2;
  }
  int all = walk(v, 3, r, n);
  printf("all ranges at once: %d writes\n", all);
  u64 helped, fh, fhk, fhh, nh;
  rp_reverse_stats(a, &scanned, &skipped, &helped);
  rp_reverse_stats(b, &fs, &fk, &nh);
  rp_reverse_stats(v[2], &fh, &fhk, &fhh);
  printf("hits %d scanned %" PRIu64 " skipped %" PRIu64 " helped %" PRIu64
         "\n", hits, scanned, skipped, helped);
  printf("full scanned %" PRIu64 " skipped %" PRIu64 " helped %" PRIu64 "\n",
         fs, fk, nh);
  printf("full with a helper scanned %" PRIu64 " skipped %" PRIu64
         " helped %" PRIu64 "\n", fh, fhk, fhh);
  for (int k = 0; k < 3; k++) rp_close(v[k]);
  return fk || fhk || nh ? 1 : 0;
}
