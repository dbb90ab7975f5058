/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of folios (mm/folio.h): page_folio() from every sub-page, the size and place of a
 * folio, references counted on the folio and the last folio_put() freeing the unit, an order-0
 * page as a folio, 2 MiB and 1 GiB hugetlb pool pages as folios, and misuse (a tail passed as a folio).
 */
#include "tests/ktest/compound_helpers.h"

#include "mm/folio.h"
#include "mm/hugetlb.h"

#define GFP_COMP (GFP_KERNEL | __GFP_COMP)

/* Expects every sub-page of the 2^order pages at head to lead to head's folio, and back. */
static bool expect_subpages_lead_to_head(struct ktest *t, struct page *head, unsigned int order)
{
	struct folio *folio = page_folio(head);

	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (!KT_EXPECT(t, page_folio(&head[i]) == folio && folio_page(folio, i) == &head[i],
			       "order %u page %lu: folio %p, folio_page %p (want %p, %p)", order, i,
			       (void *)page_folio(&head[i]), (void *)folio_page(folio, i), (void *)head,
			       (void *)&head[i]))
			return false;
	}
	return true;
}

/* Expects folio, headed by head, to be a large folio of order at head's place. */
static void expect_large_folio(struct ktest *t, struct folio *folio, struct page *head, unsigned int order)
{
	KT_EXPECT(t, &folio->page == head, "folio %p is not its head %p", (void *)folio, (void *)head);
	KT_EXPECT(t, folio_test_large(folio), "order %u: not large", order);
	KT_EXPECT_EQ(t, folio_order(folio), order);
	KT_EXPECT_EQ(t, folio_nr_pages(folio), 1UL << order);
	KT_EXPECT_EQ(t, folio_size(folio), PAGE_SIZE << order);
	KT_EXPECT(t, folio_address(folio) == page_address(head), "order %u: address %p, head's %p", order,
		  folio_address(folio), page_address(head));
	KT_EXPECT_EQ(t, folio_pfn(folio), page_to_pfn(head));
	KT_EXPECT_EQ(t, folio_pfn(folio) & ((1UL << order) - 1), 0);
}

/* page_folio() from each sub-page of a fresh compound page of this order; folio_put() frees it. */
static void compound_page_of_order(struct ktest *t, unsigned int order)
{
	unsigned long before = test_free_pages();
	struct page *head;
	struct folio *folio;

	if (mm_skip_without_blocks(t, order, 1, GFP_COMP))
		return;
	head = alloc_pages(GFP_COMP, order);
	KT_ASSERT(t, head != NULL, "alloc_pages(__GFP_COMP, %u) failed", order);
	folio = page_folio(&head[(1UL << order) - 1]);
	expect_subpages_lead_to_head(t, head, order);
	expect_large_folio(t, folio, head, order);
	KT_EXPECT(t, !folio_test_hugetlb(folio), "order %u: a buddy compound page tests as hugetlb", order);
	KT_EXPECT(t, folio_dtor(folio) == free_compound_page, "order %u: default destructor", order);
	KT_EXPECT_EQ(t, folio_ref_count(folio), 1);
	folio_put(folio);
	KT_EXPECT_EQ(t, test_free_pages(), before);
	expect_no_compound(t, head, order);
}

static void page_folio_of_every_subpage_is_the_head(struct ktest *t)
{
	static const unsigned int orders[] = { 1, 3, HPAGE_ORDER };

	for (size_t i = 0; i < ARRAY_SIZE(orders); i++)
		compound_page_of_order(t, orders[i]);
}

/* The folio's fields are the head's struct page fields, at the same addresses. */
static void folio_fields_are_the_head_page_fields(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_COMP, 2);
	struct folio *folio;

	KT_ASSERT(t, head != NULL, "alloc_pages failed");
	folio = page_folio(&head[3]);
	KT_EXPECT(t, (void *)&folio->flags == (void *)&head->flags, "flags");
	KT_EXPECT(t, (void *)&folio->_refcount == (void *)&head->_refcount, "_refcount");
	KT_EXPECT(t, (void *)&folio->lru == (void *)&head->lru, "lru");
	KT_EXPECT(t, (void *)&folio->private == (void *)&head->private, "private");
	KT_EXPECT_EQ(t, folio->flags, head->flags);
	KT_EXPECT_EQ(t, folio->_refcount, 1);
	folio_put(folio);
}

