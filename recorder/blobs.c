/* SPDX-License-Identifier: MIT */
/* File contents behind file-backed mappings, stored once per trace as blobs
 * (DESIGN.md section 2), unless the file is huge or mostly holes. Files are read through /proc/PID/map_files, which
 * also reaches deleted files and memfds, and remembered by device, inode,
 * size and modification time, so a library mapped in five pieces is read and
 * hashed once. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/endian.h"

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

/* ---- the blob cache ------------------------------------------------------
 * Recording the same program again stores the same large files again: a
 * 22 MB libpython is read, hashed and compressed each time, which is most
 * of what recording `python3 -c pass` costs. So the blobs of files of at
 * least REC_CACHE_MIN bytes are kept as the trace holds them (compressed)
 * in the cache directory's blobs/, one entry per file: named by a hash of
 * its key (device, inode, size, mtime, ctime and path, which a change of
 * its bytes changes), holding the key, then the blob's chunks. A file found
 * there is copied into the trace from it, not read. REWIND_CACHE=off turns
 * the cache off; it keeps at most REC_CACHE_MAX bytes, the least recently
 * used entries going first. */
#define REC_CACHE_MIN (256u << 10)
#define REC_CACHE_MAX (2ull << 30)
#define REC_CACHE_MAGIC "rwblob01"
#define REC_CACHE_HEAD (8 + 5 * 8 + 2)

/* Writes the key of the file ST at PATH to DST (REC_CACHE_HEAD + 4096
 * bytes). Returns its length. */
static size_t cache_key(u8 *dst, const struct stat *st, const char *path) {
  size_t n = strnlen(path, 4096);
  memcpy(dst, REC_CACHE_MAGIC, 8);
  wr_le64(dst + 8, (u64)st->st_dev);
  wr_le64(dst + 16, (u64)st->st_ino);
  wr_le64(dst + 24, (u64)st->st_size);
  wr_le64(dst + 32, (u64)st->st_mtim.tv_sec * 1000000000u +
                        (u64)st->st_mtim.tv_nsec);
  wr_le64(dst + 40, (u64)st->st_ctim.tv_sec * 1000000000u +
                        (u64)st->st_ctim.tv_nsec);
  wr_le16(dst + 48, (u16)n);
  memcpy(dst + REC_CACHE_HEAD, path, n);
  return REC_CACHE_HEAD + n;
}

/* The cache's directory (DIR_ONLY) or the entry of KEY. Returns 0 or a
 * negative code (no cache). */
static int cache_path(char *dst, size_t cap, const u8 *key, size_t klen,
                      int dir_only) {
  char base[4096];
  RW_FORWARD(trace_cache_dir(base, sizeof base));
  u64 h = 0xcbf29ce484222325ull; /* FNV-1a */
  for (size_t i = 0; i < klen; i++) h = (h ^ key[i]) * 0x100000001b3ull;
  int n = dir_only ? snprintf(dst, cap, "%s/blobs", base)
                   : snprintf(dst, cap, "%s/blobs/%016llx", base,
                              (unsigned long long)h);
  return n < 0 || (size_t)n >= cap ? RW_ERR(ENAMETOOLONG) : 0;
}

/* Adds the blob of the file ST at M's path from the cache. Returns 0 with
 * HASH set, or a negative code when the cache cannot give it (and a damaged
 * entry is removed). */
static int cache_get(struct rec *r, const struct rec__map *m,
                     const struct stat *st, u8 hash[32]) {
  u8 key[REC_CACHE_HEAD + 4096];
  char path[4200];
  size_t klen = cache_key(key, st, m->path);
  RW_FORWARD(cache_path(path, sizeof path, key, klen, 0));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return RW_ENOTFOUND;
  struct stat cs;
  u8 *img = NULL;
  int rc = RW_ECORRUPT;
  /* Compressed, an entry is smaller than its file, and a blob's chunks
   * add less than a page to it. */
  if (fstat(fd, &cs) == 0 && (u64)cs.st_size > klen &&
      (u64)cs.st_size <= (u64)st->st_size + klen + (1u << 20) &&
      (img = malloc((size_t)cs.st_size)) != NULL &&
      pread(fd, img, (size_t)cs.st_size, 0) == cs.st_size &&
      !memcmp(img, key, klen)) {
    u64 size = 0;
    rc = trace_writer_add_blob_image(r->w, img + klen,
                                     (size_t)cs.st_size - klen, hash, &size);
    if (rc == 0 && size != (u64)st->st_size) rc = RW_ECORRUPT;
    if (rc == 0) (void)futimens(fd, NULL); /* used now: kept longer */
  }
  free(img);
  close(fd);
  if (rc == RW_ECORRUPT) {
    rw_log(RW_LOG_DEBUG, "blob cache: %s is damaged; removed", path);
    unlink(path);
  }
  return rc;
}

