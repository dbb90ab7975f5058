/* SPDX-License-Identifier: MIT */
/*
 * NUMA nodes inside mm/ (mm/node.h, mm/node_stat.h), on the layout mm/ runs with: one node on the
 * host and in most boots, two or four in test-qemu-numa2 and test-qemu-numa4 (a node without
 * memory, one without CPUs). alloc_pages_node() gives the asked node's pages, __GFP_THISNODE
 * never falls back, a node without memory falls back to the nearest with memory, the counters
 * move as Linux's do, per-node meminfo sums to the global figures, interleaving visits every node
 * with memory, each node's memmap lies in its own memory, every CPU has a node, and the vmstat
 * listing's numa_* counters are the nodes' summed, and move with them, and dump_page() names a
 * page's node.
 */
#include "tests/ktest/numa_nodes.h"

#include "lib/printk.h"
#include "lib/string.h"

#include "mm/arch.h"
#include "mm/dump_page.h"
#include "mm/memmap.h"
#include "mm/node_stat.h"
#include "mm/pcp.h"
#include "mm/page_alloc.h"
#include "mm/show_mem.h"
#include "mm/vmstat_show.h"
#include "tests/ktest/text_capture.h"

bool numa_node_has_memory(unsigned int nid)
{
	struct node_meminfo mi;

	node_meminfo(nid, &mi);
	return mi.total != 0;
}

int numa_nearest_with_memory(unsigned int nid)
{
	int best = -1;

	for (unsigned int n = 0; n < nr_node_ids; n++)
		if (numa_node_has_memory(n) &&
		    (best < 0 || node_distance(nid, n) < node_distance(nid, (unsigned int)best)))
			best = (int)n;
	return best;
}

/* Allocates order from nid, checks the node of the block and of its frames, frees it. */
static void expect_block_on(struct ktest *t, unsigned int nid, gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages_node((int)nid, gfp | __GFP_THISNODE | __GFP_NOWARN, order);

	if (!KT_EXPECT(t, page, "no order-%u block from node %u, which has memory", order, nid))
		return;
	KT_EXPECT(t, page_to_nid(page) == nid && page_to_nid(page + (1UL << order) - 1) == nid,
		  "an order-%u block asked of node %u is node %u's (pfn %#lx)", order, nid, page_to_nid(page),
		  page_to_pfn(page));
	KT_EXPECT_EQ(t, pfn_to_nid(page_to_pfn(page)), nid);
	__free_pages(page, order);
}

/* Does node nid have a free block of order or more in its buddy lists (or may it, after a drain)? */
static bool node_has_free_order(unsigned int nid, unsigned int order)
{
	drain_pcp_lists();
	for (unsigned int t = 0; t < MAX_NR_ZONES; t++)
		for (unsigned int o = order; o <= MAX_ORDER; o++)
			if (__atomic_load_n(&mm_zones[nid * MAX_NR_ZONES + t].free_area[o].nr_free, __ATOMIC_RELAXED))
				return true;
	return false;
}

void numa_pages_come_from_the_asked_node(struct ktest *t)
{
	static const unsigned int orders[] = { 0, 3, PAGEBLOCK_ORDER };

	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		for (unsigned int i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
			if (!node_has_free_order(nid, orders[i]))
				continue; /* a node without memory, or too little for a 2 MiB block */
			expect_block_on(t, nid, GFP_KERNEL, orders[i]);
			expect_block_on(t, nid, GFP_KERNEL | __GFP_MOVABLE, orders[i]);
		}
	KT_EXPECT(t, !alloc_pages_node((int)nr_node_ids, GFP_KERNEL | __GFP_NOWARN, 0),
		  "a node past nr_node_ids (%u) gave a page", nr_node_ids);
}

void numa_thisnode_fails_rather_than_fall_back(struct ktest *t)
{
	unsigned int without = 0;

	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		struct page *page;

		if (numa_node_has_memory(nid))
			continue;
		without++;
		page = alloc_pages_node((int)nid, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0);
		if (!KT_EXPECT(t, !page, "node %u has no memory, yet gave pfn %#lx (node %u)", nid,
			       page ? page_to_pfn(page) : 0, page ? page_to_nid(page) : 0))
			__free_pages(page, 0);
	}
	if (!without)
		ktest_skip(t, "every node has memory");
}

void numa_a_node_without_memory_falls_back_to_the_nearest(struct ktest *t)
{
	unsigned int without = 0;

	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		int want = numa_nearest_with_memory(nid);
		struct page *page;

		if (numa_node_has_memory(nid))
			continue;
		without++;
		page = alloc_pages_node((int)nid, GFP_KERNEL, 0);
		if (!KT_EXPECT(t, page, "no page for node %u from any node", nid))
			continue;
		KT_EXPECT(t, (int)page_to_nid(page) == want, "node %u fell back to node %u, the nearest with memory is %d",
			  nid, page_to_nid(page), want);
		__free_pages(page, 0);
	}
	if (!without)
		ktest_skip(t, "every node has memory");
}

