# SPDX-License-Identifier: MIT
# Emulator benchmark (bench/RESULTS.md, "CPU emulator"). Built with the other
# programs but never run by make check; `make bench-cpu` runs it.
noinst_PROGRAMS += bench/cpu/cpubench
bench_cpu_cpubench_SOURCES = bench/cpu/cpubench.c
bench_cpu_cpubench_LDADD = replayer/cpu/librw_cpu.a common/librw_common.a \
	$(CAPSTONE_LIBS)

.PHONY: bench-cpu
bench-cpu: bench/cpu/cpubench
	bench/cpu/cpubench 3
