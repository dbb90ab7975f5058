/* SPDX-License-Identifier: MIT */
/*
 * The buddy free lists: O(1) list operations, splitting on allocation, merging on free, and the
 * mobility fallback. See mm/buddy.h for how a free block is marked. Every function here runs
 * under the zone's lock.
 */
#include "mm/buddy.h"

#include "mm/debug.h"
#include "mm/list.h"
#include "mm/memmap.h"
#include "mm/pageblock.h"
#include "mm/vmstat.h"

/* Counters other CPUs read without the lock (buddyinfo, free page counts): atomic stores. */
static inline void set_counter(unsigned long *c, unsigned long v)
{
	__atomic_store_n(c, v, __ATOMIC_RELAXED);
}

/*
 * Counts a block of 2^order frames at pfn, smaller than a pageblock, in (delta 1) or out of (-1)
 * its pageblock's free frames; larger blocks are not counted (zone->pageblock_use). Atomic
 * stores: the per-CPU lists' slow path reads the counts without the zone lock.
 */
static inline void pageblock_free_add(struct zone *zone, unsigned long pfn, unsigned int order, int delta)
{
	uint16_t *free = &zone->pageblock_use[pageblock_index(zone, pfn)].free;

	if (order < PAGEBLOCK_ORDER)
		__atomic_store_n(free, (uint16_t)(*free + delta * (1 << order)), __ATOMIC_RELAXED);
}

/* Counts 2^order frames onto (delta 1) or off (-1) a list of type mt: isolated ones apart. */
static inline void isolated_free_add(struct zone *zone, unsigned int order, unsigned int mt, int delta)
{
	if (__builtin_expect(mt == MIGRATE_ISOLATE, 0))
		__atomic_store_n(&zone->isolated_free_pages, zone->isolated_free_pages + (unsigned int)delta * (1u << order),
				 __ATOMIC_RELAXED);
}

/*
 * Puts a free block on the list of order and type mt: first (taken next), or last when tail.
 * Counts it in its pageblocks' free frames, and in the zone's isolated ones when mt is
 * MIGRATE_ISOLATE.
 */
static inline void area_add(struct zone *zone, struct page *page, unsigned int order, unsigned int mt, bool tail)
{
	struct free_area *area = &zone->free_area[order];
	unsigned long pfn = page_to_pfn(page);

	MM_BUG_ON(order > MAX_ORDER, page, "order %u above MAX_ORDER", order);
	MM_BUG_ON(page_to_pfn(page) & ((1UL << order) - 1), page, "block not aligned to its order %u", order);
	MM_BUG_ON(PageBuddy(page), page, "already on a free list (order %lu)", page->private);
	MM_BUG_ON(mt != pfn_migratetype(zone, page_to_pfn(page)), page,
		  "a free block on list %u in a pageblock of type %u", mt, pfn_migratetype(zone, page_to_pfn(page)));

	pageblock_free_add(zone, pfn, order, 1);
	isolated_free_add(zone, order, mt, 1);
	list_add(&page->lru, tail ? area->free_list[mt].prev : &area->free_list[mt]);
	set_page_private(page, order);
	page_flag_set(page, PG_buddy); /* after private: a merge that sees PG_buddy reads the order */
	set_counter(&area->nr_free, area->nr_free + 1);
	zone->free_orders[mt] |= 1u << order;
}

static inline void area_del(struct zone *zone, struct page *page, unsigned int order, unsigned int mt)
{
	struct free_area *area = &zone->free_area[order];

	MM_BUG_ON(!PageBuddy(page) || page->private != order, page,
		  "taking a block of order %u off a free list: PG_buddy %d, order %lu", order, PageBuddy(page),
		  page->private);

	list_del(&page->lru);
	page_flag_clear(page, PG_buddy);
	pageblock_free_add(zone, page_to_pfn(page), order, -1);
	isolated_free_add(zone, order, mt, -1);
	set_counter(&area->nr_free, area->nr_free - 1);
	if (list_empty(&area->free_list[mt]))
		zone->free_orders[mt] &= ~(1u << order);
}

