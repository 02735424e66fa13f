/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of recorder/ and its unit tests: the
 * recording state, the syscall table, /proc maps, memory imports, and the
 * record encoders. Nothing outside recorder/ and tests/recorder/ includes it
 * (STYLE R1). */
#ifndef RW_RECORDER_REC_INT_H
#define RW_RECORDER_REC_INT_H

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "common/digest.h"
#include "common/regs.h"
#include "common/rw.h"
#include "format/format.h"
#include "recorder/recorder.h"

/* MAP record flags (format/records.def, TRACE_MAP_FLAG). */
enum {
#define TRACE_REC(id, NAME, name, fields, doc)
#define TRACE_MAP_FLAG(bit, name, doc) REC_MAPF_##name = (bit),
#include "format/records.def"
#undef TRACE_MAP_FLAG
#undef TRACE_REC
};

/* clone flags (linux/sched.h) the recorder looks at. */
#define REC_CLONE_VM 0x100ull
#define REC_CLONE_FILES 0x400ull
#define REC_CLONE_PIDFD 0x1000ull
#define REC_CLONE_VFORK 0x4000ull
#define REC_CLONE_THREAD 0x10000ull
#define REC_CLONE_PARENT_SETTID 0x100000ull
#define REC_CLONE_CHILD_CLEARTID 0x200000ull
#define REC_CLONE_UNTRACED 0x800000ull
#define REC_CLONE_CHILD_SETTID 0x1000000ull

#define REC_LINE 64u    /* memory imports are kept in cache lines */
#define REC_PAGE 4096u

/* ------------------------------------------------------------ ranges */

/* A list of address ranges (memory the kernel wrote). */
struct rec__range {
  u64 addr, len;
};
struct rec__ranges {
  struct rec__range *v;
  size_t n, cap;
};
/* Appends [ADDR, ADDR+LEN) unless LEN is 0 or ADDR is 0. Returns 0 or
 * RW_ENOMEM. */
int rec__ranges_add(struct rec__ranges *rs, u64 addr, u64 len) RW_MUST_CHECK;
void rec__ranges_free(struct rec__ranges *rs);

/* Reads LEN bytes of the tracee at ADDR into DST; returns the number of bytes
 * read (less at an unreadable page) or a negative code. */
typedef i64 (*rec__read_fn)(void *ctx, u64 addr, void *dst, size_t len);

/* ------------------------------------------------------- syscall table */

/* How one output buffer of a syscall is found (common/syscalls.def). */
enum rec__out_kind {
  REC_OUT_NONE,
  REC_OUT_FIXED,   /* arg[a] points at n bytes */
  REC_OUT_RET,     /* arg[a] points at result bytes */
  REC_OUT_ARGLEN,  /* arg[a] points at arg[b] bytes */
  REC_OUT_RETMUL,  /* arg[a] points at result * n bytes */
  REC_OUT_ARGMUL,  /* arg[a] points at arg[b] * n bytes */
  REC_OUT_LENPTR,  /* arg[a] points at *(u32 *)arg[b] bytes; arg[b] at 4 */
  REC_OUT_IOV,     /* arg[a] is an iovec array of arg[b] entries, filled in
                      order with result bytes */
  REC_OUT_FDSET,   /* arg[a] is an fd_set of arg[b] (nfds) bits */
  REC_OUT_CUSTOM   /* decided by code in recorder/systable.c */
};

/* Output flags. */
#define REC_OUTF_ONERR 1u /* written even when the syscall fails */

struct rec__out {
  u8 kind;  /* enum rec__out_kind */
  u8 a, b;  /* argument indexes */
  u8 flags; /* REC_OUTF_* */
  u32 n;    /* a size or multiplier */
};

/* Syscall flags. */
#define REC_SC_KNOWN 0x1u    /* outputs are described by the table */
#define REC_SC_MAPS 0x2u     /* may change the address space */
#define REC_SC_DIFF 0x4u     /* effects found by diffing writable memory */
#define REC_SC_WARN 0x8u     /* effects rewind cannot reproduce: warn */
#define REC_SC_FPREGS 0x10u  /* changes FP/SSE registers (re-read at exit) */
#define REC_SC_CUSTOM 0x20u  /* has code in systable.c */

struct rec__sc {
  const char *name;       /* NULL for a number that is not a syscall */
  u32 flags;              /* REC_SC_* */
  struct rec__out out[3]; /* output buffers */
};

#define REC_NSYSCALLS 512

/* Syscall numbers by name: REC_NR_read, ... */
enum rec__nr {
#define REC_SYSCALL(nr, name, flags, o1, o2, o3) REC_NR_##name = nr,
#include "common/syscalls.def"
#undef REC_SYSCALL
};

/* The table row of syscall NR, or NULL when NR is not a known syscall. */
const struct rec__sc *rec__sc_lookup(u64 nr);
/* The name of syscall NR ("read"), or NULL. */
const char *rec__sc_name(u64 nr);
/* The number of the syscall named NAME, or -1. */
int rec__sc_number(const char *name);

/* Decides at syscall entry whether NR with ARGS needs the generic memory
 * diff (not in the table, or an argument the table does not know, such as an
 * unknown ioctl request). RD/CTX read tracee memory (clone3's arguments). */
int rec__sc_needs_diff(u64 nr, const u64 args[6], rec__read_fn rd, void *ctx);

/* Appends to OUT the ranges syscall NR with ARGS wrote when it returned
 * RESULT. RD/CTX read tracee memory (iovecs, socklen_t values). Returns 0 or
 * RW_ENOMEM. Ranges may be larger than what was written: importing unchanged
 * bytes is harmless. */
int rec__sc_outputs(u64 nr, const u64 args[6], i64 result, rec__read_fn rd,
                    void *ctx, struct rec__ranges *out) RW_MUST_CHECK;

/* -------------------------------------------------------- /proc maps */

/* One line of /proc/PID/maps. */
struct rec__map {
  u64 start, end; /* [start, end) */
  u64 offset;     /* file offset */
  u64 ino;        /* inode (0: anonymous) */
  u32 dev;        /* major << 20 | minor, as printed */
  u32 prot;       /* PROT_* */
  u32 flags;      /* REC_MAPF_* */
  char *path;     /* owned; "" for anonymous */
};
/* Mappings in address order (recorder/maplist.c: a skip list). Zeroed is
 * empty. */
#define REC_MAPS_LEVELS 12
struct rec__mnode;
struct rec__maps {
  struct rec__mnode *head[REC_MAPS_LEVELS]; /* first node at each level */
  size_t n;                                 /* entries */
  unsigned level;                           /* levels in use */
  u64 seed;                                 /* for the nodes' heights */
};

/* Parses LEN bytes of /proc/PID/maps text at TEXT into OUT (emptied first).
 * Returns 0, RW_ECORRUPT naming nothing (a malformed line), or RW_ENOMEM. */
int rec__maps_parse(const char *text, size_t len, struct rec__maps *out)
    RW_MUST_CHECK;
/* Reads /proc/PID/maps into OUT. Returns 0 or a negative code. */
int rec__maps_read(pid_t pid, struct rec__maps *out) RW_MUST_CHECK;
/* The mapping that holds ADDR in PID, as its line of /proc/PID/maps would
 * say (OUT's path is malloc'd), from the kernel's PROCMAP_QUERY, without
 * reading the others. Returns 0; RW_EUNSUPPORTED on a kernel without it;
 * RW_ENOTFOUND when nothing is there or the line would differ (a name
 * with a newline); or another negative code. */
int rec__maps_query(pid_t pid, u64 addr, struct rec__map *out) RW_MUST_CHECK;
void rec__maps_free(struct rec__maps *m);
/* Moves SRC into DST (DST's old contents are freed; SRC becomes empty). */
void rec__maps_move(struct rec__maps *dst, struct rec__maps *src);

/* Walking a list in address order. Pointers stay valid until the list is
 * changed. rec__maps_find(): the entry holding ADDR; rec__maps_from(): the
 * first entry that ends above ADDR; both NULL when there is none. */
const struct rec__map *rec__maps_find(const struct rec__maps *m, u64 addr);
const struct rec__map *rec__maps_from(const struct rec__maps *m, u64 addr);
const struct rec__map *rec__maps_first(const struct rec__maps *m);
const struct rec__map *rec__maps_next(const struct rec__maps *m,
                                      const struct rec__map *e);
size_t rec__maps_count(const struct rec__maps *m);
/* E (an entry of M) for changing fields other than its range. */
struct rec__map *rec__maps_mut(struct rec__maps *m, const struct rec__map *e);

/* Changing a list the way the kernel changes the address space, for the
 * recorder's model of it (recorder/follow.c). Entries of anonymous memory
 * that end up next to an entry alike in every field are merged with it;
 * file mappings keep the kernel's boundaries. Each returns 0, RW_ENOMEM or
 * RW_ECORRUPT (rec__maps_append given an entry below the last one).
 * rec__maps_append() takes ownership of E's path; rec__maps_insert() copies
 * E into the range [E->start, E->end), which must be free;
 * rec__maps_remove() takes [A, B) out, cutting entries that straddle its
 * ends; rec__maps_protect() gives every mapped byte of [A, B) PROT. */
int rec__maps_append(struct rec__maps *m, struct rec__map *e) RW_MUST_CHECK;
int rec__maps_insert(struct rec__maps *m, const struct rec__map *e)
    RW_MUST_CHECK;
int rec__maps_remove(struct rec__maps *m, u64 a, u64 b) RW_MUST_CHECK;
int rec__maps_protect(struct rec__maps *m, u64 a, u64 b, u32 prot)
    RW_MUST_CHECK;
/* 1 when the file-backed mapping M's contents come from a file (a mapping
 * of a regular file, memfd included); 0 for anonymous, shared memory and
 * special mappings. */
int rec__map_is_file(const struct rec__map *m);

/* What rec__maps_diff() reports, range by range, in address order. */
struct rec__maps_ops {
  int (*unmap)(void *ctx, u64 a, u64 b);
  int (*map)(void *ctx, const struct rec__map *m, u64 a, u64 b);
  int (*protect)(void *ctx, u64 a, u64 b, u32 prot);
};
/* Compares OLD with NEW and reports what changed, except inside the NSKIP
 * ranges SKIP (already described by the caller). A range whose mapping was
 * replaced (another file, offset or sharing) is reported as map. Returns 0 or
 * the first negative code of a callback. */