static void folio_get_put_count_on_the_head_and_last_put_frees(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct page *head = alloc_pages(GFP_COMP, 3);
	struct folio *folio;

	KT_ASSERT(t, head != NULL, "alloc_pages failed");
	folio_get(page_folio(&head[5]));
	folio_get(page_folio(&head[7]));
	get_page(&head[2]); /* the page words and the folio words count on the same word */
	folio = page_folio(&head[1]);
	KT_EXPECT_EQ(t, folio_ref_count(folio), 4);
	KT_EXPECT_EQ(t, page_count(&head[6]), 4);
	for (unsigned long i = 1; i < 8; i++)
		KT_EXPECT_EQ(t, head[i]._refcount, 0);
	folio_put(folio);
	put_page(&head[4]);
	folio_put(folio);
	KT_EXPECT_EQ(t, folio_ref_count(folio), 1);
	KT_EXPECT_EQ(t, test_free_pages(), before - 8);
	KT_EXPECT(t, PageHead(head), "still a compound page with one reference left");
	folio_put(folio);
	KT_EXPECT_EQ(t, test_free_pages(), before);
	expect_no_compound(t, head, 3);
}

static void order_0_page_is_a_folio_of_order_0(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct page *page = alloc_page(GFP_KERNEL);
	struct folio *folio;

	KT_ASSERT(t, page != NULL, "alloc_page failed");
	folio = page_folio(page);
	KT_EXPECT(t, &folio->page == page, "an order-0 page is its own folio");
	KT_EXPECT(t, !folio_test_large(folio), "an order-0 folio is not large");
	KT_EXPECT(t, !folio_test_hugetlb(folio), "an order-0 folio is not hugetlb");
	KT_EXPECT_EQ(t, folio_order(folio), 0);
	KT_EXPECT_EQ(t, folio_nr_pages(folio), 1);
	KT_EXPECT_EQ(t, folio_size(folio), PAGE_SIZE);
	KT_EXPECT(t, folio_address(folio) == page_address(page), "address");
	KT_EXPECT_EQ(t, folio_pfn(folio), page_to_pfn(page));
	KT_EXPECT(t, folio_page(folio, 0) == page, "folio_page(folio, 0)");
	KT_EXPECT(t, folio_dtor(folio) == NULL, "an order-0 folio has no destructor");
	folio_get(folio);
	KT_EXPECT_EQ(t, folio_ref_count(folio), 2);
	folio_put(folio);
	KT_EXPECT_EQ(t, test_free_pages(), before - 1);
	folio_put(folio);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

/* A plain order-2 block (no __GFP_COMP) is a folio of order 0, yet its last put frees all four. */
static void plain_block_is_an_order_0_folio_freed_whole(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 2);
	struct folio *folio;

	KT_ASSERT(t, page != NULL, "alloc_pages failed");
	folio = page_folio(page);
	KT_EXPECT(t, !folio_test_large(folio) && folio_order(folio) == 0, "order %u", folio_order(folio));
	KT_EXPECT(t, &page_folio(&page[1])->page == &page[1], "a plain block's other pages are not tails");
	folio_put(folio);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

/*
 * The folio of head's page i, expected to be a hugetlb folio of order headed by head (every
 * sub-page leads there) whose destructor gives it back to the pool.
 */
static struct folio *expect_hugetlb_folio(struct ktest *t, struct page *head, unsigned int order, unsigned long i)
{
	struct folio *folio = page_folio(&head[i]);

	expect_subpages_lead_to_head(t, head, order);
	expect_large_folio(t, folio, head, order);
	KT_EXPECT(t, folio_test_hugetlb(folio), "flags %#x", (unsigned int)folio->flags);
	KT_EXPECT(t, folio_dtor(folio) == free_huge_page, "destructor is free_huge_page");
	return folio;
}

static void hugetlb_pool_page_is_a_hugetlb_folio(struct ktest *t)
{
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);
	unsigned long before = test_free_pages();
	struct page *head;
	struct folio *folio;

	if (c.free <= c.reserved && mm_skip_without_blocks(t, HPAGE_ORDER, 1, GFP_KERNEL))
		return;
	hugetlb_set_overcommit(c.overcommit + 1); /* a surplus page when the pool has none free */
	head = alloc_huge_page();
	if (!KT_EXPECT(t, head != NULL, "alloc_huge_page failed")) {
		hugetlb_set_overcommit(c.overcommit);
		return;
	}
	folio = expect_hugetlb_folio(t, head, HPAGE_ORDER, (1UL << HPAGE_ORDER) - 1);
	folio_get(page_folio(&head[100]));
	folio_put(folio);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).in_use, c.in_use + 1);
	folio_put(folio); /* the destructor: back to the pool, or to the buddy allocator if surplus */
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).in_use, c.in_use);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).free, c.free);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	hugetlb_set_overcommit(c.overcommit);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

