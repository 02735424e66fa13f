/* SPDX-License-Identifier: MIT */
/* Private declarations shared by the files of format/: the on-disk constants
 * and codecs of man/rewind-trace.5, the reader's in-memory tables, and the
 * helpers that load and check one chunk. Nothing outside format/ (except its
 * tests) includes this header. */
#ifndef RW_FORMAT_FORMAT_INT_H
#define RW_FORMAT_FORMAT_INT_H

#include <zstd.h>

#include "common/endian.h"
#include "format/format.h"

/* ---------------------------------------------------------- file layout */

/* File header: 64 bytes at offset 0 (rewind-trace(5), "File header"). */
#define TRACE__MAGIC "\x89RWD\r\n\x1a\n" /* 8 bytes, offset 0 */
#define TRACE__MAGIC_LEN 8
#define TRACE__HDR_SIZE 64     /* header length this build writes */
#define TRACE__HDR_MAX 4096    /* longest header a reader accepts */
#define TRACE__ARCH_X86_64 62  /* ELF e_machine EM_X86_64 */

/* Chunk header: 48 bytes before every chunk's payload. */
#define TRACE__CHUNK_MAGIC 0x4b435752u /* "RWCK" as a LE u32 */
#define TRACE__CHUNK_HDR 48

/* Record header inside a RECORDS payload: u16 type, u32 len, u64 seq. */
#define TRACE__REC_HDR 14

/* Trailer: the last 32 bytes of a closed trace. */
#define TRACE__TRAILER_MAGIC "RWDINDEX" /* 8 bytes */
#define TRACE__TRAILER_SIZE 32

/* BLOB payload prefix: hash[32], u16 name_len, then the name, then data. */
#define TRACE__BLOB_PREFIX 34

/* Bounds every reader allocation; the writer never produces more. */
#define TRACE__MAX_CHUNK_RAW (64u << 20)   /* raw payload of any chunk */
#define TRACE__BLOB_PIECE (4u << 20)       /* blob bytes per BLOB chunk */
#define TRACE__MAX_NAME 4096               /* blob name bytes */
#define TRACE__MAX_KEY 255                 /* metadata key bytes */
#define TRACE__DEFAULT_CHUNK (1u << 20)    /* default chunk_bytes */
#define TRACE__MAX_CHUNK_BYTES (32u << 20) /* largest chunk_bytes option */
#define TRACE__DEFAULT_LEVEL 1             /* default zstd level */

/* Index payload: a 16-byte head, then the tables (rewind-trace(5)). */
#define TRACE__INDEX_HEAD 16
#define TRACE__INDEX_CHUNK_ENTRY 44
#define TRACE__INDEX_BLOB_FIXED 50 /* before the name */

/* The decoded chunk header. Its fields mean different things per type; see
 * the table in rewind-trace(5). Plain data. */
struct trace__chunk {
  u64 offset;      /* file offset of the chunk header (not on disk here) */
  u16 type;        /* enum trace_chunk_type */
  u16 kind;        /* KEYFRAME: its kind; else 0 */
  u32 tid;         /* RECORDS: the stream; else 0 */
  u32 count;       /* RECORDS: records; META: entries; BLOB: name length */
  u64 seq_first;   /* RECORDS: first seq; KEYFRAME: seq; BLOB: piece offset */
  u64 seq_last;    /* RECORDS: last seq; KEYFRAME: seq; BLOB: blob size */
  u32 comp_len;    /* zstd payload bytes following the header */
  u32 raw_len;     /* payload bytes once decompressed */
  u32 payload_crc; /* CRC-32C of the compressed payload */
};

/* Writes the 48-byte header of C (borrowed) to DST, with its checksum. */
void trace__chunk_encode(const struct trace__chunk *c, u8 *dst);

/* Decodes the chunk header at SRC (TRACE__CHUNK_HDR bytes available) found at
 * file offset OFF into C, checking its magic, checksum and that its lengths
 * and ranges are possible (not that the payload is there). Returns 0 or
 * RW_ECORRUPT with DIAG (may be NULL) saying what is wrong. */
