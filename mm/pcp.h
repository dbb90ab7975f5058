/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU page lists ("pcp lists"): the fast path of alloc_pages() and __free_pages() for orders
 * 0..PCP_MAX_ORDER, and the lists of whole pageblocks that the slow paths keep the same way (see
 * struct per_cpu_pages in mm/zone.h). drain_pcp_lists() and set_pcp_lists() are for everyone; the
 * rest is mm/'s own.
 *
 * Locking: pcp_lock() makes a CPU's lists for a zone its caller's: interrupts off, and where the
 * environment's arch_run_on_cpus() does not run on the CPU itself (no ARCH_CPU_CALLS_BY_IPI, the
 * host harness), that per_cpu_pages' lock too. A CPU uses only its own lists; what must reach
 * another CPU's (drain_pcp_lists(), set_pcp_lists()) asks it through arch_run_on_cpus(). Other
 * CPUs' counts, high and batch are read racily (atomic loads), as approximate figures. The
 * functions below that take a per_cpu_pages are called with it locked; those that move blocks to
 * or from the buddy lists take the zone lock inside it (the order of all mm/'s locks:
 * mm/lock_check.h).
 */
#ifndef MM_PCP_H
#define MM_PCP_H

#include "mm/buddy.h"
#include "mm/debug.h"
#include "mm/gfp.h"
#include "mm/list.h"
#include "mm/memmap.h"

/**
 * drain_pcp_lists() - Give every block on every CPU's lists back to the buddy free lists.
 *
 * The lists hold recently freed blocks of order <= PCP_MAX_ORDER and whole pageblocks, kept
 * unmerged for speed; each CPU's are drained on that CPU (arch_run_on_cpus()), so that buddyinfo
 * shows all free memory in its merged form. alloc_pages() does this itself before it fails.
 * Called with interrupts off or from an interrupt handler, where it cannot wait for the other
 * CPUs, it drains the calling CPU's lists only.
 *
 * Return: the blocks moved.
 */
unsigned long drain_pcp_lists(void);

/**
 * set_pcp_lists() - Turn the per-CPU lists off or back on.
 * @on: false: off; true: on, the state after boot.
 *
 * Off, they are drained and stay empty: every alloc_pages() takes a block from the buddy lists,
 * splitting a larger one when needed, and every __free_pages() gives it back and merges it with
 * its free buddies; the plain buddy allocator, which benchmarks and tests compare against.
 * Call it with interrupts on, outside interrupt handlers: each CPU turns its own lists off or
 * on (arch_run_on_cpus()).
 *
 * Return: the previous state.
 */
bool set_pcp_lists(bool on);

/*
 * What set_pcp_lists() was last told. The lists themselves say it to the fast path: while off,
 * every list's high is 0, set with it locked, so a CPU that frees after set_pcp_lists(false)
 * has drained its lists finds high 0 under the same lock and never puts a block back on them.
 */
extern bool mm_pcp_lists_on;

/* The gfps the alloc fast path looks up (struct pcp_cpu): those of FAST_GFP (mm/page_alloc.c) are below. */
#define PCP_NR_GFPS 256
/* The index in struct pcp_cpu's pcp[] of the lists of no zone, always empty. */
#define PCP_NO_ZONE MAX_NR_ZONE_IDS

/*
 * One CPU's lists, every zone's, and the table its alloc fast path finds the lists of an
 * allocation in. A CPU's area starts with pcp[0], its first per_cpu_pages, where the
 * environment's pointer to them points (arch_set_cpu_pcp(), mm/arch.h).
 * gfp_lists[gfp], for every gfp the fast path serves (below PCP_NR_GFPS), is the offset from
 * pcp[0] of the struct pcp_type_lists of gfp's mobility type in the lists of the first zone gfp
 * tries in the CPU's node's fallback order (the highest zone its zone bits allow in the CPU's
 * node, or in the nearest node that has memory there): one load finds both zone and type, the
 * same cost with one node as with many, and no branch. A gfp of both mobility bits (no type)
 * finds pcp[PCP_NO_ZONE].types[0], whose lists stay empty: the fast path takes the slow path,
 * which refuses it. Set by page_alloc_init_zones() and set_cpu_numa_node(), read racily.
 */
struct pcp_cpu {
	struct per_cpu_pages pcp[MAX_NR_ZONE_IDS + 1];
	uint16_t gfp_lists[PCP_NR_GFPS];
};
_Static_assert(offsetof(struct pcp_cpu, gfp_lists) + sizeof(struct pcp_type_lists) <= 65536,
	       "gfp_lists[] holds the offset of every zone's lists");

