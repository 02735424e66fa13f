/* SPDX-License-Identifier: MIT */
/* Suite "tdesc": the register table, values taken from struct rw_regs (the
 * x87 tag word rebuilt from FXSAVE's abridged one included) and written
 * back into one (a diversion's P and G), the 'g' reply,
 * the XML with and without the AVX-512 feature, and real gdb: it must
 * accept the XML with our numbering and g offsets, and print the values
 * fake_stub serves as we intend. */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/endian.h"
#include "tests/gdbstub/util.h"

static void sample_regs(struct rw_regs *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < RW_NGPR; i++) r->gpr[i] = 0x0101010101010101ull * (u64)i;
  r->rip = 0x401000;
  r->rflags = 0x10246;
  r->fs_base = 0x7ffff7d8a740ull;
  r->gs_base = 0x1234;
  r->orig_rax = 0x3c;
  for (int i = 0; i < RW_NSEG; i++) r->seg[i] = (u16)(0x10 + i);
  for (int i = 0; i < 512; i++) r->fxsave[i] = (u8)(i * 7);
  for (int i = 0; i < 256; i++) r->ymmh[i] = (u8)(255 - i);
  for (int i = 0; i < 512; i++) r->zmmh[i] = (u8)(i * 3 + 1);
  for (int i = 0; i < 1024; i++) r->hi16[i] = (u8)(i * 5 + 2);
  for (int i = 0; i < 8; i++) r->k[i] = 0x0102030405060708ull * (u64)(i + 1);
}

/* XCR0 of a machine with x87, SSE and AVX only, and with AVX-512 too. */
#define XCR0_AVX 0x7ull
#define XCR0_AVX512 0xe7ull

void test_tdesc_table(void) {
  unsigned total = 0;
  CU_ASSERT_EQUAL(GDB_NREGS, 149);
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(GDB_REGNUM_RAX), "rax");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(1), "rbx");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(16), "rip");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(17), "eflags");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(24), "st0");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(34), "ftag");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(40), "xmm0");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(56), "mxcsr");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(57), "orig_rax");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(58), "fs_base");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(59), "gs_base");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(60), "ymm0h");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(75), "ymm15h");
  /* gdb's 64bit-avx512.xml order: xmm16-31, ymm16h-31h, k0-7, zmm0h-31h. */
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(76), "xmm16");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(91), "xmm31");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(92), "ymm16h");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(107), "ymm31h");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(108), "k0");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(115), "k7");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(116), "zmm0h");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(131), "zmm15h");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(132), "zmm16h");
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(147), "zmm31h");
  CU_ASSERT_EQUAL(GDB_REGNUM_XMM16, 76);
  CU_ASSERT_EQUAL(GDB_REGNUM_K0, 108);
  CU_ASSERT_EQUAL(GDB_REGNUM_ZMM31H, 147);
  CU_ASSERT_STRING_EQUAL(gdb_reg_name(148), "pkru"); /* 64bit-pkeys.xml */
  CU_ASSERT_EQUAL(GDB_REGNUM_PKRU, 148);
  CU_ASSERT_PTR_NULL(gdb_reg_name(149));
  CU_ASSERT_EQUAL(gdb_reg_size(24), 10);
  CU_ASSERT_EQUAL(gdb_reg_size(76), 16);
  CU_ASSERT_EQUAL(gdb_reg_size(92), 16);
  CU_ASSERT_EQUAL(gdb_reg_size(108), 8);
  CU_ASSERT_EQUAL(gdb_reg_size(116), 32);
  CU_ASSERT_EQUAL(gdb_reg_size(147), 32);
  CU_ASSERT_EQUAL(gdb_reg_size(148), 4);
  CU_ASSERT_EQUAL(gdb_reg_size(149), 0);
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    CU_ASSERT_PTR_NOT_NULL(gdb_reg_name(i));
    CU_ASSERT(gdb_reg_size(i) <= GDB_REG_MAX);
    total += gdb_reg_size(i);
  }
  CU_ASSERT_EQUAL(total, 816 + 16 * 16 + 16 * 16 + 8 * 8 + 32 * 32 + 4);
}

/* The AVX-512 registers are offered when XCR0 enables the opmask,
 * ZMM_Hi256 and Hi16_ZMM components, all three; pkru when it enables
 * PKRU; the rest always. */
