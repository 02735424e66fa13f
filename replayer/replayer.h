/* SPDX-License-Identifier: MIT */
/* The replayer (DESIGN.md section 4): loads a trace into the emulator, runs
 * the recorded program forwards, applies the recorded side effects at exactly
 * the points where they happened, checks the registers at every event, and
 * keeps keyframes so that any position of the history can be reached again.
 * It knows nothing about gdb; the stub and `rewind replay` drive it. */
#ifndef RW_REPLAYER_REPLAYER_H
#define RW_REPLAYER_REPLAYER_H

#include <stdio.h>

#include "common/regs.h"
#include "common/rw.h"

typedef struct rp_replay rp_replay;

/* Options of rp_open(). Zero means the default. Plain data. */
struct rp_opts {
  u64 keyframe_interval; /* instructions between keyframes (default 5e6) */
  u64 keyframe_budget;   /* bytes of memory keyframes may hold before older
                            ones are thinned out (default 256 MiB plus
                            twice the program's memory) */
  int progress;          /* 1: report progress on stderr (a terminal) */
  int whole;             /* 1: the history runs to the end of the
                            recording even when the first process ends
                            before its children (--verify, which checks
                            every event); 0: it ends where the debugger's
                            process ends, the root's as a child's */
  int tree;              /* 1: every recorded process is the debugger's (a
                            debugger that shows the whole tree, as gdb's
                            inferiors): rp_threads lists the threads of
                            all of them, breakpoints and watchpoints stop
                            the process they were set for (rp_set_view),
                            exec stops come from any process, and the
                            history is whole. Not with rp_debug_process */
  int no_index;          /* 1: do not use the trace's persistent index
                            (TRACE.idx, rp_index_write) */
  u32 start_keyframe;    /* k > 0: the history begins at the trace's k-th
                            recorder keyframe (rewind record --keyframes),
                            instruction 0 there */
  u64 end_seq;           /* > 0: the history ends before the record with
                            this sequence number, as if the trace were cut
                            there (a segment between two keyframes) */
  int defer_blob_hash;   /* 1: reading a file or page the trace holds does
                            not hash its blob (each chunk's checksum is
                            still checked): rp_check_blobs_part hashes a
                            share of them (the pieces of rewind replay
                            --verify -j and analyze -j split the work) */
  int no_write_index;    /* 1: reverse continues re-run every keyframe
                            interval even when only write watchpoints are
                            set (for comparison; also set by the
                            environment variable REWIND_NO_WRITE_INDEX) */
  int write_lines;       /* 1: pages keep a record of the 64-byte lines
                            written between two keyframes, so that the
                            write index passes by an interval that wrote a
                            watched range's page but none of the range's
                            lines. Costs a few slow writes per page written
                            after each keyframe, so a replay that never goes
                            back leaves it off; the debugger's sets it. Not
                            with no_write_index */
  int no_helper;         /* 1: a long reverse continue re-runs every
                            interval in this process, without a helper
                            process on another core (for comparison; also
                            set by REWIND_REVERSE_HELPER=0) */
};

/* Why rp_run() or rp_seek() stopped. */
enum rp_stop_reason {
  RP_STOP_TARGET = 1, /* the requested instruction count was reached */
  RP_STOP_BREAKPOINT, /* a breakpoint address is about to execute */
  RP_STOP_WATCHPOINT, /* an instruction touched a watched range */
  RP_STOP_END,        /* the end of the history: the program exited, was
                         killed, or the trace ends there */
  RP_STOP_DIVERGED,   /* the replay differs from the recording */
  RP_STOP_FAILED,     /* the replay cannot go on (unsupported instruction,
                         damaged trace, ...): msg says why */
  RP_STOP_BEGIN,      /* going backwards, the start of the history (icount
                         0) was reached */
  RP_STOP_INTERRUPTED, /* the poll function (rp_set_poll) asked to stop */
  RP_STOP_EXEC,       /* with rp_set_exec_stops: the debugger's process
                         exec'd; its new program is about to run */
  RP_STOP_FORK,       /* with rp_set_proc_stops: a process forked the
                         recorded child CHILD, which has not run yet; TID
                         is the thread that forked it */
  RP_STOP_SYSCALL,    /* with rp_set_syscall_stops: thread TID enters
                         syscall SYS_NR (SYS_ENTRY 1: its syscall
                         instruction is about to run) or has returned from
                         it (0: its result is in its registers) */
  RP_STOP_REP,        /* with rp_set_rep_stops: thread TID's rep string
                         instruction at ADDR is about to start (REP_END 0)
                         or has ended (REP_END 1, the position after it) */
  RP_STOP_SIGNAL      /* with rp_set_signal_stops: signal SIGNO is about
                         to be delivered to thread TID (a fault: at the
                         faulting instruction) */
};

/* How the recorded program ended, when the end is reached. */
enum rp_end {
  RP_END_NONE = 0,  /* not reached */
  RP_END_EXIT,      /* exited with status */
  RP_END_SIGNAL,    /* killed by signal */
  RP_END_CUT,       /* the trace stops before the program ended (a recorder
                       that was killed, a refused thread) */
  RP_END_DETACHED   /* the recorder let the process go on (rewind record
                       -p): the history ends, whole, with it running */
};

/* Where and why a run stopped. Plain data. */
struct rp_stop {
  int reason;        /* enum rp_stop_reason */
  u64 icount;        /* global instruction count at the stop */
  u64 event;         /* records consumed so far */
  u32 tid;           /* the thread that stopped (rp_current_tid) */
  u64 addr;          /* breakpoint address, or watched access address */
  u32 watch_size;    /* watchpoint: access size */
  int watch_kind;    /* watchpoint: 1 read, 2 write */
  int by_kernel;     /* watchpoint: 1 when the write was the kernel's (a
                        syscall's output, a signal frame: a MEM record),
                        not an instruction's */
  u64 before_icount; /* with by_kernel: the position just before that
                        write (where going backwards stops) */
  u64 before_event;
  int end;           /* enum rp_end, with RP_STOP_END */
  int status;        /* exit status or signal number, with RP_STOP_END */
  int finished;      /* with RP_STOP_END: 1 when the trace ends as a
                        finished recording does (its END record; for a
                        format 1.0 trace, the EXIT that ends the process),
                        so every event of the run was checked; 0 when the
                        recording was cut off (end RP_END_CUT, or no END) */
  u32 child;         /* with RP_STOP_FORK: the new process's pid */
  u32 sys_nr;        /* with RP_STOP_SYSCALL: the syscall's number */
  int rep_end;       /* with RP_STOP_REP: 1 at the end, 0 at the start */
  int sys_entry;     /* with RP_STOP_SYSCALL: 1 entry, 0 return */
  int signo;         /* with RP_STOP_SIGNAL: the signal's number */
  int damaged;       /* with RP_STOP_FAILED: 1 when the trace is damaged
                        there (a lost chunk, a blob that does not match its
                        hash): the history before it is sound */
  char msg[512];     /* one line for RP_STOP_FAILED and RP_STOP_DIVERGED */
};

/* Opens the trace PATH (borrowed) and prepares the replay at its first
 * instruction (the first record of the program image is applied). OPTS may
 * be NULL. Returns 0 with *OUT owned by the caller (rp_close), or a negative
 * code with DIAG (may be NULL) saying why: the trace cannot be read, it has
 * no program image, or the host cannot run the emulator. */
int rp_open(rp_replay **out, const char *path, const struct rp_opts *opts,
            struct rw_diag *diag) RW_MUST_CHECK;

/* Frees RP. Accepts NULL. */
void rp_close(rp_replay *rp);

