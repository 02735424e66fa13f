/* SPDX-License-Identifier: MIT */
/* Test program, a second thread: rewind must stop the recording with a
 * clear message (threads are not supported yet) and keep the trace. */
#include <pthread.h>
#include <stdio.h>

static void *run(void *arg) { return arg; }

int main(void) {
  pthread_t t;
  printf("before thread\n");
  fflush(stdout);
  if (pthread_create(&t, NULL, run, NULL) == 0) pthread_join(t, NULL);
  printf("after thread\n");
  return 0;
}
