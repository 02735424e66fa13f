# SPDX-License-Identifier: MIT
# Replayer benchmarks (bench/RESULTS.md, "Replayer"): replay speed against
# native on the recorder's workloads, and seeking in a long trace.
# `make bench-replay` runs them.
noinst_PROGRAMS += bench/replay/seekbench bench/replay/longloop
bench_replay_seekbench_SOURCES = bench/replay/seekbench.c
bench_replay_seekbench_LDADD = replayer/librw_replayer.a \
	replayer/cpu/librw_cpu.a format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CAPSTONE_LIBS)
bench_replay_longloop_SOURCES = bench/replay/longloop.c
bench_replay_longloop_CFLAGS = -O1 -g
EXTRA_DIST += bench/replay/run.sh

.PHONY: bench-replay
bench-replay: cli/rewind bench/replay/seekbench bench/replay/longloop \
		bench/record/compute bench/record/libc bench/record/syscalls
	$(SHELL) $(top_srcdir)/bench/replay/run.sh $(abs_top_builddir)
