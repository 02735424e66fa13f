#!/bin/bash
# SPDX-License-Identifier: MIT
# A short corrupted-trace campaign (tests/format/campaign.py): damaged
# copies of two real recordings, a single-threaded one with file blobs (ls)
# and a multi-threaded one (thr_pool), must never crash or hang `rewind
# info --check` or `rewind replay --verify`, and never pass either when the
# damage is in their structure. The long campaign of issue 21 is the same
# script with a larger count: see bench/RESULTS.md.
. "${top_srcdir:-.}/tests/recorder/lib.sh"
CAMPAIGN="$top_srcdir/tests/format/campaign.py"
EDIT="$top_builddir/tests/format/rw_edit"
cd "$T" || exit 1

rec ls ls -la /usr/lib
check_eq "ls: recorded" 0 "$status"
rec pool "$P/thr_pool"
check_eq "thr_pool: recorded" 0 "$status"
for t in ls pool; do
  python3 "$CAMPAIGN" "$REWIND" "$EDIT" "$T/$t.rwd" 36 >"$T/$t.campaign" 2>&1
  rc=$?
  cat "$T/$t.campaign"
  check_eq "$t: the campaign finds nothing wrong" 0 "$rc"
  check "$t: every kind of damage was tried" \
    grep -q "blob 6, drop 6, dup 6, meta 6, raw 6, record 6" "$T/$t.campaign"
done
finish
