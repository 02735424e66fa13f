/* SPDX-License-Identifier: MIT */
/* Suite "serve_run": resuming through gdb_serve over the fake replayer
 * (fake_replay.h): which thread a step moves (vCont;s:TID;c, vCont;s:TID,
 * s with Hc, bs), range stepping per thread, continuing both ways, and the
 * stop replies, which name the thread that stopped and carry its
 * registers, also when a breakpoint or watchpoint of another thread ends a
 * step. Positions are recomputed here from the fake's schedule. */
#include <stdlib.h>

#include "tests/gdbstub/serve_util.h"

/* The stop reply tail for TID after it executed N instructions. */
static const char *tail(char *buf, u32 tid, u64 n) {
  su_stop_tail(buf, 64, tid, fake_rip(tid, n));
  return buf;
}

/* The stop reply tail for TID standing at position T. */
static const char *tail_at(char *buf, u32 tid, u64 t) {
  return tail(buf, tid, fake_count(tid, t));
}

/* The position a step of TID from T ends at (just after its instruction). */
static u64 fwd(u32 tid, u64 t) {
  while (t < FAKE_END && fake_sched(t) != tid) t++;
  return t + 1;
}

/* The position a reverse step of TID from T lands on. */
static u64 back(u32 tid, u64 t) {
  while (t-- > 0)
    if (fake_sched(t) == tid) return t;
  return 0;
}

void test_serve_run_step_thread(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED,      "vCont;s:p2a.64;c", "p0", "qC",
      "vCont;s:p2a.66",   "?",                "s",  "vCont;s",
      "vCont;s:p2a.-1",   NULL};
  char t[64], hex[17];
  struct fake_run run;
  u64 at = 12;
  fake_run(&run, at, pk); /* 0x65 runs next */
  CU_ASSERT_EQUAL_FATAL(run.n, 9);
  SU_STARTS(run, 1, "T05");
  at = fwd(0x64, at);
  SU_HAS(run, 1, tail_at(t, 0x64, at)); /* 0x64 stepped, not 0x65 */
  fake_le_hex(0x64, hex);
  SU_IS(run, 2, hex); /* g and p follow the stopped thread */
  SU_IS(run, 3, "QCp2a.64");
  at = fwd(0x66, at);
  SU_HAS(run, 4, tail_at(t, 0x66, at)); /* scheduler locking: the same */
  SU_HAS(run, 5, tail_at(t, 0x66, at));
  at = fwd(0x66, at);
  SU_HAS(run, 6, tail_at(t, 0x66, at)); /* s: Hc is any, so Hg's */
  at = fwd(0x66, at);
  SU_HAS(run, 7, tail_at(t, 0x66, at)); /* vCont;s for all: Hg's */
  at = fwd(0x66, at);
  SU_HAS(run, 8, tail_at(t, 0x66, at));
  fake_run_free(&run);
}

/* s and bs move the thread Hc selected; with Hc any, the Hg thread. */
void test_serve_run_hc(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED, "Hcp2a.66", "s", "Hc0", "Hgp2a.64", "s",
      "Hcp2a.66",    "bs",       "qC", "vCont;c", NULL};
  char t[64];
  struct fake_run run;
  u64 at = 12;
  fake_run(&run, at, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 10);
  SU_IS(run, 1, "OK");
  at = fwd(0x66, at);
  SU_HAS(run, 2, tail_at(t, 0x66, at));
  SU_IS(run, 3, "OK");
  SU_IS(run, 4, "OK");
  at = fwd(0x64, at);
  SU_HAS(run, 5, tail_at(t, 0x64, at));
  SU_IS(run, 6, "OK");
  at = back(0x66, at);
  SU_HAS(run, 7, tail_at(t, 0x66, at));
  SU_IS(run, 8, "QCp2a.66");
  SU_HAS(run, 9, "thread:p2a.64;replaylog:end;"); /* the one that ended */
  fake_run_free(&run);
}

