/* SPDX-License-Identifier: MIT */
/*
 * Compound pages: building, checking and tearing down their metadata, and splitting them back into
 * independent pages. See mm/compound.h for the layout and the contracts.
 */
#include "mm/compound.h"

#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/block_owner.h"
#include "mm/memmap.h"
#include "mm/page_owner.h"

int prep_compound_page(struct page *page, unsigned int order)
{
	unsigned long nr = 1UL << order;

	if (order == 0 || order > MAX_COMPOUND_ORDER) {
		printk("prep_compound_page: pfn %#lx: order %u refused: a compound page has order 1..%u\n",
		       page_to_pfn(page), order, MAX_COMPOUND_ORDER);
		return -EINVAL;
	}
	if (PageCompound(page)) {
		printk("prep_compound_page: pfn %#lx is already part of a compound page\n", page_to_pfn(page));
		return -EINVAL;
	}
	for (unsigned long i = 1; i < nr; i++) {
		__atomic_store_n(&page[i].first_page, page, __ATOMIC_RELAXED); /* private's word: mm/page.h */
		SetPageTail(&page[i]);
	}
	page[1].compound_order = order;
	page[1].compound_dtor = default_compound_dtor();
	SetPageHead(page);
	return 0;
}

/* Problem with tail i of head, or NULL when it is marked and points to head. */
static const char *tail_problem(const struct page *head, unsigned long i)
{
	if (!PageTail(&head[i]) || PageHead(&head[i]))
		return "a compound tail is not marked as a tail";
	if (head[i].first_page != head)
		return "a compound tail points to the wrong head";
	return NULL;
}

/* The first tail of head's 2^order pages that tail_problem() finds wrong, or 0. */
static unsigned long bad_tail(const struct page *head, unsigned int order)
{
	for (unsigned long i = 1; i < (1UL << order); i++)
		if (tail_problem(head, i))
			return i;
	return 0;
}

/*
 * Constant strings only: the free path of several CPUs may call it at once. The report of a
 * refused free adds the numbers (free_compound_prepare()).
 */
const char *compound_check(const struct page *head, unsigned int order)
{
	unsigned long stored, i;

	if (!PageHead(head))
		return "not the head of a compound page";
	stored = head[1].compound_order;
	if (stored == 0 || stored > MAX_COMPOUND_ORDER || !PageTail(&head[1]))
		return "compound page has a corrupt first tail (order)";
	if (stored != order)
		return "freed with an order that is not the compound page's";
	i = bad_tail(head, order);
	return i ? tail_problem(head, i) : NULL;
}

/* Clears every compound mark and overlay of a unit that compound_check() accepted. */
static void clear_compound(struct page *head, unsigned int order)
{
	for (unsigned long i = 1; i < (1UL << order); i++) {
		ClearPageCompoundMarks(&head[i]);
		__atomic_store_n(&head[i].first_page, NULL, __ATOMIC_RELAXED);
	}
	head[1].compound_dtor = NULL;
	head[1].compound_order = 0;
	ClearPageCompoundMarks(head);
}

bool free_compound_prepare(struct page *head, unsigned int order)
{
	const char *problem = compound_check(head, order);
	char msg[128];

	if (problem) {
		snprintf(msg, sizeof(msg), "%s (freed at order %u; compound order %lu; first bad tail %lu)",
			 problem, order, PageHead(head) ? head[1].compound_order : 0UL,
			 PageHead(head) && head[1].compound_order == order ? bad_tail(head, order) : 0UL);
		bad_page(head, msg);
		return false;
	}
	clear_compound(head, order);
	return true;
}

int set_compound_page_dtor(struct page *head, compound_page_dtor *dtor)
{
	if (!PageHead(head)) {
		printk("set_compound_page_dtor: pfn %#lx is not a compound head\n", page_to_pfn(head));
		return -EINVAL;
	}
	if (!compound_dtor_name(dtor)) {
		printk("set_compound_page_dtor: pfn %#lx: unknown destructor %p refused\n",
		       page_to_pfn(head), (void *)dtor);
		return -EINVAL;
	}
	head[1].compound_dtor = dtor;
	return 0;
}

compound_page_dtor *get_compound_page_dtor(const struct page *head)
{
	return PageHead(head) ? head[1].compound_dtor : NULL;
}

/* Gives every page of a cleared unit its own reference. */
static void make_independent(struct page *head, unsigned int order)
{
	for (unsigned long i = 1; i < (1UL << order); i++)
		set_page_ref(&head[i], 1);
}

int split_huge_page(struct page *page)
{
	struct page *head = compound_head(page);
	const char *problem = "tail page with an impossible head pointer";
	unsigned int order;
	char msg[128];

	if (head == page || compound_head_plausible(page, head))
		problem = compound_check(head, compound_order(head));
	if (!problem)
		problem = block_owner_problem(head, BLOCK_SPLIT, msg, sizeof(msg));
	if (problem) {
		printk("split_huge_page: pfn %#lx: %s\n", page_to_pfn(page), problem);
		return -EINVAL;
	}
	if (page_ref(head) != 1)
		return -EBUSY;
	order = compound_order(head);
	clear_compound(head, order);
	make_independent(head, order);
	if (mm_page_owner_on)
		page_owner_split(page_to_pfn(head), order);
	return 0;
}
