/* SPDX-License-Identifier: MIT */
/* gdb's `monitor` commands (qRcmd): `when` tells the current position in
 * the history, `goto N` moves to global instruction N, `stack` shows the
 * shadow call stack of gdb's thread, `calls F` lists the calls of
 * function F, `rep` the rep string instructions, `counts [F]` how often
 * each instruction (of F) ran, `accesses ADDR [LEN]` the reads and writes
 * to a range, `mark SPEC...` what marked instructions did, `break-rep`
 * sets rep stops, `help` lists them.
 * The output goes back as the hex text gdb prints; gdb does not know that
 * `goto` moved the program, so the reply says how to make it re-read. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/serve_int.h"

/* Instructions run between two keep-alive packets of `monitor goto`
 * (a fraction of a second). */
#define GOTO_SLICE 40000000ull

/* Most text a monitor reply holds (in hex, twice that): more goes ahead
 * of it in 'O' packets, which gdb prints as they come. */
#define MON_REPLY_TEXT 4096

static void out(struct gdb__sess *s, const char *text) {
  size_t n = strlen(text);
  while (n) {
    if (s->reply.len / 2 + RW_MIN(n, (size_t)MON_REPLY_TEXT) >
        MON_REPLY_TEXT) {
      /* The text so far goes ahead (it is hex already). */
      if (gdb__console_hex(s, s->reply.data, s->reply.len) < 0)
        return; /* gdb is gone: the reply fails too */
      gdb_buf_reset(&s->reply);
    }
    size_t k = RW_MIN(n, (size_t)MON_REPLY_TEXT);
    gdb_buf_put_hex(&s->reply, text, k);
    text += k;
    n -= k;
  }
}

static void where(struct gdb__sess *s, char *buf, size_t cap) {
  u64 end = rp_end_icount(s->rp);
  char tail[96] = "";
  if (end)
    snprintf(tail, sizeof tail, " (the history ends at instruction %" PRIu64
             ")", end);
  snprintf(buf, cap,
           "instruction %" PRIu64 ", event %" PRIu64 ", thread %u%s\n",
           rp_icount(s->rp), rp_event(s->rp), rp_current_tid(s->rp), tail);
}

static int go(struct gdb__sess *s, const char *arg) {
  char *end, buf[1024], pos[200];
  while (*arg == ' ') arg++;
  u64 n = strtoull(arg, &end, 0);
  while (*end == ' ') end++;
  if (!*arg || *end || *arg == '-') {
    out(s, "usage: monitor goto N (a global instruction count, as "
           "`monitor when` prints)\n");
    return 0;
  }
  struct rp_stop st;
  /* gdb gives up on a reply after a few seconds: move in slices and send
   * an empty console packet after each, which restarts its timer. */
  u64 at = rp_icount(s->rp);
  int stopped = 0;
  memset(&st, 0, sizeof st);
  for (u64 x = at + GOTO_SLICE; n > at && x < n; x += GOTO_SLICE) {
    /* gdb sends no ^C for a monitor command: its user's ^C makes it
     * give up on the reply and go on with its next packet (or hang up).
     * Either ends the move where it is. */
    if (gdb__poll(s) || s->new_packet) {
      st.reason = RP_STOP_INTERRUPTED;
      stopped = 1;
      break;
    }
    RW_FORWARD(rp_seek(s->rp, x, &st));
    if (st.reason != RP_STOP_TARGET) {
      stopped = st.reason != RP_STOP_END && st.reason != RP_STOP_BEGIN;
      break;
    }
    RW_FORWARD(gdb__send(s, "O", 1));
  }
  if (!stopped) RW_FORWARD(rp_seek(s->rp, n, &st));
  s->last = st;
  s->fork_tid = 0;
  if (st.reason == RP_STOP_TARGET) s->last.reason = RP_STOP_TARGET;
  /* gdb does not know the replay moved: its thread stays selected while
   * it is alive here. */
  u32 was = s->g_tid;
  s->g_tid = gdb__sel_thread(s);
  s->g_pid = 0;
  s->g_dead = 0;
  where(s, pos, sizeof pos);
  if (st.reason == RP_STOP_INTERRUPTED && s->new_packet) {
    s->drop_reply = 1; /* gdb waits for its new packet's reply instead */
    if (!s->opts.quiet)
      fprintf(stderr, "rewind: monitor goto interrupted; now at %s", pos);
    return 0;
  }
  if (st.reason == RP_STOP_INTERRUPTED)
    snprintf(buf, sizeof buf, "interrupted; now at %s", pos);
  else if (st.reason == RP_STOP_DIVERGED || st.reason == RP_STOP_FAILED)
    snprintf(buf, sizeof buf, "the replay stopped early: %s\nnow at %s",
             st.msg, pos);
  else
    snprintf(buf, sizeof buf, "%snow at %s",
             st.reason == RP_STOP_END && rp_icount(s->rp) < n
                 ? "the history ends before that; "
                 : "",
             pos);
  out(s, buf);
  if (was && s->g_tid != was) {
    snprintf(buf, sizeof buf,
             "thread %u does not exist here; `info threads` lists those "
             "that do, `thread N` selects one\n",
             was);
    out(s, buf);
  }
  struct rp_image im;
  if (gdb__image_moved(s, &im)) {
    /* The move passed an exec: gdb still has the other program's file
     * and symbols, and loads this one when told. */
    snprintf(buf, sizeof buf,
             "process %u runs %s here, another program than gdb has "
             "loaded; `file target:%s` loads its symbols\n",
             im.pid, im.path, im.path);
    out(s, buf);
  }
  /* gdb keeps the registers it read before the move; `rewind replay`
   * (and `rewind gdbinit`) install a hook that drops them. */
  out(s, "`frame` shows it (in a gdb without `rewind gdbinit`'s commands, "
         "run `flushregs` first)\n");
  return 0;
}

