/* SPDX-License-Identifier: MIT */
/* The CUnit test runner shared by every component (STYLE R17). A component's
 * tests/<comp>/main.c defines TESTS_DEF as the path of its tests.def and
 * includes this header; each TEST(suite, name) row there declares the function
 * test_<suite>_<name>(void), which must exist, so a test cannot be written and
 * forgotten. */
#ifndef RW_TESTS_RUNNER_H
#define RW_TESTS_RUNNER_H

struct rw_test {
  const char *suite; /* suite name (one source file, test_<suite>.c) */
  const char *name;  /* test name */
  void (*fn)(void);  /* the test body, using CU_ASSERT_* */
};

/* Runs TESTS (terminated by a row with suite NULL). Each suite runs in a
 * forked child with a timeout (RW_TEST_TIMEOUT seconds, default 300). Command
 * line: [SUITE[/NAME]]... to select. Prints one line per suite and a final
 * "N passed, N failed" line. Returns the process exit status. */
int rw_test_main(const struct rw_test *tests, int argc, char **argv);

#ifdef TESTS_DEF
#define TEST(suite, name) void test_##suite##_##name(void);
#include TESTS_DEF
#undef TEST
static const struct rw_test rw_tests[] = {
#define TEST(suite, name) {#suite, #name, test_##suite##_##name},
#include TESTS_DEF
#undef TEST
    {0, 0, 0}};
int main(int argc, char **argv) { return rw_test_main(rw_tests, argc, argv); }
#endif

#endif /* RW_TESTS_RUNNER_H */
