#!/bin/bash
# SPDX-License-Identifier: MIT
# Replay speed of two builds of rewind on the same traces, in one run: each
# workload is recorded once (with NEW), then `rewind replay --verify` of
# OLD and of NEW run alternately, RUNS times each (default 3); prints the
# medians, the instruction count, NEW's MIPS and OLD / NEW (above 1: NEW
# is faster). For changes to the emulator; the workloads are the vector
# ones (vecmath for x86-64-v2, v3 and v4: SSE, AVX2+FMA, AVX-512
# floating point), fib (calls) and compute (integer).
#   bench/replay/ab.sh OLD_BUILD NEW_BUILD [WORKLOAD...]
# Both build directories need `make` (NEW's bench programs are used).
set -euo pipefail
OLD=${1:?usage: ab.sh OLD_BUILD NEW_BUILD [WORKLOAD...]}
NEW=${2:?usage: ab.sh OLD_BUILD NEW_BUILD [WORKLOAD...]}
shift 2
RUNS=${RUNS:-3}
ROUNDS=${ROUNDS:-40}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || set -- v2 v3 v4 fib compute
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "old: $OLD ($(git -C "$OLD" rev-parse --short HEAD 2>/dev/null || echo ?))"
echo "new: $NEW ($(git -C "$NEW" rev-parse --short HEAD 2>/dev/null || echo ?))"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| workload | instructions | old (s) | new (s) | new MIPS | old / new |"
echo "|---|---|---|---|---|---|"
for w in "$@"; do
  case $w in
    v2 | v3 | v4) cmd=("$NEW/bench/replay/vecmath_$w" "$ROUNDS") ;;
    fib) cmd=("$NEW/bench/replay/fib") ;;
    *) cmd=("$NEW/bench/record/$w") ;;
  esac
  if [ "$w" = v4 ] && ! grep -qw avx512f /proc/cpuinfo; then
    echo "| $w | (no AVX-512 here) | | | | |"
    continue
  fi
  "$NEW/cli/rewind" record -q -f -o "$T/$w.rwd" -- "${cmd[@]}" >/dev/null
  : >"$T/old" >"$T/new"
  for i in $(seq "$RUNS"); do
    secs "$OLD/cli/rewind" replay --verify --no-progress -q "$T/$w.rwd" \
      >>"$T/old"
    secs "$NEW/cli/rewind" replay --verify --no-progress -q "$T/$w.rwd" \
      >>"$T/new"
  done
  n=$("$NEW/cli/rewind" replay --verify --no-progress "$T/$w.rwd" 2>&1 |
    sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
  awk -v w="$w" -v n="$n" -v o="$(median <"$T/old")" \
      -v c="$(median <"$T/new")" 'BEGIN {
    printf "| %s | %s | %.2f | %.2f | %.1f | %.2fx |\n", w, n, o, c,
      n / c / 1e6, o / c }'
done
