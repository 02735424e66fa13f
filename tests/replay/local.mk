# SPDX-License-Identifier: MIT
# End-to-end tests of the replayer: recordings of real programs replayed
# with --verify, seeking, and the errors of traces that cannot be replayed.
check_PROGRAMS += tests/programs/cxx_exceptions
tests_programs_cxx_exceptions_SOURCES = tests/programs/cxx_exceptions.cpp
tests_programs_cxx_exceptions_CXXFLAGS = -O1 -g
TESTS += tests/replay/corpus.sh tests/replay/programs.sh
EXTRA_DIST += tests/replay/corpus.sh tests/replay/programs.sh
