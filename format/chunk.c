/* SPDX-License-Identifier: MIT */
/* The byte codecs of the trace file's fixed parts (file header, chunk header,
 * trailer) and the checks that stand between a chunk on disk and its trusted
 * payload: checksums, length bounds, zstd frame sizes, record framing. It
 * does no I/O; the reader maps the file and the writer writes it. */
#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

void trace__header_encode(u8 *dst, u64 created_ns, u32 page_size) {
  memset(dst, 0, TRACE__HDR_SIZE);
  memcpy(dst, TRACE__MAGIC, TRACE__MAGIC_LEN);
  wr_le16(dst + 8, TRACE_VERSION_MAJOR);
  wr_le16(dst + 10, TRACE_VERSION_MINOR);
  wr_le16(dst + 12, TRACE__HDR_SIZE);
  wr_le16(dst + 14, TRACE__ARCH_X86_64);
  wr_le32(dst + 16, page_size);
  wr_le32(dst + 20, 0); /* flags */
  wr_le64(dst + 24, created_ns);
  wr_le32(dst + TRACE__HDR_SIZE - 4, rw_crc32c(0, dst, TRACE__HDR_SIZE - 4));
}

void trace__trailer_encode(u8 *dst, u64 index_off, u64 index_len) {
  memcpy(dst, TRACE__TRAILER_MAGIC, 8);
  wr_le64(dst + 8, index_off);
  wr_le64(dst + 16, index_len);
  wr_le32(dst + 24, 0); /* reserved */
  wr_le32(dst + 28, rw_crc32c(0, dst, 28));
}

void trace__chunk_encode(const struct trace__chunk *c, u8 *dst) {
  wr_le32(dst + 0, TRACE__CHUNK_MAGIC);
  wr_le16(dst + 4, c->type);
  wr_le16(dst + 6, c->kind);
  wr_le32(dst + 8, c->tid);
  wr_le32(dst + 12, c->count);
  wr_le64(dst + 16, c->seq_first);
  wr_le64(dst + 24, c->seq_last);
  wr_le32(dst + 32, c->comp_len);
  wr_le32(dst + 36, c->raw_len);
  wr_le32(dst + 40, c->payload_crc);
  wr_le32(dst + 44, rw_crc32c(0, dst, 44));
}

int trace__chunk_decode(struct trace__chunk *c, const u8 *src, u64 off,
                        struct rw_diag *diag) {
  u32 stored, computed;
  if (rd_le32(src) != TRACE__CHUNK_MAGIC)
    return rw_diag_set(diag, RW_ECORRUPT, off,
                       "no chunk header at offset %llu (bad magic)",
                       (unsigned long long)off);
  stored = rd_le32(src + 44);
  computed = rw_crc32c(0, src, 44);
  if (stored != computed)
    return rw_diag_set(diag, RW_ECORRUPT, off,
                       "chunk header at offset %llu: checksum mismatch",
                       (unsigned long long)off);
  c->offset = off;
  c->type = rd_le16(src + 4);
  c->kind = rd_le16(src + 6);
  c->tid = rd_le32(src + 8);
  c->count = rd_le32(src + 12);
  c->seq_first = rd_le64(src + 16);
  c->seq_last = rd_le64(src + 24);
  c->comp_len = rd_le32(src + 32);
  c->raw_len = rd_le32(src + 36);
  c->payload_crc = rd_le32(src + 40);

  return trace__chunk_sane(c, diag);
}

