#!/bin/bash
# SPDX-License-Identifier: MIT
# Large address spaces (bench/RESULTS.md, "Large address spaces"): each
# mode of tests/programs/bigmaps natively, recorded, and the recording
# replayed with --verify, in the same session; a Markdown table of medians
# and ratios to native. With OLD (the rewind binary of an earlier commit)
# the same modes are also recorded with it, once each, under TIMEOUT
# seconds (a recorder that reads a sparse terabyte through its mapping can
# exhaust the machine's memory: hugefile is left out for OLD unless
# OLD_HUGEFILE=1).
# Usage: bench/record/bigmaps.sh BUILDDIR [RUNS [OLD [TIMEOUT]]]
set -u
B=${1:-.}
RUNS=${2:-3}
OLD=${3:-}
TIMEOUT=${4:-900}
R="$B/cli/rewind"
P="$B/tests/programs/bigmaps"
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# median_of CMD...: median wall time in seconds of RUNS runs.
median_of() {
  local t=() s e
  for _ in $(seq "$RUNS"); do
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    t+=("$(echo "$e - $s" | bc)")
  done
  printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

# once CMD...: wall time of one run under TIMEOUT, or "> TIMEOUT s".
once() {
  local s e
  s=$(date +%s.%N)
  timeout "$TIMEOUT" "$@" >/dev/null 2>&1
  local rc=$?
  e=$(date +%s.%N)
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "killed ($rc)"
  else
    printf '%.3f s' "$(echo "$e - $s" | bc)"
  fi
}

row() { # name, bigmaps arguments...
  local name=$1 n r p old=""
  shift
  n=$(median_of "$P" "$@")
  r=$(median_of "$R" record -q -f -o "$W/$name.rwd" -- "$P" "$@")
  p=$(median_of "$R" replay --verify --no-progress "$W/$name.rwd")
  if [ -n "$OLD" ]; then
    if [ "$name" = hugefile ] && [ "${OLD_HUGEFILE:-0}" != 1 ]; then
      old="| not run "
    else
      old="| $(once "$OLD" record -q -f -o "$W/old.rwd" -- "$P" "$@") "
    fi
  fi
  printf '| %s | %.3f s %s| %.3f s | %.1fx | %.3f s | %.1f MB |\n' "$name" \
    "$n" "$old" "$r" "$(echo "$r / $n" | bc -l)" "$p" \
    "$(echo "$(stat -c %s "$W/$name.rwd") / 1000000" | bc -l)"
}

if [ -n "$OLD" ]; then
  echo "| mode | native | old record | record | ratio | replay --verify | trace |"
  echo "|---|---|---|---|---|---|---|"
else
  echo "| mode | native | record | ratio | replay --verify | trace |"
  echo "|---|---|---|---|---|---|"
fi
row "fracture 20000 asc" fracture 20000 asc
row "fracture 20000 desc" fracture 20000 desc
row "fracture 60000 rand" fracture 60000 rand
row hugefile hugefile
row hole hole
row memfd2g memfd2g
