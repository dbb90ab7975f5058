/* SPDX-License-Identifier: MIT */
/*
 * alloc_pages() and __free_pages(): the checks and preparation around the buddy free lists,
 * zone fallback, gfp flags, references (get_page/put_page) and the compound-page hooks.
 */
#include "mm/page_alloc.h"

#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/block_owner.h"
#include "mm/buddy.h"
#include "mm/compound.h"
#include "mm/folio.h"
#include "mm/node.h"
#include "mm/pcp.h"
#include "mm/page_owner.h"
#include "mm/pageblock.h"
#include "mm/poison.h"
#include "mm/shrinker.h"
#include "mm/vmstat.h"
#include "mm/watermark.h"

/* Flags a block being freed must not carry, plus the allocation order field. */
#define FREE_CHECK_FLAGS                                                                        \
	(1u << PG_reserved | 1u << PG_buddy | 1u << PG_head | 1u << PG_tail | 1u << PG_compound | \
	 1u << PG_hugetlb | 1u << PG_slab | 1u << PG_movable | 1u << PG_isolated | PAGE_ORDER_MASK | PAGE_ZERO_BITS)

/*
 * The gfp bits the fast path handles itself; any other sends the call to the slow path.
 * __GFP_NORECLAIM takes the slow path (a slab's new page: once per slab): with every bit of gfp
 * below it known clear, the fast path reads the mobility type without masking it.
 */
#define FAST_GFP (__GFP_ZONEMASK | __GFP_NOWARN | __GFP_HIGH | __GFP_MOBILITY)
_Static_assert(FAST_GFP < PCP_NR_GFPS, "struct pcp_cpu's gfp_lists[] has an entry for every gfp the fast path serves");

/*
 * Where an allocation preferring node n starts, by gfp's zone bits: the zone index of the first
 * zone with memory in n's fallback order (zones of each node highest allowed first). A table
 * (set by page_alloc_init_zones()); each CPU's struct pcp_cpu holds its node's row, with the
 * mobility types, as offsets of the zones' type lists (this_cpu_gfp_lists(), mm/pcp.h), so that
 * the fast path pays one load.
 */
static uint8_t first_zone_of[MAX_NUMNODES][__GFP_ZONEMASK + 1];
/*
 * The fast free path reads a struct page's flags and reference count in one 64-bit load (they
 * are adjacent: the flags in the low half on a little-endian machine) and tests both at once:
 * FREE_CHECK_WORD's bits must equal free_check_word[order], the flags free of FREE_CHECK_FLAGS
 * but for the order field saying order, and the count 1. A table, where a shift would take two
 * instructions more. The test is an exclusive or with the entry, then a test of the result's
 * FREE_CHECK_WORD bits, all 0: the mask is a 32-bit immediate (sign-extended: bits 31..63 set,
 * the flags' PAGE_ZERO_BITS among them), and the result keeps the zone and the list type, with
 * 0 above the type (the order field, matched, and PAGE_ZERO_BITS), for the push.
 *
 * The compare also proves the block aligned to its order, so the fast path makes no test of its
 * own for that (the slow path still names a misaligned block): a first page with count 1 carries
 * an order field k > 0 only as the head of a block of order k, and every such block is naturally
 * aligned. The writers of a non-zero order field are prep_new_page() and the refill
 * (pcp_refill_add()), on blocks taken whole from the buddy lists; free_block(), on a block whose
 * alignment the slow path has checked; and free_contig_range(), on blocks cut by
 * buddy_block_order(). Every other writer (split_page(), the contiguous ranges' pages, the flush)
 * writes 0; the pages inside a block keep count 0 (a get_page() on one gives it count 1 but order
 * field 0, and compound pages fail on PG_head or PG_tail).
 *
 * While page_owner keeps records, a range is isolated or poisoning is on, set_free_check_words()
 * sets every entry to FREE_CHECK_NEVER, a bit of PAGE_ZERO_BITS, which no page has: no page
 * matches, every free takes the slow path (which clears the block's record, or poisons the
 * block), and the fast path pays nothing for any of them. An MM_DEBUG build starts with poisoning on, so with them all NEVER.
 */
#define FREE_CHECK_WORD ((uint64_t)UINT32_MAX << 32 | FREE_CHECK_FLAGS)
#define FREE_CHECK_EXPECT(order) ((uint64_t)1 << 32 | (order) << PAGE_ORDER_SHIFT)
#define FREE_CHECK_NEVER ((uint64_t)1 << 31)
_Static_assert((FREE_CHECK_NEVER & PAGE_ZERO_BITS & FREE_CHECK_WORD) == FREE_CHECK_NEVER, "FREE_CHECK_NEVER matches no page");
_Static_assert(FREE_CHECK_WORD == (uint64_t)(int64_t)(int32_t)FREE_CHECK_FLAGS,
	       "FREE_CHECK_WORD is its low half sign-extended: an immediate of the test");
_Static_assert((~0u << PAGE_PCPTYPE_SHIFT) == (PAGE_PCPTYPE_MASK | PAGE_ORDER_MASK | PAGE_ZERO_BITS),
	       "above the list type, the flags hold only what the free check leaves 0");
#define FREE_CHECK_BOOT(order) (MM_DEBUG ? FREE_CHECK_NEVER : FREE_CHECK_EXPECT(order)) /* mm_debug_poison's start */
static uint64_t free_check_word[PCP_MAX_ORDER + 1] = { FREE_CHECK_BOOT(0u), FREE_CHECK_BOOT(1u), FREE_CHECK_BOOT(2u),
						       FREE_CHECK_BOOT(3u) };
_Static_assert(PCP_MAX_ORDER == 3, "free_check_word[] lists the per-CPU lists' orders");
_Static_assert(offsetof(struct page, flags) == 0 && offsetof(struct page, _refcount) == 4 &&
		       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "page_flags_and_ref() reads the flags in the low half of the first 64 bits, the count in the high");

/*
 * A word the fast paths read racily (free_check_word[], mm_alloc_gate): in the kernel a
 * plain load (an aligned word: never torn), which the compiler folds into the compare (an atomic or
 * volatile one costs a move more); the host harness keeps the atomic load, which its race detector
 * checks.
 */
#ifdef ARCH_CPU_CALLS_BY_IPI
#define racy_load(word) (word)
#else
#define racy_load(word) __atomic_load_n(&(word), __ATOMIC_RELAXED)
#endif

/* A 64-bit word that may alias anything: the first two fields of a struct page read as one. */
typedef uint64_t __attribute__((may_alias)) page_word_t;

/* A page's flags (low 32 bits) and reference count (high 32 bits) in one atomic load. */
static inline uint64_t page_flags_and_ref(const struct page *page)
{
	return __atomic_load_n((const page_word_t *)page, __ATOMIC_RELAXED);
}

/* The highest zone gfp allows: the fallback walks down from it. */
static int highest_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	return gfp & __GFP_DMA32 ? ZONE_DMA32 : ZONE_NORMAL;
}

/*
 * Ranges isolated now (page_alloc_isolating()): while there is one, no free takes the fast path.
 * Changed, as mm_debug_poison (set_page_poisoning()), under isolating_lock, taken alone, so that
 * the masks follow the last change.
 */
