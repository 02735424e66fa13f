/* SPDX-License-Identifier: MIT */
/* Test tool: copies a trace, changing one byte of one record, to make
 * traces whose replay must diverge (tests/replay/outputs.sh).
 *
 *   rw_patch IN OUT SEQ OFFSET XOR
 *   rw_patch IN OUT SEQ drop
 *   rw_patch IN OUT meta KEY VALUE
 *
 * writes OUT with the metadata, blobs and records of IN, in the same
 * streams and sequence order (so with the same sequence numbers), except
 * that byte OFFSET of the payload of record SEQ is XORed with XOR, or
 * with "drop" that record is left out (only the last one keeps the
 * numbers of the others), or with "meta" the metadata KEY is VALUE. The
 * chunks are compressed and checksummed again, so the reader trusts the
 * change. Keyframes are not copied (the recorder writes none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"

#define CHECK(x)                                                  \
  do {                                                            \
    int rc_ = (x);                                                \
    if (rc_ < 0) {                                                \
      fprintf(stderr, "rw_patch: %s: %s\n", #x, rw_strerror(rc_)); \
      exit(1);                                                    \
    }                                                             \
  } while (0)

static void copy_blob(trace_reader *r, trace_writer *w, size_t i) {
  struct trace_blob_info bi;
  u8 hash[32];
  CHECK(trace_reader_blob_info(r, i, &bi));
  u8 *data = malloc(bi.size ? bi.size : 1);
  if (!data) exit(1);
  i64 n = trace_reader_blob_read(r, bi.hash, 0, data, bi.size, NULL);
  CHECK((int)(n < 0 ? n : 0));
  if ((u64)n != bi.size) {
    fprintf(stderr, "rw_patch: blob %zu is short\n", i);
    exit(1);
  }
  CHECK(trace_writer_add_blob(w, bi.name, data, bi.size, hash));
  free(data);
}

int main(int argc, char **argv) {
  int drop = argc == 5 && !strcmp(argv[4], "drop");
  int meta = argc == 6 && !strcmp(argv[3], "meta");
  if (argc != 6 && !drop) {
    fprintf(stderr, "usage: rw_patch IN OUT SEQ OFFSET XOR\n"
                    "       rw_patch IN OUT SEQ drop\n"
                    "       rw_patch IN OUT meta KEY VALUE\n");
    return 2;
  }
  u64 seq = meta ? 0 : strtoull(argv[3], NULL, 0);
  u64 off = drop || meta ? 0 : strtoull(argv[4], NULL, 0);
  u8 x = drop || meta ? 0 : (u8)strtoul(argv[5], NULL, 0);
  trace_reader *r;
  trace_writer *w;
  trace_cursor *c;
  struct trace_writer_opts wo;
  memset(&wo, 0, sizeof wo);
  wo.overwrite = 1;
  CHECK(trace_reader_open(&r, argv[1], NULL));
  CHECK(trace_writer_open(&w, argv[2], &wo));
  const char *key;
  const void *val;
  size_t len;
  for (size_t i = 0; trace_reader_meta_at(r, i, &key, &val, &len) == 0; i++)
    if (!meta || strcmp(key, argv[4]))
      CHECK(trace_writer_set_meta(w, key, val, len));
  if (meta) CHECK(trace_writer_set_meta(w, argv[4], argv[5], strlen(argv[5])));
  for (size_t i = 0; i < trace_reader_nblobs(r); i++) copy_blob(r, w, i);
  CHECK(trace_cursor_open(&c, r, TRACE_ALL_THREADS));
  struct trace_record rec;
  int found = 0, rc;
  static u8 buf[TRACE_MAX_RECORD];
  while ((rc = trace_cursor_next(c, &rec, NULL)) == 1) {
    u64 got;
    memcpy(buf, rec.data, rec.len);
    if (rec.seq == seq && drop) {
      found = 1;
      continue;
    }
    if (rec.seq == seq) {
      if (off >= rec.len) {
        fprintf(stderr, "rw_patch: record %llu has %u bytes\n",
                (unsigned long long)seq, rec.len);
        return 1;
      }
      buf[off] ^= x;
      found = 1;
    }
    CHECK(trace_writer_append(w, rec.tid, rec.type, buf, rec.len, &got));
    if (got != rec.seq) {
      fprintf(stderr, "rw_patch: the records of IN are not numbered 1, 2, "
                      "... (record %llu)\n", (unsigned long long)rec.seq);
      return 1;
    }
  }
  CHECK(rc);
  trace_cursor_close(c);
  trace_reader_close(r);
  CHECK(trace_writer_close(w));
  if (!found && !meta) {
    fprintf(stderr, "rw_patch: no record %llu\n", (unsigned long long)seq);
    return 1;
  }
  return 0;
}
