/* SPDX-License-Identifier: MIT */
/* The trace writer: per-thread record streams buffered in memory and written
 * as zstd chunks, global sequence numbers, metadata, keyframes, and at close
 * the footer index and trailer. The file is only ever appended to, and each
 * chunk goes out in one write, so a writer killed at any moment leaves every
 * earlier chunk intact. Blob storage is in wblob.c, the index in windex.c. */
#define _GNU_SOURCE /* pthread_setaffinity_np */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/writer_int.h"

/* ----------------------------------------------------------------- I/O */

static int write_all(int fd, const u8 *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    RW_RETURN_IF(k < 0, RW_ERR(errno), "write: %s", strerror(errno));
    RW_RETURN_IF(k == 0, RW_ERR(EIO), "write returned 0");
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Remembers the first error: once a write failed, the file ends in a partial
 * chunk and nothing more may be appended after it. */
static int fail(trace_writer *w, int rc) {
  if (rc < 0 && w->err == 0) w->err = rc;
  return rc;
}

int trace__w_write(trace_writer *w, const u8 *p, size_t n) {
  RW_RETURN_IF(w->err, w->err, "earlier error");
  RW_FORWARD(fail(w, write_all(w->fd, p, n)));
  /* trace_writer_size() may read it while the background thread writes. */
  __atomic_store_n(&w->off, w->off + n, __ATOMIC_RELAXED);
  return 0;
}

/* A compression context for LEVEL with the trace's frame parameters (no
 * checksum: the chunk has a CRC; the content size, for the reader), or
 * NULL. Every context made here compresses a chunk to the same bytes. */
static ZSTD_CCtx *new_cctx(int level) {
  ZSTD_CCtx *c = ZSTD_createCCtx();
  if (c &&
      (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel,
                                           level)) ||
       ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0)) ||
       ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1)))) {
    ZSTD_freeCCtx(c);
    c = NULL;
  }
  return c;
}

/* Compresses and writes one chunk, and enters it in the table: on the
 * caller's thread, or on the background thread (which alone then touches
 * what it changes). Returns 0 or a negative code; sets no sticky error. */
static int chunk_out(trace_writer *w, struct trace__chunk *c, const u8 *raw,
                     int pre) {
  size_t bound = pre ? c->comp_len : ZSTD_compressBound(c->raw_len);
  size_t comp;
  int rc;
  RW_ASSERT(c->raw_len <= TRACE__MAX_CHUNK_RAW);
  RW_FORWARD(trace__reserve(&w->cbuf, &w->cbuf_cap, TRACE__CHUNK_HDR + bound));
  if (pre) { /* the payload of a stored blob (trace_writer_add_blob_image) */
    memcpy(w->cbuf + TRACE__CHUNK_HDR, raw, c->comp_len);
    comp = c->comp_len;
  } else {
    comp = ZSTD_compress2(w->cctx, w->cbuf + TRACE__CHUNK_HDR, bound,
                          c->raw_len ? raw : (const u8 *)"", c->raw_len);
    if (ZSTD_isError(comp)) {
      rw_log(RW_LOG_ERROR, "zstd: %s", ZSTD_getErrorName(comp));
      return RW_EINVAL;
    }
  }
  c->offset = w->off;
  c->comp_len = (u32)comp;
  c->payload_crc = rw_crc32c(0, w->cbuf + TRACE__CHUNK_HDR, comp);
  trace__chunk_encode(c, w->cbuf);
  rc = write_all(w->fd, w->cbuf, TRACE__CHUNK_HDR + comp);
  if (rc < 0) return rc;
  __atomic_store_n(&w->off, w->off + TRACE__CHUNK_HDR + comp,
                   __ATOMIC_RELAXED);
  w->raw_total += c->raw_len;
  if (c->type != TRACE_CHUNK_INDEX) {
    if (w->nchunks == w->chunks_cap) {
      size_t ncap = w->chunks_cap ? 2 * w->chunks_cap : 64;
      struct trace__chunk *n = realloc(w->chunks, ncap * sizeof *n);
      RW_RETURN_IF(!n, RW_ENOMEM, "chunk table");
      w->chunks = n;
      w->chunks_cap = ncap;
    }
    w->chunks[w->nchunks++] = *c;
  }
  if (w->opts.on_chunk)
    w->opts.on_chunk(w->opts.arg, c->offset, c->type, c->tid, c->seq_first,
                     c->seq_last);
  return 0;
}

/* ---------------------------------------------------- background thread */

/* Compression takes most of a recorder's own time when a program makes
 * many buffered syscalls; on its own thread it runs while the recorder
 * waits for the next ptrace stop. Jobs are written in the order they were
 * queued, so the file is the one the caller's thread would write. */