static unsigned int nr_isolating;
static DEFINE_MM_SPINLOCK(isolating_lock, "page_alloc isolating_lock");

/*
 * The fast free path's expected words: FREE_CHECK_NEVER (every free goes to the slow path) while
 * page_owner keeps records, a range is isolated or poisoning is on. Stored atomically: other CPUs
 * read them without a lock.
 */
static void set_free_check_words(void)
{
	bool slow = mm_page_owner_on || __atomic_load_n(&nr_isolating, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&mm_debug_poison, __ATOMIC_RELAXED);

	for (unsigned int o = 0; o <= PCP_MAX_ORDER; o++)
		__atomic_store_n(&free_check_word[o], slow ? FREE_CHECK_NEVER : FREE_CHECK_EXPECT((uint64_t)o),
				 __ATOMIC_RELAXED);
}

void page_alloc_isolating(bool begin)
{
	unsigned long flags = mm_spin_lock_irqsave(&isolating_lock);
	MM_BUG_ON(!begin && !nr_isolating, NULL, "page_alloc_isolating(false) without a begin");
	__atomic_store_n(&nr_isolating, nr_isolating + (begin ? 1u : -1u), __ATOMIC_RELAXED);
	set_free_check_words();
	mm_spin_unlock_irqrestore(&isolating_lock, flags);
}

bool set_page_poisoning(bool on)
{
	unsigned long flags = mm_spin_lock_irqsave(&isolating_lock);
	bool was = mm_debug_poison;

	__atomic_store_n(&mm_debug_poison, on, __ATOMIC_RELAXED);
	set_free_check_words();
	mm_spin_unlock_irqrestore(&isolating_lock, flags);
	return was;
}

/* The first zone with memory an allocation preferring node nid with zone bits zbits may take, or NULL. */
static struct zone *first_zone_with_memory(unsigned int nid, gfp_t zbits)
{
	for (unsigned int i = 0; i < mm_nr_node_ids; i++)
		for (int t = MIN(highest_zone(zbits), (int)mm_top_zone); t >= 0; t--) {
			struct zone *zone = &mm_zones[mm_node_order[nid][i] * MAX_NR_ZONES + (unsigned int)t];

			if (__atomic_load_n(&zone->managed_pages, __ATOMIC_RELAXED))
				return zone;
		}
	return NULL;
}

/*
 * Sets cpu's gfp_lists[] (struct pcp_cpu, mm/pcp.h) from its node's row of first_zone_of[] and
 * each gfp's mobility type; a gfp of both mobility bits gets the lists of no zone.
 */
static void set_cpu_gfp_lists(unsigned int cpu)
{
	struct pcp_cpu *area = &mm_pcp_area[cpu];

	for (gfp_t g = 0; g < PCP_NR_GFPS; g++) {
		unsigned int mt = gfp_migratetype(g);
		struct per_cpu_pages *pcp = mt < MIGRATE_PCPTYPES ? cpu_pcp(cpu, first_zone_of[cpu_to_node(cpu)][g & __GFP_ZONEMASK])
								   : cpu_pcp(cpu, PCP_NO_ZONE);
		struct pcp_type_lists *tl = &pcp->types[mt < MIGRATE_PCPTYPES ? mt : 0];

		__atomic_store_n(&area->gfp_lists[g], (uint16_t)((char *)tl - (char *)area), __ATOMIC_RELAXED);
	}
}

/* The highest zone type with managed pages in any node (ZONE_DMA when none has any). */
static enum zone_type top_zone_with_memory(void)
{
	enum zone_type top = ZONE_DMA;

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
		if (mm_zones[z].managed_pages && zone_idx(&mm_zones[z]) > top)
			top = zone_idx(&mm_zones[z]);
	return top;
}

void page_alloc_init_zones(void)
{
	mm_top_zone = top_zone_with_memory();
	set_free_check_words();
	for (unsigned int nid = 0; nid < mm_nr_node_ids; nid++)
		for (gfp_t g = 0; g <= __GFP_ZONEMASK; g++) {
			struct zone *zone = first_zone_with_memory(nid, g);

			/* No memory gfp may take anywhere: its highest zone, empty, where the allocation fails. */
			first_zone_of[nid][g] = (uint8_t)(zone ? zone - mm_zones : MIN(highest_zone(g), (int)mm_top_zone));
		}
	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		set_cpu_gfp_lists(cpu);
}

int set_cpu_numa_node(unsigned int cpu, unsigned int nid)
{
	if (cpu >= mm_pcp_nr_cpus || cpu >= MM_MAX_CPU_NODES || nid >= mm_nr_node_ids) {
		printk("set_cpu_numa_node: refused: CPU %u (%u CPUs), node %u (%u nodes)\n", cpu, mm_pcp_nr_cpus, nid,
		       mm_nr_node_ids);
		return -EINVAL;
	}
	__atomic_store_n(&mm_cpu_node[cpu], (uint8_t)nid, __ATOMIC_RELAXED);
	set_cpu_gfp_lists(cpu);
	return 0;
}

/* Free pages hold poison (checked when allocated)? A racy load: a compare with memory in the kernel. */
static inline bool poisoned_pages_remain(void)
{
	return racy_load(mm_nr_poisoned_pages) != 0;
}

/*
 * The per-CPU list a block taken from the buddy lists goes back to when the fast path frees it:
 * its pageblock's type (an isolated pageblock's blocks are never handed out, but one may be
 * isolated meanwhile: then the allocation's type).
 */
static unsigned int new_block_pcptype(const struct page *page, gfp_t gfp)
{
	unsigned int mt = get_pageblock_migratetype(page);

	return mt < MIGRATE_PCPTYPES ? mt : gfp_migratetype(gfp);
}

/*
 * A block from the buddy lists has no order in its flags, one from a per-CPU list has its own:
 * a plain block leaves with its order there, a compound page with none (its order is in its
 * first tail). Either leaves with its per-CPU list type (new_block_pcptype()), which a free by
 * the fast path uses.
 */
static void prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	set_page_ref(page, 1);
	set_page_private(page, 0);
	if (unlikely(poisoned_pages_remain()))
		unpoison_pages(page, 1UL << order);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	set_block_order_type(page, 0, new_block_pcptype(page, gfp));
	if (order && (!(gfp & __GFP_COMP) || prep_compound_page(page, order)))
		set_page_flags(page, page_flags(page) | order << PAGE_ORDER_SHIFT);
}

void prep_new_block(struct page *page, unsigned int order, gfp_t gfp)
{
	prep_new_page(page, order, gfp);
}

static alloc_compact_fn *alloc_compact;

void set_alloc_compact_fn(alloc_compact_fn *fn)
{
	__atomic_store_n(&alloc_compact, fn, __ATOMIC_RELAXED);
}

