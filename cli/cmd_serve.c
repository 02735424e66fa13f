/* SPDX-License-Identifier: MIT */
/* `rewind serve` and the gdb-facing modes of `rewind replay`: serving a
 * replay to gdb over stdin/stdout (what `target remote | rewind serve
 * --stdio TRACE` runs), over TCP one client after another (--listen), and
 * starting gdb attached to a replay. Only arguments and process plumbing
 * here; the protocol is gdbstub/'s, the replay replayer/'s. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* memfd_create */
#endif
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replayer/cpu/cpu.h"
#include "common/rw.h"
#include "format/format.h"
#include "gdbstub/gdbstub.h"
#include "replayer/replayer.h"

/* Opens the replay of PATH and moves it to START: the process to debug
 * (which it runs to), then the instruction (~0: stay); with WARN, says
 * what is wrong with the trace. Prints why not and returns the exit status
 * on failure. */
static int open_replay(const char *path, rp_replay **rp,
                       const struct cli_start *start, int warn) {
  struct rp_opts opts = {0};
  opts.tree = start->tree;
  opts.write_lines = 1; /* the write index at the grain of lines */
  int rc = cli_replay_open(path, &opts, rp);
  if (rc) return rc;
  if (warn) cli_trace_warning(*rp, path);
  if (start->proc) {
    int st = cli_goto_process(*rp, path, start->proc, !warn);
    if (st) {
      rp_close(*rp);
      return st;
    }
  }
  if (start->icount != ~0ull) {
    struct rp_stop stop;
    rc = rp_seek(*rp, start->icount, &stop);
    if (rc < 0) {
      rp_close(*rp);
      return cli_error("cannot go to instruction %llu of %s: %s",
                       (unsigned long long)start->icount, path,
                       rw_strerror(rc));
    }
  }
  return 0;
}

int cli_serve_stdio(const char *path, int quiet, int log,
                    const struct cli_start *start) {
  rp_replay *rp;
  int st = open_replay(path, &rp, start, !quiet);
  if (st) return st;
  signal(SIGPIPE, SIG_IGN);
  struct gdb_serve_opts o = {.name = cli_base_name(path), .log = log,
                             .quiet = quiet, .tree = start->tree};
  int rc = gdb_serve(rp, 0, 1, &o);
  rp_close(rp);
  if (rc < 0) return cli_error("serving gdb: %s", rw_strerror(rc));
  return 0;
}

/* 1 when the host part of ADDR ("HOST:PORT", ":PORT", "PORT") is a
 * loopback address or absent (the default is 127.0.0.1). */
static int is_loopback(const char *addr) {
  const char *colon = strrchr(addr, ':');
  if (!colon) return 1;
  size_t n = (size_t)(colon - addr);
  if (n == 0) return 1;
  char host[256];
  if (n >= sizeof host) return 0;
  memcpy(host, addr, n);
  host[n] = 0;
  if (host[0] == '[' && n > 2 && host[n - 1] == ']') {
    memmove(host, host + 1, n - 2);
    host[n - 2] = 0;
  }
  return !strncmp(host, "127.", 4) || !strcmp(host, "localhost") ||
         !strcmp(host, "::1");
}