static void *bg_main(void *arg) {
  trace_writer *w = arg;
  if (w->opts.background_cpus) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < 64; i++)
      if (w->opts.background_cpus >> i & 1) CPU_SET(i, &set);
    /* Best effort: where it cannot move, it shares the caller's CPUs. */
    (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  }
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->qn && !w->quit) pthread_cond_wait(&w->cv_job, &w->mu);
    if (!w->qn) break;
    struct trace__wjob job = w->q[w->qhead];
    w->qhead = (w->qhead + 1) % TRACE__WQ;
    w->qn--;
    w->busy = 1;
    int skip = w->bg_err != 0; /* after an error, nothing more is written */
    pthread_mutex_unlock(&w->mu);
    int rc = skip ? 0 : chunk_out(w, &job.c, job.raw, job.pre);
    pthread_mutex_lock(&w->mu);
    if (rc < 0 && !w->bg_err) w->bg_err = rc;
    w->busy = 0;
    if (w->nspare < TRACE__WQ + 1)
      w->spare[w->nspare++] = job;
    else
      free(job.raw);
    pthread_cond_broadcast(&w->cv_done);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

/* Starts the thread with every signal blocked, so that signals still go to
 * the caller's threads. Returns 0 or a negative code. */
static int bg_start(trace_writer *w) {
  sigset_t all, old;
  int e;
  if (pthread_mutex_init(&w->mu, NULL)) return RW_ENOMEM;
  if (pthread_cond_init(&w->cv_job, NULL)) goto no_job;
  if (pthread_cond_init(&w->cv_done, NULL)) goto no_done;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  e = pthread_create(&w->thr, NULL, bg_main, w);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (e == 0) {
    w->bg = 1;
    return 0;
  }
  pthread_cond_destroy(&w->cv_done);
no_done:
  pthread_cond_destroy(&w->cv_job);
no_job:
  pthread_mutex_destroy(&w->mu);
  return RW_ENOMEM;
}

int trace__w_sync(trace_writer *w) {
  if (!w->bg) return w->err;
  pthread_mutex_lock(&w->mu);
  while (w->qn || w->busy) pthread_cond_wait(&w->cv_done, &w->mu);
  int rc = w->bg_err;
  pthread_mutex_unlock(&w->mu);
  if (rc && !w->err) w->err = rc;
  return w->err;
}

/* Waits for the queue to empty and ends the thread; chunks are written on
 * the caller's thread from then on. */
static int bg_stop(trace_writer *w) {
  int rc = trace__w_sync(w);
  if (w->bg) {
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_signal(&w->cv_job);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thr, NULL);
    pthread_cond_destroy(&w->cv_done);
    pthread_cond_destroy(&w->cv_job);
    pthread_mutex_destroy(&w->mu);
    w->bg = 0;
  }
  while (w->nspare) free(w->spare[--w->nspare].raw);
  w->opts.background = 0;
  return rc;
}

/* Compresses the raw chunk C in BUF (CAP bytes) on the caller's thread,
 * in place: afterwards BUF holds the payload and C its length. Returns 1,
 * or 0 when it did not (no memory, or the payload would not fit in CAP:
 * the thread compresses it then). */
static int caller_compress(trace_writer *w, struct trace__chunk *c, u8 *buf,
                           size_t cap) {
  size_t bound = ZSTD_compressBound(c->raw_len);
  if (!w->cctx_caller) w->cctx_caller = new_cctx(w->opts.level);
  if (!w->cctx_caller ||
      trace__reserve(&w->ccbuf, &w->ccbuf_cap, bound) < 0)
    return 0;
  size_t comp = ZSTD_compress2(w->cctx_caller, w->ccbuf, bound,
                               c->raw_len ? buf : (const u8 *)"", c->raw_len);
  if (ZSTD_isError(comp) || comp > cap) return 0;
  memcpy(buf, w->ccbuf, comp);
  c->comp_len = (u32)comp;
  w->caller_chunks++;
  return 1;
}

/* Hands C with the raw buffer BUF (of CAP bytes, owned) to the thread.
 * When the queue is full, the caller compresses the chunk itself rather
 * than wait idle (the thread then only writes it), and waits after that
 * while the queue is still full. Takes BUF in every case. */
