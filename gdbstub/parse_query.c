/* SPDX-License-Identifier: MIT */
/* Layer 2 of the GDB stub, continued: the multi-letter packet families q
 * (general queries), Q (general sets) and v (vCont, vFile, vKill, vRun...).
 * Names are matched exactly, so "qC" never swallows "qCRC"; a name not listed
 * here is GDB_REQ_UNKNOWN and gets the empty reply. */
#include <string.h>

#include "gdbstub/gdbstub_int.h"

/* ---- q ---------------------------------------------------------------- */

static void parse_supported(struct gdb__cur *c, struct gdb_request *r) {
  /* Format: qSupported[:gdbfeature[;gdbfeature]...] */
  static const struct {
    const char *name;
    u32 bit;
  } known[] = {
      {"multiprocess+", GDB_FEAT_MULTIPROCESS},
      {"swbreak+", GDB_FEAT_SWBREAK},
      {"hwbreak+", GDB_FEAT_HWBREAK},
      {"vContSupported+", GDB_FEAT_VCONT_SUPPORTED},
      {"error-message+", GDB_FEAT_ERROR_MESSAGE},
      {"no-resumed+", GDB_FEAT_NO_RESUMED},
      {"QThreadEvents+", GDB_FEAT_QTHREAD_EVENTS},
      {"exec-events+", GDB_FEAT_EXEC_EVENTS},
      {"fork-events+", GDB_FEAT_FORK_EVENTS},
  };
  r->u.supported.features = 0;
  r->kind = GDB_REQ_SUPPORTED;
  if (!gdb__cur_left(c)) return;
  if (gdb__cur_expect(c, ':'))
    return gdb__malformed(r, "expected qSupported:features");
  while (gdb__cur_left(c)) {
    struct gdb__cur item = {c->p, c->p + gdb__cur_span(c, ';')};
    gdb__cur_skip_past(c, ';');
    for (size_t i = 0; i < RW_ARRAY_SIZE(known); i++)
      if (gdb__cur_rest_is(&item, known[i].name))
        r->u.supported.features |= known[i].bit;
    if (gdb__cur_accept_str(&item, "xmlRegisters=")) {
      /* A comma-separated list of architectures. */
      while (gdb__cur_left(&item)) {
        struct gdb__cur arch = {item.p, item.p + gdb__cur_span(&item, ',')};
        gdb__cur_skip_past(&item, ',');
        if (gdb__cur_rest_is(&arch, "i386"))
          r->u.supported.features |= GDB_FEAT_XML_I386;
      }
    }
  }
}

static void parse_xfer(struct gdb__cur *c, struct gdb_request *r) {
  /* Format: qXfer:object:read:annex:offset,length */
  static const struct {
    const char *name;
    enum gdb_xfer_object obj;
  } objects[] = {
      {"features:", GDB_XFER_FEATURES},
      {"auxv:", GDB_XFER_AUXV},
      {"exec-file:", GDB_XFER_EXEC_FILE},
      {"threads:", GDB_XFER_THREADS},
      {"libraries-svr4:", GDB_XFER_LIBRARIES_SVR4},
      {"siginfo:", GDB_XFER_SIGINFO},
  };
  size_t i;
  for (i = 0; i < RW_ARRAY_SIZE(objects); i++)
    if (gdb__cur_accept_str(c, objects[i].name)) break;
  if (i == RW_ARRAY_SIZE(objects)) return; /* unknown object: empty reply */
  if (!gdb__cur_accept_str(c, "read:")) return; /* writes are not offered */
  r->u.xfer.object = objects[i].obj;
  r->u.xfer.annex = c->p;
  r->u.xfer.annex_len = gdb__cur_span(c, ':');
  c->p += r->u.xfer.annex_len;
  if (gdb__cur_expect(c, ':') || gdb__cur_hex(c, &r->u.xfer.off) ||
      gdb__cur_expect(c, ',') || gdb__cur_hex(c, &r->u.xfer.len) ||
      gdb__cur_left(c))
    return gdb__malformed(r, "expected annex:offset,length");
  if (r->u.xfer.len > GDB_DATA_MAX) r->u.xfer.len = GDB_DATA_MAX;
  r->kind = GDB_REQ_XFER_READ;
}