/*
 * Every CPU's lists: mm_pcp_nr_cpus struct pcp_cpu, one per CPU, each with the lists of every zone
 * index of every node mm/ supports (from memblock, mm_init()): the stride is a constant, so that
 * the fast paths find a zone's lists with no more arithmetic than with one node.
 */
extern struct pcp_cpu *mm_pcp_area;
extern unsigned int mm_pcp_nr_cpus;

/*
 * The slow paths' NUMA events (mm/node.h) on each zone from each CPU, [cpu][zone index][event]:
 * each written by its CPU alone, so that no counter's line moves between CPUs (a CPU's row is
 * whole cache lines); read racily. 32 bits: each wraps after 2^32 slow-path allocations.
 */
struct pcp_node_events {
	uint32_t ev[MAX_NR_ZONE_IDS][NR_NODE_EVENTS];
} __attribute__((aligned(CACHE_LINE_BYTES)));
extern struct pcp_node_events *mm_pcp_node_events;

/* CPU cpu's lists for zone z. */
static inline struct per_cpu_pages *cpu_pcp(unsigned long cpu, unsigned long z)
{
	return &mm_pcp_area[cpu].pcp[z];
}

/* CPU cpu's slow-path NUMA event counters (mm/node.h) of zone z. */
static inline uint32_t *cpu_node_events(unsigned long cpu, unsigned long z)
{
	return mm_pcp_node_events[cpu].ev[z];
}

/*
 * The zone index of the lists pcp (of any CPU); PCP_NO_ZONE for the lists of no zone. Kept in
 * them (set by mm_pcp_init()): the stride of a CPU's lists is no power of two, and finding it
 * from pcp's place would cost the slow paths a divide.
 */
static inline unsigned int pcp_zone_index(const struct per_cpu_pages *pcp)
{
	return pcp->zone;
}

/*
 * CPU cpu's lists for the zone whose lists are offset bytes into each CPU's: the fast paths
 * keep zones as such offsets (zone * sizeof(struct per_cpu_pages)), which saves them a multiply.
 */
static inline struct per_cpu_pages *cpu_pcp_at(unsigned int cpu, unsigned int offset)
{
	/* 32-bit arithmetic: x86 then needs no extension of the CPU number to 64 bits. */
	unsigned int bytes = cpu * (unsigned int)sizeof(struct pcp_cpu) + offset;

	return (struct per_cpu_pages *)((char *)mm_pcp_area + bytes);
}

/*
 * The calling CPU's lists for the zone whose lists are offset bytes into each CPU's (as
 * cpu_pcp_at()), interrupts off: one load where the environment keeps a pointer to them
 * (ARCH_HAS_THIS_CPU_PCP, mm/arch.h), else found from the CPU's number.
 */
static inline struct per_cpu_pages *this_cpu_pcp_at(unsigned int offset)
{
#ifdef ARCH_HAS_THIS_CPU_PCP
	return (struct per_cpu_pages *)((char *)arch_this_cpu_pcp() + offset);
#else
	return cpu_pcp_at(arch_cpu_id(), offset);
#endif
}

/*
 * The calling CPU's lists (interrupts off) of the zone and mobility type an allocation with gfp
 * (below PCP_NR_GFPS) takes from first: struct pcp_cpu's gfp_lists[gfp], one load.
 */
static inline __attribute__((always_inline)) struct pcp_type_lists *this_cpu_gfp_lists(unsigned int gfp)
{
	struct pcp_cpu *area = (struct pcp_cpu *)this_cpu_pcp_at(0);
#ifdef ARCH_CPU_CALLS_BY_IPI
	/*
	 * In the kernel a plain load (an aligned 16-bit word: never torn; set_cpu_numa_node() changes
	 * it while the CPU runs), which the compiler folds into one load with the table's place as
	 * displacement (a volatile one costs a lea more, as page_alloc.c's racy_load() says). The host
	 * harness keeps the atomic load, which its race detector checks.
	 */
	unsigned long offset = area->gfp_lists[gfp];
#else
	unsigned long offset = __atomic_load_n(&area->gfp_lists[gfp], __ATOMIC_RELAXED);
#endif

	return (struct pcp_type_lists *)((char *)area + offset);
}

