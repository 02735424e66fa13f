/* SPDX-License-Identifier: MIT */
/* Shared basics for every component: fixed-width types, the error convention
 * (STYLE R5-R7), diagnostics that can name a file offset, and logging. It holds
 * no policy of any component; byte-order codecs are in common/endian.h and the
 * register file in common/regs.h. */
#ifndef RW_COMMON_RW_H
#define RW_COMMON_RW_H

#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t i8;
typedef int16_t i16;
typedef int32_t i32;
typedef int64_t i64;
typedef unsigned __int128 u128;
typedef __int128 i128;

#define RW_MUST_CHECK __attribute__((warn_unused_result))
#define RW_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define RW_NORETURN __attribute__((noreturn))
#define RW_LIKELY(x) __builtin_expect(!!(x), 1)
#define RW_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RW_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define RW_MIN(a, b) ((a) < (b) ? (a) : (b))
#define RW_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Error codes: 0 is success, failures are negative. A failed syscall returns
 * RW_ERR(errno) (that is, -errno); rewind's own codes come from errors.def. */
enum rw_error {
#define RW_XERR(name, value, msg) name = -(value),
#include "errors.def"
#undef RW_XERR
};
#define RW_ERR(e) (-(e))

/* The name of x86-64 syscall NR ("openat"), or NULL when it has none. */
const char *rw_syscall_name(u64 nr);

/* Returns a static message for CODE (negative or zero); never NULL. */
const char *rw_strerror(int code);

/* What went wrong, where: filled by readers of outside bytes so a message can
 * name the file offset (DESIGN.md section 6). Plain data. */
struct rw_diag {
  int code;     /* negative RW_E* code, 0 when nothing was recorded */
  u64 offset;   /* byte offset in the input the message is about */
  char msg[160];/* human-readable detail, NUL-terminated */
};

/* Records CODE, OFFSET and a printf-style message in DIAG (which may be NULL)
 * and returns CODE, so that `return rw_diag_set(d, RW_ECORRUPT, off, ...)`
 * works. */
int rw_diag_set(struct rw_diag *diag, int code, u64 offset, const char *fmt,
                ...) RW_PRINTF(4, 5);

/* Logging to stderr, prefixed "rewind: ". rw_log_level selects what is shown:
 * 0 quiet (errors only), 1 normal, 2 verbose, 3 debug. */
enum { RW_LOG_ERROR, RW_LOG_INFO, RW_LOG_VERBOSE, RW_LOG_DEBUG };
extern int rw_log_level;
void rw_log(int level, const char *fmt, ...) RW_PRINTF(2, 3);
void rw_log_at(const char *file, int line, const char *fmt, ...)
    RW_PRINTF(3, 4);
/* Debug-build report of a failed check: "file:line: (COND) message". */
void rw_log_fail(const char *file, int line, const char *cond,
                 const char *fmt, ...) RW_PRINTF(4, 5);
RW_NORETURN void rw_assert_fail(const char *file, int line, const char *expr);

/* Fail-through macros (STYLE R6). In debug builds they log file:line, the
 * failing condition and the message. */
#ifdef RW_DEBUG
#define RW__TRACE(cond, ...) rw_log_fail(__FILE__, __LINE__, cond, __VA_ARGS__)
#else
#define RW__TRACE(cond, ...) ((void)0)
#endif

#define RW_RETURN_IF(cond, code, ...)                    \
  do {                                                   \
    if (RW_UNLIKELY(cond)) {                             \
      RW__TRACE(#cond, __VA_ARGS__);                     \
      return (code);                                     \
    }                                                    \
  } while (0)

#define RW_FORWARD(expr)                                 \
  do {                                                   \
    int rw__rc = (expr);                                 \
    if (RW_UNLIKELY(rw__rc < 0)) {                       \
      RW__TRACE(#expr, "%s", rw_strerror(rw__rc));       \
      return rw__rc;                                     \
    }                                                    \
  } while (0)

/* Invariants (STYLE R7): checked in debug and sanitizer builds only. */
#ifdef RW_DEBUG
#define RW_ASSERT(x) \
  ((x) ? (void)0 : rw_assert_fail(__FILE__, __LINE__, #x))
#define RW_ALWAYS(x) ((x) ? 1 : (rw_assert_fail(__FILE__, __LINE__, #x), 0))
#define RW_NEVER(x) ((x) ? (rw_assert_fail(__FILE__, __LINE__, #x), 1) : 0)
#else
#define RW_ASSERT(x) ((void)0)
#define RW_ALWAYS(x) (x)
#define RW_NEVER(x) (x)
#endif

/* Checksums and hashes shared by the trace format and the recorder. */

/* CRC-32C (Castagnoli) of LEN bytes at P, continuing from CRC (start with 0).
 * Uses the SSE4.2 crc32 instruction when the CPU has it. */
u32 rw_crc32c(u32 crc, const void *p, size_t len);

/* SHA-256 (libcrypto's) of LEN bytes at P into OUT (32 bytes,
 * caller-owned). Returns 0 or RW_ENOMEM. */
int rw_sha256(const void *p, size_t len, u8 out[32]) RW_MUST_CHECK;

/* Incremental SHA-256, for content that arrives in pieces: init, update
 * any number of times, then final, which frees what init allocated (or
 * rw_sha256_drop, on a path that wants no digest). An update that fails
 * is reported by final. */
struct rw_sha256_ctx {
  void *md;  /* libcrypto's EVP_MD_CTX; owned */
  int err;   /* the first error, for final */
};
int rw_sha256_init(struct rw_sha256_ctx *c) RW_MUST_CHECK;
void rw_sha256_update(struct rw_sha256_ctx *c, const void *p, size_t len);
int rw_sha256_final(struct rw_sha256_ctx *c, u8 out[32]) RW_MUST_CHECK;
void rw_sha256_drop(struct rw_sha256_ctx *c);

/* The SHA-256 functions of FIPS 180-4 (4.1.2, 6.2.2), for the emulator's
 * SHA instructions. */
static inline u32 rw_ror32(u32 x, unsigned n) {
  return (x >> n) | (x << ((32 - n) & 31));
}
/* The message schedule's small sigma functions. */
static inline u32 rw_sha256_s0(u32 w) {
  return rw_ror32(w, 7) ^ rw_ror32(w, 18) ^ (w >> 3);
}
static inline u32 rw_sha256_s1(u32 w) {
  return rw_ror32(w, 17) ^ rw_ror32(w, 19) ^ (w >> 10);
}
/* One round on the working variables V = a..h, with KW = K[t] + W[t]. */
static inline void rw_sha256_round(u32 v[8], u32 kw) {
  u32 a = v[0], e = v[4];
  u32 t1 = v[7] + (rw_ror32(e, 6) ^ rw_ror32(e, 11) ^ rw_ror32(e, 25)) +
           ((e & v[5]) ^ (~e & v[6])) + kw;
  u32 t2 = (rw_ror32(a, 2) ^ rw_ror32(a, 13) ^ rw_ror32(a, 22)) +
           ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
  v[7] = v[6], v[6] = v[5], v[5] = e, v[4] = v[3] + t1;
  v[3] = v[2], v[2] = v[1], v[1] = a, v[0] = t1 + t2;
}

/* Monotonic and wall-clock time in nanoseconds. */
u64 rw_now_ns(void);
u64 rw_wall_ns(void);

#endif /* RW_COMMON_RW_H */
