/* SPDX-License-Identifier: MIT */
/* The fake replayer of fake_replay.h: just enough of replayer/replayer.h
 * for gdb_serve, over a made-up history that tests can compute by hand.
 * It is a test fixture, not a model of the emulator: there is no memory to
 * speak of (nops for code, zeros for the stack), no files and no auxv. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "gdbstub/gdbstub.h"
#include "tests/gdbstub/fake_replay.h"

#define CODE 0x1000ull  /* thread i's code starts at CODE * (i + 1) */
#define VARS 0x5000ull  /* thread i's variable is at VARS + 8 * i */
#define STACK 0x6000ull /* [STACK, STACK_END): the threads' stacks */
#define STACK_END 0x8000ull
#define MAXBP 16

/* Names with every XML special character, a control byte and UTF-8; the
 * third thread's name is unknown (the stub shows the program's). */
const struct fake_thread fake_threads[FAKE_NTHREADS] = {
    {0x64, "main", 0, FAKE_END + 1},
    {0x65, "w<&>\"'\x01\xc3\xa9", 5, 30},
    {0x66, "", 10, FAKE_END + 1},
};

struct rp_replay {
  u64 t;                           /* the position: instructions run */
  u64 xcr0;                        /* rp_xcr0: FAKE_XCR0 unless set */
  u64 bps[MAXBP];
  int nbps;
  struct {
    u64 addr, len;
    int kind;
  } wps[MAXBP];
  int nwps;
};

static int index_of(u32 tid) {
  for (int i = 0; i < FAKE_NTHREADS; i++)
    if (fake_threads[i].tid == tid) return i;
  return -1;
}

int fake_alive(u32 tid, u64 t) {
  int i = index_of(tid);
  return i >= 0 && fake_threads[i].born <= t && t < fake_threads[i].died;
}

u32 fake_sched(u64 t) {
  u32 alive[FAKE_NTHREADS];
  int n = 0;
  if (t >= FAKE_END) return 0;
  for (int i = 0; i < FAKE_NTHREADS; i++)
    if (fake_alive(fake_threads[i].tid, t)) alive[n++] = fake_threads[i].tid;
  return alive[(t / FAKE_SLICE) % (u64)n];
}

u64 fake_count(u32 tid, u64 t) {
  u64 n = 0;
  for (u64 i = 0; i < t && i < FAKE_END; i++) n += fake_sched(i) == tid;
  return n;
}

u64 fake_rip(u32 tid, u64 n) {
  return CODE * (u64)(index_of(tid) + 1) + 4 * n;
}

u64 fake_var(u32 tid) { return VARS + 8 * (u64)index_of(tid); }

rp_replay *fake_open(void) {
  rp_replay *rp = calloc(1, sizeof(rp_replay));
  if (rp) rp->xcr0 = FAKE_XCR0;
  return rp;
}
void fake_close(rp_replay *rp) { free(rp); }
void fake_goto(rp_replay *rp, u64 t) { rp->t = t < FAKE_END ? t : FAKE_END; }
void fake_set_xcr0(rp_replay *rp, u64 xcr0) { rp->xcr0 = xcr0; }

static u64 rip_now(u32 tid, u64 t) { return fake_rip(tid, fake_count(tid, t)); }

static int is_bp(const rp_replay *rp, u64 addr) {
  for (int i = 0; i < rp->nbps; i++)
    if (rp->bps[i] == addr) return 1;
  return 0;
}

/* 1 if a write watchpoint covers the variable of TID. */
static int is_watched(const rp_replay *rp, u32 tid) {
  u64 a = fake_var(tid);
  for (int i = 0; i < rp->nwps; i++)
    if ((rp->wps[i].kind & 2) && a < rp->wps[i].addr + rp->wps[i].len &&
        rp->wps[i].addr < a + 8)
      return 1;
  return 0;
}

static int stop_at(rp_replay *rp, struct rp_stop *st, int reason, u32 tid) {
  memset(st, 0, sizeof *st);
  st->reason = reason;
  st->icount = st->event = rp->t;
  st->tid = tid ? tid : rp_current_tid(rp);
  if (reason == RP_STOP_END) st->end = RP_END_EXIT;
  if (reason == RP_STOP_BREAKPOINT) st->addr = rip_now(st->tid, rp->t);
  if (reason == RP_STOP_WATCHPOINT) {
    st->addr = fake_var(tid);
    st->watch_size = 8;
    st->watch_kind = 2;
  }
  return 0;
}

