/* SPDX-License-Identifier: MIT */
/* `rewind analyze profile|calls [options] [TRACE]`: replays the trace with
 * every thread's calls and returns observed (replayer/profile.c). profile
 * prints where its instructions went, by function (a table or JSON
 * lines, all threads or one), and can write an SVG flame graph, folded
 * stacks for other flame graph tools and a callgrind file; calls lists
 * the calls, with their positions, arguments and results. Exit statuses:
 * 0; 1 when the trace cannot be replayed, a file cannot be written or
 * --thread names no thread of it; 2 for usage; 4 when the replay diverged
 * and 5 when the trace is damaged (the output then covers the history
 * before it, and is still printed). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/analyze.h"
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
        "  --exclusive        order by exclusive instructions (where the\n"
        "                     time goes) instead\n"
        "  --thread TID       profile thread TID alone (its instructions\n"
        "                     and calls; the files below too)\n"
        "  --json             print one JSON object per line instead of the\n"
        "                     table: the totals, then each function (--top\n"
        "                     and --exclusive apply)\n"
        "  --svg FILE         write the flame graph as an SVG file for a\n"
        "                     browser: a box per call path, roots at the\n"
        "                     bottom, as wide as its inclusive instructions;\n"
        "                     boxes under 0.1% of the width are merged or\n"
        "                     left out\n"
        "  --folded FILE      write folded stacks (one call path and its\n"
        "                     exclusive instructions per line) for\n"
        "                     flamegraph.pl or speedscope\n"
        "  --callgrind FILE   write the profile for callgrind_annotate and\n"
        "                     KCachegrind (event Ir: instructions)\n"
        "  -j, --jobs N       replay the pieces between the trace's keyframes\n"
        "                     (rewind record --keyframes) N at a time, each\n"
        "                     in a process of its own, and join them: the\n"
        "                     same profile, sooner on N cores\n"
        "  --progress         show progress on stderr (default: when stderr\n"
        "                     is a terminal)\n"
        "  --no-progress      do not show progress\n"
        "  -q, --quiet        print only errors (and the files asked for)\n"
        "  -h, --help         show this help\n",
        out);
}

/* The recorded command line, NUL-joined in the trace, with spaces: of
 * the replay RP, or when it is NULL of the trace at PATH. */
static void command_of(rp_replay *rp, const char *path, char *buf,
                       size_t cap) {
  int n = -1;
  if (rp) {
    n = rp_meta(rp, TRACE_META_CMDLINE, buf, cap);
  } else {
    trace_reader *r;
    const void *v;
    size_t len;
    if (trace_reader_open(&r, path, NULL) == 0) {
      if (trace_reader_meta(r, TRACE_META_CMDLINE, &v, &len) == 0 && cap) {
        n = (int)RW_MIN(len, cap - 1);
        memcpy(buf, v, (size_t)n);
        buf[n] = 0;
      }
      trace_reader_close(r);
    }
  }
  if (n < 0) {
    snprintf(buf, cap, "?");
    return;
  }
  for (int i = 0; i + 1 < n && (size_t)i + 1 < cap; i++)
    if (!buf[i]) buf[i] = ' ';
}

/* analyze profile -j: each piece's call tree saved, then joined. */
struct tree_job {
  u32 tid;
  rp_profile *total;
};

static int tree_piece(rp_replay *rp, FILE *out, struct rp_stop *stop,
                      void *ctx) {
  rp_profile *p;
  RW_FORWARD(rp_profile_piece_run(rp, ((struct tree_job *)ctx)->tid, &p,
                                  stop));
  int rc = rp_profile_tree_save(p, out);
  rp_profile_free(p);
  return rc;
}

static int tree_add(FILE *in, void *ctx) {
  return rp_profile_tree_add(((struct tree_job *)ctx)->total, in);
}

/* The profile of the trace at PATH (thread TID's when not 0) in pieces,
 * JOBS at a time, into *OUT. Returns the exit status (*OUT set unless 1,
 * 2 or CLI_DAMAGED), or -1 when the trace has no keyframes. */
static int tree_pieces(const char *path, u32 tid, int jobs, int progress,
                       rp_profile **out) {
  struct tree_job j = {.tid = tid};
  *out = NULL;
  if (rp_profile_tree_empty(tid, &j.total) < 0)
    return cli_error("out of memory");
  struct cli_piece_job job = {"profile", tree_piece, tree_add, &j};
  int st = cli_analyze_segments(path, jobs, progress, &job);
  int rc = st == -1 || st == 1 || st == 2 || st == CLI_DAMAGED
               ? 0
               : rp_profile_tree_done(j.total);
  if (rc < 0) st = cli_error("profile of %s failed: %s", path,
                             rw_strerror(rc));
  if (rc < 0 || st == -1 || st == 1 || st == 2 || st == CLI_DAMAGED) {
    rp_profile_free(j.total);
    return st;
  }
  *out = j.total;
  return st;
}

/* The files `analyze profile` writes. */
enum { OUT_FOLDED, OUT_CALLGRIND, OUT_SVG };

/* Writes the profile to PATH as KIND (OUT_*), with CMD (the callgrind
 * file's command) and HEAD (the SVG's heading). Returns 0 or prints why
 * not and returns 1. */
static int write_file(const char *path, const rp_profile *p, const char *cmd,
                      const char *head, int kind) {
  FILE *f = fopen(path, "w");
  if (!f) return cli_error("cannot write %s: %s", path, strerror(errno));
  int rc = kind == OUT_CALLGRIND ? rp_profile_callgrind(p, f, cmd)
           : kind == OUT_SVG     ? rp_profile_svg(p, f, head)
                                 : rp_profile_folded(p, f);
  if (fclose(f) != 0 && rc == 0) rc = RW_ERR(errno);
  if (rc < 0) return cli_error("cannot write %s: %s", path, rw_strerror(rc));
  return 0;
}

/* Opens PATH for an analysis run (every process, to the end). Returns 0
 * with *RP, or prints why not and returns the exit status. */
int an_open_trace(const char *path, int quiet, int progress,
                  rp_replay **rp) {
  struct rp_opts opts = {0};
  opts.progress = progress && !quiet;
  opts.whole = 1; /* every process, to the end of the recording */
  int rc = cli_replay_open(path, &opts, rp);
  if (rc) return rc;
  if (!quiet) cli_trace_warning(*rp, path);
  return 0;
}

/* Says why analysis WHAT of PATH failed with RC (thread TID, when not 0,
 * did not run there) and returns the exit status. */
int an_failed(const char *what, const char *path, int rc, u32 tid) {
  if (rc == RW_ENOTFOUND && tid)
    return cli_error("thread %u did not run in %s", tid, path);
  return cli_error("%s of %s failed: %s", what, path, rw_strerror(rc));
}

/* Says why the run stopped before the end, if it did; returns the exit
 * status that goes with it (0 at the end). */
