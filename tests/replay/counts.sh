#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind analyze counts, marks and accesses against programs whose instruction
# executions and data accesses are known exactly (tests/programs/counts.c,
# calls.c, reps.c, datapat.c): per-instruction
# counts of whole functions, how often they were entered, kinds and
# opcodes, a loop interrupted by signals, a function run by two processes,
# one thread alone, --json, monitor counts in gdb; the counts checked
# against the profile's and the rep list's, which come from other
# observers; and bad arguments.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

rec counts "$P/counts"
check "counts: recorded" test "$status" = 0
check "counts: ran as expected" grep -q "^counts ok .* 1 child ok" \
  "$T/counts.out"
RC="$T/counts.rwd"

# line FUNCTION OFFSET: the count on the listing line of FUNCTION+OFFSET
# (before its file, and its source line when the file has line tables).
line() {
  awk -v w="$1+$2" '$(NF - 1) == w || ($(NF - 2) == w && $NF ~ /:[0-9]+$/) {
    print $1 }' "$T/list"
}
# summary: the first line's instructions and entries.
summary() {
  sed -n '1s/^\([0-9]*\) instructions.* entered \([0-9]*\) times$/\1 \2/p' \
    "$T/list"
}

"$REWIND" analyze counts --no-progress --function trip13 "$RC" >"$T/list" \
  2>"$T/err"
check_eq "analyze counts --function exits 0" 0 "$?"
check_eq "trip13: 7 calls of 1 + 13*2 + 1 instructions, entered 7 times" \
  "196 7" "$(summary)"
check_eq "trip13: mov once per call" 7 "$(line trip13 0x0)"
check_eq "trip13: dec 13 times per call" 91 "$(line trip13 0x5)"
check_eq "trip13: jnz 13 times per call" 91 "$(line trip13 0x7)"
check_eq "trip13: ret once per call" 7 "$(line trip13 0x9)"
check "trip13: the listing disassembles" grep -q 'dec  *ecx' "$T/list"
check "trip13: the kinds line counts 91 conditional branches" \
  grep -q '^by kind in function trip13: 91 branches (91 conditional), 0 calls, 7 returns' \
  "$T/list"
check "trip13: nothing unplaced" sh -c "! grep -q 'could not be placed' '$T/list'"

"$REWIND" analyze counts --no-progress --function mul5 "$RC" >"$T/list" 2>&1
check_eq "mul5: 11 calls of 7 instructions" "77 11" "$(summary)"
for off in 0x3 0x7 0xb 0xf 0x13; do
  check_eq "mul5: imul at +$off 11 times" 11 "$(line mul5 $off)"
done
"$REWIND" analyze counts --no-progress --function mul5 \
  --type opcode:0x0faf "$RC" >"$T/list" 2>&1
check_eq "mul5: --type opcode:0x0faf counts the imuls alone" 55 \
  "$(sed -n '1s/^\([0-9]*\) instructions.*/\1/p' "$T/list")"
check_eq "mul5: --type opcode lists the imuls alone" 5 \
  "$(grep -c 'imul' "$T/list")"
"$REWIND" analyze counts --no-progress --function mul5 \
  --type opcode:0x0f00/0xff00 "$RC" >"$T/list" 2>&1
check_eq "mul5: an opcode mask (any 0f xx)" 55 \
  "$(sed -n '1s/^\([0-9]*\) instructions.*/\1/p' "$T/list")"

"$REWIND" analyze counts --no-progress --function loads --type memory \
  "$RC" >"$T/list" 2>&1
# 4 loads, 2 stores and the ret's pop, 9 times; not the lea.
check_eq "loads: --type memory: 7 of its 8 instructions, 9 times" 63 \
  "$(sed -n '1s/^\([0-9]*\) instructions.*/\1/p' "$T/list")"
check "loads: lea is no memory access" sh -c "! grep -q 'lea ' '$T/list'"

"$REWIND" analyze counts --no-progress --function spin "$RC" >"$T/list" 2>&1
signals=$("$REWIND" info "$RC" | awk '$1 == "SIGNAL" { print $2 }')
check "spin: signals arrived while it ran" test "${signals:-0}" -gt 0
for off in 0x0 0x4 0x7 0xb; do
  check_eq "spin: +$off exactly 30000000 times, signals or not" 30000000 \
    "$(line spin $off)"
