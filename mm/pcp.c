/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU page lists: their memory, their limits, moving blocks between them and the buddy lists
 * in batches (refill when a list is empty, flush when it is over its limit, drain before an
 * allocation fails or when the caller wants buddyinfo to show all free memory), and turning them
 * off and on (set_pcp_lists).
 */
#include "mm/pcp.h"

#include "mm/memblock.h"
#include "mm/pageblock.h"
#include "mm/watermark.h"

bool mm_pcp_lists_on = true;
struct pcp_cpu *mm_pcp_area;
struct pcp_node_events *mm_pcp_node_events;
unsigned int mm_pcp_nr_cpus;

int mm_pcp_init(unsigned int nr_cpus)
{
	size_t lists, bytes;
	phys_addr_t phys;

	mm_pcp_nr_cpus = nr_cpus ? nr_cpus : 1;
	lists = (size_t)mm_pcp_nr_cpus * sizeof(struct pcp_cpu);
	bytes = lists + (size_t)mm_pcp_nr_cpus * sizeof(struct pcp_node_events);
	phys = memblock_alloc_named(ALIGN_UP(bytes, PAGE_SIZE), PAGE_SIZE, UINT64_MAX, "per-CPU lists");
	if (!phys) {
		printk("mm: no memory for the per-CPU page lists of %u CPUs (%zu bytes)\n", mm_pcp_nr_cpus, bytes);
		return -ENOMEM;
	}
	mm_pcp_area = phys_to_virt(phys);
	memset(mm_pcp_area, 0, bytes); /* all-zero locks are unlocked */
	mm_pcp_node_events = (struct pcp_node_events *)((char *)mm_pcp_area + lists);
	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z <= PCP_NO_ZONE; z++) { /* the lists of no zone too: locked, checked */
			struct per_cpu_pages *pcp = cpu_pcp(cpu, z);

			pcp->cpu = cpu;
			pcp->zone = (uint16_t)z;
			lock_set_class(&pcp->lock, "per_cpu_pages->lock");
			cpu_data_lock_init(&pcp->lock, cpu);
			for (unsigned int slot = 0; slot < PCP_NR_SLOTS; slot++)
				for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++)
					list_init(&pcp->lists[slot][t]);
		}
#ifdef ARCH_HAS_THIS_CPU_PCP
	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		arch_set_cpu_pcp(cpu, cpu_pcp(cpu, 0));
#endif
	return 0;
}

/*
 * zone's free frames on no CPU's list: its buddy lists' and its hand-off lists' (struct zone), read
 * atomically. The hand-off lists' are as free as the buddy lists' for any CPU's refill.
 */
static unsigned long zone_unlisted_free_pages(const struct zone *zone)
{
	return __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED) + mm_pcp_handoff_pages(zone);
}

/*
 * The frames of zone's spare memory (its buddy lists' frames above 2^-PCP_RESERVE_SHIFT of it)
 * that a list of slot may hold, with own frames already on it (whole pageblocks') or not (the
 * smaller orders': their lists are not counted, so that a zone's spare memory stays in the
 * buddy lists where it merges).
 */
static unsigned long pcp_spare_frames(const struct zone *zone, unsigned long own)
{
	unsigned long free = zone_unlisted_free_pages(zone) + own;
	unsigned long reserve = zone->managed_pages >> PCP_RESERVE_SHIFT;

	return free > reserve ? free - reserve : 0;
}

/*
 * The high of pcp's list of slot in zone now, between PCP_MIN_HIGH_BLOCKS and PCP_HIGH_BLOCKS.
 * A smaller order's: 2^-PCP_SPARE_SHARE_SHIFT of the zone's spare memory, in blocks of the order,
 * shared among the CPUs. A busy zone's lists are short, so that its free memory stays in the
 * buddy lists where it merges; an idle one's are long, so that a burst of allocations and frees
 * stays on them.
 * Whole pageblocks': all of the spare memory, counting the pageblocks already on the list, and
 * not shared: a whole pageblock held unmerged splits nothing (it keeps only a 4 MiB block from
 * merging), and a burst of 2 MiB allocations and frees (1024 of them in make bench-host's
 * batches, 2 GiB) stays on one CPU's list only if that list may grow as long as the burst. Shared
 * among the CPUs, two CPUs' bursts overflowed their lists and every block went through the zone
 * lock. What bounds the lists together is the busy rule: when the buddy lists fall to the
 * reserve, every free of a whole pageblock goes to them and every refill gives this CPU's back
 * (mm_pcp_refill(), mm_pcp_give_slow_unlock()).
 */
