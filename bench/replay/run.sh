#!/bin/bash
# SPDX-License-Identifier: MIT
# Replayer benchmarks: for each workload, the native run time, the replay
# time of `rewind replay --verify` and the replay speed in MIPS (median of
# RUNS runs, default 3); then seeking in a trace of more than 1e9
# instructions (bench/replay/seekbench). Prints markdown for RESULTS.md.
#   bench/replay/run.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: run.sh BUILD_DIR}
R=$B/cli/rewind
RUNS=${RUNS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../lib.sh"

machine
echo
echo "| workload | native (s) | replay (s) | instructions | replay MIPS | replay / native |"
echo "|---|---|---|---|---|---|"
for w in compute libc syscalls; do
  prog=$B/bench/record/$w
  nat=$(for i in $(seq "$RUNS"); do secs "$prog"; done | median)
  "$R" record -q -f -o "$T/$w.rwd" -- "$prog" >/dev/null 2>&1 || true
  rep=$(for i in $(seq "$RUNS"); do secs "$R" replay --verify --no-progress "$T/$w.rwd"; done | median)
  n=$("$R" replay --verify --no-progress "$T/$w.rwd" | sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
  awk -v w="$w" -v nat="$nat" -v rep="$rep" -v n="$n" 'BEGIN {
    printf "| %s | %.3f | %.3f | %s | %.1f | %.0fx |\n", w, nat, rep, n,
      n / rep / 1e6, rep / nat }' 
done
echo
"$R" record -q -f -o "$T/long.rwd" -- "$B/bench/replay/longloop" 200000000 >/dev/null 2>&1 || true
"$B/bench/replay/seekbench" "$T/long.rwd" "${SEEKS:-100}"
