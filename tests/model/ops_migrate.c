/* SPDX-License-Identifier: MIT */
/*
 * The model test's operations on page migration (mm/migrate.h). The test is the owner of some of
 * the blocks it holds: it makes them movable, and its operations (below) find the block in the
 * model by its page. Random migrate_page_to_new() and migrate_pages() on them, with pins (a
 * get_page() by op_get), refusals and failed switches, are checked against the model: which
 * must move (a target the model says is free, no pin, the owner willing), where the new block
 * is, that the old one is free again, the tokens moved with the contents, the count and the
 * marks; and that a refused move changes nothing. Misuse: a movable block freed, a block made
 * movable twice, a huge page made movable; each gives one report and changes nothing.
 */
#include "tests/model/model.h"

#include "mm/lock_check.h"
#include "mm/migrate.h"
#include "mm/pageblock_types.h"

#include <stdio.h>
#include <string.h>

#define BATCH 4
#define OWNER_ERROR (-28) /* what a failed switch returns: ENOSPC, which mm/types.h does not define */

/* The owner's state during one operation: the blocks it let a migration have. */
static struct {
	struct block *busy[BATCH]; /* the blocks of this operation (one, or a migrate_pages() batch) */
	unsigned int nbusy;
	bool isolated[BATCH];
	bool refuse_isolate;   /* isolate_page() says no */
	bool fail_migrate;     /* migrate_page() returns OWNER_ERROR */
	gfp_t gfp;             /* the targets' gfp: where they must come from */
	unsigned int moved;    /* migrate_page() calls that switched */
} owner;

static struct {
	unsigned long made_movable, moves, pinned, refused, failed, no_target, isolations, batches;
	unsigned long batch_moves, cleared, misuse;
} mstats;

/* The index in owner.busy of the block whose page is page; fails the run if it is none of them. */
static unsigned int busy_index(const struct page *page, const char *op)
{
	for (unsigned int i = 0; i < owner.nbusy; i++)
		if (owner.busy[i]->page == page)
			return i;
	model_fail("%s called on pfn %#lx, which the owner did not give to this migration", op, page_to_pfn(page));
}

/* The owner's operations run with no mm/ lock held and interrupts on (mm/migrate.h). */
static void expect_context(const char *op)
{
	if (lock_held_count() || arch_irqs_disabled())
		model_fail("%s called with %u mm/ locks held, interrupts %s", op, lock_held_count(),
			   arch_irqs_disabled() ? "off" : "on");
}

static bool model_isolate(struct page *page)
{
	unsigned int i = busy_index(page, "isolate_page");

	expect_context("isolate_page");
	if (owner.isolated[i])
		model_fail("isolate_page on pfn %#lx, isolated already", page_to_pfn(page));
	owner.isolated[i] = !owner.refuse_isolate;
	return owner.isolated[i];
}

static void model_unmap(struct page *page)
{
	unsigned int i = busy_index(page, "unmap_page");

	expect_context("unmap_page");
	if (!owner.isolated[i])
		model_fail("unmap_page on pfn %#lx, which is not isolated", page_to_pfn(page));
}

/*
 * The switch. The target must be a block the model has free, in the zones asked, with src's
 * tokens and private word; the model then holds it and src's frames are free (src is freed as
 * soon as this returns 0).
 */
static int model_migrate(struct page *dst, struct page *src)
{
	unsigned int i = busy_index(src, "migrate_page");
	struct block *b = owner.busy[i], moved = *b;
	const char *p;

	expect_context("migrate_page");
	if (!owner.isolated[i])
		model_fail("migrate_page on pfn %#lx, which is not isolated", b->pfn);
	if (owner.fail_migrate)
		return OWNER_ERROR;
	moved.page = dst;
	moved.pfn = page_to_pfn(dst);
	if ((p = block_token_problem(&moved)))
		model_fail("migrate_page: the target's contents are not the block's: %s", p);
	if (dst->private != src->private || page_ref(dst) || page_ref(src))
		model_fail("migrate_page: private %#lx (block %#lx), counts %d and %d (both frozen: 0)",
			   dst->private, src->private, page_ref(dst), page_ref(src));
	if (!(gfp_zones(owner.gfp) & (1u << pfn_zone(moved.pfn))) || (moved.pfn & ((1UL << b->order) - 1)))
		model_fail("migrate_page: target pfn %#lx is outside the zones asked or misaligned", moved.pfn);
	if (!model_move(moved.pfn, b->order, FRAME_FREE, FRAME_HELD))
		model_fail("migrate_page: target pfn %#lx of order %u was not free in the model", moved.pfn, b->order);
	if (!model_move(b->pfn, b->order, FRAME_HELD, FRAME_FREE))
		model_fail("migrate_page: the block at pfn %#lx was not held in the model", b->pfn);
	model.last_freed_pfn = b->pfn;
	model.last_freed_order = b->order;
	*b = moved;
	owner.isolated[i] = false;
	owner.moved++;
	return 0;
}

