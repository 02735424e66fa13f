/* SPDX-License-Identifier: MIT */
/* The stub's third layer (STYLE R15): reads bytes from gdb, decodes them
 * into packets (packet.c) and requests (parse.c), answers each against the
 * replay and writes the framed reply. This file owns the connection (acks,
 * no-ack mode, resending, ^C during runs, a clean end at a disconnect) and
 * the dispatch; the answers live in serve_run.c, serve_query.c, vfile.c and
 * monitor.c. Nothing here changes the recording: writes go to a diversion
 * (serve_divert.c). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gdbstub/serve_int.h"

/* What gdb prints after "Remote failure reply:" or as the error itself. */
#define REFUSED "the recording cannot be changed: "

void gdb__note(struct gdb__sess *s, const char *fmt, ...) {
  va_list ap;
  if (s->opts.quiet) return;
  fputs("rewind: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static int write_all(int fd, const void *p, size_t n) {
  const u8 *b = p;
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return RW_ERR(errno);
    if (w == 0) return RW_ERR(EIO);
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

int gdb__send(struct gdb__sess *s, const void *payload, size_t len) {
  gdb_buf_reset(&s->wire);
  RW_FORWARD(gdb_frame(&s->wire, payload, len));
  if (s->opts.log)
    fprintf(stderr, "gdb <- %.*s\n", (int)RW_MIN(s->wire.len, (size_t)400),
            (const char *)s->wire.data);
  return write_all(s->out_fd, s->wire.data, s->wire.len);
}

int gdb__console_hex(struct gdb__sess *s, const void *hex, size_t len) {
  struct gdb_buf b;
  gdb_buf_init(&b, 0);
  /* Format: O XX... (hex of text for gdb's console) */
  gdb_buf_puts(&b, "O");
  gdb_buf_put(&b, hex, len);
  int rc = b.err ? b.err : gdb__send(s, b.data, b.len);
  gdb_buf_free(&b);
  return rc;
}

int gdb__console_bytes(struct gdb__sess *s, const void *p, size_t n) {
  struct gdb_buf hex;
  gdb_buf_init(&hex, 0);
  gdb_buf_put_hex(&hex, p, n);
  int rc = hex.err ? hex.err : gdb__console_hex(s, hex.data, hex.len);
  gdb_buf_free(&hex);
  return rc;
}

int gdb__console(struct gdb__sess *s, const char *msg) {
  return gdb__console_bytes(s, msg, strlen(msg));
}

/* Reads more input into s->in; sets eof at the end. Returns 0 or a negative
 * code for a read error other than the peer going away. */
static int fill(struct gdb__sess *s, int block) {
  if (s->in_off == s->in_len) s->in_off = s->in_len = 0;
  if (s->in_off && s->in_len == sizeof s->in) {
    memmove(s->in, s->in + s->in_off, s->in_len - s->in_off);
    s->in_len -= s->in_off;
    s->in_off = 0;
  }
  if (s->in_len == sizeof s->in || s->eof) return 0;
  if (!block) {
    struct pollfd p = {s->in_fd, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) return 0;
  }
  for (;;) {
    ssize_t n = read(s->in_fd, s->in + s->in_len, sizeof s->in - s->in_len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      s->eof = 1; /* a reset connection ends the session like a close */
      return 0;
    }
    /* ^C may only come while the program runs: look for it now. */
    if (memchr(s->in + s->in_len, 0x03, (size_t)n)) s->interrupt = 1;
    if (memchr(s->in + s->in_len, '$', (size_t)n)) s->new_packet = 1;
    s->in_len += (size_t)n;
    return 0;
  }
}

/* Waits for gdb's next bytes while the replay is stopped: answers other
 * clients of the server that it is busy, and ends the session (eof) when
 * gdb has been silent for opts.idle_secs. Returns 0 or a negative code. */
static int wait_input(struct gdb__sess *s) {
  u64 waited_ms = 0;
  for (;;) {
    struct pollfd p[2] = {{s->in_fd, POLLIN, 0},
                          {s->opts.listen_fd, POLLIN, 0}};
    int n = s->opts.listening ? 2 : 1, step = 1000;
    int rc = poll(p, (nfds_t)n, s->opts.idle_secs > 0 || n == 2 ? step : -1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) return RW_ERR(errno);
    if (p[0].revents) return fill(s, 1);
    if (n == 2 && (p[1].revents & POLLIN)) {
      /* The gdb connected now may follow one that just hung up: give its
       * hang-up a moment to arrive, then the new one waits its turn. */
      struct pollfd q = {s->in_fd, POLLIN, 0};
      if (poll(&q, 1, 200) > 0) return fill(s, 1);
      int fd = gdb_accept(s->opts.listen_fd);
      if (fd >= 0) {
        if (!s->opts.quiet)
          fprintf(stderr, "rewind: another gdb tried to connect; told it "
                          "this replay is busy\n");
        gdb_refuse_busy(fd);
        close(fd);
      }
    }
    if (rc == 0 || !(p[0].revents)) waited_ms += rc == 0 ? (u64)step : 0;
    if (s->opts.idle_secs > 0 && waited_ms >= (u64)s->opts.idle_secs * 1000) {
      if (!s->opts.quiet)
        fprintf(stderr, "rewind: gdb sent nothing for %d s: closing its "
                        "connection (--idle-timeout)\n", s->opts.idle_secs);
      s->eof = 1;
      return 0;
    }
  }
}

/* The replayer's poll function: stop a run when gdb sent ^C or hung up. */
int gdb__poll(void *ctx) {
  struct gdb__sess *s = ctx;
  /* A monitor command searching the history: gdb gives up on a reply
   * after a few seconds; an empty console packet restarts its timer. */
  if (s->in_monitor) {
    u64 now = rw_now_ns();
    if (now - s->alive_ns > 250000000ull) {
      s->alive_ns = now;
      if (gdb__send(s, "O", 1) < 0) return 1;
    }
  }
  if (!s->interrupt && !s->eof && fill(s, 0) < 0) return 1;
  return s->interrupt || s->eof;
}

/* Refuses the request with "E.the recording cannot be changed: WHAT".
 * gdb prints that text itself for some requests (register writes); for
 * the others (memory writes, kill) it prints only its own words, so the
 * stub says why on stderr: with SHOWN the reason is said once, by gdb. */
static void refuse_as(struct gdb__sess *s, const char *what, int shown) {
  gdb_reply_error_msg(&s->reply, REFUSED);
  gdb_buf_puts(&s->reply, what);
  if (!shown && s->last_note != what)
    gdb__note(s, "refused: %s%s", REFUSED, what);
  s->last_note = what;
}

static void refuse(struct gdb__sess *s, const char *what) {
  refuse_as(s, what, 0);
}

/* `run` in gdb (extended-remote): the replay goes back to the start, or to
 * instruction N with `run N`, and gdb learns everything anew from there. */
static int restart(struct gdb__sess *s) {
  u64 n = 0;
  char *end;
  if (!s->extended) {
    refuse(s, "a replay cannot run a new program");
    return 0;
  }
  if (s->req.text_len) {
    n = strtoull(s->req.text, &end, 0);
    if (*end || s->req.text[0] == '-') {
      gdb_reply_error_msg(&s->reply, "run takes an instruction count: "
                                     "run N restarts the replay there");
      return 0;
    }
  }
  struct rp_stop st;
  RW_FORWARD(gdb__divert_end(s));
  RW_FORWARD(rp_seek(s->rp, n, &st));
  memset(&st, 0, sizeof st);
  st.reason = RP_STOP_TARGET;
  st.icount = rp_icount(s->rp);
  st.tid = rp_current_tid(s->rp);
  s->last = st;
  s->fork_tid = 0;
  s->g_tid = st.tid;
  s->g_pid = 0;
  s->g_dead = 0;
  s->crash_shown = 0;
  s->killed = 0;
  s->img_known = 0; /* gdb reads the program again for a run */
  s->nimgs = 0;
  gdb__pid_add(s, rp_thread_pid(s->rp, st.tid));
  gdb__stop_reply(s, &st);
  return 0;
}

/* Answers s->req into s->reply. Returns 1 when the session ends after the
 * reply (detach), 0 to go on, or a negative code. */
static int dispatch(struct gdb__sess *s) {
  struct gdb_request *q = &s->req;
  int rc;
  gdb__view_sync(s); /* the tree: the Hg thread's process */
  switch (q->kind) {
    case GDB_REQ_CONT: /* Format: c, s, C, S, bc, bs, vCont;... */
      s->last_note = NULL;
      s->live = 1;
      rc = rp_diverted(s->rp) ? gdb__divert_resume(s) : 1;
      if (rc == 1) rc = gdb__resume(s);
      s->live = 0;
      return rc;
    case GDB_REQ_INSERT_BP: /* Format: Z type,addr,kind */
    case GDB_REQ_REMOVE_BP: /* Format: z type,addr,kind */
      gdb__breakpoint(s);
      return 0;
    case GDB_REQ_RCMD: /* Format: qRcmd,hex */
      RW_FORWARD(gdb__divert_end(s));
      s->live = s->in_monitor = 1;
      s->alive_ns = rw_now_ns();
      rc = gdb__monitor(s);
      s->live = s->in_monitor = 0;
      if (rc == 0 && !s->reply.len && !s->drop_reply)
        gdb_buf_puts(&s->reply, "OK"); /* its text went in 'O' packets */
      return rc;
    case GDB_REQ_VFILE_OPEN:     /* Format: vFile:open:name,flags,mode */
    case GDB_REQ_VFILE_PREAD:    /* Format: vFile:pread:fd,count,offset */
    case GDB_REQ_VFILE_CLOSE:    /* Format: vFile:close:fd */
    case GDB_REQ_VFILE_FSTAT:    /* Format: vFile:fstat:fd */
    case GDB_REQ_VFILE_READLINK: /* Format: vFile:readlink:name */
    case GDB_REQ_VFILE_SETFS:    /* Format: vFile:setfs:pid */
      gdb__vfile(s);
      return 0;
    case GDB_REQ_WRITE_REGS: /* Format: G XX... */
    case GDB_REQ_WRITE_REG:  /* Format: P n=r */
    case GDB_REQ_WRITE_MEM:  /* Format: M addr,length:XX... / X ... */
      gdb__divert_write(s);
      return 0;
    case GDB_REQ_KILL: /* Format: k, vKill;pid */
      /* In extended mode `run` kills before it restarts: the replay stays,
       * ready to go back to the start. */
      if (s->extended) {
        s->killed = 1;
        gdb_buf_puts(&s->reply, "OK");
        return 0;
      }
      refuse(s, "a replay cannot be killed; use detach or quit");
      return 0;
    case GDB_REQ_RUN: /* Format: vRun;filename;args... */
      return restart(s);
    case GDB_REQ_EXTENDED_MODE: /* Format: ! */
      s->extended = 1;
      gdb_buf_puts(&s->reply, "OK");
      return 0;
    case GDB_REQ_DETACH: /* Format: D, D;pid */
      gdb_buf_puts(&s->reply, "OK");
      /* With the tree, gdb detaches its inferiors one by one, then
       * hangs up. */
      return !s->opts.tree;
    case GDB_REQ_START_NOACK: /* Format: QStartNoAckMode */
      gdb_buf_puts(&s->reply, "OK");
      return 0;
    case GDB_REQ_NON_STOP: /* Format: QNonStop:0|1 */
      if (q->u.non_stop.on)
        gdb_reply_error_msg(&s->reply, "non-stop mode is not supported");
      else
        gdb_buf_puts(&s->reply, "OK");
      return 0;
    case GDB_REQ_CATCH_SYSCALLS: /* Format: QCatchSyscalls:1;nr... */
      /* gdb's catch syscall: the replay stops at their entries and
       * returns, both ways. */
      if (rp_set_syscall_stops(s->rp, q->u.catch_sys.on, q->u.catch_sys.nr,
                               q->u.catch_sys.n) < 0)
        gdb_reply_error_msg(&s->reply, "syscall number out of range");
      else
        gdb_buf_puts(&s->reply, "OK");
      return 0;
    case GDB_REQ_PASS_SIGNALS: /* Format: QPassSignals:sig;... */
      /* The signals gdb neither stops nor prints for: their deliveries
       * do not stop the replay; every other one does, both ways. */
      rp_set_signal_stops(
          s->rp, 1,
          gdb__signals_passed(q->u.sig.set, 8 * sizeof q->u.sig.set));
      gdb_buf_puts(&s->reply, "OK");
      return 0;
    case GDB_REQ_PROGRAM_SIGNALS: /* Format: QProgramSignals:sig;... */
    case GDB_REQ_SYMBOL:          /* Format: qSymbol:: */
      gdb_buf_puts(&s->reply, "OK");
      return 0;
    case GDB_REQ_MALFORMED:
      gdb_reply_error_msg(&s->reply, q->msg ? q->msg : "malformed packet");
      return 0;
    case GDB_REQ_UNKNOWN:          /* anything else: the empty reply */
    case GDB_REQ_MUST_REPLY_EMPTY: /* Format: vMustReplyEmpty */
    case GDB_REQ_OFFSETS:          /* Format: qOffsets (not needed) */
    case GDB_REQ_TRACE_STATUS:     /* Format: qTStatus (no tracepoints) */
      return 0;
    case GDB_REQ_STOP_REASON:
    case GDB_REQ_READ_REGS:
    case GDB_REQ_READ_REG:
    case GDB_REQ_READ_MEM:
    case GDB_REQ_VCONT_QUERY:
    case GDB_REQ_SET_THREAD:
    case GDB_REQ_THREAD_ALIVE:
    case GDB_REQ_CURRENT_THREAD:
    case GDB_REQ_THREAD_INFO_FIRST:
    case GDB_REQ_THREAD_INFO_NEXT:
    case GDB_REQ_THREAD_EXTRA_INFO:
    case GDB_REQ_SUPPORTED:
    case GDB_REQ_XFER_READ:
    case GDB_REQ_ATTACHED:
    case GDB_REQ__COUNT:
      gdb__query(s);
      return 0;
  }
  return 0;
}

/* Handles one decoded packet: parse, answer, send. */
static int packet(struct gdb__sess *s, const char *p, size_t len) {
  if (s->opts.log) fprintf(stderr, "gdb -> %.*s\n", (int)RW_MIN(len, 400), p);
  gdb_parse(p, len, &s->req);
  gdb_buf_reset(&s->reply);
  /* Only a packet after this one says gdb stopped waiting for its reply. */
  s->new_packet = memchr(s->in + s->in_off, '$', s->in_len - s->in_off) != 0;
  int rc = dispatch(s);
  if (rc < 0) return rc;
  if (s->reply.err) {
    gdb_buf_reset(&s->reply);
    gdb_reply_error_msg(&s->reply, "reply too large");
  }
  if (s->drop_reply) { /* gdb gave up on it and sent its next packet */
    s->drop_reply = 0;
    return rc;
  }
  RW_FORWARD(gdb__send(s, s->reply.data ? (const char *)s->reply.data : "",
                       s->reply.len));
  if (s->req.kind == GDB_REQ_START_NOACK) {
    s->noack = 1;
    gdb_decoder_set_noack(s->dec, 1);
  }
  return rc;
}

/* One decoder event. Returns 1 to end the session, 0 or a negative code. */
static int event(struct gdb__sess *s, const struct gdb_event *ev) {
  if (ev->ack && !s->noack) RW_FORWARD(write_all(s->out_fd, &ev->ack, 1));
  switch (ev->kind) {
    case GDB_EV_PACKET:
      return packet(s, ev->payload, ev->len);
    case GDB_EV_NAK:
      if (s->wire.len) return write_all(s->out_fd, s->wire.data, s->wire.len);
      return 0;
    case GDB_EV_OVERSIZE:
      gdb_buf_reset(&s->reply);
      gdb_reply_error_msg(&s->reply, "packet too long");
      return gdb__send(s, s->reply.data, s->reply.len);
    case GDB_EV_BAD_ENCODING:
      gdb_buf_reset(&s->reply);
      gdb_reply_error_msg(&s->reply, "bad escape or run-length encoding");
      return gdb__send(s, s->reply.data, s->reply.len);
    case GDB_EV_INTERRUPT: /* ^C while stopped: nothing to interrupt */
    case GDB_EV_BAD_CHECKSUM: /* the '-' was the answer */
    case GDB_EV_ACK:
    case GDB_EV_NONE:
      return 0;
  }
  return 0;
}

/* The program's output, as the replay first passes it: while gdb waits for
 * a resume or a monitor command it prints it on its console ('O' packets,
 * which the protocol allows only then); otherwise it goes to stderr. */
static void echo(void *ctx, int fd, const void *buf, size_t len) {
  struct gdb__sess *s = ctx;
  const u8 *p = buf;
  (void)fd; /* gdb's console has one stream */
  if (!s->live) {
    if (write_all(2, buf, len) < 0) return;
    return;
  }
  while (len > 0 && !s->echo_failed) {
    size_t n = RW_MIN(len, (size_t)GDB__ECHO_CHUNK);
    /* A gdb gone away shows in the reply that follows. */
    if (gdb__console_bytes(s, p, n) < 0) s->echo_failed = 1;
    p += n;
    len -= n;
  }
}

static void sess_init(struct gdb__sess *s, rp_replay *rp, int in_fd,
                      int out_fd, const struct gdb_serve_opts *opts) {
  memset(s, 0, sizeof *s);
  s->rp = rp;
  s->in_fd = in_fd;
  s->out_fd = out_fd;
  if (opts) s->opts = *opts;
  s->view_ok = 1;
  gdb_buf_init(&s->reply, 0);
  gdb_buf_init(&s->wire, 0);
  /* The thread's name: the program's comm (its file name, 15 bytes). */
  struct rp_image img;
  const char *name = s->opts.name ? s->opts.name : "program";
  if (rp_get_image(rp, &img) == 0 && img.path && img.path[0]) {
    const char *slash = strrchr(img.path, '/');
    name = slash ? slash + 1 : img.path;
  }
  snprintf(s->name, sizeof s->name, "%.15s", name);
  /* Until gdb says otherwise (QPassSignals), the signals gdb lets pass by
   * default do not stop: SIGALRM, SIGURG, SIGIO, SIGVTALRM, SIGPROF,
   * SIGCHLD and SIGWINCH. */
  rp_set_signal_stops(rp, 1,
                      gdb__signals_passed(NULL, 0) | 1ull << (SIGALRM - 1) |
                          1ull << (SIGURG - 1) | 1ull << (SIGIO - 1) |
                          1ull << (SIGVTALRM - 1) | 1ull << (SIGPROF - 1) |
                          1ull << (SIGCHLD - 1) | 1ull << (SIGWINCH - 1));
  s->last.reason = RP_STOP_TARGET;
  s->last.icount = rp_icount(rp);
  s->last.tid = rp_current_tid(rp);
  /* With the tree, gdb starts with the process that runs here. */
  gdb__pid_add(s, rp_thread_pid(rp, s->last.tid));
  s->g_tid = s->last.tid;
  s->g_pid = 0;
  s->g_dead = 0;
}

int gdb_serve(struct rp_replay *rp, int in_fd, int out_fd,
              const struct gdb_serve_opts *opts) {
  static struct gdb__sess zero;
  struct gdb__sess *s = malloc(sizeof *s);
  int rc = 0;
  if (!s) return RW_ENOMEM;
  *s = zero;
  sess_init(s, rp, in_fd, out_fd, opts);
  rc = gdb_decoder_new(0, &s->dec);
  if (rc < 0) goto out;
  rp_set_poll(rp, gdb__poll, s);
  if (!s->opts.quiet) rp_set_echo(rp, echo, s);
  for (;;) {
    if (s->in_off == s->in_len) {
      if (s->eof) break;
      s->interrupt = s->new_packet = 0;
      rc = wait_input(s);
      if (rc < 0) break;
      continue;
    }
    struct gdb_event ev;
    size_t n = gdb_decoder_feed(s->dec, s->in + s->in_off,
                                s->in_len - s->in_off, &ev);
    s->in_off += n;
    rc = event(s, &ev);
    if (rc != 0) break;
  }
  if (rc > 0) rc = 0;
  /* A peer that went away mid-reply is a disconnect, not a failure. */
  if (rc == RW_ERR(EPIPE) || rc == RW_ERR(ECONNRESET)) rc = 0;
out:
  rp_set_poll(rp, NULL, NULL);
  rp_set_echo(rp, NULL, NULL);
  gdb__bps_free(s);
  gdb__vfile_free(s);
  free(s->thr);
  free(s->imgs);
  gdb_decoder_free(s->dec);
  gdb_buf_free(&s->reply);
  gdb_buf_free(&s->wire);
  free(s);
  return rc;
}
