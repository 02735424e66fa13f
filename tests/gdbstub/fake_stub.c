/* SPDX-License-Identifier: MIT */
/* A minimal stub over stdin/stdout built only from layers 1 and 2 and the
 * target description, serving one stopped thread with fixed registers and
 * no memory. The tdesc suite runs real gdb against it ("target remote |
 * fake_stub") to check that gdb reads our XML, 'g' layout and stop replies
 * as we mean them. Its one argument, in hex, is the recording's XCR0 the
 * description follows (default e7: with AVX-512). It is a test fixture,
 * not the future serve.c. With RW_GDB_LOG_DIR set it writes every payload
 * it receives to a numbered file there, which is how
 * tests/fuzz/corpus/gdb_parse/ was seeded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "gdbstub/gdbstub.h"

/* The registers the tdesc suite expects gdb to print. */
static void fixture_regs(struct rw_regs *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < RW_NGPR; i++) r->gpr[i] = 0x1111ull * (u64)(i + 1);
  r->rip = 0x401000;
  r->rflags = 0x246;
  r->fs_base = 0x7ffff7d8a740ull;
  r->orig_rax = ~0ull;
  r->seg[RW_SEG_cs] = 0x33;
  r->seg[RW_SEG_ss] = 0x2b;
  wr_le16(r->fxsave + 0, 0x37f);   /* fcw */
  wr_le16(r->fxsave + 2, 0x3800);  /* fsw: TOP = 7 after one push */
  r->fxsave[4] = 0x80;             /* physical register 7 in use */
  wr_le64(r->fxsave + 32, 0xc000000000000000ull); /* st0 = 1.5 */
  wr_le16(r->fxsave + 40, 0x3fff);
  wr_le32(r->fxsave + 24, 0x1f80); /* mxcsr */
  for (int i = 0; i < 16; i++) r->fxsave[160 + i] = (u8)(i + 1); /* xmm0 */
  for (int i = 0; i < 16; i++) r->ymmh[i] = (u8)(0xa0 + i);       /* ymm0h */
  for (int i = 0; i < 32; i++) r->zmmh[i] = (u8)(0xc0 + i);       /* zmm0h */
  for (int i = 0; i < 64; i++) r->hi16[64 + i] = (u8)(0x40 + i);  /* zmm17 */
  for (int i = 0; i < 32; i++) r->hi16[256 + i] = (u8)(0x80 + i); /* ymm20 */
  r->k[1] = 0x8000000000000001ull;
  r->k[7] = 0xffff;
  r->pkru = 0x5555555c;
}