static unsigned int pcp_high_now(const struct per_cpu_pages *pcp, const struct zone *zone, unsigned int slot)
{
	unsigned long blocks;

	if (slot == PCP_PAGEBLOCK_SLOT)
		blocks = pcp_spare_frames(zone, (unsigned long)pcp_count_folded(pcp, slot) << PAGEBLOCK_ORDER) >> PAGEBLOCK_ORDER;
	else
		blocks = (pcp_spare_frames(zone, 0) >> (PCP_SPARE_SHARE_SHIFT + slot)) / mm_pcp_nr_cpus;
	return (unsigned int)MAX(PCP_MIN_HIGH_BLOCKS, MIN(PCP_HIGH_BLOCKS, blocks));
}

/* The batch of a list whose high is high: an eighth of it, at least one, at most PCP_BATCH_BLOCKS. */
static unsigned int pcp_batch_for(unsigned int high)
{
	return MAX(1u, MIN(PCP_BATCH_BLOCKS, high / 8u));
}

/* Is zone busy: its buddy and hand-off lists' free frames at or under 2^-PCP_RESERVE_SHIFT of it? */
static bool zone_busy(const struct zone *zone)
{
	return zone_unlisted_free_pages(zone) <= zone->managed_pages >> PCP_RESERVE_SHIFT;
}

/*
 * pcp's lock held: sets the high and batch of its lists of slot (atomic stores: show_mem reads
 * them), and the free fast path's limit: high, or 0 while busy (every free then takes the slow
 * path, mm_pcp_give_slow_unlock()).
 */
static void pcp_set_high(struct per_cpu_pages *pcp, unsigned int slot, unsigned int high, bool busy)
{
	__atomic_store_n(&pcp->high[slot], (uint16_t)high, __ATOMIC_RELAXED);
	__atomic_store_n(&pcp->batch[slot], (uint16_t)pcp_batch_for(high), __ATOMIC_RELAXED);
	pcp_set_fast_high(pcp, slot, busy ? 0 : high);
}

/* The zone pcp's lists are for. */
static struct zone *pcp_zone(const struct per_cpu_pages *pcp)
{
	return &mm_zones[pcp_zone_index(pcp)];
}

/*
 * pcp's lock held, its lists on: sets the high of its lists of slot from its zone's spare memory
 * now (pcp_high_now()). The caller flushes what is over it.
 */
static void pcp_retune(struct per_cpu_pages *pcp, unsigned int slot)
{
	if (pcp->high[slot])
		pcp_set_high(pcp, slot, pcp_high_now(pcp, pcp_zone(pcp), slot), zone_busy(pcp_zone(pcp)));
}

/* Boot, before the other CPUs run: so it may set every CPU's lists from here. */
void mm_pcp_set_limits(void)
{
	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
			for (unsigned int slot = 0; slot < PCP_NR_SLOTS; slot++)
				pcp_set_high(cpu_pcp(cpu, z), slot, mm_pcp_lists_on ? pcp_high_now(cpu_pcp(cpu, z), &mm_zones[z], slot) : 0,
					     zone_busy(&mm_zones[z]));
}

/* pcp_fold()'s work, out of line: taken[slot] of some type is not 0. Returns true. */
bool mm_pcp_fold_taken(struct per_cpu_pages *pcp, unsigned int slot)
{
	uint32_t taken = 0;

	for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++) {
		uint32_t n = pcp->types[t].taken[slot];

		__atomic_store_n(&pcp->types[t].taken[slot], 0, __ATOMIC_RELAXED);
		cpu_own_add(&pcp->types[t].alloc_hits, n);
		taken += n;
	}
	cpu_own_add(&pcp->room[slot], (int)taken);
	return true;
}

unsigned long mm_pcp_free_pages(const struct per_cpu_pages *pcp)
{
	unsigned long pages = 0;

	for (unsigned int slot = 0; slot < PCP_NR_SLOTS; slot++)
		pages += (unsigned long)pcp_count(pcp, slot) << pcp_slot_order(slot);
	return pages;
}

/* Sets or clears the order field of a block's first page (a per-CPU list block carries it). */
static void set_block_order(struct page *page, unsigned int order)
{
	set_page_flags(page, (page_flags(page) & ~PAGE_ORDER_MASK) | order << PAGE_ORDER_SHIFT);
}

/*
 * pcp's lock held: the hot part of the list of slot and type mt goes before its cold part, which
 * then holds the whole list; one walk sets the hot blocks' links back (mm/zone.h). A flush does
 * it first, outside the zone lock: it walks only the blocks freed since the last one.
 */
static void pcp_cool(struct per_cpu_pages *pcp, unsigned int slot, unsigned int mt)
{
	struct list_head *cold = &pcp->lists[slot][mt], *first = pcp->types[mt].hot[slot], *last = cold;

	if (!first)
		return;
	for (struct list_head *l = first; l; last = l, l = l->next)
		l->prev = last;
	last->next = cold->next;
	cold->next->prev = last;
	cold->next = first;
	pcp->types[mt].hot[slot] = NULL;
}

/*
 * pcp's and its zone's locks held, the hot parts of its lists of slot cooled (pcp_cool()): gives
 * the coldest block of its list of slot and type mt (not empty) to the buddy lists.
 */
