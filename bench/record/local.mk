# SPDX-License-Identifier: MIT
# Recorder benchmark (bench/RESULTS.md, "Recorder"): three workloads built
# here, plus python3 and sort, each run natively and under `rewind record`
# by bench/record/run.sh. `make bench-record` runs it.
noinst_PROGRAMS += bench/record/compute bench/record/libc bench/record/syscalls \
	bench/record/clock bench/record/libcalls
bench_record_compute_CFLAGS = -O2 -g
bench_record_compute_LDFLAGS =
bench_record_libc_CFLAGS = -O2 -g
bench_record_libc_LDFLAGS =
bench_record_syscalls_CFLAGS = -O2 -g
bench_record_syscalls_LDFLAGS =
bench_record_clock_CFLAGS = -O2 -g
bench_record_clock_LDFLAGS =
bench_record_libcalls_CFLAGS = -O2 -g
bench_record_libcalls_LDFLAGS =
EXTRA_DIST += bench/record/run.sh

.PHONY: bench-record
bench-record: cli/rewind bench/record/compute bench/record/libc \
		bench/record/syscalls
	$(SHELL) $(top_srcdir)/bench/record/run.sh $(abs_top_builddir)

# Large address spaces (bench/RESULTS.md): tests/programs/bigmaps natively,
# recorded and replayed. `make bench-bigmaps`; OLD=path/to/rewind adds a
# column recorded with another build.
EXTRA_DIST += bench/record/bigmaps.sh
.PHONY: bench-bigmaps
bench-bigmaps: cli/rewind tests/programs/bigmaps
	$(SHELL) $(top_srcdir)/bench/record/bigmaps.sh $(abs_top_builddir) 3 $(OLD)

# Process trees (bench/RESULTS.md): make -j2 and one cc natively, recorded
# with every process and with --no-follow, and replayed. `make
# bench-procs`.
EXTRA_DIST += bench/record/procs.sh
.PHONY: bench-procs
bench-procs: cli/rewind
	$(SHELL) $(top_srcdir)/bench/record/procs.sh $(abs_top_builddir) 3

# Blob hashing (bench/RESULTS.md): recording programs that map large files
# with another build of rewind (OLD=path/to/rewind, required) and this one.
# `make bench-blobs OLD=...`.
EXTRA_DIST += bench/record/blobs.sh
.PHONY: bench-blobs
bench-blobs: cli/rewind
	@test -n "$(OLD)" || { echo "make bench-blobs OLD=path/to/rewind"; exit 2; }
	$(SHELL) $(top_srcdir)/bench/record/blobs.sh $(OLD) \
	  $(abs_top_builddir)/cli/rewind 5

# The syscall buffer (bench/RESULTS.md): workloads natively, under pinned
# strace, recorded with and without it. `make bench-sbuf`.
EXTRA_DIST += bench/record/sbuf.sh bench/record/imports.py \
	bench/record/sockets.py \
	bench/record/makeproj.sh
.PHONY: bench-sbuf
bench-sbuf: cli/rewind bench/record/clock bench/record/syscalls \
		bench/record/compute bench/record/libcalls bench/threads/mutex \
		bench/threads/compute
	$(SHELL) $(top_srcdir)/bench/record/sbuf.sh $(abs_top_builddir) 5

# Attaching to a running process (bench/RESULTS.md): `make bench-attach`.
EXTRA_DIST += bench/record/attach.sh
.PHONY: bench-attach
bench-attach: cli/rewind bench/threads/compute
	$(SHELL) $(top_srcdir)/bench/record/attach.sh $(abs_top_builddir) 3

# Recorder keyframes (bench/RESULTS.md): their cost while recording and
# `rewind replay --verify -j 2` against `--verify`. `make bench-keyframes`.
EXTRA_DIST += bench/record/keyframes.sh
.PHONY: bench-keyframes
bench-keyframes: cli/rewind bench/threads/compute
	$(SHELL) $(top_srcdir)/bench/record/keyframes.sh $(abs_top_builddir) 3

# Keyframes on by default (bench/RESULTS.md): what keeping every blocking
# syscall's entry state costs. `make bench-kfdefault`.
EXTRA_DIST += bench/record/kfdefault.sh
.PHONY: bench-kfdefault
bench-kfdefault: cli/rewind bench/threads/pingpong bench/threads/mutex
	$(SHELL) $(top_srcdir)/bench/record/kfdefault.sh $(abs_top_builddir) 5
