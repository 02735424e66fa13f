/* SPDX-License-Identifier: MIT */
/* Reply payloads for the GDB stub: thread ids, stop replies (T/W/X with
 * thread:, expedited registers and the watch, swbreak, hwbreak and replaylog
 * reasons), error replies, Host I/O results and qXfer chunks. It only builds
 * bytes into a struct gdb_buf; framing is gdb_frame's job, and deciding what
 * to answer is serve.c's. */
#include <string.h>

#include "gdbstub/gdbstub_int.h"

static void put_signed(struct gdb_buf *b, i64 v) {
  if (v < 0) {
    gdb_buf_put(b, "-", 1);
    gdb_buf_put_hexnum(b, (u64)0 - (u64)v);
  } else {
    gdb_buf_put_hexnum(b, (u64)v);
  }
}

void gdb_buf_put_tid(struct gdb_buf *b, struct gdb_tid tid, int multiprocess) {
  if (multiprocess) {
    gdb_buf_put(b, "p", 1);
    put_signed(b, tid.pid);
    gdb_buf_put(b, ".", 1);
  }
  put_signed(b, tid.tid);
}

static void put_u8hex(struct gdb_buf *b, u8 v) { gdb_buf_put_hex(b, &v, 1); }

/* Registers sent with every T reply so gdb can unwind without asking. */
static const unsigned expedited[] = {GDB_REGNUM_RBP, GDB_REGNUM_RSP,
                                     GDB_REGNUM_RIP};

void gdb_stop_reply(struct gdb_buf *b, const struct gdb_stop *s) {
  switch (s->kind) {
    case GDB_STOP_EXITED:
    case GDB_STOP_TERMINATED:
      /* Format: W AA[;process:pid] / X AA[;process:pid] */
      gdb_buf_put(b, s->kind == GDB_STOP_EXITED ? "W" : "X", 1);
      put_u8hex(b, s->kind == GDB_STOP_EXITED ? s->status : s->signo);
      if (s->multiprocess) {
        gdb_buf_puts(b, ";process:");
        put_signed(b, s->thread.pid);
      }
      return;
    case GDB_STOP_SIGNAL:
      break;
  }
  /* Format: T AA n:r;...;thread:tid;reason:value; */
  gdb_buf_put(b, "T", 1);
  put_u8hex(b, s->signo);
  if (s->regs) {
    for (size_t i = 0; i < RW_ARRAY_SIZE(expedited); i++) {
      u8 v[GDB_REG_MAX];
      int n = gdb_reg_read(s->regs, expedited[i], v, sizeof v);
      if (n <= 0) continue;
      put_u8hex(b, (u8)expedited[i]);
      gdb_buf_put(b, ":", 1);
      gdb_buf_put_hex(b, v, (size_t)n);
      gdb_buf_put(b, ";", 1);
    }
  }
  if (s->has_thread) {
    gdb_buf_puts(b, "thread:");
    gdb_buf_put_tid(b, s->thread, s->multiprocess);
    gdb_buf_put(b, ";", 1);
  }
  if (s->exec_path) { /* Format: exec:<path in hex>; */
    gdb_buf_puts(b, "exec:");
    gdb_buf_put_hex(b, s->exec_path, strlen(s->exec_path));
    gdb_buf_put(b, ";", 1);
    return;
  }
  switch (s->reason) {
    case GDB_REASON_NONE:
      break;
    case GDB_REASON_WATCH:
    case GDB_REASON_RWATCH:
    case GDB_REASON_AWATCH:
      gdb_buf_puts(b, s->reason == GDB_REASON_WATCH    ? "watch:"
                      : s->reason == GDB_REASON_RWATCH ? "rwatch:"
                                                       : "awatch:");
      gdb_buf_put_hexnum(b, s->addr);
      gdb_buf_put(b, ";", 1);
      break;
    case GDB_REASON_SWBREAK:
      gdb_buf_puts(b, "swbreak:;");
      break;
    case GDB_REASON_HWBREAK:
      gdb_buf_puts(b, "hwbreak:;");
      break;
    case GDB_REASON_REPLAY_BEGIN:
      gdb_buf_puts(b, "replaylog:begin;");
      break;
    case GDB_REASON_REPLAY_END:
      gdb_buf_puts(b, "replaylog:end;");
      break;
    case GDB_REASON_SYSCALL_ENTRY: /* Format: syscall_entry:<sysno>; */
    case GDB_REASON_SYSCALL_RETURN: /* Format: syscall_return:<sysno>; */
      gdb_buf_puts(b, s->reason == GDB_REASON_SYSCALL_ENTRY
                          ? "syscall_entry:"
                          : "syscall_return:");
      gdb_buf_put_hexnum(b, s->sysno);
      gdb_buf_put(b, ";", 1);
      break;
    case GDB_REASON_FORK: /* Format: fork:p<pid>.<tid>; */
      gdb_buf_puts(b, "fork:");
      gdb_buf_put_tid(b, s->child, s->multiprocess);
      gdb_buf_put(b, ";", 1);
      break;
  }
}

