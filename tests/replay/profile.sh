#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind analyze profile against a program whose calls are known exactly
# (tests/programs/calls.c): call counts, the instructions of a leaf of 5
# instructions, recursion counted once, the stack after a longjmp and in a
# signal handler, threads; totals equal to the replay's own count, in the
# table, the folded stacks and the callgrind file (read back with
# callgrind_annotate); C++ exceptions and child processes; bad arguments;
# gdb's monitor stack against its bt, after a longjmp, in a signal handler
# and in a thread; rewind analyze calls, monitor calls, rewind analyze
# edges.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# verified NAME: the instruction count `replay --verify` reports.
verified() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" 2>&1 |
    sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p'
}

# col NAME FIELD: a column of the table line of function NAME in file
# (calls): 1 inclusive, 3 exclusive, 5 calls.
col() {
  awk -v f="$1" -v c="$2" '$6 == f && $7 == "(calls)" { print $c }' \
    "$T/calls.table"
}

rec calls "$P/calls"
check "calls: recorded" test "$status" = 0
total=$(verified calls)
check "calls: verified" test -n "$total"
"$REWIND" analyze profile --no-progress --top 0 --folded "$T/calls.folded" \
  --callgrind "$T/calls.cg" "$T/calls.rwd" >"$T/calls.table" 2>"$T/calls.err"
check_eq "analyze profile exits 0" 0 "$?"
check "the header gives the replay's count, 5 threads" \
  grep -Eq "^profile of .*calls: $total instructions in 5 threads, [0-9]+ calls$" \
  "$T/calls.table"
check_eq "exclusive counts add up to every instruction" "$total" \
  "$(awk 'NR > 2 && $4 ~ /%$/ { s += $3 } END { print s }' "$T/calls.table")"

"$REWIND" analyze profile --no-progress --exclusive --top 10 "$T/calls.rwd" \
  >"$T/excl.table" 2>&1
check "--exclusive orders by exclusive instructions" python3 -c '
import sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[2:12]]
e = [int(r[2]) for r in rows]
assert len(e) == 10 and e == sorted(e, reverse=True), e' "$T/excl.table"

# Calls as the source makes them.
for fc in leaf5:1000 rec:510 is_even:11 is_odd:10 loop100:3 dive:6 after_jump:1 \
          in_handler:1 after_signal:1 work:400 worker:4 main:1; do
  check_eq "calls of ${fc%:*}" "${fc#*:}" "$(col "${fc%:*}" 5)"
done
check_eq "leaf5: 5 instructions a call, inclusive" 5000 "$(col leaf5 1)"
check_eq "leaf5: and exclusive" 5000 "$(col leaf5 3)"
# Recursion: the inclusive count is the outermost frames', so rec's is its
# own instructions plus the 10 leaf5 calls at the bottom.
check_eq "rec: recursion counted once" $(($(col rec 3) + 50)) "$(col rec 1)"
check_eq "is_even: mutual recursion counted once" \
  $(($(col is_even 3) + $(col is_odd 3))) "$(col is_even 1)"

# Folded stacks: the same total; the shape of the stacks.
check_eq "folded stacks add up to every instruction" "$total" \
  "$(awk '{ s += $NF } END { print s }' "$T/calls.folded")"
check "after a longjmp out of 5 frames, main calls after_jump directly" \
  grep -Eq ';main;after_jump;leaf5 5$' "$T/calls.folded"
check "  and no frame of dive is left under it" \
  sh -c "! grep -q 'dive;.*after_jump' '$T/calls.folded'"
check "a signal handler's calls sit on the frame it interrupted" \
  grep -Eq ';main;.*;in_handler;leaf5 5$' "$T/calls.folded"
check "  and after it, main calls after_signal directly" \
  grep -Eq ';main;after_signal;leaf5 5$' "$T/calls.folded"
check "threads: each worker's calls under its own root" \
  grep -Eq ';worker;work;leaf5 2000$' "$T/calls.folded"
check "dive 6 deep, then longjmp" \
  grep -Eq ';main;dive;dive;dive;dive;dive;dive [0-9]+$' "$T/calls.folded"

# callgrind_annotate reads the callgrind file, with the same total.
if command -v callgrind_annotate >/dev/null; then
  callgrind_annotate "$T/calls.cg" >"$T/calls.cga" 2>&1
  check_eq "callgrind_annotate reads the file" 0 "$?"
  check_eq "callgrind_annotate's total is the replay's count" "$total" \
    "$(sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$T/calls.cga" | tr -d ,)"
  check "callgrind_annotate: leaf5's 5000" \
    grep -Eq '^ *5,000 .*:leaf5 \[calls\]' "$T/calls.cga"
