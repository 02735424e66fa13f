/* SPDX-License-Identifier: MIT */
/* The instruction counter's data (replayer/counts.c counts, replayer/
 * count_out.c reports and adds up pieces): shared by the two files of the
 * counter alone. */
#ifndef RW_REPLAYER_COUNT_INT_H
#define RW_REPLAYER_COUNT_INT_H

#include <capstone/capstone.h>

#include "replayer/rp_int.h"

/* Kinds only the checks use, beside the RP_COUNT_* ones. */
enum { T_COND = 64, T_JUMP = 128 };

struct insn {
  u64 addr, count;
  u64 fn_start;     /* its function's first address, or 0 */
  u32 space;
  u32 pid;          /* its process's id in the recording */
  u32 fn, object;   /* offsets in strs: the function (rp__fn_name) */
  u32 opcode;
  u32 mark;         /* the first mark it is in: index + 1, or 0 */
  int wanted;       /* in the function of --function (by any name) */
  int in_lines;     /* in the source lines of --lines */
  u32 src, line;    /* its source file (offset in strs) and line; line 0:
                       none known */
  u64 marks;        /* bit K: it is in mark K too (the first 64) */
  u8 len, types;
  u8 bytes[15];
};


/* A function's bytes, for a listing of all of its instructions. */
struct body {
  u32 space, fn, object;
  u64 start;
  const struct rp__lines *lines; /* its file's line table (or NULL) and */
  u64 vstart;                    /* the ELF address of START */
  u8 *bytes;
  size_t len;
  struct insn *ins; /* or its instructions, decoded by a piece (-j) */
  size_t nins;
};


/* A thread at a cut between two pieces of a history (analyze counts -j).
 * The piece after it does not know the thread's instruction before its
 * first one there, so it counts its selection as entered where that
 * first instruction is in it; a replay from the start counts it only
 * when the thread's last instruction before, in the piece before, was
 * not. A head is the piece's side (its first run that ran something), a
 * tail the other's. */
struct cut {
  u32 tid;
  u8 in;   /* a head's: the first instruction is in the selection */
  u8 was;  /* a tail's: the thread's last instruction is in it */
  u8 pass; /* a tail's: 1 when the thread ran nothing in the piece (it is
              the tail of the piece before) */
};

/* A thread's counting window at a cut between two pieces of a history
 * (analyze marks -j). A piece does not know whether a thread that was
 * there where it began had a window open: its marks count as "unknown"
 * until its first end mark settles it. A head says what happened until
 * then: the thread's instructions (counted from its first in the piece)
 * of its first start mark and first end mark, ~0 when none, and per mark
 * the executions before the first start mark (in the counter's hcounts),
 * inside a window if the piece before left one open. A tail is how the
 * thread leaves the piece: STATE 0 no window, 1 one open since
 * instruction START, 2 still unknown; DONE its instructions in it. */
struct mcut {
  u32 tid, state;
  u64 start, end, done;
};

/* A total's: a thread's window across the pieces added. */
struct mthread {
  u32 tid;
  int open;
  u64 start; /* the window's first instruction, counted from the thread's
                first in the history */
  u64 base;  /* the thread's instructions in the pieces added */
};

/* What a mark saw. */
struct mstat {
  u64 execs, in_win;
};

/* A call path a mark ran on, and how often. */
struct mpath {
  u32 mark, node; /* node: the profile's + 1, or 0 */
  u64 count;
  char *text;     /* "main;f;g", once rp__counter_paths made it */
};

