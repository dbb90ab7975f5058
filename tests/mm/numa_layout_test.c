/* SPDX-License-Identifier: MIT */
/*
 * Host tests of NUMA nodes inside mm/ on layouts of their own (mm_init_params.numa): two nodes
 * split at a boundary that is not 4 MiB aligned; four nodes, one without memory (with a CPU) and
 * one without CPUs, with numa4's distances; no layout (one node); layouts mm/ must refuse. Each
 * rebuilds the allocator and runs the numa_nodes suite's cases on it
 * (tests/ktest/numa_nodes.h), then checks what only a known layout can tell: the fallback order
 * node by node as nodes run out, the miss and foreign counters, no free block across a node's
 * edge. The default map comes back at the end of each.
 */
#include "tests/ktest/numa_nodes.h"

#include "mm/list.h"
#include "mm/memory_add.h"
#include "mm/node_stat.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/pcp.h"
#include "mm/show_mem.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"
#include "tests/mm/mm_rebuild.h"

static struct fw_map map;

/* 128 MiB. */
static const char map_128m[] = "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
			       "BIOS-e820: [mem 0x0000000000100000-0x0000000007ffffff] usable\n";

/*
 * Node 1 starts at frame 0x643: not 4 MiB, not even 2 MiB aligned, inside the harness's releasable
 * range [6, 7) MiB (HOST_RELEASABLE_BASE). Reserved at boot, it keeps node 0's memmap away from
 * the edge (that goes top-down in node 0's free memory, below the simulated kernel image): once
 * given back, the frames on both sides of the edge are free buddies of each other.
 */
#define TWO_NODE_EDGE 0x643000UL
static const uint8_t two_cpu_node[HOST_MM_CPUS] = { 0, 0, 1, 1 };
static const struct mm_numa_layout two_nodes = {
	.nr_nodes = 2,
	.nr_ranges = 2,
	.ranges = { { 0, TWO_NODE_EDGE, 0 }, { TWO_NODE_EDGE, 0x8000000, 1 } },
	.distance = { { 10, 21 }, { 21, 10 } },
	.cpu_node = two_cpu_node,
};

/* numa4's: node 1 without memory (CPU 2 on it), node 3 without CPUs; node 3 starts unaligned. */
#define FOUR_NODE_EDGE 0x5001000UL
static const uint8_t four_cpu_node[HOST_MM_CPUS] = { 0, 0, 1, 2 };
static const struct mm_numa_layout four_nodes = {
	.nr_nodes = 4,
	.nr_ranges = 3,
	.ranges = { { 0, 0x2800000, 0 }, { 0x2800000, FOUR_NODE_EDGE, 2 }, { FOUR_NODE_EDGE, 0x8000000, 3 } },
	.distance = { { 10, 20, 30, 40 }, { 20, 10, 20, 30 }, { 30, 20, 10, 20 }, { 40, 30, 20, 10 } },
	.cpu_node = four_cpu_node,
};

static int rebuild_with(const struct mm_numa_layout *layout)
{
	host_mm_numa = layout;
	int err = rebuild_on_text(map_128m, &map);
	host_mm_numa = NULL;
	return err;
}

/*
 * Runs the numa_nodes suite's cases on the layout mm/ now runs with. A case that does not apply
 * to this layout skips itself: that must not mark the whole case here as skipped.
 */
static void run_generic_cases(struct ktest *t)
{
	const char *skip = t->skip_reason;

	numa_pages_come_from_the_asked_node(t);
	numa_thisnode_fails_rather_than_fall_back(t);
	numa_a_node_without_memory_falls_back_to_the_nearest(t);
	numa_counters_count_hits_and_local_allocations(t);
	numa_node_meminfo_sums_to_the_global_figures(t);
	numa_interleave_visits_every_node_with_memory(t);
	numa_vmstat_counters_sum_the_nodes_and_move(t);
	numa_dump_page_names_the_node(t);
	numa_each_memmap_lies_in_its_node(t);
	numa_every_cpu_is_on_a_node(t);
	t->skip_reason = skip;
}

/* Takes every block node nid gives with __GFP_THISNODE, largest first, onto held; returns the pages. */
static unsigned long take_node(unsigned int nid, struct list_head *held)
{
	unsigned long pages = 0;

	for (int order = MAX_ORDER; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages_node((int)nid, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, (unsigned int)order))) {
			page->private = (unsigned long)order;
			list_add(&page->lru, held);
			pages += 1UL << order;
		}
	}
	return pages;
}

