/* SPDX-License-Identifier: MIT */
/*
 * The locks of mm/: their order, written here once, and its check at run time (MM_DEBUG builds).
 *
 * Lock order. A CPU that holds a lock takes only locks further down this list, never one above:
 *
 *   1. mm_slab_caches_lock           the list of every slab cache (mm/slab_cache.h)
 *   2. slab_cpu->lock                a cache's per-CPU slot: that CPU's free objects; a real
 *                                    lock only without ARCH_CPU_CALLS_BY_IPI (mm/slab_cache.h)
 *   3. kmem_cache->lock              a cache's slab lists (a refill or flush of a slot)
 *   4. hugetlb_lock                  both huge page pools (mm/hugetlb.c)
 *   5. per_cpu_pages->lock           one CPU's page lists for one zone (mm/zone.h); a real lock
 *                                    only without ARCH_CPU_CALLS_BY_IPI (mm/pcp.h)
 *   6. zone->lock                    a zone's buddy free lists
 *
 *   large_cpu->lock (mm/kmalloc.c), the large kmalloc pages one CPU keeps, is taken alone;
 *   so is vmalloc_lock (mm/vmalloc.c), the vmalloc areas: nothing of mm/ is called with it held.
 *
 *   memory_add_lock (mm/memory_add.c) is taken with none held, and holds 5 and 6 inside (its
 *   page allocations pass __GFP_NORECLAIM, so shrinker_lock is never taken under it).
 *
 *   shrinker_lock (mm/shrinker.c) comes before all of them: mm_shrink() holds it while the
 *   shrinkers run, and is called with no other lock held (an allocation that holds one passes
 *   __GFP_NORECLAIM and never calls it).
 *
 * A slab cache allocates and frees its slabs' pages with its locks held (2, 3 -> 5, 6); the page
 * allocator never calls the slab allocator or the huge page pool with a lock held (put_page()
 * runs a compound page's destructor with none). Never two locks of one class at once: not two
 * CPUs' page lists, not two caches' slots.
 *
 * Interrupts. Every lock is taken with interrupts off (arch_irq_save() first), so an interrupt
 * handler that allocates never spins on a lock the code it interrupted holds. A lock that an
 * interrupt handler takes must never be taken with interrupts on.
 *
 * The check, in the spirit of Linux's lockdep. Each lock has a class (lock_set_class(), or
 * DEFINE_MM_SPINLOCK for a static lock): one per place that sets it, so all zones' locks are one
 * class. Each CPU keeps the locks it holds. Taking a lock of class B while holding one of class A
 * records "A before B"; the first time the opposite order is seen, anywhere, it is reported once
 * with both call sites and both CPUs' held classes, and counted in mm_lock_check_reports, even when
 * the two never ran at the same time (they would deadlock the day they do). So is a circle through
 * more classes (A before B, B before C, then A taken holding C), with where each order was seen. A class taken in an
 * interrupt handler and also with interrupts on is reported too, as is a lock with no class. A
 * report never stops the machine. lock_held() lets a function assert that its caller holds a lock.
 *
 * The calls to arch_spin_lock() and arch_spin_unlock() in mm/ are unchanged: in MM_DEBUG builds
 * this header defines them as macros that check, then call the environment's functions (by their
 * name in parentheses, which no macro expands). A header that declares an mm_spinlock_t includes
 * this one, so every user of the lock sees the macros. Without MM_DEBUG, mm_spinlock_t is
 * arch_spinlock_t, the macros are not defined and everything here compiles to nothing.
 */
#ifndef MM_LOCK_CHECK_H
#define MM_LOCK_CHECK_H

#include "mm/arch.h"

/*
 * May this CPU have the others run a function now (arch_run_on_cpus())? Where they run it in an
 * inter-processor interrupt (ARCH_CPU_CALLS_BY_IPI), not with interrupts off or in an interrupt
 * handler: two CPUs could wait for each other. Elsewhere the per-CPU lists and slots have a lock,
 * and any CPU may reach them.
 */
static inline bool may_wait_for_other_cpus(void)
{
#ifdef ARCH_CPU_CALLS_BY_IPI
	return !arch_irqs_disabled() && !arch_in_interrupt();
#else
	return true;
#endif
}

#if defined(MM_DEBUG) && MM_DEBUG

