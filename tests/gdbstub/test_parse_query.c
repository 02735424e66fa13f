/* SPDX-License-Identifier: MIT */
/* Suite "parse_query": the q, Q and v packet families of
 * gdbstub/parse_query.c, using the packets gdb 13 sends in a real session
 * plus malformed variants of each. */
#include "tests/gdbstub/util.h"

static struct gdb_request r;


void test_parse_query_q_threads(void) {
  KIND("qC", GDB_REQ_CURRENT_THREAD);
  KIND("qfThreadInfo", GDB_REQ_THREAD_INFO_FIRST);
  KIND("qsThreadInfo", GDB_REQ_THREAD_INFO_NEXT);
  KIND("qfThreadInfoX", GDB_REQ_UNKNOWN);
  KIND("qThreadExtraInfo,p4d2.4d3", GDB_REQ_THREAD_EXTRA_INFO);
  CU_ASSERT_EQUAL(r.u.thread.tid.pid, 0x4d2);
  CU_ASSERT_EQUAL(r.u.thread.tid.tid, 0x4d3);
  BAD("qThreadExtraInfo");
  BAD("qThreadExtraInfo,");
  BAD("qThreadExtraInfo,p1.2x");
}

void test_parse_query_q_supported(void) {
  KIND("qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;"
       "fork-events+;vfork-events+;exec-events+;vContSupported+;"
       "QThreadEvents+;no-resumed+;memory-tagging+;xmlRegisters=i386",
       GDB_REQ_SUPPORTED);
  CU_ASSERT_EQUAL(r.u.supported.features,
                  GDB_FEAT_MULTIPROCESS | GDB_FEAT_SWBREAK |
                      GDB_FEAT_HWBREAK | GDB_FEAT_VCONT_SUPPORTED |
                      GDB_FEAT_QTHREAD_EVENTS | GDB_FEAT_NO_RESUMED |
                      GDB_FEAT_XML_I386 | GDB_FEAT_EXEC_EVENTS |
                      GDB_FEAT_FORK_EVENTS);
  KIND("qSupported", GDB_REQ_SUPPORTED);
  CU_ASSERT_EQUAL(r.u.supported.features, 0);
  KIND("qSupported:multiprocess-;swbreak;xmlRegisters=arm,i386;"
       "error-message+;;unknown+",
       GDB_REQ_SUPPORTED);
  CU_ASSERT_EQUAL(r.u.supported.features,
                  GDB_FEAT_XML_I386 | GDB_FEAT_ERROR_MESSAGE);
  KIND("qSupported:xmlRegisters=i386x,i38", GDB_REQ_SUPPORTED);
  CU_ASSERT_EQUAL(r.u.supported.features, 0);
  BAD("qSupported;x");
}

void test_parse_query_q_xfer(void) {
  KIND("qXfer:features:read:target.xml:0,ffb", GDB_REQ_XFER_READ);
  CU_ASSERT_EQUAL(r.u.xfer.object, GDB_XFER_FEATURES);
  CU_ASSERT_EQUAL(r.u.xfer.annex_len, 10);
  CU_ASSERT(memcmp(r.u.xfer.annex, "target.xml", 10) == 0);
  CU_ASSERT_EQUAL(r.u.xfer.off, 0);
  CU_ASSERT_EQUAL(r.u.xfer.len, 0xffb);
  KIND("qXfer:auxv:read::1f0,ffb", GDB_REQ_XFER_READ);
  CU_ASSERT_EQUAL(r.u.xfer.object, GDB_XFER_AUXV);
  CU_ASSERT_EQUAL(r.u.xfer.annex_len, 0);
  CU_ASSERT_EQUAL(r.u.xfer.off, 0x1f0);
  KIND("qXfer:exec-file:read:4d2:0,ffb", GDB_REQ_XFER_READ);
  CU_ASSERT_EQUAL(r.u.xfer.object, GDB_XFER_EXEC_FILE);
  CU_ASSERT(memcmp(r.u.xfer.annex, "4d2", 3) == 0);
  KIND("qXfer:threads:read::0,ffb", GDB_REQ_XFER_READ);
  CU_ASSERT_EQUAL(r.u.xfer.object, GDB_XFER_THREADS);
  KIND("qXfer:libraries-svr4:read:start=7ffff7fc3000;prev=0:0,ffb",
       GDB_REQ_XFER_READ);
  CU_ASSERT_EQUAL(r.u.xfer.object, GDB_XFER_LIBRARIES_SVR4);
  CU_ASSERT_EQUAL(r.u.xfer.annex_len, 25);
  KIND("qXfer:threads:read::0,ffffffffffffffff", GDB_REQ_XFER_READ);
  CU_ASSERT_EQUAL(r.u.xfer.len, GDB_DATA_MAX); /* clamped */
  KIND("qXfer:spu:read::0,10", GDB_REQ_UNKNOWN);
  KIND("qXfer:auxv:write::0:abc", GDB_REQ_UNKNOWN);
  BAD("qXfer:auxv:read::");
  BAD("qXfer:auxv:read::0");
  BAD("qXfer:auxv:read::0,");
  BAD("qXfer:auxv:read:0,10");
  BAD("qXfer:auxv:read::0,10,");
  BAD("qXfer:auxv:read::10000000000000000,1");
}

