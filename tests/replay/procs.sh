#!/bin/bash
# SPDX-License-Identifier: MIT
# Process trees (format 1.7): every process a command forks is recorded and
# replayed, each in its own address space. tests/programs/proctree: three
# children and the parent add to a counter in anonymous MAP_SHARED memory
# under a process-shared mutex (their turns interleave at the lock's
# futexes and sched_yield), a child execs, a child kills itself, a
# double-forked grandchild writes through a pipe after its parent is gone;
# a shell pipeline. Each verifies, `rewind ps` lists the processes, and
# gdb debugs the first process, backwards across the others' keyframes.
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
