#!/bin/bash
# SPDX-License-Identifier: MIT
# Real gdb, in batch mode, debugging replays forwards and backwards through
# `rewind replay TRACE -- -batch -x SCRIPT`: breakpoints, continue, step,
# next, stepi, nexti, finish, until/advance and watchpoints in both
# directions, registers, memory, backtraces, shared libraries, threads,
# signal handlers, a position deep in a long loop, both ends of the history,
# monitor commands, gdb's changes, and a program whose binary was deleted
# after recording. Every check reads gdb's actual output.
. "${top_srcdir:-.}/tests/gdb/lib.sh"

INV=$B/examples/inventory
rec inv "$INV"
SRC='inventory\.c'

# 1. break, tbreak, delete
session brk inv <<'G'
break add_item
tbreak relabel
continue
continue
continue
delete 1
continue
info breakpoints
G
expect "break stops at each call, with the arguments" \
  'Breakpoint 1, add_item \(label=.*"bolts", stock=120\)' \
  'Breakpoint 1, add_item \(label=.*"nuts", stock=300\)' \
  'Breakpoint 1, add_item \(label=.*"washers", stock=75\)'
expect "tbreak stops once and is gone" \
  'Temporary breakpoint 2, relabel \(i=1, label=.*"hex nuts, M8 zinc"\)' \
  '^No breakpoints or watchpoints\.'

# 2. continue and reverse-continue, to the beginning
session rc inv <<'G'
break add_item
continue
continue
continue
reverse-continue
reverse-continue
reverse-continue
continue
G
expect "reverse-continue goes back hit by hit, then to the start" \
  'add_item \(label=.*"washers"' 'add_item \(label=.*"nuts"' \
  'add_item \(label=.*"bolts"' 'No more reverse-execution history\.' \
  '_start \(\)' 'Breakpoint 1, add_item \(label=.*"bolts"'

# 3-4. step and reverse-step; next and reverse-next
session step inv <<'G'
break main
continue
next
next
step
reverse-step
next
next
reverse-next
reverse-next
G
expect "step into, reverse-step out; next and reverse-next by lines" \
  "main \(\) at .*$SRC:40" '^41	' '^42	' \
  "add_item \(label=.*\"bolts\", stock=120\) at .*$SRC:23" \
  "main \(\) at .*$SRC:42" '^43	' '^44	' '^43	' '^42	'

# 5-6. stepi/reverse-stepi and nexti/reverse-nexti come back to the same pc
session stepi inv <<'G'
break add_item
continue
set $a = $pc
stepi
stepi
print $pc != $a
reverse-stepi
reverse-stepi
print $pc == $a
finish
delete
set $b = $pc
nexti 6
print $pc != $b
reverse-nexti 6
print $pc == $b
G
expect "stepi then reverse-stepi returns to the same instruction" \
  '^\$1 = 1' '^\$2 = 1'
expect "nexti then reverse-nexti returns to the same instruction" \
  '^\$3 = 1' '^\$4 = 1'

# 7. finish and reverse-finish
session fin inv <<'G'
break total_stock
continue
next
next
finish
step
step
reverse-finish
reverse-step
G
expect "finish returns the value; reverse-finish goes back to the call" \
  "main \(\) at .*$SRC:45" 'Value returned is \$1 = 495' \
  '__printf \(format=.*total before relabel' "main \(\) at .*$SRC:45" \
  "total_stock \(\) at .*$SRC:37"

# 8. until and advance
session adv inv <<'G'
break main
continue
advance 45
until 46
advance relabel
G
expect "advance and until stop at the line asked for" \
  "main \(\) at .*$SRC:45" "main \(\) at .*$SRC:46" \
  "relabel \(i=1, label=.*\) at .*$SRC:30"

