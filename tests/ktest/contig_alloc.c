/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of contiguous ranges (mm/page_isolation.h, mm/contig_alloc.h) and of the hugetlb
 * pool grown after boot: a range with an unmovable page is refused and left exactly as it was, a
 * free range is taken and given back, a range of movable blocks (a test owner's,
 * tests/ktest/contig_owner.h) is taken after they moved out with their contents (a compound
 * one as a compound page), a pinned block makes the call fail cleanly, and the pool grows by
 * 2 MiB pages (also when no free 2 MiB block is left) and by a 1 GiB page when memory allows
 * (the gigantic pool given back first). Each case builds its range from one 2 MiB block it
 * allocates, so it knows what is there.
 */
#include "tests/ktest/compound_helpers.h"
#include "tests/ktest/contig_owner.h"
#include "tests/ktest/hugetlb_saved_pool.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/ktest/text_capture.h"

#include "lib/string.h"
#include "mm/bad_page.h"
#include "mm/compound.h"
#include "mm/contig_alloc.h"
#include "mm/page_isolation.h"
#include "mm/pageblock.h"
#include "mm/vmstat.h"

#define PB PAGEBLOCK_NR_PAGES

/* What a range's refusal must leave as it found: the types around it and every free list. */
struct range_state {
	unsigned int types[3]; /* the pageblock before the range, the range's, the one after */
	unsigned long type_free[MAX_NR_ZONE_IDS][MIGRATE_TYPES];
	struct mm_shape shape;
};

static unsigned int type_at(unsigned long pfn)
{
	const struct zone *zone = &mm_zones[pfn_zone(pfn)];

	return pfn >= zone->start_pfn && pfn < zone->end_pfn ? pfn_migratetype(zone, pfn) : MIGRATE_TYPES;
}

/* Snapshot around the pageblock at pfn (the per-CPU lists drained). */
static void range_state_take(struct range_state *s, unsigned long pfn)
{
	mm_shape_take(&s->shape);
	s->types[0] = type_at(pfn - PB);
	s->types[1] = type_at(pfn);
	s->types[2] = type_at(pfn + PB);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		struct zone *zone = &mm_zones[z];
		unsigned long flags = zone_lock(zone);

		for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++) {
			s->type_free[z][mt] = 0;
			for (unsigned int o = 0; o < NR_ORDERS; o++)
				for (struct list_head *l = zone->free_area[o].free_list[mt].next;
				     l != &zone->free_area[o].free_list[mt]; l = l->next)
					s->type_free[z][mt] += 1UL << o;
		}
		zone_unlock(zone, flags);
	}
}

static bool expect_range_state(struct ktest *t, const struct range_state *before, unsigned long pfn)
{
	struct range_state now;
	bool ok = true;

	range_state_take(&now, pfn);
	for (int i = 0; i < 3; i++)
		ok &= KT_EXPECT(t, now.types[i] == before->types[i], "pageblock %d of 3 around pfn %#lx: %s, was %s",
				i + 1, pfn, migratetype_name(now.types[i]), migratetype_name(before->types[i]));
	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++)
			ok &= KT_EXPECT(t, now.type_free[z][mt] == before->type_free[z][mt],
					"zone %s, %s lists: %lu free pages, %lu before", mm_zones[z].name,
					migratetype_name(mt), now.type_free[z][mt], before->type_free[z][mt]);
	return ok && mm_expect_shape(t, &before->shape);
}

/*
 * A 2 MiB range the case owns: one order-9 block split into 512 order-0 pages, each with count
 * 1. NULL (the case skipped) when no such block is free.
 */
static struct page *take_test_range(struct ktest *t)
{
	struct page *page;

	if (mm_skip_without_blocks(t, PAGEBLOCK_ORDER, 2, GFP_HIGHUSER_MOVABLE))
		return NULL;
	page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN, PAGEBLOCK_ORDER);
	if (!KT_EXPECT(t, page != NULL, "no 2 MiB block, though one was free"))
		return NULL;
	if (!KT_EXPECT_EQ(t, split_huge_page(page), 0)) {
		__free_pages(page, PAGEBLOCK_ORDER);
		return NULL;
	}
	return page;
}

/* Frees the pages of the range at first for which keep() is false; keep() says which stay held. */
static void free_range_except(struct page *first, bool (*keep)(unsigned long i))
{
	for (unsigned long i = 0; i < PB; i++)
		if (!keep(i))
			__free_pages(first + i, 0);
}

