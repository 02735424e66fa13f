/* SPDX-License-Identifier: MIT */
/* The breakpoints and watchpoints gdb sets (Z0-Z4, z0-z4), kept both here
 * and in the replayer, and the stop replies that report where a move ended:
 * in which thread, with its registers, and why (swbreak, hwbreak, watch,
 * rwatch, awatch, replaylog:begin and replaylog:end at either end of the
 * history). */
#define _GNU_SOURCE /* sigabbrev_np */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/serve_int.h"

/* gdb signal numbers (not the host's). */
enum { GDB_SIGINT = 2, GDB_SIGTRAP = 5 };

/* The watchpoint gdb set that an access of KIND to [ADDR, ADDR+SIZE)
 * matches, and the address inside it to report. */
static const struct gdb__bp *find_watch(struct gdb__sess *s, u64 addr,
                                        u32 size, int kind, u64 *at) {
  const struct gdb__bp *best = NULL;
  u64 end = addr + (size ? size : 1);
  u32 pid = rp_view_pid(s->rp); /* the stopped thread's process */
  for (size_t i = 0; i < s->nbps; i++) {
    const struct gdb__bp *b = &s->bps[i];
    if (b->type < GDB_BP_WRITE || b->addr >= end ||
        addr >= b->addr + b->len || b->pid != pid)
      continue;
    int exact = (kind == 2 && b->type == GDB_BP_WRITE) ||
                (kind == 1 && b->type == GDB_BP_READ);
    int fits = exact || b->type == GDB_BP_ACCESS;
    if (!fits) continue;
    if (!best || exact) best = b;
  }
  if (best) *at = addr > best->addr ? addr : best->addr;
  return best;
}

/* The stop mark holding ADDR in process PID, or NULL. */
static const struct gdb__smark *smark_at(const struct gdb__sess *s, u64 addr,
                                         u32 pid) {
  for (size_t i = 0; i < s->nsmarks; i++)
    if (s->smarks[i].pid == pid && s->smarks[i].lo <= addr &&
        addr < s->smarks[i].hi)
      return &s->smarks[i];
  return NULL;
}

int gdb__bp_at(const struct gdb__sess *s, u64 addr, u32 pid) {
  for (size_t i = 0; i < s->nbps; i++)
    if (s->bps[i].type <= GDB_BP_HARD && s->bps[i].addr == addr &&
        s->bps[i].pid == pid)
      return 1;
  return 0;
}

static int is_hw_break(struct gdb__sess *s, u64 addr) {
  int hw = 0;
  u32 pid = rp_view_pid(s->rp);
  for (size_t i = 0; i < s->nbps; i++) {
    if (s->bps[i].addr != addr || s->bps[i].pid != pid) continue;
    if (s->bps[i].type == GDB_BP_SOFT) return 0;
    if (s->bps[i].type == GDB_BP_HARD) hw = 1;
  }
  return hw;
}

/* gdb's number for Linux signal SIG (gdb's own enumeration, which agrees
 * with Linux only for the classic ones), or 0 when it has none here. The
 * real-time signals from 34 (glibc's SIGRTMIN) have theirs (gdb's
 * REALTIME_33 is 45, REALTIME_64 is 78); 32 and 33 are glibc's own
 * (thread cancellation, setxid), which gdb never shows on Linux. */
static u8 gdb_signal(int sig) {
  static const u8 map[] = {
      [1] = 1,   [2] = 2,   [3] = 3,   [4] = 4,   [5] = 5,   [6] = 6,
      [7] = 10,  [8] = 8,   [9] = 9,   [10] = 30, [11] = 11, [12] = 31,
      [13] = 13, [14] = 14, [15] = 15, [17] = 20, [18] = 19, [19] = 17,
      [20] = 18, [21] = 21, [22] = 22, [23] = 16, [24] = 24, [25] = 25,
      [26] = 26, [27] = 27, [28] = 28, [29] = 23, [30] = 32, [31] = 12};
  if (sig >= 34 && sig <= 63) return (u8)(sig + 12);
  if (sig == 64) return 78;
  return sig > 0 && (size_t)sig < sizeof map ? map[sig] : 0;
}

u64 gdb__signals_passed(const u8 *set, size_t nbits) {
  u64 m = 0;
  for (int sig = 1; sig <= 64; sig++) {
    unsigned g = gdb_signal(sig);
    if (!g || (set && g < nbits && (set[g / 8] >> (g % 8) & 1)))
      m |= 1ull << (sig - 1);
  }
  return m;
}