static void pcp_give_coldest_locked(struct per_cpu_pages *pcp, unsigned int slot, unsigned int mt)
{
	struct list_head *list = &pcp->lists[slot][mt];
	struct page *coldest = lru_to_page(list->prev);

	list_del(&coldest->lru);
	pcp_add_count(pcp, slot, -1); /* before mm_buddy_give() counts it */
	set_block_order(coldest, 0);
	mm_buddy_give(coldest, pcp_slot_order(slot));
}

/*
 * pcp's lock held, a block of slot taken for it: the block handed out (*page) if there is none
 * yet, else put on the list of its pageblock's type bt, at the tail: colder than what is there.
 */
static void pcp_refill_add(struct per_cpu_pages *pcp, unsigned int slot, struct page **page, struct page *block,
			   unsigned int bt)
{
	if (!*page) {
		*page = block;
		return;
	}
	MM_BUG_ON(bt >= MIGRATE_PCPTYPES, block, "a refill took a block of a pageblock of type %u", bt);
	set_block_order_type(block, pcp_slot_order(slot), bt);
	list_add(&block->lru, pcp->lists[slot][bt].prev);
	pcp_add_count(pcp, slot, 1);
}

/*
 * zone's lock held, pfn a frame of a block a refill just took from the buddy lists: the block of
 * order k beside the order-k block that holds pfn (its buddy), taken too when it is free there
 * whole, at exactly order k, in zone (mm_buddy_free_buddy(): a node's edge may split a pageblock
 * between two zones), and the watermark allows; else NULL (a buddy that is partly free is left
 * alone).
 */
static struct page *take_free_buddy(struct zone *zone, unsigned long pfn, unsigned int k, gfp_t gfp)
{
	unsigned long base = pfn & ~((1UL << k) - 1);
	struct page *buddy = mm_buddy_free_buddy(pfn_to_page(base), base, k);

	if (!buddy || !zone_watermark_ok(zone, k, gfp))
		return NULL;
	mm_buddy_take_free_block(zone, buddy);
	return buddy;
}

/*
 * zone's lock held: may a refill of type mt take frames beyond a batch that need mt to have n
 * free pageblocks of its own before it (a free block of a higher order counts as enough)?
 * An unmovable or reclaimable one may, whatever it leaves: its type's next refill claims a free
 * pageblock of another type, as the buddy's fallback does. A movable one only while mt keeps a
 * free pageblock: its other orders' refills would fall back into other types' pageblocks without
 * claiming them (mm/buddy.c), a movable page in each.
 */
static bool may_leave_type(const struct zone *zone, unsigned int mt, unsigned int n)
{
	const struct list_head *l = &zone->free_area[PAGEBLOCK_ORDER].free_list[mt], *e = l->next;

	if (mt != MIGRATE_MOVABLE || zone->free_orders[mt] >> (PAGEBLOCK_ORDER + 1))
		return true;
	for (; n && e != l; e = e->next)
		n--;
	return !n;
}

/*
 * zone's lock held, zone not busy, block (of order, type bt) the last one a refill of pcp's list
 * of slot took: takes the rest of the split that gave it, too (the free blocks of orders order..
 * PAGEBLOCK_ORDER - 1 beside it, each the other half of a block that holds it), while they fit in
 * half the list's high (see pcp_refill_pageblock()). A refill takes a batch of the smallest
 * blocks, splitting one when it has to; what it left of the split went to the next CPU's
 * refill, and two CPUs' lists held alternate runs of 32 or 64 frames of one pageblock, whose
 * struct pages are 1 or 2 KiB runs of one memmap page (two threads' batches of 1024 order-0
 * pairs ran at 1.3 times one thread's rate, make bench's SMP part after its one-thread rows;
 * 1.64-1.72 with the rest taken: a list that holds another type's frames may have no room for
 * all of it, and the next CPU's refill still takes what is left).
 * Its free blocks are all of bt (a pageblock's free blocks have its type). The caller calls it
 * only when may_leave_type() says so: a movable refill that took the rest of its type's last
 * split left its other orders' refills nothing, and they fell back into other types' pageblocks.
 */
static void take_split_rest(struct per_cpu_pages *pcp, unsigned int slot, struct zone *zone, struct page **page,
			    struct page *block, unsigned int bt, gfp_t gfp)
{
	unsigned int order = pcp_slot_order(slot);
	unsigned long pfn = page_to_pfn(block);

	for (unsigned int k = order; k < PAGEBLOCK_ORDER; k++) {
		unsigned int blocks = 1u << (k - order);
		struct page *sib;

		if (pcp_count_folded(pcp, slot) + blocks > pcp->high[slot] / 2u)
			return;
		if (!(sib = take_free_buddy(zone, pfn, k, gfp)))
			continue;
		for (unsigned int i = 0; i < blocks; i++) /* in address order, as a batch's */
			pcp_refill_add(pcp, slot, page, sib + ((unsigned long)i << order), bt);
	}
}