static bool keep_page_100(unsigned long i) { return i == 100; }
static bool keep_every_8th(unsigned long i) { return i % 8 == 3; }
static bool keep_none(unsigned long i) { (void)i; return false; }

/* An allocated page that nobody made movable pins its range: refused, everything as it was. */
static void unmovable_page_refuses_isolation_and_the_range_is_restored(struct ktest *t)
{
	struct page *first = take_test_range(t);
	unsigned long pfn;
	struct isolated_range range;
	struct range_state before;
	int err;

	if (!first)
		return;
	pfn = page_to_pfn(first);
	free_range_except(first, keep_page_100);
	range_state_take(&before, pfn);
	capture_console_start();
	err = start_isolate_page_range(pfn, pfn + PB, &range);
	capture_console_stop();
	KT_EXPECT_EQ(t, err, -EBUSY);
	KT_EXPECT(t, strstr(captured.text, "refused") && strstr(captured.text, "not make movable"),
		  "the refusal says why: \"%s\"", captured.text);
	expect_range_state(t, &before, pfn);
	KT_EXPECT_EQ(t, alloc_contig_range(pfn, pfn + PB, GFP_KERNEL | __GFP_NOWARN), -EBUSY);
	expect_range_state(t, &before, pfn);
	__free_pages(first + 100, 0);
}

/* Ranges that are not whole pageblocks of one zone are refused before anything changes. */
static void ranges_that_break_the_rules_are_refused(struct ktest *t)
{
	struct page *first = take_test_range(t);
	struct isolated_range range;
	unsigned long pfn;

	if (!first)
		return;
	pfn = page_to_pfn(first);
	capture_console_start();
	KT_EXPECT_EQ(t, start_isolate_page_range(pfn + 1, pfn + PB, &range), -EINVAL);
	KT_EXPECT_EQ(t, start_isolate_page_range(pfn, pfn, &range), -EINVAL);
	KT_EXPECT_EQ(t, alloc_contig_range(pfn, pfn + PB + 7, GFP_KERNEL), -EINVAL);
	KT_EXPECT_EQ(t, alloc_contig_range(pfn, pfn + PB, __GFP_HIGH), -EINVAL);
	if (mm_zones[ZONE_NORMAL].present_pages && mm_zones[ZONE_DMA32].present_pages)
		KT_EXPECT_EQ(t, alloc_contig_range(ZONE_DMA32_END_PFN - PB, ZONE_DMA32_END_PFN + PB, GFP_KERNEL),
			     -EINVAL);
	KT_EXPECT(t, alloc_contig_pages(3 * PB, GFP_KERNEL) == NULL, "3 pageblocks is no power of two");
	capture_console_stop();
	KT_EXPECT(t, strstr(captured.text, "not whole pageblocks") != NULL, "said: \"%s\"", captured.text);
	free_range_except(first, keep_none);
}

/*
 * A range that is the first half of a free 4 MiB block: isolating it splits the block at the
 * range's end (the other half stays free on its own type's list, outside the range), and giving
 * the range back merges the halves again.
 */
static void free_block_across_the_range_end_is_split_and_merged_back(struct ktest *t)
{
	struct page *first;
	struct isolated_range range;
	struct range_state before;
	unsigned long pfn;

	if (mm_skip_without_blocks(t, MAX_ORDER, 2, GFP_HIGHUSER_MOVABLE))
		return;
	first = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, MAX_ORDER);
	KT_ASSERT(t, first != NULL, "no 4 MiB block, though one was free");
	pfn = page_to_pfn(first);
	__free_pages(first, MAX_ORDER);
	range_state_take(&before, pfn);
	KT_ASSERT(t, PageBuddy(first) && first->private == MAX_ORDER, "the 4 MiB block did not stay whole when freed");
	KT_ASSERT(t, start_isolate_page_range(pfn, pfn + PB, &range) == 0, "the free range was not isolated");
	KT_EXPECT_EQ(t, type_at(pfn), MIGRATE_ISOLATE);
	KT_EXPECT_EQ(t, type_at(pfn + PB), before.types[2]);
	KT_EXPECT(t, PageBuddy(first) && first->private == PAGEBLOCK_ORDER, "the range is not a free 2 MiB block");
	KT_EXPECT(t, PageBuddy(first + PB) && first[PB].private == PAGEBLOCK_ORDER,
		  "the half outside the range is not a free 2 MiB block");
	undo_isolate_page_range(&range);
	expect_range_state(t, &before, pfn);
	KT_EXPECT(t, PageBuddy(first) && first->private == MAX_ORDER, "the halves did not merge again");
}

