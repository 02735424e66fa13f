#!/bin/bash
# SPDX-License-Identifier: MIT
# Shared helpers of the debugger's end-to-end tests: a scratch directory,
# recording a program, running real gdb in batch mode on a replay through
# `rewind replay TRACE -- -batch -nx -x SCRIPT`, and checks on gdb's actual
# output that end with the "N passed, N failed" line.
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
: "${REWIND:=$top_builddir/cli/rewind}"
: "${GDB:=gdb}"
# The recorder used to make the traces (the same rewind unless overridden).
: "${REWIND_RECORD:=$REWIND}"
export REWIND_GDB=${GDB:-gdb}
B=$top_builddir
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-gdb.XXXXXX")
trap 'rm -rf "$T"' EXIT
# Where gdb's local copy of a trace's files goes (cli/sysroot.c): this
# test's own directory, so that it checks what it wrote.
export REWIND_CACHE=$T/cache
pass=0
fail=0

if ! command -v "$REWIND_GDB" >/dev/null 2>&1; then
  echo "SKIP: gdb not found ($REWIND_GDB)"
  exit 77
fi

ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL: $1"
  [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/    | /' "$2" | tail -n 40
}

# rec NAME PROG ARGS...: records into $T/NAME.rwd.
rec() {
  local name=$1
  shift
  if ! "$REWIND_RECORD" record -f -o "$T/$name.rwd" -- "$@" \
      >"$T/$name.rec.out" 2>"$T/$name.rec.err"; then
    grep -q "recorded" "$T/$name.rec.err" ||
      { bad "recording $name"; cat "$T/$name.rec.err"; }
  fi
}

# session NAME TRACE: runs the gdb script read from stdin on TRACE; gdb's
# output (stdout and stderr, where the stub's notes go) is in $T/NAME.out.
session() {
  local name=$1 trace=$2
  cat >"$T/$name.gdb"
  timeout 120 "$REWIND" replay "$T/$trace.rwd" -- -batch -nx \
    -ex 'set width 0' -ex 'set height 0' -x "$T/$name.gdb" \
    >"$T/$name.out" 2>&1
  echo "exit status $?" >>"$T/$name.out"
  cur=$name
}

# expect 'WHAT' PATTERN...: each extended regexp, in order, matches a later
# line of the current session's output than the one before.
expect() {
  local what=$1
  shift
  if python3 - "$T/$cur.out" "$@" <<'PY'; then ok; else bad "$cur: $what" "$T/$cur.out"; fi
import re, sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
i = 0
for pat in sys.argv[2:]:
    r = re.compile(pat)
    while i < len(lines) and not r.search(lines[i]):
        i += 1
    if i == len(lines):
        print("    no line matches /%s/ (in order)" % pat)
        sys.exit(1)
    i += 1
PY
}

# refute 'WHAT' PATTERN: no line of the output matches.
refute() {
  if grep -Eq -- "$2" "$T/$cur.out"; then bad "$cur: $1" "$T/$cur.out"; else ok; fi
}

finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit $?
}
