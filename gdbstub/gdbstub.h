/* SPDX-License-Identifier: MIT */
/* Public interface of librw_gdbstub.a, rewind's GDB remote serial protocol
 * stub (DESIGN.md section 5, STYLE R15). Layer 1 frames packets over byte
 * buffers and builds replies, layer 2 parses a payload into a tagged
 * struct gdb_request, and the target description maps struct rw_regs onto
 * gdb's x86-64 register numbering. Nothing here touches a socket or the
 * replayer: serve.c (layer 3) moves the bytes and executes the requests. */
#ifndef RW_GDBSTUB_GDBSTUB_H
#define RW_GDBSTUB_GDBSTUB_H

#include "common/regs.h"
#include "common/rw.h"

/* Largest decoded payload accepted, advertised as qSupported PacketSize.
 * gdb never sends more; a longer packet is discarded with GDB_EV_OVERSIZE. */
#define GDB_PACKET_MAX 16384
/* The file gdb reads the syscall buffer's library from (vFile, so
 * `add-symbol-file target:/rewind/sblib`): not a path of the program's. */
#define GDB_SBLIB_PATH "/rewind/sblib"
/* Largest m length: its hex reply must fit GDB_PACKET_MAX. */
#define GDB_MEM_READ_MAX ((GDB_PACKET_MAX - 16) / 2)
/* Largest qXfer length and vFile:pread count kept by the parser (larger
 * requests are clamped: both packets allow short replies). Leaves room for
 * every byte to be escaped. */
#define GDB_DATA_MAX ((GDB_PACKET_MAX - 32) / 2)
/* Most vCont actions in one packet. */
#define GDB_MAX_ACTIONS 32
/* Most syscall numbers in one QCatchSyscalls packet. */
#define GDB_SYSCALLS_MAX 1024
/* Room for a decoded qRcmd command or vFile file name, NUL included. */
#define GDB_TEXT_MAX 4097

/* ---- Growable output buffer -------------------------------------------- */

/* Bytes being built. Appends never return an error: the first failure (out
 * of memory, or growing past LIMIT) is kept in ERR and every later append is
 * a no-op, so a reply is built with a chain of calls and checked once, as
 * SQLite's StrAccum does. Plain data. */
struct gdb_buf {
  u8 *data;     /* owned; NUL-terminated when len < cap; NULL before use */
  size_t len;   /* bytes used */
  size_t cap;   /* bytes allocated */
  size_t limit; /* most bytes allowed; 0 means GDB_PACKET_MAX * 2 + 8 */
  int err;      /* 0, RW_ENOMEM or RW_ELIMIT (sticky until reset) */
};

/* Sets B empty with LIMIT (0 for the default). Allocates nothing. */
void gdb_buf_init(struct gdb_buf *b, size_t limit);
/* Releases B's storage (B itself is borrowed); accepts a zeroed B. */
void gdb_buf_free(struct gdb_buf *b);
/* Empties B and clears ERR, keeping its storage. */
void gdb_buf_reset(struct gdb_buf *b);
/* Appends N bytes at P (borrowed) verbatim. */
void gdb_buf_put(struct gdb_buf *b, const void *p, size_t n);
/* Appends the NUL-terminated string S verbatim. */
void gdb_buf_puts(struct gdb_buf *b, const char *s);
/* Appends printf-formatted text. */
void gdb_buf_printf(struct gdb_buf *b, const char *fmt, ...) RW_PRINTF(2, 3);
/* Appends N bytes at P as 2N lowercase hex digits (m replies, qRcmd 'O'). */
void gdb_buf_put_hex(struct gdb_buf *b, const void *p, size_t n);
/* Appends V in hex, most significant digit first, no leading zeros. */
void gdb_buf_put_hexnum(struct gdb_buf *b, u64 v);
/* Appends N bytes at P binary-escaped: '$', '#', '}' and '*' become '}' and
 * the byte XOR 0x20 (qXfer 'l'/'m' data, vFile attachments). */
void gdb_buf_put_bin(struct gdb_buf *b, const void *p, size_t n);
/* How many of the N bytes at P fit in BUDGET bytes once binary-escaped. */
size_t gdb_bin_fit(const void *p, size_t n, size_t budget);

/* ---- Layer 1: packets --------------------------------------------------- */

typedef struct gdb_decoder gdb_decoder;

