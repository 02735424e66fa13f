#!/bin/bash
# SPDX-License-Identifier: MIT
# gdb's `catch syscall` on a replay (QCatchSyscalls: stops at each entry
# and return, forwards and backwards, in the thread that made the call,
# across a blocking read that another thread ends), and the program's
# output shown during the replay as it was during the recording: once,
# in order, standard output and error alike, not what went to a file, not
# again after going back, and not with -q; watchpoints that see the
# kernel's writes. Every check reads gdb's output.
. "${top_srcdir:-.}/tests/gdb/lib.sh"

rec ch "$B/tests/programs/chatty"

# 1. The output, once, in order, while the program runs forwards.
session out ch <<'G'
continue
reverse-continue
continue
G
expect "the program's output appears as the replay passes it" \
  '^out 0$' '^out 1$' '^out 2$' '^err 0$' '^vec out$' '^end$' \
  '^reader got ping$' 'No more reverse-execution history' \
  'No more reverse-execution history' 'No more reverse-execution history'
n=$(grep -c '^out 0$' "$T/out.out")
if [ "$n" = 1 ]; then ok; else bad "out: 'out 0' shown $n times, not once" "$T/out.out"; fi
refute "what went to a file is not shown" 'hidden'

# 2. -q: no output.
timeout 120 "$REWIND" replay -q "$T/ch.rwd" -- -batch -nx -ex continue \
  >"$T/quiet.out" 2>&1
cur=quiet
refute "-q shows none of the program's output" '^(out 0|err 0|end)$'
expect "-q still replays to the end" 'exit|_exit'

# 3. catch syscall write: entry, then the bytes, then the return; the
# arguments at the entry; backwards the return comes before the entry.
session cw ch <<'G'
break main
continue
catch syscall write
continue
p $rdi
p $rdx
continue
p $rax
continue
reverse-continue
p $rax
reverse-continue
p $rdx
reverse-continue
continue
continue
G
expect "catch syscall write stops at entry and return, both ways" \
  'Catchpoint 2 \(call to syscall write\)' '^\$1 = 1$' '^\$2 = 6$' \
  '^out 0$' 'Catchpoint 2 \(returned from syscall write\)' '^\$3 = 6$' \
  'Catchpoint 2 \(call to syscall write\)' \
  'Catchpoint 2 \(returned from syscall write\)' '^\$4 = 6$' \
  'Catchpoint 2 \(call to syscall write\)' '^\$5 = 6$' \
  'Breakpoint 1, main' \
  'Catchpoint 2 \(call to syscall write\)' \
  'Catchpoint 2 \(returned from syscall write\)'
n=$(grep -c '^out 0$' "$T/cw.out")
if [ "$n" = 1 ]; then ok; else bad "cw: 'out 0' shown $n times, not once" "$T/cw.out"; fi
refute "the replay never passed the second write" '^out 1$'

# 4. Only the syscalls asked for; all of them; off again.
session sel ch <<'G'
break main
continue
catch syscall getppid writev
continue
continue
continue
continue
continue
continue
continue
delete 2
continue
G
expect "catch syscall NAME... stops at those alone" \
  '\(call to syscall getppid\)' '\(returned from syscall getppid\)' \
  '\(call to syscall getppid\)' '\(returned from syscall getppid\)' \
  '\(call to syscall getppid\)' '\(returned from syscall getppid\)' \
  '\(call to syscall writev\)' '^reader got ping$'
refute "catch syscall NAME does not stop at others" \
  'syscall (write|read|clone3?|exit_group)\)'

# 5. A blocking read in another thread: its entry in that thread, its
# return after main's write, with the bytes read; then backwards.
session rd ch <<'G'
break main
continue
catch syscall read
continue
p fd
continue
p got
reverse-continue
p got
reverse-continue
G
expect "a blocking read stops in its thread at entry and at return" \
  'Thread 2 .* hit Catchpoint 2 \(call to syscall read\)' '^\$1 = 4$' \
  'Thread 2 .* hit Catchpoint 2 \(returned from syscall read\)' \
  '^\$2 = "ping"' \
  'Catchpoint 2 \(call to syscall read\)' '^\$3 = .\\000' \
  'Breakpoint 1, main|No more reverse-execution history'