/* Moves a free block from the list of type from to that of type to, same order. */
static void area_move(struct zone *zone, struct page *page, unsigned int order, unsigned int from, unsigned int to)
{
	struct free_area *area = &zone->free_area[order];

	list_del(&page->lru);
	if (list_empty(&area->free_list[from]))
		zone->free_orders[from] &= ~(1u << order);
	list_add(&page->lru, &area->free_list[to]);
	zone->free_orders[to] |= 1u << order;
	isolated_free_add(zone, order, from, -1);
	isolated_free_add(zone, order, to, 1);
}

/*
 * The block of 2^high frames at page is off the lists; keeps its first 2^low frames and puts
 * the halves split off on the lists of their pageblocks' types: small_mt for the halves inside
 * page's pageblock, large_mt for those of a pageblock or more (the caller knows both: no lookup).
 */
static void expand(struct zone *zone, struct page *page, unsigned int low, unsigned int high, unsigned int small_mt,
		   unsigned int large_mt)
{
	while (high > low) {
		struct page *half = page + (1UL << --high);

		area_add(zone, half, high, high >= PAGEBLOCK_ORDER ? large_mt : small_mt, false);
	}
}

/* Sets the type of every pageblock of the block of 2^order frames at page. */
static void set_block_pageblocks(struct page *page, unsigned int order, unsigned int mt)
{
	for (unsigned long i = 0; i < (1UL << order); i += PAGEBLOCK_NR_PAGES)
		set_pageblock_migratetype(page + i, mt);
}

/* The first frame of the pageblock of zone holding pfn, and one past its last, clipped to zone. */
static void pageblock_span(const struct zone *zone, unsigned long pfn, unsigned long *start, unsigned long *end)
{
	*start = MAX(pfn & ~(PAGEBLOCK_NR_PAGES - 1), zone->start_pfn);
	*end = MIN((pfn | (PAGEBLOCK_NR_PAGES - 1)) + 1, zone->end_pfn);
}

/*
 * The frames of the free buddy blocks in the pageblock holding pfn, which has one smaller than a
 * pageblock (so none larger: its count has them all).
 */
static unsigned long pageblock_free_pages(const struct zone *zone, unsigned long pfn)
{
	return zone->pageblock_use[pageblock_index(zone, pfn)].free;
}

unsigned long mm_buddy_move_pageblock(struct zone *zone, unsigned long pfn, unsigned int mt)
{
	unsigned long start, end, moved = 0;
	unsigned int from = get_pageblock_migratetype(pfn_to_page(pfn));

	pageblock_span(zone, pfn, &start, &end);
	set_pageblock_migratetype(pfn_to_page(pfn), mt);
	for (pfn = start; pfn < end;) {
		struct page *page = pfn_to_page(pfn);

		if (!pfn_valid(pfn)) {
			pfn += MEMMAP_CHUNK_PAGES - (pfn & (MEMMAP_CHUNK_PAGES - 1));
		} else if (PageBuddy(page)) {
			area_move(zone, page, (unsigned int)page->private, from, mt);
			moved += 1UL << page->private;
			pfn += 1UL << page->private;
		} else {
			pfn++;
		}
	}
	return moved;
}

/*
 * The first block of mt's lists above order o (avail: bit 0 for order o, set for the orders with
 * a block) that is in a pageblock not sparse, below a pageblock; *o set to its order. first (of
 * order o, in a sparse pageblock) if there is none.
 */
static struct page *dense_block_above(struct zone *zone, unsigned int o, unsigned int mt, unsigned int avail,
				      struct page *first, unsigned int *order)
{
	*order = o;
	for (avail >>= 1, o++; avail && o < PAGEBLOCK_ORDER; avail >>= 1, o++) {
		struct page *page;

		if (!(avail & 1))
			continue;
		page = lru_to_page(zone->free_area[o].free_list[mt].next);
		if (!pageblock_sparse(zone, page_to_pfn(page))) {
			*order = o;
			return page;
		}
	}
	return first;
}

