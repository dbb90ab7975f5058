/* SPDX-License-Identifier: MIT */
/*
 * Zones: the parts of physical memory that device limits force us to tell apart, each with its
 * own buddy free lists.
 *
 *   ZONE_DMA     [0, dma_end)          reachable by the most limited devices (__GFP_DMA)
 *   ZONE_DMA32   [dma_end, dma32_end)  reachable by 32-bit devices           (__GFP_DMA32)
 *   ZONE_NORMAL  [dma32_end, ...)      everything else
 *
 * The environment gives the limits to mm_init() (a PC: 16 MiB and 4 GiB). Both are multiples of
 * the largest buddy block (4 MiB), so a block never straddles two zones and a block's buddy is
 * always in the block's zone.
 */
#ifndef MM_ZONE_H
#define MM_ZONE_H

#include "mm/arch.h"
#include "mm/lock_check.h"
#include "mm/node.h"
#include "mm/page.h"
#include "mm/pageblock_types.h"

/* Largest buddy order: blocks of 2^MAX_ORDER pages (4 MiB). */
#define MAX_ORDER 10
#define NR_ORDERS (MAX_ORDER + 1)

enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, MAX_NR_ZONES };

/*
 * Each node (mm/node.h) has the three zones, each as its memory falls: mm_zones[] holds node n's
 * zone of type t at index n * MAX_NR_ZONES + t, its "zone index", which a struct page's flags
 * carry (page_zonenum(), mm/page.h). With one node the zone index is the zone type. Zones of
 * nodes past mm_nr_node_ids, and a node's zones without memory, stay empty.
 */
#define MAX_NR_ZONE_IDS (MAX_NUMNODES * MAX_NR_ZONES)
_Static_assert(MAX_NR_ZONE_IDS <= ZONES_MASK + 1, "a page's flags hold every zone index");

/* Zones 0 .. mm_nr_zone_ids - 1 belong to a node: mm_nr_node_ids * MAX_NR_ZONES. */
extern unsigned int mm_nr_zone_ids;

/* The first frame above ZONE_DMA and above ZONE_DMA32 (set by mm_init()). */
extern unsigned long mm_zone_dma_end_pfn, mm_zone_dma32_end_pfn;
#define ZONE_DMA_END_PFN mm_zone_dma_end_pfn
#define ZONE_DMA32_END_PFN mm_zone_dma32_end_pfn

/*
 * The free blocks of one order in one zone, one list per mobility type: a block is on the list of
 * the type of its pageblock (mm/pageblock.h); a block of a pageblock or more has pageblocks all of
 * that one type.
 */
struct free_area {
	struct list_head free_list[MIGRATE_TYPES]; /* first pages of the free blocks (PG_buddy, private = order) */
	unsigned long nr_free;                     /* blocks on all the lists */
};

/*
 * Per-CPU page lists ("pcp lists", Linux's pcp): each CPU keeps, for each zone and each order
 * 0..PCP_MAX_ORDER, a list of recently freed blocks, kept whole (not merged) and handed out
 * first. An alloc/free pair then costs a push and a pop on the CPU's own lists instead of
 * splitting and re-merging a large block under the zone lock. A block on a per-CPU list has
 * count 0 and no PG_buddy (so the buddy merge never takes it), and keeps its order in its first
 * page's flags (PAGE_ORDER_MASK, as an allocated plain block has it: neither the alloc nor the
 * free fast path then touches the flags); its lru links it into the list.
 * There is a list per order and per mobility type an allocation can ask for (unmovable, movable,
 * reclaimable: types 0..2 of mm/pageblock_types.h; the fourth slot, MIGRATE_ISOLATE's, stays
 * empty, so that a gfp asking for both movable and reclaimable finds nothing and takes the slow
 * path, which refuses it). A block goes on the list of its pageblock's type, as it was when the
 * block left the buddy lists, and carries that type in its flags (PAGE_PCPTYPE_MASK), so that the
 * free fast path knows the list without reading the pageblock; the buddy lists, when the block
 * goes back, go by its pageblock's type then.
 * A list over high gives its batch coldest blocks back to the buddy lists in one hold of the zone
 * lock; an empty one takes batch blocks from them in one hold. high, batch and count are per
 * order, for all the types together. set_pcp_lists(false)
 * (mm/pcp.h) turns them off, leaving the plain buddy allocator.
 */
