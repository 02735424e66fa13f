/* SPDX-License-Identifier: MIT */
/* The thread table (DESIGN.md section 4, "Scheduler"): the threads of the
 * replayed process in the order they were created, each with its own
 * processor state over the one shared address space, and what a keyframe
 * keeps of them. Also the debugger's view of the threads: the list, their
 * registers, and stepping one thread forwards. Which thread runs when is
 * the event machine's business (step.c); reverse steps are reverse.c's. */
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

struct rp__thread *rp__thread_find(rp_replay *rp, u32 tid) {
  if (rp->th.thr && rp->th.thr->st.tid == tid) return rp->th.thr;
  for (size_t i = 0; i < rp->th.nthreads; i++)
    if (rp->th.threads[i]->st.tid == tid) return rp->th.threads[i];
  return NULL;
}

/* A thread struct out of the spare list, or a new one. */
static int thread_get(rp_replay *rp, struct rp__thread **out) {
  struct rp__thread *t;
  if (rp->th.nthreads == rp->th.capthreads) {
    size_t cap = rp->th.capthreads ? 2 * rp->th.capthreads : 8;
    struct rp__thread **v = realloc(rp->th.threads, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "threads");
    rp->th.threads = v;
    rp->th.capthreads = cap;
  }
  /* A spare whose cpu is bound to the process's address space. */
  size_t k = rp->th.nspare;
  while (k > 0 && cpu_get_mem(rp->th.spare[k - 1]->cpu) != rp->proc->mem) k--;
  if (k) {
    t = rp->th.spare[k - 1];
    rp->th.spare[k - 1] = rp->th.spare[--rp->th.nspare];
  } else {
    t = calloc(1, sizeof *t);
    RW_RETURN_IF(!t, RW_ENOMEM, "thread");
    int rc = cpu_new(rp->proc->mem, &rp->proc->cfg, &t->cpu);
    if (rc < 0) {
      free(t);
      return rc;
    }
  }
  memset(&t->st, 0, sizeof t->st);
  t->st.proc_ix = rp->proc->ix;
  t->proc = rp->proc;
  cpu_break_cond(t->cpu, 0, NULL);
  *out = t;
  return 0;
}

/* Keeps T (out of the table) for reuse. */
static void thread_put(rp_replay *rp, struct rp__thread *t) {
  if (RW_UNLIKELY(rp->prof)) rp__prof_thread_end(rp, t);
  if (rp->th.nspare == rp->th.capspare) {
    size_t cap = rp->th.capspare ? 2 * rp->th.capspare : 8;
    struct rp__thread **v = realloc(rp->th.spare, cap * sizeof *v);
    if (!v) { /* cannot keep it: free it */
      if (rp->search.preempt_cpu == t->cpu) rp->search.preempt_cpu = NULL;
      cpu_free(t->cpu);
      free(t);
      return;
    }
    rp->th.spare = v;
    rp->th.capspare = cap;
  }
  rp->th.spare[rp->th.nspare++] = t;
}

int rp__thread_start(rp_replay *rp, u32 tid, u64 seq,
                     const struct rw_regs *regs, struct rp__thread **out) {
  struct rp__thread *t;
  RW_FORWARD(thread_get(rp, &t));
  if (cpu_set_regs(t->cpu, regs) < 0) {
    thread_put(rp, t);
    RW_RETURN_IF(1, RW_ECORRUPT, "THREAD_START of %u: registers not valid",
                 tid);
  }
  cpu_set_icount(t->cpu, 0);
  t->st.tid = tid;
  t->st.start_seq = seq;
  t->st.alive = 1;
  t->st.fresh = 1;
  if (RW_UNLIKELY(rp->prof)) {
    int rc = rp__prof_thread_start(rp, t);
    if (rc < 0) {
      thread_put(rp, t);
      return rc;
    }
  }
  rp->th.threads[rp->th.nthreads++] = t;
  rp->th.nalive++;
  rp->th.have_thread = 1;
  if (!rp->th.thr) {
    rp->th.thr = t;
    rp->th.cur_tid = tid;
  }
  *out = t;
  return 0;
}