# 9-10. watch -l in both directions: the seeded bug
session watch inv <<'G'
break relabel
continue
watch -l shelf[1].stock
continue
bt
delete
break 47
continue
print shelf[1].stock
watch -l shelf[1].stock
reverse-continue
bt
up
G
expect "watch -l sees the overrun write, forwards" \
  'Hardware watchpoint 2: -location shelf\[1\]\.stock' 'Old value = 300' \
  'New value = ' '#1 .* relabel \(i=1, label=.*\) at .*inventory\.c:30' \
  '#2 .* main \(\) at .*inventory\.c:46'
expect "watch -l and reverse-continue find the write that corrupted it" \
  '^\$1 = 1852406304' 'Hardware watchpoint 4: -location shelf\[1\]\.stock' \
  'Old value = 1852406304' 'New value = ' \
  "#1 .* relabel \(i=1, label=.*\) at .*$SRC:30" \
  "30	  strcpy\(shelf\[i\]\.label, label\);"

# 11. rwatch and awatch, both directions
session rwatch inv <<'G'
break total_stock
continue
delete
rwatch -l shelf[0].stock
continue
continue
reverse-continue
reverse-continue
G
expect "rwatch reports reads forwards and backwards" \
  'Hardware read watchpoint 2: -location shelf\[0\]\.stock' 'Value = 120' \
  "total_stock \(\) at .*$SRC:35" 'Value = 120' "total_stock \(\) at .*$SRC:35" \
  'Value = 120' "total_stock \(\) at .*$SRC:35" \
  'Value = 120' "total_stock \(\) at .*$SRC:35"
session awatch inv <<'G'
break 44
continue
delete
awatch -l nitems
continue
continue
reverse-continue
reverse-continue
G
expect "awatch reports reads and writes forwards and backwards" \
  'Hardware access \(read/write\) watchpoint 2: -location nitems' \
  'Value = 2' "add_item .* at .*$SRC:23" \
  'Old value = 2' 'New value = 3' "add_item .* at .*$SRC:23" \
  'Old value = 3' 'New value = 2' "add_item .* at .*$SRC:23" \
  'Value = 2' "add_item .* at .*$SRC:23"

# 12-13. registers, memory, globals, locals, heap
session data inv <<'G'
break relabel
continue
info registers rip rsp
info registers xmm0
print $ymm0.v8_int32
print $mxcsr
info all-registers
print nitems
print i
print label
print shelf[0]
print *shelf@3
x/s shelf[2].label
x/4dw &shelf[0].stock
print &shelf[3]
G
expect "info registers" 'rip +0x[0-9a-f]+ +0x[0-9a-f]+ <relabel\+[0-9]+>' \
  'rsp +0x7ff' 'xmm0 +\{' '^\$1 = \{' '^\$2 = \[ '
# With AVX-512 in the description gdb lists k0-7 and zmm0-31 in place of
# the ymm registers, as it does natively on such a CPU.
if grep -qw avx512f /proc/cpuinfo; then
  expect "info all-registers has x87, SSE, AVX-512" 'st0 ' 'mxcsr ' 'k7 ' \
    'zmm15 ' 'zmm31 '
else
  expect "info all-registers has x87, SSE, AVX" 'st0 ' 'mxcsr ' 'ymm15 '
fi
expect "globals, locals, arguments, heap data" '^\$3 = 3' '^\$4 = 1' \
  '^\$5 = .* "hex nuts, M8 zinc"' \
  '^\$6 = \{label = "bolts.*, stock = 120\}' \
  '^\$7 = \{\{label = "bolts.*\{label = "nuts.*stock = 300\}, \{label = "washers' \
  ':	"washers"' ':	120	1937012078	0	0'

# 14-15. backtrace anywhere; shared libraries; threads
session bt inv <<'G'
break total_stock
continue
delete
reverse-stepi 3
bt
stepi 6
bt
up
info locals
info sharedlibrary
info threads
G
expect "backtraces before and after a call, reached backwards" \
  '^#0 .*main \(\) at .*inventory\.c:45' \
  '^#0 .*total_stock \(\) at .*inventory\.c:3[45]' \
  '^#1 .* main \(\) at .*inventory\.c:45'
