/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of the stub's third layer (serve.c,
 * serve_run.c, serve_bp.c, serve_query.c, serve_thread.c, vfile.c,
 * monitor.c): the session state of one connection and the handlers the
 * dispatcher calls. Only these files include the replayer's header;
 * layers 1 and 2 never include this one. */
#ifndef RW_GDBSTUB_SERVE_INT_H
#define RW_GDBSTUB_SERVE_INT_H

#include "gdbstub/gdbstub_int.h"
#include "replayer/replayer.h"

/* Files gdb may hold open at once through vFile:open (gdb keeps each
 * inferior's program and libraries open: a tree has many). */
#define GDB__NFILES 1024
/* Most bytes of the program's output in one 'O' packet (twice that in hex). */
#define GDB__ECHO_CHUNK 4096

/* A breakpoint or watchpoint gdb inserted (Z packets). Plain data. */
struct gdb__bp {
  enum gdb_bp_type type;
  u64 addr;
  u64 len; /* watched bytes; 1 for breakpoints */
  u32 pid; /* the process it is in (rp_view_pid when gdb inserted it) */
};

/* A stop mark: continue and reverse-continue stop where an instruction
 * in [lo, hi) of process PID is about to run. */
struct gdb__smark {
  u64 lo, hi;
  u32 pid, num;
  char text[120]; /* as the user wrote it */
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
  int new_packet;  /* gdb sent a packet while a command ran: it gave up
                      waiting for the reply (a ^C during `monitor goto`) */
  int drop_reply;  /* the running command's reply must not be sent: gdb
                      no longer waits for it */
  struct gdb__bp *bps;           /* owned */
  size_t nbps, capbps;
  struct gdb__smark *smarks;     /* stop marks (monitor mark SPEC:stop);
                                    owned */
  size_t nsmarks, capsmarks;
  u32 smark_num;                 /* the number of the last one set */
  struct {
    int used;
    struct rp_file f;
    char *text; /* a file made up by the stub (/proc/PID/maps), owned; NULL
                   for a file of the trace */
    size_t tlen;
  } files[GDB__NFILES];          /* vFile descriptors */
  struct rp_stop last;           /* the last stop, for '?' */
  int extended;                  /* gdb asked for extended mode ('!') */
  int live;                      /* gdb waits for a resume or a monitor
                                    command: output may go to it */
  int echo_failed;               /* sending the program's output failed */
  int in_monitor;                /* a monitor command runs: keep gdb
                                    waiting (gdb__poll) */
  u64 alive_ns;                  /* when gdb last heard from it */
  int killed;                    /* gdb killed the process (extended mode):
                                    no threads until it runs it again */
  const char *last_note;         /* the last refusal said on stderr, so
                                    that gdb's retries are not said again */
  u64 crash_shown;               /* 1 + the position where the fatal signal
                                    ending the history was reported; 0 */
  int last_dir;                  /* its direction (enum gdb_dir) */
  int sig_notes;                 /* said once: 1 gdb asked to deliver a
                                    signal the recording has not there, 2
                                    to drop one it delivers */
  int img_known;                 /* gdb has the program image img_seq of
                                    process img_pid (rp_image) */
  u64 img_seq;
  u32 img_pid;
  struct { u32 pid; u64 seq; } *imgs; /* with the tree: the program image
                                    gdb has of each process; owned */
  size_t nimgs, capimgs;
  int view_ok;                   /* the replayer's view is the Hg thread's
                                    process (always, without the tree) */
  u32 g_pid;                     /* with the tree: the process of the Hg
                                    thread gdb named, or 0: g_tid's */
  int g_dead;                    /* with the tree: the last Hg named a
                                    thread that is not alive here: g and p
                                    answer "unavailable" until the next Hg
                                    or stop */
  struct rp_stop pending;        /* another thread's breakpoint or
                                    watchpoint met during a step gdb made
                                    in one thread alone: the next resume
                                    in PENDING_DIR reports it */
  int has_pending;
  int pending_dir;               /* enum gdb_dir */
  u64 pending_icount, pending_event; /* where the replay must still be */
  char name[32];                 /* a thread's name while the recording
                                    has none: the program's file name */
  u32 g_tid;                     /* Hg: the thread g and p read; the
                                    stopped thread after every stop */
  u32 c_tid;                     /* Hc: the thread c, s, bs resume, or 0
                                    for "any" (then the Hg thread) */
  u32 fork_tid;                  /* the thread of the last stop when it
                                    was a fork event, else 0 */
  struct rp_thread *thr;         /* owned: the threads alive here, as
                                    gdb__threads_load left them */
  size_t nthr, capthr;
  size_t info_next;              /* qsThreadInfo: next index into thr */
  int div_set;                   /* gdb set memory in the diversion since
                                    it last ran code (set var) */
  unsigned div_calls;            /* gdb's calls under way in it */
  u64 div_ret;                   /* their return address (gdb's dummy
                                    frame's breakpoint) */
  u64 div_stop_rip;              /* rip at its last stop, or 0 */
  int div_told;                  /* diversions were explained on stderr */
};

