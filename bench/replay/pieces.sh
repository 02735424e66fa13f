#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind replay --verify, analyze edges, rep, counts, marks and profile
# with -j 2 against one replay from the start (issue 20's "-j"): each
# workload recorded with a keyframe every KF seconds (default 0.03), then
# the wall time of each whole and with -j 2, medians of RUNS runs
# (default 3) taken alternately, and the speed-up; pieces: how many -j 2
# ran (at most 4 per job, each one or more intervals between keyframes).
# The analyses are checked equal (sorted JSON lines) once. Workloads: bench/record's
# compute and libc, and xz -T2 compressing 3 MB (two threads, 200 MB of
# memory that keeps changing; skipped without xz). ANALYSES (default
# "verify edges rep counts"; marks, marksstacks (marks with call paths)
# and profile too) chooses among them.
# Prints markdown for RESULTS.md.
#   bench/replay/pieces.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: pieces.sh BUILD_DIR}
R=$B/cli/rewind
RUNS=${RUNS:-3}
KF=${KF:-0.03}
ANALYSES=${ANALYSES:-verify edges rep counts}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../lib.sh"

machine
echo "command: bench/replay/pieces.sh $B (RUNS=$RUNS KF=$KF" \
  "ANALYSES=\"$ANALYSES\")"
echo
echo "| workload | instructions | pieces | analysis | whole (s) | -j 2 (s) |" \
  "speed-up |"
echo "|---|---|---|---|---|---|---|"
# Words from a fixed seed: the same input every run.
awk 'BEGIN { srand(7); while (n < 3000000) { w = int(rand() * 1e6);
  n += length(w) + 1; printf "%d%s", w, (rand() < 0.1 ? "\n" : " ") } }' \
  >"$T/xz.in"
for w in compute libc xz; do
  case $w in
    compute) cmd=("$B/bench/record/compute" 100000000) ;;
    libc) cmd=("$B/bench/record/libc") ;;
    xz)
      command -v xz >/dev/null || continue
      cmd=(xz -T2 -c "$T/xz.in")
      ;;
  esac
  "$R" record -q -f -o "$T/$w.rwd" --keyframes "$KF" -- "${cmd[@]}" \
    >/dev/null 2>&1
  n=$("$R" info "$T/$w.rwd" | sed -n 's/^keyframes: *\([0-9]*\).*/\1/p')
  insns=$("$R" replay --verify --no-progress "$T/$w.rwd" 2>&1 |
    sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
  for a in $ANALYSES; do
    if [ $a = verify ]; then
      run=("$R" replay --verify)
      "${run[@]}" -j 2 --no-progress "$T/$w.rwd" >/dev/null 2>&1 ||
        { echo "$w: --verify -j 2 failed" >&2; exit 1; }
    else
      run=("$R" analyze "${a%stacks}")
      all=(--top 0)
      if [ $a = marks ]; then # windows from malloc to free, and counts
        run+=(--mark malloc:start --mark free:end --mark memcpy)
        all=()
      fi
      if [ $a = marksstacks ]; then # the same with call paths
        run+=(--mark malloc:start,stack --mark free:end --mark memcpy:stack)
        all=()
      fi
      "${run[@]}" --json "${all[@]}" --no-progress "$T/$w.rwd" \
        2>/dev/null | sort >"$T/whole"
      "${run[@]}" -j 2 --json "${all[@]}" --no-progress "$T/$w.rwd" \
        2>/dev/null | sort >"$T/j"
      cmp -s "$T/whole" "$T/j" ||
        { echo "$w $a: -j 2 differs" >&2; exit 1; }
    fi
    : >"$T/t1" >"$T/t2"
    for _ in $(seq "$RUNS"); do
      secs "${run[@]}" --no-progress "$T/$w.rwd" >>"$T/t1"
      secs "${run[@]}" -j 2 --no-progress "$T/$w.rwd" >>"$T/t2"
    done
    t1=$(median <"$T/t1") t2=$(median <"$T/t2")
    # -j 2 groups the intervals into at most 8 pieces
    np=$((n + 1))
    np=$((np < 8 ? np : 8))
    echo "| $w | $insns | $np | $a | $t1 | $t2 |" \
      "$(awk -v a="$t1" -v b="$t2" 'BEGIN {printf "%.2fx", a / b}') |"
  done
done