else
  fail=$((fail + 1))
  echo "FAIL: callgrind_annotate is not installed (Debian: valgrind)"
fi

# The call history: every call of a function, where it starts and ends,
# its arguments and result; positions that rewind replay -g goes to.
"$REWIND" analyze calls --no-progress -f rec "$T/calls.rwd" >"$T/rec.calls" \
  2>"$T/rec.err"
check_eq "analyze calls -f rec exits 0" 0 "$?"
check "  says how many" grep -q '^rewind: 510 calls of rec$' "$T/rec.err"
check_eq "  one line per call, and a header" 511 "$(wc -l <"$T/rec.calls")"
check "  the outer call first: rec(50) = 50, from main" \
  sh -c "sed -n 2p '$T/rec.calls' | grep -Eq ' rec\(0x32, .*\) = 0x32, from main$'"
check "  the innermost: rec(0) = 0, from rec" \
  grep -Eq ' rec\(0, .*\) = 0, from rec$' "$T/rec.calls"
start=$(sed -n 2p "$T/rec.calls" | awk '{ print $1 }')
end=$(sed -n 2p "$T/rec.calls" | awk '{ print $2 }')
check "  rewind replay -g START is at rec's first instruction, n = 50" sh -c \
  "'$REWIND' replay --print -g $start '$T/calls.rwd' |
   grep -q '^=> 0x[0-9a-f]* rec+0x0 ' &&
   '$REWIND' replay --print -g $start '$T/calls.rwd' |
   grep -q 'rdi  0x0000000000000032'"
check "  and -g END right after its ret, back in main" sh -c \
  "'$REWIND' replay --print -g $end '$T/calls.rwd' | grep -q '^=> 0x[0-9a-f]* main+'"
inner=$(grep -E ' rec\(0, ' "$T/rec.calls" | head -n 1 | awk '{ print $1 }')
"$REWIND" replay --backtrace -g "$inner" "$T/calls.rwd" >"$T/bt.out" 2>&1
check_eq "replay --backtrace -g POS: exit 0" 0 "$?"
check "  the registers, then the call stack there: rec(0) innermost" sh -c \
  "grep -q '^rip ' '$T/bt.out' && grep -q '^call stack of thread' '$T/bt.out' &&
   grep -Eq '^#0 +rec \(calls\), entered at its instruction' '$T/bt.out'"
check_eq "  51 frames of rec, main under them" 51 \
  "$(grep -Ec '^#[0-9]+ +rec \(calls\)' "$T/bt.out")"
check "  then main" grep -Eq '^#51 +main \(calls\)' "$T/bt.out"
check "  and libunwind's, from the unwind tables: rec at its first byte," \
  grep -Eq '^#0 +0x[0-9a-f]{16} in rec\+0x0$' "$T/bt.out"
check_eq "  51 frames of rec" 51 \
  "$(sed -n '/^unwound by libunwind/,$p' "$T/bt.out" | grep -Ec ' in rec\+')"
check "  then main, libc, and _start, where the stack begins" python3 -c '
import re, sys
t = open(sys.argv[1]).read().split("unwound by libunwind")[1].splitlines()[1:]
f = [re.match(r"#(\d+) +0x[0-9a-f]{16} in (\S+)", l) for l in t]
assert all(f), t
names = [m[2].split("+")[0] for m in f]
assert [int(m[1]) for m in f] == list(range(len(f))), t
assert names[51] == "main" and names[-1] == "_start", names
assert "__libc_start_main" in names, names' "$T/bt.out"
"$REWIND" analyze calls --no-progress -f dive --json "$T/calls.rwd" \
  >"$T/dive.json" 2>&1
check "calls left by a longjmp did not return" python3 -c "
import json, sys
v = [json.loads(l) for l in open('$T/dive.json')]
assert len(v) == 6, len(v)
assert [c['args'][0] for c in v] == [5, 4, 3, 2, 1, 0], v
assert all(not c['returned'] and 'result' not in c for c in v), v
assert len({c['end'] for c in v}) == 1, 'all end at the longjmp'
assert v[0]['caller'] == 'main' and v[1]['caller'] == 'dive', v
"
worker=$("$REWIND" analyze calls --no-progress -f work --json "$T/calls.rwd" |
         sed -n '1s/.*"thread":\([0-9]*\).*/\1/p')
