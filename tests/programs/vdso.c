/* SPDX-License-Identifier: MIT */
/* The vDSO as a program that looks for it itself sees it
 * (tests/replay/kernel.sh): AT_SYSINFO_EHDR names an ELF image, its dynamic
 * symbols include clock_gettime, and calling the function found there, and
 * the one libc picks, gives a time that goes forwards. The time itself
 * differs from run to run; the lines printed do not. */
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

/* The address of the vDSO's function NAME, or NULL. */
static void *vdso_sym(const unsigned char *base, const char *name) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
  long bias = 0;
  for (int i = 0; i < eh->e_phnum; i++)
    if (ph[i].p_type == PT_LOAD) {
      bias = (long)ph[i].p_offset - (long)ph[i].p_vaddr;
      break;
    }
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_DYNSYM) continue;
    const Elf64_Sym *sym = (const Elf64_Sym *)(base + sh[i].sh_offset);
    const char *str = (const char *)base + sh[sh[i].sh_link].sh_offset;
    for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++)
      if (!strcmp(str + sym[k].st_name, name) && sym[k].st_value)
        return (void *)(base + sym[k].st_value + bias);
  }
  return NULL;
}

int main(void) {
  const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
  printf("vdso: %s\n", !base ? "absent"
                       : memcmp(base, ELFMAG, SELFMAG) ? "not ELF" : "ELF");
  if (!base) return 1;
  gettime_fn f = (gettime_fn)vdso_sym(base, "__vdso_clock_gettime");
  printf("vdso: __vdso_clock_gettime %s\n", f ? "found" : "missing");
  if (!f) return 1;
  struct timespec a, b, c;
  int ra = f(CLOCK_MONOTONIC, &a);
  int rb = clock_gettime(CLOCK_MONOTONIC, &b);
  int rc = f(CLOCK_REALTIME, &c);
  int forwards = b.tv_sec > a.tv_sec ||
                 (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec);
  printf("vdso: calls %d %d %d, forwards %d, realtime after 2020 %d\n", ra,
         rb, rc, forwards, c.tv_sec > 1577836800);
  time_t t = time(NULL);
  /* time() reads the coarse clock, which lags the fine one by up to a
   * tick: right after a second begins it can still say the one before. */
  printf("vdso: time agrees %d\n", t >= c.tv_sec - 1 && t - c.tv_sec < 100);
  return 0;
}
