#!/bin/bash
# SPDX-License-Identifier: MIT
# Recorder keyframes (rewind record --keyframes, recorder/keyframe.c) and
# the verification of the pieces between them in parallel (rewind replay
# --verify -j, replayer/segment.c). Each piece must end exactly where the
# next keyframe begins, for threads computing, blocked in syscalls and
# waiting on futexes; the pieces' instructions must add up to the whole
# replay's; a keyframe that is wrong (registers or memory) must be found
# and named; and a trace without keyframes verifies whole, with a note.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# segments NAME: rewind replay --verify -j 2 of $T/NAME.rwd into
# $T/NAME.j (stdout and stderr); sets status.
segments() {
  "$REWIND" replay --verify -j 2 "$T/$1.rwd" >"$T/$1.j" 2>&1
  status=$?
}

# has PATTERN FILE: grep -q, showing FILE when PATTERN is not there.
has() {
  grep -q -- "$1" "$2" || { cut -c1-400 "$2"; false; }
}

# nkf NAME: how many keyframes rewind info counts.
nkf() {
  "$REWIND" info "$T/$1.rwd" | sed -n 's/^keyframes: *\([0-9]*\).*/\1/p'
}

# --- threads in every state, a keyframe every 20 ms ----------------------
"$REWIND" record -f -o "$T/work.rwd" --keyframes 0.02 \
  -- "$P/kfwork" "$(san_or 0.4 0.2)" \
  >"$T/work.out" 2>"$T/work.err"
check_eq "work: recorded" 0 "$?"
check "work: the program's output" grep -q "^kfwork: 1 1 1 1$" "$T/work.out"
k=$(nkf work)
check "work: keyframes written (>= 5: $k)" test "${k:-0}" -ge 5
segments work
check_eq "work: --verify -j 2 exits 0" 0 "$status"
check "work: says how many pieces" grep -q \
  "^replay verified: [0-9]* instructions in $((k + 1)) segments (2 at a time" "$T/work.j"
check "work: checks the end of the recording" grep -q \
  "memory at the end checked.*the program exited with status 0" "$T/work.j"
"$REWIND" replay --verify --no-progress "$T/work.rwd" >"$T/work.whole" 2>&1
check_eq "work: verifies whole too" 0 "$?"
check "work: the pieces' instructions and events add up to the whole's" \
  python3 -c '
import re, sys
j = open(sys.argv[1]).read()
w = open(sys.argv[2]).read()
a = re.search(r"verified: (\d+) instructions in \d+ segments.*?, (\d+) events", j)
b = re.search(r"verified: (\d+) instructions, (\d+) events", w)
assert a and b and a.groups() == b.groups(), (a and a.groups(), b and b.groups())' \
  "$T/work.j" "$T/work.whole"
check "work: the recorder says what keyframes cost" grep -Eq \
  "[0-9]+ keyframes \([0-9.]+ MiB, [0-9.]+ s\)" "$T/work.err"
# gdb works on it as on any trace (the keyframes are not in its way).
timeout 300 gdb -q -batch -nx \
  -ex "target remote | '$REWIND' serve --stdio '$T/work.rwd'" \
  -ex "break compute" -ex "continue" -ex "p \$pc == compute" \
  -ex "reverse-stepi" -ex "stepi" -ex "p \$pc == compute" \
  >"$T/work.gdb" 2>&1
check "work: gdb goes forwards and back" sh -c \
  "[ \$(grep -c '^\\\$[0-9]* = 1' '$T/work.gdb') = 2 ]"

# --- one thread that computes: keyframes land in user code (PREEMPT) -----
# About 30 ms of work: up to 3 tries for two keyframes on a fast machine.
for _ in 1 2 3; do
  "$REWIND" record -q -f -o "$T/loop.rwd" --keyframes 0.01 -- \
    "$P/longloop" 50000000 >/dev/null 2>&1
  k=$(nkf loop)
  [ "${k:-0}" -ge 2 ] && break
