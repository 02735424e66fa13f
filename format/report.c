/* SPDX-License-Identifier: MIT */
/* The human-facing reports over a trace: `rewind info` (what a trace holds,
 * from its metadata, index and a pass over its records) and `rewind dump`
 * (every record, decoded, as text or JSON lines). cli/ only parses arguments
 * and calls these; they print, and leave exit statuses to the caller. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/isa.h"
#include "format/format_int.h"

/* Prints "label:" padded, then the rest printf-style, then a newline. */
static void line(FILE *out, const char *label, const char *fmt, ...)
    RW_PRINTF(3, 4);
static void line(FILE *out, const char *label, const char *fmt, ...) {
  va_list ap;
  fprintf(out, "%-11s ", label);
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
  fputc('\n', out);
}

/* Metadata KEY as printable text (NUL bytes shown as SEP, other control
 * bytes as '?'), or "unknown". Returns a static buffer. */
static const char *meta_text(const trace_reader *r, const char *key, char sep) {
  static char buf[1024];
  const void *v;
  size_t n, o = 0;
  if (trace_reader_meta(r, key, &v, &n) < 0) return "unknown";
  for (size_t i = 0; i < n && o + 4 < sizeof buf; i++) {
    u8 ch = ((const u8 *)v)[i];
    if (ch == 0 && i + 1 == n) break; /* a trailing terminator */
    buf[o++] = ch == 0 ? sep : (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
  }
  if (o + 4 >= sizeof buf) memcpy(buf + o, "...", 3), o += 3;
  buf[o] = 0;
  return buf;
}

/* Metadata KEY as a decimal number into *V. Returns 0 or RW_ENOTFOUND. */
static int meta_u64(const trace_reader *r, const char *key, u64 *v) {
  const void *p;
  size_t n;
  char buf[32], *end;
  if (trace_reader_meta(r, key, &p, &n) < 0 || n == 0 || n >= sizeof buf)
    return RW_ENOTFOUND;
  memcpy(buf, p, n);
  buf[n] = 0;
  *v = strtoull(buf, &end, 10);
  return *end == 0 ? 0 : RW_ENOTFOUND;
}

static void date(char *buf, size_t cap, u64 ns) {
  time_t t = (time_t)(ns / 1000000000u);
  struct tm tm;
  if (!localtime_r(&t, &tm) ||
      !strftime(buf, cap, "%Y-%m-%d %H:%M:%S %Z", &tm))
    snprintf(buf, cap, "%llu ns", (unsigned long long)ns);
}

static void size_text(char *buf, size_t cap, u64 n) {
  if (n < 10 * 1024)
    snprintf(buf, cap, "%llu B", (unsigned long long)n);
  else if (n < 10 * 1024 * 1024)
    snprintf(buf, cap, "%.1f KiB", n / 1024.0);
  else
    snprintf(buf, cap, "%.1f MiB", n / (1024.0 * 1024));
}

int trace__count_records(FILE *out, trace_reader *r, u64 *counts,
                         u64 *unknown, struct rw_diag *diag) {
  trace_cursor *c;
  struct trace_record rec;
  struct rw_diag d;
  int rc, bad = 0;
  if (trace_cursor_open(&c, r, TRACE_ALL_THREADS) < 0) return 1;
  for (;;) {
    memset(&d, 0, sizeof d);
    rc = trace_cursor_next(c, &rec, &d);
    if (rc == 0) break;
    if (rc == RW_ETRUNC) { /* a cut, not damage */
      if (out) line(out, "cut off:", "%s", d.msg);
      continue;
    }
    if (rc < 0) {
      if (out) line(out, "unreadable:", "%s", d.msg);
      if (!bad && diag) *diag = d;
      bad = 1;
      continue;
    }
    if (rec.type < TRACE_REC_MAX_KNOWN)
      counts[rec.type]++;
    else
      (*unknown)++;
  }
  trace_cursor_close(c);
  return bad;
}

int trace_report_info(FILE *out, trace_reader *r, struct rw_diag *diag) {
  struct trace_info in;
  u64 counts[TRACE_REC_MAX_KNOWN] = {0}, unknown = 0, start, end, total = 0;
  char buf[64], buf2[64];
  int bad;
  trace_reader_get_info(r, &in);
  line(out, "format:", "rewind trace %u.%u (this build writes %u.%u)",
       in.version_major, in.version_minor, TRACE_VERSION_MAJOR,
       TRACE_VERSION_MINOR);
  if (in.complete)
    line(out, "state:", "closed cleanly");
  else
    line(out, "state:", "not closed cleanly; index rebuilt by scanning");
  if (in.damaged && in.torn)
    line(out, "cut off:", "at offset %llu: %s (the writer died there)",
         (unsigned long long)in.damage_offset, in.damage);
  else if (in.damaged)
    line(out, "damage:", "at offset %llu: %s (%llu damaged region%s)",
         (unsigned long long)in.damage_offset, in.damage,
         (unsigned long long)trace_reader_ndamaged(r),
         trace_reader_ndamaged(r) == 1 ? "" : "s");
  date(buf, sizeof buf, in.created_ns);
  line(out, "created:", "%s", buf);
  line(out, "recorder:", "rewind %s", meta_text(r, TRACE_META_VERSION, ' '));
  line(out, "machine:", "%s", meta_text(r, TRACE_META_HOSTNAME, ' '));
  line(out, "kernel:", "%s", meta_text(r, TRACE_META_KERNEL, ' '));
  line(out, "cpu:", "%s", meta_text(r, TRACE_META_CPU, ' '));
  if (strcmp(meta_text(r, TRACE_META_CPU_PINNED, ' '), "unknown"))
    line(out, "pinned:", "CPU %s", meta_text(r, TRACE_META_CPU_PINNED, ' '));
  {
    const void *v;
    size_t len;
    char isa[256];
    if (trace_reader_meta(r, TRACE_META_CPUID, &v, &len) == 0 &&
        rw_isa_unemulated(v, len, 1, isa, sizeof isa))
      line(out, "cpu has:", "%s (not emulated: a replay stops at the first "
           "such instruction)", isa);
  }
  line(out, "command:", "%s", meta_text(r, TRACE_META_CMDLINE, ' '));
  line(out, "cwd:", "%s", meta_text(r, TRACE_META_CWD, ' '));
  if (meta_u64(r, TRACE_META_START, &start) == 0) {
    date(buf, sizeof buf, start);
    line(out, "started:", "%s", buf);
  } else {
    line(out, "started:", "unknown");
  }
  if (meta_u64(r, TRACE_META_START, &start) == 0 &&
      meta_u64(r, TRACE_META_END, &end) == 0 && end >= start)
    line(out, "duration:", "%.3f s", (end - start) / 1e9);
  else
    line(out, "duration:", "unknown");
  line(out, "exit:", "%s", meta_text(r, TRACE_META_EXIT, ' '));
  if (strcmp(meta_text(r, TRACE_META_STOPPED, ' '), "unknown"))
    line(out, "stopped:", "%s", meta_text(r, TRACE_META_STOPPED, ' '));
  {
    unsigned long long a, b;
    int at = 0;
    const char *w = meta_text(r, TRACE_META_TRIM, ' ');
    if (sscanf(w, "%llu %llu %n", &a, &b, &at) == 2 && at)
      line(out, "window:", "instructions %llu to %llu of %s (rewind trim)",
           a, b, w + at);
  }

  {
    size_t n = trace_reader_threads(r, NULL, 0);
    u32 tids[8];
    size_t shown = trace_reader_threads(r, tids, 8);
    fprintf(out, "%-11s %zu", "threads:", n);
    for (size_t i = 0; i < RW_MIN(shown, (size_t)8); i++)
      fprintf(out, "%s%u", i ? " " : " (", tids[i]);
    fprintf(out, "%s\n", n > 8 ? " ...)" : n ? ")" : "");
  }
  bad = trace__count_records(out, r, counts, &unknown, diag);
  for (size_t t = 0; t < TRACE_REC_MAX_KNOWN; t++) total += counts[t];
  total += unknown;
  if (total)
    line(out, "records:", "%llu (seq %llu..%llu)", (unsigned long long)total,
         (unsigned long long)in.seq_first, (unsigned long long)in.seq_last);
  else
    line(out, "records:", "0");
  for (size_t t = 1; t < TRACE_REC_MAX_KNOWN; t++)
    if (counts[t])
      fprintf(out, "  %-15s %llu\n", trace_record_name((u16)t),
              (unsigned long long)counts[t]);
  if (unknown)
    fprintf(out, "  %-15s %llu\n", "(unknown type)",
            (unsigned long long)unknown);

  {
    size_t n = trace_reader_nblobs(r);
    u64 bytes = 0;
    struct trace_blob_info bi;
    for (size_t i = 0; i < n; i++)
      if (trace_reader_blob_info(r, i, &bi) == 0) bytes += bi.size;
    size_text(buf, sizeof buf, bytes);
    line(out, "blobs:", "%zu (%s)", n, buf);
    for (size_t i = 0; i < n && i < 20; i++) {
      if (trace_reader_blob_info(r, i, &bi) < 0) break;
      size_text(buf, sizeof buf, bi.size);
      fprintf(out, "  %10s  %s\n", buf, bi.name[0] ? bi.name : "(unnamed)");
    }
    if (n > 20) fprintf(out, "  ... and %zu more\n", n - 20);
  }
  {
    size_t n = trace_reader_nkeyframes(r);
    struct trace_keyframe_info a, b;
    if (n && trace_reader_keyframe_info(r, 0, &a) == 0 &&
        trace_reader_keyframe_info(r, n - 1, &b) == 0)
      line(out, "keyframes:", "%zu (seq %llu..%llu)", n,
           (unsigned long long)a.seq, (unsigned long long)b.seq);
    else
      line(out, "keyframes:", "0");
  }
  line(out, "chunks:", "%llu (%llu of records)",
       (unsigned long long)in.nchunks, (unsigned long long)in.nrecords_chunks);
  size_text(buf, sizeof buf, in.raw_bytes);
  size_text(buf2, sizeof buf2, in.comp_bytes);
  line(out, "data:", "%s raw, %s compressed (ratio %.2f)", buf, buf2,
       in.comp_bytes ? (double)in.raw_bytes / (double)in.comp_bytes : 0.0);
  size_text(buf, sizeof buf, in.file_size);
  line(out, "file:", "%s (%llu bytes)", buf, (unsigned long long)in.file_size);
  if (ferror(out)) return RW_ERR(EIO);
  return bad;
}

static void type_name(char *buf, size_t cap, u16 type) {
  const char *n = trace_record_name(type);
  if (n)
    snprintf(buf, cap, "%s", n);
  else
    snprintf(buf, cap, "UNKNOWN_%u", type);
}

int trace_report_dump(FILE *out, FILE *err, trace_reader *r,
                      const struct trace_dump_opts *opts,
                      struct rw_diag *diag) {
  trace_cursor *c;
  struct trace_record rec;
  struct trace_print_opts po = {opts->json, opts->bytes_max};
  int rc, bad = 0;
  char name[32];
  RW_FORWARD(trace_cursor_open(&c, r, opts->tid));
  if (opts->seq_from) {
    rc = trace_cursor_seek(c, opts->seq_from);
    if (rc < 0) {
      trace_cursor_close(c);
      return rc;
    }
  }
  for (;;) {
    struct rw_diag d = {0};
    rc = trace_cursor_next(c, &rec, &d);
    if (rc == 0) break;
    if (rc == RW_ETRUNC) { /* a cut, not damage */
      if (err) fprintf(err, "rewind: note: %s\n", d.msg);
      continue;
    }
    if (rc < 0) {
      if (err) fprintf(err, "rewind: skipping unreadable records: %s\n", d.msg);
      if (!bad && diag) *diag = d;
      bad = 1;
      continue;
    }
    if (opts->type >= 0 && rec.type != opts->type) continue;
    type_name(name, sizeof name, rec.type);
    if (opts->json)
      fprintf(out, "{\"seq\":%llu,\"tid\":%u,\"type\":\"%s\"",
              (unsigned long long)rec.seq, rec.tid, name);
    else
      fprintf(out, "%llu %u %s ", (unsigned long long)rec.seq, rec.tid, name);
    rc = trace_record_print_opts(out, &rec, &po);
    fputs(opts->json ? "}\n" : "\n", out);
    if (rc < 0 || ferror(out)) {
      trace_cursor_close(c);
      return RW_ERR(EIO);
    }
  }
  trace_cursor_close(c);
  return bad;
}
