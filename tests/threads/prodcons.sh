#!/bin/bash
# SPDX-License-Identifier: MIT
# The mutex and condition-variable producer/consumer
# (tests/programs/thr_prodcons.c): recorded, replayed with --verify, and gdb:
# only main at the end of the history; from there reverse-continue to a
# breakpoint that one consumer reaches stops with that consumer selected
# and listed by name with the producers; bt; reverse-finish, step, finish,
# next over calls that block in futex waits while the other threads run,
# and as many reverse-next, all on the selected consumer, which end in the
# iteration they started from.
. "${top_srcdir:-.}/tests/threads/lib.sh"

rec_ok pc 'prodcons: 1000 items, sum 500500, milestone 700' \
  "$P/thr_prodcons"
verify pc
check "trace: 4 threads started, named producer-0/1 and consumer-0/1" q pc '
assert len([r for r in of("THREAD_START") if r["parent_tid"]]) == 4
names = set(r["name"] for r in of("THREAD_NAME"))
assert {"producer-0", "producer-1", "consumer-0", "consumer-1"} <= names, names'
check "trace: the threads waited for each other in futex (nr 202)" q pc '
assert len(enters(202)) >= 10, len(enters(202))'

session pc pc <<'G'
continue
echo @@ end\n
info threads
break milestone
reverse-continue
echo @@ hit\n
info threads
bt
delete
set $t = $_thread
reverse-finish
printf "@@ rfinish %d\n", $_thread == $t
step
printf "@@ step %d\n", $_thread == $t
finish
printf "@@ finish %d\n", $_thread == $t
next
next
next
next
printf "@@ next %d\n", $_thread == $t
frame
reverse-next
reverse-next
reverse-next
reverse-next
printf "@@ rnext %d\n", $_thread == $t
frame
printf "@@ item %d\n", item
G
threads_at "at the end of the history only main survives" end 1 \
  '^\* +1 +Thread [0-9.]+ "thr_prodcons" '
expect "reverse-continue from the end stops in the consumer that took item 700" \
  '^\[Switching to Thread [0-9]+\.[0-9]+\]' \
  '^Thread [0-9]+ "consumer-[01]" hit Breakpoint 1, milestone \(.*item=700'
threads_at "info threads: the consumer selected in milestone, producer-1 and main listed" hit - \
  '^\* +[0-9]+ +Thread [0-9.]+ "consumer-[01]" +milestone \(.*item=700' \
  '^  +1 +Thread [0-9.]+ "thr_prodcons" ' '^  +[0-9]+ +Thread [0-9.]+ "producer-1" '
expect "bt of the consumer" '^#0 +milestone \(.*item=700' \
  '^#1 .*consumer \(arg=.*\) at .*thr_prodcons\.c:'
same_thread "reverse-finish, step, finish, next, reverse-next keep the consumer selected" \
  rfinish step finish next rnext
value_is "as many reverse-next as next come back to the iteration of item 700" \
  item 700
expect "reverse-finish returns to the call, step re-enters, finish returns the value" \
  'consumer \(arg=.*\) at .*thr_prodcons\.c:[0-9]+' \
  '^[0-9]+\t +if \(item == 700\) milestone\(item, sum\);' '^@@ rfinish' \
  '^milestone \(.*item=700.*\) at .*thr_prodcons\.c:' '^@@ step' \
  'Value returned is \$[0-9]+ = [0-9]+' '^@@ finish' \
  '^#0 +consumer \(arg=.*\) at .*thr_prodcons\.c:' '^@@ rnext' \
  '^#0 +consumer \(arg=.*\) at .*thr_prodcons\.c:'
finish
