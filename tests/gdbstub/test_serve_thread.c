/* SPDX-License-Identifier: MIT */
/* Suite "serve_thread": the thread packets of gdbstub/serve_thread.c served
 * by gdb_serve over the fake replayer (fake_replay.h), whose three threads
 * come and go: the list at a position (qfThreadInfo, qsThreadInfo,
 * qXfer:threads:read with escaped names), T, Hg/Hc and the registers they
 * select, qC, qThreadExtraInfo, dead threads and malformed thread ids; and
 * real gdb on that fake replay (info threads, thread N, thread apply,
 * stepi and reverse-stepi in another thread, a breakpoint another thread
 * hits). */
#include <stdlib.h>

#include "tests/gdbstub/serve_util.h"

void test_serve_thread_list(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED,
      "qfThreadInfo",
      "qsThreadInfo",
      "qXfer:threads:read::0,fff",
      "qXfer:threads:read::10,8",
      "qC",
      "Tp2a.66",
      "qThreadExtraInfo,p2a.65",
      "qThreadExtraInfo,p2a.66",
      "?",
      "qsThreadInfo",
      NULL};
  static const char xml[] =
      "<?xml version=\"1.0\"?>\n<threads>\n"
      "<thread id=\"p2a.64\" core=\"0\" name=\"main\"/>\n"
      "<thread id=\"p2a.65\" core=\"0\" "
      "name=\"w&lt;&amp;&gt;&quot;&apos;?\xc3\xa9\"/>\n"
      "<thread id=\"p2a.66\" core=\"0\" name=\"prog\"/>\n"
      "</threads>\n";
  char want[512];
  struct fake_run run;
  fake_run(&run, 12, pk); /* all three alive; 0x65 runs next */
  CU_ASSERT_EQUAL_FATAL(run.n, 11);
  SU_HAS(run, 0, "qXfer:threads:read+");
  SU_LACKS(run, 0, "QThreadEvents+"); /* no thread events offered */
  SU_IS(run, 1, "mp2a.64,p2a.65,p2a.66");
  SU_IS(run, 2, "l");
  snprintf(want, sizeof want, "l%s", xml);
  SU_IS(run, 3, want);
  snprintf(want, sizeof want, "m%.8s", xml + 0x10);
  SU_IS(run, 4, want);
  SU_IS(run, 5, "QCp2a.65");
  SU_IS(run, 6, "OK");
  SU_IS(run, 7, "773c263e222701c3a9"); /* the recorded bytes */
  SU_IS(run, 8, "70726f67");           /* unknown: the program's name */
  SU_STARTS(run, 9, "T05");
  SU_HAS(run, 9, ";thread:p2a.65;");
  SU_IS(run, 10, "l");
  fake_run_free(&run);
}

/* Without multiprocess, ids are bare thread ids. */
void test_serve_thread_list_plain(void) {
  static const char *const pk[] = {
      "qSupported:swbreak+", "qfThreadInfo", "qC", "T66", "Hg64", "p0",
      "qXfer:threads:read::0,fff", "?", NULL};
  char rax[17];
  struct fake_run run;
  fake_run(&run, 12, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 8);
  SU_LACKS(run, 0, "multiprocess+");
  SU_IS(run, 1, "m64,65,66");
  SU_IS(run, 2, "QC65");
  SU_IS(run, 3, "OK");
  SU_IS(run, 4, "OK");
  fake_le_hex(0x64, rax);
  SU_IS(run, 5, rax);
  SU_HAS(run, 6, "<thread id=\"66\" core=\"0\" name=\"prog\"/>");
  SU_HAS(run, 7, ";thread:65;");
  fake_run_free(&run);
}

/* Threads not yet created or already gone are neither listed nor
 * selectable. */
void test_serve_thread_dead(void) {
  static const char *const early[] = {
      SU_QSUPPORTED, "qfThreadInfo", "Tp2a.64", "Tp2a.65", "Hgp2a.65",
      "Hcp2a.66", "Tp2a.99", "qThreadExtraInfo,p2a.65", "Hgp2b.64",
      "Tp2b.64", "T-1", "T0", "qXfer:threads:read::0,fff", "Hgp2a.64", NULL};
  static const char *const late[] = {
      SU_QSUPPORTED, "qfThreadInfo", "Tp2a.65", "Tp2a.66", "Hgp2a.65",
      "vCont;s:p2a.65;c", "qC", NULL};
  struct fake_run run;
  fake_run(&run, 3, early); /* only the main thread */
  CU_ASSERT_EQUAL_FATAL(run.n, 14);
  SU_IS(run, 1, "mp2a.64");
  SU_IS(run, 2, "OK");
  for (int i = 3; i <= 11; i++) SU_ERROR(run, i);
  SU_HAS(run, 4, "no such thread");
  SU_HAS(run, 8, "no such process");
  SU_LACKS(run, 12, "p2a.65");
  SU_LACKS(run, 12, "p2a.66");
  SU_IS(run, 13, "OK");
  fake_run_free(&run);

  fake_run(&run, 40, late); /* 0x65 has exited */
  CU_ASSERT_EQUAL_FATAL(run.n, 7);
  SU_IS(run, 1, "mp2a.64,p2a.66");
  SU_ERROR(run, 2);
  SU_IS(run, 3, "OK");
  SU_ERROR(run, 4);
  SU_ERROR(run, 5); /* resuming a dead thread */
  SU_STARTS(run, 6, "QCp2a.");
  fake_run_free(&run);
}

