/* SPDX-License-Identifier: MIT */
/* rec_record(): one recording from start to end. Chooses and creates the
 * trace file, pins the CPU, builds PROG's environment, writes the metadata,
 * launches PROG, runs the event loop, closes the trace and prints the summary
 * line. The work of each step lives in the other files of recorder/. */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "common/isa.h"
#include "recorder/rec_int.h"

extern char **environ;

/* The descriptors open when rewind started: PROG inherits exactly these. */
static u8 inherited[1024 / 8];

static void note_inherited(void) {
  memset(inherited, 0, sizeof inherited);
  for (int fd = 0; fd < 1024; fd++)
    if (fcntl(fd, F_GETFD) >= 0) inherited[fd / 8] |= (u8)(1u << (fd % 8));
}

/* Marks every descriptor rewind opened itself close-on-exec. */
static void cloexec_own(void) {
  for (int fd = 0; fd < 1024; fd++) {
    if (inherited[fd / 8] & (1u << (fd % 8))) continue;
    int fl = fcntl(fd, F_GETFD);
    if (fl >= 0) fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
  }
}

static int set_meta_str(trace_writer *w, const char *key, const char *val) {
  return trace_writer_set_meta(w, key, val, strlen(val));
}

/* ARGV joined with NUL bytes, into a malloc'd buffer (*LEN bytes). */
static char *join(char *const *v, size_t *len) {
  size_t n = 0;
  for (size_t i = 0; v[i]; i++) n += strlen(v[i]) + 1;
  char *b = malloc(n + 1), *p = b;
  if (!b) return NULL;
  for (size_t i = 0; v[i]; i++) {
    size_t k = strlen(v[i]) + 1;
    memcpy(p, v[i], k);
    p += k;
  }
  *len = n;
  return b;
}

/* The NUL-separated strings of file PATH (/proc/PID/cmdline, environ) as
 * a NULL-terminated vector in one malloc'd block, or NULL. */
static char **read_list(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  size_t len = 0, cap = 4096;
  char *b = malloc(cap + 1);
  for (ssize_t n; b; len += (size_t)n) {
    if (len == cap) {
      char *nb = realloc(b, 2 * cap + 1);
      if (!nb) {
        free(b);
        b = NULL;
        break;
      }
      b = nb;
      cap *= 2;
    }
    n = read(fd, b + len, cap - len);
    if (n <= 0) break;
  }
  close(fd);
  if (!b) return NULL;
  b[len] = 0;
  size_t k = 0;
  for (size_t i = 0; i < len; i++) k += !b[i];
  if (len && b[len - 1]) k++;
  char **v = malloc((k + 1) * sizeof *v + len + 1);
  if (v) {
    char *t = (char *)(v + k + 1);
    memcpy(t, b, len + 1);
    size_t j = 0;
    for (size_t i = 0; i < len && j < k; i += strlen(t + i) + 1) v[j++] = t + i;
    v[j] = NULL;
  }
  free(b);
  return v;
}

