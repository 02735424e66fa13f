#!/bin/bash
# SPDX-License-Identifier: MIT
# rewind record: the command line (default names, --force, --quiet, the
# summary line), exit statuses, the environment PROG sees, and the initial
# image (MAP records with blobs, AUXV without the vDSO, THREAD_START,
# metadata).
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# Default output names: PROG-0.rwd, then PROG-1.rwd, in the trace directory
# ($XDG_DATA_HOME/rewind, created on demand), with latest-trace pointing at
# the newest.
mkdir "$T/cwd"
(cd "$T/cwd" && XDG_DATA_HOME="$T/xdg" "$REWIND" record "$P/exitstatus" 0 \
  2>"$T/sum.err" &&
  XDG_DATA_HOME="$T/xdg" "$REWIND" record "$P/exitstatus" 0 2>/dev/null)
check "default name PROG-0.rwd" test -s "$T/xdg/rewind/exitstatus-0.rwd"
check "next free name PROG-1.rwd" test -s "$T/xdg/rewind/exitstatus-1.rwd"
check "nothing in the current directory" test -z "$(ls "$T/cwd")"
check_eq "latest-trace names the newest" exitstatus-1.rwd \
  "$(readlink "$T/xdg/rewind/latest-trace")"
check "summary line names path, size, events, duration and replay" \
  grep -E "exitstatus-0.rwd: [0-9.]+ [KM]iB, [0-9]+ events(, [0-9]+ of [0-9]+ syscalls buffered)?, [0-9.]+ s; replay with: rewind replay $T/xdg/rewind/exitstatus-0.rwd" "$T/sum.err"
# (a machine whose CPU has extensions the emulator lacks adds a note)
check_eq "one summary line" 1 "$(grep -vc '^rewind: note: ' "$T/sum.err")"
mkdir "$T/dir"
REWIND_TRACE_DIR="$T/dir" "$REWIND" record -q "$P/exitstatus" 0
check "REWIND_TRACE_DIR" test -s "$T/dir/exitstatus-0.rwd"
(cd "$T/cwd" && env -u HOME -u XDG_DATA_HOME "$REWIND" record -q \
  "$P/exitstatus" 0)
check "no HOME: the current directory" test -s "$T/cwd/exitstatus-0.rwd"

# Never overwrite without --force.
echo keep >"$T/exists.rwd"
"$REWIND" record -o "$T/exists.rwd" "$P/exitstatus" 0 2>"$T/ex.err"
check "existing output refused" test $? -ne 0
check "existing output kept" grep -q keep "$T/exists.rwd"
check "says --force" grep -q -- --force "$T/ex.err"
"$REWIND" record -q --force -o "$T/exists.rwd" "$P/exitstatus" 0
check "--force replaces" test "$(head -c 4 "$T/exists.rwd")" != keep

# --quiet prints nothing of rewind's own.
"$REWIND" record --quiet -o "$T/q.rwd" "$P/exitstatus" 0 2>"$T/q.err"
check_eq "--quiet is quiet" 0 "$(wc -c <"$T/q.err")"

# Exit status and arguments.
rec ex7 "$P/exitstatus" 7
check_eq "exit status passed through" 7 "$status"
rec env "$P/envargs" HOME GLIBC_TUNABLES OPENSSL_ia32cap REWIND_TEST_VAR
check_eq "envargs exits with argc" 5 "$status"
check "environment kept" grep -q "HOME = $HOME" "$T/env.out"
check "rseq tunable" grep -q "glibc.pthread.rseq=0" "$T/env.out"
check "hwcaps tunable" grep -q "glibc.cpu.hwcaps=-XSAVEC" "$T/env.out"
check "AVX-512 left on" sh -c "! grep -q -- -AVX512 '$T/env.out'"
check "FMA left on" sh -c "! grep -q -- -FMA '$T/env.out'"
check "AVX2 left on" sh -c "! grep -q -- -AVX2 '$T/env.out'"
check "OpenSSL left alone" grep -q "OPENSSL_ia32cap = (unset)" "$T/env.out"
check "working directory" grep -q "cwd $PWD" "$T/env.out"
GLIBC_TUNABLES=glibc.malloc.check=3 rec env2 "$P/envargs" GLIBC_TUNABLES
check "user tunables kept" grep -q "glibc.malloc.check=3:glibc.pthread.rseq=0" "$T/env2.out"
# AMX is named when the program asks the kernel for it, not before.
"$REWIND" record -o "$T/amx.rwd" "$P/amxperm" >"$T/amx.out" 2>"$T/amx.err"
if grep -q granted "$T/amx.out"; then
  check "AMX: named when the program asks for it" \
    grep -q "note: the program asked the kernel for AMX" "$T/amx.err"
