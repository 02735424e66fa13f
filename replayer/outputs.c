/* SPDX-License-Identifier: MIT */
/* Checks of what registers do not show: the bytes the program sends out,
 * and its memory at the end. At an OUTPUT record the replay sums the bytes
 * its thread hands to the write-like syscall it just entered (the buffers
 * of common/outbuf.h, read from the emulator's memory) and compares the
 * CRC-32C with the recorded one; at the end of the history it compares the
 * memory digest with the END record's. Either difference stops the replay
 * with a divergence report. The END record also says the recording
 * finished; rp__end_load finds it when the trace is opened. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outbuf.h"
#include "replayer/rp_int.h"

int rp__end_load(rp_replay *rp) {
  struct trace_info info;
  trace_cursor *c;
  struct trace_record rec;
  struct trace_rec_end e;
  trace_reader_get_info(rp->trace.tr, &info);
  rp->fin.end_expected = info.version_major > 1 || info.version_minor >= 1;
  rp->fin.have_endrec = 0;
  if (!info.seq_last) return 0;
  RW_FORWARD(trace_cursor_open(&c, rp->trace.tr, TRACE_ALL_THREADS));
  memset(&rp->fin.end_damage, 0, sizeof rp->fin.end_damage);
  int rc = trace_cursor_seek(c, info.seq_last);
  if (rc == 0) rc = trace_cursor_next(c, &rec, &rp->fin.end_damage);
  /* Damage there is reported when the replay gets to the end, as damage
   * is wherever the replay meets it. */
  if (rc < 0 && !rp->fin.end_damage.code)
    rw_diag_set(&rp->fin.end_damage, rc, 0, "%s", rw_strerror(rc));
  if (rc == 1 && rec.type == TRACE_REC_DETACH) {
    /* The same digest; the end is the detach, not an exit. */
    struct trace_rec_detach d;
    if (trace_rec_detach_get(&d, rec.data, rec.len) == 0) {
      e.has_digest = d.has_digest;
      e.digest = d.digest;
      rp->fin.have_endrec = trace_spec_get(d.dead_lo, d.dead_hi, d.nskip,
                                           d.skips, &rp->fin.end_spec) == 0;
    }
    rp->fin.end_spec.kind = rp->digest_kind;
    rp->fin.end_has_digest = rp->fin.have_endrec && e.has_digest;
    rp->fin.end_digest = rp->fin.have_endrec ? e.digest : 0;
  }
  if (rc == 1 && rec.type == TRACE_REC_END) {
    /* Its status and signo: the EXIT records say them too. */
    rp->fin.have_endrec =
        trace_rec_end_get(&e, rec.data, rec.len) == 0 &&
        trace_spec_get(e.dead_lo, e.dead_hi, e.nskip, e.skips,
                       &rp->fin.end_spec) == 0;
    rp->fin.end_spec.kind = rp->digest_kind;
    rp->fin.end_has_digest = rp->fin.have_endrec && e.has_digest;
    rp->fin.end_digest = rp->fin.have_endrec ? e.digest : 0;
  }
  trace_cursor_close(c);
  return 0;
}

/* After a digest that differs: how to find the bytes. */
static const char digest_hint[] =
    "  a digest does not say which bytes differ: a recording made with "
    "--keyframes,\n  verified with rewind replay --verify -j N, compares "
    "all memory at each keyframe\n  and names the first byte that "
    "differs\n";

/* The hint added to RP's report, once (a re-run for the report may meet
 * the difference again). */
static int add_hint(rp_replay *rp) {
  if (rp->health.report && strstr(rp->health.report, digest_hint))
    return 0;
  return rp__report_add(rp, digest_hint);
}

/* The divergence of a digest of WHAT: WANT recorded, GOT replayed. */
static int differs(rp_replay *rp, struct rp_stop *stop, const char *what,
                   u64 want, u64 got) {
  RW_FORWARD(rp__diverge(rp, stop, NULL,
                         "%s differs from the recording (digest %#018llx "
                         "recorded, %#018llx replayed): a value it kept in "
                         "memory, and never sent out, was computed "
                         "differently",
                         what, (unsigned long long)want,
                         (unsigned long long)got));
  return add_hint(rp);
}

int rp__check_end(rp_replay *rp, struct rp_stop *stop) {
  u64 d;
  if (!rp->fin.have_endrec || !rp->fin.end_has_digest || rp->fin.end_checked)
    return 0;
  RW_FORWARD(rp__digest(rp, &rp->fin.end_spec, &d));
  if (d == rp->fin.end_digest) {
    rp->fin.end_checked = 1;
    return 0;
  }
  return differs(rp, stop,
                 "the program's writable memory at the end of the history",
                 rp->fin.end_digest, d);
}

