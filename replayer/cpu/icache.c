/* SPDX-License-Identifier: MIT */
/* Decoded blocks, cached by start address for the whole address space and
 * chained per page so that a write to a page drops exactly the blocks with
 * code on it (self-modifying and JIT code work). Dropped blocks go to a
 * graveyard until the next lookup, and their instructions are patched to end
 * the block, so a block that overwrites its own code stops right after the
 * store. Execution is run.c's; decoding is decode.c's. */
#include <stdlib.h>

#include "replayer/cpu/cpu_int.h"

#define BHASH_SIZE 4096u
#define PHASH_SIZE 1024u
#define MAX_BLOCK 64u
#define JCACHE_SIZE 1024u

/* A page holding code: the blocks with an instruction on it. */
struct cpu__cpage {
  u64 page;
  struct cpu__block *head;
  struct cpu__cpage *next;
};

static unsigned bhash(u64 a) {
  return (unsigned)((a ^ (a >> 12) ^ (a >> 24)) & (BHASH_SIZE - 1));
}
static unsigned phash(u64 page) {
  return (unsigned)(((page >> 12) ^ (page >> 22)) & (PHASH_SIZE - 1));
}
static unsigned jhash(u64 a) {
  return (unsigned)((a ^ (a >> 10)) & (JCACHE_SIZE - 1));
}

static int op_end(struct cpu *cpu, const struct cpu_insn *in) {
  (void)cpu;
  (void)in;
  return CPU_RC_END;
}

int cpu__code_init(struct cpu_mem *mem) {
  if (mem->bhash) return 0;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &mem->cs) != CS_ERR_OK)
    return RW_EUNSUPPORTED;
  cs_option(mem->cs, CS_OPT_DETAIL, CS_OPT_ON);
  mem->csi = cs_malloc(mem->cs);
  mem->bhash = calloc(BHASH_SIZE, sizeof *mem->bhash);
  mem->phash = calloc(PHASH_SIZE, sizeof *mem->phash);
  if (!mem->csi || !mem->bhash || !mem->phash) {
    cpu__code_free(mem);
    return RW_ENOMEM;
  }
  return 0;
}

static u64 last_page(const struct cpu__block *b) {
  return (b->end - 1) & ~(u64)4095;
}

/* The chain link of B in PAGE's list. */
static struct cpu__block **link_of(struct cpu__block *b, u64 page) {
  return &b->pnext[(b->start & ~(u64)4095) == page ? 0 : 1];
}

static struct cpu__cpage **cpage_slot(struct cpu_mem *mem, u64 page) {
  struct cpu__cpage **pp = &mem->phash[phash(page)];
  while (*pp && (*pp)->page != page) pp = &(*pp)->next;
  return pp;
}

int cpu__code_on_page(const struct cpu_mem *mem, u64 page) {
  const struct cpu__cpage *p;
  if (!mem->phash) return 0;
  for (p = mem->phash[phash(page)]; p; p = p->next)
    if (p->page == page) return 1;
  return 0;
}

/* Unlinks B from PAGE's chain (dropping the page entry when empty). */
static void page_unlink(struct cpu_mem *mem, struct cpu__block *b, u64 page) {
  struct cpu__cpage **pp = cpage_slot(mem, page), *p = *pp;
  struct cpu__block **bp;
  if (!p) return;
  for (bp = &p->head; *bp; bp = link_of(*bp, page))
    if (*bp == b) {
      *bp = *link_of(b, page);
      break;
    }
  if (!p->head) {
    *pp = p->next;
    free(p);
  }
}

static void hash_unlink(struct cpu_mem *mem, struct cpu__block *b) {
  struct cpu__block **bp = &mem->bhash[bhash(b->start)];
  while (*bp && *bp != b) bp = &(*bp)->hnext;
  if (*bp) *bp = b->hnext;
}

/* Moves B to the graveyard, patched so that running it ends at once. */
static void bury(struct cpu_mem *mem, struct cpu__block *b) {
  b->dead = 1;
  b->jit = NULL;
  for (u32 i = 0; i <= b->ninsn; i++) b->insns[i].fn = b->insns[i].run = op_end;
  b->hnext = mem->grave;
  mem->grave = b;
}