static void warn_alloc_failed(unsigned int nid, gfp_t gfp, unsigned int order)
{
	if (mm_nr_node_ids == 1)
		printk("alloc_pages: no free block of order %u (gfp %#x) in zones %s and below; "
		       "%lu pages free\n", order, gfp, zone_name(highest_zone(gfp)), nr_free_pages());
	else
		printk("alloc_pages: no free block of order %u (gfp %#x) in zones %s and below of node %u%s; "
		       "%lu pages free\n", order, gfp, zone_name(highest_zone(gfp)), nid,
		       gfp & __GFP_THISNODE ? " (__GFP_THISNODE)" : " and the nodes after it", nr_free_pages());
}
/* zone's lock held: a block from its buddy lists if gfp may take the zone that low, else NULL. */
static inline __attribute__((always_inline)) struct page *buddy_take_checked(struct zone *zone, unsigned int order, gfp_t gfp)
{
	MM_BUG_ON(!lock_held(&zone->lock), NULL, "zone %s's lock not held", zone->name);
	return zone_watermark_ok(zone, order, gfp) ? mm_buddy_take(zone, order, gfp_migratetype(gfp)) : NULL;
}

/*
 * take_from_pcp()'s continuation when this CPU's list of pcp has no block of order for gfp: a
 * refill from zone's buddy lists. pcp locked with interrupts off (flags: how to restore them,
 * arch_irq_save()'s); unlocks it.
 */
static __attribute__((noinline)) struct page *take_from_pcp_refill(struct per_cpu_pages *pcp, struct zone *zone,
								   unsigned int order, gfp_t gfp, unsigned long flags)
{
	struct page *page;

	pcp_fold(pcp, pcp_order_slot(order)); /* the alloc fast path's counts, before the refill counts the list */
	page = mm_pcp_refill(pcp, zone, order, gfp_migratetype(gfp), gfp);
	pcp_unlock(pcp, flags);
	return page;
}

/* take_from_pcp_refill() while the lists are off (high 0): the plain buddy allocator. */
static __attribute__((noinline)) struct page *take_from_pcp_off(struct per_cpu_pages *pcp, struct zone *zone,
								unsigned int order, gfp_t gfp, unsigned long flags)
{
	struct page *page;

	arch_spin_lock(&zone->lock);
	page = buddy_take_checked(zone, order, gfp);
	arch_spin_unlock(&zone->lock);
	pcp_unlock(pcp, flags);
	return page;
}

/*
 * take_from_pcp() with interrupts off (irq: how, fast_irq_off(), mm/lock_check.h): a block from
 * the list is handed out with nothing else done in the window; the refill, which takes the zone
 * lock, comes after fast_irq_keep().
 */
static inline __attribute__((always_inline)) struct page *take_from_pcp_irq(struct zone *zone, unsigned int order,
									     gfp_t gfp, struct fast_irq irq)
{
	/* Interrupts off first: the CPU holds only while they are. */
	struct per_cpu_pages *pcp = this_cpu_pcp_at(zone->pcp_offset);
	struct page *page;

	pcp_lists_lock(pcp);
	page = pcp_take(pcp, pcp_order_slot(order), gfp_migratetype(gfp)); /* counted in room: no fold needed */
	if (unlikely(!page)) { /* tail calls */
		if (!pcp->high[pcp_order_slot(order)])
			return take_from_pcp_off(pcp, zone, order, gfp, fast_irq_keep(irq));
		return take_from_pcp_refill(pcp, zone, order, gfp, fast_irq_keep(irq));
	}
	pcp_lists_unlock(pcp);
	fast_irq_restore(irq);
	return page;
}

/*
 * take_from_zone() for an order the per-CPU lists hold: this CPU's list (refilled from the buddy
 * lists when empty; the plain buddy allocator while the lists are off). Out of line, so that the
 * larger orders' path keeps the few registers it needs. Interrupts go off the fast paths' way
 * when they are known on, else they are saved.
 */
static __attribute__((noinline)) struct page *take_from_pcp(struct zone *zone, unsigned int order, gfp_t gfp)
{
	struct fast_irq irq;

	if (unlikely(!fast_irq_off(&irq)))
		return take_from_pcp_irq(zone, order, gfp, fast_irq_saved());
	return take_from_pcp_irq(zone, order, gfp, irq);
}

/* take_from_zone() for an order the per-CPU lists do not hold: the buddy lists. */
static inline struct page *take_from_buddy(struct zone *zone, unsigned int order, gfp_t gfp)
{
	unsigned long flags = zone_lock(zone);
	struct page *page = buddy_take_checked(zone, order, gfp);

	zone_unlock(zone, flags);
	return page;
}

/*
 * A block of order from zone: for orders the per-CPU lists hold (whole pageblocks included),
 * this CPU's list (take_from_pcp()), else the buddy lists; NULL when zone has none gfp may take.
 * Inline: its callers call the one they need, with no frame of its own in between.
 */
static inline __attribute__((always_inline)) struct page *take_from_zone(struct zone *zone, unsigned int order,
									  gfp_t gfp)
{
	if (!pcp_holds_order(order))
		return take_from_buddy(zone, order, gfp);
	return take_from_pcp(zone, order, gfp);
}

/*
 * The zones an allocation preferring node nid may take from, in the order it tries them: Linux's
 * node-ordered zonelist. The nodes by distance from nid (only nid with __GFP_THISNODE), and in
 * each node its zones with memory from the highest gfp allows down. Returns the zone after prev
 * (NULL: the first), or NULL after the last.
 */
static struct zone *next_zone(unsigned int nid, gfp_t gfp, struct zone *prev)
{
	unsigned int nodes = gfp & __GFP_THISNODE ? 1 : mm_nr_node_ids, top = (unsigned int)MIN(highest_zone(gfp), (int)mm_top_zone);
	unsigned int i = 0, t = top;

	if (prev) { /* resume after prev: its place in the order */
		while (mm_node_order[nid][i] != zone_to_nid(prev))
			i++;
		t = zone_idx(prev);
		if (t-- == 0) {
			i++;
			t = top;
		}
	}
	for (; i < nodes; i++, t = top)
		for (;; t--) {
			struct zone *zone = &mm_zones[mm_node_order[nid][i] * MAX_NR_ZONES + t];

			if (__atomic_load_n(&zone->managed_pages, __ATOMIC_RELAXED))
				return zone;
			if (t == 0)
				break;
		}
	return NULL;
}

#define for_each_zone_of(zone, nid, gfp) for (zone = next_zone(nid, gfp, NULL); zone; zone = next_zone(nid, gfp, zone))

/*
 * A block from the first zone in nid's order (next_zone()) that has one gfp may take. The first
 * zone, where nearly every allocation is served, straight from first_zone_of[] (the walk only
 * when it has none, or is another node's and gfp has __GFP_THISNODE).
 */
static struct page *take_block(unsigned int nid, gfp_t gfp, unsigned int order)
{
	struct zone *zone = &mm_zones[first_zone_of[nid][gfp & __GFP_ZONEMASK]];
	struct page *page = NULL;

	if (likely(!(gfp & __GFP_THISNODE) || zone_to_nid(zone) == nid)) {
		page = take_from_zone(zone, order, gfp);
		if (likely(page))
			return page;
	} else {
		zone = NULL; /* the walk starts at nid's own first zone */
	}
	while (!page && (zone = next_zone(nid, gfp, zone)) != NULL)
		page = take_from_zone(zone, order, gfp);
	return page;
}

/*
 * May an allocation with gfp compact before it fails? A costly one that may wait: not one that
 * digs into the reserve (GFP_ATOMIC) or whose caller holds an mm lock (__GFP_NORECLAIM), and only
 * with interrupts on, outside interrupt handlers, where the owners' migration operations may run
 * (mm/migrate.h).
 */