/* Hg selects whose registers g and p show; Hg0 and Hg-1 keep the choice;
 * Hc does not change it. */
void test_serve_thread_select(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED, "p0", "Hgp2a.64", "p0", "p10", "Hgp2a.66", "p0", "g",
      "qC", "Hg0", "p0", "Hgp2a.-1", "p0", "Hg-1", "p0", "Hcp2a.64", "p0",
      "Hc-1", "Hcp2a.0", "Hgp2a.65", "p10", NULL};
  char hex[17];
  struct fake_run run;
  fake_run(&run, 12, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 21);
  fake_le_hex(0x65, hex); /* the thread that runs next, before any Hg */
  SU_IS(run, 1, hex);
  SU_IS(run, 2, "OK");
  fake_le_hex(0x64, hex);
  SU_IS(run, 3, hex);
  fake_le_hex(fake_rip(0x64, fake_count(0x64, 12)), hex);
  SU_IS(run, 4, hex);
  SU_IS(run, 5, "OK");
  fake_le_hex(0x66, hex);
  SU_IS(run, 6, hex);
  SU_STARTS(run, 7, hex); /* rax comes first in g */
  SU_IS(run, 8, "QCp2a.66");
  for (int i = 9; i <= 16; i += 2) {
    SU_IS(run, i, "OK");
    SU_IS(run, i + 1, hex); /* still 0x66 */
  }
  SU_IS(run, 17, "OK");
  SU_IS(run, 18, "OK");
  SU_IS(run, 19, "OK");
  fake_le_hex(fake_rip(0x65, fake_count(0x65, 12)), hex);
  SU_IS(run, 20, hex);
  fake_run_free(&run);
}

/* Malformed ids get an error reply and the session goes on. */
void test_serve_thread_malformed(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED, "H", "Hg", "Hx1", "Hgp", "Hgp2a.", "Hgp.1", "Hgzz",
      "Hg-2", "Hg1x", "Hg12345678901234567890", "Hgp2a.100000064",
      "Hgp2a.7fffffffffffffff", "T", "Tp2a.65;", "qThreadExtraInfo",
      "qThreadExtraInfo,", "vCont;s:", "vCont;s:zz", "vCont;s:p2a.64:1",
      "vCont;r1", "vCont;r1:p2a.64", "qC", NULL};
  struct fake_run run;
  fake_run(&run, 12, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 23);
  for (int i = 1; i <= 21; i++) SU_ERROR(run, i);
  SU_IS(run, 22, "QCp2a.65");
  fake_run_free(&run);
}

/* ---- Real gdb ----------------------------------------------------------- */

/* gdb 13 on the fake replay from position 3 (only the main thread): a
 * breakpoint the second thread hits, stepi in it and in the main thread
 * (whose registers it then shows), reverse-stepi, the thread list as it
 * grows, thread apply, and reverse-continue back to the start. */
void test_serve_thread_gdb_session(void) {
  char script[2048], brk[160], pc2[64], pc4[64], pc5[64];
  /* 0x65 reaches its second instruction at position 9. */
  u64 bp = fake_rip(0x65, 1);
  u64 main_at = fake_count(0x64, 10);
  snprintf(script, sizeof script,
           "info threads\n"
           "break *%#llx\n"
           "continue\n"
           "printf \"rax1=%%#lx\\n\", $rax\n"
           "delete\n"
           "info threads\n"
           "stepi\n"
           "printf \"pc2=%%#lx\\n\", $pc\n"
           "thread 1\n"
           "printf \"rax3=%%#lx\\n\", $rax\n"
           "stepi\n"
           "printf \"pc4=%%#lx\\n\", $pc\n"
           "reverse-stepi\n"
           "printf \"pc5=%%#lx\\n\", $pc\n"
           "info threads\n"
           "thread apply all printf \"all=%%#lx\\n\", $rax\n"
           "thread apply all bt 1\n"
           "reverse-continue\n"
           "info threads\n"
           "printf \"rax6=%%#lx\\n\", $rax\n",
           (unsigned long long)bp);
  char *out = su_gdb(3, script);
  if (!out) return; /* no gdb */
  snprintf(brk, sizeof brk,
           "Thread 2 \"w<&>\"'?\xc3\xa9\" hit Breakpoint 1, 0x%016llx",
           (unsigned long long)bp);
  snprintf(pc2, sizeof pc2, "pc2=%#llx\n",
           (unsigned long long)fake_rip(0x65, 2));
  snprintf(pc4, sizeof pc4, "pc4=%#llx\n",
           (unsigned long long)fake_rip(0x64, main_at + 1));
  snprintf(pc5, sizeof pc5, "pc5=%#llx\n",
           (unsigned long long)fake_rip(0x64, main_at));
  const char *const want[] = {
      "* 1    Thread 42.100 \"main\"",
      brk,
      "rax1=0x65\n",
      "* 2    Thread 42.101 \"w<&>\"'?\xc3\xa9\"",
      "[New Thread 42.102]", /* the step let it start */
      pc2,
      "rax3=0x64\n",
      pc4,
      pc5,
      "Thread 42.102 \"prog\"",
      "all=0x66\n",
      "all=0x65\n",
      "all=0x64\n",
      "No more reverse-execution history.",
      "rax6=0x64\n",
      NULL};
  su_expect_in_order(out, want);
  free(out);
}
