/* SPDX-License-Identifier: MIT */
/* Which calls may touch a block that a layer above the page allocator owns: mm/block_owner.h. */
#include "mm/block_owner.h"

#include "mm/arch.h"

/* A slab frees its own pages, when its last object goes: nobody else frees, splits or puts them. */
static const char *slab_problem(enum block_use use)
{
	if (use == BLOCK_FREE)
		return "freeing a slab's page (PG_slab set): its objects may be in use";
	if (use == BLOCK_SPLIT)
		return "a slab's page (PG_slab set) is not split: the slab frees it whole";
	return "dropping the last reference of a slab's page (PG_slab set): the slab frees it, not put_page";
}

/* A pool page goes back to the pool through its destructor, the last put_page(). */
static const char *hugetlb_problem(enum block_use use)
{
	if (use == BLOCK_FREE)
		return "hugetlb pool page freed with __free_pages (drop it with put_page)";
	return use == BLOCK_SPLIT ? "hugetlb pool pages are not split" : NULL;
}

/*
 * A movable block's owner clears PG_movable before it lets the block go (clear_page_movable()):
 * until then a migration may isolate it, copy it and free it, so nobody else may. An isolated
 * block is the migration's until migrate_pages() moves it or puts it back.
 */
static const char *movable_problem(const struct page *head, enum block_use use)
{
	if (PageIsolated(head))
		return use == BLOCK_SPLIT ? "a block isolated for a migration (PG_isolated set) is not split"
					  : "freeing a block isolated for a migration (PG_isolated set): it is the "
					    "migration's until moved or put back";
	if (use == BLOCK_SPLIT)
		return "a movable block (PG_movable set) is not split: clear_page_movable() first";
	if (use == BLOCK_LAST_PUT)
		return "dropping the last reference of a movable block (PG_movable set): its owner calls "
		       "clear_page_movable() first";
	return "freeing a movable block (PG_movable set): its owner calls clear_page_movable() first";
}

/* A destructor of its own is the owner's way back: the last put_page() runs it, nothing else. */
static const char *dtor_problem(compound_page_dtor *dtor, enum block_use use, char *msg, size_t size)
{
	const char *name = compound_dtor_name(dtor);

	if (use == BLOCK_FREE)
		snprintf(msg, size, "freeing a compound page whose destructor is %s: its owner frees it "
			 "(put_page runs the destructor)", name ? name : "unknown");
	else if (use == BLOCK_SPLIT)
		snprintf(msg, size, "a compound page whose destructor is %s is not split: its owner frees it whole",
			 name ? name : "unknown");
	else
		return NULL;
	return msg;
}

const char *block_owner_problem(const struct page *head, enum block_use use, char *msg, size_t size)
{
	compound_page_dtor *dtor;

	if (PageSlab(head))
		return slab_problem(use);
	if (PageHugeTLB(head))
		return hugetlb_problem(use);
	if (page_flags(head) & (1u << PG_movable | 1u << PG_isolated))
		return movable_problem(head, use);
	if (!PageHead(head))
		return NULL;
	dtor = head[1].compound_dtor;
	return dtor == default_compound_dtor() ? NULL : dtor_problem(dtor, use, msg, size);
}