int rec__maps_diff(const struct rec__maps *old_maps,
                   const struct rec__maps *new_maps,
                   const struct rec__range *skip, size_t nskip,
                   const struct rec__maps_ops *ops, void *ctx) RW_MUST_CHECK;

/* ------------------------------------------------------------- auxv */

#define REC_AT_NULL 0
#define REC_AT_IGNORE 1
#define REC_AT_SYSINFO_EHDR 33

/* Removes every entry of TYPE from the auxiliary vector V of N (type, value)
 * pairs ending at an AT_NULL; the tail is shifted down and the freed pairs are
 * filled with AT_NULL. Returns the number of entries removed. */
size_t rec__auxv_remove(u64 *v, size_t n, u64 type);
/* The number of pairs up to and including the AT_NULL entry, or 0 when V (N
 * pairs) has none. */
size_t rec__auxv_len(const u64 *v, size_t n);

/* ------------------------------------------------------------ cpuid */

struct rec;

/* One cpuid answer. Subleaf REC_CPUID_ANY: the leaf ignores ecx. */
struct rec__cpuid {
  u32 leaf, subleaf, eax, ebx, ecx, edx;
};
#define REC_CPUID_ANY 0xffffffffu

/* Executes cpuid(LEAF, SUBLEAF) on this CPU. */
void rec__cpuid_exec(u32 leaf, u32 subleaf, u32 out[4]);
/* Collects the cpuid table of the CPU this thread runs on into *OUT (owned
 * by the caller, free()) and its count into *N. Returns 0 or RW_ENOMEM. */
int rec__cpuid_table(struct rec__cpuid **out, size_t *n) RW_MUST_CHECK;
/* Encodes N entries as TRACE_META_CPUID (24 bytes each) into DST
 * (caller-owned, N * 24 bytes). */
void rec__cpuid_encode(const struct rec__cpuid *t, size_t n, u8 *dst);
/* Reads again the fields of R's cpuid table that name the CPU this runs
 * on (APIC IDs, core type), which a hypervisor that moves it between
 * physical CPUs changes, and writes a CPUID record in thread TID's stream
 * for each entry that changed. Returns 0 or a negative code. */
int rec__cpuid_recheck(struct rec *r, u32 tid) RW_MUST_CHECK;
/* Writes a CPUID record in thread TID's stream for each entry of R's
 * cpuid table that differs from the trace's metadata (a keyframe's
 * state). Returns 0 or a negative code. */
int rec__cpuid_state(struct rec *r, u32 tid) RW_MUST_CHECK;
/* Pins this process to one CPU: the one it runs on when allowed, else the
 * first allowed. Sets *OTHERS to the other allowed CPUs below 64 (bit N
 * for CPU N), where the trace writer's thread can run. Returns the CPU
 * number or a negative code. */
int rec__pin_cpu(u64 *others) RW_MUST_CHECK;

/* ------------------------------------------------------ environment */

/* What --cpu-features hides (cpufeat.c): glibc's hwcaps item (rewind's
 * own -XSAVEC included), the OPENSSL_ia32cap bits to clear (none: the
 * variable is not set) and the names hidden, for messages. */
struct rec__cpu_mask {
  char hwcaps[512];
  char hidden[512];
  u64 ossl[2];
};
/* Fills M for the --cpu-features SPEC (NULL: hide nothing). Returns 0 or
 * RW_EINVAL for a SPEC rec_cpu_features_check refuses. */
int rec__cpu_mask_build(const char *spec, struct rec__cpu_mask *m)
    RW_MUST_CHECK;

/* The environment PROG gets: ENVP (borrowed) with GLIBC_TUNABLES and,
 * when M hides some of its features or the user set it, OPENSSL_ia32cap,
 * as man/rewind-record.1 describes. *OUT is a NULL-terminated array owned
 * by the caller (rec__env_free); *APPLIED (owned, free()) is the text for
 * TRACE_META_TUNABLES. Returns 0 or RW_ENOMEM. */
int rec__env_build(char *const *envp, const struct rec__cpu_mask *m,
                   char ***out, char **applied) RW_MUST_CHECK;
/* Whether ENVP already carries rewind's settings for M (as PROG's did). */
int rec__env_is_ours(char *const *envp, const struct rec__cpu_mask *m);
void rec__env_free(char **env);
/* The glibc hwcaps and OpenSSL masks rewind applies, for messages/tests. */
extern const char rec__hwcaps_off[];

/* ---------------------------------------------------------- launch */

/* What rec__launch_check() learned about PROG. */
struct rec__prog {
  char path[4096]; /* the file execve runs */
  int script;      /* 1: starts with #! (or is run through /bin/sh) */
  int via_sh;      /* 1: not ELF and no #!: run as "/bin/sh PATH ARGS" */
  int setid;       /* 1: setuid/setgid bit that ptrace will ignore */
  int vsyscall;    /* 1: install the vsyscall filter (vsyscall.c) */
  int sbuf;        /* 1: install the syscall buffer's filter instead
                      (sbuf.c), which covers the vsyscall page too */
};

/* Finds ARGV0 like a shell (PATH search when it has no '/') and checks that
 * it can run: an x86-64 ELF, or a script. Prints the refusal itself. Returns
 * 0 or RW_ENOTFOUND, -EACCES, RW_EUNSUPPORTED. */
int rec__launch_check(const char *argv0, struct rec__prog *prog)
    RW_MUST_CHECK;
/* Starts PROG (ARGV, ENVP borrowed) as a seized tracee stopped at its
 * PTRACE_EVENT_EXEC, with rdtsc trapped. Prints the refusal itself. Returns
 * the pid, or -EPERM (ptrace refused or PROG already traced), or another
 * negative code (exec failed: the errno of execve). */
int rec__launch(const struct rec__prog *prog, char *const *argv,
                char *const *envp) RW_MUST_CHECK;

/* ------------------------------------------------------ the recording */

/* Where a thread of PROG is, as the scheduler sees it (recorder/loop.c).
 * Only the current thread runs user code; the others are stopped by ptrace
 * or inside a syscall in the kernel. */
enum rec__tstate {
  REC_T_READY = 1, /* in a ptrace stop, ready to run (has_pend: a stop that
                      is still to be handled) */
  REC_T_RUNNING,   /* the current thread, resumed */
  REC_T_KERNEL,    /* resumed inside a syscall that may block (or in a
                      group stop): its next stop is pending until scheduled */
  REC_T_GONE,      /* dead (exit_written: its EXIT is in the trace) */
  REC_T_NEW        /* its first stop came before its parent's clone event:
                      not started yet */
};

struct rec__proc;

/* The pages of keyframes, each stored once (recorder/kfmem.c): what the
 * recorder remembers of the pages it stored, and the keyframe being made. */
struct rec__kfpage {
  u64 fp[2]; /* fingerprint of the page's bytes */
  u64 off;   /* where pack PACK holds them */
  u32 pack;  /* index in rec__kfmem.packs */
  u32 used;  /* 1: a slot in use */
};
struct rec__kfmemo { /* open addressing on the fingerprint */
  struct rec__kfpage *v;
  size_t cap, n;
};
struct rec__kfrun { /* [addr, addr + len) is pack PACK's bytes at OFF */
  u64 addr, len, off;
  u32 pack;
};
struct rec__kfpend { /* a pack made, to store */
  u8 *buf;
  size_t len;
  u8 hash[32];
  char name[80];
};
struct rec__kfmem {
  struct rec__kfmemo memo, next; /* the last keyframe's pages; this one's */
  u8 *pack;                      /* this keyframe's new pages */
  size_t len, cap;
  struct rec__kfrun *runs;       /* this keyframe's MEM_FROM, to write */
  size_t nruns, caprun;
  u8 (*packs)[32];               /* the blobs of the packs made */
  size_t npacks, cappack;
  struct rec__kfpend *pend;      /* this keyframe's packs, to store */
  size_t npend, cappend;
  int active;                    /* 1: a keyframe is being made */
  u64 reused, stored;            /* bytes named again; bytes stored */
};

/* Full keyframes (recorder/keyframe.c): every --keyframes seconds, once
 * every thread stands where a history can begin, the state of the
 * process is written as the records a history starts with, into a trace
 * of their own stored as a blob, named by a TRACE_KF_RECORDER keyframe. */
struct rec__kfs {
  u64 interval_ns; /* 0: none */
  u64 next_ns;     /* the next one is due then */
  int due;         /* 1: due; the threads are brought to a stop for it */
  int unpatch;     /* 1: memory reads show the bytes under rdtsc patches */
  int said;        /* 1: the note on what stops keyframes is written */
  u64 count, bytes, ns; /* written so far: keyframes, blob bytes, time */
  u64 waits;       /* keyframes put off because a thread was busy */
  u64 start_ns;    /* when recording began */
  u64 due_ns;      /* when the one due became due */
  u64 put_off;     /* times one was due and was put off for time */
  int said_time;   /* 1: the note on putting them off is written */
  int off;         /* 1: one failed; none any more */
  struct rec__kfmem mem; /* their pages (recorder/kfmem.c) */
};

/* The flight recorder (recorder/ring.c, rewind record --ring). */
struct rec__ring {
  u64 bytes;             /* SIZE; 0: not a ring */
  char out[4096];        /* the trace the segments are joined into */
  u32 first, n;          /* the oldest segment kept, the current one */
  u64 dropped, dropped_bytes; /* segments deleted, and their bytes */
  size_t nb0, base0;     /* the blob memo before the next segment began */
  u64 seg_base;          /* the current segment's size after its keyframe:
                            history beyond it counts towards the next */
  struct trace_writer_opts wo;
};

/* A thread inside a syscall, as a keyframe shows it: its registers at the
 * entry with the FP/SSE/AVX state read, and its XSAVE state. */
struct rec__kfentry {
  struct rw_regs regs;
  u32 xinuse;
  int has_x;
  u8 x[1600];
};