#define PCP_MAX_ORDER 3
/*
 * And whole pageblocks (PAGEBLOCK_ORDER, 2 MiB): one more slot of lists, after the orders'
 * (slot PCP_PAGEBLOCK_SLOT; a slot of order <= PCP_MAX_ORDER is its order). Without it every
 * 2 MiB allocation and free took the zone lock, and two CPUs together got less than one alone.
 * A pageblock-order block is a whole pageblock, so holding it unmerged splits nothing: the lists
 * cost only its merge into a 4 MiB block. It goes on the list of its pageblock's type, as the
 * smaller blocks do, so the grouping by mobility holds. Only the slow paths handle this slot
 * (alloc_pages_slow(), free_block()); it follows the same high and batch rules, but each CPU's
 * list may hold all of the zone's spare memory, not a share of it (pcp_high_now(), mm/pcp.c), and
 * a busy zone keeps none (mm_pcp_give_slow_unlock(), mm/pcp.h). A list over its high gives its
 * batch to the zone's hand-off lists (struct zone's pcp_handoff), where the next refill of any
 * CPU takes it whole.
 */
#define PCP_PAGEBLOCK_SLOT (PCP_MAX_ORDER + 1)
#define PCP_NR_SLOTS (PCP_MAX_ORDER + 2)
#define PCP_HIGH_BLOCKS 1024u /* a list holds at most this many blocks */
/*
 * And may always hold this many, however little memory is free: a busy zone's lists. Every block
 * there is one its pageblock lacks; 2 (a pair of buddies) kept more 2 MiB blocks in the
 * fragmentation benchmark's churn than 4.
 */
#define PCP_MIN_HIGH_BLOCKS 2u
/*
 * In between, a list's high follows its zone's spare memory: the frames in the buddy lists above
 * 2^-PCP_RESERVE_SHIFT of the zone; the lists of each order may hold 2^-PCP_SPARE_SHARE_SHIFT
 * of it, shared among the CPUs. Free memory sitting unmerged on the lists is memory the buddy
 * allocator cannot join into large blocks: with a fixed 1/16 of the zone they held nearly all the
 * free memory of a busy machine, and the fragmentation benchmark's churn (make fragbench,
 * churn-live against churn-no-pcp-live) lost most of its 2 MiB blocks; with a fixed 1/1024, an
 * idle machine's lists were too short for a burst of 1024 allocations (make bench-kernel's batch
 * rows, four times the cost). A busy zone (under a quarter free) keeps PCP_MIN_HIGH_BLOCKS; an
 * idle one gets long lists. The refill and the flush (the slow paths) set high again each time.
 * In a busy zone the free fast path does not push at all (fast_high 0): the slow path gives a
 * block of a sparse pageblock (mm/pageblock.h) straight back to the buddy lists, where it merges
 * and leaves its pageblock on the way to being a free 2 MiB block, and keeps the others. An idle
 * zone's frees pay nothing for this.
 */
#define PCP_RESERVE_SHIFT 2
#define PCP_SPARE_SHARE_SHIFT 3
#define PCP_BATCH_BLOCKS 32u  /* blocks moved at once between a list and the buddy lists, at most */
#define CACHE_LINE_BYTES 64

/*
 * One mobility type's part of one CPU's lists for one zone (struct per_cpu_pages): the hot parts
 * of its lists, one per slot, and the fast path's count of the blocks it took from them since the
 * last fold. Sixty-four bytes, so that the free fast path finds hot[slot] of its type with one
 * scaled index (type * 8 + slot pointers) as it did with hot[slot][type]; the alloc fast path
 * finds the whole structure from its gfp (struct pcp_cpu, mm/pcp.h) and reaches hot[slot] and
 * taken[slot] from it by the slot alone.
 * taken[slot] (slots 0..PCP_MAX_ORDER: the fast path's) is the alloc fast path's one counter:
 * the list's count is fast_high - room - the types' taken (pcp_count(), mm/pcp.h), and the slow
 * paths fold it (pcp_fold(): room += taken, alloc_hits += taken, taken = 0) before they push,
 * refill, flush, drain or set fast_high. It cannot overflow: between two folds the fast path pops
 * at most the blocks on the list at the first plus those the free fast path pushed since, and the
 * free fast path pushes only into the room left at the fold plus the room the slow paths' own pops
 * gave back (the blocks they took): so taken[slot] stays at most the larger of fast_high and the
 * count at the fold, about PCP_HIGH_BLOCKS at most: far below 2^32. Written by its CPU alone, read
 * racily.
 */
