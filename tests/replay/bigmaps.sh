#!/bin/bash
# SPDX-License-Identifier: MIT
# Large address spaces (tests/programs/bigmaps): a region cut into
# thousands of mappings one mprotect at a time, a 1 TiB sparse memfd mapped
# four ways, a 100 GiB reservation, a 2 GiB memfd, and a CLONE_VM child
# that changes mappings unrecorded. Each mode must print what it prints
# natively and replay with --verify. The recorder follows most of these
# changes without reading /proc/PID/maps; REWIND_CHECK_MAPS=1 makes it
# compare its model with the kernel's after every such update (a
# difference fails the recording), and its summary says how many updates
# it followed. What a recording costs is measured in bench/RESULTS.md, not
# here; the checks below look at what the trace holds instead.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

B="$P/bigmaps"

# one NAME ARGS...: records bigmaps ARGS as NAME (REWIND_CHECK_MAPS as
# set by the caller), compares with the native output and verifies.
one() {
  local name=$1 native
  shift
  native=$("$B" "$@"; echo "status $?")
  rec "$name" "$B" "$@"
  check_eq "$name: same output as natively" "$native" \
    "$(cat "$T/$name.out"; echo "status $status")"
  grep -q "REWIND_CHECK_MAPS: after" "$T/$name.err" && head -n 5 "$T/$name.err"
  timeout 300 "$REWIND" replay --verify --no-progress "$T/$name.rwd" \
    >"$T/$name.replay" 2>&1
  check_eq "$name: replay --verify exits 0" 0 "$?"
  shows "$name" '^replay verified: '
}

# followed NAME: the number of updates REWIND_CHECK_MAPS says it checked.
followed() {
  sed -n 's/.*REWIND_CHECK_MAPS: \([0-9]*\) address-space updates.*/\1/p' \
    "$T/$1.err"
}

export REWIND_CHECK_MAPS=1
# 1200 pages, 600 mprotects in three orders (the model's splits land at
# its end, its start, anywhere), then unmaps, MAP_FIXED, discards and an
# mprotect over holes, each checked against the kernel.
for o in asc desc rand; do
  one "fracture-$o" fracture 1200 "$o"
  n=$(followed "fracture-$o")
  check "fracture-$o: at least 600 updates followed and checked ($n)" \
    test "${n:-0}" -ge 600
done
one hugefile hugefile
one hole hole
one memfd2g memfd2g
# The child's changes are found by reading the maps; the program's own
# after it are checked against the kernel.
one vmchild vmchild
check "vmchild: updates followed after the child ($(followed vmchild))" \
  test "$(followed vmchild)" -ge 2
# File mappings made known by the kernel's PROCMAP_QUERY, and the heap
# followed from brk's results, without reading the maps.
one files files
one brk brk
check "brk: its updates followed ($(followed brk))" \
  test "$(followed brk)" -ge 40
kmaj=$(uname -r | cut -d. -f1) kmin=$(uname -r | cut -d. -f2)
if [ "$kmaj" -gt 6 ] || { [ "$kmaj" -eq 6 ] && [ "$kmin" -ge 11 ]; }; then
  check "files: its mmaps followed on Linux 6.11+ ($(followed files))" \
    test "$(followed files)" -ge 6
fi
unset REWIND_CHECK_MAPS

# 20,000 mappings, without the check (it reads the maps every time).
one fracture-20000 fracture 20000 rand

# A sparse memfd has no blob (its holes would be read, hashed and stored)
# and only its data is imported: a few pages, not a terabyte or 2 GiB.
check "hugefile: four 1 TiB mappings of the memfd, no blob" q hugefile '
m = [r for r in of("MAP") if r["path"].startswith("/memfd:bigmaps-huge")]
assert len(m) == 4, m
assert all(int(r["len"], 16) >> 40 == 1 for r in m), m
assert all(set(r["blob"]) == {"0"} for r in m), m'
check "hugefile: under 1 MiB of memory imported in all" q hugefile '
assert sum(r["data_len"] for r in of("MEM")) < 1 << 20'
# Its size is in RESIZE records: the page past the end raises SIGBUS in
# the replay too (the output says which signal each read raised).
check "hugefile: RESIZE gives the size" q hugefile '
assert all(int(r["size"], 16) == 1 << 40 for r in of("RESIZE")), of("RESIZE")
assert of("RESIZE")'
check "hugefile: SIGBUS past the end" q hugefile '
assert [r for r in of("SIGNAL") if r["signo"] == 7]'
check "memfd2g: the memfd has no blob" q memfd2g '
m = [r for r in of("MAP") if r["path"].startswith("/memfd:bigmaps-2g")]
assert len(m) == 1 and set(m[0]["blob"]) == {"0"}, m'
check "hole: the reservation is one MAP of 100 GiB" q hole '
assert any(int(r["len"], 16) == 100 << 30 for r in of("MAP"))'
finish
