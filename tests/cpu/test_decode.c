/* SPDX-License-Identifier: MIT */
/* The handler table and the decoder (replayer/cpu/decode.c): rows are well
 * formed and unique, every mnemonic in the table has differential cases,
 * and operands are resolved as the handlers expect. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "replayer/cpu/cpu_int.h"
#include "tests/cpu/diff_int.h"
#include "tests/cpu/emu_util.h"
#include "tests/cpu/tests.h"

void test_decode_table_is_well_formed(void) {
  unsigned dups = 0;
  csh cs;
  CU_ASSERT_FATAL(cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK);
  for (const struct cpu__family *const *f = cpu__families; *f; f++)
    for (size_t i = 0; i < (*f)->nrows; i++) {
      const struct cpu__oprow *r = &(*f)->rows[i];
      CU_ASSERT(r->form < CPU_FORM_COUNT);
      CU_ASSERT(r->fn != NULL);
      CU_ASSERT(r->id > 0 && r->id < CPU_INS_ENDING);
      CU_ASSERT(cpu__insn_name(cs, r->id) != NULL);
      CU_ASSERT(strncmp(r->name, "op_", 3) == 0);
      /* An (id, form) pair appears once: a later row would never match. */
      for (const struct cpu__family *const *g = cpu__families; *g; g++)
        for (size_t j = 0; j < (*g)->nrows; j++) {
          const struct cpu__oprow *s = &(*g)->rows[j];
          if (s == r) goto next;
          if (s->id == r->id && s->form == r->form) {
            printf("\n  duplicate row %s/%s and %s/%s", (*g)->name, s->name,
                   (*f)->name, r->name);
            dups++;
            goto next;
          }
        }
    next:;
    }
  cs_close(&cs);
  CU_ASSERT_EQUAL(dups, 0);
}

/* Instructions whose result is not reproducible natively (the harness
 * cannot compare them); test_run.c checks their exits instead. The FS/GS
 * base instructions would read or replace the harness's own TLS. xbegin
 * starts a transaction natively, which the harness's int3 after it aborts
 * with a status of the CPU's choosing, while the emulator never runs one:
 * the replayer applies the abort the recorder made (cases_tsx.c). */
static int exempt(unsigned id) {
  return id == X86_INS_RDTSC || id == X86_INS_RDTSCP || id == X86_INS_RDRAND ||
         id == X86_INS_RDSEED || id == X86_INS_SYSCALL ||
         id == X86_INS_XBEGIN || id == X86_INS_RDFSBASE ||
         id == X86_INS_RDGSBASE || id == X86_INS_WRFSBASE ||
         id == X86_INS_WRGSBASE;
}

void test_decode_every_mnemonic_has_cases(void) {
  csh cs;
  unsigned missing = 0;
  CU_ASSERT_FATAL(cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK);
  for (const struct cpu__family *const *f = cpu__families; *f; f++)
    for (size_t i = 0; i < (*f)->nrows; i++) {
      unsigned id = (*f)->rows[i].id, found = exempt(id);
      for (const struct diff_family *const *d = diff_families; *d && !found;
           d++)
        for (size_t j = 0; j < (*d)->nencs && !found; j++)
          found = (*d)->encs[j].id == id;
      if (!found) {
        printf("\n  %s (family %s) has no differential case",
               cpu__insn_name(cs, id), (*f)->name);
        missing++;
      }
    }
  cs_close(&cs);
  CU_ASSERT_EQUAL(missing, 0);
}

