#!/bin/bash
# SPDX-License-Identifier: MIT
# MMX in a recording (tests/programs/mmx): the MMX, SSE and SSSE3
# instructions on mm registers, the conversions to and from xmm, maskmovq,
# and the x87 stack they share replay to the same output and verify; gdb
# sees mm3 as the physical x87 register R3 (st3, TOP being 0 in MMX mode),
# with the all-ones exponent an MMX write gives it, forwards and after
# stepping back over the write.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

A="$P/mmx"
native=$("$A"; echo "status $?")
rec mmx "$A"
check_eq "same output as natively" "$native" \
  "$(cat "$T/mmx.out"; echo "status $status")"
check "an x87 load without emms overflows the stack" \
  grep -q '^x87 -nan 1$' "$T/mmx.out"
"$REWIND" replay --verify --no-progress "$T/mmx.rwd" >"$T/mmx.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
check "replay verified" grep -q '^replay verified: ' "$T/mmx.replay"
grep -q '^replay verified: ' "$T/mmx.replay" || head -n 30 "$T/mmx.replay"

cat >"$T/mmx.gdb" <<'G'
break mmx_checkpoint
continue
p/x $st3
info float
reverse-finish
reverse-stepi
x/i $pc
p/x $st3
stepi
p/x $st3
G
timeout 120 "$REWIND" replay "$T/mmx.rwd" -- -batch -nx -x "$T/mmx.gdb" \
  >"$T/mmx.gdb.out" 2>&1
check "gdb: mm3 at the checkpoint" grep -q '^\$1 = 0xffff0123456789abcdef$' \
  "$T/mmx.gdb.out"
check "gdb: TOP is 0 and every register valid" sh -c \
  "grep -q 'TOP: 0' '$T/mmx.gdb.out' && grep -q 'Tag Word: *0xaaaa' '$T/mmx.gdb.out'"
check "gdb: back before the write to mm3" sh -c \
  "grep -q 'movq *%r.*,%mm3' '$T/mmx.gdb.out' && ! grep -q '^\$2 = 0xffff0123456789abcdef$' '$T/mmx.gdb.out'"
check "gdb: and after it again" grep -q '^\$3 = 0xffff0123456789abcdef$' \
  "$T/mmx.gdb.out"
grep -q '^\$3 = 0xffff0123456789abcdef$' "$T/mmx.gdb.out" ||
  tail -n 30 "$T/mmx.gdb.out"
finish
