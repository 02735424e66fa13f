#!/bin/bash
# SPDX-License-Identifier: MIT
# Signals: synchronous faults with handlers, an asynchronous timer signal
# (located by PREEMPT), a signal from another process, an alternate stack,
# sigprocmask; the kernel-written frame is imported; death by a crash (with
# a backtrace, and of a PID namespace's init) and by a kill from outside.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

rec sig "$P/signals"
check_eq "signals: exit 0" 0 "$status"
check "signals: program saw every signal" grep -q "segv 1 fpe 1 ill 1 trap 1 bus 1 alrm 1 alt 1 usr1 1 usr2 0/1" "$T/sig.out"
for s in 11 8 4 5 7 14 10 12; do
  check "signals: SIGNAL $s recorded" q sig "assert [r for r in of('SIGNAL') if r['signo'] == $s]"
done
check "signals: SIGSEGV fault address" q sig '
assert [r for r in of("SIGNAL") if r["signo"] == 11 and r["addr"] == "0x10"]'
check "signals: handler entry registers and siginfo" q sig '
for r in of("SIGNAL"):
    assert r["regs"]["rip"] != "0x0" and len(r["siginfo"]) == 256
    assert int.from_bytes(bytes.fromhex(r["siginfo"])[:4], "little") == r["signo"]'
check "signals: frame imported from the handler stack up" q sig '
for i, r in enumerate(recs):
    if r["type"] != "SIGNAL": continue
    sp = int(r["regs"]["rsp"], 16)
    m = recs[i + 1]
    assert m["type"] == "MEM" and int(m["addr"], 16) <= sp
    assert sum(x["data_len"] for x in mem_after(i)) >= 1024'
check "signals: SIGALRM ran on the alternate stack" q sig '
a = [r for r in of("SIGNAL") if r["signo"] == 14][0]
s = [r for r in of("SYSCALL_ENTER") if r["nr"] == 131][0]
assert int(a["regs"]["rsp"], 16) >> 16 != int(s["regs"]["rsp"], 16) >> 16'
check "signals: asynchronous ones located by PREEMPT" q sig '
for i, r in enumerate(recs):
    if r["type"] == "SIGNAL" and r["signo"] in (14, 10, 12):
        assert recs[i - 1]["type"] == "PREEMPT" and recs[i - 1]["digest"] != "0x0"'
check "signals: synchronous ones are not preempted" q sig '
for i, r in enumerate(recs):
    if r["type"] == "SIGNAL" and r["signo"] in (11, 8, 4, 5, 7):
        assert recs[i - 1]["type"] != "PREEMPT"'
check "signals: handlers that return use rt_sigreturn" q sig 'assert len(enters(15)) == 3'

# A crash: exit status, message, backtrace with function names, EXIT.
rec crash "$P/crash"
check_eq "crash: exit status 128+11" 139 "$status"
check "crash: message" grep -q "crash crashed with signal 11" "$T/crash.err"
check "crash: backtrace names crash_here" grep -q "in crash_here+0x" "$T/crash.err"
check "crash: backtrace names main" grep -q "in main+0x" "$T/crash.err"
check "crash: backtrace before the replay hint" awk '/crash_here/ {b = NR} /replay with/ {r = NR} END {exit !(b && r > b)}' "$T/crash.err"
check "crash: output before the crash kept" grep -q "about to crash" "$T/crash.out"
check "crash: EXIT with signo 11" q crash 'e = of("EXIT")[-1]; assert e["signo"] == 11'
check "crash: metadata" test "$("$META" "$T/crash.rwd" exit)" = "signal 11"

# A crash of the init process of a PID namespace: traced, it ignores its
# own fatal signals and faults again for ever, which hung the recording.
# The recorder kills it with SIGKILL and says why. (Needs unshare -fp:
# root, or user namespaces.)
if unshare -fp true 2>/dev/null; then
  timeout 60 "$REWIND" record -f -o "$T/nsinit.rwd" -- \
    unshare -fp "$P/crash" >"$T/nsinit.out" 2>"$T/nsinit.err"
  st=$?
  check "nsinit: the recording ends by itself (status $st)" \
    test "$st" -ne 124 -a "$st" -ne 0
  check "nsinit: says why the crash did not kill it" \
    grep -q "is the init of a PID namespace.*SIGKILL" "$T/nsinit.err"
  check "nsinit: output before the crash kept" grep -q "about to crash" \
    "$T/nsinit.out"
  check "nsinit: the crashed process EXITs killed by SIGKILL" q nsinit '
e = [r for r in of("EXIT") if r["tid"] != recs[0]["tid"]]
assert len(e) == 1 and e[0]["signo"] == 9, e'
  verified nsinit
else
  echo "note: nsinit skipped: unshare -fp is not permitted here"
fi

# Killed from outside while running: PREEMPT locates it, EXIT has the signal.
"$REWIND" record -f -o "$T/term.rwd" -- "$P/spin" 20 >/dev/null 2>"$T/term.err" &
rp=$!
for _ in $(seq 50); do
  tp=$(pgrep -f -n "^$P/spin 20") && break
  sleep 0.1
done
sleep 0.5
kill -TERM "${tp:-0}"
wait $rp
st=$?
check_eq "kill -TERM: rewind exits 128+15" 143 "$st"
check "kill -TERM: message" grep -q "terminated by signal 15" "$T/term.err"
check "kill -TERM: EXIT signo 15 after a PREEMPT" q term '
e = of("EXIT")[-1]; assert e["signo"] == 15 and of("PREEMPT")'
finish
