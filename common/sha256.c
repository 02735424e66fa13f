/* SPDX-License-Identifier: MIT */
/* SHA-256 as specified by FIPS 180-4, used to name content-addressed blobs in
 * a trace. It is a plain portable implementation (no SHA extensions); blobs
 * are hashed once when recorded, so its speed is not on a hot path. */
#include <string.h>

#include "endian.h"
#include "rw.h"

/* The first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (FIPS 180-4, 4.2.2). */
static const u32 round_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static inline u32 rd_be32(const u8 *p) {
  return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | (u32)p[3];
}

static inline void wr_be32(u8 *p, u32 v) {
  p[0] = (u8)(v >> 24);
  p[1] = (u8)(v >> 16);
  p[2] = (u8)(v >> 8);
  p[3] = (u8)v;
}

/* Mixes one 64-byte block into the state H. */
static void compress_block(u32 h[8], const u8 *block) {
  u32 w[64], v[8];
  for (int t = 0; t < 16; t++) w[t] = rd_be32(block + 4 * t);
  for (int t = 16; t < 64; t++)
    w[t] = w[t - 16] + rw_sha256_s0(w[t - 15]) + w[t - 7] +
           rw_sha256_s1(w[t - 2]);
  memcpy(v, h, sizeof v);
  for (int t = 0; t < 64; t++) rw_sha256_round(v, round_k[t] + w[t]);
  for (int i = 0; i < 8; i++) h[i] += v[i];
}

void rw_sha256_init(struct rw_sha256_ctx *c) {
  /* The first 32 bits of the fractional parts of the square roots of the
   * first eight primes (FIPS 180-4, 5.3.3). */
  static const u32 iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(c->h, iv, sizeof iv);
  c->len = 0;
  c->fill = 0;
}

void rw_sha256_update(struct rw_sha256_ctx *c, const void *p, size_t len) {
  const u8 *s = p;
  c->len += len;
  if (c->fill) {
    size_t take = RW_MIN(len, 64 - (size_t)c->fill);
    memcpy(c->buf + c->fill, s, take);
    c->fill += (u32)take;
    s += take;
    len -= take;
    if (c->fill < 64) return;
    compress_block(c->h, c->buf);
    c->fill = 0;
  }
  for (; len >= 64; s += 64, len -= 64) compress_block(c->h, s);
  if (len) {
    memcpy(c->buf, s, len);
    c->fill = (u32)len;
  }
}

void rw_sha256_final(struct rw_sha256_ctx *c, u8 out[32]) {
  u64 bits = c->len * 8;
  /* Padding: a 1 bit, zeros up to 56 mod 64, then the bit length. */
  c->buf[c->fill++] = 0x80;
  if (c->fill > 56) {
    memset(c->buf + c->fill, 0, 64 - c->fill);
    compress_block(c->h, c->buf);
    c->fill = 0;
  }
  memset(c->buf + c->fill, 0, 56 - c->fill);
  for (int i = 0; i < 8; i++) c->buf[56 + i] = (u8)(bits >> (56 - 8 * i));
  compress_block(c->h, c->buf);
  for (int i = 0; i < 8; i++) wr_be32(out + 4 * i, c->h[i]);
  memset(c, 0, sizeof *c);
}

void rw_sha256(const void *p, size_t len, u8 out[32]) {
  struct rw_sha256_ctx c;
  rw_sha256_init(&c);
  rw_sha256_update(&c, p, len);
  rw_sha256_final(&c, out);
}
