/* SPDX-License-Identifier: MIT */
/* Tail calls for the shadow call stack (tests/replay/profile.sh): main
 * calls top(3), which jumps to mid(6), which jumps to leaf(7), which calls
 * checkpoint(7) and returns 14 to main for all three. top and mid are
 * written in assembly so that they stay jumps whatever the compiler does.
 * At checkpoint the machine's stack holds leaf's and main's return
 * addresses only; the shadow stack also keeps top and mid, entered by a
 * jump. */
#include <stdio.h>

volatile int sink;

__attribute__((noinline, visibility("hidden"))) void checkpoint(int x) {
  sink = x;
}

__attribute__((noinline, used, visibility("hidden"))) int leaf(int x) {
  checkpoint(x);
  return x + sink;
}

int top(int x);
__asm__(".text\n"
        ".globl top\n.hidden top\n.type top, @function\n"
        "top:\n\tadd %edi, %edi\n\tjmp mid\n.size top, .-top\n"
        ".globl mid\n.hidden mid\n.type mid, @function\n"
        "mid:\n\tadd $1, %edi\n\tjmp leaf\n.size mid, .-mid\n");

/* ping(n) and pong jump to each other n times, then to leaf(0): a chain
 * of tail calls that keeps coming back, as an interpreter's dispatch does.
 * The shadow stack keeps ping under leaf, not a thousand frames. */
int ping(int n);
__asm__(".text\n"
        ".globl ping\n.hidden ping\n.type ping, @function\n"
        "ping:\n\tsub $1, %edi\n\tjle 1f\n\tjmp pong\n1:\n\txor %edi, %edi\n"
        "\tjmp leaf\n.size ping, .-ping\n"
        ".globl pong\n.hidden pong\n.type pong, @function\n"
        "pong:\n\tjmp ping\n.size pong, .-pong\n");

int main(void) {
  printf("%d\n", top(3));
  printf("%d\n", ping(1000));
  return 0;
}