done
# Entered by its call and by each return from a handler that interrupted
# it (a tick may also land just before or after it).
read -r n entered <<<"$(summary)"
check_eq "spin: 4 instructions a turn and its ret" 120000001 "${n:-x}"
check "spin: entered again after the handlers that interrupted it" \
  test "${entered:-0}" -ge 2 -a "${entered:-0}" -le "$((signals + 1))"

"$REWIND" analyze counts --no-progress --function twice "$RC" >"$T/list" 2>&1
check_eq "twice: 5 calls in each of two processes, added up" "40 10" \
  "$(summary)"

# Ranges and files select the same code.
"$REWIND" analyze counts --no-progress --function trip13 --json "$RC" \
  >"$T/json" 2>&1
check_eq "--json exits 0" 0 "$?"
start=$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(min(r["address"] for r in rows[1:]))' "$T/json")
"$REWIND" analyze counts --no-progress --range "$start+10" "$RC" \
  >"$T/list" 2>&1
check_eq "--range START+LEN selects trip13" "196 7" "$(summary)"
"$REWIND" analyze counts --no-progress \
  --range "$start-$(printf '%#x' $((start + 5)))" "$RC" >"$T/list" 2>&1
check_eq "--range START-END: its mov alone, entered by each call" "7 7" \
  "$(summary)"
"$REWIND" analyze counts --no-progress --object counts --type ret \
  --top 0 "$RC" >"$T/list" 2>&1
check "--object: the program's own returns include trip13's" \
  awk '$(NF - 1) == "trip13+0x9" && $1 == 7 { f = 1 } END { exit !f }' \
  "$T/list"
check "--object: no other file's code" \
  sh -c "! grep -q 'libc.so' '$T/list'"

check "--json: a summary, then rows that add up to it" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s = rows[0]
assert s["command"] == "counts" and s["function"] == "trip13", s
assert s["instructions"] == 196 and s["entered"] == 7, s
assert s["unplaced"] == 0 and s["rows"] == 4, s
assert s["branch"] == 91 and s["conditional"] == 91 and s["ret"] == 7, s
assert sum(r["count"] for r in rows[1:]) == 196, rows
assert [r["offset"] for r in rows[1:]] == [0, 5, 7, 9], rows
assert rows[2]["instruction"] == "dec ecx" and rows[2]["count"] == 91
assert rows[3]["kinds"] == ["branch"], rows[3]
assert rows[4]["kinds"] == ["ret", "memory"], rows[4]
' "$T/json"

# The whole history: every instruction placed; the rows add up to the
# total; the most run first.
"$REWIND" analyze counts --no-progress --top 0 --json "$RC" >"$T/json" 2>&1
check "whole history: rows add up, nothing unplaced, most run first" \
  python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s = rows[0]
assert s["unplaced"] == 0, s
assert s["instructions"] == s["history_instructions"], s
assert sum(r["count"] for r in rows[1:]) == s["instructions"], s
c = [r["count"] for r in rows[1:]]
assert c == sorted(c, reverse=True)
' "$T/json"

# Against the other observers: the profile's exclusive instructions of a
# leaf function, and the rep list's executions.
rec calls "$P/calls"
check "calls: recorded" test "$status" = 0
"$REWIND" analyze profile --no-progress --top 0 "$T/calls.rwd" \
  >"$T/prof" 2>&1
"$REWIND" analyze counts --no-progress --function leaf5 "$T/calls.rwd" \
  >"$T/list" 2>&1
check_eq "calls: leaf5 as the profile counts it (5 x 1000), entered 1000" \
  "$(awk '$6 == "leaf5" { print $3 }' "$T/prof") 1000" "$(summary)"
for off in 0x0 0x1 0x2 0x3 0x4; do
  check_eq "calls: leaf5+$off 1000 times, in 5 threads" 1000 \
    "$(line leaf5 $off)"
done
# A function by another of its names: glibc's malloc is __libc_malloc.
"$REWIND" analyze counts --no-progress --function malloc "$T/calls.rwd" \
  >"$T/list" 2>&1
