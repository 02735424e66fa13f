#!/bin/bash
# SPDX-License-Identifier: MIT
# The trace alone suffices: a program is recorded, then replayed where it
# and its libraries are not present. First a copied binary that is deleted
# after recording; then, in a new mount namespace, empty directories are
# mounted over the program's directory and the system library directory
# (rewind itself then runs from copies of the libraries it needs).
. "${top_srcdir:-.}/tests/recorder/lib.sh"

mkdir -p "$T/bin"
cp "$P/files" "$T/bin/files"
printf 'some known text\n' >"$T/known.txt"
mkdir -p "$T/work"
rec gone "$T/bin/files" "$T/known.txt" "$T/work"
check_eq "gone: recorded" 0 "$status"
rm -f "$T/bin/files"
"$REWIND" replay --verify --no-progress "$T/gone.rwd" >"$T/gone.replay" 2>&1
check "gone: verified without the binary" grep -q "^replay verified: .*exited with status 0" "$T/gone.replay"

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
  echo "SKIP: mount namespace: needs root and unshare"
  finish
fi
rec ls ls -l /usr/share/doc
libdir=$(dirname "$(readlink -f "$(ldd /bin/ls | awk '/libc.so/ {print $3}')")")
# Copies of what rewind itself needs, outside the directories hidden below.
mkdir -p "$T/lib"
mnt=$(command -v mount)
for l in $(ldd "$REWIND" "$mnt" | awk '/=> \// {print $3} /ld-linux/ {print $1}'); do
  cp -L "$l" "$T/lib/"
done
cp "$mnt" "$T/lib/mount"
loader=$(ls "$T"/lib/ld-linux-x86-64.so.* | head -n 1)
run="'$loader' --library-path '$T/lib'"
unshare -m bash -c "
  $run '$T/lib/mount' -t tmpfs none '$libdir' &&
  $run '$T/lib/mount' -t tmpfs none /usr/bin &&
  test ! -e '$libdir/libc.so.6' && test ! -e /usr/bin/ls &&
  $run '$REWIND' replay --verify --no-progress '$T/ls.rwd'
" >"$T/ls.replay" 2>&1
check "elsewhere: ls verified with /usr/bin and $libdir hidden" \
  grep -q "^replay verified: .*exited with status 0" "$T/ls.replay"
grep -q "^replay verified" "$T/ls.replay" || cat "$T/ls.replay"
finish
