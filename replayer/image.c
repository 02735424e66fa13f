/* SPDX-License-Identifier: MIT */
/* What a debugger asks about the program beyond registers and memory: the
 * program image at the current position (pid, executable path, auxiliary
 * vector, from the EXEC and AUXV records as the replay meets them) and the
 * files embedded in the trace, found by the path the program used. It does
 * not interpret the files: the stub serves their bytes. */
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

int rp__note_exec(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_exec e;
  char path[4096];
  struct rp__proc *p = rp->proc;
  RW_FORWARD(trace_rec_exec_get(&e, rec->data, rec->len));
  u32 pid = e.pid;
  if (p == &rp->root && !p->pid) p->pid = pid; /* known from here on */
  /* A re-run after a seek meets the same records again. */
  if (p->nimages && p->images[p->nimages - 1].seq >= rec->seq) return 0;
  trace_str_copy(e.path, path, sizeof path);
  if (p->nimages == p->capimages) {
    size_t cap = p->capimages ? 2 * p->capimages : 4;
    struct rp__image *v = realloc(p->images, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "images");
    p->images = v;
    p->capimages = cap;
  }
  struct rp__image *im = &p->images[p->nimages];
  memset(im, 0, sizeof *im);
  im->path = strdup(path);
  RW_RETURN_IF(!im->path, RW_ENOMEM, "image path");
  im->seq = rec->seq;
  im->pid = pid;
  p->nimages++;
  return 0;
}

int rp__note_auxv(rp_replay *rp, const struct rp__rec *rec) {
  struct rp__proc *p = rp->proc;
  if (!p->nimages) return 0;
  struct rp__image *im = &p->images[p->nimages - 1];
  struct trace_rec_auxv a;
  if (im->auxv || rec->seq < im->seq) return 0;
  RW_FORWARD(trace_rec_auxv_get(&a, rec->data, rec->len));
  im->auxv = malloc(a.auxv.len ? a.auxv.len : 1);
  RW_RETURN_IF(!im->auxv, RW_ENOMEM, "auxv");
  if (a.auxv.len) memcpy(im->auxv, a.auxv.p, a.auxv.len);
  im->auxv_len = a.auxv.len;
  return 0;
}

void rp__images_free(struct rp__proc *p) {
  for (size_t i = 0; i < p->nimages; i++) {
    free(p->images[i].path);
    free(p->images[i].auxv);
  }
  free(p->images);
  p->images = NULL;
  p->nimages = p->capimages = 0;
}

/* The image process P ran at record SEQ: its latest EXEC up to there, or,
 * for a child that had not exec'd yet, its parent's when it forked. */
static const struct rp__image *image_at(const struct rp__proc *p, u64 seq) {
  for (; p; seq = p->fork_seq, p = p->parent) {
    const struct rp__image *cur = NULL;
    for (size_t i = 0; i < p->nimages; i++)
      if (p->images[i].seq <= seq) cur = &p->images[i];
    if (cur) return cur;
  }
  return NULL;
}

int rp_get_image(rp_replay *rp, struct rp_image *img) {
  const struct rp__proc *p = rp->user.proc;
  const struct rp__image *cur = image_at(p, rp->trace.last_seq);
  memset(img, 0, sizeof *img);
  if (!cur) return RW_ENOTFOUND;
  img->pid = p->pid ? p->pid : cur->pid;
  img->seq = cur->seq;
  img->path = cur->path;
  img->auxv = cur->auxv;
  img->auxv_len = cur->auxv_len;
  img->first = p == &rp->root && cur == &p->images[0];
  return 0;
}

static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int is_zero(const u8 h[32]) {
  for (int i = 0; i < 32; i++)
    if (h[i]) return 0;
  return 1;
}

/* Whether NAME matches WANT: exactly (MODE 0), by last component (1), or
 * as a versioned file of that soname (2: "libasan.so.8" finds
 * "libasan.so.8.0.0", the file its link names). */
static int match(const char *name, const char *want, int mode) {
  if (mode == 0) return !strcmp(name, want);
  name = base(name);
  if (mode == 1) return !strcmp(name, want);
  size_t n = strlen(want);
  return strstr(want, ".so") && !strncmp(name, want, n) && name[n] == '.' &&
         name[n + 1] >= '0' && name[n + 1] <= '9';
}

/* Looks for PATH among the current mappings and the blobs' names, compared
 * as MODE says (see match). */
static int lookup(rp_replay *rp, const char *path, int mode,
                  struct rp_file *f) {
  const char *want = mode ? base(path) : path;
  struct trace_blob_info bi;
  const struct rp__srcs *v = &rp->user.proc->srcs;
  for (size_t i = 0; i < v->n; i++) {
    const struct rp__src *s = &v->v[i];
    if (is_zero(s->hash) || s->path[0] != '/') continue;
    if (!match(s->path, want, mode)) continue;
    if (trace_reader_find_blob(rp->trace.tr, s->hash, &bi) < 0) continue;
    memcpy(f->hash, bi.hash, 32);
    f->size = bi.size;
    return 0;
  }
  size_t n = trace_reader_nblobs(rp->trace.tr);
  for (size_t i = 0; i < n; i++) {
    if (trace_reader_blob_info(rp->trace.tr, i, &bi) < 0 || !bi.name) continue;
    if (!match(bi.name, want, mode)) continue;
    memcpy(f->hash, bi.hash, 32);
    f->size = bi.size;
    return 0;
  }
  return RW_ENOTFOUND;
}

int rp_file_find(rp_replay *rp, const char *path, struct rp_file *f) {
  memset(f, 0, sizeof *f);
  if (!path[0] || !base(path)[0]) return RW_ENOTFOUND;
  for (int mode = 0; mode < 3; mode++)
    if (lookup(rp, path, mode, f) == 0) return 0;
  return RW_ENOTFOUND;
}

i64 rp_file_read(rp_replay *rp, const struct rp_file *f, u64 off, void *dst,
                 size_t cap) {
  struct rw_diag diag = {0};
  if (off >= f->size) return 0;
  return trace_reader_blob_read(rp->trace.tr, f->hash, off, dst, cap, &diag);
}