else
  check "AMX: nothing said where the kernel has none" \
    sh -c "! grep -q AMX '$T/amx.err'"
fi
check "AMX: the start says nothing of it" \
  sh -c "! grep 'this CPU has' '$T/sum.err' | grep -q AMX"
"$REWIND" replay --verify --no-progress "$T/amx.rwd" >/dev/null 2>&1
check_eq "AMX: the replay verifies" 0 "$?"

# --cpu-features hides what it names from glibc and OpenSSL, and says so.
"$REWIND" record --cpu-features=-avx512,-sha -o "$T/cf.rwd" \
  "$P/envargs" GLIBC_TUNABLES OPENSSL_ia32cap >"$T/cf.out" 2>"$T/cf.err"
check "--cpu-features: glibc's AVX-512 hidden" \
  grep -q "glibc.cpu.hwcaps=-AVX512F,.*-AVX512VL,-XSAVEC" "$T/cf.out"
check "--cpu-features: AVX2 kept" sh -c "! grep -q -- -AVX2 '$T/cf.out'"
check "--cpu-features: OpenSSL mask" \
  grep -q "OPENSSL_ia32cap = ~0x0:~0x" "$T/cf.out"
check "--cpu-features: says what it hid and what it cannot" \
  grep -q "hiding avx512f .* sha .*cpuid itself still sees them" "$T/cf.err"
"$REWIND" replay --verify --no-progress "$T/cf.rwd" >"$T/cf.replay" 2>&1
check_eq "--cpu-features: the replay verifies" 0 "$?"
"$REWIND" record --cpu-features=-avx1024 -o "$T/cf2.rwd" true 2>"$T/cf2.err"
check_eq "--cpu-features: an unknown name is a usage error" 2 "$?"
check "--cpu-features: names it" grep -q "unknown feature 'avx1024'" "$T/cf2.err"
check "--cpu-features: no trace left" test ! -e "$T/cf2.rwd"
check_eq "stdin passed" "hello" "$(echo hello | "$REWIND" record -q -o "$T/cat.rwd" cat)"

# The initial image.
check "EXEC first" q env 'assert recs[0]["type"] == "EXEC" and recs[0]["path"].endswith("envargs")'
check "program mapped from a blob" q env '
m = [r for r in of("MAP") if r["path"].endswith("/envargs")]
assert m and all(r["blob"] != "0" * 64 for r in m)'
check "libc mapped from a blob" q env '
assert [r for r in of("MAP") if "libc.so" in r["path"] and r["blob"] != "0" * 64]'
check "stack mapped and imported" q env '
s = [r for r in of("MAP") if r["path"] == "[stack]"][0]
a, n = int(s["addr"], 16), int(s["len"], 16)
assert [m for m in of("MEM") if a <= int(m["addr"], 16) < a + n]'
check "vdso recorded with its stubs" q env '
v = [r for r in of("MAP") if r["path"] == "[vdso]" and r["flags"] & 0x2000]
assert v and not v[0]["flags"] & 0x100
a, n = int(v[0]["addr"], 16), int(v[0]["len"], 16)
cover = set()
for m in of("MEM"):
    x = int(m["addr"], 16)
    if a <= x < a + n:
        cover.update(range(x, x + m["data_len"]))
assert cover == set(range(a, a + n))'
check "auxv keeps AT_SYSINFO_EHDR at the vdso" q env '
a = bytes.fromhex(of("AUXV")[0]["auxv"])
pairs = [(int.from_bytes(a[i:i+8], "little"),
          int.from_bytes(a[i+8:i+16], "little")) for i in range(0, len(a), 16)]
v = [r for r in of("MAP") if r["path"] == "[vdso]"][0]
assert (33, int(v["addr"], 16)) in pairs and pairs[-1][0] == 0'
check "THREAD_START with registers" q env '
t = of("THREAD_START")[0]; assert t["regs"]["rsp"] != "0x0"'
check "EXIT record" q ex7 'e = of("EXIT")[-1]; assert e["status"] == 7 and e["signo"] == 0'
check "metadata: exit" test "$("$META" "$T/ex7.rwd" exit)" = "exit 7"
check "metadata: pinned CPU" test -n "$("$META" "$T/ex7.rwd" cpu_pinned)"
check "metadata: tunables" grep -q "glibc.pthread.rseq=0" <("$META" "$T/ex7.rwd" glibc_tunables)
check "metadata: cpuid table" test "$("$META" -x "$T/ex7.rwd" cpuid | wc -c)" -gt 480
check "metadata: end" test -n "$("$META" "$T/ex7.rwd" end_ns)"
check "rewind info reads it" "$REWIND" info "$T/ex7.rwd"