int trace__chunk_decode(struct trace__chunk *c, const u8 *src, u64 off,
                        struct rw_diag *diag) RW_MUST_CHECK;

/* Checks that the fields of C (from a chunk header or an index entry) are
 * possible for its type: lengths within the limits, ranges ordered, counts
 * that fit in raw_len. Returns 0 or RW_ECORRUPT with DIAG. */
int trace__chunk_sane(const struct trace__chunk *c, struct rw_diag *diag)
    RW_MUST_CHECK;

/* Checks the payload of C (decoded, at BASE + C->offset; the caller has
 * checked that it lies inside the file): its CRC-32C. Returns 0 or
 * RW_ECORRUPT with DIAG. */
int trace__payload_check(const struct trace__chunk *c, const u8 *base,
                         struct rw_diag *diag) RW_MUST_CHECK;

/* Decompresses the first WANT bytes of C's payload, at SRC (C->comp_len
 * bytes), into DST, after checking that its zstd frame declares raw_len.
 * Returns 0 or RW_ECORRUPT with DIAG (may be NULL). */
int trace__payload_prefix(ZSTD_DCtx *dctx, const struct trace__chunk *c,
                          const u8 *src, u8 *dst, size_t want,
                          struct rw_diag *diag) RW_MUST_CHECK;

/* Decompresses the payload of C (at BASE + C->offset + header) into DST,
 * which holds C->raw_len bytes, after checking that it is exactly one zstd
 * frame whose declared content size is raw_len. Returns 0 or RW_ECORRUPT
 * with DIAG. */
int trace__payload_decompress(ZSTD_DCtx *dctx, const struct trace__chunk *c,
                              const u8 *base, u8 *dst,
                              struct rw_diag *diag) RW_MUST_CHECK;

/* Grows the buffer *BUF (capacity *CAP) to hold at least N bytes; the old
 * contents are not kept. Returns 0 or RW_ENOMEM. */
int trace__reserve(u8 **buf, size_t *cap, size_t n) RW_MUST_CHECK;

/* Encodes the 64-byte file header into DST. */
void trace__header_encode(u8 *dst, u64 created_ns, u32 page_size);

/* Encodes the trailer pointing at the index chunk at INDEX_OFF whose header
 * and payload take INDEX_LEN bytes. */
void trace__trailer_encode(u8 *dst, u64 index_off, u64 index_len);

/* --------------------------------------------------------- reader state */

/* One stream: the RECORDS chunks of one thread, in sequence order. */
struct trace__stream {
  u32 tid;       /* thread id */
  u32 n;         /* chunks */
  u32 *chunks;   /* indices into trace_reader.chunks, seq order */
  u64 nrecords;  /* records over all its chunks */
};

/* One blob: its pieces are consecutive BLOB chunks, in increasing piece
 * offset, covering the content exactly. */
struct trace__blob {
  u8 hash[32];
  u64 size;
  char *name;   /* owned, NUL-terminated */
  u32 first;    /* index of the first piece in trace_reader.chunks */
  u32 npieces;
  int checked;  /* 0: content not hashed yet; 1: it matches the hash; a
                   negative code: it does not (blob.c) */
};

/* One metadata entry. KEY owns one allocation holding the key, a NUL, the
 * value and another NUL; VAL points into it. */
struct trace__meta {
  char *key;
  const u8 *val;
  u32 len;
  u64 order;  /* when it was set: a later value of a key wins */
  u64 where;  /* file offset of the chunk it came from (META checks) */
};

/* A stretch of sequence numbers that RECORDS chunks with overlapping or
 * touching ranges cover together (index.c, seq_coverage). */
struct trace__group {
  u64 lo, hi;  /* the range */
  u64 count;   /* records the chunks hold: hi - lo + 1 when none is lost */
  u64 offset;  /* file offset of the chunk that starts the group */
};

