/* SPDX-License-Identifier: MIT */
/* The `rewind` command: global options and dispatch to a subcommand. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/rw.h"
#include "format/format.h"
#include "config.h"

struct cli_command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
};

static const struct cli_command commands[] = {
#define CLI_CMD(name, fn, summary) {#name, fn, summary},
#include "commands.def"
#undef CLI_CMD
};

static void usage(FILE *out) {
  fprintf(out,
          "usage: rewind [--version] [--help] COMMAND [ARGS...]\n"
          "\n"
          "Record an x86-64 Linux program, then debug the recording forwards\n"
          "and backwards.\n"
          "\n"
          "commands:\n");
  for (size_t i = 0; i < RW_ARRAY_SIZE(commands); i++)
    fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf(out,
          "\n"
          "'rewind COMMAND --help' describes a command; man rewind has more.\n");
}

int cli_error(const char *fmt, ...) {
  va_list ap;
  fputs("rewind: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "rewind %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\ntry 'rewind %s --help'\n", cmd);
  return 2;
}

/* A reader that goes away (`rewind dump | head`) is the normal end of the
 * output, as for cat: leave quietly with status 0. A handler, not SIG_IGN,
 * so that programs rewind starts (the recorded program, gdb) get the default
 * disposition back at exec. */
static void on_sigpipe(int sig) {
  (void)sig;
  _exit(0);
}

int main(int argc, char **argv) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigpipe;
  sigaction(SIGPIPE, &sa, NULL);
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
      !strcmp(argv[1], "help")) {
    if (argc > 2 && strcmp(argv[1], "help") == 0) {
      char help[] = "--help";
      char *sub[] = {argv[2], help, NULL};
      for (size_t i = 0; i < RW_ARRAY_SIZE(commands); i++)
        if (!strcmp(commands[i].name, argv[2])) return commands[i].fn(2, sub);
    }
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("rewind %s (reads trace format %d.x, writes %d.%d)\n",
           PACKAGE_VERSION, TRACE_VERSION_MAJOR, TRACE_VERSION_MAJOR,
           TRACE_VERSION_MINOR);
    return 0;
  }
  for (size_t i = 0; i < RW_ARRAY_SIZE(commands); i++)
    if (!strcmp(commands[i].name, argv[1]))
      return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "rewind: '%s' is not a rewind command\n\n", argv[1]);
  usage(stderr);
  return 2;
}
