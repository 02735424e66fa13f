#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind analyze edges|rep|writes|accesses|counts|marks|profile -j N
# (cli/segments.c, replayer/prof_merge.c, replayer/datarange.c,
# replayer/counts.c, replayer/prof_tree.c): the pieces between the
# recorder's keyframes analysed in processes of their own and added up
# must give exactly what one replay from the start gives, for threads and
# for a process tree; a trace without keyframes is analysed whole with a
# note; a piece that diverges is named and the result covers the history
# before it; a signal that stops rewind stops its pieces and removes their
# files; call paths (marks with stack, accesses --stacks) join through
# the pieces' call trees; marks with every=N and branches refuse -j and
# say why.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# same NAME ANALYSIS: the sorted JSON lines of ANALYSIS on $T/NAME.rwd,
# whole and with -j 2, into $T/NAME.ANALYSIS.{whole,j} (errors .err);
# checks that -j exits 0 and that both are equal and not empty.
same() {
  "$REWIND" analyze "$2" --json --top 0 --no-progress "$T/$1.rwd" \
    2>"$T/$1.$2.werr" | sort >"$T/$1.$2.whole"
  "$REWIND" analyze "$2" -j 2 --json --top 0 --no-progress "$T/$1.rwd" \
    2>"$T/$1.$2.err" | sort >"$T/$1.$2.j"
  check_eq "$1: analyze $2 -j 2 exits 0" 0 "${PIPESTATUS[0]}"
  check "$1: $2 has lines ($(wc -l <"$T/$1.$2.whole"))" \
    test -s "$T/$1.$2.whole"
  check "$1: $2 in pieces is $2 whole" \
    cmp "$T/$1.$2.whole" "$T/$1.$2.j"
}

# counts NAME JOBS ARGS...: analyze counts ARGS (JSON, all rows) of
# $T/NAME.rwd whole and with -j JOBS must be the same lines. A selection's
# "entered" count joins the runs a keyframe cuts: a thread that was in
# the selection before the cut does not enter it again after it.
counts() {
  local name=$1 jobs=$2
  shift 2
  "$REWIND" analyze counts --json --top 0 --no-progress "$@" \
    "$T/$name.rwd" 2>"$T/cnt.werr" | sort >"$T/cnt.whole"
  "$REWIND" analyze counts -j "$jobs" --json --top 0 --no-progress "$@" \
    "$T/$name.rwd" 2>"$T/cnt.err" | sort >"$T/cnt.j"
  check_eq "$name: counts -j $jobs $* exits 0" 0 "${PIPESTATUS[0]}"
  check "$name: counts $* has rows ($(wc -l <"$T/cnt.whole"))" \
    test "$(wc -l <"$T/cnt.whole")" -gt 1
  check "$name: counts -j $jobs $* in pieces is the whole's" \
    cmp "$T/cnt.whole" "$T/cnt.j"
  cmp -s "$T/cnt.whole" "$T/cnt.j" ||
    diff "$T/cnt.whole" "$T/cnt.j" | head -n 20 | cut -c 1-300
}

# marks NAME JOBS ARGS...: analyze marks ARGS (JSON) of $T/NAME.rwd whole
# and with -j JOBS must be the same. A counting window a keyframe cuts
# is one window: the piece after it does not know it is open until an
# end mark closes it (struct mcut in replayer/count_int.h).
marks() {
  local name=$1 jobs=$2
  shift 2
  "$REWIND" analyze marks --json --no-progress "$@" "$T/$name.rwd" \
    >"$T/mk.whole" 2>"$T/mk.werr"
  "$REWIND" analyze marks -j "$jobs" --json --no-progress "$@" \
    "$T/$name.rwd" >"$T/mk.j" 2>"$T/mk.err"
  check_eq "$name: marks -j $jobs $* exits 0" 0 "$?"
  check "$name: marks $* counted windows" \
    grep -Eq '"kind":"windows","windows":[1-9]' "$T/mk.whole"
  check "$name: marks -j $jobs $* in pieces are the whole's" \
    cmp "$T/mk.whole" "$T/mk.j"
  cmp -s "$T/mk.whole" "$T/mk.j" || diff "$T/mk.whole" "$T/mk.j"
}

