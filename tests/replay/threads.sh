#!/bin/bash
# SPDX-License-Identifier: MIT
# Multi-threaded recordings replayed: each is verified (registers checked at
# every syscall of every thread, the end as recorded), and positions reached
# by a forward run, by seeking through keyframes, and by stepping one thread
# forwards and backwards must be the same state, with breakpoints and
# watchpoints hit in any thread found again backwards (tests/replay/
# seekcheck). The programs: tests/programs/thr_* and tests/replay/thr_*
# (a process that ends with its threads alive, a crash in a thread, exec
# from a thread, preempted loops whose iterations differ only in memory,
# asynchronous signals among preempted threads, timeslices that end at
# traps).
. "${top_srcdir:-.}/tests/recorder/lib.sh"
R=$top_builddir/tests/replay

# verify NAME HOW: --verify of $T/NAME.rwd ends with HOW.
verify() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  local rc=$?
  if [ $rc -eq 0 ] && grep -q "^replay verified: .*$2" "$T/$1.replay"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: replay of $1 (exit $rc, expected '$2'):"
    head -n 40 "$T/$1.replay"
  fi
}

# seekcheck NAME [POSITIONS]: the consistency checks; the end's threads go
# to $T/NAME.end. Half the positions under the sanitizers.
seekcheck() {
  local n=${2:-10}
  n=$(san_or "$n" $(((n + 1) / 2)))
  SEEKCHECK_VERBOSE=1 SEEKCHECK_STEPS=50 "$R/seekcheck" "$T/$1.rwd" "$n" \
    100000 >"$T/$1.seek" 2>&1
  local rc=$?
  grep '^    end:' "$T/$1.seek" >"$T/$1.end"
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: seekcheck of $1 (exit $rc):"
    grep -v '^    end:' "$T/$1.seek" | head -n 30
    # Again with the replayer's debug log (sanitizer and debug builds),
    # whose last lines before the failure name the condition; the trace is
    # kept in the build directory for a closer look.
    SEEKCHECK_DEBUG=1 SEEKCHECK_STEPS=50 ASAN_OPTIONS=detect_leaks=0 \
      "$R/seekcheck" "$T/$1.rwd" "$n" 100000 2>&1 |
      grep -v '^    end:' | grep -B 20 -m 1 -E 'seekcheck: (rp_|cannot)|FAIL' |
      sed 's/^/  debug | /'
    cp "$T/$1.rwd" "$top_builddir/tests/replay/seekcheck-failed-$1.rwd" || :
  fi
}

for p in thr_race thr_pool thr_prodcons thr_spinlock thr_yield thr_pi; do
  if [ "$p" = thr_yield ]; then
    # Its turns alternate only when no timeslice ends between two yields,
    # which a loaded host that deschedules the thread for long makes
    # happen (a wall-clock timeslice): the longest one rules that out.
    "$REWIND" record -f --timeslice 10000 -o "$T/$p.rwd" -- "$P/$p" \
      >"$T/$p.out" 2>"$T/$p.err"
    status=$?
  else
    rec "$p" "$P/$p"
  fi
  check_eq "$p: recorded" 0 "$status"
  verify "$p" "exited with status 0"
  seekcheck "$p"
done
check "thr_yield: turns alternate at sched_yield" \
  grep -q "^rounds out of turn: 0 0$" "$T/thr_yield.out"
# A thread the kernel restarts through restart_syscall blocks there like
# the nanosleep it continues, while the main thread runs on (the recorder
# used to wait for it: 30 s); the EINTR at the end writes the time left.
timeout 20 "$REWIND" record -f -o "$T/thr_restart.rwd" -- "$P/thr_restart" \
  >"$T/thr_restart.out" 2>"$T/thr_restart.err"
check_eq "thr_restart: recorded without waiting for the sleep" 0 "$?"
check "thr_restart: the sleep restarted, then EINTR with the time left" \
  grep -q "^child 7, sleep -1 EINTR, time left sane 1$" "$T/thr_restart.out"
check "thr_restart: restart_syscall in the trace" q thr_restart '
assert enters(219)'
verify thr_restart "exited with status 0"
# A PI mutex: the kernel marks waiters in its word while they sleep.
check "thr_pi: the count" grep -q "^pi: counter 1200$" "$T/thr_pi.out"
check "thr_pi: waiters slept in FUTEX_LOCK_PI" q thr_pi '
assert sum(1 for i in enters(202) if recs[i]["regs"]["rsi"] in
           ("0x6", "0x86", "0xd", "0x8d")) >= 10'

