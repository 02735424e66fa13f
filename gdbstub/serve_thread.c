/* SPDX-License-Identifier: MIT */
/* The threads of the replay as gdb sees them: the ones alive at the current
 * position (qfThreadInfo, qsThreadInfo, qXfer:threads:read with their
 * recorded names), their ids in the plain or multiprocess form, the thread
 * Hg selects for g and p and the one Hc selects for c, s and bs, T (is it
 * alive?), qC and qThreadExtraInfo. The replayer decides which threads
 * exist; nothing here moves the replay. */
#include <stdlib.h>
#include <string.h>

#include "gdbstub/serve_int.h"

/* Most bytes of thread ids in one qfThreadInfo/qsThreadInfo reply; gdb asks
 * again for the rest. */
#define INFO_BUDGET 4000

int gdb__threads_load(struct gdb__sess *s) {
  for (;;) {
    size_t n = rp_threads(s->rp, s->thr, s->capthr);
    /* Room for one more, the thread that ended the history (below). */
    if (n < s->capthr) {
      s->nthr = n;
      break;
    }
    size_t cap = n + 8;
    struct rp_thread *v = realloc(s->thr, cap * sizeof *v);
    if (!v) {
      s->nthr = 0;
      return RW_ENOMEM;
    }
    s->thr = v;
    s->capthr = cap;
  }
  if (s->opts.tree) { /* the processes gdb has inferiors for */
    size_t k = 0;
    for (size_t i = 0; i < s->nthr; i++)
      if (gdb__pid_known(s, s->thr[i].pid)) s->thr[k++] = s->thr[i];
    s->nthr = k;
  }
  /* gdb needs a thread to stand in. Should the replayer list none (the
   * end of a history where the last thread exited alone), the one that
   * runs here stays listed while the replayer still has its registers. */
  struct rw_regs regs;
  u32 cur = rp_current_tid(s->rp);
  if (s->nthr == 0 && cur && rp_get_regs(s->rp, cur, &regs) == 0) {
    memset(&s->thr[0], 0, sizeof s->thr[0]);
    s->thr[0].tid = cur;
    s->nthr = 1;
  }
  return 0;
}

const struct rp_thread *gdb__thread_find(struct gdb__sess *s, u32 tid) {
  for (size_t i = 0; i < s->nthr; i++)
    if (s->thr[i].tid == tid) return &s->thr[i];
  return NULL;
}

static i64 our_pid(struct gdb__sess *s) {
  struct rp_image img;
  if (rp_get_image(s->rp, &img) == 0 && img.pid) return img.pid;
  return rp_current_tid(s->rp);
}

struct gdb_tid gdb__tid_of(struct gdb__sess *s, u32 tid) {
  struct gdb_tid t = {0, 0, 0};
  t.tid = tid;
  t.pid = s->opts.tree ? rp_thread_pid(s->rp, tid) : our_pid(s);
  t.has_pid = (s->features & GDB_FEAT_MULTIPROCESS) != 0;
  return t;
}

/* The tree's form of gdb__tid_match: every process is ours. */
static enum gdb__tid_match tree_match(struct gdb__sess *s,
                                      const struct gdb_tid *t, u32 *tid) {
  int any_pid = !t->has_pid || t->pid == GDB_TID_ALL || t->pid == GDB_TID_ANY;
  if (t->tid == GDB_TID_ALL || t->tid == GDB_TID_ANY) {
    if (any_pid) return GDB__TID_WILD;
    for (size_t i = 0; i < s->nthr; i++) /* its first thread stands in */
      if (s->thr[i].pid == t->pid) {
        *tid = s->thr[i].tid;
        return GDB__TID_WILD;
      }
    return GDB__TID_OTHER;
  }
  const struct rp_thread *th =
      t->tid < 0 || t->tid > (i64)UINT32_MAX ? NULL
                                              : gdb__thread_find(s, (u32)t->tid);
  if (!th) return GDB__TID_DEAD;
  if (!any_pid && th->pid != t->pid) return GDB__TID_OTHER;
  *tid = th->tid;
  return GDB__TID_ONE;
}

enum gdb__tid_match gdb__tid_match(struct gdb__sess *s,
                                   const struct gdb_tid *t, u32 *tid) {
  if (s->opts.tree) return tree_match(s, t, tid);
  if (t->has_pid && t->pid != GDB_TID_ALL && t->pid != GDB_TID_ANY &&
      t->pid != our_pid(s))
    return GDB__TID_OTHER;
  if (t->tid == GDB_TID_ALL || t->tid == GDB_TID_ANY) return GDB__TID_WILD;
  if (t->tid < 0 || t->tid > (i64)UINT32_MAX ||
      !gdb__thread_find(s, (u32)t->tid))
    return GDB__TID_DEAD;
  *tid = (u32)t->tid;
  return GDB__TID_ONE;
}

void gdb__view_sync(struct gdb__sess *s) {
  s->view_ok = 1;
  if (!s->opts.tree) return;
  u32 pid = s->g_pid ? s->g_pid : rp_thread_pid(s->rp, gdb__sel_thread(s));
  /* A process that does not exist here (gdb still shows a thread of an
   * inferior whose end it was not told of) has no memory to read. */
  s->view_ok = rp_set_view(s->rp, pid) >= 0;
}

u32 gdb__sel_thread(struct gdb__sess *s) {
  /* Out of memory leaves the list empty: the current thread then. */
  if (gdb__threads_load(s) == 0 && gdb__thread_find(s, s->g_tid))
    return s->g_tid;
  return rp_current_tid(s->rp);
}

