#!/bin/bash
# SPDX-License-Identifier: MIT
# The flight recorder (rewind record --ring, recorder/ring.c): a recording
# that keeps only its last SIZE of history, as segments each beginning at a
# keyframe, joined into one trace at the end (format/join.c). The trace
# must stay near its size, begin at a keyframe, verify whole and in
# pieces, and be debuggable; a recorder killed meanwhile leaves segments
# that rewind join turns into a trace verified up to the cut.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# has PATTERN FILE: grep -q, showing FILE when PATTERN is not there.
has() {
  grep -q -- "$1" "$2" || { cut -c1-400 "$2"; false; }
}

# --- a ring of 1 MiB over a program that writes more --------------------
"$REWIND" record -f -o "$T/ring.rwd" --ring 1M -- "$P/kfwork" 4 \
  $(san_or "" light) \
  >"$T/ring.out" 2>"$T/ring.err"
check_eq "ring: recorded" 0 "$?"
check "ring: the program's output" grep -q "^kfwork: 1 1 1 1$" "$T/ring.out"
check "ring: says what it kept and dropped" has \
  "ring: the last [0-9]* segments kept, [1-9][0-9]* dropped ([0-9.]* MiB)" \
  "$T/ring.err"
check "ring: the segments' directory is gone" test ! -e "$T/ring.rwd.ring"
size=$(stat -c %s "$T/ring.rwd")
check "ring: the trace stays under its size and a keyframe ($size bytes)" \
  test "$size" -le $((5 * 1024 * 1024))
"$REWIND" info "$T/ring.rwd" >"$T/ring.info" 2>&1
check "ring: begins after the program did, at a keyframe" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
r = re.search(r"records: +\d+ \(seq (\d+)\.\.", t)
k = re.search(r"keyframes: +\d+ \(seq (\d+)\.\.", t)
assert r and k and int(r.group(1)) > 1 and r.group(1) == k.group(1), t' \
  "$T/ring.info"
"$REWIND" replay --verify --no-progress "$T/ring.rwd" >"$T/ring.v" 2>&1
st=$?
check_eq "ring: verifies" 0 "$st"
ring_st=$st
check "ring: to the program's end" has \
  "memory at the end checked.*the program exited with status 0" "$T/ring.v"
"$REWIND" replay --verify -j 2 "$T/ring.rwd" >"$T/ring.j" 2>&1
check_eq "ring: verifies in pieces" 0 "$?"
check "ring: the pieces add up to the whole" python3 -c '
import re, sys
a = re.search(r"verified: (\d+) instructions in \d+ segments.*?, (\d+) events",
              open(sys.argv[1]).read())
b = re.search(r"verified: (\d+) instructions, (\d+) events",
              open(sys.argv[2]).read())
assert a and b and a.groups() == b.groups()' "$T/ring.j" "$T/ring.v"
timeout 300 gdb -q -batch -nx \
  -ex "target remote | '$REWIND' serve --stdio '$T/ring.rwd'" \
  -ex "break exit" -ex "continue" -ex "p/x \$pc" \
  -ex "reverse-stepi" -ex "stepi" -ex "p/x \$pc" \
  >"$T/ring.gdb" 2>&1
# (exit, not a call of the computing thread: the window, the last segment,
# can begin after that thread has ended; exit comes within it, for the
# program writes too little after exit to fill a segment)
check "ring: gdb stops at a breakpoint in the window" has \
  "^Thread .* hit Breakpoint 1[.0-9]*, \(__GI_\)\?exit (" "$T/ring.gdb"
check "ring: and goes back and forth" python3 -c '
import re, sys
v = re.findall(r"^\$\d+ = (0x[0-9a-f]+)$", open(sys.argv[1]).read(), re.M)
assert len(v) == 2 and v[0] == v[1], v' "$T/ring.gdb"

# --- a process tree: its segments begin at keyframes of every process ----
# (the parent waits in waitpid throughout: a segment begins inside it)
"$REWIND" record -f -o "$T/tree.rwd" --ring 1M -- "$P/kftree" 2 \
  >"$T/tree.out" 2>"$T/tree.err"