done
check "loop: keyframes written (>= 2: $k)" test "${k:-0}" -ge 2
segments loop
check_eq "loop: --verify -j 2 exits 0" 0 "$status"
check "loop: in pieces" grep -q "in $((k + 1)) segments" "$T/loop.j"

# --- a large state that seldom changes: each page stored once -------------
# The first keyframe stores the 16 MB; where it takes longer than the
# budget (1 s and a tenth of the time: under a sanitizer on a machine
# busy with other work, CI once got 2) the next are put off: up to 3 tries.
for _ in 1 2 3; do
  "$REWIND" record -q -f -o "$T/heap.rwd" --keyframes 0.05 -- \
    "$P/kfheap" 16 "$(san_or 1.5 0.5)" >"$T/heap.out" 2>&1
  k=$(nkf heap)
  [ "${k:-0}" -ge 3 ] && break
  echo "heap: $k keyframes, recording again"
done
check "heap: keyframes written (>= 3: $k)" test "${k:-0}" -ge 3
"$REWIND" info --json "$T/heap.rwd" >"$T/heap.json"
python3 - "$T/heap.json" >"$T/heap.packs" <<'PY'
import json, re, sys
blobs = json.load(open(sys.argv[1]))["blobs"]
for b in blobs:
    m = re.match(r"keyframe (\d+) pages$", b["name"])
    if m:
        print(m.group(1), b["size"])
PY
# The first keyframes may come while the heap is being filled: what they
# store adds up to it once, and then to what changes (64 KB of it, the
# stack, the syscall buffer), not to a heap per keyframe.
check "heap: the keyframes store the 16 MB once" awk -v k="$k" \
  '{ t += $2 } END { exit !(t >= 16777216 && t <= 16777216 + k * 1572864) }' \
  "$T/heap.packs"
"$REWIND" dump --keyframe "$k" --type MEM_FROM "$T/heap.rwd" >"$T/heap.kf"
check_eq "heap: rewind dump --keyframe shows its state" 0 "$?"
check "heap: 256 pages with the same bytes are stored once" awk \
  '{ n[$6 " " $7]++ } END { for (x in n) if (n[x] >= 256) ok = 1; exit !ok }' \
  "$T/heap.kf"
segments heap
check_eq "heap: --verify -j 2 exits 0" 0 "$status"
check "heap: in pieces" grep -q "in $((k + 1)) segments" "$T/heap.j"

# --- threads that keep ending sleeps while a large memory is read --------
# Their nanosleeps end during each keyframe's read of 32 MB: a syscall
# that ended without writing memory leaves the keyframe valid. Before,
# every attempt was thrown away and the program all but stood still
# (no keyframe and about 1,100 syscalls in 1.5 s against 28,000).
"$REWIND" record -f -o "$T/busy.rwd" --keyframes 0.05 -- "$P/kfwork" 1.5 \
  light 32 >"$T/busy.out" 2>"$T/busy.err"
check "busy: the program's output" grep -q "^kfwork: 1 1 1 1$" "$T/busy.out"
k=$(nkf busy)
check "busy: keyframes written (>= 4: $k)" test "${k:-0}" -ge 4
segments busy
check_eq "busy: --verify -j 2 exits 0" 0 "$status"
check "busy: in pieces" grep -q "in $((k + 1)) segments" "$T/busy.j"

# --- a process tree: every process in each keyframe ------------------------
"$REWIND" record -f -o "$T/tree.rwd" --keyframes 0.05 \
  -- "$P/kftree" "$(san_or 0.8 0.4)" \
  >"$T/tree.out" 2>"$T/tree.err"
check "tree: the program's output" grep -q "^kftree: 0 0 0 1$" "$T/tree.out"
k=$(nkf tree)
check "tree: keyframes written (>= 2: $k)" test "${k:-0}" -ge 2
"$REWIND" info --json "$T/tree.rwd" | python3 -c '
import json, sys
names = [b["name"] for b in json.load(sys.stdin)["blobs"]]
print(sum(" pages of process " in n for n in names))' >"$T/tree.n"
check "tree: keyframes hold the children ($(cat "$T/tree.n") packs)" \
  test "$(cat "$T/tree.n")" -ge 3
