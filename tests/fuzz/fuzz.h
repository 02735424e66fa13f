/* SPDX-License-Identifier: MIT */
/* The libFuzzer entry point every fuzz target defines, declared once so the
 * plain driver (driver.c) and unit tests can call it. */
#ifndef RW_TESTS_FUZZ_FUZZ_H
#define RW_TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Feeds one input to the target. Returns 0; any crash, sanitizer report or
 * abort is the failure. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* RW_TESTS_FUZZ_FUZZ_H */
