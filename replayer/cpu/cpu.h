/* SPDX-License-Identifier: MIT */
/* The x86-64 user-mode emulator used by the replayer (DESIGN.md section 4):
 * an address space of copy-on-write pages that can be snapshotted cheaply,
 * threads bound to it, and cpu_run(), which executes under an exact
 * instruction budget and returns why it stopped. It knows nothing about
 * traces, syscalls' meaning or gdb; the replayer and the stub drive it.
 *
 * Counting: each instruction counts as one step, and each iteration of a rep
 * string instruction counts as one step, as single-stepping sees it; a rep
 * instruction with rcx == 0 counts as one step. */
#ifndef RW_REPLAYER_CPU_CPU_H
#define RW_REPLAYER_CPU_CPU_H

#include "common/regs.h"
#include "common/rw.h"

/* An address space, shared by the threads of one process. Not thread-safe:
 * the threads bound to one cpu_mem must not run concurrently (the replayer
 * runs one thread at a time). */
typedef struct cpu_mem cpu_mem;
/* One thread's processor state, bound to a cpu_mem. (Handlers inside the
 * emulator name it struct cpu.) */
typedef struct cpu cpu_thread;
/* A frozen copy of an address space (mappings, protections and contents). */
typedef struct cpu_snap cpu_snap;

#define CPU_PAGE_SIZE 4096u

/* Protection bits of a mapping. A page is readable only with CPU_PROT_READ
 * (x86 makes writable pages readable, so map W pages with R|W). */
enum {
  CPU_PROT_NONE = 0,
  CPU_PROT_READ = 1,
  CPU_PROT_WRITE = 2,
  CPU_PROT_EXEC = 4
};

/* ---- Address space ---------------------------------------------------- */

/* Creates an empty address space in *OUT. Returns 0 or RW_ENOMEM. */
int cpu_mem_new(cpu_mem **out) RW_MUST_CHECK;

/* Frees MEM and its pages (accepts NULL). Every cpu bound to MEM must have
 * been freed first; snapshots of MEM stay valid (they hold their pages). */
void cpu_mem_free(cpu_mem *mem);

/* Maps [ADDR, ADDR+LEN) with PROT, replacing what was there; the new pages
 * read as zeros and cost no memory until written. ADDR and LEN must be
 * multiples of CPU_PAGE_SIZE and the range below 2^47. Returns 0, RW_EINVAL
 * or RW_ENOMEM. */
int cpu_mem_map(cpu_mem *mem, u64 addr, u64 len, int prot) RW_MUST_CHECK;

/* Changes the protection of the mapped pages in [ADDR, ADDR+LEN) (pages
 * not mapped are skipped, as mprotect would fail on them: RW_ENOTFOUND is
 * returned after changing the others). Returns 0, RW_EINVAL, RW_ENOTFOUND or
 * RW_ENOMEM. */
int cpu_mem_protect(cpu_mem *mem, u64 addr, u64 len, int prot) RW_MUST_CHECK;

/* Unmaps [ADDR, ADDR+LEN); unmapped pages in the range are ignored.
 * Returns 0, RW_EINVAL or RW_ENOMEM. */
int cpu_mem_unmap(cpu_mem *mem, u64 addr, u64 len) RW_MUST_CHECK;

/* Privileged copy of LEN bytes at guest ADDR into DST (caller-owned),
 * ignoring protection (for the loader, gdb and divergence reports). Returns
 * 0, or RW_EFAULT if a page of the range is not mapped (nothing useful is in
 * DST then). */
int cpu_mem_read(cpu_mem *mem, u64 addr, void *dst, size_t len) RW_MUST_CHECK;

/* A number that changes whenever code MEM had decoded is dropped (its page
 * written, unmapped or its protection changed): code read from MEM before
 * may not be what is there now. */
u64 cpu_mem_code_gen(const cpu_mem *mem);

/* Privileged copy of LEN bytes from SRC (borrowed) to guest ADDR, ignoring
 * protection (for the loader and memory imports). Decoded code on the pages
 * written is invalidated. Returns 0, RW_EFAULT if a page of the range is not
 * mapped (nothing is written then), or RW_ENOMEM. */