enum gdb_event_kind {
  GDB_EV_NONE,      /* all input consumed, nothing complete yet */
  GDB_EV_PACKET,    /* a payload with a good checksum */
  GDB_EV_INTERRUPT, /* ^C (0x03) between packets */
  GDB_EV_ACK,       /* '+' received */
  GDB_EV_NAK,       /* '-' received: resend the last reply */
  GDB_EV_BAD_CHECKSUM, /* a packet was dropped; ACK is '-' in ack mode */
  GDB_EV_OVERSIZE,  /* a packet longer than the limit was discarded */
  GDB_EV_BAD_ENCODING, /* a dangling '}' or a bad '*' run: discarded */
};

/* One thing the decoder found. Plain data. */
struct gdb_event {
  enum gdb_event_kind kind;
  char ack;            /* '+' or '-' to send before anything else, or 0 */
  const char *payload; /* GDB_EV_PACKET: decoded bytes, NUL-terminated,
                          borrowed until the next feed or reset */
  size_t len;          /* GDB_EV_PACKET: payload length (may hold NULs) */
};

/* Creates a decoder accepting payloads up to MAX bytes decoded (0 means
 * GDB_PACKET_MAX) in *OUT, which the caller owns (gdb_decoder_free). Ack
 * mode is on. Returns 0 or RW_ENOMEM (*OUT is then NULL). */
int gdb_decoder_new(size_t max, gdb_decoder **out) RW_MUST_CHECK;
/* Releases D; accepts NULL. */
void gdb_decoder_free(gdb_decoder *d);
/* Forgets any partial packet, as after a disconnect; ack mode is back on. */
void gdb_decoder_reset(gdb_decoder *d);
/* Turns acknowledgements off (after QStartNoAckMode) or back on. */
void gdb_decoder_set_noack(gdb_decoder *d, int noack);
/* Bytes ignored outside packets so far (noise, stray '#'). */
u64 gdb_decoder_noise(const gdb_decoder *d);

/* Consumes bytes from BUF (LEN bytes, borrowed) until one event completes or
 * the input runs out, and fills EV. Returns the number of bytes consumed;
 * call again with the rest. Never fails: bad input becomes an event. */
size_t gdb_decoder_feed(gdb_decoder *d, const void *buf, size_t len,
                        struct gdb_event *ev);

/* Appends "$" PAYLOAD "#" checksum to OUT. PAYLOAD (LEN bytes, borrowed) is
 * in wire form: binary parts already escaped by gdb_buf_put_bin. A raw '$',
 * '#' or '*' in it is escaped here so the frame can never break. Returns 0,
 * or OUT's sticky error (RW_ENOMEM, RW_ELIMIT). */
int gdb_frame(struct gdb_buf *out, const void *payload, size_t len)
    RW_MUST_CHECK;

/* ---- Replies ------------------------------------------------------------ */

/* A thread id in the multiprocess syntax "p<pid>.<tid>". Plain data. */
struct gdb_tid {
  i64 pid;     /* GDB_TID_ALL, GDB_TID_ANY or a pid; meaningful if has_pid */
  i64 tid;     /* GDB_TID_ALL, GDB_TID_ANY or a thread id */
  u8 has_pid;  /* the "p<pid>." form was used */
};
#define GDB_TID_ALL (-1)
#define GDB_TID_ANY 0

/* Appends TID as "p<pid>.<tid>" (MULTIPROCESS) or "<tid>", -1 as "-1". */
void gdb_buf_put_tid(struct gdb_buf *b, struct gdb_tid tid, int multiprocess);

enum gdb_stop_kind {
  GDB_STOP_SIGNAL,     /* T: stopped with a signal */
  GDB_STOP_EXITED,     /* W: exited with a status */
  GDB_STOP_TERMINATED, /* X: killed by a signal */
};

enum gdb_stop_reason {
  GDB_REASON_NONE,
  GDB_REASON_WATCH,     /* watch:ADDR (write watchpoint) */
  GDB_REASON_RWATCH,    /* rwatch:ADDR */
  GDB_REASON_AWATCH,    /* awatch:ADDR */
  GDB_REASON_SWBREAK,   /* swbreak: */
  GDB_REASON_HWBREAK,   /* hwbreak: */
  GDB_REASON_REPLAY_BEGIN, /* replaylog:begin (reverse ran out of history) */
  GDB_REASON_REPLAY_END,   /* replaylog:end */
  GDB_REASON_FORK,         /* fork:CHILD (the new process's thread id) */
  GDB_REASON_SYSCALL_ENTRY,  /* syscall_entry:SYSNO */
  GDB_REASON_SYSCALL_RETURN, /* syscall_return:SYSNO */
};

