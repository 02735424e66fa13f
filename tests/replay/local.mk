# SPDX-License-Identifier: MIT
# End-to-end tests of the replayer: recordings of real programs replayed
# with --verify, seeking, and the errors of traces that cannot be replayed.
# The programs are built without sanitizers (empty LDFLAGS): the replay of a
# sanitizer runtime's terabytes of shadow mappings is not what is tested.
check_PROGRAMS += tests/programs/cxx_exceptions tests/programs/avx \
	tests/programs/rdrand
tests_programs_cxx_exceptions_SOURCES = tests/programs/cxx_exceptions.cpp
tests_programs_cxx_exceptions_CXXFLAGS = -O1 -g
tests_programs_cxx_exceptions_LDFLAGS =
tests_programs_avx_CFLAGS = -O1 -g
tests_programs_avx_LDFLAGS =
tests_programs_rdrand_CFLAGS = -O1 -g
tests_programs_rdrand_LDFLAGS =
rw_replay_tests = tests/replay/corpus.sh tests/replay/programs.sh \
	tests/replay/errors.sh tests/replay/elsewhere.sh
TESTS += $(rw_replay_tests)
EXTRA_DIST += $(rw_replay_tests)