void test_tdesc_offered(void) {
  static const u64 partial[] = {0x67, 0xa7, 0xc7, 0x3, 0x207, 0x267};
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    int avx512 = i >= GDB_REGNUM_XMM16 && i <= GDB_REGNUM_ZMM31H;
    int pkru = i == GDB_REGNUM_PKRU;
    CU_ASSERT_EQUAL(gdb_reg_offered(i, XCR0_AVX512), !pkru);
    CU_ASSERT_EQUAL(gdb_reg_offered(i, XCR0_AVX512 | 0x200), 1);
    CU_ASSERT_EQUAL(gdb_reg_offered(i, ~0ull), 1);
    CU_ASSERT_EQUAL(gdb_reg_offered(i, XCR0_AVX), !avx512 && !pkru);
    for (size_t k = 0; k < RW_ARRAY_SIZE(partial); k++)
      CU_ASSERT_EQUAL(gdb_reg_offered(i, partial[k]),
                      !avx512 && (!pkru || (partial[k] & 0x200)));
  }
  CU_ASSERT_EQUAL(gdb_reg_offered(GDB_NREGS, ~0ull), 0);
  CU_ASSERT_EQUAL(gdb_reg_offered(UINT_MAX, ~0ull), 0);
}

/* Reads register N of R into a fresh buffer and compares it with WANT. */
static void expect_reg(const struct rw_regs *r, unsigned n, const void *want,
                       int size) {
  u8 v[GDB_REG_MAX];
  int got = gdb_reg_read(r, n, v, sizeof v);
  CU_ASSERT_EQUAL(got, size);
  if (got == size) CU_ASSERT(memcmp(v, want, (size_t)size) == 0);
  if (got != size || memcmp(v, want, (size_t)size))
    fprintf(stderr, "register %u (%s) differs\n", n, gdb_reg_name(n));
}

