#!/bin/bash
# SPDX-License-Identifier: MIT
# GFNI in a recording (tests/programs/gfni, built with -mgfni -mavx2):
# gf2p8mulb and both affine maps, in their VEX forms through intrinsics
# and their legacy forms through inline assembly, replay to the same
# output and verify, and the program's own scalar checks pass.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

A="$P/gfni"
if ! grep -qw gfni /proc/cpuinfo || ! grep -qw avx2 /proc/cpuinfo; then
  echo "SKIP: this CPU has no GFNI or no AVX2"
  exit 77
fi
native=$("$A"; echo "status $?")
rec gfni "$A"
check_eq "same output as natively" "$native" \
  "$(cat "$T/gfni.out"; echo "status $status")"
check "the S-box from gf2p8affineinvqb" grep -q '^sbox ok 63 7c ed$' \
  "$T/gfni.out"
check "every scalar check passed" sh -c \
  "[ \$(grep -c ' ok' '$T/gfni.out') -eq 4 ] && ! grep -q wrong '$T/gfni.out'"
check "a checksum" grep -q '^gfni checksum [0-9a-f]\{16\}$' "$T/gfni.out"
"$REWIND" replay --verify --no-progress "$T/gfni.rwd" >"$T/gfni.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
check "replay verified" grep -q '^replay verified: ' "$T/gfni.replay"
grep -q '^replay verified: ' "$T/gfni.replay" || head -n 30 "$T/gfni.replay"
finish