/* A ",thread-id", ":pid" or ";pid" argument into R->u.thread. */
static void thread_arg(struct gdb__cur *c, struct gdb_request *r, char sep,
                       int pid_only, enum gdb_req_kind kind) {
  i64 pid;
  r->u.thread.has_tid = 0;
  if (gdb__cur_accept(c, sep)) {
    if (pid_only) {
      if (gdb__cur_shex(c, &pid) || pid <= 0)
        return gdb__malformed(r, "bad pid");
      r->u.thread.tid = (struct gdb_tid){pid, GDB_TID_ALL, 1};
    } else if (gdb__cur_tid(c, &r->u.thread.tid)) {
      return gdb__malformed(r, "bad thread id");
    }
    r->u.thread.has_tid = 1;
  }
  if (gdb__cur_left(c)) return gdb__malformed(r, "trailing bytes");
  r->kind = kind;
}

static void parse_q(struct gdb__cur *c, struct gdb_request *r) {
  size_t n;
  if (gdb__cur_rest_is(c, "C")) {
    /* Format: qC */
    r->kind = GDB_REQ_CURRENT_THREAD;
  } else if (gdb__cur_rest_is(c, "fThreadInfo")) {
    /* Format: qfThreadInfo */
    r->kind = GDB_REQ_THREAD_INFO_FIRST;
  } else if (gdb__cur_rest_is(c, "sThreadInfo")) {
    /* Format: qsThreadInfo */
    r->kind = GDB_REQ_THREAD_INFO_NEXT;
  } else if (gdb__cur_accept_str(c, "ThreadExtraInfo")) {
    /* Format: qThreadExtraInfo,thread-id */
    if (gdb__cur_peek(c) != ',') return gdb__malformed(r, "expected ,thread");
    thread_arg(c, r, ',', 0, GDB_REQ_THREAD_EXTRA_INFO);
  } else if (gdb__cur_accept_str(c, "Supported")) {
    /* Format: qSupported[:features] */
    parse_supported(c, r);
  } else if (gdb__cur_accept_str(c, "Xfer:")) {
    /* Format: qXfer:object:read:annex:offset,length */
    parse_xfer(c, r);
  } else if (gdb__cur_accept_str(c, "Attached")) {
    /* Format: qAttached[:pid] */
    if (gdb__cur_left(c) && gdb__cur_peek(c) != ':') return;
    thread_arg(c, r, ':', 1, GDB_REQ_ATTACHED);
  } else if (gdb__cur_rest_is(c, "Offsets")) {
    /* Format: qOffsets */
    r->kind = GDB_REQ_OFFSETS;
  } else if (gdb__cur_accept_str(c, "Symbol:")) {
    /* Format: qSymbol::  qSymbol:sym_value:sym_name (answers are ignored) */
    r->kind = GDB_REQ_SYMBOL;
  } else if (gdb__cur_rest_is(c, "TStatus")) {
    /* Format: qTStatus */
    r->kind = GDB_REQ_TRACE_STATUS;
  } else if (gdb__cur_accept_str(c, "Rcmd,")) {
    /* Format: qRcmd,command (hex-encoded) */
    if (gdb__cur_hex_text(c, 0, r->text, sizeof r->text, &n) ||
        gdb__cur_left(c))
      return gdb__malformed(r, "bad hex command");
    r->text_len = n;
    r->kind = GDB_REQ_RCMD;
  }
  /* Anything else, the old qL and qP among them: unknown. */
}

/* ---- Q ---------------------------------------------------------------- */

static void parse_signals(struct gdb__cur *c, struct gdb_request *r,
                          enum gdb_req_kind kind) {
  /* Format: QPassSignals:signal[;signal]...  (also QProgramSignals) */
  memset(r->u.sig.set, 0, sizeof r->u.sig.set);
  while (gdb__cur_left(c)) {
    u64 sig;
    if (gdb__cur_hex(c, &sig) || sig >= 8 * sizeof r->u.sig.set)
      return gdb__malformed(r, "bad signal number");
    r->u.sig.set[sig / 8] |= (u8)(1u << (sig % 8));
    if (gdb__cur_left(c) && gdb__cur_expect(c, ';'))
      return gdb__malformed(r, "expected ';' between signals");
  }
  r->kind = kind;
}

