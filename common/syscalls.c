/* SPDX-License-Identifier: MIT */
/* Names of the x86-64 syscalls, from the one list in common/syscalls.def
 * (whose output descriptions are the recorder's business). */
#include "common/rw.h"

static const char *const names[] = {
#define REC_SYSCALL(nr, name, flags, o1, o2, o3) [nr] = #name,
#include "common/syscalls.def"
#undef REC_SYSCALL
};

const char *rw_syscall_name(u64 nr) {
  return nr < RW_ARRAY_SIZE(names) ? names[nr] : NULL;
}