/* The per_cpu_pages a type's lists tl are part of (its size is its alignment: a mask). */
static inline struct per_cpu_pages *pcp_of_type_lists(struct pcp_type_lists *tl)
{
	return (struct per_cpu_pages *)((uintptr_t)tl & ~(uintptr_t)(sizeof(struct per_cpu_pages) - 1));
}

/* Do the per-CPU lists hold blocks of order: 0..PCP_MAX_ORDER, and PAGEBLOCK_ORDER? */
static inline bool pcp_holds_order(unsigned int order)
{
	return order <= PCP_MAX_ORDER || order == PAGEBLOCK_ORDER;
}

/* The slot of the per-CPU lists (mm/zone.h) for blocks of order, one pcp_holds_order() says yes to. */
static inline unsigned int pcp_order_slot(unsigned int order)
{
	return order <= PCP_MAX_ORDER ? order : PCP_PAGEBLOCK_SLOT;
}

/* A CPU's lists are its own data (cpu_data_lock(), mm/lock_check.h). */
static inline void pcp_lists_lock(struct per_cpu_pages *pcp) { cpu_data_lock(&pcp->lock); }
static inline void pcp_lists_unlock(struct per_cpu_pages *pcp) { cpu_data_unlock(&pcp->lock); }
static inline bool pcp_lists_locked(const struct per_cpu_pages *pcp) { return cpu_data_locked(&pcp->lock); }

/* Locks pcp's lists (above) with interrupts off; returns what pcp_unlock() needs to restore them. */
static inline unsigned long pcp_lock(struct per_cpu_pages *pcp)
{
	unsigned long flags = arch_irq_save();

	pcp_lists_lock(pcp);
	return flags;
}

static inline void pcp_unlock(struct per_cpu_pages *pcp, unsigned long flags)
{
	pcp_lists_unlock(pcp);
	arch_irq_restore(flags);
}

/*
 * Boot, before memblock retires: allocates and initializes the lists of nr_cpus CPUs (0 means 1).
 * Returns 0, or -ENOMEM (reported).
 */
int mm_pcp_init(unsigned int nr_cpus);

/*
 * Sets every list's high and batch from its zone's free memory (after the hand-off). They follow
 * it afterwards: a list's refill and its flush set them again (struct per_cpu_pages, mm/zone.h).
 */
void mm_pcp_set_limits(void);

/* Frames on pcp's lists, read atomically (no lock needed). */
unsigned long mm_pcp_free_pages(const struct per_cpu_pages *pcp);

/* Frames on zone's hand-off lists of whole pageblocks (struct zone), read atomically (no lock needed). */
unsigned long mm_pcp_handoff_pages(const struct zone *zone);

/*
 * pcp's lock held, the slot of order folded (pcp_fold()): takes up to batch blocks of order (one pcp_holds_order() says yes to) for
 * mobility type mt from zone's buddy lists (mm_buddy_take(), one hold of the zone lock) while the
 * zone stays at or above the watermark gfp may go down to, and hands out one of them, the others
 * on pcp's lists of order, each on its pageblock's type's (a fallback block ends the batch); NULL
 * when none could be had. Whole pageblocks come from zone's hand-off list of type mt first (struct
 * zone), all of it in the same hold, when it fits under pcp's high.
 */
struct page *mm_pcp_refill(struct per_cpu_pages *pcp, struct zone *zone, unsigned int order, unsigned int mt,
			gfp_t gfp);

/*
 * pcp's lock held (taken by pcp_lock(), which returned irq): what the fast path of
 * __free_pages() leaves to it, a list at its fast_high (order: one pcp_holds_order() says yes
 * to), after pcp_take_room() said no (the room it took is given back here): sets the list's high
 * from its zone's free memory; while the lists are off (high 0), or the zone is busy (fast_high 0)
 * and the block a whole pageblock or of a sparse pageblock (mm/pageblock.h), gives the block
 * straight to the buddy lists; else puts it on the list and, at its high, gives the batch coldest
 * back (whole pageblocks: to the zone's hand-off lists). Then unlocks pcp. Its arguments in this
 * order, so that the fast path's call passes the block and order where they already are.
 */
void mm_pcp_give_slow_unlock(struct page *page, unsigned int order, struct per_cpu_pages *pcp, unsigned long irq);

/*
 * Would a free of the block at page (of an order below PAGEBLOCK_ORDER), on this CPU now, go
 * straight to the buddy lists (mm_pcp_give_slow_unlock()): the lists off, or its zone busy and its
 * pageblock sparse? For tests that look for a freed block on a CPU's list.
 */