static int bg_queue(trace_writer *w, const struct trace__chunk *cin, u8 *buf,
                    size_t cap, int pre) {
  struct trace__chunk cc = *cin, *c = &cc;
  pthread_mutex_lock(&w->mu);
  int full = w->qn == TRACE__WQ;
  pthread_mutex_unlock(&w->mu);
  if (!pre && (full || w->opts.caller_compresses))
    pre = caller_compress(w, c, buf, cap);
  pthread_mutex_lock(&w->mu);
  while (w->qn == TRACE__WQ && !w->bg_err)
    pthread_cond_wait(&w->cv_done, &w->mu);
  int rc = w->bg_err;
  if (!rc) {
    struct trace__wjob *j = &w->q[(w->qhead + w->qn) % TRACE__WQ];
    j->c = *c;
    j->raw = buf;
    j->cap = cap;
    j->pre = pre;
    w->qn++;
    pthread_cond_signal(&w->cv_job);
  }
  pthread_mutex_unlock(&w->mu);
  if (rc) {
    free(buf);
    return fail(w, rc);
  }
  if (c->type != TRACE_CHUNK_INDEX) w->nqueued++;
  return 0;
}

/* A buffer of at least N bytes for a job: a spare one, or a new one. */
static u8 *bg_buffer(trace_writer *w, size_t n, size_t *cap) {
  u8 *b = NULL;
  *cap = 0;
  pthread_mutex_lock(&w->mu);
  if (w->nspare) {
    w->nspare--;
    b = w->spare[w->nspare].raw;
    *cap = w->spare[w->nspare].cap;
  }
  pthread_mutex_unlock(&w->mu);
  if (*cap < n) {
    free(b);
    *cap = n > 4096 ? n : 4096;
    b = malloc(*cap);
    if (!b) *cap = 0;
  }
  return b;
}

/* Whether chunks go to the thread, starting it when it is not running;
 * when it cannot start, the writer goes on without one. */
static int bg_on(trace_writer *w) {
  if (!w->opts.background) return 0;
  if (!w->bg && bg_start(w) < 0) {
    rw_log(RW_LOG_DEBUG, "no thread for the trace writer: writing inline");
    w->opts.background = 0;
    return 0;
  }
  return 1;
}

/* trace__w_chunk and trace__w_chunk_pre: DATA holds N bytes, raw or (PRE)
 * compressed. */
static int chunk_in(trace_writer *w, struct trace__chunk *c, const u8 *data,
                    size_t n, int pre) {
  RW_RETURN_IF(w->err, w->err, "earlier error");
  if (bg_on(w)) {
    size_t cap;
    u8 *b = bg_buffer(w, n, &cap);
    RW_RETURN_IF(!b, fail(w, RW_ENOMEM), "chunk of %zu bytes", n);
    if (n) memcpy(b, data, n);
    return bg_queue(w, c, b, cap, pre);
  }
  RW_FORWARD(fail(w, chunk_out(w, c, data, pre)));
  if (c->type != TRACE_CHUNK_INDEX) w->nqueued++;
  return 0;
}

int trace__w_chunk(trace_writer *w, struct trace__chunk *c, const u8 *raw) {
  return chunk_in(w, c, raw, c->raw_len, 0);
}

int trace__w_chunk_pre(trace_writer *w, struct trace__chunk *c,
                       const u8 *comp) {
  return chunk_in(w, c, comp, c->comp_len, 1);
}

int trace__w_chunk_take(trace_writer *w, struct trace__chunk *c, u8 **raw,
                        size_t *cap) {
  RW_RETURN_IF(w->err, w->err, "earlier error");
  if (!bg_on(w)) return trace__w_chunk(w, c, *raw);
  u8 *give = *raw;
  size_t gcap = *cap;
  *raw = bg_buffer(w, 0, cap);
  if (!*raw) *cap = 0;
  return bg_queue(w, c, give, gcap, 0);
}

/* ------------------------------------------------------------- streams */

static struct trace__wstream *stream_get(trace_writer *w, u32 tid) {
  size_t mask, i;
  if (w->last && w->last->tid == tid) return w->last;
  if (w->hcap) {
    mask = w->hcap - 1;
    for (i = (tid * 0x9e3779b1u) & mask; w->htab[i]; i = (i + 1) & mask)
      if (w->streams[w->htab[i] - 1]->tid == tid)
        return w->last = w->streams[w->htab[i] - 1];
  }
  /* A new stream: grow the table at half load, then insert. */
  if (2 * (w->nstreams + 1) > w->hcap) {
    size_t ncap = w->hcap ? 2 * w->hcap : 16;
    u32 *nt = calloc(ncap, sizeof *nt);
    struct trace__wstream **ns =
        realloc(w->streams, ncap / 2 * sizeof *ns);
    if (!nt || !ns) {
      free(nt);
      if (ns) w->streams = ns;
      return NULL;
    }
    w->streams = ns;
    for (size_t k = 0; k < w->nstreams; k++) {
      i = (w->streams[k]->tid * 0x9e3779b1u) & (ncap - 1);
      while (nt[i]) i = (i + 1) & (ncap - 1);
      nt[i] = (u32)k + 1;
    }
    free(w->htab);
    w->htab = nt;
    w->hcap = ncap;
  }
  struct trace__wstream *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->tid = tid;
  mask = w->hcap - 1;
  for (i = (tid * 0x9e3779b1u) & mask; w->htab[i]; i = (i + 1) & mask) {
  }
  w->streams[w->nstreams++] = s;
  w->htab[i] = (u32)w->nstreams;
  return w->last = s;
}

