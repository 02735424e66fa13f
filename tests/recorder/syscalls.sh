#!/bin/bash
# SPDX-License-Identifier: MIT
# The memory effects of syscalls, program by program: the bytes a program
# read from a file of known content are in a MEM record at that read; pipe
# and socket data, time, getrandom output likewise; address-space changes
# are recorded (REMAP, UNMAP, PROTECT); an unknown syscall goes through the
# generic diff; a writable MAP_SHARED file mapping is warned about.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# Files: a known content, read at offset 0.
python3 -c 'import sys; sys.stdout.write("".join("REWIND-KNOWN-%05d|" % i for i in range(200)))' >"$T/known.txt"
mkdir "$T/work"
rec files "$P/files" "$T/known.txt" "$T/work"
check_eq "files: exit 0" 0 "$status"
check "files: output" grep -q "read 3800 pread 16 readv 16 size 3800" "$T/files.out"
check "files: read bytes in a MEM at that read" q files '
known = open(sys.argv[0] if False else "'"$T"'/known.txt", "rb").read()
hits = 0
for i in enters(0):
    data = b"".join(bytes.fromhex(m["data"]) for m in mem_after(i))
    if known[:3800] in data: hits += 1
assert hits == 1, hits'
check "files: the MEM sits before that read returns" q files '
i = enters(0)[0]
j = next(k for k in range(i, len(recs)) if recs[k]["type"] == "SYSCALL_EXIT")
assert any(r["type"] == "MEM" for r in recs[i:j]) and recs[j]["result"] > 0'
check "files: stat results imported (newfstatat or fstat)" q files '
assert any(mem_after(i) for i in enters(5) + enters(262))'
check "files: getdents64 output imported" q files '
assert any(mem_after(i) for i in enters(217))'
check "files: MEM addresses are cache-line aligned" q files '
assert all(int(m["addr"], 16) % 64 == 0 and m["data_len"] % 64 == 0 for m in of("MEM"))'

# Pipes.
rec pipes "$P/pipes"
check "pipes: output" grep -q "poll 1 revents 1 select 1 read 19 'through-the-pipe-42'" "$T/pipes.out"
check "pipes: data read in a MEM" q pipes '
assert any(b"through-the-pipe-42" in bytes.fromhex(m["data"]) for i in enters(0) for m in mem_after(i))'
check "pipes: pipe2 fds imported" q pipes 'assert mem_after(enters(293)[0])'

# Sockets.
rec sockets "$P/sockets"
check "sockets: output" grep -q "pair 10 'pair-hello' tcp 11 'tcp-hello-7' err 0 port-match 1" "$T/sockets.out"
check "sockets: recvmsg data in a MEM" q sockets '
assert any(b"tcp-hello-7" in bytes.fromhex(m["data"]) for i in enters(47) for m in mem_after(i))'
check "sockets: recvfrom data in a MEM" q sockets '
assert any(b"pair-hello" in bytes.fromhex(m["data"]) for i in enters(45) for m in mem_after(i))'

# Time: no vDSO, so clock_gettime is a syscall, and its answer is in the trace.
rec time "$P/timeprog"
secs=$(sed -n 's/^realtime \([0-9]*\) .*/\1/p' "$T/time.out")
check "time: clock_gettime is a real syscall" q time 'assert len(enters(228)) >= 2'
check "time: the seconds the program saw are in a MEM" q time '
s = int('"${secs:-0}"').to_bytes(8, "little")
assert any(s in bytes.fromhex(m["data"]) for i in enters(228) for m in mem_after(i))'
check "time: gettimeofday, time and (clock_)nanosleep recorded" q time 'assert enters(96) and enters(201) and len(enters(230)) == 2'

# Randomness.
rec rand "$P/randomness"
hex=$(cat "$T/rand.out")
check "getrandom: the bytes are in a MEM after getrandom" q rand '
assert any("'"$hex"'" in m["data"] for i in enters(318) for m in mem_after(i))'

# The address space.
rec mem "$P/memory" "$T/shared.bin"
check_eq "memory: exit 0" 0 "$status"
check "memory: output" grep -q "sum 8 big 1 small heap mempolicy 0 mode 0" "$T/mem.out"
check "memory: REMAP for mremap" q mem '
r = of("REMAP"); assert r and int(r[0]["new_len"], 16) == 1 << 20'
check "memory: UNMAP for munmap" q mem 'assert any(int(r["len"], 16) == 4096 for r in of("UNMAP"))'
check "memory: PROTECT for mprotect" q mem 'assert any(r["prot"] == 1 for r in of("PROTECT"))'
check "memory: MAP for MAP_FIXED and madvise" q mem '
i = enters(28)[-1]
assert any(r["type"] == "MAP" for r in recs[i:i+4])'
check "memory: heap (brk) mapped" q mem 'assert [r for r in of("MAP") if r["path"] == "[heap]"]'
check "memory: unknown syscall marked and diffed" q mem '
d = [r for r in of("SYSCALL_DIFF") if r["nr"] == 239]
assert d and d[0]["lines"] >= 1 and d[0]["name"] == "get_mempolicy"'
check "memory: shared mapping warning on stderr" grep -q "warning: mmap: writable MAP_SHARED mapping of $T/shared.bin" "$T/mem.err"
check "memory: shared mapping warning in a NOTE" q mem '
assert any("MAP_SHARED" in n["text"] and n["level"] == 1 for n in of("NOTE"))'

# rseq never registers; the kernel never writes behind the program's back.
check "rseq refused" q mem '
x = [r for r in of("SYSCALL_EXIT") if r["nr"] == 334]
assert all(r["result"] == -38 for r in x)'
finish
