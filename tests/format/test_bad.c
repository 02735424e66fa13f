/* SPDX-License-Identifier: MIT */
/* The damaged sample traces of tests/format/bad/ (written by `mktrace bad`):
 * each *.rwd is opened and read through, the outcome is summarised as text
 * (what open said, the damage found, how many records were read, which
 * chunks were unreadable, and what trace_check finds), and the summary must
 * equal the paired *.expect
 * file. With RW_WRITE_EXPECT set, the .expect files are written instead
 * (review them before committing). */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "tests/format/helpers.h"

#ifndef RW_TOP_SRCDIR
#define RW_TOP_SRCDIR "."
#endif

static void problem(void *arg, const struct trace_problem *p) {
  fprintf(arg, "check: %s at offset %llu: %s\n", p->cut ? "cut" : "damage",
          (unsigned long long)p->offset, p->msg);
}

/* What reading PATH gives, as text (caller frees). */
static char *summarise(const char *path) {
  char *out = NULL;
  size_t len;
  FILE *f = open_memstream(&out, &len);
  trace_reader *r;
  trace_cursor *c;
  struct trace_record rec;
  struct trace_info info;
  struct rw_diag d = {0};
  u64 n = 0;
  int rc = trace_reader_open(&r, path, &d);
  if (rc < 0) {
    fprintf(f, "open: %s at offset %llu: %s\n", rw_strerror(rc),
            (unsigned long long)d.offset, d.msg);
    fclose(f);
    return out;
  }
  trace_reader_get_info(r, &info);
  fprintf(f, "open: %s\n",
          info.complete ? "closed cleanly" : "index rebuilt by scanning");
  if (info.damaged)
    fprintf(f, "damage at offset %llu: %s\n",
            (unsigned long long)info.damage_offset, info.damage);
  if (trace_cursor_open(&c, r, TRACE_ALL_THREADS) == 0) {
    while ((rc = trace_cursor_next(c, &rec, &d)) != 0) {
      if (rc < 0)
        fprintf(f, "unreadable at offset %llu: %s\n",
                (unsigned long long)d.offset, d.msg);
      else
        n++;
    }
    trace_cursor_close(c);
  }
  fprintf(f, "records: %llu\n", (unsigned long long)n);
  {
    struct trace_check_cb cb = {problem, NULL, f};
    struct trace_check_stats st;
    if (trace_check(r, &cb, &st) < 0) fprintf(f, "check: failed\n");
    else if (!st.damaged && !st.cut) fprintf(f, "check: whole\n");
  }
  trace_reader_close(r);
  fclose(f);
  return out;
}

void test_bad_samples(void) {
  const char *src = getenv("top_srcdir");
  char dir[4096];
  DIR *dh;
  struct dirent *e;
  int nfiles = 0;
  snprintf(dir, sizeof dir, "%s/tests/format/bad", src ? src : RW_TOP_SRCDIR);
  dh = opendir(dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dh);
  while ((e = readdir(dh))) {
    char path[4200], expect_path[4200];
    size_t nl = strlen(e->d_name), elen;
    char *got, *want;
    if (nl < 5 || strcmp(e->d_name + nl - 4, ".rwd")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    snprintf(expect_path, sizeof expect_path, "%s/%.*s.expect", dir,
             (int)(nl - 4), e->d_name);
    got = summarise(path);
    if (getenv("RW_WRITE_EXPECT")) {
      CU_ASSERT_EQUAL(tf_write_file(expect_path, got, strlen(got)), 0);
    } else {
      want = (char *)tf_read_file(expect_path, &elen);
      CU_ASSERT_PTR_NOT_NULL(want);
      if (want) {
        want[elen] = 0;
        if (strcmp(got, want))
          fprintf(stderr, "\n%s:\n got: %s want: %s", e->d_name, got, want);
        CU_ASSERT_STRING_EQUAL(got, want);
        free(want);
      }
    }
    free(got);
    nfiles++;
  }
  closedir(dh);
  CU_ASSERT(nfiles >= 10);
}
