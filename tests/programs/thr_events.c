/* SPDX-License-Identifier: MIT */
/* Test program for the recorder's thread events (tests/recorder/threads.sh),
 * one per mode given as argv[1]:
 *   join    a thread exits alone and main joins it (clear_child_tid)
 *   names   threads renamed by prctl(PR_SET_NAME) and pthread_setname_np
 *   group   exit_group while one thread blocks in read() and one in a futex
 *   crash   a thread dereferences NULL while another blocks in read()
 *   spin    two threads spin on a flag only the other sets: needs
 *           preemption to finish
 *   leader  main calls pthread_exit; the last thread exits the process
 *   exec    a thread calls execve ("/bin/true") while main blocks */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int fds[2];
static atomic_int turn;
static volatile long spins[2];

static void *quiet(void *arg) { return arg; }

static void *named(void *arg) {
  prctl(PR_SET_NAME, (unsigned long)"self-named", 0, 0, 0);
  usleep(1000);
  return arg;
}

static void *blocker(void *arg) {
  char b[4];
  ssize_t n = read(fds[0], b, sizeof b); /* never written */
  (void)n;
  return arg;
}

/* Waits for one byte on the pipe (the "names" mode's second thread). */
static void *waiter(void *arg) {
  char b;
  ssize_t n = read(fds[0], &b, 1);
  (void)n;
  return arg;
}

static void *crasher(void *arg) {
  usleep(2000);
  volatile int *p = arg;
  return (void *)(long)*p;
}

/* Waits for its turn without a syscall, then hands it over. */
static void *spinner(void *arg) {
  int me = (int)(long)arg;
  for (int round = 0; round < 3; round++) {
    while (atomic_load(&turn) != me) spins[me]++;
    atomic_store(&turn, 1 - me);
  }
  return NULL;
}

static pthread_t main_thread;

/* Waits until main has gone (joining it), then ends the process. */
static void *last(void *arg) {
  pthread_join(main_thread, NULL);
  printf("last thread done\n");
  fflush(stdout);
  return arg;
}

static void *execer(void *arg) {
  usleep(2000);
  execl("/bin/true", "true", (char *)NULL);
  return arg;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "join";
  pthread_t t[2];
  if (pipe(fds)) return 2;
  if (!strcmp(mode, "join")) {
    pthread_create(&t[0], NULL, quiet, NULL);
    pthread_join(t[0], NULL);
    printf("joined\n");
  } else if (!strcmp(mode, "names")) {
    pthread_create(&t[0], NULL, named, NULL);
    pthread_create(&t[1], NULL, waiter, NULL);
    pthread_setname_np(t[1], "set-by-main");
    if (write(fds[1], "x", 1) != 1) return 2;
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    printf("named\n");
  } else if (!strcmp(mode, "group")) {
    pthread_create(&t[0], NULL, blocker, NULL);
    usleep(2000);
    printf("exiting with 3\n");
    fflush(stdout);
    exit(3);
  } else if (!strcmp(mode, "crash")) {
    pthread_create(&t[0], NULL, blocker, NULL);
    pthread_create(&t[1], NULL, crasher, NULL);
    pthread_join(t[1], NULL);
  } else if (!strcmp(mode, "spin")) {
    pthread_create(&t[0], NULL, spinner, (void *)0L);
    pthread_create(&t[1], NULL, spinner, (void *)1L);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    printf("spun %s\n", spins[0] && spins[1] ? "both" : "one");
  } else if (!strcmp(mode, "leader")) {
    main_thread = pthread_self();
    pthread_create(&t[0], NULL, last, NULL);
    pthread_exit(NULL);
  } else if (!strcmp(mode, "exec")) {
    pthread_create(&t[0], NULL, execer, NULL);
    pthread_join(t[0], NULL);
  }
  return 0;
}