# profiles NAME JOBS ARGS...: analyze profile ARGS of $T/NAME.rwd, whole
# and with -j JOBS: the JSON lines (every function), the folded stacks,
# the callgrind file and the flame graph must be the same. A piece does
# not know the frames below a thread's where it begins; it logs what it
# does to them and the join replays that on the real stacks.
profiles() {
  local name=$1 jobs=$2 k
  shift 2
  "$REWIND" analyze profile --json --top 0 --no-progress "$@" \
    --folded "$T/pf.w.folded" --callgrind "$T/pf.w.cg" --svg "$T/pf.w.svg" \
    "$T/$name.rwd" >"$T/pf.w.json" 2>"$T/pf.werr"
  "$REWIND" analyze profile -j "$jobs" --json --top 0 --no-progress "$@" \
    --folded "$T/pf.j.folded" --callgrind "$T/pf.j.cg" --svg "$T/pf.j.svg" \
    "$T/$name.rwd" >"$T/pf.j.json" 2>"$T/pf.err"
  check_eq "$name: profile -j $jobs $* exits 0" 0 "$?"
  check "$name: profile $* has functions ($(wc -l <"$T/pf.w.json"))" \
    test "$(wc -l <"$T/pf.w.json")" -gt 2
  for k in json folded cg svg; do
    check "$name: profile -j $jobs $* in pieces is the whole's ($k)" \
      cmp "$T/pf.w.$k" "$T/pf.j.$k"
    cmp -s "$T/pf.w.$k" "$T/pf.j.$k" ||
      diff "$T/pf.w.$k" "$T/pf.j.$k" | head -n 10 | cut -c 1-300
  done
}

# callsj NAME JOBS ARGS...: analyze calls --json ARGS (every call unless
# ARGS has --max) of $T/NAME.rwd, whole and with -j JOBS, must be the
# same lines: positions, callers, arguments, results. A call that a ret
# from a frame the piece did not know ended is not a return of its own.
callsj() {
  local name=$1 jobs=$2
  shift 2
  "$REWIND" analyze calls --json --max 0 --no-progress "$@" \
    "$T/$name.rwd" >"$T/cj.whole" 2>"$T/cj.werr"
  "$REWIND" analyze calls -j "$jobs" --json --max 0 --no-progress "$@" \
    "$T/$name.rwd" >"$T/cj.j" 2>"$T/cj.err"
  check_eq "$name: calls -j $jobs $* exits 0" 0 "$?"
  check "$name: calls $* listed ($(wc -l <"$T/cj.whole"))" \
    test "$(wc -l <"$T/cj.whole")" -gt 1
  check "$name: calls -j $jobs $* in pieces are the whole's" \
    cmp "$T/cj.whole" "$T/cj.j"
  cmp -s "$T/cj.whole" "$T/cj.j" ||
    diff "$T/cj.whole" "$T/cj.j" | head -n 6 | cut -c 1-300
  rm -f "$T/cj.whole" "$T/cj.j"
}

# nkf NAME: how many keyframes rewind info counts.
nkf() {
  "$REWIND" info "$T/$1.rwd" | sed -n 's/^keyframes: *\([0-9]*\).*/\1/p'
}

# --- threads: computing, blocked, on futexes; a keyframe every 10 ms -------
# (With little computing between as many syscalls: the analyses replay
# interpreted in every build, whatever REWIND_JIT says.)
"$REWIND" record -q -f -o "$T/work.rwd" --keyframes 0.01 \
  -- "$P/kfwork" 0.15 light \
  >/dev/null 2>"$T/work.rec"
