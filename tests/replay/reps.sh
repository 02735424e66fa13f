#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind analyze rep against a program whose rep string instructions are
# known exactly (tests/programs/reps.c): executions, iterations requested
# and done, the fewest and most, early ends by the condition, a fault part
# way, a signal between two iterations, preemptions that are not; two processes' counts of one
# instruction added up; stepi and reverse-stepi in gdb one
# iteration at a time; monitor break-rep stops at their starts and ends,
# in either direction; --json; the totals against rewind analyze profile's instruction
# count of the same functions; bad arguments.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

rec reps "$P/reps"
check "reps: recorded" test "$status" = 0
check "reps: ran as expected" grep -q "^reps ok" "$T/reps.out"
"$REWIND" analyze rep --no-progress --top 0 "$T/reps.rwd" >"$T/table" \
  2>"$T/err"
check_eq "analyze rep exits 0" 0 "$?"

# row FUNCTION: the fields of the table line of the instruction in it:
# executions requested iterations min max mean early fault signal mnemonic
row() {
  awk -v f="$1" '$NF ~ "^" f "\\+0x" {
    printf "%s %s %s %s %s %s %s %s %s", $1, $2, $3, $4, $5, $6, $7, $8, $9
    for (i = 10; $i != "at"; i++) printf " %s", $i
    print "" }' "$T/table"
}
check_eq "copy3: 3 executions of 100" \
  "3 300 300 100 100 100.0 0 0 0 rep movsb" "$(row copy3)"
check_eq "fill: one of 17 quadwords" "1 17 17 17 17 17.0 0 0 0 rep stosq" \
  "$(row fill)"
check_eq "zero: an execution of no iteration" \
  "1 0 0 0 0 0.0 0 0 0 rep movsb" "$(row zero)"
check_eq "find: 10 of 50, ended by its condition" \
  "1 50 10 10 10 10.0 1 0 0 repne scasb" "$(row find)"
check_eq "compare: 6 of 20, ended by its condition" \
  "1 20 6 6 6 6.0 1 0 0 repe cmpsb" "$(row compare)"
check_eq "edge: 40 of 100, then a fault" \
  "1 100 40 40 40 40.0 0 1 0 rep movsb" "$(row edge)"
# The header counts every execution and iteration, the program's and the C
# library's (which uses rep movsb and stosb itself).
read -r n iters sites <<<"$(sed -n \
  's/^\([0-9]*\) rep instructions executed, \([0-9]*\) iterations, by \([0-9]*\) instructions$/\1 \2 \3/p' \
  "$T/table")"
check "the header has the totals" test -n "${n:-}"
check_eq "the header's executions are the rows'" "${n:-}" \
  "$(awk 'NR > 2 && $1 ~ /^[0-9]+$/ { s += $1 } END { print s }' "$T/table")"
check_eq "the header's iterations are the rows'" "${iters:-}" \
  "$(awk 'NR > 2 && $1 ~ /^[0-9]+$/ { s += $3 } END { print s }' "$T/table")"
check_eq "the header's instructions are the rows'" "${sites:-}" \
  "$(awk 'NR > 2 && $1 ~ /^[0-9]+$/ { s++ } END { print s }' "$T/table")"
check "most iterations first" python3 -c '
import sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[2:]]
it = [int(r[2]) for r in rows if r and r[0].isdigit()]
assert it == sorted(it, reverse=True), it' "$T/table"

# Each iteration is an instruction of the replay's count: the profile of
# copy3 counts its 300 iterations plus its other instructions.
"$REWIND" analyze profile --no-progress --top 0 "$T/reps.rwd" >"$T/prof" 2>&1
excl=$(awk '$6 == "copy3" { print $3 }' "$T/prof")
check "copy3's own instructions include its 300 iterations" \
  test "${excl:-0}" -gt 300

"$REWIND" analyze rep --no-progress --json --top 0 "$T/reps.rwd" \
  >"$T/json" 2>&1
check "--json: one object per instruction, the same numbers" python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
by = {o["where"].split("+")[0]: o for o in objs}
e = by["edge"]
assert (e["instruction"], e["executions"], e["requested"], e["iterations"],
        e["faulted"], e["early"], e["interrupted"]) == \
       ("rep movsb", 1, 100, 40, 1, 0, 0), e