void test_serve_run_reverse(void) {
  static const char *const pk[] = {SU_QSUPPORTED, "Hgp2a.66", "bs", "bs",
                                   "Hgp2a.64", "bs", "qC", NULL};
  static const char *const early[] = {SU_QSUPPORTED, "Hgp2a.66", "bs",
                                      "Hgp2a.64", "bs", "bs", "bc", NULL};
  char t[64];
  struct fake_run run;
  u64 at = 30;
  fake_run(&run, at, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 7);
  at = back(0x66, at);
  SU_STARTS(run, 2, "T05");
  SU_HAS(run, 2, tail_at(t, 0x66, at));
  at = back(0x66, at);
  SU_HAS(run, 3, tail_at(t, 0x66, at));
  at = back(0x64, at);
  SU_HAS(run, 5, tail_at(t, 0x64, at));
  SU_IS(run, 6, "QCp2a.64");
  fake_run_free(&run);

  /* 0x66 exists from position 10 but has run nothing before 15. */
  fake_run(&run, 11, early);
  CU_ASSERT_EQUAL_FATAL(run.n, 7);
  SU_HAS(run, 2, "thread:p2a.66;replaylog:begin;");
  at = back(0x64, 11);
  SU_HAS(run, 4, tail_at(t, 0x64, at));
  at = back(0x64, at);
  SU_HAS(run, 5, tail_at(t, 0x64, at));
  SU_HAS(run, 6, "replaylog:begin;");
  fake_run_free(&run);
}

/* A breakpoint in another thread ends a continue and a step; the stop
 * names that thread and shows its registers. */
void test_serve_run_breakpoint_other_thread(void) {
  char z1[64], z2[64], z1d[64], t[64], hex[17];
  const char *pk[] = {SU_QSUPPORTED, z1, "vCont;c", "qC", "p0", z1d, z2,
                      "vCont;s:p2a.64;c", "p0", "bc", NULL};
  struct fake_run run;
  snprintf(z1, sizeof z1, "Z0,%llx,1", (unsigned long long)fake_rip(0x66, 1));
  snprintf(z1d, sizeof z1d, "z%s", z1 + 1);
  snprintf(z2, sizeof z2, "Z0,%llx,1", (unsigned long long)fake_rip(0x66, 2));
  fake_run(&run, 12, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 10);
  SU_IS(run, 1, "OK");
  SU_HAS(run, 2, tail(t, 0x66, 1));
  SU_HAS(run, 2, "swbreak:;");
  SU_IS(run, 3, "QCp2a.66");
  fake_le_hex(0x66, hex);
  SU_IS(run, 4, hex);
  SU_IS(run, 5, "OK");
  SU_IS(run, 6, "OK");
  SU_HAS(run, 7, tail(t, 0x66, 2)); /* 0x64's step cut short by 0x66 */
  SU_HAS(run, 7, "swbreak:;");
  SU_IS(run, 8, hex);
  SU_HAS(run, 9, "replaylog:begin;"); /* nothing earlier hits rip(66,2) */
  fake_run_free(&run);
}

void test_serve_run_watch_other_thread(void) {
  char z[64], zd[64], t[64], w[32];
  const char *pk[] = {SU_QSUPPORTED, z, "vCont;s:p2a.64;c", "bc", zd,
                      "vCont;c", NULL};
  struct fake_run run;
  snprintf(z, sizeof z, "Z2,%llx,8", (unsigned long long)fake_var(0x66));
  snprintf(zd, sizeof zd, "z%s", z + 1);
  snprintf(w, sizeof w, "watch:%llx;", (unsigned long long)fake_var(0x66));
  fake_run(&run, 12, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 6);
  SU_IS(run, 1, "OK");
  /* 0x66 writes its variable at position 15, before 0x64 runs again. */
  SU_HAS(run, 2, tail(t, 0x66, 1));
  SU_HAS(run, 2, w);
  SU_HAS(run, 3, tail(t, 0x66, 0)); /* back before that write */
  SU_HAS(run, 3, w);
  SU_IS(run, 4, "OK");
  SU_HAS(run, 5, "replaylog:end;");
  fake_run_free(&run);
}