/* Makes G an exec event when the program image here is not the one gdb
 * has (the process exec'd; with exec-events, going forwards), so that gdb
 * loads it: its symbols, its breakpoints' new addresses. */
int gdb__pid_known(struct gdb__sess *s, u32 pid) {
  for (size_t i = 0; i < s->nimgs; i++)
    if (s->imgs[i].pid == pid) return 1;
  return 0;
}

/* Notes that gdb has process PID with image SEQ; returns its slot, or -1
 * when out of memory. */
static long img_note(struct gdb__sess *s, u32 pid, u64 seq) {
  for (size_t i = 0; i < s->nimgs; i++)
    if (s->imgs[i].pid == pid) return (long)i;
  if (s->nimgs == s->capimgs) {
    size_t cap = s->capimgs ? 2 * s->capimgs : 8;
    void *v = realloc(s->imgs, cap * sizeof *s->imgs);
    if (!v) return -1;
    s->imgs = v;
    s->capimgs = cap;
  }
  s->imgs[s->nimgs].pid = pid;
  s->imgs[s->nimgs].seq = seq;
  return (long)s->nimgs++;
}

u64 gdb__pid_image(struct gdb__sess *s, u32 pid) {
  for (size_t i = 0; i < s->nimgs; i++)
    if (s->imgs[i].pid == pid) return s->imgs[i].seq;
  return 0;
}

void gdb__pid_image_set(struct gdb__sess *s, u32 pid, u64 seq) {
  long i = img_note(s, pid, seq);
  if (i >= 0) s->imgs[i].seq = seq;
}

void gdb__pid_add(struct gdb__sess *s, u32 pid) {
  struct rp_image im;
  if (!s->opts.tree || gdb__pid_known(s, pid)) return;
  /* Its program as gdb has it: the one it runs now (a forked child's
   * parent's). */
  if (rp_set_view(s->rp, pid) >= 0 && rp_get_image(s->rp, &im) == 0)
    img_note(s, pid, im.seq);
  else
    img_note(s, pid, 0);
  gdb__view_sync(s);
}

int gdb__image_moved(struct gdb__sess *s, struct rp_image *im) {
  if (rp_get_image(s->rp, im) < 0 || !im->path) return 0;
  if (s->opts.tree) {
    if (!gdb__pid_known(s, im->pid)) return 0;
    long i = img_note(s, im->pid, im->seq);
    if (i < 0 || s->imgs[i].seq == im->seq) return 0;
    s->imgs[i].seq = im->seq;
    return 1;
  }
  if (!s->img_known || (im->seq == s->img_seq && im->pid == s->img_pid))
    return 0;
  s->img_seq = im->seq;
  s->img_pid = im->pid;
  return 1;
}

static void exec_event(struct gdb__sess *s, const struct rp_stop *st,
                       struct gdb_stop *g) {
  struct rp_image im;
  if (rp_get_image(s->rp, &im) < 0 || !im.path) return;
  if (s->opts.tree) { /* what gdb has of each process it knows */
    if (!gdb__pid_known(s, im.pid)) return;
    long i = img_note(s, im.pid, im.seq);
    if (i < 0) return;
    if (s->imgs[i].seq == im.seq && st->reason != RP_STOP_EXEC) return;
    if (!(s->features & GDB_FEAT_EXEC_EVENTS) ||
        (st->reason != RP_STOP_EXEC && st->reason != RP_STOP_TARGET &&
         st->reason != RP_STOP_BEGIN))
      return;
    s->imgs[i].seq = im.seq;
    g->exec_path = im.path;
    g->reason = GDB_REASON_NONE;
    return;
  }
  int same = s->img_known && im.seq == s->img_seq && im.pid == s->img_pid;
  if (same && st->reason != RP_STOP_EXEC) return;
  if (s->img_known) {
    /* A breakpoint or watchpoint stop stays one (gdb goes on after an
     * exec event: the next stop tells it of the program). */
    if (!(s->features & GDB_FEAT_EXEC_EVENTS) ||
        (st->reason != RP_STOP_EXEC && st->reason != RP_STOP_TARGET &&
         st->reason != RP_STOP_BEGIN))
      return;
    g->exec_path = im.path;
    g->reason = GDB_REASON_NONE;
  }
  s->img_known = 1;
  s->img_seq = im.seq;
  s->img_pid = im.pid;
}

/* The stop reply for ST; with SIG (a Linux signal), a stop by that signal
 * instead of SIGTRAP. */
