/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the per-CPU page lists with threads playing CPUs (host_mm_set_cpu()): a block
 * freed on another CPU goes to that CPU's list (a 2 MiB block too); memory stranded on another
 * CPU's list is found before an allocation fails, merged when a larger block is asked for; and
 * when two CPUs drop the last two references to a page at once, exactly one of them frees it; a
 * drain on one CPU gives back what another CPU's lists hold; two CPUs' refills in an idle zone
 * take different pageblocks, and leave the rest of a pageblock the other CPU reserves unless
 * nothing else is free. On an 8 GiB map: a CPU's bursts of 2 MiB blocks as long as its list's
 * high stay on its list, and the batches of whole pageblocks a freeing CPU gives back reach
 * another CPU's refill unmerged (or the buddy lists on a drain).
 */
#include <pthread.h>
#include <sched.h>

#include "tests/ktest/ktest.h"
#include "mm/bad_page.h"
#include "mm/pcp.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/node_stat.h"
#include "mm/poison.h"
#include "mm/slab.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"
#include "tests/mm/mm_rebuild.h"

/* The lists of cpu for the zone page is in. */
static struct per_cpu_pages *pcp_of(unsigned int cpu, const struct page *page)
{
	return cpu_pcp(cpu, page_zonenum(page));
}

static void a_block_freed_on_another_cpu_goes_to_that_cpus_list(struct ktest *t)
{
	struct page *page;

	host_mm_set_cpu(0);
	page = alloc_pages(GFP_KERNEL, 1);
	KT_ASSERT(t, page != NULL, "alloc_pages(1) failed");
	host_mm_set_cpu(1);
	__free_pages(page, 1);
	host_mm_set_cpu(0);
	KT_EXPECT(t, pcp_count(pcp_of(1, page), 1) >= 1 && pcp_first_block(pcp_of(1, page), 1, MIGRATE_UNMOVABLE) == page,
		  "the block is not first on CPU 1's order-1 list (%u blocks there)", pcp_count(pcp_of(1, page), 1));
	KT_EXPECT(t, pcp_count(pcp_of(0, page), 1) == 0 || pcp_first_block(pcp_of(0, page), 1, MIGRATE_UNMOVABLE) != page,
		  "the block went to CPU 0's list");
	drain_pcp_lists();
}

/*
 * A 2 MiB block allocated on CPU 0 and freed on CPU 1 goes to CPU 1's list of whole pageblocks,
 * and the next 2 MiB allocation on CPU 1 gets it back from there.
 */
static void a_pageblock_freed_on_another_cpu_goes_to_that_cpus_list(struct ktest *t)
{
	struct page *page, *again;

	host_mm_set_cpu(0);
	page = alloc_pages(GFP_KERNEL, PAGEBLOCK_ORDER);
	KT_ASSERT(t, page != NULL, "alloc_pages(%d) failed", PAGEBLOCK_ORDER);
	host_mm_set_cpu(1);
	__free_pages(page, PAGEBLOCK_ORDER);
	KT_EXPECT(t, pcp_first_block(pcp_of(1, page), PCP_PAGEBLOCK_SLOT, page_pcptype(page)) == page,
		  "the block is not first on CPU 1's list of whole pageblocks (%u blocks there)",
		  pcp_count(pcp_of(1, page), PCP_PAGEBLOCK_SLOT));
	again = alloc_pages(GFP_KERNEL, PAGEBLOCK_ORDER);
	KT_EXPECT(t, again == page, "CPU 1's next 2 MiB allocation got pfn %#lx, not the block it freed (%#lx)",
		  again ? page_to_pfn(again) : 0, page_to_pfn(page));
	if (again)
		__free_pages(again, PAGEBLOCK_ORDER);
	host_mm_set_cpu(0);
	drain_pcp_lists();
}

#define HELD_MARK 0x48454c44UL /* private of a page take_everything() holds */

/* Puts order-0 page (when not NULL) on the chain of held pages, through its lru.next; page. */
static struct page *hold(struct list_head *held, struct page *page)
{
	if (page) {
		page->lru.next = held->next;
		held->next = &page->lru;
	}
	return page;
}

/* Every page GFP_ATOMIC gets at order 0, chained through lru.next, marked in private. */
static void take_everything(struct list_head *held)
{
	struct page *page;

	held->next = held;
	while ((page = hold(held, alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0))))
		page->private = HELD_MARK;
}

/* Takes page off the chain of held pages. */
static void unchain(struct list_head *held, struct page *page)
{
	for (struct list_head *l = held; l->next != held; l = l->next)
		if (l->next == &page->lru) {
			l->next = page->lru.next;
			return;
		}
}

static void give_everything_back(struct list_head *held)
{
	for (struct list_head *l = held->next, *next; l != held; l = next) {
		next = l->next;
		__free_pages(lru_to_page(l), 0);
	}
}

/* An even page of the chain whose buddy is held too, or NULL. */
static struct page *held_buddies(struct list_head *held)
{
	for (struct list_head *l = held->next; l != held; l = l->next) {
		struct page *p = lru_to_page(l);

		if (!(page_to_pfn(p) & 1) && page_count(p + 1) == 1 && p[1].private == HELD_MARK)
			return p;
	}
	return NULL;
}

/*
 * With memory exhausted on CPU 0, CPU 1 frees two buddies: they sit unmerged on CPU 1's list.
 * CPU 0 then asks for an order-1 block: only draining CPU 1's list (and merging the two) can
 * give it, and it must; then the same for two single pages.
 */
static void memory_on_another_cpus_list_is_found_before_an_allocation_fails(struct ktest *t)
{
	bool poison = mm_debug_poison;
	struct mm_shape before;
	struct list_head held;
	struct page *pair[2], *got;

	set_page_poisoning(false);
	mm_shape_take(&before);
	host_mm_set_cpu(0);
	take_everything(&held);
	KT_ASSERT(t, nr_free_pages() == 0, "%lu pages still free", nr_free_pages());
	pair[0] = held_buddies(&held);
	KT_ASSERT(t, pair[0] != NULL, "no two held pages are buddies");
	pair[1] = pair[0] + 1;
	unchain(&held, pair[0]);
	unchain(&held, pair[1]);
	host_mm_set_cpu(1);
	__free_pages(pair[0], 0);
	__free_pages(pair[1], 0);
	host_mm_set_cpu(0);
	KT_EXPECT_EQ(t, mm_pcp_free_pages(pcp_of(1, pair[0])), 2);
	got = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 1);
	KT_EXPECT(t, got == pair[0], "order 1 on CPU 0 got %p, not the buddies freed on CPU 1 (%p)",
		  (void *)got, (void *)pair[0]);
	KT_EXPECT_EQ(t, mm_pcp_free_pages(pcp_of(1, pair[0])), 0);
	if (got) {
		host_mm_set_cpu(1);
		__free_pages(got, 1);
		host_mm_set_cpu(0);
		got = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0); /* under min: GFP_KERNEL gets nothing */
		KT_EXPECT(t, got == NULL, "GFP_KERNEL got a page with %lu free", nr_free_pages() + 1);
		if (got)
			__free_pages(got, 0);
		got = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
		KT_EXPECT(t, got == pair[0] || got == pair[1], "order 0 on CPU 0 got %p", (void *)got);
		if (got)
			__free_pages(got, 0);
	}
	give_everything_back(&held);
	mm_expect_shape(t, &before);
	set_page_poisoning(poison);
}

/* ---- a CPU's own batches of whole pageblocks ------------------------------------------------- */

/* 8 GiB, 6 of them above 4 GiB: the Normal zone's spare memory exceeds a list's PCP_HIGH_BLOCKS pageblocks. */
static const char pageblock_rounds_map[] =
	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"BIOS-e820: [mem 0x0000000000100000-0x000000007fffffff] usable\n"
	"BIOS-e820: [mem 0x0000000100000000-0x000000027fffffff] usable\n";

