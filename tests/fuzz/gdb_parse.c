/* SPDX-License-Identifier: MIT */
/* Fuzz target for the GDB stub's layers 1 and 2 (STYLE R19): the input is a
 * byte stream from a "gdb", fed to the packet decoder in chunks; every
 * payload goes to the parser and then through the reply builders. Besides
 * surviving, it checks properties and aborts when they fail: pointers in a
 * request stay inside the payload, any payload, binary-escaped and framed,
 * decodes back to itself, and escaped as XML text it holds no markup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub.h"
#include "tests/fuzz/fuzz.h"

static void check(int ok, const char *what) {
  if (ok) return;
  fprintf(stderr, "gdb_parse: property failed: %s\n", what);
  abort();
}

static int inside(const char *p, size_t n, const char *pl, size_t len) {
  return p >= pl && n <= len && p - pl <= (ptrdiff_t)(len - n);
}

/* Frames PAYLOAD binary-escaped and decodes it again: must be identical. */
static void roundtrip(const char *payload, size_t len) {
  struct gdb_buf b, f;
  gdb_decoder *d;
  struct gdb_event ev;
  size_t off = 0;
  int got = 0;
  if (gdb_decoder_new(len ? len : 1, &d) < 0) return;
  gdb_buf_init(&b, 4 * len + 64);
  gdb_buf_init(&f, 4 * len + 64);
  gdb_buf_put_bin(&b, payload, len);
  if (gdb_frame(&f, b.data, b.len) == 0) {
    while (off < f.len) {
      off += gdb_decoder_feed(d, f.data + off, f.len - off, &ev);
      if (ev.kind == GDB_EV_NONE) continue;
      check(ev.kind == GDB_EV_PACKET, "framed reply decodes as a packet");
      check(ev.len == len && memcmp(ev.payload, payload, len) == 0,
            "framed reply decodes to itself");
      got++;
    }
    check(got == 1, "one framed reply, one packet");
  }
  gdb_buf_free(&b);
  gdb_buf_free(&f);
  gdb_decoder_free(d);
}

/* Escapes the payload as XML attribute text (thread names come from the
 * recording): nothing that ends the attribute or starts markup may stay. */
static void xml_text(const char *payload, size_t len) {
  struct gdb_buf b;
  gdb_buf_init(&b, 8 * len + 64);
  gdb_buf_put_xml(&b, payload, len);
  check(b.err == 0, "escaped text fits");
  for (size_t i = 0; i < b.len; i++) {
    u8 ch = b.data[i];
    check(ch != '<' && ch != '>' && ch != '"' && ch != '\'',
          "no markup in escaped XML text");
    check(ch >= 0x20 && ch != 0x7f, "no control bytes in escaped XML text");
    if (ch == '&') {
      const char *e = (const char *)b.data + i + 1;
      size_t left = b.len - i - 1;
      int ok = 0;
      static const char *const ents[] = {"lt;", "gt;", "amp;", "quot;",
                                         "apos;"};
      for (size_t k = 0; k < RW_ARRAY_SIZE(ents); k++)
        ok |= left >= strlen(ents[k]) && !memcmp(e, ents[k], strlen(ents[k]));
      check(ok, "every '&' in escaped XML text starts an entity");
    }
  }
  gdb_buf_free(&b);
}

/* The recording's XCR0 the replies describe: every register, AVX-512 too. */
#define XCR0 0xe7

