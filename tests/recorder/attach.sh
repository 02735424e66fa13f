#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind record -p (recorder/attach.c): attaching to a process that is
# already running, recording it for a while under load and letting it go.
# The process must go on unharmed (it keeps serving, computes what it
# computes unrecorded), the trace must verify to its end (the DETACH
# record's memory digest) and be debuggable with gdb, forwards and back.
# Also: Ctrl-C ends such a recording, a process that exits while recorded
# ends it too, several processes are recorded together (-p -p), and what
# cannot be attached to is refused clearly.
. "${top_srcdir:-.}/tests/recorder/lib.sh"
A="$P/attachee"

# --- a threaded server under load, recorded for a second ---------------
start srv serve "$T/sock"
check "server: started" test -n "$pid"
srv=$pid
# The load runs until told to stop, after the detach, so that the window
# holds requests however fast the clients or slow the attach are (the 12
# clients it used to be could all be done before a slow attach began);
# it counts its clients for the server's total.
(n=0
 while [ ! -e "$T/load.stop" ] || [ "$n" -lt 3 ]; do
   "$A" client "$T/sock" 300 || echo CLIENT-FAILED
   n=$((n + 1))
 done >"$T/load.out" 2>&1
 echo "$n" >"$T/load.n") &
load=$!
"$REWIND" record -p "$srv" --duration 1 -o "$T/srv.rwd" >"$T/srv.out" \
  2>"$T/srv.err"
check_eq "server: rewind record -p exits 0" 0 "$?"
check "server: says it attached" grep -q "attached to process $srv (attachee, 5 threads)" "$T/srv.err"
check "server: says it detached" grep -q "detached from process $srv, which goes on" "$T/srv.err"
touch "$T/load.stop"
wait "$load"
check "server: every client was answered right, during and after" \
  sh -c "! grep . '$T/load.out'"
check "server: still serves after the detach" "$A" client "$T/sock" 50 quit
wait "$srv"
check_eq "server: exits 0 when told" 0 "$?"
check "server: counted every request" grep -q \
  "^served $(($(cat "$T/load.n") * 300 + 50))$" "$T/srv.srv"
check "server: the trace says detached" sh -c "'$REWIND' info '$T/srv.rwd' | grep -q '^exit: *detached'"
check "server: the state of 5 threads, then DETACH last" q srv '
assert recs[0]["type"] == "EXEC"
starts = of("THREAD_START")
assert len(starts) == 5 and all(s["parent_tid"] == 0 for s in starts)
assert recs[-1]["type"] == "DETACH" and recs[-1]["tid"] == 0
assert recs[-1]["has_digest"] == 1
assert not of("END") and not of("EXIT")
xs = of("XSTATE")
assert sorted(x["tid"] for x in xs) == sorted(s["tid"] for s in starts)
assert all(x["xinuse"] != "0x0" for x in xs), xs
assert len(of("SYSCALL_ENTER")) > 100'
verified srv
shows srv "memory at the end checked"
shows srv "rewind detached from the process, which went on running"

# gdb on the window: a breakpoint forwards, a watchpoint backwards from the
# end, the threads as they were. The breakpoint is on what every request
# runs (write_all, called by serve_one in a worker): one client's 300
# requests go through one serve_one call, which may span the whole window
# when the recording is slow (a sanitizer build), so that serve_one itself
# is never entered in it.
timeout 300 gdb -q -batch -nx \
  -ex "target remote | '$REWIND' serve --stdio '$T/srv.rwd'" \
  -ex "info threads" -ex "break write_all" -ex "continue" -ex "bt 3" \
  -ex "delete" -ex "continue" -ex "watch -l served" -ex "reverse-continue" \
  -ex "p served" -ex "reverse-continue" -ex "p served" \
  >"$T/gdb.out" 2>&1
