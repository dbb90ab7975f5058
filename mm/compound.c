/* SPDX-License-Identifier: MIT */
/*
 * Compound pages: building, checking and tearing down their metadata, and splitting them back into
 * independent pages. See mm/compound.h for the layout and the contracts.
 */
#include "mm/compound.h"

#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/memmap.h"

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
		page[i].first_page = page;
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
	static char msg[80];

	if (!PageTail(&head[i]) || PageHead(&head[i]))
		snprintf(msg, sizeof(msg), "compound tail %lu is not marked as a tail", i);
	else if (head[i].first_page != head)
		snprintf(msg, sizeof(msg), "compound tail %lu points to the wrong head", i);
	else
		return NULL;
	return msg;
}

const char *compound_check(const struct page *head, unsigned int order)
{
	static char msg[96];
	unsigned long stored;

	if (!PageHead(head))
		return "not the head of a compound page";
	stored = head[1].compound_order;
	if (stored == 0 || stored > MAX_COMPOUND_ORDER || !PageTail(&head[1]))
		return "compound page has a corrupt first tail (order)";
	if (stored != order) {
		snprintf(msg, sizeof(msg), "freed with order %u but compound order is %lu", order, stored);
		return msg;
	}
	for (unsigned long i = 1; i < (1UL << order); i++) {
		const char *p = tail_problem(head, i);
		if (p)
			return p;
	}
	return NULL;
}

/* Clears every compound mark and overlay of a unit that compound_check() accepted. */
static void clear_compound(struct page *head, unsigned int order)
{
	for (unsigned long i = 1; i < (1UL << order); i++) {
		ClearPageCompoundMarks(&head[i]);
		head[i].first_page = NULL;
	}
	head[1].compound_dtor = NULL;
	head[1].compound_order = 0;
	ClearPageCompoundMarks(head);
}

bool free_compound_prepare(struct page *head, unsigned int order)
{
	const char *problem = compound_check(head, order);

	if (problem) {
		bad_page(head, problem);
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
		head[i]._refcount = 1;
}

int split_huge_page(struct page *page)
{
	struct page *head = compound_head(page);
	const char *problem = "tail page with an impossible head pointer";
	unsigned int order;

	if (head == page || compound_head_plausible(page, head))
		problem = compound_check(head, compound_order(head));
	if (problem || PageHugeTLB(head)) {
		printk("split_huge_page: pfn %#lx: %s\n", page_to_pfn(page),
		       problem ? problem : "hugetlb pool pages are not split");
		return -EINVAL;
	}
	if (head->_refcount != 1)
		return -EBUSY;
	order = compound_order(head);
	clear_compound(head, order);
	make_independent(head, order);
	return 0;
}
