/* SPDX-License-Identifier: MIT */
/*
 * The buddy allocator's free lists (internal to mm/): taking a block of a given order out of a
 * zone, splitting a larger one if needed, and giving a block back, merging it with its buddy.
 *
 * A free block of 2^order frames starts at a frame number that is a multiple of 2^order; its
 * first struct page has PG_buddy, private = order, and lru links in its zone's free_area[order].
 * The other pages of the block are not touched, so splitting and merging cost O(1) per level
 * whatever the block size. The buddy of the block at pfn is the block at pfn ^ 2^order; the two
 * merge when the buddy's first page is PG_buddy with the same order.
 *
 * The caller holds the zone's lock (zone_lock(), mm/zone.h) around every call.
 */
#ifndef MM_BUDDY_H
#define MM_BUDDY_H

#include "mm/zone.h"

/*
 * Takes a block of exactly 2^order frames from zone (splitting the smallest larger block when no
 * block of that order is free; the halves not taken go on the lower lists). Returns its first
 * page with PG_buddy cleared, or NULL when the zone has no block of order or more.
 */
struct page *buddy_take(struct zone *zone, unsigned int order);

/*
 * Gives the block of 2^order frames at page back to its zone, merging it with its buddy as long
 * as the buddy is free and whole. The caller has checked the block (see __free_pages()).
 */
void buddy_give(struct page *page, unsigned int order);

/* buddy_give() in one hold of the block's zone lock, interrupts off meanwhile. */
static inline void buddy_give_locked(struct page *page, unsigned int order)
{
	struct zone *zone = &zones[page_zonenum(page)];
	unsigned long flags = zone_lock(zone);

	buddy_give(page, order);
	zone_unlock(zone, flags);
}

/* Puts a block on its free list without merging (the hand-off adds only maximal blocks). */
void buddy_add_block(struct zone *zone, struct page *page, unsigned int order);

#endif
