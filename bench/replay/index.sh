#!/bin/bash
# SPDX-License-Identifier: MIT
# Instant start (bench/RESULTS.md, "Instant start"): opening a long trace
# at a position, with and without its index (rewind index). The trace is
# bench/replay/longloop ITER (about 5 instructions per iteration; ITER
# 2e9 gives 1e10 instructions). Reported: the replay of the whole trace
# (the baseline), the time rewind index takes and the index's size, then
# the time `rewind replay --print -g POS` takes at several positions with
# the index, and without it at the middle, each the median of RUNS runs,
# and as a fraction of the baseline; and a rewind trim of a window near
# the end, with and without the index.
# Usage: bench/replay/index.sh BUILDDIR [ITER [RUNS]]
set -u
B=${1:-.}
ITER=${2:-2000000000}
RUNS=${3:-3}
R="$B/cli/rewind"
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

"$R" record -f -o "$W/long.rwd" -- "$B/bench/replay/longloop" "$ITER" \
  >/dev/null 2>"$W/rec.err" || { cat "$W/rec.err"; exit 1; }
cp "$W/long.rwd" "$W/plain.rwd"
python3 - "$R" "$W" "$RUNS" <<'PY'
import re, statistics, subprocess, sys, time, os
rewind, w, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def timed(args):
    t0 = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True)
    t = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(args), p.stdout, p.stderr))
    return t, p

t_full, p = timed([rewind, "replay", "--verify", "--no-progress",
                   w + "/plain.rwd"])
n = int(re.search(r"verified: (\d+) instructions", p.stdout).group(1))
t_ix, p = timed([rewind, "index", "--no-progress", w + "/long.rwd"])
size = os.path.getsize(w + "/long.rwd.idx")
trace = os.path.getsize(w + "/long.rwd")
k = int(re.search(r": (\d+) keyframes", p.stderr).group(1))
print("trace: %d instructions (%.1f MB); its replay --verify: %.2f s" %
      (n, trace / 1e6, t_full))
print("rewind index: %.2f s (%.2fx the replay), %d keyframes, %.1f MB" %
      (t_ix, t_ix / t_full, k, size / 1e6))
print()
print("| position | with the index | without | fraction of the whole replay |")
print("|---|---|---|---|")
for frac in (0.1, 0.5, 0.9, 0.999):
    g = int(n * frac)
    with_ix = statistics.median(
        timed([rewind, "replay", "--print", "-g", str(g), w + "/long.rwd"])[0]
        for _ in range(runs))
    without = ""
    if frac == 0.5:
        t = statistics.median(
            timed([rewind, "replay", "--print", "-g", str(g),
                   w + "/plain.rwd"])[0] for _ in range(runs))
        without = "%.2f s" % t
    print("| %d (%.1f%%) | %.3f s | %s | %.4f |" %
          (g, frac * 100, with_ix, without, with_ix / t_full))
# rewind trim of a window of 1e8 instructions at 90%: it seeks to the
# window's start (through the index), writes the state, copies the window
# and replays what it wrote.
g = int(n * 0.9)
for name, src in (("with the index", "long.rwd"), ("without", "plain.rwd")):
    t, p = timed([rewind, "trim", "--no-progress", "-f", "--from", str(g),
                  "--to", str(g + 100000000), "-o", w + "/win.rwd",
                  w + "/" + src])
    print()
    print("rewind trim --from %d --to %d, %s: %.2f s (%.3f of the whole "
          "replay), %.1f MB" % (g, g + 100000000, name, t, t / t_full,
                                os.path.getsize(w + "/win.rwd") / 1e6))
PY
