/* SPDX-License-Identifier: MIT */
/* Option parsing shared by every subcommand: getopt_long with one way of
 * reporting mistakes, so that each is reported once, naming the option as
 * the user typed it, followed by the pointer to --help. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "format/format.h"
#include "replayer/replayer.h"

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
               const struct option *longopts) {
  char spec[64] = ":";
  /* A leading '+' (stop at the first operand) must stay first. */
  if (shortopts[0] == '+') {
    strcpy(spec, "+:");
    shortopts++;
  }
  strncat(spec, shortopts, sizeof spec - strlen(spec) - 1);
  opterr = 0;
  int prev = optind;
  int c = getopt_long(argc, argv, spec, longopts, NULL);
  if (c != '?' && c != ':') return c;
  /* argv[optind - 1] is the word getopt stopped at, except for a short
   * option in a cluster (-qx), where optopt names the letter. */
  const char *word = optind - 1 < argc && optind - 1 >= prev
                         ? argv[optind - 1]
                         : argv[prev < argc ? prev : argc - 1];
  char shortname[3] = {'-', (char)optopt, 0};
  int is_long = word[0] == '-' && word[1] == '-';
  const char *name = is_long || !optopt ? word : shortname;
  char clean[128];
  size_t n = strcspn(name, "=");
  if (n >= sizeof clean) n = sizeof clean - 1;
  memcpy(clean, name, n);
  clean[n] = 0;
  if (c == ':')
    cli_usage_error(cmd, "option '%s' needs an argument", clean);
  else if (is_long && strchr(word, '='))
    cli_usage_error(cmd, "option '%s' is unknown or takes no argument",
                    clean);
  else
    cli_usage_error(cmd, "unknown option '%s'", clean);
  return '?';
}

int cli_json_opts(const char *cmd, int argc, char **argv,
                  void (*usage)(FILE *), int *json) {
  static const struct option longopts[] = {{"json", no_argument, 0, 'j'},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  int c;
  *json = 0;
  optind = 1;
  while ((c = cli_getopt(cmd, argc, argv, "h", longopts)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return 0;
    }
    if (c != 'j') return 2;
    *json = 1;
  }
  return -1;
}

int cli_open_trace(const char *cmd, int argc, char **argv, char *path,
                   size_t cap, trace_reader **r, struct trace_info *info) {
  struct rw_diag d = {0};
  if (optind + 1 < argc)
    return cli_usage_error(cmd, "more than one trace given");
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, cap))
    return 1;
  int rc = trace_reader_open(r, path, &d);
  if (rc < 0) {
    cli_error("%s: %s", path, d.msg);
    return cli_open_status(rc);
  }
  trace_reader_get_info(*r, info);
  cli_report_open(path, info);
  return -1;
}

int cli_open_status(int rc) {
  return rc == RW_ECORRUPT || rc == RW_ETRUNC ? CLI_DAMAGED : 1;
}

int cli_replay_open(const char *path, const struct rp_opts *opts,
                    struct rp_replay **rp) {
  struct rw_diag diag = {0};
  int rc = rp_open(rp, path, opts, &diag);
  if (rc == 0) return 0;
  cli_error("cannot replay %s: %s", path,
            diag.msg[0] ? diag.msg : rw_strerror(rc));
  return cli_open_status(rc);
}

int cli_trace_path(const char *trace, char *path, size_t cap) {
  struct rw_diag d = {0};
  if (trace_dir_resolve(trace, path, cap, &d) < 0)
    return cli_error("%s", d.msg);
  return 0;
}
