/* SPDX-License-Identifier: MIT */
/*
 * Compaction (mm/compaction.h): the migration scanner, the free scanner and its targets, one run
 * over a zone, compact_memory(), and the allocation slow path's deferral.
 *
 * Locks: the free scanner takes the zone's lock around each pageblock it takes free blocks from,
 * and again to give unused targets back; the migration scanner takes none (isolation and
 * migration call the owners' operations, which must run without mm/'s locks).
 */
#include "mm/compaction.h"

#include "mm/buddy.h"
#include "mm/debug.h"
#include "mm/list.h"
#include "mm/memmap.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/pcp.h"
#include "mm/vmstat.h"
#include "mm/watermark.h"

#define WHOLE_ZONE (-1)

/* One run over a zone. */
struct compact_control {
	struct zone *zone;
	int order;                  /* the free block wanted; WHOLE_ZONE: on until the scanners meet */
	unsigned long migrate_pfn;  /* the next frame the migration scanner looks at */
	unsigned long free_pfn;     /* the lowest pageblock the free scanner has taken: it goes below */
	struct page *batch[COMPACT_BATCH]; /* isolated movable blocks, to move */
	uint8_t batch_order[COMPACT_BATCH];
	unsigned int nr_batch;
	unsigned long batch_pages;  /* frames of the blocks in batch */
	struct list_head targets[PAGEBLOCK_ORDER]; /* free blocks taken off the lists, by order */
	unsigned long target_pages; /* frames of the blocks in targets */
	unsigned long moved_pages;  /* frames moved by this run */
};

static unsigned long pageblock_start(unsigned long pfn)
{
	return ALIGN_DOWN(pfn, PAGEBLOCK_NR_PAGES);
}

/* The first frame of the memmap chunk after pfn's (pfn's is a hole). */
static unsigned long next_chunk(unsigned long pfn)
{
	return ALIGN_DOWN(pfn, MEMMAP_CHUNK_PAGES) + MEMMAP_CHUNK_PAGES;
}

static bool movable_pageblock(const struct zone *zone, unsigned long pfn)
{
	return pfn_migratetype(zone, pfn) == MIGRATE_MOVABLE;
}

/*
 * The order of the free block at page, read without the zone's lock (the migration scanner only
 * skips over it): a value no free block has, read while the block changes hands, skips one frame.
 * Every store to private in mm/ is a relaxed atomic one (set_page_private(), mm/page.h), so this
 * read is no data race.
 */
static unsigned long unlocked_free_block_pages(const struct page *page)
{
	unsigned long order = __atomic_load_n(&page->private, __ATOMIC_RELAXED);

	return order <= MAX_ORDER ? 1UL << order : 1;
}

/* The order of an isolated movable block: a compound page's, or a plain block's own. */
static unsigned int movable_block_order(const struct page *page)
{
	return PageHead(page) ? compound_order(page) : alloc_order_of(page);
}

/* ---- the free scanner and its targets ---------------------------------------------------- */

/* May the free scanner take the pageblock below free_pfn? Only above the migration scanner's. */
static bool free_scanner_may_descend(const struct compact_control *cc)
{
	return cc->free_pfn >= pageblock_start(cc->migrate_pfn) + 2 * PAGEBLOCK_NR_PAGES;
}

/* zone's lock held: may a free block of order become a target, keeping the min watermark? */
static bool target_keeps_watermark(const struct zone *zone, unsigned int order)
{
	return zone_usable_free_pages(zone) >= zone->watermark[WMARK_MIN] + (1UL << order);
}

/*
 * Takes the free blocks of the pageblock at start (movable) off the free lists as targets, in
 * one hold of the zone's lock. A free block of a pageblock or more stays: moving blocks into it
 * would break the large block compaction is there to make.
 */
