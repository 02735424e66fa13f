/* SPDX-License-Identifier: MIT */
/* rw_isa_unemulated: the CPUID bits of the extensions the emulator lacks
 * (Intel SDM vol. 2, CPUID leaf 07H; AMD's are a subset). */
#include <stdio.h>
#include <string.h>

#include "common/endian.h"
#include "common/isa.h"

struct isa_bit {
  u32 leaf, sub;
  u8 reg; /* 0 eax, 1 ebx, 2 ecx, 3 edx */
  u8 bit;
  const char *name;
  u8 kind; /* ISA_ANY; ISA_PERM: Linux lets a process use it only after
               it asks (AMX); ISA_AVX10_2: AVX10 of version 2 or later
               (leaf 24H EBX[7:0]; version 1 is AVX-512 with FP16) */
};

enum { ISA_ANY, ISA_PERM, ISA_AVX10_2 };

static const struct isa_bit missing[] = {
    {7, 0, 1, 26, "AVX512PF", ISA_ANY},
    {7, 0, 1, 27, "AVX512ER", ISA_ANY},
    {7, 0, 3, 2, "AVX512_4VNNIW", ISA_ANY},
    {7, 0, 3, 3, "AVX512_4FMAPS", ISA_ANY},
    {7, 0, 3, 22, "AMX-BF16", ISA_PERM},
    {7, 0, 3, 24, "AMX-TILE", ISA_PERM},
    {7, 0, 3, 25, "AMX-INT8", ISA_PERM},
    {7, 1, 0, 0, "SHA512", ISA_ANY},
    {7, 1, 0, 1, "SM3", ISA_ANY},
    {7, 1, 0, 2, "SM4", ISA_ANY},
    {7, 1, 0, 21, "AMX-FP16", ISA_PERM},
    {7, 1, 0, 23, "AVX-IFMA", ISA_ANY},
    {7, 1, 3, 4, "AVX-VNNI-INT8", ISA_ANY},
    {7, 1, 3, 5, "AVX-NE-CONVERT", ISA_ANY},
    {7, 1, 3, 10, "AVX-VNNI-INT16", ISA_ANY},
    {7, 1, 3, 19, "AVX10.2", ISA_AVX10_2},
    {7, 1, 3, 21, "APX", ISA_ANY},
};

/* The register REG of leaf LEAF, subleaf SUB in the table (an entry with
 * subleaf 0xffffffff answers every subleaf of a leaf that ignores ecx),
 * or 0. */
static u32 lookup(const u8 *t, size_t len, u32 leaf, u32 sub, unsigned reg) {
  for (size_t o = 0; o + 24 <= len; o += 24) {
    u32 s = rd_le32(t + o + 4);
    if (rd_le32(t + o) == leaf && (s == sub || s == 0xffffffffu))
      return rd_le32(t + o + 8 + 4 * reg);
  }
  return 0;
}

unsigned rw_isa_unemulated(const u8 *cpuid, size_t len, int all, char *buf,
                           size_t size) {
  unsigned n = 0;
  size_t at = 0;
  if (size) buf[0] = 0;
  /* Leaf 7 exists only up to leaf 0's maximum; subleaf 1 only up to
   * subleaf 0's EAX. */
  if (lookup(cpuid, len, 0, 0, 0) < 7) return 0;
  u32 max_sub = lookup(cpuid, len, 7, 0, 0);
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
    const struct isa_bit *b = &missing[i];
    if (b->sub > max_sub || (b->kind == ISA_PERM && !all)) continue;
    if (!((lookup(cpuid, len, b->leaf, b->sub, b->reg) >> b->bit) & 1))
      continue;
    if (b->kind == ISA_AVX10_2 &&
        (lookup(cpuid, len, 0, 0, 0) < 0x24 ||
         (lookup(cpuid, len, 0x24, 0, 1) & 0xff) < 2))
      continue;
    if (size && at < size) {
      int w = snprintf(buf + at, size - at, "%s%s", n ? ", " : "", b->name);
      if (w > 0) at += (size_t)w;
    }
    n++;
  }
  return n;
}