/* The length of the well-formed UTF-8 sequence at P (N bytes available)
 * that XML allows as a character, or 0 (RFC 3629 table 3-7; U+FFFE and
 * U+FFFF are not XML characters). */
static size_t utf8_char(const u8 *p, size_t n) {
  u8 lo = 0x80, hi = 0xbf;
  size_t k;
  if (p[0] >= 0xc2 && p[0] <= 0xdf) {
    k = 2;
  } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
    k = 3;
    if (p[0] == 0xe0) lo = 0xa0; /* no overlong forms */
    if (p[0] == 0xed) hi = 0x9f; /* no surrogates */
  } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
    k = 4;
    if (p[0] == 0xf0) lo = 0x90;
    if (p[0] == 0xf4) hi = 0x8f; /* nothing above U+10FFFF */
  } else {
    return 0;
  }
  if (n < k || p[1] < lo || p[1] > hi) return 0;
  for (size_t i = 2; i < k; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  if (p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe) return 0;
  return k;
}

void gdb_buf_put_xml(struct gdb_buf *b, const char *s, size_t n) {
  const u8 *p = (const u8 *)s;
  size_t i = 0;
  while (i < n && p[i]) {
    size_t k;
    switch (p[i]) {
      case '<': gdb_buf_puts(b, "&lt;"); break;
      case '>': gdb_buf_puts(b, "&gt;"); break;
      case '&': gdb_buf_puts(b, "&amp;"); break;
      case '"': gdb_buf_puts(b, "&quot;"); break;
      case '\'': gdb_buf_puts(b, "&apos;"); break;
      default:
        if (p[i] >= 0x20 && p[i] < 0x7f) {
          gdb_buf_put(b, p + i, 1);
        } else if (p[i] >= 0x80 && (k = utf8_char(p + i, n - i)) != 0) {
          gdb_buf_put(b, p + i, k);
          i += k;
          continue;
        } else {
          gdb_buf_put(b, "?", 1);
        }
    }
    i++;
  }
}

void gdb_reply_error(struct gdb_buf *b, u8 code) {
  gdb_buf_put(b, "E", 1);
  put_u8hex(b, code);
}

void gdb_reply_error_msg(struct gdb_buf *b, const char *msg) {
  gdb_buf_puts(b, "E.");
  for (const char *p = msg; *p; p++) {
    u8 ch = (u8)*p;
    int bad = ch < 0x20 || ch > 0x7e || ch == '$' || ch == '#' ||
              ch == '}' || ch == '*';
    gdb_buf_put(b, bad ? "?" : p, 1);
  }
}

void gdb_reply_fio(struct gdb_buf *b, i64 result, int fio_errno) {
  /* Format: F result[,errno] */
  gdb_buf_put(b, "F", 1);
  put_signed(b, result);
  if (result < 0) {
    gdb_buf_put(b, ",", 1);
    put_signed(b, fio_errno);
  }
}

static u8 *be32(u8 *p, u32 v) {
  for (int i = 3; i >= 0; i--) *p++ = (u8)(v >> (8 * i));
  return p;
}

static u8 *be64(u8 *p, u64 v) {
  for (int i = 7; i >= 0; i--) *p++ = (u8)(v >> (8 * i));
  return p;
}

void gdb_reply_fstat(struct gdb_buf *b, const struct gdb_fio_stat *st) {
  /* Format: F40;<64-byte struct stat, big-endian fields, escaped> */
  u8 raw[64], *p = raw;
  p = be32(p, st->dev);
  p = be32(p, st->ino);
  p = be32(p, st->mode);
  p = be32(p, st->nlink);
  p = be32(p, st->uid);
  p = be32(p, st->gid);
  p = be32(p, st->rdev);
  p = be64(p, st->size);
  p = be64(p, st->blksize);
  p = be64(p, st->blocks);
  p = be32(p, st->atime);
  p = be32(p, st->mtime);
  p = be32(p, st->ctime);
  RW_ASSERT(p == raw + sizeof raw);
  gdb_buf_puts(b, "F40;");
  gdb_buf_put_bin(b, raw, sizeof raw);
}

void gdb_reply_xfer(struct gdb_buf *b, const void *data, size_t size, u64 off,
                    u64 len) {
  /* Format: m<data> (more follows) / l<data> (last chunk) */
  const u8 *s = data;
  size_t avail, n;
  if (off >= size) {
    gdb_buf_put(b, "l", 1);
    return;
  }
  avail = size - (size_t)off;
  if (len > GDB_DATA_MAX) len = GDB_DATA_MAX;
  n = avail < len ? avail : (size_t)len;
  n = gdb_bin_fit(s + off, n, GDB_PACKET_MAX - 1);
  gdb_buf_put(b, n == avail ? "l" : "m", 1);
  gdb_buf_put_bin(b, s + off, n);
}
