/* SPDX-License-Identifier: MIT */
/* `rewind info TRACE`: parses its arguments, opens the trace and prints the
 * report that format/report.c builds. Damage is reported on stderr; the
 * exit status is 0 when all of the trace was readable, 1 otherwise. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "format/format.h"

static void info_usage(FILE *out) {
  fputs("usage: rewind info [--help] TRACE\n"
        "\n"
        "Show what a trace file holds: format version, the recording machine\n"
        "and command, times, threads, record counts by type, blobs,\n"
        "keyframes and sizes. A damaged trace is shown as far as it is\n"
        "readable and the damage is reported on stderr (exit status 1).\n",
        out);
}

int cli_cmd_info(int argc, char **argv) {
  const char *path = NULL;
  trace_reader *r;
  struct rw_diag d = {0};
  struct trace_info in;
  int rc;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      info_usage(stdout);
      return 0;
    }
    if (argv[i][0] == '-' && argv[i][1])
      return cli_usage_error("info", "unknown option '%s'", argv[i]);
    if (path) return cli_usage_error("info", "more than one trace given");
    path = argv[i];
  }
  if (!path) return cli_usage_error("info", "no trace file given");
  if (trace_reader_open(&r, path, &d) < 0)
    return cli_error("%s: %s", path, d.msg);
  trace_reader_get_info(r, &in);
  if (in.damaged)
    fprintf(stderr, "rewind: %s: damaged at offset %llu: %s\n", path,
            (unsigned long long)in.damage_offset, in.damage);
  else if (!in.complete)
    fprintf(stderr, "rewind: %s: the trace was not closed; index rebuilt\n",
            path);
  printf("%-11s %s\n", "trace:", path);
  memset(&d, 0, sizeof d);
  rc = trace_report_info(stdout, r, &d);
  trace_reader_close(r);
  if (rc < 0) return cli_error("writing the report: %s", rw_strerror(rc));
  if (rc > 0) fprintf(stderr, "rewind: %s: %s\n", path, d.msg);
  return rc > 0 || in.damaged ? 1 : 0;
}