segments tree
check_eq "tree: --verify -j 2 exits 0" 0 "$status"
check "tree: in pieces" grep -q "in $((k + 1)) segments" "$T/tree.j"
"$REWIND" replay --verify --no-progress "$T/tree.rwd" >"$T/tree.v" 2>&1
check_eq "tree: the whole verifies too" 0 "$?"
check "tree: the same instructions whole and in pieces" sh -c \
  "[ \"\$(grep -o 'verified: [0-9]* instructions' '$T/tree.v')\" = \
     \"\$(grep -o 'verified: [0-9]* instructions' '$T/tree.j')\" ]"

# --- a shell that forks all the time: keyframes still come ----------------
# Each process made or gone armed the recorder's tick again a whole period
# away: with one every few milliseconds, no keyframe ever fell due.
"$REWIND" record -q -f -o "$T/churn.rwd" --keyframes 0.05 -- sh -c \
  'for i in $(seq 150); do /bin/true; done' >/dev/null 2>&1
check_eq "churn: recorded" 0 "$?"
k=$(nkf churn)
check "churn: keyframes written (>= 3: $k)" test "${k:-0}" -ge 3
segments churn
check_eq "churn: --verify -j 2 exits 0" 0 "$status"
check "churn: in pieces" grep -q "in $((k + 1)) segments" "$T/churn.j"

# --- a keyframe that cannot be written: the recording goes on -------------
REWIND_TEST_KEYFRAME_FAIL=2 "$REWIND" record -f -o "$T/fail.rwd" \
  --keyframes 0.02 -- "$P/kfwork" 0.3 >"$T/fail.out" 2>"$T/fail.err"
check_eq "failed keyframe: the recording exits 0" 0 "$?"
check "failed keyframe: says so, once" test "$(grep -c \
  'warning: keyframe 2 could not be written (.*): no more keyframes' \
  "$T/fail.err")" = 1
check_eq "failed keyframe: the one before stays" 1 "$(nkf fail)"
segments fail
check_eq "failed keyframe: --verify -j 2 exits 0" 0 "$status"
check "failed keyframe: in two pieces" grep -q "in 2 segments" "$T/fail.j"

# --- a wrong keyframe is found, and named ---------------------------------
for how in regs memory; do
  REWIND_TEST_KEYFRAME_SKEW=$how "$REWIND" record -q -f \
    -o "$T/skew-$how.rwd" --keyframes 0.02 \
    -- "$P/kfwork" "$(san_or 0.25 0.12)" >/dev/null 2>&1
  segments "skew-$how"
  check_eq "skewed $how: exit 4" 4 "$status"
  check "skewed $how: names the piece and the keyframe" has \
    "segment 2 of [0-9]* (from keyframe 1 to keyframe 2) diverged: at its end .* the replay is not where keyframe 2 begins" \
    "$T/skew-$how.j"
done
# One at a time: at most four pieces, so keyframe 2 is checked inside one
# (the replay goes on past it from its own state).
REWIND_TEST_KEYFRAME_SKEW=regs "$REWIND" record -q -f -o "$T/skew1.rwd" \
  --keyframes 0.02 -- "$P/kfwork" 0.25 >/dev/null 2>&1
k=$(nkf skew1)
"$REWIND" replay --verify -j 1 "$T/skew1.rwd" >"$T/skew1.j" 2>&1
check_eq "skewed, -j 1: exit 4" 4 "$?"
check "skewed, -j 1: $((k + 1)) segments in at most 4 pieces" has \
  "verifying $((k + 1)) segments of .* in [1-4] pieces, 1 at a time" \
  "$T/skew1.j"
check "skewed, -j 1: names the segment inside its piece" has \
  "segment 2 of $((k + 1)) (from keyframe 1 to keyframe 2) diverged: at its end .* the replay is not where keyframe 2 begins" \
  "$T/skew1.j"
