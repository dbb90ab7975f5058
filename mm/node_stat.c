/* SPDX-License-Identifier: MIT */
/* Per-node meminfo and numastat: sums over each node's zones and every CPU's lists. See mm/node_stat.h. */
#include "mm/node_stat.h"

#include "mm/arch.h"
#include "mm/page_alloc.h"
#include "mm/pcp.h"

void node_meminfo(unsigned int nid, struct node_meminfo *mi)
{
	*mi = (struct node_meminfo){ 0 };
	for (unsigned int t = 0; nid < mm_nr_node_ids && t < MAX_NR_ZONES; t++) {
		const struct zone *zone = &mm_zones[nid * MAX_NR_ZONES + t];

		mi->present += __atomic_load_n(&zone->present_pages, __ATOMIC_RELAXED);
		mi->total += __atomic_load_n(&zone->managed_pages, __ATOMIC_RELAXED);
		mi->free += zone_free_pages(zone);
	}
	mi->used = mi->total > mi->free ? mi->total - mi->free : 0;
}

/* Allocations the fast path served from node nid's zones on cpu's lists. */
static unsigned long fast_hits(unsigned int cpu, unsigned int nid)
{
	unsigned long n = 0;

	for (unsigned int t = 0; t < MAX_NR_ZONES; t++)
		n += pcp_alloc_hits(cpu_pcp(cpu, nid * MAX_NR_ZONES + t));
	return n;
}

/*
 * The fast path's share of a counter: its allocations are all hits (their zone is the first of
 * their node's order), local when the CPU is on the zone's node.
 */
static unsigned long fast_share(unsigned int nid, enum node_stat_item item)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++) {
		bool local = cpu_to_node(cpu) == nid;

		if (item == NUMA_HIT || (item == NUMA_LOCAL && local) || (item == NUMA_OTHER && !local))
			n += fast_hits(cpu, nid);
	}
	return n;
}

/* Slow-path event ev (mm/node.h) on node nid's zones, summed over every CPU's lists; racy reads. */
static unsigned long node_event(unsigned int nid, unsigned int ev)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		for (unsigned int t = 0; t < MAX_NR_ZONES; t++)
			n += __atomic_load_n(&cpu_node_events(cpu, nid * MAX_NR_ZONES + t)[ev], __ATOMIC_RELAXED);
	return n;
}

/* The slow paths' share of a counter: sums of their events. */
static unsigned long slow_share(unsigned int nid, enum node_stat_item item)
{
	switch (item) {
	case NUMA_HIT:
		return node_event(nid, NODE_EV_HIT_LOCAL) + node_event(nid, NODE_EV_HIT_OTHER);
	case NUMA_MISS:
		return node_event(nid, NODE_EV_MISS_LOCAL) + node_event(nid, NODE_EV_MISS_OTHER);
	case NUMA_FOREIGN:
		return node_event(nid, NODE_EV_FOREIGN);
	case NUMA_INTERLEAVE_HIT:
		return node_event(nid, NODE_EV_INTERLEAVE);
	case NUMA_LOCAL:
		return node_event(nid, NODE_EV_HIT_LOCAL) + node_event(nid, NODE_EV_MISS_LOCAL);
	case NUMA_OTHER:
		return node_event(nid, NODE_EV_HIT_OTHER) + node_event(nid, NODE_EV_MISS_OTHER);
	default:
		return 0;
	}
}

unsigned long node_numa_stat(unsigned int nid, enum node_stat_item item)
{
	if (nid >= mm_nr_node_ids || item >= NR_NODE_STAT_ITEMS)
		return 0;
	return slow_share(nid, item) + fast_share(nid, item);
}

void show_node_meminfo(void)
{
	for (unsigned int nid = 0; nid < mm_nr_node_ids; nid++) {
		struct node_meminfo mi;

		node_meminfo(nid, &mi);
		printk("Node %u MemTotal: %8lu kB\nNode %u MemFree:  %8lu kB\nNode %u MemUsed:  %8lu kB\n", nid,
		       mi.total << (PAGE_SHIFT - 10), nid, mi.free << (PAGE_SHIFT - 10), nid, mi.used << (PAGE_SHIFT - 10));
		printk("Node %u numastat:", nid);
		for (unsigned int i = 0; i < NR_NODE_STAT_ITEMS; i++)
			printk(" %s %lu", node_stat_name(i), node_numa_stat(nid, (enum node_stat_item)i));
		printk("\n");
	}
}