static int write_meta(struct rec *r, char *const *argv, char **env,
                      const char *tunables, int cpu, const char *cwd) {
  trace_writer *w = r->w;
  char buf[4096];
  size_t len;
  struct utsname u;
  RW_FORWARD(set_meta_str(w, TRACE_META_VERSION, PACKAGE_VERSION));
  char *j = join(argv, &len);
  RW_RETURN_IF(!j, RW_ENOMEM, "cmdline");
  int rc = trace_writer_set_meta(w, TRACE_META_CMDLINE, j, len);
  free(j);
  RW_FORWARD(rc);
  j = join(env, &len);
  RW_RETURN_IF(!j, RW_ENOMEM, "environ");
  rc = trace_writer_set_meta(w, TRACE_META_ENVIRON, j, len);
  free(j);
  RW_FORWARD(rc);
  if (cwd) RW_FORWARD(set_meta_str(w, TRACE_META_CWD, cwd));
  else if (getcwd(buf, sizeof buf))
    RW_FORWARD(set_meta_str(w, TRACE_META_CWD, buf));
  if (gethostname(buf, sizeof buf) == 0) {
    buf[sizeof buf - 1] = 0;
    RW_FORWARD(set_meta_str(w, TRACE_META_HOSTNAME, buf));
  }
  if (uname(&u) == 0) {
    snprintf(buf, sizeof buf, "%s %s %s", u.sysname, u.release, u.machine);
    RW_FORWARD(set_meta_str(w, TRACE_META_KERNEL, buf));
  }
  FILE *f = fopen("/proc/cpuinfo", "re");
  if (f) {
    char line[512];
    while (fgets(line, sizeof line, f)) {
      char *c = strchr(line, ':');
      if (!strncmp(line, "model name", 10) && c) {
        c += 1 + strspn(c + 1, " \t");
        c[strcspn(c, "\n")] = 0;
        rc = set_meta_str(w, TRACE_META_CPU, c);
        break;
      }
    }
    fclose(f);
    RW_FORWARD(rc);
  }
  snprintf(buf, sizeof buf, "%d", cpu);
  RW_FORWARD(set_meta_str(w, TRACE_META_CPU_PINNED, buf));
  struct rec__cpuid *t;
  size_t n;
  RW_FORWARD(rec__cpuid_table(&t, &n));
  /* Tests only: the table as if the hypervisor had moved this CPU since
   * (another initial APIC ID), which the exec that follows finds. */
  const char *skew = getenv("REWIND_TEST_CPUID_MOVED");
  for (size_t i = 0; skew && *skew == '1' && i < n; i++)
    if (t[i].leaf == 1) t[i].ebx ^= 0x01000000u;
  u8 *enc = malloc(n * 24 + 1);
  if (!enc) {
    free(t);
    return RW_ENOMEM;
  }
  rec__cpuid_encode(t, n, enc);
  {
    char isa[256];
    if (rw_isa_unemulated(enc, n * 24, 0, isa, sizeof isa))
      rw_log(RW_LOG_INFO,
             "note: this CPU has %s, which rewind does not emulate yet: a "
             "program that uses them records, but its replay stops at the "
             "first such instruction",
             isa);
  }
  rc = trace_writer_set_meta(w, TRACE_META_CPUID, enc, n * 24);
  free(enc);
  /* Kept, with a copy that follows what the CPU answers now (CPUID). */
  r->cpuid_meta = t;
  r->cpuid = rc == 0 ? malloc(n * sizeof *t) : NULL;
  if (rc == 0 && !r->cpuid) rc = RW_ENOMEM;
  if (rc == 0) memcpy(r->cpuid, t, n * sizeof *t);
  r->ncpuid = rc == 0 ? n : 0;
  RW_FORWARD(rc);
  RW_FORWARD(set_meta_str(w, TRACE_META_TUNABLES, tunables));
  RW_FORWARD(set_meta_str(w, TRACE_META_DIGEST, "lanes"));
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)rw_wall_ns());
  return set_meta_str(w, TRACE_META_START, buf);
}

/* Creates the trace file: OPTS->output, or PROG-N.rwd with the first free
 * N. Writes the chosen path to PATH. Prints the refusal itself. */