check "calls: --function malloc finds it under any of its names" \
  grep -q '^[1-9][0-9]* instructions in function malloc executed' "$T/list"
"$REWIND" analyze counts --no-progress --function loop100 "$T/calls.rwd" \
  >"$T/list" 2>&1
check_eq "calls: loop100's dec 100 times per call" 300 "$(line loop100 0x5)"
tid=$("$REWIND" info "$T/calls.rwd" | sed -n 's/^threads: *[0-9]* (\([0-9]*\) \([0-9]*\).*/\2/p')
"$REWIND" analyze counts --no-progress --thread "$tid" --function work \
  "$T/calls.rwd" >"$T/list" 2>&1
check_eq "--thread: one worker's 100 calls of work" 100 "$(line work 0x0)"
# Entered by each call, and by each return into it from leaf5.
check_eq "--thread: work entered 200 times" 200 \
  "$(sed -n '1s/.* entered \([0-9]*\) times$/\1/p' "$T/list")"
check "--thread: said in the summary" grep -q "of thread $tid)" "$T/list"

rec reps "$P/reps"
"$REWIND" analyze rep --no-progress --top 0 --json "$T/reps.rwd" \
  >"$T/reps.json" 2>&1
"$REWIND" analyze counts --no-progress --type rep --top 0 --json \
  "$T/reps.rwd" >"$T/json" 2>&1
check "reps: rep executions as analyze rep counts them" python3 -c '
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1])]
rows = [json.loads(l) for l in open(sys.argv[2])]
assert rows[0]["unplaced"] == 0, rows[0]
assert rows[0]["instructions"] == sum(r["executions"] for r in reps), \
    (rows[0], reps)
assert all("rep" in r["kinds"] for r in rows[1:]), rows
' "$T/reps.json" "$T/json"

# In gdb, at any position.
cat >"$T/gdbcmds" <<EOF
target remote | $REWIND serve --stdio $RC
break main
continue
monitor counts mul5
monitor counts nosuchfunction
monitor counts a b
monitor when
EOF
timeout 120 gdb -nx -batch -x "$T/gdbcmds" >"$T/gdb.out" 2>&1
check "monitor counts F: the listing" \
  grep -q '^77 instructions in function mul5 executed.*entered 11 times' \
  "$T/gdb.out"
check "monitor counts F: imul lines" \
  grep -q '^ *11 .*imul' "$T/gdb.out"
check "monitor counts: an unknown function counts nothing" \
  grep -q '^0 instructions in function nosuchfunction' "$T/gdb.out"
check "monitor counts: usage for two words" \
  grep -q 'usage: monitor counts \[FUNCTION|FILE:N\[-M\]\]' "$T/gdb.out"
check "monitor counts: back where it was" grep -q 'main () at\|^at instruction' \
  "$T/gdb.out"

# analyze marks: executions, call paths, counting windows, a marks file.
"$REWIND" analyze marks --no-progress --mark trip13:stack,start \
  --mark trip13+9:end --mark mul5+3:every=2 --mark spin+4 "$RC" \
  >"$T/marks" 2>&1
check_eq "analyze marks exits 0" 0 "$?"
check "marks: trip13's entry 7 times, all in windows" \
  grep -q '^mark 1, trip13:stack,start: 7 executions, 7 inside counting windows$' \
  "$T/marks"
check "marks: trip13's entry ran from main, 7 times" \
  grep -q '^  *7  .*;main;trip13$' "$T/marks"
check "marks: every=2 of mul5's 11 executions takes 5 call paths" \
  grep -q '^  *5  .*;main;mul5$' "$T/marks"
check "marks: spin+4 30000000 times, signals or not" \
  grep -q '^mark 4, spin+4: 30000000 executions, 0 inside' "$T/marks"
check "marks: 7 windows of 28 instructions (mov, 13 dec and jnz, ret)" \
  grep -q '^counting windows .*: 7, 196 instructions in all; fewest 28, most 28, mean 28.0$' \
  "$T/marks"
