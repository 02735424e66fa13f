/* SPDX-License-Identifier: MIT */
/* Cryptographic extensions in their legacy-SSE encodings: PCLMULQDQ, the six
 * AES-NI instructions and the seven SHA instructions. Each computation is a
 * small function on one 128-bit lane (the *_lane functions), written from
 * FIPS-197 and the Intel SDM pseudo-code; the handlers read the source with
 * the 16-byte alignment rule, run the lane and write the XMM destination
 * (the YMM upper half kept). No flags change; the only faults are #UD for
 * a stray F2/F3 (or 66 on SHA) prefix and those of the memory read (for
 * SHA the alignment check depends on the vendor, see sha_align).
 * GFNI is in gfni.c; the EVEX forms of VAES and VPCLMULQDQ (evex_aes.c)
 * call the AES and pclmulqdq lanes through cpu__aes_lane and
 * cpu__pclmulqdq_lane.
 * Every *_lane function reads all of its inputs before it writes D, so D
 * may alias one of them; it writes the 16 bytes of D's low lane only. */
#include "replayer/cpu/sse_util.h"

/* ---- Carry-less multiplication --------------------------------------- */

/* The 128-bit carry-less product of A and B into *LO and *HI. */
static void clmul64(u64 a, u64 b, u64 *lo, u64 *hi) {
  u64 l = 0, h = 0;
  for (unsigned i = 0; i < 64; i++)
    if ((b >> i) & 1) {
      l ^= a << i;
      if (i) h ^= a >> (64 - i);
    }
  *lo = l;
  *hi = h;
}

/* pclmulqdq: imm8 bit 0 picks the qword of A, bit 4 that of B. */
static void pclmulqdq_lane(union cpu_vec *d, const union cpu_vec *a,
                           const union cpu_vec *b, unsigned imm) {
  u64 lo, hi;
  clmul64(a->q[imm & 1], b->q[(imm >> 4) & 1], &lo, &hi);
  d->q[0] = lo;
  d->q[1] = hi;
}

/* ---- AES (FIPS-197) -------------------------------------------------- */

/* The S-box and its inverse, generated from the definition in FIPS-197
 * section 5.1.1: the multiplicative inverse in GF(2^8) modulo
 * x^8+x^4+x^3+x+1 (0 maps to 0), then the affine map
 * b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63. */
static const u8 sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b,
    0xfe, 0xd7, 0xab, 0x76, 0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0,
    0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0, 0xb7, 0xfd, 0x93, 0x26,
    0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2,
    0xeb, 0x27, 0xb2, 0x75, 0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0,
    0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84, 0x53, 0xd1, 0x00, 0xed,
    0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f,
    0x50, 0x3c, 0x9f, 0xa8, 0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5,
    0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2, 0xcd, 0x0c, 0x13, 0xec,
    0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14,
    0xde, 0x5e, 0x0b, 0xdb, 0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c,
    0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79, 0xe7, 0xc8, 0x37, 0x6d,
    0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f,
    0x4b, 0xbd, 0x8b, 0x8a, 0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e,
    0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e, 0xe1, 0xf8, 0x98, 0x11,
    0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f,
    0xb0, 0x54, 0xbb, 0x16,
};
static const u8 inv_sbox[256] = {
    0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38, 0xbf, 0x40, 0xa3, 0x9e,
    0x81, 0xf3, 0xd7, 0xfb, 0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87,
    0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb, 0x54, 0x7b, 0x94, 0x32,
    0xa6, 0xc2, 0x23, 0x3d, 0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
    0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2, 0x76, 0x5b, 0xa2, 0x49,
    0x6d, 0x8b, 0xd1, 0x25, 0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16,
    0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92, 0x6c, 0x70, 0x48, 0x50,
    0xfd, 0xed, 0xb9, 0xda, 0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
    0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a, 0xf7, 0xe4, 0x58, 0x05,
    0xb8, 0xb3, 0x45, 0x06, 0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02,
    0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b, 0x3a, 0x91, 0x11, 0x41,
    0x4f, 0x67, 0xdc, 0xea, 0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
    0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85, 0xe2, 0xf9, 0x37, 0xe8,
    0x1c, 0x75, 0xdf, 0x6e, 0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89,
    0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b, 0xfc, 0x56, 0x3e, 0x4b,
    0xc6, 0xd2, 0x79, 0x20, 0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
    0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31, 0xb1, 0x12, 0x10, 0x59,
    0x27, 0x80, 0xec, 0x5f, 0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d,
    0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef, 0xa0, 0xe0, 0x3b, 0x4d,
    0xae, 0x2a, 0xf5, 0xb0, 0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
    0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26, 0xe1, 0x69, 0x14, 0x63,
    0x55, 0x21, 0x0c, 0x7d,
};

