/* SPDX-License-Identifier: MIT */
/* Test tool: the replayer against damaged indexes whose chunks check
 * (tests/replay/index.sh). A damaged file is caught by its checksums; a
 * wrong one that checks (a bug in a writer, or a file made by hand) must
 * be caught by the decoder of replayer/index.c, without a crash.
 *
 *   ixfuzz TRACE ROUNDS SEED
 *
 * reads TRACE.idx (made by rewind index), then ROUNDS times writes
 * TRACE.idx anew with the same metadata and keyframes but one state
 * keyframe changed (a few bytes flipped, or cut short, or a count made
 * huge), opens TRACE with the replayer and seeks to the changed
 * keyframe's position and to the end. Every seek must succeed or fail
 * with a code (the index is then dropped).
 *
 * In half the rounds the changed state keeps its old seal (its last 32
 * bytes, the SHA-256 of the rest): the replayer must refuse it, so the
 * positions reached must be those reached without the index. In the
 * other half it is sealed anew, as a buggy writer would: that reaches the
 * decoder, which must not crash or read out of bounds (run under ASan);
 * a wrong register value that decodes is not detectable, so positions
 * are not compared. Prints "ok N (M sealed anew, K of them refused)" and
 * exits 0, or says what went wrong and exits 1. The original index is
 * put back at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "replayer/replayer.h"

struct kf {
  u16 kind;
  u64 seq;
  u8 *data;
  size_t len;
};

static int write_index(const char *path, trace_reader *src,
                       const struct kf *k, size_t n) {
  trace_writer *w;
  struct trace_writer_opts o = {0};
  o.overwrite = 1;
  int rc = trace_writer_open(&w, path, &o);
  if (rc < 0) return rc;
  const char *key;
  const void *val;
  size_t len;
  for (size_t i = 0; rc == 0 && trace_reader_meta_at(src, i, &key, &val,
                                                     &len) == 0; i++)
    if (strcmp(key, TRACE_META_RECORDS))
      rc = trace_writer_set_meta(w, key, val, len);
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = trace_writer_add_keyframe(w, k[i].kind, k[i].seq, k[i].data,
                                   k[i].len);
  int crc = trace_writer_close(w);
  return rc < 0 ? rc : crc;
}

/* Where a replay of TRACE stands at ICOUNT: "icount event tid rip rsp";
 * with the index, *LOADED tells whether a keyframe of it was used. */
