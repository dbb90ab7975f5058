/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the buddy allocator through its public API: every order, splitting and merging,
 * exhaustion at order 0 and at MAX_ORDER, zones, __GFP_ZERO, references, addresses, the pcp
 * lists turned off and on.
 */
#include "tests/ktest/mm_helpers.h"

#include "lib/string.h"

static void alloc_and_free_at_every_order(struct ktest *t)
{
	unsigned int top = mm_top_testable_order(t, GFP_KERNEL);

	for (unsigned int order = 0; order <= top; order++) {
		unsigned long before = nr_free_pages();
		struct page *page = alloc_pages(GFP_KERNEL, order);

		KT_ASSERT(t, page != NULL, "alloc_pages(GFP_KERNEL, %u) failed with %lu pages free", order, before);
		KT_EXPECT_EQ(t, page_to_pfn(page) & ((1UL << order) - 1), 0);
		KT_EXPECT_EQ(t, page_count(page), 1);
		KT_EXPECT(t, !PageBuddy(page) && !PageReserved(page) && !PageCompound(page),
			  "order %u: flags %#x", order, (unsigned int)page->flags);
		KT_EXPECT_EQ(t, nr_free_pages(), before - (1UL << order));
		__free_pages(page, order);
		KT_EXPECT_EQ(t, nr_free_pages(), before);
	}
}

static void split_block_merges_back_on_free(struct ktest *t)
{
	struct mm_shape before;
	struct page *pages[8];

	mm_shape_take(&before);
	for (int i = 0; i < 8; i++) {
		pages[i] = alloc_pages(GFP_KERNEL, 0);
		KT_ASSERT(t, pages[i] != NULL, "alloc_pages(0) #%d failed", i);
	}
	for (int i = 7; i >= 0; i -= 2) /* odd ones first: nothing can merge until the evens go */
		__free_pages(pages[i], 0);
	for (int i = 6; i >= 0; i -= 2)
		__free_pages(pages[i], 0);
	mm_expect_shape(t, &before);
}

/*
 * Allocates blocks of order (pcp lists off) until the last four are the quarters of one aligned
 * block of order + 2, in address order: what follows the split of any larger block. Earlier
 * blocks go on held. Returns false when memory ran out first. Movable requests: they split the
 * smallest free block of any type, as the plain buddy allocator does, where an unmovable one
 * short of its own pageblocks steals from the largest (mm/README.md, "Grouping pages by
 * mobility"), so on a cut-up machine it may never split one block four times in a row.
 */
static bool take_four_quarters(struct mm_held *held, unsigned int order, struct page *q[4])
{
	unsigned long size = 1UL << order;
	struct page *page;

	q[0] = q[1] = q[2] = q[3] = NULL;
	while ((page = alloc_pages(__GFP_MOVABLE | __GFP_NOWARN, order))) {
		if (q[0])
			mm_held_add(held, q[0], order);
		q[0] = q[1], q[1] = q[2], q[2] = q[3], q[3] = page;
		if (q[0] && !(page_to_pfn(q[0]) & (4 * size - 1)) && page_to_pfn(q[1]) == page_to_pfn(q[0]) + size &&
		    page_to_pfn(q[2]) == page_to_pfn(q[0]) + 2 * size &&
		    page_to_pfn(q[3]) == page_to_pfn(q[0]) + 3 * size)
			return true;
	}
	for (int i = 0; i < 4; i++)
		if (q[i])
			mm_held_add(held, q[i], order);
	return false;
}

/* The order of the free block page heads on the buddy lists, -1 when it heads none. */
static long free_order(const struct page *page)
{
	return PageBuddy(page) ? (long)page->private : -1;
}

/*
 * Frees the four quarters q[0..3] of an aligned block of order + 2 so that only a correct buddy
 * (pfn ^ 2^order) merges what it should: q[2] then q[1] first, neighbours that are not buddies,
 * which must stay apart; then q[0], whose buddy q[1] is free, so they make one block of order + 1
 * (and no more: q[2] is a block of order, not order + 1); then q[3], which completes the parent.
 */
