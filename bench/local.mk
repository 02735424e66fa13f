# SPDX-License-Identifier: MIT
# Benchmarks: each fragment builds its programs and a `make bench-NAME`
# target that runs them; `make bench` runs them all. Results are reported in
# bench/RESULTS.md with the command that produced them, never asserted in
# tests.
EXTRA_DIST += bench/RESULTS.md bench/lib.sh
include bench/format/local.mk
include bench/record/local.mk
include bench/cpu/local.mk
include bench/replay/local.mk
include bench/gdb/local.mk
include bench/threads/local.mk

.PHONY: bench
bench: bench-format bench-cpu bench-record bench-replay bench-threads
