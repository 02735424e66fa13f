/* SPDX-License-Identifier: MIT */
/* Fuzz target for the replayer (STYLE R19; issue 21): the input is a list
 * of edits to the record stream of a real recording ($RW_FUZZ_TRACE, which
 * run_replay_stream.sh records), applied before the trace is written again
 * with valid checksums, so that every mutation reaches the replayer rather
 * than the reader's checks. The edited trace is replayed for a bounded
 * number of instructions; any crash, sanitizer report or hang is the
 * failure, whatever the replay says about the trace.
 *
 * An edit is 8 bytes: u32 record (modulo the count), u16 byte (modulo the
 * payload length), u8 operation, u8 value. Operations (modulo 6): XOR the
 * byte with the value, set it, drop the record, write it twice, exchange it
 * with the next one, end the stream after it. Without $RW_FUZZ_TRACE the
 * target does nothing; with $RW_FUZZ_OUT the edited trace is written there
 * (to replay an input that failed with rewind itself). */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/endian.h"
#include "format/format_int.h"
#include "replayer/replayer.h"
#include "tests/fuzz/fuzz.h"

/* Instructions an edited replay may run. */
#define BUDGET 20000000ull

struct rec {
  u32 tid;
  u16 type;
  u32 len;
  u8 *data;
};

static trace_reader *base;
static struct rec *recs;
static size_t nrecs;
static char out_path[4096];

static int load(void) {
  const char *p = getenv("RW_FUZZ_TRACE");
  trace_cursor *c;
  struct trace_record r;
  size_t cap = 0;
  int fd;
  if (!p || trace_reader_open(&base, p, NULL) < 0) return -1;
  if (trace_cursor_open(&c, base, TRACE_ALL_THREADS) < 0) return -1;
  while (trace_cursor_next(c, &r, NULL) == 1) {
    if (nrecs == cap) {
      cap = cap ? 2 * cap : 1024;
      recs = realloc(recs, cap * sizeof *recs);
      if (!recs) abort();
    }
    recs[nrecs].tid = r.tid;
    recs[nrecs].type = r.type;
    recs[nrecs].len = r.len;
    recs[nrecs].data = malloc(r.len ? r.len : 1);
    if (!recs[nrecs].data) abort();
    memcpy(recs[nrecs].data, r.data, r.len);
    nrecs++;
  }
  trace_cursor_close(c);
  if (getenv("RW_FUZZ_OUT")) { /* to look at what an input makes */
    snprintf(out_path, sizeof out_path, "%s", getenv("RW_FUZZ_OUT"));
    return 0;
  }
  fd = memfd_create("rw-fuzz-trace", 0);
  if (fd < 0) return -1;
  snprintf(out_path, sizeof out_path, "/proc/self/fd/%d", fd);
  return 0;
}

/* The base trace's header, metadata and blobs, written once (by a trace
 * writer, into PREFIX up to where its index would begin): each edited
 * trace is this prefix and one RECORDS chunk per thread, left unclosed, so
 * that the reader finds the chunks by scanning and no file content is
 * hashed or compressed again for every input. */
static u8 *prefix;
static size_t prefix_len;

static int make_prefix(void) {
  struct trace_writer_opts o = {0};
  trace_writer *w;
  const char *key;
  const void *val;
  size_t len;
  int rc = 0;
  FILE *f;
  o.overwrite = 1;
  if (trace_writer_open(&w, out_path, &o) < 0) return -1;
  for (size_t i = 0; trace_reader_meta_at(base, i, &key, &val, &len) == 0;
       i++)
    if (strcmp(key, TRACE_META_RECORDS) && rc == 0)
      rc = trace_writer_set_meta(w, key, val, len);
  for (size_t i = 0; rc == 0 && i < trace_reader_nblobs(base); i++) {
    struct trace_blob_info bi;
    u8 hash[32], *data;
    if (trace_reader_blob_info(base, i, &bi) < 0) return -1;
    data = malloc(bi.size ? bi.size : 1);
    if (!data) abort();
    rc = trace_reader_blob_read(base, bi.hash, 0, data, bi.size, NULL) < 0 ||
         trace_writer_add_blob(w, bi.name, data, bi.size, hash) < 0;
    free(data);
  }
  if (rc == 0) rc = trace_writer_flush(w);
  prefix_len = (size_t)trace_writer_size(w);
  if (trace_writer_close(w) < 0 || rc) return -1;
  prefix = malloc(prefix_len);
  f = fopen(out_path, "rb");
  if (!prefix || !f || fread(prefix, 1, prefix_len, f) != prefix_len) abort();
  fclose(f);
  return 0;
}

/* Writes the prefix and the records in ORDER (N indices, payloads in PAY),
 * numbered 1, 2, ... in that order, to out_path. */
