#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs one fuzz target: TARGET's plain driver over its seed corpus
# tests/fuzz/corpus/TARGET/, then, when the libFuzzer build exists, a timed
# run of $RW_FUZZ_SECONDS seconds (default 60; 0 skips it) on a copy of the
# corpus, so the seeds in the source tree are never modified. Ends with
# "N passed, N failed". Each target's run_TARGET.sh calls this.
#   run_target.sh TARGET MAX_LEN [TIMEOUT]
# TIMEOUT is the seconds one input may take (default 10).
target=${1:?usage: run_target.sh TARGET MAX_LEN [TIMEOUT]}
max_len=${2:?usage: run_target.sh TARGET MAX_LEN [TIMEOUT]}
unit_timeout=${3:-10}
set -u
src=$(cd "${top_srcdir:-.}" && pwd)
build=$(cd "${top_builddir:-.}" && pwd)
secs=${RW_FUZZ_SECONDS:-60}
corpus=$src/tests/fuzz/corpus/$target
pass=0
fail=0
result() { # name, status
  if [ "$2" -eq 0 ]; then pass=$((pass + 1)); echo "ok: $1"
  else fail=$((fail + 1)); echo "FAIL: $1"; fi
}

n=$(find "$corpus" -type f | wc -l)
"$build/tests/fuzz/$target" "$corpus"
result "$target: plain driver over $n seed inputs" $?

fuzzer=$build/tests/fuzz/${target}_fuzzer
if [ "$secs" = 0 ]; then
  echo "skip: libFuzzer run (RW_FUZZ_SECONDS=0)"
elif [ ! -x "$fuzzer" ]; then
  echo "skip: libFuzzer run (no clang with -fsanitize=fuzzer at configure)"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/rw-fuzz-$target.XXXXXX")
  cp -r "$corpus" "$work/corpus"
  (cd "$work" && "$fuzzer" -max_total_time="$secs" -timeout="$unit_timeout" \
      -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
      "$work/corpus" >"$work/fuzz.log" 2>&1)
  st=$?
  grep -E '^stat::(number_of_executed_units|new_units_added)' "$work/fuzz.log"
  if [ $st -ne 0 ]; then
    tail -n 60 "$work/fuzz.log"
    ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null
  fi
  result "$target: libFuzzer for ${secs}s" $st
  [ $st -eq 0 ] && rm -rf "$work"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
