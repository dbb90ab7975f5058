/* SPDX-License-Identifier: MIT */
/*
 * The buddy allocator's free lists (internal to mm/): taking a block of a given order out of a
 * zone, splitting a larger one if needed, and giving a block back, merging it with its buddy.
 *
 * A free block of 2^order frames starts at a frame number that is a multiple of 2^order; its
 * first struct page has PG_buddy, private = order, and lru links in its zone's free_area[order],
 * on the list of its pageblock's mobility type (mm/pageblock.h).
 * The other pages of the block are not touched, so splitting and merging cost O(1) per level
 * whatever the block size. The buddy of the block at pfn is the block at pfn ^ 2^order; the two
 * merge when the buddy's first page is PG_buddy with the same order.
 *
 * The caller holds the zone's lock (zone_lock(), mm/zone.h) around every call.
 */
#ifndef MM_BUDDY_H
#define MM_BUDDY_H

#include "mm/memmap.h"
#include "mm/zone.h"

/*
 * Takes a block of exactly 2^order frames for an allocation of mobility type mt (0..2) from zone:
 * the smallest free block of order or more in a pageblock of type mt, split (the halves not taken
 * go first on the lower lists), but a larger one below a pageblock when the smallest is in a
 * sparse pageblock (mm/pageblock.h) and the larger not: sparse pageblocks are left to become
 * wholly free. When mt has none, falls back to the other types, in a fixed order
 * (unmovable: reclaimable, movable; movable: reclaimable, unmovable; reclaimable: unmovable,
 * movable; never isolated pageblocks), counted in zone->alloc_fallbacks. An unmovable or
 * reclaimable allocation (or a movable one of order PAGEBLOCK_ORDER / 2 or more) takes the
 * largest such block and claims its pageblock for mt (counted in zone->pageblock_claims) when the
 * block is a whole pageblock or more, or when half the pageblock or more is free: every free
 * block there moves to mt's lists. Returns the first page with PG_buddy cleared, or NULL when
 * the zone has no block of order or more outside isolated pageblocks.
 */
struct page *mm_buddy_take(struct zone *zone, unsigned int order, unsigned int mt);

/*
 * mm_buddy_take() for a per-CPU refill, cpu1 its CPU plus 1: a block below a pageblock's order in
 * a pageblock another CPU reserves (mm/pageblock.h, pageblock_reserver()) is taken only when the
 * first few blocks of each order of mt are all such and no block of a pageblock or more of mt
 * is free; before any block of another type.
 */
struct page *mm_buddy_take_cpu(struct zone *zone, unsigned int order, unsigned int mt, unsigned int cpu1);

/*
 * Sets the type of the pageblock holding pfn (in zone) to mt and moves its free blocks to mt's
 * lists. Returns the frames moved.
 */
unsigned long mm_buddy_move_pageblock(struct zone *zone, unsigned long pfn, unsigned int mt);

/*
 * zone's lock held, page the block of 2^order frames at pfn (aligned to it): its buddy when that
 * is a free block of exactly this order in page's zone, else NULL: what mm_buddy_give() merges
 * with, and what a per-CPU refill takes beside its blocks (mm/pcp.c). Below a memmap chunk's size
 * the buddy shares the block's chunk, which is backed. The buddy may belong to another CPU right
 * now, which may be writing its flags: they are read atomically, and its private only once
 * PG_buddy says it is on free lists under the lock held. A node's edge need not be aligned: the
 * buddy may be another node's zone's, in that zone's lists.
 */
static inline struct page *mm_buddy_free_buddy(struct page *page, unsigned long pfn, unsigned int order)
{
	unsigned long buddy_pfn = pfn ^ (1UL << order);
	struct page *buddy = page + ((long)buddy_pfn - (long)pfn);

	if (order >= MEMMAP_CHUNK_SHIFT && !pfn_valid(buddy_pfn))
		return NULL;
	if (!PageBuddy(buddy) || buddy->private != order || page_zonenum(buddy) != page_zonenum(page))
		return NULL;
	return buddy;
}

/*
 * Gives the block of 2^order frames at page back to its zone, merging it with its buddy as long
 * as the buddy is free and whole; a block smaller than a pageblock, in a sparse one, goes last on
 * its list. The block goes on the list of its pageblock's type; a merge
 * across pageblocks gives the buddy's the block's type, and never crosses an isolated one's edge.
 * The caller has checked the block (see __free_pages()).
 */
void mm_buddy_give(struct page *page, unsigned int order);

/* mm_buddy_give() in one hold of the block's zone lock, interrupts off meanwhile. */
static inline void buddy_give_locked(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags = zone_lock(zone);

	mm_buddy_give(page, order);
	zone_unlock(zone, flags);
}

/*
 * For isolating a range that starts or ends at pfn, the first frame of a pageblock: when pfn is
 * inside a free block larger than a pageblock (not at its start), splits that block into free
 * blocks of one pageblock each, so that no free block crosses pfn. Returns true if it split one.
 */
bool mm_buddy_split_at(struct zone *zone, unsigned long pfn);

/*
 * Undoes mm_buddy_split_at() once the pageblock at pfn has its type back: when that pageblock is one
 * free block of PAGEBLOCK_ORDER, gives it again, so that it merges with its free buddy.
 */
void mm_buddy_remerge_pageblock(struct zone *zone, unsigned long pfn);

/*
 * Takes the free block whose first page is page (PG_buddy) off its free list, whole, for the
 * caller (compaction's migration targets, a contiguous range taken whole); returns its order. It goes back with mm_buddy_give().
 */
unsigned int mm_buddy_take_free_block(struct zone *zone, struct page *page);

/**
 * buddy_block_order() - The largest buddy block that starts at a frame and fits in a range.
 * @pfn: the block's first frame.
 * @nr: frames available from pfn on (at least 1).
 *
 * The ranges handed to the buddy allocator (at boot, after boot, back from a contiguous range) are
 * cut into naturally aligned blocks of at most MAX_ORDER this way.
 *
 * Return: the largest order o <= MAX_ORDER with pfn a multiple of 2^o and 2^o <= nr.
 */
static inline unsigned int buddy_block_order(unsigned long pfn, unsigned long nr)
{
	unsigned int order = MAX_ORDER;

	while (order && ((pfn & ((1UL << order) - 1)) || (1UL << order) > nr))
		order--;
	return order;
}

/* Puts a block on its free list without merging (the hand-off adds only maximal blocks). */
void mm_buddy_add_block(struct zone *zone, struct page *page, unsigned int order);

#endif
