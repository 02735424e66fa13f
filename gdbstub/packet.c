/* SPDX-License-Identifier: MIT */
/* Layer 1 of the GDB stub (STYLE R15): the growable output buffer, the
 * incremental packet decoder ("$payload#cs" framing, checksums, '}' escapes,
 * '*' run lengths, acks, ^C) and the framer for replies. Byte buffers in,
 * byte buffers out: no sockets, no parsing of what a payload means. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub_int.h"

/* ---- struct gdb_buf ------------------------------------------------------ */

#define GDB_BUF_DEFAULT_LIMIT (GDB_PACKET_MAX * 2 + 8)

void gdb_buf_init(struct gdb_buf *b, size_t limit) {
  memset(b, 0, sizeof *b);
  b->limit = limit ? limit : GDB_BUF_DEFAULT_LIMIT;
}

void gdb_buf_free(struct gdb_buf *b) {
  if (!b) return;
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

void gdb_buf_reset(struct gdb_buf *b) {
  b->len = 0;
  b->err = 0;
  if (b->data) b->data[0] = 0;
}

/* Makes room for N more bytes plus a NUL; returns 0 or sets the sticky
 * error. */
static int reserve(struct gdb_buf *b, size_t n) {
  size_t limit = b->limit ? b->limit : GDB_BUF_DEFAULT_LIMIT;
  size_t want, cap;
  u8 *p;
  if (b->err) return b->err;
  if (n > limit || b->len > limit - n) return b->err = RW_ELIMIT;
  want = b->len + n + 1;
  if (want <= b->cap) return 0;
  cap = b->cap ? b->cap : 256;
  while (cap < want) cap *= 2;
  p = realloc(b->data, cap);
  if (!p) return b->err = RW_ENOMEM;
  b->data = p;
  b->cap = cap;
  return 0;
}

void gdb_buf_put(struct gdb_buf *b, const void *p, size_t n) {
  if (reserve(b, n)) return;
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = 0;
}

void gdb_buf_puts(struct gdb_buf *b, const char *s) {
  gdb_buf_put(b, s, strlen(s));
}

void gdb_buf_printf(struct gdb_buf *b, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) {
    if (!b->err) b->err = RW_EINVAL;
    return;
  }
  if ((size_t)n < sizeof tmp) {
    gdb_buf_put(b, tmp, (size_t)n);
    return;
  }
  if (reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

static const char hexdig[] = "0123456789abcdef";

void gdb_buf_put_hex(struct gdb_buf *b, const void *p, size_t n) {
  const u8 *s = p;
  u8 *d;
  if (n > SIZE_MAX / 2 || reserve(b, 2 * n)) {
    if (!b->err) b->err = RW_ELIMIT;
    return;
  }
  d = b->data + b->len;
  for (size_t i = 0; i < n; i++) {
    *d++ = (u8)hexdig[s[i] >> 4];
    *d++ = (u8)hexdig[s[i] & 15];
  }
  b->len += 2 * n;
  b->data[b->len] = 0;
}

void gdb_buf_put_hexnum(struct gdb_buf *b, u64 v) {
  char tmp[17];
  int i = 16;
  tmp[16] = 0;
  do {
    tmp[--i] = hexdig[v & 15];
    v >>= 4;
  } while (v);
  gdb_buf_put(b, tmp + i, (size_t)(16 - i));
}

static int needs_escape(u8 ch) {
  return ch == '$' || ch == '#' || ch == '}' || ch == '*';
}

void gdb_buf_put_bin(struct gdb_buf *b, const void *p, size_t n) {
  const u8 *s = p;
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    if (!needs_escape(s[i])) continue;
    u8 esc[2] = {'}', (u8)(s[i] ^ 0x20)};
    gdb_buf_put(b, s + start, i - start);
    gdb_buf_put(b, esc, 2);
    start = i + 1;
  }
  gdb_buf_put(b, s + start, n - start);
}

size_t gdb_bin_fit(const void *p, size_t n, size_t budget) {
  const u8 *s = p;
  size_t used = 0, i;
  for (i = 0; i < n; i++) {
    size_t w = needs_escape(s[i]) ? 2 : 1;
    if (used + w > budget) break;
    used += w;
  }
  return i;
}

int gdb_frame(struct gdb_buf *out, const void *payload, size_t len) {
  const u8 *s = payload;
  u8 sum = 0;
  char tail[3];
  gdb_buf_put(out, "$", 1);
  for (size_t i = 0; i < len; i++) {
    u8 ch = s[i];
    if (ch == '$' || ch == '#' || ch == '*') {
      u8 esc[2] = {'}', (u8)(ch ^ 0x20)};
      gdb_buf_put(out, esc, 2);
      sum = (u8)(sum + esc[0] + esc[1]);
    } else {
      gdb_buf_put(out, &ch, 1);
      sum = (u8)(sum + ch);
    }
  }
  tail[0] = '#';
  tail[1] = hexdig[sum >> 4];
  tail[2] = hexdig[sum & 15];
  gdb_buf_put(out, tail, 3);
  return out->err;
}

/* ---- The decoder --------------------------------------------------------- */

enum dstate {
  D_IDLE,    /* between packets */
  D_DATA,    /* after '$', before '#' */
  D_CK1,     /* after '#' */
  D_CK2,     /* after the first checksum digit */
};

struct gdb_decoder {
  size_t max;     /* largest decoded payload */
  u8 *pl;         /* max + 1 bytes: the decoded payload and a NUL */
  size_t len;     /* decoded bytes so far */
  enum dstate st;
  u8 sum;         /* running checksum of the raw bytes */
  u8 ck;          /* checksum received, high digit first */
  u8 ck_bad;      /* a checksum digit was not hex */
  u8 esc;         /* the previous raw byte was an unconsumed '}' */
  u8 rle;         /* the previous raw byte was '*' */
  u8 oversize;    /* decoded length passed max; the rest is dropped */
  u8 bad_enc;     /* a '*' with no byte before it or a bad count */
  u8 noack;       /* QStartNoAckMode is in effect */
  u64 noise;      /* bytes ignored between packets */
};

int gdb_decoder_new(size_t max, gdb_decoder **out) {
  gdb_decoder *d;
  *out = NULL;
  if (!max) max = GDB_PACKET_MAX;
  RW_RETURN_IF(max > SIZE_MAX / 2, RW_EINVAL, "decoder limit %zu", max);
  d = calloc(1, sizeof *d);
  if (!d) return RW_ENOMEM;
  d->max = max;
  d->pl = malloc(max + 1);
  if (!d->pl) {
    free(d);
    return RW_ENOMEM;
  }
  d->pl[0] = 0;
  *out = d;
  return 0;
}

void gdb_decoder_free(gdb_decoder *d) {
  if (!d) return;
  free(d->pl);
  free(d);
}

static void start_packet(gdb_decoder *d) {
  d->st = D_DATA;
  d->len = 0;
  d->sum = 0;
  d->ck = 0;
  d->ck_bad = d->esc = d->rle = d->oversize = d->bad_enc = 0;
}

void gdb_decoder_reset(gdb_decoder *d) {
  start_packet(d);
  d->st = D_IDLE;
  d->noack = 0;
  d->pl[0] = 0;
}

void gdb_decoder_set_noack(gdb_decoder *d, int noack) {
  d->noack = noack != 0;
}

u64 gdb_decoder_noise(const gdb_decoder *d) { return d->noise; }

static void emit(gdb_decoder *d, u8 ch) {
  if (d->len >= d->max) {
    d->oversize = 1;
    return;
  }
  d->pl[d->len++] = ch;
}

/* One raw byte between '$' and '#'. */
static void data_byte(gdb_decoder *d, u8 ch) {
  d->sum = (u8)(d->sum + ch);
  if (d->oversize) return;
  if (d->rle) {
    /* A repeat count N+29 follows '*': N more copies of the last byte. */
    d->rle = 0;
    if (ch < 29 || ch > 126 || d->len == 0) {
      d->bad_enc = 1;
      return;
    }
    u8 last = d->pl[d->len - 1];
    for (unsigned n = ch - 29u; n > 0 && !d->oversize; n--) emit(d, last);
    return;
  }
  if (d->esc) {
    d->esc = 0;
    emit(d, ch ^ 0x20);
    return;
  }
  if (ch == '}') {
    d->esc = 1;
    return;
  }
  if (ch == '*') {
    d->rle = 1;
    return;
  }
  emit(d, ch);
}

/* Completes the packet after its second checksum digit. */
static void finish(gdb_decoder *d, struct gdb_event *ev) {
  d->st = D_IDLE;
  d->pl[d->len] = 0;
  if (d->ck_bad || d->ck != d->sum) {
    ev->kind = GDB_EV_BAD_CHECKSUM;
    ev->ack = d->noack ? 0 : '-';
    return;
  }
  ev->ack = d->noack ? 0 : '+';
  if (d->oversize) {
    ev->kind = GDB_EV_OVERSIZE;
  } else if (d->bad_enc || d->esc || d->rle) {
    ev->kind = GDB_EV_BAD_ENCODING;
  } else {
    ev->kind = GDB_EV_PACKET;
    ev->payload = (const char *)d->pl;
    ev->len = d->len;
  }
}

size_t gdb_decoder_feed(gdb_decoder *d, const void *buf, size_t len,
                        struct gdb_event *ev) {
  const u8 *s = buf;
  size_t i = 0;
  memset(ev, 0, sizeof *ev);
  ev->kind = GDB_EV_NONE;
  while (i < len) {
    u8 ch = s[i++];
    int v;
    switch (d->st) {
      case D_IDLE:
        if (ch == '$') {
          start_packet(d);
        } else if (ch == 0x03) {
          ev->kind = GDB_EV_INTERRUPT;
          return i;
        } else if (ch == '+') {
          ev->kind = GDB_EV_ACK;
          return i;
        } else if (ch == '-') {
          ev->kind = GDB_EV_NAK;
          return i;
        } else {
          d->noise++;
        }
        break;
      case D_DATA:
        if (ch == '#') {
          d->st = D_CK1;
        } else if (ch == '$') {
          /* '$' is always escaped inside a packet: the one we were reading
           * was cut short, and a new one starts here. */
          d->noise += d->len + 1;
          start_packet(d);
        } else {
          data_byte(d, ch);
        }
        break;
      case D_CK1:
        v = gdb__hexval(ch);
        if (v < 0) d->ck_bad = 1;
        d->ck = (u8)((v < 0 ? 0 : v) << 4);
        d->st = D_CK2;
        break;
      case D_CK2:
        v = gdb__hexval(ch);
        if (v < 0) d->ck_bad = 1;
        d->ck = (u8)(d->ck | (v < 0 ? 0 : v));
        finish(d, ev);
        return i;
    }
  }
  return i;
}