int cli_serve_listen(const char *path, const char *addr, int quiet, int log,
                     const struct cli_start *start, int remote, int idle) {
  rp_replay *rp;
  char desc[300];
  struct rw_diag diag = {0};
  if (!is_loopback(addr) && !remote)
    return cli_error("--listen %s would accept gdb connections from other "
                     "machines, and the GDB protocol has no authentication: "
                     "anyone who reaches the port reads the recording. Add "
                     "--allow-remote to do it anyway, or listen on "
                     "127.0.0.1 and use an ssh tunnel",
                     addr);
  if (!is_loopback(addr) && !quiet)
    fprintf(stderr, "rewind: warning: listening on %s: the GDB protocol has "
                    "no authentication; anyone who reaches this port can "
                    "read the recording\n", addr);
  int lfd = gdb_listen(addr, desc, sizeof desc, &diag);
  if (lfd < 0) return cli_error("%s", diag.msg);
  int st = open_replay(path, &rp, start, !quiet);
  if (st) {
    close(lfd);
    return st;
  }
  signal(SIGPIPE, SIG_IGN);
  printf("rewind: serving %s on %s; in gdb: target remote %s\n", path, desc,
         desc);
  fflush(stdout);
  struct gdb_serve_opts o = {.name = cli_base_name(path), .log = log,
                             .quiet = quiet, .listening = 1,
                             .tree = start->tree,
                             .listen_fd = lfd, .idle_secs = idle};
  int status = 0;
  for (;;) {
    int fd = gdb_accept(lfd);
    if (fd < 0) {
      status = cli_error("accept: %s", rw_strerror(fd));
      break;
    }
    if (!quiet) fprintf(stderr, "rewind: gdb connected\n");
    int rc = gdb_serve(rp, fd, fd, &o);
    close(fd);
    if (rc < 0) fprintf(stderr, "rewind: connection: %s\n", rw_strerror(rc));
    if (!quiet)
      fprintf(stderr, "rewind: gdb disconnected; waiting for the next on "
                      "%s\n", desc);
  }
  rp_close(rp);
  close(lfd);
  return status;
}

/* Appends S to DST (CAP bytes) in single quotes for /bin/sh. */
static int sh_quote(char *dst, size_t cap, const char *s) {
  size_t n = strlen(dst);
  if (n + 2 >= cap) return -1;
  dst[n++] = '\'';
  for (; *s; s++) {
    const char *piece = *s == '\'' ? "'\\''" : NULL;
    size_t k = piece ? 4 : 1;
    if (n + k + 2 >= cap) return -1;
    if (piece)
      memcpy(dst + n, piece, k);
    else
      dst[n] = *s;
    n += k;
  }
  dst[n++] = '\'';
  dst[n] = 0;
  return 0;
}

/* The gdb commands that make a gdb session on a replay feel right (printed
 * by `rewind gdbinit`, given to the gdb `rewind replay` starts). gdb keeps
 * the registers and the shared-library list it read before `monitor goto`
 * moved the replay: a hook reads them again after every monitor command
 * (quietly: those commands print lines). gdb gives up on a reply after
 * `remotetimeout` seconds (2 by default), but the server answers its first
 * packet only once it stands where the session starts (--goto, -p), and a
 * monitor command may search a long history: wait an hour instead. */
const char cli_gdb_init[] =
    "# rewind: gdb helpers for debugging a recording.\n"
    "set remotetimeout 3600\n"
    "define hookpost-monitor\n"
    "  pipe maintenance flush register-cache | cat >/dev/null\n"
    "  pipe sharedlibrary | cat >/dev/null\n"
    "end\n"
    "echo rewind: a recording; reverse-continue, reverse-step, reverse-next "
    "and reverse-finish go back in time, `monitor help` lists rewind's "
    "commands.\\n\n";

/* What `rewind gdbinit` adds for a gdb started by hand, which
 * `rewind replay` does itself: the syscall buffer's library (the code
 * rewind mapped into the recorded process) gets its symbols and unwind
 * tables from the server (GDB_SBLIB_PATH), so that a stop inside it shows
 * its functions and a backtrace goes on into the program's. Before each
 * prompt, once per connection; `rewind-symbols` does it at once. In
 * Python, last: a gdb without Python skips it alone. */
static const char gdb_init_hand[] =
    "python\n"
    "import gdb\n"
    "class RewindSymbols(gdb.Command):\n"
    "    \"\"\"Load the symbols of rewind's syscall buffer library.\"\"\"\n"
    "    def __init__(self):\n"
    "        super().__init__('rewind-symbols', gdb.COMMAND_FILES)\n"
    "    def invoke(self, arg, from_tty):\n"
    "        if any(o.filename.endswith('" GDB_SBLIB_PATH "')\n"
    "               for o in gdb.objfiles()):\n"
    "            return\n"
    "        gdb.execute('add-symbol-file target:" GDB_SBLIB_PATH "',\n"
    "                    to_string=True)\n"
    "RewindSymbols()\n"
    "_rewind_tried = set()\n"
    "def _rewind_prompt():\n"
    "    inf = gdb.selected_inferior()\n"
    "    key = (inf.num, inf.pid)\n"
    "    if not inf.pid or key in _rewind_tried:\n"
    "        return\n"
    "    _rewind_tried.add(key)\n"
    "    try:\n"
    "        gdb.execute('rewind-symbols', to_string=True)\n"
    "    except gdb.error:\n"
    "        pass\n"
    "gdb.events.before_prompt.connect(_rewind_prompt)\n"
    "end\n";

