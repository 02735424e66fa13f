#!/bin/bash
# SPDX-License-Identifier: MIT
# The syscall buffer (recorder/sbuf.c): the vDSO's time functions, and the
# glibc wrappers of getpid and kin, fstat and stat once the recorder has
# patched their sites, make their syscalls through a library rewind maps
# into the program, without a ptrace stop, and the recorder writes them as
# ordinary syscalls; so do reads and writes of files, pipes and sockets
# (send, recv, writev, and poll and epoll_wait that do not wait)
# and the file calls of cp and tar. Each condition it must survive is
# recorded with and without the buffer, and each recording verifies: a
# timer's handler calling the clock in the middle of a call, threads,
# fork, exec, pipes that are empty or full, a file written under a shared
# mapping, the program's own seccomp filter, the library's memory
# unmapped or written over by the program. gdb knows the library's
# functions, and steps through a buffered call and back.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# buffered NAME: how many syscalls of $T/NAME.rwd the library made.
buffered() {
  q "$1" '
print(sum(1 for r in of("SYSCALL_ENTER") if r["regs"]["rip"] == "0x70000082"))'
}

# recopt NAME OPTIONS... -- PROG ARGS...: rec with options of rewind's.
recopt() {
  local name=$1
  shift
  "$REWIND" record -f -o "$T/$name.rwd" "$@" >"$T/$name.out" 2>"$T/$name.err"
  status=$?
}

# One mode of tests/programs/sbuf both ways: the same output, a clean
# exit, verified replays; MIN of its syscalls at least were buffered.
both() {
  local mode=$1 n=$2 min=$3 last=$1
  shift 3
  [ "$mode" = exec ] && last=calls
  recopt "$mode" "$@" -- "$P/sbuf" "$mode" "$n"
  check_eq "$mode: exits 0" 0 "$status"
  check "$mode: done" grep -q "^$last done\$" "$T/$mode.out"
  check "$mode: no FAIL line" sh -c "! grep FAIL '$T/$mode.out'"
  verified "$mode"
  local got
  got=$(buffered "$mode")
  check "$mode: at least $min calls buffered (got $got)" test "$got" -ge "$min"
  recopt "$mode-nb" --no-syscall-buffer "$@" -- "$P/sbuf" "$mode" "$n"
  check_eq "$mode-nb: exits 0" 0 "$status"
  check_eq "$mode-nb: same output" "$(cat "$T/$mode.out")" \
    "$(cat "$T/$mode-nb.out")"
  verified "$mode-nb"
  check_eq "$mode-nb: nothing buffered" 0 "$(buffered "$mode-nb")"
}

native=$("$P/sbuf" calls 2000; echo "status $?")
check_eq "calls: natively" "calls done
status 0" "$native"

both calls 20000 20000
check "calls: the summary counts the buffered syscalls" \
  grep -Eq "recorded .*, [0-9]+ of [0-9]+ syscalls buffered" "$T/calls.err"
check "calls: the vDSO jumps to the library" q calls '
v = [r for r in of("MAP") if r["path"] == "[vdso]"][0]
a, n = int(v["addr"], 16), int(v["len"], 16)
jumps = [e for e in (0, 8, 0x10, 0x18)
         if any(a <= int(m["addr"], 16) < a + n and
                "b8%02x000070ffe0" % e in m["data"] for m in of("MEM"))]
assert len(jumps) == 4, jumps'
check "calls: the library is mapped, its code recorded" q calls '
m = [r for r in of("MAP") if r["addr"] == "0x70000000"]
assert m and m[0]["prot"] == 5, m
assert any(r["addr"] == "0x70000000" for r in of("MEM"))'
check "calls: a buffered call is SYSCALL_ENTER, MEM, SYSCALL_EXIT" q calls '
i = [k for k in enters(228) if recs[k]["regs"]["rip"] == "0x70000082"][5]
m = recs[i + 1]  # the timespec, in whole cache lines
assert m["type"] == "MEM" and m["data_len"] == 64, m
assert int(m["addr"], 16) % 64 == 0 and int(m["addr"], 16) >= 0x70002000, m
assert recs[i + 2]["type"] == "SYSCALL_EXIT" and recs[i + 2]["result"] == 0'
both libc 5000 30000
check "libc: the wrappers' sites jump to the library" q libc '
ids = {39, 110, 102, 107, 186, 262, 14}  # fstat is newfstatat in glibc
got = set(r["nr"] for r in of("SYSCALL_ENTER") if r["regs"]["rip"] == "0x70000082")
assert ids <= got, sorted(ids - got)'
check "libc: a page of stubs is mapped and recorded" q libc '
m = [r for r in of("MAP") if r["prot"] == 5 and not r["path"] and
     r["addr"] != "0x70000000" and int(r["len"], 16) == 4096]
