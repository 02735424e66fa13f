#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A corrupted-trace campaign (issue 21): damages copies of a real trace
in N random ways and checks that `rewind info --check` and `rewind replay
--verify` never crash, never hang, and never take a damaged trace for a
whole one.

    campaign.py REWIND RW_EDIT TRACE N [SEED]

The damage, one per copy, in turn:
  raw    one byte of the file changed, checksums left as they are
  drop   a chunk left out, checksums and index made to agree (rw_edit)
  dup    a RECORDS chunk written twice, likewise (a BLOB piece written
         twice is redundant, not damage)
  blob   a byte of a file's content changed, likewise
  meta   a byte of a META chunk changed, likewise
  record a byte of a record's payload changed, likewise: the trace is then
         well formed but says something else; no verdict is required of
         it, only no crash and no hang (its outcomes are counted)
Every damaged copy of the first five kinds must make `info --check` exit
non-zero and `replay --verify` exit non-zero. Prints one line per failure
and a summary; exits 1 when anything failed. Copies that fail are kept in
./campaign-failures/.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

REWIND, EDIT, TRACE = sys.argv[1:4]
N = int(sys.argv[4])
SEED = int(sys.argv[5]) if len(sys.argv) > 5 else random.randrange(1 << 30)
rng = random.Random(SEED)
work = tempfile.mkdtemp(prefix="rw-campaign.")
CHECK_TIMEOUT, VERIFY_TIMEOUT = 120, 300


def chunks():
    out = subprocess.run([EDIT, TRACE, "list"], capture_output=True,
                         text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        k, typ, tid, s0, s1, raw, off = line.split()
        rows.append((int(k), typ, int(raw), int(off)))
    return rows


CHUNKS = chunks()
SIZE = os.path.getsize(TRACE)
BLOB_PREFIX = 34 + 4096  # hash, name length, a name: past it is content


def run(args, timeout):
    """(status, stderr); status 'hang' or 'crash' when it did either."""
    try:
        p = subprocess.run(args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", b""
    err = p.stderr
    if p.returncode < 0 or p.returncode >= 128 or \
            b"AddressSanitizer" in err or b"runtime error:" in err:
        return "crash", err
    return p.returncode, err


def make(kind, path):
    """Writes a damaged copy of TRACE to PATH; returns what was done."""
    def pick(types):
        c = [r for r in CHUNKS if r[1] in types]
        return rng.choice(c) if c else None
    if kind == "raw":
        data = bytearray(open(TRACE, "rb").read())
        at = rng.randrange(len(data))
        data[at] ^= rng.randrange(1, 256)
        open(path, "wb").write(data)
        return "byte %d" % at
    if kind == "drop":
        k = rng.choice(CHUNKS)
        args, what = ["drop", str(k[0])], "drop chunk %d (%s)" % (k[0], k[1])
    elif kind == "dup":
        k = pick(("RECORDS",))
        args, what = ["dup", str(k[0])], "dup chunk %d (%s)" % (k[0], k[1])
    else:
        types = {"blob": ("BLOB",), "meta": ("META",),
                 "record": ("RECORDS",)}[kind]
        k = pick(types)
        lo = 0
        if kind == "blob":
            k = pick(types) if k[2] > BLOB_PREFIX else k
            big = [r for r in CHUNKS if r[1] == "BLOB" and r[2] > BLOB_PREFIX + 1]
            if big:
                k = rng.choice(big)
                lo = BLOB_PREFIX
        at = rng.randrange(lo, k[2])
        x = rng.randrange(1, 256)
        args = ["flip", str(k[0]), str(at), str(x)]
        what = "flip byte %d of chunk %d (%s) ^ %#x" % (at, k[0], k[1], x)
    p = subprocess.run([EDIT, TRACE, path] + args, capture_output=True)
    if p.returncode:
        return None
    return what


KINDS = ["raw", "drop", "dup", "blob", "meta", "record"]
counts = {}
failures = 0
outcomes = {}
for i in range(N):
    kind = KINDS[i % len(KINDS)]
    path = os.path.join(work, "t%d.rwd" % i)
    what = make(kind, path)
    if what is None:
        continue
    counts[kind] = counts.get(kind, 0) + 1
    cs, cerr = run([REWIND, "info", "--check", path], CHECK_TIMEOUT)
    vs, verr = run([REWIND, "replay", "--verify", "--no-progress", "-q", path],
                   VERIFY_TIMEOUT)
    key = (kind, cs, vs)
    outcomes[key] = outcomes.get(key, 0) + 1
    bad = []
    if cs in ("hang", "crash"):
        bad.append("info --check: %s" % cs)
    if vs in ("hang", "crash"):
        bad.append("replay --verify: %s" % vs)
    if kind != "record":
        if cs == 0:
            bad.append("info --check says whole")
        if vs == 0:
            bad.append("replay --verify says verified")
    if bad:
        failures += 1
        os.makedirs("campaign-failures", exist_ok=True)
        shutil.copy(path, "campaign-failures/%d-%s.rwd" % (i, kind))
        print("FAIL: %d %s (%s): %s" % (i, kind, what, "; ".join(bad)))
        tail = (verr or cerr).decode(errors="replace").strip().splitlines()
        if tail:
            print("  " + tail[-1][:300])
    os.unlink(path)

shutil.rmtree(work, ignore_errors=True)
print("seed %d: %d damaged copies of %s (%s)" % (
    SEED, sum(counts.values()), os.path.basename(TRACE),
    ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
print("outcomes (kind, info --check, replay --verify): count")
for k in sorted(outcomes, key=str):
    print("  %s: %d" % (k, outcomes[k]))
print("%d failed" % failures)
sys.exit(1 if failures else 0)
