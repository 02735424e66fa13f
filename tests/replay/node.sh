#!/bin/bash
# SPDX-License-Identifier: MIT
# node as a new user would record it: V8 starts worker threads, compiles
# the script with its JIT and, where the kernel offers protection keys,
# guards its code with them (pkey_alloc, wrpkru, rdpkru). The recording
# gives the native output and the replay verifies.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

NODE=$(command -v node || command -v nodejs || true)
W="$top_srcdir/tests/programs/node_work.js"
if [ -z "$NODE" ]; then
  echo "SKIP: no node (apt-get install nodejs)"
  exit 77
fi
native=$("$NODE" "$W"; echo "status $?")
rec node "$NODE" "$W"
check_eq "same output as natively" "$native" \
  "$(cat "$T/node.out"; echo "status $status")"
check "the program's own result" grep -q '^primes 45240 words 4 sum ' \
  "$T/node.out"
if grep -qw ospke /proc/cpuinfo; then
  check "V8 allocated a protection key" sh -c "'$REWIND' dump \
    '$T/node.rwd' | grep -q 'SYSCALL_EXIT nr=pkey_alloc result=[0-9]'"
fi
"$REWIND" replay --verify --no-progress "$T/node.rwd" >"$T/node.replay" 2>&1
check_eq "replay --verify exits 0" 0 "$?"
shows node '^replay verified: '
finish