/* One thread of a recorded process. */
struct rec__task {
  pid_t tid;
  struct rec__proc *proc; /* its process (the address space it runs in) */
  int state;            /* enum rec__tstate */
  int has_pend;         /* a stop of this thread waits to be handled */
  int pend_status;      /* its wait status */
  int rsig, rstep;      /* how to resume it: signal to inject, single-step */
  int interrupted;      /* PTRACE_INTERRUPT sent, and no stop seen since */
  int exit_written;     /* its EXIT record is in the trace */
  int at_exit;          /* killed by a signal, at or past its
                           PTRACE_EVENT_EXIT */
  int exit_held;        /* held at that stop until every thread of its
                           process is there (or for REC_SEC / 4 at most,
                           from HELD_NS) */
  u64 held_ns;
  u64 slice_start_ns;   /* the slice clock when it last began running
                           user code */
  u64 ctid;             /* clear_child_tid address, 0 if none */
  u64 exit_sp;          /* its stack pointer at exit (the syscall), when
                           it ended that way; else 0 */
  pid_t new_child;      /* a thread its clone created, started at the exit */
  char name[16];        /* comm as last recorded */
  int in_syscall;       /* between syscall-entry and syscall-exit stops */
  int skip_exit;        /* the next syscall exit is not recorded (first exec) */
  u64 nr;               /* syscall being executed */
  u64 args[6];          /* its arguments */
  u64 eff_nr;           /* the syscall whose effects it has: NR, or for
                           restart_syscall the one it continues */
  int rs_valid;         /* 1: the last syscall returned -516
                           (ERESTART_RESTARTBLOCK): a restart_syscall
                           continues RS_NR with RS_ARGS */
  u64 rs_nr, rs_args[6];
  u32 sc_flags;         /* REC_SC_* for this call (dynamic) */
  u8 own_seccomp;       /* 1: the program gave it a seccomp filter */
  u8 own_nnp;           /* 1: the program set its no_new_privs */
  int tsc_mode;         /* what PR_GET_TSC tells the thread (0: never set,
                           PR_TSC_ENABLE); rewind traps rdtsc itself */
  int fake;             /* 1: the syscall was skipped; result fake_result */
  u8 untraced_off;      /* 1: CLONE_UNTRACED taken out of the flags at
                           entry; put back at exit */
  i64 fake_result;
  int snap;             /* 1: a generic-diff snapshot was taken at entry */
  u8 *env_save;         /* execve given rewind's environment: the stack
                           bytes it overwrote (owned), restored if it fails */
  u64 env_at, env_len;  /* where and how many */
  int env_reg;          /* the argument register replaced (RW_REG_*) */
  u64 env_orig;         /* its original value */
  int fp_valid;         /* 1: entry.fxsave/ymmh were read at this syscall */
  int step_signo;       /* signal being delivered by single-step, or 0 */
  u8 step_info[128];    /* its siginfo */
  int sync_signo;       /* last synchronous fault signal delivered */
  u64 mask_seen;        /* its signal mask when the recorder last read it */
  int mask_seen_ok;     /*   (since exec), if nothing may have changed it */
  int fatal_signo;      /* a fault signal passed on to kill the thread, */
  u64 fatal_rip;        /*   and where: it did not when it comes again */
  u64 rseq_ptr;         /* rewind record -p: the rseq area rewind
                           unregistered (0: none), its size and signature,
                           registered again at the detach */
  u32 rseq_len, rseq_sig;
  u64 rseq_live;        /* rewind record -p of a process with a seccomp
                           filter: the rseq area left registered (the
                           kernel writes it), imported when it changed */
  u8 rseq_seen[32];     /* its bytes as the trace has them */
  u64 detach_mask;      /* its signal mask, while rewind record -p blocks
                           all (attaching, detaching); detach_masked: now */
  int detach_masked;
  struct rw_regs entry; /* registers at syscall entry */
  struct rec__kfentry *kfe; /* with keyframes: the entry of the syscall it
                               blocks in, whole (owned) */
  int kfe_ok;           /* 1: kfe is this syscall's */
  struct rw_regs regs;  /* scratch: registers at the current stop */
};

/* A generic-diff snapshot: a hash per cache line of each writable range. */
struct rec__snap_region {
  u64 start, end;
  u64 *hash; /* (end - start) / REC_LINE entries; owned */
};
struct rec__snap {
  struct rec__snap_region *v;
  size_t n, cap;
};

struct rec__blob {
  u64 dev, ino, size, mtime_ns;
  u8 hash[32];
};

/* A blob stored by this recording that the blob cache (blobs.c) did not
 * have: its hash, and the key of its cache entry (owned). */
struct rec__cached {
  u8 hash[32];
  u8 *key;
  size_t klen;
};

/* A file or shared memory object behind mappings (recorder/files.c); its
 * number in MAP and RESIZE records is its index + 1. */
struct rec__obj {
  u32 dev;   /* as in struct rec__map */
  u64 ino;
  u64 sdev, sino; /* as stat reports them (overlayfs may differ) */
  u64 size;  /* size as last recorded (~0: unknown) */
  int dirty; /* 1: changed while mapped; its blob must be read again */
  int noblob; /* 1: mapped without a blob (too large, or mostly holes):
                 its bytes are in MEM records */
};

/* Kinds of the instructions the recorder answers: the kind field of an
 * RDTSC record and of a patch (format/records.def, TRACE_RDTSC_KIND). */
enum {
#define TRACE_REC(id, NAME, name, fields, doc)
#define TRACE_RDTSC_KIND(v, NAME, name, doc) REC_ND_##NAME = (v),
#include "format/records.def"
#undef TRACE_RDTSC_KIND
#undef TRACE_REC
};

/* An rdtsc, rdtscp, rdrand, rdseed or xbegin replaced by int3
 * (tscpatch.c). */
struct rec__tscp {
  u64 addr;   /* the instruction */
  u64 target; /* xbegin: its fallback address */
  u8 kind;    /* REC_ND_* */
  u8 orig;    /* its first byte */
  u8 len;     /* its length */
  u8 reg;     /* rdrand/rdseed: the destination register (RW_REG_*) */
  u8 osz;     /* rdrand/rdseed: its size, 2, 4 or 8 */
};

/* A range of a file scanned for the instructions above (tscpatch.c): the
 * blob, its offset and length, and its sites in struct rec's tscsites. */
struct rec__tscfile {
  u8 hash[32];
  u64 off, len;
  size_t first, n;
};

/* One recorded process: its address space and what belongs to it. The
 * first is struct rec's root; the processes it and its descendants fork
 * are in struct rec's procs (recorder/procs.c). */
/* A function of the vDSO that rewind patched (recorder/vdso.c): where,
 * and the syscall it makes. */
struct rec__vfn {
  u64 addr;
  int nr;
};
#define REC_VFN_MAX 16 /* each function has two names */

/* The syscall buffer of an address space (recorder/sbuf.c). */
/* A glibc syscall site that jumps to the syscall buffer (recorder/sbuf.c):
 * its address and the 5 bytes it had. */
struct rec__sbsite {
  u64 addr;
  u64 post; /* a `syscall; cmp` site: where its stub has the cmp (a
               thread back right after the site's syscall is moved past
               the site's cmp instead, rec__sb_exit); else 0 */
  u8 n;     /* bytes replaced: 5 (the mov of `mov eax, NR; syscall`) or 8 */
  u8 orig[8];
};
#define REC_SB_SITES 256
#define REC_SB_STUBPAGES 8

/* The pages written since the last digest (recorder/wp.c). Zeroed is
 * off. */
struct rec__wp {
  int on;               /* 1: UFFD is the process's userfaultfd, usable */
  int armed;            /* 1: digests use it (the memory is large) */
  u64 full_pages;       /* pages the last full digest read */
  int uffd;             /* the recorder's copy of it */
  u64 (*keep)[2];       /* address (bit 0: all zeros) and lanes of each page
                           hashed at the last digest, by address */
  size_t nkeep, capkeep;
  u64 (*next)[2];       /* the same, being built by the current digest */
  size_t nnext, capnext;
  size_t at;            /* where the current digest is in KEEP */
  u32 rest;             /* digests left that do not protect pages again */
  u32 backoff;          /* the last REST given */
  u64 digests;          /* digests taken this way */
  u64 present, read, kept; /* pages of the current digest: present, read
                              from the process, taken from KEEP */
};

struct rec__sb {
  int mapped; /* 1: the library is mapped, and the vDSO jumps to it */
  int on;   /* 1: the ring is drained (0: the library was told to make
               every syscall stop, or is gone) */
  u64 tail; /* bytes of the ring read so far (its header's HEAD then) */
  int early;   /* 1: the record at EARLY_AT (a HEAD) was written before */
  u64 early_at; /* the library committed it */
  u64 stub[REC_SB_STUBPAGES]; /* pages of stubs for the patched sites */
  u32 stub_used[REC_SB_STUBPAGES]; /* bytes used in each */
  u32 nstub;
  int nopatch;                /* 1: no more sites are patched */
  int want_busy;              /* 1: set the library's BUSY after this stop's
                                 records (rec__sb_settle) */
  int nofds;                  /* 1: descriptors are never classified */
  int want_nofds;             /* 1: rec__sb_no_fds at the next resume */
  int moved;                  /* 1: rec__sb_exit moved the thread to a stub */
  u64 pend_site;              /* a `syscall; cmp` site whose stub is written
                                 and whose bytes are to be (rec__sb_patch) */
  u64 pend_stub, pend_post;
  u8 pend_orig[8];
  u64 unfit[64];              /* return addresses of syscall sites found
                                 not fit to patch (by a hash of each) */
  u32 nsites;
  struct rec__sbsite sites[REC_SB_SITES];
};

/* What the program last asked for a signal the kernel forces at one of
 * rewind's traps (recorder/forced.c). */
enum { REC_DISP_DFL = 0, REC_DISP_IGN, REC_DISP_CAUGHT };
struct rec__sigdisp {
  int kind;   /* REC_DISP_* */
  u64 act[4]; /* its struct sigaction as the kernel takes it: handler,
                 flags, restorer, mask */
};

