/* SPDX-License-Identifier: MIT */
/* rewind replay --verify -j N: the pieces of a recording between its
 * recorder keyframes (rewind record --keyframes), verified N at a time,
 * each in a process of its own (replayer/segment.c says what a piece's
 * check is). The verdicts come back through shared memory; the first
 * piece that went wrong, in the recording's order, decides the exit
 * status, as a replay of the whole would have. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replayer/cpu/cpu.h"
#include "replayer/replayer.h"

/* Exit statuses as cmd_replay.c's. */
#define SEG_DIVERGED 4

static const char *end_text(const struct rp_stop *s, char *buf, size_t cap) {
  if (s->end == RP_END_EXIT)
    snprintf(buf, cap, "the program exited with status %d", s->status);
  else if (s->end == RP_END_SIGNAL)
    snprintf(buf, cap, "the program was killed by signal %d", s->status);
  else
    snprintf(buf, cap, "%s", s->msg[0] ? s->msg : "the trace ends here");
  return buf;
}

/* The pieces of a recording: the sequence numbers of its keyframes, and
 * a verdict per piece in memory its forks share. */
struct pieces {
  u64 *seqs;
  size_t nkf, n, from; /* N pieces; FROM: the first there is */
  /* Piece I runs from keyframe kf[I] (0: the beginning) to keyframe
   * kf[I + 1] (NKF + 1: the end); ends[kf[I]] is where it stops, in the
   * form rp_open_segment takes (SEQS when each piece is one interval). */
  u32 *kf;
  u64 *ends;
  struct rp_segment *res;
};

/* The recording time of interval I (from keyframe I to I + 1) of PC by
 * CLOCKS (when the recorder wrote each keyframe), or MEAN for the first
 * and last, whose ends it did not note, and without clocks. */
static double weight(const struct pieces *pc, const u64 *clocks, size_t i,
                     double mean) {
  if (!clocks || i < 1 || i >= pc->nkf) return mean;
  return clocks[i] > clocks[i - 1] ? (double)(clocks[i] - clocks[i - 1]) : 0;
}

/* Cuts PC's intervals between keyframes into M pieces (PC->n is FROM +
 * M) of about the same recording time each, at least one interval each,
 * into PC->kf. */
static void group(struct pieces *pc, const u64 *clocks, size_t m) {
  double total = 0, known = 0, mean = 1;
  size_t nknown = 0;
  for (size_t i = 1; clocks && i < pc->nkf; i++, nknown++)
    known += weight(pc, clocks, i, 0);
  if (nknown && known > 0) mean = known / (double)nknown;
  else clocks = NULL; /* none known: the same for all */
  for (size_t i = pc->from; i <= pc->nkf; i++)
    total += weight(pc, clocks, i, mean);
  /* Piece J (the current one) ends at the first interval whose end
   * reaches its share of the total, or where the intervals left are no
   * more than the pieces left. */
  size_t j = pc->from;
  double acc = 0;
  pc->kf[j] = (u32)j;
  for (size_t i = pc->from; i <= pc->nkf;) {
    acc += weight(pc, clocks, i, mean);
    i++;
    size_t left = pc->nkf + 1 - i, after = pc->n - 1 - j;
    if (after &&
        (acc >= total * (double)(j + 1 - pc->from) / (double)m ||
         left <= after))
      pc->kf[++j] = (u32)i;
  }
  pc->kf[pc->n] = (u32)(pc->nkf + 1);
}

/* PC for the trace at PATH, in at most MAX (> 0) pieces of about the
 * same recording time each. Returns 0, -1 when
 * it has no keyframes (a note says so unless QUIET: DOING it in one
 * piece), or the exit status. */
