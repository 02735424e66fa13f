#!/bin/bash
# SPDX-License-Identifier: MIT
# The memory history: gdb's monitor last-write / next-write / last-read /
# next-read on a use after free (tests/programs/uaf.c: the note's strcpy
# lands on the freed account's balance), the kernel's writes (a read()
# in another thread, tests/programs/chatty.c), the user's breakpoints left
# as they were, and rewind analyze writes. Every check reads the output.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

if ! command -v gdb >/dev/null; then
  echo "FAIL: gdb is not installed"
  exit 1
fi

# gdb_run NAME TRACE: gdb's script on stdin, its output in $T/NAME.out.
gdb_run() {
  cat >"$T/$1.gdb"
  REWIND_GDB=gdb timeout 300 "$REWIND" replay "$T/$2.rwd" -- -batch -nx \
    -ex 'set width 0' -ex 'set height 0' -x "$T/$1.gdb" >"$T/$1.out" 2>&1
}

rec uaf "$P/uaf"
check "uaf: recorded, the balance corrupted" \
  grep -q '^balance 36427554057825 (was 100)' "$T/uaf.out"
line=$(grep -n 'printf("balance' "$top_srcdir/tests/programs/uaf.c" | cut -d: -f1)
gdb_run uaf uaf <<G
break uaf.c:$line
continue
monitor when
eval "monitor last-write %p 8", &a->balance
monitor when
break free
eval "monitor next-write %p 8", &a->balance
eval "monitor last-read %p 8", &a->balance
eval "monitor next-read %p 8", &a->balance
monitor next-write 0x10
monitor last-write
continue
G
out=$T/uaf.out
check "last-write finds the corrupting store: write_note's" \
  grep -Eq '^  by 0x[0-9a-f]+ write_note\+0x[0-9a-f]+  mov ' "$out"
check "  with the bytes before (100) and after (the note's text)" \
  grep -q '^  before: 64 00 00 00 00 00 00 00  after: 61 6e 6b 73 21 21 00 00$' \
  "$out"
check "  and the replay is still where it was" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
w = re.findall(r"^at instruction (\d+), event (\d+)", t, re.M)
assert len(w) == 2 and w[0] == w[1], w' "$out"
pos=$(sed -n 's/^previous write of .* at instruction \([0-9]*\) .*/\1/p' "$out" | head -n 1)
check "  at a position" test -n "$pos"
check "no write after here (free does not touch the balance)" \
  grep -q '^no write of \[0x[0-9a-f]*, +8) after here$' "$out"
check "last-read: audit, the second time" sh -c \
  "grep -A1 '^previous read of' '$out' | grep -Eq '^  by 0x[0-9a-f]+ audit\+0x0  mov '"
check "next-read: printf reading the note over it, in libc" sh -c \
  "grep -A1 '^next read of' '$out' | grep -q 'libc.so.6'"
check "no read or write at an address nothing uses" \
  grep -q '^no write of \[0x10, +1) after here$' "$out"
check "a command without its address says how to use it" \
  grep -q '^usage: monitor last-write ADDR \[LEN\]' "$out"
check "the user's breakpoint is still there and stops" \
  grep -Eq '^Breakpoint 2(\.1)?, (__GI___libc_)?free ' "$out"

# From the corrupting store, the write before it: deposit's 100.
gdb_run uaf2 uaf <<G
monitor goto $pos
flushregs
bt 2
eval "monitor last-write %p 8", &((char *)\$rdi)[16]
G
check "monitor goto POSITION: at write_note, called from main" sh -c \
  "grep -q '^#0 .*write_note' '$T/uaf2.out' && grep -q '^#1 .*main ()' '$T/uaf2.out'"
check "the write before it: deposit storing 100" sh -c \
  "grep -A2 '^previous write of' '$T/uaf2.out' | grep -Eq 'deposit\+0x0  mov' &&
   grep -q '^  before: 00 00 00 00 00 00 00 00  after: 64 00 00 00 00 00 00 00$' '$T/uaf2.out'"