check_eq "calls of thread T alone: 100 of work's 400" 100 "$("$REWIND" \
  analyze calls --no-progress -f work -t "$worker" --json "$T/calls.rwd" |
  wc -l | tr -d ' ')"
check_eq "  (the main thread makes none of work's)" 0 "$("$REWIND" analyze \
  calls --no-progress -f work -t 1 --json "$T/calls.rwd" | wc -l | tr -d ' ')"
"$REWIND" analyze calls --no-progress --max 5 "$T/calls.rwd" >"$T/max.calls" \
  2>"$T/max.err"
check "--max keeps the first calls and counts the others" sh -c \
  "[ \$(wc -l <'$T/max.calls') = 6 ] &&
   grep -Eq '^rewind: 5 calls \(and [0-9]+ more past --max\)$' '$T/max.err'"
check "  the first five to start" sh -c \
  "awk 'NR > 1 { print \$1 }' '$T/max.calls' | sort -n -c"

# The exact edge profile: loop100's jnz 300 times (297 taken), its
# indirect jmp 3 times to its ret.
"$REWIND" analyze edges --no-progress --top 0 --json "$T/calls.rwd" \
  >"$T/edges.json" 2>&1
check_eq "analyze edges: exit 0" 0 "$?"
check "analyze edges: the branches of loop100, exactly" python3 -c '
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])]
s = {b["where"]: b for b in v}
j = s["loop100+0x7"]
assert (j["kind"], j["executed"], j["taken"], j["not_taken"]) == \
    ("conditional", 300, 297, 3), j
i = s["loop100+0x10"]
assert i["kind"] == "indirect" and i["executed"] == 3, i
assert i["targets"] == [{"address": i["address"] + 2,
                         "where": "loop100+0x12", "count": 3}], i
assert all(b["taken"] + b["not_taken"] == b["executed"] for b in v)
assert [b["executed"] for b in v] == sorted((b["executed"] for b in v),
                                            reverse=True)' "$T/edges.json"
"$REWIND" analyze edges --no-progress --top 2 "$T/calls.rwd" >"$T/edges.txt" 2>&1
check "analyze edges: a header, two branches, and the rest counted" sh -c \
  "head -n 1 '$T/edges.txt' | grep -Eq '^[0-9]+ branches executed at [0-9]+ sites$' &&
   [ \$(wc -l <'$T/edges.txt') = 5 ] && tail -n 1 '$T/edges.txt' | grep -q 'more branches'"

# Other programs: exceptions, child processes; the totals hold.
rec cxx "$P/cxx_exceptions"
n=$(verified cxx)
check "cxx_exceptions: profile total = replay count" sh -c \
  "'$REWIND' analyze profile --no-progress --top 3 '$T/cxx.rwd' |
   grep -q '^profile of .*: $n instructions'"
rec forks "$P/forks"
n=$(verified forks)
check "forks: profile total = replay count over every process" sh -c \
  "'$REWIND' analyze profile --no-progress --top 3 '$T/forks.rwd' |
   grep -q '^profile of .*: $n instructions'"
check "-q prints nothing, the files still come" sh -c \
  "[ -z \"\$('$REWIND' analyze profile -q --folded '$T/q.folded' '$T/calls.rwd')\" ] &&
   [ -s '$T/q.folded' ]"

# monitor stack in gdb: the shadow stack at a position, against gdb's bt.
if command -v gdb >/dev/null; then
  cat >"$T/stack.gdb" <<'G'
