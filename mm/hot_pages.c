/* SPDX-License-Identifier: MIT */
/*
 * Hot lists: giving their coldest blocks back to the buddy free lists, when a list is over its
 * limit, before an allocation fails, or when the caller wants buddyinfo to show all free memory;
 * and turning them off and on (set_hot_pages).
 */
#include "mm/hot_pages.h"

unsigned int hot_orders = HOT_MAX_ORDER + 1;

void hot_flush(struct zone *zone, unsigned int order, unsigned long n)
{
	struct hot_list *hot = &zone->hot[order];

	for (; n && hot->count; n--) {
		struct list_head *l = hot->list.prev; /* the coldest block */

		list_del(l);
		hot->count--;
		zone->free_pages -= 1UL << order; /* buddy_give() counts them again */
		buddy_give(lru_to_page(l), order);
	}
}

unsigned long drain_hot_pages(void)
{
	unsigned long blocks = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (unsigned int o = 0; o <= HOT_MAX_ORDER; o++) {
			blocks += zones[z].hot[o].count;
			hot_flush(&zones[z], o, zones[z].hot[o].count);
		}
	return blocks;
}

void hot_set_limits(void)
{
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (unsigned int o = 0; o <= HOT_MAX_ORDER; o++)
			zones[z].hot[o].high = MIN(HOT_HIGH_BLOCKS, zones[z].managed_pages >> (o + 4));
}

bool set_hot_pages(bool on)
{
	bool was = hot_orders != 0;

	hot_orders = on ? HOT_MAX_ORDER + 1 : 0;
	if (!on)
		drain_hot_pages();
	return was;
}