# What the kernel wrote: read() into got, in the reader thread.
rec ch "$P/chatty"
line=$(grep -n '  close(fd);' "$top_srcdir/tests/programs/chatty.c" | cut -d: -f1)
gdb_run kw ch <<G
break chatty.c:$line
continue
eval "monitor last-write %p 4", &got
G
check "last-write of a read() buffer: the kernel, in read()" sh -c \
  "grep -A1 '^previous write of' '$T/kw.out' |
   grep -Eq '^  by the kernel \(a syscall.s output, a signal frame\); the thread was at 0x[0-9a-f]+ <(__)?(libc_)?read'"
check "  with what it read" \
  grep -q '^  before: 00 00 00 00  after: 70 69 6e 67$' "$T/kw.out"
check "  in the reader thread, not main" sh -c \
  "main=\$(sed -n 's/^at instruction .*, thread \([0-9]*\)$/\1/p' '$T/kw.out');
   grep '^previous write of' '$T/kw.out' | grep -vq \"thread \$main,\""

# The write index (replayer/reverse.c): with only write watchpoints armed,
# reverse continues pass by the keyframe intervals whose snapshots show the
# watched page untouched. tests/programs/rewrites writes its target six
# times (two threads, the kernel's read(), a write of the value it held)
# between long stretches that write other memory; wback walks back through
# every write with the index and with the full scan and compares each stop.
rec rw "$P/rewrites" 1000000
target=$(sed -n 's/^target \(0x[0-9a-f]*\)$/\1/p' "$T/rw.out")
quiet=$(sed -n 's/^quiet \(0x[0-9a-f]*\)$/\1/p' "$T/rw.out")
sparse=$(sed -n 's/^sparse \(0x[0-9a-f]*\)$/\1/p' "$T/rw.out")
check "rewrites: recorded, the addresses printed" \
  test -n "$target" -a -n "$quiet" -a -n "$sparse" -a "$status" = 0
"$top_builddir/tests/replay/wback" "$T/rw.rwd" 2000000 "$target" 8 \
  "$quiet" 8 "$sparse" 8 >"$T/wb.out" 2>&1
check_eq "wback: the index stops where the full scan does" 0 "$?"
check "  at each of the six writes, one by the kernel, one in thread 2" \
  python3 -c '
import re, sys
t = open(sys.argv[1]).read()
w = re.findall(r"^write at (\d+) thread (\d+) addr (0x[0-9a-f]+)( by the kernel)?$",
               t, re.M)
target = [x for x in w if x[2] == sys.argv[2]]
quiet = [x for x in w if x[2] == sys.argv[3]]
sparse = [x for x in w if x[2] == sys.argv[4]]
assert len(target) == 12, target  # the walk alone, then with the others
assert len(quiet) == 4 and len(sparse) == 8 and len(w) == 24, w
first = target[:6]
assert sum(1 for x in first if x[3]) == 1, first
assert len({x[1] for x in first}) == 2, first
first = sparse[:4]
assert sum(1 for x in first if x[3]) == 1, first
assert len({x[1] for x in first}) == 2, first
# The line record: the page of sparse.target changes in every interval, its
# line in those of its four writes and of the fifth stretch.
r = dict((a, (int(s), int(k))) for a, s, k in re.findall(
    r"^range (0x[0-9a-f]+) scanned (\d+) skipped (\d+)$", t, re.M))
s, k = r[sys.argv[4]]
assert k > 2 * s, (s, k)
m = re.search(r"^hits (\d+) scanned (\d+) skipped (\d+) helped \d+$", t, re.M)
full = re.search(r"^full scanned (\d+) skipped 0 helped 0$", t, re.M)
hits, scanned, skipped = map(int, m.groups())
# The full scan with a helper process (two CPUs or more) re-runs as many
# intervals, some of them in the helper.
fh = re.search(r"^full with a helper scanned (\d+) skipped 0 helped (\d+)$",
               t, re.M)
assert fh and fh[1] == full[1], (fh, full[1])
assert int(fh[2]) > 0 or int(sys.argv[5]) < 2, t
assert hits == len(w) - int(re.search(r"all ranges at once: (\d+)", t)[1]), t
assert skipped > scanned, (scanned, skipped)
assert int(full[1]) == scanned + skipped, (full[1], scanned, skipped)' \
  "$T/wb.out" "$target" "$quiet" "$sparse" "$(nproc)"
