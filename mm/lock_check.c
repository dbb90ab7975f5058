/* SPDX-License-Identifier: MIT */
/*
 * The lock order check of MM_DEBUG builds (the rules and the order are in mm/lock_check.h): each
 * CPU's held locks, the orders seen between classes, and the reports. Without MM_DEBUG this file
 * is empty.
 *
 * Its own data is race-free without taking an mm/ lock: a CPU's held locks are its own (touched
 * with interrupts off); the table of orders is written under table_lock, and the fast path only
 * reads, atomically, whether an order was already seen.
 */
#include "mm/lock_check.h"

#if defined(MM_DEBUG) && MM_DEBUG

#define LOCK_CHECK_CPUS 64 /* CPUs kept here; more in memory mm_init() hands over (mm_lock_check_set_cpus()) */
#define LOCK_DEPTH 8       /* locks one CPU may hold at once */
#define LOCK_CLASSES 32    /* classes numbered 1..LOCK_CLASSES-1 */

enum { LOCK_USED_IN_IRQ = 1u, LOCK_USED_IRQS_ON = 2u, LOCK_IRQ_REPORTED = 4u };

struct held_lock {
	mm_spinlock_t *lock;
	const void *ip; /* where it was taken */
};

/* The locks one CPU holds, oldest first. lost: pushes refused (too deep), lock_held() then trusts. */
struct lock_cpu {
	unsigned int depth, lost;
	struct held_lock held[LOCK_DEPTH];
};

/* The first time class b was taken while a was held: where both were taken, and what was held. */
struct lock_order {
	const void *ip, *held_ip;
	unsigned int cpu, nheld;
	uint8_t held[LOCK_DEPTH]; /* class numbers, oldest first (b not included) */
};

unsigned long mm_lock_check_reports;

static struct lock_cpu lock_cpus[LOCK_CHECK_CPUS];
static struct lock_cpu *more_cpus;     /* CPUs LOCK_CHECK_CPUS.. below nr_cpus_checked */
static unsigned int nr_cpus_checked = LOCK_CHECK_CPUS;
static arch_spinlock_t table_lock;                          /* everything below */
static struct lock_class *classes[LOCK_CLASSES];
static unsigned int nr_classes;
static uint32_t after[LOCK_CLASSES];                        /* bit b of after[a]: a before b seen (atomic) */
static struct lock_order orders[LOCK_CLASSES][LOCK_CLASSES]; /* [a][b] once after[a] has b */
static bool too_many_classes, cpu_too_high, too_deep, no_class, not_held;

/*
 * The table lock, interrupts off: an interrupt handler may check a lock while the code it
 * interrupted is in here (when that code took a lock with interrupts on, itself a report).
 * Its name in parentheses calls the environment's function, not lock_check.h's macro.
 */
static unsigned long table_lock_irqsave(void)
{
	unsigned long irq = arch_irq_save();

	(arch_spin_lock)(&table_lock);
	return irq;
}

static void table_unlock_irqrestore(unsigned long irq)
{
	(arch_spin_unlock)(&table_lock);
	arch_irq_restore(irq);
}

/* Table lock held: counts a report, and says whether it is the first of its kind (*once). */
static bool first_report(bool *once)
{
	if (*once)
		return false;
	*once = true;
	__atomic_fetch_add(&mm_lock_check_reports, 1, __ATOMIC_RELAXED);
	return true;
}

/* Reports a problem that is printed only the first time (*once), with where it happened. */
static void report_once(bool *once, const char *what, const mm_spinlock_t *lock, const void *ip)
{
	unsigned long irq = table_lock_irqsave();

	if (first_report(once))
		printk("lock_check: %s: lock %p (%s) at %pS on CPU %u\n", what, (const void *)lock,
		       lock->class ? lock->class->name : "no class", ip, arch_cpu_id());
	table_unlock_irqrestore(irq);
}

