/* SPDX-License-Identifier: MIT */
/* The call stack as a debugger's unwinder finds it: libunwind's remote
 * unwinding over the replay's registers and memory, with the unwind tables
 * (.eh_frame_hdr) of each ELF file as the program had them mapped. Where
 * the file's program headers come from the blob in the trace, the table
 * itself is read from the replay's memory through the accessors, so the
 * unwinder sees exactly what the program had. It shows what gdb's bt would
 * without debug information, beside the shadow stack (replayer/profile.c),
 * which needs no tables at all: where they disagree, a stack was corrupted
 * or code without CFI ran. */
#include <elf.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

/* libunwind's own table search, which its ptrace and coredump libraries
 * call: exported by libunwind-generic, declared in no public header. */
extern int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t as,
                                              unw_word_t ip,
                                              unw_dyn_info_t *di,
                                              unw_proc_info_t *pi,
                                              int need_unwind_info,
                                              void *arg);

#define RP_UNWIND_MAX 256 /* frames shown at most */

struct uctx {
  rp_replay *rp;
  struct rw_regs regs;
};

/* What the unwinder needs of the ELF file mapped at IP: the executable
 * segment holding IP and the address of .eh_frame_hdr, both as mapped.
 * The program headers come from the blob (every size checked), the load
 * bias from where the mapping put the file offset. */
static int elf_find(rp_replay *rp, u64 ip, u64 *lo, u64 *hi, u64 *hdr) {
  const struct rp__src *src = rp__src_at(rp->proc, ip);
  u8 eh[64], ph[56];
  if (!src || rp__is_zero_hash(src->hash)) return RW_ENOTFOUND;
  i64 got = trace_reader_blob_read(rp->trace.tr, src->hash, 0, eh, sizeof eh,
                                   NULL);
  if (got != (i64)sizeof eh || memcmp(eh, ELFMAG, SELFMAG) ||
      eh[EI_CLASS] != ELFCLASS64 || rd_le16(eh + 54) != sizeof ph)
    return RW_ENOTFOUND;
  u64 phoff = rd_le64(eh + 32), phnum = rd_le16(eh + 56);
  u64 off = src->offset + (ip - src->start);
  u64 bias = 0, eh_vaddr = 0;
  int have_bias = 0, have_hdr = 0;
  *lo = *hi = 0;
  for (u64 i = 0; i < phnum && i < 64; i++) {
    got = trace_reader_blob_read(rp->trace.tr, src->hash, phoff + i * 56, ph,
                                 sizeof ph, NULL);
    if (got != (i64)sizeof ph) return RW_ENOTFOUND;
    u32 type = rd_le32(ph), flags = rd_le32(ph + 4);
    u64 poff = rd_le64(ph + 8), vaddr = rd_le64(ph + 16);
    u64 filesz = rd_le64(ph + 32), memsz = rd_le64(ph + 40);
    if (type == PT_GNU_EH_FRAME) {
      eh_vaddr = vaddr;
      have_hdr = 1;
    } else if (type == PT_LOAD && off >= poff && off - poff < filesz) {
      bias = src->start - (vaddr + (src->offset - poff));
      have_bias = 1;
      if (flags & PF_X) {
        *lo = vaddr;
        *hi = vaddr + memsz;
      }
    }
  }
  if (!have_bias || !have_hdr || *hi <= *lo) return RW_ENOTFOUND;
  *lo += bias;
  *hi += bias;
  *hdr = eh_vaddr + bias;
  return 0;
}

static int find_proc_info(unw_addr_space_t as, unw_word_t ip,
                          unw_proc_info_t *pi, int need_unwind_info,
                          void *arg) {
  struct uctx *u = arg;
  u64 lo, hi, hdr;
  u8 h[12];
  if (elf_find(u->rp, ip, &lo, &hi, &hdr) < 0 ||
      cpu_mem_read(u->rp->proc->mem, hdr, h, sizeof h) < 0)
    return -UNW_ENOINFO;
  /* The layout every linker writes: version 1, the frame pointer pc-
   * relative sdata4, the count udata4, the table of datarel sdata4 pairs
   * sorted by address. Others are not searched. */
  if (h[0] != 1 || h[1] != 0x1b || h[2] != 0x03 || h[3] != 0x3b)
    return -UNW_ENOINFO;
  unw_dyn_info_t di;
  memset(&di, 0, sizeof di);
  di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
  di.start_ip = lo;
  di.end_ip = hi;
  di.u.rti.segbase = hdr;
  di.u.rti.table_data = hdr + 12;
  /* In words: each entry is two 32-bit values. */
  di.u.rti.table_len = (u64)rd_le32(h + 8) * 8 / sizeof(unw_word_t);
  return _Ux86_64_dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info,
                                            arg);
}