void test_decode_rip_relative_and_segments(void) {
  /* mov rax,[rip+0x10]; mov rax,fs:[0x28]; lea ecx,[rbx+rsi*8-4]; shl eax,1 */
  static const u8 p[] = {0x48, 0x8b, 0x05, 0x10, 0,    0,   0, 0x64,
                         0x48, 0x8b, 0x04, 0x25, 0x28, 0,   0, 0,
                         0x8d, 0x4c, 0xf3, 0xfc, 0xd1, 0xe0};
  struct emu e;
  struct cpu_insn in;
  unsigned how;
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE, &in, &how) == 0);
  CU_ASSERT_EQUAL(in.len, 7);
  CU_ASSERT_EQUAL(in.base, CPU_REG_NONE);
  CU_ASSERT_EQUAL((u64)in.disp, EMU_CODE + 7 + 0x10);
  CU_ASSERT(in.pfx & CPU_PFX_MEM);
  CU_ASSERT_EQUAL(in.reg, RW_REG_rax);
  CU_ASSERT_EQUAL(in.osz, 8);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE + 7, &in, &how) == 0);
  CU_ASSERT_EQUAL(in.seg, CPU_SEG_FS);
  CU_ASSERT_EQUAL(in.disp, 0x28);
  CU_ASSERT_EQUAL(in.index, CPU_REG_NONE);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE + 16, &in, &how) == 0);
  CU_ASSERT_EQUAL(in.base, RW_REG_rbx);
  CU_ASSERT_EQUAL(in.index, RW_REG_rsi);
  CU_ASSERT_EQUAL(in.scale, 3);
  CU_ASSERT_EQUAL(in.disp, -4);
  CU_ASSERT_EQUAL(in.reg, RW_REG_rcx);
  CU_ASSERT_EQUAL(in.osz, 4);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE + 20, &in, &how) == 0);
  CU_ASSERT_EQUAL(in.imm, 1);
  CU_ASSERT_EQUAL(in.rm, RW_REG_rax);
  CU_ASSERT(!(in.pfx & CPU_PFX_MEM));
  emu_close(&e);
}

void test_decode_raw_gfni_forms(void) {
  /* gs: gf2p8affineinvqb xmm8, [r13+r9*4-16], 0x63 (legacy, REX.RXB);
   * vgf2p8affineqb ymm1, ymm0, [rdx+0x10], 5 (VEX.256.W1);
   * f3: gf2p8mulb xmm0, xmm1 (decoded; the handler raises #UD);
   * 0f 38 cf c1 (no 66: undecodable, unsupported). */
  static const u8 p[] = {0x65, 0x66, 0x47, 0x0f, 0x3a, 0xcf, 0x44, 0x8d,
                         0xf0, 0x63, 0xc4, 0xe3, 0xfd, 0xce, 0x4a, 0x10,
                         0x05, 0xf3, 0x66, 0x0f, 0x38, 0xcf, 0xc1, 0x0f,
                         0x38, 0xcf, 0xc1, 0x90, 0x90, 0x90, 0x90, 0x90,
                         0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90};
  struct emu e;
  struct cpu_insn in;
  unsigned how;
  csh cs;
  CU_ASSERT_FATAL(cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK);
  CU_ASSERT_STRING_EQUAL(cpu__insn_name(cs, CPU_INS_VGF2P8MULB),
                         "vgf2p8mulb");
  CU_ASSERT_STRING_EQUAL(cpu__insn_name(cs, X86_INS_AESENC), "aesenc");
  CU_ASSERT(cpu__insn_name(cs, CPU_INS_ENDING) == NULL);
  cs_close(&cs);
  CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE, &in, &how) == 0);
  CU_ASSERT_EQUAL(in.len, 10);
  CU_ASSERT_EQUAL(in.id, CPU_INS_GF2P8AFFINEINVQB);
  CU_ASSERT(in.fn != cpu__op_unsupported);
  CU_ASSERT_EQUAL(in.reg, 8);
  CU_ASSERT(in.pfx & CPU_PFX_MEM);
  CU_ASSERT_EQUAL(in.seg, CPU_SEG_GS);
  CU_ASSERT_EQUAL(in.base, RW_REG_r13);
  CU_ASSERT_EQUAL(in.index, RW_REG_r9);
  CU_ASSERT_EQUAL(in.scale, 2);
  CU_ASSERT_EQUAL(in.disp, -16);
  CU_ASSERT_EQUAL(in.msz, 16);
  CU_ASSERT_EQUAL(in.imm, 0x63);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE + 10, &in, &how) == 0);
  CU_ASSERT_EQUAL(in.len, 7);
  CU_ASSERT_EQUAL(in.id, CPU_INS_VGF2P8AFFINEQB);
  CU_ASSERT(in.fn != cpu__op_unsupported);
  CU_ASSERT_EQUAL(in.reg, 1);
  CU_ASSERT_EQUAL(in.reg2, 0);
  CU_ASSERT_EQUAL(in.base, RW_REG_rdx);
  CU_ASSERT_EQUAL(in.disp, 0x10);
  CU_ASSERT_EQUAL(in.osz, 32);
  CU_ASSERT_EQUAL(in.msz, 32);
  CU_ASSERT_EQUAL(in.imm, 5);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE + 17, &in, &how) == 0);
  CU_ASSERT_EQUAL(in.len, 6);
  CU_ASSERT_EQUAL(in.id, CPU_INS_GF2P8MULB);
  CU_ASSERT(in.pfx & CPU_PFX_REP);
  CU_ASSERT_EQUAL(in.reg, 0);
  CU_ASSERT_EQUAL(in.rm, 1);
  CU_ASSERT_FATAL(cpu__decode(e.cpu, EMU_CODE + 23, &in, &how) == 0);
  CU_ASSERT(in.fn == cpu__op_unsupported);
  emu_close(&e);
}

