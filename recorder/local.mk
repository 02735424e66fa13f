# SPDX-License-Identifier: MIT
# The ptrace recorder: recorder/recorder.h is its public header.
noinst_LIBRARIES += recorder/librw_recorder.a
recorder_librw_recorder_a_SOURCES = \
	recorder/recorder.h recorder/rec_int.h \
	recorder/record.c recorder/launch.c recorder/env.c recorder/cpufeat.c \
	recorder/cpuid.c \
	recorder/loop.c recorder/sysrec.c recorder/systable.c recorder/space.c recorder/follow.c \
	recorder/maps.c recorder/maplist.c recorder/attach.c recorder/image.c recorder/mem.c recorder/gendiff.c recorder/watch.c recorder/pages.c \
	recorder/blobs.c recorder/files.c recorder/signals.c recorder/children.c recorder/procs.c recorder/threads.c \
	recorder/ptregs.c recorder/emit.c recorder/backtrace.c \
	recorder/tscself.c recorder/tscpatch.c recorder/forced.c recorder/stack.c recorder/output.c \
	recorder/vdso.c recorder/vsyscall.c recorder/sbuf.c recorder/sbuf.h \
	recorder/wp.c recorder/keyframe.c recorder/kfmem.c recorder/ring.c
nodist_recorder_librw_recorder_a_SOURCES = recorder/sblib_bin.c
recorder_librw_recorder_a_CFLAGS = $(AM_CFLAGS) $(UNWIND_CFLAGS) $(CAPSTONE_CFLAGS)

# The syscall buffer's library, which the recorder maps into every recorded
# process: built without libc, linked flat at its fixed address, and kept
# in the recorder as bytes. Not with the build's CFLAGS: sanitizers and
# stack protectors would bring code it cannot have; -Os, as it must fit its
# two pages (recorder/sblib.lds).
SBLIB_CFLAGS = -Os -std=gnu11 -fno-pic -fno-pie -no-pie -static -nostdlib \
	-ffreestanding -fno-builtin -fno-stack-protector -fno-jump-tables \
	-fcf-protection=none -mgeneral-regs-only -mno-red-zone \
	-fasynchronous-unwind-tables -g1 -Wall -Wextra -Werror \
	-Wl,--build-id=none
BUILT_SOURCES = recorder/sblib_bin.c
EXTRA_DIST += recorder/sblib.c recorder/sblib.lds
CLEANFILES += recorder/sblib.elf recorder/sblib.bin recorder/sblib_bin.c
recorder/sblib_bin.c: $(srcdir)/recorder/sblib.c $(srcdir)/recorder/sbuf.h \
		$(srcdir)/recorder/sblib.lds
	$(AM_V_GEN)$(MKDIR_P) recorder && \
	$(CC) $(SBLIB_CFLAGS) -I$(srcdir) \
	  -Wl,-T,$(srcdir)/recorder/sblib.lds -o recorder/sblib.elf \
	  $(srcdir)/recorder/sblib.c && \
	$(OBJCOPY) -O binary -j .text recorder/sblib.elf recorder/sblib.bin && \
	{ echo '/* Generated from recorder/sblib.c: do not edit. */'; \
	  echo 'const unsigned char rec__sblib_start[] = {'; \
	  od -An -v -tx1 recorder/sblib.bin | \
	    sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '};'; \
	  echo 'const unsigned char *const rec__sblib_end ='; \
	  echo '    rec__sblib_start + sizeof rec__sblib_start;'; \
	  echo '/* The same as an ELF file, with its symbols and unwind tables,'; \
	  echo ' * for gdb (a trace keeps it: TRACE_META_SBLIB). */'; \
	  echo 'const unsigned char rec__sblib_elf[] = {'; \
	  od -An -v -tx1 recorder/sblib.elf | \
	    sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '};'; \
	  echo 'const unsigned long rec__sblib_elf_size = sizeof rec__sblib_elf;'; \
	  } > $@.tmp && \
	mv $@.tmp $@
