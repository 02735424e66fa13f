/* SPDX-License-Identifier: MIT */
/* What the debugger put into the replay: breakpoints and watchpoints, each
 * for one process, and which processes it sees. By default that is one
 * process, rp->user.proc (the root, or the one rp_debug_process chose);
 * with rp_opts.tree every process of the recording is, and rp->user.proc
 * is only the one memory reads, images and new breakpoints are about
 * (rp_set_view).
 *
 * A breakpoint lives in its process's cpu_mem, which a vfork child and its
 * parent share: a hit counts only for a thread of the process it was set
 * for. A process changes address spaces (a vfork child's exec, a keyframe
 * from before it, its fork again), and cpu_mem snapshots hold no
 * breakpoints: rp__user_sync puts each point back where its process is.
 *
 * Also here: which syscalls stop the debugger (rp_set_syscall_stops; the
 * stops themselves are step.c's), and the program's output handed to the
 * debugger's user as the replay passes it (rp_set_echo). */
#include <stdlib.h>
#include <string.h>

#include "common/outbuf.h"
#include "replayer/rp_int.h"

u32 rp__proc_pid(const struct rp__proc *p) {
  if (p->pid) return p->pid;
  return p->nimages ? p->images[0].pid : 0;
}

int rp__user_bp_at(const rp_replay *rp, const struct rp__proc *p, u64 addr) {
  for (size_t i = 0; i < rp->user.nbps; i++)
    if (rp->user.bps[i].addr == addr && rp->user.bps[i].proc == p) return 1;
  return 0;
}

int rp__user_bp_in(const rp_replay *rp, const cpu_mem *mem, u64 addr) {
  for (size_t i = 0; i < rp->user.nbps; i++)
    if (rp->user.bps[i].addr == addr && rp->user.bps[i].proc->mem == mem)
      return 1;
  return 0;
}

int rp__user_watch_hit(const rp_replay *rp, const struct rp__proc *p,
                       u64 addr, u64 size) {
  for (size_t i = 0; i < rp->user.nwps; i++) {
    const struct rp__uwp *w = &rp->user.wps[i];
    if (w->proc == p && addr < w->addr + w->len && w->addr < addr + size)
      return 1;
  }
  return 0;
}

/* The first byte of [LO, HI) where DATA (the bytes from ADDR) differs
 * from P's memory, or HI. */
static u64 first_change(const struct rp__proc *p, u64 addr, const u8 *data,
                        u64 lo, u64 hi) {
  while (lo < hi) {
    u8 was[256];
    size_t n = (size_t)RW_MIN(hi - lo, (u64)sizeof was), j = 0;
    if (cpu_mem_read(p->mem, lo, was, n) < 0) return lo; /* not mapped */
    while (j < n && was[j] == data[lo - addr + j]) j++;
    if (j < n) return lo + j;
    lo += n;
  }
  return hi;
}

int rp__user_watch_written(const rp_replay *rp, const struct rp__proc *p,
                           u64 addr, const u8 *data, u64 len, u64 *hit,
                           u32 *size) {
  int found = 0;
  for (size_t i = 0; i < rp->user.nwps; i++) {
    const struct rp__uwp *w = &rp->user.wps[i];
    if (w->proc != p || !(w->kind & 2) || addr >= w->addr + w->len ||
        w->addr >= addr + len)
      continue;
    u64 lo = RW_MAX(addr, w->addr), hi = RW_MIN(addr + len, w->addr + w->len);
    u64 at = first_change(p, addr, data, lo, hi);
    if (at == hi || (found && at >= *hit)) continue;
    found = 1;
    *hit = at;
    *size = (u32)RW_MIN(w->addr + w->len - at, 0xffffffffull);
  }
  return found;
}

int rp__user_sync(rp_replay *rp) {
  for (size_t i = 0; i < rp->user.nbps; i++)
    RW_FORWARD(cpu_mem_break_add(rp->user.bps[i].proc->mem,
                                 rp->user.bps[i].addr));
  for (size_t i = 0; i < rp->user.nwps; i++) {
    struct rp__uwp *w = &rp->user.wps[i];
    if (w->in == w->proc->mem) continue;
    int rc = w->in ? cpu_mem_watch_del(w->in, w->addr, w->len, w->kind) : 0;
    if (rc < 0 && rc != RW_ENOTFOUND) return rc;
    RW_FORWARD(cpu_mem_watch_add(w->proc->mem, w->addr, w->len, w->kind));
    w->in = w->proc->mem;
  }
  return 0;
}

/* Whether process P exists at the current position (the root until it
 * ends; the end of the history keeps what ended it). */
