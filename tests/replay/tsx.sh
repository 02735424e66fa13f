#!/bin/bash
# SPDX-License-Identifier: MIT
# Intel TSX (RTM) in a recording (tests/programs/tsx): the recorder aborts
# every xbegin it finds before its transaction starts and records the
# status (RDTSC records of kind 4, xbegin); the replay applies them and
# verifies, with xtest, xend and xabort run as outside a transaction, the
# HLE prefixes as hints, and glibc's *_rtm string functions (which it picks
# with AVX-512 hidden) running xtest on the way out of each call. An xbegin
# in code the program made executable with mprotect is patched too, and
# one written at run time into memory that was executable already is not
# seen: the replay stops there and says so. Skipped where the CPU has no
# RTM (or TSX is disabled: then CPUID does not report it either).
. "${top_srcdir:-.}/tests/recorder/lib.sh"

if ! grep -qw rtm /proc/cpuinfo; then
  echo "SKIP: this CPU has no RTM"
  exit 77
fi

# replay NAME: --verify of $T/NAME.rwd; output in $T/NAME.replay, status in $rs.
replay() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  rs=$?
}

"$REWIND" record -f --cpu-features=-avx512 -o "$T/tsx.rwd" -- "$P/tsx" \
  >"$T/tsx.out" 2>"$T/tsx.err"
status=$?
check_eq "tsx: recorded, exit 0" 0 "$status"
[ "$status" -eq 77 ] && { echo "SKIP: CPUID reports no RTM"; exit 77; }
check "tsx: xtest outside a transaction: ZF alone" \
  grep -qx "xtest outside: 0, flags 0x40" "$T/tsx.out"
check "tsx: every transaction aborted, the lock fallback counted" \
  grep -qx "counter 8 (every one aborted)" "$T/tsx.out"
check "tsx: with status 0" grep -qx "all aborted, status 0" "$T/tsx.out"
check "tsx: aborted before its xabort" \
  grep -qx "xabort 0x5a: status 0 (aborted before xabort)" "$T/tsx.out"
check "tsx: a 16-bit xadd with xacquire is 16 bits" \
  grep -qx "xacquire xaddw: old 0xfffe, now 0x1, next 0x1234" "$T/tsx.out"
check "tsx: xend outside a transaction faults" \
  grep -qx "xend outside: SIGSEGV" "$T/tsx.out"
check "tsx: the rel16 xbegin in mprotected code was patched" \
  grep -qx "xbegin rel16: aborted before xabort" "$T/tsx.out"
check "tsx: each xbegin recorded with its status" q tsx '
x = [r for r in of("RDTSC") if r["kind"] == 4]
assert len(x) == 10 and all(r["tsc"] == 0 and r["aux"] == 0 for r in x), x
assert len(set(r["rip"] for r in x)) == 3, x'
replay tsx
check_eq "tsx: the replay verifies" 0 "$rs"
check "tsx: replay verified" grep -q "^replay verified" "$T/tsx.replay"
grep -q "^replay verified" "$T/tsx.replay" || head -n 30 "$T/tsx.replay"

"$REWIND" record -f -o "$T/jit.rwd" -- "$P/tsx" jit >"$T/jit.out" \
  2>"$T/jit.err"
check_eq "tsx jit: recorded, exit 0" 0 "$?"
replay jit
check "tsx jit: the replay fails" test "$rs" -ne 0
check "tsx jit: and says why" grep -q \
  "executed xbegin at 0x.*which the recorder did not see" "$T/jit.replay"
finish
