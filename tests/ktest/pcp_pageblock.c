/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the per-CPU lists of whole pageblocks (PCP_PAGEBLOCK_SLOT, mm/zone.h): a 2 MiB
 * block freed and allocated again on one CPU comes back from that CPU's list without the buddy
 * lists changing, on the list of its pageblock's type; a drain leaves no such block on any CPU's
 * list; a range whose block sits on a CPU's list can still be isolated, and a block freed into an
 * isolated pageblock goes to the buddy lists, not to a CPU's list.
 */
#include "tests/ktest/mm_helpers.h"

#include "mm/page_isolation.h"
#include "mm/pageblock.h"

/* Blocks on every CPU's lists of whole pageblocks, all zones. */
static unsigned long pageblocks_on_cpu_lists(void)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
			n += pcp_count(cpu_pcp(cpu, z), PCP_PAGEBLOCK_SLOT);
	return n;
}

/*
 * Skips the case when page's zone is busy (mm/pcp.c: its whole pageblocks then go to the buddy
 * lists: a machine that hugepages= filled); true if it did. This CPU's limits were set when page
 * was allocated.
 */
static bool skip_busy_zone(struct ktest *t, const struct page *page)
{
	if (cpu_pcp(arch_cpu_id(), page_zonenum(page))->fast_high[PCP_PAGEBLOCK_SLOT])
		return false;
	ktest_skip(t, "the zone is busy: its whole pageblocks go straight to the buddy lists");
	return true;
}

/* Skips the case when the lists are off or no 2 MiB block of gfp is free; true if it did. */
static bool skip_without_pageblock(struct ktest *t, gfp_t gfp)
{
	if (!mm_pcp_lists_on) {
		ktest_skip(t, "the per-CPU lists are off");
		return true;
	}
	return mm_skip_without_blocks(t, PAGEBLOCK_ORDER, 1, gfp);
}

static void a_freed_pageblock_comes_back_from_this_cpus_list(struct ktest *t)
{
	unsigned long irq, buddy_free;
	struct per_cpu_pages *pcp;
	struct page *page, *again;
	struct zone *zone;

	if (skip_without_pageblock(t, GFP_KERNEL))
		return;
	irq = arch_irq_save(); /* stay on this CPU */
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER);
	if (!KT_EXPECT(t, page, "an order-%d allocation failed", PAGEBLOCK_ORDER)) {
		arch_irq_restore(irq);
		return;
	}
	if (skip_busy_zone(t, page)) {
		__free_pages(page, PAGEBLOCK_ORDER);
		arch_irq_restore(irq);
		return;
	}
	zone = &mm_zones[page_zonenum(page)];
	pcp = cpu_pcp(arch_cpu_id(), page_zonenum(page));
	buddy_free = __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED);
	__free_pages(page, PAGEBLOCK_ORDER);
	KT_EXPECT(t, __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED) == buddy_free,
		  "the free changed zone %s's buddy lists: %lu free pages there, %lu before", zone->name,
		  __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED), buddy_free);
	KT_EXPECT(t, pcp_first_block(pcp, PCP_PAGEBLOCK_SLOT, page_pcptype(page)) == page,
		  "pfn %#lx is not first on this CPU's list of whole pageblocks of type %u", page_to_pfn(page),
		  page_pcptype(page));
	KT_EXPECT(t, page_pcptype(page) == get_pageblock_migratetype(page),
		  "the block's list type is %u, its pageblock's %s", page_pcptype(page),
		  migratetype_name(get_pageblock_migratetype(page)));
	again = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER);
	KT_EXPECT(t, again == page, "the next allocation got pfn %#lx, not the block freed, %#lx",
		  again ? page_to_pfn(again) : 0, page_to_pfn(page));
	KT_EXPECT(t, __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED) == buddy_free,
		  "the allocation changed zone %s's buddy lists: %lu free pages there, %lu before", zone->name,
		  __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED), buddy_free);
	if (again)
		__free_pages(again, PAGEBLOCK_ORDER);
	arch_irq_restore(irq);
	drain_pcp_lists();
}

