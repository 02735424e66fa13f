/* SPDX-License-Identifier: MIT */
/* Suite "reply": the reply builders of gdbstub/reply.c, compared byte for
 * byte with what the GDB manual's Stop Reply and Host I/O sections show. */
#include <stdlib.h>

#include "tests/gdbstub/util.h"

#define BUF_IS(b, s)                                \
  do {                                              \
    CU_ASSERT_EQUAL((b).err, 0);                    \
    CU_ASSERT_STRING_EQUAL((char *)(b).data, (s));  \
    gdb_buf_reset(&(b));                            \
  } while (0)

void test_reply_tid(void) {
  struct gdb_buf b;
  gdb_buf_init(&b, 0);
  gdb_buf_put_tid(&b, (struct gdb_tid){0x4d2, 0x4d3, 1}, 1);
  BUF_IS(b, "p4d2.4d3");
  gdb_buf_put_tid(&b, (struct gdb_tid){7, GDB_TID_ALL, 1}, 1);
  BUF_IS(b, "p7.-1");
  gdb_buf_put_tid(&b, (struct gdb_tid){7, 0x10, 1}, 0);
  BUF_IS(b, "10");
  gdb_buf_free(&b);
}

void test_reply_stop(void) {
  struct gdb_buf b;
  struct rw_regs regs;
  struct gdb_stop s;
  memset(&regs, 0, sizeof regs);
  regs.gpr[RW_REG_rbp] = 0x1122334455667788ull;
  regs.gpr[RW_REG_rsp] = 0x7ffc0000;
  regs.rip = 0x401000;
  gdb_buf_init(&b, 0);

  memset(&s, 0, sizeof s);
  s.kind = GDB_STOP_SIGNAL;
  s.signo = 5;
  s.has_thread = 1;
  s.multiprocess = 1;
  s.thread = (struct gdb_tid){100, 101, 1};
  s.reason = GDB_REASON_SWBREAK;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:p64.65;swbreak:;");

  s.regs = &regs;
  s.reason = GDB_REASON_WATCH;
  s.addr = 0x601040;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T0506:8877665544332211;07:0000fc7f00000000;"
            "10:0010400000000000;thread:p64.65;watch:601040;");

  s.regs = NULL;
  s.reason = GDB_REASON_RWATCH;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:p64.65;rwatch:601040;");
  s.reason = GDB_REASON_AWATCH;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:p64.65;awatch:601040;");
  s.reason = GDB_REASON_HWBREAK;
  s.multiprocess = 0;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:65;hwbreak:;");
  s.reason = GDB_REASON_REPLAY_BEGIN;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:65;replaylog:begin;");
  s.reason = GDB_REASON_SYSCALL_ENTRY;
  s.sysno = 0xe7;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:65;syscall_entry:e7;");
  s.reason = GDB_REASON_SYSCALL_RETURN;
  s.sysno = 1;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:65;syscall_return:1;");
  /* An exec event names the new program in hex, and no reason. */
  s.exec_path = "/bin/ls";
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05thread:65;exec:2f62696e2f6c73;");
  s.exec_path = NULL;
  s.reason = GDB_REASON_REPLAY_END;
  s.has_thread = 0;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "T05replaylog:end;");

  s.kind = GDB_STOP_EXITED;
  s.status = 3;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "W03");
  s.multiprocess = 1;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "W03;process:64");
  s.kind = GDB_STOP_TERMINATED;
  s.signo = 11;
  gdb_stop_reply(&b, &s);
  BUF_IS(b, "X0b;process:64");
  gdb_buf_free(&b);
}

void test_reply_errors(void) {
  struct gdb_buf b;
  gdb_buf_init(&b, 0);
  gdb_reply_error(&b, 1);
  BUF_IS(b, "E01");
  gdb_reply_error(&b, 0xff);
  BUF_IS(b, "Eff");
  gdb_reply_error_msg(&b, "bad $thing# at *}\n\xc3\xa9 ok");
  BUF_IS(b, "E.bad ?thing? at \?\?\?\?\? ok");
  gdb_buf_free(&b);
}