static int init_script(char *name, size_t cap) {
  int fd = memfd_create("rewind-gdb-init", 0);
  if (fd < 0) return -1;
  size_t n = sizeof cli_gdb_init - 1;
  if (write(fd, cli_gdb_init, n) != (ssize_t)n) {
    close(fd);
    return -1;
  }
  snprintf(name, cap, "/proc/self/fd/%d", fd);
  return 0;
}

/* Writes LEN bytes at P into a new memfd called NAME, and its path into
 * PATH (CAP bytes). The descriptor stays open across exec, for gdb. */
static int memfd_with(const char *name, const void *p, size_t len, char *path,
                      size_t cap) {
  int fd = memfd_create(name, 0);
  if (fd < 0) return -1;
  if (write(fd, p, len) != (ssize_t)len) {
    close(fd);
    return -1;
  }
  snprintf(path, cap, "/proc/self/fd/%d", fd);
  return 0;
}

/* A gdb script that adds the symbols and unwind tables of the syscall
 * buffer's library (the ELF the trace keeps, TRACE_META_SBLIB), so that a
 * stop inside it shows its functions and a backtrace goes on into the
 * program's. -1 when the trace has none. */
static int sblib_script(rp_replay *rp, char *name, size_t cap) {
  static char elf[256 << 10];
  int n = rp_meta(rp, TRACE_META_SBLIB, elf, sizeof elf);
  char file[64], cmd[160];
  if (n <= 0 || (size_t)n >= sizeof elf - 1 ||
      memfd_with("rewind-sblib", elf, (size_t)n, file, sizeof file) < 0)
    return -1;
  snprintf(cmd, sizeof cmd, "pipe add-symbol-file %s | cat >/dev/null\n",
           file);
  return memfd_with("rewind-sblib-gdb", cmd, strlen(cmd), name, cap);
}

