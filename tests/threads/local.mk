# SPDX-License-Identifier: MIT
# End-to-end tests of multi-threaded programs (tests/programs/thr_*): each is
# recorded, replayed with --verify, and debugged with real gdb through
# `rewind replay` (thread lists and names, breakpoints and watchpoints in
# any thread, stepping forwards and backwards in one thread). The scripts
# share tests/threads/lib.sh, which builds on tests/gdb/lib.sh and
# tests/recorder/lib.sh. Included from tests/local.mk.
rw_threads_sh = tests/threads/prodcons.sh tests/threads/spinlock.sh \
	tests/threads/pool.sh tests/threads/race.sh tests/threads/pipe.sh \
	tests/threads/cxx.sh tests/threads/python.sh
TESTS += $(rw_threads_sh)
EXTRA_DIST += tests/threads/lib.sh $(rw_threads_sh)
