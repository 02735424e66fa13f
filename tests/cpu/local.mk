# SPDX-License-Identifier: MIT
# Emulator tests: CUnit suites (test_cpu), the differential harness against
# this CPU (diffcpu, STYLE R18) and the decode corpus of libc and coreutils.
# Case families of the harness: one file each, listed in tests/cpu/cases.def.
tests_cpu_cases = tests/cpu/cases_int.c
tests_cpu_cases += tests/cpu/cases_x87.c
tests_cpu_cases += tests/cpu/cases_sse.c tests/cpu/cases_sse_fp.c \
	tests/cpu/cases_sse_int.c tests/cpu/cases_sse.h tests/cpu/cases_avx.c
tests_cpu_cases += tests/cpu/cases_crypto.c tests/cpu/cases_fma.c \
	tests/cpu/cases_mmx.c tests/cpu/cases_gfni.c tests/cpu/cases_evex.c
tests_cpu_cases += tests/cpu/cases_tsx.c
tests_cpu_harness = tests/cpu/diff.h tests/cpu/diff_int.h \
	tests/cpu/diff_gen.c tests/cpu/diff_run.c tests/cpu/diff_tab.c \
	$(tests_cpu_cases)
tests_cpu_ldadd = replayer/cpu/librw_cpu.a common/librw_common.a \
	$(CAPSTONE_LIBS)

check_PROGRAMS += tests/cpu/test_cpu tests/cpu/diffcpu tests/cpu/corpus \
	tests/cpu/cs_probe
TESTS += tests/cpu/test_cpu tests/cpu/diffcpu tests/cpu/corpus \
	tests/cpu/portable.sh tests/cpu/jit.sh

tests_cpu_test_cpu_SOURCES = tests/cpu/main.c tests/cpu/tests.h tests/cpu/emu_util.h \
	tests/cpu/emu_util.c tests/cpu/test_run.c tests/cpu/test_mem.c \
	tests/cpu/test_decode.c tests/cpu/test_flags.c tests/cpu/test_x87.c \
	tests/cpu/test_crypto.c tests/cpu/test_feature.c tests/cpu/test_jit.c \
	$(tests_cpu_harness)
tests_cpu_test_cpu_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(CAPSTONE_CFLAGS)
tests_cpu_test_cpu_LDADD = tests/librw_testrunner.a $(tests_cpu_ldadd) \
	$(CUNIT_LIBS)

tests_cpu_diffcpu_SOURCES = tests/cpu/diffcpu.c $(tests_cpu_harness)
tests_cpu_diffcpu_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS)
tests_cpu_diffcpu_LDADD = $(tests_cpu_ldadd)

tests_cpu_corpus_SOURCES = tests/cpu/corpus.c
tests_cpu_corpus_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS)
tests_cpu_corpus_LDADD = $(tests_cpu_ldadd)

tests_cpu_cs_probe_SOURCES = tests/cpu/cs_probe.c
tests_cpu_cs_probe_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS)
tests_cpu_cs_probe_LDADD = $(CAPSTONE_LIBS)

EXTRA_DIST += tests/cpu/tests.def tests/cpu/cases.def tests/cpu/flagmask.def \
	tests/cpu/corpus_known.def tests/cpu/portable.sh tests/cpu/jit.sh