void test_tdesc_values(void) {
  struct rw_regs r;
  u8 w[GDB_REG_MAX];
  sample_regs(&r);
  /* gdb orders rax rbx rcx rdx rsi rdi rbp rsp; the encoding order is
   * rax rcx rdx rbx rsp rbp rsi rdi. */
  static const unsigned enc[16] = {0, 3, 1, 2, 6, 7, 5, 4,
                                   8, 9, 10, 11, 12, 13, 14, 15};
  for (unsigned i = 0; i < 16; i++) {
    wr_le64(w, r.gpr[enc[i]]);
    expect_reg(&r, i, w, 8);
  }
  wr_le64(w, r.rip), expect_reg(&r, 16, w, 8);
  wr_le32(w, 0x10246), expect_reg(&r, 17, w, 4);
  static const unsigned seg[6] = {RW_SEG_cs, RW_SEG_ss, RW_SEG_ds,
                                  RW_SEG_es, RW_SEG_fs, RW_SEG_gs};
  for (unsigned i = 0; i < 6; i++) {
    wr_le32(w, r.seg[seg[i]]);
    expect_reg(&r, 18 + i, w, 4);
  }
  for (unsigned i = 0; i < 8; i++) expect_reg(&r, 24 + i, r.fxsave + 32 + 16 * i, 10);
  wr_le32(w, rd_le16(r.fxsave + 0)), expect_reg(&r, 32, w, 4);  /* fctrl */
  wr_le32(w, rd_le16(r.fxsave + 2)), expect_reg(&r, 33, w, 4);  /* fstat */
  wr_le32(w, gdb_x87_full_tag(r.fxsave)), expect_reg(&r, 34, w, 4);
  expect_reg(&r, 35, r.fxsave + 12, 4); /* fiseg: high half of FIP */
  expect_reg(&r, 36, r.fxsave + 8, 4);  /* fioff */
  expect_reg(&r, 37, r.fxsave + 20, 4); /* foseg */
  expect_reg(&r, 38, r.fxsave + 16, 4); /* fooff */
  wr_le32(w, rd_le16(r.fxsave + 6) & 0x7ff), expect_reg(&r, 39, w, 4);
  for (unsigned i = 0; i < 16; i++) expect_reg(&r, 40 + i, r.fxsave + 160 + 16 * i, 16);
  expect_reg(&r, 56, r.fxsave + 24, 4);
  wr_le64(w, 0x3c), expect_reg(&r, 57, w, 8);
  wr_le64(w, r.fs_base), expect_reg(&r, 58, w, 8);
  wr_le64(w, r.gs_base), expect_reg(&r, 59, w, 8);
  for (unsigned i = 0; i < 16; i++) expect_reg(&r, 60 + i, r.ymmh + 16 * i, 16);
  /* zmm16-31 are 64 bytes each in hi16: xmm, then ymmh, then zmmh. */
  for (unsigned i = 0; i < 16; i++) {
    expect_reg(&r, 76 + i, r.hi16 + 64 * i, 16);       /* xmm16+i */
    expect_reg(&r, 92 + i, r.hi16 + 64 * i + 16, 16);  /* ymm16h+i */
    expect_reg(&r, 116 + i, r.zmmh + 32 * i, 32);      /* zmm0h+i */
    expect_reg(&r, 132 + i, r.hi16 + 64 * i + 32, 32); /* zmm16h+i */
  }
  for (unsigned i = 0; i < 8; i++) {
    wr_le64(w, r.k[i]);
    expect_reg(&r, 108 + i, w, 8);
  }
  r.pkru = 0x5555555c;
  wr_le32(w, 0x5555555c), expect_reg(&r, 148, w, 4);
  CU_ASSERT_EQUAL(gdb_reg_read(&r, 149, w, sizeof w), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(gdb_reg_read(&r, UINT_MAX, w, sizeof w), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(gdb_reg_read(&r, 40, w, 15), RW_ELIMIT);
  CU_ASSERT_EQUAL(gdb_reg_read(&r, 147, w, 31), RW_ELIMIT);
  CU_ASSERT_EQUAL(gdb_reg_read(&r, 24, w, 10), 10);
}

/* FXSAVE image with status word FSW, abridged tag TAG and ST(i) set from
 * the pairs (mantissa, sign|exponent) in ST. */
static void fx_with(u8 fx[512], u16 fsw, u8 tag, const u64 st[8][2]) {
  memset(fx, 0, 512);
  wr_le16(fx + 2, fsw);
  fx[4] = tag;
  for (int i = 0; i < 8; i++) {
    wr_le64(fx + 32 + 16 * i, st[i][0]);
    wr_le16(fx + 40 + 16 * i, (u16)st[i][1]);
  }
}

void test_tdesc_x87_tag(void) {
  static const u64 one = 0x8000000000000000ull;
  u8 fx[512];
  u64 st[8][2];
  memset(st, 0, sizeof st);
  fx_with(fx, 0, 0, st);
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0xffff); /* all empty */
  st[0][0] = one, st[0][1] = 0x3fff;             /* ST(0) = 1.0 */
  fx_with(fx, 0, 0x01, st);
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0xfffc);
  fx_with(fx, 7 << 11, 0x80, st); /* TOP = 7: ST(0) is physical 7 */
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0x3fff);
  st[1][0] = 0, st[1][1] = 0x8000; /* ST(1) = -0.0 */
  fx_with(fx, 2 << 11, 0x0c, st);  /* physical 2 valid, 3 zero */
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0xff4f);
  st[0][0] = one | 1, st[0][1] = 0x7fff; /* NaN */
  fx_with(fx, 0, 0x01, st);
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0xfffe);
  st[0][0] = one, st[0][1] = 0xffff; /* -infinity */
  fx_with(fx, 0, 0x01, st);
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0xfffe);
  st[0][0] = 1, st[0][1] = 0; /* denormal */
  fx_with(fx, 0, 0x01, st);
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0xfffe);
  st[0][0] = 1, st[0][1] = 0x3fff; /* unnormal: integer bit clear */
  fx_with(fx, 0, 0x01, st);
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0xfffe);
  /* A full stack after 8 pushes of 1.0. */
  for (int i = 0; i < 8; i++) st[i][0] = one, st[i][1] = 0x3fff;
  fx_with(fx, 0, 0xff, st);
  CU_ASSERT_EQUAL(gdb_x87_full_tag(fx), 0x0000);
}

/* gdb_reg_write is gdb_reg_read's inverse: every register read from one
 * register file and written into a zeroed one reads back the same, and
 * writes nothing else; sizes other than the register's are refused. */
