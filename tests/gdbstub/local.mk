# SPDX-License-Identifier: MIT
# Unit tests of gdbstub/ (one CUnit suite per source file, listed in
# tests/gdbstub/tests.def); fake_stub, a tiny stub built from layers 1 and 2
# that the tdesc suite drives with the real gdb; and fake_replay.c, a fake
# replayer the serve_* suites run gdb_serve on (fake_serve: the same over
# stdio, for real gdb).
check_PROGRAMS += tests/gdbstub/test_gdbstub tests/gdbstub/fake_stub \
	tests/gdbstub/fake_serve
TESTS += tests/gdbstub/test_gdbstub
tests_gdbstub_test_gdbstub_SOURCES = \
	tests/gdbstub/main.c tests/gdbstub/util.h \
	tests/gdbstub/test_packet.c tests/gdbstub/test_reply.c \
	tests/gdbstub/test_cursor.c tests/gdbstub/test_parse.c \
	tests/gdbstub/test_parse_query.c tests/gdbstub/test_tdesc.c \
	tests/gdbstub/fake_replay.c tests/gdbstub/fake_replay.h \
	tests/gdbstub/serve_util.h tests/gdbstub/test_serve_query.c \
	tests/gdbstub/test_serve_thread.c tests/gdbstub/test_serve_run.c
tests_gdbstub_test_gdbstub_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_gdbstub_test_gdbstub_LDADD = tests/librw_testrunner.a \
	gdbstub/librw_gdbstub.a common/librw_common.a $(CUNIT_LIBS)
tests_gdbstub_fake_stub_SOURCES = tests/gdbstub/fake_stub.c
tests_gdbstub_fake_stub_LDADD = gdbstub/librw_gdbstub.a common/librw_common.a
tests_gdbstub_fake_serve_SOURCES = tests/gdbstub/fake_serve.c \
	tests/gdbstub/fake_replay.c tests/gdbstub/fake_replay.h
tests_gdbstub_fake_serve_LDADD = gdbstub/librw_gdbstub.a \
	common/librw_common.a
EXTRA_DIST += tests/gdbstub/tests.def
