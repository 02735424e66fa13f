/* SPDX-License-Identifier: MIT */
/* The rewind command's subcommands. Each takes the arguments after its own
 * name (argv[0] is the subcommand name) and returns the process exit status.
 * cli/ only parses arguments and calls the other components (STYLE R1). */
#ifndef RW_CLI_CLI_H
#define RW_CLI_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "common/rw.h"

#define CLI_CMD(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef CLI_CMD

/* Prints "rewind: " and the message to stderr; returns the exit status 1
 * (2 for usage errors through cli_usage_error). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a usage error and "try 'rewind CMD --help'"; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

struct option;
/* getopt_long over ARGV for subcommand CMD, with SHORTOPTS (a leading '+'
 * stops at the first operand) and LONGOPTS (borrowed). Returns the next
 * option as getopt_long does, -1 after the last, or '?' after printing one
 * usage error that names the unknown option or the missing argument (the
 * caller then exits with status 2). Set optind = 1 before the first call. */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
               const struct option *longopts);

/* The options of a subcommand that has only --json and -h/--help: sets
 * *JSON and leaves optind at the first operand. Returns -1 to go on, or
 * the exit status (0 after printing USAGE to stdout, 2 after an error). */
int cli_json_opts(const char *cmd, int argc, char **argv,
                  void (*usage)(FILE *), int *json);

/* Resolves TRACE as typed (NULL: the latest recording) into PATH (CAP
 * bytes) through the trace directory. Returns 0, or prints why not and
 * returns the exit status 1. */
int cli_trace_path(const char *trace, char *path, size_t cap);

/* Opens the one trace operand of subcommand CMD (argv[optind], or the
 * latest trace when there is none) into *R, its path in PATH (CAP bytes)
 * and its state in *INFO, saying on stderr when it is damaged or was not
 * closed (cli_report_open). Returns -1 with *R open, or the exit status:
 * 2 for more than one operand, as cli_open_status when it cannot be
 * opened. */
struct trace_info;
typedef struct trace_reader trace_reader;
int cli_open_trace(const char *cmd, int argc, char **argv, char *path,
                   size_t cap, trace_reader **r, struct trace_info *info);

/* The exit status of every command for a trace that is damaged (bytes
 * wrong or lost before its end, not only cut off); 3 is a trace cut off. */
#define CLI_DAMAGED 5
#define CLI_CUT 3

/* The exit status for a trace that could not be opened with code RC:
 * CLI_DAMAGED when its bytes are wrong (a damaged header, a file cut
 * before its first chunk), else 1 (missing, not a trace, another format
 * version). */
int cli_open_status(int rc);

/* Opens the replay of the trace at PATH with OPTS (may be NULL) into *RP.
 * Returns 0, or says why not and returns the exit status
 * (cli_open_status). */
struct rp_opts;
struct rp_replay;
int cli_replay_open(const char *path, const struct rp_opts *opts,
                    struct rp_replay **rp);

/* Says on stderr what trace_reader_open found wrong with the trace at PATH
 * (INFO, borrowed): damage, or that it was never closed (cmd_info.c). */
struct trace_info;
void cli_report_open(const char *path, const struct trace_info *info);

/* Says on stderr when the trace of RP (at PATH) is damaged or was never
 * closed, as `rewind info` would; returns 1 when it is damaged
 * (cmd_replay.c). */
struct rp_replay;
int cli_trace_warning(struct rp_replay *rp, const char *path);

/* The gdb commands given to the gdb `rewind replay` starts, and printed by
 * `rewind gdbinit` (cli/cmd_serve.c). */
extern const char cli_gdb_init[];

/* -p PID|NAME (cli/pick.c): the recorded process of the trace at PATH
 * that WANT names, and the record its debugging starts after. Returns 0,
 * or prints why not and returns the exit status. */
struct cli_picked {
  u32 pid;
  u64 seq;        /* its last EXEC, or its FORK when it never exec'd */
  int root;       /* 1: the process the recording started, which ran
                     one program: its history is the whole replay's */
  char name[64];  /* its last program's file name */
};
int cli_pick(const char *path, const char *want, struct cli_picked *out);
struct cli_start;
/* The process a debugger looks at when neither -p nor --goto says (START
 * has neither; else nothing changes): the root, unless the recorded
 * command failed; then the process its failure came from, down the chain
 * of exit statuses (the last child to fail before its parent ended) to one
 * that failed by itself. Sets START->proc to its pid, written to BUF (CAP
 * bytes), unless it is the root from its first instruction, and says why
 * on stderr unless QUIET. A root that exec'd more than once (`env VAR=1
 * prog`) starts at its last program when it failed (that is where), else
 * at its first, with a note that -p NAME starts at its last. With OTHERS,
 * a first process that is not alone says so (once, where gdb starts). */
