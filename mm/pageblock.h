/* SPDX-License-Identifier: MIT */
/*
 * Grouping pages by mobility: the type of each pageblock (mm/pageblock_types.h), kept in a side
 * array per zone (one byte per 2 MiB, from memblock at boot), not in struct page, whose flags the
 * block's owner writes. After boot every pageblock is movable (most memory ends up holding
 * movable pages); an allocation of another type that finds no free block in its own pageblocks
 * falls back to another type's (mm/buddy.h says which and when it claims the pageblock).
 *
 * Writers hold the zone's lock; readers need no lock (a relaxed byte load): a type read while it
 * changes is either one, and the buddy lists re-read it under the lock.
 */
#ifndef MM_PAGEBLOCK_H
#define MM_PAGEBLOCK_H

#include "mm/memmap.h"
#include "mm/zone.h"

/**
 * pageblock_init() - Boot: allocate each zone's pageblock arrays, every pageblock movable.
 * @limit_pfn: memory may be added up to this frame later (mm_init_params.hotplug_end): the
 *             arrays keep room for the pageblocks of each zone below it. 0: none.
 *
 * Called after the zones' spans are known and before memblock retires.
 *
 * Return: 0, or -ENOMEM (reported).
 */
int pageblock_init(unsigned long limit_pfn);

/**
 * pageblock_grow_zone() - After boot: let a zone's pageblock arrays cover frames added to it.
 * @zone: the zone.
 * @start_pfn: the first frame added.
 * @end_pfn: one past the last (@start_pfn < @end_pfn, all in @zone).
 *
 * Sets first_pageblock and nr_pageblocks to cover the zone's span and the new frames, inside the
 * room pageblock_init() kept. A zone with memory keeps its first pageblock (the index of every
 * pageblock in use would move). Serialized by the caller.
 *
 * Return: 0, or -ERANGE when the frames are outside the room, or below a zone's first pageblock.
 */
int pageblock_grow_zone(struct zone *zone, unsigned long start_pfn, unsigned long end_pfn);

/**
 * pageblock_index() - The index of the pageblock holding a frame in its zone's array.
 * @zone: the frame's zone.
 * @pfn: the frame.
 *
 * Return: the index.
 */
static inline unsigned long pageblock_index(const struct zone *zone, unsigned long pfn)
{
	return (pfn >> PAGEBLOCK_ORDER) - zone->first_pageblock;
}

/**
 * pfn_migratetype() - The type of the pageblock holding a frame.
 * @zone: the frame's zone.
 * @pfn: the frame.
 *
 * Return: an enum migratetype.
 */
static inline unsigned int pfn_migratetype(const struct zone *zone, unsigned long pfn)
{
	return __atomic_load_n(&zone->pageblock_type[pageblock_index(zone, pfn)], __ATOMIC_RELAXED);
}

/*
 * A pageblock with at least this many frames in the buddy lists is sparse: on its way to being
 * wholly free, a 2 MiB block. The buddy lists hand out its blocks last, and while a zone is busy
 * the per-CPU lists do not keep its blocks (mm/zone.h, struct per_cpu_pages). At 64 (an eighth)
 * the fragmentation benchmark's churn kept the most 2 MiB blocks (16, 32 and 128 did worse).
 */
#define PAGEBLOCK_SPARSE_FREE 64

/**
 * pageblock_sparse() - Is the pageblock holding a frame sparse?
 * @zone: the frame's zone; its lock held (or a stale answer is harmless).
 * @pfn: the frame.
 *
 * Return: true when it has PAGEBLOCK_SPARSE_FREE frames or more in the buddy lists.
 */
static inline bool pageblock_sparse(const struct zone *zone, unsigned long pfn)
{
	return __atomic_load_n(&zone->pageblock_use[pageblock_index(zone, pfn)].free, __ATOMIC_RELAXED) >=
	       PAGEBLOCK_SPARSE_FREE;
}

/**
 * pageblock_reserver() - The CPU that reserves the pageblock holding a frame (zone->pageblock_use).
 * @zone: the frame's zone.
 * @pfn: the frame.
 *
 * Return: that CPU plus 1, or 0 when no CPU does.
 */
static inline unsigned int pageblock_reserver(const struct zone *zone, unsigned long pfn)
{
	return __atomic_load_n(&zone->pageblock_use[pageblock_index(zone, pfn)].cpu, __ATOMIC_RELAXED);
}

/**
 * get_pageblock_migratetype() - The type of the pageblock holding a page.
 * @page: the page.
 *
 * Return: an enum migratetype.
 */
static inline unsigned int get_pageblock_migratetype(const struct page *page)
{
	return pfn_migratetype(page_zone(page), page_to_pfn(page));
}

/**
 * set_pageblock_migratetype() - Set the type of the pageblock holding a page, and nothing else.
 * @page: the page; its zone's lock held.
 * @mt: the type.
 *
 * Its free blocks stay where they are: mm_buddy_move_pageblock() moves them.
 */
static inline void set_pageblock_migratetype(struct page *page, unsigned int mt)
{
	struct zone *zone = page_zone(page);

	__atomic_store_n(&zone->pageblock_type[pageblock_index(zone, page_to_pfn(page))], (uint8_t)mt,
			 __ATOMIC_RELAXED);
}

/**
 * migratetype_name() - A mobility type's name.
 * @mt: the type.
 *
 * Return: "Unmovable", "Movable", "Reclaimable", "Isolate"; "?" for a value that is no type.
 */
const char *migratetype_name(unsigned int mt);

/**
 * zone_pageblocks_of_type() - Count a zone's pageblocks of a type (under the zone's lock).
 * @zone: the zone.
 * @mt: the type.
 *
 * Return: the count.
 */
unsigned long zone_pageblocks_of_type(struct zone *zone, unsigned int mt);

/**
 * show_pagetypeinfo() - Print /proc/pagetypeinfo.
 *
 * Prints its two tables: free blocks per zone, type and order, then pageblocks
 * per zone and type; then the fallback counters in the /proc/vmstat form.
 */
void show_pagetypeinfo(void);

/**
 * pagetypeinfo_free_line() - One row of pagetypeinfo's first table.
 * @zone: the zone.
 * @mt: the type.
 * @buf: where to write "Node 0, zone   Normal, type      Movable      3 ..." (no newline).
 * @size: buf's size.
 *
 * Return: the length, as snprintf() returns it.
 */
int pagetypeinfo_free_line(struct zone *zone, unsigned int mt, char *buf, size_t size);

/**
 * pagetypeinfo_blocks_line() - One row of pagetypeinfo's second table.
 * @zone: the zone.
 * @buf: where to write "Node 0, zone   Normal    3  500    0    0" (no newline).
 * @size: buf's size.
 *
 * Return: the length, as snprintf() returns it.
 */
int pagetypeinfo_blocks_line(struct zone *zone, char *buf, size_t size);

#endif