void numa_counters_count_hits_and_local_allocations(struct ktest *t)
{
	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		unsigned long hit, local, other, miss;
		struct page *page[8];
		unsigned int me;

		if (!numa_node_has_memory(nid))
			continue;
		/* Interrupts off: the CPU, and so local or other, stays the same. */
		unsigned long flags = arch_irq_save();

		me = numa_node_id();
		hit = node_numa_stat(nid, NUMA_HIT);
		local = node_numa_stat(nid, NUMA_LOCAL);
		other = node_numa_stat(nid, NUMA_OTHER);
		miss = node_numa_stat(nid, NUMA_MISS);
		for (int i = 0; i < 8; i++)
			page[i] = alloc_pages_node((int)nid, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0);
		KT_EXPECT(t, node_numa_stat(nid, NUMA_HIT) >= hit + 8, "node %u: numa_hit %lu -> %lu after 8 allocations",
			  nid, hit, node_numa_stat(nid, NUMA_HIT));
		KT_EXPECT(t, node_numa_stat(nid, me == nid ? NUMA_LOCAL : NUMA_OTHER) >= (me == nid ? local : other) + 8,
			  "node %u: %s did not count 8 allocations from node %u's CPU", nid,
			  me == nid ? "local_node" : "other_node", me);
		KT_EXPECT_EQ(t, node_numa_stat(nid, NUMA_MISS), miss);
		arch_irq_restore(flags);
		for (int i = 0; i < 8; i++)
			if (KT_EXPECT(t, page[i], "allocation %d from node %u", i, nid))
				__free_pages(page[i], 0);
	}
}

void numa_node_meminfo_sums_to_the_global_figures(struct ktest *t)
{
	unsigned long total = 0, free = 0, present = 0, zones_total = 0, zones_present = 0;

	drain_pcp_lists(); /* no CPU's lists change while the figures are read */
	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		struct node_meminfo mi;

		node_meminfo(nid, &mi);
		KT_EXPECT_EQ(t, mi.used, mi.total - mi.free);
		total += mi.total;
		free += mi.free;
		present += mi.present;
	}
	for (unsigned int z = 0; z < mm_nr_zone_ids; z++) {
		zones_total += mm_zones[z].managed_pages;
		zones_present += mm_zones[z].present_pages;
	}
	KT_EXPECT_EQ(t, total, zones_total);
	KT_EXPECT_EQ(t, present, zones_present);
	KT_EXPECT_EQ(t, total, meminfo_get().total);
	KT_EXPECT_EQ(t, free, nr_free_pages());
}

void numa_interleave_visits_every_node_with_memory(struct ktest *t)
{
	unsigned long before[MAX_NUMNODES], got[MAX_NUMNODES] = { 0 };
	unsigned int with = 0, rounds = 3;
	struct page *page[3 * MAX_NUMNODES];
	unsigned int n = 0;

	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		with += numa_node_has_memory(nid);
		before[nid] = node_numa_stat(nid, NUMA_INTERLEAVE_HIT);
	}
	for (; n < rounds * with; n++) {
		page[n] = alloc_pages_interleave(GFP_KERNEL | __GFP_NOWARN, 0);
		if (!KT_EXPECT(t, page[n], "interleaved allocation %u", n))
			break;
		got[page_to_nid(page[n])]++;
	}
	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		unsigned long want = numa_node_has_memory(nid) ? rounds : 0;

		KT_EXPECT(t, got[nid] == want, "node %u got %lu of %u interleaved pages, expected %lu", nid, got[nid], n,
			  want);
		KT_EXPECT(t, node_numa_stat(nid, NUMA_INTERLEAVE_HIT) - before[nid] >= want,
			  "node %u: interleave_hit %lu -> %lu", nid, before[nid], node_numa_stat(nid, NUMA_INTERLEAVE_HIT));
	}
	while (n--)
		__free_pages(page[n], 0);
}

/*
 * The value vmstat_text() gives the counter name (a "name value" pair after a line start or a
 * space), or ~0UL when it lists no such pair.
 */
static unsigned long vmstat_text_value(const char *name)
{
	static char buf[1024]; /* off the stack: a kernel stack is small */
	size_t n = strlen(name);
	unsigned long v = 0;
	const char *at;

	vmstat_text(buf, sizeof(buf));
	for (at = strstr(buf, name); at; at = strstr(at + 1, name))
		if ((at == buf || at[-1] == ' ' || at[-1] == '\n') && at[n] == ' ')
			break;
	if (!at)
		return ~0UL;
	for (at += n + 1; *at >= '0' && *at <= '9'; at++)
		v = v * 10 + (unsigned long)(*at - '0');
	return v;
}

/* Each numa_* sum is its nodes' counters added up, read between two reads of the sum. */
static void expect_sums_of_the_nodes(struct ktest *t)
{
	for (unsigned int item = 0; item < NR_NODE_STAT_ITEMS; item++) {
		unsigned long before = global_numa_stat(item), sum = 0, after;

		for (unsigned int nid = 0; nid < nr_node_ids; nid++)
			sum += node_numa_stat(nid, item);
		after = global_numa_stat(item);
		KT_EXPECT(t, before <= sum && sum <= after, "%s: the nodes' sum %lu, vmstat's %lu then %lu",
			  numa_stat_name(item), sum, before, after);
	}
}

