/* SPDX-License-Identifier: MIT */
/* Suite "serve_query": the register packets and the target description of
 * gdbstub/serve_query.c served by gdb_serve over the fake replayer
 * (fake_replay.h), for a recording with AVX-512 and one without: the XML,
 * 'g' and 'p' agree on which registers exist. */
#include <signal.h>

#include "tests/gdbstub/serve_util.h"

/* Serves PACKETS at position 12 of a fake replay whose XCR0 is XCR0. */
static void run_xcr0(struct fake_run *run, u64 xcr0,
                     const char *const *packets) {
  rp_replay *rp = fake_open();
  run->r[0] = NULL;
  run->n = -1;
  if (!rp) return;
  fake_goto(rp, 12);
  fake_set_xcr0(rp, xcr0);
  run->n = fake_session(rp, packets, run->r, FAKE_MAXREPLY);
  fake_close(rp);
}

void test_serve_query_registers(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED,
      "qXfer:features:read:target.xml:0,3fff",
      "g",
      "p0",  /* rax */
      "p6d", /* k1 */
      "p93", /* zmm31h */
      "p94", /* past the last register */
      "p4b", /* ymm15h */
      NULL};
  char zero16[33], zero32[65]; /* 16 and 32 zero bytes in hex */
  struct fake_run run;
  memset(zero16, '0', 32), zero16[32] = 0;
  memset(zero32, '0', 64), zero32[64] = 0;
  /* With AVX-512: 148 registers, 2416 bytes. The fake's k1 is the tid,
   * as rax is. */
  run_xcr0(&run, 0xe7, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 8);
  SU_STARTS(run, 1, "m<?xml"); /* more than one packet of XML */
  CU_ASSERT_EQUAL(strlen(su_reply(&run, 2)), 2 * 2416);
  SU_IS(run, 3, "6500000000000000");
  SU_IS(run, 4, "6500000000000000");
  SU_IS(run, 5, zero32);
  SU_ERROR(run, 6);
  SU_IS(run, 7, zero16);
  fake_run_free(&run);
  /* Without: up to ymm15h, 816 bytes; the AVX-512 registers are unknown. */
  run_xcr0(&run, 0x7, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 8);
  SU_STARTS(run, 1, "l<?xml");
  SU_HAS(run, 1, "<feature name=\"org.gnu.gdb.i386.avx\">");
  SU_LACKS(run, 1, "avx512");
  SU_LACKS(run, 1, "zmm");
  CU_ASSERT_EQUAL(strlen(su_reply(&run, 2)), 2 * 816);
  SU_IS(run, 3, "6500000000000000");
  SU_ERROR(run, 4);
  SU_ERROR(run, 5);
  SU_ERROR(run, 6);
  SU_IS(run, 7, zero16);
  fake_run_free(&run);
}

/* QPassSignals names gdb's signal numbers; the replayer gets Linux's. A
 * session starts with gdb's defaults passed (SIGALRM, SIGCHLD, ...). */
void test_serve_query_pass_signals(void) {
  static const char *const pk[] = {
      SU_QSUPPORTED,
      "QPassSignals:e;1e;14;2e", /* gdb's SIGALRM, SIGUSR1, SIGCHLD, SIG34 */
      NULL};
  static const char *const none[] = {SU_QSUPPORTED, NULL};
  struct fake_run run;
  u64 pass = 0;
  run_xcr0(&run, 0x7, none);
  CU_ASSERT_EQUAL_FATAL(run.n, 1);
  CU_ASSERT_EQUAL(fake_signal_stops(&pass), 1);
  CU_ASSERT(pass >> (SIGALRM - 1) & 1);
  CU_ASSERT(pass >> (SIGCHLD - 1) & 1);
  CU_ASSERT(pass >> (SIGWINCH - 1) & 1);
  CU_ASSERT_FALSE(pass >> (SIGSEGV - 1) & 1);
  CU_ASSERT_FALSE(pass >> (SIGUSR1 - 1) & 1);
  CU_ASSERT_FALSE(pass >> (SIGINT - 1) & 1);
  CU_ASSERT_FALSE(pass >> (34 - 1) & 1); /* SIGRTMIN stops */
  CU_ASSERT_FALSE(pass >> (64 - 1) & 1);
  CU_ASSERT(pass >> (32 - 1) & 1); /* glibc's own never stop */
  CU_ASSERT(pass >> (33 - 1) & 1);
  fake_run_free(&run);
  run_xcr0(&run, 0x7, pk);
  CU_ASSERT_EQUAL_FATAL(run.n, 2);
  SU_IS(run, 1, "OK");
  CU_ASSERT_EQUAL(fake_signal_stops(&pass), 1);
  CU_ASSERT(pass >> (SIGALRM - 1) & 1);
  CU_ASSERT(pass >> (SIGUSR1 - 1) & 1); /* gdb's 30 */
  CU_ASSERT(pass >> (SIGCHLD - 1) & 1); /* gdb's 20 */
  CU_ASSERT_FALSE(pass >> (SIGUSR2 - 1) & 1);
  CU_ASSERT(pass >> (34 - 1) & 1); /* gdb's 46 */
  CU_ASSERT_FALSE(pass >> (35 - 1) & 1);
  CU_ASSERT_FALSE(pass >> (SIGWINCH - 1) & 1); /* not listed this time */
  CU_ASSERT_FALSE(pass >> (SIGSEGV - 1) & 1);
  fake_run_free(&run);
}
