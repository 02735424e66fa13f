#!/bin/bash
# SPDX-License-Identifier: MIT
# Attaching (bench/RESULTS.md, "Attaching to a running process"): what
# `rewind record -p` costs on a running process with a heap of MB
# megabytes (bench/threads/compute, two threads computing, the heap
# written first with bytes that do not compress, "random"): the time from starting rewind until it says it attached
# (seizing the threads and writing the whole state: the attach's keyframe),
# the time from the end of --duration until rewind has let the process go
# and closed the trace (the detach), the trace's size, and the time the
# replay of the window takes to verify. Medians of RUNS runs.
# Usage: bench/record/attach.sh BUILDDIR [RUNS [MB...]]
set -u
B=${1:-.}
RUNS=${2:-3}
shift 2 2>/dev/null
SIZES=${*:-64 256 1024}
R="$B/cli/rewind"
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

echo "| heap | attach (state written) | detach and close | trace | replay --verify of 1 s |"
echo "|---|---|---|---|---|"
for mb in $SIZES; do
  python3 - "$R" "$B/bench/threads/compute" "$mb" "$RUNS" "$W" <<'PY'
import os, statistics, subprocess, sys, time
rewind, prog, mb, runs, w = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
att, det, size, rep = [], [], [], []
for k in range(runs):
    p = subprocess.Popen([prog, "2", "100000000", str(mb), "random"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    # Until the heap is written.
    if "heap ready" not in p.stderr.readline():
        sys.exit("compute did not start")
    trace = f"{w}/a.rwd"
    t0 = time.monotonic()
    r = subprocess.Popen([rewind, "record", "-f", "-p", str(p.pid), "--duration", "1",
                          "-o", trace], stderr=subprocess.PIPE, text=True)
    t_att = t_end = None
    for line in r.stderr:
        now = time.monotonic()
        if "attached to process" in line:
            t_att = now
        if "--duration is over" in line:
            t_end = now
    r.wait()
    t_done = time.monotonic()
    p.kill()
    p.wait()
    if r.returncode != 0 or t_att is None:
        sys.exit(f"rewind record -p failed ({r.returncode})")
    att.append(t_att - t0)
    # The duration runs from the attach; what comes after its second.
    det.append(t_done - t_att - 1.0)
    size.append(os.path.getsize(trace))
    t1 = time.monotonic()
    v = subprocess.run([rewind, "replay", "--verify", "--no-progress", trace],
                       capture_output=True, text=True)
    if v.returncode != 0:
        sys.exit("replay --verify failed: " + v.stderr[:300])
    rep.append(time.monotonic() - t1)
med = statistics.median
print(f"| {mb} MB | {med(att):.3f} s | {med(det):.3f} s | "
      f"{med(size) / 1048576:.1f} MiB | {med(rep):.2f} s |")
PY
done