static void parse_catch_syscalls(struct gdb__cur *c, struct gdb_request *r) {
  /* Format: QCatchSyscalls:0  QCatchSyscalls:1[;sysno]... */
  int ch = gdb__cur_peek(c);
  r->u.catch_sys.n = 0;
  if (ch != '0' && ch != '1')
    return gdb__malformed(r, "expected QCatchSyscalls:0 or 1");
  c->p++;
  r->u.catch_sys.on = ch == '1';
  if (!r->u.catch_sys.on && gdb__cur_left(c))
    return gdb__malformed(r, "QCatchSyscalls:0 takes no numbers");
  while (gdb__cur_left(c)) {
    u64 nr;
    if (gdb__cur_expect(c, ';') || gdb__cur_hex(c, &nr) || nr > UINT32_MAX)
      return gdb__malformed(r, "bad syscall number");
    if (r->u.catch_sys.n == GDB_SYSCALLS_MAX)
      return gdb__malformed(r, "too many syscall numbers");
    r->u.catch_sys.nr[r->u.catch_sys.n++] = (u32)nr;
  }
  r->kind = GDB_REQ_CATCH_SYSCALLS;
}

static void parse_Q(struct gdb__cur *c, struct gdb_request *r) {
  if (gdb__cur_rest_is(c, "StartNoAckMode")) {
    /* Format: QStartNoAckMode */
    r->kind = GDB_REQ_START_NOACK;
  } else if (gdb__cur_accept_str(c, "NonStop:")) {
    /* Format: QNonStop:0  QNonStop:1 */
    int ch = gdb__cur_peek(c);
    if ((ch != '0' && ch != '1') || gdb__cur_left(c) != 1)
      return gdb__malformed(r, "expected QNonStop:0 or 1");
    r->u.non_stop.on = ch == '1';
    r->kind = GDB_REQ_NON_STOP;
  } else if (gdb__cur_accept_str(c, "PassSignals:")) {
    parse_signals(c, r, GDB_REQ_PASS_SIGNALS);
  } else if (gdb__cur_accept_str(c, "ProgramSignals:")) {
    /* Format: QProgramSignals:signal[;signal]... */
    parse_signals(c, r, GDB_REQ_PROGRAM_SIGNALS);
  } else if (gdb__cur_accept_str(c, "CatchSyscalls:")) {
    parse_catch_syscalls(c, r);
  }
}

/* ---- v ---------------------------------------------------------------- */

static int vcont_action(struct gdb__cur *c, struct gdb_action *a) {
  int letter = gdb__cur_peek(c);
  u64 v;
  memset(a, 0, sizeof *a);
  switch (letter) {
    case 'c':
    case 's':
    case 't':
      c->p++;
      break;
    case 'C':
    case 'S':
      c->p++;
      if (gdb__cur_hex(c, &v) || v > 255) return RW_EPROTO;
      a->signo = (u8)v;
      break;
    case 'r':
      c->p++;
      if (gdb__cur_hex(c, &a->start) || gdb__cur_expect(c, ',') ||
          gdb__cur_hex(c, &a->end))
        return RW_EPROTO;
      break;
    default:
      return RW_EPROTO;
  }
  a->kind = (enum gdb_action_kind)letter;
  if (gdb__cur_accept(c, ':')) {
    if (gdb__cur_tid(c, &a->tid)) return RW_EPROTO;
    a->has_tid = 1;
  }
  return 0;
}

static void parse_vcont(struct gdb__cur *c, struct gdb_request *r) {
  /* Format: vCont[;action[:thread-id]]... */
  memset(&r->u.cont, 0, sizeof r->u.cont);
  r->u.cont.dir = GDB_FORWARD;
  if (!gdb__cur_left(c)) return gdb__malformed(r, "vCont without actions");
  while (gdb__cur_left(c)) {
    if (gdb__cur_expect(c, ';'))
      return gdb__malformed(r, "expected ';' before a vCont action");
    if (r->u.cont.n == GDB_MAX_ACTIONS)
      return gdb__malformed(r, "too many vCont actions");
    if (vcont_action(c, &r->u.cont.act[r->u.cont.n]))
      return gdb__malformed(r, "bad vCont action");
    r->u.cont.n++;
  }
  r->kind = GDB_REQ_CONT;
}

/* Reads a hex-encoded file name up to STOP into R->text. */
static int file_name(struct gdb__cur *c, char stop, struct gdb_request *r) {
  size_t n;
  if (gdb__cur_hex_text(c, stop, r->text, sizeof r->text, &n) || n == 0)
    return RW_EPROTO;
  r->text_len = n;
  return 0;
}

