/* SPDX-License-Identifier: MIT */
/* The threads of PROG: the table the scheduler (recorder/loop.c) works on,
 * a thread's start (THREAD_START after its parent's clone returns, with the
 * registers it starts with), its names (THREAD_NAME), and its exit alone
 * (the kernel's write of 0 to its clear_child_tid word, and of
 * FUTEX_OWNER_DIED to the robust mutexes it held, become MEM records before
 * EXIT). The trace layout is in docs/design-notes.md, "Threads". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

#define REC_PR_SET_NAME 15

struct rec__task *rec__task_find(struct rec *r, pid_t tid) {
  struct rec__task *gone = NULL;
  for (size_t i = 0; i < r->nth; i++) {
    if (r->th[i]->tid != tid) continue;
    if (r->th[i]->state != REC_T_GONE) return r->th[i];
    gone = r->th[i]; /* its id may have been given to a new thread */
  }
  return gone;
}

void rec__task_remove(struct rec *r, struct rec__task *t) {
  for (size_t i = 0; i < r->nth; i++) {
    if (r->th[i] != t) continue;
    memmove(r->th + i, r->th + i + 1, (r->nth - i - 1) * sizeof *r->th);
    r->nth--;
    if (r->rr >= r->nth) r->rr = 0;
    break;
  }
  if (r->cur == t) r->cur = NULL;
  free(t->env_save);
  free(t->kfe);
  free(t);
}

struct rec__task *rec__task_add(struct rec *r, pid_t tid) {
  if (r->nth == r->capth) {
    size_t cap = r->capth ? 2 * r->capth : 8;
    struct rec__task **v = realloc(r->th, cap * sizeof *v);
    if (!v) return NULL;
    r->th = v;
    r->capth = cap;
  }
  struct rec__task *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->tid = tid;
  t->proc = r->proc;
  t->state = REC_T_READY;
  r->th[r->nth++] = t;
  return t;
}

void rec__tasks_free(struct rec *r) {
  for (size_t i = 0; i < r->nth; i++) {
    free(r->th[i]->env_save);
    free(r->th[i]->kfe);
    free(r->th[i]);
  }
  free(r->th);
  r->th = NULL;
  r->nth = r->capth = 0;
  r->cur = NULL;
}

struct rec__proc *rec__proc_of_thread(struct rec *r, pid_t tid) {
  char path[64], line[128];
  snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
  FILE *f = fopen(path, "re");
  int tgid = -1;
  if (!f) return NULL;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Tgid: %d", &tgid) == 1) break;
  fclose(f);
  return tgid > 0 ? rec__proc_find(r, (pid_t)tgid) : NULL;
}

/* The process id of thread TID. */
static pid_t tgid_of(struct rec *r, pid_t tid) {
  struct rec__task *t = rec__task_find(r, tid);
  return t && t->proc ? t->proc->pid : r->proc->pid;
}

void rec__thread_comm(struct rec *r, pid_t tid, char name[16]) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)tgid_of(r, tid),
           (int)tid);
  name[0] = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t n = read(fd, name, 15);
  close(fd);
  if (n < 0) n = 0;
  name[n] = 0;
  char *nl = strchr(name, '\n');
  if (nl) *nl = 0;
}

/* Writes THREAD_NAME for T when its comm changed since the last one. */
static int refresh_name(struct rec *r, struct rec__task *t) {
  char name[16];
  rec__thread_comm(r, t->tid, name);
  if (!name[0] || !strcmp(name, t->name)) return 0;
  memcpy(t->name, name, sizeof name);
  return rec__emit_thread_name(r, (u32)t->tid, name);
}

u64 rec__clone_flags(struct rec *r) {
  struct rec__task *t = r->cur;
  if (t->nr == REC_NR_clone) return t->args[0];
  u8 b[8];
  if (t->nr == REC_NR_clone3 && rec__mem_read(r, t->args[0], b, 8) == 8)
    return rd_le64(b);
  return 0;
}

u64 rec__child_tid_addr(struct rec *r) {
  struct rec__task *t = r->cur;
  if (t->nr == REC_NR_clone) return t->args[3];
  u8 b[8];
  if (rec__mem_read(r, t->args[0] + 16, b, 8) == 8) return rd_le64(b);
  return 0;
}