check_eq "work: recorded" 0 "$?"
k=$(nkf work)
check "work: keyframes written (>= 3: $k)" test "${k:-0}" -ge 3
same work edges
same work rep
# The tables too, first line (totals) included.
"$REWIND" analyze rep --top 0 --no-progress "$T/work.rwd" >"$T/rep.whole" 2>&1
"$REWIND" analyze rep -j 3 --top 0 --no-progress "$T/work.rwd" \
  >"$T/rep.j" 2>&1
check "work: the rep table with -j 3 is the whole's" \
  cmp "$T/rep.whole" "$T/rep.j"
"$REWIND" analyze edges --top 3 --no-progress "$T/work.rwd" \
  >"$T/edges.wtop" 2>/dev/null
"$REWIND" analyze edges -j 2 --top 3 --progress "$T/work.rwd" \
  >"$T/edges.top" 2>"$T/edges.progress"
check "work: the edge table's totals line is the whole's" test \
  "$(head -1 "$T/edges.top")" = "$(head -1 "$T/edges.wtop")"
# At most 4 pieces per job, of whole intervals between keyframes.
np=$((k + 1 < 8 ? k + 1 : 8))
check "work: progress names the pieces ($np)" grep -q \
  "edges of $np segments of .*, 2 at a time" "$T/edges.progress"
# Every instruction's count; then selections of code that threads are in
# at the keyframes (the computing loop, libc's futex and read paths).
same work counts
counts work 3 --object kfwork
check "work: kfwork's code entered more than once" \
  grep -Eq '"entered":([2-9]|[1-9][0-9]+),' "$T/cnt.j"
counts work 8 --object libc.so.6
# The last thread (waiter) alone: in futex waits at most keyframes.
tid=$("$REWIND" info "$T/work.rwd" |
  sed -n 's/^threads: *[0-9]* ([0-9]* [0-9]* [0-9]* \([0-9]*\))$/\1/p')
check "work: the waiter's thread id ($tid)" test -n "$tid"
counts work 2 --thread "${tid:-0}"
# Windows from mmap to munmap in the computing thread (up to millions of
# instructions, across many keyframes), from malloc to free in every
# thread; a mark that is both; marks that only count.
wm="--mark mmap:start --mark munmap:end --mark malloc:start --mark free:end"
wm+=" --mark memset:start,end --mark read --mark pthread_cond_wait"
# shellcheck disable=SC2086
marks work 3 $wm
# shellcheck disable=SC2086
marks work 8 $wm
# shellcheck disable=SC2086
marks work 2 --thread "${tid:-0}" --mark pthread_cond_wait:start \
  --mark pthread_mutex_unlock:end
# The call paths of every execution: a thread's path where a piece begins
# is below the frames the piece knows.
marks work 3 --mark mmap:start,stack --mark munmap:end --mark malloc:stack \
  --mark pthread_cond_wait:stack
check "work: marks with stack list call paths" grep -q \
  '"spec":"pthread_cond_wait:stack".*"paths":\[{"path":"' "$T/mk.j"
"$REWIND" analyze marks --no-progress --mark mmap:start --mark munmap:end \
  "$T/work.rwd" >"$T/mkt.whole" 2>&1
"$REWIND" analyze marks -j 2 --no-progress --mark mmap:start \
  --mark munmap:end "$T/work.rwd" >"$T/mkt.j" 2>&1
profiles work 3
callsj work 3
check "work: marks as text in pieces are the whole's" \
  cmp "$T/mkt.whole" "$T/mkt.j"
# The listing of a function, instructions that never ran included.
"$REWIND" analyze counts --function compute --no-progress "$T/work.rwd" \
  >"$T/list.whole" 2>&1
"$REWIND" analyze counts -j 2 --function compute --no-progress \
  "$T/work.rwd" >"$T/list.j" 2>&1
check "work: compute's listing in pieces is the whole's" \
  cmp "$T/list.whole" "$T/list.j"
check "work: the listing shows compute" grep -q "^compute in kfwork" \
  "$T/list.j"

