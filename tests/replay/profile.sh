#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind analyze profile against a program whose calls are known exactly
# (tests/programs/calls.c): call counts, the instructions of a leaf of 5
# instructions, recursion counted once, the stack after a longjmp and in a
# signal handler, threads; totals equal to the replay's own count, in the
# table, its JSON lines, the folded stacks, the SVG flame graph (parsed as
# XML) and the callgrind file (read back with callgrind_annotate); each
# thread's profile adding up to the whole; C++ exceptions and child
# processes; bad arguments;
# gdb's monitor stack against its bt, after a longjmp, in a signal handler
# and in a thread; tail calls; rewind analyze calls, monitor calls,
# rewind analyze edges.
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

# --json: the totals, then one object per function, with the table's
# numbers in the table's order.
"$REWIND" analyze profile --no-progress --top 0 --json "$T/calls.rwd" \
  >"$T/calls.jsonl" 2>"$T/json.err"
check_eq "analyze profile --json exits 0" 0 "$?"
check "--json: every line parses; totals and functions are the table's" \
  python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
head, fns = rows[0], rows[1:]
total = int(sys.argv[3])
assert head["instructions"] == total, head
assert head["threads"] == 5 and head["thread"] is None, head
assert head["command"].endswith("calls"), head
assert head["functions"] == len(fns) > 10, (head, len(fns))
assert sum(f["exclusive"] for f in fns) == total
# The first function of each thread counts as called once, at its start.
assert sum(f["calls"] for f in fns) == head["calls"] + head["threads"]
lines = open(sys.argv[2]).read().splitlines()
assert lines[0].endswith(": %d instructions in 5 threads, %d calls"
                         % (total, head["calls"])), lines[0]
table = [l.split() for l in lines[2:]]
assert [(r[5], int(r[0]), int(r[2]), int(r[4])) for r in table] == \
    [(f["function"], f["inclusive"], f["exclusive"], f["calls"])
     for f in fns]
assert {"function": "leaf5", "file": "calls", "inclusive": 5000,
        "exclusive": 5000, "calls": 1000} in fns
' "$T/calls.jsonl" "$T/calls.table" "$total"
check_eq "--json --top 3: the totals and three functions" 4 \
  "$("$REWIND" analyze profile --no-progress --top 3 --json "$T/calls.rwd" |
     wc -l | tr -d ' ')"

