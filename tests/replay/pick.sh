#!/bin/bash
# SPDX-License-Identifier: MIT
# Debugging one process of a tree: `rewind replay -p PID|NAME`. A script
# runs tests/programs/corrupt three times and the third run corrupts the
# file; rewind ps finds it, and gdb on that process finds the bad store
# with a watchpoint and reverse-continue, whose history begins where the
# process does. gcc's cc1 by name: a breakpoint in it, forwards and back.
# --verify and --print with -p, and the errors of a -p that names nothing.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# gdb_on NAME GDB-SCRIPT REWIND-ARGS...: runs gdb on the replay.
gdb_on() {
  local name=$1 script=$2
  shift 2
  timeout 300 "$REWIND" replay "$@" -- -batch -nx -x "$script" \
    >"$T/$name.gdb.out" 2>&1
}

printf 'record 1: alpha\nrecord 2: beta\nrecord 3: gamma\nrecord 4: delta\n' \
  >"$T/data.txt"
printf '#!/bin/sh\nfor i in 1 2 3; do "%s" "%s" $i; done\n' \
  "$P/corrupt" "$T/data.txt" >"$T/run3.sh"
chmod +x "$T/run3.sh"
rec c3 "$T/run3.sh"
check_eq "script: recorded" 0 "$status"
check "script: the third run corrupted the file" grep -qx \
  "RECORD 3: GAMMA#record 4: delta" "$T/data.txt"