/*
 * Does zone have the room for reservations (pcp_reserve()): more free pageblocks' worth of frames
 * outside the lists than two for each type of each CPU? A refill that leaves another CPU's
 * reservation alone splits a free pageblock instead; in a small or full zone that cost 2 MiB
 * blocks: make test-fragbench's 128 MiB churn kept 0.583 of its free memory in them while live,
 * not 0.694, with refills that left reservations alone in any zone.
 */
static bool zone_has_room_to_reserve(const struct zone *zone)
{
	return zone_unlisted_free_pages(zone) >> PAGEBLOCK_ORDER > 2u * MIGRATE_PCPTYPES * mm_pcp_nr_cpus;
}

/* pcp's CPU plus 1, as struct pageblock_use holds it; 0 (no reservations) past what it can hold. */
static unsigned int pcp_cpu1(const struct per_cpu_pages *pcp)
{
	return pcp->cpu < UINT16_MAX ? pcp->cpu + 1 : 0;
}

/*
 * pcp's lock held: pcp's CPU no longer reserves its pageblock of type mt, if it has one. Without
 * the zone lock (a drain): a compare and exchange, which leaves another CPU's reservation alone.
 */
static void pcp_release(struct per_cpu_pages *pcp, unsigned int mt)
{
	uint32_t pb = pcp->types[mt].reserve;
	uint16_t mine = (uint16_t)pcp_cpu1(pcp);

	if (!pb)
		return;
	pcp->types[mt].reserve = 0;
	__atomic_compare_exchange_n(&pcp_zone(pcp)->pageblock_use[pb - 1].cpu, &mine, 0, false, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
}

/*
 * pcp's and zone's locks held, pcp's CPU one a pageblock can name (pcp_cpu1()), block (of order
 * below a pageblock's, in a pageblock of type mt) the last one a refill of pcp's lists of type mt
 * took from the buddy lists: while its pageblock keeps free frames, pcp's CPU reserves it for the
 * refills of type mt (one pageblock a type), releasing the one before. Other CPUs' refills leave
 * a reserved pageblock's free blocks alone while they find others (mm_buddy_take_cpu()), so that
 * this CPU's next refills take them, and two CPUs' lists do not hold frames of one pageblock:
 * their struct pages are 16 KiB of memmap, and two cores writing struct pages that close take
 * each other's cache lines away (pcp_refill_pageblock()). Without it, a CPU whose list had room
 * for only part of a split left the rest to the next CPU's refill: frames of one pageblock on
 * both lists, and two threads' batches of 1024 order-0 pairs at 1.62-1.72 times one thread's rate
 * after the one-thread rows (make report's host benchmark; 1.86-1.87 with it). LLFree reserves a
 * 2 MiB region per CPU for the same reason.
 */
static __attribute__((noinline)) void pcp_reserve(struct per_cpu_pages *pcp, struct zone *zone, unsigned int mt,
						 const struct page *block)
{
	unsigned long pfn = page_to_pfn(block);
	uint32_t pb = (uint32_t)pageblock_index(zone, pfn) + 1;

	if (pb == pcp->types[mt].reserve && pageblock_reserver(zone, pfn) == pcp_cpu1(pcp))
		return; /* another CPU may have reserved it since, and released it */
	pcp_release(pcp, mt);
	if (!zone->pageblock_use[pb - 1].free)
		return; /* nothing of it left to keep */
	__atomic_store_n(&zone->pageblock_use[pb - 1].cpu, (uint16_t)pcp_cpu1(pcp), __ATOMIC_RELAXED);
	pcp->types[mt].reserve = pb;
}

/*
 * pcp's and zone's locks held, zone not busy, pcp's list of order (below a pageblock) to refill:
 * when type mt has no free block smaller than a pageblock, so that the refill would split a
 * pageblock anyway, takes a pageblock whole (mt's, or a free one of another type, claimed:
 * mm_buddy_take()) and puts all its blocks of order on pcp's list, the first one handed out,
 * rather than a batch of them with the rest left in the buddy lists. NULL (nothing taken) when
 * mt has a smaller free block (a refill takes those first, a batch of the smallest, so that
 * pageblocks stay whole), when mt is movable and has under two free pageblocks
 * (may_leave_type(): a movable refill never claims, and one that took its type's last pageblock
 * made the other orders' refills fall back), when the blocks would fill more than half the list's
 * high, when the watermark says no, or when no free pageblock is left. Half: the free fast path
 * pushes only into the room under high that the slow paths have counted (struct per_cpu_pages'
 * room), and a list refilled up to its high took the slow path on every fourth free of a run of
 * single pairs (80 instructions a pair, not 60).
 * Why whole: batches taken from a split pageblock leave the rest for the next CPU's refill, so
 * two CPUs' lists held alternate runs of 32 frames, whose struct pages are 1 KiB runs of one
 * memmap page. Each core writes only its own lines there, yet two cores writing struct pages that
 * close kept taking each other's lines away (most likely through the hardware's prefetchers): two
 * threads allocating and freeing in batches of 1024 ran at 1.3-1.6 times one thread's rate (make
 * bench, the SMP part), where 64 frames of each CPU's 1024 were such; the same pattern without
 * the allocator, every run alternating, at 0.4. A pageblock's struct pages are 16 KiB: two CPUs'
 * frames then meet only at a pageblock's edge. Taking whole pageblocks even when smaller free
 * blocks were there spread the fragmentation benchmark's LLFree workload over more pageblocks
 * (make fragbench, 1 GiB: 2 % of the free memory in 2 MiB blocks while live, not 19 %).
 */
static struct page *pcp_refill_pageblock(struct per_cpu_pages *pcp, struct zone *zone, unsigned int order,
					 unsigned int mt, gfp_t gfp)
{
	unsigned int slot = pcp_order_slot(order), blocks = PAGEBLOCK_NR_PAGES >> order;
	/* mt's free blocks of order up to a pageblock's (bit i: order + i) */
	unsigned int smaller = (zone->free_orders[mt] >> order) & ((1u << (PAGEBLOCK_ORDER - order)) - 1);
	struct page *block, *page = NULL;

	if (smaller || !may_leave_type(zone, mt, 2) || pcp_count_folded(pcp, slot) + blocks > pcp->high[slot] / 2u ||
	    !zone_watermark_ok(zone, PAGEBLOCK_ORDER, gfp) || !(block = mm_buddy_take(zone, PAGEBLOCK_ORDER, mt)))
		return NULL;
	MM_BUG_ON(get_pageblock_migratetype(block) != mt, block, "a refill's pageblock of type %u is not of type %u",
		  get_pageblock_migratetype(block), mt);
	for (unsigned int i = 0; i < blocks; i++) /* in address order, as a batch's */
		pcp_refill_add(pcp, slot, &page, block + ((unsigned long)i << order), mt);
	return page;
}

/*
 * pcp's lock held: gives the n coldest blocks of pcp's lists of slot (mm/zone.h: the order, or
 * PCP_PAGEBLOCK_SLOT) to the buddy lists, taking from the types' lists in turn.
 */
static void pcp_flush(struct per_cpu_pages *pcp, unsigned int slot, unsigned int n);

/*
 * The type of the list of slot the next block to flush comes from: the types in turn, starting
 * after *last, skipping empty lists (their hot parts cooled). One of them holds a block
 * (pcp_count() is not 0).
 */
static unsigned int next_flush_list(struct per_cpu_pages *pcp, unsigned int slot, unsigned int *last)
{
	for (unsigned int i = 1; i <= MIGRATE_PCPTYPES; i++) {
		unsigned int t = (*last + i) % MIGRATE_PCPTYPES;

		if (!list_empty(&pcp->lists[slot][t])) {
			*last = t;
			return t;
		}
	}
	MM_BUG_ON(true, NULL, "per-CPU lists of slot %u: count %u but every list empty", slot, pcp_count_folded(pcp, slot));
	return 0;
}

/* zone's lock held: adds delta to its hand-off lists' frames (an atomic store: read without the lock). */
static void handoff_add_pages(struct zone *zone, long delta)
{
	__atomic_store_n(&zone->pcp_handoff_pages, zone->pcp_handoff_pages + (unsigned long)delta, __ATOMIC_RELAXED);
}

/*
 * zone's lock held: gives every whole pageblock of its hand-off lists (struct zone) to its buddy
 * lists; returns how many.
 */
static unsigned long handoff_to_buddy_locked(struct zone *zone)
{
	unsigned long blocks = 0;

	for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++) {
		struct list_head *head = &zone->pcp_handoff[t];

		while (!list_empty(head)) {
			struct page *page = lru_to_page(head->next);

			list_del(&page->lru);
			zone->pcp_handoff_count[t]--;
			handoff_add_pages(zone, -(long)PAGEBLOCK_NR_PAGES); /* before mm_buddy_give() counts it */
			set_block_order(page, 0);
			mm_buddy_give(page, PAGEBLOCK_ORDER);
			blocks++;
		}
	}
	return blocks;
}