void rp__thread_remove(rp_replay *rp, struct rp__thread *t) {
  for (size_t i = 0; i < rp->th.nthreads; i++) {
    if (rp->th.threads[i] != t) continue;
    memmove(&rp->th.threads[i], &rp->th.threads[i + 1],
            (rp->th.nthreads - i - 1) * sizeof *rp->th.threads);
    rp->th.nthreads--;
    if (t->st.alive)
      rp->th.nalive--;
    else
      rp->th.nzombies--;
    if (rp->th.thr == t) rp->th.thr = NULL; /* cur_tid stays */
    thread_put(rp, t);
    return;
  }
  RW_ASSERT(!"the thread is in the table");
}

void rp__threads_drop_all(rp_replay *rp) {
  for (size_t i = rp->th.nthreads; i-- > 0;)
    if (rp->th.threads[i]->proc == rp->proc)
      rp__thread_remove(rp, rp->th.threads[i]);
}

size_t rp__threads_alive_in(const rp_replay *rp, const struct rp__proc *p) {
  size_t n = 0;
  for (size_t i = 0; i < rp->th.nthreads; i++)
    n += rp->th.threads[i]->proc == p && rp->th.threads[i]->st.alive;
  return n;
}

void rp__threads_purge(rp_replay *rp) {
  for (size_t i = rp->th.nthreads; i-- > 0;)
    if (!rp->th.threads[i]->st.alive) rp__thread_remove(rp, rp->th.threads[i]);
}

int rp__threads_init(rp_replay *rp) {
  struct rp__thread *t;
  RW_FORWARD(thread_get(rp, &t));
  thread_put(rp, t);
  return 0;
}

void rp__threads_free(rp_replay *rp) {
  for (size_t i = 0; i < rp->th.nthreads; i++) {
    cpu_free(rp->th.threads[i]->cpu);
    free(rp->th.threads[i]);
  }
  for (size_t i = 0; i < rp->th.nspare; i++) {
    cpu_free(rp->th.spare[i]->cpu);
    free(rp->th.spare[i]);
  }
  free(rp->th.threads);
  free(rp->th.spare);
  rp->th.threads = rp->th.spare = NULL;
  rp->th.nthreads = rp->th.capthreads = rp->th.nspare = rp->th.capspare = 0;
  rp->th.thr = NULL;
}

int rp__threads_capture(rp_replay *rp, struct rp__kf *kf) {
  size_t size = cpu_state_size();
  kf->nthreads = 0;
  kf->threads = NULL;
  kf->states = NULL;
  kf->cur_tid = rp->th.cur_tid;
  kf->cur_index = -1;
  if (!rp->th.nthreads) return 0;
  kf->threads = malloc(rp->th.nthreads * sizeof *kf->threads);
  kf->states = malloc(rp->th.nthreads * size);
  if (!kf->threads || !kf->states) {
    free(kf->threads);
    free(kf->states);
    kf->threads = NULL;
    kf->states = NULL;
    RW_RETURN_IF(1, RW_ENOMEM, "keyframe threads");
  }
  kf->nthreads = rp->th.nthreads;
  for (size_t i = 0; i < rp->th.nthreads; i++) {
    const struct rp__thread *t = rp->th.threads[i];
    struct rp__kthread *k = &kf->threads[i];
    k->st = t->st;
    k->cpu_icount = cpu_icount(t->cpu);
    k->state = kf->states + i * size;
    cpu_state_save(t->cpu, k->state);
    if (t == rp->th.thr) kf->cur_index = (int)i;
  }
  return 0;
}

int rp__threads_restore(rp_replay *rp, const struct rp__kf *kf) {
  /* Every struct goes back to the spare list (its cpu kept), then the
   * keyframe's threads take them again in order: the single-threaded case
   * gets the same struct back. */
  while (rp->th.nthreads) {
    struct rp__thread *t = rp->th.threads[--rp->th.nthreads];
    thread_put(rp, t);
  }
  rp->th.nalive = rp->th.nzombies = 0;
  rp->th.thr = NULL;
  rp->th.cur_tid = kf->cur_tid;
  for (size_t i = 0; i < kf->nthreads; i++) {
    const struct rp__kthread *k = &kf->threads[i];
    struct rp__thread *t;
    rp->proc = rp__proc_at(rp, k->st.proc_ix);
    RW_FORWARD(thread_get(rp, &t));
    cpu_state_load(t->cpu, k->state);
    cpu_set_icount(t->cpu, k->cpu_icount);
    t->st = k->st;
    rp->th.threads[rp->th.nthreads++] = t;
    if (t->st.alive)
      rp->th.nalive++;
    else
      rp->th.nzombies++;
    if ((int)i == kf->cur_index) rp->th.thr = t;
  }
  rp->proc = rp->th.thr ? rp->th.thr->proc : &rp->root;
  return 0;
}