/* Compares process P's memory, less what the spec of DEAD_LO, DEAD_HI,
 * NSKIP and SKIPS leaves out, with the digest WANT of record REC, once
 * per record; WHAT and what follows (printf's) name it in a
 * divergence. */
static int check_proc(rp_replay *rp, const struct rp__rec *rec,
                      struct rp__proc *p, u64 want, u64 dead_lo, u64 dead_hi,
                      u32 nskip, struct trace_bytes skips, struct rp_stop *stop,
                      const char *what, ...)
    __attribute__((format(printf, 10, 11)));
static int check_proc(rp_replay *rp, const struct rp__rec *rec,
                      struct rp__proc *p, u64 want, u64 dead_lo, u64 dead_hi,
                      u32 nskip, struct trace_bytes skips, struct rp_stop *stop,
                      const char *what, ...) {
  struct rw_digest_spec spec;
  u64 d;
  RW_FORWARD(trace_spec_get(dead_lo, dead_hi, nskip, skips, &spec));
  spec.kind = rp->digest_kind;
  struct rp__proc *was = rp->proc; /* P, not the last one to run */
  rp->proc = p;
  int rc = rp__digest(rp, &spec, &d);
  rp->proc = was;
  RW_FORWARD(rc);
  if (d == want) {
    rp->fin.digest_seq = rec->seq; /* a replay that goes back pays once */
    rp->digests++;
    return 0;
  }
  char text[160];
  va_list ap;
  va_start(ap, what);
  vsnprintf(text, sizeof text, what, ap);
  va_end(ap);
  return differs(rp, stop, text, want, d);
}

int rp__check_digest(rp_replay *rp, const struct rp__rec *rec,
                     struct rp__thread *t, struct rp_stop *stop) {
  struct trace_rec_digest x;
  if (rec->seq <= rp->fin.digest_seq) return 0; /* equal before */
  RW_FORWARD(trace_rec_digest_get(&x, rec->data, rec->len));
  RW_RETURN_IF(!t->st.in_syscall || (t->st.sys_nr != RP_NR_exit_group &&
                                     t->st.sys_nr != RP_NR_exit),
               RW_ECORRUPT, "DIGEST record of thread %u outside the "
               "syscall that ends its process", t->st.tid);
  return check_proc(rp, rec, t->proc, x.digest, x.dead_lo, x.dead_hi,
                    x.nskip, x.skips, stop,
                    "process %u's writable memory as it ends (thread %u at "
                    "the entry of %s)", rp__proc_pid(t->proc), t->st.tid,
                    t->st.sys_nr == RP_NR_exit ? "exit" : "exit_group");
}

int rp__check_killed(rp_replay *rp, const struct rp__rec *rec,
                     const struct trace_rec_exit *ex, struct rp__proc *p,
                     struct rp_stop *stop) {
  if (!ex->has_digest || rec->seq <= rp->fin.digest_seq) return 0;
  return check_proc(rp, rec, p, ex->digest, ex->dead_lo, ex->dead_hi,
                    ex->nskip, ex->skips, stop,
                    "process %u's writable memory as signal %u killed it",
                    rp__proc_pid(p), ex->signo);
}

/* The replay's bytes of one OUTPUT, summed as the recorder summed them. */
struct out_sum {
  rp_replay *rp;
  u64 want;  /* the recorded length: stop there */
  u64 got;   /* bytes summed */
  u32 crc;
  u8 head[RW_OUTBUF_HEAD];
  u64 bad_addr; /* the first address that could not be read, when short */
  int short_read;
};

/* The kernel reading a buffer below a grows-down mapping grows it, as an
 * instruction's access would: so does the replay, by the same rules. */
static void grow_for(rp_replay *rp, u64 addr) {
  int grew;
  if (rp__stack_grow(rp, addr, &grew) < 0) return; /* the read says why */
}

static int on_seg(void *ctx, u64 addr, u64 len) {
  struct out_sum *o = ctx;
  len = RW_MIN(len, o->want - o->got);
  if (len) grow_for(o->rp, addr);
  while (len > 0) {
    size_t n = (size_t)RW_MIN(len, (u64)RP_BUF);
    if (cpu_mem_read(o->rp->proc->mem, addr, o->rp->buf, n) < 0) {
      o->short_read = 1;
      o->bad_addr = addr;
      return 1;
    }
    if (o->got < RW_OUTBUF_HEAD)
      memcpy(o->head + o->got, o->rp->buf,
             (size_t)RW_MIN((u64)n, RW_OUTBUF_HEAD - o->got));
    o->crc = rw_crc32c(o->crc, o->rp->buf, n);
    o->got += n;
    addr += n, len -= n;
  }
  return o->got == o->want;
}

static int read_mem(void *ctx, u64 addr, void *dst, size_t len) {
  rp_replay *rp = ctx;
  if (len) grow_for(rp, addr);
  return cpu_mem_read(rp->proc->mem, addr, dst, len);
}

