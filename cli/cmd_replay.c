/* SPDX-License-Identifier: MIT */
/* `rewind replay`: replays a trace in the emulator. By default it starts
 * gdb attached to the replay (arguments after `--` go to gdb); --listen
 * serves a gdb started elsewhere; --verify runs the whole recording and says
 * whether it was reproduced; --goto N stops at global instruction N and
 * shows where the program is. Only argument parsing and output here; the
 * work is in replayer/ and gdbstub/. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replayer/cpu/cpu.h"
#include "common/rw.h"
#include "format/format.h"
#include "replayer/replayer.h"

const char *cli_digests_text(u64 n, char *buf, size_t cap) {
  buf[0] = 0;
  if (n)
    snprintf(buf, cap, ", memory of %" PRIu64 " other process%s checked as "
             "%s ended", n, n == 1 ? "" : "es", n == 1 ? "it" : "they");
  return buf;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: rewind replay [options] [TRACE] [-- GDB-ARGS...]\n"
          "       rewind replay --listen [HOST:]PORT [options] [TRACE]\n"
          "       rewind replay --verify [options] [TRACE]\n"
          "       rewind replay --print|--backtrace [options] [TRACE]\n"
          "\n"
          "Replay a recording in rewind's x86-64 emulator. The trace alone is\n"
          "enough: the program and its libraries are read from it. TRACE is a\n"
          "file, or a name in the trace directory (rewind ls); without it,\n"
          "the latest recording.\n"
          "\n"
          "With no mode, start gdb (from PATH, or $REWIND_GDB) attached to the\n"
          "replay, stopped at the program's first instruction; debug forwards\n"
          "and backwards (reverse-continue, reverse-step, watch -l ...).\n"
          "Arguments after -- go to gdb, e.g. -- -batch -x script.gdb.\n"
          "\n"
          "  -g, --goto N      start at global instruction N (0 is the first\n"
          "                    instruction) instead of the beginning\n"
          "  -p, --process P   debug (or with --verify, replay up to the end\n"
          "                    of) recorded process P, a pid or the name of\n"
          "                    its program (rewind ps lists them); its\n"
          "                    history begins at its last exec (or its\n"
          "                    creation) and ends when it does. Without -p\n"
          "                    or --goto, gdb debugs the first process, or\n"
          "                    when the recorded command failed, the one\n"
          "                    its failure came from (a note says which)\n"
          "  --tree            gdb sees every recorded process as an\n"
          "                    inferior (info inferiors, inferior N), each\n"
          "                    with its threads, program, breakpoints and\n"
          "                    watchpoints; one history moves them all\n"
          "  --listen ADDR     serve gdb over TCP on ADDR (PORT, :PORT or\n"
          "                    HOST:PORT; 127.0.0.1 unless a host is given);\n"
          "                    in gdb: target remote ADDR. After a client\n"
          "                    disconnects, the next one can connect; a host\n"
          "                    that is not loopback needs --allow-remote\n"
          "  --idle-timeout S  with --listen, close a connection whose gdb\n"
          "                    sends nothing for S seconds (default 1800;\n"
          "                    0: never)\n"
          "  --verify          replay the whole recording and check it at every\n"
          "                    event; exit 0 when it was reproduced, 4 with a\n"
          "                    report at the first divergence, 3 when the\n"
          "                    recording was cut off (verified up to the cut),\n"
          "                    5 when the trace is damaged (verified up to the\n"
          "                    damage), 1 when it cannot be replayed\n"
          "  -j, --jobs N      with --verify, verify the segments of the\n"
          "                    recording between its keyframes (rewind record\n"
          "                    --keyframes) in pieces, N at a time, each\n"
          "                    segment checked against the keyframe it ends at\n"
          "  --backtrace       as --print, and the thread's call stack twice:\n"
          "                    from its calls and returns (no unwind tables\n"
          "                    needed; replays from the start to get it),\n"
          "                    and unwound by libunwind from the unwind\n"
          "                    tables, as a debugger would\n"
          "  --print           show registers and code at the start (or at\n"
          "                    --goto N) and exit\n"
          "  --progress        show progress on stderr (default: when stderr is\n"
          "                    a terminal)\n"
          "  --no-progress     do not show progress\n"
          "  -q, --quiet       print only errors, and not the program's\n"
          "                    output (shown in gdb as the replay runs)\n"
          "  --no-jit          interpret every instruction: do not translate\n"
          "                    hot code to host code (slower; the same\n"
          "                    results, instruction for instruction)\n"
          "  -h, --help        show this help\n"
          "\n"
          "Instruction counts count each iteration of a rep-prefixed string\n"
          "instruction as one, as single-stepping does.\n");
}

/* Exit statuses of --verify and --goto (man/rewind-replay.1, EXIT STATUS);
 * 1 is any other error and 2 a usage error, as for every command. */
