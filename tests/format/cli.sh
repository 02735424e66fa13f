#!/bin/bash
# SPDX-License-Identifier: MIT
# End-to-end test of `rewind info` and `rewind dump` on a trace written by
# tests/format/mktrace, and on the damaged samples of tests/format/bad/:
# output content, filters, JSON validity (with python3 when present), and
# exit statuses. Ends with "N passed, N failed".
set -u
src=$(cd "${top_srcdir:-.}" && pwd)
build=$(cd "${top_builddir:-.}" && pwd)
rewind=${REWIND:-$build/cli/rewind}
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
check() { # name, command...
  local name=$1
  shift
  if "$@" >"$work/last.out" 2>&1; then pass=$((pass + 1)); echo "ok: $name"
  else fail=$((fail + 1)); echo "FAIL: $name"; sed 's/^/  /' "$work/last.out" | head -20; fi
}
# status EXPECTED command... : true when the command exits with EXPECTED.
status() {
  local want=$1
  shift
  "$@" >"$work/st.out" 2>"$work/st.err"
  local got=$?
  [ "$got" -eq "$want" ] || { echo "exit $got, wanted $want"; cat "$work/st.err"; return 1; }
}

t=$work/t.rwd
"$build/tests/format/mktrace" sample "$t" 3 200 || { echo "mktrace failed"; exit 1; }

"$rewind" info "$t" >"$work/info" 2>"$work/info.err"
check "info exits 0" test $? -eq 0
# The version this build writes, as --version says it.
writes=$("$rewind" --version | sed -n 's/.*writes \([0-9.]*\)).*/\1/p')
check "info: format version ($writes)" grep -qF "rewind trace $writes (this build writes $writes)" "$work/info"
check "info: closed cleanly" grep -q '^state: *closed cleanly' "$work/info"
check "info: command line" grep -q '^command: *\/bin\/echo hello world$' "$work/info"
check "info: machine, kernel, cpu" grep -q '^cpu: *Test CPU' "$work/info"
check "info: cwd" grep -q '^cwd: *\/home\/test$' "$work/info"
check "info: human start date" grep -Eq '^started: *2023-11-1[45] ' "$work/info"
check "info: duration" grep -q '^duration: *1\.500 s$' "$work/info"
check "info: threads" grep -q '^threads: *3 (1000 1001 1002)$' "$work/info"
check "info: record counts" grep -Eq '^  SYSCALL_EXIT +200$' "$work/info"
check "info: blobs deduplicated" grep -q '^blobs: *2 ' "$work/info"
check "info: blob names" grep -q 'libc.so.6$' "$work/info"
check "info: keyframes" grep -q '^keyframes: *1 ' "$work/info"
check "info: ratio" grep -Eq '^data: .*ratio [0-9]+\.[0-9]+' "$work/info"
check "info: nothing on stderr" test ! -s "$work/info.err"
check "info --help" status 0 "$rewind" info --help
check "info without a trace, none recorded" \
  status 1 env XDG_DATA_HOME="$work/empty" "$rewind" info
check "info: says there is no latest trace" \
  grep -q 'no trace given, and no latest trace in .*/empty/rewind' "$work/st.err"
check "info on a missing file" status 1 "$rewind" info "$work/none.rwd"
check "info: missing file named" grep -q 'none.rwd: cannot open' "$work/st.err"
mkfifo "$work/fifo"
check "info on a FIFO returns at once" status 1 timeout 10 "$rewind" info "$work/fifo"
check "  saying it is a FIFO" grep -q 'fifo: a FIFO, not a trace file' "$work/st.err"
# A valid header then 4 GiB of holes: refused at once, reading no zeros
# (the scan skips holes), in bounded memory.
head -c 64 "$t" >"$work/giant.rwd"
truncate -s 4G "$work/giant.rwd"
check "a sparse giant is refused at once" status 5 timeout 20 \
  /usr/bin/time -f "%M" -o "$work/giant.rss" "$rewind" info --check "$work/giant.rwd"
