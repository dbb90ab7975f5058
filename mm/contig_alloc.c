/* SPDX-License-Identifier: MIT */
/*
 * Contiguous-range allocation (mm/contig_alloc.h): isolate a range, migrate its movable blocks
 * out, take it whole, give it back; and the search for a range that can be emptied.
 */
#include "mm/contig_alloc.h"

#include "mm/bad_page.h"
#include "mm/buddy.h"
#include "mm/compound.h"
#include "mm/debug.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "mm/page_isolation.h"
#include "mm/page_owner.h"
#include "mm/pageblock.h"
#include "mm/pcp.h"
#include "mm/poison.h"

/* The gfp bits the calls take (the zone bits only choose where alloc_contig_pages() looks). */
#define CONTIG_GFP (__GFP_ZONEMASK | __GFP_ZERO | __GFP_NOWARN | __GFP_COMP | __GFP_MOBILITY)

/*
 * Passes over the range (migrate its movable blocks, drain, look): a block that is being freed or
 * was busy a moment ago gets this many chances; a pinned one fails them all.
 */
#define CONTIG_PASSES 3

/* Movable blocks isolated and handed to migrate_pages() at once. */
#define CONTIG_BATCH 32

/* The migration of one range: the range, and the targets that fell inside it (kept aside). */
struct contig_migration {
	const struct isolated_range *range;
	struct page *in_range; /* linked through lru.next, order in private */
};

static bool pfn_in_range(const struct isolated_range *range, unsigned long pfn)
{
	return pfn >= range->start_pfn && pfn < range->end_pfn;
}

/*
 * A migration target outside the range, of src's shape (a compound page for a compound page:
 * migrate_pages() refuses any other). A block of the range can still reach an allocation (one
 * freed to a CPU's list as the range was being isolated): such a block is kept aside, and freed
 * into the isolate lists once the batch has moved.
 */
static struct page *contig_new_page(struct page *src, unsigned int order, void *data)
{
	struct contig_migration *m = data;
	gfp_t gfp = GFP_HIGHUSER_MOVABLE | __GFP_NOWARN | (PageHead(src) ? __GFP_COMP : 0);

	for (;;) {
		struct page *page = alloc_pages(gfp, order);

		if (!page || !pfn_in_range(m->range, page_to_pfn(page)))
			return page;
		set_page_private(page, order);
		page->lru.next = m->in_range ? &m->in_range->lru : NULL;
		m->in_range = page;
	}
}

/* Frees the targets contig_new_page() kept aside: into the range's isolate lists. */
static void free_kept_targets(struct contig_migration *m)
{
	while (m->in_range) {
		struct page *page = m->in_range;

		m->in_range = page->lru.next ? lru_to_page(page->lru.next) : NULL;
		__free_pages(page, (unsigned int)page->private);
	}
}

static void migrate_batch(struct contig_migration *m, struct page **batch, unsigned int *n)
{
	if (!*n)
		return;
	migrate_pages(batch, *n, contig_new_page, NULL, m);
	free_kept_targets(m);
	*n = 0;
}

/* The frames of the allocated block whose first page is page (plain or compound). */
static unsigned long block_pages(const struct page *page)
{
	return 1UL << (PageHead(page) ? compound_order(page) : alloc_order_of(page));
}

/*
 * One pass over the isolated range: every movable block there is isolated and moved out, in
 * batches. Blocks that refuse (being freed, pinned) stay; the caller looks again.
 */
static void migrate_range_out(const struct isolated_range *range)
{
	struct contig_migration m = { .range = range };
	struct page *batch[CONTIG_BATCH];
	unsigned int n = 0;

	for (unsigned long pfn = range->start_pfn; pfn < range->end_pfn;) {
		struct page *page = pfn_to_page(pfn);
		unsigned long order = page->private;

		if (PageBuddy(page) && order <= MAX_ORDER) {
			pfn += 1UL << order;
		} else if (page_movable(page)) {
			pfn += block_pages(page);
			if (isolate_movable_page(page) == 0)
				batch[n++] = page;
			if (n == CONTIG_BATCH)
				migrate_batch(&m, batch, &n);
		} else {
			pfn++;
		}
	}
	migrate_batch(&m, batch, &n);
}

