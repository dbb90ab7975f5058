/* SPDX-License-Identifier: MIT */
/*
 * Who a block belongs to, besides whoever holds its references, and which calls may touch it.
 *
 * Some blocks are handed out by a layer above the page allocator, which alone gives them back:
 *   - a slab's pages (PG_slab on the first page): the slab frees them when its last object is
 *     freed (mm/slab.h);
 *   - a hugetlb pool page (PG_hugetlb on the head): its destructor returns it to the pool;
 *   - any compound page whose destructor is not the default one (mm/compound_dtor.h), such as a
 *     large kmalloc's page (destructor kmalloc_large): the destructor is the owner's release;
 *   - a movable block (PG_movable, mm/migrate.h): a migration may take it at any moment, so its
 *     owner first calls clear_page_movable(), then drops its reference; and a block isolated for
 *     a migration (PG_isolated) is the migration's until it is moved or put back.
 * A caller that frees, splits or drops the last reference of such a block behind its owner's back
 * would leave the owner with pages it no longer has (a leak, then a double free). Every path that
 * could do so asks block_owner_problem() first, so that a new owner is one more case here:
 * __free_pages(), put_page()/folio_put() before the count changes, the destructor dispatch,
 * free_compound_page() and split_huge_page().
 */
#ifndef MM_BLOCK_OWNER_H
#define MM_BLOCK_OWNER_H

#include "mm/compound_dtor.h"
#include "mm/page.h"

/* What a caller is about to do with a block. */
enum block_use {
	BLOCK_FREE,     /* give it back to the page allocator (__free_pages()) */
	BLOCK_SPLIT,    /* make its pages independent (split_huge_page()) */
	BLOCK_LAST_PUT, /* drop its last reference, so that its destructor runs (put_page()) */
};

/**
 * block_owner_problem() - May a free, a split or the last put touch a block?
 * @head: the block's first page (a compound head, never a tail).
 * @use: what the caller is about to do.
 * @msg: the caller's buffer, which holds the message when it names a destructor.
 * @size: msg's size.
 *
 * BLOCK_FREE and BLOCK_SPLIT are refused for every owned block
 * (slab, hugetlb pool, a destructor other than the default, movable or isolated); BLOCK_LAST_PUT
 * only for a slab's pages and a movable or isolated block, since a compound page's destructor is
 * its owner's own way back (a pool page returns to the pool, a large kmalloc's page to kmalloc),
 * while a movable block freed under a migration would be copied, or put back, after its free.
 * Never changes the page; safe on any CPU at once.
 *
 * Return: what is wrong with use on the block, or NULL when use may go ahead.
 */
const char *block_owner_problem(const struct page *head, enum block_use use, char *msg, size_t size);

/**
 * block_may_be_owned() - A cheap first test for the paths that must stay fast.
 * @head: the block's first page.
 *
 * Return: false when head can have no owner (no PG_slab, PG_hugetlb, PG_movable, PG_isolated or
 * compound mark, in either scheme of mm/page.h), so that block_owner_problem() need not be asked.
 */
static inline bool block_may_be_owned(const struct page *head)
{
	return page_flags(head) & (1u << PG_slab | 1u << PG_hugetlb | 1u << PG_head | 1u << PG_compound |
				   1u << PG_movable | 1u << PG_isolated);
}

#endif