check "  naming the damage" grep -q 'no chunk header at offset 64' "$work/st.out"
check "  in bounded memory (under 100 MiB)" test "$(tail -1 "$work/giant.rss")" -lt 102400
rm -f "$work/giant.rwd"
check "info on a directory" status 1 "$rewind" info "$work"
check "  saying it is a directory" grep -q 'a directory, not a trace' "$work/st.err"

nrec=$(sed -n 's/^records: *\([0-9]*\) .*/\1/p' "$work/info")
"$rewind" dump "$t" >"$work/dump"
check "dump exits 0" test $? -eq 0
check "dump: one line per record" test "$(wc -l <"$work/dump")" -eq "$nrec"
check "dump: seq order" bash -c "cut -d' ' -f1 '$work/dump' | sort -n -c"
check "dump: fields decoded" grep -q '^1 1000 EXEC pid=1000 path="/bin/echo"$' "$work/dump"
check "dump: registers" grep -Eq ' SYSCALL_EXIT nr=(read|write) result=[0-9]+ regs=\{rip=0x' "$work/dump"
check "dump: bytes in hex" grep -Eq ' MEM addr=0x[0-9a-f]+ data=\[[0-9]+\] 6c696e65' "$work/dump"
"$rewind" dump --bytes 4 --type mem "$t" >"$work/mem"
check "dump --type" bash -c "! grep -v ' MEM ' '$work/mem' && test -s '$work/mem'"
check "dump --bytes" grep -Eq 'data=\[[0-9]+\] 6c696e65\.\.\.$' "$work/mem"
"$rewind" dump --thread 1001 "$t" >"$work/t1001"
check "dump --thread" bash -c "test -s '$work/t1001' && ! cut -d' ' -f2 '$work/t1001' | grep -v '^1001$'"
"$rewind" dump --json "$t" >"$work/json"
check "dump --json: one object per record" test "$(wc -l <"$work/json")" -eq "$nrec"
check "dump --json: members" grep -q '^{"seq":1,"tid":1000,"type":"EXEC","pid":1000,"path":"/bin/echo"}$' "$work/json"
if command -v python3 >/dev/null; then
  check "dump --json: valid JSON" python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert {"seq", "tid", "type"} <= o.keys()
    if o["type"] == "SYSCALL_EXIT":
        assert o["regs"]["rip"].startswith("0x") and "r15" in o["regs"]
' "$work/json"
fi
check "dump --help" status 0 "$rewind" dump --help
check "dump: bad option" status 2 "$rewind" dump --frobnicate "$t"
check "dump: unknown type" status 2 "$rewind" dump --type NOPE "$t"
check "dump: unknown thread" status 1 "$rewind" dump --thread 7 "$t"

bad=$src/tests/format/bad
check "dump: version refused" status 1 "$rewind" dump "$bad/version-2.rwd"
check "dump: version message" grep -q 'version 2.0 is not supported (this build reads version 1.x)' "$work/st.err"
check "info: not a trace" status 1 "$rewind" info "$bad/not-a-trace.rwd"
check "info: not a trace message" grep -q 'not a rewind trace' "$work/st.err"
check "info: cut-off trace readable" status 0 "$rewind" info "$bad/truncated-chunk.rwd"
check "info: cut off on stderr" grep -q 'not closed: it ends inside a chunk (.*) (offset [0-9]*: chunk at offset' "$work/st.err"
check "info: cut off in report" grep -q '^cut off: *at offset' "$work/st.out"
check "info: damaged trace readable" status 5 "$rewind" info "$bad/payload-checksum.rwd"
check "info: damage on stderr" grep -q 'chunk at offset [0-9]*: payload checksum mismatch' "$work/st.err"
check "info: damage in report" grep -q '^unreadable: *chunk at offset' "$work/st.out"
check "dump: cut-off trace readable" status 0 "$rewind" dump "$bad/truncated-chunk.rwd"
check "dump: records before the cut" test "$(wc -l <"$work/st.out")" -gt 0
check "dump: unreadable chunk skipped" status 5 "$rewind" dump "$bad/payload-checksum.rwd"
check "dump: skip reported" grep -q 'payload checksum mismatch' "$work/st.err"
check "dump: unclosed trace is fine" status 0 "$rewind" dump "$bad/unclosed.rwd"

