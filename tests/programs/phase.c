/* SPDX-License-Identifier: MIT */
/* A loop for sampled edge profiles (tests/replay/sampling.sh): each
 * iteration takes exactly two branches, and its first conditional branch
 * is taken once every 8 iterations, so every 16 taken branches the loop is
 * back in the same phase. Sampling every 16k taken branches sees the same
 * phase every time (a biased profile); a random offset does not. Written
 * in assembly so that no compiler changes the branches. Argument:
 * iterations (default 400000). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 400000, rare = 0;
  __asm__ volatile(
      "1:\n\t"
      "test $7, %[n]\n\t"
      "jz 2f\n\t"        /* the rare edge: taken 1 in 8 */
      "jmp 3f\n\t"       /* otherwise a jump, so two taken either way */
      "2:\n\t"
      "inc %[rare]\n\t"
      "3:\n\t"
      "dec %[n]\n\t"
      "jnz 1b\n\t"       /* the back edge: taken but at the end */
      : [n] "+r"(n), [rare] "+r"(rare)
      :
      : "cc");
  printf("rare %ld\n", rare);
  return 0;
}
