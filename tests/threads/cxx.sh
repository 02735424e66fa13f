#!/bin/bash
# SPDX-License-Identifier: MIT
# std::thread, std::mutex and a lambda (tests/programs/thr_cxx.cpp):
# recorded, replayed with --verify, and gdb: a breakpoint in count_primes()
# stops in a worker thread whose backtrace goes through main's lambda and
# std::thread's machinery; finish returns one of the four counts and
# reverse-finish goes back to the call, both keeping the worker selected;
# only main at the end.
. "${top_srcdir:-.}/tests/threads/lib.sh"

rec_ok cxx 'cxx: parts 508 525 560 669, 2262 primes below 20000' \
  "$P/thr_cxx"
verify cxx
check "trace: 4 threads started by the program" q cxx '
assert len([r for r in of("THREAD_START") if r["parent_tid"]]) == 4'

session cxx cxx <<'G'
break count_primes
continue
printf "@@ thread %d\n", $_thread
bt
delete
set $t = $_thread
reverse-finish
printf "@@ rfinish %d\n", $_thread == $t
frame
next
printf "@@ next %d\n", $_thread == $t
reverse-next
step
printf "@@ step %d\n", $_thread == $t
finish
printf "@@ finish %d\n", $_thread == $t
continue
echo @@ end\n
info threads
G
expect "count_primes stops in a worker; bt through the lambda and std::thread" \
  '^\[Switching to Thread [0-9]+\.[0-9]+\]' \
  '^Thread [0-9]+ "thr_cxx" hit Breakpoint 1, count_primes \(lo=.*, hi=.*\)' \
  '^#0 +count_primes \(lo=' '^#1 .* in operator\(\) \(__closure=.*\) at .*thr_cxx\.cpp:' \
  '^#[0-9]+ .*main\(\)::<lambda\(\)>' \
  '^#[0-9]+ .*std::thread::_State_impl'
t=$(value thread)
check "the breakpoint's thread is a worker, not main (thread ${t:-?})" \
  test "${t:-0}" -gt 1
expect "reverse-finish goes back to the call in the lambda, next steps over it, step enters, finish returns one worker's count" \
  '^@@ rfinish' '^#0 .* in operator\(\) \(__closure=.*\) at .*thr_cxx\.cpp:' '^@@ next' \
  '^count_primes \(lo=.*, hi=.*\) at .*thr_cxx\.cpp:' '^@@ step' \
  '^Value returned is \$[0-9]+ = (508|525|560|669)$' '^@@ finish'
same_thread "reverse-finish, next, step, finish keep the worker selected" \
  rfinish next step finish
threads_at "at the end of the history only main survives" end 1 \
  '^\* +1 +Thread [0-9.]+ "thr_cxx" '
finish
