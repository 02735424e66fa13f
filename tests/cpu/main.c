/* SPDX-License-Identifier: MIT */
/* The emulator's CUnit suites, listed in tests/cpu/tests.def (STYLE R17). */
#define TESTS_DEF "tests/cpu/tests.def"
#include "tests/runner.h"