int cpu_mem_write(cpu_mem *mem, u64 addr, const void *src,
                  size_t len) RW_MUST_CHECK;

/* Ranges that are the same bytes: a MAP_SHARED mapping seen at two places
 * (two mappings of one file, a memfd mapped twice, mremap of a shared
 * mapping with old size 0). Entries with the same OBJECT are aliases of the
 * object's bytes from OFFSET on: a write into one, by a thread or by
 * cpu_mem_write, is made in every other one too. */
struct cpu_alias {
  u64 start, end; /* [start, end), page-aligned */
  u64 object;     /* nonzero */
  u64 offset;     /* the object's byte at start */
};

/* Replaces MEM's aliases with the N entries at V (copied). Entries whose
 * object has no other entry are dropped. Returns 0 or RW_ENOMEM. */
int cpu_mem_alias_set(cpu_mem *mem, const struct cpu_alias *v,
                      size_t n) RW_MUST_CHECK;

/* The bytes of the mapped page at PAGE (a multiple of CPU_PAGE_SIZE), read
 * in place: *BYTES points at them (borrowed, valid until the next write to
 * MEM or change of its mappings), or is NULL when the page was not written
 * since it was mapped (it reads as zeros). Returns 0, or RW_EFAULT when the
 * page is not mapped. For passes over much memory (the replayer's digest). */
int cpu_mem_peek(cpu_mem *mem, u64 page, const u8 **bytes) RW_MUST_CHECK;

/* Describes the mapping that contains ADDR, or the first one above it:
 * *START and *LEN cover the maximal run of pages with the same protection,
 * *PROT is that protection. Returns 0, or RW_ENOTFOUND if nothing is mapped
 * at or above ADDR. */
int cpu_mem_query(cpu_mem *mem, u64 addr, u64 *start, u64 *len,
                  int *prot) RW_MUST_CHECK;

/* The protection (CPU_PROT_*) of the page at PAGE, or -1 when it is not
 * mapped. */
int cpu_mem_page_prot(const cpu_mem *mem, u64 page);

/* The first mapped page at or above ADDR that was written since it was
 * mapped (the others read as zeros): its address in *PAGE, protection in
 * *PROT and bytes in *BYTES (borrowed, as for cpu_mem_peek). Returns 0 or
 * RW_ENOTFOUND. Skips never-written memory by whole table subtrees, so a
 * pass over the pages that hold something costs what they are, not what
 * is mapped. */
int cpu_mem_next_data(const cpu_mem *mem, u64 addr, u64 *page, int *prot,
                      const u8 **bytes) RW_MUST_CHECK;

/* Bytes of host memory held by MEM's page table and pages and by its
 * snapshots, each page once however many share it. For keyframe budgets,
 * tests and `rewind info`. */
size_t cpu_mem_footprint(const cpu_mem *mem);

/* Bytes of the pages MEM itself maps and has written (the program's
 * memory, shared with snapshots or not). A walk over the whole table. */
size_t cpu_mem_resident(const cpu_mem *mem);

/* Freezes MEM into a new snapshot *OUT. Costs a reference count: pages
 * written afterwards are duplicated on their first write. Returns 0 or
 * RW_ENOMEM. */
int cpu_mem_snapshot(cpu_mem *mem, cpu_snap **out) RW_MUST_CHECK;

/* Makes MEM's mappings and contents those of SNAP (borrowed; it stays
 * usable, so one keyframe can be restored many times). All decoded code of
 * MEM is dropped. Returns 0 or RW_ENOMEM. */
int cpu_mem_restore(cpu_mem *mem, const cpu_snap *snap) RW_MUST_CHECK;

/* Frees SNAP (accepts NULL). Snapshots are freed before their space. */
void cpu_snap_free(cpu_snap *snap);

/* A second handle on the state SNAP (borrowed) froze, in *OUT, to be freed
 * with cpu_snap_free: one reference, no copy. Returns 0 or RW_ENOMEM. */
int cpu_snap_dup(const cpu_snap *snap, cpu_snap **out) RW_MUST_CHECK;

