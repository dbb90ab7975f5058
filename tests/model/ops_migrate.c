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
 *
 * The owner also takes in migrations the test did not start: compaction's (compact_memory() and
 * compact_zone() here, the allocation slow path's for a costly order) and a range emptied for the
 * hugetlb pool. It finds the block by its page, checks each move (not pinned, out of a movable
 * pageblock into a movable pageblock of the same zone, contents and private word kept) and moves
 * the block in the model, so that the allocation or the pool that follows is judged against the
 * memory compaction left.
 */
#include "tests/model/model.h"

#include "mm/compaction.h"
#include "mm/lock_check.h"
#include "mm/migrate.h"
#include "mm/pageblock.h"
#include "mm/pageblock_types.h"
#include "mm/vmstat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4
#define OWNER_ERROR (-28) /* what a failed switch returns: ENOSPC, which mm/types.h does not define */

/* The owner's state during one operation: the blocks it let a migration have. */
static struct {
	struct block *busy[BATCH]; /* the blocks of this operation (one, or a migrate_pages() batch) */
	unsigned int nbusy;
	bool isolated[BATCH];
	bool done[BATCH];      /* moved or put back: the block is the owner's again, any migration's */
	bool refuse_isolate;   /* isolate_page() says no */
	bool fail_migrate;     /* migrate_page() returns OWNER_ERROR */
	gfp_t gfp;             /* the targets' gfp: where they must come from */
	unsigned int moved;    /* migrate_page() calls that switched */
} owner;

static struct {
	unsigned long made_movable, moves, pinned, refused, failed, no_target, isolations, batches;
	unsigned long batch_moves, cleared, misuse, compactions;
} mstats;

/* Migrations the test did not start (compaction's, a contiguous range's): what they did. */
static struct {
	bool may_be_contig;  /* a contiguous range may be emptied now, not only compacted */
	unsigned long isolations, moves, pages, putbacks;
	uint32_t *slot_of;   /* per pfn: a hint, the index in blocks[] of the movable block there */
} ext;

/*
 * The index in owner.busy of the block whose page is page, or -1: a migration the test did not
 * start (compaction for a target's allocation may also move a block of the batch already moved).
 */
static int busy_slot(const struct page *page)
{
	for (unsigned int i = 0; i < owner.nbusy; i++)
		if (!owner.done[i] && owner.busy[i]->page == page)
			return (int)i;
	return -1;
}

/* The owner's operations run with no mm/ lock held and interrupts on (mm/migrate.h). */
static void expect_context(const char *op)
{
	if (lock_held_count() || arch_irqs_disabled())
		model_fail("%s called with %u mm/ locks held, interrupts %s", op, lock_held_count(),
			   arch_irqs_disabled() ? "off" : "on");
}

/* Remembers where b is in blocks[], for held_movable_block(). */
static void remember_slot(const struct block *b)
{
	if (!ext.slot_of)
		ext.slot_of = calloc(mm_max_pfn, sizeof(*ext.slot_of));
	if (!ext.slot_of)
		model_fail("out of host memory for the movable blocks' index");
	ext.slot_of[b->pfn] = (uint32_t)(b - blocks);
}

/*
 * The held block made movable whose first page is page (the slot hint first, else a search: a
 * freed block's slot is taken by the last one). Fails the run if there is none: the migration
 * took a block the owner never made movable.
 */
static struct block *held_movable_block(const struct page *page, const char *op)
{
	unsigned long pfn = page_to_pfn(page);
	uint32_t i = ext.slot_of && pfn < mm_max_pfn ? ext.slot_of[pfn] : 0;

	if (i >= nr_blocks || blocks[i].page != page)
		for (i = 0; i < nr_blocks && blocks[i].page != page; i++)
			;
	if (i == nr_blocks || !blocks[i].movable)
		model_fail("%s called on pfn %#lx, %s", op, pfn,
			   i == nr_blocks ? "which the test does not hold" : "a block the owner never made movable");
	remember_slot(&blocks[i]);
	return &blocks[i];
}

/*
 * The switch, in the model: the target must be a block the model has free, with src's tokens and
 * private word, src's count frozen and the target's an isolated block's (the owner's reference
 * and the migration's); the model then holds it and src's frames are free (src is freed as soon
 * as migrate_page returns 0).
 */
