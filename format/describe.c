/* SPDX-License-Identifier: MIT */
/* Names and decoded printing of records, driven by the field descriptions in
 * records.def: `rewind dump` and its JSON output need no code per record
 * type. Every field read is bounds-checked against the payload, so a short
 * or unknown record prints as hex with a note instead of being misread. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/regs.h"
#include "format/format_int.h"

struct rec_desc {
  const char *name;
  const char *fields; /* stringified: "u32 pid, str path, " */
};

/* The field lists stringified, with "; " where TF_LATER stands; the
 * separators are tidied on the way out (trace_record_fields). */
static const struct rec_desc rec_descs[] = {
#define TF(type, field) #type " " #field ", "
#define TF_DEF(type, field, dflt) TF(type, field)
#define TF_LATER "; "
#define TRACE_REC(id, NAME, name, fields, doc) [id] = {#NAME, fields},
#include "records.def"
#undef TRACE_REC
#undef TF_LATER
#undef TF_DEF
#undef TF
};

/* The field lists as people read them: "x64 addr, str path; u64 object". */
static char tidy[RW_ARRAY_SIZE(rec_descs)][320];
static pthread_once_t tidy_once = PTHREAD_ONCE_INIT;

static void tidy_all(void) {
  for (size_t t = 0; t < RW_ARRAY_SIZE(rec_descs); t++) {
    const char *f = rec_descs[t].fields;
    size_t n = 0, cap = sizeof tidy[t] - 3;
    char sep = 0; /* the separator before the next field: ',' or ';' */
    for (; f && *f && n < cap; f++) {
      if (*f == ',' || *f == ';') {
        if (sep != ';') sep = *f;
        continue;
      }
      if (*f == ' ' && sep) continue;
      if (sep && n) tidy[t][n++] = sep, tidy[t][n++] = ' ';
      sep = 0;
      tidy[t][n++] = *f;
    }
    tidy[t][n] = 0;
  }
}

static const char *const chunk_names[] = {
#define TRACE_CHUNK(id, name, doc) [id] = #name,
#include "chunks.def"
#undef TRACE_CHUNK
};

const char *trace_record_name(u16 type) {
  return type < RW_ARRAY_SIZE(rec_descs) ? rec_descs[type].name : NULL;
}

const char *trace_record_fields(u16 type) {
  if (type >= RW_ARRAY_SIZE(rec_descs) || !rec_descs[type].fields)
    return NULL;
  pthread_once(&tidy_once, tidy_all);
  return tidy[type];
}

const char *trace_chunk_name(u16 type) {
  return type < RW_ARRAY_SIZE(chunk_names) ? chunk_names[type] : NULL;
}

int trace_record_type_by_name(const char *name) {
  for (size_t i = 1; i < RW_ARRAY_SIZE(rec_descs); i++)
    if (rec_descs[i].name && !strcasecmp(rec_descs[i].name, name))
      return (int)i;
  return RW_ENOTFOUND;
}

/* ------------------------------------------------------------ printing */

/* Output state for one record. */
struct pr {
  FILE *out;
  int json;
  size_t bytes_max;
  int first; /* no text field printed yet */
};

static void name_out(struct pr *p, const char *name, size_t nlen) {
  /* A field named like a member the caller prints itself ("tid" of
   * THREAD_START) gets a prefix, so that no JSON object has a key twice. */
  int clash = (nlen == 3 && (!memcmp(name, "seq", 3) ||
                             !memcmp(name, "tid", 3))) ||
              (nlen == 4 && !memcmp(name, "type", 4));
  if (p->json)
    fprintf(p->out, ",\"%s%.*s\":", clash ? "field_" : "", (int)nlen, name);
  else
    fprintf(p->out, "%s%.*s=", p->first ? "" : " ", (int)nlen, name);
  p->first = 0;
}

static void hex_out(FILE *out, const u8 *b, size_t n) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    fputc(digits[b[i] >> 4], out);
    fputc(digits[b[i] & 15], out);
  }
}

