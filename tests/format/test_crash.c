/* SPDX-License-Identifier: MIT */
/* Crash safety of the writer: crash_writer is killed with SIGKILL at random
 * moments, many times; every chunk it reported as written must then be
 * readable through a reader that rebuilds the index. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

/* crash_writer sits next to this test program. */
static const char *helper_path(void) {
  static char path[4096];
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n < 0) return "crash_writer";
  self[n] = 0;
  snprintf(path, sizeof path, "%s/crash_writer", dirname(self));
  return path;
}

/* Runs crash_writer into PATH for about US microseconds (after its first
 * chunk when AFTER_FIRST, so that a slow machine still sees chunks
 * written), kills it, and returns the offsets it reported (count in *N;
 * caller frees). */
static u64 *run_and_kill(const char *path, unsigned us, int after_first,
                         size_t *n) {
  int fds[2];
  pid_t pid;
  u64 *offs = NULL;
  size_t cap = 0;
  u8 buf[8];
  *n = 0;
  CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
  pid = fork();
  CU_ASSERT_FATAL(pid >= 0);
  if (pid == 0) {
    char fd[16];
    close(fds[0]);
    snprintf(fd, sizeof fd, "%d", fds[1]);
    execl(helper_path(), "crash_writer", path, fd, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  if (after_first) {
    ssize_t k;
    while ((k = read(fds[0], buf, 8)) < 0 && errno == EINTR) {
    }
    if (k == 8) {
      offs = malloc(256 * sizeof *offs);
      CU_ASSERT_FATAL(offs != NULL);
      cap = 256;
      offs[(*n)++] = rd_le64(buf);
    }
  }
  usleep(us);
  kill(pid, SIGKILL);
  {
    int status;
    waitpid(pid, &status, 0);
    CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
  /* Everything written to the pipe before the kill is still there. */
  for (;;) {
    ssize_t k = read(fds[0], buf, 8);
    if (k < 0 && errno == EINTR) continue;
    if (k != 8) break;
    if (*n == cap) {
      cap = cap ? 2 * cap : 256;
      offs = realloc(offs, cap * sizeof *offs);
    }
    offs[(*n)++] = rd_le64(buf);
  }
  close(fds[0]);
  return offs;
}

void test_crash_sigkill(void) {
  const char *path = tf_path("crash.rwd");
  size_t total = 0;
  /* RW_CRASH_SEED repeats a run; the seed used is printed. */
  const char *env = getenv("RW_CRASH_SEED");
  unsigned seed = env ? (unsigned)strtoul(env, NULL, 10) : (unsigned)time(NULL);
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  u8 *buf = NULL;
  size_t cap = 0;
  fprintf(stderr, "crash test seed %u\n", seed);
  srand(seed);
  for (int run = 0; run < 50; run++) {
    size_t n, k = 0;
    u64 *offs = run_and_kill(path, 1000 + (unsigned)rand() % 40000, run & 1,
                             &n);
    trace_reader *r;
    struct rw_diag d = {0};
    struct trace_info info;
    int rc = trace_reader_open(&r, path, &d);
    if (rc < 0 && n == 0) {
      /* Killed before even the header was written. */
      free(offs);
      continue;
    }
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    trace_reader_get_info(r, &info);
    CU_ASSERT(info.rebuilt);
    CU_ASSERT(!info.complete);
    /* Each reported chunk is in the rebuilt table, in order, and loads
     * with both checksums and (for records) its framing intact. */
    for (size_t i = 0; i < n; i++) {
      while (k < r->nchunks && r->chunks[k].offset < offs[i]) k++;
      CU_ASSERT_FATAL(k < r->nchunks);
      CU_ASSERT_EQUAL(r->chunks[k].offset, offs[i]);
      CU_ASSERT_EQUAL(trace__chunk_load(r, k, dctx, &buf, &cap, &d), 0);
      if (r->chunks[k].type == TRACE_CHUNK_RECORDS)
        CU_ASSERT_EQUAL(trace__records_check(&r->chunks[k], buf, &d), 0);
    }
    /* Damage, if any, is only the chunk being written at the kill. */
    if (info.damaged) CU_ASSERT(n == 0 || info.damage_offset > offs[n - 1]);
    total += n;
    free(offs);
    trace_reader_close(r);
  }
  CU_ASSERT(total >= 25); /* the runs did write chunks (at least one in
                            each run that waited for one) */
  free(buf);
  ZSTD_freeDCtx(dctx);
  unlink(path);
}
