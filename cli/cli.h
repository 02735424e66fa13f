/* SPDX-License-Identifier: MIT */
/* The rewind command's subcommands. Each takes the arguments after its own
 * name (argv[0] is the subcommand name) and returns the process exit status.
 * cli/ only parses arguments and calls the other components (STYLE R1). */
#ifndef RW_CLI_CLI_H
#define RW_CLI_CLI_H

#define CLI_CMD(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef CLI_CMD

/* Prints "rewind: " and the message to stderr; returns the exit status 1
 * (2 for usage errors through cli_usage_error). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a usage error and "try 'rewind CMD --help'"; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The gdb modes (cmd_serve.c), shared by `rewind serve` and `rewind
 * replay`. Each returns the exit status; cli_replay_gdb returns only when
 * gdb cannot be started (it replaces the process with gdb). */
int cli_serve_stdio(const char *path, int quiet, int log);
int cli_serve_listen(const char *path, const char *addr, int quiet, int log);
int cli_replay_gdb(const char *path, int nargs, char **args);

#endif /* RW_CLI_CLI_H */
