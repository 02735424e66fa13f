#!/bin/bash
# SPDX-License-Identifier: MIT
# Protection keys in a recording (tests/programs/pku): rdpkru, wrpkru and
# xsave/xrstor of PKRU replay to the same output, with PKRU as the kernel
# set it at each image's start, in a signal handler, after rt_sigreturn
# and pkey_alloc, and in a new thread (PKRU records, format 1.6); gdb shows
# $pkru forwards and backwards.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

A="$P/pku"
if ! grep -qw ospke /proc/cpuinfo; then
  echo "SKIP: this CPU or kernel has no protection keys (ospke)"
  exit 77
fi
native=$("$A"; echo "status $?")
rec pku "$A"
check_eq "same output as natively" "$native" \
  "$(cat "$T/pku.out"; echo "status $status")"
check "the default rights at start and in the handler" sh -c \
  "[ \$(grep -c '^start 0x55555554$' '$T/pku.out') -eq 2 ] &&
   grep -q '^handler 0x55555554 after 0x10$' '$T/pku.out'"
check "xrstor restores PKRU" grep -q '^xrstor 0x' "$T/pku.out"
check "the trace has PKRU records" sh -c \
  "'$REWIND' dump '$T/pku.rwd' | grep -q ' PKRU pkru=0x10$'"
"$REWIND" replay --verify --no-progress "$T/pku.rwd" >"$T/pku.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
shows pku '^replay verified: '

# gdb: $pkru at the marks, then again after going back to the first one.
cat >"$T/pku.gdb" <<'GDB'
handle SIGUSR1 nostop noprint
break pku_mark
continue
printf "mark %d pkru %#x\n", step, $pkru
continue
printf "mark %d pkru %#x\n", step, $pkru
continue
printf "mark %d pkru %#x\n", step, $pkru
reverse-continue
reverse-continue
printf "back at mark %d pkru %#x\n", step, $pkru
info registers pkru
GDB
timeout 120 "$REWIND" replay "$T/pku.rwd" -- -batch -nx -ex 'set width 0' \
  -x "$T/pku.gdb" >"$T/pku.replay" 2>&1
shows pku '^mark 1 pkru 0x10$'
shows pku '^mark 2 pkru 0x55555554$'
after_alloc=$(sed -n 's/^pkey [0-9-]* pkru //p' "$T/pku.out")
shows pku "^mark 3 pkru $after_alloc\$"
shows pku '^back at mark 1 pkru 0x10$'
shows pku '^pkru +0x10 +16$'
finish