int rp_run(rp_replay *rp, u64 until, struct rp_stop *st) {
  u64 start = rp->t;
  for (;;) {
    if (rp->t >= until) return stop_at(rp, st, RP_STOP_TARGET, 0);
    if (rp->t >= FAKE_END) return stop_at(rp, st, RP_STOP_END, 0);
    u32 x = fake_sched(rp->t);
    if (rp->t != start && is_bp(rp, rip_now(x, rp->t)))
      return stop_at(rp, st, RP_STOP_BREAKPOINT, x);
    rp->t++;
    if (is_watched(rp, x)) return stop_at(rp, st, RP_STOP_WATCHPOINT, x);
  }
}

int rp_step_thread(rp_replay *rp, u32 tid, struct rp_stop *st) {
  u64 start = rp->t;
  int done = 0; /* the blocking instruction ran: wait for TID's turn */
  if (!fake_alive(tid, rp->t)) return RW_ENOTFOUND;
  for (;;) {
    if (rp->t >= FAKE_END) return stop_at(rp, st, RP_STOP_END, 0);
    if (!fake_alive(tid, rp->t)) /* it exited: the step is over */
      return stop_at(rp, st, RP_STOP_TARGET, tid);
    u32 x = fake_sched(rp->t);
    if (done && x == tid) return stop_at(rp, st, RP_STOP_TARGET, tid);
    if (x != tid && rp->t != start && is_bp(rp, rip_now(x, rp->t)))
      return stop_at(rp, st, RP_STOP_BREAKPOINT, x);
    int blocks = x == fake_threads[0].tid &&
                 fake_count(x, rp->t) == FAKE_BLOCK_N;
    rp->t++;
    if (is_watched(rp, x)) return stop_at(rp, st, RP_STOP_WATCHPOINT, x);
    if (x == tid && !blocks) return stop_at(rp, st, RP_STOP_TARGET, tid);
    if (x == tid) done = 1;
  }
}

int rp_reverse_step_thread(rp_replay *rp, u32 tid, struct rp_stop *st) {
  if (!fake_alive(tid, rp->t)) return RW_ENOTFOUND;
  for (u64 t = rp->t; t-- > 0;) {
    if (fake_sched(t) != tid) continue;
    rp->t = t;
    return stop_at(rp, st, is_watched(rp, tid) ? RP_STOP_WATCHPOINT
                                               : RP_STOP_TARGET, tid);
  }
  return stop_at(rp, st, RP_STOP_BEGIN, tid);
}

int rp_reverse_step(rp_replay *rp, struct rp_stop *st) {
  if (rp->t == 0) return stop_at(rp, st, RP_STOP_BEGIN, 0);
  rp->t--;
  u32 x = fake_sched(rp->t);
  return stop_at(rp, st, is_watched(rp, x) ? RP_STOP_WATCHPOINT
                                           : RP_STOP_TARGET, x);
}

int rp_reverse_continue(rp_replay *rp, struct rp_stop *st) {
  for (u64 t = rp->t; t-- > 0;) {
    u32 x = fake_sched(t);
    if (is_watched(rp, x) || is_bp(rp, rip_now(x, t))) {
      rp->t = t;
      return stop_at(rp, st, is_watched(rp, x) ? RP_STOP_WATCHPOINT
                                               : RP_STOP_BREAKPOINT, x);
    }
  }
  rp->t = 0;
  return stop_at(rp, st, RP_STOP_BEGIN, 0);
}

int rp_seek(rp_replay *rp, u64 icount, struct rp_stop *st) {
  rp->t = icount < FAKE_END ? icount : FAKE_END;
  return stop_at(rp, st, rp->t == FAKE_END ? RP_STOP_END : RP_STOP_TARGET, 0);
}

