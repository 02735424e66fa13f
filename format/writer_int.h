/* SPDX-License-Identifier: MIT */
/* The trace writer's state, shared by writer.c (streams and chunks),
 * wblob.c (content-addressed blobs), wmeta.c (metadata) and windex.c (the
 * footer index). Only those files include it. */
#ifndef RW_FORMAT_WRITER_INT_H
#define RW_FORMAT_WRITER_INT_H

#include <pthread.h>

#include "format/format_int.h"

/* One thread's buffered records, not yet written. */
struct trace__wstream {
  u32 tid;
  u8 *buf;        /* encoded records (header + payload each) */
  size_t len, cap;
  u32 count;      /* records in buf */
  u64 seq_first;  /* of the first record in buf */
  u64 seq_last;   /* of the last record in buf */
  u64 nrecords;   /* records ever appended to this stream */
};

/* One stored blob, for deduplication and the index. */
struct trace__wblob {
  u8 hash[32];
  u64 size;
  char *name;       /* owned */
  u32 first_chunk;  /* its first piece in trace_writer.chunks */
  u32 npieces;
};

/* The latest value of one metadata key. */
struct trace__wmeta {
  char *key;  /* owned */
  u8 *val;    /* owned */
  u32 len;
  int dirty;  /* not yet written in a META chunk */
};

/* A chunk handed to the background thread (opts.background): its table
 * entry so far and its raw payload, which the job owns. */
struct trace__wjob {
  struct trace__chunk c;
  u8 *raw;     /* or, with pre, the compressed payload (c.comp_len bytes) */
  size_t cap;
  int pre;     /* compressed already: written as it is */
};

/* Jobs that may wait for the background thread before the producer waits:
 * this many raw chunks of memory, at most, besides those being filled. */
#define TRACE__WQ 4

struct trace_writer {
  struct trace_writer_opts opts; /* with defaults filled in */
  int fd;
  u64 off;        /* bytes written so far */
  int err;        /* first write error; sticky */
  u64 next_seq;   /* the next record's sequence number */
  u64 nrecords;   /* records appended */
  u64 raw_total;  /* raw payload bytes written */
  u64 created_ns; /* in the header */
  ZSTD_CCtx *cctx;
  u8 *cbuf;       /* chunk header + compressed payload */
  size_t cbuf_cap;
  u8 *rawbuf;     /* scratch for assembling blob, meta and index payloads */
  size_t rawbuf_cap;

  struct trace__wstream **streams; /* in creation order */
  size_t nstreams;
  u32 *htab;      /* tid hash table: index + 1 into streams, 0 empty */
  size_t hcap;
  struct trace__wstream *last; /* the stream used last */
  struct trace__wstream *open; /* holds a reserved record, until commit */
  size_t open_len;             /* its bytes, header included */
  trace_writer *divert;        /* records go there instead (borrowed) */

  struct trace__chunk *chunks; /* every chunk written but the index */
  size_t nchunks, chunks_cap;
  size_t nqueued;  /* chunks handed out for the table, written or not */

  /* The background thread (opts.background), started at the first chunk.
   * It alone touches fd, off, cctx, cbuf, chunks and raw_total until
   * trace__w_sync() has returned; the queue and bg_err are under mu. */
  int bg;                  /* 1 while the thread runs */
  pthread_t thr;
  pthread_mutex_t mu;
  pthread_cond_t cv_job;   /* a job was queued, or quit was set */
  pthread_cond_t cv_done;  /* a job was finished */
  struct trace__wjob q[TRACE__WQ];
  unsigned qhead, qn;      /* queued jobs, the first at q[qhead] */
  int busy;                /* the thread holds a job it took off q */
  int quit;
  int bg_err;              /* the thread's first error */
  struct trace__wjob spare[TRACE__WQ + 1]; /* raw buffers to reuse */
  unsigned nspare;
  ZSTD_CCtx *cctx_caller;  /* the caller's own, for a chunk it compresses
                              while the thread is behind; lazily made */
  u8 *ccbuf;               /* its output */
  size_t ccbuf_cap;
  u64 caller_chunks;       /* chunks the caller compressed (tests, bench) */

  struct trace__wblob *blobs;  /* in insertion order */
  size_t nblobs, blobs_cap;
  u32 *btab;      /* hash table by blob hash: index + 1 into blobs */
  size_t btab_cap;

  struct trace__wmeta *meta;   /* in insertion order */
  size_t nmeta, meta_cap;
  int meta_dirty;
};

/* Compresses RAW (C->raw_len bytes), fills C's offset, lengths and checksum,
 * writes header and payload in one write and records C in the chunk table
 * (unless it is the index). Calls on_chunk. Returns 0 or a negative code,
 * which also becomes the writer's sticky error. (writer.c) */
int trace__w_chunk(trace_writer *w, struct trace__chunk *c, const u8 *raw)
    RW_MUST_CHECK;

/* Like trace__w_chunk, for a payload compressed already: C has its
 * comp_len and payload_crc, COMP its C->comp_len bytes (borrowed). */
int trace__w_chunk_pre(trace_writer *w, struct trace__chunk *c,
                       const u8 *comp) RW_MUST_CHECK;

/* Like trace__w_chunk, but takes the raw payload's buffer *RAW (of *CAP
 * bytes, from malloc) instead of copying it, and leaves in its place a
 * buffer to reuse, or NULL with *CAP 0. (writer.c) */
int trace__w_chunk_take(trace_writer *w, struct trace__chunk *c, u8 **raw,
                        size_t *cap) RW_MUST_CHECK;

/* Waits until the background thread has written every chunk handed to it
 * (at once without one), and makes its first error the writer's. Returns
 * 0 or that error. (writer.c) */
int trace__w_sync(trace_writer *w) RW_MUST_CHECK;

/* Writes N bytes at P at the end of the file and advances the offset.
 * Returns 0 or a negative errno code, which also becomes the writer's sticky
 * error. (writer.c) */
int trace__w_write(trace_writer *w, const u8 *p, size_t n) RW_MUST_CHECK;

/* Writes pending metadata as META chunks. Returns 0 or a negative code.
 * (wmeta.c) */
int trace__w_meta_flush(trace_writer *w) RW_MUST_CHECK;

/* Writes the INDEX chunk and the trailer. Returns 0 or a negative code.
 * (windex.c) */
int trace__w_index(trace_writer *w) RW_MUST_CHECK;

/* Free the blob and metadata tables. (wblob.c, wmeta.c) */
void trace__w_free_blobs(trace_writer *w);
void trace__w_free_meta(trace_writer *w);

#endif /* RW_FORMAT_WRITER_INT_H */
