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
#include <string.h>
#include <sys/mman.h>
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

int cli_verify_segments(const char *path, int jobs, int quiet) {
  u64 *seqs, first;
  size_t nkf;
  struct rw_diag d = {0};
  int rc = rp_recorder_keyframes(path, &seqs, &nkf, &first, &d);
  if (rc < 0)
    return cli_error("%s: %s", path, d.msg[0] ? d.msg : rw_strerror(rc));
  if (!nkf) {
    free(seqs);
    if (!quiet)
      fprintf(stderr, "rewind: note: %s has no keyframes (rewind record "
              "--keyframes writes them); verifying it in one piece\n",
              path);
    return -1;
  }
  size_t n = nkf + 1;
  /* A ring recording begins at its first keyframe: no piece before it. */
  size_t from = first >= seqs[0] ? 1 : 0;
  struct rp_segment *res = mmap(NULL, n * sizeof *res,
                                PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (res == MAP_FAILED) {
    free(seqs);
    return cli_error("memory for %zu segments: %s", n, strerror(errno));
  }
  memset(res, 0, n * sizeof *res);
  pid_t *kids = calloc(n, sizeof *kids);
  if (!kids) {
    munmap(res, n * sizeof *res);
    free(seqs);
    return cli_error("out of memory");
  }
  if (!quiet)
    fprintf(stderr, "rewind: verifying %zu segments of %s, %d at a time\n",
            n - from, path, jobs);
  fflush(NULL);
  u64 t0 = rw_now_ns();
  size_t next = from, running = 0, done = from;
  int status = 0;
  while (done < n) {
    while (running < (size_t)jobs && next < n) {
      pid_t p = fork();
      if (p < 0) {
        status = cli_error("fork: %s", strerror(errno));
        next = n;
        break;
      }
      if (p == 0) {
        struct rp_segment *s = &res[next];
        int erc = rp_verify_segment(path, (u32)next, seqs, nkf, s);
        if (erc < 0) {
          s->status = RP_SEG_ERROR;
          snprintf(s->msg, sizeof s->msg, "%s", rw_strerror(erc));
        }
        fflush(NULL);
        _exit(0);
      }
      kids[next++] = p;
      running++;
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
      if (!quiet && isatty(2))
        fprintf(stderr, "\rrewind: %zu of %zu segments verified",
                done - from, n - from);
    }
  }
  if (!quiet && isatty(2)) fputc('\n', stderr);
  double secs = (double)(rw_now_ns() - t0) / 1e9;
  u64 insns = 0, events = 0, checks = 0, outputs = 0;
  double work = 0;
  for (size_t i = 0; i < n; i++) {
    struct rp_segment *s = &res[i];
    insns += s->instructions;
    events += s->events;
    checks += s->checks;
    outputs += s->outputs;
    work += s->secs;
    if (s->status == RP_SEG_OK || status) continue;
    if (s->report[0]) fprintf(stderr, "rewind: %s", s->report);
    fprintf(stderr, "rewind: segment %zu of %zu (from %s", i + 1 - from,
            n - from,
            i ? "keyframe " : "the beginning");
    if (i) fprintf(stderr, "%zu", i);
    fprintf(stderr, " to %s", i < nkf ? "keyframe " : "the end");
    if (i < nkf) fprintf(stderr, "%zu", i + 1);
    fprintf(stderr, ") %s: %s\n",
            s->status == RP_SEG_DIVERGED ? "diverged"
            : s->status == RP_SEG_FAILED ? "failed"
                                         : "could not be replayed",
            s->msg);
    status = s->status == RP_SEG_DIVERGED ? SEG_DIVERGED
             : s->status == RP_SEG_FAILED && s->damaged ? CLI_DAMAGED
                                                        : 1;
  }
  struct rp_segment *last = &res[n - 1];
  char buf[600];
  if (status == 0 && !last->finished) {
    if (!quiet)
      printf("replay verified up to event %" PRIu64 " (%" PRIu64
             " instructions), in %zu segments; the recording was cut off "
             "there: %s\n", events, insns, n - from,
             end_text(&last->end, buf, sizeof buf));
    status = CLI_CUT;
  } else if (status == 0 && !quiet) {
    printf("replay verified: %" PRIu64 " instructions in %zu segments (%d "
           "at a time, each checked against the keyframe it ends at), %"
           PRIu64 " events, %" PRIu64 " register checks, %" PRIu64
           " output checks%s, %.2f s (%.2f s of replay, %.1f MIPS); %s\n",
           insns, n - from, jobs, events, checks, outputs,
           last->end_checked ? ", memory at the end checked" : "", secs,
           work, secs > 0 ? (double)insns / secs / 1e6 : 0.0,
           end_text(&last->end, buf, sizeof buf));
  }
  if (status == 0 || status == CLI_CUT) {
    /* Files the pieces never read are part of the trace too. */
    struct rp_opts o = {0};
    rp_replay *rp;
    struct rw_diag bd = {0};
    o.whole = 1;
    o.no_index = 1;
    if (rp_open(&rp, path, &o, &bd) == 0) {
      if (rp_check_blobs(rp, &bd) < 0) {
        fprintf(stderr, "rewind: %s is damaged at offset %llu: %s\n", path,
                (unsigned long long)bd.offset, bd.msg);
        status = CLI_DAMAGED;
      }
      rp_close(rp);
    }
  }
  free(kids);
  free(seqs);
  munmap(res, n * sizeof *res);
  return status;
}
