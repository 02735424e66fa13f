#!/bin/bash
# SPDX-License-Identifier: MIT
# `make install` as the README gives it, into a staging directory
# (DESTDIR): the binary, every man page and the bash completion land where
# they belong, and the installed rewind alone, on PATH in a temporary
# HOME, records a program, finds the trace again without its name and
# reverse-debugs it in gdb. `make uninstall` takes it all away again.
# Ends with "N passed, N failed".
set -u
src=$(cd "${top_srcdir:-.}" && pwd)
build=$(cd "${top_builddir:-.}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rw-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
check() { # name, command...
  local name=$1
  shift
  if "$@" >"$work/last.out" 2>&1; then pass=$((pass + 1)); echo "ok: $name"
  else fail=$((fail + 1)); echo "FAIL: $name"; sed 's/^/  /' "$work/last.out" | tail -20; fi
}
stage=$work/stage
prefix=$(sed -n 's/^prefix = //p' "$build/Makefile")
check "make install DESTDIR=..." make -s -C "$build" install DESTDIR="$stage"
bin=$stage$prefix/bin/rewind
check "the binary is installed" test -x "$bin"
check "  and runs: --version names the trace formats it reads" \
  sh -c "'$bin' --version | grep -q 'trace format'"
for page in $(cd "$src/man" && ls *.1 *.5); do
  sect=${page##*.}
  check "man page $page installed" test -s "$stage$prefix/share/man/man$sect/$page"
done
check "bash completion installed" \
  sh -c "ls '$stage$prefix'/share/bash-completion/completions/rewind"

# A new user with only the installed rewind on PATH.
export HOME=$work/home PATH=$stage$prefix/bin:$PATH
unset XDG_DATA_HOME REWIND_TRACE_DIR
mkdir -p "$HOME" "$work/cwd"
cd "$work/cwd" || exit 1
check "the installed rewind is the one on PATH" \
  sh -c "[ \"\$(command -v rewind)\" = '$bin' ]"
check "record without naming the trace" rewind record -- /bin/echo hello
check "  the trace is in the trace directory" \
  test -e "$HOME/.local/share/rewind/latest-trace"
check "rewind ls lists it" sh -c "rewind ls | grep -q echo"
check "replay --verify with no trace: the latest" rewind replay --verify
check "reverse-debug it with gdb, no trace named" sh -c \
  "rewind replay -- -batch -nx -ex continue -ex reverse-continue 2>&1 |
   grep -q 'No more reverse-execution history'"

check "make uninstall DESTDIR=..." make -s -C "$build" uninstall DESTDIR="$stage"
check "  leaves no file behind" \
  sh -c "[ -z \"\$(find '$stage' -type f)\" ] || { find '$stage' -type f; false; }"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