u64 rp_icount(const rp_replay *rp) { return rp->t; }
u64 rp_event(const rp_replay *rp) { return rp->t; }
u64 rp_end_icount(const rp_replay *rp) { return rp ? FAKE_END : 0; }

u32 rp_current_tid(const rp_replay *rp) {
  return rp->t < FAKE_END ? fake_sched(rp->t) : fake_threads[0].tid;
}

size_t rp_threads(rp_replay *rp, struct rp_thread *out, size_t cap) {
  size_t n = 0;
  for (int i = 0; i < FAKE_NTHREADS; i++) {
    const struct fake_thread *f = &fake_threads[i];
    if (!fake_alive(f->tid, rp->t)) continue;
    if (n < cap) {
      memset(&out[n], 0, sizeof out[n]);
      out[n].tid = f->tid;
      out[n].pid = FAKE_PID;
      memcpy(out[n].name, f->name, strlen(f->name)); /* < 16 bytes */
      out[n].icount = fake_count(f->tid, rp->t);
    }
    n++;
  }
  return n;
}

int rp_get_regs(rp_replay *rp, u32 tid, struct rw_regs *regs) {
  if (!tid) tid = rp_current_tid(rp);
  if (!fake_alive(tid, rp->t)) return RW_ENOTFOUND;
  int i = index_of(tid);
  memset(regs, 0, sizeof *regs);
  regs->gpr[RW_REG_rax] = tid;
  regs->gpr[RW_REG_rsp] = STACK_END - 0x100 - 0x200 * (u64)i;
  regs->rip = rip_now(tid, rp->t);
  regs->rflags = 0x202;
  regs->seg[RW_SEG_cs] = 0x33;
  regs->seg[RW_SEG_ss] = 0x2b;
  wr_le16(regs->fxsave + 0, 0x37f);
  wr_le32(regs->fxsave + 24, 0x1f80);
  regs->k[1] = tid; /* an AVX-512 register, as rax */
  return 0;
}

u64 rp_xcr0(const rp_replay *rp) { return rp->xcr0; }

int rp_read_mem(rp_replay *rp, u64 addr, void *dst, size_t len) {
  u8 *d = dst;
  for (size_t k = 0; k < len; k++) {
    u64 a = addr + k;
    if (a >= CODE && a < CODE * (FAKE_NTHREADS + 1)) {
      static const u8 nop4[4] = {0x0f, 0x1f, 0x40, 0x00}; /* nopl 0(%rax) */
      d[k] = nop4[a % 4];
    } else if (a >= VARS && a < VARS + 8 * FAKE_NTHREADS) {
      u8 v[8];
      wr_le64(v, fake_count(fake_threads[(a - VARS) / 8].tid, rp->t));
      d[k] = v[(a - VARS) % 8];
    } else if (a >= STACK && a < STACK_END) {
      d[k] = 0;
    } else {
      return RW_EFAULT;
    }
  }
  return 0;
}

int rp_break_add(rp_replay *rp, u64 addr) {
  if (rp->nbps == MAXBP) return RW_ENOMEM;
  rp->bps[rp->nbps++] = addr;
  return 0;
}

int rp_break_del(rp_replay *rp, u64 addr) {
  for (int i = 0; i < rp->nbps; i++)
    if (rp->bps[i] == addr) {
      rp->bps[i] = rp->bps[--rp->nbps];
      return 0;
    }
  return RW_ENOTFOUND;
}

int rp_watch_add(rp_replay *rp, u64 addr, u64 len, int kind) {
  if (rp->nwps == MAXBP) return RW_ENOMEM;
  rp->wps[rp->nwps].addr = addr;
  rp->wps[rp->nwps].len = len;
  rp->wps[rp->nwps++].kind = kind;
  return 0;
}

int rp_watch_del(rp_replay *rp, u64 addr, u64 len, int kind) {
  for (int i = 0; i < rp->nwps; i++)
    if (rp->wps[i].addr == addr && rp->wps[i].len == len &&
        rp->wps[i].kind == kind) {
      rp->wps[i] = rp->wps[--rp->nwps];
      return 0;
    }
  return RW_ENOTFOUND;
}

int rp_get_image(rp_replay *rp, struct rp_image *img) {
  memset(img, 0, sizeof *img);
  img->pid = rp ? FAKE_PID : 0;
  img->path = "/fake/prog";
  return 0;
}