static void model_putback(struct page *page)
{
	unsigned int i = busy_index(page, "putback_page");

	expect_context("putback_page");
	if (!owner.isolated[i])
		model_fail("putback_page on pfn %#lx, which is not isolated", page_to_pfn(page));
	owner.isolated[i] = false;
}

static const struct movable_operations model_ops = {
	.name = "model",
	.isolate_page = model_isolate,
	.unmap_page = model_unmap,
	.migrate_page = model_migrate,
	.putback_page = model_putback,
};

/* The owner's word in private: derived from the token, so a move that loses it shows. */
static unsigned long owner_word(const struct block *b)
{
	return (unsigned long)(b->token >> 8) | 1;
}

void movable_let_go(struct block *b)
{
	if (!b->movable)
		return;
	note("clear_page_movable", b->pfn, b->order, 0);
	clear_page_movable(b->page);
	b->page->private = 0;
	b->movable = false;
}

/* Expects b as a movable block of the owner's: marks, operations, count, private, shape. */
static void expect_movable(const char *op, const struct block *b)
{
	if (page_movable_ops(b->page) != &model_ops || PageIsolated(b->page) || page_count(b->page) != b->refs ||
	    b->page->private != owner_word(b) || (b->kind == BLOCK_COMPOUND && compound_check(b->page, b->order)))
		model_fail("%s: movable block at pfn %#lx: flags %#x, count %d (model %d), private %#lx (%#lx), "
			   "compound %s", op, b->pfn, page_flags(b->page), page_count(b->page), b->refs,
			   b->page->private, owner_word(b),
			   b->kind == BLOCK_COMPOUND ? compound_check(b->page, b->order) : "-");
}

/* A random held block of the owner's that is (or is not) movable, or NULL after a few tries. */
static struct block *random_block(bool movable)
{
	for (int tries = 0; tries < 32 && nr_blocks; tries++) {
		struct block *b = block_random();

		if (b->movable == movable && b->kind != BLOCK_HUGE && b->order < PAGEBLOCK_ORDER)
			return b;
	}
	return NULL;
}

static void make_movable(void)
{
	struct block *b = random_block(false);
	unsigned long reports = bad_page_reports;

	if (!b)
		return;
	note("set_page_movable", b->pfn, b->order, b->kind);
	b->page->private = owner_word(b);
	set_page_movable(b->page, &model_ops);
	if (bad_page_reports != reports || !page_movable(b->page))
		model_fail("set_page_movable refused the order-%u block at pfn %#lx", b->order, b->pfn);
	b->movable = true;
	mstats.made_movable++;
	expect_movable("set_page_movable", b);
}

/* The gfp migrate_page_to_new() allocates b's target with, given the caller's gfp. */
static gfp_t target_gfp(const struct block *b, gfp_t gfp)
{
	gfp &= ~(__GFP_MOBILITY | __GFP_ZERO | __GFP_COMP);
	return gfp | __GFP_MOVABLE | (b->kind == BLOCK_COMPOUND ? __GFP_COMP : 0);
}

/* A zone modifier or none, sometimes __GFP_HIGH, and bits migrate_page_to_new() must ignore. */
static gfp_t random_migrate_gfp(void)
{
	unsigned long r = rnd_below(100);
	gfp_t gfp = (r < 70 ? GFP_KERNEL : r < 90 ? __GFP_DMA32 : __GFP_DMA) | __GFP_NOWARN;

	if (chance(20))
		gfp |= __GFP_HIGH;
	if (chance(10))
		gfp |= __GFP_ZERO | __GFP_RECLAIMABLE;
	return gfp;
}

/*
 * What migrate_page_to_new(b) must return: -EBUSY (refused), -ENOMEM (no target), -EAGAIN
 * (pinned), the owner's error, 0. *either is set when the target may or may not be found (a
 * block on a CPU's list can be handed out below a watermark): then -ENOMEM is also right.
 */
