/* SPDX-License-Identifier: MIT */
/* The rewind trace file: writing and reading (DESIGN.md section 6, format in
 * man/rewind-trace.5). A trace is a header, then self-delimiting zstd chunks
 * (per-thread record streams, blobs, keyframes, metadata), then a footer index
 * found through a fixed-size trailer. This header (with format/records.h,
 * which it includes) is the only one other components include from format/.
 * It knows nothing of what records mean; record types and their layouts are
 * listed in format/records.def. */
#ifndef RW_FORMAT_FORMAT_H
#define RW_FORMAT_FORMAT_H

#include <stdio.h>
#include <sys/types.h>

#include "common/rw.h"

typedef struct trace_writer trace_writer;
typedef struct trace_reader trace_reader;
typedef struct trace_cursor trace_cursor;

/* Format version written by this build; readers refuse another major.
 * Minor 1: OUTPUT and END records (a 1.0 trace has neither, so its end is
 * the EXIT that ends the process). */
#define TRACE_VERSION_MAJOR 1
#define TRACE_VERSION_MINOR 19

/* Largest payload of one record; larger data must be split by the caller. */
#define TRACE_MAX_RECORD (16u << 20)

/* The stream id of records that belong to no thread (process-wide events). */
#define TRACE_TID_GLOBAL 0u
/* Passed to trace_cursor_open() to iterate every stream in sequence order. */
#define TRACE_ALL_THREADS 0xffffffffu

enum trace_record_type {
#define TRACE_REC(id, NAME, name, fields, doc) TRACE_REC_##NAME = (id),
#include "records.def"
#undef TRACE_REC
  TRACE_REC_MAX_KNOWN
};

enum trace_chunk_type {
#define TRACE_CHUNK(id, name, doc) TRACE_CHUNK_##name = (id),
#include "chunks.def"
#undef TRACE_CHUNK
};

/* Standard metadata keys (trace_writer_set_meta). Values are UTF-8 text
 * unless noted; man/rewind-trace.5 documents each. */
#define TRACE_META_VERSION "rewind_version" /* rewind's version */
#define TRACE_META_CMDLINE "cmdline"        /* argv, joined by NUL bytes */
#define TRACE_META_ENVIRON "environ"        /* environment, NUL-joined */
#define TRACE_META_CWD "cwd"                /* working directory */
#define TRACE_META_HOSTNAME "hostname"      /* recording machine */
#define TRACE_META_KERNEL "kernel"          /* uname: sysname release machine */
#define TRACE_META_CPU "cpu"                /* CPU model name */
#define TRACE_META_CPU_PINNED "cpu_pinned"  /* CPU number the tracee ran on */
#define TRACE_META_CPUID "cpuid" /* binary: n * 24 bytes, LE u32 leaf,
                                    subleaf, eax, ebx, ecx, edx */
#define TRACE_META_TUNABLES "glibc_tunables" /* GLIBC_TUNABLES applied */
#define TRACE_META_START "start_ns" /* wall-clock start, decimal ns */
#define TRACE_META_END "end_ns"     /* wall-clock end, decimal ns */
#define TRACE_META_EXIT "exit"      /* "exit N" or "signal N" */
#define TRACE_META_STOPPED "stopped" /* why the recorder stopped early */
#define TRACE_META_DIGEST "digest" /* the kind of the memory digests in
                                       PREEMPT and END: "lanes" (since
                                       format 1.10; absent: "chain",
                                       common/digest.h) */
#define TRACE_META_SBLIB "sblib_elf" /* binary: the syscall buffer's
                                        library (recorder/sblib.c) as an
                                        ELF file with its symbols and
                                        unwind tables, for gdb */
#define TRACE_META_TRIM "trimmed_from" /* "FROM TO PATH": this trace is
                                          the window [FROM, TO) of the
                                          instructions of PATH's history
                                          (rewind trim) */