struct rec__proc {
  pid_t pid;                  /* the recorded process */
  int gone;                   /* 1: it ended; its threads' EXITs are in
                                 the trace */
  pid_t live;                 /* a live thread of it, for /proc and memory
                                 access (the leader may be gone before) */
  int memfd;                  /* /proc/PID/mem, -1 when closed */
  int pagemap_fd;             /* /proc/PID/pagemap, -2 not opened yet, -1
                                 when PAGEMAP_SCAN does not work */
  int dying;                  /* exit_group or a fatal signal: every thread
                                 is on its way out */
  int digested;               /* its DIGEST is written, or KILLED taken */
  struct rw_digest_spec *killed; /* a process not the first that a signal
                                 kills: its digest's spec, taken at its
                                 first thread's exit event, for the EXIT
                                 that ends it (owned; NULL: none) */
  u64 killed_digest;
  int fork_advice;            /* madvise DONTFORK or WIPEONFORK was given
                                 (here, or before a fork that made it): a
                                 child it forks does not get all of it */
  int guest_code;             /* 1: the image is valgrind's, which reads
                                 the code it maps later as data and never
                                 runs it: no patches there (tscpatch.c) */
  u8 comm_fds[1024 / 8];      /* descriptors open on a /proc/.../comm file */
  struct rec__maps *maps;     /* the address space the trace describes:
                                 &MAPS_OWN, or a vfork parent's, which its
                                 recorded vfork child shares until it
                                 execs or ends (one model: each change is
                                 recorded once, by the thread that made
                                 it) */
  struct rec__maps maps_own;
  u64 brk;                    /* the program break as brk last returned
                                 it; 0: not known since the exec */
  int read_exec;              /* the READ_IMPLIES_EXEC personality: mappings
                                 get PROT_EXEC the syscall did not ask */
  pid_t *sharers;             /* processes that may share the address space
                                 unrecorded (CLONE_VM children); owned */
  size_t nsharers, capsharers;
  int sharers_left;           /* 1: the last sharer went since the maps
                                 were last read */
  struct rec__snap snap;      /* generic-diff snapshot */
  struct rec__snap watch;     /* shared memory unrecorded children may
                                 write (recorder/watch.c) */
  u64 watch_bytes;            /* its size */
  int watch_all;              /* 1: private writable memory is watched too,
                                 while a sharer runs alongside */
  u64 stack_limit;            /* RLIMIT_STACK as last written (~0: none) */
  int stack_rules_written;    /* 1: a STACK_RULES is in the trace */
  int stack_warned;           /* 1: the limit could not be read, noted */
  int hide_seccomp;           /* 1: PR_GET_SECCOMP answers 0 in a thread
                                 whose only filter is rewind's (see
                                 vsyscall.c, own_seccomp) */
  int hide_nnp;               /* 1: PR_GET_NO_NEW_PRIVS answers 0 in a
                                 thread that did not set it (own_nnp) */
  int procmem_seen;           /* 1: a descriptor of the process's own
                                 /proc/PID/mem was seeked into its mappings
                                 or written at one (files.c) */
  u64 attach_mask[16];        /* -p: its CPU affinity before rewind pinned
                                 it (a cpu_set_t), given back at the end;
                                 a fork's is its parent's */
  int attach_mask_ok;
  int final_status;           /* the leader's wait status, seen early */
  int final_seen;
  struct rec__tscp *tscp;     /* patched instructions, sorted by addr */
  size_t ntscp, captscp;
  struct rec__vfn vfn[REC_VFN_MAX]; /* the vDSO's patched functions */
  u32 nvfn;
  struct rec__wp wp;          /* its written pages (recorder/wp.c) */
  struct rec__sb sb_own;      /* the syscall buffer of its address space */
  struct rec__sb *sb;         /* &SB_OWN, or a vfork parent's (as maps) */
  int sb_fullstop;            /* 1: it installed a seccomp filter of its
                                 own: every syscall stops (PTRACE_SYSCALL),
                                 whatever rewind's filter says */
  struct rec__sigdisp forced[2]; /* SIGSEGV's and SIGTRAP's */
};

struct rec {
  trace_writer *w;            /* the trace being written; owned */
  struct rec__cpuid *cpuid_meta; /* the cpuid table, as the trace's
                                 metadata holds it; owned */
  struct rec__cpuid *cpuid;   /* the same, as the CPU answers now (the
                                 fields that name it can change: CPUID
                                 records); owned */
  size_t ncpuid;
  const struct rec_opts *opts;/* borrowed */
  struct rec__cpu_mask mask;  /* what --cpu-features hides */
  const char *prog_name;      /* for messages; borrowed */
  struct rec__task *cur;      /* the thread being handled or running user
                                 code, NULL between two */
  struct rec__task **th;      /* every thread seen, gone ones included until
                                 the next exec; owned */
  size_t nth, capth;
  size_t rr;                  /* round-robin position of the scheduler */
  pid_t last_run;             /* the thread that ran user code last */
  struct rec__proc *last_proc;/* its process (procs are freed only at the
                                 end of the recording) */
  u64 timeslice_ns;           /* preempt after this much user time */
  u64 tick_ns;                /* the period rec__tick_arm last asked for */
  u64 slice_clock_ns;         /* the sum of tick_ns at every tick so far */
  int slice_auto;             /* 1: --timeslice not given: a slice is
                                 longer when preempting costs more */
  u64 preempt_ns;             /* what the last preemption point cost */
  int check_digest;           /* REWIND_CHECK_DIGEST=1: every digest taken
                                 from written pages is also taken in full
                                 and compared (tests) */
  int check_maps;             /* REWIND_CHECK_MAPS=1: /proc/PID/maps is read
                                 after every update the recorder made on
                                 its own, and must agree with it */
  u8 *wbuf;                   /* scratch for it, REC_BUF bytes; owned */
  struct rec__blob *blobs;    /* file blobs already in the trace */
  size_t nblobs, capblobs;
  size_t blob_base;     /* blobs[blob_base..nblobs) are in r->w (the ring's
                           segments each store their own) */
  struct rec__cached *cpend;  /* blobs to put in the blob cache at the end */
  size_t ncpend, capcpend;
  struct rec__tscfile *tscfiles; /* file ranges scanned for rdtsc... */
  size_t ntscfiles, captscfiles;
  struct rec__tscp *tscsites; /* ...and the sites found, from the range's
                                 start (tscpatch.c) */
  size_t ntscsites, captscsites;
  struct rec__obj *objs;      /* objects numbered in the trace */
  size_t nobjs, capobjs;
  struct rec__ranges ranges;  /* scratch: syscall outputs */
  u8 *buf;                    /* scratch for memory reads, REC_BUF bytes */
  u8 *xsave;                  /* scratch for PTRACE_GETREGSET, xsave_size */
  size_t xsave_size;
  u32 ymm_off;                /* offset of YMM_Hi128 in the XSAVE area */
  u32 pkru_off;               /* offset of PKRU in it; 0: the CPU or the
                                 kernel has no protection keys */
  u32 k_off, zmmh_off, hi16_off; /* offsets of the AVX-512 components in
                                    it; 0: no AVX-512 */
  u64 last_flush_ns;
  u8 warned[REC_NSYSCALLS / 8]; /* syscalls already warned about */
  int forks_noted;            /* 1: the "children unrecorded" line was shown */
  int untraced_noted;         /* 1: the CLONE_UNTRACED note was shown */
  pid_t *pass;                /* processes traced unrecorded (children.c) */
  size_t npass, cappass;
  int sbuf;                   /* 1: syscalls are buffered (recorder/sbuf.c):
                                 rewind's filter traces the others, and
                                 threads resume with PTRACE_CONT */
  int amx_noted;              /* 1: the "asked for AMX" line was shown */
  int crash_reported;         /* 1: the crash backtrace was printed */
  int wait_status;            /* PROG's final wait status */
  int stopped_by;             /* the signal that stopped the recording */
  u64 int_ns;                 /* when rec__int_pending was first seen */
  int done;                   /* 1: PROG is gone */
  u64 t0;                     /* when the recording started (rw_now_ns) */
  int progress_shown;         /* 1: a progress line is on the terminal */
  int tsc_trap;               /* 1: PR_TSC_SIGSEGV traps rdtsc here; 0: the
                                 instructions are patched to int3 */
  int end_have;               /* 1: end_digest holds the memory digest of
                                 the end of the history (END record) */
  int end_decided;            /* 1: the end was reached; no digest is taken
                                 after it (end_have says if one was) */
  u64 end_digest;
  struct rw_digest_spec end_spec; /* what it leaves out */
  struct {
    u64 syscalls, signals, rdtsc, rdrand, xbegin, forks, diffs, mem_bytes;
    u64 buffered;             /* syscalls logged by the syscall buffer */
    u64 threads, switches, preempts, digest_ns;
    u64 outputs, output_bytes;
    u64 watched_lines;        /* lines imported from watched shared memory */
    u64 maps_followed, maps_read; /* address-space updates made from a
                                     syscall's arguments / from /proc */
    u64 wp_digests, wp_kept, wp_read; /* digests from written pages, and
                                         their pages kept and read */
  } n;
  struct rec__proc *proc;    /* the process being handled: cur's, or the
                                one a caller set (rec__set_cur) */
  struct rec__proc root;     /* the process rewind started */
  struct rec__proc **procs;  /* the processes it and its descendants
                                forked, in order; owned */
  size_t nprocs, capprocs;
  int root_final;            /* 1: the root is gone; root_status is its
                                wait status (the END record waits until
                                every recorded process is gone) */
  int root_status;
  int attached;              /* 1: rewind record -p: the process was
                                running; it is let go at the end */
  int let_go;                /* 1: the recording ended by letting the
                                attached processes go (rec__detach) */
  pid_t attach_pid;          /* the process rewind record -p attaches to */
  pid_t attach_more[REC_ATTACH_MAX - 1]; /* more -p processes, recorded as
                                            forks of the first */
  unsigned n_attach_more;
  u64 deadline_ns;           /* --duration: stop recording then (0: no) */
  u8 *vdso_orig;             /* the vDSO before rewind patched it (the
                                same in every process); owned */
  size_t vdso_len;
  int pin_cpu;               /* the CPU the recording runs on */
  int ctid_noted;            /* 1: the note on PR_GET_TID_ADDRESS is in */
  struct rec__kfs kf;        /* full keyframes (recorder/keyframe.c) */
  struct rec__ring ring;     /* --ring (recorder/ring.c) */
};

#define REC_BUF (1u << 20)

/* The FP/SSE/AVX registers are read at every REC_FP_EVERY-th syscall entry
 * (and wherever they can change: exec, signals, rt_sigreturn). */
#define REC_FP_EVERY 16

/* The event loop (recorder/loop.c): runs until PROG is gone. Returns 0 or a
 * negative code (a trace write error, or ptrace failing). */
int rec__loop(struct rec *r) RW_MUST_CHECK;
/* Set from the SIGALRM handler: time to flush the trace and to look at
 * the running thread's timeslice. */
extern volatile sig_atomic_t rec__tick;
/* A signal that asks rewind record to stop (SIGTERM, SIGHUP, a SIGINT
 * sent with kill), and who sent it; set by the handler in record.c. */
extern volatile sig_atomic_t rec__stop_sig;
extern volatile sig_atomic_t rec__stop_pid;
/* A SIGINT sent to rewind record with kill(2), and its sender: it stops
 * the recording unless PROG gets a SIGINT too within a moment (a signal
 * to the whole process group, like the terminal's Ctrl-C). */
