/* SPDX-License-Identifier: MIT */
/* Suite "parse": the one-letter packets of gdbstub/parse.c, each with good
 * and malformed vectors, and a check that no prefix of a valid packet makes
 * the parser read past the payload. */
#include <stdlib.h>

#include "tests/gdbstub/util.h"

static struct gdb_request r;


void test_parse_names(void) {
  CU_ASSERT_STRING_EQUAL(gdb_req_name(GDB_REQ_READ_MEM), "READ_MEM");
  CU_ASSERT_STRING_EQUAL(gdb_req_name(GDB_REQ_UNKNOWN), "UNKNOWN");
  CU_ASSERT_STRING_EQUAL(gdb_req_name(GDB_REQ__COUNT), "?");
  CU_ASSERT_STRING_EQUAL(gdb_req_name((enum gdb_req_kind)-1), "?");
  for (int k = 0; k < GDB_REQ__COUNT; k++)
    CU_ASSERT(strcmp(gdb_req_name((enum gdb_req_kind)k), "?") != 0);
}

void test_parse_simple(void) {
  KIND("?", GDB_REQ_STOP_REASON);
  BAD("?x");
  KIND("g", GDB_REQ_READ_REGS);
  BAD("g1");
  KIND("!", GDB_REQ_EXTENDED_MODE);
  KIND("", GDB_REQ_UNKNOWN);
}

void test_parse_regs(void) {
  KIND("p10", GDB_REQ_READ_REG);
  CU_ASSERT_EQUAL(r.u.reg.regnum, 16);
  BAD("p");
  BAD("p1x");
  BAD("p10000000000000000");
  KIND("P10=0010400000000000", GDB_REQ_WRITE_REG);
  CU_ASSERT_EQUAL(r.u.reg.regnum, 16);
  CU_ASSERT_EQUAL(r.u.reg.value_len, 16);
  CU_ASSERT(strncmp(r.u.reg.value, "0010400000000000", 16) == 0);
  BAD("P10");
  BAD("P10=");
  BAD("P10=123");
  BAD("P10=zz");
  KIND("G00112233", GDB_REQ_WRITE_REGS);
  CU_ASSERT_EQUAL(r.u.reg.value_len, 8);
  BAD("G001");
  BAD("G0g");
}

void test_parse_mem(void) {
  KIND("m7fffffffe000,40", GDB_REQ_READ_MEM);
  CU_ASSERT_EQUAL(r.u.mem.addr, 0x7fffffffe000ull);
  CU_ASSERT_EQUAL(r.u.mem.len, 0x40);
  KIND("m0,0", GDB_REQ_READ_MEM);
  KIND("mffffffffffffffff,1", GDB_REQ_READ_MEM);
  BAD("mffffffffffffffff,2"); /* wraps */
  BAD("m1000");
  BAD("m1000,");
  BAD("m,4");
  BAD("m10,4x");
  /* Longer than a reply can carry: accepted, the reply is shorter. */
  KIND("m10,10000", GDB_REQ_READ_MEM);
  CU_ASSERT_EQUAL(r.u.mem.len, 0x10000);
  {
    char s[64];
    snprintf(s, sizeof s, "m0,%x", GDB_MEM_READ_MAX);
    KIND(s, GDB_REQ_READ_MEM);
    snprintf(s, sizeof s, "m0,%x", GDB_MEM_READ_MAX + 1);
    KIND(s, GDB_REQ_READ_MEM);
  }
  KIND("M1000,2:abcd", GDB_REQ_WRITE_MEM);
  CU_ASSERT_EQUAL(r.u.mem.binary, 0);
  CU_ASSERT_EQUAL(r.u.mem.data_len, 4);
  BAD("M1000,2:abc");
  BAD("M1000,2:abcg");
  BAD("M1000,2");
  /* X carries raw bytes (the decoder already removed the escapes). */
  gdb_parse("X20,3:\x00#}", 9, &r);
  CU_ASSERT_EQUAL(r.kind, GDB_REQ_WRITE_MEM);
  CU_ASSERT_EQUAL(r.u.mem.binary, 1);
  CU_ASSERT_EQUAL(r.u.mem.data_len, 3);
  CU_ASSERT_EQUAL(r.u.mem.data[0], 0);
  KIND("X20,0:", GDB_REQ_WRITE_MEM); /* gdb's probe for X support */
  BAD("X20,2:a");
}