struct rp__counter {
  rp_replay *rp;
  struct rp_count_opts o;
  int forget;             /* REWIND_TEST_FORGET_CODE=1: no instruction
                             decoded before is used for a run that memory
                             no longer holds (as in a piece of analyze -j
                             that began after it; tests) */
  struct rp_mark *marks;  /* copies of o.marks (strings too) */
  struct mstat *mstats;
  struct mpath *paths;
  size_t npaths, cappaths;
  struct rp__umap by_path; /* mark << 32 | node -> paths index + 1 */
  rp_profile *tree;        /* a piece's call tree, whose nodes its paths
                              are (marks with stack, analyze marks -j) */
  rp_profile *join;        /* the total's: the pieces' trees joined */
  u64 pkey[256];           /* by_path's recent answers (key + 1; 0: none) */
  u32 pix[256];
  u64 nwin, win_total, win_min, win_max; /* closed counting windows */
  struct mcut *mheads, *mtails; /* a piece's (analyze marks -j) */
  size_t nmheads, capmheads, nmtails, capmtails;
  u64 *hcounts;            /* per head, per mark (struct mcut) */
  size_t caphcounts;
  struct mthread *mths;    /* the total's */
  size_t nmths, capmths;
  char *want_fn, *want_obj; /* copies of o.function, o.object */
  char *want_src;           /* copy of o.src_file */
  int src_seen;             /* some instruction came from want_src */
  csh cs;
  cs_insn *ci;
  struct insn *insns;
  size_t ninsns, capinsns;
  struct rp__umap by_insn; /* space << 48 | addr -> insn index + 1 */
  struct run *runs;
  size_t nruns, capruns;
  u32 *slots;              /* runs by key: index + 1; a power of 2 */
  size_t capslots;
  u32 recent[1024];        /* runs by their start's low bits, index + 1:
                              tried before the hash (a loop's runs) */
  u32 *pool;
  size_t npool, cappool;
  u64 *pend;               /* keys of the instructions decode_run's pass
                              added, in order: known once it keeps them */
  size_t npend, cappend;
  struct space *spaces;
  size_t nspaces, capspaces;
  struct body *bodies;
  size_t nbodies, capbodies;
  char *strs;
  size_t nstrs, capstrs;
  struct rp__umap by_str;  /* hash of a string -> offset + 1 */
  struct rp__umap aliases; /* hash of a function and a name -> 1 when the
                              name is the function's too, 2 when not */
  u64 total;     /* instructions counted, placed or not */
  u64 unplaced;  /* of those, in runs that failed the checks */
  u64 badruns;
  u64 bad_start, bad_end; /* the first such run's start and end */
  u32 threads;
  int err;
  /* For a piece of a history (analyze counts -j) and their total. */
  int started, ending;  /* the replay's first instruction ran; it ends */
  u32 starters;         /* threads that were there where it began */
  struct cut *heads, *tails;
  size_t nheads, capheads, ntails, captails;
  u64 *badkeys;         /* the runs that failed the checks, as keys */
  size_t nbadkeys, capbadkeys;
  struct rp__umap by_bad; /* (the total's) such a key -> 1 */
  u64 pieces;           /* (the total's) pieces added */
};

struct rp_counts {
  struct rp__counter *c;
};

/* What the report needs beside the counter. */
struct tally {
  u64 entered, range, selected;
  u64 kinds[5]; /* branch, call, ret, rep, memory: in the range */
  u64 cond;
};

struct rp_counts_full {
  struct rp_counts pub;
  struct tally tl;
};

static inline const struct tally *rp__cnt_tally_of(const rp_counts *c) {
  return &((const struct rp_counts_full *)c)->tl;
}

/* A new counter of RP (NULL: one that adds up pieces) for O (copied) into
 * *OUT. Returns 0, RW_ENOMEM or RW_EUNSUPPORTED (Capstone). */
int rp__cnt_new(rp_replay *rp, const struct rp_count_opts *o,
                struct rp__counter **out) RW_MUST_CHECK;
void rp__cnt_free(struct rp__counter *c);
/* S kept once in C's string pool, its offset into *OFF. Returns 0 or
 * RW_ENOMEM. */
int rp__cnt_intern(struct rp__counter *c, const char *s, u32 *off)
    RW_MUST_CHECK;
/* Decodes the instruction at IN->addr from the N bytes at CODE into IN
 * (length, bytes, kinds, opcode). Returns 1, or 0 when it cannot. */
int rp__cnt_decode(struct rp__counter *c, const u8 *code, size_t n,
                   struct insn *in);
/* Whether IN is in the selected code (function, file, range, lines). */
int rp__cnt_in_range(const struct rp__counter *c, const struct insn *in);
/* Whether IN is of the selected kinds. */
int rp__cnt_of_kind(const struct rp__counter *c, const struct insn *in);
/* N more executions of mark K on call path NODE (the profile's + 1).
 * Returns 0 or RW_ENOMEM. */
int rp__cnt_path_add(struct rp__counter *c, u32 k, u32 node, u64 n)
    RW_MUST_CHECK;
/* T's counts but ENTERED from C's instructions' counts. */
void rp__cnt_tally(const struct rp__counter *c, struct tally *t);

#endif /* RW_REPLAYER_COUNT_INT_H */
