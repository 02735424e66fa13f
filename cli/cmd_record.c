/* SPDX-License-Identifier: MIT */
/* `rewind record [options] [--] PROG [ARGS...]`: parses the arguments and
 * calls the recorder (recorder/recorder.h), which does the work and prints
 * its own messages. Exits with PROG's exit status. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "recorder/recorder.h"

static void usage(FILE *out) {
  fputs(
      "usage: rewind record [-o FILE] [--force] [--quiet] [--timeslice MS]\n"
      "                     [--no-follow] [--no-syscall-buffer]\n"
      "                     [--duration SECONDS] [--keyframes SECONDS]\n"
      "                     [--ring SIZE] [--] PROG [ARGS...]\n"
      "       rewind record -p PID [-p PID...] [-o FILE] [--duration "
      "SECONDS] [...]\n"
      "\n"
      "Run PROG with ARGS as the shell would, record it into a trace file and\n"
      "exit with PROG's exit status (128+N when PROG dies of signal N).\n"
      "With -p, record the running process PID instead (or several, each\n"
      "with its -p), from now until Ctrl-C, --duration or their end; then\n"
      "rewind lets them go on as they were.\n"
      "\n"
      "  -p, --pid PID      attach to process PID (every thread of it, and\n"
      "                     the processes it starts from now on) instead of\n"
      "                     starting a program; the history begins here.\n"
      "                     Give it again to record more processes\n"
      "                     together.\n"
      "                     Their syscalls all stop the recorder (no\n"
      "                     syscall buffer: its filter could not be taken\n"
      "                     out again)\n"
      "  --duration SECONDS end the recording after SECONDS (1 to 604800):\n"
      "                     -p lets the process go on; PROG is killed\n"
      "  --ring SIZE        keep only the last SIZE of history (bytes, or\n"
      "                     with K, M or G; at least 1M): the trace is\n"
      "                     written as segments in FILE.ring/, each but\n"
      "                     the first beginning at a keyframe (one is\n"
      "                     written whenever a segment holds SIZE/4), the\n"
      "                     oldest deleted; at the end they become FILE.\n"
      "                     After a crash, rewind join FILE.ring\n"
      "  --keyframes SECONDS\n"
      "                     write a full keyframe (every thread and every\n"
      "                     byte of memory) every SECONDS (0.01 to 86400,\n"
      "                     0 for none; default 30, or $REWIND_KEYFRAMES):\n"
      "                     rewind replay --verify -j N checks the pieces\n"
      "                     between them in parallel, and a replay can begin\n"
      "                     at one; pages are stored once, and keyframes take\n"
      "                     at most a tenth of the time after their first\n"
      "                     second\n"
      "  -o, --output FILE  write the trace to FILE (default: PROG-N.rwd, the\n"
      "                     first free N, in the trace directory:\n"
      "                     $REWIND_TRACE_DIR, else $XDG_DATA_HOME/rewind,\n"
      "                     else ~/.local/share/rewind)\n"
      "  -f, --force        replace FILE if it exists\n"
      "  -q, --quiet        print nothing but errors\n"
      "  --progress         show events, trace size and time on stderr while\n"
      "                     recording (default: when stderr is a terminal)\n"
      "  --no-progress      do not\n"
      "  --no-follow        record PROG's process alone: the processes it\n"
      "                     forks run unrecorded (default: every process it\n"
      "                     and its children fork is recorded too)\n"
      "  --no-syscall-buffer\n"
      "                     make every syscall stop the recorder (default:\n"
      "                     the vDSO's time functions and glibc's reads,\n"
      "                     writes, opens, stats, closes and other calls\n"
      "                     that cannot wait are logged inside the process,\n"
      "                     without a stop; --syscall-buffer)\n"
      "  --timeslice MS     let a thread run MS milliseconds without a syscall\n"
      "                     before another ready thread gets its turn\n"
      "                     (default 20, or 4 times what a preemption\n"
      "                     costs when that is more, up to 1000: a large\n"
      "                     heap takes long to digest; 1 to 10000)\n"
      "  --cpu-features SPEC\n"
      "                     hide CPU features from glibc and OpenSSL, for a\n"
      "                     trace that must replay on an older rewind: a\n"
      "                     level (x86-64, x86-64-v2, x86-64-v3, x86-64-v4:\n"
      "                     what it lacks is hidden; native: nothing) and/or\n"
      "                     -FEATURE items, comma-separated (-avx512 hides\n"
      "                     every AVX-512 subset). Default: nothing hidden\n"
      "  -h, --help         show this help\n"
      "\n"
      "The trace becomes the latest one: `rewind replay` with no TRACE\n"
      "replays it, `rewind ls` lists the trace directory.\n"
      "Threads, of every recorded process, run one at a time: they switch at\n"
      "syscalls, and a thread that runs a whole timeslice without one is\n"
      "preempted. Children (fork, vfork, posix_spawn) are recorded too,\n"
      "through their execs, until the last recorded process is gone (a\n"
      "daemon PROG leaves behind included; Ctrl-C ends the recording and\n"
      "keeps it); a clone(CLONE_VM) child without CLONE_VFORK runs\n"
      "unrecorded, and --no-follow leaves every child unrecorded.\n"
      "PROG runs pinned to one CPU, with rdtsc trapped and its vDSO calls\n"
      "made through rewind's syscall buffer; see man rewind-record.\n"
      "Files of 256 KiB or more that a trace stores are also kept in a\n"
      "cache ($REWIND_CACHE, else $XDG_CACHE_HOME/rewind, else\n"
      "~/.cache/rewind; at most 2 GiB), so that recording the same program\n"
      "again does not read and compress them again; REWIND_CACHE=off: none.\n",
      out);
  fprintf(out, "Features --cpu-features knows: %s.\n",
          rec_cpu_feature_names());
}

/* The recorder must close its trace whatever happens to its own stderr: a
 * write to a closed pipe fails with EPIPE instead of ending rewind. (A
 * handler rather than SIG_IGN: PROG gets the default back at exec.) */