/* Runs forward until the global instruction count reaches UNTIL (use ~0 for
 * no limit), a breakpoint or watchpoint, the end of the history, a
 * divergence or a failure; fills STOP. Returns 0 (the reason is in STOP) or
 * a negative code when the replayer itself failed (RW_ENOMEM). */
int rp_run(rp_replay *rp, u64 until, struct rp_stop *stop) RW_MUST_CHECK;

/* Moves to global instruction count ICOUNT, forwards or backwards, through
 * the nearest earlier keyframe; breakpoints and watchpoints do not stop it.
 * Past the end of the history it stops at the end. Fills STOP. Returns 0 or a
 * negative code. */
int rp_seek(rp_replay *rp, u64 icount, struct rp_stop *stop) RW_MUST_CHECK;

/* The global instruction count: instructions executed by all threads since
 * the start of the history (each rep iteration counts one). */
u64 rp_icount(const rp_replay *rp);

/* Records consumed so far (the event index, for humans). */
u64 rp_event(const rp_replay *rp);

/* The instruction count of the end of the history, or 0 while unknown (it
 * is known once a run has reached the end). */
u64 rp_end_icount(const rp_replay *rp);

/* The thread that runs at the current position: the one whose instruction
 * executes next (after a breakpoint or watchpoint stop, the one that hit
 * it), or at the end of the history the one that ended it. While a thread
 * of another process than the debugger's (rp_debug_process) runs, the
 * first listed thread of the debugger's: this is always a thread
 * rp_threads lists, as is the tid of every rp_stop. */
u32 rp_current_tid(const rp_replay *rp);
/* The thread whose instruction executes next, in whichever process. */
u32 rp_running_tid(const rp_replay *rp);

/* A thread alive at the current position. Plain data. */
struct rp_thread {
  u32 tid;        /* its id in the recording */
  u32 pid;        /* its process's id in the recording */
  char name[16];  /* its name (comm) as recorded, "" while unknown */
  u64 icount;     /* instructions it has executed so far */
};

/* Fills up to CAP entries of OUT (caller-owned) with the threads alive at
 * the current position, in the order they were created, and returns how
 * many are alive (possibly more than CAP). A thread not yet created, or
 * already gone, at this position is not listed. The threads the process
 * ended with (exit_group, a fatal signal) count as alive up to the end of
 * the history, so they are listed there, as they were when it ended; one
 * that called exit alone is gone from the next position on. */
size_t rp_threads(rp_replay *rp, struct rp_thread *out, size_t cap);

/* Runs forward until thread TID has executed one more instruction; the
 * other threads run as they did in the recording meanwhile (when TID's
 * instruction is a blocking syscall, until TID runs again). Stops earlier at
 * a breakpoint or watchpoint of any thread, the end, a divergence or a
 * failure. When TID's instruction makes it exit (exit, execve), it stops at
 * the next position with RP_STOP_TARGET and the thread about to run there.
 * STOP->tid is the thread that stopped. Returns 0, RW_ENOTFOUND when TID is
 * not alive here, or a negative code. */
int rp_step_thread(rp_replay *rp, u32 tid, struct rp_stop *stop)
    RW_MUST_CHECK;

/* Moves back to the position just before thread TID executed its last
 * instruction (the latest position where TID has executed one instruction
 * fewer and is the thread about to run). Watchpoints as for
 * rp_reverse_step. RP_STOP_BEGIN, without moving, when TID has executed
 * nothing yet. Returns 0, RW_ENOTFOUND when TID is not alive here, or a
 * negative code. */
int rp_reverse_step_thread(rp_replay *rp, u32 tid, struct rp_stop *stop)
    RW_MUST_CHECK;

/* Copies the registers of thread TID (0: the one about to run, in
 * whichever process: rp_running_tid) into REGS.
 * Returns 0 or RW_ENOTFOUND (TID is not listed by rp_threads here). */
int rp_get_regs(rp_replay *rp, u32 tid, struct rw_regs *regs) RW_MUST_CHECK;

/* Copies LEN bytes of the program's memory at ADDR into DST (caller-owned).
 * Returns 0 or RW_EFAULT when a page is not mapped. */
int rp_read_mem(rp_replay *rp, u64 addr, void *dst, size_t len)
    RW_MUST_CHECK;

/* Breakpoints (stop before executing ADDR) and watchpoints (KIND: 1 read,
 * 2 write, 3 both) for rp_run. They survive seeks. Return 0, RW_ENOMEM, or
 * RW_ENOTFOUND when deleting one that is not set. */
int rp_break_add(rp_replay *rp, u64 addr) RW_MUST_CHECK;
int rp_break_del(rp_replay *rp, u64 addr) RW_MUST_CHECK;
int rp_watch_add(rp_replay *rp, u64 addr, u64 len, int kind) RW_MUST_CHECK;
int rp_watch_del(rp_replay *rp, u64 addr, u64 len, int kind) RW_MUST_CHECK;

/* Writes the full report of the last RP_STOP_DIVERGED or RP_STOP_FAILED stop
 * to OUT: the event, the thread, expected and actual registers, the last
 * instructions executed (disassembled, with symbols where known) and the
 * memory imports applied near that point. Returns 0 or a negative code. */
int rp_report(rp_replay *rp, FILE *out) RW_MUST_CHECK;

/* Writes a disassembly of COUNT instructions starting at ADDR, marking the
 * one at MARK, to OUT (for `rewind replay --goto`). */
void rp_disasm(rp_replay *rp, FILE *out, u64 addr, int count, u64 mark);

/* Makes process PID (one the recorded program or its descendants forked)
 * the debugger's: rp_threads, rp_current_tid, rp_read_mem, breakpoints,
 * watchpoints and rp_get_image are about it from then on. Runs forward to
 * where its history begins for the debugger: the first time one of its
 * threads is about to run after record SEQ (its FORK, or the EXEC of the
 * program to debug). Going back stops there (RP_STOP_BEGIN), and the
 * history ends when the process does. Fills STOP: RP_STOP_TARGET there,
 * RP_STOP_END when the process never ran after SEQ, or why the replay
 * stopped before. Returns 0 or a negative code. */
int rp_debug_process(rp_replay *rp, u32 pid, u64 seq, struct rp_stop *stop)
    RW_MUST_CHECK;

/* With rp_opts.tree: makes process PID the one rp_read_mem, rp_get_image,
 * the breakpoint and watchpoint calls and symbol lookups are about.
 * Returns 0; 1 when that process does not exist at the current position
 * (it was forked before and ended, or is forked later: its breakpoints and
 * watchpoints can be set, rp_read_mem fails); RW_ENOTFOUND when the
 * replay has not met process PID; or RW_EINVAL without rp_opts.tree for a
 * process other than the debugger's. The view stays as it was on errors. */
int rp_set_view(rp_replay *rp, u32 pid);
/* The process those calls are about (the debugger's by default). */
u32 rp_view_pid(const rp_replay *rp);
/* The process of thread TID (listed by rp_threads), or the viewed one. */
u32 rp_thread_pid(rp_replay *rp, u32 tid);

/* The name of the function holding ADDR in the process of the current
 * position (the thread that ran last) and the offset into it, from the
 * symbol tables of the ELF files in the trace; returns 0 and writes
 * "name+0x12" to DST (CAP bytes), or RW_ENOTFOUND. */
int rp_symbolize(rp_replay *rp, u64 addr, char *dst, size_t cap)
    RW_MUST_CHECK;

/* ---- Reverse execution and the debugger's accessors ------------------ */

/* Moves one instruction back (a seek to icount - 1). When a watchpoint is
 * set and the instruction stepped back over touched it, STOP says
 * RP_STOP_WATCHPOINT (addr, watch_size, watch_kind). At icount 0 nothing
 * moves and STOP says RP_STOP_BEGIN. Returns 0 or a negative code. */
int rp_reverse_step(rp_replay *rp, struct rp_stop *stop) RW_MUST_CHECK;

