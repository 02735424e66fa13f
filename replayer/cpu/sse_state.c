/* SPDX-License-Identifier: MIT */
/* Saving and loading the SSE state: ldmxcsr/stmxcsr, fxsave/fxrstor (both
 * layouts, the x87 part through x87.h), and the XSAVE family (xsave,
 * xsavec, xsaveopt, xrstor, with their 64-bit forms) for the components the
 * emulator has: x87 (0), SSE (1), the AVX upper halves (2), and AVX-512's
 * opmask registers (5), ZMM0-15's upper halves (6) and ZMM16-31 (7).
 * Components it does not model are treated as being in their initial
 * state, which is what the CPU shows for a program that never used them;
 * the layout of the extended region comes from the recorded cpuid leaf
 * 0xD. */
#include "replayer/cpu/sse_util.h"
#include "replayer/cpu/x87.h"

/* MXCSR_MASK as the host's FXSAVE reports it (0xffff, or 0x2ffff on AMD
 * CPUs with misaligned SSE mode). ldmxcsr and the restores accept its bits,
 * as the CPU does; the AMD misaligned-SSE bit 17 is kept but has no effect
 * here (16-byte alignment is always checked). */
static u32 host_mxcsr_mask(void) {
  static u32 mask;
  if (!mask) {
    u8 img[512] __attribute__((aligned(16))) = {0};
    __asm__ volatile("fxsave64 %0" : "=m"(img));
    u32 m;
    memcpy(&m, img + 28, 4);
    mask = m ? m : 0xffff;
  }
  return mask;
}

static int op_ldmxcsr_Md(struct cpu *cpu, const struct cpu_insn *in) {
  u32 v;
  CPU_TRY(cpu_ld32(cpu, cpu_ea(cpu, in), &v));
  if (v & ~host_mxcsr_mask()) return cpu__fault(cpu, CPU_FAULT_GP);
  cpu->mxcsr = v;
  return CPU_RC_NEXT;
}

static int op_stmxcsr_Md(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_st32(cpu, cpu_ea(cpu, in), cpu->mxcsr);
}

/* Page faults inside a save area are reported as the host CPU (AMD Zen)
 * reports them, which the differential tests check: fxsave and fxrstor
 * touch the area's last byte first, so a fault there is reported at that
 * byte; the XSAVE family starts at the first byte (xrstor at the header).
 * Intel CPUs report the first faulting byte. RC is the code of the access
 * of N bytes at A; WBYTE the byte a write would store at the end (-1 for a
 * read). */
static int fx_fault(struct cpu *cpu, int rc, u64 a, u32 n, int wbyte) {
  if (rc != CPU_FAULT || cpu->exit.fault != CPU_FAULT_PF) return rc;
  struct cpu_exit first = cpu->exit;
  u8 b = 0;
  int r2 = wbyte < 0 ? cpu_ld8(cpu, a + n - 1, &b)
                     : cpu_st8(cpu, a + n - 1, (u8)wbyte);
  if (r2 != CPU_FAULT) cpu->exit = first;
  return rc;
}

/* The XSAVE family: a fault at the first byte is reported there, any other
 * at the area's last byte (host behaviour, see fx_fault). */
static int xs_fault(struct cpu *cpu, int rc, u64 a, u32 n) {
  if (rc == CPU_FAULT && cpu->exit.fault == CPU_FAULT_PF && cpu->exit.addr != a)
    cpu->exit.addr = a + n - 1;
  return rc;
}

/* ---- The legacy region ------------------------------------------------------ */

/* Fills bytes 0-415 of IMG: the x87 part if X87, MXCSR and its mask if MX,
 * XMM0-15 if XMM. */
static void legacy_save(const struct cpu *cpu, u8 *img, int is64, int x87,
                        int mx, int xmm) {
  if (x87) {
    cpu__x87_to_fxsave(cpu, img, is64);
    img[5] = 0;
  }
  if (mx) {
    u32 m = host_mxcsr_mask();
    memcpy(img + 24, &cpu->mxcsr, 4);
    memcpy(img + 28, &m, 4);
  }
  if (xmm)
    for (int i = 0; i < 16; i++) memcpy(img + 160 + 16 * i, cpu->ymm[i].b, 16);
}