static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi,
                            void *arg) {
  (void)as, (void)arg;
  free(pi->unwind_info);
  pi->unwind_info = NULL;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr,
                                  void *arg) {
  (void)as, (void)addr, (void)arg;
  return -UNW_ENOINFO;
}

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val,
                      int write, void *arg) {
  struct uctx *u = arg;
  u8 b[8];
  (void)as;
  if (write) return -UNW_EINVAL; /* the history is not changed */
  if (cpu_mem_read(u->rp->proc->mem, addr, b, sizeof b) < 0)
    return -UNW_EINVAL;
  *val = rd_le64(b);
  return 0;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *val,
                      int write, void *arg) {
  struct uctx *u = arg;
  const struct rw_regs *r = &u->regs;
  (void)as;
  if (write) return -UNW_EREADONLYREG;
  /* libunwind numbers them in DWARF's order: rax, rdx, rcx, rbx, rsi,
   * rdi, rbp, rsp, r8..r15, rip. */
  static const u8 gpr[16] = {0, 2, 1, 3, 6, 7, 5, 4,
                             8, 9, 10, 11, 12, 13, 14, 15};
  if (reg >= 0 && reg < 16)
    *val = r->gpr[gpr[reg]];
  else if (reg == UNW_X86_64_RIP)
    *val = r->rip;
  else
    return -UNW_EBADREG;
  return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg,
                        unw_fpreg_t *val, int write, void *arg) {
  (void)as, (void)reg, (void)val, (void)write, (void)arg;
  return -UNW_EBADREG;
}

static int resume(unw_addr_space_t as, unw_cursor_t *c, void *arg) {
  (void)as, (void)c, (void)arg;
  return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf,
                         size_t len, unw_word_t *off, void *arg) {
  (void)as, (void)addr, (void)buf, (void)len, (void)off, (void)arg;
  return -UNW_ENOINFO; /* names come from rp_symbolize */
}

int rp_unwind_text(rp_replay *rp, u32 tid, char **out) {
  static unw_accessors_t acc = {
      .find_proc_info = find_proc_info,
      .put_unwind_info = put_unwind_info,
      .get_dyn_info_list_addr = get_dyn_info_list_addr,
      .access_mem = access_mem,
      .access_reg = access_reg,
      .access_fpreg = access_fpreg,
      .resume = resume,
      .get_proc_name = get_proc_name};
  struct uctx u = {.rp = rp};
  *out = NULL;
  if (!tid) tid = rp_current_tid(rp);
  /* Only the thread that runs here: its process is the current one, whose
   * memory the accessors read. */
  RW_RETURN_IF(tid != rp_current_tid(rp), RW_EINVAL,
               "unwinding a thread other than the current one");
  if (rp_get_regs(rp, tid, &u.regs) < 0) return RW_ENOTFOUND;
  unw_addr_space_t as = unw_create_addr_space(&acc, 0);
  RW_RETURN_IF(!as, RW_ENOMEM, "libunwind address space");
  unw_set_caching_policy(as, UNW_CACHE_NONE);
  char *text = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&text, &n);
  if (!f) {
    unw_destroy_addr_space(as);
    return RW_ENOMEM;
  }
  unw_cursor_t c;
  int rc = unw_init_remote(&c, as, &u), k = 0;
  if (rc < 0) {
    fprintf(f, "  (libunwind cannot start: %s)\n", unw_strerror(rc));
  } else {
    for (; k < RP_UNWIND_MAX; k++) {
      unw_word_t ip = 0, sp = 0;
      char sym[160];
      unw_get_reg(&c, UNW_REG_IP, &ip);
      unw_get_reg(&c, UNW_REG_SP, &sp);
      /* A caller's ip is a return address: its call is the byte before. */
      u64 at = k && ip ? ip - 1 : ip;
      if (rp_symbolize(rp, at, sym, sizeof sym) < 0) sym[0] = 0;
      else if (k && ip) { /* name the return address itself */
        char *plus = strrchr(sym, '+');
        if (plus && !strncmp(plus, "+0x", 3))
          snprintf(plus, sizeof sym - (size_t)(plus - sym), "+0x%llx",
                   (unsigned long long)(strtoull(plus + 1, NULL, 16) + 1));
      }
      fprintf(f, "#%-3d 0x%016llx in %s%s\n", k, (unsigned long long)ip,
              sym[0] ? sym : "??",
              unw_is_signal_frame(&c) > 0 ? " <signal handler called>" : "");
      int s = unw_step(&c);
      if (s == 0) break;
      if (s < 0) {
        fprintf(f, "  (unwinding stops here: %s)\n", unw_strerror(s));
        break;
      }
    }
    if (k == RP_UNWIND_MAX)
      fprintf(f, "  (more frames: only the first %d are shown)\n",
              RP_UNWIND_MAX);
  }
  unw_destroy_addr_space(as);
  if (fclose(f) != 0 || !text) {
    free(text);
    return RW_ENOMEM;
  }
  *out = text;
  return 0;
}
