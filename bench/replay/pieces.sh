#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind analyze edges and rep with -j 2 against one replay from the start
# (issue 20's "analyze -j"): each workload recorded with a keyframe every
# KF seconds (default 0.03), then the wall time of each analysis whole and
# with -j 2, medians of RUNS runs (default 3) taken alternately, and the
# speed-up. The results are checked equal (sorted JSON lines) once.
# Prints markdown for RESULTS.md.
#   bench/replay/pieces.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: pieces.sh BUILD_DIR}
R=$B/cli/rewind
RUNS=${RUNS:-3}
KF=${KF:-0.03}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../lib.sh"

machine
echo "command: bench/replay/pieces.sh $B (RUNS=$RUNS KF=$KF)"
echo
echo "| workload | instructions | pieces | analysis | whole (s) | -j 2 (s) |" \
  "speed-up |"
echo "|---|---|---|---|---|---|---|"
for w in compute libc; do
  case $w in
    compute) args=100000000 ;;
    libc) args= ;;
  esac
  # shellcheck disable=SC2086
  "$R" record -q -f -o "$T/$w.rwd" --keyframes "$KF" -- \
    "$B/bench/record/$w" $args >/dev/null 2>&1
  n=$("$R" info "$T/$w.rwd" | sed -n 's/^keyframes: *\([0-9]*\).*/\1/p')
  insns=$("$R" replay --verify --no-progress "$T/$w.rwd" 2>&1 |
    sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
  for a in edges rep; do
    "$R" analyze $a --json --top 0 --no-progress "$T/$w.rwd" 2>/dev/null |
      sort >"$T/whole"
    "$R" analyze $a -j 2 --json --top 0 --no-progress "$T/$w.rwd" \
      2>/dev/null | sort >"$T/j"
    cmp -s "$T/whole" "$T/j" || { echo "$w $a: -j 2 differs" >&2; exit 1; }
    : >"$T/t1" >"$T/t2"
    for _ in $(seq "$RUNS"); do
      secs "$R" analyze $a --no-progress "$T/$w.rwd" >>"$T/t1"
      secs "$R" analyze $a -j 2 --no-progress "$T/$w.rwd" >>"$T/t2"
    done
    t1=$(median <"$T/t1") t2=$(median <"$T/t2")
    echo "| $w | $insns | $((n + 1)) | $a | $t1 | $t2 |" \
      "$(awk -v a="$t1" -v b="$t2" 'BEGIN {printf "%.2fx", a / b}') |"
  done
done
