# SPDX-License-Identifier: MIT
# Fuzz targets (STYLE R19). Each target T is tests/fuzz/T.c defining
# LLVMFuzzerTestOneInput, with a seed corpus in tests/fuzz/corpus/T/ and a
# script tests/fuzz/run_T.sh. make check links T with the plain driver
# (driver.c) and replays the corpus; when configure found libFuzzer
# (HAVE_LIBFUZZER, $(FUZZ_CC)) tests/fuzz/T_fuzzer is also built, from the
# sources directly so that every object has the same sanitizers, and the
# script runs it for $RW_FUZZ_SECONDS (default 60; 0 skips). To add a target,
# copy the trace_reader block.
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -DRW_DEBUG=1 \
	-I$(top_srcdir) -I$(top_srcdir)/common -I$(top_builddir)
EXTRA_DIST += tests/fuzz/fuzz.h tests/fuzz/driver.c

# trace_reader: the trace file reader (format/).
check_PROGRAMS += tests/fuzz/trace_reader
tests_fuzz_trace_reader_SOURCES = tests/fuzz/trace_reader.c tests/fuzz/driver.c
tests_fuzz_trace_reader_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tests_fuzz_trace_reader_LDADD = format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS)
TESTS += tests/fuzz/run_trace_reader.sh
EXTRA_DIST += tests/fuzz/run_trace_reader.sh tests/fuzz/run_target.sh \
	tests/fuzz/corpus/trace_reader
TRACE_FUZZ_FILES = $(srcdir)/tests/fuzz/trace_reader.c \
	$(srcdir)/format/chunk.c $(srcdir)/format/writer.c \
	$(srcdir)/format/wblob.c $(srcdir)/format/wmeta.c \
	$(srcdir)/format/windex.c $(srcdir)/format/reader.c \
	$(srcdir)/format/index.c $(srcdir)/format/scan.c \
	$(srcdir)/format/cursor.c $(srcdir)/format/blob.c \
	$(srcdir)/format/describe.c $(srcdir)/format/report.c \
	$(srcdir)/common/crc32c.c $(srcdir)/common/sha256.c \
	$(srcdir)/common/errors.c $(srcdir)/common/log.c $(srcdir)/common/regs.c \
	$(srcdir)/common/syscalls.c
if HAVE_LIBFUZZER
check_SCRIPTS += tests/fuzz/trace_reader_fuzzer
CLEANFILES += tests/fuzz/trace_reader_fuzzer
tests/fuzz/trace_reader_fuzzer: $(TRACE_FUZZ_FILES) \
		$(srcdir)/format/format.h $(srcdir)/format/format_int.h \
		$(srcdir)/format/writer_int.h $(srcdir)/tests/fuzz/fuzz.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_FLAGS) $(ZSTD_CFLAGS) \
	  $(TRACE_FUZZ_FILES) $(ZSTD_LIBS) -o $@
endif
