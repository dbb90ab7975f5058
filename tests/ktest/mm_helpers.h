/*
 * Helpers shared by the mm self-tests (tests/ktest/mm_*.c): a seeded random number generator,
 * a snapshot of the free lists' shape, a list of held blocks, and a way to switch poisoning off
 * around tests that move a lot of memory.
 */
#ifndef TESTS_KTEST_MM_HELPERS_H
#define TESTS_KTEST_MM_HELPERS_H

#include "kernel/ktest.h"
#include "mm/page_alloc.h"

/* xorshift64: the same sequence in the kernel and on the host for a given seed. */
static inline unsigned long mm_test_rand(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* Free blocks per zone and order, and free pages: what buddyinfo shows. */
struct mm_shape {
	unsigned long nr_free[MAX_NR_ZONES][NR_ORDERS];
	unsigned long free_pages;
};

/* Drains the hot lists first, so that every free block is in its merged form. */
static inline void mm_shape_take(struct mm_shape *s)
{
	drain_hot_pages();
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_ORDERS; o++)
			s->nr_free[z][o] = zones[z].free_area[o].nr_free;
	s->free_pages = nr_free_pages();
}

/* Expects the free lists to have shape *before again, naming the first difference. */
static inline bool mm_expect_shape(struct ktest *t, const struct mm_shape *before)
{
	struct mm_shape now;

	mm_shape_take(&now); /* drains the hot lists */
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_ORDERS; o++)
			if (!KT_EXPECT(t, now.nr_free[z][o] == before->nr_free[z][o],
				       "zone %s order %d: %lu free blocks, %lu before", zones[z].name, o,
				       now.nr_free[z][o], before->nr_free[z][o]))
				return false;
	return KT_EXPECT(t, now.free_pages == before->free_pages, "%lu free pages, %lu before",
			 now.free_pages, before->free_pages);
}

/* Blocks a test holds, chained through their first page's lru, order in private. */
struct mm_held {
	struct list_head list;
	unsigned long blocks, pages;
};

static inline void mm_held_init(struct mm_held *h)
{
	h->list.next = h->list.prev = &h->list;
	h->blocks = h->pages = 0;
}

static inline void mm_held_add(struct mm_held *h, struct page *page, unsigned int order)
{
	page->private = order;
	page->lru.next = h->list.next;
	h->list.next = &page->lru;
	h->blocks++;
	h->pages += 1UL << order;
}

/* Frees every held block with its order. */
static inline void mm_held_free_all(struct mm_held *h)
{
	for (struct list_head *l = h->list.next, *next; l != &h->list; l = next) {
		struct page *page = lru_to_page(l);

		next = l->next;
		__free_pages(page, (unsigned int)page->private);
	}
	mm_held_init(h);
}

/* Allocates blocks of order (then of each lower order down to low) until none is left. */
static inline void mm_exhaust(struct mm_held *h, unsigned int order, unsigned int low, gfp_t gfp)
{
	for (int o = (int)order; o >= (int)low; o--) {
		struct page *page;

		while ((page = alloc_pages(gfp | __GFP_NOWARN, (unsigned int)o)))
			mm_held_add(h, page, (unsigned int)o);
	}
}

#endif
