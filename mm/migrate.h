/* SPDX-License-Identifier: MIT */
/*
 * Page migration: moving an allocated block's contents to another block while its owner keeps
 * using it, so that compaction (mm/compaction.h) and contiguous-range allocation can empty a
 * pageblock of movable pages.
 *
 * mm/ does not know who points at a block, so only an owner that can switch its pointers may let
 * its blocks move. It says so by registering operations on each block (set_page_movable()); a
 * block without them is never moved. A migration then goes:
 *
 *   isolate    isolate_movable_page(): takes a reference and marks the block isolated, in one
 *              atomic step with the test that it is movable, then asks the owner's
 *              isolate_page(); from here the owner neither frees the block nor hands out its
 *              address anew.
 *   unmap      the owner's unmap_page(): nobody can touch the contents any more (vmalloc
 *              replaces its mappings by migration markers; a CPU that touches one waits).
 *   freeze     the reference count must be exactly the owner's and the isolation's: it is set to
 *              0 in one compare-and-swap, so nobody can take a new reference during the move
 *              (get_page_unless_zero() fails). A block with any other reference (a pinned
 *              page) is not moved: the count is left as it was and the block goes back.
 *   copy       the contents, 2^order frames, into a new block of the same order.
 *   switch     the owner's migrate_page(dst, src): points everything at the new block and lets
 *              access resume. The old block is then freed.
 *
 * Any failure puts everything back: the owner's putback_page() restores access to the old block,
 * its count is restored, the new block is freed. Nothing leaks and nothing is lost.
 *
 * The owner's operations are called with interrupts on, outside interrupt handlers and with none
 * of mm/'s locks held (so they may take their own locks and wait for other CPUs, e.g. for a TLB
 * shootdown); migration is never attempted from a context that cannot allow that (MM_DEBUG
 * builds check it before every call: MM_BUG_ON).
 *
 * The details, decided here:
 *   - Marks. PG_movable on the block's first page says it is movable, movable_ops (in place of its
 *     lru link) whose operations; PG_isolated, set by compare-and-swap only while PG_movable is
 *     set, says a migration has it. Both change only by atomic read-modify-writes.
 *   - Counts. An isolated block's count is 2: the owner's 1 and the isolation's (a compound page
 *     counts on its head, its tails keep 0). While the contents are copied, src and dst both
 *     have count 0 ("frozen"): get_page_unless_zero() and isolate_movable_page() fail on them.
 *     While the owner's migrate_page() runs, src stays frozen and dst is isolated like src, count
 *     2: once the owner switched, it may let dst go at once, before the migration returns. After
 *     a move dst has the owner's one reference and is movable, not isolated.
 *   - Freeing. A block that is movable or isolated is never freed, split or put for the last
 *     time: __free_pages(), split_huge_page() and the last put_page() report it and change
 *     nothing (mm/block_owner.h), because a migration may be copying it or about to. The owner
 *     lets a block go with clear_page_movable(), under the lock its isolate_page() takes, then
 *     put_page(): a migration that looked at the block a moment before may still hold a
 *     reference, and the last put_page() of the two frees it.
 *   - Targets. A target has the order and shape of its block (a compound page for a compound
 *     page) and count 1; anything else is reported and given back. Targets not used go back
 *     through put_new, or put_page() (which frees a count-1 block as __free_pages() does).
 */
#ifndef MM_MIGRATE_H
#define MM_MIGRATE_H

#include "mm/gfp.h"
#include "mm/page.h"

struct movable_operations {
	const char *name; /* the owner, for reports */

	/*
	 * Asked to give page up for a migration. true: the owner keeps its block but neither frees it
	 * nor gives out its address anew until migrate_page() or putback_page() is called on it.
	 * false: not now (being freed, say); the migration skips the block.
	 */
	bool (*isolate_page)(struct page *page);

	/*
	 * Optional (NULL: nothing to do). Stops every access to the block's contents, waiting until
	 * no CPU can still write them; a user that touches them waits until migrate_page() or
	 * putback_page().
	 */
	void (*unmap_page)(struct page *page);

	/*
	 * The contents of src have been copied to dst, a block of the same order with the same
	 * operations and the same private word. Points every user at dst and lets access resume.
	 * Returns 0; or a negative errno, having changed nothing (putback_page(src) follows).
	 */
	int (*migrate_page)(struct page *dst, struct page *src);

	/* The migration of page was abandoned: the owner takes it back as it was, access restored. */
	void (*putback_page)(struct page *page);
};

/**
 * set_page_movable() - Mark an allocated block as movable.
 * @page: the block's first page: a plain block or a compound head, count 1 or more, order below
 *        PAGEBLOCK_ORDER.
 * @ops: the owner's operations that move it.
 *
 * The owner keeps page->private for its
 * own data; ops takes the lru link's place, so the owner must not use page->lru while the block
 * is movable. Reported (bad_page(), nothing changed) when page is not an allocated block's first
 * page (free, reserved, a tail, frozen), is already movable, belongs to an owner that frees it
 * itself (a slab's, the hugetlb pool's, a destructor other than the default: mm/block_owner.h),
 * is of order PAGEBLOCK_ORDER or more, or ops lacks isolate_page, migrate_page or putback_page.
 */
