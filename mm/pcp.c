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

bool pcp_lists_on = true;
struct per_cpu_pages *pcp_area;
unsigned int pcp_nr_cpus;

int pcp_init(unsigned int nr_cpus)
{
	size_t bytes;
	phys_addr_t phys;

	pcp_nr_cpus = nr_cpus ? nr_cpus : 1;
	bytes = (size_t)pcp_nr_cpus * MAX_NR_ZONES * sizeof(struct per_cpu_pages);
	phys = memblock_alloc_named(ALIGN_UP(bytes, PAGE_SIZE), PAGE_SIZE, UINT64_MAX, "per-CPU lists");
	if (!phys) {
		printk("mm: no memory for the per-CPU page lists of %u CPUs (%zu bytes)\n", pcp_nr_cpus, bytes);
		return -ENOMEM;
	}
	pcp_area = phys_to_virt(phys);
	memset(pcp_area, 0, bytes); /* all-zero locks are unlocked */
	for (unsigned int cpu = 0; cpu < pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < MAX_NR_ZONES; z++) {
			struct per_cpu_pages *pcp = cpu_pcp(cpu, z);

			pcp->cpu = cpu;
			lock_set_class(&pcp->lock, "per_cpu_pages->lock");
			for (unsigned int o = 0; o <= PCP_MAX_ORDER; o++)
				for (unsigned int t = 0; t < MIGRATE_TYPES; t++)
					list_init(&pcp->lists[o][t]);
		}
	return 0;
}

/*
 * The high of a list of order in zone now: 2^-PCP_SPARE_SHARE_SHIFT of the zone's spare memory
 * (the frames in its buddy lists above 2^-PCP_RESERVE_SHIFT of the zone), in blocks of order,
 * shared among the CPUs, between PCP_MIN_HIGH_BLOCKS and PCP_HIGH_BLOCKS. A busy zone's lists
 * are short, so that its free memory stays in the buddy lists where it merges; an idle one's
 * are long, so that a burst of allocations and frees stays on them.
 */
static unsigned int pcp_high_now(const struct zone *zone, unsigned int order)
{
	unsigned long free = __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED);
	unsigned long reserve = zone->managed_pages >> PCP_RESERVE_SHIFT;
	unsigned long blocks = free > reserve ? ((free - reserve) >> (PCP_SPARE_SHARE_SHIFT + order)) / pcp_nr_cpus : 0;

	return (unsigned int)MAX(PCP_MIN_HIGH_BLOCKS, MIN(PCP_HIGH_BLOCKS, blocks));
}

/* The batch of a list whose high is high: an eighth of it, at least one, at most PCP_BATCH_BLOCKS. */
static unsigned int pcp_batch_for(unsigned int high)
{
	return MAX(1u, MIN(PCP_BATCH_BLOCKS, high / 8u));
}

/* Is zone busy: its buddy lists' free frames at or under 2^-PCP_RESERVE_SHIFT of it? */
static bool zone_busy(const struct zone *zone)
{
	return __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_RELAXED) <= zone->managed_pages >> PCP_RESERVE_SHIFT;
}

/*
 * pcp's lock held: sets the high and batch of its list of order (atomic stores: show_mem reads
 * them), and the free fast path's limit: high, or 0 while busy (every free then takes the slow
 * path, pcp_give_slow_unlock()).
 */
static void pcp_set_high(struct per_cpu_pages *pcp, unsigned int order, unsigned int high, bool busy)
{
	__atomic_store_n(&pcp->high[order], (uint16_t)high, __ATOMIC_RELAXED);
	__atomic_store_n(&pcp->batch[order], (uint16_t)pcp_batch_for(high), __ATOMIC_RELAXED);
	pcp->fast_high[order] = (uint16_t)(busy ? 0 : high);
}

/* The zone pcp's lists are for. */
static struct zone *pcp_zone(const struct per_cpu_pages *pcp)
{
	return &zones[(unsigned int)(pcp - pcp_area) % MAX_NR_ZONES];
}

/*
 * pcp's lock held, its lists on: sets the high of its list of order from its zone's spare memory
 * now (pcp_high_now()). The caller flushes what is over it.
 */
static void pcp_retune(struct per_cpu_pages *pcp, unsigned int order)
{
	if (pcp->high[order])
		pcp_set_high(pcp, order, pcp_high_now(pcp_zone(pcp), order), zone_busy(pcp_zone(pcp)));
}

