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
#include <stdint.h>

/*
 * A lock: locked is the lock itself (an exchange takes it). The other two fields serve only the
 * locks of one CPU's data (arch_cpu_data_lock(), below); every other lock leaves them 0.
 */
typedef struct {
	uint8_t locked;
	uint8_t inside;  /* CPU_DATA_OUT, CPU_DATA_IN_FAST or CPU_DATA_IN_LOCKED: where the owner is */
	uint16_t owner;  /* the owning CPU + 1; 0: none, every taker takes the real lock */
} arch_spinlock_t;

/*
 * The CPU the calling thread plays, whether it has "interrupts" off, and how many emulated
 * interrupt handlers it runs (the stress test's ticks: tests/stress/stress_irq.c).
 */
extern __thread unsigned int host_mm_cpu;
extern __thread unsigned long host_mm_irqs_off;
extern __thread unsigned int host_mm_irq_depth;

/*
 * The kernel's mirror of its interrupt flag (mm/arch.h's ARCH_HAS_IRQ_OFF_IF_ON), played the
 * same way: 0 only while host_mm_irqs_off is 0. arch_irq_save() sets it, arch_irq_restore()
 * clears it when "interrupts" come back on; the fast paths' arch_irq_off_if_on() reads it and
 * does not write it. Setting host_mm_irqs_off without it breaks that rule: the next fast path
 * reports it (host_mm_irq_mirror_broken()) and stops, instead of turning "interrupts" back on
 * where they must stay off.
 */
extern __thread unsigned int host_mm_irq_mirror;
void host_mm_irq_mirror_broken(void) __attribute__((noreturn, cold));

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
	host_mm_irq_mirror = 1;
	return was;
}

static inline void arch_irq_restore(unsigned long flags)
{
	host_mm_irqs_off = flags;
	if (!flags)
		host_mm_irq_mirror = 0;
}

#define ARCH_HAS_IRQ_OFF_IF_ON 1

static inline _Bool arch_irq_off_if_on(void)
{
	if (host_mm_irq_mirror)
		return 0;
	if (__builtin_expect(host_mm_irqs_off != 0, 0))
		host_mm_irq_mirror_broken();
	host_mm_irqs_off = 1;
	return 1;
}

static inline void arch_irq_on(void) { host_mm_irqs_off = 0; }

static inline unsigned long arch_irq_off_keep(void)
{
	host_mm_irq_mirror = 1;
	return 0; /* what arch_irq_save() returns with "interrupts" on */
}

static inline _Bool arch_irqs_disabled(void) { return host_mm_irqs_off; }
static inline _Bool arch_in_interrupt(void) { return host_mm_irq_depth != 0; }
static inline unsigned int arch_cpu_id(void) { return host_mm_cpu; }

/*
 * The locks of one CPU's data (mm/arch.h's ARCH_HAS_CPU_DATA_LOCK): its per-CPU page lists and
 * slab slots. The thread that plays the owning CPU takes its own lock the cheap way, with no
 * locked instruction and no fence; another thread (a drain, a flush, new limits: arch_run_on_cpus()
 * runs every CPU's part on the caller's thread here) takes the real lock and then waits until
 * the owner is out. Dekker's handshake between the two, asymmetric:
 *
 *   owner:  inside = IN_FAST (plain store); compiler barrier; read locked;
 *           locked 0: in. Else inside = OUT, take the real lock (the slow way), inside = IN_LOCKED.
 *           Leaving: IN_FAST -> a release store of OUT; IN_LOCKED -> OUT, release the real lock.
 *   other:  take the real lock (an exchange: a full barrier); membarrier(); wait for inside == OUT.
 *
 * Why that excludes the two. On x86 a load may pass an earlier store (which waits in the store
 * buffer), so the owner may read locked 0 while its inside = IN_FAST is not yet seen by the
 * others: without more, both could enter. membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) has every thread of
 * the process that is running execute a full barrier, between the call's start and its return
 * (one that is not running passes the scheduler's barriers when switched in). Call the owner's
 * barrier point P: the other thread's exchange, before the call (which starts with a full barrier
 * of its own), is visible to all before P. If P comes after the
 * owner's store of IN_FAST, that store is visible when membarrier() returns, and the other thread
 * waits for the owner to leave; if P comes before it, the owner's read of locked, after its store,
 * comes after P and sees 1, and the owner takes the slow way. Either way the owner's time inside
 * and the other thread's never overlap. The owner's release store of OUT and the other thread's
 * acquire read of it, its release of the real lock and the owner's acquire read of locked order
 * the data in both directions.
 *
 * Two threads must never play the same CPU at once (the owner's way excludes only the others);
 * the MM_DEBUG builds check that the owner is not in already. Without membarrier (Linux before
 * 4.14, or a sandbox that refuses it) the harness says so once, at start (host_arch.c), and
 * every lock is made with no owner: everyone takes the real lock. ThreadSanitizer cannot see membarrier's ordering,
 * and would report the handshake as a race: its build keeps the real lock for everyone (no
 * ARCH_HAS_CPU_DATA_LOCK).
 */
