/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 port kernel's side of mm/arch.h's concurrency interface: one CPU, IRQ masking in
 * DAIF (IRQs are unmasked while the suites run, though nothing raises one), and a real lock all
 * the same, so that mm/'s locking runs on the CPU's exclusive load and store (which needs the MMU
 * on: exclusives to Device memory, what every access is with the MMU off, may not work).
 */
#ifndef TESTS_PORT_AARCH64_MM_ENV_H
#define TESTS_PORT_AARCH64_MM_ENV_H

typedef struct {
	unsigned int locked;
} arch_spinlock_t;

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		__asm__ volatile("yield");
}

static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

/* DAIF's I bit (bit 7): IRQs masked. */
static inline unsigned long arch_irq_save(void)
{
	unsigned long daif;

	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #2" : "=r"(daif) : : "memory");
	return daif;
}

static inline void arch_irq_restore(unsigned long flags)
{
	__asm__ volatile("msr daif, %0" : : "r"(flags) : "memory");
}

static inline _Bool arch_irqs_disabled(void)
{
	unsigned long daif;

	__asm__ volatile("mrs %0, daif" : "=r"(daif));
	return (daif & (1UL << 7)) != 0;
}

static inline _Bool arch_in_interrupt(void) { return 0; }
static inline unsigned int arch_cpu_id(void) { return 0; }

#endif
