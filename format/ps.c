/* SPDX-License-Identifier: MIT */
/* `rewind ps`: the processes of a trace, found in its records. Each
 * recorded process has its threads' streams: the first begins with an
 * EXEC, the others at the FORK record (recorded 1) their parent's fork
 * wrote; each gains threads with THREAD_START, changes image with EXEC,
 * and ends with the EXIT that leaves it no thread (or, for the first, the
 * END record). A child that ran unrecorded appears once, at its FORK. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

/* Processes seen so far, in the order they appeared. */
struct table {
  struct trace_proc *v;
  size_t n, cap;
  u32 *tids; /* recorded threads alive, and their process (index) */
  size_t *tproc;
  size_t ntids, captids;
};

static struct trace_proc *add_proc(struct table *t) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 8;
    struct trace_proc *v = realloc(t->v, cap * sizeof *v);
    if (!v) return NULL;
    t->v = v;
    t->cap = cap;
  }
  struct trace_proc *p = &t->v[t->n++];
  memset(p, 0, sizeof *p);
  return p;
}

/* The process of recorded thread TID, or -1. */
static long proc_of(const struct table *t, u32 tid) {
  for (size_t i = 0; i < t->ntids; i++)
    if (t->tids[i] == tid) return (long)t->tproc[i];
  return -1;
}

static int add_tid(struct table *t, u32 tid, size_t proc) {
  if (t->ntids == t->captids) {
    size_t cap = t->captids ? 2 * t->captids : 16;
    u32 *a = realloc(t->tids, cap * sizeof *a);
    if (!a) return RW_ENOMEM;
    t->tids = a;
    size_t *b = realloc(t->tproc, cap * sizeof *b);
    if (!b) return RW_ENOMEM;
    t->tproc = b;
    t->captids = cap;
  }
  t->tids[t->ntids] = tid;
  t->tproc[t->ntids++] = proc;
  return 0;
}

static void drop_tid(struct table *t, u32 tid) {
  for (size_t i = 0; i < t->ntids; i++)
    if (t->tids[i] == tid) {
      t->tids[i] = t->tids[t->ntids - 1];
      t->tproc[i] = t->tproc[--t->ntids];
      return;
    }
}

static char *str_dup(struct trace_str s) {
  char *c = malloc(s.len + 1);
  if (c) trace_str_copy(s, c, s.len + 1);
  return c;
}

/* The recorded command line: argv joined by spaces. */
static char *cmdline(const trace_reader *r) {
  const void *v;
  size_t n;
  if (trace_reader_meta(r, TRACE_META_CMDLINE, &v, &n) < 0) return NULL;
  char *c = malloc(n + 1);
  if (!c) return NULL;
  memcpy(c, v, n);
  while (n && c[n - 1] == 0) n--;
  for (size_t i = 0; i < n; i++)
    if (c[i] == 0) c[i] = ' ';
  c[n] = 0;
  return c;
}

