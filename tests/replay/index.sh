#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind index (replayer/index.c): the replay's keyframes saved next to the
# trace. A replay that starts from them must stand exactly where one that
# replays everything stands (registers, event, thread, memory as gdb reads
# it), for one thread, threads waiting in syscalls and several
# processes; it must use them (fewer instructions run); and an index
# made for another trace, or damaged, is not used, with a note.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# same NAME POS...: rewind replay --print at each POS is the same with the
# index as without (a copy of the trace, which has none).
same() {
  local name=$1 g
  shift
  for g in "$@"; do
    "$REWIND" replay --print -g "$g" "$T/$name.rwd" >"$T/$name.with" 2>/dev/null
    "$REWIND" replay --print -g "$g" "$T/$name-copy.rwd" >"$T/$name.without" 2>/dev/null
    check "$name: at $g, as without the index" \
      cmp "$T/$name.with" "$T/$name.without"
    check "$name: at $g, a position" grep -q "^at instruction $g, event" "$T/$name.with"
  done
}

# index NAME ARGS...: rewind index of $T/NAME.rwd, its copy made first.
index() {
  local name=$1
  shift
  cp "$T/$name.rwd" "$T/$name-copy.rwd"
  "$REWIND" index "$T/$name.rwd" --no-progress "$@" >"$T/$name.ix" 2>&1
  status=$?
}

# --- one thread, a long loop ------------------------------------------
rec loop "$P/longloop" 3000000
check_eq "loop: recorded" 0 "$status"
index loop --interval 10000000
check_eq "loop: index exits 0" 0 "$status"
check "loop: says what it wrote" grep -Eq \
  "wrote $T/loop.rwd.idx: [0-9]+ keyframes over [0-9]+ instructions" "$T/loop.ix"
check "loop: one keyframe per interval" python3 -c '
import re, sys
m = re.search(r": (\d+) keyframes over (\d+) instructions", open(sys.argv[1]).read())
k, n = int(m.group(1)), int(m.group(2))
assert n // 10000000 <= k <= n // 10000000 + 1, (k, n)' "$T/loop.ix"
same loop 5 9999999 10000000 33333333 70000000
check "loop: rewind info shows the index" sh -c \
  "'$REWIND' info '$T/loop.rwd' | grep -Eq '^index: +$T/loop.rwd.idx, [0-9]+ keyframes \(replays start from them\)'"

# It is used: far in, the replay runs from its last keyframe before.
"$REWIND" replay --print -g 71000000 "$T/loop.rwd" 2>"$T/used.err" >/dev/null
check "loop: the index is used, and replays little" python3 -c '
import re, sys
m = re.search(r"started from the trace.s index \(.*loop.rwd.idx\): (\d+) "
              r"instructions replayed", open(sys.argv[1]).read())
assert m and int(m.group(1)) <= 11000000, open(sys.argv[1]).read()' "$T/used.err"
"$REWIND" replay --print -g 71000000 "$T/loop-copy.rwd" 2>"$T/unused.err" >/dev/null
check "loop: a copy without it says nothing" sh -c "! grep -q index '$T/unused.err'"

# gdb, forwards and backwards from far in: the same session either way.
for t in loop loop-copy; do
  timeout 300 gdb -q -batch -nx \
    -ex "target remote | '$REWIND' serve --stdio '$T/$t.rwd'" \
    -ex "monitor goto 65000000" -ex "p i" -ex "watch sink" \
    -ex "reverse-continue" -ex "p i" -ex "reverse-stepi" -ex "p \$pc" \
    -ex "monitor when" -ex "delete" -ex "continue" 2>&1 |
    grep -v '^Reading\|^warning' >"$T/$t.gdb"
done
check "gdb: the same session with the index" cmp "$T/loop.gdb" "$T/loop-copy.gdb"
check "gdb: the watchpoint backwards" grep -q "checkpoint (i=2000000," "$T/loop.gdb"

