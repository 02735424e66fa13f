# SPDX-License-Identifier: MIT
# Small programs, one per syscall family, that the recorder's end-to-end
# tests record (tests/recorder/*.sh). Built with -O1 -g so that backtraces
# and replays can name their functions.
rw_test_progs = tests/programs/files tests/programs/pipes \
	tests/programs/sockets tests/programs/timeprog tests/programs/randomness \
	tests/programs/memory tests/programs/signals tests/programs/rdtsc \
	tests/programs/cpuid tests/programs/envargs tests/programs/forks \
	tests/programs/proctree tests/programs/vforks tests/programs/forkserver \
	tests/programs/orphans tests/programs/corrupt tests/programs/shsem \
	tests/programs/exec_target tests/programs/crash \
	tests/programs/exitstatus tests/programs/threads tests/programs/spin \
	tests/programs/movdir tests/programs/xsavec tests/programs/sud \
	tests/programs/tsctrap tests/programs/badstack tests/programs/chatty \
	tests/programs/calls tests/programs/uaf tests/programs/reps \
	tests/programs/amxperm tests/programs/rewrites tests/programs/phase \
	tests/programs/tailcalls tests/programs/counts tests/programs/datapat \
	tests/programs/srclines tests/programs/killthreads tests/programs/forkadvice \
	tests/programs/childmem tests/programs/ptystop tests/programs/sbuf \
	tests/programs/forcedsig tests/programs/wpages tests/programs/attachee \
	tests/programs/clflush tests/programs/intn tests/programs/fsbase \
	tests/programs/divert tests/programs/unmapped tests/programs/resumeflag \
	tests/programs/patchsig tests/programs/sitewait \
	tests/programs/wronly tests/programs/killrace
check_PROGRAMS += $(rw_test_progs)
RW_PROG_CFLAGS = -O1 -g
tests_programs_unmapped_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_unmapped_LDFLAGS =
tests_programs_resumeflag_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_resumeflag_LDFLAGS =
tests_programs_patchsig_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_patchsig_LDFLAGS =
tests_programs_sitewait_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_sitewait_LDFLAGS = -pthread
tests_programs_wronly_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_wronly_LDFLAGS =
tests_programs_killrace_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_killrace_LDFLAGS =
tests_programs_attachee_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_attachee_LDFLAGS = -pthread
tests_programs_amxperm_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_amxperm_LDFLAGS =
tests_programs_files_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_files_LDFLAGS =
tests_programs_pipes_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_pipes_LDFLAGS =
tests_programs_sockets_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_sockets_LDFLAGS =
tests_programs_timeprog_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_timeprog_LDFLAGS =
tests_programs_randomness_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_randomness_LDFLAGS =
tests_programs_memory_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_memory_LDFLAGS =
tests_programs_signals_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_signals_LDFLAGS =
tests_programs_rdtsc_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_rdtsc_LDFLAGS =
tests_programs_cpuid_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_cpuid_LDFLAGS =
tests_programs_movdir_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_movdir_LDFLAGS =
tests_programs_clflush_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_clflush_LDFLAGS =
tests_programs_intn_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_intn_LDFLAGS =
tests_programs_fsbase_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_fsbase_LDFLAGS =
tests_programs_divert_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_divert_LDFLAGS =
tests_programs_xsavec_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_xsavec_LDFLAGS =
tests_programs_sud_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_sud_LDFLAGS =
tests_programs_tsctrap_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_tsctrap_LDFLAGS =
tests_programs_badstack_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_badstack_LDFLAGS =
tests_programs_envargs_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_envargs_LDFLAGS =
tests_programs_forks_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_forks_LDFLAGS =
tests_programs_orphans_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_orphans_LDFLAGS =
tests_programs_shsem_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_shsem_LDFLAGS =
tests_programs_shsem_LDADD = -lpthread
tests_programs_proctree_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_proctree_LDFLAGS =
tests_programs_proctree_LDADD = -lpthread
tests_programs_vforks_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_vforks_LDFLAGS =
tests_programs_vforks_LDADD = -lpthread
tests_programs_forkserver_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_forkserver_LDFLAGS =
tests_programs_corrupt_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_corrupt_LDFLAGS =
tests_programs_exec_target_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_exec_target_LDFLAGS =
tests_programs_crash_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_crash_LDFLAGS =
tests_programs_exitstatus_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_exitstatus_LDFLAGS =
tests_programs_threads_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_threads_LDFLAGS =
tests_programs_threads_LDADD = -lpthread
# The program's output and catch syscall in gdb (tests/gdb/syscalls.sh).
tests_programs_chatty_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_chatty_LDFLAGS =
tests_programs_chatty_LDADD = -lpthread
# Calls known exactly, for rewind analyze profile (tests/replay/profile.sh).
tests_programs_calls_CFLAGS = -O1 -g -fno-inline -fno-optimize-sibling-calls \
	-fno-ipa-icf \
	-pthread