extern volatile sig_atomic_t rec__int_pending;
extern volatile sig_atomic_t rec__int_pid;
/* Arms the SIGALRM timer: often while PROG has several threads (the
 * timeslice needs it), once a second otherwise. */
void rec__tick_arm(struct rec *r);
/* Shows how far the recording is on stderr, when asked to (opts->progress)
 * and the recording is older than 2 s; with END, clears that line. */
void rec__progress(struct rec *r, int end);

/* Records where the current thread stands now, stopped asynchronously
 * (PREEMPT: registers and the memory digest), after the syscall exits other
 * threads have reached (recorder/loop.c). */
int rec__preempt(struct rec *r) RW_MUST_CHECK;

/* Registers (recorder/ptregs.c). */
int rec__regs_get(struct rec *r, pid_t tid, struct rw_regs *regs, int fp)
    RW_MUST_CHECK;
int rec__regs_set_gprs(pid_t tid, const struct rw_regs *regs) RW_MUST_CHECK;
int rec__regs_init(struct rec *r) RW_MUST_CHECK;
/* Writes thread TID's PKRU register to *PKRU, and to *INUSE whether the
 * kernel's image of it was out of its initial state (XSTATE_BV[9]).
 * Returns 0, RW_ENOTFOUND when the machine has no protection keys
 * (r->pkru_off 0), or a ptrace error. */
/* What the XSTATE record holds of stopped thread TID (format/
 * records.def): *XINUSE, and 1 when OUT has its AVX-512 registers, 0 when
 * they are all in their initial state (or the CPU has none). */
int rec__xstate_get(struct rec *r, pid_t tid, u32 *xinuse, u8 out[1600]);
/* rec__xstate_get, and REGS's FXSAVE image and YMM upper halves from the
 * same read: one ptrace call (a keyframe's entry state). Returns as
 * rec__xstate_get, or a ptrace error. */
int rec__fp_xstate_get(struct rec *r, pid_t tid, struct rw_regs *regs,
                       u32 *xinuse, u8 out[1600]);
int rec__pkru_get(struct rec *r, pid_t tid, u32 *pkru, int *inuse)
    RW_MUST_CHECK;
/* At a syscall stop of TID: 1 entry, 2 exit (PTRACE_SYSCALL_INFO_*), 0 for
 * another stop, -1 on error. */
int rec__syscall_op(pid_t tid);

/* At the entry of execve or execveat: when the new environment lacks
 * rewind's settings (an empty one, env -i, a program's own list), gives
 * the call a copy with them, written below the stack pointer; a failed
 * call gets everything back at its exit (rec__exec_env_undo). */
int rec__exec_env(struct rec *r) RW_MUST_CHECK;
int rec__exec_env_undo(struct rec *r, struct rw_regs *regs) RW_MUST_CHECK;

/* Tracee memory (recorder/mem.c). */
i64 rec__mem_read(void *r, u64 addr, void *dst, size_t len);
int rec__mem_write(struct rec *r, u64 addr, const void *src, size_t len)
    RW_MUST_CHECK;
int rec__mem_open(struct rec *r) RW_MUST_CHECK;
/* Imports [ADDR, ADDR+LEN), widened to whole cache lines, as MEM records
 * (split at TRACE_MAX_RECORD; unreadable pages are skipped). */
int rec__mem_import(struct rec *r, u64 addr, u64 len) RW_MUST_CHECK;
/* Imports the given bytes (already read; ADDR and LEN line-aligned). */
int rec__mem_emit(struct rec *r, u64 addr, const u8 *data, size_t len)
    RW_MUST_CHECK;
/* Imports the cache lines of [A, B) that are not all zero (A, B page
 * aligned). */
int rec__mem_import_nonzero(struct rec *r, u64 a, u64 b) RW_MUST_CHECK;

/* The address space (recorder/space.c). rec__space_after() re-reads the
 * maps after syscall NR (ARGS, RESULT) and records what changed;
 * rec__space_describe() records the mapping M over [A, B) as HOW says:
 * REC_DESCRIBE_NEW, as the kernel gives a new mapping; REC_DESCRIBE_AS_IS,
 * also the bytes that differ from its source; REC_DESCRIBE_EXEC, an image
 * the kernel's ELF loader has just made, where only writable mappings can
 * differ from their file (it zeroes the end of a data segment's last
 * page), so only those are compared. */
#define REC_DESCRIBE_NEW 0
#define REC_DESCRIBE_AS_IS 1
#define REC_DESCRIBE_EXEC 2
#define REC_DESCRIBE_KEYFRAME 3 /* AS_IS, for a keyframe: patched code
                                   shows its original bytes, and nothing
                                   is patched again */
int rec__space_after(struct rec *r, u64 nr, const u64 args[6], i64 result)
    RW_MUST_CHECK;
int rec__space_describe(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                        int how) RW_MUST_CHECK;
/* Following the address space without /proc (recorder/follow.c).
 * rec__follow() updates the model R->maps and writes the records of
 * syscall NR (ARGS, RESULT) when its effect is fully known from them;
 * *DONE says whether it did (0: the maps must be read). rec__follow_exec()
 * starts over with a new image; rec__follow_personality() looks at the
 * personality again; rec__follow_sharer() notes a process CHILD that may
 * share the address space (it stops the model from being trusted while it
 * does). Return 0 or a negative code. */
int rec__follow(struct rec *r, u64 nr, const u64 args[6], i64 result,
                int *done) RW_MUST_CHECK;
void rec__follow_exec(struct rec *r);
void rec__follow_personality(struct rec *r);
int rec__follow_sharer(struct rec *r, pid_t child) RW_MUST_CHECK;
/* The sharers still sharing the address space; those that exec'd, exited
 * or never shared are dropped (kcmp compares address spaces; where it
 * cannot answer, the sharer is kept). */
size_t rec__sharers_live(struct rec *r);

/* Stack growth (recorder/stack.c). rec__stack_rules() writes STACK_RULES
 * (the soft RLIMIT_STACK, the guard gap, mmap_min_addr) when FORCE or when
 * the limit changed since the last one; rec__emit_grow() writes GROW;
 * rec__map_grows() is 1 for a mapping that grows down on a fault (the
 * [stack], a MAP_GROWSDOWN one); rec__stack_guard_gap() is the gap in bytes
 * that the kernel command line CMDLINE gives (its default without one). */
int rec__stack_rules(struct rec *r, int force) RW_MUST_CHECK;

/* Full keyframes (recorder/keyframe.c). rec__emit_state writes the state
 * a history can begin with (EXEC, every mapping with its bytes, AUXV, and
 * every thread), LEAD the thread whose stream holds what is the
 * process's; threads in the KERNEL state are written as inside their
 * syscall; for a keyframe (HOW REC_DESCRIBE_KEYFRAME) it returns 1 when a
 * thread is about to restart a syscall (no state says what it will do).
 * rec__kf_arm starts the clock; rec__kf_tick marks a keyframe
 * due; rec__kf_entry keeps a blocking syscall's whole entry state;
 * rec__kf_try writes one when due and every thread allows it (0: not
 * now). */
int rec__emit_state(struct rec *r, struct rec__task *lead, int how)
    RW_MUST_CHECK;
void rec__kf_arm(struct rec *r);
void rec__kf_tick(struct rec *r, u64 now_ns);
int rec__kf_entry(struct rec *r, struct rec__task *t) RW_MUST_CHECK;
int rec__kf_try(struct rec *r) RW_MUST_CHECK;

/* The pages of keyframes (recorder/kfmem.c). rec__kf_mem_begin starts a
 * keyframe; rec__kf_mem_import (a rec__populated callback, CTX the rec)
 * takes the pages of [A, B) that are not all zero; rec__kf_mem_flush
 * makes the new ones a pack (stored by rec__kf_mem_store, once the
 * keyframe is sure to be written, into r->w) and writes the MEM_FROM
 * records into r->w's stream TID; rec__kf_mem_end keeps what it learnt
 * (OK 1: the keyframe was written) or forgets it and the packs not
 * stored; rec__kf_mem_forget forgets every
 * page (a new ring segment holds no pack yet); rec__kf_mem_free at the
 * end. rec__kf_fingerprint: the 128-bit fingerprint of the REC_PAGE bytes
 * at P. */
void rec__kf_mem_begin(struct rec *r);
int rec__kf_mem_import(void *ctx, u64 a, u64 b) RW_MUST_CHECK;
int rec__kf_mem_flush(struct rec *r, u32 tid) RW_MUST_CHECK;
int rec__kf_mem_store(struct rec *r) RW_MUST_CHECK;
void rec__kf_mem_end(struct rec *r, int ok);
void rec__kf_mem_forget(struct rec *r);
void rec__kf_mem_free(struct rec *r);
void rec__kf_fingerprint(const u8 *p, u64 fp[2]);

/* The flight recorder (recorder/ring.c). rec__ring_open makes OUT.ring/
 * and opens its first segment as r->w (WO: the writer's options);
 * rec__ring_due says the current segment is full enough for the next
 * keyframe to begin another (deleting the oldest ones beyond the ring's
 * size once it is written); rec__ring_finish joins what is left into OUT
 * (OK 1: the recording has a trace) and removes the directory, or leaves
 * it with a message when it cannot (OK 0: the recording failed), or
 * removes it (OK -1: nothing was recorded). */
int rec__ring_open(struct rec *r, const char *out, int force,
                   const struct trace_writer_opts *wo) RW_MUST_CHECK;
int rec__ring_due(const struct rec *r);
/* rec__ring_begin opens the next segment as r->w, keeping the current one
 * open in *OLD; rec__ring_end (OK) closes *OLD and keeps the new one, or
 * (!OK: its keyframe could not be written) goes back to OLD. */
int rec__ring_begin(struct rec *r, trace_writer **old) RW_MUST_CHECK;
int rec__ring_end(struct rec *r, trace_writer *old, int ok) RW_MUST_CHECK;
/* Once the new segment's keyframe is in it: waits until it is on disk, then
 * deletes the oldest segments beyond the ring's size. */
int rec__ring_settle(struct rec *r) RW_MUST_CHECK;
int rec__ring_finish(struct rec *r, int ok) RW_MUST_CHECK;
int rec__emit_grow(struct rec *r, u64 addr, u64 len) RW_MUST_CHECK;
int rec__map_grows(const struct rec__map *m);
u64 rec__stack_guard_gap(const char *cmdline);