# --thread: one thread's profile. The threads' exclusive counts add up to
# every instruction, and their calls to every call.
tids=$("$REWIND" analyze calls --no-progress --json "$T/calls.rwd" |
       python3 -c 'import json, sys
print(" ".join(map(str, sorted({json.loads(l)["thread"] for l in sys.stdin}))))')
check_eq "five threads made calls" 5 "$(echo $tids | wc -w)"
for t in $tids; do
  "$REWIND" analyze profile --no-progress --top 0 --json --thread "$t" \
    "$T/calls.rwd" >"$T/thread.$t.jsonl" 2>&1
done
check "--thread: each thread's profile; together, every instruction" \
  python3 -c '
import json, sys
total, calls, tids = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split()
excl = ncalls = workers = 0
for t in tids:
    rows = [json.loads(l) for l in open("%s/thread.%s.jsonl" % (sys.argv[4], t))]
    head, fns = rows[0], {r["function"]: r for r in rows[1:]}
    assert head["thread"] == int(t) and head["threads"] == 1, head
    assert sum(r["exclusive"] for r in rows[1:]) == head["instructions"]
    excl += head["instructions"]
    ncalls += head["calls"]
    if "worker" in fns:  # a worker: 100 calls of work, 100 of leaf5
        workers += 1
        assert fns["work"]["calls"] == 100 and "main" not in fns, fns
        assert fns["leaf5"]["inclusive"] == 500, fns["leaf5"]
    else:
        assert fns["main"]["calls"] == 1 and "work" not in fns, fns
        assert fns["leaf5"]["calls"] == 600, fns["leaf5"]
assert workers == 4, workers
assert (excl, ncalls) == (total, calls), (excl, ncalls, total, calls)
' "$total" "$(sed -n 's/.*, \([0-9]*\) calls$/\1/p' "$T/calls.table")" \
  "$tids" "$T"
t=${tids##* }
check "--thread: the header says which thread" grep -Eq \
  "^profile of .*calls, thread $t: [0-9]+ instructions, [0-9]+ calls$" \
  <("$REWIND" analyze profile --no-progress --top 1 --thread "$t" "$T/calls.rwd")
"$REWIND" analyze profile --no-progress --thread 4194305 "$T/calls.rwd" \
  >"$T/nothread.out" 2>&1
check_eq "--thread of a thread not in the trace: exit 1" 1 "$?"
check "  says so and lists the threads" grep -q \
  "no thread 4194305 in $T/calls.rwd (its threads: $(echo $tids | sed 's/ /, /g'))" \
  "$T/nothread.out"

# --svg: a flame graph that parses as XML, whose root level adds up to every
# instruction, with leaf5's call paths and its count in all in tooltips.
"$REWIND" analyze profile -q --no-progress --svg "$T/calls.svg" "$T/calls.rwd"
check_eq "analyze profile --svg exits 0" 0 "$?"
check "--svg: well-formed; the roots add up; leaf5's boxes" python3 -c '
import re, sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
svg, total = ET.parse(sys.argv[1]).getroot(), int(sys.argv[2])
heads = [t.text for t in svg.iter(S + "text") if t.get("class") == "head"]
assert heads[0].startswith("profile of ") and " %d instructions" % total \
    in heads[0], heads
boxes = []
for g in svg.iter(S + "g"):
    r = g.find(S + "rect")
    boxes.append((g.find(S + "title").text, float(r.get("y")),
                  float(r.get("x")), float(r.get("width"))))
count = lambda b: int(re.search(r"(\d+) instructions", b[0]).group(1))
rows = sorted({b[1] for b in boxes}, reverse=True)  # the root at the bottom
root = [b for b in boxes if b[1] == rows[0]]
assert len(root) == 1 and count(root[0]) == total, root
top = [b for b in boxes if b[1] == rows[1]]
assert len(top) >= 2, top  # the main thread, the workers
assert abs(sum(b[3] for b in top) - root[0][3]) < 0.01 * len(top), top
assert sum(count(b) for b in top) == total, top
leaf = [b[0] for b in boxes if b[0].startswith("leaf5 (calls)\n")]
assert all("the function in all: 5000 instructions" in t for t in leaf), leaf
# main calls leaf5 587 times; the workers, through work, 400 times.
assert any("\n2935 instructions on this path" in t for t in leaf), leaf
assert any("\n2000 instructions on this path" in t for t in leaf), leaf
labels = [t.text for t in svg.iter(S + "text") if t.get("class") is None]
assert "main" in labels and "rec" in labels, labels
assert any(l.endswith("..") for l in labels), labels  # cut to fit
assert all(b[3] >= 1180 * 0.001 - 0.01 for b in boxes), "a box too narrow"
' "$T/calls.svg" "$total"
echo "svg of calls.c: $(wc -c <"$T/calls.svg") bytes, $(grep -c '<g>' \
  "$T/calls.svg") boxes"
# Markup and bytes that are not UTF-8 in a name (here the command line)
# are escaped.
rec esc "$P/exitstatus" $'0<a&b>"\xc3\xa9"\xff'
"$REWIND" analyze profile -q --no-progress --svg "$T/esc.svg" "$T/esc.rwd"
check "--svg escapes <, &, > and what is not UTF-8" python3 -c '
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
head = [t.text for t in ET.parse(sys.argv[1]).getroot().iter(S + "text")][0]
assert "exitstatus 0<a&b>\"\u00e9\"?: " in head, head' "$T/esc.svg"

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

# Tail calls (tests/programs/tailcalls.c: top and mid jump on, leaf
# returns 14 for all three): the shadow stack keeps the frames the jumps
# replaced on the machine's stack, marked; libunwind shows the machine's.
rec tail "$P/tailcalls"
check "tailcalls: recorded" grep -qx 14 "$T/tail.out"
"$REWIND" analyze calls --no-progress "$T/tail.rwd" >"$T/tail.calls" 2>&1
check "  top(3), mid(6), leaf(7) each return 14, each from the one before" \
  sh -c "grep -Eq ' top\(0x3, .*\) = 0xe, from main$' '$T/tail.calls' &&
         grep -Eq ' mid\(0x6, .*\) = 0xe, from top$' '$T/tail.calls' &&
         grep -Eq ' leaf\(0x7, .*\) = 0xe, from mid$' '$T/tail.calls'"
cp=$(awk '/ checkpoint\(0x7/ { print $1; exit }' "$T/tail.calls")
"$REWIND" replay --backtrace -g "$cp" "$T/tail.rwd" >"$T/tail.bt" 2>&1
check "  at checkpoint: checkpoint, leaf and mid by a jump, top, main" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
shadow = t.split("call stack of")[1].split("unwound by libunwind")[0]
f = re.findall(r"^#\d+ +(\S+) \(\S+\), entered at its instruction \d+( by a jump)?",
               shadow, re.M)
assert f[:5] == [("checkpoint", ""), ("leaf", " by a jump"),
                 ("mid", " by a jump"), ("top", ""), ("main", "")], f
unw = re.findall(r" in (\w+)\+", t.split("unwound by libunwind")[1])
assert unw[:3] == ["checkpoint", "leaf", "main"], unw' "$T/tail.bt"
"$REWIND" analyze profile --no-progress --top 0 --json "$T/tail.rwd" \
  >"$T/tail.json" 2>&1
check "  the profile: the calls made, top and mid two instructions each" python3 -c '
import json, sys
v = {o["function"]: o for o in map(json.loads, open(sys.argv[1])) if "function" in o}
for f, n in (("top", 1), ("mid", 1), ("ping", 1), ("pong", 999), ("leaf", 2),
             ("checkpoint", 2)):
    assert v[f]["calls"] == n, v[f]
assert v["top"]["exclusive"] == 2 and v["mid"]["exclusive"] == 2, (v["top"], v["mid"])
assert v["top"]["inclusive"] == v["mid"]["inclusive"] + 2, (v["top"], v["mid"])' \
  "$T/tail.json"

cp0=$(awk '/ checkpoint\(0,/ { print $1; exit }' "$T/tail.calls")
"$REWIND" replay --backtrace -g "$cp0" "$T/tail.rwd" >"$T/tail0.bt" 2>&1
check "  after 1000 jumps between ping and pong: checkpoint, leaf, ping, main" \
  python3 -c '
import re, sys
t = open(sys.argv[1]).read()
shadow = t.split("call stack of")[1].split("unwound by libunwind")[0]
f = re.findall(r"^#\d+ +(\S+) \(", shadow, re.M)
assert f[:4] == ["checkpoint", "leaf", "ping", "main"], f' "$T/tail0.bt"

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
# Forked children go on from the fork on their parent's call stack: their
# work is under main, round_of, outer and inner, not in a root frame of
# the fork (tests/programs/kffork).
rec kffork "$P/kffork" 0.05
check_eq "kffork: recorded" 0 "$status"
"$REWIND" analyze profile --json --top 0 --no-progress \
  --folded "$T/kffork.folded" "$T/kffork.rwd" >"$T/kffork.prof.json" 2>&1
check "kffork: main holds the children's work (json)" python3 -c '
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
f = {r["function"]: r for r in rs[1:]}
fib, outer = f["fib"]["inclusive"], f["outer"]["inclusive"]
assert rs[0]["threads"] > 5, rs[0]
# Every fib under main, in the children too; the children compute in
# outer (a quarter of the work of fib; only the forks in the parent).
assert f["main"]["inclusive"] >= fib, (f["main"], fib)
assert outer > fib / 10, (outer, fib)
assert f["main"]["calls"] == 1, f["main"]' "$T/kffork.prof.json"
check "kffork: fib in a child, under inner (folded)" grep -q \
  ";main;round_of;outer;inner;fib;fib " "$T/kffork.folded"
check "-q prints nothing, the files still come" sh -c \
  "[ -z \"\$('$REWIND' analyze profile -q --folded '$T/q.folded' '$T/calls.rwd')\" ] &&
   [ -s '$T/q.folded' ]"

# monitor stack in gdb: the shadow stack at a position, against gdb's bt.
if command -v gdb >/dev/null; then
  cat >"$T/stack.gdb" <<'G'
handle SIGUSR1 nostop noprint
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
check_eq "an SVG file that cannot be written" 1 \
  "$(status_of "$REWIND" analyze profile -q --svg "$T/no/dir/g.svg" "$T/calls.rwd")"
check "  says which" grep -q "cannot write $T/no/dir/g.svg" "$T/st.out"
check_eq "--thread not a number" 2 \
  "$(status_of "$REWIND" analyze profile --thread x "$T/calls.rwd")"
check "--help names --svg, --thread and --json" sh -c \
  "'$REWIND' analyze profile --help >'$T/help.out' &&
   grep -q -- '--svg FILE' '$T/help.out' && grep -q -- '--thread TID' '$T/help.out' &&
   grep -q -- '--json' '$T/help.out'"
check "analyze profile --help" sh -c \
  "'$REWIND' analyze profile --help | grep -q 'usage: rewind analyze profile'"

finish
