# SPDX-License-Identifier: MIT
# Recorder tests: CUnit suites for the parts of recorder/ that work without a
# tracee, and end-to-end scripts that record tests/programs/* and real tools
# and check the trace through `rewind dump --json`.
check_PROGRAMS += tests/recorder/test_recorder
tests_recorder_test_recorder_SOURCES = tests/recorder/main.c \
	tests/recorder/test_systable.c tests/recorder/test_maps.c \
	tests/recorder/test_image.c tests/recorder/test_cpuid.c \
	tests/recorder/test_env.c tests/recorder/test_digest.c \
	tests/recorder/test_outbuf.c tests/recorder/test_sbuf.c \
	tests/recorder/test_kfmem.c \
	tests/recorder/tests.h
tests_recorder_test_recorder_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_recorder_test_recorder_LDADD = tests/librw_testrunner.a \
	recorder/librw_recorder.a format/librw_format.a common/librw_common.a \
	$(CUNIT_LIBS) $(UNWIND_LIBS) $(ZSTD_LIBS) $(CRYPTO_LIBS) $(CAPSTONE_LIBS)
TESTS += tests/recorder/test_recorder

# Prints a metadata value of a trace (for the scripts).
check_PROGRAMS += tests/recorder/rw_meta
tests_recorder_rw_meta_SOURCES = tests/recorder/rw_meta.c
tests_recorder_rw_meta_LDADD = format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS)

rw_recorder_sh = tests/recorder/basic.sh tests/recorder/syscalls.sh \
	tests/recorder/signals.sh tests/recorder/rdtsc.sh \
	tests/recorder/processes.sh tests/recorder/refusals.sh \
	tests/recorder/kill9.sh tests/recorder/tools.sh tests/recorder/ctrlc.sh \
	tests/recorder/stopsig.sh tests/recorder/threads.sh
TESTS += $(rw_recorder_sh)
# sbuf.sh, written.sh and attach.sh are in Makefile.am's TESTS, among the
# first to start.
EXTRA_DIST += tests/recorder/tests.def tests/recorder/lib.sh \
	$(rw_recorder_sh) tests/recorder/sbuf.sh tests/recorder/written.sh \
	tests/recorder/attach.sh