int rp_maps_text(rp_replay *rp, char **out, size_t *len) {
  (void)rp;
  static const char text[] = "1000-2000 r-xp 00000000 00:00 0 /fake\n";
  *out = strdup(text);
  *len = sizeof text - 1;
  return *out ? 0 : RW_ENOMEM;
}

/* The fake trace has no metadata. */
int rp_meta(const rp_replay *rp, const char *key, char *dst, size_t cap) {
  (void)rp;
  (void)key;
  (void)dst;
  (void)cap;
  return RW_ENOTFOUND;
}

int rp_file_find(rp_replay *rp, const char *path, struct rp_file *f) {
  (void)rp, (void)path, (void)f;
  return RW_ENOTFOUND;
}

i64 rp_file_read(rp_replay *rp, const struct rp_file *f, u64 off, void *dst,
                 size_t cap) {
  (void)rp, (void)f, (void)off, (void)dst, (void)cap;
  return RW_ENOTFOUND;
}

/* Runs never ask: the session's input is all there from the start, and
 * its end would read as gdb hanging up. */
void rp_set_poll(rp_replay *rp, int (*poll)(void *ctx), void *ctx) {
  (void)rp, (void)poll, (void)ctx;
}

/* The fake has one program image: there is never an exec to stop at. */
void rp_set_exec_stops(rp_replay *rp, int on) { (void)rp, (void)on; }

/* And one process: no forks, and every thread is FAKE_PID's. */
void rp_set_proc_stops(rp_replay *rp, int on) { (void)rp, (void)on; }
u32 rp_view_pid(const rp_replay *rp) { return rp ? FAKE_PID : 0; }
u32 rp_thread_pid(rp_replay *rp, u32 tid) {
  (void)tid;
  return rp ? FAKE_PID : 0;
}
int rp_set_view(rp_replay *rp, u32 pid) {
  (void)rp;
  return pid == 0 || pid == FAKE_PID ? 0 : RW_ENOTFOUND;
}

/* ---- Sessions ----------------------------------------------------------- */

int fake_session(rp_replay *rp, const char *const *packets, char **out,
                 int cap) {
  struct gdb_serve_opts opts = {.name = "fake", .quiet = 1};
  FILE *in = tmpfile(), *o = tmpfile();
  char *all = NULL;
  int n = -1;
  long size;
  out[0] = NULL;
  if (!in || !o) goto done;
  for (const char *const *p = packets; *p; p++) {
    unsigned sum = 0;
    for (const char *c = *p; *c; c++) sum += (u8)*c;
    fprintf(in, "$%s#%02x", *p, sum & 0xff);
  }
  if (fflush(in) || lseek(fileno(in), 0, SEEK_SET) != 0) goto done;
  if (gdb_serve(rp, fileno(in), fileno(o), &opts) < 0) goto done;
  size = lseek(fileno(o), 0, SEEK_END);
  if (size < 0 || lseek(fileno(o), 0, SEEK_SET) != 0) goto done;
  all = malloc((size_t)size + 1);
  if (!all || read(fileno(o), all, (size_t)size) != size) goto done;
  all[size] = 0;
  n = 0;
  for (char *p = all; *p && n < cap - 1;) {
    if (*p != '$') {
      p++; /* acks */
      continue;
    }
    char *end = strchr(p, '#');
    if (!end) break;
    out[n] = strndup(p + 1, (size_t)(end - p - 1));
    if (!out[n]) break;
    out[++n] = NULL;
    p = end + 1 + (end[1] ? 1 : 0) + (end[1] && end[2] ? 1 : 0);
  }
done:
  free(all);
  if (in) fclose(in);
  if (o) fclose(o);
  return n;
}

void fake_free_replies(char **out) {
  for (int i = 0; out[i]; i++) free(out[i]);
  out[0] = NULL;
}

void fake_le_hex(u64 v, char out[17]) {
  for (int i = 0; i < 8; i++) sprintf(out + 2 * i, "%02x", (unsigned)(u8)(v >> (8 * i)));
}