/*
 * A free range is taken whole (count 1 on every page, zeroed when asked, types back) while
 * nothing else can be given its pages, and given back as it was.
 */
static void free_range_is_taken_and_given_back(struct ktest *t)
{
	struct page *first = take_test_range(t);
	struct range_state before;
	unsigned long pfn, bad = 0;

	if (!first)
		return;
	pfn = page_to_pfn(first);
	memset(page_address(first + 7), 0xa5, PAGE_SIZE);
	free_range_except(first, keep_none);
	range_state_take(&before, pfn);
	KT_ASSERT(t, alloc_contig_range(pfn, pfn + PB, GFP_KERNEL | __GFP_ZERO) == 0, "the free range was not taken");
	for (unsigned long i = 0; i < PB; i++)
		bad += page_ref(first + i) != 1 || PageBuddy(first + i);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, *(uint64_t *)page_address(first + 7), 0);
	KT_EXPECT_EQ(t, type_at(pfn), before.types[1]);
	KT_EXPECT_EQ(t, nr_free_pages(), before.shape.free_pages - PB);
	free_contig_range(pfn, PB);
	expect_range_state(t, &before, pfn);
}

/* Builds a range with the test owner's pages in it (every 8th page), the rest free. */
static struct page *owner_range(struct ktest *t, struct contig_owner *o)
{
	struct page *first = take_test_range(t);

	contig_owner_init(o);
	if (!first)
		return NULL;
	for (unsigned long i = 0; i < PB; i++)
		if (keep_every_8th(i))
			contig_owner_adopt(o, first + i);
	free_range_except(first, keep_every_8th);
	return first;
}

/* The owner's blocks move out, keeping their contents; then the range is taken. */
static void movable_blocks_move_out_and_the_range_is_taken(struct ktest *t)
{
	struct contig_owner o;
	struct page *first = owner_range(t, &o);
	unsigned long pfn, migrated = vm_event_count(PGMIGRATE_SUCCESS);

	if (!first)
		return;
	pfn = page_to_pfn(first);
	KT_EXPECT_EQ(t, contig_owner_in(&o, pfn, pfn + PB), PB / 8);
	KT_EXPECT_EQ(t, alloc_contig_range(pfn, pfn + PB, GFP_KERNEL), 0);
	KT_EXPECT_EQ(t, contig_owner_in(&o, pfn, pfn + PB), 0);
	KT_EXPECT_EQ(t, o.moved, PB / 8);
	KT_EXPECT(t, vm_event_count(PGMIGRATE_SUCCESS) - migrated >= PB / 8, "pgmigrate_success rose by %lu",
		  vm_event_count(PGMIGRATE_SUCCESS) - migrated);
	KT_EXPECT(t, contig_owner_bad_block(&o) < 0, "block %d lost its contents", contig_owner_bad_block(&o));
	KT_EXPECT_EQ(t, page_ref(first + 3), 1);
	free_contig_range(pfn, PB);
	contig_owner_free_all(&o);
}

static bool keep_8_to_11(unsigned long i) { return i >= 8 && i < 12; }

/*
 * A compound movable block moves out as a compound page: its target must have its shape, or
 * migrate_pages() refuses the move (reported) and the range cannot be taken.
 */
static void compound_movable_block_moves_out_whole(struct ktest *t)
{
	struct contig_owner o;
	struct page *first = take_test_range(t), *head;
	unsigned long pfn, reports = mm_bad_page_reports;
	int rc;

	contig_owner_init(&o);
	if (!first)
		return;
	pfn = page_to_pfn(first);
	head = first + 8;
	/* Pages 8..11 of the range become one order-2 compound page, as alloc_pages(__GFP_COMP) makes it. */
	for (unsigned int i = 1; i < 4; i++)
		set_page_ref(head + i, 0);
	KT_ASSERT(t, prep_compound_page(head, 2) == 0, "pages 8..11 did not become a compound page");
	o.blocks[o.n++] = head;
	set_page_movable(head, &contig_owner_ops);
	free_range_except(first, keep_8_to_11);
	rc = alloc_contig_range(pfn, pfn + PB, GFP_KERNEL);
	KT_EXPECT_EQ(t, rc, 0);
	KT_EXPECT_EQ(t, o.moved, 1);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 0);
	head = o.blocks[0];
	KT_EXPECT(t, PageHead(head) && compound_order(head) == 2, "the moved block at pfn %#lx is %s of order %u",
		  page_to_pfn(head), PageHead(head) ? "a compound page" : "a plain block",
		  PageHead(head) ? compound_order(head) : 0);
	if (rc == 0)
		free_contig_range(pfn, PB);
	clear_page_movable(head);
	put_page(head);
	contig_owner_now = NULL;
}