/*
 * A per-CPU refill looks this many blocks into each of its type's lists below a pageblock for one
 * that no other CPU reserves (pageblock_reserver() neither 0 nor its own): a look, not a search.
 */
#define RESERVED_SKIP_LOOK 4

/* Does a CPU other than cpu1's (a CPU plus 1; 0: none) reserve the pageblock holding pfn? */
static bool reserved_by_other(const struct zone *zone, unsigned long pfn, unsigned int cpu1)
{
	unsigned int r = pageblock_reserver(zone, pfn);

	return r && r != cpu1;
}

/*
 * The first block of mt's lists of order *o or more (avail: bit 0 for order *o) whose pageblock no
 * CPU but cpu1 (a CPU plus 1) reserves, looking RESERVED_SKIP_LOOK blocks into each list below a
 * pageblock, or the first block of a pageblock or more; *o set to its order. NULL if none.
 */
static __attribute__((noinline)) struct page *unreserved_block(struct zone *zone, unsigned int *o, unsigned int mt,
							     unsigned int avail, unsigned int cpu1)
{
	for (unsigned int k = *o; avail; avail >>= 1, k++) {
		const struct list_head *list = &zone->free_area[k].free_list[mt], *e = list->next;

		if (!(avail & 1))
			continue;
		for (unsigned int i = 0; i < RESERVED_SKIP_LOOK && e != list; i++, e = e->next) {
			if (k >= PAGEBLOCK_ORDER || !reserved_by_other(zone, page_to_pfn(lru_to_page(e)), cpu1)) {
				*o = k;
				return lru_to_page(e);
			}
		}
	}
	return NULL;
}

/*
 * The smallest free block of order or more on mt's lists, split down to order; NULL if none. For
 * a per-CPU refill (cpu1: its CPU plus 1; else 0), one outside the other CPUs' reservations: NULL
 * if mt has none.
 */
static struct page *take_smallest(struct zone *zone, unsigned int order, unsigned int mt, unsigned int cpu1)
{
	unsigned int avail = zone->free_orders[mt] >> order, o;
	struct page *page;

	MM_BUG_ON(!lock_held(&zone->lock), NULL, "zone %s's lock not held", zone->name);
	if (!avail)
		return NULL;
	o = order + (unsigned int)__builtin_ctz(avail);
	page = lru_to_page(zone->free_area[o].free_list[mt].next);
	if (o < PAGEBLOCK_ORDER && pageblock_sparse(zone, page_to_pfn(page)))
		page = dense_block_above(zone, o, mt, avail >> (o - order), page, &o);
	if (cpu1 && o < PAGEBLOCK_ORDER && reserved_by_other(zone, page_to_pfn(page), cpu1) &&
	    !(page = unreserved_block(zone, &o, mt, avail >> (o - order), cpu1)))
		return NULL;
	area_del(zone, page, o, mt);
	expand(zone, page, order, o, mt, mt); /* a free block's pageblocks are all of its type */
	return page;
}

/*
 * Where an allocation of each type looks when its own pageblocks have no free block, in order
 * (the reclaimable and unmovable ones first look at each other's: both stay put once allocated).
 * Isolated pageblocks are never a fallback.
 */
static const uint8_t fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

/*
 * May an allocation of type mt and order take over a whole pageblock of another type? Unmovable
 * and reclaimable ones may: if they did not, each fallback would put one more pinned page in a
 * movable pageblock. A small movable one may not: a movable page in another type's pageblock can
 * be moved out later, so it takes the smallest block there and leaves the pageblock alone.
 */
static bool may_claim(unsigned int order, unsigned int mt)
{
	return mt != MIGRATE_MOVABLE || order >= PAGEBLOCK_ORDER / 2;
}

/* Counts a pageblock claimed for another type. */
static void count_claim(struct zone *zone)
{
	set_counter(&zone->pageblock_claims, zone->pageblock_claims + 1);
	count_vm_event(PAGEBLOCK_STEALS);
}