/* Blobs (recorder/blobs.c). rec__blob_get() stores the file behind M as a
 * blob once (a file met again, by device, inode, size and mtime, is not
 * read again) and gives its hash and size. Returns 0; RW_ELIMIT for a file
 * that is not embedded (larger than 4 GiB, or of 16 MiB or more and mostly
 * holes): its mappings' bytes are imported instead; RW_EUNSUPPORTED for
 * something that is not a regular file; or another negative code. */
int rec__blob_get(struct rec *r, const struct rec__map *m, u8 hash[32],
                  size_t *size) RW_MUST_CHECK;
/* Puts the blobs this recording stored that rewind's blob cache lacks into
 * it, from the closed trace PATH (NULL: none), and keeps the cache within
 * its size; frees what R holds for it. Failures only lose the cache's
 * help. */
void rec__blob_cache_save(struct rec *r, const char *path);
/* Removes the least recently used files of the cache directory DIR until
 * it holds at most MAX bytes (recorder/blobs.c). */
void rec__cache_trim(const char *dir, u64 max);
/* Reads LEN bytes at offset OFF of the file behind M into BUF, zero past
 * its end. Returns 0 or a negative code. */
int rec__blob_range(struct rec *r, const struct rec__map *m, u64 off,
                    u8 *buf, size_t len) RW_MUST_CHECK;

/* Populated pages (recorder/pages.c): calls FN(CTX, x, y) for the ranges of
 * [A, B) in mapping M that may hold non-zero bytes, in address order; never
 * touched private anonymous pages and holes of files are left out.
 * rec__pages_reset() forgets the process (at exec). rec__file_data() calls
 * FN for the parts of the file offsets [LO, HI) of FD that are data, not
 * holes, in order; returns 0, 1 when FD cannot say (not a regular file),
 * or the first negative code of FN. */
int rec__populated(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                   int (*fn)(void *ctx, u64 a, u64 b), void *ctx)
    RW_MUST_CHECK;
/* Appends to OUT the pages of [A, B) that the process has in its page
 * tables or in swap (PAGEMAP_SCAN). Returns 0, 1 when the kernel cannot
 * say, or RW_ENOMEM. */
int rec__present(struct rec *r, u64 a, u64 b, struct rec__ranges *out);
void rec__pages_reset(struct rec *r);
/* /proc/PID/pagemap of the current process, or -1 when PAGEMAP_SCAN is
 * known not to work. */
int rec__pagemap_fd(struct rec *r);
/* The PAGEMAP_SCAN ioctl, from linux/fs.h (6.7), which older headers
 * lack. */
