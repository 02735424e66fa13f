#!/bin/bash
# SPDX-License-Identifier: MIT
# Sampled edge profiles (rewind analyze edges --sample): a loop built to
# fool a fixed sampling period (tests/programs/phase.c: two taken branches
# an iteration, a rare edge every 8 iterations) shows a visible bias when
# the period is a multiple of its 16 taken branches and none with a random
# offset; every sample's rebuilt branch sequence equals the emulator's,
# also across threads, a longjmp and a signal handler (tests/programs/
# calls.c); bad options are refused. rewind analyze branches shows the
# ring at a position.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

rec phase "$P/phase"
check "phase: recorded" test "$status" = 0 -a -s "$T/phase.rwd"
check "  the rare edge is taken 1 in 8" grep -q '^rare 50000$' "$T/phase.out"

# sampled NAME TRACE ARGS...: analyze edges --json into $T/NAME.json.
sampled() {
  local name=$1 trace=$2
  shift 2
  "$REWIND" analyze edges --no-progress --json --top 0 "$@" "$T/$trace.rwd" \
    >"$T/$name.json" 2>"$T/$name.err"
}

# summary NAME PYTHON: runs PYTHON with s (the sampling summary) and e (the
# sampled edges) of $T/NAME.json.
summary() {
  python3 -c '
import json, sys
s, e = None, []
for l in open(sys.argv[1]):
    o = json.loads(l)
    if "sampling" in o: s = o["sampling"]
    if "sampled_edge" in o: e.append(o["sampled_edge"])
assert s is not None, "no sampling summary"
exec(sys.argv[2])' "$T/$1.json" "$2"
}

sampled fixed phase --sample 1600 --ring 8
check_eq "fixed period: exit 0" 0 "$?"
check "  every sample rebuilt as the emulator ran it" summary fixed '
assert s["samples"] > 400 and s["equal"] == s["samples"], s
assert s["differ"] == 0 and s["broken"] == 0, s'
check "  a visible bias on the rare edge" summary fixed '
assert s["max_relative_error"] > 0.5, s
rare = [x for x in e if x["taken"] and x["where"].startswith("main+")
        and x["exact"] == 50000]
assert len(rare) == 1, e[:4]
assert abs(rare[0]["sampled_share"] / rare[0]["exact_share"] - 1) > 0.5, rare
assert s["chi_square"] > 10 * s["degrees_of_freedom"], s'

sampled random phase --sample 1600 --random-delta 160 --ring 8
check_eq "random offset: exit 0" 0 "$?"
check "  no bias: every edge over 1% within 25% of its share" summary random '
assert s["random_delta"] == 160 and s["seed"] == 1, s
assert s["samples"] > 400 and s["equal"] == s["samples"], s
assert s["max_relative_error"] < 0.25, s'
sampled random2 phase --sample 1600 --random-delta 160 --ring 8
check "  the same seed, the same samples" cmp -s "$T/random.json" \
  "$T/random2.json"
sampled seed7 phase --sample 1600 --random-delta 160 --ring 8 --seed 7
check "  another seed, other samples, still no bias" summary seed7 '
import json
other = [json.loads(l) for l in open(sys.argv[1].replace("seed7", "random"))]
r = [o["sampling"] for o in other if "sampling" in o]
re = [o["sampled_edge"] for o in other if "sampled_edge" in o]
# Other samples: the sampled edges or the summary differ (one sum, such
# as rebuilt_conditional, can come out equal by chance).
assert r and (re != e or r[0] != s), (r, s)
assert s["max_relative_error"] < 0.25, s'

"$REWIND" analyze edges --no-progress --top 3 --sample 1600 --ring 8 \
  "$T/phase.rwd" >"$T/text.out" 2>&1
check_eq "text: exit 0" 0 "$?"
check "  the exact table, then the samples and the uniformity report" sh -c "
  grep -q '^sampled: every 1600 taken branches, the last 8 taken branches each: ' '$T/text.out' &&
  grep -Eq '^rebuilt against the emulator.s branch sequence: [0-9]+ equal, 0 differ' '$T/text.out' &&
  grep -Eq '^uniformity: .*largest relative error [0-9.]+ at 0x[0-9a-f]+ main\+0x[0-9a-f]+ taken' '$T/text.out' &&
  grep -Eq '^call graph from calls alone: [0-9]+ calls, [0-9]+ caller-callee edges' '$T/text.out'"