void test_serve_run_range(void) {
  u64 c64 = fake_count(0x64, 12);
  char r[96], z[64], t[64];
  const char *pk[] = {SU_QSUPPORTED, r, NULL};
  const char *pk2[] = {SU_QSUPPORTED, z, r, NULL};
  struct fake_run run;
  snprintf(r, sizeof r, "vCont;r%llx,%llx:p2a.64;c",
           (unsigned long long)fake_rip(0x64, c64),
           (unsigned long long)fake_rip(0x64, c64 + 3));
  fake_run(&run, 12, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 2);
  SU_HAS(run, 1, tail(t, 0x64, c64 + 3)); /* out of the range: stop */
  fake_run_free(&run);
  /* Another thread's breakpoint ends the range early. */
  snprintf(z, sizeof z, "Z0,%llx,1", (unsigned long long)fake_rip(0x66, 1));
  fake_run(&run, 12, pk2);
  CU_ASSERT_EQUAL_FATAL(run.n, 3);
  SU_HAS(run, 2, tail(t, 0x66, 1));
  SU_HAS(run, 2, "swbreak:;");
  fake_run_free(&run);
}

/* Actions for no thread of ours, and refused ones. */
void test_serve_run_refused(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED, "vCont;c:p2b.1", "vCont;t", "vCont;s:p2a.99",
      "c1234",      "vCont;t:p2a.64;c", "qC", NULL};
  struct fake_run run;
  fake_run(&run, 12, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 7);
  SU_STARTS(run, 1, "T05"); /* nothing to do: where we are */
  SU_HAS(run, 1, "thread:p2a.65;");
  SU_ERROR(run, 2);
  SU_ERROR(run, 3);
  SU_ERROR(run, 4);
  SU_ERROR(run, 5);
  SU_IS(run, 6, "QCp2a.65");
  fake_run_free(&run);
}

void test_serve_run_end(void) {
  static const char *const pk[] = {SU_QSUPPORTED, "c", "qfThreadInfo",
                                   "Tp2a.65", "?", "s", NULL};
  struct fake_run run;
  fake_run(&run, 20, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 6);
  SU_HAS(run, 1, "thread:p2a.64;replaylog:end;");
  SU_IS(run, 2, "mp2a.64,p2a.66");
  SU_ERROR(run, 3);
  SU_HAS(run, 4, "thread:p2a.64;replaylog:end;");
  SU_HAS(run, 5, "replaylog:end;");
  fake_run_free(&run);
}

/* When gdb resumes one thread alone (its step over a breakpoint, or
 * scheduler locking), events of the others do not stop it: gdb 13 asserts
 * on them (infrun.c finish_step_over). */
void test_serve_run_alone(void) {
  u64 c64 = fake_count(0x64, 12);
  char z66[64], z64[64], zw[64], t[64];
  const char *pk[] = {SU_QSUPPORTED, z66, "vCont;s:p2a.64", NULL};
  const char *pk2[] = {SU_QSUPPORTED, z66, z64, "vCont;c:p2a.64",
                       "Hcp2a.64", "s", "vCont;c", NULL};
  const char *pk3[] = {SU_QSUPPORTED, zw, "vCont;s:p2a.64", NULL};
  struct fake_run run;
  snprintf(z66, sizeof z66, "Z0,%llx,1",
           (unsigned long long)fake_rip(0x66, 1));
  snprintf(z64, sizeof z64, "Z0,%llx,1",
           (unsigned long long)fake_rip(0x64, c64 + 2));
  snprintf(zw, sizeof zw, "Z2,%llx,8", (unsigned long long)fake_var(0x66));
  fake_run(&run, 12, pk); /* 0x66 reaches the breakpoint at 16 */
  CU_ASSERT_EQUAL_FATAL(run.n, 3);
  SU_HAS(run, 2, tail_at(t, 0x64, fwd(0x64, 12)));
  SU_LACKS(run, 2, "swbreak");
  fake_run_free(&run);

  fake_run(&run, 12, pk2);
  CU_ASSERT_EQUAL_FATAL(run.n, 7);
  SU_HAS(run, 3, tail(t, 0x64, c64 + 2)); /* its own breakpoint */
  SU_HAS(run, 3, "swbreak:;");
  SU_IS(run, 4, "OK");
  SU_HAS(run, 5, tail(t, 0x64, c64 + 3)); /* s with Hc: alone too */
  SU_HAS(run, 6, "thread:p2a.64;replaylog:end;"); /* 0x66 passed it */
  fake_run_free(&run);

  fake_run(&run, 12, pk3); /* 0x66 writes its variable at 15 */
  CU_ASSERT_EQUAL_FATAL(run.n, 3);
  SU_HAS(run, 2, tail_at(t, 0x64, fwd(0x64, 12)));
  SU_LACKS(run, 2, "watch");
  fake_run_free(&run);
}