static void free_quarters_and_check_merges(struct ktest *t, unsigned int order, struct page *q[4])
{
	unsigned long pfn = page_to_pfn(q[0]), size = 1UL << order;

	__free_pages(q[2], order);
	__free_pages(q[1], order);
	KT_EXPECT(t, free_order(q[1]) == order && free_order(q[2]) == order,
		  "order %u: pfn %#lx and %#lx are neighbours, not buddies; freed, they head free blocks of order %ld and %ld (-1: none)",
		  order, pfn + size, pfn + 2 * size, free_order(q[1]), free_order(q[2]));
	__free_pages(q[0], order);
	KT_EXPECT(t, free_order(q[0]) == order + 1 && free_order(q[1]) == -1,
		  "order %u: buddies at pfn %#lx and %#lx did not make one block of order %u; they head free blocks of order %ld and %ld (-1: none)",
		  order, pfn, pfn + size, order + 1, free_order(q[0]), free_order(q[1]));
	__free_pages(q[3], order);
	KT_EXPECT(t, free_order(q[2]) == -1 && free_order(q[3]) == -1,
		  "order %u: the last quarters, pfn %#lx and %#lx, did not merge into their parent at %#lx: they head free blocks of order %ld and %ld",
		  order, pfn + 2 * size, pfn + 3 * size, pfn, free_order(q[2]), free_order(q[3]));
}

/*
 * The allocator finds a block's buddy by XOR (pfn ^ 2^order): with the pcp lists off, so that
 * every free merges at once, freed buddies merge into their parent's order and free neighbours
 * of the same order that are not buddies do not. Everything merges back to the first shape.
 */
static void buddies_merge_and_other_neighbours_do_not(struct ktest *t)
{
	static const unsigned int orders[] = { 0, 1, 3, MAX_ORDER - 2 };
	bool was = set_pcp_lists(false);
	struct mm_shape before;

	mm_shape_take(&before);
	for (unsigned int i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		struct mm_held held;
		struct page *q[4];

		if (mm_skip_without_blocks(t, orders[i] + 2, 1, GFP_KERNEL))
			break;
		mm_held_init(&held);
		if (KT_EXPECT(t, take_four_quarters(&held, orders[i], q),
			      "order %u: no four blocks in a row were the quarters of one block of order %u",
			      orders[i], orders[i] + 2))
			free_quarters_and_check_merges(t, orders[i], q);
		mm_held_free_all(&held);
	}
	mm_expect_shape(t, &before);
	set_pcp_lists(was);
}

/* Exhausts memory at order (and below), frees it, and expects counts and shape restored. */
static void exhaust_and_restore(struct ktest *t, unsigned int order)
{
	bool poison = mm_debug_poison;
	struct mm_shape before;
	struct mm_held held;
	unsigned long free0;

	set_page_poisoning(false); /* no need to fill every page of RAM with poison here */
	mm_shape_take(&before);
	free0 = before.free_pages;
	mm_held_init(&held);
	mm_exhaust(&held, order, order, GFP_ATOMIC); /* the reserve too: everything */
	KT_EXPECT(t, held.pages > 0, "nothing could be allocated at order %u", order);
	if (order == 0)
		KT_EXPECT_EQ(t, nr_free_pages(), 0);
	else
		KT_EXPECT(t, !((zone_free_orders(&mm_zones[0]) | zone_free_orders(&mm_zones[1]) | zone_free_orders(&mm_zones[2])) >> order),
			  "a block of order %u is still free", order);
	KT_EXPECT_EQ(t, held.pages + nr_free_pages(), free0);
	KT_EXPECT(t, alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order) == NULL, "allocation after exhaustion");
	KT_EXPECT(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, order) == NULL, "allocation after exhaustion");
	mm_held_free_all(&held);
	mm_expect_shape(t, &before);
	set_page_poisoning(poison);
}

static void exhaust_order_0_then_free_restores_everything(struct ktest *t)
{
	exhaust_and_restore(t, 0);
}

static void exhaust_max_order_then_free_restores_everything(struct ktest *t)
{
	if (mm_skip_without_blocks(t, MAX_ORDER, 1, GFP_KERNEL))
		return;
	exhaust_and_restore(t, MAX_ORDER);
}

static void failed_allocation_returns_null(struct ktest *t)
{
	unsigned long before = nr_free_pages();

	KT_EXPECT(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_ORDER + 1) == NULL, "order MAX_ORDER + 1");
	KT_EXPECT(t, alloc_pages(GFP_KERNEL, 40) == NULL, "order 40");
	KT_EXPECT(t, alloc_pages(0x80000000u, 0) == NULL, "unknown gfp bits");
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

