/* SPDX-License-Identifier: MIT */
/* The vDSO's time functions under every condition the syscall buffer must
 * survive (tests/recorder/sbuf.sh): MODE is one of
 *   calls N    each function N times, NULL pointers and bad clocks too
 *   signals N  N calls while a timer's handler makes calls of its own
 *   threads N  three threads, N calls each
 *   fork N     a child and its parent, N calls each
 *   exec N     the same program again through execve, N calls there
 *   seccomp N  N calls, then a seccomp filter of the program's own, N more
 *   unmap N    N calls, then the library's address range unmapped, N more
 *   overwrite N  N calls, then the library's header written over, N more
 *   libc N     N rounds of glibc's getpid, getppid, getuid, fstat and stat
 *              (their syscall sites are patched to enter the library)
 * It prints what does not change from run to run, and exits 1 when a
 * result makes no sense (time going backwards, a wrong error). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int bad;

static void fail(const char *what) {
  printf("FAIL: %s\n", what);
  bad = 1;
}

/* N rounds of every function; time must not go backwards. A glibc call
 * whose site the recorder patches comes with each. */
static void calls(long n) {
  struct timespec prev = {0, 0}, ts;
  pid_t parent = getppid();
  sigset_t alrm, was;
  sigemptyset(&alrm);
  sigaddset(&alrm, SIGALRM);
  for (long i = 0; i < n; i++) {
    if (getppid() != parent) fail("getppid");
    /* A timer's signal that comes meanwhile is delivered at the unblock,
     * right after the library's syscall. */
    if (i % 4 == 0 && (sigprocmask(SIG_BLOCK, &alrm, &was) ||
                       sigprocmask(SIG_SETMASK, &was, NULL)))
      fail("sigprocmask");
    if (clock_gettime(CLOCK_MONOTONIC, &ts)) fail("clock_gettime");
    if (ts.tv_sec < prev.tv_sec ||
        (ts.tv_sec == prev.tv_sec && ts.tv_nsec < prev.tv_nsec))
      fail("monotonic time went backwards");
    prev = ts;
    if (i % 16) continue;
    struct timeval tv;
    struct timezone tz;
    if (gettimeofday(&tv, &tz) || tv.tv_usec >= 1000000) fail("gettimeofday");
    if (gettimeofday(NULL, NULL)) fail("gettimeofday(NULL, NULL)");
    time_t t0 = 0, t1 = time(&t0);
    if (t1 != t0 || t1 < 1000000000) fail("time");
    if (time(NULL) < t1) fail("time(NULL)");
    unsigned cpu = ~0u, node = ~0u;
    if (getcpu(&cpu, &node) || cpu > 65536 || node > 65536) fail("getcpu");
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) || res.tv_sec || !res.tv_nsec)
      fail("clock_getres");
    if (clock_getres(CLOCK_REALTIME, NULL)) fail("clock_getres(NULL)");
    if (clock_gettime((clockid_t)12345, &ts) != -1 || errno != EINVAL)
      fail("clock_gettime of a bad clock");
  }
}

/* N rounds of the libc calls whose sites the recorder patches; each
 * result must agree with the first round's. */
static void libc_calls(long n) {
  struct stat st0, st;
  pid_t me = getpid(), parent = getppid();
  uid_t uid = getuid();
  if (fstat(1, &st0) || stat("/proc/self/exe", &st)) fail("fstat/stat");
  ino_t exe = st.st_ino;
  for (long i = 0; i < n; i++) {
    if (getpid() != me || getppid() != parent || getuid() != uid ||
        geteuid() != uid || gettid() != me)
      fail("ids");
    if (fstat(1, &st) || st.st_ino != st0.st_ino || st.st_mode != st0.st_mode)
      fail("fstat");
    if (stat("/proc/self/exe", &st) || st.st_ino != exe) fail("stat");
    if (fstat(-1, &st) != -1 || errno != EBADF) fail("fstat(-1)");
    if (stat("/nonexistent/x", &st) != -1 || errno != ENOENT) fail("stat ENOENT");
    sigset_t usr1, old, now;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    if (sigprocmask(SIG_BLOCK, &usr1, &old) || sigismember(&old, SIGUSR1) ||
        sigprocmask(SIG_SETMASK, &old, &now) || !sigismember(&now, SIGUSR1))
      fail("sigprocmask");
  }
}

static volatile long handled;

static void on_alarm(int sig) {
  (void)sig;
  struct timespec ts;
  struct timeval tv;
  clock_gettime(CLOCK_REALTIME, &ts);
  gettimeofday(&tv, NULL);
  handled++;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long shared;

static void *thread_main(void *arg) {
  calls((long)arg);
  /* Contended: waits are traced syscalls, wakes buffered ones. */
  for (long i = 0; i < (long)arg; i++) {
    pthread_mutex_lock(&lock);
    shared++;
    if (i % 8 == 0) sched_yield(); /* the others find the lock taken */
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

static void filter_all_allowed(void) {
  struct sock_filter f[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  struct sock_fprog prog = {1, f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
    fail("seccomp filter");
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: sbuf MODE N\n");
    return 2;
  }
  const char *mode = argv[1];
  long n = atol(argv[2]);
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!strcmp(mode, "calls")) {
    calls(n);
  } else if (!strcmp(mode, "libc")) {
    libc_calls(n);
  } else if (!strcmp(mode, "signals")) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 2000}, {0, 2000}}; /* 2 ms: a recorder built
                                                     with ASan keeps up */
    setitimer(ITIMER_REAL, &it, NULL);
    while (handled < 20) calls(n);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    printf("handler ran\n");
  } else if (!strcmp(mode, "threads")) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
      pthread_create(&t[i], NULL, thread_main, (void *)n);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
    if (shared != 3 * n) fail("the mutex lost counts");
  } else if (!strcmp(mode, "fork")) {
    pid_t p = fork();
    if (p == 0) {
      calls(n);
      _exit(bad);
    }
    calls(n);
    int st;
    if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
      fail("child");
  } else if (!strcmp(mode, "exec")) {
    calls(n);
    execl("/proc/self/exe", argv[0], "calls", argv[2], (char *)NULL);
    fail("execl");
  } else if (!strcmp(mode, "seccomp")) {
    calls(n);
    filter_all_allowed();
    calls(n);
  } else if (!strcmp(mode, "unmap") || !strcmp(mode, "overwrite")) {
    calls(n);
    /* Where rewind's syscall buffer lives (recorder/sbuf.h); nothing is
     * there when the program runs alone. */
    void *at = (void *)0x70000000ul;
    size_t len = 0x12000;
    unsigned char vec[1];
    if (!strcmp(mode, "unmap"))
      munmap(at, len);
    else if (mincore((char *)at + 0x1000, 4096, vec) == 0)
      memset((char *)at + 0x1000, 0x5a, 64); /* its header */
    calls(n);
  } else {
    fprintf(stderr, "sbuf: unknown mode %s\n", mode);
    return 2;
  }
  printf("%s done\n", mode);
  return bad;
}