/* Moves the chain of blocks first..last (linked among themselves) to the tail of list head. */
static void splice_tail(struct list_head *first, struct list_head *last, struct list_head *head)
{
	first->prev = head->prev;
	head->prev->next = first;
	last->next = head;
	head->prev = last;
}

/*
 * pcp's and zone's locks held, pcp's list of whole pageblocks of type mt empty: takes zone's
 * whole hand-off list of type mt, if its blocks fit under pcp's high, in O(1): the first block
 * to hand out (its order and type in its flags, as a per-CPU list's), the others onto pcp's list.
 * NULL when there is none or no room.
 */
static struct page *take_handoff_locked(struct per_cpu_pages *pcp, struct zone *zone, unsigned int mt)
{
	struct list_head *head = &zone->pcp_handoff[mt], *first = head->next, *last = head->prev;
	unsigned int n = zone->pcp_handoff_count[mt], slot = PCP_PAGEBLOCK_SLOT;

	if (!n || pcp_count_folded(pcp, slot) + n - 1 > pcp->high[slot])
		return NULL;
	list_init(head);
	zone->pcp_handoff_count[mt] = 0;
	handoff_add_pages(zone, -(long)((unsigned long)n << PAGEBLOCK_ORDER)); /* before pcp's count has them */
	if (n > 1) {
		splice_tail(first->next, last, &pcp->lists[slot][mt]);
		pcp_add_count(pcp, slot, (int)n - 1);
	}
	return lru_to_page(first);
}

