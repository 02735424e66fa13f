/* SPDX-License-Identifier: MIT */
/* `rewind dump TRACE`: parses its options and prints every record through
 * format/report.c, as text or JSON lines, optionally for one thread or one
 * record type. Damage is reported on stderr; the exit status is 0 when all
 * of the trace was readable, 1 otherwise, 2 for usage errors. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "format/format.h"

static void dump_usage(FILE *out) {
  fputs("usage: rewind dump [OPTIONS] [TRACE]\n"
        "\n"
        "Print every record of a trace in global sequence order:\n"
        "  SEQ TID TYPE field=value ...\n"
        "TRACE is a file, or a name in the trace directory (rewind ls);\n"
        "without it, the latest recording.\n"
        "\n"
        "options:\n"
        "  --json         one JSON object per line\n"
        "  --thread TID   only the records of thread TID\n"
        "  --type NAME    only records of type NAME (e.g. SYSCALL_EXIT)\n"
        "  --from SEQ     start at sequence number SEQ\n"
        "  --bytes N      print at most N bytes of each bytes field "
        "(default 64)\n"
        "  --keyframe N   the records of the state of recorder keyframe N\n"
        "                 (rewind record --keyframes, --ring), numbered\n"
        "                 from 1 on their own\n"
        "  --help         show this help\n",
        out);
}

/* Parses a decimal number of at most MAX into *V. Returns 0 or -1. */
static int parse_num(const char *s, unsigned long long max,
                     unsigned long long *v) {
  char *end;
  if (!s || !*s || *s == '-') return -1;
  errno = 0;
  *v = strtoull(s, &end, 0);
  return errno || *end || *v > max ? -1 : 0;
}

/* Dumps the state of recorder keyframe K of R (PATH, for messages): a
 * trace of its own stored as a blob. */
static int dump_keyframe(const char *path, trace_reader *r, u32 k,
                         const struct trace_dump_opts *o) {
  u32 n = 0;
  for (size_t i = 0; i < trace_reader_nkeyframes(r); i++) {
    struct trace_keyframe_info ki;
    struct rw_diag d = {0};
    if (trace_reader_keyframe_info(r, i, &ki) < 0 ||
        ki.kind != TRACE_KF_RECORDER || ++n != k)
      continue;
    u8 *img;
    size_t len;
    u64 seq;
    trace_reader *kr = NULL;
    int rc = trace_reader_recorder_state(r, i, &seq, &img, &len, &d);
    if (rc == 0) rc = trace_reader_open_mem(&kr, img, len, &d);
    if (rc == 0) rc = trace_report_dump(stdout, stderr, kr, o, &d);
    trace_reader_close(kr);
    free(img);
    if (rc < 0 && rc != RW_ENOTFOUND) {
      cli_error("%s: keyframe %u: %s", path, k,
                d.msg[0] ? d.msg : "its state cannot be read");
      return CLI_DAMAGED;
    }
    return rc > 0 ? CLI_DAMAGED : 0;
  }
  return cli_error("%s has %u recorder keyframe%s, not %u", path, n,
                   n == 1 ? "" : "s", k);
}

int cli_cmd_dump(int argc, char **argv) {
  static const struct option longopts[] = {
      {"json", no_argument, 0, 'j'},      {"thread", required_argument, 0, 't'},
      {"type", required_argument, 0, 'T'}, {"from", required_argument, 0, 'F'},
      {"bytes", required_argument, 0, 'b'}, {"help", no_argument, 0, 'h'},
      {"keyframe", required_argument, 0, 'K'}, {0, 0, 0, 0}};
  unsigned long long kf = 0;
  struct trace_dump_opts o = {0, 64, TRACE_ALL_THREADS, -1, 0};
  const char *path = NULL;
  char pathbuf[4096];
  trace_reader *r;
  struct rw_diag d = {0};
  struct trace_info in;
  unsigned long long v;
  int rc, c;
  optind = 1;
  while ((c = cli_getopt("dump", argc, argv, "h", longopts)) != -1) {
    switch (c) {
      case 'h':
        dump_usage(stdout);
        return 0;
      case 'j':
        o.json = 1;
        break;
      case 't':
        if (parse_num(optarg, 0xfffffffeu, &v) < 0)
          return cli_usage_error("dump", "--thread needs a thread id, not "
                                 "'%s'", optarg);
        o.tid = (u32)v;
        break;
      case 'T':
        o.type = trace_record_type_by_name(optarg);
        if (o.type < 0 && parse_num(optarg, 0xffff, &v) == 0) o.type = (int)v;
        if (o.type < 0)
          return cli_usage_error("dump", "unknown record type '%s'", optarg);
        break;
      case 'F':
        if (parse_num(optarg, ~0ull, &v) < 0)
          return cli_usage_error("dump", "--from needs a sequence number, "
                                 "not '%s'", optarg);
        o.seq_from = v;
        break;
      case 'b':
        if (parse_num(optarg, (unsigned long long)TRACE_MAX_RECORD, &v) < 0 ||
            v == 0)
          return cli_usage_error("dump", "--bytes needs a positive number, "
                                 "not '%s'", optarg);
        o.bytes_max = (size_t)v;
        break;
      case 'K':
        if (parse_num(optarg, 0xffffffffu, &kf) < 0 || kf == 0)
          return cli_usage_error("dump", "--keyframe needs a keyframe "
                                 "number from 1, not '%s'", optarg);
        break;
      default:
        return 2;
    }
  }
  rc = cli_open_trace("dump", argc, argv, pathbuf, sizeof pathbuf, &r, &in);
  if (rc >= 0) return rc;
  path = pathbuf;
  if (kf) {
    rc = dump_keyframe(path, r, (u32)kf, &o);
    trace_reader_close(r);
    return rc;
  }
  rc = trace_report_dump(stdout, stderr, r, &o, &d);
  trace_reader_close(r);
  if (rc == RW_ENOTFOUND)
    return cli_error("%s: no records of thread %u", path, o.tid);
  if (rc < 0) return cli_error("writing the dump: %s", rw_strerror(rc));
  return rc > 0 || (in.damaged && !in.torn) ? CLI_DAMAGED : 0;
}