static bool may_compact(gfp_t gfp, unsigned int order)
{
	return order >= PAGE_ALLOC_COSTLY_ORDER && !(gfp & (__GFP_HIGH | __GFP_NORECLAIM)) &&
	       !arch_irqs_disabled() && !arch_in_interrupt();
}

/*
 * The last resort of a costly allocation: compacts the zones gfp allows, in the order they are
 * tried, until one has a free block of order, then tries once more. Counted as
 * set_alloc_compact_fn() says.
 */
static struct page *alloc_after_compaction(alloc_compact_fn *compact, unsigned int nid, gfp_t gfp, unsigned int order)
{
	struct page *page = NULL;
	bool stalled = false;
	struct zone *zone;

	for_each_zone_of(zone, nid, gfp) {
		int made = compact(zone, order);

		stalled |= made >= 0;
		if (made > 0) {
			page = take_block(nid, gfp, order);
			break;
		}
	}
	if (stalled) {
		count_vm_event(COMPACT_STALL);
		count_vm_event(page ? COMPACT_SUCCESS : COMPACT_FAIL);
	}
	return page;
}

/*
 * The last try before failing: the shrinkers give back what they can (unless gfp has
 * __GFP_NORECLAIM), the lists are drained again so that their pages, which land on this CPU's
 * lists, can merge and reach any type, and the block is taken once more. No mm lock is held here.
 */
static struct page *take_after_shrinking(unsigned int nid, gfp_t gfp, unsigned int order)
{
	if (!mm_shrink(gfp & ~__GFP_THISNODE, order))
		return NULL;
	drain_pcp_lists();
	return take_block(nid, gfp, order);
}

/*
 * Adds one to slow-path event ev (mm/node.h) of this CPU's lists of zone. A plain add, not an
 * atomic one: only this CPU writes it, and an interrupt's allocation between the load and the
 * store loses one count at most (the counters are statistics).
 */
