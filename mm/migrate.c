/* SPDX-License-Identifier: MIT */
/*
 * Page migration: movable blocks, their isolation, and moving them to new blocks (mm/migrate.h
 * says the steps and the owner's side of the contract).
 *
 * Who writes what. PG_movable and PG_isolated live in page->flags, which an owner and a
 * migration on another CPU may change at once (clear_page_movable() against an isolation), so
 * both are changed only by atomic read-modify-writes here, never by page_flag_set()'s load and
 * store. The operations pointer is written once, before PG_movable is set with release order,
 * and read after PG_movable was seen; clear_page_movable() leaves it in place, so a migration
 * that looked just before the clear still reads the pointer it saw.
 */
#include "mm/migrate.h"

#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/block_owner.h"
#include "mm/debug.h"
#include "mm/lock_check.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"
#include "mm/pageblock_types.h"
#include "mm/vmstat.h"

#define MOVABLE_BITS (1u << PG_movable | 1u << PG_isolated)

/* The reference count of an isolated block: its owner's and the isolation's. */
#define ISOLATED_REFS 2

static uint32_t flags_acquire(const struct page *page)
{
	return __atomic_load_n(&page->flags, __ATOMIC_ACQUIRE);
}

static void flags_set_bits(struct page *page, uint32_t bits)
{
	__atomic_fetch_or(&page->flags, bits, __ATOMIC_ACQ_REL);
}

static void flags_clear_bits(struct page *page, uint32_t bits)
{
	__atomic_fetch_and(&page->flags, ~bits, __ATOMIC_ACQ_REL);
}

static const struct movable_operations *ops_of(const struct page *page)
{
	return __atomic_load_n(&page->movable_ops, __ATOMIC_RELAXED);
}

/* The order of the block whose first page is page: a compound head's, else its allocation's. */
static unsigned int block_order(const struct page *page)
{
	return PageHead(page) ? compound_order(page) : alloc_order_of(page);
}

/*
 * The owner's operations may take the owner's locks and wait for other CPUs (mm/migrate.h): an
 * mm/ lock held, interrupts off or an interrupt handler here would deadlock the day they do.
 */
static void check_owner_call(struct page *page)
{
	MM_BUG_ON(arch_irqs_disabled() || arch_in_interrupt(), page,
		  "the owner's operations run with interrupts on, outside interrupt handlers");
	MM_BUG_ON(lock_held_count() != 0, page, "%u mm/ locks held around the owner's operations",
		  lock_held_count());
}

/* ---- movable blocks ------------------------------------------------------------------------ */

static bool ops_complete(const struct movable_operations *ops)
{
	return ops && ops->isolate_page && ops->migrate_page && ops->putback_page;
}

/*
 * What keeps page from being made movable, or NULL: it must be the first page of an allocated
 * block that no other layer frees itself, below a pageblock, not movable yet, with every
 * mandatory operation. msg (size bytes) holds the message when it has details.
 */
static const char *movable_refusal(const struct page *page, const struct movable_operations *ops,
				   char *msg, size_t size)
{
	const char *owned;

	if (PageTail(page))
		return "set_page_movable: a tail page (a compound page is made movable by its head)";
	if (PageReserved(page))
		return "set_page_movable: a reserved page";
	if (PageBuddy(page) || page_ref(page) <= 0)
		return "set_page_movable: not an allocated block (reference count 0: free, or frozen)";
	if (page_flags(page) & MOVABLE_BITS)
		return "set_page_movable: the block is movable already";
	owned = block_owner_problem(page, BLOCK_FREE, msg, size);
	if (owned) {
		snprintf(msg, size, "set_page_movable: another owner frees this block itself (%s)", owned);
		return msg;
	}
	if (block_order(page) >= PAGEBLOCK_ORDER) {
		snprintf(msg, size, "set_page_movable: order %u: a movable block is below order %d",
			 block_order(page), PAGEBLOCK_ORDER);
		return msg;
	}
	return ops_complete(ops) ? NULL : "set_page_movable: isolate_page, migrate_page or putback_page missing";
}

void set_page_movable(struct page *page, const struct movable_operations *ops)
{
	char msg[192];
	const char *problem = movable_refusal(page, ops, msg, sizeof(msg));

	if (problem) {
		bad_page(page, problem);
		return;
	}
	__atomic_store_n(&page->movable_ops, ops, __ATOMIC_RELAXED);
	flags_set_bits(page, 1u << PG_movable); /* release: whoever sees the bit sees ops */
}

