# SPDX-License-Identifier: MIT
noinst_LIBRARIES += format/librw_format.a
format_librw_format_a_SOURCES = \
	format/format.h format/format_int.h
format_librw_format_a_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
EXTRA_DIST += format/records.def format/chunks.def