/* Runs backwards to the last breakpoint hit or watchpoint trigger strictly
 * before the current position: a breakpoint stops at the position where its
 * address is about to execute, a watchpoint before the instruction that
 * made the access (stop->icount is that position). Without any, it stops at
 * icount 0 with RP_STOP_BEGIN. RP_STOP_INTERRUPTED when the poll function
 * asked to stop (the position is then somewhere before the start). Returns
 * 0 or a negative code. */
int rp_reverse_continue(rp_replay *rp, struct rp_stop *stop) RW_MUST_CHECK;

/* How many keyframe intervals reverse continues re-ran so far (*SCANNED),
 * and how many they passed by because only write watchpoints were set and
 * the keyframes show their ranges untouched there (*SKIPPED: the write
 * index, rp_opts.no_write_index). Of those re-run, *HELPED were re-run by
 * the helper process of a long reverse continue (rp_opts.no_helper); HELPED
 * may be NULL. */
void rp_reverse_stats(const rp_replay *rp, u64 *scanned, u64 *skipped,
                      u64 *helped);

/* Sets POLL (NULL to remove), called with CTX (borrowed) every few million
 * instructions of rp_run and rp_reverse_continue; when it returns nonzero
 * the run stops with RP_STOP_INTERRUPTED. */
void rp_set_poll(rp_replay *rp, int (*poll)(void *ctx), void *ctx);

/* Diversions (replayer/divert.c): the debugger's what-ifs, gdb's calls
 * (call f(x), print f(x)) and set var, made on the state at the current
 * position. The first rp_divert_write_mem or rp_divert_set_regs keeps that
 * state and begins one: memory of the debugger's process and registers of
 * thread TID change as asked. rp_divert_run runs thread TID from there,
 * alone and off the record: nothing of the trace is read, a syscall
 * returns -ENOSYS (counted in OUT), a breakpoint, a watchpoint, a fault or
 * the poll function (rp_set_poll) stops it, and with STEP one instruction
 * does. rp_divert_end puts the kept state back exactly, so the replay goes
 * on as recorded (0 when there was no diversion). rp_divert_clean: 1 when
 * every thread whose registers were set has its general registers, rip
 * and rflags back as they were (gdb restores them after a call). The
 * replay must not move (rp_run, rp_seek...) during a diversion. */
enum rp_divert_reason {
  RP_DIV_STEP = 1,     /* the one instruction of a step ran */
  RP_DIV_BREAKPOINT,   /* at a breakpoint (ADDR), not run */
  RP_DIV_WATCHPOINT,   /* an instruction touched a watched range */
  RP_DIV_SIGNAL,       /* a fault, or an instruction a diversion cannot
                          run (MSG says which): SIGNO */
  RP_DIV_INTERRUPTED   /* the poll function asked to stop, or 2^33
                          instructions ran (MSG says so) */
};
struct rp_divert_stop {
  int reason;          /* enum rp_divert_reason */
  int signo;           /* RP_DIV_SIGNAL */
  int si_code;         /* RP_DIV_SIGNAL: the kernel's si_code for it, or
                          0 when not known */
  u64 addr;            /* breakpoint, watched access or faulting address */
  u32 watch_size;      /* RP_DIV_WATCHPOINT */
  int watch_kind;      /* 1 read, 2 write */
  u64 syscalls;        /* syscalls that returned -ENOSYS */
  u32 last_sys;        /* the number of the last of them */
  char msg[200];       /* what could not run, or why it stopped, or "" */
};
int rp_diverted(const rp_replay *rp);
int rp_divert_write_mem(rp_replay *rp, u64 addr, const void *src, size_t len)
    RW_MUST_CHECK;
int rp_divert_set_regs(rp_replay *rp, u32 tid, const struct rw_regs *regs)
    RW_MUST_CHECK;
int rp_divert_run(rp_replay *rp, u32 tid, int step,
                  struct rp_divert_stop *out) RW_MUST_CHECK;
int rp_divert_clean(rp_replay *rp);
int rp_divert_end(rp_replay *rp) RW_MUST_CHECK;
/* The siginfo (Linux x86-64 layout, 128 bytes, into OUT) of the fault that
 * thread TID's next instruction raises, when it raises SIGNO: a program
 * killed by a fault stands at it at the end of its history, and the trace
 * keeps only the signal. The instruction is run in a diversion of its
 * own, then undone. Returns 0, RW_ENOTFOUND when it raises no such fault
 * (or one whose details the emulator does not know), or another negative
 * code; RW_EINVAL during a diversion. */
int rp_fault_siginfo(rp_replay *rp, u32 tid, int signo, u8 out[128])
    RW_MUST_CHECK;

/* With ON, rp_run and rp_step_thread also stop where the debugger's
 * process runs a program it has just exec'd (RP_STOP_EXEC, at that
 * program's first instruction), so that a debugger can load it. Off by
 * default. */
void rp_set_exec_stops(rp_replay *rp, int on);
/* With ON (and rp_opts.tree), rp_run and rp_step_thread also stop after
 * a process forked a recorded child, before either runs again
 * (RP_STOP_FORK), so that a debugger can add the child before it runs.
 * Off by default. */
void rp_set_proc_stops(rp_replay *rp, int on);

/* Most syscall numbers rp_set_syscall_stops takes (0 .. RP_SYSCALL_MAX-1). */
#define RP_SYSCALL_MAX 1024u

/* With ON, rp_run and rp_reverse_continue also stop where a thread of the
 * debugger's processes enters, and where it returns from, a syscall whose
 * number is one of the N in NRS (borrowed), or any syscall when N is 0
 * (RP_STOP_SYSCALL). Going backwards the return comes first. Single steps
 * do not stop there, as a stepped syscall instruction does not stop a
 * native debugger either. OFF removes them all. Returns 0, or RW_EINVAL
 * for a number of RP_SYSCALL_MAX or more (nothing changes then). */
/* With ON, rp_run and rp_reverse_continue also stop where a signal is
 * about to be delivered to a thread of the debugger's processes (its
 * handler to be entered, or its default action taken), unless PASS has
 * its bit (bit N-1 for signal N): RP_STOP_SIGNAL; so do single steps of
 * rp_step_thread that meet one. A run from that stop delivers it. OFF
 * removes them. */
void rp_set_signal_stops(rp_replay *rp, int on, u64 pass);
/* At a signal stop (RP_STOP_SIGNAL, the replay not moved since), the
 * siginfo the recording has for the signal about to be delivered to
 * thread TID (Linux x86-64 layout, 128 bytes, into OUT; what the kernel
 * gave beyond what the recording kept is zero). Returns 0, or RW_ENOTFOUND
 * when no signal of TID is about to be delivered here. */
int rp_signal_siginfo(rp_replay *rp, u32 tid, u8 out[128]) RW_MUST_CHECK;

/* Rep stops: with MODE RP_REP_START, rp_run and rp_reverse_continue also
 * stop where a rep-prefixed string instruction of the debugger's
 * processes is about to start (its first iteration; not where one paused
 * part way resumes), with RP_REP_END where one has ended (after its last
 * iteration, whether its count ran out or its condition ended it; not in
 * a fault): RP_STOP_REP. 0 removes them. Single steps do not stop there.
 * Returns 0, or RW_EINVAL for another MODE. */
enum { RP_REP_START = 1, RP_REP_END = 2 };
int rp_set_rep_stops(rp_replay *rp, int mode) RW_MUST_CHECK;
/* The rep stops set (0, RP_REP_START or RP_REP_END). */
int rp_rep_stops(const rp_replay *rp);
int rp_set_syscall_stops(rp_replay *rp, int on, const u32 *nrs, size_t n)
    RW_MUST_CHECK;

