# SPDX-License-Identifier: MIT
# End-to-end tests of the replayer: recordings of real programs replayed
# with --verify, seeking, and the errors of traces that cannot be replayed.
# The programs are built without sanitizers (empty LDFLAGS): the replay of a
# sanitizer runtime's terabytes of shadow mappings is not what is tested.
check_PROGRAMS += tests/programs/cxx_exceptions tests/programs/unsupported \
	tests/programs/rdrand tests/programs/flags_undef tests/programs/tsx
tests_programs_cxx_exceptions_SOURCES = tests/programs/cxx_exceptions.cpp
tests_programs_cxx_exceptions_CXXFLAGS = -O1 -g
tests_programs_cxx_exceptions_LDFLAGS =
tests_programs_unsupported_CFLAGS = -O1 -g
tests_programs_unsupported_LDFLAGS =
tests_programs_rdrand_CFLAGS = -O1 -g
tests_programs_rdrand_LDFLAGS =
tests_programs_tsx_CFLAGS = -O1 -g
tests_programs_tsx_LDFLAGS =
# flags_undef is static: without the dynamic loader it runs no rdtsc before
# main, so it records and replays also on VMs that do not trap rdtsc.
tests_programs_flags_undef_CFLAGS = -O1 -g
tests_programs_flags_undef_LDFLAGS = -static
rw_replay_tests = tests/replay/corpus.sh tests/replay/programs.sh \
	tests/replay/trim.sh tests/replay/index.sh \
	tests/replay/errors.sh tests/replay/elsewhere.sh tests/replay/pick.sh \
	tests/replay/jit.sh
TESTS += $(rw_replay_tests)
# keyframes.sh, ring.sh, pieces.sh, threads.sh, counts.sh and outputs.sh
# are in Makefile.am's TESTS, among the first to start.
EXTRA_DIST += $(rw_replay_tests) tests/replay/keyframes.sh \
	tests/replay/ring.sh tests/replay/pieces.sh

# Threads (tests/replay/threads.sh): programs for the ends of a process's
# threads, exec from a thread, memory-only loops and asynchronous signals,
# and seekcheck, which checks positions reached in different ways through
# the replayer's API, and timeslices that end at a trap; thr_wait's
# threads run into a syscall site the recorder patches (counts.sh).
check_PROGRAMS += tests/replay/thr_end tests/replay/thr_crash \
	tests/replay/thr_exec tests/replay/thr_memloop tests/replay/thr_signals \
	tests/replay/thr_traps tests/replay/churn tests/replay/seekcheck \
	tests/replay/wback tests/replay/thr_wait
tests_replay_thr_end_CFLAGS = -O1 -g -pthread
tests_replay_thr_end_LDFLAGS =
tests_replay_thr_end_LDADD = -lpthread
tests_replay_thr_crash_CFLAGS = -O1 -g -pthread
tests_replay_thr_crash_LDFLAGS =
tests_replay_thr_crash_LDADD = -lpthread
tests_replay_thr_exec_CFLAGS = -O1 -g -pthread
tests_replay_thr_exec_LDFLAGS =
tests_replay_thr_exec_LDADD = -lpthread
tests_replay_thr_memloop_CFLAGS = -O1 -g -pthread
tests_replay_thr_memloop_LDFLAGS =
tests_replay_thr_memloop_LDADD = -lpthread
tests_replay_thr_signals_CFLAGS = -O1 -g -pthread
tests_replay_thr_signals_LDFLAGS =
tests_replay_thr_signals_LDADD = -lpthread
tests_replay_thr_traps_CFLAGS = -O1 -g -pthread
tests_replay_thr_traps_LDFLAGS =
tests_replay_thr_traps_LDADD = -lpthread
tests_replay_thr_wait_CFLAGS = -O1 -g -pthread
tests_replay_thr_wait_LDFLAGS =
tests_replay_thr_wait_LDADD = -lpthread
tests_replay_churn_CFLAGS = -O1 -g
tests_replay_churn_LDFLAGS =
tests_replay_seekcheck_LDADD = replayer/librw_replayer.a \
	replayer/cpu/librw_cpu.a format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS) $(CAPSTONE_LIBS) $(DW_LIBS)