/* Whether the pages of [ADDR, ADDR+LEN) are the very same in snapshots A
 * and B (borrowed, of one space): the same page objects with the same
 * protections. A page written between two states of one history is a new
 * copy afterwards (the earlier state still holds the old one), so for two
 * states of one replay, the earlier taken before the later in its history,
 * 1 means no write (by a thread or cpu_mem_write) and no mapping change
 * touched the range in between. 0 says only that one may have. A walk of
 * the tables that stops at every subtree the two share. */
int cpu_snap_same(const cpu_snap *a, const cpu_snap *b, u64 addr, u64 len);

/* ON: MEM's pages remember, between two snapshots, which of their 64-byte
 * lines were written (by threads or cpu_mem_write), and cpu_snap_same
 * answers for bytes, not pages, where they do: a page written a few times
 * keeps that record, a busy one is counted as written throughout (its
 * writes go through the slow path a few times per snapshot, then the TLB
 * takes them). A page shared in from another space (cpu_mem_share_page)
 * is written as a copy instead. Off by default: it is for the debugger's
 * write index, not for runs that never look back. */
void cpu_mem_track_lines(cpu_mem *mem, int on);

/* Whether MEM's page at PAGE holds the very page object SNAP (a snapshot
 * of MEM) holds there, one with bytes in it: nothing wrote the page in
 * between, whatever happened to its protection. */
int cpu_mem_page_kept(const cpu_mem *mem, const cpu_snap *snap, u64 page);

/* Makes MEM's mapped page at PAGE hold FROM's bytes there (FROM: another
 * space) by sharing FROM's page, one reference and no copy (the next write
 * to either side copies it), and returns 1; returns 0 and changes nothing
 * when either is not mapped there, FROM's page was never written, or
 * MEM's is aliased (its writes go elsewhere too); RW_ENOMEM. A keyframe's
 * state loaded beside a replay that holds most of it (replayer/segment.c)
 * takes those pages so, without reading them from the trace. */
int cpu_mem_share_page(cpu_mem *mem, u64 page, cpu_mem *from) RW_MUST_CHECK;

/* Dirty-page tracking, for work that depends on memory contents and wants
 * to redo only what the threads changed. cpu_mem_dirty_start (re)starts
 * recording the lowest and highest page written since, by the threads or
 * by cpu_mem_write (a mapping change or a restore counts as everything);
 * it costs a TLB flush then, and a compare on each write that misses the
 * TLB while on (nothing when off). cpu_mem_dirty_span stores them in *LO
 * and *HI (page addresses) and returns 1, or 0 when nothing was written;
 * cpu_mem_dirty_stop ends the recording. */
#define CPU_DIRTY_MAX 64
void cpu_mem_dirty_start(cpu_mem *mem);
void cpu_mem_dirty_stop(cpu_mem *mem);
int cpu_mem_dirty_span(const cpu_mem *mem, u64 *lo, u64 *hi);
/* The pages written since cpu_mem_dirty_start, when they are few (at most
 * CPU_DIRTY_MAX): sets
 * *PAGES (borrowed, in no order, valid until the next write) and returns
 * their number, or (size_t)-1 when there were too many to list (then only
 * the span is known). */
size_t cpu_mem_dirty_pages(const cpu_mem *mem, const u64 **pages);

/* The length of the instruction in the N bytes at B (its address RIP)
 * when it is one the emulator decodes itself because Capstone 4 cannot:
 * EVEX, VEX opmask and the other VEX forms, movdiri, movdir64b, rdpkru,
 * wrpkru, clzero, hint nops. None of them is a branch. 0 for any other
 * bytes, or too few. */
unsigned cpu_insn_length(const u8 *b, unsigned n, u64 rip);

/* ---- Breakpoints and watchpoints (per address space) ------------------ */

/* Adds a breakpoint at ADDR: cpu_run stops with CPU_EXIT_BREAKPOINT before
 * executing the instruction at ADDR, except when that instruction is the
 * first one of the cpu_run call (so a run started at a breakpoint steps off
 * it). Decoded blocks that contain ADDR are dropped. Adding an existing
 * breakpoint is not an error. Returns 0 or RW_ENOMEM. */