/* Moves the range's movable blocks out until the range is free; 0, or -EBUSY (reported). */
static int empty_range(const struct isolated_range *range, gfp_t gfp)
{
	unsigned long busy = range->start_pfn;

	for (int pass = 0; pass < CONTIG_PASSES; pass++) {
		migrate_range_out(range);
		drain_pcp_lists();
		if (test_pages_isolated(range, &busy) == 0)
			return 0;
	}
	if (!(gfp & __GFP_NOWARN))
		printk("alloc_contig_range: [%#lx, %#lx): pfn %#lx is still in use after %d passes "
		       "(pinned, or allocated meanwhile)\n", range->start_pfn, range->end_pfn, busy, CONTIG_PASSES);
	return -EBUSY;
}

/* zone's lock held: is every frame of [start, end) in a free block of an isolated pageblock? */
static bool range_free_locked(struct zone *zone, unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end;) {
		struct page *page = pfn_to_page(pfn);

		if (!PageBuddy(page) || pfn_migratetype(zone, pfn) != MIGRATE_ISOLATE ||
		    pfn + (1UL << page->private) > end)
			return false;
		pfn += 1UL << page->private;
	}
	return true;
}

/* Takes every free block of the isolated range off the lists, in one hold; -EBUSY if one is not free. */
static int take_range(const struct isolated_range *range)
{
	struct zone *zone = &mm_zones[pfn_zone(range->start_pfn)];
	unsigned long flags = zone_lock(zone);
	bool free = range_free_locked(zone, range->start_pfn, range->end_pfn);

	for (unsigned long pfn = range->start_pfn; free && pfn < range->end_pfn;)
		pfn += 1UL << mm_buddy_take_free_block(zone, pfn_to_page(pfn));
	zone_unlock(zone, flags);
	return free ? 0 : -EBUSY;
}

/* The per-CPU list type a page of the range carries once allocated (the fast free path's). */
static unsigned int contig_pcptype(const struct page *page)
{
	unsigned int mt = get_pageblock_migratetype(page);

	return mt < MIGRATE_PCPTYPES ? mt : MIGRATE_MOVABLE;
}

/* Makes the taken frames [pfn, pfn + nr) allocated order-0 pages with count 1 each. */
static void prep_taken_pages(unsigned long pfn, unsigned long nr, gfp_t gfp)
{
	struct page *first = pfn_to_page(pfn);

	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = first + i;

		set_page_flags(page, page_flags(page) & ~(1u << PG_buddy));
		set_block_order_type(page, 0, contig_pcptype(page));
		if (page_flag_test(page, PG_poisoned))
			unpoison_pages(page, 1);
		set_page_private(page, 0);
		set_page_ref(page, 1);
	}
	if (gfp & __GFP_ZERO)
		for (unsigned long i = 0; i < nr; i++)
			memset(page_address(first + i), 0, PAGE_SIZE);
}

/* Turns the taken pages [pfn, pfn + nr) (count 1 each) into one compound page, head count 1. */
static void make_compound(unsigned long pfn, unsigned long nr)
{
	struct page *head = pfn_to_page(pfn);

	for (unsigned long i = 1; i < nr; i++)
		set_page_ref(head + i, 0);
	prep_compound_page(head, (unsigned int)__builtin_ctzl(nr)); /* checked: a power of two, 2 or more */
}

/* Records the range's new blocks with page_owner, as alloc_pages() would. */
static void record_owner(unsigned long pfn, unsigned long nr, gfp_t gfp, uintptr_t site)
{
	if (!mm_page_owner_on)
		return;
	if (gfp & __GFP_COMP) {
		page_owner_alloc(pfn, (unsigned int)__builtin_ctzl(nr), gfp, site);
		return;
	}
	for (unsigned long i = 0; i < nr; i++)
		page_owner_alloc(pfn + i, 0, gfp, site);
}

