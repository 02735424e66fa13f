/* SPDX-License-Identifier: MIT */
/* The format tests' entry point: every TEST row of tests/format/tests.def
 * becomes a CUnit test, one suite per source file of format/ (plus the
 * checksum and hash files of common/ that only the trace format uses). */
#define TESTS_DEF "tests/format/tests.def"
#include "tests/runner.h"