static int expected_result(const struct block *b, gfp_t tgfp, bool *either)
{
	bool must = model_top_zone_for(tgfp, b->order) >= 0, may = model_top_zone(gfp_zones(tgfp), b->order) >= 0;

	*either = may && !must;
	if (owner.refuse_isolate)
		return -EBUSY;
	if (!may)
		return -ENOMEM;
	if (b->refs > 1)
		return -EAGAIN;
	return owner.fail_migrate ? OWNER_ERROR : 0;
}

static void migrate_one(void)
{
	struct block *b = random_block(true);
	unsigned long before = b ? b->pfn : 0;
	bool either;
	int want, got;

	if (!b)
		return make_movable();
	owner = (typeof(owner)){ .busy = { b }, .nbusy = 1, .gfp = random_migrate_gfp() };
	owner.refuse_isolate = chance(5);
	owner.fail_migrate = chance(5);
	want = expected_result(b, target_gfp(b, owner.gfp), &either);
	note("migrate_page_to_new", b->pfn, b->order, owner.gfp);
	got = migrate_page_to_new(b->page, owner.gfp);
	if (got != want && !(either && got == -ENOMEM))
		model_fail("migrate_page_to_new(pfn %#lx, order %u, %d references) returned %d, the model %d",
			   before, b->order, b->refs, got, want);
	if ((got == 0) != (owner.moved == 1) || (got != 0 && b->pfn != before) || owner.isolated[0])
		model_fail("migrate_page_to_new returned %d: %u switches, pfn %#lx -> %#lx, still isolated %d", got,
			   owner.moved, before, b->pfn, owner.isolated[0]);
	mstats.moves += got == 0;
	mstats.pinned += got == -EAGAIN;
	mstats.refused += got == -EBUSY;
	mstats.failed += got == OWNER_ERROR;
	mstats.no_target += got == -ENOMEM;
	expect_movable("migrate_page_to_new", b);
	if (got == 0 && page_ref(pfn_to_page(before)))
		model_fail("the old block at pfn %#lx was not freed (count %d)", before, page_ref(pfn_to_page(before)));
}

/* Isolates b twice (the second must be refused) and puts it back. */
static void isolate_twice(void)
{
	struct block *b = random_block(true);
	int first, second;

	if (!b)
		return;
	owner = (typeof(owner)){ .busy = { b }, .nbusy = 1 };
	note("isolate_movable_page", b->pfn, b->order, (unsigned long)b->refs);
	first = isolate_movable_page(b->page);
	second = isolate_movable_page(b->page);
	if (first || second != -EBUSY || page_count(b->page) != b->refs + 1 || !PageIsolated(b->page))
		model_fail("isolate_movable_page twice on pfn %#lx: %d, %d, count %d (model %d + 1)", b->pfn, first,
			   second, page_count(b->page), b->refs);
	note("putback_movable_page", b->pfn, b->order, (unsigned long)b->refs);
	putback_movable_page(b->page);
	if (owner.isolated[0])
		model_fail("putback_movable_page did not call putback_page on pfn %#lx", b->pfn);
	mstats.isolations++;
	expect_movable("putback_movable_page", b);
}

/* Is b one of the blocks of this operation already? */
static bool busy_already(const struct block *b)
{
	for (unsigned int i = 0; i < owner.nbusy; i++)
		if (owner.busy[i] == b)
			return true;
	return false;
}

/* migrate_pages()'s targets: allocated as the model predicts, at the moment it asks. */
static struct page *batch_new_page(struct page *src, unsigned int order, void *data)
{
	gfp_t gfp = GFP_HIGHUSER_MOVABLE | __GFP_NOWARN | (PageHead(src) ? __GFP_COMP : 0);
	bool must = model_top_zone_for(gfp, order) >= 0, may = model_top_zone(gfp_zones(gfp), order) >= 0;
	struct page *page = alloc_pages(gfp, order);

	(void)data;
	if ((must && !page) || (!may && page))
		model_fail("migrate_pages' target of order %u: %s, the model %s", order, page ? "found" : "none",
			   must ? "has one" : "has none");
	return page;
}

