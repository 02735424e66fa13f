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
 *   files N    N rounds of file calls: open, read, pread, lseek, write,
 *              close, getdents, readlink, statx, copy_file_range, read
 *              and write of a pipe, syscall(); then a file written while
 *              it is mapped shared (the mapping must show the bytes)
 *   pipes N    a parent and its child, and two threads, passing N blocks
 *              of all sizes through pipes (reads that find them empty,
 *              writes that find them full)
 *   sockets N  N blocks through a stream socket pair with send, writev
 *              and recv to an echo thread and back; poll and epoll_wait
 *              that do not wait; recv with MSG_DONTWAIT, MSG_WAITALL and
 *              MSG_PEEK, a datagram cut short, writev to a file
 * It prints what does not change from run to run, and exits 1 when a
 * result makes no sense (time going backwards, a wrong error). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
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

/* What the files mode reads back, for gdb to look at. */
char sbuf_read[64];

static volatile sig_atomic_t usr1;
static void on_usr1(int sig) {
  (void)sig;
  usr1++;
}

/* N rounds of file calls in a fresh directory; every result must be the
 * one the round before got. Also opens of paths that are not there,
 * signal actions set and asked for, limits asked for and sysinfo, which
 * the library makes too. */
static void files(long n) {
  char dir[] = "/tmp/rewind-sbuf-XXXXXX", path[64], link[64], copy[64];
  if (!mkdtemp(dir)) {
    fail("mkdtemp");
    return;
  }
  snprintf(path, sizeof path, "%s/data", dir);
  snprintf(link, sizeof link, "%s/link", dir);
  snprintf(copy, sizeof copy, "%s/copy", dir);
  int w = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  for (int i = 0; i < 100; i++)
    if (dprintf(w, "line %03d of the data file\n", i) != 26) fail("dprintf");
  close(w);
  if (symlink("data", link)) fail("symlink");
  int pf[2];
  if (pipe(pf)) fail("pipe");
  int null = open("/dev/null", O_WRONLY);
  for (long i = 0; i < n; i++) {
    char buf[4096], name[64];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
      fail("open");
      break;
    }
    ssize_t got = read(fd, buf, sizeof buf);
    if (got != 2600 || memcmp(buf + 26, "line 001", 8)) fail("read");
    if (read(fd, buf, sizeof buf) != 0) fail("read at the end");
    if (lseek(fd, 52, SEEK_SET) != 52) fail("lseek");
    if (read(fd, sbuf_read, 8) != 8 || memcmp(sbuf_read, "line 002", 8))
      fail("read after lseek");
    if (pread(fd, buf, 8, 26 * 99) != 8 || memcmp(buf, "line 099", 8))
      fail("pread");
    if (read(-1, buf, 1) != -1 || errno != EBADF) fail("read(-1)");
    close(fd);
    if (readlink(link, name, sizeof name) != 4 || memcmp(name, "data", 4))
      fail("readlink");
    struct statx sx;
    if (statx(AT_FDCWD, path, 0, STATX_SIZE, &sx) || sx.stx_size != 2600)
      fail("statx");
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));) entries++;
    if (d) closedir(d);
    if (entries != 4) fail("readdir");
    int from = open(path, O_RDONLY), to = open(copy, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    loff_t off = 26;
    if (copy_file_range(from, &off, to, NULL, 26, 0) != 26 || off != 52)
      fail("copy_file_range");
    if (write(to, "more", 4) != 4) fail("write");
    close(from);
    close(to);
    if (write(pf[1], "ping", 4) != 4 || read(pf[0], buf, 16) != 4 ||
        memcmp(buf, "ping", 4))
      fail("pipe");
    if (write(null, buf, 100) != 100) fail("write /dev/null");
    if (syscall(SYS_getppid) != getppid()) fail("syscall()");
    if (unlink(copy)) fail("unlink");
    if (open(copy, O_RDONLY) != -1 || errno != ENOENT) fail("open ENOENT");
    if (open("/etc/passwd/x", O_RDONLY) != -1 || errno != ENOTDIR)
      fail("open ENOTDIR");
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = i % 2 ? on_usr1 : SIG_IGN;
    if (sigaction(SIGUSR1, &sa, &old)) fail("sigaction");
    if (i && old.sa_handler != (i % 2 ? SIG_IGN : on_usr1))
      fail("sigaction: the old action");
    if (sigaction(SIGUSR1, NULL, &old) || old.sa_handler != sa.sa_handler)
      fail("sigaction: asked");
    raise(SIGUSR1); /* caught, or ignored */
    if (usr1 != (i + 1) / 2) fail("SIGUSR1 handled");
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == 0) fail("getrlimit");
    struct sysinfo si;
    if (sysinfo(&si) || si.mem_unit == 0) fail("sysinfo");
  }
  close(pf[0]);
  close(pf[1]);
  close(null);
  /* A file mapped shared, then written through a descriptor opened
   * before: the mapping shows what was written at once. */
  int fd = open(path, O_RDWR);
  char first[8];
  if (read(fd, first, 8) != 8) fail("read before mmap");
  char *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    fail("mmap");
  } else {
    for (int i = 0; i < 50; i++) {
      char c = (char)('A' + i % 26);
      if (pwrite(fd, &c, 1, 5) != 1 || m[5] != c) fail("pwrite under a mapping");
      if (lseek(fd, 7, SEEK_SET) != 7 || write(fd, &c, 1) != 1 || m[7] != c)
        fail("write under a mapping");
    }
    munmap(m, 4096);
  }
  close(fd);
  unlink(link);
  unlink(path);
  rmdir(dir);
  printf("read back: %.8s\n", sbuf_read);
}

