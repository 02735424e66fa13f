#!/bin/bash
# SPDX-License-Identifier: MIT
# The syscall buffer (bench/RESULTS.md, "Syscall buffering"): each workload
# natively, under `strace -f` pinned to one CPU, recorded with
# --no-syscall-buffer and recorded as by default, in turn, RUNS rounds;
# medians of wall time and the ratios against native.
#   bench/record/sbuf.sh BUILDDIR [RUNS]
# ONLY=PATTERN (a shell pattern) runs the rows whose name matches it.
set -u
b=${1:?usage: sbuf.sh BUILDDIR [RUNS]}
runs=${2:-5}
rw=$b/cli/rewind
work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-sbuf.XXXXXX")
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/../lib.sh"

# run NAME COMMAND...: one row, when NAME matches the pattern $ONLY (all
# rows by default). $PRE, when set, is run (untimed) before each timed
# run: it puts back what the command changes (a copy to make again, a
# database to fill again).
run() {
  local name=$1 k
  shift
  case "$name" in ${ONLY:-*}) ;; *) return 0 ;; esac
  for k in native strace off on; do : >"$work/$k"; done
  for ((i = 0; i < runs; i++)); do
    eval "${PRE:-:}"
    secs "$@" >>"$work/native"
    if command -v strace >/dev/null; then
      eval "${PRE:-:}"
      secs taskset -c 0 strace -f -o /dev/null "$@" >>"$work/strace"
    fi
    eval "${PRE:-:}"
    secs "$rw" record -q -f --no-syscall-buffer -o "$work/off.rwd" -- "$@" \
      >>"$work/off"
    eval "${PRE:-:}"
    secs "$rw" record -q -f -o "$work/on.rwd" -- "$@" >>"$work/on"
  done
  local n s f o
  n=$(median <"$work/native")
  s=$(median <"$work/strace")
  f=$(median <"$work/off")
  o=$(median <"$work/on")
  printf '| %s | %.3f s | %s | %.3f s (%.1fx) | %.3f s (%.1fx) | %.2f |\n' \
    "$name" "$n" \
    "$([ -n "$s" ] && printf '%.3f s (%.1fx)' "$s" "$(echo "$s / $n" | bc -l)")" \
    "$f" "$(echo "$f / $n" | bc -l)" "$o" "$(echo "$o / $n" | bc -l)" \
    "$(echo "$o / $f" | bc -l)"
}

echo "| workload | native | strace -f, pinned | rewind --no-syscall-buffer | rewind | rewind / --no-syscall-buffer |"
echo "|---|---|---|---|---|---|"
# Enough calls that each row measures the calls, not the start of a
# recording (about 20 ms); syscall_heavy is the issue's 1e6 syscalls.
run "clock_gettime x 2,000,000" "$b/bench/record/clock" 2000000
run "getppid, fstat, stat x 500,000" "$b/bench/record/libcalls" 500000
run "syscall_heavy (1,100,000, through syscall())" \
  "$b/bench/record/syscalls" 1000000
run "mutex, 4 threads (bench/threads/mutex)" "$b/bench/threads/mutex"
run "compute" "$b/bench/record/compute"
# The interpreter itself, not a wrapper script in PATH (pyenv's shims run
# bash and a few programs first).
py=$(python3 -c 'import sys; print(sys.executable)')
run "python3 -c pass" "$py" -c pass
# The issue's file and process workloads (issue 18).
src=$(cd "$(dirname "$0")" && pwd)
PRE="rm -rf '$work/doc'; sync" run "cp -a /usr/share/doc" \
  cp -a /usr/share/doc "$work/doc"
PRE="rm -f '$work/inc.tar'; sync" run "tar cf of /usr/include" \
  tar cf "$work/inc.tar" /usr/include
"$py" "$src/imports.py" >/dev/null 2>&1 &&
  run "python3, 200 imports" "$py" "$src/imports.py"
run "python3 TCP echo, 2,000 messages (bench/record/sockets.py)" \
  "$py" "$src/sockets.py"
bash "$src/makeproj.sh" "$work/proj"
PRE="make -s -C '$work/proj' clean" run "make -j2, 25 C files" \
  make -s -j2 -C "$work/proj"
run "threads, 1 GB heap (bench/threads/compute 2 400 1024)" \
  "$b/bench/threads/compute" 2 400 1024
if command -v sqlite3 >/dev/null; then
  { echo "PRAGMA synchronous=OFF;"
    echo "CREATE TABLE t(a INTEGER, b TEXT);"
    for ((k = 0; k < 100000; k++)); do echo "INSERT INTO t VALUES($k, 'row $k');"; done
  } >"$work/ins.sql"
  PRE="rm -f '$work/db'" run "sqlite3, 100k inserts, one transaction each" \
    sh -c "exec sqlite3 '$work/db' <'$work/ins.sql'"
fi
