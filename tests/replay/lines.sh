#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind analyze counts --lines and monitor counts FILE:N against
# tests/programs/srclines.c, whose lines run a known number of times: the
# counts of a line, how often it was entered, a line inlined into another
# function, every instruction's source line in a listing and in JSON; the
# addresses of a line checked against gdb's own reading of the line
# table; a stripped program whose debug file is found by its build ID;
# and what a user gets wrong (a file that did not run, a bad FILE:N).
. "${top_srcdir:-.}/tests/recorder/lib.sh"

SRC="${top_srcdir:-.}/tests/programs/srclines.c"
# lineof MARKER: the number of the source line with LINE:MARKER.
lineof() { grep -n "/\* LINE:$1 \*/" "$SRC" | cut -d: -f1; }
LB=$(lineof body)
LS=$(lineof scale)
check "the markers are found" test -n "$LB" -a -n "$LS"

rec srclines "$P/srclines"
check "srclines: recorded" test "$status" = 0
check "srclines: ran as expected" grep -q "^srclines ok" "$T/srclines.out"
RC="$T/srclines.rwd"

# summary: the first line's instructions and entries.
summary() {
  sed -n '1s/^\([0-9]*\) instructions.* entered \([0-9]*\) times$/\1 \2/p' \
    "$T/list"
}
# rows: the listing's instruction lines (count first), $T/list.
rows() { grep -E '^ +[0-9]+ +[0-9.]+%  0x' "$T/list"; }

"$REWIND" analyze counts --no-progress --lines "srclines.c:$LB" "$RC" \
  >"$T/list" 2>"$T/err"
check_eq "--lines FILE:N exits 0" 0 "$?"
n=$(rows | wc -l)
n0=$n
check "the body line has instructions" test "$n" -ge 1
check_eq "the body line: each of its instructions ran 17 times" "$n" \
  "$(rows | awk '$1 == 17' | wc -l)"
check_eq "every row names the line" "$n" \
  "$(rows | awk -v l="srclines.c:$LB" '$NF == l' | wc -l)"
check "the summary names the line" \
  grep -q "^[0-9]* instructions in line srclines.c:$LB executed" "$T/list"
check_eq "its instructions are in body" "$n" \
  "$(rows | grep -c ' body+0x[0-9a-f]* (srclines) ')"

