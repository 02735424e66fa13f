/* SPDX-License-Identifier: MIT */
/* `-p PID|NAME` of rewind replay and rewind serve: which recorded process
 * the debugger looks at, found in the trace's process list (format/ps.c),
 * and where its history begins for the debugger. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* sigabbrev_np */
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "format/format.h"
#include "replayer/replayer.h"

const char *cli_base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Whether process P answers to WANT: its pid, the last component of its
 * last program, or of its command's first word. */
static int matches(const struct trace_proc *p, const char *want, int is_pid,
                   u32 pid) {
  if (is_pid) return p->pid == pid;
  if (p->exe && !strcmp(cli_base_name(p->exe), want)) return 1;
  if (!p->command) return 0;
  char first[256];
  snprintf(first, sizeof first, "%s", p->command);
  first[strcspn(first, " ")] = 0;
  return !strcmp(cli_base_name(first), want);
}

/* The processes of PATH into *V, *N (free with trace_procs_free). Returns
 * 0, or 1 after saying why not unless SILENT. */
static int load(const char *path, struct trace_proc **v, size_t *n,
                int silent) {
  struct rw_diag diag = {0};
  trace_reader *r;
  int rc = trace_reader_open(&r, path, &diag);
  if (rc < 0 && silent) return 1;
  if (rc < 0)
    return cli_error("cannot read %s: %s", path,
                     diag.msg[0] ? diag.msg : rw_strerror(rc));
  rc = trace_procs(r, v, n, &diag);
  trace_reader_close(r);
  if (rc < 0 && silent) return 1;
  if (rc < 0)
    return cli_error("cannot list the processes of %s: %s", path,
                     diag.msg[0] ? diag.msg : rw_strerror(rc));
  if (*n == 0) {
    trace_procs_free(*v, *n);
    return silent ? 1 : cli_error("%s has no process in it", path);
  }
  return 0;
}

int cli_pick(const char *path, const char *want, struct cli_picked *out) {
  memset(out, 0, sizeof *out);
  char *end;
  unsigned long v = strtoul(want, &end, 10);
  int is_pid = *want && !*end && want[0] != '-';
  struct trace_proc *v_;
  size_t n;
  if (load(path, &v_, &n, 0)) return 1;
  const struct trace_proc *hit = NULL, *unrec = NULL;
  size_t nhit = 0;
  char others[200] = "";
  for (size_t i = 0; i < n; i++) {
    const struct trace_proc *p = &v_[i];
    if (!matches(p, want, is_pid, (u32)v)) continue;
    if (!p->recorded) {
      if (!unrec) unrec = p;
      continue;
    }
    if (!hit) {
      hit = p;
    } else if (strlen(others) + 16 < sizeof others) {
      snprintf(others + strlen(others), sizeof others - strlen(others),
               "%s%u", nhit > 1 ? ", " : "", p->pid);
    }
    nhit++;
  }
  int status = 0;
  if (!hit && unrec) {
    status = cli_error("process %u of %s ran unrecorded (rewind ps lists "
                       "which were recorded)", unrec->pid, path);
  } else if (!hit) {
    status = cli_error("no process of %s is %s %s; rewind ps %s lists them",
                       path, is_pid ? "pid" : "named", want, path);
  } else {
    out->pid = hit->pid;
    /* The first process from its first instruction, unless it exec'd
     * again (env, nice, a shim, sh -c 'exec ...'): then from its last
     * program, as any other. */
    out->root = hit == &v_[0] && hit->nexec <= 1;
    /* The program it ran last, from its exec; a child that never exec'd,
     * from its creation. */
    out->seq = hit->nexec && hit->exec_seq ? hit->exec_seq : hit->first_seq;
    snprintf(out->name, sizeof out->name, "%s",
             hit->exe ? cli_base_name(hit->exe) : "?");
    if (nhit > 1)
      fprintf(stderr, "rewind: %zu processes match %s; debugging the first, "
              "%u (the others: %s; -p PID picks one)\n", nhit, want,
              hit->pid, others);
  }
  trace_procs_free(v_, n);
  return status;
}

