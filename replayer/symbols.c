/* SPDX-License-Identifier: MIT */
/* Function names for addresses, from the ELF files embedded in the trace as
 * blobs: the symbol table (or the dynamic one) of the file mapped at an
 * address, read once per blob and kept sorted. The blob bytes come from the
 * trace, so every header, count and offset is checked against the blob's
 * size before use; a file that is not ELF simply has no symbols. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

struct rp__fn {
  u64 start, size; /* ELF virtual address and size */
  u32 name;        /* offset in the string table */
};

struct rp__seg {
  u64 offset, vaddr, filesz;
};

struct rp__sym {
  u8 hash[32];
  struct rp__fn *fns;
  size_t nfns;
  char *strs;
  size_t nstrs;
  struct rp__seg segs[16];
  size_t nsegs;
  struct rp__lines *lines; /* its source lines (replayer/lines.c); owned */
  int lines_read;          /* 1: lines loaded (or found absent) */
};

#define RP_MAX_SYMS (4u << 20)
#define RP_MAX_STRS (64u << 20)

void rp__syms_free(rp_replay *rp) {
  for (size_t i = 0; i < rp->root.nsyms; i++) {
    free(rp->root.syms[i].fns);
    free(rp->root.syms[i].strs);
    rp__lines_free(rp->root.syms[i].lines);
  }
  free(rp->root.syms);
  rp->root.syms = NULL;
  rp->root.nsyms = 0;
}

static int blob_read(rp_replay *rp, const u8 hash[32], u64 off, void *dst,
                     size_t len) {
  i64 got = trace_reader_blob_read(rp->trace.tr, hash, off, dst, len, NULL);
  return got == (i64)len ? 0 : RW_ECORRUPT;
}

static int cmp_fn(const void *a, const void *b) {
  const struct rp__fn *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* Reads the symbol table of section SH (a SYMTAB or DYNSYM header) and its
 * string table into S. */
static int load_table(rp_replay *rp, struct rp__sym *s, const u8 *shdrs,
                      u16 shnum, const u8 *sh, u64 size) {
  u64 off = rd_le64(sh + 24), bytes = rd_le64(sh + 32);
  u32 link = rd_le32(sh + 40);
  RW_RETURN_IF(link >= shnum || off > size || bytes > size - off,
               RW_ECORRUPT, "symtab");
  const u8 *st = shdrs + 64 * link;
  u64 soff = rd_le64(st + 24), sbytes = rd_le64(st + 32);
  RW_RETURN_IF(soff > size || sbytes > size - soff || sbytes > RP_MAX_STRS,
               RW_ECORRUPT, "strtab");
  size_t n = (size_t)(bytes / 24);
  RW_RETURN_IF(n > RP_MAX_SYMS, RW_ELIMIT, "too many symbols");
  u8 *raw = malloc(n * 24 + 1);
  s->strs = malloc(sbytes + 1);
  s->fns = calloc(n + 1, sizeof *s->fns);
  int rc = raw && s->strs && s->fns ? 0 : RW_ENOMEM;
  if (rc == 0) rc = blob_read(rp, s->hash, off, raw, n * 24);
  if (rc == 0) rc = blob_read(rp, s->hash, soff, s->strs, sbytes);
  if (rc == 0) {
    s->strs[sbytes] = 0;
    s->nstrs = sbytes;
    for (size_t i = 0; i < n; i++) {
      const u8 *e = raw + 24 * i;
      u32 name = rd_le32(e);
      u8 type = e[4] & 0xf;
      u64 value = rd_le64(e + 8), sz = rd_le64(e + 16);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !value ||
          name >= sbytes)
        continue;
      s->fns[s->nfns++] = (struct rp__fn){value, sz, name};
    }
    qsort(s->fns, s->nfns, sizeof *s->fns, cmp_fn);
  }
  free(raw);
  return rc;
}

