# SPDX-License-Identifier: MIT
# Recorder benchmark (bench/record/sbuf.sh): imports N (default 200) of the
# standard library's modules, in name order, skipping those that start
# programs, open windows or print, and those this Python lacks. Python
# finds each through stat, open, read and close of many files.
import sys
import warnings

warnings.simplefilter("ignore")

SKIP = {"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo",
        "__main__", "pydoc_data", "ensurepip", "venv", "lib2to3", "msilib",
        "winreg", "winsound", "_winapi", "msvcrt", "nt", "_msi", "_overlapped"}
want = int(sys.argv[1]) if len(sys.argv) > 1 else 200
done = 0
for name in sorted(sys.stdlib_module_names):
    if done == want:
        break
    if name in SKIP or name.startswith("_"):
        continue
    try:
        __import__(name)
    except Exception:
        continue
    done += 1
print(done)
