/* SPDX-License-Identifier: MIT */
/* Test program: a 128-byte buffer, aligned on a cache line, accessed in a
 * known pattern, for rewind analyze accesses (tests/replay/counts.sh).
 * Only these functions, in assembly, touch it:
 *
 *   st8        an 8-byte store at offset 0, 10 times
 *   ld4        a 4-byte load at offset 6 (unaligned: granules 0 and 1 of
 *              8 bytes), 5 times
 *   fill32     rep stosb of 32 bytes at offset 64, once: 32 1-byte writes
 *   ld16       a 16-byte load at offset 60 (crossing the cache line at
 *              64), 3 times
 *   ld1        a 1-byte load at offset 127, 7 times
 *
 * Prints "buf at ADDR" first, then "datapat ok". */
#include <stdint.h>
#include <stdio.h>

static _Alignas(64) unsigned char buf[128];

void st8(void *p);
__asm__(".text\n.globl st8\n.type st8,@function\nst8:\n"
        "mov %rdi, (%rdi)\nret\n.size st8,.-st8\n");
uint32_t ld4(const void *p);
__asm__(".text\n.globl ld4\n.type ld4,@function\nld4:\n"
        "mov 6(%rdi), %eax\nret\n.size ld4,.-ld4\n");
void fill32(void *p);
__asm__(".text\n.globl fill32\n.type fill32,@function\nfill32:\n"
        "lea 64(%rdi), %rdi\nmov $32, %ecx\nxor %eax, %eax\nrep stosb\nret\n"
        ".size fill32,.-fill32\n");
void ld16(const void *p);
__asm__(".text\n.globl ld16\n.type ld16,@function\nld16:\n"
        "movdqu 60(%rdi), %xmm0\nret\n.size ld16,.-ld16\n");
uint32_t ld1(const void *p);
__asm__(".text\n.globl ld1\n.type ld1,@function\nld1:\n"
        "movzbl 127(%rdi), %eax\nret\n.size ld1,.-ld1\n");

int main(void) {
  uint32_t sum = 0;
  printf("buf at %p\n", (void *)buf);
  fflush(stdout);
  for (int i = 0; i < 10; i++) st8(buf);
  for (int i = 0; i < 5; i++) sum += ld4(buf);
  fill32(buf);
  for (int i = 0; i < 3; i++) ld16(buf);
  for (int i = 0; i < 7; i++) sum += ld1(buf);
  printf("datapat ok %u\n", sum);
  return 0;
}