void test_reply_fio(void) {
  struct gdb_buf b;
  struct gdb_fio_stat st;
  gdb_buf_init(&b, 0);
  gdb_reply_fio(&b, 5, 0);
  BUF_IS(b, "F5");
  gdb_reply_fio(&b, -1, 2);
  BUF_IS(b, "F-1,2");
  gdb_reply_fio(&b, 0x1000, 9); /* errno only for failures */
  BUF_IS(b, "F1000");

  memset(&st, 0, sizeof st);
  st.mode = 0100755;
  st.size = 0x2324; /* '#' and '$' bytes, escaped */
  st.blksize = 4096;
  gdb_reply_fstat(&b, &st);
  CU_ASSERT_EQUAL(b.err, 0);
  CU_ASSERT_EQUAL(b.len, 4 + 64 + 2);
  CU_ASSERT(memcmp(b.data, "F40;", 4) == 0);
  /* mode, big-endian, is the third field. */
  CU_ASSERT(memcmp(b.data + 4 + 8, "\x00\x00\x81\xed", 4) == 0);
  /* size at offset 28: 00 .. 00 23 24, escaped. */
  CU_ASSERT(memcmp(b.data + 4 + 28, "\0\0\0\0\0\0}\x03}\x04", 10) == 0);
  gdb_buf_free(&b);
}

void test_reply_xfer(void) {
  struct gdb_buf b;
  static const char obj[] = "<target>$</target>";
  size_t size = sizeof obj - 1;
  char *big;
  gdb_buf_init(&b, 0);
  gdb_reply_xfer(&b, obj, size, 0, 1000);
  CU_ASSERT_EQUAL(b.len, 1 + size + 1);
  CU_ASSERT(memcmp(b.data, "l<target>}\x04</target>", b.len) == 0);
  gdb_buf_reset(&b);
  gdb_reply_xfer(&b, obj, size, 0, 4);
  BUF_IS(b, "m<tar");
  gdb_reply_xfer(&b, obj, size, 14, 4);
  BUF_IS(b, "lget>");
  gdb_reply_xfer(&b, obj, size, size, 4);
  BUF_IS(b, "l");
  gdb_reply_xfer(&b, obj, size, ~0ull, 4);
  BUF_IS(b, "l");
  /* A huge request is cut to what fits one packet, escapes included. */
  big = malloc(3 * GDB_PACKET_MAX);
  CU_ASSERT_FATAL(big != NULL);
  memset(big, '#', 3 * GDB_PACKET_MAX);
  gdb_reply_xfer(&b, big, 3 * GDB_PACKET_MAX, 0, ~0ull);
  CU_ASSERT_EQUAL(b.err, 0);
  CU_ASSERT_EQUAL(b.data[0], 'm');
  CU_ASSERT(b.len <= GDB_PACKET_MAX);
  CU_ASSERT(b.len > GDB_PACKET_MAX / 2);
  free(big);
  gdb_buf_free(&b);
}

/* Thread names go into qXfer:threads:read as XML attribute text. */
void test_reply_xml(void) {
  struct gdb_buf b;
  gdb_buf_init(&b, 0);
  gdb_buf_put_xml(&b, "a<b>&\"c'", 8);
  BUF_IS(b, "a&lt;b&gt;&amp;&quot;c&apos;");
  gdb_buf_put_xml(&b, "worker", 3); /* N bounds it */
  BUF_IS(b, "wor");
  gdb_buf_put_xml(&b, "ab\0cd", 5); /* so does a NUL */
  BUF_IS(b, "ab");
  gdb_buf_put_xml(&b, "\x01\t\n\x7f", 4); /* controls, DEL */
  BUF_IS(b, "????");
  /* Well-formed UTF-8 stays: e acute, a CJK character, an emoji. */
  gdb_buf_put_xml(&b, "\xc3\xa9\xe5\xb7\xa5\xf0\x9f\x98\x80", 9);
  BUF_IS(b, "\xc3\xa9\xe5\xb7\xa5\xf0\x9f\x98\x80");
  /* Cut short (comm is 15 bytes), stray continuation bytes, overlong
   * forms, surrogates, beyond U+10FFFF, U+FFFE: one '?' per bad byte. */
  gdb_buf_put_xml(&b, "x\xe5\xb7", 3);
  BUF_IS(b, "x??");
  gdb_buf_put_xml(&b, "\x80\xbf", 2);
  BUF_IS(b, "??");
  gdb_buf_put_xml(&b, "\xc0\xaf\xe0\x80\xaf", 5);
  BUF_IS(b, "?????");
  gdb_buf_put_xml(&b, "\xed\xa0\x80", 3);
  BUF_IS(b, "???");
  gdb_buf_put_xml(&b, "\xf4\x90\x80\x80\xf5", 5);
  BUF_IS(b, "?????");
  gdb_buf_put_xml(&b, "\xef\xbf\xbe.", 4);
  BUF_IS(b, "???.");
  gdb_buf_put_xml(&b, "\xc3", 1);
  BUF_IS(b, "?");
  gdb_buf_put_xml(&b, "", 0);
  CU_ASSERT_EQUAL(b.len, 0);
  gdb_buf_free(&b);
}
