/* SPDX-License-Identifier: MIT */
/*
 * Host tests of grouping pages by mobility on a small map whose free blocks are known: the
 * pageblocks' types after boot, the fallback that claims a whole free block or a pageblock half
 * free, a small movable fallback that claims nothing, and an isolated pageblock. Each case boots
 * the map with the per-CPU lists off (every allocation then reaches the buddy lists, so the
 * counters move exactly as the case says) and puts the default map back.
 */
#include "tests/ktest/ktest.h"
#include "mm/pcp.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"
#include "tests/mm/mm_rebuild.h"

static struct fw_map map;

/*
 * 32 MiB with a 4 MiB hole at 20 MiB (the memory picture's small map). DMA32, [16, 32) MiB, has
 * free blocks of order 10 at 16 and 24 MiB, of order 9 at 28 MiB, and the pageblock at 30 MiB
 * holds the early allocations at its top and 451 free pages below them (orders 8, 7, 6, 1, 0).
 */
static const char small_map[] =
	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"BIOS-e820: [mem 0x0000000000100000-0x00000000013fffff] usable\n"
	"BIOS-e820: [mem 0x0000000001800000-0x0000000001ffffff] usable\n";

#define PB_28M (0x1c00000UL >> PAGE_SHIFT)
#define PB_30M (0x1e00000UL >> PAGE_SHIFT)
#define DMA32 (&mm_zones[ZONE_DMA32])

/* Boots the small map with the per-CPU lists off; false (reported) when it does not boot. */
static bool boot_small(struct ktest *t)
{
	bool owner = host_mm_page_owner;
	int err;

	host_mm_page_owner = false;
	set_pcp_lists(false);
	err = rebuild_on_text(small_map, &map);
	host_mm_page_owner = owner;
	return KT_EXPECT(t, err == 0, "mm_init on the small map: %d", err);
}

static void back_to_default(struct ktest *t)
{
	KT_EXPECT(t, mm_check_free_lists(&map) == NULL, "%s", mm_check_free_lists(&map));
	set_pcp_lists(true);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

static bool in_pageblock(const struct page *page, unsigned long pb_pfn)
{
	return page && (page_to_pfn(page) & ~(PAGEBLOCK_NR_PAGES - 1)) == pb_pfn;
}

static void every_pageblock_is_movable_after_boot(struct ktest *t)
{
	if (!boot_small(t))
		return;
	for (int z = ZONE_DMA; z <= ZONE_DMA32; z++) {
		KT_EXPECT(t, zone_pageblocks_of_type(&mm_zones[z], MIGRATE_MOVABLE) == mm_zones[z].nr_pageblocks,
			  "zone %s: %lu of %lu pageblocks movable", mm_zones[z].name,
			  zone_pageblocks_of_type(&mm_zones[z], MIGRATE_MOVABLE), mm_zones[z].nr_pageblocks);
		KT_EXPECT(t, !mm_zones[z].free_orders[MIGRATE_UNMOVABLE] && !mm_zones[z].free_orders[MIGRATE_RECLAIMABLE],
			  "zone %s: free blocks outside the movable lists", mm_zones[z].name);
	}
	KT_EXPECT_EQ(t, DMA32->nr_pageblocks, 8UL);
	back_to_default(t);
}

/*
 * With no unmovable pageblock, the first unmovable page takes the largest movable block (order
 * 10) and claims the pageblock it is in, not the other half; the second comes from there too.
 */
static void first_unmovable_page_claims_one_pageblock_of_the_largest_block(struct ktest *t)
{
	struct page *a, *b;

	if (!boot_small(t))
		return;
	a = alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
	KT_ASSERT(t, a != NULL, "GFP_KERNEL | __GFP_DMA32 order 0 failed");
	KT_EXPECT(t, get_pageblock_migratetype(a) == MIGRATE_UNMOVABLE && !(page_to_pfn(a) & (PAGEBLOCK_NR_PAGES - 1)),
		  "page at pfn %#lx in a %s pageblock", page_to_pfn(a), migratetype_name(get_pageblock_migratetype(a)));
	KT_EXPECT_EQ(t, zone_pageblocks_of_type(DMA32, MIGRATE_UNMOVABLE), 1UL);
	KT_EXPECT_EQ(t, DMA32->alloc_fallbacks, 1UL);
	KT_EXPECT_EQ(t, DMA32->pageblock_claims, 1UL);
	b = alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
	KT_EXPECT(t, b == a + 1, "the second unmovable page is at pfn %#lx, not next to the first",
		  b ? page_to_pfn(b) : 0);
	KT_EXPECT_EQ(t, DMA32->alloc_fallbacks, 1UL);
	KT_EXPECT(t, mm_check_free_lists(&map) == NULL, "%s", mm_check_free_lists(&map));
	if (b)
		__free_pages(b, 0);
	__free_pages(a, 0);
	back_to_default(t);
}

/* Holds DMA32's movable blocks of order 9 and up: its largest movable block is then of order 8. */
static bool hold_large_movable(struct ktest *t, struct mm_held *held)
{
	static const unsigned int orders[] = { MAX_ORDER, MAX_ORDER, PAGEBLOCK_ORDER };

	mm_held_init(held);
	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		struct page *page = alloc_pages(__GFP_MOVABLE | __GFP_DMA32, orders[i]);

		if (!KT_EXPECT(t, page && page_zonenum(page) == ZONE_DMA32, "movable order %u in DMA32", orders[i]))
			return false;
		mm_held_add(held, page, orders[i]);
	}
	KT_EXPECT_EQ(t, DMA32->alloc_fallbacks, 0UL);
	return KT_EXPECT(t, 31 - __builtin_clz(DMA32->free_orders[MIGRATE_MOVABLE]) == PAGEBLOCK_ORDER - 1,
			 "DMA32's movable free orders %#x", DMA32->free_orders[MIGRATE_MOVABLE]);
}

