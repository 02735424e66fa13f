/* SPDX-License-Identifier: MIT */
/* `rewind info [--json] [TRACE]`: parses its arguments, opens the trace and
 * prints the report that format/report.c (or report_json.c) builds. Damage
 * is reported on stderr; the exit status is 0 when all of the trace was
 * readable, 1 otherwise, 2 for usage errors. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "format/format.h"

static void info_usage(FILE *out) {
  fputs("usage: rewind info [--json] [TRACE]\n"
        "\n"
        "Show what a trace file holds: format version, the recording machine\n"
        "and command, times, threads, record counts by type, blobs,\n"
        "keyframes and sizes. A damaged trace is shown as far as it is\n"
        "readable and the damage is reported on stderr (exit status 1).\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --json      one JSON object instead of the text report\n"
        "  -h, --help  show this help\n",
        out);
}

int cli_cmd_info(int argc, char **argv) {
  char path[4096];
  trace_reader *r;
  struct rw_diag d = {0};
  struct trace_info in;
  int json;
  int rc = cli_json_opts("info", argc, argv, info_usage, &json);
  if (rc >= 0) return rc;
  if (optind + 1 < argc)
    return cli_usage_error("info", "more than one trace given");
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, sizeof path))
    return 1;
  if (trace_reader_open(&r, path, &d) < 0)
    return cli_error("%s: %s", path, d.msg);
  trace_reader_get_info(r, &in);
  if (in.damaged)
    fprintf(stderr, "rewind: %s: damaged at offset %llu: %s\n", path,
            (unsigned long long)in.damage_offset, in.damage);
  else if (!in.complete)
    fprintf(stderr, "rewind: %s: the trace was not closed; index rebuilt\n",
            path);
  memset(&d, 0, sizeof d);
  if (json) {
    rc = trace_report_info_json(stdout, r, &d);
  } else {
    printf("%-11s %s\n", "trace:", path);
    rc = trace_report_info(stdout, r, &d);
  }
  trace_reader_close(r);
  if (rc < 0) return cli_error("writing the report: %s", rw_strerror(rc));
  if (rc > 0) fprintf(stderr, "rewind: %s: %s\n", path, d.msg);
  return rc > 0 || in.damaged ? 1 : 0;
}