const struct rp__kthread *rp__kf_thread(const struct rp__kf *kf,
                                        const struct rp__thread *t) {
  for (size_t i = 0; i < kf->nthreads; i++)
    if (kf->threads[i].st.start_seq == t->st.start_seq &&
        kf->threads[i].st.tid == t->st.tid)
      return &kf->threads[i];
  return NULL;
}

/* ---- The debugger's view ---------------------------------------------- */

u32 rp_current_tid(const rp_replay *rp) {
  /* The debugger sees its process's threads: while another process
   * runs, the first listed of them. */
  const struct rp__proc *p = rp->user.proc;
  if (!rp->th.thr || rp->th.thr->proc == p || rp->user.tree)
    return rp->th.cur_tid;
  for (size_t i = 0; i < rp->th.nthreads; i++)
    if (rp->th.threads[i]->proc == p)
      return rp->th.threads[i]->st.tid;
  return rp->th.cur_tid;
}

u32 rp_running_tid(const rp_replay *rp) { return rp->th.cur_tid; }

size_t rp_threads(rp_replay *rp, struct rp_thread *out, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < rp->th.nthreads; i++) {
    const struct rp__thread *t = rp->th.threads[i];
    if (!rp__users(rp, t->proc)) continue; /* the debugger's process */
    /* With the tree, a process that ended (its end was an event) has no
     * threads; only the end of the history keeps the last ones. */
    if (rp->user.tree && !t->st.alive && !rp->fin.ended) continue;
    if (n < cap) {
      memset(&out[n], 0, sizeof out[n]);
      out[n].tid = t->st.tid;
      out[n].pid = rp__proc_pid(t->proc);
      memcpy(out[n].name, t->st.name, sizeof out[n].name);
      out[n].name[sizeof out[n].name - 1] = 0;
      out[n].icount = cpu_icount(t->cpu);
    }
    n++;
  }
  return n;
}

int rp_get_regs(rp_replay *rp, u32 tid, struct rw_regs *regs) {
  struct rp__thread *t = tid ? rp__thread_find(rp, tid) : rp->th.thr;
  if (!t) {
    memset(regs, 0, sizeof *regs);
    return RW_ENOTFOUND;
  }
  cpu_get_regs(t->cpu, regs);
  return 0;
}

int rp_step_thread(rp_replay *rp, u32 tid, struct rp_stop *stop) {
  struct rp__thread *t = tid ? rp__thread_find(rp, tid) : NULL;
  if (!t) return RW_ENOTFOUND;
  struct rp__goal g =
      rp__goal_step(t, cpu_icount(t->cpu) + 1,
                    rp__user_flags(rp) & ~RP__SYSCALLS);
  return rp__run(rp, &g, stop);
}

int rp__xstate_regs(const struct trace_rec_xstate *x, u64 seq,
                    struct rw_regs *regs) {
  (void)seq; /* only in the message of debug builds */
  RW_RETURN_IF(x->avx512.len && x->avx512.len < 1600, RW_ECORRUPT,
               "record %llu: an XSTATE record with %zu bytes of AVX-512 "
               "registers, not 1600",
               (unsigned long long)seq, x->avx512.len);
  for (int i = 0; i < 8; i++)
    regs->k[i] = x->avx512.len ? rd_le64(x->avx512.p + 8 * i) : 0;
  if (x->avx512.len) {
    memcpy(regs->zmmh, x->avx512.p + 64, sizeof regs->zmmh);
    memcpy(regs->hi16, x->avx512.p + 576, sizeof regs->hi16);
  } else {
    memset(regs->zmmh, 0, sizeof regs->zmmh);
    memset(regs->hi16, 0, sizeof regs->hi16);
  }
  return 0;
}