/* Keeps gdb waiting for the reply of a long monitor command: an empty
 * console packet restarts its timer (2 s by default), sent when gdb has
 * heard nothing for a quarter of a second. */
static void keep_alive(void *ctx) {
  struct gdb__sess *s = ctx;
  u64 now = rw_now_ns();
  if (now - s->alive_ns < 250000000ull) return;
  s->alive_ns = now;
  if (gdb__console(s, "") < 0) return; /* the reply will fail too */
}

/* `monitor stack`: the shadow call stack of gdb's thread. */
static int stack(struct gdb__sess *s) {
  char *text = NULL;
  u32 tid = s->g_tid ? s->g_tid : rp_current_tid(s->rp);
  int rc = rp_shadow_text(s->rp, tid, keep_alive, s, &text);
  if (rc == RW_ENOTFOUND) {
    out(s, "no call stack: the selected thread does not run here\n");
    return 0;
  }
  if (rc < 0) {
    char buf[200];
    snprintf(buf, sizeof buf, "no call stack: %s\n", rw_strerror(rc));
    out(s, buf);
    return 0;
  }
  out(s, text);
  free(text);
  return 0;
}

/* `monitor branches [N]`: the last N taken branches of gdb's thread. */
static int branches(struct gdb__sess *s, const char *arg) {
  char *end, *text = NULL, line[200];
  while (*arg == ' ') arg++;
  u64 n = *arg ? strtoull(arg, &end, 0) : 16;
  if (*arg) while (*end == ' ') end++;
  if ((*arg && (end == arg || *end)) || !n || n > RP_RING_MAX) {
    snprintf(line, sizeof line, "usage: monitor branches [N] (1 to %u; "
             "default 16)\n", RP_RING_MAX);
    out(s, line);
    return 0;
  }
  u32 tid = s->g_tid ? s->g_tid : rp_current_tid(s->rp);
  int rc = rp_branches_text(s->rp, tid, (size_t)n, keep_alive, s, &text);
  if (rc < 0) {
    snprintf(line, sizeof line, "no branches: %s\n",
             rc == RW_ENOTFOUND ? "the selected thread does not run here"
                                : rw_strerror(rc));
    out(s, line);
    return 0;
  }
  out(s, text);
  free(text);
  return 0;
}

