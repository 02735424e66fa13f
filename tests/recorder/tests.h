/* SPDX-License-Identifier: MIT */
/* Prototypes of every recorder test, from tests/recorder/tests.def, so that
 * each test_<suite>.c is checked against the list it must match. */
#ifndef RW_TESTS_RECORDER_TESTS_H
#define RW_TESTS_RECORDER_TESTS_H
#define TEST(suite, name) void test_##suite##_##name(void);
#include "tests/recorder/tests.def"
#undef TEST
#endif