int an_run_status(rp_replay *rp, const struct rp_stop *stop) {
  if (stop->reason != RP_STOP_DIVERGED && stop->reason != RP_STOP_FAILED)
    return 0;
  fprintf(stderr, "rewind: ");
  if (rp_report(rp, stderr) < 0) fprintf(stderr, "%s\n", stop->msg);
  fprintf(stderr, "rewind: the analysis covers the history before that\n");
  return stop->reason == RP_STOP_DIVERGED ? 4 : stop->damaged ? 5 : 1;
}

/* The one trace operand (or the latest) into PATH. Returns -1 to go on,
 * or the exit status. */
static int trace_arg(const char *cmd, int argc, char **argv, char *path,
                     size_t cap) {
  if (argc - optind > 1)
    return cli_usage_error(cmd, "more than one trace given ('%s' and '%s')",
                           argv[optind], argv[optind + 1]);
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, cap))
    return 1;
  return -1;
}

/* A count argument ARG of option OPT into *N. Returns -1 or 2. */
int an_count_arg(const char *cmd, const char *opt, const char *arg,
                 u64 *n) {
  char *end;
  errno = 0;
  *n = strtoull(arg, &end, 0);
  if (errno || end == arg || *end || arg[0] == '-')
    return cli_usage_error(cmd, "%s takes a number, not '%s'", opt, arg);
  return -1;
}

/* --thread ARG of CMD into *TID: a thread id. Returns -1, or prints why
 * not and returns 2. */
int an_tid_arg(const char *cmd, const char *arg, u64 *tid) {
  int st = an_count_arg(cmd, "--thread", arg, tid);
  if (st >= 0) return st;
  if (!*tid || *tid > UINT32_MAX)
    return cli_usage_error(cmd, "--thread takes a thread id, not %s", arg);
  return -1;
}

/* The options the analyses share: --progress, --no-progress and --json
 * (JSON NULL: not taken). Returns 1 when C was one of them. */
int an_shared_opt(int c, int *progress, int *json) {
  if (c == 'G' || c == 'P') {
    *progress = c == 'G';
    return 1;
  }
  if (c == 'J' && json) {
    *json = 1;
    return 1;
  }
  return 0;
}

/* Whether thread TID has records in the trace at PATH (0), or prints why
 * not, with the threads it has, and returns 1. Asked before the replay,
 * which takes long. */
int an_thread_check(const char *path, u32 tid) {
  struct rw_diag diag = {0};
  trace_reader *r;
  int rc = trace_reader_open(&r, path, &diag);
  if (rc < 0) /* the replay says why, as without --thread */
    return 0;
  size_t n = trace_reader_threads(r, NULL, 0);
  u32 *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) {
    trace_reader_close(r);
    return cli_error("out of memory");
  }
  n = RW_MIN(n, trace_reader_threads(r, v, n));
  trace_reader_close(r);
  int found = 0;
  char list[200] = "";
  for (size_t i = 0; i < n; i++) {
    found |= v[i] == tid;
    size_t k = strlen(list);
    if (k + 16 < sizeof list)
      snprintf(list + k, sizeof list - k, "%s%u", i ? ", " : "", v[i]);
    else if (k + 5 < sizeof list && !strstr(list, "..."))
      snprintf(list + k, sizeof list - k, ", ...");
  }
  free(v);
  if (found) return 0;
  return cli_error("no thread %u in %s (its threads: %s)", tid, path,
                   n ? list : "none");
}

/* The first line of a profile: the command, the thread when one
 * (TID), totals; into BUF (CAP bytes). */
static void heading(const rp_profile *p, const char *cmd, u32 tid, char *buf,
                    size_t cap) {
  u64 insns, calls;
  u32 threads;
  rp_profile_totals(p, &insns, &calls, &threads);
  if (tid)
    snprintf(buf, cap, "profile of %s, thread %u: %llu instructions, %llu "
             "calls", cmd, tid, (unsigned long long)insns,
             (unsigned long long)calls);
  else
    snprintf(buf, cap, "profile of %s: %llu instructions in %u thread%s, "
             "%llu calls", cmd, (unsigned long long)insns, threads,
             threads == 1 ? "" : "s", (unsigned long long)calls);
}

