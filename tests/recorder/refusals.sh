#!/bin/bash
# SPDX-License-Identifier: MIT
# Refusals: a missing program, one that is not executable, a directory, a
# 32-bit or non-x86-64 ELF, an output that cannot be written, PROG already
# traced (rewind under strace -f). Each prints a clear message, exits
# non-zero and leaves no trace file. Also: a script without #! runs through
# /bin/sh like execvp does, and a setuid program is announced.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

# refuse NAME EXPECTED_STATUS MESSAGE_REGEX ARGS...
refuse() {
  local name=$1 want=$2 msg=$3
  shift 3
  "$REWIND" record -o "$T/$name.rwd" -- "$@" >"$T/$name.out" 2>"$T/$name.err"
  local st=$?
  if [ "$want" = any ]; then
    check "$name: non-zero exit" test "$st" -ne 0
  else
    check_eq "$name: exit status" "$want" "$st"
  fi
  check "$name: message" grep -Eq "$msg" "$T/$name.err"
  check "$name: no trace left" test ! -e "$T/$name.rwd"
}

refuse missing 127 "no-such-program-xyz: command not found" no-such-program-xyz
refuse missing_path 127 "No such file or directory" "$T/nothere"
printf '#!/bin/sh\necho hi\n' >"$T/noexec"
chmod 644 "$T/noexec"
refuse noexec 126 "Permission denied" "$T/noexec"
refuse directory 126 "Is a directory" "$T"
# ELF headers: 32-bit i386, and 64-bit AArch64.
printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\002\000\003\000' >"$T/elf32"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\267\000' >"$T/elfarm"
chmod 755 "$T/elf32" "$T/elfarm"
refuse elf32 any "is a 32-bit ELF program for machine 3 \(i386\); rewind records x86-64 programs only" "$T/elf32"
refuse elfarm any "is a 64-bit ELF program for machine 183; rewind records x86-64" "$T/elfarm"

# The output cannot be written.
"$REWIND" record -o "$T/no/such/dir/x.rwd" -- "$P/exitstatus" 0 2>"$T/out.err"
check "unwritable output: non-zero exit" test $? -ne 0
check "unwritable output: message" grep -q "cannot write the trace $T/no/such/dir/x.rwd" "$T/out.err"

# Already traced: rewind under strace -f, which follows its child.
if command -v strace >/dev/null; then
  strace -f -o /dev/null "$REWIND" record -o "$T/traced.rwd" -- "$P/exitstatus" 0 2>"$T/traced.err"
  check "traced: non-zero exit" test $? -ne 0
  check "traced: names the tracer" grep -q "already being traced by pid [0-9]* (strace)" "$T/traced.err"
  check "traced: no trace left" test ! -e "$T/traced.rwd"
fi

# A file without #! is a shell script (as for execvp).
printf 'echo via-sh "$1"\n' >"$T/plain"
chmod 755 "$T/plain"
rec plain "$T/plain" arg1
check_eq "script without #!: exit 0" 0 "$status"
check "script without #!: ran through sh" grep -q "via-sh arg1" "$T/plain.out"

# A setuid program, recorded by an unprivileged user, runs unprivileged.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  mkdir "$T/su" && chmod 777 "$T/su" && chmod 755 "$T"
  cp "$P/exitstatus" "$T/su/suid" && chmod 4755 "$T/su/suid"
  (cd "$T/su" && setpriv --reuid=nobody --regid=nogroup --clear-groups \
    "$REWIND" record -o "$T/su/su.rwd" "$T/su/suid" 3 2>"$T/su.err")
  check_eq "setuid: exit status" 3 "$?"
  check "setuid: says it runs without privileges" grep -q "runs without its privileges" "$T/su.err"
fi
# A full disk: the writer fails with ENOSPC (here /dev/full): a clear
# error, exit 1, and no "recorded ...; replay with" as if all were well.
"$REWIND" record -f -o /dev/full -- "$P/exitstatus" 0 >"$T/full.out" 2>"$T/full.err"
check_eq "full disk: exit status" 1 $?
check "full disk: says so" grep -q "No space left on device" "$T/full.err"
check "full disk: does not claim a recording" \
  test -z "$(grep -E '^rewind: recorded ' "$T/full.err")"
# The file stops growing mid-recording (a file size limit, as a full disk
# would): the failure is named, what was written is kept and is a trace
# cut off there, not a damaged one.
(trap '' XFSZ; ulimit -f 200
 "$REWIND" record -f -o "$T/fsz.rwd" -- "$P/exitstatus" 0 >"$T/fsz.out" 2>"$T/fsz.err")
check_eq "file too large: exit status" 1 $?
check "file too large: says so" grep -q "recording failed: File too large" "$T/fsz.err"
check "file too large: keeps what was written" \
  grep -q "holds what was recorded before the failure" "$T/fsz.err"
check "file too large: does not claim a whole recording" \
  test -z "$(grep -E '^rewind: recorded ' "$T/fsz.err")"
"$REWIND" info --check "$T/fsz.rwd" >"$T/fsz.check" 2>&1
check_eq "file too large: the trace is cut off, not damaged" 3 $?
# A program that traces a process itself (strace): the kernel refuses it,
# since rewind traces them already, and rewind says why at once.
if command -v strace >/dev/null; then
  timeout 60 "$REWIND" record -f -o "$T/st.rwd" -- strace -o /dev/null true \
    >"$T/st.out" 2>"$T/st.err"
  check_eq "strace under rewind: fails as the kernel refuses it" 1 $?
  check "strace under rewind: rewind says why" \
    grep -q "^rewind: warning: ptrace: the program traces a process itself" \
    "$T/st.err"
fi
finish