static void take_free_blocks(struct compact_control *cc, unsigned long start)
{
	struct zone *zone = cc->zone;
	unsigned long pfn = MAX(start, zone->start_pfn), end = MIN(start + PAGEBLOCK_NR_PAGES, zone->end_pfn);
	unsigned long scanned = 0, taken = 0, flags = zone_lock(zone);

	while (pfn < end) {
		struct page *page = pfn_to_page(pfn);
		unsigned int order;

		if (!pfn_valid(pfn)) {
			pfn = next_chunk(pfn);
			continue;
		}
		scanned++;
		if (!PageBuddy(page)) {
			pfn++;
			continue;
		}
		order = (unsigned int)page->private;
		if (order >= PAGEBLOCK_ORDER || !target_keeps_watermark(zone, order))
			break;
		mm_buddy_take_free_block(zone, page);
		set_page_private(page, order);
		list_add(&page->lru, &cc->targets[order]);
		taken += 1UL << order;
		pfn += 1UL << order;
	}
	zone_unlock(zone, flags);
	cc->target_pages += taken;
	count_vm_events(COMPACT_FREE_SCANNED, scanned);
	count_vm_events(COMPACT_ISOLATED, taken);
}

/* Takes targets from the movable pageblocks down from free_pfn until they cover the batch. */
static void isolate_free_targets(struct compact_control *cc)
{
	while (cc->target_pages < cc->batch_pages && free_scanner_may_descend(cc)) {
		cc->free_pfn -= PAGEBLOCK_NR_PAGES;
		if (movable_pageblock(cc->zone, MAX(cc->free_pfn, cc->zone->start_pfn)))
			take_free_blocks(cc, cc->free_pfn);
	}
}

/*
 * A target block of 2^order frames: the smallest taken that is large enough, split (the halves
 * not used stay targets). NULL when there is none.
 */
static struct page *take_target(struct compact_control *cc, unsigned int order)
{
	unsigned int o = order;
	struct page *page;

	while (o < PAGEBLOCK_ORDER && list_empty(&cc->targets[o]))
		o++;
	if (o >= PAGEBLOCK_ORDER)
		return NULL;
	page = lru_to_page(cc->targets[o].next);
	list_del(&page->lru);
	while (o > order) {
		struct page *half = page + (1UL << --o);

		set_page_private(half, o);
		list_add(&half->lru, &cc->targets[o]);
	}
	cc->target_pages -= 1UL << order;
	return page;
}

/* migrate_pages()'s new_page: a target made an allocated block like src (compound or plain). */
static struct page *compaction_new_page(struct page *src, unsigned int order, void *data)
{
	struct compact_control *cc = data;
	struct page *page = order < PAGEBLOCK_ORDER ? take_target(cc, order) : NULL;

	if (page)
		prep_new_block(page, order, __GFP_MOVABLE | (PageHead(src) ? __GFP_COMP : 0));
	return page;
}

/* Gives the targets not used back to the free lists, where they merge again. */
static void release_targets(struct compact_control *cc)
{
	unsigned long flags = zone_lock(cc->zone);

	for (unsigned int o = 0; o < PAGEBLOCK_ORDER; o++)
		while (!list_empty(&cc->targets[o])) {
			struct page *page = lru_to_page(cc->targets[o].next);

			list_del(&page->lru);
			mm_buddy_give(page, o);
		}
	zone_unlock(cc->zone, flags);
	cc->target_pages = 0;
}

/* ---- the migration scanner --------------------------------------------------------------- */

/* Isolates the movable block at page into the batch if it is one; returns the frames to skip. */
static unsigned long isolate_one(struct compact_control *cc, struct page *page)
{
	unsigned int order;

	if (PageBuddy(page))
		return unlocked_free_block_pages(page);
	if (!page_movable(page) || isolate_movable_page(page))
		return 1;
	order = movable_block_order(page);
	cc->batch[cc->nr_batch] = page;
	cc->batch_order[cc->nr_batch++] = (uint8_t)order;
	cc->batch_pages += 1UL << order;
	count_vm_events(COMPACT_ISOLATED, 1UL << order);
	return 1UL << order;
}

/*
 * Isolates movable blocks from migrate_pfn to the end of its pageblock (or to the free
 * scanner), until the batch is full; a pageblock that is not movable is skipped whole.
 */
