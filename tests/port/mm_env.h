/* SPDX-License-Identifier: MIT */
/*
 * The port test's concurrency interface for mm/arch.h, as a porter with one CPU and no interrupt
 * handlers that allocate would write it: freestanding, a lock that does nothing, CPU 0 always.
 */
#ifndef TESTS_PORT_MM_ENV_H
#define TESTS_PORT_MM_ENV_H

typedef struct {
	int unused;
} arch_spinlock_t;

static inline void arch_spin_lock(arch_spinlock_t *lock) { (void)lock; }
static inline void arch_spin_unlock(arch_spinlock_t *lock) { (void)lock; }
static inline unsigned long arch_irq_save(void) { return 0; }
static inline void arch_irq_restore(unsigned long flags) { (void)flags; }
static inline _Bool arch_irqs_disabled(void) { return 1; } /* no interrupt handler allocates */
static inline _Bool arch_in_interrupt(void) { return 0; }
static inline unsigned int arch_cpu_id(void) { return 0; }

#endif
