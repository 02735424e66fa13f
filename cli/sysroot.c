/* SPDX-License-Identifier: MIT */
/* The files of a trace on the local disk, for the gdb `rewind replay`
 * starts: gdb reads the program, its libraries and their symbols through
 * the remote protocol (vFile, served from the trace) several times more
 * slowly than from disk (a short session on python3: 13 s against 4 s),
 * so every file the trace holds under an absolute path is written once
 * into a directory of the cache and gdb's sysroot points there. The
 * directory is named after the files (their paths and contents), so
 * traces of the same programs share one, and a second session writes
 * nothing. gdb finds a library asked for under another name (a symlinked
 * directory, a soname) by its last component in .by-name, its
 * solib-search-path. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "format/format.h"

#define BYNAME ".by-name"

/* Whether NAME is an absolute path that stays inside a directory it is
 * appended to: no empty, "." or ".." component, not under .by-name. */
static int safe_name(const char *name) {
  if (name[0] != '/' || !name[1]) return 0;
  for (const char *p = name; *p;) {
    const char *c = p + 1, *e = strchr(c, '/');
    size_t n = e ? (size_t)(e - c) : strlen(c);
    if (n == 0 || (n == 1 && c[0] == '.') ||
        (n == 2 && c[0] == '.' && c[1] == '.'))
      return 0;
    if (p == name && n == strlen(BYNAME) && !strncmp(c, BYNAME, n)) return 0;
    p = c + n;
  }
  return 1;
}

/* 64-bit FNV-1a of N bytes at P into *H. */
static void fnv(u64 *h, const void *p, size_t n) {
  const u8 *b = p;
  for (size_t i = 0; i < n; i++) *h = (*h ^ b[i]) * 0x100000001b3ull;
}

/* Writes blob BI of TR to PATH (through a temporary name, so that a
 * session running at the same time never sees half a file). */
static int write_blob(trace_reader *tr, const struct trace_blob_info *bi,
                      const char *path) {
  char tmp[PATH_MAX * 2 + 32];
  static u8 buf[1 << 20];
  struct rw_diag diag = {0};
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  for (u64 off = 0; off < bi->size;) {
    i64 got = trace_reader_blob_read(tr, bi->hash, off, buf, sizeof buf,
                                     &diag);
    if (got <= 0 || fwrite(buf, 1, (size_t)got, f) != (size_t)got) {
      fclose(f);
      unlink(tmp);
      return -1;
    }
    off += (u64)got;
  }
  if (fclose(f) || chmod(tmp, 0755) || rename(tmp, path)) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* .by-name/ALIAS -> the file at PATH, unless ALIAS is taken. */
static void alias(const char *root, const char *alias_name, const char *path) {
  char link[PATH_MAX * 3 + 64];
  snprintf(link, sizeof link, "%s/" BYNAME "/%s", root, alias_name);
  if (symlink(path, link) < 0 && errno != EEXIST) return;
}

/* The names a library's file answers to: its last component, and for a
 * versioned one ("libasan.so.8.0.0") the shorter versions ("libasan.so.8.0",
 * "libasan.so.8"), which is how the dynamic linker names it. */
static void aliases(const char *root, const char *path) {
  char b[NAME_MAX + 1];
  snprintf(b, sizeof b, "%s", cli_base_name(path));
  alias(root, b, path);
  char *so = strstr(b, ".so.");
  if (!so) return;
  for (char *d; (d = strrchr(so + 3, '.')) != NULL;) {
    *d = 0;
    alias(root, b, path);
  }
}

/* Whether a blob before blob I of TR has the name NAME (a file that
 * changed while recorded: the first version is the one written). */
static int seen_before(trace_reader *tr, size_t i, const char *name) {
  struct trace_blob_info bi;
  for (size_t j = 0; j < i; j++)
    if (trace_reader_blob_info(tr, j, &bi) == 0 && bi.name &&
        !strcmp(bi.name, name))
      return 1;
  return 0;
}

int cli_sysroot(const char *trace, char *dir, size_t cap) {
  char base[PATH_MAX], path[PATH_MAX * 2];
  trace_reader *tr;
  struct trace_blob_info bi;
  u64 key = 0xcbf29ce484222325ull;
  int rc = -1;
  if (trace_cache_dir(base, sizeof base) < 0) return -1;
  if (trace_reader_open(&tr, trace, NULL) < 0) return -1;
  size_t n = trace_reader_nblobs(tr);
  for (size_t i = 0; i < n; i++) {
    if (trace_reader_blob_info(tr, i, &bi) < 0 || !bi.name ||
        !safe_name(bi.name))
      continue;
    fnv(&key, bi.name, strlen(bi.name) + 1);
    fnv(&key, bi.hash, sizeof bi.hash);
  }
  int w = snprintf(dir, cap, "%s/sysroot/%016llx", base,
                   (unsigned long long)key);
  if (w < 0 || (size_t)w >= cap) goto out;
  snprintf(path, sizeof path, "%s/" BYNAME, dir);
  if (trace_mkdirs(path, 0700) < 0) goto out;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (trace_reader_blob_info(tr, i, &bi) < 0 || !bi.name ||
        !safe_name(bi.name) || seen_before(tr, i, bi.name))
      continue;
    w = snprintf(path, sizeof path, "%s%s", dir, bi.name);
    if (w < 0 || (size_t)w >= sizeof path) continue;
    if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
        (u64)st.st_size != bi.size) {
      /* a first session, or one cut short: (re)write it */
      char *slash = strrchr(path, '/');
      *slash = 0;
      int made = trace_mkdirs(path, 0700);
      *slash = '/';
      if (made < 0 || write_blob(tr, &bi, path) < 0) continue;
    }
    aliases(dir, path);
  }
  rc = 0;
out:
  trace_reader_close(tr);
  return rc;
}
