#!/bin/bash
# SPDX-License-Identifier: MIT
# Layout rules of STYLE.md that a script can check: no component includes
# another's private header (R1), hand-written .c files stay under 1,500 lines
# (R2), every external symbol of a component library carries its prefix (R3),
# and every source file opens with an SPDX line (R16).
set -u
cd "${top_srcdir:-.}" || exit 1
fail=0
pass=0
check() { # name, status
  if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}

# R1: <comp>/<comp>_int.h is included only from inside <comp>/.
bad=0
while IFS=: read -r file _ line; do
  hdr=$(sed -n 's/.*#include *"\([^"]*_int\.h\)".*/\1/p' <<<"$line")
  [ -n "$hdr" ] || continue
  comp=${hdr%/*}
  case "$hdr" in */*) ;; *) comp=$(dirname "$file");; esac
  case "$file" in "$comp"/*|tests/*) ;; *) echo "  $file includes $hdr"; bad=1;; esac
done < <(grep -rn --include='*.c' --include='*.h' '#include.*_int\.h' \
           common format recorder replayer gdbstub cli 2>/dev/null)
check "R1: private headers stay inside their component" $bad

# R2: file size cap.
bad=0
for f in $(git ls-files '*.c' 2>/dev/null || find . -name '*.c'); do
  n=$(wc -l <"$f")
  if [ "$n" -gt 1500 ]; then echo "  $f has $n lines (cap 1500)"; bad=1; fi
done
check "R2: no .c file over 1,500 lines" $bad

# R3: prefixes of external symbols, per library (symbols the sanitizers add,
# such as __odr_asan.NAME, are the compiler's, not ours).
bad=0
b=${top_builddir:-.}
for spec in common/librw_common.a:rw_ format/librw_format.a:trace_ \
            recorder/librw_recorder.a:rec_ replayer/cpu/librw_cpu.a:cpu_ \
            replayer/librw_replayer.a:rp_ gdbstub/librw_gdbstub.a:gdb_; do
  lib=$b/${spec%%:*}; pre=${spec##*:}
  [ -f "$lib" ] || continue
  syms=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF==3 {print $3}' |
         grep -v "^$pre" | grep -v -E '^(rd_|wr_|__(odr_)?asan|__ubsan|__sancov)' ||
         true)
  if [ -n "$syms" ]; then echo "  $lib exports unprefixed: $(echo $syms)"; bad=1; fi
done
check "R3: external symbols carry their component prefix" $bad

# R16: SPDX line first in every C source and header.
bad=0
for f in $(git ls-files '*.c' '*.h' '*.def' 2>/dev/null); do
  head -n 2 "$f" | grep -q 'SPDX-License-Identifier' || { echo "  $f lacks an SPDX line"; bad=1; }
done
check "R16: every source file starts with an SPDX line" $bad

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
