/* SPDX-License-Identifier: MIT */
/* `rewind analyze writes|accesses [options] [TRACE] ADDR [LEN]`: the
 * analyses of a memory range. writes lists every write to it, in order,
 * with the bytes before and after; accesses counts every read and write
 * an instruction makes to it, per granule and per instruction. Both take
 * -j N (the pieces between the trace's keyframes, cli/segments.c). Exit
 * statuses as cmd_analyze.c's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/analyze.h"
#include "cli/cli.h"
#include "format/format.h"
#include "replayer/replayer.h"

void cli_analyze_writes_usage(FILE *out) {
  fputs("usage: rewind analyze writes [options] [TRACE] ADDR [LEN]\n"
        "\n"
        "Replay TRACE and list every write to the LEN bytes at ADDR (default\n"
        "1; numbers in decimal or 0x hex, addresses as the recording had\n"
        "them, as gdb shows them) of the recorded program, in order: the\n"
        "position of the write (for rewind replay -g N or monitor goto N,\n"
        "which stop just before it), the thread, the instruction, or the\n"
        "syscall whose output the kernel wrote there, and the bytes before\n"
        "and after (of the range; its first 16 bytes). A write that leaves\n"
        "the bytes as they were is listed when an instruction made it, not\n"
        "when the kernel did.\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --json               one JSON object per write, one per line\n"
        "  -j, --jobs N         replay the pieces between the trace's\n"
        "                       keyframes (rewind record --keyframes) N at a\n"
        "                       time, each in a process of its own: the same\n"
        "                       list, sooner on N cores\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -h, --help           show this help\n",
        out);
}

/* Prints one write of `analyze writes`. */
static int print_write(void *ctx, const struct rp_access *a) {
  const int *json = ctx;
  if (*json) {
    printf("{\"position\":%llu,\"thread\":%u,\"address\":%llu,"
           "\"size\":%u,\"by_kernel\":%s,\"rip\":%llu,\"instruction\":",
           (unsigned long long)a->icount, a->tid,
           (unsigned long long)a->access_addr, a->access_size,
           a->by_kernel ? "true" : "false", (unsigned long long)a->rip);
    trace_json_str(stdout, a->insn);
    printf(",\"before\":\"");
    for (u32 i = 0; a->before_ok && i < a->size; i++)
      printf("%02x", a->before[i]);
    printf("\",\"after\":\"");
    for (u32 i = 0; a->after_ok && i < a->size; i++)
      printf("%02x", a->after[i]);
    printf("\"}\n");
  } else {
    printf("%12llu %8u  %#llx+%u  %s%s\n    ",
           (unsigned long long)a->icount, a->tid,
           (unsigned long long)a->access_addr, a->access_size,
           a->by_kernel ? "the kernel; the thread was at " : "", a->insn);
    for (u32 i = 0; i < a->size; i++)
      printf(a->before_ok ? "%02x " : "?? ", a->before[i]);
    printf("->");
    for (u32 i = 0; i < a->size; i++)
      printf(a->after_ok ? " %02x" : " ??", a->after[i]);
    putchar('\n');
  }
  return ferror(stdout) ? 1 : 0;
}

/* The operands [TRACE] ADDR [LEN] of CMD after the options (a trace is
 * what does not read as a number) into *TRACE (NULL: none), *ADDR and
 * *LEN (left as it is without one). Returns -1, or prints why not and
 * returns 2. */
static int range_operands(const char *cmd, int argc, char **argv,
                          const char **trace, u64 *addr, u64 *len) {
  char *end;
  int n = argc - optind, st;
  *trace = NULL;
  if (n >= 1) {
    strtoull(argv[optind], &end, 0);
    if (*end || end == argv[optind]) *trace = argv[optind++], n--;
  }
  if (n < 1 || n > 2)
    return cli_usage_error(cmd, "expected [TRACE] ADDR [LEN]");
  if ((st = an_count_arg(cmd, "ADDR", argv[optind], addr)) >= 0 ||
      (n == 2 && (st = an_count_arg(cmd, "LEN", argv[optind + 1], len)) >= 0))
    return st;
  return -1;
}

/* `analyze writes -j`: a piece saves its writes as they come, then a last
 * one with found -1 and the piece's instructions; they are printed in the
 * history's order, each position moved by the pieces' before it. */
struct writes_job {
  u64 addr, len;
  int json;
  u64 before; /* the instructions of the pieces printed so far */
};

static int save_write(void *ctx, const struct rp_access *a) {
  return fwrite(a, sizeof *a, 1, ctx) == 1 ? 0 : RW_ERR(EIO);
}

