# SPDX-License-Identifier: MIT
# The pages of `rewind replay` (gdb, --listen, --verify, --goto) and
# `rewind serve`.
dist_man_MANS += man/rewind-replay.1 man/rewind-serve.1 man/rewind-trim.1 \
	man/rewind-index.1 man/rewind-join.1