vaddr=$(nm "$P/counts" | awk '$3 == "mul5" { print "0x" $1 }')
cat >"$T/marks.txt" <<EOF
# mul5 by the program's own addresses, as nm shows them
counts $vaddr 24 start
counts $(printf '%#x' $((vaddr + 0x17))) 1 end
EOF
"$REWIND" analyze marks --no-progress --marks "$T/marks.txt" --json "$RC" \
  >"$T/json" 2>&1
check_eq "analyze marks --marks exits 0" 0 "$?"
check "marks file: mul5's 7 instructions 11 times, windows of 7" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
m = [r for r in rows if r["kind"] == "mark"]
w = [r for r in rows if r["kind"] == "windows"][0]
assert m[0]["executions"] == 77 and m[0]["in_windows"] == 77, m
assert m[1]["executions"] == 11, m
assert (w["windows"], w["instructions"], w["min"], w["max"]) == \
    (11, 77, 7, 7), w
' "$T/json"
printf 'counts 0x10\n' >"$T/bad.txt"
"$REWIND" analyze marks --no-progress --marks "$T/bad.txt" "$RC" \
  >"$T/out" 2>&1
check_eq "a bad marks file line: exit 2" 2 "$?"
check "a bad marks file line: names the line" grep -q 'bad.txt:1:' "$T/out"
for bad in "--mark trip13:bogus" "--mark 0x10+0" "--mark @5" \
  "--mark trip13:every=0"; do
  # shellcheck disable=SC2086
  "$REWIND" analyze marks --no-progress $bad "$RC" >"$T/out" 2>&1
  check_eq "analyze marks $bad: exit 2" 2 "$?"
done
"$REWIND" analyze marks --no-progress "$RC" >"$T/out" 2>&1
check_eq "analyze marks without marks: exit 2" 2 "$?"
cat >"$T/gdbcmds" <<EOF
target remote | $REWIND serve --stdio $RC
break main
continue
monitor mark trip13:stack mul5+3
monitor mark trip13:nonsense
EOF
timeout 120 gdb -nx -batch -x "$T/gdbcmds" >"$T/gdb.out" 2>&1
check "monitor mark: the executions" \
  grep -q '^mark 2, mul5+3: 11 executions' "$T/gdb.out"
check "monitor mark: the call paths" grep -q '^  *7  .*;main;trip13$' \
  "$T/gdb.out"
check "monitor mark: a bad flag says why" \
  grep -q "unknown mark flag 'nonsense'" "$T/gdb.out"

# Stop marks: continue and reverse-continue stop at any instruction of the
# range. First mul5+3, under a gdb breakpoint at first (gdb's is reported),
# then alone, once per call to the end; then all of loads (its
# instructions' offsets as objdump gives them), backwards from the end.
lv=$(nm -S "$P/counts" | awk '$4 == "loads" { print "0x" $1, "0x" $2 }')
read -r lvaddr lsize <<<"$lv"
loffs=$(objdump -d "$P/counts" | awk -v s="$((lvaddr))" '
  /<loads>:/ { f = 1; next } f && /^$/ { exit }
  f { a = $1; sub(":", "", a); printf "%d\n", ("0x" a) - s }' 2>/dev/null)
{
  echo "target remote | $REWIND serve --stdio $RC"
  echo "break main"
  echo "continue"
  echo "monitor mark mul5+3:stop"
  echo "monitor mark list"
  echo "break *(&mul5 + 3)"
  echo "continue"
  echo "delete 2"
  for _ in $(seq 11); do echo "continue"; done
  echo "monitor mark delete 1"
  echo "monitor mark counts@$lvaddr+$((lsize)):stop"
  echo "reverse-continue"
  echo "info symbol \$pc"
  echo "reverse-continue"
  echo "info symbol \$pc"
  echo "continue"
  echo "info symbol \$pc"
  echo "monitor mark trip13:stop,stack"
  echo "monitor mark delete 9"
} >"$T/gdbcmds"
timeout 300 gdb -nx -batch -x "$T/gdbcmds" >"$T/gdb.out" 2>&1
check "stop mark: set on mul5+3" \
  grep -q '^stop mark 1: mul5+3:stop, \[0x[0-9a-f]*, 0x[0-9a-f]*): continue' \
  "$T/gdb.out"
check "stop mark: listed" grep -q '^stop mark 1: .* of process [0-9]*$' \
  "$T/gdb.out"
check "stop mark: gdb's breakpoint at the same place is gdb's" \
  grep -q '^Breakpoint 2, 0x[0-9a-f]* in mul5 ()' "$T/gdb.out"
check_eq "stop mark: then once per call of mul5, 10 more" 10 \
  "$(grep -c '^rewind: stop mark 1 (mul5+3:stop) at 0x[0-9a-f]*, mul5+0x3$' \
     "$T/gdb.out")"
check "stop mark: then the end of the history" \
  grep -q 'No more reverse-execution history' "$T/gdb.out"
check "stop mark: loads's instructions known" test "$(echo "$loffs" | wc -l)" = 8
last=$(echo "$loffs" | tail -1)
prev=$(echo "$loffs" | tail -2 | head -1)
check "stop mark: set on loads by its file's addresses" \
  grep -q "^stop mark 2: counts@$lvaddr+$((lsize)):stop, \[0x" "$T/gdb.out"
check_eq "stop mark: backwards, loads's last instruction, then the one before, then forwards again" \
  "loads + $last,loads + $prev,loads + $last" \
  "$(grep -o '^loads[ +0-9]* in section' "$T/gdb.out" |
     sed 's/ in section//' | paste -sd,)"