check "skewed regs: names the register" has \
  "keyframe 2 begins: thread [0-9]*: rbx is [0-9a-fx]* at the segment's end, [0-9a-fx]* in the keyframe" \
  "$T/skew-regs.j"
check "skewed memory: names the byte" has \
  "keyframe 2 begins: memory at 0x[0-9a-f]*: the segment has" "$T/skew-memory.j"

# --- a CPU the hypervisor moved ---------------------------------------------
# The table the recorder took at its start says another initial APIC ID
# than the CPU gives later (a test hook skews it): the first exec writes a
# CPUID record, and every keyframe after it holds that answer, so that a
# piece that begins there answers the child's loader, which execs later,
# as the CPU did (else its memory differs at the next keyframe).
# The program runs for about 0.07 s and keyframes wait while a process
# starts or execs: one every 10 ms, and up to 5 tries for two (the first
# just before the child execs the program again, at its fork or after).
for _ in 1 2 3 4 5; do
  REWIND_TEST_CPUID_MOVED=1 "$REWIND" record -q -f -o "$T/moved.rwd" \
    --keyframes 0.01 -- "$P/repstop" tree 6 >/dev/null 2>&1
  st=$?
  k=$(nkf moved)
  [ "$st" = 0 ] && [ "${k:-0}" -ge 2 ] && break
done
check_eq "cpu moved: recorded" 0 "$st"
check "cpu moved: keyframes written (>= 2: $k)" test "${k:-0}" -ge 2
check "cpu moved: a keyframe holds the CPUID in force" sh -c \
  "'$REWIND' dump --keyframe $k '$T/moved.rwd' | grep -q ' CPUID leaf=0x1 '"
segments moved
check_eq "cpu moved: --verify -j 2 exits 0" 0 "$status"
has "^replay verified: " "$T/moved.j"

# --- a blob that does not match its hash -----------------------------------
# The pieces read blobs without hashing them and each hashes a share of
# them: the damage is found however the pieces fall, read or not.
EDIT="$top_builddir/tests/format/rw_edit"
"$EDIT" "$T/work.rwd" list >"$T/work.chunks"
blob=$(awk '$2 == "BLOB" && $6 > 100000 { b = $1 } END { print b }' \
  "$T/work.chunks")
check "damaged blob: one to damage" test -n "$blob"
"$EDIT" "$T/work.rwd" "$T/dblob.rwd" flip "$blob" 50000 0x01
segments dblob
check_eq "damaged blob: --verify -j 2 exits 5" 5 "$status"
check "damaged blob: --verify -j 2 says which" has \
  "dblob.rwd is damaged at offset [0-9]*: blob .* does not match its SHA-256" \
  "$T/dblob.j"
"$REWIND" analyze rep -j 2 --no-progress "$T/dblob.rwd" >"$T/dblob.a" 2>&1
check_eq "damaged blob: analyze rep -j 2 exits 5" 5 "$?"
check "damaged blob: analyze rep -j 2 says which" has \
  "does not match its SHA-256" "$T/dblob.a"

# --- an attached process, with keyframes ----------------------------------
start srv serve "$T/sock"
srv=$pid
check "attached: server started" test -n "$srv"
(for _ in $(seq 6); do "$P/attachee" client "$T/sock" 200 || echo FAILED; done \
  >"$T/load.out" 2>&1) &
load=$!
"$REWIND" record -p "$srv" --duration 1 --keyframes 0.1 -o "$T/att.rwd" \
  >/dev/null 2>"$T/att.err"
check_eq "attached: recorded" 0 "$?"
wait "$load"
check "attached: every client answered" sh -c "! grep . '$T/load.out'"
"$P/attachee" client "$T/sock" 10 quit >/dev/null 2>&1
wait "$srv"
k=$(nkf att)
check "attached: keyframes written (>= 2: $k)" test "${k:-0}" -ge 2
segments att
check_eq "attached: --verify -j 2 exits 0" 0 "$status"
check "attached: in pieces, to the detach" grep -q \
  "in $((k + 1)) segments.*rewind detached from the process" "$T/att.j"