int cpu_mem_break_add(cpu_mem *mem, u64 addr) RW_MUST_CHECK;

/* Removes the breakpoint at ADDR. Returns 0 or RW_ENOTFOUND. */
int cpu_mem_break_del(cpu_mem *mem, u64 addr) RW_MUST_CHECK;

/* Watch kinds, as gdb's watch (WRITE), rwatch (READ) and awatch (both). */
enum { CPU_WATCH_READ = 1, CPU_WATCH_WRITE = 2 };

/* Watches [ADDR, ADDR+LEN) for KIND accesses. The instruction that makes a
 * matching access completes, then cpu_run stops with CPU_EXIT_WATCHPOINT
 * (a rep string instruction stops after the iteration). Pages holding a
 * watched range are kept out of the fast TLB, so watchpoints cost nothing
 * elsewhere. Returns 0, RW_EINVAL (LEN 0) or RW_ENOMEM. */
int cpu_mem_watch_add(cpu_mem *mem, u64 addr, u64 len, int kind) RW_MUST_CHECK;
/* Has every instruction's access to [ADDR, ADDR+LEN) of MEM reported to
 * the observer of the thread making it (struct cpu_observer.on_access),
 * once the access is done, without stopping; LEN 0 ends it. One range per
 * address space. Its pages are kept out of the fast TLB, as a watch's. */
void cpu_mem_observe(cpu_mem *mem, u64 addr, u64 len);
/* Rep stops of MEM's threads (CPU_EXIT_REP): MODE CPU_REP_STOP_START stops
 * before every rep string instruction starts (not when one resumes after
 * a pause; the next cpu_run at the same instruction runs it), and
 * CPU_REP_STOP_END after every one ends (its count ran out or its
 * condition ended it; not a fault); 0 none. */
enum { CPU_REP_STOP_START = 1, CPU_REP_STOP_END = 2 };
void cpu_mem_rep_stops(cpu_mem *mem, int mode);

/* Removes the watch added with the same ADDR, LEN and KIND. Returns 0 or
 * RW_ENOTFOUND. */
int cpu_mem_watch_del(cpu_mem *mem, u64 addr, u64 len, int kind) RW_MUST_CHECK;

/* Makes the breakpoint at ADDR conditional for CPU: cpu_run stops CPU
 * there only when its 16 general registers (rax..r15) equal GPR (copied).
 * Other breakpoints and other threads are not affected; GPR NULL removes
 * the condition. The condition is checked where the breakpoint would stop,
 * so it costs nothing elsewhere (the replayer's search for an asynchronous
 * point, which would otherwise stop at every iteration of a loop). */
void cpu_break_cond(cpu_thread *cpu, u64 addr, const u64 gpr[16]);

/* ---- Threads ---------------------------------------------------------- */

/* Answers for instructions whose result comes from the recording. Plain
 * data. A callback returning nonzero, or left NULL, makes cpu_run stop
 * before the instruction with CPU_EXIT_CPUID or CPU_EXIT_RDTSC, so the
 * caller can answer it by setting registers and rip itself. */
struct cpu_config {
  /* cpuid leaf EAX, subleaf ECX: fill OUT with eax, ebx, ecx, edx. */
  int (*cpuid)(void *ctx, u32 leaf, u32 subleaf, u32 out[4]);
  /* rdtsc/rdtscp: fill *TSC, and *AUX (rdtscp's ecx, IA32_TSC_AUX). */
  int (*rdtsc)(void *ctx, u64 *tsc, u32 *aux);
  void *ctx;  /* passed to the callbacks, borrowed */
  u64 xcr0;   /* what xgetbv with ecx=0 returns; 0 means 3 (x87 and SSE) */
  int vendor; /* CPU_VENDOR_*: whose rules the flags the manuals leave
                 undefined follow; CPU_VENDOR_HOST means this machine's */
  u32 family; /* the display family (cpu_family_of) whose rules apply
                 where a vendor's families differ; 0: the newest known,
                 or with CPU_VENDOR_HOST this machine's */
  u32 model;  /* the display model (cpu_model_of) of that family, where
                 one family's models differ (AMD family 0x19 holds both
                 Zen 3 and Zen 4); with CPU_VENDOR_HOST this machine's */
};

