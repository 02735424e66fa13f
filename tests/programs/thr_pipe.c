/* SPDX-License-Identifier: MIT */
/* Test program, threads: the "reader" thread blocks in read() on an empty
 * pipe while the "writer" thread sleeps 50 ms and then writes a message
 * into it; main joins both. While recording, all three threads are in a
 * blocking syscall at the same time. The reader passes what it read to
 * received(). The output is the same on every run. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static char message[64];
static long message_len;

__attribute__((noinline)) static void received(const char *buf, long n) {
  memcpy(message, buf, (size_t)n);
  message_len = n;
}

static void *reader(void *arg) {
  char buf[64];
  (void)arg;
  prctl(PR_SET_NAME, "reader");
  memset(buf, 0, sizeof buf);
  long n = read(fds[0], buf, sizeof buf - 1);
  if (n > 0) received(buf, n);
  return NULL;
}

static void *writer(void *arg) {
  static const char msg[] = "hello through the pipe";
  struct timespec ts = {0, 50 * 1000 * 1000};
  (void)arg;
  prctl(PR_SET_NAME, "writer");
  nanosleep(&ts, NULL);
  if (write(fds[1], msg, sizeof msg - 1) < 0) return (void *)1;
  return NULL;
}

int main(void) {
  pthread_t r, w;
  if (pipe(fds) < 0) return 1;
  if (pthread_create(&r, NULL, reader, NULL) != 0) return 1;
  if (pthread_create(&w, NULL, writer, NULL) != 0) return 1;
  pthread_join(r, NULL);
  pthread_join(w, NULL);
  printf("pipe: reader got %ld bytes: '%s'\n", message_len, message);
  return message_len != 22;
}