/*
 * pcp's lock held, its list of whole pageblocks over its high: hands its n coldest blocks, as they are, to its zone's hand-off lists,
 * where another CPU's refill takes them whole (take_handoff_locked()). A hand-off list holds two
 * of the list's batches at most (a batch follows the spare memory: a small machine's holds
 * little); what does not fit goes to the buddy lists. The blocks are unlinked before the zone lock
 * is taken; under it, a splice per type.
 */
static void pcp_hand_off(struct per_cpu_pages *pcp, unsigned int n)
{
	struct zone *zone = pcp_zone(pcp);
	struct list_head chain[MIGRATE_PCPTYPES];
	unsigned int len[MIGRATE_PCPTYPES] = { 0 }, last = MIGRATE_PCPTYPES - 1, slot = PCP_PAGEBLOCK_SLOT;
	unsigned long flags;

	if (!n)
		return;
	for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++) {
		list_init(&chain[t]);
		pcp_cool(pcp, slot, t);
	}
	for (; n && pcp_count_folded(pcp, slot); n--) {
		struct page *coldest = lru_to_page(pcp->lists[slot][next_flush_list(pcp, slot, &last)].prev);

		list_del(&coldest->lru);
		list_add(&coldest->lru, &chain[last]); /* coldest last, as on the list */
		len[last]++;
		pcp_add_count(pcp, slot, -1);
	}
	flags = zone_lock(zone);
	for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++) {
		if (!len[t])
			continue;
		if (zone->pcp_handoff_count[t] + len[t] <= 2u * pcp->batch[slot]) {
			splice_tail(chain[t].next, chain[t].prev, &zone->pcp_handoff[t]);
			zone->pcp_handoff_count[t] = (uint16_t)(zone->pcp_handoff_count[t] + len[t]);
			handoff_add_pages(zone, (long)((unsigned long)len[t] << PAGEBLOCK_ORDER));
			continue;
		}
		while (!list_empty(&chain[t])) {
			struct page *page = lru_to_page(chain[t].next);

			list_del(&page->lru);
			set_block_order(page, 0);
			mm_buddy_give(page, PAGEBLOCK_ORDER);
		}
	}
	zone_unlock(zone, flags);
}

struct page *mm_pcp_refill(struct per_cpu_pages *pcp, struct zone *zone, unsigned int order, unsigned int mt,
			gfp_t gfp)
{
	unsigned int slot = pcp_order_slot(order), bt = mt, cpu1;
	unsigned long flags;
	struct page *page = NULL, *last = NULL;

	MM_BUG_ON(!pcp_lists_locked(pcp), NULL, "CPU %u's lists not locked", pcp->cpu);
	MM_BUG_ON(!pcp_holds_order(order), NULL, "refilling a per-CPU list of order %u", order);
	pcp_retune(pcp, slot); /* the caller folded the slot (pcp_count_folded() checks) */
	if (pcp_count_folded(pcp, slot) > pcp->high[slot])
		pcp_flush(pcp, slot, pcp_count_folded(pcp, slot) - pcp->high[slot]);
	if (zone_busy(zone))
		pcp_flush(pcp, PCP_PAGEBLOCK_SLOT, pcp_count_folded(pcp, PCP_PAGEBLOCK_SLOT)); /* see mm_pcp_give_slow_unlock() */
	flags = zone_lock(zone);
	if (zone_busy(zone))
		handoff_to_buddy_locked(zone); /* the hand-off lists' pageblocks too */
	else if ((page = slot == PCP_PAGEBLOCK_SLOT ? take_handoff_locked(pcp, zone, mt)
						 : pcp_refill_pageblock(pcp, zone, order, mt, gfp))) {
		zone_unlock(zone, flags);
		return page;
	}
	/*
	 * The first block is the one handed out; the others go on the list of their pageblock's
	 * type, in address order, while the lists of order are under their high; an order-0 frame
	 * comes with the other frame of its pair (its order-1 block) when that one is free on its
	 * own. The two frames' struct pages share a cache line (two 32-byte struct pages a line):
	 * two CPUs each holding one of them would move the line between them on every allocation
	 * and free, and a batch that takes an odd number of frames from a split would leave the
	 * other one to the next CPU's refill. A block from another type's pageblock (a fallback)
	 * ends the batch: the allocations after it should find their own type's blocks first.
	 * Whole pageblocks split nothing: they reserve none.
	 */
	cpu1 = slot != PCP_PAGEBLOCK_SLOT && zone_has_room_to_reserve(zone) ? pcp_cpu1(pcp) : 0;
	for (unsigned int n = 0; n < pcp->batch[slot] && (!page || pcp_count_folded(pcp, slot) < pcp->high[slot]) &&
				 zone_watermark_ok(zone, order, gfp);
	     n++) {
		struct page *block = mm_buddy_take_cpu(zone, order, mt, cpu1);
		struct page *pair;

		if (!block)
			break;
		last = block;
		bt = get_pageblock_migratetype(block);
		pcp_refill_add(pcp, slot, &page, block, bt);
		if (!order && pcp_count_folded(pcp, slot) < pcp->high[slot] && (pair = take_free_buddy(zone, page_to_pfn(block), 0, gfp))) {
			pcp_refill_add(pcp, slot, &page, pair, bt);
			n++;
		}
		if (bt != mt)
			break;
	}
	if (last && bt == mt && may_leave_type(zone, mt, 1) && !zone_busy(zone))
		take_split_rest(pcp, slot, zone, &page, last, bt, gfp);
	if (cpu1 && last && bt == mt)
		pcp_reserve(pcp, zone, mt, last);
	zone_unlock(zone, flags);
	return page;
}

