/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the shrinkers (mm/shrinker.h): an allocation about to fail calls a registered
 * shrinker, and what it frees lets the allocation succeed; an unregistered one is not called;
 * the slab's shrinker gives a cache's empty slabs back under pressure (SLABS_SHRUNK counts them);
 * a shrinker that frees nothing, or claims progress forever, does not hold the allocation in a
 * loop; one that allocates is not run again from inside itself; registration refuses misuse.
 *
 * "Pressure" is memory exhausted with GFP_ATOMIC (mm_exhaust()): every later allocation reaches
 * the end of the slow path, where the shrinkers run.
 */
#include "tests/ktest/mm_helpers.h"
#include "mm/shrinker.h"
#include "mm/slab.h"
#include "mm/slab_cache.h"
#include "mm/vmstat.h"

#define STASH 8

/* A test shrinker's cache: blocks of one order it holds, and what it was asked. */
static struct stash {
	struct page *page[STASH];
	unsigned int nr, order;
	unsigned int counts, scans;
	unsigned long claim;     /* scan returns this instead of what it freed, when non-zero */
	unsigned long count_as;  /* count returns this instead of nr, when non-zero */
	bool allocate;           /* scan allocates (without __GFP_NORECLAIM) before freeing */
	bool allocated;          /* ... and that allocation got a page */
} stash;

static unsigned long stash_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s, (void)sc;
	stash.counts++;
	return stash.count_as ? stash.count_as : stash.nr;
}

static unsigned long stash_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0;

	(void)s;
	stash.scans++;
	if (stash.allocate) {
		struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);

		stash.allocated = page != NULL;
		if (page)
			__free_pages(page, 0);
	}
	while (stash.nr && freed < sc->nr_to_scan) {
		__free_pages(stash.page[--stash.nr], stash.order);
		freed++;
	}
	return stash.claim ? stash.claim : freed;
}

static struct shrinker stash_shrinker = { .count_objects = stash_count, .scan_objects = stash_scan,
					  .name = "test stash" };

/*
 * Fills the stash with n blocks of order (gfp's type) and clears what it was asked; false if the
 * blocks cannot be had.
 */
static bool stash_fill_blocks(unsigned int n, unsigned int order, gfp_t gfp)
{
	memset(&stash, 0, sizeof(stash));
	stash.order = order;
	while (stash.nr < n) {
		struct page *page = alloc_pages(gfp | __GFP_NOWARN, order);

		if (!page)
			return false;
		stash.page[stash.nr++] = page;
	}
	return true;
}

/* n order-0 unmovable pages. */
static bool stash_fill(unsigned int n)
{
	return stash_fill_blocks(n, 0, GFP_KERNEL);
}

static void stash_empty(void)
{
	while (stash.nr)
		__free_pages(stash.page[--stash.nr], stash.order);
}

/*
 * Under pressure (memory exhausted with GFP_ATOMIC), with the stash's shrinker registered when
 * with_shrinker, one allocation of order with gfp | __GFP_NOWARN: did it get a block? (Given back
 * at once, as is the memory the pressure took.)
 */
static bool alloc_under_pressure(struct ktest *t, gfp_t gfp, unsigned int order, bool with_shrinker)
{
	struct mm_held held;
	struct page *page;
	bool registered = false;

	mm_held_init(&held);
	mm_exhaust(&held, MAX_ORDER, 0, GFP_ATOMIC);
	if (with_shrinker)
		registered = KT_EXPECT(t, register_shrinker(&stash_shrinker) == 0, "register_shrinker refused");
	page = alloc_pages(gfp | __GFP_NOWARN, order);
	if (registered)
		unregister_shrinker(&stash_shrinker);
	if (page)
		__free_pages(page, order);
	mm_held_free_all(&held);
	return page != NULL;
}