void pcp_set_limits(void)
{
	for (unsigned int cpu = 0; cpu < pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
			for (unsigned int o = 0; o <= PCP_MAX_ORDER; o++)
				pcp_set_high(cpu_pcp(cpu, z), o, pcp_lists_on ? pcp_high_now(&zones[z], o) : 0,
					     zone_busy(&zones[z]));
}

unsigned long pcp_free_pages(const struct per_cpu_pages *pcp)
{
	unsigned long pages = 0;

	for (unsigned int o = 0; o <= PCP_MAX_ORDER; o++)
		pages += (unsigned long)__atomic_load_n(&pcp->count[o], __ATOMIC_RELAXED) << o;
	return pages;
}

/* Sets or clears the order field of a block's first page (a per-CPU list block carries it). */
static void set_block_order(struct page *page, unsigned int order)
{
	set_page_flags(page, (page_flags(page) & ~PAGE_ORDER_MASK) | order << PAGE_ORDER_SHIFT);
}

struct page *pcp_refill(struct per_cpu_pages *pcp, struct zone *zone, unsigned int order, unsigned int mt,
			gfp_t gfp)
{
	unsigned long flags;
	struct page *page = NULL;

	MM_BUG_ON(!lock_held(&pcp->lock), NULL, "CPU %u's lists not locked", pcp->cpu);
	pcp_retune(pcp, order);
	if (pcp->count[order] > pcp->high[order])
		pcp_flush(pcp, order, pcp->count[order] - pcp->high[order]);
	flags = zone_lock(zone);
	/*
	 * The first block is the one handed out; the others go on the list of their pageblock's
	 * type, in address order, while the lists of order are under their high. A block from
	 * another type's pageblock (a fallback) ends the batch: the allocations after it should
	 * find their own type's blocks first.
	 */
	for (unsigned int n = 0; n < pcp->batch[order] && (!page || pcp->count[order] < pcp->high[order]) &&
				 zone_watermark_ok(zone, order, gfp);
	     n++) {
		struct page *block = buddy_take(zone, order, mt);
		unsigned int bt;

		if (!block)
			break;
		bt = get_pageblock_migratetype(block);
		if (!page) {
			page = block;
		} else {
			set_block_order_type(block, order, bt);
			list_add(&block->lru, pcp->lists[order][bt].prev); /* at the tail: colder than what is there */
			pcp_set_count(pcp, order, pcp->count[order] + 1);
		}
		if (bt != mt)
			break;
	}
	zone_unlock(zone, flags);
	return page;
}

/*
 * The list of order the next block to flush comes from: the types in turn, starting after
 * *last, skipping empty lists. One of them holds a block (count[order] is not 0).
 */
static struct list_head *next_flush_list(struct per_cpu_pages *pcp, unsigned int order, unsigned int *last)
{
	for (unsigned int i = 1; i <= MIGRATE_TYPES; i++) {
		unsigned int t = (*last + i) % MIGRATE_TYPES;

		if (!list_empty(&pcp->lists[order][t])) {
			*last = t;
			return &pcp->lists[order][t];
		}
	}
	MM_BUG_ON(true, NULL, "per-CPU lists of order %u: count %u but every list empty", order, pcp->count[order]);
	return NULL;
}

void pcp_flush(struct per_cpu_pages *pcp, unsigned int order, unsigned int n)
{
	struct zone *zone = pcp_zone(pcp);
	unsigned int last = MIGRATE_TYPES - 1;
	unsigned long flags;

	MM_BUG_ON(!lock_held(&pcp->lock), NULL, "CPU %u's lists not locked", pcp->cpu);
	if (!pcp->count[order])
		return;
	flags = zone_lock(zone);
	for (; n && pcp->count[order]; n--) {
		struct page *coldest = lru_to_page(next_flush_list(pcp, order, &last)->prev);

		list_del(&coldest->lru);
		pcp_set_count(pcp, order, pcp->count[order] - 1); /* before buddy_give() counts it */
		set_block_order(coldest, 0);
		buddy_give(coldest, order);
	}
	zone_unlock(zone, flags);
}

/*
 * The blocks a list at or over its high gives back: its batch when one over (the fast path's
 * case), more when its high has come down since.
 */
static unsigned int pcp_over_high(const struct per_cpu_pages *pcp, unsigned int order)
{
	unsigned int keep = pcp->high[order] + 1u - pcp->batch[order];

	return pcp->count[order] > keep ? pcp->count[order] - keep : 0;
}

bool pcp_free_bypasses(const struct page *page)
{
	const struct zone *zone = &zones[page_zonenum(page)];

	return !pcp_lists_on || (zone_busy(zone) && pageblock_sparse(zone, page_to_pfn(page)));
}

void pcp_give_slow_unlock(struct per_cpu_pages *pcp, struct page *page, unsigned int order, unsigned long irq)
{
	MM_BUG_ON(!lock_held(&pcp->lock), page, "CPU %u's lists not locked", pcp->cpu);
	pcp_retune(pcp, order);
	if (!pcp->high[order] || (!pcp->fast_high[order] && pageblock_sparse(pcp_zone(pcp), page_to_pfn(page)))) {
		/* The lists are off, or the zone is busy and the block's pageblock sparse. */
		set_block_order(page, 0);
		buddy_give_locked(page, order);
	} else {
		pcp_push(pcp, page, order, page_pcptype(page), pcp->count[order]);
		pcp_flush(pcp, order, pcp_over_high(pcp, order));
	}
	pcp_unlock(pcp, irq);
}

/*
 * Gives every block of one CPU's lists for one zone back; returns the blocks moved. With on
 * given (0 or 1), also sets the lists' high for the lists on or off, under the same hold.
 */
static unsigned long drain_pcp(struct per_cpu_pages *pcp, int on)
{
	unsigned long flags = pcp_lock(pcp), blocks = 0;
	unsigned int z = (unsigned int)(pcp - pcp_area) % MAX_NR_ZONES;

	for (unsigned int o = 0; o <= PCP_MAX_ORDER; o++) {
		if (on >= 0)
			pcp_set_high(pcp, o, on ? pcp_high_now(&zones[z], o) : 0, zone_busy(&zones[z]));
		blocks += pcp->count[o];
		pcp_flush(pcp, o, pcp->count[o]);
	}
	pcp_unlock(pcp, flags);
	return blocks;
}

static unsigned long drain_all(int on)
{
	unsigned long blocks = 0;

	for (unsigned int cpu = 0; cpu < pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
			blocks += drain_pcp(cpu_pcp(cpu, z), on);
	return blocks;
}

unsigned long drain_pcp_lists(void)
{
	return drain_all(-1);
}

bool set_pcp_lists(bool on)
{
	bool was = __atomic_exchange_n(&pcp_lists_on, on, __ATOMIC_RELAXED);

	drain_all(on);
	return was;
}