void test_tdesc_write(void) {
  struct rw_regs a, b, c;
  u8 v[GDB_REG_MAX], w[GDB_REG_MAX];
  sample_regs(&a);
  a.fxsave[4] = 0x5a; /* some x87 registers in use */
  memset(&b, 0, sizeof b);
  b.fxsave[4] = 0xff;
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    int n = gdb_reg_read(&a, i, v, sizeof v);
    CU_ASSERT_FATAL(n > 0);
    c = b;
    CU_ASSERT_EQUAL(gdb_reg_write(&b, i, v, (size_t)n), 0);
    CU_ASSERT_EQUAL(gdb_reg_read(&b, i, w, sizeof w), n);
    CU_ASSERT(memcmp(v, w, (size_t)n) == 0);
    CU_ASSERT_EQUAL(gdb_reg_write(&c, i, v, (size_t)n + 1), RW_EINVAL);
  }
  /* Every value written is a's: the same register file, but for the bits
   * gdb does not see (rflags above 32, FOP above 11 bits, the abridged
   * tag rebuilt from the full one). */
  CU_ASSERT(memcmp(a.gpr, b.gpr, sizeof a.gpr) == 0);
  CU_ASSERT_EQUAL(a.rip, b.rip);
  CU_ASSERT_EQUAL(a.rflags, b.rflags);
  CU_ASSERT_EQUAL(a.fs_base, b.fs_base);
  for (int i = 0; i < 8; i++) /* ST(i): 10 bytes of a 16-byte slot */
    CU_ASSERT(memcmp(a.fxsave + 32 + 16 * i, b.fxsave + 32 + 16 * i, 10) == 0);
  CU_ASSERT(memcmp(a.fxsave + 160, b.fxsave + 160, 256) == 0); /* xmm */
  CU_ASSERT_EQUAL(a.fxsave[4], b.fxsave[4]);
  CU_ASSERT(memcmp(a.ymmh, b.ymmh, sizeof a.ymmh) == 0);
  CU_ASSERT(memcmp(a.hi16, b.hi16, sizeof a.hi16) == 0);
  CU_ASSERT(memcmp(a.k, b.k, sizeof a.k) == 0);
  CU_ASSERT_EQUAL(gdb_reg_write(&b, GDB_NREGS, v, 8), RW_ENOTFOUND);
}

/* The N bytes at P as hex, into WANT (2N + 1 bytes). */
static void hex_of(char *want, const u8 *p, size_t n) {
  for (size_t i = 0; i < n; i++) snprintf(want + 2 * i, 3, "%02x", p[i]);
}

void test_tdesc_g_reply(void) {
  struct rw_regs r;
  struct gdb_buf b;
  char want[80];
  sample_regs(&r);
  gdb_buf_init(&b, 0);
  /* Without AVX-512: the registers up to ymm15h, 816 bytes. */
  gdb_regs_put_g(&b, &r, XCR0_AVX);
  CU_ASSERT_EQUAL(b.err, 0);
  CU_ASSERT_EQUAL_FATAL(b.len, 2 * 816);
  CU_ASSERT(memcmp(b.data, "0000000000000000", 16) == 0);       /* rax */
  CU_ASSERT(memcmp(b.data + 16, "0303030303030303", 16) == 0);  /* rbx */
  CU_ASSERT(memcmp(b.data + 2 * 128, "0010400000000000", 16) == 0);
  CU_ASSERT(memcmp(b.data + 2 * 136, "46020100", 8) == 0);      /* eflags */
  CU_ASSERT(memcmp(b.data + 2 * 536, "3c00000000000000", 16) == 0);
  for (int i = 0; i < 16; i++) snprintf(want + 2 * i, 3, "%02x", 15 - i);
  CU_ASSERT(memcmp(b.data + b.len - 32, want, 32) == 0); /* ymm15h */
  /* With it: the same, then xmm16-31, ymm16h-31h, k0-7, zmm0h-31h. */
  gdb_buf_reset(&b);
  gdb_regs_put_g(&b, &r, XCR0_AVX512);
  CU_ASSERT_EQUAL(b.err, 0);
  CU_ASSERT_EQUAL_FATAL(b.len, 2 * (816 + 256 + 256 + 64 + 1024));
  CU_ASSERT(memcmp(b.data + 2 * 800, want, 32) == 0);    /* ymm15h */
  hex_of(want, r.hi16, 16);
  CU_ASSERT(memcmp(b.data + 2 * 816, want, 32) == 0);    /* xmm16 */
  hex_of(want, r.hi16 + 15 * 64 + 16, 16);
  CU_ASSERT(memcmp(b.data + 2 * 1312, want, 32) == 0);   /* ymm31h */
  CU_ASSERT(memcmp(b.data + 2 * 1328, "0807060504030201", 16) == 0); /* k0 */
  CU_ASSERT(memcmp(b.data + 2 * 1384, "4038302820181008", 16) == 0); /* k7 */
  hex_of(want, r.zmmh, 32);
  CU_ASSERT(memcmp(b.data + 2 * 1392, want, 64) == 0);   /* zmm0h */
  hex_of(want, r.hi16 + 32, 32);
  CU_ASSERT(memcmp(b.data + 2 * 1904, want, 64) == 0);   /* zmm16h */
  hex_of(want, r.hi16 + 15 * 64 + 32, 32);
  CU_ASSERT(memcmp(b.data + b.len - 64, want, 64) == 0); /* zmm31h */
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_reg_put_hex(&b, &r, 17, XCR0_AVX), 0);
  CU_ASSERT_STRING_EQUAL((char *)b.data, "46020100");
  CU_ASSERT_EQUAL(gdb_reg_put_hex(&b, &r, 148, XCR0_AVX512), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(gdb_reg_put_hex(&b, &r, 109, XCR0_AVX), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(b.len, 8);
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_reg_put_hex(&b, &r, 109, XCR0_AVX512), 0); /* k1 */
  CU_ASSERT_STRING_EQUAL((char *)b.data, "100e0c0a08060402");
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_reg_put_hex(&b, &r, 147, XCR0_AVX512), 0);
  hex_of(want, r.hi16 + 15 * 64 + 32, 32);
  CU_ASSERT_STRING_EQUAL((char *)b.data, want);
  gdb_buf_free(&b);
}

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
  return n;
}

