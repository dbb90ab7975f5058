/* SPDX-License-Identifier: MIT */
/*
 * The host harness's side of mm/arch.h's concurrency interface. Each thread is one CPU: it says
 * which with host_mm_set_cpu() (tests/mm/host_mm.h; a thread that never does is CPU 0). There
 * are no interrupts, but each thread keeps the state masking them would have, so that mm/'s
 * checks that its lists are used with interrupts off (MM_BUG_ON) run on the host too. The lock spins, then yields the host CPU: the
 * host may run more threads than it has cores, and a waiter must let a preempted holder run.
 */
#ifndef TESTS_MM_MM_ENV_H
#define TESTS_MM_MM_ENV_H

#include <sched.h>

typedef struct {
	int locked;
} arch_spinlock_t;

/*
 * The CPU the calling thread plays, whether it has "interrupts" off, and how many emulated
 * interrupt handlers it runs (the stress test's ticks: tests/stress/stress_irq.c).
 */
extern __thread unsigned int host_mm_cpu;
extern __thread unsigned long host_mm_irqs_off;
extern __thread unsigned int host_mm_irq_depth;

/* The waiting half of arch_spin_lock(), out of line: the allocator's fast path saves no registers for it. */
static __attribute__((noinline, cold, unused)) void host_spin_wait(arch_spinlock_t *lock)
{
	do {
		for (unsigned int spins = 0; __atomic_load_n(&lock->locked, __ATOMIC_RELAXED);)
			if (++spins < 64)
				__builtin_ia32_pause();
			else
				sched_yield();
	} while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE));
}

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	if (__builtin_expect(__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE), 0))
		host_spin_wait(lock);
}

static inline void arch_spin_unlock(arch_spinlock_t *lock) { __atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE); }
static inline unsigned long arch_irq_save(void)
{
	unsigned long was = host_mm_irqs_off;

	host_mm_irqs_off = 1;
	return was;
}

static inline void arch_irq_restore(unsigned long flags) { host_mm_irqs_off = flags; }
static inline _Bool arch_irqs_disabled(void) { return host_mm_irqs_off; }
static inline _Bool arch_in_interrupt(void) { return host_mm_irq_depth != 0; }
static inline unsigned int arch_cpu_id(void) { return host_mm_cpu; }

/*
 * mm/arch.h's race windows: a test sets host_mm_race_window to play another CPU's step at the
 * point mm/ names (and back to NULL); NULL, the default, costs one predictable branch.
 */
extern void (*host_mm_race_window)(const char *where);
#define arch_race_window(where)                            \
	do {                                               \
		if (__builtin_expect(host_mm_race_window != 0, 0)) \
			host_mm_race_window(where);        \
	} while (0)

#endif
