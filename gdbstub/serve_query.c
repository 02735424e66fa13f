/* SPDX-License-Identifier: MIT */
/* Answers to the packets that read the replay without moving it: the stop
 * reason, registers (of the thread Hg selected), memory, qSupported and the
 * qXfer objects (target description, auxv, exec file, threads). The thread
 * packets themselves are serve_thread.c's. Everything is read from the
 * replay's current position; nothing here can change it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/serve_int.h"

/* gdb's EFAULT-style error for memory that cannot be read. */
#define E_FAULT 0x0e

static void read_mem(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  static u8 buf[GDB_MEM_READ_MAX];
  u64 addr = q->u.mem.addr;
  size_t len = (size_t)RW_MIN(q->u.mem.len, (u64)GDB_MEM_READ_MAX), got = 0;
  if (!s->view_ok) { /* never another process's memory */
    gdb_reply_error(&s->reply, E_FAULT);
    return;
  }
  if (len && rp_read_mem(s->rp, addr, buf, len) == 0) {
    got = len;
  } else {
    /* Return the readable prefix, page by page. */
    while (got < len) {
      u64 a = addr + got;
      size_t n = RW_MIN(len - got, (size_t)(4096 - (a & 4095)));
      if (rp_read_mem(s->rp, a, buf + got, n) < 0) break;
      got += n;
    }
  }
  if (len && !got) {
    gdb_reply_error(&s->reply, E_FAULT);
    return;
  }
  gdb_buf_put_hex(&s->reply, buf, got);
}

static void supported(struct gdb__sess *s) {
  s->features = s->req.u.supported.features;
  gdb_buf_printf(&s->reply,
                 "PacketSize=%x;QStartNoAckMode+;ReverseContinue+;"
                 "ReverseStep+;qXfer:features:read+;qXfer:auxv:read+;"
                 "qXfer:exec-file:read+;qXfer:threads:read+;"
                 "vContSupported+;QPassSignals+;QProgramSignals+;"
                 "QCatchSyscalls+;qXfer:siginfo:read+",
                 GDB_PACKET_MAX);
  if (s->features & GDB_FEAT_MULTIPROCESS)
    gdb_buf_puts(&s->reply, ";multiprocess+");
  if (s->features & GDB_FEAT_SWBREAK) gdb_buf_puts(&s->reply, ";swbreak+");
  if (s->features & GDB_FEAT_HWBREAK) gdb_buf_puts(&s->reply, ";hwbreak+");
  /* gdb loads the new program at an exec (forwards), so the replay stops
   * there for it. */
  if (s->features & GDB_FEAT_EXEC_EVENTS) gdb_buf_puts(&s->reply,
                                                       ";exec-events+");
  rp_set_exec_stops(s->rp, (s->features & GDB_FEAT_EXEC_EVENTS) != 0);
  /* With the tree, gdb adds each child as it is forked (vfork children
   * too: they are told as forks, each its own inferior). */
  int forks = s->opts.tree && (s->features & GDB_FEAT_FORK_EVENTS);
  if (forks) gdb_buf_puts(&s->reply, ";fork-events+");
  rp_set_proc_stops(s->rp, forks);
}

static void xfer(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  struct gdb_buf x;
  struct rp_image img;
  u64 off = q->u.xfer.off, len = q->u.xfer.len;
  gdb_buf_init(&x, 1u << 20);
  switch ((int)q->u.xfer.object) {
    case GDB_XFER_FEATURES:
      /* Format: qXfer:features:read:annex:off,len */
      if (gdb_tdesc_lookup(q->u.xfer.annex, q->u.xfer.annex_len,
                           rp_xcr0(s->rp), &x) < 0) {
        gdb_reply_error_msg(&s->reply, "no such target description");
        goto out;
      }
      break;
    case GDB_XFER_AUXV:
      /* Format: qXfer:auxv:read::off,len */
      if (rp_get_image(s->rp, &img) < 0 || !img.auxv) {
        gdb_reply_error_msg(&s->reply, "the trace has no auxiliary vector");
        goto out;
      }
      gdb_reply_xfer(&s->reply, img.auxv, img.auxv_len, off, len);
      goto out;
    case GDB_XFER_EXEC_FILE: {
      /* Format: qXfer:exec-file:read:pid:off,len */
      int rc = 0;
      if (s->opts.tree && q->u.xfer.annex_len) { /* that process's */
        char hex[16];
        size_t n = RW_MIN(q->u.xfer.annex_len, sizeof hex - 1);
        memcpy(hex, q->u.xfer.annex, n);
        hex[n] = 0;
        rc = rp_set_view(s->rp, (u32)strtoul(hex, NULL, 16));
      }
      if (rc < 0 || rp_get_image(s->rp, &img) < 0 || !img.path) {
        gdb__view_sync(s);
        gdb_reply_error_msg(&s->reply, "no program image here");
        goto out;
      }
      gdb__view_sync(s);
      gdb_buf_puts(&x, img.path);
      break;
    }
    case GDB_XFER_THREADS:
      /* Format: qXfer:threads:read::off,len (none after a kill) */
      if (s->killed) {
        gdb_buf_puts(&x, "<threads>\n</threads>\n");
        break;
      }
      if (gdb__threads_xml(s, &x) < 0) {
        gdb_reply_error_msg(&s->reply, "out of memory");
        goto out;
      }
      break;
    case GDB_XFER_SIGINFO: {
      /* Format: qXfer:siginfo:read::off,len ($_siginfo): the signal
       * about to be delivered at a signal stop, as recorded, or the fault
       * that ended the program, where it stands at the end of its
       * history. */
      u8 si[128];
      const struct rp_stop *l = &s->last;
      int here = rp_icount(s->rp) == l->icount && !rp_diverted(s->rp) &&
                 gdb__sel_thread(s) == l->tid;
      if (here && l->reason == RP_STOP_SIGNAL &&
          rp_signal_siginfo(s->rp, l->tid, si) == 0) {
        gdb_reply_xfer(&s->reply, si, sizeof si, off, len);
        goto out;
      }
      if (!here || l->reason != RP_STOP_END || l->end != RP_END_SIGNAL ||
          rp_fault_siginfo(s->rp, l->tid, l->status, si) < 0) {
        gdb_reply_error_msg(&s->reply, "no signal here");
        goto out;
      }
      gdb_reply_xfer(&s->reply, si, sizeof si, off, len);
      goto out;
    }
    case GDB_XFER_LIBRARIES_SVR4:
    default:
      goto out; /* not offered: the empty reply */
  }
  if (x.err)
    gdb_reply_error_msg(&s->reply, "object too large");
  else
    gdb_reply_xfer(&s->reply, x.data, x.len, off, len);
out:
  gdb_buf_free(&x);
}

