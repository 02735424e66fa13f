/* SPDX-License-Identifier: MIT */
/* Logging to stderr with the "rewind: " prefix, level-filtered, plus the
 * failure report behind RW_ASSERT. Nothing here allocates. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rw.h"

int rw_log_level = RW_LOG_INFO;

void rw_log(int level, const char *fmt, ...) {
  va_list ap;
  if (level > rw_log_level) return;
  fputs("rewind: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

void rw_log_at(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  if (rw_log_level < RW_LOG_DEBUG) return;
  fprintf(stderr, "rewind: %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

void rw_log_fail(const char *file, int line, const char *cond,
                 const char *fmt, ...) {
  va_list ap;
  if (rw_log_level < RW_LOG_DEBUG) return;
  fprintf(stderr, "rewind: %s:%d: (%s) ", file, line, cond);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

void rw_assert_fail(const char *file, int line, const char *expr) {
  fprintf(stderr, "rewind: %s:%d: internal error: assertion '%s' failed\n",
          file, line, expr);
  abort();
}

u64 rw_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

u64 rw_wall_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}