/* What to say in a stop reply. Plain data. */
struct gdb_stop {
  enum gdb_stop_kind kind;
  u8 signo;                   /* gdb signal number (T, X) */
  u8 status;                  /* exit status (W) */
  u8 multiprocess;            /* use "p<pid>.<tid>" and ";process:" forms */
  u8 has_thread;              /* emit thread: (T) */
  struct gdb_tid thread;      /* the stopped thread / exited process */
  enum gdb_stop_reason reason;
  u64 addr;                   /* data address for watch/rwatch/awatch */
  const struct rw_regs *regs; /* borrowed; if set, rbp, rsp and rip are
                                 expedited as n:v pairs */
  const char *exec_path;      /* borrowed; if set, an exec event: the
                                 program the thread now runs */
  struct gdb_tid child;       /* GDB_REASON_FORK: the child's thread */
  u32 sysno;                  /* GDB_REASON_SYSCALL_*: the syscall */
};

/* Appends the stop reply S to B ("T05thread:p1.1;06:...;swbreak:;",
 * "W00;process:1", "X09"). */
void gdb_stop_reply(struct gdb_buf *b, const struct gdb_stop *s);

/* Appends the first N bytes of S (borrowed; fewer when a NUL comes first)
 * as XML attribute text: '<', '>', '&', '"' and '\'' become entities,
 * well-formed UTF-8 is kept, and every other byte that XML forbids or that
 * is not UTF-8 (controls, DEL, a sequence cut short) becomes '?'. Thread
 * names in qXfer:threads:read come from the recording and may hold any of
 * these. */
void gdb_buf_put_xml(struct gdb_buf *b, const char *s, size_t n);

/* Appends "E" and CODE as two hex digits (E01 for a malformed packet). */
void gdb_reply_error(struct gdb_buf *b, u8 code);
/* Appends "E." and MSG with every byte that could break a frame or be
 * misread ('$', '#', '}', '*', controls, non-ASCII) replaced by '?'. */
void gdb_reply_error_msg(struct gdb_buf *b, const char *msg);

/* Host I/O result "F<result>[,<errno>]": RESULT in hex with a '-' when
 * negative; ERRNO is a gdb File-I/O errno, emitted when RESULT < 0. */
void gdb_reply_fio(struct gdb_buf *b, i64 result, int fio_errno);

/* File attributes in the File-I/O "struct stat" wire form. Plain data. */
struct gdb_fio_stat {
  u32 dev, ino, mode, nlink, uid, gid, rdev;
  u64 size, blksize, blocks;
  u32 atime, mtime, ctime;
};
/* Appends the vFile:fstat reply: "F40;" and the 64-byte big-endian struct,
 * binary-escaped. */
void gdb_reply_fstat(struct gdb_buf *b, const struct gdb_fio_stat *st);

/* Appends the qXfer reply for bytes [OFF, OFF+LEN) of the object DATA (SIZE
 * bytes, borrowed): 'm' and data when more follows, 'l' and data at the end,
 * both binary-escaped, so the whole reply fits GDB_PACKET_MAX. */
void gdb_reply_xfer(struct gdb_buf *b, const void *data, size_t size, u64 off,
                    u64 len);

/* ---- Layer 2: requests -------------------------------------------------- */

enum gdb_req_kind {
#define GDB_REQ(name, fmt) GDB_REQ_##name,
#include "gdbstub/requests.def"
#undef GDB_REQ
  GDB_REQ__COUNT
};

/* Returns the request kind's name ("READ_MEM"), or "?" when out of range. */
const char *gdb_req_name(enum gdb_req_kind kind);

enum gdb_dir { GDB_FORWARD, GDB_REVERSE };

enum gdb_action_kind {
  GDB_ACT_CONT = 'c',     /* continue */
  GDB_ACT_STEP = 's',     /* single-step */
  GDB_ACT_CONT_SIG = 'C', /* continue with signal */
  GDB_ACT_STEP_SIG = 'S', /* step with signal */
  GDB_ACT_RANGE = 'r',    /* step while rip in [start, end) */
  GDB_ACT_STOP = 't',     /* stop (non-stop only; parsed, refused later) */
};