struct pcp_type_lists {
	struct list_head *hot[PCP_NR_SLOTS];      /* the hot part: most recently freed first */
	uint32_t taken[PCP_MAX_ORDER + 1];        /* blocks the alloc fast path took since the last fold */
	/*
	 * Allocations the fast path served from these lists, folded from taken: all hits
	 * (mm/node.h), from the first zone of their CPU's node's fallback order. 32 bits, as the
	 * node events.
	 */
	uint32_t alloc_hits;
	/*
	 * The pageblock of the type this CPU's refills reserve (mm/pcp.c, pcp_reserve()): its index
	 * in the zone's arrays plus 1, or 0 for none. Written by its CPU alone.
	 */
	uint32_t reserve;
};
_Static_assert(sizeof(struct pcp_type_lists) == 64, "a type's lists are 64 bytes: the free fast path's scaled index");

/*
 * One CPU's lists for one zone, one per slot (order, or whole pageblocks) and type (mm/pcp.h says
 * what protects them). Aligned to cache lines: two CPUs' lists never share one. Aligned to its
 * size, a power of two (PCP_SHIFT): the alloc fast path finds it from one of its types[] by
 * masking the address.
 * Each list, most recently freed block first, is in two parts: types[type].hot[slot], a stack linked
 * through each block's lru.next and ended by NULL (lru.prev unused), which the fast paths push on
 * and pop (three and four instructions: no neighbour to update); then lists[slot][type], the cold
 * part, a doubly linked list: refills add at its tail, flushes give back from its tail (the
 * coldest blocks first). The slow paths move one part into the other: an allocation that finds
 * the hot part empty makes the cold part hot (pcp_warm(), one step), a flush first puts the hot
 * part before the cold (pcp_cool(), a walk over the blocks freed since the last flush).
 * A gfp of both mobility bits finds the types[0] of a per_cpu_pages of no zone, always empty
 * (struct pcp_cpu, mm/pcp.h): the fast path's empty list.
 * The counts and limits are arrays of their own (not a structure per slot) so that the fast path
 * reaches room[order] and hot[order] by scaled indexes, with no multiply;
 * batch and high, which only the slow paths read, come last.
 */
struct per_cpu_pages {
	mm_spinlock_t lock; /* taken only without ARCH_CPU_CALLS_BY_IPI (mm/pcp.h): else interrupts off is enough */
	unsigned int cpu;                          /* the CPU these are (checked by MM_BUG_ON) */
	/*
	 * fast_high[slot] minus the blocks on the lists of slot, minus the types' taken[slot]
	 * (pcp_count(), mm/pcp.h): the free fast path pushes while it is above 0, taking one (a
	 * decrement and a branch); below 0 while a busy zone's lists hold blocks. Written by its CPU
	 * alone, read racily.
	 */
	int room[PCP_NR_SLOTS];
	uint16_t fast_high[PCP_NR_SLOTS];          /* the free fast path pushes below this: high, or 0 (busy) */
	uint16_t zone;                             /* the zone index of the lists (pcp_zone_index(), mm/pcp.h) */
	struct pcp_type_lists types[MIGRATE_PCPTYPES];         /* the hot parts and the fast path's counts */
	struct list_head lists[PCP_NR_SLOTS][MIGRATE_PCPTYPES]; /* the cold part: most recently freed first */
	uint16_t batch[PCP_NR_SLOTS];              /* blocks moved at once to or from the buddy lists */
	uint16_t high[PCP_NR_SLOTS];               /* at this many, batch blocks go back; 0: lists off */
} __attribute__((aligned(8 * CACHE_LINE_BYTES)));

/**
 * pcp_slot_order() - The order of the blocks in a slot of the per-CPU lists.
 * @slot: 0..PCP_MAX_ORDER (that order), or PCP_PAGEBLOCK_SLOT (whole pageblocks).
 *
 * Return: the order.
 */
static inline unsigned int pcp_slot_order(unsigned int slot)
{
	return slot == PCP_PAGEBLOCK_SLOT ? PAGEBLOCK_ORDER : slot;
}

/* A power of two, so that the fast path finds a zone's lists with a shift. */
#define PCP_SHIFT 9
_Static_assert(sizeof(struct per_cpu_pages) == 1u << PCP_SHIFT, "struct per_cpu_pages is eight cache lines");