/* The state is the lane's 16 bytes, column-major as in FIPS-197 section
 * 3.4: byte 4c+r (bits 8(4c+r)+7 .. 8(4c+r)) is row r of column c. */

/* Multiplication by x (that is, by 02) in GF(2^8). */
static inline u8 xtime(u8 a) {
  return (u8)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
}

/* ShiftRows then SubBytes (they commute): row r rotates left by r
 * columns. */
static void shift_sub(u8 *out, const u8 *in) {
  for (unsigned c = 0; c < 4; c++)
    for (unsigned r = 0; r < 4; r++)
      out[4 * c + r] = sbox[in[4 * ((c + r) & 3) + r]];
}

/* InvShiftRows then InvSubBytes: row r rotates right by r columns. */
static void inv_shift_sub(u8 *out, const u8 *in) {
  for (unsigned c = 0; c < 4; c++)
    for (unsigned r = 0; r < 4; r++)
      out[4 * c + r] = inv_sbox[in[4 * ((c - r) & 3) + r]];
}

/* MixColumns of FIPS-197 5.1.3: each column times 03x^3+01x^2+01x+02. */
static void mix_columns(u8 *out, const u8 *in) {
  for (unsigned c = 0; c < 4; c++) {
    const u8 *a = in + 4 * c;
    for (unsigned r = 0; r < 4; r++) {
      u8 a0 = a[r], a1 = a[(r + 1) & 3], a2 = a[(r + 2) & 3],
         a3 = a[(r + 3) & 3];
      out[4 * c + r] = (u8)(xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3);
    }
  }
}

/* InvMixColumns of FIPS-197 5.3.3: each column times
 * 0bx^3+0dx^2+09x+0e. */
static void inv_mix_columns(u8 *out, const u8 *in) {
  u8 m9[16], m11[16], m13[16], m14[16];
  for (unsigned i = 0; i < 16; i++) {
    u8 x = in[i], x2 = xtime(x), x4 = xtime(x2), x8 = xtime(x4);
    m9[i] = x8 ^ x;
    m11[i] = x8 ^ x2 ^ x;
    m13[i] = x8 ^ x4 ^ x;
    m14[i] = x8 ^ x4 ^ x2;
  }
  for (unsigned c = 0; c < 4; c++)
    for (unsigned r = 0; r < 4; r++) {
      unsigned k = 4 * c;
      out[k + r] = m14[k + r] ^ m11[k + ((r + 1) & 3)] ^
                   m13[k + ((r + 2) & 3)] ^ m9[k + ((r + 3) & 3)];
    }
}

static void xor_key(union cpu_vec *d, const u8 *state,
                    const union cpu_vec *key) {
  for (unsigned i = 0; i < 16; i++) d->b[i] = state[i] ^ key->b[i];
}

/* One full encryption round (aesenc). */
static void aesenc_lane(union cpu_vec *d, const union cpu_vec *state,
                        const union cpu_vec *key) {
  u8 t[16], m[16];
  shift_sub(t, state->b);
  mix_columns(m, t);
  xor_key(d, m, key);
}

/* The last encryption round, without MixColumns (aesenclast). */
static void aesenclast_lane(union cpu_vec *d, const union cpu_vec *state,
                            const union cpu_vec *key) {
  u8 t[16];
  shift_sub(t, state->b);
  xor_key(d, t, key);
}

/* One decryption round of the equivalent inverse cipher (aesdec), whose
 * round keys are the encryption ones passed through aesimc. */
