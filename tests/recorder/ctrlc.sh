#!/bin/bash
# SPDX-License-Identifier: MIT
# Ctrl-C at the terminal: SIGINT goes to the whole foreground process group,
# rewind and the program alike. The program dies of it as it would without
# rewind, rewind exits 130 and still closes the trace, and the replay ends
# with the same signal. (A shell's background job ignores SIGINT, so the
# group is started from python3 with SIGINT at its default.)
. "${top_srcdir:-.}/tests/recorder/lib.sh"

python3 - "$REWIND" "$T/int.rwd" "$P/spin" >"$T/int.out" 2>"$T/int.err" <<'PY'
import os, signal, subprocess, sys, time
rewind, trace, prog = sys.argv[1:4]
p = subprocess.Popen([rewind, "record", "-f", "-o", trace, "--", prog, "30"],
                     start_new_session=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
time.sleep(1.5)
os.killpg(p.pid, signal.SIGINT)
print("status", p.wait())
PY
check "ctrl-c: rewind exits 130" grep -q "^status 130$" "$T/int.out"
check "ctrl-c: says the program was interrupted" grep -q "terminated by signal 2" "$T/int.err"
check "ctrl-c: the trace was closed" sh -c "'$REWIND' info '$T/int.rwd' | grep -q 'closed cleanly'"
check "ctrl-c: EXIT with signo 2" q int 'assert of("EXIT")[-1]["signo"] == 2'
"$REWIND" replay --verify --no-progress "$T/int.rwd" >"$T/int.replay" 2>&1
check "ctrl-c: the replay ends with signal 2" grep -q "killed by signal 2" "$T/int.replay"
finish
