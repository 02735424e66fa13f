# SPDX-License-Identifier: MIT
# GDB stub latency benchmark (bench/RESULTS.md, "GDB stub"): reverse-stepi,
# reverse-next and reverse-continue across 1e8 and 1e9 instructions, with
# rewind's replay and with gdb's own `record full` on the same program, in
# the same run. `make bench-gdb` runs bench/gdb/run.sh.
noinst_PROGRAMS += bench/gdb/longloop
bench_gdb_longloop_SOURCES = tests/programs/longloop.c
bench_gdb_longloop_CFLAGS = -O0 -g
EXTRA_DIST += bench/gdb/run.sh bench/gdb/timing.py

.PHONY: bench-gdb
bench-gdb: cli/rewind bench/gdb/longloop
	$(SHELL) $(top_srcdir)/bench/gdb/run.sh $(abs_top_builddir)