static void count_node_event(const struct zone *zone, unsigned int ev)
{
	uint32_t *n = &cpu_node_events(arch_cpu_id(), (unsigned int)(zone - mm_zones))[ev];

	__atomic_store_n(n, __atomic_load_n(n, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/*
 * Counts an allocation preferring node nid with gfp that got page (Linux's zone_statistics()):
 * a hit, or a miss and foreign, against the first zone nid's order offers it; local or other
 * against the node of the CPU, local_nid.
 */
static void count_numa_alloc(unsigned int nid, unsigned int local_nid, gfp_t gfp, const struct page *page)
{
	const struct zone *first;
	unsigned int got, preferred;

	if (mm_nr_node_ids == 1) { /* every allocation a local hit: no lookups */
		count_node_event(page_zone(page), NODE_EV_HIT_LOCAL);
		return;
	}
	first = &mm_zones[first_zone_of[nid][gfp & __GFP_ZONEMASK]];
	got = page_to_nid(page);
	preferred = zone_to_nid(first);
	count_node_event(page_zone(page), (got != preferred) * 2 + (got != local_nid));
	if (got != preferred)
		count_node_event(first, NODE_EV_FOREIGN);
}
/*
 * Everything but the fast path: checks, refills, zone fallback, draining, compaction, shrinking,
 * failure, __GFP_ZERO/COMP. Out of line and cold, so that alloc_pages() saves no registers for it.
 */
static struct page *alloc_pages_slow_node(unsigned int nid, unsigned int local_nid, gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (unlikely(order > MAX_ORDER || (gfp & ~__GFP_ALL) || gfp_migratetype(gfp) >= MIGRATE_PCPTYPES)) {
		printk("alloc_pages: refused: order %u (MAX_ORDER is %d), gfp %#x (known bits %#x, "
		       "__GFP_MOVABLE and __GFP_RECLAIMABLE exclusive)\n", order, MAX_ORDER, gfp, __GFP_ALL);
		return NULL;
	}
	page = take_block(nid, gfp, order);
	/* Blocks on any CPU's lists may merge into one large enough, or lift a zone over its mark. */
	if (unlikely(!page) && drain_pcp_lists())
		page = take_block(nid, gfp, order);
	if (unlikely(!page) && may_compact(gfp, order)) {
		alloc_compact_fn *compact = __atomic_load_n(&alloc_compact, __ATOMIC_RELAXED);

		if (compact)
			page = alloc_after_compaction(compact, nid, gfp, order);
	}
	if (unlikely(!page))
		page = take_after_shrinking(nid, gfp, order);
	if (unlikely(!page)) {
		if (!(gfp & __GFP_NOWARN))
			warn_alloc_failed(nid, gfp, order);
		return NULL;
	}
	count_numa_alloc(nid, local_nid, gfp, page);
	prep_new_page(page, order, gfp);
	return page;
}

/* The slow path of alloc_pages(): the local node preferred. */
static __attribute__((noinline, cold)) struct page *alloc_pages_slow(gfp_t gfp, unsigned int order)
{
	unsigned int local_nid = numa_node_id();

	return alloc_pages_slow_node(local_nid, local_nid, gfp, order);
}

/*
 * alloc_pages_pop() but for its slow path: the block from this CPU's list, or NULL when that list
 * is empty (order <= PCP_MAX_ORDER, gfp within FAST_GFP). Interrupts are off (irq: how,
 * fast_irq_off(), mm/lock_check.h) and back as they were on return.
 */
static inline __attribute__((always_inline)) struct page *alloc_pages_take(gfp_t gfp, unsigned int order,
									      struct fast_irq irq)
{
	struct pcp_type_lists *tl;
	struct per_cpu_pages *pcp;
	struct page *page;

	tl = this_cpu_gfp_lists(gfp); /* gfp's zone and type in one load; both mobility bits: empty lists */
	pcp = pcp_of_type_lists(tl);
	pcp_lists_lock(pcp);
	page = pcp_take_hot_fast(pcp, tl, order); /* counted in tl's taken[order] alone */
	if (likely(page)) {
		set_page_ref(page, 1); /* its flags already say its order: see struct per_cpu_pages */
		set_page_private(page, 0);
	}
	pcp_lists_unlock(pcp);
	fast_irq_restore(irq);
	return page;
}

/*
 * alloc_pages_pop() when interrupts are not known to be on (fast_irq_off(), mm/lock_check.h): a
 * call the fast path makes last, so that it stays a leaf function.
 */
static __attribute__((noinline)) struct page *alloc_pages_pop_saving(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages_take(gfp, order, fast_irq_saved());

	if (unlikely(!page))
		return alloc_pages_slow(gfp, order);
	return page;
}

/*
 * The fast path past its checks (order <= PCP_MAX_ORDER, gfp within FAST_GFP): a plain block from
 * this CPU's list for the first zone, with that list locked (pcp_lock(): interrupts off); the
 * slow path when that list is empty. The caller has made sure that no free page holds poison
 * (alloc_slow_reasons()).
 */
static inline __attribute__((always_inline)) struct page *alloc_pages_pop(gfp_t gfp, unsigned int order)
{
	struct fast_irq irq;
	struct page *page;

	if (unlikely(!fast_irq_off(&irq)))
		return alloc_pages_pop_saving(gfp, order);
	page = alloc_pages_take(gfp, order, irq);
	if (unlikely(!page))
		return alloc_pages_slow(gfp, order);
	return page;
}

/* The fast path: its checks, then alloc_pages_pop(); anything else takes the slow path. */
static inline __attribute__((always_inline)) struct page *alloc_pages_fast(gfp_t gfp, unsigned int order)
{
	if (unlikely(order > PCP_MAX_ORDER || (gfp & ~FAST_GFP)))
		return alloc_pages_slow(gfp, order);
	return alloc_pages_pop(gfp, order);
}

/* The fast path, or the slow one while free pages hold poison (each is checked when allocated). */
static inline __attribute__((always_inline)) struct page *alloc_pages_local(gfp_t gfp, unsigned int order)
{
	if (unlikely(poisoned_pages_remain()))
		return alloc_pages_slow(gfp, order);
	return alloc_pages_fast(gfp, order);
}

/*
 * alloc_pages()'s fast path serves the orders below this: PCP_MAX_ORDER + 1, or 0 while poison
 * or page_owner is about (mm_alloc_gate, mm/poison.h). In the kernel a plain load of the low
 * half, which the compiler folds into the compare with the order.
 */
static inline uint32_t alloc_fast_orders(void)
{
#ifdef ARCH_CPU_CALLS_BY_IPI
	return mm_alloc_gate.fast_orders;
#else
	return (uint32_t)racy_load(mm_alloc_gate.word);
#endif
}

/*
 * Is poison or page_owner about (mm_alloc_gate's slow_reasons, mm/poison.h)? Without either the
 * whole word is PCP_MAX_ORDER + 1 (its high half 0), so one 64-bit compare with memory asks, as
 * many instructions as the order's test before it (a 32-bit test would take a load more).
 */
static inline bool alloc_slow_reasons(void)
{
	return racy_load(mm_alloc_gate.word) != PCP_MAX_ORDER + 1u;
}

/* alloc_pages_recorded()'s slow side: the slow path's block, recorded as site's. */
static __attribute__((noinline, cold)) struct page *alloc_pages_slow_recorded(gfp_t gfp, unsigned int order,
									       uintptr_t site)
{
	struct page *page = alloc_pages_slow(gfp, order);

	if (page && mm_page_owner_on)
		page_owner_alloc(page_to_pfn(page), order, gfp, site);
	return page;
}

/*
 * An allocation while poison or page_owner's records are about: the block, recorded as site's.
 * A block from the per-CPU list keeps nothing but its frame number across the record's call (the
 * slow path, which needs more, is a tail call), so that page_owner's fast case saves one register.
 */
static __attribute__((noinline, cold)) struct page *alloc_pages_recorded(gfp_t gfp, unsigned int order,
									  uintptr_t site)
{
	struct page *page = NULL;
	unsigned long pfn;

	if (likely(!poisoned_pages_remain() && order <= PCP_MAX_ORDER && !(gfp & ~FAST_GFP)))
		page = alloc_pages_take(gfp, order, fast_irq_saved()); /* cold: the saving way */
	if (unlikely(!page))
		return alloc_pages_slow_recorded(gfp, order, site);
	if (!mm_page_owner_on)
		return page;
	pfn = page_to_pfn(page);
	page_owner_alloc(pfn, order, gfp, site);
	return pfn_to_page(pfn);
}

/*
 * page_owner records the return address in the caller of alloc_pages(): taken here, at entry,
 * and only on the slow side, so that the fast path makes no call that needs a frame (every call
 * stays a tail call). Poison and page_owner send every call there through the order's test
 * (alloc_fast_orders()): the fast path pays nothing for either. noinline, so that the address
 * is always this function's return address, never that of a function it was inlined into.
 */
__attribute__((noinline)) struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	if (unlikely(order >= alloc_fast_orders() || (gfp & ~FAST_GFP))) {
		if (unlikely(alloc_slow_reasons()))
			return alloc_pages_recorded(gfp, order, (uintptr_t)__builtin_return_address(0));
		return alloc_pages_slow(gfp, order);
	}
	return alloc_pages_pop(gfp, order);
}

/* The node an allocation asked for nid prefers, or -1 (reported) when there is no such node. */
static int preferred_node(int nid)
{
	if (nid == NUMA_NO_NODE)
		return (int)numa_node_id();
	if (nid < 0 || (unsigned int)nid >= mm_nr_node_ids) {
		printk("alloc_pages_node: refused: node %d (%u nodes)\n", nid, mm_nr_node_ids);
		return -1;
	}
	return nid;
}

/* alloc_pages_node() with the site page_owner records. */
static struct page *alloc_node_recorded(int nid, gfp_t gfp, unsigned int order, uintptr_t site)
{
	int pref = preferred_node(nid);
	struct page *page;

	if (pref < 0)
		return NULL;
	/* The local node without __GFP_THISNODE is alloc_pages(): its fast path. */
	if ((unsigned int)pref == numa_node_id() && !(gfp & __GFP_THISNODE))
		page = alloc_pages_local(gfp, order);
	else
		page = alloc_pages_slow_node((unsigned int)pref, numa_node_id(), gfp, order);
	if (page && unlikely(mm_page_owner_on))
		page_owner_alloc(page_to_pfn(page), order, gfp, site);
	return page;
}

/* noinline as alloc_pages(): page_owner records its caller, not this function. */
__attribute__((noinline)) struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	return alloc_node_recorded(nid, gfp, order, (uintptr_t)__builtin_return_address(0));
}

/* The node the last interleaved allocation chose. */
static unsigned int interleave_last;

/* The next node with memory after the one the last interleaved allocation chose (node 0 when none has). */
static unsigned int interleave_next(void)
{
	unsigned int last = __atomic_load_n(&interleave_last, __ATOMIC_RELAXED), next;

	do {
		next = last;
		for (unsigned int i = 0; i < mm_nr_node_ids; i++) {
			next = (next + 1) % mm_nr_node_ids;
			if (next_zone(next, __GFP_THISNODE, NULL))
				break;
		}
	} while (!__atomic_compare_exchange_n(&interleave_last, &last, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return next;
}

__attribute__((noinline)) struct page *alloc_pages_interleave(gfp_t gfp, unsigned int order)
{
	unsigned int nid = interleave_next();
	struct page *page = alloc_node_recorded((int)nid, gfp & ~__GFP_THISNODE, order,
						(uintptr_t)__builtin_return_address(0));

	if (page && page_to_nid(page) == nid)
		count_node_event(page_zone(page), NODE_EV_INTERLEAVE);
	return page;
}

/*
 * What is wrong with freeing the block at page with this order, or NULL if nothing is; msg (of
 * size bytes, the caller's) holds the message when it has numbers in it.
 */
static const char *free_problem(const struct page *page, unsigned int order, char *msg, size_t size)
{
	int count = page_ref(page);
	const char *owned = PageTail(page) ? NULL : block_owner_problem(page, BLOCK_FREE, msg, size);

	if (order > MAX_ORDER)
		snprintf(msg, size, "freed at order %u, above MAX_ORDER %d", order, MAX_ORDER);
	else if (owned)
		return owned;
	else if (PageTail(page))
		return "freeing a tail page of a compound page";
	else if (PageBuddy(page))
		snprintf(msg, size, "double free: already the first page of a free order-%lu block",
			 page->private);
	else if (PageReserved(page))
		return "freeing a reserved page";
	else if (page_to_pfn(page) & ((1UL << order) - 1))
		snprintf(msg, size, "block misaligned: pfn is not a multiple of 2^%u", order);
	else if (count == 0)
		return "freeing a page that is not allocated (reference count 0): double free?";
	else if (count != 1)
		snprintf(msg, size, "freeing with reference count %d: other references are held", count);
	else if (!PageHead(page) && alloc_order_of(page) != order)
		snprintf(msg, size, "freed at order %u but allocated at order %u", order, alloc_order_of(page));
	else
		return NULL;
	return msg;
}

/* The slow path of __free_pages(): true when the block may be freed after all (a compound head). */
static __attribute__((noinline, cold)) bool free_checks_fail(struct page *page, unsigned int order)
{
	char msg[120];
	const char *problem = free_problem(page, order, msg, sizeof(msg));

	if (problem) {
		bad_page(page, problem);
		return true;
	}
	return PageHead(page) && !free_compound_prepare(page, order);
}

/* Gives a block to the buddy lists, its order field cleared (they keep the order elsewhere). */
static void give_to_buddy(struct page *page, unsigned int order)
{
	set_page_flags(page, page_flags(page) & ~PAGE_ORDER_MASK);
	buddy_give_locked(page, order);
}

/*
 * free_block() for an order the per-CPU lists hold, interrupts off (irq: how, fast_irq_off(),
 * mm/lock_check.h): the push on this CPU's list, or the buddy lists (after fast_irq_keep(): they
 * take the zone lock).
 */
static inline __attribute__((always_inline)) void free_block_push(struct page *page, unsigned int order,
								   struct fast_irq irq)
{
	unsigned int slot = pcp_order_slot(order), mt;
	struct per_cpu_pages *pcp = this_cpu_pcp_at(page_zone(page)->pcp_offset);

	pcp_lists_lock(pcp);
	mt = get_pageblock_migratetype(page);
	if (mt >= MIGRATE_PCPTYPES) {
		unsigned long flags = fast_irq_keep(irq);

		give_to_buddy(page, order);
		pcp_unlock(pcp, flags);
		return;
	}
	/* A compound head's order field is 0: a block on a per-CPU list carries its order and type. */
	set_block_order_type(page, order, mt);
	if (unlikely(!pcp_take_room(pcp, slot))) {
		mm_pcp_give_slow_unlock(page, order, pcp, fast_irq_keep(irq)); /* a tail call */
		return;
	}
	pcp_push_counted(pcp, page, slot, mt);
	pcp_lists_unlock(pcp);
	fast_irq_restore(irq);
}

/*
 * Gives back a block every check has passed (and whose compound metadata, if any, is cleared).
 * Orders the per-CPU lists hold (whole pageblocks included) go on this CPU's list for the block's
 * zone and its pageblock's type, whichever CPU allocated it; other orders, and blocks of isolated
 * pageblocks, to the buddy lists. The type is read with the list locked: isolation sets it, then
 * drains every CPU's lists, each on its CPU (mm/pcp.h), so a free either comes before that drain (which
 * takes the block to the buddy lists) or sees the pageblock isolated; an isolated pageblock's
 * block never stays on a per-CPU list.
 */
static void free_block(struct page *page, unsigned int order)
{
	struct fast_irq irq;

	set_page_ref(page, 0);
	if (unlikely(mm_page_owner_on))
		page_owner_free(page_to_pfn(page));
	if (unlikely(__atomic_load_n(&mm_debug_poison, __ATOMIC_RELAXED)))
		poison_pages(page, 1UL << order);
	if (!pcp_holds_order(order)) {
		give_to_buddy(page, order);
		return;
	}
	/* As take_from_pcp(): the fast paths' masking when interrupts are known on, else saved. */
	if (unlikely(!fast_irq_off(&irq))) {
		free_block_push(page, order, fast_irq_saved());
		return;
	}
	free_block_push(page, order, irq);
}

/* Everything __free_pages() does not do inline: misuse, compound heads, large orders, poison. */
static __attribute__((noinline, cold)) void free_pages_slow(struct page *page, unsigned int order)
{
	uint32_t flags = page_flags(page);

	if ((order > MAX_ORDER || (flags & FREE_CHECK_FLAGS) != order << PAGE_ORDER_SHIFT ||
	     page_ref(page) != 1 || (page_to_pfn(page) & ((1UL << order) - 1))) &&
	    free_checks_fail(page, order))
		return;
	/* The fast path has the same window between its test of the count and its store of 0. */
	arch_race_window("__free_pages: the block checked, its count not cleared yet");
	free_block(page, order);
}

/*
 * __free_pages()'s push of a checked block (flags: its flags word, struct per_cpu_pages) on this
 * CPU's list, with interrupts off (irq: fast_irq_off(), mm/lock_check.h).
 */
static inline __attribute__((always_inline)) void free_pages_push(struct page *page, unsigned int order,
								   uint32_t flags, struct fast_irq irq)
{
	struct per_cpu_pages *pcp;

	pcp = this_cpu_pcp_at((flags >> (ZONES_SHIFT - PCP_SHIFT)) & (ZONES_MASK << PCP_SHIFT));
	pcp_lists_lock(pcp);
	if (unlikely(!pcp_take_room(pcp, order))) {
		/* a tail call: nothing saved for it */
		mm_pcp_give_slow_unlock(page, order, pcp, fast_irq_keep(irq));
		return;
	}
	pcp_push_counted(pcp, page, order, flags >> PAGE_PCPTYPE_SHIFT);
	pcp_lists_unlock(pcp);
	fast_irq_restore(irq);
}

/* free_pages_push() when interrupts are not known to be on. */
static __attribute__((noinline)) void free_pages_push_saving(struct page *page, unsigned int order, uint32_t flags)
{
	free_pages_push(page, order, flags, fast_irq_saved());
}

/*
 * The fast path: every check of a plain block in one test, then a push on this CPU's list under
 * its lock with interrupts off. Anything else (a failed check, a compound head, an order above
 * PCP_MAX_ORDER, poisoning, page_owner's records or an isolated range (free_check_word), a list
 * at its high or off, a busy zone: fast_high) goes out of line.
 */
void __free_pages(struct page *page, unsigned int order)
{
	uint64_t word = page_flags_and_ref(page);
	struct fast_irq irq;
	uint32_t flags;

	if (unlikely(order > PCP_MAX_ORDER)) {
		free_pages_slow(page, order);
		return;
	}
	word ^= racy_load(free_check_word[order]);
	if (unlikely(word & FREE_CHECK_WORD)) {
		free_pages_slow(page, order);
		return;
	}
	/* The flags with 0 above the list type (its order field matched): the zone and the type. */
	flags = (uint32_t)word;
	set_page_ref(page, 0); /* its flags keep its order and list type: see struct per_cpu_pages */
	if (unlikely(!fast_irq_off(&irq))) {
		free_pages_push_saving(page, order, flags);
		return;
	}
	free_pages_push(page, order, flags, irq);
}

/* ---- isolated pageblocks ----------------------------------------------------------------- */

/* The zone whose managed frames include pfn, or NULL (reported, as fn's refusal). */
static struct zone *managed_zone_of(unsigned long pfn, const char *fn)
{
	struct zone *zone = &mm_zones[pfn_zone(pfn)];

	if (!pfn_valid(pfn) || !zone->pageblock_type || pfn < zone->start_pfn || pfn >= zone->end_pfn) {
		printk("%s: refused: pfn %#lx is in no zone's pageblocks\n", fn, pfn);
		return NULL;
	}
	return zone;
}

/* Gives the pageblock holding pfn type mt, its free blocks with it; -EINVAL when no zone has it. */
static int set_pageblock_type_locked(unsigned long pfn, unsigned int mt, const char *fn)
{
	struct zone *zone = managed_zone_of(pfn, fn);
	unsigned long flags;

	if (!zone)
		return -EINVAL;
	flags = zone_lock(zone);
	mm_buddy_move_pageblock(zone, pfn, mt);
	zone_unlock(zone, flags);
	return 0;
}

int isolate_pageblock(unsigned long pfn)
{
	return set_pageblock_type_locked(pfn, MIGRATE_ISOLATE, "isolate_pageblock");
}

int unisolate_pageblock(unsigned long pfn, unsigned int mt)
{
	struct zone *zone = managed_zone_of(pfn, "unisolate_pageblock");

	if (zone && (mt >= MIGRATE_PCPTYPES || get_pageblock_migratetype(pfn_to_page(pfn)) != MIGRATE_ISOLATE)) {
		printk("unisolate_pageblock: refused: pfn %#lx's pageblock is %s, type %u asked\n", pfn,
		       migratetype_name(get_pageblock_migratetype(pfn_to_page(pfn))), mt);
		return -EINVAL;
	}
	return zone ? set_pageblock_type_locked(pfn, mt, "unisolate_pageblock") : -EINVAL;
}

/* ---- compound pages: the destructor at the last reference ---------------------------------- */

/*
 * Runs the destructor of a large folio whose count reached zero: only a registered one, and never
 * on a block whose owner does not free it through its last reference (a slab's).
 */
static void destroy_folio(struct folio *folio)
{
	compound_page_dtor *dtor = folio_dtor(folio);
	char msg[128];
	const char *owned = block_owner_problem(&folio->page, BLOCK_LAST_PUT, msg, sizeof(msg));

	if (owned) {
		bad_page(&folio->page, owned);
		return;
	}
	if (!compound_dtor_name(dtor)) {
		bad_page(&folio->page, dtor ? "compound page has an unknown destructor (not called)"
					    : "compound page has no destructor");
		return;
	}
	dtor(&folio->page);
}

void destroy_compound_page(struct page *head)
{
	if (!PageHead(head)) {
		bad_page(head, "destroy_compound_page: not the head of a compound page");
		return;
	}
	destroy_folio(page_as_folio(head));
}

/*
 * The unit's count is already zero here. Its metadata is checked once (free_compound_prepare()
 * reports a damaged unit, which is then left alone) and cleared, and the block goes back whole.
 * A destructor is handed the head: page_as_folio(), not a lookup, so that a tail passed here by
 * mistake is still reported (as not a head) rather than freeing its unit.
 */
void free_compound_page(struct page *head)
{
	struct folio *folio = page_as_folio(head);
	unsigned int order = folio_order(folio);
	char msg[128];
	const char *owned = block_owner_problem(&folio->page, BLOCK_LAST_PUT, msg, sizeof(msg));

	if (order > MAX_ORDER) {
		bad_page(&folio->page, "free_compound_page: a gigantic page cannot go to the buddy allocator");
		return;
	}
	if (owned) {
		bad_page(&folio->page, owned);
		return;
	}
	if (free_compound_prepare(&folio->page, order))
		free_block(&folio->page, order);
}

/* noinline as alloc_pages(): page_owner records its caller, not this function. */
__attribute__((noinline)) unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = unlikely(mm_page_owner_on)
				    ? alloc_pages_recorded(gfp, order, (uintptr_t)__builtin_return_address(0))
				    : alloc_pages_local(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

void free_pages(unsigned long addr, unsigned int order)
{
	unsigned long pfn = PFN_DOWN(addr - mm_direct_map_offset);

	if (!addr)
		return;
	if (addr < mm_direct_map_offset || (addr & (PAGE_SIZE - 1)) || !pfn_valid(pfn)) {
		printk("free_pages: %#lx is not the page-aligned direct-map address of RAM; ignored\n", addr);
		count_bad_page_report();
		return;
	}
	__free_pages(pfn_to_page(pfn), order);
}

/*
 * What is wrong with split_page(page, order), or NULL: only a plain block as alloc_pages() hands
 * it out (one reference, its order in its flags, no owner of its own) can be cut into pages.
 */
static const char *split_problem(const struct page *page, unsigned int order, char *msg, size_t size)
{
	const char *problem = order > MAX_ORDER ? "order above MAX_ORDER" : free_problem(page, order, msg, size);

	if (!problem && PageHead(page))
		return "a compound page (split_huge_page() splits those)";
	return problem;
}

int split_page(struct page *page, unsigned int order)
{
	unsigned int mt = page_pcptype(page);
	char msg[120];
	const char *problem = split_problem(page, order, msg, sizeof(msg));

	if (problem) {
		char line[160];

		snprintf(line, sizeof(line), "split_page at order %u: %s", order, problem);
		bad_page(page, line);
		return -EINVAL;
	}
	for (unsigned long i = 0; i < (1UL << order); i++) {
		set_page_ref(&page[i], 1);
		set_page_private(&page[i], 0);
		set_block_order_type(&page[i], 0, mt); /* the fast free path reads the type here */
	}
	if (unlikely(mm_page_owner_on))
		page_owner_split(page_to_pfn(page), order);
	return 0;
}

/* The order of the smallest block that holds npages pages. */
static unsigned int order_for_pages(unsigned long npages)
{
	unsigned int order = 0;

	while ((1UL << order) < npages)
		order++;
	return order;
}

/* noinline as alloc_pages(): page_owner records its caller, not this function. */
__attribute__((noinline)) void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	unsigned long npages = PFN_UP(MIN(size, PAGE_SIZE << MAX_ORDER));
	unsigned int order = order_for_pages(npages);
	struct page *page;

	if (!size || size > PAGE_SIZE << MAX_ORDER || (gfp & __GFP_COMP)) {
		printk("alloc_pages_exact: refused: size %zu (1..%lu bytes) gfp %#x (no __GFP_COMP)\n", size,
		       PAGE_SIZE << MAX_ORDER, gfp);
		return NULL;
	}
	page = unlikely(mm_page_owner_on) ? alloc_pages_recorded(gfp, order, (uintptr_t)__builtin_return_address(0))
				       : alloc_pages_local(gfp, order);
	if (!page)
		return NULL;
	if (split_page(page, order)) { /* cannot fail on a block just allocated: keep it whole */
		__free_pages(page, order);
		return NULL;
	}
	for (unsigned long i = npages; i < (1UL << order); i++)
		__free_pages(&page[i], 0);
	return page_address(page);
}

/*
 * Is [addr, addr + size) page-aligned RAM whose every page is an allocated order-0 page with one
 * reference, as alloc_pages_exact() leaves it? If not, reported (once) and false.
 */
static bool exact_range_ok(uintptr_t addr, size_t size, unsigned long npages)
{
	unsigned long pfn = PFN_DOWN(addr - mm_direct_map_offset);
	char msg[120];

	if (!size || size > PAGE_SIZE << MAX_ORDER || addr < mm_direct_map_offset || (addr & (PAGE_SIZE - 1))) {
		printk("free_pages_exact: %#lx, %zu bytes is not what alloc_pages_exact() returned; ignored\n",
		       (unsigned long)addr, size);
		count_bad_page_report();
		return false;
	}
	for (unsigned long i = 0; i < npages; i++) {
		const char *problem;

		if (!pfn_valid(pfn + i)) {
			printk("free_pages_exact: %#lx, %zu bytes runs past RAM; ignored\n", (unsigned long)addr, size);
			count_bad_page_report();
			return false;
		}
		problem = free_problem(pfn_to_page(pfn + i), 0, msg, sizeof(msg));
		if (problem) {
			bad_page(pfn_to_page(pfn + i), problem);
			return false;
		}
	}
	return true;
}

/* Every page is checked before any is freed: a bad call frees nothing. */
void free_pages_exact(void *virt, size_t size)
{
	unsigned long npages = PFN_UP(MIN(size, PAGE_SIZE << MAX_ORDER));

	if (!virt || !exact_range_ok((uintptr_t)virt, size, npages))
		return;
	for (unsigned long i = 0; i < npages; i++)
		__free_pages(virt_to_page(virt) + i, 0);
}

/*
 * folio, if references may be taken or dropped on it: allocated (count above zero). Otherwise
 * reported, as "fn on a page that is not allocated", and false.
 */
static bool folio_ref_ok(struct folio *folio, const char *fn)
{
	int count = folio_ref_count(folio);
	char msg[80];

	if (count > 0)
		return true;
	snprintf(msg, sizeof(msg), "%s on a page that is not allocated (reference count %d)", fn, count);
	bad_page(&folio->page, msg);
	return false;
}

/* The folio whose count page's references use, or NULL (reported) for an impossible tail. */
static struct folio *ref_folio(struct page *page, const char *fn)
{
	struct folio *folio = page_folio(page);
	char msg[80];

	if (PageTail(page) && !compound_head_plausible(page, &folio->page)) {
		snprintf(msg, sizeof(msg), "%s: tail page with an impossible head pointer", fn);
		bad_page(page, msg);
		return NULL;
	}
	return folio_ref_ok(folio, fn) ? folio : NULL;
}

/* A folio pointer that is really a tail page: reported (a caller skipped page_folio()). */
static bool folio_is_tail(struct folio *folio, const char *fn)
{
	char msg[80];

	if (!PageTail(&folio->page))
		return false;
	snprintf(msg, sizeof(msg), "%s: a tail page is not a folio (use page_folio())", fn);
	bad_page(&folio->page, msg);
	return true;
}

static void folio_ref_inc(struct folio *folio)
{
	__atomic_fetch_add(&folio->page._refcount, 1, __ATOMIC_RELAXED);
}

/*
 * put_page() on a block that may have an owner (mm/block_owner.h): true when the reference was
 * dealt with, false when the block has no owner (any longer) and the caller drops it as any
 * other. An owned block's count goes down only while others remain, in one compare-and-swap, so
 * that two CPUs putting at once cannot both take the last one away; the owner's last reference
 * is reported and stays (nothing changes).
 *
 * The owner is asked again at the last reference, because the first answer and the count are
 * two reads: a migration's passing reference may find PG_movable set, then the owner clears it
 * and drops its own reference (clear_page_movable(), put_page()), and the migration's is the
 * last. The block is nobody's then, and is freed. The acquire load that sees the owner's drop
 * sees its clear too, which came before it.
 */
static bool folio_ref_dec_owned(struct folio *folio)
{
	char msg[128];
	const char *owned = block_owner_problem(&folio->page, BLOCK_LAST_PUT, msg, sizeof(msg));
	int count;

	if (!owned)
		return false;
	arch_race_window("put_page: the block's owner asked, its count not read yet");
	count = __atomic_load_n(&folio->page._refcount, __ATOMIC_ACQUIRE);
	do {
		if (count <= 1) {
			owned = block_owner_problem(&folio->page, BLOCK_LAST_PUT, msg, sizeof(msg));
			if (count == 1 && !owned)
				return false;
			bad_page(&folio->page, owned ? owned : "put_page on a page that is not allocated");
			return true;
		}
	} while (!__atomic_compare_exchange_n(&folio->page._refcount, &count, count - 1, true,
					      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	return true;
}

/*
 * The decrement and the test are one atomic operation: when two CPUs drop the last two
 * references at once, exactly one of them sees zero and frees. Acquire and release, so that the
 * one that frees sees everything the others wrote to the page before they let go. A block that
 * may have an owner is asked about first (mm/block_owner.h), before the count changes: a slab's
 * last reference is not put_page()'s to drop.
 */
static void folio_ref_dec_and_free(struct folio *folio)
{
	if (unlikely(block_may_be_owned(&folio->page)) && folio_ref_dec_owned(folio))
		return;
	if (__atomic_sub_fetch(&folio->page._refcount, 1, __ATOMIC_ACQ_REL))
		return;
	if (folio_test_large(folio)) {
		destroy_folio(folio);
		return;
	}
	set_page_ref(&folio->page, 1); /* the reference __free_pages() drops */
	__free_pages(&folio->page, alloc_order_of(&folio->page));
}

void get_page(struct page *page)
{
	struct folio *folio = ref_folio(page, "get_page");

	if (folio)
		folio_ref_inc(folio);
}

void put_page(struct page *page)
{
	struct folio *folio = ref_folio(page, "put_page");

	if (folio)
		folio_ref_dec_and_free(folio);
}

void folio_get(struct folio *folio)
{
	if (!folio_is_tail(folio, "folio_get") && folio_ref_ok(folio, "folio_get"))
		folio_ref_inc(folio);
}

void folio_put(struct folio *folio)
{
	if (!folio_is_tail(folio, "folio_put") && folio_ref_ok(folio, "folio_put"))
		folio_ref_dec_and_free(folio);
}

unsigned long zone_free_pages(const struct zone *zone)
{
	unsigned long buddy, pages;
	unsigned int tries = 0;

	/*
	 * The counts are read one after another: a refill that moves a batch from the buddy lists
	 * to a CPU's list between the reads would be counted twice (32 whole pageblocks: 16384
	 * frames). It changes the buddy count, so read again when that moved meanwhile (a few
	 * times at most: a count that moves all the time is as good as any).
	 */
	do {
		buddy = __atomic_load_n(&zone->buddy_free_pages, __ATOMIC_ACQUIRE);
		pages = buddy + mm_pcp_handoff_pages(zone);
		for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
			pages += mm_pcp_free_pages(cpu_pcp(cpu, (unsigned long)(zone - mm_zones)));
	} while (__atomic_load_n(&zone->buddy_free_pages, __ATOMIC_ACQUIRE) != buddy && ++tries < 4);
	return pages;
}

unsigned long nr_free_pages(void)
{
	unsigned long sum = 0;

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
		sum += zone_free_pages(&mm_zones[z]);
	return sum;
}
