/* SPDX-License-Identifier: MIT */
/* `rewind info --check`: reads and checks everything a trace holds, the way
 * `zstd -t` tests an archive. What the reader found when it opened the
 * trace (damage met by the scan, metadata that disagrees with the index,
 * sequence numbers no chunk holds), the index against a fresh scan of the
 * chunks, every chunk's checksum, compression and record framing, every
 * blob's content against its SHA-256, the sequence numbers of all
 * records in order, and the state of every recorder keyframe (a trace of
 * its own, whose records must name blobs and bytes the trace holds). Each
 * problem is reported once, by file offset. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

struct checker {
  trace_reader *r;
  const struct trace_check_cb *cb;
  struct trace_check_stats *st;
  u64 *seen; /* offsets reported, to say each place once */
  size_t nseen, seen_cap;
  u64 done, total; /* progress, in compressed bytes read */
};

/* Reports a problem at OFF unless that place was reported already. */
static int problem(struct checker *k, u64 off, int cut, const char *msg) {
  struct trace_problem p = {off, cut, msg};
  for (size_t i = 0; i < k->nseen; i++)
    if (k->seen[i] == off) return 0;
  if (k->nseen == k->seen_cap) {
    size_t ncap = k->seen_cap ? 2 * k->seen_cap : 64;
    u64 *n = realloc(k->seen, ncap * sizeof *n);
    RW_RETURN_IF(!n, RW_ENOMEM, "problem list");
    k->seen = n;
    k->seen_cap = ncap;
  }
  k->seen[k->nseen++] = off;
  if (cut)
    k->st->cut = 1;
  else
    k->st->damaged++;
  if (k->cb && k->cb->problem) k->cb->problem(k->cb->arg, &p);
  return 0;
}

static void progress(struct checker *k, u64 bytes) {
  k->done += bytes;
  if (k->cb && k->cb->progress) k->cb->progress(k->cb->arg, k->done, k->total);
}

/* The chunk list a scan of the file finds, against the index's. */
static int index_against_scan(struct checker *k) {
  trace_reader *r = k->r, *s = calloc(1, sizeof *s);
  char msg[200];
  int rc;
  RW_RETURN_IF(!s, RW_ENOMEM, "scan");
  s->base = r->base;
  s->size = r->size;
  s->hdr_len = r->hdr_len;
  s->page_size = r->page_size;
  s->cache_chunk = -1;
  s->fd = r->fd;
  s->dctx = ZSTD_createDCtx();
  rc = s->dctx ? trace__scan(s) : RW_ENOMEM;
  for (size_t i = 0; rc == 0 && i < s->ndamages; i++)
    rc = problem(k, s->damages[i].offset, 0, s->damages[i].msg);
  for (size_t i = 0; rc == 0; i++) {
    const struct trace__chunk *a = i < r->nchunks ? &r->chunks[i] : NULL;
    const struct trace__chunk *b = i < s->nchunks ? &s->chunks[i] : NULL;
    if (!a && !b) break;
    if (a && b && a->offset == b->offset && a->type == b->type &&
        a->kind == b->kind && a->tid == b->tid && a->count == b->count &&
        a->seq_first == b->seq_first && a->seq_last == b->seq_last &&
        a->comp_len == b->comp_len && a->raw_len == b->raw_len)
      continue;
    if (!b)
      snprintf(msg, sizeof msg,
               "the index lists a chunk at offset %llu that a scan of the "
               "file does not find",
               (unsigned long long)a->offset);
    else if (!a || b->offset < a->offset)
      snprintf(msg, sizeof msg,
               "the file holds a %s chunk at offset %llu that the index "
               "does not list",
               trace_chunk_name(b->type) ? trace_chunk_name(b->type) : "?",
               (unsigned long long)b->offset);
    else
      snprintf(msg, sizeof msg,
               "the index says something else than the chunk at offset "
               "%llu",
               (unsigned long long)a->offset);
    rc = problem(k, a && (!b || a->offset <= b->offset) ? a->offset
                                                         : b->offset,
                 0, msg);
    break; /* the lists are out of step from here on */
  }
  trace__free_tables(s);
  ZSTD_freeDCtx(s->dctx);
  free(s->cache);
  free(s);
  return rc;
}

