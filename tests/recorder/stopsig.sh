#!/bin/bash
# SPDX-License-Identifier: MIT
# SIGTERM, SIGHUP and a SIGINT sent to `rewind record` alone (even by the
# recorded program) end the recording cleanly: PROG is killed, the trace is
# closed and says why it ended, rewind exits 128+N, and the replay verifies
# up to the cut with status 3 and the reason. (A SIGINT PROG gets as well,
# the terminal's Ctrl-C, is PROG's business: tests/recorder/ctrlc.sh.)
# Signals PROG sends to its whole process group do not stop rewind, nor
# does a stop on a terminal of PROG's own.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# stopped NAME SIG STATUS: the checks on a recording stopped by SIG.
stopped() {
  local n=$1 sig=$2 want=$3
  check_eq "$n: rewind exits $want" "$want" "$status"
  check "$n: says why it stopped" grep -q "got SIG$sig.*recording stopped" "$T/$n.err"
  "$REWIND" info "$T/$n.rwd" >"$T/$n.info" 2>&1
  check "$n: the trace was closed" grep -q "closed cleanly" "$T/$n.info"
  check "$n: info says how it ended" grep -q "^stopped: *rewind record got SIG$sig" "$T/$n.info"
  "$REWIND" replay --verify --no-progress "$T/$n.rwd" >"$T/$n.replay" 2>&1
  check_eq "$n: verify says cut off (3)" 3 "$?"
  check "$n: verify gives the reason" grep -q "cut off there (rewind record got SIG$sig" "$T/$n.replay"
}

# The program itself sends SIGTERM to its parent, the recorder, then waits
# in a blocking syscall.
rec term sh -c 'kill -TERM $PPID; exec sleep 30'
stopped term TERM 143
check "term: the sender is named" grep -q "^stopped: .*from pid [0-9]" "$T/term.info"
check "term: sleep is gone" bash -c "! pgrep -f '^sleep 30$'"

# From outside, while PROG runs: SIGHUP, then SIGINT to rewind alone.
for s in HUP INT; do
  "$REWIND" record -f -o "$T/$s.rwd" -- "$P/spin" 30 >"$T/$s.out" 2>"$T/$s.err" &
  rp=$!
  sp=
  for _ in $(seq 50); do
    # This recording's spin: tests running at the same time have their own.
    sp=$(pgrep -P "$rp" -f "^$P/spin 30") && break
    sleep 0.1
  done
  check "$s: spin started" test -n "$sp"
  sleep 0.5
  kill -"$s" "$rp"
  wait "$rp"
  status=$?
  [ "$s" = HUP ] && want=129 || want=130
  stopped "$s" "$s" "$want"
  # Gone, or a zombie nobody has reaped yet.
  check "$s: spin is gone" bash -c "! grep -Eq '^State:.*\\((running|sleeping|stopped|tracing)' /proc/${sp:-0}/status"
done

# The program signals its whole process group (kill(0, SIG), as abort
# tests and job-control code do), and rewind is in it: rewind goes on
# recording, and the program gets the signal as natively. setsid keeps the
# group to rewind and the program.
setsid "$REWIND" record -f -o "$T/group.rwd" -- sh -c \
  'trap "echo got USR1" USR1; trap "echo got TRAP" TRAP; kill -USR1 0;
   kill -TRAP 0; kill -USR2 0; echo not reached' \
  >"$T/group.out" 2>"$T/group.err"
status=$?
check_eq "group: rewind exits as the program did (SIGUSR2)" 140 "$status"
check "group: the program got SIGUSR1 and SIGTRAP" \
  grep -qz "^got USR1.got TRAP.$" "$T/group.out"
"$REWIND" replay --verify --no-progress "$T/group.rwd" >"$T/group.replay" 2>&1
check_eq "group: verify exits 0" 0 "$?"
check "group: the replay ends with SIGUSR2" \
  grep -q "^replay verified: .*killed by signal 12" "$T/group.replay"

# A stop on a terminal of the program's own (a new session with a pty)
# stops that process alone: rewind goes on, and the parent waiting for
# the stop sees it (it used to stop rewind too, for ever).
timeout 60 "$REWIND" record -f -o "$T/pty.rwd" -- "$P/ptystop" \
  >"$T/pty.out" 2>"$T/pty.err"
check_eq "ptystop: recorded, exit 0" 0 "$?"
if grep -q '^ptystop skipped' "$T/pty.out"; then
  echo "note: no pty here; ptystop's stop was not tried"
else
  check "ptystop: the child saw its child stopped by SIGTTOU" \
    grep -q '^ptystop ok$' "$T/pty.out"
  "$REWIND" replay --verify --no-progress "$T/pty.rwd" >"$T/pty.replay" 2>&1
  check_eq "ptystop: verify exits 0" 0 "$?"
fi
finish
