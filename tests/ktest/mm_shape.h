/* SPDX-License-Identifier: MIT */
/*
 * A snapshot of the free lists' shape: free blocks per zone and order, and free pages, as
 * buddyinfo shows them. Taking it twice around some work and comparing says whether everything
 * freed merged back. Freestanding, so the self-tests and the host tools (map replay, fuzzer,
 * model test) share it.
 */
#ifndef TESTS_KTEST_MM_SHAPE_H
#define TESTS_KTEST_MM_SHAPE_H

#include "mm/pcp.h"
#include "mm/page_alloc.h"

struct mm_shape {
	unsigned long nr_free[MAX_NR_ZONES][NR_ORDERS];
	unsigned long free_pages;
};

/* Drains the pcp lists first, so that every free block is in its merged form. */
static inline void mm_shape_take(struct mm_shape *s)
{
	drain_pcp_lists();
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_ORDERS; o++)
			s->nr_free[z][o] = mm_zones[z].free_area[o].nr_free;
	s->free_pages = nr_free_pages();
}

/*
 * Are the shapes a and b the same? When not and zone/order are not NULL, they get the first
 * zone and order whose counts differ (order NR_ORDERS when only the free pages do).
 */
static inline bool mm_shape_equal(const struct mm_shape *a, const struct mm_shape *b, int *zone, int *order)
{
	int z = 0, o = 0;

	for (; z < MAX_NR_ZONES; z++)
		for (o = 0; o < NR_ORDERS; o++)
			if (a->nr_free[z][o] != b->nr_free[z][o])
				goto differ;
	if (a->free_pages == b->free_pages)
		return true;
	z = 0, o = NR_ORDERS;
differ:
	if (zone && order)
		*zone = z, *order = o;
	return false;
}

#endif
