/* SPDX-License-Identifier: MIT */
/* A small machine for the emulator's unit tests (see emu_util.h). */
#include "tests/cpu/emu_util.h"

#include <string.h>

int emu_open(struct emu *e, const void *code, size_t len) {
  struct rw_regs r;
  memset(e, 0, sizeof *e);
  if (cpu_mem_new(&e->mem)) return -1;
  if (cpu_mem_map(e->mem, EMU_CODE, 0x2000, CPU_PROT_READ | CPU_PROT_EXEC) ||
      cpu_mem_map(e->mem, EMU_DATA, 0x10000, CPU_PROT_READ | CPU_PROT_WRITE) ||
      cpu_mem_map(e->mem, EMU_STACK - 0x10000, 0x10000,
                  CPU_PROT_READ | CPU_PROT_WRITE) ||
      cpu_mem_write(e->mem, EMU_CODE, code, len) ||
      cpu_new(e->mem, NULL, &e->cpu))
    return -1;
  cpu_get_regs(e->cpu, &r);
  r.rip = EMU_CODE;
  r.gpr[RW_REG_rsp] = EMU_STACK - 64;
  return cpu_set_regs(e->cpu, &r) ? -1 : 0;
}

void emu_close(struct emu *e) {
  cpu_free(e->cpu);
  cpu_mem_free(e->mem);
  memset(e, 0, sizeof *e);
}

u64 emu_reg(struct emu *e, int reg) {
  struct rw_regs r;
  cpu_get_regs(e->cpu, &r);
  return r.gpr[reg];
}

void emu_set_reg(struct emu *e, int reg, u64 v) {
  struct rw_regs r;
  cpu_get_regs(e->cpu, &r);
  r.gpr[reg] = v;
  if (cpu_set_regs(e->cpu, &r)) r.rip = 0;
}

u64 emu_rip(struct emu *e) {
  struct rw_regs r;
  cpu_get_regs(e->cpu, &r);
  return r.rip;
}

int emu_run(struct emu *e, struct cpu_exit *ex) {
  struct cpu_exit x;
  if (cpu_run(e->cpu, 10000000, &x)) return -1;
  if (ex) *ex = x;
  return x.reason;
}
