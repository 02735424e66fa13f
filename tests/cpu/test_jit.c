/* SPDX-License-Identifier: MIT */
/* The translator (replayer/cpu/jit.c) against the interpreter: random
 * programs of the instructions it translates, mixed with ones it leaves to
 * their handlers and with instructions that read the flags in every way
 * (jcc, setcc, cmovcc, adc, pushfq), run translated and interpreted from
 * the same state, must end in the same registers, flags, memory and count;
 * and so must every budget that stops part way. Faults, watchpoints and
 * code that rewrites itself inside a translated block stop it exactly
 * where the interpreter stops. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cpu/emu_util.h"
#include "tests/cpu/tests.h"

/* Instruction encodings. They use rax, rbx, rcx, rdx, rsi, r8-r10 and
 * memory at [rdi + 0..255] (rdi points into the data); rsp only in
 * balanced pairs; r11 counts the program's loop. */
struct tmpl {
  u8 len;
  u8 b[16];
};
#define T(...) {sizeof((u8[]){__VA_ARGS__}), {__VA_ARGS__}}
static const struct tmpl tmpls[] = {
    /* flag producers, every size, register and memory */
    T(0x39, 0xd8),             /* cmp eax, ebx */
    T(0x38, 0xd8),             /* cmp al, bl */
    T(0x38, 0xdc),             /* cmp ah, bl */
    T(0x66, 0x39, 0xd1),       /* cmp cx, dx */
    T(0x48, 0x39, 0xf0),       /* cmp rax, rsi */
    T(0x48, 0x29, 0xd8),       /* sub rax, rbx */
    T(0x29, 0xca),             /* sub edx, ecx */
    T(0x01, 0xd1),             /* add ecx, edx */
    T(0x48, 0x01, 0xc6),       /* add rsi, rax */
    T(0x04, 0x7f),             /* add al, 0x7f */
    T(0x66, 0x83, 0xc1, 0x81), /* add cx, -127 */
    T(0x48, 0x83, 0xe8, 0x01), /* sub rax, 1 */
    T(0x48, 0x3d, 0x00, 0x00, 0x00, 0x80), /* cmp rax, -2^31 */
    T(0x85, 0xf6),             /* test esi, esi */
    T(0x84, 0xc9),             /* test cl, cl */
    T(0x48, 0x85, 0xc3),       /* test rbx, rax */
    T(0xa8, 0x80),             /* test al, 0x80 */
    T(0x48, 0x21, 0xd8),       /* and rax, rbx */
    T(0x09, 0xca),             /* or edx, ecx */
    T(0x4c, 0x31, 0xc0),       /* xor rax, r8 */
    T(0x30, 0xe1),             /* xor cl, ah */
    T(0x81, 0xe6, 0xff, 0x0f, 0x0f, 0x00), /* and esi, 0xf0fff */
    T(0xff, 0xc0),             /* inc eax */
    T(0xfe, 0xc9),             /* dec cl */
    T(0x48, 0xff, 0xca),       /* dec rdx */
    T(0x66, 0xff, 0xc6),       /* inc si */
    T(0x48, 0xf7, 0xda),       /* neg rdx */
    T(0xf6, 0xdb),             /* neg bl */
    T(0x48, 0xf7, 0xd1),       /* not rcx */
    T(0x48, 0x39, 0x07),       /* cmp [rdi], rax */
    T(0x01, 0x4f, 0x08),       /* add [rdi+8], ecx */
    T(0x48, 0x2b, 0x5f, 0x10), /* sub rbx, [rdi+16] */
    T(0x80, 0x47, 0x03, 0x90), /* add byte [rdi+3], 0x90 */
    T(0xfe, 0x47, 0x05),       /* inc byte [rdi+5] */
    T(0x48, 0xff, 0x4f, 0x18), /* dec qword [rdi+24] */
    T(0x66, 0x85, 0x57, 0x20), /* test [rdi+32], dx */
    T(0x83, 0xe6, 0x3f, 0x48, 0x83, 0x7c, 0x37, 0x08,
      0x05), /* and esi, 63; cmp qword [rdi+rsi+8], 5 */
    T(0x83, 0xe1, 0x3f, 0x31, 0x44, 0x8f,
      0x40), /* and ecx, 63; xor [rdi+rcx*4+64], eax */
    T(0x48, 0xc1, 0xe0, 0x03), /* shl rax, 3 */
    T(0xc0, 0xe9, 0x07),       /* shr cl, 7 */
    T(0x66, 0xc1, 0xfa, 0x09), /* sar dx, 9 */
    T(0xc0, 0x7f, 0x15, 0x03), /* sar byte [rdi+21], 3 */
    T(0xc1, 0xe6, 0x00),       /* shl esi, 0: flags stay */
    T(0x49, 0xc1, 0xe8, 0x3f), /* shr r8, 63 */
    T(0xc1, 0xf8, 0x1f),       /* sar eax, 31 */
    T(0xd0, 0xe3),             /* shl bl, 1 */
    T(0xc1, 0x6f, 0x1c, 0x04), /* shr dword [rdi+28], 4 */
    T(0x11, 0x47, 0x18),       /* adc [rdi+24], eax */
    T(0x83, 0xde, 0x05),       /* sbb esi, 5 */
    T(0x14, 0x40),             /* adc al, 0x40 */
    T(0x48, 0x1b, 0x47, 0x08), /* sbb rax, [rdi+8] */
    /* moves */
    T(0x48, 0x89, 0xc3),       /* mov rbx, rax */
    T(0x89, 0xd6),             /* mov esi, edx */
    T(0x88, 0xe1),             /* mov cl, ah */
    T(0x66, 0x89, 0xc2),       /* mov dx, ax */
    T(0x48, 0x8b, 0x47, 0x28), /* mov rax, [rdi+40] */
    T(0x8b, 0x5f, 0x2c),       /* mov ebx, [rdi+44] */
    T(0x8a, 0x67, 0x07),       /* mov ah, [rdi+7] */
    T(0x48, 0x89, 0x57, 0x30), /* mov [rdi+48], rdx */
    T(0x66, 0x89, 0x4f, 0x33), /* mov [rdi+51], cx */
    T(0x88, 0x77, 0x09),       /* mov [rdi+9], dh (no REX: dh) */
    T(0xc6, 0x47, 0x0a, 0xfe), /* mov byte [rdi+10], 0xfe */
    T(0x48, 0xc7, 0x47, 0x38, 0x00, 0x00, 0x00, 0x80), /* mov qword [rdi+56], -2^31 */
    T(0xb8, 0x78, 0x56, 0x34, 0x12),                   /* mov eax, 0x12345678 */
    T(0x49, 0xb8, 1, 2, 3, 4, 5, 6, 7, 0x88),          /* movabs r8, imm64 */
    T(0x48, 0x0f, 0xb6, 0xc3), /* movzx rax, bl */
    T(0x0f, 0xb7, 0x5f, 0x0c), /* movzx ebx, word [rdi+12] */
    T(0x48, 0x0f, 0xbe, 0xcc), /* movsx rcx, ah */
    T(0x66, 0x0f, 0xbe, 0xd0), /* movsx dx, al */
    T(0x0f, 0xbf, 0x77, 0x0e), /* movsx esi, word [rdi+14] */
    T(0x48, 0x63, 0xd8),       /* movsxd rbx, eax */
    T(0x4c, 0x63, 0x47, 0x04), /* movsxd r8, [rdi+4] */
    T(0x48, 0x8d, 0x44, 0x58, 0x07), /* lea rax, [rax+rbx*2+7] */
    T(0x8d, 0x0c, 0x95, 0x10, 0, 0, 0), /* lea ecx, [rdx*4+16] */
    T(0x66, 0x8d, 0x76, 0xff), /* lea si, [rsi-1] */
    T(0x4c, 0x8d, 0x0d, 0x10, 0, 0, 0), /* lea r9, [rip+16] */
    T(0x90),                   /* nop */
    T(0x0f, 0x1f, 0x44, 0x00, 0x00), /* nop dword [rax+rax] */
    /* the stack, balanced */
    T(0x50, 0x5b),             /* push rax; pop rbx */
    T(0x41, 0x50, 0x59),       /* push r8; pop rcx */
    T(0x6a, 0xfb, 0x41, 0x5a), /* push -5; pop r10 */
    T(0x68, 0x00, 0x00, 0x00, 0x90, 0x5e), /* push -0x70000000; pop rsi */
    T(0xe8, 0x00, 0x00, 0x00, 0x00, 0x41, 0x5a), /* call next; pop r10 */
    T(0xe8, 0x01, 0x00, 0x00, 0x00, 0xcc, 0x48, 0x83, 0x04, 0x24, 0x07,
      0xc3), /* call f; int3; f: add qword [rsp],7; ret (past f) */
    T(0x4c, 0x8d, 0x15, 0x05, 0, 0, 0, 0x41, 0xff, 0xe2, 0x0f,
      0x0b), /* lea r10,[rip+5]; jmp r10; ud2 */
    T(0x4c, 0x8d, 0x15, 0x05, 0, 0, 0, 0x41, 0xff, 0xd2, 0xeb, 0x01,
      0xc3), /* lea r10,[rip+5]; call r10; jmp +1; f: ret */
    T(0x4c, 0x8d, 0x15, 0x09, 0, 0, 0, 0x4c, 0x89, 0x57, 0x60, 0xff,
      0x67, 0x60, 0x0f, 0x0b), /* ...; mov [rdi+96],r10; jmp [rdi+96] */
    /* flag consumers */
    T(0x74, 0x03, 0x49, 0xff, 0xc1), /* je +3; inc r9 */
    T(0x72, 0x03, 0x49, 0xff, 0xc1), /* jb */
    T(0x76, 0x03, 0x49, 0xff, 0xc1), /* jbe */
    T(0x7c, 0x03, 0x49, 0xff, 0xc1), /* jl */
    T(0x7e, 0x03, 0x49, 0xff, 0xc1), /* jle */
    T(0x78, 0x03, 0x49, 0xff, 0xc1), /* js */
    T(0x70, 0x03, 0x49, 0xff, 0xc1), /* jo */
    T(0x7a, 0x03, 0x49, 0xff, 0xc1), /* jp */
    T(0x7f, 0x03, 0x49, 0xff, 0xc1), /* jg */
    T(0x73, 0x03, 0x49, 0xff, 0xc1), /* jae */
    T(0x0f, 0x87, 0x03, 0, 0, 0, 0x49, 0xff, 0xc1), /* ja rel32 */
    T(0xeb, 0x01, 0xcc),       /* jmp over an int3 */
    T(0x0f, 0x92, 0xc0),       /* setb al */
    T(0x0f, 0x9f, 0xc4),       /* setg ah */
    T(0x0f, 0x9a, 0x47, 0x11), /* setp [rdi+17] */
    T(0x0f, 0x90, 0xc2),       /* seto dl */
    T(0x0f, 0x97, 0xc1),       /* seta cl */
    T(0x48, 0x0f, 0x4c, 0xc3), /* cmovl rax, rbx */
    T(0x0f, 0x44, 0xca),       /* cmove ecx, edx */
    T(0x0f, 0x46, 0x77, 0x14), /* cmovbe esi, [rdi+20] */
    T(0x66, 0x0f, 0x48, 0xd0), /* cmovs dx, ax */
    T(0x4c, 0x0f, 0x4b, 0xc1), /* cmovnp r8, rcx */
    T(0x48, 0x11, 0xd8),       /* adc rax, rbx */
    T(0x18, 0xca),             /* sbb dl, cl */
    T(0x9c, 0x41, 0x58),       /* pushfq; pop r8: every flag */
    T(0x9c, 0x41, 0x5a),       /* pushfq; pop r10 */
    /* handlers in the middle of translated code */
    T(0x48, 0x0f, 0xaf, 0xc3), /* imul rax, rbx */
    T(0xd1, 0xfa),             /* sar edx, 1 */
    T(0x48, 0xd1, 0xc0),       /* rol rax, 1 */
    T(0x48, 0x0f, 0xbc, 0xc8), /* bsf rcx, rax */
    T(0x48, 0x0f, 0xc8),       /* bswap rax */
    T(0x48, 0x87, 0xd9),       /* xchg rcx, rbx */
    T(0x48, 0x99),             /* cqo */
};

