/* SPDX-License-Identifier: MIT */
/* The environment PROG runs with: the user's, plus what keeps the
 * recording replayable (DESIGN.md section 2): glibc's rseq registration
 * off and xsavec kept out of its lazy-binding trampoline through
 * GLIBC_TUNABLES, and the features --cpu-features hides (cpufeat.c) added
 * to glibc's hwcaps and to OPENSSL_ia32cap. man/rewind-record.1 documents
 * them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"

#include "recorder/rec_int.h"

/* glibc 2.36 feature names (sysdeps/x86/cpu-tunables.c). Its AVX-512
 * (EVEX) string functions are not masked: every EVEX instruction in
 * libc.so.6 runs in the emulator (tests/cpu/corpus checks that). XSAVEC
 * keeps ld.so's lazy-binding trampoline off xsavec: the XSTATE_BV it stores
 * depends on which state components the CPU considers in use, a rule that
 * differs between CPU generations (Zen 3 and Zen 5 disagree on SSE:
 * docs/design-notes.md, "Dead stack"), and those bytes stay on the stack
 * where the memory digest sees them. */
const char rec__hwcaps_off[] =
    "-XSAVEC";

static const char *getenv_in(char *const *envp, const char *name) {
  size_t n = strlen(name);
  for (; envp && *envp; envp++)
    if (!strncmp(*envp, name, n) && (*envp)[n] == '=') return *envp + n + 1;
  return NULL;
}

/* Builds the GLIBC_TUNABLES value: the user's items, with rewind's hwcaps
 * HW appended to any glibc.cpu.hwcaps item and glibc.pthread.rseq forced
 * to 0, followed by rewind's own items. Returns a malloc'd string or
 * NULL. */
static char *tunables(const char *user, const char *hw) {
  size_t cap = (user ? strlen(user) : 0) + strlen(hw) + 128;
  char *out = malloc(cap), *copy = user ? strdup(user) : NULL;
  if (!out || (user && !copy)) {
    free(out);
    free(copy);
    return NULL;
  }
  out[0] = 0;
  int have_hwcaps = 0;
  for (char *save = NULL, *it = copy ? strtok_r(copy, ":", &save) : NULL; it;
       it = strtok_r(NULL, ":", &save)) {
    if (!strncmp(it, "glibc.pthread.rseq=", 19)) continue;
    if (out[0]) strcat(out, ":");
    strcat(out, it);
    if (!strncmp(it, "glibc.cpu.hwcaps=", 17)) {
      if (it[17]) strcat(out, ",");
      strcat(out, hw);
      have_hwcaps = 1;
    }
  }
  if (out[0]) strcat(out, ":");
  strcat(out, "glibc.pthread.rseq=0");
  if (!have_hwcaps) {
    strcat(out, ":glibc.cpu.hwcaps=");
    strcat(out, hw);
  }
  free(copy);
  return out;
}

void rec__env_free(char **env) {
  if (!env) return;
  for (char **e = env; *e; e++) free(*e);
  free(env);
}

int rec__env_build(char *const *envp, const struct rec__cpu_mask *m,
                   char ***out, char **applied) {
  size_t n = 0;
  while (envp && envp[n]) n++;
  char **env = calloc(n + 3, sizeof *env);
  char *tun = tunables(getenv_in(envp, "GLIBC_TUNABLES"), m->hwcaps);
  const char *user_ossl = getenv_in(envp, "OPENSSL_ia32cap");
  char ossl[128] = "";
  if (user_ossl)
    snprintf(ossl, sizeof ossl, "%s", user_ossl);
  else if (m->ossl[0] | m->ossl[1])
    snprintf(ossl, sizeof ossl, "~0x%llx:~0x%llx",
             (unsigned long long)m->ossl[0], (unsigned long long)m->ossl[1]);
  size_t alen = (tun ? strlen(tun) : 0) + strlen(ossl) + 64;
  char *app = malloc(alen);
  if (!env || !tun || !app) goto fail;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!strncmp(envp[i], "GLIBC_TUNABLES=", 15) ||
        !strncmp(envp[i], "OPENSSL_ia32cap=", 16))
      continue;
    if (!(env[k++] = strdup(envp[i]))) goto fail;
  }
  if (!(env[k] = malloc(strlen(tun) + 16))) goto fail;
  sprintf(env[k++], "GLIBC_TUNABLES=%s", tun);
  if (ossl[0]) {
    if (!(env[k] = malloc(strlen(ossl) + 17))) goto fail;
    sprintf(env[k++], "OPENSSL_ia32cap=%s", ossl);
    snprintf(app, alen, "GLIBC_TUNABLES=%s\nOPENSSL_ia32cap=%s%s\n", tun,
             ossl, user_ossl ? " (the user's value, kept)" : "");
  } else {
    snprintf(app, alen, "GLIBC_TUNABLES=%s\n", tun);
  }
  free(tun);
  *out = env;
  *applied = app;
  return 0;
fail:
  rec__env_free(env);
  free(tun);
  free(app);
  return RW_ENOMEM;
}

int rec__env_is_ours(char *const *envp, const struct rec__cpu_mask *m) {
  const char *tun = getenv_in(envp, "GLIBC_TUNABLES");
  return tun && strstr(tun, m->hwcaps) &&
         strstr(tun, "glibc.pthread.rseq=0") &&
         (!(m->ossl[0] | m->ossl[1]) || getenv_in(envp, "OPENSSL_ia32cap"));
}