/* The XML for XCR0 has the registers gdb_reg_offered says, each once with
 * its number and size, listed in regnum order (gdb numbers a description's
 * registers in the order it lists them), in NFEAT features. */
static void check_xml(u64 xcr0, unsigned nfeat) {
  struct gdb_buf b;
  char attr[96];
  const char *x, *prev;
  unsigned nregs = 0;
  gdb_buf_init(&b, 0);
  CU_ASSERT_EQUAL(gdb_tdesc_lookup("target.xml", 10, xcr0, &b), 0);
  CU_ASSERT_FATAL(b.data != NULL);
  x = (const char *)b.data;
  CU_ASSERT(strstr(x, "<architecture>i386:x86-64</architecture>") != NULL);
  CU_ASSERT(strstr(x, "<osabi>GNU/Linux</osabi>") != NULL);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.core\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.sse\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.linux\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.segments\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.avx\">"), 1);
  size_t avx512 = (xcr0 & 0xe0) == 0xe0, pkeys = (xcr0 >> 9) & 1;
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.avx512\">"),
                  avx512);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.pkeys\">"),
                  pkeys);
  CU_ASSERT_EQUAL(5 + avx512 + pkeys, nfeat);
  CU_ASSERT_EQUAL(count(x, "<feature "), nfeat);
  CU_ASSERT_EQUAL(count(x, "</feature>"), nfeat);
  /* Each feature defines the vector types its registers use. */
  CU_ASSERT_EQUAL(count(x, "<union id=\"vec128\">"), 1 + avx512);
  CU_ASSERT_EQUAL(count(x, "<vector id=\"v2ui128\" type=\"uint128\" "
                           "count=\"2\"/>"), avx512);
  prev = x;
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    int want = gdb_reg_offered(i, xcr0);
    const char *at;
    snprintf(attr, sizeof attr, "<reg name=\"%s\" bitsize=\"%u\" ",
             gdb_reg_name(i), 8 * gdb_reg_size(i));
    CU_ASSERT_EQUAL(count(x, attr), (size_t)want);
    at = strstr(x, attr);
    if (at) {
      CU_ASSERT(at > prev);
      prev = at;
    }
    snprintf(attr, sizeof attr, "regnum=\"%u\"", i);
    CU_ASSERT_EQUAL(count(x, attr), (size_t)want);
    nregs += (unsigned)want;
  }
  CU_ASSERT_EQUAL(count(x, "<reg "), nregs);
  CU_ASSERT(strchr(x, '$') == NULL && strchr(x, '#') == NULL);
  gdb_buf_free(&b);
}