# The writes to main's `ticks` and to the mutex the threads share: the same
# list, positions included, whole and in pieces (text and JSON).
base=$("$REWIND" dump --json "$T/work.rwd" | grep '"MAP"' |
  grep '"offset":"0x0".*kfwork"' | head -n 1 |
  sed 's/.*"addr":"\(0x[0-9a-f]*\)".*/\1/')
for v in ticks:4 mu:40; do
  off=$(nm "$P/kfwork" | sed -n "s/^\([0-9a-f]*\) [bBdD] ${v%%:*}\$/\1/p")
  addr=$(printf '0x%x' $((base + 0x$off)))
  for form in --json ""; do
    "$REWIND" analyze writes $form --no-progress "$T/work.rwd" "$addr" \
      "${v##*:}" >"$T/writes.whole" 2>&1
    "$REWIND" analyze writes -j 2 $form --no-progress "$T/work.rwd" "$addr" \
      "${v##*:}" >"$T/writes.j" 2>"$T/writes.err"
    check_eq "work: writes -j 2 of ${v%%:*} ${form:-text} exits 0" 0 "$?"
    check "work: writes of ${v%%:*} ${form:-text}: more than one" \
      test "$(grep -c '^ *[0-9]\|^{' "$T/writes.whole")" -ge 2
    check "work: writes of ${v%%:*} ${form:-text} in pieces are the whole's" \
      cmp "$T/writes.whole" "$T/writes.j"
    # The reads and writes to it, counted per granule and instruction.
    "$REWIND" analyze accesses $form --top 0 --no-progress "$T/work.rwd" \
      "$addr" "${v##*:}" >"$T/acc.whole" 2>&1
    "$REWIND" analyze accesses -j 2 $form --top 0 --no-progress \
      "$T/work.rwd" "$addr" "${v##*:}" >"$T/acc.j" 2>"$T/acc.err"
    check_eq "work: accesses -j 2 of ${v%%:*} ${form:-text} exits 0" 0 "$?"
    check "work: accesses of ${v%%:*} ${form:-text}: reads counted" \
      grep -Eq '"reads":[1-9]|^[1-9][0-9]* reads' "$T/acc.whole"
    check "work: accesses of ${v%%:*} ${form:-text} in pieces: the whole's" \
      cmp "$T/acc.whole" "$T/acc.j"
  done
done
# The mutex's accesses with their call paths, in every thread.
"$REWIND" analyze accesses --stacks --json --top 0 --no-progress \
  "$T/work.rwd" "$addr" 40 >"$T/accst.whole" 2>&1
"$REWIND" analyze accesses -j 3 --stacks --json --top 0 --no-progress \
  "$T/work.rwd" "$addr" 40 >"$T/accst.j" 2>&1
check_eq "work: accesses -j 3 --stacks exits 0" 0 "$?"
check "work: accesses --stacks lists call paths" grep -q '"path":"' \
  "$T/accst.whole"
check "work: accesses --stacks of the mutex in pieces are the whole's" \
  cmp "$T/accst.whole" "$T/accst.j"

# --- a process tree: every process in each keyframe ------------------------
"$REWIND" record -q -f -o "$T/tree.rwd" --keyframes 0.01 -- "$P/kftree" 0.12 \
  >/dev/null 2>&1
check_eq "tree: recorded" 0 "$?"
k=$(nkf tree)
check "tree: keyframes written (>= 2: $k)" test "${k:-0}" -ge 2
same tree edges
same tree rep
counts tree 2 --object libc.so.6
counts tree 4 --object kftree --type call
marks tree 4 --mark malloc:start --mark free:end --mark write
marks tree 3 --mark malloc:start,stack --mark free:end --mark write:stack
profiles tree 4
callsj tree 4 -f now
# The program's data and GOT, read in every process (each call through the
# PLT): the counts per granule and per instruction of each process.
base=$("$REWIND" dump --json "$T/tree.rwd" | grep '"MAP"' |
  grep '"offset":"0x0".*kftree"' | head -n 1 |
  sed 's/.*"addr":"\(0x[0-9a-f]*\)".*/\1/')