/* Backwards alone (Hc names the thread, then bc or bs). */
void test_serve_run_alone_reverse(void) {
  char z66[64], z64[64], t[64];
  const char *pk[] = {SU_QSUPPORTED, z66, z64, "Hcp2a.64", "bc", "Hc0",
                      "vCont;c", "bc", NULL};
  struct fake_run run;
  /* From 30: 0x66's last instruction is at 26, 0x64's twelfth at 20. */
  snprintf(z66, sizeof z66, "Z0,%llx,1",
           (unsigned long long)fake_rip(0x66, fake_count(0x66, 26)));
  snprintf(z64, sizeof z64, "Z0,%llx,1",
           (unsigned long long)fake_rip(0x64, 12));
  fake_run(&run, 30, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 8);
  SU_HAS(run, 4, tail(t, 0x64, 12));
  SU_HAS(run, 4, "swbreak:;");
  SU_HAS(run, 6, tail_at(t, 0x66, 26)); /* everyone forwards again */
  SU_HAS(run, 7, tail(t, 0x64, 12));    /* and everyone back */
  fake_run_free(&run);
}

/* A thread stepped alone over a blocking syscall (position 38; it runs
 * again at 42): another thread's breakpoint meanwhile (at 40) ends the
 * step there, and the next resume reports that breakpoint without moving,
 * while it is still inserted. */
void test_serve_run_pending(void) {
  char z[64], zd[64], t[64];
  const char *pk[] = {SU_QSUPPORTED, z, "vCont;s:p2a.64", "qC", "vCont;c",
                      "qC", "p0", "vCont;c", NULL};
  const char *dropped[] = {SU_QSUPPORTED, z, "vCont;s:p2a.64", zd,
                           "vCont;c", NULL};
  const char *together[] = {SU_QSUPPORTED, z, "vCont;s:p2a.64;c", NULL};
  char hex[17];
  struct fake_run run;
  CU_ASSERT_EQUAL_FATAL(fake_count(0x64, 38), FAKE_BLOCK_N);
  CU_ASSERT_EQUAL_FATAL(fake_sched(38), 0x64);
  snprintf(z, sizeof z, "Z0,%llx,1",
           (unsigned long long)fake_rip(0x66, fake_count(0x66, 40)));
  snprintf(zd, sizeof zd, "z%s", z + 1);
  fake_run(&run, 38, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 8);
  SU_HAS(run, 2, tail(t, 0x64, FAKE_BLOCK_N + 1));
  SU_LACKS(run, 2, "swbreak");
  SU_IS(run, 3, "QCp2a.64");
  SU_HAS(run, 4, tail_at(t, 0x66, 40));
  SU_HAS(run, 4, "swbreak:;");
  SU_IS(run, 5, "QCp2a.66");
  fake_le_hex(0x66, hex);
  SU_IS(run, 6, hex);
  SU_HAS(run, 7, "replaylog:end;");
  fake_run_free(&run);

  fake_run(&run, 38, dropped); /* gdb deleted the breakpoint meanwhile */
  CU_ASSERT_EQUAL_FATAL(run.n, 5);
  SU_HAS(run, 2, tail(t, 0x64, FAKE_BLOCK_N + 1));
  SU_HAS(run, 4, "replaylog:end;");
  fake_run_free(&run);

  fake_run(&run, 38, together); /* others resumed too: reported at once */
  CU_ASSERT_EQUAL_FATAL(run.n, 3);
  SU_HAS(run, 2, tail_at(t, 0x66, 40));
  SU_HAS(run, 2, "swbreak:;");
  fake_run_free(&run);
}

/* A thread that exits during its step: the others run on to the next
 * breakpoint (0x65 runs last at 23 and exits at 30). */
void test_serve_run_exit_in_step(void) {
  char z[64], t[64];
  const char *pk[] = {SU_QSUPPORTED, z, "vCont;s:p2a.65;c", "qC",
                      "qfThreadInfo", NULL};
  const char *pk2[] = {SU_QSUPPORTED, "vCont;r0,ffffffff:p2a.65;c", NULL};
  struct fake_run run;
  snprintf(z, sizeof z, "Z0,%llx,1",
           (unsigned long long)fake_rip(0x66, fake_count(0x66, 33)));
  fake_run(&run, 24, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 5);
  SU_HAS(run, 2, tail_at(t, 0x66, 33));
  SU_HAS(run, 2, "swbreak:;");
  SU_IS(run, 3, "QCp2a.66");
  SU_IS(run, 4, "mp2a.64,p2a.66");
  fake_run_free(&run);
  fake_run(&run, 24, pk2);
  CU_ASSERT_EQUAL_FATAL(run.n, 2);
  SU_HAS(run, 1, "replaylog:end;");
  fake_run_free(&run);
}