/*
 * No free block of order or more of type mt: takes one from the fallback types. A claiming
 * allocation looks at the largest block first (the likeliest to leave a whole pageblock to claim),
 * a movable one at the smallest (it breaks up the least). A block of a pageblock or more gives
 * the claimer the pageblocks the allocation covers (the halves split off keep their type); a
 * smaller one gives it its whole pageblock when at least half of it is free.
 */
static struct page *take_fallback(struct zone *zone, unsigned int order, unsigned int mt)
{
	bool claims = may_claim(order, mt);

	for (unsigned int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		unsigned int ft = fallbacks[mt][i], avail = zone->free_orders[ft] >> order, o;
		struct page *page;

		if (!avail)
			continue;
		o = order + (claims ? 31u - (unsigned int)__builtin_clz(avail) : (unsigned int)__builtin_ctz(avail));
		page = lru_to_page(zone->free_area[o].free_list[ft].next);
		set_counter(&zone->alloc_fallbacks, zone->alloc_fallbacks + 1);
		if (claims && o < PAGEBLOCK_ORDER &&
		    pageblock_free_pages(zone, page_to_pfn(page)) >= PAGEBLOCK_NR_PAGES / 2) {
			mm_buddy_move_pageblock(zone, page_to_pfn(page), mt);
			count_claim(zone);
			return take_smallest(zone, order, mt, 0); /* from the pageblock claimed, reserved or not */
		}
		area_del(zone, page, o, ft);
		if (claims && o >= PAGEBLOCK_ORDER) {
			set_block_pageblocks(page, MAX(order, PAGEBLOCK_ORDER), mt);
			count_claim(zone);
			expand(zone, page, order, o, mt, ft);
		} else {
			expand(zone, page, order, o, ft, ft);
		}
		return page;
	}
	return NULL;
}

/*
 * mm_buddy_take() and mm_buddy_take_cpu(): inlined into each, so that the first (cpu1 0) does not
 * test for reservations (4 to 12 instructions a pair of orders 9 and 10 in make bench-kernel).
 * When mt's free blocks are all in other CPUs' reservations, the refill takes them: before another
 * type's, not after. Claiming a pageblock of another type first (each CPU a pageblock of its own,
 * as LLFree's CPUs take a free 2 MiB region) spread the unmovable pages of make fragbench over
 * more pageblocks: while its churn ran, 0.826 of the free memory in 2 MiB blocks, not 0.857, and
 * 0.928 not 0.964 in the movable workload. A reservation is a preference, never a refusal.
 */
static inline __attribute__((always_inline)) struct page *take_block(struct zone *zone, unsigned int order,
								     unsigned int mt, unsigned int cpu1)
{
	struct page *page = take_smallest(zone, order, mt, cpu1);

	if (!page && cpu1)
		page = take_smallest(zone, order, mt, 0);
	if (!page)
		page = take_fallback(zone, order, mt);
	if (page)
		set_counter(&zone->buddy_free_pages, zone->buddy_free_pages - (1UL << order));
	return page;
}

struct page *mm_buddy_take(struct zone *zone, unsigned int order, unsigned int mt)
{
	return take_block(zone, order, mt, 0);
}

struct page *mm_buddy_take_cpu(struct zone *zone, unsigned int order, unsigned int mt, unsigned int cpu1)
{
	return take_block(zone, order, mt, cpu1);
}

/*
 * May a free block of type mt merge with its free buddy at buddy_pfn, a pageblock or more (so in
 * other pageblocks), whose type is stored in *bmt? Not across an isolated pageblock's edge. When they
 * may and the types differ, the caller gives the buddy's pageblocks type mt: a free block has one.
 */
static bool may_merge_pageblocks(const struct zone *zone, unsigned long buddy_pfn, unsigned int mt,
				 unsigned int *bmt)
{
	*bmt = pfn_migratetype(zone, buddy_pfn);
	if (*bmt == mt)
		return true;
	if (*bmt == MIGRATE_ISOLATE || mt == MIGRATE_ISOLATE)
		return false;
	return true;
}

