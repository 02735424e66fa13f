/* SPDX-License-Identifier: MIT */
/* Suite "cursor": the bounded cursor helpers of gdbstub/cursor.c at their
 * edges: the 64-bit overflow boundary, every thread-id form, hex texts that
 * are odd, hold a NUL or do not fit, and inputs that end early. */
#include "tests/gdbstub/util.h"

static struct gdb__cur cur(const char *s) {
  return (struct gdb__cur){s, s + strlen(s)};
}

void test_cursor_hex(void) {
  struct gdb__cur c;
  u64 v = 99;
  c = cur("ffffffffffffffff,");
  CU_ASSERT_EQUAL(gdb__cur_hex(&c, &v), 0);
  CU_ASSERT_EQUAL(v, ~0ull);
  CU_ASSERT_EQUAL(gdb__cur_peek(&c), ',');
  c = cur("10000000000000000"); /* 2^64 */
  CU_ASSERT_EQUAL(gdb__cur_hex(&c, &v), RW_ELIMIT);
  CU_ASSERT_EQUAL(gdb__cur_left(&c), 17); /* unmoved */
  c = cur("000000000000000000000001"); /* leading zeros are not overflow */
  CU_ASSERT_EQUAL(gdb__cur_hex(&c, &v), 0);
  CU_ASSERT_EQUAL(v, 1);
  c = cur("DeadBeef");
  CU_ASSERT_EQUAL(gdb__cur_hex(&c, &v), 0);
  CU_ASSERT_EQUAL(v, 0xdeadbeef);
  c = cur(",1");
  CU_ASSERT_EQUAL(gdb__cur_hex(&c, &v), RW_EPROTO);
  c = cur("");
  CU_ASSERT_EQUAL(gdb__cur_hex(&c, &v), RW_EPROTO);
  /* The end bound is respected even when more digits follow in memory. */
  {
    const char *s = "12345";
    struct gdb__cur d = {s, s + 2};
    CU_ASSERT_EQUAL(gdb__cur_hex(&d, &v), 0);
    CU_ASSERT_EQUAL(v, 0x12);
  }
}

void test_cursor_shex(void) {
  struct gdb__cur c;
  i64 v;
  c = cur("-1f");
  CU_ASSERT_EQUAL(gdb__cur_shex(&c, &v), 0);
  CU_ASSERT_EQUAL(v, -0x1f);
  c = cur("7fffffffffffffff");
  CU_ASSERT_EQUAL(gdb__cur_shex(&c, &v), 0);
  CU_ASSERT_EQUAL(v, INT64_MAX);
  c = cur("8000000000000000");
  CU_ASSERT_EQUAL(gdb__cur_shex(&c, &v), RW_ELIMIT);
  c = cur("-");
  CU_ASSERT_EQUAL(gdb__cur_shex(&c, &v), RW_EPROTO);
  CU_ASSERT_EQUAL(gdb__cur_left(&c), 1);
}

void test_cursor_tid(void) {
  static const struct {
    const char *in;
    int rc;
    struct gdb_tid want;
    size_t left;
  } v[] = {
      {"-1", 0, {0, GDB_TID_ALL, 0}, 0},
      {"0", 0, {0, GDB_TID_ANY, 0}, 0},
      {"1a2b", 0, {0, 0x1a2b, 0}, 0},
      {"p10.11", 0, {0x10, 0x11, 1}, 0},
      {"p10", 0, {0x10, GDB_TID_ALL, 1}, 0},
      {"p-1.-1", 0, {GDB_TID_ALL, GDB_TID_ALL, 1}, 0},
      {"p10.0;", 0, {0x10, 0, 1}, 1},
      {"p", RW_EPROTO, {0, 0, 0}, 1},
      {"p1.", RW_EPROTO, {0, 0, 0}, 3},
      {"-2", RW_EPROTO, {0, 0, 0}, 2},
      {"x", RW_EPROTO, {0, 0, 0}, 1},
      {"8000000000000000", RW_ELIMIT, {0, 0, 0}, 16},
  };
  for (size_t i = 0; i < RW_ARRAY_SIZE(v); i++) {
    struct gdb__cur c = cur(v[i].in);
    struct gdb_tid t = {0, 0, 0};
    int rc = gdb__cur_tid(&c, &t);
    CU_ASSERT_EQUAL(rc, v[i].rc);
    CU_ASSERT_EQUAL(gdb__cur_left(&c), v[i].left);
    if (rc == 0) {
      CU_ASSERT_EQUAL(t.pid, v[i].want.pid);
      CU_ASSERT_EQUAL(t.tid, v[i].want.tid);
      CU_ASSERT_EQUAL(t.has_pid, v[i].want.has_pid);
    }
  }
}

