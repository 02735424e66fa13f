#!/bin/bash
# SPDX-License-Identifier: MIT
# The translator (replayer/cpu/jit.c) end to end: recordings of programs
# that stress what it must get exactly right -- asynchronous signals found
# by a conditional breakpoint in a spin loop (counts, signals), threads
# preempted in loops (thr_signals), code written through one mapping and
# run through another (shmap jit), a long loop of one block (longloop),
# and real programs (python3, sort) -- are verified three ways: translated
# (the default), with every block translated the first time it runs
# (REWIND_JIT=always) and interpreted (--no-jit). All three must verify
# with the same instruction count, events and checks; the translated runs
# must say they translated something.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# summary NAME ENV [ARGS...]: `rewind replay --verify ARGS` of NAME with
# the environment setting ENV; prints its verified line without the
# timing.
summary() {
  local name=$1 envv=$2
  shift 2
  env "$envv" "$REWIND" replay --verify --no-progress "$@" "$T/$name.rwd" \
    >"$T/$name.replay" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || { echo "exit $rc"; head -n 30 "$T/$name.replay"; }
  sed -n 's/^\(replay verified: .*\), [0-9.]* s ([0-9.]* MIPS)\(.*\)/\1\2/p' \
    "$T/$name.replay"
}

three_ways() {
  local name=$1 jit always interp
  jit=$(summary "$name" REWIND_JIT=1)
  check "$name: translated: it translated" \
    grep -q '^translator: [1-9][0-9]* blocks' "$T/$name.replay"
  always=$(summary "$name" REWIND_JIT=always)
  interp=$(summary "$name" REWIND_JIT=1 --no-jit)
  check "$name: interpreted: it did not translate" \
    grep -q '^translator off (--no-jit)' "$T/$name.replay"
  check "$name: verified translated" grep -q '^replay verified' <<<"$jit"
  check_eq "$name: translated = interpreted" "$interp" "$jit"
  check_eq "$name: all translated = interpreted" "$interp" "$always"
}

rec counts "$P/counts"
three_ways counts
rec signals "$P/signals"
three_ways signals
rec longloop "$P/longloop" 3000000
three_ways longloop
rec shmap "$P/shmap" jit
check "shmap jit: recorded" grep -q "jit: call 4 returned 116" "$T/shmap.out"
three_ways shmap
if [ -x "$top_builddir/tests/replay/thr_signals" ]; then
  rec thr_signals "$top_builddir/tests/replay/thr_signals"
  three_ways thr_signals
fi
PY=$(command -v /usr/bin/python3 || command -v python3)
rec python "$PY" -c 'print(sum(i * i % 7 for i in range(200000)))'
three_ways python
seq 20000 | shuf --random-source=<(yes) >"$T/nums"
rec sort sort -n "$T/nums"
three_ways sort
finish
