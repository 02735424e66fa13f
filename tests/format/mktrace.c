/* SPDX-License-Identifier: MIT */
/* Writes test traces. `mktrace sample OUT [THREADS RECORDS]` writes a trace
 * that looks like a small recording (standard metadata, file blobs, a
 * keyframe, syscalls with register files and memory imports) for the CLI
 * test. `mktrace bad DIR` writes the damaged samples of tests/format/bad/,
 * and `mktrace corpus DIR` the seed corpus of tests/fuzz/corpus/trace_reader/
 * (small valid, unclosed and damaged traces). Output is reproducible: the
 * creation time comes from SOURCE_DATE_EPOCH, set to 0 here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "common/regs.h"
#include "format/format_int.h"
#include "tests/format/edit.h"

#define CHECK(x)                                                      \
  do {                                                                \
    int rc_ = (x);                                                    \
    if (rc_ < 0) {                                                    \
      fprintf(stderr, "mktrace: %s: %s\n", #x, rw_strerror(rc_));     \
      exit(1);                                                        \
    }                                                                 \
  } while (0)

static u32 rng = 12345;
static u32 next_rand(void) {
  rng = rng * 1103515245u + 12345u;
  return rng >> 8;
}

static void meta(trace_writer *w, const char *k, const char *v, size_t n) {
  CHECK(trace_writer_set_meta(w, k, v, n ? n : strlen(v)));
}

/* A record whose payload is built field by field. */
struct rec {
  u8 b[4096];
  size_t n;
};
static void put64(struct rec *r, u64 v) { wr_le64(r->b + r->n, v), r->n += 8; }
static void put32(struct rec *r, u32 v) { wr_le32(r->b + r->n, v), r->n += 4; }
static void putstr(struct rec *r, const char *s) {
  size_t l = strlen(s);
  wr_le16(r->b + r->n, (u16)l);
  memcpy(r->b + r->n + 2, s, l);
  r->n += 2 + l;
}
static void putregs(struct rec *r, const struct rw_regs *g) {
  rw_regs_encode(g, r->b + r->n);
  r->n += RW_REGS_DISK_SIZE;
}
static void emit(trace_writer *w, u32 tid, u16 type, struct rec *r) {
  CHECK(trace_writer_append(w, tid, type, r->b, r->n, NULL));
  r->n = 0;
}

/* Sizes of the two file blobs; the bad samples use small ones. */
static size_t exe_size = 20000, libc_size = 200000;
static size_t chunk_bytes = 64 * 1024;

