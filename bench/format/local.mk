# SPDX-License-Identifier: MIT
# Trace format benchmark (bench/RESULTS.md, "Trace format"). Built with the
# other programs but never run by make check; `make bench-format` runs it.
noinst_PROGRAMS += bench/format/bench_format
bench_format_bench_format_SOURCES = bench/format/bench_format.c
bench_format_bench_format_LDADD = format/librw_format.a \
	common/librw_common.a $(ZSTD_LIBS) $(CRYPTO_LIBS)

.PHONY: bench-format
bench-format: bench/format/bench_format
	bench/format/bench_format -l -1 -l 0 -l 3
