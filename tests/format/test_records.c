/* SPDX-License-Identifier: MIT */
/* Tests of format/records.c, the typed records generated from records.def:
 * bytes laid out as the format documents them, every record type encoded
 * and decoded back, payloads cut at every length (whole at a TF_LATER,
 * RW_ECORRUPT inside a field, never read past), the defaults of later
 * fields, the digest's skipped ranges, the writer's reserve and commit, and
 * the field lists `rewind dump` prints. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "format/format.h"
#include "tests/format/helpers.h"

/* A register file with every field set to something recognizable. */
static void some_regs(struct rw_regs *r, u8 seed) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < 16; i++) r->gpr[i] = 0x0101010101010101ull * seed + i;
  r->rip = 0x401000 + seed;
  r->rflags = 0x246;
  r->orig_rax = seed;
  for (int i = 0; i < RW_NSEG; i++) r->seg[i] = (u16)(0x10 + i);
  for (size_t i = 0; i < sizeof r->fxsave; i++) r->fxsave[i] = (u8)(i ^ seed);
  for (size_t i = 0; i < sizeof r->ymmh; i++) r->ymmh[i] = (u8)(i * seed);
}

/* What the format documents, byte for byte: EXEC is u32 pid, then str
 * path (u16 length, bytes); MAP ends in the u64 object of format 1.2. */
void test_records_layout(void) {
  u8 b[128];
  struct trace_rec_exec e = {0x01020304, trace_str_of("ab")};
  CU_ASSERT_EQUAL(trace_rec_exec_size(&e), 8);
  trace_rec_exec_put(b, &e);
  CU_ASSERT_EQUAL(memcmp(b, "\x04\x03\x02\x01\x02\x00" "ab", 8), 0);

  struct trace_rec_map m = {0x1000, 0x2000, 5, 2, 0x30, {{0}},
                            trace_str_of("/x"), 9};
  m.blob.b[0] = 0xaa, m.blob.b[31] = 0xbb;
  CU_ASSERT_EQUAL(trace_rec_map_size(&m), 8 * 3 + 4 * 2 + 32 + 2 + 2 + 8);
  trace_rec_map_put(b, &m);
  CU_ASSERT_EQUAL(rd_le64(b), 0x1000);
  CU_ASSERT_EQUAL(rd_le64(b + 8), 0x2000);
  CU_ASSERT_EQUAL(rd_le32(b + 16), 5);
  CU_ASSERT_EQUAL(rd_le32(b + 20), 2);
  CU_ASSERT_EQUAL(rd_le64(b + 24), 0x30);
  CU_ASSERT_EQUAL(b[32], 0xaa);
  CU_ASSERT_EQUAL(b[63], 0xbb);
  CU_ASSERT_EQUAL(rd_le16(b + 64), 2);
  CU_ASSERT_EQUAL(memcmp(b + 66, "/x", 2), 0);
  CU_ASSERT_EQUAL(rd_le64(b + 68), 9);

  /* Signed fields are two's complement. */
  struct trace_rec_exit x = {.tid = 7, .status = -3, .signo = 9};
  trace_rec_exit_put(b, &x);
  CU_ASSERT_EQUAL(rd_le32(b + 4), 0xfffffffdu);
  struct trace_rec_exit y;
  CU_ASSERT_EQUAL(trace_rec_exit_get(&y, b, 12), 0);
  CU_ASSERT_EQUAL(y.status, -3);
}

