#!/bin/bash
# SPDX-License-Identifier: MIT
# SIGKILL safety: when rewind itself is killed with SIGKILL, PROG dies with
# it (PTRACE_O_EXITKILL) and the trace keeps every chunk flushed before (the
# recorder flushes at least once a second): `rewind info` and `rewind dump`
# still read it.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

"$REWIND" record -o "$T/k.rwd" -- "$P/spin" 30 >/dev/null 2>&1 &
rp=$!
for _ in $(seq 50); do
  tp=$(pgrep -P "$rp" -f "^$P/spin 30") && break # ours, not another test's
  sleep 0.1
done
check "spin started" test -n "${tp:-}"
sleep 2.5
kill -9 "$rp"
wait "$rp" 2>/dev/null
sleep 0.3
# Gone, or a zombie nobody has reaped yet.
check "PROG died with rewind" bash -c "! grep -Eq '^State:.*\\((running|sleeping|stopped|tracing)' /proc/${tp:-0}/status"
"$REWIND" info "$T/k.rwd" >"$T/info.out" 2>"$T/info.err"
check "info reads the cut trace" grep -q "^records:" "$T/info.out"
check "info reports it was not closed" grep -Eqi "rebuilt|not closed|damage|incomplete|truncat" "$T/info.out" "$T/info.err"
check "dump has the image and many syscalls" q k '
assert of("EXEC") and of("THREAD_START") and len(enters(230)) >= 20, len(enters(230))'
finish