u32 gdb__cont_thread(struct gdb__sess *s) {
  u32 g = gdb__sel_thread(s);
  return s->c_tid && gdb__thread_find(s, s->c_tid) ? s->c_tid : g;
}

/* The name gdb shows for T: the recorded one, else the program's. */
static const char *name_of(struct gdb__sess *s, const struct rp_thread *t,
                           size_t *len) {
  *len = strnlen(t->name, sizeof t->name);
  if (*len) return t->name;
  *len = strlen(s->name);
  return s->name;
}

/* Appends ids from s->info_next on, comma-separated, within the budget. */
static void info_chunk(struct gdb__sess *s) {
  size_t start = s->reply.len;
  if (s->info_next >= s->nthr) {
    gdb_buf_puts(&s->reply, "l");
    return;
  }
  gdb_buf_puts(&s->reply, "m");
  for (int first = 1; s->info_next < s->nthr; first = 0) {
    if (!first && s->reply.len - start > INFO_BUDGET) break;
    if (!first) gdb_buf_puts(&s->reply, ",");
    struct gdb_tid t = gdb__tid_of(s, s->thr[s->info_next++].tid);
    gdb_buf_put_tid(&s->reply, t, t.has_pid);
  }
}

/* Format: H op thread-id (g: registers, c: c/s/bs) */
static void set_thread(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  const struct gdb_tid *want = &q->u.thread.tid;
  u32 tid = 0;
  enum gdb__tid_match m = gdb__tid_match(s, want, &tid);
  if (s->opts.tree && q->u.thread.op == 'g') {
    /* The process gdb means from now on, even one that is gone. */
    int any = !want->has_pid || want->pid == GDB_TID_ALL ||
              want->pid == GDB_TID_ANY;
    s->g_pid = any ? 0 : (u32)want->pid;
    s->g_dead = m == GDB__TID_OTHER || m == GDB__TID_DEAD;
    if (s->g_dead) gdb__view_sync(s);
  }
  switch (m) {
    case GDB__TID_OTHER:
      gdb_reply_error_msg(&s->reply, "no such process");
      return;
    case GDB__TID_DEAD:
      gdb_reply_error_msg(&s->reply, "no such thread at this position");
      return;
    case GDB__TID_ONE:
      break;
    case GDB__TID_WILD: /* any thread: keep the one selected (of the
                           process named, with the tree) */
      if (!tid) tid = q->u.thread.op == 'g' ? gdb__sel_thread(s) : 0;
      break;
  }
  if (q->u.thread.op == 'g') {
    s->g_tid = tid;
    gdb__view_sync(s);
  } else {
    s->c_tid = tid;
  }
  gdb_buf_puts(&s->reply, "OK");
}

void gdb__thread_query(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  const struct rp_thread *t;
  const char *name;
  struct gdb_tid id;
  size_t len;
  u32 tid = 0;
  if (gdb__threads_load(s) < 0) {
    gdb_reply_error_msg(&s->reply, "out of memory");
    return;
  }
  switch ((int)q->kind) {
    case GDB_REQ_SET_THREAD: /* Format: H op thread-id */
      set_thread(s);
      return;
    case GDB_REQ_THREAD_ALIVE: /* Format: T thread-id */
      if (gdb__tid_match(s, &q->u.thread.tid, &tid) == GDB__TID_ONE)
        gdb_buf_puts(&s->reply, "OK");
      else
        gdb_reply_error_msg(&s->reply, "no such thread at this position");
      return;
    case GDB_REQ_CURRENT_THREAD: /* Format: qC */
      id = gdb__tid_of(s, gdb__sel_thread(s));
      gdb_buf_puts(&s->reply, "QC");
      gdb_buf_put_tid(&s->reply, id, id.has_pid);
      return;
    case GDB_REQ_THREAD_INFO_FIRST: /* Format: qfThreadInfo */
      s->info_next = 0;
      if (s->killed) { /* no process until gdb runs it again */
        gdb_buf_puts(&s->reply, "l");
        return;
      }
      info_chunk(s);
      return;
    case GDB_REQ_THREAD_INFO_NEXT: /* Format: qsThreadInfo */
      info_chunk(s);
      return;
    case GDB_REQ_THREAD_EXTRA_INFO: /* Format: qThreadExtraInfo,id */
      if (gdb__tid_match(s, &q->u.thread.tid, &tid) != GDB__TID_ONE ||
          !(t = gdb__thread_find(s, tid))) {
        gdb_reply_error_msg(&s->reply, "no such thread at this position");
        return;
      }
      name = name_of(s, t, &len);
      gdb_buf_put_hex(&s->reply, name, len);
      return;
    default:
      return;
  }
}

int gdb__threads_xml(struct gdb__sess *s, struct gdb_buf *x) {
  /* Format: <threads><thread id="p1.2" core="0" name="..."/>...</threads> */
  RW_FORWARD(gdb__threads_load(s));
  gdb_buf_puts(x, "<?xml version=\"1.0\"?>\n<threads>\n");
  for (size_t i = 0; i < s->nthr; i++) {
    struct gdb_tid id = gdb__tid_of(s, s->thr[i].tid);
    size_t len;
    const char *name = name_of(s, &s->thr[i], &len);
    gdb_buf_puts(x, "<thread id=\"");
    gdb_buf_put_tid(x, id, id.has_pid);
    gdb_buf_puts(x, "\" core=\"0\" name=\"");
    gdb_buf_put_xml(x, name, len);
    gdb_buf_puts(x, "\"/>\n");
  }
  gdb_buf_puts(x, "</threads>\n");
  return 0;
}