"$REWIND" ps --json "$T/c3.rwd" >"$T/c3.ps" 2>&1
pid=$(python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
c = [x for x in p if (x["exe"] or "").endswith("/corrupt")]
assert len(c) == 3 and all(x["end"] == {"exit": 0} for x in c), p
print(c[2]["pid"])' "$T/c3.ps")
check "ps: three runs of corrupt" test -n "$pid"
off=$(python3 -c 'import sys; print(open(sys.argv[1]).read().index("#"))' \
  "$T/data.txt")
written=$(grep -n 'gdb: written' "$top_srcdir/tests/programs/corrupt.c" |
  cut -d: -f1)
bad=$(grep -n '/\* bad \*/' "$top_srcdir/tests/programs/corrupt.c" |
  cut -d: -f1)
cat >"$T/c3.gdb" <<G
info inferiors
break corrupt.c:$written
continue
print buf[$off]
watch -l buf[$off]
reverse-continue
print i
print len
reverse-continue
reverse-continue
G
gdb_on c3 "$T/c3.gdb" -p "$pid" "$T/c3.rwd"
check "gdb -p PID: the third process, from its start" python3 -c '
import re, sys
t, pid, bad = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
assert "debugging process %s (corrupt)" % pid in t, t[-3000:]
assert re.search(r"^\* 1 +process %s " % pid, t, re.M), t[-3000:]
i = t.index("Hardware watchpoint 2")
w = t[i:]
assert re.search(r"in shout \(.*\) at .*corrupt.c:%s$" % bad, w, re.M), w
v = dict(re.findall(r"^\$(\d+) = (.*)$", t, re.M))
assert v.get("1") == "35 \x27#\x27" and v.get("2") == "15", v
assert v.get("3") == "15", v
# Before that, the byte came from the file: the read() that filled buf
# (the kernel wrote it), then nothing wrote it since the start.
r = w.split("$3 = 15")[1]
assert re.search(r"Old value = 10 .*\nNew value = 0 .*\n.* in \w*read \(", r), r
assert "No more reverse-execution history." in r, r
assert "_start ()" in r.split("No more reverse-execution history.")[1], r' "$T/c3.gdb.out" "$pid" "$bad"

# By name: three processes answer to corrupt; the first is debugged.
"$REWIND" replay --print -p corrupt "$T/c3.rwd" >"$T/byname.out" 2>&1
check_eq "--print -p NAME: exit 0" 0 "$?"
check "--print -p NAME: says three match, shows the first's start" python3 -c '
import json, re, sys
t = open(sys.argv[1]).read()
p = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
first = [x for x in p if (x["exe"] or "").endswith("/corrupt")][0]["pid"]
assert "3 processes match corrupt; debugging the first, %d" % first in t, t
assert re.search(r"^at instruction \d+, event \d+, thread %d$" % first, t,
                 re.M), t' "$T/byname.out" "$T/c3.ps"

# --verify -p: up to the end of that process.
"$REWIND" replay --verify --no-progress -p "$pid" "$T/c3.rwd" \
  >"$T/verify.out" 2>&1
check_eq "--verify -p: exit 0" 0 "$?"
check "--verify -p: verified up to the process's exit" grep -q \
  "^replay verified: .*the program exited with status 0$" "$T/verify.out"

# What -p cannot find.
"$REWIND" replay --print -p 4194999 "$T/c3.rwd" >"$T/nopid.out" 2>&1
check_eq "-p unknown pid: exit 1" 1 "$?"
check "-p unknown pid: says so" grep -q "no process of .* is pid 4194999; rewind ps" "$T/nopid.out"
"$REWIND" replay --print -p nosuchprog "$T/c3.rwd" >"$T/noname.out" 2>&1
check_eq "-p unknown name: exit 1" 1 "$?"
check "-p unknown name: says so" grep -q "is named nosuchprog" "$T/noname.out"
"$REWIND" record -q -f --no-follow -o "$T/nof.rwd" -- "$T/run3.sh" >/dev/null 2>&1
kid=$("$REWIND" ps --json "$T/nof.rwd" | python3 -c '
import json, sys
print([json.loads(l) for l in sys.stdin if l.strip()][1]["pid"])')
"$REWIND" replay --print -p "$kid" "$T/nof.rwd" >"$T/unrec.out" 2>&1
check_eq "-p unrecorded: exit 1" 1 "$?"
check "-p unrecorded: says so" grep -q "ran unrecorded" "$T/unrec.out"

# gcc: cc1 by name, a breakpoint in it, back to its beginning.
printf 'int square(int x) { return x * x; }\n' >"$T/sq.c"
rec gcc cc -O2 -c -o "$T/sq.o" "$T/sq.c"
check_eq "gcc: recorded" 0 "$status"
"$REWIND" ps "$T/gcc.rwd" >"$T/gcc.ps" 2>&1
check "gcc: cc1 and as recorded" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"/cc1$", t, re.M) and re.search(r"[-/]as$", t, re.M), t' \
  "$T/gcc.ps"
cat >"$T/cc1.gdb" <<'G'
info inferiors
break write
continue
info threads
reverse-continue
continue
G
gdb_on cc1 "$T/cc1.gdb" -p cc1 "$T/gcc.rwd"
check "gdb -p cc1: a breakpoint in cc1, back to its start, forward" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"debugging process \d+ \(cc1\)", t), t[-3000:]
assert re.search(r"^\* 1 +process \d+ .*/cc1 *$", t, re.M), t[-3000:]
hits = [m.start() for m in re.finditer(r"Breakpoint 1(\.\d+)?, .*write", t)]
assert len(hits) == 2, t[-3000:]
back = t[hits[0]:hits[1]]
assert "No more reverse-execution history." in back and "_start" in back, back
assert re.search(r"Thread \d+\.\d+ \"cc1\"", t), t[-3000:]' "$T/cc1.gdb.out"

