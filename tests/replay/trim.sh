#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind trim (replayer/trim.c): a window of a history written as a trace
# of its own. Each window must replay alone to its end (its DETACH's
# memory digest, or the program's own end) and debug with gdb forwards
# and backwards, its first instant being the source's at --from: a loop
# variable, threads waiting in syscalls (some at instructions the syscall
# buffer has patched since), a window to the end keeping the exit status,
# only the files the window maps, a window that starts with several
# processes alive, and clear refusals.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# instructions NAME: the instruction count of $T/NAME.rwd's history.
instructions() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" 2>&1 |
    sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p'
}

# trim NAME OUT ARGS...: rewind trim of $T/NAME.rwd into $T/OUT.rwd; its
# status in $status, its stderr in $T/OUT.trim.
trim() {
  local src=$1 out=$2
  shift 2
  "$REWIND" trim "$T/$src.rwd" -o "$T/$out.rwd" --no-progress "$@" \
    >"$T/$out.trim" 2>&1
  status=$?
}

# --- a long loop: a window in its middle, debugged alone ----------------
rec loop "$P/longloop" 3000000
check_eq "loop: recorded" 0 "$status"
trim loop lw --from 40000000 --to 60000000
check_eq "loop: trim exits 0" 0 "$status"
check "loop: says what it wrote" \
  grep -q "wrote $T/lw.rwd: instructions 40000000 to 60000000 of $T/loop.rwd (1 thread at its start" "$T/lw.trim"
check "loop: replayed what it wrote, exactly the window" \
  grep -q "it replays to its end (20000000 instructions; its instruction 0 is instruction 40000000 of" "$T/lw.trim"
verified lw
shows lw "rewind detached from the process"
check "loop: info names the window" sh -c \
  "'$REWIND' info '$T/lw.rwd' | grep -q '^window: *instructions 40000000 to 60000000 of $T/loop.rwd (rewind trim)'"
check "loop: info says detached" sh -c \
  "'$REWIND' info '$T/lw.rwd' | grep -q '^exit: *detached'"
check "loop: the state, then a PREEMPT and DETACH" q lw '
assert recs[0]["type"] == "EXEC"
assert len(of("THREAD_START")) == 1 and of("THREAD_START")[0]["parent_tid"] == 0
assert recs[-2]["type"] == "PREEMPT" and recs[-1]["type"] == "DETACH"
assert recs[-1]["has_digest"] == 1 and not of("END")'
check "loop: smaller than the recording" \
  test "$(stat -c %s "$T/lw.rwd")" -lt "$(stat -c %s "$T/loop.rwd")"

# The source at instruction 40000000, for comparison.
"$REWIND" replay --print -g 40000000 "$T/loop.rwd" >"$T/src40.out" 2>&1
timeout 300 gdb -q -batch -nx \
  -ex "target remote | '$REWIND' serve --stdio '$T/lw.rwd'" \
  -ex "p i" -ex "p/x \$pc" -ex "break checkpoint" -ex "continue" -ex "p i" \
  -ex "watch sink" -ex "continue" -ex "delete" -ex "reverse-continue" \
  -ex "p i" -ex "continue" -ex "p i" >"$T/lw.gdb" 2>&1
check "gdb: starts where the source is at 40000000" python3 -c '
import re, sys
g = open(sys.argv[1]).read()
pc = re.search(r"^\$2 = (0x[0-9a-f]+)$", g, re.M).group(1)
src = open(sys.argv[2]).read()
rip = re.search(r"rip +(0x[0-9a-f]+)", src).group(1)
assert int(pc, 16) == int(rip, 16), (pc, rip)' "$T/lw.gdb" "$T/src40.out"
check "gdb: the breakpoint in the window, at its iteration" \
  grep -q "Breakpoint 1, checkpoint (i=2000000," "$T/lw.gdb"
check "gdb: the watchpoint" grep -q "^Old value = " "$T/lw.gdb"
check "gdb: both ends of the window" python3 -c '
import re, sys
g = open(sys.argv[1]).read()
v = [int(x) for x in re.findall(r"^\$\d+ = (\d+)$", g, re.M)]
# at the start, at the breakpoint, back at the start, at the end
assert len(v) == 4, v
assert 1000000 < v[0] < 2000000 and v[1] == 2000000, v
assert v[2] == v[0] and v[3] > 2000000, v
assert g.count("No more reverse-execution history") == 2, g' "$T/lw.gdb"

# --- threads waiting in syscalls at the window's start -----------------
# thr_pool's workers wait in futex at an instruction the syscall buffer
# has patched since they entered it.
rec pool "$P/thr_pool"
check_eq "pool: recorded" 0 "$status"
n=$(instructions pool)
check "pool: replays" test -n "$n"
trim pool pw --from $((n / 3)) --to $((2 * n / 3))
check_eq "pool: trim exits 0" 0 "$status"
check "pool: exactly the window's instructions" \
  grep -q "it replays to its end ($(( 2 * n / 3 - n / 3 )) instructions; its instruction 0 is instruction $((n / 3)) of" "$T/pw.trim"
