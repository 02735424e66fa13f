#!/bin/bash
# SPDX-License-Identifier: MIT
# What the kernel does to a program, reproduced: outputs of syscalls that
# are easy to miss (a pointer-returned fcntl value, an ioctl whose number
# lies about its size, a length written before an EFAULT, the counters a
# netfilter setsockopt writes back, the siginfo a failed waitid zeroes,
# a madvise that
# fails and still discards pages, a write to the program's own
# /proc/self/mem, a program that calls the vDSO it found itself, calls
# into the legacy vsyscall page), each recorded and verified.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

native=$("$P/sysout" "$T/so.native"; echo "status $?")
rec sysout "$P/sysout" "$T/so.tmp"
check_eq "sysout: same output as natively" "$native" "$(cat "$T/sysout.out"; echo "status $status")"
check "sysout: the kernel's fcntl answer is seen" grep -Eq "^rw hint (3|unsupported)$" "$T/sysout.out"
check "sysout: PR_GET_TSC answers what the program set" \
  grep -q "^tsc mode 0 1, set 0, now 0 2, bad set -1, back 0 0 1$" "$T/sysout.out"
check "sysout: PR_SET_MM_MAP_SIZE wrote a size" grep -Eq "^mm map size 0 [1-9]" "$T/sysout.out"
check "sysout: sched_setaffinity ran" grep -q "^empty affinity -1 EINVAL$" "$T/sysout.out"
check "sysout: madvise failed and discarded" grep -q "^madvise -1, bytes left 0 0$" "$T/sysout.out"
check "sysout: madvise stopped at a locked page" grep -q "^locked madvise -1, bytes left 0 5$" "$T/sysout.out"
check "sysout: a failed waitid zeroed its siginfo" grep -q "^failed waitid -1, signo 0 code 0$" "$T/sysout.out"
# iptables needs the ip_tables module and CAP_NET_ADMIN; where it works,
# replacing a table writes the old counters into the program's array.
check "sysout: netfilter counters" grep -Eq "^netfilter (unavailable|counters written: yes)$" "$T/sysout.out"
check "sysout: seccomp wrote its notification sizes" \
  grep -Eq "^seccomp notif sizes (0 sane|-1 unsupported)$" "$T/sysout.out"
check "sysout: an interrupted poll zeroed revents" \
  grep -q "^interrupted poll -1 EINTR, revents 0$" "$T/sysout.out"
verified sysout

# execve with an empty environment: the new image still gets rewind's
# settings (without them, ld.so's trampoline saves registers with xsavec),
# and a failed execve leaves registers and memory alone.
rec execenv "$P/execenv"
check_eq "execenv: exit 0" 0 "$status"
check "execenv: the failed execve left rdx and the array alone" \
  grep -q "^failed execve: -2, rdx kept 1, env same REWIND_TEST_VAR=kept$" "$T/execenv.out"
check "execenv: the child got rewind's settings in its empty environment" \
  grep -q "^child: environ set, len 131071$" "$T/execenv.out"
check "execenv: two images" q execenv 'assert len(of("EXEC")) == 2'
verified execenv

# Writes into the program itself through /proc/self/mem and
# /proc/thread-self/mem: code in a read-only page written, run, rewritten
# and run again, and read-only data changed. The bytes are imported.
native=$("$P/procmem"; echo "status $?")
rec procmem "$P/procmem"
check_eq "procmem: same output as natively" "$native" "$(cat "$T/procmem.out"; echo "status $status")"
check "procmem: both calls and the data" grep -q \
  "^write 6, call 42; pwrite 6, call 7; pwritev 16, data 'hello from /proc'$" \
  "$T/procmem.out"
verified procmem

# process_vm_writev into the program itself is recorded, and a signal
# blocked before execve stays blocked in the new image.
rec selfseen "$P/selfseen"
check_eq "selfseen: exit 0" 0 "$status"
check_eq "selfseen: both lines" "process_vm_writev 29: written by \
process_vm_writev
after exec: SIGUSR1 blocked 1, pending 1" "$(cat "$T/selfseen.out")"
verified selfseen