static const char *zone_empty(enum zone_type z)
{
	return mm_zones[z].managed_pages ? NULL : "zone has no memory on this machine";
}

static void check_zone_alloc(struct ktest *t, gfp_t gfp, unsigned long limit_pfn, const char *what)
{
	for (unsigned int order = 0; order <= MAX_ORDER; order += 3) {
		struct page *page = alloc_pages(gfp | __GFP_NOWARN, order);

		if (!page)
			continue; /* a small zone may have no block this large left */
		KT_EXPECT(t, page_to_pfn(page) + (1UL << order) <= limit_pfn,
			  "%s order %u block at pfn %#lx is above pfn %#lx", what, order, page_to_pfn(page), limit_pfn);
		__free_pages(page, order);
	}
}

static void gfp_dma_page_is_below_16_mib(struct ktest *t)
{
	struct page *page;

	if (zone_empty(ZONE_DMA)) {
		ktest_skip(t, zone_empty(ZONE_DMA));
		return;
	}
	check_zone_alloc(t, __GFP_DMA, ZONE_DMA_END_PFN, "__GFP_DMA");
	page = alloc_pages(__GFP_DMA | GFP_ATOMIC | __GFP_NOWARN, 0);
	KT_EXPECT(t, page != NULL || mm_zone_free(ZONE_DMA) == 0, "no DMA page although %lu are free",
		  mm_zone_free(ZONE_DMA));
	if (page)
		__free_pages(page, 0);
}

static void gfp_dma32_page_is_below_4_gib(struct ktest *t)
{
	struct mm_held held;

	mm_held_init(&held);
	check_zone_alloc(t, __GFP_DMA32, ZONE_DMA32_END_PFN, "__GFP_DMA32");
	/* Even with the lower zones exhausted, __GFP_DMA32 never takes ZONE_NORMAL memory. */
	mm_exhaust(&held, 0, 0, __GFP_DMA32 | GFP_ATOMIC);
	KT_EXPECT(t, mm_zone_free(ZONE_DMA) == 0 && mm_zone_free(ZONE_DMA32) == 0,
		  "DMA %lu and DMA32 %lu pages left", mm_zone_free(ZONE_DMA), mm_zone_free(ZONE_DMA32));
	for (struct list_head *l = held.list.next; l != &held.list; l = l->next) {
		struct page *p = lru_to_page(l);
		if (!KT_EXPECT(t, page_to_pfn(p) < ZONE_DMA32_END_PFN, "pfn %#lx", page_to_pfn(p)))
			break;
	}
	mm_held_free_all(&held);
}

static void normal_falls_back_to_lower_zones(struct ktest *t)
{
	bool poison = mm_debug_poison;
	struct mm_held normal;
	struct page *page;

	if (zone_empty(ZONE_NORMAL)) {
		ktest_skip(t, "no memory above 4 GiB on this machine");
		return;
	}
	set_page_poisoning(false);
	mm_held_init(&normal);
	/* GFP_KERNEL leaves ZONE_NORMAL at its min watermark, then goes below 4 GiB. */
	while (mm_zone_free(ZONE_NORMAL) > mm_zones[ZONE_NORMAL].watermark[WMARK_MIN] &&
	       (page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
		mm_held_add(&normal, page, 0);
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	KT_EXPECT(t, page && page_zonenum(page) != ZONE_NORMAL, "GFP_KERNEL did not fall back below 4 GiB");
	if (page)
		__free_pages(page, 0);
	mm_held_free_all(&normal);
	set_page_poisoning(poison);
}

static void gfp_zero_gives_zeroed_pages(struct ktest *t)
{
	for (unsigned int order = 0; order <= 4; order++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);
		unsigned long nbytes = PAGE_SIZE << order;
		const uint64_t *w;

		KT_ASSERT(t, page != NULL, "alloc_pages(%u) failed", order);
		memset(page_address(page), 0x5a, nbytes);
		__free_pages(page, order);
		page = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);
		KT_ASSERT(t, page != NULL, "alloc_pages(__GFP_ZERO, %u) failed", order);
		w = page_address(page);
		for (unsigned long i = 0; i < nbytes / 8; i++)
			if (!KT_EXPECT(t, w[i] == 0, "order %u byte %#lx is %#llx", order, i * 8,
				       (unsigned long long)w[i]))
				break;
		__free_pages(page, order);
	}
}