# 6b. A watchpoint sees what the kernel writes (read() into it), in the
# thread whose syscall wrote it, forwards and backwards.
session kw ch <<'G'
break main
continue
watch got[10]
watch got[0]
continue
p got
continue
reverse-continue
p got[0]
reverse-continue
G
expect "a watchpoint stops where a syscall wrote the watched byte" \
  'Thread 2 .* hit Hardware watchpoint 3: got\[0\]' \
  "^Old value = 0 '\\\\000'" "^New value = 112 'p'" '__GI___libc_read \(' \
  '^\$1 = "ping"' 'No more reverse-execution history' \
  'hit Hardware watchpoint 3: got\[0\]' "^Old value = 112 'p'" \
  "^New value = 0 '\\\\000'" '^\$2 = 0 ' 'Breakpoint 1, main'

refute "the other watchpoint in the same cache line, unchanged, does not stop" \
  'hit Hardware watchpoint 2: got\[10\]'

# 6c. A breakpoint before the syscall, the entry, back to the breakpoint:
# continuing stops at the entry again.
session again ch <<'G'
break main
continue
catch syscall getppid
break getppid
continue
continue
reverse-continue
continue
continue
G
expect "the entry stops again after going back before it" \
  'Breakpoint 3, .*getppid' '\(call to syscall getppid\)' \
  'Breakpoint 3, .*getppid' '\(call to syscall getppid\)' \
  '\(returned from syscall getppid\)'

# 6d. catch syscall execve in a program that execs: the entry, the new
# program (gdb loads it), the return.
rec ex "$top_srcdir/tests/programs/exec_wrapper.sh" /bin/true
session ex ex <<'G'
catch syscall execve
continue
continue
continue
info inferiors
G
expect "an exec stops at its entry, then gdb loads the new program" \
  '\(call to syscall execve\)' 'is executing new program: .*/true' \
  '\(returned from syscall execve\)'

# 6e. monitor goto across the exec, either way: the stub says which
# program runs there and how to load it, and the next step is one step
# (an exec event there would make gdb continue to the history's end).
session exgo ex <<'G'
monitor goto 100000000
file target:/bin/true
bt 1
reverse-stepi
monitor when
monitor goto 5
stepi
monitor when
G
expect "a goto past the exec names the program and a step stays a step" \
  'the history ends before that; now at instruction ([0-9]+),' \
  'process [0-9]+ runs (/usr)?/bin/true here, another .*`file target:' \
  '^#0 .*_exit' \
  '^at instruction [0-9]+, ' \
  'now at instruction 5,' \
  'runs /[^ ]*(sh|dash) here, another program' \
  '^at instruction 6, '
refute "no exec event turns a step into a continue" 'is executing new program'
# The step back from the end is one instruction back.
end_at=$(sed -nE 's/.*ends before that; now at instruction ([0-9]+),.*/\1/p' \
  "$T/exgo.out" | head -n 1)
back_at=$(sed -nE 's/^at instruction ([0-9]+), .*/\1/p' "$T/exgo.out" |
  head -n 1)
if [ -n "$end_at" ] && [ "${back_at:-x}" = "$((end_at - 1))" ]; then ok; else
  bad "exgo: reverse-stepi from $end_at went to ${back_at:-nowhere}" \
    "$T/exgo.out"
fi

# 6. catch syscall with no name, and `run` going back to the start.
session all ch <<'G'
catch syscall
continue
continue
run
continue
G
expect "catch syscall stops at every syscall, and again after run" \
  'Catchpoint 1 \(call to syscall brk\)' \
  'Catchpoint 1 \(returned from syscall brk\)' \
  'Catchpoint 1 \(call to syscall brk\)'

finish