void test_tdesc_xml(void) {
  struct gdb_buf b;
  check_xml(XCR0_AVX, 5);
  check_xml(XCR0_AVX512, 6);
  check_xml(0x67, 5); /* Hi16_ZMM off */
  check_xml(0x207, 6); /* AVX and PKRU (AMD Zen 3) */
  check_xml(0x2e7, 7);
  gdb_buf_init(&b, 0);
  gdb_tdesc_xml(&b, XCR0_AVX512);
  CU_ASSERT(strstr((const char *)b.data,
                   "<reg name=\"zmm31h\" bitsize=\"256\" type=\"v2ui128\" "
                   "regnum=\"147\"/>") != NULL);
  CU_ASSERT(strstr((const char *)b.data,
                   "<reg name=\"k0\" bitsize=\"64\" type=\"uint64\" "
                   "regnum=\"108\"/>") != NULL);
  CU_ASSERT(strstr((const char *)b.data,
                   "<reg name=\"xmm16\" bitsize=\"128\" type=\"vec128\" "
                   "regnum=\"76\"/>") != NULL);
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_tdesc_lookup("target.xm", 9, XCR0_AVX512, &b),
                  RW_ENOTFOUND);
  CU_ASSERT_EQUAL(gdb_tdesc_lookup("64bit-core.xml", 14, XCR0_AVX512, &b),
                  RW_ENOTFOUND);
  CU_ASSERT_EQUAL(b.len, 0);
  gdb_buf_free(&b);
}

/* ---- Real gdb ------------------------------------------------------------ */

static const char *gdb_path(void) {
  const char *g = getenv("GDB");
  return g && *g ? g : "gdb";
}

/* Runs CMD through the shell and returns its output (malloc'd, NUL
 * terminated), or NULL when it could not run. */
static char *run(const char *cmd) {
  FILE *f = popen(cmd, "r");
  char *out;
  size_t len = 0, cap = 1 << 16;
  if (!f) return NULL;
  out = malloc(cap);
  if (!out) {
    pclose(f);
    return NULL;
  }
  for (;;) {
    size_t n;
    if (cap - len < 4096) {
      char *p = realloc(out, cap *= 2);
      if (!p) break;
      out = p;
    }
    n = fread(out + len, 1, cap - len - 1, f);
    if (!n) break;
    len += n;
  }
  out[len] = 0;
  pclose(f);
  return out;
}

static int have_gdb(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "'%s' --version >/dev/null 2>&1", gdb_path());
  if (system(cmd) == 0) return 1;
  printf("\n  (gdb not found as '%s': skipped)\n", gdb_path());
  return 0;
}

/* gdb reads the XML for XCR0 with our numbers and 'g' offsets for every
 * register it has, and no other register. */