static void sample(const char *out, int nthreads, int nrec) {
  struct trace_writer_opts o = {0};
  trace_writer *w;
  struct rw_regs regs[16];
  struct rec r = {{0}, 0};
  u8 hash_exe[32], hash_libc[32], *blob;
  u8 cpuid[2 * 24] = {0};
  if (nthreads < 1 || nthreads > 16) nthreads = 2;
  o.overwrite = 1;
  o.chunk_bytes = chunk_bytes;
  CHECK(trace_writer_open(&w, out, &o));
  meta(w, TRACE_META_VERSION, "0.1.0", 0);
  meta(w, TRACE_META_CMDLINE, "/bin/echo\0hello\0world", 21);
  meta(w, TRACE_META_ENVIRON, "PATH=/bin\0HOME=/root", 20);
  meta(w, TRACE_META_CWD, "/home/test", 0);
  meta(w, TRACE_META_HOSTNAME, "testhost", 0);
  meta(w, TRACE_META_KERNEL, "Linux 6.1.0 x86_64", 0);
  meta(w, TRACE_META_CPU, "Test CPU @ 2.0GHz", 0);
  meta(w, TRACE_META_CPU_PINNED, "0", 0);
  wr_le32(cpuid + 4 * 2, 0x16);
  meta(w, TRACE_META_CPUID, (const char *)cpuid, sizeof cpuid);
  meta(w, TRACE_META_START, "1700000000000000000", 0);

  blob = malloc(200000);
  for (int i = 0; i < 200000; i++)
    blob[i] = i % 3 ? (u8)next_rand() : (u8)"\x7f" "ELF"[i % 4];
  CHECK(trace_writer_add_blob(w, "/bin/echo", blob, exe_size, hash_exe));
  CHECK(trace_writer_add_blob(w, "/lib/x86_64-linux-gnu/libc.so.6", blob,
                              libc_size, hash_libc));
  /* The same bytes again are stored once. */
  CHECK(trace_writer_add_blob(w, "/bin/echo-copy", blob, exe_size, hash_exe));
  free(blob);

  memset(regs, 0, sizeof regs);
  for (int t = 0; t < nthreads; t++) {
    regs[t].rip = 0x401000;
    regs[t].gpr[RW_REG_rsp] = 0x7ffffffde000 - (u64)t * 0x100000;
    regs[t].rflags = 0x246;
    regs[t].orig_rax = ~0ull;
    regs[t].seg[1] = 0x33;
    regs[t].seg[2] = 0x2b;
    wr_le32(regs[t].fxsave + 24, 0x1f80);
  }
  put32(&r, 1000);
  putstr(&r, "/bin/echo");
  emit(w, 1000, TRACE_REC_EXEC, &r);
  put32(&r, 1000), put32(&r, 0), putregs(&r, &regs[0]);
  emit(w, 1000, TRACE_REC_THREAD_START, &r);
  put64(&r, 0x400000), put64(&r, 0x5000), put32(&r, 5), put32(&r, 2);
  put64(&r, 0);
  memcpy(r.b + r.n, hash_exe, 32), r.n += 32;
  putstr(&r, "/bin/echo");
  emit(w, 1000, TRACE_REC_MAP, &r);
  memcpy(r.b, "\x06\0\0\0\0\0\0\0\x00\x10\0\0\0\0\0\0", 16), r.n = 16;
  emit(w, 1000, TRACE_REC_AUXV, &r);
  for (int t = 1; t < nthreads; t++) {
    put32(&r, 1000 + (u32)t), put32(&r, 1000), putregs(&r, &regs[t]);
    emit(w, 1000 + (u32)t, TRACE_REC_THREAD_START, &r);
  }
  for (int i = 0; i < nrec; i++) {
    int t = (int)(next_rand() % (u32)nthreads);
    u32 tid = 1000 + (u32)t;
    u64 nr = next_rand() % 3 ? 0 : 1; /* read or write */
    regs[t].rip += 0x20 + next_rand() % 64;
    regs[t].gpr[RW_REG_rax] = nr;
    regs[t].orig_rax = nr;
    put64(&r, nr), putregs(&r, &regs[t]);
    emit(w, tid, TRACE_REC_SYSCALL_ENTER, &r);
    if (nr == 0) {
      put64(&r, 0x7ffffffd0000 + (u64)i * 64);
      for (int k = 0; k < 40 + i % 100; k++) r.b[r.n++] = (u8)("line of text\n"[k % 13]);
      emit(w, tid, TRACE_REC_MEM, &r);
    }
    regs[t].gpr[RW_REG_rax] = 40 + (u64)(i % 100);
    put64(&r, nr), put64(&r, regs[t].gpr[RW_REG_rax]), putregs(&r, &regs[t]);
    emit(w, tid, TRACE_REC_SYSCALL_EXIT, &r);
    if (i % 50 == 7) {
      put64(&r, regs[t].rip), put64(&r, 1000000 + (u64)i * 977);
      put32(&r, 0), put32(&r, 0);
      emit(w, tid, TRACE_REC_RDTSC, &r);
    }
    if (i == nrec / 2) {
      u8 kf[64] = {0};
      CHECK(trace_writer_add_keyframe(w, 0, trace_writer_next_seq(w), kf,
                                      sizeof kf));
      put32(&r, 1), putstr(&r, "halfway \"there\"\n");
      emit(w, tid, TRACE_REC_NOTE, &r);
    }
  }
  for (int t = nthreads - 1; t >= 0; t--) {
    put32(&r, 1000 + (u32)t), put32(&r, 0), put32(&r, 0);
    emit(w, 1000 + (u32)t, TRACE_REC_EXIT, &r);
  }
  meta(w, TRACE_META_END, "1700000001500000000", 0);
  meta(w, TRACE_META_EXIT, "exit 0", 0);
  CHECK(trace_writer_close(w));
}

