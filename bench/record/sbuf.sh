#!/bin/bash
# SPDX-License-Identifier: MIT
# The syscall buffer (bench/RESULTS.md, "Syscall buffering"): each workload
# natively, under `strace -f` pinned to one CPU, recorded with
# --no-syscall-buffer and recorded as by default, in turn, RUNS rounds;
# medians of wall time and the ratios against native.
#   bench/record/sbuf.sh BUILDDIR [RUNS]
set -u
b=${1:?usage: sbuf.sh BUILDDIR [RUNS]}
runs=${2:-5}
rw=$b/cli/rewind
work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-sbuf.XXXXXX")
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/../lib.sh"

run() { # name, command...
  local name=$1 k
  shift
  for k in native strace off on; do : >"$work/$k"; done
  for ((i = 0; i < runs; i++)); do
    secs "$@" >>"$work/native"
    if command -v strace >/dev/null; then
      secs taskset -c 0 strace -f -o /dev/null "$@" >>"$work/strace"
    fi
    secs "$rw" record -q -f --no-syscall-buffer -o "$work/off.rwd" -- "$@" \
      >>"$work/off"
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
run "clock_gettime x 200,000" "$b/bench/record/clock" 200000
run "getppid, fstat, stat x 50,000" "$b/bench/record/libcalls" 50000
run "syscalls (110,000, through syscall())" "$b/bench/record/syscalls"
run "mutex, 4 threads (bench/threads/mutex)" "$b/bench/threads/mutex"
run "compute" "$b/bench/record/compute"
run "python3 -c pass" python3 -c pass