static void stop_reply(struct gdb__sess *s, const struct rp_stop *st,
                       int sig) {
  struct gdb_stop g;
  struct rw_regs regs;
  u64 at;
  memset(&g, 0, sizeof g);
  g.kind = GDB_STOP_SIGNAL;
  g.signo = GDB_SIGTRAP;
  g.multiprocess = (s->features & GDB_FEAT_MULTIPROCESS) != 0;
  g.has_thread = 1;
  u32 tid = st->tid ? st->tid : rp_current_tid(s->rp);
  if (s->opts.tree && !gdb__pid_known(s, rp_thread_pid(s->rp, tid)) &&
      gdb__threads_load(s) == 0 && s->nthr)
    tid = s->thr[0].tid; /* a process gdb does not know: one it does */
  g.thread = gdb__tid_of(s, tid);
  if (s->opts.tree) { /* gdb selects the stopped thread */
    s->g_pid = (u32)g.thread.pid;
    gdb__view_sync(s);
  }
  s->g_dead = 0;
  if (rp_get_regs(s->rp, tid, &regs) == 0) g.regs = &regs;
  switch (st->reason) {
    case RP_STOP_BREAKPOINT:
      /* A stop mark's: a plain SIGTRAP, which gdb stops at (a swbreak
       * where it has no breakpoint would be taken as a stale one). */
      if (!gdb__bp_at(s, st->addr, rp_view_pid(s->rp))) break;
      if (is_hw_break(s, st->addr)) {
        if (s->features & GDB_FEAT_HWBREAK) g.reason = GDB_REASON_HWBREAK;
      } else if (s->features & GDB_FEAT_SWBREAK) {
        g.reason = GDB_REASON_SWBREAK;
      }
      break;
    case RP_STOP_WATCHPOINT: {
      const struct gdb__bp *w =
          find_watch(s, st->addr, st->watch_size, st->watch_kind, &at);
      if (w) {
        g.reason = w->type == GDB_BP_WRITE  ? GDB_REASON_WATCH
                   : w->type == GDB_BP_READ ? GDB_REASON_RWATCH
                                            : GDB_REASON_AWATCH;
        g.addr = at;
      }
      break;
    }
    case RP_STOP_END:
      /* A program killed by a signal: the first arrival at its end shows
       * the signal, as a live crash would; continuing again meets the end
       * of the history. */
      if (st->end == RP_END_SIGNAL && gdb_signal(st->status) &&
          s->crash_shown != st->icount + 1) {
        g.signo = gdb_signal(st->status);
        s->crash_shown = st->icount + 1;
        gdb_stop_reply(&s->reply, &g);
        return;
      }
      g.reason = GDB_REASON_REPLAY_END;
      break;
    case RP_STOP_DIVERGED:
    case RP_STOP_FAILED:
      g.reason = GDB_REASON_REPLAY_END;
      break;
    case RP_STOP_BEGIN:
      g.reason = GDB_REASON_REPLAY_BEGIN;
      break;
    case RP_STOP_FORK: {
      /* gdb adds the child with a copy of its parent's inferior: the
       * parent's program (the view is the parent's here). */
      struct rp_image im;
      g.reason = GDB_REASON_FORK;
      g.child = gdb__tid_of(s, st->child);
      g.child.pid = st->child;
      img_note(s, st->child, rp_get_image(s->rp, &im) == 0 ? im.seq : 0);
      break;
    }
    case RP_STOP_SYSCALL:
      g.reason = st->sys_entry ? GDB_REASON_SYSCALL_ENTRY
                               : GDB_REASON_SYSCALL_RETURN;
      g.sysno = st->sys_nr;
      break;
    case RP_STOP_INTERRUPTED:
      g.signo = GDB_SIGINT;
      break;
    case RP_STOP_SIGNAL:
      g.signo = gdb_signal(st->signo);
      break;
    default:
      break;
  }
  if (sig && gdb_signal(sig)) {
    g.signo = gdb_signal(sig);
    g.reason = GDB_REASON_NONE;
  }
  if (st->reason != RP_STOP_END) s->crash_shown = 0;
  exec_event(s, st, &g);
  gdb_stop_reply(&s->reply, &g);
}

/* The name of the Linux signal whose gdb number is G ("SIGUSR2"), or of
 * gdb's number, into BUF. */
static const char *sig_name(unsigned g, char *buf, size_t cap) {
  for (int sig = 1; sig <= 64; sig++) {
    const char *ab = gdb_signal(sig) == g ? sigabbrev_np(sig) : NULL;
    if (ab) {
      snprintf(buf, cap, "SIG%s", ab);
      return buf;
    }
  }
  snprintf(buf, cap, "gdb's signal %u", g);
  return buf;
}