/* SSE instructions the translator runs as host code (and a few it leaves
 * to their handlers), on xmm0-9 and [rdi + 0..255]; the packed memory
 * operands are 16-byte aligned except in one, which faults. */
static const struct tmpl ssetmpls[] = {
    T(0xf2, 0x0f, 0x58, 0xc1),       /* addsd xmm0, xmm1 */
    T(0xf2, 0x0f, 0x59, 0xd3),       /* mulsd xmm2, xmm3 */
    T(0xf2, 0x0f, 0x5c, 0x4f, 0x08), /* subsd xmm1, [rdi+8] */
    T(0xf2, 0x0f, 0x5e, 0xd8),       /* divsd xmm3, xmm0 */
    T(0xf2, 0x0f, 0x51, 0xe2),       /* sqrtsd xmm4, xmm2 */
    T(0xf2, 0x0f, 0x5d, 0xe9),       /* minsd xmm5, xmm1 */
    T(0xf2, 0x0f, 0x5f, 0x47, 0x10), /* maxsd xmm0, [rdi+16] */
    T(0xf3, 0x0f, 0x58, 0xf7),       /* addss xmm6, xmm7 */
    T(0xf3, 0x0f, 0x59, 0x4f, 0x04), /* mulss xmm1, [rdi+4] */
    T(0xf3, 0x0f, 0x5e, 0xd5),       /* divss xmm2, xmm5 */
    T(0x66, 0x0f, 0x58, 0xc2),       /* addpd xmm0, xmm2 */
    T(0x0f, 0x59, 0x5f, 0x20),       /* mulps xmm3, [rdi+32] */
    T(0x66, 0x0f, 0x5c, 0x67, 0x30), /* subpd xmm4, [rdi+48] */
    T(0x0f, 0x51, 0xd6),             /* sqrtps xmm2, xmm6 */
    T(0xf2, 0x0f, 0x5a, 0xdc),       /* cvtsd2ss xmm3, xmm4 */
    T(0xf3, 0x0f, 0x5a, 0x67, 0x14), /* cvtss2sd xmm4, [rdi+20] */
    T(0x66, 0x0f, 0x57, 0xe8),       /* xorpd xmm5, xmm0 */
    T(0x66, 0x0f, 0x54, 0x57, 0x30), /* andpd xmm2, [rdi+48] */
    T(0x66, 0x0f, 0xef, 0xff),       /* pxor xmm7, xmm7 */
    T(0x66, 0x0f, 0xd4, 0xca),       /* paddq xmm1, xmm2 */
    T(0x66, 0x0f, 0x76, 0xf0),       /* pcmpeqd xmm6, xmm0 */
    T(0x66, 0x0f, 0x14, 0xc3),       /* unpcklpd xmm0, xmm3 */
    T(0x66, 0x0f, 0x28, 0xcc),       /* movapd xmm1, xmm4 */
    T(0x0f, 0x28, 0x77, 0x40),       /* movaps xmm6, [rdi+64] */
    T(0x0f, 0x11, 0x57, 0x48),       /* movups [rdi+72], xmm2 */
    T(0x66, 0x0f, 0x7f, 0x5f, 0x60), /* movdqa [rdi+96], xmm3 */
    T(0xf3, 0x0f, 0x6f, 0x6f, 0x09), /* movdqu xmm5, [rdi+9] */
    T(0xf2, 0x0f, 0x10, 0xd0),       /* movsd xmm2, xmm0 */
    T(0xf2, 0x0f, 0x10, 0x5f, 0x18), /* movsd xmm3, [rdi+24] */
    T(0xf2, 0x0f, 0x11, 0x4f, 0x28), /* movsd [rdi+40], xmm1 */
    T(0xf2, 0x0f, 0x11, 0xc5),       /* movsd xmm5, xmm0 (store form) */
    T(0xf3, 0x0f, 0x10, 0x67, 0x0c), /* movss xmm4, [rdi+12] */
    T(0xf3, 0x0f, 0x10, 0xfa),       /* movss xmm7, xmm2 */
    T(0xf3, 0x0f, 0x11, 0x77, 0x2c), /* movss [rdi+44], xmm6 */
    T(0xf3, 0x0f, 0x7e, 0xc5),       /* movq xmm0, xmm5 */
    T(0x66, 0x0f, 0xd6, 0x77, 0x38), /* movq [rdi+56], xmm6 */
    T(0x66, 0x0f, 0xd6, 0xd1),       /* movq xmm1, xmm2 (store form) */
    T(0x66, 0x48, 0x0f, 0x6e, 0xc8), /* movq xmm1, rax */
    T(0x66, 0x48, 0x0f, 0x7e, 0xd2), /* movq rdx, xmm2 */
    T(0x66, 0x0f, 0x6e, 0xd9),       /* movd xmm3, ecx */
    T(0x66, 0x0f, 0x7e, 0xe3),       /* movd ebx, xmm4 */
    T(0x66, 0x0f, 0x6e, 0x47, 0x24), /* movd xmm0, [rdi+36] */
    T(0x66, 0x0f, 0x7e, 0x4f, 0x50), /* movd [rdi+80], xmm1 */
    T(0xf2, 0x48, 0x0f, 0x2a, 0xe8), /* cvtsi2sd xmm5, rax */
    T(0xf3, 0x0f, 0x2a, 0xf1),       /* cvtsi2ss xmm6, ecx */
    T(0xf2, 0x0f, 0x2a, 0x5f, 0x30), /* cvtsi2sd xmm3, dword [rdi+48] */
    T(0xf2, 0x48, 0x0f, 0x2c, 0xc0), /* cvttsd2si rax, xmm0 */
    T(0xf2, 0x0f, 0x2d, 0xd1),       /* cvtsd2si edx, xmm1 */
    T(0xf3, 0x48, 0x0f, 0x2c, 0x5f, 0x1c), /* cvttss2si rbx, [rdi+28] */
    T(0x66, 0x0f, 0x2e, 0xc1),       /* ucomisd xmm0, xmm1 */
    T(0x66, 0x0f, 0x2f, 0x57, 0x20), /* comisd xmm2, [rdi+32] */
    T(0x0f, 0x2e, 0xdc),             /* ucomiss xmm3, xmm4 */
    T(0x0f, 0x2f, 0xee),             /* comiss xmm5, xmm6 */
    T(0x66, 0x0f, 0x2e, 0xc1, 0x77, 0x03, 0x49, 0xff,
      0xc1),                         /* ucomisd xmm0, xmm1; ja +3; inc r9 */
    T(0x66, 0x0f, 0x2f, 0xd3, 0x7a, 0x03, 0x49, 0xff,
      0xc1),                         /* comisd xmm2, xmm3; jp +3; inc r9 */
    T(0x0f, 0x2e, 0xc8, 0x0f, 0x92, 0xc0), /* ucomiss xmm1, xmm0; setb al */
    T(0x66, 0x0f, 0x2e, 0xe5, 0x0f, 0x9c,
      0xc1),                         /* ucomisd xmm4, xmm5; setl cl */
    T(0xf2, 0x44, 0x0f, 0x58, 0xc9), /* addsd xmm9, xmm1 */
    T(0x66, 0x45, 0x0f, 0x28, 0xc1), /* movapd xmm8, xmm9 */
    T(0x41, 0x0f, 0x57, 0xc8),       /* xorps xmm1, xmm8 */
    T(0xf2, 0x44, 0x0f, 0x11, 0x4f, 0x58), /* movsd [rdi+88], xmm9 */
    T(0x0f, 0xae, 0x5f, 0xf0),       /* stmxcsr [rdi-16] */
    T(0x0f, 0xae, 0x97, 0x80, 0x01, 0, 0), /* ldmxcsr [rdi+0x180] */
    T(0x66, 0x0f, 0x58, 0x4f, 0x08), /* addpd xmm1, [rdi+8]: #GP */
    T(0x66, 0x0f, 0x3a, 0x0b, 0xc1, 0x04), /* roundsd xmm0, xmm1, 4 */
    T(0x66, 0x0f, 0x70, 0xd3, 0x1b), /* pshufd xmm2, xmm3, 0x1b */
    /* VEX at 128 bits */
    T(0xc5, 0xf3, 0x58, 0xc2),       /* vaddsd xmm0, xmm1, xmm2 */
    T(0xc5, 0xdb, 0x59, 0x5f, 0x08), /* vmulsd xmm3, xmm4, [rdi+8] */
    T(0xc5, 0xfb, 0x5e, 0xe9),       /* vdivsd xmm5, xmm0, xmm1 */
    T(0xc5, 0xeb, 0x51, 0xd6),       /* vsqrtsd xmm2, xmm2, xmm6 */
    T(0xc5, 0xca, 0x5c, 0x4f, 0x04), /* vsubss xmm1, xmm6, [rdi+4] */
    T(0xc5, 0xf1, 0x58, 0xe3),       /* vaddpd xmm4, xmm1, xmm3 */
    T(0xc5, 0xf9, 0x57, 0xc0),       /* vxorpd xmm0, xmm0, xmm0 */
    T(0xc5, 0xc1, 0xef, 0x77, 0x09), /* vpxor xmm6, xmm7, [rdi+9] */
    T(0xc5, 0xeb, 0x5a, 0xcb),       /* vcvtsd2ss xmm1, xmm2, xmm3 */
    T(0xc4, 0xe2, 0xf1, 0xb9, 0xc2), /* vfmadd231sd xmm0, xmm1, xmm2 */
    T(0xc4, 0xe2, 0xd9, 0xa9, 0x5f, 0x10), /* vfmadd213sd xmm3, xmm4, [rdi+16] */
    T(0xc4, 0xe2, 0x49, 0x9d, 0xef), /* vfnmadd132ss xmm5, xmm6, xmm7 */
    T(0xc4, 0xe2, 0xe9, 0xba, 0xcb), /* vfmsub231pd xmm1, xmm2, xmm3 */
    T(0xc4, 0xe2, 0xd1, 0xa6, 0xe6), /* vfmaddsub213pd xmm4, xmm5, xmm6 */
    T(0xc5, 0xfb, 0x10, 0x4f, 0x18), /* vmovsd xmm1, [rdi+24] */
    T(0xc5, 0xfb, 0x11, 0x57, 0x28), /* vmovsd [rdi+40], xmm2 */
    T(0xc5, 0xdb, 0x10, 0xdd),       /* vmovsd xmm3, xmm4, xmm5 */
    T(0xc5, 0xfa, 0x7e, 0x77, 0x20), /* vmovq xmm6, [rdi+32] */
    T(0xc5, 0xfa, 0x7e, 0xc7),       /* vmovq xmm0, xmm7 */
    T(0xc5, 0xf9, 0xd6, 0x4f, 0x38), /* vmovq [rdi+56], xmm1 */
    T(0xc4, 0xe1, 0xf9, 0x6e, 0xd0), /* vmovq xmm2, rax */
    T(0xc4, 0xe1, 0xf9, 0x7e, 0xd9), /* vmovq rcx, xmm3 */
    T(0xc5, 0xf9, 0x6e, 0xe2),       /* vmovd xmm4, edx */
    T(0xc5, 0xf9, 0x7e, 0xeb),       /* vmovd ebx, xmm5 */
    T(0xc5, 0xf9, 0x28, 0xf1),       /* vmovapd xmm6, xmm1 */
    T(0xc5, 0xf8, 0x28, 0x7f, 0x40), /* vmovaps xmm7, [rdi+64] */
    T(0xc5, 0xf8, 0x11, 0x5f, 0x48), /* vmovups [rdi+72], xmm3 */
    T(0xc5, 0xfa, 0x6f, 0x47, 0x0d), /* vmovdqu xmm0, [rdi+13] */
    T(0xc5, 0xf9, 0x7f, 0x57, 0x60), /* vmovdqa [rdi+96], xmm2 */
    T(0xc5, 0xf9, 0x6f, 0x4f, 0x08), /* vmovdqa xmm1, [rdi+8]: #GP */
    T(0xc5, 0xf9, 0x2e, 0xc1, 0x77, 0x03, 0x49, 0xff,
      0xc1),                         /* vucomisd xmm0, xmm1; ja +3 */
    T(0xc5, 0xf8, 0x2f, 0x57, 0x14), /* vcomiss xmm2, [rdi+20] */
    T(0xc4, 0xe1, 0xeb, 0x2a, 0xc8), /* vcvtsi2sd xmm1, xmm2, rax */
    T(0xc5, 0xda, 0x2a, 0xd9),       /* vcvtsi2ss xmm3, xmm4, ecx */
    T(0xc4, 0xe1, 0xfb, 0x2c, 0xc5), /* vcvttsd2si rax, xmm5 */
    T(0xc5, 0xfb, 0x2d, 0x57, 0x10), /* vcvtsd2si edx, [rdi+16] */
    T(0xc5, 0xf5, 0x58, 0xc2),       /* vaddpd ymm0, ymm1, ymm2 */
    T(0xc5, 0x2b, 0x58, 0xc9),       /* vaddsd xmm9, xmm10, xmm1 */
    /* VEX at 256 bits (the host's own where it has AVX2) */
    T(0xc5, 0xf4, 0x58, 0xc2),       /* vaddps ymm0, ymm1, ymm2 */
    T(0xc5, 0xdd, 0x59, 0x5f, 0x20), /* vmulpd ymm3, ymm4, [rdi+32] */
    T(0xc5, 0xcc, 0x5c, 0x6f, 0x09), /* vsubps ymm5, ymm6, [rdi+9] */
    T(0xc5, 0xed, 0x5e, 0xcb),       /* vdivpd ymm1, ymm2, ymm3 */
    T(0xc5, 0xd4, 0x5f, 0xe6),       /* vmaxps ymm4, ymm5, ymm6 */
    T(0xc5, 0xfd, 0x5d, 0x7f, 0x40), /* vminpd ymm7, ymm0, [rdi+64] */
    T(0xc5, 0xe4, 0x55, 0xd4),       /* vandnps ymm2, ymm3, ymm4 */
    T(0xc5, 0xfc, 0x57, 0xc0),       /* vxorps ymm0, ymm0, ymm0 */
    T(0xc5, 0xed, 0x15, 0xcb),       /* vunpckhpd ymm1, ymm2, ymm3 */
    T(0xc5, 0xed, 0x74, 0x4f, 0x10), /* vpcmpeqb ymm1, ymm2, [rdi+16] */
    T(0xc5, 0xdd, 0xda, 0xdd),       /* vpminub ymm3, ymm4, ymm5 */
    T(0xc5, 0xc5, 0xd4, 0xf0),       /* vpaddq ymm6, ymm7, ymm0 */
    T(0xc5, 0x2d, 0xeb, 0xc9),       /* vpor ymm9, ymm10, ymm1 */
    T(0xc5, 0xe5, 0x60, 0xd4),       /* vpunpcklbw ymm2, ymm3, ymm4 */
    T(0xc5, 0xf5, 0xfe, 0x47, 0x20), /* vpaddd ymm0, ymm1, [rdi+32] */
    T(0xc5, 0xfc, 0x51, 0xd6),       /* vsqrtps ymm2, ymm6 (handler) */
    T(0xc5, 0xfc, 0x28, 0x4f, 0x40), /* vmovaps ymm1, [rdi+64] */
    T(0xc5, 0xfc, 0x11, 0x5f, 0x48), /* vmovups [rdi+72], ymm3 */
    T(0xc5, 0xfe, 0x6f, 0x6f, 0x09), /* vmovdqu ymm5, [rdi+9] */
    T(0xc5, 0xfd, 0x7f, 0x67, 0x60), /* vmovdqa [rdi+96], ymm4 */
    T(0xc5, 0xfd, 0x28, 0xf1),       /* vmovapd ymm6, ymm1 */
    T(0xc5, 0xfe, 0x7f, 0xf8),       /* vmovdqu ymm0, ymm7 (store form) */
    T(0xc5, 0xfc, 0x28, 0x57, 0x10), /* vmovaps ymm2, [rdi+16]: #GP */
    T(0xc4, 0xe2, 0x75, 0xb8, 0xc2), /* vfmadd231ps ymm0, ymm1, ymm2 */
    T(0xc4, 0xe2, 0xdd, 0xa8, 0x5f,
      0x20),                         /* vfmadd213pd ymm3, ymm4, [rdi+32] */
    T(0xc4, 0xe2, 0xcd, 0x97, 0xef), /* vfmsubadd132pd ymm5, ymm6, ymm7 */
    /* sign masks into general registers; vzeroupper inside blocks */
    T(0x66, 0x0f, 0xd7, 0xc1),       /* pmovmskb eax, xmm1 */
    T(0x0f, 0x50, 0xd3),             /* movmskps edx, xmm3 */
    T(0x66, 0x0f, 0x50, 0xf4),       /* movmskpd esi, xmm4 */
    T(0xc5, 0xfd, 0xd7, 0xca),       /* vpmovmskb ecx, ymm2 */
    T(0xc5, 0xf9, 0xd7, 0xc5),       /* vpmovmskb eax, xmm5 */
    T(0xc5, 0x79, 0x50, 0xc4),       /* vmovmskpd r8d, xmm4 */
    T(0xc5, 0xfc, 0x50, 0xde),       /* vmovmskps ebx, ymm6 */
    T(0xc5, 0xf8, 0x77),             /* vzeroupper */
    T(0xc5, 0xf8, 0x77),             /* vzeroupper */
    T(0xd9, 0xe8, 0xdd, 0xd8),       /* fld1; fstp st0: x87 in use */
    /* shuffles and the crypto instructions (the host's own where it has
     * them) */
    T(0x66, 0x0f, 0x38, 0x00, 0xca), /* pshufb xmm1, xmm2 */
    T(0x66, 0x44, 0x0f, 0x38, 0x00, 0xc9), /* pshufb xmm9, xmm1 */
    T(0x66, 0x0f, 0x3a, 0x0f, 0xdc, 0x05), /* palignr xmm3, xmm4, 5 */
    T(0x66, 0x0f, 0x38, 0xdc, 0xca), /* aesenc xmm1, xmm2 */
    T(0x66, 0x0f, 0x38, 0xdd, 0x5f, 0x20), /* aesenclast xmm3, [rdi+32] */
    T(0x66, 0x0f, 0x38, 0xde, 0xe5), /* aesdec xmm4, xmm5 */
    T(0x66, 0x0f, 0x38, 0xdf, 0xf7), /* aesdeclast xmm6, xmm7 */
    T(0x66, 0x0f, 0x38, 0xdb, 0xc1), /* aesimc xmm0, xmm1 */
    T(0x66, 0x0f, 0x3a, 0xdf, 0xd3, 0x11), /* aeskeygenassist xmm2, xmm3, 17 */
    T(0x66, 0x0f, 0x3a, 0x44, 0xe5, 0x10), /* pclmulqdq xmm4, xmm5, 16 */
    T(0x66, 0x0f, 0x3a, 0x44, 0x4f, 0x30,
      0x01),                         /* pclmulqdq xmm1, [rdi+48], 1 */
    T(0x0f, 0x38, 0xcb, 0xca),       /* sha256rnds2 xmm1, xmm2, <xmm0> */
    T(0x0f, 0x38, 0xcb, 0xc1),       /* sha256rnds2 xmm0, xmm1, <xmm0> */
    T(0x0f, 0x38, 0xcc, 0xe5),       /* sha256msg1 xmm4, xmm5 */
    T(0x0f, 0x38, 0xcd, 0xf7),       /* sha256msg2 xmm6, xmm7 */
    T(0x0f, 0x3a, 0xcc, 0xca, 0x03), /* sha1rnds4 xmm1, xmm2, 3 */
    T(0x0f, 0x38, 0xc8, 0xd3),       /* sha1nexte xmm2, xmm3 */
    T(0x0f, 0x38, 0xc9, 0xdc),       /* sha1msg1 xmm3, xmm4 */
    T(0x0f, 0x38, 0xca, 0xe5),       /* sha1msg2 xmm4, xmm5 */
    T(0x0f, 0x38, 0xcc, 0x4f, 0x10), /* sha256msg1 xmm1, [rdi+16] */
    T(0xc4, 0xe2, 0x69, 0xdc, 0xcb), /* vaesenc xmm1, xmm2, xmm3 */
    T(0xc4, 0xe2, 0x55, 0xdd, 0x67, 0x20), /* vaesenclast ymm4, ymm5, [rdi+32] */
    T(0xc4, 0xe2, 0x75, 0xde, 0xc2), /* vaesdec ymm0, ymm1, ymm2 */
    T(0xc4, 0xe2, 0x41, 0xdf, 0x77, 0x09), /* vaesdeclast xmm6, xmm7, [rdi+9] */
    T(0xc4, 0xe3, 0x61, 0x44, 0xd4, 0x11), /* vpclmulqdq xmm2, xmm3, xmm4, 17 */
    T(0xc4, 0xe3, 0x4d, 0x44, 0x6f, 0x40,
      0x01),                         /* vpclmulqdq ymm5, ymm6, [rdi+64], 1 */
};