static void pcp_flush(struct per_cpu_pages *pcp, unsigned int slot, unsigned int n)
{
	struct zone *zone = pcp_zone(pcp);
	unsigned int last = MIGRATE_PCPTYPES - 1;
	unsigned long flags;

	MM_BUG_ON(!pcp_lists_locked(pcp), NULL, "CPU %u's lists not locked", pcp->cpu);
	if (!n || !pcp_count_folded(pcp, slot))
		return; /* no zone lock for nothing */
	for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++)
		pcp_cool(pcp, slot, t);
	flags = zone_lock(zone);
	for (; n && pcp_count_folded(pcp, slot); n--)
		pcp_give_coldest_locked(pcp, slot, next_flush_list(pcp, slot, &last));
	zone_unlock(zone, flags);
}

/*
 * The blocks a list at or over its high gives back: its batch when one over (the fast path's
 * case), more when its high has come down since.
 */
static unsigned int pcp_over_high(const struct per_cpu_pages *pcp, unsigned int slot)
{
	unsigned int keep = pcp->high[slot] + 1u - pcp->batch[slot];

	return pcp_count_folded(pcp, slot) > keep ? pcp_count_folded(pcp, slot) - keep : 0;
}

/*
 * Does a free of the block at page, for a list of slot, go straight to the buddy lists? When the
 * lists are off (not on), or the zone is busy and the block a whole pageblock or one of a sparse
 * pageblock. A busy zone's whole pageblocks go back to the buddy lists (and a refill there takes
 * back those a CPU keeps): kept on one CPU's list they would make the other CPUs' allocations
 * fall back into pageblocks of other types.
 */
static bool pcp_free_goes_to_buddy(const struct zone *zone, const struct page *page, unsigned int slot, bool on,
				   bool busy)
{
	return !on || (busy && (slot == PCP_PAGEBLOCK_SLOT || pageblock_sparse(zone, page_to_pfn(page))));
}

bool mm_pcp_free_bypasses(const struct page *page)
{
	const struct zone *zone = page_zone(page);

	return pcp_free_goes_to_buddy(zone, page, 0, mm_pcp_lists_on, zone_busy(zone));
}

void mm_pcp_give_slow_unlock(struct page *page, unsigned int order, struct per_cpu_pages *pcp, unsigned long irq)
{
	unsigned int slot = pcp_order_slot(order);

	MM_BUG_ON(!pcp_lists_locked(pcp), page, "CPU %u's lists not locked", pcp->cpu);
	/*
	 * The fast path's allocations since the last fold made room the free fast path did not see
	 * (struct pcp_type_lists): with it, the room pcp_take_room() took is there, and the block
	 * goes on the list as the fast path would have put it.
	 */
	if (pcp_fold(pcp, slot) && pcp->room[slot] >= 0) {
		pcp_push_counted(pcp, page, slot, page_pcptype(page));
		pcp_unlock(pcp, irq);
		return;
	}
	pcp_add_count(pcp, slot, -1); /* the room pcp_take_room() took */
	pcp_retune(pcp, slot);
	/* pcp_retune() just set high (0: lists off) and fast_high (0: busy) from the zone. */
	if (pcp_free_goes_to_buddy(pcp_zone(pcp), page, slot, pcp->high[slot], !pcp->fast_high[slot])) {
		struct zone *zone = pcp_zone(pcp);

		MM_BUG_ON(page_zone(page) != zone, page, "a block of zone %s freed to lists of zone %s", page_zone(page)->name,
			  zone->name);
		set_block_order(page, 0);
		arch_spin_lock(&zone->lock); /* interrupts are off: no second save (buddy_give_locked()) */
		mm_buddy_give(page, order);
		arch_spin_unlock(&zone->lock);
		/* high may just have dropped (the zone became busy): what is over it goes back too */
		if (pcp_count_folded(pcp, slot) > pcp->high[slot])
			pcp_flush(pcp, slot, pcp_count_folded(pcp, slot) - pcp->high[slot]);
	} else {
		pcp_push(pcp, page, slot, page_pcptype(page));
		if (slot == PCP_PAGEBLOCK_SLOT)
			pcp_hand_off(pcp, pcp_over_high(pcp, slot));
		else
			pcp_flush(pcp, slot, pcp_over_high(pcp, slot));
	}
	pcp_unlock(pcp, irq);
}