expect "info sharedlibrary lists the loader and libc from the trace" \
  'Yes .*ld-linux-x86-64\.so\.2' 'Yes .*libc\.so\.6'
expect "info threads names the thread" '^\* 1 +Thread [0-9]+\.[0-9]+ "inventory"'

# 16. both ends of the history
session ends inv <<'G'
reverse-stepi
continue
reverse-stepi
stepi
stepi
info registers rip
G
expect "either end gives No more reverse-execution history" \
  'No more reverse-execution history\.' '_start \(\)' \
  'No more reverse-execution history\.' '_exit' \
  'No more reverse-execution history\.'
refute "no exit is reported at the end" 'exited with code|exited normally'

# 17. monitor commands
session mon inv <<'G'
monitor help
monitor when
break total_stock
continue
monitor when
monitor goto 1000
frame
monitor when
monitor goto 10000000000
monitor frobnicate
G
expect "monitor help, when, goto" 'monitor when' 'monitor goto N' \
  '^at instruction 0, event [0-9]+, thread [0-9]+' \
  '^at instruction [1-9][0-9]+, event [0-9]+' \
  'now at instruction 1000, event' '^#0 .*0x[0-9a-f]+ in .*|^#0 .*' \
  '^at instruction 1000,' 'the history ends before that' \
  "unknown monitor command 'frobnicate'"

# 18. gdb's changes go to a copy of the moment, and are gone when the
# replay moves on (tests/gdb/divert.sh tries them in full)
session change inv <<'G'
break relabel
continue
call total_stock()
set var nitems = 7
print nitems
print $rax = 5
continue
print nitems
G
expect "a call, set var, a register, then the recording again" \
  '^\$1 = 495$' '^\$2 = 7$' '^\$3 = 5$' 'the values gdb set are dropped' \
  'total after relabel: +1852406499' '^\$4 = 3$'

# 18b. info proc: the recorded command line
session proc inv <<'G'
break relabel
continue
info proc cmdline
G
expect "info proc cmdline is the recorded one" "^cmdline = '.*examples/inventory'$"

# 19. run goes back to the start and runs to the next breakpoint, as in rr;
# run N restarts at instruction N; kill ends the session's process, and run
# brings it back.
session run inv <<'G'
break relabel
continue
monitor when
run
monitor when
run 1000
monitor when
kill
info threads
run
bt 1
G
expect "run restarts the replay and stops at the breakpoint again" \
  'Breakpoint 1, relabel \(i=1' '^at instruction ([0-9]+),' \
  'Breakpoint 1, relabel \(i=1' '^at instruction ([0-9]+),' \
  'Breakpoint 1, relabel \(i=1' '^at instruction ([0-9]+),' \
  'Inferior 1 .* killed' 'No threads' 'Breakpoint 1, relabel \(i=1' \
  '^#0 +relabel \(i=1'
pos=$(sed -n 's/^at instruction \([0-9]*\),.*/\1/p' "$T/run.out" | sort -u | wc -l)
if [ "$pos" = 1 ]; then ok; else bad "run: the same position each time" "$T/run.out"; fi

# The README's main job: examples/inventory.gdb finds the corrupting write.
session demo inv <"$top_srcdir/examples/inventory.gdb"
expect "examples/inventory.gdb finds the write with watch -l and reverse-continue" \
  '^\$1 = \{label = "hex nuts, M8", stock = 1852406304\}' \
  'Old value = 1852406304' "relabel \(i=1, label=.*\) at .*$SRC:30" \
  '^\$3 = 12' '^at instruction [0-9]+'

# 19. a program whose binary no longer exists: everything from the trace
mkdir -p "$T/gone"
cp "$INV" "$T/gone/inventory-copy"
rec gone "$T/gone/inventory-copy"
rm -rf "$T/gone"
session gone gone <<'G'
break relabel
continue
bt
info sharedlibrary
G
expect "symbols load from the trace's files with the binary deleted" \
  "Reading symbols from $REWIND_CACHE/sysroot/[0-9a-f]{16}$T/gone/inventory-copy" \
  "Breakpoint 1, relabel \(i=1, label=.*\) at .*$SRC:30" \
  "#1 .* main \(\) at .*$SRC:46" \
  "Yes .*$REWIND_CACHE/sysroot/[0-9a-f]{16}/.*libc\.so\.6"