tests_replay_wback_LDADD = $(tests_replay_seekcheck_LDADD)
# ixfuzz: the replayer against wrong indexes whose chunks check
# (tests/replay/index.sh).
check_PROGRAMS += tests/replay/ixfuzz
tests_replay_ixfuzz_LDADD = $(tests_replay_seekcheck_LDADD)
EXTRA_DIST += tests/replay/threads.sh
TESTS += tests/replay/procs.sh
EXTRA_DIST += tests/replay/procs.sh
# Intel TSX: xbegin aborted by the recorder, xtest and kin
# (tests/replay/tsx.sh, on tests/programs/tsx).
TESTS += tests/replay/tsx.sh
EXTRA_DIST += tests/replay/tsx.sh
# rewind analyze profile and calls, monitor stack and calls
# (tests/replay/profile.sh, on tests/programs/calls).
TESTS += tests/replay/profile.sh
EXTRA_DIST += tests/replay/profile.sh
# The memory history: monitor last-write and kin, rewind analyze writes
# (tests/replay/history.sh, on tests/programs/uaf and chatty).
TESTS += tests/replay/history.sh
EXTRA_DIST += tests/replay/history.sh
# Sampled edge profiles: rewind analyze edges --sample (tests/replay/
# sampling.sh, on tests/programs/phase and calls).
TESTS += tests/replay/sampling.sh
EXTRA_DIST += tests/replay/sampling.sh
# rewind analyze rep (tests/replay/reps.sh, on tests/programs/reps).
TESTS += tests/replay/reps.sh
EXTRA_DIST += tests/replay/reps.sh
# rewind analyze counts (tests/replay/counts.sh, on tests/programs/counts,
# calls and reps).
EXTRA_DIST += tests/replay/counts.sh
# Source lines: rewind analyze counts --lines and monitor counts FILE:N
# (tests/replay/lines.sh, on tests/programs/srclines).
TESTS += tests/replay/lines.sh
EXTRA_DIST += tests/replay/lines.sh

# Stack growth (tests/replay/stack.sh): the stack grown by instructions, by
# signal frames and past its limit, and thread stacks that do not grow.
check_PROGRAMS += tests/programs/stackgrow
tests_programs_stackgrow_CFLAGS = -O1 -g -pthread
tests_programs_stackgrow_LDFLAGS =
tests_programs_stackgrow_LDADD = -lpthread
TESTS += tests/replay/stack.sh
EXTRA_DIST += tests/replay/stack.sh

# Output checksums, the memory digest at the end and cut-off recordings
# (tests/replay/outputs.sh): outcheck, linked statically (no loader, so no
# rdtsc before main), and rw_patch, which changes one record of a trace.
check_PROGRAMS += tests/replay/outcheck tests/replay/rw_patch
tests_replay_outcheck_CFLAGS = -O1 -g
tests_replay_outcheck_LDFLAGS = -static
tests_replay_rw_patch_LDADD = format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS)
EXTRA_DIST += tests/replay/outputs.sh

# Syscall outputs and other kernel behaviour (tests/replay/kernel.sh).
check_PROGRAMS += tests/programs/sysout
tests_programs_sysout_CFLAGS = -O1 -g
tests_programs_sysout_LDFLAGS =
TESTS += tests/replay/kernel.sh
EXTRA_DIST += tests/replay/kernel.sh
check_PROGRAMS += tests/programs/execenv
tests_programs_execenv_CFLAGS = -O1 -g
tests_programs_execenv_LDFLAGS =

# Shared mappings changed behind the program's back (tests/replay/shared.sh).
check_PROGRAMS += tests/programs/shmap
tests_programs_shmap_CFLAGS = -O1 -g
tests_programs_shmap_LDFLAGS =
TESTS += tests/replay/shared.sh
EXTRA_DIST += tests/replay/shared.sh

# Finding asynchronous points (tests/replay/search.sh): the digest leaves
# out dead stack, and a search that cannot end says so.
check_PROGRAMS += tests/programs/deadstack
tests_programs_deadstack_CFLAGS = -O1 -g -pthread
tests_programs_deadstack_LDFLAGS =
tests_programs_deadstack_LDADD = -lpthread
TESTS += tests/replay/search.sh
EXTRA_DIST += tests/replay/search.sh

