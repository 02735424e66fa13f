#!/bin/bash
# SPDX-License-Identifier: MIT
# Recorder keyframes (bench/RESULTS.md, "Recorder keyframes"): what
# `rewind record --keyframes S` costs while recording, against the same
# recording without keyframes in the same run, and how much faster
# `rewind replay --verify -j 2` checks such a trace than `--verify`.
# Workload: bench/threads/compute, two threads sharing WORK million steps
# of arithmetic on a heap of MB megabytes written first with bytes that do
# not compress ("random"); MB:HOT writes only into the first HOT of them
# (a large state that seldom changes). Medians of RUNS runs. VERIFY=0
# leaves the verification out.
# Usage: bench/record/keyframes.sh BUILDDIR [RUNS [WORK [MB[:HOT]...]]]
set -u
B=${1:-.}
RUNS=${2:-3}
WORK=${3:-3000}
shift 3 2>/dev/null
SIZES=${*:-4 64 64:1}
R="$B/cli/rewind"
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

VERIFY=${VERIFY:-1} python3 - "$R" "$B/bench/threads/compute" "$WORK" "$RUNS" \
  "$W" $SIZES <<'PY'
import os, re, statistics, subprocess, sys, time
rewind, prog, work, runs, w = sys.argv[1:6]
runs = int(runs)
sizes = sys.argv[6:]

def record(mb, kf):
    trace = f"{w}/k.rwd"
    cmd = [rewind, "record", "-f", "-o", trace]
    cmd += ["--keyframes", kf or "0"]  # none: not the default's
    mb, _, hot = mb.partition(":")
    cmd += ["--", prog, "2", work, mb, "random"] + ([hot] if hot else [])
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    t = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit("record failed: " + r.stderr[-300:])
    m = re.search(r"(\d+) keyframes \(([\d.]+) MiB, ([\d.]+) s\)", r.stderr)
    n, mib, secs = (int(m.group(1)), float(m.group(2)), float(m.group(3))) \
        if m else (0, 0.0, 0.0)
    return t, os.path.getsize(trace), n, mib, secs, trace

def verify(trace, jobs):
    cmd = [rewind, "replay", "--verify", "--no-progress", trace]
    if jobs:
        cmd[3:3] = ["-j", str(jobs)]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    t = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit("verify failed: " + (r.stdout + r.stderr)[-400:])
    return t, r.stdout

med = statistics.median
print(f"workload: compute 2 {work} MB random, {runs} runs, medians\n")
print("| heap | --keyframes | record | vs none | keyframes | their time | "
      "trace | of it keyframes |")
print("|---|---|---|---|---|---|---|---|")
for mb in sizes:
    base = None
    for kf in ["", "1", "0.25"]:
        res = [record(mb, kf) for _ in range(runs)]
        t = med(r[0] for r in res)
        if base is None:
            base = t
        size = med(r[1] for r in res) / 2**20
        n = med(r[2] for r in res)
        mib = med(r[3] for r in res)
        secs = med(r[4] for r in res)
        heap = mb.replace(":", " MB, writes in ")
        print(f"| {heap} MB | {kf or 'none'} | {t:.2f} s | {t / base:.2f}x | "
              f"{n:g} | {secs:.2f} s | {size:.1f} MiB | {mib:.1f} MiB |",
              flush=True)
    trace = res[-1][5]
    if os.environ["VERIFY"] == "0":
        print()
        continue
    seq = [verify(trace, 0) for _ in range(runs)]
    par = [verify(trace, 2) for _ in range(runs)]
    ts, tp = med(x[0] for x in seq), med(x[0] for x in par)
    m = re.search(r"in (\d+) segments", par[0][1])
    print(f"\n{heap} MB, --keyframes 0.25 ({m.group(1) if m else '?'} pieces): "
          f"`replay --verify` {ts:.2f} s, `--verify -j 2` {tp:.2f} s: "
          f"{ts / tp:.2f}x faster\n", flush=True)
PY
