#!/bin/bash
# SPDX-License-Identifier: MIT
# The first minutes of a new user, end to end in a temporary HOME: record
# without naming the trace, find it again (latest-trace, rewind ls, names in
# the trace directory), replay and reverse-debug it with no trace argument,
# remove traces; output to a closed pipe; one option syntax for every
# command; JSON that is valid UTF-8. Ends with "N passed, N failed".
set -u
src=$(cd "${top_srcdir:-.}" && pwd)
build=$(cd "${top_builddir:-.}" && pwd)
rewind=${REWIND:-$build/cli/rewind}
P=$build/tests/programs
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-ux.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
check() { # name, command...
  local name=$1
  shift
  if "$@" >"$work/last.out" 2>&1; then pass=$((pass + 1)); echo "ok: $name"
  else fail=$((fail + 1)); echo "FAIL: $name"; sed 's/^/  /' "$work/last.out" | head -20; fi
}
status() { # expected-status command...
  local want=$1
  shift
  "$@" >"$work/st.out" 2>"$work/st.err"
  local got=$?
  [ "$got" -eq "$want" ] || { echo "exit $got, wanted $want"; cat "$work/st.err"; return 1; }
}
export HOME=$work/home
unset XDG_DATA_HOME REWIND_TRACE_DIR
mkdir -p "$HOME" "$work/cwd"
cd "$work/cwd" || exit 1
tdir=$HOME/.local/share/rewind

# Nothing recorded yet: a clear message, not a usage error.
check "replay with nothing recorded" status 1 "$rewind" replay --print
check "  names the trace directory" grep -q "no latest trace in $tdir" "$work/st.err"
check "ls with nothing recorded" status 0 "$rewind" ls
check "  says so on stderr" grep -q "no traces in $tdir yet" "$work/st.err"

# Record without -o: the trace goes to the trace directory, created.
"$rewind" record -q "$P/exitstatus" 3 >/dev/null 2>&1
"$rewind" record "$P/envargs" café >"$work/rec.out" 2>"$work/rec.err"
check "trace directory created" test -d "$tdir"
check "trace directory private" test "$(stat -c %a "$tdir")" = 700
check "traces named after the program" test -s "$tdir/exitstatus-0.rwd" -a -s "$tdir/envargs-0.rwd"
check "nothing written to the current directory" test -z "$(ls "$work/cwd")"
check_latest() { test "$(readlink "$tdir/latest-trace")" = "$1"; }
check "latest-trace is the newest" check_latest envargs-0.rwd

# Find it again.
check "ls lists both" status 0 "$rewind" ls
check "  with the latest marked" grep -Eq '^\* envargs-0\.rwd +[0-9.]+ [KM]iB +[0-9-]+ [0-9:]+ +exit 2 .*envargs café' "$work/st.out"
check "  and the other one" grep -Eq '^  exitstatus-0\.rwd .* exit 3 ' "$work/st.out"
check "ls --json" status 0 "$rewind" ls --json
check "  valid JSON per line" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["name"] for r in rows] == ["exitstatus-0.rwd", "envargs-0.rwd"], rows
assert rows[1]["latest"] and not rows[0]["latest"] and rows[1]["bytes"] > 0' "$work/st.out"
check "info with no trace: the latest" status 0 "$rewind" info
check "  shows its command" grep -q 'envargs café' "$work/st.out"
check "info by name" status 0 "$rewind" info exitstatus-0
check "  of the named trace" grep -q 'exit 3' "$work/st.out"
check "info of an unknown name" status 1 "$rewind" info nosuch
check "  says where it looked" grep -q "no trace nosuch here or in $tdir" "$work/st.err"
check "replay --verify with no trace" status 0 "$rewind" replay --verify
check "replay --print by name" status 0 "$rewind" replay --print exitstatus-0.rwd
check "  registers shown" grep -q '^at instruction 0, event' "$work/st.out"

# Reverse debugging of the latest trace, gdb started by rewind.
if command -v gdb >/dev/null; then
  cat >"$work/s.gdb" <<'GDB'