static void give_back(struct list_head *held)
{
	while (!list_empty(held)) {
		struct page *page = lru_to_page(held->next);

		list_del(&page->lru);
		__free_pages(page, (unsigned int)page->private);
	}
}

static void two_nodes_split_memory_at_an_unaligned_edge(struct ktest *t)
{
	KT_ASSERT(t, rebuild_with(&two_nodes) == 0, "mm_init with two nodes");
	KT_EXPECT_EQ(t, nr_node_ids, 2);
	KT_EXPECT_EQ(t, page_to_nid(pfn_to_page(PFN_DOWN(TWO_NODE_EDGE) - 1)), 0);
	KT_EXPECT_EQ(t, page_to_nid(pfn_to_page(PFN_DOWN(TWO_NODE_EDGE))), 1);
	KT_EXPECT_EQ(t, cpu_to_node(2), 1);
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	run_generic_cases(t);
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/*
 * The releasable range across the edge given back (each frame merging with its free buddies), then
 * every frame of both nodes allocated one by one and freed: the frames on each side of the edge
 * are free buddies of each other, and must stay blocks of two zones.
 */
static void buddies_never_merge_across_a_node_edge(struct ktest *t)
{
	struct list_head held = { &held, &held };
	struct page *page;

	host_mm_memory_after_boot = true; /* the releasable range */
	int err = rebuild_with(&two_nodes);

	host_mm_memory_after_boot = false;
	KT_ASSERT(t, err == 0, "mm_init with two nodes and a releasable range");
	KT_EXPECT_EQ(t, mm_free_reserved_range(HOST_RELEASABLE_BASE, HOST_RELEASABLE_BASE + HOST_RELEASABLE_BYTES, "test"),
		     HOST_RELEASABLE_BYTES / PAGE_SIZE);
	/* No map: it says the given-back range is reserved. */
	KT_EXPECT(t, mm_check_free_lists(NULL) == NULL, "after the give-back: %s", mm_check_free_lists(NULL));
	set_pcp_lists(false); /* every free goes to the buddy lists and merges there */
	for (unsigned int nid = 0; nid < 2; nid++)
		while ((page = alloc_pages_node((int)nid, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN | __GFP_HIGH, 0))) {
			page->private = 0;
			list_add(&page->lru, &held);
		}
	give_back(&held);
	set_pcp_lists(true);
	KT_EXPECT(t, mm_check_free_lists(NULL) == NULL, "after every frame was freed: %s", mm_check_free_lists(NULL));
	page = pfn_to_page(PFN_DOWN(TWO_NODE_EDGE) - 1);
	KT_EXPECT(t, PageBuddy(page) && page->private == 0,
		  "the last frame of node 0 is a free block of order 0 (buddy %d, order %lu)", PageBuddy(page),
		  page->private);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/*
 * A per-CPU refill of node 0 that takes its last frame, free on its own, must not take the frame
 * beside it too (its pair, which an order-0 refill takes with it when free): that one is node
 * 1's, in another zone's free lists. With the lists off, node 0's memory is taken and given back
 * but for its free blocks of order 0, and its last frame is freed: a refill's first block, as the
 * smallest.
 */
static void an_order0_refill_takes_no_pair_frame_across_a_node_edge(struct ktest *t)
{
	struct list_head held = { &held, &held };
	struct page *page, *last, *first;
	bool had_last = false;
	unsigned int mt;
	gfp_t gfp;

	host_mm_memory_after_boot = true; /* the releasable range */
	int err = rebuild_with(&two_nodes);

	host_mm_memory_after_boot = false;
	KT_ASSERT(t, err == 0, "mm_init with two nodes and a releasable range");
	mm_free_reserved_range(HOST_RELEASABLE_BASE, HOST_RELEASABLE_BASE + HOST_RELEASABLE_BYTES, "test");
	last = pfn_to_page(PFN_DOWN(TWO_NODE_EDGE) - 1);
	first = pfn_to_page(PFN_DOWN(TWO_NODE_EDGE));
	host_mm_set_cpu(0);
	set_pcp_lists(false);
	while ((page = alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN | __GFP_HIGH, 0))) {
		if (page == last) {
			had_last = true;
			continue;
		}
		page->private = 0;
		list_add(&page->lru, &held);
	}
	give_back(&held); /* merged where they can: what stays of order 0 is held again */
	/* The gfp of its pageblock's type: a refill takes the smallest block of its own type first. */
	mt = get_pageblock_migratetype(last);
	gfp = GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN |
	      (mt == MIGRATE_MOVABLE ? __GFP_MOVABLE : mt == MIGRATE_RECLAIMABLE ? __GFP_RECLAIMABLE : 0);
	for (unsigned long n = page_zone(last)->free_area[0].nr_free; n; n--) {
		page = alloc_pages_node(0, gfp, 0);
		if (!page)
			break;
		page->private = 0;
		list_add(&page->lru, &held);
	}
	if (had_last)
		__free_pages(last, 0); /* the one free block of order 0: a refill's first */
	set_pcp_lists(true);
	KT_EXPECT(t, had_last && PageBuddy(first) && first->private == 0,
		  "before: node 0's last frame allocated %d, node 1's first frame free on its own %d", had_last,
		  PageBuddy(first) && first->private == 0);
	page = alloc_pages_node(0, gfp, 0);
	KT_EXPECT(t, page == last, "node 0's allocation got pfn %#lx, not its last frame %#lx", page ? page_to_pfn(page) : 0,
		  page_to_pfn(last));
	KT_EXPECT(t, PageBuddy(first) && first->private == 0,
		  "node 1's first frame, pfn %#lx, left its free lists (buddy %d, order %lu) when node 0's refill took "
		  "the frame beside it", page_to_pfn(first), PageBuddy(first), first->private);
	if (page)
		__free_pages(page, 0);
	give_back(&held);
	drain_pcp_lists();
	KT_EXPECT(t, mm_check_free_lists(NULL) == NULL, "after: %s", mm_check_free_lists(NULL));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* An allocation for node from that got a block of node want; the block is kept on held. */
static void expect_fallback(struct ktest *t, unsigned int from, unsigned int want, struct list_head *held)
{
	struct page *page = alloc_pages_node((int)from, GFP_KERNEL | __GFP_NOWARN, 0);

	if (!KT_EXPECT(t, page, "no page for node %u", from))
		return;
	KT_EXPECT(t, page_to_nid(page) == want, "node %u's allocation came from node %u, expected node %u", from,
		  page_to_nid(page), want);
	page->private = 0;
	list_add(&page->lru, held);
}

/*
 * Node 1 has no memory: its allocations go to node 0 (distance 20, a tie with node 2 broken by
 * number), then node 2 when node 0 is out, then node 3; node 0's go to 2, then 3 (1 has none).
 */
static void four_nodes_fall_back_in_distance_order(struct ktest *t)
{
	struct list_head held = { &held, &held };

	KT_ASSERT(t, rebuild_with(&four_nodes) == 0, "mm_init with four nodes");
	KT_EXPECT_EQ(t, nr_node_ids, 4);
	run_generic_cases(t);
	expect_fallback(t, 1, 0, &held);
	KT_EXPECT(t, take_node(0, &held), "node 0 gave nothing");
	expect_fallback(t, 1, 2, &held);
	expect_fallback(t, 0, 2, &held);
	KT_EXPECT(t, take_node(2, &held), "node 2 gave nothing");
	expect_fallback(t, 1, 3, &held);
	expect_fallback(t, 0, 3, &held);
	expect_fallback(t, 2, 3, &held);
	KT_EXPECT(t, !alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0), "node 0 is out of memory");
	give_back(&held);
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/*
 * Linux's meanings: with node 0 out of memory, an allocation preferring node 0 that gets node 2's
 * page is a miss on node 2 and a foreign on node 0 (and other_node on 2, from CPU 0 on node 0);
 * a CPU on node 2 allocating on its own node counts a hit and local_node there, by the fast path
 * too; a CPU on memoryless node 1 gets node 0's pages as hits, other_node.
 */
static void counters_move_as_linux_counts_them(struct ktest *t)
{
	struct list_head held = { &held, &held };
	unsigned long miss2, foreign0, other2, hit2, local2, hit0, other0;
	struct page *page;

	KT_ASSERT(t, rebuild_with(&four_nodes) == 0, "mm_init with four nodes");
	KT_EXPECT(t, take_node(0, &held), "node 0 gave nothing");
	miss2 = node_numa_stat(2, NUMA_MISS);
	foreign0 = node_numa_stat(0, NUMA_FOREIGN);
	other2 = node_numa_stat(2, NUMA_OTHER);
	expect_fallback(t, 0, 2, &held);
	KT_EXPECT_EQ(t, node_numa_stat(2, NUMA_MISS), miss2 + 1);
	KT_EXPECT_EQ(t, node_numa_stat(0, NUMA_FOREIGN), foreign0 + 1);
	KT_EXPECT_EQ(t, node_numa_stat(2, NUMA_OTHER), other2 + 1);
	give_back(&held);

	host_mm_set_cpu(3); /* on node 2 */
	hit2 = node_numa_stat(2, NUMA_HIT);
	local2 = node_numa_stat(2, NUMA_LOCAL);
	for (int i = 0; i < 4; i++) { /* alloc_pages(): the local node, the fast path once the list is filled */
		page = alloc_pages(GFP_KERNEL, 0);
		if (KT_EXPECT(t, page && page_to_nid(page) == 2, "CPU 3's page is node 2's")) {
			page->private = 0;
			list_add(&page->lru, &held);
		}
	}
	KT_EXPECT_EQ(t, node_numa_stat(2, NUMA_HIT), hit2 + 4);
	KT_EXPECT_EQ(t, node_numa_stat(2, NUMA_LOCAL), local2 + 4);
	give_back(&held);

	host_mm_set_cpu(2); /* on node 1, without memory */
	hit0 = node_numa_stat(0, NUMA_HIT);
	other0 = node_numa_stat(0, NUMA_OTHER);
	page = alloc_pages(GFP_KERNEL, 0);
	KT_EXPECT(t, page && page_to_nid(page) == 0, "CPU 2 on node 1 got node %u's page", page ? page_to_nid(page) : 99);
	KT_EXPECT_EQ(t, node_numa_stat(0, NUMA_HIT), hit0 + 1);
	KT_EXPECT_EQ(t, node_numa_stat(0, NUMA_OTHER), other0 + 1);
	if (page)
		__free_pages(page, 0);
	host_mm_set_cpu(0);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

static void no_layout_is_one_node(struct ktest *t)
{
	KT_ASSERT(t, rebuild_with(NULL) == 0, "mm_init without a layout");
	KT_EXPECT_EQ(t, nr_node_ids, 1);
	KT_EXPECT_EQ(t, mm_nr_zone_ids, MAX_NR_ZONES);
	KT_EXPECT_EQ(t, page_to_nid(pfn_to_page(PFN_DOWN(0x7fff000))), 0);
	run_generic_cases(t);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* Each bad layout is refused, with a message, and mm/ runs with one node holding all the memory. */
static void bad_layouts_give_one_node(struct ktest *t)
{
	struct mm_numa_layout bad[4] = { two_nodes, two_nodes, two_nodes, four_nodes };

	bad[0].ranges[1].start = 0x600000;        /* overlapping */
	bad[1].ranges[1].nid = 2;                 /* no such node */
	bad[2].distance[0][1] = 10;               /* another node as near as itself */
	bad[3].ranges[2].nid = 0;                 /* node 0 on both sides of node 2 */
	for (unsigned int i = 0; i < 4; i++) {
		struct node_meminfo mi;

		KT_ASSERT(t, rebuild_with(&bad[i]) == 0, "mm_init with bad layout %u", i);
		KT_EXPECT(t, nr_node_ids == 1, "bad layout %u: %u nodes", i, nr_node_ids);
		node_meminfo(0, &mi);
		KT_EXPECT_EQ(t, mi.total, meminfo_get().total);
	}
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

KTEST_SUITE_FLAGS(numa_layouts, hugetlb_pools_in_use, KTEST_REBUILDS_MM,
		  KTEST_CASE(two_nodes_split_memory_at_an_unaligned_edge),
		  KTEST_CASE(buddies_never_merge_across_a_node_edge),
		  KTEST_CASE(an_order0_refill_takes_no_pair_frame_across_a_node_edge),
		  KTEST_CASE(four_nodes_fall_back_in_distance_order),
		  KTEST_CASE(counters_move_as_linux_counts_them),
		  KTEST_CASE(no_layout_is_one_node),
		  KTEST_CASE(bad_layouts_give_one_node));