/* One resume action and the threads it applies to. Plain data. */
struct gdb_action {
  enum gdb_action_kind kind;
  u8 signo;          /* C, S */
  u8 has_tid;        /* ":thread-id" given; else it applies to all others */
  struct gdb_tid tid;
  u64 start, end;    /* r */
};

enum gdb_xfer_object {
  GDB_XFER_FEATURES,       /* qXfer:features:read:ANNEX */
  GDB_XFER_AUXV,           /* qXfer:auxv:read:: */
  GDB_XFER_EXEC_FILE,      /* qXfer:exec-file:read:PID-or-empty */
  GDB_XFER_THREADS,        /* qXfer:threads:read:: */
  GDB_XFER_LIBRARIES_SVR4, /* qXfer:libraries-svr4:read:ANNEX */
  GDB_XFER_SIGINFO,        /* qXfer:siginfo:read:: */
};

enum gdb_bp_type {
  GDB_BP_SOFT = 0,   /* Z0 */
  GDB_BP_HARD = 1,   /* Z1 */
  GDB_BP_WRITE = 2,  /* Z2 write watchpoint */
  GDB_BP_READ = 3,   /* Z3 read watchpoint */
  GDB_BP_ACCESS = 4, /* Z4 access watchpoint */
};

/* qSupported features gdb announced, as bits of gdb_request.supported. */
enum {
  GDB_FEAT_MULTIPROCESS = 1u << 0,   /* multiprocess+ */
  GDB_FEAT_SWBREAK = 1u << 1,        /* swbreak+ */
  GDB_FEAT_HWBREAK = 1u << 2,        /* hwbreak+ */
  GDB_FEAT_VCONT_SUPPORTED = 1u << 3,/* vContSupported+ */
  GDB_FEAT_XML_I386 = 1u << 4,       /* xmlRegisters=...i386... */
  GDB_FEAT_ERROR_MESSAGE = 1u << 5,  /* error-message+ (E.msg understood) */
  GDB_FEAT_NO_RESUMED = 1u << 6,     /* no-resumed+ */
  GDB_FEAT_QTHREAD_EVENTS = 1u << 7, /* QThreadEvents+ */
  GDB_FEAT_EXEC_EVENTS = 1u << 8,    /* exec-events+ */
  GDB_FEAT_FORK_EVENTS = 1u << 9,    /* fork-events+ */
};

/* vFile:open flags (gdb File-I/O values, not the host's). */
enum {
  GDB_FIO_O_RDONLY = 0x0, GDB_FIO_O_WRONLY = 0x1, GDB_FIO_O_RDWR = 0x2,
  GDB_FIO_O_APPEND = 0x8, GDB_FIO_O_CREAT = 0x200, GDB_FIO_O_TRUNC = 0x400,
  GDB_FIO_O_EXCL = 0x800,
};

/* A parsed packet. Pointers point into the payload given to gdb_parse (or
 * into this struct's TEXT) and are borrowed for as long as it lives.
 * Plain data; several kilobytes, so keep one per connection. */