/* gdb 13 steps a thread over its breakpoint with the others stopped
 * ("vCont;s:TID"); here that thread blocks (position 38) and another one
 * reaches a breakpoint meanwhile (at 40). Reported at once, gdb would fail
 * an assertion (infrun.c finish_step_over); reported at the next resume,
 * gdb shows it as usual. */
void test_serve_run_gdb_step_over(void) {
  char script[512], hit[128];
  u64 b64 = fake_rip(0x64, FAKE_BLOCK_N);
  u64 b66 = fake_rip(0x66, fake_count(0x66, 40));
  snprintf(script, sizeof script,
           "break *%#llx\n"
           "break *%#llx\n"
           "continue\n"
           "printf \"rax=%%#lx\\n\", $rax\n"
           "continue\n"
           "info threads\n",
           (unsigned long long)b64, (unsigned long long)b66);
  char *out = su_gdb(38, script); /* 0x64 stands at b64 */
  if (!out) return;
  snprintf(hit, sizeof hit, "hit Breakpoint 2, 0x%016llx",
           (unsigned long long)b66);
  const char *const want[] = {hit, "rax=0x66\n",
                              "No more reverse-execution history.", NULL};
  su_expect_in_order(out, want);
  free(out);
}

/* Thread 0x64 runs at 20 and again at 27; 0x66 hits a breakpoint at 25 in
 * between. Stepping 0x64 back from 27 goes to 20, but going backwards
 * 0x66's breakpoint comes first: reported at once when the others resume
 * too, at the next reverse resume when gdb stepped 0x64 alone (its step
 * over a breakpoint). */
void test_serve_run_back_over_gap(void) {
  char z[64], t[64];
  const char *alone[] = {SU_QSUPPORTED, z, "Hcp2a.64", "bs", "qC", "Hc0",
                         "bc", "bc", NULL};
  const char *all[] = {SU_QSUPPORTED, z, "Hgp2a.64", "bs", "bs", NULL};
  const char *moved[] = {SU_QSUPPORTED, z, "Hcp2a.64", "bs", "Hc0",
                         "vCont;c", NULL};
  struct fake_run run;
  CU_ASSERT_EQUAL_FATAL(back(0x64, 27), 20);
  CU_ASSERT_EQUAL_FATAL(fake_sched(25), 0x66);
  snprintf(z, sizeof z, "Z0,%llx,1",
           (unsigned long long)fake_rip(0x66, fake_count(0x66, 25)));
  fake_run(&run, 27, alone);
  CU_ASSERT_EQUAL_FATAL(run.n, 8);
  SU_HAS(run, 3, tail_at(t, 0x64, 20));
  SU_LACKS(run, 3, "swbreak");
  SU_IS(run, 4, "QCp2a.64");
  SU_HAS(run, 6, tail_at(t, 0x66, 25));
  SU_HAS(run, 6, "swbreak:;");
  SU_HAS(run, 7, "replaylog:begin;"); /* nothing hits it before 25 */
  fake_run_free(&run);

  fake_run(&run, 27, all);
  CU_ASSERT_EQUAL_FATAL(run.n, 5);
  SU_HAS(run, 3, tail_at(t, 0x66, 25));
  SU_HAS(run, 3, "swbreak:;");
  SU_HAS(run, 4, tail_at(t, 0x66, back(0x66, 25))); /* now 0x66's step */
  fake_run_free(&run);

  /* Forwards instead: the event waits for a reverse resume only. */
  fake_run(&run, 27, moved);
  CU_ASSERT_EQUAL_FATAL(run.n, 6);
  SU_HAS(run, 3, tail_at(t, 0x64, 20));
  SU_HAS(run, 5, tail_at(t, 0x66, 25)); /* hit again, going forwards */
  fake_run_free(&run);
}