# Threads, a longjmp out of 5 frames and a signal handler: the samples still
# rebuild exactly what ran (a handler's entry is no branch: its gap is not
# followed, and what follows it is checked).
rec calls "$P/calls"
sampled calls calls --sample 7 --random-delta 3 --ring 16
check_eq "calls: exit 0" 0 "$?"
check "  every sample equal to the emulator's sequence" summary calls '
assert s["samples"] > 1000 and s["equal"] == s["samples"], s
assert s["differ"] == 0, s'
# The call graph from calls alone: exact from every call (leaf5 is called
# 1000 times: 587 from main, 400 from work; rec calls itself 500 times),
# sampled from the calls in the rings, close to it with a random offset.
check "  the call graph from calls alone, exact and sampled" python3 -c '
import json, sys
c, g = None, {}
for l in open(sys.argv[1]):
    o = json.loads(l)
    if "sampled_calls" in o: c = o["sampled_calls"]
    if "sampled_call" in o:
        x = o["sampled_call"]
        g[(x["caller"], x["callee"])] = x
assert c and c["calls"] == sum(x["exact"] for x in g.values()), c
assert c["calls_in_samples"] == sum(x["sampled"] for x in g.values()), c
assert g[("main (calls)", "leaf5 (calls)")]["exact"] == 587, g
assert g[("work (calls)", "leaf5 (calls)")]["exact"] == 400
assert g[("rec (calls)", "rec (calls)")]["exact"] == 500
assert sum(x["exact"] for k, x in g.items() if k[1] == "leaf5 (calls)") \
    == 1000
assert c["calls_in_samples"] > 500 and c["max_relative_error"] < 0.5, c
' "$T/calls.json"

# rewind analyze branches: the ring at a position, from the shell. Right
# before printf, the loop's last iteration took its jmp (the back edge fell
# through), then main called printf through the PLT.
pos=$("$REWIND" analyze calls --no-progress --json "$T/phase.rwd" 2>/dev/null |
      python3 -c '
import json, sys
for l in sys.stdin:
    c = json.loads(l)
    if c["caller"] == "main" and c["args"][1] == 50000: print(c["start"])')
check "phase: the printf call found" test -n "$pos"
"$REWIND" analyze branches --no-progress -n 4 --at "$pos" "$T/phase.rwd" \
  >"$T/br.out" 2>&1
check_eq "analyze branches --at: exit 0" 0 "$?"
check "  the loop's jmp, back edge, jmp, then the call from main" python3 -c '
import re, sys
t = open(sys.argv[1]).read().splitlines()
assert re.match(r"thread \d+ at instruction %s: its last 4 taken branches" % sys.argv[2], t[0]), t
k = [l.split()[0] for l in t[1:]]
assert k == ["jmp", "cond", "jmp", "call"], t
assert all("<main+" in l.split("->")[0] for l in t[1:]), t' "$T/br.out" "$pos"
"$REWIND" analyze branches --no-progress -n 2 --at "$pos" --json \
  "$T/phase.rwd" >"$T/br.json" 2>&1
check "  --json: the same two last, with addresses" python3 -c '
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])]
assert [b["kind"] for b in v] == ["jmp", "call"], v
assert v[0]["from_where"].startswith("main+") and v[1]["from"] > v[0]["from"], v' \
  "$T/br.json"
"$REWIND" analyze branches --no-progress -n 3 "$T/phase.rwd" >"$T/brend.out" 2>&1
check "  without --at: the last ones before the program ended, into _exit" \
  sh -c "grep -q 'its last 3 taken branches' '$T/brend.out' && grep -qi 'exit' '$T/brend.out'"

status_of() { "$@" >"$T/st.out" 2>&1; echo $?; }
check_eq "branches of a thread that does not run there" 1 \
  "$(status_of "$REWIND" analyze branches --no-progress -t 5 --at "$pos" "$T/phase.rwd")"
check_eq "branches past the end of the history" 1 \
  "$(status_of "$REWIND" analyze branches --no-progress --at 99999999999 "$T/phase.rwd")"
check "  says where the history ends" grep -q 'ends at instruction' "$T/st.out"
check_eq "branches -n 0" 2 \
  "$(status_of "$REWIND" analyze branches -n 0 "$T/phase.rwd")"
check_eq "--random-delta without --sample" 2 \
  "$(status_of "$REWIND" analyze edges --random-delta 5 "$T/phase.rwd")"
check_eq "--sample 0" 2 \
  "$(status_of "$REWIND" analyze edges --sample 0 "$T/phase.rwd")"
check_eq "a delta above the period" 2 \
  "$(status_of "$REWIND" analyze edges --sample 10 --random-delta 11 "$T/phase.rwd")"
check_eq "a ring of 5000" 2 \
  "$(status_of "$REWIND" analyze edges --sample 10 --ring 5000 "$T/phase.rwd")"
check_eq "--sample is not rep's" 2 \
  "$(status_of "$REWIND" analyze rep --sample 10 "$T/phase.rwd")"
check "  and says whose option it is" \
  grep -q 'are options of analyze edges' "$T/st.out"

finish