static int here(const rp_replay *rp, const struct rp__proc *p) {
  if (p->ix == 0) return !rp->fin.root_ended || rp->fin.ended;
  return p->exists;
}

int rp_set_view(rp_replay *rp, u32 pid) {
  if (!pid) return 0;
  if (!rp->user.tree)
    return pid == rp__proc_pid(rp->user.proc) ? 0 : RW_EINVAL;
  if (pid == rp__proc_pid(rp->user.proc) && here(rp, rp->user.proc))
    return 0;
  struct rp__proc *hit = NULL;
  if (rp__proc_pid(&rp->root) == pid) hit = &rp->root;
  /* A pid the recording used twice: the process that exists here, and
   * of those the one with threads; else the last one met. */
  for (size_t i = 0; i < rp->nkids; i++) {
    struct rp__proc *k = rp->kids[i];
    if (k->pid != pid || !k->fork_seq) continue;
    if (!hit ||
        (k->exists && (!here(rp, hit) || rp__threads_alive_in(rp, k))) ||
        (!k->exists && !here(rp, hit) && k->fork_seq > hit->fork_seq))
      hit = k;
  }
  if (!hit) return RW_ENOTFOUND;
  rp->user.proc = hit;
  return here(rp, hit) ? 0 : 1;
}

u32 rp_view_pid(const rp_replay *rp) { return rp__proc_pid(rp->user.proc); }

u32 rp_thread_pid(rp_replay *rp, u32 tid) {
  struct rp__thread *t = rp__thread_find(rp, tid);
  return rp__proc_pid(t ? t->proc : rp->user.proc);
}

int rp_read_mem(rp_replay *rp, u64 addr, void *dst, size_t len) {
  /* With the tree, a process that is not there has no memory (its address
   * space holds what it was at some other time); the debugger's one
   * process is read at its end as it ended. */
  if (rp->user.tree && !here(rp, rp->user.proc)) return RW_ENOTFOUND;
  return cpu_mem_read(rp->user.proc->mem, addr, dst, len);
}

int rp_break_add(rp_replay *rp, u64 addr) {
  struct rp__proc *p = rp->user.proc;
  if (rp__user_bp_at(rp, p, addr)) return 0;
  if (rp->user.nbps == rp->user.capbps) {
    size_t cap = rp->user.capbps ? 2 * rp->user.capbps : 8;
    struct rp__ubp *v = realloc(rp->user.bps, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "breakpoints");
    rp->user.bps = v;
    rp->user.capbps = cap;
  }
  RW_FORWARD(cpu_mem_break_add(p->mem, addr));
  rp->user.bps[rp->user.nbps++] = (struct rp__ubp){addr, p};
  return 0;
}

int rp_break_del(rp_replay *rp, u64 addr) {
  struct rp__proc *p = rp->user.proc;
  for (size_t i = 0; i < rp->user.nbps; i++) {
    if (rp->user.bps[i].addr != addr || rp->user.bps[i].proc != p) continue;
    rp->user.bps[i] = rp->user.bps[--rp->user.nbps];
    /* Still needed by another process in this memory, or internally. */
    if (rp__user_bp_in(rp, p->mem, addr) ||
        (addr == rp->search.preempt_bp && p->mem == rp->search.preempt_mem))
      return 0;
    return cpu_mem_break_del(p->mem, addr);
  }
  return RW_ENOTFOUND;
}

int rp_watch_add(rp_replay *rp, u64 addr, u64 len, int kind) {
  struct rp__proc *p = rp->user.proc;
  if (rp->user.nwps == rp->user.capwps) {
    size_t cap = rp->user.capwps ? 2 * rp->user.capwps : 8;
    struct rp__uwp *v = realloc(rp->user.wps, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "watchpoints");
    rp->user.wps = v;
    rp->user.capwps = cap;
  }
  RW_FORWARD(cpu_mem_watch_add(p->mem, addr, len, kind));
  rp->user.wps[rp->user.nwps++] = (struct rp__uwp){addr, len, kind, p, p->mem};
  return 0;
}

int rp_watch_del(rp_replay *rp, u64 addr, u64 len, int kind) {
  struct rp__proc *p = rp->user.proc;
  for (size_t i = 0; i < rp->user.nwps; i++) {
    const struct rp__uwp *w = &rp->user.wps[i];
    if (w->addr != addr || w->len != len || w->kind != kind || w->proc != p)
      continue;
    cpu_mem *in = w->in;
    rp->user.wps[i] = rp->user.wps[--rp->user.nwps];
    return cpu_mem_watch_del(in, addr, len, kind);
  }
  return RW_ENOTFOUND;
}