/* serve_thread.c: the threads alive at the current position. */

/* How a gdb thread id relates to the threads alive now. */
enum gdb__tid_match {
  GDB__TID_OTHER = 0, /* another process */
  GDB__TID_DEAD,      /* a thread of ours not alive here (or never) */
  GDB__TID_ONE,       /* one live thread */
  GDB__TID_WILD,      /* -1 or 0: every thread (or any) of ours */
};
/* Refreshes s->thr from the replayer (rp_threads). Returns 0 or RW_ENOMEM
 * (the list is then empty). */
int gdb__threads_load(struct gdb__sess *s) RW_MUST_CHECK;
/* The live thread TID in s->thr, or NULL (after gdb__threads_load). */
const struct rp_thread *gdb__thread_find(struct gdb__sess *s, u32 tid);
/* What T (borrowed) names among s->thr; sets *TID for GDB__TID_ONE. */
enum gdb__tid_match gdb__tid_match(struct gdb__sess *s,
                                   const struct gdb_tid *t, u32 *tid);
/* TID in the form gdb asked for: "p<pid>.<tid>" with multiprocess. */
struct gdb_tid gdb__tid_of(struct gdb__sess *s, u32 tid);
/* The thread g and p read: the Hg thread while it is alive, else the
 * thread that runs here. Loads s->thr. */
u32 gdb__sel_thread(struct gdb__sess *s);
/* The thread c, s and bs resume: the Hc thread while it is alive, else
 * gdb__sel_thread. Loads s->thr. */
u32 gdb__cont_thread(struct gdb__sess *s);
/* With the tree: makes the process of the Hg thread the one the replayer
 * reads memory, sets breakpoints and finds the program image of. */
void gdb__view_sync(struct gdb__sess *s);
/* With the tree: whether gdb has an inferior for process PID (the first
 * it saw, or one a fork event told it of). Only those are shown to gdb:
 * an inferior gdb adds from a thread list has no target description. */
int gdb__pid_known(struct gdb__sess *s, u32 pid);
/* With the tree: gdb has an inferior for PID from now on. */
void gdb__pid_add(struct gdb__sess *s, u32 pid);
/* With the tree: the program image (its EXEC's seq) gdb has for PID. */
u64 gdb__pid_image(struct gdb__sess *s, u32 pid);
/* With the tree: gdb has image SEQ for PID from now on. */
void gdb__pid_image_set(struct gdb__sess *s, u32 pid, u64 seq);
/* After a jump (monitor goto): whether the program the viewed process
 * runs here (*IM) is not the one gdb has for it, the jump having passed
 * an exec in either direction. It is gdb's from now on: an exec event
 * for it would make gdb's next step a continue (gdb goes on after one),
 * so the caller tells the user how to load it instead. */
int gdb__image_moved(struct gdb__sess *s, struct rp_image *im);
/* Answers H, T, qC, qfThreadInfo, qsThreadInfo, qThreadExtraInfo. */
void gdb__thread_query(struct gdb__sess *s);
/* Appends the qXfer:threads:read document to X. Returns 0 or RW_ENOMEM. */
int gdb__threads_xml(struct gdb__sess *s, struct gdb_buf *x) RW_MUST_CHECK;

/* Sends PAYLOAD (LEN bytes, wire form) as one packet; 0 or RW_ERR(errno). */
int gdb__send(struct gdb__sess *s, const void *payload, size_t len)
    RW_MUST_CHECK;
/* Sends the text MSG to gdb's console as an 'O' packet (while a resume
 * packet is being answered, or within qRcmd). */
int gdb__console(struct gdb__sess *s, const char *msg) RW_MUST_CHECK;
/* Before a forward resume (S's request): says once on gdb's console when
 * gdb asks to deliver a signal the recording does not deliver there
 * (`signal SIG`, `queue-signal`), and once when it resumes from a signal
 * stop without that signal (`signal 0`, `handle nopass`): a replay
 * delivers the recorded signals, as recorded. Returns 0 or a negative
 * code. */
