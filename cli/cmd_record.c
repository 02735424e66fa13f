/* SPDX-License-Identifier: MIT */
/* `rewind record [-o FILE] [--force] [--quiet] [--timeslice MS] [--] PROG
 * [ARGS...]`: parses
 * the arguments and calls the recorder (recorder/recorder.h), which does the
 * work and prints its own messages. Exits with PROG's exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "recorder/recorder.h"

static void usage(FILE *out) {
  fputs(
      "usage: rewind record [-o FILE] [--force] [--quiet] [--timeslice MS]\n"
      "                     [--] PROG [ARGS...]\n"
      "\n"
      "Run PROG with ARGS as the shell would, record it into a trace file and\n"
      "exit with PROG's exit status (128+N when PROG dies of signal N).\n"
      "\n"
      "  -o, --output FILE  write the trace to FILE (default: PROG-N.rwd, the\n"
      "                     first free N, in $REWIND_TRACE_DIR or the current\n"
      "                     directory)\n"
      "  -f, --force        replace FILE if it exists\n"
      "  -q, --quiet        print nothing but errors\n"
      "  --timeslice MS     let a thread run MS milliseconds without a syscall\n"
      "                     before another ready thread gets its turn\n"
      "                     (default 20; 1 to 10000)\n"
      "  -h, --help         show this help\n"
      "\n"
      "Threads are recorded one at a time: they switch at syscalls, and a\n"
      "thread that runs a whole timeslice without one is preempted.\n"
      "PROG runs pinned to one CPU, with rdtsc trapped, the vDSO hidden and\n"
      "GLIBC_TUNABLES / OPENSSL_ia32cap limiting ISA extensions; see\n"
      "man rewind-record.\n",
      out);
}

int cli_cmd_record(int argc, char **argv) {
  struct rec_opts o;
  struct rec_result res;
  int i;
  memset(&o, 0, sizeof o);
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (a[0] != '-' || !a[1]) break;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-f") || !strcmp(a, "--force")) {
      o.force = 1;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      o.quiet = 1;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (++i >= argc) return cli_usage_error("record", "%s needs a FILE", a);
      o.output = argv[i];
    } else if (!strncmp(a, "--output=", 9)) {
      o.output = a + 9;
    } else if (!strcmp(a, "--timeslice") || !strncmp(a, "--timeslice=", 12)) {
      const char *v = a[11] == '=' ? a + 12 : NULL;
      if (!v && ++i >= argc)
        return cli_usage_error("record", "--timeslice needs MS");
      if (!v) v = argv[i];
      char *end;
      unsigned long ms = strtoul(v, &end, 10);
      if (!*v || *end || ms < 1 || ms > 10000)
        return cli_usage_error("record",
                               "--timeslice wants milliseconds from 1 to "
                               "10000, not '%s'",
                               v);
      o.timeslice_ms = (unsigned)ms;
    } else if (!strncmp(a, "-o", 2)) {
      o.output = a + 2;
    } else {
      return cli_usage_error("record", "unknown option '%s'", a);
    }
  }
  if (i >= argc) return cli_usage_error("record", "no program to record");
  if (o.output && !*o.output)
    return cli_usage_error("record", "the output FILE is empty");
  o.argv = argv + i;
  if (rec_record(&o, &res) < 0 && res.exit_status == 0) return 1;
  return res.exit_status;
}