int rec__on_thread_clone(struct rec *r, pid_t child) {
  struct rec__task *c = rec__task_find(r, child);
  if (c && c->has_pend) {
    c->has_pend = 0; /* its first stop, seen before this event */
  } else {
    if (!c && !(c = rec__task_add(r, child))) return RW_ENOMEM;
    for (;;) {
      int st;
      pid_t p = waitpid(child, &st, __WALL);
      if (p < 0 && errno == EINTR) continue;
      if (p < 0 || !WIFSTOPPED(st)) { /* gone already (a dying process) */
        c->state = REC_T_GONE;
        return 0;
      }
      break;
    }
  }
  c->state = REC_T_READY;
  c->rsig = c->rstep = 0;
  RW_FORWARD(rec__regs_get(r, child, &c->entry, 1));
  c->entry.orig_rax = ~0ull;
  c->fp_valid = 1;
  u64 flags = rec__clone_flags(r);
  if (flags & REC_CLONE_CHILD_CLEARTID) c->ctid = rec__child_tid_addr(r);
  c->tsc_mode = r->cur->tsc_mode; /* a new thread inherits these */
  c->own_seccomp = r->cur->own_seccomp;
  c->own_nnp = r->cur->own_nnp;
  r->cur->new_child = child;
  r->n.threads++;
  return 0;
}

int rec__thread_started(struct rec *r) {
  struct rec__task *t = r->cur;
  struct rec__task *c = rec__task_find(r, t->new_child);
  t->new_child = 0;
  if (!c || c->state == REC_T_GONE) return 0;
  /* CLONE_CHILD_SETTID: the kernel wrote the id before the child ran. */
  if (rec__clone_flags(r) & REC_CLONE_CHILD_SETTID)
    RW_FORWARD(rec__mem_import(r, rec__child_tid_addr(r), 4));
  RW_FORWARD(
      rec__emit_thread_start(r, (u32)c->tid, (u32)t->tid, &c->entry));
  RW_FORWARD(rec__emit_pkru(r, c->tid, 0));
  rec__thread_comm(r, c->tid, c->name);
  return rec__emit_thread_name(r, (u32)c->tid, c->name);
}

/* 1 when the string at ADDR in the tracee ends with "/comm". */
static int is_comm_path(struct rec *r, u64 addr) {
  char p[256];
  i64 n = rec__mem_read(r, addr, p, sizeof p - 1);
  if (n <= 0) return 0;
  p[n] = 0;
  size_t len = strlen(p);
  return len >= 5 && !strcmp(p + len - 5, "/comm");
}

static void fd_mark(struct rec *r, u64 fd, int on) {
  if (fd >= sizeof r->proc->comm_fds * 8) return;
  if (on)
    r->proc->comm_fds[fd / 8] |= (u8)(1u << (fd % 8));
  else
    r->proc->comm_fds[fd / 8] &= (u8) ~(1u << (fd % 8));
}

static int fd_marked(struct rec *r, u64 fd) {
  return fd < sizeof r->proc->comm_fds * 8 &&
         (r->proc->comm_fds[fd / 8] & (1u << (fd % 8)));
}

int rec__thread_after_syscall(struct rec *r, i64 result) {
  struct rec__task *t = r->cur;
  const u64 *a = t->args;
  switch (t->nr) {
    case REC_NR_set_tid_address:
      t->ctid = a[0];
      return 0;
    case REC_NR_prctl:
      if (a[0] == REC_PR_SET_NAME && result == 0) return refresh_name(r, t);
      return 0;
    case REC_NR_open:
    case REC_NR_openat:
      if (result >= 0)
        fd_mark(r, (u64)result,
                is_comm_path(r, t->nr == REC_NR_open ? a[0] : a[1]));
      return 0;
    case REC_NR_close:
      fd_mark(r, a[0], 0);
      return 0;
    case REC_NR_write:
    case REC_NR_pwrite64:
    case REC_NR_writev:
    case REC_NR_pwritev:
      if (result < 0 || !fd_marked(r, a[0])) return 0;
      /* Another thread's name may have changed: look at all of them. */
      for (size_t i = 0; i < r->nth; i++)
        if (r->th[i]->state != REC_T_GONE && r->th[i]->proc == t->proc)
          RW_FORWARD(refresh_name(r, r->th[i]));
      return 0;
    default:
      return 0;
  }
}

char rec__proc_state(struct rec *r, pid_t tid) {
  return rec__task_state(tgid_of(r, tid), tid);
}

char rec__task_state(pid_t pid, pid_t tid) {
  char path[96], buf[512];
  snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  char *p = strrchr(buf, ')');
  return p && p[1] == ' ' ? p[2] : 0;
}

/* Another thread of T's process that is not gone, or NULL. */
static struct rec__task *other_live(struct rec *r, struct rec__task *t) {
  for (size_t i = 0; i < r->nth; i++)
    if (r->th[i] != t && r->th[i]->proc == t->proc &&
        r->th[i]->state != REC_T_GONE)
      return r->th[i];
  return NULL;
}