# The same through vFile, with no local copy.
REWIND_CACHE=off session gonevf gone <<'G'
break relabel
continue
bt
info sharedlibrary
G
expect "symbols load through vFile with REWIND_CACHE=off" \
  'Reading .*/gone/inventory-copy from remote target' \
  "Breakpoint 1, relabel \(i=1, label=.*\) at .*$SRC:30" \
  "#1 .* main \(\) at .*$SRC:46" 'Yes .*target:.*libc\.so\.6'
# The local copy is written once: a second session rewrites nothing.
root=$(ls -d "$REWIND_CACHE"/sysroot/*/ 2>/dev/null | head -n 1)
before=$(find "$REWIND_CACHE/sysroot" -type f -printf '%p %T@\n' | sort)
session gone2 gone <<'G'
break relabel
continue
G
after=$(find "$REWIND_CACHE/sysroot" -type f -printf '%p %T@\n' | sort)
if [ -n "$root" ] && [ -n "$before" ] && [ "$before" = "$after" ] &&
   grep -q "Breakpoint 1, relabel" "$T/gone2.out"; then
  ok
else
  bad "a second session reuses the trace's files" "$T/gone2.out"
fi

# 20. a signal handler
rec sig "$B/tests/programs/signals"
session sig sig <<'G'
break jump_back
continue
continue
bt
continue
continue
reverse-continue
reverse-continue
print sig
G
expect "breakpoints in a signal handler, with the signal frame" \
  '^Program received signal SIGSEGV' \
  'Breakpoint 1, jump_back \(sig=11\)' '<signal handler called>' \
  'main \(' '^Program received signal SIGFPE' \
  'Breakpoint 1, jump_back \(sig=8\)' '^Program received signal SIGFPE' \
  'Breakpoint 1, jump_back \(sig=11\)' '^\$1 = 11'

# 21. deep in a long loop (over 1e8 instructions into the history)
rec loop "$B/tests/programs/longloop" 6000000
session loop loop <<'G'
break checkpoint if i == 5000000
continue
monitor when
delete
break checkpoint
reverse-continue
print i
reverse-stepi
reverse-next
print i
next
next
continue
print i
G
expect "breakpoint, reverse-continue and steps deep in a long loop" \
  'checkpoint \(i=5000000' \
  '^at instruction [1-9][0-9]{8,}, event' \
  'Breakpoint 2, checkpoint \(i=4000000' '^\$1 = 4000000' \
  "main \(argc=2, .*longloop\.c:[0-9]+" '^\$2 = 4000000' \
  'Breakpoint 2, checkpoint \(i=4000000' 'Breakpoint 2, checkpoint \(i=5000000' \
  '^\$3 = 5000000'
# A recorded crash stops like a live one at the faulting store, with its
# $_siginfo; continuing again meets the end of the history; coming back to
# it shows it again.
rec crash "$B/tests/programs/crash"
session crash crash <<'G'
continue
print $_siginfo.si_signo
print $_siginfo.si_code
print $_siginfo._sifields._sigfault.si_addr
continue
reverse-stepi
continue
G
expect "a crash stops with its signal, then the end of the history" \
  '^Program received signal SIGSEGV, Segmentation fault\.' \
  'crash_here \(p=0x0\) at .*crash\.c:8' \
  '^No more reverse-execution history\.' \
  '^Program received signal SIGSEGV, Segmentation fault\.'
expect "\$_siginfo at the crash: SIGSEGV, SEGV_MAPERR, the address" \
  '^\$1 = 11$' '^\$2 = 1$' '^\$3 = \(void \*\) 0x0$'
finish
