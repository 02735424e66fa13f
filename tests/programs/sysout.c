/* SPDX-License-Identifier: MIT */
/* Test program: syscalls whose outputs are easy to miss. Each result is
 * printed, and a value only the kernel wrote is used to compute the exit
 * status, so a replay that misses a write diverges. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
/* after netinet/in.h, whose definitions it then leaves alone */
#include <linux/netfilter_ipv4/ip_tables.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT 1035
#define F_SET_RW_HINT 1036
#endif

/* Replaces the iptables filter table by itself: setsockopt writes the old
 * counters into the array the request points at. Returns how many of its
 * bytes the kernel changed (prefilled with 0xff), or -1 where iptables is
 * not available (no module, no CAP_NET_ADMIN). */
static int netfilter_counters(void) {
  int s = socket(AF_INET, SOCK_RAW, IPPROTO_RAW), changed = -1;
  struct ipt_getinfo info;
  socklen_t len = sizeof info;
  memset(&info, 0, sizeof info);
  strcpy(info.name, "filter");
  if (s < 0 || getsockopt(s, SOL_IP, IPT_SO_GET_INFO, &info, &len) < 0) {
    if (s >= 0) close(s);
    return -1;
  }
  len = sizeof(struct ipt_get_entries) + info.size;
  struct ipt_get_entries *e = calloc(1, len);
  size_t rsize = sizeof(struct ipt_replace) + info.size;
  struct ipt_replace *r = calloc(1, rsize);
  size_t csize = sizeof(struct xt_counters) * info.num_entries;
  unsigned char *counters = malloc(csize);
  if (!e || !r || !counters) goto out;
  strcpy(e->name, "filter");
  e->size = info.size;
  if (getsockopt(s, SOL_IP, IPT_SO_GET_ENTRIES, e, &len) < 0) goto out;
  strcpy(r->name, "filter");
  r->valid_hooks = info.valid_hooks;
  r->num_entries = info.num_entries;
  r->size = info.size;
  memcpy(r->hook_entry, info.hook_entry, sizeof r->hook_entry);
  memcpy(r->underflow, info.underflow, sizeof r->underflow);
  r->num_counters = info.num_entries;
  memset(counters, 0xff, csize);
  r->counters = (struct xt_counters *)(void *)counters;
  memcpy(r->entries, e->entrytable, info.size);
  if (setsockopt(s, SOL_IP, IPT_SO_SET_REPLACE, r, (socklen_t)rsize) < 0)
    goto out;
  changed = 0;
  for (size_t i = 0; i < csize; i++) changed += counters[i] != 0xff;
out:
  free(e);
  free(r);
  free(counters);
  close(s);
  return changed;
}