/* Builds the replies layer 3 would build for R. */
static void reply(const struct gdb_request *r, const char *pl, size_t len,
                  struct gdb_buf *b) {
  static struct rw_regs regs;
  struct gdb_buf x;
  struct gdb_stop st;
  switch ((int)r->kind) {
    case GDB_REQ_MALFORMED:
      check(r->msg != NULL, "malformed requests carry a message");
      gdb_reply_error_msg(b, r->msg);
      break;
    case GDB_REQ_READ_REG:
      if (r->u.reg.regnum <= 0xffff &&
          gdb_reg_put_hex(b, &regs, (unsigned)r->u.reg.regnum, XCR0) < 0)
        gdb_reply_error(b, 1);
      break;
    case GDB_REQ_READ_REGS:
      gdb_regs_put_g(b, &regs, XCR0);
      break;
    case GDB_REQ_WRITE_MEM:
      check(inside(r->u.mem.data, r->u.mem.data_len, pl, len),
            "write data inside the payload");
      break;
    case GDB_REQ_WRITE_REG:
    case GDB_REQ_WRITE_REGS:
      check(inside(r->u.reg.value, r->u.reg.value_len, pl, len),
            "register value inside the payload");
      break;
    case GDB_REQ_XFER_READ:
      check(inside(r->u.xfer.annex, r->u.xfer.annex_len, pl, len),
            "annex inside the payload");
      check(r->u.xfer.len <= GDB_DATA_MAX, "xfer length clamped");
      gdb_buf_init(&x, 0);
      if (gdb_tdesc_lookup(r->u.xfer.annex, r->u.xfer.annex_len, XCR0,
                           &x) == 0)
        gdb_reply_xfer(b, x.data, x.len, r->u.xfer.off, r->u.xfer.len);
      gdb_buf_free(&x);
      check(b->len <= GDB_PACKET_MAX, "xfer reply fits a packet");
      break;
    case GDB_REQ_RCMD:
    case GDB_REQ_VFILE_OPEN:
    case GDB_REQ_VFILE_READLINK:
      check(r->text_len < GDB_TEXT_MAX && r->text[r->text_len] == 0 &&
                strlen(r->text) == r->text_len,
            "decoded text is a C string of text_len bytes");
      gdb_buf_puts(b, "O");
      gdb_buf_put_hex(b, r->text, r->text_len);
      break;
    case GDB_REQ_CONT:
      check(r->u.cont.n >= 1 && r->u.cont.n <= GDB_MAX_ACTIONS,
            "action count in range");
      check(r->u.cont.hc == (r->u.cont.n == 1 && !r->u.cont.act[0].has_tid &&
                             (pl[0] != 'v')),
            "only c, s, C, S, bc and bs resume the Hc thread");
      memset(&st, 0, sizeof st);
      st.kind = GDB_STOP_SIGNAL;
      st.signo = r->u.cont.act[0].signo;
      st.has_thread = r->u.cont.act[0].has_tid;
      st.multiprocess = r->u.cont.act[0].tid.has_pid;
      st.thread = r->u.cont.act[0].tid;
      st.reason = (enum gdb_stop_reason)(r->u.cont.n % 8);
      st.regs = &regs;
      gdb_stop_reply(b, &st);
      break;
    case GDB_REQ_SET_THREAD:
    case GDB_REQ_THREAD_ALIVE:
      gdb_buf_put_tid(b, r->u.thread.tid, r->u.thread.tid.has_pid);
      break;
    default:
      break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct gdb_request req;
  struct gdb_buf b, out;
  gdb_decoder *d;
  size_t off = 1, chunk;
  u8 opt;
  if (size < 1) return 0;
  /* The first byte picks the decoder's limit, ack mode and chunk size. */
  opt = data[0];
  if (gdb_decoder_new(opt & 1 ? 64 : 0, &d) < 0) return 0;
  gdb_decoder_set_noack(d, opt >> 1 & 1);
  chunk = (size_t)(opt >> 2) + 1;
  gdb_buf_init(&b, 0);
  gdb_buf_init(&out, 0);
  while (off < size) {
    size_t n = RW_MIN(chunk, size - off);
    while (n) {
      struct gdb_event ev;
      size_t used = gdb_decoder_feed(d, data + off, n, &ev);
      check(used >= 1 && used <= n, "feed makes progress within its input");
      off += used;
      n -= used;
      if (ev.kind != GDB_EV_PACKET) continue;
      check(ev.payload[ev.len] == 0, "payload NUL-terminated");
      gdb_parse(ev.payload, ev.len, &req);
      check(req.kind < GDB_REQ__COUNT, "request kind in range");
      gdb_buf_reset(&b);
      gdb_buf_reset(&out);
      reply(&req, ev.payload, ev.len, &b);
      xml_text(ev.payload, ev.len);
      if (gdb_frame(&out, b.data ? b.data : (const u8 *)"", b.len) < 0)
        continue;
      roundtrip(ev.payload, ev.len);
    }
  }
  gdb_buf_free(&b);
  gdb_buf_free(&out);
  gdb_decoder_free(d);
  return 0;
}