assert m, "no stub page"
a = int(m[0]["addr"], 16)
assert any(a <= int(x["addr"], 16) < a + 4096 for x in of("MEM"))'
# Each patched site is a MEM record in libc's code; without the buffer
# there are none (or only rdtsc's).
in_libc='
def libc_mems(name):
    text = [(int(m["addr"], 16), int(m["addr"], 16) + int(m["len"], 16))
            for m in of("MAP") if "libc.so" in m["path"] and m["prot"] & 4]
    return sum(1 for x in of("MEM") if any(a <= int(x["addr"], 16) < b
                                           for a, b in text))
print(libc_mems(0))'
on=$(q libc "$in_libc")
off=$(q libc-nb "$in_libc")
check "libc: the patched sites are in the trace ($on against $off)" \
  test "$on" -ge $((off + 5))

both files 300 6000
check "files: the file calls were buffered" q files '
got = set(r["nr"] for r in of("SYSCALL_ENTER") if r["regs"]["rip"] == "0x70000082")
want = {0, 1, 3, 8, 17, 217, 257, 262, 326, 332, 89, 87, 13, 302, 99}
assert want <= got, sorted(want - got)'
check "files: an absent path: its stat buffered, no openat made" q files '
# The open of the copy after its unlink: the stat fails, no openat
# follows; one that creates (O_CREAT) still makes its openat.
st = [k for k in enters(262) if recs[k]["regs"]["rip"] == "0x70000082"
      and recs[k + 1]["type"] == "SYSCALL_EXIT" and recs[k + 1]["result"] == -2]
def next_enter(k):
    return next(r for r in recs[k + 2:] if r["type"] == "SYSCALL_ENTER")
alone = [k for k in st if next_enter(k)["nr"] != 257]
made = [next_enter(k) for k in st if next_enter(k)["nr"] == 257]
assert len(alone) >= 300, len(alone)
assert all(int(r["regs"]["rdx"], 16) & 0o100 for r in made), made[:1]'
check "files: a read is SYSCALL_ENTER, MEM of whole lines, SYSCALL_EXIT" q files '
i = [k for k in enters(0) if recs[k]["regs"]["rip"] == "0x70000082"][20]
m = recs[i + 1]
assert m["type"] == "MEM" and int(m["addr"], 16) % 64 == 0, m
assert m["data_len"] % 64 == 0 and m["data_len"] >= 2600, m
assert recs[i + 2]["type"] == "SYSCALL_EXIT" and recs[i + 2]["result"] == 2600'
check "files: a buffered write has its OUTPUT record" q files '
i = [k for k in enters(1) if recs[k]["regs"]["rip"] == "0x70000082"][5]
assert recs[i + 1]["type"] == "OUTPUT", recs[i + 1]'
check "files: syscall() and read sites are patched too (syscall; cmp)" q files '
n = sum(1 for r in of("SYSCALL_ENTER") if r["nr"] == 110 and
        r["regs"]["rip"] == "0x70000082")
assert n >= 250, n'
check "files: /dev/null and the pipe were written and read in-process" q files '
w = [r for r in of("SYSCALL_ENTER") if r["regs"]["rip"] == "0x70000082"
     and r["nr"] in (327, 328)]
assert len(w) >= 500, len(w)'
both pipes 400 400
# waited NAME TRY NR WHAT: in NAME, the buffered syscall TRY found nothing
# (EAGAIN) and syscall NR then went the traced way.
waited() {
  check "$1: $4 went the traced way" q "$1" "
e = [r for r in of('SYSCALL_EXIT') if r['nr'] == $2 and r['result'] == -11]
t = [r for r in of('SYSCALL_ENTER') if r['nr'] == $3 and
     r['regs']['rip'] != '0x70000082']
assert e and t, (len(e), len(t))"
}
waited pipes 327 0 "reads that found a pipe empty"
check "pipes: the child's calls were buffered in its own process" q pipes '
tids = set(r["tid"] for r in of("SYSCALL_ENTER") if r["regs"]["rip"] == "0x70000082")
assert len(tids) >= 3, tids'