static void aesdec_lane(union cpu_vec *d, const union cpu_vec *state,
                        const union cpu_vec *key) {
  u8 t[16], m[16];
  inv_shift_sub(t, state->b);
  inv_mix_columns(m, t);
  xor_key(d, m, key);
}

/* The last decryption round, without InvMixColumns (aesdeclast). */
static void aesdeclast_lane(union cpu_vec *d, const union cpu_vec *state,
                            const union cpu_vec *key) {
  u8 t[16];
  inv_shift_sub(t, state->b);
  xor_key(d, t, key);
}

/* aesimc: InvMixColumns of a round key. */
static void aesimc_lane(union cpu_vec *d, const union cpu_vec *s) {
  u8 t[16];
  inv_mix_columns(t, s->b);
  memcpy(d->b, t, 16);
}

static u32 sub_word(u32 x) {
  return (u32)sbox[x & 0xff] | (u32)sbox[(x >> 8) & 0xff] << 8 |
         (u32)sbox[(x >> 16) & 0xff] << 16 | (u32)sbox[x >> 24] << 24;
}

static inline u32 rol32(u32 x, unsigned n) {
  return (x << n) | (x >> (32 - n));
}

/* aeskeygenassist: SubWord of dwords 1 and 3, and RotWord (a rotation
 * right by 8) of those XOR the round constant RCON (the imm8). */
static void aeskeygenassist_lane(union cpu_vec *d, const union cpu_vec *s,
                                 unsigned rcon) {
  u32 x1 = sub_word(s->d[1]), x3 = sub_word(s->d[3]);
  d->d[0] = x1;
  d->d[1] = rw_ror32(x1, 8) ^ rcon;
  d->d[2] = x3;
  d->d[3] = rw_ror32(x3, 8) ^ rcon;
}

/* ---- Lanes for evex_aes.c (contracts in sse_util.h) ----------------- */

void cpu__aes_lane(int kind, union cpu_vec *d, const union cpu_vec *state,
                   const union cpu_vec *key) {
  switch (kind) {
    case CPU_AES_ENC: aesenc_lane(d, state, key); break;
    case CPU_AES_ENCLAST: aesenclast_lane(d, state, key); break;
    case CPU_AES_DEC: aesdec_lane(d, state, key); break;
    default: aesdeclast_lane(d, state, key); break;
  }
}

void cpu__pclmulqdq_lane(union cpu_vec *d, const union cpu_vec *a,
                         const union cpu_vec *b, unsigned imm) {
  pclmulqdq_lane(d, a, b, imm);
}

/* ---- SHA-1 and SHA-256 (Intel SDM pseudo-code) ----------------------- */

/* Dwords 3..0 of a lane are the SDM's [127:96] .. [31:0]. */

/* sha1rnds4: four SHA-1 rounds on A B C D = a.d[3..0], with the message
 * dwords plus E (W0+E, W1, W2, W3 = w.d[3..0]); imm8 bits 1:0 pick the
 * round function and constant. */
static void sha1rnds4_lane(union cpu_vec *d, const union cpu_vec *s,
                           const union cpu_vec *w, unsigned imm) {
  static const u32 k[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};
  unsigned fn = imm & 3;
  u32 a = s->d[3], b = s->d[2], c = s->d[1], dd = s->d[0], e = 0;
  for (unsigned i = 0; i < 4; i++) {
    u32 f = fn == 0   ? (b & c) ^ (~b & dd)
            : fn == 2 ? (b & c) ^ (b & dd) ^ (c & dd)
                      : b ^ c ^ dd;
    u32 na = f + rol32(a, 5) + w->d[3 - i] + e + k[fn];
    e = dd;
    dd = c;
    c = rol32(b, 30);
    b = a;
    a = na;
  }
  d->d[3] = a;
  d->d[2] = b;
  d->d[1] = c;
  d->d[0] = dd;
}

/* sha1nexte: the next E (dword 3 of the state rotated left by 30) added to
 * dword 3 of the message. */
static void sha1nexte_lane(union cpu_vec *d, const union cpu_vec *s,
                           const union cpu_vec *w) {
  u32 e = rol32(s->d[3], 30);
  d->d[0] = w->d[0];
  d->d[1] = w->d[1];
  d->d[2] = w->d[2];
  d->d[3] = w->d[3] + e;
}

