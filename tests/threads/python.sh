#!/bin/bash
# SPDX-License-Identifier: MIT
# python3 with threading, a Lock and a queue (tests/programs/thr_py.py):
# the interpreter recorded running the script, replayed with --verify, the
# names the workers wrote to /proc/self/task/TID/comm in the trace, and
# gdb: only one thread at the start; a breakpoint on getppid() (only the
# workers call it) stops in a worker listed as "py-worker-K"; finish keeps
# it selected; reverse-continue back to the start lists one thread again.
. "${top_srcdir:-.}/tests/threads/lib.sh"

PY=$(command -v python3)
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
rec_ok py 'py: 3 threads, 200 jobs, total 658033300$' \
  "$PY" "$S/thr_py.py"
verify py
check "trace: THREAD_NAME py-worker-0..2, from writes to /proc/.../comm" q py '
names = set(r["name"] for r in of("THREAD_NAME"))
assert {"py-worker-0", "py-worker-1", "py-worker-2"} <= names, names'

session py py <<'G'
echo @@ start\n
info threads
break getppid
continue
echo @@ hit\n
info threads
printf "@@ thread %d\n", $_thread
bt
delete
set $t = $_thread
finish
printf "@@ finish %d\n", $_thread == $t
reverse-continue
echo @@ back\n
info threads
G
threads_at "at the start of the history there is one thread" start 1 \
  '^\* +1 +Thread [0-9]+\.[0-9]+ '
expect "getppid() stops in a python worker thread, by name" \
  '^\[Switching to Thread [0-9]+\.[0-9]+\]' \
  '^Thread [0-9]+ "py-worker-[0-2]" hit Breakpoint 1, .*getppid'
threads_at "info threads: the worker selected, in getppid" hit - \
  '^\* +([2-9]|[1-9][0-9]+) +Thread [0-9.]+ "py-worker-[0-2]" .*getppid' \
  '^  +1 +Thread [0-9.]+ '
expect "bt of the worker: getppid, called from the interpreter, in a started thread" \
  '^@@ thread' '^#0 .*getppid' '^#[0-9]+ .*start_thread'
same_thread "finish keeps the worker selected" finish
expect "reverse-continue goes back to the start" \
  '^@@ finish' 'No more reverse-execution history\.'
threads_at "back at the start, one thread again" back 1 '^\* +1 +Thread '
finish
