/* SPDX-License-Identifier: MIT */
/* The flame graph of a profile as one standalone SVG file (rewind analyze
 * profile --svg): no script, no external style, nothing to install; a
 * browser shows it and its tooltips. It is drawn from the call tree
 * profile.c builds (one node per call path, the threads' paths merged),
 * the very data the folded stacks are written from: a box per call path,
 * as wide as the path's inclusive instructions, the roots at the bottom
 * and the callees stacked above their callers in name order.
 *
 * Boxes narrower than RP_FLAME_MIN of the width (with what is above them)
 * are left out, so that a profile of millions of paths keeps at most a
 * thousand boxes a row (a few per row in practice); the ones a parent
 * loses this way become one grey
 * "N more" box when together they are wide enough. This file only draws:
 * it does not zoom or search, as flamegraph.pl's script does. */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

#define FL_WIDTH 1200 /* the image, pixels */
#define FL_PAD   10   /* margin left, right and below */
#define FL_HEAD  52   /* the two heading lines above the boxes */
#define FL_ROW   16   /* one depth of the tree; a box is 1 pixel less */
#define FL_CHAR  7.0  /* width of a character of the 12px monospace font */

/* A box: the tree's root (index 0: every instruction) or a node (its
 * index + 1). */
struct box {
  u64 incl;  /* the path's instructions, its callees' included */
  u64 x;     /* where it starts, in instructions from the left */
  u32 depth; /* 0: the root */
  int shown;
};

/* The boxes of one parent too narrow to draw alone, merged. */
struct more {
  u32 parent; /* box index */
  u64 x, incl;
  u32 count;
};

struct flame {
  size_t n;                /* nodes; boxes are n + 1 */
  struct rp__prof_node *v; /* per box; v[0] is the root (no name) */
  struct box *b;
  u32 *ord; /* box indexes 1..n, by parent then name */
  struct more *more;
  size_t nmore;
  u32 depth;    /* the deepest box shown */
  double scale; /* pixels per instruction */
};

static int by_parent_name(const void *a, const void *b, void *ctx) {
  const struct rp__prof_node *v = ctx;
  const struct rp__prof_node *x = &v[*(const u32 *)a], *y = &v[*(const u32 *)b];
  if (x->parent != y->parent) return x->parent < y->parent ? -1 : 1;
  int c = strcmp(x->name, y->name);
  return c ? c : strcmp(x->object, y->object);
}

/* Places the boxes: each parent's children side by side from its left
 * edge, those too narrow merged into a "more" box after them. Parents
 * come before their children in ORD (a parent's index is lower), so each
 * parent is placed before its children are. */
static void layout(struct flame *f) {
  u64 total = f->b[0].incl;
  double min = RP_FLAME_MIN * (double)total;
  f->b[0].shown = 1;
  for (size_t i = 0; i < f->n;) {
    u32 q = f->v[f->ord[i]].parent;
    const struct box *pb = &f->b[q];
    u64 cur = pb->x, rest = 0;
    u32 nrest = 0;
    for (; i < f->n && f->v[f->ord[i]].parent == q; i++) {
      struct box *k = &f->b[f->ord[i]];
      if (!pb->shown || !k->incl) continue;
      if ((double)k->incl < min) {
        rest += k->incl;
        nrest++;
        continue;
      }
      k->shown = 1;
      k->x = cur;
      k->depth = pb->depth + 1;
      cur += k->incl;
      f->depth = RW_MAX(f->depth, k->depth);
    }
    if (pb->shown && nrest && (double)rest >= min) {
      f->more[f->nmore++] = (struct more){q, cur, rest, nrest};
      f->depth = RW_MAX(f->depth, pb->depth + 1);
    }
  }
}

