/* SPDX-License-Identifier: MIT */
/* Helper of the crash-safety test (test_crash.c): `crash_writer OUT FD`
 * writes a trace to OUT forever (records of several threads, blobs,
 * keyframes, metadata, small chunks so that many are written) and reports
 * the offset of every chunk the writer calls complete as a little-endian
 * u64 on file descriptor FD, until it is killed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "format/format.h"

static void report(void *arg, u64 off, u16 type, u32 tid, u64 a, u64 b) {
  int fd = *(int *)arg;
  u8 buf[8];
  (void)type, (void)tid, (void)a, (void)b;
  wr_le64(buf, off);
  if (write(fd, buf, 8) != 8) _exit(3);
}

int main(int argc, char **argv) {
  struct trace_writer_opts o = {0};
  trace_writer *w;
  int fd;
  u8 rec[600], hash[32];
  if (argc != 3) {
    fprintf(stderr, "usage: crash_writer OUT FD\n");
    return 2;
  }
  fd = atoi(argv[2]);
  o.overwrite = 1;
  o.chunk_bytes = 2048;
  o.on_chunk = report;
  o.arg = &fd;
  if (trace_writer_open(&w, argv[1], &o) < 0) return 1;
  for (u64 i = 0;; i++) {
    size_t len = (size_t)(i * 131 % sizeof rec);
    for (size_t k = 0; k < len; k++) rec[k] = (u8)(i + k);
    if (trace_writer_append(w, (u32)(i % 5), (u16)(1 + i % 14), rec, len,
                            NULL) < 0)
      return 1;
    if (i % 97 == 0) {
      char v[32];
      snprintf(v, sizeof v, "%llu", (unsigned long long)i);
      if (trace_writer_set_meta(w, "progress", v, strlen(v)) < 0) return 1;
    }
    if (i % 389 == 0 &&
        trace_writer_add_blob(w, "blob", rec, sizeof rec - i % 7, hash) < 0)
      return 1;
    if (i % 1000 == 999 &&
        trace_writer_add_keyframe(w, 1, trace_writer_next_seq(w), rec, 100) <
            0)
      return 1;
  }
}