/* Up to BATCH movable blocks isolated, moved by migrate_pages(); pinned ones stay. */
static void migrate_batch(void)
{
	struct page *pages[BATCH];
	unsigned int n = 0, moved;

	owner = (typeof(owner)){ .gfp = GFP_HIGHUSER_MOVABLE };
	for (unsigned int i = 0; i < BATCH; i++) {
		struct block *b = random_block(true);

		if (!b || busy_already(b))
			continue;
		owner.busy[owner.nbusy++] = b;
		note("isolate_movable_page", b->pfn, b->order, (unsigned long)b->refs);
		if (isolate_movable_page(b->page))
			model_fail("isolate_movable_page(pfn %#lx) refused", b->pfn);
		pages[n++] = b->page;
	}
	note("migrate_pages", 0, 0, n);
	moved = migrate_pages(pages, n, batch_new_page, NULL, NULL);
	if (moved != owner.moved)
		model_fail("migrate_pages returned %u, the owner switched %u", moved, owner.moved);
	for (unsigned int i = 0; i < n; i++) {
		struct block *b = owner.busy[i];

		if (owner.isolated[i] || (!pages[i] && b->refs > 1))
			model_fail("migrate_pages: block %u (pfn %#lx, %d references) %s", i, b->pfn, b->refs,
				   owner.isolated[i] ? "still isolated" : "moved though pinned");
		expect_movable("migrate_pages", b);
	}
	mstats.batches++;
	mstats.batch_moves += moved;
}

/* The owner keeps b for good: no migration starts on it any more. */
static void keep_for_good(void)
{
	struct block *b = random_block(true);

	if (!b)
		return;
	movable_let_go(b);
	if (page_movable(b->page) || page_count(b->page) != b->refs)
		model_fail("clear_page_movable(pfn %#lx): still movable, or count %d (model %d)", b->pfn,
			   page_count(b->page), b->refs);
	mstats.cleared++;
}

/* Expects exactly one report since reports and page's struct page as in copy. */
static void expect_refused(const char *what, unsigned long reports, const struct page *page,
			   const struct page *copy, unsigned long free)
{
	if (bad_page_reports != reports + 1 || memcmp(page, copy, sizeof(*page)) || nr_free_pages() != free)
		model_fail("%s (pfn %#lx): %lu reports (1 expected), struct page %s, %lu free pages (%lu before)",
			   what, page_to_pfn(page), bad_page_reports - reports,
			   memcmp(page, copy, sizeof(*page)) ? "changed" : "unchanged", nr_free_pages(), free);
	model.expected_reports++;
	mstats.misuse++;
}

/*
 * A movable block freed (__free_pages(), or the last put_page()); a block made movable twice; a
 * huge page or a compound page's tail made movable. One report each, nothing changed.
 */
static void misuse(void)
{
	unsigned long r = rnd_below(4), reports = bad_page_reports, free = nr_free_pages();
	struct block *b = r < 2 ? random_block(true) : block_random_of(r == 2 ? BLOCK_HUGE : BLOCK_COMPOUND, 1);
	struct page *page, copy;

	if (!b)
		return;
	page = r == 3 ? b->page + 1 + rnd_below((1UL << b->order) - 1) : b->page;
	copy = *page;
	note(r == 0 ? "__free_pages (movable)" : "set_page_movable (misuse)", page_to_pfn(page), b->order, r);
	if (r == 0 && (b->refs > 1 || chance(50)))
		__free_pages(page, b->order);
	else if (r == 0)
		put_page(page);
	else
		set_page_movable(page, &model_ops);
	expect_refused(r == 0 ? "freeing a movable block" : "set_page_movable of a movable block, a huge page or a tail",
		       reports, page, &copy, free);
}

void op_migrate(void)
{
	unsigned long r = rnd_below(100);

	if (r < 25)
		make_movable();
	else if (r < 70)
		migrate_one();
	else if (r < 78)
		isolate_twice();
	else if (r < 88)
		migrate_batch();
	else if (r < 94)
		keep_for_good();
	else
		misuse();
}

void migrate_model_print_stats(void)
{
	printf("model: %lu blocks made movable; %lu moved by migrate_page_to_new (%lu pinned, %lu refused, %lu failed "
	       "switches, %lu without a target); %lu double isolations; %lu migrate_pages batches moved %lu; %lu kept "
	       "for good; %lu misuses\n", mstats.made_movable, mstats.moves, mstats.pinned, mstats.refused,
	       mstats.failed, mstats.no_target, mstats.isolations, mstats.batches, mstats.batch_moves, mstats.cleared,
	       mstats.misuse);
}
