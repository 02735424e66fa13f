/* SPDX-License-Identifier: MIT */
/* Private declarations of the replayer, shared by the files of replayer/
 * (not replayer/cpu/, which has its own): the replay state, the record
 * decoding helpers, the address-space mirror, keyframes and the divergence
 * report. Nothing outside replayer/ and tests/replayer/ includes it. */
#ifndef RW_REPLAYER_RP_INT_H
#define RW_REPLAYER_RP_INT_H

#include <capstone/capstone.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>


#include "common/digest.h"
#include "common/regs.h"
#include "common/rw.h"
#include "format/format.h"
#include "replayer/cpu/cpu.h"
#include "replayer/replayer.h"

/* Syscall numbers by name: RP_NR_read, ... (common/syscalls.def). */
enum rp__nr {
#define REC_SYSCALL(nr, name, flags, o1, o2, o3) RP_NR_##name = nr,
#include "common/syscalls.def"
#undef REC_SYSCALL
};

/* ---------------------------------------------------- record payloads */

/* One record, copied so that it outlives the cursor's next call. */
struct rp__rec {
  u64 seq;     /* global sequence number */
  u32 tid;     /* stream */
  u16 type;    /* enum trace_record_type */
  u32 len;     /* payload bytes */
  u8 *data;    /* owned, cap bytes */
  size_t cap;
};

/* ---------------------------------------------------- address space */

/* Where the bytes of a mapped range come from: a blob at an offset, or zeros
 * (hash all zero). Kept so that mremap growth and symbol lookup can find the
 * source of a range again. */
struct rp__src {
  u64 start, end; /* [start, end) */
  u64 offset;     /* offset in the blob of start */
  u8 hash[32];    /* blob, or zeros for anonymous memory */
  u64 eof;        /* file mappings: pages from here on lie past the end of
                     the file (SIGBUS); end for anonymous memory */
  u64 fend;       /* the end of the file's last page, in the file (~0: no
                     end, anonymous memory); eof follows from it */
  int prot;       /* PROT_* as recorded */
  int growsdown;  /* 1: grows down on a fault below it (the [stack], a
                     MAP_GROWSDOWN mapping; replayer/stack.c) */
  int shared;     /* 1: MAP_SHARED; with the same object, the same bytes */
  u64 object;     /* the file or shared memory behind it (0: none); offset
                     is then also the object's byte at start */
  char *path;     /* owned; "" for anonymous */
};

/* What decides whether a grows-down mapping grows (STACK_RULES). */
struct rp__stack_rules {
  u64 rlimit;     /* soft RLIMIT_STACK in bytes, ~0 for none */
  u64 guard_gap;  /* the kernel's stack_guard_gap in bytes */
  u64 min_addr;   /* vm.mmap_min_addr */
};

struct rp__srcs {
  struct rp__src *v;
  size_t n, cap;
};

/* A memory import or mapping change recently applied (for reports). */
struct rp__recent {
  u64 seq;
  u16 type;
  u64 addr, len;
};
#define RP_RECENT 16

/* ----------------------------------------------------------- threads */

/* What the replay knows about one thread besides its processor state: the
 * part a keyframe copies as it is. */
struct rp__tstate {
  u32 tid;              /* its id in the recording */
  u64 start_seq;        /* seq of its THREAD_START: tells two threads with
                           the same tid apart (tids are reused) */
  char name[16];        /* comm from THREAD_NAME, "" while unknown */
  int alive;            /* 0 once its EXIT was applied (it is still listed
                           when the process ended with it, see step.c) */
  int in_syscall;       /* between SYSCALL_ENTER and SYSCALL_EXIT */
  u64 sys_nr;           /* the syscall in progress */
  int restart;          /* the last syscall returned ERESTART*: it is
                           restarted unless a signal handler runs */
  i64 restart_result;
  int located;          /* stopped at a matched PREEMPT or a fault: its
                           SIGNAL/EXIT applies without running */
  int fresh;            /* started, and not run since */
  u32 proc_ix;          /* its process: 0 the root, k rp->kids[k - 1] */
};

/* One thread of the replayed process. Every thread has its own processor
 * state; all share rp->proc.mem. */
struct rp__thread {
  struct rp__tstate st;
  cpu_thread *cpu;      /* owned (through rp->th.threads or rp->th.spare) */
  struct rp__proc *proc; /* its process (st.proc_ix) */
};

/* --------------------------------------------------------- keyframes */

/* One thread as a keyframe holds it. */
struct rp__kthread {
  struct rp__tstate st;
  u64 cpu_icount;       /* the thread's own instruction count */
  u8 *state;            /* its registers (cpu_state_save), in the
                           keyframe's states block */
};

/* A forked process as a keyframe holds it. */
struct rp__kproc {
  int exists;           /* 0: not forked yet, or ended */
  struct rp__proc *lender; /* a vfork child's parent, until it execs */
  cpu_snap *snap;       /* its address space (none with a lender); owned */
  struct rp__srcs srcs; /* owned copy */
  struct rp__stack_rules stack;
};

/* Everything needed to resume the replay at one position. */
struct rp__kf {
  u64 icount;           /* global instruction count */
  u64 events;           /* records consumed */
  u64 next_seq;         /* first record not yet consumed */
  struct rp__kthread *threads; /* the listed threads in creation order;
                                  owned */
  size_t nthreads;
  u8 *states;           /* their registers, cpu_state_size() each; owned */
  u32 cur_tid;          /* the current thread's tid (rp->th.cur_tid) */
  int cur_index;        /* its index in threads, -1 when not listed */
  cpu_snap *snap;       /* the address space; owned */
  struct rp__srcs srcs; /* mapping sources; owned copy */
  struct rp__stack_rules stack; /* stack growth rules */
  struct rp__kproc *kids; /* the forked processes, as rp->kids; owned */
  size_t nkids;
  int root_ended, root_status, root_signo; /* as in rp->fin */
  u64 pt_icount, pt_events; /* as in rp: a keyframe may be taken between
                               a syscall's entry and what it wrote */
  u64 lru;              /* fine keyframes: last use (larger is newer) */
  int from_index;       /* loaded from the persistent index */
};

/* Fine keyframes (replayer/reverse.c): a small cache of extra keyframes,
 * one at the last multiple of RP_FINE_STEP instructions before each
 * position a seek went to, so that reverse single steps re-execute at most
 * RP_FINE_STEP instructions. Least recently used ones are dropped. */
#define RP_FINE_STEP 65536ull
#define RP_FINE_MAX 48

/* A program image (EXEC record) and what came with it, kept in the order
 * the replay first met them, for the debugger (exec file, auxv, pid). */
struct rp__image {
  u64 seq;       /* the EXEC record's sequence number */
  u32 pid;
  char *path;    /* owned */
  u8 *auxv;      /* owned; NULL until the AUXV record */
  size_t auxv_len;
};

/* ----------------------------------------------- the digest's cache */

/* What the first digest of a PREEMPT search keeps so that the next ones
 * rehash only the pages written since (replayer/digest.c). */
struct rp__dcache {
  int valid;           /* built for the keys below, and tracking pages */
  u64 seq, events,
      restores;        /* keys: pre_seq, rp->trace.events, rp->tl.restores */
  u64 target;          /* the recorded digest */
  u64 full;            /* the digest at the build */
  size_t n, cap;       /* writable pages; capacity of the arrays */
  u64 *addr;           /* their addresses, increasing; owned */
  u64 *fh, *fn;        /* chain state (h, n) before page i, i <= n; owned */
  u64 *bh;             /* the h page boundary i needs for the target, when
                          have_b; owned */
  int have_b;
  size_t *nz;          /* indices of the pages not zero at the build,
                          increasing; nnz of them; owned */
  size_t nnz;
};