/* A program of N random templates, looped LOOPS times through r11:
 *   mov r11d, LOOPS; L: <templates>; dec r11d; jnz L; int3
 * With SSE, half of them are SSE ones. */
static size_t make_prog_sse(u8 *p, size_t cap, unsigned n, unsigned loops,
                            unsigned *seed, int sse) {
  size_t len = 0, top;
  p[len++] = 0x41;
  p[len++] = 0xbb;
  memcpy(p + len, &loops, 4);
  len += 4;
  top = len;
  for (unsigned i = 0; i < n; i++) {
    const struct tmpl *t = &tmpls[rand_r(seed) % RW_ARRAY_SIZE(tmpls)];
    if (sse && rand_r(seed) % 2)
      t = &ssetmpls[rand_r(seed) % RW_ARRAY_SIZE(ssetmpls)];
    if (len + t->len + 16 > cap) break;
    memcpy(p + len, t->b, t->len);
    len += t->len;
  }
  {
    i32 rel = (i32)top - (i32)(len + 3 + 6);
    static const u8 dec[] = {0x41, 0xff, 0xcb}; /* dec r11d */
    memcpy(p + len, dec, 3);
    len += 3;
    p[len++] = 0x0f;
    p[len++] = 0x85;
    memcpy(p + len, &rel, 4);
    len += 4;
  }
  p[len++] = 0xcc;
  return len;
}
static size_t make_prog(u8 *p, size_t cap, unsigned n, unsigned loops,
                        unsigned *seed) {
  return make_prog_sse(p, cap, n, loops, seed, 0);
}