/* Reads the MXCSR of IMG; returns -1 if it has reserved bits set. */
static i64 img_mxcsr(const u8 *img) {
  u32 v;
  memcpy(&v, img + 24, 4);
  return (v & ~host_mxcsr_mask()) ? -1 : (i64)v;
}

static int fxsave(struct cpu *cpu, const struct cpu_insn *in, int is64) {
  u64 a = cpu_ea(cpu, in);
  u8 img[512];
  if (a & 15) return cpu__fault(cpu, CPU_FAULT_GP);
  CPU_TRY(fx_fault(cpu, cpu_ldn(cpu, a, img, 512), a, 512, -1));
  legacy_save(cpu, img, is64, 1, 1, 1);
  return fx_fault(cpu, cpu_stn(cpu, a, img, 512), a, 512, img[511]);
}

static int fxrstor(struct cpu *cpu, const struct cpu_insn *in, int is64) {
  u64 a = cpu_ea(cpu, in);
  u8 img[512];
  if (a & 15) return cpu__fault(cpu, CPU_FAULT_GP);
  CPU_TRY(fx_fault(cpu, cpu_ldn(cpu, a, img, 512), a, 512, -1));
  i64 mx = img_mxcsr(img);
  if (mx < 0) return cpu__fault(cpu, CPU_FAULT_GP);
  cpu__x87_from_fxsave(cpu, img, is64);
  cpu->mxcsr = (u32)mx;
  for (int i = 0; i < 16; i++) memcpy(cpu->ymm[i].b, img + 160 + 16 * i, 16);
  return CPU_RC_NEXT;
}

static int op_fxsave_M(struct cpu *cpu, const struct cpu_insn *in) {
  return fxsave(cpu, in, 0);
}
static int op_fxsave64_M(struct cpu *cpu, const struct cpu_insn *in) {
  return fxsave(cpu, in, 1);
}
static int op_fxrstor_M(struct cpu *cpu, const struct cpu_insn *in) {
  return fxrstor(cpu, in, 0);
}
static int op_fxrstor64_M(struct cpu *cpu, const struct cpu_insn *in) {
  return fxrstor(cpu, in, 1);
}

/* ---- XSAVE ----------------------------------------------------------------- */

#define XS_MAX 4096u /* largest area handled */
/* The components xsave writes: x87, SSE, AVX, MPX (3, 4: always in their
 * initial state here), AVX-512 (5-7) and PKRU (9). */
#define XS_MODELED 0x2ffu

static u64 xcr0(const struct cpu *cpu) {
  return cpu->cfg.xcr0 ? cpu->cfg.xcr0 : 3;
}

/* Size, standard offset and 64-byte alignment of component I >= 2, from the
 * recorded cpuid leaf 0xD (defaults for AVX when there is no answer). */
static void comp_geom(struct cpu *cpu, unsigned i, u32 *size, u32 *off,
                      int *align) {
  u32 r[4] = {0, 0, 0, 0};
  if (!cpu->cfg.cpuid || cpu->cfg.cpuid(cpu->cfg.ctx, 0xd, i, r) != 0 ||
      !r[0]) {
    r[0] = i == 2 ? 256 : 0;
    r[1] = i == 2 ? 576 : 0;
    r[2] = 0;
  }
  *size = r[0];
  *off = r[1];
  *align = (r[2] >> 1) & 1;
}

/* Offset of component I in the compacted format for the bitmap COMP. */
static u32 compact_off(struct cpu *cpu, u64 comp, unsigned i) {
  u32 off = 576;
  for (unsigned j = 2; j <= i; j++) {
    if (!((comp >> j) & 1)) continue;
    u32 sz, so;
    int al;
    comp_geom(cpu, j, &sz, &so, &al);
    if (al) off = (off + 63) & ~63u;
    if (j == i) break;
    off += sz;
  }
  return off;
}

/* The AVX-512 components in their standard layout: 5 the opmask registers,
 * 6 bits 511:256 of ZMM0-15, 7 ZMM16-31. Writes component I into IMG and
 * returns its size, or returns 0 for another component. */
static unsigned avx512_get(const struct cpu *cpu, unsigned i, u8 *img) {
  switch (i) {
    case 5:
      memcpy(img, cpu->k, 64);
      return 64;
    case 6:
      for (int r = 0; r < 16; r++) memcpy(img + 32 * r, cpu->zmmh[r].b, 32);
      return 512;
    case 7:
      for (int r = 0; r < 16; r++) {
        memcpy(img + 64 * r, cpu->ymm[16 + r].b, 32);
        memcpy(img + 64 * r + 32, cpu->zmmh[16 + r].b, 32);
      }
      return 1024;
    default:
      return 0;
  }
}

