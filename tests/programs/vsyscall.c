/* SPDX-License-Identifier: MIT */
/* Calls into the legacy vsyscall page, as binaries from before 2012 do
 * (tests/replay/kernel.sh): gettimeofday at 0xffffffffff600000, time at
 * ...400 and getcpu at ...800, which the kernel performs with no syscall
 * instruction. A second thread installs a seccomp filter of its own that
 * answers SECCOMP_RET_TRACE for getppid and time: with no tracer asking,
 * both fail with ENOSYS there, and only that thread sees a filter through
 * prctl. stdout is the same from run to run; the values themselves go to
 * stderr (the replay's output check compares them). */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

struct timeval tv_global;
long t_global, t_ret;
unsigned cpu_global = 12345, node_global = 12345;

__attribute__((noinline)) static long vs_gettimeofday(struct timeval *tv,
                                                      void *tz) {
  long r;
  __asm__ volatile("mov $0xffffffffff600000, %%rax\n\tcall *%%rax"
                   : "=a"(r) : "D"(tv), "S"(tz) : "rcx", "r11", "cc",
                     "memory");
  return r;
}

/* The return address of this call is the global label vs_after_time, for
 * the debugger's test. */
__attribute__((noinline)) static long vs_time(long *t) {
  long r;
  __asm__ volatile("mov $0xffffffffff600400, %%rax\n\tcall *%%rax\n\t"
                   ".globl vs_after_time\nvs_after_time:"
                   : "=a"(r) : "D"(t) : "rcx", "r11", "cc", "memory");
  return r;
}

__attribute__((noinline)) static long vs_getcpu(unsigned *cpu,
                                                unsigned *node) {
  long r;
  __asm__ volatile("mov $0xffffffffff600800, %%rax\n\tcall *%%rax"
                   : "=a"(r) : "D"(cpu), "S"(node), "d"(0) : "rcx", "r11",
                     "cc", "memory");
  return r;
}

static int present(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512];
  int yes = 0;
  while (f && fgets(line, sizeof line, f))
    if (strstr(line, "[vsyscall]") && strstr(line, " --x") != NULL) yes = 1;
  if (f) fclose(f);
  return yes;
}

static void *filtered(void *arg) {
  (void)arg;
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_time, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 7),
  };
  struct sock_fprog prog = {sizeof f / sizeof *f, f};
  int nnp = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  int set = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
  errno = 0;
  long pp = syscall(SYS_getppid);
  int pp_err = errno;
  long t = 99, r = vs_time(&t);
  struct timeval tv = {0, 0};
  long g = vs_gettimeofday(&tv, NULL);
  printf("thread: nnp %d filter %d, getppid %ld %s, vsyscall time %ld %ld,"
         " gettimeofday %ld sane %d, seccomp %d nnp %d\n",
         nnp, set, pp, pp_err == ENOSYS ? "ENOSYS" : "other", r, t, g,
         tv.tv_sec > 1600000000, prctl(PR_GET_SECCOMP, 0, 0, 0, 0),
         prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
  return NULL;
}

int main(void) {
  printf("start: seccomp %d nnp %d\n", prctl(PR_GET_SECCOMP, 0, 0, 0, 0),
         prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
  if (!present()) {
    printf("vsyscall: absent\n");
    return 0;
  }
  long g = vs_gettimeofday(&tv_global, NULL);
  t_ret = vs_time(&t_global);
  long c = vs_getcpu(&cpu_global, &node_global);
  long c0 = vs_getcpu(NULL, NULL);
  printf("vsyscall: gettimeofday %ld sane %d, time %d same %d, getcpu %ld "
         "%ld in range %d\n",
         g, tv_global.tv_sec > 1600000000, t_ret > 1600000000,
         t_ret == t_global && t_global - tv_global.tv_sec < 100, c, c0,
         cpu_global < 65536 && node_global < 65536);
  fprintf(stderr, "values: %ld.%06ld %ld %u %u\n", (long)tv_global.tv_sec,
          (long)tv_global.tv_usec, t_global, cpu_global, node_global);
  fflush(stdout);
  pthread_t th;
  pthread_create(&th, NULL, filtered, NULL);
  pthread_join(th, NULL);
  printf("main after: seccomp %d nnp %d\n", prctl(PR_GET_SECCOMP, 0, 0, 0, 0),
         prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
  return 0;
}
