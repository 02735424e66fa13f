/* SPDX-License-Identifier: MIT */
/* The bounded cursor the request parser reads payloads with: single bytes,
 * literals, hex numbers with overflow checks, thread ids in the multiprocess
 * syntax and hex-encoded texts. Every helper checks the end before it reads
 * and leaves the cursor where it was when it fails. */
#include <string.h>

#include "gdbstub/gdbstub_int.h"

int gdb__cur_accept(struct gdb__cur *c, char ch) {
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return 1;
  }
  return 0;
}

int gdb__cur_expect(struct gdb__cur *c, char ch) {
  return gdb__cur_accept(c, ch) ? 0 : RW_EPROTO;
}

int gdb__cur_accept_str(struct gdb__cur *c, const char *s) {
  size_t n = strlen(s);
  if (gdb__cur_left(c) < n || memcmp(c->p, s, n) != 0) return 0;
  c->p += n;
  return 1;
}

int gdb__cur_rest_is(struct gdb__cur *c, const char *s) {
  size_t n = strlen(s);
  if (gdb__cur_left(c) != n || memcmp(c->p, s, n) != 0) return 0;
  c->p += n;
  return 1;
}

int gdb__cur_hex(struct gdb__cur *c, u64 *out) {
  const char *p = c->p;
  u64 v = 0;
  int v1;
  if (p >= c->end || gdb__hexval((u8)*p) < 0) return RW_EPROTO;
  for (; p < c->end && (v1 = gdb__hexval((u8)*p)) >= 0; p++) {
    if (v >> 60) return RW_ELIMIT;
    v = v << 4 | (u64)v1;
  }
  c->p = p;
  *out = v;
  return 0;
}

int gdb__cur_shex(struct gdb__cur *c, i64 *out) {
  struct gdb__cur t = *c;
  int neg = gdb__cur_accept(&t, '-');
  u64 v;
  RW_FORWARD(gdb__cur_hex(&t, &v));
  RW_RETURN_IF(v > (u64)INT64_MAX, RW_ELIMIT, "number too large");
  *out = neg ? -(i64)v : (i64)v;
  *c = t;
  return 0;
}

/* One part of a thread id: "-1" or a non-negative hex number. */
static int tid_part(struct gdb__cur *c, i64 *out) {
  u64 v;
  if (gdb__cur_accept_str(c, "-1")) {
    *out = GDB_TID_ALL;
    return 0;
  }
  RW_FORWARD(gdb__cur_hex(c, &v));
  RW_RETURN_IF(v > (u64)INT64_MAX, RW_ELIMIT, "thread id too large");
  *out = (i64)v;
  return 0;
}

int gdb__cur_tid(struct gdb__cur *c, struct gdb_tid *out) {
  struct gdb__cur t = *c;
  struct gdb_tid id = {0, 0, 0};
  if (gdb__cur_accept(&t, 'p')) {
    id.has_pid = 1;
    RW_FORWARD(tid_part(&t, &id.pid));
    if (gdb__cur_accept(&t, '.'))
      RW_FORWARD(tid_part(&t, &id.tid));
    else
      id.tid = GDB_TID_ALL;
  } else {
    RW_FORWARD(tid_part(&t, &id.tid));
  }
  *out = id;
  *c = t;
  return 0;
}

int gdb__cur_hex_text(struct gdb__cur *c, char stop, char *dst, size_t cap,
                      size_t *len) {
  size_t n = gdb__cur_span(c, stop);
  const char *p = c->p;
  RW_RETURN_IF(n & 1, RW_EPROTO, "odd hex text");
  RW_RETURN_IF(cap == 0 || n / 2 > cap - 1, RW_ELIMIT, "text too long");
  for (size_t i = 0; i < n / 2; i++) {
    int hi = gdb__hexval((u8)p[2 * i]), lo = gdb__hexval((u8)p[2 * i + 1]);
    RW_RETURN_IF(hi < 0 || lo < 0, RW_EPROTO, "bad hex digit");
    RW_RETURN_IF(hi == 0 && lo == 0, RW_EINVAL, "NUL in text");
    dst[i] = (char)(hi << 4 | lo);
  }
  dst[n / 2] = 0;
  *len = n / 2;
  c->p += n;
  return 0;
}

size_t gdb__cur_span(const struct gdb__cur *c, char stop) {
  const char *q = c->p;
  while (q < c->end && *q != stop) q++;
  return (size_t)(q - c->p);
}

int gdb__cur_skip_past(struct gdb__cur *c, char stop) {
  c->p += gdb__cur_span(c, stop);
  return gdb__cur_accept(c, stop);
}
