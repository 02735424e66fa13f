/* SPDX-License-Identifier: MIT */
/* Test program, randomness: getrandom into a buffer, printed in hex so the
 * end-to-end test can find the same bytes in the trace. */
#include <stdio.h>
#include <sys/random.h>

int main(void) {
  unsigned char b[32];
  if (getrandom(b, sizeof b, 0) != sizeof b) return 1;
  for (size_t i = 0; i < sizeof b; i++) printf("%02x", b[i]);
  printf("\n");
  return 0;
}
