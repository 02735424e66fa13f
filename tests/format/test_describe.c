/* SPDX-License-Identifier: MIT */
/* Tests of format/describe.c: names from the .def lists and the decoded
 * printing of records as text and JSON, including short payloads, unknown
 * types, escapes and the bytes limit. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>

#include "common/regs.h"
#include "format/format_int.h"

/* Prints REC into a string (caller frees). */
static char *print(const struct trace_record *rec, int json, size_t max) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  struct trace_print_opts o = {json, max};
  CU_ASSERT_EQUAL(trace_record_print_opts(f, rec, &o), 0);
  fclose(f);
  return buf;
}

static void expect(const struct trace_record *rec, int json, size_t max,
                   const char *want) {
  char *s = print(rec, json, max);
  if (strcmp(s, want)) fprintf(stderr, "\n got: %s\nwant: %s\n", s, want);
  CU_ASSERT_STRING_EQUAL(s, want);
  free(s);
}

void test_describe_names(void) {
  CU_ASSERT_STRING_EQUAL(trace_record_name(TRACE_REC_SYSCALL_EXIT),
                         "SYSCALL_EXIT");
  CU_ASSERT_STRING_EQUAL(trace_record_name(TRACE_REC_EXEC), "EXEC");
  CU_ASSERT_PTR_NULL(trace_record_name(0));
  CU_ASSERT_PTR_NULL(trace_record_name(TRACE_REC_MAX_KNOWN));
  CU_ASSERT_PTR_NULL(trace_record_name(60000));
  CU_ASSERT_STRING_EQUAL(trace_record_fields(TRACE_REC_UNMAP),
                         "x64 addr, x64 len");
  CU_ASSERT_STRING_EQUAL(trace_chunk_name(TRACE_CHUNK_BLOB), "BLOB");
  CU_ASSERT_PTR_NULL(trace_chunk_name(0));
  CU_ASSERT_PTR_NULL(trace_chunk_name(999));
  CU_ASSERT_EQUAL(trace_record_type_by_name("syscall_exit"),
                  TRACE_REC_SYSCALL_EXIT);
  CU_ASSERT_EQUAL(trace_record_type_by_name("NOTE"), TRACE_REC_NOTE);
  CU_ASSERT_EQUAL(trace_record_type_by_name("nope"), RW_ENOTFOUND);
}

void test_describe_ints(void) {
  u8 p[48];
  struct trace_record rec = {5, 1, TRACE_REC_RDTSC, 24, p, 0};
  wr_le64(p, 0x401000);
  wr_le64(p + 8, 123456789);
  wr_le32(p + 16, 3);
  wr_le32(p + 20, 1);
  expect(&rec, 0, 0, "rip=0x401000 tsc=123456789 aux=3 kind=1");
  expect(&rec, 1, 0,
         ",\"rip\":\"0x401000\",\"tsc\":123456789,\"aux\":3,\"kind\":1");
  rec.type = TRACE_REC_EXIT;
  rec.len = 12;
  wr_le32(p, 77);
  wr_le32(p + 4, (u32)-9);
  wr_le32(p + 8, 11);
  /* "tid" would clash with the record's own tid member in JSON. */
  expect(&rec, 1, 0, ",\"field_tid\":77,\"status\":-9,\"signo\":11");
  expect(&rec, 0, 0, "tid=77 status=-9 signo=11");
  /* An EXIT of format 1.19 with a digest of its process. */
  rec.len = 44;
  memset(p + 12, 0, 32);
  wr_le32(p + 12, 1);
  wr_le64(p + 16, 0xabc);
  expect(&rec, 0, 0,
         "tid=77 status=-9 signo=11 has_digest=1 digest=0xabc dead_lo=0x0 "
         "dead_hi=0x0 nskip=0");
  /* Bytes beyond the known fields. */
  rec.type = TRACE_REC_RESIZE;
  rec.len = 19;
  wr_le64(p, 5);
  wr_le64(p + 8, 0x1000);
  expect(&rec, 0, 0, "object=5 size=0x1000 (+3 bytes)");
  expect(&rec, 1, 0, ",\"object\":5,\"size\":\"0x1000\",\"extra_len\":3");
}

