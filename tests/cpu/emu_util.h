/* SPDX-License-Identifier: MIT */
/* Helpers for the emulator's unit tests: a small machine with code, data and
 * stack mapped, loaded from instruction bytes. */
#ifndef RW_TESTS_CPU_EMU_UTIL_H
#define RW_TESTS_CPU_EMU_UTIL_H

#include "replayer/cpu/cpu.h"

#define EMU_CODE 0x400000ull  /* code page(s), R|X */
#define EMU_DATA 0x600000ull  /* 64 KB of data, R|W */
#define EMU_STACK 0x7ff000ull /* 64 KB stack below this, R|W */

struct emu {
  cpu_mem *mem;
  cpu_thread *cpu;
};

/* Maps the layout, loads CODE (LEN bytes) at EMU_CODE, sets rip to it and
 * rsp to EMU_STACK - 64. Returns 0 or -1. */
int emu_open(struct emu *e, const void *code, size_t len);
void emu_close(struct emu *e);
/* Reads / writes register R (RW_REG_*). */
u64 emu_reg(struct emu *e, int r);
void emu_set_reg(struct emu *e, int r, u64 v);
u64 emu_rip(struct emu *e);
/* Runs until an exit other than CPU_EXIT_BUDGET, with a budget of 10^7;
 * returns the exit reason and fills *EX if non-NULL. */
int emu_run(struct emu *e, struct cpu_exit *ex);

#endif /* RW_TESTS_CPU_EMU_UTIL_H */