/* A class of locks; its fields are the checker's (mm/lock_check.c). */
struct lock_class {
	const char *name;
	unsigned int index;     /* 1.. once seen (0: not yet numbered) */
	unsigned int usage;     /* LOCK_USED_* bits */
	const void *irq_ip;     /* where it was first taken in an interrupt handler */
	const void *irqs_on_ip; /* where it was first taken with interrupts on */
};

/* A lock of mm/: the environment's lock and its class. */
typedef struct {
	arch_spinlock_t raw;
	struct lock_class *class;
} mm_spinlock_t;

/**
 * DEFINE_MM_SPINLOCK() - Define a static lock, unlocked, of a class of its own.
 * @var: the variable.
 * @name_: the class's name in reports.
 */
#define DEFINE_MM_SPINLOCK(var, name_) mm_spinlock_t var = { .class = &(struct lock_class){ .name = (name_) } }

/**
 * lock_set_class() - Give a lock the class of this place in the source.
 * @lock: the lock, its memory already zero (unlocked).
 * @name_: the class's name in reports.
 *
 * Every lock of mm/ that is not a DEFINE_MM_SPINLOCK gets its class this way.
 */
#define lock_set_class(lock, name_)                                                 \
	do {                                                                        \
		static struct lock_class lock_class_here_ = { .name = (name_) };    \
		(lock)->class = &lock_class_here_;                                  \
	} while (0)

/* Problems reported since boot: order inversions, interrupt misuse, locks with no class. */
extern unsigned long mm_lock_check_reports;

/**
 * lock_check_report_count() - Problems the check reported since boot.
 *
 * Return: mm_lock_check_reports, read atomically (0 without MM_DEBUG).
 */
static inline unsigned long lock_check_report_count(void)
{
	return __atomic_load_n(&mm_lock_check_reports, __ATOMIC_RELAXED);
}

/* Called before taking and after releasing lock; they record where (their return address). */
void mm_lock_check_acquire(mm_spinlock_t *lock);
void mm_lock_check_release(mm_spinlock_t *lock);

/**
 * lock_held() - Does the calling CPU hold a lock?
 * @lock: the lock.
 *
 * For MM_BUG_ON(!lock_held(&zone->lock), ...).
 *
 * Return: true when it does (always true without MM_DEBUG).
 */
bool lock_held(const mm_spinlock_t *lock);

/**
 * lock_held_count() - How many mm/ locks the calling CPU holds.
 *
 * For MM_BUG_ON(lock_held_count(), ...) before a call out.
 *
 * Return: the count (0 without MM_DEBUG).
 */
unsigned int lock_held_count(void);

/**
 * lock_check_show() - Print the classes and every order seen.
 *
 * Lines such as "zone->lock after per_cpu_pages->lock"; nothing without MM_DEBUG.
 */
void lock_check_show(void);

/*
 * The checker keeps the held locks of 64 CPUs itself; a machine of more hands it memory for the
 * rest. mm_lock_check_cpu_bytes() is how much nr_cpus CPUs need (0 up to 64); mm_lock_check_set_cpus()
 * takes mem, that much (zeroed here), for CPUs 64..nr_cpus-1, or with NULL goes back to 64
 * (mm_init() does so before its memory is reused). A lock taken on a CPU past them is reported.
 */
size_t mm_lock_check_cpu_bytes(unsigned int nr_cpus);
void mm_lock_check_set_cpus(void *mem, unsigned int nr_cpus);

static inline __attribute__((always_inline)) void lock_check_spin_lock(mm_spinlock_t *lock)
{
	mm_lock_check_acquire(lock);
	(arch_spin_lock)(&lock->raw);
}

static inline __attribute__((always_inline)) void lock_check_spin_unlock(mm_spinlock_t *lock)
{
	(arch_spin_unlock)(&lock->raw);
	mm_lock_check_release(lock);
}

#define arch_spin_lock(lock) lock_check_spin_lock(lock)
#define arch_spin_unlock(lock) lock_check_spin_unlock(lock)

#else /* !MM_DEBUG */

