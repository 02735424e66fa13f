#!/bin/bash
# SPDX-License-Identifier: MIT
# The cost of a preemption point (bench/RESULTS.md, "Threads"): two rewind
# builds side by side, alternating, recording bench/threads/compute (two
# threads, no syscalls) with a heap of 1 and 64 MB at --timeslice 1 and
# 10000; the cost of one point is the difference of the two over the
# number of PREEMPT records. OLD-REWIND "written-off" compares BUILDDIR's
# rewind with itself under REWIND_WRITTEN=off (every page read at each
# point, recorder/wp.c).
#   bench/threads/preempt.sh BUILDDIR OLD-REWIND [RUNS]
set -u
b=${1:?usage: preempt.sh BUILDDIR OLD-REWIND [RUNS]}
old=${2:?usage: preempt.sh BUILDDIR OLD-REWIND [RUNS]}
runs=${3:-3}
new=$b/cli/rewind
if [ "$old" = written-off ]; then
  oldcmd=(env REWIND_WRITTEN=off "$new")
else
  oldcmd=("$old")
fi
prog=$b/bench/threads/compute
work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-preempt.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"

echo "| heap | rewind | --timeslice 10000 | --timeslice 1 | PREEMPT | per point |"
echo "|---|---|---|---|---|---|"
for mb in 1 64; do
  for k in old new; do : >"$work/$k.long"; : >"$work/$k.short"; done
  for ((i = 0; i < runs; i++)); do
    for k in old new; do
      rw=("${oldcmd[@]}")
      [ "$k" = new ] && rw=("$new")
      secs "${rw[@]}" record -q -f --timeslice 10000 -o "$work/$k.rwd" -- \
        "$prog" 2 400 "$mb" >>"$work/$k.long"
      secs "${rw[@]}" record -q -f --timeslice 1 -o "$work/$k.rwd" -- \
        "$prog" 2 400 "$mb" >>"$work/$k.short"
    done
  done
  for k in old new; do
    l=$(median <"$work/$k.long")
    s=$(median <"$work/$k.short")
    n=$("$new" dump "$work/$k.rwd" 2>/dev/null | grep -c ' PREEMPT ')
    printf '| %d MB | %s | %.3f s | %.3f s | %d | %.2f ms |\n' "$mb" "$k" \
      "$l" "$s" "$n" "$(awk -v a="$l" -v b="$s" -v n="$n" \
                        'BEGIN {print n ? (b - a) / n * 1000 : 0}')"
  done
done
