# SPDX-License-Identifier: MIT
# Drives gdb through its MI interpreter the way an IDE does (VS Code's cpptools,
# CLion) on a replay of examples/inventory, and checks gdb's MI answers:
# the launch sequence cpptools sends for a remote target, the target
# features (reverse must be there), breakpoints, stack and variables, and
# the reverse forms of continue, next, step and finish, with breakpoints and
# watchpoints triggering backwards.
#
# Usage: mi.py tcp|pipe GDB REWIND PROGRAM TRACE TRANSCRIPT [INTERPRETER]
#   tcp:  starts `rewind replay --listen 127.0.0.1:0 TRACE`, reads the
#         address it picked and sends `-target-select remote HOST:PORT`
#         (what cpptools sends for "miDebuggerServerAddress");
#   pipe: sends `-target-select remote | REWIND serve --stdio TRACE`
#         (what a "customLaunchSetupCommands" entry sends).
# INTERPRETER is gdb's --interpreter: "mi" (the newest, what cpptools
# starts; mi3 with gdb 13) by default, or mi2.
# Prints "ok: ..." and "FAIL: ..." lines and "N passed, N failed"; exits 1
# when a check failed. Every wait is bounded. The whole MI exchange goes to
# TRANSCRIPT ("> " for what was sent, "< " for what gdb answered).
import queue
import re
import subprocess
import sys
import threading
import time

VARIANT, GDB, REWIND, PROGRAM, TRACE, TRANSCRIPT = sys.argv[1:7]
INTERPRETER = sys.argv[7] if len(sys.argv) > 7 else "mi"
passed = failed = 0


def check(name, cond, got=None):
    global passed, failed
    if cond:
        passed += 1
        print("ok: %s: %s" % (VARIANT, name))
    else:
        failed += 1
        print("FAIL: %s: %s%s" % (VARIANT, name, "" if got is None else "\n    got: %r" % (got,)))
    return cond


# --- GDB/MI output syntax: results, tuples, lists, C strings -------------

def parse_cstring(s, i):
    """s[i] is the opening quote; returns (text, index after the closing quote)."""
    out, i = [], i + 1
    esc = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while s[i] != '"':
        if s[i] == "\\":
            i += 1
            out.append(esc.get(s[i], s[i]))
        else:
            out.append(s[i])
        i += 1
    return "".join(out), i + 1


def parse_value(s, i):
    if s[i] == '"':
        return parse_cstring(s, i)
    if s[i] == "{":
        d, i = parse_results(s, i + 1, "}")
        return d, i
    if s[i] == "[":
        i += 1
        items = []
        while s[i] != "]":
            if s[i] in '"{[':
                v, i = parse_value(s, i)
            else:  # a result in a list: name=value; keep the value
                eq = s.index("=", i)
                v, i = parse_value(s, eq + 1)
            items.append(v)
            if s[i] == ",":
                i += 1
        return items, i + 1
    raise ValueError("bad MI value at %d: %r" % (i, s[i:i + 20]))


def parse_results(s, i, end=None):
    """name=value,... up to `end` (or the end of s); returns (dict, index)."""
    d = {}
    while i < len(s) and s[i] != end:
        eq = s.index("=", i)
        name = s[i:eq]
        d[name], i = parse_value(s, eq + 1)
        if i < len(s) and s[i] == ",":
            i += 1
    return d, (i + 1 if end else i)


class Record:
    """One line of MI output: kind is ^ * = ~ & @; cls is done, running,
    stopped, ...; res holds the results as dicts and lists."""

    def __init__(self, line):
        m = re.match(r"(\d*)([\^*=~&@])(.*)", line)
        self.line, self.token, self.kind = line, m.group(1), m.group(2)
        rest = m.group(3)
        if self.kind in "~&@":
            self.cls, self.res = "stream", {"text": parse_cstring(rest, 0)[0]}
        else:
            self.cls, _, args = rest.partition(",")
            self.res = parse_results(args, 0)[0] if args else {}

    def __repr__(self):
        return self.line