void fake_run(struct fake_run *run, u64 at, const char *const *packets) {
  rp_replay *rp = fake_open();
  run->r[0] = NULL;
  run->n = -1;
  if (!rp) return;
  fake_goto(rp, at);
  run->n = fake_session(rp, packets, run->r, FAKE_MAXREPLY);
  fake_close(rp);
}

void fake_run_free(struct fake_run *run) { fake_free_replies(run->r); }

/* The fake history has no syscalls: the stops are accepted and never met. */
int rp_set_syscall_stops(rp_replay *rp, int on, const u32 *nrs, size_t n) {
  (void)rp, (void)on;
  for (size_t i = 0; on && i < n; i++)
    if (nrs[i] >= RP_SYSCALL_MAX) return RW_EINVAL;
  return 0;
}

/* Nor any output. */
void rp_set_echo(rp_replay *rp, rp_echo_fn echo, void *ctx) {
  (void)rp, (void)echo, (void)ctx;
}

/* No calls in the fake history: an empty stack. */
int rp_shadow_text(rp_replay *rp, u32 tid, void (*tick)(void *ctx),
                   void *ctx, char **out) {
  (void)rp, (void)ctx;
  if (tick) tick(ctx);
  *out = strdup(tid ? "no frames\n" : "");
  return *out ? 0 : RW_ENOMEM;
}

/* Nor a call history: the list is always empty. */
struct rp_calls {
  int none;
};
int rp_calls_whole(rp_replay *rp, const char *fn, size_t max,
                   void (*tick)(void *ctx), void *ctx, rp_calls **out) {
  (void)rp, (void)fn, (void)max;
  if (tick) tick(ctx);
  *out = calloc(1, sizeof **out);
  return *out ? 0 : RW_ENOMEM;
}
size_t rp_calls_count(const rp_calls *c, u64 *dropped) {
  (void)c;
  if (dropped) *dropped = 0;
  return 0;
}
const struct rp_call *rp_calls_get(const rp_calls *c, size_t i) {
  (void)c, (void)i;
  return NULL;
}
void rp_calls_free(rp_calls *c) { free(c); }

/* Nor rep instructions: the list is always empty. */
struct rp_profile {
  int none;
};
int rp_reps_whole(rp_replay *rp, void (*tick)(void *ctx), void *ctx,
                  rp_profile **out) {
  (void)rp;
  if (tick) tick(ctx);
  *out = calloc(1, sizeof **out);
  return *out ? 0 : RW_ENOMEM;
}
int rp_profile_reps(const rp_profile *p, FILE *out, size_t top, int json) {
  (void)p, (void)top, (void)json;
  return fputs("(none)\n", out) < 0 ? RW_ERR(EIO) : 0;
}
void rp_profile_free(rp_profile *p) { free(p); }

/* Nor instructions to count. */
struct rp_counts {
  int none;
};
int rp_counts_whole(rp_replay *rp, const struct rp_count_opts *o,
                    void (*tick)(void *ctx), void *ctx, rp_counts **out) {
  (void)rp, (void)o;
  if (tick) tick(ctx);
  *out = calloc(1, sizeof **out);
  return *out ? 0 : RW_ENOMEM;
}
int rp_counts_write(const rp_counts *c, FILE *out, size_t top, int json) {
  (void)c, (void)top, (void)json;
  return fputs("(no instructions)\n", out) < 0 ? RW_ERR(EIO) : 0;
}
void rp_counts_free(rp_counts *c) { free(c); }
/* Nothing mapped to name, nor to set a stop mark in. */
int rp_symbolize(rp_replay *rp, u64 addr, char *dst, size_t cap) {
  (void)rp, (void)addr, (void)dst, (void)cap;
  return RW_ENOTFOUND;
}
int rp_mark_where(rp_replay *rp, const struct rp_mark *m, u64 *lo, u64 *hi) {
  (void)rp, (void)m, (void)lo, (void)hi;
  return RW_ENOTFOUND;
}
int rp_counts_src_seen(const rp_counts *c) {
  (void)c;
  return 1;
}
/* No source lines here: a FILE:N is taken as a function name's usage
 * error. */