/*
 * Blocks freed in an isolated range stay there: the free that would put one on a CPU's list, from
 * which the next allocation takes it, sends it to the isolate lists instead (page_owner, where it
 * is on, sends every free that way anyway).
 */
static void pages_freed_in_an_isolated_range_are_not_handed_out(struct ktest *t)
{
	struct contig_owner o;
	static const gfp_t types[3] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE, __GFP_RECLAIMABLE };
	struct page *first = owner_range(t, &o), *got[16][3];
	struct isolated_range range;
	unsigned long pfn, inside = 0;

	if (!first)
		return;
	pfn = page_to_pfn(first);
	if (KT_EXPECT(t, start_isolate_page_range(pfn, pfn + PB, &range) == 0, "the range was not isolated")) {
		/* Poisoning sends every free to the slow path: off, so that the fast one is tried. */
		bool poison = set_page_poisoning(false);

		for (unsigned int i = 0; i < 16; i++) {
			struct page *page = o.blocks[--o.n];

			clear_page_movable(page);
			__free_pages(page, 0);
			for (int k = 0; k < 3; k++) { /* whichever list the page went to */
				got[i][k] = alloc_pages(types[k] | __GFP_NOWARN, 0);
				inside += got[i][k] && page_to_pfn(got[i][k]) >= pfn && page_to_pfn(got[i][k]) < pfn + PB;
			}
		}
		set_page_poisoning(poison);
		KT_EXPECT_EQ(t, inside, 0);
		KT_EXPECT_EQ(t, test_pages_isolated(&range, NULL), -EBUSY); /* the owner's other pages */
		undo_isolate_page_range(&range);
		for (unsigned int i = 0; i < 16; i++)
			for (int k = 0; k < 3; k++)
				if (got[i][k])
					__free_pages(got[i][k], 0);
	}
	contig_owner_free_all(&o);
}

/* A pinned block (an extra reference) cannot move: the call fails and restores the range. */
static void pinned_movable_page_fails_cleanly(struct ktest *t)
{
	struct contig_owner o;
	struct page *first = owner_range(t, &o);
	struct range_state before;
	unsigned long pfn;
	struct page *pinned;

	if (!first)
		return;
	pfn = page_to_pfn(first);
	pinned = o.blocks[5];
	get_page(pinned);
	range_state_take(&before, pfn);
	KT_EXPECT_EQ(t, alloc_contig_range(pfn, pfn + PB, GFP_KERNEL | __GFP_NOWARN), -EBUSY);
	KT_EXPECT(t, o.blocks[5] == pinned, "the pinned block moved");
	KT_EXPECT_EQ(t, page_ref(pinned), 2);
	KT_EXPECT(t, contig_owner_bad_block(&o) < 0, "block %d lost its contents", contig_owner_bad_block(&o));
	KT_EXPECT_EQ(t, type_at(pfn), before.types[1]);
	KT_EXPECT_EQ(t, nr_free_pages(), before.shape.free_pages); /* the others moved: as many free */
	KT_EXPECT_EQ(t, mm_zones[pfn_zone(pfn)].free_orders[MIGRATE_ISOLATE], 0);
	put_page(pinned);
	contig_owner_free_all(&o);
}

static void hugetlb_pool_grows_after_boot(struct ktest *t)
{
	unsigned long grown = vm_event_count(HTLB_POOL_GROWN), before;
	struct saved_pool s;

	if (!saved_pool_empty(t, &s))
		return;
	if (mm_skip_without_blocks(t, HPAGE_ORDER, 4, GFP_KERNEL)) {
		saved_pool_restore(t, &s);
		return;
	}
	before = test_free_pages();
	KT_EXPECT_EQ(t, hugetlb_set_pool_size(3), 0);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).total, 3);
	KT_EXPECT_EQ(t, vm_event_count(HTLB_POOL_GROWN) - grown, 3);
	KT_EXPECT_EQ(t, test_free_pages(), before - 3 * PB);
	KT_EXPECT_EQ(t, hugetlb_set_pool_size(0), 0);
	KT_EXPECT_EQ(t, test_free_pages(), before);
	saved_pool_restore(t, &s);
}

#define MAX_SPARES 64

