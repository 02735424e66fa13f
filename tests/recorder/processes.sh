#!/bin/bash
# SPDX-License-Identifier: MIT
# Processes: fork, vfork and posix_spawn children are recorded (the vfork
# children in the parent's address space, with no generic diff at the
# parent's vfork); with --no-follow they all run unrecorded (one line says
# so) and a vfork child's writes to the parent's memory reach the trace
# through the diff; execve is followed through a shell wrapper and env,
# and a second thread is recorded; pages a forked child can only write;
# children killed in the middle of their stops.
# tests/replay/procs.sh replays process trees.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

rec forks "$P/forks"
check_eq "forks: exit 0" 0 "$status"
check "forks: program output" grep -q "ok 3 shared 'written-by-vfork-child'" "$T/forks.out"
check "forks: nothing about unrecorded children" test "$(grep -c 'run unrecorded' "$T/forks.err")" -eq 0
check "forks: FORK records (fork, vfork, spawn), all recorded" q forks '
k = [r["kind"] for r in of("FORK")]; assert k == [0, 1, 1], k
k = [r["recorded"] for r in of("FORK")]; assert k == [1, 1, 1], k'
check "forks: each child has a stream of its own" q forks '
for f, st in zip(of("FORK"), (3, 4, 0)):
    c = f["child_pid"]
    s = [r for r in recs if r["tid"] == c]
    assert s[0]["type"] == "THREAD_START" and s[0]["parent_tid"] != c, s[0]
    assert s[0]["seq"] > f["seq"], (f, s[0])
    assert s[-1]["type"] == "EXIT" and s[-1]["status"] == st, s[-1]'
check "forks: the vfork child runs before vfork returns, no diff" q forks '
i = enters(58)[0]
j = next(k for k in range(i, len(recs)) if recs[k]["type"] == "SYSCALL_EXIT"
         and recs[k]["tid"] == recs[i]["tid"])
c = next(r for r in recs[i:j] if r["type"] == "FORK")["child_pid"]
assert any(r["tid"] == c and r["type"] == "EXIT" for r in recs[i:j])
assert not any(r["type"] == "SYSCALL_DIFF" for r in recs[i:j])'
check "forks: the spawned child execs true in its own stream" q forks '
c = of("FORK")[2]["child_pid"]
e = [r for r in of("EXEC") if r["tid"] == c]
assert len(e) == 1 and e[0]["path"].endswith("/true"), e'

# rewind ps: the recorded process, then each child it started, unrecorded.
"$REWIND" ps "$T/forks.rwd" > "$T/ps.out" 2> "$T/ps.err"
check_eq "ps: exit 0" 0 "$?"
check "ps: header, the process, three children" test "$(wc -l < "$T/ps.out")" -eq 5
check "ps: the process ended with exit 0" grep -Eq "^[0-9]+ +- +exit 0 +1-[0-9]+ +1 +.*/forks$" "$T/ps.out"
check "ps: the fork child recorded, exit 3" grep -Eq "^[0-9]+ +[0-9]+ +exit 3 +[0-9]+-[0-9]+ +1 +.*/forks$" "$T/ps.out"
check "ps: the vfork child recorded, exit 4" grep -Eq "^[0-9]+ +[0-9]+ +exit 4 +[0-9]+-[0-9]+ +1 +.*/forks$" "$T/ps.out"
check "ps: the spawn child recorded, ran true" grep -Eq "^[0-9]+ +[0-9]+ +exit 0 +[0-9]+-[0-9]+ +1 +.*/true$" "$T/ps.out"
check "ps: no child unrecorded" test "$(grep -c 'not recorded)' "$T/ps.out")" -eq 0
"$REWIND" ps --json "$T/forks.rwd" > "$T/ps.json"
check "ps --json: parents, kinds, the events of FORK" python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
d = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
root, kids = p[0], p[1:]
assert root["recorded"] and root["end"] == {"exit": 0} and root["ppid"] is None
assert root["threads"] == 1 and root["images"] == 1, root
assert "created_by" not in root, root
assert [k.get("created_by") for k in kids] == ["fork", "vfork", "vfork"], kids
assert all(k["ppid"] == root["pid"] for k in kids)
assert [k["recorded"] for k in kids] == [True, True, True], kids
assert [k["end"] for k in kids] == [{"exit": 3}, {"exit": 4}, {"exit": 0}]
assert [k["images"] for k in kids] == [0, 0, 1], kids
assert all(k["threads"] == 1 for k in kids), kids
forks = [r for r in d if r["type"] == "FORK"]
assert [k["pid"] for k in kids] == [r["child_pid"] for r in forks]
assert [k["first_event"] for k in kids] == [r["seq"] for r in forks]
assert root["last_event"] == max(r["seq"] for r in d if r["tid"])' \
  "$T/ps.json" "$(dump forks)"