check "stop mark: said on the console" \
  grep -q "^rewind: stop mark 2 (counts@.*) at 0x[0-9a-f]*, loads+$(printf '%#x' "$prev")\$" \
  "$T/gdb.out"
check "stop mark: no other flag" \
  grep -q "mark 'trip13:stop,stack': stop takes no other flag" "$T/gdb.out"
check "stop mark: deleting one that is not there" \
  grep -q '^no stop mark 9 ' "$T/gdb.out"
"$REWIND" analyze marks --no-progress --mark mul5:stop "$RC" >"$T/out" 2>&1
check_eq "analyze marks with a stop mark: exit 2" 2 "$?"
check "analyze marks with a stop mark: says where they work" \
  grep -q 'a stop mark stops gdb' "$T/out"

# analyze accesses: a buffer accessed in a known pattern (datapat.c).
rec datapat "$P/datapat"
check "datapat: recorded" test "$status" = 0
buf=$(sed -n 's/^buf at //p' "$T/datapat.out")
check "datapat: says where its buffer is" test -n "$buf"
"$REWIND" analyze accesses --no-progress "$T/datapat.rwd" "$buf" 128 \
  >"$T/acc" 2>&1
check_eq "analyze accesses exits 0" 0 "$?"
check "accesses: the totals" grep -q '^15 reads (8 unaligned), 42 writes (0 unaligned), 3 crossing a cache line; by 5 instructions in 1 thread$' \
  "$T/acc"
check "accesses: by size" \
  grep -q '^by size: 1 byte: 39, 4 bytes: 5, 8 bytes: 10, 16 bytes: 3$' \
  "$T/acc"
# granule OFFSET: reads writes unaligned of that 8-byte granule.
granule() {
  awk -v o="$1" '$1 "" == o "" { print $3, $4, $5 }' "$T/acc"
}
check_eq "accesses: granule 0, st8's writes and ld4's first half" \
  "5 10 5" "$(granule +0x0)"
check_eq "accesses: granule 8, ld4's second half" "5 0 5" "$(granule +0x8)"
check_eq "accesses: granule 0x38, ld16's first bytes" "3 0 3" \
  "$(granule +0x38)"
check_eq "accesses: granule 0x40, ld16's end and 8 of rep stosb's bytes" \
  "3 8 3" "$(granule +0x40)"
check_eq "accesses: granule 0x58, rep stosb alone" "0 8 0" "$(granule +0x58)"
check_eq "accesses: granule 0x78, ld1" "7 0 0" "$(granule +0x78)"
check_eq "accesses: granules no one touched left out" "" "$(granule +0x60)"
check "accesses: fill32's rep stosb made 32 writes" \
  grep -q '^ *0 *32 .* fill32+0xb (datapat)$' "$T/acc"
"$REWIND" analyze accesses --no-progress --granule 64 --all --json \
  "$T/datapat.rwd" "$buf" 128 >"$T/json" 2>&1