int trace__chunk_sane(const struct trace__chunk *c, struct rw_diag *diag) {
  u64 off = c->offset;
#define BAD(...) return rw_diag_set(diag, RW_ECORRUPT, off, __VA_ARGS__)
  if (c->type == 0) BAD("chunk at offset %llu: type 0", (unsigned long long)off);
  if (c->raw_len > TRACE__MAX_CHUNK_RAW)
    BAD("chunk at offset %llu: raw length %u exceeds the limit %u",
        (unsigned long long)off, c->raw_len, TRACE__MAX_CHUNK_RAW);
  if (c->comp_len == 0 || c->comp_len > ZSTD_compressBound(c->raw_len))
    BAD("chunk at offset %llu: compressed length %u impossible for raw "
        "length %u",
        (unsigned long long)off, c->comp_len, c->raw_len);
  switch (c->type) {
    case TRACE_CHUNK_RECORDS:
      if (c->count == 0 || c->seq_first == 0 || c->seq_first > c->seq_last ||
          c->count - 1 > c->seq_last - c->seq_first ||
          (u64)c->count * TRACE__REC_HDR > c->raw_len)
        BAD("chunk at offset %llu: impossible record range %llu..%llu "
            "(%u records, %u bytes)",
            (unsigned long long)off, (unsigned long long)c->seq_first,
            (unsigned long long)c->seq_last, c->count, c->raw_len);
      break;
    case TRACE_CHUNK_BLOB:
      if (c->count > TRACE__MAX_NAME ||
          c->raw_len < TRACE__BLOB_PREFIX + c->count ||
          c->seq_first > c->seq_last ||
          c->raw_len - TRACE__BLOB_PREFIX - c->count >
              c->seq_last - c->seq_first)
        BAD("chunk at offset %llu: impossible blob piece (offset %llu, "
            "size %llu, %u bytes)",
            (unsigned long long)off, (unsigned long long)c->seq_first,
            (unsigned long long)c->seq_last, c->raw_len);
      break;
    case TRACE_CHUNK_KEYFRAME:
      if (c->seq_first != c->seq_last)
        BAD("chunk at offset %llu: keyframe seq range %llu..%llu",
            (unsigned long long)off, (unsigned long long)c->seq_first,
            (unsigned long long)c->seq_last);
      break;
    case TRACE_CHUNK_META:
      if ((u64)c->count * 6 > c->raw_len)
        BAD("chunk at offset %llu: %u metadata entries cannot fit in %u bytes",
            (unsigned long long)off, c->count, c->raw_len);
      break;
    case TRACE_CHUNK_INDEX:
      break;
    default: /* a newer chunk type: kept, never interpreted */
      break;
  }
#undef BAD
  return 0;
}

int trace__payload_check(const struct trace__chunk *c, const u8 *base,
                         struct rw_diag *diag) {
  const u8 *p = base + c->offset + TRACE__CHUNK_HDR;
  if (rw_crc32c(0, p, c->comp_len) != c->payload_crc)
    return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "chunk at offset %llu: payload checksum mismatch",
                       (unsigned long long)c->offset);
  return 0;
}

int trace__payload_prefix(ZSTD_DCtx *dctx, const struct trace__chunk *c,
                          const u8 *src, u8 *dst, size_t want,
                          struct rw_diag *diag) {
  ZSTD_inBuffer in = {src, c->comp_len, 0};
  ZSTD_outBuffer out = {dst, want, 0};
  if (ZSTD_getFrameContentSize(src, c->comp_len) != c->raw_len)
    return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "chunk at offset %llu: zstd frame does not declare "
                       "the raw length %u",
                       (unsigned long long)c->offset, c->raw_len);
  ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
  while (out.pos < want) {
    size_t before = in.pos + out.pos;
    size_t rc = ZSTD_decompressStream(dctx, &out, &in);
    if (ZSTD_isError(rc) || (rc == 0 && out.pos < want) ||
        in.pos + out.pos == before)
      return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                         "chunk at offset %llu: zstd: %s",
                         (unsigned long long)c->offset,
                         ZSTD_isError(rc) ? ZSTD_getErrorName(rc)
                                          : "payload ends early");
  }
  return 0;
}

int trace__payload_decompress(ZSTD_DCtx *dctx, const struct trace__chunk *c,
                              const u8 *base, u8 *dst,
                              struct rw_diag *diag) {
  const u8 *src = base + c->offset + TRACE__CHUNK_HDR;
  unsigned long long declared = ZSTD_getFrameContentSize(src, c->comp_len);
  size_t frame = ZSTD_findFrameCompressedSize(src, c->comp_len);
  size_t got;
  u8 dummy;
  if (declared != c->raw_len)
    return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "chunk at offset %llu: zstd frame does not declare "
                       "the raw length %u",
                       (unsigned long long)c->offset, c->raw_len);
  if (ZSTD_isError(frame) || frame != c->comp_len)
    return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "chunk at offset %llu: payload is not one zstd frame "
                       "of %u bytes",
                       (unsigned long long)c->offset, c->comp_len);
  got = ZSTD_decompressDCtx(dctx, c->raw_len ? dst : &dummy, c->raw_len, src,
                            c->comp_len);
  if (ZSTD_isError(got) || got != c->raw_len)
    return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "chunk at offset %llu: zstd: %s",
                       (unsigned long long)c->offset,
                       ZSTD_isError(got) ? ZSTD_getErrorName(got)
                                         : "short output");
  return 0;
}