/* Processor vendors whose flag results differ (docs/flags.md). */
enum {
  CPU_VENDOR_HOST = 0, /* cpu_new replaces it with the host's vendor */
  CPU_VENDOR_INTEL,    /* GenuineIntel, and every vendor not listed */
  CPU_VENDOR_AMD       /* AuthenticAMD, HygonGenuine */
};

/* Whether the emulator computes every instruction with its portable
 * routines (1), or uses the host's own instructions where they give the
 * same results (0, the default where the host has them). cpu_set_portable
 * forces the portable routines (ON 1) or returns to the default (ON 0);
 * REWIND_CPU_PORTABLE=1 in the environment forces them too. */
void cpu_set_portable(int on);
int cpu_portable(void);

/* The translator (replayer/cpu/jit.c): blocks that run often are
 * translated to host code with the interpreter's exact semantics. MODE 0
 * turns it off (every instruction interpreted), 1 translates hot blocks
 * (the default), 2 translates every block the first time it runs (tests).
 * REWIND_JIT=0, 1 or always in the environment sets the default. A change
 * applies to blocks decoded afterwards. */
void cpu_set_jit(int mode);
int cpu_jit(void);

/* What the translator of an address space did. */
struct cpu_jit_stats {
  u64 blocks;        /* blocks translated */
  u64 insns;         /* instructions of theirs turned into host code (the
                        others call their handlers) */
  u64 flushes;       /* times the code cache filled and was emptied */
  size_t cache_used; /* bytes of host code in the cache now */
  size_t cache_size; /* its bound */
};
void cpu_mem_jit_stats(const cpu_mem *mem, struct cpu_jit_stats *st);
/* The same summed over every address space of the process, with
 * cache_used the most any one of them held. */
void cpu_jit_totals(struct cpu_jit_stats *st);

/* The vendor named by cpuid leaf 0's EBX, EDX, ECX (the 12-character vendor
 * string, in that order): CPU_VENDOR_AMD or CPU_VENDOR_INTEL. */
int cpu_vendor_of(u32 ebx, u32 edx, u32 ecx);
/* The display family of cpuid leaf 1's EAX: the base family, plus the
 * extended family when the base is 15 (AMD's Zen 3 is 0x19, Zen 5 0x1a). */
u32 cpu_family_of(u32 eax);
/* The display model of cpuid leaf 1's EAX: the base model, plus the
 * extended model times 16 when the base family is 6 or 15 (AMD's Zen 4
 * EPYC 9004 is family 0x19 model 0x11). */
u32 cpu_model_of(u32 eax);

/* Creates a thread bound to MEM (borrowed; it must outlive the thread) with
 * every register zero except rflags (0x202), MXCSR (0x1f80) and the x87
 * control word (0x37f). CFG is copied; NULL means no callbacks. The threads
 * of one MEM share its decoded code, so their CFGs must give the same
 * cpuid answers (those of one recording do). Returns 0,
 * RW_ENOMEM, or RW_EUNSUPPORTED if Capstone cannot be opened. */
int cpu_new(cpu_mem *mem, const struct cpu_config *cfg,
            cpu_thread **out) RW_MUST_CHECK;

/* Frees CPU (accepts NULL). */
void cpu_free(cpu_thread *cpu);

/* The address space CPU is bound to. */
cpu_mem *cpu_get_mem(cpu_thread *cpu);

/* Copies every register of CPU into REGS (caller-owned): general registers,
 * rip, rflags, fs/gs bases, x87 and SSE state in FXSAVE layout, the upper
 * halves of YMM. orig_rax is set to ~0 and selectors to the Linux user
 * values (cs 0x33, ss 0x2b). */
void cpu_get_regs(const cpu_thread *cpu, struct rw_regs *regs);

/* Loads every register of REGS (borrowed) into CPU. orig_rax and the
 * selectors are ignored. Returns 0, or RW_EINVAL when REGS holds a state
 * the CPU would refuse (reserved MXCSR bits set, rip not canonical). */
