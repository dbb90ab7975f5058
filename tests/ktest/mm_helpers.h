/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the mm self-tests (tests/ktest/mm_*.c): the seeded random number generator,
 * the check that the free lists have their shape again (the snapshot is tests/ktest/mm_shape.h),
 * a list of held blocks, a way to switch poisoning off around tests that move a lot of memory,
 * and the checks that let a case skip when the memory free now cannot give the blocks it needs
 * (a tiny machine, or one whose memory a hugetlb pool took at boot).
 */
#ifndef TESTS_KTEST_MM_HELPERS_H
#define TESTS_KTEST_MM_HELPERS_H

#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "mm/bad_page.h"
#include "mm/pcp.h"
#include "mm/hugetlb.h"
#include "mm/mm_stats.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "mm/watermark.h"
#include "tests/ktest/mm_shape.h"
#include "tests/ktest/mm_test_rand.h"

/* Expects the free lists to have shape *before again (mm_shape_take), naming the first difference. */
static inline bool mm_expect_shape(struct ktest *t, const struct mm_shape *before)
{
	struct mm_shape now;
	int z, o;

	mm_shape_take(&now); /* drains the pcp lists */
	if (mm_shape_equal(&now, before, &z, &o))
		return true;
	if (o < NR_ORDERS)
		return KT_EXPECT(t, now.nr_free[z][o] == before->nr_free[z][o],
				 "zone %s order %d: %lu free blocks, %lu before", mm_zones[z].name, o,
				 now.nr_free[z][o], before->nr_free[z][o]);
	return KT_EXPECT(t, now.free_pages == before->free_pages, "%lu free pages, %lu before",
			 now.free_pages, before->free_pages);
}

/* Is the frame at pfn in a free block of the buddy lists (the first page of a block has PG_buddy)? */
static inline bool mm_pfn_in_buddy_block(unsigned long pfn)
{
	for (unsigned int o = 0; o < NR_ORDERS; o++) {
		unsigned long head = pfn & ~((1UL << o) - 1);

		if (pfn_valid(head) && PageBuddy(pfn_to_page(head)) && pfn_to_page(head)->private >= o)
			return true;
	}
	return false;
}

/*
 * After freeing page on this CPU (interrupts off since): expects it where the free should have put
 * it, first on this CPU's list of its pcp type, or in the buddy lists when mm_pcp_free_bypasses() said
 * so before the free (a zone that hugepages= filled is busy).
 */
static inline bool mm_expect_freed_to(struct ktest *t, struct page *page, bool bypassed)
{
	struct per_cpu_pages *pcp = cpu_pcp(arch_cpu_id(), page_zonenum(page));

	if (bypassed)
		return KT_EXPECT(t, mm_pfn_in_buddy_block(page_to_pfn(page)),
				 "pfn %#lx is not in the buddy lists, though its zone is busy and its pageblock sparse",
				 page_to_pfn(page));
	return KT_EXPECT(t, pcp_count(pcp, 0) >= 1 && pcp_first_block(pcp, 0, page_pcptype(page)) == page,
			 "pfn %#lx is not first on this CPU's list of type %u (%u blocks there)", page_to_pfn(page),
			 page_pcptype(page), pcp_count(pcp, 0));
}

/* The type lists cpu's table (struct pcp_cpu's gfp_lists[], mm/pcp.h) gives gfp. */
static inline struct pcp_type_lists *pcp_gfp_table_lists(unsigned int cpu, gfp_t gfp)
{
	return (struct pcp_type_lists *)((char *)&mm_pcp_area[cpu] +
					 __atomic_load_n(&mm_pcp_area[cpu].gfp_lists[gfp], __ATOMIC_RELAXED));
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
	return zone_free_pages(&mm_zones[z]);
}

/* Blocks on every CPU's lists of every zone. */
static inline unsigned long mm_pcp_blocks(void)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
			for (unsigned int slot = 0; slot < PCP_NR_SLOTS; slot++)
				n += pcp_count(cpu_pcp(cpu, z), slot);
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

/*
 * How many blocks of 2^order pages the free lists of zone could hand to gfp now: its free blocks of
 * that order and above, each counted as the blocks it splits into, and no more than the zone
 * gives before it reaches the watermark gfp stops at (mm/watermark.h). The pcp lists must have
 * been drained, so that what they held is counted in its merged form.
 */
