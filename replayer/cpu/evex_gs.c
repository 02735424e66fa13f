/* SPDX-License-Identifier: MIT */
/* AVX-512 gathers and scatters (vpgather*, vgather*, vpscatter*,
 * vscatter*), with their rows (the decoder is evex.c's, which puts the
 * index vector register, 0-31, in in->index).
 *
 * Element i's address is base + disp + (index[i] << scale), with the
 * index a signed dword or a qword; the opmask (EVEX.aaa, which must not
 * be k0) selects the elements. They are taken in order, and each one done
 * clears its opmask bit, so that a fault leaves the earlier ones done,
 * the opmask saying which remain and the instruction restartable, as on
 * the CPU; at the end the opmask is zero. A gather merges into its
 * destination (no zeroing) and zeroes it above its elements; a fault
 * after some element zeroes it only above the vector length (which for
 * vpgatherqd is twice the destination's), and one at the first element
 * leaves the register alone; a scatter
 * writes in element order, so the last of two elements with one address
 * is the one left. */
#include "replayer/cpu/evex.h"

/* The address of element I (index elements of ISZ bytes in IX). */
static u64 gs_addr(const struct cpu *cpu, const struct cpu_insn *in,
                   const union zv *ix, unsigned isz, unsigned i) {
  u64 off = isz == 4 ? (u64)(i64)ix->sd[i] : ix->q[i];
  u64 a = (u64)in->disp + (in->base == CPU_REG_NONE ? 0 : cpu->gpr[in->base]);
  a += off << in->scale;
  if (in->pfx & CPU_PFX_ADDR32) a = (u32)a;
  return a + cpu->segbase[in->seg];
}

/* Elements of ESZ bytes, indices of ISZ; the vector's elements are the
 * larger of the two. */
static int gather(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                  unsigned isz) {
  unsigned k = EV_AAA(in), n = in->osz / (esz > isz ? esz : isz);
  union zv d, ix;
  int rc = CPU_RC_NEXT;
  unsigned done = 0;
  if (!k || in->reg == in->index) return cpu__fault(cpu, CPU_FAULT_UD);
  zget(cpu, in->reg, &d);
  zget(cpu, in->index, &ix);
  for (unsigned i = 0; i < n; i++) {
    u64 x;
    if (!((cpu->k[k] >> i) & 1)) continue;
    if (cpu_ld(cpu, gs_addr(cpu, in, &ix, isz, i), esz, &x)) {
      rc = CPU_FAULT;
      break;
    }
    memcpy(d.b + i * esz, &x, esz);
    cpu->k[k] &= ~(1ull << i);
    done++;
  }
  if (rc == CPU_RC_NEXT) {
    cpu->k[k] = 0;
    memset(d.b + n * esz, 0, 64 - n * esz);
    zset(cpu, in->reg, &d);
  } else if (done) { /* zero above VL only, as measured on AMD Zen 5 */
    memset(d.b + in->osz, 0, 64 - in->osz);
    zset(cpu, in->reg, &d);
  }
  return rc;
}

static int scatter(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                   unsigned isz) {
  unsigned k = EV_AAA(in), n = in->osz / (esz > isz ? esz : isz);
  union zv s, ix;
  if (!k) return cpu__fault(cpu, CPU_FAULT_UD);
  zget(cpu, in->reg, &s);
  zget(cpu, in->index, &ix);
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0;
    if (!((cpu->k[k] >> i) & 1)) continue;
    memcpy(&x, s.b + i * esz, esz);
    CPU_TRY(cpu_st(cpu, gs_addr(cpu, in, &ix, isz, i), esz, x));
    cpu->k[k] &= ~(1ull << i);
  }
  cpu->k[k] = 0;
  return CPU_RC_NEXT;
}

#define EV_GS(name, fn, esz, isz) EV_OP(name, fn(cpu, in, esz, isz))
EV_GS(vpgatherdd, gather, 4, 4)
EV_GS(vpgatherdq, gather, 8, 4)
EV_GS(vpgatherqd, gather, 4, 8)
EV_GS(vpgatherqq, gather, 8, 8)
EV_GS(vpscatterdd, scatter, 4, 4)
EV_GS(vpscatterdq, scatter, 8, 4)
EV_GS(vpscatterqd, scatter, 4, 8)
EV_GS(vpscatterqq, scatter, 8, 8)
#undef EV_GS

/* The FP forms (vgatherdps...) move the same bits: the same handlers. */
const struct ev_row cpu__evex_gs_rows[] = {
#define GS(op, w, form, esz, name, fn)                                      \
  E(0F38, 66, op, w, X, form, esz, T1S, R_MEM | R_NOZ | R_VSIB, name, fn)
    GS(90, W0, VW, 4, vpgatherdd, op_vpgatherdd)
    GS(90, W1, VW, 8, vpgatherdq, op_vpgatherdq)
    GS(91, W0, VW, 4, vpgatherqd, op_vpgatherqd)
    GS(91, W1, VW, 8, vpgatherqq, op_vpgatherqq)
    GS(92, W0, VW, 4, vgatherdps, op_vpgatherdd)
    GS(92, W1, VW, 8, vgatherdpd, op_vpgatherdq)
    GS(93, W0, VW, 4, vgatherqps, op_vpgatherqd)
    GS(93, W1, VW, 8, vgatherqpd, op_vpgatherqq)
    GS(A0, W0, WV, 4, vpscatterdd, op_vpscatterdd)
    GS(A0, W1, WV, 8, vpscatterdq, op_vpscatterdq)
    GS(A1, W0, WV, 4, vpscatterqd, op_vpscatterqd)
    GS(A1, W1, WV, 8, vpscatterqq, op_vpscatterqq)
    GS(A2, W0, WV, 4, vscatterdps, op_vpscatterdd)
    GS(A2, W1, WV, 8, vscatterdpd, op_vpscatterdq)
    GS(A3, W0, WV, 4, vscatterqps, op_vpscatterqd)
    GS(A3, W1, WV, 8, vscatterqpd, op_vpscatterqq)
#undef GS
};
#undef E
#undef X

const size_t cpu__evex_gs_nrows =
    sizeof cpu__evex_gs_rows / sizeof cpu__evex_gs_rows[0];
