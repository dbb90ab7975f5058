/* SPDX-License-Identifier: MIT */
/*
 * gfp_t flags: what a caller of alloc_pages() asks for ("get free pages" flags, as in Linux).
 *
 * Zone modifiers restrict where the memory may come from; without one, the allocator tries
 * ZONE_NORMAL, then ZONE_DMA32, then ZONE_DMA. The other bits change what is done with the block.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

#include "mm/types.h"

#define __GFP_DMA    0x01u /* only ZONE_DMA: below 16 MiB (ISA DMA) */
#define __GFP_DMA32  0x02u /* ZONE_DMA32 or ZONE_DMA: below 4 GiB (32-bit devices) */
#define __GFP_ZERO   0x04u /* fill the block with zeroes before returning it */
#define __GFP_NOWARN 0x08u /* a failure returns NULL without printing a warning */
#define __GFP_COMP   0x10u /* order >= 1: make the block a compound page (mm/compound.h) */
#define __GFP_HIGH   0x20u /* may take a zone below its min watermark, down to 0 (mm/watermark.h) */

/*
 * Mobility (mm/pageblock.h): what the owner can do with the block later. Without either bit the
 * block is unmovable (kernel objects whose address is known). __GFP_MOVABLE: its contents could
 * be moved elsewhere (user pages, page cache, vmalloc'd pages); __GFP_RECLAIMABLE: it can be
 * freed on demand (slab caches that shrink). Both at once is refused. Blocks of one kind are kept
 * together in 2 MiB pageblocks, so that the movable ones do not scatter unmovable pages across
 * all of memory.
 */
#define __GFP_MOVABLE     0x40u
#define __GFP_RECLAIMABLE 0x80u
#define GFP_MOBILITY_SHIFT 6 /* gfp_migratetype(): the two bits are the type (mm/pageblock.h) */

/*
 * Before failing, the allocation does not call the shrinkers (mm/shrinker.h), which take locks of
 * their own: for a caller that holds an mm lock (the slab allocating a slab under a CPU slot's
 * lock, the hugetlb pool under its lock) or that is a shrinker itself.
 */
#define __GFP_NORECLAIM 0x100u
/*
 * Only the node asked for (alloc_pages_node(), mm/page_alloc.h): no fallback to other nodes; the
 * allocation fails rather than take remote memory.
 */
#define __GFP_THISNODE 0x200u

/*
 * An ordinary allocation from any zone: it fails rather than take a zone's buddy lists below the
 * zone's min watermark, leaving that reserve to those who cannot wait.
 */
#define GFP_KERNEL 0u

/*
 * An allocation that cannot wait or fail gracefully: interrupt handlers, code holding a lock.
 * It may use the whole reserve below the min watermark: there is no reclaim here that a later
 * caller could wait for, so nothing is kept back from it. mm/ never sleeps, so every allocation is
 * safe in an interrupt handler; GFP_ATOMIC only says how deep it may dig.
 */
#define GFP_ATOMIC __GFP_HIGH

/* Pages a user could map (movable: migration may move them), and huge pages of the same kind. */
#define GFP_HIGHUSER_MOVABLE __GFP_MOVABLE
#define GFP_TRANSHUGE (__GFP_MOVABLE | __GFP_COMP | __GFP_NOWARN)

#define __GFP_ZONEMASK (__GFP_DMA | __GFP_DMA32)
#define __GFP_MOBILITY (__GFP_MOVABLE | __GFP_RECLAIMABLE)
#define __GFP_ALL \
	(__GFP_ZONEMASK | __GFP_ZERO | __GFP_NOWARN | __GFP_COMP | __GFP_HIGH | __GFP_MOBILITY | __GFP_NORECLAIM | \
	 __GFP_THISNODE)

/**
 * gfp_migratetype() - The mobility type of an allocation.
 * @gfp: the allocation's flags.
 *
 * Return: its enum migratetype (mm/pageblock.h): 0 unmovable, 1 movable, 2 reclaimable; 3 (both
 * bits) is no type, refused by alloc_pages().
 */
static inline unsigned int gfp_migratetype(gfp_t gfp)
{
	return (gfp & __GFP_MOBILITY) >> GFP_MOBILITY_SHIFT;
}

#endif
