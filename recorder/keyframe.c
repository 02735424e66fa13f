/* SPDX-License-Identifier: MIT */
/* Full keyframes written while recording (rewind record --keyframes S).
 *
 * A keyframe is the state of the recorded process at a point of its
 * history, complete enough for a replay to begin there with nothing
 * before it: the records a history begins with (those rewind record -p
 * writes when it attaches), EXEC, a MAP for every mapping with every byte
 * that differs from its file or from zero, AUXV, then per thread
 * THREAD_START, XSTATE, PKRU and THREAD_NAME, and STACK_RULES.
 *
 * The records go to a trace of their own (trace_writer_divert), which is
 * stored in the recording as a blob; a TRACE_KF_RECORDER keyframe entry
 * at the sequence number of the next record names it. A replay that runs
 * the whole trace never reads them. One that begins at the keyframe
 * applies its records, then the recording's from its sequence number on.
 *
 * When one is due, the running thread is interrupted at the next tick and
 * located with a PREEMPT, as for a timeslice (recorder/loop.c); the
 * keyframe is written once no thread runs and every one stands where a
 * history can begin: stopped at a point the trace locates, or blocked
 * inside a syscall whose SYSCALL_ENTER is written (its entry state is
 * kept whole for this: rec__kf_entry). A blocked syscall that ends while
 * memory is read throws the keyframe away unless it wrote no memory
 * (ended_clean); thrown-away attempts count in the keyframes' share of
 * the recording's time. A thread in any other state (a
 * signal to deliver, a stop not handled yet, an exec) puts it off to the
 * next time the scheduler has nobody running. Several processes are not
 * written yet: a keyframe waits until one is left, with a note. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

static u64 mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

void rec__kf_arm(struct rec *r) {
  r->kf.interval_ns = (u64)r->opts->keyframe_ms * 1000000ull;
  r->kf.start_ns = mono_ns();
  if (r->kf.interval_ns) r->kf.next_ns = r->kf.start_ns + r->kf.interval_ns;
}

/* Keyframes of a large memory that changes all the time are slow (xz -T2
 * with one every 0.2 s spent half its time in them): after their first
 * second, they may take a tenth of the recording's time, no more. The
 * ring's are not put off: they keep it within its size. */
static int over_budget(struct rec *r, u64 now_ns) {
  u64 share = (now_ns - r->kf.start_ns) / 10 + 1000000000ull;
  if (r->kf.ns <= share) return 0;
  if (!r->kf.said_time) {
    r->kf.said_time = 1;
    rw_log(RW_LOG_INFO, "note: keyframes are put off: they took %.2f s "
           "(%llu written; they may take a tenth of the recording's time)",
           (double)r->kf.ns / 1e9, (unsigned long long)r->kf.count);
  }
  return 1;
}

void rec__kf_tick(struct rec *r, u64 now_ns) {
  if (r->kf.off) return;
  if (r->kf.interval_ns && now_ns >= r->kf.next_ns && !r->kf.due) {
    if (over_budget(r, now_ns)) {
      r->kf.next_ns = now_ns + r->kf.interval_ns;
      r->kf.put_off++;
    } else {
      r->kf.due = 1;
      r->kf.due_ns = now_ns;
    }
  }
  if (rec__ring_due(r) && !r->kf.due) {
    r->kf.due = 1;
    r->kf.due_ns = now_ns;
  }
}

int rec__kf_entry(struct rec *r, struct rec__task *t) {
  t->kfe_ok = 0;
  if ((!r->kf.interval_ns && !r->ring.bytes) || r->kf.off) return 0;
  if (!t->kfe && !(t->kfe = calloc(1, sizeof *t->kfe))) return RW_ENOMEM;
  struct rec__kfentry *e = t->kfe;
  /* As SYSCALL_ENTER has them (the number in rax), read at the entry
   * stop; what the kernel keeps of the FP and vector registers, in one
   * more call (a blocking syscall in a ping-pong of threads: two calls
   * more cost it 13%). */
  e->regs = t->entry;
  int rc = rec__fp_xstate_get(r, t->tid, &e->regs, &e->xinuse, e->x);
  if (rc < 0) return rc == RW_ERR(ESRCH) ? 0 : rc;
  e->has_x = rc;
  t->kfe_ok = 1;
  return 0;
}

/* Syscalls a history cannot begin inside: they change what a process or
 * thread is. */
