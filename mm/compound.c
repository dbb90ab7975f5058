/* SPDX-License-Identifier: MIT */
/*
 * Compound pages: building and tearing down their metadata, running their destructor, and
 * splitting them back into independent pages. See mm/compound.h for the layout and the contracts.
 */
#include "mm/compound.h"

#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/hugetlb.h"
#include "mm/page_alloc.h"

/* The destructors a compound page may carry: a closed set, so only these are ever called. */
static const struct {
	compound_page_dtor *fn;
	const char *name;
} known_dtors[] = {
	{ free_compound_page, "free_compound_page" },
	{ free_huge_page, "free_huge_page" },
};

const char *compound_dtor_name(compound_page_dtor *dtor)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_dtors); i++)
		if (dtor && known_dtors[i].fn == dtor)
			return known_dtors[i].name;
	return NULL;
}

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
	page[1].compound_dtor = free_compound_page;
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

void destroy_compound_page(struct page *head)
{
	compound_page_dtor *dtor;

	if (!PageHead(head)) {
		bad_page(head, "destroy_compound_page: not the head of a compound page");
		return;
	}
	dtor = head[1].compound_dtor;
	if (!compound_dtor_name(dtor)) {
		bad_page(head, dtor ? "compound page has an unknown destructor (not called)"
				    : "compound page has no destructor");
		return;
	}
	dtor(head);
}

/*
 * The unit's count is already zero here. A damaged unit is reported and left alone; otherwise
 * __free_pages() gets one reference back to drop, and frees the block since it is the last.
 */
void free_compound_page(struct page *head)
{
	unsigned int order = compound_order(head);
	const char *problem = compound_check(head, order);

	if (problem) {
		bad_page(head, problem);
		return;
	}
	head->_refcount = 1;
	__free_pages(head, order);
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
