/* SPDX-License-Identifier: MIT */
/* Helpers shared by the format tests: temporary paths, whole-file I/O, and a
 * deterministic sample trace whose every record can be recomputed from its
 * sequence number, so that reading a trace back can be checked exactly. */
#ifndef RW_TESTS_FORMAT_HELPERS_H
#define RW_TESTS_FORMAT_HELPERS_H

#include <stddef.h>

#include "format/format.h"

/* A path in /tmp unique to this process and NAME. Returns a static buffer
 * (one of eight, reused in turn). */
const char *tf_path(const char *name);

/* Reads a whole file; returns a malloc'd buffer (caller frees) and sets
 * *LEN, or NULL. */
unsigned char *tf_read_file(const char *path, size_t *len);

/* Writes N bytes at P to PATH, replacing it. Returns 0 or -1. */
int tf_write_file(const char *path, const void *p, size_t n);

/* What tf_make_sample() writes. Plain data. */
struct tf_sample {
  int nthreads;        /* threads 100, 101, ... */
  int nrec;            /* records, seq 1..nrec */
  size_t chunk_bytes;  /* writer option; 0: default */
  int level;           /* writer option; 0: default */
  int nblobs;          /* blobs of varied sizes */
  int nkeyframes;      /* keyframes at evenly spaced seqs */
  int close;           /* 1: close the writer; 0: flush and abandon it */
};

/* The record with sequence number SEQ of a sample with NTHREADS threads:
 * its thread, type and payload (written to BUF, which holds 4096 bytes).
 * Returns the payload length. */
size_t tf_record(u64 seq, int nthreads, u32 *tid, u16 *type, u8 *buf);

/* The content of sample blob I (written to BUF, which holds
 * tf_blob_size(I) bytes). */
size_t tf_blob_size(int i);
void tf_blob(int i, u8 *buf);

/* Writes the sample S to PATH. Returns 0 or a negative code. */
int tf_make_sample(const char *path, const struct tf_sample *s);

/* Checks, with CUnit asserts, that R holds exactly the records of a sample
 * with NTHREADS threads and NREC records, in global order. Returns how many
 * records matched. */
u64 tf_check_all(trace_reader *r, int nthreads, int nrec);

#endif /* RW_TESTS_FORMAT_HELPERS_H */