void test_parse_query_q_misc(void) {
  KIND("qAttached", GDB_REQ_ATTACHED);
  CU_ASSERT_EQUAL(r.u.thread.has_tid, 0);
  KIND("qAttached:4d2", GDB_REQ_ATTACHED);
  CU_ASSERT_EQUAL(r.u.thread.has_tid, 1);
  CU_ASSERT_EQUAL(r.u.thread.tid.pid, 0x4d2);
  BAD("qAttached:");
  BAD("qAttached:0");
  KIND("qOffsets", GDB_REQ_OFFSETS);
  KIND("qSymbol::", GDB_REQ_SYMBOL);
  KIND("qSymbol:7ffff7dd0000:6d61696e", GDB_REQ_SYMBOL);
  KIND("qTStatus", GDB_REQ_TRACE_STATUS);
  KIND("qTStatusX", GDB_REQ_UNKNOWN);
  KIND("qL1200000000000000000", GDB_REQ_UNKNOWN);
  KIND("qP0000001f0000000000007d3a", GDB_REQ_UNKNOWN);
  KIND("q", GDB_REQ_UNKNOWN);
}

void test_parse_query_q_rcmd(void) {
  char s[2 * GDB_TEXT_MAX + 16];
  KIND("qRcmd,696e666f20747261636520", GDB_REQ_RCMD);
  CU_ASSERT_STRING_EQUAL(r.text, "info trace ");
  CU_ASSERT_EQUAL(r.text_len, 11);
  KIND("qRcmd,", GDB_REQ_RCMD);
  CU_ASSERT_EQUAL(r.text_len, 0);
  BAD("qRcmd,6");
  BAD("qRcmd,6x");
  BAD("qRcmd,6100");
  /* The longest command that fits, then one byte more. */
  strcpy(s, "qRcmd,");
  for (int i = 0; i < GDB_TEXT_MAX - 1; i++) memcpy(s + 6 + 2 * i, "41", 2);
  s[6 + 2 * (GDB_TEXT_MAX - 1)] = 0;
  KIND(s, GDB_REQ_RCMD);
  CU_ASSERT_EQUAL(r.text_len, GDB_TEXT_MAX - 1);
  strcat(s, "41");
  BAD(s);
  /* A NUL in the payload ends nothing early: it is an error. */
  gdb_parse("qRcmd,41\0" "42", 11, &r);
  CU_ASSERT_EQUAL(r.kind, GDB_REQ_MALFORMED);
}

