/* SPDX-License-Identifier: MIT */
/* `rewind ps [--json] [TRACE]`: parses its arguments and prints the
 * process table format/ps.c builds from the trace's records. Exit
 * statuses as `rewind info`: 0, CLI_DAMAGED, 1 when the trace cannot be
 * opened, 2 for usage. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "format/format.h"

static void ps_usage(FILE *out) {
  fputs("usage: rewind ps [--json] [TRACE]\n"
        "\n"
        "List the processes of a trace, in the order they appeared: pid,\n"
        "parent, how each ended (exit status, signal, running when the\n"
        "recording stopped first, or detached when rewind record -p let it\n"
        "go on), the events (record numbers, as rewind\n"
        "dump prints them) from its first to its last, its threads and its\n"
        "command. Children made with fork, vfork or posix_spawn are\n"
        "recorded processes of their own; those made with clone(CLONE_VM)\n"
        "(or under rewind record --no-follow) ran unrecorded: only their\n"
        "creation is known.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --json      one JSON object per process, one per line\n"
        "  -h, --help  show this help\n",
        out);
}

int cli_cmd_ps(int argc, char **argv) {
  char path[4096];
  trace_reader *r;
  struct rw_diag d = {0};
  struct trace_info in;
  int json = 0;
  int st = cli_json_opts("ps", argc, argv, ps_usage, &json);
  if (st >= 0) return st;
  st = cli_open_trace("ps", argc, argv, path, sizeof path, &r, &in);
  if (st >= 0) return st;
  int rc = trace_report_ps(stdout, r, json, &d);
  trace_reader_close(r);
  if (rc < 0) return cli_error("%s: %s", path, rw_strerror(rc));
  if (rc > 0) fprintf(stderr, "rewind: %s: %s\n", path, d.msg);
  return rc > 0 || (in.damaged && !in.torn) ? CLI_DAMAGED : 0;
}