/* Receives the LEN bytes at BUF (borrowed) that a recorded process wrote
 * to its file descriptor FD, 1 (standard output) or 2 (standard error). */
typedef void (*rp_echo_fn)(void *ctx, int fd, const void *buf, size_t len);

/* From now on, the bytes every recorded process writes to its descriptors
 * 1 and 2 (write, pwrite64, writev, pwritev, pwritev2, as many as the
 * syscall returned) go to ECHO with CTX, in the order of the recording,
 * the first time the replay runs forwards past each write: going back and
 * forwards again does not repeat them, and writes before the current
 * position are never shown. ECHO NULL turns it off. */
void rp_set_echo(rp_replay *rp, rp_echo_fn echo, void *ctx);

/* The program image at the current position. Pointers are owned by RP and
 * valid until rp_close. Plain data. */
struct rp_image {
  u64 seq;           /* its EXEC record: two images are the same program
                        image when their seq and pid are */
  u32 pid;           /* the process id in the recording */
  const char *path;  /* the executable as exec'd (absolute when recorded) */
  const u8 *auxv;    /* the auxiliary vector the program saw, or NULL */
  size_t auxv_len;   /* its bytes */
  int first;         /* 1: the first image of the process the recording
                        began with, the one the trace's cmdline and
                        environ metadata describe */
};
/* Fills IMG. Returns 0, or RW_ENOTFOUND before the first program image. */
int rp_get_image(rp_replay *rp, struct rp_image *img) RW_MUST_CHECK;

/* A file embedded in the trace (a blob). Plain data. */
struct rp_file {
  u8 hash[32];  /* the blob */
  u64 size;     /* its bytes */
};
/* Finds the file recorded under PATH (borrowed): a path the program mapped
 * or a blob's name; failing that, a file with the same last component (so
 * "/lib64/ld-linux-x86-64.so.2" finds the loader mapped through its real
 * path), then a versioned file of that soname ("libasan.so.8" finds
 * "libasan.so.8.0.0"). Fills F. Returns 0 or RW_ENOTFOUND. */
int rp_file_find(rp_replay *rp, const char *path, struct rp_file *f)
    RW_MUST_CHECK;
/* Copies up to CAP bytes of F (borrowed) from OFF into DST (caller-owned).
 * Returns the number copied (0 at the end) or a negative code. */
i64 rp_file_read(rp_replay *rp, const struct rp_file *f, u64 off, void *dst,
                 size_t cap) RW_MUST_CHECK;

/* The program's mappings at the current position as /proc/PID/maps shows
 * them (device and inode 0; the kernel's [vvar] and [vsyscall] pages, not
 * in the replay, left out) into *OUT, malloc'd and owned by the caller,
 * *LEN its length. Returns 0 or RW_ENOMEM. */
int rp_maps_text(rp_replay *rp, char **out, size_t *len) RW_MUST_CHECK;

/* Statistics for the end-of-replay line. Plain data. */
struct rp_stats {
  u64 instructions; /* executed, all threads, including re-execution */
  u64 events;       /* records applied */
  u64 keyframe_events; /* of them, the state of the recorder keyframe the
                          history begins at (rp_opts.start_keyframe) */
  u64 checks;       /* register checks passed */
  u64 outputs;      /* checksums of bytes sent out that matched */
  u64 digests;      /* memory digests of processes as they ended (other
                       than the first) that matched */
  int end_checked;  /* 1: the memory at the end matched the recording */
  u64 keyframes;    /* keyframes held now */
  u64 keyframe_bytes; /* host memory they hold */
  u64 index_loaded;   /* keyframes loaded from the trace's index */
};
void rp_get_stats(const rp_replay *rp, struct rp_stats *st);

/* Recorder keyframes (rewind record --keyframes; replayer/segment.c).
 * rp_recorder_keyframes: the sequence number each one is valid at, in
 * order, in *SEQS (malloc'd; the caller frees it), with CLOCKS (may be
 * NULL) the recorder's monotonic clock (ns) when it wrote each in *CLOCKS
 * (the same), their number in *N, the trace's first record's in *FIRST
 * (may be NULL).
 * rp_state_compare: whether replay A stands where B does (the same
 * threads with the same registers, the same mappings and bytes of the
 * first process, the dead part of each stack left out): 0 the same, 1
 * not (WHY says where), or a negative code. rp_verify_segment: replays the
 * piece of the recording from keyframe K (0: the beginning) to keyframe
 * END (N + 1: the end) of the trace at PATH and checks that it passes
 * each keyframe from K + 1 to END where the keyframe says (the replay goes
 * on from its own state after each, as one from the start would); a
 * divergence's report goes to OUT->report. It reads blobs without hashing
 * them, then hashes share PART of PARTS of the trace's blobs
 * (rp_check_blobs_part): the pieces of one trace, each with its own
 * share, hash each blob once. Returns 0 with OUT filled, whatever the
 * verdict. */
int rp_recorder_keyframes(const char *path, u64 **seqs, u64 **clocks,
                          size_t *n, u64 *first, struct rw_diag *diag)
    RW_MUST_CHECK;
int rp_state_compare(rp_replay *a, rp_replay *b, char *why, size_t cap)
    RW_MUST_CHECK;
enum rp_segment_status {
  RP_SEG_OK = 0,
  RP_SEG_DIVERGED, /* the replay diverged, or ended off the keyframe */
  RP_SEG_FAILED,   /* it could not go on (damage, an instruction) */
  RP_SEG_ERROR     /* it could not be opened or run */
};
/* One segment's verdict. Plain data. */
struct rp_segment {
  u32 index;
  int status;           /* enum rp_segment_status */
  int damaged;          /* RP_SEG_FAILED: the trace is damaged there */
  u64 instructions, events, checks, outputs, digests;
  double secs;
  int finished;         /* the last: the recording's end was reached */
  int end_checked;      /* the last: its memory at the end matched */
  struct rp_stop end;   /* the last: how the history ended */
  u32 last;             /* the interval it stopped in (from keyframe LAST
                           to LAST + 1) */
  int blobs_bad;        /* a blob of its share does not match its hash: */
  u64 blob_offset;      /* where the trace holds it, */
  char blob_msg[300];   /* and which */
  char msg[600];
  char report[16384];   /* a divergence's report (rp_report), cut short */
};
int rp_verify_segment(const char *path, u32 k, u32 end, const u64 *seqs,
                      size_t n, size_t part, size_t parts,
                      struct rp_segment *out) RW_MUST_CHECK;
/* Hashes share PART of PARTS of the blobs of RP's trace as
 * rp_verify_segment does; OUT->blobs_bad and what follows it say which
 * one does not match. */
void rp_segment_blobs(rp_replay *rp, size_t part, size_t parts,
                      struct rp_segment *out);
/* When STOP (of RP's run) says the replay diverged or failed, fills OUT's
 * status, damaged, msg and report as rp_verify_segment does and returns
 * 1; else returns 0. */
int rp_segment_stopped(rp_replay *rp, const struct rp_stop *stop,
                       struct rp_segment *out);
/* Whether the replay A of piece K (of N + 1, SEQS) of the trace at PATH,
 * run to its end, stands where keyframe K + 1 begins, as rp_verify_segment
 * checks: when not, OUT's status and msg say so (nothing for the last
 * piece). */
void rp_segment_end(rp_replay *a, const char *path, u32 k, const u64 *seqs,
                    size_t n, struct rp_segment *out);
/* Opens the piece of the recording at PATH that rp_verify_segment(K)
 * replays, with O's other options (borrowed), into *OUT. Returns 0 or a
 * negative code (DIAG says why). */
int rp_open_segment(const char *path, u32 k, const u64 *seqs, size_t n,
                    const struct rp_opts *o, rp_replay **out,
                    struct rw_diag *diag) RW_MUST_CHECK;