struct state {
  struct rw_regs r;
  u64 icount;
  u32 xinuse;
  u8 data[512];
  u8 stack[256];
};

static void get_state(struct emu *e, struct state *s) {
  memset(s, 0, sizeof *s);
  cpu_get_regs(e->cpu, &s->r);
  s->icount = cpu_icount(e->cpu);
  s->xinuse = cpu_xinuse(e->cpu);
  CU_ASSERT(cpu_mem_read(e->mem, EMU_DATA, s->data, sizeof s->data) == 0);
  CU_ASSERT(cpu_mem_read(e->mem, EMU_STACK - 256, s->stack,
                         sizeof s->stack) == 0);
}

/* Opens the machine with PROG and the random register and data state of
 * SEED. */
static void open_prog(struct emu *e, const u8 *prog, size_t len,
                      unsigned seed) {
  struct rw_regs r;
  u8 data[512];
  static const u64 edge[] = {0,          1,          0x7f,       0x80,
                             0xff,       0x7fff,     0x8000,     0xffff,
                             0x7fffffff, 0x80000000, 0xffffffff,
                             0x7fffffffffffffffull, 0x8000000000000000ull,
                             ~0ull};
  CU_ASSERT_FATAL(emu_open(e, prog, len) == 0);
  for (size_t i = 0; i < sizeof data; i++) data[i] = (u8)rand_r(&seed);
  CU_ASSERT_FATAL(cpu_mem_write(e->mem, EMU_DATA, data, sizeof data) == 0);
  cpu_get_regs(e->cpu, &r);
  for (int g = 0; g < 16; g++) {
    u64 v = (u64)rand_r(&seed) << 33 ^ (u64)rand_r(&seed) << 11 ^
            (u64)rand_r(&seed);
    if (rand_r(&seed) % 3 == 0) v = edge[rand_r(&seed) % RW_ARRAY_SIZE(edge)];
    if (g == RW_REG_rsp || g == RW_REG_rdi || g == RW_REG_r11) continue;
    if (g == RW_REG_rsi || g == RW_REG_rcx) v &= 0x3f; /* indexes */
    r.gpr[g] = v;
  }
  r.gpr[RW_REG_rdi] = EMU_DATA + 64;
  r.rflags = 0x202 | (rand_r(&seed) & 0x8d5);
  CU_ASSERT_FATAL(cpu_set_regs(e->cpu, &r) == 0);
}

