/* SPDX-License-Identifier: MIT */
/* Joining traces whose records follow each other into one (trace_join):
 * how the segments of a ring recording (rewind record --ring) become the
 * trace the user gets. Records are read and appended again with their
 * sequence numbers (the writer starts at the first one's), keyframes are
 * copied as they are, blobs as their stored chunks (trace_writer_add_blob
 * _image: each stored once). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format.h"

/* Metadata the last segment has the say in: how the recording ended. */
static int from_last(const char *key) {
  return !strcmp(key, TRACE_META_EXIT) || !strcmp(key, TRACE_META_END) ||
         !strcmp(key, TRACE_META_STOPPED);
}

static int copy_meta(trace_writer *w, trace_reader *first,
                     trace_reader *last) {
  const char *key;
  const void *val;
  size_t len;
  for (size_t i = 0; trace_reader_meta_at(first, i, &key, &val, &len) == 0;
       i++)
    if (strcmp(key, TRACE_META_RECORDS) &&
        strcmp(key, TRACE_META_FIRST_SEQ) && !from_last(key))
      RW_FORWARD(trace_writer_set_meta(w, key, val, len));
  for (size_t i = 0; trace_reader_meta_at(last, i, &key, &val, &len) == 0;
       i++)
    if (from_last(key)) RW_FORWARD(trace_writer_set_meta(w, key, val, len));
  return 0;
}

/* Segment R (PATH, the K-th): its records, keyframes and blobs into W. */
static int copy_one(trace_writer *w, trace_reader *r, const char *path,
                    size_t k, struct rw_diag *diag) {
  trace_cursor *c;
  struct trace_record rec;
  int rc = trace_cursor_open(&c, r, TRACE_ALL_THREADS);
  if (rc == RW_ENOTFOUND) return 0; /* no records */
  RW_FORWARD(rc);
  while ((rc = trace_cursor_next(c, &rec, diag)) == 1) {
    if (rec.seq != trace_writer_next_seq(w)) {
      rc = rw_diag_set(diag, RW_ECORRUPT, 0, "%s (segment %zu) goes on at "
                       "record %llu, not %llu", path, k + 1,
                       (unsigned long long)rec.seq,
                       (unsigned long long)trace_writer_next_seq(w));
      break;
    }
    rc = trace_writer_append(w, rec.tid, rec.type, rec.data, rec.len, NULL);
    if (rc < 0) break;
  }
  trace_cursor_close(c);
  if (rc == RW_ETRUNC) rc = 0; /* cut short: what was there */
  RW_FORWARD(rc);
  for (size_t i = 0; i < trace_reader_nblobs(r); i++) {
    struct trace_blob_info bi;
    u8 *img, hash[32];
    size_t len;
    RW_FORWARD(trace_reader_blob_info(r, i, &bi));
    rc = trace_reader_blob_image(r, bi.hash, &img, &len);
    if (rc == 0) rc = trace_writer_add_blob_image(w, img, len, hash, NULL);
    if (rc == 0) free(img);
    RW_FORWARD(rc);
  }
  for (size_t i = 0; i < trace_reader_nkeyframes(r); i++) {
    struct trace_keyframe_info ki;
    RW_FORWARD(trace_reader_keyframe_info(r, i, &ki));
    u8 *data = malloc(ki.raw_len ? ki.raw_len : 1);
    RW_RETURN_IF(!data, RW_ENOMEM, "keyframe");
    i64 got = trace_reader_keyframe_read(r, i, data, ki.raw_len, diag);
    rc = got < 0 ? (int)got
                 : trace_writer_add_keyframe(w, ki.kind, ki.seq, data,
                                             (size_t)got);
    free(data);
    RW_FORWARD(rc);
  }
  return 0;
}

int trace_join(const char *const *paths, size_t n, const char *out,
               int overwrite, struct rw_diag *diag) {
  trace_reader **rs = calloc(n ? n : 1, sizeof *rs);
  RW_RETURN_IF(!rs, RW_ENOMEM, "readers");
  int rc = n ? 0 : rw_diag_set(diag, RW_EINVAL, 0, "nothing to join");
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = trace_reader_open(&rs[i], paths[i], diag);
  struct trace_info first;
  trace_writer *w = NULL;
  if (rc == 0) {
    trace_reader_get_info(rs[0], &first);
    struct trace_writer_opts o = {0};
    o.overwrite = overwrite;
    o.first_seq = first.seq_first ? first.seq_first : 1;
    rc = trace_writer_open(&w, out, &o);
    if (rc < 0) rw_diag_set(diag, rc, 0, "cannot write %s: %s", out,
                            rw_strerror(rc));
  }
  if (rc == 0) rc = copy_meta(w, rs[0], rs[n - 1]);
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = copy_one(w, rs[i], paths[i], i, diag);
  int crc = trace_writer_close(w);
  if (rc == 0) rc = crc;
  for (size_t i = 0; i < n; i++) trace_reader_close(rs[i]);
  free(rs);
  if (rc < 0 && w) unlink(out);
  if (rc < 0 && diag && !diag->code)
    rw_diag_set(diag, rc, 0, "%s", rw_strerror(rc));
  return rc;
}