/* Cycle detection in a PREEMPT search (docs/design-notes.md, "A search
 * that can never end"): the thread's state is fingerprinted every
 * RP_CYCLE_STEP of its instructions once the search has run that many,
 * and compared with one kept at the 1st, 2nd, 4th ... fingerprint. */
#define RP_CYCLE_STEP (1ull << 26)
struct rp__cycle {
  u64 seq, restores;     /* keys: the search (pre_seq), rp->tl.restores */
  u64 next;              /* the thread's count at the next fingerprint */
  u64 power, lam;        /* Brent: fingerprints per round, taken this one */
  int have;              /* kept holds a fingerprint */
  u64 kept_at;           /* the thread's count there */
  u64 kept_digest;
  u8 kept_regs[RW_REGS_DISK_SIZE];
  u8 built_regs[RW_REGS_DISK_SIZE]; /* at the arrival that built the
                                       digest cache (rp->search.dc) */
};

/* ------------------------------------------------------- the replay */

struct rp__sym;

/* The layers of a replay, each a struct of its own: the records in order
 * (trace), the process (its address space, images, symbols and cpu
 * configuration), its threads, the timeline of keyframes, and what the
 * navigation above them keeps (the end of the history, a break, the
 * search for an asynchronous stop, the user's breakpoints). */

/* The records, in global order. */
struct rp__trace {
  char *path;              /* the trace; owned */
  trace_reader *tr;        /* owned */
  trace_cursor *cur;       /* all records in sequence order; owned */
  u64 total_seq;           /* last sequence number in the trace */
  struct rp__rec pend;     /* the record being worked towards */
  int have_pend;           /* 1: pend is valid and not yet consumed */
  u64 last_seq;            /* seq of the last record consumed */
  u64 events;              /* records consumed */
  /* A history that begins at a recorder keyframe (rp_opts.start_keyframe,
   * replayer/segment.c): the records of its state come first, from a
   * trace of their own; then the trace's from pro_seq on. */
  struct trace_record *pro_recs; /* those records, in the order applied */
  u8 *pro_bytes;           /* their payloads; both owned */
  size_t pro_n, pro_i;     /* how many; the next one */
  u64 pro_seq;
  u64 pro_events;          /* records of the keyframe's state applied */
  u64 end_seq;             /* rp_opts.end_seq: not past this record */
};

/* Where the pages of a keyframe's state came from (replayer/segment.c).
 * A history that begins at a recorder keyframe notes each MEM_FROM of the
 * state it loaded; the next keyframe's state, loaded beside it to be
 * compared (rp_segment_end), takes from it the pages that came from the
 * same bytes of the same blob and that no write changed since, sharing
 * them instead of reading them from the trace. */
struct rp__from {
  u64 addr, len, off; /* LEN bytes at ADDR: bytes OFF on of blob */
  u32 pid;            /* of the process */
  int spoiled;        /* something else wrote there after it */
  u8 blob[32];
};
struct rp__prov {
  int collect;          /* 1 while the state loads: MEM_FROMs noted */
  struct rp__from *v;   /* by pid and address once loaded; owned */
  size_t n, cap;
  u64 ref;              /* the replay keyframe taken at that state: its
                           icount + 1 (0: none, nothing is lent) */
  rp_replay *donor;     /* while loading: the replay pages come from */
};

/* A recorded process: its address space and what describes it. The root
 * is the process the recording started; a process it or a descendant
 * forked is one of rp->kids, created at its FORK record (replayer/
 * procs.c), with no images or symbols of its own. */
struct rp__proc {
  u32 ix;                  /* 0 the root, k rp->kids[k - 1] */
  u32 pid;                 /* its id in the recording (the root's from
                              its first EXEC on; 0 before) */
  u64 fork_seq;            /* its FORK record (kids) */
  struct rp__proc *parent; /* the process that forked it (kids) */
  int exists;              /* 1 from its FORK until it ends (kids) */
  cpu_mem *mem;            /* the program's address space: OWN, or its
                              lender's */
  cpu_mem *own;            /* its own one (kids); owned */
  struct rp__proc *lender; /* a vfork child runs in its parent's address
                              space (LENDER's) until it execs or ends */
  struct cpu_config cfg;   /* for the threads' cpu_new */
  u32 *cpuid;              /* recorded cpuid table, 6 u32 per entry; owned */
  size_t ncpuid;
  struct rp__srcs srcs;    /* mapping sources */
  struct rp__stack_rules stack; /* stack growth rules in force */
  struct rp__recent recent[RP_RECENT];
  unsigned nrecent;
  struct rp__image *images; /* program images met so far; owned */
  size_t nimages, capimages;
  struct rp__sym *syms;    /* symbol tables of mapped ELF blobs; owned */
  size_t nsyms;
};

/* Its threads. */
struct rp__threads {
  struct rp__thread **threads; /* listed threads in creation order; owned */
  size_t nthreads, capthreads;
  size_t nalive;           /* how many of them are alive */
  size_t nzombies;         /* listed but dead (killed as the process
                              ended): dropped at the next event a thread
                              reaches */
  struct rp__thread **spare; /* unused thread structs, cpu kept; owned */
  size_t nspare, capspare;
  u64 exec_nr;             /* between EXEC and the THREAD_START after it:
                              the execve the new thread is inside, or 0 */
  struct rp__thread *fork_from; /* while a forked process's first thread
                              starts at its parent's rip and rsp: the
                              parent (its call stack is the child's) */
  struct rp__thread *thr;  /* the thread about to run (or that ran last);
                              NULL when it is gone */
  u32 cur_tid;             /* its tid, kept when it is gone */
  int have_thread;         /* 1 once a THREAD_START was applied */
};

/* The end of the history: what the trace says of it, and once reached. */
struct rp__fin {
  int end_expected;        /* the trace's format ends a finished recording
                              with an END record (1.1 on) */
  int have_endrec;         /* the trace has its END record */
  int end_has_digest;      /* it holds a memory digest: end_digest */
  u64 end_digest;
  struct rw_digest_spec end_spec; /* what it leaves out */
  int end_checked;         /* the digest was compared at the end, equal */
  u64 digest_seq;          /* the DIGEST records up to this sequence
                              number were compared, equal */
  struct rw_diag end_damage; /* why the last record could not be read
                              (code 0: it could) */
  int root_ended;          /* 1: the root process ended (its children
                              may live on): root_status, root_signo */
  int root_status, root_signo;
  int ended;               /* 1: the end of the history is reached */
  struct rp_stop end;      /* what the end looks like */
  u64 end_icount;          /* icount of the end, once known */
};

/* A divergence or failure, and the limit it leaves. */
struct rp__health {
  char why[200];           /* why a record could not be applied, when
                              there is more to say than its error code */
  struct rw_diag damage;   /* damage met while applying a record (a blob
                              that does not match its hash), for
                              rp__damaged; code 0 when none */
  int broken;              /* 1: diverged or failed; nothing runs now */
  struct rp_stop broken_stop;
  int has_limit;           /* the replay broke once: limit_stop is where */
  struct rp_stop limit_stop; /* the earliest break: the history before it
                                can be visited again, runs stop there */
  char *report;            /* text of the divergence report; owned */
};