/* Loads component I (5-7) from IMG, or its initial state when IMG is NULL. */
static void avx512_set(struct cpu *cpu, unsigned i, const u8 *img) {
  static const u8 zero[1024];
  if (!img) img = zero;
  switch (i) {
    case 5:
      memcpy(cpu->k, img, 64);
      break;
    case 6:
      for (int r = 0; r < 16; r++) memcpy(cpu->zmmh[r].b, img + 32 * r, 32);
      break;
    case 7:
      for (int r = 0; r < 16; r++) {
        memcpy(cpu->ymm[16 + r].b, img + 64 * r, 32);
        memcpy(cpu->zmmh[16 + r].b, img + 64 * r + 32, 32);
      }
      break;
    default:
      break;
  }
}

/* Whether component I is in use: on Intel, written since it was last put
 * in its initial state (cpu->xinuse, xinuse.c); on AMD, not in its initial
 * configuration. */
static int in_use(const struct cpu *cpu, unsigned i) {
  if (i == 9) return cpu->pkru != 0;
  if (cpu->cfg.vendor != CPU_VENDOR_AMD) return (cpu->xinuse >> i) & 1;
  if (i == 0) {
    const struct cpu_x87 *x = &cpu->x87;
    if (x->fcw != 0x37f || x->fsw || x->ftw || x->fop || x->fip || x->fdp)
      return 1;
    for (int r = 0; r < 8; r++)
      if (x->st[r].mant || x->st[r].se) return 1;
    return 0;
  }
  u8 img[1024];
  unsigned n = avx512_get(cpu, i, img);
  if (n) {
    for (unsigned k = 0; k < n; k++)
      if (img[k]) return 1;
    return 0;
  }
  for (int r = 0; r < 16; r++) {
    const u8 *p = cpu->ymm[r].b + (i == 1 ? 0 : 16);
    for (int k = 0; k < 16; k++)
      if (p[k]) return 1;
  }
  return 0;
}

/* The span of the area an access touches: the header plus every component
 * of BITS at its offset in the format. */
static u32 area_span_of(struct cpu *cpu, u64 which, u64 comp, int compact) {
  u32 end = 576;
  for (unsigned i = 2; i < 63; i++) {
    if (!((which >> i) & 1)) continue;
    u32 sz, off;
    int al;
    comp_geom(cpu, i, &sz, &off, &al);
    if (compact) off = compact_off(cpu, comp, i);
    if (off + sz > end) end = off + sz;
  }
  return end;
}

static u32 area_span(struct cpu *cpu, u64 bits, int compact) {
  return area_span_of(cpu, bits, bits, compact);
}

/* Kinds of save. */
enum { XS_STD, XS_OPT, XS_COMPACT };