static void a_drain_leaves_no_pageblock_on_any_list(struct ktest *t)
{
	struct page *page;
	bool busy;

	if (skip_without_pageblock(t, GFP_KERNEL))
		return;
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER);
	KT_ASSERT(t, page, "an order-%d allocation failed", PAGEBLOCK_ORDER);
	busy = !cpu_pcp(arch_cpu_id(), page_zonenum(page))->fast_high[PCP_PAGEBLOCK_SLOT];
	__free_pages(page, PAGEBLOCK_ORDER);
	KT_EXPECT(t, busy || pageblocks_on_cpu_lists() >= 1, "the freed block is on no CPU's list");
	drain_pcp_lists();
	KT_EXPECT(t, pageblocks_on_cpu_lists() == 0, "%lu whole pageblocks on the CPUs' lists after a drain",
		  pageblocks_on_cpu_lists());
	KT_EXPECT(t, mm_pfn_in_buddy_block(page_to_pfn(page)), "pfn %#lx is not in the buddy lists after a drain",
		  page_to_pfn(page));
}

static void a_range_whose_block_is_on_a_cpu_list_can_be_isolated(struct ktest *t)
{
	struct isolated_range range;
	unsigned long pfn;
	struct page *page;
	int err;

	if (skip_without_pageblock(t, GFP_HIGHUSER_MOVABLE))
		return;
	page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, PAGEBLOCK_ORDER);
	KT_ASSERT(t, page, "an order-%d movable allocation failed", PAGEBLOCK_ORDER);
	pfn = page_to_pfn(page);
	__free_pages(page, PAGEBLOCK_ORDER); /* on this CPU's list, or in the buddy lists: both must work */
	err = start_isolate_page_range(pfn, pfn + PAGEBLOCK_NR_PAGES, &range);
	KT_ASSERT(t, err == 0, "start_isolate_page_range of the freed block's pageblock: %d", err);
	KT_EXPECT(t, test_pages_isolated(&range, NULL) == 0, "pfn %#lx's pageblock is not free and isolated", pfn);
	KT_EXPECT(t, !PageBuddy(page) || get_pageblock_migratetype(page) == MIGRATE_ISOLATE,
		  "the block is free but its pageblock is %s", migratetype_name(get_pageblock_migratetype(page)));
	undo_isolate_page_range(&range);
	KT_EXPECT(t, mm_pfn_in_buddy_block(pfn), "pfn %#lx is not in the buddy lists after the undo", pfn);
}

static void a_block_freed_into_an_isolated_pageblock_skips_the_cpu_lists(struct ktest *t)
{
	unsigned long before;
	unsigned int mt;
	struct page *page;

	if (skip_without_pageblock(t, GFP_KERNEL))
		return;
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER);
	KT_ASSERT(t, page, "an order-%d allocation failed", PAGEBLOCK_ORDER);
	mt = get_pageblock_migratetype(page);
	KT_ASSERT(t, isolate_pageblock(page_to_pfn(page)) == 0, "isolate_pageblock(%#lx) failed", page_to_pfn(page));
	before = pageblocks_on_cpu_lists();
	__free_pages(page, PAGEBLOCK_ORDER);
	KT_EXPECT(t, pageblocks_on_cpu_lists() == before,
		  "the block went on a CPU's list (%lu whole pageblocks there, %lu before)", pageblocks_on_cpu_lists(),
		  before);
	KT_EXPECT(t, mm_pfn_in_buddy_block(page_to_pfn(page)), "pfn %#lx is not in the buddy lists", page_to_pfn(page));
	KT_EXPECT(t, unisolate_pageblock(page_to_pfn(page), mt) == 0, "unisolate_pageblock(%#lx, %s) failed",
		  page_to_pfn(page), migratetype_name(mt));
}

KTEST_SUITE(pcp_pageblock, KTEST_CASE(a_freed_pageblock_comes_back_from_this_cpus_list),
	    KTEST_CASE(a_drain_leaves_no_pageblock_on_any_list),
	    KTEST_CASE(a_range_whose_block_is_on_a_cpu_list_can_be_isolated),
	    KTEST_CASE(a_block_freed_into_an_isolated_pageblock_skips_the_cpu_lists));
