#!/bin/bash
# SPDX-License-Identifier: MIT
# AVX-512 in a recording (tests/programs/avx512, built for the integer
# subsets of Ice Lake): logic, arithmetic, compares into opmasks, the
# opmask instructions, permutes, compress/expand, narrowing moves, shifts
# floating point (with embedded rounding, SAE and MXCSR's flags), the
# getexp/getmant/scalef family, vrcp14, gathers and scatters, the
# unsigned, general-register and half-precision conversions, the FP
# shuffles, the EVEX forms of GFNI, VAES and VPCLMULQDQ, and VNNI, BF16,
# CD, VP2INTERSECT, vpshufbitqmb and the variable double shifts under
# merge- and zero-masking replay to the same checksums and
# verify; masked loads and stores at the end of a page before an
# inaccessible one do not fault on their masked-off elements. AVX-512 state
# held across signal handlers comes back at rt_sigreturn from the signal
# frame, and a new thread starts with its creator's.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

A="$P/avx512"
for f in avx512f avx512bw avx512vl avx512dq avx512vbmi avx512_vbmi2 \
  avx512ifma avx512_vpopcntdq avx512_bitalg; do
  if ! grep -qw "$f" /proc/cpuinfo; then
    echo "SKIP: this CPU has no $f"
    exit 77
  fi
done
native=$("$A"; echo "status $?")
rec avx512 "$A"
check_eq "same output as natively" "$native" \
  "$(cat "$T/avx512.out"; echo "status $status")"
check "eleven groups ran" test "$(grep -c '^[a-z]* *[0-9a-f]\{16\}$' \
  "$T/avx512.out")" = 11
"$REWIND" replay --verify --no-progress "$T/avx512.rwd" >"$T/avx512.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
check "replay verified" grep -q '^replay verified: ' "$T/avx512.replay"
grep -q '^replay verified: ' "$T/avx512.replay" || head -n 30 "$T/avx512.replay"

for m in signals thread; do
  native=$("$A" "$m"; echo "status $?")
  rec "$m" "$A" "$m"
  check_eq "$m: same output as natively" "$native" \
    "$(cat "$T/$m.out"; echo "status $status")"
  "$REWIND" replay --verify --no-progress "$T/$m.rwd" >"$T/$m.replay" 2>&1
  check_eq "$m: replay --verify exits 0" 0 "$?"
  grep -q '^replay verified: ' "$T/$m.replay" || head -n 30 "$T/$m.replay"
done
check "signals: a signal interrupted the loop" q signals '
assert any(r["signo"] == 27 for r in of("SIGNAL")), of("SIGNAL")'

# gdb reads the AVX-512 registers main set before the checkpoint, and,
# back at main's entry by reverse execution, sees them zero again.
cat >"$T/avx512.gdb" <<'G'
break avx512_checkpoint
continue
print/x $k3
print $zmm17.v16_int32
break main
reverse-continue
print/x $k3
print $zmm17.v16_int32[15]
G
timeout 120 "$REWIND" replay "$T/avx512.rwd" -- -batch -nx -x "$T/avx512.gdb" \
  >"$T/avx512.gdb.out" 2>&1
check "gdb: k3 at the checkpoint" grep -q '^\$1 = 0xa5c3$' "$T/avx512.gdb.out"
check "gdb: zmm17 at the checkpoint" grep -q \
  '^\$2 = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2147418178}$' \
  "$T/avx512.gdb.out"
check "gdb: before they were set" sh -c "grep -q '^\\\$3 = 0x0\$' \
  '$T/avx512.gdb.out' && grep -q '^\\\$4 = 0\$' '$T/avx512.gdb.out'"
grep -q '^\$4 = 0$' "$T/avx512.gdb.out" || tail -n 20 "$T/avx512.gdb.out"
finish
