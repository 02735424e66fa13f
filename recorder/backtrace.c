/* SPDX-License-Identifier: MIT */
/* The backtrace rewind prints when the recorded program crashes, taken with
 * libunwind-ptrace from the stopped thread at its exit event, while its
 * memory still exists. Only printing; the trace holds what replay needs. */
#include <libunwind-ptrace.h>
#include <stdio.h>

#include "recorder/rec_int.h"

void rec__backtrace(pid_t tid, const char *prog) {
  unw_addr_space_t as = unw_create_addr_space(&_UPT_accessors, 0);
  void *ui = as ? _UPT_create(tid) : NULL;
  unw_cursor_t c;
  if (!as || !ui || unw_init_remote(&c, as, ui) < 0) {
    rw_log(RW_LOG_ERROR, "(no backtrace of %s: libunwind could not start)",
           prog);
  } else {
    for (int i = 0; i < 64; i++) {
      unw_word_t ip = 0, off = 0;
      char name[256];
      unw_get_reg(&c, UNW_REG_IP, &ip);
      if (unw_get_proc_name(&c, name, sizeof name, &off) == 0)
        fprintf(stderr, "  #%-2d 0x%016llx in %s+0x%llx\n", i,
                (unsigned long long)ip, name, (unsigned long long)off);
      else
        fprintf(stderr, "  #%-2d 0x%016llx in ??\n", i,
                (unsigned long long)ip);
      if (unw_step(&c) <= 0) break;
    }
  }
  if (ui) _UPT_destroy(ui);
  if (as) unw_destroy_addr_space(as);
}
