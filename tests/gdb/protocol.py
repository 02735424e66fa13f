# SPDX-License-Identifier: MIT
# A small GDB remote protocol client that drives `rewind serve --stdio` and
# `rewind replay --listen` byte by byte: the features DESIGN.md section 5
# promises (qSupported, bc/bs, vCont, Z0-Z4, replaylog at both ends, qXfer,
# vFile, threads, qRcmd, no-ack mode) and the robustness ones (malformed,
# bad checksum, oversized, unknown packets, a disconnect mid-packet, ^C, a
# reconnect to --listen). Prints "N passed, N failed"; exit 1 on failure.
# Usage: protocol.py REWIND INVENTORY.rwd LONGLOOP.rwd
import os
import re
import select
import socket
import subprocess
import sys
import time

REWIND, INV, LOOP, LONG = sys.argv[1:5]
passed = failed = 0


def check(name, cond, got=None):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (name, "" if got is None else ": got %r" % (got,)))


def csum(b):
    return b"%02x" % (sum(b) & 0xFF)


def frame(payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return b"$" + payload + b"#" + csum(payload)


class Conn:
    """One connection: a pipe to `rewind serve --stdio` or a socket."""

    def __init__(self, proc=None, sock=None):
        self.proc, self.sock, self.buf, self.noack = proc, sock, b"", False

    def write(self, b):
        if self.sock:
            self.sock.sendall(b)
        else:
            self.proc.stdin.write(b)
            self.proc.stdin.flush()

    def _fd(self):
        return self.sock.fileno() if self.sock else self.proc.stdout.fileno()

    def _more(self, timeout):
        r, _, _ = select.select([self._fd()], [], [], timeout)
        if not r:
            raise TimeoutError("no reply")
        d = os.read(self._fd(), 65536)
        if not d:
            raise EOFError("closed")
        self.buf += d

    def read_ack(self, timeout=10):
        while not self.buf:
            self._more(timeout)
        c, self.buf = self.buf[:1], self.buf[1:]
        return c

    def read_packet(self, timeout=30):
        """The next packet's payload (binary-escaped data left as is)."""
        while True:
            while self.buf[:1] in (b"+", b"-"):
                self.buf = self.buf[1:]
            m = re.match(rb"\$([^#]*)#([0-9a-f]{2})", self.buf, re.S)
            if m:
                self.buf = self.buf[m.end():]
                if not self.noack:
                    self.write(b"+")
                assert csum(m.group(1)) == m.group(2), "bad checksum from stub"
                return m.group(1)
            self._more(timeout)

    def ask(self, payload, timeout=30):
        self.write(frame(payload))
        return self.read_packet(timeout)


def serve(trace):
    p = subprocess.Popen([REWIND, "serve", "--stdio", "-q", trace],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    return Conn(proc=p)


def hexs(s):
    return s.encode().hex()


def tid_of(stop):
    m = re.search(rb"thread:(p[0-9a-f]+\.[0-9a-f]+);", stop)
    return m.group(1).decode() if m else None


# ---- features, in ack mode first ----------------------------------------
c = serve(INV)
c.write(frame("qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+"))
check("ack for a good packet", c.read_ack() == b"+")
sup = c.read_packet()
for f in (b"ReverseContinue+", b"ReverseStep+", b"QStartNoAckMode+",
          b"qXfer:features:read+", b"qXfer:auxv:read+",
          b"qXfer:exec-file:read+", b"vContSupported+", b"swbreak+",
          b"hwbreak+", b"PacketSize="):
    check("qSupported has " + f.decode(), f in sup, sup)
c.write(b"$qC#00")
check("a wrong checksum gets '-'", c.read_ack() == b"-")
check("unknown packet gets the empty reply", c.ask("qFrobnicate") == b"")
check("vMustReplyEmpty", c.ask("vMustReplyEmpty") == b"")
check("malformed m gets an error", c.ask("mzz,4").startswith(b"E"))
check("malformed Z gets an error", c.ask("Z0,xyz").startswith(b"E"))
check("QStartNoAckMode", c.ask("QStartNoAckMode") == b"OK")
c.noack = True
c.write(frame("?"))
time.sleep(0.05)
stop = c.read_packet()
check("no acks in no-ack mode", not c.buf.startswith(b"+"))
check("? is a T05 with thread:", stop.startswith(b"T05") and tid_of(stop), stop)
tid = tid_of(stop)
check("qC names the thread", c.ask("qC") == b"QC" + tid.encode())
check("qfThreadInfo", c.ask("qfThreadInfo") == b"m" + tid.encode())
check("qsThreadInfo", c.ask("qsThreadInfo") == b"l")
check("Hg", c.ask("Hg" + tid) == b"OK")
check("T (alive)", c.ask("T" + tid) == b"OK")
check("T of another thread", c.ask("Tp1.2").startswith(b"E"))
check("qThreadExtraInfo", c.ask("qThreadExtraInfo," + tid) == hexs("inventory").encode())
check("qAttached", c.ask("qAttached") == b"1")
x = c.ask("qXfer:features:read:target.xml:0,3fff")
check("target.xml", x[:1] in b"lm" and b"<target" in x, x[:80])
feats = b""
for name in re.findall(rb'href="([^"]+)"', x) or []:
    feats += c.ask("qXfer:features:read:%s:0,3fff" % name.decode())
allx = x + feats
for reg in (b'name="rax"', b'name="st0"', b'name="xmm0"', b'name="ymm0h"',
            b'name="fs_base"'):
    check("target description has " + reg.decode(), reg in allx)
aux = c.ask("qXfer:auxv:read::0,1000")
check("auxv", aux[:1] == b"l" and len(aux) > 100, aux[:20])
ex = c.ask("qXfer:exec-file:read::0,1000")
check("exec-file", ex.startswith(b"l/") and ex.endswith(b"inventory"), ex)
exe = ex[1:].decode()
check("vFile:setfs", c.ask("vFile:setfs:0") == b"F0")
fd = c.ask("vFile:open:%s,0,0" % hexs(exe))
check("vFile:open", re.fullmatch(rb"F[0-9a-f]+", fd) is not None, fd)
fdn = fd[1:].decode()
rd = c.ask("vFile:pread:%s,40,0" % fdn)
check("vFile:pread gives the ELF header", rd.startswith(b"F40;\x7fELF"), rd[:12])
st = c.ask("vFile:fstat:" + fdn)
check("vFile:fstat", st.startswith(b"F40;"), st[:8])
check("vFile:close", c.ask("vFile:close:" + fdn) == b"F0")
check("vFile:close twice", c.ask("vFile:close:" + fdn) == b"F-1,9")
check("vFile:open of a missing file",
      c.ask("vFile:open:%s,0,0" % hexs("/no/such/file")) == b"F-1,2")
ld = c.ask("vFile:open:%s,0,0" % hexs("/lib64/ld-linux-x86-64.so.2"))
check("vFile:open finds the loader by its link name", ld.startswith(b"F") and b"-" not in ld, ld)
check("vFile:open for writing is refused",
      c.ask("vFile:open:%s,1,0" % hexs(exe)).startswith(b"F-1,"))
pid = int(tid.split(".")[0][1:], 16)
rl = c.ask("vFile:readlink:%s" % hexs("/proc/%d/exe" % pid))
check("vFile:readlink /proc/PID/exe", rl.endswith(exe.encode()), rl)
g = c.ask("g")
check("g", re.fullmatch(rb"[0-9a-fx]+", g) is not None and len(g) > 1000, len(g))
check("p 10 (rip)", len(c.ask("p10")) == 16)
# Writes go to a diversion (gdbstub/serve_divert.c), a copy of this
# moment: they read back, and are put back before the replay moves.
rax0 = c.ask("p0")
check("P sets a register", c.ask("P0=1122334455667788") == b"OK")
check("p reads what P set", c.ask("p0") == b"1122334455667788")
g0 = c.ask("g")
check("G of rax alone", c.ask("G" + "00" * 8) == b"OK" and
      c.ask("p0") == b"00" * 8)
check("G of every register", c.ask("G" + g0.decode()) == b"OK" and
      c.ask("g") == g0)
check("G longer than the registers is an error",
      c.ask("G" + g0.decode() + "00").startswith(b"E"))
check("P of an unknown register is an error",
      c.ask("P999=00").startswith(b"E"))
check("P puts it back", c.ask("P0=" + rax0.decode()) == b"OK" and
      c.ask("p0") == rax0)
sp = int.from_bytes(bytes.fromhex(c.ask("p7").decode()), "little")
m0 = c.ask("m%x,8" % sp)
check("M writes memory", c.ask("M%x,8:%s" % (sp, "ab" * 8)) == b"OK" and
      c.ask("m%x,8" % sp) == b"ab" * 8)
check("X writes memory", c.ask("X%x,0:" % sp) == b"OK")
check("M puts it back", c.ask("M%x,8:%s" % (sp, m0.decode())) == b"OK" and
      c.ask("m%x,8" % sp) == m0)
check("M of unmapped memory is an error", c.ask("M10,1:00").startswith(b"E"))
check("vRun refused", c.ask("vRun;").startswith(b"E."))
check("vKill refused", c.ask("vKill;%x" % pid).startswith(b"E."))
rsp = int.from_bytes(bytes.fromhex(c.ask("p7").decode()), "little")
m = c.ask("m%x,10" % rsp)
check("m reads the stack", len(m) == 32, m)
m = c.ask("m%x,2000" % ((rsp | 0xfff) - 0xf))
check("m returns the readable prefix", 0 < len(m) < 0x4000 and len(m) % 2 == 0, len(m))
check("m of unmapped memory is an error", c.ask("m10,8").startswith(b"E"))
w = c.ask("qRcmd," + hexs("when"))
check("monitor when", bytes.fromhex(w.decode()).startswith(b"at instruction 0,"), w)
h = bytes.fromhex(c.ask("qRcmd," + hexs("help")).decode())
check("monitor help", b"monitor goto N" in h, h)
check("vCont?", c.ask("vCont?").startswith(b"vCont;c;C;s;S"))
# The beginning of the history, both ways back.
s = c.ask("bs")
check("bs at the start: replaylog:begin", b"replaylog:begin" in s, s)
s = c.ask("bc")
check("bc at the start: replaylog:begin", b"replaylog:begin" in s, s)
# Steps forward and back, per thread.
rip0 = c.ask("p10")
s = c.ask("vCont;s:%s" % tid)
check("vCont;s steps", s.startswith(b"T05") and c.ask("p10") != rip0, s)
s = c.ask("bs")
check("bs steps back", s.startswith(b"T05") and c.ask("p10") == rip0, s)
w = bytes.fromhex(c.ask("qRcmd," + hexs("when")).decode())
check("back at instruction 0", w.startswith(b"at instruction 0,"), w)
# Breakpoints: a software one at the entry found in auxv (AT_ENTRY = 9).
raw = aux[1:].replace(b"}\x03", b"#").replace(b"}\x04", b"$").replace(b"}]", b"}").replace(b"}\x0a", b"*")
entry = 0
for i in range(0, len(raw) - 15, 16):
    if int.from_bytes(raw[i:i + 8], "little") == 9:
        entry = int.from_bytes(raw[i + 8:i + 16], "little")
check("AT_ENTRY in auxv", entry != 0)
check("Z0", c.ask("Z0,%x,1" % entry) == b"OK")
s = c.ask("vCont;c")
check("continue to a Z0 breakpoint: swbreak", b"swbreak:" in s and c.ask("p10") == entry.to_bytes(8, "little").hex().encode(), s)
check("z0", c.ask("z0,%x,1" % entry) == b"OK")
check("Z1", c.ask("Z1,%x,1" % entry) == b"OK")
s = c.ask("bc")
check("reverse to nothing earlier: replaylog:begin", b"replaylog:begin" in s, s)
s = c.ask("c")
check("continue to a Z1 breakpoint: hwbreak", b"hwbreak:" in s, s)
check("z1", c.ask("z1,%x,1" % entry) == b"OK")
# Watchpoints both ways: _start pops argc (a read), then calls (writes
# below the stack pointer).
sp = int.from_bytes(bytes.fromhex(c.ask("p7").decode()), "little")
check("Z3", c.ask("Z3,%x,8" % sp) == b"OK")
s = c.ask("c")
check("a read watchpoint", b"rwatch:%x;" % sp in s, s)
check("z3", c.ask("z3,%x,8" % sp) == b"OK")
check("Z2", c.ask("Z2,%x,8" % (sp - 8)) == b"OK")
s = c.ask("c")
check("a write watchpoint triggers forwards", b"watch:" in s, s)
at = bytes.fromhex(c.ask("qRcmd," + hexs("when")).decode())
s = c.ask("bc")
check("and backwards, before the write", b"watch:" in s, s)
back = bytes.fromhex(c.ask("qRcmd," + hexs("when")).decode())
n1 = int(re.search(rb"instruction (\d+)", at).group(1))
n2 = int(re.search(rb"instruction (\d+)", back).group(1))
check("the reverse stop is one instruction before", n2 == n1 - 1, (n1, n2))
check("z2", c.ask("z2,%x,8" % (sp - 8)) == b"OK")
check("Z4", c.ask("Z4,%x,8" % (sp - 8)) == b"OK")
s = c.ask("bc")
check("an access watchpoint backwards", b"awatch:" in s, s)
check("z4", c.ask("z4,%x,8" % (sp - 8)) == b"OK")
s = c.ask("c")
check("continue to the end: replaylog:end", b"replaylog:end" in s, s)
s = c.ask("vCont;s:%s" % tid)
check("step at the end: replaylog:end", b"replaylog:end" in s, s)
check("still answering after the end", c.ask("qC").startswith(b"QC"))
w = c.ask("qRcmd," + hexs("goto 5"))
check("monitor goto", b"now at instruction 5," in bytes.fromhex(w.decode()), w)
# Oversized and odd input, then a disconnect in the middle of a packet.
c.write(frame(b"q" * 20000))
s = c.read_packet()
check("an oversized packet gets an error", s.startswith(b"E"), s[:40])
c.write(b"\x03garbage#zz")
check("still answering after noise", c.ask("qC").startswith(b"QC"))
check("D detaches", c.ask("D;%x" % pid) == b"OK")
c.proc.wait(timeout=10)
check("serve exits 0 after D", c.proc.returncode == 0, c.proc.returncode)

c = serve(INV)
c.write(b"$m1234,")
c.proc.stdin.close()
rc = c.proc.wait(timeout=10)
err = c.proc.stderr.read()
check("a disconnect mid-packet is a clean close", rc == 0 and not err, (rc, err))

# ^C interrupts a long run: the longest loop (1.9e9 instructions; the
# translator runs the short one in well under the 0.3 s below), without
# breakpoints.
c = serve(LONG)
c.ask("QStartNoAckMode")
c.noack = True
c.write(frame("c"))
time.sleep(0.3)
c.write(b"\x03")
t0 = time.time()
s = c.read_packet(timeout=30)
check("^C stops a long continue with SIGINT", s.startswith(b"T02"), s)
check("promptly", time.time() - t0 < 2.0, time.time() - t0)
c.write(frame("bc"))
time.sleep(0.1)
c.write(b"\x03")
s = c.read_packet(timeout=60)
check("^C or the start ends a reverse-continue", s.startswith(b"T02") or b"replaylog:begin" in s, s)
c.proc.stdin.close()
c.proc.wait(timeout=10)

# --listen: a client, a disconnect mid-packet, the next client.
p = subprocess.Popen([REWIND, "replay", "--listen", "127.0.0.1:0", INV],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
line = p.stdout.readline().decode()
m = re.search(r"target remote (127\.0\.0\.1):(\d+)", line)
check("--listen prints the target remote command", m is not None, line)
if m:
    port = int(m.group(2))
    for i in range(2):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        cc = Conn(sock=s)
        check("client %d is served" % (i + 1), cc.ask("qC").startswith(b"QC"))
        s.sendall(b"$qSupp")
        s.close()
    q = subprocess.run([REWIND, "replay", "--listen", "127.0.0.1:%d" % port, INV],
                       capture_output=True, timeout=30)
    check("a port in use is a clear error",
          q.returncode != 0 and b"in use" in q.stderr, q.stderr)
p.terminate()
p.wait(timeout=10)

# --listen with a short --idle-timeout: a second gdb is told the replay is
# busy, a silent gdb is let go, and the next one is served.
p = subprocess.Popen([REWIND, "serve", "--listen", "127.0.0.1:0",
                      "--idle-timeout", "2", INV],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
line = p.stdout.readline().decode()
m = re.search(r"target remote (127\.0\.0\.1):(\d+)", line)
check("--idle-timeout: listening", m is not None, line)
if m:
    port = int(m.group(2))
    s1 = socket.create_connection(("127.0.0.1", port), timeout=10)
    c1 = Conn(sock=s1)
    check("the first gdb is served", c1.ask("qC").startswith(b"QC"))
    s2 = socket.create_connection(("127.0.0.1", port), timeout=10)
    c2 = Conn(sock=s2)
    r = c2.ask("qSupported", timeout=10)
    check("a second gdb is told the replay is busy",
          r.startswith(b"E.") and b"busy" in r, r)
    s2.close()
    t0 = time.time()
    try:
        c1._more(10)
        closed = False
    except EOFError:
        closed = True
    check("a silent gdb is let go after --idle-timeout",
          closed and time.time() - t0 < 8, time.time() - t0)
    s1.close()
    s3 = socket.create_connection(("127.0.0.1", port), timeout=10)
    check("then the next gdb is served", Conn(sock=s3).ask("qC").startswith(b"QC"))
    s3.close()
p.terminate()
out, err = p.communicate(timeout=10)
check("the server says why it let a gdb go",
      b"sent nothing for 2 s" in err and b"busy" in err, err)

# A `monitor goto` that gdb gives up on (its user's ^C makes it send its
# next packet instead of waiting): the move stops, the abandoned reply is
# never sent, and the next packet gets its own answer.
c = serve(LONG)
c.ask("qSupported")
c.write(frame("qRcmd," + hexs("goto 100000000000")))
time.sleep(1.5)
c.buf = b""
r = c.ask("qRcmd," + hexs("when"), timeout=30)
while r == b"O":  # keep-alive packets sent before the stub saw the new one
    r = c.read_packet(timeout=30)
text = bytes.fromhex(r.decode()).decode() if re.fullmatch(rb"[0-9a-f]+", r) else ""
check("an abandoned goto stops; the next command gets its own reply",
      text.startswith("at instruction "), r)
n = int(re.search(r"at instruction (\d+)", text).group(1)) if text else -1
check("the goto stopped on the way", 0 < n < 100000000000, n)
c.proc.stdin.close()
c.proc.wait(timeout=10)
q = subprocess.run([REWIND, "serve", "--stdio", "/no/such.rwd"],
                   capture_output=True, timeout=30)
check("a bad trace is a clear error", q.returncode == 1 and b"cannot replay" in q.stderr, q.stderr)
env = dict(os.environ, REWIND_GDB="/no/such/gdb")
q = subprocess.run([REWIND, "replay", INV], capture_output=True, env=env, timeout=30)
check("a missing gdb names the package", q.returncode != 0 and b"apt install gdb" in q.stderr, q.stderr)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