static int position(const char *trace, u64 icount, char *out, size_t cap,
                    int *loaded) {
  rp_replay *rp;
  struct rp_opts o = {0};
  o.whole = 1;
  int rc = rp_open(&rp, trace, &o, NULL);
  if (rc < 0) return rc;
  struct rp_stop stop;
  rc = rp_seek(rp, icount, &stop);
  struct rw_regs regs;
  if (rc == 0) rc = rp_get_regs(rp, 0, &regs);
  if (rc == 0)
    snprintf(out, cap, "%llu %llu %u %llx %llx",
             (unsigned long long)rp_icount(rp),
             (unsigned long long)rp_event(rp), rp_running_tid(rp),
             (unsigned long long)regs.rip,
             (unsigned long long)regs.gpr[RW_REG_rsp]);
  if (loaded) {
    struct rp_stats st;
    rp_get_stats(rp, &st);
    *loaded = st.index_loaded != 0;
  }
  rp_close(rp);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: ixfuzz TRACE ROUNDS SEED\n");
    return 2;
  }
  const char *trace = argv[1];
  int rounds = atoi(argv[2]);
  srand((unsigned)atoi(argv[3]));
  char ipath[4200], keep[4300];
  snprintf(ipath, sizeof ipath, "%s.idx", trace);
  snprintf(keep, sizeof keep, "%s.idx.orig", trace);
  if (rename(ipath, keep) < 0) {
    perror(ipath);
    return 1;
  }
  trace_reader *r;
  int rc = trace_reader_open(&r, keep, NULL);
  if (rc < 0) {
    fprintf(stderr, "ixfuzz: %s: %s\n", keep, rw_strerror(rc));
    return 1;
  }
  size_t n = trace_reader_nkeyframes(r), nstates = 0;
  struct kf *k = calloc(n + 1, sizeof *k);
  for (size_t i = 0; i < n; i++) {
    struct trace_keyframe_info ki;
    if (trace_reader_keyframe_info(r, i, &ki) < 0) return 1;
    k[i].kind = ki.kind;
    k[i].seq = ki.seq;
    k[i].len = ki.raw_len;
    k[i].data = malloc(ki.raw_len + 1);
    if (trace_reader_keyframe_read(r, i, k[i].data, ki.raw_len, NULL) !=
        (i64)ki.raw_len)
      return 1;
    nstates += ki.kind == 1;
  }
  if (!nstates) {
    fprintf(stderr, "ixfuzz: %s has no state keyframes\n", keep);
    return 1;
  }
  int bad = 0, resealed = 0, refused = 0;
  for (int round = 0; round < rounds && !bad; round++) {
    size_t s;
    do s = (size_t)rand() % n; while (k[s].kind != 1);
    u8 *was = malloc(k[s].len + 1);
    memcpy(was, k[s].data, k[s].len);
    size_t len = k[s].len;
    switch (rand() % 3) {
      case 0: /* flip a few bytes */
        for (int j = 0; j < 1 + rand() % 4; j++)
          k[s].data[(size_t)rand() % len] ^= (u8)(1 + rand() % 255);
        break;
      case 1: /* cut short */
        k[s].len = (size_t)rand() % len;
        break;
      default: { /* a u32 somewhere made huge */
        size_t at = ((size_t)rand() % (len / 4)) * 4;
        memset(k[s].data + at, 0xff, 4);
        break;
      }
    }
    /* A u32 that was all ones already: nothing changed. */
    int changed = k[s].len != len || memcmp(was, k[s].data, len);
    int reseal = rand() % 2;
    if (reseal && k[s].len >= 32 &&
        rw_sha256(k[s].data, k[s].len - 32, k[s].data + k[s].len - 32) < 0)
      return 1;
    resealed += reseal;
    rc = write_index(ipath, r, k, n);
    if (rc < 0) {
      fprintf(stderr, "ixfuzz: writing %s: %s\n", ipath, rw_strerror(rc));
      return 1;
    }
    u64 targets[2] = {k[s].seq + 17, ~0ull};
    for (int t = 0; t < 2; t++) {
      char with[128], without[128];
      int used = 0;
      int a = position(trace, targets[t], with, sizeof with, &used);
      char moved[4300];
      snprintf(moved, sizeof moved, "%s.idx.cur", trace);
      rename(ipath, moved);
      int b = position(trace, targets[t], without, sizeof without, NULL);
      rename(moved, ipath);
      if (reseal && t == 0) refused += !used;
      if (!reseal && t == 0 && used && changed) {
        fprintf(stderr, "ixfuzz: round %d, keyframe %zu: a state changed "
                "after its seal was used\n", round, s);
        bad = 1;
        break;
      }
      if (a < 0 || b < 0 || (!reseal && strcmp(with, without))) {
        fprintf(stderr, "ixfuzz: round %d, keyframe %zu, target %llu: "
                "with the changed index %s (%s), without %s (%s)\n",
                round, s, (unsigned long long)targets[t],
                a < 0 ? rw_strerror(a) : with, a < 0 ? "failed" : "",
                b < 0 ? rw_strerror(b) : without, b < 0 ? "failed" : "");
        bad = 1;
        break;
      }
    }
    memcpy(k[s].data, was, len);
    k[s].len = len;
    free(was);
  }
  remove(ipath);
  rename(keep, ipath);
  trace_reader_close(r);
  for (size_t i = 0; i < n; i++) free(k[i].data);
  free(k);
  if (bad) return 1;
  printf("ok %d (%d sealed anew, %d of them refused)\n", rounds, resealed,
         refused);
  return 0;
}
