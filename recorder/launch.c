/* SPDX-License-Identifier: MIT */
/* Starting PROG: finding it like a shell does, refusing what cannot be
 * recorded (missing, not executable, not x86-64), and starting it as a
 * seized tracee with rdtsc trapped, stopped at its first exec. The refusals
 * print their own message, so that each can say what to do about it. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorder/rec_int.h"

/* 1 when PATH is a regular file this process may execute. */
static int runnable(const char *path, int *eacces) {
  struct stat st;
  if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) return 0;
  if (access(path, X_OK) == 0) return 1;
  *eacces = 1;
  return 0;
}

/* 1 when this process has CAP_SYS_PTRACE (then setuid programs keep their
 * privileges under ptrace). */
static int have_cap_sys_ptrace(void) {
  FILE *f = fopen("/proc/self/status", "re");
  char line[256];
  unsigned long long cap = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "CapEff: %llx", &cap) == 1) break;
  fclose(f);
  return (cap >> 19) & 1;
}

static int check_file(const char *argv0, struct rec__prog *p) {
  struct stat st;
  if (stat(p->path, &st) < 0) {
    rw_log(RW_LOG_ERROR, "%s: %s", argv0, strerror(errno));
    return errno == ENOENT ? RW_ENOTFOUND : RW_ERR(errno);
  }
  if (S_ISDIR(st.st_mode)) {
    rw_log(RW_LOG_ERROR, "%s: Is a directory", argv0);
    return RW_ERR(EACCES);
  }
  if (!S_ISREG(st.st_mode) || access(p->path, X_OK) < 0) {
    rw_log(RW_LOG_ERROR, "%s: Permission denied (not an executable file)",
           argv0);
    return RW_ERR(EACCES);
  }
  u8 h[64] = {0};
  int fd = open(p->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    /* Execute-only files cannot be checked; let execve decide. */
    return 0;
  }
  ssize_t n = read(fd, h, sizeof h);
  close(fd);
  if (n >= 2 && h[0] == '#' && h[1] == '!') {
    p->script = 1;
  } else if (n >= 20 && !memcmp(h, ELFMAG, SELFMAG)) {
    unsigned machine = h[18] | h[19] << 8;
    if (h[EI_CLASS] != ELFCLASS64 || machine != EM_X86_64) {
      rw_log(RW_LOG_ERROR,
             "%s is a %s ELF program for machine %u%s; rewind records "
             "x86-64 programs only",
             argv0, h[EI_CLASS] == ELFCLASS32 ? "32-bit" : "64-bit", machine,
             machine == EM_386 ? " (i386)" : "");
      return RW_EUNSUPPORTED;
    }
  } else {
    /* Like execvp: a file the kernel cannot run is a shell script. */
    p->via_sh = 1;
    p->script = 1;
  }
  if (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
      ((st.st_mode & S_ISGID) && st.st_gid != getegid()))
    p->setid = !have_cap_sys_ptrace();
  return 0;
}

int rec__launch_check(const char *argv0, struct rec__prog *p) {
  memset(p, 0, sizeof *p);
  if (!argv0 || !*argv0) {
    rw_log(RW_LOG_ERROR, "no program given");
    return RW_EINVAL;
  }
  if (strchr(argv0, '/')) {
    snprintf(p->path, sizeof p->path, "%s", argv0);
    return check_file(argv0, p);
  }
  const char *path = getenv("PATH");
  if (!path) path = "/usr/local/bin:/usr/bin:/bin";
  int eacces = 0;
  for (const char *d = path;; d++) {
    const char *e = strchr(d, ':');
    size_t n = e ? (size_t)(e - d) : strlen(d);
    snprintf(p->path, sizeof p->path, "%.*s%s%s", (int)n, d, n ? "/" : "",
             argv0);
    if (runnable(p->path, &eacces)) return check_file(argv0, p);
    if (!e) break;
    d = e;
  }
  if (eacces) {
    rw_log(RW_LOG_ERROR, "%s: Permission denied", argv0);
    return RW_ERR(EACCES);
  }
  rw_log(RW_LOG_ERROR, "%s: command not found", argv0);
  return RW_ENOTFOUND;
}

