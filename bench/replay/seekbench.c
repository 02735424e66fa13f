/* SPDX-License-Identifier: MIT */
/* Seek benchmark of the replayer (bench/RESULTS.md, "Replayer"): replays a
 * trace once to the end (the first full pass, which lays down keyframes),
 * then seeks to N random instruction counts and reports the median and
 * 90th-percentile time per seek, forwards and backwards, the memory the
 * keyframes hold and the process's peak RSS. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "common/rw.h"
#include "replayer/replayer.h"

static int cmp_u64(const void *a, const void *b) {
  u64 x = *(const u64 *)a, y = *(const u64 *)b;
  return x < y ? -1 : x > y;
}

static u64 pct(u64 *v, size_t n, int p) {
  if (!n) return 0;
  qsort(v, n, sizeof *v, cmp_u64);
  return v[(n - 1) * (size_t)p / 100];
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: seekbench TRACE [SEEKS [SEED]]\n");
    return 2;
  }
  int seeks = argc > 2 ? atoi(argv[2]) : 100;
  unsigned seed = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
  struct rw_diag diag = {0};
  rp_replay *rp;
  if (rp_open(&rp, argv[1], NULL, &diag) < 0) {
    fprintf(stderr, "seekbench: %s\n", diag.msg);
    return 1;
  }
  struct rp_stop stop;
  u64 t0 = rw_now_ns();
  if (rp_run(rp, ~0ull, &stop) < 0 || stop.reason != RP_STOP_END) {
    fprintf(stderr, "seekbench: the first pass stopped early: %s\n",
            stop.msg);
    return 1;
  }
  u64 end = rp_icount(rp);
  double pass = (double)(rw_now_ns() - t0) / 1e9;
  printf("trace: %s\nfirst pass: %" PRIu64 " instructions in %.2f s (%.1f "
         "MIPS)\n",
         argv[1], end, pass, (double)end / pass / 1e6);
  u64 *fw = calloc((size_t)seeks, sizeof *fw);
  u64 *bw = calloc((size_t)seeks, sizeof *bw);
  size_t nfw = 0, nbw = 0;
  srand(seed);
  for (int i = 0; i < seeks; i++) {
    u64 target = ((u64)rand() << 31 ^ (u64)rand()) % (end ? end : 1);
    u64 from = rp_icount(rp);
    u64 t = rw_now_ns();
    if (rp_seek(rp, target, &stop) < 0 || rp_icount(rp) != target) {
      fprintf(stderr, "seekbench: seek to %" PRIu64 " failed\n", target);
      return 1;
    }
    u64 ns = rw_now_ns() - t;
    if (target >= from)
      fw[nfw++] = ns;
    else
      bw[nbw++] = ns;
  }
  struct rp_stats st;
  rp_get_stats(rp, &st);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("seeks: %d random positions (seed %u)\n", seeks, seed);
  printf("  forward:  %zu, median %.1f ms, p90 %.1f ms\n", nfw,
         (double)pct(fw, nfw, 50) / 1e6, (double)pct(fw, nfw, 90) / 1e6);
  printf("  backward: %zu, median %.1f ms, p90 %.1f ms\n", nbw,
         (double)pct(bw, nbw, 50) / 1e6, (double)pct(bw, nbw, 90) / 1e6);
  printf("keyframes: %" PRIu64 ", holding about %.1f MiB; peak RSS %.1f MiB\n",
         st.keyframes, (double)st.keyframe_bytes / (1 << 20),
         (double)ru.ru_maxrss / 1024);
  free(fw);
  free(bw);
  rp_close(rp);
  return 0;
}