# The function's listing: the line's code may be in several pieces (the
# compiler interleaves the loop's increment), each entered once a turn.
"$REWIND" analyze counts --no-progress --function body "$RC" >"$T/body"
pieces=$(awk -v l="srclines.c:$LB" '
  / body\+0x/ { on = $NF == l; if (on && !was) p++; was = on }
  END { print p + 0 }' "$T/body")
check "the line is in body's listing" test "$pieces" -ge 1
check_eq "the body line: 17 times its instructions, entered 17 times a piece" \
  "$((17 * n)) $((17 * pieces))" "$(summary)"

# gdb's reading of the same line table: the line's first range, as
# function offsets; each instruction of body in it must be in the line's
# listing.
gdb -nx -batch -ex "info line srclines.c:$LB" "$P/srclines" >"$T/gdbline" 2>&1
s=$(sed -n 's/.*starts at address 0x[0-9a-f]* <body+\([0-9]*\)>.*/\1/p' "$T/gdbline")
e=$(sed -n 's/.*and ends at 0x[0-9a-f]* <body+\([0-9]*\)>.*/\1/p' "$T/gdbline")
check "gdb gives the line's range in body" test -n "$s" -a -n "$e"
check "the instructions in gdb's range are the line's" python3 -c '
import sys
s, e = int(sys.argv[1]), int(sys.argv[2])
def offs(path):
    r = set()
    for l in open(path):
        f = l.split()
        if len(f) > 3 and f[-3].startswith("body+0x"):
            r.add(int(f[-3][5:], 16))
    return r
want = {o for o in offs(sys.argv[3]) if s <= o < e}
have = offs(sys.argv[4])
assert want and want <= have, (want, have)' "$s" "$e" "$T/body" "$T/list"
check "the function listing shows source lines" \
  grep -q "  srclines.c:$LB\$" "$T/body"

# A range of lines: the whole loop (the for line before the body line).
"$REWIND" analyze counts --no-progress --lines "srclines.c:$((LB - 1))-$((LB + 1))" \
  "$RC" >"$T/list" 2>"$T/err"
check "a line range: entered twice (two calls of body)" \
  grep -q "^[0-9]* instructions in lines srclines.c:$((LB - 1))-$((LB + 1)) executed.*entered 2 times$" \
  "$T/list"
check "a line range: the loop's conditional jump, 17 times" \
  sh -c "grep -E '^ +17 .* j(ne|nz|l|le|g|ge|b|a) ' '$T/list'"

# A function inlined into main: the line's code is in main.
"$REWIND" analyze counts --no-progress --lines "programs/srclines.c:$LS" \
  "$RC" >"$T/list" 2>"$T/err"
n=$(rows | wc -l)
check "the inlined line has instructions" test "$n" -ge 1
check_eq "the inlined line: all in main" "$n" \
  "$(rows | grep -c ' main+0x[0-9a-f]* (srclines) ')"
check_eq "the inlined line: each instruction 5 times" "$n" \
  "$(rows | awk '$1 == 5' | wc -l)"
check "a path's last components select the file" test "$n" -gt 0

# JSON: the selection and each instruction's source line.
"$REWIND" analyze counts --no-progress --json --lines "srclines.c:$LB" \
  "$RC" >"$T/json"
check "--json: the selection" \
  grep -q "\"lines\":{\"source\":\"srclines.c\",\"from\":$LB,\"to\":$LB}" \
  "$T/json"
check "--json: each row's source and line" \
  grep -q "\"source\":\"[^\"]*/srclines.c\",\"line\":$LB," "$T/json"
check "--json: every line parses" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows[0]["entered"] % 17 == 0, rows[0]
assert all(r["count"] == 17 for r in rows[1:]), rows
' "$T/json"

# A stripped program: its line tables from the debug file, found by the
# build ID under $REWIND_DEBUG_DIR.
id=$(readelf -n "$P/srclines" | awk '/Build ID/ { print $3 }')
check "srclines has a build ID" test -n "$id"
cp "$P/srclines" "$T/stripped"
objcopy --only-keep-debug "$P/srclines" "$T/srclines.debug"
strip --strip-debug "$T/stripped"
mkdir -p "$T/dbg/.build-id/${id:0:2}"
mv "$T/srclines.debug" "$T/dbg/.build-id/${id:0:2}/${id:2}.debug"
rec stripped "$T/stripped"
check "stripped: recorded" test "$status" = 0
REWIND_DEBUG_DIR=/nonexistent "$REWIND" analyze counts --no-progress \
  --lines "srclines.c:$LB" "$T/stripped.rwd" >"$T/out" 2>&1
check_eq "stripped, no debug file: exit 1" 1 "$?"
check "stripped, no debug file: says why" grep -q 'build it with -g' "$T/out"
REWIND_DEBUG_DIR="/nonexistent:$T/dbg" "$REWIND" analyze counts \
  --no-progress --lines "srclines.c:$LB" "$T/stripped.rwd" >"$T/list" 2>&1
check_eq "stripped, with its debug file: the same counts" \
  "$((17 * n0)) $((17 * pieces))" "$(summary)"

# A file that does not match: not a suffix at a path component.
"$REWIND" analyze counts --no-progress --lines "lines.c:$LB" "$RC" \
  >"$T/out" 2>&1
check_eq "lines.c is not srclines.c: exit 1" 1 "$?"
check "lines.c is not srclines.c: says which file" \
  grep -q "no code that ran comes from a source file 'lines.c'" "$T/out"
for bad in srclines.c srclines.c:0 srclines.c:9-3 :5 srclines.c:x \
  srclines.c:4-; do
  "$REWIND" analyze counts --no-progress --lines "$bad" "$RC" >"$T/out" 2>&1
  check_eq "--lines $bad: usage error" 2 "$?"
  check "--lines $bad: says why" grep -q -- '--lines takes FILE:N' "$T/out"
done

# monitor counts FILE:N in gdb.
cat >"$T/gdbcmds" <<EOF2
target remote | $REWIND serve --stdio $RC
monitor counts srclines.c:$LB
monitor counts nosuch.c:3
monitor counts srclines.c:0
EOF2
timeout 120 gdb -nx -batch -x "$T/gdbcmds" >"$T/gdb.out" 2>&1
check "monitor counts FILE:N: the summary" \
  grep -q "^$((17 * n0)) instructions in line srclines.c:$LB executed.*entered $((17 * pieces)) times" \
  "$T/gdb.out"
check "monitor counts FILE:N: a file that did not run" \
  grep -q "no code that ran comes from a source file 'nosuch.c'" "$T/gdb.out"
check "monitor counts FILE:0: usage" \
  grep -q 'usage: monitor counts \[FUNCTION|FILE:N\[-M\]\]' "$T/gdb.out"

finish
