# SPDX-License-Identifier: MIT
# The trace file library: writer, reader, index, blobs, record descriptions.
noinst_LIBRARIES += format/librw_format.a
format_librw_format_a_SOURCES = \
	format/format.h format/format_int.h format/writer_int.h \
	format/chunk.c format/writer.c format/wblob.c format/wmeta.c \
	format/windex.c format/reader.c format/index.c format/scan.c \
	format/cursor.c format/blob.c format/describe.c format/report.c \
	format/tracedir.c format/report_json.c format/check.c \
	format/records.h format/records.c format/ps.c format/join.c
format_librw_format_a_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(CRYPTO_CFLAGS)
EXTRA_DIST += format/records.def format/chunks.def
