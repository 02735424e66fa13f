# SPDX-License-Identifier: MIT
# Unit tests of gdbstub/ (one CUnit suite per source file, listed in
# tests/gdbstub/tests.def), and fake_stub, a tiny stub built from layers 1
# and 2 that the tdesc suite drives with the real gdb.
check_PROGRAMS += tests/gdbstub/test_gdbstub tests/gdbstub/fake_stub
TESTS += tests/gdbstub/test_gdbstub
tests_gdbstub_test_gdbstub_SOURCES = \
	tests/gdbstub/main.c tests/gdbstub/util.h \
	tests/gdbstub/test_packet.c tests/gdbstub/test_reply.c \
	tests/gdbstub/test_cursor.c tests/gdbstub/test_parse.c \
	tests/gdbstub/test_parse_query.c tests/gdbstub/test_tdesc.c
tests_gdbstub_test_gdbstub_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_gdbstub_test_gdbstub_LDADD = tests/librw_testrunner.a \
	gdbstub/librw_gdbstub.a common/librw_common.a $(CUNIT_LIBS)
tests_gdbstub_fake_stub_SOURCES = tests/gdbstub/fake_stub.c
tests_gdbstub_fake_stub_LDADD = gdbstub/librw_gdbstub.a common/librw_common.a
EXTRA_DIST += tests/gdbstub/tests.def