/* The kernel walks this many entries of a robust list at most. */
#define REC_ROBUST_MAX 2048

/* The futex words of the robust mutexes thread TID holds, or is about to
 * take or release (list_op_pending), into OUT (up to MAX). When the thread
 * dies the kernel marks each one FUTEX_OWNER_DIED, with no syscall of the
 * program to say so. Returns how many. */
static size_t robust_words(struct rec *r, pid_t tid, u64 *out, size_t max) {
  u64 head = 0;
  size_t len = 0, n = 0;
  if (syscall(SYS_get_robust_list, (int)tid, &head, &len) < 0 || !head ||
      len != 24)
    return 0;
  u8 h[24]; /* next, futex_offset, list_op_pending */
  if (rec__mem_read(r, head, h, sizeof h) != (i64)sizeof h) return 0;
  i64 off = (i64)rd_le64(h + 8);
  u64 pending = rd_le64(h + 16) & ~1ull;
  u64 e = rd_le64(h) & ~1ull; /* bit 0 marks a PI mutex */
  for (int i = 0; e != head && e && i < REC_ROBUST_MAX && n < max; i++) {
    if (e != pending) out[n++] = e + (u64)off;
    u8 next[8];
    if (rec__mem_read(r, e, next, 8) != 8) break;
    e = rd_le64(next) & ~1ull;
  }
  if (pending && n < max) out[n++] = pending + (u64)off;
  return n;
}

int rec__thread_exit(struct rec *r) {
  struct rec__task *t = r->cur;
  int status = (int)(t->args[0] & 0xff);
  u64 robust[REC_ROBUST_MAX + 1];
  size_t nrobust = robust_words(r, t->tid, robust, RW_ARRAY_SIZE(robust));
  /* The last thread: the history ends here, with the memory as it is. */
  if (!other_live(r, t)) {
    RW_FORWARD(rec__end_digest(r, REC_END_LAST_THREAD));
    RW_FORWARD(rec__proc_digest(r));
  }
  /* Let it go and wait until the kernel is done with it: its exit stop,
   * then its death (a leader whose threads live on stays a zombie, which
   * /proc shows). No other thread runs meanwhile. */
  ptrace(PTRACE_CONT, t->tid, 0, 0);
  struct timespec nap = {0, 20000};
  for (int tries = 0; tries < 250000; tries++) {
    int st;
    pid_t p = waitpid(t->tid, &st, __WALL | WNOHANG);
    if (p < 0 && errno == EINTR) continue;
    if (p == t->tid && WIFSTOPPED(st)) {
      ptrace(PTRACE_CONT, t->tid, 0, 0);
      continue;
    }
    if (p == t->tid) {
      if (t->tid == r->proc->pid) { /* the last thread: the process ended */
        r->proc->final_status = st;
        r->proc->final_seen = 1;
      }
      break;
    }
    if (p < 0) break;
    char s = rec__proc_state(r, t->tid);
    if (s == 0 || s == 'Z' || s == 'X') break;
    nanosleep(&nap, NULL);
  }
  struct rec__task *o = other_live(r, t);
  if (o && r->proc->live == t->tid) r->proc->live = o->tid;
  /* The kernel wrote 0 at clear_child_tid; only the others can see it. */
  if (t->ctid && o) RW_FORWARD(rec__mem_import(r, t->ctid, 4));
  for (size_t i = 0; o && i < nrobust; i++)
    RW_FORWARD(rec__mem_import(r, robust[i], 4));
  t->state = REC_T_GONE;
  t->in_syscall = 0;
  t->exit_sp = t->entry.gpr[RW_REG_rsp];
  RW_FORWARD(rec__emit_exit(r, (u32)t->tid, status, 0, 0, NULL));
  t->exit_written = 1;
  return 0;
}

void rec__threads_exec(struct rec *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->nth; i++) {
    if (r->th[i] == r->cur || r->th[i]->proc != r->proc) {
      r->th[n++] = r->th[i];
    } else {
      free(r->th[i]->env_save);
      free(r->th[i]->kfe);
      free(r->th[i]);
    }
  }
  r->nth = n;
  r->rr = 0;
  r->proc->live = r->proc->pid;
  memset(r->proc->comm_fds, 0, sizeof r->proc->comm_fds);
  if (r->cur) r->cur->ctid = 0, r->cur->name[0] = 0;
  /* The rseq area an attached thread had is the old image's. */
  if (r->cur) r->cur->rseq_ptr = 0;
}