static inline unsigned long mm_zone_free_blocks(const struct zone *zone, unsigned int order, gfp_t gfp)
{
	unsigned long mark = gfp & __GFP_HIGH ? 0 : zone->watermark[WMARK_MIN];
	unsigned long free = zone_usable_free_pages(zone);
	unsigned long n = 0, above_mark = free > mark ? (free - mark) >> order : 0;

	for (unsigned int o = order; o < NR_ORDERS; o++)
		n += __atomic_load_n(&zone->free_area[o].nr_free, __ATOMIC_RELAXED) << (o - order);
	return n < above_mark ? n : above_mark;
}

/*
 * How many blocks of 2^order pages gfp could have at once now, in the zones it allows (drains the
 * pcp lists first). What is free counts, not what RAM could hold: memory that others keep (a
 * hugetlb pool that hugepages= filled, the kernel's own allocations) is no more a case's than a
 * hole in RAM. This does not hide memory that a suite lost: the runner fails a suite that leaves
 * fewer free pages than it found (tests/ktest/ktest_leak.h).
 */
static inline unsigned long mm_free_blocks(unsigned int order, gfp_t gfp)
{
	unsigned long n = 0;

	drain_pcp_lists();
	for (int z = 0; z <= (int)mm_gfp_top_zone(gfp); z++)
		n += mm_zone_free_blocks(&mm_zones[z], order, gfp);
	return n;
}

/* Frames the hugetlb pools hold (free, reserved or handed out), of every huge page size. */
static inline unsigned long mm_hugetlb_pool_pages(void)
{
	return (hugetlb_counters(HPAGE_ORDER).total << HPAGE_ORDER) +
	       (hugetlb_counters(GIGANTIC_ORDER).total << GIGANTIC_ORDER);
}

/*
 * Skips the case and returns true when have, the blocks of the order a case can get, is fewer
 * than the count it needs; the reason says what the case needs, what it can have, and where the
 * memory is.
 */
static inline bool mm_skip_short_of_blocks(struct ktest *t, unsigned int order, unsigned long count,
					   unsigned long have)
{
	static char reason[200]; /* the runner prints it as soon as the case returns */

	if (have >= count)
		return false;
	snprintf(reason, sizeof(reason),
		 "needs %lu free block%s of order %u (%lu KiB), free memory here gives %lu (%lu pages free, %lu in hugetlb pools)",
		 count, count == 1 ? "" : "s", order, (PAGE_SIZE << order) >> 10, have, nr_free_pages(),
		 mm_hugetlb_pool_pages());
	ktest_skip(t, reason);
	return true;
}

/*
 * Skips the case and returns true when gfp cannot have count blocks of the order at once from the
 * memory free now (mm_free_blocks); the reason says what the case needs and what there is.
 */
static inline bool mm_skip_without_blocks(struct ktest *t, unsigned int order, unsigned long count, gfp_t gfp)
{
	return mm_skip_short_of_blocks(t, order, count, mm_free_blocks(order, gfp));
}

/*
 * For a case that goes through every order up to MAX_ORDER: the highest order of which gfp could
 * have a block from the memory free now (mm_free_blocks). When that is below MAX_ORDER the case is
 * marked skipped, with the orders left out and why; it still runs the lower orders, and a failure
 * there still fails it.
 */
static inline unsigned int mm_top_testable_order(struct ktest *t, gfp_t gfp)
{
	static char reason[200]; /* the runner prints it as soon as the case returns */
	unsigned int top = MAX_ORDER;

	while (top > 0 && !mm_free_blocks(top, gfp))
		top--;
	if (top < MAX_ORDER) {
		snprintf(reason, sizeof(reason),
			 "orders %u..%u untested: no free block of %lu KiB here (%lu pages free, %lu in hugetlb pools); tested up to order %u",
			 top + 1, MAX_ORDER, (PAGE_SIZE << (top + 1)) >> 10, nr_free_pages(),
			 mm_hugetlb_pool_pages(), top);
		ktest_skip(t, reason);
	}
	return top;
}

#endif
