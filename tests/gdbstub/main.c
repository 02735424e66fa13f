/* SPDX-License-Identifier: MIT */
/* The gdbstub test program: expands tests/gdbstub/tests.def into the shared
 * CUnit runner (tests/runner.h), one forked suite per source file. */
#define TESTS_DEF "tests/gdbstub/tests.def"
#include "tests/runner.h"