static int write_all(const void *p, size_t n) {
  const u8 *s = p;
  while (n) {
    ssize_t w = write(1, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

static void log_payload(const char *p, size_t n) {
  static unsigned seq;
  const char *dir = getenv("RW_GDB_LOG_DIR");
  char path[4096];
  FILE *f;
  if (!dir) return;
  snprintf(path, sizeof path, "%s/session-%03u", dir, seq++);
  f = fopen(path, "wb");
  if (!f) return;
  fwrite(p, 1, n, f);
  fclose(f);
}

static const struct gdb_tid thread = {1, 1, 1};

static void answer(const struct gdb_request *q, const struct rw_regs *regs,
                   u64 xcr0, struct gdb_buf *b, int *noack) {
  struct gdb_stop st;
  struct gdb_buf x;
  switch ((int)q->kind) {
    case GDB_REQ_SUPPORTED:
      gdb_buf_printf(b, "PacketSize=%x;qXfer:features:read+;"
                     "QStartNoAckMode+;multiprocess+;swbreak+;hwbreak+;"
                     "ReverseContinue+;ReverseStep+", GDB_PACKET_MAX);
      break;
    case GDB_REQ_START_NOACK:
      gdb_buf_puts(b, "OK");
      *noack = 1;
      break;
    case GDB_REQ_STOP_REASON:
      memset(&st, 0, sizeof st);
      st.kind = GDB_STOP_SIGNAL;
      st.signo = 5;
      st.multiprocess = st.has_thread = 1;
      st.thread = thread;
      st.regs = regs;
      gdb_stop_reply(b, &st);
      break;
    case GDB_REQ_READ_REGS:
      gdb_regs_put_g(b, regs, xcr0);
      break;
    case GDB_REQ_READ_REG:
      if (q->u.reg.regnum > 0xffff ||
          gdb_reg_put_hex(b, regs, (unsigned)q->u.reg.regnum, xcr0) < 0)
        gdb_reply_error(b, 0x0e);
      break;
    case GDB_REQ_XFER_READ:
      gdb_buf_init(&x, 0);
      if (q->u.xfer.object == GDB_XFER_FEATURES &&
          gdb_tdesc_lookup(q->u.xfer.annex, q->u.xfer.annex_len, xcr0,
                           &x) == 0)
        gdb_reply_xfer(b, x.data, x.len, q->u.xfer.off, q->u.xfer.len);
      else
        gdb_reply_error(b, 0);
      gdb_buf_free(&x);
      break;
    case GDB_REQ_CURRENT_THREAD:
      gdb_buf_puts(b, "QC");
      gdb_buf_put_tid(b, thread, 1);
      break;
    case GDB_REQ_THREAD_INFO_FIRST:
      gdb_buf_puts(b, "m");
      gdb_buf_put_tid(b, thread, 1);
      break;
    case GDB_REQ_THREAD_INFO_NEXT:
      gdb_buf_puts(b, "l");
      break;
    case GDB_REQ_ATTACHED:
      gdb_buf_puts(b, "1");
      break;
    case GDB_REQ_VCONT_QUERY:
      gdb_buf_puts(b, "vCont;c;C;s;S");
      break;
    case GDB_REQ_SET_THREAD:
    case GDB_REQ_THREAD_ALIVE:
    case GDB_REQ_KILL:
    case GDB_REQ_DETACH:
      gdb_buf_puts(b, "OK");
      break;
    case GDB_REQ_READ_MEM:
      gdb_reply_error(b, 0x0e);
      break;
    case GDB_REQ_MALFORMED:
      gdb_reply_error_msg(b, q->msg);
      break;
    default:
      break; /* the empty reply */
  }
}

int main(int argc, char **argv) {
  static struct gdb_request q;
  u64 xcr0 = argc > 1 ? strtoull(argv[1], NULL, 16) : 0xe7;
  struct rw_regs regs;
  struct gdb_buf b, out;
  gdb_decoder *d;
  u8 in[4096];
  int noack = 0;
  if (gdb_decoder_new(0, &d) < 0) return 1;
  fixture_regs(&regs);
  gdb_buf_init(&b, 0);
  gdb_buf_init(&out, 0);
  for (;;) {
    ssize_t n = read(0, in, sizeof in);
    size_t off = 0;
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    while (off < (size_t)n) {
      struct gdb_event ev;
      off += gdb_decoder_feed(d, in + off, (size_t)n - off, &ev);
      gdb_buf_reset(&out);
      if (ev.ack) gdb_buf_put(&out, &ev.ack, 1);
      if (ev.kind == GDB_EV_PACKET) {
        int was_noack = noack;
        log_payload(ev.payload, ev.len);
        gdb_parse(ev.payload, ev.len, &q);
        gdb_buf_reset(&b);
        answer(&q, &regs, xcr0, &b, &noack);
        if (gdb_frame(&out, b.data ? b.data : (const u8 *)"", b.len) < 0)
          return 1;
        if (noack && !was_noack) gdb_decoder_set_noack(d, 1);
      } else if (ev.kind == GDB_EV_OVERSIZE ||
                 ev.kind == GDB_EV_BAD_ENCODING) {
        gdb_buf_reset(&b);
        gdb_reply_error(&b, 1);
        if (gdb_frame(&out, b.data, b.len) < 0) return 1;
      }
      if (out.len && write_all(out.data, out.len) < 0) return 1;
    }
  }
  gdb_buf_free(&b);
  gdb_buf_free(&out);
  gdb_decoder_free(d);
  return 0;
}
