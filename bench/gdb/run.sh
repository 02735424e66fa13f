#!/bin/bash
# SPDX-License-Identifier: MIT
# GDB stub latency: records bench/gdb/longloop (55e6 iterations, about
# 1.16e9 instructions, marker() at iteration 2e6) and times gdb commands on
# the replay (bench/gdb/timing.py), then the same program under gdb's own
# `record full` from checkpoint(i=0) to marker() at RECORD_ITERS
# iterations (default 1e5: about 2.1e6 instructions; record full cannot go
# much further in reasonable time, see bench/RESULTS.md).
# Usage: run.sh BUILDDIR
set -eu
b=${1:-.}
src=$(cd "$(dirname "$0")/../.." && pwd)
gdb=${GDB:-gdb}
t=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bgdb.XXXXXX")
trap 'rm -rf "$t"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
"${REWIND_RECORD:-$b/cli/rewind}" record -q -f -o "$t/loop.rwd" -- "$b/bench/gdb/longloop" 55000000 2000000
BENCH_MODE=rewind timeout 900 "$b/cli/rewind" replay "$t/loop.rwd" -- -batch -nx \
  -ex "source $src/bench/gdb/timing.py" 2>&1 | grep '^BENCH'
cnt=${RECORD_ITERS:-100000}
BENCH_MODE=record timeout 1800 "$gdb" -batch -nx \
  -ex "source $src/bench/gdb/timing.py" --args "$b/bench/gdb/longloop" 2000000 "$cnt" 2>&1 | grep '^BENCH' || echo "record full: failed (see above)"