struct gdb_request {
  enum gdb_req_kind kind;
  const char *msg;    /* MALFORMED: static text for "E.msg" */
  union {
    /* CONT: c, s, C, S, bc, bs, vCont */
    struct {
      enum gdb_dir dir;
      u8 hc;          /* c, s, C, S, bc, bs: the action is for the thread
                         Hc selected; vCont names its threads itself */
      u8 has_addr;    /* c/s/C/S with a resume address */
      u64 addr;
      unsigned n;     /* actions in act[] */
      struct gdb_action act[GDB_MAX_ACTIONS];
    } cont;
    /* READ_MEM, WRITE_MEM */
    struct {
      u64 addr;
      u64 len;
      const char *data; /* WRITE_MEM: hex (M) or raw bytes (X) */
      size_t data_len;  /* bytes at data */
      u8 binary;        /* X */
    } mem;
    /* READ_REG, WRITE_REG; WRITE_REGS uses value/value_len only */
    struct {
      u64 regnum;
      const char *value; /* hex digits */
      size_t value_len;
    } reg;
    /* INSERT_BP, REMOVE_BP */
    struct {
      enum gdb_bp_type type;
      u64 addr;
      u64 kind;         /* breakpoint length / watched bytes */
    } bp;
    /* SET_THREAD (op 'g' or 'c'), THREAD_ALIVE, THREAD_EXTRA_INFO,
     * ATTACHED, KILL, DETACH (has_tid when a pid was given) */
    struct {
      char op;
      u8 has_tid;
      struct gdb_tid tid;
    } thread;
    /* SUPPORTED */
    struct {
      u32 features;     /* GDB_FEAT_* */
    } supported;
    /* XFER_READ */
    struct {
      enum gdb_xfer_object object;
      const char *annex; /* not NUL-terminated */
      size_t annex_len;
      u64 off;
      u64 len;           /* clamped to GDB_DATA_MAX */
    } xfer;
    /* VFILE_*; the file name of open/readlink is in TEXT */
    struct {
      u64 flags, mode;   /* open */
      i64 fd;            /* pread, close, fstat */
      u64 count, off;    /* pread; count clamped to GDB_DATA_MAX */
      i64 pid;           /* setfs */
    } file;
    /* NON_STOP */
    struct {
      u8 on;
    } non_stop;
    /* PASS_SIGNALS, PROGRAM_SIGNALS: bit n set = gdb signal n listed */
    struct {
      u8 set[32];
    } sig;
    /* CATCH_SYSCALLS: on, and the n syscall numbers listed (none: any) */
    struct {
      u8 on;
      u32 n;
      u32 nr[GDB_SYSCALLS_MAX];
    } catch_sys;
  } u;
  size_t text_len;          /* RCMD, VFILE_OPEN, VFILE_READLINK */
  char text[GDB_TEXT_MAX];  /* decoded text, NUL-terminated */
};

/* Parses the payload P (LEN bytes, borrowed; the decoder's payload) into R.
 * Always fills R: a packet that is not understood is GDB_REQ_UNKNOWN (reply
 * with the empty packet), a known packet with bad arguments is
 * GDB_REQ_MALFORMED with R->msg set (reply E01 or "E.msg"). Reads no byte
 * outside [P, P+LEN) and allocates nothing. */
void gdb_parse(const char *p, size_t len, struct gdb_request *r);

/* ---- Target description and registers ---------------------------------- */

/* gdb register numbers, GDB_REGNUM_RAX..GDB_REGNUM_PKRU, and their count
 * (149), from gdbstub/gdbregs.def. The AVX-512 ones (GDB_REGNUM_XMM16 to
 * GDB_REGNUM_ZMM31H) are offered only for a recording whose XCR0 enables
 * AVX-512, pkru only for one whose XCR0 enables PKRU. */
enum gdb_regnum {
#define GDB_REG(num, id, name, bits, type, group, feature, src, arg) \
  GDB_REGNUM_##id = (num),
#include "gdbstub/gdbregs.def"
#undef GDB_REG
};
enum {
  GDB_NREGS = 0
#define GDB_REG(num, id, name, bits, type, group, feature, src, arg) +1
#include "gdbstub/gdbregs.def"
#undef GDB_REG
};
/* Size in bytes of the largest register (zmm<n>h). */
#define GDB_REG_MAX 32
/* The XCR0 bits the AVX-512 registers need: the opmask, ZMM_Hi256 and
 * Hi16_ZMM state components (Intel SDM vol. 1, 13.1). */
#define GDB_XCR0_AVX512 0xe0ull
/* The XCR0 bit the pkru register needs: the PKRU state component. */
#define GDB_XCR0_PKRU 0x200ull

/* Appends the target description XML (target.xml) to B, for a recording
 * whose XCR0 is XCR0: the org.gnu.gdb.i386.avx512 feature only when XCR0
 * has every bit of GDB_XCR0_AVX512. */
void gdb_tdesc_xml(struct gdb_buf *b, u64 xcr0);
/* Looks up the qXfer:features:read annex NAME (LEN bytes, borrowed). Fills
 * the XML for XCR0 into B and returns 0, or returns RW_ENOTFOUND for
 * another annex. */
int gdb_tdesc_lookup(const char *name, size_t len, u64 xcr0,
                     struct gdb_buf *b) RW_MUST_CHECK;
/* 1 if the description for XCR0 has register REGNUM, else 0. */
int gdb_reg_offered(unsigned regnum, u64 xcr0);

/* Name of gdb register REGNUM ("rax", "zmm31h"), or NULL when unknown. */
const char *gdb_reg_name(unsigned regnum);
/* Size in bytes of register REGNUM, or 0 when unknown. */
unsigned gdb_reg_size(unsigned regnum);
/* Writes register REGNUM of REGS (borrowed) in target byte order into DST
 * (CAP bytes). Returns the size written, RW_ENOTFOUND for an unknown
 * regnum, RW_ELIMIT when CAP is too small. */