f = by["find"]
assert (f["instruction"], f["iterations"], f["early"], f["min"], f["max"]) \
       == ("repne scasb", 10, 1, 10, 10), f
c = by["copy3"]
assert (c["executions"], c["mean"]) == (3, 100.0), c
assert all(isinstance(o["address"], int) for o in objs)' "$T/json"

# Two processes running the same program: one line per instruction of the
# file, their counts added.
rec twice sh -c "'$P/reps' >/dev/null && '$P/reps' >/dev/null"
check "twice: recorded" test "$status" = 0
"$REWIND" analyze rep --no-progress --top 0 "$T/twice.rwd" >"$T/table" \
  2>"$T/err"
check_eq "twice: copy3's lines of both processes added up" \
  "6 600 600 100 100 100.0 0 0 0 rep movsb" "$(row copy3)"
check_eq "twice: and edge's" "2 200 80 40 40 40.0 0 2 0 rep movsb" \
  "$(row edge)"

# gdb: stepi on a rep instruction does one iteration, as the CPU's single
# step does, and reverse-stepi undoes one; the instruction is left when its
# count is done.
if command -v gdb >/dev/null; then
  cat >"$T/step.gdb" <<'G'
break copy3
continue
set $rep = 0
set $a = $pc
while *(unsigned short *)$a != 0xa4f3
  set $a = $a + 1
end
break *$a
continue
delete
p $rcx
stepi
p $rcx
p $pc == $a
stepi
p $rcx
reverse-stepi
p $rcx
reverse-stepi
p $rcx
p $pc == $a
reverse-stepi
p $pc == $a
p $rcx
monitor rep 3
maintenance flush register-cache
p $rcx
monitor rep x
G
  REWIND_GDB=gdb timeout 300 "$REWIND" replay "$T/reps.rwd" -- -batch -nx \
    -ex 'set width 0' -ex 'set height 0' -x "$T/step.gdb" >"$T/step.out" 2>&1
  check_eq "gdb: rcx at the rep, after stepi, stepi, reverse-stepi twice" \
    "100 99 1 98 99 100 1 0" \
    "$(sed -n 's/^\$[0-9]* = //p' "$T/step.out" | head -n 8 |
      tr '\n' ' ' | sed 's/ $//')"
  # monitor rep: the list over the whole history, as the shell's (its
  # first three lines), and the replay back where it was.
  "$REWIND" analyze rep --no-progress --top 3 "$T/reps.rwd" >"$T/top3" 2>&1
  check "gdb: monitor rep 3 shows analyze rep --top 3's lines" python3 -c '
import sys
out = open(sys.argv[1]).read()
for line in open(sys.argv[2]).read().splitlines()[:5]:
    assert line in out, (line, out)' "$T/step.out" "$T/top3"
  check "gdb: rcx printed before and after monitor rep" \
    grep -q '^\$10 = [0-9]' "$T/step.out"
  check_eq "gdb: monitor rep comes back to where it was" \
    "$(sed -n 's/^\$9 = //p' "$T/step.out")" \
    "$(sed -n 's/^\$10 = //p' "$T/step.out")"
  check "gdb: monitor rep x: its usage" \
    grep -q "usage: monitor rep \[N\]" "$T/step.out"
  # monitor break-rep: continue and reverse-continue stop at the start or
  # the end of every rep instruction (copy3's three rep movsb of 100, then
  # zero's rep movsb of none).
  cat >"$T/brk.gdb" <<'G'
