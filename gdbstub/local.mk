# SPDX-License-Identifier: MIT
# librw_gdbstub.a: the GDB remote protocol stub. Layers 1 (packet.c,
# reply.c) and 2 (cursor.c, parse.c, parse_query.c) and the target
# description (tdesc.c) know nothing of the replay; layer 3 (serve.c with
# serve_run.c, serve_bp.c, serve_query.c, serve_thread.c, vfile.c and
# monitor.c) answers requests against it.
noinst_LIBRARIES += gdbstub/librw_gdbstub.a
gdbstub_librw_gdbstub_a_SOURCES = \
	gdbstub/gdbstub.h gdbstub/gdbstub_int.h gdbstub/serve_int.h \
	gdbstub/packet.c gdbstub/reply.c \
	gdbstub/cursor.c gdbstub/parse.c gdbstub/parse_query.c \
	gdbstub/tdesc.c \
	gdbstub/serve.c gdbstub/serve_run.c gdbstub/serve_query.c \
	gdbstub/serve_bp.c gdbstub/serve_thread.c gdbstub/serve_divert.c \
	gdbstub/vfile.c gdbstub/monitor.c gdbstub/net.c
gdbstub_librw_gdbstub_a_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS)
EXTRA_DIST += gdbstub/requests.def gdbstub/gdbregs.def
