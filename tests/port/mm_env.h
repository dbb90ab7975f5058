/* SPDX-License-Identifier: MIT */
/* The concurrency mm/arch.h asks for, on one CPU with no interrupts: locks that do nothing. */
typedef struct { int unused; } arch_spinlock_t;
extern bool env_irqs_off; /* no interrupts to mask: a flag that says whether mm/ asked to */

static inline void arch_spin_lock(arch_spinlock_t *lock) { (void)lock; }
static inline void arch_spin_unlock(arch_spinlock_t *lock) { (void)lock; }
static inline unsigned long arch_irq_save(void) { bool was = env_irqs_off; env_irqs_off = true; return was; }
static inline void arch_irq_restore(unsigned long was) { env_irqs_off = was; }
static inline bool arch_irqs_disabled(void) { return env_irqs_off; }
static inline bool arch_in_interrupt(void) { return false; }
static inline unsigned int arch_cpu_id(void) { return 0; }