# --no-follow: every child runs unrecorded.
"$REWIND" record --no-follow -f -o "$T/nof.rwd" -- "$P/forks" >"$T/nof.out" 2>"$T/nof.err"
check_eq "no-follow: exit 0" 0 "$?"
check "no-follow: one line says children run unrecorded" grep -q "with --no-follow child processes run unrecorded" "$T/nof.err"
check "no-follow: no child recorded, one stream" q nof '
assert [r["recorded"] for r in of("FORK")] == [0, 0, 0]
assert len({r["tid"] for r in recs if r["tid"]}) == 1'
check "no-follow: vfork child's write imported before vfork returns" q nof '
s = b"written-by-vfork-child".hex()
i = enters(58)[0]
j = next(k for k in range(i, len(recs)) if recs[k]["type"] == "SYSCALL_EXIT")
assert any(r["type"] == "MEM" and s in r["data"] for r in recs[i:j])
assert any(r["type"] == "SYSCALL_DIFF" for r in recs[i:j])'
"$REWIND" replay --verify --no-progress "$T/nof.rwd" >"$T/nof.replay" 2>&1
check_eq "no-follow: verified" 0 "$?"
"$REWIND" replay --verify --no-progress "$T/forks.rwd" >"$T/forks.replay" 2>&1
check_eq "forks: verified" 0 "$?"

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
"$REWIND" ps --json "$T/wrap.rwd" > "$T/wrap.ps"
check "ps: three images of one process, the last the target" python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(p) == 1 and p[0]["images"] == 3, p
assert p[0]["exe"].endswith("/exec_target") and p[0]["threads"] == 1, p' \
  "$T/wrap.ps"
check "exec: execve exit after the new image" q wrap '
i = [k for k, r in enumerate(recs) if r["type"] == "EXEC"][1]
x = next(r for r in recs[i:] if r["type"] == "SYSCALL_EXIT")
assert x["nr"] == 59 and x["result"] == 0'

# Memory a fork does not copy as it is: MADV_WIPEONFORK pages are zeros
# in the child (and its own child), MADV_DONTFORK ones are not there; the
# replay must see the same, or the child's reads diverge.
rec fadv "$P/forkadvice"
check_eq "forkadvice: exit 0" 0 "$status"
check "forkadvice: the child saw zeros, the copy and no third page" \
  grep -q '^forkadvice ok 0 1 gone$' "$T/fadv.out"
check "forkadvice: the grandchild saw the page wiped again" \
  grep -q '^forkadvice grandchild 0$' "$T/fadv.out"
"$REWIND" replay --verify "$T/fadv.rwd" >"$T/fadv.rep" 2>&1
check_eq "forkadvice: replay --verify passes" 0 "$?"
check "forkadvice: the child's wiped and dropped pages are recorded" q fadv '
m = [r for r in recs if r["type"] in ("MAP", "UNMAP") and r["tid"] != recs[0]["tid"]]
assert any(r["type"] == "UNMAP" for r in m) and any(r["type"] == "MAP" for r in m), m'

# A parent writes into its child through /proc/CHILD/mem: the child's
# memory changes with no syscall of its own; the replay must see it.
rec cmem "$P/childmem"
check_eq "childmem: exit 0" 0 "$status"
check "childmem: the child read what its parent wrote" \
  grep -q '^childmem ok 1234 5678$' "$T/cmem.out"
"$REWIND" replay --verify "$T/cmem.rwd" >"$T/cmem.rep" 2>&1
check_eq "childmem: replay --verify passes" 0 "$?"

# Pages mapped PROT_WRITE alone, which the program reads although
# process_vm_readv cannot (tests/programs/wronly.c): a forked child fills
# them, one through read(); the parent reads what it left in the shared
# ones. The child's writes are in its digest, the shared ones reach the
# parent's stream, and the read() lands in the trace (the recorder read
# none of them in a forked child, and watched no write-only mapping).
rec wronly "$P/wronly"
check_eq "wronly: exit 0" 0 "$status"
"$P/wronly" >"$T/wronly.native" 2>&1
check "wronly: the output is the program's own" \
  cmp "$T/wronly.native" "$T/wronly.out"
check "wronly: the parent saw the child's writes" grep -q '^wronly ok$' \
  "$T/wronly.out"
verified wronly

# Children killed with SIGKILL while they stop at syscall after syscall
# (tests/programs/killrace.c): a kill takes a thread out of the stop the
# recorder is handling, and its ptrace calls fail with ESRCH. The thread
# ends as killed; the recording goes on (it failed with "No such process"
# in 6 runs of 6 before).
rec killrace "$P/killrace"
check_eq "killrace: exit 0" 0 "$status"
check "killrace: every child died of SIGKILL" grep -q '^killrace ok 200$' \
  "$T/killrace.out"
verified killrace

# A second thread is recorded (tests/recorder/threads.sh has the details).
rec thr "$P/threads"
check_eq "threads: exit 0" 0 "$status"
check "threads: output before and after the thread" grep -q "after thread" "$T/thr.out"
check "threads: two streams, two THREAD_START" q thr '
assert len({r["tid"] for r in recs if r["tid"]}) == 2 and len(of("THREAD_START")) == 2'
finish
