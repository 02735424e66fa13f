/* SPDX-License-Identifier: MIT */
/* Runs CUnit suites one forked child each, with a timeout, and sums the
 * results into one line a person can read at a glance. A suite that crashes
 * or times out counts as one failure and names the signal. */
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/runner.h"

static int selected(const struct rw_test *t, int argc, char **argv) {
  if (argc <= 1) return 1;
  for (int i = 1; i < argc; i++) {
    size_t n = strlen(t->suite);
    if (strncmp(argv[i], t->suite, n) != 0) continue;
    if (argv[i][n] == 0) return 1;
    if (argv[i][n] == '/' && strcmp(argv[i] + n + 1, t->name) == 0) return 1;
  }
  return 0;
}

/* In the child: registers the selected tests of SUITE, runs them, writes
 * "passed failed" to FD. */
static void run_suite(const struct rw_test *tests, const char *suite,
                      int argc, char **argv, int fd) {
  CU_pSuite s;
  unsigned ran, failed;
  char buf[64];
  if (CU_initialize_registry() != CUE_SUCCESS) _exit(2);
  s = CU_add_suite(suite, NULL, NULL);
  for (const struct rw_test *t = tests; t->suite; t++)
    if (strcmp(t->suite, suite) == 0 && selected(t, argc, argv))
      CU_add_test(s, t->name, t->fn);
  CU_basic_set_mode(getenv("RW_TEST_VERBOSE") ? CU_BRM_VERBOSE
                                              : CU_BRM_NORMAL);
  CU_basic_run_tests();
  ran = CU_get_number_of_tests_run();
  failed = CU_get_number_of_tests_failed();
  snprintf(buf, sizeof buf, "%u %u\n", ran - failed, failed);
  if (write(fd, buf, strlen(buf)) < 0) _exit(2);
  CU_cleanup_registry();
  _exit(0);
}

int rw_test_main(const struct rw_test *tests, int argc, char **argv) {
  unsigned total_pass = 0, total_fail = 0;
  const char *env = getenv("RW_TEST_TIMEOUT");
  int timeout = env ? atoi(env) : 300;
  for (const struct rw_test *t = tests; t->suite; t++) {
    int fds[2], status;
    unsigned pass = 0, fail = 0, nsel = 0;
    char buf[64] = {0};
    ssize_t n;
    pid_t pid;
    int first = 1;
    for (const struct rw_test *u = tests; u < t; u++)
      if (strcmp(u->suite, t->suite) == 0) first = 0;
    if (!first) continue;
    for (const struct rw_test *u = t; u->suite; u++)
      if (strcmp(u->suite, t->suite) == 0 && selected(u, argc, argv)) nsel++;
    if (!nsel) continue;
    if (pipe(fds) < 0) return 2;
    fflush(stdout);
    pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
      close(fds[0]);
      alarm((unsigned)timeout);
      run_suite(tests, t->suite, argc, argv, fds[1]);
    }
    close(fds[1]);
    n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    waitpid(pid, &status, 0);
    if (n > 0 && sscanf(buf, "%u %u", &pass, &fail) == 2 &&
        WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      printf("suite %s: %u passed, %u failed\n", t->suite, pass, fail);
    } else {
      fail = nsel;
      if (WIFSIGNALED(status))
        printf("suite %s: died from signal %d (%s)%s\n", t->suite,
               WTERMSIG(status), strsignal(WTERMSIG(status)),
               WTERMSIG(status) == SIGALRM ? ": timed out" : "");
      else
        printf("suite %s: exited with status %d before reporting\n", t->suite,
               WEXITSTATUS(status));
    }
    total_pass += pass;
    total_fail += fail;
  }
  printf("%u passed, %u failed\n", total_pass, total_fail);
  return total_fail ? 1 : 0;
}