# No -p: the process a failure came from. The first sh fails (status 7)
# after a child sh that failed (139) because its child crashed; failures
# let go on the way (false, exitstatus 3 before the crash) do not count.
cat >"$T/fail.sh" <<S
false || true
"$P/exitstatus" 0
sh -c '"$P/exitstatus" 3; "$P/crash"'
"$P/exitstatus" 0
exit 7
S
rec fail sh "$T/fail.sh"
check_eq "failing script: recorded, its status passed on" 7 "$status"
printf 'info inferiors\ncontinue\nbt 1\n' >"$T/fail.gdb"
gdb_on fail "$T/fail.gdb" "$T/fail.rwd"
check "no -p: gdb debugs the process that crashed" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"process (\d+) \(crash\) is where: it ended with SIGSEGV", t)
assert m, t[-3000:]
assert re.search(r"^\* 1 +process %s .*/crash *$" % m.group(1), t, re.M), t
assert "SIGSEGV" in t and re.search(r"^#0 .*crash_here", t, re.M), t' \
  "$T/fail.gdb.out"
gdb_on failq "$T/fail.gdb" -q "$T/fail.rwd"
check "no -p, -q: no notes" python3 -c '
import sys
t = open(sys.argv[1]).read()
assert "is where" not in t and "debugging process" not in t, t
assert "crash_here" in t, t' "$T/failq.gdb.out"
# The same children under a script that succeeds: its own process.
sed 's/^exit 7$/exit 0/' "$T/fail.sh" >"$T/ok.sh"
rec ok sh "$T/ok.sh"
check_eq "succeeding script: recorded" 0 "$status"
gdb_on ok "$T/fail.gdb" "$T/ok.rwd"
check "no -p, success: gdb debugs the first process" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert "is where" not in t and "debugging process" not in t, t
assert re.search(r"^\* 1 +process \d+ .*/(da)?sh *$", t, re.M), t
assert "SIGSEGV" not in t, t' "$T/ok.gdb.out"

# A command that execs its program (env, nice, a shim): gdb starts in the
# first program, with a note naming -p, and loads each program at its exec
# (exec events), forwards and backwards.
rec envok env REWIND_T=1 "$P/exitstatus" 0
cat >"$T/env0.gdb" <<'G'
set breakpoint pending on
break main
continue
info inferiors
reverse-continue
info inferiors
continue
G
gdb_on env0 "$T/env0.gdb" "$T/envok.rwd"
check "env PROG: gdb follows the exec, forwards and back" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"process \d+ ran 2 programs, the last exitstatus; gdb "
                 r"starts in the first .*-p exitstatus starts at exitstatus",
                 t), t[-3000:]
ex = [m.start() for m in re.finditer(r"is executing new program: (\S+)", t)]
assert len(ex) == 3, t[-3000:]
hits = [m.start() for m in re.finditer(r"Breakpoint 1, main \(", t)]
assert len(hits) == 2 and ex[0] < hits[0] < ex[1] < ex[2] < hits[1], t
assert "No more reverse-execution history." in t[ex[1]:ex[2]], t
inf = re.findall(r"^\* 1 +process \d+ .*/(\w+) *$", t, re.M)
assert inf == ["exitstatus", "env"], (inf, t[-3000:])' "$T/env0.gdb.out"
rec env env REWIND_T=1 "$P/crash"
printf 'break crash_here\ncontinue\nreverse-continue\ncontinue\ncontinue\n' \
  >"$T/env.gdb"
gdb_on env "$T/env.gdb" -p crash "$T/env.rwd"
# It crashed: without -p, gdb starts in crash too.
gdb_on envd "$T/env.gdb" "$T/env.rwd"
check "env PROG that crashed: gdb starts in PROG" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
assert "failed in its last program, crash" in t, t[-3000:]
assert len(re.findall(r"Breakpoint 1, crash_here", t)) == 2, t[-3000:]' \
  "$T/envd.gdb.out"
check "env PROG: -p PROG debugs PROG, back to its start" python3 -c '
import re, sys
t = open(sys.argv[1]).read()
hits = [m.start() for m in re.finditer(r"Breakpoint 1, crash_here", t)]
assert len(hits) == 2, t[-3000:]
back = t[hits[0]:hits[1]]
assert "No more reverse-execution history." in back and "_start" in back, back
assert "SIGSEGV" in t[hits[1]:], t[-3000:]' "$T/env.gdb.out"
finish