/* Applies record REC to the table. */
static int apply(struct table *t, const trace_reader *r,
                 const struct trace_record *rec) {
  long pi = proc_of(t, rec->tid);
  struct trace_proc *p;
  switch (rec->type) {
    case TRACE_REC_EXEC: {
      struct trace_rec_exec e;
      RW_FORWARD(trace_rec_exec_get(&e, rec->data, rec->len));
      if (pi < 0) { /* the start of the recording */
        p = add_proc(t);
        RW_RETURN_IF(!p, RW_ENOMEM, "processes");
        p->pid = e.pid;
        p->recorded = 1;
        p->first_seq = rec->seq;
        p->command = cmdline(r);
        pi = (long)(t->n - 1);
      }
      p = &t->v[pi];
      free(p->exe);
      p->exe = str_dup(e.path);
      p->nexec++;
      p->exec_seq = rec->seq;
      break;
    }
    case TRACE_REC_THREAD_START: {
      struct trace_rec_thread_start ts;
      RW_FORWARD(trace_rec_thread_start_get(&ts, rec->data, rec->len));
      /* The first thread of a recorded child, or a thread of its
       * parent's process. */
      for (size_t i = t->n; pi < 0 && i-- > 0;)
        if (t->v[i].recorded && t->v[i].pid == ts.tid && !t->v[i].nthreads &&
            t->v[i].ppid)
          pi = (long)i;
      if (pi < 0) pi = proc_of(t, ts.parent_tid);
      if (pi < 0 && t->n) pi = 0;
      if (pi < 0) break;
      /* After an execve the thread that made it starts again: it is not
       * another thread. */
      if (proc_of(t, ts.tid) >= 0) break;
      RW_FORWARD(add_tid(t, ts.tid, (size_t)pi));
      t->v[pi].nthreads++;
      break;
    }
    case TRACE_REC_FORK: {
      struct trace_rec_fork f;
      RW_FORWARD(trace_rec_fork_get(&f, rec->data, rec->len));
      p = add_proc(t);
      RW_RETURN_IF(!p, RW_ENOMEM, "processes");
      p->pid = f.child_pid;
      p->ppid = pi >= 0 ? t->v[pi].pid : 0;
      p->kind = f.kind;
      p->first_seq = p->last_seq = rec->seq;
      p->recorded = f.recorded != 0;
      /* A recorded child runs its parent's program until it execs. */
      if (p->recorded && pi >= 0 && t->v[pi].exe) {
        p->exe = strdup(t->v[pi].exe);
        RW_RETURN_IF(!p->exe, RW_ENOMEM, "processes");
      }
      break;
    }
    case TRACE_REC_EXIT: {
      struct trace_rec_exit x;
      RW_FORWARD(trace_rec_exit_get(&x, rec->data, rec->len));
      pi = proc_of(t, x.tid);
      if (pi < 0) break;
      drop_tid(t, x.tid);
      p = &t->v[pi];
      size_t left = 0;
      for (size_t i = 0; i < t->ntids; i++) left += t->tproc[i] == (size_t)pi;
      if (!left) { /* its last thread */
        p->ended = 1;
        p->status = x.status;
        p->signo = x.signo;
      }
      break;
    }
    case TRACE_REC_END: {
      struct trace_rec_end e;
      RW_FORWARD(trace_rec_end_get(&e, rec->data, rec->len));
      if (t->n && t->v[0].recorded) { /* the recorded process's end */
        t->v[0].ended = 1;
        t->v[0].status = e.status;
        t->v[0].signo = e.signo;
      }
      break;
    }
    case TRACE_REC_DETACH: /* every recorded process still there */
      for (size_t i = 0; i < t->n; i++)
        if (t->v[i].recorded && !t->v[i].ended) t->v[i].ended = 2;
      break;
    default:
      break;
  }
  if (pi >= 0 && t->v[pi].recorded) t->v[pi].last_seq = rec->seq;
  return 0;
}

void trace_procs_free(struct trace_proc *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].command);
    free(v[i].exe);
  }
  free(v);
}

/* A trace whose records begin at a recorder keyframe (a ring's, a
 * joined segment's): the processes its state holds, as if forked there. */
static int begin_at_keyframe(struct table *t, trace_reader *r) {
  struct trace_info in;
  trace_reader_get_info(r, &in);
  for (size_t i = 0; i < trace_reader_nkeyframes(r); i++) {
    struct trace_keyframe_info ki;
    if (trace_reader_keyframe_info(r, i, &ki) < 0 ||
        ki.kind != TRACE_KF_RECORDER)
      continue;
    if (trace_reader_nrecords(r) && in.seq_first < ki.seq) return 0;
    u8 *img;
    size_t len;
    u64 seq;
    trace_reader *kr = NULL;
    trace_cursor *c = NULL;
    struct trace_record rec;
    int rc = trace_reader_recorder_state(r, i, &seq, &img, &len, NULL);
    if (rc == 0) rc = trace_reader_open_mem(&kr, img, len, NULL);
    if (rc == 0) rc = trace_cursor_open(&c, kr, TRACE_ALL_THREADS);
    while (rc == 0 && trace_cursor_next(c, &rec, NULL) == 1) {
      rec.seq = ki.seq;
      rc = apply(t, r, &rec);
    }
    trace_cursor_close(c);
    trace_reader_close(kr);
    free(img);
    return rc == RW_ENOMEM ? rc : 0; /* a bad state: the records alone */
  }
  return 0;
}

