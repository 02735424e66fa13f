/* SPDX-License-Identifier: MIT */
/* The x86-64 GNU/Linux target description gdb reads with
 * qXfer:features:read:target.xml, and the values of gdb's registers taken
 * from a struct rw_regs for 'p', 'g' and stop replies. Both come from the
 * rows of gdbstub/gdbregs.def, so the numbering gdb learns from the XML is
 * the one the replies use; a feature the recording's XCR0 lacks is left
 * out of both. gdb_reg_write is the way back, for a diversion's writes. */
#include <string.h>

#include "common/endian.h"
#include "gdbstub/gdbstub_int.h"

enum reg_src {
  SRC_GPR, SRC_RIP, SRC_RFLAGS, SRC_ORIG_RAX, SRC_FS_BASE, SRC_GS_BASE,
  SRC_SEG, SRC_ST, SRC_FX16, SRC_FX32, SRC_FOP, SRC_FTAG, SRC_XMM, SRC_YMMH,
  SRC_ZMMH, SRC_K, SRC_PKRU,
};

enum reg_feature {
  FEAT_CORE, FEAT_SSE, FEAT_LINUX, FEAT_SEGMENTS, FEAT_AVX, FEAT_AVX512,
  FEAT_PKEYS, FEAT_COUNT
};

/* Each feature's name, and the XCR0 bits it needs to be offered. The AVX
 * feature is offered always, as before AVX-512 was described: gdb shows
 * zero upper halves on a machine without AVX. */
static const struct {
  const char *name;
  u64 xcr0;
} features[FEAT_COUNT] = {
    [FEAT_CORE] = {"org.gnu.gdb.i386.core", 0},
    [FEAT_SSE] = {"org.gnu.gdb.i386.sse", 0},
    [FEAT_LINUX] = {"org.gnu.gdb.i386.linux", 0},
    [FEAT_SEGMENTS] = {"org.gnu.gdb.i386.segments", 0},
    [FEAT_AVX] = {"org.gnu.gdb.i386.avx", 0},
    [FEAT_AVX512] = {"org.gnu.gdb.i386.avx512", GDB_XCR0_AVX512},
    [FEAT_PKEYS] = {"org.gnu.gdb.i386.pkeys", GDB_XCR0_PKRU},
};

struct reg_info {
  const char *name;  /* gdb's name */
  const char *type;  /* tdesc type */
  const char *group; /* group attribute or "" */
  u16 bits;          /* size in bits */
  u8 feature;        /* enum reg_feature */
  u8 src;            /* enum reg_src */
  u8 arg;            /* index or fxsave offset, per src */
};

