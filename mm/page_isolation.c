/* SPDX-License-Identifier: MIT */
/*
 * Isolating a range of pageblocks (mm/page_isolation.h): checking the range, setting its
 * pageblocks aside in one hold of the zone lock, looking for pages that cannot move, and giving
 * every pageblock its type back.
 */
#include "mm/page_isolation.h"

#include "mm/buddy.h"
#include "mm/debug.h"
#include "mm/folio.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/pcp.h"

static unsigned long range_index(const struct isolated_range *range, unsigned long pfn)
{
	return (pfn - range->start_pfn) >> PAGEBLOCK_ORDER;
}

static void save_type(struct isolated_range *range, unsigned long pfn, unsigned int mt)
{
	unsigned long i = range_index(range, pfn);
	unsigned int shift = (unsigned int)(i % 4) * 2;

	range->saved_types[i / 4] = (uint8_t)((range->saved_types[i / 4] & ~(3u << shift)) | mt << shift);
}

unsigned int isolated_saved_type(const struct isolated_range *range, unsigned long pfn)
{
	unsigned long i = range_index(range, pfn);

	return (range->saved_types[i / 4] >> ((i % 4) * 2)) & 3u;
}

/* A frame with no struct page, from pfn on in [pfn, end), or end. */
static unsigned long first_hole(unsigned long pfn, unsigned long end)
{
	for (; pfn < end; pfn += MEMMAP_CHUNK_PAGES - (pfn & (MEMMAP_CHUNK_PAGES - 1)))
		if (!pfn_valid(pfn))
			return pfn;
	return end;
}

/* Why [start, end) cannot be isolated as a range (mm/page_isolation.h), or NULL. */
static const char *range_problem(unsigned long start, unsigned long end)
{
	const struct zone *zone = &mm_zones[pfn_zone(start)];

	if (start >= end || ((start | end) & (PAGEBLOCK_NR_PAGES - 1)))
		return "not whole pageblocks";
	if ((end - start) >> PAGEBLOCK_ORDER > ISOLATE_MAX_PAGEBLOCKS)
		return "more than 1 GiB";
	if (!zone->pageblock_type || start < zone->start_pfn || end > zone->end_pfn)
		return "not inside one zone's managed frames";
	if (first_hole(start, end) != end)
		return "a hole in it has no struct page";
	return NULL;
}

/* The frames of the allocated block whose first page is page (plain or compound). */
static unsigned long block_pages(const struct page *page)
{
	return 1UL << (PageHead(page) ? compound_order(page) : alloc_order_of(page));
}

/*
 * What the page at pfn is, for a range about to be emptied: NULL when it is free or can be moved
 * out, else why not. *next is the next frame worth a look (past a free or movable block).
 */
static const char *page_unmovable(unsigned long pfn, unsigned long *next)
{
	struct page *page = pfn_to_page(pfn);
	unsigned long order;

	*next = pfn + 1;
	if (!pfn_valid(pfn))
		return "in a hole of the memory map (no struct page)";
	order = page->private; /* a free block's order, if PG_buddy still holds */
	if (PageBuddy(page)) {
		if (order <= MAX_ORDER)
			*next = pfn + (1UL << order);
		return NULL;
	}
	if (PageReserved(page))
		return "a reserved page";
	if (PageSlab(compound_head(page)))
		return "a slab's page";
	if (PageHugeTLB(compound_head(page)))
		return "a hugetlb pool page";
	if (page_movable(page)) {
		*next = pfn + block_pages(page);
		return NULL;
	}
	if (page_ref(compound_head(page)) > 0)
		return "a page in use that its owner did not make movable";
	return NULL; /* free on a CPU's list, or a movable block frozen while it moves */
}

/*
 * An allocated block that starts before start (a block larger than a pageblock) and covers it:
 * its first page, or NULL. The scan that starts at start would take its pages for free ones.
 */
static struct page *block_across_start(unsigned long start)
{
	for (unsigned int o = PAGEBLOCK_ORDER + 1; o <= MAX_ORDER; o++) {
		unsigned long base = start & ~((1UL << o) - 1);
		struct page *page = pfn_to_page(base);

		if (base != start && pfn_valid(base) && pfn_zone(base) == pfn_zone(start) && !PageBuddy(page) &&
		    page_ref(page) > 0 && base + block_pages(page) > start)
			return page;
	}
	return NULL;
}

