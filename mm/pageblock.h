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

/*
 * Boot, after the zones' spans are known and before memblock retires: allocates each zone's
 * array and makes every pageblock movable. Returns 0, or -ENOMEM (reported).
 */
int pageblock_init(void);

/* The index of the pageblock holding pfn in its zone's array. */
static inline unsigned long pageblock_index(const struct zone *zone, unsigned long pfn)
{
	return (pfn >> PAGEBLOCK_ORDER) - zone->first_pageblock;
}

/* The type of the pageblock holding frame pfn of zone (an enum migratetype). */
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

/* zone's lock held (or a stale answer is harmless): is the pageblock holding pfn sparse? */
static inline bool pageblock_sparse(const struct zone *zone, unsigned long pfn)
{
	return __atomic_load_n(&zone->pageblock_free[pageblock_index(zone, pfn)], __ATOMIC_RELAXED) >=
	       PAGEBLOCK_SPARSE_FREE;
}

/* The type of the pageblock holding page (an enum migratetype). */
static inline unsigned int get_pageblock_migratetype(const struct page *page)
{
	return pfn_migratetype(&zones[page_zonenum(page)], page_to_pfn(page));
}

/*
 * zone's lock held: sets the type of the pageblock holding page, and nothing else (its free
 * blocks stay where they are: buddy_move_pageblock() moves them).
 */
static inline void set_pageblock_migratetype(struct page *page, unsigned int mt)
{
	struct zone *zone = &zones[page_zonenum(page)];

	__atomic_store_n(&zone->pageblock_type[pageblock_index(zone, page_to_pfn(page))], (uint8_t)mt,
			 __ATOMIC_RELAXED);
}

/* "Unmovable", "Movable", "Reclaimable", "Isolate"; "?" for a value that is no type. */
const char *migratetype_name(unsigned int mt);

/* The pageblocks of zone of type mt (under the zone's lock). */
unsigned long zone_pageblocks_of_type(struct zone *zone, unsigned int mt);

/*
 * Prints /proc/pagetypeinfo's two tables: free blocks per zone, type and order, then pageblocks
 * per zone and type; then the fallback counters in the /proc/vmstat form.
 */
void show_pagetypeinfo(void);

/* One row of the first table, "Node 0, zone   Normal, type      Movable      3 ..." (no newline). */
int pagetypeinfo_free_line(struct zone *zone, unsigned int mt, char *buf, size_t size);

/* One row of the second table, "Node 0, zone   Normal    3  500    0    0" (no newline). */
int pagetypeinfo_blocks_line(struct zone *zone, char *buf, size_t size);

#endif