int cli_replay_gdb(const char *path, const struct cli_start *start,
                   int quiet, int nargs, char **args) {
  char self[4096], target[9000] = "target extended-remote | ";
  rp_replay *rp;
  /* Say what is wrong with the trace here rather than inside gdb (the
   * server inside warns, and goes to the process). */
  static const struct cli_start none = {~0ull, NULL, 0};
  int st = open_replay(path, &rp, &none, 0);
  if (st) return st;
  char sblib[64];
  int have_sblib = sblib_script(rp, sblib, sizeof sblib) == 0;
  rp_close(rp);
  struct cli_picked pk;
  if (start->proc && (st = cli_pick(path, start->proc, &pk))) return st;
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return cli_error("cannot find rewind's own path: %s",
                               strerror(errno));
  self[n] = 0;
  if (sh_quote(target, sizeof target, self) ||
      strlen(target) + 20 >= sizeof target)
    return cli_error("path too long");
  strcat(target, quiet ? " serve --stdio -q " : " serve --stdio ");
  if (start->icount != ~0ull)
    snprintf(target + strlen(target), sizeof target - strlen(target),
             "--goto %llu ", (unsigned long long)start->icount);
  if (start->proc)
    snprintf(target + strlen(target), sizeof target - strlen(target),
             "-p %u ", pk.pid);
  if (start->tree)
    snprintf(target + strlen(target), sizeof target - strlen(target),
             "--tree ");
  if (sh_quote(target, sizeof target, path))
    return cli_error("path too long");
  const char *gdb = getenv("REWIND_GDB");
  if (!gdb || !*gdb) gdb = "gdb";
  /* gdb, -q, -ix init, four for --tree, four for the sysroot, -ex target,
   * -x sblib, the arguments, NULL: room for all, with some to spare */
  char **argv = calloc((size_t)nargs + 24, sizeof *argv);
  if (!argv) return cli_error("out of memory");
  int k = 0;
  char init[64];
  argv[k++] = (char *)gdb;
  argv[k++] = (char *)"-q";
  if (init_script(init, sizeof init) == 0) {
    argv[k++] = (char *)"-ix";
    argv[k++] = init;
  }
  if (start->tree) {
    /* gdb keeps each forked child as an inferior, and resumes them all:
     * the replay moves every process at once. */
    argv[k++] = (char *)"-iex";
    argv[k++] = (char *)"set detach-on-fork off";
    argv[k++] = (char *)"-iex";
    argv[k++] = (char *)"set schedule-multiple on";
  }
  /* The trace's files from the local disk (cli/sysroot.c), which gdb
   * reads several times faster than through the remote protocol. */
  char root[PATH_MAX], setroot[PATH_MAX + 32], setsolib[PATH_MAX + 64];
  if (cli_sysroot(path, root, sizeof root) == 0) {
    snprintf(setroot, sizeof setroot, "set sysroot %s", root);
    snprintf(setsolib, sizeof setsolib, "set solib-search-path %s/.by-name",
             root);
    argv[k++] = (char *)"-ex";
    argv[k++] = setroot;
    argv[k++] = (char *)"-ex";
    argv[k++] = setsolib;
  }
  argv[k++] = (char *)"-ex";
  argv[k++] = target;
  if (have_sblib) {
    argv[k++] = (char *)"-x";
    argv[k++] = sblib;
  }
  for (int i = 0; i < nargs; i++) argv[k++] = args[i];
  argv[k] = NULL;
  /* The server gdb starts need not repeat what was said here. */
  setenv("REWIND_REPLAY_GDB", "1", 1);
  execvp(gdb, argv);
  int e = errno;
  free(argv);
  if (e == ENOENT)
    return cli_error("cannot start %s: it is not installed (Debian and "
                     "Ubuntu: apt install gdb), or set REWIND_GDB to its "
                     "path",
                     gdb);
  return cli_error("cannot start %s: %s", gdb, strerror(e));
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: rewind serve --stdio [options] [TRACE]\n"
          "       rewind serve --listen [HOST:]PORT [options] [TRACE]\n"
          "\n"
          "Serve a replay of TRACE to gdb over the GDB remote protocol, for\n"
          "debugging forwards and backwards (reverse-continue, reverse-step,\n"
          "watchpoints in both directions). TRACE is a file, or a name in the\n"
          "trace directory (rewind ls); without it, the latest recording.\n"
          "\n"
          "  --stdio           talk on stdin and stdout; in gdb:\n"
          "                      target remote | rewind serve --stdio TRACE\n"
          "  --listen ADDR     listen on ADDR (PORT, :PORT or HOST:PORT; the\n"
          "                    host is 127.0.0.1 unless given; port 0 picks a\n"
          "                    free one) and serve one gdb after another\n"
          "  --allow-remote    let --listen take a host that is not loopback\n"
          "                    (the protocol has no authentication)\n"
          "  --idle-timeout S  with --listen, close a connection whose gdb\n"
          "                    sends nothing for S seconds while the replay\n"
          "                    waits (default 1800; 0: never); a second gdb\n"
          "                    is told the replay is busy\n"
          "  -g, --goto N      start at global instruction N\n"
          "  -p, --process P   debug recorded process P (a pid, or the name\n"
          "                    of its program); its history begins at its\n"
          "                    last exec (or its creation) and ends when it\n"
          "                    does. Without -p or --goto: the first\n"
          "                    process, or the one a failure came from\n"
          "  --tree            every recorded process is one of gdb's\n"
          "                    inferiors, each with its threads, program,\n"
          "                    breakpoints and watchpoints (not with -p);\n"
          "                    in gdb first: set detach-on-fork off and\n"
          "                    set schedule-multiple on\n"
          "  --log             log every packet on stderr\n"
          "  -q, --quiet       no notes on stderr, and not the program's\n"
          "                    output (shown in gdb as the replay runs)\n"
          "  --no-jit          interpret every instruction: do not translate\n"
          "                    hot code to host code (slower; the same\n"
          "                    results, instruction for instruction)\n"
          "  -h, --help        show this help\n"
          "\n"
          "`rewind replay TRACE` starts gdb attached to the replay for you;\n"
          "`rewind gdbinit` prints the helper commands for a gdb you start.\n");
}

