/* SPDX-License-Identifier: MIT */
/* Test program, an exit status: exits with the number given as argv[1]. */
#include <stdlib.h>

int main(int argc, char **argv) { return argc > 1 ? atoi(argv[1]) : 0; }