/* n 2 MiB blocks of GFP_KERNEL allocated on this CPU into pages, then freed; false when one failed. */
static bool pageblock_round(struct page **pages, unsigned int n)
{
	unsigned int got = 0;

	while (got < n && (pages[got] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER)))
		got++;
	for (unsigned int i = 0; i < got; i++)
		__free_pages(pages[i], PAGEBLOCK_ORDER);
	return got == n;
}

/*
 * Round after round of PCP_HIGH_BLOCKS 2 MiB allocations, then their frees, on one CPU whose list
 * of whole pageblocks holds that many: no round takes a block from the buddy lists or gives one
 * back, even after a few blocks another CPU allocated were freed on this one. Those pushed the
 * list over its high, and it gave back a batch (32) at once: from then on every round started
 * short, refilled a batch from the buddy lists and gave a batch back to them at its end, a 4 MiB
 * merge and split per block under the zone lock (two threads' batches in make bench-host scaled
 * 1.55 where one-at-a-time scaled 1.9). The batch now waits on the zone's hand-off lists, and the
 * next refill takes it back whole.
 */
static void a_cpus_rounds_of_its_lists_high_in_pageblocks_stay_off_the_buddy_lists(struct ktest *t)
{
	static struct page *pages[PCP_HIGH_BLOCKS], *others[8];
	bool poison = mm_debug_poison;
	struct per_cpu_pages *pcp;
	struct fw_map map;
	unsigned long before;
	unsigned int n;

	if (!KT_EXPECT(t, rebuild_on_text(pageblock_rounds_map, &map) == 0, "mm_init on the 8 GiB map failed"))
		return;
	set_page_poisoning(false); /* 2 GiB of pageblocks per round */
	host_mm_set_cpu(0);
	pcp = cpu_pcp(0, ZONE_NORMAL);
	KT_EXPECT(t, pageblock_round(pages, PCP_HIGH_BLOCKS) && pcp->high[PCP_PAGEBLOCK_SLOT] == PCP_HIGH_BLOCKS &&
			     page_zonenum(pages[0]) == ZONE_NORMAL,
		  "the first round: list high %u, not %u", pcp->high[PCP_PAGEBLOCK_SLOT], PCP_HIGH_BLOCKS);
	host_mm_set_cpu(1);
	for (n = 0; n < 8 && (others[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER)); n++)
		;
	host_mm_set_cpu(0);
	while (n)
		__free_pages(others[--n], PAGEBLOCK_ORDER);
	KT_EXPECT(t, pageblock_round(pages, PCP_HIGH_BLOCKS), "the second round failed");
	before = mm_zones[ZONE_NORMAL].buddy_free_pages;
	for (n = 0; n < PCP_HIGH_BLOCKS && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER)); n++)
		;
	KT_EXPECT(t, n == PCP_HIGH_BLOCKS && mm_zones[ZONE_NORMAL].buddy_free_pages == before,
		  "the third round's %u allocations took %ld pages from the buddy lists (CPU 0's list: %u blocks)", n,
		  (long)(before - mm_zones[ZONE_NORMAL].buddy_free_pages), pcp_count(pcp, PCP_PAGEBLOCK_SLOT));
	while (n)
		__free_pages(pages[--n], PAGEBLOCK_ORDER);
	KT_EXPECT(t, mm_zones[ZONE_NORMAL].buddy_free_pages == before,
		  "the third round's frees left the buddy lists %lu free pages, %lu before its allocations",
		  mm_zones[ZONE_NORMAL].buddy_free_pages, before);
	set_page_poisoning(poison);
	drain_pcp_lists();
	KT_EXPECT(t, mm_check_free_lists(&map) == NULL, "%s", mm_check_free_lists(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* ---- whole pageblocks one CPU frees and another allocates ---------------------------------- */

/*
 * 2 MiB blocks allocated on CPU 0 and freed on CPU 1: enough to take CPU 1's list of whole
 * pageblocks to its high (PCP_HIGH_BLOCKS on the 8 GiB map), then past it three times, giving
 * back a batch (PCP_BATCH_BLOCKS) each time: two for the hand-off lists, the third for the buddy
 * lists (the hand-off lists hold two batches a type).
 */
#define CROSS_BLOCKS (PCP_HIGH_BLOCKS + 2 * PCP_BATCH_BLOCKS + 1)

/*
 * On the 8 GiB map: CROSS_BLOCKS 2 MiB blocks allocated on CPU 0 (pfns into pfns), freed on CPU 1.
 * Returns the zone's buddy free pages after the allocations, or 0 when they failed.
 */
static unsigned long free_on_cpu1_what_cpu0_allocated(struct ktest *t, struct fw_map *map, unsigned long *pfns)
{
	static struct page *pages[CROSS_BLOCKS];
	unsigned long buddy_free;
	unsigned int n;

	if (!KT_EXPECT(t, rebuild_on_text(pageblock_rounds_map, map) == 0, "mm_init on the 8 GiB map failed"))
		return 0;
	set_page_poisoning(false);
	host_mm_set_cpu(0);
	for (n = 0; n < CROSS_BLOCKS && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER)); n++)
		pfns[n] = page_to_pfn(pages[n]);
	buddy_free = mm_zones[ZONE_NORMAL].buddy_free_pages;
	host_mm_set_cpu(1);
	for (unsigned int i = 0; i < n; i++)
		__free_pages(pages[i], PAGEBLOCK_ORDER);
	host_mm_set_cpu(0);
	return KT_EXPECT(t, n == CROSS_BLOCKS && page_zonenum(pages[0]) == ZONE_NORMAL,
			 "%u of %u 2 MiB blocks allocated in zone Normal", n, CROSS_BLOCKS) ? buddy_free : 0;
}

static void back_to_default_map(struct ktest *t, struct fw_map *map, bool poison)
{
	set_page_poisoning(poison);
	host_mm_set_cpu(0);
	drain_pcp_lists();
	KT_EXPECT(t, mm_check_free_lists(map) == NULL, "%s", mm_check_free_lists(map));
	KT_EXPECT_EQ(t, rebuild_default(map), 0);
}

static bool pfn_among(unsigned long pfn, const unsigned long *pfns, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (pfns[i] == pfn)
			return true;
	return false;
}

/*
 * The batches of whole pageblocks CPU 1 gives back, freeing what CPU 0 allocated, reach CPU 0's
 * next refill as they are: neither CPU 1's give-back nor CPU 0's refill moves a block through
 * the buddy lists (each of them merged and split a 4 MiB block per 2 MiB one under the zone
 * lock: 2 M blocks/s in make bench-host's cross-CPU frees, where one CPU alone does 40 M). A
 * third batch, which finds the hand-off lists full, goes to the buddy lists.
 */
static void pageblocks_freed_on_one_cpu_reach_anothers_refill_unmerged(struct ktest *t)
{
	static unsigned long pfns[CROSS_BLOCKS];
	struct page *held[PCP_BATCH_BLOCKS + 1];
	bool poison = mm_debug_poison;
	struct per_cpu_pages *pcp;
	unsigned long buddy_free, after_frees;
	unsigned int n, on_list;
	struct fw_map map;

	buddy_free = free_on_cpu1_what_cpu0_allocated(t, &map, pfns);
	if (!buddy_free)
		goto out;
	after_frees = mm_zones[ZONE_NORMAL].buddy_free_pages;
	KT_EXPECT(t, after_frees == buddy_free + ((unsigned long)PCP_BATCH_BLOCKS << PAGEBLOCK_ORDER),
		  "CPU 1's frees gave %ld pages to the buddy lists, not the %u of its third batch",
		  (long)(after_frees - buddy_free), PCP_BATCH_BLOCKS << PAGEBLOCK_ORDER);
	/* CPU 0's list holds what its last refill left; the allocation after those refills it. */
	pcp = cpu_pcp(0, ZONE_NORMAL); /* the rebuilt allocator's */
	on_list = MIN(pcp_count(pcp, PCP_PAGEBLOCK_SLOT), PCP_BATCH_BLOCKS);
	for (n = 0; n <= on_list && (held[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER)); n++)
		;
	KT_EXPECT(t, n == on_list + 1 && mm_zones[ZONE_NORMAL].buddy_free_pages == after_frees,
		  "CPU 0's refill took %ld pages from the buddy lists", (long)(after_frees - mm_zones[ZONE_NORMAL].buddy_free_pages));
	KT_EXPECT(t, n == on_list + 1 && pfn_among(page_to_pfn(held[on_list]), pfns, CROSS_BLOCKS),
		  "CPU 0's refill handed out pfn %#lx, not a block CPU 1 freed", n == on_list + 1 ? page_to_pfn(held[on_list]) : 0);
	while (n)
		__free_pages(held[--n], PAGEBLOCK_ORDER);
out:
	back_to_default_map(t, &map, poison);
}

