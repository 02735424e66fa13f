/* SPDX-License-Identifier: MIT */
/* The ptrace recorder (DESIGN.md sections 2 and 3): runs a program under
 * ptrace, pinned to one CPU, and writes everything its replay needs into one
 * trace file. This is the only header other components include from
 * recorder/; cli/cmd_record.c parses arguments and calls rec_record(). */
#ifndef RW_RECORDER_RECORDER_H
#define RW_RECORDER_RECORDER_H

#include "common/rw.h"

/* What to record and where. Plain data. */
/* How many running processes one recording may attach to (-p). */
#define REC_ATTACH_MAX 64

struct rec_opts {
  char *const *argv;  /* PROG and its arguments, NULL-terminated; borrowed */
  const char *output; /* trace path, or NULL for PROG-N.rwd in the current
                         directory or $REWIND_TRACE_DIR; borrowed */
  int force;          /* 1: replace an existing output file */
  int quiet;          /* 1: print nothing but errors */
  unsigned timeslice_ms; /* a thread running this long without a syscall
                            is preempted when another is ready (0: 20) */
  int progress;       /* 1: show events, trace size and time on stderr
                         while recording (from 2 s on, once a second) */
  const char *cpu_features; /* --cpu-features: what to hide from glibc and
                               OpenSSL, or NULL for nothing; borrowed */
  int no_follow;      /* 1: record PROG's process alone; its children run
                         unrecorded (--no-follow) */
  int syscall_buffer; /* 1: log common syscalls in the process, without a
                         ptrace stop (recorder/sbuf.c); 0:
                         --no-syscall-buffer */
  int attach_pid;     /* -p PID: record this running process (argv is then
                         unused) until Ctrl-C, DURATION_S or its end, and
                         let it go on; 0: start argv */
  int attach_more[REC_ATTACH_MAX - 1]; /* further -p PIDs, recorded with
                                          it */
  unsigned n_attach_more;
  unsigned keyframe_ms; /* --keyframes: a full keyframe every this many
                           milliseconds (0: none) */
#define REC_KEYFRAMES_DEFAULT_MS 30000u
  u64 ring_bytes;       /* --ring: keep at most this much history (0: all) */
  unsigned duration_s; /* --duration: end the recording after this many
                          seconds (0: no limit) */
};

/* Whether `rewind record` buffers syscalls unless told otherwise. */
#define REC_SYSCALL_BUFFER_DEFAULT 1

/* Whether SPEC is a valid --cpu-features value: 0, or RW_EINVAL with the
 * reason in ERR (ERRLEN bytes). */
int rec_cpu_features_check(const char *spec, char *err, size_t errlen);
/* The feature names --cpu-features knows, space-separated (static). */
const char *rec_cpu_feature_names(void);

/* How a recording ended. Plain data. */
struct rec_result {
  int exit_status;     /* what rewind should exit with: PROG's exit status,
                          128+N when PROG died of signal N, 126/127 when PROG
                          could not be run, 1 for other failures */
  char path[4096];     /* the trace file written ("" when none is left) */
  u64 size;            /* bytes in the trace file */
  u64 events;          /* records written */
  u64 duration_ns;     /* wall time from launch to the end */
};

/* Runs OPTS->argv[0] (looked up in PATH like a shell does) with its
 * arguments, the same stdin/stdout/stderr, working directory and environment
 * (apart from the changes documented in man/rewind-record.1), records it into
 * a trace file and fills RES (caller-owned). Prints its own messages: the
 * refusals, warnings, the crash backtrace and the final summary line.
 * Returns 0 when a trace was written (whatever PROG's fate), or a negative
 * code when nothing could be recorded: RW_ENOTFOUND (PROG missing),
 * -EACCES (not executable), RW_EUNSUPPORTED (not an x86-64 program),
 * -EEXIST (output exists without force), -EPERM (ptrace not permitted or
 * PROG already traced), or an errno. RES->exit_status is set either way. */
int rec_record(const struct rec_opts *opts, struct rec_result *res)
    RW_MUST_CHECK;

#endif /* RW_RECORDER_RECORDER_H */