# A program that parses the vDSO through AT_SYSINFO_EHDR and calls the
# function it found there: the vDSO is visible, and its calls are recorded
# (stubs make the syscalls); gdb knows its symbols in the replay.
native=$("$P/vdso"; echo "status $?")
rec vdso "$P/vdso"
check_eq "vdso: same output as natively" "$native" \
  "$(cat "$T/vdso.out"; echo "status $status")"
check "vdso: found and called" grep -q \
  "^vdso: calls 0 0 0, forwards 1, realtime after 2020 1$" "$T/vdso.out"
check "vdso: the calls are syscalls in the trace" q vdso '
assert len(enters(228)) >= 3, len(enters(228))'
verified vdso
cat >"$T/vdso.gdb" <<'G'
break main
continue
info symbol __vdso_clock_gettime
info proc mappings
G
timeout 120 "$REWIND" replay "$T/vdso.rwd" -- -batch -nx -x "$T/vdso.gdb" \
  >"$T/vdso.gdb.out" 2>&1
check "vdso: gdb knows the vDSO's symbols" \
  grep -q "clock_gettime in section .text of system-supplied DSO" \
  "$T/vdso.gdb.out"
check "vdso: info proc mappings lists the vDSO and the stack" \
  sh -c "grep -q ' r-xp .*\[vdso\]\$' '$T/vdso.gdb.out' &&
         grep -q ' rw-p .*\[stack\]\$' '$T/vdso.gdb.out'"
# Calls into the legacy vsyscall page: the kernel performs them with no
# syscall stop; the recorder's seccomp filter stops there, and neither the
# filter nor the no_new_privs it may need shows through prctl. A thread's
# own SECCOMP_RET_TRACE still fails its call with ENOSYS.
native=$("$P/vsyscall" 2>/dev/null; echo "status $?")
rec vsyscall "$P/vsyscall"
check_eq "vsyscall: same output as natively" "$native" \
  "$(cat "$T/vsyscall.out"; echo "status $status")"
if grep -q "^vsyscall: absent" "$T/vsyscall.out"; then
  echo "SKIP: vsyscall: this kernel has no vsyscall page (vsyscall=none)"
else
  check "vsyscall: the three calls worked" grep -q \
    "^vsyscall: gettimeofday 0 sane 1, time 1 same 1, getcpu 0 0 in range 1$" \
    "$T/vsyscall.out"
  check "vsyscall: a thread's own RET_TRACE filter fails its calls" grep -q \
    "^thread: nnp 0 filter 0, getppid -1 ENOSYS, vsyscall time -38 99, gettimeofday 0 sane 1, seccomp 2 nnp 1$" \
    "$T/vsyscall.out"
  check "vsyscall: recorded as syscalls at the entries" q vsyscall '
at = {r["nr"]: r["regs"]["rip"] for r in of("SYSCALL_ENTER")
      if r["regs"]["rip"].startswith("0xffffffffff600")}
assert at == {96: "0xffffffffff600000", 201: "0xffffffffff600400",
              309: "0xffffffffff600800"}, at'
  verified vsyscall
  cat >"$T/vsyscall.gdb" <<'G'
break vs_after_time
continue
p $pc == (long)&vs_after_time && $rax == t_global && t_global > 1600000000
reverse-stepi
p/x $pc
p t_global
reverse-stepi
p $pc == (long)&vs_after_time - 2
stepi
stepi
p $pc == (long)&vs_after_time && t_global > 1600000000
G
  timeout 120 "$REWIND" replay "$T/vsyscall.rwd" -- -batch -nx \
    -x "$T/vsyscall.gdb" >"$T/vsyscall.gdb.out" 2>&1
  check_eq "vsyscall: gdb steps backwards and forwards over the call" \
    "1 0xffffffffff600400 0 1 1" \
    "$(sed -n 's/^\$[0-9]* = //p' "$T/vsyscall.gdb.out" | tr '\n' ' ' |
       sed 's/ $//')"
fi
finish