# info --check: 0 whole, 3 cut off, 5 damaged, 1 not a trace at all.
check "check: whole" status 0 "$rewind" info --check "$t"
check "check: whole says so" grep -q '^result: *whole' "$work/st.out"
for s in unclosed:3 truncated-chunk:3 payload-checksum:5 bad-index:5 \
         bad-trailer:5 bad-chunk-magic:5 record-overrun:5 not-a-trace:1 \
         version-2:1 empty:5 short-header:5 header-checksum:5 lost-chunk:5 blob-hash:5 meta-mismatch:5 \
         dup-chunk:5; do
  check "check: ${s%:*} exits ${s#*:}" status "${s#*:}" \
    "$rewind" info --check "$bad/${s%:*}.rwd"
done

# Damage behind valid checksums and a valid index (tests/format/rw_edit):
# only the checks that look past checksums can find it.
edit=$build/tests/format/rw_edit
"$edit" "$t" list >"$work/chunks" || { echo "rw_edit failed"; exit 1; }
nth() { # nth TYPE N: the chunk number of the Nth chunk of TYPE
  awk -v t="$1" -v n="$2" '$2 == t && ++k == n { print $1 }' "$work/chunks"
}
rec=$(nth RECORDS 4)
"$edit" "$t" "$work/lost.rwd" drop "$rec"
check "lost chunk: info" status 5 "$rewind" info "$work/lost.rwd"
check "lost chunk: info names the records" grep -Eq 'records [0-9]+\.\.[0-9]+ are missing' "$work/st.err"
check "lost chunk: check" status 5 "$rewind" info --check "$work/lost.rwd"
check "lost chunk: dump" status 5 "$rewind" dump "$work/lost.rwd"
check "lost chunk: dump says where" grep -q 'a chunk of the trace is lost' "$work/st.err"
# The same chunk cut out of the file with the index left as it was.
off=$(awk -v k="$rec" '$1 == k { print $7 }' "$work/chunks")
next=$(awk -v k="$rec" '$1 == k + 1 { print $7 }' "$work/chunks")
{ head -c "$off" "$t"; tail -c +"$((next + 1))" "$t"; } >"$work/lost2.rwd"
check "lost chunk, stale index: check" status 5 "$rewind" info --check "$work/lost2.rwd"
check "lost chunk, stale index: names it" grep -q 'a chunk of the trace is lost' "$work/st.out"
"$edit" "$t" "$work/blob.rwd" flip "$(nth BLOB 2)" 1000 0x10
check "blob byte: info does not read blobs" status 0 "$rewind" info "$work/blob.rwd"
check "blob byte: check" status 5 "$rewind" info --check "$work/blob.rwd"
check "blob byte: names the blob" grep -q "blob '/lib/x86_64-linux-gnu/libc.so.6' (offset [0-9]*) does not match its SHA-256" "$work/st.out"
"$edit" "$t" "$work/meta.rwd" flip "$(nth META 1)" 8 0x01
check "metadata: info" status 5 "$rewind" info "$work/meta.rwd"
check "metadata: names the key" grep -Eq "metadata '.*' (differs between|is in a META chunk but not in)" "$work/st.err"
"$edit" "$t" "$work/dup.rwd" dup "$rec"
check "chunk twice: check" status 5 "$rewind" info --check "$work/dup.rwd"
"$edit" "$t" "$work/same.rwd" flip "$rec" 0 0
check "rewritten unchanged: check" status 0 "$rewind" info --check "$work/same.rwd"
check "check --json" status 5 "$rewind" info --check --json "$work/lost.rwd"
if command -v python3 >/dev/null; then
  check "check --json is JSON" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["whole"] is False and d["damaged"] == 1, d
assert d["problems"][0]["kind"] == "damage", d' "$work/st.out"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
