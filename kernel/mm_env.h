/* SPDX-License-Identifier: MIT */
/* The kernel's side of mm/arch.h's concurrency interface: its spinlock, interrupt masking, CPU number. */
#ifndef KERNEL_MM_ENV_H
#define KERNEL_MM_ENV_H

#include "kernel/percpu.h"
#include "kernel/spinlock.h"

typedef spinlock_t arch_spinlock_t;

static inline void arch_spin_lock(arch_spinlock_t *lock) { spin_lock(lock); }
static inline void arch_spin_unlock(arch_spinlock_t *lock) { spin_unlock(lock); }
static inline unsigned long arch_irq_save(void) { return local_irq_save(); }
static inline void arch_irq_restore(unsigned long flags) { local_irq_restore(flags); }
static inline unsigned int arch_cpu_id(void) { return this_cpu_id(); }

#endif
