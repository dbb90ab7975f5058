/* SPDX-License-Identifier: MIT */
/*
 * The registered shrinkers and mm_shrink(), which the page allocator's slow path calls before an
 * allocation fails. See mm/shrinker.h for when they run and what they may do.
 *
 * shrinker_lock, taken with interrupts off, protects the list and is held while the shrinkers
 * run: so unregister_shrinker() waits for a running call, and two CPUs shrinking take turns. It
 * comes before every other mm lock (mm/lock_check.h).
 */
#include "mm/shrinker.h"

#include "mm/arch.h"
#include "mm/lock_check.h"
#include "mm/vmstat.h"

static struct list_head shrinkers = { &shrinkers, &shrinkers };
static DEFINE_MM_SPINLOCK(shrinker_lock, "shrinker_lock");
/* The CPU running the shrinkers, plus 1 (0: none): a shrinker's failing allocation must not recurse. */
static unsigned int shrinking_cpu;

void shrinker_reset(void)
{
	list_init(&shrinkers);
	shrinking_cpu = 0;
}

/* shrinker_lock held: is s on the list? */
static bool registered(const struct shrinker *s)
{
	for (const struct list_head *l = shrinkers.next; l != &shrinkers; l = l->next)
		if (l == &s->list)
			return true;
	return false;
}

int register_shrinker(struct shrinker *s)
{
	unsigned long irq;
	bool twice;

	if (!s || !s->count_objects || !s->scan_objects) {
		printk("register_shrinker: refused: %s without count_objects or scan_objects\n",
		       s && s->name ? s->name : "a shrinker");
		return -EINVAL;
	}
	irq = mm_spin_lock_irqsave(&shrinker_lock);
	twice = registered(s);
	if (!twice)
		list_add(&s->list, shrinkers.prev); /* at the tail: they run in the order registered */
	mm_spin_unlock_irqrestore(&shrinker_lock, irq);
	if (twice) {
		printk("register_shrinker: refused: %s is already registered\n", s->name ? s->name : "?");
		return -EINVAL;
	}
	return 0;
}

void unregister_shrinker(struct shrinker *s)
{
	unsigned long irq = mm_spin_lock_irqsave(&shrinker_lock);
	bool known = s && registered(s);

	if (known) {
		list_del(&s->list);
		s->list.next = s->list.prev = NULL;
	}
	mm_spin_unlock_irqrestore(&shrinker_lock, irq);
	if (!known)
		printk("unregister_shrinker: %s is not registered; nothing done\n", s && s->name ? s->name : "?");
}

/* shrinker_lock held: one shrinker's part of a run (mm/shrinker.h). Returns the objects it freed. */
static unsigned long shrink_one(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long count = s->count_objects(s, sc), batch = s->batch ? s->batch : SHRINK_BATCH, freed = 0;

	if (count == SHRINK_EMPTY)
		return 0;
	for (unsigned int calls = 0; count && calls < SHRINK_MAX_CALLS; calls++) {
		unsigned long got;

		sc->nr_to_scan = sc->nr_scanned = MIN(count, batch);
		got = s->scan_objects(s, sc);
		if (got == SHRINK_STOP || !got)
			break;
		freed += got;
		count -= MIN(count, MAX(sc->nr_scanned, 1UL));
	}
	return freed;
}

static struct shrinker *shrinker_of_list(struct list_head *l)
{
	return (struct shrinker *)((char *)l - offsetof(struct shrinker, list));
}

/* Interrupts off, shrinker_lock held: every shrinker in turn. */
static unsigned long shrink_all(gfp_t gfp, unsigned int order)
{
	struct shrink_control sc = { .gfp_mask = gfp, .order = order };
	unsigned long freed = 0;

	for (struct list_head *l = shrinkers.next; l != &shrinkers; l = l->next)
		freed += shrink_one(shrinker_of_list(l), &sc);
	return freed;
}

unsigned long mm_shrink(gfp_t gfp, unsigned int order)
{
	unsigned long irq, freed;
	unsigned int me;

	if (gfp & __GFP_NORECLAIM)
		return 0;
	irq = arch_irq_save(); /* first: the CPU number holds only while interrupts are off */
	me = arch_cpu_id() + 1;
	if (__atomic_load_n(&shrinking_cpu, __ATOMIC_RELAXED) == me) {
		arch_irq_restore(irq);
		printk("mm_shrink: a shrinker's allocation (order %u, gfp %#x) failed and would run the "
		       "shrinkers again: refused (a shrinker allocates only with __GFP_NORECLAIM)\n", order, gfp);
		return 0;
	}
	arch_spin_lock(&shrinker_lock);
	__atomic_store_n(&shrinking_cpu, me, __ATOMIC_RELAXED);
	count_vm_event(SHRINKER_RUNS);
	freed = shrink_all(gfp, order);
	__atomic_store_n(&shrinking_cpu, 0, __ATOMIC_RELAXED);
	arch_spin_unlock(&shrinker_lock);
	arch_irq_restore(irq);
	return freed;
}
