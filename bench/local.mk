# SPDX-License-Identifier: MIT
# Benchmarks are built with `make bench` and run by bench/run.sh; results are
# reported in bench/RESULTS.md, never asserted in tests.
EXTRA_DIST += bench/RESULTS.md
include bench/format/local.mk
include bench/record/local.mk
include bench/cpu/local.mk