check "accesses --granule 64 --all --json" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s = rows[0]
assert (s["reads"], s["writes"], s["line_splits"]) == (15, 42, 3), s
g = [r for r in rows if r.get("kind") == "granule"]
assert [(r["offset"], r["reads"], r["writes"]) for r in g] == \
    [(0, 8, 10), (64, 10, 32)], g
w = {r["where"]: (r["reads"], r["writes"]) for r in rows
     if r.get("kind") == "instruction"}
assert w["ld4+0x0 (datapat)"] == (5, 0) and w["st8+0x0 (datapat)"] == (0, 10)
' "$T/json"
"$REWIND" analyze accesses --no-progress --stacks "$T/datapat.rwd" "$buf" \
  128 >"$T/acc" 2>&1
check "accesses --stacks: fill32's 32 writes on its call path" \
  grep -q '^ *0 *32  .*;main;fill32$' "$T/acc"
check "accesses --stacks: ld4's 5 reads on its call path" \
  grep -q '^ *5 *0  .*;main;ld4$' "$T/acc"
"$REWIND" analyze accesses --no-progress "$T/datapat.rwd" "$buf" \
  >"$T/acc" 2>&1
check "accesses: LEN 8 by default" grep -q \
  '^5 reads (5 unaligned), 10 writes (0 unaligned), 0 crossing' "$T/acc"
for bad in "--granule 3" "--granule 8192" "--top x"; do
  # shellcheck disable=SC2086
  "$REWIND" analyze accesses --no-progress $bad "$T/datapat.rwd" "$buf" \
    >"$T/out" 2>&1
  check_eq "analyze accesses $bad: exit 2" 2 "$?"
done
"$REWIND" analyze accesses --no-progress "$T/datapat.rwd" "$buf" 0 \
  >"$T/out" 2>&1
check_eq "analyze accesses LEN 0: exit 2" 2 "$?"
"$REWIND" analyze accesses --no-progress "$T/datapat.rwd" "$buf" 0x2000000 \
  >"$T/out" 2>&1
check_eq "analyze accesses, too many granules: exit 2" 2 "$?"
check "analyze accesses, too many granules: says to take larger ones" \
  grep -q 'give a larger --granule' "$T/out"
"$REWIND" analyze accesses --no-progress "$T/datapat.rwd" >"$T/out" 2>&1
check_eq "analyze accesses without ADDR: exit 2" 2 "$?"
cat >"$T/gdbcmds" <<EOF
target remote | $REWIND serve --stdio $T/datapat.rwd
break main
continue
monitor accesses $buf 16
monitor accesses nothing
EOF
timeout 120 gdb -nx -batch -x "$T/gdbcmds" >"$T/gdb.out" 2>&1
check "monitor accesses: the totals" grep -q \
  '^5 reads (5 unaligned), 10 writes (0 unaligned)' "$T/gdb.out"
check "monitor accesses: usage" grep -q 'usage: monitor accesses ADDR' \
  "$T/gdb.out"

# Code patched in place: the recorder turns glibc's read syscall site into
# a jump to its syscall buffer after the first call. Each version of the
# bytes is a row with its own executions: 1 syscall, then 999 jumps.
"$REWIND" record -q -f -o "$T/dd.rwd" -- dd if=/dev/zero of=/dev/null bs=1 \
  count=1000 >/dev/null 2>&1
check_eq "dd: recorded" 0 "$?"
"$REWIND" analyze counts --no-progress --function read --json "$T/dd.rwd" \
  >"$T/dd.json" 2>&1
check "dd: read's syscall once, then a jump 999 times, at one address" \
  python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if "\"address\"" in l]
by = {}
for r in rows:
    by.setdefault(r["address"], []).append((r["instruction"].split()[0],
                                            r["count"]))
sys.exit(not any(sorted(v) == [("jmp", 999), ("syscall", 1)]
                 for v in by.values()))' "$T/dd.json"

# Threads that wait in the same futex syscall, released together: the
# first one back has the recorder patch the site, and the replay runs the
# others up to it after the patch. Their runs are the code they ran, also
# where no instruction decoded before the patch is known, as in a piece
# of analyze -j that began after it (the file's bytes then: CI once
# counted 1 wait of 3 in pieces, 12 instructions unplaced).
"$REWIND" record -q -f -o "$T/wait.rwd" -- \
  "$top_builddir/tests/replay/thr_wait" >"$T/wait.out" 2>&1
