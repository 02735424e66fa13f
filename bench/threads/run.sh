#!/bin/bash
# SPDX-License-Identifier: MIT
# Threads benchmark driver: runs the workloads of bench/threads/ natively and
# under `rewind record` in the same session, alternating, and prints Markdown
# tables of medians for bench/RESULTS.md:
#  (a, b) a 4-thread mutex workload and a 2-thread spin lock: native against
#         recording, with the trace's PREEMPT records and thread switches;
#  (c)    preemption points: threads that never make a syscall, recorded
#         with --timeslice 10000 (no preemption), the default 20 ms and
#         1 ms, with 1 MB and 64 MB of heap; the cost of a point is the
#         extra recording time over the extra points, and the digest's share
#         is the difference between the two heap sizes;
#  (d)    trace bytes per thread switch: two pipe ping-pong runs of
#         different lengths (switches at syscalls), and the preempted
#         compute workload at 1 ms against 10000 ms (switches by PREEMPT).
# A thread switch is a record whose thread differs from the previous
# record's, in sequence order. Times are wall-clock medians of RUNS runs.
# Usage: bench/threads/run.sh BUILDDIR [RUNS]
set -u
B=${1:-.}
RUNS=${2:-5}
R="$B/cli/rewind"
D="$B/bench/threads"
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench-thr.XXXXXX")
trap 'rm -rf "$W"' EXIT

# secs CMD...: wall time of one run, in seconds; output discarded.
secs() {
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1 || echo "bench/threads: failed: $*" >&2
  e=$(date +%s%N)
  echo "scale=4; ($e - $s) / 1000000000" | bc
}

