/* SPDX-License-Identifier: MIT */
/* `rewind info --json`: the facts of the `rewind info` report as one JSON
 * object, for scripts. Numbers stay numbers (sizes in bytes, times in ns
 * since the epoch); metadata strings are JSON strings. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/isa.h"
#include "format/format_int.h"

static void key(FILE *out, const char *k) { fprintf(out, ",\"%s\":", k); }

/* Metadata KEY as a JSON string, NUL separators shown as SEP, or null. */
static void meta_str(FILE *out, const trace_reader *r, const char *k,
                     const char *meta, char sep) {
  const void *v;
  size_t n;
  key(out, k);
  if (trace_reader_meta(r, meta, &v, &n) < 0) {
    fputs("null", out);
    return;
  }
  char *c = malloc(n + 1);
  if (!c) {
    fputs("null", out);
    return;
  }
  memcpy(c, v, n);
  while (n && c[n - 1] == 0) n--;
  for (size_t i = 0; i < n; i++)
    if (c[i] == 0) c[i] = sep;
  trace__json_str(out, c, n);
  free(c);
}

/* Metadata KEY (NUL-separated) as a JSON array of strings, or null. */
static void meta_list(FILE *out, const trace_reader *r, const char *k,
                      const char *meta) {
  const void *v;
  size_t n, start = 0;
  key(out, k);
  if (trace_reader_meta(r, meta, &v, &n) < 0) {
    fputs("null", out);
    return;
  }
  const char *c = v;
  fputc('[', out);
  for (size_t i = 0; i <= n; i++) {
    if (i < n && c[i]) continue;
    if (i == n && i == start) break; /* the trailing terminator */
    if (start) fputc(',', out);
    trace__json_str(out, c + start, i - start);
    start = i + 1;
  }
  fputc(']', out);
}

static void meta_num(FILE *out, const trace_reader *r, const char *k,
                     const char *meta) {
  const void *p;
  size_t n;
  char buf[32], *end;
  key(out, k);
  if (trace_reader_meta(r, meta, &p, &n) < 0 || n == 0 || n >= sizeof buf) {
    fputs("null", out);
    return;
  }
  memcpy(buf, p, n);
  buf[n] = 0;
  unsigned long long v = strtoull(buf, &end, 10);
  if (*end)
    fputs("null", out);
  else
    fprintf(out, "%llu", v);
}

int trace_report_info_json(FILE *out, trace_reader *r, struct rw_diag *diag) {
  struct trace_info in;
  u64 counts[TRACE_REC_MAX_KNOWN] = {0}, unknown = 0, total = 0;
  int bad;
  trace_reader_get_info(r, &in);
  fprintf(out, "{\"format\":\"%u.%u\"", in.version_major, in.version_minor);
  key(out, "complete");
  fputs(in.complete ? "true" : "false", out);
  key(out, "damage");
  if (in.damaged) {
    fprintf(out, "{\"offset\":%llu,\"regions\":%llu,\"cut_off\":%s,"
            "\"message\":",
            (unsigned long long)in.damage_offset,
            (unsigned long long)trace_reader_ndamaged(r),
            in.torn ? "true" : "false");
    trace__json_str(out, in.damage, strlen(in.damage));
    fputc('}', out);
  } else {
    fputs("null", out);
  }
  key(out, "created_ns");
  fprintf(out, "%llu", (unsigned long long)in.created_ns);
  meta_str(out, r, "recorder", TRACE_META_VERSION, ' ');
  meta_str(out, r, "machine", TRACE_META_HOSTNAME, ' ');
  meta_str(out, r, "kernel", TRACE_META_KERNEL, ' ');
  meta_str(out, r, "cpu", TRACE_META_CPU, ' ');
  meta_num(out, r, "cpu_pinned", TRACE_META_CPU_PINNED);
  {
    const void *v;
    size_t len;
    char isa[256];
    key(out, "cpu_unemulated");
    fputc('[', out);
    if (trace_reader_meta(r, TRACE_META_CPUID, &v, &len) == 0 &&
        rw_isa_unemulated(v, len, 1, isa, sizeof isa))
      for (char *p = isa, *e; p; p = e ? e + 2 : NULL) {
        e = strstr(p, ", ");
        if (p != isa) fputc(',', out);
        trace__json_str(out, p, e ? (size_t)(e - p) : strlen(p));
      }
    fputc(']', out);
  }
  meta_list(out, r, "command", TRACE_META_CMDLINE);
  meta_str(out, r, "cwd", TRACE_META_CWD, ' ');
  meta_num(out, r, "start_ns", TRACE_META_START);
  meta_num(out, r, "end_ns", TRACE_META_END);
  meta_str(out, r, "exit", TRACE_META_EXIT, ' ');
  meta_str(out, r, "stopped", TRACE_META_STOPPED, ' ');
  meta_str(out, r, "trimmed_from", TRACE_META_TRIM, ' ');

  size_t nt = trace_reader_threads(r, NULL, 0);
  u32 *tids = calloc(nt ? nt : 1, sizeof *tids);
  if (!tids) return RW_ENOMEM;
  nt = trace_reader_threads(r, tids, nt);
  key(out, "threads");
  fputc('[', out);
  for (size_t i = 0; i < nt; i++) fprintf(out, "%s%u", i ? "," : "", tids[i]);
  fputc(']', out);
  free(tids);

  bad = trace__count_records(NULL, r, counts, &unknown, diag);
  for (size_t t = 0; t < TRACE_REC_MAX_KNOWN; t++) total += counts[t];
  total += unknown;
  fprintf(out, ",\"records\":{\"total\":%llu,\"seq_first\":%llu,"
               "\"seq_last\":%llu,\"unreadable\":%s,\"by_type\":{",
          (unsigned long long)total, (unsigned long long)in.seq_first,
          (unsigned long long)in.seq_last, bad ? "true" : "false");
  int first = 1;
  for (size_t t = 1; t < TRACE_REC_MAX_KNOWN; t++)
    if (counts[t]) {
      fprintf(out, "%s\"%s\":%llu", first ? "" : ",",
              trace_record_name((u16)t), (unsigned long long)counts[t]);
      first = 0;
    }
  if (unknown)
    fprintf(out, "%s\"unknown\":%llu", first ? "" : ",",
            (unsigned long long)unknown);
  fputs("}}", out);

  key(out, "blobs");
  fputc('[', out);
  for (size_t i = 0, n = trace_reader_nblobs(r); i < n; i++) {
    struct trace_blob_info bi;
    if (trace_reader_blob_info(r, i, &bi) < 0) break;
    fprintf(out, "%s{\"sha256\":\"", i ? "," : "");
    for (int k = 0; k < 32; k++) fprintf(out, "%02x", bi.hash[k]);
    fprintf(out, "\",\"size\":%llu,\"name\":", (unsigned long long)bi.size);
    trace__json_str(out, bi.name, strlen(bi.name));
    fputc('}', out);
  }
  fputc(']', out);
  fprintf(out, ",\"keyframes\":%zu", trace_reader_nkeyframes(r));
  fprintf(out, ",\"chunks\":%llu,\"record_chunks\":%llu",
          (unsigned long long)in.nchunks,
          (unsigned long long)in.nrecords_chunks);
  fprintf(out, ",\"raw_bytes\":%llu,\"compressed_bytes\":%llu",
          (unsigned long long)in.raw_bytes, (unsigned long long)in.comp_bytes);
  fprintf(out, ",\"file_bytes\":%llu}\n", (unsigned long long)in.file_size);
  if (ferror(out)) return RW_ERR(EIO);
  return bad;
}
