#!/bin/bash
# SPDX-License-Identifier: MIT
# Process trees (formats 1.7, 1.8): every process a command creates is
# recorded and replayed, forked ones each in its own address space, vfork
# children in their parent's until they exec. tests/programs/proctree: three
# children and the parent add to a counter in anonymous MAP_SHARED memory
# under a process-shared mutex (their turns interleave at the lock's
# futexes and sched_yield), a child execs, a child kills itself, a
# double-forked grandchild writes through a pipe after its parent is gone;
# vfork children; a forking server with client processes; a script with a
# shebang; a shell pipeline; a parent that ends before its child. Each
# verifies, `rewind ps` lists the processes, and gdb debugs the first
# process, backwards across the others' keyframes.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

verify() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  local rc=$?
  if [ $rc -eq 0 ] && grep -q "^replay verified: .*$2" "$T/$1.replay"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: replay of $1 (exit $rc, expected '$2'):"
    head -n 40 "$T/$1.replay"
  fi
}

rec tree "$P/proctree" /bin/echo from-the-exec-child
check_eq "tree: recorded" 0 "$status"
check "tree: the counter, every child's status" \
  grep -q "^counter 3000, statuses 33$" "$T/tree.out"
check "tree: the exec child, the killed child, the daemon" python3 -c '
import sys
o = open(sys.argv[1]).read().split("\n")
assert o[1:6] == ["from-the-exec-child", "exec child: exit 0",
                  "killed child: signal 9", "blocked child: signal 9, 95",
                  "daemon in session 1"], o' \
  "$T/tree.out"
verify tree "exited with status 0"
# Positions reached forwards, through keyframes and by stepping the first
# process's thread back and forth are the same, while other processes run
# in between (tests/replay/seekcheck).
check "tree: seekcheck" env SEEKCHECK_STEPS=20 \
  "$top_builddir/tests/replay/seekcheck" "$T/tree.rwd" 8 100000