/* A failing allocation runs the shrinker; the page it frees is what the last try gets. */
static void shrinker_frees_what_a_failing_allocation_needs(struct ktest *t)
{
	unsigned long runs = vm_event_count(SHRINKER_RUNS);
	bool got;

	KT_ASSERT(t, stash_fill(STASH), "no pages for the stash");
	got = alloc_under_pressure(t, GFP_ATOMIC, 0, true);
	KT_EXPECT(t, got, "no page although the shrinker freed %u", STASH - stash.nr);
	KT_EXPECT(t, stash.counts == 1 && stash.scans >= 1, "count called %u times, scan %u: want 1 and 1 or more",
		  stash.counts, stash.scans);
	KT_EXPECT(t, stash.nr < STASH, "the stash still holds all %u pages", stash.nr);
	KT_EXPECT(t, vm_event_count(SHRINKER_RUNS) > runs, "shrinker_runs stayed at %lu", runs);
	stash_empty();
}

/*
 * A movable order-3 block the shrinker frees serves an unmovable order-3 request: the freed block
 * lands on this CPU's movable list, which the slow path drains before its last try.
 */
static void a_shrunk_block_of_another_type_is_found(struct ktest *t)
{
	KT_ASSERT(t, stash_fill_blocks(1, 3, GFP_HIGHUSER_MOVABLE), "no movable order-3 block for the stash");
	KT_EXPECT(t, alloc_under_pressure(t, GFP_ATOMIC, 3, true), "no order-3 block although the shrinker freed %u",
		  1 - stash.nr);
	stash_empty();
}

/* Unregistered, a shrinker is not called, and its pages do not come back. */
static void an_unregistered_shrinker_is_not_called(struct ktest *t)
{
	KT_ASSERT(t, stash_fill(STASH), "no pages for the stash");
	KT_ASSERT(t, register_shrinker(&stash_shrinker) == 0, "register_shrinker refused");
	unregister_shrinker(&stash_shrinker);
	KT_EXPECT(t, !alloc_under_pressure(t, GFP_ATOMIC, 0, false), "a page with memory exhausted and no shrinker");
	KT_EXPECT(t, stash.counts == 0 && stash.scans == 0, "count called %u times, scan %u after unregister",
		  stash.counts, stash.scans);
	stash_empty();
}

/*
 * A cache filled and then freed keeps empty slabs and free objects on its CPU lists; memory
 * pressure gives every page of it back through the slab's shrinker, counted in SLABS_SHRUNK.
 */
static void pressure_gives_a_cache_s_empty_slabs_back(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("shrinker-test", 200, 0, 0);
	unsigned long shrunk = vm_event_count(SLABS_SHRUNK), pages;
	static void *objs[512];
	struct mm_held held;

	KT_ASSERT(t, c, "kmem_cache_create failed");
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		KT_ASSERT(t, (objs[i] = kmem_cache_alloc(c, GFP_KERNEL)), "object %u", i);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		kmem_cache_free(c, objs[i]);
	pages = __atomic_load_n(&c->nr_slabs, __ATOMIC_RELAXED) << c->order;
	KT_EXPECT(t, pages > 0, "the cache kept no slab after its objects were freed");
	mm_held_init(&held);
	mm_exhaust(&held, MAX_ORDER, 0, GFP_ATOMIC);
	KT_EXPECT_EQ(t, __atomic_load_n(&c->nr_slabs, __ATOMIC_RELAXED), 0);
	KT_EXPECT(t, vm_event_count(SLABS_SHRUNK) - shrunk >= pages, "slabs_shrunk rose by %lu, want %lu or more",
		  vm_event_count(SLABS_SHRUNK) - shrunk, pages);
	mm_held_free_all(&held);
	kmem_cache_destroy(c);
}