both sockets 300 1500
check "sockets: send, recv, writev, poll and epoll_wait were buffered" q sockets '
got = set(r["nr"] for r in of("SYSCALL_ENTER") if r["regs"]["rip"] == "0x70000082")
want = {7, 20, 44, 45, 232, 328}
assert want <= got, sorted(want - got)'
waited sockets 45 45 "recvs that found nothing"
check "sockets: buffered sends and writevs have their OUTPUT records" q sockets '
for nr in (44, 328, 20):
    i = [k for k in enters(nr) if recs[k]["regs"]["rip"] == "0x70000082"][3]
    assert recs[i + 1]["type"] == "OUTPUT", (nr, recs[i + 1])'

both signals 2000 1000
check "signals: the handler's calls were logged too" q signals '
s = of("SIGNAL")
assert sum(1 for r in s if r["signo"] == 14) >= 20, len(s)'
both threads 5000 10000 --timeslice 1
check "threads: futex wakes were buffered" q threads '
w = [r for r in of("SYSCALL_ENTER") if r["nr"] == 202 and
     r["regs"]["rip"] == "0x70000082"]
assert w, "no buffered futex wake"'
both fork 3000 4000
check "fork: the child's calls were buffered in its own process" q fork '
tids = set(r["tid"] for r in of("SYSCALL_ENTER") if r["regs"]["rip"] == "0x70000082")
assert len(tids) == 2, tids'
both exec 2000 2000
check "exec: the library is mapped again in the new image" q exec '
assert len([r for r in of("MAP") if r["addr"] == "0x70000000"]) == 2'
both seccomp 2000 1000
check "seccomp: nothing buffered after the program's filter" q seccomp '
k = [i for i in enters(157) if recs[i]["regs"]["rdi"] == "0x16"][0]
after = [r for r in recs[k:] if r["type"] == "SYSCALL_ENTER"
         and r["regs"]["rip"] == "0x70000082"]
assert not after, len(after)'
both unmap 2000 1000
both overwrite 2000 1000
check "overwrite: the recorder says the buffer was written over" \
  grep -q "syscall buffer of process [0-9]* at 0x70002000 was overwritten" \
  "$T/overwrite.err"

# A signal made deliverable by the syscall whose return patches its site:
# the recorder runs a syscall of its own in the thread there (the stub's
# mmap), and the handler must neither run in the middle of it unrecorded
# (its getppid answered by the mmap: 'saw 2') nor be lost.
recopt patchsig -- "$P/patchsig"
check_eq "patchsig: exits 0" 0 "$status"
check_eq "patchsig: the handler ran each time, its syscall answered" \
  "patchsig: handled 3, saw 3" "$(cat "$T/patchsig.out")"
check "patchsig: a site of the program's patched" q patchsig '
assert any(r["type"] == "MAP" and r["prot"] == 5 and r["path"] == ""
           for r in recs), "no stub page"'
verified patchsig

# gdb knows the library's functions: a watchpoint that a buffered read
# triggers stops in it, the backtrace goes on into glibc's read and the
# program, finish returns there, and the bytes read are the file's.
cat >"$T/files.gdb" <<'G'
break files
continue
watch sbuf_read[7]
continue
bt
delete
finish
finish
finish
finish
print sbuf_read
reverse-finish
G
timeout 120 "$REWIND" replay "$T/files.rwd" -- -batch -nx -x "$T/files.gdb" \
  >"$T/files.gdb.out" 2>&1 </dev/null
check "gdb: the read's syscall triggers the watchpoint, in the library" \
  grep -q "^0x0000000070000082 in sb_raw ()" "$T/files.gdb.out"
check "gdb: the backtrace names the library's functions" \
  grep -q "in sb_dispatch ()\|sb_dispatch () at" "$T/files.gdb.out"
check "gdb: and goes on into glibc's read and the program" \
  grep -Eq "^#[0-9]+ +0x[0-9a-f]+ in (__GI___libc_read|__libc_read|read) " \
  "$T/files.gdb.out"
check "gdb: ... up to main" grep -Eq "^#[0-9]+ .* in main " "$T/files.gdb.out"
check "gdb: finish gets back to the program with the bytes read" \
  grep -q '^\$[0-9]* = "line 002' "$T/files.gdb.out"
check "gdb: no divergence" sh -c "! grep -qi diverge '$T/files.gdb.out'"

