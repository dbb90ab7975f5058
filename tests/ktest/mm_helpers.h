/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the mm self-tests (tests/ktest/mm_*.c): a seeded random number generator,
 * the check that the free lists have their shape again (the snapshot is tests/ktest/mm_shape.h),
 * a list of held blocks, a way to switch poisoning off around tests that move a lot of memory,
 * and the checks that let a case skip on a machine too small for the blocks it needs.
 */
#ifndef TESTS_KTEST_MM_HELPERS_H
#define TESTS_KTEST_MM_HELPERS_H

#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "mm/bad_page.h"
#include "mm/hot_pages.h"
#include "mm/mm_stats.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "tests/ktest/mm_shape.h"

/* xorshift64: the same sequence in the kernel and on the host for a given seed. */
static inline unsigned long mm_test_rand(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* Expects the free lists to have shape *before again (mm_shape_take), naming the first difference. */
static inline bool mm_expect_shape(struct ktest *t, const struct mm_shape *before)
{
	struct mm_shape now;
	int z, o;

	mm_shape_take(&now); /* drains the hot lists */
	if (mm_shape_equal(&now, before, &z, &o))
		return true;
	if (o < NR_ORDERS)
		return KT_EXPECT(t, now.nr_free[z][o] == before->nr_free[z][o],
				 "zone %s order %d: %lu free blocks, %lu before", zones[z].name, o,
				 now.nr_free[z][o], before->nr_free[z][o]);
	return KT_EXPECT(t, now.free_pages == before->free_pages, "%lu free pages, %lu before",
			 now.free_pages, before->free_pages);
}

/* Blocks a test holds, chained through their first page's lru, order in private. */
struct mm_held {
	struct list_head list;
	unsigned long blocks, pages;
};

static inline void mm_held_init(struct mm_held *h)
{
	h->list.next = h->list.prev = &h->list;
	h->blocks = h->pages = 0;
}

static inline void mm_held_add(struct mm_held *h, struct page *page, unsigned int order)
{
	page->private = order;
	page->lru.next = h->list.next;
	h->list.next = &page->lru;
	h->blocks++;
	h->pages += 1UL << order;
}

/* Frees every held block with its order. */
static inline void mm_held_free_all(struct mm_held *h)
{
	for (struct list_head *l = h->list.next, *next; l != &h->list; l = next) {
		struct page *page = lru_to_page(l);

		next = l->next;
		__free_pages(page, (unsigned int)page->private);
	}
	mm_held_init(h);
}

/* Free pages of zone z, its buddy lists' and every CPU's lists'. */
static inline unsigned long mm_zone_free(enum zone_type z)
{
	return zone_free_pages(&zones[z]);
}

/* Blocks on every CPU's lists of every zone. */
static inline unsigned long mm_hot_blocks(void)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
			for (unsigned int o = 0; o <= HOT_MAX_ORDER; o++)
				n += __atomic_load_n(&cpu_pcp(cpu, z)->count[o], __ATOMIC_RELAXED);
	return n;
}

/*
 * Allocates blocks of order (then of each lower order down to low) until none is left. With
 * GFP_KERNEL that stops at each zone's min watermark; GFP_ATOMIC takes everything.
 */
static inline void mm_exhaust(struct mm_held *h, unsigned int order, unsigned int low, gfp_t gfp)
{
	for (int o = (int)order; o >= (int)low; o--) {
		struct page *page;

		while ((page = alloc_pages(gfp | __GFP_NOWARN, (unsigned int)o)))
			mm_held_add(h, page, (unsigned int)o);
	}
}

/* The highest zone an allocation with these flags may come from. */
static inline enum zone_type mm_gfp_top_zone(gfp_t gfp)
{
	return gfp & __GFP_DMA ? ZONE_DMA : gfp & __GFP_DMA32 ? ZONE_DMA32 : ZONE_NORMAL;
}

/* Are the n frames from pfn all handed to the buddy allocator (backed and not reserved)? */
static inline bool mm_frames_managed(unsigned long pfn, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (!pfn_valid(pfn + i) || PageReserved(pfn_to_page(pfn + i)))
			return false;
	return true;
}

/*
 * How many blocks of 2^order pages (counting up to max) this machine could hand out at once to
 * gfp: the naturally aligned runs of 2^order frames that the buddy allocator manages in the zones
 * gfp allows. What is free at the moment does not count, so a case skips for want of memory only
 * on a machine whose RAM is too small or too cut up, and still fails on one that has the memory.
 */
static inline unsigned long mm_possible_blocks(unsigned int order, gfp_t gfp, unsigned long max)
{
	unsigned long n = 0, size = 1UL << order;

	for (int z = 0; z <= (int)mm_gfp_top_zone(gfp) && n < max; z++)
		for (unsigned long pfn = ALIGN_UP(zones[z].start_pfn, size);
		     pfn + size <= zones[z].end_pfn && n < max; pfn += size)
			if (mm_frames_managed(pfn, size))
				n++;
	return n;
}

/* Frames the buddy allocator manages in the zones gfp allows. */
static inline unsigned long mm_managed_pages(gfp_t gfp)
{
	unsigned long n = 0;

	for (int z = 0; z <= (int)mm_gfp_top_zone(gfp); z++)
		n += zones[z].managed_pages;
	return n;
}

/*
 * Skips the case and returns true when this machine cannot have count free blocks of the order
 * for gfp (mm_possible_blocks); the reason says what the case needs and what the machine has.
 */
static inline bool mm_skip_without_blocks(struct ktest *t, unsigned int order, unsigned long count, gfp_t gfp)
{
	static char reason[160]; /* the runner prints it as soon as the case returns */
	unsigned long have = mm_possible_blocks(order, gfp, count);

	if (have >= count)
		return false;
	snprintf(reason, sizeof(reason),
		 "needs %lu block%s of order %u (%lu KiB), RAM here can hold %lu (%lu pages managed)",
		 count, count == 1 ? "" : "s", order, (PAGE_SIZE << order) >> 10, have,
		 mm_managed_pages(gfp));
	ktest_skip(t, reason);
	return true;
}

/*
 * For a case that goes through every order up to MAX_ORDER: the highest order this machine could
 * hand out a block of for gfp. When that is below MAX_ORDER the case is marked skipped, with the
 * orders left out and why; it still runs the lower orders, and a failure there still fails it.
 */
static inline unsigned int mm_top_testable_order(struct ktest *t, gfp_t gfp)
{
	static char reason[160]; /* the runner prints it as soon as the case returns */
	unsigned int top = MAX_ORDER;

	while (top > 0 && !mm_possible_blocks(top, gfp, 1))
		top--;
	if (top < MAX_ORDER) {
		snprintf(reason, sizeof(reason),
			 "orders %u..%u untested: RAM here has no aligned %lu KiB for a block (%lu pages managed); tested up to order %u",
			 top + 1, MAX_ORDER, (PAGE_SIZE << (top + 1)) >> 10, mm_managed_pages(gfp), top);
		ktest_skip(t, reason);
	}
	return top;
}

#endif
