/* SPDX-License-Identifier: MIT */
/* Known answers for the crypto family (replayer/cpu/crypto.c): small guest
 * programs run in the emulator and must reproduce published values, so the
 * family is checked against the standards and not only against this CPU
 * (diffcpu does that). AES-128 per FIPS-197 (key expansion with
 * aeskeygenassist, encryption with aesenc/aesenclast, decryption with
 * aesimc/aesdec/aesdeclast), SHA-256 and SHA-1 of "abc" per FIPS 180 with
 * the SHA instructions, and the prefix and alignment faults. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "tests/cpu/emu_util.h"
#include "tests/cpu/tests.h"

/* Guest programs, assembled with this file and copied to EMU_CODE; rdi
 * points at their data (EMU_DATA), and each ends with int3. They use only
 * rdi-relative addressing, so their bytes run anywhere. */
__asm__(
    ".pushsection .rodata\n"
    ".intel_syntax noprefix\n"

    /* AES-128. Data: +0 key, +0x10 plaintext. Out: +0x100 the 11 round
     * keys, +0x200 ciphertext, +0x210 the ciphertext decrypted. */
    ".macro KEY_ROUND rcon, at\n"
    "  aeskeygenassist xmm2, xmm1, \\rcon\n"
    "  pshufd xmm2, xmm2, 0xff\n" /* RotWord(SubWord(w3)) ^ rcon, 4 times */
    "  movdqa xmm3, xmm1\n"       /* w0 w1 w2 w3 -> prefix XORs */
    "  pslldq xmm3, 4\n"
    "  pxor xmm1, xmm3\n"
    "  pslldq xmm3, 4\n"
    "  pxor xmm1, xmm3\n"
    "  pslldq xmm3, 4\n"
    "  pxor xmm1, xmm3\n"
    "  pxor xmm1, xmm2\n"
    "  movdqu [rdi + \\at], xmm1\n"
    ".endm\n"
    "crypto_aes_prog:\n"
    "  movdqu xmm1, [rdi]\n"
    "  movdqu [rdi + 0x100], xmm1\n"
    "  KEY_ROUND 0x01, 0x110\n"
    "  KEY_ROUND 0x02, 0x120\n"
    "  KEY_ROUND 0x04, 0x130\n"
    "  KEY_ROUND 0x08, 0x140\n"
    "  KEY_ROUND 0x10, 0x150\n"
    "  KEY_ROUND 0x20, 0x160\n"
    "  KEY_ROUND 0x40, 0x170\n"
    "  KEY_ROUND 0x80, 0x180\n"
    "  KEY_ROUND 0x1b, 0x190\n"
    "  KEY_ROUND 0x36, 0x1a0\n"
    "  movdqu xmm0, [rdi + 0x10]\n"
    "  pxor xmm0, [rdi + 0x100]\n"
    "  .irp at, 0x110, 0x120, 0x130, 0x140, 0x150, 0x160, 0x170, 0x180, "
    "0x190\n"
    "  aesenc xmm0, [rdi + \\at]\n"
    "  .endr\n"
    "  aesenclast xmm0, [rdi + 0x1a0]\n"
    "  movdqu [rdi + 0x200], xmm0\n"
    /* The equivalent inverse cipher: round keys 9..1 through aesimc. */
    "  pxor xmm0, [rdi + 0x1a0]\n"
    "  .irp at, 0x190, 0x180, 0x170, 0x160, 0x150, 0x140, 0x130, 0x120, "
    "0x110\n"
    "  aesimc xmm4, [rdi + \\at]\n"
    "  aesdec xmm0, xmm4\n"
    "  .endr\n"
    "  aesdeclast xmm0, [rdi + 0x100]\n"
    "  movdqu [rdi + 0x210], xmm0\n"
    "  int3\n"
    "crypto_aes_end:\n"

    /* SHA-256 of one block. Data: +0 the 64 round constants, +0x100 ABEF
     * (dwords A B E F from high to low), +0x110 CDGH, +0x120 the block,
     * +0x160 a pshufb mask swapping the bytes of each dword. Out: +0x170
     * ABEF and +0x180 CDGH with the initial state added. */
    "crypto_sha256_prog:\n"
    "  movdqu xmm1, [rdi + 0x100]\n"
    "  movdqu xmm2, [rdi + 0x110]\n"
    "  movdqu xmm8, [rdi + 0x160]\n"
    "  movdqa xmm9, xmm1\n"
    "  movdqa xmm10, xmm2\n"
    "  movdqu xmm3, [rdi + 0x120]\n"
    "  pshufb xmm3, xmm8\n"
    "  movdqu xmm4, [rdi + 0x130]\n"
    "  pshufb xmm4, xmm8\n"
    "  movdqu xmm5, [rdi + 0x140]\n"
    "  pshufb xmm5, xmm8\n"
    "  movdqu xmm6, [rdi + 0x150]\n"
    "  pshufb xmm6, xmm8\n"
    "  lea rsi, [rdi]\n"
    "  mov ecx, 16\n"
    "1:\n"
    "  movdqa xmm0, xmm3\n" /* W[4i..4i+3] + K[4i..4i+3] */
    "  paddd xmm0, [rsi]\n"
    "  sha256rnds2 xmm2, xmm1\n" /* two rounds: xmm2 = ABEF */
    "  pshufd xmm0, xmm0, 0x0e\n"
    "  sha256rnds2 xmm1, xmm2\n" /* two more: xmm1 = ABEF, xmm2 = CDGH */
    "  movdqa xmm7, xmm3\n"      /* the next four message dwords */
    "  sha256msg1 xmm7, xmm4\n"
    "  movdqa xmm11, xmm6\n"
    "  palignr xmm11, xmm5, 4\n"
    "  paddd xmm7, xmm11\n"
    "  sha256msg2 xmm7, xmm6\n"
    "  movdqa xmm3, xmm4\n"
    "  movdqa xmm4, xmm5\n"
    "  movdqa xmm5, xmm6\n"
    "  movdqa xmm6, xmm7\n"
    "  add rsi, 16\n"
    "  dec ecx\n"
    "  jnz 1b\n"
    "  paddd xmm1, xmm9\n"
    "  paddd xmm2, xmm10\n"
    "  movdqu [rdi + 0x170], xmm1\n"
    "  movdqu [rdi + 0x180], xmm2\n"
    "  int3\n"
    "crypto_sha256_end:\n"

    /* SHA-1 of one block. Data: +0 ABCD (A high), +0x10 E in the high
     * dword, +0x20 a pshufb mask reversing 16 bytes, +0x30 the block. Out:
     * +0x100 ABCD, +0x110 E (high dword), the initial state added. */
    ".macro SHA1_NEXT_MSG\n"
    "  movdqa xmm11, xmm3\n"
    "  sha1msg1 xmm11, xmm4\n"
    "  pxor xmm11, xmm5\n"
    "  sha1msg2 xmm11, xmm6\n"
    "  movdqa xmm3, xmm4\n"
    "  movdqa xmm4, xmm5\n"
    "  movdqa xmm5, xmm6\n"
    "  movdqa xmm6, xmm11\n"
    ".endm\n"
    /* Four rounds with function FN: EW gets E + W, ES saves ABCD for the
     * next E. */
    ".macro SHA1_ROUNDS fn, ew, es\n"
    "  sha1nexte \\ew, xmm3\n"
    "  movdqa \\es, xmm1\n"
    "  sha1rnds4 xmm1, \\ew, \\fn\n"
    "  SHA1_NEXT_MSG\n"
    ".endm\n"
    "crypto_sha1_prog:\n"
    "  movdqu xmm1, [rdi]\n"
    "  movdqu xmm2, [rdi + 0x10]\n"
    "  movdqu xmm8, [rdi + 0x20]\n"
    "  movdqa xmm9, xmm1\n"
    "  movdqa xmm10, xmm2\n"
    "  movdqu xmm3, [rdi + 0x30]\n"
    "  pshufb xmm3, xmm8\n"
    "  movdqu xmm4, [rdi + 0x40]\n"
    "  pshufb xmm4, xmm8\n"
    "  movdqu xmm5, [rdi + 0x50]\n"
    "  pshufb xmm5, xmm8\n"
    "  movdqu xmm6, [rdi + 0x60]\n"
    "  pshufb xmm6, xmm8\n"
    "  paddd xmm2, xmm3\n" /* rounds 0-3: E + W0, W1, W2, W3 */
    "  movdqa xmm7, xmm1\n"
    "  sha1rnds4 xmm1, xmm2, 0\n"
    "  SHA1_NEXT_MSG\n"
    "  SHA1_ROUNDS 0, xmm7, xmm2\n"
    "  SHA1_ROUNDS 0, xmm2, xmm7\n"
    "  SHA1_ROUNDS 0, xmm7, xmm2\n"
    "  SHA1_ROUNDS 0, xmm2, xmm7\n"
    "  SHA1_ROUNDS 1, xmm7, xmm2\n"
    "  SHA1_ROUNDS 1, xmm2, xmm7\n"
    "  SHA1_ROUNDS 1, xmm7, xmm2\n"
    "  SHA1_ROUNDS 1, xmm2, xmm7\n"
    "  SHA1_ROUNDS 1, xmm7, xmm2\n"
    "  SHA1_ROUNDS 2, xmm2, xmm7\n"
    "  SHA1_ROUNDS 2, xmm7, xmm2\n"
    "  SHA1_ROUNDS 2, xmm2, xmm7\n"
    "  SHA1_ROUNDS 2, xmm7, xmm2\n"
    "  SHA1_ROUNDS 2, xmm2, xmm7\n"
    "  SHA1_ROUNDS 3, xmm7, xmm2\n"
    "  SHA1_ROUNDS 3, xmm2, xmm7\n"
    "  SHA1_ROUNDS 3, xmm7, xmm2\n"
    "  SHA1_ROUNDS 3, xmm2, xmm7\n"
    "  SHA1_ROUNDS 3, xmm7, xmm2\n"
    "  paddd xmm1, xmm9\n"
    "  sha1nexte xmm2, xmm10\n" /* E after round 79, plus the initial E */
    "  movdqu [rdi + 0x100], xmm1\n"
    "  movdqu [rdi + 0x110], xmm2\n"
    "  int3\n"
    "crypto_sha1_end:\n"

    /* Faults: a misaligned SHA source, a misaligned AES source, and an F3
     * prefix on aesenc. */
    "crypto_sha_misaligned:\n"
    "  sha256msg1 xmm1, [rdi + 4]\n"
    "  int3\n"
    "crypto_aes_misaligned:\n"
    "  aesenc xmm1, [rdi + 4]\n"
    "  int3\n"
    "crypto_aes_f3:\n"
    "  .byte 0xf3, 0x66, 0x0f, 0x38, 0xdc, 0xc1\n" /* rep aesenc xmm0,xmm1 */
    "  int3\n"
    "crypto_faults_end:\n"

    ".att_syntax prefix\n"
    ".popsection\n");

