# SPDX-License-Identifier: MIT
# End-to-end tests of the GDB stub: real gdb in batch mode on recorded
# programs (sessions.sh), the protocol driven byte by byte by a small
# python3 client (protocol.sh with protocol.py), and longloop, a long
# computation that puts positions over 1e8 instructions into the history;
# mi.sh with mi.py, gdb driven through GDB/MI as IDEs drive it (docs/ide.md);
# diverged.sh, gdb in a replay that diverges; syscalls.sh, catch syscall
# and the program's output during a replay; divert.sh, gdb's calls and
# set var on a copy of a moment of the replay; signals.sh, signal stops
# both ways.
# Included from tests/local.mk.
check_PROGRAMS += tests/programs/longloop
tests_programs_longloop_SOURCES = tests/programs/longloop.c
tests_programs_longloop_CFLAGS = -O0 -g
tests_programs_longloop_LDFLAGS =
TESTS += tests/gdb/sessions.sh tests/gdb/protocol.sh tests/gdb/mi.sh \
	tests/gdb/diverged.sh tests/gdb/syscalls.sh tests/gdb/divert.sh \
	tests/gdb/signals.sh
EXTRA_DIST += tests/gdb/lib.sh tests/gdb/sessions.sh tests/gdb/protocol.sh \
	tests/gdb/protocol.py tests/gdb/mi.sh tests/gdb/mi.py \
	tests/gdb/diverged.sh tests/gdb/syscalls.sh tests/gdb/divert.sh \
	tests/gdb/signals.sh
