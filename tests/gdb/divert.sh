#!/bin/bash
# SPDX-License-Identifier: MIT
# gdb's changes to a replay (gdbstub/serve_divert.c, replayer/divert.c):
# call and print f(x) run the function on a copy of the moment, off the
# record, and return its value; set var and register writes read back;
# a fault in a called function is reported as the signal; a syscall fails
# with ENOSYS and says so; and whatever was changed is gone once the
# replay moves on, forwards or backwards, so the rest of the replay is
# still the recording (the program's own output, its exit, verify).
. "${top_srcdir:-.}/tests/gdb/lib.sh"

P=$B/tests/programs/divert
rec dv "$P"

session calls dv <<'G'
break stop_here
continue
print square(7)
print bump(100)
print counter
print name()
print $rip == stop_here
print my_pid()
set var counter = 1000
print counter
continue
print round
print counter
print bump(1)
reverse-continue
print round
print counter
print square(-3)
delete
continue
G
expect "a call returns the function's value, in order" \
  '^\$1 = 49$' '^\$2 = 107$' '^\$3 = 107$' \
  '^\$4 = 0x[0-9a-f]+ <label> "recorded"$' '^\$5 = 1$'
expect "a syscall in a call fails with ENOSYS, and says so" \
  'off the record, 1 syscall \(the last: getpid\) returned ENOSYS' \
  '^\$6 = -38$'
expect "set var reads back" '^\$7 = 1000$'
expect "the next stop is the recording's: nothing of the calls is left" \
  'the values gdb set are dropped' 'Breakpoint 1, stop_here \(round=.*1\)' \
  '^\$8 = 1$' '^\$9 = 7$' '^\$10 = 8$'
expect "backwards too" 'Breakpoint 1, stop_here \(round=.*0\)' \
  '^\$11 = 0$' '^\$12 = 7$' '^\$13 = 9$'
expect "and the program ends as recorded" 'counter 10 label recorded' \
  'No more reverse-execution history'
n=$(grep -c 'values gdb set are dropped' "$T/calls.out")
if [ "$n" = 1 ]; then ok
else bad "calls: only set var is dropped, said $n times" "$T/calls.out"; fi
expect "the first change says what a diversion is" \
  'gdb changes the replay.s memory or registers'
refute "no divergence" 'diverge|cannot go further'

# Registers set by hand read back; the next step is the recording's.
session regs dv <<'G'
break stop_here
continue
print/x $rax
set var $rax = 0x1234
print/x $rax
stepi
print $rax == 0x1234
continue
print round
G
expect "a register set reads back, and the replay goes on as recorded" \
  '^\$1 = 0x[0-9a-f]+$' '^\$2 = 0x1234$' 'the values gdb set are dropped' \
  '^\$3 = 0$' 'Breakpoint 1, stop_here \(round=.*1\)' '^\$4 = 1$'

# A call that faults: the signal, gdb unwinds, and the replay goes on.
# (gdb ends a batch script at the error it reports: alone, or in python.)
session fault dv <<'G'
break stop_here
continue
set unwindonsignal on
print crash(0)
G
expect "a fault in a call is its signal, and gdb unwinds" \
  'Program received signal SIGSEGV' \
  'signaled while in a function called from GDB' \
  'restored the context'
session fault2 dv <<'G'
break stop_here
continue
python
try:
    gdb.execute("print crash(0)")
except gdb.error as e:
    print(e)
end
bt 3
reverse-continue
continue
print round
G
expect "without unwinding, gdb stays in the call; going back ends it" \
  'Program received signal SIGSEGV' '^#0 +crash \(p=0x0\)' \
  '<function called from gdb>' 'the values gdb set are dropped' \
  'No more reverse-execution history' 'Breakpoint 1, stop_here' '^\$1 = 0$'
refute "no divergence" 'diverge|cannot go further'
finish
