# SPDX-License-Identifier: MIT
# Format tests: the CUnit suites (one per source file), the crash-safety
# helper program, the damaged sample traces and the end-to-end CLI test.
check_PROGRAMS += tests/format/test_format
tests_format_test_format_SOURCES = tests/format/main.c \
	tests/format/helpers.c tests/format/helpers.h tests/format/tests.h \
	tests/fuzz/trace_reader.c tests/fuzz/fuzz.h \
	tests/format/test_bad.c \
	tests/format/test_blob.c \
	tests/format/test_chunk.c \
	tests/format/test_crc32c.c \
	tests/format/test_crash.c \
	tests/format/test_cursor.c \
	tests/format/test_describe.c \
	tests/format/test_hostile.c \
	tests/format/test_index.c \
	tests/format/test_isa.c \
	tests/format/test_reader.c \
	tests/format/test_records.c \
	tests/format/test_report.c \
	tests/format/test_scan.c \
	tests/format/test_sha256.c \
	tests/format/test_wblob.c \
	tests/format/test_windex.c \
	tests/format/test_wmeta.c tests/format/test_join.c \
	tests/format/test_kfcheck.c \
	tests/format/test_writer.c
tests_format_test_format_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS) \
	-DRW_TOP_SRCDIR='"$(abs_top_srcdir)"'
tests_format_test_format_LDADD = tests/librw_testrunner.a \
	format/librw_format.a common/librw_common.a $(CUNIT_LIBS) $(ZSTD_LIBS) $(CRYPTO_LIBS)
TESTS += tests/format/test_format

# Killed at random moments by test_crash.c.
check_PROGRAMS += tests/format/crash_writer
tests_format_crash_writer_SOURCES = tests/format/crash_writer.c
tests_format_crash_writer_LDADD = format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS)

# Writes sample and damaged traces (see its header comment).
check_PROGRAMS += tests/format/mktrace
tests_format_mktrace_SOURCES = tests/format/mktrace.c tests/format/edit.c \
	tests/format/edit.h
tests_format_mktrace_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS)
tests_format_mktrace_LDADD = format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS)
# Damages a trace behind fixed-up checksums and index (see its header).
check_PROGRAMS += tests/format/rw_edit
tests_format_rw_edit_SOURCES = tests/format/rw_edit.c tests/format/edit.c \
	tests/format/edit.h
tests_format_rw_edit_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS)
tests_format_rw_edit_LDADD = format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS)
# End to end: rewind info and rewind dump ($REWIND) on generated traces.
TESTS += tests/format/cli.sh
# Damaged copies of real recordings, checksums fixed up (tests/format/rw_edit).
TESTS += tests/format/campaign.sh
EXTRA_DIST += tests/format/tests.def tests/format/bad tests/format/cli.sh \
	tests/format/campaign.sh tests/format/campaign.py
