#!/bin/bash
# SPDX-License-Identifier: MIT
# gdb after a divergence (docs/design-notes.md, "After a divergence"): a
# copy of deadstack's trace whose first PREEMPT has another digest cannot
# be replayed past that point. gdb says so once it gets there, and says
# the history before it still works: reverse-stepi, reverse-continue to a
# breakpoint, `monitor goto` and continuing forwards again, which stops at
# the breakpoint and then at the same divergence.
. "${top_srcdir:-.}/tests/gdb/lib.sh"

rec ticks "$B/tests/programs/deadstack" 3
# The first PREEMPT in the busy loop, not one taken right after a syscall
# returned (rcx = rip), which the loop never comes back to.
first=$("$REWIND" dump "$T/ticks.rwd" | awk '$3 == "PREEMPT" {
  rip = rcx = ""
  for (i = 4; i <= NF; i++) {
    if ($i ~ /^(regs=\{)?rip=/) { rip = $i; sub(/.*=/, "", rip) }
    if ($i ~ /^rcx=/) { rcx = $i; sub(/.*=/, "", rcx) }
  }
  if (rip != rcx) { print $1; exit }
}')
# The digest follows the 948 bytes of registers.
if [ -z "$first" ] ||
  ! "$B/tests/replay/rw_patch" "$T/ticks.rwd" "$T/bad.rwd" "$first" 948 1; then
  bad "a PREEMPT to change in the trace"
fi

session div bad <<'G'
break zero_xmm
continue
continue
info registers rip
reverse-stepi
monitor when
reverse-continue
monitor goto 1000
monitor when
continue
continue
monitor when
G
expect "the divergence stops the run, and the history before it works" \
  'Breakpoint 1, zero_xmm \(\)' \
  'rewind: the replay cannot go further: thread [0-9]+ is back at the recorded registers .* it runs in a loop that never gets there' \
  'rewind: the history before this point \(global instruction ([0-9]+)\) passed every check .*; reverse execution and `monitor goto` work there' \
  'main \(.*deadstack\.c' \
  '^rip +0x[0-9a-f]+ .*<main\+' \
  '^at instruction [0-9]+, event [0-9]+, thread [0-9]+' \
  'Breakpoint 1, zero_xmm \(\)' \
  '^now at instruction 1000, ' \
  '^at instruction 1000, ' \
  'Breakpoint 1, zero_xmm \(\)' \
  'rewind: the replay cannot go further: ' \
  '^at instruction [0-9]+, event [0-9]+, thread [0-9]+'
# The three positions at the divergence are one, and reverse-stepi went
# one instruction back from it.
python3 - "$T/div.out" <<'PY' && ok || bad "div: positions" "$T/div.out"
import re, sys
out = open(sys.argv[1]).read()
at = [int(x) for x in re.findall(r"global instruction (\d+)\)", out)]
when = [int(x) for x in re.findall(r"^at instruction (\d+),", out, re.M)]
assert len(at) == 2 and at[0] == at[1], at
assert when[0] == at[0] - 1 and when[-1] == at[0], (when, at)
PY

finish