break copy3
continue
monitor break-rep start
continue
p $rcx
monitor when
continue
p $rcx
monitor when
reverse-continue
p $rcx
monitor when
monitor break-rep end
continue
p $rcx
monitor when
monitor break-rep off
delete
break zero
continue
monitor break-rep start
continue
p $rcx
p *(unsigned short *)$pc == 0xa4f3
monitor break-rep end
continue
p $rcx
p *(unsigned short *)($pc - 2) == 0xa4f3
monitor break-rep
monitor break-rep sideways
G
  REWIND_GDB=gdb timeout 300 "$REWIND" replay "$T/reps.rwd" -- -batch -nx \
    -ex 'set width 0' -ex 'set height 0' -x "$T/brk.gdb" >"$T/brk.out" 2>&1
  check_eq "break-rep: rcx at copy3's rep starts, back, and at its end" \
    "100 100 100 0 0 1 0 1" \
    "$(sed -n 's/^\$[0-9]* = //p' "$T/brk.out" | tr '\n' ' ' | sed 's/ $//')"
  read -r p1 p2 p3 p4 <<<"$(sed -n 's/^at instruction \([0-9]*\),.*/\1/p' \
    "$T/brk.out" | tr '\n' ' ')"
  check "break-rep: the next rep start is later" test "${p2:-0}" -gt "${p1:-0}"
  check_eq "break-rep: reverse-continue goes back to the first" "${p1:-x}" \
    "${p3:-y}"
  check_eq "break-rep end: after the 100 iterations" "$((${p1:-0} + 100))" \
    "${p4:-y}"
  check "break-rep: says what it does" \
    grep -q 'now also stop where a rep string instruction is about to start' \
    "$T/brk.out"
  check "break-rep: with no word, the mode" grep -q '^rep stops are' \
    "$T/brk.out"
  check "break-rep: a bad word, the usage" \
    grep -q 'usage: monitor break-rep start|end|off' "$T/brk.out"
else
  fail=$((fail + 1))
  echo "FAIL: gdb is not installed"
fi

# Signals between two iterations (tests/programs/repstop: profiling ticks
# until one lands inside a rep). An interrupted execution ends there and
# the rest, after the handler, is another: every round's iterations are
# still all counted, and each interruption adds one execution.
rec repsig "$P/repstop" signal 2
check "repstop: recorded" test "$status" = 0
"$REWIND" analyze rep --no-progress --json --top 0 "$T/repsig.rwd" \
  >"$T/repsig.json" 2>&1
check "repstop: interrupted executions, iterations all counted" python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
intr = 0
for mnem, size in (("rep movsb", 8 << 20), ("rep stosq", 1 << 20)):
    o = [o for o in objs if o["instruction"] == mnem and
         o["where"].startswith("work+")]
    assert len(o) == 1, (mnem, o)
    o = o[0]
    rounds = o["iterations"] // size
    assert rounds >= 2 and o["iterations"] == rounds * size, o
    assert o["executions"] == rounds + o["interrupted"], o
    assert o["early"] == 0 and o["faulted"] == 0, o
    intr += o["interrupted"]
assert intr >= 1, intr' "$T/repsig.json"

# Preemptions between two iterations (two threads, short timeslices, no
# syscall in the loop): the thread resumes the same execution, so each
# round is one execution and none was interrupted.
"$REWIND" record -q -f --timeslice 2 -o "$T/repthr.rwd" -- "$P/repstop" \
  threads 2 >"$T/repthr.out" 2>&1
check "repstop threads: recorded" test "$?" = 0
"$REWIND" analyze rep --no-progress --json --top 0 "$T/repthr.rwd" \
  >"$T/repthr.json" 2>&1
check "repstop threads: one execution per round and thread" python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
for mnem, size in (("rep movsb", 8 << 20), ("rep stosq", 1 << 20)):
    o = [o for o in objs if o["instruction"] == mnem and
         o["where"].startswith("work+")]
    assert len(o) == 1, (mnem, o)
    o = o[0]
    assert (o["executions"], o["iterations"], o["interrupted"]) == \
           (4, 4 * size, 0), o' "$T/repthr.json"
check "repstop threads: preempted" sh -c \
  "'$REWIND' info '$T/repthr.rwd' | grep -Eq 'PREEMPT +[1-9]'"

# Bad arguments.
"$REWIND" analyze rep --top x "$T/reps.rwd" >"$T/bad.out" 2>&1
check_eq "--top x: usage error" 2 "$?"
"$REWIND" analyze rep --no-progress "$T/missing.rwd" >"$T/miss.out" 2>&1
check "a missing trace: an error" test "$?" != 0
check "  naming it" grep -q "missing.rwd" "$T/miss.out"
check "analyze rep --help" sh -c \
  "'$REWIND' analyze rep --help | grep -q 'usage: rewind analyze rep'"
"$REWIND" analyze nothing >"$T/none.out" 2>&1
check "an unknown analysis lists rep" grep -q "branches, rep, counts, accesses, marks)" "$T/none.out"

finish