static int pieces_open(const char *path, int quiet, const char *doing,
                       size_t max, struct pieces *pc) {
  u64 first;
  struct rw_diag d = {0};
  memset(pc, 0, sizeof *pc);
  u64 *clocks = NULL;
  int rc = rp_recorder_keyframes(path, &pc->seqs, &clocks, &pc->nkf,
                                 &first, &d);
  if (rc < 0)
    return cli_error("%s: %s", path, d.msg[0] ? d.msg : rw_strerror(rc));
  if (!pc->nkf) {
    free(clocks);
    free(pc->seqs);
    if (!quiet)
      fprintf(stderr, "rewind: note: %s has no keyframes (rewind record "
              "--keyframes writes them); %s it in one piece\n",
              path, doing);
    return -1;
  }
  /* A ring recording begins at its first keyframe: no piece before it. */
  pc->from = first >= pc->seqs[0] ? 1 : 0;
  size_t count = pc->nkf + 1 - pc->from;
  size_t m = RW_MIN(max, count);
  pc->n = pc->from + m;
  pc->kf = calloc(pc->n + 1, sizeof *pc->kf);
  pc->ends = calloc(pc->nkf + 1, sizeof *pc->ends);
  if (!pc->kf || !pc->ends) {
    free(clocks);
    free(pc->kf);
    free(pc->ends);
    free(pc->seqs);
    return cli_error("out of memory");
  }
  group(pc, clocks, m);
  free(clocks);
  for (size_t i = pc->from; i < pc->n; i++)
    if (pc->kf[i + 1] <= pc->nkf)
      pc->ends[pc->kf[i]] = pc->seqs[pc->kf[i + 1] - 1];
  pc->res = mmap(NULL, pc->n * sizeof *pc->res, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (pc->res == MAP_FAILED) {
    free(pc->kf);
    free(pc->ends);
    free(pc->seqs);
    return cli_error("memory for %zu segments: %s", pc->n, strerror(errno));
  }
  memset(pc->res, 0, pc->n * sizeof *pc->res);
  return 0;
}

static void pieces_close(struct pieces *pc) {
  munmap(pc->res, pc->n * sizeof *pc->res);
  free(pc->kf);
  free(pc->ends);
  free(pc->seqs);
}

/* Ctrl-C, kill or a closed terminal while pieces run: the signal, for
 * pieces_run to stop them and its caller to clean up and die of it. */
static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof stop_sigs / sizeof *stop_sigs)
static volatile sig_atomic_t stop_sig;
static pid_t *volatile stop_kids; /* the pieces' processes (0: ended) */
static volatile size_t stop_nkids;

static void on_stop(int sig) {
  stop_sig = sig;
  for (size_t i = 0; i < stop_nkids; i++)
    if (stop_kids[i] > 0) kill(stop_kids[i], SIGKILL);
}

/* After the caller has removed what it wrote: dies of the signal that
 * stopped pieces_run, if one did. */
static void pieces_reraise(void) {
  if (!stop_sig) return;
  signal(stop_sig, SIG_DFL);
  raise(stop_sig);
}

/* Runs WORK(PC, K, CTX) for every piece K of PC, each in a process of its
 * own, JOBS at a time; a piece whose process ends otherwise than with
 * status 0 is RP_SEG_ERROR. With PROGRESS, counts the pieces DONE
 * ("pieces verified") on stderr. Returns 0, or the exit status after a failed
 * fork or a stopping signal (SIGINT, SIGTERM, SIGHUP: the pieces are
 * killed; the caller cleans up and calls pieces_reraise). Every piece
 * started has ended when it returns, and one whose parent dies is
 * killed. */
