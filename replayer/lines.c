/* SPDX-License-Identifier: MIT */
/* Source lines for addresses: the DWARF line tables of an ELF file the
 * trace holds as a blob, read with libdw, or of its separate debug file
 * on this machine (/usr/lib/debug/.build-id/NN/REST.debug, found by the
 * blob's build ID; $REWIND_DEBUG_DIR replaces /usr/lib/debug) when the
 * blob itself was stripped. Each table is turned
 * into address ranges [lo, hi) of one file and line, sorted, so that a
 * lookup is a binary search. The blob bytes come from the trace: libdw
 * checks what it reads, and a file it cannot read simply has no lines. */
#include <dwarf.h>
#include <errno.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replayer/rp_int.h"

/* Largest blob read whole for its line tables. */
#define LINES_BLOB_MAX (1ull << 30)

struct lrow {
  u64 lo, hi;     /* ELF virtual addresses */
  u32 file, line; /* file: offset in names */
};

struct rp__lines {
  struct lrow *rows;
  size_t n;
  char *names; /* the file paths, NUL-separated */
  size_t nnames;
};

void rp__lines_free(struct rp__lines *l) {
  if (!l) return;
  free(l->rows);
  free(l->names);
  free(l);
}

/* Collects the line tables of D into L. */
struct collect {
  struct rp__lines *l;
  size_t cap, capnames;
  struct rp__umap by_name; /* hash of a path -> its offset + 1 */
};

static int name_of(struct collect *k, const char *path, u32 *out) {
  u64 h = rp__str_hash(path);
  u32 v = rp__umap_get(&k->by_name, h);
  if (v && !strcmp(k->l->names + v - 1, path)) {
    *out = v - 1;
    return 0;
  }
  size_t len = strlen(path) + 1;
  if (k->l->nnames + len > UINT32_MAX - 1) return RW_ELIMIT;
  while (k->l->nnames + len > k->capnames) {
    size_t c = k->capnames ? 2 * k->capnames : 4096;
    char *nv = realloc(k->l->names, c);
    if (!nv) return RW_ENOMEM;
    k->l->names = nv;
    k->capnames = c;
  }
  *out = (u32)k->l->nnames;
  memcpy(k->l->names + k->l->nnames, path, len);
  k->l->nnames += len;
  if (!v) RW_FORWARD(rp__umap_put(&k->by_name, h, *out + 1));
  return 0;
}

/* The rows of one unit's table: each row not ending a sequence holds the
 * addresses up to the next row's. */
static int unit_rows(struct collect *k, Dwarf_Lines *ls, size_t n) {
  for (size_t i = 0; i + 1 < n; i++) {
    Dwarf_Line *a = dwarf_onesrcline(ls, i), *b = dwarf_onesrcline(ls, i + 1);
    Dwarf_Addr lo, hi;
    int line;
    bool end;
    if (!a || !b || dwarf_lineaddr(a, &lo) || dwarf_lineaddr(b, &hi) ||
        dwarf_lineendsequence(a, &end) || end || hi <= lo || !lo ||
        dwarf_lineno(a, &line) || line <= 0)
      continue;
    const char *path = dwarf_linesrc(a, NULL, NULL);
    if (!path) continue;
    u32 file;
    RW_FORWARD(name_of(k, path, &file));
    RW_FORWARD(rp__grow((void **)&k->l->rows, k->l->n, &k->cap,
                        sizeof *k->l->rows));
    k->l->rows[k->l->n++] = (struct lrow){lo, hi, file, (u32)line};
  }
  return 0;
}

static int by_lo(const void *x, const void *y) {
  const struct lrow *a = x, *b = y;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return a->hi < b->hi ? -1 : a->hi > b->hi;
}

/* Every unit's line table in D into a new *OUT (NULL when D has none). */
static int collect(Dwarf *d, struct rp__lines **out) {
  struct collect k = {0};
  int rc = (k.l = calloc(1, sizeof *k.l)) ? 0 : RW_ENOMEM;
  Dwarf_Off off = 0, next;
  size_t hsize;
  while (rc == 0 &&
         dwarf_nextcu(d, off, &next, &hsize, NULL, NULL, NULL) == 0) {
    Dwarf_Die die;
    Dwarf_Lines *ls;
    size_t n;
    if (dwarf_offdie(d, off + hsize, &die) &&
        dwarf_getsrclines(&die, &ls, &n) == 0)
      rc = unit_rows(&k, ls, n);
    off = next;
  }
  rp__umap_free(&k.by_name);
  if (rc == 0 && k.l->n) {
    qsort(k.l->rows, k.l->n, sizeof *k.l->rows, by_lo);
    *out = k.l;
    return 0;
  }
  rp__lines_free(k.l);
  return rc;
}

/* The line tables of the separate debug file of E (by its build ID) in
 * DIR/.build-id/NN/REST.debug, into *OUT; nothing when there is none. */