/*
 * drain_pcp_lists() gives the batches of whole pageblocks CPU 1 gave back (which wait for another
 * CPU's refill) to the buddy lists too: afterwards they hold every free page of the zone.
 */
static void a_drain_gives_back_the_pageblocks_waiting_for_a_refill(struct ktest *t)
{
	static unsigned long pfns[CROSS_BLOCKS];
	bool poison = mm_debug_poison;
	struct fw_map map;

	if (!free_on_cpu1_what_cpu0_allocated(t, &map, pfns))
		goto out;
	drain_pcp_lists();
	KT_EXPECT(t, mm_zones[ZONE_NORMAL].buddy_free_pages == zone_free_pages(&mm_zones[ZONE_NORMAL]),
		  "after the drain the buddy lists hold %lu free pages of zone Normal's %lu",
		  mm_zones[ZONE_NORMAL].buddy_free_pages, zone_free_pages(&mm_zones[ZONE_NORMAL]));
out:
	back_to_default_map(t, &map, poison);
}

/* ---- how much the lists keep, and where a freed block goes ---------------------------------- */

/*
 * An idle zone's list holds a burst of PCP_HIGH_BLOCKS frees: its high follows the zone's spare
 * memory, not a fixed 1/1024 of the zone (then a few dozen blocks here, and a batch of 1024 pairs went to
 * the buddy lists four times in five).
 */
static void an_idle_zones_list_keeps_a_burst_of_1024_frees(struct ktest *t)
{
	static struct page *pages[PCP_HIGH_BLOCKS];
	struct per_cpu_pages *pcp;
	unsigned int n;

	host_mm_set_cpu(0);
	drain_pcp_lists();
	for (n = 0; n < PCP_HIGH_BLOCKS && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)); n++)
		;
	pcp = n ? pcp_of(0, pages[0]) : NULL;
	KT_EXPECT(t, n == PCP_HIGH_BLOCKS && mm_zones[page_zonenum(pages[0])].buddy_free_pages >
					 mm_zones[page_zonenum(pages[0])].managed_pages / 2,
		  "%u pages allocated, in a zone not idle", n);
	while (n)
		__free_pages(pages[--n], 0);
	if (pcp)
		KT_EXPECT(t, pcp_count(pcp, 0) >= PCP_HIGH_BLOCKS - pcp->batch[0],
			  "CPU 0's order-0 list holds %u blocks after %u frees (high %u, batch %u)", pcp_count(pcp, 0),
			  PCP_HIGH_BLOCKS, pcp->high[0], pcp->batch[0]);
	drain_pcp_lists();
}

/*
 * A burst of whole-pageblock frees stays on the freeing CPU's list while its zone has spare
 * memory for it: half the zone's spare pageblocks allocated, then freed, on one CPU, and none of
 * them goes back to the buddy lists. Their lists' limit was a share of the spare memory divided
 * among the CPUs, too short for make bench-host's batches of 1024: every 2 MiB block of two
 * CPUs' batches went through the zone lock.
 */
static void a_cpu_keeps_a_burst_of_freed_pageblocks_while_its_zone_has_spare_memory(struct ktest *t)
{
	static struct page *pages[PCP_HIGH_BLOCKS];
	unsigned long spare, buddy_free;
	struct per_cpu_pages *pcp;
	struct zone *zone;
	unsigned int n = 0, want, before;

	host_mm_set_cpu(0);
	drain_pcp_lists();
	pages[0] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER);
	KT_ASSERT(t, pages[0], "an order-%d allocation failed", PAGEBLOCK_ORDER);
	zone = &mm_zones[page_zonenum(pages[0])]; /* the zone GFP_KERNEL's 2 MiB blocks come from */
	spare = (zone->buddy_free_pages - (zone->managed_pages >> PCP_RESERVE_SHIFT)) >> PAGEBLOCK_ORDER;
	want = (unsigned int)MIN(spare / 2, PCP_HIGH_BLOCKS);
	KT_ASSERT(t, want >= 4, "zone %s has %lu spare pageblocks, too few for the case", zone->name, spare);
	n = 1;
	while (n < want && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER)) &&
	       page_zonenum(pages[n]) == zone - mm_zones)
		n++;
	KT_EXPECT(t, n == want, "%u of %u 2 MiB blocks allocated from zone %s", n, want, zone->name);
	pcp = cpu_pcp(0, (unsigned long)(zone - mm_zones));
	before = pcp_count(pcp, PCP_PAGEBLOCK_SLOT);
	buddy_free = zone->buddy_free_pages;
	for (unsigned int i = 0; i < n; i++)
		__free_pages(pages[i], PAGEBLOCK_ORDER);
	KT_EXPECT(t, pcp_count(pcp, PCP_PAGEBLOCK_SLOT) == before + n && zone->buddy_free_pages == buddy_free,
		  "CPU 0's list of whole pageblocks holds %u after %u frees (%u before, high %u); the buddy lists "
		  "%lu free pages, %lu before", pcp_count(pcp, PCP_PAGEBLOCK_SLOT), n, before, pcp->high[PCP_PAGEBLOCK_SLOT],
		  zone->buddy_free_pages, buddy_free);
	if (n < want && pages[n])
		__free_pages(pages[n], PAGEBLOCK_ORDER);
	drain_pcp_lists();
}

/*
 * An order-0 refill leaves no frame whose pair frame (pfn ^ 1: the two struct pages share a cache
 * line) it took alone in the buddy lists, where another CPU's refill would take it. The case
 * starts the free lists with a frame on its own: allocated with the lists off, an order-0
 * block leaves the other half of its pair free on its own, and the refill takes it first, then
 * splits a larger block into the odd number of frames left in its batch.
 */
static void an_order0_refill_takes_both_frames_of_a_pair(struct ktest *t)
{
	struct per_cpu_pages *pcp;
	struct page *lone, *page;
	unsigned int split = 0;

	host_mm_set_cpu(0);
	set_pcp_lists(false);
	lone = alloc_pages(GFP_KERNEL, 0);
	set_pcp_lists(true);
	KT_ASSERT(t, lone, "alloc_pages(0) with the lists off failed");
	page = alloc_pages(GFP_KERNEL, 0); /* the refill */
	KT_ASSERT(t, page, "alloc_pages(0) failed");
	pcp = pcp_of(0, page);
	for (unsigned int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		for (struct list_head *e = pcp_list_next(pcp, 0, mt, NULL); e; e = pcp_list_next(pcp, 0, mt, e)) {
			struct page *pair = pfn_to_page(page_to_pfn(lru_to_page(e)) ^ 1);

			split += PageBuddy(pair) && pair->private == 0;
		}
	}
	KT_EXPECT(t, split == 0, "%u frames on CPU 0's order-0 lists (%u there) have the other frame of their pair "
		  "free on its own in the buddy lists", split, pcp_count(pcp, 0));
	__free_pages(page, 0);
	__free_pages(lone, 0);
	drain_pcp_lists();
}

