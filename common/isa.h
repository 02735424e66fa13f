/* SPDX-License-Identifier: MIT */
/* The ISA extensions a CPU reports that rewind's emulator does not run and
 * that compilers (-march=native) and libraries use on their own when CPUID
 * says so. The recorder names them at record time and `rewind info` names
 * them from a trace: such a program records, but its replay stops at the
 * first of those instructions. Extensions only hand-written code uses
 * (WAITPKG, RDPID) are not listed; the replay names them when it meets
 * them. */
#ifndef RW_COMMON_ISA_H
#define RW_COMMON_ISA_H

#include <stddef.h>

#include "common/rw.h"

/* Writes the names of those extensions present in the CPUID table CPUID
 * (TRACE_META_CPUID's encoding: LEN bytes of 24-byte little-endian
 * entries leaf, subleaf, eax, ebx, ecx, edx) to BUF (SIZE bytes), joined
 * by ", "; returns how many there are (0: BUF is ""). Without ALL, those
 * a Linux process must ask the kernel for before it can use them (AMX:
 * the recorder names them when it does) are left out. */
unsigned rw_isa_unemulated(const u8 *cpuid, size_t len, int all, char *buf,
                           size_t size);

#endif /* RW_COMMON_ISA_H */