struct pipes {
  int to[2], from[2];
  long n;
};

/* Echoes what comes through P->to back through P->from, until the end. */
static void *echo(void *arg) {
  struct pipes *p = arg;
  static char buf[70000];
  for (;;) {
    ssize_t got = read(p->to[0], buf, sizeof buf);
    if (got <= 0) break;
    for (ssize_t k = 0; k < got;) {
      ssize_t put = write(p->from[1], buf + k, (size_t)(got - k));
      if (put <= 0) return NULL;
      k += put;
    }
  }
  close(p->from[1]);
  return NULL;
}

/* N blocks of 1 to 60,000 bytes through P to an echo and back, their sum
 * compared (a block in flight fits a pipe: neither side waits for ever). */
static void pass(struct pipes *p) {
  static char out[200000], in[200000];
  long sent = 0, back = 0;
  for (long i = 0; i < p->n; i++) {
    size_t len = (size_t)((i * 7919) % (i % 5 == 0 ? 60000 : 3000)) + 1;
    for (size_t k = 0; k < len; k++) out[k] = (char)(i + k);
    if (write(p->to[1], out, len) != (ssize_t)len) fail("write to a pipe");
    sent += (long)len;
    while (back < sent) {
      ssize_t got = read(p->from[0], in, sizeof in);
      if (got <= 0) {
        fail("read from a pipe");
        return;
      }
      back += got;
    }
  }
  if (back != sent) fail("lost bytes");
}

static void pipes(long n) {
  struct pipes p;
  p.n = n;
  if (pipe(p.to) || pipe(p.from)) fail("pipe");
  pthread_t t;
  pthread_create(&t, NULL, echo, &p);
  pass(&p);
  close(p.to[1]);
  pthread_join(t, NULL);
  close(p.to[0]);
  close(p.from[0]);
  struct pipes q;
  q.n = n;
  if (pipe(q.to) || pipe(q.from)) fail("pipe");
  pid_t c = fork();
  if (c == 0) {
    close(q.to[1]);
    close(q.from[0]);
    echo(&q);
    _exit(0);
  }
  close(q.to[0]);
  close(q.from[1]);
  pass(&q);
  close(q.to[1]);
  int st;
  if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
    fail("child");
}

/* Echoes what comes through socket *ARG back, until the end. */
static void *sock_echo(void *arg) {
  int fd = *(int *)arg;
  static char buf[70000];
  for (;;) {
    ssize_t got = recv(fd, buf, sizeof buf, 0);
    if (got <= 0) break;
    for (ssize_t k = 0; k < got;) {
      ssize_t put = send(fd, buf + k, (size_t)(got - k), MSG_NOSIGNAL);
      if (put <= 0) return NULL;
      k += put;
    }
  }
  shutdown(fd, SHUT_WR);
  return NULL;
}