enum {
  REPLAY_CUT = CLI_CUT,
  REPLAY_DIVERGED = 4,
  REPLAY_DAMAGED = CLI_DAMAGED
};

int cli_trace_warning(struct rp_replay *rp, const char *path) {
  struct trace_info in;
  rp_trace_info(rp, &in);
  if (in.damaged && !in.torn)
    fprintf(stderr, "rewind: warning: %s is damaged at offset %llu: %s; "
            "the replay stops where the damage begins (rewind info "
            "--check tells more)\n",
            path, (unsigned long long)in.damage_offset, in.damage);
  else if (!in.complete)
    fprintf(stderr, "rewind: note: %s was not closed (the recorder did not "
            "finish); its history ends where the trace does\n", path);
  return in.damaged && !in.torn;
}

static void print_regs(rp_replay *rp) {
  struct rw_regs r;
  if (rp_get_regs(rp, 0, &r) < 0) return;
  for (int i = 0; i < RW_NGPR; i++)
    printf("%-4s 0x%016" PRIx64 "%s", rw_gpr_name((unsigned)i), r.gpr[i],
           i % 4 == 3 ? "\n" : "  ");
  printf("rip  0x%016" PRIx64 "  eflags 0x%08" PRIx64 "  fs_base 0x%" PRIx64
         "  gs_base 0x%" PRIx64 "\n",
         r.rip, r.rflags, r.fs_base, r.gs_base);
}

static const char *end_text(const struct rp_stop *s, char *buf, size_t cap) {
  switch (s->end) {
    case RP_END_EXIT:
      snprintf(buf, cap, "the program exited with status %d", s->status);
      break;
    case RP_END_SIGNAL:
      snprintf(buf, cap, "the program was killed by signal %d (%s)",
               s->status, strsignal(s->status));
      break;
    default:
      snprintf(buf, cap, "%s", s->msg[0] ? s->msg : "the trace ends here");
      break;
  }
  return buf;
}

/* What the translator did, after a verified replay. */
static void print_jit(void) {
  struct cpu_jit_stats j;
  cpu_jit_totals(&j);
  if (!cpu_jit()) {
    printf("translator off (--no-jit): every instruction interpreted\n");
    return;
  }
  printf("translator: %" PRIu64 " blocks (%" PRIu64
         " instructions) translated to host code; code cache %.1f of %.0f "
         "MiB at most%s\n",
         j.blocks, j.insns, (double)j.cache_used / (1 << 20),
         (double)j.cache_size / (1 << 20),
         j.flushes ? " (it filled and was emptied)" : "");
}

