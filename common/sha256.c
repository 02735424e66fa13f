/* SPDX-License-Identifier: MIT */
/* SHA-256, which names the content-addressed blobs of a trace (every file
 * a recording maps: node alone brings 100 MB). libcrypto's runs the CPU's
 * SHA instructions when it has them, several times faster than the
 * portable code this replaced; recording hashes each blob once, and
 * opening a trace hashes every blob it reads. */
#include <openssl/evp.h>

#include "rw.h"

int rw_sha256(const void *p, size_t len, u8 out[32]) {
  unsigned int n = 0;
  int ok = EVP_Digest(p, len, out, &n, EVP_sha256(), NULL) && n == 32;
  RW_RETURN_IF(!ok, RW_ENOMEM, "SHA-256: libcrypto failed");
  return 0;
}

int rw_sha256_init(struct rw_sha256_ctx *c) {
  c->err = 0;
  c->md = EVP_MD_CTX_new();
  if (c->md && EVP_DigestInit_ex(c->md, EVP_sha256(), NULL)) return 0;
  EVP_MD_CTX_free(c->md);
  c->md = NULL;
  RW_RETURN_IF(1, RW_ENOMEM, "SHA-256: libcrypto failed");
}

void rw_sha256_update(struct rw_sha256_ctx *c, const void *p, size_t len) {
  if (!c->err && !EVP_DigestUpdate(c->md, p, len)) c->err = RW_ENOMEM;
}

int rw_sha256_final(struct rw_sha256_ctx *c, u8 out[32]) {
  unsigned int n = 0;
  if (!c->err && (!EVP_DigestFinal_ex(c->md, out, &n) || n != 32))
    c->err = RW_ENOMEM;
  int err = c->err;
  rw_sha256_drop(c);
  RW_RETURN_IF(err, err, "SHA-256: libcrypto failed");
  return 0;
}

void rw_sha256_drop(struct rw_sha256_ctx *c) {
  EVP_MD_CTX_free(c->md);
  c->md = NULL;
}
