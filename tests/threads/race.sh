#!/bin/bash
# SPDX-License-Identifier: MIT
# The data race on a plain counter (tests/programs/thr_race.c). Natively,
# up to 20 runs until two print different final values (a SKIP note, not a
# failure, when all agree: one CPU, or a lucky machine). Then one recording,
# replayed with --verify, and three separate gdb replays that all print the
# same `counter` at report() as the recorded run printed. gdb watchpoints
# hit in any thread: `watch counter` from the start stops in a worker at
# its first increment (0 to 1), and at report() `watch counter` with
# reverse-continue stops in the worker that wrote it last, before it
# exited.
. "${top_srcdir:-.}/tests/threads/lib.sh"

# Native runs differ.
seen=()
for i in $(seq 20); do
  v=$(timeout 20 "$P/thr_race" | sed -n 's/^counter = \([0-9]*\) .*/\1/p')
  [ -n "$v" ] || { bad "native run $i printed no counter"; break; }
  seen+=("$v")
  [ "$(printf '%s\n' "${seen[@]}" | sort -u | wc -l)" -ge 2 ] && break
done
n=$(printf '%s\n' "${seen[@]}" | sort -u | wc -l)
if [ "$n" -ge 2 ]; then
  ok
  echo "native runs: ${seen[*]} (differ after ${#seen[@]} runs)"
else
  echo "SKIP: native: all ${#seen[@]} runs printed ${seen[0]:-nothing} ($(nproc) CPUs); the race did not show"
fi

# One recording; its replays agree with it and with each other.
rec_ok race 'counter = [0-9]+ \(of 2000000 increments\)' \
  "$P/thr_race"
recorded=$(sed -n 's/^counter = \([0-9]*\) .*/\1/p' "$T/race.rec.out")
echo "recorded run: counter = ${recorded:-?}"
verify race
vals=()
for k in 1 2 3; do
  session "replay$k" race <<'G'
break report
continue
printf "@@ counter %ld\n", counter
printf "@@ value %ld\n", value
G
  vals+=("$(value counter)")
  check_eq "replay $k: report()'s argument is counter" "$(value counter)" "$(value value)"
done
echo "replays: counter = ${vals[*]}"
check_eq "3 replays and the recorded run agree on the final counter" \
  "${recorded:-?} ${recorded:-?} ${recorded:-?}" "${vals[*]}"

session watch race <<'G'
watch counter
continue
printf "@@ first %d\n", $_thread
bt
delete
break report
continue
echo @@ report\n
info threads
watch counter
reverse-continue
printf "@@ last %d\n", $_thread
bt
echo @@ last\n
info threads
G
expect "watch counter from the start: a worker's first increment" \
  '^Hardware watchpoint 1: counter' '^\[Switching to Thread [0-9]+\.[0-9]+\]' \
  '^Thread [0-9]+ "thr_race" hit Hardware watchpoint 1: counter' \
  '^Old value = 0' '^New value = 1' '^@@ first' '^#[0-9]+ .*worker \(arg=.*\) at .*thr_race\.c:'
threads_at "at report() only main is left" report 1 \
  '^\* +1 +Thread [0-9.]+ "thr_race" +.*report \(value='
expect "reverse-continue finds the last write, in a worker that has exited since" \
  '^Hardware watchpoint 3: counter' '^\[Switching to Thread [0-9]+\.[0-9]+\]' \
  "^Thread [0-9]+ \"thr_race\" hit Hardware watchpoint 3: counter" \
  "^Old value = ${recorded:-?}\$" '^New value = ' '^@@ last' \
  '^#[0-9]+ .*worker \(arg=.*\) at .*thr_race\.c:'
threads_at "there, the writer is listed and selected, in worker" last - \
  '^\* +([2-9]|[1-9][0-9]+) +Thread [0-9.]+ "thr_race" +.*worker \(arg='
for l in first last; do
  v=$(value $l)
  check "the watchpoint ($l write) stopped in a worker (thread ${v:-?})" \
    test "${v:-0}" -gt 1
done
finish