int rp_lines_parse(const char *arg, char *file, size_t cap, u32 *lo,
                   u32 *hi) {
  (void)arg, (void)file, (void)cap, (void)lo, (void)hi;
  return RW_EINVAL;
}
int rp_counts_marks(const rp_counts *c, FILE *out, int json) {
  (void)c, (void)json;
  return fputs("(no marks)\n", out) < 0 ? RW_ERR(EIO) : 0;
}
int rp_mark_parse(const char *spec, struct rp_mark *m, char *err,
                  size_t cap) {
  (void)cap;
  memset(m, 0, sizeof *m);
  err[0] = 0;
  m->text = strdup(spec);
  return m->text ? 0 : RW_ENOMEM;
}

/* Rep stops are kept, and never met. */
static int fake_rep_stops;
static int fake_sig_on;
static u64 fake_sig_pass;

void rp_set_signal_stops(rp_replay *rp, int on, u64 pass) {
  (void)rp;
  fake_sig_on = on;
  fake_sig_pass = pass;
}

int fake_signal_stops(u64 *pass) {
  *pass = fake_sig_pass;
  return fake_sig_on;
}

int rp_set_rep_stops(rp_replay *rp, int mode) {
  (void)rp;
  if (mode < 0 || mode > 2) return RW_EINVAL;
  fake_rep_stops = mode;
  return 0;
}
int rp_rep_stops(const rp_replay *rp) {
  (void)rp;
  return fake_rep_stops;
}

/* Nor data accesses. */
struct rp_data {
  int none;
};
int rp_data_whole(rp_replay *rp, const struct rp_data_opts *o,
                  void (*tick)(void *ctx), void *ctx, rp_data **out) {
  (void)rp, (void)o;
  if (tick) tick(ctx);
  *out = calloc(1, sizeof **out);
  return *out ? 0 : RW_ENOMEM;
}
int rp_data_write(const rp_data *d, FILE *out, size_t top, int all,
                  int json) {
  (void)d, (void)top, (void)all, (void)json;
  return fputs("(no accesses)\n", out) < 0 ? RW_ERR(EIO) : 0;
}
void rp_data_free(rp_data *d) { free(d); }

/* Nor memory accesses to search. */
int rp_access_find(rp_replay *rp, int backwards, int kind, u64 addr,
                   u64 len, struct rp_access *a) {
  (void)rp, (void)backwards, (void)kind, (void)addr, (void)len;
  memset(a, 0, sizeof *a);
  return 0;
}

/* Nor branches. */
int rp_branches_text(rp_replay *rp, u32 tid, size_t n,
                     void (*tick)(void *ctx), void *ctx, char **out) {
  (void)rp, (void)n;
  if (tick) tick(ctx);
  *out = strdup(tid ? "no branches\n" : "");
  return *out ? 0 : RW_ENOMEM;
}

/* Nor diversions: its memory and registers are computed, not stored. */
int rp_diverted(const rp_replay *rp) {
  (void)rp;
  return 0;
}
int rp_divert_write_mem(rp_replay *rp, u64 addr, const void *src,
                        size_t len) {
  (void)rp, (void)addr, (void)src, (void)len;
  return RW_EINVAL;
}
int rp_divert_set_regs(rp_replay *rp, u32 tid, const struct rw_regs *regs) {
  (void)rp, (void)tid, (void)regs;
  return RW_EINVAL;
}
int rp_divert_run(rp_replay *rp, u32 tid, int step,
                  struct rp_divert_stop *out) {
  (void)rp, (void)tid, (void)step;
  memset(out, 0, sizeof *out);
  return RW_EINVAL;
}
int rp_divert_clean(rp_replay *rp) {
  (void)rp;
  return 1;
}
int rp_divert_end(rp_replay *rp) {
  (void)rp;
  return 0;
}
int rp_signal_siginfo(rp_replay *rp, u32 tid, u8 out[128]) {
  (void)rp, (void)tid;
  memset(out, 0, 128);
  return RW_ENOTFOUND;
}

int rp_fault_siginfo(rp_replay *rp, u32 tid, int signo, u8 out[128]) {
  (void)rp, (void)tid, (void)signo;
  memset(out, 0, 128);
  return RW_ENOTFOUND;
}
