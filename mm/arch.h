/* SPDX-License-Identifier: MIT */
/*
 * Everything mm/ needs from the environment it runs in, and the only header outside mm/ that
 * mm/ relies on: the kernel (kernel/mm_arch.c and lib/) and the host test harness
 * (tests/mm/host_arch.c and the C library) each provide these. Nothing else in mm/ knows
 * about x86, page tables, the boot loader or the rest of the kernel.
 */
#ifndef MM_ARCH_H
#define MM_ARCH_H

#include <stdarg.h>

#include "mm/types.h"

/* The direct map: physical address p is reachable at virtual address p + mm_direct_map_offset. */
extern uintptr_t mm_direct_map_offset;

/* Virtual address of the memmap: struct page of pfn N is at mm_vmemmap_base + N * sizeof(struct page). */
extern uintptr_t mm_vmemmap_base;

/*
 * Makes [virt, virt + size) of the memmap region refer to [phys, phys + size). Both are page
 * aligned; phys was allocated by mm/ from the early allocator. Returns 0, or -ENOMEM when the
 * environment cannot allocate its own page tables.
 */
int arch_map_memmap(uintptr_t virt, phys_addr_t phys, size_t size);

/*
 * vmalloc (mm/vmalloc.h) maps pages one by one into a virtual range of the environment's choosing,
 * [mm_vmalloc_start, mm_vmalloc_end): page aligned, unmapped at first, used by nothing else. Both
 * 0: no vmalloc (every call fails, said why), and the four hooks below are never called.
 *
 * The hooks are called with interrupts on, outside interrupt handlers and with none of mm/'s
 * locks held; several CPUs may call them at once, for different pages. mm/ keeps the pages'
 * struct page and which address maps which page: the environment keeps only its page tables
 * (which it may keep once made, or free when empty).
 */
extern uintptr_t mm_vmalloc_start, mm_vmalloc_end;

/*
 * Maps the frame at phys at va (in the range, page aligned, not mapped), read-write, not
 * executable. Returns 0, or -ENOMEM when a page table cannot be allocated (nothing is mapped then).
 * No TLB flush is needed: no CPU caches a translation that was not present.
 */
int arch_vmalloc_map_page(uintptr_t va, phys_addr_t phys);

/*
 * Unmaps every page of [start, end) (page aligned; pages not mapped are skipped) and returns only
 * once no CPU can still reach them through its TLB: a shootdown on every CPU.
 */
void arch_vmalloc_unmap(uintptr_t start, uintptr_t end);

/*
 * Replaces the mapping at va by a migration marker: an entry that is not present, so that any
 * access faults and the page-fault handler calls vmalloc_fault(addr) (mm/vmalloc.h; true: retry
 * the access, false: a real fault). Returns once no CPU can still write the old page through its
 * TLB (a shootdown on every CPU).
 */
void arch_vmalloc_set_marker(uintptr_t va);

/*
 * Maps the frame at phys at va in place of the migration marker there: the new page once the
 * contents are copied, or the old one back when the move was given up. Cannot fail: the marker's
 * page table is there. No flush is needed, as for arch_vmalloc_map_page().
 */
void arch_vmalloc_clear_marker(uintptr_t va, phys_addr_t phys);

/*
 * Logging to the console, printf-style. mm/ uses the conversions d u x s p c, the length
 * modifiers l ll z, the flags # 0 - and field widths.
 *
 * It may also use %pS for a code address (where a page was allocated, say): Linux's
 * "function+0xoff/0xsize", or the address as %p prints it when the environment cannot name it.
 * This kernel's printk, snprintf and vsnprintf (lib/printk.c) name it from the kernel's symbol
 * table. The host harness's printk is the same code, with no symbol table: it prints the address;
 * its snprintf is the C library's, which prints %p and then an S. An environment without %pS
 * should do the same or better: the address is still there to look up (addr2line, gdb).
 */
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same formatting into buf, at most size bytes with the NUL; returns the full length. */
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* The C library's memory functions, with their usual meaning. */
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);

/*
 * A value that differs from one boot (or run) to the next and that code outside the machine
 * cannot easily guess: the slab allocator mixes it with each cache's address into the secret
 * that hides its free links (mm/slab_cache.h). Called once per cache created, interrupts on or
 * off. It need not be a cryptographic random number, but the better it is the harder a forged
 * free link: the kernel reads the time-stamp counter, the host harness the clock; an environment
 * with a hardware random number generator (RDRAND, a TPM) should use it. A constant still works,
 * and still catches double frees and stray writes, but not an attacker who knows it.
 */
