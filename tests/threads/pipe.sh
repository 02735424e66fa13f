#!/bin/bash
# SPDX-License-Identifier: MIT
# A thread blocked in read() on a pipe while another sleeps, then writes
# (tests/programs/thr_pipe.c): recorded, replayed with --verify, the
# reader's read() entered before the writer's write() and returned after it
# in the trace, and gdb: a breakpoint on the read line stops in "reader";
# next over the blocking read (the writer runs meanwhile) and reverse-next
# keep the reader selected; received() shows the message, reverse-finish
# goes back to its call; only main at the end.
. "${top_srcdir:-.}/tests/threads/lib.sh"

rec_ok pipe "pipe: reader got 22 bytes: 'hello through the pipe'" \
  "$P/thr_pipe"
verify pipe
check "trace: read entered, then the writer's write, then read returned" q pipe '
name = {r.get("field_tid", r["tid"]): r["name"] for r in of("THREAD_NAME")}
rd = [t for t in name if name[t] == "reader"][0]
wr = [t for t in name if name[t] == "writer"][0]
def seqs(typ, tid, nr):
    return [r["seq"] for r in recs if r["type"] == typ and r["tid"] == tid and r["nr"] == nr]
ent, ext, w = seqs("SYSCALL_ENTER", rd, 0), seqs("SYSCALL_EXIT", rd, 0), seqs("SYSCALL_ENTER", wr, 1)
assert ent and ext and w, (ent, ext, w)
assert ent[-1] < w[0] < ext[-1], (ent, w, ext)'

line=$(grep -n 'long n = read(' "$S/thr_pipe.c" | cut -d: -f1)
session pipe pipe <<G
break thr_pipe.c:$line
continue
delete
set \$t = \$_thread
next
printf "@@ next %d\n", \$_thread == \$t
printf "@@ n %ld\n", n
reverse-next
printf "@@ rnext %d\n", \$_thread == \$t
next
printf "@@ next2 %d\n", \$_thread == \$t
break received
continue
echo @@ received\n
info threads
bt
delete
reverse-finish
printf "@@ rfinish %d\n", \$_thread == \$t
continue
echo @@ end\n
info threads
G
expect "the breakpoint on the read line stops in the reader thread" \
  "^Thread [0-9]+ \"reader\" hit Breakpoint 1, reader \(arg=.*\) at .*thr_pipe\.c:$line"
same_thread "next over the blocking read, reverse-next, reverse-finish keep the reader selected" \
  next rnext next2 rfinish
value_is "after next, read() has returned the 22 bytes" n 22
expect "next goes over read(), reverse-next comes back to it" \
  '^[0-9]+\t +if \(n > 0\) received\(buf, n\);' '^@@ next ' \
  "^$line\\t +long n = read\\(fds\\[0\\], buf, sizeof buf - 1\\);" '^@@ rnext' \
  '^[0-9]+\t +if \(n > 0\) received\(buf, n\);' '^@@ next2'
expect "received() gets the message, in the reader" \
  '^Breakpoint 2, received \(buf=.*"hello through the pipe".*, n=22\)|^Thread [0-9]+ "reader" hit Breakpoint 2, received \(buf=.*"hello through the pipe".*, n=22\)' \
  '^#1 .*reader \(arg=.*\) at .*thr_pipe\.c:' \
  'reader \(arg=.*\) at .*thr_pipe\.c:[0-9]+' '^@@ rfinish'
threads_at "in received(), the reader is the selected thread" received - \
  '^\* +[0-9]+ +Thread [0-9.]+ "reader" +received \(' \
  '^  +1 +Thread [0-9.]+ "thr_pipe" '
threads_at "at the end of the history only main survives" end 1 \
  '^\* +1 +Thread [0-9.]+ "thr_pipe" '
finish
