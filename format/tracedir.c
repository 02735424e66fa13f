/* SPDX-License-Identifier: MIT */
/* The trace directory: where `rewind record` puts traces when no -o is
 * given, the `latest-trace` link to the newest recording, and how a name
 * the user types (a path, a name in the directory, or nothing at all) is
 * turned into a trace file. It knows file names only; what is inside a
 * trace is the reader's business. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/format.h"

#define LATEST "latest-trace"

int trace_mkdirs(const char *dir, mode_t mode) {
  char p[PATH_MAX];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof p) return RW_ERR(ENAMETOOLONG);
  memcpy(p, dir, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (p[i] != '/' && p[i] != 0) continue;
    char c = p[i];
    p[i] = 0;
    if (mkdir(p, mode) < 0 && errno != EEXIST) return RW_ERR(errno);
    p[i] = c;
  }
  struct stat st;
  if (stat(dir, &st) < 0) return RW_ERR(errno);
  return S_ISDIR(st.st_mode) ? 0 : RW_ERR(ENOTDIR);
}

int trace_dir(char *dst, size_t cap, int create) {
  const char *env = getenv("REWIND_TRACE_DIR");
  const char *xdg = getenv("XDG_DATA_HOME");
  const char *home = getenv("HOME");
  int n;
  if (env && *env)
    n = snprintf(dst, cap, "%s", env);
  else if (xdg && xdg[0] == '/')
    n = snprintf(dst, cap, "%s/rewind", xdg);
  else if (home && *home)
    n = snprintf(dst, cap, "%s/.local/share/rewind", home);
  else
    return RW_ENOTFOUND;
  if (n < 0 || (size_t)n >= cap) return RW_ERR(ENAMETOOLONG);
  while (n > 1 && dst[n - 1] == '/') dst[--n] = 0;
  return create ? trace_mkdirs(dst, 0700) : 0;
}

int trace_cache_dir(char *dst, size_t cap) {
  const char *env = getenv("REWIND_CACHE");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  int n;
  if (env && !strcmp(env, "off")) return RW_ENOTFOUND;
  if (env && env[0] == '/')
    n = snprintf(dst, cap, "%s", env);
  else if (xdg && xdg[0] == '/')
    n = snprintf(dst, cap, "%s/rewind", xdg);
  else if (home && home[0] == '/')
    n = snprintf(dst, cap, "%s/.cache/rewind", home);
  else
    return RW_ENOTFOUND;
  return n < 0 || (size_t)n >= cap ? RW_ERR(ENAMETOOLONG) : 0;
}

int trace_dir_set_latest(const char *path) {
  char dir[PATH_MAX], link[PATH_MAX + 32], tmp[PATH_MAX + 48];
  char target[PATH_MAX];
  RW_FORWARD(trace_dir(dir, sizeof dir, 1));
  /* A trace inside the directory is linked by its name, so that the
   * directory can be moved; any other by its absolute path. */
  if (realpath(path, target) == NULL) return RW_ERR(errno);
  char rdir[PATH_MAX];
  if (realpath(dir, rdir) == NULL) return RW_ERR(errno);
  size_t dn = strlen(rdir);
  const char *t = target;
  if (!strncmp(target, rdir, dn) && target[dn] == '/' &&
      !strchr(target + dn + 1, '/'))
    t = target + dn + 1;
  snprintf(link, sizeof link, "%s/" LATEST, dir);
  snprintf(tmp, sizeof tmp, "%s/." LATEST ".%ld", dir, (long)getpid());
  unlink(tmp);
  if (symlink(t, tmp) < 0) return RW_ERR(errno);
  if (rename(tmp, link) < 0) {
    int e = errno;
    unlink(tmp);
    return RW_ERR(e);
  }
  return 0;
}

int trace_dir_latest(char *dst, size_t cap) {
  char dir[PATH_MAX], link[PATH_MAX + 32], target[PATH_MAX];
  RW_FORWARD(trace_dir(dir, sizeof dir, 0));
  snprintf(link, sizeof link, "%s/" LATEST, dir);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n < 0) return errno == ENOENT ? RW_ENOTFOUND : RW_ERR(errno);
  target[n] = 0;
  int w = target[0] == '/' ? snprintf(dst, cap, "%s", target)
                           : snprintf(dst, cap, "%s/%s", dir, target);
  if (w < 0 || (size_t)w >= cap) return RW_ERR(ENAMETOOLONG);
  return 0;
}

static int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