/* A 1 GiB pool page (above the buddy allocator's MAX_ORDER) is a folio of order 18 too. */
static void gigantic_pool_page_is_a_hugetlb_folio(struct ktest *t)
{
	struct hugetlb_counters g = hugetlb_counters(GIGANTIC_ORDER);
	unsigned long before = test_free_pages();
	struct page *head;
	struct folio *folio;

	if (g.free <= g.reserved) {
		ktest_skip(t, "no free 1 GiB page (boot with hugepagesz=1G hugepages=1 and 2 GiB+ of RAM)");
		return;
	}
	head = alloc_gigantic_page();
	KT_ASSERT(t, head != NULL, "alloc_gigantic_page failed with %lu free", g.free);
	folio = expect_hugetlb_folio(t, head, GIGANTIC_ORDER, 12345);
	KT_EXPECT_EQ(t, folio_size(folio), GIGANTIC_SIZE);
	folio_put(folio);
	KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).free, g.free);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

/* A tail passed as a folio, and a free page's folio: reported, nothing counted or freed. */
static void folio_calls_on_a_tail_or_free_page_are_reported(struct ktest *t)
{
	unsigned long before = test_free_pages(), reports;
	struct page *head = alloc_pages(GFP_COMP, 2), *page = alloc_page(GFP_KERNEL);

	KT_ASSERT(t, head && page, "allocations failed");
	reports = mm_bad_page_reports;
	folio_get((struct folio *)&head[1]);
	folio_put((struct folio *)&head[2]);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 2);
	KT_EXPECT_EQ(t, folio_ref_count(page_folio(head)), 1);
	KT_EXPECT_EQ(t, head[1]._refcount + head[2]._refcount, 0);
	folio_put(page_folio(&head[3]));
	folio_put(page_folio(page));
	KT_EXPECT_EQ(t, test_free_pages(), before);
	reports = mm_bad_page_reports;
	folio_put(page_folio(page));
	folio_get(page_folio(page));
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 2);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

KTEST_SUITE(folio,
	    KTEST_CASE(page_folio_of_every_subpage_is_the_head),
	    KTEST_CASE(folio_fields_are_the_head_page_fields),
	    KTEST_CASE(folio_get_put_count_on_the_head_and_last_put_frees),
	    KTEST_CASE(order_0_page_is_a_folio_of_order_0),
	    KTEST_CASE(plain_block_is_an_order_0_folio_freed_whole),
	    KTEST_CASE(hugetlb_pool_page_is_a_hugetlb_folio),
	    KTEST_CASE(gigantic_pool_page_is_a_hugetlb_folio),
	    KTEST_MISUSE_CASE(folio_calls_on_a_tail_or_free_page_are_reported));