static void free_grave(struct cpu_mem *mem) {
  while (mem->grave) {
    struct cpu__block *b = mem->grave;
    mem->grave = b->hnext;
    free(b);
  }
}

void cpu__code_invalidate(struct cpu_mem *mem, u64 page) {
  if (!mem->phash) return;
  if (page == ~(u64)0) {
    for (unsigned i = 0; i < BHASH_SIZE; i++) {
      while (mem->bhash[i]) {
        struct cpu__block *b = mem->bhash[i];
        mem->bhash[i] = b->hnext;
        bury(mem, b);
      }
    }
    for (unsigned i = 0; i < PHASH_SIZE; i++) {
      while (mem->phash[i]) {
        struct cpu__cpage *p = mem->phash[i];
        mem->phash[i] = p->next;
        free(p);
      }
    }
  } else {
    struct cpu__cpage **pp = cpage_slot(mem, page), *p = *pp;
    if (!p) return;
    *pp = p->next;
    while (p->head) {
      struct cpu__block *b = p->head;
      u64 first = b->start & ~(u64)4095, last = last_page(b);
      p->head = *link_of(b, page);
      hash_unlink(mem, b);
      if (first != last) page_unlink(mem, b, first == page ? last : first);
      bury(mem, b);
    }
    free(p);
  }
  mem->code_gen++;
}

u64 cpu_mem_code_gen(const cpu_mem *mem) { return mem->code_gen; }

void cpu__code_invalidate_range(struct cpu_mem *mem, u64 lo, u64 hi) {
  lo &= ~(u64)4095;
  if (!mem->phash || lo >= hi) return;
  if ((hi - lo) / 4096 <= PHASH_SIZE) {
    for (u64 page = lo; page < hi; page += 4096)
      if (cpu__code_on_page(mem, page)) cpu__code_invalidate(mem, page);
    return;
  }
  /* A long range: look at the pages that hold code instead. Dropping one
   * may drop the entry of another page (a block across two), so each
   * chain is looked at again from its head after a drop. */
  for (unsigned i = 0; i < PHASH_SIZE; i++) {
    const struct cpu__cpage *p = mem->phash[i];
    while (p) {
      if (p->page >= lo && p->page < hi) {
        cpu__code_invalidate(mem, p->page);
        p = mem->phash[i];
      } else {
        p = p->next;
      }
    }
  }
}

void cpu__code_forget_jit(struct cpu_mem *mem) {
  if (!mem->bhash) return;
  for (unsigned i = 0; i < BHASH_SIZE; i++)
    for (struct cpu__block *b = mem->bhash[i]; b; b = b->hnext) {
      b->jit = NULL;
      b->jit_state = CPU__JIT_NONE;
      b->heat = 0;
    }
}

void cpu__code_free(struct cpu_mem *mem) {
  if (mem->bhash && mem->phash) cpu__code_invalidate(mem, ~(u64)0);
  free_grave(mem);
  cpu__jit_free(mem);
  free(mem->bhash);
  free(mem->phash);
  mem->bhash = NULL;
  mem->phash = NULL;
  if (mem->csi) cs_free(mem->csi, 1);
  mem->csi = NULL;
  if (mem->cs) cs_close(&mem->cs);
  mem->cs = 0;
}

/* Adds B to PAGE's chain; a page that starts holding code loses its write
 * TLB entries everywhere, so the next write to it drops its blocks. */
static int page_link(struct cpu_mem *mem, struct cpu__block *b, u64 page) {
  struct cpu__cpage **pp = cpage_slot(mem, page), *p = *pp;
  if (!p) {
    if (!(p = calloc(1, sizeof *p))) return RW_ENOMEM;
    p->page = page;
    *pp = p;
    cpu__mem_tlb_shootdown(mem, page);
  }
  *link_of(b, page) = p->head;
  p->head = b;
  return 0;
}

/* Decides which instructions of a decoded block run chained (struct
 * cpu_insn.run): an instruction with a chained form keeps it when the next
 * one is chained too, is the block's last, or is the end sentinel. A chain
 * therefore reaches only chained instructions, then the last instruction
 * or the sentinel, which is what run.c relies on to tell where it
 * stopped. Others run as fn. */
