/* SPDX-License-Identifier: MIT */
/* Test program, vfork children (recorded in the parent's address space):
 * one writes into the parent's stack frame and _exits; one maps memory
 * that it leaves to the parent; one execs ARGV[1]; one whose exec fails
 * reports errno through the parent's memory; posix_spawn with a file
 * action (the child opens and dups before its exec); all of it while a
 * second thread of the parent counts in the same memory. mark() is called
 * by the parent and by a vfork child with different arguments: a debugger
 * of the parent stops only at the parent's call. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static volatile int marks;
static volatile int stop_counting;
static volatile long counted;

__attribute__((noinline)) void mark(int who) { marks += who; }

/* Counts for a while, giving the other threads (the vfork children) turns
 * now and then; the recorder may also preempt it in the middle. */
static void *counter(void *arg) {
  (void)arg;
  while (!stop_counting && counted < 3000000)
    if (++counted % 50000 == 0) sched_yield();
  return NULL;
}

static int status_of(pid_t pid) {
  int st;
  if (waitpid(pid, &st, 0) != pid) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv) {
  volatile int in_frame = 1;
  char *volatile given = NULL;
  volatile int child_errno = 0;
  pthread_t th;
  if (argc < 3) return 2;
  pthread_create(&th, NULL, counter, NULL);
  mark(1);
  pid_t pid = vfork();
  if (pid == 0) {
    mark(100);
    in_frame = 42;
    _exit(4);
  }
  int s1 = status_of(pid);
  pid = vfork();
  if (pid == 0) {
    char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) strcpy(p, "mapped-by-the-vfork-child");
    given = p;
    _exit(5);
  }
  int s2 = status_of(pid);
  pid = vfork();
  if (pid == 0) {
    char *av[] = {argv[1], "from-the-vfork-child", NULL};
    execv(argv[1], av);
    _exit(127);
  }
  int s3 = status_of(pid);
  pid = vfork();
  if (pid == 0) {
    char *av[] = {"nothing", NULL};
    execv("/nonexistent/program", av);
    child_errno = errno;
    _exit(127);
  }
  int s4 = status_of(pid);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, argv[2], O_WRONLY | O_CREAT |
                                   O_TRUNC, 0644);
  char *av[] = {argv[1], "into-the-file", NULL};
  int s5 = -1;
  if (posix_spawn(&pid, argv[1], &fa, NULL, av, environ) == 0)
    s5 = status_of(pid);
  posix_spawn_file_actions_destroy(&fa);
  stop_counting = 1;
  pthread_join(th, NULL);
  char text[64] = "";
  FILE *f = fopen(argv[2], "r");
  if (f) {
    if (!fgets(text, sizeof text, f)) text[0] = 0;
    fclose(f);
  }
  text[strcspn(text, "\n")] = 0;
  printf("frame %d, given '%s', errno %d, file '%s'\n", in_frame,
         given ? (const char *)given : "", child_errno, text);
  int m = marks; /* gdb: done */
  printf("statuses %d %d %d %d %d, marks %d, counted %s\n", s1, s2, s3, s4,
         s5, m, counted > 0 ? "yes" : "no");
  return 0;
}