void test_parse_resume(void) {
  KIND("c", GDB_REQ_CONT);
  CU_ASSERT_EQUAL(r.u.cont.dir, GDB_FORWARD);
  CU_ASSERT_EQUAL(r.u.cont.n, 1);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_CONT);
  CU_ASSERT_EQUAL(r.u.cont.act[0].has_tid, 0);
  CU_ASSERT_EQUAL(r.u.cont.has_addr, 0);
  CU_ASSERT_EQUAL(r.u.cont.hc, 1); /* for the thread Hc selected */
  KIND("s401000", GDB_REQ_CONT);
  CU_ASSERT_EQUAL(r.u.cont.hc, 1);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_STEP);
  CU_ASSERT_EQUAL(r.u.cont.has_addr, 1);
  CU_ASSERT_EQUAL(r.u.cont.addr, 0x401000);
  BAD("cx");
  BAD("c10;");
  KIND("C0b", GDB_REQ_CONT);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_CONT_SIG);
  CU_ASSERT_EQUAL(r.u.cont.act[0].signo, 11);
  CU_ASSERT_EQUAL(r.u.cont.has_addr, 0);
  KIND("S05;401000", GDB_REQ_CONT);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_STEP_SIG);
  CU_ASSERT_EQUAL(r.u.cont.act[0].signo, 5);
  CU_ASSERT_EQUAL(r.u.cont.addr, 0x401000);
  BAD("C");
  BAD("C100");
  BAD("C05;");
  BAD("C05x");
}

void test_parse_reverse(void) {
  KIND("bc", GDB_REQ_CONT);
  CU_ASSERT_EQUAL(r.u.cont.dir, GDB_REVERSE);
  CU_ASSERT_EQUAL(r.u.cont.hc, 1);
  CU_ASSERT_EQUAL(r.u.cont.n, 1);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_CONT);
  KIND("bs", GDB_REQ_CONT);
  CU_ASSERT_EQUAL(r.u.cont.dir, GDB_REVERSE);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_STEP);
  KIND("b", GDB_REQ_UNKNOWN);   /* old baud-rate packet */
  KIND("b9600", GDB_REQ_UNKNOWN);
  KIND("bcx", GDB_REQ_UNKNOWN);
}

void test_parse_breakpoints(void) {
  static const struct {
    const char *s;
    enum gdb_req_kind k;
    enum gdb_bp_type t;
  } v[] = {
      {"Z0,401000,1", GDB_REQ_INSERT_BP, GDB_BP_SOFT},
      {"z0,401000,1", GDB_REQ_REMOVE_BP, GDB_BP_SOFT},
      {"Z1,401000,1", GDB_REQ_INSERT_BP, GDB_BP_HARD},
      {"Z2,401000,1", GDB_REQ_INSERT_BP, GDB_BP_WRITE},
      {"Z3,401000,1", GDB_REQ_INSERT_BP, GDB_BP_READ},
      {"z4,401000,1", GDB_REQ_REMOVE_BP, GDB_BP_ACCESS},
  };
  for (size_t i = 0; i < RW_ARRAY_SIZE(v); i++) {
    KIND(v[i].s, v[i].k);
    CU_ASSERT_EQUAL(r.u.bp.type, v[i].t);
    CU_ASSERT_EQUAL(r.u.bp.addr, 0x401000);
    CU_ASSERT_EQUAL(r.u.bp.kind, 1);
  }
  KIND("Z2,601040,8", GDB_REQ_INSERT_BP);
  CU_ASSERT_EQUAL(r.u.bp.kind, 8);
  /* Conditions and commands are skipped safely. */
  KIND("Z0,401000,1;X3,220027", GDB_REQ_INSERT_BP);
  CU_ASSERT_EQUAL(r.u.bp.addr, 0x401000);
  KIND("Z0,401000,1;X3,2200;cmds:0,X2,ff", GDB_REQ_INSERT_BP);
  KIND("Z5,401000,1", GDB_REQ_UNKNOWN);
  KIND("Z", GDB_REQ_UNKNOWN);
  BAD("Z0");
  BAD("Z0,401000");
  BAD("Z0,401000,");
  BAD("Z0;401000,1");
  BAD("Z0,401000,1x");
}