/* Loads the symbols of blob HASH into S (empty when it is not ELF). */
static int load(rp_replay *rp, struct rp__sym *s) {
  u8 eh[64];
  struct trace_blob_info bi;
  RW_FORWARD(trace_reader_find_blob(rp->trace.tr, s->hash, &bi));
  if (bi.size < 64 || blob_read(rp, s->hash, 0, eh, 64) < 0) return 0;
  if (memcmp(eh, ELFMAG, SELFMAG) || eh[EI_CLASS] != ELFCLASS64) return 0;
  u64 phoff = rd_le64(eh + 32), shoff = rd_le64(eh + 40);
  u16 phnum = rd_le16(eh + 56), shnum = rd_le16(eh + 60);
  if (phoff < bi.size && (u64)phnum * 56 <= bi.size - phoff && phnum < 256) {
    u8 ph[56];
    for (u16 i = 0; i < phnum && s->nsegs < RW_ARRAY_SIZE(s->segs); i++) {
      if (blob_read(rp, s->hash, phoff + 56u * i, ph, 56) < 0) break;
      if (rd_le32(ph) != PT_LOAD) continue;
      s->segs[s->nsegs++] = (struct rp__seg){rd_le64(ph + 8), rd_le64(ph + 16),
                                             rd_le64(ph + 32)};
    }
  }
  if (!shoff || shoff >= bi.size || (u64)shnum * 64 > bi.size - shoff ||
      shnum == 0 || shnum > 4096)
    return 0;
  u8 *shdrs = malloc((size_t)shnum * 64);
  RW_RETURN_IF(!shdrs, RW_ENOMEM, "section headers");
  int rc = blob_read(rp, s->hash, shoff, shdrs, (size_t)shnum * 64);
  const u8 *best = NULL;
  for (u16 i = 0; rc == 0 && i < shnum; i++) {
    u32 type = rd_le32(shdrs + 64 * i + 4);
    if (type == SHT_SYMTAB) best = shdrs + 64 * i;
    if (type == SHT_DYNSYM && !best) best = shdrs + 64 * i;
  }
  if (rc == 0 && best) rc = load_table(rp, s, shdrs, shnum, best, bi.size);
  free(shdrs);
  if (rc == RW_ECORRUPT || rc == RW_ELIMIT) rc = 0; /* no symbols */
  return rc;
}

static struct rp__sym *syms_for(rp_replay *rp, const u8 hash[32]) {
  for (size_t i = 0; i < rp->root.nsyms; i++)
    if (!memcmp(rp->root.syms[i].hash, hash, 32)) return &rp->root.syms[i];
  struct rp__sym *v =
      realloc(rp->root.syms, (rp->root.nsyms + 1) * sizeof *v);
  if (!v) return NULL;
  rp->root.syms = v;
  struct rp__sym *s = &v[rp->root.nsyms++];
  memset(s, 0, sizeof *s);
  memcpy(s->hash, hash, 32);
  if (load(rp, s) < 0) {
    free(s->fns);
    free(s->strs);
    s->fns = NULL;
    s->strs = NULL;
    s->nfns = 0;
  }
  return s;
}

/* What is at ADDR in the process of the current position: *BASE the file
 * name of the mapping (NULL: none, or anonymous memory), *FOFF the offset
 * into the file, and when the file's symbols know it, *NAME the function
 * holding it, *OFF the offset into that function and *SIZE the function's
 * size (0: not given, so the function is assumed to reach the next
 * symbol); otherwise *NAME is NULL and *OFF is *FOFF. *VADDR_OUT (may be
 * NULL) gets the file's ELF virtual address of ADDR (~0 when no segment
 * of the file holds it). Returns 0, RW_ENOTFOUND or RW_ENOMEM. */