static void switch_in_model(struct block *b, struct page *dst, struct page *src)
{
	struct block moved = *b;
	const char *p;

	moved.page = dst;
	moved.pfn = page_to_pfn(dst);
	if ((p = block_token_problem(&moved)))
		model_fail("migrate_page: the target's contents are not the block's: %s", p);
	if (dst->private != src->private || page_ref(dst) != 2 || page_ref(src))
		model_fail("migrate_page: private %#lx (block %#lx), counts %d and %d (want 2 and 0, frozen)",
			   dst->private, src->private, page_ref(dst), page_ref(src));
	if (moved.pfn & ((1UL << b->order) - 1))
		model_fail("migrate_page: target pfn %#lx is not aligned to its order %u", moved.pfn, b->order);
	if (!model_move(moved.pfn, b->order, FRAME_FREE, FRAME_HELD))
		model_fail("migrate_page: target pfn %#lx of order %u was not free in the model", moved.pfn, b->order);
	if (!model_move(b->pfn, b->order, FRAME_HELD, FRAME_FREE))
		model_fail("migrate_page: the block at pfn %#lx was not held in the model", b->pfn);
	model.last_freed_pfn = b->pfn;
	model.last_freed_order = b->order;
	*b = moved;
}

static const char *pageblock_type_name(unsigned long pfn)
{
	return migratetype_name(get_pageblock_migratetype(pfn_to_page(pfn)));
}

/*
 * Compaction's invariants on one move of b to dst: b is not pinned (the model holds one
 * reference), it comes from a movable pageblock and goes to another one of the same zone. A
 * contiguous range being emptied (ext.may_be_contig) takes from isolated pageblocks and its
 * targets come from alloc_pages(), anywhere.
 */
static void expect_compaction_move(const struct block *b, const struct page *dst)
{
	unsigned long src_pfn = b->pfn, dst_pfn = page_to_pfn(dst);
	unsigned int src_type = get_pageblock_migratetype(b->page);

	if (b->refs != 1)
		model_fail("compaction moved the pinned block at pfn %#lx (%d references)", src_pfn, b->refs);
	if (src_type != MIGRATE_MOVABLE && !(ext.may_be_contig && src_type == MIGRATE_ISOLATE))
		model_fail("compaction moved the block at pfn %#lx out of a %s pageblock", src_pfn,
			   pageblock_type_name(src_pfn));
	if (ext.may_be_contig)
		return;
	if (get_pageblock_migratetype(dst) != MIGRATE_MOVABLE || pfn_zone(dst_pfn) != pfn_zone(src_pfn))
		model_fail("compaction moved the block at pfn %#lx (zone %s) into pfn %#lx, a %s pageblock of "
			   "zone %s", src_pfn, zone_name(pfn_zone(src_pfn)), dst_pfn, pageblock_type_name(dst_pfn),
			   zone_name(pfn_zone(dst_pfn)));
}

/* ---- the owner's operations for a migration the test did not start ---------------------------- */

static bool external_isolate(struct page *page)
{
	struct block *b = held_movable_block(page, "isolate_page");

	if (b->isolated)
		model_fail("isolate_page on pfn %#lx, isolated already", b->pfn);
	b->isolated = true;
	ext.isolations++;
	return true;
}

static struct block *external_isolated(struct page *page, const char *op)
{
	struct block *b = held_movable_block(page, op);

	if (!b->isolated)
		model_fail("%s on pfn %#lx, which is not isolated", op, b->pfn);
	return b;
}

static int external_migrate(struct page *dst, struct page *src)
{
	struct block *b = external_isolated(src, "migrate_page");

	expect_compaction_move(b, dst);
	switch_in_model(b, dst, src);
	b->isolated = false;
	remember_slot(b);
	ext.moves++;
	ext.pages += 1UL << b->order;
	return 0;
}

static void external_putback(struct page *page)
{
	external_isolated(page, "putback_page")->isolated = false;
	ext.putbacks++;
}

/* ---- the owner's operations ------------------------------------------------------------------- */

/* The index in owner.busy of page's block; -1 (fails the run) if the owner did not give it. */
static unsigned int busy_index(const struct page *page, const char *op)
{
	int i = busy_slot(page);

	if (i < 0)
		model_fail("%s called on pfn %#lx, which the owner did not give to this migration", op,
			   page_to_pfn(page));
	return (unsigned int)i;
}

