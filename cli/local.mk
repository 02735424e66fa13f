# SPDX-License-Identifier: MIT
bin_PROGRAMS += cli/rewind
cli_rewind_SOURCES = cli/main.c cli/cli.h cli/cmd_info.c cli/cmd_dump.c \
	cli/cmd_record.c cli/cmd_replay.c cli/cmd_serve.c
cli_rewind_LDADD = recorder/librw_recorder.a gdbstub/librw_gdbstub.a replayer/librw_replayer.a \
	replayer/cpu/librw_cpu.a format/librw_format.a common/librw_common.a \
	$(UNWIND_LIBS) $(ZSTD_LIBS) $(CAPSTONE_LIBS)
EXTRA_DIST += cli/commands.def
