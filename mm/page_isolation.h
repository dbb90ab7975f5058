/* SPDX-License-Identifier: MIT */
/*
 * Isolating a range of pageblocks, the first step of taking a contiguous range
 * (mm/contig_alloc.h). Every pageblock of the range becomes MIGRATE_ISOLATE: its free blocks move
 * to the isolate lists, where no allocation finds them, not even as a fallback, and every block
 * freed in the range from then on goes there too (page_alloc_isolating(), mm/page_alloc.h). What
 * is allocated in the range stays allocated: only a movable block (mm/migrate.h) can be moved
 * out, so a range holding any other page in use (a slab's, a hugetlb pool's, a reserved page, any
 * block its owner did not make movable) is refused, and the range is then exactly as it was.
 *
 *   struct isolated_range r;
 *   if (start_isolate_page_range(pfn, pfn + 512, &r) == 0) {
 *           ... migrate the movable blocks out, check test_pages_isolated(&r) ...
 *           undo_isolate_page_range(&r);
 *   }
 *
 * A range is at most 1 GiB (a gigantic page), whole pageblocks of one zone, with no hole.
 */
#ifndef MM_PAGE_ISOLATION_H
#define MM_PAGE_ISOLATION_H

#include "mm/page.h"
#include "mm/pageblock_types.h"

/* The most pageblocks one range may have: 1 GiB. */
#define ISOLATE_MAX_PAGEBLOCKS (1UL << (MAX_COMPOUND_ORDER - PAGEBLOCK_ORDER))

/* An isolated range, and the type each of its pageblocks had before (2 bits each). */
struct isolated_range {
	unsigned long start_pfn, end_pfn;
	uint8_t saved_types[ISOLATE_MAX_PAGEBLOCKS / 4];
};

/**
 * start_isolate_page_range() - Isolate the pageblocks of a range.
 * @start_pfn: its first frame, a multiple of PAGEBLOCK_NR_PAGES.
 * @end_pfn: one past its last frame, a multiple of PAGEBLOCK_NR_PAGES: one zone's managed frames,
 *           no hole, at most ISOLATE_MAX_PAGEBLOCKS pageblocks.
 * @range: the caller's record of the isolated range, filled here.
 *
 * A free block that crosses an end of the range is split there first. Then every
 * CPU's lists are drained (so no free block of the range stays on them) and the range is checked.
 *
 * Return: 0, the range isolated; -EINVAL (reported) for a range that breaks the rules above;
 * -EBUSY (reported) when a pageblock is isolated already or the range holds an allocated page
 * that is not movable; on an error every pageblock has its type and its free blocks back.
 */
int start_isolate_page_range(unsigned long start_pfn, unsigned long end_pfn, struct isolated_range *range);

/**
 * undo_isolate_page_range() - Give an isolated range back.
 * @range: what start_isolate_page_range() filled.
 *
 * Gives every pageblock of the range the type it had before, its free blocks with it, and
 * merges the free blocks that isolation kept apart.
 */
void undo_isolate_page_range(struct isolated_range *range);

/**
 * test_pages_isolated() - Is every frame of an isolated range in a free block on the isolate lists?
 * @range: what start_isolate_page_range() filled.
 * @busy_pfn: NULL, or where to write the first frame that is not.
 *
 * Return: 0 when every frame is, or -EBUSY when one is not.
 */
int test_pages_isolated(const struct isolated_range *range, unsigned long *busy_pfn);

/**
 * first_unmovable_pfn() - A quick look, without any lock, for a page that cannot move out.
 * @start_pfn: the range's first frame.
 * @end_pfn: one past its last frame.
 * @why: where to write a phrase for a message, when a frame is found.
 *
 * An answer that may be stale: start_isolate_page_range() checks again.
 *
 * Return: the first frame of an allocated page that cannot be moved out, or end_pfn when every
 * page there is free or movable.
 */
unsigned long first_unmovable_pfn(unsigned long start_pfn, unsigned long end_pfn, const char **why);

/**
 * isolated_saved_type() - The type a pageblock of an isolated range had before isolation.
 * @range: the isolated range.
 * @pfn: a frame of the pageblock.
 *
 * Return: that type (for the allocation's new pages).
 */
unsigned int isolated_saved_type(const struct isolated_range *range, unsigned long pfn);

#endif