void numa_vmstat_counters_sum_the_nodes_and_move(struct ktest *t)
{
	unsigned long hit, near, inter;
	struct page *page[8], *one;
	const char *near_name;
	int nid;

	expect_sums_of_the_nodes(t);
	/* Interrupts off: the CPU, and so numa_local or numa_other, stays the same. */
	unsigned long flags = arch_irq_save();
	unsigned int me = numa_node_id();

	nid = numa_node_has_memory(me) ? (int)me : numa_nearest_with_memory(me);
	near_name = nid == (int)me ? "numa_local" : "numa_other";
	hit = vmstat_text_value("numa_hit");
	near = vmstat_text_value(near_name);
	for (int i = 0; i < 8; i++)
		page[i] = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0);
	KT_EXPECT(t, hit != ~0UL && vmstat_text_value("numa_hit") >= hit + 8,
		  "vmstat's numa_hit %lu -> %lu after 8 allocations from node %d", hit, vmstat_text_value("numa_hit"), nid);
	KT_EXPECT(t, near != ~0UL && vmstat_text_value(near_name) >= near + 8,
		  "vmstat's %s %lu -> %lu after 8 allocations from node %d on node %u's CPU", near_name, near,
		  vmstat_text_value(near_name), nid, me);
	arch_irq_restore(flags);
	inter = vmstat_text_value("numa_interleave");
	one = alloc_pages_interleave(GFP_KERNEL | __GFP_NOWARN, 0);
	KT_EXPECT(t, inter != ~0UL && vmstat_text_value("numa_interleave") >= inter + 1,
		  "vmstat's numa_interleave %lu -> %lu after an interleaved allocation", inter,
		  vmstat_text_value("numa_interleave"));
	for (int i = 0; i < 8; i++)
		if (KT_EXPECT(t, page[i], "allocation %d from node %d", i, nid))
			__free_pages(page[i], 0);
	if (KT_EXPECT(t, one, "the interleaved allocation"))
		__free_pages(one, 0);
	expect_sums_of_the_nodes(t);
}

void numa_dump_page_names_the_node(struct ktest *t)
{
	for (unsigned int nid = 0; nid < nr_node_ids; nid++) {
		struct page *page;
		char want[64];

		if (!numa_node_has_memory(nid))
			continue;
		page = alloc_pages_node((int)nid, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0);
		if (!KT_EXPECT(t, page, "an allocation from node %u", nid))
			continue;
		snprintf(want, sizeof(want), " zone %s node %u flags ", zone_name(page_zonenum(page) % MAX_NR_ZONES), nid);
		capture_console_start();
		dump_page(page, "numa_nodes self-test: the node is named");
		capture_console_stop();
		KT_EXPECT(t, strstr(captured.text, want), "no \"%s\" in:\n%s", want, captured.text);
		__free_pages(page, 0);
	}
}

void numa_each_memmap_lies_in_its_node(struct ktest *t)
{
	if (nr_node_ids == 1) {
		ktest_skip(t, "one node: the memmap goes anywhere");
		return;
	}
	KT_EXPECT_EQ(t, mm_memmap_off_node_bytes, 0);
	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		KT_EXPECT(t, !numa_node_has_memory(nid) || mm_memmap_node_bytes[nid],
			  "node %u has memory but none of the memmap is in it", nid);
}

void numa_every_cpu_is_on_a_node(struct ktest *t)
{
	unsigned long flags = arch_irq_save();

	KT_EXPECT(t, numa_node_id() < nr_node_ids, "this CPU's node %u, %u nodes", numa_node_id(), nr_node_ids);
	KT_EXPECT_EQ(t, numa_node_id(), cpu_to_node(arch_cpu_id()));
	arch_irq_restore(flags);
	KT_EXPECT_EQ(t, num_online_nodes(), nr_node_ids);
	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		KT_EXPECT_EQ(t, node_distance(nid, nid), LOCAL_DISTANCE);
}

KTEST_SUITE(numa_nodes,
	    KTEST_CASE(numa_pages_come_from_the_asked_node),
	    KTEST_CASE(numa_thisnode_fails_rather_than_fall_back),
	    KTEST_CASE(numa_a_node_without_memory_falls_back_to_the_nearest),
	    KTEST_CASE(numa_counters_count_hits_and_local_allocations),
	    KTEST_CASE(numa_node_meminfo_sums_to_the_global_figures),
	    KTEST_CASE(numa_interleave_visits_every_node_with_memory),
	    KTEST_CASE(numa_vmstat_counters_sum_the_nodes_and_move),
	    KTEST_CASE(numa_dump_page_names_the_node),
	    KTEST_CASE(numa_each_memmap_lies_in_its_node),
	    KTEST_CASE(numa_every_cpu_is_on_a_node));
