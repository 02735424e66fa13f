#!/bin/bash
# SPDX-License-Identifier: MIT
# Recording time of programs that map large files, where hashing the blobs
# (SHA-256 of every file mapped) is a visible part: two rewind binaries
# side by side, alternating, with the program run natively in the same
# loop as the baseline (bench/RESULTS.md, "Blob hashing").
#   bench/record/blobs.sh OLD-REWIND NEW-REWIND [RUNS]
# Prints, per program, the median wall time of native, OLD and NEW and the
# ratios NEW/OLD and each against native.
set -u
old=${1:?usage: blobs.sh OLD-REWIND NEW-REWIND [RUNS]}
new=${2:?usage: blobs.sh OLD-REWIND NEW-REWIND [RUNS]}
runs=${3:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-blobs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# secs CMD...: wall time of CMD in seconds, its output dropped.
secs() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

run() { # name, command...
  local name=$1
  shift
  : >"$work/native" ; : >"$work/old" ; : >"$work/new"
  for ((i = 0; i < runs; i++)); do
    secs "$@" >>"$work/native"
    secs "$old" record -f -o "$work/t.rwd" -- "$@" >>"$work/old"
    secs "$new" record -f -o "$work/t.rwd" -- "$@" >>"$work/new"
  done
  local n o w
  n=$(median <"$work/native")
  o=$(median <"$work/old")
  w=$(median <"$work/new")
  local blobs
  blobs=$("$new" info "$work/t.rwd" 2>/dev/null | sed -n 's/^blobs: *//p')
  printf '| %s | %s | %.2f s | %.2f s (%.1fx) | %.2f s (%.1fx) | %.2f |\n' \
    "$name" "$blobs" "$n" "$o" "$(echo "$o / $n" | bc -l)" "$w" \
    "$(echo "$w / $n" | bc -l)" "$(echo "$w / $o" | bc -l)"
}

echo "| program | blobs | native | old rewind | new rewind | new / old |"
echo "|---|---|---|---|---|---|"
command -v node >/dev/null && run "node -e 0" node -e 0
run "python3 -c pass" python3 -c pass
run "gcc -c (cc1, as)" cc -O2 -c -o "$work/x.o" -x c - </dev/null
