/* SPDX-License-Identifier: MIT */
/* The replay's life cycle and its public API: opening a trace, building the
 * emulated process up to its first instruction, answering cpuid from the
 * recorded table, breakpoints and watchpoints, registers and memory for the
 * debugger, statistics and progress. The event machine is in step.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

#define RP_DEFAULT_KF_INTERVAL 5000000ull

/* cpuid from the table recorded on the machine the program ran on. A leaf
 * (or subleaf) the table does not have reads as zeros, as it does on the
 * CPUs that report a maximum leaf below it. */
int rp__apply_cpuid(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_cpuid c;
  RW_FORWARD(trace_rec_cpuid_get(&c, rec->data, rec->len));
  struct rp__cpuid_fix f = {rec->seq, {c.leaf, c.subleaf, c.eax, c.ebx,
                                       c.ecx, c.edx}};
  return rp__cpuid_note(rp, &f);
}

int rp__cpuid_note(rp_replay *rp, const struct rp__cpuid_fix *fp) {
  struct rp__cpuid_fix f = *fp;
  /* Met before (a run again after a seek): nothing new. */
  for (size_t i = rp->ncpuidfix; i-- > 0 && rp->cpuidfix[i].seq >= f.seq;)
    if (rp->cpuidfix[i].seq == f.seq && !memcmp(rp->cpuidfix[i].e, f.e, 24))
      return 0;
  RW_FORWARD(rp__grow((void **)&rp->cpuidfix, rp->ncpuidfix,
                      &rp->capcpuidfix, sizeof *rp->cpuidfix));
  /* In sequence order (a jump ahead may meet them out of order). */
  size_t i = rp->ncpuidfix++;
  for (; i > 0 && rp->cpuidfix[i - 1].seq > f.seq; i--)
    rp->cpuidfix[i] = rp->cpuidfix[i - 1];
  rp->cpuidfix[i] = f;
  return 0;
}

static int answer_cpuid(void *ctx, u32 leaf, u32 sub, u32 out[4]) {
  rp_replay *rp = ctx;
  const u32 *any = NULL;
  /* What the CPU answered last before this point of the history (CPUID
   * records), else the table. */
  for (size_t i = rp->ncpuidfix; i-- > 0;) {
    const struct rp__cpuid_fix *f = &rp->cpuidfix[i];
    if (f->seq > rp->trace.last_seq || f->e[0] != leaf ||
        (f->e[1] != sub && f->e[1] != 0xffffffffu))
      continue;
    memcpy(out, f->e + 2, 16);
    return 0;
  }
  for (size_t i = 0; i < rp->root.ncpuid; i++) {
    const u32 *e = rp->root.cpuid + 6 * i;
    if (e[0] != leaf) continue;
    if (e[1] == sub) {
      memcpy(out, e + 2, 16);
      return 0;
    }
    if (e[1] == 0xffffffffu) any = e;
  }
  if (any)
    memcpy(out, any + 2, 16);
  else
    memset(out, 0, 16);
  return 0;
}

static int load_cpuid(rp_replay *rp, struct rw_diag *diag) {
  const void *val;
  size_t len;
  if (trace_reader_meta(rp->trace.tr, TRACE_META_CPUID, &val, &len) < 0 || !len)
    return rw_diag_set(diag, RW_ECORRUPT, 0,
                       "the trace has no cpuid table (metadata '%s')",
                       TRACE_META_CPUID);
  if (len % 24)
    return rw_diag_set(diag, RW_ECORRUPT, 0,
                       "the cpuid table has %zu bytes, not a multiple of 24",
                       len);
  rp->proc->ncpuid = len / 24;
  rp->proc->cpuid = malloc(len);
  if (!rp->proc->cpuid) return rw_diag_set(diag, RW_ENOMEM, 0, "out of memory");
  for (size_t i = 0; i < 6 * rp->proc->ncpuid; i++)
    rp->proc->cpuid[i] = rd_le32((const u8 *)val + 4 * i);
  return 0;
}