/* Remembers that the blob HASH of ST at M's path goes into the cache. */
static void cache_later(struct rec *r, const struct rec__map *m,
                        const struct stat *st, const u8 hash[32]) {
  u8 key[REC_CACHE_HEAD + 4096];
  char dir[4096];
  if (trace_cache_dir(dir, sizeof dir) < 0) return; /* no cache */
  if (r->ncpend == r->capcpend) {
    size_t cap = r->capcpend ? r->capcpend * 2 : 16;
    struct rec__cached *v = realloc(r->cpend, cap * sizeof *v);
    if (!v) return;
    r->cpend = v;
    r->capcpend = cap;
  }
  size_t klen = cache_key(key, st, m->path);
  struct rec__cached *c = &r->cpend[r->ncpend];
  c->key = malloc(klen);
  if (!c->key) return;
  memcpy(c->key, key, klen);
  c->klen = klen;
  memcpy(c->hash, hash, 32);
  r->ncpend++;
}

void rec__cache_trim(const char *dir, u64 max) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct ent {
    char name[64];
    u64 size, mtime;
  } *v = NULL;
  size_t n = 0, cap = 0;
  u64 total = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    struct stat st;
    if (e->d_name[0] == '.' || strlen(e->d_name) >= 64 ||
        fstatat(dirfd(d), e->d_name, &st, 0) < 0 || !S_ISREG(st.st_mode))
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      struct ent *nv = realloc(v, cap * sizeof *nv);
      if (!nv) break;
      v = nv;
    }
    snprintf(v[n].name, sizeof v[n].name, "%s", e->d_name);
    v[n].size = (u64)st.st_size;
    v[n].mtime = (u64)st.st_mtim.tv_sec;
    total += v[n++].size;
  }
  while (total > max && n) {
    size_t old = 0;
    for (size_t i = 1; i < n; i++)
      if (v[i].mtime < v[old].mtime) old = i;
    unlinkat(dirfd(d), v[old].name, 0);
    total -= v[old].size;
    v[old] = v[--n];
  }
  free(v);
  closedir(d);
}

void rec__blob_cache_save(struct rec *r, const char *path) {
  char dir[4200], file[4300], tmp[4400];
  trace_reader *tr = NULL;
  if (path && r->ncpend && cache_path(dir, sizeof dir, NULL, 0, 1) == 0 &&
      trace_mkdirs(dir, 0700) == 0 && trace_reader_open(&tr, path, NULL) == 0) {
    for (size_t i = 0; i < r->ncpend; i++) {
      struct rec__cached *c = &r->cpend[i];
      u8 *img;
      size_t len;
      if (cache_path(file, sizeof file, c->key, c->klen, 0) < 0 ||
          trace_reader_blob_image(tr, c->hash, &img, &len) < 0)
        continue;
      /* Written whole under another name first: a reader never sees half
       * an entry. */
      snprintf(tmp, sizeof tmp, "%s.%d.tmp", file, (int)getpid());
      int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      int ok = fd >= 0 && write(fd, c->key, c->klen) == (ssize_t)c->klen &&
               write(fd, img, len) == (ssize_t)len;
      if (fd >= 0 && close(fd) < 0) ok = 0;
      if (!ok || rename(tmp, file) < 0) unlink(tmp);
      free(img);
    }
    trace_reader_close(tr);
    rec__cache_trim(dir, REC_CACHE_MAX);
  }
  for (size_t i = 0; i < r->ncpend; i++) free(r->cpend[i].key);
  free(r->cpend);
  r->cpend = NULL;
  r->ncpend = r->capcpend = 0;
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

/* Enters the blob HASH of the file ST as stored in the trace. */
static int remember(struct rec *r, const struct stat *st, u64 mtime,
                    const u8 hash[32], size_t *size) {
  if (r->nblobs == r->capblobs) {
    size_t cap = r->capblobs ? r->capblobs * 2 : 32;
    struct rec__blob *v = realloc(r->blobs, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "blob table");
    r->blobs = v;
    r->capblobs = cap;
  }
  struct rec__blob *nb = &r->blobs[r->nblobs++];
  nb->dev = (u64)st->st_dev;
  nb->ino = st->st_ino;
  nb->size = (u64)st->st_size;
  nb->mtime_ns = mtime;
  memcpy(nb->hash, hash, 32);
  if (size) *size = (size_t)st->st_size;
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
  for (size_t i = r->blob_base; i < r->nblobs && !fresh; i++)
    if (r->blobs[i].dev == (u64)st.st_dev && r->blobs[i].ino == st.st_ino &&
        r->blobs[i].size == (u64)st.st_size && r->blobs[i].mtime_ns == mtime)
      b = &r->blobs[i];
  if (b) {
    close(fd);
    memcpy(hash, b->hash, 32);
    if (size) *size = b->size;
    return 0;
  }
  int cached = st.st_size >= REC_CACHE_MIN && !fresh;
  if (cached && cache_get(r, m, &st, hash) == 0) {
    close(fd);
    return remember(r, &st, mtime, hash, size);
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
  if (rc == 0) rc = trace_writer_add_blob(r->w, m->path, buf, n, hash);
  free(buf);
  if (rc == 0 && cached) cache_later(r, m, &st, hash);
  return rc < 0 ? rc : remember(r, &st, mtime, hash, size);
}