int cpu_set_regs(cpu_thread *cpu, const struct rw_regs *regs) RW_MUST_CHECK;

/* The thread's PKRU register (protection-key rights), and setting it (the
 * replay does, where the kernel set it). */
u32 cpu_pkru(const cpu_thread *cpu);
void cpu_set_pkru(cpu_thread *cpu, u32 pkru);

/* Which XSAVE components 0-7 the thread has in use as an Intel CPU tracks
 * them (XINUSE, bit i for component i; AMD traces decide by value and
 * ignore it), and setting it where the kernel sets it: 0 at execve and
 * at a signal handler's entry, the frame's XSTATE_BV at rt_sigreturn, the
 * parent's value in a new thread or process. */
u32 cpu_xinuse(const cpu_thread *cpu);
void cpu_set_xinuse(cpu_thread *cpu, u32 xinuse);
/* XINUSE after rt_sigreturn loaded the signal frame's XSAVE area at FP in
 * the thread's memory: its XSTATE_BV for the components the frame holds,
 * x87 and SSE alone for a frame without the extended area. */
void cpu_sigreturn_xinuse(cpu_thread *cpu, u64 fp);

/* Loads the AVX-512 state (opmasks, ZMM upper halves, ZMM16-31) as
 * rt_sigreturn restores it from the signal frame's XSAVE area at FP in the
 * thread's memory; a frame without a valid extended area, or without a
 * component, leaves that component in its initial state. Nothing happens
 * when the recorded XCR0 has no AVX-512. Returns 0. */
int cpu_sigreturn_avx512(cpu_thread *cpu, u64 fp);

/* A thread's registers exactly as the emulator holds them, for keyframes:
 * cpu_state_save copies them to DST (cpu_state_size() bytes, caller-owned)
 * and cpu_state_load (SRC borrowed, from cpu_state_save of this build)
 * puts them back. Unlike cpu_get_regs and cpu_set_regs, the round trip
 * keeps the lazy flags as they were. The instruction counter is not part
 * of it. */
size_t cpu_state_size(void);
void cpu_state_save(const cpu_thread *cpu, void *dst);
void cpu_state_load(cpu_thread *cpu, const void *src);

/* Instructions executed so far (rep iterations count one each), plus the
 * starting value given to cpu_set_icount. */
u64 cpu_icount(const cpu_thread *cpu);

/* General register REG (RW_REG_rax .. RW_REG_r15), without copying the
 * others as cpu_get_regs does (observers ask for rsp at every call). */
u64 cpu_gpr(const cpu_thread *cpu, unsigned reg);
/* The instruction pointer, the same way. */
u64 cpu_rip(const cpu_thread *cpu);

/* Whether the thread's last cpu_run stopped inside a rep string
 * instruction (its budget ended between two iterations): the next run
 * resumes that instruction rather than reaching it again. */
int cpu_rep_paused(const cpu_thread *cpu);

/* Sets the instruction counter (when a keyframe is restored). */
void cpu_set_icount(cpu_thread *cpu, u64 icount);

/* Asks a running cpu_run to return with CPU_EXIT_STOP at its next block
 * boundary; safe to call from any thread or a signal handler. The request is
 * consumed by the cpu_run that reports it (one made while no cpu_run is
 * running is reported by the next one, before any instruction runs). */
void cpu_stop(cpu_thread *cpu);

/* ---- Running ---------------------------------------------------------- */