/* The search for the pending PREEMPT's instant. */
struct rp__search {
  u64 preempt_bp;          /* internal breakpoint for PREEMPT, 0 if none */
  cpu_thread *preempt_cpu; /* the thread it is conditional for, or NULL */
  cpu_mem *preempt_mem;    /* the address space it is in */
  u64 pre_seq;             /* the PREEMPT record decoded below (0: none) */
  struct rw_regs pre_regs; /* its registers */
  u64 pre_digest;          /* its memory digest */
  struct rw_digest_spec pre_spec; /* what the digest leaves out */
  u64 missed_seq;          /* the PREEMPT whose registers the thread had, */
  u64 missed_at;           /* at this global count, with memory that
                              differed (0: none) */
  struct rp__cycle cyc;    /* the search's cycle detection */
  struct rp__dcache dc;    /* the search's digests */
};

/* A change of the mappings of an address space (map, unmap, remap, exec)
 * over [LO, HI), at the position where the record that made it was
 * applied (EVENTS): the write index may not pass by an interval that holds
 * one over a watched range (replayer/reverse.c), whose pages can be
 * mapped, written and unmapped between two states that both lack them. */
struct rp__maplog {
  u64 events;
  const cpu_mem *mem;
  u64 lo, hi;
};

/* The timeline: coarse keyframes along the history, fine ones near where
 * reverse execution works. */
struct rp__timeline {
  struct rp__kf *kfs;      /* keyframes in icount order; owned */
  size_t nkfs, capkfs;
  u64 kf_interval;         /* current spacing */
  u64 next_kf;             /* icount of the next keyframe to take */
  u64 restores;            /* keyframe restores so far */
  u64 scanned, skipped;    /* intervals reverse continues re-ran, and
                              passed by with the write index */
  u64 helped;              /* of those re-run, by the helper process */
  struct rp__maplog *maplog; /* the mapping changes met so far, by events
                              (rp__maplog_add) */
  size_t nmaplog, capmaplog;
  u64 log_covered;         /* the log holds every change up to here (the
                              replay ran there from the history's start,
                              not from a keyframe of the persistent
                              index further on) */
  int log_broken;          /* the run since the last restore began past
                              log_covered: it does not extend it */
  struct rp__kf fine[RP_FINE_MAX]; /* fine keyframes, unordered */
  size_t nfine;
  u64 fine_clock;          /* LRU stamp source */
};

/* What the user asked for. */
struct rp__ubp {
  u64 addr;
  struct rp__proc *proc;   /* the process it stops: in its address space */
};
struct rp__uwp {
  u64 addr, len;
  int kind;                /* 1 read, 2 write, 3 both */
  struct rp__proc *proc;   /* the process it stops */
  cpu_mem *in;             /* the address space it is in */
};
/* A SIGNAL record of the trace: its seq and signal (1 to 64). */
struct rp__sigrec {
  u64 seq;
  u32 signo;
};
struct rp__user {
  struct rp__ubp *bps;     /* breakpoints (replayer/user.c) */
  size_t nbps, capbps;
  struct rp__uwp *wps;     /* watchpoints */
  size_t nwps, capwps;
  int (*poll)(void *ctx);  /* interrupt check of user runs, or NULL */
  void *poll_ctx;
  struct rp__proc *proc;   /* the debugger's process: the root unless
                              rp_debug_process chose another; with tree,
                              the one rp_set_view chose to look at */
  int tree;                /* rp_opts.tree: every process is the
                              debugger's, and the history is whole */
  int floored;             /* 1: the history begins at the floor, where
                              the debugger's process began */
  int exec_stops;          /* rp_set_exec_stops */
  int proc_stops;          /* rp_set_proc_stops */
  struct rp__proc *fork_seen; /* an RP__PROCS run applied this child's FORK:
                              stop at the next point */
  u32 fork_tid;            /* the thread that forked it */
  int exec_seen;           /* an RP__EXEC run applied the debugger's
                              process's EXEC: stop at its next point */
  int mem_hit;             /* an RP__USER run applied a MEM record over a
                              write watchpoint at mem_hit_at: stop at the
                              next point, unless a run went on since */
  u64 mem_hit_at;
  u64 mem_hit_addr;        /* the first watched byte it wrote */
  u32 mem_hit_size;        /* how many watched bytes from there */
  u32 mem_hit_tid;         /* the thread of the record */
  u64 mem_hit_icount, mem_hit_events; /* the last point before it */
  int sys_stops;           /* rp_set_syscall_stops: on */
  int rep_stops;           /* rp_set_rep_stops: RP_REP_START, RP_REP_END */
  int sys_all;             /* every syscall, not only those in sys_set */
  u64 sys_set[RP_SYSCALL_MAX / 64]; /* the syscalls that stop, by number */
  u64 sys_seen_icount;     /* the position of the last entry stop
                              reported (icount, events; ~0: none): a run
                              starting there goes on */
  u64 sys_seen;
  int sys_ret;             /* an RP__SYSCALLS run applied the SYSCALL_EXIT
                              of a stopping syscall at sys_ret_icount: stop
                              at the next point if nothing ran since */
  u32 sys_ret_tid, sys_ret_nr;
  u64 sys_ret_icount;
  int sig_stops;           /* rp_set_signal_stops: on */
  u64 sig_pass;            /* the signals that do not stop (bit N-1) */
  u64 sig_seen_icount;     /* the position of the last signal stop
                              reported (icount, events; ~0: none): a run
                              starting there delivers it */
  u64 sig_seen;
  struct rp__sigrec *sigrecs; /* the trace's SIGNAL records, by seq (read
                              once, by the first reverse continue with
                              signal stops on) */
  size_t nsigrecs;
  int sigrecs_have;
  rp_echo_fn echo;         /* rp_set_echo, or NULL */
  void *echo_ctx;
  u64 echo_seq;            /* the writes up to this record were shown */
  u64 floor_icount, floor_events;
};

/* Whether signal SIGNO stops a run with signal stops on (U's sig_pass). */
static inline int rp__sig_stops(const struct rp__user *u, u32 signo) {
  return signo >= 1 && signo <= 64 && !(u->sig_pass >> (signo - 1) & 1);
}

/* A diversion (replayer/divert.c): the debugger changed memory or
 * registers; the state it changed is kept, to be put back. */
struct rp__divert_reg {
  u32 tid;
  struct rw_regs regs;     /* before the debugger's first change */
};
struct rp__divert {
  int on;
  struct rp__kf kf;        /* the state where it began */
  struct rp__divert_reg *saved; /* each thread whose registers changed */
  size_t nsaved, capsaved;
};

/* A CPUID record met (format 1.17): from its sequence number on, cpuid
 * E[0] (subleaf E[1]) answers E[2..5]. */
struct rp__cpuid_fix {
  u64 seq;
  u32 e[6];
};

struct rp_replay {
  struct rp_opts opts;
  struct rp__trace trace;
  struct rp__prov prov;
  struct rp__cpuid_fix *cpuidfix; /* in the order met; owned */
  size_t ncpuidfix, capcpuidfix;
  u32 digest_kind;          /* of the trace's memory digests (RW_DIGEST_*,
                               its metadata "digest") */
  struct rp__proc *proc;    /* the process of the record being applied or
                              of the thread running */
  struct rp__proc root;     /* the process the recording started */
  struct rp__proc **kids;   /* the processes forked in the recording, in
                              the order of their FORK records; owned */
  size_t nkids, capkids;
  struct rp__threads th;
  struct rp__timeline tl;
  struct rp__fin fin;
  struct rp__health health;
  struct rp__search search;
  struct rp__user user;
  struct rp__divert div;

  u64 icount;              /* global instruction count */
  u64 checks;              /* register checks passed */
  u64 executed;            /* instructions executed, re-execution included */
  u64 outputs;             /* OUTPUT checksums that matched */
  u64 digests;             /* DIGEST records that matched */
  const struct rp__goal *goal; /* of the rp__run in progress, or NULL */
  struct rp_profile *prof;  /* the profile rp_profile_run builds, or NULL */
  u64 pt_icount, pt_events; /* the last execution point run() reached */
  u64 run_icount, run_own; /* the global count and the running thread's
                              own when its cpu_run began: inside it, own
                              count N is global run_icount + N - run_own */
  int step_gone;           /* its step thread is gone (exited, exec) */

