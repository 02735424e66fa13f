# SPDX-License-Identifier: MIT
# The shared CUnit runner, the layout checks, and each component's tests.
check_LIBRARIES += tests/librw_testrunner.a
tests_librw_testrunner_a_SOURCES = tests/runner.c tests/runner.h
tests_librw_testrunner_a_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)

if !HAVE_CUNIT
# Without CUnit the unit tests cannot be built: say so before anything else.
check_SCRIPTS += tests/no-cunit
tests/no-cunit:
	@echo "make check needs CUnit: apt-get install libcunit1-dev, then run configure again" >&2; exit 1
endif

TESTS += tests/lint/layout.sh
EXTRA_DIST += tests/lint/layout.sh

include tests/programs/local.mk
include tests/format/local.mk
include tests/cpu/local.mk
include tests/recorder/local.mk
include tests/fuzz/local.mk
include tests/replay/local.mk
include tests/gdbstub/local.mk
include tests/fuzz/gdb.mk
include tests/gdb/local.mk
include tests/threads/local.mk
include tests/cli/local.mk
