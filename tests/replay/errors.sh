#!/bin/bash
# SPDX-License-Identifier: MIT
# Traces that cannot be replayed say why, clearly, with a non-zero exit: an
# unknown format version, damaged chunks, an instruction the emulator does
# not implement, an rdrand written at run time, a missing file. A trace cut off by a killed
# recorder replays up to the cut and says so (exit 3, not 0).
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# replay NAME: --verify of $T/NAME.rwd; output in $T/NAME.replay, status in $rs.
replay() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  rs=$?
}

# expect NAME TEXT: the replay of NAME failed and said TEXT.
expect() {
  if [ "$rs" -ne 0 ] && grep -q -- "$2" "$T/$1.replay"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $1: expected a failure saying '$2' (exit $rs):"
    head -n 20 "$T/$1.replay"
  fi
}

rec base "$P/exitstatus" 3
check_eq "base: recorded" 3 "$status"

# An unknown major version: patch the header and its CRC-32C.
python3 - "$T/base.rwd" "$T/v9.rwd" <<'PY'
import sys
def crc32c(data):
    crc = 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff
b = bytearray(open(sys.argv[1], "rb").read())
hl = b[12] | b[13] << 8
b[8] = 9
b[hl - 4:hl] = crc32c(bytes(b[:hl - 4])).to_bytes(4, "little")
open(sys.argv[2], "wb").write(b)
PY
replay v9
expect v9 "version 9"

# Damage inside the payload of the last RECORDS chunk: the replay runs up
# to it, then stops and names the offset.
python3 - "$T/base.rwd" "$T/dmg.rwd" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
last, i = -1, b.find(b"RWCK")
while i >= 0:
    if b[i + 4] == 1 and b[i + 5] == 0:  # type RECORDS
        last = i
    i = b.find(b"RWCK", i + 4)
assert last >= 0
for k in range(last + 48 + 8, last + 48 + 24):
    b[k] ^= 0x5a
open(sys.argv[2], "wb").write(b)
PY
replay dmg
expect dmg "damaged at offset [0-9]"

# Not a trace, and no such file.
printf 'hello\n' >"$T/text.rwd"
replay text
expect text "not a rewind trace"
"$REWIND" replay --verify "$T/missing.rwd" >"$T/missing.replay" 2>&1
rs=$?
expect missing "No such file"

# An instruction the emulator does not implement (rdpid): the message
# names it and gives its bytes and address, and the output before it (after
# a clzero where the CPU has one) was replayed.
rec unsupported "$top_builddir/tests/programs/unsupported"
if [ "$status" -eq 77 ]; then
  echo "SKIP: unsupported: this CPU has no RDPID"
else
  replay unsupported
  expect unsupported "unsupported instruction rdpid"
  check "unsupported: the message gives the bytes and the address" \
    grep -q "(f3 0f c7 f8) at 0x" "$T/unsupported.replay"
  # clzero zeroed the line where the CPU has it (AMD), else its bytes
  # 1 + 2 + 3 are printed.
  before=6
  grep -qw clzero /proc/cpuinfo && before=0
  check "unsupported: the output before it replayed" \
    grep -q "^before rdpid: $before$" "$T/unsupported.out"
fi

# rdrand: the recorder patches every rdrand it finds in executable code
# and records its value (values differ at every run, so the replay's output
# checks would catch a wrong one); one written at run time, which it cannot
# see, stops the replay with the reason.
rec rdrand "$top_builddir/tests/programs/rdrand"
if [ "$status" -eq 77 ]; then
  echo "SKIP: rdrand: this CPU has no rdrand"
else
  check "rdrand: every value and CF recorded" q rdrand '
v = [r for r in of("RDTSC") if r["kind"] in (2, 3)]
assert len(v) >= 12 and all(r["aux"] in (0, 1) for r in v), v'
  replay rdrand
  check_eq "rdrand: the replay verifies" 0 "$rs"
  check "rdrand: replay verified" grep -q "^replay verified" "$T/rdrand.replay"
  rec rdjit "$top_builddir/tests/programs/rdrand" jit
  replay rdjit
  expect rdjit "rdrand or rdseed at 0x.*which the recorder did not see"