/* A thread of a recording CPU of VENDOR, FAMILY and MODEL, with no CPUID
 * answers (so every extension), in its own address space *MEM. */
static cpu_thread *model_cpu(cpu_mem **mem, int vendor, u32 family,
                             u32 model) {
  struct cpu_config cfg = {.vendor = vendor, .family = family, .model = model};
  cpu_thread *c = NULL;
  if (cpu_mem_new(mem) || cpu_new(*mem, &cfg, &c)) return NULL;
  return c;
}

/* Encodings Zen 4 (family 0x19 model 0x11, measured) runs and Zen 3, Zen
 * 5 and Intel reject with #UD: VEX.R and vvvv's top bit where they name an
 * opmask, EVEX.b with a register rm on a row that has a broadcast, and
 * EVEX.z without an opmask on a row that takes none. And encodings that
 * are #UD on Zen 4 too. */
void test_decode_zen4_encodings(void) {
  static const struct {
    u8 b[12];
    unsigned n;
    int zen4; /* runs on Zen 4; the others: #UD */
  } t[] = {
      /* kmovb k3, [r8+rsi*2+0x4d], VEX.R set */
      {{0xc4, 0x41, 0x79, 0x90, 0x5c, 0x70, 0x4d}, 7, 1},
      /* kmovq k4, rdx, VEX.R set */
      {{0xc4, 0x61, 0xfb, 0x92, 0xe2}, 5, 1},
      /* kxord k7, k6 (vvvv 14), k2 */
      {{0xc4, 0xc1, 0x8d, 0x47, 0xfa}, 5, 1},
      /* kandw k1, k6 (vvvv 14), k2, two-byte VEX with R set */
      {{0xc5, 0x0c, 0x41, 0xca}, 4, 1},
      /* vucomisd xmm9, [rax+0x3b0], EVEX.z without an opmask */
      {{0x62, 0x71, 0xfd, 0xc8, 0x2e, 0x48, 0x76}, 7, 1},
      /* vpternlogd zmm8, zmm17, zmm31, 0, EVEX.b with a register rm */
      {{0x62, 0x13, 0x75, 0x50, 0x25, 0xc7, 0x00}, 7, 1},
      /* knotw k1, k2 with vvvv 1110b: #UD on Zen 4 too */
      {{0xc4, 0xe1, 0x70, 0x44, 0xca}, 5, 0},
      /* kandw with VEX.L 0: #UD everywhere */
      {{0xc4, 0xe1, 0x68, 0x41, 0xca}, 5, 0},
      /* vmovdqa32 xmm0, xmm1 with EVEX.b: no broadcast, #UD */
      {{0x62, 0xf1, 0x7d, 0x18, 0x6f, 0xc1}, 6, 0},
      /* vpmovm2d xmm1, k2 with EVEX.z: an opmask operand, #UD */
      {{0x62, 0xf2, 0x7e, 0x88, 0x38, 0xca}, 6, 0},
      /* vmovd [rax], xmm1 with EVEX.z: a memory destination, #UD */
      {{0x62, 0xf1, 0x7d, 0x88, 0x7e, 0x08}, 6, 0},
  };
  static const struct {
    int vendor;
    u32 family, model;
    int zen4;
  } cpus[] = {
      {CPU_VENDOR_AMD, 0x19, 0x11, 1},  {CPU_VENDOR_AMD, 0x19, 0x61, 1},
      {CPU_VENDOR_AMD, 0x19, 0x01, 0},  {CPU_VENDOR_AMD, 0x19, 0x21, 0},
      {CPU_VENDOR_AMD, 0x1a, 0x02, 0},  {CPU_VENDOR_AMD, 0, 0, 0},
      {CPU_VENDOR_INTEL, 0x19, 0x11, 0},
  };
  for (size_t k = 0; k < sizeof cpus / sizeof cpus[0]; k++) {
    cpu_mem *mem = NULL;
    cpu_thread *c =
        model_cpu(&mem, cpus[k].vendor, cpus[k].family, cpus[k].model);
    CU_ASSERT_FATAL(c != NULL);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
      struct cpu_insn in;
      memset(&in, 0, sizeof in);
      unsigned xin;
      CU_ASSERT_FATAL(cpu__decode_evex(c, t[i].b, t[i].n, EMU_CODE, &in, &xin));
      CU_ASSERT_EQUAL(in.len, t[i].n);
      int want = t[i].zen4 && cpus[k].zen4;
      if (cpu__evex_runs(&in) != want)
        fprintf(stderr, "cpu %zu encoding %zu: runs %d, expected %d\n", k, i,
                cpu__evex_runs(&in), want);
      CU_ASSERT_EQUAL(cpu__evex_runs(&in), want);
      if (!want) continue;
      /* The ignored bits name nothing: k7 = f(k6, k2); no broadcast and
       * no zeroing left behind. */
      if (i == 2) {
        CU_ASSERT_EQUAL(in.reg, 7);
        CU_ASSERT_EQUAL(in.reg2, 6);
        CU_ASSERT_EQUAL(in.rm & 7, 2);
      }
      if (i == 1) CU_ASSERT_EQUAL(in.reg, 4);
      if (i == 4 || i == 5) CU_ASSERT_EQUAL(in.cond & 0x18, 0);
    }
    cpu_free(c);
    cpu_mem_free(mem);
  }
}

