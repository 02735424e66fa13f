/* SPDX-License-Identifier: MIT */
/* Test tool: damages a trace at the level of its chunks and makes every
 * checksum and the index agree with the damage, so that only the checks
 * that look past checksums can find it (issue 21's integrity tests and
 * tests/format/campaign.sh).
 *
 *   rw_edit IN list                    one line per chunk: K type tid
 *                                      seq_first seq_last raw_len offset
 *   rw_edit IN OUT drop K              leave chunk K out
 *   rw_edit IN OUT flip K BYTE XOR     XOR byte BYTE of chunk K's payload
 *                                      (decompressed) with XOR
 *   rw_edit IN OUT dup K               write chunk K twice
 *   rw_edit IN OUT swap K              exchange chunks K and K+1
 *
 * OUT gets IN's chunks in file order, each compressed and checksummed
 * again, then a new index built from them: the blob table follows the
 * pieces that are left, the metadata is IN's index's (so a changed META
 * chunk disagrees with it). K counts chunks in file order from 0; `list`
 * shows them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/format/edit.h"

static void usage(void) {
  fprintf(stderr, "usage: rw_edit IN list\n"
                  "       rw_edit IN OUT drop|dup|swap K\n"
                  "       rw_edit IN OUT flip K BYTE XOR\n");
  exit(2);
}

int main(int argc, char **argv) {
  trace_reader *r;
  struct rw_diag diag = {0};
  long k, flip_at = -1;
  u8 x = 0;
  const char *op;
  int rc;
  if (argc < 3) usage();
  if (trace_reader_open(&r, argv[1], &diag) < 0) {
    fprintf(stderr, "rw_edit: %s: %s\n", argv[1], diag.msg);
    return 1;
  }
  if (!strcmp(argv[2], "list")) {
    tf_edit_list(r);
    trace_reader_close(r);
    return 0;
  }
  if (argc < 5) usage();
  op = argv[3];
  k = strtol(argv[4], NULL, 0);
  if (!strcmp(op, "flip")) {
    if (argc != 7) usage();
    flip_at = strtol(argv[5], NULL, 0);
    x = (u8)strtoul(argv[6], NULL, 0);
  } else if (argc != 5 ||
             (strcmp(op, "drop") && strcmp(op, "dup") && strcmp(op, "swap"))) {
    usage();
  }
  rc = tf_edit(r, argv[2], op, k, flip_at, x);
  trace_reader_close(r);
  return rc;
}