/*
 * Does a freed block, merged up to order at pfn, go last on its list? When it is smaller than a
 * pageblock and its pageblock is sparse (mm/pageblock.h): allocations then come first from the
 * pageblocks with the fewest free frames, which fill up, and the sparse ones are left to become
 * wholly free (LLFree chooses its memory the same way). The halves a split leaves go first: the
 * allocations after it go on filling the same pageblock.
 */
static bool freed_block_last(const struct zone *zone, unsigned long pfn, unsigned int order)
{
	return order < PAGEBLOCK_ORDER && pageblock_sparse(zone, pfn);
}

void mm_buddy_give(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long pfn = page_to_pfn(page);
	unsigned int mt = pfn_migratetype(zone, pfn), bmt = mt;

	MM_BUG_ON(!lock_held(&zone->lock), page, "zone %s's lock not held", zone->name);
	set_counter(&zone->buddy_free_pages, zone->buddy_free_pages + (1UL << order));
	for (; order < MAX_ORDER; order++) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy = mm_buddy_free_buddy(page, pfn, order);

		if (!buddy)
			break;
		if (order >= PAGEBLOCK_ORDER && !may_merge_pageblocks(zone, buddy_pfn, mt, &bmt))
			break;
		area_del(zone, buddy, order, bmt);
		if (bmt != mt)
			set_block_pageblocks(buddy, order, mt);
		if (buddy_pfn < pfn) {
			page = buddy;
			pfn = buddy_pfn;
		}
	}
	area_add(zone, page, order, mt, freed_block_last(zone, page_to_pfn(page), order));
}

unsigned int mm_buddy_take_free_block(struct zone *zone, struct page *page)
{
	unsigned int order = (unsigned int)page->private;

	MM_BUG_ON(!lock_held(&zone->lock), page, "zone %s's lock not held", zone->name);
	area_del(zone, page, order, pfn_migratetype(zone, page_to_pfn(page)));
	set_counter(&zone->buddy_free_pages, zone->buddy_free_pages - (1UL << order));
	return order;
}

void mm_buddy_add_block(struct zone *zone, struct page *page, unsigned int order)
{
	set_counter(&zone->buddy_free_pages, zone->buddy_free_pages + (1UL << order));
	area_add(zone, page, order, get_pageblock_migratetype(page), false);
}

/* The free block of order above PAGEBLOCK_ORDER that holds pfn without starting there, or NULL. */
static struct page *block_across(const struct zone *zone, unsigned long pfn, unsigned int *order)
{
	for (unsigned int o = PAGEBLOCK_ORDER + 1; o <= MAX_ORDER; o++) {
		unsigned long base = pfn & ~((1UL << o) - 1);
		struct page *page = pfn_to_page(base);

		if (base == pfn || base < zone->start_pfn || !pfn_valid(base))
			continue;
		if (PageBuddy(page) && page->private == o) {
			*order = o;
			return page;
		}
	}
	return NULL;
}

bool mm_buddy_split_at(struct zone *zone, unsigned long pfn)
{
	unsigned int order, mt;
	struct page *page = block_across(zone, pfn, &order);

	MM_BUG_ON(!lock_held(&zone->lock), NULL, "zone %s's lock not held", zone->name);
	if (!page)
		return false;
	mt = pfn_migratetype(zone, page_to_pfn(page));
	area_del(zone, page, order, mt);
	for (unsigned long i = 0; i < (1UL << order); i += PAGEBLOCK_NR_PAGES)
		area_add(zone, page + i, PAGEBLOCK_ORDER, mt, false); /* the block's pageblocks all have its type */
	return true;
}

void mm_buddy_remerge_pageblock(struct zone *zone, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);

	MM_BUG_ON(!lock_held(&zone->lock), page, "zone %s's lock not held", zone->name);
	if (!PageBuddy(page) || page->private != PAGEBLOCK_ORDER)
		return;
	area_del(zone, page, PAGEBLOCK_ORDER, pfn_migratetype(zone, pfn));
	set_counter(&zone->buddy_free_pages, zone->buddy_free_pages - PAGEBLOCK_NR_PAGES);
	mm_buddy_give(page, PAGEBLOCK_ORDER);
}