# The blob cache: large files a recording stores (libc) are kept,
# compressed, under $REWIND_CACHE/blobs; the next recording copies them
# from there, and its trace holds the same blobs. A damaged entry is
# removed and made again; REWIND_CACHE=off keeps none.
bc="$T/bc/blobs"
blobs_of() { "$REWIND" info "$1" | sed -n '/^blobs:/,/^keyframes:/p' | sort; }
REWIND_CACHE="$T/bc" "$REWIND" record -q -o "$T/bc1.rwd" "$P/exitstatus" 0
check "blob cache: entries made" test "$(ls "$bc" | wc -l)" -ge 1
check "blob cache: libc's entry" grep -lq "libc.so" "$bc"/*
libc_e=$(grep -l "libc.so" "$bc"/* | head -n 1)
cp "$libc_e" "$T/libc.entry"
touch -d "2001-01-01" "$libc_e"
REWIND_CACHE="$T/bc" "$REWIND" record -q -o "$T/bc2.rwd" "$P/exitstatus" 0
check "blob cache: an entry used is marked used" \
  test "$(stat -c %Y "$libc_e")" -gt "$(date -d 2010-01-01 +%s)"
check_eq "blob cache: the same blobs" "$(blobs_of "$T/bc1.rwd")" \
  "$(blobs_of "$T/bc2.rwd")"
check "blob cache: the trace checks" "$REWIND" info --check "$T/bc2.rwd"
check "blob cache: the replay verifies" "$REWIND" replay --verify "$T/bc2.rwd"
size=$(stat -c %s "$libc_e")
printf '\xff\xff\xff\xff' | dd of="$libc_e" bs=1 seek=$((size / 2)) \
  conv=notrunc 2>/dev/null
REWIND_CACHE="$T/bc" "$REWIND" record -q -o "$T/bc3.rwd" "$P/exitstatus" 0
check "blob cache: a damaged entry: the trace checks" \
  "$REWIND" info --check "$T/bc3.rwd"
check_eq "blob cache: a damaged entry: the same blobs" \
  "$(blobs_of "$T/bc1.rwd")" "$(blobs_of "$T/bc3.rwd")"
check "blob cache: a damaged entry is made again" cmp -s "$libc_e" "$T/libc.entry"
XDG_CACHE_HOME="$T/xc" REWIND_CACHE=off "$REWIND" record -q -o "$T/bc4.rwd" \
  "$P/exitstatus" 0
check "blob cache: REWIND_CACHE=off keeps none" test ! -e "$T/xc"
check_eq "blob cache: off: the same blobs" "$(blobs_of "$T/bc1.rwd")" \
  "$(blobs_of "$T/bc4.rwd")"

# The scan cache: where rdtsc is patched (REWIND_TSC_PATCH=1), the sites a
# scan of a file's code found are kept under $REWIND_CACHE/scans; the next
# recording patches from there, the same instructions (at the same
# addresses: without address randomization). A damaged entry is scanned
# again and made whole.
sc="$T/sc/scans"
norand() { setarch "$(uname -m)" -R "$@"; }
sites() { "$REWIND" dump --json "$1" | python3 -c '
import json, sys
print(sorted((r["kind"], r["rip"]) for r in map(json.loads, sys.stdin)
             if r["type"] == "RDTSC"))'; }
REWIND_TSC_PATCH=1 REWIND_CACHE="$T/sc" norand "$REWIND" record -q -o "$T/sc1.rwd" \
  "$P/rdtsc" >/dev/null
check "scan cache: entries made" test "$(ls "$sc" | wc -l)" -ge 1
REWIND_TSC_PATCH=1 REWIND_CACHE="$T/sc" norand "$REWIND" record -q -o "$T/sc2.rwd" \
  "$P/rdtsc" >/dev/null
check_eq "scan cache: the same rdtsc sites answered" "$(sites "$T/sc1.rwd")" \
  "$(sites "$T/sc2.rwd")"
check "scan cache: rdtsc answered" test "$(sites "$T/sc2.rwd")" != "[]"
check "scan cache: the replay verifies" "$REWIND" replay --verify "$T/sc2.rwd"
for f in "$sc"/*; do printf 'rwscan1\nxy' >"$f"; done
REWIND_TSC_PATCH=1 REWIND_CACHE="$T/sc" norand "$REWIND" record -q -o "$T/sc3.rwd" \
  "$P/rdtsc" >/dev/null
check_eq "scan cache: damaged entries: the same sites" \
  "$(sites "$T/sc1.rwd")" "$(sites "$T/sc3.rwd")"
check "scan cache: damaged entries made whole again" python3 -c '
import os, sys
d = sys.argv[1]
for f in os.listdir(d):
    n = os.path.getsize(os.path.join(d, f))
    assert n >= 8 and (n - 8) % 21 == 0, (f, n)' "$sc"
finish