gdb_run rwl rw <<G
continue
monitor when
monitor last-write $target 8
monitor when
G
check "last-write from the end: the last store, 6, found by the index" sh -c \
  "grep -A2 '^previous write of' '$T/rwl.out' | grep -Eq 'main\+0x[0-9a-f]+  mov ' &&
   grep -q '^  before: 05 00 00 00 00 00 00 00  after: 06 00 00 00 00 00 00 00$' '$T/rwl.out'"

# rewind analyze writes: every write to the balance over the history.
addr=$(sed -n 's/^previous write of \[\(0x[0-9a-f]*\), +8).*/\1/p' "$out" | head -n 1)
"$REWIND" analyze writes --no-progress "$T/uaf.rwd" "$addr" 8 >"$T/w.out" 2>&1
check_eq "analyze writes: exit 0" 0 "$?"
check "analyze writes: deposit then write_note, with the bytes" python3 -c '
import sys
t = open(sys.argv[1]).read().splitlines()
w = [l for l in t[2:] if "->" not in l]
b = [l.strip() for l in t[2:] if "->" in l]
assert len(w) == 2, t
assert "deposit+0x0" in w[0] and "write_note+" in w[1], w
assert b == ["00 00 00 00 00 00 00 00 -> 64 00 00 00 00 00 00 00",
             "64 00 00 00 00 00 00 00 -> 61 6e 6b 73 21 21 00 00"], b' "$T/w.out"
"$REWIND" analyze writes --no-progress --json "$T/uaf.rwd" "$addr" 8 \
  >"$T/w.json" 2>&1
check "analyze writes --json: the same two, positions in order" python3 -c '
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])]
assert len(v) == 2 and v[0]["position"] < v[1]["position"], v
assert v[0]["after"] == "6400000000000000" and not v[0]["by_kernel"], v' \
  "$T/w.json"
"$REWIND" analyze writes --no-progress "$T/ch.rwd" 0x10 4 >"$T/none.out" 2>&1
check_eq "analyze writes of an address nothing writes: only the header" 2 \
  "$(wc -l <"$T/none.out")"
# A page mapped, written and unmapped between two states the replay
# keeps: from the end, last-write and reverse-continue must still find the
# writes (the write index once passed the interval by: the page was in
# neither state), and then nothing before them.
rec um "$P/unmapped"
check "unmapped: recorded" grep -q '^unmapped: ' "$T/um.out"
gdb_run um um <<'G'
continue
eval "monitor last-write %p 8", (long)slot + 8
eval "monitor goto %d", 0
continue
eval "monitor last-write %p 8", (long)slot + 8
G
check "unmapped: last-write from the end finds the second write" grep -Eq \
  "^  before: 29 00 00 00 00 00 00 00  after: 2a 00 00 00 00 00 00 00$" \
  "$T/um.out"
check "unmapped: by main" grep -q "by 0x[0-9a-f]* main+0x" "$T/um.out"
check "unmapped: never 'no write' at the end" sh -c \
  "! grep -q 'no write of' '$T/um.out'"
# The same from a keyframe of the persistent index, the history before it
# not run in this session.
"$REWIND" index "$T/um.rwd" >/dev/null 2>&1
gdb_run umx um <<'G'
monitor goto 30000000
eval "monitor last-write %p 8", (long)slot + 8
G
check "unmapped, indexed: last-write finds the second write" grep -Eq \
  "^  before: 29 00 00 00 00 00 00 00  after: 2a 00 00 00 00 00 00 00$" \
  "$T/umx.out"
status_of() { "$@" >"$T/st.out" 2>&1; echo $?; }
check_eq "analyze writes without an address" 2 \
  "$(status_of "$REWIND" analyze writes "$T/uaf.rwd")"
check_eq "analyze writes with a length of 0" 2 \
  "$(status_of "$REWIND" analyze writes "$T/uaf.rwd" 0x1000 0)"

finish
