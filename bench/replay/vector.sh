#!/bin/bash
# SPDX-License-Identifier: MIT
# Vector code (bench/RESULTS.md, "Vector code"): each workload natively,
# under qemu-x86_64 (when installed) and replayed by `rewind replay
# --verify`, in one loop; the median of RUNS runs (default 3). Workloads:
#   vecmath v4   bench/replay/vecmath built -O3 -march=x86-64-v4 with
#                512-bit vectors (AVX-512F/VL/BW/DQ; only on a CPU with
#                AVX-512; QEMU has no AVX-512, so no qemu time)
#   vecmath v3   the same source built -march=x86-64-v3 (AVX2, FMA)
#   vecmath v2   the same source built -march=x86-64-v2 (SSE4.2): same work
#   libc evex    bench/record/libc: glibc's string functions as glibc picks
#                them (its EVEX ones on a CPU with AVX-512), qsort
#   libc         the same with glibc kept on its AVX2 functions
#                (GLIBC_TUNABLES), which QEMU can run
#   libc sse     the same with glibc kept on its SSE2 functions: the same
#                work, for the AVX2 functions' time per instruction
# Prints markdown: times, instructions, MIPS and the ratios; for vecmath,
# replay time per instruction and per round of work, v3 and v4 against v2.
#   bench/replay/vector.sh BUILD_DIR
set -euo pipefail
B=${1:?usage: vector.sh BUILD_DIR}
R=$B/cli/rewind
RUNS=${RUNS:-3}
ROUNDS=${ROUNDS:-40}
T=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
Q=$(command -v qemu-x86_64 || true)

. "$(dirname "$0")/../lib.sh"

machine
echo "qemu: ${Q:-not installed}"
echo
echo "| workload | native (s) | qemu (s) | replay (s) | instructions | replay MIPS | replay / native | replay / qemu |"
echo "|---|---|---|---|---|---|---|---|"
AVX2ONLY=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW
SSEONLY=$AVX2ONLY,-AVX2,-AVX,-BMI2,-AVX_Fast_Unaligned_Load
ws="v3 v2 libc libc-sse"
grep -qw avx512f /proc/cpuinfo && ws="v4 v3 v2 libc-evex libc libc-sse"
for w in $ws; do
  # The environment goes before everything (native, qemu, the recorder),
  # so that qemu-x86_64 gets the program's path, not env's name.
  pre=(env)
  case $w in
    libc) cmd=("$B/bench/record/libc") pre=(env "GLIBC_TUNABLES=$AVX2ONLY") ;;
    libc-sse) cmd=("$B/bench/record/libc") pre=(env "GLIBC_TUNABLES=$SSEONLY") ;;
    libc-evex) cmd=("$B/bench/record/libc") ;;
    *) cmd=("$B/bench/replay/vecmath_$w" "$ROUNDS") ;;
  esac
  case $w in v4 | libc-evex) q="" ;; *) q=$Q ;; esac
  "${pre[@]}" "$R" record -q -f -o "$T/$w.rwd" -- "${cmd[@]}" >/dev/null 2>&1
  n=$("$R" replay --verify --no-progress "$T/$w.rwd" |
    sed -n 's/^replay verified: \([0-9]*\) instructions.*/\1/p')
  [ -n "$n" ] || { echo "replay of $w did not verify" >&2; exit 1; }
  nat=() qem=() rep=()
  for i in $(seq "$RUNS"); do
    nat+=("$(secs "${pre[@]}" "${cmd[@]}")")
    [ -n "$q" ] && qem+=("$(secs "${pre[@]}" "$q" "${cmd[@]}")")
    rep+=("$(secs "$R" replay --verify --no-progress "$T/$w.rwd")")
  done
  nat=$(printf '%s\n' "${nat[@]}" | median)
  rep=$(printf '%s\n' "${rep[@]}" | median)
  qem=$([ -n "$q" ] && printf '%s\n' "${qem[@]}" | median || echo 0)
  echo "$w $n $rep" >>"$T/per"
  name=$w
  case $w in libc*) ;; *) name="vecmath $w, $ROUNDS rounds" ;; esac
  awk -v w="$name" -v nat="$nat" -v q="$qem" -v rep="$rep" -v n="$n" 'BEGIN {
    qs = "-"; qr = "-"
    if (q > 0) { qs = sprintf("%.3f", q); qr = sprintf("%.1fx", rep / q) }
    printf "| %s | %.3f | %s | %.3f | %s | %.1f | %.0fx | %s |\n", w, nat,
      qs, rep, n, n / rep / 1e6, rep / nat, qr }'
done
echo
awk '$1 == "v4" {n4 = $2; t4 = $3} $1 == "v3" {n3 = $2; t3 = $3}
  $1 == "v2" {n2 = $2; t2 = $3} $1 == "libc" {nl = $2; tl = $3}
  $1 == "libc-sse" {ns = $2; ts = $3} END {
  f = "vecmath, %s against SSE4.2 on the same work: %.2fx the replay " \
    "time, %.2fx the instructions, %.2fx the time per instruction\n"
  if (n4) printf f, "AVX-512", t4 / t2, n4 / n2, (t4 / n4) / (t2 / n2)
  printf f, "AVX2+FMA", t3 / t2, n3 / n2, (t3 / n3) / (t2 / n2)
  printf "libc, AVX2 functions against SSE2 ones on the same work: %.2fx " \
    "the replay time, %.2fx the instructions, %.2fx the time per " \
    "instruction\n", tl / ts, nl / ns, (tl / nl) / (ts / ns) }' "$T/per"