/* Why gfp cannot ask for nr pages at start (NULL when it can). */
static const char *gfp_problem(unsigned long start, unsigned long nr, gfp_t gfp)
{
	if (gfp & ~CONTIG_GFP)
		return "gfp has bits the call does not take";
	if ((gfp & __GFP_COMP) && (nr < 2 || (nr & (nr - 1)) || (start & (nr - 1))))
		return "__GFP_COMP asks for a power of two of pages aligned to its size";
	return NULL;
}

/*
 * Taking nr frames costs their zone nr free pages, however many of them are in use now (those
 * move to free pages elsewhere): does the zone of start have them above its min watermark, as an
 * ordinary allocation would need (mm/watermark.h)?
 */
static bool room_for(unsigned long start, unsigned long nr)
{
	const struct zone *zone = &mm_zones[pfn_zone(start)];

	return zone_free_pages(zone) >= zone->watermark[WMARK_MIN] + nr;
}

static int alloc_contig_range_at(unsigned long start_pfn, unsigned long end_pfn, gfp_t gfp, uintptr_t site)
{
	const char *problem = start_pfn < end_pfn ? gfp_problem(start_pfn, end_pfn - start_pfn, gfp) : NULL;
	struct isolated_range range;
	int err;

	if (problem) {
		printk("alloc_contig_range: refused: [%#lx, %#lx) gfp %#x: %s\n", start_pfn, end_pfn, gfp, problem);
		return -EINVAL;
	}
	if (!room_for(start_pfn, end_pfn - start_pfn)) {
		if (!(gfp & __GFP_NOWARN))
			printk("alloc_contig_range: [%#lx, %#lx): its zone has too few free pages above its min "
			       "watermark\n", start_pfn, end_pfn);
		return -ENOMEM;
	}
	err = start_isolate_page_range(start_pfn, end_pfn, &range);
	if (err)
		return err;
	err = empty_range(&range, gfp);
	if (!err)
		err = take_range(&range);
	undo_isolate_page_range(&range);
	if (err)
		return err;
	prep_taken_pages(start_pfn, end_pfn - start_pfn, gfp);
	if (gfp & __GFP_COMP)
		make_compound(start_pfn, end_pfn - start_pfn);
	record_owner(start_pfn, end_pfn - start_pfn, gfp, site);
	return 0;
}

/* noinline, as alloc_pages(): page_owner records its caller. */
__attribute__((noinline)) int alloc_contig_range(unsigned long start_pfn, unsigned long end_pfn, gfp_t gfp)
{
	return alloc_contig_range_at(start_pfn, end_pfn, gfp, (uintptr_t)__builtin_return_address(0));
}

/* ---- giving a range back ------------------------------------------------------------------------ */

/* Flags a page given back must not carry. */
#define CONTIG_FREE_CHECK (1u << PG_reserved | 1u << PG_buddy | 1u << PG_head | 1u << PG_tail | \
			   1u << PG_compound | 1u << PG_hugetlb | 1u << PG_slab)

/* The first page of [pfn, pfn + nr) that is not an allocated order-0 page with count 1, or NULL. */
static struct page *first_bad_page(unsigned long pfn, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = pfn_to_page(pfn + i);

		if (page_ref(page) != 1 || (page_flags(page) & (CONTIG_FREE_CHECK | PAGE_ORDER_MASK)))
			return page;
	}
	return NULL;
}

/*
 * A compound page of exactly nr pages at pfn, head count 1, made plain pages of count 1 each;
 * false (reported) when it is not one.
 */
static bool dissolve_compound(unsigned long pfn, unsigned long nr)
{
	struct page *head = pfn_to_page(pfn);

	if (PageTail(head) || page_ref(head) != 1 || nr < 2 || (nr & (nr - 1))) {
		bad_page(head, "free_contig_range: a compound page given back must be whole, its head with count 1");
		return false;
	}
	if (!free_compound_prepare(head, (unsigned int)__builtin_ctzl(nr)))
		return false;
	for (unsigned long i = 1; i < nr; i++)
		set_page_ref(head + i, 1);
	return true;
}