static int pieces_run(struct pieces *pc, int jobs, int progress,
                      const char *done_word,
                      void (*work)(struct pieces *pc, size_t k, void *ctx),
                      void *ctx) {
  size_t n = pc->n, from = pc->from;
  struct rp_segment *res = pc->res;
  pid_t *kids = calloc(n, sizeof *kids);
  if (!kids) return cli_error("out of memory");
  fflush(NULL);
  struct sigaction sa, old[NSTOP];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop; /* no SA_RESTART: wait() returns */
  sigemptyset(&sa.sa_mask);
  stop_sig = 0;
  stop_kids = kids;
  stop_nkids = n;
  for (size_t i = 0; i < NSTOP; i++) sigaction(stop_sigs[i], &sa, &old[i]);
  pid_t me = getpid();
  size_t next = from, running = 0, done = from;
  int status = 0;
  while (done < n) {
    while (running < (size_t)jobs && next < n && !stop_sig) {
      pid_t p = fork();
      if (p < 0) {
        status = cli_error("fork: %s", strerror(errno));
        next = n;
        break;
      }
      if (p == 0) {
        stop_nkids = 0;
        for (size_t i = 0; i < NSTOP; i++)
          sigaction(stop_sigs[i], &old[i], NULL);
        /* Not a replay nobody waits for: dies with the parent. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != me) _exit(1);
        work(pc, next, ctx);
        fflush(NULL);
        _exit(0);
      }
      kids[next++] = p;
      running++;
    }
    if (stop_sig) { /* and one forked as it came */
      for (size_t i = from; i < next; i++)
        if (kids[i]) kill(kids[i], SIGKILL);
      next = n;
    }
    if (!running) break;
    int st;
    pid_t p = wait(&st);
    if (p < 0 && errno == EINTR) continue;
    if (p < 0) break;
    for (size_t i = 0; i < next; i++) {
      if (kids[i] != p) continue;
      kids[i] = 0;
      running--;
      done++;
      if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        res[i].status = RP_SEG_ERROR;
        snprintf(res[i].msg, sizeof res[i].msg, "its replay ended with %s "
                 "%d", WIFSIGNALED(st) ? "signal" : "status",
                 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
      }
      if (progress)
        fprintf(stderr, "\rrewind: %zu of %zu %s", done - from, n - from,
                done_word);
    }
  }
  if (progress) fputc('\n', stderr);
  for (size_t i = 0; i < NSTOP; i++) sigaction(stop_sigs[i], &old[i], NULL);
  stop_nkids = 0;
  free(kids);
  if (stop_sig && !status) {
    fprintf(stderr, "rewind: stopped by signal %d (%s)\n", (int)stop_sig,
            strsignal(stop_sig));
    status = 128 + stop_sig;
  }
  return status;
}

/* Says what went wrong in piece I of PC and returns the exit status; with
 * BY_INTERVAL, names the interval between keyframes where it did (verify
 * -j: the segments are the intervals, the pieces how they were shared
 * out), else the piece. */
static int piece_failed(const struct pieces *pc, size_t i, int by_interval) {
  const struct rp_segment *s = &pc->res[i];
  if (s->report[0]) fprintf(stderr, "rewind: %s", s->report);
  u32 a = pc->kf[i], b = pc->kf[i + 1];
  size_t nr = i + 1 - pc->from, of = pc->n - pc->from;
  if (by_interval) {
    a = s->last;
    b = a + 1;
    nr = a + 1 - pc->from;
    of = pc->nkf + 1 - pc->from;
  }
  fprintf(stderr, "rewind: segment %zu of %zu (from %s", nr, of,
          a ? "keyframe " : "the beginning");
  if (a) fprintf(stderr, "%u", a);
  fprintf(stderr, " to %s", b <= pc->nkf ? "keyframe " : "the end");
  if (b <= pc->nkf) fprintf(stderr, "%u", b);
  fprintf(stderr, ") %s: %s\n",
          s->status == RP_SEG_DIVERGED ? "diverged"
          : s->status == RP_SEG_FAILED ? "failed"
                                       : "could not be replayed",
          s->msg);
  return s->status == RP_SEG_DIVERGED ? SEG_DIVERGED
         : s->status == RP_SEG_FAILED && s->damaged ? CLI_DAMAGED
                                                    : 1;
}

/* Every blob of the trace at PATH was hashed by one of PC's pieces, the
 * files no replay read too: 0 when all match, else says which did not
 * and returns CLI_DAMAGED. */
static int blobs_status(const struct pieces *pc, const char *path) {
  for (size_t i = pc->from; i < pc->n; i++) {
    const struct rp_segment *s = &pc->res[i];
    if (!s->blobs_bad) continue;
    fprintf(stderr, "rewind: %s is damaged at offset %llu: %s\n", path,
            (unsigned long long)s->blob_offset, s->blob_msg);
    return CLI_DAMAGED;
  }
  return 0;
}

static void verify_piece(struct pieces *pc, size_t k, void *ctx) {
  const char *path = ctx;
  struct rp_segment *s = &pc->res[k];
  int erc = rp_verify_segment(path, pc->kf[k], pc->kf[k + 1], pc->seqs,
                              pc->nkf, k - pc->from, pc->n - pc->from, s);
  if (erc < 0) {
    s->status = RP_SEG_ERROR;
    snprintf(s->msg, sizeof s->msg, "%s", rw_strerror(erc));
  }
}

int cli_verify_segments(const char *path, int jobs, int quiet) {
  struct pieces pc;
  /* As analyze -j, at most four pieces per job; a piece checks every
   * keyframe it passes, so each is checked all the same. */
  int status = pieces_open(path, quiet, "verifying", (size_t)jobs * 4, &pc);
  if (status) return status;
  size_t n = pc.n, from = pc.from;
  struct rp_segment *res = pc.res;
  size_t nseg = pc.nkf + 1 - from;
  if (!quiet)
    fprintf(stderr, "rewind: verifying %zu segments of %s in %zu pieces, %d "
            "at a time\n", nseg, path, n - from, jobs);
  u64 t0 = rw_now_ns();
  status = pieces_run(&pc, jobs, !quiet && isatty(2), "pieces verified",
                      verify_piece, (void *)path);
  double secs = (double)(rw_now_ns() - t0) / 1e9;
  u64 insns = 0, events = 0, checks = 0, outputs = 0, digests = 0;
  double work = 0;
  /* A damaged blob first: the pieces read it unhashed, so a replay that
   * diverged may have done so because of it. */
  if (!status) status = blobs_status(&pc, path);
  for (size_t i = 0; i < n; i++) {
    struct rp_segment *s = &res[i];
    insns += s->instructions;
    events += s->events;
    checks += s->checks;
    outputs += s->outputs;
    digests += s->digests;
    work += s->secs;
    if (s->status == RP_SEG_OK || status) continue;
    status = piece_failed(&pc, i, 1);
  }
  struct rp_segment *last = &res[n - 1];
  char buf[600], dg[80];
  if (status == 0 && !last->finished) {
    if (!quiet)
      printf("replay verified up to event %" PRIu64 " (%" PRIu64
             " instructions), in %zu segments; the recording was cut off "
             "there: %s\n", events, insns, nseg,
             end_text(&last->end, buf, sizeof buf));
    status = CLI_CUT;
  } else if (status == 0 && !quiet) {
    printf("replay verified: %" PRIu64 " instructions in %zu segments (%d "
           "at a time in %zu pieces, each segment checked against the "
           "keyframe it ends at), %" PRIu64 " events, %" PRIu64
           " register checks, %" PRIu64 " output checks%s%s, %.2f s (%.2f "
           "s of replay, %.1f MIPS); %s\n",
           insns, nseg, jobs, n - from, events, checks, outputs,
           cli_digests_text(digests, dg, sizeof dg),
           last->end_checked ? ", memory at the end checked" : "", secs,
           work, secs > 0 ? (double)insns / secs / 1e6 : 0.0,
           end_text(&last->end, buf, sizeof buf));
  }
  pieces_close(&pc);
  pieces_reraise();
  return status;
}

/* ---- rewind analyze -j ------------------------------------------------ */

struct analysis {
  const char *path;
  char dir[4096]; /* where the pieces' results go, piece-K */
  const struct cli_piece_job *job;
  int whole; /* a result could not be joined exactly: analyse it whole */
};

/* Piece K's result file in A's directory into BUF. */
static void result_path(const struct analysis *a, size_t k, char *buf,
                        size_t cap) {
  snprintf(buf, cap, "%s/piece-%zu", a->dir, k);
}

static void analyze_piece(struct pieces *pc, size_t k, void *ctx) {
  const struct analysis *a = ctx;
  struct rp_segment *s = &pc->res[k];
  struct rp_opts o = {0};
  struct rw_diag d = {0};
  rp_replay *rp;
  s->index = (u32)k;
  o.defer_blob_hash = 1; /* each piece hashes its share below */
  int rc = rp_open_segment(a->path, pc->kf[k], pc->ends, pc->nkf, &o, &rp,
                           &d);
  if (rc < 0) {
    s->status = RP_SEG_ERROR;
    snprintf(s->msg, sizeof s->msg, "%s", d.msg[0] ? d.msg
                                                   : rw_strerror(rc));
    return;
  }
  char file[4200];
  result_path(a, k, file, sizeof file);
  FILE *f = fopen(file, "w");
  struct rp_stop stop;
  memset(&stop, 0, sizeof stop);
  u64 t0 = rw_now_ns();
  rc = f ? a->job->run(rp, f, &stop, a->job->ctx) : RW_ERR(errno);
  if (f && fclose(f) != 0 && rc == 0) rc = RW_ERR(errno);
  s->instructions = rp_icount(rp);
  if (rc < 0) {
    s->status = RP_SEG_ERROR;
    snprintf(s->msg, sizeof s->msg, "%s", rw_strerror(rc));
  } else if (!rp_segment_stopped(rp, &stop, s)) {
    /* A wrong keyframe after it would make the next piece's result wrong
     * without a word: its end is checked as --verify -j does. */
    if (pc->kf[k + 1] <= pc->nkf)
      rp_segment_end(rp, a->path, pc->kf[k + 1] - 1, pc->seqs, pc->nkf, s);
  }
  rp_segment_blobs(rp, k - pc->from, pc->n - pc->from, s);
  s->secs = (double)(rw_now_ns() - t0) / 1e9;
  rp_close(rp);
}

/* Adds piece K's result in A to the total. Returns 0 or the exit
 * status. */
static int add_piece(struct analysis *a, size_t k) {
  char file[4200];
  if (a->whole) return 0; /* the total is given up */
  result_path(a, k, file, sizeof file);
  FILE *f = fopen(file, "r");
  if (!f) return cli_error("the result of segment %zu: %s", k, strerror(errno));
  int rc = a->job->add(f, a->job->ctx);
  fclose(f);
  if (rc == RW_ERR(ENOTSUP)) { /* joining it would not be exact */
    a->whole = 1;
    return 0;
  }
  if (rc < 0)
    return cli_error("the result of segment %zu: %s", k, rw_strerror(rc));
  return 0;
}

int cli_analyze_segments(const char *path, int jobs, int progress,
                         const struct cli_piece_job *job) {
  struct pieces pc;
  /* Each piece begins by loading its keyframe's state, which can take
   * longer than a short piece's replay: four pieces per job balance the
   * load well enough. The keyframes inside a piece are not used, so
   * nothing of them needs checking (--verify -j checks them all). */
  int status = pieces_open(path, 0, "analysing", (size_t)jobs * 4, &pc);
  if (status) return status;
  struct analysis a = {.path = path, .job = job};
  const char *tmp = getenv("TMPDIR");
  snprintf(a.dir, sizeof a.dir, "%s/rewind-analyze-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(a.dir)) {
    status = cli_error("a directory for the segments' results in %s: %s",
                       tmp && *tmp ? tmp : "/tmp", strerror(errno));
    pieces_close(&pc);
    return status;
  }
  if (progress)
    fprintf(stderr, "rewind: %s of %zu segments of %s, %d at a time\n",
            job->what, pc.n - pc.from, path, jobs);
  status = pieces_run(&pc, jobs, progress, "segments analysed",
                      analyze_piece, &a);
  /* The pieces read blobs unhashed: a damaged one makes any result
   * suspect, so none is given. */
  if (!status) status = blobs_status(&pc, path);
  /* In the history's order, up to the first piece that went wrong (its
   * result covers its history before that). */
  for (size_t i = pc.from; status == 0 && i < pc.n; i++) {
    const struct rp_segment *s = &pc.res[i];
    if (s->status != RP_SEG_ERROR) status = add_piece(&a, i);
    if (s->status == RP_SEG_OK || status) continue;
    status = piece_failed(&pc, i, 0);
    fprintf(stderr, "rewind: the analysis covers the history before that "
            "(without -j it runs from the start, through no keyframe)\n");
  }
  for (size_t i = pc.from; i < pc.n; i++) {
    char file[4200];
    result_path(&a, i, file, sizeof file);
    unlink(file);
  }
  rmdir(a.dir);
  pieces_close(&pc);
  pieces_reraise();
  if (a.whole && (status == 0 || status == 4)) {
    fprintf(stderr, "rewind: note: %s has a return address at an address "
                    "that is not a multiple of 8, where pieces may not "
                    "join exactly; analysing it in one piece\n", path);
    return -1;
  }
  return status;
}
