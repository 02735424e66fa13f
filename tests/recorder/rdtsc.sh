#!/bin/bash
# SPDX-License-Identifier: MIT
# rdtsc/rdtscp are trapped (or patched to int3) and answered by the recorder: the values the
# program printed are the RDTSC records, they increase, rdtscp sets its aux;
# a fork child does not die of the inherited trap (it is recorded too, its
# rdtsc in its own stream). cpuid answers match the
# cpuid table of the trace.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

rec tsc "$P/rdtsc"
check_eq "rdtsc: exit 0" 0 "$status"
check "rdtsc: fork child survived rdtsc" grep -q "^child 0$" "$T/tsc.out"
check "rdtsc: printed values are the recorded ones, in order" q tsc '
printed = [int(l) for l in open("'"$T"'/tsc.out") if l.strip().isdigit()]
root = of("EXEC")[0]["pid"]
recorded = [r["tsc"] for r in of("RDTSC") if r["tid"] == root][-6:]
assert len(printed) == 6 and printed == recorded, (printed, recorded)'
check "rdtsc: the fork child's rdtsc recorded in its own stream" q tsc '
c = of("FORK")[0]["child_pid"]
assert of("FORK")[0]["recorded"] == 1
assert len([r for r in of("RDTSC") if r["tid"] == c]) == 1'
check "rdtsc: values increase" q tsc '
v = [r["tsc"] for r in of("RDTSC")]; assert v == sorted(v) and len(set(v)) == len(v)'
check "rdtscp: flagged, rip advanced by 3 next time" q tsc '
p = [r for r in of("RDTSC") if r["kind"] == 1]; assert len(p) == 1'
check "rdtsc: each at its own rip" q tsc '
v = [r["rip"] for r in of("RDTSC")][-6:]; assert len(set(v)) == 6'

# Where the hypervisor ignores CR4.TSD (REWIND_TSC_PATCH=1 pretends so), the
# instructions are patched to int3: same records, a verified replay, the
# original code in the trace, and the fork child unharmed.
REWIND_TSC_PATCH=1 rec tscp "$P/rdtsc"
check_eq "patched rdtsc: exit 0" 0 "$status"
check "patched rdtsc: fork child survived" grep -q "^child 0$" "$T/tscp.out"
check "patched rdtsc: printed values are the recorded ones" q tscp '
printed = [int(l) for l in open("'"$T"'/tscp.out") if l.strip().isdigit()]
root = of("EXEC")[0]["pid"]
recorded = [r["tsc"] for r in of("RDTSC") if r["tid"] == root][-6:]
assert len(printed) == 6 and printed == recorded, (printed, recorded)
assert len([r for r in of("RDTSC") if r["kind"] == 1]) == 1'
check "patched rdtsc: the replay verifies" "$REWIND" replay --verify -q "$T/tscp.rwd"
check "patched rdtsc: bytes 0f 31 inside other instructions left alone" \
  test "$(grep lookalike "$T/tscp.out")" = "$("$P/rdtsc" | grep lookalike)"

# The kernel forces the trap's signal (SIGSEGV for a trapped rdtsc, SIGTRAP
# for a patched one); where the thread blocks it or the process ignores it,
# that resets the disposition. The program sees its handlers, its ignored
# SIGTRAP and its mask as it left them, both ways, and a real fault still
# reaches its handler.
native=$("$P/forcedsig" 2>&1; echo "exit $?")
for mode in trap patch; do
  if [ $mode = patch ]; then
    REWIND_TSC_PATCH=1 rec forced-$mode "$P/forcedsig"
  else
    rec forced-$mode "$P/forcedsig"
  fi
  check_eq "forced ($mode): as natively" "$native" \
    "$(cat "$T/forced-$mode.out"; echo "exit $status")"
  check "forced ($mode): rdtsc was answered" q forced-$mode '
assert len(of("RDTSC")) >= 3, len(of("RDTSC"))'
  verified forced-$mode
done
check "forced: natively, the handlers and masks hold" grep -q \
  "^main: SIGSEGV blocked after rdtsc" <<<"$native"
check "forced: natively, an exec keeps the mask" grep -q \
  "^after exec: SIGSEGV blocked, SIGTRAP blocked" <<<"$native"

# cpuid: what the program saw is in the trace's table (the CPU is pinned),
# as the CPUID records before it changed it (the fields that name the CPU
# change when a hypervisor moves it; the recorder reads them at each exec).
# cpuid_seen NAME: the program's leaves 0, 1 and 7 are the table's with the
# CPUID records applied; the number of those records in $ncpuid.
cpuid_seen() {
  "$META" -x "$T/$1.rwd" cpuid >"$T/$1.hex"
  "$REWIND" dump --json "$T/$1.rwd" >"$T/$1.json"
  ncpuid=$(grep -c '"type":"CPUID"' "$T/$1.json")
  python3 - "$T/$1.hex" "$T/$1.json" "$T/$1.out" <<'PY'
import json, sys
b = bytes.fromhex(open(sys.argv[1]).read().strip())
rows = {}
for i in range(0, len(b), 24):
    v = [int.from_bytes(b[i + 4 * k:i + 4 * k + 4], "little") for k in range(6)]
    rows[(v[0], v[1])] = v[2:]
for line in open(sys.argv[2]):
    r = json.loads(line)
    if r.get("type") == "CPUID":
        rows[(int(r["leaf"], 16), int(r["subleaf"], 16))] = [
            int(r[k], 16) for k in ("eax", "ebx", "ecx", "edx")]
seen = 0
for line in open(sys.argv[3]):
    leaf, a, bb, c, d = [int(x, 16) for x in line.split()]
    row = rows.get((leaf, 0)) or rows.get((leaf, 0xffffffff))
    assert row == [a, bb, c, d], (leaf, row, [a, bb, c, d])
    seen += 1
assert seen == 3
PY
}
rec cpuid "$P/cpuid"
check "cpuid: leaves 0, 1 and 7 match the table" cpuid_seen cpuid
check "cpuid: pinned CPU recorded" test -n "$("$META" "$T/cpuid.rwd" cpu_pinned)"
# The table taken on a CPU that the hypervisor then moves (a test hook
# skews its initial APIC ID): the exec finds the change and says so.
REWIND_TEST_CPUID_MOVED=1 rec moved "$P/cpuid"
check "cpu moved: what the program saw" cpuid_seen moved
check "cpu moved: a CPUID record for leaf 1" sh -c \
  "grep '\"type\":\"CPUID\"' '$T/moved.json' | grep -q '\"leaf\":\"0x1\"'"
verified moved
finish