/* Loads every chunk: header against the index, checksum, compression, and
 * the framing of the records in it. */
static int chunks(struct checker *k) {
  ZSTD_DCtx *d = ZSTD_createDCtx();
  u8 *buf = NULL;
  size_t cap = 0;
  int rc = d ? 0 : RW_ENOMEM;
  for (size_t i = 0; rc == 0 && i < k->r->nchunks; i++) {
    const struct trace__chunk *c = &k->r->chunks[i];
    struct rw_diag diag = {0};
    int bad = trace__chunk_load(k->r, i, d, &buf, &cap, &diag);
    if (bad == 0 && c->type == TRACE_CHUNK_RECORDS)
      bad = trace__records_check(c, buf, &diag);
    if (bad == RW_ENOMEM)
      rc = bad;
    else if (bad < 0)
      rc = problem(k, c->offset, 0, diag.msg);
    k->st->chunks++;
    progress(k, TRACE__CHUNK_HDR + (u64)c->comp_len);
  }
  free(buf);
  ZSTD_freeDCtx(d);
  return rc;
}

static int blobs(struct checker *k) {
  for (size_t i = 0; i < k->r->nblobs; i++) {
    struct rw_diag diag = {0};
    int bad = trace_reader_blob_check(k->r, i, &diag);
    if (bad == RW_ENOMEM) return bad;
    if (bad < 0) RW_FORWARD(problem(k, diag.offset, 0, diag.msg));
    k->st->blobs++;
    k->st->blob_bytes += k->r->blobs[i].size;
  }
  return 0;
}

/* Every record in sequence order: no number missing or repeated. */
static int sequence(struct checker *k) {
  trace_cursor *c;
  struct trace_record rec;
  int rc;
  RW_FORWARD(trace_cursor_open(&c, k->r, TRACE_ALL_THREADS));
  for (;;) {
    struct rw_diag diag = {0};
    rc = trace_cursor_next(c, &rec, &diag);
    if (rc == 0) break;
    if (rc == 1) {
      const u8 *h[4];
      size_t nh = trace__record_hashes(&rec, h, 4);
      k->st->records++;
      k->st->seq_last = rec.seq;
      for (size_t i = 0; i < nh && rc >= 0; i++) {
        static const u8 zero[32];
        struct trace_blob_info bi;
        char msg[200];
        if (!memcmp(h[i], zero, 32) ||
            trace_reader_find_blob(k->r, h[i], &bi) == 0)
          continue;
        snprintf(msg, sizeof msg,
                 "record %llu (%s) names the content of a file that the "
                 "trace does not hold (a lost BLOB chunk)",
                 (unsigned long long)rec.seq,
                 trace_record_name(rec.type) ? trace_record_name(rec.type)
                                             : "?");
        rc = problem(k, rec.chunk_offset, 0, msg); /* once a chunk */
      }
      if (rc < 0) break;
      continue;
    }
    if (rc == RW_ENOMEM) break;
    rc = problem(k, diag.offset, rc == RW_ETRUNC, diag.msg);
    if (rc < 0) break;
  }
  trace_cursor_close(c);
  return rc;
}

/* The state of recorder keyframe I (valid at SEQ): a trace of its own
 * whose records name only blobs the trace holds, and MEM_FROM only bytes
 * those blobs have. 1 with MSG set when it is not. */
