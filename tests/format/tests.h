/* SPDX-License-Identifier: MIT */
/* Declares every test function listed in tests/format/tests.def, so that
 * each test file is compiled against the list (and -Wmissing-prototypes
 * holds). */
#ifndef RW_TESTS_FORMAT_TESTS_H
#define RW_TESTS_FORMAT_TESTS_H
#define TEST(suite, name) void test_##suite##_##name(void);
#include "tests/format/tests.def"
#undef TEST
#endif /* RW_TESTS_FORMAT_TESTS_H */