/* ---------------------------------------------------------- bad samples */

static const char *bad_dir;
static int no_ext; /* drop ".rwd": .gitignore hides *.rwd in the corpus */

static void put_file(const char *name, const u8 *p, size_t n) {
  char path[4096];
  FILE *f;
  size_t len = strlen(name);
  if (no_ext && len > 4 && !strcmp(name + len - 4, ".rwd")) len -= 4;
  snprintf(path, sizeof path, "%s/%.*s", bad_dir, (int)len, name);
  f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "mktrace: cannot write %s\n", path);
    exit(1);
  }
}

static u8 *get_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  u8 *p = malloc(1 << 22);
  if (!f || !p) exit(1);
  *n = fread(p, 1, 1 << 22, f);
  fclose(f);
  return p;
}

/* The offset of chunk K of the trace F (walking the chunk headers). */
static u64 chunk_at(const u8 *f, int k) {
  u64 off = TRACE__HDR_SIZE;
  while (k-- > 0) off += TRACE__CHUNK_HDR + rd_le32(f + off + 32);
  return off;
}

/* The first RECORDS chunk at or after chunk K. */
static u64 records_chunk(const u8 *f, int k) {
  u64 off;
  while (rd_le16(f + (off = chunk_at(f, k)) + 4) != TRACE_CHUNK_RECORDS) k++;
  return off;
}

/* Writes NAME from the closed trace BASE by tf_edit: OP on the Nth chunk
 * of TYPE (byte AT of its payload XORed with X for "flip"), behind valid
 * checksums and index: a lost chunk, a blob whose content is not what its
 * hash names, metadata that disagrees with the index. */
static void edited(const char *base, const char *name, const char *op,
                   u16 type, int nth, long at, u8 x) {
  trace_reader *r;
  char path[4096];
  long k = -1;
  CHECK(trace_reader_open(&r, base, NULL));
  for (size_t i = 0; i < r->nchunks && k < 0; i++)
    if (r->chunks[i].type == type && --nth == 0) k = (long)i;
  snprintf(path, sizeof path, "%s/%s", bad_dir, name);
  if (no_ext) path[strlen(path) - 4] = 0;
  if (tf_edit(r, path, op, k, at, x)) exit(1);
  trace_reader_close(r);
}

