/* SPDX-License-Identifier: MIT */
/*
 * Compound pages: 2^order physically contiguous pages (order >= 1) treated as one unit.
 *
 * alloc_pages(gfp | __GFP_COMP, order) builds one with prep_compound_page(). The first page is
 * the head; every other page is a tail whose first_page points to the head (see mm/page.h for
 * the two flag schemes). The unit's order and destructor live in the first tail page, in the
 * list-link fields, which is why an order-0 compound page cannot exist. get_page()/put_page() on
 * any sub-page act on the head's count; when it drops to zero, put_page() runs the destructor once
 * for the whole unit (destroy_compound_page(), mm/page_alloc.h).
 *
 * This file is the compound page's metadata only: building, checking, clearing and splitting it.
 * It calls nothing above it: freeing is the page allocator's (mm/page_alloc.h), and the huge page
 * pool's destructor is mm/hugetlb.h's.
 *
 * Misuse (wrong order, a tail whose head pointer is wrong, a missing destructor) is reported with
 * bad_page()/dump_page() and leaves the pages untouched: nothing is freed twice or lost silently.
 */
#ifndef MM_COMPOUND_H
#define MM_COMPOUND_H

#include "mm/compound_dtor.h"
#include "mm/page.h"

/**
 * prep_compound_page() - Mark a block as one compound page.
 * @page: the block's first page, to be the head.
 * @order: the block's order, 1 or more.
 *
 * Sets head and tail flags, first_page in every tail, the order and the default destructor (the
 * first registered: free_compound_page()) in the first tail. The head's reference count is left
 * alone.
 *
 * Return: 0, or -EINVAL (with a message) for order 0 or when page is already part of a compound
 * page.
 */
int prep_compound_page(struct page *page, unsigned int order);

/**
 * free_compound_prepare() - Check and clear a compound page about to be freed.
 * @head: the compound head given to __free_pages() (which calls this).
 * @order: the order it was freed at.
 *
 * Checks that order is the compound's order and that every tail is marked and points back to
 * head; on any mismatch it reports with bad_page(). Otherwise it clears all compound metadata:
 * the block is then a plain block of that order.
 *
 * Return: true when the block may be freed; false after a report (the caller must not free
 * anything).
 */
bool free_compound_prepare(struct page *head, unsigned int order);

/**
 * set_compound_page_dtor() - Set the destructor of a compound page.
 * @head: the compound head.
 * @dtor: a registered destructor (mm/compound_dtor.h): a stray pointer can never be called.
 *
 * Return: 0, or -EINVAL (reported) if head is not a compound head or dtor is unknown.
 */
int set_compound_page_dtor(struct page *head, compound_page_dtor *dtor);

/**
 * get_compound_page_dtor() - The destructor of a compound page.
 * @head: the compound head.
 *
 * Return: the destructor; NULL if head is not a compound head.
 */
compound_page_dtor *get_compound_page_dtor(const struct page *head);

/**
 * compound_check() - Check a compound page's metadata.
 * @head: the page to check as a compound head.
 * @order: the order it should have.
 *
 * Checks head marked, order >= 1, every tail marked and pointing to head.
 *
 * Return: NULL when consistent, otherwise a short description of the first problem.
 */
const char *compound_check(const struct page *head, unsigned int order);

/**
 * split_huge_page() - Split a compound page into independent order-0 pages.
 * @page: any sub-page of the compound page.
 *
 * The 2^order pages each get a reference count of 1, all compound metadata cleared. The caller
 * must hold exactly one reference (the head's count is 1).
 *
 * Return: 0; -EINVAL (reported, nothing changed) if page is not part of a consistent compound
 * page or has an owner that frees it whole (mm/block_owner.h: a slab's page, a hugetlb pool page,
 * a destructor other than the default one, such as a large kmalloc's); or -EBUSY if other
 * references exist.
 */
int split_huge_page(struct page *page);

#endif