/* Does a frame on cpu's order-0 lists for page's zone, or page itself, lie in pageblock pb? */
static bool cpu_holds_frame_in(unsigned int cpu, const struct page *page, unsigned long pb)
{
	const struct per_cpu_pages *pcp = pcp_of(cpu, page);

	if (page_to_pfn(page) >> PAGEBLOCK_ORDER == pb)
		return true;
	for (unsigned int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		for (struct list_head *e = pcp_list_next(pcp, 0, mt, NULL); e; e = pcp_list_next(pcp, 0, mt, e))
			if (page_to_pfn(lru_to_page(e)) >> PAGEBLOCK_ORDER == pb)
				return true;
	return false;
}

/*
 * Gives type mt a free pageblock (allocated with the lists off, then freed: the claim makes it
 * mt's); false if it could not.
 */
static bool free_pageblock_of_type(unsigned int mt)
{
	bool lists = set_pcp_lists(false);
	struct page *page = alloc_pages((mt == MIGRATE_MOVABLE ? __GFP_MOVABLE : 0) | GFP_KERNEL | __GFP_NOWARN,
					PAGEBLOCK_ORDER);

	if (page)
		__free_pages(page, PAGEBLOCK_ORDER);
	set_pcp_lists(lists);
	return page && mm_zones[mm_top_zone].free_orders[mt] >> PAGEBLOCK_ORDER;
}

/*
 * Puts movable frames on CPU 0's order-0 list, at least 64 under half its high (frames allocated
 * and freed on CPU 0), so that its next refill of another type has room for a batch and not for
 * the rest of a split (take_split_rest()).
 */
static void crowd_order0_list(struct ktest *t)
{
	struct list_head movable = { &movable, &movable };
	const struct per_cpu_pages *pcp = cpu_pcp(0, mm_top_zone);
	unsigned int want = pcp->high[0] / 2u - 64u;

	KT_ASSERT(t, pcp->high[0] / 2u > 64u + 2u * pcp->batch[0], "CPU 0's order-0 high %u is too small", pcp->high[0]);
	for (unsigned int i = 0; i < want; i++)
		KT_ASSERT(t, hold(&movable, alloc_pages(GFP_KERNEL | __GFP_MOVABLE, 0)), "movable frame %u failed", i);
	give_everything_back(&movable);
	KT_ASSERT(t, !pcp_list_next(pcp, 0, MIGRATE_UNMOVABLE, NULL),
		  "a movable allocation left unmovable frames on CPU 0's list");
	KT_ASSERT(t, pcp_count(pcp, 0) >= want && pcp_count(pcp, 0) < pcp->high[0],
		  "CPU 0's order-0 lists hold %u blocks after %u movable frames were freed there (high %u, fast path high %u)",
		  pcp_count(pcp, 0), want, pcp->high[0], pcp->fast_high[0]);
}

/*
 * Two CPUs' order-0 refills in an idle zone take their frames from different pageblocks: no frame
 * on CPU 1's order-0 lists shares a pageblock (16 KiB of struct pages) with one on CPU 0's. Refills
 * of the smallest free blocks gave the two lists alternate runs of 32 frames of one pageblock, and
 * two threads' batches ran at 1.3-1.6 times one thread's rate (pcp_refill_pageblock() and
 * take_split_rest(), mm/pcp.c). GFP_KERNEL's type first has no free block smaller than a
 * pageblock (each refill splits one); with split, one frame allocated with the lists off has split
 * one, so that CPU 0's refill takes the rest of that split. With crowded too, CPU 0's order-0 list
 * already holds movable frames up to 64 under half its high: its refill has no room for the whole
 * rest, and reserves that pageblock (mm/pcp.c, pcp_reserve()), whose rest CPU 1's refill leaves.
 */
static void two_cpus_order0_refills(struct ktest *t, bool split, bool crowded)
{
	struct page *page[2];
	const struct per_cpu_pages *pcp;
	unsigned int shared = 0, listed = 0;
	unsigned long pb = 0;

	struct list_head held = { &held, &held };
	const unsigned int small = (1u << PAGEBLOCK_ORDER) - 1; /* the orders below a pageblock's */
	bool lists;

	/*
	 * GFP_KERNEL's type's free blocks below a pageblock taken first, with the lists off (the
	 * smallest block each time): a refill takes those before it splits a pageblock.
	 */
	host_mm_set_cpu(0);
	lists = set_pcp_lists(false);
	for (unsigned int n = 0; n < 1u << 16 && (mm_zones[mm_top_zone].free_orders[MIGRATE_UNMOVABLE] & small); n++)
		if (!hold(&held, alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
			break;
	if (split && !(mm_zones[mm_top_zone].free_orders[MIGRATE_UNMOVABLE] & small))
		hold(&held, alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0));
	set_pcp_lists(lists);
	drain_pcp_lists();
	if (!split == !!(mm_zones[mm_top_zone].free_orders[MIGRATE_UNMOVABLE] & small)) {
		give_everything_back(&held);
		return ktest_skip(t, split ? "no pageblock of GFP_KERNEL's type was split"
					   : "GFP_KERNEL's type keeps free blocks smaller than a pageblock");
	}
	if (crowded) {
		pb = page_to_pfn(lru_to_page(held.next)) >> PAGEBLOCK_ORDER; /* the frame that split it */
		KT_ASSERT(t, free_pageblock_of_type(MIGRATE_UNMOVABLE), "no free pageblock of GFP_KERNEL's type");
		crowd_order0_list(t); /* after: turning the lists off drains them */
	}
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		host_mm_set_cpu(cpu);
		page[cpu] = alloc_pages(GFP_KERNEL, 0);
		KT_ASSERT(t, page[cpu], "alloc_pages(0) on CPU %u failed", cpu);
	}
	host_mm_set_cpu(0);
	if (crowded) {
		const struct zone *zone = page_zone(page[0]);

		KT_EXPECT(t, page_to_pfn(page[0]) >> PAGEBLOCK_ORDER == pb,
			  "CPU 0's refill took pfn %#lx, not a frame of the split pageblock %#lx",
			  page_to_pfn(page[0]), pb << PAGEBLOCK_ORDER);
		KT_EXPECT(t, pageblock_reserver(zone, pb << PAGEBLOCK_ORDER) == 1,
			  "the split pageblock %#lx, %u frames of it free, is reserved by CPU %d, not CPU 0",
			  pb << PAGEBLOCK_ORDER, zone->pageblock_use[pageblock_index(zone, pb << PAGEBLOCK_ORDER)].free,
			  (int)pageblock_reserver(zone, pb << PAGEBLOCK_ORDER) - 1);
	}
	pcp = pcp_of(1, page[1]);
	for (unsigned int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		for (struct list_head *e = pcp_list_next(pcp, 0, mt, NULL); e; e = pcp_list_next(pcp, 0, mt, e), listed++)
			shared += cpu_holds_frame_in(0, page[0], page_to_pfn(lru_to_page(e)) >> PAGEBLOCK_ORDER);
	shared += cpu_holds_frame_in(0, page[0], page_to_pfn(page[1]) >> PAGEBLOCK_ORDER);
	KT_EXPECT(t, listed > 0 && shared == 0,
		  "%u of CPU 1's %u order-0 frames (pfn %#lx handed out) share a pageblock with CPU 0's (pfn %#lx "
		  "handed out)", shared, listed + 1, page_to_pfn(page[1]), page_to_pfn(page[0]));
	__free_pages(page[0], 0);
	host_mm_set_cpu(1);
	__free_pages(page[1], 0);
	host_mm_set_cpu(0);
	give_everything_back(&held);
	drain_pcp_lists();
	KT_EXPECT(t, !crowded || !pageblock_reserver(page_zone(page[0]), pb << PAGEBLOCK_ORDER),
		  "pageblock %#lx still reserved by CPU %d after a drain of every list", pb << PAGEBLOCK_ORDER,
		  (int)pageblock_reserver(page_zone(page[0]), pb << PAGEBLOCK_ORDER) - 1);
}

static void two_cpus_order0_refills_in_an_idle_zone_take_different_pageblocks(struct ktest *t)
{
	two_cpus_order0_refills(t, false, false);
}

/* The same, where CPU 0's refill splits a pageblock: it takes the rest of the split too. */
static void two_cpus_order0_refills_after_a_split_take_different_pageblocks(struct ktest *t)
{
	two_cpus_order0_refills(t, true, false);
}

/*
 * The same, where CPU 0's list has no room for the rest of the split: CPU 1's refill leaves the
 * rest to CPU 0 (it took it, the smallest free blocks there, and two threads' batches ran at 1.5-1.7
 * times one thread's rate after make bench's one-thread rows); a drain ends the reservation.
 */
static void a_refill_leaves_the_rest_of_a_pageblock_another_cpu_reserves(struct ktest *t)
{
	struct fw_map map;

	/*
	 * A fresh map: after the earlier cases, movable had no free block and the movable frames
	 * fell back into the split pageblock.
	 */
	KT_ASSERT(t, rebuild_default(&map) == 0, "mm_init on the default map failed");
	two_cpus_order0_refills(t, true, true);
	back_to_default_map(t, &map, mm_debug_poison);
}

/*
 * A reservation is a preference, not a claim: with memory exhausted, two buddies freed in a
 * pageblock another CPU (CPU 2) reserves are the only free memory, and CPU 1's refill takes them.
 */
static void a_refill_takes_another_cpus_reserved_blocks_when_nothing_else_is_free(struct ktest *t)
{
	bool poison = mm_debug_poison, lists;
	struct mm_shape before;
	struct list_head held;
	struct page *pair, *got;
	struct zone *zone;
	unsigned long pb;

	set_page_poisoning(false);
	mm_shape_take(&before);
	host_mm_set_cpu(0);
	take_everything(&held);
	KT_ASSERT(t, nr_free_pages() == 0, "%lu pages still free", nr_free_pages());
	pair = held_buddies(&held);
	KT_ASSERT(t, pair != NULL, "no two held pages are buddies");
	unchain(&held, pair);
	unchain(&held, pair + 1);
	zone = page_zone(pair);
	pb = pageblock_index(zone, page_to_pfn(pair));
	__atomic_store_n(&zone->pageblock_use[pb].cpu, 3, __ATOMIC_RELAXED); /* CPU 2's */
	lists = set_pcp_lists(false); /* straight to the buddy lists */
	__free_pages(pair, 0);
	__free_pages(pair + 1, 0);
	set_pcp_lists(lists);
	host_mm_set_cpu(1);
	got = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
	KT_EXPECT(t, got == pair || got == pair + 1, "CPU 1's order-0 refill got %p, not a frame of the only free "
		  "block (pfn %#lx, in a pageblock CPU 2 reserves)", (void *)got, page_to_pfn(pair));
	if (got)
		__free_pages(got, 0);
	host_mm_set_cpu(0);
	__atomic_store_n(&zone->pageblock_use[pb].cpu, 0, __ATOMIC_RELAXED);
	give_everything_back(&held);
	drain_pcp_lists();
	mm_expect_shape(t, &before);
	set_page_poisoning(poison);
}

/*
 * A small movable refill whose type has no free block takes another type's smallest block and
 * claims no pageblock, as the buddy's own fallback does (mm/buddy.c): a movable page there can be
 * moved out later, a claimed pageblock stays lost to its type. The zone is left idle (three
 * quarters of it free, in unmovable blocks), where a refill may take a whole pageblock.
 */
static void a_movable_refill_with_no_movable_block_claims_no_pageblock(struct ktest *t)
{
	struct zone *zone = &mm_zones[mm_top_zone];
	struct mm_held unmovable, movable;
	unsigned long claims, want = zone->managed_pages * 3 / 4;
	struct page *page;
	bool lists = set_pcp_lists(false);

	mm_held_init(&unmovable);
	mm_held_init(&movable);
	while (unmovable.pages < want && (page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_ORDER)) &&
	       page_zone(page) == zone)
		mm_held_add(&unmovable, page, MAX_ORDER);
	if (page && page_zone(page) != zone)
		mm_held_add(&unmovable, page, MAX_ORDER);
	while (zone->free_orders[MIGRATE_MOVABLE]) {
		unsigned int o = 31u - (unsigned int)__builtin_clz(zone->free_orders[MIGRATE_MOVABLE]);

		if (!(page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, o)))
			break;
		mm_held_add(&movable, page, o);
	}
	mm_held_free_all(&unmovable);
	set_pcp_lists(lists);
	drain_pcp_lists();
	if (!KT_EXPECT(t, !zone->free_orders[MIGRATE_MOVABLE] && zone_free_pages(zone) >= want,
		       "zone %s: movable free orders %#x, %lu free frames (wanted none, and %lu)", zone->name,
		       zone->free_orders[MIGRATE_MOVABLE], zone_free_pages(zone), want)) {
		mm_held_free_all(&movable);
		return;
	}
	claims = zone->pageblock_claims;
	page = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	KT_EXPECT(t, page && page_zone(page) == zone, "GFP_HIGHUSER_MOVABLE order 0 not from zone %s", zone->name);
	KT_EXPECT(t, zone->pageblock_claims == claims,
		  "the movable refill claimed %lu pageblocks (pfn %#lx handed out, its pageblock %s)",
		  zone->pageblock_claims - claims, page ? page_to_pfn(page) : 0,
		  page ? migratetype_name(get_pageblock_migratetype(page)) : "-");
	if (page)
		__free_pages(page, 0);
	drain_pcp_lists();
	mm_held_free_all(&movable);
}

