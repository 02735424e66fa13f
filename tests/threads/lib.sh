#!/bin/bash
# SPDX-License-Identifier: MIT
# Shared helpers of the multi-threaded end-to-end tests. They are those of
# tests/gdb/lib.sh (rec, session, expect, refute, ok, bad, finish) plus the
# trace queries of tests/recorder/lib.sh (dump, q, check, check_eq), over
# one scratch directory, and a few of their own: recordings under a time
# limit, `rewind replay --verify`, and checks of gdb's `info threads` and of
# values the gdb scripts print with `printf "@@ ..."` markers.

# The recorder's lib first (it makes a scratch directory of its own that we
# drop), then the debugger's, which makes $T, counts checks, and exits 77
# when gdb is missing.
. "${top_srcdir:-.}/tests/recorder/lib.sh"
rm -rf "$T"
trap - EXIT
. "${top_srcdir:-.}/tests/gdb/lib.sh"
P=$B/tests/programs
S=$top_srcdir/tests/programs
# RW_THR_KEEP=1 keeps the scratch directory (traces, gdb scripts, outputs).
[ -n "${RW_THR_KEEP:-}" ] && trap 'echo "kept $T"' EXIT

# A recording that never ends (a spinning thread nobody preempts) must fail
# the test, not hang it: rec records through `timeout`.
: "${RW_THR_REC_TIMEOUT:=120}"
cat >"$T/record-limited" <<EOF
#!/bin/sh
exec timeout -k 10 $RW_THR_REC_TIMEOUT "$REWIND_RECORD" "\$@"
EOF
chmod +x "$T/record-limited"
REWIND_RECORD=$T/record-limited

# rec_ok NAME OUTPUT PROG ARGS...: records like rec, and checks that the
# recording made a trace and that the program printed a line matching the
# extended regexp ^OUTPUT (what it prints natively).
rec_ok() {
  local name=$1 want=$2
  shift 2
  rec "$name" "$@"
  if [ -s "$T/$name.rwd" ] && grep -Eq -- "^$want" "$T/$name.rec.out" &&
      ! grep -q "not supported" "$T/$name.rec.err"; then
    ok
  else
    bad "recording $name prints /^$want/" "$T/$name.rec.err"
    sed 's/^/    out| /' "$T/$name.rec.out" | head -n 5
  fi
}

# verify NAME: `rewind replay --verify` of NAME's trace exits 0 and says the
# replay verified, up to the program's exit with status 0.
verify() {
  timeout 600 "$REWIND" replay --verify --no-progress "$T/$1.rwd" \
    >"$T/$1.verify" 2>&1
  local rc=$?
  if [ $rc -eq 0 ] &&
      grep -q '^replay verified: .*exited with status 0' "$T/$1.verify"; then
    ok
  else
    bad "replay --verify of $1 (exit $rc)" "$T/$1.verify"
  fi
}

# threads_at 'WHAT' LABEL COUNT [PATTERN...]: in the current session, the
# `info threads` output that follows the line "@@ LABEL" (up to the next
# "@@" line) lists COUNT threads ("-" for any number), and each extended
# regexp PATTERN matches one of its thread rows ("* 3    Thread P.T "name"
# frame"; the selected thread's row starts with "*").
threads_at() {
  local what=$1
  shift
  if python3 - "$T/$cur.out" "$@" <<'PY'; then ok; else bad "$cur: $what" "$T/$cur.out"; fi
import re, sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
label, count, pats = sys.argv[2], sys.argv[3], sys.argv[4:]
try:
    i = lines.index("@@ " + label)
except ValueError:
    print("    no line '@@ %s'" % label)
    sys.exit(1)
rows = []
for l in lines[i + 1:]:
    if l.startswith("@@"):
        break
    if re.match(r"^[* ] +[0-9]+ +Thread ", l):
        rows.append(l)
bad = False
if count != "-" and len(rows) != int(count):
    print("    %d thread rows after '@@ %s', expected %s" % (len(rows), label, count))
    bad = True
for p in pats:
    if not any(re.search(p, r) for r in rows):
        print("    no thread row after '@@ %s' matches /%s/" % (label, p))
        bad = True
for r in rows:
    if bad:
        print("    row: " + r)
sys.exit(1 if bad else 0)
PY
}

# value LABEL: the value printed by `printf "@@ LABEL %...\n", ...` in the
# current session (the first such line), or nothing.
value() {
  sed -n "s/^@@ $1 //p" "$T/$cur.out" | head -n 1
}

# value_is 'WHAT' LABEL EXPECTED: `value LABEL` is EXPECTED; on failure the
# session's output is shown.
value_is() {
  local v
  v=$(value "$2")
  if [ "$v" = "$3" ]; then ok; else
    bad "$cur: $1 (@@ $2 is '${v:-missing}', expected '$3')" "$T/$cur.out"
  fi
}

# same_thread 'WHAT' LABEL...: each `printf "@@ LABEL %d\n", $_thread ==
# $t` in the current session printed 1: the selected thread did not change.
same_thread() {
  local what=$1 l v
  shift
  for l in "$@"; do
    v=$(value "$l")
    if [ "$v" != 1 ]; then
      bad "$cur: $what (@@ $l is '${v:-missing}', not 1)" "$T/$cur.out"
      return
    fi
  done
  ok
}
