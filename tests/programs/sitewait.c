/* SPDX-License-Identifier: MIT */
/* Test program: a thread blocked in a syscall while another thread's
 * return from the same site makes the recorder patch it. Two threads read
 * a byte at a time from a pipe each, through glibc's read (a site of the
 * `syscall; cmp rax, imm` form) called from one place; both block in
 * their first read. The first is woken, and the site is patched at its
 * return while the second still waits in it; then the second is woken
 * and both read ROUNDS (argument, default 20) more bytes, through the
 * patched site. Prints the bytes each read. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int pipes[2][2];
static int rounds = 20;

static void pause_ms(long ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* Reads N bytes from FD, one per read(2): how many came. */
__attribute__((noinline)) static int drain(int fd, int n) {
  int got = 0;
  char c;
  for (int i = 0; i < n; i++) got += read(fd, &c, 1) == 1;
  return got;
}

static void *reader(void *arg) {
  int k = (int)(long)arg;
  return (void *)(long)drain(pipes[k][0], rounds + 1);
}

int main(int argc, char **argv) {
  if (argc > 1) rounds = atoi(argv[1]);
  if (rounds < 1 || rounds > 1000 || pipe(pipes[0]) || pipe(pipes[1])) {
    fprintf(stderr, "usage: sitewait [ROUNDS 1..1000]\n");
    return 2;
  }
  pthread_t th[2];
  for (long k = 0; k < 2; k++)
    if (pthread_create(&th[k], NULL, reader, (void *)k)) return 1;
  pause_ms(100); /* both wait in their first read */
  char buf[1001] = {0};
  if (write(pipes[0][1], buf, 1) != 1) return 1;
  pause_ms(50); /* the first returned: the site is patched */
  if (write(pipes[1][1], buf, 1) != 1) return 1;
  for (int k = 0; k < 2; k++)
    if (write(pipes[k][1], buf, (size_t)rounds) != rounds) return 1;
  void *got[2];
  for (int k = 0; k < 2; k++) pthread_join(th[k], &got[k]);
  printf("sitewait: %ld %ld\n", (long)got[0], (long)got[1]);
  return 0;
}