struct rec__page_region {
  u64 start, end, categories;
};
struct rec__pm_scan_arg {
  u64 size, flags, start, end, walk_end, vec, vec_len, max_pages;
  u64 category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define REC_PAGEMAP_SCAN _IOWR('f', 16, struct rec__pm_scan_arg)
#define REC_PM_SCAN_WP_MATCHING 1ull
#define REC_PAGE_IS_WRITTEN (1u << 1)
#define REC_PAGE_IS_PRESENT (1u << 3)
#define REC_PAGE_IS_SWAPPED (1u << 4)
int rec__file_data(int fd, u64 lo, u64 hi,
                   int (*fn)(void *ctx, u64 a, u64 b), void *ctx)
    RW_MUST_CHECK;

/* Pages (32 MiB) of private anonymous memory from which a digest keeps
 * page hashes and protects the pages, so that the next one reads only
 * those written since. */
#define REC_WP_ARM 8192u
/* The digest from the pages written since the last one (recorder/wp.c).
 * rec__wp_start: at an execve's exit (registers AT, a syscall instruction
 * at INSN of thread TID), makes the new address space's userfaultfd; 0, or
 * a negative code when the thread went away. rec__wp_reset forgets all
 * (exec, the process gone); rec__wp_forget forgets the kept pages (pages
 * moved: mremap). rec__wp_covers: whether mapping M takes this path.
 * rec__wp_begin, then rec__wp_range for each covered range [A, B) of M in
 * address order (1: not this time, take the full way; adds to D what the
 * full digest with SPEC would), then rec__wp_end (OK 0: the digest was
 * not used). rec__wp_check_due: whether this digest should also be taken
 * in full and compared. */
int rec__wp_start(struct rec *r, pid_t tid, const struct rw_regs *at,
                  u64 insn) RW_MUST_CHECK;
void rec__wp_reset(struct rec__wp *w);
void rec__wp_forget(struct rec__wp *w);
/* After an mprotect that made [A, A + LEN) writable: see recorder/wp.c.
 * Returns 0 or RW_ENOMEM. */
int rec__wp_reprotect(struct rec *r, u64 a, u64 len) RW_MUST_CHECK;
int rec__wp_covers(const struct rec *r, const struct rec__map *m);
/* Whether the memory rec__wp_covers holds REC_WP_ARM pages or more, by the
 * kernel's page tables; the last full digest's count when they cannot
 * tell. */
int rec__wp_large(struct rec *r);
void rec__wp_begin(struct rec *r);
int rec__wp_range(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                  const struct rw_digest_spec *spec, struct rw_digest *d)
    RW_MUST_CHECK;
int rec__wp_end(struct rec *r, int ok) RW_MUST_CHECK;
int rec__wp_check_due(const struct rec *r);

/* Generic diff (recorder/gendiff.c). */
int rec__snap_take(struct rec *r) RW_MUST_CHECK;
int rec__snap_diff(struct rec *r, u64 *lines) RW_MUST_CHECK;
void rec__snap_free(struct rec__snap *s);

/* Whether the program can read memory of protection PROT: on x86-64
 * PROT_WRITE and PROT_EXEC let it read too (mmap's PROT_WRITE alone makes
 * a readable page). */
static inline int rec__prot_reads(u32 prot) {
  return (prot & (PROT_READ | PROT_WRITE | PROT_EXEC)) != 0;
}

/* The hash of the cache line at P that snapshots compare. */
static inline u64 rec__line_hash(const u8 *p) {
  u64 h = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 8; i++) {
    u64 x;
    memcpy(&x, p + 8 * i, 8);
    h = (h ^ x) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  return h;
}

/* recorder/watch.c. rec__watch_fork(): at a fork whose child runs
 * unrecorded, every readable shared mapping not yet watched is added to
 * the watch; rec__watch_check(): at an event, the lines of the watch that
 * changed since the last one are imported. */
int rec__watch_fork(struct rec *r) RW_MUST_CHECK;
/* A child that shares the whole address space and runs alongside (clone
 * with CLONE_VM, without CLONE_VFORK): every writable mapping is watched
 * until no such sharer is left. */
int rec__watch_sharer(struct rec *r) RW_MUST_CHECK;
int rec__watch_check(struct rec *r) RW_MUST_CHECK;
/* The watched ranges, as the ranges a memory digest leaves out. */
int rec__watch_skips(const struct rec *r, struct rw_digest_spec *spec)
    RW_MUST_CHECK;
void rec__watch_free(struct rec *r);

/* recorder/vdso.c: replaces the exported functions of the [vdso] in
 * r->maps by syscall stubs. Returns 1 when done, 0 when the vDSO must be
 * hidden instead (none, or not understood), or a negative code. */
int rec__vdso_patch(struct rec *r) RW_MUST_CHECK;
/* The memory digest (common/digest.h) with what SPEC leaves out. */
int rec__digest(struct rec *r, const struct rw_digest_spec *spec, u64 *out)
    RW_MUST_CHECK;
/* The dead range of a thread stopped with stack pointer RSP: the part of
 * the stack mapping below its red zone (REC_RED_ZONE bytes under RSP),
 * when RSP is in the main stack or in private anonymous memory; else
 * empty (LO = HI = 0). The maps must be fresh. */
#define REC_RED_ZONE 128u
void rec__dead_stack(const struct rec *r, u64 rsp, u64 *lo, u64 *hi);
/* Sets SPEC's further dead ranges: the dead stacks of the other threads
 * of the current process (the thread stopped with stack pointer RSP, 0 if
 * none, has the first range), those live where they last stopped, and
 * those that ended with exit, in stacks that no live thread uses (glibc
 * keeps them for its next threads). The maps must be fresh. Returns 0 or
 * RW_ENOMEM. */
int rec__stack_deads(struct rec *r, u64 rsp, struct rw_digest_spec *spec)
    RW_MUST_CHECK;

/* Syscalls (recorder/sysrec.c). */
/* The current thread is at a syscall's entry: records it. Returns 0, 1
 * when under the syscall buffer's filter the stop was a call into the
 * vsyscall page instead (nothing recorded), or a negative code. */
int rec__sys_enter(struct rec *r) RW_MUST_CHECK;
/* T, in a syscall, is at its exit event, killed by a signal: what the
 * kernel wrote for the syscall cut short (clock_nanosleep's remaining
 * time) is imported now, as T's (no syscall exit stop will come), with
 * R->proc T's process. */
int rec__sys_killed(struct rec *r, struct rec__task *t) RW_MUST_CHECK;
int rec__sys_exit(struct rec *r) RW_MUST_CHECK;
/* At the entry stop (or the seccomp stop) of the current thread's syscall:
 * the kernel skips it, and it returns RESULT. */
int rec__sys_skip(struct rec *r, i64 result) RW_MUST_CHECK;

/* The state letter of thread TID in /proc (S sleeping, Z zombie...), or
 * 0 when it is gone (recorder/threads.c). */
char rec__proc_state(struct rec *r, pid_t tid);
/* The same for thread TID of process PID. */
char rec__task_state(pid_t pid, pid_t tid);

/* The legacy vsyscall page (recorder/vsyscall.c). */
/* 1 when this kernel runs calls into the page (vsyscall=xonly/emulate). */
int rec__vsyscall_present(void);
/* In the child before its exec: installs rewind's seccomp filter (setting
 * no_new_privs if it must). It stops the thread at a call into the page,
 * and with SBUF at every syscall but the syscall buffer's (recorder/
 * sbuf.c); it lets the others through. */
void rec__seccomp_filter(int sbuf);
/* At the exec that starts PROG: what prctl must hide of the filter
 * (WANTED: the child was to install it). */
void rec__vsyscall_started(struct rec *r, int wanted);
/* A PTRACE_EVENT_SECCOMP stop of the current thread: a vsyscall, recorded
 * as a syscall at its entry, or the program's own SECCOMP_RET_TRACE. */
int rec__on_seccomp(struct rec *r) RW_MUST_CHECK;

/* SECCOMP_RET_DATA of rewind's filters: a call into the vsyscall page,
 * and any syscall but the syscall buffer's. */
#define REC_VSYS_DATA 0x7e11
#define REC_VSYS_BASE 0xffffffffff600000ull /* the vsyscall page */
#define REC_SB_DATA 0x7e12

/* The syscall buffer (recorder/sbuf.c). Its library as an ELF file, with
 * symbols and unwind tables (recorder/sblib_bin.c, generated). */
extern const unsigned char rec__sblib_elf[];
extern const unsigned long rec__sblib_elf_size;
/* Whether T is resumed with PTRACE_CONT outside syscalls. */
int rec__sb_cont(const struct rec *r, const struct rec__task *t);
/* At the syscall exit of an execve that succeeded, the current thread
 * stopped with registers AT: maps the library into the new image and
 * points the vDSO at it, recording both. */
int rec__sb_exec(struct rec *r, const struct rw_regs *at) RW_MUST_CHECK;
/* CHILD was forked from PARENT (SHARED: in its address space). */
void rec__sb_fork(struct rec__proc *child, const struct rec__proc *parent,
                  int shared);
/* At a stop of the current thread, which ran: writes what the ring logged
 * since the last stop as the records of those syscalls. */
int rec__sb_drain(struct rec *r) RW_MUST_CHECK;
/* At the exit of the current thread's syscall, before its SYSCALL_EXIT
 * record, with its registers in REGS: a thread about to return right
 * after the syscall instruction of a patched `syscall; cmp` site goes to
 * the cmp in the site's stub instead (REGS->rip changes, in the thread
 * too); such a site the thread came from may be prepared for patching
 * (its stub written). */
int rec__sb_exit(struct rec *r, struct rw_regs *regs) RW_MUST_CHECK;
/* After that SYSCALL_EXIT record: when the syscall was made by a glibc
 * site of the form `mov eax, NR; syscall` for a syscall the library logs,
 * or one prepared by rec__sb_exit, makes that site jump to the library
 * from now on (recorded); looks at the descriptor the syscall used, for
 * the library (recorder/sbuf.h, RW_SB_H_FDCLASS). */
int rec__sb_patch(struct rec *r, const struct rw_regs *regs) RW_MUST_CHECK;
/* The current thread's mmap of a file succeeded: descriptors of regular
 * files go back to reads only, since writing one may now change mapped
 * bytes the recorder must see. */
int rec__sb_file_mapped(struct rec *r) RW_MUST_CHECK;
/* A process that shares its descriptor table (CLONE_FILES) but not its
 * memory: the library must not trust its classes of descriptors. */
int rec__sb_no_fds(struct rec *r) RW_MUST_CHECK;
/* After the records of a stop of the current thread: what the buffer
 * still has to write into the process (its BUSY flag, after the ring was
 * found overwritten). */
int rec__sb_settle(struct rec *r) RW_MUST_CHECK;
/* Turns the current process's buffer off for good (another process that
 * rewind does not record shares its memory): the library's calls stop
 * like any other from now on. */
int rec__sb_off(struct rec *r) RW_MUST_CHECK;
/* At the entry of syscall NR with ARGS of the current thread: when it
 * would unmap or change the library's memory, turns the buffer off and
 * puts the vDSO's plain stubs back first. */
int rec__sb_entry(struct rec *r, u64 nr, const u64 args[6]) RW_MUST_CHECK;
/* Resumes CHILD with PTRACE_SYSCALL until its next syscall stop of kind OP
 * (1 entry, 2 exit), passing signals on. 0, or -1 when it is gone
 * (recorder/children.c). */
int rec__next_syscall_stop(pid_t child, int op);
/* Makes thread TID, stopped with registers AT (at a syscall exit, or at a
 * signal it is not given), run syscall NR(ARGS) through the syscall
 * instruction at INSN, with its signals blocked, and stop at its exit;
 * the caller puts the registers back. Its result in *RES. 0, RW_ENOTFOUND when the thread
 * went away, or another negative code (recorder/children.c). */
int rec__remote_syscall(pid_t tid, const struct rw_regs *at, u64 insn,
                        u64 nr, const u64 args[6], i64 *res) RW_MUST_CHECK;

/* At the entry of the current thread's syscall: when it sends bytes out of
 * the process (common/outbuf.h), writes their OUTPUT record (recorder/
 * output.c). Returns 0 or the writer's negative code. */
int rec__output(struct rec *r) RW_MUST_CHECK;

/* The end of the history is here (exit_group, the last thread's exit, the
 * first thread to die of a signal): keeps the memory digest for the END
 * record, once (recorder/loop.c). HOW is one of REC_END_*. Returns 0 or a
 * negative code. */
enum {
  REC_END_EXIT_GROUP = 1, /* first record the syscall exits other threads
                             have reached, as for PREEMPT */
  REC_END_LAST_THREAD,    /* nobody else is there */
  REC_END_SIGNALED        /* the process dies: other threads' syscalls
                             never return, so when one may have written
                             memory already, take no digest */
};
int rec__end_digest(struct rec *r, int how) RW_MUST_CHECK;
/* The current process, other than the first, is about to end (the current
 * thread is at the entry of exit_group, or of the exit of its last
 * thread): a DIGEST of its memory, once, unless it still shares its vfork
 * parent's (recorder/loop.c). */
int rec__proc_digest(struct rec *r) RW_MUST_CHECK;

/* The pid tracing PID (its comm in NAME, CAP bytes), or 0; the decimal
 * field KEY of /proc/PID/status (PID may be a thread), or DFLT; Yama's
 * ptrace_scope, or -1 without Yama (recorder/launch.c). */
int rec__tracer_of(pid_t pid, char *name, size_t cap);
long rec__status_field(pid_t pid, const char *key, long dflt);
int rec__ptrace_scope(void);
/* The DETACH record, with the digest DIGEST taken with SPEC (emit.c);
 * SPEC NULL: without one (the first process has ended). */
int rec__emit_detach(struct rec *r, u64 digest,
                     const struct rw_digest_spec *spec) RW_MUST_CHECK;

/* Attaching to a running process and detaching from it (recorder/
 * attach.c). rec__attach seizes every thread of r->attach_pid and of
 * the r->attach_more processes, stops them and writes the state the
 * history starts from (the others as forks of the first); the loop then
 * records as usual.
 * rec__detach brings every thread to a stop the trace describes, writes
 * DETACH and lets the process go on as it was; rec__undo_attach only lets
 * it go (after a failure). */
int rec__attach(struct rec *r) RW_MUST_CHECK;
int rec__detach(struct rec *r) RW_MUST_CHECK;
/* At a stop of thread T (the current one), whose rseq area rewind could
 * not unregister: imports the area when the kernel changed it. */
int rec__rseq_check(struct rec *r, struct rec__task *t) RW_MUST_CHECK;
void rec__undo_attach(struct rec *r);
/* The DETACH record, with a digest of the root process's memory as every
 * thread has it now (recorder/loop.c). */
int rec__detach_end(struct rec *r) RW_MUST_CHECK;
/* One wait status ST of thread or process P, as the loop handles it. */
int rec__on_status(struct rec *r, pid_t p, int st) RW_MUST_CHECK;

/* Exec (recorder/image.c). */
int rec__on_exec(struct rec *r, int first) RW_MUST_CHECK;

/* Signals (recorder/signals.c): handle a signal-delivery-stop of SIG; sets
 * *INJECT to the signal to deliver (0: suppressed). */
int rec__on_signal(struct rec *r, int sig, int *inject, int *step)
    RW_MUST_CHECK;
int rec__on_handler_entry(struct rec *r) RW_MUST_CHECK;
/* The current thread stopped with SIG: when it is the trap of an rdtsc or
 * of an instruction the recorder patched, answers it (the thread goes on
 * past it, the signal is not for the program) and returns 1; 0 when it is
 * the program's own; or a negative code. */
int rec__signal_answer(struct rec *r, int sig) RW_MUST_CHECK;
/* 1 when SIG with si_code CODE is a synchronous fault of the thread. */
int rec__signal_is_sync(int sig, int code);

/* rdtsc trapping of the recorder itself (recorder/tscself.c), so that
 * switching between it and PROG costs no CR4 write: rec__tsc_self(1) while
 * recording, rec__tsc_self_rearm() before resuming PROG, rec__tsc_read() to
 * read the counter (rdtscp's aux into *AUX when IS_P). */
void rec__tsc_self(int on);
/* 1 when PR_TSC_SIGSEGV really traps rdtsc on this machine (checked once,
 * in a child; REWIND_TSC_PATCH=1 pretends it does not). */
int rec__tsc_trap_works(void);
/* Replaces every rdrand and rdseed the CPU has, every xbegin when it has
 * RTM, and without the trap every rdtsc/rdtscp, decoded in [A, B) of the
 * tracee by int3 and remembers it.
 * Returns 0 or a negative code. */
int rec__tsc_patch_range(struct rec *r, u64 a, u64 b) RW_MUST_CHECK;
/* The same for [A, B) when it holds the bytes at offset OFF of the blob
 * HASH as they are in the file: the sites found in those bytes once are
 * remembered for the rest of the recording (a compiler run by make for
 * every file is scanned once, not each time). */
int rec__tsc_patch_file(struct rec *r, u64 a, u64 b, const u8 hash[32],
                        u64 off) RW_MUST_CHECK;
/* The patched instruction at ADDR, or NULL. */
const struct rec__tscp *rec__tsc_patch_at(const struct rec *r, u64 addr);
/* Forgets every patch (a new program image). */
void rec__tsc_patch_reset(struct rec *r);
/* Puts the original bytes back in the memory of CHILD (a copy of the
 * recorded address space that is let go unrecorded). */
void rec__tsc_unpatch_child(const struct rec *r, pid_t child);
void rec__tsc_self_rearm(void);
u64 rec__tsc_read(int is_p, u32 *aux);

/* Threads (recorder/threads.c). */
/* The thread TID of PROG, or NULL. */
struct rec__task *rec__task_find(struct rec *r, pid_t tid);
/* Adds thread TID (state READY, nothing pending). Returns it, or NULL when
 * out of memory. */
struct rec__task *rec__task_add(struct rec *r, pid_t tid);
/* Frees every thread. */
void rec__tasks_free(struct rec *r);
/* The recorded process TID is a thread of (its Tgid), or NULL. */
struct rec__proc *rec__proc_of_thread(struct rec *r, pid_t tid);
/* PTRACE_EVENT_CLONE of a CLONE_THREAD clone by the current thread: waits
 * for the new thread's first stop and keeps its registers; THREAD_START is
 * written at the clone's exit (rec__thread_started). */
int rec__on_thread_clone(struct rec *r, pid_t child) RW_MUST_CHECK;
/* At the exit of the current thread's clone: THREAD_START and THREAD_NAME
 * of the thread it created. */
int rec__thread_started(struct rec *r) RW_MUST_CHECK;
/* After the current thread's syscall exit: notices clear_child_tid and name
 * changes (set_tid_address, PR_SET_NAME, writes to a comm file). */
int rec__thread_after_syscall(struct rec *r, i64 result) RW_MUST_CHECK;
/* The current thread entered exit (nr 60): lets it go, imports its
 * clear_child_tid word once the kernel wrote it and writes its EXIT. */
int rec__thread_exit(struct rec *r) RW_MUST_CHECK;
/* At exec: every thread but the current one is gone. */
void rec__threads_exec(struct rec *r);
/* Reads thread T's name (comm) into NAME (16 bytes). */
void rec__thread_comm(struct rec *r, pid_t tid, char name[16]);
/* The flags of the clone or clone3 the current thread is in. */
u64 rec__clone_flags(struct rec *r);
/* Where that clone has the kernel write the new thread's id
 * (CLONE_CHILD_SETTID) and clear it at its exit (CLONE_CHILD_CLEARTID). */
u64 rec__child_tid_addr(struct rec *r);
/* Takes thread T out of the table and frees it. */
void rec__task_remove(struct rec *r, struct rec__task *t);

/* Children (recorder/children.c). */
int rec__child_release(struct rec *r, pid_t child) RW_MUST_CHECK;
/* Under the syscall buffer's filter, a process rewind does not record
 * stays traced: its stops are let go at once. Adds PID (stopped) and
 * resumes it. 0 or RW_ENOMEM. */
int rec__pass_add(struct rec *r, pid_t pid) RW_MUST_CHECK;
/* Wait status ST of PID: 1 when PID is such a process (the status is
 * dealt with), 0 when it is not, or a negative code. */
int rec__pass_status(struct rec *r, pid_t pid, int st) RW_MUST_CHECK;
/* The fork, vfork or clone event EVENT of the current thread: records the
 * child as a process, or lets it go. Returns 1 when the thread must wait
 * in the kernel for a recorded vfork child, 0, or a negative code. */
int rec__on_fork_event(struct rec *r, int event) RW_MUST_CHECK;
/* 1 when the syscall the current thread is in makes a vfork child that
 * is recorded (vfork, or clone with CLONE_VM and CLONE_VFORK). */
int rec__follows_vfork(struct rec *r);

/* Processes (recorder/procs.c). */
/* Makes T (NULL: none) the current thread and its process the current
 * one. */
void rec__set_cur(struct rec *r, struct rec__task *t);
/* The recorded process whose id (tgid) is PID and that is not gone, or
 * NULL. */
struct rec__proc *rec__proc_find(struct rec *r, pid_t pid);
/* A new recorded process CHILD, forked by the current process: a copy of
 * its address-space model and of what a fork inherits; with SHARED (a
 * vfork child), the parent's model itself. Returns it, or NULL when out of
 * memory. */
struct rec__proc *rec__proc_fork(struct rec *r, pid_t child, int shared);
/* A new recorded process PID with nothing inherited (another -p); NULL
 * when out of memory. */
struct rec__proc *rec__proc_new(struct rec *r, pid_t pid);
/* Process P, a vfork child, gets an address space of its own (its exec):
 * from now on it has a model of its own. */
void rec__proc_unshare(struct rec__proc *p);
/* Frees what process P holds (P stays listed). */
void rec__proc_release(struct rec *r, struct rec__proc *p);
/* Every recorded process, the root first: P of N. */
struct rec__proc *rec__proc_at(struct rec *r, size_t i);
size_t rec__proc_count(const struct rec *r);

/* The dispositions the kernel resets when it forces a trap's signal
 * (recorder/forced.c). After a traced rt_sigaction with ARGS that
 * returned RESULT: */
int rec__forced_sigaction(struct rec *r, const u64 *args,
                          i64 result) RW_MUST_CHECK;
/* At an exec of P: handlers are gone. */
void rec__forced_exec(struct rec__proc *p);
/* SIG is delivered to the current thread for real (SA_RESETHAND). */
void rec__forced_delivered(struct rec *r, int sig);
/* The current thread's signal mask is read (at exec), or may have changed
 * behind the recorder's back: syscall NR (any that sets a mask, traced or
 * buffered, or ~0 for a handler's entry) was made. */
void rec__forced_mask_read(struct rec *r);
void rec__forced_mask_lost(struct rec *r, u64 nr);
/* After the current thread's trap at AT raised SIG and was answered: puts
 * back what the kernel reset, where the program had asked otherwise. */
int rec__forced_restore(struct rec *r, int sig, u64 at) RW_MUST_CHECK;
/* SIG's disposition in thread TID's process now, from /proc: 2 caught by a
 * handler, 1 ignored (explicitly or by default), 0 the default action
 * that stops or ends the process (recorder/signals.c). */
int rec__disposition(pid_t tid, int sig);

/* Crash report (recorder/backtrace.c). */
void rec__backtrace(pid_t tid, const char *prog);

/* Warnings (recorder/emit.c): once per syscall, on stderr and as a NOTE.
 * rec__note() only writes the NOTE record. */
int rec__warn(struct rec *r, u64 nr, const char *fmt, ...) RW_PRINTF(3, 4)
    RW_MUST_CHECK;
int rec__note(struct rec *r, u32 level, const char *fmt, ...) RW_PRINTF(3, 4)
    RW_MUST_CHECK;

/* Record emitters (recorder/emit.c). Each appends one record to the
 * current thread's stream (or TID's, where one is passed) and returns 0 or
 * the writer's negative code. */
int rec__emit_thread_name(struct rec *r, u32 tid, const char *name)
    RW_MUST_CHECK;
int rec__emit_exec(struct rec *r, u32 pid, const char *path) RW_MUST_CHECK;
/* recorder/files.c. The object number of M's file or shared memory (0 for
 * private anonymous memory), numbering it on first sight. */
int rec__obj_of(struct rec *r, const struct rec__map *m, u64 *id)
    RW_MUST_CHECK;
/* 1 when the object a stat ST describes changed while mapped. */
struct stat;
int rec__obj_dirty(struct rec *r, const struct stat *st);
/* After syscall NR returned RESULT: imports what a change of a mapped file
 * (pwrite, write, ftruncate, ...) changed in its mappings. */
struct stat;
/* Whether the file of ST was mapped in the recording (an object). */
int rec__files_is_object(struct rec *r, const struct stat *st);
int rec__files_after(struct rec *r, u64 nr, const u64 args[6], i64 result)
    RW_MUST_CHECK;
/* RESIZE: object ID (rec__obj_of) is SIZE bytes long now. */
int rec__emit_resize(struct rec *r, u64 id, u64 size) RW_MUST_CHECK;
int rec__emit_map(struct rec *r, u64 addr, u64 len, u32 prot, u32 flags,
                  u64 offset, const u8 hash[32], const char *path, u64 object)
    RW_MUST_CHECK;
int rec__emit_unmap(struct rec *r, u64 addr, u64 len) RW_MUST_CHECK;
int rec__emit_protect(struct rec *r, u64 addr, u64 len, u32 prot)
    RW_MUST_CHECK;
int rec__emit_remap(struct rec *r, u64 oa, u64 ol, u64 na, u64 nl, u32 fl)
    RW_MUST_CHECK;
int rec__emit_regs(struct rec *r, u16 type, u64 nr, int with_result,
                   i64 result, const struct rw_regs *regs, int fp_valid)
    RW_MUST_CHECK;
int rec__emit_thread_start(struct rec *r, u32 tid, u32 parent,
                           const struct rw_regs *regs) RW_MUST_CHECK;
/* A PKRU record of thread TID (stopped) with the value the kernel gave
 * it; nothing on a machine without protection keys. FRESH: TID is at the
 * start of a new image, where the kernel shows PKRU in its initial state
 * until the thread runs (it loads its default rights on the way back to
 * user space): nothing is written then, and a replay assumes the default. */
int rec__emit_pkru(struct rec *r, pid_t tid, int fresh) RW_MUST_CHECK;
/* An RDTSC record: rdtsc/rdtscp (TSC and rdtscp's AUX), rdrand/rdseed
 * (the value written, AUX = the CF it set) or xbegin (TSC = the abort
 * status, AUX 0); KIND is REC_ND_*. */
int rec__emit_rdtsc(struct rec *r, u64 rip, u64 tsc, u32 aux, u32 kind)
    RW_MUST_CHECK;
int rec__emit_signal(struct rec *r, int signo, int code, u64 addr,
                     const struct rw_regs *regs, const u8 siginfo[128])
    RW_MUST_CHECK;
/* EXIT of thread TID; with SPEC, the digest DIGEST of its process as a
 * signal killed it. */
int rec__emit_exit(struct rec *r, u32 tid, i32 status, u32 signo,
                   u64 digest, const struct rw_digest_spec *spec)
    RW_MUST_CHECK;
int rec__emit_preempt(struct rec *r, const struct rw_regs *regs, u64 digest,
                      const struct rw_digest_spec *spec)
    RW_MUST_CHECK;
/* FORK of CHILD; RECORDED 1: it is recorded as a process of its own. */
int rec__emit_fork(struct rec *r, u32 child, u32 kind, u64 flags,
                   u32 recorded) RW_MUST_CHECK;
int rec__emit_diff(struct rec *r, u64 nr, u64 lines, const char *name)
    RW_MUST_CHECK;
/* END, in the process-wide stream (TRACE_TID_GLOBAL): the recording
 * finished. */
int rec__emit_end(struct rec *r, i32 status, u32 signo) RW_MUST_CHECK;
/* DIGEST of the current process's memory, in the current thread's
 * stream. */
int rec__emit_digest(struct rec *r, u64 digest,
                     const struct rw_digest_spec *spec) RW_MUST_CHECK;
/* MEM: the LEN bytes at DATA were found at ADDR (mem.c counts them). */
int rec__emit_mem(struct rec *r, u64 addr, const u8 *data, size_t len)
    RW_MUST_CHECK;

#endif /* RW_RECORDER_REC_INT_H */