/* Which memory digest the trace's PREEMPT and END records hold: "lanes"
 * since format 1.10, "chain" before (no metadata). */
static int load_digest_kind(rp_replay *rp, struct rw_diag *diag) {
  const void *val;
  size_t len;
  rp->digest_kind = RW_DIGEST_CHAIN;
  if (trace_reader_meta(rp->trace.tr, TRACE_META_DIGEST, &val, &len) < 0)
    return 0;
  if (len == 5 && !memcmp(val, "lanes", 5))
    rp->digest_kind = RW_DIGEST_LANES;
  else if (!(len == 5 && !memcmp(val, "chain", 5)))
    return rw_diag_set(diag, RW_EUNSUPPORTED, 0,
                       "the trace's memory digests are of a kind this rewind "
                       "does not know ('%.*s', metadata '%s'); a newer rewind "
                       "recorded it",
                       (int)RW_MIN(len, (size_t)32), (const char *)val,
                       TRACE_META_DIGEST);
  return 0;
}

/* XCR0 as the recording machine reported it: cpuid leaf 0xD subleaf 0
 * gives the supported components; the kernel enables all it knows. */
static u64 recorded_xcr0(rp_replay *rp) {
  u32 out[4];
  answer_cpuid(rp, 0xd, 0, out);
  u64 x = out[0] | (u64)out[3] << 32;
  return x ? x : 3;
}

/* The vendor of the recording CPU, from leaf 0 of its table: the flags the
 * manuals leave undefined are replayed as that vendor computes them. */
static int recorded_vendor(rp_replay *rp) {
  u32 out[4];
  answer_cpuid(rp, 0, 0, out);
  return cpu_vendor_of(out[1], out[3], out[2]);
}

/* Its family and model, from leaf 1: some rules differ between a
 * vendor's families, and between the models of one family (AMD's family
 * 0x19 is Zen 3 or Zen 4 by model). */
static u32 recorded_family(rp_replay *rp, u32 *model) {
  u32 out[4];
  answer_cpuid(rp, 1, 0, out);
  *model = cpu_model_of(out[0]);
  return cpu_family_of(out[0]);
}

int rp_open(rp_replay **out, const char *path, const struct rp_opts *opts,
            struct rw_diag *diag) {
  return rp__open(out, path, opts, NULL, diag);
}

