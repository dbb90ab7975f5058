/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of compound pages: their marks, head pointers, order and destructor at every order,
 * references on sub-pages, and the difference from plain higher-order blocks.
 */
#include "tests/ktest/compound_helpers.h"

#include "lib/string.h"
#include "mm/dump_page.h"
#include "mm/hugetlb.h"

#define GFP_COMP (GFP_KERNEL | __GFP_COMP)

/* Expects the marks, head pointers, order and destructor of a fresh compound page. */
static void expect_compound(struct ktest *t, struct page *head, unsigned int order)
{
	KT_EXPECT(t, PageHead(head) && !PageTail(head) && PageCompound(head),
		  "order %u head flags %#x", order, (unsigned int)head->flags);
	KT_EXPECT_EQ(t, compound_head(head), head);
	KT_EXPECT_EQ(t, compound_order(head), order);
	KT_EXPECT(t, get_compound_page_dtor(head) == free_compound_page, "order %u: default dtor", order);
	KT_EXPECT_EQ(t, page_count(head), 1);
	for (unsigned long i = 1; i < (1UL << order); i++) {
		struct page *p = &head[i];
		if (!KT_EXPECT(t, PageTail(p) && !PageHead(p) && PageCompound(p) &&
				  compound_head(p) == head && p->first_page == head && p->_refcount == 0,
			       "order %u tail %lu: flags %#x head %p (want %p) count %d", order, i,
			       (unsigned int)p->flags, (void *)compound_head(p), (void *)head, (int)p->_refcount))
			return;
	}
}

static void compound_marks_at_every_order(struct ktest *t)
{
	unsigned int top = mm_top_testable_order(t, GFP_COMP);

	for (unsigned int order = 1; order <= top; order++) {
		unsigned long before = test_free_pages();
		struct page *head = alloc_pages(GFP_COMP, order);

		KT_ASSERT(t, head != NULL, "alloc_pages(__GFP_COMP, %u) failed", order);
		KT_EXPECT_EQ(t, test_free_pages(), before - (1UL << order));
		expect_compound(t, head, order);
		put_page(head);
		KT_EXPECT_EQ(t, test_free_pages(), before);
		expect_no_compound(t, head, order);
	}
}

/* Takes n references on random sub-pages, drops them and the allocation's own in random order. */
static void refs_on_subpages(struct ktest *t, unsigned int order, unsigned long *seed)
{
	unsigned long before = test_free_pages(), nr = 1UL << order;
	struct page *head = alloc_pages(GFP_COMP, order), *held[16];
	unsigned int n = 1 + mm_test_rand(seed) % 15;

	KT_ASSERT(t, head != NULL, "alloc_pages(__GFP_COMP, %u) failed", order);
	held[0] = head;
	for (unsigned int i = 1; i < n; i++) {
		held[i] = &head[mm_test_rand(seed) % nr];
		get_page(held[i]);
	}
	KT_EXPECT_EQ(t, page_count(&head[nr - 1]), n);
	for (unsigned int left = n; left > 0; left--) {
		unsigned int k = mm_test_rand(seed) % left;
		KT_EXPECT_EQ(t, test_free_pages(), before - nr);
		put_page(held[k]);
		held[k] = held[left - 1];
	}
	KT_EXPECT_EQ(t, test_free_pages(), before);
	expect_no_compound(t, head, order);
}

static void compound_refs_on_random_subpages_free_once(struct ktest *t)
{
	unsigned long seed = 0x5eed0004;
	unsigned int top = mm_top_testable_order(t, GFP_COMP);

	for (unsigned int order = 1; order <= top; order++)
		for (int round = 0; round < 4; round++)
			refs_on_subpages(t, order, &seed);
}

