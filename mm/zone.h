/* SPDX-License-Identifier: MIT */
/*
 * Zones: the parts of physical memory that device limits force us to tell apart, each with its
 * own buddy free lists.
 *
 *   ZONE_DMA     [0, dma_end)          reachable by the most limited devices (__GFP_DMA)
 *   ZONE_DMA32   [dma_end, dma32_end)  reachable by 32-bit devices           (__GFP_DMA32)
 *   ZONE_NORMAL  [dma32_end, ...)      everything else
 *
 * The environment gives the limits to mm_init() (a PC: 16 MiB and 4 GiB). Both are multiples of
 * the largest buddy block (4 MiB), so a block never straddles two zones and a block's buddy is
 * always in the block's zone.
 */
#ifndef MM_ZONE_H
#define MM_ZONE_H

#include "mm/page.h"

/* Largest buddy order: blocks of 2^MAX_ORDER pages (4 MiB). */
#define MAX_ORDER 10
#define NR_ORDERS (MAX_ORDER + 1)

enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, MAX_NR_ZONES };

/* The first frame above ZONE_DMA and above ZONE_DMA32 (set by mm_init()). */
extern unsigned long zone_dma_end_pfn, zone_dma32_end_pfn;
#define ZONE_DMA_END_PFN zone_dma_end_pfn
#define ZONE_DMA32_END_PFN zone_dma32_end_pfn

/* The free blocks of one order in one zone. */
struct free_area {
	struct list_head free_list; /* first pages of the free blocks (PG_buddy, private = order) */
	unsigned long nr_free;      /* blocks on free_list */
};

/*
 * Hot lists: recently freed blocks of order 0..HOT_MAX_ORDER, kept whole (not merged) and handed
 * out first, like Linux's per-cpu page lists. An alloc/free pair then costs a push and a pop
 * instead of splitting and re-merging a large block. A hot block's first page has count 0 and
 * no PG_buddy (so the buddy merge never sees it); its lru links it into the hot list.
 * set_hot_pages(false) (mm/page_alloc.h) turns them off, leaving the plain buddy allocator.
 */
#define HOT_MAX_ORDER 3
#define HOT_HIGH_BLOCKS 1024UL /* a hot list holds at most this many blocks, and at most 1/16 of its zone */

struct hot_list {
	struct list_head list; /* most recently freed first */
	unsigned long count;   /* blocks on list */
	unsigned long high;    /* over this, the coldest half goes back to the buddy lists */
};

struct zone {
	const char *name;
	unsigned long start_pfn, end_pfn; /* lowest usable frame, one past the highest (0, 0: empty) */
	unsigned long present_pages;      /* usable frames in the zone (firmware map) */
	unsigned long managed_pages;      /* frames handed to the buddy allocator */
	unsigned long free_pages;         /* frames in free blocks now, hot lists included */
	unsigned int free_orders;         /* bit o set while free_area[o] is not empty */
	struct free_area free_area[NR_ORDERS];
	struct hot_list hot[HOT_MAX_ORDER + 1];
};

extern struct zone zones[MAX_NR_ZONES];

/* "DMA", "DMA32" or "Normal"; "?" for a zone number that cannot be (a corrupt page's). */
const char *zone_name(unsigned int z);

/* The highest zone with memory: allocations start there when the caller allows it. */
extern enum zone_type top_zone;

/* The zone a frame belongs to, by address alone. */
static inline enum zone_type pfn_zone(unsigned long pfn)
{
	return pfn < ZONE_DMA_END_PFN ? ZONE_DMA : pfn < ZONE_DMA32_END_PFN ? ZONE_DMA32 : ZONE_NORMAL;
}

/* First frame after pfn where the zone changes (or ~0UL in the last zone). */
static inline unsigned long pfn_zone_end(unsigned long pfn)
{
	return pfn < ZONE_DMA_END_PFN ? ZONE_DMA_END_PFN : pfn < ZONE_DMA32_END_PFN ? ZONE_DMA32_END_PFN : ~0UL;
}

/* Empties every zone (names set, no pages, empty free lists). */
void zones_reset(void);

#endif
