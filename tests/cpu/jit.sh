#!/bin/bash
# SPDX-License-Identifier: MIT
# The translator (replayer/cpu/jit.c) with every block translated the
# first time it runs: the differential harness against this CPU, and the
# emulator's unit tests, all as translated code (plus handler calls).
B="${top_builddir:-.}/tests/cpu"
fail=0
out=$(REWIND_JIT=always "$B/diffcpu" --seed 5 --cases 100000 2>&1)
if grep -q " cases in .*, 0 differences" <<<"$out" &&
   grep -q "translator: [1-9][0-9]* blocks, [1-9][0-9]* instructions" <<<"$out"; then
  echo "ok: diffcpu translated: $(grep translator <<<"$out")"
else
  echo "FAIL: diffcpu with REWIND_JIT=always:"
  echo "$out" | tail -n 20
  fail=1
fi
out=$(REWIND_JIT=always "$B/test_cpu" 2>&1)
if grep -q "^[0-9]* passed, 0 failed" <<<"$out"; then
  echo "ok: unit tests translated: $(grep "passed, 0 failed" <<<"$out" | tail -n 1)"
else
  echo "FAIL: unit tests with REWIND_JIT=always:"
  echo "$out" | grep -v "^ *$" | tail -n 30
  fail=1
fi
exit $fail