break main
continue
next
reverse-stepi
monitor when
GDB
  check "replay (gdb) with no trace argument" status 0 \
    "$rewind" replay -- -batch -x "$work/s.gdb"
  cat "$work/st.out" "$work/st.err" >"$work/gdb.out"
  check "  breakpoint in main reached" grep -q '^Breakpoint 1, main ' "$work/gdb.out"
  check "  and the history moved back" \
    grep -q '^at instruction [0-9]*, event' "$work/gdb.out"
  # Where main starts in exitstatus-0, for the next two sessions.
  printf 'break main\ncontinue\nmonitor when\n' >"$work/m.gdb"
  "$rewind" replay exitstatus-0 -- -batch -x "$work/m.gdb" >"$work/m.out" 2>&1
  pos=$(sed -n 's/^at instruction \([0-9]*\),.*/\1/p' "$work/m.out" | tail -1)
  check "position of main found" test -n "$pos"
  printf 'monitor when\n' >"$work/w.gdb"
  check "replay -g N starts gdb at N" status 0 \
    "$rewind" replay -g "${pos:-1}" exitstatus-0 -- -batch -x "$work/w.gdb"
  check "  at that instruction" bash -c \
    "cat '$work/st.out' '$work/st.err' | grep -q '^at instruction ${pos:-1}, event'"
  # A gdb started by hand, with rewind gdbinit's commands: after monitor goto
  # it shows where the replay now is, shared libraries and all.
  "$rewind" gdbinit >"$work/init.gdb"
  check "gdbinit prints the hook" grep -q '^define hookpost-monitor' "$work/init.gdb"
  printf 'monitor goto %s\nbt 1\n' "${pos:-1}" >"$work/goto.gdb"
  check "hand-started gdb with gdbinit" status 0 gdb -q -nx -batch \
    -x "$work/init.gdb" -ex "target remote | $rewind serve --stdio exitstatus-0" \
    -x "$work/goto.gdb"
  check "  frame after monitor goto is main" grep -q '^#0 .*main (' "$work/st.out"
  check "  the startup line points to monitor help" \
    grep -q 'monitor help. lists rewind' "$work/st.out"
  # A server that takes a while to stand where the session starts (a far
  # --goto, -p of a late process; here a sleep) is waited for, not dropped
  # after gdb's default 2 seconds.
  slow="sleep 4; exec $rewind serve --stdio exitstatus-0"
  check "a slow server start is waited for" status 0 gdb -q -nx -batch \
    -x "$work/init.gdb" -ex "target remote | sh -c '$slow'" \
    -ex 'info registers rip'
  check "  and answers" grep -q '^rip  *0x' "$work/st.out"
fi

# An explicit -o outside the directory also becomes the latest.
"$rewind" record -q -o "$work/x.rwd" "$P/exitstatus" 5 >/dev/null 2>&1
check "-o trace becomes the latest" check_latest "$work/x.rwd"
check "info of it with no trace" status 0 "$rewind" info
check "  it is the -o one" grep -q 'exit 5' "$work/st.out"

# rm: by name; the latest moves to the newest one left; not a trace: kept.
check "rm by path" status 0 "$rewind" rm "$work/x.rwd"
check "  removed" test ! -e "$work/x.rwd"
check "  latest moved to the newest left" check_latest envargs-0.rwd
echo hello >"$tdir/notes.rwd"
check "rm refuses a file that is not a trace" status 1 "$rewind" rm notes
check "  and keeps it" test -s "$tdir/notes.rwd"
check "rm by name" status 0 "$rewind" rm envargs-0
check "  latest moved again" check_latest exitstatus-0.rwd
check "rm of an unknown name" status 1 "$rewind" rm nosuch
check "rm with no argument is a usage error" status 2 "$rewind" rm

# Progress of a long recording (forced on: stderr is not a terminal here).
"$rewind" record --progress -o "$work/p.rwd" sleep 2.6 2>"$work/p.err"
check "record --progress shows events, size and time" \
  grep -Eq $'\r\033\\[Krewind: recording sleep: [0-9]+ events, [0-9.]+ [KM]iB, [0-9]+ s' "$work/p.err"
check "  and clears the line before the summary" \
  grep -Eq $'\r\033\\[Krewind: recorded ' "$work/p.err"
"$rewind" record -o "$work/np.rwd" sleep 2.2 2>"$work/np.err"
check "no progress when stderr is not a terminal" \
  bash -c "! grep -q 'recording sleep' '$work/np.err'"