static int beginnable_nr(u64 nr) {
  switch (nr) {
    case REC_NR_execve:
    case REC_NR_execveat:
    case REC_NR_clone:
    case REC_NR_clone3:
    case REC_NR_fork:
    case REC_NR_vfork:
    case REC_NR_exit:
    case REC_NR_exit_group:
    case REC_NR_rt_sigreturn:
      return 0;
    default:
      return 1;
  }
}

/* How many threads of process P live. */
static size_t live_threads(const struct rec *r, const struct rec__proc *p) {
  size_t n = 0;
  for (size_t i = 0; i < r->nth; i++)
    n += r->th[i]->proc == p && r->th[i]->state != REC_T_GONE;
  return n;
}

/* Whether every thread stands where a history can begin; if not, WHY
 * says what stands in the way (for the note). */
static int quiet(struct rec *r, const char **why) {
  if (r->root.gone || !live_threads(r, &r->root)) {
    *why = "the first process has ended (a history begins with it)";
    return 0;
  }
  if (r->npass) {
    *why = "a child runs unrecorded";
    return 0;
  }
  for (size_t k = 1; k < rec__proc_count(r); k++) {
    struct rec__proc *p = rec__proc_at(r, k);
    if (p->gone) continue;
    if (!live_threads(r, p)) { /* just made, or its end not seen yet */
      *why = "a process is starting or ending";
      return 0;
    }
    if (p->maps != &p->maps_own) {
      *why = "a vfork child shares its parent's memory";
      return 0;
    }
    const struct rec__task *first = rec__task_find(r, p->pid);
    if (!first || first->state == REC_T_GONE || first->proc != p) {
      *why = "a process's first thread has ended before its others (a "
             "history can only begin a process with it)";
      return 0;
    }
  }
  for (size_t i = 0; i < r->nth; i++) {
    const struct rec__task *t = r->th[i];
    if (t->state == REC_T_GONE) continue;
    if (!t->proc || t->proc->gone || t->has_pend || t->rsig || t->rstep ||
        t->step_signo || t->at_exit || t->exit_held || t->snap || t->fake)
      return 0;
    if (t->state == REC_T_READY && !t->in_syscall) continue;
    if (t->state == REC_T_KERNEL && t->in_syscall && t->kfe_ok &&
        beginnable_nr(t->nr))
      continue;
    return 0;
  }
  return 1;
}

/* For tests only (tests/replay/keyframes.sh): REWIND_TEST_KEYFRAME_SKEW
 * "regs" or "memory" makes the second keyframe wrong, in the rbx of a
 * thread or in a line of LEAD's live stack, so that a verification must
 * find it. */
static int skewed_regs(const struct rec *r) {
  const char *how = getenv("REWIND_TEST_KEYFRAME_SKEW");
  return how && !strcmp(how, "regs") && r->kf.count == 1 && r->kf.unpatch;
}

static int skew(struct rec *r, struct rec__task *lead) {
  const char *how = getenv("REWIND_TEST_KEYFRAME_SKEW");
  if (!how || r->kf.count != 1) return 0;
  if (!strcmp(how, "memory")) {
    const struct rw_regs *g = lead->state == REC_T_READY ? &lead->regs
                                                         : &lead->kfe->regs;
    u8 line[64];
    u64 at = (g->gpr[RW_REG_rsp] + 64) & ~(u64)63;
    if (rec__mem_read(r, at, line, sizeof line) != (i64)sizeof line)
      return 0;
    line[7] ^= 0x5a;
    return rec__mem_emit(r, at, line, sizeof line);
  }
  return 0;
}

/* Whether T, blocked in a syscall, has ended it without changing what a
 * keyframe holds: its pending stop is the syscall's exit, the syscall
 * changes no mapping, and with the result it returns it writes no byte of
 * memory (a futex wait, a sleep, a poll that timed out). Its thread
 * start, as it entered, is then still true of the keyframe, and its
 * SYSCALL_EXIT comes after it. The stop is only looked at, not taken. */
