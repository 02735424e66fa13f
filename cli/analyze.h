/* SPDX-License-Identifier: MIT */
/* What the files of `rewind analyze` share: cmd_analyze.c holds the
 * command, its helpers and the analyses of code (profile, calls, edges,
 * branches, rep, counts, marks); cmd_analyze_mem.c those of a memory
 * range (writes, accesses). The helpers print why they fail and give the
 * exit status, as their comments in cmd_analyze.c say. */
#ifndef RW_CLI_ANALYZE_H
#define RW_CLI_ANALYZE_H

#include <stdio.h>

#include "common/rw.h"
#include "replayer/replayer.h"

int an_open_trace(const char *path, int quiet, int progress,
                  rp_replay **rp);
int an_failed(const char *what, const char *path, int rc, u32 tid);
int an_run_status(rp_replay *rp, const struct rp_stop *stop);
int an_count_arg(const char *cmd, const char *opt, const char *arg, u64 *n);
int an_tid_arg(const char *cmd, const char *arg, u64 *tid);
int an_shared_opt(int c, int *progress, int *json);
int an_thread_check(const char *path, u32 tid);
int an_jobs_arg(const char *cmd, const char *arg, int *jobs);

void cli_analyze_writes_usage(FILE *out);
int cli_analyze_writes(int argc, char **argv);
void cli_analyze_accesses_usage(FILE *out);
int cli_analyze_accesses(int argc, char **argv);

#endif /* RW_CLI_ANALYZE_H */