static void on_alarm(int sig) { (void)sig; }

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "sysout.tmp";
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return perror("open"), 1;
  uint64_t hint = 3, got = 0x5555;
  /* The kernel writes the hint through the pointer. */
  if (fcntl(fd, F_SET_RW_HINT, &hint) == 0 &&
      fcntl(fd, F_GET_RW_HINT, &got) == 0)
    printf("rw hint %llu\n", (unsigned long long)got);
  else
    printf("rw hint unsupported\n");
  /* FS_IOC_GETFLAGS: sized as a long, writes an int; an ioctl rewind
   * knows. FIGETBSZ likewise. */
  long flags = 0x7777777777777777;
  if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0)
    printf("fs flags %#lx\n", flags);
  else
    printf("fs flags unsupported\n");
  /* An ioctl rewind does not know (diffed): FS_IOC_FSGETXATTR. */
  struct fsxattr fx;
  memset(&fx, 0x5a, sizeof fx);
  if (ioctl(fd, FS_IOC_FSGETXATTR, &fx) == 0)
    printf("fsxattr extsize %u\n", fx.fsx_extsize);
  else
    printf("fsxattr unsupported\n");
  /* The rdtsc mode the program sees is the one it set, even though rewind
   * traps rdtsc for its own use. */
  int tsc = -1, tsc2 = -1, tsc3 = -1;
  int g1 = prctl(PR_GET_TSC, &tsc);
  int s1 = prctl(PR_SET_TSC, PR_TSC_SIGSEGV);
  int g2 = prctl(PR_GET_TSC, &tsc2);
  int s2 = prctl(PR_SET_TSC, 7);
  int s3 = prctl(PR_SET_TSC, PR_TSC_ENABLE);
  int g3 = prctl(PR_GET_TSC, &tsc3);
  printf("tsc mode %d %d, set %d, now %d %d, bad set %d, back %d %d %d\n", g1,
         tsc, s1, g2, tsc2, s2, s3, g3, tsc3);
  /* A prctl that writes through its third argument. */
  unsigned mm_size = 0;
  int rc = prctl(PR_SET_MM, PR_SET_MM_MAP_SIZE, &mm_size, 0, 0);
  printf("mm map size %d %u\n", rc, mm_size);
  /* waitid writes the siginfo's fields (zeros) even when it fails. */
  siginfo_t si;
  memset(&si, 0xff, sizeof si);
  rc = waitid(P_ALL, 0, &si, WEXITED | WNOHANG);
  printf("failed waitid %d, signo %d code %d\n", rc, si.si_signo, si.si_code);
  /* getsockname with no buffer: the kernel still writes the length, or
   * fails; either way what the program sees is what it saw. */
  int s = socket(AF_INET, SOCK_STREAM, 0);
  socklen_t len = 999;
  rc = getsockname(s, NULL, &len);
  printf("getsockname %d len %u\n", rc, (unsigned)len);
  close(s);
  /* sched_setaffinity runs as asked (rewind pins the thread back after a
   * success): an empty mask fails as natively. */
  cpu_set_t none;
  CPU_ZERO(&none);
  rc = sched_setaffinity(0, sizeof none, &none);
  printf("empty affinity %d %s\n", rc, rc < 0 && errno == EINVAL ? "EINVAL"
                                                                 : "other");
  /* madvise(DONTNEED) over a range with a hole fails with ENOMEM, and
   * still discards the pages around the hole. */
  long pg = sysconf(_SC_PAGESIZE);
  char *m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  munmap(m + pg, pg);
  memset(m, 7, pg);
  memset(m + 2 * pg, 7, pg);
  rc = madvise(m, 3 * pg, MADV_DONTNEED);
  printf("madvise %d, bytes left %d %d\n", rc, m[0], m[2 * pg]);
  len += m[0] + m[2 * pg];
  /* ... and EINVAL at a locked page, after discarding the pages before. */
  m[2 * pg] = 5;
  if (mlock(m + 2 * pg, pg) != 0) {
    perror("mlock");
  } else {
    munmap(m, pg);
    m = mmap(m, 2 * pg, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    memset(m, 9, 2 * pg);
    rc = madvise(m, 3 * pg, MADV_DONTNEED);
    printf("locked madvise %d, bytes left %d %d\n", rc, m[0], m[2 * pg]);
    len += m[0] + m[2 * pg];
  }
  int nf = netfilter_counters();
  if (nf < 0)
    printf("netfilter unavailable\n");
  else
    printf("netfilter counters written: %s\n", nf ? "yes" : "no");
  /* Whether the kernel wrote them, not how many bytes: the counters are
   * live traffic's, so a native run and a recorded one differ (CI96). */
  len += nf > 0;
  /* SECCOMP_GET_NOTIF_SIZES writes three sizes; the stack held junk. */
  volatile uint16_t sizes[3] = {0xaaaa, 0xaaaa, 0xaaaa};
  rc = (int)syscall(SYS_seccomp, 3, 0, (uint16_t *)sizes);
  printf("seccomp notif sizes %d %s\n", rc,
         rc == 0 ? (sizes[0] >= 80 && sizes[2] >= 64 ? "sane" : "junk")
                 : "unsupported");
  len += sizes[1];
  /* A poll interrupted by a handled signal still writes every revents. */
  int pp[2];
  if (pipe(pp) == 0) {
    struct pollfd pfd = {pp[0], POLLIN, 0x5555};
    struct itimerval it = {{0, 0}, {0, 20000}};
    signal(SIGALRM, on_alarm);
    setitimer(ITIMER_REAL, &it, NULL);
    errno = 0;
    rc = poll(&pfd, 1, 5000);
    printf("interrupted poll %d %s, revents %#x\n", rc,
           errno == EINTR ? "EINTR" : "other", (unsigned)pfd.revents);
    len += (unsigned)pfd.revents;
    close(pp[0]);
    close(pp[1]);
  }
  close(fd);
  unlink(path);
  return (int)((got + (unsigned long)flags + len + fx.fsx_extsize) & 0x3f);
}