/* The registers of a thread gdb still lists in a process that does not
 * exist here (gdb keeps an inferior's last thread until it is told of an
 * exit, which the tree does not tell: the process lives again further
 * back), all of them (REGNUM -1) or one: "unavailable" ('x'), as gdb
 * shows a value a traceframe did not collect. */
static void unavailable(struct gdb__sess *s, long regnum) {
  struct rw_regs zero;
  size_t at = s->reply.len;
  memset(&zero, 0, sizeof zero);
  if (regnum < 0)
    gdb_regs_put_g(&s->reply, &zero, rp_xcr0(s->rp));
  else if (gdb_reg_put_hex(&s->reply, &zero, (unsigned)regnum,
                           rp_xcr0(s->rp)) < 0) {
    gdb_reply_error_msg(&s->reply, "no such register");
    return;
  }
  if (!s->reply.err) memset(s->reply.data + at, 'x', s->reply.len - at);
}

void gdb__query(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  struct rw_regs regs;
  switch ((int)q->kind) {
    case GDB_REQ_STOP_REASON: /* Format: ? */
      gdb__stop_reply(s, &s->last);
      return;
    case GDB_REQ_READ_REGS: /* Format: g (of the Hg thread) */
      if (s->g_dead) {
        unavailable(s, -1);
        return;
      }
      if (rp_get_regs(s->rp, gdb__sel_thread(s), &regs) < 0)
        gdb_reply_error_msg(&s->reply, "no such thread at this position");
      else
        gdb_regs_put_g(&s->reply, &regs, rp_xcr0(s->rp));
      return;
    case GDB_REQ_READ_REG: /* Format: p n (of the Hg thread) */
      if (s->g_dead && q->u.reg.regnum <= 0xffff) {
        unavailable(s, (long)q->u.reg.regnum);
        return;
      }
      if (rp_get_regs(s->rp, gdb__sel_thread(s), &regs) < 0 ||
          q->u.reg.regnum > 0xffff ||
          gdb_reg_put_hex(&s->reply, &regs, (unsigned)q->u.reg.regnum,
                          rp_xcr0(s->rp)) < 0)
        gdb_reply_error_msg(&s->reply, "no such register");
      return;
    case GDB_REQ_READ_MEM: /* Format: m addr,length */
      read_mem(s);
      return;
    case GDB_REQ_VCONT_QUERY: /* Format: vCont? */
      gdb_buf_puts(&s->reply, "vCont;c;C;s;S;r");
      return;
    case GDB_REQ_SET_THREAD:        /* Format: H op thread-id */
    case GDB_REQ_THREAD_ALIVE:      /* Format: T thread-id */
    case GDB_REQ_CURRENT_THREAD:    /* Format: qC */
    case GDB_REQ_THREAD_INFO_FIRST: /* Format: qfThreadInfo */
    case GDB_REQ_THREAD_INFO_NEXT:  /* Format: qsThreadInfo */
    case GDB_REQ_THREAD_EXTRA_INFO: /* Format: qThreadExtraInfo,id */
      gdb__thread_query(s);
      return;
    case GDB_REQ_SUPPORTED: /* Format: qSupported[:features] */
      supported(s);
      return;
    case GDB_REQ_XFER_READ: /* Format: qXfer:object:read:annex:off,len */
      xfer(s);
      return;
    case GDB_REQ_ATTACHED: /* Format: qAttached[:pid] */
      gdb_buf_puts(&s->reply, "1");
      return;
    default:
      return;
  }
}