# And with a child as the debugger's process: the one that execs, and the
# one killed while it waits in a syscall.
"$REWIND" ps --json "$T/tree.rwd" >"$T/tree.ps" 2>&1
for k in exec blocked; do
  kid=$(python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if sys.argv[2] == "exec":
    k = [x for x in p if (x["exe"] or "").endswith("/echo")]
else:
    k = [x for x in p if x["end"] == {"signal": 9}][-1:]
print(k[0]["pid"] if k else "")' "$T/tree.ps" "$k")
  check "tree: seekcheck of the $k child ($kid)" env SEEKCHECK_STEPS=20 \
    SEEKCHECK_PROCESS="${kid:-none}" \
    "$top_builddir/tests/replay/seekcheck" "$T/tree.rwd" 8 100000
done
check "tree: nine processes, each with a stream" q tree '
f = of("FORK")
assert len(f) == 8 and all(r["recorded"] == 1 for r in f), f
for r in f:
    s = [x for x in recs if x["tid"] == r["child_pid"]]
    assert s[0]["type"] == "THREAD_START" and s[0]["seq"] > r["seq"], s[0]'
"$REWIND" ps --json "$T/tree.rwd" >"$T/tree.ps" 2>&1
check "ps: the processes, their parents, ends and images" python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(p) == 9 and all(x["recorded"] for x in p), p
root = p[0]
assert root["ppid"] is None and root["end"] == {"exit": 0}
assert [x["end"] for x in p[1:4]] == [{"exit": 10}, {"exit": 11}, {"exit": 12}]
assert p[4]["exe"] == "/usr/bin/echo" or p[4]["exe"].endswith("/echo"), p[4]
assert p[5]["end"] == {"signal": 9} and p[6]["end"] == {"signal": 9}, p[5:7]
assert p[8]["ppid"] == p[7]["pid"] and p[7]["ppid"] == root["pid"], p[7:]
assert all(x["ppid"] == root["pid"] for x in p[1:8])' "$T/tree.ps"

# gdb debugs the first process: a breakpoint after the children counted,
# the counter they wrote, back to the start of main and forward again.
line=$(grep -n 'gdb: counted' "$top_srcdir/tests/programs/proctree.c" |
  cut -d: -f1)
cat >"$T/tree.gdb" <<G
break proctree.c:$line
continue
print s->counter
print sum
break main
reverse-continue
info threads
continue
print s->counter
G
timeout 120 "$REWIND" replay "$T/tree.rwd" -- -batch -nx -x "$T/tree.gdb" \
  >"$T/tree.gdb.out" 2>&1
check "gdb: the counter all four processes wrote" \
  grep -q '^\$1 = 3000$' "$T/tree.gdb.out"
check "gdb: the children's statuses" grep -q '^\$2 = 33$' "$T/tree.gdb.out"
check "gdb: back at main, one thread (the root's)" python3 -c '
import sys
t = open(sys.argv[1]).read()
assert "Breakpoint 2, main" in t, t[-2000:]
i = t.index("Breakpoint 2, main")
th = [l for l in t[i:].split("\n") if l.startswith("* 1 ")]
assert len(th) == 1, t[i:i+800]' "$T/tree.gdb.out"
check "gdb: forward again, the same counter" \
  grep -q '^\$3 = 3000$' "$T/tree.gdb.out"

# The whole tree in one gdb (--tree): each process an inferior, added as it
# is forked; a breakpoint in every inferior stops each child where it
# exits, the exec child in its new program; back again, the same hits in
# the reverse order; threads of processes that do not exist at a position
# show "<unavailable>" registers, never another process's.
cat >"$T/treeall.gdb" <<'G'
break _exit
continue
continue
continue
continue
continue
info inferiors
reverse-continue
reverse-continue
info threads
G
timeout 180 "$REWIND" replay --tree "$T/tree.rwd" -- -batch -nx \
  -x "$T/treeall.gdb" >"$T/treeall.out" 2>&1
check "gdb --tree: breakpoints in each process, forwards and back" python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
ps = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
hits = re.findall(r"^Thread (\d+)\.1 \"[^\"]*\" hit Breakpoint 1\.\d+, "
                  r"__GI__exit \(status=status@entry=(\d+)\)", t, re.M)
assert len(hits) == 7, (hits, t[-3000:])
fwd, back = hits[:5], hits[5:]
assert sorted(h[1] for h in fwd[:3]) == ["10", "11", "12"], fwd
assert len(set(h[0] for h in fwd[:3])) == 3, fwd
assert re.search(r"process \d+ is executing new program: \S*echo", t), t
assert back == [fwd[3], fwd[2]], (fwd, back)
inf = re.findall(r"^[* ] +\d+ +process (\d+) ", t, re.M)
pids = {str(p["pid"]) for p in ps}
assert len(inf) >= 8 and set(inf) <= pids, (inf, pids)
assert "Could not read registers" not in t and "<unavailable>" in t, t[-2000:]
assert "Remote" not in t, t[-2000:]' "$T/treeall.out" "$T/tree.ps"
# A watchpoint in a child stops at that child's writes alone, backwards,
# though all four processes write the shared counter.
cat >"$T/treewatch.gdb" <<'G'
break _exit
continue
up
watch -l s->counter
delete 1
reverse-continue
reverse-continue
G
timeout 180 "$REWIND" replay --tree "$T/tree.rwd" -- -batch -nx \
  -x "$T/treewatch.gdb" >"$T/treewatch.out" 2>&1
check "gdb --tree: a child's watchpoint, backwards, in that child alone" \
  python3 -c '
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"^Thread (\d+)\.1 .* hit Breakpoint 1.*status=status@entry="
              r"(\d+)\)", t, re.M)
assert m, t[-3000:]
who = int(m.group(2)) - 8 # _exit(10 + k) in the child that adds k + 2
w = re.findall(r"^Thread (\d+)\.1 \"[^\"]*\" hit Hardware watchpoint 2.*\n\n"
               r"Old value = (\d+)\nNew value = (\d+)\n.* in add \(.*who=who@entry=(\d+)",
               t, re.M)
assert len(w) == 2, t[-3000:]
for inf, old, new, wh in w:
    assert inf == m.group(1) and int(wh) == who, (w, who)
    assert int(old) - int(new) == who, w' "$T/treewatch.out"