class Gdb:
    def __init__(self, argv):
        self.log = open(TRANSCRIPT, "a")
        self.log.write("=== %s: %s\n" % (VARIANT, " ".join(argv)))
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.token = 0
        self.events = []  # async and stream records since the last command
        self.stops = []  # *stopped records not yet waited for
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _next(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer from gdb in time")
        try:
            line = self.lines.get(timeout=left)
        except queue.Empty:
            raise TimeoutError("no answer from gdb in time")
        if line is None:
            raise EOFError("gdb exited")
        self.log.write("< %s\n" % line)
        self.log.flush()
        return line

    def cmd(self, text, timeout=30):
        """Sends one MI command; returns its result record (^done, ^running,
        ^connected, ^error, ^exit). Async and stream records that come before
        it are kept in self.events."""
        self.token += 1
        self.events, self.stops = [], []
        self.log.write("> %d%s\n" % (self.token, text))
        self.log.flush()
        self.proc.stdin.write("%d%s\n" % (self.token, text))
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while True:
            line = self._next(deadline)
            if line.startswith("(gdb)") or not line:
                continue
            if not re.match(r"\d*[\^*=~&@]", line):  # the program's own output
                continue
            r = Record(line)
            if r.kind == "^" and r.token == str(self.token):
                return r
            (self.stops if r.cls == "stopped" else self.events).append(r)

    def stopped(self, timeout=120):
        """The next *stopped record (perhaps one that came with the last
        command's answer)."""
        if self.stops:
            return self.stops.pop(0)
        deadline = time.monotonic() + timeout
        while True:
            line = self._next(deadline)
            if re.match(r"\d*[\^*=~&@]", line):
                r = Record(line)
                if r.kind == "*" and r.cls == "stopped":
                    return r
                self.events.append(r)

    def console(self, kinds="~"):
        """What gdb printed since the last command on its console stream
        (~), or on the target stream (@: what monitor commands print)."""
        return "".join(r.res["text"] for r in self.events if r.kind in kinds)

    def run(self, text, timeout=120):
        """An execution command: expects ^running, then waits for *stopped.
        Returns the *stopped record, or the unexpected result record."""
        r = self.cmd(text)
        if r.cls != "running":
            return r
        return self.stopped(timeout)

    def close(self):
        try:
            if self.proc.poll() is None:
                self.cmd("-gdb-exit", timeout=10)
        except (TimeoutError, EOFError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def frame_of(rec):
    return rec.res.get("frame", {}) if isinstance(rec, Record) else {}


def where(rec):
    """(reason, function, line) of a *stopped record, for checks and messages."""
    f = frame_of(rec)
    return (rec.res.get("reason", "") if rec.cls == "stopped" else rec.cls,
            f.get("func", ""), int(f.get("line", "0")))


def at(rec, reason, func, line=None):
    r, f, n = where(rec)
    return r == reason and (f == func or re.fullmatch(func, f) is not None) and \
        (line is None or n == line)


# --- the server -----------------------------------------------------------

server = None
if VARIANT == "tcp":
    # `rewind replay --listen 127.0.0.1:0` picks a free port and says which:
    # "rewind: serving T on 127.0.0.1:PORT; in gdb: target remote ..."
    server = subprocess.Popen([REWIND, "replay", "--listen", "127.0.0.1:0", TRACE],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line, box = "", []
    t = threading.Thread(target=lambda: box.append(server.stdout.readline()), daemon=True)
    t.start()
    t.join(60)
    line = box[0] if box else ""
    m = re.search(r"serving .* on (127\.0\.0\.1):(\d+)", line)
    if not check("rewind replay --listen prints the address it serves on", m, line):
        server.kill()
        print("%d passed, %d failed" % (passed, failed))
        sys.exit(1)
    target = "%s:%s" % (m.group(1), m.group(2))
else:
    target = "| %s serve --stdio -q %s" % (REWIND, TRACE)

g = Gdb([GDB, "-nx", "-q", "--interpreter=" + INTERPRETER])
try:
    # --- the launch sequence cpptools sends (MIEngine, DebuggedProcess.cs):
    # async mode, then the "setupCommands" and its own settings.
    r = g.cmd("-gdb-set mi-async on")
    if r.cls == "error":
        r = g.cmd("-gdb-set target-async on")
    check("-gdb-set mi-async on", r.cls == "done", r)
    r = g.cmd('-interpreter-exec console "set pagination off"')
    check("set pagination off", r.cls == "done", r)
    g.cmd('-interpreter-exec console "set debuginfod enabled off"')  # cpptools ignores failure
    check("-gdb-set auto-solib-add on", g.cmd("-gdb-set auto-solib-add on").cls == "done")
    if VARIANT == "tcp":
        # With "miDebuggerServerAddress": the program's symbols, a
        # breakpoint on main, then the connection.
        r = g.cmd("-file-exec-and-symbols %s" % PROGRAM)
        check("-file-exec-and-symbols", r.cls == "done", r)
        r = g.cmd('-interpreter-exec console "show architecture"')
        check("show architecture", r.cls == "done" and "x86-64" in g.console(), g.console())
        r = g.cmd("-break-insert -f main")
        check("-break-insert -f main", r.cls == "done" and "bkpt" in r.res, r)
        main_bp = r.res.get("bkpt", {}).get("number", "1")
    # With "customLaunchSetupCommands" they replace all that: only the
    # connection, and gdb reads the program from the trace; the editor's
    # breakpoints come after it.
    r = g.cmd("-target-select remote %s" % target, timeout=60)
    check("-target-select remote connects", r.cls == "connected", r)
    s = g.stopped(30)
    check("the replay stops at the program's first instruction on connect",
          s.cls == "stopped" and "reason" not in s.res and
          frame_of(s).get("func") == "_start", s)
    if VARIANT == "pipe":
        r = g.cmd("-break-insert -f main")
        check("-break-insert -f main, symbols read from the trace",
              r.cls == "done" and r.res.get("bkpt", {}).get("line") == "40", r)
        main_bp = r.res.get("bkpt", {}).get("number", "1")

    # cpptools' reverse support (MIEngine pull request 1037) runs
    # -list-target-features and offers step back when "reverse" is listed.
    r = g.cmd("-list-target-features")
    check("-list-target-features reports reverse",
          r.cls == "done" and "reverse" in r.res.get("features", []), r)
    check("-list-target-features reports async",
          "async" in r.res.get("features", []), r)

    # Not at main's source line, so cpptools continues to its breakpoint.
    s = g.run("-exec-continue")
    check("-exec-continue hits the breakpoint on main", at(s, "breakpoint-hit", "main", 40), s)
    check("the stop names the breakpoint", s.res.get("bkptno") == main_bp, s)
    fullname = frame_of(s).get("fullname", "")
    check("the frame has the source file's full name", fullname.endswith("inventory.c"), s)
    check("-break-delete (cpptools clears its entry breakpoint)",
          g.cmd("-break-delete %s" % main_bp).cls == "done")

    # What the UI asks at each stop.
    r = g.cmd("-thread-info")
    check("-thread-info lists one thread",
          r.cls == "done" and len(r.res.get("threads", [])) == 1 and
          r.res.get("current-thread-id") == "1", r)
    r = g.cmd("-stack-list-frames --thread 1 0 1000")
    fr = r.res.get("stack", [])
    check("-stack-list-frames: main at line 40",
          r.cls == "done" and fr and fr[0].get("func") == "main" and fr[0].get("line") == "40", r)

    # --- next and reverse next (cpptools adds --thread and --frame; the
    # reverse form puts --reverse after them, where gdb looks for it).
    s = g.run("-exec-next --thread 1 --frame 0")
    check("-exec-next: line 41", at(s, "end-stepping-range", "main", 41), s)
    s = g.run("-exec-next --thread 1 --frame 0")
    check("-exec-next: line 42", at(s, "end-stepping-range", "main", 42), s)
    g.run("-exec-next --thread 1 --frame 0")
    s = g.run("-exec-next --thread 1 --frame 0")
    check("-exec-next: line 44", at(s, "end-stepping-range", "main", 44), s)
    s = g.run("-exec-next --thread 1 --frame 0 --reverse")
    check("-exec-next --reverse goes back a line: 43", at(s, "end-stepping-range", "main", 43), s)
    r = g.cmd("-stack-list-frames --thread 1 0 1000")
    fr = r.res.get("stack", [{}])
    check("-stack-list-frames after reverse-next: line 43",
          r.cls == "done" and fr[0].get("line") == "43", r)
    # What the Debug Console sends for "-exec reverse-next" (it works with
    # every cpptools version, reverse buttons or not).
    s = g.run('-interpreter-exec console "reverse-next"')
    check('console "reverse-next": line 42', at(s, "end-stepping-range", "main", 42), s)

    # --- step and reverse step
    s = g.run("-exec-step --thread 1 --frame 0")
    check("-exec-step into add_item, line 23", at(s, "end-stepping-range", "add_item", 23), s)
    r = g.cmd("-stack-list-variables --thread 1 --frame 0 --simple-values")
    vs = {v.get("name"): v for v in r.res.get("variables", [])}
    check("-stack-list-variables: label, stock and it",
          r.cls == "done" and set(vs) == {"label", "stock", "it"}, r)
    check("-stack-list-variables: stock = 120 and label \"bolts\"",
          vs.get("stock", {}).get("value") == "120" and
          '"bolts"' in vs.get("label", {}).get("value", ""), r)
    r = g.cmd("-stack-list-frames --thread 1 0 1000")
    fr = r.res.get("stack", [])
    check("-stack-list-frames: add_item called from main line 42",
          len(fr) >= 2 and fr[0].get("func") == "add_item" and
          fr[1].get("func") == "main" and fr[1].get("line") == "42", r)
    s = g.run("-exec-step --thread 1 --frame 0 --reverse")
    check("-exec-step --reverse back out to main, line 42", at(s, "end-stepping-range", "main", 42), s)

    # --- finish and reverse finish
    g.run("-exec-step --thread 1 --frame 0")
    s = g.run("-exec-next --thread 1 --frame 0")
    check("in add_item at line 24", at(s, "end-stepping-range", "add_item", 24), s)
    s = g.run("-exec-finish --thread 1 --frame 0 --reverse")
    r, f, n = where(s)
    check("-exec-finish --reverse returns to the call in main, line 42",
          s.cls == "stopped" and f == "main" and n == 42, s)
    g.run("-exec-step --thread 1 --frame 0")
    s = g.run("-exec-finish --thread 1 --frame 0")
    check("-exec-finish forwards: function-finished in main",
          at(s, "function-finished", "main"), s)

    # --- breakpoints both ways; the start of the history
    r = g.cmd("-break-insert -f %s:45" % fullname)
    line_bp = r.res.get("bkpt", {}).get("number")
    check("-break-insert FILE:45", r.cls == "done" and line_bp, r)
    r = g.cmd("-break-insert -f add_item")
    item_bp = r.res.get("bkpt", {}).get("number")
    check("-break-insert -f add_item", r.cls == "done" and item_bp, r)
    for label, stock in (("nuts", "300"), ("washers", "75")):
        s = g.run("-exec-continue")
        args = {a.get("name"): a.get("value", "") for a in frame_of(s).get("args", [])}
        check('-exec-continue: add_item ("%s", %s)' % (label, stock),
              at(s, "breakpoint-hit", "add_item", 23) and s.res.get("bkptno") == item_bp and
              '"%s"' % label in args.get("label", "") and args.get("stock") == stock, s)
    s = g.run("-exec-continue")
    check("-exec-continue: line 45", at(s, "breakpoint-hit", "main", 45), s)
    check("  its breakpoint number", s.res.get("bkptno") == line_bp, s)
    s = g.run("-exec-continue --reverse")
    check("-exec-continue --reverse stops at the earlier breakpoint, add_item",
          at(s, "breakpoint-hit", "add_item", 23) and s.res.get("bkptno") == item_bp, s)
    r = g.cmd("-stack-list-variables --thread 1 --frame 0 --simple-values")
    vs = {v.get("name"): v.get("value", "") for v in r.res.get("variables", [])}
    check("  in the third call (\"washers\", 75)",
          vs.get("stock") == "75" and '"washers"' in vs.get("label", ""), r)
    check("-break-delete add_item", g.cmd("-break-delete %s" % item_bp).cls == "done")
    s = g.run("-exec-continue --reverse")
    # gdb 13.1 prints "No more reverse-execution history." on the console
    # stream and a *stopped with no reason at all, for rewind as for its own
    # "record full" target; gdb versions that add reason="no-history" pass too.
    check("-exec-continue --reverse to the start of the history",
          s.cls == "stopped" and (s.res.get("reason") == "no-history" or
                                  ("reason" not in s.res and
                                   "No more reverse-execution history" in g.console())),
          [s, g.console()])
    r = g.cmd("-stack-list-frames --thread 1 0 1000")
    fr = r.res.get("stack", [{}])
    check("  at _start", r.cls == "done" and fr[0].get("func") == "_start", r)
    s = g.run("-exec-continue")
    check("-exec-continue after the start of history: line 45 again",
          at(s, "breakpoint-hit", "main", 45), s)

    # --- watchpoints backwards: the seeded bug (shelf[1].stock overwritten
    # by the strcpy in relabel). cpptools' data breakpoints send
    # -break-watch *(int*)(ADDRESS).
    check("-break-delete FILE:45", g.cmd("-break-delete %s" % line_bp).cls == "done")
    r = g.cmd("-break-insert -f %s:47" % fullname)
    check("-break-insert FILE:47", r.cls == "done", r)
    s = g.run("-exec-continue")
    check("-exec-continue: line 47", at(s, "breakpoint-hit", "main", 47), s)
    r = g.cmd("-data-evaluate-expression shelf[1].stock")
    check("-data-evaluate-expression shelf[1].stock is corrupted",
          r.res.get("value") == "1852406304", r)
    r = g.cmd("-data-evaluate-expression &shelf[1].stock")
    m = re.search(r"0x[0-9a-f]+", r.res.get("value", ""))
    check("-data-evaluate-expression &shelf[1].stock", m, r)
    addr = m.group(0) if m else "0"
    r = g.cmd("-break-watch *(int*)(%s)" % addr)
    wp = r.res.get("wpt", {}).get("number")
    check("-break-watch *(int*)(ADDRESS)", r.cls == "done" and wp, r)
    s = g.run("-exec-continue --reverse")
    check('-exec-continue --reverse: reason="watchpoint-trigger"',
          s.cls == "stopped" and s.res.get("reason") == "watchpoint-trigger" and
          s.res.get("wpt", {}).get("number") == wp, s)
    check("  old value (after the write) 1852406304",
          s.res.get("value", {}).get("old") == "1852406304", s)
    check("  new value (before the write) is not",
          s.res.get("value", {}).get("new") not in (None, "1852406304"), s)
    r = g.cmd("-stack-list-frames --thread 1 0 1000")
    fr = r.res.get("stack", [])
    check("  the write is the strcpy called by relabel at line 30",
          any(f.get("func") == "relabel" and f.get("line") == "30" for f in fr), r)
    s = g.run("-exec-continue")
    check("-exec-continue forwards triggers it again: new value 1852406304",
          s.cls == "stopped" and s.res.get("reason") == "watchpoint-trigger" and
          s.res.get("value", {}).get("new") == "1852406304", s)
    # Going back further: strcpy's other stores into those four bytes, then
    # the store of 300 in add_item.
    for _ in range(8):
        s = g.run("-exec-continue --reverse")
        if s.res.get("reason") != "watchpoint-trigger" or frame_of(s).get("func") == "add_item":
            break
    check("-exec-continue --reverse again: the first write, in add_item",
          s.cls == "stopped" and s.res.get("reason") == "watchpoint-trigger" and
          frame_of(s).get("func") == "add_item" and
          s.res.get("value", {}).get("old") == "300", s)

    # --- the Debug Console's monitor commands
    r = g.cmd('-interpreter-exec console "monitor when"')
    check('console "monitor when" prints the position',
          r.cls == "done" and re.search(r"at instruction \d+", g.console("~@")), g.console("~@"))
except (TimeoutError, EOFError, OSError, ValueError, IndexError, KeyError) as e:
    check("the MI session ran to its end", False, "%s: %s" % (type(e).__name__, e))
finally:
    g.close()
    if server:
        check("rewind replay --listen was still serving at the end", server.poll() is None,
              server.poll())
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

print("%d passed, %d failed" % (passed, failed))
sys.exit(0 if failed == 0 else 1)
