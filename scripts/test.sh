#!/bin/bash
# SPDX-License-Identifier: MIT
# Sets everything up and runs the whole test suite twice: a normal build with
# -Werror, replaying with hot code translated (the default), and a build with
# AddressSanitizer and UndefinedBehaviorSanitizer, replaying interpreted
# (REWIND_JIT=0; the translator's own tests turn it on there too), so that
# every test passes both ways. The libFuzzer targets run for
# RW_FUZZ_SECONDS (default 10 here) in the sanitizer build, where the
# longest end-to-end tests record shorter workloads (RW_TEST_SANITIZED).
# Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
jobs=$(nproc)
status=0
total_pass=0
total_fail=0
skipped=()

run_build() { # dir fuzz_seconds REWIND_JIT configure-args...
  local dir=$1 fuzz=$2 jit=$3
  shift 3
  echo "=== $dir: configure $*"
  local t0=$SECONDS
  if ! scripts/setup.sh "$dir" "$@"; then
    echo "=== $dir: build FAILED"
    total_fail=$((total_fail + 1))
    status=1
    return
  fi
  # Under the sanitizers (interpreted, several times slower) the longest
  # end-to-end tests record shorter workloads (san_or in
  # tests/recorder/lib.sh): the same checks, with less to replay.
  local san=
  case " $* " in *" --enable-sanitizers="*) san=1 ;; esac
  echo "=== $dir: built in $((SECONDS - t0)) s; make check" \
       "(REWIND_JIT=$jit${san:+, RW_TEST_SANITIZED=1})"
  t0=$SECONDS
  if ! (cd "$dir" && REWIND_JIT=$jit RW_FUZZ_SECONDS=$fuzz \
          RW_TEST_SANITIZED=$san make -s -j"$jobs" check >check.out 2>&1); then
    status=1
  fi
  echo "=== $dir: make check took $((SECONDS - t0)) s"
  grep -E '^(PASS|FAIL|ERROR|XFAIL|XPASS|SKIP):' "$dir/check.out" || tail -n 40 "$dir/check.out"
  # Every test log ends with "N passed, N failed"; print failures in full.
  local log p f
  while read -r log; do
    read -r p f < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 |
                    sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/')
    if [ -z "${p:-}" ] &&
       grep -q '^:test-result: SKIP' "${log%.log}.trs" 2>/dev/null; then
      # Skipped (exit 77): the machine lacks what it tests (AVX-512, GFNI).
      skipped+=("$log")
      continue
    fi
    if [ -z "${p:-}" ]; then
      # A test that died before its summary counts as one failure.
      p=0
      grep -q '^:test-result: PASS' "${log%.log}.trs" 2>/dev/null && p=1
      f=$((1 - p))
    fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    if [ "$f" -gt 0 ]; then
      echo "--- $log"
      tail -n 60 "$log"
      status=1
    fi
  done < <(find "$dir" -name '*.log' ! -name config.log ! -name test-suite.log | sort)
}

# The README's main command, three times in a row as a new user runs it:
# it must work every time and find the corrupting line.
run_demo() {
  local i t0=$SECONDS
  for i in 1 2 3; do
    echo "=== demo: run $i of 3 (bash scripts/demo.sh)"
    if bash scripts/demo.sh >demo.out 2>&1 &&
       grep -q 'Old value = ' demo.out &&
       grep -q 'relabel (i=1, label=.*inventory.c:30' demo.out &&
       grep -q 'strcpy(shelf\[i\].label, label);' demo.out; then
      total_pass=$((total_pass + 1))
      echo "ok: demo run $i found the corrupting strcpy at inventory.c:30"
    else
      total_fail=$((total_fail + 1))
      status=1
      echo "FAIL: demo run $i"
      tail -n 40 demo.out
    fi
  done
  rm -f demo.out
  echo "=== demo: three runs in $((SECONDS - t0)) s"
}

run_demo
run_build build-werror 0 1 --enable-werror --disable-libfuzzer
run_build build-asan "${RW_FUZZ_SECONDS:-10}" 0 --enable-werror --enable-sanitizers=address,undefined

for log in "${skipped[@]}"; do
  echo "skipped: $log: $(grep -m1 '^SKIP:' "$log" | sed 's/^SKIP: //')"
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] || status=1
exit $status
