# SPDX-License-Identifier: MIT
# gdb_parse: the GDB stub's packet decoder, request parser and reply
# builders (gdbstub/), following the pattern of tests/fuzz/local.mk: make
# check links the target with the shared plain driver (driver.c) and replays
# tests/fuzz/corpus/gdb_parse/; with libFuzzer (HAVE_LIBFUZZER, $(FUZZ_CC))
# tests/fuzz/gdb_parse_fuzzer is built from the sources with $(FUZZ_FLAGS)
# and run_gdb_parse.sh runs it for $RW_FUZZ_SECONDS (default 60; 0 skips).
check_PROGRAMS += tests/fuzz/gdb_parse
tests_fuzz_gdb_parse_SOURCES = tests/fuzz/gdb_parse.c tests/fuzz/driver.c
tests_fuzz_gdb_parse_LDADD = gdbstub/librw_gdbstub.a common/librw_common.a
TESTS += tests/fuzz/run_gdb_parse.sh
EXTRA_DIST += tests/fuzz/run_gdb_parse.sh tests/fuzz/corpus/gdb_parse
GDB_FUZZ_FILES = $(srcdir)/tests/fuzz/gdb_parse.c \
	$(srcdir)/gdbstub/packet.c $(srcdir)/gdbstub/reply.c \
	$(srcdir)/gdbstub/cursor.c $(srcdir)/gdbstub/parse.c \
	$(srcdir)/gdbstub/parse_query.c $(srcdir)/gdbstub/tdesc.c \
	$(srcdir)/common/errors.c $(srcdir)/common/log.c
if HAVE_LIBFUZZER
check_SCRIPTS += tests/fuzz/gdb_parse_fuzzer
CLEANFILES += tests/fuzz/gdb_parse_fuzzer
tests/fuzz/gdb_parse_fuzzer: $(GDB_FUZZ_FILES) \
		$(srcdir)/gdbstub/gdbstub.h $(srcdir)/gdbstub/gdbstub_int.h \
		$(srcdir)/gdbstub/requests.def $(srcdir)/gdbstub/gdbregs.def \
		$(srcdir)/tests/fuzz/fuzz.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_FLAGS) $(GDB_FUZZ_FILES) -o $@
endif