void test_describe_short(void) {
  u8 p[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  struct trace_record rec = {1, 1, TRACE_REC_UNMAP, 10, p, 0};
  expect(&rec, 0, 0, "addr=0x807060504030201 (payload ends in field len) "
                     "rest=[2] 090a");
  expect(&rec, 1, 0,
         ",\"addr\":\"0x807060504030201\",\"error\":\"payload ends in field "
         "len\",\"rest\":\"090a\",\"rest_len\":2");
  /* A str whose length runs past the payload. */
  rec.type = TRACE_REC_EXEC;
  rec.len = 7;
  wr_le32(p, 5);
  wr_le16(p + 4, 100);
  expect(&rec, 0, 0, "pid=5 (payload ends in field path) rest=[3] 640007");
  rec.len = 0;
  expect(&rec, 0, 0, "(payload ends in field pid) rest=[0]");
}

void test_describe_unknown(void) {
  u8 p[3] = {0xde, 0xad, 0x01};
  struct trace_record rec = {1, 1, 999, 3, p, 0};
  expect(&rec, 0, 0, "data=[3] dead01");
  expect(&rec, 1, 0, ",\"data\":\"dead01\",\"data_len\":3");
}

void test_describe_str_bytes(void) {
  u8 p[300];
  struct trace_record rec = {1, 1, TRACE_REC_NOTE, 0, p, 0};
  const char *s = "a\"b\\c\n\x01\xff";
  wr_le32(p, 1);
  wr_le16(p + 4, (u16)strlen(s));
  memcpy(p + 6, s, strlen(s));
  rec.len = 6 + (u32)strlen(s);
  expect(&rec, 0, 0, "level=1 text=\"a\\\"b\\\\c\\n\\x01\\xff\"");
  /* JSON has no byte escape: a byte that is not UTF-8 becomes U+FFFD. */
  expect(&rec, 1, 0, ",\"level\":1,\"text\":\"a\\\"b\\\\c\\n\\u0001\\ufffd\"");
  /* Valid UTF-8 is kept as it is, in both forms. */
  s = "caf\xc3\xa9";
  wr_le16(p + 4, (u16)strlen(s));
  memcpy(p + 6, s, strlen(s));
  rec.len = 6 + (u32)strlen(s);
  expect(&rec, 0, 0, "level=1 text=\"caf\xc3\xa9\"");
  expect(&rec, 1, 0, ",\"level\":1,\"text\":\"caf\xc3\xa9\"");
  rec.type = TRACE_REC_MEM;
  wr_le64(p, 0x1000);
  for (int i = 0; i < 200; i++) p[8 + i] = (u8)i;
  rec.len = 8 + 200;
  {
    char *out = print(&rec, 0, 0);
    /* Default limit: 64 bytes, 128 hex digits, then an ellipsis. */
    CU_ASSERT(strncmp(out, "addr=0x1000 data=[200] 000102", 29) == 0);
    CU_ASSERT_EQUAL(strlen(out), strlen("addr=0x1000 data=[200] ") + 128 + 3);
    free(out);
  }
  expect(&rec, 0, 2, "addr=0x1000 data=[200] 0001...");
  expect(&rec, 1, 2,
         ",\"addr\":\"0x1000\",\"data\":\"0001\",\"data_len\":200,"
         "\"data_truncated\":true");
}

void test_describe_regs(void) {
  struct rw_regs g;
  u8 p[8 + RW_REGS_DISK_SIZE + 4];
  struct trace_record rec = {1, 1, TRACE_REC_SYSCALL_ENTER, sizeof p, p, 0};
  char *out;
  memset(&g, 0, sizeof g);
  g.rip = 0x401234;
  g.gpr[RW_REG_rsp] = 0x7ffe0000;
  g.gpr[RW_REG_rdi] = 3;
  g.rflags = 0x246;
  g.orig_rax = 1;
  g.seg[1] = 0x33;
  wr_le64(p, 1);
  rw_regs_encode(&g, p + 8);
  wr_le32(p + 8 + RW_REGS_DISK_SIZE, 1); /* fp_valid */
  expect(&rec, 0, 0,
         "nr=write regs={rip=0x401234 rsp=0x7ffe0000 rflags=0x246 rdi=0x3 "
         "orig_rax=1} fp_valid=1");
  out = print(&rec, 1, 0);
  CU_ASSERT(strstr(out, ",\"regs\":{\"rip\":\"0x401234\",\"rax\":\"0x0\"") !=
            NULL);
  CU_ASSERT(strstr(out, "\"rdi\":\"0x3\"") != NULL);
  /* JSON gives the number and the name. */
  CU_ASSERT(strstr(out, "\"nr\":1,\"syscall\":\"write\"") != NULL);
  CU_ASSERT(strstr(out, "\"cs\":\"0x33\"") != NULL);
  CU_ASSERT(strstr(out, "\"r15\":\"0x0\"") != NULL);
  free(out);
  rec.len = 100; /* a register file cut short */
  /* The register file starts with rax, which is 0. */
  expect(&rec, 0, 2,
         "nr=write (payload ends in field regs) rest=[92] 0000...");
}