static int lookup(rp_replay *rp, u64 addr, const char **base,
                  const char **name, u64 *off_out, u64 *foff, u64 *size,
                  u64 *vaddr_out) {
  /* The mappings of the process at this point of the history (a child's,
   * after its exec, are not the root's); the tables are cached for all. */
  const struct rp__srcs *v = &rp->proc->srcs;
  const struct rp__src *src = NULL;
  *base = *name = NULL;
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i].start <= addr && addr < v->v[i].end) src = &v->v[i];
  if (!src) return RW_ENOTFOUND;
  static const u8 zero[32];
  if (!memcmp(src->hash, zero, 32)) return RW_ENOTFOUND;
  struct rp__sym *s = syms_for(rp, src->hash);
  if (!s) return RW_ENOMEM;
  u64 off = src->offset + (addr - src->start), vaddr = 0;
  int found = 0;
  for (size_t i = 0; i < s->nsegs; i++)
    if (off >= s->segs[i].offset &&
        off - s->segs[i].offset < s->segs[i].filesz) {
      vaddr = s->segs[i].vaddr + (off - s->segs[i].offset);
      found = 1;
      break;
    }
  const char *slash = strrchr(src->path, '/');
  *base = slash ? slash + 1 : src->path;
  *off_out = *foff = off;
  *size = 0;
  if (vaddr_out) *vaddr_out = found ? vaddr : ~0ull;
  if (found && s->nfns) {
    size_t lo = 0, hi = s->nfns;
    while (hi - lo > 1) {
      size_t mid = (lo + hi) / 2;
      if (s->fns[mid].start <= vaddr) lo = mid; else hi = mid;
    }
    const struct rp__fn *f = &s->fns[lo];
    if (f->start <= vaddr && (vaddr - f->start < f->size || !f->size)) {
      *name = s->strs + f->name;
      *off_out = vaddr - f->start;
      *size = f->size;
    }
  }
  return 0;
}

int rp_symbolize(rp_replay *rp, u64 addr, char *dst, size_t cap) {
  const char *base, *name;
  u64 off, foff, size;
  RW_FORWARD(lookup(rp, addr, &base, &name, &off, &foff, &size, NULL));
  snprintf(dst, cap, "%s+0x%llx", name ? name : base,
           (unsigned long long)off);
  return 0;
}

void rp__fn_name(rp_replay *rp, u64 addr, char *name, size_t ncap,
                 char *object, size_t ocap) {
  const char *base = NULL, *fn = NULL;
  u64 off = 0, foff = 0, size = 0;
  int rc = lookup(rp, addr, &base, &fn, &off, &foff, &size, NULL);
  snprintf(object, ocap, "%s", base ? base : "?");
  /* Past a symbol of unknown size (_init, before the PLT) is not that
   * function: the file offset says more. */
  if (rc == 0 && fn && (size || !off))
    snprintf(name, ncap, "%s", fn);
  else if (rc == 0)
    snprintf(name, ncap, "%s+0x%llx", base, (unsigned long long)foff);
  else
    snprintf(name, ncap, "0x%llx", (unsigned long long)addr);
}

int rp__fn_span(rp_replay *rp, u64 addr, u64 *start, u64 *size) {
  const char *base = NULL, *fn = NULL;
  u64 off = 0, foff = 0, sz = 0;
  if (lookup(rp, addr, &base, &fn, &off, &foff, &sz, NULL) < 0 || !fn || !sz)
    return 0;
  *start = addr - off;
  *size = sz;
  return 1;
}

int rp__elf_vaddr(rp_replay *rp, u64 addr, u64 *vaddr) {
  const char *base = NULL, *fn = NULL;
  u64 off = 0, foff = 0, size = 0;
  return lookup(rp, addr, &base, &fn, &off, &foff, &size, vaddr) == 0 &&
         *vaddr != ~0ull;
}