/* Prints N bytes at P as rows of hex and text, each line starting with
 * INDENT. */
static void hexdump(FILE *f, const char *indent, const u8 *p, size_t n) {
  for (size_t i = 0; i < n; i += 16) {
    fprintf(f, "%s%04zx ", indent, i);
    for (size_t j = i; j < i + 16; j++) {
      if (j < n)
        fprintf(f, " %02x", p[j]);
      else
        fputs("   ", f);
    }
    fputs("  |", f);
    for (size_t j = i; j < i + 16 && j < n; j++)
      fputc(p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '.', f);
    fputs("|\n", f);
  }
}

/* The part of the report that shows the bytes. */
static int bytes_report(rp_replay *rp, const struct out_sum *o,
                        const u8 *head, size_t nhead, u64 len) {
  char *text = NULL;
  size_t tlen = 0;
  FILE *f = open_memstream(&text, &tlen);
  RW_RETURN_IF(!f, RW_ENOMEM, "report");
  size_t mine = (size_t)RW_MIN(o->got, (u64)RW_OUTBUF_HEAD);
  size_t both = RW_MIN(mine, nhead), i = 0;
  while (i < both && head[i] == o->head[i]) i++;
  if (i < both || mine != nhead)
    fprintf(f, "  the first difference is at byte %zu\n", i);
  else if (len > nhead)
    fprintf(f, "  the first %zu bytes are equal; the trace keeps only the "
               "checksum of the rest, which differs\n", nhead);
  fprintf(f, "  recorded bytes (the first %zu of %llu):\n", nhead,
          (unsigned long long)len);
  hexdump(f, "    ", head, nhead);
  fprintf(f, "  replayed bytes (the first %zu of %llu):\n", mine,
          (unsigned long long)o->got);
  hexdump(f, "    ", o->head, mine);
  fclose(f);
  int rc = rp__report_add(rp, text);
  free(text);
  return rc;
}

int rp__check_output(rp_replay *rp, const struct rp__rec *rec,
                     struct rp__thread *t, struct rp_stop *stop) {
  struct trace_rec_output orec;
  struct rw_regs regs;
  RW_FORWARD(trace_rec_output_get(&orec, rec->data, rec->len));
  u32 fd = orec.fd, crc = orec.crc;
  u64 len = orec.len;
  size_t nhead = RW_MIN(orec.head.len, (size_t)RW_OUTBUF_HEAD);
  const u8 *head = orec.head.p;
  nhead = (size_t)RW_MIN((u64)nhead, len);
  RW_RETURN_IF(!t->st.in_syscall, RW_ECORRUPT,
               "OUTPUT record of thread %u outside a syscall", t->st.tid);
  const char *name = rw_outbuf_name(t->st.sys_nr);
  RW_RETURN_IF(!name, RW_ECORRUPT,
               "OUTPUT record of thread %u in syscall %llu, which sends "
               "nothing", t->st.tid, (unsigned long long)t->st.sys_nr);
  /* The thread is inside the syscall: its registers are still the entry's
   * (checked at SYSCALL_ENTER), arguments included. */
  cpu_get_regs(t->cpu, &regs);
  const u64 *g = regs.gpr;
  u64 args[6] = {g[RW_REG_rdi], g[RW_REG_rsi], g[RW_REG_rdx],
                 g[RW_REG_r10], g[RW_REG_r8],  g[RW_REG_r9]};
  struct out_sum o;
  memset(&o, 0, sizeof o);
  o.rp = rp;
  o.want = len;
  if (len) RW_FORWARD(rw_outbuf_walk(t->st.sys_nr, args, read_mem, rp, on_seg,
                                     &o));
  if (o.got == len && o.crc == crc) {
    rp->outputs++;
    return 0;
  }
  if (o.short_read)
    RW_FORWARD(rp__diverge(rp, stop, NULL,
                           "thread %u passes %llu bytes to %s (fd %u) in the "
                           "recording, but the replay cannot read them past "
                           "byte %llu (address %#llx)",
                           t->st.tid, (unsigned long long)len, name, fd,
                           (unsigned long long)o.got,
                           (unsigned long long)o.bad_addr));
  else if (o.got != len)
    RW_FORWARD(rp__diverge(rp, stop, NULL,
                           "thread %u passes %llu bytes to %s (fd %u) in the "
                           "recording, %llu in the replay",
                           t->st.tid, (unsigned long long)len, name, fd,
                           (unsigned long long)o.got));
  else
    RW_FORWARD(rp__diverge(rp, stop, NULL,
                           "thread %u passes other bytes to %s (fd %u, %llu "
                           "bytes) than in the recording: CRC-32C %#010x "
                           "recorded, %#010x replayed",
                           t->st.tid, name, fd, (unsigned long long)len, crc,
                           o.crc));
  return bytes_report(rp, &o, head, nhead, len);
}
