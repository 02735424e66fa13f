# SPDX-License-Identifier: MIT
# The ptrace recorder: recorder/recorder.h is its public header.
noinst_LIBRARIES += recorder/librw_recorder.a
recorder_librw_recorder_a_SOURCES = \
	recorder/recorder.h recorder/rec_int.h \
	recorder/record.c recorder/launch.c recorder/env.c recorder/cpufeat.c \
	recorder/cpuid.c \
	recorder/loop.c recorder/sysrec.c recorder/systable.c recorder/space.c recorder/follow.c \
	recorder/maps.c recorder/maplist.c recorder/image.c recorder/mem.c recorder/gendiff.c recorder/watch.c recorder/pages.c \
	recorder/blobs.c recorder/files.c recorder/signals.c recorder/children.c recorder/procs.c recorder/threads.c \
	recorder/ptregs.c recorder/emit.c recorder/backtrace.c \
	recorder/tscself.c recorder/tscpatch.c recorder/stack.c recorder/output.c \
	recorder/vdso.c recorder/vsyscall.c
recorder_librw_recorder_a_CFLAGS = $(AM_CFLAGS) $(UNWIND_CFLAGS) $(CAPSTONE_CFLAGS)
