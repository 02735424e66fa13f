# SPDX-License-Identifier: MIT
# The x86-64 emulator (DESIGN.md section 4). One .c per instruction family
# plus its .def of table rows; see replayer/cpu/README.md to add one.
noinst_LIBRARIES += replayer/cpu/librw_cpu.a
replayer_cpu_librw_cpu_a_SOURCES = \
	replayer/cpu/cpu.h replayer/cpu/cpu_int.h replayer/cpu/cpu_variant.h \
	replayer/cpu/cpu.c replayer/cpu/mem.c replayer/cpu/tlb.c \
	replayer/cpu/decode.c replayer/cpu/icache.c replayer/cpu/run.c \
	replayer/cpu/jit.c replayer/cpu/jit_int.h replayer/cpu/jit_sse.c \
	replayer/cpu/xinuse.c \
	replayer/cpu/flags.c replayer/cpu/fault.c \
	replayer/cpu/alu.c replayer/cpu/mov.c replayer/cpu/stack.c \
	replayer/cpu/branch.c replayer/cpu/shift.c replayer/cpu/muldiv.c \
	replayer/cpu/bit.c replayer/cpu/string.c replayer/cpu/system.c \
	replayer/cpu/tsx.c
replayer_cpu_librw_cpu_a_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS)
EXTRA_DIST += replayer/cpu/README.md replayer/cpu/forms.def \
	replayer/cpu/families.def replayer/cpu/alu.def replayer/cpu/mov.def \
	replayer/cpu/stack.def replayer/cpu/branch.def replayer/cpu/shift.def \
	replayer/cpu/muldiv.def replayer/cpu/bit.def replayer/cpu/string.def \
	replayer/cpu/system.def replayer/cpu/tsx.def
replayer_cpu_librw_cpu_a_SOURCES += replayer/cpu/x87.h replayer/cpu/x87.c \
	replayer/cpu/x87_host.c
EXTRA_DIST += replayer/cpu/x87.def
replayer_cpu_librw_cpu_a_SOURCES += replayer/cpu/sse_util.h \
	replayer/cpu/sse_fpu.c replayer/cpu/sse_mov.c replayer/cpu/sse_arith.c \
	replayer/cpu/sse_fcmp.c replayer/cpu/sse_cvt.c replayer/cpu/sse_int.c \
	replayer/cpu/sse_shift.c replayer/cpu/sse_shuf.c \
	replayer/cpu/sse_cmpstr.c replayer/cpu/sse_state.c replayer/cpu/crypto.c \
	replayer/cpu/avx.c replayer/cpu/fma.c replayer/cpu/mmx.c \
	replayer/cpu/gfni.c replayer/cpu/host.c \
	replayer/cpu/vexraw.c replayer/cpu/movdir.c replayer/cpu/pku.c \
	replayer/cpu/feature.c \
	replayer/cpu/evex.h replayer/cpu/evex.c \
	replayer/cpu/evex_ops.c replayer/cpu/evex_fp.c \
	replayer/cpu/evex_gs.c replayer/cpu/evex_fpx.c \
	replayer/cpu/evex_cvt.c replayer/cpu/evex_shuf.c \
	replayer/cpu/evex_dot.c replayer/cpu/evex_aes.c \
	replayer/cpu/evex_fp16.c \
	replayer/cpu/softfp.h \
	replayer/cpu/softfp.c replayer/cpu/softfp_approx.c
EXTRA_DIST += replayer/cpu/sse_hops.def replayer/cpu/sse_mov.def \
	replayer/cpu/sse_arith.def replayer/cpu/sse_fcmp.def \
	replayer/cpu/sse_cvt.def replayer/cpu/sse_int.def \
	replayer/cpu/sse_shift.def replayer/cpu/sse_shuf.def \
	replayer/cpu/avx.def \
	replayer/cpu/sse_cmpstr.def replayer/cpu/sse_state.def \
	replayer/cpu/crypto.def replayer/cpu/fma.def replayer/cpu/mmx.def \
	replayer/cpu/gfni.def replayer/cpu/evex_ids.def replayer/cpu/features.def