typedef arch_spinlock_t mm_spinlock_t;
#define DEFINE_MM_SPINLOCK(var, name_) mm_spinlock_t var
#define lock_set_class(lock, name_) ((void)(lock))
static inline unsigned long lock_check_report_count(void) { return 0; }
static inline bool lock_held(const mm_spinlock_t *lock) { return (void)lock, true; }
static inline unsigned int lock_held_count(void) { return 0; }
static inline void lock_check_show(void) {}
static inline size_t mm_lock_check_cpu_bytes(unsigned int nr_cpus) { return (void)nr_cpus, 0; }
static inline void mm_lock_check_set_cpus(void *mem, unsigned int nr_cpus) { (void)mem, (void)nr_cpus; }

#endif

/*
 * The lock of data one CPU keeps for itself: its per-CPU page lists, its slab slots; set up by
 * cpu_data_lock_init() with that CPU's number. Where the other CPUs reach that data only by
 * asking its CPU (ARCH_CPU_CALLS_BY_IPI: arch_run_on_cpus() runs their function there, in an
 * interrupt), interrupts off is all the protection it needs: no lock is taken and no locked
 * instruction runs on the fast paths, and "locked" means interrupts are off. Elsewhere
 * arch_run_on_cpus() may run a function on any CPU, so the data is behind its lock: the
 * environment's lock biased to the owning CPU where it has one (ARCH_HAS_CPU_DATA_LOCK, mm/arch.h:
 * the host harness's owner takes it with no locked instruction), else its plain lock. Either
 * way MM_DEBUG's check sees it as a lock, taken and released, whoever takes it. Callers turn
 * interrupts off first.
 */
#ifdef ARCH_CPU_CALLS_BY_IPI
static inline void cpu_data_lock_init(mm_spinlock_t *lock, unsigned int cpu) { (void)lock, (void)cpu; }
static inline __attribute__((always_inline)) void cpu_data_lock(mm_spinlock_t *lock) { (void)lock; }
static inline __attribute__((always_inline)) void cpu_data_unlock(mm_spinlock_t *lock) { (void)lock; }
static inline bool cpu_data_locked(const mm_spinlock_t *lock) { return (void)lock, arch_irqs_disabled(); }
#elif defined(ARCH_HAS_CPU_DATA_LOCK)
#if defined(MM_DEBUG) && MM_DEBUG
#define cpu_data_raw(lock) (&(lock)->raw)
#define cpu_data_check_acquire(lock) mm_lock_check_acquire(lock)
#define cpu_data_check_release(lock) mm_lock_check_release(lock)
#else
#define cpu_data_raw(lock) (lock)
#define cpu_data_check_acquire(lock) ((void)(lock))
#define cpu_data_check_release(lock) ((void)(lock))
#endif
static inline void cpu_data_lock_init(mm_spinlock_t *lock, unsigned int cpu)
{
	arch_cpu_data_lock_init(cpu_data_raw(lock), cpu);
}

static inline __attribute__((always_inline)) void cpu_data_lock(mm_spinlock_t *lock)
{
	cpu_data_check_acquire(lock);
	arch_cpu_data_lock(cpu_data_raw(lock));
}

static inline __attribute__((always_inline)) void cpu_data_unlock(mm_spinlock_t *lock)
{
	arch_cpu_data_unlock(cpu_data_raw(lock));
	cpu_data_check_release(lock);
}

static inline bool cpu_data_locked(const mm_spinlock_t *lock) { return lock_held(lock); }
#else
static inline void cpu_data_lock_init(mm_spinlock_t *lock, unsigned int cpu) { (void)lock, (void)cpu; }
static inline __attribute__((always_inline)) void cpu_data_lock(mm_spinlock_t *lock) { arch_spin_lock(lock); }
static inline __attribute__((always_inline)) void cpu_data_unlock(mm_spinlock_t *lock) { arch_spin_unlock(lock); }
static inline bool cpu_data_locked(const mm_spinlock_t *lock) { return lock_held(lock); }
#endif

/*
 * Counters in the data one CPU keeps for itself, written by that CPU with the data's lock held
 * (cpu_data_lock()) and read racily (atomic loads) elsewhere: cpu_own_add() adds delta;
 * cpu_own_take() takes one from a count of room left and says whether there was room. Where only
 * its CPU touches the data (ARCH_CPU_CALLS_BY_IPI) plain arithmetic: one instruction on the
 * counter in memory (for the take, a decrement and a branch on its sign); elsewhere atomic
 * stores, which the race detector checks.
 */
