#!/bin/bash
# SPDX-License-Identifier: MIT
# valgrind recorded: it reads the code of the program it runs as data and
# translates it, so the int3 rewind puts in place of an rdtsc where the
# kernel cannot trap it (recorder/tscpatch.c) must not be there; its own
# code, which runs the rdtsc for the program, keeps them (patched here
# even where the trap works: REWIND_TSC_PATCH=1). The recording gives the
# native output and the replay verifies.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

if ! command -v valgrind >/dev/null; then
  echo "SKIP: no valgrind (apt-get install valgrind)"
  exit 77
fi
native=$(valgrind --tool=none -q /bin/echo hello; echo "status $?")
REWIND_TSC_PATCH=1 rec vg valgrind --tool=none -q /bin/echo hello
check_eq "same output as natively" "$native" \
  "$(cat "$T/vg.out"; echo "status $status")"
check "no SIGTRAP" sh -c "! grep -q SIGTRAP '$T/vg.err'"
"$REWIND" replay --verify --no-progress "$T/vg.rwd" >"$T/vg.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
shows vg '^replay verified: '
finish
