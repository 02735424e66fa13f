/* SPDX-License-Identifier: MIT */
/* Helpers shared by the gdbstub suites: framing a payload independently of
 * gdb_frame (so a bug there cannot hide in both), and feeding bytes to a
 * decoder while collecting the events and copies of the payloads. */
#ifndef RW_TESTS_GDBSTUB_UTIL_H
#define RW_TESTS_GDBSTUB_UTIL_H

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "gdbstub/gdbstub_int.h"

/* Prototypes of every test, from the list main.c registers. */
#define TEST(suite, name) void test_##suite##_##name(void);
#include "tests/gdbstub/tests.def"
#undef TEST

/* Writes "$" RAW "#cs" into DST (raw bytes taken as they are) and returns
 * its length. */
static inline size_t tu_pkt(char *dst, const char *raw, size_t n) {
  unsigned sum = 0;
  dst[0] = '$';
  for (size_t i = 0; i < n; i++) {
    dst[1 + i] = raw[i];
    sum += (u8)raw[i];
  }
  sprintf(dst + 1 + n, "#%02x", sum & 0xff);
  return n + 4;
}

/* A new decoder with limit MAX; the test stops if there is none. */
static inline gdb_decoder *tu_decoder(size_t max) {
  gdb_decoder *d = NULL;
  CU_ASSERT_EQUAL_FATAL(gdb_decoder_new(max, &d), 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  return d;
}

#define TU_MAXEV 16
struct tu_events {
  int n;
  enum gdb_event_kind kind[TU_MAXEV];
  char ack[TU_MAXEV];
  char payload[TU_MAXEV][512];
  size_t len[TU_MAXEV];
};

/* Feeds LEN bytes at BUF to D in chunks of CHUNK bytes (0: all at once),
 * appending the events to EV. */
static inline void tu_feed(gdb_decoder *d, const void *buf, size_t len,
                           size_t chunk, struct tu_events *ev) {
  const u8 *p = buf;
  size_t off = 0;
  if (!chunk) chunk = len ? len : 1;
  while (off < len) {
    size_t n = len - off < chunk ? len - off : chunk;
    const u8 *q = p + off;
    size_t left = n;
    while (left) {
      struct gdb_event e;
      size_t used = gdb_decoder_feed(d, q, left, &e);
      CU_ASSERT_FATAL(used > 0 && used <= left);
      q += used;
      left -= used;
      if (e.kind == GDB_EV_NONE) continue;
      CU_ASSERT_FATAL(ev->n < TU_MAXEV);
      ev->kind[ev->n] = e.kind;
      ev->ack[ev->n] = e.ack;
      ev->len[ev->n] = e.len;
      if (e.kind == GDB_EV_PACKET) {
        CU_ASSERT_FATAL(e.len < sizeof ev->payload[0]);
        memcpy(ev->payload[ev->n], e.payload, e.len);
        CU_ASSERT(e.payload[e.len] == 0);
      }
      ev->n++;
    }
    off += n;
  }
}

/* Parses the NUL-terminated payload S into R. */
static inline void tu_parse(const char *s, struct gdb_request *r) {
  gdb_parse(s, strlen(s), r);
}

/* Parses S into the file's `static struct gdb_request r` and checks its
 * kind (the parser tests use these two). */
#define KIND(s, k)                                                  \
  do {                                                              \
    tu_parse((s), &r);                                              \
    CU_ASSERT_EQUAL(r.kind, (k));                                   \
    if (r.kind != (k))                                              \
      fprintf(stderr, "%s: got %s\n", (s), gdb_req_name(r.kind));   \
  } while (0)
/* S must be refused as malformed, with a message. */
#define BAD(s)                                                      \
  do {                                                              \
    KIND((s), GDB_REQ_MALFORMED);                                   \
    CU_ASSERT(r.msg != NULL && r.msg[0] != 0);                      \
  } while (0)

#endif /* RW_TESTS_GDBSTUB_UTIL_H */