void free_contig_range(unsigned long pfn, unsigned long nr_pages)
{
	struct page *bad;

	if (!nr_pages || !pfn_valid(pfn))
		return;
	if (PageHead(pfn_to_page(pfn)) && !dissolve_compound(pfn, nr_pages))
		return;
	bad = first_bad_page(pfn, nr_pages);
	if (bad) {
		bad_page(bad, "free_contig_range: not a page of a taken range (count 1, order 0): nothing freed");
		return;
	}
	while (nr_pages) {
		unsigned int order = buddy_block_order(pfn, nr_pages);
		struct page *head = pfn_to_page(pfn);

		for (unsigned long i = 1; i < (1UL << order); i++) {
			set_page_ref(head + i, 0);
			if (mm_page_owner_on) /* __free_pages() clears the head's record */
				page_owner_free(pfn + i);
		}
		set_block_order_type(head, order, contig_pcptype(head));
		__free_pages(head, order);
		pfn += 1UL << order;
		nr_pages -= 1UL << order;
	}
}

/* ---- finding a range ---------------------------------------------------------------------------- */

/* The first frame of the aligned candidate after the one holding pfn. */
static unsigned long next_candidate(unsigned long pfn, unsigned long nr)
{
	return (pfn | (nr - 1)) + 1;
}

/* Tries each aligned candidate of nr frames in zone; its first page, or NULL. */
static struct page *search_zone(const struct zone *zone, unsigned long nr, gfp_t gfp, uintptr_t site)
{
	unsigned long start = (zone->start_pfn + nr - 1) & ~(nr - 1);
	const char *why;

	if (!room_for(zone->start_pfn, nr))
		return NULL;
	while (zone->pageblock_type && start + nr <= zone->end_pfn && start + nr > start) {
		unsigned long stop = first_unmovable_pfn(start, start + nr, &why);

		if (stop == start + nr && alloc_contig_range_at(start, start + nr, gfp | __GFP_NOWARN, site) == 0)
			return pfn_to_page(start);
		start = next_candidate(stop < start + nr ? stop : start, nr);
	}
	return NULL;
}

__attribute__((noinline)) struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp)
{
	uintptr_t site = (uintptr_t)__builtin_return_address(0);
	int top = gfp & __GFP_DMA ? ZONE_DMA : gfp & __GFP_DMA32 ? ZONE_DMA32 : ZONE_NORMAL;
	struct page *page = NULL;

	if (nr_pages < PAGEBLOCK_NR_PAGES || nr_pages > (ISOLATE_MAX_PAGEBLOCKS << PAGEBLOCK_ORDER) ||
	    (nr_pages & (nr_pages - 1)) || (gfp & ~CONTIG_GFP)) {
		printk("alloc_contig_pages: refused: %lu pages, gfp %#x (a power of two from %lu to %lu pages; "
		       "gfp bits %#x)\n", nr_pages, gfp, PAGEBLOCK_NR_PAGES, ISOLATE_MAX_PAGEBLOCKS << PAGEBLOCK_ORDER,
		       CONTIG_GFP);
		return NULL;
	}
	/* The nodes nearest first, as alloc_pages_node() tries them; in each, the zones from top down. */
	for (unsigned int i = 0; i < mm_nr_node_ids && !page; i++)
		for (int z = MIN(top, (int)mm_top_zone); z >= 0 && !page; z--)
			page = search_zone(&mm_zones[mm_node_order[numa_node_id()][i] * MAX_NR_ZONES + (unsigned int)z],
					   nr_pages, gfp, site);
	if (!page && !(gfp & __GFP_NOWARN))
		printk("alloc_contig_pages: no range of %lu pages could be emptied\n", nr_pages);
	return page;
}