static int ended_clean(struct rec *r, struct rec__task *t) {
  u8 info[128];
  memset(info, 0, sizeof info);
  if (t->fake || !t->in_syscall ||
      ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof info, info) < 0 ||
      info[0] != PTRACE_SYSCALL_INFO_EXIT)
    return 0;
  const struct rec__sc *sc = rec__sc_lookup(t->eff_nr);
  const struct rec__sc *sn = rec__sc_lookup(t->nr);
  u32 bad = REC_SC_MAPS | REC_SC_DIFF | REC_SC_WARN;
  if (!sc || !sn || !(sc->flags & REC_SC_KNOWN) || ((sc->flags | sn->flags)
      & bad))
    return 0;
  i64 result = (i64)rd_le64(info + 24);
  struct rec__task *was = r->cur;
  struct rec__proc *was_proc = r->proc;
  rec__set_cur(r, t); /* its memory is read */
  struct rec__ranges out = {0};
  int rc = rec__sc_outputs(t->eff_nr, t->args, result, rec__mem_read, r,
                           &out);
  r->cur = was;
  r->proc = was_proc;
  int clean = rc == 0 && out.n == 0;
  rec__ranges_free(&out);
  return clean;
}

/* Whether no thread blocked in a syscall has reached a stop (its exit,
 * most often) that the recorder has not taken yet, unless that syscall
 * ended clean. Any other may have written to memory already: its bytes
 * belong after its SYSCALL_EXIT, so a keyframe that read them would not
 * be the state before it. Asked before and after the keyframe reads
 * memory; the stop stays pending. */
static int settled(struct rec *r) {
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *t = r->th[i];
    if (t->state != REC_T_KERNEL) continue;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)t->tid, &si,
               WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 && si.si_pid &&
        !(si.si_code == CLD_TRAPPED && ended_clean(r, t)))
      return 0;
  }
  return 1;
}

/* Thread T's THREAD_START (PARENT 0: of a new image; otherwise the
 * thread whose fork makes it), XSTATE, PKRU and THREAD_NAME; 1 when it is
 * about to restart a syscall. */
static int thread_state(struct rec *r, struct rec__task *t, u32 parent,
                        int how) {
  rec__set_cur(r, t);
  u8 z[1600];
  u32 xin = 0;
  int has = 0;
  if (t->state == REC_T_KERNEL && t->in_syscall && t->kfe_ok) {
    /* Blocked inside a syscall: as it entered it. */
    struct trace_rec_thread_start ts = {(u32)t->tid, parent, t->kfe->regs, 1,
                                        t->nr};
    if (skewed_regs(r)) ts.regs.gpr[RW_REG_rbx] ^= 0x10;
    RW_FORWARD(trace_rec_thread_start_append(r->w, (u32)t->tid, &ts));
    xin = t->kfe->xinuse;
    has = t->kfe->has_x;
    memcpy(z, t->kfe->x, sizeof z);
  } else {
    /* Attaching: the registers rec__attach made (out of the vDSO and
     * interrupted syscalls); otherwise as the thread stands. */
    if (how != REC_DESCRIBE_AS_IS)
      RW_FORWARD(rec__regs_get(r, t->tid, &t->regs, 1));
    /* A syscall the kernel restarts once the thread goes on (a read
     * interrupted by a stop): whether it restarts or returns EINTR
     * depends on a signal that may come first, which no state can say.
     * Another time. */
    i64 rax = (i64)t->regs.gpr[RW_REG_rax];
    if (how == REC_DESCRIBE_KEYFRAME && t->regs.orig_rax != ~0ull &&
        rax >= -516 && rax <= -512)
      return 1;
    /* RF (the resume flag) is the kernel's business: the program can
     * never see it, and a replay has it clear. */
    t->regs.rflags &= ~(u64)0x10000;
    struct rw_regs regs = t->regs;
    if (skewed_regs(r)) regs.gpr[RW_REG_rbx] ^= 0x10;
    RW_FORWARD(rec__emit_thread_start(r, (u32)t->tid, parent, &regs));
    has = rec__xstate_get(r, t->tid, &xin, z);
  }
  /* What THREAD_START cannot hold: the AVX-512 registers (glibc's string
   * functions leave values in them), which XSAVE components are in use. */
  struct trace_rec_xstate x = {(u32)t->tid, xin, {z, has ? sizeof z : 0}};
  RW_FORWARD(trace_rec_xstate_append(r->w, (u32)t->tid, &x));
  if (!(t->state == REC_T_KERNEL && t->in_syscall))
    RW_FORWARD(rec__emit_pkru(r, t->tid, 0));
  return rec__emit_thread_name(r, (u32)t->tid, t->name);
}

