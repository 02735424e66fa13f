#!/bin/bash
# SPDX-License-Identifier: MIT
# FMA and F16C in a recording (tests/programs/fma, built with -mfma
# -mf16c): fused multiply-adds under every rounding mode, FTZ and DAZ,
# half-precision conversions, and glibc's libm
# functions in their FMA forms replay to the same output and verify, and
# gdb reads the fused residue from xmm0 at a point of the replay, and the
# value before the instruction that made it.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

A="$P/fma"
if ! grep -qw fma /proc/cpuinfo || ! grep -qw f16c /proc/cpuinfo; then
  echo "SKIP: this CPU has no FMA or no F16C"
  exit 77
fi
native=$("$A"; echo "status $?")
rec fma "$A"
check_eq "same output as natively" "$native" \
  "$(cat "$T/fma.out"; echo "status $status")"
check "the fused residue survives" grep -q '^residue 0x1p-60$' "$T/fma.out"
check "FTZ and DAZ flush" grep -q '^ftzdaz 0x0p+0 0x0p+0 0x0p+0 0x0p+0$' \
  "$T/fma.out"
"$REWIND" replay --verify --no-progress "$T/fma.rwd" >"$T/fma.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
check "replay verified" grep -q '^replay verified: ' "$T/fma.replay"
grep -q '^replay verified: ' "$T/fma.replay" || head -n 30 "$T/fma.replay"

cat >"$T/fma.gdb" <<'G'
break fma_checkpoint
continue
print $xmm0.v2_double[0]
reverse-finish
print $xmm0.v2_double[0]
reverse-stepi
print $xmm0.v2_double[0]
x/i $pc
stepi
print $xmm0.v2_double[0]
G
timeout 120 "$REWIND" replay "$T/fma.rwd" -- -batch -nx -x "$T/fma.gdb" \
  >"$T/fma.gdb.out" 2>&1
r='8.6736173798840355e-19'
check "gdb: the residue in xmm0 at the checkpoint" grep -q "^\$1 = $r\$" \
  "$T/fma.gdb.out"
check "gdb: still there at the call" grep -q "^\$2 = $r\$" "$T/fma.gdb.out"
check "gdb: before the fused instruction, x*x" sh -c \
  "grep '^\$3 = 1.00000000' '$T/fma.gdb.out' && grep -q 'vfmsub231sd' '$T/fma.gdb.out'"
check "gdb: and after it again" grep -q "^\$4 = $r\$" "$T/fma.gdb.out"
grep -q "^\$4 = $r\$" "$T/fma.gdb.out" || tail -n 20 "$T/fma.gdb.out"
finish