/* The length of the UTF-8 sequence at S (N bytes left) that XML accepts
 * as a character, or 0. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len = c < 0x80                 ? 1
               : c >= 0xc2 && c <= 0xdf ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
  if (len == 1) return c >= 0x20 || c == '\t' || c == '\n' ? 1 : 0;
  if (!len || len > n) return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) ||
      (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
    return 0; /* overlong, a surrogate, past U+10FFFF */
  if (c == 0xef && s[1] == 0xbf && s[2] >= 0xbe) return 0; /* U+FFFE/F */
  return len;
}

/* Writes the first N bytes of S (up to its NUL) to OUT as XML text: the
 * markup characters as entities, and any byte that is not part of a
 * character XML accepts as '?', so that no name makes the file
 * ill-formed. */
static void xml_text(FILE *out, const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t len = strnlen(s, n);
  for (size_t i = 0; i < len;) {
    size_t k = utf8_len(u + i, len - i);
    if (u[i] == '&')
      fputs("&amp;", out);
    else if (u[i] == '<')
      fputs("&lt;", out);
    else if (u[i] == '>')
      fputs("&gt;", out);
    else if (u[i] == '"')
      fputs("&quot;", out);
    else if (k)
      fwrite(u + i, 1, k, out);
    else
      fputc('?', out);
    i += k ? k : 1;
  }
}

/* A warm colour from NAME, the same for the same name in every graph:
 * red 205-255, green 0-230, blue 0-55 (flamegraph.pl's "hot"). */
static void warm(FILE *out, const char *name) {
  u64 h = 0xcbf29ce484222325ull;
  for (const char *s = name; *s; s++) h = (h ^ (u8)*s) * 0x100000001b3ull;
  h = rw_fmix64(h);
  fprintf(out, "rgb(%u,%u,%u)", 205 + (unsigned)(h & 0xff) * 50 / 255,
          (unsigned)(h >> 8 & 0xff) * 230 / 255,
          (unsigned)(h >> 16 & 0xff) * 55 / 255);
}

