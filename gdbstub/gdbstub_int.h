/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of gdbstub/ and by its tests, never by
 * other components (STYLE R1): the bounded cursor that parse.c and
 * parse_query.c read payloads with, and small hex helpers. */
#ifndef RW_GDBSTUB_GDBSTUB_INT_H
#define RW_GDBSTUB_GDBSTUB_INT_H

#include "gdbstub/gdbstub.h"

/* Value of hex digit C (either case), or RW_EPROTO (negative). */
static inline int gdb__hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return RW_EPROTO;
}

/* A read position in a payload. Every helper checks END before reading and
 * leaves P unchanged when it fails. Plain data. */
struct gdb__cur {
  const char *p;   /* next byte */
  const char *end; /* one past the last byte */
};

static inline size_t gdb__cur_left(const struct gdb__cur *c) {
  return (size_t)(c->end - c->p);
}
/* The next byte, or -1 at the end. */
static inline int gdb__cur_peek(const struct gdb__cur *c) {
  return c->p < c->end ? (u8)*c->p : -1;
}

/* Consumes CH if it is next; returns 1 if it did, else 0. */
int gdb__cur_accept(struct gdb__cur *c, char ch);
/* Consumes CH; returns 0, or RW_EPROTO if something else (or nothing) is
 * next. */
int gdb__cur_expect(struct gdb__cur *c, char ch) RW_MUST_CHECK;
/* Consumes the literal S if the input starts with it; returns 1 if it did. */
int gdb__cur_accept_str(struct gdb__cur *c, const char *s);
/* Returns 1 if the rest of the input is exactly S (consuming it). */
int gdb__cur_rest_is(struct gdb__cur *c, const char *s);
/* Parses one or more hex digits into *OUT. Returns 0, RW_EPROTO when no
 * digit is next, RW_ELIMIT when the value exceeds 64 bits. */
int gdb__cur_hex(struct gdb__cur *c, u64 *out) RW_MUST_CHECK;
/* Like gdb__cur_hex with an optional leading '-' (Host I/O numbers);
 * RW_ELIMIT when the magnitude exceeds INT64_MAX. */
int gdb__cur_shex(struct gdb__cur *c, i64 *out) RW_MUST_CHECK;
/* Parses a thread id: "-1", "0", "<tid>", "p<pid>", "p<pid>.<tid>" with
 * either part possibly -1 or 0. "p<pid>" alone means all its threads. */
int gdb__cur_tid(struct gdb__cur *c, struct gdb_tid *out) RW_MUST_CHECK;
/* Decodes hex pairs up to the byte STOP (not consumed) or the end into DST
 * (CAP bytes, NUL-terminated) and sets *LEN. RW_EPROTO on an odd count or a
 * non-hex digit, RW_ELIMIT when it does not fit, RW_EINVAL when it decodes
 * to a NUL byte (texts are C strings). */
int gdb__cur_hex_text(struct gdb__cur *c, char stop, char *dst, size_t cap,
                      size_t *len) RW_MUST_CHECK;
/* Skips to just past the next STOP byte, or to the end; returns 1 if STOP
 * was found. */
int gdb__cur_skip_past(struct gdb__cur *c, char stop);
/* Counts the bytes before the next STOP (or the end) without consuming. */
size_t gdb__cur_span(const struct gdb__cur *c, char stop);

/* Marks R malformed with the static message MSG. */
void gdb__malformed(struct gdb_request *r, const char *msg);
/* Parses the q, Q and v packets (parse_query.c); C is after the letter. */
void gdb__parse_query(struct gdb__cur *c, char letter, struct gdb_request *r);

#endif /* RW_GDBSTUB_GDBSTUB_INT_H */
