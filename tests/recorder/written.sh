#!/bin/bash
# SPDX-License-Identifier: MIT
# The digest from the pages written since the last one (recorder/wp.c):
# wpages changes its memory in every way the page protection must see
# (scattered writes, the kernel's writes, discarded, moved and remapped
# pages, mprotect, a fork) while another thread computes, preempted every
# 2 ms. With REWIND_CHECK_DIGEST=1 the recorder also takes every such
# digest in full and says when the two differ; the replay verifies, and
# so does a recording made with REWIND_WRITTEN=off (every page read).
. "${top_srcdir:-.}/tests/recorder/lib.sh"
# Under the sanitizers (replays interpreted) half the rounds, each still
# preempted several times.
rounds=$(san_or 12 6)

native=$("$P/wpages" "$rounds")
check "native: ran" grep -q "^wpages: $rounds rounds" <<<"$native"

REWIND_CHECK_DIGEST=1 "$REWIND" record -f --no-progress --timeslice 2 \
  -o "$T/wp.rwd" -- "$P/wpages" "$rounds" >"$T/wp.out" 2>"$T/wp.err"
check_eq "written pages: exit 0" 0 "$?"
check_eq "written pages: output as natively" "$native" "$(cat "$T/wp.out")"
check "written pages: preempted" q wp '
assert len(of("PREEMPT")) >= 10, len(of("PREEMPT"))'
line=$(grep "REWIND_CHECK_DIGEST:" "$T/wp.err")
n=$(sed -n 's/.*: \([0-9]*\) digests from written pages.*/\1/p' <<<"$line")
kept=$(sed -n 's/.*: \([0-9]*\) pages kept.*/\1/p' <<<"$line")
check "written pages: digests took kept pages ($line)" \
  test "${n:-0}" -ge 10 -a "${kept:-0}" -gt 1000
check "written pages: never differed from the full digest" \
  bash -c "! grep -q 'unseen by its page protection' '$T/wp.err'"
verified wp

REWIND_WRITTEN=off REWIND_CHECK_DIGEST=1 "$REWIND" record -f --no-progress \
  --timeslice 2 -o "$T/full.rwd" -- "$P/wpages" "$rounds" >"$T/full.out" \
  2>"$T/full.err"
check_eq "every page: exit 0" 0 "$?"
check_eq "every page: output as natively" "$native" "$(cat "$T/full.out")"
check "every page: no digest from written pages" \
  grep -q "REWIND_CHECK_DIGEST: 0 digests" "$T/full.err"
verified full

finish