lo=$(nm "$P/kftree" | sed -n 's/^\([0-9a-f]*\) d _DYNAMIC$/\1/p')
hi=$(nm "$P/kftree" | sed -n 's/^\([0-9a-f]*\) B _end$/\1/p')
addr=$(printf '0x%x' $((base + 0x$lo)))
"$REWIND" analyze accesses --top 0 --no-progress "$T/tree.rwd" "$addr" \
  $((0x$hi - 0x$lo)) >"$T/tacc.whole" 2>&1
"$REWIND" analyze accesses -j 2 --top 0 --no-progress "$T/tree.rwd" "$addr" \
  $((0x$hi - 0x$lo)) >"$T/tacc.j" 2>&1
check_eq "tree: accesses -j 2 exits 0" 0 "$?"
check "tree: accesses in more than one thread" \
  grep -Eq 'instructions in ([2-9]|[1-9][0-9]+) threads' "$T/tacc.whole"
check "tree: accesses in pieces are the whole's" \
  cmp "$T/tacc.whole" "$T/tacc.j"
# With the call paths the accesses were made on.
"$REWIND" analyze accesses --stacks --top 0 --no-progress "$T/tree.rwd" \
  "$addr" $((0x$hi - 0x$lo)) >"$T/tacs.whole" 2>&1
"$REWIND" analyze accesses --stacks -j 3 --top 0 --no-progress \
  "$T/tree.rwd" "$addr" $((0x$hi - 0x$lo)) >"$T/tacs.j" 2>&1
check_eq "tree: accesses --stacks -j 3 exits 0" 0 "$?"
check "tree: accesses --stacks lists call paths" grep -q \
  "^the call paths they were made on" "$T/tacs.whole"
check "tree: accesses --stacks in pieces are the whole's" \
  cmp "$T/tacs.whole" "$T/tacs.j"

# --- rep instructions a keyframe cuts in two -------------------------------
# Each round is a rep stosq of 1 Mi quadwords and a rep movsb of 8 MiB, so
# most keyframes land inside one (a PREEMPT with RF set): the piece before
# ends part way, the piece after begins there, and the execution counts
# once, with all its iterations. The child runs the same code before and
# after it execs this program again: one process, two images.
# Where keyframes land depends on the machine's timing: up to 8 tries for
# a recording with two keyframes, one of them inside a rep instruction.
for _ in 1 2 3 4 5 6 7 8; do
  "$REWIND" record -q -f -o "$T/split.rwd" --keyframes 0.01 -- \
    "$P/repstop" tree 6 >/dev/null 2>&1
  st=$?
  k=$(nkf split)
  [ "$st" = 0 ] && [ "${k:-0}" -ge 2 ] &&
    "$REWIND" dump --json "$T/split.rwd" | grep PREEMPT |
    grep -Eq '"rflags":"0x1[0-9a-f]{4}"' && break
done
check_eq "split: recorded" 0 "$st"
check "split: keyframes written (>= 2: $k)" test "${k:-0}" -ge 2
check "split: preempted inside a rep instruction" sh -c \
  "'$REWIND' dump --json '$T/split.rwd' | grep PREEMPT |
   grep -Eq '\"rflags\":\"0x1[0-9a-f]{4}\"'"
same split rep
same split edges
same split counts
want='"instruction":"rep stosq","executions":18,"requested":18874368,'
want+='"iterations":18874368,"min":1048576,"max":1048576'
check "split: each rep stosq whole (18 of 1048576)" grep -q \
  "\"where\":\"work+0x[0-9a-f]*\",$want" "$T/split.rep.j"
