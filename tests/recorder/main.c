/* SPDX-License-Identifier: MIT */
/* The recorder tests' entry point: every TEST row of tests/recorder/tests.def
 * becomes a CUnit test, one suite per source file of recorder/ that has
 * logic worth testing without a tracee (and common/digest.c). */
#define TESTS_DEF "tests/recorder/tests.def"
#include "tests/runner.h"