/* Length of the valid UTF-8 sequence of a printable character at S (N
 * bytes left), or 0 when the bytes there are not one: overlong forms,
 * surrogates, values past U+10FFFF and C1 controls are refused. */
static size_t utf8_len(const u8 *s, size_t n) {
  u32 cp;
  size_t len;
  if (s[0] < 0xc2 || s[0] > 0xf4) return 0;
  len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
  if (n < len) return 0;
  cp = s[0] & (0x7f >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
      (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp < 0xa0)
    return 0;
  return len;
}

/* A string in double quotes, with C escapes (text) or JSON escapes. Valid
 * UTF-8 is printed as it is, so "café" stays readable; other bytes are
 * escaped (\xNN in text; in JSON, which has no byte escape, U+FFFD). */
static void str_out(struct pr *p, const u8 *s, size_t n) {
  fputc('"', p->out);
  for (size_t i = 0; i < n; i++) {
    u8 ch = s[i];
    size_t u;
    if (ch == '"' || ch == '\\')
      fprintf(p->out, "\\%c", ch);
    else if (ch == '\n')
      fputs("\\n", p->out);
    else if (ch == '\t')
      fputs("\\t", p->out);
    else if (ch >= 0x20 && ch < 0x7f)
      fputc(ch, p->out);
    else if (ch >= 0x80 && (u = utf8_len(s + i, n - i)) > 0) {
      fwrite(s + i, 1, u, p->out);
      i += u - 1;
    } else if (p->json && ch >= 0x80)
      fputs("\\ufffd", p->out);
    else if (p->json)
      fprintf(p->out, "\\u%04x", ch);
    else
      fprintf(p->out, "\\x%02x", ch);
  }
  fputc('"', p->out);
}

void trace_json_str(FILE *out, const char *s) {
  trace__json_str(out, s, strlen(s));
}

void trace__json_str(FILE *out, const void *s, size_t n) {
  struct pr p = {out, 1, 64, 1};
  str_out(&p, s, n);
}

/* A bytes field: its length and at most bytes_max bytes of hex. */
static void bytes_out(struct pr *p, const char *name, size_t nlen,
                      const u8 *b, size_t n) {
  size_t shown = RW_MIN(n, p->bytes_max);
  name_out(p, name, nlen);
  if (p->json) {
    fputc('"', p->out);
    hex_out(p->out, b, shown);
    fprintf(p->out, "\",\"%.*s_len\":%zu", (int)nlen, name, n);
    if (shown < n) fprintf(p->out, ",\"%.*s_truncated\":true", (int)nlen, name);
  } else {
    fprintf(p->out, "[%zu]", n);
    if (n) fputc(' ', p->out);
    hex_out(p->out, b, shown);
    if (shown < n) fputs("...", p->out);
  }
}

/* A register file. JSON gets every integer register, the selectors and
 * MXCSR; text stays compact: rip, rsp and rflags always, other registers
 * only when nonzero (orig_rax only when not -1). */
static void regs_out(struct pr *p, const u8 *b, size_t n) {
  struct rw_regs g;
  if (n == RW_GREGS_DISK_SIZE ? rw_gregs_decode(&g, b, n) < 0
                              : rw_regs_decode(&g, b, RW_REGS_DISK_SIZE) < 0)
    return;
  if (p->json) {
    fprintf(p->out, "{\"rip\":\"0x%llx\"", (unsigned long long)g.rip);
    for (unsigned i = 0; i < RW_NGPR; i++)
      fprintf(p->out, ",\"%s\":\"0x%llx\"", rw_gpr_name(i),
              (unsigned long long)g.gpr[i]);
    fprintf(p->out,
            ",\"rflags\":\"0x%llx\",\"fs_base\":\"0x%llx\","
            "\"gs_base\":\"0x%llx\",\"orig_rax\":\"0x%llx\"",
            (unsigned long long)g.rflags, (unsigned long long)g.fs_base,
            (unsigned long long)g.gs_base, (unsigned long long)g.orig_rax);
    for (unsigned i = 0; i < RW_NSEG; i++)
      fprintf(p->out, ",\"%s\":\"0x%x\"", rw_seg_name(i), g.seg[i]);
    fprintf(p->out, ",\"mxcsr\":\"0x%x\"}", rd_le32(g.fxsave + 24));
    return;
  }
  fprintf(p->out, "{rip=0x%llx rsp=0x%llx rflags=0x%llx",
          (unsigned long long)g.rip, (unsigned long long)g.gpr[RW_REG_rsp],
          (unsigned long long)g.rflags);
  for (unsigned i = 0; i < RW_NGPR; i++)
    if (g.gpr[i] && i != RW_REG_rsp)
      fprintf(p->out, " %s=0x%llx", rw_gpr_name(i),
              (unsigned long long)g.gpr[i]);
  if (g.fs_base)
    fprintf(p->out, " fs_base=0x%llx", (unsigned long long)g.fs_base);
  if (g.gs_base)
    fprintf(p->out, " gs_base=0x%llx", (unsigned long long)g.gs_base);
  if (g.orig_rax != ~0ull)
    fprintf(p->out, " orig_rax=%lld", (long long)g.orig_rax);
  fputc('}', p->out);
}

/* How many payload bytes field type T needs (0: variable). */
static size_t field_size(const char *t, size_t tlen) {
  static const struct {
    const char *name;
    size_t size;
  } sizes[] = {{"u8", 1},   {"u16", 2},  {"u32", 4},  {"u64", 8},
               {"i32", 4},  {"i64", 8},  {"x32", 4},  {"x64", 8},  {"hash", 32},
               {"regs", RW_REGS_DISK_SIZE}, {"gregs", RW_GREGS_DISK_SIZE}};
  for (size_t i = 0; i < RW_ARRAY_SIZE(sizes); i++)
    if (strlen(sizes[i].name) == tlen && !memcmp(sizes[i].name, t, tlen))
      return sizes[i].size;
  return 0;
}

static int is(const char *t, size_t tlen, const char *what) {
  return strlen(what) == tlen && !memcmp(t, what, tlen);
}

/* Prints the fields of SPEC from payload B (N bytes). */
static void fields_out(struct pr *p, const char *spec, const u8 *b, size_t n) {
  size_t pos = 0;
  const char *f = spec;
  int optional = 0;
  while (*f) {
    const char *t, *nm;
    size_t tlen, nlen, need;
    while (*f == ' ' || *f == ',' || *f == ';') {
      if (*f == ';') optional = 1;
      f++;
    }
    if (!*f) break;
    /* Fields after a ';' came with a later minor version: a payload that
     * ends before them is whole. */
    if (optional && pos == n) break;
    t = f;
    while (*f && *f != ' ') f++;
    tlen = (size_t)(f - t);
    while (*f == ' ') f++;
    nm = f;
    while (*f && *f != ',' && *f != ';') f++;
    nlen = (size_t)(f - nm);
    while (nlen && nm[nlen - 1] == ' ') nlen--;

    if (is(t, tlen, "bytes")) {
      bytes_out(p, nm, nlen, b + pos, n - pos);
      pos = n;
      continue;
    }
    need = field_size(t, tlen);
    if (is(t, tlen, "str")) {
      need = 2;
      if (n - pos >= 2) need += rd_le16(b + pos);
    }
    if (n - pos < need || need == 0) {
      /* A short payload, or a field type this build does not know. */
      if (p->json)
        fprintf(p->out, ",\"error\":\"payload ends in field %.*s\"",
                (int)nlen, nm);
      else
        fprintf(p->out, "%s(payload ends in field %.*s)", p->first ? "" : " ",
                (int)nlen, nm);
      p->first = 0;
      bytes_out(p, "rest", 4, b + pos, n - pos);
      return;
    }
    name_out(p, nm, nlen);
    const u8 *v = b + pos;
    if (is(t, tlen, "u8"))
      fprintf(p->out, "%u", v[0]);
    else if (is(t, tlen, "u16"))
      fprintf(p->out, "%u", rd_le16(v));
    else if (is(t, tlen, "u32"))
      fprintf(p->out, "%u", rd_le32(v));
    else if (is(t, tlen, "u64") && nlen == 2 && !memcmp(nm, "nr", 2) &&
             rw_syscall_name(rd_le64(v))) {
      /* Syscall numbers: the name for people, both for programs. */
      if (p->json)
        fprintf(p->out, "%llu,\"syscall\":\"%s\"",
                (unsigned long long)rd_le64(v), rw_syscall_name(rd_le64(v)));
      else
        fputs(rw_syscall_name(rd_le64(v)), p->out);
    } else if (is(t, tlen, "u64"))
      fprintf(p->out, "%llu", (unsigned long long)rd_le64(v));
    else if (is(t, tlen, "i32"))
      fprintf(p->out, "%d", (int)rd_le32(v));
    else if (is(t, tlen, "i64"))
      fprintf(p->out, "%lld", (long long)rd_le64(v));
    else if (is(t, tlen, "x32"))
      fprintf(p->out, p->json ? "\"0x%x\"" : "0x%x", rd_le32(v));
    else if (is(t, tlen, "x64"))
      fprintf(p->out, p->json ? "\"0x%llx\"" : "0x%llx",
              (unsigned long long)rd_le64(v));
    else if (is(t, tlen, "hash")) {
      if (p->json) fputc('"', p->out);
      hex_out(p->out, v, 32);
      if (p->json) fputc('"', p->out);
    } else if (is(t, tlen, "str"))
      str_out(p, v + 2, need - 2);
    else if (is(t, tlen, "regs") || is(t, tlen, "gregs"))
      regs_out(p, v, need);
    pos += need;
  }
  if (pos < n) {
    if (p->json)
      fprintf(p->out, ",\"extra_len\":%zu", n - pos);
    else
      fprintf(p->out, "%s(+%zu bytes)", p->first ? "" : " ", n - pos);
  }
}

size_t trace__record_hashes(const struct trace_record *rec, const u8 **out,
                            size_t cap) {
  const char *f = trace_record_fields(rec->type);
  size_t pos = 0, n = 0;
  while (f && *f) {
    const char *t;
    size_t tlen, need;
    while (*f == ' ' || *f == ',' || *f == ';') f++;
    if (!*f) break;
    t = f;
    while (*f && *f != ' ') f++;
    tlen = (size_t)(f - t);
    while (*f && *f != ',' && *f != ';') f++; /* the name */
    if (is(t, tlen, "bytes")) break;
    need = field_size(t, tlen);
    if (is(t, tlen, "str"))
      need = rec->len - pos >= 2 ? 2 + (size_t)rd_le16(rec->data + pos) : 2;
    if (need == 0 || rec->len - pos < need) break;
    if (is(t, tlen, "hash") && n < cap) out[n++] = rec->data + pos;
    pos += need;
  }
  return n;
}

int trace_record_print_opts(FILE *out, const struct trace_record *rec,
                            const struct trace_print_opts *opts) {
  struct pr p = {out, opts ? opts->json : 0, 64, 1};
  const char *spec = trace_record_fields(rec->type);
  if (opts && opts->bytes_max) p.bytes_max = opts->bytes_max;
  if (spec)
    fields_out(&p, spec, rec->data, rec->len);
  else
    bytes_out(&p, "data", 4, rec->data, rec->len);
  if (ferror(out)) return RW_ERR(EIO);
  return 0;
}

int trace_record_print(FILE *out, const struct trace_record *rec, int json) {
  struct trace_print_opts o = {json, 0};
  return trace_record_print_opts(out, rec, &o);
}