# Windows from the rep movsb to the next round's rep stosq, with cuts
# inside both (each counts as one instruction).
objdump -d "$P/repstop" >"$T/repstop.dis"
at='s/^ *\([0-9a-f]*\):.*rep '
stosq=$(sed -n "${at}stos %rax.*/\\1/p" "$T/repstop.dis")
movsb=$(sed -n "${at}movsb.*/\\1/p" "$T/repstop.dis")
check "split: the rep instructions' addresses ($stosq, $movsb)" \
  test -n "$stosq" -a -n "$movsb"
marks split 3 --mark "repstop@0x$movsb:start" --mark "repstop@0x$stosq:end" \
  --mark "repstop@0x$stosq"

# --- python3 runs python3: unnamed code in processes before and after exec --
# (Without the site module, forking by hand: a third of the instructions
# of subprocess.run, the same two images in two processes.)
"$REWIND" record -q -f -o "$T/py.rwd" --keyframes 0.05 -- python3 -S -c \
  'import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-S", "-c", "print(6 * 7)"])
os.waitpid(pid, 0)' >/dev/null 2>&1
check_eq "python3: recorded" 0 "$?"
same py rep
counts py 2 --object libc.so.6
marks py 2 --mark malloc:start --mark free:end --mark memcpy
profiles py 2
# The last process (python3 run by the first, late): a thread that the
# first pieces do not have.
last=$("$REWIND" ps "$T/py.rwd" | awk 'END {print $1}')
counts py 2 --thread "$last" --object libc.so.6
"$REWIND" analyze accesses --thread "$last" --granule 64 --top 0 \
  --no-progress "$T/py.rwd" 0x7ff000000000 0x1000000 >"$T/pyacc.whole" 2>&1
"$REWIND" analyze accesses -j 2 --thread "$last" --granule 64 --top 0 \
  --no-progress "$T/py.rwd" 0x7ff000000000 0x1000000 >"$T/pyacc.j" 2>&1
check_eq "python3: accesses -j 2 --thread $last exits 0" 0 "$?"
check "python3: accesses of thread $last in pieces are the whole's" \
  cmp "$T/pyacc.whole" "$T/pyacc.j"

# --- a ring: the history begins at a keyframe ------------------------------
"$REWIND" record -f -o "$T/ring.rwd" --ring 1M -- "$P/kfwork" 0.5 light \
  >/dev/null 2>"$T/ring.rec"
check_eq "ring: recorded" 0 "$?"
check "ring: segments dropped" grep -Eq "ring: .*, [1-9][0-9]* dropped" \
  "$T/ring.rec"
same ring edges
counts ring 2 --object kfwork
profiles ring 2
# One thread alone: the last, whose stack the first piece does not know.
rtid=$("$REWIND" info "$T/ring.rwd" |
  sed -n 's/^threads: *[0-9]* (.* \([0-9]*\))$/\1/p')
check "ring: the last thread's id ($rtid)" test -n "$rtid"
profiles ring 2 --thread "${rtid:-0}"
callsj ring 2 --thread "${rtid:-0}"
marks ring 2 --thread "${rtid:-0}" --mark pthread_cond_wait:start,stack \
  --mark pthread_mutex_unlock:end,stack

# --- calls of every shape with keyframes inside them ------------------------
# Recursion, tail calls (a chain of jumps on one return address), longjmp
# out of nested frames, a timer's signal handler, two threads; a keyframe
# every 10 ms, pieces of one or two keyframes.
"$REWIND" record -q -f -o "$T/calls.rwd" --keyframes 0.01 -- \
  "$P/kfcalls" 0.08 >"$T/calls.out" 2>&1
check_eq "calls: recorded" 0 "$?"
check "calls: ran" grep -qx "kfcalls ok" "$T/calls.out"
k=$(nkf calls)
check "calls: keyframes written (>= 3: $k)" test "${k:-0}" -ge 3
profiles calls 3
check "calls: tail calls and recursion in the profile" python3 -c '
import json, sys
f = {r["function"]: r for r in map(json.loads, open(sys.argv[1]))
     if "function" in r}