static double pct(u64 part, u64 whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Writes NAME of OBJECT as the table does: "name (file)", or the name
 * alone when it is "file+0xOFF". */
static void fn_text(FILE *out, const char *name, const char *object) {
  size_t k = strlen(object);
  xml_text(out, name, SIZE_MAX);
  if (strncmp(name, object, k) || strncmp(name + k, "+0x", 3)) {
    fputs(" (", out);
    xml_text(out, object, SIZE_MAX);
    fputc(')', out);
  }
}

/* Ends the tooltip of a box (begun with "<g><title>") of WIDTH
 * instructions at X and DEPTH and draws the box, in FILL (a colour, or NULL:
 * warm from NAME) with LABEL (NAME when NULL) as much as fits. */
static void box_end(const struct flame *f, FILE *out, u64 x, u64 width,
                    u32 depth, const char *name, const char *fill,
                    const char *label) {
  double px = FL_PAD + (double)x * f->scale;
  double w = depth ? (double)width * f->scale : FL_WIDTH - 2 * FL_PAD;
  double y = FL_HEAD + (double)(f->depth - depth) * FL_ROW;
  fprintf(out,
          "</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
          "height=\"%d\" fill=\"",
          px, y, w, FL_ROW - 1);
  if (fill)
    fputs(fill, out);
  else
    warm(out, name);
  fputs("\"/>", out);
  const char *text = label ? label : name;
  size_t fits = w > 6 ? (size_t)((w - 6) / FL_CHAR) : 0, len = strlen(text);
  if (len <= fits || fits >= 5) { /* the name, or 3 characters and ".." */
    fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", px + 3, y + FL_ROW - 5.0);
    xml_text(out, text, len <= fits ? len : fits - 2);
    if (len > fits) fputs("..", out);
    fputs("</text>", out);
  }
  fputs("</g>\n", out);
}

/* Writes the heading and every box shown. */
static void draw(const struct flame *f, FILE *out, const char *heading) {
  u64 total = f->b[0].incl;
  unsigned height = FL_HEAD + (f->depth + 1) * FL_ROW + FL_PAD;
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
          "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
          "width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\">\n"
          "<style>text { font-family: monospace; font-size: 12px; "
          "fill: #000; pointer-events: none; } "
          "rect { rx: 2px; stroke: #fff; stroke-width: 0.5; } "
          "g:hover rect { stroke: #000; } "
          ".head { font-size: 16px; } .sub { fill: #555; }</style>\n"
          "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%u\" "
          "fill=\"#fdf6ec\" style=\"stroke: none\"/>\n"
          "<text class=\"head\" x=\"%d\" y=\"22\">",
          FL_WIDTH, height, FL_WIDTH, height, FL_WIDTH, height, FL_PAD);
  xml_text(out, heading ? heading : "rewind analyze profile", SIZE_MAX);
  fprintf(out,
          "</text>\n<text class=\"sub\" x=\"%d\" y=\"40\">flame graph "
          "of %llu instructions: one box per call path, as wide as "
          "its instructions, callers below; boxes under %.1f%% of the "
          "width merged or left out</text>\n",
          FL_PAD, (unsigned long long)total, 100 * RP_FLAME_MIN);
  /* The root: every instruction. */
  fputs("<g><title>", out);
  fprintf(out, "all: %llu instructions, 100%%", (unsigned long long)total);
  box_end(f, out, 0, total, 0, "all", NULL, NULL);
  for (size_t i = 1; i <= f->n; i++) {
    const struct box *b = &f->b[i];
    const struct rp__prof_node *v = &f->v[i];
    if (!b->shown) continue;
    fputs("<g><title>", out);
    fn_text(out, v->name, v->object);
    fprintf(out,
            "\n%llu instructions on this path, %.2f%%\n"
            "the function in all: %llu instructions, %.2f%%, "
            "%llu call%s",
            (unsigned long long)b->incl, pct(b->incl, total),
            (unsigned long long)v->fn_incl, pct(v->fn_incl, total),
            (unsigned long long)v->fn_calls, v->fn_calls == 1 ? "" : "s");
    box_end(f, out, b->x, b->incl, b->depth, v->name, NULL, NULL);
  }
  for (size_t i = 0; i < f->nmore; i++) {
    const struct more *m = &f->more[i];
    char label[32];
    u32 depth = f->b[m->parent].depth + 1;
    snprintf(label, sizeof label, "%u more", m->count);
    fputs("<g><title>", out);
    fprintf(out,
            "%u call paths under %.1f%% each, merged: %llu "
            "instructions, %.2f%%",
            m->count, 100 * RP_FLAME_MIN, (unsigned long long)m->incl,
            pct(m->incl, total));
    box_end(f, out, m->x, m->incl, depth, label, "rgb(200,200,200)", label);
  }
  fputs("</svg>\n", out);
}

int rp_profile_svg(const rp_profile *p, FILE *out, const char *heading) {
  struct flame f = {.n = rp__prof_nodes(p)};
  int rc = RW_ENOMEM;
  f.v = calloc(f.n + 1, sizeof *f.v);
  f.b = calloc(f.n + 1, sizeof *f.b);
  f.ord = malloc((f.n ? f.n : 1) * sizeof *f.ord);
  f.more = malloc((f.n + 1) * sizeof *f.more);
  if (!f.v || !f.b || !f.ord || !f.more) goto fail;
  for (size_t i = 0; i < f.n; i++) {
    rp__prof_node(p, i, &f.v[i + 1]);
    f.b[i + 1].incl = f.v[i + 1].excl;
    f.ord[i] = (u32)i + 1;
  }
  /* Inclusive counts, children before parents. */
  for (size_t i = f.n; i > 0; i--) f.b[f.v[i].parent].incl += f.b[i].incl;
  qsort_r(f.ord, f.n, sizeof *f.ord, by_parent_name, f.v);
  layout(&f);
  f.scale =
      f.b[0].incl ? (double)(FL_WIDTH - 2 * FL_PAD) / (double)f.b[0].incl : 0;
  draw(&f, out, heading);
  rc = rp__written(out);
fail:
  free(f.v);
  free(f.b);
  free(f.ord);
  free(f.more);
  return rc;
}