verified pw
check "pool: several threads, those waiting inside their syscall" q pw '
starts = of("THREAD_START")
assert len(starts) > 2, len(starts)
inside = [s for s in starts if s["inside"] == 1]
assert len(inside) >= 2, starts
# each one leaves its syscall in the window, without entering it again
for s in inside:
    mine = [r for r in recs if r["tid"] == s["tid"] and r["seq"] > s["seq"]
            and r["type"] in ("SYSCALL_ENTER", "SYSCALL_EXIT")]
    assert not mine or mine[0]["type"] == "SYSCALL_EXIT", (s["tid"], mine[:1])'
timeout 300 gdb -q -batch -nx \
  -ex "target remote | '$REWIND' serve --stdio '$T/pw.rwd'" \
  -ex "info threads" >"$T/pw.gdb" 2>&1
check "pool: gdb sees the threads" sh -c \
  "test \$(grep -c 'Thread ' '$T/pw.gdb') -gt 2"

# A window to the end keeps the program's end.
trim pool pe --from $((n / 2))
check_eq "pool: a window to the end, exit 0" 0 "$status"
check "pool: says it runs to the end" grep -q "to the end of its history" "$T/pe.trim"
verified pe
shows pe "exited with status 0"

# --- processes: a window after the children ended; one while they live -
rec forks "$P/forks"
check_eq "forks: recorded" 0 "$status"
n=$(instructions forks)
trim forks fe --from $((n - 1000))
check_eq "forks: a window after the children, exit 0" 0 "$status"
verified fe
check "forks: only the files the window maps" sh -c \
  "'$REWIND' info '$T/forks.rwd' | grep -q ' /usr/bin/true' &&
   ! '$REWIND' info '$T/fe.rwd' | grep -q ' /usr/bin/true'"
# A window that starts while posix_spawn's child (/bin/true) runs: the
# child begins in it as a process forked there, running its own program.
spawn=$("$REWIND" dump --json "$T/forks.rwd" 2>/dev/null | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin if l.strip()]
ev = [r for r in recs if r["type"] == "EXEC"]
print(len(ev), len([r for r in recs if r["type"] == "FORK"]))')
check_eq "forks: two images, three children recorded" "2 3" "$spawn"
found=
for k in 5 6 7 8 9 10 11 12 13 14; do
  trim forks fm --from $((n * k / 16)) --force
  check_eq "forks: a window from $((n * k / 16)): exit 0" 0 "$status"
  if grep -q "(2 processes, 2 threads at its start" "$T/fm.trim"; then
    found=$k
    break
  fi
done
check "forks: a window starts with the child alive" test -n "$found"
verified fm
check "forks: the child runs its own program in it" sh -c \
  "'$REWIND' ps '$T/fm.rwd' | grep -Eq '^[0-9]+ +[0-9]+ +exit 0 .* /usr/bin/true$'"

# --- a CPU the hypervisor moved: the window begins with cpuid's answers ---
# A test hook skews the initial APIC ID of the table the recorder takes at
# its start, as if the CPU had moved since; the exec finds the change
# (a CPUID record). A window from main on, where the program asks cpuid
# and prints what it got, must carry that answer in its state.
REWIND_TEST_CPUID_MOVED=1 rec moved "$P/cpuid"
check_eq "cpu moved: recorded" 0 "$status"
at=$("$REWIND" analyze calls --function main "$T/moved.rwd" 2>/dev/null |
  awk 'NR == 2 { print $1 }')
check "cpu moved: main found ($at)" test -n "$at"
trim moved mw --from "${at:-1}"
check_eq "cpu moved: trim exits 0" 0 "$status"
check "cpu moved: the window's state holds the CPUID in force" sh -c \
  "'$REWIND' dump '$T/mw.rwd' | grep -q ' CPUID leaf=0x1 '"
verified mw

# --- refusals -----------------------------------------------------------
"$REWIND" trim "$T/loop.rwd" --from 100 >"$T/noout.out" 2>&1
check_eq "no -o: exit 2" 2 "$?"
trim loop none --to 100
check_eq "no --from: exit 2" 2 "$status"
trim loop none --from 200 --to 100
check_eq "--to before --from: exit 2" 2 "$status"
check "--to before --from: says so" grep -q "must come after" "$T/none.trim"
trim loop none --from 9999999999
check_eq "--from past the end: exit 1" 1 "$status"
check "--from past the end: says where it ends" \
  grep -q "the history ends at instruction [0-9]*, before the window's start" "$T/none.trim"
check "--from past the end: no trace left" test ! -e "$T/none.rwd"
trim loop lw --from 100 --to 200
check_eq "OUT exists: exit 1" 1 "$status"
check "OUT exists: says so" grep -q "exists; use --force" "$T/lw.trim"
trim loop loop --from 100 --force
check_eq "OUT is the source: exit 2" 2 "$status"
"$REWIND" trim "$T/missing.rwd" --from 1 -o "$T/m.rwd" >"$T/m.out" 2>&1
check_eq "a missing trace: exit 1" 1 "$?"

finish