static void gdb_accepts(u64 xcr0) {
  char path[] = "/tmp/rw-tdesc-XXXXXX", cmd[1024], line[256];
  struct gdb_buf b;
  unsigned offset = 0, seen = 0, offered = 0;
  char *out, *p;
  int fd;
  gdb_buf_init(&b, 0);
  gdb_tdesc_xml(&b, xcr0);
  fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  CU_ASSERT_FATAL(write(fd, b.data, b.len) == (ssize_t)b.len);
  close(fd);
  gdb_buf_free(&b);
  snprintf(cmd, sizeof cmd,
           "timeout 120 '%s' -nx -batch -ex 'set tdesc filename %s' "
           "-ex 'show architecture' -ex 'show osabi' "
           "-ex 'maint print remote-registers' 2>&1",
           gdb_path(), path);
  out = run(cmd);
  unlink(path);
  CU_ASSERT_FATAL(out != NULL);
  CU_ASSERT(strstr(out, "warning") == NULL);
  CU_ASSERT(strstr(out, "(currently \"i386:x86-64\")") != NULL);
  CU_ASSERT(strstr(out, "(currently \"GNU/Linux\")") != NULL);
  /* Each of our registers must have our remote number and the 'g' offset
   * that follows from the sizes before it. */
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    if (!gdb_reg_offered(i, xcr0)) continue;
    offered++;
    for (p = out; (p = strstr(p, "\n "));) {
      char name[64];
      unsigned nr, rel, off, size, rnr, goff;
      char type[64];
      p += 2;
      if (sscanf(p, "%63s %u %u %u %u %63s %u %u", name, &nr, &rel, &off,
                 &size, type, &rnr, &goff) != 8)
        continue;
      if (strcmp(name, gdb_reg_name(i))) continue;
      snprintf(line, sizeof line, "%s: remote %u at %u, want %u at %u",
               name, rnr, goff, i, offset);
      CU_ASSERT_EQUAL(rnr, i);
      CU_ASSERT_EQUAL(goff, offset);
      CU_ASSERT_EQUAL(size, gdb_reg_size(i));
      if (rnr != i || goff != offset) fprintf(stderr, "%s\n", line);
      seen++;
      break;
    }
    offset += gdb_reg_size(i);
  }
  CU_ASSERT_EQUAL(seen, offered);
  int avx512 = (xcr0 & 0xe0) == 0xe0, pkeys = (xcr0 >> 9) & 1;
  CU_ASSERT_EQUAL(offered, (avx512 ? GDB_REGNUM_ZMM31H : GDB_REGNUM_YMM15H) +
                               1 + pkeys);
  /* gdb's own AVX-512 and PKU registers exist exactly when we describe
   * them. */
  CU_ASSERT_EQUAL(strstr(out, "\n k1 ") != NULL, avx512);
  CU_ASSERT_EQUAL(strstr(out, "\n pkru ") != NULL, pkeys);
  if (seen != offered) fprintf(stderr, "gdb said:\n%s\n", out);
  free(out);
}

void test_tdesc_gdb_accepts_xml(void) {
  if (!have_gdb()) return;
  gdb_accepts(XCR0_AVX);
  gdb_accepts(XCR0_AVX512);
  gdb_accepts(0x207);
  gdb_accepts(XCR0_AVX512 | 0x200);
}

/* Runs gdb on "fake_stub XCR0" with the -ex options CMDS; returns gdb's
 * output (free it). */
static char *stub_gdb(const char *xcr0, const char *cmds) {
  char exe[4096], cmd[8192];
  ssize_t n;
  char *out, *slash;
  n = readlink("/proc/self/exe", exe, sizeof exe - 32);
  CU_ASSERT_FATAL(n > 0);
  exe[n] = 0;
  slash = strrchr(exe, '/');
  CU_ASSERT_FATAL(slash != NULL);
  strcpy(slash + 1, "fake_stub");
  CU_ASSERT_FATAL(access(exe, X_OK) == 0);
  snprintf(cmd, sizeof cmd,
           "timeout 120 '%s' -nx -batch -ex 'set confirm off' "
           "-ex 'target remote | %s %s' %s 2>&1 </dev/null",
           gdb_path(), exe, xcr0, cmds);
  out = run(cmd);
  CU_ASSERT_FATAL(out != NULL);
  if (getenv("RW_TEST_VERBOSE")) fprintf(stderr, "%s\n", out);
  return out;
}

/* Each of the N strings WANT is in OUT. */
static void expect_all(const char *out, const char *const *want, size_t n) {
  for (size_t i = 0; i < n; i++) {
    CU_ASSERT(strstr(out, want[i]) != NULL);
    if (!strstr(out, want[i])) fprintf(stderr, "missing: %s", want[i]);
  }
  CU_ASSERT(strstr(out, "Remote connection closed") == NULL);
  CU_ASSERT(strstr(out, "Remote 'g' packet reply") == NULL);
}

/* gdb connected to fake_stub must show what fake_stub's registers hold:
 * with AVX-512, gdb's zmm and ymm16-31 pseudo-registers are built from
 * xmm, ymmh and zmmh as we number them; without, they do not exist. */
