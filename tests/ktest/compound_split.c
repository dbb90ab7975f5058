/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of split_huge_page(): from any sub-page, refused while others hold references,
 * leaving independent order-0 pages that are freed one by one; refused for hugetlb pool pages.
 */
#include "tests/ktest/compound_helpers.h"

#include "mm/hugetlb.h"

/* Splits an order-`order` compound page through sub-page `via`, then frees each page. */
static void split_via(struct ktest *t, unsigned int order, unsigned long via)
{
	unsigned long before = test_free_pages(), nr = 1UL << order;
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, order);

	KT_ASSERT(t, head != NULL, "alloc_pages(__GFP_COMP, %u) failed", order);
	KT_ASSERT(t, split_huge_page(&head[via]) == 0, "order %u split via page %lu", order, via);
	expect_no_compound(t, head, order);
	for (unsigned long i = 0; i < nr; i++)
		if (!KT_EXPECT(t, page_count(&head[i]) == 1 && head[i].private == 0,
			       "page %lu of split order-%u: count %d private %#lx", i, order,
			       page_count(&head[i]), head[i].private))
			break;
	KT_EXPECT_EQ(t, test_free_pages(), before - nr);
	for (unsigned long i = 0; i < nr; i++)
		put_page(&head[i]);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

static void split_from_any_subpage_gives_order0_pages(struct ktest *t)
{
	unsigned long seed = 0x5eed5917;
	unsigned int top = mm_top_testable_order(t, GFP_KERNEL | __GFP_COMP);

	for (unsigned int order = 1; order <= top; order++) {
		split_via(t, order, 0);
		split_via(t, order, (1UL << order) - 1);
		split_via(t, order, mm_test_rand(&seed) % (1UL << order));
	}
}

static void split_refused_while_others_hold_references(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 4);

	KT_ASSERT(t, head != NULL, "alloc_pages failed");
	get_page(&head[9]);
	KT_EXPECT_EQ(t, split_huge_page(&head[3]), -EBUSY);
	KT_EXPECT(t, compound_check(head, 4) == NULL, "refused split changed the unit");
	KT_EXPECT_EQ(t, page_count(head), 2);
	put_page(&head[9]);
	KT_EXPECT_EQ(t, split_huge_page(&head[3]), 0);
	for (unsigned long i = 0; i < 16; i++)
		put_page(&head[i]);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

/*
 * What kernel/vmap_huge.c relies on when a protection change finds a 2 MiB page shared: the
 * refused split leaves a unit that is still freed whole, by its last reference from any page.
 */
static void refused_split_of_a_2mib_page_is_still_freed_whole(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct page *head;

	if (mm_skip_without_blocks(t, 9, 1, GFP_KERNEL))
		return;
	head = alloc_pages(GFP_KERNEL | __GFP_COMP, 9);
	KT_ASSERT(t, head != NULL, "alloc_pages(__GFP_COMP, 9) failed");
	get_page(&head[100]);
	KT_EXPECT_EQ(t, split_huge_page(&head[3]), -EBUSY);
	KT_EXPECT_EQ(t, split_huge_page(&head[100]), -EBUSY);
	KT_EXPECT(t, compound_check(head, 9) == NULL, "refused split changed the unit");
	KT_EXPECT(t, PageTail(&head[3]) && compound_head(&head[3]) == head, "sub-page 3 left its unit");
	KT_EXPECT_EQ(t, page_count(&head[3]), 2);
	put_page(head);        /* the owner's reference */
	KT_EXPECT_EQ(t, test_free_pages(), before - 512);
	put_page(&head[100]);  /* the last one, through a tail: the whole unit goes back */
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

static void split_refuses_plain_pages(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	KT_ASSERT(t, page != NULL, "alloc_pages failed");
	KT_EXPECT_EQ(t, split_huge_page(page), -EINVAL);
	KT_EXPECT_EQ(t, split_huge_page(&page[1]), -EINVAL);
	__free_pages(page, 2);
}

static void split_refuses_hugetlb_pages(struct ktest *t)
{
	struct hugetlb_counters c0 = hugetlb_counters(HPAGE_ORDER);
	struct page *head;

	if (mm_skip_without_blocks(t, HPAGE_ORDER, 1, GFP_KERNEL)) /* the pool grows by one */
		return;
	hugetlb_set_pool_size(c0.total - c0.surplus + 1);
	head = alloc_huge_page();
	KT_ASSERT(t, head != NULL, "no huge page to split");
	KT_EXPECT_EQ(t, split_huge_page(&head[100]), -EINVAL);
	KT_EXPECT(t, compound_check(head, HPAGE_ORDER) == NULL, "refused split changed the page");
	put_page(&head[100]);
	hugetlb_set_pool_size(c0.total - c0.surplus);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).total, c0.total);
}

KTEST_SUITE(compound_split,
	    KTEST_CASE(split_from_any_subpage_gives_order0_pages),
	    KTEST_CASE(split_refused_while_others_hold_references),
	    KTEST_CASE(refused_split_of_a_2mib_page_is_still_freed_whole),
	    KTEST_CASE(split_refuses_plain_pages),
	    KTEST_CASE(split_refuses_hugetlb_pages));