static int xsave(struct cpu *cpu, const struct cpu_insn *in, int kind) {
  u64 a = cpu_ea(cpu, in);
  int is64 = (in->pfx & CPU_PFX_REXW) != 0;
  u64 rfbm = ((cpu->gpr[RW_REG_rdx] << 32) | (u32)cpu->gpr[RW_REG_rax]) &
             xcr0(cpu);
  u8 img[XS_MAX];
  if (a & 63) return cpu__fault(cpu, CPU_FAULT_GP);
  if (rfbm & ~(u64)XS_MODELED) return cpu__op_unsupported(cpu, in);
  u32 span = area_span(cpu, rfbm, kind == XS_COMPACT);
  if (span > XS_MAX) return cpu__op_unsupported(cpu, in);
  u32 first = 0;
  if (cpu->cfg.vendor != CPU_VENDOR_AMD) {
    /* Intel (measured, unmapped and read-only pages alike) checks that
     * it can write the area's last byte (by RFBM, whatever it then
     * writes), then the first byte RFBM alone says it writes, in use or
     * not: FCW at 0 with x87, else MXCSR at 24 (XSAVEC: with SSE;
     * XSAVE and XSAVEOPT: with SSE or AVX), else the header at 512. The
     * bytes below that one it leaves alone, in whatever page. */
    first = (rfbm & 1) ? 0 : (rfbm & (kind == XS_COMPACT ? 2 : 6)) ? 24 : 512;
    u8 b;
    CPU_TRY(cpu_ld8(cpu, a + span - 1, &b));
    CPU_TRY(cpu_st8(cpu, a + span - 1, b));
    CPU_TRY(cpu_ld8(cpu, a + first, &b));
    CPU_TRY(cpu_st8(cpu, a + first, b));
  }
  CPU_TRY(xs_fault(cpu, cpu_ldn(cpu, a + first, img + first, span - first),
                   a, span));
  u64 inuse = 0;
  for (unsigned i = 0; i < 10; i++)
    if (((rfbm >> i) & 1) && i != 3 && i != 4 && i != 8 && in_use(cpu, i))
      inuse |= 1ull << i;
  int skip_init = kind != XS_STD;
  /* MXCSR under XSAVEC, measured on Zen 5 and on an Intel Xeon with
   * AVX512-FP16 alike: an MXCSR other than 1F80h counts as SSE state in use
   * (XSTATE_BV[1] set, the XMM registers written too; so does xgetbv 1 on
   * Intel, cpu__xinuse), and MXCSR is written only when that bit is set.
   * XSAVE and XSAVEOPT count the XMM registers alone, and write MXCSR
   * whenever RFBM[1] or RFBM[2] is set. */
  int mx = (rfbm & 6) != 0;
  if (kind == XS_COMPACT) {
    if ((rfbm & 2) && cpu->mxcsr != 0x1f80) inuse |= 2;
    mx = (inuse & 2) != 0;
  }
  legacy_save(cpu, img, is64, (rfbm & 1) && (!skip_init || (inuse & 1)), mx,
              (rfbm & 2) && (!skip_init || (inuse & 2)));
  for (unsigned i = 2; i < 10; i++) {
    if (!((rfbm >> i) & 1)) continue;
    u32 sz, off;
    int al;
    comp_geom(cpu, i, &sz, &off, &al);
    if (kind == XS_COMPACT) off = compact_off(cpu, rfbm, i);
    if (skip_init && !((inuse >> i) & 1)) continue;
    if (i == 2 && sz >= 256)
      for (int r = 0; r < 16; r++) memcpy(img + off + 16 * r, cpu->ymm[r].b + 16, 16);
    else if (i >= 5 && i <= 7 &&
             sz >= (i == 5 ? 64u : i == 6 ? 512u : 1024u))
      avx512_get(cpu, i, img + off);
    else if (i == 9 && sz >= 4) {
      memset(img + off, 0, sz);
      memcpy(img + off, &cpu->pkru, 4);
    } else
      memset(img + off, 0, sz); /* components not modeled: initial state */
  }
  u64 bv;
  memcpy(&bv, img + 512, 8);
  if (kind == XS_COMPACT) {
    u64 comp = rfbm | (1ull << 63);
    bv = inuse;
    memcpy(img + 520, &comp, 8);
  } else {
    bv = (bv & ~rfbm) | inuse;
  }
  memcpy(img + 512, &bv, 8);
  return xs_fault(cpu, cpu_stn(cpu, a + first, img + first, span - first), a,
                  span);
}