/* The number of class, given the first time it is seen; 0 when the table is full (reported). */
static unsigned int class_index(struct lock_class *class)
{
	unsigned int index = __atomic_load_n(&class->index, __ATOMIC_ACQUIRE);
	unsigned long irq;

	if (index)
		return index;
	irq = table_lock_irqsave();
	index = class->index;
	if (!index && nr_classes + 1 < LOCK_CLASSES) {
		index = ++nr_classes;
		classes[index] = class;
		__atomic_store_n(&class->index, index, __ATOMIC_RELEASE);
	} else if (!index && first_report(&too_many_classes)) {
		printk("lock_check: more than %u lock classes: %s is not checked\n", LOCK_CLASSES - 1, class->name);
	}
	table_unlock_irqrestore(irq);
	return index;
}

static const char *class_name(unsigned int index)
{
	return classes[index]->name;
}

/* Writes "[a b c]" into buf: the classes of held (numbers), oldest first. */
static void held_names(char *buf, size_t size, const uint8_t *held, unsigned int n)
{
	size_t len = (size_t)snprintf(buf, size, "[");

	for (unsigned int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", class_name(held[i]));
	if (len < size)
		snprintf(buf + len, size - len, "]");
}

/* Table lock held: one side of an inversion, "CPU 1 took B at ... holding A (taken at ...)". */
static void print_order(const char *verb, unsigned int a, unsigned int b, const struct lock_order *o)
{
	char held[LOCK_DEPTH * 32];

	held_names(held, sizeof(held), o->held, o->nheld);
	printk("lock_check:   CPU %u %s %s at %pS holding %s (taken at %pS); it held %s\n", o->cpu, verb,
	       class_name(b), o->ip, class_name(a), o->held_ip, held);
}

/* Table lock held: b taken holding a, which has been taken holding b before. */
static void report_inversion(unsigned int a, unsigned int b)
{
	__atomic_fetch_add(&mm_lock_check_reports, 1, __ATOMIC_RELAXED);
	printk("lock_check: lock order inversion: %s taken while holding %s, the opposite order was seen before\n",
	       class_name(b), class_name(a));
	print_order("takes", a, b, &orders[a][b]);
	print_order("took", b, a, &orders[b][a]);
}

static void report_same_class(unsigned int a)
{
	__atomic_fetch_add(&mm_lock_check_reports, 1, __ATOMIC_RELAXED);
	printk("lock_check: two locks of class %s held at once\n", class_name(a));
	print_order("takes", a, a, &orders[a][a]);
}

/*
 * Table lock held: the orders seen from class from, breadth first; fills prev[] (the class each
 * was reached from) and returns whether to was reached.
 */
static bool order_path(unsigned int from, unsigned int to, uint8_t *prev)
{
	uint32_t seen = 1u << from, frontier = seen;

	while (frontier && !(seen & (1u << to))) {
		uint32_t next = 0;

		for (unsigned int c = 1; c <= nr_classes; c++) {
			uint32_t fresh = (frontier & (1u << c)) ? after[c] & ~seen & ~next : 0;

			for (unsigned int d = 1; d <= nr_classes; d++)
				if (fresh & (1u << d))
					prev[d] = (uint8_t)c;
			next |= fresh;
		}
		seen |= next;
		frontier = next;
	}
	return seen & (1u << to);
}

/*
 * Table lock held: a before b has just been seen for the first time, and b never before a. If b
 * comes before a through other classes (b before c, c before a), the three (or more) can deadlock
 * as two can: reported once, with where each order of the circle was first seen.
 */
static void check_cycle(unsigned int a, unsigned int b)
{
	uint8_t prev[LOCK_CLASSES];

	if (!order_path(b, a, prev))
		return;
	__atomic_fetch_add(&mm_lock_check_reports, 1, __ATOMIC_RELAXED);
	printk("lock_check: lock order cycle: %s taken while holding %s, and %s comes before %s through other locks\n",
	       class_name(b), class_name(a), class_name(b), class_name(a));
	print_order("takes", a, b, &orders[a][b]);
	for (unsigned int c = a; c != b; c = prev[c])
		print_order("took", prev[c], c, &orders[prev[c]][c]);
}

/* Table lock held: records the order a (held[i] of lc) before b, taken at ip. */
static void fill_order(struct lock_order *o, const struct lock_cpu *lc, unsigned int i, const void *ip,
		       unsigned int cpu)
{
	*o = (struct lock_order){ .ip = ip, .held_ip = lc->held[i].ip, .cpu = cpu, .nheld = lc->depth };
	for (unsigned int k = 0; k < lc->depth; k++)
		o->held[k] = (uint8_t)lc->held[k].lock->class->index;
}

/* Class b taken at ip while lc holds held[i] (class a): records the order the first time, checks it. */
static void check_order(const struct lock_cpu *lc, unsigned int i, unsigned int b, const void *ip, unsigned int cpu)
{
	unsigned int a = lc->held[i].lock->class->index;
	unsigned long irq;

	if (__atomic_load_n(&after[a], __ATOMIC_RELAXED) & (1u << b))
		return; /* seen before, and checked then */
	irq = table_lock_irqsave();
	if (!(after[a] & (1u << b))) {
		fill_order(&orders[a][b], lc, i, ip, cpu);
		__atomic_fetch_or(&after[a], 1u << b, __ATOMIC_RELAXED);
		if (a == b)
			report_same_class(a);
		else if (after[b] & (1u << a))
			report_inversion(a, b);
		else
			check_cycle(a, b);
	}
	table_unlock_irqrestore(irq);
}

/* Records how class is taken now (in an interrupt handler, with interrupts on); reports both. */
static void check_irq_usage(struct lock_class *class, const void *ip, bool irqs_on)
{
	unsigned int bits = (arch_in_interrupt() ? LOCK_USED_IN_IRQ : 0) | (irqs_on ? LOCK_USED_IRQS_ON : 0);
	unsigned long irq;

	if ((__atomic_load_n(&class->usage, __ATOMIC_RELAXED) & bits) == bits)
		return;
	irq = table_lock_irqsave();
	if ((bits & LOCK_USED_IN_IRQ) && !(class->usage & LOCK_USED_IN_IRQ))
		class->irq_ip = ip;
	if ((bits & LOCK_USED_IRQS_ON) && !(class->usage & LOCK_USED_IRQS_ON))
		class->irqs_on_ip = ip;
	__atomic_fetch_or(&class->usage, bits, __ATOMIC_RELAXED);
	if ((class->usage & (LOCK_USED_IN_IRQ | LOCK_USED_IRQS_ON)) == (LOCK_USED_IN_IRQ | LOCK_USED_IRQS_ON) &&
	    !(class->usage & LOCK_IRQ_REPORTED)) {
		__atomic_fetch_or(&class->usage, LOCK_IRQ_REPORTED, __ATOMIC_RELAXED);
		__atomic_fetch_add(&mm_lock_check_reports, 1, __ATOMIC_RELAXED);
		printk("lock_check: %s is taken in an interrupt handler (at %pS) and with interrupts on (at %pS)\n",
		       class->name, class->irq_ip, class->irqs_on_ip);
	}
	table_unlock_irqrestore(irq);
}

size_t mm_lock_check_cpu_bytes(unsigned int nr_cpus)
{
	return nr_cpus > LOCK_CHECK_CPUS ? (nr_cpus - LOCK_CHECK_CPUS) * sizeof(struct lock_cpu) : 0;
}

void mm_lock_check_set_cpus(void *mem, unsigned int nr_cpus)
{
	unsigned long irq = table_lock_irqsave();

	if (mem)
		memset(mem, 0, mm_lock_check_cpu_bytes(nr_cpus));
	more_cpus = mem;
	nr_cpus_checked = mem ? nr_cpus : LOCK_CHECK_CPUS;
	table_unlock_irqrestore(irq);
}

/* The held locks of cpu, NULL when the checker keeps none for it. */
static struct lock_cpu *lock_cpu_of(unsigned int cpu)
{
	if (cpu < LOCK_CHECK_CPUS)
		return &lock_cpus[cpu];
	return cpu < nr_cpus_checked ? &more_cpus[cpu - LOCK_CHECK_CPUS] : NULL;
}

/* Interrupts off: checks lock, about to be taken at ip on cpu, against what cpu holds; records it. */
static void acquire(mm_spinlock_t *lock, const void *ip, bool irqs_on)
{
	unsigned int cpu = arch_cpu_id(), b;
	struct lock_cpu *lc;

	if (!lock->class) {
		report_once(&no_class, "a lock with no class (lock_set_class())", lock, ip);
		return;
	}
	b = class_index(lock->class);
	if (!b)
		return;
	lc = lock_cpu_of(cpu);
	if (!lc) {
		report_once(&cpu_too_high, "a CPU number past mm_init()'s nr_cpus", lock, ip);
		return;
	}
	check_irq_usage(lock->class, ip, irqs_on);
	for (unsigned int i = 0; i < lc->depth; i++)
		check_order(lc, i, b, ip, cpu);
	if (lc->depth == LOCK_DEPTH) {
		lc->lost++;
		report_once(&too_deep, "more locks held at once than the checker keeps", lock, ip);
		return;
	}
	lc->held[lc->depth++] = (struct held_lock){ lock, ip };
}

/* Interrupts off: takes lock off cpu's held locks (usually the last one taken). */
static void release(mm_spinlock_t *lock, const void *ip)
{
	unsigned int cpu = arch_cpu_id();
	struct lock_cpu *lc;

	lc = lock_cpu_of(cpu);
	if (!lock->class || !lock->class->index || !lc)
		return; /* never recorded (reported when taken) */
	for (unsigned int i = lc->depth; i-- > 0;)
		if (lc->held[i].lock == lock) {
			memmove(&lc->held[i], &lc->held[i + 1], (lc->depth - 1 - i) * sizeof(lc->held[0]));
			lc->depth--;
			return;
		}
	if (lc->lost)
		lc->lost--; /* the one that did not fit, presumably */
	else
		report_once(&not_held, "released by a CPU that does not hold it", lock, ip);
}

void mm_lock_check_acquire(mm_spinlock_t *lock)
{
	bool irqs_on = !arch_irqs_disabled();
	unsigned long irq = arch_irq_save();

	acquire(lock, __builtin_return_address(0), irqs_on);
	arch_irq_restore(irq);
}

void mm_lock_check_release(mm_spinlock_t *lock)
{
	unsigned long irq = arch_irq_save();

	release(lock, __builtin_return_address(0));
	arch_irq_restore(irq);
}

bool lock_held(const mm_spinlock_t *lock)
{
	unsigned long irq = arch_irq_save();
	struct lock_cpu *lc = lock_cpu_of(arch_cpu_id());
	bool held = !lock->class || !lc || lc->lost; /* not kept: trust */

	for (unsigned int i = 0; !held && i < lc->depth; i++)
		held = lc->held[i].lock == lock;
	arch_irq_restore(irq);
	return held;
}

unsigned int lock_held_count(void)
{
	unsigned long irq = arch_irq_save();
	struct lock_cpu *lc = lock_cpu_of(arch_cpu_id());
	unsigned int n = lc ? lc->depth + lc->lost : 0;

	arch_irq_restore(irq);
	return n;
}

void lock_check_show(void)
{
	unsigned long irq = table_lock_irqsave();

	printk("lock_check: %u classes, %lu reports\n", nr_classes,
	       __atomic_load_n(&mm_lock_check_reports, __ATOMIC_RELAXED));
	for (unsigned int a = 1; a <= nr_classes; a++)
		for (unsigned int b = 1; b <= nr_classes; b++)
			if (after[a] & (1u << b))
				printk("lock_check:   %s before %s (first at %pS)\n", class_name(a), class_name(b),
				       orders[a][b].ip);
	table_unlock_irqrestore(irq);
}

#endif
