/* SPDX-License-Identifier: MIT */
/* `rewind analyze profile [options] [TRACE]`: replays the trace with every
 * thread's calls and returns observed and prints where its instructions
 * went, by function (replayer/profile.c); it can also write folded stacks
 * for flame graphs and a callgrind file. Exit statuses: 0; 1 when the
 * trace cannot be replayed or a file cannot be written; 2 for usage; 4
 * when the replay diverged and 5 when the trace is damaged (the profile
 * then covers the history before it, and is still printed). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "format/format.h"
#include "replayer/replayer.h"

static void usage(FILE *out) {
  fputs("usage: rewind analyze profile [options] [TRACE]\n"
        "\n"
        "Replay TRACE and show where its instructions went, by function:\n"
        "inclusive (with what it called) and exclusive counts, their share\n"
        "of all instructions, and calls. Every thread of every recorded\n"
        "process counts; each iteration of a rep-prefixed string\n"
        "instruction counts as one. The call stacks come from the calls\n"
        "and returns the replay executes, so no frame pointers, unwind\n"
        "tables or debug information are needed; names come from the\n"
        "symbol tables of the files in the trace.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --top N            show the N functions with the most inclusive\n"
        "                     instructions (default 25; 0: all)\n"
        "  --folded FILE      write folded stacks (one call path and its\n"
        "                     exclusive instructions per line) for\n"
        "                     flamegraph.pl or speedscope\n"
        "  --callgrind FILE   write the profile for callgrind_annotate and\n"
        "                     KCachegrind (event Ir: instructions)\n"
        "  --progress         show progress on stderr (default: when stderr\n"
        "                     is a terminal)\n"
        "  --no-progress      do not show progress\n"
        "  -q, --quiet        print only errors (and the files asked for)\n"
        "  -h, --help         show this help\n",
        out);
}

/* The recorded command line, NUL-joined in the trace, with spaces. */
static void command_of(rp_replay *rp, char *buf, size_t cap) {
  int n = rp_meta(rp, TRACE_META_CMDLINE, buf, cap);
  if (n < 0) {
    snprintf(buf, cap, "?");
    return;
  }
  for (int i = 0; i + 1 < n && (size_t)i + 1 < cap; i++)
    if (!buf[i]) buf[i] = ' ';
}

/* Writes the profile to PATH with WRITE. Returns 0 or prints why not and
 * returns 1. */
static int write_file(const char *path, const rp_profile *p, const char *cmd,
                      int callgrind) {
  FILE *f = fopen(path, "w");
  if (!f) return cli_error("cannot write %s: %s", path, strerror(errno));
  int rc = callgrind ? rp_profile_callgrind(p, f, cmd) : rp_profile_folded(p, f);
  if (fclose(f) != 0 && rc == 0) rc = RW_ERR(errno);
  if (rc < 0) return cli_error("cannot write %s: %s", path, rw_strerror(rc));
  return 0;
}

static int profile(int argc, char **argv) {
  static const struct option longopts[] = {
      {"top", required_argument, 0, 't'},
      {"folded", required_argument, 0, 'f'},
      {"callgrind", required_argument, 0, 'c'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"quiet", no_argument, 0, 'q'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *folded = NULL, *callgrind = NULL;
  size_t top = 25;
  int quiet = 0, progress = isatty(2), c;
  optind = 1;
  while ((c = cli_getopt("analyze profile", argc, argv, "qh", longopts)) !=
         -1) {
    char *end;
    switch (c) {
      case 't':
        errno = 0;
        top = (size_t)strtoull(optarg, &end, 10);
        if (errno || end == optarg || *end || optarg[0] == '-')
          return cli_usage_error("analyze profile", "--top takes a number "
                                 "of functions, not '%s'", optarg);
        break;
      case 'f':
        folded = optarg;
        break;
      case 'c':
        callgrind = optarg;
        break;
      case 'G':
        progress = 1;
        break;
      case 'P':
        progress = 0;
        break;
      case 'q':
        quiet = 1;
        break;
      case 'h':
        usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  if (argc - optind > 1)
    return cli_usage_error("analyze profile", "more than one trace given "
                           "('%s' and '%s')", argv[optind], argv[optind + 1]);
  char path[4096];
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, sizeof path))
    return 1;
  struct rp_opts opts = {0};
  opts.progress = progress && !quiet;
  opts.whole = 1; /* every process, to the end of the recording */
  struct rw_diag diag = {0};
  rp_replay *rp;
  int rc = rp_open(&rp, path, &opts, &diag);
  if (rc < 0) {
    cli_error("cannot replay %s: %s", path,
              diag.msg[0] ? diag.msg : rw_strerror(rc));
    return cli_open_status(rc);
  }
  if (!quiet) cli_trace_warning(rp, path);
  rp_profile *p;
  struct rp_stop stop;
  rc = rp_profile_run(rp, &p, &stop);
  if (opts.progress) fputc('\n', stderr);
  if (rc < 0) {
    rp_close(rp);
    return cli_error("profile of %s failed: %s", path, rw_strerror(rc));
  }
  int status = 0;
  if (stop.reason == RP_STOP_DIVERGED || stop.reason == RP_STOP_FAILED) {
    fprintf(stderr, "rewind: ");
    if (rp_report(rp, stderr) < 0) fprintf(stderr, "%s\n", stop.msg);
    fprintf(stderr, "rewind: the profile covers the history before that\n");
    status = stop.reason == RP_STOP_DIVERGED ? 4 : stop.damaged ? 5 : 1;
  }
  char cmd[1024];
  command_of(rp, cmd, sizeof cmd);
  if (!quiet) {
    u64 insns, calls;
    u32 threads;
    rp_profile_totals(p, &insns, &calls, &threads);
    printf("profile of %s: %llu instructions in %u thread%s, %llu calls\n",
           cmd, (unsigned long long)insns, threads, threads == 1 ? "" : "s",
           (unsigned long long)calls);
    rc = rp_profile_table(p, stdout, top);
    if (rc < 0 && rc != RW_ERR(EPIPE))
      status = cli_error("writing the table: %s", rw_strerror(rc));
  }
  if (folded && write_file(folded, p, cmd, 0)) status = status ? status : 1;
  if (callgrind && write_file(callgrind, p, cmd, 1))
    status = status ? status : 1;
  rp_profile_free(p);
  rp_close(rp);
  return status;
}

int cli_cmd_analyze(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "profile")) return profile(argc - 1, argv + 1);
  return cli_usage_error("analyze", "unknown analysis '%s' (there is: "
                         "profile)", argv[1]);
}
