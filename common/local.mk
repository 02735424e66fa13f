# SPDX-License-Identifier: MIT
noinst_LIBRARIES += common/librw_common.a
common_librw_common_a_SOURCES = \
	common/rw.h common/endian.h common/regs.h \
	common/errors.c common/log.c common/regs.c \
	common/crc32c.c common/sha256.c \
	common/digest.h common/digest.c common/syscalls.c \
	common/outbuf.h common/outbuf.c common/isa.h common/isa.c
common_librw_common_a_CFLAGS = $(AM_CFLAGS) $(CRYPTO_CFLAGS)
EXTRA_DIST += common/errors.def common/regs.def common/syscalls.def