static void plain_higher_order_block_has_no_metadata(struct ktest *t)
{
	unsigned int top = mm_top_testable_order(t, GFP_KERNEL);

	for (unsigned int order = 1; order <= top; order++) {
		unsigned long before = test_free_pages();
		struct page *page = alloc_pages(GFP_KERNEL, order);

		KT_ASSERT(t, page != NULL, "alloc_pages(GFP_KERNEL, %u) failed", order);
		expect_no_compound(t, page, order);
		__free_pages(page, order);
		KT_EXPECT_EQ(t, test_free_pages(), before);
	}
}

static void gfp_comp_at_order_0_gives_ordinary_page(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_COMP, 0);

	KT_ASSERT(t, page != NULL, "alloc_pages(__GFP_COMP, 0) failed");
	expect_no_compound(t, page, 0);
	KT_EXPECT_EQ(t, page_count(page), 1);
	__free_pages(page, 0);
}

static void prep_compound_page_refuses_order_0(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);
	uint32_t flags;

	KT_ASSERT(t, page != NULL, "alloc_pages failed");
	flags = page->flags;
	KT_EXPECT_EQ(t, prep_compound_page(page, 0), -EINVAL);
	KT_EXPECT_EQ(t, page->flags, flags);
	expect_no_compound(t, page, 1);
	__free_pages(page, 1);
}

static void prep_compound_page_refuses_a_compound_page(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_COMP, 2);

	KT_ASSERT(t, head != NULL, "alloc_pages failed");
	KT_EXPECT_EQ(t, prep_compound_page(head, 2), -EINVAL);
	KT_EXPECT_EQ(t, prep_compound_page(&head[1], 1), -EINVAL);
	expect_compound(t, head, 2);
	put_page(head);
}

static void destructor_reads_back_and_only_known_ones_are_taken(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_COMP, 3);

	KT_ASSERT(t, head != NULL, "alloc_pages failed");
	KT_EXPECT_EQ(t, set_compound_page_dtor(head, free_huge_page), 0);
	KT_EXPECT(t, get_compound_page_dtor(head) == free_huge_page, "dtor read back");
	KT_EXPECT_EQ(t, set_compound_page_dtor(head, (compound_page_dtor *)0x1000), -EINVAL);
	KT_EXPECT_EQ(t, set_compound_page_dtor(&head[2], free_compound_page), -EINVAL);
	KT_EXPECT(t, get_compound_page_dtor(head) == free_huge_page, "refused set left it alone");
	KT_EXPECT_EQ(t, set_compound_page_dtor(head, free_compound_page), 0);
	KT_EXPECT(t, get_compound_page_dtor(&head[1]) == NULL, "a tail has no dtor of its own");
	KT_EXPECT(t, !compound_dtor_name(NULL), "NULL has no name");
	put_page(head);
}

static void flags_are_named_in_both_schemes(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_COMP, 1);
	char buf[64];

	KT_ASSERT(t, head != NULL, "alloc_pages failed");
	page_flags_name(head, buf, sizeof(buf));
	KT_EXPECT(t, strstr(buf, COMPOUND_FLAGS == 64 ? "head" : "compound") != NULL, "head: %s", buf);
	page_flags_name(&head[1], buf, sizeof(buf));
	KT_EXPECT(t, strstr(buf, COMPOUND_FLAGS == 64 ? "tail" : "compound|reclaim") != NULL, "tail: %s", buf);
	dump_page(&head[1], "compound_pages self-test: what a tail looks like");
	put_page(head);
}

KTEST_SUITE(compound_pages,
	    KTEST_CASE(compound_marks_at_every_order),
	    KTEST_CASE(compound_refs_on_random_subpages_free_once),
	    KTEST_CASE(plain_higher_order_block_has_no_metadata),
	    KTEST_CASE(gfp_comp_at_order_0_gives_ordinary_page),
	    KTEST_CASE(prep_compound_page_refuses_order_0),
	    KTEST_CASE(prep_compound_page_refuses_a_compound_page),
	    KTEST_CASE(destructor_reads_back_and_only_known_ones_are_taken),
	    KTEST_CASE(flags_are_named_in_both_schemes));
