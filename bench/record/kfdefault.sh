#!/bin/bash
# SPDX-License-Identifier: MIT
# What keyframes on by default cost a recording shorter than their
# interval (bench/RESULTS.md, "Keyframes on by default"): with an interval
# set, the recorder keeps the whole entry state (registers, XSAVE) of
# every syscall that blocks, so that a keyframe can hold a thread waiting
# in one. Workloads that block most: bench/threads/pingpong (two threads
# passing a byte through pipes, every read blocks) and bench/threads/mutex
# (futex waits). Each recorded with the default and with --keyframes 0,
# alternating, RUNS times; medians and their ratio.
# Usage: bench/record/kfdefault.sh BUILDDIR [RUNS]
set -u
B=${1:-.}
RUNS=${2:-5}
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

python3 - "$B" "$RUNS" "$W" <<'PY'
import statistics, subprocess, sys, time
b, runs, w = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rewind = f"{b}/cli/rewind"
loads = [("pingpong 20000", [f"{b}/bench/threads/pingpong", "20000"]),
         ("mutex 4 50000", [f"{b}/bench/threads/mutex", "4", "50000"])]

def record(cmd, extra):
    t0 = time.monotonic()
    r = subprocess.run([rewind, "record", "-q", "-f", "-o", f"{w}/t.rwd"] +
                       extra + ["--"] + cmd, capture_output=True)
    if r.returncode != 0:
        sys.exit("record failed: " + r.stderr.decode()[-300:])
    return time.monotonic() - t0

print("| workload | default (30 s) | --keyframes 0 | ratio |")
print("|---|---|---|---|")
for name, cmd in loads:
    on, off = [], []
    for _ in range(runs):
        on.append(record(cmd, []))
        off.append(record(cmd, ["--keyframes", "0"]))
    a, z = statistics.median(on), statistics.median(off)
    print(f"| {name} | {a:.3f} s | {z:.3f} s | {a / z:.3f}x |")
PY