/*
 * What is known of each pageblock's use, beside its type (struct zone's pageblock_use):
 * @free: its frames in free blocks smaller than a pageblock (0..PAGEBLOCK_NR_PAGES - 1): how much
 *        of a pageblock in use is free (mm/pageblock.h, pageblock_sparse()).
 * @cpu: the CPU (plus 1; 0: none) whose per-CPU refills of the pageblock's type take its free
 *       blocks now (its reservation, struct pcp_type_lists' reserve): other CPUs' refills leave
 *       them alone while they find others (mm/pcp.c, pcp_reserve()). A hint, never a rule.
 * Both written under the zone's lock (but for a drain's release of @cpu, a compare and exchange)
 * with relaxed atomic stores, and read with relaxed atomic loads.
 */
struct pageblock_use {
	uint16_t free;
	uint16_t cpu;
};

/* Zone watermarks, in free pages of the zone's buddy lists (mm/watermark.h). */
enum zone_watermark { WMARK_MIN, WMARK_LOW, WMARK_HIGH, NR_WMARK };

/*
 * Locks: the order and the interrupt rule are in mm/lock_check.h.
 *
 * zone->lock protects free_area[] (lists and nr_free), free_orders, buddy_free_pages, isolated_free_pages, pcp_handoff, the
 * pageblock types and free counts (written under it; read without it by relaxed loads) and the mobility
 * counters. The
 * counters that other CPUs read without the lock (nr_free, buddy_free_pages, isolated_free_pages) are written with
 * __atomic stores and read with __atomic loads. The spans, present and managed pages and
 * watermarks are set by mm_init() before any other CPU runs; after it only memory given back or
 * added (mm/memory_add.h, under memory_add_lock) changes them, with __atomic stores.
 */
struct zone {
	mm_spinlock_t lock;
	/*
	 * Of buddy_free_pages, the frames on MIGRATE_ISOLATE's lists: no allocation takes them. 32
	 * bits (next to the lock, where the struct had a hole): isolated ranges are at most 1 GiB.
	 */
	unsigned int isolated_free_pages;
	const char *name;
	unsigned long start_pfn, end_pfn; /* lowest usable frame, one past the highest (0, 0: empty) */
	unsigned long present_pages;      /* usable frames in the zone (firmware map) */
	unsigned long managed_pages;      /* frames handed to the buddy allocator */
	unsigned long buddy_free_pages;   /* frames in the buddy free lists (not the per-CPU lists) */
	unsigned long watermark[NR_WMARK];
	unsigned int free_orders[MIGRATE_TYPES]; /* bit o set while free_area[o].free_list[t] is not empty */
	struct free_area free_area[NR_ORDERS];
	/* The pageblock types (mm/pageblock.h): one byte per pageblock, from pageblock number first_pageblock. */
	uint8_t *pageblock_type;
	struct pageblock_use *pageblock_use; /* indexed alike: one pointer, so struct zone keeps its size */
	unsigned long first_pageblock, nr_pageblocks;
	/* vmstat-style counters: fallbacks that took a block of another type, and pageblocks claimed. */
	unsigned long alloc_fallbacks, pageblock_claims;
	/*
	 * Whole pageblocks one CPU's full list gave back in a batch, kept as they were on it (not
	 * merged), for another CPU's refill to take whole, one list a type (mm/pcp.c, struct
	 * per_cpu_pages's rules): a CPU that frees what another allocates moves them through the
	 * zone lock without a 4 MiB merge and split each.
	 */
	struct list_head pcp_handoff[MIGRATE_PCPTYPES];
	unsigned long pcp_handoff_pages;               /* frames on them all, read without the lock */
	uint16_t pcp_handoff_count[MIGRATE_PCPTYPES]; /* blocks on each: two batches at most */
	/*
	 * The offset of this zone's lists in each CPU's (its index << PCP_SHIFT, this_cpu_pcp_at(),
	 * mm/pcp.h): the slow paths find their CPU's lists from the zone with one load, no divide
	 * of the zone's place in mm_zones[]. Set by zones_reset(); in the struct's padding.
	 */
	uint16_t pcp_offset;
};

extern struct zone mm_zones[MAX_NR_ZONE_IDS];
_Static_assert(((MAX_NR_ZONE_IDS - 1) << PCP_SHIFT) <= UINT16_MAX, "struct zone's pcp_offset holds every zone's");