# --- threads waiting in syscalls, and processes --------------------------
rec pool "$P/thr_pool"
n=$("$REWIND" replay --verify --no-progress "$T/pool.rwd" 2>&1 |
  sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
pn=$n
index pool --interval $((pn / 5 + 1000))
check_eq "pool: index exits 0" 0 "$status"
same pool $((n / 4)) $((n / 2)) $((n * 3 / 4)) $((n - 1))

rec forks "$P/forks"
n=$("$REWIND" replay --verify --no-progress "$T/forks.rwd" 2>&1 |
  sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
index forks --interval 20000
check_eq "forks: index exits 0" 0 "$status"
same forks $((n / 3)) $((n / 2)) $((n * 2 / 3)) $((n * 9 / 10))

# --- an index that does not fit -------------------------------------------
# Another recording under the index's name: the index is not used.
mv "$T/forks.rwd.idx" "$T/pool.rwd.idx"
"$REWIND" replay --print -g 1000 "$T/pool.rwd" >"$T/stale.out" 2>&1
check_eq "stale: still replays" 0 "$?"
check "stale: says the index is not used" \
  grep -q "the index of .*pool.rwd is not used: it was made for another trace" "$T/stale.out"
check "stale: rewind info says so too" sh -c \
  "'$REWIND' info '$T/pool.rwd' | grep -q '^index: .*pool.rwd.idx, not used: it was made for another trace'"
# Damaged keyframes: not used either.
index loop --interval 10000000
python3 - "$T/loop.rwd.idx" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for i in range(len(b) // 3, len(b) // 3 + 64):
    b[i] ^= 0x5a
open(p, "wb").write(b)
PY
"$REWIND" replay --print -g 65000000 "$T/loop.rwd" >"$T/dmg.out" 2>"$T/dmg.err"
check_eq "damaged: still replays" 0 "$?"
"$REWIND" replay --print -g 65000000 "$T/loop-copy.rwd" >"$T/dmg.ref" 2>/dev/null
check "damaged: the same position" cmp "$T/dmg.out" "$T/dmg.ref"
check "damaged: says the index is not used" grep -q "the index of .*loop.rwd is not used" "$T/dmg.err"

# Wrong keyframes whose chunks check: a state changed after it was sealed
# is refused (the positions are those without the index); one sealed anew
# reaches the decoder, which must never crash.
index forks --interval 20000
"$top_builddir/tests/replay/ixfuzz" "$T/forks.rwd" 40 7 >"$T/fz.out" 2>"$T/fz.err"
check_eq "wrong keyframes: ixfuzz exits 0" 0 "$?"
check "wrong keyframes: 40 rounds" grep -q "^ok 40 (" "$T/fz.out"
[ -s "$T/fz.out" ] && ! grep -q "^ok" "$T/fz.out" && tail -5 "$T/fz.err"
index pool --interval $((pn / 5 + 1000))
"$top_builddir/tests/replay/ixfuzz" "$T/pool.rwd" 20 11 >"$T/fz2.out" 2>"$T/fz2.err"
check_eq "wrong keyframes, threads: ixfuzz exits 0" 0 "$?"

# --- refusals -------------------------------------------------------------
"$REWIND" index "$T/loop.rwd" --interval 5 >"$T/r1.out" 2>&1
check_eq "--interval 5: exit 2" 2 "$?"
"$REWIND" index "$T/loop.rwd" -o "$T/loop.rwd" >"$T/r2.out" 2>&1
check_eq "-o an existing file: exit 1" 1 "$?"
check "-o an existing file: says so" grep -q "exists; use --force" "$T/r2.out"
"$REWIND" index "$T/missing.rwd" >"$T/r3.out" 2>&1
check_eq "a missing trace: exit 1" 1 "$?"

# --- CPUID records: the index keeps the trace's log of them ------------
# A replay that starts at an index keyframe has not met the CPUID records
# before it; the index holds them all (metadata cpuid_log: u64 seq, then
# leaf, subleaf, eax..edx), so cpuid answers as the CPU did there. The
# test hook skews the start table so that the exec writes a record.
REWIND_TEST_CPUID_MOVED=1 rec moved "$P/cpuid" 10
check_eq "moved: recorded" 0 "$status"
index moved --interval 5000000
check_eq "moved: index exits 0" 0 "$status"
rseq=$("$REWIND" dump --json "$T/moved.rwd" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r["type"] == "CPUID" and r["leaf"] == "0x1":
        print(r["seq"]); break')
check "moved: a CPUID record" test -n "$rseq"
check "moved: the index's log holds it" python3 -c '
import struct, sys
v = bytes.fromhex(sys.argv[1])
assert len(v) % 32 == 0 and v, len(v)
e = [struct.unpack("<Q6I", v[i:i + 32]) for i in range(0, len(v), 32)]
assert any(x[0] == int(sys.argv[2]) and x[1] == 1 for x in e), e' \
  "$("$META" -x "$T/moved.rwd.idx" cpuid_log)" "$rseq"
mend=$("$REWIND" replay --print -g 999999999999 "$T/moved-copy.rwd" 2>/dev/null |
  sed -n 's/^at instruction \([0-9]*\),.*/\1/p')
same moved 5000001 $((mend - 1))
finish