static int write_trace(const size_t *order, size_t n, u8 *const *pay) {
  FILE *f = fopen(out_path, "wb");
  u8 *raw = NULL, *comp = NULL;
  size_t cap = 0;
  int rc = 0;
  if (!f) return -1;
  if (fwrite(prefix, 1, prefix_len, f) != prefix_len) rc = -1;
  for (size_t first = 0; rc == 0 && first < n; first++) {
    u32 tid = recs[order[first]].tid;
    struct trace__chunk c = {0};
    u8 hdr[TRACE__CHUNK_HDR];
    size_t used = 0, bound;
    int seen = 0;
    /* Each thread once, at its first record. */
    for (size_t i = 0; i < first && !seen; i++)
      seen = recs[order[i]].tid == tid;
    if (seen) continue;
    c.type = TRACE_CHUNK_RECORDS;
    c.tid = tid;
    for (size_t i = first; i < n; i++) {
      const struct rec *r = &recs[order[i]];
      if (r->tid != tid) continue;
      if (used + TRACE__REC_HDR + r->len > cap) {
        cap = 2 * (used + TRACE__REC_HDR + r->len);
        raw = realloc(raw, cap);
        if (!raw) abort();
      }
      wr_le16(raw + used, r->type);
      wr_le32(raw + used + 2, r->len);
      wr_le64(raw + used + 6, i + 1);
      memcpy(raw + used + TRACE__REC_HDR, pay[i], r->len);
      used += TRACE__REC_HDR + r->len;
      if (!c.count++) c.seq_first = i + 1;
      c.seq_last = i + 1;
    }
    bound = ZSTD_compressBound(used);
    comp = realloc(comp, bound);
    if (!comp) abort();
    c.comp_len = (u32)ZSTD_compress(comp, bound, raw, used, 1);
    c.raw_len = (u32)used;
    c.payload_crc = rw_crc32c(0, comp, c.comp_len);
    trace__chunk_encode(&c, hdr);
    if (fwrite(hdr, 1, sizeof hdr, f) != sizeof hdr ||
        fwrite(comp, 1, c.comp_len, f) != c.comp_len)
      rc = -1;
  }
  free(raw);
  free(comp);
  return fclose(f) || rc ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int loaded;
  size_t *order, n;
  u8 **pay;
  if (!loaded) loaded = load() == 0 && make_prefix() == 0 ? 1 : -1;
  if (loaded < 0 || !nrecs) return 0;
  order = malloc(2 * nrecs * sizeof *order);
  pay = calloc(2 * nrecs, sizeof *pay);
  if (!order || !pay) abort();
  n = nrecs;
  for (size_t i = 0; i < n; i++) order[i] = i;
  for (size_t i = 0; i < n; i++) {
    pay[i] = malloc(recs[i].len ? recs[i].len : 1);
    if (!pay[i]) abort();
    memcpy(pay[i], recs[i].data, recs[i].len);
  }
  for (size_t e = 0; e + 8 <= size && n; e += 8) {
    size_t k = rd_le32(data + e) % n;
    u32 len = recs[order[k]].len;
    u32 at = len ? rd_le16(data + e + 4) % len : 0;
    u8 op = data[e + 6] % 6, v = data[e + 7];
    switch (op) {
      case 0:
      case 1:
        if (len) pay[k][at] = op ? v : (u8)(pay[k][at] ^ (v ? v : 1));
        break;
      case 2: /* drop */
        free(pay[k]);
        memmove(order + k, order + k + 1, (n - k - 1) * sizeof *order);
        memmove(pay + k, pay + k + 1, (n - k - 1) * sizeof *pay);
        n--;
        break;
      case 3: /* twice */
        if (n == 2 * nrecs) break;
        memmove(order + k + 1, order + k, (n - k) * sizeof *order);
        memmove(pay + k + 1, pay + k, (n - k) * sizeof *pay);
        pay[k + 1] = malloc(len ? len : 1);
        if (!pay[k + 1]) abort();
        memcpy(pay[k + 1], pay[k], len);
        n++;
        break;
      case 4: /* exchange with the next */
        if (k + 1 < n) {
          size_t t = order[k];
          u8 *p = pay[k];
          order[k] = order[k + 1];
          pay[k] = pay[k + 1];
          order[k + 1] = t;
          pay[k + 1] = p;
        }
        break;
      default: /* end the stream here */
        for (size_t i = k + 1; i < n; i++) free(pay[i]);
        n = k + 1;
        break;
    }
  }
  if (write_trace(order, n, pay) == 0) {
    rp_replay *rp;
    struct rp_stop stop;
    struct rw_diag diag = {0};
    if (rp_open(&rp, out_path, NULL, &diag) == 0) {
      /* Whatever the replay says about the trace is fine. */
      if (rp_run(rp, BUDGET, &stop) == 0 && rp_icount(rp) > 1000 &&
          rp_seek(rp, rp_icount(rp) / 2, &stop) < 0) {
      }
      rp_close(rp);
    }
  }
  for (size_t i = 0; i < n; i++) free(pay[i]);
  free(pay);
  free(order);
  return 0;
}
