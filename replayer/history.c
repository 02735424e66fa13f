/* SPDX-License-Identifier: MIT */
/* Memory history: the previous or next access to a range of the
 * debugger's process (`monitor last-write` and its kin), and every write
 * to a range over the whole history (`rewind analyze writes`). Both are
 * searches with a watchpoint of the replay's own, by the machinery of the
 * user's watchpoints (instructions' accesses and, for writes, the kernel's:
 * step.c's kernel_write), with the user's breakpoints, watchpoints and
 * syscall stops set aside meanwhile (and the program's output unshown);
 * a query comes back to where it started. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

/* The user's stops, set aside during a search. */
struct aside {
  struct rp__ubp *bps;
  size_t nbps, capbps;
  struct rp__uwp *wps;
  size_t nwps, capwps;
  int sys_stops, rep_stops;
  rp_echo_fn echo; /* the program's output is not shown by a search */
};

static void set_aside(rp_replay *rp, struct aside *a) {
  struct rp__user *u = &rp->user;
  /* The user's watchpoints leave the address spaces too: an access to
   * them must not hide one to the searched range (put_back's sync puts
   * them back). */
  for (size_t i = 0; i < u->nwps; i++) {
    struct rp__uwp *w = &u->wps[i];
    if (w->in && cpu_mem_watch_del(w->in, w->addr, w->len, w->kind) == 0)
      w->in = NULL;
  }
  *a = (struct aside){u->bps,       u->nbps,      u->capbps,
                      u->wps,       u->nwps,      u->capwps,
                      u->sys_stops, u->rep_stops, u->echo};
  u->rep_stops = 0;
  u->echo = NULL;
  u->bps = NULL;
  u->nbps = u->capbps = 0;
  u->wps = NULL;
  u->nwps = u->capwps = 0;
  u->sys_stops = 0;
}

/* Drops the search's watchpoint and puts the user's stops back. */
static int put_back(rp_replay *rp, struct aside *a) {
  struct rp__user *u = &rp->user;
  int rc = 0;
  for (size_t i = 0; i < u->nwps; i++) {
    int r = cpu_mem_watch_del(u->wps[i].in, u->wps[i].addr, u->wps[i].len,
                              u->wps[i].kind);
    if (r < 0 && r != RW_ENOTFOUND && rc == 0) rc = r;
  }
  free(u->wps);
  u->bps = a->bps;
  u->nbps = a->nbps;
  u->capbps = a->capbps;
  u->wps = a->wps;
  u->nwps = a->nwps;
  u->capwps = a->capwps;
  u->sys_stops = a->sys_stops;
  u->rep_stops = a->rep_stops;
  u->echo = a->echo;
  int r = rp__user_sync(rp);
  return rc < 0 ? rc : r;
}

/* Fills access A to the range at ADDR (LEN bytes), found by a stop ST
 * after it (going forwards): where, by what, and the range's bytes (the
 * first 16) before and after; the replay ends before it. */
static int describe(rp_replay *rp, const struct rp_stop *st, u64 addr,
                    u64 len, struct rp_access *a) {
  struct rp_stop x;
  struct rw_regs regs;
  len = RW_MIN(len, (u64)sizeof a->after);
  a->found = 1;
  a->addr = addr;
  a->size = (u32)len;
  a->access_addr = st->addr;
  a->access_size = st->watch_size;
  a->kind = st->watch_kind;
  a->by_kernel = st->by_kernel;
  a->tid = st->tid;
  a->after_icount = st->icount;
  a->after_event = st->event;
  a->after_ok = rp_read_mem(rp, addr, a->after, (size_t)len) == 0;
  /* Before it: the point before the instruction, or before the kernel's
   * write. */
  a->icount = st->by_kernel ? st->before_icount : st->icount - 1;
  a->event = st->by_kernel ? st->before_event : st->event;
  RW_FORWARD(rp__seek(rp, a->icount, a->event, &x));
  a->before_ok = rp_read_mem(rp, addr, a->before, (size_t)len) == 0;
  a->rip = rp_get_regs(rp, a->tid, &regs) == 0 ? regs.rip : 0;
  if (a->rip && !a->by_kernel) { /* "   0x401000 main+0x10   mov ..." */
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (f) {
      rp_disasm(rp, f, a->rip, 1, 0);
      fclose(f);
    }
    const char *s = text ? text + strspn(text, " =>") : "";
    /* One line, runs of blanks as two. */
    size_t k = 0;
    for (; *s && *s != '\n' && k + 1 < sizeof a->insn; s++)
      if (*s != ' ' || (k && a->insn[k - 1] != ' ') ||
          (k > 1 && a->insn[k - 2] != ' '))
        a->insn[k++] = *s;
    a->insn[k] = 0;
    free(text);
    if (strstr(a->insn, "cannot be decoded")) { /* Capstone 4's limits */
      char sym[140];
      if (rp_symbolize(rp, a->rip, sym, sizeof sym) < 0) sym[0] = 0;
      snprintf(a->insn, sizeof a->insn,
               "%#llx %s  (an instruction the disassembler cannot show)",
               (unsigned long long)a->rip, sym);
    }
  } else if (a->rip) { /* where the syscall was made */
    char sym[140];
    if (rp_symbolize(rp, a->rip, sym, sizeof sym) < 0) sym[0] = 0;
    snprintf(a->insn, sizeof a->insn, "%#llx%s%s%s",
             (unsigned long long)a->rip, sym[0] ? " <" : "", sym,
             sym[0] ? ">" : "");
  }
  return 0;
}

