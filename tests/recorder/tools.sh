#!/bin/bash
# SPDX-License-Identifier: MIT
# Real programs record successfully and behave as without rewind: ls,
# python3 -c (through whatever python3 is on PATH, often a wrapper script),
# sort, gzip and sqlite3 when installed.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# same NAME CMD...: records CMD and compares its stdout and status with a
# native run.
same() {
  local name=$1
  shift
  "$@" >"$T/$name.native" 2>/dev/null
  local want=$?
  rec "$name" "$@"
  check_eq "$name: exit status as native" "$want" "$status"
  check "$name: output as native" cmp "$T/$name.native" "$T/$name.out"
  check "$name: trace readable" "$REWIND" info "$T/$name.rwd"
}

seq 1 2000 | sort -R >"$T/numbers.txt"
same ls ls -la /usr/lib
same sort sort -n "$T/numbers.txt"
same python python3 -c 'import json, os, hashlib; print(json.dumps(sorted(os.listdir("/usr")))); print(hashlib.sha256(b"rewind").hexdigest())'
check "python: the interpreter itself was recorded" q python '
assert any("python3" in r["path"] for r in of("EXEC"))'
if command -v gzip >/dev/null; then
  same gzip gzip -c -9 "$T/numbers.txt"
fi
if command -v sqlite3 >/dev/null; then
  same sqlite sqlite3 :memory: "create table t(a); insert into t values (1),(2),(3); select sum(a) from t;"
fi
finish
