/* SPDX-License-Identifier: MIT */
/* The typed records of format/records.h, generated from the field lists of
 * records.def: one include of the list per kind of function, each with its
 * own meaning for TF. The codecs per field type come first; everything
 * after them is generated. */
#include <string.h>

#include "common/endian.h"
#include "format/format.h"

/* A payload being decoded. */
struct in {
  const u8 *p;
  size_t n, off;
};

/* Returns the next K bytes of IN, or NULL when the payload ends first. */
static const u8 *take(struct in *in, size_t k) {
  if (k > in->n - in->off) return NULL;
  const u8 *p = in->p + in->off;
  in->off += k;
  return p;
}

/* Per field type T: size_T(v) the bytes it takes, put_T(dst, v) writes them
 * and returns how many, get_T(in, v) reads them (0, or -1 past the end).
 * Inline, so that the types no record uses yet cost no warning. */
#define FIXED(T, k, wr, rd)                                        \
  static inline size_t size_##T(const TRACE_CT_##T *v) {           \
    (void)v;                                                       \
    return k;                                                      \
  }                                                                \
  static inline size_t put_##T(u8 *d, const TRACE_CT_##T *v) {     \
    wr;                                                            \
    return k;                                                      \
  }                                                                \
  static inline int get_##T(struct in *in, TRACE_CT_##T *v) {      \
    const u8 *s = take(in, k);                                     \
    if (!s) return -1;                                             \
    rd;                                                            \
    return 0;                                                      \
  }
FIXED(u8, 1, d[0] = *v, *v = s[0])
FIXED(u16, 2, wr_le16(d, *v), *v = rd_le16(s))
FIXED(u32, 4, wr_le32(d, *v), *v = rd_le32(s))
FIXED(u64, 8, wr_le64(d, *v), *v = rd_le64(s))
FIXED(i32, 4, wr_le32(d, (u32)*v), *v = (i32)rd_le32(s))
FIXED(i64, 8, wr_le64(d, (u64)*v), *v = (i64)rd_le64(s))
FIXED(x32, 4, wr_le32(d, *v), *v = rd_le32(s))
FIXED(x64, 8, wr_le64(d, *v), *v = rd_le64(s))
FIXED(hash, 32, memcpy(d, v->b, 32), memcpy(v->b, s, 32))
FIXED(regs, RW_REGS_DISK_SIZE, rw_regs_encode(v, d),
      if (rw_regs_decode(v, s, RW_REGS_DISK_SIZE) < 0) return -1)
FIXED(gregs, RW_GREGS_DISK_SIZE, rw_gregs_encode(v, d),
      if (rw_gregs_decode(v, s, RW_GREGS_DISK_SIZE) < 0) return -1)
#undef FIXED

static size_t str_len(const struct trace_str *v) {
  return v->len > 0xffff ? 0xffff : v->len;
}

static size_t size_str(const struct trace_str *v) { return 2 + str_len(v); }

static size_t put_str(u8 *d, const struct trace_str *v) {
  size_t n = str_len(v);
  wr_le16(d, (u16)n);
  if (n) memcpy(d + 2, v->p, n);
  return 2 + n;
}

static int get_str(struct in *in, struct trace_str *v) {
  const u8 *l = take(in, 2), *s = l ? take(in, rd_le16(l)) : NULL;
  if (!s) return -1;
  v->p = (const char *)s;
  v->len = rd_le16(l);
  return 0;
}

static size_t size_bytes(const struct trace_bytes *v) { return v->len; }

static size_t put_bytes(u8 *d, const struct trace_bytes *v) {
  if (v->len) memcpy(d, v->p, v->len);
  return v->len;
}

static int get_bytes(struct in *in, struct trace_bytes *v) {
  v->len = in->n - in->off;
  v->p = take(in, v->len);
  return 0;
}

/* ------------------------------------------------------------ generated */

#define TF_LATER
#define TF_DEF(type, field, dflt) TF(type, field)

/* Sizes. */
#define TF(type, field) +size_##type(&r->field)
#define TRACE_REC(id, NAME, name, fields, doc)                          \
  size_t trace_rec_##name##_size(const struct trace_rec_##name *r) {    \
    return 0 fields;                                                    \
  }
#include "format/records.def"
#undef TRACE_REC
#undef TF

