/* SPDX-License-Identifier: MIT */
/* The decode corpus (STYLE R18): every instruction of the text sections of
 * libc and a few coreutils, decoded by linear sweep, must map to a handler
 * row or be on the known "not yet" list (corpus_known.def). Prints the
 * unmapped mnemonics with counts so progress is visible. EVEX and VEX
 * opmask instructions go to evex.c's own decoder first, as in the
 * emulator, and every one of them must run. Undecodable bytes are skipped
 * one at a time.
 *   corpus [FILE...]   (default: libc.so.6, ls, sort) */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/cpu/cpu_int.h"

/* The known list, NULL-terminated (it may be empty). */
static const char *const known[] = {
#define KNOWN(mn) #mn,
#include "tests/cpu/corpus_known.def"
#undef KNOWN
    NULL};
#define NKNOWN (RW_ARRAY_SIZE(known) - 1)

struct tally {
  unsigned id;
  unsigned long n;
};
static struct tally unmapped[X86_INS_ENDING];
static unsigned long total, mapped, undecodable, evex_run;

/* EVEX (and VEX opmask) instructions, which evex.c decodes from their
 * bytes: those it cannot run, by encoding. */
#define EV_MAX 256
static struct {
  char enc[48];
  unsigned long n;
} evex_bad[EV_MAX];
static unsigned nevex_bad;

static void evex_tally(const u8 *b, size_t n) {
  char enc[48];
  if (!cpu__evex_describe(b, (unsigned)n, enc, sizeof enc))
    snprintf(enc, sizeof enc, "VEX opmask %02X %02X %02X", b[0],
             n > 1 ? b[1] : 0, n > 2 ? b[2] : 0);
  for (unsigned i = 0; i < nevex_bad; i++)
    if (!strcmp(evex_bad[i].enc, enc)) {
      evex_bad[i].n++;
      return;
    }
  if (nevex_bad == EV_MAX) return;
  snprintf(evex_bad[nevex_bad].enc, sizeof evex_bad[0].enc, "%s", enc);
  evex_bad[nevex_bad++].n = 1;
}

static u8 *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  u8 *buf = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
      fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
      fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) *len = (size_t)n;
  return buf;
}

static void sweep(csh cs, cs_insn *ci, const u8 *code, size_t size, u64 addr) {
  while (size) {
    const u8 *p = code;
    size_t left = size;
    u64 a = addr;
    struct cpu_insn in;
    unsigned xin;
    memset(&in, 0, sizeof in);
    if (cpu__decode_evex(NULL, code, (unsigned)RW_MIN(size, (size_t)15),
                         addr, &in, &xin)) {
      size_t k = in.len ? in.len : 1;
      total++;
      if (cpu__evex_runs(&in)) {
        mapped++;
        evex_run++;
      } else {
        evex_tally(code, RW_MIN(size, (size_t)15));
      }
      code += RW_MIN(k, size), addr += k, size -= RW_MIN(k, size);
      continue;
    }
    if (!cs_disasm_iter(cs, &p, &left, &a, ci)) {
      undecodable++;
      code++, size--, addr++;
      continue;
    }
    total++;
    if (cpu__find_row(ci))
      mapped++;
    else {
      unmapped[ci->id].id = ci->id;
      unmapped[ci->id].n++;
    }
    code = p, size = left, addr = a;
  }
}

/* Sweeps the executable sections of the ELF file at PATH. Returns 0 or -1. */
static int scan_file(csh cs, cs_insn *ci, const char *path) {
  size_t len = 0;
  u8 *f = slurp(path, &len);
  const Elf64_Ehdr *eh = (const void *)f;
  int rc = -1;
  if (!f) {
    fprintf(stderr, "corpus: cannot read %s\n", path);
    return -1;
  }
  if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len ||
      (u64)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff) {
    fprintf(stderr, "corpus: %s is not a 64-bit ELF file\n", path);
    goto out;
  }
  for (unsigned i = 0; i < eh->e_shnum; i++) {
    const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff + i * sizeof *sh);
    if (sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR))
      continue;
    if (sh->sh_offset > len || sh->sh_size > len - sh->sh_offset) continue;
    sweep(cs, ci, f + sh->sh_offset, sh->sh_size, sh->sh_addr);
  }
  rc = 0;
out:
  free(f);
  return rc;
}

static int cmp_tally(const void *a, const void *b) {
  const struct tally *x = a, *y = b;
  return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

int main(int argc, char **argv) {
  static const char *const defaults[] = {"/lib/x86_64-linux-gnu/libc.so.6",
                                         "/usr/bin/ls", "/usr/bin/sort"};
  csh cs;
  cs_insn *ci;
  unsigned nun = 0, bad = 0, stale = 0;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) return 2;
  cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
  ci = cs_malloc(cs);
  if (argc > 1) {
    for (int i = 1; i < argc; i++)
      if (scan_file(cs, ci, argv[i])) return 2;
  } else {
    for (unsigned i = 0; i < RW_ARRAY_SIZE(defaults); i++)
      if (scan_file(cs, ci, defaults[i])) return 2;
  }
  qsort(unmapped, X86_INS_ENDING, sizeof *unmapped, cmp_tally);
  printf("unmapped mnemonics (count):\n");
  for (unsigned i = 0; i < X86_INS_ENDING && unmapped[i].n; i++) {
    const char *name = cs_insn_name(cs, unmapped[i].id);
    int is_known = 0;
    for (unsigned k = 0; known[k]; k++)
      if (!strcmp(known[k], name)) is_known = 1;
    printf("  %-20s %8lu%s\n", name, unmapped[i].n,
           is_known ? "" : "   NOT ON THE KNOWN LIST");
    nun++;
    if (!is_known) bad++;
  }
  for (unsigned k = 0; known[k]; k++) {
    int seen = 0;
    for (unsigned i = 0; i < X86_INS_ENDING && unmapped[i].n; i++)
      if (!strcmp(known[k], cs_insn_name(cs, unmapped[i].id))) seen = 1;
    if (!seen) stale++;
  }
  printf(
      "corpus: %lu instructions, %lu mapped (%.2f%%), %lu undecodable "
      "bytes skipped; %u mnemonics unmapped, %u on the known list of %zu "
      "(%u of the list now mapped or absent)\n",
      total, mapped, total ? 100.0 * (double)mapped / (double)total : 0.0,
      undecodable, nun, nun - bad, NKNOWN, stale);
  printf("corpus: %lu EVEX and VEX opmask instructions run; encodings that "
         "do not (count):\n", evex_run);
  for (unsigned i = 0; i < nevex_bad; i++)
    printf("  %-32s %8lu\n", evex_bad[i].enc, evex_bad[i].n);
  if (bad)
    printf("corpus: %u unmapped mnemonics are not on the known list\n", bad);
  if (nevex_bad)
    printf("corpus: %u EVEX or VEX opmask encodings do not run\n", nevex_bad);
  cs_free(ci, 1);
  cs_close(&cs);
  return bad || nevex_bad ? 1 : 0;
}