/**
 * zone_to_nid() - The node a zone belongs to.
 * @zone: the zone.
 *
 * Return: its node number.
 */
static inline unsigned int zone_to_nid(const struct zone *zone)
{
	return (unsigned int)(zone - mm_zones) / MAX_NR_ZONES;
}

/**
 * zone_idx() - A zone's type.
 * @zone: the zone.
 *
 * Return: ZONE_DMA, ZONE_DMA32 or ZONE_NORMAL.
 */
static inline enum zone_type zone_idx(const struct zone *zone)
{
	return (enum zone_type)((unsigned int)(zone - mm_zones) % MAX_NR_ZONES);
}

/**
 * page_zone() - The zone a page belongs to.
 * @page: the page.
 *
 * Return: its zone, from the zone index in its flags.
 */
static inline struct zone *page_zone(const struct page *page)
{
	return &mm_zones[page_zonenum(page)];
}

/**
 * page_to_nid() - The node a page belongs to.
 * @page: the page.
 *
 * Return: its node number, from its flags.
 */
static inline unsigned int page_to_nid(const struct page *page)
{
	return page_zonenum(page) / MAX_NR_ZONES;
}

/**
 * zone_free_orders() - The orders a zone has free blocks of.
 * @zone: the zone; its lock held.
 *
 * Return: bit o set while zone has a free block of order o, of any type.
 */
static inline unsigned int zone_free_orders(const struct zone *zone)
{
	unsigned int orders = 0;

	for (unsigned int t = 0; t < MIGRATE_TYPES; t++)
		orders |= zone->free_orders[t];
	return orders;
}

/**
 * zone_name() - A zone's name.
 * @z: the zone number.
 *
 * Return: "DMA", "DMA32" or "Normal"; "?" for a zone number that cannot be (a corrupt page's).
 */
const char *zone_name(unsigned int z);

/* The highest zone type with memory in any node: allocations start there when the caller allows it. */
extern enum zone_type mm_top_zone;

/**
 * pfn_zone_type() - The zone type of a frame, by address alone.
 * @pfn: the frame.
 *
 * Return: ZONE_DMA, ZONE_DMA32 or ZONE_NORMAL.
 */
static inline enum zone_type pfn_zone_type(unsigned long pfn)
{
	return pfn < ZONE_DMA_END_PFN ? ZONE_DMA : pfn < ZONE_DMA32_END_PFN ? ZONE_DMA32 : ZONE_NORMAL;
}

/**
 * pfn_zone() - The zone a frame belongs to, by address and node.
 * @pfn: the frame.
 *
 * Return: the zone index (mm_zones[]): pfn_to_nid() * MAX_NR_ZONES + pfn_zone_type(); the zone
 * type with one node.
 */
static inline unsigned int pfn_zone(unsigned long pfn)
{
	return (mm_nr_node_ids > 1 ? pfn_to_nid(pfn) * MAX_NR_ZONES : 0) + pfn_zone_type(pfn);
}

/**
 * pfn_zone_end() - The first frame after a frame where the zone may change.
 * @pfn: the frame.
 *
 * Return: that frame (a zone type's end or a node range's start), or ~0UL in the last zone.
 */
static inline unsigned long pfn_zone_end(unsigned long pfn)
{
	unsigned long end = pfn < ZONE_DMA_END_PFN ? ZONE_DMA_END_PFN : pfn < ZONE_DMA32_END_PFN ? ZONE_DMA32_END_PFN : ~0UL;

	return mm_nr_node_ids > 1 ? MIN(end, pfn_node_end(pfn)) : end;
}

/**
 * zones_reset() - Empty every zone (names set, no pages, empty free lists).
 */
void zones_reset(void);

/**
 * zone_lock() - Take a zone's lock with interrupts off.
 * @zone: the zone.
 *
 * Return: what zone_unlock() needs to restore them.
 */
static inline unsigned long zone_lock(struct zone *zone)
{
	return mm_spin_lock_irqsave(&zone->lock);
}

/**
 * zone_unlock() - Drop a zone's lock and restore interrupts.
 * @zone: the zone.
 * @flags: what zone_lock() returned.
 */
static inline void zone_unlock(struct zone *zone, unsigned long flags)
{
	mm_spin_unlock_irqrestore(&zone->lock, flags);
}

#endif
