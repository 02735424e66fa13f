# SPDX-License-Identifier: MIT
# Man pages of the trace format and the commands that read it.
dist_man_MANS += man/rewind-trace.5 man/rewind-info.1 man/rewind-dump.1 \
	man/rewind-ls.1 man/rewind-ps.1 man/rewind-analyze.1