  struct rp__index *index; /* the trace's persistent index, or NULL;
                              owned (replayer/index.c) */
  csh cs;                  /* Capstone handle for reports; 0 until used */
  u64 progress_ns;         /* next progress report */
  u64 start_ns;
  u8 *buf;                 /* scratch, RP_BUF bytes; owned */
};

#define RP_BUF (1u << 20)

/* the persistent index (replayer/index.c) */
#define RP_INDEX_INTERVAL 25000000ull /* instructions between its keyframes */
#define RP_INDEX_USER_END (1ull << 47)
/* Opens the index at PATH for RP's trace when it exists and was made for
 * it (otherwise says why it is not used, on the log). Returns 0 or
 * RW_ENOMEM. */
int rp__index_open(rp_replay *rp, const char *path) RW_MUST_CHECK;
void rp__index_close(rp_replay *rp);
/* Loads into the timeline the index's last keyframe at or before ICOUNT
 * when no keyframe in memory (nor the current position) is nearer.
 * Returns 0, or RW_ENOMEM; a damaged index is dropped with a note. */
int rp__index_fill(rp_replay *rp, u64 icount) RW_MUST_CHECK;
/* Keyframes loaded from the index so far. */
u64 rp__index_loaded(const rp_replay *rp);
/* What names the trace at PATH for its index: its size and a hash of its
 * first and last 4096 bytes, as text into OUT (CAP bytes). */
int rp__index_identity(const char *path, char *out, size_t cap)
    RW_MUST_CHECK;

/* address space mirror (replayer/space.c) */
/* Logs a mapping change over [ADDR, ADDR+LEN) of RP's current process's
 * space at the current position (once, however often the history is
 * replayed); rp__maplog_hits says whether a change of MEM over [ADDR,
 * ADDR+LEN) was logged at a position from events LO to HI, or may have
 * been (HI past what the log covers). */
int rp__maplog_add(rp_replay *rp, u64 addr, u64 len) RW_MUST_CHECK;
int rp__maplog_hits(const rp_replay *rp, const cpu_mem *mem, u64 lo, u64 hi,
                    u64 addr, u64 len);