void clear_page_movable(struct page *page)
{
	if (!PageMovable(page)) {
		bad_page(page, "clear_page_movable: the block is not movable");
		return;
	}
	flags_clear_bits(page, 1u << PG_movable);
}

bool page_movable(const struct page *page)
{
	return flags_acquire(page) & (1u << PG_movable);
}

const struct movable_operations *page_movable_ops(const struct page *page)
{
	return page_movable(page) ? ops_of(page) : NULL;
}

bool get_page_unless_zero(struct page *page)
{
	int count = page_ref(page);

	do {
		if (count <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(&page->_refcount, &count, count + 1, true, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	return true;
}

/* ---- isolation ------------------------------------------------------------------------------ */

/*
 * A page's flags (low 32 bits) and reference count (high 32 bits) as one 64-bit word, which an
 * isolation changes in one compare-and-swap (take_isolation()).
 */
typedef uint64_t __attribute__((may_alias)) page_word_t;
_Static_assert(offsetof(struct page, flags) == 0 && offsetof(struct page, _refcount) == 4 &&
		       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "take_isolation() finds the flags in the low half of the first 64 bits, the count in the high");
#define WORD_ONE_REF ((uint64_t)1 << 32)

static int32_t word_count(uint64_t word)
{
	return (int32_t)(word >> 32);
}

/*
 * Takes the isolation's reference and sets PG_isolated in one compare-and-swap of the flags and
 * the count together, and only if at that moment the block is movable, not isolated and
 * allocated (count above 0). Returns 0; -EINVAL (nothing changed) when it is not movable, -EBUSY
 * when it is isolated or frozen by a migration.
 *
 * Why one step. A scanner meets blocks it does not own; a block it saw movable may be let go by
 * its owner (clear_page_movable(), put_page()) and handed to a user that never makes it movable
 * before the scanner takes its reference. A reference on that user's block, however short,
 * makes its __free_pages() or split_page() (which want count 1, and report any other reference:
 * real misuse) refuse it, and the scanner's put_page() then leaves it with count 1 and nobody's:
 * a false report and a leak. Or the reference falls between the free's test of the count and
 * its store of 0, and is lost. With the test and the increment in one atomic operation, the
 * scanner's reference only ever lands on a movable block, whose owner lets it go by put_page()
 * (mm/migrate.h, "Freeing"), so the last of the two references frees it; the free paths pay
 * nothing. The owner's clear_page_movable(), a read-modify-write of the flags alone, is atomic
 * against this one: either the swap sees PG_movable clear and fails, or the owner's clear comes
 * after and finds PG_isolated set (the isolation goes ahead, as it always could).
 *
 * Ordering. Acquire on success: whoever set PG_movable (set_page_movable(), prepare_target(),
 * both with release order) wrote movable_ops first, and the caller reads it next. Atomicity: the
 * swap covers 8 bytes that others change 4 at a time, each with an atomic read-modify-write of
 * its own (the flags: clear_page_movable(), finish_move(); the count: put_page(), freeze()), and
 * an aligned 64-bit compare-and-swap is atomic against those (x86-64's locked instruction,
 * AArch64's exclusive pair or swap on the same word), as the free fast path's one-word read of
 * the pair already relies on. Writers with a plain store never meet a successful swap: they
 * write blocks that are free, frozen (count 0) or checked not movable by their only holder (a
 * free, split_page()), whose word the swap never matches, and the flags of a movable block change
 * only here and by those read-modify-writes (the top of this file).
 */
static int take_isolation(struct page *page)
{
	page_word_t *word = (page_word_t *)page;
	uint64_t old = __atomic_load_n(word, __ATOMIC_ACQUIRE);

	do {
		if (!((uint32_t)old & 1u << PG_movable))
			return -EINVAL;
		if (((uint32_t)old & 1u << PG_isolated) || word_count(old) <= 0)
			return -EBUSY; /* being migrated, or frozen for a move */
		arch_race_window("isolate_movable_page: PG_movable seen, no reference yet");
	} while (!__atomic_compare_exchange_n(word, &old, (old + WORD_ONE_REF) | 1u << PG_isolated, true,
					      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	return 0;
}

/*
 * The reference and PG_isolated come together (take_isolation()), then the owner is asked. A
 * refusal clears PG_isolated before the reference goes: if the owner let the block go meanwhile,
 * that put_page() is the last and frees it (an isolated block's last put would be refused).
 */
int isolate_movable_page(struct page *page)
{
	int rc = take_isolation(page);

	if (rc)
		return rc;
	arch_race_window("isolate_movable_page: a reference taken, the owner not asked yet");
	check_owner_call(page);
	if (!ops_of(page)->isolate_page(page)) {
		flags_clear_bits(page, 1u << PG_isolated);
		put_page(page);
		return -EBUSY;
	}
	return 0;
}

void putback_movable_page(struct page *page)
{
	if (!PageIsolated(page)) {
		bad_page(page, "putback_movable_page: the block is not isolated");
		return;
	}
	check_owner_call(page);
	ops_of(page)->putback_page(page);
	flags_clear_bits(page, 1u << PG_isolated);
	put_page(page);
}

/* ---- one block's move ----------------------------------------------------------------------- */

/* Sets page's count from 0 to n (it was frozen), publishing what was written to the block. */
static void unfreeze(struct page *page, int n)
{
	__atomic_store_n(&page->_refcount, n, __ATOMIC_RELEASE);
}

/* The count from expected to 0 in one step; false (nothing changed) when it was anything else. */
static bool freeze(struct page *page, int expected)
{
	return __atomic_compare_exchange_n(&page->_refcount, &expected, 0, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

/*
 * What makes dst no target for src (a block of order), or NULL: it must be a block of the same
 * order and shape (a compound page for a compound page), count 1, with no owner of its own.
 */
static const char *target_problem(const struct page *dst, const struct page *src, unsigned int order,
				  char *msg, size_t size)
{
	if (PageTail(dst) || PageBuddy(dst) || PageReserved(dst) || page_ref(dst) != 1)
		return "migrate_pages: the target is not the first page of a block with count 1";
	if (PageHead(dst) != PageHead(src) || block_order(dst) != order) {
		snprintf(msg, size, "migrate_pages: the target is a %s block of order %u, the block a %s one of "
			 "order %u", PageHead(dst) ? "compound" : "plain", block_order(dst),
			 PageHead(src) ? "compound" : "plain", order);
		return msg;
	}
	return block_owner_problem(dst, BLOCK_FREE, msg, size) ? "migrate_pages: the target has an owner" : NULL;
}

/*
 * Gives back a target that was not used: put_new's, else put_page(), which frees a block of
 * count 1 as __free_pages() does and lets a scanner's passing reference free it instead.
 */
static void release_target(struct page *dst, unsigned int order, migrate_put_new_fn *put_new, void *data)
{
	if (put_new)
		put_new(dst, order, data);
	else
		put_page(dst);
}

/* A target for src from new_page, checked; NULL (a bad one reported and given back) if none. */
static struct page *get_target(struct page *src, unsigned int order, migrate_new_page_fn *new_page,
			       migrate_put_new_fn *put_new, void *data)
{
	struct page *dst = new_page(src, order, data);
	const char *problem;
	char msg[160];

	if (!dst)
		return NULL;
	problem = target_problem(dst, src, order, msg, sizeof(msg));
	if (problem) {
		bad_page(dst, problem);
		release_target(dst, order, put_new, data);
		return NULL;
	}
	return dst;
}

/*
 * Both blocks frozen, src's contents copied: dst becomes movable by src's owner and isolated
 * like src (so that no other migration takes it before the owner knows it), with an isolated
 * block's count: the owner's reference and the migration's. The count is there before
 * migrate_page(), because the owner's switch lets access resume: from then on the owner may let
 * dst go (clear_page_movable(), put_page()) on another CPU while this one has not returned.
 */
static void prepare_target(struct page *dst, const struct page *src, const struct movable_operations *ops)
{
	set_page_private(dst, src->private);
	__atomic_store_n(&dst->movable_ops, ops, __ATOMIC_RELAXED);
	flags_set_bits(dst, MOVABLE_BITS);
	unfreeze(dst, ISOLATED_REFS);
}

/*
 * The owner took dst: the migration's reference on it is dropped (after PG_isolated, so that an
 * owner that let dst go already is not reported: the block is then freed); src's, the last,
 * frees src.
 */
static void finish_move(struct page *dst, struct page *src)
{
	flags_clear_bits(dst, 1u << PG_isolated);
	put_page(dst);
	flags_clear_bits(src, MOVABLE_BITS);
	unfreeze(src, 1);
	put_page(src);
}

/*
 * The owner refused dst, src frozen: dst unmarked with the target's one reference (a scanner may
 * hold a passing one too), src's count back as it was.
 */
static void undo_move(struct page *dst, struct page *src)
{
	flags_clear_bits(dst, MOVABLE_BITS);
	put_page(dst);
	unfreeze(src, ISOLATED_REFS);
}

/* Copies src to dst, both frozen, and asks the owner to switch: 0, or the owner's error. */
static int copy_and_switch(struct page *dst, struct page *src, const struct movable_operations *ops)
{
	memcpy(page_address(dst), page_address(src), PAGE_SIZE << block_order(src));
	prepare_target(dst, src, ops);
	check_owner_call(src);
	return ops->migrate_page(dst, src);
}

/*
 * Freezes src (the owner's and the isolation's references, nothing else) and dst (the target's
 * one); -EAGAIN, nothing changed, when either has another reference: src is pinned.
 */
static int freeze_both(struct page *dst, struct page *src)
{
	if (!freeze(src, ISOLATED_REFS))
		return -EAGAIN;
	if (!freeze(dst, 1)) {
		unfreeze(src, ISOLATED_REFS);
		return -EAGAIN;
	}
	return 0;
}

/*
 * Moves src, isolated (mm/migrate.h, the steps at the top). Returns 0 (src freed), or an errno
 * with src put back to its owner unchanged and the target given back. A block whose owner
 * cleared PG_movable after agreeing to the isolation is reported and put back.
 */
static int migrate_block(struct page *src, migrate_new_page_fn *new_page, migrate_put_new_fn *put_new,
			 void *data)
{
	const struct movable_operations *ops = ops_of(src);
	unsigned int order = block_order(src);
	struct page *dst = NULL;
	int rc = -EINVAL;

	if (!PageMovable(src))
		bad_page(src, "migrate_pages: clear_page_movable() on a block its owner let a migration isolate");
	else if (!(dst = get_target(src, order, new_page, put_new, data)))
		rc = -ENOMEM;
	if (!dst) {
		putback_movable_page(src);
		return rc;
	}
	if (ops->unmap_page) {
		check_owner_call(src);
		ops->unmap_page(src);
	}
	rc = freeze_both(dst, src);
	if (!rc && (rc = copy_and_switch(dst, src, ops)) != 0)
		undo_move(dst, src);
	if (rc) {
		release_target(dst, order, put_new, data);
		putback_movable_page(src);
		return rc;
	}
	finish_move(dst, src);
	return 0;
}

/*
 * migrate_block() on a block that must be isolated (else reported: it is not the caller's to
 * move, nor to put back), counted in pages moved or put back.
 */
static int migrate_block_counted(struct page *src, migrate_new_page_fn *new_page, migrate_put_new_fn *put_new,
				 void *data)
{
	unsigned long pages;
	int rc;

	if (PageTail(src) || !PageIsolated(src)) {
		bad_page(src, "migrate_pages: the block is not isolated (isolate_movable_page() first)");
		return -EINVAL;
	}
	pages = 1UL << block_order(src);
	rc = migrate_block(src, new_page, put_new, data);
	count_vm_events(rc ? PGMIGRATE_FAIL : PGMIGRATE_SUCCESS, pages);
	return rc;
}

unsigned int migrate_pages(struct page **pages, unsigned int n, migrate_new_page_fn *new_page,
			   migrate_put_new_fn *put_new, void *data)
{
	unsigned int moved = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (pages[i] && migrate_block_counted(pages[i], new_page, put_new, data) == 0) {
			pages[i] = NULL;
			moved++;
		}
	}
	return moved;
}

/* ---- one block to a new one ----------------------------------------------------------------- */

/*
 * A target for migrate_page_to_new(): from alloc_pages() with the caller's zone and reserve
 * bits, always movable (a movable block's new place is with the movable ones), compound when src
 * is, not zeroed (it is overwritten).
 */
static struct page *alloc_target(struct page *src, unsigned int order, void *data)
{
	gfp_t gfp = *(const gfp_t *)data & ~(__GFP_MOBILITY | __GFP_ZERO | __GFP_COMP);

	return alloc_pages(gfp | __GFP_MOVABLE | (PageHead(src) ? __GFP_COMP : 0), order);
}

int migrate_page_to_new(struct page *page, gfp_t gfp)
{
	int rc = isolate_movable_page(page);

	return rc ? rc : migrate_block_counted(page, alloc_target, NULL, &gfp);
}