/* Every record type with the fields it carries survives a round trip. */
void test_records_roundtrip(void) {
  static u8 b[8192];
  static struct rw_regs regs, back;
  u8 info[128], skips[TRACE_SPEC_BUF];
  for (size_t i = 0; i < sizeof info; i++) info[i] = (u8)(3 * i);
  some_regs(&regs, 7);

  struct trace_rec_syscall_exit sx = {60, -38, regs, 0}, sx2;
  trace_rec_syscall_exit_put(b, &sx);
  CU_ASSERT_EQUAL_FATAL(trace_rec_syscall_exit_get(
                            &sx2, b, trace_rec_syscall_exit_size(&sx)), 0);
  CU_ASSERT_EQUAL(sx2.nr, 60);
  CU_ASSERT_EQUAL(sx2.result, -38);
  CU_ASSERT_EQUAL(sx2.fp_valid, 0);
  back = sx2.regs;
  CU_ASSERT_EQUAL(back.rip, regs.rip);
  CU_ASSERT_EQUAL(back.gpr[15], regs.gpr[15]);
  CU_ASSERT_EQUAL(memcmp(back.fxsave, regs.fxsave, sizeof regs.fxsave), 0);
  CU_ASSERT_EQUAL(memcmp(back.ymmh, regs.ymmh, sizeof regs.ymmh), 0);

  struct trace_rec_signal sg = {11, 1, 0xdead, regs, {info, sizeof info}},
                          sg2;
  trace_rec_signal_put(b, &sg);
  CU_ASSERT_EQUAL_FATAL(
      trace_rec_signal_get(&sg2, b, trace_rec_signal_size(&sg)), 0);
  CU_ASSERT_EQUAL(sg2.signo, 11);
  CU_ASSERT_EQUAL(sg2.code, 1);
  CU_ASSERT_EQUAL(sg2.addr, 0xdead);
  CU_ASSERT_EQUAL(sg2.siginfo.len, sizeof info);
  CU_ASSERT_EQUAL(memcmp(sg2.siginfo.p, info, sizeof info), 0);

  struct rw_digest_spec spec = {
      .dead_lo = 0x7000,
      .dead_hi = 0x8000,
      .nskip = 2,
      .skip = {{0x1000, 0x2000}, {0x5000, 0x6000}},
      .ndead = 2,
      .dead = {{0x9010, 0x9f00}, {0xa100, 0xa200}},
      .kind = RW_DIGEST_CHAIN};
  struct rw_digest_spec spec2;
  struct trace_rec_preempt pe = {.regs = regs, .digest = 0x1234}, pe2;
  trace_spec_set(&spec, &pe.dead_lo, &pe.dead_hi, &pe.nskip, &pe.skips,
                 skips);
  trace_rec_preempt_put(b, &pe);
  CU_ASSERT_EQUAL(trace_rec_preempt_size(&pe),
                  RW_REGS_DISK_SIZE + 8 + 16 + 4 + 32 + 32);
  CU_ASSERT_EQUAL_FATAL(
      trace_rec_preempt_get(&pe2, b, trace_rec_preempt_size(&pe)), 0);
  CU_ASSERT_EQUAL(pe2.digest, 0x1234);
  CU_ASSERT_EQUAL_FATAL(trace_spec_get(pe2.dead_lo, pe2.dead_hi, pe2.nskip,
                                       pe2.skips, &spec2), 0);
  CU_ASSERT_EQUAL(spec2.dead_lo, 0x7000);
  CU_ASSERT_EQUAL(spec2.dead_hi, 0x8000);
  CU_ASSERT_EQUAL(spec2.nskip, 2);
  CU_ASSERT_EQUAL(spec2.skip[1][0], 0x5000);
  CU_ASSERT_EQUAL(spec2.skip[1][1], 0x6000);
  CU_ASSERT_EQUAL(spec2.ndead, 2);
  CU_ASSERT_EQUAL(spec2.dead[0][0], 0x9010);
  CU_ASSERT_EQUAL(spec2.dead[1][1], 0xa200);
  /* What follows the skips is whole dead ranges, at most 32 of them. */
  {
    struct trace_bytes odd = {pe2.skips.p, pe2.skips.len - 8};
    CU_ASSERT_EQUAL(trace_spec_get(pe2.dead_lo, pe2.dead_hi, pe2.nskip, odd,
                                   &spec2),
                    RW_ECORRUPT);
    static u8 many[16 * (2 + RW_DIGEST_DEAD_MAX + 1)];
    struct trace_bytes big = {many, sizeof many};
    CU_ASSERT_EQUAL(trace_spec_get(0, 0, 2, big, &spec2), RW_ECORRUPT);
    big.len -= 16;
    CU_ASSERT_EQUAL(trace_spec_get(0, 0, 2, big, &spec2), 0);
    CU_ASSERT_EQUAL(spec2.ndead, RW_DIGEST_DEAD_MAX);
  }

  struct trace_rec_output o = {1, 4096, 0xabcdef01, {info, 64}}, o2;
  trace_rec_output_put(b, &o);
  CU_ASSERT_EQUAL_FATAL(
      trace_rec_output_get(&o2, b, trace_rec_output_size(&o)), 0);
  CU_ASSERT_EQUAL(o2.fd, 1);
  CU_ASSERT_EQUAL(o2.len, 4096);
  CU_ASSERT_EQUAL(o2.crc, 0xabcdef01);
  CU_ASSERT_EQUAL(o2.head.len, 64);

  struct trace_rec_note n = {1, trace_str_of("hello")}, n2;
  char text[4];
  trace_rec_note_put(b, &n);
  CU_ASSERT_EQUAL_FATAL(trace_rec_note_get(&n2, b, trace_rec_note_size(&n)),
                        0);
  CU_ASSERT_EQUAL(n2.text.len, 5);
  trace_str_copy(n2.text, text, sizeof text); /* cut to fit */
  CU_ASSERT_STRING_EQUAL(text, "hel");

  /* A str is cut at 65535 bytes. */
  char *big = malloc(70000);
  CU_ASSERT_PTR_NOT_NULL_FATAL(big);
  memset(big, 'x', 69999);
  big[69999] = 0;
  struct trace_rec_note nb = {0, trace_str_of(big)};
  CU_ASSERT_EQUAL(trace_rec_note_size(&nb), 4 + 2 + 65535);
  free(big);
}

