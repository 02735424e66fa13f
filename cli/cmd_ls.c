/* SPDX-License-Identifier: MIT */
/* `rewind ls` and `rewind rm`: the traces kept in the trace directory
 * (format/tracedir.c), listed with their size, date, end and command, and
 * removed by name. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "format/format.h"

static void ls_usage(FILE *out) {
  fputs("usage: rewind ls [--json]\n"
        "\n"
        "List the traces of the trace directory, oldest first: name, size,\n"
        "when the recording started, how the program ended, and its command\n"
        "line. The latest trace (what `rewind replay` with no TRACE opens)\n"
        "is marked with '*'. The directory is $REWIND_TRACE_DIR, else\n"
        "$XDG_DATA_HOME/rewind, else ~/.local/share/rewind.\n"
        "\n"
        "  --json      one JSON object per trace\n"
        "  -h, --help  show this help\n",
        out);
}

/* Metadata KEY of R as text in BUF (NUL separators as spaces). */
static const char *meta(trace_reader *r, const char *key, char *buf,
                        size_t cap) {
  const void *v;
  size_t n, o = 0;
  if (!r || trace_reader_meta(r, key, &v, &n) < 0) return "?";
  for (size_t i = 0; i < n && o + 1 < cap; i++) {
    char c = ((const char *)v)[i];
    if (c == 0 && i + 1 == n) break;
    buf[o++] = c == 0 ? ' ' : (unsigned char)c < 0x20 ? '?' : c;
  }
  buf[o] = 0;
  return buf;
}

static void human(char *buf, size_t cap, unsigned long long n) {
  if (n < 1024)
    snprintf(buf, cap, "%llu B", n);
  else if (n < 1024 * 1024)
    snprintf(buf, cap, "%.1f KiB", n / 1024.0);
  else if (n < 1024ull * 1024 * 1024)
    snprintf(buf, cap, "%.1f MiB", n / 1048576.0);
  else
    snprintf(buf, cap, "%.1f GiB", n / 1073741824.0);
}

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

int cli_cmd_ls(int argc, char **argv) {
  int json;
  int rc = cli_json_opts("ls", argc, argv, ls_usage, &json);
  if (rc >= 0) return rc;
  if (optind < argc)
    return cli_usage_error("ls", "unexpected argument '%s'", argv[optind]);
  char dir[4096];
  rc = trace_dir(dir, sizeof dir, 0);
  if (rc < 0)
    return cli_error("no trace directory: set REWIND_TRACE_DIR or HOME");
  struct trace_dir_entry *v;
  size_t n;
  rc = trace_dir_list(&v, &n);
  if (rc < 0) return cli_error("%s: %s", dir, rw_strerror(rc));
  if (n == 0 && !json)
    fprintf(stderr, "rewind: no traces in %s yet (rewind record PROG)\n", dir);
  if (n && !json)
    printf("  %-24s %10s  %-16s  %-10s %s\n", "NAME", "SIZE", "RECORDED",
           "END", "COMMAND");
  for (size_t i = 0; i < n; i++) {
    trace_reader *r = NULL;
    struct rw_diag d = {0};
    char size[32], when[32] = "?", end[64], cmd[512], start[32];
    if (trace_reader_open(&r, v[i].path, &d) < 0) r = NULL;
    const char *st = meta(r, TRACE_META_START, start, sizeof start);
    time_t t = (time_t)((st[0] != '?' ? strtoull(st, NULL, 10)
                                      : v[i].mtime_ns) /
                        1000000000u);
    struct tm tm;
    if (localtime_r(&t, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
    meta(r, TRACE_META_EXIT, end, sizeof end);
    if (!r) snprintf(end, sizeof end, "unreadable");
    meta(r, TRACE_META_CMDLINE, cmd, sizeof cmd);
    if (json) {
      printf("{\"name\":");
      json_str(v[i].name);
      printf(",\"path\":");
      json_str(v[i].path);
      printf(",\"bytes\":%llu,\"latest\":%s,\"recorded\":",
             (unsigned long long)v[i].size, v[i].latest ? "true" : "false");
      json_str(when);
      printf(",\"end\":");
      json_str(end);
      printf(",\"command\":");
      json_str(cmd);
      printf("}\n");
    } else {
      human(size, sizeof size, v[i].size);
      printf("%c %-24s %10s  %-16s  %-10s %s\n", v[i].latest ? '*' : ' ',
             v[i].name, size, when, end, cmd);
    }
    trace_reader_close(r);
  }
  free(v);
  return 0;
}

static void rm_usage(FILE *out) {
  fputs("usage: rewind rm TRACE...\n"
        "\n"
        "Delete traces: names in the trace directory (as `rewind ls` shows\n"
        "them, with or without .rwd) or paths of trace files. Files that are\n"
        "not rewind traces are left alone. When the latest trace goes, the\n"
        "newest one left becomes the latest.\n"
        "\n"
        "  -h, --help  show this help\n",
        out);
}

int cli_cmd_rm(int argc, char **argv) {
  static const struct option longopts[] = {{"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  int c, status = 0;
  optind = 1;
  while ((c = cli_getopt("rm", argc, argv, "h", longopts)) != -1) {
    if (c == 'h') {
      rm_usage(stdout);
      return 0;
    }
    return 2;
  }
  if (optind >= argc) return cli_usage_error("rm", "no trace given");
  for (int i = optind; i < argc; i++) {
    char path[4096];
    struct rw_diag d = {0};
    trace_reader *r = NULL;
    if (!argv[i][0] || cli_trace_path(argv[i], path, sizeof path)) {
      status = 1;
      continue;
    }
    /* Only a file that starts as a trace does is removed. */
    int rc = trace_reader_open(&r, path, &d);
    if (rc == RW_ECORRUPT || rc == RW_ETRUNC) {
      status = cli_error("%s is not a rewind trace; left alone", path);
      continue;
    }
    if (rc < 0 && rc != RW_EVERSION) {
      status = cli_error("%s: %s", path, d.msg[0] ? d.msg : rw_strerror(rc));
      continue;
    }
    if (rc == 0) trace_reader_close(r);
    rc = trace_dir_remove(path);
    if (rc < 0) status = cli_error("cannot remove %s: %s", path, rw_strerror(rc));
  }
  return status;
}
