# SPDX-License-Identifier: MIT
noinst_LIBRARIES += replayer/librw_replayer.a
replayer_librw_replayer_a_SOURCES = \
	replayer/replayer.h replayer/rp_int.h \
	replayer/replay.c replayer/user.c replayer/step.c replayer/search.c \
	replayer/space.c \
	replayer/check.c 	replayer/timeline.c replayer/symbols.c replayer/reverse.c \
	replayer/image.c replayer/procs.c replayer/threads.c replayer/digest.c \
	replayer/trim.c replayer/index.c replayer/segment.c \
	replayer/stack.c replayer/outputs.c replayer/prof_int.h replayer/profile.c \
	replayer/prof_write.c replayer/flame.c \
	replayer/history.c replayer/unwind.c replayer/sample.c \
	replayer/count_int.h replayer/counts.c replayer/count_out.c \
	replayer/datarange.c replayer/lines.c \
	replayer/umap.c replayer/divert.c replayer/prof_merge.c \
	replayer/prof_tree.c
replayer_librw_replayer_a_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS) \
	$(UNWIND_CFLAGS) $(DW_CFLAGS)