static int open_trace(struct rec *r, const struct rec_opts *o,
                      const char *base, trace_writer **w, char *path,
                      size_t cap, u64 cpus) {
  struct trace_writer_opts wo;
  memset(&wo, 0, sizeof wo);
  wo.overwrite = o->force;
  /* Compressed on another CPU while the program runs on this one. */
  wo.background = 1;
  wo.background_cpus = cpus;
  int rc;
  r->ring.bytes = o->ring_bytes;
  if (o->output) {
    snprintf(path, cap, "%s", o->output);
    rc = r->ring.bytes ? rec__ring_open(r, path, o->force, &wo)
                       : trace_writer_open(w, path, &wo);
  } else {
    char dir[4096];
    rc = trace_dir(dir, sizeof dir, 1);
    if (rc < 0) {
      if (rc != RW_ENOTFOUND)
        rw_log(RW_LOG_ERROR, "cannot use the trace directory %s (%s); "
               "writing to the current directory", dir, rw_strerror(rc));
      snprintf(dir, sizeof dir, ".");
    }
    wo.overwrite = 0;
    rc = RW_ERR(EEXIST);
    for (int n = 0; n < 100000 && rc == RW_ERR(EEXIST); n++) {
      int len = snprintf(path, cap, "%s%s%s-%d.rwd",
                         strcmp(dir, ".") ? dir : "",
                         strcmp(dir, ".") ? "/" : "", base, n);
      rc = len < 0 || (size_t)len >= cap ? RW_ERR(ENAMETOOLONG)
           : r->ring.bytes             ? rec__ring_open(r, path, 0, &wo)
                                       : trace_writer_open(w, path, &wo);
    }
  }
  char dir[4200];
  snprintf(dir, sizeof dir, "%s.ring", path);
  if ((rc == RW_ERR(EEXIST) || rc == RW_EEXIST) && r->ring.bytes &&
      access(dir, F_OK) == 0)
    rw_log(RW_LOG_ERROR, "%s exists: an unfinished ring recording (rewind "
           "join %s makes a trace of it); use --force to replace it", dir,
           dir);
  else if (rc == RW_ERR(EEXIST) || rc == RW_EEXIST)
    rw_log(RW_LOG_ERROR, "%s exists; use --force to replace it", path);
  else if (rc < 0)
    rw_log(RW_LOG_ERROR, "cannot write the trace %s: %s", path,
           rw_strerror(rc));
  return rc;
}

static void on_alarm(int sig) {
  (void)sig;
  rec__tick = 1;
}

/* SIGTERM, SIGHUP, SIGINT: end the recording cleanly. A SIGINT the
 * terminal sent (Ctrl-C, si_code SI_KERNEL) went to PROG as well; PROG
 * decides what it means, and the recording goes on. So does a SIGINT
 * from kill(2) that PROG gets too, within a quarter second (killpg). */
static int attach_mode; /* no SIGINT of the terminal reaches PROG */

static void on_stop(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  if (sig == SIGINT && !attach_mode) {
    if (si && si->si_code == SI_KERNEL) return;
    if (!rec__int_pending) rec__int_pid = si ? si->si_pid : 0;
    rec__int_pending = 1;
    return;
  }
  if (!rec__stop_sig) {
    rec__stop_sig = sig;
    rec__stop_pid = si ? si->si_pid : 0;
  }
}

static void human_size(u64 n, char *buf, size_t cap) {
  if (n >= (10u << 20))
    snprintf(buf, cap, "%.0f MiB", n / 1048576.0);
  else if (n >= (1u << 20))
    snprintf(buf, cap, "%.1f MiB", n / 1048576.0);
  else
    snprintf(buf, cap, "%.0f KiB", n / 1024.0);
}

void rec__progress(struct rec *r, int end) {
  if (!r->opts->progress) return;
  if (end) {
    if (r->progress_shown) fputs("\r\033[K", stderr);
    r->progress_shown = 0;
    return;
  }
  u64 el = rw_now_ns() - r->t0;
  if (el < 2000000000ull) return;
  char size[32];
  human_size(trace_writer_size(r->w), size, sizeof size);
  fprintf(stderr, "\r\033[Krewind: recording %s: %llu events, %s, %.0f s",
          r->prog_name, (unsigned long long)(trace_writer_next_seq(r->w) - 1),
          size, el / 1e9);
  fflush(stderr);
  r->progress_shown = 1;
}

static int exit_status_of(int rc) {
  if (rc == RW_ENOTFOUND || rc == RW_ERR(ENOENT)) return 127;
  if (rc == RW_ERR(EACCES) || rc == RW_ERR(ENOEXEC)) return 126;
  return 1;
}

/* Signals whose default action would end the recorder, that PROG may send
 * to its whole process group (kill(0, SIGABRT), killpg), which rewind is
 * in: PROG gets them too, and rewind ignores them. (abort() in rewind
 * itself still ends it: abort resets SIGABRT first.) */
static const int group_sigs[] = {SIGABRT, SIGUSR1,   SIGUSR2, SIGPWR,
                                 SIGIO,   SIGVTALRM, SIGPROF, SIGSTKFLT,
                                 SIGTRAP, SIGSYS,    SIGXCPU, SIGXFSZ};