/* rewind trim (replayer/trim.c): the window [FROM, TO) of the history,
 * in global instruction counts, written to the trace OUT as a history of
 * its own that begins in the running process (as `rewind record -p`
 * writes one) and ends with a DETACH, or with the history's own end when
 * TO is past it. SRC_NAME names the source in the new trace's metadata.
 * Plain data. */
struct rp_trim_opts {
  u64 from, to;
  const char *out;      /* borrowed */
  const char *src_name; /* borrowed */
  int overwrite;        /* 1: replace an existing OUT */
};
/* What rp_trim wrote. Plain data. */
struct rp_trim_stats {
  u64 from, to;             /* the window as written (TO: where the
                               history ended, when it ended first) */
  u64 from_event, to_event; /* records consumed there */
  u64 records;              /* records of the window copied */
  u64 mem_bytes;            /* bytes of MEM that describe the memory at
                               the start */
  size_t procs, threads;    /* processes and threads at the start */
  size_t in_syscall;        /* of them, inside a syscall */
  size_t blobs;             /* file contents copied */
  int to_end;               /* the window runs to the end of the history */
};
/* Runs RP (opened with whole, at its start) to O->from and writes the
 * window. Returns 0, or a negative code with DIAG saying why: the replay
 * diverged or failed before the window's end, the window cannot start
 * there (another process alive, the process ended), OUT cannot be
 * written. A failed trim leaves no OUT. */
int rp_trim(rp_replay *rp, const struct rp_trim_opts *o,
            struct rp_trim_stats *st, struct rw_diag *diag) RW_MUST_CHECK;

/* rewind index (replayer/index.c): the replay's keyframes saved next to
 * the trace, from which later replays of it start anywhere at once
 * (rp_seek and everything built on it use them). Plain data. */
struct rp_index_opts {
  const char *out;  /* the index file (TRACE.idx is the one rp_open uses);
                       borrowed */
  u64 interval;     /* instructions between keyframes; 0: 25 million */
  int overwrite;    /* 1: replace an existing OUT */
};
struct rp_index_stats {
  u64 keyframes;    /* written */
  u64 pages;        /* distinct memory pages written */
  u64 state_bytes;  /* bytes of the keyframes but their pages */
  u64 end;          /* the instruction count of the history's end */
};
/* Replays RP (just opened, with whole) to the end of its history and
 * writes a keyframe of everything every O->interval instructions to
 * O->out. Returns 0, or a negative code with DIAG saying why (the replay
 * diverged or failed, OUT cannot be written); a failed index leaves no
 * OUT. */
int rp_index_write(rp_replay *rp, const struct rp_index_opts *o,
                   struct rp_index_stats *st, struct rw_diag *diag)
    RW_MUST_CHECK;
/* Whether the index of the trace at TRACE (borrowed), TRACE.idx, is one a
 * replay of it uses: 1 (its state keyframes in *KEYFRAMES), 0 when not
 * (why in WHY, caller-owned, CAP bytes), -1 when there is none. */
int rp_index_check(const char *trace, size_t *keyframes, char *why,
                   size_t cap);
/* 1 when RP uses a persistent index (its keyframes in *KEYFRAMES, which
 * may be NULL), 0 when it has none or cannot use the one it has. */
int rp_index_state(const rp_replay *rp, size_t *keyframes);

/* XCR0 as on the recording machine: the state components its kernel
 * enabled (cpuid leaf 0xD subleaf 0), at least 3 (x87 and SSE). The gdb
 * stub describes the registers of these components. */
u64 rp_xcr0(const rp_replay *rp);

/* Copies the trace's metadata value KEY (TRACE_META_*) into DST (CAP
 * bytes, NUL-terminated; cut short when longer) and returns how many bytes
 * of it were copied, or returns RW_ENOTFOUND. */
int rp_meta(const rp_replay *rp, const char *key, char *dst, size_t cap);

/* What the trace reader found when it opened the trace: whether it was
 * closed, damaged and where (struct trace_info). */
struct trace_info;
void rp_trace_info(const rp_replay *rp, struct trace_info *info);

/* Checks the content of every file the trace holds against its hash (those
 * the replay read are checked already). Returns 0, or a negative code with
 * DIAG (may be NULL) naming the first that does not match. */
int rp_check_blobs(rp_replay *rp, struct rw_diag *diag) RW_MUST_CHECK;
/* The same for share PART of PARTS of them (blob I when I % PARTS is
 * PART), whatever rp_opts.defer_blob_hash says. */
int rp_check_blobs_part(rp_replay *rp, size_t part, size_t parts,
                        struct rw_diag *diag) RW_MUST_CHECK;

/* ---- Memory history (replayer/history.c) ------------------------------ */

/* One access to memory. Plain data. */
struct rp_access {
  int found;          /* 0: there is none (the others are not set) */
  int broken;         /* the search stopped at a divergence or failure */
  u64 icount, event;  /* the position just before it (for rp_seek) */
  u64 after_icount, after_event; /* and just after it */
  u32 tid;            /* the thread that made it (its syscall, when the
                         kernel wrote) */
  u64 rip;            /* that thread's rip before it: the instruction, or
                         the syscall */
  int kind;           /* 1 read, 2 write */
  int by_kernel;      /* a write by the kernel (a syscall's output, a
                         signal frame), not by an instruction */
  u64 addr;           /* the range asked about */
  u32 size;           /* its bytes shown below: at most 16 */
  u64 access_addr;    /* what the access touched: its first byte in the
                         range, and how many from there */
  u32 access_size;
  int before_ok, after_ok; /* the values below could be read */
  u8 before[16], after[16];
  char insn[160];     /* the instruction at rip, disassembled with its
                         symbol; for the kernel's writes, rip and its
                         symbol */
};

/* Finds the previous (BACKWARDS) or next access of KIND (1 read, 2 write)
 * to [ADDR, ADDR+LEN) in the debugger's process, as a watchpoint there
 * would, into *A (A->found 0 when there is none), and comes back to the
 * current position. The user's breakpoints, watchpoints and syscall stops
 * do not stop the search. Returns 0 or a negative code. */
int rp_access_find(rp_replay *rp, int backwards, int kind, u64 addr,
                   u64 len, struct rp_access *a) RW_MUST_CHECK;

/* Runs from here to the end of the history and calls EACH with CTX for
 * every write to [ADDR, ADDR+LEN) in the debugger's process, instructions'
 * and the kernel's; EACH returns 0 to go on, 1 to stop, or a negative
 * code. STOP says where the run ended. Returns 0 or a negative code. */
int rp_writes_each(rp_replay *rp, u64 addr, u64 len,
                   int (*each)(void *ctx, const struct rp_access *a),
                   void *ctx, struct rp_stop *stop) RW_MUST_CHECK;

/* ---- Profiles (replayer/profile.c) ------------------------------------ */

/* Where the instructions of a history went, by function: built from a
 * shadow call stack per thread, kept from the calls and returns the
 * emulator observes (no frame pointers, unwind tables or debug info
 * needed). */
typedef struct rp_profile rp_profile;

/* Runs RP from where it is to the end of its history (or until it cannot
 * go on) with every thread's calls and returns observed (TID not 0: thread
 * TID's alone), and builds the profile of that stretch into *OUT (owned by
 * the caller: rp_profile_free). STOP says where the run ended
 * (RP_STOP_END, or why not). Returns 0, RW_ENOTFOUND when no thread TID
 * ran in that stretch, or a negative code (*OUT is then NULL). */
int rp_profile_run(rp_replay *rp, u32 tid, rp_profile **out,
                   struct rp_stop *stop) RW_MUST_CHECK;
void rp_profile_free(rp_profile *p);

