/* SPDX-License-Identifier: MIT */
/* Tests of format/report.c: the `rewind info` report and `rewind dump`
 * output over a sample trace, including filters and a damaged trace. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"

static trace_reader *open_sample(u8 **f, size_t *n, int close) {
  const char *p = tf_path("report.rwd");
  struct tf_sample s = {2, 300, 2048, 0, 25, 1, close};
  trace_reader *r;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  *f = tf_read_file(p, n);
  unlink(p);
  CU_ASSERT_EQUAL_FATAL(trace_reader_open_mem(&r, *f, *n, NULL), 0);
  return r;
}

static size_t count_lines(const char *s) {
  size_t n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

void test_report_info(void) {
  u8 *f;
  size_t n, len;
  trace_reader *r = open_sample(&f, &n, 1);
  char *out = NULL;
  FILE *m = open_memstream(&out, &len);
  CU_ASSERT_EQUAL(trace_report_info(m, r, NULL), 0);
  fclose(m);
  char version[32]; /* the sample is written by this build */
  snprintf(version, sizeof version, "rewind trace %d.%d", TRACE_VERSION_MAJOR,
           TRACE_VERSION_MINOR);
  CU_ASSERT(strstr(out, version) != NULL);
  CU_ASSERT(strstr(out, "closed cleanly") != NULL);
  CU_ASSERT(strstr(out, "command:    prog --flag\n") != NULL);
  CU_ASSERT(strstr(out, "cwd:        /tmp\n") != NULL);
  CU_ASSERT(strstr(out, "machine:    unknown\n") != NULL);
  CU_ASSERT(strstr(out, "duration:   0.000 s\n") != NULL);
  CU_ASSERT(strstr(out, "threads:    2 (100 101)\n") != NULL);
  CU_ASSERT(strstr(out, "records:    300 (seq 1..300)\n") != NULL);
  CU_ASSERT(strstr(out, "blobs:      25 ") != NULL);
  CU_ASSERT(strstr(out, "... and 5 more\n") != NULL);
  CU_ASSERT(strstr(out, "keyframes:  1 ") != NULL);
  {
    /* The per-type counts add up to the records. */
    u64 total = 0;
    for (int t = 1; t < TRACE_REC_MAX_KNOWN; t++) {
      char key[40];
      const char *at;
      snprintf(key, sizeof key, "\n  %-15s ", trace_record_name((u16)t));
      at = strstr(out, key);
      if (at) total += strtoull(at + strlen(key), NULL, 10);
    }
    CU_ASSERT_EQUAL(total, 300);
  }
  free(out);
  trace_reader_close(r);
  free(f);
}

void test_report_dump(void) {
  u8 *f;
  size_t n, len;
  trace_reader *r = open_sample(&f, &n, 1);
  char *out = NULL;
  FILE *m;
  struct trace_dump_opts o = {0, 0, TRACE_ALL_THREADS, -1, 0};
  m = open_memstream(&out, &len);
  CU_ASSERT_EQUAL(trace_report_dump(m, NULL, r, &o, NULL), 0);
  fclose(m);
  CU_ASSERT_EQUAL(count_lines(out), 300);
  CU_ASSERT(strncmp(out, "1 ", 2) == 0);
  free(out);
  /* JSON, one thread, from seq 100. */
  o.json = 1;
  o.tid = 101;
  o.seq_from = 100;
  m = open_memstream(&out, &len);
  CU_ASSERT_EQUAL(trace_report_dump(m, NULL, r, &o, NULL), 0);
  fclose(m);
  for (char *l = out; *l; l = strchr(l, '\n') + 1) {
    CU_ASSERT(strncmp(l, "{\"seq\":", 7) == 0);
    CU_ASSERT(strtoull(l + 7, NULL, 10) >= 100);
    CU_ASSERT(strstr(l, ",\"tid\":101,") != NULL);
    CU_ASSERT(strchr(l, '\n')[-1] == '}');
  }
  free(out);
  /* One type only. */
  o.json = 0;
  o.tid = TRACE_ALL_THREADS;
  o.seq_from = 0;
  o.type = TRACE_REC_MEM;
  m = open_memstream(&out, &len);
  CU_ASSERT_EQUAL(trace_report_dump(m, NULL, r, &o, NULL), 0);
  fclose(m);
  CU_ASSERT(count_lines(out) > 0);
  for (char *l = out; *l; l = strchr(l, '\n') + 1)
    CU_ASSERT(strstr(l, " MEM addr=") != NULL);
  free(out);
  o.tid = 5;
  m = open_memstream(&out, &len);
  CU_ASSERT_EQUAL(trace_report_dump(m, NULL, r, &o, NULL), RW_ENOTFOUND);
  fclose(m);
  free(out);
  trace_reader_close(r);
  free(f);
}

void test_report_damaged(void) {
  u8 *f;
  size_t n, len;
  trace_reader *r = open_sample(&f, &n, 1);
  struct trace_chunk_info ci;
  struct rw_diag d = {0};
  struct trace_dump_opts o = {0, 0, TRACE_ALL_THREADS, -1, 0};
  char *out = NULL;
  FILE *m;
  CU_ASSERT_EQUAL_FATAL(trace_reader_find_chunk(r, 100, 150, &ci), 0);
  f[ci.offset + TRACE__CHUNK_HDR + 1] ^= 1;
  m = open_memstream(&out, &len);
  CU_ASSERT_EQUAL(trace_report_info(m, r, &d), 1);
  fclose(m);
  CU_ASSERT(strstr(out, "unreadable:") != NULL);
  CU_ASSERT_EQUAL(d.offset, ci.offset);
  free(out);
  m = open_memstream(&out, &len);
  memset(&d, 0, sizeof d);
  CU_ASSERT_EQUAL(trace_report_dump(m, NULL, r, &o, &d), 1);
  fclose(m);
  CU_ASSERT_EQUAL(d.offset, ci.offset);
  CU_ASSERT(count_lines(out) < 300 && count_lines(out) > 0);
  free(out);
  trace_reader_close(r);
  free(f);
}
