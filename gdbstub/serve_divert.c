/* SPDX-License-Identifier: MIT */
/* gdb's changes to a replay: call f(x), print f(x), set var. The recording
 * cannot change, so they go to a diversion (replayer/divert.c): a copy of
 * the state at the current position that memory and register writes
 * change and that a call runs on, alone and off the record. gdb's call
 * writes a return address and arguments, sets the registers, continues
 * to a breakpoint at that return address, reads the result and puts the
 * registers back. The diversion ends at the first resume after that (or
 * at any backward one, or a monitor command), and at any resume that is
 * not a call's (set var, then next): the kept state comes back and the
 * replay moves on as recorded. */
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "gdbstub/serve_int.h"

/* Bytes of an M (hex) or X (binary) packet's data into a new buffer. */
static u8 *mem_data(const struct gdb_request *q) {
  size_t n = q->u.mem.len;
  u8 *b = malloc(n ? n : 1);
  if (!b) return NULL;
  if (q->u.mem.binary) {
    memcpy(b, q->u.mem.data, n);
    return b;
  }
  for (size_t i = 0; i < n; i++)
    b[i] = (u8)(gdb__hexval((u8)q->u.mem.data[2 * i]) << 4 |
                gdb__hexval((u8)q->u.mem.data[2 * i + 1]));
  return b;
}

/* The first time, what a diversion is (stderr: gdb waits for an OK). */
static void tell(struct gdb__sess *s) {
  if (s->div_told) return;
  s->div_told = 1;
  gdb__note(s, "gdb changes the replay's memory or registers (call, print "
               "f(), set var): on a copy of this moment, where called code "
               "runs off the record (its syscalls fail with ENOSYS); the "
               "recorded state comes back when the replay moves on");
}

static int write_mem(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  if (!q->u.mem.len) return 0; /* gdb's probe for X */
  u8 *b = mem_data(q), *now = malloc(q->u.mem.len);
  int rc = b && now ? 0 : RW_ENOMEM;
  /* The same bytes again change nothing: no diversion for them. */
  if (rc == 0 && !rp_diverted(s->rp) &&
      rp_read_mem(s->rp, q->u.mem.addr, now, q->u.mem.len) == 0 &&
      !memcmp(now, b, q->u.mem.len)) {
    free(b);
    free(now);
    return 0;
  }
  if (rc == 0) rc = rp_divert_write_mem(s->rp, q->u.mem.addr, b,
                                        q->u.mem.len);
  if (rc == 0) s->div_set = 1;
  free(b);
  free(now);
  return rc;
}

/* Register REGNUM from the LEN hex digits at HEX into REGS. */
static int put_reg(struct rw_regs *regs, unsigned regnum, const char *hex,
                   size_t len) {
  u8 v[GDB_REG_MAX];
  RW_RETURN_IF(len / 2 > sizeof v, RW_EINVAL, "register value too long");
  for (size_t i = 0; i < len / 2; i++)
    v[i] = (u8)(gdb__hexval((u8)hex[2 * i]) << 4 |
                gdb__hexval((u8)hex[2 * i + 1]));
  return gdb_reg_write(regs, regnum, v, len / 2);
}

static int write_regs(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  struct rw_regs regs, was;
  u32 tid = gdb__sel_thread(s);
  u64 xcr0 = rp_xcr0(s->rp);
  RW_RETURN_IF(s->g_dead, RW_ENOTFOUND, "no thread");
  RW_FORWARD(rp_get_regs(s->rp, tid, &regs));
  was = regs;
  if (q->kind == GDB_REQ_WRITE_REG) {
    RW_RETURN_IF(q->u.reg.regnum > 0xffff ||
                 !gdb_reg_offered((unsigned)q->u.reg.regnum, xcr0),
                 RW_ENOTFOUND, "register %llu",
                 (unsigned long long)q->u.reg.regnum);
    RW_FORWARD(put_reg(&regs, (unsigned)q->u.reg.regnum, q->u.reg.value,
                       q->u.reg.value_len));
  } else { /* G: the registers in 'g' order, as many as given */
    const char *p = q->u.reg.value;
    size_t left = q->u.reg.value_len;
    for (unsigned i = 0; i < GDB_NREGS && left; i++) {
      if (!gdb_reg_offered(i, xcr0)) continue;
      size_t n = 2 * (size_t)gdb_reg_size(i);
      RW_RETURN_IF(n > left, RW_EINVAL, "G data ends inside %s",
                   gdb_reg_name(i));
      RW_FORWARD(put_reg(&regs, i, p, n));
      p += n;
      left -= n;
    }
    RW_RETURN_IF(left, RW_EINVAL, "G data longer than the registers");
  }
  if (!rp_diverted(s->rp) && !memcmp(&regs, &was, sizeof regs)) return 0;
  return rp_divert_set_regs(s->rp, tid, &regs);
}

void gdb__divert_write(struct gdb__sess *s) {
  int rc = s->req.kind == GDB_REQ_WRITE_MEM ? write_mem(s) : write_regs(s);
  if (rc < 0) {
    gdb_reply_error_msg(&s->reply, rc == RW_EFAULT ? "no memory there"
                                   : rc == RW_ENOTFOUND
                                       ? "no such register or thread"
                                       : rw_strerror(rc));
    return;
  }
  if (rp_diverted(s->rp)) tell(s);
  gdb_buf_puts(&s->reply, "OK");
}

