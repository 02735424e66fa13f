#!/bin/bash
# SPDX-License-Identifier: MIT
# The pool of 8 named workers (tests/programs/thr_pool.c): recorded,
# replayed with --verify, a THREAD_START and a THREAD_NAME "worker-N" in the
# trace for each worker (named by prctl or through /proc/.../comm), and gdb:
# only main at the start of the history, `info threads` with all 9 threads
# and their names at the first do_job(), a breakpoint that stops with a
# worker selected, `thread N` with bt, next, step, finish, stepi and their
# reverse forms keeping the worker selected, and only main at the end.
. "${top_srcdir:-.}/tests/threads/lib.sh"

rec_ok pool 'pool: 8 workers, 64 jobs, 2405259 steps, names ok' \
  "$P/thr_pool"
verify pool
check "trace: 8 threads started by the program, each named worker-N" q pool '
starts = [r for r in of("THREAD_START") if r["parent_tid"]]
assert len(starts) == 8, len(starts)
names = set(r["name"] for r in of("THREAD_NAME"))
assert all("worker-%d" % i in names for i in range(8)), names'

# Both ends of the history and the thread list in between.
session list pool <<'G'
echo @@ start\n
info threads
break do_job
continue
echo @@ first\n
info threads
printf "@@ thread %d\n", $_thread
thread 1
bt
thread 3
bt
delete
continue
echo @@ end\n
info threads
reverse-continue
echo @@ back\n
info threads
G
threads_at "at the start of the history only main is listed" start 1 \
  '^\* +1 +Thread [0-9]+\.[0-9]+ "thr_pool"'
expect "break do_job stops in a named worker, which gdb switches to" \
  '^\[Switching to Thread [0-9]+\.[0-9]+\]' \
  '^Thread [0-9]+ "worker-[0-7]" hit Breakpoint 1, do_job \(job='
threads_at "at the first do_job: main and the 8 workers, by name" first 9 \
  '^\* +[0-9]+ +Thread [0-9.]+ "worker-[0-7]" +do_job \(job=' \
  '^  +1 +Thread [0-9.]+ "thr_pool" ' '"worker-0"' '"worker-1"' '"worker-2"' \
  '"worker-3"' '"worker-4"' '"worker-5"' '"worker-6"' '"worker-7"'
t=$(value thread)
check "the breakpoint's thread is a worker, not main (thread ${t:-?})" \
  test "${t:-0}" -gt 1
expect "thread 1 and thread 3 switch, and bt shows main, then a worker" \
  '^\[Switching to thread 1 \(Thread [0-9.]+\)\]' '^#[0-9]+ .*main \(\) at .*thr_pool\.c:' \
  '^\[Switching to thread 3 \(Thread [0-9.]+\)\]' '^#[0-9]+ .*worker \(arg=.*\) at .*thr_pool\.c:'
expect "continue runs to the end of the history" \
  'No more reverse-execution history\.' '^@@ end'
threads_at "at the end of the history only main survives" end 1 \
  '^\* +1 +Thread [0-9.]+ "thr_pool" '
threads_at "back at the start, only main again" back 1 \
  '^\* +1 +Thread [0-9.]+ "thr_pool" '

# Stepping in a worker, forwards and backwards: the worker stays selected.
session step pool <<'G'
break do_job
continue
delete
set $t = $_thread
next
next
printf "@@ next %d\n", $_thread == $t
frame
reverse-next
reverse-next
printf "@@ rnext %d\n", $_thread == $t
set $a = $pc
stepi
stepi
printf "@@ stepi %d\n", $_thread == $t
printf "@@ moved %d\n", $pc != $a
reverse-stepi
reverse-stepi
printf "@@ rstepi %d\n", $_thread == $t
printf "@@ back %d\n", $pc == $a
reverse-finish
printf "@@ rfinish %d\n", $_thread == $t
next
printf "@@ next2 %d\n", $_thread == $t
reverse-next
step
printf "@@ step %d\n", $_thread == $t
finish
printf "@@ finish %d\n", $_thread == $t
G
same_thread "next, reverse-next, stepi, reverse-stepi, reverse-finish, step, finish keep the worker selected" \
  next rnext stepi rstepi rfinish next2 step finish
value_is "stepi moves the worker's pc" moved 1
value_is "reverse-stepi brings it back" back 1
expect "next stays in do_job; reverse-finish goes back to the call in worker" \
  '^#0 +do_job \(job=.*\) at .*thr_pool\.c:' '^@@ rnext' \
  'worker \(arg=.*\) at .*thr_pool\.c:[0-9]+' '^[0-9]+\t +long r = do_job\(job\);' \
  '^@@ rfinish 1'
expect "next steps over do_job in the worker, step enters it, finish returns its value" \
  '^[0-9]+\t +result\[job\] = r;' '^@@ next2' '^do_job \(job=.*\) at .*thr_pool\.c:' \
  '^@@ step' 'worker \(arg=.*\) at .*thr_pool\.c:' 'Value returned is \$[0-9]+ = [0-9]+'
finish