check_eq "tree: recorded" 0 "$?"
check "tree: the program's output" grep -q "^kftree: 0 0 0 1$" "$T/tree.out"
check "tree: segments dropped" has \
  "ring: the last [0-9]* segments kept, [1-9][0-9]* dropped" "$T/tree.err"
"$REWIND" replay --verify --no-progress "$T/tree.rwd" >"$T/tree.v" 2>&1
check_eq "tree: verifies" 0 "$?"
check "tree: to the program's end" has \
  "memory at the end checked.*the program exited with status 0" "$T/tree.v"
"$REWIND" ps "$T/tree.rwd" >"$T/tree.ps" 2>&1
check "tree: its history begins with four processes" test \
  "$(grep -c kftree "$T/tree.ps")" -ge 3

# --- a recorder killed: the segments stay, rewind join makes a trace -----
"$REWIND" record -f -o "$T/cut.rwd" --ring 1M -- "$P/kfwork" 30 light \
  >/dev/null 2>&1 &
rec_pid=$!
# Until a segment that begins at a keyframe is being written, and a while.
for _ in $(seq 100); do
  ls "$T/cut.rwd.ring" 2>/dev/null | grep -qv '^000001.rwd$' && break
  sleep 0.1
done
sleep 0.3
kill -9 "$rec_pid"
wait "$rec_pid" 2>/dev/null
pkill -9 -f "$P/kfwork 30 light" 2>/dev/null
check "killed: its segments stay" test -d "$T/cut.rwd.ring"
"$REWIND" record -o "$T/cut.rwd" --ring 2M -- /bin/true >"$T/again.out" 2>&1
check_eq "killed: a new ring there is refused" 1 "$?"
check "killed: says what is there" has \
  "cut.rwd.ring exists: an unfinished ring recording (rewind join" \
  "$T/again.out"
"$REWIND" join "$T/cut.rwd.ring" >"$T/join.out" 2>&1
check_eq "killed: rewind join exits 0" 0 "$?"
check "killed: says what it joined" has \
  "joined [0-9]* segments\? of .*cut.rwd.ring into .*cut.rwd$" "$T/join.out"
check "killed: the directory is gone" test ! -e "$T/cut.rwd.ring"
"$REWIND" replay --verify --no-progress "$T/cut.rwd" >"$T/cut.v" 2>&1
check_eq "killed: verifies up to the cut (exit 3)" 3 "$?"
check "killed: says it was cut off" has "the recording was cut off there" \
  "$T/cut.v"
"$REWIND" replay --verify -j 2 "$T/cut.rwd" >"$T/cut.j" 2>&1
check_eq "killed: in pieces too (exit 3)" 3 "$?"

# --- refusals ---------------------------------------------------------------
"$REWIND" record --ring 100K -- /bin/true >"$T/r1.out" 2>&1
check_eq "--ring 100K: exit 2" 2 "$?"
check "--ring 100K: says what it wants" has \
  "ring wants a size of at least 1M" "$T/r1.out"
"$REWIND" record --ring lots -- /bin/true >"$T/r2.out" 2>&1
check_eq "--ring lots: exit 2" 2 "$?"
mkdir -p "$T/notring"
"$REWIND" join "$T/notring" >"$T/r3.out" 2>&1
check_eq "join of a directory not named .ring: exit 2" 2 "$?"
mkdir -p "$T/empty.ring"
"$REWIND" join "$T/empty.ring" >"$T/r4.out" 2>&1
check_eq "join of no segments: exit 1" 1 "$?"
check "join of no segments: says so" has "holds no segments" "$T/r4.out"

# A divergence of the ring once, under load, could not be reproduced: its
# report and the recording's summary last, where a CI log shows them.
[ "$ring_st" = 0 ] || { head -n 40 "$T/ring.v"; cat "$T/ring.err"; }
finish
