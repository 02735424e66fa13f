#!/bin/bash
# SPDX-License-Identifier: MIT
# Shared helpers of the recorder's end-to-end tests: a scratch directory, a
# check counter that ends with the "N passed, N failed" line, recording, and
# JSON queries over `rewind dump --json` written in python3.
set -u
: "${REWIND:=${top_builddir:-.}/cli/rewind}"
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
P="$top_builddir/tests/programs"
META="$top_builddir/tests/recorder/rw_meta"
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-rec.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

# san_or NORMAL SANITIZED: NORMAL, or under the sanitizers SANITIZED
# (scripts/test.sh sets RW_TEST_SANITIZED for that build, whose replays run
# interpreted and several times slower): a shorter workload there, for the
# same checks.
san_or() {
  if [ -n "${RW_TEST_SANITIZED:-}" ]; then echo "$2"; else echo "$1"; fi
}

# check NAME COMMAND...: runs COMMAND; counts and reports. A failure shows
# the end of what COMMAND printed, so that a CI log says why.
check() {
  local name=$1
  shift
  if "$@" >"$T/.check.out" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $name"
    tail -n 40 "$T/.check.out" | sed 's/^/  | /'
  fi
}

# check_eq NAME EXPECTED ACTUAL
check_eq() {
  if [ "$2" = "$3" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $1: expected '$2', got '$3'"
  fi
}

# shows NAME TEXT: the replay output $T/NAME.replay has TEXT (a grep -E
# pattern); counts and reports.
shows() {
  if grep -Eq -- "$2" "$T/$1.replay"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $1: expected '$2' in:"
    head -n 30 "$T/$1.replay"
  fi
}

finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit $?
}

# verified NAME: the replay of $T/NAME.rwd verifies (counts two checks; the
# start of what the replay said when it did not).
verified() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  check_eq "$1: replay --verify exits 0" 0 "$?"
  check "$1: replay verified" grep -q '^replay verified: ' "$T/$1.replay"
  [ -s "$T/$1.replay" ] && ! grep -q '^replay verified: ' "$T/$1.replay" &&
    head -n 20 "$T/$1.replay"
  return 0
}

# start NAME ARGS...: starts tests/programs/attachee ARGS in the background
# (its stdout in $T/NAME.srv), waits for its "ready PID" line; sets $pid.
start() {
  local name=$1
  shift
  "$P/attachee" "$@" >"$T/$name.srv" 2>&1 &
  pid=
  for _ in $(seq 100); do
    pid=$(awk '/^ready/ {print $2}' "$T/$name.srv" 2>/dev/null)
    [ -n "$pid" ] && break
    sleep 0.05
  done
}

# rec NAME ARGS...: records ARGS into $T/NAME.rwd; PROG's stdout goes to
# $T/NAME.out, stderr (PROG's and rewind's) to $T/NAME.err; sets $status.
rec() {
  local name=$1
  shift
  "$REWIND" record -f -o "$T/$name.rwd" -- "$@" >"$T/$name.out" 2>"$T/$name.err"
  status=$?
}

# dump NAME: the JSON dump with whole byte fields, cached.
dump() {
  [ -s "$T/$1.json" ] ||
    "$REWIND" dump --json --bytes 16777216 "$T/$1.rwd" >"$T/$1.json" 2>/dev/null
  echo "$T/$1.json"
}

# q NAME PYTHON: runs PYTHON with `recs` (the records, a list of dicts) and
# helpers; prints what it prints; exit status 1 when it raises.
q() {
  local f
  f=$(dump "$1")
  python3 - "$f" "$2" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def of(t): return [r for r in recs if r["type"] == t]
def mem_after(i):
    """MEM records that follow record index i up to the next syscall."""
    out = []
    for r in recs[i + 1:]:
        if r["type"] in ("SYSCALL_EXIT", "SYSCALL_ENTER", "SIGNAL"): break
        if r["type"] == "MEM": out.append(r)
    return out
def enters(nr): return [i for i, r in enumerate(recs)
                        if r["type"] == "SYSCALL_ENTER" and r["nr"] == nr]
exec(sys.argv[2])
PY
}
