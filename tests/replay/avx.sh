#!/bin/bash
# SPDX-License-Identifier: MIT
# AVX and AVX2 in a recording (tests/programs/avx2, built with -mavx2):
# the program and glibc's AVX2 string functions replay to the same output
# and verify, and gdb reads the 256-bit registers at a point of the replay,
# going backwards too. Where the CPU has AVX-512, gdb also gets its
# registers (zero, since the program uses none): zmm0 extends ymm0.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

A="$P/avx2"
if ! grep -qw avx2 /proc/cpuinfo; then
  echo "SKIP: this CPU has no AVX2"
  exit 77
fi
# glibc's own AVX-512 string functions would leave k0-k7 and zmm16-31
# holding their last values; the gdb checks below want registers only the
# program writes, so glibc is kept on its AVX2 functions here (rewind
# extends the user's hwcaps list).
export GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW
native=$("$A"; echo "status $?")
rec avx2 "$A"
check_eq "same output as natively" "$native" \
  "$(cat "$T/avx2.out"; echo "status $status")"
"$REWIND" replay --verify --no-progress "$T/avx2.rwd" >"$T/avx2.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
check "replay verified" grep -q '^replay verified: ' "$T/avx2.replay"
grep -q '^replay verified: ' "$T/avx2.replay" || head -n 30 "$T/avx2.replay"

h=$(sed -n 's/^avx2 //p' "$T/avx2.out")
cat >"$T/avx2.gdb" <<'G'
break avx2_checkpoint
continue
print/x $ymm0.v4_int64
print/x $xmm0.v2_int64
print/x $zmm0
print $k0
print $zmm17
reverse-finish
print/x $ymm0.v4_int64[1]
reverse-stepi
print/x $ymm0.v4_int64[1]
stepi
print/x $ymm0.v4_int64[1]
info registers k1
G
timeout 120 "$REWIND" replay "$T/avx2.rwd" -- -batch -nx -x "$T/avx2.gdb" \
  >"$T/avx2.gdb.out" 2>&1
check "gdb shows all of ymm0 at the checkpoint" grep -q \
  "^\$1 = {0x123456789abcdef, 0x$h, 0x5555666677778888, 0x1111222233334444}" \
  "$T/avx2.gdb.out"
check "gdb: xmm0 is ymm0's low half" grep -q \
  "^\$2 = {0x123456789abcdef, 0x$h}\$" "$T/avx2.gdb.out"
if grep -qw avx512f /proc/cpuinfo; then
  check "gdb: zmm0 is ymm0 with zero upper bits" grep -q \
    "^\$3 = {.*v8_int64 = {0x123456789abcdef, 0x$h, 0x5555666677778888, 0x1111222233334444, 0x0, 0x0, 0x0, 0x0}, " \
    "$T/avx2.gdb.out"
  check "gdb: k0 is zero" grep -q '^\$4 = 0$' "$T/avx2.gdb.out"
  check "gdb: zmm17 is zero" grep -q \
    '^\$5 = {.*v8_int64 = {0, 0, 0, 0, 0, 0, 0, 0}, v4_int128 = {0, 0, 0, 0}}$' \
    "$T/avx2.gdb.out"
  check "gdb: info registers k1" grep -Eq '^k1 +0x0 +0$' "$T/avx2.gdb.out"
else # no AVX-512 in the description: gdb has no such registers
  check "gdb: no zmm0 without AVX-512" grep -q '^\$3 = void$' "$T/avx2.gdb.out"
  check "gdb: no k0 without AVX-512" grep -q '^\$4 = void$' "$T/avx2.gdb.out"
fi
check "gdb: ymm0 back in main" grep -q "^\$6 = 0x$h\$" "$T/avx2.gdb.out"
check "gdb: before the instruction that built it" \
  sh -c "grep '^\$7 = ' '$T/avx2.gdb.out' | grep -vq '0x$h\$'"
check "gdb: and after it again" grep -q "^\$8 = 0x$h\$" "$T/avx2.gdb.out"
grep -q "^\$8 = 0x$h\$" "$T/avx2.gdb.out" || tail -n 30 "$T/avx2.gdb.out"
finish
