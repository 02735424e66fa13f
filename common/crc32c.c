/* SPDX-License-Identifier: MIT */
/* CRC-32C (the Castagnoli polynomial, as in iSCSI and ext4), the checksum of
 * every trace header, chunk and trailer. The SSE4.2 crc32 instruction does the
 * work when cpuid reports it; otherwise a slicing-by-8 table walk does. Both
 * paths are exported under rw__ names so tests can check that they agree. */
#include <pthread.h>
#include <string.h>

#include "rw.h"

/* The two implementations behind rw_crc32c(); they take and return the raw
 * register value (no pre- or post-inversion). Shared with the tests only. */
u32 rw__crc32c_sw(u32 crc, const void *p, size_t len);
u32 rw__crc32c_hw(u32 crc, const void *p, size_t len);
/* 1 when this CPU has SSE4.2, so rw__crc32c_hw() may be called. */
int rw__crc32c_have_hw(void);

/* The reflected form of 0x1EDC6F41. */
#define CRC32C_POLY 0x82F63B78u

/* table[k][b] is the CRC of byte b followed by k zero bytes, which lets the
 * software path fold eight input bytes per step. */
static u32 table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_init(void) {
  for (u32 b = 0; b < 256; b++) {
    u32 c = b;
    for (int i = 0; i < 8; i++) c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
    table[0][b] = c;
  }
  for (u32 b = 0; b < 256; b++)
    for (int k = 1; k < 8; k++)
      table[k][b] = (table[k - 1][b] >> 8) ^ table[0][table[k - 1][b] & 0xff];
}

u32 rw__crc32c_sw(u32 crc, const void *p, size_t len) {
  const u8 *s = p;
  pthread_once(&table_once, table_init);
  while (len && ((uintptr_t)s & 7)) {
    crc = (crc >> 8) ^ table[0][(crc ^ *s++) & 0xff];
    len--;
  }
  while (len >= 8) {
    u32 lo = crc ^ ((u32)s[0] | (u32)s[1] << 8 | (u32)s[2] << 16 |
                    (u32)s[3] << 24);
    crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
          table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
          table[3][s[4]] ^ table[2][s[5]] ^ table[1][s[6]] ^ table[0][s[7]];
    s += 8;
    len -= 8;
  }
  while (len--) crc = (crc >> 8) ^ table[0][(crc ^ *s++) & 0xff];
  return crc;
}

__attribute__((target("sse4.2"))) u32 rw__crc32c_hw(u32 crc, const void *p,
                                                    size_t len) {
  const u8 *s = p;
  u64 c = crc;
  while (len && ((uintptr_t)s & 7)) {
    c = __builtin_ia32_crc32qi((u32)c, *s++);
    len--;
  }
  /* Three independent lanes would hide the instruction's latency, but one
   * lane already runs at several GB/s, far above what zstd produces. */
  while (len >= 8) {
    u64 v;
    memcpy(&v, s, 8);
    c = __builtin_ia32_crc32di(c, v);
    s += 8;
    len -= 8;
  }
  while (len--) c = __builtin_ia32_crc32qi((u32)c, *s++);
  return (u32)c;
}

int rw__crc32c_have_hw(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2");
}

u32 rw_crc32c(u32 crc, const void *p, size_t len) {
  /* 0: not probed yet, 1: software, 2: hardware. Every thread computes the
   * same answer, so a race on the first call is harmless. */
  static int path;
  int how = __atomic_load_n(&path, __ATOMIC_RELAXED);
  if (RW_UNLIKELY(how == 0)) {
    how = rw__crc32c_have_hw() ? 2 : 1;
    __atomic_store_n(&path, how, __ATOMIC_RELAXED);
  }
  if (how == 2) return ~rw__crc32c_hw(~crc, p, len);
  return ~rw__crc32c_sw(~crc, p, len);
}