int rp__open(rp_replay **out, const char *path, const struct rp_opts *opts,
             rp_replay *donor, struct rw_diag *diag) {
  rp_replay *rp = calloc(1, sizeof *rp);
  int rc;
  *out = NULL;
  if (!rp) return rw_diag_set(diag, RW_ENOMEM, 0, "out of memory");
  rp->proc = &rp->root;
  rp->user.proc = &rp->root;
  if (opts) rp->opts = *opts;
  rp->user.tree = rp->opts.tree;
  if (rp->opts.tree) rp->opts.whole = 1;
  const char *e = getenv("REWIND_NO_WRITE_INDEX");
  if (e && *e && strcmp(e, "0")) rp->opts.no_write_index = 1;
  e = getenv("REWIND_NO_WRITE_LINES");
  if (e && *e && strcmp(e, "0")) rp->opts.write_lines = 0;
  e = getenv("REWIND_REVERSE_HELPER");
  if (e && !strcmp(e, "0")) rp->opts.no_helper = 1;
  rp__stack_defaults(&rp->proc->stack);
  rp->tl.kf_interval = rp->opts.keyframe_interval ? rp->opts.keyframe_interval
                                               : RP_DEFAULT_KF_INTERVAL;
  rp->trace.path = strdup(path);
  rp->buf = malloc(RP_BUF);
  if (!rp->trace.path || !rp->buf) {
    rc = rw_diag_set(diag, RW_ENOMEM, 0, "out of memory");
    goto fail;
  }
  rc = trace_reader_open(&rp->trace.tr, path, diag);
  if (rc < 0) goto fail;
  trace_reader_defer_hash(rp->trace.tr, rp->opts.defer_blob_hash);
  struct trace_info info;
  trace_reader_get_info(rp->trace.tr, &info);
  rp->trace.total_seq = info.seq_last;
  rc = load_cpuid(rp, diag);
  if (rc == 0) rc = load_digest_kind(rp, diag);
  if (rc < 0) goto fail;
  rc = rp__end_load(rp);
  if (rc < 0) {
    rw_diag_set(diag, rc, 0, "cannot read the end of the trace: %s",
                rw_strerror(rc));
    goto fail;
  }
  rc = trace_cursor_open(&rp->trace.cur, rp->trace.tr, TRACE_ALL_THREADS);
  if (rc < 0) {
    rw_diag_set(diag, rc, 0, "the trace has no records");
    goto fail;
  }
  rp->trace.end_seq = rp->opts.end_seq;
  /* A ring recording's history begins at its first keyframe. */
  if (!rp->opts.start_keyframe && rp__segment_first(rp))
    rp->opts.start_keyframe = 1;
  if (rp->opts.start_keyframe && (rc = rp__segment_begin(rp, diag)) < 0)
    goto fail;
  rp->proc->cfg = (struct cpu_config){.cpuid = answer_cpuid,
                                      .ctx = rp,
                                      .xcr0 = recorded_xcr0(rp),
                                      .vendor = recorded_vendor(rp)};
  rp->proc->cfg.family = recorded_family(rp, &rp->proc->cfg.model);
  rc = cpu_mem_new(&rp->proc->mem);
  if (rc == 0) cpu_mem_track_lines(rp->proc->mem, rp->opts.write_lines &&
                                           !rp->opts.no_write_index);
  if (rc == 0) rc = rp__threads_init(rp); /* checks the emulator works */
  if (rc < 0) {
    rw_diag_set(diag, rc, 0, "cannot create the emulator: %s",
                rw_strerror(rc));
    goto fail;
  }
  /* Apply the records up to the program's first instruction. */
  rp->tl.next_kf = ~0ull;
  struct rp_stop stop;
  struct rp__goal start = rp__goal_at(0, 0);
  rp->prov.collect = rp->opts.start_keyframe != 0;
  rp->prov.donor = donor;
  rc = rp__run(rp, &start, &stop);
  rp->prov.collect = 0;
  rp->prov.donor = NULL;
  if (rc < 0 || rp->health.broken || !rp->th.have_thread) {
    /* Damage in the trace, or a trace without a program (corrupt data,
     * for the caller's exit status), or something the replay cannot do. */
    if (rc >= 0)
      rc = !rp->health.broken || rp->health.broken_stop.damaged ? RW_ECORRUPT
                                                  : RW_EUNSUPPORTED;
    rw_diag_set(diag, rc, 0, "%s",
                rp->health.broken ? rp->health.broken_stop.msg
                           : "the trace holds no program image to replay");
    goto fail;
  }
  rp->tl.next_kf = 0;
  rc = rp__kf_take(rp);
  if (rc < 0) {
    rw_diag_set(diag, rc, 0, "keyframe: %s", rw_strerror(rc));
    goto fail;
  }
  rp__prov_seal(rp);
  /* Its persistent index, when one was made (rewind index). */
  if (!rp->opts.no_index) {
    char ipath[4200];
    snprintf(ipath, sizeof ipath, "%s.idx", path);
    rc = rp__index_open(rp, ipath);
    if (rc < 0) {
      rw_diag_set(diag, rc, 0, "index: %s", rw_strerror(rc));
      goto fail;
    }
  }
  rp->start_ns = rw_now_ns();
  rp->progress_ns = rp->start_ns + 500000000ull;
  *out = rp;
  return 0;
fail:
  rp_close(rp);
  return rc;
}

