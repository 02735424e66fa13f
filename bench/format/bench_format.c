/* SPDX-License-Identifier: MIT */
/* Trace format benchmark: writer throughput, reader throughput and the
 * compression ratio on a synthetic stream that looks like a recording of a
 * syscall-heavy program (register files that change a little between
 * records, small memory imports of text and binary data, several threads).
 * Usage: bench_format [-n MB] [-l LEVEL]... [-o FILE]. Results are printed,
 * never asserted; see bench/RESULTS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/endian.h"
#include "common/regs.h"
#include "format/format.h"

#define NTHREADS 4

struct rec {
  u32 tid;
  u16 type;
  u32 len;
  u32 off; /* into the pool */
};

static u8 *pool;
static size_t pool_len, pool_cap;
static struct rec *recs;
static size_t nrecs, recs_cap;
static u32 rng = 2463534242u;

static u32 rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static u8 *add(u32 tid, u16 type, u32 len) {
  if (pool_len + len > pool_cap || nrecs == recs_cap) {
    fprintf(stderr, "pool full\n");
    exit(1);
  }
  recs[nrecs++] = (struct rec){tid, type, len, (u32)pool_len};
  pool_len += len;
  return pool + pool_len - len;
}

/* Builds about MB megabytes of records into the pool. */
static void build(size_t mb) {
  static const char *words[] = {"GET ", "/index.html ", "HTTP/1.1\r\n",
                                "Host: ", "example.org\r\n", "200 OK ",
                                "Content-Length: ", "1234\r\n", "<html>",
                                "</div>\n"};
  struct rw_regs regs[NTHREADS];
  pool_cap = mb << 20;
  pool = malloc(pool_cap);
  recs_cap = pool_cap / 200;
  recs = malloc(recs_cap * sizeof *recs);
  memset(regs, 0, sizeof regs);
  for (int t = 0; t < NTHREADS; t++) {
    regs[t].rip = 0x7f0000401000ull + (u64)t * 0x1000;
    regs[t].gpr[RW_REG_rsp] = 0x7ffd00000000ull - (u64)t * 0x800000;
    regs[t].rflags = 0x246;
    regs[t].fs_base = 0x7f0000800000ull + (u64)t * 0x4000;
    regs[t].seg[1] = 0x33;
    regs[t].seg[2] = 0x2b;
    wr_le32(regs[t].fxsave + 24, 0x1f80);
    for (int i = 0; i < 64; i++) regs[t].fxsave[160 + i] = (u8)rnd();
  }
  while (pool_len + 3000 < pool_cap && nrecs + 3 < recs_cap) {
    int t = (int)(rnd() % NTHREADS);
    u32 tid = 4000 + (u32)t;
    struct rw_regs *g = &regs[t];
    u64 nr = (u64[]){0, 1, 0, 1, 7, 232, 3, 257}[rnd() % 8];
    u64 result = rnd() % 4096;
    u8 *p;
    /* A few registers move between syscalls; most stay. */
    g->rip += 16 + rnd() % 200;
    g->gpr[RW_REG_rdi] = rnd() % 64;
    g->gpr[RW_REG_rsi] = 0x55550000a000ull + (rnd() % 4096) * 16;
    g->gpr[RW_REG_rdx] = rnd() % 4096;
    g->gpr[RW_REG_rax] = nr;
    g->orig_rax = nr;
    if (rnd() % 16 == 0) g->fxsave[160 + rnd() % 64] = (u8)rnd();
    p = add(tid, TRACE_REC_SYSCALL_ENTER, 8 + RW_REGS_DISK_SIZE);
    wr_le64(p, nr);
    rw_regs_encode(g, p + 8);
    if (rnd() % 10 < 4) {
      u32 len = 16 + rnd() % 480;
      p = add(tid, TRACE_REC_MEM, 8 + len);
      wr_le64(p, g->gpr[RW_REG_rsi]);
      if (rnd() % 2) {
        for (u32 i = 0; i < len;) {
          const char *w = words[rnd() % 10];
          for (; *w && i < len; w++) p[8 + i++] = (u8)*w;
        }
      } else {
        for (u32 i = 0; i < len; i++)
          p[8 + i] = i % 8 < 4 ? (u8)rnd() : 0; /* struct-like binary */
      }
    }
    g->gpr[RW_REG_rax] = result;
    g->gpr[RW_REG_rcx] = g->rip;
    g->gpr[RW_REG_r11] = g->rflags;
    p = add(tid, TRACE_REC_SYSCALL_EXIT, 16 + RW_REGS_DISK_SIZE);
    wr_le64(p, nr);
    wr_le64(p + 8, result);
    rw_regs_encode(g, p + 16);
  }
}

static double now(void) { return rw_now_ns() / 1e9; }

int main(int argc, char **argv) {
  size_t mb = 512, pool_mb = 64;
  int levels[8], nlevels = 0, opt;
  const char *path = "/tmp/rw-bench-format.rwd";
  while ((opt = getopt(argc, argv, "n:l:o:")) != -1) {
    if (opt == 'n') mb = strtoul(optarg, NULL, 10);
    else if (opt == 'l' && nlevels < 8) levels[nlevels++] = atoi(optarg);
    else if (opt == 'o') path = optarg;
    else {
      fprintf(stderr, "usage: bench_format [-n MB] [-l LEVEL]... [-o FILE]\n");
      return 2;
    }
  }
  if (!nlevels) levels[nlevels++] = 0;
  build(pool_mb);
  printf("synthetic stream: %zu records, %.1f MB in a pool cycled to %zu MB; "
         "%d threads\n",
         nrecs, pool_len / 1e6, mb, NTHREADS);
  for (int li = 0; li < nlevels; li++) {
    struct trace_writer_opts o = {0};
    trace_writer *w;
    trace_reader *r;
    trace_cursor *c;
    struct trace_record rec;
    struct trace_info info;
    u64 payload = 0, raw = 0, n = 0, sum = 0;
    double t0, t1, t2, t3;
    o.level = levels[li];
    o.overwrite = 1;
    unlink(path);
    t0 = now();
    if (trace_writer_open(&w, path, &o) < 0) return 1;
    for (size_t i = 0; raw < (u64)mb << 20; i = (i + 1) % nrecs) {
      if (trace_writer_append(w, recs[i].tid, recs[i].type,
                              pool + recs[i].off, recs[i].len, NULL) < 0)
        return 1;
      payload += recs[i].len;
      raw += 14 + recs[i].len;
    }
    if (trace_writer_close(w) < 0) return 1;
    t1 = now();
    if (trace_reader_open(&r, path, NULL) < 0) return 1;
    trace_reader_get_info(r, &info);
    t2 = now();
    if (trace_cursor_open(&c, r, TRACE_ALL_THREADS) < 0) return 1;
    while (trace_cursor_next(c, &rec, NULL) == 1) {
      sum += rec.data[rec.len / 2] + rec.seq;
      n++;
    }
    trace_cursor_close(c);
    t3 = now();
    printf("level %d%s: write %.0f MB/s (%.2f s), read all threads %.0f MB/s "
           "(%.2f s, %llu records), file %.1f MB, ratio %.2f "
           "[checksum %llu]\n",
           levels[li], levels[li] ? "" : " (default)", raw / 1e6 / (t1 - t0),
           t1 - t0, raw / 1e6 / (t3 - t2), t3 - t2, (unsigned long long)n,
           info.file_size / 1e6, (double)raw / (double)info.file_size,
           (unsigned long long)(sum & 0xffff));
    trace_reader_close(r);
    (void)payload;
  }
  unlink(path);
  free(pool);
  free(recs);
  return 0;
}