int rp_mark_where(rp_replay *rp, const struct rp_mark *m, u64 *lo, u64 *hi) {
  if (!m->function && !m->object) {
    *lo = m->addr;
    *hi = m->addr + m->len;
    return *hi > *lo ? 0 : RW_EINVAL;
  }
  static const u8 zero[32];
  const struct rp__srcs *v = &rp->user.proc->srcs;
  for (size_t i = 0; i < v->n; i++) {
    const struct rp__src *src = &v->v[i];
    const char *slash = strrchr(src->path, '/');
    const char *base = slash ? slash + 1 : src->path;
    if (!memcmp(src->hash, zero, 32) ||
        (m->object && strcmp(base, m->object)))
      continue;
    struct rp__sym *s = syms_for(rp, src->hash);
    if (!s) return RW_ENOMEM;
    u64 vaddr = m->addr;
    int named = !m->function;
    for (size_t k = 0; !named && k < s->nfns; k++)
      if (!strcmp(s->strs + s->fns[k].name, m->function)) {
        vaddr = s->fns[k].start + m->addr;
        named = 1;
      }
    if (!named) continue;
    /* The file offset of VADDR, then where this mapping has it. */
    for (size_t k = 0; k < s->nsegs; k++) {
      const struct rp__seg *g = &s->segs[k];
      if (vaddr < g->vaddr || vaddr - g->vaddr >= g->filesz) continue;
      u64 off = g->offset + (vaddr - g->vaddr);
      if (off < src->offset || off - src->offset >= src->end - src->start)
        continue;
      *lo = src->start + (off - src->offset);
      *hi = *lo + m->len;
      return 0;
    }
  }
  return RW_ENOTFOUND;
}

/* The table lookup used for ADDR: the one of the file mapped there, or
 * NULL. */
static struct rp__sym *syms_at(rp_replay *rp, u64 addr) {
  const struct rp__srcs *v = &rp->proc->srcs;
  const struct rp__src *src = NULL;
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i].start <= addr && addr < v->v[i].end) src = &v->v[i];
  return src ? syms_for(rp, src->hash) : NULL;
}

int rp__fn_named(rp_replay *rp, u64 start, const char *name) {
  const char *base = NULL, *fn = NULL;
  u64 off = 0, foff = 0, size = 0, vaddr;
  if (lookup(rp, start, &base, &fn, &off, &foff, &size, &vaddr) < 0 ||
      vaddr == ~0ull)
    return 0;
  struct rp__sym *s = syms_at(rp, start);
  if (!s) return 0;
  size_t lo = 0, hi = s->nfns;
  while (lo < hi) { /* the first symbol at VADDR or above */
    size_t mid = (lo + hi) / 2;
    if (s->fns[mid].start < vaddr) lo = mid + 1; else hi = mid;
  }
  for (; lo < s->nfns && s->fns[lo].start == vaddr; lo++)
    if (!strcmp(s->strs + s->fns[lo].name, name)) return 1;
  return 0;
}

void rp__fn_label(rp_replay *rp, const struct rp__thread *t, u64 addr,
                  int offset, char *buf, size_t cap) {
  char name[512], object[256];
  u64 start, size;
  struct rp__proc *was = rp->proc; /* the names are those of T's process */
  rp->proc = t->proc;
  rp__fn_name(rp, addr, name, sizeof name, object, sizeof object);
  int sized = offset && rp__fn_span(rp, addr, &start, &size);
  rp->proc = was;
  if (sized)
    snprintf(buf, cap, "%s+0x%llx (%s)", name,
             (unsigned long long)(addr - start), object);
  else if (!strncmp(name, object, strlen(object))) /* "file+0xOFF" */
    snprintf(buf, cap, "%s", name);
  else
    snprintf(buf, cap, "%s (%s)", name, object);
}

const struct rp__lines *rp__lines_at(rp_replay *rp, u64 addr, u64 *vaddr) {
  const char *base = NULL, *fn = NULL;
  u64 off = 0, foff = 0, size = 0;
  if (lookup(rp, addr, &base, &fn, &off, &foff, &size, vaddr) < 0 ||
      *vaddr == ~0ull)
    return NULL;
  struct rp__sym *s = syms_at(rp, addr);
  if (!s) return NULL;
  if (!s->lines_read) {
    s->lines_read = 1;
    if (rp__lines_load(rp, s->hash, &s->lines) < 0) s->lines = NULL;
  }
  return s->lines;
}

int rp__src_line(rp_replay *rp, u64 addr, const char **file, u32 *line) {
  u64 vaddr;
  const struct rp__lines *l = rp__lines_at(rp, addr, &vaddr);
  return l && rp__lines_find(l, vaddr, file, line);
}