/* Profiles of pieces of one history added up (replayer/prof_tree.c;
 * rewind analyze profile -j). rp_profile_piece_run runs RP, opened at a
 * keyframe (rp_open_segment), as rp_profile_run does, and keeps, of each
 * thread that was there already, what it did to the frames below its
 * own; rp_profile_tree_save writes that profile to F. rp_profile_tree_empty
 * makes a total (of thread TID alone when not 0), rp_profile_tree_add
 * reads one saved piece (written by this process or one it forked) into
 * it, in the history's order, and rp_profile_tree_done ends the frames
 * still open at the end: the total is then the whole replay's profile.
 * Return 0 or a negative code (RW_ECORRUPT, RW_ETRUNC: a bad file;
 * RW_ERR(ENOTSUP) from rp_profile_tree_add: the piece met a return address
 * that is not at a multiple of 8, where the join is not sure to be exact:
 * replay the history whole instead). */
int rp_profile_piece_run(rp_replay *rp, u32 tid, rp_profile **out,
                         struct rp_stop *stop) RW_MUST_CHECK;
int rp_profile_tree_save(const rp_profile *p, FILE *f) RW_MUST_CHECK;
int rp_profile_tree_empty(u32 tid, rp_profile **out) RW_MUST_CHECK;
int rp_profile_tree_add(rp_profile *p, FILE *f) RW_MUST_CHECK;
int rp_profile_tree_done(rp_profile *p) RW_MUST_CHECK;

/* Instructions in the profile (every thread's), calls observed, threads. */
void rp_profile_totals(const rp_profile *p, u64 *instructions, u64 *calls,
                       u32 *threads);

/* One call of the call history (rp_calls_run). Plain data; the strings
 * belong to the list. */
struct rp_call {
  u64 start;         /* global position of its first instruction */
  u64 end;           /* global position after its ret (or after the
                        instruction that left it: a longjmp's, an
                        exception's; the end of the history) */
  u32 tid;           /* the thread that made it */
  int returned;      /* 1: its ret ended it, RET is its result */
  u64 args[6];       /* rdi, rsi, rdx, rcx, r8, r9 at the call */
  u64 ret;           /* rax after its ret */
  const char *fn;    /* the function called, and its file */
  const char *object;
  const char *caller; /* the function that called it */
};
typedef struct rp_calls rp_calls;

/* Runs RP from where it is to the end of its history, as rp_profile_run
 * does, and keeps every call of function FN (NULL: every function) made
 * by thread TID (0: every thread), ordered by start, at most MAX of them
 * (0: no limit; the others are counted). Returns 0 with *OUT owned by the
 * caller (rp_calls_free), or a negative code. */
int rp_calls_run(rp_replay *rp, const char *fn, u32 tid, size_t max,
                 rp_calls **out, struct rp_stop *stop) RW_MUST_CHECK;
/* The same over the whole history, for a debugger: from the start of the
 * history to its end (TICK, when not NULL, called with CTX between slices
 * of a fraction of a second), then back to the current position. */
int rp_calls_whole(rp_replay *rp, const char *fn, size_t max,
                   void (*tick)(void *ctx), void *ctx, rp_calls **out)
    RW_MUST_CHECK;
/* The call history in pieces (rewind analyze calls -j), as the profile's
 * (rp_profile_piece_run): rp_calls_piece_run runs a piece, whose profile
 * rp_profile_tree_save writes; rp_calls_total makes the total (FN, TID
 * and MAX as for rp_calls_run; FN borrowed until rp_calls_done),
 * rp_calls_add adds a saved piece in the history's order, and
 * rp_calls_done ends the frames still open at the end and makes the list.
 * Return 0 or a negative code. */
int rp_calls_piece_run(rp_replay *rp, const char *fn, u32 tid,
                       rp_profile **out, struct rp_stop *stop) RW_MUST_CHECK;
int rp_calls_total(const char *fn, u32 tid, size_t max, rp_calls **out)
    RW_MUST_CHECK;
int rp_calls_add(rp_calls *c, FILE *f) RW_MUST_CHECK;
int rp_calls_done(rp_calls *c) RW_MUST_CHECK;
/* How many calls were kept (and in *DROPPED, may be NULL, how many more
 * there were past MAX); the I-th, or NULL. */
size_t rp_calls_count(const rp_calls *c, u64 *dropped);
const struct rp_call *rp_calls_get(const rp_calls *c, size_t i);
void rp_calls_free(rp_calls *c);

/* The shadow call stack of thread TID (0: the current thread) at the
 * current position, as text into *OUT (owned by the caller: free): one
 * line per frame, innermost first, with its function, the instruction
 * count where it was entered and where it returns to. It is built by
 * re-running the history from its start to here with the calls and
 * returns observed (TICK, when not NULL, is called with CTX between
 * slices of that run, a fraction of a second each); the replay ends up
 * where it was. Returns 0, RW_ENOTFOUND when TID does not run here, or a
 * negative code (the replay may then be elsewhere). */
int rp_shadow_text(rp_replay *rp, u32 tid, void (*tick)(void *ctx),
                   void *ctx, char **out) RW_MUST_CHECK;

/* The call stack of thread TID (0: the current thread, the only one it
 * can unwind) at the current position as libunwind unwinds it, from the
 * registers and memory of the replay and the unwind tables (.eh_frame_hdr)
 * of the ELF files the process mapped, as text into *OUT (owned by the
 * caller: free): one line per frame, innermost first, with its address
 * and function, and a last line saying why unwinding stopped when it did
 * not reach the outermost frame. Needs no re-run. Returns 0, RW_ENOTFOUND
 * when TID does not run here, RW_EINVAL for another thread, or RW_ENOMEM. */
int rp_unwind_text(rp_replay *rp, u32 tid, char **out) RW_MUST_CHECK;

/* Runs RP to the end of its history, as rp_profile_run does, also counting
 * every conditional and indirect branch: how often each ran and was taken
 * (and where each indirect one went). */
int rp_edges_run(rp_replay *rp, rp_profile **out, struct rp_stop *stop)
    RW_MUST_CHECK;
/* Writes the branches of a profile from rp_edges_run, the TOP (0: all)
 * executed most first, as a table or (JSON) one object per line. Returns
 * 0 or RW_ERR(errno) of a failed write. */
int rp_profile_edges(const rp_profile *p, FILE *out, size_t top, int json)
    RW_MUST_CHECK;
/* Branches executed and branch sites in it. */
void rp_edges_totals(const rp_profile *p, u64 *executed, size_t *sites);

/* How rp_edges_run samples, as branch-trace hardware would: every PERIOD
 * taken branches of a thread, plus a random offset below DELTA (0: none;
 * at most PERIOD) drawn from SEED, it takes that thread's last RING (1 ..
 * RP_RING_MAX) taken branches and rebuilds the branches between them.
 * Plain data. */
struct rp_sample_opts {
  u64 period, delta, seed;
  u32 ring;
};
/* rp_edges_run with sampling as O (borrowed) says, beside the exact
 * counts: each sample's rebuilt branch sequence is checked against the
 * true one and counted into a sampled edge profile. RW_EINVAL for bad
 * options. */
int rp_edges_sampled_run(rp_replay *rp, const struct rp_sample_opts *o,
                         rp_profile **out, struct rp_stop *stop)
    RW_MUST_CHECK;
/* Writes what the samples of a profile from rp_edges_sampled_run gave:
 * how many, how many rebuilt sequences equal the true ones, and the
 * sampled shares of the TOP (0: all) most executed edges (a branch taken,
 * a branch not taken) against the exact ones, with the largest relative
 * error and a chi-square; as text or (JSON) one object per line. Returns
 * 0, RW_EINVAL when the profile was not sampled, RW_ENOMEM or the write
 * error. */
int rp_profile_sampled(const rp_profile *p, FILE *out, size_t top, int json)
    RW_MUST_CHECK;

