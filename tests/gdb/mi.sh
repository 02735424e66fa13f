#!/bin/bash
# SPDX-License-Identifier: MIT
# IDEs (VS Code's cpptools, CLion) drive gdb through GDB/MI: this sends
# gdb --interpreter=mi the commands cpptools sends to attach to a replay and
# debug it both ways, and checks gdb's MI answers (tests/gdb/mi.py), over
# both attachments docs/ide.md describes:
#   tcp   `rewind replay --listen 127.0.0.1:0 TRACE`, then
#         -target-select remote 127.0.0.1:PORT ("miDebuggerServerAddress")
#   pipe  -target-select remote | rewind serve --stdio TRACE
#         ("customLaunchSetupCommands"), with gdb --interpreter=mi2
# The MI transcripts are shown for a variant that fails.
. "${top_srcdir:-.}/tests/gdb/lib.sh"

rec inv "$B/examples/inventory"

# mi VARIANT INTERPRETER: runs mi.py; counts its "ok:" and "FAIL:" lines.
mi() {
  local v=$1 out=$T/mi-$1.out log=$T/mi-$1.log n
  timeout -k 10 300 python3 "$top_srcdir/tests/gdb/mi.py" "$v" "$REWIND_GDB" \
    "$REWIND" "$B/examples/inventory" "$T/inv.rwd" "$log" "$2" >"$out" 2>&1
  local rc=$?
  grep -Ev '^(ok:|[0-9]+ passed, [0-9]+ failed$)' "$out"
  n=$(grep -c '^ok:' "$out")
  pass=$((pass + n))
  n=$(grep -c '^FAIL:' "$out")
  fail=$((fail + n))
  if [ "$rc" -ne 0 ] && [ "$n" -eq 0 ]; then
    bad "mi.py $v exited with status $rc" "$out"
  fi
  if [ "$rc" -ne 0 ] && [ -f "$log" ]; then
    echo "    MI transcript of $v (last 60 lines):"
    tail -n 60 "$log" | sed 's/^/    | /'
  fi
}

mi tcp mi
mi pipe mi2
finish
