#!/bin/bash
# SPDX-License-Identifier: MIT
# Shared mappings whose bytes change without a store by the program at that
# address (tests/programs/shmap): two mappings of one memfd, code written
# through one and run through another, pwrite and write into a mapped file,
# a file grown and shrunk under its mappings (SIGBUS past the end), mremap
# of a shared mapping with old size 0, shared memory and a file written by
# child processes and by clone(CLONE_VM) children (one CLONE_UNTRACED), a
# robust mutex whose owner died, a child that writes shared memory and exits
# while the parent computes (its SIGCHLD is an asynchronous stop whose digest
# must leave that memory out). Each mode is recorded, must print what it
# prints natively, and must verify; gdb sees the aliased bytes.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

S="$P/shmap"
for m in alias jit pwrite write grow dup child robust clonevm untraced \
  spin; do
  native=$("$S" "$m" "$T"; echo "status $?")
  rec "$m" "$S" "$m" "$T"
  check_eq "$m: same output as natively" "$native" \
    "$(cat "$T/$m.out"; echo "status $status")"
  "$REWIND" replay --verify --no-progress "$T/$m.rwd" >"$T/$m.replay" 2>&1
  check_eq "$m: replay --verify exits 0" 0 "$?"
  check "$m: replay verified" grep -q '^replay verified: ' "$T/$m.replay"
  grep -q '^replay verified: ' "$T/$m.replay" || head -n 30 "$T/$m.replay"
done
check "spin: the handler saw what the child wrote" grep -q \
  "^spin: handler saw 133, sum " "$T/spin.out"
check "spin: the asynchronous stop leaves the shared page out" q spin '
p = [r for r in of("PREEMPT") if r["nskip"] >= 1]
assert p, of("PREEMPT")'
check "grow: SIGBUS past the end, bytes after growth" \
  grep -q '^grow: empty -1 -1$' "$T/grow.out"
check "jit: the rewritten code ran" grep -q '^jit: total 530$' "$T/jit.out"
check "alias: MAP records name the same object" q alias '
objs = [r["object"] for r in of("MAP") if r["flags"] & 1 and r["path"].startswith("/memfd:shmap")]
assert len(objs) == 2 and objs[0] == objs[1] and objs[0] != 0, objs'
check "grow: RESIZE records" q grow 'assert len(of("RESIZE")) == 3'
check "child: what the children wrote" grep -q \
  "^child: shared 955346135, byte 201, file 'from the child', handler 14$" \
  "$T/child.out"
check "child: the later mapping" grep -q \
  "^child: later mapping 466419712, first again 77$" "$T/child.out"
check "clonevm: what the child wrote" grep -q \
  "^clonevm: data 3710024382, heap 1476003840$" "$T/clonevm.out"
check "untraced: what the CLONE_UNTRACED child wrote" grep -q \
  "^untraced: data 3710024382, heap 1476003840$" "$T/untraced.out"
check "robust: the kernel marked the mutex" \
  grep -q "^robust: lock after owner died EOWNERDEAD$" "$T/robust.out"

# gdb, in the replay, reads through the read-only mapping what was stored
# through the writable one, and can go back to before the store.
line=$(grep -n 'gdb: alias stop' "$top_srcdir/tests/programs/shmap.c" |
  cut -d: -f1)
cat >"$T/alias.gdb" <<G
break shmap.c:$line
continue
print (char)r[1]
print seen
reverse-step
print (char)r[1]
G
timeout 120 "$REWIND" replay "$T/alias.rwd" -- -batch -nx -x "$T/alias.gdb" \
  >"$T/alias.gdb.out" 2>&1
check "alias: gdb sees the store through the other mapping" \
  grep -q "^\$1 = 102 'f'" "$T/alias.gdb.out"
check "alias: gdb reverse-steps to before it" \
  grep -q '^\$3 = 0 ' "$T/alias.gdb.out"
grep -q "^\$3 = 0 " "$T/alias.gdb.out" || tail -n 20 "$T/alias.gdb.out"
finish