/* Runs with BUDGET (0: to the end); returns the exit reason. */
static int run_for(struct emu *e, u64 budget) {
  struct cpu_exit ex;
  if (cpu_run(e->cpu, budget ? budget : 100000000, &ex)) return -1;
  return ex.reason;
}

static int same(const struct state *a, const struct state *b) {
  return !memcmp(&a->r, &b->r, sizeof a->r) && a->icount == b->icount &&
         a->xinuse == b->xinuse && !memcmp(a->data, b->data, sizeof a->data) &&
         !memcmp(a->stack, b->stack, sizeof a->stack);
}

/* Reports the first difference of A (interpreted) and B (translated). */
static void report(const char *what, unsigned seed, const struct state *a,
                   const struct state *b) {
  for (int g = 0; g < 16; g++)
    if (a->r.gpr[g] != b->r.gpr[g])
      printf("\n%s seed %u: gpr %d %llx (interpreted) %llx (translated)",
             what, seed, g, (unsigned long long)a->r.gpr[g],
             (unsigned long long)b->r.gpr[g]);
  if (a->r.rflags != b->r.rflags || a->r.rip != b->r.rip ||
      a->icount != b->icount)
    printf("\n%s seed %u: rflags %llx/%llx rip %llx/%llx count %llu/%llu",
           what, seed, (unsigned long long)a->r.rflags,
           (unsigned long long)b->r.rflags, (unsigned long long)a->r.rip,
           (unsigned long long)b->r.rip, (unsigned long long)a->icount,
           (unsigned long long)b->icount);
}