static int stream_flush(trace_writer *w, struct trace__wstream *s) {
  struct trace__chunk c = {0};
  if (!s->count) return 0;
  RW_FORWARD(trace__w_meta_flush(w));
  c.type = TRACE_CHUNK_RECORDS;
  c.tid = s->tid;
  c.count = s->count;
  c.seq_first = s->seq_first;
  c.seq_last = s->seq_last;
  c.raw_len = (u32)s->len;
  RW_FORWARD(trace__w_chunk_take(w, &c, &s->buf, &s->cap));
  s->len = 0;
  s->count = 0;
  return 0;
}

/* ------------------------------------------------------------- public */

int trace_writer_open(trace_writer **out, const char *path,
                      const struct trace_writer_opts *opts) {
  trace_writer *w;
  u8 hdr[TRACE__HDR_SIZE];
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  long page = sysconf(_SC_PAGESIZE);
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC, rc;
  *out = NULL;
  w = calloc(1, sizeof *w);
  RW_RETURN_IF(!w, RW_ENOMEM, "writer");
  if (opts) w->opts = *opts;
  if (!w->opts.level) w->opts.level = TRACE__DEFAULT_LEVEL;
  if (!w->opts.chunk_bytes) w->opts.chunk_bytes = TRACE__DEFAULT_CHUNK;
  rc = RW_EINVAL;
  if (w->opts.level < ZSTD_minCLevel() || w->opts.level > ZSTD_maxCLevel() ||
      w->opts.chunk_bytes > TRACE__MAX_CHUNK_BYTES)
    goto fail;
  w->next_seq = w->opts.first_seq ? w->opts.first_seq : 1;
  w->fd = -1;
  rc = RW_ENOMEM;
  w->cctx = new_cctx(w->opts.level);
  if (!w->cctx) goto fail;
  flags |= w->opts.overwrite ? O_TRUNC : O_EXCL;
  w->fd = open(path, flags, 0644);
  if (w->fd < 0) {
    rc = RW_ERR(errno);
    goto fail;
  }
  /* SOURCE_DATE_EPOCH makes test traces byte-for-byte reproducible. */
  w->created_ns = sde ? strtoull(sde, NULL, 10) * 1000000000ull : rw_wall_ns();
  trace__header_encode(hdr, w->created_ns, page > 0 ? (u32)page : 4096);
  rc = write_all(w->fd, hdr, sizeof hdr);
  if (rc < 0) goto fail;
  w->off = sizeof hdr;
  *out = w;
  if (w->next_seq > 1) { /* so that a reader sees no records missing */
    char n[24];
    snprintf(n, sizeof n, "%llu", (unsigned long long)w->next_seq);
    rc = trace_writer_set_meta(w, TRACE_META_FIRST_SEQ, n, strlen(n));
    if (rc < 0) {
      trace_writer_close(w);
      *out = NULL;
      return rc;
    }
  }
  return 0;
fail:
  if (w->fd >= 0) close(w->fd);
  ZSTD_freeCCtx(w->cctx);
  free(w);
  return rc;
}

int trace_writer_reserve(trace_writer *w, u32 tid, u16 type, size_t len,
                         u8 **payload) {
  struct trace__wstream *s;
  size_t need;
  *payload = NULL;
  if (w->divert) return trace_writer_reserve(w->divert, tid, type, len,
                                             payload);
  RW_RETURN_IF(w->err, w->err, "earlier error");
  RW_RETURN_IF(w->open, RW_EINVAL, "a reserved record is not committed");
  RW_RETURN_IF(type == 0 || len > TRACE_MAX_RECORD, RW_EINVAL,
               "type %u len %zu", type, len);
  s = stream_get(w, tid);
  RW_RETURN_IF(!s, RW_ENOMEM, "stream %u", tid);
  need = TRACE__REC_HDR + len;
  if (s->count && s->len + need > w->opts.chunk_bytes)
    RW_FORWARD(stream_flush(w, s));
  if (s->len + need > s->cap) {
    size_t ncap = s->cap ? s->cap : 4096;
    u8 *nb;
    while (ncap < s->len + need) ncap *= 2;
    nb = realloc(s->buf, ncap);
    RW_RETURN_IF(!nb, RW_ENOMEM, "stream buffer %zu", ncap);
    s->buf = nb;
    s->cap = ncap;
  }
  u8 *p = s->buf + s->len;
  wr_le16(p, type);
  wr_le32(p + 2, (u32)len);
  wr_le64(p + 6, w->next_seq);
  w->open = s;
  w->open_len = need;
  *payload = p + TRACE__REC_HDR;
  return 0;
}