bool mm_pcp_free_bypasses(const struct page *page);

/*
 * The blocks the alloc fast path took from pcp's lists of slot since the last fold (struct
 * pcp_type_lists's taken), read atomically (a racy reader's figure).
 */
static inline unsigned int pcp_taken(const struct per_cpu_pages *pcp, unsigned int slot)
{
	unsigned int n = 0;

	for (unsigned int t = 0; slot <= PCP_MAX_ORDER && t < MIGRATE_PCPTYPES; t++)
		n += __atomic_load_n(&pcp->types[t].taken[slot], __ATOMIC_RELAXED);
	return n;
}

/*
 * The blocks on pcp's lists of slot: fast_high - room - taken (struct per_cpu_pages's room). Read
 * atomically: other CPUs read it without the lock, as an approximate figure (0 when a change of
 * fast_high or a fold comes between the loads and the difference is negative).
 */
static inline unsigned int pcp_count(const struct per_cpu_pages *pcp, unsigned int slot)
{
	int n = (int)__atomic_load_n(&pcp->fast_high[slot], __ATOMIC_RELAXED) -
		__atomic_load_n(&pcp->room[slot], __ATOMIC_RELAXED) - (int)pcp_taken(pcp, slot);

	return n > 0 ? (unsigned int)n : 0;
}

/* pcp locked: the blocks on pcp's lists of slot, for the lock's holder (it writes them all). */
static inline unsigned int pcp_count_locked(const struct per_cpu_pages *pcp, unsigned int slot)
{
	return (unsigned int)((int)pcp->fast_high[slot] - pcp->room[slot] - (int)pcp_taken(pcp, slot));
}

/*
 * pcp locked on its own CPU, slot folded (pcp_fold(): every slow path of the slot folds first,
 * and nothing counts in taken until the lock goes): pcp_count_locked() with no taken to add,
 * which MM_DEBUG checks. The slow paths' count: it costs them no load of the types' lines.
 */
static inline unsigned int pcp_count_folded(const struct per_cpu_pages *pcp, unsigned int slot)
{
	MM_BUG_ON(pcp_taken(pcp, slot), NULL, "CPU %u's lists of slot %u counted with %u allocations not folded",
		  pcp->cpu, slot, pcp_taken(pcp, slot));
	return (unsigned int)((int)pcp->fast_high[slot] - pcp->room[slot]);
}

/* pcp locked, slot folded (pcp_count_folded()): sets the number of blocks on its lists of slot (atomic: other CPUs read it). */
static inline void pcp_set_count(struct per_cpu_pages *pcp, unsigned int slot, unsigned int n)
{
	MM_BUG_ON(pcp_taken(pcp, slot), NULL, "CPU %u's lists of slot %u set with allocations not folded", pcp->cpu,
		  slot);
	__atomic_store_n(&pcp->room[slot], (int)pcp->fast_high[slot] - (int)n, __ATOMIC_RELAXED);
}

/* pcp_fold()'s work when there is some, out of line (mm/pcp.c). */
bool mm_pcp_fold_taken(struct per_cpu_pages *pcp, unsigned int slot);

/*
 * pcp locked, on its own CPU (the alloc fast path writes taken[] without the lock where only the
 * CPU touches its lists): moves the alloc fast path's counts of slot into room and the types'
 * alloc_hits (struct pcp_type_lists), its count kept; returns whether there were any. The slow
 * paths of the slot call it before they push, refill, flush, drain or set fast_high, so that
 * taken stays small (struct pcp_type_lists says how small), the free fast path finds the room the
 * allocations made, and their counts need no taken (pcp_count_folded()).
 */
static inline bool pcp_fold(struct per_cpu_pages *pcp, unsigned int slot)
{
	MM_BUG_ON(!pcp_lists_locked(pcp), NULL, "CPU %u's lists not locked", pcp->cpu);
	_Static_assert(MIGRATE_PCPTYPES == 3, "pcp_fold() tests the three types' taken");
	if (slot > PCP_MAX_ORDER) /* whole pageblocks: only the slow paths take them, and count them in room */
		return false;
	/* The common case in a slow path: nothing to fold, three loads and one test. */
	if (!(pcp->types[0].taken[slot] | pcp->types[1].taken[slot] | pcp->types[2].taken[slot]))
		return false;
	return mm_pcp_fold_taken(pcp, slot);
}

