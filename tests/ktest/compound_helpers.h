/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the compound-page and hugetlb self-tests: the buddy allocator's free-page
 * count, and a check that a unit carries no compound metadata. The random number generator is
 * mm_test_rand() from mm_test_rand.h (through mm_helpers.h).
 */
#ifndef TESTS_KTEST_COMPOUND_HELPERS_H
#define TESTS_KTEST_COMPOUND_HELPERS_H

#include "tests/ktest/ktest.h"
#include "mm/compound.h"
#include "mm/page_alloc.h"
#include "tests/ktest/mm_helpers.h"

/* Free pages in the buddy allocator, all zones. */
static inline unsigned long test_free_pages(void)
{
	return nr_free_pages();
}

/* Expects none of the 2^order pages at page to carry compound marks or a head pointer. */
static inline void expect_no_compound(struct ktest *t, struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (!KT_EXPECT(t, !PageCompound(&page[i]) && compound_head(&page[i]) == &page[i],
			       "page %lu of an order-%u block has compound flags %#x", i, order,
			       (unsigned int)page[i].flags))
			return;
	}
	KT_EXPECT_EQ(t, compound_order(page), 0);
}

#endif