int gdb__signal_note(struct gdb__sess *s) RW_MUST_CHECK;
/* The same for the N bytes at P, and for HEX (LEN characters) that is
 * their hex already. */
int gdb__console_bytes(struct gdb__sess *s, const void *p, size_t n)
    RW_MUST_CHECK;
int gdb__console_hex(struct gdb__sess *s, const void *hex, size_t len)
    RW_MUST_CHECK;
/* Reads waiting input; returns 1 when gdb sent ^C or hung up (CTX is the
 * session; also the replayer's poll function). */
int gdb__poll(void *ctx);
/* Prints a note for the user on stderr unless quiet. */
void gdb__note(struct gdb__sess *s, const char *fmt, ...) RW_PRINTF(2, 3);

/* serve_run.c: c, s, C, S, bc, bs, vCont. */
int gdb__resume(struct gdb__sess *s) RW_MUST_CHECK;

/* serve_bp.c: Z and z, the breakpoints they leave, and stop replies. */
void gdb__breakpoint(struct gdb__sess *s);
void gdb__bps_free(struct gdb__sess *s);
/* Stop marks: sets one at [LO, HI) of the process gdb looks at (its
 * number into *NUM; at most GDB_SMARK_BYTES bytes), lists them into OUT
 * (CAP bytes), deletes number NUM (0: all). Return 0 or a negative code
 * (RW_ENOTFOUND: no such mark). */
#define GDB_SMARK_BYTES 4096u
int gdb__smark_add(struct gdb__sess *s, u64 lo, u64 hi, const char *text,
                   u32 *num);
void gdb__smark_list(const struct gdb__sess *s, char *out, size_t cap);
int gdb__smark_del(struct gdb__sess *s, u32 num);
/* Says on gdb's console which stop mark ST (a breakpoint stop) met, when
 * it was one and no breakpoint of gdb's is there. */
int gdb__smark_note(struct gdb__sess *s, const struct rp_stop *st);
/* 1 if the breakpoint or watchpoint that stopped ST (borrowed) is still
 * inserted. */
int gdb__bp_still_set(struct gdb__sess *s, const struct rp_stop *st);
/* Appends the stop reply for ST (borrowed) to the reply buffer: T05 with
 * ST's thread, its registers and the reason, or T02 when interrupted. */
void gdb__stop_reply(struct gdb__sess *s, const struct rp_stop *st);
/* Whether gdb has a breakpoint at ADDR of process PID. */
int gdb__bp_at(const struct gdb__sess *s, u64 addr, u32 pid);
/* As gdb__stop_reply, a stop by Linux signal SIG instead of SIGTRAP. */
/* The Linux signals (bit N-1 for signal N) whose delivery does not stop
 * the replay: those of SET (NBITS bits, gdb's numbers, as QPassSignals
 * lists them; NULL: none) and those gdb has no number for. */
u64 gdb__signals_passed(const u8 *set, size_t nbits);
void gdb__stop_reply_signal(struct gdb__sess *s, const struct rp_stop *st,
                            int sig);

/* serve_divert.c: gdb's changes (call, print f(x), set var) made on a
 * copy of the replay's state (rp_divert_*). gdb__divert_write answers M,
 * X, P and G. gdb__divert_resume answers a resume during a diversion: 1
 * when the diversion has ended (gdb put the registers back, or goes
 * backwards) and the replay is to move as asked, 0 after its reply, or a
 * negative code. gdb__divert_end ends one, if any, before the replay
 * moves otherwise (0 or a negative code). */
void gdb__divert_write(struct gdb__sess *s);
int gdb__divert_resume(struct gdb__sess *s) RW_MUST_CHECK;
int gdb__divert_end(struct gdb__sess *s) RW_MUST_CHECK;

/* serve_query.c: registers, memory, threads, qSupported, qXfer. */
void gdb__query(struct gdb__sess *s);

/* vfile.c: vFile:setfs/open/pread/close/fstat/readlink; gdb__vfile_free
 * closes every descriptor. */
void gdb__vfile(struct gdb__sess *s);
void gdb__vfile_free(struct gdb__sess *s);

/* monitor.c: qRcmd (monitor when, goto, help). */
int gdb__monitor(struct gdb__sess *s) RW_MUST_CHECK;

#endif /* RW_GDBSTUB_SERVE_INT_H */