static int kf_state(trace_reader *r, size_t i, u64 seq, char *msg,
                    size_t cap) {
  struct trace_blob_info bi;
  trace_reader *kr = NULL;
  trace_cursor *c = NULL;
  struct rw_diag d = {0};
  struct trace_record rec;
  u8 *img;
  size_t len;
  u64 at; /* SEQ, as the index has it */
  int rc = trace_reader_recorder_state(r, i, &at, &img, &len, &d);
  if (rc == RW_ENOMEM) return rc;
  int bad = rc < 0;
  if (!bad) bad = trace_reader_open_mem(&kr, img, len, &d) < 0;
  if (!bad) bad = trace_cursor_open(&c, kr, TRACE_ALL_THREADS) < 0;
  int got;
  while (!bad && (got = trace_cursor_next(c, &rec, &d)) != 0) {
    const u8 *h[4];
    if (got < 0) {
      bad = 1;
      break;
    }
    size_t nh = trace__record_hashes(&rec, h, 4);
    static const u8 zero[32];
    for (size_t j = 0; j < nh && !bad; j++)
      bad = memcmp(h[j], zero, 32) && trace_reader_find_blob(r, h[j], &bi);
    struct trace_rec_mem_from m;
    if (!bad && rec.type == TRACE_REC_MEM_FROM &&
        (trace_rec_mem_from_get(&m, rec.data, rec.len) < 0 ||
         trace_reader_find_blob(r, m.blob.b, &bi) < 0 ||
         m.offset > bi.size || m.len > bi.size - m.offset))
      bad = 2;
  }
  if (rc < 0)
    snprintf(msg, cap, "keyframe at %llu: %s", (unsigned long long)seq,
             d.msg[0] ? d.msg : rw_strerror(rc));
  else if (bad)
    snprintf(msg, cap, "keyframe at %llu: its state %s",
             (unsigned long long)seq,
             bad == 2 ? "takes bytes a blob does not have"
             : d.msg[0] ? d.msg
                        : "names a blob the trace does not hold, or cannot "
                          "be read");
  trace_cursor_close(c);
  trace_reader_close(kr);
  free(img);
  return bad != 0;
}

/* Every recorder keyframe's state (rewind record --keyframes, --ring). */
static int keyframes(struct checker *k) {
  for (size_t i = 0; i < trace_reader_nkeyframes(k->r); i++) {
    struct trace_keyframe_info ki;
    char msg[300];
    if (trace_reader_keyframe_info(k->r, i, &ki) < 0 ||
        ki.kind != TRACE_KF_RECORDER)
      continue;
    int rc = kf_state(k->r, i, ki.seq, msg, sizeof msg);
    if (rc < 0) return rc;
    if (rc) RW_FORWARD(problem(k, ki.offset, 0, msg));
  }
  return 0;
}

int trace_check(trace_reader *r, const struct trace_check_cb *cb,
                struct trace_check_stats *st) {
  struct checker k = {r, cb, st, NULL, 0, 0, 0, 0};
  int rc = 0;
  memset(st, 0, sizeof *st);
  for (size_t i = 0; i < r->nchunks; i++)
    k.total += TRACE__CHUNK_HDR + (u64)r->chunks[i].comp_len;
  for (size_t i = 0; rc == 0 && i < r->ndamages; i++)
    rc = problem(&k, r->damages[i].offset, r->damages[i].torn,
                 r->damages[i].msg);
  if (rc == 0 && r->ndamaged > r->ndamages) {
    char msg[120];
    snprintf(msg, sizeof msg, "%llu more damaged places (not listed)",
             (unsigned long long)(r->ndamaged - r->ndamages));
    rc = problem(&k, r->size, 0, msg);
  }
  if (rc == 0 && r->complete) rc = index_against_scan(&k);
  if (rc == 0) rc = chunks(&k);
  if (rc == 0) rc = blobs(&k);
  if (rc == 0) rc = sequence(&k);
  if (rc == 0) rc = keyframes(&k);
  st->meta = r->nmeta;
  if (rc == 0 && !r->complete && !r->has_trailer && !st->cut)
    rc = problem(&k, r->size, 1,
                 "the trace was not closed: the recording was cut off "
                 "(the recorder was killed, or the machine stopped)");
  free(k.seen);
  return rc;
}

/* ------------------------------------------------------------- report */

struct report {
  FILE *out;
  int json, progress, nprinted;
  u64 next_pct;
};

