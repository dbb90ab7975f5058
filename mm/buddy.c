/* SPDX-License-Identifier: MIT */
/*
 * The buddy free lists: O(1) list operations, splitting on allocation, merging on free.
 * See mm/buddy.h for how a free block is marked. Every function here runs under the zone's lock.
 */
#include "mm/buddy.h"

#include "mm/debug.h"
#include "mm/list.h"
#include "mm/memmap.h"

/* Counters other CPUs read without the lock (buddyinfo, free page counts): atomic stores. */
static inline void set_counter(unsigned long *c, unsigned long v)
{
	__atomic_store_n(c, v, __ATOMIC_RELAXED);
}

static inline void area_add(struct zone *zone, struct page *page, unsigned int order)
{
	struct free_area *area = &zone->free_area[order];

	MM_BUG_ON(order > MAX_ORDER, page, "order %u above MAX_ORDER", order);
	MM_BUG_ON(page_to_pfn(page) & ((1UL << order) - 1), page, "block not aligned to its order %u", order);
	MM_BUG_ON(PageBuddy(page), page, "already on a free list (order %lu)", page->private);

	list_add(&page->lru, &area->free_list);
	page->private = order;
	page_flag_set(page, PG_buddy); /* after private: a merge that sees PG_buddy reads the order */
	set_counter(&area->nr_free, area->nr_free + 1);
	zone->free_orders |= 1u << order;
}

static inline void area_del(struct zone *zone, struct page *page, unsigned int order)
{
	struct free_area *area = &zone->free_area[order];

	MM_BUG_ON(!PageBuddy(page) || page->private != order, page,
		  "taking a block of order %u off a free list: PG_buddy %d, order %lu", order, PageBuddy(page),
		  page->private);

	list_del(&page->lru);
	page_flag_clear(page, PG_buddy);
	set_counter(&area->nr_free, area->nr_free - 1);
	if (area->nr_free == 0)
		zone->free_orders &= ~(1u << order);
}

struct page *buddy_take(struct zone *zone, unsigned int order)
{
	unsigned int avail = zone->free_orders >> order, o;
	struct page *page;

	MM_BUG_ON(!lock_held(&zone->lock), NULL, "zone %s's lock not held", zone->name);
	if (!avail)
		return NULL;
	o = order + (unsigned int)__builtin_ctz(avail);
	page = lru_to_page(zone->free_area[o].free_list.next);
	area_del(zone, page, o);
	while (o > order) {
		o--;
		area_add(zone, page + (1UL << o), o);
	}
	set_counter(&zone->buddy_free_pages, zone->buddy_free_pages - (1UL << order));
	return page;
}

void buddy_give(struct page *page, unsigned int order)
{
	struct zone *zone = &zones[page_zonenum(page)];
	unsigned long pfn = page_to_pfn(page);

	MM_BUG_ON(!lock_held(&zone->lock), page, "zone %s's lock not held", zone->name);
	set_counter(&zone->buddy_free_pages, zone->buddy_free_pages + (1UL << order));
	for (; order < MAX_ORDER; order++) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy = page + ((long)buddy_pfn - (long)pfn);

		/* Below a chunk's size the buddy shares the block's memmap chunk, which is backed. */
		if (order >= MEMMAP_CHUNK_SHIFT && !pfn_valid(buddy_pfn))
			break;
		/*
		 * The buddy may belong to another CPU right now, which may be writing its flags: read
		 * them atomically. Its private is ours to read only once PG_buddy says it is on our
		 * free lists, under the zone lock we hold.
		 */
		if (!PageBuddy(buddy) || buddy->private != order)
			break;
		area_del(zone, buddy, order);
		if (buddy_pfn < pfn) {
			page = buddy;
			pfn = buddy_pfn;
		}
	}
	area_add(zone, page, order);
}

void buddy_add_block(struct zone *zone, struct page *page, unsigned int order)
{
	set_counter(&zone->buddy_free_pages, zone->buddy_free_pages + (1UL << order));
	area_add(zone, page, order);
}
