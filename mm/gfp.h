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

#define __GFP_ZONEMASK (__GFP_DMA | __GFP_DMA32)
#define __GFP_ALL (__GFP_ZONEMASK | __GFP_ZERO | __GFP_NOWARN | __GFP_COMP | __GFP_HIGH)

#endif