static bool model_isolate(struct page *page)
{
	unsigned int i;

	expect_context("isolate_page");
	if (busy_slot(page) < 0)
		return external_isolate(page);
	i = busy_index(page, "isolate_page");
	if (owner.isolated[i])
		model_fail("isolate_page on pfn %#lx, isolated already", page_to_pfn(page));
	owner.isolated[i] = !owner.refuse_isolate;
	return owner.isolated[i];
}

static void model_unmap(struct page *page)
{
	expect_context("unmap_page");
	if (busy_slot(page) < 0) {
		external_isolated(page, "unmap_page");
		return;
	}
	if (!owner.isolated[busy_index(page, "unmap_page")])
		model_fail("unmap_page on pfn %#lx, which is not isolated", page_to_pfn(page));
}

/* The switch for a migration the test started: also in the zones it asked. */
static int model_migrate(struct page *dst, struct page *src)
{
	unsigned int i;
	struct block *b;

	expect_context("migrate_page");
	if (busy_slot(src) < 0)
		return external_migrate(dst, src);
	i = busy_index(src, "migrate_page");
	b = owner.busy[i];
	if (!owner.isolated[i])
		model_fail("migrate_page on pfn %#lx, which is not isolated", b->pfn);
	if (owner.fail_migrate)
		return OWNER_ERROR;
	if (!(gfp_zones(owner.gfp) & (1u << pfn_zone(page_to_pfn(dst)))))
		model_fail("migrate_page: target pfn %#lx is outside the zones asked", page_to_pfn(dst));
	switch_in_model(b, dst, src);
	remember_slot(b);
	owner.isolated[i] = false;
	owner.done[i] = true;
	owner.moved++;
	return 0;
}