long rec__status_field(pid_t pid, const char *key, long dflt) {
  char path[64], line[256];
  size_t k = strlen(key);
  long v = dflt;
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "re");
  if (!f) return dflt;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, k) && line[k] == ':') {
      v = strtol(line + k + 1, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

int rec__ptrace_scope(void) {
  FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
  int scope = -1;
  if (f) {
    if (fscanf(f, "%d", &scope) != 1) scope = -1;
    fclose(f);
  }
  return scope;
}

int rec__tracer_of(pid_t pid, char *name, size_t cap) {
  char path[64];
  int tracer = (int)rec__status_field(pid, "TracerPid", 0);
  name[0] = 0;
  if (tracer > 0) {
    snprintf(path, sizeof path, "/proc/%d/comm", tracer);
    FILE *f = fopen(path, "re");
    if (f) {
      if (fgets(name, (int)cap, f)) name[strcspn(name, "\n")] = 0;
      fclose(f);
    }
  }
  return tracer;
}

static void explain_ptrace(pid_t child, int err) {
  char name[64];
  int tracer = rec__tracer_of(child, name, sizeof name);
  if (tracer > 0) {
    rw_log(RW_LOG_ERROR,
           "the program is already being traced by pid %d (%s): rewind is "
           "running under a debugger or strace that follows child processes; "
           "run rewind outside of it",
           tracer, name);
    return;
  }
  int scope = rec__ptrace_scope();
  rw_log(RW_LOG_ERROR,
         "ptrace is not permitted here (PTRACE_SEIZE: %s); rewind records "
         "through ptrace of its own child.",
         strerror(err));
  if (scope >= 0)
    rw_log(RW_LOG_ERROR,
           "/proc/sys/kernel/yama/ptrace_scope is %d: 0 or 1 allow rewind, "
           "2 needs CAP_SYS_PTRACE (run as root), 3 forbids ptrace until "
           "reboot. To allow: sysctl kernel.yama.ptrace_scope=1",
           scope);
  rw_log(RW_LOG_ERROR,
         "in a container, grant CAP_SYS_PTRACE and allow the ptrace syscall "
         "(e.g. docker run --cap-add=SYS_PTRACE --security-opt "
         "seccomp=unconfined)");
}

#define REC_PTRACE_OPTS                                               \
  (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK |  \
   PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT |   \
   PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP)

RW_NORETURN static void child(const struct rec__prog *p, char *const *argv,
                              char *const *envp, int syncfd, int errfd) {
  char c;
  int e;
  /* rdtsc and rdtscp fault from now on; the recorder answers them. */
  prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
  /* Wait until the recorder has seized this process. */
  if (read(syncfd, &c, 1) != 1) _exit(127);
  close(syncfd);
  if (p->sbuf || p->vsyscall) rec__seccomp_filter(p->sbuf);
  if (p->via_sh) {
    size_t n = 0;
    while (argv[n]) n++;
    char **av = calloc(n + 2, sizeof *av);
    if (av) {
      av[0] = (char *)"sh";
      av[1] = (char *)p->path;
      for (size_t i = 1; i < n; i++) av[i + 1] = argv[i];
      execve("/bin/sh", av, envp);
    }
  } else {
    execve(p->path, argv, envp);
  }
  e = errno;
  if (write(errfd, &e, sizeof e) < 0) _exit(126);
  _exit(127);
}

int rec__launch(const struct rec__prog *p, char *const *argv,
                char *const *envp) {
  int syncp[2], errp[2];
  RW_RETURN_IF(pipe2(syncp, O_CLOEXEC) < 0, RW_ERR(errno), "pipe");
  if (pipe2(errp, O_CLOEXEC) < 0) {
    int e = errno;
    close(syncp[0]), close(syncp[1]);
    return RW_ERR(e);
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(syncp[1]);
    close(errp[0]);
    child(p, argv, envp, syncp[0], errp[1]);
  }
  close(syncp[0]);
  close(errp[1]);
  if (pid < 0) {
    int e = errno;
    close(syncp[1]), close(errp[0]);
    rw_log(RW_LOG_ERROR, "fork: %s", strerror(e));
    return RW_ERR(e);
  }
  if (ptrace(PTRACE_SEIZE, pid, 0, (void *)(long)REC_PTRACE_OPTS) < 0) {
    int e = errno;
    explain_ptrace(pid, e);
    kill(pid, SIGKILL);
    close(syncp[1]), close(errp[0]);
    waitpid(pid, NULL, __WALL);
    return RW_ERR(EPERM);
  }
  if (write(syncp[1], "x", 1) != 1) {
    /* The child died before exec; its status tells below. */
  }
  close(syncp[1]);
  for (;;) {
    int st;
    if (waitpid(pid, &st, __WALL) < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(errp[0]);
      return RW_ERR(e);
    }
    if (WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_EXEC) {
      close(errp[0]);
      return pid;
    }
    if (WIFEXITED(st) || WIFSIGNALED(st)) {
      int e = 0;
      if (read(errp[0], &e, sizeof e) != sizeof e) e = ECHILD;
      close(errp[0]);
      rw_log(RW_LOG_ERROR, "cannot execute %s: %s", p->path, strerror(e));
      return RW_ERR(e);
    }
    /* A stop before the exec (an event or a signal): let it go on. */
    int sig = WSTOPSIG(st);
    if ((st >> 16) != 0 || sig == SIGTRAP) sig = 0;
    ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig);
  }
}