static int xrstor(struct cpu *cpu, const struct cpu_insn *in) {
  u64 a = cpu_ea(cpu, in);
  int is64 = (in->pfx & CPU_PFX_REXW) != 0;
  u64 x0 = xcr0(cpu);
  u64 rfbm = ((cpu->gpr[RW_REG_rdx] << 32) | (u32)cpu->gpr[RW_REG_rax]) & x0;
  u8 hdr[64], img[XS_MAX];
  if (a & 63) return cpu__fault(cpu, CPU_FAULT_GP);
  u8 first;
  int intel = cpu->cfg.vendor != CPU_VENDOR_AMD;
  if (intel) { /* Intel reads XCOMP_BV first (measured) */
    u64 cb;
    CPU_TRY(cpu_ld64(cpu, a + 520, &cb));
  } else {
    CPU_TRY(cpu_ld8(cpu, a, &first)); /* AMD touches the first byte first */
  }
  CPU_TRY(cpu_ldn(cpu, a + 512, hdr, 64));
  u64 bv, comp, zero = 0;
  memcpy(&bv, hdr, 8);
  memcpy(&comp, hdr + 8, 8);
  int compact = (comp >> 63) & 1;
  if (intel) {
    /* Then, before it checks the header, the last byte of the area
     * XCOMP_BV (compacted) or RFBM describes, and the first (measured). */
    u64 c = comp & ~(1ull << 63) & x0;
    u32 whole = area_span_of(cpu, compact ? c & rfbm : rfbm, c, compact);
    if (whole <= XS_MAX) CPU_TRY(cpu_ld8(cpu, a + whole - 1, &first));
    CPU_TRY(cpu_ld8(cpu, a, &first));
  }
  for (int i = 16; i < (compact ? 64 : 24); i++) zero |= hdr[i];
  if (compact) {
    comp &= ~(1ull << 63);
    if ((comp & ~x0) || (bv & ~comp) || zero)
      return cpu__fault(cpu, CPU_FAULT_GP);
  } else if ((bv & ~x0) || comp || zero) {
    return cpu__fault(cpu, CPU_FAULT_GP);
  }
  u64 load = rfbm & bv;
  u32 span = area_span_of(cpu, compact ? load : rfbm, comp, compact);
  if (span > XS_MAX) return cpu__op_unsupported(cpu, in);
  CPU_TRY(cpu_ldn(cpu, a, img, span));
  /* MXCSR first: it is the only value that can make xrstor fail. AMD, and
   * Intel in the standard form, fault before loading anything; Intel's
   * compacted form (measured) restores every other component, leaves
   * MXCSR as it was, then faults. */
  int ld_mx = compact ? (load & 2) != 0 : (rfbm & 6) != 0;
  i64 mx = ld_mx ? img_mxcsr(img) : (i64)cpu->mxcsr;
  int bad_mx = mx < 0;
  if (bad_mx && (!compact || cpu->cfg.vendor == CPU_VENDOR_AMD))
    return cpu__fault(cpu, CPU_FAULT_GP);
  if (bad_mx) mx = cpu->mxcsr;
  if (compact && (rfbm & 2) && !(bv & 2) && !bad_mx) mx = 0x1f80;
  for (unsigned i = 3; i < 63; i++) {
    if (!((load >> i) & 1) || (i >= 5 && i <= 7) || i == 9) continue;
    u32 sz, off;
    int al;
    comp_geom(cpu, i, &sz, &off, &al);
    if (compact) off = compact_off(cpu, comp, i);
    for (u32 k = 0; k < sz && off + k < span; k++)
      if (img[off + k]) return cpu__op_unsupported(cpu, in);
  }
  u32 zoff[8] = {0}; /* offsets of the AVX-512 components 5-7 */
  for (unsigned i = 5; i <= 7; i++) {
    if (!((rfbm >> i) & 1)) continue;
    u32 sz;
    int al;
    comp_geom(cpu, i, &sz, &zoff[i], &al);
    if (compact) zoff[i] = compact_off(cpu, comp, i);
    if (((load >> i) & 1) &&
        (sz < (i == 5 ? 64u : i == 6 ? 512u : 1024u) || zoff[i] + sz > span))
      return cpu__op_unsupported(cpu, in); /* a layout we do not know */
  }
  u32 pkru = 0; /* component 9's initial state */
  if (load & (1u << 9)) {
    u32 sz, off;
    int al;
    comp_geom(cpu, 9, &sz, &off, &al);
    if (compact) off = compact_off(cpu, comp, 9);
    if (sz < 4 || off + 4 > span) return cpu__op_unsupported(cpu, in);
    memcpy(&pkru, img + off, 4);
  }
  if (rfbm & 1) {
    u8 init[512] = {0};
    init[0] = 0x7f;
    init[1] = 0x03;
    cpu__x87_from_fxsave(cpu, (load & 1) ? img : init, is64);
  }
  if (rfbm & 2)
    for (int r = 0; r < 16; r++) {
      if (load & 2)
        memcpy(cpu->ymm[r].b, img + 160 + 16 * r, 16);
      else
        memset(cpu->ymm[r].b, 0, 16);
    }
  /* With the Intel fault above, the components past SSE are only
   * initialised: those it would load keep their values (measured). */
  u64 ext = bad_mx ? rfbm & ~load : rfbm;
  if (ext & 4) {
    u32 sz, off;
    int al;
    comp_geom(cpu, 2, &sz, &off, &al);
    if (compact) off = compact_off(cpu, comp, 2);
    for (int r = 0; r < 16; r++) {
      if (load & 4)
        memcpy(cpu->ymm[r].b + 16, img + off + 16 * r, 16);
      else
        memset(cpu->ymm[r].b + 16, 0, 16);
    }
  }
  for (unsigned i = 5; i <= 7; i++)
    if ((ext >> i) & 1)
      avx512_set(cpu, i, ((load >> i) & 1) ? img + zoff[i] : NULL);
  if (ext & (1u << 9)) cpu->pkru = pkru;
  cpu->mxcsr = (u32)mx;
  /* Intel: what it loads is in use, what it initialises is not. */
  u64 done = bad_mx ? (rfbm & 3) | ext : rfbm;
  cpu->xinuse = (u32)((cpu->xinuse & ~done) | (load & done & 0xe7));
  return bad_mx ? cpu__fault(cpu, CPU_FAULT_GP) : CPU_RC_NEXT;
}