static void on_sigpipe(int sig) { (void)sig; }

/* --keyframes SECONDS (or REWIND_KEYFRAMES) into *MS; 0: none. -1 when
 * it is not such a number. */
static int keyframes_arg(const char *arg, unsigned *ms) {
  char *end;
  double sec = strtod(arg, &end);
  if (!*arg || *end || !(sec == 0 || (sec >= 0.01 && sec <= 86400)))
    return -1;
  *ms = (unsigned)(sec * 1000 + 0.5);
  return 0;
}

int cli_cmd_record(int argc, char **argv) {
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},
      {"force", no_argument, 0, 'f'},
      {"quiet", no_argument, 0, 'q'},
      {"timeslice", required_argument, 0, 'T'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"cpu-features", required_argument, 0, 'C'},
      {"no-follow", no_argument, 0, 'N'},
      {"syscall-buffer", no_argument, 0, 'B'},
      {"no-syscall-buffer", no_argument, 0, 'b'},
      {"pid", required_argument, 0, 'A'},
      {"duration", required_argument, 0, 'D'},
      {"keyframes", required_argument, 0, 'K'},
      {"ring", required_argument, 0, 'Z'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  struct rec_opts o;
  struct rec_result res;
  int c;
  memset(&o, 0, sizeof o);
  o.progress = isatty(2);
  o.syscall_buffer = REC_SYSCALL_BUFFER_DEFAULT;
  o.keyframe_ms = REC_KEYFRAMES_DEFAULT_MS;
  const char *kenv = getenv("REWIND_KEYFRAMES");
  if (kenv && *kenv && keyframes_arg(kenv, &o.keyframe_ms) < 0)
    return cli_usage_error("record", "REWIND_KEYFRAMES wants seconds from "
                           "0.01 to 86400, or 0 for none, not '%s'", kenv);
  optind = 1;
  while ((c = cli_getopt("record", argc, argv, "+o:fqhp:", longopts)) != -1) {
    switch (c) {
      case 'h':
        usage(stdout);
        return 0;
      case 'f':
        o.force = 1;
        break;
      case 'q':
        o.quiet = 1;
        break;
      case 'G':
        o.progress = 1;
        break;
      case 'P':
        o.progress = 0;
        break;
      case 'N':
        o.no_follow = 1;
        break;
      case 'B':
        o.syscall_buffer = 1;
        break;
      case 'b':
        o.syscall_buffer = 0;
        break;
      case 'o':
        o.output = optarg;
        break;
      case 'T': {
        char *end;
        unsigned long ms = strtoul(optarg, &end, 10);
        if (!*optarg || *end || optarg[0] == '-' || ms < 1 || ms > 10000)
          return cli_usage_error("record",
                                 "--timeslice wants milliseconds from 1 to "
                                 "10000, not '%s'",
                                 optarg);
        o.timeslice_ms = (unsigned)ms;
        break;
      }
      case 'p':
      case 'A': {
        char *end;
        long pid = strtol(optarg, &end, 10);
        if (!*optarg || *end || pid <= 0 || pid > 0x3fffffff)
          return cli_usage_error("record", "-p wants a process id, not '%s'",
                                 optarg);
        int dup = o.attach_pid == pid;
        for (unsigned k = 0; k < o.n_attach_more; k++)
          dup |= o.attach_more[k] == pid;
        if (dup) break;
        if (!o.attach_pid) {
          o.attach_pid = (int)pid;
        } else if (o.n_attach_more + 1 < REC_ATTACH_MAX) {
          o.attach_more[o.n_attach_more++] = (int)pid;
        } else {
          return cli_usage_error("record", "at most %d -p in one recording",
                                 REC_ATTACH_MAX);
        }
        break;
      }
      case 'D': {
        char *end;
        unsigned long sec = strtoul(optarg, &end, 10);
        if (!*optarg || *end || optarg[0] == '-' || sec < 1 || sec > 604800)
          return cli_usage_error("record", "--duration wants seconds from 1 "
                                 "to 604800, not '%s'", optarg);
        o.duration_s = (unsigned)sec;
        break;
      }
      case 'Z': {
        char *end;
        unsigned long long v = strtoull(optarg, &end, 10);
        int sh = 0;
        if (*end == 'K' || *end == 'k') sh = 10, end++;
        else if (*end == 'M' || *end == 'm') sh = 20, end++;
        else if (*end == 'G' || *end == 'g') sh = 30, end++;
        if (*end == 'B' || *end == 'b') end++;
        if (!*optarg || *end || optarg[0] == '-' || v > (1ull << 50) ||
            (v << sh) < (1ull << 20))
          return cli_usage_error("record", "--ring wants a size of at least "
                                 "1M (bytes, or with K, M or G), not '%s'",
                                 optarg);
        o.ring_bytes = v << sh;
        break;
      }
      case 'K':
        if (keyframes_arg(optarg, &o.keyframe_ms) < 0)
          return cli_usage_error("record", "--keyframes wants seconds from "
                                 "0.01 to 86400, or 0 for none, not '%s'",
                                 optarg);
        break;
      case 'C': {
        char err[160];
        if (rec_cpu_features_check(optarg, err, sizeof err) < 0)
          return cli_usage_error("record", "--cpu-features: %s", err);
        o.cpu_features = optarg;
        break;
      }
      default:
        return 2;
    }
  }
  if (o.attach_pid) {
    if (optind < argc)
      return cli_usage_error("record", "-p records a running process: no "
                             "PROG with it ('%s')", argv[optind]);
    if (o.cpu_features)
      return cli_usage_error("record", "--cpu-features cannot change what a "
                             "running process already chose (-p)");
    o.syscall_buffer = 0;
    static char *none[] = {NULL};
    o.argv = none;
  } else if (optind >= argc) {
    return cli_usage_error("record", "no program to record");
  }
  if (o.output && !*o.output)
    return cli_usage_error("record", "the output FILE is empty");
  if (!o.attach_pid) o.argv = argv + optind;
  if (o.quiet) o.progress = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigpipe;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPIPE, &sa, NULL);
  if (rec_record(&o, &res) < 0 && res.exit_status == 0) return 1;
  return res.exit_status;
}
