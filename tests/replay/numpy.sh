#!/bin/bash
# SPDX-License-Identifier: MIT
# numpy as a new user would record it: python3 imports numpy, which picks
# its SIMD code by CPUID itself (AVX-512 where the CPU has it, since the
# recorder masks nothing) and OpenBLAS, which does the same. The recording
# gives the native output, numpy reports the same dispatch as natively,
# and the replay verifies (every register at each of its checks, the
# output, and the memory at the end).
. "${top_srcdir:-.}/tests/recorder/lib.sh"

PY=/usr/bin/python3
W="$top_srcdir/tests/programs/numpy_work.py"
if ! "$PY" -c 'import numpy' 2>/dev/null; then
  echo "SKIP: $PY has no numpy (apt-get install python3-numpy)"
  exit 77
fi
native=$("$PY" "$W"; echo "status $?")
rec numpy "$PY" "$W"
check_eq "same output as natively" "$native" \
  "$(cat "$T/numpy.out"; echo "status $status")"
if grep -qw avx512f /proc/cpuinfo; then
  check "numpy took its AVX-512 code" grep -q '^dispatch .*AVX512_SKX' \
    "$T/numpy.out"
fi
"$REWIND" replay --verify --no-progress "$T/numpy.rwd" >"$T/numpy.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
check "replay verified" grep -q '^replay verified: ' "$T/numpy.replay"
grep -q '^replay verified: ' "$T/numpy.replay" || head -n 30 "$T/numpy.replay"
finish