/* Cut at every length: a payload that ends where a later format version
 * appended fields decodes with their defaults, any other cut is
 * RW_ECORRUPT, and ASan sees no read past the cut (the copy is exact). */
void test_records_cut(void) {
  static struct rw_regs regs;
  static struct trace_rec_syscall_enter se, se2;
  static struct trace_rec_preempt pe, pe2;
  static struct trace_rec_map m, m2;
  u8 skips[32];
  some_regs(&regs, 3);
  se = (struct trace_rec_syscall_enter){1, regs, 0};
  size_t n = trace_rec_syscall_enter_size(&se);
  u8 *full = malloc(n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(full);
  trace_rec_syscall_enter_put(full, &se);
  for (size_t k = 0; k <= n; k++) {
    u8 *cut = malloc(k ? k : 1);
    memcpy(cut, full, k);
    int rc = trace_rec_syscall_enter_get(&se2, cut, k);
    if (k == n) {
      CU_ASSERT_EQUAL(rc, 0);
      CU_ASSERT_EQUAL(se2.fp_valid, 0);
    } else if (k == n - 4) {
      /* Before fp_valid existed: the FP state was always read. */
      CU_ASSERT_EQUAL(rc, 0);
      CU_ASSERT_EQUAL(se2.fp_valid, 1);
    } else {
      CU_ASSERT_EQUAL(rc, RW_ECORRUPT);
    }
    free(cut);
  }
  free(full);

  /* PREEMPT: whole after the digest (1.0), after the dead range (1.3) and
   * with its skips (1.5). */
  struct rw_digest_spec spec = {.dead_lo = 0x10,
                                .dead_hi = 0x20,
                                .nskip = 2,
                                .skip = {{1, 2}, {3, 4}},
                                .kind = RW_DIGEST_CHAIN};
  pe = (struct trace_rec_preempt){.regs = regs, .digest = 5};
  trace_spec_set(&spec, &pe.dead_lo, &pe.dead_hi, &pe.nskip, &pe.skips,
                 skips);
  n = trace_rec_preempt_size(&pe);
  full = malloc(n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(full);
  trace_rec_preempt_put(full, &pe);
  size_t whole[] = {RW_REGS_DISK_SIZE + 8, RW_REGS_DISK_SIZE + 24};
  for (size_t k = 0; k <= n; k++) {
    int want = RW_ECORRUPT;
    for (size_t j = 0; j < sizeof whole / sizeof whole[0]; j++)
      if (k == whole[j]) want = 0;
    /* skips is "the rest": a short one decodes, and trace_spec_get
     * refuses it. */
    if (k >= RW_REGS_DISK_SIZE + 28) want = 0;
    CU_ASSERT_EQUAL(trace_rec_preempt_get(&pe2, full, k), want);
    if (k == RW_REGS_DISK_SIZE + 8) {
      CU_ASSERT_EQUAL(pe2.dead_lo, 0);
      CU_ASSERT_EQUAL(pe2.nskip, 0);
    }
    if (k >= RW_REGS_DISK_SIZE + 28) {
      struct rw_digest_spec s2;
      CU_ASSERT_EQUAL(trace_spec_get(pe2.dead_lo, pe2.dead_hi, pe2.nskip,
                                     pe2.skips, &s2),
                      k < n ? RW_ECORRUPT : 0);
    }
  }
  free(full);

  /* MAP before format 1.2 has no object. */
  m = (struct trace_rec_map){1, 2, 3, 4, 5, {{0}}, trace_str_of("p"), 77};
  n = trace_rec_map_size(&m);
  full = malloc(n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(full);
  trace_rec_map_put(full, &m);
  CU_ASSERT_EQUAL(trace_rec_map_get(&m2, full, n - 8), 0);
  CU_ASSERT_EQUAL(m2.object, 0);
  CU_ASSERT_EQUAL(trace_rec_map_get(&m2, full, n - 9), RW_ECORRUPT);
  CU_ASSERT_EQUAL(trace_rec_map_get(&m2, full, n - 4), RW_ECORRUPT);
  /* Bytes past the last field are a later version's: ignored. */
  u8 *longer = calloc(1, n + 8);
  memcpy(longer, full, n);
  CU_ASSERT_EQUAL(trace_rec_map_get(&m2, longer, n + 8), 0);
  CU_ASSERT_EQUAL(m2.object, 77);
  free(longer);
  free(full);

  /* A str whose length runs past the payload. */
  u8 bad[8] = {1, 0, 0, 0, 9, 0, 'a', 'b'};
  struct trace_rec_exec e;
  CU_ASSERT_EQUAL(trace_rec_exec_get(&e, bad, sizeof bad), RW_ECORRUPT);

  /* More skipped ranges than a digest has. */
  struct rw_digest_spec s3;
  u8 many[16 * (RW_DIGEST_SKIP_MAX + 1)] = {0};
  CU_ASSERT_EQUAL(trace_spec_get(0, 0, RW_DIGEST_SKIP_MAX + 1,
                                 (struct trace_bytes){many, sizeof many},
                                 &s3),
                  RW_ECORRUPT);
}

/* Records appended through reserve and commit read back in order, with
 * their sequence numbers, between plain appends. */
void test_records_append(void) {
  const char *p = tf_path("records.rwd");
  struct trace_writer_opts o = {0};
  trace_writer *w;
  trace_reader *r;
  trace_cursor *c;
  struct trace_record rec;
  u8 *slot;
  u64 seq;
  o.overwrite = 1;
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  struct trace_rec_exec e = {42, trace_str_of("/bin/true")};
  CU_ASSERT_EQUAL(trace_rec_exec_append(w, 42, &e), 0);
  CU_ASSERT_EQUAL(trace_writer_append(w, 42, TRACE_REC_NOTE, "\0\0\0\0\0\0",
                                      6, &seq), 0);
  CU_ASSERT_EQUAL(seq, 2);
  struct trace_rec_grow g = {0x7000, 0x1000};
  CU_ASSERT_EQUAL(trace_rec_grow_append(w, 43, &g), 0);
  /* One reserved record at a time. */
  CU_ASSERT_EQUAL(trace_writer_reserve(w, 42, TRACE_REC_UNMAP, 16, &slot), 0);
  CU_ASSERT_EQUAL(trace_writer_reserve(w, 42, TRACE_REC_UNMAP, 16, &slot),
                  RW_EINVAL);
  CU_ASSERT_PTR_NULL(slot);
  CU_ASSERT_EQUAL(trace_writer_commit(w, &seq), 0);
  CU_ASSERT_EQUAL(seq, 4);
  CU_ASSERT_EQUAL(trace_writer_commit(w, &seq), RW_EINVAL);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);

  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.type, TRACE_REC_EXEC);
  struct trace_rec_exec e2;
  CU_ASSERT_EQUAL(trace_rec_exec_get(&e2, rec.data, rec.len), 0);
  CU_ASSERT_EQUAL(e2.pid, 42);
  CU_ASSERT_EQUAL(e2.path.len, 9);
  CU_ASSERT_EQUAL(memcmp(e2.path.p, "/bin/true", 9), 0);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.type, TRACE_REC_NOTE);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.type, TRACE_REC_GROW);
  CU_ASSERT_EQUAL(rec.tid, 43);
  CU_ASSERT_EQUAL(rec.seq, 3);
  struct trace_rec_grow g2;
  CU_ASSERT_EQUAL(trace_rec_grow_get(&g2, rec.data, rec.len), 0);
  CU_ASSERT_EQUAL(g2.addr, 0x7000);
  CU_ASSERT_EQUAL(g2.len, 0x1000);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.type, TRACE_REC_UNMAP);
  CU_ASSERT_EQUAL(rec.len, 16);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, NULL), 0);
  trace_cursor_close(c);
  trace_reader_close(r);
  unlink(p);
}

