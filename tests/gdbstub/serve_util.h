/* SPDX-License-Identifier: MIT */
/* Checks on the replies of a fake_run session (fake_replay.h), shared by
 * the suites of the stub's third layer. Each names the packet's index and
 * prints what came back when it fails. */
#ifndef RW_TESTS_GDBSTUB_SERVE_UTIL_H
#define RW_TESTS_GDBSTUB_SERVE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/gdbstub/fake_replay.h"
#include "tests/gdbstub/util.h"

/* The qSupported gdb 13 sends, as far as the stub cares. */
#define SU_QSUPPORTED "qSupported:multiprocess+;swbreak+;hwbreak+;" \
                      "vContSupported+;QThreadEvents+;no-resumed+"

/* Reply I of RUN, or "(none)". */
static inline const char *su_reply(const struct fake_run *run, int i) {
  return i >= 0 && i < run->n && run->r[i] ? run->r[i] : "(none)";
}

static inline int su_check(const struct fake_run *run, int i, int ok,
                           const char *how, const char *want, int line) {
  if (!ok)
    fprintf(stderr, "line %d: reply %d %s \"%s\", got \"%s\"\n", line, i, how,
            want, su_reply(run, i));
  return ok;
}

/* Reply I is exactly WANT / starts with WANT / contains WANT / lacks it. */
#define SU_IS(run, i, want)                                                 \
  CU_ASSERT(su_check(&(run), (i), !strcmp(su_reply(&(run), (i)), (want)), \
                     "is not", (want), __LINE__))
#define SU_STARTS(run, i, want)                                         \
  CU_ASSERT(su_check(&(run), (i),                                       \
                     !strncmp(su_reply(&(run), (i)), (want), strlen(want)), \
                     "does not start with", (want), __LINE__))
#define SU_HAS(run, i, want)                                              \
  CU_ASSERT(su_check(&(run), (i), strstr(su_reply(&(run), (i)), (want)) != \
                                      NULL,                               \
                     "does not contain", (want), __LINE__))
#define SU_LACKS(run, i, want)                                            \
  CU_ASSERT(su_check(&(run), (i), strstr(su_reply(&(run), (i)), (want)) == \
                                      NULL,                               \
                     "contains", (want), __LINE__))
/* An error reply ("E.msg" or "Enn"). */
#define SU_ERROR(run, i) SU_STARTS(run, i, "E")

/* Appends "10:<rip>;thread:p2a.<tid>;" to DST (CAP bytes): the end of the
 * stop reply for thread TID standing at RIP (rip is the last expedited
 * register, thread: follows it). */
static inline void su_stop_tail(char *dst, size_t cap, u32 tid, u64 rip) {
  char hex[17];
  fake_le_hex(rip, hex);
  snprintf(dst, cap, "10:%s;thread:p%x.%x;", hex, FAKE_PID, tid);
}

/* Runs gdb (REWIND_GDB or "gdb") in batch mode on fake_serve (next to the
 * test program) at position AT, with SCRIPT after connecting. Returns its
 * output (stdout and stderr; free it), or NULL, saying so, when there is
 * no gdb. */
static inline char *su_gdb(u64 at, const char *script) {
  const char *gdb = getenv("REWIND_GDB");
  char exe[4096], path[] = "/tmp/rw-gdbstub-XXXXXX", cmd[8192];
  size_t len = 0, cap = 1 << 16;
  char *out, *slash;
  FILE *f;
  if (!gdb || !*gdb) gdb = "gdb";
  snprintf(cmd, sizeof cmd, "'%s' --version >/dev/null 2>&1", gdb);
  if (system(cmd) != 0) {
    printf("\n  (gdb not found as '%s': skipped)\n", gdb);
    return NULL;
  }
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
  CU_ASSERT_FATAL(n > 0);
  exe[n] = 0;
  slash = strrchr(exe, '/');
  CU_ASSERT_FATAL(slash != NULL);
  strcpy(slash + 1, "fake_serve");
  CU_ASSERT_FATAL(access(exe, X_OK) == 0);
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  f = fdopen(fd, "w");
  CU_ASSERT_FATAL(f != NULL);
  fprintf(f, "set confirm off\ntarget remote | %s %llu\n%s", exe,
          (unsigned long long)at, script);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "ulimit -c 0; timeout 120 '%s' -nx -batch "
           "-ex 'set width 0' "
           "-ex 'set height 0' -x %s 2>&1 </dev/null",
           gdb, path);
  f = popen(cmd, "r");
  out = malloc(cap);
  CU_ASSERT_FATAL(f != NULL && out != NULL);
  for (size_t k; (k = fread(out + len, 1, cap - len - 1, f)) > 0;) {
    len += k;
    if (cap - len < 4096) {
      char *p = realloc(out, cap *= 2);
      CU_ASSERT_FATAL(p != NULL);
      out = p;
    }
  }
  out[len] = 0;
  pclose(f);
  unlink(path);
  if (getenv("RW_TEST_VERBOSE")) fprintf(stderr, "%s\n", out);
  return out;
}

/* Each of WANT (NULL-terminated) occurs in OUT, in order; gdb neither
 * lost the connection nor complained about a reply or itself. */
static inline void su_expect_in_order(const char *out,
                                      const char *const *want) {
  const char *at = out;
  int bad = 0;
  for (int i = 0; want[i]; i++) {
    const char *p = strstr(at, want[i]);
    CU_ASSERT(p != NULL);
    if (!p) {
      fprintf(stderr, "missing (in order): %s\n", want[i]);
      bad = 1;
      continue;
    }
    at = p + strlen(want[i]);
  }
  CU_ASSERT(strstr(out, "Remote connection closed") == NULL);
  CU_ASSERT(strstr(out, "Remote failure reply") == NULL);
  CU_ASSERT(strstr(out, "internal-error") == NULL);
  if (bad || strstr(out, "internal-error") || strstr(out, "Remote "))
    fprintf(stderr, "gdb said:\n%s\n", out);
}

#endif /* RW_TESTS_GDBSTUB_SERVE_UTIL_H */