static void sockets(long n) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) fail("socketpair");
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 77};
  if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, sv[0], &ev)) fail("epoll");
  struct epoll_event got_ev[4];
  struct pollfd pf = {.fd = sv[0], .events = POLLIN};
  /* Nothing to read yet: neither waits, nor finds anything. */
  if (poll(&pf, 1, 0) != 0 || pf.revents) fail("poll of nothing");
  if (epoll_wait(ep, got_ev, 4, 0) != 0) fail("epoll_wait of nothing");
  char c;
  if (recv(sv[0], &c, 1, MSG_DONTWAIT) != -1 || errno != EAGAIN)
    fail("recv of nothing with MSG_DONTWAIT");
  pthread_t t;
  pthread_create(&t, NULL, sock_echo, &sv[1]);
  static char out[200000], in[200000];
  long sent = 0, back = 0;
  unsigned long sum_out = 0, sum_in = 0;
  for (long i = 0; i < n; i++) {
    size_t len = (size_t)((i * 7919) % (i % 5 == 0 ? 60000 : 3000)) + 3;
    for (size_t k = 0; k < len; k++) {
      out[k] = (char)(i * 3 + k * k);
      sum_out = sum_out * 31 + (unsigned char)out[k];
    }
    if (i % 2) {
      if (send(sv[0], out, len, MSG_NOSIGNAL) != (ssize_t)len) fail("send");
    } else {
      struct iovec iov[3] = {{out, 1}, {out + 1, len / 2}, {out + 1 + len / 2,
                                                             len - 1 - len / 2}};
      if (writev(sv[0], iov, 3) != (ssize_t)len) fail("writev to a socket");
    }
    sent += (long)len;
    while (back < sent) {
      poll(&pf, 1, 0);
      epoll_wait(ep, got_ev, 4, 0);
      ssize_t got = recv(sv[0], in, sizeof in, 0);
      if (got <= 0) {
        fail("recv from a socket");
        return;
      }
      for (ssize_t k = 0; k < got; k++)
        sum_in = sum_in * 31 + (unsigned char)in[k];
      back += got;
    }
  }
  if (back != sent || sum_in != sum_out) fail("lost or changed bytes");
  /* Once the echo is back (a poll that waits), those that do not wait
   * see it. */
  if (send(sv[0], "p", 1, 0) != 1 || poll(&pf, 1, -1) != 1) fail("ping");
  pf.revents = 0;
  if (poll(&pf, 1, 0) != 1 || !(pf.revents & POLLIN)) fail("poll of data");
  if (epoll_wait(ep, got_ev, 4, 0) != 1 || got_ev[0].data.u64 != 77)
    fail("epoll_wait of data");
  if (recv(sv[0], &c, 1, 0) != 1 || c != 'p') fail("pong");
  /* MSG_WAITALL waits for all of them; MSG_PEEK leaves them there. */
  if (send(sv[0], "abcdef", 6, 0) != 6) fail("send 6");
  char six[6];
  if (recv(sv[0], six, 6, MSG_WAITALL) != 6 || memcmp(six, "abcdef", 6))
    fail("recv with MSG_WAITALL");
  if (send(sv[0], "xy", 2, 0) != 2) fail("send 2");
  char two[2];
  if (recv(sv[0], two, 2, MSG_PEEK | MSG_WAITALL) != 2 ||
      recv(sv[0], two, 2, 0) != 2 || memcmp(two, "xy", 2))
    fail("recv with MSG_PEEK");
  shutdown(sv[0], SHUT_WR);
  if (recv(sv[0], &c, 1, 0) != 0) fail("recv at the end");
  pthread_join(t, NULL);
  close(sv[0]);
  close(sv[1]);
  close(ep);
  /* A datagram longer than the buffer: cut, and MSG_TRUNC says by how
   * much. */
  int dg[2];
  if (socketpair(AF_UNIX, SOCK_DGRAM, 0, dg)) fail("socketpair dgram");
  for (long i = 0; i < n; i++) {
    char msg[100];
    memset(msg, (int)('a' + i % 26), sizeof msg);
    if (send(dg[0], msg, sizeof msg, 0) != 100) fail("send a datagram");
    char part[40];
    if (recv(dg[1], part, sizeof part, MSG_TRUNC) != 100 ||
        part[39] != (char)('a' + i % 26))
      fail("recv of a datagram cut short");
  }
  close(dg[0]);
  close(dg[1]);
  /* writev to a file, read back. */
  char path[] = "/tmp/rewind-sbuf-sock-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) fail("mkstemp");
  for (long i = 0; i < n; i++) {
    struct iovec iov[2] = {{"line ", 5}, {"000\n", 4}};
    if (writev(fd, iov, 2) != 9) fail("writev to a file");
  }
  char back9[9];
  if (pread(fd, back9, 9, 9 * (n - 1)) != 9 || memcmp(back9, "line 000\n", 9))
    fail("the file writev wrote");
  close(fd);
  unlink(path);
  printf("sockets: %ld blocks, %ld bytes\n", n, sent);
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
  } else if (!strcmp(mode, "files")) {
    files(n);
  } else if (!strcmp(mode, "pipes")) {
    pipes(n);
  } else if (!strcmp(mode, "sockets")) {
    sockets(n);
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
    size_t len = 0x103000;
    unsigned char vec[1];
    if (!strcmp(mode, "unmap"))
      munmap(at, len);
    else if (mincore((char *)at + 0x2000, 4096, vec) == 0)
      memset((char *)at + 0x2000, 0x5a, 64); /* its header */
    calls(n);
  } else {
    fprintf(stderr, "sbuf: unknown mode %s\n", mode);
    return 2;
  }
  printf("%s done\n", mode);
  return bad;
}
