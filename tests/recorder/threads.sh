#!/bin/bash
# SPDX-License-Identifier: MIT
# Threads in the trace (docs/design-notes.md, "Threads"): one stream per
# thread, THREAD_START after the parent's clone exit, names, a thread's exit
# with its clear_child_tid word, exit_group and a crash ending every thread
# (the one that ended the process last), preemption of spinning threads, a
# leader that leaves first, exec from a thread, and --timeslice.
. "${top_srcdir:-.}/tests/recorder/lib.sh"
E="$P/thr_events"

# Every record of a thread lies between its THREAD_START and its EXIT, and
# every thread has both. Stream 0 holds the records of no thread (END).
lifetimes='
alive = set(); img = None
for i, r in enumerate(recs):
    t = r["tid"]
    if t == 0: continue
    if r["type"] == "EXEC": alive = set(); img = t
    if r["type"] == "THREAD_START":
        assert t not in alive, i
        alive.add(t)
        continue
    if t not in alive:
        assert t == img and r["type"] in ("EXEC", "AUXV", "MAP", "MEM"), i
    if r["type"] == "EXIT": alive.discard(t)
assert not alive, alive
'

rec join "$E" join
check_eq "join: exit 0" 0 "$status"
check "join: output" grep -q "^joined" "$T/join.out"
check "join: two streams" q join '
assert len({r["tid"] for r in recs if r["tid"]}) == 2'
check "join: THREAD_START right after the parent's clone exit" q join '
s = of("THREAD_START")[1]
i = recs.index(s)
p = [r for r in recs[:i] if r["tid"] == s["parent_tid"]][-1]
assert p["type"] == "SYSCALL_EXIT" and p["nr"] in (56, 435), p
assert p["result"] == s["tid"]
assert s["regs"]["rip"] == p["regs"]["rip"] and s["regs"]["rax"] == "0x0"'
check "join: records within each thread's life" q join "$lifetimes"
check "join: exit: entry, clear_child_tid line, EXIT" q join '
t = of("THREAD_START")[1]["tid"]
mine = [r for r in recs if r["tid"] == t]
assert mine[-1]["type"] == "EXIT" and mine[-1]["status"] == 0
assert mine[-3]["type"] == "SYSCALL_ENTER" and mine[-3]["nr"] == 60
m = mine[-2]
assert m["type"] == "MEM" and len(m["data"]) == 128, m
assert "00000000" in m["data"]'
check "join: the process ends with the main thread" q join '
x = of("EXIT")
assert len(x) == 2 and x[-1]["tid"] == of("THREAD_START")[0]["tid"]'

rec names "$E" names
check_eq "names: exit 0" 0 "$status"
check "names: PR_SET_NAME and pthread_setname_np" q names '
n = {(r["tid"], r["name"]) for r in of("THREAD_NAME")}
names = {b for a, b in n}
assert {"thr_events", "self-named", "set-by-main"} <= names, n
assert len(of("THREAD_NAME")) == 5, n'

rec group "$E" group
check_eq "exit_group: status 3" 3 "$status"
check "exit_group: every thread ends, the caller last" q group '
x = of("EXIT")
assert len(x) == 2 and all(r["status"] == 3 for r in x), x
e = enters(231)[0]
assert recs[e]["tid"] == x[-1]["tid"] and recs.index(x[0]) > e'
check "exit_group: blocked reader entered, never exits" q group '
t = of("THREAD_START")[1]["tid"]
mine = [r for r in recs if r["tid"] == t]
assert mine[-2]["type"] == "SYSCALL_ENTER" and mine[-2]["nr"] == 0, mine[-2]'
check "exit_group: records within each thread's life" q group "$lifetimes"

rec crash "$E" crash
check_eq "crash: status 139" 139 "$status"
check "crash: backtrace names the thread's function" grep -q "crasher" "$T/crash.err"
check "crash: the faulting thread's EXIT comes last" q crash '
x = of("EXIT")
assert len(x) == 3 and all(r["signo"] == 11 for r in x), x
assert x[-1]["tid"] == of("THREAD_START")[2]["tid"], x'

"$REWIND" record -f --timeslice 2 -o "$T/spin.rwd" -- "$E" spin \
  >"$T/spin.out" 2>"$T/spin.err"
status=$?
check_eq "spin: exit 0" 0 "$status"
check "spin: both threads spun" grep -q "spun both" "$T/spin.out"
# Each spinner waits for the other in user code, so each is preempted;
# main may be too (a slow pthread_create under ASan on a busy machine).
check "spin: preempted with registers and a digest" q spin '
p = of("PREEMPT")
assert len(p) >= 3, len(p)
assert all(r["digest"] != "0x0" and "rip" in r["regs"] for r in p)
spinners = {r["tid"] for r in of("THREAD_START")[1:]}
assert len(spinners) == 2 and spinners <= {r["tid"] for r in p}, p'
check "spin: records within each thread's life" q spin "$lifetimes"

rec leader "$E" leader
check_eq "leader: exit 0" 0 "$status"
check "leader: the last thread's output" grep -q "last thread done" "$T/leader.out"
check "leader: main's EXIT first, the process ends with the other" q leader '
x = of("EXIT")
main, other = of("THREAD_START")[0]["tid"], of("THREAD_START")[1]["tid"]
assert [r["tid"] for r in x] == [main, other], x
i = recs.index(x[0])
assert recs[i - 1]["type"] in ("SYSCALL_ENTER", "MEM")
assert any(r["type"] == "MAP" or r["type"] == "SYSCALL_EXIT"
           for r in recs[i:] if r["tid"] == other)'

rec exec "$E" exec
check_eq "exec from a thread: exit 0" 0 "$status"
check "exec from a thread: new image in the process's stream" q exec '
e = of("EXEC")
assert len(e) == 2 and e[1]["path"].endswith("/true"), e
assert e[1]["tid"] == e[0]["tid"]
i = recs.index(e[1])
x = next(r for r in recs[i:] if r["type"] == "SYSCALL_EXIT")
assert x["nr"] == 59 and x["result"] == 0 and x["tid"] == e[1]["tid"]'

# A child killed by its parent while one of its threads spins and the
# other sleeps: its replay finds the spinning thread where the kill
# stopped it (the sleeper's cut-short nanosleep wrote the time left, and
# its exit would clear its thread id: both must be placed right). The
# order the threads reach their exits varies: two recordings.
for i in 1 2; do
  "$REWIND" record --timeslice 1 -f -o "$T/killthreads$i.rwd" -- \
    "$P/killthreads" >"$T/killthreads$i.out" 2>"$T/killthreads$i.err"
  check_eq "killthreads $i: recorded" 0 "$?"
  check "killthreads $i: the child was killed" \
    grep -q '^killthreads ok 1$' "$T/killthreads$i.out"
  "$REWIND" replay --verify "$T/killthreads$i.rwd" >"$T/kt.out" 2>&1
  check_eq "killthreads $i: replay --verify passes" 0 "$?"
done

# --timeslice is checked.
"$REWIND" record --timeslice 0 -- true >/dev/null 2>"$T/ts.err"
check_eq "--timeslice 0: usage error" 2 "$?"
check "--timeslice 0: says why" grep -q "milliseconds from 1 to 10000" "$T/ts.err"
"$REWIND" record --timeslice=abc -- true >/dev/null 2>"$T/ts.err"
check_eq "--timeslice=abc: usage error" 2 "$?"
"$REWIND" record --help >"$T/help.out"
check "--help documents --timeslice" grep -q -- "--timeslice MS" "$T/help.out"
finish
