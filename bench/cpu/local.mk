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

# vrcp14/vrsqrt14 of this CPU against the emulator's integer model (bench/
# RESULTS.md, "vrcp14 and vrsqrt14 on Zen 5"): minutes, on an AVX-512 host.
noinst_PROGRAMS += bench/cpu/approx14
bench_cpu_approx14_SOURCES = bench/cpu/approx14.c
bench_cpu_approx14_LDADD = replayer/cpu/librw_cpu.a common/librw_common.a \
	$(CAPSTONE_LIBS)

.PHONY: bench-approx14
bench-approx14: bench/cpu/approx14
	bench/cpu/approx14