#define TRACE_META_FIRST_SEQ "first_seq" /* the first record's sequence
                                           number, decimal, when not 1: a
                                           trace that goes on from another
                                           (a ring recording's segments) */
#define TRACE_META_RECORDS "records" /* records in the trace, decimal;
                                        written by trace_writer_close */

/* ------------------------------------------------------------------ writer */

/* Options for trace_writer_open(). Zero means the default. Plain data. */
struct trace_writer_opts {
  int level;          /* zstd level; 0: the default level */
  size_t chunk_bytes; /* raw bytes buffered per stream before a flush */
  int overwrite;      /* 1: replace an existing file; 0: fail with -EEXIST */
  /* 1: compress and write chunks on a thread of the writer's own, so that
   * the caller goes on while they are compressed (the recorder). The file
   * is byte for byte the same; a write error shows at a later call. */
  int background;
  /* With background: the CPUs the thread may run on, bit N for CPU N (the
   * recorder keeps its own CPU for the program); 0: those of the caller. */
  u64 background_cpus;
  /* With background: 1 makes the caller compress every chunk itself and
   * leave the thread only the writing (tests); 0: the caller compresses a
   * chunk only when the thread is behind (its queue is full), instead of
   * waiting idle, so that two CPUs compress. The file is the same. */
  int caller_compresses;
  /* Called after each chunk is completely written (and so will survive a
   * crash of the writer), with the chunk's file offset; on the writer's
   * own thread with background. May be NULL. */
  void (*on_chunk)(void *arg, u64 offset, u16 type, u32 tid, u64 seq_first,
                   u64 seq_last);
  void *arg; /* passed to on_chunk, borrowed */
  /* The first record's sequence number (0: 1): a trace that goes on from
   * another one, a segment of a ring recording. */
  u64 first_seq;
};

/* Creates the trace file PATH (borrowed) and writes its header. OPTS may be
 * NULL. On success *OUT owns the writer; release it with trace_writer_close().
 * Returns 0, -EEXIST when the file exists and !overwrite, or another negative
 * code (errno of open/write). */
int trace_writer_open(trace_writer **out, const char *path,
                      const struct trace_writer_opts *opts) RW_MUST_CHECK;

/* Sets metadata KEY (borrowed, NUL-terminated) to LEN bytes at VAL (copied).
 * Metadata is written as META chunks at the next flush; a later value of the
 * same key replaces an earlier one for readers. Returns 0 or a negative
 * code. */
int trace_writer_set_meta(trace_writer *w, const char *key, const void *val,
                          size_t len) RW_MUST_CHECK;

/* Appends a record of TYPE with LEN payload bytes at DATA (copied) to the
 * stream of thread TID, assigning it the next global sequence number (written
 * to *SEQ when SEQ is not NULL). Sequence numbers start at 1 and strictly
 * increase across all streams. The stream's buffer becomes a chunk when it
 * holds chunk_bytes. Returns 0, RW_EINVAL (type 0, len > TRACE_MAX_RECORD), or
 * a write error. */
int trace_writer_append(trace_writer *w, u32 tid, u16 type, const void *data,
                        size_t len, u64 *seq) RW_MUST_CHECK;

/* trace_writer_append in two steps, for payloads encoded in place (the
 * typed records of records.h): reserve makes room for a LEN-byte payload
 * of TYPE in TID's stream and points *PAYLOAD at it; commit, the next call
 * on W, makes it the record with the next sequence number. Errors as for
 * append. */
int trace_writer_reserve(trace_writer *w, u32 tid, u16 type, size_t len,
                         u8 **payload) RW_MUST_CHECK;
int trace_writer_commit(trace_writer *w, u64 *seq) RW_MUST_CHECK;

/* The sequence number the next appended record will get. */
u64 trace_writer_next_seq(const trace_writer *w);

/* From now on the records appended to W (append, reserve and commit) go
 * to TO (borrowed), with TO's sequence numbers, until this is called with
 * TO NULL; blobs, keyframes and metadata stay W's. How the recorder writes
 * the records of a keyframe's state (TRACE_KF_RECORDER) into a trace of
 * their own while blobs they name land in the trace. Returns 0, or
 * RW_EINVAL while a record is reserved. */
int trace_writer_divert(trace_writer *w, trace_writer *to) RW_MUST_CHECK;

/* Sets on DST every metadata key SRC holds (but TRACE_META_RECORDS and
 * TRACE_META_FIRST_SEQ, DST's own), as
 * SRC has it: the next segment of a ring recording. Returns 0 or a
 * negative code. */
int trace_writer_copy_meta(trace_writer *dst, const trace_writer *src)
    RW_MUST_CHECK;

/* Adds LEN bytes at DATA (borrowed) as a content-addressed blob named NAME
 * (borrowed, for humans: a path). The same bytes added again are stored once.
 * Writes the blob's SHA-256 to HASH (caller-owned, 32 bytes). Returns 0 or a
 * negative code. */
int trace_writer_add_blob(trace_writer *w, const char *name, const void *data,
                          size_t len, u8 hash[32]) RW_MUST_CHECK;

/* Adds a blob from IMG (LEN bytes, borrowed): its chunks as a trace holds
 * them, headers included (trace_reader_blob_image), for rewind's blob
 * cache. Every piece is checked first (checksums, one blob, pieces in
 * order) and then written as it is, not compressed again. Writes the
 * blob's SHA-256 to HASH and its size to *SIZE (may be NULL). Returns 0,
 * RW_ECORRUPT for an image that does not check (nothing is written), or
 * another negative code. */
int trace_writer_add_blob_image(trace_writer *w, const u8 *img, size_t len,
                                u8 hash[32], u64 *size) RW_MUST_CHECK;

/* Adds a keyframe of KIND (meaning defined by its producer) valid at sequence
 * number SEQ, with LEN bytes at DATA (borrowed). Returns 0 or a negative
 * code. */
int trace_writer_add_keyframe(trace_writer *w, u16 kind, u64 seq,
                              const void *data, size_t len) RW_MUST_CHECK;

/* Writes every buffered stream and pending metadata as chunks. */
int trace_writer_flush(trace_writer *w) RW_MUST_CHECK;
/* trace_writer_flush, and with background, waits until the thread has
 * written every chunk to the file (a crash of the writer keeps them). */
int trace_writer_sync(trace_writer *w) RW_MUST_CHECK;

/* Flushes, writes the footer index and the trailer, closes the file and frees
 * W. Accepts NULL. Returns 0 or the first error met (W is freed anyway). */
int trace_writer_close(trace_writer *w);

/* Bytes written to the file so far. */
u64 trace_writer_size(const trace_writer *w);
/* How many chunks the caller's thread compressed itself (with
 * background: caller_compresses, or the thread's queue full). */
u64 trace_writer_caller_chunks(const trace_writer *w);

/* ------------------------------------------------------------------ reader */

/* What trace_reader_get_info() reports. Plain data. */
struct trace_info {
  u16 version_major, version_minor; /* from the header */
  u64 file_size;                    /* bytes in the file */
  u64 created_ns;                   /* wall-clock time the writer started */
  u64 nchunks, nrecords_chunks;     /* all chunks; RECORDS chunks */
  u64 nblobs, nkeyframes;           /* distinct blobs; keyframes */
  u64 nthreads;                     /* thread streams with records (the
                                       TRACE_TID_GLOBAL one not counted) */
  u64 seq_first, seq_last;          /* range of record sequence numbers */
  u64 raw_bytes, comp_bytes;        /* chunk payloads, raw and compressed */
  int complete;      /* 1: trailer and index were present and valid */
  int rebuilt;       /* 1: the index was rebuilt by scanning the chunks */
  int damaged;       /* 1: scanning stopped at damage before the end */
  int torn;          /* 1: the only damage is the last chunk, cut short by
                        the end of the file (the writer died while writing
                        it): the trace is cut off, not damaged */
  u64 damage_offset; /* where the damage is, when damaged */
  char damage[160];  /* what was wrong there, when damaged */
};

/* Opens the trace PATH (borrowed). Validates the header and trailer; when the
 * trailer or index is missing or damaged, rebuilds the index by scanning the
 * chunks, keeps every valid chunk before the first damage, and reports it in
 * trace_info. Returns 0 with *OUT owning the reader, or a negative code with
 * DIAG (may be NULL) naming the offset: RW_EVERSION (unknown major),
 * RW_ECORRUPT / RW_ETRUNC (bad or short header), or an errno. */
int trace_reader_open(trace_reader **out, const char *path,
                      struct rw_diag *diag) RW_MUST_CHECK;

/* Like trace_reader_open(), over the LEN bytes at DATA (borrowed: they must
 * stay valid and unchanged until trace_reader_close). Used by the fuzz
 * targets and by tests that damage traces in memory. */
int trace_reader_open_mem(trace_reader **out, const void *data, size_t len,
                          struct rw_diag *diag) RW_MUST_CHECK;

/* Frees R and everything borrowed from it. Accepts NULL. */
void trace_reader_close(trace_reader *r);

/* Fills INFO (caller-owned) with what is known about the trace. */
void trace_reader_get_info(const trace_reader *r, struct trace_info *info);

/* How many damaged regions the scan that rebuilt the index met (0 when the
 * index was intact); trace_info describes the first of them. */
u64 trace_reader_ndamaged(const trace_reader *r);

/* Records in the trace, from the index (no decompression). */
u64 trace_reader_nrecords(const trace_reader *r);

/* Finds metadata KEY (borrowed). On success *VAL points at *LEN bytes owned
 * by R (valid until trace_reader_close) and returns 0; RW_ENOTFOUND if the key
 * was never set. */
int trace_reader_meta(const trace_reader *r, const char *key, const void **val,
                      size_t *len) RW_MUST_CHECK;

/* Metadata entry I (0-based) in key order; returns RW_ENOTFOUND past the end.
 * *KEY and *VAL are owned by R. */
int trace_reader_meta_at(const trace_reader *r, size_t i, const char **key,
                         const void **val, size_t *len) RW_MUST_CHECK;

/* Writes up to CAP thread ids (streams with records, except the
 * TRACE_TID_GLOBAL one) in increasing order to TIDS (caller-owned, may be
 * NULL when CAP is 0). Returns how many exist. */
size_t trace_reader_threads(const trace_reader *r, u32 *tids, size_t cap);

/* One chunk's index entry. Plain data. */
struct trace_chunk_info {
  u64 offset;              /* file offset of the chunk header */
  u16 type;                /* enum trace_chunk_type */
  u32 tid;                 /* stream (RECORDS), else 0 */
  u64 seq_first, seq_last; /* record range (RECORDS), keyframe seq */
  u32 comp_len, raw_len;   /* payload sizes */
};

/* Number of chunks in the index. */
size_t trace_reader_nchunks(const trace_reader *r);
/* Index entry I. Returns 0 or RW_ENOTFOUND. */
int trace_reader_chunk(const trace_reader *r, size_t i,
                       struct trace_chunk_info *ci) RW_MUST_CHECK;
/* Finds, without decompressing anything (a binary search per stream), the
 * RECORDS chunk of thread TID whose range holds SEQ, or else the first one
 * after SEQ. With TRACE_ALL_THREADS: a chunk of any thread whose range holds
 * SEQ (ranges of different threads overlap), or else the earliest after it.
 * Returns 0 or RW_ENOTFOUND. */
int trace_reader_find_chunk(const trace_reader *r, u32 tid, u64 seq,
                            struct trace_chunk_info *ci) RW_MUST_CHECK;

/* One record as a cursor returns it. DATA is owned by the cursor and valid
 * until its next call. Plain data. */
struct trace_record {
  u64 seq;          /* global sequence number */
  u32 tid;          /* stream (thread id) */
  u16 type;         /* enum trace_record_type (may be unknown to this build) */
  u32 len;          /* payload bytes */
  const u8 *data;   /* payload */
  u64 chunk_offset; /* file offset of the chunk holding it */
};

/* Opens a cursor over thread TID's records, or all records in global sequence
 * order with TRACE_ALL_THREADS. *OUT is owned by the caller; it borrows R.
 * Returns 0, RW_ENOTFOUND (no such stream) or RW_ENOMEM. */
int trace_cursor_open(trace_cursor **out, trace_reader *r, u32 tid)
    RW_MUST_CHECK;
/* Positions C so that the next record returned is the first with seq >= SEQ.
 * Decompresses only the chunks it needs. Returns 0 or a negative code. */
int trace_cursor_seek(trace_cursor *c, u64 seq) RW_MUST_CHECK;
/* Returns 1 with *REC filled, 0 at the end, or a negative code with DIAG
 * (may be NULL) naming the chunk offset and what is wrong. */
int trace_cursor_next(trace_cursor *c, struct trace_record *rec,
                      struct rw_diag *diag) RW_MUST_CHECK;
/* Frees C. Accepts NULL. */
void trace_cursor_close(trace_cursor *c);

/* A blob's index entry. Plain data. */
struct trace_blob_info {
  u8 hash[32];      /* SHA-256 of the content */
  u64 size;         /* bytes of content */
  const char *name; /* the name it was first added under; owned by reader */
};

/* Number of distinct blobs. */
size_t trace_reader_nblobs(const trace_reader *r);
/* Blob entry I. Returns 0 or RW_ENOTFOUND. */
int trace_reader_blob_info(const trace_reader *r, size_t i,
                           struct trace_blob_info *bi) RW_MUST_CHECK;
/* Finds the blob with HASH (borrowed, 32 bytes). Returns 0 or RW_ENOTFOUND. */
int trace_reader_find_blob(const trace_reader *r, const u8 hash[32],
                           struct trace_blob_info *bi) RW_MUST_CHECK;
/* Checks that the content of blob I hashes to its name (done once; later
 * calls and reads answer from memory). Returns 0, RW_ENOTFOUND, or
 * RW_ECORRUPT (or another read error) with DIAG naming the blob. */
int trace_reader_blob_check(trace_reader *r, size_t i, struct rw_diag *diag)
    RW_MUST_CHECK;
/* ON: reads of blobs no longer hash them (each chunk's checksum is still
 * checked; trace_reader_blob_check still hashes, and a blob found not to
 * match is still refused), for a reader whose blobs another one hashes:
 * the pieces of a replay run in parallel (rewind replay --verify -j)
 * share the hashing out instead of each doing all of it. */
void trace_reader_defer_hash(trace_reader *r, int on);
/* Copies up to CAP bytes of blob HASH starting at byte OFF into DST
 * (caller-owned); the first read of a blob checks its hash. Returns the
 * number of bytes copied (0 at or past the end) or a negative code with
 * DIAG naming the damaged offset. */
i64 trace_reader_blob_read(trace_reader *r, const u8 hash[32], u64 off,
                           void *dst, size_t cap, struct rw_diag *diag)
    RW_MUST_CHECK;
/* The chunks of blob HASH as the file holds them, headers included, one
 * after another (for trace_writer_add_blob_image): *OUT (malloc'd, the
 * caller frees it) gets *LEN bytes. Returns 0, RW_ENOTFOUND or another
 * negative code. */
int trace_reader_blob_image(trace_reader *r, const u8 hash[32], u8 **out,
                            size_t *len) RW_MUST_CHECK;

/* The keyframes a recording holds (since format 1.15): kind
 * TRACE_KF_RECORDER is a full keyframe of the recorder (rewind record
 * --keyframes), valid at seq S: the state after every record before S.
 * Its TRACE_KF_RECORDER_SIZE bytes, little-endian: u32 version (1), u32
 * threads; u64 S; u64 the size of its state; the state's blob hash (32
 * bytes); u64 the recorder's clock (ns) when it was written. The state
 * is a trace of its own (a blob of this trace) holding only the records a
 * history begins with (EXEC, MAP, MEM, RESIZE, AUXV, and per thread
 * THREAD_START, XSTATE, PKRU, THREAD_NAME, then STACK_RULES), with its
 * own sequence numbers; the blobs they name are this trace's. */
#define TRACE_KF_RECORDER 3
#define TRACE_KF_RECORDER_SIZE 64

/* The state of keyframe I of R, a TRACE_KF_RECORDER one: its sequence
 * number in *SEQ, its bytes in *IMG (malloc'd, the caller frees) and
 * *LEN. Returns 0, or RW_ECORRUPT (an entry too short or of an unknown
 * version, a state the trace does not hold whole), RW_ENOMEM or a read
 * error, with DIAG (may be NULL) saying which. */
int trace_reader_recorder_state(trace_reader *r, size_t i, u64 *seq, u8 **img,
                                size_t *len, struct rw_diag *diag)
    RW_MUST_CHECK;

/* A keyframe's index entry. Plain data. */
struct trace_keyframe_info {
  u16 kind;     /* producer-defined */
  u64 seq;      /* sequence number it is valid at */
  u64 offset;   /* file offset of its chunk */
  u64 raw_len;  /* bytes of keyframe data */
};

/* Number of keyframes, in increasing seq order. */
size_t trace_reader_nkeyframes(const trace_reader *r);
/* Keyframe entry I. Returns 0 or RW_ENOTFOUND. */
int trace_reader_keyframe_info(const trace_reader *r, size_t i,
                               struct trace_keyframe_info *ki) RW_MUST_CHECK;
/* Copies up to CAP bytes of keyframe I into DST (caller-owned). Returns the
 * number of bytes copied or a negative code with DIAG. */
i64 trace_reader_keyframe_read(trace_reader *r, size_t i, void *dst,
                               size_t cap, struct rw_diag *diag) RW_MUST_CHECK;

/* Joins the traces PATHS[0..N) (borrowed; each one's records going on
 * where the one before it ends, as the segments of rewind record --ring
 * do) into the trace OUT: their records with their sequence numbers,
 * their keyframes, every blob once; the metadata of the first, with what
 * the last says of the end (exit, end_ns, stopped). A trace cut short
 * (the recorder was killed) gives what can be read of it and must be
 * the last. Returns 0, or a negative code with DIAG (OUT is removed). */
int trace_join(const char *const *paths, size_t n, const char *out,
               int overwrite, struct rw_diag *diag) RW_MUST_CHECK;

/* ------------------------------------------------------------- checking */

/* One problem trace_check() found. Plain data. */
struct trace_problem {
  u64 offset;      /* file offset where it is */
  int cut;         /* 1: the trace was cut off there (the recorder died), 0:
                      damage */
  const char *msg; /* one line; valid during the callback only */
};

/* What trace_check() read. Plain data. */
struct trace_check_stats {
  u64 chunks, records, blobs, blob_bytes, meta; /* how many were read */
  u64 seq_last; /* the last record's sequence number */
  u64 damaged;  /* problems that are damage */
  int cut;      /* 1: the trace was cut off */
};

/* Where trace_check() reports. Any member may be NULL. Plain data. */
struct trace_check_cb {
  void (*problem)(void *arg, const struct trace_problem *p);
  void (*progress)(void *arg, u64 done, u64 total); /* bytes */
  void *arg;
};

/* Reads and checks everything in R: the damage found when it was opened,
 * its index against a scan of the file, every chunk (checksum, compression,
 * record framing), every blob's content against its SHA-256, the metadata
 * against the index, and that the sequence numbers of all records follow
 * one another. Each problem is reported to CB (borrowed, may be NULL) once.
 * The trace is whole when ST says neither damaged nor cut. Returns 0, or
 * RW_ENOMEM. */
int trace_check(trace_reader *r, const struct trace_check_cb *cb,
                struct trace_check_stats *st) RW_MUST_CHECK;

/* Prints the `rewind info --check` report of R (whose file is PATH) to
 * OUT: each problem as it is found, then what was read and the verdict; as
 * one JSON object with JSON. With SHOW_PROGRESS, a percentage on stderr.
 * Fills ST. Returns 0, RW_ENOMEM, or a negative write error. */
int trace_report_check(FILE *out, trace_reader *r, const char *path,
                       int json, int show_progress,
                       struct trace_check_stats *st) RW_MUST_CHECK;

/* ------------------------------------------------------- record descriptions */

/* The name of record TYPE ("SYSCALL_EXIT"), or NULL if this build does not
 * know it. */
const char *trace_record_name(u16 type);
/* The field description of TYPE from records.def, or NULL. */
const char *trace_record_fields(u16 type);
/* The name of chunk TYPE ("BLOB"), or NULL. */
const char *trace_chunk_name(u16 type);

/* Prints REC's decoded fields to OUT: as "name=value ..." text, or with JSON
 * set as the members of a JSON object (without braces; each member is
 * preceded by a comma, so they follow the caller's own members). Unknown
 * types and payloads shorter than their fields are printed as hex with a
 * note, never read out of bounds. Returns 0 or a negative write error. */
int trace_record_print(FILE *out, const struct trace_record *rec, int json)
    RW_MUST_CHECK;

/* Options of trace_record_print_opts(). Plain data. */
struct trace_print_opts {
  int json;         /* 1: JSON members, 0: text */
  size_t bytes_max; /* bytes fields print at most this many bytes; 0: 64 */
};

/* trace_record_print() with options; OPTS (borrowed) may be NULL. */
int trace_record_print_opts(FILE *out, const struct trace_record *rec,
                            const struct trace_print_opts *opts)
    RW_MUST_CHECK;

/* ------------------------------------------------------------- reports */

/* Prints the `rewind info` report of R to OUT: format version, recording
 * machine, command line, times, threads, record counts by type (which reads
 * every record), blobs, keyframes, sizes and the state of the file. Problems
 * met while reading records are described in the report and the first is
 * returned in DIAG (may be NULL). Returns 0, 1 when some records could not
 * be read, or a negative write error. */
int trace_report_info(FILE *out, trace_reader *r, struct rw_diag *diag)
    RW_MUST_CHECK;

/* The same facts as trace_report_info(), as one JSON object on one line
 * (sizes in bytes, times in ns since the epoch, null for what is unknown).
 * Returns as trace_report_info(). */
int trace_report_info_json(FILE *out, trace_reader *r, struct rw_diag *diag)
    RW_MUST_CHECK;

/* Options of trace_report_dump(). Plain data. */
struct trace_dump_opts {
  int json;          /* one JSON object per line */
  size_t bytes_max;  /* as in struct trace_print_opts */
  u32 tid;           /* TRACE_ALL_THREADS or one thread */
  int type;          /* a record type, or -1 for all */
  u64 seq_from;      /* first sequence number to print (0: from the start) */
};

/* Prints every record of R selected by OPTS (borrowed) to OUT, in global
 * sequence order, one per line. A chunk that cannot be read is reported on
 * ERR (may be NULL) and skipped; the first such problem is returned in DIAG
 * (may be NULL). Returns 0, 1 when something was skipped, RW_ENOTFOUND when
 * OPTS names a thread that has no records, or a negative write error. */
int trace_report_dump(FILE *out, FILE *err, trace_reader *r,
                      const struct trace_dump_opts *opts,
                      struct rw_diag *diag) RW_MUST_CHECK;

/* Finds the record type named NAME (as in records.def, case-insensitive).
 * Returns the type, or RW_ENOTFOUND. */
int trace_record_type_by_name(const char *name) RW_MUST_CHECK;

/* ------------------------------------------------------- trace directory */

/* Writes the directory where traces are kept to DST (caller-owned, CAP
 * bytes): $REWIND_TRACE_DIR, else $XDG_DATA_HOME/rewind, else
 * $HOME/.local/share/rewind. With CREATE, creates it and its missing parents
 * (mode 0700). Returns 0, RW_ENOTFOUND when none of those variables is set,
 * or a negative errno. */
int trace_dir(char *dst, size_t cap, int create) RW_MUST_CHECK;

/* Writes rewind's cache directory to DST (caller-owned, CAP bytes): the
 * absolute path $REWIND_CACHE, else $XDG_CACHE_HOME/rewind, else
 * ~/.cache/rewind; not created. Returns 0, RW_ENOTFOUND when
 * REWIND_CACHE is "off" or none is set, or a negative errno. */
int trace_cache_dir(char *dst, size_t cap) RW_MUST_CHECK;
/* Creates DIR and its missing parents with MODE (for rewind's own
 * directories). Returns 0 or RW_ERR. */
int trace_mkdirs(const char *dir, mode_t mode) RW_MUST_CHECK;

/* Points the trace directory's `latest-trace` link at the trace PATH
 * (borrowed; by name when it is in the directory, else by absolute path),
 * creating the directory if needed. Returns 0 or a negative errno. */
int trace_dir_set_latest(const char *path) RW_MUST_CHECK;

/* Writes the path of the latest trace to DST. Returns 0, RW_ENOTFOUND when
 * there is none, or a negative errno. */
int trace_dir_latest(char *dst, size_t cap) RW_MUST_CHECK;

/* Turns NAME (borrowed), as a user typed it, into a trace path in DST:
 * NULL or "" or "latest" is the latest trace; an existing file or a name with
 * a '/' is taken as it is; otherwise NAME or NAME.rwd in the trace
 * directory. Returns 0, or RW_ENOTFOUND with DIAG (may be NULL) saying where
 * it looked. */
int trace_dir_resolve(const char *name, char *dst, size_t cap,
                      struct rw_diag *diag) RW_MUST_CHECK;

/* One trace of the trace directory. Plain data. */
struct trace_dir_entry {
  char name[256];   /* file name, ending in .rwd */
  char path[4352];  /* directory and name */
  u64 size;         /* bytes */
  u64 mtime_ns;     /* last modification, ns since the epoch */
  int latest;       /* 1: the latest-trace link points at it */
};

/* Lists the *.rwd files of the trace directory, oldest first. On success
 * *OUT (caller frees with free()) holds *N entries; a directory that does
 * not exist yet is an empty list. Returns 0 or a negative code. */
int trace_dir_list(struct trace_dir_entry **out, size_t *n) RW_MUST_CHECK;

/* Deletes the trace file PATH (borrowed) and its index (PATH.idx, rewind
 * index) if any. When it was the latest, the link
 * moves to the newest trace left in the directory (or goes away). Returns 0
 * or a negative errno. */
int trace_dir_remove(const char *path) RW_MUST_CHECK;

/* A process of a trace (format/ps.c): one that was recorded, or a child
 * that ran unrecorded (known from its FORK record only). Strings owned. */
struct trace_proc {
  u32 pid, ppid;    /* ppid 0: none in the trace (the recorder started it) */
  int recorded;     /* 0: a child that ran unrecorded */
  u32 kind;         /* unrecorded: FORK's kind (0 fork, 1 vfork/CLONE_VM) */
  char *command;    /* the recorded command line, or NULL */
  char *exe;        /* the path of its last program image, or NULL */
  u32 nexec;        /* program images (EXEC records) */
  u64 exec_seq;     /* its last EXEC record, 0 when none */
  u64 first_seq;    /* its first and last records (FORK for the others) */
  u64 last_seq;
  u32 nthreads;     /* threads it had */
  int ended;        /* 1: its end is in the trace: status, or signo;
                       2: the recorder detached from it (it went on) */
  i32 status;
  u32 signo;
};

/* Reads every record of R and lists its processes in the order they
 * appeared into *OUT (*N of them; free with trace_procs_free). Returns 0,
 * 1 when damage stopped the reading or a record was too short (what was
 * read stands; DIAG says where), or a negative code. */
int trace_procs(trace_reader *r, struct trace_proc **out, size_t *n,
                struct rw_diag *diag) RW_MUST_CHECK;
void trace_procs_free(struct trace_proc *v, size_t n);

/* `rewind ps`: the processes of R as a table, or one JSON object per line
 * (JSON 1). Returns as trace_procs, or a negative write error. */
int trace_report_ps(FILE *out, trace_reader *r, int json,
                    struct rw_diag *diag) RW_MUST_CHECK;

/* Typed encoders and decoders of every record type. */
#include "format/records.h"

/* Prints the NUL-terminated S to OUT as a JSON string (quoted, escaped;
 * bytes that are not UTF-8 become U+FFFD), as every JSON output of rewind
 * writes strings. */
void trace_json_str(FILE *out, const char *s);

#endif /* RW_FORMAT_FORMAT_H */