extern const u8 crypto_aes_prog[], crypto_aes_end[];
extern const u8 crypto_sha256_prog[], crypto_sha256_end[];
extern const u8 crypto_sha1_prog[], crypto_sha1_end[];
extern const u8 crypto_sha_misaligned[], crypto_aes_misaligned[],
    crypto_aes_f3[], crypto_faults_end[];

/* Runs the program [START, END) with DATA (LEN bytes) at EMU_DATA and rdi
 * pointing at it, under the rules of VENDOR (CPU_VENDOR_*), then copies
 * OUTLEN bytes at EMU_DATA + OUTOFF to OUT. Returns the exit, or -1 when
 * the machine cannot be set up. */
static int run_prog(const u8 *start, const u8 *end, int vendor,
                    const void *data, size_t len, size_t outoff, void *out,
                    size_t outlen, struct cpu_exit *ex) {
  struct emu e;
  struct cpu_config cfg = {0};
  struct rw_regs r;
  int rc = -1;
  cfg.vendor = vendor;
  if (emu_open(&e, start, (size_t)(end - start))) return -1;
  cpu_free(e.cpu);
  e.cpu = NULL;
  if (cpu_new(e.mem, &cfg, &e.cpu) || cpu_mem_write(e.mem, EMU_DATA, data, len))
    goto out;
  cpu_get_regs(e.cpu, &r);
  r.rip = EMU_CODE;
  r.gpr[RW_REG_rsp] = EMU_STACK - 64;
  r.gpr[RW_REG_rdi] = EMU_DATA;
  if (cpu_set_regs(e.cpu, &r)) goto out;
  rc = emu_run(&e, ex);
  if (outlen && cpu_mem_read(e.mem, EMU_DATA + outoff, out, outlen)) rc = -1;
out:
  emu_close(&e);
  return rc;
}