/* LEAD's process as a new image: EXEC, its mappings with their bytes,
 * AUXV. */
static int image_state(struct rec *r, struct rec__task *lead, int how) {
  rec__set_cur(r, lead);
  pid_t pid = r->proc->pid;
  char link[64], exe[4096];
  snprintf(link, sizeof link, "/proc/%d/exe", (int)pid);
  ssize_t n = readlink(link, exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  RW_FORWARD(rec__emit_exec(r, (u32)pid, exe));
  struct rec__maps *m = r->proc->maps;
  for (const struct rec__map *e = rec__maps_first(m); e;
       e = rec__maps_next(m, e))
    RW_FORWARD(rec__space_describe(r, e, e->start, e->end, how));
  RW_FORWARD(rec__kf_mem_flush(r, (u32)lead->tid)); /* in its stream */
  snprintf(link, sizeof link, "/proc/%d/auxv", (int)pid);
  int fd = open(link, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    u8 aux[4096];
    ssize_t an = read(fd, aux, sizeof aux);
    close(fd);
    if (an >= 16) {
      struct trace_rec_auxv a = {{aux, (size_t)an & ~(size_t)15}};
      RW_FORWARD(trace_rec_auxv_append(r->w, (u32)lead->tid, &a));
    }
  }
  return 0;
}

/* The threads of LEAD's process but LEAD, made by PARENT (0: none). */
static int other_threads(struct rec *r, struct rec__task *lead, u32 parent,
                         int how) {
  for (size_t i = 0; i < r->nth; i++) {
    struct rec__task *t = r->th[i];
    if (t->state == REC_T_GONE || t->proc != lead->proc || t == lead)
      continue;
    int rc = thread_state(r, t, parent, how);
    if (rc) return rc;
  }
  return 0;
}

/* The thread whose fork makes process C in a keyframe: its parent's first
 * thread while that is recorded, else the first process's (LEAD). */
static struct rec__task *forker(struct rec *r, const struct rec__proc *c,
                                struct rec__task *lead) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)c->pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return lead;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  buf[n > 0 ? n : 0] = 0;
  const char *e = strrchr(buf, ')'); /* pid (comm) state ppid */
  int ppid = 0;
  if (!e || sscanf(e + 1, " %*c %d", &ppid) != 1) return lead;
  const struct rec__proc *p = rec__proc_find(r, ppid);
  struct rec__task *t = p ? rec__task_find(r, ppid) : NULL;
  return t && t->state != REC_T_GONE && t->proc == p && p != c ? t : lead;
}

/* A process forked in a keyframe (man/rewind-trace.5, RECORDER
 * KEYFRAMES): FORK in its maker's stream, its first thread as the fork
 * makes it, then as a new image of its own with its other threads. */
static int child_state(struct rec *r, struct rec__proc *c,
                       struct rec__task *lead, int how) {
  struct rec__task *first = rec__task_find(r, c->pid);
  struct rec__task *from = forker(r, c, lead);
  rec__set_cur(r, from);
  struct trace_rec_fork f = {(u32)c->pid, 0, 0, 1};
  RW_FORWARD(trace_rec_fork_append(r->w, (u32)from->tid, &f));
  int rc = thread_state(r, first, (u32)from->tid, how);
  if (rc) return rc;
  RW_FORWARD(image_state(r, first, how));
  rc = thread_state(r, first, 0, how);
  if (rc == 0) rc = other_threads(r, first, (u32)first->tid, how);
  if (rc) return rc;
  rec__set_cur(r, first);
  return rec__stack_rules(r, 1);
}

int rec__emit_state(struct rec *r, struct rec__task *lead, int how) {
  RW_FORWARD(image_state(r, lead, how));
  RW_FORWARD(rec__cpuid_state(r, (u32)lead->tid)); /* the CPUID in force */
  int rc = thread_state(r, lead, 0, how);
  if (rc == 0) rc = other_threads(r, lead, 0, how);
  if (rc) return rc;
  rec__set_cur(r, lead);
  RW_FORWARD(rec__stack_rules(r, 1));
  /* The other processes (of a keyframe, or attached with more -p). */
  for (size_t k = 0; k < rec__proc_count(r) && rc == 0; k++) {
    struct rec__proc *c = rec__proc_at(r, k);
    if (c != lead->proc && !c->gone && live_threads(r, c))
      rc = child_state(r, c, lead, how);
  }
  rec__set_cur(r, lead);
  return rc;
}

