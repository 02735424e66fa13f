/* SPDX-License-Identifier: MIT */
/* Suite "tdesc": the register table, values taken from struct rw_regs (the
 * x87 tag word rebuilt from FXSAVE's abridged one included), the 'g' reply,
 * the XML, and real gdb: it must accept the XML with our numbering and
 * g offsets, and print the values fake_stub serves as we intend. */
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
}

void test_tdesc_table(void) {
  unsigned total = 0;
  CU_ASSERT_EQUAL(GDB_NREGS, 76);
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
  CU_ASSERT_PTR_NULL(gdb_reg_name(76));
  CU_ASSERT_EQUAL(gdb_reg_size(24), 10);
  CU_ASSERT_EQUAL(gdb_reg_size(76), 0);
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    CU_ASSERT_PTR_NOT_NULL(gdb_reg_name(i));
    total += gdb_reg_size(i);
  }
  CU_ASSERT_EQUAL(total, 816);
}

/* Reads register N of R into a fresh buffer and compares it with WANT. */
static void expect_reg(const struct rw_regs *r, unsigned n, const void *want,
                       int size) {
  u8 v[16];
  int got = gdb_reg_read(r, n, v, sizeof v);
  CU_ASSERT_EQUAL(got, size);
  if (got == size) CU_ASSERT(memcmp(v, want, (size_t)size) == 0);
  if (got != size || memcmp(v, want, (size_t)size))
    fprintf(stderr, "register %u (%s) differs\n", n, gdb_reg_name(n));
}

void test_tdesc_values(void) {
  struct rw_regs r;
  u8 w[16];
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
  CU_ASSERT_EQUAL(gdb_reg_read(&r, 76, w, sizeof w), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(gdb_reg_read(&r, UINT_MAX, w, sizeof w), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(gdb_reg_read(&r, 40, w, 15), RW_ELIMIT);
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

void test_tdesc_g_reply(void) {
  struct rw_regs r;
  struct gdb_buf b;
  char want[40];
  sample_regs(&r);
  gdb_buf_init(&b, 0);
  gdb_regs_put_g(&b, &r);
  CU_ASSERT_EQUAL(b.err, 0);
  CU_ASSERT_EQUAL_FATAL(b.len, 2 * 816);
  CU_ASSERT(memcmp(b.data, "0000000000000000", 16) == 0);       /* rax */
  CU_ASSERT(memcmp(b.data + 16, "0303030303030303", 16) == 0);  /* rbx */
  CU_ASSERT(memcmp(b.data + 2 * 128, "0010400000000000", 16) == 0);
  CU_ASSERT(memcmp(b.data + 2 * 136, "46020100", 8) == 0);      /* eflags */
  CU_ASSERT(memcmp(b.data + 2 * 536, "3c00000000000000", 16) == 0);
  for (int i = 0; i < 16; i++) snprintf(want + 2 * i, 3, "%02x", 15 - i);
  CU_ASSERT(memcmp(b.data + b.len - 32, want, 32) == 0); /* ymm15h */
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_reg_put_hex(&b, &r, 17), 0);
  CU_ASSERT_STRING_EQUAL((char *)b.data, "46020100");
  CU_ASSERT_EQUAL(gdb_reg_put_hex(&b, &r, 99), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(b.len, 8);
  gdb_buf_free(&b);
}

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
  return n;
}

void test_tdesc_xml(void) {
  struct gdb_buf b;
  char attr[96];
  const char *x;
  gdb_buf_init(&b, 0);
  CU_ASSERT_EQUAL(gdb_tdesc_lookup("target.xml", 10, &b), 0);
  CU_ASSERT_FATAL(b.data != NULL);
  x = (const char *)b.data;
  CU_ASSERT(strstr(x, "<architecture>i386:x86-64</architecture>") != NULL);
  CU_ASSERT(strstr(x, "<osabi>GNU/Linux</osabi>") != NULL);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.core\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.sse\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.linux\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.segments\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature name=\"org.gnu.gdb.i386.avx\">"), 1);
  CU_ASSERT_EQUAL(count(x, "<feature "), 5);
  CU_ASSERT_EQUAL(count(x, "</feature>"), 5);
  CU_ASSERT_EQUAL(count(x, "<reg "), GDB_NREGS);
  for (unsigned i = 0; i < GDB_NREGS; i++) {
    snprintf(attr, sizeof attr, "<reg name=\"%s\" bitsize=\"%u\" ",
             gdb_reg_name(i), 8 * gdb_reg_size(i));
    CU_ASSERT_EQUAL(count(x, attr), 1);
    snprintf(attr, sizeof attr, "regnum=\"%u\"", i);
    CU_ASSERT_EQUAL(count(x, attr), 1);
  }
  CU_ASSERT(strchr(x, '$') == NULL && strchr(x, '#') == NULL);
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_tdesc_lookup("target.xm", 9, &b), RW_ENOTFOUND);
  CU_ASSERT_EQUAL(gdb_tdesc_lookup("64bit-core.xml", 14, &b), RW_ENOTFOUND);
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

void test_tdesc_gdb_accepts_xml(void) {
  char path[] = "/tmp/rw-tdesc-XXXXXX", cmd[1024], line[256];
  struct gdb_buf b;
  unsigned offset = 0, seen = 0;
  char *out, *p;
  int fd;
  if (!have_gdb()) return;
  gdb_buf_init(&b, 0);
  gdb_tdesc_xml(&b);
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
  CU_ASSERT_EQUAL(seen, GDB_NREGS);
  if (seen != GDB_NREGS) fprintf(stderr, "gdb said:\n%s\n", out);
  free(out);
}

/* gdb connected to fake_stub must show what fake_stub's registers hold. */
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
  };
  char exe[4096], cmd[8192];
  ssize_t n;
  char *out, *slash;
  if (!have_gdb()) return;
  n = readlink("/proc/self/exe", exe, sizeof exe - 32);
  CU_ASSERT_FATAL(n > 0);
  exe[n] = 0;
  slash = strrchr(exe, '/');
  CU_ASSERT_FATAL(slash != NULL);
  strcpy(slash + 1, "fake_stub");
  CU_ASSERT_FATAL(access(exe, X_OK) == 0);
  snprintf(cmd, sizeof cmd,
           "timeout 120 '%s' -nx -batch -ex 'set confirm off' "
           "-ex 'target remote | %s' "
           "-ex 'p/x $rax' -ex 'p/x $rbx' -ex 'p/x $rbp' -ex 'p/x $rip' "
           "-ex 'p $eflags' -ex 'p $st0' -ex 'p/x $ftag' -ex 'p/x $fctrl' "
           "-ex 'p/x $mxcsr' -ex 'p/x $xmm0.uint128' "
           "-ex 'p/x $ymm0.v2_int128[1]' -ex 'p/x $fs_base' "
           "-ex 'p $orig_rax' -ex 'p/x $cs' -ex 'info threads' 2>&1 </dev/null",
           gdb_path(), exe);
  out = run(cmd);
  CU_ASSERT_FATAL(out != NULL);
  for (size_t i = 0; i < RW_ARRAY_SIZE(want); i++) {
    CU_ASSERT(strstr(out, want[i]) != NULL);
    if (!strstr(out, want[i])) fprintf(stderr, "missing: %s", want[i]);
  }
  CU_ASSERT(strstr(out, "Remote connection closed") == NULL);
  if (getenv("RW_TEST_VERBOSE")) fprintf(stderr, "%s\n", out);
  free(out);
}
