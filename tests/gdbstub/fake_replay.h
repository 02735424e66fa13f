/* SPDX-License-Identifier: MIT */
/* A fake replayer for the stub's third layer: the rp_* functions serve.c
 * calls, over a tiny made-up history of FAKE_END instructions run by three
 * threads of process FAKE_PID, scheduled round-robin in slices of
 * FAKE_SLICE instructions. Every instruction is 4 bytes long and writes its
 * thread's own 8-byte variable (fake_var), so breakpoints, watchpoints,
 * per-thread registers and per-thread steps can be checked against values
 * computed here; one instruction blocks like a syscall. fake_session() runs
 * gdb_serve on a list of packets. */
#ifndef RW_TESTS_GDBSTUB_FAKE_REPLAY_H
#define RW_TESTS_GDBSTUB_FAKE_REPLAY_H

#include "replayer/replayer.h"

#define FAKE_PID 0x2a
#define FAKE_END 60   /* instructions in the history */
#define FAKE_SLICE 3  /* instructions a thread runs before the next one */
#define FAKE_NTHREADS 3
/* The recording machine's XCR0: x87, SSE, AVX and AVX-512. */
#define FAKE_XCR0 0xe7
/* Instruction FAKE_BLOCK_N of the main thread is a blocking syscall: a
 * step of it lasts until the thread runs again (position 38 to 42). */
#define FAKE_BLOCK_N 21

/* A thread of the fake history: alive at positions [born, died). Plain
 * data. */
struct fake_thread {
  u32 tid;
  const char *name; /* as recorded; "" while unknown */
  u64 born, died;
};
extern const struct fake_thread fake_threads[FAKE_NTHREADS];

/* Opens a fake replay at position 0; fake_close frees it. */
rp_replay *fake_open(void);
void fake_close(rp_replay *rp);
/* Moves RP to position T (at most FAKE_END). */
void fake_goto(rp_replay *rp, u64 t);
/* Makes rp_xcr0 answer XCR0 instead of FAKE_XCR0. */
void fake_set_xcr0(rp_replay *rp, u64 xcr0);
/* The last rp_set_signal_stops: whether on, and the passed signals. */
int fake_signal_stops(u64 *pass);
/* The thread that runs the instruction at position T (0 at the end). */
u32 fake_sched(u64 t);
/* Instructions thread TID has executed before position T. */
u64 fake_count(u32 tid, u64 t);
/* TID's rip after it executed N instructions, and the address of the
 * variable its instructions write. */
u64 fake_rip(u32 tid, u64 n);
u64 fake_var(u32 tid);
/* 1 if TID is alive at position T. */
int fake_alive(u32 tid, u64 t);

/* Serves the payloads PACKETS (NULL-terminated) to RP through gdb_serve,
 * in ack mode, and stores the reply payloads in OUT (NULL-terminated,
 * each malloc'd; fake_free_replies frees them). Returns how many replies
 * there are, or -1 when the session failed. */
int fake_session(rp_replay *rp, const char *const *packets, char **out,
                 int cap);
void fake_free_replies(char **out);
/* Writes V as 16 hex digits in target (little-endian) byte order, the form
 * of a 64-bit register in p and stop replies, into OUT. */
void fake_le_hex(u64 v, char out[17]);

/* For the suites: the replies of one session, checked one by one. */
#define FAKE_MAXREPLY 64
struct fake_run {
  char *r[FAKE_MAXREPLY]; /* replies, NULL-terminated */
  int n;                  /* how many, -1 when the session failed */
};
/* Runs the NULL-terminated PACKETS on a fresh fake replay at position AT
 * into RUN (free with fake_run_free). */
void fake_run(struct fake_run *run, u64 at, const char *const *packets);
void fake_run_free(struct fake_run *run);

#endif /* RW_TESTS_GDBSTUB_FAKE_REPLAY_H */