void set_page_movable(struct page *page, const struct movable_operations *ops);

/**
 * clear_page_movable() - The owner is about to free the block (or keep it for good).
 * @page: the movable block's first page.
 *
 * After this no migration will start on it. A migration already past isolation finishes or backs out first: call it from the
 * owner's own serialisation, as isolate_page() runs. A migration that isolated the block but
 * whose isolate_page() has not run yet is refused by the owner there, and lets go. Calling it
 * after isolate_page() said yes, before migrate_page() or putback_page(), is the owner's bug:
 * migrate_pages() reports the block and puts it back. Reported when page is not movable.
 * A migration that raced may still be calling isolate_page(), which reads page->private and
 * whose operations are in page->lru: the owner leaves both as they are until it drops its
 * reference, or (keeping the block) until PageIsolated(page) is false again.
 */
void clear_page_movable(struct page *page);

/**
 * page_movable() - Is a page the first page of a movable block?
 * @page: any page.
 *
 * Return: true when it is.
 */
bool page_movable(const struct page *page);

/**
 * page_movable_ops() - Whose operations move a block.
 * @page: any page.
 *
 * Return: the operations, NULL when page is not a movable block's first page.
 */
const struct movable_operations *page_movable_ops(const struct page *page);

/**
 * get_page_unless_zero() - Take a reference unless the count is 0 (free or frozen for a migration).
 * @page: a page the caller knows stays allocated by someone who expects other references (its
 *        own count, in one compare-and-swap: a tail page's is always 0).
 *
 * Not for a scanner's page it has no hold on: that block may be freed and handed to a user that
 * wants count 1 for its own __free_pages() or split_page(), which then reports the reference and
 * keeps the block. isolate_movable_page() takes its reference only while the block is movable.
 *
 * Return: true if taken.
 */
bool get_page_unless_zero(struct page *page);

/**
 * isolate_movable_page() - Isolate a movable block for migration.
 * @page: any page (a scanner's), and a page that is not movable is refused without a report.
 *
 * Takes a reference and sets PG_isolated in one compare-and-swap of the page's flags and count,
 * only while PG_movable is set and PG_isolated is not: a reference never lands on a block that
 * is not movable at that moment (one its owner let go and a user that wants count 1 took), so
 * the block's owner, who lets it go with put_page(), is the only one to meet it. Then asks the
 * owner.
 *
 * Return: 0; -EINVAL when page is not a movable block's first page; -EBUSY when it is being
 * migrated already, or its owner refused.
 */
int isolate_movable_page(struct page *page);

/**
 * putback_movable_page() - Give an isolated block back to its owner unmoved.
 * @page: the isolated block's first page.
 *
 * Calls the owner's putback_page() and drops the reference. Reported when page is not isolated.
 */
void putback_movable_page(struct page *page);

/*
 * The migration target for src, a block of the given order: a new block with count 1, or NULL.
 * Blocks that new_page gave out and that were not used go back through put_new.
 */
typedef struct page *migrate_new_page_fn(struct page *src, unsigned int order, void *data);
typedef void migrate_put_new_fn(struct page *dst, unsigned int order, void *data);

/**
 * migrate_pages() - Move isolated blocks.
 * @pages: the isolated blocks; NULL entries are skipped.
 * @n: how many entries.
 * @new_page: gives each block's target.
 * @put_new: takes back targets new_page gave out and that were not used (NULL: such blocks are
 *           freed, by put_page(): see "Targets" above).
 * @data: passed to new_page and put_new.
 *
 * As the top of this file says. A moved
 * block's old block is freed; a block that could not move (no target, an extra reference, its
 * owner refused) is put back to its owner, and pages[i] is set to NULL for each block moved.
 * Counted in the vmstat counters pgmigrate_success and pgmigrate_fail (mm/vmstat.h), in pages.
 * An entry that is not isolated is reported and left alone (not put back, not counted).
 *
 * Return: the number moved.
 */
unsigned int migrate_pages(struct page **pages, unsigned int n, migrate_new_page_fn *new_page,
			   migrate_put_new_fn *put_new, void *data);

/**
 * migrate_page_to_new() - Isolate and move one movable block to a new one of the same order.
 * @page: the movable block's first page.
 * @gfp: the zones and the reserve of the target's alloc_pages() (__GFP_HIGH, __GFP_NOWARN); the
 *       target is always __GFP_MOVABLE, compound when the block is, never zeroed.
 *
 * Return: 0, or -EINVAL, -EBUSY (as isolate_movable_page()), -ENOMEM (no target), -EAGAIN (an
 * extra reference: the block is pinned) or the owner's error; the block is then unchanged.
 */
int migrate_page_to_new(struct page *page, gfp_t gfp);

#endif