/* Why cpu_run returned. */
enum cpu_exit_reason {
  CPU_EXIT_BUDGET = 1, /* the budget is used up exactly */
  CPU_EXIT_STOP,       /* cpu_stop() was called */
  CPU_EXIT_BREAKPOINT, /* rip is at a breakpoint; that instruction not run */
  CPU_EXIT_WATCHPOINT, /* an instruction touched a watched range and
                          completed; see watch_* fields */
  CPU_EXIT_SYSCALL,    /* a syscall instruction completed: rip is after it,
                          rcx = that rip, r11 = rflags, as the CPU leaves
                          them for the kernel; the caller applies the result */
  CPU_EXIT_CPUID,      /* cpuid with no answer: not run, rip at it */
  CPU_EXIT_RDTSC,      /* rdtsc/rdtscp with no answer: not run, rip at it */
  CPU_EXIT_NONDET,     /* rdrand/rdseed: not reproducible; not run */
  CPU_EXIT_XBEGIN,     /* xbegin: whether its transaction commits is not
                          reproducible; not run, rip at it, target is its
                          fallback address (replayer/cpu/tsx.c) */
  CPU_EXIT_FAULT,      /* a fault or trap: see fault, addr, access */
  CPU_EXIT_UNSUPPORTED, /* an instruction the emulator does not implement
                          (or cannot decode): not run; msg says which */
  CPU_EXIT_REP         /* with cpu_mem_rep_stops: a rep string instruction
                          is about to start (rep_end 0: rip at it, not
                          run) or has ended (rep_end 1: rip after it, it
                          counted); insn_len is its length */
};

/* Faults and traps, as the CPU raises them. */
enum cpu_fault {
  CPU_FAULT_NONE = 0,
  CPU_FAULT_PF, /* page fault: unmapped or protected memory (SIGSEGV) */
  CPU_FAULT_GP, /* general protection: non-canonical address, misaligned SSE
                   operand, privileged instruction, hlt (SIGSEGV) */
  CPU_FAULT_UD, /* undefined opcode: ud2, invalid lock (SIGILL) */
  CPU_FAULT_DE, /* divide error: by zero or quotient overflow (SIGFPE) */
  CPU_FAULT_BP, /* int3 trap: rip is after the int3, which counted (SIGTRAP) */
  CPU_FAULT_XM, /* unmasked SIMD floating-point exception (SIGFPE) */
  CPU_FAULT_MF, /* unmasked x87 floating-point exception (SIGFPE) */
  CPU_FAULT_AC  /* alignment check (SIGBUS); never raised while AC is off */
};

/* Memory access kinds, for faults and watchpoints. */
enum { CPU_ACCESS_READ = 1, CPU_ACCESS_WRITE = 2, CPU_ACCESS_EXEC = 4 };

/* The result of cpu_run. Plain data. Except for CPU_FAULT_BP, a fault
 * leaves rip at the faulting instruction, the instruction not counted and
 * no register changed (a rep string instruction keeps the iterations it
 * completed, as the CPU does). */
struct cpu_exit {
  int reason;       /* enum cpu_exit_reason */
  u64 rip;          /* rip when cpu_run returned */
  u32 insn_len;     /* length of the instruction the exit is about (at rip,
                       or just before it for SYSCALL and int3); 0 if none */
  int fault;        /* enum cpu_fault, for CPU_EXIT_FAULT */
  int access;       /* CPU_ACCESS_* of a page fault */
  int maperr;       /* page fault: 1 unmapped (SEGV_MAPERR), 0 protection */
  u64 addr;         /* page fault: the faulting address */
  u64 watch_addr;   /* watchpoint: address of the access that triggered */
  u32 watch_size;   /* watchpoint: its size in bytes */
  int watch_kind;   /* watchpoint: CPU_WATCH_READ or CPU_WATCH_WRITE */
  u8 watch_old[16]; /* watchpoint: the bytes before the access (first 16) */
  u8 watch_new[16]; /* watchpoint: the bytes after a write (first 16) */
  u8 nondet_reg;    /* NONDET (rdrand, rdseed): the destination general
                       register (encoding number) */
  u8 nondet_size;   /* NONDET: its size in bytes, 2, 4 or 8 */
  u64 target;       /* XBEGIN: the fallback address (canonical) */
  int rep_end;      /* REP: 1 at the end of the instruction, 0 its start */
  char msg[160];    /* UNSUPPORTED: "unsupported instruction MNEMONIC (BYTES)
                       at 0xADDRESS"; NONDET, XBEGIN: what is not
                       reproducible; otherwise empty */
};

/* Runs CPU until BUDGET instructions have run or an exit condition occurs;
 * fills WHY (caller-owned). Breakpoints, the budget and the stop request
 * are checked between blocks and at taken branches, which never lets an
 * instruction past the budget. Returns 0 (the reason is in WHY), or a
 * negative RW_E* code when the emulator itself failed (RW_ENOMEM). A budget
 * of 0 returns CPU_EXIT_BUDGET at once. */