int rp_set_rep_stops(rp_replay *rp, int mode) {
  RW_RETURN_IF(mode != 0 && mode != RP_REP_START && mode != RP_REP_END,
               RW_EINVAL, "rep stop mode %d", mode);
  rp->user.rep_stops = mode;
  return 0;
}

int rp_rep_stops(const rp_replay *rp) { return rp->user.rep_stops; }

int rp_set_syscall_stops(rp_replay *rp, int on, const u32 *nrs, size_t n) {
  for (size_t i = 0; on && i < n; i++)
    RW_RETURN_IF(nrs[i] >= RP_SYSCALL_MAX, RW_EINVAL,
                 "syscall number %u is out of range", nrs[i]);
  memset(rp->user.sys_set, 0, sizeof rp->user.sys_set);
  rp->user.sys_stops = on;
  rp->user.sys_all = on && n == 0;
  for (size_t i = 0; on && i < n; i++)
    rp->user.sys_set[nrs[i] / 64] |= 1ull << (nrs[i] % 64);
  if (!on) rp->user.sys_ret = 0;
  return 0;
}

void rp_set_signal_stops(rp_replay *rp, int on, u64 pass) {
  rp->user.sig_stops = on;
  rp->user.sig_pass = pass;
}

int rp_signal_siginfo(rp_replay *rp, u32 tid, u8 out[128]) {
  struct trace_rec_signal sg;
  RW_RETURN_IF(!rp->trace.have_pend ||
                   rp->trace.pend.type != TRACE_REC_SIGNAL ||
                   rp->trace.pend.tid != tid ||
                   rp->icount != rp->user.sig_seen_icount ||
                   rp->trace.events != rp->user.sig_seen,
               RW_ENOTFOUND, "no signal of thread %u here", tid);
  RW_FORWARD(trace_rec_signal_get(&sg, rp->trace.pend.data,
                                  rp->trace.pend.len));
  memset(out, 0, 128);
  memcpy(out, sg.siginfo.p, RW_MIN(sg.siginfo.len, (size_t)128));
  return 0;
}

/* ---- The program's output, shown as the replay passes it -------------- */

void rp_set_echo(rp_replay *rp, rp_echo_fn echo, void *ctx) {
  rp->user.echo = echo;
  rp->user.echo_ctx = ctx;
  /* Only what comes after here: what came before was not shown, and
   * showing it when a reverse search re-runs it would be out of order. */
  if (rp->trace.last_seq > rp->user.echo_seq)
    rp->user.echo_seq = rp->trace.last_seq;
}

struct echo_walk {
  rp_replay *rp;
  cpu_mem *mem;
  int fd;
  u64 left; /* bytes the syscall wrote that are still to show */
};

static int echo_read(void *ctx, u64 addr, void *dst, size_t len) {
  struct echo_walk *w = ctx;
  return cpu_mem_read(w->mem, addr, dst, len);
}

static int echo_seg(void *ctx, u64 addr, u64 len) {
  struct echo_walk *w = ctx;
  len = RW_MIN(len, w->left);
  while (len > 0) {
    size_t n = (size_t)RW_MIN(len, (u64)RP_BUF);
    /* The kernel read these bytes: unreadable now would be a divergence,
     * which the OUTPUT check reports; show nothing more of them. */
    if (cpu_mem_read(w->mem, addr, w->rp->buf, n) < 0) return 1;
    w->rp->user.echo(w->rp->user.echo_ctx, w->fd, w->rp->buf, n);
    w->left -= n;
    addr += n, len -= n;
  }
  return w->left == 0;
}

void rp__echo(rp_replay *rp, struct rp__thread *t, u64 nr, i64 res,
              u64 seq) {
  struct rw_regs regs;
  if (!rp->user.echo || res <= 0 || seq <= rp->user.echo_seq) return;
  if (nr != RP_NR_write && nr != RP_NR_pwrite64 && nr != RP_NR_writev &&
      nr != RP_NR_pwritev && nr != RP_NR_pwritev2)
    return;
  cpu_get_regs(t->cpu, &regs);
  const u64 *g = regs.gpr;
  if (g[RW_REG_rdi] != 1 && g[RW_REG_rdi] != 2) return;
  rp->user.echo_seq = seq;
  u64 args[6] = {g[RW_REG_rdi], g[RW_REG_rsi], g[RW_REG_rdx],
                 g[RW_REG_r10], g[RW_REG_r8],  g[RW_REG_r9]};
  struct echo_walk w = {rp, t->proc->mem, (int)g[RW_REG_rdi], (u64)res};
  if (rw_outbuf_walk(nr, args, echo_read, &w, echo_seg, &w) < 0) return;
}