/* Vector registers and MXCSR for the SSE programs: values that make
 * every exception (zeros, infinities, NaNs both quiet and signalling,
 * denormals, huge and tiny numbers) mixed with random bits, and an MXCSR
 * that is mostly the default (the translation's own path), sometimes
 * another rounding, DAZ, FTZ or an unmasked exception (the handler's). */
static void sse_state(struct emu *e, unsigned seed) {
  static const u64 vals[] = {
      0, 0x8000000000000000ull, 0x3ff0000000000000ull,
      0xbff8000000000000ull, 0x7e37e43c8800759cull, 0x0000000000000001ull,
      0x000fffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x0010000000000000ull,
      0x3fb999999999999aull, 0x4008000000000000ull, 0x3f80000040400000ull,
      0x7f80000000000001ull, 0x00000001ff800000ull, 0x43e0000000000000ull};
  static const u32 mx[] = {0x1f80, 0x1f80, 0x1f80, 0x1f80, 0x1fa0, 0x1fbf,
                           0x9f80, 0x1fc0, 0x3f80, 0x5f80, 0x7f80, 0x0f80,
                           0x1d80, 0x1e80, 0x1b80};
  struct rw_regs r;
  u32 m = mx[rand_r(&seed) % RW_ARRAY_SIZE(mx)];
  u32 m2 = mx[rand_r(&seed) % RW_ARRAY_SIZE(mx)];
  cpu_get_regs(e->cpu, &r);
  for (unsigned i = 0; i < 32; i++) {
    u64 v = (u64)rand_r(&seed) << 33 ^ (u64)rand_r(&seed) << 11 ^
            (u64)rand_r(&seed);
    if (rand_r(&seed) % 3) v = vals[rand_r(&seed) % RW_ARRAY_SIZE(vals)];
    memcpy(r.fxsave + 160 + 8 * i, &v, 8);
  }
  for (unsigned i = 0; i < sizeof r.ymmh; i++) r.ymmh[i] = (u8)rand_r(&seed);
  for (unsigned i = 0; i < sizeof r.zmmh; i++) r.zmmh[i] = (u8)rand_r(&seed);
  memcpy(r.fxsave + 24, &m, 4);
  CU_ASSERT_FATAL(cpu_set_regs(e->cpu, &r) == 0);
  /* XINUSE from nothing in some: a vzeroupper inside a block must add
   * what the block set before it */
  if (rand_r(&seed) % 2) cpu_set_xinuse(e->cpu, 0);
  /* what ldmxcsr [rdi+0x180] loads */
  CU_ASSERT_FATAL(cpu_mem_write(e->mem, EMU_DATA + 64 + 0x180, &m2, 4) == 0);
}

