# SPDX-License-Identifier: MIT
bin_PROGRAMS += cli/rewind
cli_rewind_SOURCES = cli/main.c cli/cli.h cli/cmd_info.c cli/cmd_dump.c \
	cli/cmd_record.c cli/cmd_replay.c cli/cmd_serve.c \
	cli/opts.c cli/cmd_ls.c cli/cmd_ps.c cli/pick.c cli/cmd_analyze.c \
	cli/cmd_analyze_mem.c cli/analyze.h \
	cli/sysroot.c cli/cmd_trim.c cli/cmd_index.c cli/segments.c cli/cmd_join.c
cli_rewind_LDADD = recorder/librw_recorder.a gdbstub/librw_gdbstub.a replayer/librw_replayer.a \
	replayer/cpu/librw_cpu.a format/librw_format.a common/librw_common.a \
	$(UNWIND_LIBS) $(ZSTD_LIBS) $(CRYPTO_LIBS) $(CAPSTONE_LIBS) $(DW_LIBS)
EXTRA_DIST += cli/commands.def

# bash completion, where bash-completion looks for it.
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = cli/rewind.bash
install-data-hook::
	cd $(DESTDIR)$(bashcompletiondir) && mv -f rewind.bash rewind
uninstall-hook::
	rm -f $(DESTDIR)$(bashcompletiondir)/rewind