int cli_goto_process(struct rp_replay *rp, const char *path, const char *want,
                     int quiet) {
  struct cli_picked pk;
  int st = cli_pick(path, want, &pk);
  if (st || pk.root) return st;
  struct rp_stop stop;
  int rc = rp_debug_process(rp, pk.pid, pk.seq, &stop);
  if (rc < 0)
    return cli_error("cannot go to process %u of %s: %s", pk.pid, path,
                     rw_strerror(rc));
  if (stop.reason == RP_STOP_END)
    return cli_error("process %u (%s) of %s never runs in the replay",
                     pk.pid, pk.name, path);
  if (stop.reason != RP_STOP_TARGET)
    return cli_error("process %u (%s) of %s is not reached: the replay "
                     "stopped at event %llu (%s)",
                     pk.pid, pk.name, path, (unsigned long long)stop.event,
                     stop.msg[0] ? stop.msg : "it cannot go on");
  if (!quiet)
    fprintf(stderr, "rewind: debugging process %u (%s) from event %llu, "
            "instruction %llu; its history begins there\n", pk.pid, pk.name,
            (unsigned long long)rp_event(rp),
            (unsigned long long)rp_icount(rp));
  return 0;
}

/* Whether P ended with a failure: a status other than 0, or a signal other
 * than SIGPIPE (the usual end of a pipeline's writer). */
static int failed(const struct trace_proc *p) {
  if (!p->recorded || p->ended != 1) return 0;
  if (p->signo) return p->signo != SIGPIPE;
  return p->status != 0;
}

/* The failure that P's exit status passed on: the child of P that failed
 * last before P ended, or NULL. A child that failed earlier and was let go
 * (`grep -q x f || ...`, a shell's `readlink` probe) is not the cause. */
static const struct trace_proc *cause(const struct trace_proc *v, size_t n,
                                      const struct trace_proc *p) {
  const struct trace_proc *best = NULL;
  for (size_t i = 0; i < n; i++) {
    const struct trace_proc *c = &v[i];
    if (c == p || c->ppid != p->pid || !failed(c)) continue;
    /* pids are reused: a child of P was created while P lived */
    if (c->first_seq < p->first_seq || c->last_seq > p->last_seq) continue;
    if (!best || c->last_seq > best->last_seq) best = c;
  }
  return best;
}

void cli_start_default(const char *path, struct cli_start *start, char *buf,
                       size_t cap, int quiet, int others) {
  if (start->proc || start->icount != ~0ull || start->tree) return;
  char *pid = buf;
  pid[0] = 0;
  struct trace_proc *v;
  size_t n;
  /* A trace that cannot be read is the replay's to report. */
  if (load(path, &v, &n, 1)) return;
  const struct trace_proc *p = &v[0], *c;
  if (failed(p)) {
    /* Down the chain of exit statuses to the process that failed first;
     * a process killed by a signal failed by itself. */
    while (!p->signo && (c = cause(v, n, p))) p = c;
  }
  if (p != &v[0]) {
    snprintf(pid, cap, "%u", p->pid);
    char how[32];
    const char *sig = p->signo ? sigabbrev_np((int)p->signo) : NULL;
    if (sig)
      snprintf(how, sizeof how, "SIG%s", sig);
    else if (p->signo)
      snprintf(how, sizeof how, "signal %u", p->signo);
    else
      snprintf(how, sizeof how, "exit status %d", (int)p->status);
    if (!quiet)
      fprintf(stderr, "rewind: the recorded command failed; process %u (%s)"
              " is where: it ended with %s (-p PID debugs another; rewind "
              "ps lists them)\n", p->pid,
              p->exe ? cli_base_name(p->exe) : "?", how);
  } else if (p->nexec > 1 && failed(p)) {
    /* It failed in its last program (`env VAR=1 prog` and prog crashed):
     * from where that one starts (cli_pick). */
    snprintf(pid, cap, "%u", p->pid);
    if (!quiet)
      fprintf(stderr, "rewind: the recorded command failed in its last "
              "program, %s: debugging that one\n",
              p->exe ? cli_base_name(p->exe) : "?");
  } else if (p->nexec > 1 && !quiet) {
    /* Which program matters cannot be told from the trace (env execs the
     * real one at once; a program may exec a helper at its end). */
    const char *last = p->exe ? cli_base_name(p->exe) : "?";
    fprintf(stderr, "rewind: process %u ran %u programs, the last %s; gdb "
            "starts in the first and loads each at its exec (-p %s starts "
            "at %s)\n", p->pid, p->nexec, last, last, last);
  }
  /* gdb alone sees one process: say there are others (children, or
   * processes attached together with several -p). */
  size_t nrec = 0;
  for (size_t i = 0; i < n; i++) nrec += v[i].recorded != 0;
  if (p == &v[0] && nrec > 1 && others && !quiet)
    fprintf(stderr, "rewind: the recording holds %zu processes; gdb debugs "
            "the first, %u (%s): -p PID debugs another, --tree all of them "
            "(rewind ps lists them)\n", nrec, p->pid,
            p->exe ? cli_base_name(p->exe) : "?");
  trace_procs_free(v, n);
  if (pid[0]) start->proc = pid;
}