/* One damaged place the reader met, for `rewind info --check`. */
#define TRACE__MAX_DAMAGES 64
struct trace__damage_rec {
  u64 offset;
  int torn; /* the last chunk, cut short by the end of the file */
  char msg[160];
};

struct trace_reader {
  const u8 *base;   /* the whole file, mapped or borrowed */
  u64 size;         /* its length */
  int mapped;       /* 1: base is an mmap to unmap at close */
  u16 vmaj, vmin;   /* header version */
  u32 hdr_len;      /* header length */
  u32 page_size;    /* recording machine's page size */
  u64 created_ns;   /* header creation time */

  struct trace__chunk *chunks; /* every valid chunk, in file order */
  size_t nchunks, chunks_cap;
  struct trace__stream *streams; /* sorted by tid */
  size_t nstreams;
  u32 *stream_chunks; /* storage behind every stream's chunks array */
  struct trace__blob *blobs; /* sorted by hash once the tables are built */
  size_t nblobs, blobs_cap;
  u32 *keyframes;  /* KEYFRAME chunk indices, sorted by seq */
  size_t nkeyframes;
  struct trace__meta *meta; /* sorted by key once the tables are built */
  size_t nmeta, meta_cap;

  int complete, rebuilt, damaged; /* see struct trace_info */
  int fd;          /* the mapped file, for finding its holes; -1 for a
                      caller's buffer */
  int has_trailer; /* the file ends in a trailer, valid or not: the writer
                      closed it */
  u64 damage_offset;
  char damage[160];
  struct trace__group *groups; /* in increasing order */
  size_t ngroups;
  u64 ndamaged; /* damaged regions met while scanning */
  struct trace__damage_rec damages[TRACE__MAX_DAMAGES]; /* the first ones */
  size_t ndamages;
  int torn;     /* 1: one of them is the last chunk, cut short by the end
                   of the file (the writer died while writing it) */

  ZSTD_DCtx *dctx; /* for blob and keyframe reads */
  u8 *cache;       /* the last chunk payload read for them */
  size_t cache_cap;
  i64 cache_chunk; /* its index, or -1 */
  int defer_hash;  /* 1: reads do not hash blobs (trace_reader_defer_hash) */
};

/* Parses the index chunk C (already checked against the file) into R's
 * tables. Returns 0, or a negative code with DIAG; on failure R's tables are
 * left empty for a rebuild. (index.c) */
int trace__index_load(trace_reader *r, const struct trace__chunk *c,
                      struct rw_diag *diag) RW_MUST_CHECK;

/* Rebuilds R's tables by scanning every chunk after the header, recording
 * the first damage in R. Returns 0 or RW_ENOMEM. (scan.c) */
int trace__scan(trace_reader *r) RW_MUST_CHECK;

/* Builds the derived tables from R->chunks, R->blobs and R->meta: streams
 * (checking that each stream's chunks have increasing, disjoint seq ranges),
 * keyframes, blobs sorted by hash, metadata sorted by key with the latest
 * value of each key. STRICT (a written index): any inconsistency fails with
 * RW_ECORRUPT and DIAG. Otherwise (a scan) offending chunks and duplicate
 * blobs are left out and reported as damage. Returns 0 or a negative code.
 * (index.c) */
int trace__build_tables(trace_reader *r, int strict, struct rw_diag *diag)
    RW_MUST_CHECK;

/* Records damage at OFF described by MSG in R: the earliest damage is the one
 * reported in trace_info; each call counts one damaged region. (reader.c) */
void trace__damage(trace_reader *r, u64 off, const char *msg);

/* Whether missing records can be the buffers of a recorder that died rather
 * than lost chunks. Each thread's records are written a chunk at a time, so
 * a recorder killed with records of a thread still buffered leaves a gap
 * anywhere after that thread's last chunk, and a thread that had written no
 * chunk yet leaves no trace of itself at all: in a trace that was never
 * closed (UNCLOSED: no index) and not damaged but at its torn end, every
 * gap may be that. A closed trace has everything; there a gap is damage. */
int trace__gap_is_cut(const trace_reader *r, int unclosed);