static const struct reg_info regs_tab[GDB_NREGS] = {
#define GDB_REG(num, id, name, bits, type, group, feature, src, arg) \
  [num] = {#name, #type, group, bits, FEAT_##feature, SRC_##src, arg},
#include "gdbstub/gdbregs.def"
#undef GDB_REG
};

/* The rows must number the registers 0..GDB_NREGS-1 in order, since the 'g'
 * reply concatenates them by number, and fit the replies' GDB_REG_MAX-byte
 * buffers. */
#define GDB_REG(num, id, name, bits, type, group, feature, src, arg) \
  _Static_assert(num < GDB_NREGS, #name " numbered past the end");   \
  _Static_assert(bits % 8 == 0 && bits / 8 <= GDB_REG_MAX, #name " size");
#include "gdbstub/gdbregs.def"
#undef GDB_REG

static int feature_offered(unsigned f, u64 xcr0) {
  return (xcr0 & features[f].xcr0) == features[f].xcr0;
}

int gdb_reg_offered(unsigned regnum, u64 xcr0) {
  return regnum < GDB_NREGS && feature_offered(regs_tab[regnum].feature, xcr0);
}

/* ---- Values ------------------------------------------------------------- */

u16 gdb_x87_full_tag(const u8 fxsave[512]) {
  unsigned top = (rd_le16(fxsave + 2) >> 11) & 7;
  u8 abridged = fxsave[4];
  u16 tag = 0;
  for (unsigned phys = 0; phys < 8; phys++) {
    unsigned t = 3; /* empty */
    if (abridged >> phys & 1) {
      /* FXSAVE keeps the registers in stack order: ST(i) is physical
       * register (TOP + i) mod 8. */
      const u8 *st = fxsave + 32 + 16 * ((phys - top) & 7);
      u64 mant = rd_le64(st);
      unsigned exp = rd_le16(st + 8) & 0x7fff;
      if (exp == 0x7fff)
        t = 2; /* infinity or NaN */
      else if (exp == 0)
        t = mant == 0 ? 1 : 2; /* zero, or denormal */
      else
        t = mant >> 63 ? 0 : 2; /* valid, or unnormal */
    }
    tag = (u16)(tag | t << (2 * phys));
  }
  return tag;
}

int gdb_reg_read(const struct rw_regs *regs, unsigned regnum, u8 *dst,
                 size_t cap) {
  const struct reg_info *ri;
  const u8 *fx = regs->fxsave;
  unsigned size;
  RW_RETURN_IF(regnum >= GDB_NREGS, RW_ENOTFOUND, "register %u", regnum);
  ri = &regs_tab[regnum];
  size = ri->bits / 8u;
  RW_RETURN_IF(cap < size, RW_ELIMIT, "register %u needs %u bytes", regnum,
               size);
  switch ((enum reg_src)ri->src) {
    case SRC_GPR:
      wr_le64(dst, regs->gpr[ri->arg]);
      break;
    case SRC_RIP:
      wr_le64(dst, regs->rip);
      break;
    case SRC_RFLAGS:
      wr_le32(dst, (u32)regs->rflags);
      break;
    case SRC_ORIG_RAX:
      wr_le64(dst, regs->orig_rax);
      break;
    case SRC_FS_BASE:
      wr_le64(dst, regs->fs_base);
      break;
    case SRC_GS_BASE:
      wr_le64(dst, regs->gs_base);
      break;
    case SRC_SEG:
      wr_le32(dst, regs->seg[ri->arg]);
      break;
    case SRC_ST:
      memcpy(dst, fx + 32 + 16 * ri->arg, 10);
      break;
    case SRC_FX16:
      wr_le32(dst, rd_le16(fx + ri->arg));
      break;
    case SRC_FX32:
      wr_le32(dst, rd_le32(fx + ri->arg));
      break;
    case SRC_FOP:
      wr_le32(dst, rd_le16(fx + ri->arg) & 0x7ffu);
      break;
    case SRC_FTAG:
      wr_le32(dst, gdb_x87_full_tag(fx));
      break;
    case SRC_XMM: /* bits 127:0 */
      if (ri->arg < 16)
        memcpy(dst, fx + 160 + 16 * ri->arg, 16);
      else
        memcpy(dst, regs->hi16 + 64 * (ri->arg - 16), 16);
      break;
    case SRC_YMMH: /* bits 255:128 */
      if (ri->arg < 16)
        memcpy(dst, regs->ymmh + 16 * ri->arg, 16);
      else
        memcpy(dst, regs->hi16 + 64 * (ri->arg - 16) + 16, 16);
      break;
    case SRC_ZMMH: /* bits 511:256 */
      if (ri->arg < 16)
        memcpy(dst, regs->zmmh + 32 * ri->arg, 32);
      else
        memcpy(dst, regs->hi16 + 64 * (ri->arg - 16) + 32, 32);
      break;
    case SRC_K:
      wr_le64(dst, regs->k[ri->arg]);
      break;
    case SRC_PKRU:
      wr_le32(dst, regs->pkru);
      break;
  }
  return (int)size;
}

/* The abridged FXSAVE tag byte of gdb's full tag word TAG: a register is
 * in use unless its two bits say empty (11). */
static u8 x87_abridged(u16 tag) {
  u8 b = 0;
  for (unsigned phys = 0; phys < 8; phys++)
    if ((tag >> (2 * phys) & 3) != 3) b = (u8)(b | 1u << phys);
  return b;
}

int gdb_reg_write(struct rw_regs *regs, unsigned regnum, const u8 *src,
                  size_t len) {
  const struct reg_info *ri;
  u8 *fx = regs->fxsave;
  RW_RETURN_IF(regnum >= GDB_NREGS, RW_ENOTFOUND, "register %u", regnum);
  ri = &regs_tab[regnum];
  RW_RETURN_IF(len != ri->bits / 8u, RW_EINVAL, "register %u takes %u "
               "bytes, not %zu", regnum, ri->bits / 8u, len);
  switch ((enum reg_src)ri->src) {
    case SRC_GPR:
      regs->gpr[ri->arg] = rd_le64(src);
      break;
    case SRC_RIP:
      regs->rip = rd_le64(src);
      break;
    case SRC_RFLAGS:
      regs->rflags = rd_le32(src);
      break;
    case SRC_ORIG_RAX:
      regs->orig_rax = rd_le64(src);
      break;
    case SRC_FS_BASE:
      regs->fs_base = rd_le64(src);
      break;
    case SRC_GS_BASE:
      regs->gs_base = rd_le64(src);
      break;
    case SRC_SEG:
      regs->seg[ri->arg] = (u16)rd_le32(src);
      break;
    case SRC_ST:
      memcpy(fx + 32 + 16 * ri->arg, src, 10);
      break;
    case SRC_FX16:
      wr_le16(fx + ri->arg, (u16)rd_le32(src));
      break;
    case SRC_FX32:
      wr_le32(fx + ri->arg, rd_le32(src));
      break;
    case SRC_FOP:
      wr_le16(fx + ri->arg, (u16)(rd_le32(src) & 0x7ffu));
      break;
    case SRC_FTAG:
      fx[4] = x87_abridged((u16)rd_le32(src));
      break;
    case SRC_XMM:
      if (ri->arg < 16)
        memcpy(fx + 160 + 16 * ri->arg, src, 16);
      else
        memcpy(regs->hi16 + 64 * (ri->arg - 16), src, 16);
      break;
    case SRC_YMMH:
      if (ri->arg < 16)
        memcpy(regs->ymmh + 16 * ri->arg, src, 16);
      else
        memcpy(regs->hi16 + 64 * (ri->arg - 16) + 16, src, 16);
      break;
    case SRC_ZMMH:
      if (ri->arg < 16)
        memcpy(regs->zmmh + 32 * ri->arg, src, 32);
      else
        memcpy(regs->hi16 + 64 * (ri->arg - 16) + 32, src, 32);
      break;
    case SRC_K:
      regs->k[ri->arg] = rd_le64(src);
      break;
    case SRC_PKRU:
      regs->pkru = rd_le32(src);
      break;
  }
  return 0;
}

int gdb_reg_put_hex(struct gdb_buf *b, const struct rw_regs *regs,
                    unsigned regnum, u64 xcr0) {
  u8 v[GDB_REG_MAX];
  int n;
  RW_RETURN_IF(!gdb_reg_offered(regnum, xcr0), RW_ENOTFOUND,
               "register %u not offered for xcr0 %#llx", regnum,
               (unsigned long long)xcr0);
  n = gdb_reg_read(regs, regnum, v, sizeof v);
  RW_FORWARD(n);
  gdb_buf_put_hex(b, v, (size_t)n);
  return 0;
}

void gdb_regs_put_g(struct gdb_buf *b, const struct rw_regs *regs, u64 xcr0) {
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    if (!gdb_reg_offered(i, xcr0)) continue;
    if (gdb_reg_put_hex(b, regs, i, xcr0) < 0 && !b->err) b->err = RW_EINVAL;
  }
}

const char *gdb_reg_name(unsigned regnum) {
  return regnum < GDB_NREGS ? regs_tab[regnum].name : NULL;
}

unsigned gdb_reg_size(unsigned regnum) {
  return regnum < GDB_NREGS ? regs_tab[regnum].bits / 8u : 0;
}

/* ---- The XML ------------------------------------------------------------ */

struct bit_field {
  const char *name;
  u8 bit;
};

/* RFLAGS bits gdb names in "info registers" (bit 1 is always one). */
static const struct bit_field eflags_fields[] = {
    {"CF", 0},  {"", 1},    {"PF", 2},   {"AF", 4},   {"ZF", 6},
    {"SF", 7},  {"TF", 8},  {"IF", 9},   {"DF", 10},  {"OF", 11},
    {"NT", 14}, {"RF", 16}, {"VM", 17},  {"AC", 18},  {"VIF", 19},
    {"VIP", 20}, {"ID", 21},
};

/* MXCSR exception flags, DAZ, masks and FZ. */
static const struct bit_field mxcsr_fields[] = {
    {"IE", 0}, {"DE", 1}, {"ZE", 2},  {"OE", 3},  {"UE", 4},
    {"PE", 5}, {"DAZ", 6}, {"IM", 7}, {"DM", 8},  {"ZM", 9},
    {"OM", 10}, {"UM", 11}, {"PM", 12}, {"FZ", 15},
};

/* The views gdb offers of a 128-bit vector register: name, element type
 * and count (0 count: the element type itself). */
static const struct {
  const char *field, *id, *elem;
  u8 count;
} vec128_views[] = {
    {"v4_float", "v4f", "ieee_single", 4},
    {"v2_double", "v2d", "ieee_double", 2},
    {"v16_int8", "v16i8", "int8", 16},
    {"v8_int16", "v8i16", "int16", 8},
    {"v4_int32", "v4i32", "int32", 4},
    {"v2_int64", "v2i64", "int64", 2},
    {"uint128", "uint128", "uint128", 0},
};

/* The union gdb shows a 128-bit vector register as. */
static void put_vec128(struct gdb_buf *b) {
  for (size_t i = 0; i < RW_ARRAY_SIZE(vec128_views); i++)
    if (vec128_views[i].count)
      gdb_buf_printf(b, "<vector id=\"%s\" type=\"%s\" count=\"%u\"/>\n",
                     vec128_views[i].id, vec128_views[i].elem,
                     vec128_views[i].count);
  gdb_buf_puts(b, "<union id=\"vec128\">\n");
  for (size_t i = 0; i < RW_ARRAY_SIZE(vec128_views); i++)
    gdb_buf_printf(b, "<field name=\"%s\" type=\"%s\"/>\n",
                   vec128_views[i].field, vec128_views[i].id);
  gdb_buf_puts(b, "</union>\n");
}

static void put_flags(struct gdb_buf *b, const char *id,
                      const struct bit_field *f, size_t n) {
  gdb_buf_printf(b, "<flags id=\"%s\" size=\"4\">\n", id);
  for (size_t i = 0; i < n; i++)
    gdb_buf_printf(b, "<field name=\"%s\" start=\"%u\" end=\"%u\"/>\n",
                   f[i].name, f[i].bit, f[i].bit);
  gdb_buf_puts(b, "</flags>\n");
}

/* Types a feature's registers refer to, defined inside that feature (gdb
 * looks a register's type up in its own feature only, so the AVX-512 one
 * defines vec128 again, as gdb's 64bit-avx512.xml does). */
static void put_types(struct gdb_buf *b, enum reg_feature f) {
  switch (f) {
    case FEAT_CORE:
      put_flags(b, "i386_eflags", eflags_fields,
                RW_ARRAY_SIZE(eflags_fields));
      break;
    case FEAT_SSE:
      put_vec128(b);
      put_flags(b, "i386_mxcsr", mxcsr_fields, RW_ARRAY_SIZE(mxcsr_fields));
      break;
    case FEAT_AVX512:
      put_vec128(b);
      gdb_buf_puts(b,
                   "<vector id=\"v2ui128\" type=\"uint128\" count=\"2\"/>\n");
      break;
    case FEAT_LINUX:
    case FEAT_SEGMENTS:
    case FEAT_AVX:
    case FEAT_PKEYS:
    case FEAT_COUNT:
      break;
  }
}

void gdb_tdesc_xml(struct gdb_buf *b, u64 xcr0) {
  gdb_buf_puts(b,
               "<?xml version=\"1.0\"?>\n"
               "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
               "<target version=\"1.0\">\n"
               "<architecture>i386:x86-64</architecture>\n"
               "<osabi>GNU/Linux</osabi>\n");
  for (unsigned f = 0; f < FEAT_COUNT; f++) {
    if (!feature_offered(f, xcr0)) continue;
    gdb_buf_printf(b, "<feature name=\"%s\">\n", features[f].name);
    put_types(b, (enum reg_feature)f);
    for (unsigned i = 0; i < GDB_NREGS; i++) {
      const struct reg_info *ri = &regs_tab[i];
      if (ri->feature != f) continue;
      gdb_buf_printf(b, "<reg name=\"%s\" bitsize=\"%u\" type=\"%s\" "
                     "regnum=\"%u\"", ri->name, ri->bits, ri->type, i);
      if (ri->group[0]) gdb_buf_printf(b, " group=\"%s\"", ri->group);
      gdb_buf_puts(b, "/>\n");
    }
    gdb_buf_puts(b, "</feature>\n");
  }
  gdb_buf_puts(b, "</target>\n");
}

int gdb_tdesc_lookup(const char *name, size_t len, u64 xcr0,
                     struct gdb_buf *b) {
  static const char annex[] = "target.xml";
  RW_RETURN_IF(len != sizeof annex - 1 || memcmp(name, annex, len) != 0,
               RW_ENOTFOUND, "no tdesc annex %.*s", (int)RW_MIN(len, 64),
               name);
  gdb_tdesc_xml(b, xcr0);
  return b->err;
}