#if defined(__SANITIZE_THREAD__)
#define HOST_MM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HOST_MM_TSAN 1
#endif
#endif

#ifndef HOST_MM_TSAN
#define ARCH_HAS_CPU_DATA_LOCK

enum { CPU_DATA_OUT, CPU_DATA_IN_FAST, CPU_DATA_IN_LOCKED };

/* Did membarrier's registration succeed (host_arch.c, at start)? Locks get an owner only then. */
extern _Bool host_mm_cpu_data_biased;

/* The other threads' side (host_arch.c): the real lock, then membarrier() and the wait. */
void host_cpu_data_lock_other(arch_spinlock_t *lock);
void host_cpu_data_unlock_other(arch_spinlock_t *lock);
/* The owner's slow way, when the real lock is taken or wanted. */
void host_cpu_data_lock_slow(arch_spinlock_t *lock);
/* Reports an owner that is in already (MM_DEBUG builds). */
void host_cpu_data_lock_reentered(arch_spinlock_t *lock);

static inline void arch_cpu_data_lock_init(arch_spinlock_t *lock, unsigned int cpu)
{
	lock->inside = CPU_DATA_OUT;
	lock->owner = host_mm_cpu_data_biased && cpu < UINT16_MAX ? (uint16_t)(cpu + 1) : 0;
}

static inline _Bool host_cpu_data_owner(const arch_spinlock_t *lock)
{
	return lock->owner == host_mm_cpu + 1;
}

static inline void arch_cpu_data_lock(arch_spinlock_t *lock)
{
	if (__builtin_expect(!host_cpu_data_owner(lock), 0)) {
		host_cpu_data_lock_other(lock);
		return;
	}
#if defined(MM_DEBUG) && MM_DEBUG
	if (__atomic_load_n(&lock->inside, __ATOMIC_RELAXED) != CPU_DATA_OUT)
		host_cpu_data_lock_reentered(lock);
#endif
	__atomic_store_n(&lock->inside, CPU_DATA_IN_FAST, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* the store before the load, in the compiler's order */
	if (__builtin_expect(__atomic_load_n(&lock->locked, __ATOMIC_ACQUIRE), 0))
		host_cpu_data_lock_slow(lock);
}

static inline void arch_cpu_data_unlock(arch_spinlock_t *lock)
{
	if (__builtin_expect(!host_cpu_data_owner(lock), 0)) {
		host_cpu_data_unlock_other(lock);
		return;
	}
	if (__builtin_expect(__atomic_load_n(&lock->inside, __ATOMIC_RELAXED) == CPU_DATA_IN_LOCKED, 0)) {
		__atomic_store_n(&lock->inside, CPU_DATA_OUT, __ATOMIC_RELAXED);
		arch_spin_unlock(lock);
		return;
	}
	__atomic_store_n(&lock->inside, CPU_DATA_OUT, __ATOMIC_RELEASE);
}
#endif

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
