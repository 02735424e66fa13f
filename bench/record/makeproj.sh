#!/bin/bash
# SPDX-License-Identifier: MIT
# Writes a small C project into DIR for bench/record/sbuf.sh: 24 source
# files of a few functions each, a header, and a Makefile that builds them
# into one program (make -j2 then runs 24 compilers and a link).
#   bench/record/makeproj.sh DIR
set -eu
d=${1:?usage: makeproj.sh DIR}
mkdir -p "$d"
printf 'int f_%d(int);\n' $(seq 0 23) >"$d/all.h"
for i in $(seq 0 23); do
  cat >"$d/f$i.c" <<C
#include <stdio.h>
#include <string.h>
#include "all.h"
static int helper(int x) { return x * $i + (int)strlen("file $i"); }
int f_$i(int x) {
  int s = 0;
  for (int k = 0; k < x; k++) s += helper(k) % 7;
  return s;
}
C
done
{
  echo '#include <stdio.h>'
  echo '#include "all.h"'
  echo 'int main(void) { int s = 0;'
  for i in $(seq 0 23); do echo "  s += f_$i(10);"; done
  echo '  printf("%d\n", s); return 0; }'
} >"$d/main.c"
{
  echo 'OBJS = main.o'" $(for i in $(seq 0 23); do printf 'f%d.o ' "$i"; done)"
  echo 'prog: $(OBJS)'
  printf '\t$(CC) -o $@ $(OBJS)\n'
  echo '%.o: %.c all.h'
  printf '\t$(CC) -O1 -c -o $@ $<\n'
  echo 'clean:'
  printf '\trm -f prog *.o\n'
} >"$d/Makefile"
