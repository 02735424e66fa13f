/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of the stub's third layer (serve.c,
 * serve_run.c, serve_query.c, vfile.c, monitor.c): the session state of one
 * connection and the handlers the dispatcher calls. Only these files include
 * the replayer's header; layers 1 and 2 never include this one. */
#ifndef RW_GDBSTUB_SERVE_INT_H
#define RW_GDBSTUB_SERVE_INT_H

#include "gdbstub/gdbstub_int.h"
#include "replayer/replayer.h"

/* Files gdb may hold open at once through vFile:open. */
#define GDB__NFILES 32

/* A breakpoint or watchpoint gdb inserted (Z packets). Plain data. */
struct gdb__bp {
  enum gdb_bp_type type;
  u64 addr;
  u64 len; /* watched bytes; 1 for breakpoints */
};

/* One connection. Plain data. */
struct gdb__sess {
  rp_replay *rp;                 /* borrowed */
  int in_fd, out_fd;             /* borrowed */
  struct gdb_serve_opts opts;
  gdb_decoder *dec;              /* owned */
  struct gdb_request req;        /* the packet being answered */
  struct gdb_buf reply;          /* its reply payload */
  struct gdb_buf wire;           /* the last framed reply, for '-' */
  int noack;                     /* QStartNoAckMode accepted */
  u32 features;                  /* GDB_FEAT_* gdb announced */
  u8 in[8192];                   /* bytes read, not yet decoded */
  size_t in_off, in_len;         /* [in_off, in_len) are pending */
  int eof;                       /* the client closed its end */
  int interrupt;                 /* ^C arrived during a run */
  struct gdb__bp *bps;           /* owned */
  size_t nbps, capbps;
  struct {
    int used;
    struct rp_file f;
  } files[GDB__NFILES];          /* vFile descriptors */
  struct rp_stop last;           /* the last stop, for '?' */
  int last_dir;                  /* its direction (enum gdb_dir) */
  char name[32];                 /* the thread's name */
};

/* The thread id of the replay's thread in the form gdb asked for. */
struct gdb_tid gdb__tid(struct gdb__sess *s);
/* 1 if T names the replay's thread (or all/any threads). */
int gdb__tid_ours(struct gdb__sess *s, const struct gdb_tid *t);
/* Appends the stop reply for ST to the reply buffer. */
void gdb__stop_reply(struct gdb__sess *s, const struct rp_stop *st);
/* Sends PAYLOAD (LEN bytes, wire form) as one packet; 0 or RW_ERR(errno). */
int gdb__send(struct gdb__sess *s, const void *payload, size_t len)
    RW_MUST_CHECK;
/* Sends the text MSG to gdb's console as an 'O' packet (while a resume
 * packet is being answered, or within qRcmd). */
int gdb__console(struct gdb__sess *s, const char *msg) RW_MUST_CHECK;
/* Reads waiting input; returns 1 when gdb sent ^C or hung up (CTX is the
 * session; also the replayer's poll function). */
int gdb__poll(void *ctx);
/* Prints a note for the user on stderr unless quiet. */
void gdb__note(struct gdb__sess *s, const char *fmt, ...) RW_PRINTF(2, 3);

/* serve_run.c: c, s, bc, bs, vCont; Z and z. */
int gdb__resume(struct gdb__sess *s) RW_MUST_CHECK;
void gdb__breakpoint(struct gdb__sess *s);
void gdb__bps_free(struct gdb__sess *s);

/* serve_query.c: registers, memory, threads, qSupported, qXfer. */
void gdb__query(struct gdb__sess *s);

/* vfile.c: vFile:setfs/open/pread/close/fstat/readlink. */
void gdb__vfile(struct gdb__sess *s);

/* monitor.c: qRcmd (monitor when, goto, help). */
int gdb__monitor(struct gdb__sess *s) RW_MUST_CHECK;

#endif /* RW_GDBSTUB_SERVE_INT_H */
