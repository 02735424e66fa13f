#!/bin/bash
# SPDX-License-Identifier: MIT
# The cost of rewind analyze profile, edges, rep and counts: for each
# workload, the time of the program run natively, of `rewind replay
# --verify` (the plain replay), of `rewind analyze profile`, `rewind
# analyze edges`, `rewind analyze rep` and `rewind analyze counts` on the
# same trace, medians of RUNS runs (default 3), taken alternately, and the
# analyses' ratios to the plain replay. fib is call-heavy (a call every few
# instructions); compute and libc have few calls. Prints markdown for
# RESULTS.md.
#   bench/replay/profile.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: profile.sh BUILD_DIR}
R=$B/cli/rewind
RUNS=${RUNS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../lib.sh"

machine
echo
echo "| workload | instructions | calls | native (s) | replay (s) | profile (s) | profile / replay | edges (s) | edges / replay | sampled edges (s) | sampled / replay | rep (s) | rep / replay | counts (s) | counts / replay |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for w in fib compute libc; do
  case $w in
    fib) prog=$B/bench/replay/fib ;;
    *) prog=$B/bench/record/$w ;;
  esac
  "$R" record -q -f -o "$T/$w.rwd" -- "$prog" >/dev/null 2>&1 || true
  : >"$T/nat" >"$T/rep" >"$T/prof" >"$T/edges" >"$T/samp" >"$T/reps" \
    >"$T/cnt"
  for i in $(seq "$RUNS"); do
    secs "$prog" >>"$T/nat"
    secs "$R" replay --verify --no-progress -q "$T/$w.rwd" >>"$T/rep"
    secs "$R" analyze profile --no-progress -q "$T/$w.rwd" >>"$T/prof"
    secs "$R" analyze edges --no-progress --top 1 "$T/$w.rwd" >>"$T/edges"
    secs "$R" analyze edges --no-progress --top 1 --sample 10007 \
      --random-delta 1000 "$T/$w.rwd" >>"$T/samp"
    secs "$R" analyze rep --no-progress --top 1 "$T/$w.rwd" >>"$T/reps"
    secs "$R" analyze counts --no-progress --top 1 "$T/$w.rwd" >>"$T/cnt"
  done
  nat=$(median <"$T/nat")
  rep=$(median <"$T/rep")
  prof=$(median <"$T/prof")
  edges=$(median <"$T/edges")
  samp=$(median <"$T/samp")
  reps=$(median <"$T/reps")
  cnt=$(median <"$T/cnt")
  head=$("$R" analyze profile --no-progress --top 1 "$T/$w.rwd" | head -n 1)
  n=$(echo "$head" | sed -n 's/.*: \([0-9]*\) instructions.*/\1/p')
  c=$(echo "$head" | sed -n 's/.*, \([0-9]*\) calls$/\1/p')
  awk -v w="$w" -v n="$n" -v c="$c" -v nat="$nat" -v rep="$rep" \
      -v prof="$prof" -v edges="$edges" -v samp="$samp" -v reps="$reps" \
      -v cnt="$cnt" 'BEGIN {
    printf "| %s | %s | %s | %.3f | %.2f | %.2f | %.2fx | %.2f | %.2fx | %.2f | %.2fx | %.2f | %.2fx | %.2f | %.2fx |\n",
      w, n, c, nat, rep, prof, prof / rep, edges, edges / rep, samp,
      samp / rep, reps, reps / rep, cnt, cnt / rep }'
done
