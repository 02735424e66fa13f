/* SPDX-License-Identifier: MIT */
/* Damaging a trace behind fixed-up checksums and index (edit.c). */
#ifndef RW_TESTS_FORMAT_EDIT_H
#define RW_TESTS_FORMAT_EDIT_H

#include "format/format.h"

/* Prints R's chunks, one line each: K type tid seq_first seq_last raw_len
 * offset. */
void tf_edit_list(trace_reader *r);

/* Writes R again to OUT with chunk K changed by OP: "drop" (left out),
 * "dup" (written twice), "swap" (exchanged with K+1) or "flip" (byte
 * FLIP_AT of its decompressed payload XORed with X). Every checksum and
 * the index agree with the change. Returns 0, or 1 after a message on
 * stderr (exits on a write error). */
int tf_edit(trace_reader *r, const char *out, const char *op, long k,
            long flip_at, u8 x);

#endif
