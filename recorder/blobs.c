/* SPDX-License-Identifier: MIT */
/* File contents behind file-backed mappings, stored once per trace as blobs
 * (DESIGN.md section 2), unless the file is huge or mostly holes. Files are read through /proc/PID/map_files, which
 * also reaches deleted files and memfds, and remembered by device, inode,
 * size and modification time, so a library mapped in five pieces is read and
 * hashed once. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/rec_int.h"

/* Files larger than this are not embedded; their pages become MEM records. */
#define REC_BLOB_MAX (4ull << 30)
/* Nor are files of at least this size that are mostly holes (a memfd
 * sized for the worst case, a sparse database): embedding reads, hashes
 * and stores every byte of the holes; imports cost what is data. */
#define REC_SPARSE_MIN (16ull << 20)

struct data_count {
  u64 data, size;
};

/* Counts data bytes; gives up with RW_ELIMIT once half the file is. */
static int count_data(void *ctx, u64 a, u64 b) {
  struct data_count *c = ctx;
  c->data += b - a;
  return c->data * 2 >= c->size ? RW_ELIMIT : 0;
}

/* 1 when FD (SIZE bytes) is not to be embedded. */
static int too_big(int fd, u64 size) {
  if (size > REC_BLOB_MAX) return 1;
  if (size < REC_SPARSE_MIN) return 0;
  struct data_count c = {0, size};
  return rec__file_data(fd, 0, size, count_data, &c) == 0;
}

static int read_all(int fd, u8 *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(fd, p + got, n - got, (off_t)got);
    if (k < 0 && errno == EINTR) continue;
    RW_RETURN_IF(k < 0, RW_ERR(errno), "read file");
    if (k == 0) break; /* shrank meanwhile: the rest stays zero */
    got += (size_t)k;
  }
  return 0;
}

/* Opens the file behind M: through map_files, which also reaches deleted
 * files and memfds, else by its path. Returns the fd or a negative code. */
static int open_mapped(const struct rec *r, const struct rec__map *m) {
  char mf[128];
  snprintf(mf, sizeof mf, "/proc/%d/map_files/%llx-%llx", (int)r->proc->live,
           (unsigned long long)m->start, (unsigned long long)m->end);
  int fd = open(mf, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fd = open(m->path, O_RDONLY | O_CLOEXEC);
  RW_RETURN_IF(fd < 0, RW_ERR(errno), "open %s", m->path);
  return fd;
}

int rec__blob_range(struct rec *r, const struct rec__map *m, u64 off,
                    u8 *buf, size_t len) {
  int fd = open_mapped(r, m);
  if (fd < 0) return fd;
  memset(buf, 0, len);
  size_t got = 0;
  int rc = 0;
  while (got < len) {
    ssize_t k = pread(fd, buf + got, len - got, (off_t)(off + got));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) rc = RW_ERR(errno);
    if (k <= 0) break; /* past the end: zero */
    got += (size_t)k;
  }
  close(fd);
  RW_RETURN_IF(rc < 0, rc, "read %s", m->path);
  return 0;
}

int rec__blob_get(struct rec *r, const struct rec__map *m, u8 hash[32],
                  size_t *size) {
  struct stat st;
  int fd = open_mapped(r, m);
  if (fd < 0) return fd;
  if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return RW_EUNSUPPORTED;
  }
  if (too_big(fd, (u64)st.st_size)) {
    close(fd);
    return RW_ELIMIT;
  }
  u64 mtime = (u64)st.st_mtim.tv_sec * 1000000000u + (u64)st.st_mtim.tv_nsec;
  struct rec__blob *b = NULL;
  /* A file changed through a shared mapping may keep its mtime: read it. */
  int fresh = rec__obj_dirty(r, &st);
  for (size_t i = 0; i < r->nblobs && !fresh; i++)
    if (r->blobs[i].dev == (u64)st.st_dev && r->blobs[i].ino == st.st_ino &&
        r->blobs[i].size == (u64)st.st_size && r->blobs[i].mtime_ns == mtime)
      b = &r->blobs[i];
  if (b) {
    close(fd);
    memcpy(hash, b->hash, 32);
    if (size) *size = b->size;
    return 0;
  }
  size_t n = (size_t)st.st_size;
  u8 *buf = malloc(n ? n : 1);
  if (!buf) {
    close(fd);
    return RW_ENOMEM;
  }
  memset(buf, 0, n);
  int rc = read_all(fd, buf, n);
  close(fd);
  if (rc == 0) {
    rc = trace_writer_add_blob(r->w, m->path, buf, n, hash);
    if (rc == 0 && r->nblobs == r->capblobs) {
      size_t cap = r->capblobs ? r->capblobs * 2 : 32;
      struct rec__blob *v = realloc(r->blobs, cap * sizeof *v);
      if (!v) rc = RW_ENOMEM;
      else r->blobs = v, r->capblobs = cap;
    }
    if (rc == 0) {
      struct rec__blob *nb = &r->blobs[r->nblobs++];
      nb->dev = (u64)st.st_dev;
      nb->ino = st.st_ino;
      nb->size = (u64)st.st_size;
      nb->mtime_ns = mtime;
      memcpy(nb->hash, hash, 32);
    }
  }
  free(buf);
  if (rc == 0 && size) *size = n;
  return rc;
}
