/* SPDX-License-Identifier: MIT */
/* The kernel's side of mm/arch.h's concurrency interface: its spinlock, interrupt masking, CPU number. */
#ifndef KERNEL_MM_ENV_H
#define KERNEL_MM_ENV_H

#include "kernel/percpu.h"
#include "kernel/spinlock.h"

typedef spinlock_t arch_spinlock_t;

/*
 * arch_run_on_cpus() (kernel/cpu_call.c) runs its function on each CPU in an inter-processor
 * interrupt: a CPU's per-CPU page lists need no lock, interrupts off is enough.
 */
#define ARCH_CPU_CALLS_BY_IPI 1

/*
 * spin_lock() with the uncontended case first: one locked add, one load, one branch; the wait
 * loop is laid out of the way.
 */
static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	uint16_t ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	if (__builtin_expect(__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket, 0)) {
		do
			cpu_relax();
		while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket);
	}
}

static inline bool arch_spin_trylock(arch_spinlock_t *lock) { return spin_trylock(lock); }

/*
 * spin_unlock() in one instruction: only the holder writes owner, and on x86 a store is never
 * reordered with the loads and stores before it, so a plain increment is a release (the
 * "memory" clobber keeps the compiler from moving the critical section past it).
 */
static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	__asm__ volatile("incw %0" : "+m"(lock->owner) : : "memory");
}

/*
 * This CPU's per-CPU page lists in one GS-relative load. mm/ hands every CPU's over at boot
 * (arch_set_cpu_pcp(), kernel/mm_arch.c): the boot CPU's area takes its own at once, the
 * others' when kernel/smp.c makes them (mm_arch_cpu_pcp()).
 */
#define ARCH_HAS_THIS_CPU_PCP 1

void arch_set_cpu_pcp(unsigned int cpu, void *lists);

/* CPU cpu's lists as mm/ handed them over, or NULL (kernel/smp.c copies it into a new CPU's area). */
void *mm_arch_cpu_pcp(unsigned int cpu);

static inline void *arch_this_cpu_pcp(void)
{
	/*
	 * A load the compiler sees (GCC's GS address space, not an asm): it folds it into the add
	 * of a zone's offset (this_cpu_pcp_at(), mm/pcp.h), one instruction fewer.
	 */
	return *(void *const __seg_gs *)offsetof(struct cpu_local, mm_pcp);
}

/*
 * The fast paths' interrupt masking in 4 instructions, not pushfq; popq; cli and a test of the
 * flags, a branch and sti (6): cmpl $0 on the mirror (kernel/spinlock.h), jne to the saving way,
 * cli; then sti. The mirror is not written in between: it is still 0 with interrupts off there,
 * so nothing in that window may allocate (a nested fast path would sti); what might (mm/'s slow
 * continuations) is called after arch_irq_off_keep(), which makes it what local_irq_save() would
 * have left (mirror set) and returns what it would have returned (IF set). A local_irq_save()
 * and local_irq_restore() in the window leave interrupts off and the mirror set: safe.
 */
#define ARCH_HAS_IRQ_OFF_IF_ON 1

static inline bool arch_irq_off_if_on(void)
{
	if (!irq_mirror_clear())
		return false;
	__asm__ volatile("cli" ::: "memory");
	return true;
}

static inline void arch_irq_on(void) { __asm__ volatile("sti" ::: "memory"); }

static inline unsigned long arch_irq_off_keep(void)
{
	irq_mirror_set(1);
	return X86_EFLAGS_IF;
}

static inline unsigned long arch_irq_save(void) { return local_irq_save(); }
static inline bool arch_irqs_disabled(void) { return irqs_disabled(); }
static inline void arch_irq_restore(unsigned long flags) { local_irq_restore(flags); }
static inline bool arch_in_interrupt(void) { return in_interrupt(); }
static inline unsigned int arch_cpu_id(void) { return this_cpu_id(); }

#endif