/* What rt_sigreturn does to components 5-7 (the kernel's user-space
 * signal frame is the standard XSAVE format): with a valid extended frame
 * (FP_XSTATE_MAGIC1 in the software bytes, FP_XSTATE_MAGIC2 after the
 * area), each one the frame's xfeatures and its XSTATE_BV both name is
 * loaded; every other one goes back to its initial state. */
int cpu_sigreturn_avx512(cpu_thread *cpu, u64 fp) {
  u8 sw[20], img[1024];
  u32 magic1 = 0, xsize = 0, ext = 0, magic2 = 0;
  u64 feat = 0, bv = 0;
  if (!(xcr0(cpu) & 0xe0)) return 0;
  int ok = cpu_mem_read(cpu->mem, fp + 464, sw, sizeof sw) == 0;
  if (ok) {
    memcpy(&magic1, sw, 4);
    memcpy(&ext, sw + 4, 4);
    memcpy(&feat, sw + 8, 8);
    memcpy(&xsize, sw + 16, 4);
    ok = magic1 == 0x46505853u && xsize >= 576 && xsize <= ext &&
         cpu_mem_read(cpu->mem, fp + xsize, &magic2, 4) == 0 &&
         magic2 == 0x46505845u &&
         cpu_mem_read(cpu->mem, fp + 512, &bv, 8) == 0;
  }
  for (unsigned i = 5; i <= 7; i++) {
    u32 sz, off, need = i == 5 ? 64u : i == 6 ? 512u : 1024u;
    int al;
    comp_geom(cpu, i, &sz, &off, &al);
    int load = ok && ((feat & bv & xcr0(cpu)) >> i & 1) && sz >= need &&
               off + need <= xsize &&
               cpu_mem_read(cpu->mem, fp + off, img, need) == 0;
    avx512_set(cpu, i, load ? img : NULL);
  }
  return 0;
}

void cpu_sigreturn_xinuse(cpu_thread *cpu, u64 fp) {
  u8 sw[20];
  u32 magic1 = 0, xsize = 0, magic2 = 0;
  u64 feat = 0, bv = 0;
  if (cpu_mem_read(cpu->mem, fp + 464, sw, sizeof sw) == 0) {
    memcpy(&magic1, sw, 4);
    memcpy(&feat, sw + 8, 8);
    memcpy(&xsize, sw + 16, 4);
  }
  if (magic1 == 0x46505853u && xsize >= 576 &&
      cpu_mem_read(cpu->mem, fp + xsize, &magic2, 4) == 0 &&
      magic2 == 0x46505845u && cpu_mem_read(cpu->mem, fp + 512, &bv, 8) == 0)
    cpu->xinuse = (u32)(bv & feat & xcr0(cpu) & 0xe7);
  else
    cpu->xinuse = CPU_XIN_X87 | CPU_XIN_SSE; /* an fxrstor of the frame */
}

static int op_xsave_M(struct cpu *cpu, const struct cpu_insn *in) {
  return xsave(cpu, in, XS_STD);
}
static int op_xsaveopt_M(struct cpu *cpu, const struct cpu_insn *in) {
  return xsave(cpu, in, XS_OPT);
}
static int op_xsavec_M(struct cpu *cpu, const struct cpu_insn *in) {
  return xsave(cpu, in, XS_COMPACT);
}
static int op_xrstor_M(struct cpu *cpu, const struct cpu_insn *in) {
  return xrstor(cpu, in);
}

static const struct cpu__oprow sse_state_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_state.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_state)
