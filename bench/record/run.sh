#!/bin/bash
# SPDX-License-Identifier: MIT
# Recorder benchmark driver: runs each workload natively and under
# `rewind record` in the same session, alternating, and prints a Markdown
# table of medians, ratios to native and trace sizes for bench/RESULTS.md.
# The syscall-heavy workload is also run under `strace -f -o /dev/null`,
# unpinned (as users run it) and pinned to one CPU (taskset -c 0).
# Usage: bench/record/run.sh BUILDDIR [RUNS]   (hyperfine is used if present)
set -u
B=${1:-.}
RUNS=${2:-5}
R="$B/cli/rewind"
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
PY=$(command -v python3)
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
# 50 MB of random lines for sort.
python3 -c '
import random
r = random.Random(1)
with open("'"$W"'/sort.txt", "w") as f:
    n = 0
    while n < 50 << 20:
        s = "%d %s\n" % (r.randrange(10**9), "".join(r.choice("abcdefghij") for _ in range(r.randrange(5, 40))))
        f.write(s); n += len(s)'

# median_of CMD...: median wall time in seconds of RUNS runs.
median_of() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N -w 1 -r "$RUNS" --export-json "$W/h.json" "$*" >/dev/null 2>&1
    python3 -c 'import json; print("%.4f" % json.load(open("'"$W"'/h.json"))["results"][0]["median"])'
  else
    local t=()
    for _ in $(seq "$RUNS"); do
      local s e
      s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
      t+=("$(echo "$e - $s" | bc)")
    done
    printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
  fi
}

row() { # name, command...
  local name=$1
  shift
  local n r size
  n=$(median_of "$@")
  r=$(median_of "$R" record -q -f -o "$W/$name.rwd" -- "$@")
  size=$(stat -c %s "$W/$name.rwd")
  printf '| %s | %.3f s | %.3f s | %.2fx | %.1f MB |\n' "$name" "$n" "$r" \
    "$(echo "$r / $n" | bc -l)" "$(echo "$size / 1000000" | bc -l)"
  echo "$n $r" >"$W/$name.times"
}

echo "| workload | native | rewind record | ratio | trace |"
echo "|---|---|---|---|---|"
row compute "$B/bench/record/compute"
row libc "$B/bench/record/libc"
row syscalls "$B/bench/record/syscalls"
row python-c-pass "$PY" -c pass
row sort-50MB sort --parallel=1 -o "$W/sorted.txt" "$W/sort.txt"
if command -v strace >/dev/null; then
  s1=$(median_of strace -f -o /dev/null "$B/bench/record/syscalls")
  s2=$(median_of taskset -c 0 strace -f -o /dev/null "$B/bench/record/syscalls")
  read -r n r <"$W/syscalls.times"
  echo
  printf 'syscalls: native %.3f s, rewind %.3f s, strace -f %.3f s (%.2fx native), strace -f pinned %.3f s (%.2fx native)\n' \
    "$n" "$r" "$s1" "$(echo "$s1 / $n" | bc -l)" "$s2" "$(echo "$s2 / $n" | bc -l)"
fi
