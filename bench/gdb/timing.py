# SPDX-License-Identifier: MIT
# Runs inside gdb (source bench/gdb/timing.py) and times debugger commands
# with wall-clock time. BENCH_MODE=rewind: a replay of longloop with a
# marker() call; BENCH_MODE=record: gdb's `record full` on the same program.
import os
import time

import gdb

MODE = os.environ.get("BENCH_MODE", "rewind")
out = []


def run(cmd):
    return gdb.execute(cmd, to_string=True)


def timed(cmd):
    t = time.time()
    text = run(cmd)
    return time.time() - t, text


def series(cmd, n):
    ts = sorted(timed(cmd)[0] for _ in range(n))
    return ts[len(ts) // 2], ts[-1]


def report(what, value):
    line = "%-44s %s" % (what, value)
    out.append(line)
    print("BENCH " + line, flush=True)


def position():
    w = run("monitor when")
    return int(w.split("instruction ")[1].split(",")[0])


if MODE == "rewind":
    run("break marker")
    dt, _ = timed("continue")
    mark = position()
    report("forward continue to marker()", "%.2f s (to instruction %d)" % (dt, mark))
    run("delete")
    run("break checkpoint")
    run("continue")
    run("delete")
    m, mx = series("reverse-stepi", 30)
    report("reverse-stepi (30 times)", "median %.1f ms, max %.1f ms" % (m * 1e3, mx * 1e3))
    m, mx = series("reverse-next", 10)
    report("reverse-next (10 times)", "median %.1f ms, max %.1f ms" % (m * 1e3, mx * 1e3))
    run("break marker")
    for dist in (10**8, 10**9):
        run("monitor goto %d" % (mark + dist))
        run("maintenance flush register-cache")
        try:
            dt, text = timed("reverse-continue")
            at = position()
            report("reverse-continue across %.0e instructions" % dist,
                   "%.2f s%s" % (dt, "" if at == mark else
                                 " (stopped at %d, not at marker)" % at))
        except gdb.error as e:
            report("reverse-continue across %.0e instructions" % dist,
                   "failed: %s" % e)
    # The memory history: the one write to `marked` and to `near` (in
    # marker()), found from 1e8 and 1e9 instructions later by monitor
    # last-write (the write index passes by the keyframe intervals that
    # left the variable's bytes alone: all of them for `marked`, alone on
    # its page; for `near`, which shares a page with the sink checkpoint()
    # writes every 1e6 iterations, all of them too, by the pages' record of
    # written lines: sink is a line away) and by watch + reverse-continue
    # (which re-runs every interval: gdb keeps a breakpoint of its own
    # inserted, so the index does not serve it).
    run("delete")
    for var in ("marked.v", "near[8]"):
        for dist in (10**8, 10**9):
            run("monitor goto %d" % (mark + dist))
            run("maintenance flush register-cache")
            dt, text = timed('eval "monitor last-write %%p 8", &%s' % var)
            try:
                found = int(text.split("at instruction ")[1].split(" ")[0])
            except IndexError:
                found = None
            report("last-write %s across %.0e instructions" % (var, dist),
                   "%.1f ms (at instruction %s)" % (dt * 1e3, found))
            run("monitor goto %d" % (mark + dist))
            run("maintenance flush register-cache")
            run("watch -l %s" % var)
            what = "watch + reverse-continue %s across %.0e instructions" % (
                var, dist)
            try:
                dt, _ = timed("reverse-continue")
                at = position()
                report(what, "%.2f s%s" % (dt, "" if at == found else
                                           " (stopped at %d, not where "
                                           "last-write said)" % at))
            except gdb.error as e:
                report(what, "failed: %s" % e)
            run("delete")
else:
    run("break checkpoint")
    run("run")          # i == 0
    run("delete")
    run("set record full insn-number-max unlimited")
    run("record full")
    run("break marker")
    dt, _ = timed("continue")
    n = int(run("info record").split("Log contains ")[1].split(" ")[0])
    report("record full: continue, recording",
           "%d instructions in %.1f s (%.0f per s)" % (n, dt, n / dt))
    run("delete")
    m, mx = series("reverse-stepi", 30)
    report("record full: reverse-stepi (30 times)", "median %.2f ms, max %.2f ms" % (m * 1e3, mx * 1e3))
    m, mx = series("reverse-next", 10)
    report("record full: reverse-next (10 times)", "median %.2f ms, max %.2f ms" % (m * 1e3, mx * 1e3))
    run("break checkpoint")
    dt, text = timed("reverse-continue")
    report("record full: reverse-continue across %d instructions" % n,
           "%.2f s%s" % (dt, "" if "checkpoint" in text else " (did not stop)"))