/* Records the launched PROG until it is gone; fills RES. */
static int run(struct rec *r, struct rec_result *res, u64 t0) {
  struct sigaction ign, alrm, stop, old[6];
  struct sigaction gold[RW_ARRAY_SIZE(group_sigs)];
  struct sigaction rtold[64];
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  memset(&alrm, 0, sizeof alrm);
  alrm.sa_handler = on_alarm; /* no SA_RESTART: waitpid returns EINTR */
  memset(&stop, 0, sizeof stop);
  stop.sa_sigaction = on_stop;
  stop.sa_flags = SA_SIGINFO;
  rec__stop_sig = rec__int_pending = 0;
  sigaction(SIGINT, &stop, &old[0]);
  sigaction(SIGQUIT, &ign, &old[1]);
  sigaction(SIGTSTP, &ign, &old[2]);
  sigaction(SIGALRM, &alrm, &old[3]);
  sigaction(SIGTERM, &stop, &old[4]);
  sigaction(SIGHUP, &stop, &old[5]);
  for (size_t i = 0; i < RW_ARRAY_SIZE(group_sigs); i++)
    sigaction(group_sigs[i], &ign, &gold[i]);
  for (int s = SIGRTMIN; s <= SIGRTMAX && s - SIGRTMIN < 64; s++)
    sigaction(s, &ign, &rtold[s - SIGRTMIN]);
  struct itimerval it0 = {{0, 0}, {0, 0}};
  rec__kf_arm(r);
  rec__tick_arm(r);

  rec__tsc_self(1);
  int rc = 0;
  if (r->attached) {
    rc = rec__attach(r);
    if (rc < 0 && r->nth) rec__undo_attach(r); /* it goes on as it was */
    rec__tick_arm(r); /* as often as its threads need */
    if (rc < 0) {
      r->done = 1;
    } else if (!r->opts->quiet && !r->n_attach_more) {
      rw_log(RW_LOG_INFO, "attached to process %d (%s, %zu thread%s); "
             "recording until %s", (int)r->root.pid, r->prog_name, r->nth,
             r->nth == 1 ? "" : "s",
             r->opts->duration_s ? "--duration is over, Ctrl-C, or it ends"
                                 : "Ctrl-C, or it ends");
    } else if (!r->opts->quiet) {
      char list[256];
      size_t n = (size_t)snprintf(list, sizeof list, "%d", (int)r->root.pid);
      for (unsigned k = 0; k < r->n_attach_more && n < sizeof list; k++)
        n += (size_t)snprintf(list + n, sizeof list - n, ", %d",
                              (int)r->attach_more[k]);
      rw_log(RW_LOG_INFO, "attached to %u processes (%s; %zu threads); "
             "recording until %s", r->n_attach_more + 1, list, r->nth,
             r->opts->duration_s ? "--duration is over, Ctrl-C, or they end"
                                 : "Ctrl-C, or they end");
    }
  } else {
    rc = rec__on_exec(r, 1);
    struct rec__task *t = r->cur;
    t->in_syscall = 1; /* the execve that started PROG returns next */
    t->nr = REC_NR_execve;
    t->skip_exit = 1;
    t->state = REC_T_READY; /* the scheduler resumes it */
    r->cur = NULL;
  }
  r->last_flush_ns = rw_now_ns();
  if (r->opts->duration_s)
    r->deadline_ns = rw_now_ns() + (u64)r->opts->duration_s * 1000000000ull;
  if (rc == 0) rc = rec__loop(r);

  rec__tsc_self(0);
  setitimer(ITIMER_REAL, &it0, NULL);
  rec__progress(r, 1);
  sigaction(SIGINT, &old[0], NULL);
  sigaction(SIGQUIT, &old[1], NULL);
  sigaction(SIGTSTP, &old[2], NULL);
  sigaction(SIGALRM, &old[3], NULL);
  sigaction(SIGTERM, &old[4], NULL);
  sigaction(SIGHUP, &old[5], NULL);
  for (size_t i = 0; i < RW_ARRAY_SIZE(group_sigs); i++)
    sigaction(group_sigs[i], &gold[i], NULL);
  for (int s = SIGRTMIN; s <= SIGRTMAX && s - SIGRTMIN < 64; s++)
    sigaction(s, &rtold[s - SIGRTMIN], NULL);

  int st = r->wait_status;
  char buf[64];
  if (r->attached && (!r->root_final || r->let_go)) {
    /* Let go, not ended: nothing to wait for. */
    res->exit_status = rc < 0 ? 1 : 0;
    int mrc = set_meta_str(r->w, TRACE_META_EXIT, "detached");
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)rw_wall_ns());
    if (mrc == 0) mrc = set_meta_str(r->w, TRACE_META_END, buf);
    res->events = trace_writer_next_seq(r->w) - 1;
    res->duration_ns = rw_now_ns() - t0;
    if (rc == 0 && r->nth && !r->opts->quiet) {
      const char *why = r->stopped_by == SIGALRM ? "--duration is over"
                        : r->stopped_by == SIGINT ? "Ctrl-C"
                                                   : "asked to stop";
      if (r->n_attach_more)
        rw_log(RW_LOG_INFO, "%s: detached from the %u processes, which go "
               "on", why, r->n_attach_more + 1);
      else
        rw_log(RW_LOG_INFO, "%s: detached from process %d, which goes on",
               why, (int)r->root.pid);
    }
    if (rc < 0 && r->nth)
      rw_log(RW_LOG_ERROR, "recording failed: %s; process %d%s was let go "
             "and goes on", rw_strerror(rc), (int)r->root.pid,
             r->n_attach_more ? " (and the others)" : "");
    return rc < 0 ? rc : mrc;
  }
  if (!r->done) { /* rec__on_exec failed: PROG is still there */
    kill(r->root.pid, SIGKILL);
    while (waitpid(r->root.pid, &st, __WALL) < 0 && errno == EINTR) {
    }
  }
  if (WIFEXITED(st)) {
    res->exit_status = WEXITSTATUS(st);
    snprintf(buf, sizeof buf, "exit %d", WEXITSTATUS(st));
  } else if (WIFSIGNALED(st)) {
    res->exit_status = 128 + WTERMSIG(st);
    snprintf(buf, sizeof buf, "signal %d", WTERMSIG(st));
    if (!r->crash_reported && !r->stopped_by)
      rw_log(RW_LOG_ERROR, "%s terminated by signal %d (%s)", r->prog_name,
             WTERMSIG(st), strsignal(WTERMSIG(st)));
  }
  int mrc = set_meta_str(r->w, TRACE_META_EXIT, buf);
  if (r->stopped_by && mrc == 0) {
    char why[96];
    int sig = r->stopped_by;
    if (rec__stop_pid > 0)
      snprintf(why, sizeof why, "rewind record got SIG%s from pid %d",
               sigabbrev_np(sig), (int)rec__stop_pid);
    else
      snprintf(why, sizeof why, "rewind record got SIG%s",
               sigabbrev_np(sig));
    mrc = set_meta_str(r->w, TRACE_META_STOPPED, why);
    rw_log(RW_LOG_ERROR,
           "%s: recording stopped, %s was killed; the trace holds "
           "everything up to here", why, r->prog_name);
    res->exit_status = 128 + sig;
  }
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)rw_wall_ns());
  if (mrc == 0) mrc = set_meta_str(r->w, TRACE_META_END, buf);
  res->events = trace_writer_next_seq(r->w) - 1;
  res->duration_ns = rw_now_ns() - t0;
  if (rc < 0) {
    rw_log(RW_LOG_ERROR, "recording failed: %s", rw_strerror(rc));
    res->exit_status = 1;
  }
  return rc < 0 ? rc : mrc;
}