int trace_procs(trace_reader *r, struct trace_proc **out, size_t *n,
                struct rw_diag *diag) {
  struct table t = {0};
  struct trace_record rec;
  trace_cursor *c;
  *out = NULL;
  *n = 0;
  int rc = begin_at_keyframe(&t, r);
  if (rc < 0) {
    trace_procs_free(t.v, t.n);
    free(t.tids);
    free(t.tproc);
    return rc;
  }
  rc = trace_cursor_open(&c, r, TRACE_ALL_THREADS);
  if (rc == RW_ENOTFOUND) { /* no records */
    free(t.tids);
    free(t.tproc);
    *out = t.v;
    *n = t.n;
    return 0;
  }
  RW_FORWARD(rc);
  int bad = 0;
  for (;;) {
    rc = trace_cursor_next(c, &rec, diag);
    if (rc < 0) { /* damage: what was read so far stands */
      bad = 1;
      break;
    }
    if (rc == 0) break;
    rc = apply(&t, r, &rec);
    if (rc == RW_ECORRUPT) { /* a record too short: say so, go on */
      if (diag && !diag->code)
        rw_diag_set(diag, rc, rec.chunk_offset, "record %llu (%s) is too "
                    "short", (unsigned long long)rec.seq,
                    trace_record_name(rec.type) ?: "?");
      bad = 1;
      continue;
    }
    if (rc < 0) break;
  }
  trace_cursor_close(c);
  free(t.tids);
  free(t.tproc);
  if (rc < 0 && !bad) {
    trace_procs_free(t.v, t.n);
    return rc;
  }
  *out = t.v;
  *n = t.n;
  return bad;
}

/* "exit 0", "signal 11", or what is known of a process that has not ended
 * in the trace. */
static void how_ended(const struct trace_proc *p, char *buf, size_t cap) {
  if (!p->recorded)
    snprintf(buf, cap, "-");
  else if (!p->ended)
    snprintf(buf, cap, "running");
  else if (p->ended == 2)
    snprintf(buf, cap, "detached");
  else if (p->signo)
    snprintf(buf, cap, "signal %u", p->signo);
  else
    snprintf(buf, cap, "exit %d", p->status);
}

static const char *fork_kind(u32 kind) {
  return kind == 0 ? "fork" : kind == 1 ? "vfork" : "clone";
}

int trace_report_ps(FILE *out, trace_reader *r, int json,
                    struct rw_diag *diag) {
  struct trace_proc *v;
  size_t n;
  char end[32], events[48];
  int rc = trace_procs(r, &v, &n, diag);
  if (rc < 0) return rc;
  if (!json)
    fprintf(out, "%-8s %-8s %-10s %-17s %-7s %s\n", "PID", "PPID", "END",
            "EVENTS", "THREADS", "COMMAND");
  for (size_t i = 0; i < n; i++) {
    const struct trace_proc *p = &v[i];
    how_ended(p, end, sizeof end);
    if (json) {
      fprintf(out, "{\"pid\":%u,\"ppid\":", p->pid);
      if (p->ppid)
        fprintf(out, "%u", p->ppid);
      else
        fputs("null", out);
      fprintf(out, ",\"recorded\":%s", p->recorded ? "true" : "false");
      if (p->ppid)
        fprintf(out, ",\"created_by\":\"%s\"", fork_kind(p->kind));
      fputs(",\"end\":", out);
      if (p->recorded && p->ended == 2)
        fputs("\"detached\"", out);
      else if (p->recorded && p->ended && p->signo)
        fprintf(out, "{\"signal\":%u}", p->signo);
      else if (p->recorded && p->ended)
        fprintf(out, "{\"exit\":%d}", p->status);
      else
        fputs("null", out);
      fprintf(out, ",\"first_event\":%llu,\"last_event\":%llu",
              (unsigned long long)p->first_seq,
              (unsigned long long)p->last_seq);
      fprintf(out, ",\"threads\":%u,\"images\":%u,\"command\":",
              p->nthreads, p->nexec);
      if (p->command)
        trace__json_str(out, p->command, strlen(p->command));
      else
        fputs("null", out);
      fputs(",\"exe\":", out);
      if (p->exe)
        trace__json_str(out, p->exe, strlen(p->exe));
      else
        fputs("null", out);
      fputs("}\n", out);
      continue;
    }
    if (p->recorded)
      snprintf(events, sizeof events, "%llu-%llu",
               (unsigned long long)p->first_seq,
               (unsigned long long)p->last_seq);
    else
      snprintf(events, sizeof events, "%llu",
               (unsigned long long)p->first_seq);
    char ppid[16] = "-";
    if (p->ppid) snprintf(ppid, sizeof ppid, "%u", p->ppid);
    fprintf(out, "%-8u %-8s %-10s %-17s ", p->pid, ppid, end, events);
    if (p->recorded)
      fprintf(out, "%-7u %s", p->nthreads,
              p->command ? p->command : p->exe ? p->exe : "?");
    else
      fprintf(out, "%-7s (%s, not recorded)", "-", fork_kind(p->kind));
    /* An image other than the command's: the program it became (a
     * child's column shows its image already). */
    if (p->recorded && p->command && p->nexec > 1 && p->exe)
      fprintf(out, " -> %s", p->exe);
    fputc('\n', out);
  }
  trace_procs_free(v, n);
  if (ferror(out)) return RW_ERR(EIO);
  return rc;
}
