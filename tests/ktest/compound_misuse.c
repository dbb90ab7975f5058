/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of compound-page misuse: freeing a tail, freeing with the wrong order, a tail whose
 * head pointer is wrong, a missing or unknown destructor. Each must be reported and refused, leave
 * the compound page intact, and keep the free count exact; the page is then freed properly.
 */
#include "tests/ktest/compound_helpers.h"

#include "mm/dump_page.h"

#define ORDER 3
#define NR (1UL << ORDER)

static unsigned long reports_before; /* mm_bad_page_reports when the case took its unit */

/* Expects the misuse since get_unit() to have been reported n times. */
static void expect_reported(struct ktest *t, unsigned long n)
{
	KT_EXPECT(t, mm_bad_page_reports - reports_before == n, "%lu bad_page reports, want %lu",
		  mm_bad_page_reports - reports_before, n);
}

/* A fresh order-3 compound page, and the free count before it was taken. */
static struct page *get_unit(struct ktest *t, unsigned long *before)
{
	struct page *head;

	*before = test_free_pages();
	reports_before = mm_bad_page_reports;
	head = alloc_pages(GFP_KERNEL | __GFP_COMP, ORDER);
	if (!head)
		KT_EXPECT(t, head != NULL, "alloc_pages(__GFP_COMP, %d) failed", ORDER);
	return head;
}

/* Expects the unit intact and nothing freed. */
static void expect_intact(struct ktest *t, struct page *head, unsigned long before)
{
	KT_EXPECT_EQ(t, test_free_pages(), before - NR);
	KT_EXPECT(t, compound_check(head, ORDER) == NULL, "unit damaged: %s", compound_check(head, ORDER));
}

/* Expects the unit intact; then drops the last reference and expects every page back. */
static void expect_intact_then_free(struct ktest *t, struct page *head, unsigned long before)
{
	expect_intact(t, head, before);
	KT_EXPECT_EQ(t, page_count(head), 1);
	put_page(head);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

/* Expects the unit intact with no reference left (its destructor was refused); runs it again. */
static void expect_intact_then_destroy(struct ktest *t, struct page *head, unsigned long before)
{
	expect_intact(t, head, before);
	KT_EXPECT_EQ(t, page_count(head), 0);
	destroy_compound_page(head);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

static void freeing_a_tail_directly_is_refused(struct ktest *t)
{
	unsigned long before;
	struct page *head = get_unit(t, &before);

	if (!head)
		return;
	__free_pages(&head[1], 0);
	__free_pages(&head[NR - 1], 0);
	expect_reported(t, 2);
	expect_intact_then_free(t, head, before);
}

static void free_with_wrong_order_is_refused(struct ktest *t)
{
	unsigned long before;
	struct page *head = get_unit(t, &before);

	if (!head)
		return;
	KT_EXPECT(t, !free_compound_prepare(head, ORDER - 1), "order %d accepted", ORDER - 1);
	KT_EXPECT(t, !free_compound_prepare(head, ORDER + 1), "order %d accepted", ORDER + 1);
	expect_reported(t, 2);
	__free_pages(head, ORDER - 1);
	__free_pages(head, ORDER + 1);
	expect_reported(t, 4);
	expect_intact_then_free(t, head, before);
}

static void tail_with_wrong_head_pointer_is_reported(struct ktest *t)
{
	unsigned long before;
	struct page *head = get_unit(t, &before);

	if (!head)
		return;
	head[5].first_page = &head[1];
	KT_EXPECT(t, compound_check(head, ORDER) != NULL, "a wrong head pointer went unnoticed");
	KT_EXPECT(t, !free_compound_prepare(head, ORDER), "freed with a wrong head pointer");
	KT_EXPECT_EQ(t, split_huge_page(&head[2]), -EINVAL);
	put_page(head); /* the destructor's free is refused: nothing freed */
	expect_reported(t, 2);
	KT_EXPECT_EQ(t, test_free_pages(), before - NR);
	head[5].first_page = head;
	expect_intact_then_destroy(t, head, before);
}

static void tail_with_impossible_head_pointer_is_not_followed(struct ktest *t)
{
	unsigned long before;
	struct page *head = get_unit(t, &before);

	if (!head)
		return;
	head[2].first_page = NULL;
	head[4].first_page = &head[6];
	KT_EXPECT_EQ(t, split_huge_page(&head[2]), -EINVAL);
	KT_EXPECT_EQ(t, split_huge_page(&head[4]), -EINVAL);
	dump_page(&head[2], "compound_misuse self-test: a tail with no head pointer");
	head[2].first_page = head;
	head[4].first_page = head;
	expect_intact_then_free(t, head, before);
}

static void tail_without_its_mark_is_reported(struct ktest *t)
{
	unsigned long before;
	struct page *head = get_unit(t, &before);
	uint32_t flags;

	if (!head)
		return;
	flags = head[6].flags;
	ClearPageCompoundMarks(&head[6]);
	KT_EXPECT(t, !free_compound_prepare(head, ORDER), "freed with an unmarked tail");
	expect_reported(t, 1);
	head[6].flags = flags;
	expect_intact_then_free(t, head, before);
}

static void missing_destructor_is_reported_and_frees_nothing(struct ktest *t)
{
	unsigned long before;
	struct page *head = get_unit(t, &before);

	if (!head)
		return;
	head[1].compound_dtor = NULL;
	put_page(head);
	expect_reported(t, 1);
	head[1].compound_dtor = free_compound_page;
	expect_intact_then_destroy(t, head, before);
}

static void unknown_destructor_is_never_called(struct ktest *t)
{
	unsigned long before;
	struct page *head = get_unit(t, &before);

	if (!head)
		return;
	head[1].compound_dtor = (compound_page_dtor *)(uintptr_t)0xdead0000;
	destroy_compound_page(head);
	expect_reported(t, 1);
	head[1].compound_dtor = free_compound_page;
	expect_intact_then_free(t, head, before);
}

static void destroying_a_non_compound_page_is_reported(struct ktest *t)
{
	unsigned long before = test_free_pages(), reports = mm_bad_page_reports;
	struct page *page = alloc_pages(GFP_KERNEL, 1);

	KT_ASSERT(t, page != NULL, "alloc_pages failed");
	destroy_compound_page(page);
	destroy_compound_page(&page[1]);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 2);
	KT_EXPECT_EQ(t, test_free_pages(), before - 2);
	KT_EXPECT_EQ(t, page_count(page), 1);
	__free_pages(page, 1);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

KTEST_SUITE(compound_misuse,
	    KTEST_MISUSE_CASE(freeing_a_tail_directly_is_refused),
	    KTEST_MISUSE_CASE(free_with_wrong_order_is_refused),
	    KTEST_MISUSE_CASE(tail_with_wrong_head_pointer_is_reported),
	    KTEST_MISUSE_CASE(tail_with_impossible_head_pointer_is_not_followed),
	    KTEST_MISUSE_CASE(tail_without_its_mark_is_reported),
	    KTEST_MISUSE_CASE(missing_destructor_is_reported_and_frees_nothing),
	    KTEST_MISUSE_CASE(unknown_destructor_is_never_called),
	    KTEST_MISUSE_CASE(destroying_a_non_compound_page_is_reported));