tests_programs_calls_LDFLAGS =
tests_programs_calls_LDADD = -lpthread
# Rep string instructions of known iterations (tests/replay/reps.sh).
tests_programs_reps_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_reps_LDFLAGS =
# Instructions of known executions (tests/replay/counts.sh).
tests_programs_counts_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_counts_LDFLAGS =
# A child of two threads killed while one spins and one sleeps
# (tests/recorder/threads.sh).
tests_programs_killthreads_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_killthreads_LDFLAGS =
tests_programs_killthreads_LDADD = -lpthread
# Job control on a pty of the program's own (tests/recorder/stopsig.sh).
tests_programs_ptystop_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_ptystop_LDFLAGS =
# A parent writing into its child through /proc/CHILD/mem
# (tests/recorder/processes.sh).
tests_programs_childmem_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_childmem_LDFLAGS =
# Memory a fork does not copy as it is (tests/recorder/processes.sh).
tests_programs_forkadvice_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_forkadvice_LDFLAGS =
# Source lines of known executions (tests/replay/lines.sh).
tests_programs_srclines_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_srclines_LDFLAGS =
# A buffer accessed in a known pattern (tests/replay/counts.sh).
tests_programs_datapat_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_datapat_LDFLAGS =
# A use after free, for the memory history (tests/replay/history.sh).
tests_programs_uaf_CFLAGS = -O0 -g
tests_programs_uaf_LDFLAGS =
tests_programs_rewrites_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_rewrites_LDFLAGS =
tests_programs_rewrites_LDADD = -lpthread
tests_programs_phase_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_phase_LDFLAGS =
tests_programs_tailcalls_CFLAGS = -O2 -g
tests_programs_tailcalls_LDFLAGS =
tests_programs_spin_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_spin_LDFLAGS =
EXTRA_DIST += tests/programs/exec_wrapper.sh
# The recorder's thread events (tests/recorder/threads.sh).
check_PROGRAMS += tests/programs/thr_events
tests_programs_thr_events_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_events_LDFLAGS =
tests_programs_thr_events_LDADD = -lpthread

# Threads (tests/threads/*.sh): one program per way of using threads, and a
# python3 script. -pthread to compile, -lpthread to link (LDFLAGS stays
# empty so that no sanitizer runtime is linked).
rw_thr_progs = tests/programs/thr_prodcons tests/programs/thr_spinlock \
	tests/programs/thr_pool tests/programs/thr_race tests/programs/thr_pipe \
	tests/programs/thr_cxx tests/programs/thr_yield tests/programs/thr_pi \
	tests/programs/thr_restart tests/programs/kfwork tests/programs/kfcalls
check_PROGRAMS += $(rw_thr_progs) tests/programs/kfheap tests/programs/kftree \
	tests/programs/kffork