# A gdb started by hand with `rewind gdbinit`'s helpers, talking to
# `rewind serve`, gets the library's symbols from the server once it is
# connected (at its first prompt), as `rewind replay`'s gdb does.
"$REWIND" gdbinit >"$T/init.gdb"
printf '%s\n' "target remote | $REWIND serve --stdio $T/files.rwd" \
  'break files' continue 'watch sbuf_read[7]' continue 'bt 3' \
  'info symbol 0x70000082' quit |
  timeout 120 gdb -nx -q -x "$T/init.gdb" "$P/sbuf" >"$T/hand.gdb.out" 2>&1
check "gdb by hand: the library's functions in the backtrace" \
  grep -q "#1 .* in untraced4 ()" "$T/hand.gdb.out"
check "gdb by hand: read from the server (target:$(printf /rewind/sblib))" \
  grep -q "sb_raw + 82 in section .text of target:/rewind/sblib" \
  "$T/hand.gdb.out"

# gdb steps over a buffered call, stops right after the library's syscall
# and steps back over it.
cat >"$T/calls.gdb" <<'G'
break calls
continue
tbreak clock_gettime
continue
finish
print ts.tv_nsec < 1000000000
break *0x70000082
continue
print $rax
reverse-stepi
print $pc == 0x70000080 && ($rax == 228 || $rax == 96)
delete
continue
G
timeout 120 "$REWIND" replay "$T/calls.rwd" -- -batch -nx -x "$T/calls.gdb" \
  >"$T/calls.gdb.out" 2>&1 </dev/null
check "gdb: stops in calls" grep -q "Breakpoint 1, calls" "$T/calls.gdb.out"
check "gdb: finishes clock_gettime back in calls, which returned 0" \
  grep -q '^Value returned is \$1 = 0$' "$T/calls.gdb.out"
check "gdb: the time it got" grep -q '^\$2 = 1$' "$T/calls.gdb.out"
check "gdb: stops after the untraced syscall, its result in rax" \
  grep -q '^\$3 = 0$' "$T/calls.gdb.out"
check "gdb: reverse-stepi goes back to the syscall" \
  grep -q '^\$4 = 1$' "$T/calls.gdb.out"
check "gdb: runs to the end of the history" grep -q "_exit" \
  "$T/calls.gdb.out"
check "gdb: no divergence" sh -c "! grep -qi diverge '$T/calls.gdb.out'"

finish
print $pc == main
G
timeout 120 "$REWIND" replay "$T/calls.rwd" -- -batch -nx -x "$T/calls.gdb" \
  >"$T/calls.gdb.out" 2>&1 </dev/null
check "gdb: stops in calls" grep -q "Breakpoint 1, calls" "$T/calls.gdb.out"
check "gdb: steps over clock_gettime" grep -q "if (ts.tv_sec < prev.tv_sec" \
  "$T/calls.gdb.out"
check "gdb: reverse-finish back into main" grep -q 'Run back to call of #0' \
  "$T/calls.gdb.out"
check "gdb: no divergence" sh -c "! grep -qi diverge '$T/calls.gdb.out'"

# --- a program built with AddressSanitizer ----------------------------------
# Its leak check, at exit, makes a child with CLONE_UNTRACED to ptrace the
# threads: that child must not escape the recorder (it would run under the
# buffer's filter with no tracer, every syscall failing, and the program
# would wait for it for ever). The check itself cannot work under a tracer.
A="$P/asanprog"
native=$(ASAN_OPTIONS=detect_leaks=0 "$A")
for o in "" --no-syscall-buffer; do
  n=asan${o:+-nosb}
  ASAN_OPTIONS=detect_leaks=0 recopt "$n" $o -- "$A"
  check_eq "$n: recorded without the leak check, exit 0" 0 "$status"
  check_eq "$n: same output as natively" "$native" "$(cat "$T/$n.out")"
  "$REWIND" replay --verify --no-progress "$T/$n.rwd" >"$T/$n.v" 2>&1
  check_eq "$n: verifies" 0 "$?"
  env -u ASAN_OPTIONS timeout 120 "$REWIND" record -f -o "$T/$n-lsan.rwd" \
    $o -- "$A" >"$T/$n-lsan.out" 2>"$T/$n-lsan.err"
  st=$?
  check "$n: with the leak check the recording ends (status $st)" \
    test "$st" -ne 124 -a "$st" -lt 128
  check "$n: and says why the check fails" has "CLONE_UNTRACED; rewind \
traces it all the same.*ASAN_OPTIONS=detect_leaks=0" "$T/$n-lsan.err"
  check "$n: the recording is kept" has "^rewind: recorded " "$T/$n-lsan.err"
done

finish
