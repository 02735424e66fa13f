/* SPDX-License-Identifier: MIT */
/* `rewind join DIR [-o OUT] [-f]`: the segments a ring recording left
 * (rewind record --ring, recorder/ring.c) joined into one trace, which the
 * recorder does itself when it ends; this is for a recorder that was
 * killed. Exit statuses: 0, 1 when the segments cannot be read or joined,
 * 2 for usage. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "format/format.h"

static void usage(FILE *out) {
  fputs("usage: rewind join DIR [-o OUT] [-f]\n"
        "\n"
        "Join the segments a ring recording (rewind record --ring) left in\n"
        "DIR (FILE.ring, when the recorder could not finish: it was killed)\n"
        "into one trace, OUT (default: DIR without its .ring), and remove\n"
        "DIR. The trace holds what the segments hold, up to the last one\n"
        "written; a replay says where it was cut off.\n"
        "\n"
        "  -o, --output OUT  the trace to write\n"
        "  -f, --force    replace OUT if it exists\n"
        "  -k, --keep     do not remove DIR\n"
        "  -h, --help     show this help\n",
        out);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_cmd_join(int argc, char **argv) {
  static const struct option longopts[] = {
      {"output", required_argument, 0, 'o'},
      {"force", no_argument, 0, 'f'},
      {"keep", no_argument, 0, 'k'},
      {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  const char *out = NULL;
  int force = 0, keep = 0, c;
  optind = 1;
  while ((c = cli_getopt("join", argc, argv, "o:fkh", longopts)) != -1) {
    switch (c) {
      case 'o':
        out = optarg;
        break;
      case 'f':
        force = 1;
        break;
      case 'k':
        keep = 1;
        break;
      case 'h':
        usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  if (optind + 1 != argc)
    return cli_usage_error("join", optind == argc ? "which directory?"
                                                  : "one directory at a time");
  char dir[4096], def[4096];
  snprintf(dir, sizeof dir, "%s", argv[optind]);
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/') dir[--dl] = 0;
  if (!out) {
    if (dl < 6 || strcmp(dir + dl - 5, ".ring"))
      return cli_usage_error("join", "%s does not end in .ring: say where "
                             "the trace goes with -o", dir);
    snprintf(def, sizeof def, "%.*s", (int)(dl - 5), dir);
    out = def;
  }
  DIR *d = opendir(dir);
  if (!d) return cli_error("%s: %s", dir, strerror(errno));
  char **paths = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)) && rc == 0) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 4, ".rwd")) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      char **v = realloc(paths, cap * sizeof *v);
      if (!v) {
        rc = RW_ENOMEM;
        break;
      }
      paths = v;
    }
    if (asprintf(&paths[n], "%s/%s", dir, e->d_name) < 0) rc = RW_ENOMEM;
    else n++;
  }
  closedir(d);
  if (rc == 0 && !n) {
    free(paths);
    return cli_error("%s holds no segments (*.rwd)", dir);
  }
  qsort(paths, n, sizeof *paths, by_name);
  if (rc == 0 && !force && access(out, F_OK) == 0) {
    cli_error("%s exists; use --force to replace it", out);
    rc = 1;
  }
  struct rw_diag diag = {0};
  if (rc == 0) {
    rc = trace_join((const char *const *)paths, n, out, force, &diag);
    if (rc < 0)
      cli_error("cannot join %s: %s", dir,
                diag.msg[0] ? diag.msg : rw_strerror(rc));
  }
  if (rc == 0) {
    printf("rewind: joined %zu segment%s of %s into %s\n", n,
           n == 1 ? "" : "s", dir, out);
    for (size_t i = 0; i < n && !keep; i++) unlink(paths[i]);
    if (!keep) rmdir(dir);
  }
  for (size_t i = 0; i < n; i++) free(paths[i]);
  free(paths);
  return rc == 0 ? 0 : 1;
}
