/* SPDX-License-Identifier: MIT */
/* The flight recorder (rewind record --ring SIZE): at most SIZE of
 * history on disk, the most recent.
 *
 * The trace is written as segments, OUT.ring/000001.rwd and on, each a
 * trace of its own whose records go on where the previous one's end (the
 * writer's first_seq). The first begins with the program; every other
 * begins at a recorder keyframe (recorder/keyframe.c), so that it can be
 * replayed without the segments before it. A keyframe is due whenever the
 * current segment holds a quarter of SIZE (or at --keyframes); writing it
 * starts the next segment (rec__ring_rotate): the metadata is carried
 * over, the blobs the new segment names are stored in it again, and the
 * oldest segments are deleted while the others take more than three
 * quarters of SIZE. At the end the segments left are joined into OUT
 * (trace_join) and their directory removed. A recorder that is killed
 * leaves the directory: `rewind join OUT.ring` makes the trace of what it
 * holds, each segment being flushed as it goes. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/rec_int.h"

static void seg_path(const struct rec *r, u32 n, char *dst, size_t cap) {
  snprintf(dst, cap, "%s.ring/%06u.rwd", r->ring.out, n);
}

/* Removes DIR's segment files and DIR. */
static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    char p[4200];
    while ((e = readdir(d)))
      if (strstr(e->d_name, ".rwd")) {
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
      }
    closedir(d);
  }
  rmdir(dir);
}

int rec__ring_open(struct rec *r, const char *out, int force,
                   const struct trace_writer_opts *wo) {
  snprintf(r->ring.out, sizeof r->ring.out, "%s", out);
  char dir[4200];
  snprintf(dir, sizeof dir, "%s.ring", out);
  int had = access(dir, F_OK) == 0;
  if (!force && (had || access(out, F_OK) == 0)) return RW_ERR(EEXIST);
  if (had) remove_dir(dir);
  if (mkdir(dir, 0755) < 0) {
    int e = errno;
    rw_log(RW_LOG_ERROR, "cannot create %s: %s", dir, strerror(e));
    return RW_ERR(e);
  }
  r->ring.wo = *wo;
  r->ring.wo.overwrite = 1;
  r->ring.first = r->ring.n = 1;
  char seg[4300];
  seg_path(r, 1, seg, sizeof seg);
  return trace_writer_open(&r->w, seg, &r->ring.wo);
}

/* Deletes the oldest segments while the closed ones take more than three
 * quarters of the ring. */
static void prune(struct rec *r) {
  u64 total = 0;
  char p[4300];
  struct stat st;
  for (u32 i = r->ring.first; i < r->ring.n; i++) {
    seg_path(r, i, p, sizeof p);
    if (stat(p, &st) == 0) total += (u64)st.st_size;
  }
  while (r->ring.first < r->ring.n && total > r->ring.bytes / 4 * 3) {
    seg_path(r, r->ring.first, p, sizeof p);
    if (stat(p, &st) == 0) {
      total -= (u64)st.st_size;
      r->ring.dropped_bytes += (u64)st.st_size;
    }
    unlink(p);
    r->ring.first++;
    r->ring.dropped++;
  }
}

int rec__ring_begin(struct rec *r, trace_writer **old) {
  trace_writer *nw;
  struct trace_writer_opts wo = r->ring.wo;
  wo.first_seq = trace_writer_next_seq(r->w);
  char p[4300];
  seg_path(r, r->ring.n + 1, p, sizeof p);
  int rc = trace_writer_open(&nw, p, &wo);
  if (rc == 0) rc = trace_writer_copy_meta(nw, r->w);
  if (rc < 0) {
    rw_log(RW_LOG_ERROR, "cannot write the ring segment %s: %s", p,
           rw_strerror(rc));
    trace_writer_close(nw);
    unlink(p);
    return rc;
  }
  *old = r->w;
  r->w = nw;
  r->ring.nb0 = r->nblobs;
  r->ring.base0 = r->blob_base;
  /* The files its mappings name: stored in this segment too. */
  r->blob_base = r->nblobs;
  return 0;
}

int rec__ring_end(struct rec *r, trace_writer *old, int ok) {
  if (!ok) { /* back to the segment as it was */
    char p[4300];
    seg_path(r, r->ring.n + 1, p, sizeof p);
    trace_writer_close(r->w);
    unlink(p);
    r->w = old;
    r->nblobs = r->ring.nb0;
    r->blob_base = r->ring.base0;
    return 0;
  }
  int rc = trace_writer_close(old);
  r->ring.n++;
  /* Only this segment's blobs are remembered now. */
  memmove(r->blobs, r->blobs + r->blob_base,
          (r->nblobs - r->blob_base) * sizeof *r->blobs);
  r->nblobs -= r->blob_base;
  r->blob_base = 0;
  return rc;
}

int rec__ring_settle(struct rec *r) {
  r->ring.seg_base = trace_writer_size(r->w);
  /* Its keyframe on disk before the segments it replaces go. */
  RW_FORWARD(trace_writer_sync(r->w));
  prune(r);
  return 0;
}

int rec__ring_due(const struct rec *r) {
  return r->ring.bytes &&
         trace_writer_size(r->w) - r->ring.seg_base >= r->ring.bytes / 4;
}

int rec__ring_finish(struct rec *r, int ok) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s.ring", r->ring.out);
  if (ok < 0) { /* nothing was recorded */
    remove_dir(dir);
    return 0;
  }
  u32 n = r->ring.n - r->ring.first + 1;
  char **paths = calloc(n, sizeof *paths);
  RW_RETURN_IF(!paths, RW_ENOMEM, "ring");
  int rc = 0;
  for (u32 i = 0; i < n && rc == 0; i++) {
    paths[i] = malloc(4300);
    if (!paths[i]) rc = RW_ENOMEM;
    else seg_path(r, r->ring.first + i, paths[i], 4300);
  }
  struct rw_diag d = {0};
  if (rc == 0 && ok)
    rc = trace_join((const char *const *)paths, n, r->ring.out, 1, &d);
  for (u32 i = 0; i < n; i++) free(paths[i]);
  free(paths);
  if (rc < 0 || !ok) {
    if (rc < 0)
      rw_log(RW_LOG_ERROR, "cannot join the ring's segments into %s: %s; "
             "they are in %s (rewind join %s)", r->ring.out,
             d.msg[0] ? d.msg : rw_strerror(rc), dir, dir);
    return rc;
  }
  remove_dir(dir);
  return 0;
}