void test_parse_threads(void) {
  KIND("Hg0", GDB_REQ_SET_THREAD);
  CU_ASSERT_EQUAL(r.u.thread.op, 'g');
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, GDB_TID_ANY);
  KIND("Hc-1", GDB_REQ_SET_THREAD);
  CU_ASSERT_EQUAL(r.u.thread.op, 'c');
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, GDB_TID_ALL);
  KIND("Hgp4d2.4d3", GDB_REQ_SET_THREAD);
  CU_ASSERT_EQUAL(r.u.thread.tid.has_pid, 1);
  CU_ASSERT_EQUAL(r.u.thread.tid.pid, 0x4d2);
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, 0x4d3);
  KIND("Hcp4d2.0", GDB_REQ_SET_THREAD); /* gdb's "any thread of 4d2" */
  CU_ASSERT_EQUAL(r.u.thread.tid.pid, 0x4d2);
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, GDB_TID_ANY);
  KIND("Hgp4d2", GDB_REQ_SET_THREAD); /* all threads of 4d2 */
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, GDB_TID_ALL);
  /* Ids too large for a thread are parsed; the stub finds no thread. */
  KIND("Hgp1.100000000", GDB_REQ_SET_THREAD);
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, 0x100000000ll);
  BAD("H");
  BAD("Hx1");
  BAD("Hg");
  BAD("Hgp");
  BAD("Hgp1.");
  BAD("Hgp.1");
  BAD("Hg-2");
  BAD("Hg1x");
  BAD("Hgp1.2.3");
  BAD("Hg12345678901234567"); /* more than 64 bits */
  KIND("Tp1.2", GDB_REQ_THREAD_ALIVE);
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, 2);
  KIND("T1f", GDB_REQ_THREAD_ALIVE);
  BAD("T");
  BAD("Tq");
  BAD("Tp1.2;");
}

void test_parse_kill_detach(void) {
  KIND("k", GDB_REQ_KILL);
  CU_ASSERT_EQUAL(r.u.thread.has_tid, 0);
  BAD("k1");
  KIND("D", GDB_REQ_DETACH);
  CU_ASSERT_EQUAL(r.u.thread.has_tid, 0);
  KIND("D;4d2", GDB_REQ_DETACH);
  CU_ASSERT_EQUAL(r.u.thread.has_tid, 1);
  CU_ASSERT_EQUAL(r.u.thread.tid.pid, 0x4d2);
  BAD("D;");
  BAD("D;0");
  BAD("D;-5");
  BAD("Dx");
}

void test_parse_unknown(void) {
  static const char *const v[] = {
      "A", "i", "I", "R00", "r", "t", "d", "e", "qL1200000000000000000",
      "qP0000001f0000000000007d3a", "qCRC:0,10", "qGetTLSAddr:1,0,0",
      "qTfV", "QDisableRandomization:1", "QThreadEvents:1", "vAttach;1",
      "vStopped", "vCtrlC", "vFlashDone", "vFile:pwrite:3,0,x",
      "vFile:unlink:2f746d70", "qXfer:memory-map:read::0,fff",
      "qXfer:features:write:target.xml:0:", "vContX", "qSupportedX",
      "QNonStopX", "qAttachedX", "vRunX", "vKillX",
  };
  for (size_t i = 0; i < RW_ARRAY_SIZE(v); i++) {
    if (!strcmp(v[i], "qSupportedX") || !strcmp(v[i], "vKillX")) {
      BAD(v[i]); /* known name, garbage after it */
      continue;
    }
    KIND(v[i], GDB_REQ_UNKNOWN);
  }
}

/* Every prefix of valid packets parses from an exact-size heap copy, so
 * ASan reports any read past the payload. */
void test_parse_never_overreads(void) {
  static const char *const v[] = {
      "m7fffffffe000,40", "M10,2:abcd", "X10,1:a", "P10=00", "C05;1000",
      "Z0,401000,1;X3,220027", "Hgp4d2.4d3", "vCont;r400000,400010:p1.1;c",
      "vFile:open:2f62696e2f6c73,0,1c0", "vFile:pread:5,3fff,0",
      "qXfer:features:read:target.xml:0,ffb", "qRcmd,68656c70",
      "qSupported:multiprocess+;xmlRegisters=i386", "QPassSignals:e;14",
      "qThreadExtraInfo,p1.1", "vKill;1", "D;1", "qAttached:1",
  };
  for (size_t i = 0; i < RW_ARRAY_SIZE(v); i++) {
    size_t n = strlen(v[i]);
    for (size_t k = 0; k <= n; k++) {
      char *copy = malloc(k ? k : 1);
      CU_ASSERT_FATAL(copy != NULL);
      memcpy(copy, v[i], k);
      gdb_parse(copy, k, &r);
      CU_ASSERT(r.kind < GDB_REQ__COUNT);
      if (r.kind == GDB_REQ_MALFORMED) CU_ASSERT(r.msg != NULL);
      free(copy);
    }
    gdb_parse(v[i], n, &r);
    CU_ASSERT(r.kind != GDB_REQ_MALFORMED && r.kind != GDB_REQ_UNKNOWN);
  }
}
