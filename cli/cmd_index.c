/* SPDX-License-Identifier: MIT */
/* `rewind index [TRACE] [--interval N] [-o OUT]`: parses its arguments and
 * has the replayer write the trace's persistent index
 * (replayer/index.c). Exit statuses: 0, 1 when the index cannot be
 * written, 2 for usage, and those of rewind replay for a trace that
 * cannot be opened. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replayer/replayer.h"

static void usage(FILE *out) {
  fputs("usage: rewind index [TRACE] [--interval N] [-o OUT]\n"
        "\n"
        "Replay a recording once and save the replay's keyframes (the state\n"
        "of every process every N instructions) next to it, as TRACE.idx.\n"
        "Every later rewind replay, rewind serve and gdb session on TRACE\n"
        "then starts at any position from the nearest of them instead of\n"
        "replaying everything before it: rewind replay -g N, gdb's monitor\n"
        "goto, reverse execution far back. An index made for another state\n"
        "of the trace is not used.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --interval N   instructions between keyframes (default 25000000)\n"
        "  -o, --output OUT  write the index there instead (replays use\n"
        "                 TRACE.idx only)\n"
        "  -f, --force    replace OUT if it exists\n"
        "  --progress     report progress (the default on a terminal)\n"
        "  --no-progress  do not\n"
        "  -h, --help     show this help\n",
        out);
}

int cli_cmd_index(int argc, char **argv) {
  static const struct option longopts[] = {
      {"interval", required_argument, 0, 'I'},
      {"output", required_argument, 0, 'o'},
      {"force", no_argument, 0, 'f'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  struct rp_index_opts o = {0};
  int progress = isatty(2), c;
  optind = 1;
  while ((c = cli_getopt("index", argc, argv, "o:fh", longopts)) != -1) {
    switch (c) {
      case 'I': {
        char *end;
        o.interval = strtoull(optarg, &end, 0);
        if (!*optarg || *end || optarg[0] == '-' || o.interval < 1000)
          return cli_usage_error("index", "--interval takes an instruction "
                                 "count of at least 1000, not '%s'", optarg);
        break;
      }
      case 'o':
        o.out = optarg;
        break;
      case 'f':
        o.overwrite = 1;
        break;
      case 'G':
        progress = 1;
        break;
      case 'P':
        progress = 0;
        break;
      case 'h':
        usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  if (optind + 1 < argc)
    return cli_usage_error("index", "more than one trace given ('%s' and "
                           "'%s')", argv[optind], argv[optind + 1]);
  char path[4096], out[4200];
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, sizeof path))
    return 1;
  if (!o.out) {
    snprintf(out, sizeof out, "%s.idx", path);
    o.out = out;
    o.overwrite = 1; /* the trace's own index is made again */
  }
  if (!o.overwrite && access(o.out, F_OK) == 0)
    return cli_error("%s exists; use --force to replace it", o.out);
  struct rp_opts opts = {0};
  opts.whole = 1;
  opts.progress = progress;
  opts.no_index = 1;
  rp_replay *rp;
  int rc = cli_replay_open(path, &opts, &rp);
  if (rc) return rc;
  cli_trace_warning(rp, path);
  struct rp_index_stats st;
  struct rw_diag diag = {0};
  u64 t0 = rw_now_ns();
  rc = rp_index_write(rp, &o, &st, &diag);
  if (progress) fputc('\n', stderr);
  rp_close(rp);
  if (rc < 0)
    return cli_error("cannot index %s: %s", path,
                     diag.msg[0] ? diag.msg : rw_strerror(rc));
  fprintf(stderr,
          "rewind: wrote %s: %" PRIu64 " keyframe%s over %" PRIu64
          " instructions, %.1f MB of memory pages, in %.1f s; replays of "
          "%s start from them\n",
          o.out, st.keyframes, st.keyframes == 1 ? "" : "s", st.end,
          (double)st.pages * 4096 / 1e6, (double)(rw_now_ns() - t0) / 1e9,
          path);
  return 0;
}