/* The state as a trace image in *IMG (malloc'd), its size in *LEN;
 * 1 (and nothing) when a thread stands where it cannot be written. */
static int write_state(struct rec *r, struct rec__task *lead, u8 **img,
                       size_t *len) {
  int fd = memfd_create("rewind-keyframe", MFD_CLOEXEC);
  RW_RETURN_IF(fd < 0, RW_ERR(errno), "memfd_create");
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  trace_writer *kw;
  struct trace_writer_opts o = {0};
  o.overwrite = 1;
  int rc = trace_writer_open(&kw, path, &o);
  if (rc < 0) {
    close(fd);
    return rc;
  }
  rc = trace_writer_divert(r->w, kw);
  if (rc == 0) {
    r->kf.unpatch = 1;
    rec__kf_mem_begin(r);
    rc = rec__emit_state(r, lead, REC_DESCRIBE_KEYFRAME);
    if (rc == 0) rc = skew(r, lead);
    r->kf.unpatch = 0;
    int back = trace_writer_divert(r->w, NULL);
    if (rc == 0) rc = back;
  }
  int crc = trace_writer_close(kw);
  if (rc == 0) rc = crc;
  struct stat st;
  *img = NULL;
  if (rc == 1) {
    close(fd);
    return 1;
  }
  if (rc == 0 && fstat(fd, &st) < 0) rc = RW_ERR(errno);
  if (rc == 0 && !(*img = malloc((size_t)st.st_size + 1))) rc = RW_ENOMEM;
  if (rc == 0 && pread(fd, *img, (size_t)st.st_size, 0) != st.st_size)
    rc = RW_ERR(EIO);
  close(fd);
  if (rc < 0) {
    free(*img);
    *img = NULL;
    return rc;
  }
  *len = (size_t)st.st_size;
  return 0;
}

/* A live thread of process P, or NULL. */
static struct rec__task *live_thread(struct rec *r, const struct rec__proc *p) {
  for (size_t i = 0; i < r->nth && !p->gone; i++)
    if (r->th[i]->proc == p && r->th[i]->state != REC_T_GONE) return r->th[i];
  return NULL;
}

/* The files the mappings of every process name, stored in a new ring
 * segment too (the keyframe's MAP records name them). */
static int carry_files(struct rec *r) {
  struct rec__task *was = r->cur;
  int rc = 0;
  for (size_t k = 0; k < rec__proc_count(r) && rc == 0; k++) {
    struct rec__proc *p = rec__proc_at(r, k);
    struct rec__task *t = live_thread(r, p);
    if (!t) continue;
    rec__set_cur(r, t);
    for (const struct rec__map *m = rec__maps_first(p->maps); m && rc == 0;
         m = rec__maps_next(p->maps, m)) {
      u8 h[32];
      if (!rec__map_is_file(m) ||
          (m->flags & (REC_MAPF_SPECIAL | REC_MAPF_VDSO)))
        continue;
      rc = rec__blob_get(r, m, h, NULL);
      if (rc == RW_EUNSUPPORTED || rc == RW_ELIMIT || rc == RW_ERR(ENOENT) ||
          rc == RW_ERR(EACCES))
        rc = 0; /* its bytes are MEM records (recorder/space.c) */
    }
  }
  rec__set_cur(r, was);
  return rc;
}

