/* SPDX-License-Identifier: MIT */
/*
 * Hot lists: the fast path of alloc_pages() and __free_pages() for orders 0..HOT_MAX_ORDER (see
 * struct hot_list in mm/zone.h). drain_hot_pages() and set_hot_pages() are for everyone; the rest
 * is mm/'s own.
 */
#ifndef MM_HOT_PAGES_H
#define MM_HOT_PAGES_H

#include "mm/buddy.h"
#include "mm/debug.h"
#include "mm/list.h"
#include "mm/memmap.h"

/*
 * Gives every block on the hot lists (recently freed blocks of order <= HOT_MAX_ORDER, kept
 * unmerged for speed) back to the buddy free lists, so that buddyinfo shows all free memory in
 * its merged form. alloc_pages() does this itself before it fails. Returns the blocks moved.
 */
unsigned long drain_hot_pages(void);

/*
 * Turns the hot lists off (false) or back on (true, the state after boot). Off, they are drained
 * and stay empty: every alloc_pages() takes a block from the buddy lists, splitting a larger one
 * when needed, and every __free_pages() gives it back and merges it with its free buddies; the
 * plain buddy allocator, which benchmarks and tests compare against. Returns the previous state.
 */
bool set_hot_pages(bool on);

/*
 * Orders below this go to and come from the hot lists: HOT_MAX_ORDER + 1 normally, 0 while
 * set_hot_pages(false) has them off (then every hot list is empty). A variable, not the constant,
 * so that the switch costs the fast path nothing: the compare just reads memory.
 */
extern unsigned int hot_orders;

/* Gives the n least recently freed blocks of zone's order hot list to the buddy lists. */
void hot_flush(struct zone *zone, unsigned int order, unsigned long n);

/* Sets every hot list's limit from its zone's size (after the hand-off). */
void hot_set_limits(void);

/* The most recently freed hot block of order in zone (count 0), or NULL when there is none. */
static inline struct page *hot_take(struct zone *zone, unsigned int order)
{
	struct hot_list *hot = &zone->hot[order];
	struct list_head *l = hot->list.next;

	if (!hot->count)
		return NULL;
	MM_BUG_ON(PageBuddy(lru_to_page(l)), lru_to_page(l), "a hot block of order %u marked PG_buddy", order);
	list_del(l);
	hot->count--;
	zone->free_pages -= 1UL << order;
	return lru_to_page(l);
}

/* Puts a checked block of order <= HOT_MAX_ORDER on its zone's hot list. */
static inline void hot_give(struct page *page, unsigned int order)
{
	struct zone *zone = &zones[page_zonenum(page)];
	struct hot_list *hot = &zone->hot[order];

	MM_BUG_ON(order > HOT_MAX_ORDER, page, "order %u above HOT_MAX_ORDER", order);
	MM_BUG_ON(page_to_pfn(page) & ((1UL << order) - 1), page, "block not aligned to its order %u", order);
	list_add(&page->lru, &hot->list);
	zone->free_pages += 1UL << order;
	if (++hot->count > hot->high)
		hot_flush(zone, order, hot->high / 2 + 1);
}

#endif
