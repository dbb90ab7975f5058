/* SPDX-License-Identifier: MIT */
/*
 * Spinlocks and interrupt masking. A ticket lock: waiters are served in the order they came, so
 * none starves. All-zero bytes are an unlocked lock, so locks in zeroed memory need no set-up.
 * Code that an interrupt handler may also run takes the lock with spin_lock_irqsave(), so that
 * an interrupt never spins on a lock the code it interrupted holds.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/percpu.h"

typedef struct {
	uint16_t owner; /* the ticket being served */
	uint16_t next;  /* the next ticket to hand out */
} spinlock_t;

#define X86_EFLAGS_IF 0x200ul

static inline void cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }

static inline void spin_lock(spinlock_t *lock)
{
	uint16_t ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}

static inline bool spin_trylock(spinlock_t *lock)
{
	uint16_t owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	spinlock_t old = { owner, owner }, new = { owner, (uint16_t)(owner + 1) };
	uint32_t o, n;

	__builtin_memcpy(&o, &old, 4);
	__builtin_memcpy(&n, &new, 4);
	return __atomic_compare_exchange_n((uint32_t *)lock, &o, n, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/* Only the holder writes owner, so a plain increment published with release order suffices. */
static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->owner, (uint16_t)(lock->owner + 1), __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&lock->next, __ATOMIC_RELAXED);
}

/*
 * This CPU's mirror of its interrupt flag, struct cpu_local's irq_off (kernel/percpu.h): 0 only
 * while interrupts are on. Every change of the flag below keeps it so: set after cli, cleared
 * before sti. mm/'s fast paths read it (arch_irq_off_if_on(), kernel/mm_env.h) instead of
 * saving RFLAGS.
 */
static inline unsigned int irq_mirror(void)
{
	return *(volatile const unsigned int __seg_gs *)offsetof(struct cpu_local, irq_off);
}

/*
 * Is the mirror 0 (interrupts on)? One compare with memory, whose flag the caller branches on
 * (a load the compiler sees would become a load and a test). No "memory" clobber: nothing needs
 * to be ordered before it, and the cli after it has one.
 */
static inline bool irq_mirror_clear(void)
{
	bool clear;

	__asm__ volatile("cmpl $0, %%gs:%c1" : "=@ccz"(clear) : "i"(offsetof(struct cpu_local, irq_off)));
	return clear;
}

static inline void irq_mirror_set(unsigned int off)
{
	*(volatile unsigned int __seg_gs *)offsetof(struct cpu_local, irq_off) = off;
}

/* Interrupts off on this CPU; returns RFLAGS from before, for local_irq_restore(). */
static inline unsigned long local_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	irq_mirror_set(1);
	return flags;
}

/*
 * Interrupts back on if they were on when flags was saved: the usual case (code outside
 * interrupt handlers), so the sti is laid out in line and the branch falls through to it.
 * Off, the mirror stays set: it was set when they went off, and still is.
 */
static inline void local_irq_restore(unsigned long flags)
{
	if (__builtin_expect((flags & X86_EFLAGS_IF) != 0, 1)) {
		irq_mirror_set(0);
		__asm__ volatile("sti" ::: "memory");
	}
}

static inline void local_irq_enable(void)
{
	irq_mirror_set(0);
	__asm__ volatile("sti" ::: "memory");
}

static inline void local_irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
	irq_mirror_set(1);
}

static inline bool irqs_disabled(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0" : "=r"(flags));
	return !(flags & X86_EFLAGS_IF);
}

#define spin_lock_irqsave(lock, flags)                 \
	do {                                           \
		(flags) = local_irq_save();            \
		spin_lock(lock);                       \
	} while (0)

#define spin_unlock_irqrestore(lock, flags)            \
	do {                                           \
		spin_unlock(lock);                     \
		local_irq_restore(flags);              \
	} while (0)

#endif