# AVX and AVX2 recorded and replayed (tests/replay/avx.sh).
check_PROGRAMS += tests/programs/avx2
tests_programs_avx2_CFLAGS = -O1 -g -mavx2
tests_programs_avx2_LDFLAGS =
TESTS += tests/replay/avx.sh
EXTRA_DIST += tests/replay/avx.sh

# FMA recorded and replayed, libm's FMA functions included
# (tests/replay/fma.sh).
check_PROGRAMS += tests/programs/fma
tests_programs_fma_CFLAGS = -O1 -g -mavx2 -mfma -mf16c
tests_programs_fma_LDFLAGS =
tests_programs_fma_LDADD = -lm
TESTS += tests/replay/fma.sh
EXTRA_DIST += tests/replay/fma.sh

# AVX-512 integer instructions recorded and replayed, opmasks and masked
# memory operands at a page's end (tests/replay/avx512.sh).
check_PROGRAMS += tests/programs/avx512
tests_programs_avx512_CFLAGS = -O1 -g -mavx512f -mavx512bw -mavx512vl \
	-mavx512dq -mavx512vbmi -mavx512vbmi2 -mavx512ifma -mavx512vpopcntdq \
	-mavx512bitalg -mavx512cd -mavx512vnni -mavx512bf16 \
	-mavx512vp2intersect -mgfni -mvaes -mvpclmulqdq -mf16c -mavxvnni
tests_programs_avx512_LDFLAGS =
tests_programs_avx512_LDADD = -lpthread
TESTS += tests/replay/avx512.sh
EXTRA_DIST += tests/replay/avx512.sh

# MMX recorded and replayed, its aliasing with the x87 stack, and gdb's
# view of an mm register (tests/replay/mmx.sh).
check_PROGRAMS += tests/programs/mmx
tests_programs_mmx_CFLAGS = -O1 -g
tests_programs_mmx_LDFLAGS =
TESTS += tests/replay/mmx.sh
EXTRA_DIST += tests/replay/mmx.sh

# node, whose V8 uses protection keys where the kernel offers them
# (tests/replay/node.sh).
TESTS += tests/replay/node.sh
EXTRA_DIST += tests/replay/node.sh tests/programs/node_work.js

# valgrind, which translates the code of the program it runs
# (tests/replay/valgrind.sh).
TESTS += tests/replay/valgrind.sh
EXTRA_DIST += tests/replay/valgrind.sh

# Protection keys recorded and replayed (tests/replay/pku.sh).
check_PROGRAMS += tests/programs/pku
tests_programs_pku_CFLAGS = -O1 -g
tests_programs_pku_LDFLAGS =
tests_programs_pku_LDADD = -lpthread
TESTS += tests/replay/pku.sh
EXTRA_DIST += tests/replay/pku.sh

# GFNI recorded and replayed, legacy and VEX forms (tests/replay/gfni.sh).
check_PROGRAMS += tests/programs/gfni
tests_programs_gfni_CFLAGS = -O1 -g -mgfni -mavx2
tests_programs_gfni_LDFLAGS =
TESTS += tests/replay/gfni.sh
EXTRA_DIST += tests/replay/gfni.sh

# OpenSSL on its AES-NI, SHA, AVX2, BMI2 and ADX paths
# (tests/replay/openssl.sh).
TESTS += tests/replay/openssl.sh
EXTRA_DIST += tests/replay/openssl.sh

# numpy on its own CPUID dispatch (tests/replay/numpy.sh).
TESTS += tests/replay/numpy.sh
EXTRA_DIST += tests/replay/numpy.sh tests/programs/numpy_work.py

# Large address spaces (tests/replay/bigmaps.sh): many mappings, terabyte
# and sparse mappings. Linked with -z now, so that its CLONE_VM child
# resolves no symbols into the GOT it shares unrecorded.
check_PROGRAMS += tests/programs/bigmaps
tests_programs_bigmaps_CFLAGS = -O1 -g
tests_programs_bigmaps_LDFLAGS = -Wl,-z,now
TESTS += tests/replay/bigmaps.sh
EXTRA_DIST += tests/replay/bigmaps.sh