void test_cursor_hex_text(void) {
  struct gdb__cur c;
  char buf[8];
  size_t n;
  c = cur("68656c6c6f,rest");
  CU_ASSERT_EQUAL(gdb__cur_hex_text(&c, ',', buf, sizeof buf, &n), 0);
  CU_ASSERT_EQUAL(n, 5);
  CU_ASSERT_STRING_EQUAL(buf, "hello");
  CU_ASSERT_EQUAL(gdb__cur_peek(&c), ',');
  c = cur("");
  CU_ASSERT_EQUAL(gdb__cur_hex_text(&c, ',', buf, sizeof buf, &n), 0);
  CU_ASSERT_EQUAL(n, 0);
  CU_ASSERT_STRING_EQUAL(buf, "");
  c = cur("686");
  CU_ASSERT_EQUAL(gdb__cur_hex_text(&c, 0, buf, sizeof buf, &n), RW_EPROTO);
  c = cur("6g");
  CU_ASSERT_EQUAL(gdb__cur_hex_text(&c, 0, buf, sizeof buf, &n), RW_EPROTO);
  c = cur("610062");
  CU_ASSERT_EQUAL(gdb__cur_hex_text(&c, 0, buf, sizeof buf, &n), RW_EINVAL);
  c = cur("4142434445464748"); /* 8 bytes + NUL > 8 */
  CU_ASSERT_EQUAL(gdb__cur_hex_text(&c, 0, buf, sizeof buf, &n), RW_ELIMIT);
  CU_ASSERT_EQUAL(gdb__cur_left(&c), 16);
  c = cur("41424344454647");
  CU_ASSERT_EQUAL(gdb__cur_hex_text(&c, 0, buf, sizeof buf, &n), 0);
  CU_ASSERT_STRING_EQUAL(buf, "ABCDEFG");
}

void test_cursor_literals(void) {
  struct gdb__cur c = cur("qXfer:features");
  CU_ASSERT_EQUAL(gdb__cur_accept(&c, 'x'), 0);
  CU_ASSERT_EQUAL(gdb__cur_accept(&c, 'q'), 1);
  CU_ASSERT_EQUAL(gdb__cur_expect(&c, 'Y'), RW_EPROTO);
  CU_ASSERT_EQUAL(gdb__cur_accept_str(&c, "Xfer:featuresX"), 0);
  CU_ASSERT_EQUAL(gdb__cur_rest_is(&c, "Xfer:feature"), 0);
  CU_ASSERT_EQUAL(gdb__cur_accept_str(&c, "Xfer:"), 1);
  CU_ASSERT_EQUAL(gdb__cur_span(&c, 'u'), 4);
  CU_ASSERT_EQUAL(gdb__cur_span(&c, '!'), 8);
  CU_ASSERT_EQUAL(gdb__cur_skip_past(&c, 'u'), 1);
  CU_ASSERT_EQUAL(gdb__cur_rest_is(&c, "res"), 1);
  CU_ASSERT_EQUAL(gdb__cur_left(&c), 0);
  CU_ASSERT_EQUAL(gdb__cur_peek(&c), -1);
  CU_ASSERT_EQUAL(gdb__cur_skip_past(&c, 'u'), 0);
  CU_ASSERT_EQUAL(gdb__cur_expect(&c, 'u'), RW_EPROTO);
}
