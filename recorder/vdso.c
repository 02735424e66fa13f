/* SPDX-License-Identifier: MIT */
/* The vDSO, made recordable. Its functions (clock_gettime, gettimeofday,
 * time, getcpu, ...) read the time from the kernel's [vvar] page without a
 * syscall, which neither a ptrace recorder nor the replay can follow. The
 * vDSO stays where the kernel put it, named by AT_SYSINFO_EHDR (programs
 * and libraries parse it, gdb loads its symbols from it), but each function
 * it exports is overwritten at exec with a stub that makes the equivalent
 * syscall:
 *
 *     mov eax, NR ; syscall ; ret
 *
 * The syscalls have the functions' arguments in the same registers, and
 * clobber only rcx and r11, which the calling convention does not keep.
 * An exported function rewind does not know (a newer kernel's) gets
 * "mov eax, -ENOSYS ; ret", which is what its callers fall back from. The
 * patched image is then recorded like any private mapping (MAP with the
 * VDSO flag and its bytes as MEM), so the replay runs the same stubs.
 *
 * The writes go through /proc/PID/mem, which copies the page on write as
 * gdb's breakpoints in the vDSO do; the kernel's own copy is unchanged. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

#define REC_ENOSYS 38

struct vfunc {
  const char *name; /* without the __vdso_ prefix */
  int nr;           /* its syscall, or -1: it returns -ENOSYS */
};

static const struct vfunc known[] = {
    {"clock_gettime", 228}, {"gettimeofday", 96}, {"time", 201},
    {"getcpu", 309},        {"clock_getres", 229},
};

static int nr_of(const char *name) {
  if (!strncmp(name, "__vdso_", 7)) name += 7;
  for (size_t i = 0; i < RW_ARRAY_SIZE(known); i++)
    if (!strcmp(name, known[i].name)) return known[i].nr;
  return -1;
}

/* 1 when [OFF, OFF + LEN) lies within an image of SIZE bytes. */
static int inside(u64 off, u64 len, size_t size) {
  return off <= size && len <= size - off;
}

/* Patches the image IMG of SIZE bytes mapped at BASE in the tracee. Returns
 * the number of functions patched, or a negative code. */
static int patch_image(struct rec *r, u64 base, const u8 *img, size_t size) {
  if (size < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) ||
      img[EI_CLASS] != ELFCLASS64)
    return 0;
  Elf64_Ehdr eh;
  memcpy(&eh, img, sizeof eh);
  /* The load bias: where the first PT_LOAD's vaddr is mapped. */
  u64 bias = base;
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph;
    u64 at = eh.e_phoff + (u64)i * sizeof ph;
    if (!inside(at, sizeof ph, size)) return 0;
    memcpy(&ph, img + at, sizeof ph);
    if (ph.p_type == PT_LOAD) {
      bias = base - (ph.p_vaddr - ph.p_offset);
      break;
    }
  }
  /* The dynamic symbols, from the section headers (the image has them). */
  int patched = 0;
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh, str;
    u64 at = eh.e_shoff + (u64)i * sizeof sh;
    if (!inside(at, sizeof sh, size)) return 0;
    memcpy(&sh, img + at, sizeof sh);
    if (sh.sh_type != SHT_DYNSYM || sh.sh_entsize != sizeof(Elf64_Sym))
      continue;
    u64 sat = eh.e_shoff + (u64)sh.sh_link * sizeof str;
    if (sh.sh_link >= eh.e_shnum || !inside(sat, sizeof str, size) ||
        !inside(sh.sh_offset, sh.sh_size, size))
      return 0;
    memcpy(&str, img + sat, sizeof str);
    if (!inside(str.sh_offset, str.sh_size, size)) return 0;
    for (u64 k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
      Elf64_Sym s;
      memcpy(&s, img + sh.sh_offset + k * sizeof s, sizeof s);
      if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
          s.st_name >= str.sh_size)
        continue;
      const char *name = (const char *)img + str.sh_offset + s.st_name;
      if (!memchr(name, 0, str.sh_size - s.st_name)) continue;
      int nr = nr_of(name);
      u8 stub[8];
      size_t n;
      if (nr >= 0) {
        stub[0] = 0xb8; /* mov eax, imm32 */
        wr_le32(stub + 1, (u32)nr);
        stub[5] = 0x0f, stub[6] = 0x05; /* syscall */
        stub[7] = 0xc3;                 /* ret */
        n = 8;
      } else {
        stub[0] = 0xb8;
        wr_le32(stub + 1, (u32)-REC_ENOSYS);
        stub[5] = 0xc3;
        n = 6;
      }
      u64 addr = bias + s.st_value;
      if (s.st_size < n || addr < base || !inside(addr - base, n, size)) {
        rw_log(RW_LOG_INFO, "the vDSO's %s (%llu bytes) has no room for a "
               "stub", name, (unsigned long long)s.st_size);
        return RW_EUNSUPPORTED;
      }
      RW_FORWARD(rec__mem_write(r, addr, stub, n));
      /* Stubs that make a syscall, which the syscall buffer may take over
       * (recorder/sbuf.c); the first one comes first. */
      struct rec__proc *p = r->proc;
      if (nr >= 0 && p->nvfn < REC_VFN_MAX)
        p->vfn[p->nvfn++] = (struct rec__vfn){addr, nr};
      patched++;
    }
  }
  return patched;
}

int rec__vdso_patch(struct rec *r) {
  const struct rec__map *m = NULL;
  r->proc->nvfn = 0;
  for (const struct rec__map *e = rec__maps_first(r->proc->maps); e;
       e = rec__maps_next(r->proc->maps, e))
    if (e->flags & REC_MAPF_VDSO) m = e;
  if (!m || m->end - m->start > REC_BUF) return 0;
  size_t size = (size_t)(m->end - m->start);
  u8 *img = malloc(size);
  RW_RETURN_IF(!img, RW_ENOMEM, "vDSO image");
  int rc = rec__mem_read(r, m->start, img, size) == (i64)size
               ? patch_image(r, m->start, img, size)
               : 0;
  free(img);
  if (rc <= 0)
    rw_log(RW_LOG_INFO,
           "the vDSO could not be made recordable (%s); it is hidden from "
           "the program, which then makes the syscalls itself",
           rc < 0 ? rw_strerror(rc) : "no functions found");
  return rc > 0;
}