int cpu_run(cpu_thread *cpu, u64 budget, struct cpu_exit *why) RW_MUST_CHECK;

/* The last data read and write of CPU (STYLE R12): address and size of the
 * most recent guest access of each kind (size 0 before any). */
void cpu_last_access(const cpu_thread *cpu, u64 *read_addr, u32 *read_size,
                     u64 *write_addr, u32 *write_size);

/* ---- Observers ---------------------------------------------------------
 *
 * Observers are called from handlers chosen at decode time: a block
 * decoded for a thread with no observer has the plain handlers of call,
 * ret, jcc, loop, jrcxz and indirect jmp, so they cost nothing, and so
 * do the instructions of a kind the observer has no callback for. Changing
 * which callbacks a thread's observer has drops the decoded blocks of its
 * address space; the next decode by an observed thread picks the observing
 * handlers, which run the plain one and, once the instruction completed,
 * call the hook of the thread running it (a NULL ctx is passed on too) (threads sharing the space share
 * its blocks: observe all of them or none). N is the thread's instruction
 * count before the instruction (cpu_icount is behind inside a block).
 * Plain data. */
struct cpu_observer {
  /* A call completed: FROM is the call's address, TO the target, RET the
   * return address pushed. */
  void (*on_call)(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 ret,
                  u64 n);
  /* A ret completed: FROM its address, TO where it returned. */
  void (*on_ret)(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 n);
  /* A conditional branch (KIND CPU_BRANCH_COND: jcc, loop*, jrcxz), an
   * indirect jmp (CPU_BRANCH_INDIRECT) or a direct one (CPU_BRANCH_JMP)
   * completed; TAKEN is 0 when it fell through (TO is then the next
   * instruction). */
  void (*on_branch)(void *ctx, cpu_thread *cpu, u64 from, u64 to, int taken,
                    int kind, u64 n);
  /* A rep-prefixed string instruction at AT (MNEM, e.g. "repne scasb",
   * static) ended, HOW (CPU_REP_*) after DONE iterations; REQUESTED is
   * rcx at its first one, N the count before it. The pieces the emulator
   * runs it in (budget, stop requests, watchpoints) are one execution; a
   * signal delivered between two iterations ends it (CPU_REP_INTERRUPTED):
   * what runs after the handler is another. */
  void (*on_rep)(void *ctx, cpu_thread *cpu, u64 at, const char *mnem,
                 u64 requested, u64 done, int how, u64 n);
  /* An instruction (at cpu_rip) read (WRITE 0) or wrote SIZE bytes at
   * ADDR, overlapping the range cpu_mem_observe set; each iteration of a
   * rep string instruction is one access. Costs nothing without that
   * range. */
  void (*on_access)(void *ctx, cpu_thread *cpu, u64 addr, u32 size,
                    int write);
  void *ctx; /* passed to the callbacks, borrowed */
};

/* Kinds of branch for struct cpu_observer.on_branch. */
enum { CPU_BRANCH_COND = 1, CPU_BRANCH_INDIRECT = 2, CPU_BRANCH_JMP = 3 };

/* How a rep instruction ended, for struct cpu_observer.on_rep: its count
 * ran out, its condition (repe, repne) ended it with rcx not 0, an
 * iteration faulted, or a signal was delivered between two iterations. */
enum { CPU_REP_COUNT = 1, CPU_REP_COND, CPU_REP_FAULT, CPU_REP_INTERRUPTED };

/* A rep instruction the observer saw begin and not end yet (the thread
 * stopped part way): 1 and its address, mnemonic, rcx at its first
 * iteration, iterations so far and the count before it; else 0. */
int cpu_rep_open(const cpu_thread *cpu, u64 *at, const char **mnem,
                 u64 *requested, u64 *done, u64 *n);

/* Installs OBS (copied; NULL removes) on CPU. Returns 0. */
int cpu_set_observer(cpu_thread *cpu,
                     const struct cpu_observer *obs) RW_MUST_CHECK;

#endif /* RW_REPLAYER_CPU_CPU_H */
