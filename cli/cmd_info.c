/* SPDX-License-Identifier: MIT */
/* `rewind info [--check] [--json] [TRACE]`: parses its arguments, opens the
 * trace and prints the report that format/report.c (or report_json.c, or
 * check.c for --check) builds. Exit statuses: 0, CLI_CUT and CLI_DAMAGED
 * (see the man page), 1 when the trace cannot be opened, 2 for usage. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replayer/replayer.h"
#include "format/format.h"

static void info_usage(FILE *out) {
  fputs("usage: rewind info [--check] [--json] [TRACE]\n"
        "\n"
        "Show what a trace file holds: format version, the recording machine\n"
        "and command, times, threads, record counts by type, blobs,\n"
        "keyframes and sizes. A damaged trace is shown as far as it is\n"
        "readable and the damage is reported on stderr (exit status 5).\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --check     read and check everything instead: every chunk, every\n"
        "              blob against its SHA-256, the metadata and the index,\n"
        "              and that no record is missing; exit 0 only when the\n"
        "              trace is whole, 3 when it was cut off (sound up to\n"
        "              where it ends), 5 when it is damaged\n"
        "  --json      one JSON object instead of the text report\n"
        "  -h, --help  show this help\n",
        out);
}

void cli_report_open(const char *path, const struct trace_info *in) {
  if (in->damaged && !in->torn)
    fprintf(stderr, "rewind: %s: damaged at offset %llu: %s\n", path,
            (unsigned long long)in->damage_offset, in->damage);
  else if (in->damaged)
    fprintf(stderr, "rewind: %s: the trace was not closed: it ends inside "
            "a chunk (the recorder was killed, or its disk filled) (offset "
            "%llu: %s)\n", path,
            (unsigned long long)in->damage_offset, in->damage);
  else if (!in->complete)
    fprintf(stderr, "rewind: %s: the trace was not closed; index rebuilt\n",
            path);
}

static int check(const char *path, trace_reader *r, int json) {
  struct trace_check_stats st;
  int rc = trace_report_check(stdout, r, path, json, !json && isatty(2), &st);
  if (rc < 0) return cli_error("checking %s: %s", path, rw_strerror(rc));
  if (fflush(stdout)) return cli_error("writing the report: %s",
                                       rw_strerror(RW_ERR(EIO)));
  return st.damaged ? CLI_DAMAGED : st.cut ? CLI_CUT : 0;
}

int cli_cmd_info(int argc, char **argv) {
  static const struct option longopts[] = {{"json", no_argument, 0, 'j'},
                                           {"check", no_argument, 0, 'c'},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  char path[4096];
  trace_reader *r;
  struct rw_diag d = {0};
  struct trace_info in;
  int json = 0, checking = 0, c, rc;
  optind = 1;
  while ((c = cli_getopt("info", argc, argv, "h", longopts)) != -1) {
    if (c == 'h') {
      info_usage(stdout);
      return 0;
    }
    if (c == 'j')
      json = 1;
    else if (c == 'c')
      checking = 1;
    else
      return 2;
  }
  if (optind + 1 < argc)
    return cli_usage_error("info", "more than one trace given");
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, sizeof path))
    return 1;
  rc = trace_reader_open(&r, path, &d);
  if (rc < 0) {
    cli_error("%s: %s", path, d.msg);
    return cli_open_status(rc);
  }
  if (checking) {
    rc = check(path, r, json);
    trace_reader_close(r);
    return rc;
  }
  trace_reader_get_info(r, &in);
  cli_report_open(path, &in);
  memset(&d, 0, sizeof d);
  if (json) {
    rc = trace_report_info_json(stdout, r, &d);
  } else {
    printf("%-11s %s\n", "trace:", path);
    rc = trace_report_info(stdout, r, &d);
    /* Its index (rewind index), and whether replays can use it. */
    size_t nk;
    char why[200];
    int fits = rp_index_check(path, &nk, why, sizeof why);
    if (fits > 0)
      printf("%-11s %s.idx, %zu keyframe%s (replays start from them)\n",
             "index:", path, nk, nk == 1 ? "" : "s");
    else if (fits == 0)
      printf("%-11s %s.idx, not used: %s\n", "index:", path, why);
  }
  trace_reader_close(r);
  if (rc < 0) return cli_error("writing the report: %s", rw_strerror(rc));
  if (rc > 0) fprintf(stderr, "rewind: %s: %s\n", path, d.msg);
  return rc > 0 || (in.damaged && !in.torn) ? CLI_DAMAGED : 0;
}
