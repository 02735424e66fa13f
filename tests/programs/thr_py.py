# SPDX-License-Identifier: MIT
# Test program, python3 threading: 3 worker threads take numbers from a
# queue.Queue until they get None, sum squares for each, and store the
# results in a dict under a threading.Lock. Each worker first names its OS
# thread "py-worker-K" by writing /proc/self/task/TID/comm, then calls
# os.getppid() (a libc call no other thread makes, for the debugger tests
# to break on). The output is the same on every run.
import os
import queue
import threading

WORKERS = 3
jobs = queue.Queue()
lock = threading.Lock()
results = {}


def worker(k):
    with open("/proc/self/task/%d/comm" % threading.get_native_id(), "w") as f:
        f.write("py-worker-%d" % k)
    os.getppid()
    while True:
        n = jobs.get()
        if n is None:
            break
        s = sum(i * i for i in range(n))
        with lock:
            results[n] = s


threads = [threading.Thread(target=worker, args=(k,)) for k in range(WORKERS)]
for t in threads:
    t.start()
for n in range(100, 300):
    jobs.put(n)
for _ in threads:
    jobs.put(None)
for t in threads:
    t.join()
print("py: %d threads, %d jobs, total %d"
      % (WORKERS, len(results), sum(results.values())))
