/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of references on plain (non-compound) blocks: the last put_page() frees the whole
 * block at the order it was allocated at, and get_page()/put_page() on a page other than the
 * first, whose count is 0 because a plain block counts its references on its first page only,
 * is reported and changes nothing.
 */
#include "tests/ktest/mm_helpers.h"

/* get_page, then two put_page on a fresh plain block of order: it must come back whole. */
static void get_put_put_frees(struct ktest *t, unsigned int order)
{
	unsigned long reports = mm_bad_page_reports;
	struct mm_shape before;
	struct page *block;

	mm_shape_take(&before);
	block = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
	KT_ASSERT(t, block != NULL, "alloc_pages(GFP_KERNEL, %u) failed", order);
	get_page(block);
	KT_EXPECT_EQ(t, page_count(block), 2);
	put_page(block);
	KT_EXPECT_EQ(t, page_count(block), 1);
	KT_EXPECT_EQ(t, nr_free_pages(), before.free_pages - (1UL << order));
	put_page(block);
	KT_EXPECT(t, mm_bad_page_reports == reports, "order %u: %lu bad_page reports, expected none", order,
		  mm_bad_page_reports - reports);
	KT_EXPECT(t, nr_free_pages() == before.free_pages, "order %u: %lu free pages, %lu before", order,
		  nr_free_pages(), before.free_pages);
	mm_expect_shape(t, &before);
}

static void last_put_page_frees_a_plain_block_at_its_order(struct ktest *t)
{
	unsigned int top = mm_top_testable_order(t, GFP_KERNEL); /* a small machine skips the top */

	for (unsigned int order = 1; order <= top && !t->failures; order++)
		get_put_put_frees(t, order);
}

/*
 * Expects one bad_page report since *reports, the block's count still `count` on its first page
 * and 0 on the others, and the free count unchanged.
 */
static void expect_one_report(struct ktest *t, unsigned long *reports, struct page *block, int count,
			      unsigned long free, const char *what)
{
	KT_EXPECT(t, mm_bad_page_reports - *reports == 1, "%s: %lu bad_page reports, expected 1", what,
		  mm_bad_page_reports - *reports);
	KT_EXPECT(t, page_count(block) == count && block[1]._refcount == 0 && block[3]._refcount == 0,
		  "%s: counts %d, %d, %d; expected %d, 0, 0", what, page_count(block),
		  (int)block[1]._refcount, (int)block[3]._refcount, count);
	KT_EXPECT(t, nr_free_pages() == free, "%s: %lu free pages, expected %lu", what, nr_free_pages(), free);
	*reports = mm_bad_page_reports;
}

static void references_on_an_inner_page_of_a_plain_block_are_reported(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports, free;
	struct mm_shape before;
	struct page *block;

	mm_shape_take(&before);
	block = alloc_pages(GFP_KERNEL, 2);
	KT_ASSERT(t, block != NULL, "alloc_pages(GFP_KERNEL, 2) failed");
	free = nr_free_pages();
	get_page(&block[1]);
	expect_one_report(t, &reports, block, 1, free, "get_page on page 1 of an order-2 block");
	put_page(&block[3]);
	expect_one_report(t, &reports, block, 1, free, "put_page on page 3 of an order-2 block");
	get_page(block); /* the first page's count is the block's */
	put_page(&block[1]);
	expect_one_report(t, &reports, block, 2, free, "put_page on page 1 with two references on page 0");
	put_page(block);
	put_page(block);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports);
	mm_expect_shape(t, &before);
}

KTEST_SUITE(mm_refcount,
	    KTEST_CASE(last_put_page_frees_a_plain_block_at_its_order),
	    KTEST_MISUSE_CASE(references_on_an_inner_page_of_a_plain_block_are_reported));