#ifdef ARCH_CPU_CALLS_BY_IPI
#define cpu_own_add(counter, delta) ((void)(*(counter) += (delta)))
static inline __attribute__((always_inline)) bool cpu_own_take(int *room)
{
	return --*room >= 0;
}
#else
#define cpu_own_add(counter, delta) __atomic_store_n((counter), *(counter) + (delta), __ATOMIC_RELAXED)
static inline __attribute__((always_inline)) bool cpu_own_take(int *room)
{
	int left = *room - 1;

	__atomic_store_n(room, left, __ATOMIC_RELAXED);
	return left >= 0;
}
#endif

/*
 * Interrupts off on a fast path, around one of this CPU's own lists (pages, slab objects):
 *
 *	struct fast_irq irq;
 *
 *	if (!fast_irq_off(&irq))
 *		return the same path out of line, with arch_irq_save() (fast_irq_saved());
 *	... the list; a slow continuation that ends with arch_irq_restore() gets fast_irq_keep(irq) ...
 *	fast_irq_restore(irq);
 *
 * Without ARCH_HAS_IRQ_OFF_IF_ON (mm/arch.h) fast_irq_off() is arch_irq_save() and always true:
 * the code is the saving way as before. With it, fast_irq_off() is arch_irq_off_if_on(), false
 * when interrupts are not known to be on (then the out-of-line way saves them), and
 * fast_irq_restore() is arch_irq_on(). In that window the environment's state is not what
 * arch_irq_save() leaves: nothing there may allocate (a fast path there would find interrupts
 * "on" and turn them on) or end with arch_irq_restore(), except after fast_irq_keep(), which
 * makes it so and returns the flags arch_irq_restore() then needs. The struct is folded away:
 * every function here is inlined with known_on a constant.
 */
struct fast_irq {
	unsigned long flags; /* arch_irq_save()'s, when !known_on */
	bool known_on;       /* arch_irq_off_if_on() turned them off: arch_irq_on() turns them on */
};

/* The saving way: interrupts off, what they were kept. */
static inline __attribute__((always_inline)) struct fast_irq fast_irq_saved(void)
{
	return (struct fast_irq){ .flags = arch_irq_save(), .known_on = false };
}

static inline __attribute__((always_inline)) bool fast_irq_off(struct fast_irq *irq)
{
#ifdef ARCH_HAS_IRQ_OFF_IF_ON
	*irq = (struct fast_irq){ .flags = 0, .known_on = true };
	return arch_irq_off_if_on();
#else
	*irq = fast_irq_saved();
	return true;
#endif
}

static inline __attribute__((always_inline)) void fast_irq_restore(struct fast_irq irq)
{
#ifdef ARCH_HAS_IRQ_OFF_IF_ON
	if (irq.known_on) {
		arch_irq_on();
		return;
	}
#endif
	arch_irq_restore(irq.flags);
}

static inline __attribute__((always_inline)) unsigned long fast_irq_keep(struct fast_irq irq)
{
#ifdef ARCH_HAS_IRQ_OFF_IF_ON
	if (irq.known_on)
		return arch_irq_off_keep();
#endif
	return irq.flags;
}

/**
 * mm_spin_lock_irqsave() - Take an mm/ lock with interrupts off.
 * @lock: the lock.
 *
 * Interrupts go off first, so that a handler on this CPU never spins on a lock its CPU holds.
 * In MM_DEBUG builds the lock is checked as every arch_spin_lock() in mm/ is.
 *
 * Return: what mm_spin_unlock_irqrestore() needs to restore them.
 */
static inline __attribute__((always_inline)) unsigned long mm_spin_lock_irqsave(mm_spinlock_t *lock)
{
	unsigned long flags = arch_irq_save();

	arch_spin_lock(lock);
	return flags;
}

/**
 * mm_spin_unlock_irqrestore() - Release a lock taken by mm_spin_lock_irqsave().
 * @lock: the lock.
 * @flags: what mm_spin_lock_irqsave() returned.
 */
static inline __attribute__((always_inline)) void mm_spin_unlock_irqrestore(mm_spinlock_t *lock, unsigned long flags)
{
	arch_spin_unlock(lock);
	arch_irq_restore(flags);
}

#endif