int gdb__signal_note(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  if (q->u.cont.dir != GDB_FORWARD) return 0;
  u8 stopped = s->last.reason == RP_STOP_SIGNAL ? gdb_signal(s->last.signo)
                                                : 0;
  int delivers = 0;
  char msg[300], name[40];
  for (unsigned i = 0; i < q->u.cont.n; i++) {
    const struct gdb_action *a = &q->u.cont.act[i];
    if (!a->signo || a->signo == stopped) {
      delivers |= a->signo != 0;
      continue;
    }
    if (s->sig_notes & 1) continue;
    s->sig_notes |= 1;
    snprintf(msg, sizeof msg, "rewind: a replay cannot deliver %s where "
             "the recording has no such signal: the program goes on as "
             "recorded\n", sig_name(a->signo, name, sizeof name));
    RW_FORWARD(gdb__console(s, msg));
  }
  if (stopped && !delivers && !(s->sig_notes & 2)) {
    s->sig_notes |= 2;
    snprintf(msg, sizeof msg, "rewind: %s is delivered as recorded: a "
             "replay cannot take it out of the past (signal 0, handle "
             "nopass)\n", sig_name(stopped, name, sizeof name));
    RW_FORWARD(gdb__console(s, msg));
  }
  return 0;
}

void gdb__stop_reply(struct gdb__sess *s, const struct rp_stop *st) {
  stop_reply(s, st, 0);
}

void gdb__stop_reply_signal(struct gdb__sess *s, const struct rp_stop *st,
                            int sig) {
  stop_reply(s, st, sig);
}

int gdb__bp_still_set(struct gdb__sess *s, const struct rp_stop *st) {
  u64 at;
  if (st->reason == RP_STOP_WATCHPOINT)
    return find_watch(s, st->addr, st->watch_size, st->watch_kind, &at) !=
           NULL;
  u32 pid = rp_view_pid(s->rp);
  return gdb__bp_at(s, st->addr, pid) || smark_at(s, st->addr, pid);
}

static int rp_kind(enum gdb_bp_type t) {
  return t == GDB_BP_WRITE ? 2 : t == GDB_BP_READ ? 1 : 3;
}

void gdb__bps_free(struct gdb__sess *s) {
  free(s->bps);
  s->bps = NULL;
  s->nbps = s->capbps = 0;
  free(s->smarks);
  s->smarks = NULL;
  s->nsmarks = s->capsmarks = 0;
}

int gdb__smark_add(struct gdb__sess *s, u64 lo, u64 hi, const char *text,
                   u32 *num) {
  if (hi <= lo || hi - lo > GDB_SMARK_BYTES) return RW_EINVAL;
  if (s->nsmarks == s->capsmarks) {
    size_t cap = s->capsmarks ? 2 * s->capsmarks : 8;
    struct gdb__smark *v = realloc(s->smarks, cap * sizeof *v);
    if (!v) return RW_ENOMEM;
    s->smarks = v;
    s->capsmarks = cap;
  }
  /* Every byte stops: only those where an instruction starts are ever
   * met, so the range needs no decoding. */
  u64 a = lo;
  int rc = 0;
  for (; a < hi && rc == 0; a++) rc = rp_break_add(s->rp, a);
  if (rc < 0) {
    u32 pid = rp_view_pid(s->rp);
    for (u64 b = lo; b + 1 < a; b++)
      if (!gdb__bp_at(s, b, pid) && !smark_at(s, b, pid) &&
          rp_break_del(s->rp, b) < 0)
        break; /* it was just set: only memory can fail, and not here */
    return rc;
  }
  struct gdb__smark *m = &s->smarks[s->nsmarks++];
  *m = (struct gdb__smark){lo, hi, rp_view_pid(s->rp), ++s->smark_num, ""};
  snprintf(m->text, sizeof m->text, "%s", text);
  *num = m->num;
  return 0;
}

void gdb__smark_list(const struct gdb__sess *s, char *out, size_t cap) {
  size_t k = 0;
  out[0] = 0;
  for (size_t i = 0; i < s->nsmarks && k < cap; i++) {
    const struct gdb__smark *m = &s->smarks[i];
    k += (size_t)snprintf(out + k, cap - k,
                          "stop mark %u: %s, [%#llx, %#llx) of process %u\n",
                          m->num, m->text, (unsigned long long)m->lo,
                          (unsigned long long)m->hi, m->pid);
  }
}