int trace_writer_commit(trace_writer *w, u64 *seq) {
  if (w->divert) return trace_writer_commit(w->divert, seq);
  struct trace__wstream *s = w->open;
  RW_RETURN_IF(!s, RW_EINVAL, "no reserved record");
  w->open = NULL;
  s->len += w->open_len;
  if (!s->count) s->seq_first = w->next_seq;
  s->seq_last = w->next_seq;
  s->count++;
  s->nrecords++;
  if (seq) *seq = w->next_seq;
  w->next_seq++;
  w->nrecords++;
  return 0;
}

int trace_writer_append(trace_writer *w, u32 tid, u16 type, const void *data,
                        size_t len, u64 *seq) {
  u8 *p;
  RW_RETURN_IF(len && !data, RW_EINVAL, "type %u len %zu", type, len);
  RW_FORWARD(trace_writer_reserve(w, tid, type, len, &p));
  if (len) memcpy(p, data, len);
  return trace_writer_commit(w, seq);
}

u64 trace_writer_next_seq(const trace_writer *w) { return w->next_seq; }

int trace_writer_divert(trace_writer *w, trace_writer *to) {
  RW_RETURN_IF(w->open || to == w, RW_EINVAL, "divert");
  w->divert = to;
  return 0;
}

u64 trace_writer_caller_chunks(const trace_writer *w) {
  return w->caller_chunks;
}

u64 trace_writer_size(const trace_writer *w) {
  return __atomic_load_n(&w->off, __ATOMIC_RELAXED);
}

int trace_writer_flush(trace_writer *w) {
  RW_RETURN_IF(w->err, w->err, "earlier error");
  for (size_t i = 0; i < w->nstreams; i++)
    RW_FORWARD(stream_flush(w, w->streams[i]));
  return trace__w_meta_flush(w);
}

int trace_writer_sync(trace_writer *w) {
  RW_FORWARD(trace_writer_flush(w));
  return trace__w_sync(w);
}

int trace_writer_add_keyframe(trace_writer *w, u16 kind, u64 seq,
                              const void *data, size_t len) {
  struct trace__chunk c = {0};
  RW_RETURN_IF(w->err, w->err, "earlier error");
  RW_RETURN_IF(len > TRACE__MAX_CHUNK_RAW || (len && !data), RW_EINVAL,
               "keyframe of %zu bytes", len);
  RW_FORWARD(trace__w_meta_flush(w));
  c.type = TRACE_CHUNK_KEYFRAME;
  c.kind = kind;
  c.seq_first = c.seq_last = seq;
  c.raw_len = (u32)len;
  return trace__w_chunk(w, &c, data);
}

int trace_writer_close(trace_writer *w) {
  int rc;
  if (!w) return 0;
  rc = w->err;
  if (!rc && w->next_seq > 1) {
    /* So that a reader can tell records lost from the end of a closed
     * trace (there is no gap to see). */
    char n[24];
    snprintf(n, sizeof n, "%llu", (unsigned long long)(w->next_seq - 1));
    rc = trace_writer_set_meta(w, TRACE_META_RECORDS, n, strlen(n));
  }
  if (!rc) rc = trace_writer_flush(w);
  int src = bg_stop(w);
  if (!rc) rc = src;
  if (!rc) rc = trace__w_index(w);
  if (close(w->fd) < 0 && !rc) rc = RW_ERR(errno);
  for (size_t i = 0; i < w->nstreams; i++) {
    free(w->streams[i]->buf);
    free(w->streams[i]);
  }
  free(w->streams);
  free(w->htab);
  trace__w_free_blobs(w);
  trace__w_free_meta(w);
  free(w->chunks);
  free(w->cbuf);
  free(w->rawbuf);
  free(w->ccbuf);
  ZSTD_freeCCtx(w->cctx);
  ZSTD_freeCCtx(w->cctx_caller);
  free(w);
  return rc;
}