/* The field lists as `rewind dump` and its documentation show them. */
void test_records_fields(void) {
  CU_ASSERT_STRING_EQUAL(trace_record_fields(TRACE_REC_MAP),
                         "x64 addr, x64 len, u32 prot, u32 flags, "
                         "x64 offset, hash blob, str path; u64 object");
  CU_ASSERT_STRING_EQUAL(trace_record_fields(TRACE_REC_SYSCALL_ENTER),
                         "u64 nr, regs regs; u32 fp_valid");
  CU_ASSERT_STRING_EQUAL(trace_record_fields(TRACE_REC_PREEMPT),
                         "regs regs, x64 digest; x64 dead_lo, x64 dead_hi; "
                         "u32 nskip, bytes skips");
  CU_ASSERT_STRING_EQUAL(trace_record_fields(TRACE_REC_AUXV), "bytes auxv");
  for (u16 t = 1; t < TRACE_REC_MAX_KNOWN; t++) {
    const char *f = trace_record_fields(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t n = strlen(f);
    CU_ASSERT(n > 0 && f[n - 1] != ' ' && f[n - 1] != ',' && f[0] != ' ');
  }
}

/* SYSCALL_ENTER_GP and SYSCALL_EXIT_GP (format 1.11) come out of a cursor
 * as the SYSCALL_ENTER and SYSCALL_EXIT they stand for: the same general
 * registers, the FP/SSE/AVX part zero, fp_valid 0. One cut short inside
 * its registers comes out as it is, and does not decode. */
void test_records_general_regs(void) {
  const char *p = tf_path("gregs.rwd");
  struct trace_writer_opts o = {0};
  trace_writer *w;
  trace_reader *r;
  trace_cursor *c;
  struct trace_record rec;
  o.overwrite = 1;
  struct rw_regs regs;
  memset(&regs, 0, sizeof regs);
  for (int i = 0; i < RW_NGPR; i++) regs.gpr[i] = 0x1111ull * (u64)(i + 1);
  regs.rip = 0x70000082, regs.rflags = 0x246, regs.orig_rax = 1;
  regs.fs_base = 0x7f0000001000, regs.seg[1] = 0x33;
  memset(regs.fxsave, 0xab, sizeof regs.fxsave); /* left out on disk */
  CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &o), 0);
  struct trace_rec_syscall_enter_gp e = {1, regs};
  struct trace_rec_syscall_exit_gp x = {1, -11, regs};
  CU_ASSERT_EQUAL(trace_rec_syscall_enter_gp_size(&e), 8 + RW_GREGS_DISK_SIZE);
  CU_ASSERT_EQUAL(trace_rec_syscall_enter_gp_append(w, 7, &e), 0);
  CU_ASSERT_EQUAL(trace_rec_syscall_exit_gp_append(w, 7, &x), 0);
  u8 shortp[8 + 16] = {1};
  u64 seq;
  CU_ASSERT_EQUAL(trace_writer_append(w, 7, TRACE_REC_SYSCALL_ENTER_GP, shortp,
                                      sizeof shortp, &seq), 0);
  CU_ASSERT_EQUAL(trace_writer_close(w), 0);

  CU_ASSERT_EQUAL_FATAL(trace_reader_open(&r, p, NULL), 0);
  CU_ASSERT_EQUAL_FATAL(trace_cursor_open(&c, r, TRACE_ALL_THREADS), 0);
  CU_ASSERT_EQUAL_FATAL(trace_cursor_next(c, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.type, TRACE_REC_SYSCALL_ENTER);
  struct trace_rec_syscall_enter e2;
  CU_ASSERT_EQUAL_FATAL(trace_rec_syscall_enter_get(&e2, rec.data, rec.len), 0);
  CU_ASSERT_EQUAL(e2.nr, 1);
  CU_ASSERT_EQUAL(e2.fp_valid, 0);
  CU_ASSERT_EQUAL(memcmp(e2.regs.gpr, regs.gpr, sizeof regs.gpr), 0);
  CU_ASSERT_EQUAL(e2.regs.rip, 0x70000082);
  CU_ASSERT_EQUAL(e2.regs.fs_base, 0x7f0000001000);
  CU_ASSERT_EQUAL(e2.regs.seg[1], 0x33);
  CU_ASSERT_EQUAL(e2.regs.fxsave[0], 0);
  CU_ASSERT_EQUAL(e2.regs.fxsave[511], 0);
  CU_ASSERT_EQUAL_FATAL(trace_cursor_next(c, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.type, TRACE_REC_SYSCALL_EXIT);
  struct trace_rec_syscall_exit x2;
  CU_ASSERT_EQUAL_FATAL(trace_rec_syscall_exit_get(&x2, rec.data, rec.len), 0);
  CU_ASSERT_EQUAL(x2.result, -11);
  CU_ASSERT_EQUAL(x2.fp_valid, 0);
  CU_ASSERT_EQUAL(x2.regs.rflags, 0x246);
  CU_ASSERT_EQUAL_FATAL(trace_cursor_next(c, &rec, NULL), 1);
  CU_ASSERT_EQUAL(rec.type, TRACE_REC_SYSCALL_ENTER_GP);
  CU_ASSERT_EQUAL(rec.len, 24);
  CU_ASSERT_EQUAL(trace_rec_syscall_enter_gp_get(&e, rec.data, rec.len),
                  RW_ECORRUPT);
  CU_ASSERT_EQUAL(trace_cursor_next(c, &rec, NULL), 0);
  trace_cursor_close(c);
  trace_reader_close(r);
  unlink(p);
}