/* Appends the N bytes at P in hex. */
static void put_bytes(char *buf, size_t cap, const u8 *p, u32 n) {
  size_t k = strlen(buf);
  for (u32 i = 0; i < n && k + 4 < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%02x", i ? " " : "", p[i]);
}

/* `monitor last-write|next-write|last-read|next-read ADDR [LEN]`: the
 * previous or next access to a range, as a watchpoint would find it. */
static int access(struct gdb__sess *s, int backwards, int kind,
                  const char *arg) {
  char *end, line[1200];
  const char *what = kind == 2 ? "write" : "read";
  u64 addr = strtoull(arg, &end, 0), len = 1;
  if (end != arg && *end == ' ') len = strtoull(end, &end, 0);
  while (*end == ' ') end++;
  if (end == arg || *end || !len || len > (1ull << 30)) {
    snprintf(line, sizeof line,
             "usage: monitor %s-%s ADDR [LEN] (numbers: 0x... or decimal; "
             "for a variable: eval \"monitor %s-%s %%p 8\", &var)\n",
             backwards ? "last" : "next", what, backwards ? "last" : "next",
             what);
    out(s, line);
    return 0;
  }
  struct rp_access a;
  int rc = rp_access_find(s->rp, backwards, kind, addr, len, &a);
  if (rc < 0) {
    snprintf(line, sizeof line, "no answer: %s\n", rw_strerror(rc));
    out(s, line);
    return 0;
  }
  if (!a.found) {
    snprintf(line, sizeof line, "no %s of [%#" PRIx64 ", +%" PRIu64 ") %s "
             "here%s\n", what, addr, len, backwards ? "before" : "after",
             a.broken ? " (the replay cannot go past a divergence)" : "");
    out(s, line);
    return 0;
  }
  snprintf(line, sizeof line,
           "%s %s of [%#" PRIx64 ", +%" PRIu64 "): %u byte%s from %#" PRIx64
           ", thread %u, at instruction %" PRIu64 " (monitor goto %" PRIu64
           " stops just before it)\n",
           backwards ? "previous" : "next", what, addr, len, a.access_size,
           a.access_size == 1 ? "" : "s", a.access_addr, a.tid, a.icount,
           a.icount);
  out(s, line);
  if (a.by_kernel) {
    snprintf(line, sizeof line,
             "  by the kernel (a syscall's output, a signal frame); the "
             "thread was at %s\n",
             a.insn);
  } else {
    snprintf(line, sizeof line, "  by %s\n", a.insn[0] ? a.insn : "?");
  }
  out(s, line);
  snprintf(line, sizeof line, "  before: ");
  if (a.before_ok)
    put_bytes(line, sizeof line, a.before, a.size);
  else
    strcat(line, "(not mapped)");
  strcat(line, "  after: ");
  if (a.after_ok)
    put_bytes(line, sizeof line, a.after, a.size);
  else
    strcat(line, "(not mapped)");
  strcat(line, "\n");
  out(s, line);
  return 0;
}

/* Most calls `monitor calls` lists. */
#define CALLS_SHOWN 40

/* `monitor calls NAME`: the calls of function NAME over the history. */
static int calls(struct gdb__sess *s, const char *name) {
  char line[600];
  while (*name == ' ') name++;
  if (!*name || strchr(name, ' ')) {
    out(s, "usage: monitor calls FUNCTION (its calls over the whole "
           "history; rewind analyze calls lists them all)\n");
    return 0;
  }
  rp_calls *list;
  int rc = rp_calls_whole(s->rp, name, CALLS_SHOWN, keep_alive, s, &list);
  if (rc < 0) {
    snprintf(line, sizeof line, "no call history: %s\n", rw_strerror(rc));
    out(s, line);
    return 0;
  }
  u64 more;
  size_t n = rp_calls_count(list, &more);
  u64 here = rp_icount(s->rp);
  for (size_t i = 0; i < n; i++) {
    const struct rp_call *k = rp_calls_get(list, i);
    int now = k->start <= here && here < k->end;
    char result[48] = " (did not return)";
    if (k->returned)
      snprintf(result, sizeof result, " = %#" PRIx64, k->ret);
    snprintf(line, sizeof line,
             "%c %" PRIu64 "-%" PRIu64 " thread %u: %s(%#" PRIx64 ", %#" PRIx64
             ", %#" PRIx64 ", ...)%s, from %s\n",
             now ? '*' : ' ', k->start, k->end, k->tid, k->fn, k->args[0],
             k->args[1], k->args[2], result,
             k->caller ? k->caller : "the thread's start");
    out(s, line);
  }
  if (!n) {
    snprintf(line, sizeof line, "no call of %.200s in the history\n", name);
    out(s, line);
  } else {
    snprintf(line, sizeof line,
             "%zu call%s%s; `monitor goto START` goes to one (* marks a call "
             "in progress here)\n",
             n, n == 1 ? "" : "s", more ? " shown, and more after them" : "");
    out(s, line);
  }
  rp_calls_free(list);
  return 0;
}

/* Sends what WRITE writes of OBJ (TOP rows, as text), or "no WHAT: why". */
static void send_written(struct gdb__sess *s, const char *what,
                         int (*write)(const void *obj, FILE *f, size_t top),
                         const void *obj, size_t top) {
  char *text = NULL, line[200];
  size_t n = 0;
  FILE *f = open_memstream(&text, &n);
  int rc = f ? write(obj, f, top) : RW_ENOMEM;
  if (f) fclose(f);
  if (rc < 0) {
    snprintf(line, sizeof line, "no %s: %s\n", what, rw_strerror(rc));
    out(s, line);
  } else {
    out(s, text);
  }
  free(text);
}

static int write_reps(const void *p, FILE *f, size_t top) {
  return rp_profile_reps(p, f, top, 0);
}

static int write_counts(const void *c, FILE *f, size_t top) {
  return rp_counts_write(c, f, top, 0);
}

/* `monitor rep [N]`: the N (10) rep string instructions with the most
 * iterations over the history. */
static int reps(struct gdb__sess *s, const char *arg) {
  char line[200], *end = NULL;
  while (*arg == ' ') arg++;
  unsigned long long top = *arg ? strtoull(arg, &end, 10) : 10;
  if (end && (*end || !top)) {
    out(s, "usage: monitor rep [N] (the N rep string instructions with the "
           "most iterations over the whole history; rewind analyze rep "
           "lists them all)\n");
    return 0;
  }
  rp_profile *p;
  int rc = rp_reps_whole(s->rp, keep_alive, s, &p);
  if (rc < 0) {
    snprintf(line, sizeof line, "no rep list: %s\n", rw_strerror(rc));
    out(s, line);
    return 0;
  }
  send_written(s, "rep list", write_reps, p, (size_t)top);
  rp_profile_free(p);
  return 0;
}

/* `monitor counts [FUNCTION|FILE:N[-M]]`: how often each instruction of
 * FUNCTION or of those source lines ran over the whole history, in
 * address order; without one, the 10 that ran most. */
static int counts(struct gdb__sess *s, const char *arg) {
  char line[400], name[256], file[256];
  while (*arg == ' ') arg++;
  size_t k = strcspn(arg, " ");
  struct rp_count_opts o = {0};
  int ok = k < sizeof name && !arg[k + strspn(arg + k, " ")];
  if (ok) {
    memcpy(name, arg, k);
    name[k] = 0;
    o.function = k ? name : NULL;
  }
  /* FILE:N, FILE:N-M: source lines (no function name has a colon and a
   * digit after it; C++ ones have "::"). */
  const char *colon = ok ? strrchr(name, ':') : NULL;
  if (colon && colon > name && colon[-1] != ':' && colon[1] >= '0' &&
      colon[1] <= '9') {
    ok = rp_lines_parse(name, file, sizeof file, &o.line_lo, &o.line_hi) == 0;
    o.function = NULL;
    o.src_file = file;
  }
  if (!ok) {
    out(s, "usage: monitor counts [FUNCTION|FILE:N[-M]] (how often each "
           "instruction of FUNCTION or of those source lines ran over the "
           "whole history; without one, the 10 that ran most; rewind "
           "analyze counts has more)\n");
    return 0;
  }
  rp_counts *c;
  int rc = rp_counts_whole(s->rp, &o, keep_alive, s, &c);
  if (rc < 0) {
    snprintf(line, sizeof line, "no counts: %s\n", rw_strerror(rc));
    out(s, line);
    return 0;
  }
  if (o.src_file && !rp_counts_src_seen(c)) {
    snprintf(line, sizeof line, "no code that ran comes from a source file "
             "'%s' (or its program has no line tables: build it with -g)\n",
             file);
    out(s, line);
    rp_counts_free(c);
    return 0;
  }
  send_written(s, "counts", write_counts, c, 10);
  rp_counts_free(c);
  return 0;
}

static int write_data(const void *d, FILE *f, size_t top) {
  return rp_data_write(d, f, top, 0, 0);
}

/* `monitor accesses ADDR [LEN]`: the reads and writes instructions made
 * to the range over the whole history, by 8-byte granule, and the 10
 * instructions that made the most. */
static int accesses(struct gdb__sess *s, const char *arg) {
  char line[200], *end;
  struct rp_data_opts o = {.len = 8, .granule = 8};
  while (*arg == ' ') arg++;
  o.addr = strtoull(arg, &end, 0);
  int ok = end != arg;
  while (ok && *end == ' ') end++;
  if (ok && *end) {
    const char *l = end;
    o.len = strtoull(l, &end, 0);
    ok = end != l && !*end;
  }
  if (!ok || !o.len || o.len > (u64)RP_DATA_GRANULES * 8 ||
      o.addr + o.len < o.addr) {
    out(s, "usage: monitor accesses ADDR [LEN] (the reads and writes "
           "instructions made to the LEN (8; at most 8 MiB) bytes at ADDR "
           "over the whole history; rewind analyze accesses has more)\n");
    return 0;
  }
  rp_data *d;
  int rc = rp_data_whole(s->rp, &o, keep_alive, s, &d);
  if (rc < 0) {
    snprintf(line, sizeof line, "no accesses: %s\n", rw_strerror(rc));
    out(s, line);
    return 0;
  }
  send_written(s, "accesses", write_data, d, 10);
  rp_data_free(d);
  return 0;
}

static int write_marks(const void *c, FILE *f, size_t top) {
  (void)top;
  return rp_counts_marks(c, f, 0);
}

/* `monitor mark list`, `monitor mark delete [N]`: the stop marks. */
static int stop_marks(struct gdb__sess *s, const char *arg) {
  char text[4096], *end;
  if (!strcmp(arg, "list")) {
    gdb__smark_list(s, text, sizeof text);
    out(s, text[0] ? text : "no stop marks\n");
    return 0;
  }
  arg += 6; /* "delete" */
  while (*arg == ' ') arg++;
  unsigned long n = *arg ? strtoul(arg, &end, 10) : 0;
  if (*arg && (*end || !n || n > 0xffffffffu)) {
    out(s, "usage: monitor mark delete [N] (stop mark N, or all)\n");
    return 0;
  }
  int rc = gdb__smark_del(s, (u32)n);
  if (rc == RW_ENOTFOUND)
    snprintf(text, sizeof text, "no stop mark %lu (monitor mark list)\n", n);
  else if (rc < 0)
    snprintf(text, sizeof text, "not deleted: %s\n", rw_strerror(rc));
  else if (n)
    snprintf(text, sizeof text, "stop mark %lu deleted\n", n);
  else
    snprintf(text, sizeof text, "all stop marks deleted\n");
  out(s, text);
  return 0;
}

/* Sets stop mark M (its flags: stop alone) in the process gdb looks at,
 * and says so or why not into LINE (CAP bytes). */
static void stop_mark(struct gdb__sess *s, const struct rp_mark *m,
                      char *line, size_t cap) {
  u64 lo, hi;
  u32 num;
  int rc = m->flags != RP_MARK_STOP || m->every ? RW_EINVAL : 0;
  if (rc < 0) {
    snprintf(line, cap, "mark '%s': stop takes no other flag\n", m->text);
    return;
  }
  if (!s->view_ok) rc = RW_ENOTFOUND;
  if (rc == 0) rc = rp_mark_where(s->rp, m, &lo, &hi);
  if (rc == RW_ENOTFOUND) {
    snprintf(line, cap, "mark '%s': no such function or file in this "
             "process here\n", m->text);
    return;
  }
  if (rc == 0) rc = gdb__smark_add(s, lo, hi, m->text, &num);
  if (rc == RW_EINVAL)
    snprintf(line, cap, "mark '%s': a stop mark covers 1 to %u bytes\n",
             m->text, GDB_SMARK_BYTES);
  else if (rc < 0)
    snprintf(line, cap, "mark '%s': %s\n", m->text, rw_strerror(rc));
  else
    snprintf(line, cap, "stop mark %u: %s, [%#llx, %#llx): continue and "
             "reverse-continue stop where an instruction there is about to "
             "run (monitor mark delete %u removes it)\n", num, m->text,
             (unsigned long long)lo, (unsigned long long)hi, num);
}

/* `monitor mark SPEC...`: what marked instructions did over the whole
 * history: executions, call paths, counting windows; a mark with the stop
 * flag is set instead, for continue and reverse-continue. */
static int marks(struct gdb__sess *s, const char *arg) {
  struct rp_mark v[16];
  char word[512], err[300];
  size_t n = 0;
  int rc = 0;
  while (*arg == ' ') arg++;
  if (!strcmp(arg, "list") ||
      (!strncmp(arg, "delete", 6) && (arg[6] == ' ' || !arg[6])))
    return stop_marks(s, arg);
  for (const char *p = arg;; ) {
    while (*p == ' ') p++;
    size_t k = strcspn(p, " ");
    if (!k) break;
    if (n == 16 || k >= sizeof word) {
      snprintf(err, sizeof err, "at most 16 marks of 511 bytes");
      rc = RW_EINVAL;
      break;
    }
    memcpy(word, p, k);
    word[k] = 0;
    rc = rp_mark_parse(word, &v[n], err, sizeof err);
    if (rc < 0) break;
    n++;
    p += k;
  }
  if (rc == RW_ENOMEM) snprintf(err, sizeof err, "%s", rw_strerror(rc));
  if (rc < 0 || !n) {
    char line[500];
    snprintf(line, sizeof line, "%s%susage: monitor mark SPEC... (SPEC: "
             "FUNCTION[+OFF], FILE@VADDR[+LEN] or 0xADDR[+LEN], then "
             ":count, stack, every=N, start, end or stop; see "
             "rewind-analyze(1)); monitor mark list|delete [N]\n",
             rc < 0 ? err : "", rc < 0 ? "\n" : "");
    out(s, line);
  } else {
    /* Stop marks are set; the others counted over the history. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      if (!(v[i].flags & RP_MARK_STOP)) {
        struct rp_mark keep = v[k];
        v[k++] = v[i];
        v[i] = keep;
        continue;
      }
      char line[600];
      stop_mark(s, &v[i], line, sizeof line);
      out(s, line);
    }
    struct rp_count_opts o = {.marks = v, .nmarks = k};
    rp_counts *c;
    rc = k ? rp_counts_whole(s->rp, &o, keep_alive, s, &c) : 0;
    if (rc < 0) {
      snprintf(err, sizeof err, "no marks: %s\n", rw_strerror(rc));
      out(s, err);
    } else if (k) {
      send_written(s, "marks", write_marks, c, 0);
      rp_counts_free(c);
    }
  }
  for (size_t i = 0; i < n; i++) free((char *)v[i].text);
  return 0;
}

/* `monitor break-rep start|end|off`: continue and reverse-continue also
 * stop where a rep string instruction starts, or where one ends. */
static int break_rep(struct gdb__sess *s, const char *arg) {
  static const char *const said[] = {
      "rep stops are off\n",
      "continue and reverse-continue now also stop where a rep string "
      "instruction is about to start (before its first iteration); "
      "`monitor break-rep off` ends it\n",
      "continue and reverse-continue now also stop where a rep string "
      "instruction has ended (after its last iteration); `monitor break-rep "
      "off` ends it\n"};
  while (*arg == ' ') arg++;
  int mode = !strcmp(arg, "start") ? RP_REP_START
             : !strcmp(arg, "end") ? RP_REP_END
             : !strcmp(arg, "off") ? 0
                                   : -1;
  if (!*arg) {
    out(s, said[rp_rep_stops(s->rp)]);
    return 0;
  }
  if (mode < 0 || rp_set_rep_stops(s->rp, mode) < 0) {
    out(s, "usage: monitor break-rep start|end|off (stop at the start or "
           "the end of every rep string instruction, in either direction)\n");
    return 0;
  }
  out(s, said[mode]);
  return 0;
}

int gdb__monitor(struct gdb__sess *s) {
  const char *cmd = s->req.text;
  char buf[300];
  while (*cmd == ' ') cmd++;
  if (!strcmp(cmd, "when")) {
    where(s, buf, sizeof buf);
    out(s, "at ");
    out(s, buf);
  } else if (!strncmp(cmd, "goto", 4) && (cmd[4] == ' ' || !cmd[4])) {
    return go(s, cmd + 4);
  } else if (!strcmp(cmd, "stack")) {
    return stack(s);
  } else if (!strncmp(cmd, "branches", 8) && (cmd[8] == ' ' || !cmd[8])) {
    return branches(s, cmd + 8);
  } else if (!strncmp(cmd, "calls", 5) && (cmd[5] == ' ' || !cmd[5])) {
    return calls(s, cmd + 5);
  } else if (!strncmp(cmd, "rep", 3) && (cmd[3] == ' ' || !cmd[3])) {
    return reps(s, cmd + 3);
  } else if (!strncmp(cmd, "counts", 6) && (cmd[6] == ' ' || !cmd[6])) {
    return counts(s, cmd + 6);
  } else if (!strncmp(cmd, "accesses", 8) && (cmd[8] == ' ' || !cmd[8])) {
    return accesses(s, cmd + 8);
  } else if (!strncmp(cmd, "mark", 4) && (cmd[4] == ' ' || !cmd[4])) {
    return marks(s, cmd + 4);
  } else if (!strncmp(cmd, "break-rep", 9) && (cmd[9] == ' ' || !cmd[9])) {
    return break_rep(s, cmd + 9);
  } else if (!strncmp(cmd, "last-write ", 11) || !strcmp(cmd, "last-write")) {
    return access(s, 1, 2, cmd + 10 + (cmd[10] == ' '));
  } else if (!strncmp(cmd, "next-write ", 11) || !strcmp(cmd, "next-write")) {
    return access(s, 0, 2, cmd + 10 + (cmd[10] == ' '));
  } else if (!strncmp(cmd, "last-read ", 10) || !strcmp(cmd, "last-read")) {
    return access(s, 1, 1, cmd + 9 + (cmd[9] == ' '));
  } else if (!strncmp(cmd, "next-read ", 10) || !strcmp(cmd, "next-read")) {
    return access(s, 0, 1, cmd + 9 + (cmd[9] == ' '));
  } else if (!strcmp(cmd, "help") || !*cmd) {
    out(s, "rewind monitor commands:\n"
           "  monitor when     show the position in the history: global "
           "instruction count, event number, thread\n"
           "  monitor goto N   move to global instruction N (0 is the "
           "program's first instruction)\n"
           "  monitor stack    the call stack of the selected thread from "
           "its calls and returns (no\n"
           "                   unwinding: right where gdb's bt is lost; "
           "replays the history up to here)\n"
           "  monitor branches [N]  the last N (16) taken branches of the "
           "selected thread: calls,\n"
           "                   returns, jumps (replays the history up to "
           "here)\n"
           "  monitor calls F  the calls of function F over the history: "
           "positions, arguments,\n"
           "                   results (replays the whole history)\n"
           "  monitor rep [N]  the N (10) rep string instructions with the "
           "most iterations: executions,\n"
           "                   iterations asked for and done, early ends "
           "(replays the whole history)\n"
           "  monitor counts [F]  how often each instruction of function F "
           "(or of source\n"
           "                   lines FILE:N[-M]) ran, with its disassembly; "
           "without F, the 10\n"
           "                   that ran most (replays the whole history)\n"
           "  monitor accesses ADDR [LEN]  the reads and writes instructions "
           "made to the range,\n"
           "                   by granule and by instruction (replays the "
           "whole history)\n"
           "  monitor break-rep start|end|off  continue and reverse-continue "
           "also stop at the\n"
           "                   start or the end of every rep string "
           "instruction\n"
           "  monitor mark SPEC...  what marked instructions did: executions, "
           "call paths\n"
           "                   (SPEC:stack), counting windows (:start, :end) "
           "(replays the whole history);\n"
           "                   SPEC:stop sets a stop mark instead: continue "
           "and reverse-continue\n"
           "                   stop at any instruction in it "
           "(monitor mark list|delete [N])\n"
           "  monitor last-write ADDR [LEN]   the previous write to the "
           "range (an instruction's or\n"
           "                   the kernel's): where, which thread and "
           "instruction, the bytes\n"
           "                   before and after; also next-write, "
           "last-read, next-read\n"
           "  monitor help     this list\n");
  } else {
    snprintf(buf, sizeof buf,
             "unknown monitor command '%.60s'; try `monitor help`\n", cmd);
    out(s, buf);
  }
  return 0;
}