int rec_record(const struct rec_opts *o, struct rec_result *res) {
  struct rec__prog prog;
  struct rec r;
  char **env = NULL, *applied = NULL;
  u64 t0 = rw_now_ns();
  memset(res, 0, sizeof *res);
  res->exit_status = 1;
  rw_log_level = o->quiet ? RW_LOG_ERROR : RW_LOG_INFO;
  note_inherited();

  int rc = 0;
  char comm[64] = "";
  pid_t apid = o->attach_pid;
  pid_t more[REC_ATTACH_MAX];
  unsigned n_more = 0;
  if (apid) {
    /* A thread's id stands for its whole process. */
    char path[64];
    int tgid = (int)rec__status_field(apid, "Tgid", 0);
    if (tgid > 0 && tgid != apid) {
      rw_log(RW_LOG_INFO, "%d is a thread of process %d: recording the "
             "whole process", (int)apid, tgid);
      apid = tgid;
    }
    for (unsigned k = 0; k < o->n_attach_more; k++) {
      pid_t q = o->attach_more[k];
      int g = (int)rec__status_field(q, "Tgid", 0);
      if (g > 0 && g != q) {
        rw_log(RW_LOG_INFO, "%d is a thread of process %d: recording the "
               "whole process", (int)q, g);
        q = g;
      }
      int dup = q == apid;
      for (unsigned j = 0; j < n_more; j++) dup |= more[j] == q;
      if (!dup) more[n_more++] = q;
    }
    /* The trace is named after the process, from its comm. */
    snprintf(path, sizeof path, "/proc/%d/comm", (int)apid);
    FILE *f = fopen(path, "re");
    if (f) {
      if (!fgets(comm, sizeof comm, f)) comm[0] = 0;
      fclose(f);
    }
    comm[strcspn(comm, "\n/")] = 0;
    if (!comm[0]) {
      rw_log(RW_LOG_ERROR, "-p %d: no such process", (int)apid);
      return RW_ENOTFOUND;
    }
    memset(&prog, 0, sizeof prog);
  } else {
    rc = rec__launch_check(o->argv[0], &prog);
  }
  if (rc < 0) {
    res->exit_status = exit_status_of(rc);
    return rc;
  }
  if (prog.setid)
    rw_log(RW_LOG_INFO,
           "%s is setuid/setgid: under ptrace it runs without its privileges",
           o->argv[0]);
  memset(&r, 0, sizeof r);
  r.proc = &r.root;
  r.proc->maps = &r.proc->maps_own;
  r.proc->sb = &r.proc->sb_own;
  r.proc->memfd = -1;
  r.proc->pagemap_fd = -2;
  r.opts = o;
  r.t0 = t0;
  const char *cd = getenv("REWIND_CHECK_DIGEST");
  r.check_digest = cd && !strcmp(cd, "1");
  const char *check = getenv("REWIND_CHECK_MAPS");
  r.check_maps = check && !strcmp(check, "1");
  r.tsc_trap = rec__tsc_trap_works();
  if (!r.tsc_trap)
    rw_log(RW_LOG_VERBOSE, "rdtsc cannot be trapped on this machine (the "
           "hypervisor ignores CR4.TSD): rdtsc instructions are patched");
  r.timeslice_ns = (u64)(o->timeslice_ms ? o->timeslice_ms : 20) * 1000000;
  r.slice_auto = !o->timeslice_ms;
  if (o->attach_pid) {
    r.prog_name = comm;
  } else {
    const char *slash = strrchr(o->argv[0], '/');
    r.prog_name = slash ? slash + 1 : o->argv[0];
  }
  r.buf = malloc(REC_BUF + 64);
  if (!r.buf) return RW_ENOMEM;
  u64 others;
  int cpu = rec__pin_cpu(&others);
  if (cpu < 0) cpu = 0;
  r.pin_cpu = cpu;
  rc = open_trace(&r, o, r.prog_name, &r.w, res->path, sizeof res->path,
                  others);
  if (rc < 0) {
    res->path[0] = 0;
    free(r.buf);
    return rc;
  }
  rc = rec__cpu_mask_build(o->cpu_features, &r.mask);
  if (rc == 0 && r.mask.hidden[0] && !o->quiet)
    rw_log(RW_LOG_INFO,
           "hiding %s from glibc (GLIBC_TUNABLES) and OpenSSL "
           "(OPENSSL_ia32cap); code that executes cpuid itself still sees "
           "them, since this machine cannot trap cpuid",
           r.mask.hidden);
  int launched = 0;
  if (o->attach_pid) {
    /* What the process was started with, as far as /proc tells. */
    char path[64], cwd[4096];
    static char *none[] = {NULL};
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)apid);
    char **av = read_list(path);
    snprintf(path, sizeof path, "/proc/%d/environ", (int)apid);
    char **ev = read_list(path);
    snprintf(path, sizeof path, "/proc/%d/cwd", (int)apid);
    ssize_t n = readlink(path, cwd, sizeof cwd - 1);
    cwd[n > 0 ? n : 0] = 0;
    char *fallback[] = {comm, NULL};
    if (rc == 0)
      rc = write_meta(&r, av && av[0] ? av : fallback, ev ? ev : none, "",
                      cpu, n > 0 ? cwd : NULL);
    free(av);
    free(ev);
    if (rc == 0) rc = rec__regs_init(&r);
    if (rc == 0) {
      cloexec_own();
      r.attached = attach_mode = 1;
      r.attach_pid = apid;
      memcpy(r.attach_more, more, n_more * sizeof *more);
      r.n_attach_more = n_more;
      launched = 1;
    }
  }
  if (rc == 0 && !o->attach_pid)
    rc = rec__env_build(environ, &r.mask, &env, &applied);
  if (rc == 0 && !o->attach_pid)
    rc = write_meta(&r, o->argv, env, applied, cpu, NULL);
  if (rc == 0 && !o->attach_pid) rc = rec__regs_init(&r);
  if (rc == 0 && !o->attach_pid) {
    cloexec_own();
    prog.vsyscall = rec__vsyscall_present();
    /* A filter of rewind's own that sees every syscall needs a tracer
     * for every process that inherits it: not with --no-follow, whose
     * children go on alone, nor under someone else's filter, which may
     * fail syscalls before rewind's sees them. */
    prog.sbuf = o->syscall_buffer && !o->no_follow &&
                prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0;
    rc = rec__launch(&prog, o->argv, env);
    if (rc >= 0) {
      r.proc->pid = r.proc->live = r.last_run = rc;
      r.last_proc = r.proc;
      rec__vsyscall_started(&r, prog.vsyscall || prog.sbuf);
      r.sbuf = prog.sbuf && r.proc->hide_seccomp; /* the filter is on */
      /* The library with its symbols and unwind tables, for gdb. */
      if (r.sbuf && trace_writer_set_meta(r.w, TRACE_META_SBLIB,
                                          rec__sblib_elf,
                                          rec__sblib_elf_size) < 0)
        rw_log(RW_LOG_INFO, "note: out of memory: gdb will not know the "
                            "syscall buffer's functions");
      r.cur = rec__task_add(&r, rc);
      if (!r.cur) rc = RW_ENOMEM;
      launched = 1;
      if (rc > 0) rc = 0;
    } else {
      res->exit_status = exit_status_of(rc);
    }
  }
  if (launched && !r.cur && !r.attached) kill(r.root.pid, SIGKILL);
  if (launched && (r.cur || r.attached)) rc = run(&r, res, t0);
  attach_mode = 0;
  if (r.attached && rc < 0 && res->events == 0) launched = 0; /* no trace */
  int crc = trace_writer_close(r.w);
  /* A ring's segments become the trace. */
  if (r.ring.bytes) {
    int jrc = rec__ring_finish(&r, !launched ? -1 : crc == 0);
    if (crc == 0) crc = jrc;
  }
  if (rc == 0 && crc < 0) {
    /* A write that failed on the writer's thread shows only now. */
    rw_log(RW_LOG_ERROR, "recording failed: %s", rw_strerror(crc));
    res->exit_status = 1;
    rc = crc;
  }
  /* Large files this trace stored go to the blob cache, for the next. */
  if (launched && crc == 0) rec__blob_cache_save(&r, res->path);
  rec__blob_cache_save(&r, NULL); /* frees what is left */
  if (!launched) {
    unlink(res->path); /* nothing useful in it */
    res->path[0] = 0;
  } else {
    struct stat st;
    if (stat(res->path, &st) == 0) res->size = (u64)st.st_size;
    char size[32], thr[320] = "";
    human_size(res->size, size, sizeof size);
    size_t tl = 0;
    if (r.nprocs)
      tl = (size_t)snprintf(thr, sizeof thr, ", %zu processes",
                            r.nprocs + 1);
    if (r.n.threads)
      tl += (size_t)snprintf(thr + tl, sizeof thr - tl,
                             ", %llu threads, %llu switches (%llu preempted)",
                             (unsigned long long)r.n.threads + 1,
                             (unsigned long long)r.n.switches,
                             (unsigned long long)r.n.preempts);
    if (r.n.buffered && tl < sizeof thr)
      tl += (size_t)snprintf(thr + tl, sizeof thr - tl,
                             ", %llu of %llu syscalls buffered",
               (unsigned long long)r.n.buffered,
               (unsigned long long)r.n.syscalls);
    if (r.kf.count && tl < sizeof thr)
      tl += (size_t)snprintf(thr + tl, sizeof thr - tl, ", %llu keyframes "
                             "(%.1f MiB, %.2f s)",
                             (unsigned long long)r.kf.count,
                             (double)r.kf.bytes / (1 << 20),
                             (double)r.kf.ns / 1e9);
    else if ((r.kf.due || r.kf.waits || r.kf.put_off) && tl < sizeof thr)
      tl += (size_t)snprintf(thr + tl, sizeof thr - tl, ", no keyframe");
    if (r.kf.put_off && tl < sizeof thr)
      tl += (size_t)snprintf(thr + tl, sizeof thr - tl, " (%llu put off for "
                             "time)", (unsigned long long)r.kf.put_off);
    if (r.ring.bytes && tl < sizeof thr)
      tl += (size_t)snprintf(thr + tl, sizeof thr - tl,
                             ", ring: the last %u segments kept, %llu "
                             "dropped (%.1f MiB)",
                             r.ring.n - r.ring.first + 1,
                             (unsigned long long)r.ring.dropped,
                             (double)r.ring.dropped_bytes / (1 << 20));
    int lrc = trace_dir_set_latest(res->path);
    if (lrc < 0 && lrc != RW_ENOTFOUND)
      rw_log(RW_LOG_INFO, "could not mark %s as the latest trace: %s",
             res->path, rw_strerror(lrc));
    if (rc < 0)
      rw_log(RW_LOG_ERROR,
             "%s holds what was recorded before the failure (%s, %llu "
             "events); rewind replay %s replays it up to there",
             res->path, size, (unsigned long long)res->events, res->path);
    else
      rw_log(RW_LOG_INFO,
             "recorded %s: %s, %llu events%s, %.2f s; replay with: rewind "
             "replay %s",
             res->path, size, (unsigned long long)res->events, thr,
             res->duration_ns / 1e9, res->path);
  }
  rec__env_free(env);
  free(applied);
  if (r.check_maps)
    rw_log(RW_LOG_INFO,
           "REWIND_CHECK_MAPS: %llu address-space updates followed and "
           "checked, %llu reads of the maps",
           (unsigned long long)r.n.maps_followed,
           (unsigned long long)r.n.maps_read);
  if (r.check_digest)
    rw_log(RW_LOG_INFO,
           "REWIND_CHECK_DIGEST: %llu digests from written pages, each "
           "checked against a full one: %llu pages kept, %llu read",
           (unsigned long long)r.n.wp_digests,
           (unsigned long long)r.n.wp_kept,
           (unsigned long long)r.n.wp_read);
  for (size_t i = 0; i < rec__proc_count(&r); i++)
    rec__proc_release(&r, rec__proc_at(&r, i));
  for (size_t i = 0; i < r.nprocs; i++) {
    free(r.procs[i]->killed);
    free(r.procs[i]);
  }
  free(r.procs);
  free(r.pass);
  free(r.wbuf);
  rec__ranges_free(&r.ranges);
  rec__tasks_free(&r);
  free(r.blobs);
  free(r.tscfiles);
  free(r.cpuid);
  free(r.cpuid_meta);
  free(r.tscsites);
  free(r.objs);
  free(r.buf);
  rec__kf_mem_free(&r);
  free(r.xsave);
  free(r.vdso_orig);
  return launched ? (rc < 0 ? rc : 0) : rc;
}