/* Allocations the fast path served from pcp's lists: hits (mm/node.h), read racily. */
static inline unsigned long pcp_alloc_hits(const struct per_cpu_pages *pcp)
{
	unsigned long n = 0;

	for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++)
		n += __atomic_load_n(&pcp->types[t].alloc_hits, __ATOMIC_RELAXED);
	for (unsigned int slot = 0; slot <= PCP_MAX_ORDER; slot++)
		n += pcp_taken(pcp, slot);
	return n;
}

/* pcp locked, slot folded: sets the free fast path's limit of slot (struct per_cpu_pages), its count kept. */
static inline void pcp_set_fast_high(struct per_cpu_pages *pcp, unsigned int slot, unsigned int fast_high)
{
	unsigned int n = pcp_count_folded(pcp, slot);

	if (fast_high == pcp->fast_high[slot]) /* the common case: the slow paths set it on every call */
		return;
	__atomic_store_n(&pcp->fast_high[slot], (uint16_t)fast_high, __ATOMIC_RELAXED);
	pcp_set_count(pcp, slot, n);
}

/* Adds delta to the blocks on pcp's lists of slot, pcp locked: one add to room. */
static inline void pcp_add_count(struct per_cpu_pages *pcp, unsigned int slot, int delta)
{
	cpu_own_add(&pcp->room[slot], -delta);
}

/*
 * pcp locked: takes room for one more block on pcp's lists of slot (counts it); was there room
 * below their fast_high? When not, the caller hands the block to mm_pcp_give_slow_unlock(), which
 * gives the room back. In the kernel a decrement in memory and a branch on its sign.
 */
static inline __attribute__((always_inline)) bool pcp_take_room(struct per_cpu_pages *pcp, unsigned int slot)
{
	return cpu_own_take(&pcp->room[slot]);
}

/* The mobility type of the per-CPU list a block is on or came from (its flags' PAGE_PCPTYPE_MASK). */
static inline unsigned int page_pcptype(const struct page *page)
{
	return (page_flags(page) & PAGE_PCPTYPE_MASK) >> PAGE_PCPTYPE_SHIFT;
}

/* Sets a block's order field and per-CPU list type (a block on a per-CPU list carries both). */
static inline void set_block_order_type(struct page *page, unsigned int order, unsigned int mt)
{
	set_page_flags(page, (page_flags(page) & ~(PAGE_ORDER_MASK | PAGE_PCPTYPE_MASK)) | order << PAGE_ORDER_SHIFT |
				     mt << PAGE_PCPTYPE_SHIFT);
}

/*
 * pcp's lock held: the most recently freed block of slot (mm/zone.h: the order, or
 * PCP_PAGEBLOCK_SLOT) on the hot part of pcp's type lists tl (count 0), taken off it but not
 * counted yet, or NULL when that part is empty (always for the lists of no zone, struct pcp_cpu).
 */
static inline __attribute__((always_inline)) struct page *pcp_pop_hot(struct per_cpu_pages *pcp,
								       struct pcp_type_lists *tl, unsigned int slot)
{
	struct list_head *first = tl->hot[slot];
	unsigned int order __attribute__((unused)) = pcp_slot_order(slot); /* for the checks */
	unsigned int mt __attribute__((unused)) = (unsigned int)(tl - pcp->types);

	if (!first)
		return NULL;
	MM_BUG_ON(!arch_irqs_disabled(), NULL, "a per-CPU list used with interrupts on");
	MM_BUG_ON(!pcp_lists_locked(pcp), NULL, "CPU %u's lists not locked", pcp->cpu);
	MM_BUG_ON(PageBuddy(lru_to_page(first)) || alloc_order_of(lru_to_page(first)) != order,
		  lru_to_page(first), "a pcp block of order %u marked PG_buddy or with another order", order);
	MM_BUG_ON(page_pcptype(lru_to_page(first)) != mt, lru_to_page(first), "a block on list %u marked type %u", mt,
		  page_pcptype(lru_to_page(first)));
	tl->hot[slot] = first->next;
	return lru_to_page(first);
}

/*
 * The alloc fast path's pop: pcp_pop_hot() from tl (this CPU's, this_cpu_gfp_lists()) of order
 * (0..PCP_MAX_ORDER), counted by one add to tl's taken[order] (struct pcp_type_lists), folded
 * later by the slow paths (pcp_fold()).
 */
static inline __attribute__((always_inline)) struct page *pcp_take_hot_fast(struct per_cpu_pages *pcp,
									     struct pcp_type_lists *tl,
									     unsigned int order)
{
	struct page *page = pcp_pop_hot(pcp, tl, order);

	if (page)
		cpu_own_add(&tl->taken[order], 1u);
	return page;
}