static void model_putback(struct page *page)
{
	unsigned int i;

	expect_context("putback_page");
	if (busy_slot(page) < 0)
		return external_putback(page);
	i = busy_index(page, "putback_page");
	if (!owner.isolated[i])
		model_fail("putback_page on pfn %#lx, which is not isolated", page_to_pfn(page));
	owner.isolated[i] = false;
	owner.done[i] = true;
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

void movable_adopt(struct block *b)
{
	unsigned long reports = mm_bad_page_reports;

	note("set_page_movable", b->pfn, b->order, b->kind);
	b->page->private = owner_word(b);
	set_page_movable(b->page, &model_ops);
	if (mm_bad_page_reports != reports || !page_movable(b->page))
		model_fail("set_page_movable refused the order-%u block at pfn %#lx", b->order, b->pfn);
	b->movable = true;
	remember_slot(b);
	mstats.made_movable++;
	expect_movable("set_page_movable", b);
}

static void make_movable(void)
{
	struct block *b = random_block(false);

	if (b)
		movable_adopt(b);
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

/* What migrate_page_to_new(b) must return once it has a target: -EAGAIN (pinned), the owner's error, 0. */
static int result_with_target(const struct block *b)
{
	if (b->refs > 1)
		return -EAGAIN;
	return owner.fail_migrate ? OWNER_ERROR : 0;
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
	return result_with_target(b);
}

static void migrate_one(void)
{
	struct block *b = random_block(true);
	unsigned long before = b ? b->pfn : 0;
	unsigned long compacted = ext.pages;
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
	/* The target's allocation may compact (order >= 3): the block it then finds is as good. */
	if (want == -ENOMEM && ext.pages != compacted && got == result_with_target(b))
		want = got;
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
	bool must = model_top_zone_for(gfp, order) >= 0, may;
	struct page *page = alloc_pages(gfp, order);

	/* Compaction may have run for it, its moves now in the model: the target is still free there. */
	may = model_top_zone(gfp_zones(gfp), order) >= 0;
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
	if (mm_bad_page_reports != reports + 1 || memcmp(page, copy, sizeof(*page)) || nr_free_pages() != free)
		model_fail("%s (pfn %#lx): %lu reports (1 expected), struct page %s, %lu free pages (%lu before)",
			   what, page_to_pfn(page), mm_bad_page_reports - reports,
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
	unsigned long r = rnd_below(4), reports = mm_bad_page_reports, free = nr_free_pages();
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

/* ---- compaction on demand ------------------------------------------------------------------- */

/* Every block the owner made movable is back with it after a compaction: not isolated, as it was. */
static void expect_all_movable(const char *op)
{
	for (unsigned long i = 0; i < nr_blocks; i++)
		if (blocks[i].movable) {
			if (blocks[i].isolated)
				model_fail("%s: the block at pfn %#lx is still isolated", op, blocks[i].pfn);
			expect_movable(op, &blocks[i]);
		}
}

/* compact_zone()'s result against the model after the run: a free region of order there or not. */
static void expect_compact_zone_result(int z, unsigned int order, int got, unsigned long moved)
{
	bool has_block = model.full[z][order] > 0;
	bool says_block = got == COMPACT_NOT_NEEDED || got == COMPACT_MADE_BLOCK;
	bool says_still = got == COMPACT_NOT_NEEDED || got == COMPACT_NO_ROOM;

	if (got < 0 || got > COMPACT_COMPLETE || (says_block && !has_block) || (says_still && moved))
		model_fail("compact_zone(%s, %u) returned %d after moving %lu pages; the model has %lu free regions "
			   "of that order there", zone_name(z), order, got, moved, model.full[z][order]);
}

/*
 * compact_memory(), or compact_zone() on a random zone and order. The owner takes each move in
 * (external_migrate() checks that the block was not pinned and stayed in movable pageblocks of its
 * zone, with its contents); then the free pages of every zone are what they were, the result
 * agrees with the pages moved and the model, and every movable block is back with its owner.
 */
static void compact(void)
{
	unsigned long before = ext.pages, free[MAX_NR_ZONES];
	int z = (int)rnd_below(MAX_NR_ZONES), got;
	unsigned int order = (unsigned int)rnd_below(MAX_ORDER + 1);
	bool whole = chance(30);

	for (int i = 0; i < MAX_NR_ZONES; i++)
		free[i] = zone_free_pages(&mm_zones[i]);
	note(whole ? "compact_memory" : "compact_zone", 0, order, (unsigned long)z);
	got = whole ? (int)compact_memory() : compact_zone(&mm_zones[z], order);
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (zone_free_pages(&mm_zones[i]) != free[i] || model.zone_free[i] != free[i])
			model_fail("compaction changed zone %s's free pages: %lu before, %lu after (the model %lu)",
				   zone_name(i), free[i], zone_free_pages(&mm_zones[i]), model.zone_free[i]);
	if (whole && (unsigned long)got != ext.pages - before)
		model_fail("compact_memory() returned %d pages moved, the owner saw %lu", got, ext.pages - before);
	if (!whole)
		expect_compact_zone_result(z, order, got, ext.pages - before);
	expect_all_movable(whole ? "compact_memory" : "compact_zone");
	mstats.compactions++;
}

void op_migrate(void)
{
	unsigned long r = rnd_below(100);

	if (r < 25)
		make_movable();
	else if (r < 68)
		migrate_one();
	else if (r < 76)
		isolate_twice();
	else if (r < 86)
		migrate_batch();
	else if (r < 92)
		keep_for_good();
	else if (r < 97)
		misuse();
	else
		compact();
	owner.nbusy = 0; /* what the owner gave this operation is its own again */
}

unsigned long external_moved_pages(void)
{
	return ext.pages;
}

void external_moves_may_be_contig(bool may)
{
	ext.may_be_contig = may;
}

void migrate_model_print_stats(void)
{
	printf("model: %lu blocks made movable; %lu moved by migrate_page_to_new (%lu pinned, %lu refused, %lu failed "
	       "switches, %lu without a target); %lu double isolations; %lu migrate_pages batches moved %lu; %lu kept "
	       "for good; %lu misuses\n", mstats.made_movable, mstats.moves, mstats.pinned, mstats.refused,
	       mstats.failed, mstats.no_target, mstats.isolations, mstats.batches, mstats.batch_moves, mstats.cleared,
	       mstats.misuse);
	printf("model: %lu compactions on demand; compaction (on demand, the slow path's) or a contiguous range "
	       "isolated %lu movable blocks, moved %lu (%lu pages), put %lu back\n", mstats.compactions,
	       ext.isolations, ext.moves, ext.pages, ext.putbacks);
	printf("model: the slow path compacted for %lu allocations (%lu then succeeded)\n",
	       vm_event_count(COMPACT_STALL), vm_event_count(COMPACT_SUCCESS));
}