static void bad(const char *dir, int nrec) {
  char base[4096];
  size_t n;
  u8 *f, *g;
  u64 ioff, off;
  bad_dir = dir;
  snprintf(base, sizeof base, "%s/base.tmp", dir);
  sample(base, 2, nrec);
  f = get_file(base, &n);
  edited(base, "lost-chunk.rwd", "drop", TRACE_CHUNK_RECORDS, 3, 0, 0);
  edited(base, "blob-hash.rwd", "flip", TRACE_CHUNK_BLOB, 2, 500, 0x10);
  edited(base, "meta-mismatch.rwd", "flip", TRACE_CHUNK_META, 1, 40, 0x01);
  edited(base, "dup-chunk.rwd", "dup", TRACE_CHUNK_RECORDS, 2, 0, 0);
  unlink(base);
  g = malloc(n + 4096);
  ioff = rd_le64(f + n - 24);

  put_file("not-a-trace.rwd", (const u8 *)"#!/bin/sh\necho not a trace\n", 27);
  put_file("empty.rwd", f, 0);
  put_file("short-header.rwd", f, 40);
  memcpy(g, f, n);
  wr_le16(g + 8, 2);
  wr_le32(g + 60, rw_crc32c(0, g, 60));
  put_file("version-2.rwd", g, n);
  memcpy(g, f, n);
  g[25] ^= 0x01;
  put_file("header-checksum.rwd", g, n);
  /* Cut in the middle of a records chunk: killed while writing it. */
  off = records_chunk(f, 8);
  put_file("truncated-chunk.rwd", f,
           off + TRACE__CHUNK_HDR + rd_le32(f + off + 32) / 2);
  /* Cut just before the index: killed between two chunks. */
  put_file("unclosed.rwd", f, ioff);
  /* Unclosed, and chunk 2's magic damaged: the scan resynchronises. */
  memcpy(g, f, ioff);
  g[chunk_at(f, 2)] ^= 0x20;
  put_file("bad-chunk-magic.rwd", g, ioff);
  /* Closed, a flipped bit in a records chunk behind an intact index. */
  memcpy(g, f, n);
  off = records_chunk(f, 4);
  g[off + TRACE__CHUNK_HDR + 9] ^= 0x08;
  put_file("payload-checksum.rwd", g, n);
  memcpy(g, f, n);
  g[n - 2] ^= 0x40;
  put_file("bad-trailer.rwd", g, n);
  memcpy(g, f, n);
  g[ioff + TRACE__CHUNK_HDR + 4] ^= 0x02;
  put_file("bad-index.rwd", g, n);
  /* A records chunk whose checksums hold but whose only record claims 100
   * bytes where 10 remain. */
  {
    u8 raw[TRACE__REC_HDR + 10] = {0};
    struct trace__chunk c = {0};
    size_t comp;
    memcpy(g, f, TRACE__HDR_SIZE);
    wr_le16(raw, TRACE_REC_NOTE);
    wr_le32(raw + 2, 100);
    wr_le64(raw + 6, 1);
    comp = ZSTD_compress(g + TRACE__HDR_SIZE + TRACE__CHUNK_HDR, 1024, raw,
                         sizeof raw, 1);
    c.type = TRACE_CHUNK_RECORDS;
    c.tid = 1;
    c.count = 1;
    c.seq_first = c.seq_last = 1;
    c.comp_len = (u32)comp;
    c.raw_len = sizeof raw;
    c.payload_crc =
        rw_crc32c(0, g + TRACE__HDR_SIZE + TRACE__CHUNK_HDR, comp);
    trace__chunk_encode(&c, g + TRACE__HDR_SIZE);
    put_file("record-overrun.rwd", g,
             TRACE__HDR_SIZE + TRACE__CHUNK_HDR + comp);
  }
  free(f);
  free(g);
}

int main(int argc, char **argv) {
  setenv("SOURCE_DATE_EPOCH", "0", 1);
  if (argc == 3 && !strcmp(argv[1], "bad")) {
    exe_size = 1000;
    libc_size = 3000;
    chunk_bytes = 8192;
    bad(argv[2], 30);
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "corpus")) {
    /* Small valid traces, closed and not, then damaged ones. */
    static const int shapes[][2] = {{1, 2}, {2, 8}, {3, 20}, {4, 40}};
    char path[4096];
    exe_size = 300;
    libc_size = 700;
    chunk_bytes = 1024;
    no_ext = 1;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
      size_t n;
      u8 *f;
      snprintf(path, sizeof path, "%s/valid-%zu", argv[2], i);
      sample(path, shapes[i][0], shapes[i][1]);
      f = get_file(path, &n);
      bad_dir = argv[2];
      snprintf(path, sizeof path, "unclosed-%zu.rwd", i);
      put_file(path, f, rd_le64(f + n - 24));
      free(f);
    }
    bad(argv[2], 6);
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "sample")) {
    sample(argv[2], argc > 3 ? atoi(argv[3]) : 2,
           argc > 4 ? atoi(argv[4]) : 200);
    return 0;
  }
  fprintf(stderr, "usage: mktrace sample OUT [THREADS RECORDS]\n"
                  "       mktrace bad DIR\n"
                  "       mktrace corpus DIR\n");
  return 2;
}