/*
 * An unmovable page whose fallback block is smaller than a pageblock claims the pageblock when
 * half of it or more is free (the one at 30 MiB: 451 of 512), with every free block there; a
 * small movable page that then finds no movable block takes the smallest unmovable one and
 * claims nothing.
 */
static void half_free_pageblock_is_claimed_and_a_small_movable_fallback_claims_nothing(struct ktest *t)
{
	struct mm_held held;
	struct page *u, *m;

	if (!boot_small(t))
		return;
	if (hold_large_movable(t, &held)) {
		u = alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
		KT_EXPECT(t, in_pageblock(u, PB_30M), "the unmovable page is not in the pageblock at 30 MiB");
		KT_EXPECT(t, get_pageblock_migratetype(pfn_to_page(PB_30M)) == MIGRATE_UNMOVABLE,
			  "the pageblock at 30 MiB is %s", migratetype_name(get_pageblock_migratetype(pfn_to_page(PB_30M))));
		KT_EXPECT_EQ(t, DMA32->pageblock_claims, 1UL);
		KT_EXPECT(t, DMA32->free_orders[MIGRATE_MOVABLE] == 0, "free blocks left on the movable lists: %#x",
			  DMA32->free_orders[MIGRATE_MOVABLE]);
		m = alloc_pages(__GFP_MOVABLE | __GFP_DMA32, 0);
		KT_EXPECT(t, in_pageblock(m, PB_30M), "the movable page is not in the pageblock at 30 MiB");
		KT_EXPECT_EQ(t, DMA32->alloc_fallbacks, 2UL);
		KT_EXPECT_EQ(t, DMA32->pageblock_claims, 1UL);
		KT_EXPECT_EQ(t, zone_pageblocks_of_type(DMA32, MIGRATE_UNMOVABLE), 1UL);
		if (m)
			mm_held_add(&held, m, 0);
		if (u)
			mm_held_add(&held, u, 0);
	}
	mm_held_free_all(&held);
	back_to_default(t);
}

/*
 * The free order-9 block at 28 MiB, isolated, is handed to no allocation, not even GFP_ATOMIC's
 * last pages, and does not merge with its free neighbour; put back, it is movable again.
 */
static void isolated_pageblock_is_never_handed_out(struct ktest *t)
{
	struct mm_held held;
	bool inside = false;

	if (!boot_small(t))
		return;
	KT_ASSERT(t, isolate_pageblock(PB_28M) == 0, "isolate_pageblock(28 MiB) failed");
	mm_held_init(&held);
	mm_exhaust(&held, 0, 0, GFP_ATOMIC);
	for (struct list_head *l = held.list.next; l != &held.list; l = l->next)
		inside |= in_pageblock(lru_to_page(l), PB_28M);
	KT_EXPECT(t, !inside, "a page of the isolated pageblock was handed out");
	KT_EXPECT_EQ(t, nr_free_pages(), PAGEBLOCK_NR_PAGES);
	mm_held_free_all(&held);
	KT_EXPECT(t, DMA32->free_orders[MIGRATE_ISOLATE] == 1u << PAGEBLOCK_ORDER,
		  "isolate lists' orders %#x after the frees", DMA32->free_orders[MIGRATE_ISOLATE]);
	KT_EXPECT_EQ(t, unisolate_pageblock(PB_28M, MIGRATE_MOVABLE), 0);
	KT_EXPECT(t, get_pageblock_migratetype(pfn_to_page(PB_28M)) == MIGRATE_MOVABLE && !DMA32->free_orders[MIGRATE_ISOLATE],
		  "the pageblock at 28 MiB is %s", migratetype_name(get_pageblock_migratetype(pfn_to_page(PB_28M))));
	back_to_default(t);
}

static void isolating_what_no_zone_has_is_refused(struct ktest *t)
{
	if (!boot_small(t))
		return;
	KT_EXPECT_EQ(t, isolate_pageblock(mm_max_pfn + PAGEBLOCK_NR_PAGES), -EINVAL);
	KT_EXPECT_EQ(t, unisolate_pageblock(PB_28M, MIGRATE_MOVABLE), -EINVAL); /* not isolated */
	KT_ASSERT(t, isolate_pageblock(PB_28M) == 0, "isolate_pageblock(28 MiB) failed");
	KT_EXPECT_EQ(t, unisolate_pageblock(PB_28M, MIGRATE_ISOLATE), -EINVAL);
	KT_EXPECT_EQ(t, unisolate_pageblock(PB_28M, MIGRATE_UNMOVABLE), 0);
	back_to_default(t);
}

KTEST_SUITE_SKIP_IF(mobility_host, hugetlb_pools_in_use, KTEST_CASE(every_pageblock_is_movable_after_boot),
		    KTEST_CASE(first_unmovable_page_claims_one_pageblock_of_the_largest_block),
		    KTEST_CASE(half_free_pageblock_is_claimed_and_a_small_movable_fallback_claims_nothing),
		    KTEST_CASE(isolated_pageblock_is_never_handed_out),
		    KTEST_CASE(isolating_what_no_zone_has_is_refused));
