/* SPDX-License-Identifier: MIT */
/* Prototypes of every test in tests.def, for the test_*.c files. */
#ifndef RW_TESTS_CPU_TESTS_H
#define RW_TESTS_CPU_TESTS_H
#define TEST(suite, name) void test_##suite##_##name(void);
#include "tests/cpu/tests.def"
#undef TEST
#endif
