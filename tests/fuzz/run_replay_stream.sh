#!/bin/bash
# SPDX-License-Identifier: MIT
# Fuzzes tests/fuzz/replay_stream.c against a fresh recording of
# tests/programs/exitstatus (in $RW_FUZZ_TRACE); see run_target.sh.
build=$(cd "${top_builddir:-.}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-fuzz-base.XXXXXX")
trap 'rm -rf "$work"' EXIT
"${REWIND:-$build/cli/rewind}" record -q -f -o "$work/base.rwd" -- \
  "$build/tests/programs/exitstatus" 3 >/dev/null 2>&1
if [ $? -ne 3 ]; then
  echo "FAIL: recording the base trace"
  exit 1
fi
# An input may map terabytes (cheap now, but pages it writes cost) and run
# long: 60 s each, under the sanitizers.
RW_FUZZ_TRACE=$work/base.rwd bash "${top_srcdir:-.}/tests/fuzz/run_target.sh" \
  replay_stream 4096 60
