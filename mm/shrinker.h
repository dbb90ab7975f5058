/* SPDX-License-Identifier: MIT */
/*
 * Shrinkers: caches that hold memory they could give back register two calls, and the page
 * allocator calls them when an allocation is about to fail (Linux's shrinker interface, without
 * its priorities: here the only caller is an allocation about to fail, so each shrinker is asked
 * for everything it counts).
 *
 *   static unsigned long my_count(struct shrinker *s, struct shrink_control *sc)
 *   {   return objects_i_could_free;   }
 *   static unsigned long my_scan(struct shrinker *s, struct shrink_control *sc)
 *   {   return free_up_to(sc->nr_to_scan);   }     // what it freed, or SHRINK_STOP
 *   static struct shrinker my_shrinker = { .count_objects = my_count, .scan_objects = my_scan,
 *                                          .name = "my cache" };
 *   register_shrinker(&my_shrinker);
 *
 * When they run. alloc_pages() calls mm_shrink() in its slow path, after draining the per-CPU
 * lists and before it fails, then drains the lists again (the shrinkers' pages land on them) and
 * tries once more. It holds no mm lock then. mm_shrink() runs the shrinkers with interrupts off on
 * the calling CPU, under shrinker_lock (the first lock of the order in mm/lock_check.h), possibly
 * in an interrupt handler (an allocation there), on any CPU; two CPUs shrinking take turns. So a
 * shrinker's calls:
 *   - must not sleep, and take their locks with interrupts off, as every lock of mm/ is;
 *   - may take mm/'s locks (the slab's shrinker takes mm_slab_caches_lock and the caches' locks) and
 *     free pages, but must not allocate unless with __GFP_NORECLAIM (an allocation that failed
 *     would call the shrinkers again on this CPU: that is refused, reported, and nothing freed);
 *   - must not register or unregister a shrinker (shrinker_lock is held).
 *
 * A caller of alloc_pages() that holds a lock a shrinker may take (any mm lock: a slab CPU slot's,
 * hugetlb_lock ...) passes __GFP_NORECLAIM (mm/gfp.h), and the allocation fails without calling
 * the shrinkers. The slab allocates its slabs' pages so.
 */
#ifndef MM_SHRINKER_H
#define MM_SHRINKER_H

#include "mm/gfp.h"
#include "mm/list.h"

#define SHRINK_STOP (~0UL)        /* scan_objects: cannot free anything now; do not ask again in this run */
#define SHRINK_EMPTY (~0UL - 1)   /* count_objects: nothing to free (0 means the same) */
#define SHRINK_BATCH 128UL        /* objects per scan_objects() call when shrinker.batch is 0 */
#define SHRINK_MAX_CALLS 1024u    /* scan_objects() calls per shrinker in one mm_shrink() at most */

/* What a shrinker is asked. */
struct shrink_control {
	gfp_t gfp_mask;           /* the allocation that is about to fail */
	unsigned int order;       /* ... and its order */
	unsigned long nr_to_scan; /* scan_objects: look at this many objects (at most the batch) */
	unsigned long nr_scanned; /* scan_objects may set how many it looked at (preset nr_to_scan) */
};

struct shrinker {
	/* How many objects could be freed now (an estimate is fine); 0 or SHRINK_EMPTY: none. */
	unsigned long (*count_objects)(struct shrinker *s, struct shrink_control *sc);
	/*
	 * Frees up to sc->nr_to_scan objects; returns how many it freed, or SHRINK_STOP. A call that
	 * frees nothing (0 or SHRINK_STOP) ends this shrinker's part of the run.
	 */
	unsigned long (*scan_objects)(struct shrinker *s, struct shrink_control *sc);
	unsigned long batch;      /* objects per scan_objects() call; 0: SHRINK_BATCH */
	const char *name;         /* for messages */
	void *private_data;       /* the owner's */
	struct list_head list;    /* internal: on the list of registered shrinkers */
};

/**
 * register_shrinker() - Add a shrinker to those mm_shrink() runs.
 * @s: the shrinker, its calls and name set.
 *
 * Return: 0, or -EINVAL (reported) when s or a call is missing, or s is already registered.
 */
int register_shrinker(struct shrinker *s);

/**
 * unregister_shrinker() - Remove a shrinker.
 * @s: a registered shrinker; never from one of s's own calls.
 *
 * When it returns, no call of s is running or will run. Reported (and nothing done) when s is
 * not registered.
 */
void unregister_shrinker(struct shrinker *s);

/**
 * mm_shrink() - Run every registered shrinker, in the order registered.
 * @gfp: the allocation that is about to fail (shrink_control.gfp_mask).
 * @order: its order.
 *
 * Each: count_objects(), then scan_objects() in batches of s->batch until what it counted has
 * been scanned, a call frees nothing, or SHRINK_MAX_CALLS calls. Counted in SHRINKER_RUNS
 * (mm/vmstat.h). No mm lock may be held by the caller (alloc_pages() calls it so).
 *
 * Return: the objects freed, all shrinkers together (0 also when gfp has __GFP_NORECLAIM, or when
 * called from a shrinker).
 */
unsigned long mm_shrink(gfp_t gfp, unsigned int order);

/**
 * shrinker_reset() - Boot: forget every shrinker.
 *
 * Called by mm_init(), again after a rebuild.
 */
void shrinker_reset(void);

#endif