/* sha1msg1: W[i-16] ^ W[i-14] for four message dwords (W0..W3 = a.d[3..0],
 * W4 W5 = b.d[3], b.d[2]). */
static void sha1msg1_lane(union cpu_vec *d, const union cpu_vec *a,
                          const union cpu_vec *b) {
  u32 w0 = a->d[3], w1 = a->d[2], w2 = a->d[1], w3 = a->d[0];
  u32 w4 = b->d[3], w5 = b->d[2];
  d->d[3] = w2 ^ w0;
  d->d[2] = w3 ^ w1;
  d->d[1] = w4 ^ w2;
  d->d[0] = w5 ^ w3;
}

/* sha1msg2: W16..W19 from the partial sums in A and W13..W15 in B. */
static void sha1msg2_lane(union cpu_vec *d, const union cpu_vec *a,
                          const union cpu_vec *b) {
  u32 w13 = b->d[2], w14 = b->d[1], w15 = b->d[0];
  u32 w16 = rol32(a->d[3] ^ w13, 1), w17 = rol32(a->d[2] ^ w14, 1);
  u32 w18 = rol32(a->d[1] ^ w15, 1), w19 = rol32(a->d[0] ^ w16, 1);
  d->d[3] = w16;
  d->d[2] = w17;
  d->d[1] = w18;
  d->d[0] = w19;
}

/* sha256rnds2: two SHA-256 rounds. CDGH = c.d[3..0] (the destination),
 * ABEF = e.d[3..0] (the source), the two W+K dwords in wk.d[0..1] (XMM0);
 * the result is the new ABEF. */
static void sha256rnds2_lane(union cpu_vec *d, const union cpu_vec *cdgh,
                             const union cpu_vec *abef,
                             const union cpu_vec *wk) {
  u32 v[8] = {abef->d[3], abef->d[2], cdgh->d[3], cdgh->d[2],
              abef->d[1], abef->d[0], cdgh->d[1], cdgh->d[0]};
  rw_sha256_round(v, wk->d[0]);
  rw_sha256_round(v, wk->d[1]);
  d->d[3] = v[0];
  d->d[2] = v[1];
  d->d[1] = v[4];
  d->d[0] = v[5];
}

/* sha256msg1: W[i-16] + sigma0(W[i-15]) for four dwords (W0..W3 =
 * a.d[0..3], W4 = b.d[0]). */
static void sha256msg1_lane(union cpu_vec *d, const union cpu_vec *a,
                            const union cpu_vec *b) {
  u32 w0 = a->d[0], w1 = a->d[1], w2 = a->d[2], w3 = a->d[3], w4 = b->d[0];
  d->d[0] = w0 + rw_sha256_s0(w1);
  d->d[1] = w1 + rw_sha256_s0(w2);
  d->d[2] = w2 + rw_sha256_s0(w3);
  d->d[3] = w3 + rw_sha256_s0(w4);
}

/* sha256msg2: W16..W19 from the partial sums in A and W14 W15 =
 * b.d[2], b.d[3]. */
static void sha256msg2_lane(union cpu_vec *d, const union cpu_vec *a,
                            const union cpu_vec *b) {
  u32 w16 = a->d[0] + rw_sha256_s1(b->d[2]), w17 = a->d[1] + rw_sha256_s1(b->d[3]);
  u32 w18 = a->d[2] + rw_sha256_s1(w16), w19 = a->d[3] + rw_sha256_s1(w17);
  d->d[0] = w16;
  d->d[1] = w17;
  d->d[2] = w18;
  d->d[3] = w19;
}

/* ---- Handlers -------------------------------------------------------- */

/* Prefixes that make these encodings #UD although Capstone 4 decodes them:
 * F2/F3 on every one, and 66 on the SHA ones (their opcode is NP). */
#define UD_AES (CPU_PFX_REP | CPU_PFX_REPNE)
#define UD_SHA (CPU_PFX_REP | CPU_PFX_REPNE | CPU_PFX_OPSIZE)