static void isolate_movable_blocks(struct compact_control *cc)
{
	unsigned long pfn = cc->migrate_pfn, scanned = 0;
	unsigned long end = MIN(MIN(pageblock_start(pfn) + PAGEBLOCK_NR_PAGES, cc->free_pfn), cc->zone->end_pfn);

	if (!movable_pageblock(cc->zone, pfn)) {
		cc->migrate_pfn = end;
		return;
	}
	while (pfn < end && cc->nr_batch < COMPACT_BATCH) {
		if (!pfn_valid(pfn)) {
			pfn = next_chunk(pfn);
			continue;
		}
		scanned++;
		pfn += isolate_one(cc, pfn_to_page(pfn));
	}
	count_vm_events(COMPACT_MIGRATE_SCANNED, scanned);
	cc->migrate_pfn = pfn;
}

/* Moves the batch into targets (taken first); the blocks that cannot move go back to their owners. */
static void migrate_batch(struct compact_control *cc)
{
	isolate_free_targets(cc);
	migrate_pages(cc->batch, cc->nr_batch, compaction_new_page, NULL, cc);
	for (unsigned int i = 0; i < cc->nr_batch; i++)
		if (!cc->batch[i])
			cc->moved_pages += 1UL << cc->batch_order[i];
	cc->nr_batch = 0;
	cc->batch_pages = 0;
}

/* ---- a run -------------------------------------------------------------------------------- */

/* Has zone a free block of order (outside isolated pageblocks) that GFP_KERNEL may take? */
static bool zone_has_free_block(struct zone *zone, unsigned int order)
{
	unsigned long flags = zone_lock(zone);
	unsigned int orders = zone->free_orders[MIGRATE_UNMOVABLE] | zone->free_orders[MIGRATE_MOVABLE] |
			      zone->free_orders[MIGRATE_RECLAIMABLE];
	bool ok = (orders >> order) && zone_watermark_ok(zone, order, GFP_KERNEL);

	zone_unlock(zone, flags);
	return ok;
}

static void compact_control_init(struct compact_control *cc, struct zone *zone, int order)
{
	*cc = (struct compact_control){ .zone = zone, .order = order, .migrate_pfn = zone->start_pfn };
	cc->free_pfn = pageblock_start(zone->end_pfn - 1) + PAGEBLOCK_NR_PAGES;
	for (unsigned int o = 0; o < PAGEBLOCK_ORDER; o++)
		list_init(&cc->targets[o]);
}

/*
 * Have the scanners met? (The free scanner starts above the zone's end when it is not aligned.)
 * They have too when the free scanner may go no lower and has no target left: nothing more can move.
 */
static bool scanners_met(const struct compact_control *cc)
{
	return cc->migrate_pfn >= MIN(cc->free_pfn, cc->zone->end_pfn) ||
	       (!cc->target_pages && !free_scanner_may_descend(cc));
}

/*
 * Runs the scanners until they meet or (an order wanted) the zone has a free block of it, the
 * freed blocks drained from the per-CPU lists to merge. True when it has one.
 */
static bool compact_run(struct compact_control *cc)
{
	bool made = false;

	while (!made && !scanners_met(cc)) {
		unsigned long moved = cc->moved_pages;

		isolate_movable_blocks(cc);
		/*
		 * A batch moves when it is full or its pageblock is done: held back until the
		 * scanners met, a few movable blocks would find the free scanner unable to descend
		 * any more, and never move.
		 */
		if (cc->nr_batch)
			migrate_batch(cc);
		if (cc->order != WHOLE_ZONE && cc->moved_pages != moved) {
			drain_pcp_lists();
			made = zone_has_free_block(cc->zone, (unsigned int)cc->order);
		}
	}
	if (cc->nr_batch) /* the scanners met with a batch not full */
		migrate_batch(cc);
	release_targets(cc);
	if (cc->order != WHOLE_ZONE && !made) {
		drain_pcp_lists();
		made = zone_has_free_block(cc->zone, (unsigned int)cc->order);
	}
	return made;
}

/* Migration needs interrupts on and no interrupt handler: false (reported, as fn) otherwise. */
static bool may_migrate_here(const char *fn)
{
	if (!arch_irqs_disabled() && !arch_in_interrupt())
		return true;
	printk("%s: refused: interrupts are off or an interrupt handler runs; the owners' migration "
	       "operations need neither\n", fn);
	return false;
}