/* Encoders. */
#define TF(type, field) d += put_##type(d, &r->field);
#define TRACE_REC(id, NAME, name, fields, doc)                               \
  void trace_rec_##name##_put(u8 *d, const struct trace_rec_##name *r) {     \
    fields                                                                   \
  }                                                                          \
  int trace_rec_##name##_append(struct trace_writer *w, u32 tid,             \
                                const struct trace_rec_##name *r) {          \
    u8 *d;                                                                   \
    RW_FORWARD(trace_writer_reserve(w, tid, TRACE_REC_##NAME,                \
                                    trace_rec_##name##_size(r), &d));        \
    trace_rec_##name##_put(d, r);                                            \
    return trace_writer_commit(w, NULL);                                     \
  }
#include "format/records.def"
#undef TRACE_REC
#undef TF
#undef TF_DEF

/* Defaults of the fields a payload may end before. */
#define TF(type, field)
#define TF_DEF(type, field, dflt) r->field = (dflt);
#define TRACE_REC(id, NAME, name, fields, doc)                           \
  static void defaults_##name(struct trace_rec_##name *r) {              \
    (void)r;                                                             \
    fields                                                               \
  }
#include "format/records.def"
#undef TRACE_REC
#undef TF
#undef TF_DEF
#undef TF_LATER

/* Decoders. */
#define TF(type, field) \
  if (get_##type(&in, &r->field)) return RW_ECORRUPT;
#define TF_DEF(type, field, dflt) TF(type, field)
#define TF_LATER \
  if (in.off == in.n) return 0;
#define TRACE_REC(id, NAME, name, fields, doc)                              \
  int trace_rec_##name##_get(struct trace_rec_##name *r, const u8 *p,       \
                             size_t n) {                                    \
    struct in in = {p, n, 0};                                               \
    memset(r, 0, sizeof *r);                                                \
    defaults_##name(r);                                                     \
    fields                                                                  \
    return 0;                                                               \
  }
#include "format/records.def"
#undef TRACE_REC
#undef TF_LATER
#undef TF_DEF
#undef TF

/* ------------------------------------------------------------ helpers */

struct trace_str trace_str_of(const char *s) {
  return (struct trace_str){s ? s : "", s ? strlen(s) : 0};
}

void trace_str_copy(struct trace_str s, char *dst, size_t cap) {
  size_t n = s.len < cap - 1 ? s.len : cap - 1;
  if (n) memcpy(dst, s.p, n);
  dst[n] = 0;
}

void trace_spec_set(const struct rw_digest_spec *spec, u64 *dead_lo,
                    u64 *dead_hi, u32 *nskip, struct trace_bytes *skips,
                    u8 *buf) {
  u32 k = spec->nskip < RW_DIGEST_SKIP_MAX ? spec->nskip : RW_DIGEST_SKIP_MAX;
  u32 d = spec->ndead < RW_DIGEST_DEAD_MAX ? spec->ndead : RW_DIGEST_DEAD_MAX;
  *dead_lo = spec->dead_lo;
  *dead_hi = spec->dead_hi;
  *nskip = k;
  for (u32 i = 0; i < k; i++) {
    wr_le64(buf + 16 * i, spec->skip[i][0]);
    wr_le64(buf + 16 * i + 8, spec->skip[i][1]);
  }
  for (u32 i = 0; i < d; i++) {
    wr_le64(buf + 16 * (k + i), spec->dead[i][0]);
    wr_le64(buf + 16 * (k + i) + 8, spec->dead[i][1]);
  }
  *skips = (struct trace_bytes){buf, 16 * (size_t)(k + d)};
}

int trace_spec_get(u64 dead_lo, u64 dead_hi, u32 nskip,
                   struct trace_bytes skips, struct rw_digest_spec *spec) {
  memset(spec, 0, sizeof *spec);
  RW_RETURN_IF(nskip > RW_DIGEST_SKIP_MAX || skips.len < 16 * (size_t)nskip,
               RW_ECORRUPT, "%u skipped ranges in %zu bytes", nskip,
               skips.len);
  size_t more = skips.len - 16 * (size_t)nskip;
  RW_RETURN_IF(more % 16 || more / 16 > RW_DIGEST_DEAD_MAX, RW_ECORRUPT,
               "%zu bytes of dead ranges after the skipped ones", more);
  spec->dead_lo = dead_lo;
  spec->dead_hi = dead_hi;
  spec->nskip = nskip;
  for (u32 i = 0; i < nskip; i++) {
    spec->skip[i][0] = rd_le64(skips.p + 16 * i);
    spec->skip[i][1] = rd_le64(skips.p + 16 * i + 8);
  }
  spec->ndead = (u32)(more / 16);
  for (u32 i = 0; i < spec->ndead; i++) {
    const u8 *q = skips.p + 16 * ((size_t)nskip + i);
    spec->dead[i][0] = rd_le64(q);
    spec->dead[i][1] = rd_le64(q + 8);
  }
  return 0;
}
