/* SPDX-License-Identifier: MIT */
/* `rewind trim TRACE --from N --to M -o OUT`: parses its arguments, has
 * the replayer write the window (replayer/trim.c), then replays what it
 * wrote to its end before saying it is done. Exit statuses: 0, 1 when
 * the window cannot be written or does not replay, 2 for usage, and those
 * of rewind replay for a source trace that cannot be opened. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replayer/replayer.h"

static void usage(FILE *out) {
  fputs("usage: rewind trim [TRACE] --from N [--to M] -o OUT\n"
        "\n"
        "Write the part of a recording between global instructions N and M\n"
        "(as rewind replay --goto counts them) as a trace of its own: it\n"
        "begins with the state of the process at N, the way rewind record -p\n"
        "begins, holds the events up to M, and ends there as a recording\n"
        "rewind detached from. It holds only the files the window maps, and\n"
        "replays and debugs alone, on any machine: its instruction 0 is\n"
        "instruction N of TRACE. rewind trim replays what it wrote before it\n"
        "says it is done.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --from N       the window's first instruction\n"
        "  --to M         the instruction it ends before (default: the end\n"
        "                 of the history, which the window then keeps)\n"
        "  -o, --output OUT  the new trace\n"
        "  -f, --force    replace OUT if it exists\n"
        "  --no-verify    do not replay OUT afterwards\n"
        "  --progress     report progress (the default on a terminal)\n"
        "  --no-progress  do not\n"
        "  -h, --help     show this help\n"
        "\n"
        "The window must begin where the recorded process is the only one\n"
        "alive (it may fork inside the window).\n",
        out);
}

static int count_arg(const char *opt, const char *arg, u64 *out) {
  char *end;
  if (!*arg || arg[0] == '-') goto bad;
  *out = strtoull(arg, &end, 0);
  if (!*end) return 0;
bad:
  return cli_usage_error("trim", "%s takes an instruction count, not '%s'",
                         opt, arg);
}

/* Opens the replay of PATH, every process to the end. Returns 0 or the
 * exit status. */
static int open_whole(const char *path, int progress, rp_replay **rp) {
  struct rp_opts opts = {0};
  opts.whole = 1;
  opts.progress = progress;
  return cli_replay_open(path, &opts, rp);
}

/* Replays OUT to its end. Returns 0 when it ends there unbroken. */
static int verify(const char *out, int progress, u64 *icount) {
  rp_replay *rp;
  int rc = open_whole(out, progress, &rp);
  if (rc) return rc;
  struct rp_stop stop;
  rc = rp_run(rp, ~0ull, &stop);
  if (progress) fputc('\n', stderr);
  int st = 0;
  if (rc < 0) {
    st = cli_error("the replay of %s failed: %s", out, rw_strerror(rc));
  } else if (stop.reason != RP_STOP_END) {
    fprintf(stderr, "rewind: the window written to %s does not replay "
            "(a bug in rewind trim; please report it with the trace):\n",
            out);
    if (rp_report(rp, stderr) < 0) fprintf(stderr, "%s\n", stop.msg);
    st = 1;
  }
  *icount = rp_icount(rp);
  rp_close(rp);
  return st;
}

int cli_cmd_trim(int argc, char **argv) {
  static const struct option longopts[] = {
      {"from", required_argument, 0, 'F'},
      {"to", required_argument, 0, 'T'},
      {"output", required_argument, 0, 'o'},
      {"force", no_argument, 0, 'f'},
      {"no-verify", no_argument, 0, 'V'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  struct rp_trim_opts o = {0};
  int has_from = 0, no_verify = 0, progress = isatty(2), c;
  o.to = ~0ull;
  optind = 1;
  while ((c = cli_getopt("trim", argc, argv, "o:fh", longopts)) != -1) {
    switch (c) {
      case 'F':
        if (count_arg("--from", optarg, &o.from)) return 2;
        has_from = 1;
        break;
      case 'T':
        if (count_arg("--to", optarg, &o.to)) return 2;
        break;
      case 'o':
        o.out = optarg;
        break;
      case 'f':
        o.overwrite = 1;
        break;
      case 'V':
        no_verify = 1;
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
  if (!has_from)
    return cli_usage_error("trim", "--from N says where the window begins");
  if (!o.out) return cli_usage_error("trim", "-o OUT names the new trace");
  if (o.to <= o.from)
    return cli_usage_error("trim", "--to (%" PRIu64 ") must come after "
                           "--from (%" PRIu64 ")", o.to, o.from);
  if (optind + 1 < argc)
    return cli_usage_error("trim", "more than one trace given ('%s' and "
                           "'%s')", argv[optind], argv[optind + 1]);
  char path[4096];
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, sizeof path))
    return 1;
  struct stat a, b;
  if (stat(path, &a) == 0 && stat(o.out, &b) == 0 && a.st_dev == b.st_dev &&
      a.st_ino == b.st_ino)
    return cli_usage_error("trim", "-o %s is the trace being trimmed", o.out);
  if (!o.overwrite && access(o.out, F_OK) == 0)
    return cli_error("%s exists; use --force to replace it", o.out);
  o.src_name = path;
  rp_replay *rp;
  int rc = open_whole(path, progress, &rp);
  if (rc) return rc;
  cli_trace_warning(rp, path);
  struct rp_trim_stats st;
  struct rw_diag diag = {0};
  rc = rp_trim(rp, &o, &st, &diag);
  if (progress) fputc('\n', stderr);
  rp_close(rp);
  if (rc < 0)
    return cli_error("cannot trim %s: %s", path,
                     diag.msg[0] ? diag.msg : rw_strerror(rc));
  char procs[64] = "";
  if (st.procs > 1) snprintf(procs, sizeof procs, "%zu processes, ", st.procs);
  fprintf(stderr,
          "rewind: wrote %s: instructions %" PRIu64 " to %" PRIu64
          " of %s%s (%s%zu thread%s at its start, %" PRIu64
          " records, %.1f MB of memory, %zu file%s)\n",
          o.out, st.from, st.to, path,
          st.to_end ? ", to the end of its history" : "", procs, st.threads,
          st.threads == 1 ? "" : "s", st.records,
          (double)st.mem_bytes / 1e6, st.blobs, st.blobs == 1 ? "" : "s");
  if (no_verify) return 0;
  u64 n = 0;
  int vst = verify(o.out, progress, &n);
  if (vst) {
    remove(o.out);
    fprintf(stderr, "rewind: %s removed\n", o.out);
    return vst;
  }
  fprintf(stderr, "rewind: it replays to its end (%" PRIu64 " instructions; "
          "its instruction 0 is instruction %" PRIu64 " of %s)\n", n,
          st.from, path);
  return 0;
}