static int hex_bytes(const char *hex, u8 *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
    out[i] = (u8)v;
  }
  return 0;
}

/* Encrypts PT under KEY (hex) and checks the ciphertext CT, the last round
 * key K10 and the decryption. */
static void aes128_case(const char *key, const char *pt, const char *ct,
                        const char *k10) {
  u8 data[0x20], out[0x120], want[16];
  struct cpu_exit ex;
  CU_ASSERT_FATAL(hex_bytes(key, data, 16) == 0);
  CU_ASSERT_FATAL(hex_bytes(pt, data + 16, 16) == 0);
  CU_ASSERT_FATAL(run_prog(crypto_aes_prog, crypto_aes_end, CPU_VENDOR_HOST,
                           data, sizeof data, 0x100, out, sizeof out,
                           &ex) == CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  CU_ASSERT(memcmp(out, data, 16) == 0); /* round key 0 is the key */
  CU_ASSERT_FATAL(hex_bytes(k10, want, 16) == 0);
  CU_ASSERT(memcmp(out + 0xa0, want, 16) == 0);
  CU_ASSERT_FATAL(hex_bytes(ct, want, 16) == 0);
  CU_ASSERT(memcmp(out + 0x100, want, 16) == 0);
  CU_ASSERT(memcmp(out + 0x110, data + 16, 16) == 0);
}

void test_crypto_aes128_fips197(void) {
  /* FIPS-197 appendix C.1 (and its round[10].k_sch). */
  aes128_case(
      "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
      "69c4e0d86a7b0430d8cdb78070b4c55a", "13111d7fe3944a17f307a78b4d2b30c5");
  /* FIPS-197 appendix B, with w[40..43] of appendix A.1. */
  aes128_case(
      "2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
      "3925841d02dc09fbdc118597196a0b32", "d014f9a8c9ee2589e13f0cc8b6630ca6");
}

/* The largest x with x^k <= v (k = 2 or 3). */
static u64 iroot(unsigned __int128 v, unsigned k) {
  u64 lo = 0, hi = 1ull << 40;
  while (hi - lo > 1) {
    u64 mid = lo + (hi - lo) / 2;
    unsigned __int128 p = (unsigned __int128)mid * mid;
    if (k == 3) p *= mid;
    if (p <= v)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* The first N primes. */
static void primes(u32 *p, unsigned n) {
  unsigned k = 0;
  for (u32 c = 2; k < n; c++) {
    unsigned d = 2;
    while (d * d <= c && c % d) d++;
    if (d * d > c) p[k++] = c;
  }
}

/* A one-block message "abc", padded as FIPS 180-4 section 5.1.1 says. */
static void abc_block(u8 *b) {
  memset(b, 0, 64);
  memcpy(b, "abc", 3);
  b[3] = 0x80;
  b[63] = 24; /* the length in bits */
}

void test_crypto_sha256_abc(void) {
  /* SHA-256("abc"), FIPS 180-2 appendix B.1. */
  static const u32 digest[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
  u8 data[0x170];
  u32 p[64], k[64], h[8], out[8];
  struct cpu_exit ex;
  /* K and the initial hash from their definition (FIPS 180-4 4.2.2,
   * 5.3.3): the first 32 fractional bits of the cube roots of the first
   * 64 primes and of the square roots of the first 8. */
  primes(p, 64);
  for (unsigned i = 0; i < 64; i++)
    k[i] = (u32)iroot((unsigned __int128)p[i] << 96, 3);
  for (unsigned i = 0; i < 8; i++)
    h[i] = (u32)iroot((unsigned __int128)p[i] << 64, 2);
  CU_ASSERT_EQUAL(k[0], 0x428a2f98);
  CU_ASSERT_EQUAL(k[63], 0xc67178f2);
  CU_ASSERT_EQUAL(h[0], 0x6a09e667);
  memcpy(data, k, 256);
  {
    u32 abef[4] = {h[5], h[4], h[1], h[0]}, cdgh[4] = {h[7], h[6], h[3], h[2]};
    memcpy(data + 0x100, abef, 16);
    memcpy(data + 0x110, cdgh, 16);
  }
  abc_block(data + 0x120);
  for (unsigned i = 0; i < 16; i++) /* byte i of each dword from 3 - i */
    data[0x160 + i] = (u8)((i & ~3u) + 3 - (i & 3));
  CU_ASSERT_FATAL(run_prog(crypto_sha256_prog, crypto_sha256_end,
                           CPU_VENDOR_HOST, data, sizeof data, 0x170, out,
                           sizeof out, &ex) == CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  /* ABEF, CDGH -> A B C D E F G H */
  {
    u32 got[8] = {out[3], out[2], out[7], out[6],
                  out[1], out[0], out[5], out[4]};
    CU_ASSERT(memcmp(got, digest, sizeof digest) == 0);
  }
}

void test_crypto_sha1_abc(void) {
  /* SHA-1("abc"), FIPS 180-2 appendix A.1. */
  static const u32 digest[5] = {0xa9993e36, 0x4706816a, 0xba3e2571, 0x7850c26c,
                                0x9cd0d89d};
  static const u32 abcd[4] = {0x10325476, 0x98badcfe, 0xefcdab89, 0x67452301};
  static const u32 e[4] = {0, 0, 0, 0xc3d2e1f0};
  u8 data[0x70];
  u32 out[8];
  struct cpu_exit ex;
  memcpy(data, abcd, 16);
  memcpy(data + 0x10, e, 16);
  for (unsigned i = 0; i < 16; i++) data[0x20 + i] = (u8)(15 - i);
  abc_block(data + 0x30);
  CU_ASSERT_FATAL(run_prog(crypto_sha1_prog, crypto_sha1_end, CPU_VENDOR_HOST,
                           data, sizeof data, 0x100, out, sizeof out,
                           &ex) == CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  {
    u32 got[5] = {out[3], out[2], out[1], out[0], out[7]};
    CU_ASSERT(memcmp(got, digest, sizeof digest) == 0);
  }
}

/* SHA sources need 16-byte alignment under Intel's rules (SDM exception
 * type 4) and not under AMD's; AES always does; F3 makes aesenc #UD. */
void test_crypto_faults(void) {
  static const u8 zero[32];
  struct cpu_exit ex;
  CU_ASSERT(run_prog(crypto_sha_misaligned, crypto_aes_misaligned,
                     CPU_VENDOR_INTEL, zero, sizeof zero, 0, NULL, 0,
                     &ex) == CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
  CU_ASSERT_EQUAL(ex.rip, EMU_CODE);
  CU_ASSERT(run_prog(crypto_sha_misaligned, crypto_aes_misaligned,
                     CPU_VENDOR_AMD, zero, sizeof zero, 0, NULL, 0,
                     &ex) == CPU_EXIT_FAULT);
  CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_BP);
  for (int v = CPU_VENDOR_INTEL; v <= CPU_VENDOR_AMD; v++) {
    CU_ASSERT(run_prog(crypto_aes_misaligned, crypto_aes_f3, v, zero,
                       sizeof zero, 0, NULL, 0, &ex) == CPU_EXIT_FAULT);
    CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_GP);
    CU_ASSERT(run_prog(crypto_aes_f3, crypto_faults_end, v, zero, sizeof zero,
                       0, NULL, 0, &ex) == CPU_EXIT_FAULT);
    CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_UD);
    CU_ASSERT_EQUAL(ex.rip, EMU_CODE);
  }
}