int gdb__divert_end(struct gdb__sess *s) {
  if (!rp_diverted(s->rp)) return 0;
  /* Registers not put back, or memory set since the last call ran: values
   * set by hand. */
  if (s->div_set || !rp_divert_clean(s->rp))
    gdb__note(s, "the values gdb set are dropped: the replay goes on as "
                 "recorded");
  s->div_set = 0;
  s->div_calls = 0;
  s->div_stop_rip = 0;
  return rp_divert_end(s->rp);
}

/* The thread a diverted resume runs, and whether it steps (over
 * [*LO, *HI) with a range step). */
static u32 divert_plan(struct gdb__sess *s, int *step, u64 *lo, u64 *hi) {
  const struct gdb_request *q = &s->req;
  u32 tid = gdb__cont_thread(s), t;
  *step = 0;
  *lo = *hi = 0;
  for (unsigned i = 0; i < q->u.cont.n; i++) {
    const struct gdb_action *a = &q->u.cont.act[i];
    if (a->kind != GDB_ACT_STEP && a->kind != GDB_ACT_STEP_SIG &&
        a->kind != GDB_ACT_RANGE)
      continue;
    if (a->has_tid && gdb__tid_match(s, &a->tid, &t) == GDB__TID_ONE)
      tid = t;
    *step = 1;
    if (a->kind == GDB_ACT_RANGE) {
      *lo = a->start;
      *hi = a->end;
    }
    break;
  }
  return tid;
}

/* Whether thread TID is set up as gdb's call sets one up: its return
 * address, at the top of the stack, is where gdb has a breakpoint (the
 * dummy frame's, at the program's entry point), and rip is elsewhere. */
static int call_set_up(struct gdb__sess *s, u32 tid) {
  struct rw_regs r;
  u8 b[8];
  if (rp_get_regs(s->rp, tid, &r) < 0 ||
      rp_read_mem(s->rp, r.gpr[RW_REG_rsp], b, sizeof b) < 0)
    return 0;
  u64 ret = rd_le64(b);
  /* (and not a call that stopped at its first instruction, resumed) */
  if (ret == r.rip || r.rip == s->div_stop_rip ||
      !gdb__bp_at(s, ret, rp_view_pid(s->rp)))
    return 0;
  s->div_ret = ret;
  return 1;
}

int gdb__divert_resume(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  int step;
  u64 lo, hi;
  if (q->u.cont.dir == GDB_REVERSE || rp_divert_clean(s->rp)) {
    RW_FORWARD(gdb__divert_end(s));
    return 1;
  }
  RW_FORWARD(gdb__threads_load(s));
  u32 tid = divert_plan(s, &step, &lo, &hi);
  /* Values set by hand (set var $rax = 1, then step): the replay goes on
   * as recorded. Only calls run off the record (one may call another
   * from a breakpoint inside it). */
  if (call_set_up(s, tid)) {
    s->div_calls++;
  } else if (!s->div_calls) {
    RW_FORWARD(gdb__divert_end(s));
    return 1;
  }
  if (q->u.cont.has_addr) {
    gdb_reply_error_msg(&s->reply, "set $pc instead of resuming at an "
                                   "address");
    return 0;
  }
  struct rp_divert_stop d;
  struct rw_regs r;
  u64 calls = 0;
  u32 last_sys = 0;
  s->interrupt = memchr(s->in + s->in_off, 0x03, s->in_len - s->in_off) != 0;
  do {
    int rc = rp_divert_run(s->rp, tid, step, &d);
    if (rc == RW_ENOTFOUND) {
      gdb_reply_error_msg(&s->reply, "no such thread at this position");
      return 0;
    }
    RW_FORWARD(rc);
    calls += d.syscalls;
    if (d.syscalls) last_sys = d.last_sys;
    RW_FORWARD(rp_get_regs(s->rp, tid, &r));
  } while (d.reason == RP_DIV_STEP && r.rip >= lo && r.rip < hi);
  s->div_set = 0;
  s->div_stop_rip = r.rip;
  /* Back at a call's return address: that call is over. */
  if (r.rip == s->div_ret && s->div_calls) s->div_calls--;
  char msg[400];
  if (calls) {
    snprintf(msg, sizeof msg, "rewind: off the record, %llu syscall%s "
             "(the last: %s) returned ENOSYS\n", (unsigned long long)calls,
             calls > 1 ? "s" : "", rw_syscall_name(last_sys));
    RW_FORWARD(gdb__console(s, msg));
  }
  if (d.msg[0]) {
    snprintf(msg, sizeof msg, "rewind: off the record: %s\n", d.msg);
    RW_FORWARD(gdb__console(s, msg));
  }
  struct rp_stop st;
  memset(&st, 0, sizeof st);
  st.icount = rp_icount(s->rp);
  st.event = rp_event(s->rp);
  st.tid = tid;
  st.addr = d.addr;
  st.reason = d.reason == RP_DIV_BREAKPOINT    ? RP_STOP_BREAKPOINT
              : d.reason == RP_DIV_WATCHPOINT  ? RP_STOP_WATCHPOINT
              : d.reason == RP_DIV_INTERRUPTED ? RP_STOP_INTERRUPTED
                                               : RP_STOP_TARGET;
  st.watch_size = d.watch_size;
  st.watch_kind = d.watch_kind;
  s->last = st;
  s->fork_tid = 0;
  s->last_dir = GDB_FORWARD;
  s->g_tid = tid;
  if (d.reason == RP_DIV_SIGNAL)
    gdb__stop_reply_signal(s, &st, d.signo);
  else
    gdb__stop_reply(s, &st);
  return 0;
}