void test_tdesc_gdb_session(void) {
  static const char *const want[] = {
      "$1 = 0x1111\n",                  /* rax = gpr[0] */
      "$2 = 0x4444\n",                  /* rbx = gpr[3] */
      "$3 = 0x6666\n",                  /* rbp = gpr[5] */
      "$4 = 0x401000\n",                /* rip */
      "$5 = [ PF ZF IF ]\n",            /* eflags 0x246 */
      "$6 = 1.5\n",                     /* st0 */
      "$7 = 0x3fff\n",                  /* ftag from abridged 0x80, TOP 7 */
      "$8 = 0x37f\n",                   /* fctrl */
      "$9 = 0x1f80\n",                  /* mxcsr */
      "$10 = 0x100f0e0d0c0b0a090807060504030201\n",  /* xmm0 */
      "$11 = 0xafaeadacabaaa9a8a7a6a5a4a3a2a1a0\n",  /* ymm0 high half */
      "$12 = 0x7ffff7d8a740\n",         /* fs_base */
      "$13 = -1\n",                     /* orig_rax */
      "$14 = 0x33\n",                   /* cs */
      "Thread 1.1",                     /* info threads, multiprocess form */
      /* zmm0: xmm0, ymm0h, zmm0h */
      "$15 = {0x100f0e0d0c0b0a090807060504030201, "
      "0xafaeadacabaaa9a8a7a6a5a4a3a2a1a0, "
      "0xcfcecdcccbcac9c8c7c6c5c4c3c2c1c0, "
      "0xdfdedddcdbdad9d8d7d6d5d4d3d2d1d0}\n",
      /* zmm17: the second 64 bytes of hi16 */
      "$16 = {0x4f4e4d4c4b4a49484746454443424140, "
      "0x5f5e5d5c5b5a59585756555453525150, "
      "0x6f6e6d6c6b6a69686766656463626160, "
      "0x7f7e7d7c7b7a79787776757473727170}\n",
      "$17 = {0x8f8e8d8c8b8a89888786858483828180, "
      "0x9f9e9d9c9b9a99989796959493929190}\n", /* ymm20 */
      "$18 = 0x8000000000000001\n",            /* k1 */
      "$19 = 0\n",                             /* k0 */
      "\nk7             0xffff              65535\n",
      "$20 = {0, 0, 0, 0}\n",                  /* zmm31 */
      "$21 = 0xdfdedddcdbdad9d8d7d6d5d4d3d2d1d0\n", /* raw zmm0h[1] */
  };
  static const char *const want_avx[] = {
      "$1 = 0x100f0e0d0c0b0a090807060504030201\n", /* xmm0 */
      "$2 = {0x100f0e0d0c0b0a090807060504030201, "
      "0xafaeadacabaaa9a8a7a6a5a4a3a2a1a0}\n",     /* ymm0 */
      "$3 = void\n",                               /* no zmm0 */
      "$4 = void\n",                               /* no k1 */
      "Invalid register `k1'",
      "$5 = void\n",                               /* no pkru */
  };
  static const char *const want_pku[] = {
      "$1 = 0x5555555c\n", /* pkru */
      "\npkru           0x5555555c          1431655772\n",
      "$2 = void\n", /* no k1 */
  };
  char *out;
  if (!have_gdb()) return;
  out = stub_gdb(
      "e7",
      "-ex 'p/x $rax' -ex 'p/x $rbx' -ex 'p/x $rbp' -ex 'p/x $rip' "
      "-ex 'p $eflags' -ex 'p $st0' -ex 'p/x $ftag' -ex 'p/x $fctrl' "
      "-ex 'p/x $mxcsr' -ex 'p/x $xmm0.uint128' "
      "-ex 'p/x $ymm0.v2_int128[1]' -ex 'p/x $fs_base' "
      "-ex 'p $orig_rax' -ex 'p/x $cs' -ex 'info threads' "
      "-ex 'p/x $zmm0.v4_int128' -ex 'p/x $zmm17.v4_int128' "
      "-ex 'p/x $ymm20.v2_int128' -ex 'p/x $k1' -ex 'p $k0' "
      "-ex 'info registers k7' -ex 'p $zmm31.v4_int128' "
      "-ex 'p/x $zmm0h[1]'");
  expect_all(out, want, RW_ARRAY_SIZE(want));
  free(out);
  out = stub_gdb("7",
                 "-ex 'p/x $xmm0.uint128' -ex 'p/x $ymm0.v2_int128' "
                 "-ex 'p $zmm0' -ex 'p $k1' -ex 'info registers k1' "
                 "-ex 'p $pkru'");
  expect_all(out, want_avx, RW_ARRAY_SIZE(want_avx));
  free(out);
  out = stub_gdb("207", "-ex 'p/x $pkru' -ex 'info registers pkru' "
                        "-ex 'p $k1'");
  expect_all(out, want_pku, RW_ARRAY_SIZE(want_pku));
  free(out);
}