fi

# A recording cut off by SIGKILL of the recorder: replays up to the cut and
# says so, with its own exit status (3).
"$REWIND" record -f -o "$T/cut.rwd" -- "$P/spin" 20 >/dev/null 2>&1 &
rpid=$!
sleep 2
kill -9 "$rpid"
wait "$rpid" 2>/dev/null
replay cut
check_eq "cut: replays up to the cut (exit 3)" 3 "$rs"
check "cut: says the recording was cut off" \
  grep -q "^replay verified up to event [0-9]* .*the recording was cut off there" \
  "$T/cut.replay"
check "cut: says the trace ends before the program did" \
  grep -q "the trace ends here, before the program did" "$T/cut.replay"
# Damage behind valid checksums and index (tests/format/rw_edit) in a real
# recording with several RECORDS chunks: the replay must not take what is
# left for the whole history. A lost chunk stops it where the records go
# missing; a blob whose bytes are not what its hash names stops it where
# the blob is first read; both with exit 5.
EDIT="$top_builddir/tests/format/rw_edit"
"$REWIND" record -q -o "$T/py.rwd" -- python3 -c \
  'import json; print(sum(len(json.dumps(list(range(i)))) for i in range(300)))' \
  >/dev/null 2>&1
check_eq "py: recorded" 0 $?
"$EDIT" "$T/py.rwd" list >"$T/py.chunks"
lost=$(awk '$2 == "RECORDS" && ++k == 4 { print $1 }' "$T/py.chunks")
check "py: has several RECORDS chunks" test -n "$lost"
"$EDIT" "$T/py.rwd" "$T/lost.rwd" drop "$lost"
replay lost
check_eq "lost chunk: exit 5 (damaged)" 5 "$rs"
expect lost "records from [0-9]* on are missing .*a chunk of the trace is lost"
check "lost chunk: warned before replaying" \
  grep -q "warning: .*lost.rwd is damaged at offset" "$T/lost.replay"
check "lost chunk: not verified" test -z "$(grep "replay verified" "$T/lost.replay")"
# The same chunk cut out of the file, the index left stale.
off=$(awk -v k="$lost" '$1 == k { print $7 }' "$T/py.chunks")
next=$(awk -v k="$lost" '$1 == k + 1 { print $7 }' "$T/py.chunks")
{ head -c "$off" "$T/py.rwd"; tail -c +"$((next + 1))" "$T/py.rwd"; } \
  >"$T/stale.rwd"
replay stale
check_eq "lost chunk, stale index: exit 5" 5 "$rs"
expect stale "a chunk of the trace is lost"
blob=$(awk '$2 == "BLOB" && $6 > 100000 { print $1; exit }' "$T/py.chunks")
"$EDIT" "$T/py.rwd" "$T/blob.rwd" flip "$blob" 50000 0x01
replay blob
check_eq "blob byte: exit 5" 5 "$rs"
expect blob "does not match its SHA-256"
# A MAP of a terabyte (its length changed by rw_patch): mapped as a few
# table entries, not page by page for minutes; nothing the program does
# touches the extra terabyte, so the replay ends at once and verifies.
"$top_builddir/tests/replay/rw_patch" "$T/base.rwd" "$T/huge.rwd" \
  "$("$REWIND" dump --type MAP "$T/base.rwd" | awk 'NR == 1 { print $1 }')" \
  13 0x01
timeout 60 "$REWIND" replay --verify --no-progress "$T/huge.rwd" \
  >"$T/huge.replay" 2>&1
rs=$?
check_eq "huge mapping: replayed in time, exit 0" 0 "$rs"
check "huge mapping: verified" grep -q '^replay verified: ' "$T/huge.replay"
# gdb is told too, and the history before the damage is there.
"$REWIND" replay "$T/lost.rwd" -- -batch -ex continue >"$T/lost.gdb" 2>&1
check "lost chunk: gdb is warned" grep -q "lost.rwd is damaged at offset" \
  "$T/lost.gdb"
check "lost chunk: gdb stops at the damage" \
  grep -q "a chunk of the trace is lost" "$T/lost.gdb"
finish
