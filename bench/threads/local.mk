# SPDX-License-Identifier: MIT
# Threads benchmark (bench/RESULTS.md, "Threads"): workloads built here and
# run natively and under `rewind record` by bench/threads/run.sh: a 4-thread
# mutex, a spin lock, threads that switch only by preemption (the cost of a
# preemption point), and a pipe ping-pong (trace bytes per thread switch).
# `make bench-threads` runs it.
noinst_PROGRAMS += bench/threads/mutex bench/threads/spin \
	bench/threads/compute bench/threads/pingpong
bench_threads_mutex_CFLAGS = -O2 -g -pthread
bench_threads_mutex_LDFLAGS =
bench_threads_mutex_LDADD = -lpthread
bench_threads_spin_CFLAGS = -O2 -g -pthread
bench_threads_spin_LDFLAGS =
bench_threads_spin_LDADD = -lpthread
bench_threads_compute_CFLAGS = -O2 -g -pthread
bench_threads_compute_LDFLAGS =
bench_threads_compute_LDADD = -lpthread
bench_threads_pingpong_CFLAGS = -O2 -g -pthread
bench_threads_pingpong_LDFLAGS =
bench_threads_pingpong_LDADD = -lpthread
EXTRA_DIST += bench/threads/run.sh

.PHONY: bench-threads
bench-threads: cli/rewind bench/threads/mutex bench/threads/spin \
		bench/threads/compute bench/threads/pingpong
	$(SHELL) $(top_srcdir)/bench/threads/run.sh $(abs_top_builddir)

# The cost of a preemption point, two builds side by side (bench/RESULTS.md,
# "Threads"). `make bench-preempt OLD=path/to/old/rewind`.
EXTRA_DIST += bench/threads/preempt.sh
.PHONY: bench-preempt
bench-preempt: cli/rewind bench/threads/compute
	$(SHELL) $(top_srcdir)/bench/threads/preempt.sh $(abs_top_builddir) \
	  $(OLD) 3