static void parse_vfile(struct gdb__cur *c, struct gdb_request *r) {
  memset(&r->u.file, 0, sizeof r->u.file);
  if (gdb__cur_accept_str(c, "open:")) {
    /* Format: vFile:open:filename,flags,mode */
    if (file_name(c, ',', r) || gdb__cur_expect(c, ',') ||
        gdb__cur_hex(c, &r->u.file.flags) || gdb__cur_expect(c, ',') ||
        gdb__cur_hex(c, &r->u.file.mode) || gdb__cur_left(c))
      return gdb__malformed(r, "expected filename,flags,mode");
    r->kind = GDB_REQ_VFILE_OPEN;
  } else if (gdb__cur_accept_str(c, "pread:")) {
    /* Format: vFile:pread:fd,count,offset */
    if (gdb__cur_shex(c, &r->u.file.fd) || gdb__cur_expect(c, ',') ||
        gdb__cur_hex(c, &r->u.file.count) || gdb__cur_expect(c, ',') ||
        gdb__cur_hex(c, &r->u.file.off) || gdb__cur_left(c))
      return gdb__malformed(r, "expected fd,count,offset");
    if (r->u.file.count > GDB_DATA_MAX) r->u.file.count = GDB_DATA_MAX;
    r->kind = GDB_REQ_VFILE_PREAD;
  } else if (gdb__cur_accept_str(c, "close:")) {
    /* Format: vFile:close:fd */
    if (gdb__cur_shex(c, &r->u.file.fd) || gdb__cur_left(c))
      return gdb__malformed(r, "expected fd");
    r->kind = GDB_REQ_VFILE_CLOSE;
  } else if (gdb__cur_accept_str(c, "fstat:")) {
    /* Format: vFile:fstat:fd */
    if (gdb__cur_shex(c, &r->u.file.fd) || gdb__cur_left(c))
      return gdb__malformed(r, "expected fd");
    r->kind = GDB_REQ_VFILE_FSTAT;
  } else if (gdb__cur_accept_str(c, "readlink:")) {
    /* Format: vFile:readlink:filename */
    if (file_name(c, 0, r) || gdb__cur_left(c))
      return gdb__malformed(r, "bad file name");
    r->kind = GDB_REQ_VFILE_READLINK;
  } else if (gdb__cur_accept_str(c, "setfs:")) {
    /* Format: vFile:setfs:pid */
    if (gdb__cur_shex(c, &r->u.file.pid) || r->u.file.pid < 0 ||
        gdb__cur_left(c))
      return gdb__malformed(r, "expected pid");
    r->kind = GDB_REQ_VFILE_SETFS;
  }
  /* pwrite, unlink and the rest: unknown, so gdb falls back. */
}

static void parse_v(struct gdb__cur *c, struct gdb_request *r) {
  if (gdb__cur_rest_is(c, "Cont?")) {
    /* Format: vCont? */
    r->kind = GDB_REQ_VCONT_QUERY;
  } else if (gdb__cur_accept_str(c, "Cont")) {
    /* Format: vCont;action[:thread-id]... */
    if (gdb__cur_left(c) && gdb__cur_peek(c) != ';') return;
    parse_vcont(c, r);
  } else if (gdb__cur_accept_str(c, "File:")) {
    /* Format: vFile:operation:parameter... */
    parse_vfile(c, r);
  } else if (gdb__cur_accept_str(c, "Kill")) {
    /* Format: vKill;pid */
    if (gdb__cur_peek(c) != ';') return gdb__malformed(r, "expected ;pid");
    thread_arg(c, r, ';', 1, GDB_REQ_KILL);
  } else if (gdb__cur_accept_str(c, "Run")) {
    /* Format: vRun;filename[;argument]... (the first argument, hex, is
     * kept in TEXT: a replay restarts there) */
    if (gdb__cur_left(c) && gdb__cur_peek(c) != ';') return;
    r->kind = GDB_REQ_RUN;
    r->text[0] = 0;
    r->text_len = 0;
    if (!gdb__cur_accept(c, ';')) return;
    gdb__cur_skip_past(c, ';'); /* the file name: the trace decides */
    size_t n = 0;
    if (gdb__cur_left(c) &&
        gdb__cur_hex_text(c, ';', r->text, sizeof r->text, &n))
      return gdb__malformed(r, "bad vRun argument");
    r->text_len = n;
  } else if (gdb__cur_rest_is(c, "MustReplyEmpty")) {
    /* Format: vMustReplyEmpty */
    r->kind = GDB_REQ_MUST_REPLY_EMPTY;
  }
}

void gdb__parse_query(struct gdb__cur *c, char letter,
                      struct gdb_request *r) {
  switch (letter) {
    case 'q':
      return parse_q(c, r);
    case 'Q':
      return parse_Q(c, r);
    default:
      return parse_v(c, r);
  }
}