unsigned long first_unmovable_pfn(unsigned long start_pfn, unsigned long end_pfn, const char **why)
{
	struct page *across = block_across_start(start_pfn);
	unsigned long next;

	if (across) {
		*why = "an allocated block from before the range that covers its start";
		return start_pfn;
	}
	for (unsigned long pfn = start_pfn; pfn < end_pfn; pfn = next) {
		const char *problem = page_unmovable(pfn, &next);

		if (problem) {
			*why = problem;
			return pfn;
		}
	}
	return end_pfn;
}

/* zone's lock held: gives pageblocks [start, upto) of range their saved types and merges again. */
static void restore_locked(struct zone *zone, struct isolated_range *range, unsigned long upto)
{
	for (unsigned long pfn = range->start_pfn; pfn < upto; pfn += PAGEBLOCK_NR_PAGES)
		mm_buddy_move_pageblock(zone, pfn, isolated_saved_type(range, pfn));
	for (unsigned long pfn = range->start_pfn; pfn < range->end_pfn; pfn += PAGEBLOCK_NR_PAGES)
		mm_buddy_remerge_pageblock(zone, pfn);
}

/*
 * zone's lock held: splits the free blocks across the range's ends and isolates its pageblocks,
 * saving their types. Returns range->end_pfn, or the first pageblock found isolated already
 * (every other then restored).
 */
static unsigned long isolate_locked(struct zone *zone, struct isolated_range *range)
{
	mm_buddy_split_at(zone, range->start_pfn);
	if (range->end_pfn < zone->end_pfn)
		mm_buddy_split_at(zone, range->end_pfn);
	for (unsigned long pfn = range->start_pfn; pfn < range->end_pfn; pfn += PAGEBLOCK_NR_PAGES) {
		unsigned int mt = pfn_migratetype(zone, pfn);

		if (mt == MIGRATE_ISOLATE) {
			restore_locked(zone, range, pfn);
			return pfn;
		}
		save_type(range, pfn, mt);
		mm_buddy_move_pageblock(zone, pfn, MIGRATE_ISOLATE);
	}
	return range->end_pfn;
}

int start_isolate_page_range(unsigned long start_pfn, unsigned long end_pfn, struct isolated_range *range)
{
	const char *problem = range_problem(start_pfn, end_pfn);
	struct zone *zone = &mm_zones[pfn_zone(start_pfn)];
	unsigned long flags, busy;

	if (problem) {
		printk("start_isolate_page_range: refused: [%#lx, %#lx): %s\n", start_pfn, end_pfn, problem);
		return -EINVAL;
	}
	range->start_pfn = start_pfn;
	range->end_pfn = end_pfn;
	page_alloc_isolating(true);
	flags = zone_lock(zone);
	busy = isolate_locked(zone, range);
	zone_unlock(zone, flags);
	if (busy != end_pfn) {
		page_alloc_isolating(false);
		printk("start_isolate_page_range: refused: [%#lx, %#lx): the pageblock at %#lx is isolated "
		       "already\n", start_pfn, end_pfn, busy);
		return -EBUSY;
	}
	drain_pcp_lists(); /* blocks of the range freed to a CPU's list before: to the isolate lists */
	busy = first_unmovable_pfn(start_pfn, end_pfn, &problem);
	if (busy == end_pfn)
		return 0;
	printk("start_isolate_page_range: refused: [%#lx, %#lx): pfn %#lx is %s\n", start_pfn, end_pfn, busy,
	       problem);
	undo_isolate_page_range(range);
	return -EBUSY;
}

void undo_isolate_page_range(struct isolated_range *range)
{
	struct zone *zone = &mm_zones[pfn_zone(range->start_pfn)];
	unsigned long flags = zone_lock(zone);

	restore_locked(zone, range, range->end_pfn);
	zone_unlock(zone, flags);
	page_alloc_isolating(false);
}

int test_pages_isolated(const struct isolated_range *range, unsigned long *busy_pfn)
{
	struct zone *zone = &mm_zones[pfn_zone(range->start_pfn)];
	unsigned long flags = zone_lock(zone), pfn = range->start_pfn;

	while (pfn < range->end_pfn) {
		struct page *page = pfn_to_page(pfn);

		if (!PageBuddy(page) || pfn_migratetype(zone, pfn) != MIGRATE_ISOLATE ||
		    pfn + (1UL << page->private) > range->end_pfn)
			break;
		pfn += 1UL << page->private;
	}
	zone_unlock(zone, flags);
	if (busy_pfn)
		*busy_pfn = pfn;
	return pfn < range->end_pfn ? -EBUSY : 0;
}