/*
 * Gives every block of one CPU's lists for one zone back; returns the blocks moved. With on
 * given (0 or 1), also sets the lists' high for the lists on or off, under the same hold. The
 * caller may use pcp: it is its own CPU's, or arch_run_on_cpus() made it so.
 */
static unsigned long drain_pcp(struct per_cpu_pages *pcp, int on)
{
	unsigned long flags = pcp_lock(pcp), blocks = 0;
	unsigned int z = pcp_zone_index(pcp);

	for (unsigned int slot = 0; slot < PCP_NR_SLOTS; slot++) {
		pcp_fold(pcp, slot);
		if (on >= 0)
			pcp_set_high(pcp, slot, on ? pcp_high_now(pcp, &mm_zones[z], slot) : 0, zone_busy(&mm_zones[z]));
		blocks += pcp_count_folded(pcp, slot);
		pcp_flush(pcp, slot, pcp_count_folded(pcp, slot));
	}
	for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++)
		pcp_release(pcp, t); /* nothing of them left on its lists */
	pcp_unlock(pcp, flags);
	return blocks;
}

/* What drain_cpu() is asked to do, and what it adds its blocks to (CPUs may run it at once). */
struct drain_request {
	int on;
	unsigned long blocks;
};

/* arch_run_on_cpus()'s function: drains (and with req->on, turns on or off) cpu's lists. */
static void drain_cpu(unsigned int cpu, void *arg)
{
	struct drain_request *req = arg;
	unsigned long blocks = 0;

	if (cpu >= mm_pcp_nr_cpus)
		return;
	for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
		blocks += drain_pcp(cpu_pcp(cpu, z), req->on);
	__atomic_fetch_add(&req->blocks, blocks, __ATOMIC_RELAXED);
}

/*
 * Do the lists of a CPU other than me hold a block? Read racily (atomic counts): a hint that
 * spares a drain the cross-CPU call when only the caller's lists hold anything (compaction
 * drains after every batch it moves).
 */
static bool others_hold_blocks(unsigned int me)
{
	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; cpu != me && z < mm_nr_zone_ids; z++)
			if (mm_pcp_free_pages(cpu_pcp(cpu, z)))
				return true;
	return false;
}

/*
 * Gives every zone's hand-off lists to its buddy lists; returns the blocks moved. After the CPUs'
 * drains: a CPU may hand off what its list held until its own drain.
 */
static unsigned long drain_handoffs(void)
{
	unsigned long blocks = 0;

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++) {
		unsigned long flags = zone_lock(&mm_zones[z]);

		blocks += handoff_to_buddy_locked(&mm_zones[z]);
		zone_unlock(&mm_zones[z], flags);
	}
	return blocks;
}

unsigned long mm_pcp_handoff_pages(const struct zone *zone)
{
	return __atomic_load_n(&zone->pcp_handoff_pages, __ATOMIC_RELAXED);
}

/*
 * Drains every CPU's lists, each on its CPU (arch_run_on_cpus()), then the zones' hand-off lists;
 * a plain drain (on < 0) does only the caller's when no other CPU's lists hold a block. When the caller cannot wait for the
 * others (may_wait_for_other_cpus()) it drains its own lists only.
 */
static unsigned long drain_all(int on)
{
	struct drain_request req = { .on = on };

	if (!may_wait_for_other_cpus() || (on < 0 && !others_hold_blocks(arch_cpu_id())))
		drain_cpu(arch_cpu_id(), &req);
	else
		arch_run_on_cpus(drain_cpu, &req);
	return __atomic_load_n(&req.blocks, __ATOMIC_RELAXED) + drain_handoffs();
}

unsigned long drain_pcp_lists(void)
{
	return drain_all(-1);
}

bool set_pcp_lists(bool on)
{
	bool was = __atomic_exchange_n(&mm_pcp_lists_on, on, __ATOMIC_RELAXED);

	drain_all(on);
	return was;
}
