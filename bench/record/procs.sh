#!/bin/bash
# SPDX-License-Identifier: MIT
# Process trees (bench/RESULTS.md, "Process trees"): `make -j2` of a small
# C project (FILES source files, a link) natively, recorded with every
# process (the default), recorded with --no-follow (make alone, its
# children unrecorded), and each recording replayed with --verify; then
# one `cc -O2 -c` the same ways. Medians of RUNS runs, in the same session,
# as ratios to native; the processes and the size of each trace.
# Usage: bench/record/procs.sh BUILDDIR [RUNS [FILES]]
set -u
B=${1:-.}
RUNS=${2:-3}
FILES=${3:-6}
R="$B/cli/rewind"
. "$(dirname "$0")/../lib.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# The project: FILES units with some code each, and main.
mkdir -p "$W/src"
for i in $(seq "$FILES"); do
  cat >"$W/src/u$i.c" <<C
#include <stdio.h>
#include <string.h>
struct rec$i { int key; char name[32]; double v; };
static int cmp$i(const void *a, const void *b) {
  const struct rec$i *x = a, *y = b;
  return x->key - y->key ? x->key - y->key : strcmp(x->name, y->name);
}
int unit$i(int n) {
  struct rec$i r[64];
  for (int k = 0; k < 64; k++) {
    r[k].key = (k * 7919 + n) % 61;
    snprintf(r[k].name, sizeof r[k].name, "u$i-%d", k);
    r[k].v = k * 0.5;
  }
  int s = 0;
  for (int k = 0; k < 63; k++) s += cmp$i(&r[k], &r[k + 1]) > 0;
  return s;
}
C
done
{
  echo '#include <stdio.h>'
  for i in $(seq "$FILES"); do echo "int unit$i(int);"; done
  echo 'int main(void) { int s = 0;'
  for i in $(seq "$FILES"); do echo "  s += unit$i($i);"; done
  echo '  printf("%d\n", s); return 0; }'
} >"$W/src/main.c"
objs=""
for i in $(seq "$FILES"); do objs="$objs u$i.o"; done
printf 'p: main.o%s\n\tcc -o p main.o%s\n%%.o: %%.c\n\tcc -O2 -c $<\n' \
  "$objs" "$objs" >"$W/src/Makefile"

clean() { rm -f "$W"/src/*.o "$W/src/p"; }

# median_of CMD...: median wall seconds of RUNS runs from a clean tree.
median_of() {
  for _ in $(seq "$RUNS"); do
    clean
    secs "$@"
  done | median
}

# replay_of TRACE: median wall seconds of RUNS verified replays.
replay_of() {
  "$R" replay --verify --no-progress "$1" >/dev/null 2>&1 ||
    echo "replay of $1 failed" >&2
  for _ in $(seq "$RUNS"); do
    secs "$R" replay --verify --no-progress "$1"
  done | median
}

ratio() { echo "scale=1; $1 / $2" | bc; }
procs() { "$R" ps "$1" 2>/dev/null | tail -n +2 | grep -vc "not recorded)"; }
size() { du -k "$1" | awk '{printf "%.1f MiB", $1 / 1024}'; }

row() { # name, command...
  local name=$1
  shift
  local n r f pr pf
  cd "$W/src" || exit 1
  n=$(median_of "$@")
  r=$(median_of "$R" record -q -f -o "$W/$name.rwd" -- "$@")
  f=$(median_of "$R" record -q -f --no-follow -o "$W/$name-nof.rwd" -- "$@")
  clean
  "$R" record -q -f -o "$W/$name.rwd" -- "$@" >/dev/null 2>&1
  clean
  "$R" record -q -f --no-follow -o "$W/$name-nof.rwd" -- "$@" >/dev/null 2>&1
  pr=$(replay_of "$W/$name.rwd")
  pf=$(replay_of "$W/$name-nof.rwd")
  printf '| %s | %.3f s | %.3f s (%sx) | %.3f s (%sx) | %s, %s | %.2f s | %s, %s | %.2f s |\n' \
    "$name" "$n" "$r" "$(ratio "$r" "$n")" "$f" "$(ratio "$f" "$n")" \
    "$(procs "$W/$name.rwd")" "$(size "$W/$name.rwd")" "$pr" \
    "$(procs "$W/$name-nof.rwd")" "$(size "$W/$name-nof.rwd")" "$pf"
}

echo "| workload | native | recorded, all processes | recorded, --no-follow | processes, trace | replay --verify | processes, trace (--no-follow) | replay --verify (--no-follow) |"
echo "|---|---|---|---|---|---|---|---|"
row "make -j2" make -j2
row "cc -O2 -c" cc -O2 -c u1.c