/* The first pageblock of zone whose frames take_everything() holds, all of them; its first frame, or 0. */
static unsigned long held_pageblock(const struct zone *zone, unsigned long after)
{
	for (unsigned long pb = ALIGN_UP(zone->start_pfn, PAGEBLOCK_NR_PAGES); pb + PAGEBLOCK_NR_PAGES <= zone->end_pfn;
	     pb += PAGEBLOCK_NR_PAGES) {
		unsigned long pfn = pb;

		while (pfn < pb + PAGEBLOCK_NR_PAGES && pfn_valid(pfn) && pfn_to_page(pfn)->private == HELD_MARK &&
		       page_count(pfn_to_page(pfn)) == 1)
			pfn++;
		if (pfn == pb + PAGEBLOCK_NR_PAGES && pb > after &&
		    get_pageblock_migratetype(pfn_to_page(pb)) == MIGRATE_UNMOVABLE)
			return pb;
	}
	return 0;
}

/* Frees held page pfn (taking it off the chain). */
static void free_held(struct list_head *held, unsigned long pfn)
{
	unchain(held, pfn_to_page(pfn));
	__free_pages(pfn_to_page(pfn), 0);
}

/* Frees n held pages of the pageblock at pb, every other one from its start: none merges. */
static void free_every_other(struct list_head *held, unsigned long pb, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free_held(held, pb + 2 * i);
}

#define SPARSE_FREES (PAGEBLOCK_SPARSE_FREE + 16) /* frees that leave a pageblock sparse */

/*
 * With everything allocated the zone is busy: a page freed into a sparse pageblock goes straight
 * to the buddy lists (it may merge there), not to the CPU's list, where it would wait for the
 * next allocation and keep its pageblock from becoming a free 2 MiB block.
 */
static void a_busy_zone_gives_a_sparse_pageblocks_page_to_the_buddy_lists(struct ktest *t)
{
	bool poison = mm_debug_poison;
	struct mm_shape before;
	struct list_head held;
	unsigned long pb, pfn;
	struct zone *zone = &mm_zones[mm_top_zone];

	set_page_poisoning(false);
	mm_shape_take(&before);
	host_mm_set_cpu(0);
	take_everything(&held);
	pb = held_pageblock(zone, 0);
	KT_ASSERT(t, pb, "no pageblock of zone %s wholly held", zone->name);
	free_every_other(&held, pb, SPARSE_FREES);
	pfn = pb + 2 * SPARSE_FREES; /* its buddy is held: it stays an order-0 block */
	KT_EXPECT(t, pageblock_sparse(zone, pfn), "%u pages freed, pageblock %#lx not sparse", SPARSE_FREES, pb);
	free_held(&held, pfn);
	KT_EXPECT(t, PageBuddy(pfn_to_page(pfn)), "the page went to CPU 0's list (%u blocks there, high %u)",
		  pcp_count(pcp_of(0, pfn_to_page(pfn)), 0), pcp_of(0, pfn_to_page(pfn))->high[0]);
	give_everything_back(&held);
	mm_expect_shape(t, &before);
	set_page_poisoning(poison);
}