/* Runs PROG (LEN bytes) interpreted and translated (every block at once
 * for odd seeds, hot ones for even) from SEED's state, SSE adding
 * sse_state's; A and B get the end states. Returns the exit reasons'
 * equality and adds the instructions translated to *TRANSLATED. */
static int run_both(const u8 *prog, size_t len, unsigned seed, int sse,
                    struct state *a, struct state *b, u64 *translated) {
  struct emu e;
  struct cpu_jit_stats st;
  int ra, rb;
  cpu_set_jit(0);
  open_prog(&e, prog, len, seed);
  if (sse) sse_state(&e, seed);
  ra = run_for(&e, 0);
  get_state(&e, a);
  emu_close(&e);
  cpu_set_jit(seed & 1 ? 2 : 1);
  open_prog(&e, prog, len, seed);
  if (sse) sse_state(&e, seed);
  rb = run_for(&e, 0);
  get_state(&e, b);
  cpu_mem_jit_stats(e.mem, &st);
  *translated += st.insns;
  emu_close(&e);
  CU_ASSERT_EQUAL(ra, CPU_EXIT_FAULT);
  return ra == rb;
}

void test_jit_random_programs(void) {
  static u8 prog[4096];
  unsigned bad = 0, ended = 0;
  u64 translated = 0;
  int mode = cpu_jit();
  for (unsigned seed = 1; seed <= 300; seed++) {
    unsigned s = seed;
    size_t len = make_prog(prog, sizeof prog, 40 + seed % 80, 3, &s);
    struct state a, b;
    CU_ASSERT(run_both(prog, len, seed, 0, &a, &b, &translated));
    ended += a.r.rip == EMU_CODE + len; /* after the final int3 */
    if (!same(&a, &b) && bad++ < 5) report("end", seed, &a, &b);
  }
  cpu_set_jit(mode);
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT(translated > 10000); /* the translations did run */
  printf(" [%u of 300 programs ran to the end] ", ended);
  CU_ASSERT(ended > 250);
}

void test_jit_sse_programs(void) {
  static u8 prog[4096];
  unsigned bad = 0, ended = 0;
  u64 translated = 0;
  int mode = cpu_jit();
  for (unsigned seed = 1; seed <= 400; seed++) {
    unsigned s = seed;
    size_t len = make_prog_sse(prog, sizeof prog, 30 + seed % 60, 3, &s, 1);
    struct state a, b;
    CU_ASSERT(run_both(prog, len, seed, 1, &a, &b, &translated));
    ended += a.r.rip == EMU_CODE + len;
    if (!same(&a, &b) && bad++ < 5) {
      report("sse", seed, &a, &b);
      for (unsigned i = 0; i < 512; i += 8)
        if (memcmp(a.r.fxsave + i, b.r.fxsave + i, 8))
          printf("\nsse seed %u: fxsave+%u %016llx %016llx", seed, i,
                 *(unsigned long long *)(void *)(a.r.fxsave + i),
                 *(unsigned long long *)(void *)(b.r.fxsave + i));
      if (memcmp(a.r.ymmh, b.r.ymmh, sizeof a.r.ymmh) ||
          memcmp(a.r.zmmh, b.r.zmmh, sizeof a.r.zmmh))
        printf("\nsse seed %u: bits above 127 differ", seed);
    }
  }
  cpu_set_jit(mode);
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT(translated > 10000);
  printf(" [%u of 400 programs ran to the end] ", ended);
  CU_ASSERT(ended > 100);
}

void test_jit_budgets(void) {
  static u8 prog[2048];
  unsigned bad = 0;
  int mode = cpu_jit();
  for (unsigned seed = 1000; seed < 1040; seed++) {
    unsigned s = seed;
    size_t len = make_prog(prog, sizeof prog, 30, 2, &s);
    struct emu e;
    struct state a, b;
    u64 total;
    cpu_set_jit(0);
    open_prog(&e, prog, len, seed);
    run_for(&e, 0);
    total = cpu_icount(e.cpu);
    emu_close(&e);
    /* Stop after every count K, resume to the end: both ways agree at K
     * and at the end. */
    for (u64 k = 1; k < total; k += 1 + k / 8) {
      cpu_set_jit(0);
      open_prog(&e, prog, len, seed);
      run_for(&e, k);
      get_state(&e, &a);
      emu_close(&e);
      cpu_set_jit(2);
      open_prog(&e, prog, len, seed);
      run_for(&e, k);
      get_state(&e, &b);
      if (!same(&a, &b) && bad++ < 5) report("budget", seed, &a, &b);
      run_for(&e, 0);
      CU_ASSERT_EQUAL(cpu_icount(e.cpu), total);
      emu_close(&e);
    }
  }
  cpu_set_jit(mode);
  CU_ASSERT_EQUAL(bad, 0);
}