sys.exit(not (f["hop3"]["calls"] > 1000 and f["deep"]["calls"] > 1000 and
              f["fib"]["inclusive"] < f["round_of"]["inclusive"]))' \
  "$T/pf.w.json"
# Every call of deep (a longjmp leaves 20 or more of its frames at once,
# often across a keyframe), the first of hop3's (a tail call's), and the
# first of fib's as text.
callsj calls 3 -f deep
callsj calls 2 -f hop3 --max 3000
"$REWIND" analyze calls --no-progress -f fib --max 500 "$T/calls.rwd" \
  >"$T/ct.whole" 2>&1
"$REWIND" analyze calls -j 2 --no-progress -f fib --max 500 "$T/calls.rwd" \
  >"$T/ct.j" 2>&1
check "calls: the text listing with -j 2 is the whole's" \
  cmp "$T/ct.whole" "$T/ct.j"
check "calls: says how many more there were" \
  grep -q "rewind: 500 calls of fib (and [0-9]* more past --max)" "$T/ct.j"
check "calls: joined in pieces, no note" test ! -s "$T/pf.err"
# The call paths of marks where tail calls, longjmp and the signal
# handler leave the stack.
marks calls 3 --mark fib:stack --mark hop3:stack,start --mark deep:end \
  --mark on_alarm:stack
check "calls: marks joined in pieces, no note" test ! -s "$T/mk.err"
# A return address 4 bytes off a multiple of 8: a piece tells unwinds
# apart by 8 bytes, so the join is not sure to be exact; the analysis
# says so and runs whole.
"$REWIND" record -q -f -o "$T/odd.rwd" --keyframes 0.01 -- \
  "$P/kfcalls" 0.04 odd >/dev/null 2>&1
check_eq "odd: recorded" 0 "$?"
profiles odd 2
check "odd: says it profiles in one piece" grep -q \
  "odd.rwd has a return address at an address that is not a multiple of 8" \
  "$T/pf.err"
callsj odd 2 -f odd4
marks odd 2 --mark odd4:stack,start --mark fib:end
check "odd: says it follows marks in one piece" grep -q \
  "odd.rwd has a return address at an address that is not a multiple of 8" \
  "$T/mk.err"

# --- processes forked all the time ------------------------------------------
# Each child goes on from the fork on its parent's stack, frames a piece
# does not know when it begins inside them (the join copies the parent's
# stack where the parent's log was at the fork); every 4th child forks a
# grandchild; each ends with _exit, some as a keyframe is written.
"$REWIND" record -q -f -o "$T/fork.rwd" --keyframes 0.01 \
  -- "$P/kffork" "$(san_or 0.15 0.07)" >"$T/fork.out" 2>&1
check_eq "fork: recorded" 0 "$?"
check "fork: ran" grep -qx "kffork ok" "$T/fork.out"
k=$(nkf fork)
check "fork: keyframes written (>= 3: $k)" test "${k:-0}" -ge 3
profiles fork 3
check "fork: the children's fib under inner" grep -q \
  ";main;round_of;outer;inner;fib;fib " "$T/pf.j.folded"
callsj fork 3
marks fork 2 --mark fib:start,stack --mark _exit:end,stack

# --- no keyframes: one piece, with a note -----------------------------------
"$REWIND" record -q -f -o "$T/none.rwd" --keyframes 0 -- "$P/kfwork" 0.1 \
  >/dev/null 2>&1
same none rep
check "none: says it runs in one piece" grep -q \
  "has no keyframes (rewind record --keyframes writes them); analysing it in" \
  "$T/none.rep.err"

# --- a wrong keyframe: the piece after it diverges, and is named -------------
# With -j 8 (up to 32 pieces) each interval between keyframes is a piece
# of its own, so keyframe 2 is where one ends; with fewer, a piece could
# run through it without using it.
REWIND_TEST_KEYFRAME_SKEW=regs "$REWIND" record -q -f -o "$T/skew.rwd" \
  --keyframes 0.02 -- "$P/kfwork" 0.25 >/dev/null 2>&1
