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

#define GFP_KERNEL 0u      /* an ordinary allocation from any zone */

#define __GFP_ZONEMASK (__GFP_DMA | __GFP_DMA32)
#define __GFP_ALL (__GFP_ZONEMASK | __GFP_ZERO | __GFP_NOWARN | __GFP_COMP)

#endif