/* Whether a misaligned 16-byte memory operand of a SHA instruction raises
 * #GP. The SDM gives them exception type 4, which does; AMD processors do
 * not check (measured on Zen 5), so an AMD recording replays without the
 * check. AES and pclmulqdq check on both. */
static inline int sha_align(const struct cpu *cpu) {
  return cpu->cfg.vendor != CPU_VENDOR_AMD;
}

/* Vx = LANE(Vx, Wx), with the prefixes UD refused and the alignment rule
 * ALIGN (an expression of cpu). */
#define OP_V_W(mn, ud, align)                                              \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    union cpu_vec s, r;                                                    \
    if (in->pfx & (ud)) return cpu__fault(cpu, CPU_FAULT_UD);              \
    CPU_TRY(cpu__W16(cpu, in, (align), &s));                               \
    mn##_lane(&r, cpu__x(cpu, in->reg), &s);                               \
    cpu__xset(cpu, in->reg, &r);                                           \
    return CPU_RC_NEXT;                                                    \
  }

/* Vx = LANE(Vx, Wx, imm8). */
#define OP_V_W_I(mn, ud, align)                                               \
  static int op_##mn##_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) { \
    union cpu_vec s, r;                                                       \
    if (in->pfx & (ud)) return cpu__fault(cpu, CPU_FAULT_UD);                 \
    CPU_TRY(cpu__W16(cpu, in, (align), &s));                                  \
    mn##_lane(&r, cpu__x(cpu, in->reg), &s, cpu__imm8(in));                   \
    cpu__xset(cpu, in->reg, &r);                                              \
    return CPU_RC_NEXT;                                                       \
  }

OP_V_W_I(pclmulqdq, UD_AES, 1)
OP_V_W(aesenc, UD_AES, 1)
OP_V_W(aesenclast, UD_AES, 1)
OP_V_W(aesdec, UD_AES, 1)
OP_V_W(aesdeclast, UD_AES, 1)
OP_V_W_I(sha1rnds4, UD_SHA, sha_align(cpu))
OP_V_W(sha1nexte, UD_SHA, sha_align(cpu))
OP_V_W(sha1msg1, UD_SHA, sha_align(cpu))
OP_V_W(sha1msg2, UD_SHA, sha_align(cpu))
OP_V_W(sha256msg1, UD_SHA, sha_align(cpu))
OP_V_W(sha256msg2, UD_SHA, sha_align(cpu))
#undef OP_V_W
#undef OP_V_W_I

static int op_aesimc_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  if (in->pfx & UD_AES) return cpu__fault(cpu, CPU_FAULT_UD);
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  aesimc_lane(&r, &s);
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_aeskeygenassist_Vx_Wx_Ib(struct cpu *cpu,
                                       const struct cpu_insn *in) {
  union cpu_vec s, r;
  if (in->pfx & UD_AES) return cpu__fault(cpu, CPU_FAULT_UD);
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  aeskeygenassist_lane(&r, &s, cpu__imm8(in));
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* sha256rnds2 Vx,Wx,<XMM0>. */
static int op_sha256rnds2_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  if (in->pfx & UD_SHA) return cpu__fault(cpu, CPU_FAULT_UD);
  CPU_TRY(cpu__W16(cpu, in, sha_align(cpu), &s));
  sha256rnds2_lane(&r, cpu__x(cpu, in->reg), &s, cpu__x(cpu, 0));
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* VEX.128 forms (AVX with AES-NI or PCLMULQDQ): vvvv is the first source.
 * Capstone 4 decodes no VEX.256 form (VAES, VPCLMULQDQ at 256 bits), so
 * those stop the replay as undecodable. */
CPU_VEX(vaesenc, op_aesenc_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaesenclast, op_aesenclast_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaesdec, op_aesdec_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaesdeclast, op_aesdeclast_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaesimc, op_aesimc_Vx_Wx, 0)
CPU_VEX(vaeskeygenassist, op_aeskeygenassist_Vx_Wx_Ib, 0)
CPU_VEX(vpclmulqdq, op_pclmulqdq_Vx_Wx_Ib, CPU_VX_SRC1)

static const struct cpu__oprow crypto_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/crypto.def"
#undef OP
};
CPU__FAMILY_TABLE(crypto)