check_eq "wait: recorded" 0 "$?"
"$REWIND" analyze counts --json --top 0 --no-progress --function \
  pthread_barrier_wait "$T/wait.rwd" 2>&1 | sort >"$T/wait.known"
REWIND_TEST_FORGET_CODE=1 "$REWIND" analyze counts --json --top 0 \
  --no-progress --function pthread_barrier_wait "$T/wait.rwd" 2>&1 |
  sort >"$T/wait.file"
check "wait: the 3 futex waits counted, none unplaced" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(not (rows[-1]["unplaced"] == 0 and
              any(r.get("instruction") == "syscall" and r["count"] >= 3
                  for r in rows)))' "$T/wait.known"
check "wait: placed from the file as from the code seen before" \
  cmp "$T/wait.known" "$T/wait.file"

# A site patched while another thread waits in its syscall (tests/
# programs/sitewait.c): that thread ran the `syscall` there, its later
# reads the jump the site became, and the runs of both are the same
# length from the same place. The `syscall` in __read is counted once
# per read the trace has entering there (2, or 1 if the second thread was
# too slow to wait before the patch), all that ran at its address once
# per read (42), whole and in pieces. (The counter took the one for
# the other: the waiting thread's syscall counted as the jump, or its
# later jumps as the syscall.)
"$REWIND" record -q -f -o "$T/site.rwd" --keyframes 0.02 -- \
  "$P/sitewait" >"$T/site.out" 2>&1
check_eq "site: recorded" 0 "$?"
check "site: each thread read its bytes" grep -q "^sitewait: 21 21$" \
  "$T/site.out"
"$REWIND" analyze counts --json --top 0 --no-progress --function __read \
  "$T/site.rwd" 2>"$T/site.err" | sort >"$T/site.whole"
"$REWIND" dump --json "$T/site.rwd" >"$T/site.json" 2>/dev/null
check "site: the syscall counted as often as the trace enters it" \
  python3 - "$T/site.whole" "$T/site.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if "address" in r]
sc = [r for r in rows if r["instruction"] == "syscall" and r["count"]]
assert len(sc) == 1, sc
at = sc[0]["address"]
enters = sum(1 for l in open(sys.argv[2])
             for r in [json.loads(l)]
             if r["type"] == "SYSCALL_ENTER" and r.get("syscall") == "read"
             and int(r["regs"]["rip"], 16) == at + 2)
there = sum(r["count"] for r in rows if r["address"] == at)
print("syscall", sc[0]["count"], "enters", enters, "at its address", there)
assert sc[0]["count"] == enters >= 1 and there == 42
PY
"$REWIND" analyze counts -j 2 --json --top 0 --no-progress --function \
  __read "$T/site.rwd" 2>"$T/site.err" | sort >"$T/site.j"
check "site: the counts in pieces are the whole's" \
  cmp "$T/site.whole" "$T/site.j"

# Bad arguments: usage errors, exit 2.
for bad in "--type bogus" "--type opcode:xyz" "--type opcode:0x1/0x2" \
  "--range 5-3" "--range 0x10+0" "--range abc" "--thread 0" "--top x"; do
  # shellcheck disable=SC2086
  "$REWIND" analyze counts --no-progress $bad "$RC" >"$T/out" 2>&1
  check_eq "analyze counts $bad: exit 2" 2 "$?"
  check "analyze counts $bad: says why" grep -q 'analyze counts' "$T/out"
done
"$REWIND" analyze counts --no-progress --function nosuch "$RC" \
  >"$T/out" 2>"$T/err"
check_eq "a function that never ran: exit 0" 0 "$?"
check "a function that never ran: says so" grep -q 'no instruction of the selection ran' \
  "$T/err"
"$REWIND" analyze counts --no-progress "$T/nonexistent.rwd" >"$T/out" 2>&1
check "a missing trace: non-zero exit" test "$?" -ne 0
"$REWIND" analyze counts --help >"$T/out" 2>&1
check "--help describes --function" grep -q -- '--function NAME' "$T/out"

finish
