#!/bin/bash
# SPDX-License-Identifier: MIT
# Processes: fork children run unrecorded (one line says so), a vfork child's
# writes to the parent's memory reach the trace, posix_spawn works, execve is
# followed through a shell wrapper and env, and a second thread is recorded.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

rec forks "$P/forks"
check_eq "forks: exit 0" 0 "$status"
check "forks: program output" grep -q "ok 3 shared 'written-by-vfork-child'" "$T/forks.out"
check "forks: one line about unrecorded children" test "$(grep -c 'run unrecorded' "$T/forks.err")" -eq 1
check "forks: FORK records (fork, vfork, spawn)" q forks '
k = [r["kind"] for r in of("FORK")]; assert k == [0, 1, 1], k'
check "forks: vfork child's write imported before vfork returns" q forks '
s = b"written-by-vfork-child".hex()
i = enters(58)[0]
j = next(k for k in range(i, len(recs)) if recs[k]["type"] == "SYSCALL_EXIT")
assert any(r["type"] == "MEM" and s in r["data"] for r in recs[i:j])
assert any(r["type"] == "SYSCALL_DIFF" for r in recs[i:j])'

# Exec through a shell script and env: one trace, one stream, several EXEC.
rec wrap "$top_srcdir/tests/programs/exec_wrapper.sh" env "$P/exec_target" a b
check_eq "exec: exit 0" 0 "$status"
check "exec: output" grep -q "exec_target a b" "$T/wrap.out"
check "exec: three images (sh, env, target)" q wrap '
e = [r["path"] for r in of("EXEC")]
assert len(e) == 3 and e[1].endswith("/env") and e[2].endswith("/exec_target"), e'
check "exec: one stream" q wrap 'assert len({r["tid"] for r in recs if r["tid"]}) == 1'
check "exec: each image has THREAD_START and AUXV" q wrap '
assert len(of("THREAD_START")) == 3 and len(of("AUXV")) == 3'
check "exec: execve exit after the new image" q wrap '
i = [k for k, r in enumerate(recs) if r["type"] == "EXEC"][1]
x = next(r for r in recs[i:] if r["type"] == "SYSCALL_EXIT")
assert x["nr"] == 59 and x["result"] == 0'

# A second thread is recorded (tests/recorder/threads.sh has the details).
rec thr "$P/threads"
check_eq "threads: exit 0" 0 "$status"
check "threads: output before and after the thread" grep -q "after thread" "$T/thr.out"
check "threads: two streams, two THREAD_START" q thr '
assert len({r["tid"] for r in recs if r["tid"]}) == 2 and len(of("THREAD_START")) == 2'
finish