# median FILE: the median of the numbers in FILE, one per line.
median() {
  sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# stats TRACE: "PREEMPTS SWITCHES FILE_BYTES RAW_BYTES" of a trace.
stats() {
  "$R" dump --json "$1" 2>/dev/null | python3 -c '
import json, sys
pre = sw = 0
last = None
for line in sys.stdin:
    r = json.loads(line)
    if r["type"] == "PREEMPT":
        pre += 1
    if last is not None and r["tid"] != last:
        sw += 1
    last = r["tid"]
print(pre, sw, end=" ")'
  local raw
  raw=$("$R" info "$1" | awk '$1 == "data:" {
    m = $3 == "GiB" ? 1073741824 : $3 == "MiB" ? 1048576 : $3 == "KiB" ? 1024 : 1
    printf "%.0f", $2 * m }')
  echo "$(stat -c %s "$1") ${raw:-0}"
}

# pair NAME CMD...: RUNS alternating native and recorded runs of CMD; writes
# "native record" medians to $W/NAME.t and the last trace to $W/NAME.rwd.
pair() {
  local name=$1
  shift
  : >"$W/$name.n"
  : >"$W/$name.r"
  for _ in $(seq "$RUNS"); do
    secs "$@" >>"$W/$name.n"
    secs "$R" record -q -f -o "$W/$name.rwd" -- "$@" >>"$W/$name.r"
  done
  echo "$(median "$W/$name.n") $(median "$W/$name.r")" >"$W/$name.t"
}

# recorded NAME OPTS -- CMD...: RUNS recorded runs with record options
# OPTS; the median to $W/NAME.t, the last trace to $W/NAME.rwd.
recorded() {
  local name=$1 opts=()
  shift
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  : >"$W/$name.r"
  for _ in $(seq "$RUNS"); do
    secs "$R" record -q -f "${opts[@]}" -o "$W/$name.rwd" -- "$@" >>"$W/$name.r"
  done
  median "$W/$name.r" >"$W/$name.t"
}

echo "Machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), load $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each, medians"
echo
echo "### Recording lock workloads (native and recorded alternately)"
echo
echo "| workload | native | rewind record | ratio | PREEMPT | switches | trace |"
echo "|---|---|---|---|---|---|---|"
for w in "mutex-4thr|$D/mutex 4 200000" "spinlock-2thr|$D/spin 2 20000 2000" \
         "spinlock-4thr|$D/spin 4 10000 2000"; do
  name=${w%%|*}
  # shellcheck disable=SC2086
  pair "$name" ${w#*|}
  read -r n r <"$W/$name.t"
  read -r pre sw size _ < <(stats "$W/$name.rwd")
  printf '| %s | %.3f s | %.3f s | %.2fx | %d | %d | %.2f MB |\n' "$name" \
    "$n" "$r" "$(echo "$r / $n" | bc -l)" "$pre" "$sw" \
    "$(echo "$size / 1000000" | bc -l)"
done

echo
echo "### Preemption points (2 threads, 400 M steps, no syscalls)"
echo
echo "| heap | --timeslice | native | rewind record | PREEMPT | points/s of recording | trace |"
echo "|---|---|---|---|---|---|---|"
for mb in 1 64; do
  : >"$W/native$mb.n"
  for _ in $(seq "$RUNS"); do secs "$D/compute" 2 400 "$mb" >>"$W/native$mb.n"; done
  n=$(median "$W/native$mb.n")
  for ts in 10000 20 1; do
    recorded "c${mb}_$ts" --timeslice "$ts" -- "$D/compute" 2 400 "$mb"
    r=$(cat "$W/c${mb}_$ts.t")
    read -r pre sw size raw < <(stats "$W/c${mb}_$ts.rwd")
    echo "$r $pre $size $raw" >"$W/c${mb}_$ts.s"
    printf '| %d MB | %d ms | %.3f s | %.3f s | %d | %.0f | %.3f MB |\n' "$mb" \
      "$ts" "$n" "$r" "$pre" "$(echo "$pre / $r" | bc -l)" \
      "$(echo "$size / 1000000" | bc -l)"
  done
done
echo
# cost per point: (t(1 ms) - t(10000 ms)) / (points(1 ms) - points(10000 ms))
for mb in 1 64; do
  read -r t1 p1 _ <"$W/c${mb}_1.s"
  read -r t0 p0 _ <"$W/c${mb}_10000.s"
  if [ "$p1" -gt "$p0" ]; then
    c=$(echo "($t1 - $t0) * 1000000 / ($p1 - $p0)" | bc -l)
    echo "$c" >"$W/cost$mb"
    printf -- '- cost of a preemption point, %d MB heap: %.0f us (interrupt, registers, digest, switch; %d more points took %.3f s more)\n' \
      "$mb" "$c" $((p1 - p0)) "$(echo "$t1 - $t0" | bc -l)"
  fi
done
if [ -s "$W/cost1" ] && [ -s "$W/cost64" ]; then
  c1=$(cat "$W/cost1")
  c64=$(cat "$W/cost64")
  printf -- '- digest: %.0f us more per point for 63 MB more heap, %.2f GB/s; at 1 MB heap the whole point costs %.0f us\n' \
    "$(echo "$c64 - $c1" | bc -l)" "$(echo "63 * 1048576 / (($c64 - $c1) * 1000)" | bc -l 2>/dev/null || echo 0)" "$c1"
fi

echo
echo "### Trace size per thread switch"
echo
echo "| runs compared | extra switches | extra trace (file) | per switch (file) | per switch (raw) |"
echo "|---|---|---|---|---|"
for n in 5000 20000; do
  "$R" record -q -f -o "$W/pp$n.rwd" -- "$D/pingpong" "$n" >/dev/null 2>&1
  stats "$W/pp$n.rwd" >"$W/pp$n.s"
done
read -r _ s1 f1 r1 <"$W/pp5000.s"
read -r _ s2 f2 r2 <"$W/pp20000.s"
printf '| pipe ping-pong 20000 vs 5000 rounds (at syscalls) | %d | %d B | %.1f B | %.1f B |\n' \
  $((s2 - s1)) $((f2 - f1)) "$(echo "($f2 - $f1) / ($s2 - $s1)" | bc -l)" \
  "$(echo "($r2 - $r1) / ($s2 - $s1)" | bc -l)"
read -r _ p1 f1 r1 <"$W/c1_1.s"
read -r _ p0 f0 r0 <"$W/c1_10000.s"
sw1=$(stats "$W/c1_1.rwd" | cut -d' ' -f2)
sw0=$(stats "$W/c1_10000.rwd" | cut -d' ' -f2)
printf '| compute --timeslice 1 vs 10000 (PREEMPT) | %d | %d B | %.1f B | %.1f B |\n' \
  $((sw1 - sw0)) $((f1 - f0)) "$(echo "($f1 - $f0) / ($sw1 - $sw0)" | bc -l)" \
  "$(echo "($r1 - $r0) / ($sw1 - $sw0)" | bc -l)"