/* cpu_insn_length, which the sampler and the counts use to walk code
 * Capstone 4 cannot decode: VEX forms with and without a ModRM byte, EVEX,
 * hint nops; 0 for what it does not know. */
void test_decode_lengths_without_capstone(void) {
  static const struct {
    u8 b[15];
    unsigned n, len;
  } v[] = {
      {{0xc5, 0xf8, 0x77, 0x31, 0xc0}, 5, 3},       /* vzeroupper */
      {{0xc5, 0xfc, 0x77, 0x90}, 4, 3},             /* vzeroall */
      {{0xc4, 0xe1, 0xf8, 0x98, 0xdb, 0x90}, 6, 5}, /* kortestq k3, k3 */
      {{0xc4, 0xc2, 0xa0, 0xf3, 0xcb}, 5, 5},       /* blsr r11, r11 */
      /* vmovdqu64 zmm0, [rsi + 0x40] (disp8 * 64) */
      {{0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x46, 0x01, 0x90}, 8, 7},
      {{0x90, 0x90}, 2, 0},                         /* nop: Capstone's */
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    unsigned got = cpu_insn_length(v[i].b, v[i].n, 0x1000);
    if (got != v[i].len) printf("\n  case %zu: length %u, not %u", i, got,
                                v[i].len);
    CU_ASSERT_EQUAL(got, v[i].len);
  }
}