/*
 * The buddy lists hand out a sparse pageblock's blocks last: a page freed into an otherwise full
 * pageblock is taken before one freed later into a sparse pageblock (most recently freed first
 * would take that one, and keep the sparse pageblock from becoming wholly free).
 */
static void a_full_pageblocks_page_is_handed_out_before_a_sparse_ones(struct ktest *t)
{
	bool poison = mm_debug_poison, was = set_pcp_lists(false);
	struct mm_shape before;
	struct list_head held;
	unsigned long dense, sparse;
	struct zone *zone = &mm_zones[mm_top_zone];
	struct page *got;

	set_page_poisoning(false);
	mm_shape_take(&before);
	host_mm_set_cpu(0);
	take_everything(&held);
	dense = held_pageblock(zone, 0);
	sparse = dense ? held_pageblock(zone, dense) : 0;
	KT_ASSERT(t, sparse, "no two unmovable pageblocks of zone %s wholly held", zone->name);
	free_every_other(&held, sparse, SPARSE_FREES);
	free_held(&held, dense);
	free_held(&held, sparse + 2 * SPARSE_FREES); /* freed last */
	got = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
	KT_EXPECT(t, got == pfn_to_page(dense), "got pfn %#lx, not the full pageblock's %#lx (sparse one's %#lx)",
		  got ? page_to_pfn(got) : 0, dense, sparse + 2 * SPARSE_FREES);
	if (got)
		__free_pages(got, 0);
	give_everything_back(&held);
	mm_expect_shape(t, &before);
	set_pcp_lists(was);
	set_page_poisoning(poison);
}

/*
 * An order-0 allocation whose only order-0 blocks are in a sparse pageblock splits an order-1
 * block of a full pageblock instead: the sparse pageblock is left to become wholly free.
 */
static void a_small_allocation_splits_a_full_pageblocks_block_before_using_a_sparse_one(struct ktest *t)
{
	bool poison = mm_debug_poison, was = set_pcp_lists(false);
	struct mm_shape before;
	struct list_head held;
	unsigned long dense, sparse;
	struct zone *zone = &mm_zones[mm_top_zone];
	struct page *got;

	set_page_poisoning(false);
	mm_shape_take(&before);
	host_mm_set_cpu(0);
	take_everything(&held);
	dense = held_pageblock(zone, 0);
	sparse = dense ? held_pageblock(zone, dense) : 0;
	KT_ASSERT(t, sparse, "no two unmovable pageblocks of zone %s wholly held", zone->name);
	free_every_other(&held, sparse, SPARSE_FREES);
	free_held(&held, dense);
	free_held(&held, dense + 1); /* the two merge: an order-1 block */
	got = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
	KT_EXPECT(t, got == pfn_to_page(dense), "got pfn %#lx, not the full pageblock's %#lx", got ? page_to_pfn(got) : 0,
		  dense);
	if (got)
		__free_pages(got, 0);
	give_everything_back(&held);
	mm_expect_shape(t, &before);
	set_pcp_lists(was);
	set_page_poisoning(poison);
}

/* ---- two CPUs drop the last two references at once --------------------------------------- */

#define RACE_ROUNDS 20000

static struct page *race_page;
static unsigned long race_round; /* written by the main thread, read by the racer */
static unsigned long race_done;  /* rounds the racer has finished */
static unsigned long race_ready; /* rounds the racer is waiting to start */

/* A delay of n pauses: sweeps how far apart the two put_page() calls start. */
static void delay(unsigned long n)
{
	while (n--)
		__builtin_ia32_pause();
}

/* Waits until *v reaches r: spinning, so that both CPUs start their put_page() together. */
static void wait_for(unsigned long *v, unsigned long r)
{
	for (unsigned int spins = 0; __atomic_load_n(v, __ATOMIC_ACQUIRE) < r;)
		if (++spins % 4096 == 0)
			sched_yield(); /* a host with one core: let the other thread run */
		else
			__builtin_ia32_pause();
}