/* A loop of one block (it goes round without leaving its translation)
 * stops at every budget where the interpreter stops. */
void test_jit_one_block_loop(void) {
  /* L: add rax,rcx; xor rdx,rax; inc ecx; cmp ecx,300; jne L; int3 */
  static const u8 p[] = {0x48, 0x01, 0xc8, 0x48, 0x31, 0xc2, 0xff, 0xc1,
                         0x81, 0xf9, 0x2c, 0x01, 0x00, 0x00, 0x75, 0xf0,
                         0xcc};
  int mode = cpu_jit();
  unsigned bad = 0;
  for (u64 k = 1; k < 1505; k += 1 + k / 16) {
    struct state a, b;
    struct emu e;
    for (int m = 0; m <= 1; m++) {
      cpu_set_jit(m ? 2 : 0);
      CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
      CU_ASSERT_EQUAL(run_for(&e, k), k < 1501 ? CPU_EXIT_BUDGET
                                               : CPU_EXIT_FAULT);
      get_state(&e, m ? &b : &a);
      emu_close(&e);
    }
    if (!same(&a, &b) && bad++ < 5) report("loop budget", (unsigned)k, &a, &b);
  }
  /* With a breakpoint at its start it stops there every time round: the
   * first run starts on it, each next one stops after one pass. */
  for (int m = 0; m <= 2; m += 2) {
    struct emu e;
    struct cpu_exit ex;
    cpu_set_jit(m);
    CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
    CU_ASSERT_FATAL(cpu_mem_break_add(e.mem, EMU_CODE) == 0);
    for (u64 pass = 1; pass <= 40; pass++) {
      CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_BREAKPOINT);
      CU_ASSERT_EQUAL(cpu_icount(e.cpu), 5 * pass);
      CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE);
    }
    emu_close(&e);
  }
  cpu_set_jit(mode);
  CU_ASSERT_EQUAL(bad, 0);
}

/* A fault in the middle of a translated block: the instructions before it
 * are done, the faulting one is not, rip and the count are at it. */
void test_jit_fault_is_precise(void) {
  /* mov eax,1; add rbx,rax; mov rcx,[rdx]; mov esi,7; int3 (rdx unmapped)
   * -- interpreted, then translated from its first run. */
  static const u8 p[] = {0xb8, 1,    0,    0,    0,    0x48, 0x01, 0xc3,
                         0x48, 0x8b, 0x0a, 0xbe, 7,    0,    0,    0,
                         0xcc};
  int mode = cpu_jit();
  for (int m = 0; m <= 2; m += 2) {
    struct emu e;
    struct cpu_exit ex;
    cpu_set_jit(m);
    CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
    emu_set_reg(&e, RW_REG_rdx, 0x12345000);
    emu_set_reg(&e, RW_REG_rbx, 10);
    CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
    CU_ASSERT_EQUAL(ex.fault, CPU_FAULT_PF);
    CU_ASSERT_EQUAL(ex.addr, 0x12345000);
    CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 8);
    CU_ASSERT_EQUAL(cpu_icount(e.cpu), 2);
    CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rbx), 11);
    CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rsi), 0);
    if (m) {
      struct cpu_jit_stats st;
      cpu_mem_jit_stats(e.mem, &st);
      CU_ASSERT(st.blocks >= 1);
    }
    emu_close(&e);
  }
  cpu_set_jit(mode);
}

/* A store inside a translated block to the block's own next instruction:
 * the block stops after the store and the new code runs. */
void test_jit_self_modifying(void) {
  /* L: mov byte [rip+K],cl (the imm of the mov eax below); inc ecx;
   * mov eax,0; add rbx,rax; cmp ecx,40; jne L; int3 */
  static u8 p[] = {0x88, 0x0d, 0x03, 0,    0,    0,    0xff, 0xc1,
                   0xb8, 0,    0,    0,    0,    0x48, 0x01, 0xc3,
                   0x83, 0xf9, 40,   0x75, 0xeb, 0xcc};
  int mode = cpu_jit();
  for (int m = 0; m <= 2; m++) {
    struct emu e;
    struct cpu_exit ex;
    cpu_set_jit(m);
    CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
    CU_ASSERT_FATAL(
        cpu_mem_protect(e.mem, EMU_CODE, 0x1000,
                        CPU_PROT_READ | CPU_PROT_WRITE | CPU_PROT_EXEC) == 0);
    CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_FAULT);
    /* Each pass adds the ecx it stored before the increment: 0+1+..+39 */
    CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rbx), 780);
    CU_ASSERT_EQUAL(cpu_icount(e.cpu), 40 * 6 + 1);
    emu_close(&e);
  }
  cpu_set_jit(mode);
}

/* A write watchpoint hit by a translated store stops right after it. */
void test_jit_watchpoint(void) {
  /* L: mov [rdi+rcx*8],rcx; inc ecx; cmp ecx,50; jne L; int3 */
  static const u8 p[] = {0x48, 0x89, 0x0c, 0xcf, 0xff, 0xc1, 0x83,
                         0xf9, 50,   0x75, 0xf5, 0xcc};
  int mode = cpu_jit();
  cpu_set_jit(1);
  {
    struct emu e;
    struct cpu_exit ex;
    CU_ASSERT_FATAL(emu_open(&e, p, sizeof p) == 0);
    emu_set_reg(&e, RW_REG_rdi, EMU_DATA);
    CU_ASSERT_FATAL(cpu_mem_watch_add(e.mem, EMU_DATA + 8 * 37, 8,
                                      CPU_WATCH_WRITE) == 0);
    CU_ASSERT_EQUAL(emu_run(&e, &ex), CPU_EXIT_WATCHPOINT);
    CU_ASSERT_EQUAL(emu_reg(&e, RW_REG_rcx), 37);
    CU_ASSERT_EQUAL(emu_rip(&e), EMU_CODE + 4);
    CU_ASSERT_EQUAL(cpu_icount(e.cpu), 37 * 4 + 1);
    {
      struct cpu_jit_stats st;
      cpu_mem_jit_stats(e.mem, &st);
      CU_ASSERT(st.blocks >= 1);
    }
    emu_close(&e);
  }
  cpu_set_jit(mode);
}