static void report_problem(void *arg, const struct trace_problem *p) {
  struct report *rp = arg;
  if (rp->progress) fputs("\r\033[K", stderr);
  if (rp->json) {
    fprintf(rp->out, "%s{\"offset\":%llu,\"kind\":\"%s\",\"message\":",
            rp->nprinted ? "," : "", (unsigned long long)p->offset,
            p->cut ? "cut" : "damage");
    trace__json_str(rp->out, p->msg, strlen(p->msg));
    fputc('}', rp->out);
  } else {
    fprintf(rp->out, "%-11s offset %llu: %s\n", p->cut ? "cut off:" : "damage:",
            (unsigned long long)p->offset, p->msg);
  }
  rp->nprinted++;
}

static void report_progress(void *arg, u64 done, u64 total) {
  struct report *rp = arg;
  u64 pct = total ? done * 100 / total : 100;
  if (!rp->progress || pct < rp->next_pct) return;
  fprintf(stderr, "\r\033[Krewind: checking: %llu%%", (unsigned long long)pct);
  rp->next_pct = pct + 1;
}

int trace_report_check(FILE *out, trace_reader *r, const char *path,
                       int json, int show_progress,
                       struct trace_check_stats *st) {
  struct report rp = {out, json, show_progress, 0, 0};
  struct trace_check_cb cb = {report_problem, report_progress, &rp};
  int rc;
  if (json) {
    fputs("{\"trace\":", out);
    trace__json_str(out, path, strlen(path));
    fputs(",\"problems\":[", out);
  } else {
    fprintf(out, "%-11s %s\n", "trace:", path);
  }
  rc = trace_check(r, &cb, st);
  if (show_progress) fputs("\r\033[K", stderr);
  if (rc < 0) return rc;
  const void *why = NULL;
  size_t why_len = 0;
  if (trace_reader_meta(r, TRACE_META_STOPPED, &why, &why_len) < 0)
    why = NULL;
  if (json) {
    fputs("],\"stopped\":", out);
    if (why)
      trace__json_str(out, why, why_len);
    else
      fputs("null", out);
    fprintf(out,
            ",\"whole\":%s,\"cut\":%s,\"damaged\":%llu,\"chunks\":%llu,"
            "\"records\":%llu,\"seq_last\":%llu,\"blobs\":%llu,"
            "\"blob_bytes\":%llu,\"metadata\":%llu}\n",
            !st->damaged && !st->cut ? "true" : "false",
            st->cut ? "true" : "false", (unsigned long long)st->damaged,
            (unsigned long long)st->chunks, (unsigned long long)st->records,
            (unsigned long long)st->seq_last, (unsigned long long)st->blobs,
            (unsigned long long)st->blob_bytes, (unsigned long long)st->meta);
  } else {
    char seq[48] = "";
    if (st->records)
      snprintf(seq, sizeof seq, " (seq 1..%llu)",
               (unsigned long long)st->seq_last);
    fprintf(out,
            "%-11s %llu chunks, %llu records%s, %llu blobs "
            "(%llu bytes, hashes checked), %llu metadata entries\n",
            "checked:", (unsigned long long)st->chunks,
            (unsigned long long)st->records, seq,
            (unsigned long long)st->blobs, (unsigned long long)st->blob_bytes,
            (unsigned long long)st->meta);
    if (why)
      fprintf(out, "%-11s the recording was stopped early: %.*s\n",
              "stopped:", (int)RW_MIN(why_len, (size_t)400),
              (const char *)why);
    if (st->damaged)
      fprintf(out, "%-11s damaged (%llu problem%s)\n", "result:",
              (unsigned long long)st->damaged, st->damaged == 1 ? "" : "s");
    else if (st->cut)
      fprintf(out, "%-11s cut off: sound up to where it ends\n", "result:");
    else
      fprintf(out, "%-11s whole\n", "result:");
  }
  return ferror(out) ? RW_ERR(EIO) : 0;
}