/* Replays the rest of RP's history (as rp_profile_run) and counts every
 * rep-prefixed string instruction of every thread, per instruction: its
 * executions, the iterations asked for (rcx at the first) and done, the
 * fewest and most in one execution, and how many ended early (their
 * condition, repe or repne), in a fault, or at a signal. *OUT (free with
 * rp_profile_free) is set on success. */
int rp_reps_run(rp_replay *rp, rp_profile **out, struct rp_stop *stop)
    RW_MUST_CHECK;
/* Writes the rep instructions of a profile from rp_reps_run, the TOP (0:
 * all) with the most iterations first: a table after a line of totals,
 * or with JSON one object per instruction and line. One instruction of a
 * file (a library's, a program's) run by several processes is one line,
 * their counts added. Returns 0, RW_ENOMEM or the write error. */
int rp_profile_reps(const rp_profile *p, FILE *out, size_t top, int json)
    RW_MUST_CHECK;
/* rp_reps_run over the whole history, from a debugger at any position
 * (monitor rep): replays from the start to the end, calling TICK (may be
 * NULL) with CTX between slices, and comes back to the position. */
int rp_reps_whole(rp_replay *rp, void (*tick)(void *ctx), void *ctx,
                  rp_profile **out) RW_MUST_CHECK;

/* Edge and rep profiles of pieces of one history added up (replayer/
 * prof_merge.c; rewind analyze -j): rp_profile_empty makes an empty one
 * (REPS: a rep list, else an edge profile); rp_profile_save writes a
 * profile from rp_edges_run or rp_reps_run to F, and rp_profile_add
 * reads one such file written by this process or one it forked and adds
 * its counts to P, as if P's replay had gone on through it. Return 0 or
 * a negative code (RW_ECORRUPT, RW_ETRUNC: not such a file). */
int rp_profile_empty(int reps, rp_profile **out) RW_MUST_CHECK;
int rp_profile_save(const rp_profile *p, FILE *f) RW_MUST_CHECK;
int rp_profile_add(rp_profile *p, FILE *f) RW_MUST_CHECK;

/* ---- Instruction counts (replayer/counts.c) ---------------------------- */

/* Kinds of instruction counts can be limited to. */
enum {
  RP_COUNT_BRANCH = 1, /* jumps: conditional (jcc, loop, jrcxz) or not */
  RP_COUNT_CALL = 2,
  RP_COUNT_RET = 4,
  RP_COUNT_REP = 8,    /* rep-prefixed string instructions */
  RP_COUNT_MEM = 16    /* with a memory operand (not lea, nop) or the stack
                          (push, pop, call, ret, enter, leave) */
};

/* A mark: instructions whose every execution rp_counts_run follows (count,
 * and inside counting windows), with the call path it ran on (STACK, or
 * every EVERY executions), or that opens (START) or closes (END) a
 * thread's counting window. Where: function FUNCTION's bytes [ADDR,
 * ADDR+LEN) from its start; or file OBJECT's (its base name) ELF virtual
 * addresses [ADDR, ADDR+LEN), as nm shows them; or, with neither, the
 * addresses [ADDR, ADDR+LEN). Plain data; the strings are borrowed. */
enum { RP_MARK_STACK = 1, RP_MARK_START = 2, RP_MARK_END = 4, RP_MARK_STOP = 8 };
struct rp_mark {
  const char *function, *object;
  u64 addr, len;
  u32 flags;
  u64 every;
  const char *text; /* as the user wrote it, for the report */
};

/* Parses SPEC into *M: WHERE[:FLAG,...], WHERE an address 0xADDR[+LEN], a
 * function FUNCTION[+OFF] (the instruction at OFF, default 0: its entry)
 * or FILE@VADDR[+LEN], FLAG count, stack, every=N, start or end. M's
 * strings are in one allocation, M->text (free it). Returns 0, or
 * RW_EINVAL with why in ERR (CAP bytes), or RW_ENOMEM. */
int rp_mark_parse(const char *spec, struct rp_mark *m, char *err, size_t cap)
    RW_MUST_CHECK;
/* Where mark M is in the debugger's process at the current position: its
 * addresses [*LO, *HI). FUNCTION[+OFF] by the symbol tables of the files
 * mapped there (the first file that has it), FILE@VADDR by that file's
 * mapping, 0xADDR as it is. Returns 0, or RW_ENOTFOUND when no file
 * mapped there has it. */
int rp_mark_where(rp_replay *rp, const struct rp_mark *m, u64 *lo, u64 *hi)
    RW_MUST_CHECK;
/* Parses one line of a marks file, "FILE VADDR LEN [FLAGS]" (FILE "-":
 * VADDR is an address), the same way; *M zeroed for a blank line or a
 * comment (#). */
int rp_mark_parse_line(const char *line, struct rp_mark *m, char *err,
                       size_t cap) RW_MUST_CHECK;

/* What rp_counts_write shows. Plain data; the strings are borrowed. */
struct rp_count_opts {
  const char *function; /* only this function's instructions (its name as
                           rp__fn_name gives it), or NULL */
  const char *object;   /* only this file's (its base name), or NULL */
  u64 lo, hi;           /* only addresses in [LO, HI), when HI > LO */
  const char *src_file; /* only the code of source lines LINE_LO to LINE_HI
                           of this file (rp_src_matches), or NULL */
  u32 line_lo, line_hi;
  u32 kinds;            /* only instructions of these RP_COUNT_* (0: all) */
  int opcode;           /* 1: only those whose opcode (see rewind-analyze(1))
                           ANDed with OPMASK is OPVAL */
  u32 opval, opmask;
  u32 tid;              /* only this thread's executions (0: all) */
  const struct rp_mark *marks; /* NMARKS marks to follow (borrowed) */
  size_t nmarks;
  int marks_only;       /* 1: only rp_counts_marks will be asked for: the
                           instructions' source lines are not looked up */
  int piece;            /* 1: a piece of a history (analyze counts|marks
                           -j), in which thread TID need not run */
};

typedef struct rp_counts rp_counts;

/* Whether source file PATH, as a line table names it, is the file WANT a
 * user gave: the same path, or PATH ending in "/" WANT (counts.c matches
 * /src/tests/counts.c, not /src/tests/subcounts.c). */
int rp_src_matches(const char *path, const char *want);
/* Parses ARG, FILE:N or FILE:N-M (lines from 1, M not below N), into FILE
 * (CAP bytes), *LO and *HI. Returns 0 or RW_EINVAL. */
int rp_lines_parse(const char *arg, char *file, size_t cap, u32 *lo,
                   u32 *hi) RW_MUST_CHECK;

/* Replays the rest of RP's history (as rp_profile_run) and counts how
 * often each instruction ran, exactly, for the selection O (copied).
 * Returns 0 with *OUT (rp_counts_free), RW_ENOTFOUND when thread O->tid
 * did not run, RW_EUNSUPPORTED without Capstone, or a negative code. */
int rp_counts_run(rp_replay *rp, const struct rp_count_opts *o,
                  rp_counts **out, struct rp_stop *stop) RW_MUST_CHECK;
/* The same over the whole history from any position (monitor counts):
 * from the start to the end (TICK, may be NULL, called with CTX between
 * slices), then back. */
int rp_counts_whole(rp_replay *rp, const struct rp_count_opts *o,
                    void (*tick)(void *ctx), void *ctx, rp_counts **out)
    RW_MUST_CHECK;
/* Writes the counts of the selection: a summary (instructions, how often
 * the selected code was entered, by kind, and how many instructions could
 * not be placed), then for a function every instruction of it in address
 * order with its count and disassembly, else the TOP (0: all) most run
 * ones; as text, or JSON lines (the summary, then one object per
 * instruction). Returns 0, RW_ENOMEM or RW_ERR(errno) of the write. */