# The process ends while every thread is alive: all are listed at the end,
# named, the thread that called exit current.
rec end "$R/thr_end"
check_eq "end: recorded" 3 "$status"
verify end "exited with status 3"
seekcheck end
check "end: five threads at the end" grep -q ' 5 threads:' "$T/end.end"
for n in blocker0 blocker1 blocker2 sleeper; do
  check "end: $n listed at the end" grep -q "\"$n\"" "$T/end.end"
done

# A thread crashes: the replay runs it to its fault; the others are listed.
rec crash "$R/thr_crash"
check_eq "crash: recorded" 139 "$status"
verify crash "killed by signal 11"
seekcheck crash
check "crash: four threads at the end" grep -q ' 4 threads:' "$T/crash.end"
crasher=$(sed -n 's/.* \([0-9]*\)"crasher".*/\1/p' "$T/crash.end")
check "crash: the crasher is current at the end" \
  grep -q "current $crasher," "$T/crash.end"

# exec from a thread that is not the main one.
rec exec "$R/thr_exec" "$P/exec_target" a b
check_eq "exec: recorded" 0 "$status"
verify exec "exited with status 0"
seekcheck exec 20

# Preempted loops that differ only in memory (a short timeslice keeps the
# replay's search short).
"$REWIND" record -f --timeslice 2 -o "$T/memloop.rwd" -- "$R/thr_memloop" \
  >"$T/memloop.out" 2>"$T/memloop.err"
check_eq "memloop: recorded" 0 "$?"
check "memloop: preempted" test "$("$REWIND" dump --type PREEMPT "$T/memloop.rwd" | wc -l)" -gt 0
verify memloop "exited with status 0"
seekcheck memloop 6

# Asynchronous signals among preempted threads.
rec signals "$R/thr_signals"
check_eq "signals: recorded" 0 "$status"
check "signals: preempted and signalled" q signals '
assert len(of("PREEMPT")) > 0 and len(of("SIGNAL")) > 0'
verify signals "exited with status 0"
seekcheck signals 6

# Timeslices of 1 ms that end at rdtsc and int3 traps: the recorder must
# not locate a thread between a trap and its signal.
# Where the ticks land is the machine's: up to 3 tries for more than 10
# preemptions (a loaded CI machine once gave fewer).
for _ in 1 2 3; do
  "$REWIND" record -f --timeslice 1 -o "$T/traps.rwd" -- "$R/thr_traps" \
    >"$T/traps.out" 2>"$T/traps.err"
  st=$?
  np=$("$REWIND" dump --type PREEMPT "$T/traps.rwd" | wc -l)
  [ "$st" = 0 ] && [ "$np" -gt 10 ] && break
done
check_eq "traps: recorded" 0 "$st"
check "traps: every int3 answered" grep -qx "traps: all" "$T/traps.out"
check "traps: preempted ($np)" test "$np" -gt 10
verify traps "exited with status 0"

# A program that rewrites 16 MiB again and again: the keyframes keep what
# they hold within the budget (64 MiB here; once they held a copy of the
# buffer each, and zstd -19's replay was killed for memory), and seeking
# through the thinned keyframes stays consistent.
rec churn "$R/churn"
check_eq "churn: recorded" 0 "$status"
SEEKCHECK_BUDGET=$((64 << 20)) seekcheck churn 4
check "churn: keyframes within the budget" python3 -c '
import re, sys
m = re.search(r"keyframes at the end: (\d+), holding (\d+) bytes", open(sys.argv[1]).read())
print(m.group(0) if m else "no keyframe line")
assert m and int(m.group(1)) >= 2 and int(m.group(2)) <= 96 << 20' "$T/churn.seek"

# The same in a child process: the budget counts the pages of every
# process's address space (it once counted the first process's only, and
# the replay of `sh -c "xz ..."` grew to 24 GiB).
rec churnkid /bin/sh -c "$R/churn; :"
check_eq "churn in a child: recorded" 0 "$status"
SEEKCHECK_BUDGET=$((64 << 20)) seekcheck churnkid 4
check "churn in a child: keyframes within the budget" python3 -c '
import re, sys
m = re.search(r"keyframes at the end: (\d+), holding (\d+) bytes", open(sys.argv[1]).read())
print(m.group(0) if m else "no keyframe line")
assert m and int(m.group(1)) >= 2 and 16 << 20 <= int(m.group(2)) <= 96 << 20' "$T/churnkid.seek"

# --goto in the middle of a multi-threaded trace names a thread that is
# listed there.
"$REWIND" replay --print --goto 3000000 "$T/thr_pool.rwd" >"$T/goto.out" 2>&1
check "goto: stops in a thread" grep -q '^at instruction 3000000, event [0-9]*, thread [0-9]' "$T/goto.out"
finish