/* Points OUT[0..] (CAP entries) at the hash fields of REC's payload, as
 * records.def describes them; returns how many (describe.c). */
size_t trace__record_hashes(const struct trace_record *rec, const u8 **out,
                            size_t cap);

/* The group whose range holds SEQ, or NULL. */
const struct trace__group *trace__group_find(const trace_reader *r, u64 seq);

/* Frees R's tables and empties them. (index.c) */
void trace__free_tables(trace_reader *r);

/* Appends chunk C to R->chunks. Returns 0 or RW_ENOMEM. (index.c) */
int trace__add_chunk(trace_reader *r, const struct trace__chunk *c)
    RW_MUST_CHECK;

/* Appends a blob made of the NPIECES chunks from FIRST, named by NLEN bytes
 * at NAME, to R. Returns 0 or RW_ENOMEM. (index.c) */
int trace__add_blob(trace_reader *r, const u8 hash[32], u64 size,
                    const u8 *name, size_t nlen, u32 first, u32 npieces)
    RW_MUST_CHECK;

/* Sets metadata KEY (KLEN bytes) to VLEN bytes at VAL in R; a later call
 * for the same key wins once trace__build_tables has run. Returns 0 or
 * RW_ENOMEM. (index.c) */
int trace__set_meta(trace_reader *r, const u8 *key, size_t klen,
                    const u8 *val, size_t vlen) RW_MUST_CHECK;

/* Parses a META payload (RAW, LEN bytes, COUNT entries) of the chunk at
 * OFFSET into R. Returns 0, RW_ENOMEM, or RW_ECORRUPT with DIAG. (index.c) */
int trace__meta_parse(trace_reader *r, const u8 *raw, size_t len, u32 count,
                      u64 offset, struct rw_diag *diag) RW_MUST_CHECK;

/* The stream of thread TID in R, or NULL. (reader.c) */
const struct trace__stream *trace__stream_find(const trace_reader *r,
                                               u32 tid);

/* The position in S of the first chunk whose seq_last >= SEQ (S->n when
 * none), by binary search. (reader.c) */
u32 trace__stream_lower(const trace_reader *r, const struct trace__stream *s,
                        u64 seq);

/* Loads chunk IDX of R into *BUF (capacity *CAP, grown as needed) using
 * DCTX: checks that the header in the file matches the index entry, checks
 * the payload checksum and decompresses it. Returns 0 or a negative code
 * with DIAG naming the chunk offset. (chunk.c) */
int trace__chunk_load(const trace_reader *r, size_t idx, ZSTD_DCtx *dctx,
                      u8 **buf, size_t *cap, struct rw_diag *diag)
    RW_MUST_CHECK;

/* Checks the records of a decompressed RECORDS payload RAW of chunk C: each
 * header fits, seqs strictly increase from seq_first to seq_last and the
 * count matches. Returns 0 or RW_ECORRUPT with DIAG. (chunk.c) */
int trace__records_check(const struct trace__chunk *c, const u8 *raw,
                         struct rw_diag *diag) RW_MUST_CHECK;

/* Counts the records of R by type (COUNTS has TRACE_REC_MAX_KNOWN slots,
 * *UNKNOWN the rest) with a pass over every record. Unreadable chunks are
 * noted on OUT (may be NULL) and the first goes to DIAG (may be NULL).
 * Returns 0, or 1 when some records could not be read (format/report.c). */
int trace__count_records(FILE *out, trace_reader *r, u64 *counts,
                         u64 *unknown, struct rw_diag *diag);

/* Prints the N bytes at S (borrowed) to OUT as a JSON string: quoted,
 * escaped, valid UTF-8 kept, other bytes as U+FFFD (format/describe.c). */
void trace__json_str(FILE *out, const void *s, size_t n);

/* The sequence number the trace's records begin at: 1, or its metadata
 * TRACE_META_FIRST_SEQ (format/index.c). */
u64 trace__first_seq(const trace_reader *r);

#endif /* RW_FORMAT_FORMAT_INT_H */
