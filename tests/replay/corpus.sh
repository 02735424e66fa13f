#!/bin/bash
# SPDX-License-Identifier: MIT
# The replay corpus: real programs are recorded, then replayed in the
# emulator with --verify, which checks the registers at every event and must
# end with the recorded exit status and no divergence.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# verify NAME: replays $T/NAME.rwd; the report goes to $T/NAME.replay.
verify() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^replay verified: ' "$T/$1.replay"; then
    fail=$((fail + 1))
    echo "FAIL: replay of $1 (exit $rc):"
    head -n 60 "$T/$1.replay"
    return 1
  fi
  pass=$((pass + 1))
}

# case NAME EXPECTED-STATUS COMMAND...: record, check the status, verify,
# and check that the replay ends the way the recording did.
case_() {
  local name=$1 want=$2
  shift 2
  rec "$name" "$@"
  check_eq "$name: recorded exit status" "$want" "$status"
  verify "$name" &&
    check "$name: replay ends with status $want" \
      grep -q "exited with status $want\$" "$T/$name.replay"
}

head -c 1000000 /dev/urandom | od -An -tx1 -w16 | head -c 1048576 >"$T/sort.in"
cat >"$T/py.py" <<'PY'
import json, re, hashlib
d = {"a": [1, 2, 3], "b": {"c": "text"}}
s = json.dumps(d, sort_keys=True)
assert json.loads(s) == d
words = re.findall(r"[a-z]+", "the quick brown fox jumps over the lazy dog")
print(len(words), hashlib.sha256(s.encode()).hexdigest()[:16],
      hashlib.md5(b"rewind").hexdigest()[:8])
PY
cat >"$T/db.sql" <<'SQL'
create table t(id integer primary key, name text, score real);
insert into t(name, score) values ('ada', 3.5), ('bob', 2.25), ('cy', 9);
insert into t(name, score) select name || id, score * 2 from t;
create index t_score on t(score);
select count(*), sum(score), max(name) from t where score > 3;
SQL

case_ ls 0 ls -la /usr/bin
case_ sort 0 sort --parallel=1 -o "$T/sort.out" "$T/sort.in"
case_ sha256sum 0 sha256sum "$T/sort.in"
case_ gzip 0 gzip -9 -k -f "$T/sort.in"
case_ gunzip 0 gunzip -c "$T/sort.in.gz"
case_ python3 0 python3 "$T/py.py"
case_ sqlite3 0 sqlite3 "$T/db" ".read $T/db.sql"
case_ find 0 find /usr/share/doc -name '*.gz'
case_ cxx 0 "$top_builddir/tests/programs/cxx_exceptions"
finish