check "gdb: five threads at the start" sh -c "grep -c 'Thread ' '$T/gdb.out' | awk '\$1 >= 5 {ok=1} END {exit !ok}'"
check "gdb: the breakpoint in a worker" grep -Eq "hit Breakpoint 1(\.[0-9]+)?, write_all" "$T/gdb.out"
check "gdb: its callers" sh -c "grep -q 'serve_one (c=' '$T/gdb.out' &&
  grep -q 'worker (arg=' '$T/gdb.out'"
check "gdb: the end of the history" grep -q "No more reverse-execution history" "$T/gdb.out"
check "gdb: the watchpoint backwards, twice, one request each" python3 -c '
import re, sys
v = [int(x) for x in re.findall(r"^\$\d+ = (\d+)$", open(sys.argv[1]).read(), re.M)]
assert len(v) == 2 and v[1] == v[0] - 1, v' "$T/gdb.out"

# --- a compute loop making syscalls, until Ctrl-C ----------------------
"$A" compute 600000000 100 >"$T/native.out" 2>&1
start cmp compute 600000000 100
check "compute: started" test -n "$pid"
# sig_after SIG SECONDS PID TRACE: records PID, sends rewind SIG SECONDS
# after it says it attached; prints rewind's status, its stderr to stderr.
sig_after() {
  python3 - "$REWIND" "$@" <<'PY'
import os, signal, subprocess, sys, time
rewind, sig, secs, pid, trace = sys.argv[1:6]
p = subprocess.Popen([rewind, "record", "-p", pid, "-o", trace],
                     start_new_session=True, stderr=subprocess.PIPE, text=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
for line in p.stderr:
    sys.stderr.write(line)
    if "attached to process" in line:
        break
time.sleep(float(secs))
os.kill(p.pid, getattr(signal, sig))
sys.stderr.write(p.stderr.read())
print("status", p.wait())
PY
}
sig_after SIGINT 1 "$pid" "$T/cmp.rwd" >"$T/cmp.out" 2>"$T/cmp.err"
check "compute: rewind exits 0 after SIGINT" grep -q "^status 0$" "$T/cmp.out"
check "compute: says why it detached" grep -q "Ctrl-C: detached from process $pid" "$T/cmp.err"
wait "$pid"
check_eq "compute: the process exits 0" 0 "$?"
check "compute: its result is the unrecorded one" \
  bash -c "grep '^result' '$T/native.out' | cmp -s - <(grep '^result' '$T/cmp.srv')"
verified cmp
check "compute: getppid recorded, the last record DETACH" q cmp '
assert len(enters(110)) > 100
assert recs[-1]["type"] == "DETACH"'

# --- a compute loop without syscalls: the detach finds it in user code --
start spin compute 1500000000
sig_after SIGTERM "$(san_or 0.3 0.1)" "$pid" "$T/spin.rwd" >"$T/spin.out" \
  2>"$T/spin.err"
check "spin: rewind exits 0 after SIGTERM" grep -q "^status 0$" "$T/spin.out"
wait "$pid"
check_eq "spin: the process exits 0" 0 "$?"
"$A" compute 1500000000 >"$T/spin.native" 2>&1
check "spin: its result is the unrecorded one" \
  bash -c "grep '^result' '$T/spin.native' | cmp -s - <(grep '^result' '$T/spin.srv')"
check "spin: located by a PREEMPT before DETACH" q spin '
assert recs[-1]["type"] == "DETACH"
assert [r for r in recs if r["type"] in ("PREEMPT", "RDTSC")], "no point"'
verified spin

# --- syscalls back to back: the detach often finds one being entered ---
# That syscall is taken back and made again once the process goes on; the
# trace has it entered (with rcx, which the program had set before the
# instruction, overwritten by it: the point before cannot be told).
"$A" compute 10000000 1 >"$T/sys.native" 2>&1
entered=0
for k in 1 2 3; do
  start sys$k compute 10000000 1
  "$REWIND" record -p "$pid" --duration 1 -o "$T/sys$k.rwd" \
    >"$T/sys$k.out" 2>"$T/sys$k.err"
  check_eq "syscalls $k: rewind record -p exits 0" 0 "$?"
  wait "$pid"
  check_eq "syscalls $k: the process exits 0" 0 "$?"
  check "syscalls $k: its result is the unrecorded one" \
    bash -c "grep '^result' '$T/sys.native' | cmp -s - <(grep '^result' '$T/sys$k.srv')"
  verified sys$k
  q sys$k 'assert recs[-2]["type"] == "SYSCALL_ENTER"' >/dev/null 2>&1 &&
    entered=$((entered + 1))
done
echo "# syscalls: the detach found a syscall being entered $entered time(s) of 3"

# --- a process with a seccomp filter of its own -------------------------
# rewind makes it run no syscall (its filter might refuse them): rdtsc is
# patched instead of trapped, and it says so.
start filt compute 600000000 100 filter
"$REWIND" record -p "$pid" --duration 1 -o "$T/filt.rwd" >"$T/filt.out" \
  2>"$T/filt.err"
check_eq "filter: rewind record -p exits 0" 0 "$?"
check "filter: says what it does not do" grep -q "seccomp filter of its own" "$T/filt.err"
wait "$pid"
check_eq "filter: the process exits 0" 0 "$?"
check "filter: its result is the unrecorded one" \
  bash -c "grep '^result' '$T/native.out' | cmp -s - <(grep '^result' '$T/filt.srv')"
verified filt

# --- a reader blocked in read(2) when rewind lets it go -----------------
# Its read is interrupted by the detach (or returns): either way the
# kernel goes on with it, and nothing written to the pipe is lost.
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/cat.out" &
catp=$!
exec 7>"$T/fifo"
"$REWIND" record -p "$catp" --duration 1 -o "$T/cat.rwd" >"$T/cat.rec" 2>&1 &
r=$!
for _ in $(seq 200); do
  grep -q "attached to process" "$T/cat.rec" && break
  sleep 0.05
done
echo during >&7
wait "$r"
check_eq "reader: rewind record -p exits 0" 0 "$?"
echo after >&7
exec 7>&-
wait "$catp"
check_eq "reader: cat exits 0" 0 "$?"
check "reader: got both lines" bash -c "printf 'during\nafter\n' | cmp -s - '$T/cat.out'"
verified cat

# --- the process ends while recorded ------------------------------------
# (attached through the id of one of its threads, not its pid)
start ends serve "$T/sock2"
tid=$(ls "/proc/$pid/task" | sort -n | tail -n 1)
"$REWIND" record -p "$tid" -o "$T/ends.rwd" >"$T/ends.out" 2>"$T/ends.err" &
r=$!
for _ in $(seq 200); do # until it has attached
  grep -q "attached to process" "$T/ends.err" && break
  sleep 0.05
done
check "ends: served while recorded" "$A" client "$T/sock2" 20 quit
wait "$r"
check_eq "ends: rewind exits with its status" 0 "$?"
wait "$pid"
check "ends: a thread id stands for its process" grep -q "$tid is a thread of process $pid" "$T/ends.err"
check "ends: an END, no DETACH" q ends '
assert recs[-1]["type"] == "END" and not of("DETACH")'
verified ends
shows ends "exited with status 0"

# --- several processes at once: a server and its client ---------------
# The client is a process of its own (not the server's child), recorded as
# a fork of the first in one trace; gdb --tree sees both, forwards and
# back; both go on unharmed and every request is answered.
start pair serve "$T/sock3"
psrv=$pid
"$A" client "$T/sock3" 40000 >"$T/pair.cl" 2>&1 &
pcl=$!
sleep 0.2
"$REWIND" record -p "$psrv" -p "$pcl" -p "$psrv" --duration 1 \
  -o "$T/pair.rwd" >"$T/pair.out" 2>"$T/pair.err"
check_eq "pair: rewind record -p -p exits 0" 0 "$?"
check "pair: says it attached to both" grep -q "attached to 2 processes ($psrv, $pcl; 6 threads)" "$T/pair.err"
check "pair: says it let both go" grep -q "detached from the 2 processes, which go on" "$T/pair.err"
wait "$pcl"
check_eq "pair: the client ends well after the detach" 0 "$?"
check "pair: the server still serves" "$A" client "$T/sock3" 10 quit
wait "$psrv"
check "pair: the server counted every request" grep -q "^served 40010$" "$T/pair.srv"
check "pair: two images, the client a fork of the first, DETACH" q pair "
assert len(of('EXEC')) == 2, of('EXEC')
f = of('FORK')
assert len(f) == 1 and f[0]['child_pid'] == $pcl, f
assert len(of('THREAD_START')) == 7
assert recs[-1]['type'] == 'DETACH' and recs[-1]['has_digest'] == 1"
verified pair
timeout 300 gdb -q -batch -nx -ex "set detach-on-fork off" \
  -ex "set schedule-multiple on" \
  -ex "target remote | '$REWIND' serve --tree --stdio '$T/pair.rwd'" \
  -ex "break write_all" -ex "continue" -ex "continue" -ex "continue" \
  -ex "info inferiors" -ex "bt 2" -ex "reverse-continue" -ex "bt 2" \
  >"$T/pair.gdb" 2>&1
check "pair: gdb --tree has both processes" grep -q "process $pcl" "$T/pair.gdb"
check "pair: gdb stops in the server" grep -q "serve_one (c=" "$T/pair.gdb"
check "pair: gdb stops in the client" grep -q "client (quit=" "$T/pair.gdb"
check "pair: and goes back" sh -c "grep -c 'hit Breakpoint' '$T/pair.gdb' | awk '\$1 >= 4 {ok=1} END {exit !ok}'"
# gdb without --tree sees the first alone: rewind replay says so, once.
timeout 120 "$REWIND" replay "$T/pair.rwd" -- -batch -nx >"$T/pair.hint" 2>&1
check_eq "pair: rewind replay says there is another process, once" 1 \
  "$(grep -c "holds 2 processes; gdb debugs the first, $psrv (attachee): \
-p PID debugs another, --tree all of them" "$T/pair.hint")"

# The first process ends while the second is recorded: the recording goes
# on, and ends with a DETACH without a digest (nothing left to take it of).
sleep 0.5 &
short=$!
start late serve "$T/sock4"
"$REWIND" record -p "$short" -p "$pid" --duration 2 -o "$T/late.rwd" \
  >"$T/late.out" 2>"$T/late.err"
check_eq "late: rewind exits 0" 0 "$?"
check "late: let the second go" grep -q "detached from the 2 processes" "$T/late.err"
check "late: the server still serves" "$A" client "$T/sock4" 5 quit
wait "$pid"
check "late: the trace says detached" sh -c "'$REWIND' info '$T/late.rwd' | grep -q '^exit: *detached'"
check "late: the first's EXIT, then DETACH without a digest" q late "
assert of('EXIT'), 'no EXIT'
assert recs[-1]['type'] == 'DETACH' and recs[-1]['has_digest'] == 0"
verified late

# --- refusals -----------------------------------------------------------
"$REWIND" record -p abc -o "$T/none.rwd" >"$T/none.out" 2>&1
check_eq "-p abc: exit 2 (a usage error)" 2 "$?"
sleep 30 &
s=$!
"$REWIND" record -p 4194303 -o "$T/none.rwd" >"$T/none.out" 2>&1
check "no such process: non-zero exit" test "$?" -ne 0
check "no such process: says so" grep -q "no such process" "$T/none.out"
check "no such process: no trace left" test ! -e "$T/none.rwd"
"$REWIND" record -p "$s" -- /bin/true >"$T/both.out" 2>&1
check_eq "-p with a program: exit 2" 2 "$?"
check "-p with a program: says so" grep -q "no PROG with it" "$T/both.out"
kill -STOP "$s"
"$REWIND" record -p "$s" -o "$T/stopped.rwd" >"$T/stopped.out" 2>&1
check "stopped process: non-zero exit" test "$?" -ne 0
check "stopped process: says how to go on" grep -q "kill -CONT $s" "$T/stopped.out"
kill -CONT "$s"
kill "$s"
wait "$s" 2>/dev/null
finish