int rp__apply_exec(rp_replay *rp) RW_MUST_CHECK;
int rp__apply_map(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
int rp__apply_unmap(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
int rp__apply_protect(rp_replay *rp, const struct rp__rec *rec)
    RW_MUST_CHECK;
int rp__apply_remap(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
int rp__apply_resize(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
/* Whether blob hash H is all zeros (anonymous memory, no file). */
int rp__is_zero_hash(const u8 h[32]);
/* Tells the emulator which mappings are the same bytes (after any change of
 * rp->proc.srcs). */
int rp__alias_sync(rp_replay *rp) RW_MUST_CHECK;
int rp__apply_mem(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
int rp__srcs_copy(struct rp__srcs *dst, const struct rp__srcs *src)
    RW_MUST_CHECK;
void rp__srcs_free(struct rp__srcs *s);
/* The source of the mapping of process P that holds ADDR, or NULL. */
struct rp__src *rp__src_at(struct rp__proc *p, u64 addr);

/* stack growth (replayer/stack.c) */
/* The rules of a trace that has no STACK_RULES (before EXEC applies one). */
void rp__stack_defaults(struct rp__stack_rules *rules);
/* ADDR is not mapped: grows the grows-down mapping right above it to cover
 * it, when the kernel would have (the rules in rp->proc.stack). Sets *GREW to 1
 * when it did, 0 when the access faults. Returns 0 or a negative code. */
int rp__stack_grow(rp_replay *rp, u64 addr, int *grew) RW_MUST_CHECK;
/* STACK_RULES: the rules from here on. Returns 0 or RW_ECORRUPT. */
int rp__apply_stack_rules(rp_replay *rp, const struct rp__rec *rec)
    RW_MUST_CHECK;
/* GROW: checks the recorder's view of a grown mapping against the replay's
 * own. Sets *STOPPED (and rp->health.broken, with a report) when they disagree.
 * Returns 0 or a negative code. */
int rp__apply_grow(rp_replay *rp, const struct rp__rec *rec, int *stopped)
    RW_MUST_CHECK;

/* the memory digest (replayer/digest.c) */
/* The memory digest of common/digest.h over the replay's address space,
 * with what SPEC leaves out. */
int rp__digest(rp_replay *rp, const struct rw_digest_spec *spec, u64 *out)
    RW_MUST_CHECK;
/* Sets *MATCH to whether the digest (with what the pending PREEMPT leaves
 * out, rp->search.pre_spec) is TARGET now. Repeated during one
 * search (the same pending record, no record applied, no restore), it
 * rehashes only the pages written in between. *SINCE says whether this
 * call computed the whole digest (RP_DIGEST_BUILT), or no page was
 * written since that call (RP_DIGEST_SAME: the memory is as it was then),
 * or pages were (RP_DIGEST_CHANGED). Returns 0 or a negative code. */
enum { RP_DIGEST_BUILT, RP_DIGEST_SAME, RP_DIGEST_CHANGED };
int rp__digest_match(rp_replay *rp, u64 target, int *match, int *since)
    RW_MUST_CHECK;
/* Ends a search: stops tracking written pages. */
void rp__digest_drop(rp_replay *rp);
void rp__digest_free(rp_replay *rp);

/* the event machine (replayer/step.c) */
int rp__fetch(rp_replay *rp, struct rw_diag *diag) RW_MUST_CHECK;
/* Flags of a goal: RP__USER stops at the user's breakpoints and
 * watchpoints (a breakpoint at the starting position is stepped off), and
 * with RP__USER_AT_START a breakpoint at the starting position stops too;
 * RP__NO_KEYFRAMES takes no keyframes on the way (a re-run for a report,
 * which must leave the timeline as it was). */
enum { RP__USER = 1, RP__USER_AT_START = 2, RP__NO_KEYFRAMES = 4,
       RP__PROCS = 16, /* with tree: stop after a process forked a child
                          (RP_STOP_FORK) */
       RP__EXEC = 8, /* stop where the debugger's process runs a new
                        program (rp_set_exec_stops) */
       RP__SYSCALLS = 32, /* stop at the entries and returns of
                             rp_set_syscall_stops */
       RP__SIGNALS = 64 /* stop before a delivery (rp_set_signal_stops) */
};
/* Where rp__run stops, besides the end of the history, a divergence, a
 * failure, and an interrupt of a user run. Plain data. */
struct rp__goal {
  u64 icount;     /* the global instruction count to stop at (~0: none) */
  u64 events;     /* at icount, first consume records until this many
                     were (a signal delivered there); 0: none */
  int flags;      /* RP__* */
  u32 step_tid;   /* also stop when this thread (0: none), started at
                     step_seq, is about to run with its own count at
                     step_count, or once it is gone */
  u64 step_seq;
  u64 step_count;
  u32 proc_pid;   /* also stop when a thread of the process with this
                     id (0: none) is about to run after record
                     proc_seq was applied */
  u64 proc_seq;
};
/* The flags of a debugger's forward run: its breakpoints and watchpoints,
 * and exec stops when rp_set_exec_stops asked for them. */
static inline int rp__user_flags(const rp_replay *rp) {
  return RP__USER | (rp->user.exec_stops ? RP__EXEC : 0) |
         (rp->user.proc_stops ? RP__PROCS : 0) |
         (rp->user.sys_stops ? RP__SYSCALLS : 0) |
         (rp->user.sig_stops ? RP__SIGNALS : 0);
}
/* A goal of reaching ICOUNT with FLAGS. */
struct rp__goal rp__goal_at(u64 icount, int flags);
/* A goal of thread T being about to run with its own count at COUNT. */
struct rp__goal rp__goal_step(const struct rp__thread *t, u64 count,
                              int flags);
int rp__run(rp_replay *rp, const struct rp__goal *goal, struct rp_stop *stop)
    RW_MUST_CHECK;
/* The first position of the history the debugger may go back to: the
 * beginning, or where rp_debug_process's process began. */
u64 rp__floor(const rp_replay *rp);
/* Removes the internal breakpoint of a PREEMPT search, if any. */
int rp__clear_preempt_bp(rp_replay *rp) RW_MUST_CHECK;

/* searches for execution points (replayer/search.c) */
/* The rip of the pending PREEMPT record into *RIP (replayer/search.c).
 * Returns 0 or a negative code. */
int rp__preempt_rip(rp_replay *rp, u64 *rip) RW_MUST_CHECK;
/* Whether thread T is where the pending PREEMPT says it was (*MATCH); or
 * (*CYCLE) back at the registers and memory of an earlier arrival of this
 * search. */
int rp__preempt_matches(rp_replay *rp, struct rp__thread *t, int *match,
                        int *cycle) RW_MUST_CHECK;
/* The search breakpoint at the pending PREEMPT's rip, for thread T and its
 * recorded registers (any, when a user breakpoint is there too). */
int rp__set_preempt_bp(rp_replay *rp, struct rp__thread *t) RW_MUST_CHECK;
/* With syscall stops, thread T running to the pending SYSCALL_ENTER: *NR
 * the syscall; *AT set when T is at its syscall instruction and the
 * syscall stops the debugger (otherwise the search breakpoint waits
 * there). */
int rp__sys_entry_at(rp_replay *rp, struct rp__thread *t, int *at,
                     u64 *nr) RW_MUST_CHECK;
/* The thread's count at the PREEMPT search's next fingerprint. */
u64 rp__cycle_next(rp_replay *rp, struct rp__thread *t);
/* At a fingerprint: *CYCLE the count since which T's state repeats, or 0
 * (and the search moves on). */
int rp__cycle_check(rp_replay *rp, struct rp__thread *t, u64 *cycle)
    RW_MUST_CHECK;

/* checks and reports (replayer/check.c) */
/* Compares the emulator's registers ACTUAL with the recorded EXPECT: the
 * general registers, rip, fs/gs bases, every arithmetic flag (CF PF AF ZF
 * SF OF, the ones the manuals call undefined included: the emulator follows
 * the recording CPU's vendor) and DF, and with FULL the FP/SSE/AVX state
 * too. Returns 1 when they match. */
int rp__regs_match(const struct rw_regs *expect, const struct rw_regs *actual,
                   int full);
/* Stops the replay as diverged: builds the report (with WHAT, the expected
 * registers EXPECT or NULL) and fills STOP. Returns 0 or a negative code. */
int rp__diverge(rp_replay *rp, struct rp_stop *stop,
                const struct rw_regs *expect, const char *fmt, ...)
    RW_PRINTF(4, 5) RW_MUST_CHECK;
/* Whether a broken replay may go to global instruction TARGET: before the
 * break it may (its state is then no longer broken; the caller restores a
 * keyframe before running), at or after it not (STOP is the break's). */
int rp__unbreak(rp_replay *rp, u64 target, struct rp_stop *stop);
/* Stops the replay at damage in the trace that DIAG (borrowed) describes:
 * RP_STOP_FAILED with stop->damaged set. Returns 0. */
int rp__damaged(rp_replay *rp, struct rp_stop *stop,
                const struct rw_diag *diag);
/* Stops the replay as failed with a one-line message. Returns 0. */
int rp__fail(rp_replay *rp, struct rp_stop *stop, const char *fmt, ...)
    RW_PRINTF(3, 4);
/* Appends TEXT (borrowed) to the report of the divergence just found.
 * Returns 0 or RW_ENOMEM. */
int rp__report_add(rp_replay *rp, const char *text) RW_MUST_CHECK;
void rp__note_recent(rp_replay *rp, const struct rp__rec *rec, u64 addr,
                     u64 len);

/* output and end-of-history checks (replayer/outputs.c) */
/* Reads the trace's END record, if it has one, into rp->end_*; when the
 * last record cannot be read, keeps why in rp->fin.end_damage, for the end of
 * the replay. Returns 0 or a negative code. */
int rp__end_load(rp_replay *rp) RW_MUST_CHECK;
/* At the end of the history: compares the memory digest with the END
 * record's; a difference stops the replay as diverged (rp->health.broken, STOP
 * filled). Returns 0 or a negative code. */
int rp__check_end(rp_replay *rp, struct rp_stop *stop) RW_MUST_CHECK;
/* The OUTPUT record REC of thread T, inside the syscall it describes:
 * compares the bytes T passes there; a difference stops the replay as
 * diverged. Returns 0 or a negative code (RW_ECORRUPT: a bad record). */
int rp__check_output(rp_replay *rp, const struct rp__rec *rec,
                     struct rp__thread *t, struct rp_stop *stop)
    RW_MUST_CHECK;
/* The DIGEST record REC of thread T, at the entry of the syscall that ends
 * its process: compares the digest of T's process's memory, once per
 * record; a difference stops the replay as diverged. Returns 0 or a
 * negative code (RW_ECORRUPT: a bad record). */
int rp__check_digest(rp_replay *rp, const struct rp__rec *rec,
                     struct rp__thread *t, struct rp_stop *stop)
    RW_MUST_CHECK;
/* The EXIT record REC (decoded in EX) that ends process P, which a signal
 * killed: compares the digest of P's memory when the record holds one,
 * once per record, as rp__check_digest does. */
int rp__check_killed(rp_replay *rp, const struct rp__rec *rec,
                     const struct trace_rec_exit *ex, struct rp__proc *p,
                     struct rp_stop *stop) RW_MUST_CHECK;
int rp__cs_open(rp_replay *rp) RW_MUST_CHECK;

/* keyframes (replayer/timeline.c) */
int rp__kf_take(rp_replay *rp) RW_MUST_CHECK;
/* The signal the kernel sends for fault F (CPU_FAULT_*) of the emulator,
 * or 0 (replayer/step.c). */
int rp__fault_signal(int f);
/* Frees a diversion's kept state without putting it back (rp_close). */
void rp__divert_free(rp_replay *rp);

/* Fills KF (caller-owned, freed with rp__kf_free) with the current state. */
int rp__kf_capture(rp_replay *rp, struct rp__kf *kf) RW_MUST_CHECK;
void rp__kf_free(struct rp__kf *kf);
/* The latest keyframe, coarse or fine, at or before ICOUNT (STRICT: before
 * it), or NULL. A fine one returned is marked as used. */
struct rp__kf *rp__kf_before(rp_replay *rp, u64 icount, int strict);
int rp__kf_restore(rp_replay *rp, const struct rp__kf *kf) RW_MUST_CHECK;
/* Puts KF (taken over) into the timeline in icount order; one at that
 * count already there stays, and KF is freed. Returns 0 or RW_ENOMEM. */
int rp__kf_insert(rp_replay *rp, struct rp__kf *kf) RW_MUST_CHECK;
void rp__kf_free_all(rp_replay *rp);
/* Host bytes the keyframes (coarse and fine) hold in thread states. */
u64 rp__kf_thread_bytes(const rp_replay *rp);
/* Host bytes of guest memory, live and held by keyframes, over the address
 * spaces of every process. */
u64 rp__mem_footprint(const rp_replay *rp);

/* seeking and fine keyframes (replayer/timeline.c) */
/* Seeks to ICOUNT with EVENTS records consumed (0: as few as there are
 * there): one instruction count can hold two states, before and after a
 * signal's delivery. rp_seek is this with EVENTS 0. */
int rp__seek(rp_replay *rp, u64 icount, u64 events, struct rp_stop *stop)
    RW_MUST_CHECK;
/* Runs forward to ICOUNT (with EVENTS as in rp__seek), taking a fine
 * keyframe on the way (the last multiple of RP_FINE_STEP before it). */
int rp__run_fine(rp_replay *rp, u64 icount, u64 events,
                 struct rp_stop *stop) RW_MUST_CHECK;
void rp__fine_free_all(rp_replay *rp);

/* the debugger's breakpoints, watchpoints and processes (replayer/user.c) */
/* Whether process P is one the debugger sees run (its breakpoints,
 * watchpoints, exec stops and end). */
static inline int rp__users(const rp_replay *rp, const struct rp__proc *p) {
  return rp->user.tree || p == rp->user.proc;
}
/* Whether the LEN bytes at DATA, about to be written at ADDR into process
 * P's memory by the kernel (not by an instruction), change a byte under a
 * write watchpoint of P: the first such byte (the lowest of every
 * watchpoint's) into *HIT and how many watched bytes follow it in its
 * watchpoint into *SIZE. */
int rp__user_watch_written(const rp_replay *rp, const struct rp__proc *p,
                           u64 addr, const u8 *data, u64 len, u64 *hit,
                           u32 *size);
/* Whether syscall NR stops the debugger (rp_set_syscall_stops). */
static inline int rp__sys_stops_at(const rp_replay *rp, u64 nr) {
  return rp->user.sys_all ||
         (nr < RP_SYSCALL_MAX && (rp->user.sys_set[nr / 64] >> (nr % 64) & 1));
}
/* Hands what syscall NR of thread T, which returned RES and whose
 * SYSCALL_EXIT is record SEQ, wrote to descriptor 1 or 2 to the echo
 * function (rp_set_echo), the first time the replay passes SEQ. T's
 * registers are those after the syscall (its arguments unchanged). */
void rp__echo(rp_replay *rp, struct rp__thread *t, u64 nr, i64 res, u64 seq);
/* Whether a breakpoint of process P is at ADDR. */
int rp__user_bp_at(const rp_replay *rp, const struct rp__proc *p, u64 addr);
/* Whether a breakpoint of a process whose address space is MEM is at
 * ADDR (the breakpoint must stay in MEM). */
int rp__user_bp_in(const rp_replay *rp, const cpu_mem *mem, u64 addr);
/* Whether an access of SIZE bytes at ADDR by a thread of P hits one of
 * P's watchpoints. */
int rp__user_watch_hit(const rp_replay *rp, const struct rp__proc *p,
                       u64 addr, u64 size);
/* Puts every breakpoint and watchpoint into the address space its process
 * has now (after a keyframe restore, a fork, a vfork child's exec). */
int rp__user_sync(rp_replay *rp) RW_MUST_CHECK;
/* P's process id: its recorded pid, or for a root not yet exec'd, its
 * first image's. */
u32 rp__proc_pid(const struct rp__proc *p);

/* program images (replayer/image.c) */
int rp__note_exec(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
int rp__note_auxv(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
void rp__images_free(struct rp__proc *p);

/* symbols (replayer/symbols.c) */
void rp__syms_free(rp_replay *rp);
/* The function holding ADDR in the process of the current position, into
 * NAME (NCAP bytes; without the offset; "file+0xOFF" in a file without
 * symbols for it, "0xADDR" outside any file), and the file name of its
 * mapping into OBJECT (OCAP bytes; "?" when none). */
void rp__fn_name(rp_replay *rp, u64 addr, char *name, size_t ncap,
                 char *object, size_t ocap);
/* Whether a function of known size holds ADDR (as rp__fn_name names
 * it), with its first address in *START and its size in *SIZE. */
int rp__fn_span(rp_replay *rp, u64 addr, u64 *start, u64 *size);
/* Whether a segment of an ELF file mapped at ADDR holds it, with the
 * file's virtual address of it (as nm and objdump show it) in *VADDR. */
int rp__elf_vaddr(rp_replay *rp, u64 addr, u64 *vaddr);
/* Whether the function starting at START has the name NAME too (an alias
 * of the name rp__fn_name gives it: malloc for __libc_malloc). */
int rp__fn_named(rp_replay *rp, u64 start, const char *name);
struct rp__lines;
/* The source line of ADDR in the current process, from the DWARF line
 * table of the file mapped there (or its separate debug file on this
 * machine): *FILE its path as the table gives it (valid until rp_close)
 * and *LINE. Returns 1, or 0 when no table covers ADDR. */
int rp__src_line(rp_replay *rp, u64 addr, const char **file, u32 *line);
/* The line table of the file mapped at ADDR (NULL: none), and ADDR's ELF
 * virtual address in that file into *VADDR. */
const struct rp__lines *rp__lines_at(rp_replay *rp, u64 addr, u64 *vaddr);
/* A file's line tables (replayer/lines.c): loads those of blob HASH into
 * *OUT (NULL when it has none); finds VADDR's file and line (1, or 0). */
int rp__lines_load(rp_replay *rp, const u8 hash[32], struct rp__lines **out)
    RW_MUST_CHECK;
int rp__lines_find(const struct rp__lines *l, u64 vaddr, const char **file,
                   u32 *line);
void rp__lines_free(struct rp__lines *l);
/* ADDR of thread T's process as a person reads it, into BUF (CAP bytes):
 * "function+0xOFF (file)" with OFFSET (a function of known size; else
 * "function (file)"), "file+0xOFF" outside any function, "0xADDR"
 * outside any file. */
void rp__fn_label(rp_replay *rp, const struct rp__thread *t, u64 addr,
                  int offset, char *buf, size_t cap);

/* Whether everything written to OUT went out: 0, or RW_ERR(errno) of the
 * failed write (EIO when none is known). */
static inline int rp__written(FILE *out) {
  return fflush(out) == 0 && !ferror(out) ? 0 : RW_ERR(errno ? errno : EIO);
}

/* A hash of string S (FNV-1a), never 0: a key for struct rp__umap. */
static inline u64 rp__str_hash(const char *s) {
  u64 h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (u8)*s) * 0x100000001b3ull;
  return h | 1;
}

/* profiles (replayer/profile.c) */
/* Makes room for one more element of SIZE bytes in *V (N used, *CAP
 * allocated). Returns 0 or RW_ENOMEM. */
static inline int rp__grow(void **v, size_t n, size_t *cap, size_t size) {
  if (n < *cap) return 0;
  size_t c = *cap ? 2 * *cap : 64;
  void *nv = realloc(*v, c * size);
  if (!nv) return RW_ENOMEM;
  *v = nv;
  *cap = c;
  return 0;
}

/* The files a piece of rewind analyze -j saves its result to and its
 * parent reads back (prof_merge.c, datarange.c): N bytes at P written to
 * F, or read from F into P. Return 0, RW_ETRUNC at the file's end, or
 * the error. */
static inline int rp__fput(FILE *f, const void *p, size_t n) {
  return !n || fwrite(p, n, 1, f) == 1 ? 0 : RW_ERR(errno ? errno : EIO);
}
static inline int rp__fget(FILE *f, void *p, size_t n) {
  if (!n || fread(p, n, 1, f) == 1) return 0;
  return ferror(f) ? RW_ERR(errno ? errno : EIO) : RW_ETRUNC;
}

/* A map of u64 keys to u32 values, 0 meaning absent (replayer/umap.c).
 * Plain data; all zero is an empty map. */
struct rp__umap {
  u64 *keys;
  u32 *vals;
  size_t cap, n; /* cap: a power of 2, or 0 */
};
/* The value of K, or 0. */
static inline u32 rp__umap_get(const struct rp__umap *m, u64 k) {
  if (!m->cap) return 0;
  for (size_t i = rw_fmix64(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (!m->vals[i]) return 0;
    if (m->keys[i] == k) return m->vals[i];
  }
}
/* Adds K (absent) with V (not 0). Returns 0 or RW_ENOMEM. */
int rp__umap_put(struct rp__umap *m, u64 k, u32 v) RW_MUST_CHECK;
/* Gives K (present) the value V (not 0). */
void rp__umap_set(struct rp__umap *m, u64 k, u32 v);
void rp__umap_free(struct rp__umap *m);

/* Whether Capstone's instruction ID is a conditional branch (jcc, loop,
 * jrcxz), or another that may jump (jmp, call, ret, iret and their far
 * forms): replayer/sample.c. */
int rp__insn_is_cond(unsigned id);
int rp__insn_is_jump(unsigned id);

/* Sampled edge profiles (replayer/sample.c), fed by the profile's
 * observers. */
struct rp__sampler;
int rp__sampler_new(rp_replay *rp, const struct rp_sample_opts *o,
                    struct rp__sampler **out) RW_MUST_CHECK;
void rp__sampler_free(struct rp__sampler *s);
/* A branch of thread T, TAKEN or not (TO is then not used): a conditional
 * one when SITE is not 0 (the profile's index of its site + 1, the same
 * for every execution of that branch), a call when CALL. *STATE is the
 * thread's own (NULL at first; the sampler keeps and frees it). Failures
 * are kept for rp__sampler_err. */
void rp__sampler_branch(struct rp__sampler *s, void **state,
                        struct rp__thread *t, u64 from, u64 to, int taken,
                        u32 site, int call);
int rp__sampler_err(const struct rp__sampler *s);
int rp__sampler_report(const struct rp__sampler *s, FILE *out, size_t top,
                       int json) RW_MUST_CHECK;

/* Exact instruction counts (replayer/counts.c), fed by the profile's
 * observers. Each thread's instructions are counted by straight runs: from
 * where a taken branch (a call, a ret, a jump) or a move (below) left it
 * to the next one, each run's instructions decoded once. *STATE is the
 * thread's own (NULL at first; rp__counter_end frees it). */
struct rp__counter;
/* A taken branch at FROM to TO, N the thread's count before it; PATH the
 * call path the thread ran on since the last branch (the profile's node +
 * 1; 0: no stacks kept). */
void rp__counter_jump(struct rp__counter *c, void **state, u64 from, u64 to,
                      u64 n, u32 path);
/* The rep string instruction at AT ended after DONE iterations (each
 * counted as an instruction by the thread's count; it is one here), HOW
 * (CPU_REP_*). */
void rp__counter_rep(struct rp__counter *c, void **state, u64 at, u64 done,
                     int how);
/* Thread T goes on where its registers now say, not where its code led
 * (a signal, a syscall's return, a restart, an exec; or T starts: STATE
 * NULL): the run up to AT ends (the instruction at AT included when
 * EXECUTED, else the one before it) and one starts at T's rip. Returns 0
 * or RW_ENOMEM. */
int rp__counter_moved(struct rp__counter *c, void **state,
                      struct rp__thread *t, u64 at, int executed, u32 path)
    RW_MUST_CHECK;
/* The thread ends (or stops being observed): its last run ends where it
 * is, and *STATE is freed. */
void rp__counter_end(struct rp__counter *c, void **state, u32 path);
/* The replay's first instruction is next (END 0: the threads started so
 * far were there where it began), or it ends (END 1: the threads ended
 * from now on go on in the history after it). */
void rp__counter_bound(struct rp__counter *c, int end);
/* Turns the call paths the counter's marks saw into text while the
 * profile P that has them is there. Returns 0 or RW_ENOMEM. */
int rp__counter_paths(struct rp__counter *c, const rp_profile *p)
    RW_MUST_CHECK;
/* Data accesses (replayer/datarange.c), fed by the profile's observers:
 * an instruction at RIP of thread T, on call path PATH (as for
 * rp__counter_jump), accessed SIZE bytes at ADDR. */
void rp__data_access(rp_data *d, struct rp__thread *t, u64 rip, u64 addr,
                     u32 size, int write, u32 path);
/* The call paths D saw, as text, while the profile P that has them is
 * there. Returns 0 or RW_ENOMEM. */
int rp__data_paths(rp_data *d, const rp_profile *p) RW_MUST_CHECK;
/* Call path NODE (a node index + 1) of P as "root;...;function" into *OUT
 * (free it; NULL for node 0). Returns 0 or RW_ENOMEM. */
int rp__prof_path_text(const rp_profile *p, u32 node, char **out)
    RW_MUST_CHECK;
/* Has MEM report the accesses to D's range. */
void rp__data_watch(rp_data *d, cpu_mem *mem);
/* rp__prof_count for data accesses into D (call stacks kept when
 * STACKS). */
int rp__prof_data(rp_replay *rp, u32 tid, rp_data *d, int stacks, int whole,
                  void (*tick)(void *ctx), void *ctx, struct rp_stop *stop,
                  rp_profile **piece) RW_MUST_CHECK;
/* With rp->prof on: thread T moves, as rp__counter_moved says (nothing
 * when the profile does not count). */
void rp__prof_moved(rp_replay *rp, struct rp__thread *t, u64 at,
                    int executed);
/* Runs RP to the end of its history (WHOLE: all of it, from the first
 * keyframe, and back; TICK as the profile's) with thread TID's (0: every
 * thread's) instructions counted into C, with call stacks kept for its
 * marks when STACKS. With PIECE and STACKS, RP is a piece of a history
 * (analyze -j): the paths are nodes of the piece's call tree, which goes
 * to *PIECE (for rp_profile_tree_save; rp__prof_tree_join ties its nodes
 * to the whole's) instead of into texts. Returns 0, RW_ENOTFOUND when
 * thread TID did not run, or a negative code. */
int rp__prof_count(rp_replay *rp, u32 tid, struct rp__counter *c,
                   int stacks, int whole, void (*tick)(void *ctx), void *ctx,
                   struct rp_stop *stop, rp_profile **piece) RW_MUST_CHECK;
/* rp_profile_tree_add, with the piece's nodes as P's in *NMAP (*N of
 * them; ~0u: none; free it), for call paths counted in the piece. */
int rp__prof_tree_join(rp_profile *p, FILE *f, u32 **nmap, u64 *n)
    RW_MUST_CHECK;
/* For the call paths a piece counted (marks, accesses): with TREE, the
 * piece's call tree from F joined into *JOIN (made for thread TID at the
 * first piece), its nodes mapped in M (free M->nmap); without, nothing. */
struct rp__pjoin {
  u32 *nmap;
  u64 n;
};
int rp__prof_paths_join(rp_profile **join, u32 tid, int tree, FILE *f,
                        struct rp__pjoin *m) RW_MUST_CHECK;
/* The join's node (1-based; 0: none) for the piece's NODE into *OUT, or
 * RW_ECORRUPT for a node the piece's tree does not hold. */
int rp__prof_paths_node(const struct rp__pjoin *m, u32 node, u32 *out)
    RW_MUST_CHECK;

/* A thread starts with rp->prof on: its shadow stack starts. */
int rp__prof_thread_start(rp_replay *rp, struct rp__thread *t) RW_MUST_CHECK;
/* A thread leaves the table with rp->prof on: its frames end. */
void rp__prof_thread_end(rp_replay *rp, struct rp__thread *t);
/* A node of a profile's call tree (one per call path, the threads' paths
 * merged), for the writers outside profile.c (flame.c). Plain data; the
 * strings belong to the profile. */
struct rp__prof_node {
  u32 parent;         /* node index + 1, or 0 for a thread's root; a
                         parent's index is below its children's */
  u64 excl;           /* instructions of the path's own code */
  const char *name;   /* the function at the end of the path */
  const char *object; /* its file */
  u64 fn_incl;        /* the function's inclusive instructions and calls */
  u64 fn_calls;       /*   over the whole profile */
};
/* How many nodes P's call tree has; node I of it into *OUT (I below that
 * count). */
size_t rp__prof_nodes(const rp_profile *p);
void rp__prof_node(const rp_profile *p, size_t i, struct rp__prof_node *out);

/* the thread table (replayer/threads.c) */
/* The listed thread with TID, or NULL. */
struct rp__thread *rp__thread_find(rp_replay *rp, u32 tid);
/* Creates thread TID (THREAD_START at SEQ) with REGS, at the end of the
 * table. Returns 0 with *OUT set, or a negative code. */
int rp__thread_start(rp_replay *rp, u32 tid, u64 seq,
                     const struct rw_regs *regs, struct rp__thread **out)
    RW_MUST_CHECK;
/* Sets the AVX-512 registers in REGS from the XSTATE record X (record SEQ,
 * for the message): zero when it has none. RW_ECORRUPT when it holds
 * something else than 1600 bytes of them. */
int rp__xstate_regs(const struct trace_rec_xstate *x, u64 seq,
                    struct rw_regs *regs) RW_MUST_CHECK;
/* Takes T out of the table (its struct and cpu are kept for reuse). */
void rp__thread_remove(rp_replay *rp, struct rp__thread *t);
/* Takes every thread of rp->proc out of the table (EXEC). */
void rp__threads_drop_all(rp_replay *rp);
/* How many threads of process P are alive. */
size_t rp__threads_alive_in(const rp_replay *rp, const struct rp__proc *p);

/* processes (replayer/procs.c) */
/* Process IX (0 the root, k rp->kids[k - 1]). */
struct rp__proc *rp__proc_at(rp_replay *rp, u32 ix);
/* FORK REC of a recorded child, by a thread of rp->proc: the child as a
 * copy of rp->proc's address space, or for a vfork child (kind 1) in that
 * address space. Returns 0 with *KID the child (NULL for a child that ran
 * unrecorded), or a negative code. */
int rp__apply_fork(rp_replay *rp, const struct rp__rec *rec,
                   struct rp__proc **kid) RW_MUST_CHECK;
/* Process P stops sharing its lender's address space (a vfork child that
 * execs or ends): the mappings it saw go back to the lender. P->mem is
 * left as it was: an exec sets it to P's own space, an end keeps it (the
 * debugger at P's end still sees the memory P ended in). */
void rp__proc_unshare(struct rp__proc *p);
/* The forked process PID whose first thread has not started yet, or
 * NULL. */
struct rp__proc *rp__proc_unstarted(rp_replay *rp, u32 pid);
/* Keyframes: the kids' address spaces into KF, and back. */
int rp__procs_capture(rp_replay *rp, struct rp__kf *kf) RW_MUST_CHECK;
/* The kid PID of the FORK record at SEQ, made (not existing yet) if there
 * is none. (A keyframe's state forks every process at one SEQ.) */
int rp__proc_of_fork(rp_replay *rp, u64 seq, u32 pid, struct rp__proc **out)
    RW_MUST_CHECK;
int rp__procs_restore(rp_replay *rp, const struct rp__kf *kf) RW_MUST_CHECK;
void rp__procs_free(rp_replay *rp);
/* Takes the dead threads that are still listed out of the table. */
void rp__threads_purge(rp_replay *rp);
void rp__threads_free(rp_replay *rp);
/* Creates a first (spare) thread, so that an emulator that cannot run on
 * this host is found at rp_open. Returns 0 or a negative code. */
int rp__threads_init(rp_replay *rp) RW_MUST_CHECK;
/* Copies the table into KF (threads, nthreads, cur_tid, cur_index). */
int rp__threads_capture(rp_replay *rp, struct rp__kf *kf) RW_MUST_CHECK;
/* Makes the table exactly KF's threads. */
int rp__threads_restore(rp_replay *rp, const struct rp__kf *kf)
    RW_MUST_CHECK;
/* The thread KF holds with the same identity as T, or NULL. */
const struct rp__kthread *rp__kf_thread(const struct rp__kf *kf,
                                        const struct rp__thread *t);

/* A CPUID record: noted once, whatever runs apply it again (replay.c).
 * Returns 0 or a negative code. */
int rp__apply_cpuid(rp_replay *rp, const struct rp__rec *rec) RW_MUST_CHECK;
/* The CPUID record F (its sequence number, leaf, subleaf, eax to edx)
 * noted once, from a record or the index's log. Returns 0 or RW_ENOMEM. */
int rp__cpuid_note(rp_replay *rp, const struct rp__cpuid_fix *f)
    RW_MUST_CHECK;

/* progress (replayer/replay.c) */
void rp__progress(rp_replay *rp, int final);

/* Recorder keyframes (replayer/segment.c): rp__segment_begin makes the
 * history begin at keyframe rp->opts.start_keyframe; rp__segment_next
 * reads the history's next record into R (that keyframe's records first,
 * none from rp_opts.end_seq on): 1, 0 at the end, or a negative code with
 * DIAG; rp__segment_close frees what it read. */
int rp__segment_begin(rp_replay *rp, struct rw_diag *diag) RW_MUST_CHECK;
/* 1 when the trace's records begin at its first recorder keyframe (a ring
 * recording whose first segments were dropped): its history begins
 * there. */
int rp__segment_first(rp_replay *rp);
int rp__segment_next(rp_replay *rp, struct trace_record *r,
                     struct rw_diag *diag) RW_MUST_CHECK;
void rp__segment_close(rp_replay *rp);
/* rp_open with DONOR (may be NULL): a replay of the same trace whose pages
 * a keyframe's state may take (struct rp__prov). */
int rp__open(rp_replay **out, const char *path, const struct rp_opts *opts,
             rp_replay *donor, struct rw_diag *diag) RW_MUST_CHECK;
/* The MEM_FROM M of a state being loaded, noted (rp->prov.collect).
 * Returns 0 or RW_ENOMEM. */
int rp__prov_note(rp_replay *rp, const struct trace_rec_mem_from *m)
    RW_MUST_CHECK;
/* A record of TYPE applied while a state loads: unless it is one that
 * cannot change memory, the notes of rp->proc before it no longer say
 * what its pages hold. */
void rp__prov_seen(rp_replay *rp, u32 type);
/* Makes the page at PAGE of rp->proc hold the donor's page when it holds
 * the bytes M puts there: 1 done, 0 not (read it), or RW_ENOMEM. */
int rp__prov_take(rp_replay *rp, const struct trace_rec_mem_from *m,
                  u64 page) RW_MUST_CHECK;
/* The state loaded: its notes sorted, and the replay keyframe at the
 * current position (taken already) made their reference. */
void rp__prov_seal(rp_replay *rp);

#endif /* RW_REPLAYER_RP_INT_H */