# --- refusals and a trace without keyframes --------------------------------
"$REWIND" dump --keyframe 99 "$T/heap.rwd" >"$T/d99.out" 2>&1
check_eq "dump --keyframe 99: exit 1" 1 "$?"
check "dump --keyframe 99: says how many there are" grep -q \
  "has [0-9]* recorder keyframes, not 99" "$T/d99.out"
"$REWIND" dump --keyframe 0 "$T/heap.rwd" >"$T/d0.out" 2>&1
check_eq "dump --keyframe 0: exit 2" 2 "$?"
rec plain /bin/true
segments plain
check_eq "no keyframes: verifies whole, exit 0" 0 "$status"
check "no keyframes: says so" grep -q \
  "has no keyframes (rewind record --keyframes writes them); verifying it in one piece" "$T/plain.j"
check "no keyframes: verified" grep -q "^replay verified: " "$T/plain.j"
"$REWIND" replay -j 2 "$T/plain.rwd" >"$T/r1.out" 2>&1
check_eq "-j without --verify: exit 2" 2 "$?"
check "-j without --verify: says so" grep -q "\-j is for --verify" "$T/r1.out"
"$REWIND" replay --verify -j 0 "$T/plain.rwd" >"$T/r2.out" 2>&1
check_eq "-j 0: exit 2" 2 "$?"
"$REWIND" record --keyframes 0.001 -- /bin/true >"$T/r3.out" 2>&1
check_eq "--keyframes 0.001: exit 2" 2 "$?"
check "--keyframes 0.001: says what it wants" grep -q \
  "keyframes wants seconds from 0.01 to 86400, or 0 for none, not '0.001'" \
  "$T/r3.out"
"$REWIND" record --keyframes soon -- /bin/true >"$T/r4.out" 2>&1
check_eq "--keyframes soon: exit 2" 2 "$?"
REWIND_KEYFRAMES=soon "$REWIND" record -- /bin/true >"$T/r5.out" 2>&1
check_eq "REWIND_KEYFRAMES=soon: exit 2" 2 "$?"
check "REWIND_KEYFRAMES=soon: names it" grep -q "REWIND_KEYFRAMES wants" \
  "$T/r5.out"

# --- a thread that is not the leader execs ---------------------------------
# It takes over the leader's task; the entry state each thread keeps for
# keyframes must stay owned once (it was freed twice: the recorder
# crashed with heap corruption).
"$REWIND" record -f -o "$T/texec.rwd" --keyframes 0.01 -- "$P/thr_events" \
  exec >"$T/texec.out" 2>&1
check_eq "exec from a thread: rewind exits 0" 0 "$?"
"$REWIND" replay --verify --no-progress "$T/texec.rwd" >"$T/texec.v" 2>&1
check_eq "exec from a thread: verifies" 0 "$?"

# --- the default, from the environment, and --keyframes 0 -----------------
REWIND_KEYFRAMES=0.05 "$REWIND" record -q -f -o "$T/env.rwd" -- \
  "$P/kfwork" 0.3 >/dev/null 2>&1
k=$(nkf env)
check "REWIND_KEYFRAMES=0.05: keyframes written (>= 2: $k)" \
  test "${k:-0}" -ge 2
REWIND_KEYFRAMES=0.05 "$REWIND" record -q -f -o "$T/off.rwd" \
  --keyframes 0 -- "$P/kfwork" 0.3 >/dev/null 2>&1
k=$(nkf off)
check_eq "--keyframes 0 over REWIND_KEYFRAMES: none" 0 "${k:-0}"
"$REWIND" record -f -o "$T/short.rwd" -- /bin/true >/dev/null 2>"$T/short.err"
check "the default (30 s): a short recording's summary says nothing of them" \
  sh -c "! grep -q keyframe '$T/short.err'"

finish