unsigned long arch_random_seed(void);

/*
 * Prints the message and stops everything (kernel: halt; host: abort). The message is one line
 * without its newline: panic() ends the line itself. Every call in mm/ keeps to that
 * (tests/port/build.sh checks it).
 */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/*
 * Runs fn(cpu, arg) once for every CPU below mm_init_params.nr_cpus, each so that fn may touch
 * that CPU's per-CPU page lists (mm/pcp.h) as the CPU itself does, and returns once every call
 * has returned. How depends on ARCH_CPU_CALLS_BY_IPI (below): defined, the environment runs fn on
 * the CPU itself with interrupts off (an inter-processor interrupt; the caller's own part with
 * them off too), and for a CPU that is not running, on the caller, one such call at a time; not
 * defined, fn may run on any thread or CPU (the host harness runs them all on the caller's), the
 * lists then being behind a real lock. With ARCH_CPU_CALLS_BY_IPI it is called with interrupts
 * on, outside interrupt handlers, holding none of mm/'s locks; without, also with interrupts off
 * and mm/'s locks held (a drain from an allocation under hugetlb's lock). Several CPUs may call it
 * at once.
 */
void arch_run_on_cpus(void (*fn)(unsigned int cpu, void *arg), void *arg);

/*
 * Concurrency. mm/ may run on several CPUs at once and in interrupt handlers. The environment
 * supplies what that needs as static inline functions (they are on the allocation fast path) in
 * a header of its own: "mm_env.h" on the include path, or the one the build names with
 * -DMM_ENV_H='"path/to/header.h"' (the kernel: kernel/mm_env.h; the host harness:
 * tests/mm/mm_env.h, one thread per CPU):
 *
 *   arch_spinlock_t                     a lock; all-zero bytes are an unlocked lock
 *   void arch_spin_lock(arch_spinlock_t *), void arch_spin_unlock(arch_spinlock_t *)
 *                                       acquire and release ordering, as any mutex
 *   unsigned long arch_irq_save(void)   interrupts off on this CPU; returns the previous state
 *   void arch_irq_restore(unsigned long flags)
 *   bool arch_irqs_disabled(void)       are interrupts off on this CPU, as arch_irq_save() and
 *                                       arch_irq_restore() left them? MM_BUG_ON checks ask (a
 *                                       per-CPU list needs them off), and so do compaction and
 *                                       migration (they run only with them on). Without
 *                                       interrupts, keep a flag that those two set and clear
 *   bool arch_in_interrupt(void)        is this CPU running an interrupt handler (or code
 *                                       called from one)? MM_DEBUG's lock check only: a lock
 *                                       taken there must never be taken with interrupts on.
 *                                       Without handlers that allocate: false
 *   unsigned int arch_cpu_id(void)      this CPU's number, below mm_init_params.nr_cpus; must
 *                                       not change while interrupts are off
 *   ARCH_CPU_CALLS_BY_IPI               optional macro: defined when arch_run_on_cpus() runs fn on
 *                                       the CPU itself. A CPU's per-CPU lists are then protected by
 *                                       interrupts off alone, with no lock: the allocation fast
 *                                       path has no locked instruction (the kernel defines it)
 *   ARCH_HAS_CPU_DATA_LOCK              optional macro, without ARCH_CPU_CALLS_BY_IPI: defined when the
 *                                       environment has a lock biased to one CPU for the data that CPU
 *                                       keeps for itself (its per-CPU lists, its slab slots:
 *                                       cpu_data_lock(), mm/lock_check.h), cheaper for that CPU than
 *                                       arch_spin_lock() (the host harness: no locked instruction, the
 *                                       others pay a membarrier() instead). Then, on an arch_spinlock_t:
 *     void arch_cpu_data_lock_init(arch_spinlock_t *lock, unsigned int cpu)   lock, all zero bytes, is
 *                                       CPU cpu's; mm/ calls it once where it sets up that CPU's data
 *     void arch_cpu_data_lock(arch_spinlock_t *lock), void arch_cpu_data_unlock(arch_spinlock_t *lock)
 *                                       acquire and release, as arch_spin_lock() and arch_spin_unlock(),
 *                                       on any CPU: the cheap way when the caller is the lock's CPU
 *                                       (arch_cpu_id()), which never takes it twice at once
 *                                       Undefined, those locks are arch_spin_lock()'s like the others
 *   ARCH_HAS_THIS_CPU_PCP               optional macro: defined when the environment keeps one pointer
 *                                       per CPU for mm/ where a single load reads it (the kernel:
 *                                       GS-relative), so that the fast path finds this CPU's per-CPU
 *                                       lists without computing them from arch_cpu_id(). Then
 *     void arch_set_cpu_pcp(unsigned int cpu, void *lists)   keeps CPU cpu's pointer; mm_init()
 *                                       calls it for every CPU below mm_init_params.nr_cpus, on the
 *                                       boot CPU, before the others run and before any allocation
 *     void *arch_this_cpu_pcp(void)     returns what was kept for the calling CPU (interrupts off)
 *   ARCH_HAS_IRQ_OFF_IF_ON              optional macro: defined when the environment can tell that
 *                                       interrupts are on more cheaply than arch_irq_save() saves them
 *                                       (the kernel: a per-CPU mirror of the flag, 0 only while they
 *                                       are on, which one compare reads). The fast paths of the
 *                                       per-CPU lists and slab slots (and the page allocator's slow
 *                                       paths around a CPU's lists: whole pageblocks, the lists off)
 *                                       then mask them with the three below, and take the saving
 *                                       way when the first says false (fast_irq_off(),
 *                                       mm/lock_check.h). Then
 *     bool arch_irq_off_if_on(void)     interrupts known on: turns them off and returns true; else
 *                                       changes nothing and returns false (they may be on or off)
 *     void arch_irq_on(void)            interrupts back on, after a true arch_irq_off_if_on()
 *     unsigned long arch_irq_off_keep(void)   after a true arch_irq_off_if_on(), before anything
 *                                       that may allocate or turn interrupts back on (mm/'s slow
 *                                       paths): leaves the state arch_irq_save() would have left
 *                                       there and returns what it would have returned, for
 *                                       arch_irq_restore()
 *                                       arch_irq_off_if_on() says true only when interrupts were on
 *                                       (never in a handler that runs with them off), and
 *                                       arch_irqs_disabled() says true until arch_irq_on(). In between,
 *                                       before arch_irq_off_keep(), mm/ allocates nothing and calls
 *                                       arch_irq_restore() only after its own arch_irq_save() (MM_DEBUG's
 *                                       lock check): such a pair must leave interrupts off
 *   arch_race_window(where)             optional macro: mm/ names with it a point between two
 *                                       steps where another CPU's step makes a race mm/ must
 *                                       survive (where: a string saying which). A test harness
 *                                       defines it to play that other step there, on one thread,
 *                                       so the race is tested every run; undefined, it is nothing
 *
 * mm/ takes its locks with interrupts off, so an interrupt handler that allocates never waits
 * for a lock the code it interrupted holds. A single-CPU environment may define the lock as an
 * empty structure and its operations as nothing; arch_irq_save() and arch_irq_restore() still
 * keep the flag arch_irqs_disabled() reports (and mask interrupts if any handler allocates).
 *
 * The lock operations must be functions (static inline), not macros: in MM_DEBUG builds
 * mm/lock_check.h wraps them in macros of the same name that check the lock order (the order
 * itself is written there) and then call them. The check keeps each CPU's held locks by
 * arch_cpu_id() (below mm_init_params.nr_cpus), so it needs nothing more from the lock.
 */
#ifndef MM_ENV_H
#ifdef __has_include
#if !__has_include("mm_env.h")
#error "mm/arch.h: no mm_env.h on the include path: write one (mm/README.md, section 3) or name yours with -DMM_ENV_H"
#endif
#endif
#define MM_ENV_H "mm_env.h"
#endif
#include MM_ENV_H

#ifndef arch_race_window
#define arch_race_window(where) ((void)0)
#endif

static inline void *phys_to_virt(phys_addr_t p) { return (void *)(uintptr_t)(p + mm_direct_map_offset); }
static inline phys_addr_t virt_to_phys(const void *v) { return (uintptr_t)v - mm_direct_map_offset; }

#endif
