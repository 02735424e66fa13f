#!/bin/bash
# SPDX-License-Identifier: MIT
# The spin lock on atomics (tests/programs/thr_spinlock.c), whose waiter
# spins without syscalls: recorded (so the recorder must preempt the
# spinners: PREEMPT records of both, one of them inside the critical
# section), replayed with --verify, and gdb: the
# first contended() call stops in the spinner that waited, after many spins
# (its holder was preempted inside the critical section); both spinners'
# backtraces through `thread apply all bt`; stepi and reverse-stepi keep
# the spinner selected and move its pc there and back; reverse-finish; and
# only main at the end of the history.
. "${top_srcdir:-.}/tests/threads/lib.sh"

rec_ok spin 'spinlock: 2 threads x 1000 rounds, total 5036400000 \(as expected\)' \
  "$P/thr_spinlock"
verify spin
check "trace: both spinners were preempted (PREEMPT records of 2 threads)" q spin '
tids = set(r["tid"] for r in of("PREEMPT"))
assert len(tids) >= 2, tids'
# critical_section()'s offset and size in the binary, for the PREEMPT rips.
export RW_CS_SYM
RW_CS_SYM=$(nm -S "$P/thr_spinlock" | awk '$4 == "critical_section" { print $1, $2 }')
check "trace: a holder was preempted inside critical_section()" q spin '
import os
off, size = (int(x, 16) for x in os.environ["RW_CS_SYM"].split())
base = [int(r["addr"], 16) for r in of("MAP")
        if r["path"].endswith("/thr_spinlock") and int(r["offset"], 16) == 0][0]
rips = [int(r["regs"]["rip"], 16) - base for r in of("PREEMPT")]
assert any(off <= x < off + size for x in rips), [hex(x) for x in rips]'

session spin spin <<'G'
break contended
continue
echo @@ hit\n
info threads
bt
thread apply all bt
delete
set $t = $_thread
set $a = $pc
stepi
stepi
printf "@@ stepi %d\n", $_thread == $t
printf "@@ moved %d\n", $pc != $a
reverse-stepi
reverse-stepi
printf "@@ rstepi %d\n", $_thread == $t
printf "@@ back %d\n", $pc == $a
reverse-finish
printf "@@ rfinish %d\n", $_thread == $t
continue
printf "@@ longest %ld\n", longest_spin
echo @@ end\n
info threads
G
expect "contended() stops the spinner that waited, after many spins" \
  '^\[Switching to Thread [0-9]+\.[0-9]+\]' \
  '^Thread [0-9]+ "spinner-[01]" hit Breakpoint 1, contended \(id=.*, spins=[0-9]{3,}\)'
threads_at "info threads: main and both spinners, the waiter selected" hit 3 \
  '^\* +[0-9]+ +Thread [0-9.]+ "spinner-[01]" +contended \(' \
  '^  +[0-9]+ +Thread [0-9.]+ "spinner-[01]" ' '^  +1 +Thread [0-9.]+ "thr_spinlock" '
expect "bt, and thread apply all bt shows both spinners in worker" \
  '^#0 +contended \(id=.*, spins=[0-9]+\)' '^#1 .*worker \(arg=.*\) at .*thr_spinlock\.c:' \
  '^Thread [0-9]+ \(Thread [0-9.]+ "spinner-[01]"\)' '^#[0-9]+ .*worker \(arg=' \
  '^Thread [0-9]+ \(Thread [0-9.]+ "spinner-[01]"\)' '^#[0-9]+ .*worker \(arg='
same_thread "stepi, reverse-stepi and reverse-finish keep the spinner selected" \
  stepi rstepi rfinish
value_is "stepi moves the spinner's pc" moved 1
value_is "reverse-stepi brings it back" back 1
expect "reverse-finish goes back to the call in worker" '^@@ back' \
  '^0x[0-9a-f]+ in worker \(arg=.*\) at .*thr_spinlock\.c:[0-9]+' '^@@ rfinish'
l=$(value longest)
check "the longest wait in the replay was long: a preempted holder (${l:-?} spins)" \
  test "${l:-0}" -ge 1000
threads_at "at the end of the history only main survives" end 1 \
  '^\* +1 +Thread [0-9.]+ "thr_spinlock" '
finish