static void get_and_put_page_count_references(struct ktest *t)
{
	unsigned long before = nr_free_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, page != NULL, "alloc_pages failed");
	get_page(page);
	get_page(page);
	KT_EXPECT_EQ(t, page_count(page), 3);
	put_page(page);
	put_page(page);
	KT_EXPECT_EQ(t, page_count(page), 1);
	KT_EXPECT_EQ(t, nr_free_pages(), before - 1);
	put_page(page);
	KT_EXPECT_EQ(t, page_count(page), 0);
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void addresses_and_pages_convert_both_ways(struct ktest *t)
{
	unsigned long addr = __get_free_pages(GFP_KERNEL, 2);
	struct page *page;

	KT_ASSERT(t, addr != 0, "__get_free_pages(2) failed");
	page = virt_to_page((void *)addr);
	KT_EXPECT_EQ(t, (unsigned long)page_address(page), addr);
	KT_EXPECT_EQ(t, pfn_to_page(page_to_pfn(page)), page);
	KT_EXPECT(t, pfn_valid(page_to_pfn(page)), "pfn %#lx not valid", page_to_pfn(page));
	KT_EXPECT_EQ(t, page_count(page), 1);
	((volatile char *)addr)[PAGE_SIZE * 4 - 1] = 1; /* the whole block is mapped */
	free_pages(addr, 2);
	free_pages(0, 2); /* ignored, like free(NULL) */
	KT_EXPECT_EQ(t, page_count(page), 0);
}

static void pcp_lists_off_merge_every_free_and_on_keep_them(struct ktest *t)
{
	struct mm_shape before;
	bool was = set_pcp_lists(false);
	struct page *page;

	KT_EXPECT(t, was, "the pcp lists were off before the test (they are on after boot)");
	KT_EXPECT_EQ(t, mm_pcp_blocks(), 0);
	mm_shape_take(&before);
	page = alloc_pages(GFP_KERNEL, 0);
	if (KT_EXPECT(t, page != NULL, "alloc_pages(0) failed with the pcp lists off")) {
		__free_pages(page, 0);
		KT_EXPECT_EQ(t, mm_pcp_blocks(), 0);
		mm_expect_shape(t, &before); /* merged back by the free itself: nothing to drain */
	}
	KT_EXPECT(t, !set_pcp_lists(true), "set_pcp_lists(true) did not report them off");
	page = alloc_pages(GFP_KERNEL, 0);
	if (KT_EXPECT(t, page != NULL, "alloc_pages(0) failed with the pcp lists back on")) {
		bool bypassed = mm_pcp_free_bypasses(page);

		__free_pages(page, 0);
		/* The refill took a batch; the freed page is the most recently freed of this CPU's. */
		mm_expect_freed_to(t, page, bypassed);
	}
	drain_pcp_lists();
	set_pcp_lists(was);
}

static void buddyinfo_lines_have_the_proc_form(struct ktest *t)
{
	char line[160];
	int len = buddyinfo_line(&mm_zones[ZONE_DMA32], line, sizeof(line));

	KT_EXPECT(t, len > 0 && !strncmp(line, "Node 0, zone    DMA32 ", 22), "line: '%s'", line);
	KT_EXPECT_EQ(t, len, 21 + 7 * NR_ORDERS);
}

KTEST_SUITE(mm_buddy,
	    KTEST_CASE(alloc_and_free_at_every_order),
	    KTEST_CASE(split_block_merges_back_on_free),
	    KTEST_CASE(buddies_merge_and_other_neighbours_do_not),
	    KTEST_CASE(exhaust_order_0_then_free_restores_everything),
	    KTEST_CASE(exhaust_max_order_then_free_restores_everything),
	    KTEST_CASE(failed_allocation_returns_null),
	    KTEST_CASE(gfp_dma_page_is_below_16_mib),
	    KTEST_CASE(gfp_dma32_page_is_below_4_gib),
	    KTEST_CASE(normal_falls_back_to_lower_zones),
	    KTEST_CASE(gfp_zero_gives_zeroed_pages),
	    KTEST_CASE(get_and_put_page_count_references),
	    KTEST_CASE(addresses_and_pages_convert_both_ways),
	    KTEST_CASE(pcp_lists_off_merge_every_free_and_on_keep_them),
	    KTEST_CASE(buddyinfo_lines_have_the_proc_form));