int trace__reserve(u8 **buf, size_t *cap, size_t n) {
  u8 *p;
  size_t want;
  if (n <= *cap && *buf) return 0;
  want = n < 4096 ? 4096 : n;
  p = malloc(want);
  RW_RETURN_IF(!p, RW_ENOMEM, "%zu bytes", want);
  free(*buf);
  *buf = p;
  *cap = want;
  return 0;
}

int trace__chunk_load(const trace_reader *r, size_t idx, ZSTD_DCtx *dctx,
                      u8 **buf, size_t *cap, struct rw_diag *diag) {
  const struct trace__chunk *want = &r->chunks[idx];
  struct trace__chunk got;
  RW_ASSERT(idx < r->nchunks);
  /* The index promised that header and payload lie inside the file; check
   * that the header there says what the index says. */
  if (want->offset > r->size ||
      r->size - want->offset < TRACE__CHUNK_HDR + (u64)want->comp_len)
    return rw_diag_set(diag, RW_ETRUNC, want->offset,
                       "chunk at offset %llu extends past the end of the file",
                       (unsigned long long)want->offset);
  RW_FORWARD(trace__chunk_decode(&got, r->base + want->offset, want->offset,
                                 diag));
  if (got.type != want->type || got.kind != want->kind ||
      got.tid != want->tid || got.count != want->count ||
      got.seq_first != want->seq_first || got.seq_last != want->seq_last ||
      got.comp_len != want->comp_len || got.raw_len != want->raw_len)
    return rw_diag_set(diag, RW_ECORRUPT, want->offset,
                       "chunk at offset %llu does not match the index",
                       (unsigned long long)want->offset);
  RW_FORWARD(trace__payload_check(&got, r->base, diag));
  RW_FORWARD(trace__reserve(buf, cap, got.raw_len));
  return trace__payload_decompress(dctx, &got, r->base, *buf, diag);
}

int trace__records_check(const struct trace__chunk *c, const u8 *raw,
                         struct rw_diag *diag) {
  size_t pos = 0;
  u64 prev = 0;
  u32 n = 0;
  while (pos < c->raw_len) {
    u32 len;
    u64 seq;
    if (c->raw_len - pos < TRACE__REC_HDR)
      return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                         "chunk at offset %llu: record %u header cut at "
                         "payload byte %zu",
                         (unsigned long long)c->offset, n, pos);
    len = rd_le32(raw + pos + 2);
    seq = rd_le64(raw + pos + 6);
    if (rd_le16(raw + pos) == 0 || len > TRACE_MAX_RECORD ||
        len > c->raw_len - pos - TRACE__REC_HDR)
      return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                         "chunk at offset %llu: record %u at payload byte "
                         "%zu has type %u and length %u, %zu bytes remain",
                         (unsigned long long)c->offset, n, pos,
                         rd_le16(raw + pos), len,
                         c->raw_len - pos - TRACE__REC_HDR);
    if (seq <= prev || seq < c->seq_first || seq > c->seq_last ||
        (n == 0 && seq != c->seq_first))
      return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                         "chunk at offset %llu: record %u has seq %llu, "
                         "outside %llu..%llu or not increasing",
                         (unsigned long long)c->offset, n,
                         (unsigned long long)seq,
                         (unsigned long long)c->seq_first,
                         (unsigned long long)c->seq_last);
    prev = seq;
    pos += TRACE__REC_HDR + len;
    n++;
  }
  if (n != c->count || prev != c->seq_last)
    return rw_diag_set(diag, RW_ECORRUPT, c->offset,
                       "chunk at offset %llu: %u records ending at seq %llu, "
                       "header says %u ending at %llu",
                       (unsigned long long)c->offset, n,
                       (unsigned long long)prev, c->count,
                       (unsigned long long)c->seq_last);
  return 0;
}