int cli_cmd_gdbinit(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("usage: rewind gdbinit\n"
           "\n"
           "Print the gdb commands that `rewind replay` gives gdb, for a gdb\n"
           "you start yourself:\n"
           "  rewind gdbinit > ~/.rewind.gdb\n"
           "  gdb -x ~/.rewind.gdb -ex 'target remote | rewind serve --stdio "
           "TRACE'\n"
           "They make gdb read registers and the shared-library list again\n"
           "after `monitor goto` moves the replay, and load the symbols of\n"
           "the syscall buffer's library once connected (with gdb's Python;\n"
           "`rewind-symbols` does it at once, or `add-symbol-file\n"
           "target:" GDB_SBLIB_PATH "` without Python).\n");
    return 0;
  }
  if (argc > 1) return cli_usage_error("gdbinit", "no arguments expected");
  fputs(cli_gdb_init, stdout);
  fputs(gdb_init_hand, stdout);
  return ferror(stdout) ? 1 : 0;
}

int cli_cmd_serve(int argc, char **argv) {
  static const struct option longopts[] = {
      {"stdio", no_argument, 0, 's'}, {"listen", required_argument, 0, 'l'},
      {"goto", required_argument, 0, 'g'},
      {"process", required_argument, 0, 'p'},
      {"allow-remote", no_argument, 0, 'R'},
      {"idle-timeout", required_argument, 0, 'I'},
      {"log", no_argument, 0, 'L'},   {"quiet", no_argument, 0, 'q'},
      {"tree", no_argument, 0, 'T'},
      {"no-jit", no_argument, 0, 'J'},
      {"help", no_argument, 0, 'h'},  {0, 0, 0, 0}};
  int stdio = 0, quiet = 0, log = 0, remote = 0, c;
  int idle = CLI_IDLE_DEFAULT;
  struct cli_start start = {~0ull, NULL, 0};
  const char *listen_addr = NULL;
  optind = 1;
  while ((c = cli_getopt("serve", argc, argv, "g:p:qh", longopts)) != -1) {
    switch (c) {
      case 's':
        stdio = 1;
        break;
      case 'l':
        listen_addr = optarg;
        break;
      case 'g': {
        char *end;
        start.icount = strtoull(optarg, &end, 0);
        if (!*optarg || *end || optarg[0] == '-' || start.icount == ~0ull)
          return cli_usage_error("serve", "--goto takes an instruction "
                                 "count, not '%s'", optarg);
        break;
      }
      case 'p':
        start.proc = optarg;
        break;
      case 'L':
        log = 1;
        break;
      case 'J':
        cpu_set_jit(0);
        break;
      case 'T':
        start.tree = 1;
        break;
      case 'R':
        remote = 1;
        break;
      case 'I':
        idle = cli_idle_arg("serve", optarg);
        if (idle < 0) return 2;
        break;
      case 'q':
        quiet = 1;
        break;
      case 'h':
        usage(stdout);
        return 0;
      default:
        return 2;
    }
  }
  if (optind + 1 < argc)
    return cli_usage_error("serve", "more than one trace given");
  if (stdio == !!listen_addr)
    return cli_usage_error("serve", "give one of --stdio and --listen");
  if (start.tree && start.proc)
    return cli_usage_error("serve", "--tree shows every process; -p "
                           "debugs one: give only one of them");
  char path[4096];
  if (cli_trace_path(optind < argc ? argv[optind] : NULL, path, sizeof path))
    return 1;
  char picked[16];
  /* rewind replay, which starts gdb with serve --stdio, said it. */
  cli_start_default(path, &start, picked, sizeof picked, quiet,
                    !stdio || !getenv("REWIND_REPLAY_GDB"));
  if (stdio) return cli_serve_stdio(path, quiet, log, &start);
  return cli_serve_listen(path, listen_addr, quiet, log, &start, remote,
                          idle);
}

int cli_idle_arg(const char *cmd, const char *arg) {
  char *end;
  long v = strtol(arg, &end, 10);
  if (!*arg || *end || v < 0 || v > 86400 * 365) {
    cli_usage_error(cmd, "--idle-timeout takes seconds (0: never), not "
                    "'%s'", arg);
    return -1;
  }
  return (int)v;
}