#define EXEC_ENV_MAX_VARS 65536
#define EXEC_ENV_MAX_BYTES (4u << 20)

/* Reads the NULL-terminated string array at ADDR of the tracee into a
 * malloc'd array of malloc'd strings; NULL ADDR is an empty array. */
static int read_strv(struct rec *r, u64 addr, char ***out) {
  size_t n = 0, cap = 16, total = 0;
  char **v = calloc(cap + 1, sizeof *v);
  if (!v) return RW_ENOMEM;
  for (; addr; n++, addr += 8) {
    u8 b[8];
    if (rec__mem_read(r, addr, b, 8) != 8) goto bad;
    u64 p = rd_le64(b);
    if (!p) break;
    if (n >= EXEC_ENV_MAX_VARS) goto bad;
    if (n == cap) {
      char **nv = realloc(v, (2 * cap + 1) * sizeof *v);
      if (!nv) goto nomem;
      v = nv;
      cap *= 2;
    }
    /* The string, read in pieces until its NUL. */
    size_t len = 0, scap = 256;
    char *str = malloc(scap);
    if (!str) goto nomem;
    for (;;) {
      i64 got = rec__mem_read(r, p + len, str + len, scap - len);
      if (got <= 0) {
        free(str);
        goto bad;
      }
      char *z = memchr(str + len, 0, (size_t)got);
      if (z) {
        len = (size_t)(z - str);
        break;
      }
      len += (size_t)got;
      if (len == scap) {
        if (scap >= EXEC_ENV_MAX_BYTES) {
          free(str);
          goto bad;
        }
        char *ns = realloc(str, scap * 2);
        if (!ns) {
          free(str);
          goto nomem;
        }
        str = ns;
        scap *= 2;
      }
    }
    total += len + 1;
    v[n] = str;
    v[n + 1] = NULL;
    if (total > EXEC_ENV_MAX_BYTES) goto bad;
  }
  v[n] = NULL;
  *out = v;
  return 0;
bad: /* unreadable or huge: execve decides (EFAULT, E2BIG) */
  rec__env_free(v);
  return RW_EINVAL;
nomem:
  rec__env_free(v);
  return RW_ENOMEM;
}

int rec__exec_env(struct rec *r) {
  struct rec__task *t = r->cur;
  int reg = t->nr == REC_NR_execveat ? RW_REG_r10 : RW_REG_rdx;
  u64 envp = t->nr == REC_NR_execveat ? t->args[3] : t->args[2];
  char **old = NULL, **env = NULL, *applied = NULL;
  int rc = read_strv(r, envp, &old);
  if (rc == RW_EINVAL) return 0;
  RW_FORWARD(rc);
  if (rec__env_is_ours(old, &r->mask)) {
    rec__env_free(old);
    return 0;
  }
  rc = rec__env_build(old, &r->mask, &env, &applied);
  rec__env_free(old);
  free(applied);
  RW_FORWARD(rc);
  /* The block: the pointer array, then the strings, below the red zone
   * and 16-byte aligned. The stack must have room already: writes from
   * here do not grow it. */
  size_t n = 0, strs = 0;
  for (; env[n]; n++) strs += strlen(env[n]) + 1;
  size_t len = (n + 1) * 8 + strs;
  u64 sp = t->entry.gpr[RW_REG_rsp];
  u64 at = (sp - 256 - len) & ~(u64)15;
  u8 *blk = malloc(len), *save = malloc(len);
  if (!blk || !save) {
    rc = RW_ENOMEM;
    goto out;
  }
  u64 sa = at + (n + 1) * 8;
  size_t off = (n + 1) * 8;
  for (size_t i = 0; i < n; i++) {
    size_t l = strlen(env[i]) + 1;
    wr_le64(blk + 8 * i, sa);
    memcpy(blk + off, env[i], l);
    off += l;
    sa += l;
  }
  wr_le64(blk + 8 * n, 0);
  if (rec__mem_read(r, at, save, len) != (i64)len ||
      rec__mem_write(r, at, blk, len) < 0) {
    rw_log(RW_LOG_INFO,
           "warning: no room on the stack to give execve rewind's "
           "environment; the new program may use instructions the replay "
           "cannot emulate");
    rc = 0;
    goto out;
  }
  struct rw_regs regs = t->entry;
  regs.gpr[reg] = at;
  regs.gpr[RW_REG_rax] = ~(u64)ENOSYS + 1; /* as at the stop */
  rc = rec__regs_set_gprs(t->tid, &regs);
  if (rc < 0) {
    if (rec__mem_write(r, at, save, len) < 0)
      rw_log(RW_LOG_ERROR, "could not restore the stack of thread %d",
             (int)t->tid);
    goto out;
  }
  t->env_save = save;
  save = NULL;
  t->env_at = at;
  t->env_len = len;
  t->env_reg = reg;
  t->env_orig = t->entry.gpr[reg];
out:
  free(blk);
  free(save);
  rec__env_free(env);
  return rc;
}

int rec__exec_env_undo(struct rec *r, struct rw_regs *regs) {
  struct rec__task *t = r->cur;
  if (!t->env_save) return 0;
  u8 *save = t->env_save;
  t->env_save = NULL;
  int rc = 0;
  if ((i64)regs->gpr[RW_REG_rax] < 0) { /* failed: the old image is back */
    rc = rec__mem_write(r, t->env_at, save, t->env_len);
    regs->gpr[t->env_reg] = t->env_orig;
    if (rc == 0) rc = rec__regs_set_gprs(t->tid, regs);
  }
  free(save);
  return rc;
}