static int profile(int argc, char **argv) {
  static const struct option longopts[] = {
      {"top", required_argument, 0, 't'},
      {"folded", required_argument, 0, 'f'},
      {"callgrind", required_argument, 0, 'c'},
      {"svg", required_argument, 0, 's'},
      {"thread", required_argument, 0, 'T'},
      {"json", no_argument, 0, 'J'},
      {"exclusive", no_argument, 0, 'e'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"quiet", no_argument, 0, 'q'},
      {"jobs", required_argument, 0, 'j'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *folded = NULL, *callgrind = NULL, *svg = NULL;
  u64 top = 25, tid = 0;
  int quiet = 0, progress = isatty(2), by_excl = 0, json = 0, c, st;
  int jobs = 0;
  optind = 1;
  while ((c = cli_getopt("analyze profile", argc, argv, "qhj:", longopts)) !=
         -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    switch (c) {
      case 'j':
        if ((st = an_jobs_arg("analyze profile", optarg, &jobs)) >= 0)
          return st;
        break;
      case 't':
        if ((st = an_count_arg("analyze profile", "--top", optarg, &top)) >= 0)
          return st;
        break;
      case 'T':
        if ((st = an_tid_arg("analyze profile", optarg, &tid)) >= 0) return st;
        break;
      case 'f':
        folded = optarg;
        break;
      case 'c':
        callgrind = optarg;
        break;
      case 's':
        svg = optarg;
        break;
      case 'e':
        by_excl = 1;
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
  char path[4096];
  if ((st = trace_arg("analyze profile", argc, argv, path, sizeof path)) >= 0)
    return st;
  if (tid && an_thread_check(path, (u32)tid)) return 1;
  rp_replay *rp = NULL;
  rp_profile *p = NULL;
  int status = -1, rc = 0;
  if (jobs) {
    status = tree_pieces(path, (u32)tid, jobs, progress && !quiet, &p);
    if (status == 1 || status == 2 || status == CLI_DAMAGED) return status;
    if (p && tid) {
      u64 n, calls;
      u32 threads;
      rp_profile_totals(p, &n, &calls, &threads);
      if (!threads) rc = RW_ENOTFOUND;
    }
  }
  if (status == -1) {
    if ((st = an_open_trace(path, quiet, progress, &rp))) return st;
    struct rp_stop stop;
    rc = rp_profile_run(rp, (u32)tid, &p, &stop);
    if (progress && !quiet) fputc('\n', stderr);
    if (rc == 0) status = an_run_status(rp, &stop);
  }
  if (rc == RW_ENOTFOUND && tid) {
    rp_profile_free(p);
    rp_close(rp);
    return cli_error("thread %llu of %s never ran in the replay",
                     (unsigned long long)tid, path);
  }
  if (rc < 0) {
    rp_close(rp);
    return cli_error("profile of %s failed: %s", path, rw_strerror(rc));
  }
  char cmd[1024], head[1200];
  command_of(rp, path, cmd, sizeof cmd);
  heading(p, cmd, (u32)tid, head, sizeof head);
  if (!quiet) {
    if (json) {
      rc = rp_profile_json(p, stdout, (size_t)top, by_excl, cmd);
    } else {
      printf("%s\n", head);
      rc = rp_profile_table(p, stdout, (size_t)top, by_excl);
    }
    if (rc < 0 && rc != RW_ERR(EPIPE))
      status = cli_error("writing the %s: %s", json ? "JSON" : "table",
                         rw_strerror(rc));
  }
  const char *files[] = {[OUT_FOLDED] = folded, [OUT_CALLGRIND] = callgrind,
                         [OUT_SVG] = svg};
  for (int k = 0; k < 3; k++)
    if (files[k] && write_file(files[k], p, cmd, head, k))
      status = status ? status : 1;
  rp_profile_free(p);
  rp_close(rp);
  return status;
}

static void calls_usage(FILE *out) {
  fputs("usage: rewind analyze calls [options] [TRACE]\n"
        "\n"
        "Replay TRACE and list its calls, in the order they were made: the\n"
        "position of the call's first instruction and of the instruction\n"
        "after its return (global instruction counts, for rewind replay\n"
        "-g N or monitor goto N), the thread, the function with the six\n"
        "argument registers (rdi, rsi, rdx, rcx, r8, r9; as many as it\n"
        "takes are its arguments), its result (rax) and its caller. A call\n"
        "that a longjmp or an exception left has no result.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  -f, --function NAME  only the calls of function NAME\n"
        "  -t, --thread TID     only the calls of thread TID\n"
        "  --max N              keep at most N calls (default 1000000;\n"
        "                       0: no limit); says how many more there were\n"
        "  -j, --jobs N         replay the pieces between the trace's\n"
        "                       keyframes N at a time and join them: the same\n"
        "                       calls, sooner on N cores\n"
        "  --json               one JSON object per call, one per line\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -h, --help           show this help\n",
        out);
}

/* analyze calls -j: each piece's call tree and calls saved, then joined. */
struct calls_job {
  const char *fn;
  u32 tid;
  rp_calls *total;
};

static int calls_piece(rp_replay *rp, FILE *out, struct rp_stop *stop,
                       void *ctx) {
  const struct calls_job *j = ctx;
  rp_profile *p;
  RW_FORWARD(rp_calls_piece_run(rp, j->fn, j->tid, &p, stop));
  int rc = rp_profile_tree_save(p, out);
  rp_profile_free(p);
  return rc;
}

static int calls_add(FILE *in, void *ctx) {
  return rp_calls_add(((struct calls_job *)ctx)->total, in);
}

/* The calls of FN (NULL: all) by TID (0: all), at most MAX, of the trace at
 * PATH in pieces, JOBS at a time, into *OUT. Returns the exit status (*OUT
 * set unless 1, 2 or CLI_DAMAGED), or -1 when the trace has no
 * keyframes. */
static int calls_pieces(const char *path, const char *fn, u32 tid,
                        size_t max, int jobs, int progress, rp_calls **out) {
  struct calls_job j = {.fn = fn, .tid = tid};
  *out = NULL;
  if (rp_calls_total(fn, tid, max, &j.total) < 0)
    return cli_error("out of memory");
  struct cli_piece_job job = {"calls", calls_piece, calls_add, &j};
  int st = cli_analyze_segments(path, jobs, progress, &job);
  int bad = st == -1 || st == 1 || st == 2 || st == CLI_DAMAGED;
  int rc = bad ? 0 : rp_calls_done(j.total);
  if (rc < 0)
    st = cli_error("calls of %s failed: %s", path, rw_strerror(rc));
  if (rc < 0 || bad) {
    rp_calls_free(j.total);
    return st;
  }
  *out = j.total;
  return st;
}

static int calls(int argc, char **argv) {
  static const struct option longopts[] = {
      {"function", required_argument, 0, 'f'},
      {"thread", required_argument, 0, 't'},
      {"max", required_argument, 0, 'm'},
      {"jobs", required_argument, 0, 'j'},
      {"json", no_argument, 0, 'J'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *fn = NULL;
  u64 tid = 0, max = 1000000;
  int json = 0, progress = isatty(2), c, st, jobs = 0;
  optind = 1;
  while ((c = cli_getopt("analyze calls", argc, argv, "f:t:hj:", longopts)) !=
         -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    switch (c) {
      case 'j':
        if ((st = an_jobs_arg("analyze calls", optarg, &jobs)) >= 0)
          return st;
        break;
      case 'f':
        fn = optarg;
        break;
      case 't':
        if ((st = an_tid_arg("analyze calls", optarg, &tid)) >= 0) return st;
        break;
      case 'm':
        if ((st = an_count_arg("analyze calls", "--max", optarg, &max)) >= 0)
          return st;
        break;
      case 'h':
        calls_usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  char path[4096];
  if ((st = trace_arg("analyze calls", argc, argv, path, sizeof path)) >= 0)
    return st;
  rp_replay *rp = NULL;
  rp_calls *list = NULL;
  int status = -1;
  if (jobs) {
    status = calls_pieces(path, fn, (u32)tid, (size_t)max, jobs, progress,
                          &list);
    if (!list && status != -1) return status;
  }
  if (status == -1) {
    if ((st = an_open_trace(path, 0, progress, &rp))) return st;
    struct rp_stop stop;
    int rc = rp_calls_run(rp, fn, (u32)tid, (size_t)max, &list, &stop);
    if (progress) fputc('\n', stderr);
    if (rc < 0) {
      rp_close(rp);
      return cli_error("calls of %s failed: %s", path, rw_strerror(rc));
    }
    status = an_run_status(rp, &stop);
  }
  u64 dropped;
  size_t n = rp_calls_count(list, &dropped);
  for (size_t i = 0; i < n && !ferror(stdout); i++) {
    const struct rp_call *k = rp_calls_get(list, i);
    if (json) {
      printf("{\"start\":%llu,\"end\":%llu,\"thread\":%u,\"function\":",
             (unsigned long long)k->start, (unsigned long long)k->end, k->tid);
      trace_json_str(stdout, k->fn);
      printf(",\"file\":");
      trace_json_str(stdout, k->object);
      printf(",\"caller\":");
      if (k->caller)
        trace_json_str(stdout, k->caller);
      else
        printf("null");
      printf(",\"args\":[%llu,%llu,%llu,%llu,%llu,%llu],\"returned\":%s",
             (unsigned long long)k->args[0], (unsigned long long)k->args[1],
             (unsigned long long)k->args[2], (unsigned long long)k->args[3],
             (unsigned long long)k->args[4], (unsigned long long)k->args[5],
             k->returned ? "true" : "false");
      if (k->returned) printf(",\"result\":%llu", (unsigned long long)k->ret);
      printf("}\n");
      continue;
    }
    if (i == 0)
      printf("%12s %12s %8s  %s\n", "start", "end", "thread",
             "call (rdi, rsi, rdx, rcx, r8, r9) = rax, from caller");
    printf("%12llu %12llu %8u  %s(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx)",
           (unsigned long long)k->start, (unsigned long long)k->end, k->tid,
           k->fn, (unsigned long long)k->args[0],
           (unsigned long long)k->args[1], (unsigned long long)k->args[2],
           (unsigned long long)k->args[3], (unsigned long long)k->args[4],
           (unsigned long long)k->args[5]);
    if (k->returned)
      printf(" = %#llx", (unsigned long long)k->ret);
    else
      printf(" (did not return)");
    printf(", from %s\n", k->caller ? k->caller : "the thread's start");
  }
  if (fflush(stdout) != 0 && errno != EPIPE)
    status = cli_error("writing the calls: %s", strerror(errno));
  if (!json)
    fprintf(stderr, "rewind: %zu call%s%s%s", n, n == 1 ? "" : "s",
            fn ? " of " : "", fn ? fn : "");
  if (!json && dropped)
    fprintf(stderr, " (and %llu more past --max)", (unsigned long long)dropped);
  if (!json) fputc('\n', stderr);
  if (!n && fn)
    fprintf(stderr, "rewind: no call of a function named %s: names come from "
                    "the symbol tables of the files in the trace; a stripped "
                    "file's functions are FILE+0xOFFSET (rewind analyze "
                    "profile --top 0 lists them)\n", fn);
  rp_calls_free(list);
  rp_close(rp);
  return status;
}

/* -j ARG of CMD into *JOBS. Returns -1, or prints why not and returns 2. */
int an_jobs_arg(const char *cmd, const char *arg, int *jobs) {
  char *end;
  long v = strtol(arg, &end, 10);
  if (!*arg || *end || v < 1 || v > 1024)
    return cli_usage_error(cmd, "-j wants a number of jobs from 1 to 1024, "
                           "not '%s'", arg);
  *jobs = (int)v;
  return -1;
}

static void edges_usage(FILE *out) {
  fputs("usage: rewind analyze edges [options] [TRACE]\n"
        "\n"
        "Replay TRACE and count every conditional branch (jcc, loop, jrcxz)\n"
        "and indirect jump of every thread: how often each ran, was taken\n"
        "and fell through, and where each indirect jump went; the exact edge\n"
        "profile of the whole history, most executed first.\n"
        "With --sample, also a sampled edge profile, as branch-trace\n"
        "hardware gives one: every N taken branches of a thread, its last\n"
        "taken branches are taken as a sample and the branches between them\n"
        "rebuilt from the code (checked against the true sequence); the\n"
        "edges (a branch taken, a branch not taken) the samples show are\n"
        "set against the exact ones, with the largest relative error and a\n"
        "chi-square, so a sampling period that misleads shows; then the\n"
        "call graph from calls alone, exact and from the samples' calls.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --top N              show the N branches executed most (default\n"
        "                       25; 0: all), and as many sampled edges\n"
        "  --sample N           sample every N taken branches of a thread\n"
        "  --random-delta D     plus a random 0..D-1 each time (D at most N;\n"
        "                       default 0: a fixed period)\n"
        "  --seed S             the random offsets' seed (default 1)\n"
        "  --ring R             taken branches in a sample (default 32, at\n"
        "                       most 4096)\n"
        "  --json               one JSON object per branch, one per line\n"
        "  -j, --jobs N         analyse the pieces between the trace's\n"
        "                       keyframes (rewind record --keyframes) N at a\n"
        "                       time, each in a process of its own, and add\n"
        "                       them up: the same result, sooner on N cores\n"
        "                       (not with --sample)\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -h, --help           show this help\n",
        out);
}

/* An analysis that replays the whole history into a profile and prints a
 * table of it, with a line of totals first: edges, rep. */
struct table_analysis {
  const char *cmd;  /* "analyze edges", for messages */
  const char *what; /* "edges", for "... of TRACE failed" */
  void (*usage)(FILE *out);
  int (*run)(rp_replay *rp, rp_profile **out, struct rp_stop *stop);
  void (*totals)(const rp_profile *p); /* prints a first line, or NULL */
  int (*print)(const rp_profile *p, FILE *out, size_t top, int json);
  int sampling; /* takes --sample and its kin (edges) */
  int reps;     /* its profile is a rep list (rp_profile_empty) */
};


/* A table analysis in pieces: each piece's profile saved, then added. */
struct table_job {
  const struct table_analysis *a;
  rp_profile *total;
};

static int table_piece(rp_replay *rp, FILE *out, struct rp_stop *stop,
                       void *ctx) {
  const struct table_job *j = ctx;
  rp_profile *p;
  RW_FORWARD(j->a->run(rp, &p, stop));
  int rc = rp_profile_save(p, out);
  rp_profile_free(p);
  return rc;
}

static int table_add(FILE *in, void *ctx) {
  const struct table_job *j = ctx;
  return rp_profile_add(j->total, in);
}

/* A's profile of the trace at PATH in pieces, JOBS at a time, into *OUT.
 * Returns the exit status (*OUT set unless 1, 2 or CLI_DAMAGED), or -1
 * when the trace has no keyframes. */
static int table_pieces(const struct table_analysis *a, const char *path,
                        int jobs, int progress, rp_profile **out) {
  struct table_job j = {.a = a};
  if (rp_profile_empty(a->reps, &j.total) < 0) {
    *out = NULL;
    return cli_error("out of memory");
  }
  struct cli_piece_job job = {a->what, table_piece, table_add, &j};
  int st = cli_analyze_segments(path, jobs, progress, &job);
  if (st == -1 || st == 1 || st == 2 || st == CLI_DAMAGED) {
    rp_profile_free(j.total);
    j.total = NULL;
  }
  *out = j.total;
  return st;
}

static int table_cmd(const struct table_analysis *a, int argc, char **argv) {
  static const struct option longopts[] = {
      {"top", required_argument, 0, 't'},
      {"json", no_argument, 0, 'J'},
      {"sample", required_argument, 0, 's'},
      {"random-delta", required_argument, 0, 'd'},
      {"seed", required_argument, 0, 'S'},
      {"ring", required_argument, 0, 'r'},
      {"jobs", required_argument, 0, 'j'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  u64 top = 25, ring = 32;
  struct rp_sample_opts so = {.seed = 1};
  int json = 0, progress = isatty(2), c, st, sampled = 0, samp_opt = 0;
  int jobs = 0;
  optind = 1;
  while ((c = cli_getopt(a->cmd, argc, argv, "hj:", longopts)) != -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    switch (c) {
      case 'j':
        if ((st = an_jobs_arg(a->cmd, optarg, &jobs)) >= 0) return st;
        break;
      case 't':
        if ((st = an_count_arg(a->cmd, "--top", optarg, &top)) >= 0) return st;
        break;
      case 's':
        if ((st = an_count_arg(a->cmd, "--sample", optarg, &so.period)) >= 0)
          return st;
        sampled = samp_opt = 1;
        break;
      case 'd':
        if ((st = an_count_arg(a->cmd, "--random-delta", optarg, &so.delta)) >=
            0)
          return st;
        samp_opt = 1;
        break;
      case 'S':
        if ((st = an_count_arg(a->cmd, "--seed", optarg, &so.seed)) >= 0)
          return st;
        samp_opt = 1;
        break;
      case 'r':
        if ((st = an_count_arg(a->cmd, "--ring", optarg, &ring)) >= 0) return st;
        samp_opt = 1;
        break;
      case 'h':
        a->usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  if (samp_opt && !a->sampling)
    return cli_usage_error(a->cmd, "--sample, --random-delta, --seed and "
                           "--ring are options of analyze edges");
  if (samp_opt && !sampled)
    return cli_usage_error(a->cmd, "--random-delta, --seed and --ring go "
                           "with --sample N");
  if (sampled && (!so.period || so.delta > so.period || !ring ||
                  ring > RP_RING_MAX))
    return cli_usage_error(a->cmd, "--sample takes a period of at least 1, "
                           "--random-delta at most the period, --ring 1 to "
                           "%d",
                           RP_RING_MAX);
  if (sampled && jobs)
    return cli_usage_error(a->cmd, "--sample follows each thread's taken "
                           "branches from the start of the history: not "
                           "with -j");
  so.ring = (u32)ring;
  char path[4096];
  if ((st = trace_arg(a->cmd, argc, argv, path, sizeof path)) >= 0) return st;
  rp_replay *rp = NULL;
  rp_profile *p = NULL;
  int status = -1, rc = 0;
  if (jobs) {
    status = table_pieces(a, path, jobs, progress, &p);
    if (status == 1 || status == 2 || status == CLI_DAMAGED) return status;
  }
  if (status == -1) {
    if ((st = an_open_trace(path, 0, progress, &rp))) return st;
    struct rp_stop stop;
    rc = sampled ? rp_edges_sampled_run(rp, &so, &p, &stop)
                 : a->run(rp, &p, &stop);
    if (progress) fputc('\n', stderr);
    if (rc < 0) {
      rp_close(rp);
      return cli_error("%s of %s failed: %s", a->what, path, rw_strerror(rc));
    }
    status = an_run_status(rp, &stop);
  }
  if (!json && a->totals) a->totals(p);
  rc = a->print(p, stdout, (size_t)top, json);
  if (rc == 0 && sampled) rc = rp_profile_sampled(p, stdout, (size_t)top, json);
  if (rc < 0 && rc != RW_ERR(EPIPE) && !status)
    status = cli_error("writing the list: %s", rw_strerror(rc));
  rp_profile_free(p);
  rp_close(rp);
  return status;
}

static void edges_totals(const rp_profile *p) {
  u64 n;
  size_t sites;
  rp_edges_totals(p, &n, &sites);
  printf("%llu branches executed at %zu sites\n", (unsigned long long)n,
         sites);
}

static const struct table_analysis edges_analysis = {
    "analyze edges", "edges",          edges_usage, rp_edges_run,
    edges_totals,    rp_profile_edges, 1,           0};

static void branches_usage(FILE *out) {
  fputs("usage: rewind analyze branches [options] [TRACE]\n"
        "\n"
        "Replay TRACE to a position and show a thread's last taken branches\n"
        "before it, oldest first: kind (cond, jmp, indirect, call, ret),\n"
        "where from and where to, as a last-branch record would hold them.\n"
        "Without --at, at the last position where a thread still runs (the\n"
        "instruction before the program ended or crashed).\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --at N               at global instruction N (as rewind replay -g N\n"
        "                       and monitor goto N)\n"
        "  -t, --thread TID     thread TID (default: the one running there)\n"
        "  -n, --count N        the last N taken branches (default 32; 1 to\n"
        "                       4096)\n"
        "  --json               one JSON object per branch, one per line\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -h, --help           show this help\n",
        out);
}

static int branches(int argc, char **argv) {
  static const struct option longopts[] = {
      {"at", required_argument, 0, 'a'},
      {"thread", required_argument, 0, 't'},
      {"count", required_argument, 0, 'n'},
      {"json", no_argument, 0, 'J'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *cmd = "analyze branches";
  u64 at = 0, tid = 0, count = 32;
  int json = 0, progress = isatty(2), has_at = 0, c, st;
  optind = 1;
  while ((c = cli_getopt(cmd, argc, argv, "t:n:h", longopts)) != -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    switch (c) {
      case 'a':
        if ((st = an_count_arg(cmd, "--at", optarg, &at)) >= 0) return st;
        has_at = 1;
        break;
      case 't':
        if ((st = an_tid_arg(cmd, optarg, &tid)) >= 0) return st;
        break;
      case 'n':
        if ((st = an_count_arg(cmd, "--count", optarg, &count)) >= 0) return st;
        if (!count || count > RP_RING_MAX)
          return cli_usage_error(cmd, "--count takes 1 to %d", RP_RING_MAX);
        break;
      case 'h':
        branches_usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  char path[4096];
  if ((st = trace_arg(cmd, argc, argv, path, sizeof path)) >= 0) return st;
  rp_replay *rp;
  if ((st = an_open_trace(path, 0, progress, &rp))) return st;
  struct rp_stop stop;
  int rc = 0;
  if (has_at) {
    rc = rp_seek(rp, at, &stop);
  } else {
    /* The end, then one back: at the end the threads are gone. */
    rc = rp_run(rp, ~0ull, &stop);
    if (rc == 0 && stop.reason == RP_STOP_END && rp_icount(rp))
      rc = rp_seek(rp, rp_icount(rp) - 1, &stop);
  }
  if (progress) fputc('\n', stderr);
  int status = 0;
  if (rc < 0) {
    status = cli_error("replay of %s failed: %s", path, rw_strerror(rc));
  } else if ((status = an_run_status(rp, &stop)) != 0) {
    /* said why */
  } else if (has_at && rp_icount(rp) < at) {
    status = cli_error("the history of %s ends at instruction %llu, before "
                       "%llu", path, (unsigned long long)rp_icount(rp),
                       (unsigned long long)at);
  } else {
    char *text = NULL;
    rc = json ? rp_branches_json(rp, (u32)tid, (size_t)count, NULL, NULL,
                                 &text)
              : rp_branches_text(rp, (u32)tid, (size_t)count, NULL, NULL,
                                 &text);
    if (rc == RW_ENOTFOUND)
      status = cli_error("no thread %s at instruction %llu of %s%s",
                         tid ? "with that id runs" : "runs",
                         (unsigned long long)rp_icount(rp), path,
                         has_at ? "" : "; try --at N");
    else if (rc < 0)
      status = cli_error("branches of %s failed: %s", path, rw_strerror(rc));
    else
      fputs(text, stdout);
    free(text);
  }
  if (fflush(stdout) != 0 && errno != EPIPE && !status)
    status = cli_error("writing the list: %s", strerror(errno));
  rp_close(rp);
  return status;
}

static void rep_usage(FILE *out) {
  fputs("usage: rewind analyze rep [options] [TRACE]\n"
        "\n"
        "Replay TRACE and list every rep-prefixed string instruction (rep\n"
        "movs, rep stos, rep lods, repe/repne scas and cmps) that ran, in\n"
        "every thread: its executions, the iterations they asked for (rcx at\n"
        "the first iteration) and did, the fewest, most and mean per\n"
        "execution, and how many ended early: by their condition (repe,\n"
        "repne), in a fault, or at a signal delivered between two\n"
        "iterations. Most iterations first.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --top N              show the N instructions with the most\n"
        "                       iterations (default 25; 0: all)\n"
        "  --json               one JSON object per instruction, one per line\n"
        "  -j, --jobs N         analyse the pieces between the trace's\n"
        "                       keyframes (rewind record --keyframes) N at a\n"
        "                       time, each in a process of its own, and add\n"
        "                       them up: the same result, sooner on N cores\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -h, --help           show this help\n",
        out);
}

static const struct table_analysis rep_analysis = {
    "analyze rep", "rep instructions", rep_usage, rp_reps_run, NULL,
    rp_profile_reps, 0,             1};

static void counts_usage(FILE *out) {
  fputs("usage: rewind analyze counts [options] [TRACE]\n"
        "\n"
        "Replay TRACE and count exactly how often each instruction ran (a\n"
        "rep-prefixed string instruction once per execution, whatever its\n"
        "iterations), in every thread or one. Without a selection: the\n"
        "totals by kind and the instructions that ran most. With\n"
        "--function: every instruction of that function in address order\n"
        "with its count and disassembly, like an annotated listing but\n"
        "exact. With --lines: every instruction of those source lines that\n"
        "ran, in address order. A selection also says how often its code\n"
        "was entered (an instruction of it run after one outside it: a\n"
        "call, a jump, a return into it from a callee). Each instruction\n"
        "is shown with its source line when its file has DWARF line tables\n"
        "(built with -g), or its separate debug file is installed under\n"
        "/usr/lib/debug/.build-id on this machine.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --function NAME      one function (as analyze profile names it)\n"
        "  --object FILE        one file's code (its base name: libc.so.6)\n"
        "  --range START-END    addresses START to END (END excluded), or\n"
        "                       START+LENGTH\n"
        "  --lines FILE:N[-M]   the code of source lines N to M of FILE (a\n"
        "                       path or its last components: counts.c,\n"
        "                       src/counts.c), inlined copies included\n"
        "  --type KIND          only instructions of KIND: branch, call,\n"
        "                       ret, rep, memory, or opcode:VALUE[/MASK]\n"
        "                       (the opcode after 0f, 0f 38 or 0f 3a, as\n"
        "                       0x0faf; MASK default 0xffffffff); may be\n"
        "                       given several times (any of them counts)\n"
        "  --thread TID         thread TID's executions alone\n"
        "  --top N              without --function: the N instructions run\n"
        "                       most (default 25; 0: all)\n"
        "  --json               one JSON object per line: the summary, then\n"
        "                       one per instruction\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -j, --jobs N         count in the pieces between the trace's\n"
        "                       keyframes, N at a time, and add them up\n"
        "  -h, --help           show this help\n",
        out);
}

/* --type ARG into O. Returns -1, or prints why not and returns 2. */
static int kind_arg(const char *arg, struct rp_count_opts *o) {
  static const char *const names[] = {"branch", "call", "ret", "rep",
                                      "memory"};
  for (u32 k = 0; k < 5; k++)
    if (!strcmp(arg, names[k])) {
      o->kinds |= 1u << k;
      return -1;
    }
  if (!strncmp(arg, "opcode:", 7)) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg + 7, &end, 0), m = 0xffffffffull;
    if (!errno && end != arg + 7 && *end == '/') {
      const char *ms = end + 1;
      m = strtoull(ms, &end, 0);
      if (end == ms) end = (char *)ms - 1; /* reported below */
    }
    if (errno || end == arg + 7 || *end || v > 0xffffffffull ||
        m > 0xffffffffull || (v & ~m))
      return cli_usage_error("analyze counts", "--type opcode:VALUE[/MASK] "
                             "takes numbers below 2^32, VALUE within MASK, "
                             "not '%s'", arg + 7);
    if (o->opcode)
      return cli_usage_error("analyze counts", "one --type opcode:... at a "
                             "time");
    o->opcode = 1;
    o->opval = (u32)v;
    o->opmask = (u32)m;
    return -1;
  }
  return cli_usage_error("analyze counts", "unknown --type '%s' (there are: "
                         "branch, call, ret, rep, memory, opcode:VALUE[/MASK])",
                         arg);
}

/* --range ARG (START-END or START+LENGTH) into O. */
static int range_arg(const char *arg, struct rp_count_opts *o) {
  char *end;
  errno = 0;
  unsigned long long a = strtoull(arg, &end, 0), b = 0;
  int plus = *end == '+';
  if (!errno && end != arg && (plus || *end == '-')) {
    const char *s = end + 1;
    b = strtoull(s, &end, 0);
    if (end == s) end = (char *)s - 1;
  }
  if (errno || end == arg || *end || arg[0] == '-' ||
      (plus ? !b || a + b < a : b <= a))
    return cli_usage_error("analyze counts", "--range takes START-END (END "
                           "above START) or START+LENGTH, not '%s'", arg);
  o->lo = a;
  o->hi = plus ? a + b : b;
  return -1;
}

/* --lines ARG (FILE:N or FILE:N-M) into O (the last --lines wins). */
static int lines_arg(const char *arg, struct rp_count_opts *o) {
  static char file[4096];
  if (rp_lines_parse(arg, file, sizeof file, &o->line_lo, &o->line_hi) < 0)
    return cli_usage_error("analyze counts", "--lines takes FILE:N or "
                           "FILE:N-M (lines from 1, M not below N), not "
                           "'%s'", arg);
  o->src_file = file;
  return -1;
}

/* analyze counts -j: the options, and the total of the pieces added so
 * far. */
struct counts_job {
  struct rp_count_opts o;
  rp_counts *total;
};

static int counts_piece(rp_replay *rp, FILE *out, struct rp_stop *stop,
                        void *ctx) {
  const struct counts_job *j = ctx;
  rp_counts *k;
  RW_FORWARD(rp_counts_run(rp, &j->o, &k, stop));
  int rc = rp_counts_save(k, out);
  rp_counts_free(k);
  return rc;
}

static int counts_add(FILE *in, void *ctx) {
  struct counts_job *j = ctx;
  return rp_counts_add(&j->total, &j->o, in);
}

/* The counts of O in the pieces of the trace at PATH, JOBS at a time, in
 * *OUT (NULL when the trace has no keyframes: count it whole). Returns
 * the exit status. */
static int counts_pieces(const char *path, const struct rp_count_opts *o,
                         int jobs, int progress, rp_counts **out) {
  struct counts_job j = {*o, NULL};
  j.o.piece = 1;
  struct cli_piece_job job = {"counts", counts_piece, counts_add, &j};
  *out = NULL;
  fflush(stdout); /* the pieces are forks */
  int st = cli_analyze_segments(path, jobs, progress, &job);
  if (st == -1) {
    rp_counts_free(j.total);
    return 0;
  }
  *out = j.total; /* NULL too when the first piece went wrong */
  return st;
}

static int counts(int argc, char **argv) {
  static const struct option longopts[] = {
      {"jobs", required_argument, 0, 'j'},
      {"function", required_argument, 0, 'f'},
      {"object", required_argument, 0, 'o'},
      {"range", required_argument, 0, 'r'},
      {"lines", required_argument, 0, 'l'},
      {"type", required_argument, 0, 'k'},
      {"thread", required_argument, 0, 'T'},
      {"top", required_argument, 0, 't'},
      {"json", no_argument, 0, 'J'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *cmd = "analyze counts";
  struct rp_count_opts o = {0};
  u64 top = 25, tid = 0;
  int json = 0, progress = isatty(2), c, st, jobs = 0;
  optind = 1;
  while ((c = cli_getopt(cmd, argc, argv, "hj:", longopts)) != -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    switch (c) {
      case 'j':
        if ((st = an_jobs_arg(cmd, optarg, &jobs)) >= 0) return st;
        break;
      case 'f':
        o.function = optarg;
        break;
      case 'o':
        o.object = optarg;
        break;
      case 'r':
        if ((st = range_arg(optarg, &o)) >= 0) return st;
        break;
      case 'l':
        if ((st = lines_arg(optarg, &o)) >= 0) return st;
        break;
      case 'k':
        if ((st = kind_arg(optarg, &o)) >= 0) return st;
        break;
      case 'T':
        if ((st = an_tid_arg(cmd, optarg, &tid)) >= 0) return st;
        o.tid = (u32)tid;
        break;
      case 't':
        if ((st = an_count_arg(cmd, "--top", optarg, &top)) >= 0) return st;
        break;
      case 'h':
        counts_usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  char path[4096];
  if ((st = trace_arg(cmd, argc, argv, path, sizeof path)) >= 0) return st;
  if (o.tid && an_thread_check(path, o.tid)) return 1;
  rp_replay *rp = NULL;
  rp_counts *k = NULL;
  int status = 0, rc;
  if (jobs) {
    status = counts_pieces(path, &o, jobs, progress, &k);
    if (!k && status) return status;
  }
  if (!k) { /* whole: no -j, or a trace without keyframes */
    if ((st = an_open_trace(path, 0, progress, &rp))) return st;
    struct rp_stop stop;
    rc = rp_counts_run(rp, &o, &k, &stop);
    if (progress) fputc('\n', stderr);
    if (rc < 0) {
      rp_close(rp);
      return an_failed("counts", path, rc, o.tid);
    }
    status = an_run_status(rp, &stop);
  }
  u64 sel, all, unplaced;
  rp_counts_totals(k, &sel, &all, &unplaced);
  if (o.src_file && !rp_counts_src_seen(k)) {
    status = cli_error("no code that ran comes from a source file '%s' (or "
                       "its program has no line tables: build it with -g)",
                       o.src_file);
    rp_counts_free(k);
    if (rp) rp_close(rp);
    return status;
  }
  if (!json && !sel && (o.function || o.object || o.hi > o.lo || o.src_file))
    fprintf(stderr, "rewind: no instruction of the selection ran (names "
                    "as analyze profile shows them)\n");
  rc = rp_counts_write(k, stdout, (size_t)top, json);
  if (rc < 0 && rc != RW_ERR(EPIPE) && !status)
    status = cli_error("writing the counts: %s", rw_strerror(rc));
  rp_counts_free(k);
  if (rp) rp_close(rp);
  return status;
}

static void marks_usage(FILE *out) {
  fputs("usage: rewind analyze marks [options] [TRACE]\n"
        "\n"
        "Replay TRACE and follow every execution of the marked instructions:\n"
        "how often each ran, the call paths it ran on (with stack, or every\n"
        "N executions with every=N), and counting windows: the instructions\n"
        "a thread runs from a start mark to the next end mark, both\n"
        "included. A program is studied without changing it.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --mark SPEC          a mark: WHERE[:FLAG,...], where WHERE is\n"
        "                       FUNCTION[+OFF] (the instruction at OFF; its\n"
        "                       entry by default), FILE@VADDR[+LEN] (the\n"
        "                       file's addresses, as nm shows them) or\n"
        "                       0xADDR[+LEN], and FLAG count (the default),\n"
        "                       stack, every=N, start or end; may be repeated\n"
        "  --marks FILE         marks from FILE, one per line:\n"
        "                       FILE VADDR LEN [FLAGS] (FILE - for an\n"
        "                       address; # starts a comment)\n"
        "  --thread TID         thread TID's executions alone\n"
        "  -j, --jobs N         analyse the pieces between the trace's\n"
        "                       keyframes (rewind record --keyframes) N at a\n"
        "                       time, each in a process of its own, and add\n"
        "                       them up: the same result, sooner on N cores\n"
        "                       (not with every=N)\n"
        "  --json               one JSON object per mark and line, then one\n"
        "                       for the counting windows\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -h, --help           show this help\n",
        out);
}

/* Appends a mark to *V (*N of them). Returns 0 or RW_ENOMEM. */
static int mark_push(struct rp_mark **v, size_t *n, const struct rp_mark *m) {
  struct rp_mark *nv = realloc(*v, (*n + 1) * sizeof **v);
  if (!nv) return RW_ENOMEM;
  *v = nv;
  nv[(*n)++] = *m;
  return 0;
}

/* The marks of FILE onto *V. Returns -1, or prints why not and returns the
 * exit status. */
static int marks_file(const char *path, struct rp_mark **v, size_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return cli_error("cannot read %s: %s", path, strerror(errno));
  char line[1024], err[300];
  int no = 0, st = -1;
  while (st < 0 && fgets(line, sizeof line, f)) {
    struct rp_mark m;
    no++;
    line[strcspn(line, "\n")] = 0;
    int rc = rp_mark_parse_line(line, &m, err, sizeof err);
    if (rc == RW_EINVAL)
      st = cli_usage_error("analyze marks", "%s:%d: %s", path, no, err);
    else if (rc < 0 || (m.text && mark_push(v, n, &m) < 0))
      st = cli_error("marks: %s", rw_strerror(RW_ENOMEM));
  }
  if (st < 0 && ferror(f)) st = cli_error("cannot read %s", path);
  fclose(f);
  return st;
}

static int marks(int argc, char **argv) {
  static const struct option longopts[] = {
      {"jobs", required_argument, 0, 'j'},
      {"mark", required_argument, 0, 'm'},
      {"marks", required_argument, 0, 'f'},
      {"thread", required_argument, 0, 'T'},
      {"json", no_argument, 0, 'J'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *cmd = "analyze marks";
  struct rp_count_opts o = {0};
  struct rp_mark *v = NULL;
  size_t n = 0;
  u64 tid = 0;
  char err[300];
  int json = 0, progress = isatty(2), c, st = -1, jobs = 0;
  optind = 1;
  while (st < 0 && (c = cli_getopt(cmd, argc, argv, "hj:", longopts)) != -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    struct rp_mark m;
    int rc;
    switch (c) {
      case 'j':
        st = an_jobs_arg(cmd, optarg, &jobs);
        break;
      case 'm':
        rc = rp_mark_parse(optarg, &m, err, sizeof err);
        if (rc == RW_EINVAL) st = cli_usage_error(cmd, "%s", err);
        else if (rc < 0 || mark_push(&v, &n, &m) < 0)
          st = cli_error("marks: %s", rw_strerror(RW_ENOMEM));
        break;
      case 'f':
        st = marks_file(optarg, &v, &n);
        break;
      case 'T':
        st = an_tid_arg(cmd, optarg, &tid);
        o.tid = (u32)tid;
        break;
      case 'h':
        marks_usage(stdout);
        st = 0;
        break;
      default:
        st = 2;
    }
  }
  char path[4096];
  if (st < 0 && !n)
    st = cli_usage_error(cmd, "no marks: give --mark SPEC or --marks FILE");
  for (size_t i = 0; st < 0 && i < n; i++)
    if (v[i].flags & RP_MARK_STOP)
      st = cli_usage_error(cmd, "mark '%s': a stop mark stops gdb (monitor "
                           "mark %s in rewind replay); here marks count",
                           v[i].text, v[i].text);
  /* A piece counts each mark's executions from its own start: which is
   * the Nth of the whole history it cannot know. */
  for (size_t i = 0; st < 0 && jobs && i < n; i++)
    if (v[i].every)
      st = cli_usage_error(cmd, "mark '%s': -j is for marks without "
                           "every=N, which needs every execution from "
                           "the start of the history (stack counts the "
                           "call paths of all of them)", v[i].text);
  if (st < 0) {
    int r = trace_arg(cmd, argc, argv, path, sizeof path);
    if (r >= 0) st = r;
  }
  if (st < 0 && o.tid && an_thread_check(path, o.tid)) st = 1;
  rp_replay *rp = NULL;
  rp_counts *k = NULL;
  o.marks = v;
  o.nmarks = n;
  o.marks_only = 1;
  int pieces_st = 0; /* the pieces' exit status, once written */
  if (st < 0 && jobs) {
    pieces_st = counts_pieces(path, &o, jobs, progress, &k);
    if (!k && pieces_st) st = pieces_st;
  }
  if (st < 0 && !k) { /* whole: no -j, or a trace without keyframes */
    int r = an_open_trace(path, 0, progress, &rp);
    if (r) st = r;
  }
  if (st < 0) {
    struct rp_stop stop;
    int rc = k ? 0 : rp_counts_run(rp, &o, &k, &stop);
    if (progress && rp) fputc('\n', stderr);
    if (rc < 0) st = an_failed("marks", path, rc, o.tid);
    if (rc == 0) {
      st = rp ? an_run_status(rp, &stop) : pieces_st;
      rc = rp_counts_marks(k, stdout, json);
      if (rc < 0 && rc != RW_ERR(EPIPE) && !st)
        st = cli_error("writing the marks: %s", rw_strerror(rc));
      rp_counts_free(k);
    }
  }
  if (rp) rp_close(rp);
  for (size_t i = 0; i < n; i++) free((char *)v[i].text);
  free(v);
  return st < 0 ? 0 : st;
}

/* Whether ARGV (a subcommand's words) asks for -j, which only edges, rep,
 * writes, accesses, counts, marks, profile and calls take: prints why the
 * others do not and returns 2, or returns 0. */
static int one_piece(int argc, char **argv) {
  if (!strcmp(argv[0], "edges") || !strcmp(argv[0], "rep") ||
      !strcmp(argv[0], "writes") || !strcmp(argv[0], "accesses") ||
      !strcmp(argv[0], "counts") || !strcmp(argv[0], "marks") ||
      !strcmp(argv[0], "profile") || !strcmp(argv[0], "calls"))
    return 0;
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
    const char *w = argv[i];
    if (strncmp(w, "-j", 2) && strcmp(w, "--jobs") &&
        strncmp(w, "--jobs=", 7))
      continue;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "analyze %s", argv[0]);
    return cli_usage_error(cmd, "-j is for analyze edges, rep, writes, "
                           "accesses, counts, marks, profile and calls, "
                           "whose results join piece by piece");
  }
  return 0;
}

int cli_cmd_analyze(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    FILE *out = argc < 2 ? stderr : stdout;
    usage(out);
    fputc('\n', out);
    calls_usage(out);
    fputc('\n', out);
    cli_analyze_writes_usage(out);
    fputc('\n', out);
    edges_usage(out);
    fputc('\n', out);
    branches_usage(out);
    fputc('\n', out);
    rep_usage(out);
    fputc('\n', out);
    counts_usage(out);
    fputc('\n', out);
    cli_analyze_accesses_usage(out);
    fputc('\n', out);
    marks_usage(out);
    return argc < 2 ? 2 : 0;
  }
  if (one_piece(argc - 1, argv + 1)) return 2;
  if (!strcmp(argv[1], "profile")) return profile(argc - 1, argv + 1);
  if (!strcmp(argv[1], "calls")) return calls(argc - 1, argv + 1);
  if (!strcmp(argv[1], "writes")) return cli_analyze_writes(argc - 1, argv + 1);
  if (!strcmp(argv[1], "edges"))
    return table_cmd(&edges_analysis, argc - 1, argv + 1);
  if (!strcmp(argv[1], "rep"))
    return table_cmd(&rep_analysis, argc - 1, argv + 1);
  if (!strcmp(argv[1], "branches")) return branches(argc - 1, argv + 1);
  if (!strcmp(argv[1], "counts")) return counts(argc - 1, argv + 1);
  if (!strcmp(argv[1], "accesses")) return cli_analyze_accesses(argc - 1, argv + 1);
  if (!strcmp(argv[1], "marks")) return marks(argc - 1, argv + 1);
  return cli_usage_error("analyze", "unknown analysis '%s' (there are: "
                         "profile, calls, writes, edges, branches, rep, "
                         "counts, accesses, marks)",
                         argv[1]);
}