static void chain(struct cpu_insn *in, u32 n) {
  int next_chained = 1; /* the sentinel */
  for (u32 k = n; k-- > 0;) {
    int ok = in[k].run != in[k].fn && (k + 2 >= n || next_chained);
    if (!ok) in[k].run = in[k].fn;
    next_chained = ok;
  }
}

/* Decodes a block at RIP. */
static struct cpu__block *build(struct cpu *cpu, u64 rip) {
  struct cpu_mem *mem = cpu->mem;
  struct cpu_insn tmp[MAX_BLOCK];
  u8 xin[MAX_BLOCK + 1], forms[MAX_BLOCK];
  struct cpu__block *b;
  u32 n = 0;
  u64 a = rip, page = rip & ~(u64)4095;
  for (;;) {
    unsigned how;
    if (n &&
        ((a & ~(u64)4095) != page || n == MAX_BLOCK || cpu__break_at(mem, a)))
      break;
    if (cpu__decode(cpu, a, &tmp[n], &how)) {
      if (!n) return NULL;
      memset(&cpu->exit, 0, sizeof cpu->exit); /* not reached yet */
      break;
    }
    if ((how & CPU__DEC_ALONE) && n) break;
    if (RW_UNLIKELY(cpu->observed) && cpu__is_observing(tmp[n].fn))
      tmp[n].imm2 = (u8)n; /* MAX_BLOCK fits */
    if (how & CPU__DEC_XCLEAR) {
      tmp[n].imm = n ? xin[n] : 0; /* added by its handler */
      xin[n + 1] = (u8)(how >> CPU__DEC_XIN);
    } else {
      xin[n + 1] = (u8)((n ? xin[n] : 0) | (how >> CPU__DEC_XIN));
    }
    forms[n] = (u8)((how >> CPU__DEC_FORM) - 1u); /* 0 - 1: 0xff */
    a += tmp[n++].len;
    if (how & CPU__DEC_END) break;
  }
  chain(tmp, n);
  xin[0] = 0;
  b = calloc(1, sizeof *b + (n + 1) * sizeof(struct cpu_insn) + 2 * n + 1);
  if (!b) return (struct cpu__block *)-1;
  b->xin = (const u8 *)(b->insns + n + 1);
  memcpy(b->insns + n + 1, xin, n + 1);
  b->forms = b->xin + n + 1;
  memcpy((u8 *)(b->insns + n + 1) + n + 1, forms, n);
  b->start = rip;
  b->end = a;
  b->ninsn = n;
  b->bp = (u16)cpu__break_at(mem, rip);
  memcpy(b->insns, tmp, n * sizeof *tmp);
  b->insns[n].fn = b->insns[n].run = op_end;
  if (page_link(mem, b, page) ||
      (last_page(b) != page && page_link(mem, b, last_page(b)))) {
    page_unlink(mem, b, page);
    free(b);
    return (struct cpu__block *)-1;
  }
  b->hnext = mem->bhash[bhash(rip)];
  mem->bhash[bhash(rip)] = b;
  return b;
}

struct cpu__block *cpu__block_get(struct cpu *cpu) {
  struct cpu_mem *mem = cpu->mem;
  u64 rip = cpu->rip;
  struct cpu__block *b, **slot;
  if (RW_UNLIKELY(cpu->jcache_gen != mem->code_gen)) {
    memset(cpu->jcache, 0, JCACHE_SIZE * sizeof *cpu->jcache);
    cpu->jcache_gen = mem->code_gen;
    free_grave(mem);
  }
  slot = &cpu->jcache[jhash(rip)];
  if (RW_LIKELY(*slot && (*slot)->start == rip)) return *slot;
  for (b = mem->bhash[bhash(rip)]; b; b = b->hnext)
    if (b->start == rip) break;
  if (!b) {
    b = build(cpu, rip);
    if (!b || b == (struct cpu__block *)-1) return b;
  }
  *slot = b;
  return b;
}

int cpu__jcache_new(struct cpu *cpu) {
  cpu->jcache = calloc(JCACHE_SIZE, sizeof *cpu->jcache);
  return cpu->jcache ? 0 : RW_ENOMEM;
}
