/* SPDX-License-Identifier: MIT */
/* Little-endian byte codecs for on-disk and on-wire data (STYLE R4): every
 * field of a trace is read and written through these, never by memcpy of a
 * C struct. They compile to single loads and stores on x86-64. */
#ifndef RW_COMMON_ENDIAN_H
#define RW_COMMON_ENDIAN_H

#include <string.h>

#include "rw.h"

static inline u16 rd_le16(const void *p) {
  const u8 *b = p;
  return (u16)(b[0] | b[1] << 8);
}
static inline u32 rd_le32(const void *p) {
  const u8 *b = p;
  return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}
static inline u64 rd_le64(const void *p) {
  return (u64)rd_le32(p) | (u64)rd_le32((const u8 *)p + 4) << 32;
}
static inline void wr_le16(void *p, u16 v) {
  u8 *b = p;
  b[0] = (u8)v;
  b[1] = (u8)(v >> 8);
}
static inline void wr_le32(void *p, u32 v) {
  u8 *b = p;
  b[0] = (u8)v;
  b[1] = (u8)(v >> 8);
  b[2] = (u8)(v >> 16);
  b[3] = (u8)(v >> 24);
}
static inline void wr_le64(void *p, u64 v) {
  wr_le32(p, (u32)v);
  wr_le32((u8 *)p + 4, (u32)(v >> 32));
}

#endif /* RW_COMMON_ENDIAN_H */
