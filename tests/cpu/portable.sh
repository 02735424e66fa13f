#!/bin/bash
# SPDX-License-Identifier: MIT
# The emulator's host fast paths (replayer/cpu/host.c) and its portable
# routines give the same results: the differential harness runs the
# instructions that have a fast path both ways against this CPU.
D="${top_builddir:-.}/tests/cpu/diffcpu"
fail=0
# SELECTOR HOST-FEATURE: the diffcpu arguments choosing the instructions,
# and the /proc/cpuinfo flag without which they have no fast path.
for sel in "--only pshufb ssse3" "--only vpshufb ssse3" "--family fma fma"; do
  set -- $sel
  enc="$1 $2"
  for mode in "" --portable; do
    out=$("$D" "$1" "$2" --cases 20000 $mode 2>&1)
    want="host fast-path"
    grep -qw "$3" /proc/cpuinfo || want=portable
    [ -n "$mode" ] && want=portable
    if ! grep -q "[1-9][0-9]* cases in .*, 0 differences, [0-9]* native results that did not repeat ($want routines)" <<<"$out"; then
      echo "FAIL: $enc ${mode:-(default)}:"
      echo "$out" | tail -n 20
      fail=1
    else
      echo "ok: $enc ${mode:-(default)}: $(tail -n 1 <<<"$out")"
    fi
  done
done
exit $fail