void test_parse_query_Q(void) {
  KIND("QStartNoAckMode", GDB_REQ_START_NOACK);
  KIND("QStartNoAckModeX", GDB_REQ_UNKNOWN);
  KIND("QNonStop:0", GDB_REQ_NON_STOP);
  CU_ASSERT_EQUAL(r.u.non_stop.on, 0);
  KIND("QNonStop:1", GDB_REQ_NON_STOP);
  CU_ASSERT_EQUAL(r.u.non_stop.on, 1);
  BAD("QNonStop:2");
  BAD("QNonStop:");
  BAD("QNonStop:10");
  KIND("QPassSignals:e;14;4c;ff", GDB_REQ_PASS_SIGNALS);
  CU_ASSERT_EQUAL(r.u.sig.set[0x0e / 8], 1u << (0x0e % 8));
  CU_ASSERT(r.u.sig.set[0x14 / 8] & (1u << (0x14 % 8)));
  CU_ASSERT(r.u.sig.set[0x4c / 8] & (1u << (0x4c % 8)));
  CU_ASSERT_EQUAL(r.u.sig.set[31], 0x80);
  CU_ASSERT_EQUAL(r.u.sig.set[3], 0);
  KIND("QPassSignals:", GDB_REQ_PASS_SIGNALS);
  for (int i = 0; i < 32; i++) CU_ASSERT_EQUAL(r.u.sig.set[i], 0);
  KIND("QProgramSignals:0;1;3", GDB_REQ_PROGRAM_SIGNALS);
  CU_ASSERT_EQUAL(r.u.sig.set[0], 0x0b);
  BAD("QPassSignals:100");
  BAD("QPassSignals:e;;14");
  BAD("QPassSignals:e,14");
  BAD("QProgramSignals:x");
  /* catch syscall: on for some numbers (hex), on for all, off. */
  KIND("QCatchSyscalls:1;1;e7;3c", GDB_REQ_CATCH_SYSCALLS);
  CU_ASSERT_EQUAL(r.u.catch_sys.on, 1);
  CU_ASSERT_EQUAL(r.u.catch_sys.n, 3);
  CU_ASSERT_EQUAL(r.u.catch_sys.nr[0], 1);
  CU_ASSERT_EQUAL(r.u.catch_sys.nr[1], 0xe7);
  CU_ASSERT_EQUAL(r.u.catch_sys.nr[2], 0x3c);
  KIND("QCatchSyscalls:1", GDB_REQ_CATCH_SYSCALLS);
  CU_ASSERT_EQUAL(r.u.catch_sys.on, 1);
  CU_ASSERT_EQUAL(r.u.catch_sys.n, 0);
  KIND("QCatchSyscalls:0", GDB_REQ_CATCH_SYSCALLS);
  CU_ASSERT_EQUAL(r.u.catch_sys.on, 0);
  BAD("QCatchSyscalls:");
  BAD("QCatchSyscalls:2");
  BAD("QCatchSyscalls:0;1");
  BAD("QCatchSyscalls:1;");
  BAD("QCatchSyscalls:1;x");
  BAD("QCatchSyscalls:1,1");
  BAD("QCatchSyscalls:1;100000000");
}

void test_parse_query_vcont(void) {
  KIND("vCont?", GDB_REQ_VCONT_QUERY);
  KIND("vCont;c", GDB_REQ_CONT);
  CU_ASSERT_EQUAL(r.u.cont.n, 1);
  CU_ASSERT_EQUAL(r.u.cont.dir, GDB_FORWARD);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_CONT);
  CU_ASSERT_EQUAL(r.u.cont.act[0].has_tid, 0);
  CU_ASSERT_EQUAL(r.u.cont.hc, 0); /* vCont names its threads */
  KIND("vCont;s:p4d2.4d3;c", GDB_REQ_CONT);
  CU_ASSERT_EQUAL_FATAL(r.u.cont.n, 2);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_STEP);
  CU_ASSERT_EQUAL(r.u.cont.act[0].has_tid, 1);
  CU_ASSERT_EQUAL(r.u.cont.act[0].tid.pid, 0x4d2);
  CU_ASSERT_EQUAL(r.u.cont.act[0].tid.tid, 0x4d3);
  CU_ASSERT_EQUAL(r.u.cont.act[1].kind, GDB_ACT_CONT);
  KIND("vCont;r401000,401010:p1.-1;C0b:2;S05;t:p1.3", GDB_REQ_CONT);
  CU_ASSERT_EQUAL_FATAL(r.u.cont.n, 4);
  CU_ASSERT_EQUAL(r.u.cont.act[0].kind, GDB_ACT_RANGE);
  CU_ASSERT_EQUAL(r.u.cont.act[0].start, 0x401000);
  CU_ASSERT_EQUAL(r.u.cont.act[0].end, 0x401010);
  CU_ASSERT_EQUAL(r.u.cont.act[0].tid.tid, GDB_TID_ALL);
  CU_ASSERT_EQUAL(r.u.cont.act[1].kind, GDB_ACT_CONT_SIG);
  CU_ASSERT_EQUAL(r.u.cont.act[1].signo, 11);
  CU_ASSERT_EQUAL(r.u.cont.act[1].tid.tid, 2);
  CU_ASSERT_EQUAL(r.u.cont.act[2].kind, GDB_ACT_STEP_SIG);
  CU_ASSERT_EQUAL(r.u.cont.act[2].has_tid, 0);
  CU_ASSERT_EQUAL(r.u.cont.act[3].kind, GDB_ACT_STOP);
  BAD("vCont");
  BAD("vCont;");
  BAD("vCont;x");
  BAD("vCont;c:");
  BAD("vCont;c;");
  BAD("vCont;C");
  BAD("vCont;C100");
  BAD("vCont;r1");
  BAD("vCont;r1,");
  BAD("vCont;cc");
  {
    /* GDB_MAX_ACTIONS actions fit; one more is refused. */
    char s[16 + 2 * (GDB_MAX_ACTIONS + 1)];
    strcpy(s, "vCont");
    for (int i = 0; i < GDB_MAX_ACTIONS; i++) strcat(s, ";s");
    KIND(s, GDB_REQ_CONT);
    CU_ASSERT_EQUAL(r.u.cont.n, GDB_MAX_ACTIONS);
    strcat(s, ";c");
    BAD(s);
  }
}

