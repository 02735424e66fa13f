# SPDX-License-Identifier: MIT
# End-to-end tests of the replayer: recordings of real programs replayed
# with --verify, seeking, and the errors of traces that cannot be replayed.
check_PROGRAMS += tests/programs/cxx_exceptions tests/programs/avx \
	tests/programs/rdrand
tests_programs_cxx_exceptions_SOURCES = tests/programs/cxx_exceptions.cpp
tests_programs_cxx_exceptions_CXXFLAGS = -O1 -g
tests_programs_avx_CFLAGS = -O1 -g
tests_programs_rdrand_CFLAGS = -O1 -g
rw_replay_tests = tests/replay/corpus.sh tests/replay/programs.sh \
	tests/replay/errors.sh tests/replay/elsewhere.sh
TESTS += $(rw_replay_tests)
EXTRA_DIST += $(rw_replay_tests)
