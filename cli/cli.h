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

#endif /* RW_CLI_CLI_H */