# Output to a reader that goes away: quiet, status 0.
bash -c 'set -o pipefail; "$1" dump "$2" | head -n 1 >/dev/null' _ "$rewind" \
  "$tdir/exitstatus-0.rwd" 2>"$work/pipe.err"
check "dump | head exits 0" test $? -eq 0
check "  and says nothing" test ! -s "$work/pipe.err"
bash -c 'set -o pipefail; "$1" dump --json "$2" | head -c 10 >/dev/null' _ \
  "$rewind" "$tdir/exitstatus-0.rwd" 2>"$work/pipe.err"
check "dump --json | head -c exits 0" test $? -eq 0

# One option syntax: --opt=value, clusters, abbreviations, one error each.
t=$tdir/exitstatus-0.rwd
check "dump --type=SYSCALL_EXIT" status 0 "$rewind" dump --type=SYSCALL_EXIT "$t"
check "  only that type" bash -c "! grep -v ' SYSCALL_EXIT ' '$work/st.out'"
check "  syscalls by name" grep -q ' SYSCALL_EXIT nr=exit_group\| SYSCALL_EXIT nr=brk ' "$work/st.out"
check "options after the trace" status 0 "$rewind" dump "$t" --type EXEC
check "record -qf clustered" status 0 "$rewind" record -qf -o "$work/y.rwd" "$P/exitstatus" 0
check "missing argument" status 2 "$rewind" dump --from
check "  named once" test "$(grep -c "option '--from' needs an argument" "$work/st.err")" = 1
check "  and nothing else but the hint" test "$(wc -l <"$work/st.err")" = 2
check "unknown option in replay, once" status 2 "$rewind" replay --frob "$t"
check "  one line and the hint" test "$(wc -l <"$work/st.err")" = 2
check "unknown option in serve, once" status 2 "$rewind" serve --stdio --frob "$t"
check "  one line and the hint" test "$(wc -l <"$work/st.err")" = 2
check "--goto without a number" status 2 "$rewind" replay --goto
check "  names the option" grep -q "option '--goto' needs an argument" "$work/st.err"
check "abbreviated long option" status 0 "$rewind" info --js "$t"

# Listening beyond loopback needs saying so: the protocol has no
# authentication.
check "--listen on all interfaces refused" status 1 "$rewind" replay \
  --listen 0.0.0.0:0 "$t"
check "  explaining why and what to do" grep -q 'no authentication.*--allow-remote' "$work/st.err"
timeout 2 "$rewind" serve --listen 0.0.0.0:0 --allow-remote "$t" \
  >"$work/srv.out" 2>"$work/srv.err"
check "  --allow-remote serves, with a warning" grep -q 'warning: listening on 0.0.0.0:0: the GDB protocol has no authentication' "$work/srv.err"
check "  and says where" grep -q '^rewind: serving .* on 0.0.0.0:[1-9]' "$work/srv.out"

# Machine-readable output: info --json, JSON strings as UTF-8.
check "info --json" status 0 "$rewind" info --json "$tdir/exitstatus-0.rwd"
check "  one valid object" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is True and d["damage"] is None
assert d["command"][-1] == "3" and d["exit"] == "exit 3"
assert d["records"]["total"] > 0 and d["records"]["by_type"]["SYSCALL_EXIT"] > 0
assert d["file_bytes"] > 0 and d["blobs"]' "$work/st.out"
"$rewind" record -q -o "$work/u.rwd" "$P/envargs" café >/dev/null 2>&1
"$rewind" info --json "$work/u.rwd" >"$work/u.json"
check "  UTF-8 arguments kept" python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["command"][-1] == "café", d["command"]' "$work/u.json"
"$rewind" dump --json --type EXEC "$work/u.rwd" >"$work/u.dump"
check "dump --json is valid UTF-8 JSON" python3 -c '
import json, sys
for l in open(sys.argv[1], encoding="utf-8"): json.loads(l)' "$work/u.dump"
check "dump --json: syscall names and numbers" bash -c \
  "'$rewind' dump --json --type SYSCALL_ENTER '$work/u.rwd' | grep -q '\"nr\":12,\"syscall\":\"brk\"'"

check "--version names the trace format" bash -c \
  "'$rewind' --version | grep -Eq '^rewind [0-9.]+ \(reads trace format 1\.x, writes [0-9]+\.[0-9]+\)$'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