/*
 * With every free 2 MiB block taken (held, to the last page: GFP_ATOMIC), frees the held blocks
 * of zone, each but one page per pageblock (so none merges into a free 2 MiB block again), until
 * the zone has room for a huge page and the migration's targets. The blocks go from held to
 * spares[] (their first page kept); returns how many.
 */
static unsigned int free_spares(struct mm_held *held, const struct zone *zone, struct page **spares)
{
	unsigned int n = 0;

	for (struct list_head **l = &held->list.next; *l != &held->list;) {
		struct page *page = lru_to_page(*l);
		unsigned long nr = 1UL << page->private;

		if (zone_free_pages(zone) >= zone->watermark[WMARK_MIN] + 2 * PB || n + nr / PB > MAX_SPARES)
			break;
		if (&mm_zones[page_zonenum(page)] != zone) {
			l = &(*l)->next;
			continue;
		}
		*l = (*l)->next;
		held->blocks--;
		held->pages -= nr;
		split_huge_page(page);
		for (unsigned long i = 0; i < nr; i++) {
			if (i % PB)
				__free_pages(page + i, 0);
			else
				spares[n++] = page + i;
		}
	}
	return n;
}

static void hugetlb_pool_grows_by_migration_without_a_free_2m_block(struct ktest *t)
{
	unsigned long grown = vm_event_count(HTLB_POOL_GROWN), pfn;
	struct page *spares[MAX_SPARES], *first, *huge;
	unsigned int nspares;
	struct contig_owner o;
	struct mm_held held;
	struct saved_pool s;
	struct zone *zone;

	if (!saved_pool_empty(t, &s))
		return;
	first = owner_range(t, &o);
	if (!first) {
		saved_pool_restore(t, &s);
		return;
	}
	pfn = page_to_pfn(first);
	zone = &mm_zones[page_zonenum(first)];
	mm_held_init(&held);
	mm_exhaust(&held, MAX_ORDER, PAGEBLOCK_ORDER, GFP_ATOMIC | __GFP_COMP);
	nspares = free_spares(&held, zone, spares);
	KT_EXPECT_EQ(t, mm_free_blocks(PAGEBLOCK_ORDER, GFP_ATOMIC), 0);
	if (KT_EXPECT(t, zone_free_pages(zone) >= zone->watermark[WMARK_MIN] + 2 * PB,
		      "zone %s: %lu free pages, not enough for the case", zone->name, zone_free_pages(zone))) {
		KT_EXPECT_EQ(t, hugetlb_set_pool_size(1), 0);
		KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).total, 1);
		KT_EXPECT_EQ(t, vm_event_count(HTLB_POOL_GROWN) - grown, 1);
		huge = alloc_huge_page();
		KT_EXPECT(t, huge && page_to_pfn(huge) == pfn, "the pool's page is at pfn %#lx, the emptied range at %#lx",
			  huge ? page_to_pfn(huge) : 0, pfn);
		KT_EXPECT_EQ(t, contig_owner_in(&o, pfn, pfn + PB), 0);
		KT_EXPECT(t, contig_owner_bad_block(&o) < 0, "block %d lost its contents", contig_owner_bad_block(&o));
		if (huge)
			put_page(huge);
	}
	hugetlb_set_pool_size(0);
	for (unsigned int i = 0; i < nspares; i++)
		__free_pages(spares[i], 0);
	mm_held_free_all(&held);
	contig_owner_free_all(&o);
	saved_pool_restore(t, &s);
}

#define GIG_NR (1UL << GIGANTIC_ORDER)

/* A zone with a free gigantic page's worth above its min watermark, and some to spare; or NULL. */
static struct zone *zone_with_a_free_gigabyte(void)
{
	drain_pcp_lists();
	for (int z = (int)mm_nr_zone_ids - 1; z >= 0; z--)
		if (zone_free_pages(&mm_zones[z]) >= mm_zones[z].watermark[WMARK_MIN] + GIG_NR + 8 * PB)
			return &mm_zones[z];
	return NULL;
}

/*
 * Puts the owner's pages (every 8th of a 2 MiB block) in a 1 GiB aligned range that holds no page
 * that cannot move, the first the pool's search will try: 2 MiB blocks are allocated until one
 * lands in such a range, the others given back. Returns the range's first frame, or 0 when no
 * block landed in one (the case then grows the pool all the same).
 */