static void *racer(void *arg)
{
	(void)arg;
	host_mm_set_cpu(1);
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		__atomic_store_n(&race_ready, r, __ATOMIC_RELEASE);
		wait_for(&race_round, r);
		delay(r % 7);
		put_page(race_page);
		__atomic_store_n(&race_done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void last_two_references_dropped_at_once_free_the_page_once(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports, free0;
	pthread_t thread;

	host_mm_set_cpu(0);
	drain_pcp_lists();
	free0 = nr_free_pages();
	KT_ASSERT(t, pthread_create(&thread, NULL, racer, NULL) == 0, "no thread");
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		struct page *page = alloc_pages(GFP_KERNEL, 0);

		if (!page)
			break;
		get_page(page); /* two references: one for each CPU */
		race_page = page;
		wait_for(&race_ready, r);
		__atomic_store_n(&race_round, r, __ATOMIC_RELEASE);
		delay(r / 7 % 64); /* the racer sees the round some time after the store */
		put_page(page);
		wait_for(&race_done, r);
		if (__atomic_load_n(&mm_bad_page_reports, __ATOMIC_RELAXED) != reports)
			break;
	}
	__atomic_store_n(&race_round, RACE_ROUNDS + 1, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	KT_EXPECT_EQ(t, __atomic_load_n(&mm_bad_page_reports, __ATOMIC_RELAXED), reports);
	drain_pcp_lists();
	KT_EXPECT_EQ(t, nr_free_pages(), free0);
}

/*
 * drain_pcp_lists() reaches every CPU's lists through arch_run_on_cpus(): a block freed on CPU 1
 * is in the buddy lists after a drain on CPU 0. Here, where the lists have a lock, a drain with
 * interrupts off drains them all too (only where the others are asked by an inter-processor
 * interrupt, ARCH_CPU_CALLS_BY_IPI, does it drain the caller's alone).
 */
static void a_drain_on_cpu_0_gives_back_a_block_freed_on_cpu_1(struct ktest *t)
{
	struct page *page;
	unsigned long irq;

	host_mm_set_cpu(0);
	page = alloc_pages(GFP_KERNEL, 0);
	KT_ASSERT(t, page != NULL, "alloc_pages(0) failed");
	host_mm_set_cpu(1);
	if (mm_pcp_free_bypasses(page)) {
		__free_pages(page, 0);
		host_mm_set_cpu(0);
		return ktest_skip(t, "the free goes straight to the buddy lists (busy zone or lists off)");
	}
	__free_pages(page, 0);
	host_mm_set_cpu(0);
	irq = arch_irq_save();
	drain_pcp_lists();
	arch_irq_restore(irq);
	/* Here the lists have a lock (no ARCH_CPU_CALLS_BY_IPI): a drain with interrupts off does all. */
	KT_EXPECT(t, mm_pfn_in_buddy_block(page_to_pfn(page)),
		  "a drain with interrupts off left CPU 1's block on its list, where a lock protects it");
	drain_pcp_lists();
	KT_EXPECT(t, mm_pfn_in_buddy_block(page_to_pfn(page)) && mm_pcp_free_pages(pcp_of(1, page)) == 0,
		  "after a drain on CPU 0, pfn %#lx is %sin the buddy lists and CPU 1's lists hold %lu frames",
		  page_to_pfn(page), mm_pfn_in_buddy_block(page_to_pfn(page)) ? "" : "not ",
		  mm_pcp_free_pages(pcp_of(1, page)));
}

/*
 * Blocks freed on a CPU come back from its list most recently freed first: a free pushes on the
 * list's hot part and an allocation pops it, also when the list's cold part (a refill's blocks,
 * moved to the hot part when it ran empty) is under them.
 */
static void freed_blocks_come_back_most_recently_freed_first(struct ktest *t)
{
	struct page *block[3], *again[3];

	host_mm_set_cpu(0);
	drain_pcp_lists();
	for (unsigned int i = 0; i < 3; i++) {
		block[i] = alloc_pages(GFP_KERNEL, 1); /* the first refills the list; the next take from it */
		KT_ASSERT(t, block[i] != NULL, "alloc_pages(1) failed");
	}
	for (unsigned int i = 0; i < 3; i++)
		__free_pages(block[i], 1);
	for (unsigned int i = 0; i < 3; i++) {
		again[i] = alloc_pages(GFP_KERNEL, 1);
		KT_EXPECT(t, again[i] == block[2 - i], "allocation %u after the frees: pfn %#lx, want pfn %#lx", i + 1,
			  again[i] ? page_to_pfn(again[i]) : 0, page_to_pfn(block[2 - i]));
	}
	for (unsigned int i = 0; i < 3; i++)
		if (again[i])
			__free_pages(again[i], 1);
	drain_pcp_lists();
}

/* Are "interrupts" off, with their mirror set (tests/mm/mm_env.h)? */
static bool irqs_off_mirrored(void)
{
	return arch_irqs_disabled() && host_mm_irq_mirror;
}

/*
 * The fast paths mask "interrupts" by their mirror (mm/arch.h's ARCH_HAS_IRQ_OFF_IF_ON): on
 * (mirror 0), they turn them off and back on; already off (an interrupt handler, a caller's
 * arch_irq_save()), the saving way leaves them off, and still takes from and gives to this CPU's
 * list and slot: a block or object freed comes back first.
 */
static void the_fast_paths_leave_interrupts_off_when_they_were_off(struct ktest *t)
{
	bool poison = set_page_poisoning(false); /* poison sends frees the slow way */
	unsigned long irq;

	host_mm_set_cpu(0);
	KT_ASSERT(t, !arch_irqs_disabled() && !host_mm_irq_mirror, "the test starts with \"interrupts\" on");
	if (mm_alloc_gate.fast_orders != PCP_MAX_ORDER + 1)
		printk("    # alloc_pages() takes its slow side (%u poisoned pages or page_owner): only the frees "
		       "and kmalloc test the fast paths\n", mm_alloc_gate.slow_reasons);
	for (unsigned int order = 0; order <= PCP_MAX_ORDER; order++) {
		struct page *page, *again;

		page = alloc_pages(GFP_KERNEL, order); /* the fast way: on, then back on */
		KT_ASSERT(t, page != NULL, "alloc_pages(%u) failed", order);
		KT_EXPECT(t, !arch_irqs_disabled() && !host_mm_irq_mirror,
			  "alloc_pages(%u) with interrupts on left them off (or the mirror set)", order);
		irq = arch_irq_save();
		__free_pages(page, order);
		KT_EXPECT(t, irqs_off_mirrored(), "__free_pages(order %u) with interrupts off turned them on", order);
		again = alloc_pages(GFP_KERNEL, order);
		KT_EXPECT(t, irqs_off_mirrored(), "alloc_pages(%u) with interrupts off turned them on", order);
		if (!mm_pcp_free_bypasses(page))
			KT_EXPECT(t, again == page, "order %u with interrupts off: the block freed is not the next one "
				  "taken (pfn %#lx, want %#lx)", order, again ? page_to_pfn(again) : 0, page_to_pfn(page));
		if (again)
			__free_pages(again, order);
		KT_EXPECT(t, irqs_off_mirrored(), "__free_pages(order %u) with interrupts off turned them on", order);
		arch_irq_restore(irq);
		KT_EXPECT(t, !arch_irqs_disabled() && !host_mm_irq_mirror, "arch_irq_restore() left them off");
	}
	for (size_t size = 8; size <= 4096; size *= 8) {
		void *obj, *again;

		irq = arch_irq_save();
		obj = kmalloc(size, GFP_KERNEL);
		KT_EXPECT(t, irqs_off_mirrored(), "kmalloc(%zu) with interrupts off turned them on", size);
		KT_ASSERT(t, obj != NULL, "kmalloc(%zu) failed", size);
		kfree(obj);
		KT_EXPECT(t, irqs_off_mirrored(), "kfree() of %zu bytes with interrupts off turned them on", size);
		again = kmalloc(size, GFP_KERNEL);
		KT_EXPECT(t, again == obj, "kmalloc(%zu) with interrupts off: the object freed is not the next one", size);
		kfree(again);
		arch_irq_restore(irq);
		obj = kmalloc(size, GFP_KERNEL);
		KT_EXPECT(t, !arch_irqs_disabled() && !host_mm_irq_mirror,
			  "kmalloc(%zu) with interrupts on left them off (or the mirror set)", size);
		kfree(obj);
		KT_EXPECT(t, !arch_irqs_disabled() && !host_mm_irq_mirror,
			  "kfree() of %zu bytes with interrupts on left them off (or the mirror set)", size);
	}
	set_page_poisoning(poison);
}

/* The zone bits and mobility bits of the gfps the alloc fast path serves (with __GFP_NOWARN, __GFP_HIGH). */
static const gfp_t fast_zone_bits[] = { 0, __GFP_DMA32, __GFP_DMA, __GFP_DMA | __GFP_DMA32 };
static const gfp_t fast_type_bits[] = { 0, __GFP_MOVABLE, __GFP_RECLAIMABLE };

/*
 * The slow paths find a CPU's lists of a zone from the zone (its pcp_offset) and the zone from
 * the lists (pcp_zone_index()), with no arithmetic on their places: both say what the places say.
 */
static void each_cpus_lists_and_their_zone_find_each_other(struct ktest *t)
{
	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++) {
		host_mm_set_cpu(cpu);
		for (unsigned int z = 0; z <= PCP_NO_ZONE; z++) {
			struct per_cpu_pages *pcp = cpu_pcp(cpu, z);

			KT_EXPECT(t, pcp_zone_index(pcp) == z, "CPU %u's lists of zone index %u say zone index %u", cpu, z,
				  pcp_zone_index(pcp));
			if (z < PCP_NO_ZONE)
				KT_EXPECT(t, this_cpu_pcp_at(mm_zones[z].pcp_offset) == pcp,
					  "on CPU %u, zone index %u's pcp_offset %u finds other lists than its own", cpu, z,
					  mm_zones[z].pcp_offset);
		}
	}
	host_mm_set_cpu(0);
}

/* The blocks on pcp's lists of slot, walked (hot parts and cold). */
static unsigned long blocks_listed(const struct per_cpu_pages *pcp, unsigned int slot)
{
	unsigned long n = 0;

	for (unsigned int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		for (const struct list_head *l = pcp_list_next(pcp, slot, mt, NULL); l; l = pcp_list_next(pcp, slot, mt, l))
			n++;
	return n;
}

/* What counts_stay_exact_across_the_fast_paths_folds() expects of the counters. */
struct expected_counts {
	unsigned long free;   /* nr_free_pages() */
	unsigned long hits;   /* node 0's numa_hit */
	unsigned int order;
	gfp_t gfp;
};

/* Are the counts of CPU 0's lists of gfp's zone, meminfo's free pages and numa_hit what e says? */
static bool counts_exact(struct ktest *t, const struct expected_counts *e, const char *when)
{
	const struct per_cpu_pages *pcp = pcp_of_type_lists(pcp_gfp_table_lists(0, e->gfp));
	unsigned long listed = blocks_listed(pcp, e->order), hits = node_numa_stat(0, NUMA_HIT);
	struct node_meminfo mi;

	node_meminfo(0, &mi);
	return KT_EXPECT(t, pcp_count(pcp, e->order) == listed,
			 "gfp %#x order %u %s: %lu blocks on the lists, their count says %u", e->gfp, e->order, when,
			 listed, pcp_count(pcp, e->order)) &&
	       KT_EXPECT(t, nr_free_pages() == e->free && mi.free == e->free,
			 "gfp %#x order %u %s: %lu free pages (meminfo %lu), want %lu", e->gfp, e->order, when,
			 nr_free_pages(), mi.free, e->free) &&
	       KT_EXPECT(t, hits == e->hits, "gfp %#x order %u %s: numa_hit %lu, want %lu", e->gfp, e->order, when, hits,
			 e->hits);
}

#define FOLD_BURST 97

/*
 * For every zone and type the fast path serves and orders 0, 1 and 3: bursts of allocations of
 * every length up to FOLD_BURST, each freed, then more alloc/free pairs than any list's high
 * (PCP_HIGH_BLOCKS): the alloc fast path counts in taken, which the refills and the free slow
 * path fold into room. The lists' count matches their blocks, meminfo's free pages and numa_hit
 * (the fast path's hits are folded taken plus taken) match the allocations, after every burst,
 * before and after its frees.
 */
static void counts_stay_exact_across_the_fast_paths_folds(struct ktest *t)
{
	static const unsigned int orders[] = { 0, 1, 3 };
	struct page *held[FOLD_BURST];
	bool poison = set_page_poisoning(false);
	unsigned long unfolded_seen = 0;
	struct fw_map map;

	/* A fresh allocator: no page holds poison, so that the fast path serves (alloc_pages()). */
	KT_ASSERT(t, rebuild_default(&map) == 0, "mm_init on the default map failed");
	KT_ASSERT(t, !mm_nr_poisoned_pages, "%lu pages hold poison", mm_nr_poisoned_pages);
	host_mm_set_cpu(0);
	for (unsigned int z = 0; z < ARRAY_SIZE(fast_zone_bits); z++)
		for (unsigned int ty = 0; ty < ARRAY_SIZE(fast_type_bits); ty++)
			for (unsigned int o = 0; o < ARRAY_SIZE(orders); o++) {
				struct expected_counts e = { .order = orders[o], .gfp = fast_zone_bits[z] | fast_type_bits[ty] };

				drain_pcp_lists();
				e.free = nr_free_pages();
				e.hits = node_numa_stat(0, NUMA_HIT);
				for (unsigned int n = 1; n <= FOLD_BURST; n++) {
					for (unsigned int i = 0; i < n; i++) {
						held[i] = alloc_pages(e.gfp, e.order);
						KT_ASSERT(t, held[i] != NULL, "alloc_pages(%#x, %u) failed", e.gfp, e.order);
						e.free -= 1UL << e.order;
						e.hits++;
					}
					unfolded_seen += pcp_taken(pcp_of_type_lists(pcp_gfp_table_lists(0, e.gfp)), e.order);
					if (!counts_exact(t, &e, "after a burst"))
						goto out;
					for (unsigned int i = 0; i < n; i++) {
						__free_pages(held[n & 1 ? n - 1 - i : i], e.order); /* either order */
						e.free += 1UL << e.order;
					}
					if (!counts_exact(t, &e, "after its frees"))
						goto out;
				}
				for (unsigned int i = 0; i < 3 * PCP_HIGH_BLOCKS; i++) {
					struct page *page = alloc_pages(e.gfp, e.order);

					KT_ASSERT(t, page != NULL, "alloc_pages(%#x, %u) failed", e.gfp, e.order);
					__free_pages(page, e.order);
					e.hits++;
				}
				if (!counts_exact(t, &e, "after the pairs"))
					goto out;
			}
	KT_EXPECT(t, unfolded_seen > 0, "the alloc fast path never counted: the test did not reach it");
out:
	back_to_default_map(t, &map, poison);
}

/*
 * A gfp of both mobility bits is no type: with blocks on every list of CPU 0, the fast path
 * finds the lists of no zone empty and the slow path refuses it; nothing is counted.
 */
static void a_gfp_of_both_mobility_bits_takes_the_slow_path_and_is_refused(struct ktest *t)
{
	const struct per_cpu_pages *none = cpu_pcp(0, PCP_NO_ZONE);
	struct page *page[ARRAY_SIZE(fast_zone_bits)][ARRAY_SIZE(fast_type_bits)];
	bool poison = set_page_poisoning(false);
	unsigned long free, hits;
	struct fw_map map;

	KT_ASSERT(t, rebuild_default(&map) == 0, "mm_init on the default map failed"); /* the fast path serves */
	host_mm_set_cpu(0);
	for (unsigned int z = 0; z < ARRAY_SIZE(fast_zone_bits); z++)
		for (unsigned int ty = 0; ty < ARRAY_SIZE(fast_type_bits); ty++)
			page[z][ty] = alloc_pages(fast_zone_bits[z] | fast_type_bits[ty], 0);
	for (unsigned int z = 0; z < ARRAY_SIZE(fast_zone_bits); z++)
		for (unsigned int ty = 0; ty < ARRAY_SIZE(fast_type_bits); ty++)
			if (page[z][ty])
				__free_pages(page[z][ty], 0);
	free = nr_free_pages();
	hits = node_numa_stat(0, NUMA_HIT);
	for (unsigned int z = 0; z < ARRAY_SIZE(fast_zone_bits); z++) {
		gfp_t gfp = fast_zone_bits[z] | __GFP_MOVABLE | __GFP_RECLAIMABLE | __GFP_NOWARN;
		struct page *got = alloc_pages(gfp, 0);

		KT_EXPECT(t, got == NULL, "alloc_pages(%#x, 0) gave pfn %#lx", gfp, got ? page_to_pfn(got) : 0);
		if (got)
			__free_pages(got, 0);
	}
	KT_EXPECT(t, nr_free_pages() == free && node_numa_stat(0, NUMA_HIT) == hits,
		  "free pages %lu (were %lu), numa_hit %lu (was %lu)", nr_free_pages(), free, node_numa_stat(0, NUMA_HIT), hits);
	for (unsigned int slot = 0; slot <= PCP_MAX_ORDER; slot++)
		KT_EXPECT(t, !none->types[0].hot[slot] && !pcp_taken(none, slot) && !pcp_count(none, slot),
			  "the lists of no zone, slot %u: a block or a count", slot);
	back_to_default_map(t, &map, poison);
}

KTEST_SUITE(mm_pcp,
	    KTEST_CASE(a_block_freed_on_another_cpu_goes_to_that_cpus_list),
	    KTEST_CASE(a_pageblock_freed_on_another_cpu_goes_to_that_cpus_list),
	    KTEST_CASE(memory_on_another_cpus_list_is_found_before_an_allocation_fails),
	    KTEST_CASE(an_idle_zones_list_keeps_a_burst_of_1024_frees),
	    KTEST_CASE(an_order0_refill_takes_both_frames_of_a_pair),
	    KTEST_CASE(two_cpus_order0_refills_in_an_idle_zone_take_different_pageblocks),
	    KTEST_CASE(two_cpus_order0_refills_after_a_split_take_different_pageblocks),
	    KTEST_CASE(a_refill_leaves_the_rest_of_a_pageblock_another_cpu_reserves),
	    KTEST_CASE(a_refill_takes_another_cpus_reserved_blocks_when_nothing_else_is_free),
	    KTEST_CASE(a_movable_refill_with_no_movable_block_claims_no_pageblock),
	    KTEST_CASE(a_cpu_keeps_a_burst_of_freed_pageblocks_while_its_zone_has_spare_memory),
	    KTEST_CASE(a_cpus_rounds_of_its_lists_high_in_pageblocks_stay_off_the_buddy_lists),
	    KTEST_CASE(pageblocks_freed_on_one_cpu_reach_anothers_refill_unmerged),
	    KTEST_CASE(a_drain_gives_back_the_pageblocks_waiting_for_a_refill),
	    KTEST_CASE(a_busy_zone_gives_a_sparse_pageblocks_page_to_the_buddy_lists),
	    KTEST_CASE(a_full_pageblocks_page_is_handed_out_before_a_sparse_ones),
	    KTEST_CASE(a_small_allocation_splits_a_full_pageblocks_block_before_using_a_sparse_one),
	    KTEST_CASE(last_two_references_dropped_at_once_free_the_page_once),
	    KTEST_CASE(a_drain_on_cpu_0_gives_back_a_block_freed_on_cpu_1),
	    KTEST_CASE(freed_blocks_come_back_most_recently_freed_first),
	    KTEST_CASE(the_fast_paths_leave_interrupts_off_when_they_were_off),
	    KTEST_CASE(each_cpus_lists_and_their_zone_find_each_other),
	    KTEST_CASE(counts_stay_exact_across_the_fast_paths_folds),
	    KTEST_CASE(a_gfp_of_both_mobility_bits_takes_the_slow_path_and_is_refused));