int gdb__smark_del(struct gdb__sess *s, u32 num) {
  int found = 0;
  for (size_t i = 0; i < s->nsmarks;) {
    struct gdb__smark m = s->smarks[i];
    if (num && m.num != num) {
      i++;
      continue;
    }
    found = 1;
    s->smarks[i] = s->smarks[--s->nsmarks];
    /* The replayer's breakpoints that nothing else wants any more, in
     * the mark's process (looked at for the while). */
    u32 was = rp_view_pid(s->rp);
    if (m.pid != was && rp_set_view(s->rp, m.pid) < 0) continue;
    int rc = 0;
    for (u64 a = m.lo; a < m.hi && rc >= 0; a++)
      if (!gdb__bp_at(s, a, m.pid) && !smark_at(s, a, m.pid))
        rc = rp_break_del(s->rp, a);
    if (m.pid != was) (void)rp_set_view(s->rp, was);
    if (rc < 0 && rc != RW_ENOTFOUND) return rc;
  }
  return found || !num ? 0 : RW_ENOTFOUND;
}

int gdb__smark_note(struct gdb__sess *s, const struct rp_stop *st) {
  if (st->reason != RP_STOP_BREAKPOINT) return 0;
  u32 pid = rp_view_pid(s->rp);
  const struct gdb__smark *m = smark_at(s, st->addr, pid);
  if (!m || gdb__bp_at(s, st->addr, pid)) return 0;
  char msg[400], where[160];
  if (rp_symbolize(s->rp, st->addr, where, sizeof where) < 0)
    snprintf(where, sizeof where, "%#llx", (unsigned long long)st->addr);
  snprintf(msg, sizeof msg, "rewind: stop mark %u (%s) at %#llx, %s\n",
           m->num, m->text, (unsigned long long)st->addr, where);
  return gdb__console(s, msg);
}

static struct gdb__bp *find_bp(struct gdb__sess *s, enum gdb_bp_type t,
                               u64 addr, u64 len) {
  u32 pid = rp_view_pid(s->rp); /* with the tree, the Hg thread's */
  for (size_t i = 0; i < s->nbps; i++)
    if (s->bps[i].type == t && s->bps[i].addr == addr &&
        s->bps[i].len == len && s->bps[i].pid == pid)
      return &s->bps[i];
  return NULL;
}

static int insert(struct gdb__sess *s, enum gdb_bp_type t, u64 addr,
                  u64 len) {
  if (find_bp(s, t, addr, len)) return 0;
  if (s->nbps == s->capbps) {
    size_t cap = s->capbps ? 2 * s->capbps : 16;
    struct gdb__bp *v = realloc(s->bps, cap * sizeof *v);
    if (!v) return RW_ENOMEM;
    s->bps = v;
    s->capbps = cap;
  }
  int rc = t <= GDB_BP_HARD ? rp_break_add(s->rp, addr)
                            : rp_watch_add(s->rp, addr, len, rp_kind(t));
  if (rc < 0) return rc;
  s->bps[s->nbps++] = (struct gdb__bp){t, addr, len, rp_view_pid(s->rp)};
  return 0;
}

static int remove_bp(struct gdb__sess *s, enum gdb_bp_type t, u64 addr,
                     u64 len) {
  struct gdb__bp *b = find_bp(s, t, addr, len);
  if (!b) return 0; /* gdb may remove what it never inserted */
  *b = s->bps[--s->nbps];
  if (t > GDB_BP_HARD) return rp_watch_del(s->rp, addr, len, rp_kind(t));
  /* Z0 and Z1 at one address, or a stop mark there */
  if (gdb__bp_at(s, addr, rp_view_pid(s->rp)) ||
      smark_at(s, addr, rp_view_pid(s->rp)))
    return 0;
  return rp_break_del(s->rp, addr);
}

void gdb__breakpoint(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  enum gdb_bp_type t = q->u.bp.type;
  u64 len = t <= GDB_BP_HARD ? 1 : q->u.bp.kind;
  if (t > GDB_BP_HARD && (len == 0 || len > 1u << 20)) {
    gdb_reply_error_msg(&s->reply, "bad watchpoint length");
    return;
  }
  if (!s->view_ok) {
    gdb_reply_error_msg(&s->reply, "that process does not exist at this "
                                   "position of the recording");
    return;
  }
  int rc = q->kind == GDB_REQ_INSERT_BP ? insert(s, t, q->u.bp.addr, len)
                                        : remove_bp(s, t, q->u.bp.addr, len);
  if (rc < 0)
    gdb_reply_error_msg(&s->reply, rw_strerror(rc));
  else
    gdb_buf_puts(&s->reply, "OK");
}
