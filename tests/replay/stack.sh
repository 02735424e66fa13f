#!/bin/bash
# SPDX-License-Identifier: MIT
# Stack growth (docs/design-notes.md, "Stack growth"): the kernel grows the
# main stack on a fault below it, without a syscall, and the replay must
# grow its copy at the same instructions, by the same rules. Each mode of
# tests/programs/stackgrow is recorded and replayed with --verify; a stack
# overflow must end the replay with the recording's SIGSEGV at the
# recording's instruction.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# verify NAME HOW: HOW is the expected end ("exited with status N" or
# "killed by signal N").
verify() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || ! grep -q "^replay verified: .*$2" "$T/$1.replay"; then
    fail=$((fail + 1))
    echo "FAIL: replay of $1 (exit $rc, expected '$2'):"
    head -n 40 "$T/$1.replay"
    return 1
  fi
  pass=$((pass + 1))
}

S="$P/stackgrow"
for m in array recurse sigframe altstack kread growsdown thread caught; do
  rec "$m" "$S" "$m"
  check_eq "$m: recorded" 0 "$status"
  verify "$m" "exited with status 0"
done
rec deep "$S" recurse 20000
check_eq "deep: recorded" 0 "$status"
verify deep "exited with status 0"

# The trace says what decides growth, and the recorder's later look at the
# maps shows the growth the replay made itself (GROW, not a fresh MAP; the
# syscall buffer's ring at 0x70003000 is the one large anonymous map).
# (x64 fields are hex strings in the JSON dump.)
check "array: STACK_RULES with the limit" q array '
r = of("STACK_RULES")
assert r and int(r[0]["guard_gap"], 16) > 0
assert not [m for m in of("MAP") if m["path"] == "" and
            int(m["len"], 16) >= 1 << 20 and
            not 0x70000000 <= int(m["addr"], 16) < 0x70200000]'
check "array: the stack grown to 1 MiB" q array '
st = [int(m["len"], 16) for m in of("MAP") if m["path"] == "[stack]"]
assert st[0] + sum(int(g["len"], 16) for g in of("GROW")) > 1 << 20'
check "kread: GROW the replay did not see" q kread 'assert of("GROW")'
check "growsdown: MAP_GROWSDOWN, then GROW" q growsdown '
g = [m for m in of("MAP") if m["flags"] & 0x1000]
assert g and of("GROW")'
# setrlimit: a second STACK_RULES with 1 MiB.
check "caught: the lowered limit" q caught '
assert [r for r in of("STACK_RULES") if int(r["rlimit"], 16) == 1 << 20]'
check "caught: the depth reported" grep -q "overflow at depth" "$T/caught.out"

# A real overflow: the same crash, at the same instruction.
rec overflow "$S" overflow
check_eq "overflow: recorded crash" 139 "$status"
verify overflow "killed by signal 11"
if command -v "${GDB:-gdb}" >/dev/null 2>&1; then
  want=$(sed -n 's/^  #0  \(0x[0-9a-f]*\) in .*/\1/p' "$T/overflow.err" | head -n 1)
  REWIND_GDB=${GDB:-gdb} "$REWIND" replay "$T/overflow.rwd" -- -batch -nx \
    -ex continue -ex 'p/x $pc' -ex 'p/x $rsp' >"$T/overflow.gdb" 2>&1
  got=$(sed -n 's/^\$1 = \(0x[0-9a-f]*\)$/\1/p' "$T/overflow.gdb")
  check_eq "overflow: faulting instruction" "$(printf '0x%x' "$want")" "$got"
  # ... at the recorded depth: 1 MiB (the limit) below the stack's top.
  rsp=$(sed -n 's/^\$2 = \(0x[0-9a-f]*\)$/\1/p' "$T/overflow.gdb")
  check "overflow: at the limit" q overflow "
top = [int(m['addr'], 16) + int(m['len'], 16) for m in of('MAP')
       if m['path'] == '[stack]'][0]
assert (1 << 20) - 256 < top - int('${rsp:-0}', 16) <= (1 << 20) + 256"
fi
finish
