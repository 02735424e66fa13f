/* SPDX-License-Identifier: MIT */
/* Two recorded processes that hand a token back and forth through
 * process-shared semaphores in a MAP_SHARED page (tests/replay/procs.sh),
 * as Python's multiprocessing does: each sem_post changes the page and
 * wakes the other with no stop of the recorder (the wake goes through the
 * syscall buffer), and the other's sem_wait puts the value back before
 * the first runs again. The replay of each process must see its own
 * writes and the other's in the recorded order.
 *
 *   shsem [ROUNDS]   prints the count both processes added to */
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct shared {
  sem_t to_child, to_parent;
  volatile long count;
};

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 2000;
  struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) return 1;
  if (sem_init(&s->to_child, 1, 0) || sem_init(&s->to_parent, 1, 0))
    return 1;
  pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    for (long i = 0; i < rounds; i++) {
      sem_wait(&s->to_child);
      s->count += 2;
      sem_post(&s->to_parent);
    }
    _exit(0);
  }
  for (long i = 0; i < rounds; i++) {
    s->count += 1;
    sem_post(&s->to_child);
    sem_wait(&s->to_parent);
  }
  int st;
  if (waitpid(child, &st, 0) != child || !WIFEXITED(st)) return 1;
  printf("shsem: %ld rounds, count %ld\n", rounds, s->count);
  return s->count == 3 * rounds ? 0 : 2;
}