# Started halfway (--goto), then moved back (monitor goto): gdb is told of
# each process it lacks, as a fork by one it has, and of its program, as
# an exec, before the replay moves on; never through a thread list, which
# would give it an inferior without registers it can read.
half=$(sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p' \
  "$T/tree.replay")
cat >"$T/treegoto.gdb" <<'G'
break _exit
continue
monitor goto 1000
continue
continue
info inferiors
G
timeout 180 "$REWIND" replay --tree --goto "$((half / 2))" "$T/tree.rwd" -- \
  -batch -nx -x "$T/treegoto.gdb" >"$T/treegoto.out" 2>&1
check "gdb --tree --goto: processes told as forks and execs" python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
ps = {str(p["pid"]) for p in
      (json.loads(l) for l in open(sys.argv[2]) if l.strip())}
assert "too long" not in t and "Error" not in t, t[-3000:]
hits = re.findall(r"hit Breakpoint 1\.\d+, __GI__exit \(status=(?:status@entry=)?"
                  r"(\d+)\)", t)
assert len(hits) == 3 and set(hits) <= {"0", "10", "11", "12"}, hits
inf = re.findall(r"^[* ] +\d+ +process (\d+) ", t, re.M)
assert len(inf) >= 3 and set(inf) <= ps, (inf, ps)' \
  "$T/treegoto.out" "$T/tree.ps"
# monitor goto past a fork and an exec gdb has not seen: the next stepi
# tells gdb of the process (a fork event) and says on the console which
# program it runs, then steps gdb's thread one instruction. An exec event
# there would have made it a continue (gdb goes on after one): to the end
# of the history, the shell's child long gone.
"$REWIND" record -q -f -o "$T/shx.rwd" -- /bin/sh -c '/bin/true; /bin/echo hi' \
  >/dev/null 2>&1
at=$(timeout 120 "$REWIND" replay --tree "$T/shx.rwd" -- -batch -nx \
  -ex 'catch exec' -ex continue -ex continue -ex 'monitor when' 2>&1 |
  sed -n 's/^at instruction \([0-9]*\), .*/\1/p')
check "gdb --tree: echo's exec found ($at)" test -n "$at"
timeout 120 "$REWIND" replay --tree "$T/shx.rwd" -- -batch -nx \
  -ex "monitor goto $((${at:-0} + 2000))" -ex stepi -ex 'monitor when' \
  -ex stepi -ex 'monitor when' >"$T/shx.out" 2>&1
check "gdb --tree: a stepi after monitor goto past an exec stays a step" \
  python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert "executing new program" not in t, t[-3000:]
assert re.search(r"process \d+ runs /usr/bin/echo here, another program "
                 r"than gdb has loaded for it", t), t[-3000:]
w = [int(n) for n in re.findall(r"^at instruction (\d+),", t, re.M)]
assert len(w) == 2 and w[1] == w[0] + 1, (w, t[-3000:])
assert "the history ends at instruction %d" % w[0] not in t, t[-3000:]' \
  "$T/shx.out"
# A reverse-stepi right after a fork event, or after such a jump, is the
# forking thread's (gdb's selected one), though gdb last read the new
# process's registers: one instruction back in the shell, no SIGTRAP in
# the child.
timeout 120 "$REWIND" replay --tree "$T/shx.rwd" -- -batch -nx \
  -ex 'catch fork' -ex 'catch vfork' -ex continue -ex 'monitor when' \
  -ex reverse-stepi -ex 'monitor when' -ex delete \
  -ex "monitor goto $((${at:-0} + 2000))" -ex reverse-stepi \
  -ex 'monitor when' >"$T/shxr.out" 2>&1
check "gdb --tree: reverse-stepi after a fork event steps the forking thread" \
  python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert "SIGTRAP" not in t, t[-3000:]
w = re.findall(r"^at instruction (\d+), event \d+, thread (\d+)", t, re.M)
assert len(w) == 3, (w, t[-3000:])
sh = w[1][1]
assert int(w[1][0]) == int(w[0][0]) - 1, w
assert w[2][1] == sh and int(w[2][0]) < int(sys.argv[2]), w' \
  "$T/shxr.out" "$((${at:-0} + 2000))"
check "seekcheck --tree: positions, steps and hits in every process" env \
  SEEKCHECK_TREE=1 SEEKCHECK_STEPS=10 \
  "$top_builddir/tests/replay/seekcheck" "$T/tree.rwd" 8 100000

# The first process ends while its child lives on: gdb's history of it
# ends at its exit, in its own thread (not in the child, which runs on),
# and goes back from there; --verify checks the child to the end.
rec orphans "$P/orphans" "$T/orphans.txt"
check_eq "orphans: recorded" 0 "$status"
check "orphans: the child wrote after its parent ended" \
  grep -q "^late child$" "$T/orphans.txt"
verify orphans "exited with status 0"
"$REWIND" ps --json "$T/orphans.rwd" >"$T/orphans.ps" 2>&1
check "orphans: --verify replayed the child's last event" python3 -c '
import json, re, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(p) == 2 and p[1]["end"] == {"exit": 3}, p
assert p[1]["last_event"] > p[0]["last_event"], p
n = int(re.search(r" (\d+) events,", open(sys.argv[2]).read()).group(1))
assert n == p[1]["last_event"], (n, p)' "$T/orphans.ps" "$T/orphans.replay"
cat >"$T/orphans.gdb" <<'G'
watch stage
continue
continue
continue
continue
info threads
print stage
reverse-continue
print stage
G
timeout 120 "$REWIND" replay "$T/orphans.rwd" -- -batch -nx \
  -x "$T/orphans.gdb" >"$T/orphans.gdb.out" 2>&1
check "gdb: the first process's end is its own exit, then back" python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
root = [json.loads(l) for l in open(sys.argv[2]) if l.strip()][0]["pid"]
i = t.index("No more reverse-execution history")
assert "_exit" in t[i:i+300], t[i:i+600]
th = re.findall(r"^\*? +\d+ +Thread (\d+)\.(\d+) ", t[i:], re.M)
assert th == [(str(root), str(root))], t[i:i+800]
assert "[New Thread" not in t, t
assert re.search(r"^\$1 = 3$", t, re.M), t[-1500:]
assert re.search(r"^\$2 = 2$", t, re.M), t[-1500:]' \
  "$T/orphans.gdb.out" "$T/orphans.ps"
check "orphans: seekcheck" env SEEKCHECK_STEPS=10 \
  "$top_builddir/tests/replay/seekcheck" "$T/orphans.rwd" 6 20000
check "orphans: seekcheck of the child" env SEEKCHECK_STEPS=10 \
  SEEKCHECK_PROCESS="$(python3 -c '
import json, sys
print([json.loads(l) for l in open(sys.argv[1]) if l.strip()][1]["pid"])' \
  "$T/orphans.ps")" \
  "$top_builddir/tests/replay/seekcheck" "$T/orphans.rwd" 6 20000

# Two processes hand a token back and forth through process-shared
# semaphores, as Python's multiprocessing does. A sem_post (its wake
# buffered, no stop) and then the other's sem_wait put the page back as
# it was: each process's own writes must be taken when it stops running,
# or the replay of the first keeps its newer bytes (it diverged at the
# first round).
rec shsem "$P/shsem" 3000
check_eq "shsem: recorded" 0 "$status"
check "shsem: counted" grep -q "^shsem: 3000 rounds, count 9000$" "$T/shsem.out"
verify shsem "exited with status 0"

# vfork children (format 1.8), recorded in the parent's address space:
# a write into the parent's frame, a mapping left to the parent, an exec,
# an exec that fails, posix_spawn with a file action, while a second
# thread of the parent counts. gdb stops at mark() only in the parent.
rec vf "$P/vforks" /bin/echo "$T/vf.file"
check_eq "vforks: recorded" 0 "$status"
check "vforks: seekcheck" env SEEKCHECK_STEPS=20 \
  "$top_builddir/tests/replay/seekcheck" "$T/vf.rwd" 8 100000
# The same with a vfork child as the debugger's process (from its creation
# in its parent's memory to its end), and the last child, which exec'd.
"$REWIND" ps --json "$T/vf.rwd" >"$T/vf.ps" 2>&1
for k in 1 -1; do
  kid=$(python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(p[int(sys.argv[2])]["pid"] if len(p) > 2 else "")' "$T/vf.ps" "$k")
  check "vforks: seekcheck of child $k ($kid)" env SEEKCHECK_STEPS=20 \
    SEEKCHECK_PROCESS="${kid:-none}" \
    "$top_builddir/tests/replay/seekcheck" "$T/vf.rwd" 8 100000
done
check "vforks: what the children left" grep -q "^frame 42, given 'mapped-by-the-vfork-child', errno 2, file 'into-the-file'$" "$T/vf.out"
check "vforks: statuses" grep -q "^statuses 4 5 0 127 0, marks 101, counted yes$" "$T/vf.out"
verify vf "exited with status 0"
check "vforks: five vfork children, each recorded in its stream" q vf '
f = of("FORK")
assert len(f) == 5 and all(r["kind"] == 1 and r["recorded"] for r in f), f
assert not of("SYSCALL_DIFF")
ex = {r["tid"]: r["path"] for r in of("EXEC")}
for r in f:
    s = [x for x in recs if x["tid"] == r["child_pid"]]
    assert s[0]["type"] == "THREAD_START" and s[-1]["type"] == "EXIT", s
assert [r["child_pid"] in ex for r in f] == [False, False, True, False, True]
m = [x for x in of("MAP") if x["tid"] == f[1]["child_pid"]]
assert len(m) == 1 and int(m[0]["len"], 16) == 4096, m
assert not [x for x in of("MAP") if x["addr"] == m[0]["addr"] and
            x["tid"] != f[1]["child_pid"]], "mapped twice"'
# The first vfork child as gdb's process: at its end it still sees the
# memory it shared (its stack, for bt), and a watchpoint set there finds its
# write to its parent's variable going back.
kid1=$(python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(p[1]["pid"])' "$T/vf.ps")
cat >"$T/vfk.gdb" <<'G'
continue
bt
frame 1
watch -l in_frame
reverse-continue
print in_frame
G
timeout 120 "$REWIND" replay -p "$kid1" "$T/vf.rwd" -- -batch -nx \
  -x "$T/vfk.gdb" >"$T/vfk.gdb.out" 2>&1
check "gdb -p vfork child: its end shows its stack, a watch finds its write" \
  python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert "Cannot access memory" not in t, t[-3000:]
assert re.search(r"^#\d+ .* main \(", t, re.M), t[-3000:]
assert re.search(r"Old value = 42\s+New value = 1", t), t[-3000:]
assert re.search(r"^\$1 = 1$", t, re.M), t[-3000:]' "$T/vfk.gdb.out"
line=$(grep -n 'gdb: done' "$top_srcdir/tests/programs/vforks.c" | cut -d: -f1)
cat >"$T/vf.gdb" <<G
break mark
continue
print who
break vforks.c:$line
continue
print marks
print in_frame
print given
info threads
reverse-continue
print who
continue
print marks
G
timeout 120 "$REWIND" replay "$T/vf.rwd" -- -batch -nx -x "$T/vf.gdb" \
  >"$T/vf.gdb.out" 2>&1
check "gdb: mark() stops in the parent only, forward and back" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
v = dict(re.findall(r"^\$(\d+) = (.*)$", t, re.M))
assert v.get("1") == "1" and v.get("5") == "1", (v, t[-3000:])
assert v.get("2") == "101" and v.get("6") == "101", v
assert v.get("3") == "42", v
assert v.get("4", "").endswith("\"mapped-by-the-vfork-child\""), v
assert t.count("hit Breakpoint 1, mark (who=who@entry=1)") == 2, t[-3000:]
assert "who=who@entry=100" not in t
i = t.index("info threads") if "info threads" in t else t.index("  Id ")
th = [l for l in t[i:].split("\n") if re.match(r"^[* ] +\d+ +Thread", l)]
assert len(th) == 1, th  # the counter was joined; no child is listed' \
  "$T/vf.gdb.out"

# A forking server: three client processes connect to a Unix socket, a
# worker process per connection answers; every exit status is the
# client's checksum of the worker's answer.
rec fs "$P/forkserver" "$T/fs.sock"
check_eq "forkserver: recorded" 0 "$status"
check "forkserver: the clients' sums, the workers" python3 -c '
import sys
o = open(sys.argv[1]).read().split("\n")
assert o[:4] == ["client 1: 218", "client 2: 126", "client 3: 10",
                 "workers ok 3"], o' "$T/fs.out"
verify fs "exited with status 0"
"$REWIND" ps --json "$T/fs.rwd" >"$T/fs.ps" 2>&1
check "ps: the server, three clients, three workers" python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(p) == 7 and all(x["recorded"] for x in p), p
assert sorted(x["end"]["exit"] for x in p[1:]) == [0, 0, 0, 10, 126, 218], p
assert all(x["ppid"] == p[0]["pid"] for x in p[1:]), p' "$T/fs.ps"

# A script with a shebang, exec'd by a forked child of sh: the child's
# images are the interpreter's, and its output is checked.
printf '#!/bin/sh\necho "shebang says $1"\n' >"$T/says.sh"
chmod +x "$T/says.sh"
rec shebang sh -c "'$T/says.sh' hello; true"
check_eq "shebang: recorded" 0 "$status"
check "shebang: output" grep -q "^shebang says hello$" "$T/shebang.out"
verify shebang "exited with status 0"
"$REWIND" ps --json "$T/shebang.rwd" >"$T/shebang.ps" 2>&1
check "ps: the child ran the script's interpreter" python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(p) == 2 and p[1]["images"] == 1, p
assert p[1]["exe"].split("/")[-1] in ("sh", "dash", "bash"), p[1]' \
  "$T/shebang.ps"

# A shell pipeline: sh, ls, sort and wc, each verified.
rec pipe sh -c 'ls / | sort | wc -l'
check_eq "pipe: recorded" 0 "$status"
verify pipe "exited with status 0"
"$REWIND" ps "$T/pipe.rwd" >"$T/pipe.ps" 2>&1
check "ps: sh and its three recorded children" python3 -c '
import sys
l = open(sys.argv[1]).read().split("\n")[1:]
l = [x for x in l if x.strip()]
assert len(l) == 4, l
assert [x.split()[-1].split("/")[-1] for x in l[1:]] == ["ls", "sort", "wc"], l
assert all(" exit 0 " in x for x in l), l' "$T/pipe.ps"
finish
