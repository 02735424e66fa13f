# SPDX-License-Identifier: MIT
# librw_gdbstub.a: the GDB remote protocol stub. Layers 1 (packet.c,
# reply.c) and 2 (cursor.c, parse.c, parse_query.c) and the target
# description (tdesc.c); serve.c (layer 3) will join them.
noinst_LIBRARIES += gdbstub/librw_gdbstub.a
gdbstub_librw_gdbstub_a_SOURCES = \
	gdbstub/gdbstub.h gdbstub/gdbstub_int.h \
	gdbstub/packet.c gdbstub/reply.c \
	gdbstub/cursor.c gdbstub/parse.c gdbstub/parse_query.c \
	gdbstub/tdesc.c
EXTRA_DIST += gdbstub/requests.def gdbstub/gdbregs.def