void cli_start_default(const char *path, struct cli_start *start, char *buf,
                       size_t cap, int quiet, int others);
/* Moves the replay RP of PATH to where process WANT (-p) begins for the
 * debugger, unless it is the first process; says so on stderr unless
 * QUIET. Returns 0, or prints why not and returns the exit status. */
int cli_goto_process(struct rp_replay *rp, const char *path, const char *want,
                     int quiet);
/* The last component of path P. */
const char *cli_base_name(const char *p);
/* ", memory of N other processes checked as they ended" for N > 0 (the
 * DIGEST records that matched), else "", in BUF (CAP bytes). */
const char *cli_digests_text(u64 n, char *buf, size_t cap);

/* Where a gdb session starts: the process to debug (NULL: the first) and
 * the instruction (~0: where that process's history begins). */
struct cli_start {
  u64 icount;
  const char *proc;
  int tree; /* --tree: gdb sees every process as an inferior */
};

/* Writes the files of the trace at TRACE under the cache directory
 * ($REWIND_CACHE, else $XDG_CACHE_HOME/rewind, else ~/.cache/rewind) for a
 * gdb's sysroot, once (cli/sysroot.c), and that directory into DIR (CAP
 * bytes); its .by-name holds every file under its last component and
 * soname. Returns 0, or -1 when there is no cache directory, it is "off",
 * or the trace cannot be read (gdb then reads the files through the
 * remote protocol). */
int cli_sysroot(const char *trace, char *dir, size_t cap);

/* The gdb modes (cmd_serve.c), shared by `rewind serve` and `rewind
 * replay`. START says where to begin. Each returns the exit status;
 * REMOTE allows a --listen address that is not loopback; IDLE is
 * --idle-timeout; cli_replay_gdb returns only when gdb cannot be started
 * (it replaces the process with gdb). */
int cli_serve_stdio(const char *path, int quiet, int log,
                    const struct cli_start *start);
int cli_serve_listen(const char *path, const char *addr, int quiet, int log,
                     const struct cli_start *start, int remote, int idle);

/* The default of --idle-timeout (seconds), and its parser: the value, or
 * -1 after a usage error. */
#define CLI_IDLE_DEFAULT 1800
int cli_idle_arg(const char *cmd, const char *arg);
int cli_replay_gdb(const char *path, const struct cli_start *start, int quiet,
                   int nargs, char **args);

/* rewind replay --verify -j JOBS (cli/segments.c): the segments between
 * the trace's recorder keyframes verified JOBS at a time. Returns the exit
 * status, or -1 when the trace has none (then verify it whole). */
int cli_verify_segments(const char *path, int jobs, int quiet);

/* An analysis run in pieces (rewind analyze -j): RUN, in the process of
 * one piece, replays that piece (RP, opened at its keyframe) with the
 * analysis on and saves its result to OUT, with STOP saying where the
 * replay ended; ADD, in rewind's own process, adds a saved result to the
 * total, the pieces in the history's order. Both return 0 or a negative
 * code; ADD's RW_ERR(ENOTSUP) says the results cannot be joined exactly
 * (call paths through a misaligned return address): the total is given
 * up and the analysis runs whole. */
struct rp_stop;
struct cli_piece_job {
  const char *what; /* "edges", for messages */
  int (*run)(struct rp_replay *rp, FILE *out, struct rp_stop *stop,
             void *ctx);
  int (*add)(FILE *in, void *ctx);
  void *ctx;
};
/* Runs JOB over the segments of the trace at PATH, JOBS at a time (the
 * pieces rewind replay --verify -j checks). Returns the exit status (as
 * analyze's: 0, 1, 4 diverged, 5 damaged; the total then covers the
 * history before the first piece that went wrong), or -1 when the trace
 * has no keyframes or ADD gave up (then run the analysis whole). */
int cli_analyze_segments(const char *path, int jobs, int progress,
                         const struct cli_piece_job *job);

#endif /* RW_CLI_CLI_H */