static int writes_piece(rp_replay *rp, FILE *out, struct rp_stop *stop,
                        void *ctx) {
  const struct writes_job *j = ctx;
  RW_FORWARD(rp_writes_each(rp, j->addr, j->len, save_write, out, stop));
  struct rp_access end = {.found = -1, .icount = rp_icount(rp)};
  return save_write(out, &end);
}

static int writes_add(FILE *in, void *ctx) {
  struct writes_job *j = ctx;
  struct rp_access a;
  while (fread(&a, sizeof a, 1, in) == 1) {
    if (a.found == -1) {
      j->before += a.icount;
      return 0;
    }
    a.icount += j->before;
    if (print_write(&j->json, &a)) return RW_ERR(errno ? errno : EIO);
  }
  return RW_ETRUNC;
}

int cli_analyze_writes(int argc, char **argv) {
  static const struct option longopts[] = {
      {"json", no_argument, 0, 'J'},
      {"jobs", required_argument, 0, 'j'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  int json = 0, progress = isatty(2), c, st, jobs = 0;
  optind = 1;
  while ((c = cli_getopt("analyze writes", argc, argv, "hj:", longopts)) !=
         -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    switch (c) {
      case 'j':
        if ((st = an_jobs_arg("analyze writes", optarg, &jobs)) >= 0) return st;
        break;
      case 'h':
        cli_analyze_writes_usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  const char *trace;
  u64 addr, len = 1;
  if ((st = range_operands("analyze writes", argc, argv, &trace, &addr,
                           &len)) >= 0)
    return st;
  if (!len || addr + len < addr)
    return cli_usage_error("analyze writes", "LEN must be at least 1 and "
                           "the range must fit");
  char path[4096];
  if (cli_trace_path(trace, path, sizeof path)) return 1;
  if (!json)
    printf("%12s %8s  %s\n", "position", "thread",
           "address+size  by (instruction)\n    bytes before -> after");
  if (jobs) {
    fflush(stdout); /* the pieces are forks */
    struct writes_job wj = {addr, len, json, 0};
    struct cli_piece_job job = {"writes", writes_piece, writes_add, &wj};
    st = cli_analyze_segments(path, jobs, progress, &job);
    if (st != -1) {
      if (fflush(stdout) != 0 && errno != EPIPE && !st)
        st = cli_error("writing the list: %s", strerror(errno));
      return st;
    }
  }
  rp_replay *rp;
  if ((st = an_open_trace(path, 0, progress, &rp))) return st;
  struct rp_stop stop;
  int rc = rp_writes_each(rp, addr, len, print_write, &json, &stop);
  if (progress) fputc('\n', stderr);
  int status = rc < 0 ? cli_error("writes of %s failed: %s", path,
                                  rw_strerror(rc))
                      : an_run_status(rp, &stop);
  if (fflush(stdout) != 0 && errno != EPIPE && !status)
    status = cli_error("writing the list: %s", strerror(errno));
  rp_close(rp);
  return status;
}

void cli_analyze_accesses_usage(FILE *out) {
  fputs("usage: rewind analyze accesses [options] [TRACE] ADDR [LEN]\n"
        "\n"
        "Replay TRACE and count every read and write an instruction makes to\n"
        "the LEN bytes (default 8) at ADDR, in every process: per granule\n"
        "(aligned on its size), the unaligned ones (an address that is not a\n"
        "multiple of the access size), those crossing a cache line, by\n"
        "access size, and the instructions that made them, most first. Each\n"
        "iteration of a rep string instruction is one access; the kernel's\n"
        "writes (a read(2) into the range) are not counted (analyze writes\n"
        "lists them).\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "  --granule N          count by granules of N bytes: 1, 2, 4, 8\n"
        "                       (default), 16, 32, 64 (a cache line) ... 4096\n"
        "  --all                list every granule, not only those accessed\n"
        "  --stacks             also count by the call paths the accesses\n"
        "                       were made on (from shadow call stacks)\n"
        "  --thread TID         thread TID's accesses alone\n"
        "  --top N              the N instructions with the most accesses\n"
        "                       (default 25; 0: all)\n"
        "  -j, --jobs N         count in the pieces between the trace's\n"
        "                       keyframes (rewind record --keyframes), N\n"
        "                       at a time, and add them up: the same counts\n"
        "  --json               one JSON object per line: the summary, then\n"
        "                       each granule and each instruction\n"
        "  --progress           show progress on stderr (default: when\n"
        "                       stderr is a terminal)\n"
        "  --no-progress        do not show progress\n"
        "  -h, --help           show this help\n",
        out);
}

/* analyze accesses -j: the options, and the total of the pieces added so
 * far. */
struct accesses_job {
  struct rp_data_opts o;
  rp_data *total;
};

static int accesses_piece(rp_replay *rp, FILE *out, struct rp_stop *stop,
                          void *ctx) {
  const struct accesses_job *j = ctx;
  rp_data *d;
  RW_FORWARD(rp_data_run(rp, &j->o, &d, stop));
  int rc = rp_data_save(d, out);
  rp_data_free(d);
  return rc;
}

static int accesses_add(FILE *in, void *ctx) {
  struct accesses_job *j = ctx;
  return rp_data_add(&j->total, &j->o, in);
}

/* The counts of O in the pieces of the trace at PATH, JOBS at a time, in
 * *OUT (NULL when the trace has no keyframes: count it whole). Returns
 * the exit status. */
static int accesses_pieces(const char *path, const struct rp_data_opts *o,
                           int jobs, int progress, rp_data **out) {
  struct accesses_job j = {*o, NULL};
  j.o.piece = 1;
  struct cli_piece_job job = {"accesses", accesses_piece, accesses_add, &j};
  *out = NULL;
  fflush(stdout); /* the pieces are forks */
  int st = cli_analyze_segments(path, jobs, progress, &job);
  if (st == -1) {
    rp_data_free(j.total);
    return 0;
  }
  *out = j.total; /* NULL too when the first piece went wrong */
  return st;
}

int cli_analyze_accesses(int argc, char **argv) {
  static const struct option longopts[] = {
      {"jobs", required_argument, 0, 'j'},
      {"granule", required_argument, 0, 'g'},
      {"all", no_argument, 0, 'a'},
      {"stacks", no_argument, 0, 's'},
      {"thread", required_argument, 0, 'T'},
      {"top", required_argument, 0, 't'},
      {"json", no_argument, 0, 'J'},
      {"progress", no_argument, 0, 'G'},
      {"no-progress", no_argument, 0, 'P'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *cmd = "analyze accesses";
  struct rp_data_opts o = {.granule = 8};
  u64 top = 25, tid = 0, gran = 8;
  int json = 0, all = 0, progress = isatty(2), c, st, jobs = 0;
  optind = 1;
  while ((c = cli_getopt(cmd, argc, argv, "hj:", longopts)) != -1) {
    if (an_shared_opt(c, &progress, &json)) continue;
    switch (c) {
      case 'j':
        if ((st = an_jobs_arg(cmd, optarg, &jobs)) >= 0) return st;
        break;
      case 'g':
        if ((st = an_count_arg(cmd, "--granule", optarg, &gran)) >= 0) return st;
        if (!gran || gran > 4096 || (gran & (gran - 1)))
          return cli_usage_error(cmd, "--granule takes a power of 2 from 1 "
                                 "to 4096, not %s", optarg);
        o.granule = (u32)gran;
        break;
      case 'a':
        all = 1;
        break;
      case 's':
        o.stacks = 1;
        break;
      case 'T':
        if ((st = an_tid_arg(cmd, optarg, &tid)) >= 0) return st;
        o.tid = (u32)tid;
        break;
      case 't':
        if ((st = an_count_arg(cmd, "--top", optarg, &top)) >= 0) return st;
        break;
      case 'h':
        cli_analyze_accesses_usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  const char *trace;
  o.len = 8;
  if ((st = range_operands(cmd, argc, argv, &trace, &o.addr, &o.len)) >= 0)
    return st;
  if (!o.len || o.addr + o.len < o.addr || o.len > (64ull << 20))
    return cli_usage_error(cmd, "LEN must be 1 to 64 MiB and the range must "
                           "fit");
  if ((o.len + o.granule - 1) / o.granule > RP_DATA_GRANULES)
    return cli_usage_error(cmd, "%llu bytes make more than %u granules of "
                           "%u: give a larger --granule",
                           (unsigned long long)o.len, RP_DATA_GRANULES,
                           o.granule);
  char path[4096];
  if (cli_trace_path(trace, path, sizeof path)) return 1;
  if (o.tid && an_thread_check(path, o.tid)) return 1;
  rp_replay *rp = NULL;
  rp_data *d = NULL;
  int status = 0, rc;
  if (jobs) {
    status = accesses_pieces(path, &o, jobs, progress, &d);
    if (!d && status) return status;
  }
  if (!d) { /* whole: no -j, or a trace without keyframes */
    if ((st = an_open_trace(path, 0, progress, &rp))) return st;
    struct rp_stop stop;
    rc = rp_data_run(rp, &o, &d, &stop);
    if (progress) fputc('\n', stderr);
    if (rc < 0) {
      rp_close(rp);
      return an_failed("accesses", path, rc, o.tid);
    }
    status = an_run_status(rp, &stop);
  }
  rc = rp_data_write(d, stdout, (size_t)top, all, json);
  if (rc < 0 && rc != RW_ERR(EPIPE) && !status)
    status = cli_error("writing the counts: %s", rw_strerror(rc));
  rp_data_free(d);
  if (rp) rp_close(rp);
  return status;
}