tbreak rec if n == 0
continue
monitor stack
bt
tbreak after_jump
continue
monitor stack
monitor branches 3
tbreak in_handler
continue
monitor stack
tbreak work
continue
monitor stack
monitor calls dive
monitor when
monitor calls nosuch
monitor help
G
  REWIND_GDB=gdb timeout 300 "$REWIND" replay "$T/calls.rwd" -- -batch -nx \
    -ex 'set width 0' -ex 'set height 0' -x "$T/stack.gdb" >"$T/stack.out" 2>&1
  # The four stacks, one file each; gdb's bt after the first.
  awk '/^thread [0-9]+ at instruction [0-9]+: [0-9]+ frames/ { n++ }
       n && /^(thread |#[0-9]+ +[^ ]+ \()/ { print > (F "." n) }
       /^#[0-9]+ +0x.* in |^#0  rec/ { print > (F ".bt") }' \
    F="$T/stack" "$T/stack.out"
  check_eq "monitor stack at rec(0): 51 frames of rec" 51 \
    "$(grep -Ec '^#[0-9]+ +rec \(calls\)' "$T/stack.1")"
  check "  then main" grep -Eq '^#51 +main \(calls\), entered at' "$T/stack.1"
  check "  the root frame: where the thread began" \
    grep -Eq '^#54 .*where the thread began$' "$T/stack.1"
  ours=$(grep -Eo '^#[0-9]+ +[a-z_]+ \(calls\)' "$T/stack.1" |
         awk '{ print $2 }' | tr '\n' ' ')
  theirs=$(grep -Eo '^#[0-9]+ +(0x[0-9a-f]+ in )?[a-z_]+ \(' "$T/stack.bt" |
           sed -E 's/^#[0-9]+ +(0x[0-9a-f]+ in )?//; s/ \($//' |
           head -n 52 | tr '\n' ' ')
  check "  gdb's bt shows 52 frames from rec to main" \
    test "$(echo "$theirs" | wc -w)" = 52
  check_eq "  the same frames as gdb's bt" "$theirs" "$ours"
  check "after the longjmp: after_jump on main, no dive left" sh -c \
    "grep -Eq '^#0 +after_jump \(calls\)' '$T/stack.2' &&
     grep -Eq '^#1 +main \(calls\)' '$T/stack.2' && ! grep -q dive '$T/stack.2'"
  check "in the signal handler: in_handler on the frame it interrupted" sh -c \
    "grep -Eq '^#0 +in_handler \(calls\)' '$T/stack.3' &&
     grep -Eq '^#[0-9]+ +main \(calls\)' '$T/stack.3'"
  check "a worker thread: its own stack, from where it began" sh -c \
    "grep -Eq '^#0 +work \(calls\)' '$T/stack.4' &&
     grep -Eq '^#1 +worker \(calls\)' '$T/stack.4' &&
     ! grep -q main '$T/stack.4' && grep -q 'where the thread began' '$T/stack.4'"
  check "monitor help lists stack" grep -q 'monitor stack ' "$T/stack.out"
  check "monitor branches 3: the last three taken branches, oldest first" sh -c \
    "grep -A3 '^thread [0-9]* at instruction [0-9]*: its last 3 taken branches' '$T/stack.out' > '$T/ring.out' &&
     [ \$(wc -l < '$T/ring.out') = 4 ] &&
     tail -n 1 '$T/ring.out' | grep -Eq '^  call +0x[0-9a-f]+ <main\+0x[0-9a-f]+> -> 0x[0-9a-f]+ <after_jump\+0x0>$'"
  check "monitor calls dive: the 6 calls, from main then dive" sh -c \
    "[ \$(grep -Ec '^  [0-9]+-[0-9]+ thread [0-9]+: dive\((0x[1-5]|0),.*\(did not return\)' '$T/stack.out') = 6 ] &&
     grep -q '^6 calls; .monitor goto START' '$T/stack.out'"
  check "  and the replay stays where it was" sh -c \
    "grep -A1 '^6 calls; ' '$T/stack.out' | grep -q '^at instruction'"
  check "monitor calls of a function never called" \
    grep -q '^no call of nosuch in the history' "$T/stack.out"
else
  fail=$((fail + 1))
  echo "FAIL: gdb is not installed"
fi

# Mistakes get a clear message and status.
status_of() { "$@" >"$T/st.out" 2>&1; echo $?; }
check_eq "analyze alone: usage" 2 "$(status_of "$REWIND" analyze)"
check_eq "unknown analysis" 2 "$(status_of "$REWIND" analyze nothing)"
check "  names it" grep -q "unknown analysis 'nothing'" "$T/st.out"
check_eq "--top not a number" 2 \
  "$(status_of "$REWIND" analyze profile --top x "$T/calls.rwd")"
check_eq "a trace that is not there" 1 \
  "$(status_of "$REWIND" analyze profile "$T/none.rwd")"
check_eq "a folded file that cannot be written" 1 \
  "$(status_of "$REWIND" analyze profile -q --folded "$T/no/dir/f" "$T/calls.rwd")"
check "  says which" grep -q "cannot write $T/no/dir/f" "$T/st.out"
check "analyze profile --help" sh -c \
  "'$REWIND' analyze profile --help | grep -q 'usage: rewind analyze profile'"

finish