/*
 * pcp's lock held: the most recently freed block of slot on the hot part of the list of mobility
 * type mt (below MIGRATE_PCPTYPES), counted, or NULL when that part is empty. The slow paths'.
 */
static inline struct page *pcp_take_hot(struct per_cpu_pages *pcp, unsigned int slot, unsigned int mt)
{
	struct page *page = pcp_pop_hot(pcp, &pcp->types[mt], slot);

	if (page)
		pcp_add_count(pcp, slot, -1);
	return page;
}

/*
 * pcp's lock held, the hot part of the list of slot and type mt (below MIGRATE_PCPTYPES) empty:
 * the cold part becomes the hot part, in one step (its links forward are already a stack's; its
 * last block's becomes the end).
 */
static inline void pcp_warm(struct per_cpu_pages *pcp, unsigned int slot, unsigned int mt)
{
	struct list_head *cold = &pcp->lists[slot][mt];

	if (list_empty(cold))
		return;
	cold->prev->next = NULL;
	pcp->types[mt].hot[slot] = cold->next;
	list_init(cold);
}

/*
 * pcp's lock held: the most recently freed block of slot on the list of mobility type mt (below
 * MIGRATE_PCPTYPES), hot part or cold, or NULL when there is none. The slow paths'.
 */
static inline struct page *pcp_take(struct per_cpu_pages *pcp, unsigned int slot, unsigned int mt)
{
	if (!pcp->types[mt].hot[slot])
		pcp_warm(pcp, slot, mt);
	return pcp_take_hot(pcp, slot, mt);
}

/*
 * pcp's lock held: puts a checked block, its order and mobility type mt (0..2) in its flags, on
 * the hot part of pcp's list of slot (mm/zone.h: the order, or PCP_PAGEBLOCK_SLOT) and mt; the
 * block already counted (pcp_take_room()).
 */
static inline __attribute__((always_inline)) void pcp_push_counted(struct per_cpu_pages *pcp, struct page *page,
								   unsigned int slot, unsigned int mt)
{
	unsigned int order __attribute__((unused)) = pcp_slot_order(slot); /* for the checks */

	MM_BUG_ON(page_to_pfn(page) & ((1UL << order) - 1), page, "block not aligned to its order %u", order);
	MM_BUG_ON(alloc_order_of(page) != order, page, "a block of order %u marked order %u", order, alloc_order_of(page));
	MM_BUG_ON(pcp->cpu != arch_cpu_id(), page, "freeing to CPU %u's list on CPU %u", pcp->cpu, arch_cpu_id());
	MM_BUG_ON(!arch_irqs_disabled(), page, "a per-CPU list used with interrupts on");
	MM_BUG_ON(!pcp_lists_locked(pcp), page, "CPU %u's lists not locked", pcp->cpu);
	MM_BUG_ON(mt >= MIGRATE_PCPTYPES || page_pcptype(page) != mt, page, "a block of type %u pushed on list %u",
		  page_pcptype(page), mt);
	page->lru.next = pcp->types[mt].hot[slot];
	pcp->types[mt].hot[slot] = &page->lru;
}

/* pcp_push_counted(), the block counted here. */
static inline void pcp_push(struct per_cpu_pages *pcp, struct page *page, unsigned int slot, unsigned int mt)
{
	pcp_add_count(pcp, slot, 1);
	pcp_push_counted(pcp, page, slot, mt);
}

/*
 * The link after l in the list of slot and type mt (below MIGRATE_PCPTYPES): hot part, then
 * cold; l NULL: the first. NULL at the end. For walks of a whole list (checks, tests), pcp's
 * lock held.
 */
static inline struct list_head *pcp_list_next(const struct per_cpu_pages *pcp, unsigned int slot, unsigned int mt,
					      const struct list_head *l)
{
	const struct list_head *cold = &pcp->lists[slot][mt];
	struct list_head *next = l ? l->next : pcp->types[mt].hot[slot];

	if (!next) /* past the hot part */
		next = cold->next;
	return next == cold ? NULL : next;
}

/* The most recently freed block of pcp's list of slot and type mt, or NULL (tests). */
static inline struct page *pcp_first_block(const struct per_cpu_pages *pcp, unsigned int slot, unsigned int mt)
{
	struct list_head *first = pcp_list_next(pcp, slot, mt, NULL);

	return first ? lru_to_page(first) : NULL;
}

#endif
