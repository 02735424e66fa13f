/* SPDX-License-Identifier: MIT */
/* Test program, threads: a pool of 8 worker threads taking 64 jobs from a
 * counter under a mutex. Workers are named "worker-N": the even ones name
 * themselves with prctl(PR_SET_NAME), main names the odd ones with
 * pthread_setname_np (which writes /proc/self/task/TID/comm). A barrier
 * holds the workers until every name is set, so every do_job() call runs
 * in a named thread, and each worker then reads its name back with
 * PR_GET_NAME. Each job counts Collatz steps over 400 numbers. The output
 * (total steps, and whether every name read back) is the same on every
 * run. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#define WORKERS 8
#define JOBS    64
#define PER_JOB 400

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t named;
static int next_job;
static long result[JOBS];
static int done_by[WORKERS];
static int name_ok[WORKERS];

__attribute__((noinline)) static long do_job(int job) {
  long steps = 0;
  for (long k = 1; k <= PER_JOB; k++) {
    long n = (long)job * PER_JOB + k;
    while (n != 1) {
      n = (n & 1) ? 3 * n + 1 : n / 2;
      steps++;
    }
  }
  return steps;
}

__attribute__((noinline)) static int take_job(void) {
  pthread_mutex_lock(&mu);
  int job = next_job++;
  pthread_mutex_unlock(&mu);
  return job;
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  char name[16], back[17] = {0};
  snprintf(name, sizeof name, "worker-%d", id);
  if (id % 2 == 0) prctl(PR_SET_NAME, name);
  pthread_barrier_wait(&named);
  prctl(PR_GET_NAME, back);
  name_ok[id] = strcmp(name, back) == 0;
  for (;;) {
    int job = take_job();
    if (job >= JOBS) break;
    long r = do_job(job);
    result[job] = r;
    done_by[id]++;
  }
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  char name[16];
  int names_ok = 1;
  pthread_barrier_init(&named, NULL, WORKERS + 1);
  for (long i = 0; i < WORKERS; i++)
    if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) return 1;
  for (int i = 1; i < WORKERS; i += 2) {
    snprintf(name, sizeof name, "worker-%d", i);
    if (pthread_setname_np(t[i], name) != 0) names_ok = 0;
  }
  pthread_barrier_wait(&named);
  int jobs = 0;
  for (int i = 0; i < WORKERS; i++) {
    pthread_join(t[i], NULL);
    jobs += done_by[i];
    if (!name_ok[i]) names_ok = 0;
  }
  long total = 0;
  for (int j = 0; j < JOBS; j++) total += result[j];
  printf("pool: %d workers, %d jobs, %ld steps, names %s\n", WORKERS, jobs,
         total, names_ok ? "ok" : "WRONG");
  return !names_ok;
}