/* A shrinker that counts objects but frees none is asked once, and the allocation fails. */
static void a_shrinker_that_frees_nothing_is_asked_once(struct ktest *t)
{
	memset(&stash, 0, sizeof(stash));
	stash.count_as = 1000;
	KT_EXPECT(t, !alloc_under_pressure(t, GFP_ATOMIC, 0, true), "a page with memory exhausted and nothing freed");
	KT_EXPECT(t, stash.counts == 1 && stash.scans == 1, "count called %u times, scan %u: want 1 and 1",
		  stash.counts, stash.scans);
}

/* One that claims to free objects forever is asked at most SHRINK_MAX_CALLS times; one more try, then failure. */
static void a_shrinker_that_claims_progress_forever_is_cut_off(struct ktest *t)
{
	memset(&stash, 0, sizeof(stash));
	stash.count_as = SHRINK_EMPTY - 1;
	stash.claim = 1;
	KT_EXPECT(t, !alloc_under_pressure(t, GFP_ATOMIC, 0, true), "a page with memory exhausted and nothing freed");
	KT_EXPECT(t, stash.scans == SHRINK_MAX_CALLS, "scan called %u times, want %u", stash.scans, SHRINK_MAX_CALLS);
}

/* A shrinker's own failing allocation does not run the shrinkers again (it would deadlock). */
static void a_shrinker_s_allocation_does_not_recurse(struct ktest *t)
{
	bool got;

	KT_ASSERT(t, stash_fill(1), "no page for the stash");
	stash.allocate = true;
	got = alloc_under_pressure(t, GFP_ATOMIC, 0, true);
	KT_EXPECT(t, stash.scans == 1 && !stash.allocated, "scan called %u times, its allocation %s", stash.scans,
		  stash.allocated ? "got a page" : "failed");
	KT_EXPECT(t, got, "no page although the shrinker freed one");
	stash_empty();
}

/* __GFP_NORECLAIM: the shrinkers are not called, the allocation fails. */
static void noreclaim_allocations_do_not_shrink(struct ktest *t)
{
	KT_ASSERT(t, stash_fill(STASH), "no pages for the stash");
	KT_EXPECT(t, !alloc_under_pressure(t, GFP_ATOMIC | __GFP_NORECLAIM, 0, true),
		  "a page with memory exhausted and __GFP_NORECLAIM");
	KT_EXPECT_EQ(t, stash.counts + stash.scans, 0);
	stash_empty();
}

/* Registration refuses a shrinker without its calls, or one registered twice; unregister an unknown one. */
static void registration_refuses_misuse(struct ktest *t)
{
	struct shrinker none = { .name = "no calls" };

	KT_EXPECT_EQ(t, register_shrinker(&none), -EINVAL);
	KT_EXPECT_EQ(t, register_shrinker(NULL), -EINVAL);
	KT_ASSERT(t, register_shrinker(&stash_shrinker) == 0, "register_shrinker refused");
	KT_EXPECT_EQ(t, register_shrinker(&stash_shrinker), -EINVAL);
	unregister_shrinker(&stash_shrinker);
	unregister_shrinker(&stash_shrinker); /* reported, nothing done */
	unregister_shrinker(&none);
	KT_EXPECT_EQ(t, register_shrinker(&stash_shrinker), 0); /* a second life after unregister */
	unregister_shrinker(&stash_shrinker);
}

KTEST_SUITE(shrinker,
	    KTEST_CASE(shrinker_frees_what_a_failing_allocation_needs),
	    KTEST_CASE(a_shrunk_block_of_another_type_is_found),
	    KTEST_CASE(an_unregistered_shrinker_is_not_called),
	    KTEST_CASE(pressure_gives_a_cache_s_empty_slabs_back),
	    KTEST_CASE(a_shrinker_that_frees_nothing_is_asked_once),
	    KTEST_CASE(a_shrinker_that_claims_progress_forever_is_cut_off),
	    KTEST_CASE(a_shrinker_s_allocation_does_not_recurse),
	    KTEST_CASE(noreclaim_allocations_do_not_shrink),
	    KTEST_CASE(registration_refuses_misuse));
