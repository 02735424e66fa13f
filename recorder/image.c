/* SPDX-License-Identifier: MIT */
/* A new program image, at the start of the recording and at every later
 * execve (PTRACE_EVENT_EXEC, before the loader runs): the vDSO's functions
 * are replaced by syscalls (recorder/vdso.c; where that fails the auxiliary
 * vector is edited in place to drop the vDSO), then the trace gets EXEC, a
 * MAP for every mapping with the bytes the blobs cannot supply, AUXV,
 * THREAD_START, THREAD_NAME and STACK_RULES. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

size_t rec__auxv_len(const u64 *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[2 * i] == REC_AT_NULL) return i + 1;
  return 0;
}

size_t rec__auxv_remove(u64 *v, size_t n, u64 type) {
  size_t len = rec__auxv_len(v, n), k = 0, removed = 0;
  for (size_t i = 0; i < len; i++) {
    if (v[2 * i] == type && type != REC_AT_NULL) {
      removed++;
      continue;
    }
    v[2 * k] = v[2 * i];
    v[2 * k + 1] = v[2 * i + 1];
    k++;
  }
  for (; k < len; k++) v[2 * k] = REC_AT_NULL, v[2 * k + 1] = 0;
  return removed;
}

/* Finds the auxiliary vector above the initial stack pointer SP and, unless
 * KEEP_VDSO, removes the vDSO from it in the tracee's memory. *OUT (owned
 * by the caller) gets the AUXV record payload, *OUTLEN its size. */
static int fix_auxv(struct rec *r, u64 sp, int keep_vdso, u8 **out_rec,
                    size_t *out_len) {
  const struct rec__map *st = rec__maps_find(r->proc->maps, sp);
  RW_RETURN_IF(!st, RW_ECORRUPT, "no stack at %#llx", (unsigned long long)sp);
  size_t n = (size_t)RW_MIN(st->end - sp, (u64)REC_BUF);
  u8 *b = r->buf;
  i64 got = rec__mem_read(r, sp, b, n);
  RW_RETURN_IF(got < 8, RW_EFAULT, "initial stack");
  size_t words = (size_t)got / 8, i = 0;
  u64 argc = rd_le64(b);
  i = 1 + argc + 1; /* argc, argv[], NULL */
  while (i < words && rd_le64(b + 8 * i)) i++; /* envp[] */
  i++;                                            /* its NULL */
  RW_RETURN_IF(i >= words, RW_ECORRUPT, "no auxv on the initial stack");
  size_t npairs = (words - i) / 2;
  u64 *v = malloc(npairs * 2 * sizeof *v + 1);
  RW_RETURN_IF(!v, RW_ENOMEM, "auxv");
  for (size_t k = 0; k < 2 * npairs; k++) v[k] = rd_le64(b + 8 * (i + k));
  size_t len = rec__auxv_len(v, npairs);
  int rc = 0;
  if (!len) {
    rc = RW_ECORRUPT;
  } else {
    if (!keep_vdso && rec__auxv_remove(v, npairs, REC_AT_SYSINFO_EHDR)) {
      u8 *out = b + 8 * i;
      for (size_t k = 0; k < 2 * len; k++) wr_le64(out + 8 * k, v[k]);
      rc = rec__mem_write(r, sp + 8 * i, out, 16 * len);
    }
    len = rec__auxv_len(v, npairs);
    if (rc == 0) {
      u8 *rec = malloc(16 * len);
      if (!rec) {
        rc = RW_ENOMEM;
      } else {
        for (size_t k = 0; k < 2 * len; k++) wr_le64(rec + 8 * k, v[k]);
        *out_rec = rec;
        *out_len = 16 * len;
      }
    }
  }
  free(v);
  return rc;
}

/* Whether EXE is one of valgrind's tools (.../valgrind/memcheck-amd64-linux
 * and the like): it translates the program it runs, reading that code as
 * data, so an int3 in place of an rdtsc there would be the program's own
 * SIGTRAP. Its own code, mapped by this exec, runs the instructions. */
static int runs_guests(const char *exe) {
  const char *base = strrchr(exe, '/');
  size_t n = base ? strlen(base) : 0;
  return base && strstr(exe, "/valgrind/") && n > 12 &&
         !strcmp(base + n - 12, "-amd64-linux");
}

int rec__on_exec(struct rec *r, int first) {
  char link[64], exe[4096];
  struct rw_regs regs;
  if (!first) rec__threads_exec(r);
  rec__proc_unshare(r->proc); /* a vfork child has its own space now */
  r->proc->fork_advice = 0;   /* a new address space has none */
  rec__forced_exec(r->proc);  /* nor handlers */
  rec__forced_mask_read(r);   /* the mask stays */
  rec__snap_free(&r->proc->snap);
  rec__watch_free(r);
  rec__tsc_patch_reset(r);
  r->cur->snap = 0;
  RW_FORWARD(rec__mem_open(r));
  rec__pages_reset(r);
  RW_FORWARD(rec__regs_get(r, r->cur->tid, &regs, 1));
  /* The program starts as execve returns: rax 0, not at a syscall stop. */
  regs.gpr[RW_REG_rax] = 0;
  regs.orig_rax = ~0ull;
  snprintf(link, sizeof link, "/proc/%d/exe", (int)r->proc->pid);
  ssize_t n = readlink(link, exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  RW_FORWARD(rec__emit_exec(r, (u32)r->proc->pid, exe));
  /* The new image's loader asks cpuid first thing: what names this CPU
   * now, should the hypervisor have moved it. */
  RW_FORWARD(rec__cpuid_recheck(r, (u32)r->cur->tid));
  RW_FORWARD(rec__maps_read(r->proc->pid, r->proc->maps));
  rec__follow_exec(r);
  /* Edit the auxiliary vector first: the stack's MEM records must show the
   * vector the program will read. AUXV itself follows the image. */
  u64 sp = regs.gpr[RW_REG_rsp];
  struct rec__maps *m = r->proc->maps;
  u8 *aux = NULL;
  size_t auxlen = 0;
  int keep = rec__vdso_patch(r);
  int rc = keep < 0 ? keep : fix_auxv(r, sp, keep, &aux, &auxlen);
  r->proc->guest_code = 0;
  for (const struct rec__map *e = rec__maps_first(m); e && rc == 0;
       e = rec__maps_next(m, e))
    rc = rec__space_describe(r, e, e->start, e->end, REC_DESCRIBE_EXEC);
  r->proc->guest_code = runs_guests(exe);
  if (rc == 0 && aux) {
    struct trace_rec_auxv a = {{aux, auxlen}};
    rc = trace_rec_auxv_append(r->w, (u32)r->cur->tid, &a);
  }
  free(aux);
  RW_FORWARD(rc);
  RW_FORWARD(rec__emit_thread_start(r, (u32)r->cur->tid, 0, &regs));
  RW_FORWARD(rec__emit_pkru(r, r->cur->tid, 1));
  r->cur->entry = regs;
  rec__thread_comm(r, r->cur->tid, r->cur->name);
  RW_FORWARD(rec__emit_thread_name(r, (u32)r->cur->tid, r->cur->name));
  /* In the thread's stream: it applies before the thread's first step. */
  RW_FORWARD(rec__stack_rules(r, 1));
  return trace_writer_flush(r->w);
}
