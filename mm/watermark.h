/* SPDX-License-Identifier: MIT */
/*
 * Zone watermarks: a reserve of free pages in each zone that ordinary allocations leave alone,
 * so that an allocation that cannot wait (GFP_ATOMIC: an interrupt handler) still finds memory
 * when the rest of the kernel has taken everything it may.
 *
 * Linux's rule for the reserve: mm_min_free_kbytes = sqrt(16 * lowmem in KiB), clamped to
 * [128 KiB, 64 MiB], here also at most 1/16 of lowmem (so that a machine of a few MiB still lends
 * most of its memory to GFP_KERNEL), shared among the zones by their managed pages. Each zone
 * then has three marks, in free pages of its buddy lists:
 *
 *   min   its share of the reserve: a GFP_KERNEL allocation fails rather than leave the zone's
 *         buddy lists below it; an allocation with __GFP_HIGH (GFP_ATOMIC) may take the zone
 *         down to 0
 *   low   min * 5/4, high  min * 3/2: printed with the zone (what a reclaimer would aim for; this
 *         allocator has none, so nothing acts on them yet)
 *
 * Blocks already on a CPU's list are out of the buddy lists: taking one checks no watermark.
 */
#ifndef MM_WATERMARK_H
#define MM_WATERMARK_H

#include "mm/gfp.h"
#include "mm/zone.h"

/* What the last setup_zone_watermarks() chose, in KiB (Linux's min_free_kbytes). */
extern unsigned long mm_min_free_kbytes;

/**
 * setup_zone_watermarks() - Set every zone's watermarks from the managed pages.
 *
 * Called after the hand-off to the buddy allocator.
 */
void setup_zone_watermarks(void);

/**
 * zone_usable_free_pages() - Frames an allocation could take from a zone's buddy lists.
 * @zone: the zone; its lock held, or a racy reading.
 *
 * Its free frames less those in isolated pageblocks (mm/page_isolation.h), which no allocation
 * takes: the watermarks are kept in these.
 *
 * Return: the frames.
 */
static inline unsigned long zone_usable_free_pages(const struct zone *zone)
{
	unsigned long free = __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED);
	unsigned long isolated = __atomic_load_n(&zone->isolated_free_pages, __ATOMIC_RELAXED);

	return free > isolated ? free - isolated : 0; /* read racily, the two may not agree */
}

/**
 * zone_watermark_ok() - May an allocation take a block from a zone's buddy lists?
 * @zone: the zone; its lock held.
 * @order: the block's order.
 * @gfp: the allocation's flags: __GFP_HIGH may go down to 0, others stop at the min watermark.
 *
 * Return: true when the block may be taken.
 */
static inline bool zone_watermark_ok(const struct zone *zone, unsigned int order, gfp_t gfp)
{
	unsigned long mark = gfp & __GFP_HIGH ? 0 : zone->watermark[WMARK_MIN];

	/* Under the lock isolated_free_pages is part of buddy_free_pages: no clamp needed. */
	return zone->buddy_free_pages - zone->isolated_free_pages >= mark + (1UL << order);
}

#endif