int cli_cmd_replay(int argc, char **argv) {
  static const struct option longopts[] = {
      {"verify", no_argument, 0, 'v'},     {"goto", required_argument, 0, 'g'},
      {"listen", required_argument, 0, 'l'}, {"print", no_argument, 0, 'r'},
      {"progress", no_argument, 0, 'G'},   {"no-progress", no_argument, 0, 'P'},
      {"process", required_argument, 0, 'p'},
      {"quiet", no_argument, 0, 'q'},      {"help", no_argument, 0, 'h'},
      {"allow-remote", no_argument, 0, 'R'},
      {"idle-timeout", required_argument, 0, 'I'},
      {"tree", no_argument, 0, 'T'},
      {"backtrace", no_argument, 0, 'B'},
      {"no-jit", no_argument, 0, 'J'},
      {"jobs", required_argument, 0, 'j'},
      {0, 0, 0, 0}};
  int tree = 0, verify = 0, has_goto = 0, print = 0, quiet = 0, progress = isatty(2), c;
  int backtrace = 0, jobs = 0;
  int remote = 0, idle = CLI_IDLE_DEFAULT;
  u64 target = 0;
  const char *listen_addr = NULL, *proc = NULL;
  /* Everything after "--" is gdb's; options and TRACE may come in any
   * order before it. */
  int nopt = argc;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--")) {
      nopt = i;
      break;
    }
  optind = 1;
  while ((c = cli_getopt("replay", nopt, argv, "g:p:qhj:", longopts)) !=
         -1) {
    switch (c) {
      case 'j': {
        char *end;
        long v = strtol(optarg, &end, 10);
        if (!*optarg || *end || v < 1 || v > 1024)
          return cli_usage_error("replay", "-j wants a number of jobs from "
                                 "1 to 1024, not '%s'", optarg);
        jobs = (int)v;
        break;
      }
      case 'v':
        verify = 1;
        break;
      case 'g': {
        char *end;
        target = strtoull(optarg, &end, 0);
        if (!*optarg || *end || optarg[0] == '-')
          return cli_usage_error("replay", "--goto takes an instruction "
                                 "count, not '%s'", optarg);
        has_goto = 1;
        break;
      }
      case 'l':
        listen_addr = optarg;
        break;
      case 'B': /* --print with the call stack */
        backtrace = 1;
        print = 1;
        break;
      case 'r':
        print = 1;
        break;
      case 'R':
        remote = 1;
        break;
      case 'I':
        idle = cli_idle_arg("replay", optarg);
        if (idle < 0) return 2;
        break;
      case 'G':
        progress = 1;
        break;
      case 'p':
        proc = optarg;
        break;
      case 'J':
        cpu_set_jit(0);
        break;
      case 'T':
        tree = 1;
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
  if (optind + 1 < nopt)
    return cli_usage_error("replay", "more than one trace given ('%s' and "
                           "'%s'); gdb's arguments go after '--'",
                           argv[optind], argv[optind + 1]);
  char path[4096];
  if (cli_trace_path(optind < nopt ? argv[optind] : NULL, path, sizeof path))
    return 1;
  int gdb_mode = !verify && !print && !listen_addr;
  if (verify + print + !!listen_addr > 1)
    return cli_usage_error("replay", "give only one of --verify, --print "
                                     "and --listen");
  if (tree && (verify || print))
    return cli_usage_error("replay", "--tree is for gdb; --verify and "
                                     "--print replay every process anyway");
  if (tree && proc)
    return cli_usage_error("replay", "--tree shows every process; -p "
                                     "debugs one: give only one of them");
  if (jobs && !verify)
    return cli_usage_error("replay", "-j is for --verify: it verifies the "
                                     "pieces between keyframes at once");
  if (jobs && proc)
    return cli_usage_error("replay", "-j verifies the whole recording; -p "
                                     "does not go with it");
  if (verify && has_goto)
    return cli_usage_error("replay", "--verify replays the whole recording; "
                                     "--goto does not go with it");
  if (!gdb_mode && nopt < argc)
    return cli_usage_error("replay", "arguments after '--' are for gdb, "
                                     "and this mode starts no gdb");
  struct cli_start start = {has_goto ? target : ~0ull, proc, tree};
  char picked[16];
  if (!verify && !print)
    cli_start_default(path, &start, picked, sizeof picked, quiet, 1);
  if (gdb_mode)
    return cli_replay_gdb(path, &start, quiet,
                          nopt < argc ? argc - nopt - 1 : 0, argv + nopt + 1);
  if (listen_addr)
    return cli_serve_listen(path, listen_addr, quiet, 0, &start, remote,
                            idle);
  if (jobs) {
    int st = cli_verify_segments(path, jobs, quiet);
    if (st >= 0) return st;
  }
  struct rp_opts opts = {0};
  opts.progress = progress && !quiet;
  opts.whole = 1; /* every event is checked, and --print's positions are
                     the recording's */
  rp_replay *rp;
  int rc = cli_replay_open(path, &opts, &rp);
  if (rc) return rc;
  int damaged = quiet ? 0 : cli_trace_warning(rp, path);
  if (quiet) {
    struct trace_info in;
    rp_trace_info(rp, &in);
    damaged = in.damaged && !in.torn;
  }
  struct rp_stop stop;
  u64 t0 = rw_now_ns();
  if (proc) {
    int st = cli_goto_process(rp, path, proc, quiet);
    if (st) {
      rp_close(rp);
      return st;
    }
  }
  /* With -p, --print shows the process's beginning unless --goto. */
  if (print)
    rc = rp_seek(rp, has_goto || !proc ? target : rp_icount(rp), &stop);
  else
    rc = rp_run(rp, ~0ull, &stop);
  double secs = (double)(rw_now_ns() - t0) / 1e9;
  if (opts.progress) fputc('\n', stderr);
  int status = 0;
  char buf[600];
  if (rc < 0) {
    status = cli_error("replay of %s failed: %s", path, rw_strerror(rc));
  } else if (stop.reason == RP_STOP_DIVERGED ||
             stop.reason == RP_STOP_FAILED) {
    fprintf(stderr, "rewind: ");
    if (rp_report(rp, stderr) < 0) fprintf(stderr, "%s\n", stop.msg);
    status = stop.reason == RP_STOP_DIVERGED ? REPLAY_DIVERGED
             : stop.damaged                   ? REPLAY_DAMAGED
                                              : 1;
  } else if (print) {
    if (stop.reason == RP_STOP_END && rp_icount(rp) < target)
      printf("the history ends at instruction %" PRIu64 " (%s); stopped "
             "there\n",
             rp_icount(rp), end_text(&stop, buf, sizeof buf));
    struct rp_stats rs;
    rp_get_stats(rp, &rs);
    if (rs.index_loaded && !quiet)
      fprintf(stderr, "rewind: started from the trace's index (%s.idx): "
              "%" PRIu64 " instructions replayed to get here\n", path,
              rs.instructions);
    printf("at instruction %" PRIu64 ", event %" PRIu64 ", thread %u\n",
           rp_icount(rp), rp_event(rp), rp_running_tid(rp));
    print_regs(rp);
    struct rw_regs r;
    if (rp_get_regs(rp, 0, &r) == 0) rp_disasm(rp, stdout, r.rip, 8, r.rip);
    char *text = NULL;
    if (backtrace) {
      /* Unwound first: the shadow stack's re-run moves the replay away
       * and back. */
      char *unwound = NULL;
      int urc = rp_unwind_text(rp, 0, &unwound);
      rc = rp_shadow_text(rp, 0, NULL, NULL, &text);
      if (rc == 0)
        printf("call stack of %s", text);
      else
        status = cli_error("no call stack: %s", rc == RW_ENOTFOUND
                                                    ? "no thread runs here"
                                                    : rw_strerror(rc));
      if (urc == 0)
        printf("unwound by libunwind from the unwind tables:\n%s", unwound);
      else if (rc == 0)
        status = cli_error("libunwind: %s", rw_strerror(urc));
      free(unwound);
      free(text);
    }
  } else if (!stop.finished) {
    char why[160];
    if (rp_meta(rp, TRACE_META_STOPPED, why, sizeof why) < 0)
      snprintf(why, sizeof why, "the recorder was killed?");
    struct rp_stats ks;
    rp_get_stats(rp, &ks); /* a keyframe's records are not events */
    if (!quiet)
      printf("replay verified up to event %" PRIu64 " (%" PRIu64
             " instructions); the recording was cut off there (%s): %s\n",
             stop.event - ks.keyframe_events, rp_icount(rp), why,
             end_text(&stop, buf, sizeof buf));
    status = REPLAY_CUT;
  } else if (!quiet) {
    struct rp_stats st;
    rp_get_stats(rp, &st);
    char dg[80];
    printf("replay verified: %" PRIu64 " instructions, %" PRIu64
           " events, %" PRIu64 " register checks, %" PRIu64
           " output checks%s%s, %.2f s (%.1f MIPS); %s\n",
           rp_icount(rp), st.events - st.keyframe_events, st.checks,
           st.outputs, cli_digests_text(st.digests, dg, sizeof dg),
           st.end_checked ? ", memory at the end checked" : "", secs,
           secs > 0 ? (double)st.instructions / secs / 1e6 : 0.0,
           end_text(&stop, buf, sizeof buf));
    print_jit();
  }
  if ((status == 0 || status == REPLAY_CUT) && !print && !damaged) {
    /* Files the replay never read are part of the trace too. */
    struct rw_diag bd = {0};
    if (rp_check_blobs(rp, &bd) < 0) {
      fprintf(stderr, "rewind: %s is damaged at offset %llu: %s\n", path,
              (unsigned long long)bd.offset, bd.msg);
      status = REPLAY_DAMAGED;
    }
  }
  if (status == 0 && damaged && !print) {
    /* Every record was there, but the file is not whole (its index, a
     * blob the replay never read): not a trace to trust as it is. */
    fprintf(stderr, "rewind: %s is damaged, though the replay did not "
            "need the damaged part\n", path);
    status = REPLAY_DAMAGED;
  } else if (status == REPLAY_CUT && damaged) {
    status = REPLAY_DAMAGED;
  }
  rp_close(rp);
  return status;
}
