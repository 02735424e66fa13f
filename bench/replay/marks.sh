#!/bin/bash
# SPDX-License-Identifier: MIT
# The cost of rewind analyze marks and analyze accesses on the 1e9-
# instruction workloads (issue 16's cost line: each analysis within 3x of
# the plain replay): user time of `rewind replay --verify` and of each
# analysis on the same trace, medians of RUNS runs (default 3) taken
# alternately, and the ratios. The marks are on the hottest instruction
# (compute's loop head, run 4e8 times) and on a function called 1.8e7
# times (libc's qsort comparison); the ranges are what those programs
# work on (compute's 1 KiB table, 8e8 accesses; libc's 3.2 MB string
# pool); fib's 4 KiB of stack, where 40% of the instructions access it,
# is the worst case. The addresses come from gdb, at a breakpoint in the
# replay. Prints markdown for RESULTS.md.
#   bench/replay/marks.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: marks.sh BUILD_DIR}
R=$B/cli/rewind
RUNS=${RUNS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../lib.sh"

# user TIME of a command, in seconds
user() { /usr/bin/time -f %U "$@" 2>&1 >/dev/null | tail -n 1; }
# gdb EXPR at BREAK in the replay of TRACE: its value
at() {
  timeout 300 "$R" replay "$1" -- -batch -nx -ex "break $2" -ex continue \
    -ex "p/x $3" 2>/dev/null | sed -n 's/^\$1 = //p'
}

machine
echo
echo "| workload | analysis | replay (s) | analysis (s) | analysis / replay |"
echo "|---|---|---|---|---|"
for w in compute libc fib; do
  case $w in
    fib) prog=$B/bench/replay/fib ;;
    *) prog=$B/bench/record/$w ;;
  esac
  "$R" record -q -f -o "$T/$w.rwd" -- "$prog" >/dev/null 2>&1 || true
  case $w in
    compute)
      mark='main+0x40'
      range="$(at "$T/$w.rwd" '*main+0x40' '$rsp') 1024" ;;
    libc)
      mark=cmp
      range="$(at "$T/$w.rwd" cmp '&main::pool') 3200000" ;;
    fib)
      mark=fib
      sp=$(at "$T/$w.rwd" fib '$rsp')
      range="$(printf '%#x' $((sp + 8 - 4096))) 4096" ;;
  esac
  for a in "marks:$mark" "marks:$mark:stack" "accesses:$range" \
    "accesses --stacks:$range"; do
    kind=${a%%:*} arg=${a#*:}
    : >"$T/rep" >"$T/an"
    for i in $(seq "$RUNS"); do
      user "$R" replay --verify --no-progress -q "$T/$w.rwd" >>"$T/rep"
      if [ "$kind" = marks ]; then
        user "$R" analyze marks --no-progress --mark "$arg" "$T/$w.rwd" >>"$T/an"
      else
        # shellcheck disable=SC2086 # the options and the range are words
        user "$R" analyze $kind --no-progress "$T/$w.rwd" $arg >>"$T/an"
      fi
    done
    rep=$(median <"$T/rep")
    an=$(median <"$T/an")
    awk -v w="$w" -v k="$kind $arg" -v rep="$rep" -v an="$an" 'BEGIN {
      printf "| %s | `%s` | %.2f | %.2f | %.2fx |\n", w, k, rep, an, an / rep }'
  done
done