k=$(nkf skew)
check "skewed: at most 31 keyframes ($k)" test "${k:-99}" -le 31
"$REWIND" analyze edges -j 8 --no-progress "$T/skew.rwd" >"$T/skew.out" \
  2>"$T/skew.err"
check_eq "skewed: exit 4" 4 "$?"
# The piece before the wrong keyframe does not end where it begins: said,
# as --verify -j says it, whether or not the piece after would diverge.
want='segment 2 of [0-9]* (from keyframe 1 to keyframe 2) diverged: at its '
want+='end .* not where keyframe 2 begins: thread [0-9]*: rbx'
check "skewed: names the piece and the keyframe" grep -q "$want" \
  "$T/skew.err"
check "skewed: says what the result covers" grep -q \
  "the analysis covers the history before that" "$T/skew.err"
check "skewed: still prints it" grep -q "branches executed at" "$T/skew.out"

# --- stopped: the pieces' processes end with rewind, and its files go --------
"$REWIND" record -q -f -o "$T/long.rwd" --keyframes 0.1 -- "$P/kfwork" 1.5 \
  >/dev/null 2>&1
check_eq "long: recorded" 0 "$?"
mkdir -p "$T/tmpd"
# started TMPDIR: analyze edges -j 2 of long.rwd in the background, its
# pid in $pid, once its directory for the pieces' results exists.
started() {
  TMPDIR=$1 "$REWIND" analyze edges -j 2 --no-progress "$T/long.rwd" \
    >/dev/null 2>"$1.err" &
  pid=$!
  for _ in $(seq 200); do
    compgen -G "$1/rewind-analyze-*/piece-*" >/dev/null && break
    sleep 0.05
  done
}
started "$T/tmpd"
kill -TERM "$pid"
wait "$pid"
check_eq "SIGTERM: rewind dies of it" 143 "$?"
check "SIGTERM: says so" grep -q "stopped by signal 15" "$T/tmpd.err"
check "SIGTERM: no piece runs on" \
  test -z "$(pgrep -f "analyze edges -j 2 --no-progress $T/long.rwd")"
check "SIGTERM: its directory is gone" \
  test -z "$(ls -A "$T/tmpd")"
mkdir -p "$T/tmpk"
started "$T/tmpk"
kill -KILL "$pid"
{ wait "$pid"; } 2>/dev/null # bash's "Killed"
for _ in $(seq 100); do
  pgrep -f "analyze edges -j 2 --no-progress $T/long.rwd" >/dev/null ||
    break
  sleep 0.05
done
check "SIGKILL: the pieces die with rewind" \
  test -z "$(pgrep -f "analyze edges -j 2 --no-progress $T/long.rwd")"

# --- what -j is not for -------------------------------------------------------
"$REWIND" analyze branches -j 2 "$T/work.rwd" >/dev/null \
  2>"$T/no-branches.err"
check_eq "branches -j: usage error" 2 "$?"
check "branches -j: says what -j is for" grep -q \
  "analyze branches: -j is for analyze edges, rep, writes, accesses, counts" \
  "$T/no-branches.err"
"$REWIND" analyze marks -j 2 --mark "compute:every=3" "$T/work.rwd" \
  >/dev/null 2>"$T/no-marks.err"
check_eq "marks -j with every=3: usage error" 2 "$?"
check "marks -j with every=3: says why" grep -q \
  "mark 'compute:every=3': -j is for marks without every=N" \
  "$T/no-marks.err"
"$REWIND" analyze edges -j 2 --sample 100 "$T/work.rwd" >/dev/null \
  2>"$T/samp.err"
check_eq "edges -j --sample: usage error" 2 "$?"
"$REWIND" analyze rep -j 0 "$T/work.rwd" >/dev/null 2>"$T/zero.err"
check_eq "rep -j 0: usage error" 2 "$?"
check "rep -j 0: says what it wants" grep -q "from 1 to 1024, not '0'" \
  "$T/zero.err"

finish
