#!/bin/bash
# SPDX-License-Identifier: MIT
# Every program of tests/programs/ is recorded and replayed with --verify:
# files, pipes, sockets, time, randomness, memory maps, signals (synchronous,
# asynchronous, alternate stacks), rdtsc, cpuid, the direct stores
# (movdiri, movdir64b and its #GP), cache line flushes (and the SIGSEGV of
# one at an unmapped address), int n (SIGSEGV, or SIGTRAP for 3),
# rdfsbase and rdgsbase, xsave/xsaveopt/xsavec from states whose in-use bits differ, syscall user dispatch, a signal whose frame
# the kernel cannot write (SIGSEGV comes instead), rdtsc made to fault by
# the program (PR_SET_TSC), exec through a wrapper,
# forks, a crash, an exit status and the flags the manuals leave undefined.
# Each replay must end as the recording did (status or signal) without a
# divergence.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# verify NAME HOW: HOW is the expected end ("exited with status N" or
# "killed by signal N").
verify() {
  "$REWIND" replay --verify --no-progress "$T/$1.rwd" >"$T/$1.replay" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || ! grep -q "^replay verified: .*$2" "$T/$1.replay"; then
    fail=$((fail + 1))
    echo "FAIL: replay of $1 (exit $rc, expected '$2'):"
    head -n 60 "$T/$1.replay"
    return 1
  fi
  pass=$((pass + 1))
}

printf 'known contents\n' >"$T/known.txt"
mkdir -p "$T/work"
rec files "$P/files" "$T/known.txt" "$T/work" && verify files "exited with status 0"
for p in pipes sockets timeprog randomness memory signals rdtsc cpuid forks \
  movdir clflush intn fsbase xsavec sud badstack; do
  rec "$p" "$P/$p"
  verify "$p" "exited with status $status"
done
check "clflush: the flushes ran, the unmapped one faulted" grep -q \
  "^clflush: sum [0-9]*, opt [01], wb [01], fault code 1 at +24$" \
  "$T/clflush.out"
check "intn: int 0x81 faults, int 3 traps after it" sh -c "grep -q \
  '^int 0x81: signal 11 code 128 at cd 81$' '$T/intn.out' &&
  grep -q '^int 3: signal 5 code 128 at 90$' '$T/intn.out'"
check "fsbase: rdfsbase reads the TLS base, rdgsbase 0" grep -q \
  "^fsbase: \(fs 1, gs 0, low half 1\|not allowed\)$" "$T/fsbase.out"
# Syscall user dispatch: four syscalls answered by the SIGSYS handler, not
# the kernel (a kernel without it says so, and the check is moot).
if ! grep -q "not supported" "$T/sud.out"; then
  check "sud: the handler answered four dispatched getppid" \
    grep -q "^sud: answers 1000 1001 1002 1003, getpid real" "$T/sud.out"
  check "sud: each SIGSYS named getppid (110), code 2" grep -q \
    "^sud: 4 dispatched: nr 110 code 2 nr 110 code 2 nr 110 code 2 nr 110 code 2" \
    "$T/sud.out"
fi
check "badstack: SIGSEGV (SI_KERNEL) in SIGILL's place" \
  grep -q "^badstack: signal 11 code 128" "$T/badstack.out"
# rdtsc trapped at the program's own request (PR_TSC_SIGSEGV): it gets its
# SIGSEGVs, and so does its child, as when it runs natively.
"$P/tsctrap" > "$T/tsctrap.native" 2>&1
rec tsctrap "$P/tsctrap"
verify tsctrap "exited with status 0"
check "tsctrap: the same output recorded as natively" \
  cmp "$T/tsctrap.native" "$T/tsctrap.out"
check "tsctrap: the faults and modes" grep -q "^child mode 2 faults" \
  "$T/tsctrap.out"
# Without a handler it dies of SIGSEGV (where the hypervisor honours the
# trap: natively and recorded alike).
"$P/tsctrap" fatal > /dev/null 2>&1
native=$?
rec tsctrap_fatal "$P/tsctrap" fatal
check_eq "tsctrap fatal: the native status" "$native" "$status"
if [ "$native" -eq 139 ]; then
  verify tsctrap_fatal "killed by signal 11"
else
  verify tsctrap_fatal "exited with status $status"
fi
REWIND_TEST_VAR=x rec env "$P/envargs" HOME REWIND_TEST_VAR
verify env "exited with status $status"
rec ex7 "$P/exitstatus" 7
verify ex7 "exited with status 7"
rec wrap "$top_srcdir/tests/programs/exec_wrapper.sh" env "$P/exec_target" a b
verify wrap "exited with status 0"
rec crash "$P/crash"
verify crash "killed by signal 11"
rec spin "$P/spin" 1
verify spin "exited with status 0"
# The flags the manuals leave undefined, printed: the replay must compute
# them as the recording CPU did, or the checksum of its output differs.
rec flags_undef "$P/flags_undef"
check "flags_undef prints" test -s "$T/flags_undef.out"
verify flags_undef "exited with status 0"
finish
