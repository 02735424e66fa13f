# SPDX-License-Identifier: MIT
# Fuzz targets (STYLE R19). Each target T is tests/fuzz/T.c defining
# LLVMFuzzerTestOneInput, with a seed corpus in tests/fuzz/corpus/T/ and a
# script tests/fuzz/run_T.sh. make check links T with the plain driver
# (driver.c) and replays the corpus; when configure found libFuzzer
# (HAVE_LIBFUZZER, $(FUZZ_CC)) tests/fuzz/T_fuzzer is also built, from the
# sources directly so that every object has the same sanitizers, and the
# script runs it for $RW_FUZZ_SECONDS (default 60; 0 skips). To add a target,
# copy the trace_reader block.
FUZZ_COMMON = -g -O1 -fno-sanitize-recover=all -DRW_DEBUG=1 \
	-I$(top_srcdir) -I$(top_srcdir)/common -I$(top_builddir)
FUZZ_FLAGS = -fsanitize=fuzzer,address,undefined $(FUZZ_COMMON)
FUZZ_OBJ_FLAGS = -fsanitize=fuzzer-no-link,address,undefined $(FUZZ_COMMON)
EXTRA_DIST += tests/fuzz/fuzz.h tests/fuzz/driver.c

# trace_reader: the trace file reader (format/).
check_PROGRAMS += tests/fuzz/trace_reader
tests_fuzz_trace_reader_SOURCES = tests/fuzz/trace_reader.c tests/fuzz/driver.c
tests_fuzz_trace_reader_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS)
tests_fuzz_trace_reader_LDADD = format/librw_format.a common/librw_common.a \
	$(ZSTD_LIBS) $(CRYPTO_LIBS)
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
	$(srcdir)/format/records.c \
	$(srcdir)/common/crc32c.c $(srcdir)/common/sha256.c \
	$(srcdir)/common/errors.c $(srcdir)/common/log.c $(srcdir)/common/regs.c \
	$(srcdir)/common/syscalls.c $(srcdir)/common/isa.c
if HAVE_LIBFUZZER
check_SCRIPTS += tests/fuzz/trace_reader_fuzzer
CLEANFILES += tests/fuzz/trace_reader_fuzzer
tests/fuzz/trace_reader_fuzzer: $(TRACE_FUZZ_FILES) \
		$(srcdir)/format/format.h $(srcdir)/format/format_int.h \
		$(srcdir)/format/writer_int.h $(srcdir)/tests/fuzz/fuzz.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_FLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS) \
	  $(TRACE_FUZZ_FILES) $(ZSTD_LIBS) $(CRYPTO_LIBS) -o $@
endif

# replay_stream and serve_packets (issue 21): the replayer on edited record
# streams of a real recording, and the serving layer on packet sequences
# against one. Their run scripts record tests/programs/exitstatus first and
# pass it in $RW_FUZZ_TRACE. The libFuzzer builds compile every source of
# the libraries they use (the .c files of the libraries' _SOURCES lists).
check_PROGRAMS += tests/fuzz/replay_stream tests/fuzz/serve_packets
FUZZ_REPLAY_LIBS = replayer/librw_replayer.a replayer/cpu/librw_cpu.a \
	format/librw_format.a common/librw_common.a $(ZSTD_LIBS) $(CRYPTO_LIBS) \
	$(CAPSTONE_LIBS) $(DW_LIBS)
tests_fuzz_replay_stream_SOURCES = tests/fuzz/replay_stream.c \
	tests/fuzz/driver.c
tests_fuzz_replay_stream_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS)
tests_fuzz_replay_stream_LDADD = $(FUZZ_REPLAY_LIBS)
tests_fuzz_serve_packets_SOURCES = tests/fuzz/serve_packets.c \
	tests/fuzz/driver.c
tests_fuzz_serve_packets_LDADD = gdbstub/librw_gdbstub.a $(FUZZ_REPLAY_LIBS)
TESTS += tests/fuzz/run_replay_stream.sh tests/fuzz/run_serve_packets.sh
EXTRA_DIST += tests/fuzz/run_replay_stream.sh tests/fuzz/run_serve_packets.sh \
	tests/fuzz/corpus/replay_stream tests/fuzz/corpus/serve_packets
FUZZ_REPLAY_SRC = $(replayer_librw_replayer_a_SOURCES) \
	$(replayer_cpu_librw_cpu_a_SOURCES) $(format_librw_format_a_SOURCES) \
	$(common_librw_common_a_SOURCES)
# The sources are compiled once, for both, into tests/fuzz/obj/ (a
# replayer/cpu/x.c becomes replayer_cpu_x.o), as many at a time as there
# are CPUs: one clang process per target took about a minute alone.
if HAVE_LIBFUZZER
check_SCRIPTS += tests/fuzz/replay_stream_fuzzer tests/fuzz/serve_packets_fuzzer
CLEANFILES += tests/fuzz/replay_stream_fuzzer tests/fuzz/serve_packets_fuzzer \
	tests/fuzz/obj.stamp tests/fuzz/obj/*.o
FUZZ_OBJ_SRC = $(FUZZ_REPLAY_SRC) $(gdbstub_librw_gdbstub_a_SOURCES)
tests/fuzz/obj.stamp: $(FUZZ_OBJ_SRC)
	@$(MKDIR_P) tests/fuzz/obj
	$(AM_V_CC)for f in $(FUZZ_OBJ_SRC); do \
	  case $$f in *.c) echo "$$f";; esac; \
	done | xargs -P "`nproc 2>/dev/null || echo 2`" -I{} sh -c \
	  'o=tests/fuzz/obj/`echo "$$1" | tr / _ | sed "s/[.]c$$/.o/"`; \
	   exec $(FUZZ_CC) $(FUZZ_OBJ_FLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS) \
	     $(CAPSTONE_CFLAGS) $(UNWIND_CFLAGS) $(DW_CFLAGS) \
	     -c "$(srcdir)/$$1" -o "$$o"' sh {}
	@touch $@
tests/fuzz/replay_stream_fuzzer tests/fuzz/serve_packets_fuzzer: \
		tests/fuzz/obj.stamp \
		$(srcdir)/tests/fuzz/replay_stream.c \
		$(srcdir)/tests/fuzz/serve_packets.c $(srcdir)/tests/fuzz/fuzz.h
	$(AM_V_CCLD)target=`basename $@ _fuzzer`; \
	extra=; test $$target = serve_packets && \
	  extra='$(gdbstub_librw_gdbstub_a_SOURCES)'; \
	objs=; for f in $(FUZZ_REPLAY_SRC) $$extra; do \
	  case $$f in *.c) objs="$$objs tests/fuzz/obj/`echo "$$f" | \
	    tr / _ | sed 's/[.]c$$/.o/'`";; esac; \
	done; \
	$(FUZZ_CC) $(FUZZ_FLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS) \
	  $(CAPSTONE_CFLAGS) $(UNWIND_CFLAGS) $(DW_CFLAGS) \
	  $(srcdir)/tests/fuzz/$$target.c $$objs \
	  $(ZSTD_LIBS) $(CRYPTO_LIBS) $(CAPSTONE_LIBS) $(UNWIND_LIBS) $(DW_LIBS) \
	  -lm -o $@
endif