int rec__kf_try(struct rec *r) {
  if (!r->kf.due || r->cur) return 0;
  /* Attempts thrown away count too: a program whose syscalls keep ending
   * while its memory is read must not spend its time in them. */
  u64 now = mono_ns();
  if (!rec__ring_due(r) && over_budget(r, now)) {
    r->kf.due = 0;
    r->kf.next_ns = now + r->kf.interval_ns;
    r->kf.put_off++;
    return 0;
  }
  const char *why = NULL;
  if (!quiet(r, &why) || !settled(r)) {
    r->kf.waits++;
    /* Said once, when it has waited a while (a vfork child execs soon). */
    if (why && !r->kf.said && mono_ns() - r->kf.due_ns > 1000000000ull) {
      r->kf.said = 1;
      rw_log(RW_LOG_INFO, "note: keyframes wait while %s", why);
    }
    return 0;
  }
  u64 t0 = rw_now_ns();
  r->proc = &r->root;
  struct rec__task *lead = rec__task_find(r, r->root.pid), *any = NULL;
  for (size_t i = 0; i < r->nth && !any; i++)
    if (r->th[i]->state != REC_T_GONE && r->th[i]->proc == &r->root)
      any = r->th[i];
  if (!lead || lead->state == REC_T_GONE) lead = any;
  if (!lead) return 0;
  /* The maps as they are now (a stack may have grown): what that writes
   * belongs to the history before the keyframe. */
  static const u64 none[6];
  for (size_t k = 0; k < rec__proc_count(r); k++) {
    struct rec__proc *p = rec__proc_at(r, k);
    struct rec__task *t = live_thread(r, p);
    if (!t) continue;
    rec__set_cur(r, t);
    RW_FORWARD(rec__space_after(r, ~0ull, none, 0));
  }
  rec__set_cur(r, lead);
  /* A full segment of the ring: the keyframe begins the next one, which
   * holds no pack yet. */
  int rotate = rec__ring_due(r);
  if (rotate) rec__kf_mem_forget(r);
  u64 stored = r->kf.mem.stored;
  u8 *img = NULL;
  size_t len = 0;
  int ws = write_state(r, lead, &img, &len);
  const char *fail = getenv("REWIND_TEST_KEYFRAME_FAIL"); /* tests only */
  if (ws == 0 && fail && strtoull(fail, NULL, 10) == r->kf.count + 1) {
    free(img);
    img = NULL;
    ws = RW_ERR(EIO);
  }
  if (ws != 0 || !settled(r)) { /* a syscall ended meanwhile: later */
    rec__kf_mem_end(r, 0);
    free(img);
    r->kf.waits++;
    r->kf.ns += rw_now_ns() - t0;
    int rc = 0;
    if (ws < 0 && ws != RW_ERR(ESRCH)) {
      /* Nothing of it is in the trace: the recording goes on without. */
      rw_log(RW_LOG_INFO, "warning: keyframe %llu could not be written "
             "(%s): no more keyframes%s",
             (unsigned long long)r->kf.count + 1, rw_strerror(ws),
             r->ring.bytes ? ", and the ring keeps all from here" : "");
      rc = rec__note(r, 1, "keyframes stopped: %s", rw_strerror(ws));
      r->kf.off = 1;
      r->kf.due = 0;
    }
    r->cur = NULL;
    return rc;
  }
  /* It will be written: only now the next segment (making one, with the
   * files it names, costs too much to throw away when a keyframe has to
   * wait). */
  trace_writer *old = NULL;
  int rc = rotate ? rec__ring_begin(r, &old) : 0;
  if (rc == 0 && rotate) rc = carry_files(r);
  if (rc == 0) rc = rec__kf_mem_store(r);
  u8 hash[32];
  char name[64];
  snprintf(name, sizeof name, "keyframe %llu",
           (unsigned long long)r->kf.count + 1);
  if (rc == 0) rc = trace_writer_add_blob(r->w, name, img, len, hash);
  free(img);
  u64 seq = trace_writer_next_seq(r->w);
  u8 p[TRACE_KF_RECORDER_SIZE];
  memset(p, 0, sizeof p);
  wr_le32(p, 1);
  wr_le32(p + 4, (u32)r->nth);
  wr_le64(p + 8, seq);
  wr_le64(p + 16, (u64)len);
  memcpy(p + 24, hash, 32);
  wr_le64(p + 56, rw_now_ns());
  if (rc == 0) rc = trace_writer_add_keyframe(r->w, TRACE_KF_RECORDER, seq,
                                              p, sizeof p);
  if (rc == 0) rc = trace_writer_flush(r->w);
  if (rotate && old) {
    int erc = rec__ring_end(r, old, rc == 0);
    if (rc == 0) rc = erc;
  }
  rec__kf_mem_end(r, rc == 0);
  if (rc == 0 && rotate) rc = rec__ring_settle(r);
  r->cur = NULL;
  RW_FORWARD(rc);
  r->kf.count++;
  r->kf.bytes += len + (r->kf.mem.stored - stored);
  r->kf.ns += rw_now_ns() - t0;
  r->kf.due = 0;
  r->kf.next_ns = mono_ns() + r->kf.interval_ns;
  return 1;
}