int rp_access_find(rp_replay *rp, int backwards, int kind, u64 addr,
                   u64 len, struct rp_access *a) {
  struct aside aside;
  struct rp_stop st;
  memset(a, 0, sizeof *a);
  RW_RETURN_IF(!len || addr + len < addr || (kind != 1 && kind != 2),
               RW_EINVAL, "bad range or kind");
  u64 at = rp->icount, ev = rp->trace.events;
  int ended = rp->fin.ended;
  set_aside(rp, &aside);
  int rc = rp_watch_add(rp, addr, len, kind);
  if (rc == 0 && backwards) {
    /* Back to the point before the last access, then forwards over it
     * for its values. */
    rc = rp_reverse_continue(rp, &st);
    if (rc == 0 && st.reason == RP_STOP_WATCHPOINT) {
      struct rp__goal goal = rp__goal_at(~0ull, RP__USER);
      rc = rp__run(rp, &goal, &st);
      if (rc == 0 && st.reason == RP_STOP_WATCHPOINT)
        rc = describe(rp, &st, addr, len, a);
    }
  } else if (rc == 0) {
    struct rp__goal goal = rp__goal_at(~0ull, RP__USER);
    rc = rp__run(rp, &goal, &st);
    if (rc == 0 && st.reason == RP_STOP_WATCHPOINT) rc = describe(rp, &st, addr, len, a);
  }
  if (rc == 0 && (st.reason == RP_STOP_DIVERGED || st.reason == RP_STOP_FAILED))
    a->broken = 1;
  int r = put_back(rp, &aside);
  if (rc == 0) rc = r;
  /* Where the query started, whatever happened: the debugger reads the
   * state it believes it is at. */
  r = rp__seek(rp, ended ? ~0ull : at, ended ? 0 : ev, &st);
  return rc < 0 ? rc : r;
}

int rp_writes_each(rp_replay *rp, u64 addr, u64 len,
                   int (*each)(void *ctx, const struct rp_access *a),
                   void *ctx, struct rp_stop *stop) {
  struct aside aside;
  RW_RETURN_IF(!len || addr + len < addr, RW_EINVAL, "bad range");
  set_aside(rp, &aside);
  int rc = rp_watch_add(rp, addr, len, 2), stopped = 0;
  while (rc == 0 && !stopped) {
    struct rp__goal goal = rp__goal_at(~0ull, RP__USER);
    rc = rp__run(rp, &goal, stop);
    if (rc < 0 || stop->reason != RP_STOP_WATCHPOINT) break;
    struct rp_access a;
    memset(&a, 0, sizeof a);
    rc = describe(rp, stop, addr, len, &a);
    /* Forwards again, over this access, to where the search was. */
    struct rp_stop x;
    if (rc == 0) rc = rp__seek(rp, a.after_icount, a.after_event, &x);
    if (rc == 0) {
      int r = each(ctx, &a);
      if (r < 0) rc = r;
      stopped = r > 0;
    }
  }
  int r = put_back(rp, &aside);
  return rc < 0 ? rc : r;
}