int rp_counts_write(const rp_counts *c, FILE *out, size_t top, int json)
    RW_MUST_CHECK;
/* Instructions of the selection, of the whole run, and of those how many
 * could not be placed (their code changed or could not be read). */
void rp_counts_totals(const rp_counts *c, u64 *selected, u64 *all,
                      u64 *unplaced);
/* Whether code of the source file of the selection (--lines) ran at all:
 * 0 when none did, or the file has no line table. */
int rp_counts_src_seen(const rp_counts *c);
/* Writes what the marks of a run with O->marks saw: per mark its
 * executions (and inside counting windows), the call paths it ran on with
 * their counts (with RP_MARK_STACK or EVERY), then the counting windows:
 * how many, the instructions in them (all, fewest, most, mean). As text
 * or JSON lines (one object per mark, then one for the windows). Returns
 * 0, RW_ENOMEM or the write error. */
int rp_counts_marks(const rp_counts *c, FILE *out, int json) RW_MUST_CHECK;
/* The pieces of rewind analyze counts|marks -j (marks without the flags
 * stack and every=N, which need every thread's call stack and every
 * execution before): rp_counts_save
 * writes C's counts to F; rp_counts_add adds those F holds to *TOTAL
 * (made with O at the first: rp_counts_free), pieces in the history's
 * order, so that what rp_counts_write shows of the total is what it shows
 * of one replay from the start. Return 0, RW_ENOMEM, RW_ETRUNC or
 * RW_ECORRUPT (a file that is not a piece's), or the I/O error. */
int rp_counts_save(const rp_counts *c, FILE *f) RW_MUST_CHECK;
int rp_counts_add(rp_counts **total, const struct rp_count_opts *o, FILE *f)
    RW_MUST_CHECK;
void rp_counts_free(rp_counts *c);

/* ---- Data accesses (replayer/datarange.c) ----------------------------- */

/* The range rp_data_run counts: [ADDR, ADDR+LEN) in every process, by
 * granules of GRANULE bytes (a power of 2 up to 4096; 0: 8) aligned on
 * their size; only thread TID's accesses (0: every thread's). Plain
 * data. */
struct rp_data_opts {
  u64 addr, len;
  u32 granule;
  u32 tid;
  int stacks; /* also count by call path (from shadow call stacks) */
  int piece;  /* a piece of a history (analyze accesses -j), in which
                 thread TID need not run */
};
typedef struct rp_data rp_data;
/* Most granules of a range, LEN / GRANULE (24 bytes each). */
#define RP_DATA_GRANULES (1u << 20)
/* Replays the rest of RP's history and counts every access an instruction
 * makes to the range of O (copied): reads and writes per granule, the
 * unaligned ones, those crossing a cache line, by size and by
 * instruction. Returns 0 with *OUT (rp_data_free), RW_EINVAL for a bad
 * range or granule, RW_ENOTFOUND when thread O->tid did not run, or a
 * negative code. */
int rp_data_run(rp_replay *rp, const struct rp_data_opts *o, rp_data **out,
                struct rp_stop *stop) RW_MUST_CHECK;
/* The same over the whole history from any position, and back (TICK as
 * rp_counts_whole's). */
int rp_data_whole(rp_replay *rp, const struct rp_data_opts *o,
                  void (*tick)(void *ctx), void *ctx, rp_data **out)
    RW_MUST_CHECK;
/* Writes the counts: a summary, one line per granule accessed (ALL: every
 * granule), then the TOP (0: all) instructions with the most accesses,
 * and with O->stacks the TOP call paths; as text or JSON lines (the
 * summary, then objects of kind "granule", "instruction" and "path").
 * Returns 0, RW_ENOMEM or the write error. */
int rp_data_write(const rp_data *d, FILE *out, size_t top, int all,
                  int json) RW_MUST_CHECK;
void rp_data_totals(const rp_data *d, u64 *reads, u64 *writes);
/* The pieces of rewind analyze accesses -j: rp_data_save writes D's counts
 * (not by call path) to F; rp_data_add adds those F holds to *TOTAL (made
 * with O at the first: rp_data_free), instructions told apart by process
 * id and address, each named as the first piece to see it names it, as a
 * replay from the start does. Return 0, RW_ENOMEM, RW_ETRUNC or
 * RW_ECORRUPT (a file that is not a piece's), or the I/O error. */
int rp_data_save(const rp_data *d, FILE *f) RW_MUST_CHECK;
int rp_data_add(rp_data **total, const struct rp_data_opts *o, FILE *f)
    RW_MUST_CHECK;
void rp_data_free(rp_data *d);

/* Most taken branches rp_branches_text shows. */
#define RP_RING_MAX 4096
/* The last N (1 .. RP_RING_MAX) taken branches of thread TID (0: the
 * current thread) before the current position, oldest first, as text
 * into *OUT (owned by the caller: free): kind (cond, jmp, indirect, call,
 * ret), from, to. Built as rp_shadow_text builds the stack. Returns 0,
 * RW_ENOTFOUND when TID does not run here, RW_EINVAL for N, or a negative
 * code. */
int rp_branches_text(rp_replay *rp, u32 tid, size_t n,
                     void (*tick)(void *ctx), void *ctx, char **out)
    RW_MUST_CHECK;
/* The same as JSON lines, one object per taken branch: kind, from,
 * from_where, to, to_where (no heading line). */
int rp_branches_json(rp_replay *rp, u32 tid, size_t n,
                     void (*tick)(void *ctx), void *ctx, char **out)
    RW_MUST_CHECK;

/* Writes a table of the TOP functions (0: all) with the most inclusive
 * instructions (BY_EXCL: exclusive): inclusive and exclusive counts and
 * shares, calls, name and file. Returns 0 or RW_ERR(errno) of a failed
 * write. */
int rp_profile_table(const rp_profile *p, FILE *out, size_t top,
                     int by_excl) RW_MUST_CHECK;
/* Writes the table's functions (as rp_profile_table: TOP, BY_EXCL) as
 * JSON, one object per line: first the totals {"command": CMD,
 * "instructions", "calls", "threads", "thread": the one profiled or null,
 * "functions": how many there are in all}, then one {"function", "file",
 * "inclusive", "exclusive", "calls"} per function. Returns 0, RW_ENOMEM
 * or RW_ERR(errno) of a failed write. */
int rp_profile_json(const rp_profile *p, FILE *out, size_t top, int by_excl,
                    const char *cmd) RW_MUST_CHECK;
/* Writes folded stacks ("root;caller;callee COUNT", one line per call
 * path with exclusive instructions), which flame graph tools read. */
int rp_profile_folded(const rp_profile *p, FILE *out) RW_MUST_CHECK;
/* Writes the flame graph of the profile as a standalone SVG file
 * (replayer/flame.c): one box per call path, the roots at the bottom, as
 * wide as the path's inclusive instructions, with a tooltip; HEADING
 * (borrowed, may be NULL) is its first line. Boxes narrower than
 * RP_FLAME_MIN of the width are not drawn: each parent's are merged into
 * one box when that one is wide enough. Returns 0, RW_ENOMEM or
 * RW_ERR(errno) of a failed write. */
int rp_profile_svg(const rp_profile *p, FILE *out, const char *heading)
    RW_MUST_CHECK;
/* The narrowest box of a flame graph, as a share of its width. */
#define RP_FLAME_MIN 0.001
/* Writes the profile in callgrind's format (event Ir: instructions), with
 * CMD as its command, for callgrind_annotate and KCachegrind. */
int rp_profile_callgrind(const rp_profile *p, FILE *out, const char *cmd)
    RW_MUST_CHECK;

#endif /* RW_REPLAYER_REPLAYER_H */