static int debug_file(Elf *e, const char *dir, size_t dirlen,
                      struct rp__lines **out) {
  const void *id;
  ssize_t n = dwelf_elf_gnu_build_id(e, &id);
  if (n < 2 || n > 64 || dirlen > 3000) return 0;
  char path[3300];
  size_t k = (size_t)snprintf(path, sizeof path, "%.*s/.build-id/%02x/",
                              (int)dirlen, dir, ((const u8 *)id)[0]);
  for (ssize_t i = 1; i < n; i++)
    k += (size_t)snprintf(path + k, sizeof path - k, "%02x",
                          ((const u8 *)id)[i]);
  snprintf(path + k, sizeof path - k, ".debug");
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  int rc = 0;
  Elf *de = elf_begin(fd, ELF_C_READ_MMAP, NULL);
  const void *did;
  /* Only the file built with this one: the same build ID. */
  if (de && dwelf_elf_gnu_build_id(de, &did) == n &&
      !memcmp(id, did, (size_t)n)) {
    Dwarf *d = dwarf_begin_elf(de, DWARF_C_READ, NULL);
    if (d) {
      rc = collect(d, out);
      dwarf_end(d);
    }
  }
  if (de) elf_end(de);
  close(fd);
  return rc;
}

/* The separate debug file of E in each directory of $REWIND_DEBUG_DIR
 * (colon-separated), or /usr/lib/debug, into *OUT. */
static int debug_dirs(Elf *e, struct rp__lines **out) {
  const char *dirs = getenv("REWIND_DEBUG_DIR");
  if (!dirs || !*dirs) dirs = "/usr/lib/debug";
  int rc = 0;
  while (rc == 0 && !*out && *dirs) {
    size_t n = strcspn(dirs, ":");
    if (n) rc = debug_file(e, dirs, n, out);
    dirs += n + (dirs[n] == ':');
  }
  return rc;
}

int rp__lines_load(rp_replay *rp, const u8 hash[32], struct rp__lines **out) {
  struct trace_blob_info bi;
  *out = NULL;
  RW_FORWARD(trace_reader_find_blob(rp->trace.tr, hash, &bi));
  if (bi.size < 64 || bi.size > LINES_BLOB_MAX) return 0;
  u8 *buf = malloc(bi.size);
  if (!buf) return RW_ENOMEM;
  i64 got = trace_reader_blob_read(rp->trace.tr, hash, 0, buf, bi.size, NULL);
  if (got != (i64)bi.size || memcmp(buf, ELFMAG, SELFMAG)) {
    free(buf);
    return got < 0 ? (int)got : 0;
  }
  elf_version(EV_CURRENT);
  int rc = 0;
  Elf *e = elf_memory((char *)buf, bi.size);
  Dwarf *d = e ? dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
  if (d) {
    rc = collect(d, out);
    dwarf_end(d);
  }
  if (rc == 0 && !*out && e) rc = debug_dirs(e, out);
  if (e) elf_end(e);
  free(buf);
  return rc;
}

int rp_lines_parse(const char *arg, char *file, size_t cap, u32 *lo,
                   u32 *hi) {
  const char *colon = strrchr(arg, ':');
  char *end = NULL;
  unsigned long long a = 0, b = 0;
  if (colon && colon > arg && colon[1] >= '0' && colon[1] <= '9') {
    errno = 0;
    a = b = strtoull(colon + 1, &end, 10);
    if (!errno && *end == '-' && end[1] >= '0' && end[1] <= '9')
      b = strtoull(end + 1, &end, 10);
  }
  if (!end || errno || *end || !a || b < a || b > UINT32_MAX ||
      (size_t)(colon - arg) >= cap)
    return RW_EINVAL;
  memcpy(file, arg, (size_t)(colon - arg));
  file[colon - arg] = 0;
  *lo = (u32)a;
  *hi = (u32)b;
  return 0;
}

int rp_src_matches(const char *path, const char *want) {
  size_t p = strlen(path), w = strlen(want);
  if (!w || w > p || strcmp(path + p - w, want)) return 0;
  return p == w || path[p - w - 1] == '/' || want[0] == '/';
}

int rp__lines_find(const struct rp__lines *l, u64 vaddr, const char **file,
                   u32 *line) {
  if (!l || !l->n) return 0;
  size_t lo = 0, hi = l->n; /* the last row starting at VADDR or below */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (l->rows[mid].lo <= vaddr) lo = mid + 1; else hi = mid;
  }
  /* Ranges of different units may nest (an inlined copy's sequence): the
   * nearest start that holds VADDR wins. */
  for (size_t i = lo, tries = 0; i-- > 0 && tries < 8; tries++)
    if (vaddr < l->rows[i].hi) {
      *file = l->names + l->rows[i].file;
      *line = l->rows[i].line;
      return 1;
    }
  return 0;
}