void test_parse_query_vfile(void) {
  KIND("vFile:setfs:0", GDB_REQ_VFILE_SETFS);
  CU_ASSERT_EQUAL(r.u.file.pid, 0);
  KIND("vFile:setfs:4d2", GDB_REQ_VFILE_SETFS);
  CU_ASSERT_EQUAL(r.u.file.pid, 0x4d2);
  BAD("vFile:setfs:-1");
  KIND("vFile:open:2f62696e2f6c73,0,1c0", GDB_REQ_VFILE_OPEN);
  CU_ASSERT_STRING_EQUAL(r.text, "/bin/ls");
  CU_ASSERT_EQUAL(r.text_len, 7);
  CU_ASSERT_EQUAL(r.u.file.flags, GDB_FIO_O_RDONLY);
  CU_ASSERT_EQUAL(r.u.file.mode, 0700);
  BAD("vFile:open:,0,0");
  BAD("vFile:open:2f62,0");
  BAD("vFile:open:2f6,0,0");
  BAD("vFile:open:2f62,0,0,");
  KIND("vFile:pread:5,fff,1000", GDB_REQ_VFILE_PREAD);
  CU_ASSERT_EQUAL(r.u.file.fd, 5);
  CU_ASSERT_EQUAL(r.u.file.count, 0xfff);
  CU_ASSERT_EQUAL(r.u.file.off, 0x1000);
  KIND("vFile:pread:5,100000,0", GDB_REQ_VFILE_PREAD);
  CU_ASSERT_EQUAL(r.u.file.count, GDB_DATA_MAX); /* clamped */
  KIND("vFile:pread:-1,10,0", GDB_REQ_VFILE_PREAD); /* serve says EBADF */
  CU_ASSERT_EQUAL(r.u.file.fd, -1);
  BAD("vFile:pread:5,10");
  BAD("vFile:pread:5,,0");
  KIND("vFile:close:5", GDB_REQ_VFILE_CLOSE);
  CU_ASSERT_EQUAL(r.u.file.fd, 5);
  BAD("vFile:close:");
  BAD("vFile:close:5,");
  KIND("vFile:fstat:7", GDB_REQ_VFILE_FSTAT);
  CU_ASSERT_EQUAL(r.u.file.fd, 7);
  BAD("vFile:fstat:z");
  KIND("vFile:readlink:2f70726f632f312f657865", GDB_REQ_VFILE_READLINK);
  CU_ASSERT_STRING_EQUAL(r.text, "/proc/1/exe");
  BAD("vFile:readlink:");
  BAD("vFile:readlink:2f00");
  KIND("vFile:stat:2f", GDB_REQ_UNKNOWN);
  KIND("vFile:", GDB_REQ_UNKNOWN);
}

void test_parse_query_v_misc(void) {
  KIND("vKill;4d2", GDB_REQ_KILL);
  CU_ASSERT_EQUAL(r.u.thread.has_tid, 1);
  CU_ASSERT_EQUAL(r.u.thread.tid.pid, 0x4d2);
  BAD("vKill");
  BAD("vKill;");
  BAD("vKill;0");
  KIND("vRun;2f62696e2f6c73;2d6c", GDB_REQ_RUN);
  KIND("vRun", GDB_REQ_RUN);
  KIND("vMustReplyEmpty", GDB_REQ_MUST_REPLY_EMPTY);
  KIND("vMustReplyEmptyX", GDB_REQ_UNKNOWN);
  KIND("v", GDB_REQ_UNKNOWN);
}