static unsigned long owner_pages_in_a_free_gigabyte(struct contig_owner *o)
{
	unsigned long found = 0;
	struct mm_held held;
	struct page *page;
	const char *why;

	contig_owner_init(o);
	mm_held_init(&held);
	while (!found && (page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN, PAGEBLOCK_ORDER))) {
		unsigned long start = page_to_pfn(page) & ~(GIG_NR - 1);
		const struct zone *zone = &mm_zones[page_zonenum(page)];

		mm_held_add(&held, page, PAGEBLOCK_ORDER);
		if (start >= zone->start_pfn && start + GIG_NR <= zone->end_pfn &&
		    first_unmovable_pfn(start, start + GIG_NR, &why) == start + GIG_NR)
			found = start;
	}
	if (!found) {
		mm_held_free_all(&held);
		return 0;
	}
	page = lru_to_page(held.list.next); /* the last one, in the range */
	held.list.next = page->lru.next;
	mm_held_free_all(&held);
	split_huge_page(page);
	for (unsigned long i = 0; i < PB; i++) {
		if (i % 8 == 3)
			contig_owner_adopt(o, page + i);
		else
			__free_pages(page + i, 0);
	}
	return found;
}

/*
 * The gigantic pool given back to the buddy allocator, then grown by one 1 GiB page after boot
 * from a range emptied of the owner's pages (when the memory holds such a range: 2 GiB or more);
 * then put back as it was.
 */
static void gigantic_page_grows_after_boot(struct ktest *t)
{
	struct hugetlb_counters c = hugetlb_counters(GIGANTIC_ORDER);
	unsigned long grown, persistent = c.total - c.surplus, range, before;
	struct contig_owner o;
	struct page *gig;

	if (c.in_use || c.reserved) {
		ktest_skip(t, "1 GiB pages are in use outside the test");
		return;
	}
	KT_EXPECT_EQ(t, hugetlb_set_pool_size_order(GIGANTIC_ORDER, 0), 0);
	if (!zone_with_a_free_gigabyte()) {
		ktest_skip(t, "needs 1 GiB free in one zone (boot with 3 GiB of RAM or more)");
		hugetlb_set_pool_size_order(GIGANTIC_ORDER, persistent);
		return;
	}
	range = owner_pages_in_a_free_gigabyte(&o);
	grown = vm_event_count(HTLB_POOL_GROWN);
	before = test_free_pages();
	KT_EXPECT_EQ(t, hugetlb_set_pool_size_order(GIGANTIC_ORDER, 1), 0);
	KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).total, 1);
	KT_EXPECT_EQ(t, vm_event_count(HTLB_POOL_GROWN) - grown, 1);
	KT_EXPECT_EQ(t, test_free_pages(), before - GIG_NR);
	gig = alloc_gigantic_page();
	if (KT_EXPECT(t, gig != NULL, "no 1 GiB page in the pool")) {
		KT_EXPECT(t, compound_check(gig, GIGANTIC_ORDER) == NULL, "%s", compound_check(gig, GIGANTIC_ORDER));
		if (range && page_to_pfn(gig) == range)
			KT_EXPECT_EQ(t, contig_owner_in(&o, range, range + GIG_NR), 0);
		put_page(gig + 4242);
	}
	KT_EXPECT(t, contig_owner_bad_block(&o) < 0, "block %d lost its contents", contig_owner_bad_block(&o));
	KT_EXPECT_EQ(t, hugetlb_set_pool_size_order(GIGANTIC_ORDER, 0), 0);
	KT_EXPECT_EQ(t, test_free_pages(), before);
	contig_owner_free_all(&o);
	KT_EXPECT_EQ(t, hugetlb_set_pool_size_order(GIGANTIC_ORDER, persistent), 0);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
}

KTEST_SUITE(contig_alloc, KTEST_CASE(unmovable_page_refuses_isolation_and_the_range_is_restored),
	    KTEST_CASE(ranges_that_break_the_rules_are_refused),
	    KTEST_CASE(free_block_across_the_range_end_is_split_and_merged_back),
	    KTEST_CASE(free_range_is_taken_and_given_back),
	    KTEST_CASE(movable_blocks_move_out_and_the_range_is_taken), KTEST_CASE(pinned_movable_page_fails_cleanly),
	    KTEST_CASE(compound_movable_block_moves_out_whole),
	    KTEST_CASE(pages_freed_in_an_isolated_range_are_not_handed_out),
	    KTEST_CASE(hugetlb_pool_grows_after_boot),
	    KTEST_CASE(hugetlb_pool_grows_by_migration_without_a_free_2m_block),
	    KTEST_CASE(gigantic_page_grows_after_boot));
