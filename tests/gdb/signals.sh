#!/bin/bash
# SPDX-License-Identifier: MIT
# Signals in gdb on a replay, as with a live process: continue stops where
# a signal is about to be delivered ("Program received signal ..."), at
# the faulting instruction for a fault, unless gdb lets it pass (handle
# ... nostop noprint, and by default SIGALRM, SIGCHLD and the like);
# $_siginfo there is the recorded one; reverse-continue stops at the same
# places going backwards; continuing from a stop delivers the signal as
# recorded. The program (tests/programs/signals) faults five times into
# handlers, gets SIGALRM from a timer, SIGUSR1 from its child and SIGUSR2
# released by sigprocmask.
. "${top_srcdir:-.}/tests/gdb/lib.sh"

P=$B/tests/programs/signals
rec sg "$P"

session forward sg <<'G'
continue
print $_siginfo.si_signo
print $_siginfo._sifields._sigfault.si_addr
continue
continue
continue
continue
continue
print $_siginfo.si_signo
print $_siginfo.si_code
print $_siginfo._sifields._kill.si_pid > 0
continue
continue
G
expect "continue stops at each fault, in order, where it faults" \
  '^Program received signal SIGSEGV' 'signals.c:50$' '^\$1 = 11$' \
  '^\$2 = \(void \*\) 0x10$' \
  '^Program received signal SIGFPE' 'signals.c:51$' \
  '^Program received signal SIGILL' 'signals.c:52$' \
  '^Program received signal SIGTRAP' 'signals.c:53$' \
  '^Program received signal SIGBUS' 'signals.c:59$'
expect "a signal from another process, with its siginfo" \
  '^Program received signal SIGUSR1' '^\$3 = 10$' '^\$4 = 0$' '^\$5 = 1$'
expect "a blocked signal stops when it is released; the handlers ran" \
  '^Program received signal SIGUSR2' \
  '^segv 1 fpe 1 ill 1 trap 1 bus 1 alrm 1 alt 1 usr1 1 usr2 0/1 spun 1$'
refute "SIGALRM passes by default" 'signal SIGALRM'

session step sg <<'G'
continue
stepi
print $pc == &jump_back
G
expect "stepi from a signal stop ends at the handler's first instruction" \
  '^Program received signal SIGSEGV' '^\$1 = 1$'

session handle sg <<'G'
handle SIGSEGV SIGFPE nostop noprint
handle SIGALRM stop print
continue
continue
continue
continue
G
expect "what gdb lets pass does not stop; what it asks for does" \
  '^Program received signal SIGILL' '^Program received signal SIGTRAP' \
  '^Program received signal SIGBUS' '^Program received signal SIGALRM'
refute "SIGSEGV and SIGFPE passed" 'signal SIG(SEGV|FPE)'

session inject sg <<'G'
continue
signal SIGUSR2
signal 0
continue
G
expect "gdb's own signals cannot be delivered, recorded ones not dropped" \
  '^Program received signal SIGSEGV' \
  '^rewind: a replay cannot deliver SIGUSR2 where the recording has no' \
  '^rewind: SIGSEGV is delivered as recorded' \
  '^Program received signal SIGFPE' '^Program received signal SIGILL' \
  '^Program received signal SIGTRAP'
if [ "$(grep -c '^rewind: .* as recorded' "$T/inject.out")" -eq 2 ]; then
  ok
else
  bad "inject: each said once" "$T/inject.out"
fi

session back sg <<'G'
break _exit
continue
continue
continue
continue
continue
continue
continue
continue
delete
reverse-continue
reverse-continue
reverse-continue
print $_siginfo.si_signo
reverse-continue
continue
continue
G
expect "reverse-continue stops at the signals backwards, then forwards" \
  '^Breakpoint 1(\.[0-9]+)?, .*_exit' \
  '^Program received signal SIGUSR2' '^Program received signal SIGUSR1' \
  '^Program received signal SIGBUS' '^\$1 = 7$' \
  '^Program received signal SIGTRAP' '^Program received signal SIGBUS' \
  '^Program received signal SIGUSR1'

# A handler that returns to the store that faulted: the kernel returns
# there with RF (the resume flag) set, and the store clears it as it
# completes; a keyframe in the computing after it (--keyframes) begins
# with RF clear, as the replay has it there.
rec rf "$B/tests/programs/resumeflag" 2
session rf rf <<'G'
handle SIGSEGV nostop noprint
break after_store
continue
print $eflags
print ($eflags & 0x10000) == 0
G
expect "RF is clear once the faulting store completed again" \
  '^Breakpoint 1, after_store' '^\$2 = 1$'
"$REWIND_RECORD" record -q -f -o "$T/rfk.rwd" --keyframes 0.01 -- \
  "$B/tests/programs/resumeflag" >/dev/null 2>&1
if "$REWIND" replay --verify -j 2 "$T/rfk.rwd" >"$T/rfk.out" 2>&1 &&
  grep -q "in [2-9][0-9]* segments" "$T/rfk.out"; then
  ok
else
  bad "resumeflag: verified in pieces from keyframes" "$T/rfk.out"
fi

# A trace without signals: reverse-continue with no breakpoint goes back
# to the start.
rec plain "$B/tests/programs/exitstatus" 3
session plain plain <<'G'
continue
reverse-continue
G
expect "no signal: continue to the end, reverse-continue to the start" \
  'exited with code 03|exited with code 3|No more reverse-execution history' \
  'No more reverse-execution history' '_start \(\)'
finish