void rp_close(rp_replay *rp) {
  if (!rp) return;
  rp__index_close(rp);
  rp__segment_close(rp);
  rp__divert_free(rp);
  rp__kf_free_all(rp);
  rp__fine_free_all(rp);
  rp__images_free(&rp->root);
  rp__syms_free(rp);
  rp__srcs_free(&rp->root.srcs);
  rp__threads_free(rp);
  rp__procs_free(rp);
  rp__digest_free(rp);
  cpu_mem_free(rp->root.mem);
  trace_cursor_close(rp->trace.cur);
  trace_reader_close(rp->trace.tr);
  if (rp->cs) cs_close(&rp->cs);
  free(rp->trace.pend.data);
  free(rp->root.cpuid);
  free(rp->user.bps);
  free(rp->user.wps);
  free(rp->user.sigrecs);
  free(rp->health.report);
  free(rp->cpuidfix);
  free(rp->buf);
  free(rp->trace.path);
  free(rp);
}

int rp_run(rp_replay *rp, u64 until, struct rp_stop *stop) {
  struct rp__goal g = rp__goal_at(until, rp__user_flags(rp));
  return rp__run(rp, &g, stop);
}

void rp_set_exec_stops(rp_replay *rp, int on) { rp->user.exec_stops = on; }
void rp_set_proc_stops(rp_replay *rp, int on) { rp->user.proc_stops = on; }

u64 rp_icount(const rp_replay *rp) { return rp->icount; }
u64 rp_event(const rp_replay *rp) { return rp->trace.events; }
u64 rp_end_icount(const rp_replay *rp) {
  return rp->fin.ended || rp->fin.end_icount ? rp->fin.end_icount : 0;
}
void rp_get_stats(const rp_replay *rp, struct rp_stats *st) {
  memset(st, 0, sizeof *st);
  st->instructions = rp->executed;
  st->events = rp->trace.events;
  st->keyframe_events = rp->trace.pro_events;
  st->checks = rp->checks;
  st->outputs = rp->outputs;
  st->digests = rp->digests;
  st->end_checked = rp->fin.end_checked;
  st->keyframes = rp->tl.nkfs;
  st->keyframe_bytes =
      rp__mem_footprint(rp) + rp__kf_thread_bytes(rp);
  st->index_loaded = rp__index_loaded(rp);
}

int rp_meta(const rp_replay *rp, const char *key, char *dst, size_t cap) {
  const void *v;
  size_t n;
  if (!cap || trace_reader_meta(rp->trace.tr, key, &v, &n) < 0)
    return RW_ENOTFOUND;
  n = RW_MIN(n, cap - 1);
  memcpy(dst, v, n);
  dst[n] = 0;
  return (int)n;
}

u64 rp_xcr0(const rp_replay *rp) { return rp->root.cfg.xcr0; }

void rp_trace_info(const rp_replay *rp, struct trace_info *info) {
  trace_reader_get_info(rp->trace.tr, info);
}

int rp_check_blobs_part(rp_replay *rp, size_t part, size_t parts,
                        struct rw_diag *diag) {
  RW_RETURN_IF(!parts || part >= parts, RW_EINVAL, "blob share");
  for (size_t i = part; i < trace_reader_nblobs(rp->trace.tr); i += parts)
    RW_FORWARD(trace_reader_blob_check(rp->trace.tr, i, diag));
  return 0;
}

int rp_check_blobs(rp_replay *rp, struct rw_diag *diag) {
  return rp_check_blobs_part(rp, 0, 1, diag);
}

void rp__progress(rp_replay *rp, int final) {
  if (!rp->opts.progress) return;
  u64 now = rw_now_ns();
  if (!final && now < rp->progress_ns) return;
  rp->progress_ns = now + 500000000ull;
  double secs = (double)(now - rp->start_ns) / 1e9;
  double pct = rp->trace.total_seq ? 100.0 * (double)rp->trace.last_seq /
                                   (double)rp->trace.total_seq
                             : 0;
  fprintf(stderr, "\rrewind: replaying: %llu instructions, %.1f%% of events, "
                  "%.0f MIPS   %s",
          (unsigned long long)rp->icount, pct,
          secs > 0 ? (double)rp->executed / secs / 1e6 : 0.0,
          final ? "\n" : "");
  fflush(stderr);
}