int gdb_reg_read(const struct rw_regs *regs, unsigned regnum, u8 *dst,
                 size_t cap) RW_MUST_CHECK;
/* Sets register REGNUM of REGS from the LEN bytes at SRC, in target byte
 * order (a 'P' or 'G' packet's). Returns 0, RW_ENOTFOUND for an unknown
 * regnum, RW_EINVAL when LEN is not its size. */
int gdb_reg_write(struct rw_regs *regs, unsigned regnum, const u8 *src,
                  size_t len) RW_MUST_CHECK;
/* Appends register REGNUM as hex (the 'p' reply). Returns 0 or
 * RW_ENOTFOUND (nothing appended) for a register the description for XCR0
 * does not have. */
int gdb_reg_put_hex(struct gdb_buf *b, const struct rw_regs *regs,
                    unsigned regnum, u64 xcr0) RW_MUST_CHECK;
/* Appends every register the description for XCR0 has, in regnum order,
 * as hex (the 'g' reply). */
void gdb_regs_put_g(struct gdb_buf *b, const struct rw_regs *regs, u64 xcr0);
/* The x87 tag word gdb expects (2 bits per physical register: 00 valid,
 * 01 zero, 10 special, 11 empty), rebuilt from FXSAVE's abridged tag byte,
 * the status word's TOP and the register contents. */
u16 gdb_x87_full_tag(const u8 fxsave[512]);

/* ---- Layer 3: serving a replay ------------------------------------------ */

/* The replay served (replayer/replayer.h's rp_replay). Layers 1 and 2 never
 * see it; only serve.c and its helpers include the replayer's header. */
struct rp_replay;

/* Options of gdb_serve(). Zero means the default. Plain data. */
struct gdb_serve_opts {
  const char *name; /* thread name when the program's is unknown */
  int log;          /* 1: log every packet in and out on stderr */
  int quiet;        /* 1: no notes on stderr (refusals, disconnects) */
  int listening;    /* 1: listen_fd is the server's listening socket; a
                       client that connects during the session is told
                       the replay is busy (gdb_refuse_busy) */
  int listen_fd;
  int idle_secs;    /* > 0: end the session when gdb sends nothing for this
                       long while the replay waits for it */
  int tree;         /* 1: RP was opened with rp_opts.tree; gdb sees every
                       process, each thread id with its own pid, and the
                       Hg thread's process is the one memory, breakpoints
                       and the program image are about */
};

/* Serves the GDB remote serial protocol for RP (borrowed; its position moves
 * as gdb steps and continues) on the byte stream read from IN_FD and written
 * to OUT_FD (both borrowed and left open) until the client detaches or
 * disconnects, a partial packet then being dropped. Writes to registers and
 * memory, run and kill are refused with an error reply. OPTS may be NULL.
 * Returns 0 at a detach or disconnect, or a negative code when writing to
 * OUT_FD fails (RW_ERR(errno)) or memory runs out (RW_ENOMEM). */
int gdb_serve(struct rp_replay *rp, int in_fd, int out_fd,
              const struct gdb_serve_opts *opts) RW_MUST_CHECK;

/* Opens a TCP socket listening on ADDR ("HOST:PORT", ":PORT" or "PORT";
 * the host defaults to 127.0.0.1, port 0 picks a free one) and writes the
 * bound address as "host:port" to DESC (CAP bytes). Returns the socket (the
 * caller closes it) or a negative code with DIAG (may be NULL) saying why:
 * RW_EINVAL for a bad address, RW_ERR(EADDRINUSE) for a port in use. */
int gdb_listen(const char *addr, char *desc, size_t cap,
               struct rw_diag *diag) RW_MUST_CHECK;
/* Waits for the next client on the listening socket LFD (borrowed).
 * Returns the connected socket (the caller closes it) or RW_ERR(errno). */
int gdb_accept(int lfd) RW_MUST_CHECK;

/* Answers a client on FD (borrowed; the caller closes it) that the replay
 * is busy with another gdb: its first packet gets an error reply gdb
 * prints, within a second at most. */
void gdb_refuse_busy(int fd);

#endif /* RW_GDBSTUB_GDBSTUB_H */
