/* SPDX-License-Identifier: MIT */
/* Which extensions the recording CPU has, from its CPUID, and which
 * extension each instruction needs: an instruction of an extension the
 * recording CPU lacks raised #UD there (SIGILL), so it must here too,
 * whatever the replaying host has. The decoders ask cpu__has once per
 * decoded instruction; cpu_new reads the CPUID answers once. Only the
 * extensions that differ between real processors with the same base are
 * listed (features.def): every AVX-512 processor but the Xeon Phi has F,
 * CD, BW, DQ and VL together, so the EVEX instructions are gated on F and
 * on their subset beyond those. */
#include "replayer/cpu/cpu_int.h"

static const struct {
  u32 leaf, sub;
  u8 reg, bit;
  const char *name;
} feats[CPU__FEAT_N] = {
    [CPU__FEAT_NONE] = {0, 0, 0, 0, ""},
#define FEAT(n, l, s, r, b) [CPU__FEAT_##n] = {l, s, r, b, #n},
#include "replayer/cpu/features.def"
#undef FEAT
};

u32 cpu__features(const struct cpu_config *cfg) {
  u32 have = 1, top[2], r[4];
  if (!cfg->cpuid) return ~0u;
  top[0] = cfg->cpuid(cfg->ctx, 0, 0, r) ? 0 : r[0];
  top[1] = cfg->cpuid(cfg->ctx, 0x80000000u, 0, r) ? 0 : r[0];
  for (unsigned f = 1; f < CPU__FEAT_N; f++) {
    u32 leaf = feats[f].leaf;
    if (leaf > top[leaf >> 31]) continue;
    if (cfg->cpuid(cfg->ctx, leaf, feats[f].sub, r)) continue;
    if ((r[feats[f].reg] >> feats[f].bit) & 1) have |= 1u << f;
  }
  return have;
}

const char *cpu__feature_name(unsigned feat) {
  return feat > CPU__FEAT_NONE && feat < CPU__FEAT_N ? feats[feat].name : "?";
}

unsigned cpu__feature_of(unsigned id, int evex) {
  if (id >= CPU_INS_EV_vaddph && id <= CPU_INS_EV_vcvtusi2sh)
    return CPU__FEAT_AVX512FP16;
  switch (id) {
    case X86_INS_SHA1RNDS4:
    case X86_INS_SHA1NEXTE:
    case X86_INS_SHA1MSG1:
    case X86_INS_SHA1MSG2:
    case X86_INS_SHA256RNDS2:
    case X86_INS_SHA256MSG1:
    case X86_INS_SHA256MSG2:
      return CPU__FEAT_SHA;
    case CPU_INS_GF2P8MULB:
    case CPU_INS_GF2P8AFFINEQB:
    case CPU_INS_GF2P8AFFINEINVQB:
    case CPU_INS_VGF2P8MULB:
    case CPU_INS_VGF2P8AFFINEQB:
    case CPU_INS_VGF2P8AFFINEINVQB:
    case CPU_INS_EV_vgf2p8mulb:
    case CPU_INS_EV_vgf2p8affineqb:
    case CPU_INS_EV_vgf2p8affineinvqb:
      return CPU__FEAT_GFNI;
    case CPU_INS_EV_vaesenc:
    case CPU_INS_EV_vaesenclast:
    case CPU_INS_EV_vaesdec:
    case CPU_INS_EV_vaesdeclast:
      return CPU__FEAT_VAES;
    case CPU_INS_EV_vpclmulqdq:
      return CPU__FEAT_VPCLMULQDQ;
    case CPU_INS_EV_vpmadd52luq:
    case CPU_INS_EV_vpmadd52huq:
      return CPU__FEAT_AVX512IFMA;
    case CPU_INS_EV_vpermb:
    case CPU_INS_EV_vpermi2b:
    case CPU_INS_EV_vpermt2b:
    case CPU_INS_EV_vpmultishiftqb:
      return CPU__FEAT_AVX512VBMI;
    case CPU_INS_EV_vpcompressb:
    case CPU_INS_EV_vpcompressw:
    case CPU_INS_EV_vpexpandb:
    case CPU_INS_EV_vpexpandw:
    case CPU_INS_EV_vpshldw:
    case CPU_INS_EV_vpshldd:
    case CPU_INS_EV_vpshldq:
    case CPU_INS_EV_vpshrdw:
    case CPU_INS_EV_vpshrdd:
    case CPU_INS_EV_vpshrdq:
    case CPU_INS_EV_vpshldvw:
    case CPU_INS_EV_vpshldvd:
    case CPU_INS_EV_vpshldvq:
    case CPU_INS_EV_vpshrdvw:
    case CPU_INS_EV_vpshrdvd:
    case CPU_INS_EV_vpshrdvq:
      return CPU__FEAT_AVX512VBMI2;
    case CPU_INS_EV_vpopcntb:
    case CPU_INS_EV_vpopcntw:
    case CPU_INS_EV_vpshufbitqmb:
      return CPU__FEAT_AVX512BITALG;
    case CPU_INS_EV_vpopcntd:
    case CPU_INS_EV_vpopcntq:
      return CPU__FEAT_AVX512VPOPCNTDQ;
    case CPU_INS_EV_vpdpbusd:
    case CPU_INS_EV_vpdpbusds:
    case CPU_INS_EV_vpdpwssd:
    case CPU_INS_EV_vpdpwssds:
      return evex ? CPU__FEAT_AVX512VNNI : CPU__FEAT_AVXVNNI;
    case CPU_INS_EV_vcvtne2ps2bf16:
    case CPU_INS_EV_vcvtneps2bf16:
    case CPU_INS_EV_vdpbf16ps:
      return CPU__FEAT_AVX512BF16;
    case CPU_INS_EV_vp2intersectd:
    case CPU_INS_EV_vp2intersectq:
      return CPU__FEAT_AVX512VP2INTERSECT;
    case CPU_INS_EV_movdiri:
      return CPU__FEAT_MOVDIRI;
    case CPU_INS_EV_movdir64b:
      return CPU__FEAT_MOVDIR64B;
    case CPU_INS_EV_rdpkru:
    case CPU_INS_EV_wrpkru:
      return CPU__FEAT_OSPKE;
    case CPU_INS_EV_clzero:
      return CPU__FEAT_CLZERO;
    case X86_INS_CLFLUSH:
      return CPU__FEAT_CLFSH;
    case X86_INS_CLFLUSHOPT:
      return CPU__FEAT_CLFLUSHOPT;
    case X86_INS_CLWB:
      return CPU__FEAT_CLWB;
    case X86_INS_RDFSBASE:
    case X86_INS_RDGSBASE:
    case X86_INS_WRFSBASE:
    case X86_INS_WRGSBASE:
      return CPU__FEAT_FSGSBASE;
    case X86_INS_XBEGIN:
    case X86_INS_XEND:
    case X86_INS_XABORT:
      return CPU__FEAT_RTM; /* xtest: RTM or HLE, tsx.c asks */
    default:
      return CPU__FEAT_NONE;
  }
}