int compact_zone(struct zone *zone, unsigned int order)
{
	struct compact_control cc;

	if (order > MAX_ORDER || zone < mm_zones || zone >= mm_zones + mm_nr_zone_ids) {
		printk("compact_zone: refused: order %u (MAX_ORDER is %d) or no such zone\n", order, MAX_ORDER);
		return -EINVAL;
	}
	if (!may_migrate_here("compact_zone"))
		return -EINVAL;
	if (!zone->managed_pages)
		return COMPACT_NO_ROOM;
	drain_pcp_lists();
	if (zone_has_free_block(zone, order))
		return COMPACT_NOT_NEEDED;
	if (zone_usable_free_pages(zone) < zone->watermark[WMARK_MIN] + (2UL << order))
		return COMPACT_NO_ROOM;
	compact_control_init(&cc, zone, (int)order);
	return compact_run(&cc) ? COMPACT_MADE_BLOCK : COMPACT_COMPLETE;
}

/* ---- the slow path's deferral ------------------------------------------------------------- */

#define COMPACT_MAX_DEFER_SHIFT 6

/*
 * After a failed run for the slow path, the zone's next calls for order or more are skipped, more
 * of them after each failure in a row: a hint, read and written with relaxed atomics.
 */
struct compact_defer {
	int skip;           /* calls still to skip */
	unsigned int shift; /* the next failure skips 2^shift calls */
	unsigned int order; /* the smallest order that failed */
};

static struct compact_defer defers[MAX_NR_ZONE_IDS];

static void defer_reset(struct compact_defer *d)
{
	__atomic_store_n(&d->skip, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d->shift, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&d->order, MAX_ORDER + 1, __ATOMIC_RELAXED);
}

static bool defer_skips(struct compact_defer *d, unsigned int order)
{
	return order >= __atomic_load_n(&d->order, __ATOMIC_RELAXED) &&
	       __atomic_load_n(&d->skip, __ATOMIC_RELAXED) > 0 &&
	       __atomic_sub_fetch(&d->skip, 1, __ATOMIC_RELAXED) >= 0;
}

static void defer_failed(struct compact_defer *d, unsigned int order)
{
	unsigned int shift = __atomic_load_n(&d->shift, __ATOMIC_RELAXED);

	__atomic_store_n(&d->skip, 1 << shift, __ATOMIC_RELAXED);
	__atomic_store_n(&d->shift, MIN(shift + 1, COMPACT_MAX_DEFER_SHIFT), __ATOMIC_RELAXED);
	__atomic_store_n(&d->order, MIN(order, __atomic_load_n(&d->order, __ATOMIC_RELAXED)), __ATOMIC_RELAXED);
}

int compact_for_allocation(struct zone *zone, unsigned int order)
{
	struct compact_defer *d = &defers[zone - mm_zones];
	int r;

	if (defer_skips(d, order))
		return -1;
	r = compact_zone(zone, order);
	if (r == COMPACT_NOT_NEEDED || r == COMPACT_MADE_BLOCK) {
		defer_reset(d);
		return 1;
	}
	if (r == COMPACT_COMPLETE) {
		defer_failed(d, order);
		return 0;
	}
	return -1;
}

/* ---- whole zones -------------------------------------------------------------------------- */

unsigned long compact_memory(void)
{
	unsigned long moved = 0;

	if (!may_migrate_here("compact_memory"))
		return 0;
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		struct compact_control cc;

		if (!mm_zones[z].managed_pages)
			continue;
		compact_control_init(&cc, &mm_zones[z], WHOLE_ZONE);
		compact_run(&cc);
		count_vm_event(COMPACT_RUNS);
		moved += cc.moved_pages;
		defer_reset(&defers[z]);
	}
	drain_pcp_lists();
	return moved;
}

static bool slow_path_compaction = true;

void compaction_init(void)
{
	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		defer_reset(&defers[z]);
	set_slow_path_compaction(true);
}

bool set_slow_path_compaction(bool on)
{
	bool was = __atomic_exchange_n(&slow_path_compaction, on, __ATOMIC_RELAXED);

	set_alloc_compact_fn(on ? compact_for_allocation : NULL);
	return was;
}
