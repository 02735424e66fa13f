# SPDX-License-Identifier: MIT
# Replayer benchmarks (bench/RESULTS.md, "Replayer"): replay speed against
# native on the recorder's workloads, and seeking in a long trace.
# `make bench-replay` runs them.
noinst_PROGRAMS += bench/replay/seekbench bench/replay/longloop
bench_replay_seekbench_SOURCES = bench/replay/seekbench.c
bench_replay_seekbench_LDADD = replayer/librw_replayer.a \
	replayer/cpu/librw_cpu.a format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS) $(CAPSTONE_LIBS) $(DW_LIBS)
bench_replay_longloop_SOURCES = bench/replay/longloop.c
bench_replay_longloop_CFLAGS = -O1 -g
EXTRA_DIST += bench/replay/run.sh

.PHONY: bench-replay
bench-replay: cli/rewind bench/replay/seekbench bench/replay/longloop \
		bench/record/compute bench/record/libc bench/record/syscalls
	$(SHELL) $(top_srcdir)/bench/replay/run.sh $(abs_top_builddir)

# Instant start (bench/RESULTS.md, "Instant start"): opening a 1e10-
# instruction trace at a position with and without its index.
# `make bench-index` runs it.
EXTRA_DIST += bench/replay/index.sh
.PHONY: bench-index
bench-index: cli/rewind bench/replay/longloop
	$(SHELL) $(top_srcdir)/bench/replay/index.sh $(abs_top_builddir)

# Vector code (bench/RESULTS.md, "Vector code"): vecmath built for
# AVX-512 (512-bit vectors), for AVX2+FMA and for SSE4.2 from one source,
# and the recorder's libc workload (glibc's EVEX and AVX2 string
# functions), each natively, under qemu-x86_64 when installed and
# replayed. `make bench-vector` runs it.
noinst_PROGRAMS += bench/replay/vecmath_v4 bench/replay/vecmath_v3 \
	bench/replay/vecmath_v2
bench_replay_vecmath_v4_SOURCES = bench/replay/vecmath.c
bench_replay_vecmath_v4_CFLAGS = -O3 -g -march=x86-64-v4 \
	-mprefer-vector-width=512
bench_replay_vecmath_v4_LDFLAGS =
bench_replay_vecmath_v3_SOURCES = bench/replay/vecmath.c
bench_replay_vecmath_v3_CFLAGS = -O3 -g -march=x86-64-v3
bench_replay_vecmath_v3_LDFLAGS =
bench_replay_vecmath_v2_SOURCES = bench/replay/vecmath.c
bench_replay_vecmath_v2_CFLAGS = -O3 -g -march=x86-64-v2
bench_replay_vecmath_v2_LDFLAGS =
EXTRA_DIST += bench/replay/vector.sh

.PHONY: bench-vector
bench-vector: cli/rewind bench/replay/vecmath_v4 bench/replay/vecmath_v3 \
		bench/replay/vecmath_v2 \
		bench/record/libc
	$(SHELL) $(top_srcdir)/bench/replay/vector.sh $(abs_top_builddir)

# Profiles (bench/RESULTS.md, "Profiles"): rewind analyze profile against
# the plain replay of the same trace, on a call-heavy workload (fib) and
# two with few calls. `make bench-profile` runs it.
noinst_PROGRAMS += bench/replay/fib
bench_replay_fib_SOURCES = bench/replay/fib.c
bench_replay_fib_CFLAGS = -O1 -g
bench_replay_fib_LDFLAGS =
EXTRA_DIST += bench/replay/profile.sh bench/replay/marks.sh
# Replay speed of two builds on the same traces (bench/replay/ab.sh).
EXTRA_DIST += bench/replay/ab.sh

.PHONY: bench-profile
bench-profile: cli/rewind bench/replay/fib bench/record/compute \
		bench/record/libc
	$(SHELL) $(top_srcdir)/bench/replay/profile.sh $(abs_top_builddir)

# analyze marks and accesses against the plain replay (bench/replay/marks.sh).
.PHONY: bench-marks
bench-marks: cli/rewind bench/replay/fib bench/record/compute \
		bench/record/libc
	$(SHELL) $(top_srcdir)/bench/replay/marks.sh $(abs_top_builddir)

# analyze edges and rep whole against -j 2 (bench/replay/pieces.sh).
EXTRA_DIST += bench/replay/pieces.sh
.PHONY: bench-pieces
bench-pieces: cli/rewind bench/record/compute bench/record/libc
	$(SHELL) $(top_srcdir)/bench/replay/pieces.sh $(abs_top_builddir)

# The translator against the interpreter, native and qemu-x86_64
# (bench/replay/jit.sh); fpmath is its scalar floating-point workload.
noinst_PROGRAMS += bench/replay/fpmath
bench_replay_fpmath_SOURCES = bench/replay/fpmath.c
bench_replay_fpmath_CFLAGS = -O2 -g
bench_replay_fpmath_LDFLAGS =
bench_replay_fpmath_LDADD = -lm
EXTRA_DIST += bench/replay/jit.sh
.PHONY: bench-jit
bench-jit: cli/rewind bench/replay/fib bench/replay/vecmath_v3 \
		bench/replay/fpmath bench/record/compute bench/record/libc
	$(SHELL) $(top_srcdir)/bench/replay/jit.sh $(abs_top_builddir)