int trace_dir_resolve(const char *name, char *dst, size_t cap,
                      struct rw_diag *diag) {
  char dir[PATH_MAX];
  int rc;
  if (!name || !*name) {
    rc = trace_dir_latest(dst, cap);
    if (rc == RW_ENOTFOUND) {
      if (trace_dir(dir, sizeof dir, 0) < 0) snprintf(dir, sizeof dir, "?");
      return rw_diag_set(diag, rc, 0,
                         "no trace given, and no latest trace in %s "
                         "(record one with: rewind record PROG)",
                         dir);
    }
    if (rc < 0)
      return rw_diag_set(diag, rc, 0, "the latest trace: %s",
                         rw_strerror(rc));
    if (!exists(dst))
      return rw_diag_set(diag, RW_ENOTFOUND, 0,
                         "the latest trace %s no longer exists", dst);
    return 0;
  }
  /* A name that exists as given, or that names a path, is taken as it is:
   * the caller's open reports what is wrong with it. */
  if (exists(name) || strchr(name, '/') || trace_dir(dir, sizeof dir, 0) < 0) {
    if ((size_t)snprintf(dst, cap, "%s", name) >= cap)
      return rw_diag_set(diag, RW_ERR(ENAMETOOLONG), 0, "name too long");
    return 0;
  }
  if (!strcmp(name, LATEST) || !strcmp(name, "latest"))
    return trace_dir_resolve(NULL, dst, cap, diag);
  for (int ext = 0; ext < 2; ext++) {
    int w = snprintf(dst, cap, "%s/%s%s", dir, name, ext ? ".rwd" : "");
    if (w > 0 && (size_t)w < cap && exists(dst)) return 0;
  }
  snprintf(dst, cap, "%s", name);
  return rw_diag_set(diag, RW_ENOTFOUND, 0,
                     "no trace %s here or in %s (rewind ls lists them)", name,
                     dir);
}

static int by_mtime(const void *a, const void *b) {
  const struct trace_dir_entry *x = a, *y = b;
  if (x->mtime_ns != y->mtime_ns) return x->mtime_ns < y->mtime_ns ? -1 : 1;
  return strcmp(x->name, y->name);
}

int trace_dir_list(struct trace_dir_entry **out, size_t *n) {
  char dir[PATH_MAX], latest[PATH_MAX], path[PATH_MAX + 256];
  struct trace_dir_entry *v = NULL;
  size_t cnt = 0, capn = 0;
  *out = NULL;
  *n = 0;
  RW_FORWARD(trace_dir(dir, sizeof dir, 0));
  if (trace_dir_latest(latest, sizeof latest) < 0) latest[0] = 0;
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT ? 0 : RW_ERR(errno);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".rwd") ||
        len >= sizeof v->name)
      continue;
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) continue;
    if (cnt == capn) {
      size_t nc = capn ? capn * 2 : 16;
      struct trace_dir_entry *nv = realloc(v, nc * sizeof *v);
      if (!nv) {
        closedir(d);
        free(v);
        return RW_ENOMEM;
      }
      v = nv;
      capn = nc;
    }
    struct trace_dir_entry *t = &v[cnt++];
    memset(t, 0, sizeof *t);
    memcpy(t->name, e->d_name, len + 1);
    snprintf(t->path, sizeof t->path, "%s", path);
    t->size = (u64)st.st_size;
    t->mtime_ns = (u64)st.st_mtim.tv_sec * 1000000000u + (u64)st.st_mtim.tv_nsec;
    char a[PATH_MAX], b[PATH_MAX];
    t->latest = latest[0] && realpath(latest, a) && realpath(path, b) &&
                !strcmp(a, b);
  }
  closedir(d);
  if (cnt) qsort(v, cnt, sizeof *v, by_mtime);
  *out = v;
  *n = cnt;
  return 0;
}

int trace_dir_remove(const char *path) {
  char latest[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
  int was_latest = trace_dir_latest(latest, sizeof latest) == 0 &&
                   realpath(latest, a) && realpath(path, b) && !strcmp(a, b);
  if (unlink(path) < 0) return RW_ERR(errno);
  /* Its index (rewind index) goes with it. */
  char idx[PATH_MAX + 8];
  snprintf(idx, sizeof idx, "%s.idx", path);
  unlink(idx);
  if (!was_latest) return 0;
  /* The latest link now points at the newest trace left, if any. */
  struct trace_dir_entry *v;
  size_t n;
  char dir[PATH_MAX], link[PATH_MAX + 32];
  if (trace_dir(dir, sizeof dir, 0) == 0) {
    snprintf(link, sizeof link, "%s/" LATEST, dir);
    unlink(link);
  }
  int rc = 0;
  if (trace_dir_list(&v, &n) < 0) return 0;
  for (size_t i = n; i-- > 0;) {
    trace_reader *r;
    if (trace_reader_open(&r, v[i].path, NULL) < 0) continue; /* not one */
    trace_reader_close(r);
    rc = trace_dir_set_latest(v[i].path);
    break;
  }
  free(v);
  return rc;
}
