#!/bin/bash
# SPDX-License-Identifier: MIT
# The translator's speed (bench/RESULTS.md, "The translator"): each
# workload runs natively and under qemu-x86_64 (when installed), is
# recorded once, then replayed with `rewind replay --verify` interpreted
# (--no-jit) and translated, all interleaved, RUNS times each (default 3);
# prints the medians, the instruction count, the translated replay's MIPS
# and the ratios. Workloads: compute (integer), fib (calls), libc (string
# functions), fpmath (scalar double arithmetic and libm), v3 (AVX2+FMA
# floating point), python (a pure-Python loop), sqlite (sqlite3 on 100k
# rows in memory: insert, group by, index, a range count).
#   bench/replay/jit.sh BUILD [WORKLOAD...]      (or: make bench-jit)
set -euo pipefail
B=${1:?usage: jit.sh BUILD [WORKLOAD...]}
shift
RUNS=${RUNS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || set -- compute fib libc fpmath v3 python sqlite
QEMU=$(command -v qemu-x86_64 || true)
machine
echo "rewind: $B ($(git -C "$B" rev-parse --short HEAD 2>/dev/null || echo ?))"
echo "qemu: ${QEMU:-not installed}"
echo
echo "| workload | instructions | native (s) | qemu (s) | interpreted (s) | translated (s) | translated MIPS | speed-up | translated / qemu | translated / native |"
echo "|---|---|---|---|---|---|---|---|---|---|"
cat >"$T/loop.py" <<'EOF'
def f(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s
print(f(3000000))
EOF
SQL="create table t(a, b);
with recursive c(x) as (select 1 union all select x + 1 from c where x < 100000)
insert into t select x, x * 7 % 1000 from c;
select b, count(*), sum(a) from t group by b order by 2 desc, 1 limit 3;
create index i on t(b);
select count(*) from t where b between 100 and 400;"
for w in "$@"; do
  case $w in
    v3) cmd=("$B/bench/replay/vecmath_v3" 40) ;;
    fib) cmd=("$B/bench/replay/fib") ;;
    fpmath) cmd=("$B/bench/replay/fpmath") ;;
    sqlite) cmd=("$(command -v sqlite3)" :memory: "$SQL") ;;
    python) cmd=("$(command -v /usr/bin/python3 || command -v python3)" "$T/loop.py") ;;
    *) cmd=("$B/bench/record/$w") ;;
  esac
  "$B/cli/rewind" record -q -f -o "$T/$w.rwd" -- "${cmd[@]}" >/dev/null
  : >"$T/native" >"$T/qemu" >"$T/interp" >"$T/jit"
  for i in $(seq "$RUNS"); do
    secs "${cmd[@]}" >>"$T/native"
    [ -n "$QEMU" ] && secs "$QEMU" "$(command -v "${cmd[0]}")" "${cmd[@]:1}" >>"$T/qemu"
    secs "$B/cli/rewind" replay --verify --no-progress -q --no-jit \
      "$T/$w.rwd" >>"$T/interp"
    secs "$B/cli/rewind" replay --verify --no-progress -q "$T/$w.rwd" \
      >>"$T/jit"
  done
  n=$("$B/cli/rewind" replay --verify --no-progress "$T/$w.rwd" 2>&1 |
    sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
  q=$( [ -n "$QEMU" ] && median <"$T/qemu" || echo 0)
  awk -v w="$w" -v n="${n:-0}" -v nat="$(median <"$T/native")" -v q="$q" \
      -v i="$(median <"$T/interp")" -v j="$(median <"$T/jit")" 'BEGIN {
    qs = "-"; qr = "-"
    if (q > 0) { qs = sprintf("%.2f", q); qr = sprintf("%.2fx", j / q) }
    printf "| %s | %s | %.2f | %s | %.2f | %.2f | %.0f | %.2fx | %s | %.1fx |\n",
      w, n, nat, qs, i, j, n / j / 1e6, i / j, qr, j / nat }'
done