# Built with AddressSanitizer in every build (tests/recorder/sbuf.sh).
check_PROGRAMS += tests/programs/asanprog
tests_programs_asanprog_CFLAGS = $(RW_PROG_CFLAGS) -pthread -fsanitize=address
tests_programs_asanprog_LDFLAGS = -pthread -fsanitize=address
tests_programs_kfheap_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_kfheap_LDFLAGS =
tests_programs_kftree_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_kftree_LDFLAGS =
tests_programs_kffork_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_kffork_LDFLAGS =
tests_programs_kfwork_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_kfwork_LDFLAGS =
tests_programs_kfwork_LDADD = -lpthread
tests_programs_kfcalls_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_kfcalls_LDFLAGS =
tests_programs_kfcalls_LDADD = -lpthread
tests_programs_thr_restart_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_restart_LDFLAGS =
tests_programs_thr_restart_LDADD = -lpthread
tests_programs_thr_pi_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_pi_LDFLAGS =
tests_programs_thr_pi_LDADD = -lpthread
tests_programs_thr_yield_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_yield_LDFLAGS =
tests_programs_thr_yield_LDADD = -lpthread
tests_programs_thr_prodcons_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_prodcons_LDFLAGS =
tests_programs_thr_prodcons_LDADD = -lpthread
tests_programs_thr_spinlock_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_spinlock_LDFLAGS =
tests_programs_thr_spinlock_LDADD = -lpthread
tests_programs_thr_pool_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_pool_LDFLAGS =
tests_programs_thr_pool_LDADD = -lpthread
tests_programs_thr_race_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_race_LDFLAGS =
tests_programs_thr_race_LDADD = -lpthread
tests_programs_thr_pipe_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_pipe_LDFLAGS =
tests_programs_thr_pipe_LDADD = -lpthread
tests_programs_thr_cxx_SOURCES = tests/programs/thr_cxx.cpp
tests_programs_thr_cxx_CXXFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_thr_cxx_LDFLAGS =
tests_programs_thr_cxx_LDADD = -lpthread
EXTRA_DIST += tests/programs/thr_py.py

# Writes to its own /proc/self/mem (tests/replay/kernel.sh).
check_PROGRAMS += tests/programs/procmem
tests_programs_procmem_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_procmem_LDFLAGS =

# Finds the vDSO itself and calls it (tests/replay/kernel.sh).
check_PROGRAMS += tests/programs/vdso
tests_programs_vdso_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_vdso_LDFLAGS =

# Writes itself with process_vm_writev, execs with a signal blocked
# (tests/replay/kernel.sh).
check_PROGRAMS += tests/programs/selfseen
tests_programs_selfseen_CFLAGS = $(RW_PROG_CFLAGS)
tests_programs_selfseen_LDFLAGS =

# Calls into the legacy vsyscall page (tests/replay/kernel.sh).
check_PROGRAMS += tests/programs/vsyscall
tests_programs_vsyscall_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_vsyscall_LDFLAGS =
tests_programs_vsyscall_LDADD = -lpthread

# Asynchronous stops inside rep string instructions (tests/replay/search.sh).
check_PROGRAMS += tests/programs/repstop
tests_programs_repstop_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_repstop_LDFLAGS =
tests_programs_repstop_LDADD = -lpthread
# The vDSO's time functions through the syscall buffer
# (tests/recorder/sbuf.sh).
tests_programs_sbuf_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_sbuf_LDFLAGS =
tests_programs_sbuf_LDADD = -lpthread

# Dispositions rewind's traps must not change (tests/recorder/rdtsc.sh).
# Bound lazily, as a program is by default: its thread's lazy bindings
# leave XSAVE headers on a stack glibc keeps after the thread ended, which
# the digest leaves out since format 1.12 (tests/replay/search.sh).
tests_programs_forcedsig_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_forcedsig_LDFLAGS =
tests_programs_forcedsig_LDADD = -lpthread

# Memory changed every way between preemptions (tests/recorder/written.sh).
tests_programs_wpages_CFLAGS = $(RW_PROG_CFLAGS) -pthread
tests_programs_wpages_LDFLAGS =
tests_programs_wpages_LDADD = -lpthread
